"""Benchmark threads against one thread, with the cores free and with one core kept busy.

Issue 11, item 4: with the default settings every parallel call must be no slower than the
same call on one thread when another process keeps a core busy, and faster when the cores are
free. Each call below is timed with the default thread count and with ``swept.set_threads(1)``,
in pairs (so that both see the same moments of a shared machine), first with the
machine as it is ("idle": this benchmark starts nothing) and then with a busy process (a
``multiprocessing`` process spinning on one core, stopped at the end):

- ``World.raycast_many``: 10,000 rays against 10,000 random thin segments (length 5 to 50 in
  a 1000 x 1000 world, as ``bench_world_rays.py``);
- ``World.sweep_many``: 10,000 circles (radius 1 to 5, moves up to 50) against them;
- ``World.contact_many``: 10,000 circles (radius 1 to 5) against them;
- ``Simulation.step``: the ``examples/many_balls.py`` scene (1,000 swept balls among 300
  walls), 30 steps a timing (a few time slices of a loaded machine). Below
  ``SIM_PARALLEL_MIN`` (8,192) bodies a step is one compiled call on the calling thread both
  ways, so this row measures how far two timings of the very same code drift apart here;
- ``Simulation.step`` with 10,000 balls (the same scene ten times the area), 3 steps a
  timing: a step on threads;
- the batch sweep ``sweep_circles_segments``: 10,000 circles against the 10,000 segments'
  BVH;
- a control: ``World.raycast_many`` on one thread both ways: the spread of the ratio when
  nothing differs (on a shared machine, other processes' time slices).

Prints the median time of each call and the ratio default / one thread (at most about 1.0
under load, under 1 with free cores): the median of the ratios of each pair (two calls next
to each other in time see nearly the same load, so a change of load between rounds cancels;
each call starts after the same pause, the order within a pair drawn at random), beside the
ratio of the two medians, and how many default calls ran on threads; writes
``benchmarks/results/threads.json``. ``--trace`` prints instead where the time of
``World.raycast_many`` calls forced onto threads goes (see :func:`trace`). The
machine is shared: the load average at the start of each regime is recorded, since other
processes may hold cores even in the "idle" regime. ``run(quick)`` is the entry point for
``swept bench``; ``python benchmarks/bench_threads.py [--quick]`` runs it from the command
line.
"""

from __future__ import annotations

import argparse
import json
import math
import multiprocessing
import os
import platform
import random
import statistics
import threading
import time
from collections.abc import Callable
from pathlib import Path
from typing import Any

import numba
import numpy as np

import swept
from swept import Segment
from swept._kernels import bvh
from swept._kernels.batch_sweep import sweep_circles_segments
from swept.sim import Simulation
from swept.world import World

#: Side of the square world of the World and batch-sweep scenes, in length units.
WORLD_SIZE = 1000.0
#: Shortest and longest random segment.
SEGMENT_LENGTH = (5.0, 50.0)
#: Segments in the World and batch-sweep scenes.
SEGMENTS = 10_000
#: Rays, sweeping circles and contact circles per batch call.
QUERIES = 10_000
#: Smallest and largest circle radius of the sweeps and contacts.
RADIUS = (1.0, 5.0)
#: Longest move of a sweeping circle, per axis.
MOVE = 50.0
#: The many_balls scene: arena side, thin walls, balls.
ARENA, WALLS, BALLS = 400.0, 300, 1_000
#: Balls of the larger Simulation scene (the arena grown to keep the balls as dense).
BIG_BALLS = 10_000
#: Simulation steps per timing (the many_balls scene; the larger one).
STEPS_PER_TIMING = 30
BIG_STEPS_PER_TIMING = 3
#: Alternated timings of each call (default threads, then one thread), per regime.
REPEATS = 15
#: ... in a quick run (measured at load 5: with 5 pairs, the control read 0.36 one run: the
#: second call of each pair was the slow one, and a median of 5 pairs fell on one side).
QUICK_REPEATS = 9
#: The pause before each timed call, seconds (see :func:`measure`).
PAUSE = 0.01

#: Calls with the default threads before each call's timings (see :func:`measure`).
WARM_CALLS = 4
#: Seed of every random scene, so runs compare.
SEED = 2026
RESULTS = Path(__file__).resolve().parent / "results" / "threads.json"
#: What the busy process runs: a loop that never ends (it is killed).
BUSY_LOOP = "while True:\n    pass\n"


def random_segments(n: int, rng: np.random.Generator) -> tuple[np.ndarray, np.ndarray]:
    """Ends a, b ((n, 2) float64 each) of n random segments in the world."""
    a = rng.uniform(0.0, WORLD_SIZE, (n, 2))
    length = rng.uniform(*SEGMENT_LENGTH, n)
    angle = rng.uniform(0.0, 2.0 * np.pi, n)
    b = a + np.stack([np.cos(angle), np.sin(angle)], axis=1) * length[:, None]
    return a, b


def many_balls(balls: int = BALLS) -> Simulation:
    """The scene of ``examples/many_balls.py``: 1,000 swept balls among 300 thin walls in a
    walled arena (the example's seeds); ``balls``: as many in an arena grown to keep them as
    dense."""
    arena = ARENA * math.sqrt(balls / BALLS)
    rng = np.random.default_rng(7)
    world = World()
    corners = [(0.0, 0.0), (arena, 0.0), (arena, arena), (0.0, arena)]
    for i in range(4):
        world.add(Segment(corners[i], corners[(i + 1) % 4]))
    for _ in range(WALLS):
        a = rng.uniform(20.0, arena - 20.0, 2)
        angle = rng.uniform(0.0, np.pi)
        b = a + rng.uniform(10.0, 40.0) * np.array([np.cos(angle), np.sin(angle)])
        world.add(Segment(a, np.clip(b, 1.0, arena - 1.0)))
    rng = np.random.default_rng(11)
    sim = Simulation(world)
    speed = rng.uniform(500.0, 3000.0, balls)
    heading = rng.uniform(0.0, 2.0 * np.pi, balls)
    velocities = np.column_stack([speed * np.cos(heading), speed * np.sin(heading)])
    sim.add_balls(rng.uniform(10.0, arena - 10.0, (balls, 2)), rng.uniform(1.0, 3.0, balls),
                  velocities, restitution=0.9, ccd="swept")
    return sim


def calls() -> dict[str, Callable[[], Any]]:
    """The calls measured, by name, built once (and each run once: compiled, caches warm)."""
    rng = np.random.default_rng(SEED)
    seg_a, seg_b = random_segments(SEGMENTS, rng)
    world = World()
    if hasattr(world, "add_segments"):
        world.add_segments(np.hstack([seg_a, seg_b]))
    else:
        # before the bulk add of issue 11: one at a time
        for a, b in zip(seg_a, seg_b):
            world.add(Segment(a, b))
    origins = rng.uniform(0.0, WORLD_SIZE, (QUERIES, 2))
    angle = rng.uniform(0.0, 2.0 * np.pi, QUERIES)
    directions = np.stack([np.cos(angle), np.sin(angle)], axis=1)
    centers = rng.uniform(0.0, WORLD_SIZE, (QUERIES, 2))
    radii = rng.uniform(*RADIUS, QUERIES)
    moves = rng.uniform(-MOVE, MOVE, (QUERIES, 2))
    lo = np.minimum(seg_a, seg_b)
    hi = np.maximum(seg_a, seg_b)
    tree = (*bvh.build(lo, hi), bvh.box_rows(lo, hi))
    sim = many_balls()
    big = many_balls(BIG_BALLS)
    out: dict[str, Callable[[], Any]] = {
        "World.raycast_many": lambda: world.raycast_many(origins, directions),
        "World.sweep_many": lambda: world.sweep_many(centers, radii, moves),
        "World.contact_many": lambda: world.contact_many(centers, radii),
        f"Simulation.step x{STEPS_PER_TIMING}": lambda: sim.run(STEPS_PER_TIMING),
        f"Simulation 10k x{BIG_STEPS_PER_TIMING}": lambda: big.run(BIG_STEPS_PER_TIMING),
        "sweep_circles_segments": lambda: sweep_circles_segments(centers, radii, moves, seg_a,
                                                                 seg_b, *tree),
    }
    for fn in out.values():
        fn()
    return out


def _rested(fn: Callable[[], Any]) -> float:
    """Seconds one call of ``fn`` takes, after a pause of PAUSE seconds."""
    time.sleep(PAUSE)
    start = time.perf_counter()
    fn()
    return time.perf_counter() - start


#: The name of the control row: the first call on one thread both ways.
CONTROL = "control: 1 thread both ways"


def measure(fn: Callable[[], Any], repeats: int, control: bool = False) -> dict[str, Any]:
    """``fn`` with the default threads and on one thread, alternated ``repeats`` times (after
    a warm-up of each): the medians in milliseconds, the median of the pairs' ratios and
    the ratio of the medians, and how many parallel_for calls ran on threads. ``control``:
    the "default" side on one thread too."""
    from swept import _parallel

    default_threads = 1 if control else None
    default: list[float] = []
    # the timed default calls that ran chunks on threads (a probe, or the threads chosen)
    threaded = [0]
    real_run = _parallel._run

    def counted(*args: Any) -> None:
        threaded[0] += 1
        real_run(*args)

    one: list[float] = []
    try:
        # the runner settles which way each kernel runs best under this load (a first call,
        # a probe of the other way, a call or two to average)
        swept.set_threads(None)
        for _ in range(WARM_CALLS):
            fn()
        order = random.Random(SEED)
        _parallel._run = counted  # type: ignore[assignment]
        for k in range(repeats + 1):
            if k == 1:
                # the first round is not kept
                threaded[0] = 0
            # which goes first is drawn at random each round, and every call starts after the
            # same pause: on a loaded machine the scheduler lets a process that has just slept
            # run at once, and stops one that has run for a few ms to give the others their
            # share (measured at load 5: of two 2.4 ms calls back to back, the second took 5-19
            # ms in 12 of 16 pairs, the first 2.3-3.4 ms); each call starts "rested", as a
            # game's call does once a frame
            if order.random() < 0.5:
                swept.set_threads(default_threads)
                t_default = _rested(fn)
                swept.set_threads(1)
                t_one = _rested(fn)
            else:
                swept.set_threads(1)
                t_one = _rested(fn)
                swept.set_threads(default_threads)
                t_default = _rested(fn)
            if k > 0:
                default.append(t_default)
                one.append(t_one)
    finally:
        _parallel._run = real_run
        swept.set_threads(None)
    d = statistics.median(default)
    o = statistics.median(one)
    pairs = [a / b for a, b in zip(default, one)]
    return {"default_ms": d * 1e3, "one_thread_ms": o * 1e3,
            "ratio": statistics.median(pairs), "ratio_of_medians": d / o,
            "pair_ratio_range": [min(pairs), max(pairs)], "threaded_runs": threaded[0],
            "default_all_ms": [t * 1e3 for t in default],
            "one_thread_all_ms": [t * 1e3 for t in one],
            "default_best_ms": min(default) * 1e3, "one_thread_best_ms": min(one) * 1e3}


def regime(measured: dict[str, Callable[[], Any]], repeats: int) -> dict[str, Any]:
    """Every call measured once, with the load average before."""
    load = os.getloadavg()[0] if hasattr(os, "getloadavg") else float("nan")
    timed = {name: measure(fn, repeats) for name, fn in measured.items()}
    timed[CONTROL] = measure(next(iter(measured.values())), repeats, control=True)
    return {"load_average_1min": load, "calls": timed}


def run(quick: bool = False) -> dict[str, Any]:
    """Run the benchmark (``quick``: fewer repeats); returns the results and writes them to
    ``benchmarks/results/threads.json``."""
    repeats = QUICK_REPEATS if quick else REPEATS
    measured = calls()
    idle = regime(measured, repeats)
    # the busy process: a fresh interpreter spinning on one core (``exec`` of a loop: a
    # target that spawn can hand over, even when this script is loaded by path)
    busy_process = multiprocessing.get_context("spawn").Process(
        target=exec, args=(BUSY_LOOP,), daemon=True)
    busy_process.start()
    try:
        # the spinner is running before the timings start
        time.sleep(1.0)
        busy = regime(measured, repeats)
    finally:
        busy_process.kill()
        busy_process.join()
    result = {
        "machine": {"python": platform.python_version(), "numba": numba.__version__,
                    "cpu": platform.machine(), "cores": os.cpu_count(),
                    "default_threads": swept.threads(),
                    "numba_threading_layer": _threading_layer()},
        "quick": quick,
        "repeats": repeats,
        "goal": "default / one thread <= ~1.0 with one core busy, < 1 with the cores free "
                "(ratio: the median of the pairs' ratios)",
        "idle": idle,
        "one_core_busy": busy,
    }
    RESULTS.parent.mkdir(parents=True, exist_ok=True)
    RESULTS.write_text(json.dumps(result, indent=2) + "\n")
    return result


#: ``World.raycast_many`` calls traced by :func:`trace` (each way), after as many untimed.
TRACE_CALLS = 30


def _stamped(log: list[tuple[Any, ...]]) -> Callable[..., None]:
    """A stand-in for ``swept.world.parallel_for`` that wraps the kernel so that each chunk
    appends (thread name, start and end ns on the wall clock, thread CPU ns, items) to
    ``log``, and the call itself its entry and exit ("call", ns)."""
    from swept import world as world_module

    real = world_module.parallel_for  # type: ignore[attr-defined]

    def parallel_for(kernel: Callable[..., Any], n: int, args: Any, **kw: Any) -> None:
        def chunk(start: int, stop: int, *rest: Any) -> None:
            t0, c0 = time.perf_counter_ns(), time.thread_time_ns()
            kernel(start, stop, *rest)
            log.append((threading.current_thread() is threading.main_thread(), t0,
                        time.perf_counter_ns(), time.thread_time_ns() - c0, stop - start))

        log.append(("call", time.perf_counter_ns()))
        real(chunk, n, args, **kw)
        log.append(("call", time.perf_counter_ns()))

    return parallel_for


def trace(calls: int = TRACE_CALLS) -> dict[str, float]:
    """Where the time of a threaded ``World.raycast_many`` call goes (10,000 rays, 10,000
    segments, every call forced onto :func:`swept.threads` threads, alternated with calls on
    one thread): medians over ``calls`` of each, in microseconds and nanoseconds a ray.

    A debugging tool, not the shipped path: each chunk is wrapped in a Python function that
    stamps it (``perf_counter_ns``, ``thread_time_ns``), costing about a microsecond a chunk;
    the CPU clock's reads are system calls, where a loaded scheduler may switch threads, so a
    traced call under load is not quite a plain one.
    """
    from swept import _parallel
    from swept import world as world_module

    rng = np.random.default_rng(SEED)
    seg_a, seg_b = random_segments(SEGMENTS, rng)
    world = World()
    world.add_segments(np.hstack([seg_a, seg_b]))
    origins = rng.uniform(0.0, WORLD_SIZE, (QUERIES, 2))
    angle = rng.uniform(0.0, 2.0 * np.pi, QUERIES)
    directions = np.stack([np.cos(angle), np.sin(angle)], axis=1)
    log: list[tuple[Any, ...]] = []
    real_for = world_module.parallel_for  # type: ignore[attr-defined]
    real_pick = _parallel._Choice.pick
    rows: dict[str, list[float]] = {}
    default = swept.threads()
    try:
        world_module.parallel_for = _stamped(log)  # type: ignore[attr-defined]
        _parallel._Choice.pick = lambda self, now: (True, False)  # type: ignore[method-assign]
        for k in range(2 * calls):
            for count in (default, 1):
                swept.set_threads(count)
                log.clear()
                start = time.perf_counter_ns()
                world.raycast_many(origins, directions)
                end = time.perf_counter_ns()
                if k >= calls:
                    _trace_row(rows, "threads" if count > 1 else "one", start, end, log)
    finally:
        world_module.parallel_for = real_for  # type: ignore[attr-defined]
        _parallel._Choice.pick = real_pick  # type: ignore[method-assign]
        swept.set_threads(None)
    return {name: statistics.median(values) for name, values in rows.items()}


def _trace_row(rows: dict[str, list[float]], way: str, start: int, end: int,
               log: list[tuple[Any, ...]]) -> None:
    """Add one traced call's figures (see :func:`trace`) to ``rows``."""
    enter, leave = log[0][1], log[-1][1]
    chunks = [c for c in log if c[0] != "call"]

    def add(name: str, value: float) -> None:
        rows.setdefault(f"{way}: {name}", []).append(value)

    add("whole call us", (end - start) / 1e3)
    add("before and after the chunks us", (enter - start + end - leave) / 1e3)
    add("chunks", len(chunks))
    for caller in (True, False):
        mine = [c for c in chunks if c[0] is caller]
        who = "caller" if caller else "helpers"
        items = sum(c[4] for c in mine)
        add(f"{who} rays", items)
        if not mine:
            continue
        add(f"{who} first chunk starts after us", (mine[0][1] - enter) / 1e3)
        add(f"{who} last chunk ends before the call returns us", (leave - mine[-1][2]) / 1e3)
        add(f"{who} wall ns a ray", sum(c[2] - c[1] for c in mine) / items)
        add(f"{who} CPU ns a ray", sum(c[3] for c in mine) / items)


def _threading_layer() -> str:
    """numba's threading layer, once a parallel kernel has started it."""
    try:
        return str(numba.threading_layer())
    except ValueError:
        return "not started"


def print_table(result: dict[str, Any]) -> None:
    """Median milliseconds per call, default threads and one thread, and the ratio, side by
    side for the two regimes."""
    threads = result["machine"]["default_threads"]
    idle = result["idle"]
    busy = result["one_core_busy"]
    print(f"default threads: {threads}; load average before: idle "
          f"{idle['load_average_1min']:.2f}, busy {busy['load_average_1min']:.2f}")
    print("ratio: the median of the pairs' ratios (the ratio of the medians in ()); the control "
          "row: one thread both ways, the noise of this run")
    print("runs: the parallel_for calls of the default calls that ran on threads")
    print(f"{'call':<28}{'idle: default':>15}{'1 thread':>10}{'ratio':>13}{'runs':>5}"
          f"{'busy: default':>16}{'1 thread':>10}{'ratio':>13}{'runs':>5}")
    for name, a in idle["calls"].items():
        b = busy["calls"][name]
        print(f"{name:<28}{a['default_ms']:>12.2f} ms{a['one_thread_ms']:>7.2f} ms"
              f"{a['ratio']:>6.2f} ({a['ratio_of_medians']:.2f}){a['threaded_runs']:>5}"
              f"{b['default_ms']:>13.2f} ms{b['one_thread_ms']:>7.2f} ms"
              f"{b['ratio']:>6.2f} ({b['ratio_of_medians']:.2f}){b['threaded_runs']:>5}")


def main(argv: list[str] | None = None) -> int:
    """Command line: run, print the table, write the JSON."""
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0] if __doc__ else None)
    parser.add_argument("--quick", action="store_true", help="fewer repeats")
    parser.add_argument("--trace", action="store_true",
                        help="where a threaded raycast_many call's time goes (only that)")
    args = parser.parse_args(argv)
    if args.trace:
        load = os.getloadavg()[0] if hasattr(os, "getloadavg") else float("nan")
        print(f"load average before: {load:.2f}; medians of {TRACE_CALLS} calls each way")
        for name, value in trace().items():
            print(f"{name:<60}{value:>10.1f}")
        return 0
    result = run(args.quick)
    print_table(result)
    print(f"wrote {RESULTS}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
