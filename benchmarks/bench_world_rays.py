"""Benchmark World ray queries: nearest hit of 10,000 rays against random thin segments.

Scene (issue 4): 1,000 and 10,000 random segments (length 5 to 50, random angle) in a
1000 x 1000 world; 10,000 rays from random points in random directions, nearest hit. Runners:

- ``swept batch``: :meth:`swept.world.World.raycast_many` (the default threads, and one
  thread: ``swept.set_threads(1)``, the count swept's runner reads);
- ``swept scalar``: :meth:`swept.world.World.raycast` in a Python loop;
- ``pymunk``: ``Space.segment_query_first`` in a Python loop;
- ``box2d``: ``b2World.RayCast`` with a closest-hit callback, in a Python loop;
- ``grid``: the reference to beat, a plain compiled uniform grid (numba, one thread, DDA
  traversal, cells sized to the scene), written here;
- ``brute``: a compiled loop over every segment (one thread), for scale.

The batch (both ways) and the Python loops are timed alike, in turns (a new random order each
round: ``timing.interleaved``), each timed call after an untimed one of its own, best of
LOOP_REPEATS rounds (the loops on their calls alone: each hit kept in a list, read after the
timing); the grid apart, best of REPEATS. Every runner on
one thread is timed in this thread's CPU time (the machine is shared); the batch on the
default threads on the wall clock. Every runner's answers are checked against the grid's
(same segment, same distance). Prints a table (microseconds a ray, and ratios) and writes
``benchmarks/results/world_rays.json``.
``run(quick)`` is the entry point for ``swept bench``; ``python benchmarks/bench_world_rays.py
[--quick]`` runs it from the command line.
"""

from __future__ import annotations

import argparse
import json
import math
import os
import platform
import sys
import time
from collections.abc import Callable
from pathlib import Path
from typing import Any

import numba
import numpy as np

sys.path.insert(0, str(Path(__file__).resolve().parent))

from timing import best_time, interleaved  # noqa: E402

import swept
from swept import Ray, Segment
from swept._kernels.ray import ray_segment
from swept.world import World

#: Side of the square world, in length units.
WORLD_SIZE = 1000.0
#: Shortest and longest segment.
SEGMENT_LENGTH = (5.0, 50.0)
#: Seed of every random scene, so runs compare.
SEED = 2024
#: Segment counts measured.
SIZES = (1_000, 10_000)
#: Rays per measurement (the issue's count).
RAYS = 10_000
#: Rays the slow Python loops (scalar swept, pymunk, Box2D) cast in a quick run.
QUICK_LOOP_RAYS = 1_000
#: Length of the finite query segment pymunk and Box2D need: longer than the world's diagonal,
#: so that it reaches every segment as an unlimited ray does.
QUERY_LENGTH = 2000.0
#: Grid cells per side for n segments: about this times sqrt(n) (tuned on this scene: 1 to 2
#: segments a cell).
GRID_CELLS_PER_SQRT_N = 1.0
#: Relative tolerance when checking that two runners found the same hit distance.
AGREE_TOLERANCE = 1e-6
#: Absolute tolerance (length units) for Box2D's float32 distances at coordinates near 1000.
FLOAT32_TOLERANCE = 1e-3
#: Timed repeats of the plain grid (the best is kept).
REPEATS = 5
#: Alternated timed rounds of the batch (default threads and one) and the Python loops
#: (scalar swept, pymunk, Box2D; each runner's best is kept). On the shared machine, with three
#: rounds pymunk's best at 1,000 segments read 2.6 us in one run and 6.9 us in the next; with
#: seven, the one-ray-at-a-time ratio read 2.8x in an idle goals run (2026-12-03 15:52) where
#: 40 alternated rounds of 2,000 rays read 3.5x (the median of the rounds' ratios; 4.2x from
#: each runner's best): the machine's slow spells last seconds (benchmarks/README.md), as
#: long as several rounds, and fall on the runners unevenly. Fifteen.
LOOP_REPEATS = 15
#: Most cells a grid ray may visit (a cap: a ray crosses at most 2 * cells per side).
GRID_MAX_STEPS = 1_000_000
#: Side of the grid's square: the world plus a margin of the longest segment on each side.
GRID_SIZE = WORLD_SIZE + 2.0 * SEGMENT_LENGTH[1]
RESULTS = Path(__file__).resolve().parent / "results" / "world_rays.json"
#: What the issue measured on its machine, microseconds a ray (1,000 / 10,000 segments).
ISSUE_REFERENCE_US = {"pymunk": (7.7, 12.0), "box2d": (8.0, 21.0),
                      "pybullet_2_threads": (2.7, 13.5), "grid": (0.3, 0.6)}


def random_segments(n: int, rng: np.random.Generator) -> tuple[np.ndarray, np.ndarray]:
    """Ends a, b ((n, 2) float64 each) of n random segments in the world."""
    a = rng.uniform(0.0, WORLD_SIZE, (n, 2))
    length = rng.uniform(*SEGMENT_LENGTH, n)
    angle = rng.uniform(0.0, 2.0 * np.pi, n)
    b = a + np.stack([np.cos(angle), np.sin(angle)], axis=1) * length[:, None]
    return a, b


def random_rays(n: int, rng: np.random.Generator) -> tuple[np.ndarray, np.ndarray]:
    """Origins and unit directions ((n, 2) float64 each) of n rays from inside the world."""
    origins = rng.uniform(0.0, WORLD_SIZE, (n, 2))
    angle = rng.uniform(0.0, 2.0 * np.pi, n)
    return origins, np.stack([np.cos(angle), np.sin(angle)], axis=1)


# ---------------------------------------------------------------------------------------------
# the reference: a plain uniform grid


@numba.njit
def _cell_range(a: np.ndarray, b: np.ndarray, i: int, cs: float, cells: int
                ) -> tuple[int, int, int, int]:
    """The cells (x0, x1, y0, y1, inclusive) that segment i's bounding box touches."""
    x0 = min(max(int(min(a[i, 0], b[i, 0]) / cs), 0), cells - 1)
    x1 = min(max(int(max(a[i, 0], b[i, 0]) / cs), 0), cells - 1)
    y0 = min(max(int(min(a[i, 1], b[i, 1]) / cs), 0), cells - 1)
    y1 = min(max(int(max(a[i, 1], b[i, 1]) / cs), 0), cells - 1)
    return x0, x1, y0, y1


@numba.njit
def grid_build(a: np.ndarray, b: np.ndarray, cells: int, size: float
               ) -> tuple[np.ndarray, np.ndarray]:
    """Bin each segment into every cell its bounding box touches: CSR ``start`` (cells^2 + 1,)
    int64 and ``items`` int64 (segment indices, cell by cell)."""
    n = a.shape[0]
    cs = size / cells
    start = np.zeros(cells * cells + 1, np.int64)
    for i in range(n):
        x0, x1, y0, y1 = _cell_range(a, b, i, cs, cells)
        for cy in range(y0, y1 + 1):
            for cx in range(x0, x1 + 1):
                start[cy * cells + cx + 1] += 1
    for c in range(cells * cells):
        start[c + 1] += start[c]
    fill = start.copy()
    items = np.empty(start[-1], np.int64)
    for i in range(n):
        x0, x1, y0, y1 = _cell_range(a, b, i, cs, cells)
        for cy in range(y0, y1 + 1):
            for cx in range(x0, x1 + 1):
                c = cy * cells + cx
                items[fill[c]] = i
                fill[c] += 1
    return start, items


@numba.njit
def grid_rays(a: np.ndarray, b: np.ndarray, start: np.ndarray, items: np.ndarray, cells: int,
              size: float, origins: np.ndarray, directions: np.ndarray
              ) -> tuple[np.ndarray, np.ndarray]:
    """Nearest segment hit by each ray (one thread): 2D DDA over the grid, every segment of a
    cell tested, stopping at the first cell whose hits lie within it. Returns ``index`` (n,)
    int64 (-1: miss) and ``t`` (n,) float64 (inf: miss)."""
    n = origins.shape[0]
    cs = size / cells
    index = np.full(n, -1, np.int64)
    tout = np.full(n, np.inf)
    for r in range(n):
        ox, oy = origins[r, 0], origins[r, 1]
        dx, dy = directions[r, 0], directions[r, 1]
        # enter the grid: clip the ray to the world box
        t0 = 0.0
        t1 = np.inf
        for k in range(2):
            o = ox if k == 0 else oy
            d = dx if k == 0 else dy
            if d == 0.0:
                if o < 0.0 or o > size:
                    t0 = np.inf
            else:
                ta = (0.0 - o) / d
                tb = (size - o) / d
                if ta > tb:
                    ta, tb = tb, ta
                t0 = max(t0, ta)
                t1 = min(t1, tb)
        if t0 > t1:
            continue
        px = ox + t0 * dx
        py = oy + t0 * dy
        cx = min(max(int(px / cs), 0), cells - 1)
        cy = min(max(int(py / cs), 0), cells - 1)
        sx = 1 if dx > 0.0 else -1
        sy = 1 if dy > 0.0 else -1
        # t at which the ray crosses the next vertical / horizontal cell line
        nx = np.inf if dx == 0.0 else ((cx + (1 if dx > 0.0 else 0)) * cs - ox) / dx
        ny = np.inf if dy == 0.0 else ((cy + (1 if dy > 0.0 else 0)) * cs - oy) / dy
        ddx = np.inf if dx == 0.0 else cs / abs(dx)
        ddy = np.inf if dy == 0.0 else cs / abs(dy)
        best = np.inf
        best_i = -1
        for _ in range(GRID_MAX_STEPS):
            c = cy * cells + cx
            for j in range(start[c], start[c + 1]):
                i = items[j]
                t, _px, _py, _nx, _ny, _ins = ray_segment(ox, oy, dx, dy, a[i, 0], a[i, 1],
                                                          b[i, 0], b[i, 1], best)
                if t >= 0.0 and (t < best or (t == best and i < best_i)):
                    best = t
                    best_i = i
            cell_exit = min(nx, ny)
            if best <= cell_exit:
                # the nearest hit lies in this cell: no later cell can beat it
                break
            if nx < ny:
                cx += sx
                nx += ddx
            else:
                cy += sy
                ny += ddy
            if cx < 0 or cy < 0 or cx >= cells or cy >= cells:
                break
        index[r] = best_i
        tout[r] = best
    return index, tout


@numba.njit
def brute_rays(a: np.ndarray, b: np.ndarray, origins: np.ndarray, directions: np.ndarray
               ) -> tuple[np.ndarray, np.ndarray]:
    """Nearest segment hit by each ray, testing every segment (one thread)."""
    n = origins.shape[0]
    index = np.full(n, -1, np.int64)
    tout = np.full(n, np.inf)
    for r in range(n):
        best = np.inf
        for i in range(a.shape[0]):
            t, _px, _py, _nx, _ny, _ins = ray_segment(origins[r, 0], origins[r, 1],
                                                      directions[r, 0], directions[r, 1],
                                                      a[i, 0], a[i, 1], b[i, 0], b[i, 1], best)
            if t >= 0.0 and t < best:
                best = t
                index[r] = i
        tout[r] = best
    return index, tout


# ---------------------------------------------------------------------------------------------
# the other libraries


#: A runner of a Python loop: ``(loop, answers)``; ``loop()`` casts every ray and returns the
#: library's hits in a list (the timed part: the calls alone, as a game makes them), and
#: ``answers(hits)`` turns them into (index (n,) int64, -1 on a miss; t (n,) float64).
Loop = tuple[Callable[[], list[Any]], Callable[[list[Any]], tuple[np.ndarray, np.ndarray]]]


def pymunk_rays(a: np.ndarray, b: np.ndarray, origins: np.ndarray, directions: np.ndarray
                ) -> Loop:
    """A runner casting every ray with pymunk's ``segment_query_first``."""
    import pymunk

    space = pymunk.Space()
    body = space.static_body
    index_of = {}
    for i in range(a.shape[0]):
        s = pymunk.Segment(body, tuple(a[i]), tuple(b[i]), 0.0)
        space.add(s)
        index_of[s] = i
    starts = [tuple(o) for o in origins]
    ends = [tuple(o + d * QUERY_LENGTH) for o, d in zip(origins, directions)]
    flt = pymunk.ShapeFilter()

    def loop() -> list[Any]:
        query = space.segment_query_first
        return [query(s, e, 0.0, flt) for s, e in zip(starts, ends)]

    def answers(hits: list[Any]) -> tuple[np.ndarray, np.ndarray]:
        index = np.full(len(hits), -1, np.int64)
        t = np.full(len(hits), np.inf)
        for k, hit in enumerate(hits):
            if hit is not None:
                index[k] = index_of[hit.shape]
                t[k] = hit.alpha * QUERY_LENGTH
        return index, t

    return loop, answers


def box2d_rays(a: np.ndarray, b: np.ndarray, origins: np.ndarray, directions: np.ndarray
               ) -> Loop:
    """A runner casting every ray with Box2D's ``b2World.RayCast`` (closest-hit callback)."""
    import Box2D

    world = Box2D.b2World(gravity=(0, 0))
    body = world.CreateStaticBody()
    for i in range(a.shape[0]):
        f = body.CreateEdgeFixture(vertices=[tuple(a[i]), tuple(b[i])])
        f.userData = i

    class Closest(Box2D.b2RayCastCallback):  # type: ignore[misc]
        """Keep the nearest fixture: clip the ray to each hit."""

        def __init__(self) -> None:
            super().__init__()
            self.index = -1
            self.fraction = math.inf

        def ReportFixture(self, fixture: Any, point: Any, normal: Any,  # noqa: N802
                          fraction: float) -> float:
            if fraction < self.fraction:
                self.index = fixture.userData
                self.fraction = fraction
            return fraction

    starts = [tuple(o) for o in origins]
    ends = [tuple(o + d * QUERY_LENGTH) for o, d in zip(origins, directions)]

    def loop() -> list[Any]:
        hits = []
        for s, e in zip(starts, ends):
            cb = Closest()
            world.RayCast(cb, s, e)
            hits.append(cb)
        return hits

    def answers(hits: list[Any]) -> tuple[np.ndarray, np.ndarray]:
        index = np.array([cb.index for cb in hits], np.int64)
        t = np.array([cb.fraction * QUERY_LENGTH if cb.index >= 0 else np.inf for cb in hits])
        return index, t

    return loop, answers


# ---------------------------------------------------------------------------------------------
# measurement


#: The wall clock, for the runners on several threads.
WALL = time.perf_counter


def agreement(ref_i: np.ndarray, ref_t: np.ndarray, idx: np.ndarray, t: np.ndarray,
              absolute: float = 0.0) -> float:
    """The share of rays on which a runner agrees with the reference: same miss, or a hit at
    the same distance (to AGREE_TOLERANCE relative, or ``absolute``; another segment at that
    distance is a tie)."""
    both_miss = (ref_i < 0) & (idx < 0)
    with np.errstate(invalid="ignore"):
        same = (ref_i >= 0) & (idx >= 0) & (
            np.abs(ref_t - t) <= np.maximum(AGREE_TOLERANCE * np.maximum(1.0, np.abs(ref_t)),
                                            absolute))
    return float(np.mean(both_miss | same))


def _one_thread(world: World, origins: np.ndarray, directions: np.ndarray) -> Any:
    """``world.raycast_many`` on one thread: swept's own count (``swept.set_threads``), which
    its runner reads (numba's count alone, ``numba.set_num_threads``, leaves the runner on
    every thread)."""
    threads = swept.threads()
    swept.set_threads(1)
    try:
        return world.raycast_many(origins, directions)
    finally:
        swept.set_threads(threads)


def bench_size(n: int, quick: bool) -> dict[str, Any]:
    """Every runner on one scene of n segments."""
    rng = np.random.default_rng(SEED + n)
    a, b = random_segments(n, rng)
    origins, directions = random_rays(RAYS, rng)
    loop_rays = QUICK_LOOP_RAYS if quick else RAYS
    repeats = 2 if quick else REPEATS
    row: dict[str, Any] = {"segments": n, "rays": RAYS, "loop_rays": loop_rays}

    world = World()
    for i in range(n):
        world.add(Segment(a[i], b[i]))
    start = time.perf_counter()
    world.raycast_many(origins[:1], directions[:1])  # build the BVH
    row["swept_build_ms"] = (time.perf_counter() - start) * 1e3

    # the grid covers [0, GRID_SIZE]^2: the scene shifted by the longest segment, so that
    # segments poking out of the world stay inside it (t is unchanged by the shift)
    ga, gb, go = a + SEGMENT_LENGTH[1], b + SEGMENT_LENGTH[1], origins + SEGMENT_LENGTH[1]
    cells = max(1, int(GRID_CELLS_PER_SQRT_N * math.sqrt(n)))
    start_, items = grid_build(ga, gb, cells, GRID_SIZE)
    ref_i, ref_t = grid_rays(ga, gb, start_, items, cells, GRID_SIZE, go, directions)
    row["grid_cells_per_side"] = cells
    row["hit_rate"] = float(np.mean(ref_i >= 0))

    us: dict[str, float] = {}
    agree: dict[str, float] = {}
    us["grid"] = best_time(lambda: grid_rays(ga, gb, start_, items, cells, GRID_SIZE, go,
                                             directions), repeats, time.thread_time) / RAYS * 1e6

    batch = world.raycast_many(origins, directions)
    agree["swept_batch"] = agreement(ref_i, ref_t, batch.handle, batch.distance)

    if not quick:
        bi, bt = brute_rays(a, b, origins[:1000], directions[:1000])
        agree["brute"] = agreement(ref_i[:1000], ref_t[:1000], bi, bt)
        us["brute"] = best_time(lambda: brute_rays(a, b, origins[:1000], directions[:1000]),
                                1, time.thread_time) / 1000 * 1e6

    rays = [Ray(origins[k], directions[k]) for k in range(loop_rays)]

    def scalar() -> list[Any]:
        cast = world.raycast
        return [cast(ray) for ray in rays]

    def scalar_answers(hits: list[Any]) -> tuple[np.ndarray, np.ndarray]:
        index = np.array([-1 if h is None else h.handle for h in hits], np.int64)
        return index, np.array([np.inf if h is None else h.distance for h in hits])

    loops: dict[str, Loop] = {"swept_scalar": (scalar, scalar_answers)}
    for name, factory in (("pymunk", pymunk_rays), ("box2d", box2d_rays)):
        try:
            loops[name] = factory(a, b, origins[:loop_rays], directions[:loop_rays])
        except ImportError:
            continue
    for name, (loop, answers) in loops.items():
        pi, pt = answers(loop())
        # Box2D computes in float32: distances agree to its rounding at these coordinates
        tol = FLOAT32_TOLERANCE if name == "box2d" else 0.0
        agree[name] = agreement(ref_i[:loop_rays], ref_t[:loop_rays], pi, pt, tol)
    # the batch (default threads, and one) and the loops in turns (timing.interleaved),
    # LOOP_REPEATS rounds, each timed call right after an untimed one of its own and each
    # runner's best kept: the ratios between them compare the same moments of a shared
    # machine, swept's and pymunk's timed alike (the batch timed apart, before the loops,
    # best of REPEATS calls in a row, left pymunk's variance alone to move the goal's ratios)
    timed: dict[str, tuple[Callable[[], Any], Callable[[], float], int]] = {
        "swept_batch": (lambda: world.raycast_many(origins, directions), WALL, RAYS),
        "swept_batch_1_thread": (lambda: _one_thread(world, origins, directions),
                                 time.thread_time, RAYS),
        **{name: (loop, time.thread_time, loop_rays) for name, (loop, _a) in loops.items()}}
    best = interleaved({name: fn for name, (fn, _c, _n) in timed.items()},
                       max(LOOP_REPEATS, repeats),
                       clocks={name: clock for name, (_f, clock, _n) in timed.items()})
    for name, seconds in best.items():
        us[name] = seconds / timed[name][2] * 1e6

    row["us_per_ray"] = us
    row["agreement_with_grid"] = agree
    # None (null in the JSON) when pymunk is not installed
    row["batch_vs_pymunk"] = (us["pymunk"] / us["swept_batch"]) if "pymunk" in us else None
    row["batch_vs_grid"] = us["grid"] / us["swept_batch"]
    row["batch_1_thread_vs_pymunk"] = ((us["pymunk"] / us["swept_batch_1_thread"])
                                       if "pymunk" in us else None)
    row["batch_1_thread_vs_grid"] = us["grid"] / us["swept_batch_1_thread"]
    row["scalar_vs_pymunk"] = us.get("pymunk", math.nan) / us["swept_scalar"]
    return row


def run(quick: bool = False) -> dict[str, Any]:
    """Run the benchmark (``quick``: fewer rays in the Python loops, fewer repeats); returns
    the results and writes them to ``benchmarks/results/world_rays.json``."""
    # the machine is shared: the load before the run says how idle it was
    load = os.getloadavg()[0] if hasattr(os, "getloadavg") else math.nan
    rows = [bench_size(n, quick) for n in SIZES]
    result = {
        "machine": {"python": platform.python_version(), "numba": numba.__version__,
                    "cpu": platform.machine(), "cores": os.cpu_count(),
                    "threads": swept.threads()},
        "quick": quick,
        "issue_reference_us_per_ray": ISSUE_REFERENCE_US,
        "goal": "swept batch >= 40x pymunk at 10,000 segments (default threads, idle machine) "
                "and >= 25x on one thread, and faster than the grid; World.raycast one ray at "
                "a time >= 3x pymunk at 1,000 and 10,000 segments",
        "load_average_1min": load,
        "sizes": rows,
    }
    RESULTS.parent.mkdir(parents=True, exist_ok=True)
    RESULTS.write_text(json.dumps(result, indent=2) + "\n")
    return result


def print_table(result: dict[str, Any]) -> None:
    """The results as a table: microseconds a ray per runner, and agreement with the grid."""
    print(f"threads: {result['machine']['threads']}; load average before: "
          f"{result['load_average_1min']:.2f}")
    names = ["swept_batch", "swept_batch_1_thread", "grid", "brute", "swept_scalar", "pymunk",
             "box2d"]
    print(f"{'runner':<22}" + "".join(f"{r['segments']:>12,} seg" for r in result["sizes"])
          + "   agree")
    for name in names:
        cells = [r["us_per_ray"].get(name) for r in result["sizes"]]
        if all(c is None for c in cells):
            continue
        agree = min(r["agreement_with_grid"].get(name, 1.0) for r in result["sizes"])
        print(f"{name:<22}" + "".join(f"{c:>12.3f} us" if c is not None else f"{'-':>15}"
                                      for c in cells) + f"   {agree:.4f}")
    for r in result["sizes"]:
        if r["batch_vs_pymunk"] is None:  # pymunk not installed
            print(f"{r['segments']:,} segments: batch is {r['batch_vs_grid']:.2f}x the grid's "
                  f"speed, on one thread {r['batch_1_thread_vs_grid']:.2f}x (hit rate "
                  f"{r['hit_rate']:.3f}); pymunk is not installed: pip install -e \".[bench]\"")
            continue
        print(f"{r['segments']:,} segments: batch is {r['batch_vs_pymunk']:.1f}x pymunk, "
              f"{r['batch_vs_grid']:.2f}x the grid's speed; on one thread "
              f"{r['batch_1_thread_vs_pymunk']:.1f}x pymunk, {r['batch_1_thread_vs_grid']:.2f}x "
              f"the grid (hit rate {r['hit_rate']:.3f}); one ray at a time "
              f"{r['scalar_vs_pymunk']:.1f}x pymunk")


def main(argv: list[str] | None = None) -> int:
    """Command line: run, print the table, write the JSON."""
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0] if __doc__ else None)
    parser.add_argument("--quick", action="store_true", help="a smoke run")
    args = parser.parse_args(argv)
    result = run(args.quick)
    print_table(result)
    print(f"wrote {RESULTS}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
