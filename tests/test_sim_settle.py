"""The Simulation's velocity solver: resting contact settles (issue 12, item 1).

Closed forms where there are any (Coulomb friction on a floor, the restitution threshold's
cut), and the invariants of settled scenes otherwise: a column and a pyramid stand still, a
pile comes to rest without deep overlaps, a closed box of elastic balls keeps its energy.
"""

from __future__ import annotations

import math

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from swept import Circle, Plane, Segment
from swept.sim import Body, Simulation

G = 980.0
DT = 1.0 / 60.0


def _floor_sim(**kwargs: object) -> Simulation:
    """A 2D simulation, gravity y down, with a long floor at y = 0."""
    sim = Simulation(gravity=(0.0, G), **kwargs)  # type: ignore[arg-type]
    sim.world.add(Segment((-1e4, 0.0), (1e4, 0.0)))
    return sim


def _box(sim: Simulation, x0: float, x1: float, top: float) -> None:
    """Two walls from the floor (y = 0) up to ``top`` (negative: y is down)."""
    sim.world.add(Segment((x0, top), (x0, 0.0)))
    sim.world.add(Segment((x1, top), (x1, 0.0)))


def _overlaps(pos: np.ndarray, radii: np.ndarray) -> np.ndarray:
    """Every pair's overlap as a fraction of the smaller radius."""
    d = np.linalg.norm(pos[:, None, :] - pos[None, :, :], axis=2)
    frac = (radii[:, None] + radii[None, :] - d) / np.minimum(radii[:, None], radii[None, :])
    return frac[np.triu_indices(len(radii), 1)]


def test_a_ball_sliding_on_a_floor_slows_by_mu_g_each_step() -> None:
    """Coulomb friction in the solver: the floor's normal impulse is m g dt, so the friction
    impulse, capped at mu times it, takes mu g dt off the speed each step, exactly."""
    sim = _floor_sim()
    sim.add_balls(np.array([[0.0, -10.0]]), 10.0, np.array([[100.0, 0.0]]), friction=0.3,
                  ccd="swept")
    x = 0.0
    for k in range(1, 11):
        sim.step()
        vx = 100.0 - k * 0.3 * G * DT
        x += vx * DT
        assert sim.velocities[0, 0] == pytest.approx(vx, abs=1e-9)
        assert abs(sim.velocities[0, 1]) < 1e-9
        assert sim.positions[0, 0] == pytest.approx(x, abs=1e-9)
        # resting on the floor: the centre stays a radius above it
        assert sim.positions[0, 1] == pytest.approx(-10.0, abs=1e-9)


def test_the_friction_stops_a_sliding_ball_and_holds_it() -> None:
    """The friction impulse never overshoots: once the sliding stops the ball stays put."""
    sim = _floor_sim()
    sim.add_balls(np.array([[0.0, -10.0]]), 10.0, np.array([[20.0, 0.0]]), friction=0.5,
                  ccd="swept")
    sim.run(60)
    assert np.abs(sim.velocities).max() < 1e-9
    x = sim.positions[0, 0]
    sim.run(60)
    assert sim.positions[0, 0] == x


@pytest.mark.parametrize("ccd", ["discrete", "swept", "speculative"])
def test_a_dropped_ball_comes_to_rest(ccd: str) -> None:
    """The restitution threshold: once gravity's pull in a step is the only approach left, the
    ball does not bounce, so it comes to rest on the floor (it used to hop forever)."""
    sim = _floor_sim()
    sim.add_balls(np.array([[0.0, -110.0]]), 10.0, restitution=0.5, friction=0.3, ccd=ccd)
    sim.run(240)
    heights = []
    for _ in range(60):
        sim.step()
        heights.append(sim.positions[0, 1])
        assert np.linalg.norm(sim.velocities[0]) < 1e-9
    assert max(heights) - min(heights) < 1e-9
    assert heights[-1] == pytest.approx(-10.0, abs=1e-6)


def test_without_the_threshold_the_ball_keeps_hopping() -> None:
    """restitution_threshold=0: every approach bounces, so the ball never settles (the test
    above passes because of the threshold)."""
    sim = _floor_sim(restitution_threshold=0.0)
    sim.add_balls(np.array([[0.0, -110.0]]), 10.0, restitution=0.5, ccd="swept")
    sim.run(240)
    top = 0.0
    for _ in range(60):
        sim.step()
        top = max(top, float(np.linalg.norm(sim.velocities[0])))
    assert top > 1.0


def test_the_default_threshold_is_two_steps_of_gravity() -> None:
    """restitution_threshold by default: 2 |g| step (0 without gravity)."""
    assert Simulation(gravity=(3.0, 4.0), step=0.1).restitution_threshold == pytest.approx(1.0)
    assert Simulation().restitution_threshold == 0.0
    assert Simulation(restitution_threshold=7.5).restitution_threshold == 7.5


@pytest.mark.parametrize("bad", [-1.0, math.nan, math.inf])
def test_a_bad_threshold_is_a_value_error(bad: float) -> None:
    with pytest.raises(ValueError, match="restitution_threshold"):
        Simulation(restitution_threshold=bad)


@pytest.mark.parametrize("bad", [-1, 1.5, True])
def test_bad_iterations_are_a_value_error(bad: object) -> None:
    with pytest.raises(ValueError, match="iterations"):
        Simulation(iterations=bad)  # type: ignore[arg-type]


def test_a_column_of_twenty_balls_stands_still() -> None:
    """Stacking: the solver's iterations carry the floor's support up the column, warm
    started from the last step, so nothing sinks (balls used to pass each other)."""
    sim = _floor_sim()
    r = 5.0
    _box(sim, -1.01 * r, 1.01 * r, -300.0)
    centers = np.array([[0.0, -r - i * (2.0 * r + 0.01)] for i in range(20)])
    sim.add_balls(centers, r, friction=0.3, ccd="swept")
    sim.run(600)
    assert np.abs(sim.velocities).max() < 1e-6
    assert _overlaps(sim.positions, np.full(20, r)).max() < 0.01
    # still a column, in order, bottom to top
    assert np.all(np.diff(sim.positions[:, 1]) < -1.9 * r)
    assert np.abs(sim.positions[:, 0]).max() < 0.011 * r


def test_a_pyramid_of_balls_stands() -> None:
    """A triangle of balls between walls that hold its base row stays where it was built."""
    sim = _floor_sim()
    r, gap, base = 5.0, 0.01, 8
    centers = np.array([((2.0 * i + row + 1.0) * (r + gap), -r - row * math.sqrt(3.0) * (r + gap))
                        for row in range(base) for i in range(base - row)])
    _box(sim, 0.0, 2.0 * base * (r + gap), -200.0)
    sim.add_balls(centers, r, friction=0.5, ccd="swept")
    sim.run(600)
    assert np.abs(sim.velocities).max() < 1e-6
    assert np.linalg.norm(sim.positions - centers, axis=1).max() < 0.1 * r


def test_a_pile_comes_to_rest_without_deep_overlaps() -> None:
    """150 balls (radii 4 to 8, restitution 0, friction 0.3) dropped into a box: after 900
    steps the median speed is below 0.5 and no pair overlaps by 1% of the smaller radius (the
    issue's bar; benchmarks/bench_settle.py measures 500 balls against pymunk)."""
    rng = np.random.default_rng(7)
    n, per_row, spacing = 150, 17, 17.0
    k = np.arange(n)
    centers = np.stack([(k % per_row + 0.5) * spacing, -(k // per_row + 0.5) * spacing], 1)
    centers += rng.uniform(-0.4, 0.4, centers.shape)
    radii = rng.uniform(4.0, 8.0, n)
    sim = _floor_sim()
    _box(sim, 0.0, per_row * spacing, -400.0)
    sim.add_balls(centers, radii, restitution=0.0, friction=0.3, ccd="swept")
    sim.run(900)
    speeds = np.linalg.norm(sim.velocities, axis=1)
    assert np.median(speeds) < 0.5
    assert _overlaps(sim.positions, radii).max() < 0.01
    assert sim.missed_total == 0


def test_elastic_balls_in_a_closed_box_keep_their_energy() -> None:
    """Bouncing impacts stay with the exact pairwise exchange and the swept response (the
    solver takes only slow contacts), so restitution 1 without gravity keeps the energy."""
    rng = np.random.default_rng(3)
    ticks = np.arange(20.0, 400.0, 40.0)
    gx, gy = np.meshgrid(ticks, ticks)
    spots = np.stack([gx.ravel(), gy.ravel()], 1)[rng.permutation(100)[:50]]
    heading = rng.uniform(0.0, 2.0 * math.pi, 50)
    vel = np.stack([np.cos(heading), np.sin(heading)], 1) * rng.uniform(50, 200, 50)[:, None]
    sim = Simulation()
    corners = [(0.0, 0.0), (400.0, 0.0), (400.0, 400.0), (0.0, 400.0)]
    for i in range(4):
        sim.world.add(Segment(corners[i], corners[(i + 1) % 4]))
    sim.add_balls(spots, 5.0, vel, restitution=1.0, ccd="swept")
    e0 = 0.5 * np.sum(vel ** 2)
    for _ in range(2000):
        sim.step()
        assert abs(0.5 * np.sum(sim.velocities ** 2) - e0) <= 1e-9 * e0


@settings(max_examples=10, deadline=None)
@given(st.floats(0.0, 0.9), st.floats(0.0, 1.0), st.integers(0, 2**31 - 1))
def test_energy_never_grows_under_gravity(e: float, mu: float, seed: int) -> None:
    """A few balls dropped into a box, restitution below 1: kinetic plus potential energy ends
    below where it started, and never rises above it by more than one step of gravity's work
    at the fastest fall (semi-implicit Euler gives a ball that bounces early in a step that
    step's whole pull of gravity: an integrator's error, bounded so)."""
    rng = np.random.default_rng(seed)
    sim = _floor_sim()
    _box(sim, 0.0, 100.0, -300.0)
    heights = rng.uniform(20.0, 200.0, 5)
    centers = np.stack([np.arange(5) * 20.0 + 10.0, -heights], 1)
    sim.add_balls(centers, 6.0, restitution=e, friction=mu, ccd="swept")

    def energy() -> float:
        # y is down: potential energy is -m g y
        return float(0.5 * np.sum(sim.velocities ** 2) - G * np.sum(sim.positions[:, 1]))

    start = energy()
    fastest = math.sqrt(2.0 * G * heights.max()) + G * DT
    for _ in range(300):
        sim.step()
        assert energy() <= start + 5 * G * fastest * DT
    assert energy() < start


def test_masked_out_bodies_do_not_hold_each_other_up() -> None:
    """The solver honours layers and masks: a ball that masks out another's layer falls
    through it to the floor."""
    sim = _floor_sim()
    # the floor is on layer 1; the lower ball on layer 4, which the upper one masks out
    sim.add_balls(np.array([[0.0, -10.0]]), 10.0, layer=4, friction=0.3, ccd="swept")
    sim.add_balls(np.array([[0.0, -30.0]]), 10.0, layer=2, mask=~4 & 0xFFFFFFFF, ccd="swept")
    sim.run(120)
    assert sim.positions[1, 1] == pytest.approx(-10.0, abs=1e-6)


def test_a_column_of_spheres_stands_on_a_plane_in_3d() -> None:
    """The same solver in 3D: spheres stacked on a plane (z up here) stand still (sleeping
    off: it would freeze them a little earlier, inside the solver's slop)."""
    sim = Simulation(gravity=(0.0, 0.0, -G), sleep_time=None)
    sim.world.add(Plane((0.0, 0.0, 1.0), 0.0))
    r = 5.0
    centers = np.array([[0.0, 0.0, r + i * 2.0 * r] for i in range(6)])
    sim.add_balls(centers, r, friction=0.3, ccd="swept")
    sim.run(300)
    assert np.abs(sim.velocities).max() < 1e-6
    np.testing.assert_allclose(sim.positions, centers, atol=1e-6)


def test_healing_an_overlap_leaves_no_speed_behind() -> None:
    """Overlaps heal by split impulses and position passes, which move bodies without giving
    them speed (a Baumgarte term in the velocities would leave them flying apart)."""
    sim = Simulation()
    sim.add_balls(np.array([[0.0, 0.0], [1.0, 0.0]]), 1.0, ccd="swept")
    sim.step()
    assert np.abs(sim.velocities).max() == 0.0
    gap = np.linalg.norm(sim.positions[1] - sim.positions[0]) - 2.0
    assert abs(gap) < 1e-12
    # momentum: equal masses moved by equal and opposite amounts
    assert sim.positions[:, 0].sum() == pytest.approx(1.0, abs=1e-12)


def test_removing_a_body_renumbers_the_rest_and_keeps_its_state() -> None:
    """remove(): the arrays lose the row, later bodies move down one index, the removed Body
    keeps its place and speed and may join again; the warm start starts over."""
    sim = _floor_sim()
    ids = sim.add_balls(np.array([[0.0, -10.0], [30.0, -10.0], [60.0, -10.0]]), 10.0,
                        np.array([[1.0, 0.0], [2.0, 0.0], [3.0, 0.0]]), ccd="swept")
    sim.run(3)
    middle = sim.bodies[1]
    last = sim.bodies[2]
    where = tuple(middle.position)
    assert sim.remove(middle) is middle
    assert middle.index == -1 and tuple(middle.position) == where
    assert last.index == 1 and len(sim.bodies) == 2
    assert sim.positions.shape == (2, 2)
    sim.run(3)
    sim.add(middle)
    assert middle.index == 2
    sim.remove(0)
    assert [b.index for b in sim.bodies] == [0, 1]
    assert len(ids) == 3
    with pytest.raises(ValueError, match="out of range"):
        sim.remove(5)
    with pytest.raises(TypeError, match="body"):
        sim.remove("x")  # type: ignore[arg-type]


def test_an_impulse_changes_the_velocity_by_impulse_over_mass() -> None:
    sim = Simulation()
    sim.add_balls(np.array([[0.0, 0.0]]), 1.0, mass=4.0)
    sim.apply_impulse(0, (2.0, -8.0))
    assert tuple(sim.velocities[0]) == (0.5, -2.0)
    sim.bodies[0].apply_impulse((2.0, 0.0))
    assert tuple(sim.velocities[0]) == (1.0, -2.0)
    with pytest.raises(ValueError, match="impulse"):
        sim.apply_impulse(0, (1.0, 2.0, 3.0))


def test_a_body_that_leaves_the_range_is_stopped_at_its_edge_and_reported() -> None:
    """Past MAX_COORDINATE (1e50) exactness is not promised: a body that gets there is put
    back on the edge, stopped, and listed in ``escaped``; the others carry on."""
    sim = Simulation()
    sim.add_balls(np.array([[9.9e49, 0.0], [0.0, 0.0]]), 1.0,
                  np.array([[1e50, 0.0], [1.0, 0.0]]))
    sim.step()
    assert sim.escaped.tolist() == [0]
    assert tuple(sim.positions[0]) == (1e50, 0.0)
    assert tuple(sim.velocities[0]) == (0.0, 0.0)
    assert tuple(sim.velocities[1]) == (1.0, 0.0)
    assert Simulation().escaped.shape == (0,)


def test_a_ball_wedged_in_a_corner_is_pushed_along_the_floor_not_stopped() -> None:
    """A position-pass push is cast so that it never goes through a collider; the cast used to
    stop the whole push at the first contact, so a ball resting on a floor that its neighbour
    pushed sideways and a little down never moved, and the two stayed overlapping for good
    (the worst pairs of the 500-ball pile, in its corners). The rest of a push now slides
    along the contact."""
    sim = Simulation(gravity=(0, 980), step=1 / 60)
    sim.world.add(Segment((0, 0), (100, 0)))       # the floor (y is down)
    sim.world.add(Segment((0, -100), (0, 0)))      # the left wall
    # on the floor, and against the wall above it, overlapping by 0.5 (11% of a radius)
    low = sim.add(Body(Circle((8.24, -4.73), 4.73), ccd="swept", friction=0.3))
    high = sim.add(Body(Circle((4.54, -12.92), 4.54), ccd="swept", friction=0.3))
    sim.run(120)
    gap = math.dist(low.position, high.position) - 4.73 - 4.54
    assert gap > -0.01 * 4.54
    # the one below stays on the floor, the one above on the wall
    assert abs(low.position.y + 4.73) < 1e-9 and abs(high.position.x - 4.54) < 1e-9
