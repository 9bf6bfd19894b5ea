"""Sleeping (issue 12, item 2): bodies at rest for ``sleep_time`` with everything they touch
fall asleep and cost nothing; a moving body touching them, a change of the World's colliders,
or setting a body's velocity or position wakes them."""

from __future__ import annotations

import math

import numpy as np
import pytest

from swept import Circle, Segment
from swept.constants import CONTACT_MARGIN_FRACTION
from swept.sim import Body, Simulation

G = 980.0
GROW = 1.0 + CONTACT_MARGIN_FRACTION


def _floor(**kwargs: object) -> Simulation:
    sim = Simulation(gravity=(0.0, G), **kwargs)  # type: ignore[arg-type]
    sim.world.add(Segment((-1e4, 0.0), (1e4, 0.0)))
    return sim


def test_a_resting_ball_falls_asleep_and_stays_put() -> None:
    """At rest (slower than sleep_speed) for sleep_time seconds: asleep, its velocity exactly
    zero, and steps no longer move it."""
    sim = _floor()
    ball = sim.add(Body(Circle((0.0, -10.0), 10.0), ccd="swept"))
    assert sim.sleep_speed == pytest.approx(0.1 * G / 60.0)
    sim.run(29)
    assert not ball.sleeping
    sim.run(2)
    assert ball.sleeping and sim.sleeping.tolist() == [True]
    assert tuple(ball.velocity) == (0.0, 0.0)
    where = tuple(ball.position)
    sim.run(100)
    assert tuple(ball.position) == where
    assert ball.sleeping


def test_without_sleep_time_nothing_sleeps() -> None:
    sim = _floor(sleep_time=None)
    sim.add_balls(np.array([[0.0, -10.0]]), 10.0, ccd="swept")
    sim.run(120)
    assert not sim.sleeping.any()


def test_sleep_time_zero_sleeps_only_a_body_at_rest() -> None:
    """An island sleeps once its least time at rest reaches sleep_time; with sleep_time 0 a
    moving body (time at rest 0) met that bar at once and fell asleep mid-flight, losing its
    velocity. It now needs at least one step at rest."""
    sim = Simulation(gravity=(0.0, 0.0), sleep_time=0.0, sleep_speed=1.0)
    ball = sim.add(Body(Circle((0.0, 0.0), 1.0), (60.0, 0.0), ccd="swept"))
    sim.run(3)
    assert not ball.sleeping and tuple(ball.velocity) == (60.0, 0.0)
    assert ball.position[0] == pytest.approx(3.0, abs=1e-12)
    still = sim.add(Body(Circle((0.0, 50.0), 1.0), ccd="swept"))
    sim.step()
    assert still.sleeping and not ball.sleeping


@pytest.mark.parametrize("kwargs, name", [({"sleep_time": -1.0}, "sleep_time"),
                                          ({"sleep_time": math.nan}, "sleep_time"),
                                          ({"sleep_speed": -1.0}, "sleep_speed")])
def test_bad_sleep_settings_name_the_argument(kwargs: dict, name: str) -> None:
    with pytest.raises(ValueError, match=name):
        Simulation(**kwargs)


def test_a_moving_ball_wakes_what_it_hits() -> None:
    """A ball rolling into a sleeping one wakes it (and it is pushed on); while asleep a body
    is immovable, so the contact is answered on the mover's side the step before."""
    sim = _floor()
    sim.add_balls(np.array([[0.0, -10.0]]), 10.0, friction=0.0, ccd="swept")
    sim.run(40)
    assert sim.sleeping.tolist() == [True]
    sim.add(Body(Circle((-60.0, -10.0), 10.0), (300.0, 0.0), ccd="swept"))
    sim.run(20)
    assert not sim.sleeping[0]
    assert sim.positions[0, 0] > 0.0


# Two mechanisms guarded here. The pair lists that wake sleepers hold only bodies already
# within a fraction of their radii, so a ball fast enough to cross the gap in one step met the
# sleeping stack as an immovable wall, stopped, and the stack slept on; a sleeper on an awake
# body's path this step now wakes first. And while any body was awake, every sleeper's island
# was reset to its own index each step, so a hit woke only the body touched.
@pytest.mark.parametrize("other_awake", [False, True])
def test_a_fast_ball_wakes_a_sleeping_stack_and_pushes_it(other_awake: bool) -> None:
    sim = _floor(sleep_time=0.2)
    sim.add_balls(np.array([[0.0, -10.0], [0.0, -30.0], [0.0, -50.0], [600.0, -10.0]]),
                  10.0, restitution=0.0, friction=0.5)
    far = sim.bodies[3]
    for _ in range(120):
        if other_awake:
            far.velocity = (30.0, 0.0)
        sim.step()
    assert sim.sleeping[:3].tolist() == [True, True, True]
    assert far.sleeping != other_awake
    # the stack's island survives the far ball's steps
    assert len(set(sim._island[:3].tolist())) == 1
    # 2,000 units/s: 33 a step, more than the 20 between the fast ball and the stack at its
    # last step before the hit
    sim.add_balls(np.array([[-200.0, -10.0]]), 10.0, np.array([[2000.0, 0.0]]),
                  restitution=0.0, friction=0.5, ccd="swept")
    for _ in range(12):
        if other_awake:
            far.velocity = (30.0, 0.0)
        sim.step()
    assert sim.sleeping[:3].tolist() == [False, False, False]
    # the bottom ball is knocked on along the floor, the ones above it topple after it
    assert sim.positions[0, 0] > 15.0
    assert sim.positions[1, 0] > 1.0


def test_the_path_wake_sees_a_sleeper_where_it_sleeps_now() -> None:
    """The sleepers' sorted boxes are kept between steps while the same bodies sleep at the
    same places: a sleeper moved (woken, then asleep again elsewhere) is looked for at its
    new place, so a fast ball aimed there wakes it."""
    sim = _floor(sleep_time=0.2)
    sim.add_balls(np.array([[0.0, -10.0], [300.0, -10.0], [-3000.0, -10.0]]), 10.0,
                  friction=0.0)
    drifter = sim.bodies[2]
    for _ in range(20):
        drifter.velocity = (-30.0, 0.0)  # keeps the path test running every step
        sim.step()
    assert sim.sleeping[:2].tolist() == [True, True]
    sim.bodies[1].position = (600.0, -10.0)
    for _ in range(20):
        drifter.velocity = (-30.0, 0.0)
        sim.step()
    assert sim.sleeping[:2].tolist() == [True, True]
    # the kept boxes are the ones at the new place
    kept = sim._path_sleepers
    assert kept is not None
    assert kept[4][:, 0].tolist() == [-10.0 * GROW, 600.0 - 10.0 * GROW]
    sim.add_balls(np.array([[400.0, -10.0]]), 10.0, np.array([[2000.0, 0.0]]), friction=0.0,
                  ccd="swept")
    for _ in range(6):
        drifter.velocity = (-30.0, 0.0)
        sim.step()
    assert not sim.sleeping[1] and sim.positions[1, 0] > 600.0
    assert sim.sleeping[0]


@pytest.mark.parametrize("poke", ["velocity", "position", "impulse", "wake"])
def test_setting_a_body_wakes_it(poke: str) -> None:
    sim = _floor()
    ball = sim.add(Body(Circle((0.0, -10.0), 10.0), ccd="swept"))
    sim.run(40)
    assert ball.sleeping
    if poke == "velocity":
        ball.velocity = (5.0, 0.0)
    elif poke == "position":
        ball.position = (0.0, -100.0)
    elif poke == "impulse":
        ball.apply_impulse((5.0, 0.0))
    else:
        ball.wake()
    assert not ball.sleeping
    sim.step()
    assert not ball.sleeping


def test_a_change_of_the_colliders_wakes_everything() -> None:
    """Removing the floor under a sleeping ball wakes it, and it falls."""
    sim = Simulation(gravity=(0.0, G))
    floor = sim.world.add(Segment((-100.0, 0.0), (100.0, 0.0)))
    sim.add_balls(np.array([[0.0, -10.0]]), 10.0, ccd="swept")
    sim.run(40)
    assert sim.sleeping.all()
    sim.world.remove(floor)
    sim.run(5)
    assert not sim.sleeping.any()
    assert sim.positions[0, 1] > -10.0


def test_an_island_sleeps_only_when_all_of_it_rests() -> None:
    """Two balls side by side on the floor, touching: while one still slides, neither sleeps;
    the resting ball alone on the other side of the map sleeps on time."""
    sim = _floor()
    sim.add_balls(np.array([[0.0, -10.0], [20.0, -10.0], [500.0, -10.0]]), 10.0,
                  friction=0.0, ccd="swept")
    sim.run(40)
    assert sim.sleeping.tolist() == [True, True, True]
    # push one of the touching pair: the whole island wakes
    sim.bodies[1].velocity = (0.0, -1.0)
    assert sim.sleeping.tolist() == [False, False, True]


def test_a_settled_pile_sleeps_whole_and_steps_cost_nothing() -> None:
    """150 balls dropped into a box settle and all fall asleep; then a step changes no bit."""
    rng = np.random.default_rng(7)
    n, per_row, spacing = 150, 17, 17.0
    k = np.arange(n)
    centers = np.stack([(k % per_row + 0.5) * spacing, -(k // per_row + 0.5) * spacing], 1)
    centers += rng.uniform(-0.4, 0.4, centers.shape)
    sim = _floor()
    sim.world.add(Segment((0.0, -400.0), (0.0, 0.0)))
    sim.world.add(Segment((per_row * spacing, -400.0), (per_row * spacing, 0.0)))
    sim.add_balls(centers, rng.uniform(4.0, 8.0, n), friction=0.3, ccd="swept")
    for _ in range(3000):
        sim.step()
        if sim.sleeping.all():
            break
    assert sim.sleeping.all()
    before = sim.positions
    sim.run(10)
    assert np.array_equal(sim.positions, before)
    assert np.abs(sim.velocities).max() == 0.0


def test_sleeping_bodies_do_not_gather_speed_from_gravity() -> None:
    """Gravity is not added to a sleeping body: woken after a long sleep, it does not leap
    with the speed of every step it slept through."""
    sim = _floor()
    ball = sim.add(Body(Circle((0.0, -10.0), 10.0), ccd="swept"))
    sim.run(200)
    assert ball.sleeping and tuple(ball.velocity) == (0.0, 0.0)
    ball.wake()
    sim.step()
    assert abs(ball.velocity[1]) < 1e-9
