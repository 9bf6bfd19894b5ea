"""Rays that start inside colliders: the grid walk's stop on a hit at 0 keeps the tie rule.

The mechanism guarded: in the World's ray grid, once the best hit is at distance 0 (the origin
in or on a collider), the walk stops at the first later entry of the cell whose handle is
larger, relying on a cell's entries following the handles' ascending order; and a box whose
closed area holds the origin answers 0 without its slab test. Either would be wrong if a
collider with a smaller handle that also holds the origin came later in the cell, if a box
touched only at its edge or corner were taken as missed, or if a zero max distance stopped the
walk before any hit. Every answer here is checked, ray by ray, against the minimum over the
colliders of :func:`swept.raycast` (ties: the smallest handle), for ``raycast_many`` and for
the scalar ``World.raycast``.
"""

from __future__ import annotations

import math
from typing import Any

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from shared import nearest_hit
from swept import AABB, Capsule, Circle, Polygon, Ray, Segment
from swept.world import World


def _check(shapes: list[Any], world: World, origins: np.ndarray, directions: np.ndarray,
           max_distance: np.ndarray) -> int:
    """Batch and scalar rays equal the brute force; returns how many rays hit at 0."""
    batch = world.raycast_many(origins, directions, max_distance)
    at_zero = 0
    for r in range(origins.shape[0]):
        ray = Ray(origins[r], directions[r], float(max_distance[r]))
        h, hit = nearest_hit(shapes, ray)
        one = world.raycast(ray)
        if hit is None:
            assert one is None and batch.handle[r] == -1, r
            assert batch.distance[r] == math.inf
            continue
        at_zero += hit.distance == 0.0
        assert one is not None and one.handle == h, (r, h, one)
        assert batch.handle[r] == h, (r, h, batch.handle[r])
        scale = max(1.0, float(np.max(np.abs(origins[r]))))
        for got in (one.distance, batch.distance[r]):
            assert abs(got - hit.distance) <= 1e-9 * max(1.0, hit.distance), (r, got)
        for k in range(2):
            assert abs(batch.point[r, k] - hit.point[k]) <= 1e-9 * scale, r
            assert batch.normal[r, k] == pytest.approx(hit.normal[k], abs=1e-12)
        assert bool(batch.hit[r]) and one.started_inside == hit.started_inside
    return at_zero


def _overlapping(scale: float, seed: int, n: int = 160) -> list[Any]:
    """n overlapping colliders of every kind over a 10 x 10 square (times ``scale``): each
    point lies in several, so most rays start inside some."""
    rng = np.random.default_rng(seed)
    shapes: list[Any] = []
    for i in range(n):
        c = rng.uniform(0.0, 10.0, 2)
        half = rng.uniform(0.5, 2.0, 2)
        which = i % 5
        if which == 0 or which == 4:
            shapes.append(AABB((c - half) * scale, (c + half) * scale))
        elif which == 1:
            shapes.append(Circle(c * scale, half[0] * scale))
        elif which == 2:
            angle = np.sort(rng.uniform(0.0, 2.0 * math.pi, 5))
            pts = c + half[0] * np.stack([np.cos(angle), np.sin(angle)], axis=1)
            shapes.append(Polygon(pts * scale))
        else:
            d = rng.uniform(-1.0, 1.0, 2)
            shapes.append(Capsule((c - d) * scale, (c + d) * scale, 0.3 * scale))
    return shapes


def _world(shapes: list[Any], moving: set[int] | None = None) -> World:
    world = World()
    for i, shape in enumerate(shapes):
        assert world.add(shape, moving=i in (moving or set())) == i
    world._sync()
    assert world._broadphase.use_grid, world._broadphase  # white box: the grid walk is tested
    return world


def _box_points(shapes: list[Any], rng: np.random.Generator, k: int) -> np.ndarray:
    """Box corners and points on box edges (the closed boundary holds the origin)."""
    boxes = [s for s in shapes if isinstance(s, AABB)]
    out = []
    for j in range(k):
        b = boxes[int(rng.integers(0, len(boxes)))]
        lo, hi = np.asarray(b.min, float), np.asarray(b.max, float)
        if j % 2 == 0:
            out.append(np.where(rng.integers(0, 2, 2) == 1, lo, hi))
        else:
            p = lo + rng.uniform(0.0, 1.0, 2) * (hi - lo)
            p[j % 4 // 2] = lo[j % 4 // 2]
            out.append(p)
    return np.array(out)


@pytest.mark.parametrize("scale", [1e-6, 1.0, 1e6])
def test_rays_starting_inside_take_the_smallest_handle_at_zero(scale: float) -> None:
    """Origins inside several colliders, on box edges and corners, axis-parallel and random
    directions, max distances 0, short and infinite: the smallest handle that holds the
    origin, at 0, whichever entry of the cell the walk meets first."""
    shapes = _overlapping(scale, 3)
    world = _world(shapes)
    rng = np.random.default_rng(4)
    k = 120
    origins = np.concatenate([rng.uniform(0.0, 10.0, (k, 2)) * scale,
                              _box_points(shapes, rng, k)])
    angle = rng.uniform(0.0, 2.0 * math.pi, 2 * k)
    angle[::3] = rng.integers(0, 4, angle[::3].shape[0]) * (math.pi / 2.0)
    directions = np.stack([np.cos(angle), np.sin(angle)], axis=1)
    directions[::3] = np.round(directions[::3])  # exactly axis-parallel
    md = rng.choice([0.0, 0.5 * scale, math.inf], 2 * k)
    at_zero = _check(shapes, world, origins, directions, md)
    assert at_zero > k  # most rays start inside: the mechanism is exercised


def test_a_zero_max_distance_outside_every_collider_misses() -> None:
    """A ray of reach 0 from a point in no collider hits nothing (the stop waits for a hit),
    and from inside one hits it at 0."""
    shapes = _overlapping(1.0, 5)
    world = _world(shapes)
    origins = np.array([[-5.0, -5.0], [20.0, 3.0]])
    for s in shapes:
        if isinstance(s, AABB):
            origins = np.concatenate([origins, [np.asarray(s.min, float) + 0.25]])
            break
    directions = np.tile([1.0, 0.0], (origins.shape[0], 1))
    batch = world.raycast_many(origins, directions, 0.0)
    assert batch.handle[0] == -1 and batch.handle[1] == -1
    assert batch.distance[2] == 0.0 and batch.handle[2] >= 0
    _check(shapes, world, origins, directions, np.zeros(origins.shape[0]))


def test_moving_colliders_holding_the_origin_tie_with_static_ones_by_handle() -> None:
    """Moving circles (tested before a cell's static entries) holding the origin, with handles
    smaller and larger than the static boxes that also hold it: the smallest still wins."""
    shapes = _overlapping(1.0, 6)
    # moving: some early handles, some late
    moving = set(range(1, 160, 10)) | {155, 156}
    shapes[155] = Circle((5.0, 5.0), 6.0)
    shapes[156] = Circle((5.0, 5.0), 8.0)
    world = _world(shapes, moving)
    rng = np.random.default_rng(7)
    origins = rng.uniform(0.0, 10.0, (100, 2))
    angle = rng.uniform(0.0, 2.0 * math.pi, 100)
    directions = np.stack([np.cos(angle), np.sin(angle)], axis=1)
    assert _check(shapes, world, origins, directions, np.full(100, 30.0)) == 100


def test_segments_through_the_origin_and_boxes_holding_it_tie_by_handle() -> None:
    """Segments passing exactly through a ray's origin (a hit at 0 on the segment path) among
    boxes holding it, in both handle orders."""
    rng = np.random.default_rng(8)
    shapes: list[Any] = []
    origin = np.array([5.0, 5.0])
    for i in range(120):
        if i % 12 == 0:
            d = rng.uniform(-1.0, 1.0, 2)
            shapes.append(Segment(origin - d, origin + 2.0 * d))
        elif i % 2 == 1:
            c = rng.uniform(0.0, 10.0, 2)
            shapes.append(AABB(c - 1.5, c + 1.5))
        else:
            c = rng.uniform(0.0, 10.0, 2)
            shapes.append(Segment(c, c + rng.uniform(-2.0, 2.0, 2)))
    world = _world(shapes)
    angle = rng.uniform(0.0, 2.0 * math.pi, 40)
    directions = np.stack([np.cos(angle), np.sin(angle)], axis=1)
    origins = np.tile(origin, (40, 1))
    origins[20:] = rng.uniform(0.0, 10.0, (20, 2))
    _check(shapes, world, origins, directions, np.full(40, math.inf))


@settings(max_examples=60, deadline=None)
@given(seed=st.integers(0, 10_000), u=st.floats(0.0, 1.0), w=st.floats(0.0, 1.0),
       angle=st.floats(0.0, 2.0 * math.pi), reach=st.sampled_from([0.0, 1.0, math.inf]))
def test_any_ray_among_overlapping_colliders_equals_brute_force(
        seed: int, u: float, w: float, angle: float, reach: float) -> None:
    """Any ray, anywhere in (or near) a random pile of overlapping colliders."""
    shapes = _overlapping(1.0, seed % 4, n=100)
    if seed % 4 not in _WORLDS:
        _WORLDS[seed % 4] = _world(shapes)
    world = _WORLDS[seed % 4]
    origin = np.array([[u * 12.0 - 1.0, w * 12.0 - 1.0]])
    direction = np.array([[math.cos(angle), math.sin(angle)]])
    _check(shapes, world, origin, direction, np.array([reach]))


_WORLDS: dict[int, World] = {}
