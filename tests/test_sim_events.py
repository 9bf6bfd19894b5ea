"""Contact events and sensors (issue 12, item 4): after each step the Simulation reports the
contacts and sensor overlaps that began and ended, at the exact steps the closed forms give."""

from __future__ import annotations

import math
from typing import Any

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from swept import AABB, Capsule, Circle, Plane, Segment, Sphere
from swept.constants import EVENT_TOUCH_FRACTION
from swept.events import KIND_BODY, KIND_COLLIDER, KIND_SENSOR, event_dtype
from swept.sim import Body, Simulation


def _run_log(sim: Simulation, steps: int) -> list[tuple[int, str, np.ndarray]]:
    """Every step's events, as (step, which, array) for the non-empty arrays."""
    log = []
    for k in range(1, steps + 1):
        sim.step()
        for which in ("contacts_began", "contacts_ended", "sensor_began", "sensor_ended"):
            events = getattr(sim, which)
            if events.shape[0]:
                log.append((k, which, events.copy()))
    return log


def _first_touch_step(gap: float, g: float, dt: float) -> int:
    """The first step k whose semi-implicit Euler fall, ``g dt^2 k (k + 1) / 2``, covers
    ``gap`` (a ball released at rest)."""
    k = math.ceil((-1.0 + math.sqrt(1.0 + 8.0 * gap / (g * dt * dt))) / 2.0)
    assert 0.5 * g * dt * dt * k * (k + 1) >= gap > 0.5 * g * dt * dt * (k - 1) * k
    return k


@pytest.mark.parametrize("ccd", ["discrete", "swept", "speculative"])
@pytest.mark.parametrize("scale", [1e-6, 1e-3, 1.0, 1e4, 1e7])
def test_a_dropped_ball_begins_one_contact_at_the_closed_form_step(ccd: str, scale: float
                                                                   ) -> None:
    """A ball released at rest 9 radii above a floor (y grows down) begins one contact, in the
    step whose fall first covers the gap; the normal points up out of the floor, the point is
    below the centre on the floor, and the approach speed is ``k g dt`` (the velocity the
    step started with)."""
    g, dt, r = 10.0 * scale, 0.1, 1.0 * scale
    sim = Simulation(gravity=(0.0, g), step=dt)
    floor = sim.world.add(Plane((0.0, -1.0), -10.0 * scale))
    sim.add(Body(Circle((3.0 * scale, 0.0), r), ccd=ccd))
    k = _first_touch_step(9.0 * scale, g, dt)
    assert k == 13
    log = _run_log(sim, 40)
    assert [(step, which) for step, which, _ in log] == [(k, "contacts_began")]
    event = log[0][2]
    assert event.dtype == event_dtype(2)
    assert event["body"].tolist() == [0] and event["other"].tolist() == [floor]
    assert event["kind"].tolist() == [KIND_COLLIDER]
    assert event["normal"][0] == pytest.approx([0.0, -1.0], abs=1e-12)
    assert event["point"][0] == pytest.approx([3.0 * scale, 10.0 * scale], rel=1e-12,
                                              abs=1e-12 * scale)
    assert event["approach"][0] == pytest.approx(k * g * dt, rel=1e-12)


def test_a_sphere_dropped_on_a_floor_begins_one_contact_in_3d() -> None:
    """The same fall in 3D, onto a half-space with +y up and gravity along -y."""
    sim = Simulation(gravity=(0.0, -10.0, 0.0), step=0.1)
    floor = sim.world.add(Plane((0.0, 1.0, 0.0), 0.0))
    sim.add(Body(Sphere((1.0, 10.0, -2.0), 1.0), ccd="swept"))
    log = _run_log(sim, 30)
    assert [(step, which) for step, which, _ in log] == [(13, "contacts_began")]
    event = log[0][2]
    assert event.dtype == event_dtype(3)
    assert event["other"].tolist() == [floor]
    assert event["normal"][0] == pytest.approx([0.0, 1.0, 0.0], abs=1e-12)
    assert event["point"][0] == pytest.approx([1.0, 0.0, -2.0], abs=1e-12)
    assert event["approach"][0] == pytest.approx(13.0, rel=1e-12)


@pytest.mark.parametrize("ccd, expected", [("swept", [4, 10, 16, 23]),
                                           ("discrete", [4, 11, 18, 25])])
def test_a_ball_bouncing_between_two_walls_begins_and_ends_alternately(ccd: str,
                                                                        expected: list[int]
                                                                        ) -> None:
    """No gravity, perfectly elastic, 3 units a step between two solid walls whose faces are
    21 apart: each wall is met in the middle of a step and left in the next, so a began event
    in that step and an ended one in the next, wall after wall. Swept: the ball bounces clear
    within the step, and its centre travels 9.5 units to the first wall then 19 between walls
    (hit m in step ``ceil((9.5 + 19 m) / 3)``). Discrete: it moves into the wall and is pushed
    out onto the face (the rest of the step lost), then 7 steps to the other wall."""
    sim = Simulation(step=0.1)
    right = sim.world.add(AABB((10.5, -5.0), (20.0, 5.0)))
    left = sim.world.add(AABB((-20.0, -5.0), (-10.5, 5.0)))
    sim.add(Body(Circle((0.0, 0.0), 1.0), (30.0, 0.0), restitution=1.0, ccd=ccd))
    log = _run_log(sim, 25)
    began = [(step, int(e["other"][0])) for step, which, e in log if which == "contacts_began"]
    ended = [(step, int(e["other"][0])) for step, which, e in log if which == "contacts_ended"]
    assert began == list(zip(expected, [right, left, right, left]))
    # each contact ends in the next step
    assert ended == [(step + 1, other) for step, other in began if step < 25]
    first = log[0][2]
    assert first["normal"][0] == pytest.approx([-1.0, 0.0], abs=1e-12)
    assert first["point"][0] == pytest.approx([10.5, 0.0], abs=1e-12)
    assert first["approach"][0] == pytest.approx(30.0, rel=1e-12)


def test_two_balls_colliding_head_on_begin_then_end_one_contact() -> None:
    """Two equal balls closing at 20 units/s (2 a step) from 9 apart overlap in step 5,
    are pushed to touching and bounce: one began event (the lower index, the other body, the
    normal from the other toward it, the point between them, approach 20), ended in step 6."""
    sim = Simulation(step=0.1)
    sim.add_balls(np.array([[-5.5, 2.0], [5.5, 2.0]]), 1.0, np.array([[10.0, 0.0],
                                                                      [-10.0, 0.0]]),
                  restitution=1.0)
    log = _run_log(sim, 12)
    assert [(step, which) for step, which, _ in log] == [(5, "contacts_began"),
                                                         (6, "contacts_ended")]
    began = log[0][2]
    assert began["body"].tolist() == [0] and began["other"].tolist() == [1]
    assert began["kind"].tolist() == [KIND_BODY]
    assert began["normal"][0] == pytest.approx([-1.0, 0.0], abs=1e-12)
    assert began["point"][0] == pytest.approx([0.0, 2.0], abs=1e-12)
    assert began["approach"][0] == pytest.approx(20.0, rel=1e-12)
    ended = log[1][2]
    assert ended["approach"].tolist() == [0.0]
    assert ended["point"][0] == pytest.approx([0.0, 2.0], abs=1e-12)
    # and they bounced: the velocities swapped
    assert sim.velocities.tolist() == [[-10.0, 0.0], [10.0, 0.0]]


def test_a_sensor_crossed_by_a_ball_begins_then_ends_at_the_exact_steps() -> None:
    """A ball (radius 1, 1 unit a step) crossing a sensor box x in [5.5, 8.5]: its front
    reaches 5.5 in step 5 (began), its back leaves 8.5 in step 10 (ended); it passes through
    untouched, and no contact event is reported."""
    sim = Simulation(step=0.1)
    sensor = sim.world.add(AABB((5.5, -3.0), (8.5, 3.0)), sensor=True)
    sim.add(Body(Circle((0.0, 0.0), 1.0), (10.0, 0.0)))
    log = _run_log(sim, 14)
    assert [(step, which) for step, which, _ in log] == [(5, "sensor_began"),
                                                         (10, "sensor_ended")]
    began = log[0][2]
    assert began["other"].tolist() == [sensor] and began["kind"].tolist() == [KIND_SENSOR]
    assert began["normal"][0] == pytest.approx([-1.0, 0.0], abs=1e-12)
    assert began["point"][0] == pytest.approx([5.5, 0.0], abs=1e-12)
    assert began["approach"][0] == pytest.approx(10.0, rel=1e-12)
    assert sim.velocities.tolist() == [[10.0, 0.0]]
    assert sim.positions[0] == pytest.approx([14.0, 0.0], abs=1e-12)


def test_a_thin_sensor_crossed_within_one_step_begins_and_ends_in_the_next() -> None:
    """A ball 10 units a step crosses a sensor segment at x = 5.5 from clear to clear in
    step 1: began in step 1 at the point where it first touched, ended in step 2."""
    sim = Simulation(step=0.1)
    sensor = sim.world.add(Segment((5.5, -3.0), (5.5, 3.0)), sensor=True)
    sim.add(Body(Circle((0.0, 0.0), 1.0), (100.0, 0.0), ccd="swept"))
    log = _run_log(sim, 4)
    assert [(step, which) for step, which, _ in log] == [(1, "sensor_began"),
                                                         (2, "sensor_ended")]
    began = log[0][2]
    assert began["other"].tolist() == [sensor]
    assert began["normal"][0] == pytest.approx([-1.0, 0.0], abs=1e-12)
    assert began["point"][0] == pytest.approx([5.5, 0.0], abs=1e-12)
    assert sim.positions[0] == pytest.approx([40.0, 0.0], abs=1e-12)


def test_bodies_on_layers_their_masks_exclude_report_no_events() -> None:
    """A ball whose mask leaves out the floor's layer falls through it, and two balls that
    mask each other out pass through each other: no contact events, no sensor events for a
    sensor on a masked layer."""
    sim = Simulation(gravity=(0.0, 10.0), step=0.1)
    sim.world.add(Segment((-100.0, 10.0), (100.0, 10.0)), layer=2)
    sim.world.add(AABB((-100.0, 20.0), (100.0, 30.0)), layer=4, sensor=True)
    sim.add(Body(Circle((0.0, 0.0), 1.0), layer=1, mask=1))
    sim.add(Body(Circle((-10.0, -50.0), 1.0), (10.0, 0.0), layer=8, mask=8 | 2))
    sim.add(Body(Circle((10.0, -50.0), 1.0), (-10.0, 0.0), layer=16, mask=16 | 2))
    log = _run_log(sim, 40)
    # the two balls on layers 8 and 16 meet the floor (layer 2), never each other; ball 0
    # meets nothing
    met = sorted({(int(b), int(o), int(k)) for _, _, e in log
                  for b, o, k in zip(e["body"], e["other"], e["kind"])})
    assert met == [(1, 0, KIND_COLLIDER), (2, 0, KIND_COLLIDER)]
    sim2 = Simulation(gravity=(0.0, 10.0), step=0.1)
    sim2.world.add(Segment((-100.0, 10.0), (100.0, 10.0)), layer=2)
    sim2.world.add(AABB((-100.0, 20.0), (100.0, 30.0)), layer=4, sensor=True)
    sim2.add(Body(Circle((0.0, 0.0), 1.0), layer=1, mask=1))
    sim2.add(Body(Circle((-10.0, -50.0), 1.0), (10.0, 0.0), layer=8, mask=8))
    sim2.add(Body(Circle((10.0, -50.0), 1.0), (-10.0, 0.0), layer=16, mask=16))
    assert _run_log(sim2, 40) == []
    # the ball fell through the floor and the sensor
    assert sim2.positions[0, 1] > 30.0


def test_a_resting_ball_keeps_its_contact_while_it_sleeps() -> None:
    """A ball settling on a floor begins its contact once, falls asleep and never ends it;
    removing it ends it at once (the ended array and the end callbacks), and the next step
    reports nothing."""
    sim = Simulation(gravity=(0.0, 980.0))
    floor = sim.world.add(Segment((-1e4, 0.0), (1e4, 0.0)))
    ball = sim.add(Body(Circle((0.0, -30.0), 10.0), ccd="swept"))
    ended: list[np.ndarray] = []
    sim.on_contact_end(ended.append)
    log = _run_log(sim, 200)
    assert ball.sleeping
    assert [which for _, which, _ in log] == ["contacts_began"]
    assert ended == []
    sim.remove(ball)
    assert sim.contacts_ended["other"].tolist() == [floor]
    assert sim.contacts_ended["body"].tolist() == [0]
    assert sim.contacts_ended["point"][0] == pytest.approx([0.0, 0.0], abs=1e-9)
    assert len(ended) == 1 and ended[0]["other"].tolist() == [floor]
    sim.step()
    assert sim.contacts_began.shape == (0,) and sim.contacts_ended.shape == (0,)


def test_a_settled_pile_falls_asleep_without_ending_its_contacts() -> None:
    """Three balls stacked in a column on a floor: every contact begins once, and none ends
    when the column falls asleep."""
    sim = Simulation(gravity=(0.0, 980.0))
    sim.world.add(Segment((-1e4, 0.0), (1e4, 0.0)))
    sim.add_balls(np.array([[0.0, -10.0], [0.0, -30.0], [0.0, -50.0]]), 10.0)
    log = _run_log(sim, 200)
    assert sim.sleeping.all()
    assert [which for _, which, _ in log] == ["contacts_began"]
    pairs = sorted(zip(log[0][2]["body"].tolist(), log[0][2]["other"].tolist(),
                       log[0][2]["kind"].tolist()))
    assert pairs == [(0, 0, KIND_COLLIDER), (0, 1, KIND_BODY), (1, 2, KIND_BODY)]


def test_removing_a_body_ends_its_contacts_and_renumbers_the_rest() -> None:
    """Removing the middle of three touching balls ends its two contacts (indices as before the
    removal); the last ball becomes index 1, and no event follows for it."""
    sim = Simulation(step=0.1)
    sim.add_balls(np.array([[0.0, 0.0], [2.0, 0.0], [4.0, 0.0], [10.0, 0.0]]), 1.0)
    sim.step()
    assert sorted(zip(sim.contacts_began["body"].tolist(),
                      sim.contacts_began["other"].tolist())) == [(0, 1), (1, 2)]
    sim.remove(1)
    assert sorted(zip(sim.contacts_ended["body"].tolist(),
                      sim.contacts_ended["other"].tolist())) == [(0, 1), (1, 2)]
    sim.step()
    assert sim.contacts_began.shape == (0,) and sim.contacts_ended.shape == (0,)
    sim.bodies[2].position = (3.0, 0.0)
    sim.step()
    # the ball that was index 3 now touches the one that was index 2: indices 1 and 2
    assert sorted(zip(sim.contacts_began["body"].tolist(),
                      sim.contacts_began["other"].tolist())) == [(1, 2)]


def test_removing_a_body_inside_a_sensor_ends_its_overlap() -> None:
    """A ball resting inside a sensor: removing it reports the sensor overlap ended (and the
    end callbacks run); the ball after it keeps its overlap, renumbered, with no event."""
    sim = Simulation(step=0.1)
    zone = sim.world.add(AABB((-10.0, -10.0), (10.0, 10.0)), sensor=True)
    sim.add_balls(np.array([[0.0, 0.0], [5.0, 0.0], [50.0, 0.0]]), 1.0)
    left: list[np.ndarray] = []
    sim.on_sensor_end(left.append)
    sim.step()
    assert sim.sensor_began["body"].tolist() == [0, 1]
    sim.remove(0)
    assert sim.sensor_ended["body"].tolist() == [0]
    assert sim.sensor_ended["other"].tolist() == [zone]
    assert len(left) == 1
    sim.step()
    assert sim.sensor_began.shape == (0,) and sim.sensor_ended.shape == (0,)
    sim.bodies[0].position = (30.0, 0.0)
    sim.step()
    assert sim.sensor_ended["body"].tolist() == [0]


def test_callbacks_are_called_once_a_step_with_every_event() -> None:
    """Ten balls dropped side by side on a floor land in the same step: one call with ten
    events, in body order; callbacks run in the order registered."""
    sim = Simulation(gravity=(0.0, 10.0), step=0.1)
    sim.world.add(Plane((0.0, -1.0), -10.0))
    sim.add_balls(np.column_stack([np.arange(10) * 3.0, np.zeros(10)]), 1.0)
    calls: list[tuple[str, np.ndarray]] = []
    sim.on_contact_begin(lambda e: calls.append(("a", e)))

    @sim.on_contact_begin
    def second(events: np.ndarray) -> None:
        calls.append(("b", events))

    sim.run(20)
    assert [name for name, _ in calls] == ["a", "b"]
    assert calls[0][1]["body"].tolist() == list(range(10))
    assert second.__name__ == "second"


@pytest.mark.parametrize("fn", [None, 3, "f", lambda: None, lambda a, b: None])
def test_a_callback_that_cannot_take_the_events_is_a_type_error(fn: Any) -> None:
    sim = Simulation()
    for register in (sim.on_contact_begin, sim.on_contact_end, sim.on_sensor_begin,
                     sim.on_sensor_end):
        with pytest.raises(TypeError, match="fn"):
            register(fn)


def test_events_off_reports_nothing() -> None:
    """``events=False``: the arrays stay empty (no cost spent finding them)."""
    sim = Simulation(gravity=(0.0, 10.0), step=0.1, events=False, sleep_time=None)
    sim.world.add(Plane((0.0, -1.0), -10.0))
    sim.add(Body(Circle((0.0, 0.0), 1.0)))
    assert _run_log(sim, 20) == []
    # turned on again: what touches then begins (nothing was remembered while off)
    sim.events = True
    sim.step()
    assert sim.contacts_began["other"].tolist() == [0]
    with pytest.raises(TypeError, match="events"):
        Simulation(events=1)  # type: ignore[arg-type]


@settings(max_examples=15, deadline=None)
@given(st.integers(0, 2**31), st.sampled_from(["discrete", "swept", "speculative"]))
def test_events_account_for_every_contact(seed: int, ccd: str) -> None:
    """Balls thrown about a closed box: a contact ends only after it began, never begins twice
    without ending, and what began and has not ended is exactly the current touch set; every
    event's normal is a unit vector and nothing is NaN."""
    rng = np.random.default_rng(seed)
    sim = Simulation(gravity=(0.0, 200.0), step=1 / 60)
    for a, b in (((0, 0), (100, 0)), ((100, 0), (100, 100)), ((100, 100), (0, 100)),
                 ((0, 100), (0, 0))):
        sim.world.add(Segment(a, b))
    sim.world.add(AABB((40.0, 40.0), (60.0, 60.0)), sensor=True)
    centers = np.column_stack([np.arange(8) * 11.0 + 10.0, rng.uniform(10.0, 90.0, 8)])
    sim.add_balls(centers, 4.0, rng.uniform(-300.0, 300.0, (8, 2)),
                  restitution=float(rng.uniform(0.0, 1.0)), ccd=ccd)
    live: set[tuple[int, int, int]] = set()
    for _ in range(120):
        sim.step()
        for began, ended in ((sim.contacts_began, sim.contacts_ended),
                             (sim.sensor_began, sim.sensor_ended)):
            for events in (began, ended):
                assert np.isfinite(events["normal"]).all()
                assert np.isfinite(events["point"]).all()
                assert np.linalg.norm(events["normal"], axis=1) == pytest.approx(
                    np.ones(len(events)), abs=1e-9)
                assert (events["approach"] >= 0.0).all()
            for e in ended:
                key = (int(e["body"]), int(e["other"]), int(e["kind"]))
                assert key in live
                live.remove(key)
            for e in began:
                key = (int(e["body"]), int(e["other"]), int(e["kind"]))
                assert key not in live
                live.add(key)
    current = sim._events.contacts
    bodies = np.repeat(np.arange(8), np.diff(current.first))
    keys = {(int(b), int(-1 - o) if o < 0 else int(o), KIND_COLLIDER if o < 0 else KIND_BODY)
            for b, o in zip(bodies, current.other[: current.first[-1]])}
    assert {k for k in live if k[2] != KIND_SENSOR} == keys


def _surface_samples() -> list[tuple[Any, list[tuple[tuple[float, float], tuple[float, float]]]]]:
    """Colliders of four kinds, each with points on its surface and the outward unit normal
    there: segment ends and sides, a circle all round, a box's sides and corners (normal
    along the diagonal), a capsule's caps, a diagonal segment's ends (its box's far corners)."""
    h = math.sqrt(0.5)
    return [
        (Segment((0.0, 0.0), (10.0, 0.0)),
         [((10.0, 0.0), (1.0, 0.0)), ((0.0, 0.0), (-1.0, 0.0)), ((3.0, 0.0), (0.0, 1.0)),
          ((7.0, 0.0), (0.0, -1.0))]),
        (Circle((30.0, 0.0), 5.0),
         [((30.0 + 5.0 * math.cos(a), 5.0 * math.sin(a)), (math.cos(a), math.sin(a)))
          for a in np.linspace(0.0, 2.0 * math.pi, 8, endpoint=False)]),
        (AABB((50.0, -5.0), (60.0, 5.0)),
         [((60.0, 0.0), (1.0, 0.0)), ((50.0, 0.0), (-1.0, 0.0)), ((55.0, 5.0), (0.0, 1.0)),
          ((55.0, -5.0), (0.0, -1.0)), ((60.0, 5.0), (h, h)), ((50.0, -5.0), (-h, -h))]),
        (Capsule((80.0, 0.0), (90.0, 0.0), 2.0),
         [((92.0, 0.0), (1.0, 0.0)), ((78.0, 0.0), (-1.0, 0.0)), ((85.0, 2.0), (0.0, 1.0))]),
        (Segment((100.0, 0.0), (110.0, 10.0)),
         [((110.0, 10.0), (h, h)), ((100.0, 0.0), (-h, -h)), ((105.0, 5.0), (-h, h))]),
    ]


@pytest.mark.parametrize("share", [0.25, 0.9, 1.1, 3.0])
def test_the_touch_set_is_every_collider_within_the_touch_reach(share: float) -> None:
    """A ball touches a collider (for the events) when its gap is at most
    EVENT_TOUCH_FRACTION of twice its radius. The narrowphase of a candidate is skipped when
    the ball is farther than that from the collider's box alone, which holds the collider:
    never one whose surface is within reach. Balls placed at a gap of ``share`` of the reach
    off segment ends and sides, a circle, a box's sides and corners, a capsule's caps and a
    diagonal segment's ends (its box's corners) touch exactly when share <= 1."""
    r = 1.0
    reach = 2.0 * EVENT_TOUCH_FRACTION * r
    sim = Simulation(step=1 / 60)
    expected = set()
    centres = []
    for collider, samples in _surface_samples():
        handle = sim.world.add(collider)
        for (qx, qy), (nx, ny) in samples:
            out = r + share * reach
            centres.append((qx + out * nx, qy + out * ny))
            if share <= 1.0:
                expected.add((len(centres) - 1, handle))
    sim.add_balls(np.array(centres), r)
    sim.step()
    # at rest, no gravity: nothing moved
    assert np.array_equal(sim.positions, np.array(centres))
    current = sim._events.contacts
    bodies = np.repeat(np.arange(len(centres)), np.diff(current.first))
    found = {(int(b), int(-1 - o)) for b, o in zip(bodies, current.other[: current.first[-1]])
             if o < 0}
    assert found == expected


def _balls_in_a_box(n: int, seed: int) -> Simulation:
    """``n`` balls thrown about a closed 400 x 400 box with a sensor in the middle."""
    rng = np.random.default_rng(seed)
    sim = Simulation(gravity=(0.0, 300.0), step=1 / 60)
    for a, b in (((0, 0), (400, 0)), ((400, 0), (400, 400)), ((400, 400), (0, 400)),
                 ((0, 400), (0, 0))):
        sim.world.add(Segment(a, b))
    sim.world.add(AABB((150.0, 150.0), (250.0, 250.0)), sensor=True)
    side = math.ceil(math.sqrt(n))
    k = np.arange(n)
    centers = np.column_stack([(k % side + 0.5) * 380 / side + 10, (k // side + 0.5) * 380
                               / side + 10])
    sim.add_balls(centers, 3.0, rng.uniform(-400.0, 400.0, (n, 2)), restitution=0.5,
                  ccd="swept")
    return sim


def test_the_thread_count_does_not_change_an_event(monkeypatch: pytest.MonkeyPatch) -> None:
    """The events come from the same bits on one thread and on several (the step runs on the
    threads from SIM_PARALLEL_MIN bodies, lowered here to 0): the same arrays, step by
    step."""
    import swept
    import swept.sim as sim_module

    monkeypatch.setattr(sim_module, "SIM_PARALLEL_MIN", 0)

    runs = []
    for threads in (1, max(swept.threads(), 3)):
        swept.set_threads(threads)
        try:
            sim = _balls_in_a_box(300, 7)
            steps = []
            for _ in range(40):
                sim.step()
                steps.append(b"".join(getattr(sim, w).tobytes() for w in (
                    "contacts_began", "contacts_ended", "sensor_began", "sensor_ended")))
        finally:
            swept.set_threads(None)
        runs.append(steps)
    assert runs[0] == runs[1]
    assert sum(len(s) for s in runs[0]) > 0


def test_a_body_added_between_steps_begins_its_contacts() -> None:
    """A ball added touching another between steps begins one contact in the next step; the
    other balls' contacts stand."""
    sim = Simulation(step=0.1)
    sim.add_balls(np.array([[0.0, 0.0], [2.0, 0.0]]), 1.0)
    sim.step()
    assert len(sim.contacts_began) == 1
    sim.add(Body(Circle((4.0, 0.0), 1.0)))
    sim.step()
    assert list(zip(sim.contacts_began["body"].tolist(),
                    sim.contacts_began["other"].tolist())) == [(1, 2)]
    assert sim.contacts_ended.shape == (0,)


def test_the_events_example_in_docs_simulation_md_runs() -> None:
    """The contact events section of docs/simulation.md runs, and its asserts hold."""
    from pathlib import Path

    text = (Path(__file__).resolve().parents[1] / "docs" / "simulation.md").read_text()
    section = text.split("## Contact events and sensors", 1)[1]
    section = section.split("\n#", 1)[0].split("Measured (`benchmarks/bench_sim.py`)", 1)[0]
    blocks = [b.split("```", 1)[0] for b in section.split("```python\n")[1:]]
    assert blocks
    for block in blocks:
        exec(compile(block, "docs/simulation.md", "exec"), {})
