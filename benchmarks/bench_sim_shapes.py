"""Benchmark: piles of balls, boxes, capsules and triangles in a bin, side by side in one run.

Scene: ``bodies`` bodies of one shape (size 2 across, placed on a grid with gaps above a bin
40 units wide per 100 bodies, walls and floor thin segments), dropped under gravity 980 with
friction 0.3 and no restitution, in swept mode, stepped ``steps`` times at 1/60 s on one
thread. Printed per shape: the median step's CPU time (and its ratio to the balls'), the
worst overlap of two bodies and of a body with a wall at the end (``swept.contact`` on the
shapes), how many bodies ever missed an approach (tunneled), and the median speed at the end
(sleeping is off, so every step is timed moving or resting).

Run ``python benchmarks/bench_sim_shapes.py [--quick]``.
"""

from __future__ import annotations

import argparse
import statistics
import time
from typing import Any

import numpy as np

import swept
from swept import AABB, Capsule, Circle, Polygon, Segment, contact
from swept.sim import Body, Simulation

#: Gravity, units per second squared (y down).
GRAVITY = 980.0
#: Bodies per row of the starting grid.
PER_ROW = 20
#: Distance between grid places (a body is 2 across).
SPACING = 3.0


def _shape(kind: str, x: float, y: float) -> Any:
    """A body of ``kind`` about 2 across, centred near (x, y)."""
    if kind == "ball":
        return Circle((x, y), 1.0)
    if kind == "box":
        return AABB((x - 1.0, y - 1.0), (x + 1.0, y + 1.0))
    if kind == "capsule":
        return Capsule((x - 0.5, y), (x + 0.5, y), 0.5)
    return Polygon([(x - 1.0, y + 1.0), (x + 1.0, y + 1.0), (x, y - 1.0)])


def pile(kind: str, bodies: int, steps: int) -> dict[str, Any]:
    """Drop ``bodies`` bodies of ``kind`` into a bin; the step's cost and the pile's state."""
    # no sleeping: every step is a moving (or resting) pile's
    sim = Simulation(gravity=(0.0, GRAVITY), sleep_time=None)
    width = PER_ROW * SPACING
    sim.world.add(Segment((0.0, 0.0), (width, 0.0)))
    sim.world.add(Segment((0.0, 0.0), (0.0, -1e4)))
    sim.world.add(Segment((width, 0.0), (width, -1e4)))
    rng = np.random.default_rng(1)
    added = []
    for k in range(bodies):
        x = SPACING * (k % PER_ROW + 0.5) + 0.2 * rng.random()
        y = -SPACING * (k // PER_ROW + 1)
        added.append(sim.add(Body(_shape(kind, x, y), ccd="swept", friction=0.3)))
    times = []
    for _ in range(steps):
        t0 = time.process_time()
        sim.step()
        times.append(time.process_time() - t0)
    shapes = [b.shape for b in added]
    walls = [sim.world.shape(h) for h in sim.world.handles()]
    pair = 0.0
    for i, a in enumerate(shapes):
        for b in shapes[i + 1:]:
            if abs(a.aabb.center[0] - b.aabb.center[0]) < 3.0 and abs(
                    a.aabb.center[1] - b.aabb.center[1]) < 3.0:
                c = contact(a, b)
                if c is not None:
                    pair = max(pair, c.depth)
    wall = 0.0
    for a in shapes:
        for w in walls:
            c = contact(a, w)
            if c is not None:
                wall = max(wall, c.depth)
    return {"shape": kind, "median_step_ms": 1e3 * statistics.median(times),
            "speed": float(np.median(np.hypot(*sim.velocities.T))),
            "worst_pair_overlap": pair, "worst_wall_overlap": wall,
            "missed": int((sim.missed > 0).sum())}


def run(quick: bool = False) -> list[dict[str, Any]]:
    """Every shape's pile, balls first (the others' ratios are to them)."""
    swept.set_threads(1)
    bodies, steps = (200, 300) if quick else (1000, 900)
    # compile every kind's kernels before the clock starts
    for kind in ("ball", "box", "capsule", "triangle"):
        pile(kind, 4, 2)
    return [pile(kind, bodies, steps) for kind in ("ball", "box", "capsule", "triangle")]


def main() -> None:
    """Print the table."""
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--quick", action="store_true", help="200 bodies, 300 steps")
    args = parser.parse_args()
    rows = run(args.quick)
    base = rows[0]["median_step_ms"]
    print(f"{'shape':10} {'step ms':>9} {'x balls':>8} {'pair overlap':>13} "
          f"{'wall overlap':>13} {'missed':>7} {'speed':>9}")
    for r in rows:
        print(f"{r['shape']:10} {r['median_step_ms']:9.3f} {r['median_step_ms'] / base:8.2f} "
              f"{r['worst_pair_overlap']:13.2e} {r['worst_wall_overlap']:13.2e} "
              f"{r['missed']:7d} {r['speed']:9.2e}")


if __name__ == "__main__":
    main()
