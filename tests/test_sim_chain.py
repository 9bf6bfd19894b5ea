"""A Simulation over a World holding chains: the ball cast meets a chain's segments and takes
its smooth-join normals (the sim's entering cast dispatches on the chain segment kind; before,
a chain's rows fell through to "a removed collider" and balls passed through chains)."""

from __future__ import annotations

import numpy as np

from swept import Chain, Segment
from swept.sim import Simulation


def test_fast_balls_never_tunnel_through_a_chain_floor() -> None:
    """Balls dropped at up to 5,000 units/s onto a floor of many chain segments stay above it
    and are caught, never missed."""
    sim = Simulation(gravity=(0.0, -980.0))
    xs = np.linspace(-500.0, 500.0, 201)
    sim.world.add(Chain([(float(x), 0.0) for x in xs]))
    rng = np.random.default_rng(7)
    n = 200
    centers = np.column_stack([rng.uniform(-400, 400, n), rng.uniform(20, 200, n)])
    velocities = np.column_stack([rng.uniform(-300, 300, n), rng.uniform(-5000, -1000, n)])
    sim.add_balls(centers, 4.0, velocities, ccd="swept")
    sim.run(30)
    assert sim.missed_total == 0
    assert sim.caught_total > 0
    # every ball over the floor (none has rolled off its ends in half a second) rests on it
    over = np.abs(sim.positions[:, 0]) < 495.0
    assert over.sum() > 150
    assert (sim.positions[over, 1] >= 4.0 - 1e-6).all()


def test_a_ball_rolling_across_chain_seams_keeps_its_speed_as_on_one_segment() -> None:
    """On a flat floor split into a chain of 100 pieces, a ball sliding along it moves as on a
    single segment: no seam gives it a push back (a ghost normal)."""
    def run(floor: object) -> np.ndarray:
        sim = Simulation(gravity=(0.0, -980.0))
        sim.world.add(floor)
        sim.add_balls(np.array([[-400.0, 5.0]]), 5.0, np.array([[600.0, 0.0]]), ccd="swept",
                      friction=0.0)
        sim.run(60)
        return sim.positions[0].copy()

    chain = run(Chain([(float(x), 0.0) for x in np.linspace(-500.0, 500.0, 101)]))
    single = run(Segment((-500.0, 0.0), (500.0, 0.0)))
    assert abs(chain[0] - single[0]) <= 1e-6 * 600.0
    assert abs(chain[1] - single[1]) <= 1e-6
