"""Many fast balls among thin walls: a World, one batch of rays, and a Simulation in two modes.

Builds 300 random thin walls in a walled 400 x 400 arena, casts 2,000 rays at them in one
parallel batch, then runs 1,000 balls at up to 3,000 units/s for 120 steps of 1/60 s: once with
``ccd="swept"`` (the time of impact of every move) and once with ``ccd="discrete"`` (positions
only). The ``missed`` counter counts the steps in which a ball's centre crossed a wall it never
answered: the tunneling the swept mode exists to prevent.

Run: python examples/many_balls.py
"""

from __future__ import annotations

import time

import numpy as np

from swept import Segment
from swept.sim import Simulation
from swept.world import World

SIZE = 400.0
WALLS = 300
BALLS = 1_000
STEPS = 120


def build_world(rng: np.random.Generator) -> World:
    """The arena's four sides and ``WALLS`` random thin walls (length 10 to 40)."""
    world = World()
    corners = [(0.0, 0.0), (SIZE, 0.0), (SIZE, SIZE), (0.0, SIZE)]
    for i in range(4):
        world.add(Segment(corners[i], corners[(i + 1) % 4]))
    for _ in range(WALLS):
        a = rng.uniform(20.0, SIZE - 20.0, 2)
        angle = rng.uniform(0.0, np.pi)
        b = a + rng.uniform(10.0, 40.0) * np.array([np.cos(angle), np.sin(angle)])
        world.add(Segment(a, np.clip(b, 1.0, SIZE - 1.0)))
    return world


def simulate(world: World, ccd: str, seed: int) -> tuple[int, int, float]:
    """Balls missed, approaches caught, and seconds for ``STEPS`` steps in one mode."""
    rng = np.random.default_rng(seed)
    sim = Simulation(world)
    speed = rng.uniform(500.0, 3000.0, BALLS)
    angle = rng.uniform(0.0, 2.0 * np.pi, BALLS)
    velocities = np.column_stack([speed * np.cos(angle), speed * np.sin(angle)])
    sim.add_balls(rng.uniform(10.0, SIZE - 10.0, (BALLS, 2)), rng.uniform(1.0, 3.0, BALLS),
                  velocities, restitution=0.9, ccd=ccd)
    sim.run(1)  # compile (or load from numba's cache) before timing
    start = time.perf_counter()
    sim.run(STEPS)
    seconds = time.perf_counter() - start
    return int(np.count_nonzero(sim.missed)), sim.caught_total, seconds


def main() -> None:
    """Cast the rays, run both modes, print what each did."""
    rng = np.random.default_rng(7)
    world = build_world(rng)

    origins = rng.uniform(1.0, SIZE - 1.0, (2_000, 2))
    directions = rng.normal(size=(2_000, 2))
    rays = world.raycast_many(origins, directions)
    print(f"2,000 rays against {len(world)} walls: {int(rays.hit.sum())} hit, the median "
          f"{float(np.median(rays.distance[rays.hit])):.1f} units away")

    for ccd in ("swept", "discrete"):
        missed, caught, seconds = simulate(world, ccd, seed=11)
        print(f"{BALLS:,} balls, {STEPS} steps, ccd={ccd!r}: {missed} balls tunneled through "
              f"a wall, {caught:,} wall contacts answered, "
              f"{STEPS / seconds:.0f} steps per second")


if __name__ == "__main__":
    main()
