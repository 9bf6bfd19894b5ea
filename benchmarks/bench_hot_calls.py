"""The hot calls a change to how kernels are compiled or linked could slow, timed alone.

For an A/B of two source trees (a change to ``swept._kernels``' decorators or linking): run this
script with each tree first on ``PYTHONPATH``, alternating the two several times, and compare
the minima (the machine's load moves every figure; the minimum of many repeats moves least).
Times ``World.raycast`` (one ray at a time, 1,000 segments, 2,000 rays) and ``raycast`` of one
ray against a circle, segment, box and polygon (1,000 hitting rays), each repeated and the
fastest repeat kept, after a warm-up call (the kernels must be in the cache: run once first).

Run: python benchmarks/bench_hot_calls.py [--repeats N]
"""

from __future__ import annotations

import argparse
import time

import numpy as np


def world_raycast_us(repeats: int) -> float:
    """Fastest repeat's microseconds a ``World.raycast`` among 1,000 random segments."""
    from swept import Ray, World
    rng = np.random.default_rng(0)
    w = World()
    a = rng.uniform(0, 1000, (1000, 2))
    w.add_segments(np.c_[a, a + rng.uniform(-20, 20, (1000, 2))])
    o = rng.uniform(0, 1000, (2000, 2))
    d = rng.normal(size=(2000, 2))
    rays = [Ray(tuple(o[i]), tuple(d[i])) for i in range(2000)]
    for r in rays[:50]:
        w.raycast(r)
    best = float("inf")
    for _ in range(repeats):
        start = time.perf_counter()
        for r in rays:
            w.raycast(r)
        best = min(best, (time.perf_counter() - start) / len(rays))
    return best * 1e6


def shape_raycast_ns(repeats: int) -> dict[str, float]:
    """Fastest repeat's nanoseconds a ``raycast`` of one ray against each 2D shape (hits)."""
    from swept import AABB, Circle, Polygon, Ray, Segment, raycast
    shapes = {"circle": Circle((5, 0), 1), "segment": Segment((5, -1), (5, 1)),
              "box": AABB((4, -1), (6, 1)), "polygon": Polygon([(4, -1), (6, -1), (5, 1)])}
    rays = [Ray((0, 0.1 * (i % 7) - 0.3), (1, 0)) for i in range(1000)]
    out = {}
    for name, shape in shapes.items():
        for r in rays[:10]:
            raycast(r, shape)
        best = float("inf")
        for _ in range(repeats):
            start = time.perf_counter()
            for r in rays:
                raycast(r, shape)
            best = min(best, (time.perf_counter() - start) / len(rays))
        out[name] = best * 1e9
    return out


def main() -> None:
    """Print the fastest repeats."""
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--repeats", type=int, default=15, help="repeats a figure (the min)")
    args = parser.parse_args()
    if args.repeats < 1:
        parser.error("--repeats must be at least 1")
    shapes = shape_raycast_ns(args.repeats)
    print(f"World.raycast {world_raycast_us(args.repeats):.3f} us; raycast ns: "
          + ", ".join(f"{k} {v:.0f}" for k, v in shapes.items()))


if __name__ == "__main__":
    main()
