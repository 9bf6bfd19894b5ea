"""The Simulation's collider cache rows start narrow and widen (swept.sim._CACHE_START_WIDTH):
every step is bit for bit what rows of the full width give."""

from __future__ import annotations

import hashlib
import math

import numpy as np
import pytest

import swept.sim as simmod
from swept import AABB, Circle, Segment
from swept._kernels import sim as kernels
from swept.sim import Body, Simulation

STEP = 1.0 / 60.0
EVENTS = ("contacts_began", "contacts_ended", "sensor_began", "sensor_ended")


def _fenced(width: int, monkeypatch: pytest.MonkeyPatch) -> Simulation:
    """Fast balls inside a 48-sided fence of short walls crossed by 40 chords, and balls
    bouncing in a box far from it, with cache rows ``width`` wide at the start."""
    monkeypatch.setattr(simmod, "_CACHE_START_WIDTH", width)
    sim = Simulation(step=STEP)
    sides = 48
    for k in range(sides):
        a = 30.0 * np.array([math.cos(2 * math.pi * k / sides), math.sin(2 * math.pi * k / sides)])
        b = 30.0 * np.array([math.cos(2 * math.pi * (k + 1) / sides),
                             math.sin(2 * math.pi * (k + 1) / sides)])
        sim.world.add(Segment(a, b))
    rng = np.random.default_rng(3)
    for _ in range(40):
        t = rng.uniform(0.0, 2 * math.pi, 2)
        sim.world.add(Segment(25.0 * np.array([math.cos(t[0]), math.sin(t[0])]),
                              25.0 * np.array([math.cos(t[1]), math.sin(t[1])])))
    corners = [(200.0, 0.0), (300.0, 0.0), (300.0, 100.0), (200.0, 100.0)]
    for k in range(4):
        sim.world.add(Segment(corners[k], corners[(k + 1) % 4]))
    sim.add(Body(Circle((3.0, -2.0), 2.0), (2400.0, 1700.0), restitution=1.0, ccd="swept"))
    centers = np.column_stack([rng.uniform(210.0, 290.0, 30), rng.uniform(10.0, 90.0, 30)])
    keep = [0]
    for k in range(1, 30):
        if all(np.hypot(*(centers[k] - centers[j])) > 5.0 for j in keep):
            keep.append(k)
    sim.add_balls(centers[keep], np.full(len(keep), 2.0),
                  rng.uniform(-600.0, 600.0, (len(keep), 2)), restitution=0.9, ccd="swept")
    return sim


def _state(sim: Simulation, events: bool) -> str:
    """A hash of the bodies' state (and the step's events when ``events``)."""
    h = hashlib.sha256()
    for a in (sim.positions, sim.velocities, sim.caught, sim.missed, sim.sleeping):
        h.update(np.ascontiguousarray(a).tobytes())
    if events:
        for name in EVENTS:
            h.update(np.ascontiguousarray(getattr(sim, name)).tobytes())
    return h.hexdigest()


@pytest.mark.parametrize("events", [False, True])
def test_narrow_rows_widen_and_every_step_is_the_same(events: bool,
                                                      monkeypatch: pytest.MonkeyPatch) -> None:
    """A body whose colliders overflow its cache row gathers them again (the same candidates),
    and the rows double after that step (fewer than _CACHE_OVERFLOW_SHARE bodies: one overflow
    is enough): a ball among a fence of 48 walls and 40 chords widens the rows from 4 to 8, 16
    and the full 32, and every step (events read each step, or never) hashes the same as a
    simulation whose rows were 32 wide from the start."""
    narrow = _fenced(4, monkeypatch)
    wide = _fenced(kernels.CACHE_CAPACITY, monkeypatch)
    widths = []
    for _ in range(60):
        narrow.run(1)
        wide.run(1)
        widths.append(narrow._scratch.cache.shape[1])
        assert _state(narrow, events) == _state(wide, events)
    assert widths[0] == 8 and widths[-1] == kernels.CACHE_CAPACITY
    assert widths == sorted(widths) and 16 in widths
    assert narrow.caught_total == wide.caught_total > 20 and narrow.missed_total == 0


def test_rows_stay_narrow_when_nothing_overflows() -> None:
    """A step in which every awake body's colliders fit its row leaves the rows as they are:
    balls bouncing in a box keep rows of _CACHE_START_WIDTH."""
    sim = Simulation(step=STEP)
    corners = [(0.0, 0.0), (100.0, 0.0), (100.0, 100.0), (0.0, 100.0)]
    for k in range(4):
        sim.world.add(Segment(corners[k], corners[(k + 1) % 4]))
    sim.add_balls(np.array([[20.0, 20.0], [50.0, 50.0], [80.0, 30.0]]), np.full(3, 3.0),
                  np.array([[900.0, 300.0], [-500.0, 800.0], [100.0, -1200.0]]),
                  restitution=1.0, ccd="swept")
    sim.run(40)
    assert sim._scratch.cache.shape[1] == simmod._CACHE_START_WIDTH == 4
    assert sim.caught_total > 0


def test_sleeping_bodies_without_a_cache_do_not_widen_the_rows() -> None:
    """A sleeping body keeps no cache once the colliders change (a count of -1, and no step
    gathers for it): that is no overflow. An awake body's -1 is one."""
    sim = Simulation(gravity=(0.0, -500.0), step=STEP, sleep_time=0.0)
    sim.world.add(AABB((-50.0, -10.0), (50.0, 0.0)))
    resting = sim.add(Body(Circle((0.0, 2.0), 2.0), (0.0, 0.0), ccd="swept"))
    falling = sim.add(Body(Circle((500.0, 900.0), 2.0), (0.0, 0.0), ccd="swept"))
    for _ in range(60):
        sim.run(1)
        if resting.sleeping:
            break
    assert resting.sleeping and not falling.sleeping
    sim._scratch.cache_count[resting.index] = -1
    sim._widen_cache()
    assert sim._scratch.cache.shape[1] == 4
    sim._scratch.cache_count[falling.index] = -1
    sim._widen_cache()
    assert sim._scratch.cache.shape[1] == 8
    assert (sim._scratch.cache_count == -1).all()


def test_a_few_overflowing_bodies_among_many_keep_the_rows_narrow(
        monkeypatch: pytest.MonkeyPatch) -> None:
    """A body past its row gathers its candidates again, which costs less than wider rows for
    every body while few overflow: the ball in the fence among 600 balls bouncing in a box
    (one overflow among more than _CACHE_OVERFLOW_SHARE awake bodies) keeps rows of 4, and
    every step hashes the same as with rows 32 wide from the start."""
    def crowded(width: int) -> Simulation:
        sim = _fenced(width, monkeypatch)
        rng = np.random.default_rng(5)
        ticks = np.arange(400.0, 800.0, 16.0)
        spots = np.array([(x, y) for x in ticks for y in ticks])[:600]
        corners = [(390.0, 390.0), (810.0, 390.0), (810.0, 810.0), (390.0, 810.0)]
        for k in range(4):
            sim.world.add(Segment(corners[k], corners[(k + 1) % 4]))
        sim.add_balls(spots, np.full(len(spots), 2.0), rng.uniform(-100.0, 100.0, (600, 2)),
                      restitution=1.0, ccd="swept")
        return sim

    narrow = crowded(4)
    wide = crowded(kernels.CACHE_CAPACITY)
    assert len(narrow.bodies) > simmod._CACHE_OVERFLOW_SHARE
    overflowed = 0
    for _ in range(20):
        narrow.run(1)
        wide.run(1)
        overflowed += int((narrow._scratch.cache_count < 0).sum())
        assert _state(narrow, False) == _state(wide, False)
    assert overflowed > 0
    assert narrow._scratch.cache.shape[1] == 4
