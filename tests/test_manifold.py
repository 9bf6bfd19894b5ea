"""manifold(): hand-computed manifolds for flat faces meeting, and properties against contact().

The worked cases check normal, points and depths to 1e-12 (exactly where the clipping keeps
input coordinates): boxes and polygons resting flat, tilted, face to face at an angle, touching,
apart, both orders and at scales 1e-6 and 1e7. The properties hold for random boxes, polygons,
segments and capsules in both orders: the deepest depth and the normal are contact()'s, every
point lies on the second shape's boundary and ``point - normal * depth`` on the first's.
"""

from __future__ import annotations

import contextlib
import dataclasses
import io
import math
import re
from pathlib import Path
from typing import Any

import pytest
from hypothesis import example, given, settings
from hypothesis import strategies as st

from swept import (
    AABB,
    Capsule,
    Circle,
    Manifold,
    ManifoldPoint,
    Plane,
    Polygon,
    Ray,
    Segment,
    Sphere,
    Vec2,
    contact,
    manifold,
)

TOL = 1e-12


def _pts(m: Manifold) -> list[tuple[float, float, float]]:
    """The manifold's points as (x, y, depth), sorted by x then y (to compare as a set)."""
    return sorted((p.point[0], p.point[1], p.depth) for p in m.points)


def _same(m: Manifold | None, normal: tuple[float, float],
          points: list[tuple[float, float, float]], tol: float = TOL) -> None:
    assert m is not None
    assert m.normal == pytest.approx(normal, abs=TOL)
    got = _pts(m)
    assert len(got) == len(points)
    for g, e in zip(got, sorted(points)):
        assert g == pytest.approx(e, abs=tol)


def _poly(box: AABB) -> Polygon:
    (x0, y0), (x1, y1) = box.min, box.max
    return Polygon([(x0, y0), (x1, y0), (x1, y1), (x0, y1)])


# ----------------------------------------------------------------------------- the records

def test_manifold_records_are_frozen_tuples_with_named_fields() -> None:
    m = manifold(AABB((1, 2), (4, 3.25)), AABB((0, 0), (3, 2.25)))
    assert isinstance(m, Manifold) and isinstance(m.points[0], ManifoldPoint)
    normal, points = m
    assert normal == Vec2(0.0, 1.0) and len(points) == 2
    point, depth = points[0]
    assert isinstance(point, Vec2) and depth == 0.25
    with pytest.raises(dataclasses.FrozenInstanceError):
        m.normal = Vec2(1.0, 0.0)
    assert [f.name for f in dataclasses.fields(Manifold)] == ["normal", "points"]
    assert [f.name for f in dataclasses.fields(ManifoldPoint)] == ["point", "depth"]


# ----------------------------------------------------------------------------- worked cases

RESTING_A = AABB((1, 2), (4, 3.25))
RESTING_B = AABB((0, 0), (3, 2.25))
# a rests 0.25 deep on b's top; they overlap along x from 1 to 3
RESTING = ((0.0, 1.0), [(1.0, 2.25, 0.25), (3.0, 2.25, 0.25)])


@pytest.mark.parametrize("a, b", [
    (RESTING_A, RESTING_B),
    (_poly(RESTING_A), _poly(RESTING_B)),
    (RESTING_A, _poly(RESTING_B)),
    (_poly(RESTING_A), RESTING_B),
], ids=["box-box", "polygon-polygon", "box-polygon", "polygon-box"])
def test_box_resting_flat_on_box_gives_the_overlap_ends_exactly(a: Any, b: Any) -> None:
    m = manifold(a, b)
    assert m is not None
    assert m.normal == Vec2(0.0, 1.0)
    assert _pts(m) == RESTING[1]


@pytest.mark.parametrize("a, b", [
    (RESTING_A, RESTING_B),
    (_poly(RESTING_A), _poly(RESTING_B)),
    (RESTING_A, _poly(RESTING_B)),
    (_poly(RESTING_A), RESTING_B),
], ids=["box-box", "polygon-polygon", "box-polygon", "polygon-box"])
def test_reversed_pair_flips_the_normal_and_moves_the_points_onto_the_other_box(
        a: Any, b: Any) -> None:
    m = manifold(b, a)
    assert m is not None
    assert m.normal == Vec2(0.0, -1.0)
    # on a's bottom face, 0.25 deep
    assert _pts(m) == [(1.0, 2.0, 0.25), (3.0, 2.0, 0.25)]


def test_diamond_corner_in_a_box_gives_one_point() -> None:
    diamond = Polygon([(0, -0.125), (0.5, 0.375), (0, 0.875), (-0.5, 0.375)])
    floor = AABB((-2, -1), (2, 0))
    m = manifold(diamond, floor)
    assert m is not None
    assert m.normal == Vec2(0.0, 1.0)
    assert m.points == (ManifoldPoint(Vec2(0.0, 0.0), 0.125),)


def test_box_turned_45_degrees_into_a_box_gives_one_point() -> None:
    turned = Polygon.box(0.5, 0.5, (0.25, 0.6), math.pi / 4)
    floor = AABB((-2, -1), (2, 0))
    m = manifold(turned, floor)
    assert m is not None and len(m.points) == 1
    assert m.normal == pytest.approx((0.0, 1.0), abs=TOL)
    assert m.points[0].point == pytest.approx((0.25, 0.0), abs=1e-12)
    assert m.points[0].depth == pytest.approx(math.sqrt(0.5) - 0.6, abs=1e-12)


def test_tilted_edge_on_a_box_gives_two_depths_deepest_first() -> None:
    # a's bottom edge runs from (1, -0.5) to (3, -0.25): both ends below b's top
    wedge = Polygon([(1, -0.5), (3, -0.25), (2, 2)])
    m = manifold(wedge, AABB((0, -3), (4, 0)))
    assert m is not None
    assert m.normal == Vec2(0.0, 1.0)
    assert m.points == (ManifoldPoint(Vec2(1.0, 0.0), 0.5), ManifoldPoint(Vec2(3.0, 0.0), 0.25))


def _uv(s: float, t: float) -> tuple[float, float]:
    """(s, t) in the frame u = (0.8, 0.6), n = (-0.6, 0.8): a 3-4-5 rotation."""
    return 0.8 * s - 0.6 * t, 0.6 * s + 0.8 * t


def test_polygons_face_to_face_at_an_angle() -> None:
    # b: the square [0, 4]^2 of the turned frame; a: [3.5, 5.5] x [1, 3] in it, so a's face
    # s = 3.5 lies 0.5 inside b's face s = 4, over t from 1 to 3
    b = Polygon([_uv(0, 0), _uv(4, 0), _uv(4, 4), _uv(0, 4)])
    a = Polygon([_uv(3.5, 1), _uv(5.5, 1), _uv(5.5, 3), _uv(3.5, 3)])
    m = manifold(a, b)
    _same(m, (0.8, 0.6), [(*_uv(4, 1), 0.5), (*_uv(4, 3), 0.5)])
    # reversed: on a's face, the normal into b
    _same(manifold(b, a), (-0.8, -0.6), [(*_uv(3.5, 1), 0.5), (*_uv(3.5, 3), 0.5)])


def test_polygons_face_to_face_overhanging_both_ends_of_the_face() -> None:
    # a wider than b: clipped by b's side planes, at b's own corners
    b = Polygon([_uv(0, 0), _uv(4, 0), _uv(4, 4), _uv(0, 4)])
    a = Polygon([_uv(3.75, -1), _uv(6, -1), _uv(6, 5), _uv(3.75, 5)])
    m = manifold(a, b)
    assert m is not None
    got = _pts(m)
    assert [p[:2] for p in got] == sorted([_uv(4, 0), _uv(4, 4)])
    assert [p[2] for p in got] == pytest.approx([0.25, 0.25], abs=TOL)


@pytest.mark.parametrize("a, b", [
    (AABB((1, 2), (4, 3)), AABB((0, 0), (3, 2))),
    (_poly(AABB((1, 2), (4, 3))), _poly(AABB((0, 0), (3, 2)))),
    (AABB((1, 2), (4, 3)), _poly(AABB((0, 0), (3, 2)))),
], ids=["box-box", "polygon-polygon", "box-polygon"])
def test_touching_faces_give_two_points_of_depth_zero(a: Any, b: Any) -> None:
    m = manifold(a, b)
    assert m is not None
    assert m.normal == Vec2(0.0, 1.0)
    assert _pts(m) == [(1.0, 2.0, 0.0), (3.0, 2.0, 0.0)]
    assert all(math.copysign(1.0, p.depth) == 1.0 for p in m.points)


def test_turned_faces_laid_flush_touch_at_both_ends() -> None:
    """Two turned faces laid flush differ by rounding: the end of the incident edge that lands
    1e-16 outside the reference face must still count as touching (MANIFOLD_TOUCH_TOLERANCE),
    not drop out and leave a one-point manifold."""
    b = Polygon([_uv(0, 0), _uv(4, 0), _uv(4, 4), _uv(0, 4)])
    a = Polygon([_uv(4, 1), _uv(6, 1), _uv(6, 2), _uv(4, 2)])
    m = manifold(a, b)
    _same(m, (0.8, 0.6), [(*_uv(4, 1), 0.0), (*_uv(4, 2), 0.0)])


def test_boxes_touching_at_a_corner_give_one_point() -> None:
    # both overlaps are 0: the x axis, the positive way (contact()'s tie rule)
    m = manifold(AABB((2, 2), (3, 3)), AABB((0, 0), (2, 2)))
    assert m == Manifold(Vec2(1.0, 0.0), (ManifoldPoint(Vec2(2.0, 2.0), 0.0),))


@pytest.mark.parametrize("a, b", [
    (AABB((1, 2.5), (4, 3)), AABB((0, 0), (3, 2))),
    (_poly(AABB((1, 2.5), (4, 3))), _poly(AABB((0, 0), (3, 2)))),
    (AABB((5, 0), (6, 1)), Polygon.regular(5, 1.0)),
    (Segment((-1, 3), (4, 3)), AABB((0, 0), (3, 2))),
    (Capsule((-1, 3), (4, 3), 0.5), Polygon.box(1.5, 1, (1.5, 1))),
], ids=["box-box", "polygon-polygon", "box-polygon", "segment-box", "capsule-polygon"])
def test_separated_shapes_give_none(a: Any, b: Any) -> None:
    assert manifold(a, b) is None
    assert manifold(b, a) is None


@pytest.mark.parametrize("scale", [1e-6, 1e7])
@pytest.mark.parametrize("make", [lambda b: b, _poly], ids=["box", "polygon"])
def test_tiny_and_huge_scales_give_the_same_manifold_scaled(scale: float, make: Any) -> None:
    def scaled(box: AABB) -> Any:
        (x0, y0), (x1, y1) = box.min, box.max
        return make(AABB((x0 * scale, y0 * scale), (x1 * scale, y1 * scale)))

    m = manifold(scaled(RESTING_A), scaled(RESTING_B))
    _same(m, RESTING[0], [(x * scale, y * scale, d * scale) for x, y, d in RESTING[1]],
          tol=TOL * scale)
    b = Polygon([_uv(0, 0), _uv(4, 0), _uv(4, 4), _uv(0, 4)])
    a = Polygon([_uv(3.5, 1), _uv(5.5, 1), _uv(5.5, 3), _uv(3.5, 3)])
    ms = manifold(Polygon([(x * scale, y * scale) for x, y in a.points]),
                  Polygon([(x * scale, y * scale) for x, y in b.points]))
    _same(ms, (0.8, 0.6), [(x * scale, y * scale, 0.5 * scale) for x, y in
                           (_uv(4, 1), _uv(4, 3))], tol=TOL * scale)


# ----------------------------------------------------------------------------- segments, capsules

def test_segment_lying_across_a_box_top_gives_the_box_corners() -> None:
    m = manifold(Segment((-1, 0.75), (3, 0.75)), AABB((0, 0), (2, 1)))
    assert m is not None
    assert m.normal == Vec2(0.0, 1.0)
    assert _pts(m) == [(0.0, 1.0, 0.25), (2.0, 1.0, 0.25)]
    # the box against the segment: the points on the segment, the normal down
    r = manifold(AABB((0, 0), (2, 1)), Segment((-1, 0.75), (3, 0.75)))
    assert r is not None and r.normal == Vec2(0.0, -1.0)
    assert _pts(r) == [(0.0, 0.75, 0.25), (2.0, 0.75, 0.25)]


def test_tilted_segment_in_a_box_top_gives_both_clipped_depths() -> None:
    m = manifold(Segment((0.5, 0.5), (1.5, 0.75)), AABB((0, 0), (2, 1)))
    assert m is not None
    assert m.normal == Vec2(0.0, 1.0)
    assert m.points == (ManifoldPoint(Vec2(0.5, 1.0), 0.5), ManifoldPoint(Vec2(1.5, 1.0), 0.25))


def test_segment_lying_exactly_on_a_box_top_touches_at_two_points() -> None:
    m = manifold(Segment((0, 1), (2, 1)), AABB((0, 0), (2, 1)))
    assert m == Manifold(Vec2(0.0, 1.0), (ManifoldPoint(Vec2(0.0, 1.0), 0.0),
                                          ManifoldPoint(Vec2(2.0, 1.0), 0.0)))


def test_segment_hanging_off_a_box_end_is_clipped_at_the_corner() -> None:
    m = manifold(Segment((1.5, 0.75), (3, 0.75)), AABB((0, 0), (2, 1)))
    assert m is not None
    assert m.normal == Vec2(0.0, 1.0)
    assert _pts(m) == [(1.5, 1.0, 0.25), (2.0, 1.0, 0.25)]


def test_box_corner_poking_into_a_segment_gives_one_point() -> None:
    # the segment's side is the reference: the box's corner (0, 1) reaches into it
    seg = Segment((-0.5, 0.5), (1, 1))
    m = manifold(seg, AABB((0, 0), (2, 1)))
    assert m is not None and len(m.points) == 1
    assert m.normal == pytest.approx((-1 / math.sqrt(10), 3 / math.sqrt(10)), abs=TOL)
    assert m.points[0].point == Vec2(0.0, 1.0)
    assert m.points[0].depth == pytest.approx(1 / math.sqrt(10), abs=TOL)


def test_capsule_with_a_point_core_is_a_circle_with_one_point() -> None:
    m = manifold(Capsule((1, 1.25), (1, 1.25), 0.5), AABB((0, 0), (2, 1)))
    assert m == Manifold(Vec2(0.0, 1.0), (ManifoldPoint(Vec2(1.0, 1.0), 0.25),))


def test_flat_capsule_on_a_polygon_face_gives_two_points() -> None:
    # core 0.25 above the top, radius 0.5: 0.25 deep along the whole top
    m = manifold(Capsule((-1, 1.25), (3, 1.25), 0.5), Polygon.box(1, 0.5, (1, 0.5)))
    _same(m, (0.0, 1.0), [(0.0, 1.0, 0.25), (2.0, 1.0, 0.25)])


def test_tilted_capsule_on_a_face_gives_contacts_one_point() -> None:
    cap = Capsule((0.5, 1.25), (1.5, 1.5), 0.5)
    box = AABB((0, 0), (2, 1))
    m = manifold(cap, box)
    c = contact(cap, box)
    assert m is not None and c is not None
    assert m == Manifold(c.normal, (ManifoldPoint(c.point, c.depth),))


# ----------------------------------------------------------------------------- other pairs

@pytest.mark.parametrize("a, b", [
    (Circle((0, 0), 1), Circle((1.5, 0), 1)),
    (Circle((1, 1.5), 1), AABB((0, 0), (2, 1))),
    (Polygon.box(1, 1, (0, 0.5)), Plane((0, 1), 0.0)),
    (AABB((0, 0, 0), (1, 1, 1)), AABB((0.5, 0.5, 0.5), (2, 2, 2))),
    (Sphere((0, 0, 0), 1), Plane((0, 0, 1), 0.5)),
    (Capsule((0, 0), (2, 0), 0.5), Capsule((1, 0.5), (1, 3), 0.25)),
])
def test_pairs_without_two_flat_faces_give_contacts_one_point(a: Any, b: Any) -> None:
    for x, y in ((a, b), (b, a)):
        c = contact(x, y)
        assert c is not None
        assert manifold(x, y) == Manifold(c.normal, (ManifoldPoint(c.point, c.depth),))


def test_apart_pairs_without_flat_faces_give_none() -> None:
    assert manifold(Circle((0, 0), 1), Circle((3, 0), 1)) is None
    assert manifold(AABB((0, 0, 0), (1, 1, 1)), AABB((2, 2, 2), (3, 3, 3))) is None


@pytest.mark.parametrize("a, b, names", [
    (Circle((0, 0), 1), Sphere((0, 0, 0), 1), ("Circle", "Sphere")),
    (AABB((0, 0), (1, 1)), AABB((0, 0, 0), (1, 1, 1)), ("AABB (2D)", "AABB (3D)")),
    (Polygon.box(1, 1), Ray((0, 0), (1, 0)), ("Polygon", "Ray")),
    (Plane((0, 1), 0.0), Plane((1, 0), 0.0), ("Plane (2D)", "Plane (2D)")),
])
def test_unsupported_pairs_raise_type_error_naming_both(a: Any, b: Any,
                                                         names: tuple[str, str]) -> None:
    with pytest.raises(TypeError, match=r"manifold\(\)") as info:
        manifold(a, b)
    for name in names:
        assert name in str(info.value)


# ----------------------------------------------------------------------------- properties

def _snap(v: float) -> float:
    return round(v, 6) + 0.0


coord = st.floats(-10, 10, allow_nan=False).map(_snap)
size = st.floats(0.1, 6, allow_nan=False).map(_snap)
angle = st.floats(-math.pi, math.pi, allow_nan=False).map(_snap)
p2 = st.tuples(coord, coord)


@st.composite
def flat(draw: Any) -> Any:
    """A box, a turned box or a regular polygon."""
    kind = draw(st.integers(0, 2))
    c = draw(p2)
    if kind == 0:
        hw, hh = draw(size), draw(size)
        return AABB((c[0] - hw, c[1] - hh), (c[0] + hw, c[1] + hh))
    if kind == 1:
        return Polygon.box(draw(size), draw(size), c, draw(angle))
    return Polygon.regular(draw(st.integers(3, 8)), draw(size), c, draw(angle))


@st.composite
def cores(draw: Any) -> Any:
    """A segment, a flat-lying segment or capsule, or a capsule of any tilt."""
    a = draw(p2)
    b = draw(p2)
    if draw(st.booleans()):
        # lying flat (along x)
        b = (b[0], a[1])
    if a == b:
        b = (a[0] + 1.0, a[1])
    kind = draw(st.integers(0, 1))
    if kind == 0:
        return Segment(a, b)
    return Capsule(a, b, draw(st.floats(0, 3).map(_snap)))


def _seg_dist(p: Any, a: Any, b: Any) -> float:
    ax, ay = a
    dx, dy = b[0] - ax, b[1] - ay
    ll = dx * dx + dy * dy
    t = 0.0 if ll == 0.0 else min(max(((p[0] - ax) * dx + (p[1] - ay) * dy) / ll, 0.0), 1.0)
    return math.hypot(p[0] - ax - t * dx, p[1] - ay - t * dy)


def _boundary_dist(p: Any, s: Any) -> float:
    """How far p is from shape s's boundary (a segment is all boundary)."""
    if isinstance(s, Segment):
        return _seg_dist(p, s.a, s.b)
    if isinstance(s, Capsule):
        return abs(_seg_dist(p, s.a, s.b) - s.radius)
    if isinstance(s, AABB):
        (x0, y0), (x1, y1) = s.min, s.max
        v = [(x0, y0), (x1, y0), (x1, y1), (x0, y1)]
    else:
        v = list(s.points)
    return min(_seg_dist(p, v[i], v[(i + 1) % len(v)]) for i in range(len(v)))


def _extent(*shapes: Any) -> float:
    m = 1.0
    for s in shapes:
        if isinstance(s, AABB):
            pts = [s.min, s.max]
        elif isinstance(s, Polygon):
            pts = list(s.points)
        else:
            pts = [s.a, s.b]
        m = max(m, max(abs(v) for p in pts for v in p))
    return m


def _check(a: Any, b: Any) -> None:
    c = contact(a, b)
    m = manifold(a, b)
    if c is None:
        assert m is None
        return
    assert m is not None
    tol = 1e-9 * _extent(a, b)
    assert 1 <= len(m.points) <= 2
    assert m.normal == c.normal
    values = [*m.normal] + [v for p in m.points for v in (*p.point, p.depth)]
    assert all(math.isfinite(v) for v in values)
    assert max(p.depth for p in m.points) == pytest.approx(c.depth, rel=1e-9, abs=tol)
    assert m.points[0].depth == max(p.depth for p in m.points)
    nx, ny = m.normal
    for p in m.points:
        assert p.depth >= 0.0
        assert _boundary_dist(p.point, b) <= tol
        q = (p.point[0] - nx * p.depth, p.point[1] - ny * p.depth)
        assert _boundary_dist(q, a) <= tol
    # the other order: the normal reversed (but for contact()'s centred boxes, which go the
    # positive way in both orders), the same depths
    r = manifold(b, a)
    assert r is not None
    rc = contact(b, a)
    assert rc is not None and r.normal == rc.normal
    if rc.normal == c.normal:
        # an exact tie between opposite axes, taken the positive way in both orders: the two
        # orders leave by opposite sides, whose manifolds may differ (a 2 x 6 box through a
        # diamond of radius 3 leaves right touching (0, 3) a depth 1 past its face, and the
        # diamond leaves right touching the box's corner a depth 2 past it; found by
        # hypothesis seed 1212)
        return
    assert r.normal == Vec2(-nx + 0.0, -ny + 0.0)
    assert sorted(p.depth for p in r.points) == pytest.approx(
        sorted(p.depth for p in m.points), rel=1e-9, abs=tol)


@settings(max_examples=400, deadline=None)
@given(flat(), flat())
def test_flat_pairs_agree_with_contact_and_lie_on_both_boundaries(a: Any, b: Any) -> None:
    _check(a, b)
    _check(b, a)


_NEARLY_UPRIGHT = Polygon([(4.0, 3.0), (-1.9999999999999991, 6.464101615137755),
                           (-2.0000000000000018, -0.4641016151377535)])


@settings(max_examples=300, deadline=None)
@given(cores(), flat())
# a segment inside a triangle whose left face is upright to rounding (found by hypothesis)
@example(Segment((0.0, 0.0), (0.0, 4.0)), _NEARLY_UPRIGHT)
def test_segments_and_capsules_on_faces_agree_with_contact(a: Any, b: Any) -> None:
    _check(a, b)
    _check(b, a)


@pytest.mark.parametrize("a", [Segment((0.0, 0.0), (0.0, 4.0)), Segment((0.0, 4.0), (0.0, 0.0)),
                               Capsule((0.0, 0.0), (0.0, 4.0), 0.5)])
def test_a_core_along_a_face_upright_to_rounding_gives_both_ends(a: Any) -> None:
    # The triangle's left face is upright to rounding (x from -1.9999999999999991 to
    # -2.0000000000000018), so the separating axis test picks the core's own axis (-1, 0)
    # over the face's by an ulp. The manifold took that as a corner poking into the core's
    # side and gave the triangle's corner at y = -0.46, below the core's end, as its one
    # point. The core's side is now a reference face like any other: the triangle's face,
    # clipped to the core's ends, gives two points.
    c = contact(a, _NEARLY_UPRIGHT)
    m = manifold(a, _NEARLY_UPRIGHT)
    assert c is not None and m is not None and tuple(m.normal) == (-1.0, 0.0)
    assert len(m.points) == 2
    r = a.radius if isinstance(a, Capsule) else 0.0
    assert m.points[0].depth == c.depth == 2.0000000000000018 + r
    assert sorted(p.point[1] for p in m.points) == [0.0, 4.0]
    for p in m.points:
        assert p.point[0] == pytest.approx(-2.0, abs=4e-15)
        assert p.depth == pytest.approx(2.0 + r, abs=4e-15)


@settings(max_examples=200, deadline=None)
@given(flat(), p2)
def test_a_shape_moved_onto_another_touches_with_depth_zero(a: Any, offset: Any) -> None:
    """Moving a shape by its contact normal times depth leaves a touching manifold (depths
    ~0), never a None."""
    b = AABB((offset[0] - 3, offset[1] - 3), (offset[0] + 3, offset[1] + 3))
    c = contact(a, b)
    if c is None:
        return
    dx, dy = c.normal[0] * c.depth, c.normal[1] * c.depth
    if isinstance(a, AABB):
        moved: Any = AABB((a.min[0] + dx, a.min[1] + dy), (a.max[0] + dx, a.max[1] + dy))
    else:
        moved = Polygon([(x + dx, y + dy) for x, y in a.points])
    m = manifold(moved, b)
    if m is not None:
        assert max(p.depth for p in m.points) <= 1e-9 * _extent(a, b)


# ----------------------------------------------------------------------------- the docs

def test_docs_manifold_example_prints_its_comments() -> None:
    """The manifold example in docs/contact.md runs and prints what its comments say."""
    text = (Path(__file__).resolve().parent.parent / "docs" / "contact.md").read_text()
    section = text.split("## Manifolds", 1)[1]
    block = re.findall(r"```python\n(.*?)```", section, re.S)[0]
    out = io.StringIO()
    with contextlib.redirect_stdout(out):
        exec(compile(block, "docs/contact.md", "exec"), {})
    assert out.getvalue().splitlines() == [
        "Vec2(0.0, 1.0)",
        "Vec2(1.0, 2.0) 0.25",
        "Vec2(3.0, 2.0) 0.25",
        "[((1.0, 2.0), 0.5), ((3.0, 2.0), 0.25)]",
        "(ManifoldPoint(point=Vec2(0.0, 2.0), depth=0.125), "
        "ManifoldPoint(point=Vec2(2.0, 2.0), depth=0.125))",
        "None",
    ]
