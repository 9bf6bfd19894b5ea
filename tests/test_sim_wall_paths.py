"""The Simulation's plain-wall paths (``segment_entering``, ``ball_gap``): the move's cast and
the gaps of the passes, the solver's contacts and the events answer a plain segment wall on the
collider rows, without the row dispatch's compiled call (which passes the whole scene, about
forty machine words, on the stack at each call); they must give the very bits the dispatch
gives, or a step would change. Held here at grazing and touching places, from inside, at
scales 1e-6 to 1e7, and against the walls the dispatch does not take this way (one-way
segments, other kinds), which go through the call as before.
"""

from __future__ import annotations

import math

import numba
import numpy as np
import pytest

from swept import Circle, Segment
from swept._kernels import sim as kernels
from swept.world import World


@numba.njit(cache=False)
def _gaps(scene, h, pts, r, beyond):  # type: ignore[no-untyped-def]
    """Each point's (gap, nx, ny, nz) by ``ball_gap`` and by ``gap_row``: (k, 2, 4)."""
    out = np.empty((pts.shape[0], 2, 4))
    for k in range(pts.shape[0]):
        a = kernels.ball_gap(scene, h, pts[k, 0], pts[k, 1], 0.0, r, beyond)
        b = kernels.gap_row(scene, h, pts[k, 0], pts[k, 1], 0.0, r, beyond)
        for c in range(4):
            out[k, 0, c] = a[c]
            out[k, 1, c] = b[c]
    return out


@numba.njit(cache=False)
def _casts(scene, h, pts, moves, r):  # type: ignore[no-untyped-def]
    """Each move's (t, nx, ny, nz) by ``segment_entering`` and by ``entering_row``:
    (k, 2, 4); a zero move is skipped (the move's loop never casts one)."""
    out = np.zeros((pts.shape[0], 2, 4))
    for k in range(pts.shape[0]):
        mx = moves[k, 0]
        my = moves[k, 1]
        length = math.sqrt(mx * mx + my * my)
        if length == 0.0:
            continue
        dx = mx / length
        dy = my / length
        a = kernels.segment_entering(scene.rows, h, pts[k, 0], pts[k, 1], dx, dy, length, r)
        b = kernels.entering_row(scene, h, pts[k, 0], pts[k, 1], 0.0, dx, dy, 0.0, length, r)
        for c in range(4):
            out[k, 0, c] = a[c]
            out[k, 1, c] = b[c]
    return out


def _places(a: np.ndarray, b: np.ndarray, r: float, rng: np.random.Generator, n: int
            ) -> np.ndarray:
    """Points near the segment a-b: at its ends, on it, at exactly r from it (the touch), a
    few ulps either side of that, and random ones within a few radii."""
    e = b - a
    length = float(np.hypot(*e))
    normal = np.array([-e[1], e[0]]) / length
    along = a + np.outer(rng.uniform(-0.2, 1.2, n), e)
    side = rng.choice([-1.0, 1.0], n)[:, None]
    exact = along + side * normal * r
    nudged = exact * (1.0 + rng.choice([-4, -1, 1, 4], n)[:, None] * np.finfo(float).eps)
    loose = along + rng.normal(0.0, 2.0 * r, (n, 2))
    return np.concatenate([a[None], b[None], along, exact, nudged, loose])


@pytest.mark.parametrize("scale", [1e-6, 1.0, 1e3, 1e7])
def test_plain_wall_answers_as_the_dispatch(scale: float) -> None:
    """The gaps (at the touch, no margin, and with the solver's and events' margins) and the
    casts (toward, along, away from and out of the wall) are the dispatch's, bit for bit."""
    rng = np.random.default_rng(11)
    world = World()
    walls = []
    for _ in range(6):
        a = rng.uniform(-50, 50, 2) * scale
        b = a + rng.uniform(-30, 30, 2) * scale
        walls.append((world.add(Segment(tuple(a), tuple(b))), a, b))
    scene = world._sync()
    for h, a, b in walls:
        for r in (0.0, 2.0 * scale, 7.5 * scale):
            pts = _places(a, b, r, rng, 60)
            for beyond in (0.0, 0.25 * r, 2.0 * r):
                got = _gaps(scene, h, pts, r, beyond)
                assert np.array_equal(got[:, 0], got[:, 1], equal_nan=True)
            half = len(pts) // 2
            # random moves, then moves at the wall's middle (short of it, to it, past it)
            toward = (a + 0.5 * (b - a) - pts[half:]) * rng.uniform(0.5, 2.0,
                                                                   (len(pts) - half, 1))
            moves = np.concatenate([rng.normal(0.0, 20.0 * scale, (half, 2)), toward])
            got = _casts(scene, h, pts, moves, r)
            assert np.array_equal(got[:, 0], got[:, 1], equal_nan=True)


def test_other_walls_take_the_call() -> None:
    """A one-way segment and a circle go through the dispatch: ``ball_gap`` answers as
    ``gap_row`` for them too (a one-way wall's gap depends on the side)."""
    world = World()
    one_way = world.add(Segment((0.0, 0.0), (10.0, 0.0)), one_way=(0.0, 1.0))
    circle = world.add(Circle((30.0, 0.0), 4.0))
    scene = world._sync()
    rng = np.random.default_rng(5)
    for h, centre in ((one_way, (5.0, 0.0)), (circle, (30.0, 0.0))):
        pts = np.asarray(centre) + rng.normal(0.0, 4.0, (80, 2))
        got = _gaps(scene, h, pts, 2.0, 0.5)
        assert np.array_equal(got[:, 0], got[:, 1], equal_nan=True)
    # and a one-way wall answers differently from each side, as the dispatch does
    below = _gaps(scene, one_way, np.array([[5.0, -1.0]]), 2.0, 0.0)
    above = _gaps(scene, one_way, np.array([[5.0, 1.0]]), 2.0, 0.0)
    assert below[0, 0, 0] == math.inf
    assert above[0, 0, 0] == -1.0
