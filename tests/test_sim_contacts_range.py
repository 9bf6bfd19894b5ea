"""The velocity solver's contacts listed on threads (``solver.contacts_range`` then
``solver.merge_contacts``) against the one-thread listing (``solver.build_contacts``).

The threaded step lists each chunk of bodies into its own stretch of a staging table and
merges the stretches in body order; when a body's contacts run past its chunk's stretch, the
merge says so and the step lists them all on one thread. Every field of every contact must be
the one-thread listing's, bit for bit, whatever the chunks.
"""

from __future__ import annotations

from typing import Any

import numpy as np
import pytest

from shared import on_threads
from swept import Segment
from swept._kernels import solver
from swept.sim import Simulation

G = 980.0


def _pile(rows: int = 6) -> Simulation:
    """A 2D box of balls settling under gravity (contacts with each other, the floor and the
    walls, warm started), and one ball held in a square of four walls that touch it (four
    collider contacts: past its stretch when its chunk is itself alone)."""
    rng = np.random.default_rng(3)
    sim = Simulation(gravity=(0.0, G))
    sim.world.add(Segment((0.0, 0.0), (120.0, 0.0)))
    sim.world.add(Segment((0.0, -300.0), (0.0, 0.0)))
    sim.world.add(Segment((120.0, -300.0), (120.0, 0.0)))
    for a, b in (((200.0, -5.0), (210.0, -5.0)), ((210.0, -5.0), (210.0, 5.0)),
                 ((210.0, 5.0), (200.0, 5.0)), ((200.0, 5.0), (200.0, -5.0))):
        sim.world.add(Segment(a, b))
    k = np.arange(10 * rows)
    centers = np.stack([(k % 10 + 0.5) * 12.0, -(k // 10 + 0.5) * 12.0], 1)
    centers += rng.uniform(-0.3, 0.3, centers.shape)
    sim.add_balls(centers, rng.uniform(4.0, 5.5, 10 * rows), restitution=0.0, friction=0.4,
                  ccd="swept")
    sim.add_balls(np.array([[205.0, 0.0]]), np.array([5.0]), restitution=0.0, friction=0.4)
    with on_threads(1):
        sim.run(30)
    return sim


def _listing(sim: Simulation, chunk: int, capacity: int
             ) -> tuple[int, solver.Contacts, np.ndarray]:
    """The step's contacts listed by ``contacts_range`` over chunks of ``chunk`` bodies, then
    merged into contacts with room for ``capacity``; also the bodies' staging starts."""
    scene = sim._scene()
    assert sim._pairs is not None
    first, neighbour = sim._pairs
    n = sim._pos.shape[0]
    listing = solver.Listing(scene, sim._arrays, sim._scratch, first, neighbour, sim._contacts,
                             sim.restitution_threshold, sim._gather_grid)
    staged = solver.new_contacts(0, int(first[n]) + solver.STAGED_COLLIDER_CONTACTS * n)
    starts = np.zeros(n, np.int64)
    ends = np.zeros(n, np.int64)
    for lo in range(0, n, chunk):
        solver.contacts_range(lo, min(lo + chunk, n), listing, staged, starts, ends)
    out = solver.new_contacts(n, capacity)
    count = solver.merge_contacts(staged, starts, ends, out)
    return count, out, starts


def _serial(sim: Simulation, capacity: int) -> tuple[int, solver.Contacts]:
    assert sim._pairs is not None
    first, neighbour = sim._pairs
    out = solver.new_contacts(sim._pos.shape[0], capacity)
    listing = solver.Listing(sim._scene(), sim._arrays, sim._scratch, first, neighbour,
                             sim._contacts, sim.restitution_threshold, sim._gather_grid)
    count = solver.build_contacts(listing, out)
    return count, out


@pytest.mark.parametrize("chunk", [7, 11, 13, 64])
def test_the_threaded_listing_gives_the_one_thread_contacts_bit_for_bit(chunk: int) -> None:
    sim = _pile()
    count, expected = _serial(sim, 1000)
    got_count, got, starts = _listing(sim, chunk, 1000)
    assert 60 < count == got_count < 1000
    assert starts.min() >= 0
    for name, want, have in zip(expected._fields, expected, got):
        assert have.tobytes() == want.tobytes(), name


def test_a_body_past_its_stretch_sends_the_listing_to_one_thread() -> None:
    """The ball among four walls, alone in its chunk, has four collider contacts and room for
    two: the merge answers -1 (the step then lists every body with build_contacts)."""
    sim = _pile()
    count, expected = _serial(sim, 1000)
    assert expected.first[-1] - expected.first[-2] == 4
    got_count, _, starts = _listing(sim, 1, 1000)
    assert got_count == -1
    assert starts[-1] == -1 and starts[:-1].min() >= 0


def test_the_step_falls_back_to_one_thread_bit_for_bit(monkeypatch: pytest.MonkeyPatch) -> None:
    """A threaded step whose contacts ran past a stretch (chunks of one body) ends where a
    one-thread step does (201 bodies: past parallel_for's smallest batch)."""
    from swept import _parallel
    from swept import sim as sim_module
    from swept._kernels import sim as sim_kernels

    expected = _pile(20)
    with on_threads(1):
        expected.run(5)
    monkeypatch.setattr(sim_module, "SIM_PARALLEL_MIN", 0)
    monkeypatch.setattr(sim_kernels, "STEP_CHUNKS_PER_THREAD", 1000)
    monkeypatch.setattr(_parallel._Choice, "pick", lambda self, now: (True, False))
    build = solver.build_contacts
    calls = []

    def counted(*args: Any) -> int:
        calls.append(1)
        return build(*args)

    got = _pile(20)
    monkeypatch.setattr(vars(sim_module)["_solver"], "build_contacts", counted)
    with on_threads(2):
        got.run(5)
    # the ball among four walls ran past its stretch: that step's listing went to
    # build_contacts
    assert calls
    assert got.positions.tobytes() == expected.positions.tobytes()
    assert got.velocities.tobytes() == expected.velocities.tobytes()
