"""The World's queries are scale-invariant from 1e-6 to 1e7: its broadphase margins (stored
boxes grown by BOX_MARGIN of their own scale, grid cells sized from the colliders, the grid's
GRID_MARGIN of a cell) are all relative, so the same scene scaled gives the same hits, scaled,
one ray at a time and in a batch, for rays, ball sweeps and contacts."""

from __future__ import annotations

import random

import numpy as np
import pytest

from swept import AABB, Circle, Polygon, Ray, Segment, World

SCALES = (1e-6, 1e-3, 1.0, 1e3, 1e7)


def _scene(s: float) -> World:
    rng = random.Random(5)
    w = World()
    for _ in range(120):
        a = (rng.uniform(0, 100) * s, rng.uniform(0, 100) * s)
        b = (rng.uniform(0, 100) * s, rng.uniform(0, 100) * s)
        w.add(Segment(a, b))
    for _ in range(40):
        w.add(Circle((rng.uniform(0, 100) * s, rng.uniform(0, 100) * s),
                     rng.uniform(0.5, 3.0) * s))
    for _ in range(20):
        x, y = rng.uniform(0, 100) * s, rng.uniform(0, 100) * s
        w.add(AABB((x, y), (x + rng.uniform(1, 5) * s, y + rng.uniform(1, 5) * s)))
        w.add(Polygon.regular(5, rng.uniform(1, 4) * s, (rng.uniform(0, 100) * s,
                                                          rng.uniform(0, 100) * s)))
    return w


def _rays(s: float) -> tuple[np.ndarray, np.ndarray]:
    rng = np.random.default_rng(7)
    origins = rng.uniform(0.0, 100.0, (300, 2)) * s
    directions = rng.uniform(-1.0, 1.0, (300, 2))
    return origins, directions


def _close(a: float, b: float) -> bool:
    return (np.isinf(a) and np.isinf(b)) or abs(a - b) <= 1e-9 * (1.0 + abs(b))


@pytest.mark.parametrize("s", SCALES)
def test_rays_one_at_a_time_and_in_a_batch_are_the_same_scaled(s: float) -> None:
    base, world = _scene(1.0), _scene(s)
    origins, directions = _rays(1.0)
    batch_base = base.raycast_many(origins, directions)
    batch = world.raycast_many(origins * s, directions)
    assert np.array_equal(batch.handle, batch_base.handle)
    assert all(_close(d / s, e) for d, e in zip(batch.distance, batch_base.distance))
    for o, d in zip(origins[:100], directions[:100]):
        h0 = base.raycast(Ray(o, d))
        h1 = world.raycast(Ray(o * s, d))
        assert (h0 is None) == (h1 is None)
        if h0 is not None and h1 is not None:
            assert h1.handle == h0.handle and _close(h1.distance / s, h0.distance)
            assert abs(h1.normal.dot(h0.normal) - 1.0) <= 1e-9


@pytest.mark.parametrize("s", SCALES)
def test_ball_sweeps_and_contacts_are_the_same_scaled(s: float) -> None:
    base, world = _scene(1.0), _scene(s)
    rng = random.Random(11)
    for _ in range(60):
        c = (rng.uniform(0, 100), rng.uniform(0, 100))
        r = rng.uniform(0.5, 2.0)
        d = (rng.uniform(-30, 30), rng.uniform(-30, 30))
        h0 = base.sweep(Circle(c, r), d)
        h1 = world.sweep(Circle((c[0] * s, c[1] * s), r * s), (d[0] * s, d[1] * s))
        assert (h0 is None) == (h1 is None)
        if h0 is not None and h1 is not None:
            assert h1.handle == h0.handle and _close(h1.fraction, h0.fraction)
        k0 = sorted((x.handle, x.depth) for x in base.contacts(Circle(c, r)))
        k1 = sorted((x.handle, x.depth / s) for x in world.contacts(Circle((c[0] * s,
                                                                             c[1] * s), r * s)))
        assert [h for h, _ in k0] == [h for h, _ in k1]
        assert all(_close(a, b) for (_h, a), (_g, b) in zip(k1, k0))
