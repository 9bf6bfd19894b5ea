"""``swept warmup``: the kernel families compiled ahead in a pool of processes (each family
in its own interpreter, every one run even when another fails), bad arguments named, and
one family run for real through the command."""

from __future__ import annotations

import subprocess
import sys
import threading
import time
from typing import Any

import pytest

from swept import warmup


def test_every_family_runs_once_in_a_pool_of_jobs(monkeypatch: pytest.MonkeyPatch) -> None:
    """A pool of two runs every family once, never more than two at a time, and reports each
    family's figures."""
    running = [0]
    most = [0]
    seen: list[str] = []
    lock = threading.Lock()

    def child(name: str, locks: str = "") -> tuple[str, float, float]:
        with lock:
            running[0] += 1
            most[0] = max(most[0], running[0])
            seen.append(name)
        time.sleep(0.02)
        with lock:
            running[0] -= 1
        return name, 1.0, 2.0

    monkeypatch.setattr(warmup, "_child", child)
    spent = warmup.warm_up(2)
    assert sorted(seen) == sorted(warmup.FAMILIES)
    assert spent == {name: (1.0, 2.0) for name in warmup.FAMILIES}
    assert most[0] == 2


def test_the_default_pool_is_one_process_a_core(monkeypatch: pytest.MonkeyPatch) -> None:
    """The warm-up runs one process a core by default, with no spare process: on the 2-core
    machine of issue 11 (two SMT siblings) a third process took more CPU in every measured pair
    (``compile17``). On 3 cores, 3 families at a time, never 4."""
    running = [0]
    most = [0]
    lock = threading.Lock()

    def child(name: str, locks: str = "") -> tuple[str, float, float]:
        with lock:
            running[0] += 1
            most[0] = max(most[0], running[0])
        time.sleep(0.05)
        with lock:
            running[0] -= 1
        return name, 1.0, 1.0

    monkeypatch.setattr(warmup, "_child", child)
    monkeypatch.setattr(warmup.os, "cpu_count", lambda: 3)
    warmup.warm_up()
    assert most[0] == 3


def test_on_two_cores_the_simulations_halves_never_compile_together(
        monkeypatch: pytest.MonkeyPatch) -> None:
    """A process waiting on another's compile lock leaves its core idle: started together on
    two cores, ``sim2d`` and ``sim2d_moves`` waited 17 s on each other's locks (a cold warm-up
    of 67.6 s against 53.4 s in FAMILIES' order). With each family taking its measured CPU
    time (2 ms a second), two processes run ``sim2d`` beside the level meshes and the World,
    and ``sim2d_moves`` starts only once ``sim2d`` is done."""
    seconds = {"sim2d": 46.0, "level_meshes": 18.5, "world2d": 23.3, "level_fields": 2.1,
               "scalar2d": 6.2, "scalar3d": 4.8, "level_tiles": 1.9, "sim2d_moves": 0.8,
               "world3d": 0.4, "sim3d": 0.1}
    assert set(seconds) == set(warmup.FAMILIES)
    log: list[tuple[str, str]] = []
    lock = threading.Lock()

    def child(name: str, locks: str = "") -> tuple[str, float, float]:
        with lock:
            log.append(("start", name))
        time.sleep(seconds[name] * 0.002)
        with lock:
            log.append(("end", name))
        return name, 1.0, 1.0

    monkeypatch.setattr(warmup, "_child", child)
    warmup.warm_up(2)
    assert log[:2] == [("start", "sim2d"), ("start", "level_meshes")]
    assert log.index(("end", "sim2d")) < log.index(("start", "sim2d_moves"))
    assert log.index(("start", "world2d")) < log.index(("end", "sim2d"))

def test_a_family_starts_after_those_it_waits_for(monkeypatch: pytest.MonkeyPatch) -> None:
    """A family whose kernels another compiles too (the Simulation's, the World's) starts only
    once that one is done, so that it loads them from the cache instead of compiling them
    again at the same time; a family not chosen is not waited for."""
    log: list[tuple[str, str]] = []
    lock = threading.Lock()

    def child(name: str, locks: str = "") -> tuple[str, float, float]:
        with lock:
            log.append(("start", name))
        time.sleep(0.01)
        with lock:
            log.append(("end", name))
        return name, 1.0, 1.0

    monkeypatch.setattr(warmup, "_child", child)
    warmup.warm_up(3)
    for name, before in warmup.AFTER.items():
        for other in before:
            assert log.index(("end", other)) < log.index(("start", name))
    log.clear()
    assert set(warmup.warm_up(2, ["sim3d"])) == {"sim3d"}
    assert log == [("start", "sim3d"), ("end", "sim3d")]


def test_a_failing_family_is_reported_after_the_others_ran(
        monkeypatch: pytest.MonkeyPatch) -> None:
    """One family's failure is a RuntimeError naming it, raised once every family ran."""
    seen: list[str] = []

    def child(name: str, locks: str = "") -> tuple[str, float, float]:
        seen.append(name)
        if name == "level_meshes":
            raise RuntimeError("warm-up family 'level_meshes' failed (status 1): boom")
        return name, 1.0, 1.0

    monkeypatch.setattr(warmup, "_child", child)
    with pytest.raises(RuntimeError, match="'level_meshes' failed"):
        warmup.warm_up(1)
    assert sorted(seen) == sorted(warmup.FAMILIES)


@pytest.mark.parametrize("jobs", [0, -1, 1.5, True, "2"])
def test_bad_jobs_is_a_value_error_naming_it(jobs: Any) -> None:
    with pytest.raises(ValueError, match="jobs"):
        warmup.warm_up(jobs, ["scalar3d"])


def test_an_unknown_family_is_a_value_error_naming_it() -> None:
    with pytest.raises(ValueError, match="names: unknown warm-up family 'nope'"):
        warmup.warm_up(1, ["scalar3d", "nope"])


def test_the_command_compiles_a_family_for_real() -> None:
    """`swept warmup --only scalar3d --jobs 1` runs the family in a fresh interpreter and
    prints its row and the total."""
    done = subprocess.run([sys.executable, "-m", "swept", "warmup", "--only", "scalar3d",
                           "--jobs", "1"], capture_output=True, text=True, timeout=900)
    assert done.returncode == 0, done.stderr
    lines = done.stdout.splitlines()
    assert lines[0].split() == ["family", "start", "s", "wall", "s", "CPU", "s"]
    assert lines[1].split()[0] == "scalar3d"
    assert lines[-1].startswith("all 1 in ")


@pytest.mark.parametrize("argv", [["warmup", "--jobs", "0"], ["warmup", "--only", "nope"],
                                  ["warmup", "--jobs", "99"]])
def test_bad_command_arguments_exit_2(argv: list[str]) -> None:
    done = subprocess.run([sys.executable, "-m", "swept", *argv], capture_output=True,
                          text=True, timeout=120)
    assert done.returncode == 2
    assert done.stderr.count("\n") == 1


def test_the_moves_family_compiles_the_steps_own_signatures() -> None:
    """``sim2d_moves`` compiles the Simulation's move and passes from Python so that a
    warm-up's ``sim2d`` process loads them instead of compiling them: that holds only while
    its calls give the kernels the very argument types the step's compiled calls give them
    (another type would be one more compile of each, in both the warm-up and the tour). In a
    fresh interpreter, the family's signatures are all the kernels have after the 2D
    Simulation family runs too."""
    code = (
        "from swept import warmup\n"
        "from swept._kernels import sim as k\n"
        "def signatures():\n"
        "    return {(n, str(s)) for n in ('advance_range', 'resolve_range')\n"
        "            for s in getattr(k, n).signatures}\n"
        "warmup.run_families(['sim2d_moves'])\n"
        "moves = signatures()\n"
        "warmup.run_families(['sim2d'])\n"
        "print(len(moves), len(signatures()), moves == signatures())\n")
    done = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True,
                          timeout=1800)
    assert done.returncode == 0, done.stderr
    assert done.stdout.split()[-3:] == ["2", "2", "True"]


def test_a_worker_runs_one_family_after_another(tmp_path: Any) -> None:
    """A warm-up's worker interpreter, once idle, runs the next family (numba's start-up paid
    once a process, not once a family: 1.2 s of CPU each, measured); a family that fails is
    a RuntimeError naming it and its error, and ends that worker."""
    locks = str(tmp_path)
    try:
        assert warmup._child("scalar3d", locks)[0] == "scalar3d"
        first = warmup._idle[locks].get_nowait()
        warmup._idle[locks].put(first)
        name, wall, cpu = warmup._child("scalar3d", locks)
        assert (name, wall > 0.0, cpu >= 0.0) == ("scalar3d", True, True)
        again = warmup._idle[locks].get_nowait()
        assert again is first and again.process.poll() is None
        assert warmup._idle[locks].empty()
        warmup._idle[locks].put(again)
        with pytest.raises(RuntimeError, match="(?s)'nope' failed: .*KeyError"):
            warmup._child("nope", locks)
        assert warmup._idle[locks].empty()
        assert again.process.returncode is not None
    finally:
        warmup._close_workers(locks)
    assert locks not in warmup._idle
