"""A/B of a cold ``swept warmup``: a base revision and the working tree, each in a fresh copy
with an empty numba cache, one after the other in turns (a warm-up uses every core, so the two
cannot run side by side).

Each round runs the two warm-ups back to back, the order swapped every round (``--first``
picks the first round's), and reads each one's wall time and its processes' CPU time (user +
system), the load average before it, and how many samples (every 2 s) found a process of
someone else's running (on the 2-core machine of issue 11 another helper's benchmark beside a
warm-up slows it up to 2x: compare only pairs that read the same). Reported: each round's
figures and new / base ratios, and the medians of the ratios. ``--base-args`` / ``--new-args``
pass options to each side's ``swept warmup`` (``--jobs 2``: the same code at two settings).
Usage::

    python benchmarks/ab_warmup.py --base main --rounds 2
"""

from __future__ import annotations

import argparse
import os
import shlex
import shutil
import statistics
import subprocess
import sys
import tempfile
import threading
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]

#: Seconds between two samples of the other processes.
SAMPLE_SECONDS = 2.0


def _copy(rev: str | None, into: Path) -> None:
    """``src/swept`` of revision ``rev`` (the working tree when None) into ``into`` / swept,
    without any numba cache."""
    if rev is None:
        shutil.copytree(ROOT / "src" / "swept", into / "swept",
                        ignore=shutil.ignore_patterns("__pycache__"))
        return
    archive = subprocess.run(["git", "archive", rev, "src/swept"], cwd=ROOT, check=True,
                             capture_output=True).stdout
    subprocess.run(["tar", "-x", "--strip-components=1", "-C", str(into)], input=archive,
                   check=True)


def _others_running(mine: int) -> int:
    """How many running processes (state R) are neither this one nor its descendants, nor
    the kernel's threads (descendants of pid 2, kthreadd)."""
    out = subprocess.run(["ps", "-eo", "pid=,ppid=,stat="], capture_output=True, text=True,
                         check=True).stdout.split("\n")
    parent = {}
    running = []
    for line in out:
        words = line.split()
        if len(words) == 3:
            parent[int(words[0])] = int(words[1])
            if words[2].startswith("R"):
                running.append(int(words[0]))
    count = 0
    for pid in running:
        p = pid
        for _ in range(64):  # the depth of the process tree, capped
            if p in (mine, os.getpid(), 0, 1, 2) or p not in parent:
                break
            p = parent[p]
        count += p not in (mine, os.getpid(), 0, 2)
    return count


def warmup(rev: str | None, args: list[str]) -> dict[str, float]:
    """One cold ``swept warmup`` of ``rev`` (None: the working tree): wall and CPU seconds,
    the load before it, and the share of samples that found someone else's process running."""
    with tempfile.TemporaryDirectory(prefix="ab-warmup-") as tmp:
        _copy(rev, Path(tmp))
        env = dict(os.environ, PYTHONPATH=tmp)
        env.pop("NUMBA_CACHE_DIR", None)
        load = os.getloadavg()[0]
        before = os.times()
        start = time.perf_counter()
        proc = subprocess.Popen([sys.executable, "-m", "swept", "warmup", *args], env=env,
                                cwd=tmp, stdout=subprocess.DEVNULL)
        samples: list[int] = []
        stop = threading.Event()

        def sample() -> None:
            while not stop.wait(SAMPLE_SECONDS):
                samples.append(_others_running(proc.pid))

        watcher = threading.Thread(target=sample, daemon=True)
        watcher.start()
        code = proc.wait()
        wall = time.perf_counter() - start
        stop.set()
        watcher.join()
        after = os.times()
    if code:
        raise RuntimeError(f"swept warmup of {rev or 'the working tree'} failed ({code})")
    cpu = (after.children_user - before.children_user
           + after.children_system - before.children_system)
    busy = sum(1 for s in samples if s) / len(samples) if samples else 0.0
    return {"wall": wall, "cpu": cpu, "load": load, "others": busy}


def main(argv: list[str] | None = None) -> int:
    """Run the rounds and print each one's figures and the medians of the ratios."""
    p = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    p.add_argument("--base", default="main", help="the base revision (default: main)")
    p.add_argument("--rounds", type=int, default=2, help="pairs of warm-ups (default: 2)")
    p.add_argument("--first", choices=("base", "new"), default="base",
                   help="which side runs first in the first round (then alternated)")
    p.add_argument("--base-args", default="", help="options of the base's swept warmup")
    p.add_argument("--new-args", default="", help="options of the new side's swept warmup")
    a = p.parse_args(argv)
    if not 1 <= a.rounds <= 100:
        raise ValueError(f"rounds must be 1 to 100, got {a.rounds}")
    sides = {"base": (a.base, shlex.split(a.base_args)), "new": (None, shlex.split(a.new_args))}
    order = ["base", "new"] if a.first == "base" else ["new", "base"]
    walls, cpus = [], []
    for r in range(a.rounds):
        got = {}
        for side in order if r % 2 == 0 else order[::-1]:
            got[side] = warmup(*sides[side])
            g = got[side]
            print(f"round {r} {side:4s} wall {g['wall']:6.1f} s  CPU {g['cpu']:6.1f} s  "
                  f"load {g['load']:.2f}  others running {g['others']:.0%}", flush=True)
        walls.append(got["new"]["wall"] / got["base"]["wall"])
        cpus.append(got["new"]["cpu"] / got["base"]["cpu"])
        print(f"round {r} new / base: wall {walls[-1]:.3f}  CPU {cpus[-1]:.3f}", flush=True)
    print(f"median new / base over {a.rounds} rounds: wall {statistics.median(walls):.3f}  "
          f"CPU {statistics.median(cpus):.3f}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
