"""A/B of the Simulation's step on ``bench_sim.py``'s scene: a base revision and the working tree,
each in its own process, stepped in turns, every step's outputs hashed.

The base revision's ``src/swept`` is exported under its own name into
``benchmarks/results/ab-<rev>/plain`` (kept, so that its numba cache is compiled once) and
imported alone by its process; the working tree's ``swept`` comes from the caller's
``PYTHONPATH``. A renamed copy beside the working tree's in one process (``ab_rays.py``'s
``sweptbase``) stepped the Simulation 1.2-1.5x slower than the very same code as ``swept``,
in one process and apart, and whichever of the two was built first read faster: no use for
the Simulation. Each pair of processes (``--pairs``, one pair after another) builds
``bench_sim``'s scene of ``--balls`` balls in swept mode, takes ``--warm`` untimed steps, then
``--rounds`` rounds in which each process steps ``--steps`` times while the other waits (the
order swapped every round), each step timed by the process's CPU clock (every thread), the
calling thread's CPU clock (the caller's part: the serial calls, the Python and the chunks it
ran) and the wall clock. Reported: each pair's median of its rounds' new / base ratios, then
the median over every round of every pair (with quartiles) and the medians of the steps, and
whether every step's positions, velocities and ``caught`` / ``missed`` counters hashed equal.
Usage::

    PYTHONPATH=$PWD/src python benchmarks/ab_sim.py --base main --threads 2 --pairs 6

``--threads``: the thread count of both (``set_threads``). ``--form``: ``auto`` (the step's own
choice between its one compiled call and its threaded form, as ``bench_sim`` runs it),
``threaded`` (the threaded form at every step, each range kernel on the threads: what two free
cores run) or ``fused`` (the one compiled call). ``--first``: whose process starts first in
each pair (run both: separate processes read the same code up to 1.5x apart here, pair to
pair).
"""

from __future__ import annotations

import argparse
import hashlib
import json
import os
import statistics
import subprocess
import sys
import tarfile
import time
from pathlib import Path
from typing import Any

import numpy as np

HERE = Path(__file__).resolve().parent
sys.path.insert(0, str(HERE))

import bench_sim  # noqa: E402

#: Clocks read around each step: the process's CPU (every thread), the calling thread's CPU,
#: the wall.
CLOCKS = (("cpu", time.process_time), ("serial", time.thread_time), ("wall", time.perf_counter))


def simulation(pkg: Any, scene: dict[str, Any]) -> Any:
    """``bench_sim``'s scene as a swept-mode Simulation of package ``pkg``."""
    sim = pkg.Simulation(step=bench_sim.STEP)
    for a, b in zip(scene["wall_a"], scene["wall_b"]):
        sim.world.add(pkg.Segment(a, b))
    sim.add_balls(scene["centers"], scene["radii"], scene["velocities"], restitution=1.0,
                  friction=0.0, ccd="swept")
    return sim


def force(pkg: Any, form: str) -> None:
    """Make every choice of ``pkg``'s runner (``either_way``, ``parallel_for``) go the way
    ``form`` says: ``threaded`` the threads, ``fused`` one thread; ``auto`` leaves it."""
    if form == "auto":
        return
    parallel = form == "threaded"
    pkg._parallel._Choice.pick = lambda self, now: (parallel, False)


def state(sim: Any) -> bytes:
    """A hash of what a step leaves: positions, velocities and the two counters."""
    h = hashlib.sha1()
    for a in (sim.positions, sim.velocities, sim.caught, sim.missed):
        h.update(np.ascontiguousarray(a).tobytes())
    return h.digest()


def step_times(sim: Any, steps: int, hashes: list[bytes]) -> dict[str, float]:
    """Steps ``sim`` ``steps`` times; each clock's seconds a step (the median of the steps),
    each step's hash appended to ``hashes`` (untimed)."""
    times: dict[str, list[float]] = {name: [] for name, _ in CLOCKS}
    for _ in range(steps):
        start = [clock() for _, clock in CLOCKS]
        sim.run(1)
        end = [clock() for _, clock in CLOCKS]
        for (name, _), a, b in zip(CLOCKS, start, end):
            times[name].append(b - a)
        hashes.append(state(sim))
    return {name: statistics.median(values) for name, values in times.items()}


def base_source(rev: str) -> Path:
    """The folder holding revision ``rev``'s ``src/swept`` under its own name (exported once,
    kept, so that its numba cache is compiled once): a process imports it alone, and a renamed
    copy beside the working tree's (``ab_rays.py``'s ``sweptbase``) stepped the Simulation
    1.2-1.5x slower than the same code as ``swept`` (both in one process, and apart)."""
    sha = subprocess.run(["git", "rev-parse", "--short=10", rev], cwd=HERE.parent, check=True,
                         capture_output=True, text=True).stdout.strip()
    top = HERE / "results" / f"ab-{sha}" / "plain"
    if not (top / "swept").exists():
        top.mkdir(parents=True, exist_ok=True)
        archive = top / "src.tar"
        subprocess.run(["git", "archive", "-o", str(archive), sha, "src/swept"], cwd=HERE.parent,
                       check=True)
        with tarfile.open(archive) as tar:
            tar.extractall(top)  # noqa: S202 (our own repository's archive)
        (top / "src" / "swept").rename(top / "swept")
    return top


def child(label: str, args: argparse.Namespace) -> None:
    """A child process: ``label``'s simulation, stepped ``--steps`` times at each line read
    from stdin; writes each round's clocks (medians a step) and a hash of its steps' states."""
    import swept as pkg
    pkg.set_threads(args.threads)
    force(pkg, args.form)
    sim = simulation(pkg, bench_sim.make_scene(args.balls))
    sim.run(args.warm)
    print(json.dumps({"file": pkg.__file__}), flush=True)
    for _ in sys.stdin:
        hashes: list[bytes] = []
        times = step_times(sim, args.steps, hashes)
        h = hashlib.sha1(b"".join(hashes)).hexdigest()
        print(json.dumps({**times, "hash": h}), flush=True)


def pair(args: argparse.Namespace, argv: list[str]) -> tuple[dict[str, list[dict[str, Any]]], str]:
    """One pair of child processes (base, new), started in the ``--first`` order and stepped
    in turns, the order swapped every round: each round's reply of each, and their files."""
    order = ("base", "new") if args.first == "base" else ("new", "base")
    # the base's process finds the base revision's ``swept`` first on its path, the new one
    # the working tree's (the caller's PYTHONPATH)
    paths = {"base": str(base_source(args.base)), "new": os.environ.get("PYTHONPATH", "")}
    procs = {}
    files = []
    for label in order:
        procs[label] = subprocess.Popen(
            [sys.executable, __file__, "--child", label, *argv], stdin=subprocess.PIPE,
            stdout=subprocess.PIPE, text=True, env={**os.environ, "PYTHONPATH": paths[label]})
        line = procs[label].stdout.readline()  # type: ignore[union-attr]
        files.append(f"{label} {json.loads(line)['file']}")
    per: dict[str, list[dict[str, Any]]] = {label: [] for label in order}
    try:
        for r in range(args.rounds):
            for label in (order if r % 2 == 0 else order[::-1]):
                proc = procs[label]
                proc.stdin.write("\n")  # type: ignore[union-attr]
                proc.stdin.flush()  # type: ignore[union-attr]
                per[label].append(json.loads(proc.stdout.readline()))  # type: ignore[union-attr]
    finally:
        for proc in procs.values():
            proc.stdin.close()  # type: ignore[union-attr]
            proc.wait(timeout=60)
    return per, "; ".join(files)


def main(argv: list[str] | None = None) -> int:
    """Parse the arguments and run."""
    argv = sys.argv[1:] if argv is None else argv
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0] if __doc__ else None)
    parser.add_argument("--base", default="main", help="the base revision (git)")
    parser.add_argument("--balls", type=int, default=10000, help="balls in the scene")
    parser.add_argument("--threads", type=int, default=2, help="threads of both packages")
    parser.add_argument("--form", choices=("auto", "threaded", "fused"), default="auto",
                        help="the step's form (see above)")
    parser.add_argument("--rounds", type=int, default=20, help="alternated rounds a pair")
    parser.add_argument("--steps", type=int, default=10, help="steps a simulation a round")
    parser.add_argument("--warm", type=int, default=5, help="untimed steps of each first")
    parser.add_argument("--pairs", type=int, default=2, help="pairs of processes, one after "
                        "another")
    parser.add_argument("--first", choices=("base", "new"), default="base",
                        help="whose process starts first in each pair")
    parser.add_argument("--child", choices=("base", "new"), help=argparse.SUPPRESS)
    args = parser.parse_args(argv)
    if args.child:
        child(args.child, args)
        return 0
    base_source(args.base)
    print(f"base {args.base} against the working tree; {args.balls} balls, {args.threads} "
          f"threads, form {args.form}, {args.first} first; {args.pairs} pairs of processes, "
          f"{args.rounds} rounds of {args.steps} steps each; load {os.getloadavg()[0]:.1f}",
          flush=True)
    ratios: dict[str, list[float]] = {name: [] for name, _ in CLOCKS}
    medians: dict[str, dict[str, list[float]]] = {name: {"base": [], "new": []}
                                                  for name, _ in CLOCKS}
    same = True
    for p in range(args.pairs):
        per, files = pair(args, argv)
        if p == 0:
            print(files)
        same = same and [r["hash"] for r in per["base"]] == [r["hash"] for r in per["new"]]
        line = []
        for name, _ in CLOCKS:
            pair_ratios = [n[name] / b[name] for n, b in zip(per["new"], per["base"])]
            ratios[name] += pair_ratios
            for label in ("base", "new"):
                medians[name][label] += [r[name] for r in per[label]]
            line.append(f"{name} {statistics.median(pair_ratios):.3f}")
        print(f"pair {p + 1}: new / base " + ", ".join(line) + f"; load "
              f"{os.getloadavg()[0]:.1f}", flush=True)
    for name, _ in CLOCKS:
        quartiles = statistics.quantiles(ratios[name], n=4)
        print(f"{name:7s} base {statistics.median(medians[name]['base']) * 1e3:.3f} new "
              f"{statistics.median(medians[name]['new']) * 1e3:.3f} ms a step (medians); new / "
              f"base {statistics.median(ratios[name]):.3f} (quartiles {quartiles[0]:.2f}-"
              f"{quartiles[2]:.2f})")
    print(f"every step's positions, velocities and counters "
          f"{'the same' if same else 'DIFFER'}; load {os.getloadavg()[0]:.1f}")
    return 0 if same else 1


if __name__ == "__main__":
    raise SystemExit(main())
