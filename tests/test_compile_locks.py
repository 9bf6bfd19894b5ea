"""swept warmup's compile locks (swept._kernels.compile_locks): a warm-up process that meets a
kernel another process is compiling waits for that compile and loads its result from the disk
cache, instead of compiling it a second time; a lock is re-entrant in its process, and a wait
gives up instead of stalling."""

from __future__ import annotations

import fcntl
import os
import pathlib
import subprocess
import sys
import threading
import time

import numpy as np
import pytest

from swept import warmup
from swept._kernels import compile_locks
from test_linking import _MODULE  # top calls middle, which calls leaf

SRC = str(pathlib.Path(__file__).resolve().parent.parent / "src")


#: The second process: says it is ready, calls the kernel, then prints the time it got the
#: result and its compiles of each kernel.
_CHILD = r'''
import sys, time
import numpy as np
import linked_mod as m
print("ready", flush=True)
value = m.top(np.arange(4.0), 3)
print(time.time(), value, sum(m.top.stats.cache_misses.values()),
      sum(m.leaf.stats.cache_misses.values()), flush=True)
'''


def test_a_process_waits_for_the_kernel_another_compiles_and_loads_it(
        tmp_path: pathlib.Path) -> None:
    """This process holds ``top``'s lock and compiles the kernels (writing the disk
    cache); the second process, started with the lock directory, reaches the kernel, waits
    until the lock is let go, and then loads both kernels instead of compiling them."""
    (tmp_path / "linked_mod.py").write_text(_MODULE)
    locks = tmp_path / "locks"
    locks.mkdir()
    env = dict(os.environ, PYTHONPATH=os.pathsep.join([str(tmp_path), SRC]),
               **{compile_locks.ENV: str(locks)})
    path = compile_locks.lock_path(str(locks), "linked_mod", "top")
    sys.path.insert(0, str(tmp_path))
    try:
        with compile_locks._locked(path) as held:
            assert held
            child = subprocess.Popen([sys.executable, "-c", _CHILD], env=env, cwd=tmp_path,
                                     stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
            assert child.stdout is not None
            assert child.stdout.readline().strip() == "ready"
            import linked_mod  # type: ignore[import-not-found]
            assert linked_mod.top(np.arange(4.0), 3) == 36.0
            time.sleep(1.0)
            assert child.poll() is None  # still waiting for the lock
            released = time.time()
        out, err = child.communicate(timeout=600)
    finally:
        sys.path.remove(str(tmp_path))
        sys.modules.pop("linked_mod", None)
    assert child.returncode == 0, err[-3000:]
    done, value, top_misses, leaf_misses = out.split()
    assert float(done) >= released
    assert float(value) == 36.0
    assert (int(top_misses), int(leaf_misses)) == (0, 0)


def test_a_lock_is_re_entered_by_its_own_thread(tmp_path: pathlib.Path) -> None:
    """A kernel typed again inside its own compile takes its lock a second time: no wait."""
    path = str(tmp_path / "k.lock")
    key = (threading.get_ident(), path)
    with compile_locks._locked(path) as outer:
        with compile_locks._locked(path) as inner:
            assert outer and inner
        assert key in compile_locks._held
    assert key not in compile_locks._held


def test_another_thread_of_the_process_waits_for_the_lock(tmp_path: pathlib.Path) -> None:
    """Two threads of one process meeting a kernel at once (a batch query's threads): the
    second waits for the first's lock instead of entering it as its own. Keyed by path alone,
    the second thread entered at once, and the first's release (deleting the shared entry)
    made the second's release raise KeyError (seen in a warm-up)."""
    path = str(tmp_path / "k.lock")
    log: list[str] = []
    errors: list[BaseException] = []
    inside = threading.Event()

    def second() -> None:
        try:
            inside.wait(10)
            with compile_locks._locked(path) as held:
                log.append(f"second in {held}")
        except BaseException as exc:  # noqa: BLE001 - reported below
            errors.append(exc)

    thread = threading.Thread(target=second)
    thread.start()
    with compile_locks._locked(path) as held:
        log.append(f"first in {held}")
        inside.set()
        time.sleep(0.3)
        log.append("first out")
    thread.join(30)
    assert not thread.is_alive()
    assert errors == []
    assert log == ["first in True", "first out", "second in True"]
    assert compile_locks._held == {}


def test_a_wait_gives_up_after_its_polls(tmp_path: pathlib.Path,
                                         monkeypatch: pytest.MonkeyPatch) -> None:
    """A lock that another holder keeps is given up after the cap of polls (the caller then
    compiles on its own), and the lock file stays usable."""
    monkeypatch.setattr(compile_locks, "COMPILE_LOCK_MAX_POLLS", 3)
    monkeypatch.setattr(compile_locks, "COMPILE_LOCK_POLL_SECONDS", 0.01)
    path = str(tmp_path / "k.lock")
    other = os.open(path, os.O_RDWR | os.O_CREAT)
    try:
        fcntl.flock(other, fcntl.LOCK_EX)
        with compile_locks._locked(path) as held:
            assert not held
        assert (threading.get_ident(), path) not in compile_locks._held
    finally:
        os.close(other)
    with compile_locks._locked(path) as held:
        assert held


def test_without_the_variable_nothing_changes(monkeypatch: pytest.MonkeyPatch) -> None:
    """Outside a warm-up a dispatcher's compile is numba's own."""
    monkeypatch.delenv(compile_locks.ENV, raising=False)

    class Dispatcher:
        def compile(self, sig: object) -> object:
            return sig

    d = Dispatcher()
    assert compile_locks.compiled_once(d) is d
    assert "compile" not in vars(d)


def test_the_warm_up_names_the_same_variable() -> None:
    """swept.warmup spells the variable itself (its process never imports numba)."""
    assert warmup.LOCKS_ENV == compile_locks.ENV
