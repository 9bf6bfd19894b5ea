"""Benchmark World.sweep of convex movers: the compiled kernel against the old Python loop.

Scene: ``n`` random colliders (segments, boxes, polygons, circles and capsules, 1 to 10 long,
in equal shares) in a 1000 x 1000 world, at n = 1,000 and 10,000. Queries: a box (4 x 3), a
capsule (ends 4 apart, radius 1) and a triangle, each swept 20 to 100 units in a random
direction from a random start. Runners (microseconds a sweep, best of ``repeat``):

- ``compiled``: ``World.sweep`` (:mod:`swept._kernels.world_sweep`);
- ``python loop``: what ``World.sweep`` did before: :func:`swept.sweep` on every broadphase
  candidate of the swept box (the box query, then the scalar sweep per candidate);
- ``batch``: ``World.sweep_many(shape, displacements)`` (one mover, every displacement),
  a sweep's share of the batch.

Every compiled answer is checked against the loop's (handle and fraction); the table prints
the mismatches (0 expected) and the speed-up. ``python benchmarks/bench_world_sweep.py
[--quick]`` (``--quick``: 100 queries and one timing instead of 500 and three).
"""

from __future__ import annotations

import argparse
import math
import sys
from pathlib import Path

import numpy as np

sys.path.insert(0, str(Path(__file__).resolve().parent))

from timing import best_time  # noqa: E402

from swept import AABB, Capsule, Circle, Polygon, Segment, sweep
from swept.shapes import Shape
from swept.world import World


def _scene(n: int, seed: int) -> World:
    rng = np.random.default_rng(seed)
    w = World()
    for i in range(n):
        x, y = rng.uniform(0.0, 1000.0, 2)
        size = rng.uniform(1.0, 10.0)
        angle = rng.uniform(0.0, 2.0 * math.pi)
        ex, ey = size * math.cos(angle), size * math.sin(angle)
        k = i % 5
        shape: Shape
        if k == 0:
            shape = Segment((x, y), (x + ex, y + ey))
        elif k == 1:
            shape = AABB((x, y), (x + size, y + 0.5 * size))
        elif k == 2:
            shape = Polygon.box(0.5 * size, 0.3 * size).placed((x, y), angle)
        elif k == 3:
            shape = Circle((x, y), 0.5 * size)
        else:
            shape = Capsule((x, y), (x + ex, y + ey), 0.2 * size)
        w.add(shape)
    return w


def _movers(count: int, seed: int) -> list[tuple[str, Shape, tuple[float, float]]]:
    rng = np.random.default_rng(seed)
    out: list[tuple[str, Shape, tuple[float, float]]] = []
    for i in range(count):
        x, y = rng.uniform(0.0, 1000.0, 2)
        length = rng.uniform(20.0, 100.0)
        angle = rng.uniform(0.0, 2.0 * math.pi)
        d = (length * math.cos(angle), length * math.sin(angle))
        k = i % 3
        if k == 0:
            out.append(("box", AABB((x, y), (x + 4.0, y + 3.0)), d))
        elif k == 1:
            out.append(("capsule", Capsule((x, y), (x + 4.0, y), 1.0), d))
        else:
            out.append(("polygon", Polygon([(x, y), (x + 3.0, y + 1.0), (x + 1.0, y + 3.0)]), d))
    return out


def _python_loop(w: World, shape: Shape, d: tuple[float, float]) -> tuple[int, float]:
    """The old World.sweep of a non-ball mover: the scalar sweep on every candidate."""
    box = shape.aabb
    lo = np.minimum(np.asarray(box.min), np.asarray(box.min) + d)
    hi = np.maximum(np.asarray(box.max), np.asarray(box.max) + d)
    grow = 1e-6 * max(1.0, float(np.abs(lo).max()), float(np.abs(hi).max()))
    best_h, best_f = -1, math.inf
    for h in w._candidates(lo - grow, hi + grow):
        hit = sweep(shape, d, w.shape(h))
        if hit is not None and hit.fraction < best_f:
            best_h, best_f = h, hit.fraction
    return best_h, best_f


def run(quick: bool = False) -> dict[str, float]:
    """Time every runner; print a table; return microseconds a sweep by runner."""
    count = 100 if quick else 500
    repeat = 1 if quick else 3
    results: dict[str, float] = {}
    print(f"{'colliders':>9} {'mover':>8} {'compiled us':>12} {'loop us':>9} {'batch us':>9} "
          f"{'speed-up':>9} {'mismatches':>10}")
    for n in (1_000, 10_000):
        w = _scene(n, n)
        queries = _movers(count, 7)
        # compile and build the broadphase outside the timings
        w.sweep(queries[0][1], queries[0][2])
        w.sweep_many(queries[0][1], np.array([queries[0][2]]))
        for kind in ("box", "capsule", "polygon"):
            mine = [(s, d) for k, s, d in queries if k == kind]
            disps = np.array([d for _s, d in mine])
            one = mine[0][0]
            compiled = best_time(lambda w=w, mine=mine: [w.sweep(s, d) for s, d in mine],
                                 repeat, warm=False)
            loop = best_time(lambda w=w, mine=mine: [_python_loop(w, s, d) for s, d in mine],
                             repeat, warm=False)
            batch = best_time(lambda w=w, one=one, disps=disps: w.sweep_many(one, disps),
                              repeat, warm=False)
            bad = 0
            for s, d in mine:
                got = w.sweep(s, d)
                want = _python_loop(w, s, d)
                if (got is None and want[0] >= 0) or (got is not None and (
                        got.handle != want[0] or abs(got.fraction - want[1]) > 1e-12)):
                    bad += 1
            us = 1e6 / len(mine)
            results[f"{n}/{kind}/compiled"] = compiled * us
            results[f"{n}/{kind}/loop"] = loop * us
            results[f"{n}/{kind}/batch"] = batch * us
            print(f"{n:>9,} {kind:>8} {compiled * us:>12.1f} {loop * us:>9.1f} "
                  f"{batch * us:>9.1f} {loop / compiled:>8.1f}x {bad:>10}")
    return results


if __name__ == "__main__":
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--quick", action="store_true", help="fewer queries, one timing")
    run(parser.parse_args().quick)
