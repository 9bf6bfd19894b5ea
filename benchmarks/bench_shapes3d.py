"""Per-call cost of queries on oriented boxes and convex hulls, beside the axis-aligned box.

The same deterministic rays and spheres (about half hitting) go to an ``AABB``, the same box as
an ``OrientedBox`` with the identity rotation and turned, and as a ``ConvexHull`` of its 8
corners, and to a hull of 64 points on a sphere: ``raycast``, ``sweep`` of a sphere,
``contact`` of a sphere and ``distance`` of a sphere. Each cost is the minimum over repeats of
the mean time per call (microseconds, Python loop included), and the ratio to the ``AABB`` on
the same query in this one run. Also the ``ConvexHull`` build time for clouds of 1,000 and
10,000 points. Prints a table; nothing is written.

Run: ``python benchmarks/bench_shapes3d.py [--quick]``.
"""

from __future__ import annotations

import argparse
import itertools
import math
import timeit
from typing import Any

import numpy as np

from swept import AABB, ConvexHull, OrientedBox, Ray, Sphere, contact, distance, raycast, sweep


def shapes() -> dict[str, Any]:
    """The targets: one box five ways, and a rounder hull."""
    box = AABB((-1, -1, -1), (1, 1, 1))
    c = math.sqrt(0.5)
    turned = OrientedBox((0, 0, 0), (1, 1, 1), ((c, -c, 0), (c, c, 0), (0, 0, 1)))
    rng = np.random.default_rng(7)
    ball = rng.normal(size=(64, 3))
    ball /= np.linalg.norm(ball, axis=1)[:, None]
    return {
        "AABB": box,
        "OrientedBox (identity)": OrientedBox((0, 0, 0), (1, 1, 1), np.eye(3)),
        "OrientedBox (turned)": turned,
        "ConvexHull (8 corners)": ConvexHull(list(itertools.product((-1, 1), repeat=3))),
        "ConvexHull (64-point ball)": ConvexHull(ball * 1.5),
    }


def queries(n: int) -> list[tuple[Ray, Sphere, tuple[float, float, float]]]:
    """``n`` rays from a shell of radius 5 toward points near the centre, with spheres at the
    ray origins moving by 10 along the ray."""
    rng = np.random.default_rng(3)
    out = []
    for _ in range(n):
        o = rng.normal(size=3)
        o = o / np.linalg.norm(o) * 5.0
        target = rng.uniform(-2.0, 2.0, size=3)
        d = target - o
        d /= np.linalg.norm(d)
        out.append((Ray(tuple(o), tuple(d)), Sphere(tuple(o * 0.4), 0.5), tuple(d * 10.0)))
    return out


def per_call(fn: Any, count: int, repeat: int) -> float:
    """Microseconds per call of ``fn`` (which runs ``count`` calls), best of ``repeat``."""
    return min(timeit.repeat(fn, number=1, repeat=repeat)) / count * 1e6


def main() -> None:
    """Run the benchmark and print its table."""
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--quick", action="store_true", help="fewer queries and repeats")
    args = parser.parse_args()
    n, repeat = (64, 3) if args.quick else (512, 7)
    qs = queries(n)
    targets = shapes()
    for shape in targets.values():
        # compile (or load) every kernel before timing
        raycast(qs[0][0], shape)
        sweep(qs[0][1], qs[0][2], shape)
        contact(qs[0][1], shape)
        distance(qs[0][1], shape)
    rows = []
    for name, shape in targets.items():
        rows.append((name, [
            per_call(lambda s=shape: [raycast(r, s) for r, _b, _d in qs], n, repeat),
            per_call(lambda s=shape: [sweep(b, d, s) for _r, b, d in qs], n, repeat),
            per_call(lambda s=shape: [contact(b, s) for _r, b, _d in qs], n, repeat),
            per_call(lambda s=shape: [distance(b, s) for _r, b, _d in qs], n, repeat),
        ]))
    base = rows[0][1]
    print(f"{'target':28s} {'raycast':>16s} {'sweep sphere':>16s} {'contact sphere':>16s} "
          f"{'distance sphere':>16s}   (us per call, x AABB)")
    for name, costs in rows:
        cells = " ".join(f"{c:8.2f} ({c / b:4.1f}x)" for c, b in zip(costs, base))
        print(f"{name:28s} {cells}")
    rng = np.random.default_rng(11)
    for size in (1_000, 10_000):
        cloud = rng.normal(size=(size, 3))
        t = min(timeit.repeat(lambda c=cloud: ConvexHull(c), number=1,
                              repeat=1 if args.quick else 3))
        print(f"ConvexHull build, {size:,} normal points: {t * 1e3:.1f} ms")


if __name__ == "__main__":
    main()
