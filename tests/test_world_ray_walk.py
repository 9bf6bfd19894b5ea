"""The World's grid walk tests a collider listed in two consecutive cells of a ray's walk in
the first only (:func:`swept._kernels.world._skip_listed`: a box, a circle, a polygon, a
capsule; segments are tested again, their test costing less than the look-up).

The skip is sound because a collider's ray test depends only on the ray and the reach, and the
reach only shrinks along the walk: a collider tested again cannot beat the best. These tests
guard that the nearest hit, ties to the smallest handle included, stays the brute force's
(:func:`swept.raycast` on each collider), bit for bit for scalar queries: colliders spanning
many cells, identical twins under larger handles, rays along rows and columns of cells and
diagonals, and capsules (spanning cells, on the grid's generic rows) grazed at a few ulps from
their rim, entered through their core's ends, or left from inside or from the rim, at scales
1e-6 to 1e7.
"""

from __future__ import annotations

import math
import struct

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from swept import AABB, Capsule, Circle, Polygon, Ray, Segment, Vec2, raycast
from swept.world import World


def _bits(v: Vec2 | tuple[float, ...]) -> tuple[bytes, ...]:
    """A vector's floats as their bytes (so that 0.0 and -0.0 differ)."""
    return tuple(struct.pack("<d", float(c)) for c in v)


def _agree(world: World, shapes: list, ray: Ray) -> None:
    """World.raycast gives the nearest collider's swept.raycast (ties: the smallest handle),
    bit for bit, and raycast_many the same handle and distance."""
    best_h, best = -1, None
    for h, shape in enumerate(shapes):
        hit = raycast(ray, shape)
        if hit is not None and (best is None or hit.distance < best.distance):
            best_h, best = h, hit
    one = world.raycast(ray)
    batch = world.raycast_many(np.array([ray.origin]), np.array([ray.direction]),
                               ray.max_distance)
    if best is None:
        assert one is None
        assert batch.handle[0] == -1
        return
    assert one is not None and one.handle == best_h
    assert one.distance == best.distance and one.exit_distance == best.exit_distance
    assert _bits(one.point) == _bits(best.point) and _bits(one.normal) == _bits(best.normal)
    assert one.started_inside == best.started_inside
    assert batch.handle[0] == best_h


def _capsule_world(scale: float) -> tuple[World, list]:
    """A 12 x 12 lattice of slanted capsules (and a few other kinds, so the capsules sit on
    generic grid rows as in a mixed scene), scaled: the World takes its grid."""
    world = World()
    shapes: list = []
    for i in range(12):
        for j in range(12):
            x, y = 10.0 * i, 10.0 * j
            if (i + j) % 3 == 0:
                shape = Circle((scale * (x + 5.0), scale * (y + 5.0)), scale * 1.5)
            else:
                shape = Capsule((scale * (x + 2.0), scale * (y + 3.0)),
                                (scale * (x + 7.0), scale * (y + 6.0)), scale * 1.25)
            shapes.append(shape)
            world.add(shape)
    world.raycast_many(np.zeros((1, 2)), np.ones((1, 2)))
    assert world._broadphase is not None and world._broadphase.use_grid
    return world, shapes


WORLDS = {scale: _capsule_world(scale) for scale in (1e-6, 1.0, 1e7)}


def _tangent_rays(scale: float) -> list[Ray]:
    """Rays at the first capsule (core (2, 3) -> (7, 6), radius 1.25, scaled): through its
    core's ends, along the line at the radius from the core and a few ulps either side of it,
    from inside, from the rim, from the core's end."""
    ax, ay, bx, by, r = (scale * v for v in (2.0, 3.0, 7.0, 6.0, 1.25))
    ux, uy = (bx - ax) / math.hypot(bx - ax, by - ay), (by - ay) / math.hypot(bx - ax, by - ay)
    nx, ny = -uy, ux
    rays = [Ray((ax - 5.0 * scale, ay), (1.0, 0.0)),  # through the core's end a
            Ray((bx, by - 4.0 * scale), (0.0, 1.0)),  # through the core's end b
            Ray((ax, ay), (1.0, 0.0)),  # from the core's end
            Ray(((ax + bx) / 2, (ay + by) / 2), (-1.0, 1.0)),  # from inside
            Ray((ax + r * nx, ay + r * ny), (nx, ny)),  # from the rim, heading out
            Ray((ax + r * nx, ay + r * ny), (-nx, -ny))]  # from the rim, heading in
    for ulps in (-4, -1, 0, 1, 4):
        # along the core's line, offset by the radius (plus a few ulps): grazing both end
        # circles and the side
        off = r + ulps * math.ulp(r)
        ox = ax - 3.0 * scale * ux + off * nx
        oy = ay - 3.0 * scale * uy + off * ny
        rays.append(Ray((ox, oy), (ux, uy)))
        rays.append(Ray((ox - 2.0 * off * nx, oy - 2.0 * off * ny), (ux, uy)))
    return rays


@pytest.mark.parametrize("scale", [1e-6, 1.0, 1e7])
def test_capsules_grazed_and_entered_answer_as_the_scalar_kernel(scale: float) -> None:
    world, shapes = WORLDS[scale]
    for ray in _tangent_rays(scale):
        _agree(world, shapes, ray)


@settings(max_examples=150, deadline=None)
@given(x=st.floats(-10.0, 130.0), y=st.floats(-10.0, 130.0), angle=st.floats(0.0, 2 * math.pi),
       scale=st.sampled_from([1e-6, 1.0, 1e7]))
def test_any_ray_over_capsules_answers_as_the_scalar_kernel(x: float, y: float, angle: float,
                                                             scale: float) -> None:
    world, shapes = WORLDS[scale]
    _agree(world, shapes, Ray((scale * x, scale * y), (math.cos(angle), math.sin(angle))))


def _spanning_world() -> tuple[World, list]:
    """Every kind, each spanning several cells of the grid, with identical twins (ties: the
    smallest handle) and colliders that share cells along a ray's walk."""
    rng = np.random.default_rng(33)
    world = World()
    shapes: list = []
    for k in range(300):
        c = rng.uniform(0.0, 200.0, 2)
        s = float(rng.uniform(3.0, 25.0))
        a = float(rng.uniform(0.0, 2 * math.pi))
        d = np.array([math.cos(a), math.sin(a)]) * s
        which = k % 5
        if which == 0:
            shape = Circle(c, s / 2)
        elif which == 1:
            shape = AABB(c - s / 2, c + s / 2)
        elif which == 2:
            m = 3 + k % 6
            angles = np.arange(m) * 2 * math.pi / m + a
            shape = Polygon(c + (s / 2) * np.stack([np.cos(angles), np.sin(angles)], axis=1))
        elif which == 3:
            shape = Capsule(c - d / 2, c + d / 2, s / 8)
        else:
            shape = Segment(c - d / 2, c + d / 2)
        shapes.append(shape)
    # twins: the same shape again under a larger handle
    shapes += shapes[:25]
    for shape in shapes:
        world.add(shape)
    world.raycast_many(np.zeros((1, 2)), np.ones((1, 2)))
    assert world._broadphase is not None and world._broadphase.use_grid
    return world, shapes


SPANNING = _spanning_world()


def test_colliders_met_in_consecutive_cells_give_the_brute_force_hit() -> None:
    """2,000 random rays over colliders listed in many cells: each ray's handle, distance,
    point and normal are the brute force's (its collider's swept.raycast, ties to the smallest
    handle)."""
    world, shapes = SPANNING
    rng = np.random.default_rng(7)
    origins = rng.uniform(-10.0, 210.0, (2000, 2))
    angles = rng.uniform(0.0, 2 * math.pi, 2000)
    directions = np.stack([np.cos(angles), np.sin(angles)], axis=1)
    batch = world.raycast_many(origins, directions, 300.0)
    for i in range(2000):
        ray = Ray(tuple(origins[i]), tuple(directions[i]), 300.0)
        best_h, best = -1, None
        for h, shape in enumerate(shapes):
            hit = raycast(ray, shape)
            if hit is not None and (best is None or hit.distance < best.distance):
                best_h, best = h, hit
        assert batch.handle[i] == best_h
        if best is not None:
            assert batch.distance[i] == pytest.approx(best.distance, rel=1e-12, abs=1e-12)


@pytest.mark.parametrize("direction", [(1.0, 0.0), (0.0, 1.0), (1.0, 1.0), (-1.0, 0.5)])
def test_axis_and_diagonal_rays_over_spanning_colliders_agree_bit_for_bit(
        direction: tuple[float, float]) -> None:
    """Axis-parallel and diagonal rays (whose walks step cell by cell through the colliders
    listed in each, some of them along a row or column of cells), scalar queries: bit for bit
    the brute force's hit."""
    world, shapes = SPANNING
    for k in range(40):
        _agree(world, shapes, Ray((-5.0, 5.0 * k), direction, 400.0))
        _agree(world, shapes, Ray((5.0 * k, -5.0), direction, 400.0))
