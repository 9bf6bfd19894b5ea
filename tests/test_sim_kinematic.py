"""Moving colliders that carry velocity (issue 12, item 5): a collider moved by the World with a
velocity, or driven by ``Simulation.move_collider``, is met by the bodies in relative motion
(moving versus moving time of impact), so it never passes through a swept ball, and its
contacts answer its velocity (a platform carries and lifts a resting ball, a paddle gives a
ball its speed)."""

from __future__ import annotations

import copy
import math
import pickle

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from swept import AABB, Chain, Circle, Plane, Segment, Sphere, contact
from swept.sim import Body, Simulation
from swept.world import World

G = 980.0
DT = 1.0 / 60.0


def _platform_sim(velocity: tuple[float, float], *, friction: float = 0.5,
                  ccd: str = "swept") -> tuple[Simulation, int, Body]:
    """A 100 x 10 platform (top at y = 0, screen coordinates: up is -y) driven at
    ``velocity``, a ball of radius 10 resting on its middle."""
    sim = Simulation(gravity=(0.0, G))
    plat = sim.world.add(AABB((-50.0, 0.0), (50.0, 10.0)), moving=True)
    ball = sim.add(Body(Circle((0.0, -10.0), 10.0), friction=friction, ccd=ccd))
    sim.move_collider(plat, velocity=velocity)
    return sim, plat, ball


def _box_gap(box: AABB, center: tuple[float, ...], radius: float) -> float:
    """Distance from a ball's surface to a box (negative: the depth, for a centre outside)."""
    lo, hi = np.array(box.min), np.array(box.max)
    c = np.array(center)
    q = np.clip(c, lo, hi)
    d = float(np.linalg.norm(c - q))
    if d > 0.0:
        return d - radius
    # centre inside: depth to the nearest face
    return -float(min(np.min(c - lo), np.min(hi - c))) - radius


# ------------------------------------------------------------------------------- carrying


@pytest.mark.parametrize("ccd", ["swept", "speculative", "discrete"])
def test_a_moving_platform_carries_a_resting_ball_for_300_steps(ccd: str) -> None:
    """Friction takes the ball up to the platform's speed (mu g = 490 units/s^2: 60 units/s
    in about 7 steps), after which it rides at exactly that speed: its offset on the platform
    stays put, and it stays on the platform's top."""
    sim, plat, ball = _platform_sim((60.0, 0.0), ccd=ccd)
    offsets = []
    for _ in range(300):
        sim.step()
        top = sim.world.shape(plat).min
        assert ball.position[1] == pytest.approx(top[1] - 10.0, abs=0.05)
        offsets.append(ball.position[0] - 0.5 * (top[0] + sim.world.shape(plat).max[0]))
    assert sim.world.shape(plat).min[0] == pytest.approx(-50.0 + 300.0, abs=1e-9)
    assert ball.velocity[0] == pytest.approx(60.0, abs=1e-9)
    # the slip of the first steps: within the closed form of a ball accelerated at mu g
    slip = 60.0 * 60.0 / (2.0 * 0.5 * G)
    assert -slip - 1.0 < offsets[-1] < 0.0
    # and then none: the ball follows the platform
    assert offsets[-1] == pytest.approx(offsets[50], abs=1e-9)
    assert sim.missed_total == 0


def test_a_frictionless_ball_stays_behind_a_sliding_platform() -> None:
    """Without friction the platform slides under the ball (relative tangential velocity is
    not answered), so the ball keeps x = 0 until the platform's end passes it."""
    sim, plat, ball = _platform_sim((60.0, 0.0), friction=0.0)
    sim.run(30)
    assert ball.position[0] == pytest.approx(0.0, abs=1e-9)
    assert ball.position[1] == pytest.approx(-10.0, abs=0.05)


@pytest.mark.parametrize("ccd", ["swept", "speculative"])
def test_a_lift_platform_moving_up_lifts_a_resting_ball(ccd: str) -> None:
    """A platform rising at 90 units/s (up is -y) against gravity 980 lifts the ball on its
    top: the ball's centre stays one radius above the platform, rising at the platform's
    speed, and the ball is never inside it."""
    sim, plat, ball = _platform_sim((0.0, -90.0), ccd=ccd)
    for _ in range(120):
        sim.step()
        top = sim.world.shape(plat).min[1]
        assert ball.position[1] == pytest.approx(top - 10.0, abs=0.05)
        assert _box_gap(sim.world.shape(plat), tuple(ball.position), 10.0) > -0.05
    assert sim.world.shape(plat).min[1] == pytest.approx(-180.0, abs=1e-9)
    assert ball.velocity[1] == pytest.approx(-90.0, abs=0.5)
    assert sim.missed_total == 0


def test_a_platform_moving_down_slower_than_a_fall_keeps_the_ball_on_it() -> None:
    """A platform sinking at 30 units/s: the ball falls with it (gravity gives more than 30
    units/s within a step), resting on it step after step."""
    sim, plat, ball = _platform_sim((0.0, 30.0))
    sim.run(60)
    top = sim.world.shape(plat).min[1]
    assert top == pytest.approx(30.0, abs=1e-9)
    assert ball.position[1] == pytest.approx(top - 10.0, abs=0.5)


def test_a_one_way_lift_carries_from_above_and_lets_a_ball_below_pass() -> None:
    """A one-way platform (solid side up, -y) rising at 120 units/s: a ball resting on it
    rides it up; a ball thrown up from below passes through it (one-way rules apply to the
    motion relative to the platform) and then lands on it from above; missed by none."""
    sim = Simulation(gravity=(0.0, G))
    lift = sim.world.add(Segment((-50.0, 100.0), (50.0, 100.0)), moving=True,
                         one_way=(0.0, -1.0))
    rider = sim.add(Body(Circle((0.0, 95.0), 5.0), ccd="swept"))
    thrown = sim.add(Body(Circle((30.0, 160.0), 5.0), (0.0, -900.0), ccd="swept"))
    sim.move_collider(lift, (0.0, -120.0))
    above = False
    for _ in range(90):
        sim.step()
        top = sim.world.shape(lift).a[1]
        assert rider.position[1] == pytest.approx(top - 5.0, abs=0.05)
        above = above or thrown.position[1] < top - 5.0
    assert above
    assert sim.world.shape(lift).a[1] == pytest.approx(-80.0, abs=1e-9)
    assert thrown.position[1] == pytest.approx(-85.0, abs=0.05)
    assert sim.missed_total == 0


# ------------------------------------------------------------------------------- paddles


@pytest.mark.parametrize("restitution", [0.0, 0.5, 1.0])
@pytest.mark.parametrize("ccd", ["swept", "speculative"])
def test_a_paddle_at_50_units_a_step_hits_a_ball_with_the_closed_form_speed(
        ccd: str, restitution: float) -> None:
    """A paddle moving +x at 3000 units/s (50 units a step; the ball's radius is 5) meets a
    ball coming at -300 units/s: the ball leaves at ``(1 + e) v_paddle - e v_ball`` along
    the normal, exactly, and is never passed through (missed 0, always ahead of the paddle).
    Swept mode also puts the meeting at the exact time of impact within the step."""
    sim = Simulation(gravity=(0.0, 0.0))
    paddle = sim.world.add(AABB((-20.0, -100.0), (0.0, 100.0)), moving=True)
    ball = sim.add(Body(Circle((200.0, 0.0), 5.0), (-300.0, 0.0), restitution=restitution,
                        ccd=ccd))
    sim.move_collider(paddle, velocity=(3000.0, 0.0))
    out = (1.0 + restitution) * 3000.0 + restitution * 300.0
    for _ in range(8):
        sim.step()
        front = sim.world.shape(paddle).max[0]
        assert ball.position[0] - 5.0 >= front - 1e-9
    assert ball.velocity[0] == pytest.approx(out, rel=1e-12)
    assert ball.velocity[1] == 0.0
    assert sim.missed_total == 0 and sim.caught_total >= 1
    if ccd == "swept":
        # contact when 195 units of gap close at 3300 units/s, then the rest at the new speed
        t_hit = 195.0 / 3300.0
        expected = 200.0 - 300.0 * t_hit + out * (8 * DT - t_hit)
        if restitution == 0.0:
            # riding the paddle's face: the pushes keep it there
            expected = 8 * 50.0 + 5.0
        assert ball.position[0] == pytest.approx(expected, rel=1e-9)


def test_the_paddle_hit_is_an_event_with_the_relative_approach_speed() -> None:
    """The contact event of a paddle hit: at step 4, normal +x, the point where they touch
    at the time of impact (the paddle's face then: 150 + 50 * 30 / 55), and the approach
    speed relative to the paddle (3000 + 300)."""
    sim = Simulation(gravity=(0.0, 0.0))
    paddle = sim.world.add(AABB((-20.0, -100.0), (0.0, 100.0)), moving=True)
    sim.add(Body(Circle((200.0, 0.0), 5.0), (-300.0, 0.0), restitution=0.5, ccd="swept"))
    sim.move_collider(paddle, velocity=(3000.0, 0.0))
    seen: list[tuple[int, np.ndarray]] = []
    sim.on_contact_begin(lambda events: seen.append((sim.steps_taken, events.copy())))
    sim.run(8)
    assert len(seen) == 1 and seen[0][0] == 4
    event = seen[0][1][0]
    assert event["other"] == paddle and tuple(event["normal"]) == (1.0, 0.0)
    assert event["point"][0] == pytest.approx(150.0 + 50.0 * 30.0 / 55.0, rel=1e-12)
    assert event["approach"] == pytest.approx(3300.0, rel=1e-12)


def test_a_paddle_passes_through_a_discrete_ball() -> None:
    """Discrete mode promises nothing: the paddle's 50 units a step jumps the ball (radius
    2), which the bookkeeping reports as missed: the ball's path relative to the paddle's
    motion crosses it."""
    sim = Simulation(gravity=(0.0, 0.0))
    paddle = sim.world.add(AABB((-20.0, -100.0), (0.0, 100.0)), moving=True)
    sim.add(Body(Circle((20.0, 0.0), 2.0), ccd="discrete"))
    sim.move_collider(paddle, velocity=(3000.0, 0.0))
    sim.run(3)
    assert sim.positions[0, 0] < sim.world.shape(paddle).min[0]
    assert sim.missed_total == 1


def test_a_3d_paddle_hits_a_sphere_with_the_closed_form_speed() -> None:
    sim = Simulation(gravity=(0.0, 0.0, 0.0))
    paddle = sim.world.add(AABB((-20.0, -100.0, -100.0), (0.0, 100.0, 100.0)), moving=True)
    ball = sim.add(Body(Sphere((200.0, 0.0, 0.0), 5.0), (-300.0, 0.0, 0.0), restitution=0.5,
                        ccd="swept"))
    sim.move_collider(paddle, velocity=(3000.0, 0.0, 0.0))
    sim.run(8)
    assert tuple(ball.velocity) == pytest.approx((4650.0, 0.0, 0.0), rel=1e-12)
    assert sim.missed_total == 0


@pytest.mark.parametrize("scale", [1e-6, 1e-3, 1.0, 1e3, 1e6])
@pytest.mark.parametrize("where", [0.0, 1.0])
def test_the_paddle_answer_is_the_same_at_every_scale(scale: float, where: float) -> None:
    """The paddle scene with every length (and speed) times ``scale``, at the origin or
    moved 1e6 units away (1e6 times the scale, for scales above 1): the outgoing speed is the
    closed form, to rounding, and the ball is never passed through."""
    off = where * 1e6 * max(scale, 1.0)
    sim = Simulation(gravity=(0.0, 0.0))
    paddle = sim.world.add(AABB((off - 20.0 * scale, -100.0 * scale),
                                (off, 100.0 * scale)), moving=True)
    ball = sim.add(Body(Circle((off + 200.0 * scale, 0.0), 5.0 * scale),
                        (-300.0 * scale, 0.0), restitution=0.5, ccd="swept"))
    sim.move_collider(paddle, velocity=(3000.0 * scale, 0.0))
    for _ in range(8):
        sim.step()
        assert ball.position[0] - 5.0 * scale >= sim.world.shape(paddle).max[0] - 1e-9 * (
            scale + off)
    assert ball.velocity[0] == pytest.approx(4650.0 * scale, rel=1e-9)
    assert sim.missed_total == 0


@pytest.mark.parametrize("speed", [1e10, 1e30, 1e49])
def test_a_paddle_at_extreme_speeds_still_hits_with_the_closed_form(speed: float) -> None:
    """Paddle speeds up to 1e49 units/s (near the coordinate range's edge after a few
    steps): no NaN, nothing passed through, the outgoing speed ``1.5 v + 150`` to
    rounding."""
    sim = Simulation(gravity=(0.0, 0.0))
    paddle = sim.world.add(AABB((-20.0, -100.0), (0.0, 100.0)), moving=True)
    ball = sim.add(Body(Circle((200.0, 0.0), 5.0), (-300.0, 0.0), restitution=0.5,
                        ccd="swept"))
    sim.move_collider(paddle, (speed, 0.0))
    sim.run(5)
    assert np.isfinite(sim.positions).all() and np.isfinite(sim.velocities).all()
    assert ball.position[0] - 5.0 >= sim.world.shape(paddle).max[0] * (1.0 - 1e-12)
    assert ball.velocity[0] == pytest.approx(1.5 * speed + 150.0, rel=1e-12)
    assert sim.missed_total == 0


def test_a_wall_sliding_along_its_face_past_a_touching_ball_leaves_it_alone() -> None:
    """Grazing: a frictionless wall moving along its own face at 50 units a step past a ball
    that touches it (no gravity) neither stops nor drags nor pushes the ball."""
    sim = Simulation(gravity=(0.0, 0.0))
    wall = sim.world.add(AABB((-200.0, 0.0), (0.0, 10.0)), moving=True)
    ball = sim.add(Body(Circle((-100.0, -5.0), 5.0), (0.0, 0.0), ccd="swept"))
    sim.move_collider(wall, velocity=(3000.0, 0.0))
    sim.run(3)
    assert tuple(ball.position) == (-100.0, -5.0)
    assert tuple(ball.velocity) == (0.0, 0.0)
    assert sim.missed_total == 0


def test_a_platform_dropping_faster_than_a_fall_never_pulls_the_ball() -> None:
    """A platform sinking at 600 units/s leaves a resting ball behind: the ball falls freely
    (semi-implicit Euler: y_k = y_0 + g dt^2 k (k + 1) / 2) until it catches up, the contact
    never pulling it down faster."""
    sim, plat, ball = _platform_sim((0.0, 600.0))
    for k in range(1, 11):
        sim.step()
        assert ball.position[1] == pytest.approx(-10.0 + G * DT * DT * k * (k + 1) / 2.0,
                                                 abs=1e-9)
        assert sim.world.shape(plat).min[1] == pytest.approx(10.0 * k, abs=1e-9)


def test_the_thread_count_does_not_change_a_bit_with_moving_colliders() -> None:
    """Moving walls through 600 balls (more than a parallel batch): the same bits on one
    thread and on three."""
    import swept

    runs = []
    for threads in (1, max(swept.threads(), 3)):
        swept.set_threads(threads)
        try:
            sim = Simulation(gravity=(0.0, G))
            sim.world.add(AABB((-1000.0, 300.0), (1000.0, 320.0)))
            for k in range(3):
                h = sim.world.add(Segment((-400.0 + 300 * k, 0.0), (-400.0 + 300 * k, 290.0)),
                                  moving=True)
                sim.move_collider(h, velocity=(1500.0 - 1500.0 * k, 0.0))
            rng = np.random.default_rng(5)
            sim.add_balls(np.column_stack([rng.uniform(-380.0, 380.0, 600),
                                           rng.uniform(10.0, 280.0, 600)]), 2.0,
                          ccd="swept", restitution=0.3, friction=0.2)
            sim.run(15)
        finally:
            swept.set_threads(None)
        runs.append((sim.positions.tobytes(), sim.velocities.tobytes(), sim.missed.tobytes()))
    assert runs[0] == runs[1]


# ------------------------------------------------------------------------------- sweeping


@pytest.mark.parametrize("ccd", ["swept", "speculative"])
def test_a_wall_sweeping_across_a_row_of_balls_leaves_none_behind(ccd: str) -> None:
    """A wall (a segment) moving +x at 40 units a step through 20 balls of radius 3 in a
    column and a row: every ball ends ahead of it, none missed."""
    sim = Simulation(gravity=(0.0, 0.0))
    wall = sim.world.add(Segment((0.0, -200.0), (0.0, 200.0)), moving=True)
    column = [(50.0, -150.0 + 15.0 * k) for k in range(15)]
    row = [(120.0 + 30.0 * k, 0.0) for k in range(5)]
    sim.add_balls(np.array(column + row), 3.0, ccd=ccd)
    sim.move_collider(wall, velocity=(2400.0, 0.0))
    for _ in range(20):
        sim.step()
        x = sim.world.shape(wall).a[0]
        assert (sim.positions[:, 0] - 3.0 >= x - 1e-6).all()
    assert sim.missed_total == 0


def test_a_wall_moved_by_the_world_without_velocity_takes_its_displacement() -> None:
    """``World.move`` without a velocity between steps: the Simulation gives the collider the
    velocity of its displacement since the last step, over one step (here 40 units: 2400
    units/s), sweeps the balls against that motion and reports it as the collider's
    velocity; a step in which it does not move makes it still again."""
    sim = Simulation(gravity=(0.0, 0.0))
    world = sim.world
    wall = world.add(Segment((0.0, -50.0), (0.0, 50.0)), moving=True)
    ball = sim.add(Body(Circle((20.0, 0.0), 3.0), ccd="swept"))
    world.move(wall, Segment((40.0, -50.0), (40.0, 50.0)))
    assert tuple(world.velocity(wall)) == (0.0, 0.0)
    sim.step()
    assert tuple(world.velocity(wall)) == pytest.approx((2400.0, 0.0), rel=1e-12)
    assert ball.position[0] >= 43.0 - 1e-9
    assert ball.velocity[0] == pytest.approx(2400.0, rel=1e-12)
    assert sim.missed_total == 0
    sim.step()
    assert tuple(world.velocity(wall)) == (0.0, 0.0)


def test_a_move_belongs_to_the_first_step_of_an_update_and_implied_velocity_pickles() -> None:
    """``update`` taking three steps after a move: the first step carries the whole
    displacement (its velocity 40 units over one step), the next two are still; an implied
    velocity survives a pickle as implied (the restored World's next still step zeroes it)."""
    sim = Simulation(gravity=(0.0, 0.0))
    world = sim.world
    wall = world.add(Segment((0.0, -50.0), (0.0, 50.0)), moving=True)
    ball = sim.add(Body(Circle((20.0, 0.0), 3.0), ccd="swept"))
    world.move(wall, Segment((40.0, -50.0), (40.0, 50.0)))
    assert sim.update(3.0 * DT) == 3
    assert tuple(world.velocity(wall)) == (0.0, 0.0)
    assert ball.velocity[0] == pytest.approx(2400.0, rel=1e-12)
    world.move(wall, Segment((80.0, -50.0), (80.0, 50.0)))
    sim.step()
    restored = pickle.loads(pickle.dumps(world))
    assert tuple(restored.velocity(wall)) == pytest.approx((2400.0, 0.0), rel=1e-12)
    again = Simulation(restored, gravity=(0.0, 0.0))
    again.step()
    assert tuple(restored.velocity(wall)) == (0.0, 0.0)


def test_a_still_collider_moved_by_the_world_jumps() -> None:
    """A collider added without ``moving=True`` is put somewhere else by a move, not moved
    through the balls: a wall moved from behind a ball to in front of it does not sweep the
    ball along, and the ball then bounces off it where it stands."""
    sim = Simulation(gravity=(0.0, 0.0))
    wall = sim.world.add(Segment((-10.0, -5.0), (-10.0, 5.0)))
    ball = sim.add(Body(Circle((0.0, 0.0), 1.0), (600.0, 0.0), restitution=1.0, ccd="swept"))
    sim.world.move(wall, Segment((14.0, -5.0), (14.0, 5.0)))
    sim.step()
    assert tuple(ball.velocity) == (600.0, 0.0) and ball.position[0] == pytest.approx(10.0)
    assert tuple(sim.world.velocity(wall)) == (0.0, 0.0)
    sim.step()
    assert tuple(ball.velocity) == (-600.0, 0.0)


def test_a_conveyor_belt_a_still_collider_with_a_velocity_drives_a_ball() -> None:
    """A collider that does not move but carries a velocity along its surface: friction
    takes a resting ball up to that speed (the contact answers the relative velocity), and
    the belt itself stays where it is."""
    sim = Simulation(gravity=(0.0, G))
    belt = sim.world.add(AABB((-1e4, 0.0), (1e4, 10.0)))
    ball = sim.add(Body(Circle((0.0, -10.0), 10.0), friction=0.8, ccd="swept"))
    sim.world.set_velocity(belt, (100.0, 0.0))
    sim.run(60)
    assert ball.velocity[0] == pytest.approx(100.0, abs=1e-9)
    assert ball.position[1] == pytest.approx(-10.0, abs=0.05)
    assert sim.world.shape(belt) == AABB((-1e4, 0.0), (1e4, 10.0))


# ------------------------------------------------------------------------------- sleeping


def test_a_platform_that_starts_moving_wakes_the_ball_asleep_on_it() -> None:
    """A ball asleep on a platform wakes when the platform is driven (its box, covering
    where it starts, touches the ball), and rides it; a ball asleep on the floor far away
    stays asleep."""
    sim = Simulation(gravity=(0.0, G))
    world = sim.world
    plat = world.add(AABB((-50.0, 0.0), (50.0, 10.0)), moving=True)
    world.add(AABB((500.0, 0.0), (700.0, 10.0)))
    rider = sim.add(Body(Circle((0.0, -10.0), 10.0), friction=0.5, ccd="swept"))
    far = sim.add(Body(Circle((600.0, -10.0), 10.0), friction=0.5, ccd="swept"))
    sim.run(60)
    assert rider.sleeping and far.sleeping
    sim.move_collider(plat, velocity=(0.0, -60.0))
    sim.step()
    assert not rider.sleeping and far.sleeping
    sim.run(30)
    assert rider.position[1] == pytest.approx(world.shape(plat).min[1] - 10.0, abs=0.05)
    assert far.sleeping


def test_a_belt_switched_on_wakes_the_balls_asleep_on_it() -> None:
    """``set_velocity`` on a still collider (no move, the same scene) wakes the sleeping
    balls its box touches, and friction then drives them."""
    sim = Simulation(gravity=(0.0, G))
    belt = sim.world.add(AABB((-100.0, 0.0), (100.0, 10.0)))
    ball = sim.add(Body(Circle((0.0, -10.0), 10.0), friction=0.8, ccd="swept"))
    sim.run(60)
    assert ball.sleeping
    sim.world.set_velocity(belt, (50.0, 0.0))
    sim.step()
    assert not ball.sleeping
    sim.run(30)
    assert ball.velocity[0] == pytest.approx(50.0, abs=1e-9)


# ------------------------------------------------------------------------------- property


_TARGETS = {
    "box": AABB((-40.0, -10.0), (40.0, 10.0)),
    "circle": Circle((0.0, 0.0), 20.0),
    "wall": Segment((0.0, -40.0), (0.0, 40.0)),
}


@settings(max_examples=80)
@given(kind=st.sampled_from(sorted(_TARGETS)), angle=st.floats(0.0, 2.0 * math.pi),
       dist=st.floats(70.0, 300.0), speed=st.floats(600.0, 3000.0),
       aim=st.floats(-0.3, 0.3), bvx=st.floats(-600.0, 600.0), bvy=st.floats(-600.0, 600.0),
       e=st.sampled_from([0.0, 0.5, 1.0]), gravity=st.booleans())
def test_a_swept_ball_never_ends_inside_a_moving_collider(
        kind: str, angle: float, dist: float, speed: float, aim: float, bvx: float,
        bvy: float, e: float, gravity: bool) -> None:
    """A box, a circle or a thin wall driven at 600 to 3000 units/s (50 a step), aimed near a
    ball of radius 4 (within 0.3 rad of it, so most runs meet), the ball moving at up to 600
    units/s each way: after every step the swept ball is not inside the collider (beyond
    rounding), and its path relative to the collider never crossed it (missed 0)."""
    shape = _TARGETS[kind]
    sim = Simulation(gravity=(0.0, G if gravity else 0.0))
    target = sim.world.add(shape, moving=True)
    start = (dist * math.cos(angle), dist * math.sin(angle))
    ball = sim.add(Body(Circle(start, 4.0), (bvx, bvy), restitution=e, ccd="swept"))
    sim.move_collider(target, velocity=(speed * math.cos(angle + aim),
                                        speed * math.sin(angle + aim)))
    for _ in range(20):
        sim.step()
        now = sim.world.shape(target)
        hit = contact(Circle(ball.position, 4.0), now)
        assert hit is None or hit.depth <= 1e-9 * (1.0 + dist + speed)
        assert all(math.isfinite(c) for c in ball.position)
    assert sim.missed_total == 0


# ------------------------------------------------------------------------------- the World


def test_a_collider_velocity_is_kept_readable_pickled_and_copied() -> None:
    world = World()
    a = world.add(Circle((0.0, 0.0), 1.0))
    b = world.add(Segment((0.0, 5.0), (4.0, 5.0)), moving=True)
    assert tuple(world.velocity(a)) == (0.0, 0.0)
    world.set_velocity(a, (3.0, -4.0))
    world.move(b, Segment((1.0, 5.0), (5.0, 5.0)), velocity=[60.0, 0.0])
    assert tuple(world.velocity(a)) == (3.0, -4.0)
    assert tuple(world.velocity(b)) == (60.0, 0.0)
    for other in (pickle.loads(pickle.dumps(world)), copy.deepcopy(world), copy.copy(world)):
        assert tuple(other.velocity(a)) == (3.0, -4.0)
        assert tuple(other.velocity(b)) == (60.0, 0.0)
    world.set_velocity(a, (0.0, 0.0))
    assert tuple(world.velocity(a)) == (0.0, 0.0)
    w3 = World()
    s = w3.add(Sphere((0.0, 0.0, 0.0), 1.0))
    w3.move(s, Sphere((1.0, 0.0, 0.0), 1.0), velocity=(1.0, 2.0, 3.0))
    assert tuple(w3.velocity(s)) == (1.0, 2.0, 3.0)


def test_velocities_do_not_change_the_worlds_own_queries() -> None:
    world = World()
    h = world.add(AABB((0.0, 0.0), (10.0, 10.0)), moving=True)
    before = world.contacts(Circle((5.0, -1.0), 2.0))
    world.set_velocity(h, (1e6, 0.0))
    assert world.contacts(Circle((5.0, -1.0), 2.0)) == before


@pytest.mark.parametrize("bad, error", [
    ((math.nan, 0.0), ValueError), ((math.inf, 0.0), ValueError), ((1.0,), ValueError),
    ("fast", TypeError), ((1e300, 0.0), ValueError), (None, TypeError),
])
def test_bad_velocities_raise_naming_velocity(bad: object, error: type) -> None:
    world = World()
    h = world.add(Circle((0.0, 0.0), 1.0))
    with pytest.raises(error, match="velocity"):
        world.set_velocity(h, bad)
    if bad is not None:
        with pytest.raises(error, match="velocity"):
            world.move(h, Circle((1.0, 0.0), 1.0), velocity=bad)
    # nothing moved
    assert world.shape(h) == Circle((0.0, 0.0), 1.0)


def test_colliders_that_cannot_carry_a_velocity_say_so() -> None:
    world = World()
    sensor = world.add(Circle((0.0, 0.0), 1.0), sensor=True)
    chain = world.add(Chain([(0.0, 0.0), (5.0, 0.0), (5.0, 5.0)]))
    for h, what in ((sensor, "sensor"), (chain, "Chain")):
        with pytest.raises(ValueError, match=f"velocity: .*{what}"):
            world.set_velocity(h, (1.0, 0.0))
    with pytest.raises(ValueError, match="never added"):
        world.set_velocity(99, (1.0, 0.0))
    with pytest.raises(TypeError, match="handle"):
        world.velocity("a")  # type: ignore[arg-type]


def test_move_collider_checks_its_input() -> None:
    sim = Simulation(gravity=(0.0, 0.0))
    h = sim.world.add(Plane((0.0, -1.0), 0.0), moving=True)
    with pytest.raises(ValueError, match="velocity must be a 2D vector"):
        sim.move_collider(h, (1.0, 2.0, 3.0))
    with pytest.raises(ValueError, match="velocity"):
        sim.move_collider(h, (math.nan, 0.0))
    with pytest.raises(ValueError, match="handle 7"):
        sim.move_collider(7, (1.0, 0.0))
    still = sim.world.add(Segment((0.0, 5.0), (1.0, 5.0)))
    with pytest.raises(ValueError, match="moving=True"):
        sim.move_collider(still, (1.0, 0.0))
    foreign = Simulation(world=[Segment((0.0, 0.0), (1.0, 0.0))], gravity=(0.0, 0.0))
    with pytest.raises(TypeError, match="World"):
        foreign.move_collider(0, (1.0, 0.0))


def test_a_driven_plane_moves_and_stops() -> None:
    """A half-plane floor driven up (-y) lifts the ball on it; ``move_collider(h, None)``
    stops it where it is, with velocity zero."""
    sim = Simulation(gravity=(0.0, G))
    floor = sim.world.add(Plane((0.0, -1.0), 0.0), moving=True)
    ball = sim.add(Body(Circle((0.0, -10.0), 10.0), ccd="swept"))
    sim.move_collider(floor, (0.0, -60.0))
    sim.run(30)
    assert sim.world.shape(floor).offset == pytest.approx(30.0, abs=1e-9)
    assert ball.position[1] == pytest.approx(-40.0, abs=0.05)
    sim.move_collider(floor, None)
    assert tuple(sim.world.velocity(floor)) == (0.0, 0.0)
    sim.run(30)
    assert sim.world.shape(floor).offset == pytest.approx(30.0, abs=1e-9)
    assert ball.position[1] == pytest.approx(-40.0, abs=0.05)
