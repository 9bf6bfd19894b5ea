"""Deferred contact touches (issue 11): a step keeps what its contact touches are found from
and finds them when first needed; every event read must be, bit for bit, the one a
simulation that found them in every step reports."""

from __future__ import annotations

from collections.abc import Callable

import numpy as np
import pytest

from swept import AABB, Circle, Segment
from swept.events import EVENT_ARRAYS, _Later
from swept.sim import Simulation
from swept.world import World

#: Steps of the scene below in each test.
STEPS = 60


def _scene() -> Simulation:
    """Balls falling into a box with a wall across it and a sensor: contacts begin and end
    in most steps (bounces, rests, ball pairs)."""
    sim = Simulation(gravity=(0.0, -900.0))
    w = sim.world
    w.add(Segment((0.0, 0.0), (300.0, 0.0)))
    w.add(Segment((0.0, 0.0), (0.0, 300.0)))
    w.add(Segment((300.0, 0.0), (300.0, 300.0)))
    w.add(Segment((60.0, 120.0), (200.0, 100.0)))
    w.add(AABB((100.0, 0.0), (200.0, 40.0)), sensor=True)
    rng = np.random.default_rng(3)
    centers = np.stack([rng.uniform(15.0, 285.0, 80), rng.uniform(15.0, 290.0, 80)], axis=1)
    sim.add_balls(centers, rng.uniform(4.0, 7.0, 80), rng.normal(0.0, 150.0, (80, 2)),
                  restitution=0.4, friction=0.3, ccd="swept")
    return sim


def _events(sim: Simulation) -> list[bytes]:
    """The four event arrays, as bytes."""
    return [getattr(sim, which).tobytes() for which in EVENT_ARRAYS]


def test_events_read_after_unread_steps_are_those_read_every_step() -> None:
    """Steps whose events nobody read keep their touches unfound (a step's table is found
    from its own copy of the positions and its hit log, and, once a later step has rewritten
    the bodies' collider caches, from the scene's trees), and a step after a read finds them
    at once: read at any later step, the events are those of a simulation that read every
    step."""
    every, sometimes = _scene(), _scene()
    read = {3, 4, 9, 10, 11, 25, 40, 59}
    deferred = found = 0
    for k in range(STEPS):
        every.step()
        sometimes.step()
        reference = _events(every)
        deferred += isinstance(sometimes._events._contacts, _Later) and (
            sometimes._events._contacts.found is None)
        if k in read:
            assert _events(sometimes) == reference, k
            found += sum(len(b) > 0 for b in reference)
        assert np.array_equal(sometimes.positions, every.positions)
    # the tables waited except after a read, and the reads compared real events
    assert deferred == STEPS - len({k + 1 for k in read} & set(range(STEPS)))
    assert found >= 8


def _move(w: World) -> None:
    w.move(3, Segment((60.0, 125.0), (200.0, 105.0)))


@pytest.mark.parametrize("change", [
    lambda w: w.add(Circle((150.0, 60.0), 12.0)),
    lambda w: w.remove(3),
    _move,
    lambda w: w.add_segments(np.array([[10.0, 200.0, 90.0, 210.0]])),
], ids=["add", "remove", "move", "add_segments"])
def test_a_world_changed_before_the_read_reports_the_step_as_it_was(
        change: Callable[[World], None]) -> None:
    """The World tells a simulation's events before its collider table changes
    (``World._changing``): the unfound touches are found from the table their step saw, so
    the events read after the change are the ones read before it."""
    before, after = _scene(), _scene()
    for k in range(STEPS // 2):
        before.step()
        after.step()
        reference = _events(before)
        if k == 13:
            assert isinstance(after._events._contacts, _Later)
            assert after._events._contacts.found is None
            change(before.world)
            change(after.world)
        if k >= 13:
            assert _events(after) == reference, k


def test_a_body_placed_before_the_read_reports_the_step_as_it_was() -> None:
    """A step's unfound touches read a copy of its positions: a body placed elsewhere
    before the read changes none of the step's events."""
    before, after = _scene(), _scene()
    for k in range(STEPS // 2):
        before.step()
        after.step()
        if k % 5 == 4:
            reference = _events(before)
            before.bodies[k].position = (150.0, 250.0)
            after.bodies[k].position = (150.0, 250.0)
            assert _events(after) == reference, k
