"""Shapes: validation on construction, canonical polygon order, bounding boxes, immutability."""

from __future__ import annotations

import math
import pickle

import pytest

from swept import AABB, Capsule, Circle, Plane, Polygon, Ray, Segment, Sphere, Vec2, Vec3

NAN = math.nan
INF = math.inf


def test_shapes_are_frozen_and_hashable() -> None:
    c = Circle((1, 2), 3)
    with pytest.raises(AttributeError):
        c.radius = 4  # type: ignore[misc]
    assert c == Circle(Vec2(1, 2), 3.0)
    assert hash(c) == hash(Circle([1, 2], 3))
    assert c != Circle((1, 2), 4)
    assert len({Polygon.box(1, 2), Polygon.box(1, 2), Polygon.box(2, 1)}) == 2
    for shape in (c, Polygon.box(1, 2), AABB((0, 0, 0), (1, 1, 1)), Capsule((0, 0), (1, 0), 1),
                  Plane((0, 1), 2), Ray((0, 0), (1, 1), 5), Segment((0, 0), (1, 0)),
                  Sphere((0, 0, 0), 1)):
        assert pickle.loads(pickle.dumps(shape)) == shape


@pytest.mark.parametrize(
    ("build", "name"),
    [
        (lambda: Circle((NAN, 0), 1), "center"),
        (lambda: Circle((0, INF), 1), "center"),
        (lambda: Circle((0, 0), -1), "radius"),
        (lambda: Circle((0, 0), NAN), "radius"),
        (lambda: Sphere((0, 0, NAN), 1), "center"),
        (lambda: Sphere((0, 0, 0), -0.5), "radius"),
        (lambda: Segment((0, 0), (0, 0)), "segment"),
        (lambda: Segment((0, NAN), (1, 0)), "a"),
        (lambda: AABB((1, 0), (0, 1)), "min.x"),
        (lambda: AABB((0, 0, 2), (1, 1, 1)), "min.z"),
        (lambda: AABB((0, 0), (INF, 1)), "max"),
        (lambda: Capsule((0, 0), (1, 0), -2), "radius"),
        (lambda: Plane((0, 0), 1), "normal"),
        (lambda: Plane((0, 1), NAN), "offset"),
        (lambda: Ray((0, 0), (0, 0)), "direction"),
        (lambda: Ray((0, 0), (NAN, 1)), "direction"),
        (lambda: Ray((INF, 0), (1, 0)), "origin"),
        (lambda: Ray((0, 0), (1, 0), -1), "max_distance"),
        (lambda: Ray((0, 0), (1, 0), NAN), "max_distance"),
        (lambda: Polygon([(0, 0), (1, 0)]), "at least 3"),
        (lambda: Polygon([(0, 0), (1, 0), (2, 0)]), "zero area"),
        (lambda: Polygon([(0, 0), (1, 1), (0, 0), (1, 1)]), "zero area"),
        (lambda: Polygon([(0, 0), (2, 0), (1, 0.5), (2, 2), (0, 2)]), "not convex"),
        (lambda: Polygon([(0, 0), (NAN, 0), (1, 1)]), r"points\[1\]"),
        (lambda: Polygon.box(0, 1), "half_w"),
        (lambda: Polygon.box(1, -1), "half_h"),
    ],
)
def test_bad_input_raises_value_error_naming_the_argument(build, name: str) -> None:
    with pytest.raises(ValueError, match=name):
        build()


def test_self_crossing_star_is_not_convex() -> None:
    # a pentagram turns the same way at every corner but winds around twice
    star = [(math.cos(4 * math.pi * i / 5), math.sin(4 * math.pi * i / 5)) for i in range(5)]
    with pytest.raises(ValueError, match="not convex"):
        Polygon(star)


def test_wrong_types_raise_type_error() -> None:
    with pytest.raises(TypeError):
        Circle("ab", 1)
    with pytest.raises(TypeError):
        Circle((0, 0), "1")
    with pytest.raises(TypeError):
        Polygon(5)


def test_polygon_either_winding_gives_the_same_canonical_order() -> None:
    cw = Polygon([(0, 0), (0, 1), (1, 1), (1, 0)])
    ccw = Polygon([(0, 0), (1, 0), (1, 1), (0, 1)])
    assert set(cw.points) == set(ccw.points)
    # counter-clockwise in a y-up frame: positive area, outward normals
    assert cw.area == 1.0 and ccw.area == 1.0
    for p, n in zip(ccw.points, ccw.normals):
        # each outward normal points away from the centre
        assert n.dot(p - Vec2(0.5, 0.5)) > 0
    assert ccw.normals[ccw.points.index(Vec2(0, 0))] == Vec2(0, -1)


def test_polygon_drops_repeats_and_collinear_middles() -> None:
    p = Polygon([(0, 0), (1, 0), (2, 0), (2, 2), (2, 2), (0, 2), (0, 0)])
    assert len(p.points) == 4
    assert p.area == 4.0


def test_polygon_box_and_placed() -> None:
    box = Polygon.box(2, 1)
    assert set(box.points) == {Vec2(-2, -1), Vec2(2, -1), Vec2(2, 1), Vec2(-2, 1)}
    moved = box.placed((10, 5), math.pi / 2)
    expected = {(9, 3), (11, 3), (11, 7), (9, 7)}
    got = {(round(x, 12), round(y, 12)) for x, y in moved.points}
    assert got == expected
    assert moved.centroid.is_close((10, 5), 1e-12)
    assert Polygon.box(1, 1, center=(5, 5)).aabb == AABB((4, 4), (6, 6))


def test_bounding_boxes() -> None:
    assert Circle((1, 2), 3).aabb == AABB((-2, -1), (4, 5))
    assert Sphere((1, 2, 3), 1).aabb == AABB((0, 1, 2), (2, 3, 4))
    assert Segment((3, 0), (1, 5)).aabb == AABB((1, 0), (3, 5))
    assert Capsule((0, 0), (4, 0), 1).aabb == AABB((-1, -1), (5, 1))
    assert Capsule((0, 0, 0), (0, 4, 0), 1).aabb == AABB((-1, -1, -1), (1, 5, 1))
    assert Polygon([(0, 0), (3, 1), (1, 4)]).aabb == AABB((0, 0), (3, 4))
    assert Ray((0, 0), (3, 4), 10).aabb == AABB((0, 0), (6, 8))
    floor = Plane((0, 1), 2).aabb
    assert floor.max.y == 2 and floor.min.y == -INF and floor.min.x == -INF


def test_plane_is_normalised_and_keeps_its_points() -> None:
    p = Plane((0, 2), 4)
    assert p.normal == Vec2(0, 1) and p.offset == 2
    assert p.signed_distance((7, 5)) == 3
    q = Plane.through((0, 0, 3), (0, 0, -5))
    assert q.normal == Vec3(0, 0, -1) and q.offset == -3


def test_ray_direction_is_normalised() -> None:
    r = Ray((1, 1), (3, 4), 10)
    assert r.direction == Vec2(0.6, 0.8)
    assert r.at(5) == Vec2(4, 5)
    assert Ray.between((0, 0, 0), (0, 0, 2)).max_distance == 2.0
    assert Ray((0, 0), (1, 0)).max_distance == INF
