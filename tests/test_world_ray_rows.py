"""The grid walk's own rows for boxes and circles, and World.raycast's shared normals.

The World's ray grid tests a box or a circle on the grid's compact row (its corners, or centre
and radius) by its kernel's distance alone, keeping the best, and finishes the point, normal and
``inside`` once, for the best, by the same kernel reaching exactly to it
(:func:`swept._kernels.grid.collider_rows`). These tests guard that the answers stay those of
:func:`swept.raycast` on the nearest collider bit for bit: grazing corners, starting inside or on
a face, degenerate boxes, radius 0, ties between identical colliders, masks, ``ignore``.

World.raycast hands a hit the same Vec2 for a normal that recurs (an axis normal, a segment's
side, :func:`swept._kernels.world.normal_key`): the tests guard that it is the very normal
:func:`swept.raycast` gives, and that a moved segment's hits get its new normal.
"""

from __future__ import annotations

import math
import struct

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from swept import AABB, Circle, Ray, Segment, Vec2, raycast
from swept._kernels.ray import ray_segment
from swept.vec import _unit_direction2
from swept.world import World

#: Colliders of the grid scene: enough for the World to take its grid.
SIDE = 12


def _bits(v: Vec2 | tuple[float, ...]) -> tuple[bytes, ...]:
    """A vector's floats as their bytes (so that 0.0 and -0.0 differ)."""
    return tuple(struct.pack("<d", float(c)) for c in v)


def _grid_world() -> tuple[World, list[AABB | Circle]]:
    """SIDE x SIDE cells of 10 x 10, each holding a box or a circle (alternating), with a
    degenerate box (no width), a point circle (radius 0) and two identical boxes among them."""
    world = World()
    shapes: list[AABB | Circle] = []
    for i in range(SIDE):
        for j in range(SIDE):
            x, y = 10.0 * i, 10.0 * j
            if (i + j) % 2 == 0:
                shapes.append(AABB((x + 2.0, y + 3.0), (x + 7.0, y + 6.0)))
            else:
                shapes.append(Circle((x + 5.0, y + 5.0), 2.5))
    shapes[5] = AABB((52.0, 1.0), (52.0, 8.0))
    shapes[7] = Circle((75.0, 5.0), 0.0)
    shapes.append(shapes[0])
    for shape in shapes:
        world.add(shape)
    world.raycast_many(np.zeros((1, 2)), np.ones((1, 2)))
    assert world._broadphase is not None and world._broadphase.use_grid
    return world, shapes


WORLD, SHAPES = _grid_world()


def _nearest(ray: Ray, shapes: list[AABB | Circle], skip: set[int] = frozenset()  # type: ignore[assignment]
             ) -> tuple[int, object]:
    """The nearest hit by the scalar API over every collider (ties: the smallest handle)."""
    best_h, best = -1, None
    for h, shape in enumerate(shapes):
        if h in skip:
            continue
        hit = raycast(ray, shape)
        if hit is not None and (best is None or hit.distance < best.distance):
            best_h, best = h, hit
    return best_h, best


def _agree(ray: Ray, skip: set[int] = frozenset()) -> None:  # type: ignore[assignment]
    """World.raycast and raycast_many give the nearest collider's swept.raycast, bit for bit."""
    h, hit = _nearest(ray, SHAPES, skip)
    one = WORLD.raycast(ray, ignore=skip)
    batch = WORLD.raycast_many(np.array([ray.origin]), np.array([ray.direction]),
                               ray.max_distance)
    if hit is None:
        assert one is None
        assert batch.handle[0] == -1
        return
    assert one is not None and one.handle == h
    assert one.distance == hit.distance and one.exit_distance == hit.exit_distance
    assert _bits(one.point) == _bits(hit.point) and _bits(one.normal) == _bits(hit.normal)
    assert one.started_inside == hit.started_inside
    if not skip:
        # (the batch normalises the direction once more: the last bit of it may differ)
        assert batch.handle[0] == h
        assert batch.distance[0] == pytest.approx(hit.distance, rel=1e-12, abs=1e-12)
        for k in range(2):
            assert batch.point[0, k] == pytest.approx(hit.point[k], rel=1e-12, abs=1e-12)
            assert batch.normal[0, k] == pytest.approx(hit.normal[k], abs=1e-12)


@pytest.mark.parametrize(("origin", "direction"), [
    ((-5.0, 4.5), (1.0, 0.0)),            # along a row: the first box's face
    ((-5.0, 3.0), (1.0, 0.0)),            # grazing the bottom faces of a row of boxes
    ((0.0, 1.0), (1.0, 1.0)),             # through the first box's corner (2, 3)
    ((4.0, 4.0), (1.0, 0.0)),             # from inside a box: out through the nearest face
    ((2.0, 4.0), (-1.0, 0.0)),            # on a box's face, heading out
    ((15.0, 5.0), (0.0, 1.0)),            # from a circle's centre
    ((12.5, -3.0), (0.0, 1.0)),           # tangent to a circle
    ((52.0, -4.0), (0.0, 1.0)),           # along a box with no width
    ((40.0, 1.0), (1.0, 0.0)),            # across the box with no width
    ((75.0, -3.0), (0.0, 1.0)),           # through a point circle (radius 0)
    ((-1.0, -1.0), (1.0, 1.0)),           # two identical boxes: the smaller handle
    ((60.0, 60.0), (-0.6, 0.8)),
])
def test_boxes_and_circles_on_grid_rows_equal_the_scalar_kernels(origin: tuple[float, float],
                                                                 direction: tuple[float, float]
                                                                 ) -> None:
    _agree(Ray(origin, direction))


def test_a_ray_ending_exactly_at_a_box_face_hits_it() -> None:
    """max_distance equal to the face's distance: the best's finish reaches exactly to it."""
    _agree(Ray((-5.0, 4.5), (1.0, 0.0), 7.0))
    _agree(Ray((-5.0, 4.5), (1.0, 0.0), 7.0 - 1e-9))


def test_ignored_and_masked_boxes_are_passed_through() -> None:
    _agree(Ray((-5.0, 4.5), (1.0, 0.0)), {0, len(SHAPES) - 1})
    world = World()
    world.add(AABB((10.0, -1.0), (11.0, 1.0)), layer=2)
    world.add(Circle((20.0, 0.0), 1.0), layer=4)
    for k in range(80):
        world.add(AABB((100.0 + k, 50.0), (100.5 + k, 51.0)))
    ray = Ray((0.0, 0.0), (1.0, 0.0))
    hit = world.raycast(ray, mask=4)
    assert hit is not None and hit.handle == 1 and hit.distance == 19.0
    batch = world.raycast_many(np.zeros((1, 2)), np.array([[1.0, 0.0]]), mask=4)
    assert batch.handle[0] == 1 and batch.distance[0] == 19.0
    assert world.raycast(ray, mask=8) is None


@settings(max_examples=150, deadline=None)
@given(x=st.floats(-10.0, 130.0), y=st.floats(-10.0, 130.0), angle=st.floats(0.0, 2 * math.pi),
       reach=st.sampled_from([math.inf, 5.0, 40.0]))
def test_any_ray_over_boxes_and_circles_equals_the_scalar_kernels(x: float, y: float,
                                                                   angle: float, reach: float
                                                                   ) -> None:
    _agree(Ray((x, y), (math.cos(angle), math.sin(angle)), reach))


@pytest.mark.parametrize("scale", [1e-6, 1.0, 1e7])
def test_grid_rows_at_every_scale(scale: float) -> None:
    """The same boxes and circles scaled: the same handles, distances scaled."""
    world = World()
    for k in range(70):
        world.add(AABB((scale * (3 * k), scale * 1.0), (scale * (3 * k + 1), scale * 2.0)))
        world.add(Circle((scale * (3 * k + 2), scale * 5.0), scale * 0.5))
    origins = np.array([[-scale, 1.5 * scale], [-scale, 5.0 * scale]])
    batch = world.raycast_many(origins, np.array([[1.0, 0.0], [1.0, 0.0]]))
    assert list(batch.handle) == [0, 1]
    assert batch.distance[0] == pytest.approx(scale, rel=1e-12)
    assert batch.distance[1] == pytest.approx(2.5 * scale, rel=1e-12)
    for r in range(2):
        one = world.raycast(Ray(origins[r], (1.0, 0.0)))
        assert one is not None and one.handle == batch.handle[r]
        assert one.distance == batch.distance[r]


# ------------------------------------------------------------------ shared normals


def _walls() -> World:
    """100 slanted walls: the World takes its grid."""
    world = World()
    for k in range(100):
        world.add(Segment((10.0 * k, 0.0), (10.0 * k + 3.0, 7.0)))
    return world


def test_hits_on_one_side_of_a_segment_share_its_normal() -> None:
    """The second hit on the same side reuses the first hit's Vec2, which is exactly
    swept.raycast's normal; the other side gets the opposite normal, its own object."""
    world = _walls()
    wall = world.shape(40)
    front = [Ray((395.0, y), (1.0, 0.0)) for y in (1.0, 2.0, 5.0)]
    back = Ray((410.0, 3.5), (-1.0, 0.0))
    hits = [world.raycast(r) for r in front]
    assert all(h is not None and h.handle == 40 for h in hits)
    assert hits[0].normal is hits[1].normal is hits[2].normal  # type: ignore[union-attr]
    assert _bits(hits[0].normal) == _bits(raycast(front[0], wall).normal)  # type: ignore[union-attr]
    other = world.raycast(back)
    assert other is not None and other.handle == 40
    assert _bits(other.normal) == _bits(raycast(back, wall).normal)  # type: ignore[union-attr]
    assert other.normal == -hits[0].normal  # type: ignore[union-attr]


def test_a_moved_segment_gets_its_new_normal() -> None:
    """The shared normals belong to the described scene: after a move, hits on the wall
    carry the new wall's normal, not the one kept from before."""
    world = _walls()
    ray = Ray((395.0, 1.0), (1.0, 0.0))
    before = world.raycast(ray)
    assert before is not None and before.handle == 40
    world.move(40, Segment((400.0, -5.0), (402.0, 9.0)))
    after = world.raycast(ray)
    assert after is not None and after.handle == 40
    assert _bits(after.normal) == _bits(raycast(ray, world.shape(40)).normal)  # type: ignore[union-attr]
    assert after.normal != before.normal


def test_box_faces_share_the_axis_normals() -> None:
    world = World()
    for k in range(100):
        world.add(AABB((10.0 * k, 0.0), (10.0 * k + 5.0, 5.0)))
    a = world.raycast(Ray((-3.0, 1.0), (1.0, 0.0)))
    b = world.raycast(Ray((-3.0, 4.0), (1.0, 0.2)))
    c = world.raycast(Ray((12.0, -3.0), (0.0, 1.0)))
    assert a is not None and b is not None and c is not None
    assert a.normal is b.normal and tuple(a.normal) == (-1.0, 0.0)
    assert tuple(c.normal) == (0.0, -1.0) and _bits(c.normal) == _bits(Vec2(0.0, -1.0))


def test_a_circle_hit_builds_its_own_normal() -> None:
    world = World()
    for k in range(100):
        world.add(Circle((10.0 * k, 0.0), 2.0))
    a = world.raycast(Ray((-5.0, 1.0), (1.0, 0.0)))
    b = world.raycast(Ray((-5.0, 1.5), (1.0, 0.0)))
    assert a is not None and b is not None
    assert a.normal != b.normal
    assert _bits(a.normal) == _bits(raycast(Ray((-5.0, 1.0), (1.0, 0.0)),
                                            Circle((0.0, 0.0), 2.0)).normal)  # type: ignore[union-attr]


# ------------------------------------------------------------------ the batch's entry point


def test_a_batch_calls_the_cast_kernels_entry_point_for_each_array_layout() -> None:
    """The batch calls its range kernel through the compiled entry point for its argument
    types (the dispatcher's own type resolution cost about 20 us a chunk), resolved once per
    layout key: read-only arrays (another numba type) get an entry of their own, and answer
    as writable ones do."""
    from swept import _fast
    from swept._kernels import world as kw

    world = _walls()
    rng = np.random.default_rng(3)
    origins = np.column_stack([rng.uniform(-50.0, 1050.0, 300), rng.uniform(-20.0, 30.0, 300)])
    directions = rng.normal(size=(300, 2))
    writable = world.raycast_many(origins, directions)
    frozen_o, frozen_d = origins.copy(), directions.copy()
    frozen_o.flags.writeable = False
    frozen_d.flags.writeable = False
    frozen = world.raycast_many(frozen_o, frozen_d)
    assert np.array_equal(writable.handle, frozen.handle)
    assert np.array_equal(writable.distance, frozen.distance)
    assert np.array_equal(writable.normal, frozen.normal)
    assert (writable.handle >= 0).sum() > 50
    entries = {key: fn for (kernel, key), fn in _fast._batch_entries.items()
               if kernel is kw.cast_range}
    assert (True, True, True, True) in entries and (False, False, True, True) in entries
    assert all(fn is not kw.cast_range for fn in entries.values())


def test_a_collinear_hits_negative_zero_normal_is_not_swapped_for_a_shared_one() -> None:
    """A ray along a segment meets it with the normal -d, here (-1, -0.0): equal to the shared
    axis normal (-1, 0) but not the same bits, so the hit must keep its own (the key is given
    only to a bit-identical normal)."""
    world = World()
    world.add(Segment((10.0, 0.0), (20.0, 0.0)))
    for k in range(80):
        world.add(Segment((100.0 + 5.0 * k, 50.0), (102.0 + 5.0 * k, 57.0)))
    ray = Ray((0.0, 0.0), (1.0, 0.0))
    expected = raycast(ray, world.shape(0))
    assert expected is not None and _bits(expected.normal) == _bits((-1.0, -0.0))
    for _ in range(2):
        hit = world.raycast(ray)
        assert hit is not None and hit.handle == 0 and hit.distance == 10.0
        assert _bits(hit.normal) == _bits(expected.normal)


@pytest.mark.parametrize("scale", [1e-6, 1.0, 1e7])
def test_segment_hits_finished_after_the_walk_equal_ray_segment_bit_for_bit(
        scale: float) -> None:
    """The grid walk keeps only the best segment's distance and grid row, and finishes its
    point and normal once a ray, after the walk, from the row's ``e = b - a``
    (``_segment_hit``, the operations of ``ray_segment``): the batch's normal, point and
    distance stay ``ray_segment``'s on the batch's own unit direction bit for bit, for
    segments at every angle and length (axis-aligned, tiny, long), hits from either side and
    at the ends, at every scale, and for a segment moved after the grid was built."""
    rng = np.random.default_rng(22)
    n = 300
    a = rng.uniform(0.0, 1000.0, (n, 2))
    b = a + rng.uniform(-40.0, 40.0, (n, 2))
    b[:20, 1] = a[:20, 1]  # horizontal
    b[20:40, 0] = a[20:40, 0]  # vertical
    b[40:60] = a[40:60] + rng.uniform(-1e-3, 1e-3, (20, 2))  # tiny
    a, b = a * scale, b * scale
    world = World()
    handles = world.add_segments(np.hstack([a, b]))
    m = 400
    targets = rng.integers(0, n, m)
    along = rng.choice([0.0, 1.0, 0.3, 0.5, 0.9], m)
    aim = a[targets] + along[:, None] * (b[targets] - a[targets])
    origins = aim + rng.uniform(-60.0, 60.0, (m, 2)) * scale
    directions = aim - origins
    directions /= np.hypot(directions[:, 0], directions[:, 1])[:, None]
    for moved in (False, True):
        if moved:
            # one segment moved after the grid was built: its row follows it
            world.move(int(handles[targets[0]]), Segment(a[targets[0]], a[targets[0]] + (
                (b[targets[0]] - a[targets[0]]) @ np.array([[0.0, 1.0], [-1.0, 0.0]]))))
        batch = world.raycast_many(origins, directions)
        assert (batch.handle >= 0).mean() > 0.9
        # the batch's own unit directions (the shared formula, as its kernel applies it)
        units = np.array([_unit_direction2(x, y)[:2] for x, y in directions.tolist()])
        for r in range(m):
            h = int(batch.handle[r])
            if h < 0:
                continue
            seg = world.shape(h)
            t, px, py, nx, ny, inside = ray_segment(
                origins[r, 0], origins[r, 1], units[r, 0], units[r, 1], seg.a[0], seg.a[1],
                seg.b[0], seg.b[1], math.inf)
            assert batch.distance[r] == t, r
            assert _bits(batch.normal[r]) == _bits((nx, ny)), (r, batch.normal[r], (nx, ny))
            assert _bits(batch.point[r]) == _bits((px, py)), r
