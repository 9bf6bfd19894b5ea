"""shapely interop: from_shapely, to_shapely and add_shapely, with exact coordinates."""

from __future__ import annotations

import math
import sys

import numpy as np
import pytest
from hypothesis import example, given
from hypothesis import strategies as st

import swept
from swept import (
    AABB,
    Capsule,
    Chain,
    Circle,
    Plane,
    Polygon,
    Ray,
    Segment,
    Sphere,
    World,
    add_shapely,
    from_shapely,
    raycast,
    to_shapely,
)
from swept.constants import (
    POLYGON_COLLINEAR_TOLERANCE,
    SHAPELY_MAX_QUAD_SEGMENTS,
    SHAPELY_QUAD_SEGMENTS,
)
from swept.vec import Vec2

shapely = pytest.importorskip("shapely")
from shapely import geometry as g  # noqa: E402


def same_polygon(a: object, b: Polygon) -> bool:
    """Whether ``a`` is a Polygon with ``b``'s corners exactly, in its order from any start
    (swept keeps the winding canonical, not the first corner)."""
    if not isinstance(a, Polygon) or len(a.points) != len(b.points):
        return False
    n = len(b.points)
    return any(a.points[k:] + a.points[:k] == b.points for k in range(n))


# --- from shapely: each geometry type


def test_a_point_with_a_radius_is_a_circle() -> None:
    assert from_shapely(g.Point(1.5, -2.25), radius=3) == Circle((1.5, -2.25), 3.0)
    assert from_shapely(g.Point(0, 0), radius=0) == Circle((0, 0), 0.0)


def test_a_point_without_a_radius_is_refused_naming_radius() -> None:
    with pytest.raises(ValueError, match="geometry: a Point becomes a Circle and needs radius="):
        from_shapely(g.Point(1, 2))
    with pytest.raises(ValueError, match="radius must be >= 0"):
        from_shapely(g.Point(1, 2), radius=-1)
    with pytest.raises(TypeError, match="radius"):
        from_shapely(g.Point(1, 2), radius="1")  # type: ignore[arg-type]
    with pytest.raises(ValueError, match="radius"):
        from_shapely(g.Point(1, 2), radius=math.nan)


def test_a_two_point_line_string_is_a_segment() -> None:
    assert from_shapely(g.LineString([(0.1, 0.2), (3.3, -4.4)])) == Segment((0.1, 0.2),
                                                                            (3.3, -4.4))


def test_a_longer_line_string_is_an_open_chain_with_its_points_exactly() -> None:
    pts = [(0.0, 0.0), (1e-3, 7.25), (3.0, 7.0), (-2.5, 1e4)]
    got = from_shapely(g.LineString(pts))
    assert got == Chain(pts) and not got.loop
    assert [tuple(p) for p in got.points] == pts


def test_repeated_consecutive_points_are_dropped() -> None:
    # shapely keeps them; swept's Segment and Chain refuse a zero-length piece
    assert from_shapely(g.LineString([(0, 0), (0, 0), (1, 0)])) == Segment((0, 0), (1, 0))
    assert from_shapely(g.LineString([(0, 0), (1, 0), (1, 0), (1, 1)])) == Chain(
        [(0, 0), (1, 0), (1, 1)])


def test_a_line_string_of_one_repeated_point_is_refused() -> None:
    with pytest.raises(ValueError, match="geometry: the LineString has zero length"):
        from_shapely(g.LineString([(2, 2), (2, 2)]))


def test_a_closed_line_string_and_a_linear_ring_are_closed_chains() -> None:
    ring = [(0.0, 0.0), (4.0, 0.0), (4.0, 3.0)]
    want = Chain(ring, loop=True)
    assert from_shapely(g.LineString([*ring, ring[0]])) == want
    assert from_shapely(g.LinearRing(ring)) == want
    assert from_shapely(g.LinearRing([*ring, ring[0]])) == want


def test_a_multi_line_string_is_a_tuple_of_segments_and_chains() -> None:
    got = from_shapely(g.MultiLineString([[(0, 0), (1, 0)], [(0, 1), (1, 1), (2, 3)]]))
    assert got == (Segment((0, 0), (1, 0)), Chain([(0, 1), (1, 1), (2, 3)]))


def test_a_convex_polygon_is_a_polygon_in_the_canonical_winding() -> None:
    # clockwise in a y-up frame; swept stores counter-clockwise
    cw = [(0.0, 0.0), (0.0, 2.0), (3.0, 2.5), (4.0, 0.5)]
    got = from_shapely(g.Polygon(cw))
    assert isinstance(got, Polygon)
    assert set(map(tuple, got.points)) == set(cw)
    assert same_polygon(got, Polygon(cw))
    assert got.area == pytest.approx(g.Polygon(cw).area, rel=1e-15)


def test_a_polygons_collinear_middle_corner_is_dropped() -> None:
    got = from_shapely(g.Polygon([(0, 0), (1, 0), (2, 0), (2, 2), (0, 2)]))
    assert same_polygon(got, Polygon([(0, 0), (2, 0), (2, 2), (0, 2)]))


def test_a_non_convex_polygon_is_the_closed_chain_of_its_ring() -> None:
    ring = [(0.0, 0.0), (4.0, 0.0), (4.0, 4.0), (2.0, 1.0), (0.0, 4.0)]
    got = from_shapely(g.Polygon(ring))
    assert got == Chain(ring, loop=True)
    # a surface, not a solid: a ray from inside meets the wall ahead, not its own start
    hit = raycast(Ray((1.0, 0.5), (0.0, -1.0)), got)
    assert hit is not None and not hit.started_inside
    assert hit.distance == pytest.approx(0.5, abs=1e-12)
    assert hit.point == Vec2(1.0, 0.0)


def test_a_sliver_swept_calls_flat_is_its_closed_outline() -> None:
    # valid to shapely (area 5e-14), but its middle corner lies within swept's collinear
    # tolerance of the line through the others: no convex Polygon, so the outline
    sliver = g.Polygon([(0, 0), (1, 0), (2, 1e-13)])
    assert sliver.is_valid and sliver.area > 0
    assert from_shapely(sliver) == Chain([(0, 0), (1, 0), (2, 1e-13)], loop=True)


def test_an_axis_aligned_box_stays_a_polygon_unless_prefer_box() -> None:
    box = shapely.box(-1.5, 2.0, 3.25, 7.0)
    poly = from_shapely(box)
    assert same_polygon(poly, Polygon([(-1.5, 2.0), (3.25, 2.0), (3.25, 7.0), (-1.5, 7.0)]))
    assert from_shapely(box, prefer_box=True) == AABB((-1.5, 2.0), (3.25, 7.0))
    # a turned rectangle has no AABB form
    diamond = g.Polygon([(0, -1), (1, 0), (0, 1), (-1, 0)])
    assert isinstance(from_shapely(diamond, prefer_box=True), Polygon)
    with pytest.raises(TypeError, match="prefer_box"):
        from_shapely(box, prefer_box=1)  # type: ignore[arg-type]


def test_a_polygon_with_holes_is_refused_naming_the_holes() -> None:
    holed = g.Polygon(shapely.box(0, 0, 3, 3).exterior.coords,
                      [shapely.box(1, 1, 2, 2).exterior.coords])
    with pytest.raises(ValueError, match=r"geometry: a Polygon with holes \(1\)"):
        from_shapely(holed)
    # what the message suggests: its boundary, one closed chain a ring
    outer, inner = from_shapely(holed.boundary)
    assert outer == Chain([(3, 0), (3, 3), (0, 3), (0, 0)], loop=True)
    assert inner == Chain([(2, 1), (2, 2), (1, 2), (1, 1)], loop=True)


def test_an_invalid_polygon_is_refused_with_shapelys_reason() -> None:
    bowtie = g.Polygon([(0, 0), (1, 1), (1, 0), (0, 1)])
    with pytest.raises(ValueError, match="not valid .*Self-intersection"):
        from_shapely(bowtie)


def test_collections_are_flat_tuples_in_order() -> None:
    gc = g.GeometryCollection([
        g.MultiPoint([(0, 0), (5, 5)]),
        g.GeometryCollection([g.LineString([(0, 0), (1, 0)]), g.Point(9, 9)]),
        g.MultiPolygon([shapely.box(0, 0, 1, 1)]),
    ])
    got = from_shapely(gc, radius=0.5)
    assert got[:4] == (Circle((0, 0), 0.5), Circle((5, 5), 0.5), Segment((0, 0), (1, 0)),
                       Circle((9, 9), 0.5))
    assert len(got) == 5 and same_polygon(got[4], Polygon([(0, 0), (1, 0), (1, 1), (0, 1)]))
    assert from_shapely(g.GeometryCollection()) == ()
    # empty parts hold nothing and are skipped
    assert from_shapely(g.GeometryCollection([g.Point(), g.LineString([(0, 0), (1, 1)])])) == (
        Segment((0, 0), (1, 1)),)


def test_errors_in_a_collection_name_the_part() -> None:
    with pytest.raises(ValueError, match=r"geometry\.geoms\[1\]: a Point becomes a Circle"):
        from_shapely(g.GeometryCollection([g.LineString([(0, 0), (1, 0)]), g.Point(0, 0)]))
    nested = g.GeometryCollection([g.Point(0, 0), g.GeometryCollection([
        g.LineString([(0, 0), (1, 0)]), g.LineString([(3, 3), (3, 3)])])])
    with pytest.raises(ValueError, match=r"geometry\.geoms\[1\]\.geoms\[1\]: the LineString "
                                         r"has zero length"):
        from_shapely(nested, radius=1)
    with pytest.raises(ValueError, match=r"geometry\.geoms\[0\]: center must be finite"):
        from_shapely(g.MultiPoint([(math.nan, 0), (1, 1)]), radius=1)


def test_a_radius_with_no_points_is_refused() -> None:
    with pytest.raises(ValueError, match="radius is only for Points"):
        from_shapely(g.LineString([(0, 0), (1, 0)]), radius=1)


def test_z_coordinates_empty_geometries_and_non_geometries_are_refused() -> None:
    with pytest.raises(ValueError, match="geometry has 3D"):
        from_shapely(g.Point(1, 2, 3), radius=1)
    with pytest.raises(ValueError, match="geometry has 3D"):
        from_shapely(g.GeometryCollection([g.LineString([(0, 0, 1), (1, 0, 1)])]))
    with pytest.raises(ValueError, match="geometry is empty"):
        from_shapely(g.Polygon())
    with pytest.raises(TypeError, match="geometry must be a shapely geometry, not tuple"):
        from_shapely((0, 0))  # type: ignore[arg-type]


def test_coordinates_beyond_the_range_are_refused_naming_the_part() -> None:
    with pytest.raises(ValueError, match="geometry: .*out of range"):
        from_shapely(g.LineString([(0, 0), (1e60, 0), (1, 1)]))
    with pytest.raises(ValueError, match="geometry: .*out of range"):
        from_shapely(g.Polygon([(0, 0), (1e60, 0), (1, 1)]))


# --- to shapely and back


def test_exact_shapes_go_to_shapely_with_their_coordinates() -> None:
    seg = Segment((0.5, 1.5), (-2.0, 3.0))
    assert list(to_shapely(seg).coords) == [(0.5, 1.5), (-2.0, 3.0)]
    chain = Chain([(0, 0), (1, 0), (1, 1)])
    line = to_shapely(chain)
    assert line.geom_type == "LineString" and list(line.coords) == [(0, 0), (1, 0), (1, 1)]
    ring = to_shapely(Chain([(0, 0), (1, 0), (1, 1)], loop=True))
    assert ring.geom_type == "LinearRing"
    assert list(ring.coords) == [(0, 0), (1, 0), (1, 1), (0, 0)]
    poly = Polygon([(0, 0), (3, 0), (3, 1), (0, 2)])
    assert list(to_shapely(poly).exterior.coords) == [*map(tuple, poly.points), (0, 0)]
    box = to_shapely(AABB((-1, -2), (3, 4)))
    assert box.geom_type == "Polygon" and box.bounds == (-1, -2, 3, 4) and box.area == 24.0


@pytest.mark.parametrize("shape", [
    Segment((0.1, 0.2), (0.3, 0.4)),
    Chain([(0, 0), (1e-6, 2e-6), (3e-6, 0)]),
    Chain([(1e7, 1e7), (2e7, 1e7), (2e7, 3e7), (1e7, 2e7)], loop=True),
    Polygon.regular(7, 2.5, (1.0, -3.0), 0.3),
    Polygon([(0, 0), (1e7, 0), (1e7, 1e7)]),
], ids=["segment", "chain-tiny", "ring-huge", "heptagon", "triangle-huge"])
def test_exact_shapes_round_trip_exactly(shape: Segment | Chain | Polygon) -> None:
    assert from_shapely(to_shapely(shape)) == shape


def test_a_box_round_trips_as_a_polygon_or_with_prefer_box_as_itself() -> None:
    box = AABB((-1e-6, 2e-6), (3e-6, 5e-6))
    assert from_shapely(to_shapely(box), prefer_box=True) == box
    assert same_polygon(from_shapely(to_shapely(box)), Polygon(
        [(-1e-6, 2e-6), (3e-6, 2e-6), (3e-6, 5e-6), (-1e-6, 5e-6)]))


coordinate = st.floats(-1e7, 1e7, allow_nan=False, allow_infinity=False)


@given(st.lists(st.tuples(coordinate, coordinate), min_size=2, max_size=12))
def test_a_line_string_round_trips_through_swept_exactly(points: list[tuple[float, float]]
                                                         ) -> None:
    line = g.LineString(points)
    distinct = [p for i, p in enumerate(points) if i == 0 or p != points[i - 1]]
    if len(distinct) < 2:
        with pytest.raises(ValueError, match="zero length"):
            from_shapely(line)
        return
    back = to_shapely(from_shapely(line))
    if len(distinct) >= 4 and distinct[-1] == distinct[0]:
        assert list(back.coords) == distinct  # a ring, closed again
    else:
        assert list(back.coords) == distinct


@given(st.lists(st.tuples(coordinate, coordinate), min_size=3, max_size=20))
# a corner 6e-8 off the line of two corners 5e6 apart, dropped as collinear
@example([(0.0, 5168812.0), (0.0, -60300.0), (5.960464477539063e-08, 0.0), (-1.0, 0.0)])
def test_a_convex_hull_becomes_a_polygon_of_its_own_corners(points: list[tuple[float, float]]
                                                            ) -> None:
    hull = g.MultiPoint(points).convex_hull
    if hull.geom_type != "Polygon":
        return
    got = from_shapely(hull)
    corners = set(hull.exterior.coords)
    if isinstance(got, Polygon):
        # swept's corners are the hull's own (some collinear ones dropped), exactly
        assert {tuple(p) for p in got.points} <= corners
        # both areas are sums of cross products of the coordinates: each rounds by about
        # eps * scale^2 a term, however small the area; and each corner swept drops as
        # collinear (its edges' sine at most POLYGON_COLLINEAR_TOLERANCE) takes a sliver of
        # up to half that sine times its edges' lengths (a corner 6e-8 off a line 5e6 long,
        # found by a random run: 0.156 of area)
        scale = max(max(abs(x), abs(y)) for x, y in points)
        slivers = len(points) * 0.5 * POLYGON_COLLINEAR_TOLERANCE * (2.0 * scale) ** 2
        assert abs(got.area - hull.area) <= 4 * len(points) * 2.3e-16 * scale**2 + slivers
        assert from_shapely(to_shapely(got)) == got
    else:
        # a sliver swept's collinear tolerance calls flat: its outline, every corner kept
        assert isinstance(got, Chain) and got.loop
        assert {tuple(p) for p in got.points} == corners


def test_a_circle_is_the_inscribed_polygon_of_its_resolution() -> None:
    c = Circle((10.0, -5.0), 2.5)
    for res in (1, 4, SHAPELY_QUAD_SEGMENTS, 64):
        poly = to_shapely(c, resolution=res)
        xy = np.asarray(poly.exterior.coords)
        assert len(xy) == 4 * res + 1
        # every corner on the circle
        assert np.allclose(np.hypot(xy[:, 0] - 10.0, xy[:, 1] + 5.0), 2.5, rtol=1e-14,
                           atol=0.0)
        # the inscribed regular polygon's area, (n / 2) r^2 sin(2 pi / n)
        n = 4 * res
        assert poly.area == pytest.approx(0.5 * n * 2.5**2 * math.sin(2 * math.pi / n),
                                          rel=1e-12)
    assert to_shapely(Circle((1, 2), 0)) == g.Point(1, 2)


def test_a_capsule_is_a_buffered_line() -> None:
    cap = Capsule((0, 0), (4, 0), 1.0)
    res = 8
    poly = to_shapely(cap, resolution=res)
    n = 4 * res
    want = 4 * 2.0 + 0.5 * n * math.sin(2 * math.pi / n)
    assert poly.area == pytest.approx(want, rel=1e-12)
    assert to_shapely(Capsule((0, 0), (4, 0), 0)) == g.LineString([(0, 0), (4, 0)])
    assert to_shapely(Capsule((1, 1), (1, 1), 0)) == g.Point(1, 1)
    assert to_shapely(Capsule((1, 1), (1, 1), 2), resolution=res).area == pytest.approx(
        0.5 * n * 4 * math.sin(2 * math.pi / n), rel=1e-12)


def test_a_sequence_of_shapes_is_a_geometry_collection() -> None:
    shapes = (Segment((0, 0), (1, 0)), Polygon([(0, 0), (1, 0), (0, 1)]))
    gc = to_shapely(shapes)
    assert gc.geom_type == "GeometryCollection" and len(gc.geoms) == 2
    assert from_shapely(gc) == shapes


def test_to_shapely_refuses_what_has_no_2d_shape() -> None:
    with pytest.raises(ValueError, match="shape: a 3D AABB"):
        to_shapely(AABB((0, 0, 0), (1, 1, 1)))
    with pytest.raises(ValueError, match="a 3D Capsule"):
        to_shapely(Capsule((0, 0, 0), (1, 1, 1), 1))
    with pytest.raises(TypeError, match="a Sphere has no shapely form"):
        to_shapely(Sphere((0, 0, 0), 1))  # type: ignore[arg-type]
    with pytest.raises(TypeError, match=r"a Plane has no shapely form \(it is unbounded\)"):
        to_shapely(Plane((0, 1), 0))
    with pytest.raises(TypeError, match=r"shape\[1\]: a Ray"):
        to_shapely([Segment((0, 0), (1, 0)), Ray((0, 0), (1, 0))])
    with pytest.raises(TypeError, match="shape must be a swept shape"):
        to_shapely("circle")  # type: ignore[arg-type]


def test_to_shapely_checks_resolution() -> None:
    c = Circle((0, 0), 1)
    with pytest.raises(TypeError, match="resolution must be an int"):
        to_shapely(c, resolution=2.0)  # type: ignore[arg-type]
    with pytest.raises(TypeError, match="resolution"):
        to_shapely(c, resolution=True)
    with pytest.raises(ValueError, match="resolution must be in 1"):
        to_shapely(c, resolution=0)
    with pytest.raises(ValueError, match="resolution must be in 1"):
        to_shapely(c, resolution=SHAPELY_MAX_QUAD_SEGMENTS + 1)
    assert len(to_shapely(c, resolution=SHAPELY_MAX_QUAD_SEGMENTS).exterior.coords) == (
        4 * SHAPELY_MAX_QUAD_SEGMENTS + 1)


# --- a World from a shapely collection


def test_a_world_is_filled_from_a_collection_in_order() -> None:
    level = g.GeometryCollection([
        g.LineString([(0, 10), (20, 10)]),
        g.Polygon([(5, 0), (7, 0), (7, 2), (5, 2)]),
        g.MultiPoint([(15, 5)]),
        g.Polygon([(0, 0), (4, 0), (4, 4), (2, 1), (0, 4)]),
    ])
    world = World()
    handles = add_shapely(world, level, radius=1.0, data="level", layer=2)
    assert handles == [0, 1, 2, 3]
    assert world.shape(2) == Circle((15, 5), 1.0)
    assert all(world.data(h) == "level" and world.layer(h) == 2 for h in handles)
    # rays down (y increasing) onto the line, the box's top and the ball
    down = world.raycast(Ray((10, 0), (0, 1)))
    assert down is not None and down.handle == 0 and down.distance == 10.0
    box = world.raycast(Ray((6, -5), (0, 1)))
    assert box is not None and box.handle == 1 and box.distance == 5.0
    ball = world.raycast(Ray((15, 0), (0, 1)))
    assert ball is not None and ball.handle == 2 and ball.distance == pytest.approx(4.0,
                                                                                   abs=1e-12)
    # up (y decreasing) into the non-convex polygon's notch: its slanted wall at (3, 2.5)
    notch = world.raycast(Ray((3, 5), (0, -1)))
    assert notch is not None and notch.handle == 3 and notch.distance == pytest.approx(
        2.5, abs=1e-12)


def test_add_shapely_leaves_the_world_unchanged_on_a_bad_part() -> None:
    world = World()
    world.add(Segment((0, 0), (1, 0)))
    bad = g.GeometryCollection([g.LineString([(0, 0), (1, 1)]), g.Point(3, 3)])
    with pytest.raises(ValueError, match=r"geometry\.geoms\[1\]"):
        add_shapely(world, bad)
    assert len(world) == 1
    with pytest.raises(TypeError, match="world must be a swept World"):
        add_shapely([], g.Point(0, 0), radius=1)
    world3 = World()
    world3.add(Sphere((0, 0, 0), 1))
    with pytest.raises(ValueError, match="world is 3D"):
        add_shapely(world3, g.LineString([(0, 0), (1, 1)]))


def test_a_missing_shapely_names_the_extra(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setitem(sys.modules, "shapely", None)
    with pytest.raises(ImportError, match=r"pip install swept\[shapely\]"):
        swept.from_shapely(object())
    with pytest.raises(ImportError, match=r"swept.to_shapely needs shapely"):
        swept.to_shapely(Circle((0, 0), 1))
