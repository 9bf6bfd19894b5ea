"""Radius 0: a circle, sphere or capsule of radius 0 is exactly the point or segment it is.

- A 2D capsule of radius 0 gives the very answers of its :class:`Segment` in ``distance``,
  ``closest_points``, ``closest_point`` and ``sweep``, as the first shape and as the second.
- A circle of radius 0 gives the answers of its centre as a point in ``distance`` and
  ``closest_points``.
- Touching exactly counts: such shapes that touch at the start hit at 0 with
  ``started_inside``, and their normals come from the features that touch (a face's normal, a
  segment's perpendicular), never from the rounding of two nearly equal points.

Exact values are closed forms, worked in :class:`fractions.Fraction` where they are not
obvious.
"""

from __future__ import annotations

import math
from fractions import Fraction
from typing import Any

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from swept import AABB, Capsule, Circle, Plane, Polygon, Segment, Shape, Sphere, Vec2
from swept.contact import contact
from swept.distance import closest_point, closest_points, distance
from swept.sweep import sweep

OTHERS = ["circle", "point", "segment", "capsule", "aabb", "polygon", "plane"]
MOVERS = {"circle", "point", "segment", "capsule", "aabb", "polygon"}

small = st.integers(-6, 6).map(float)
size = st.integers(1, 4).map(float)


@st.composite
def shapes(draw: Any, kind: str) -> Shape:
    """A 2D shape on small whole numbers: touching, crossing and collinear configurations,
    where ties and exact touches live, come up often."""
    c = Vec2(draw(small), draw(small))
    if kind == "circle":
        return Circle(c, draw(size))
    if kind == "point":
        return Circle(c, 0.0)
    if kind in ("segment", "capsule"):
        h = Vec2(draw(small), draw(small))
        if h == Vec2(0.0, 0.0):
            h = Vec2(1.0, 0.0)
        if kind == "segment":
            return Segment(c - h, c + h)
        return Capsule(c - h, c + h, draw(size))
    if kind == "aabb":
        h = Vec2(draw(size), draw(size))
        return AABB(c - h, c + h)
    if kind == "polygon":
        return Polygon.regular(draw(st.integers(3, 6)), draw(size), c, 0.0)
    n = Vec2(draw(st.integers(-1, 1)), draw(st.integers(-1, 1)))
    return Plane.through(c, n if n != Vec2(0.0, 0.0) else Vec2(0.0, 1.0))


def _sweep(a: Shape, d: Vec2, b: Shape) -> Any:
    h = sweep(a, d, b)
    return None if h is None else (h.fraction, h.normal, h.point, h.position,
                                   h.started_inside)


@pytest.mark.parametrize("other", OTHERS)
@settings(max_examples=120, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(data=st.data())
def test_a_zero_radius_capsule_answers_exactly_as_its_segment(other: str,
                                                              data: st.DataObject) -> None:
    """Its pair was ordered by type name and its closest point came from the capsule's
    formula (p + (0 - s) n), so it differed from its segment's by rounding: it now takes the
    segment's order and formula."""
    seg = data.draw(shapes("segment"))
    assert isinstance(seg, Segment)
    cap = Capsule(seg.a, seg.b, 0.0)
    o = data.draw(shapes(other))
    d = Vec2(data.draw(small), data.draw(small)) * 2.0
    p = Vec2(data.draw(small), data.draw(small))
    assert distance(cap, o) == distance(seg, o)
    assert distance(o, cap) == distance(o, seg)
    assert closest_points(cap, o) == closest_points(seg, o)
    assert closest_points(o, cap) == closest_points(o, seg)
    assert closest_point(cap, p) == closest_point(seg, p)
    assert _sweep(cap, d, o) == _sweep(seg, d, o)
    if other in MOVERS:
        assert _sweep(o, d, cap) == _sweep(o, d, seg)
    if other != "plane":
        assert contact(cap, o) == contact(seg, o)
        assert contact(o, cap) == contact(o, seg)


def test_contact_of_a_zero_radius_capsule_and_a_capsule_is_its_segments() -> None:
    """Collinear cores tie between two ways out; which one depends on the kernel's order."""
    seg = Segment((9.0, 6.0), (1.0, -2.0))
    other = Capsule((0.0, -3.0), (4.0, 1.0), 2.0)
    assert contact(other, Capsule(seg.a, seg.b, 0.0)) == contact(other, seg)


@pytest.mark.parametrize("other", OTHERS)
@settings(max_examples=80, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(data=st.data())
def test_a_zero_radius_circle_is_its_centre(other: str, data: st.DataObject) -> None:
    """A ball of radius 0 takes a point's place in a pair's order, so the same kernel runs in
    the same order and the answers are the point's, bit for bit."""
    c = Vec2(data.draw(small), data.draw(small))
    o = data.draw(shapes(other))
    assert distance(Circle(c, 0.0), o) == distance(c, o)
    assert closest_points(Circle(c, 0.0), o) == closest_points(c, o)
    assert closest_points(o, Circle(c, 0.0)) == closest_points(o, c)
    assert closest_point(Circle(c, 0.0), Vec2(9.0, 9.0)) == c


# ----------------------------------------------------------------------------- exact values


def test_a_zero_radius_circle_sweeps_as_a_ray() -> None:
    # (0, 0) + t (10, 5) reaches x = 4 at t = 2/5, at (4, 2)
    hit = sweep(Circle((0.0, 0.0), 0.0), (10.0, 5.0), Segment((4.0, -10.0), (4.0, 10.0)))
    assert hit is not None
    assert hit.fraction == pytest.approx(float(Fraction(2, 5)), abs=1e-15)
    assert hit.point == pytest.approx((4.0, 2.0), abs=1e-14)
    assert tuple(hit.normal) == (-1.0, 0.0)
    assert not hit.started_inside


def test_a_zero_radius_circle_on_a_segment_starts_inside_with_the_contact_normal() -> None:
    """A centre exactly on a segment ties between its two sides: the ray kernel picked the
    left side, contact() the side nearest +x; a sweep starting inside now takes contact's."""
    circle = Circle((4.0, 1.0), 0.0)
    seg = Segment((4.0, -10.0), (4.0, 10.0))
    hit = sweep(circle, (1.0, 0.0), seg)
    c = contact(circle, seg)
    assert hit is not None and c is not None
    assert hit.started_inside and hit.fraction == 0.0
    assert c.depth == 0.0
    assert tuple(hit.normal) == tuple(c.normal) == (1.0, 0.0)
    assert tuple(hit.point) == (4.0, 1.0)


def test_a_zero_radius_segment_meets_a_box_face_with_the_face_normal() -> None:
    """The cast's normal was the direction between GJK's witness points, a weighted sum of
    corners that rounds: (-1, 3.7e-17). It is now the perpendicular of the simplex's edge,
    a difference of corners: exactly (-1, 0)."""
    box = AABB((3.0, -1.0), (5.0, 5.0))
    for mover in (Segment((0.0, 0.0), (0.0, 2.0)), Capsule((0.0, 0.0), (0.0, 2.0), 0.0)):
        hit = sweep(mover, (10.0, 0.0), box)
        assert hit is not None
        # x = 0 + 10 t reaches the face x = 3 at t = 3/10
        assert hit.fraction == pytest.approx(0.3, abs=1e-15)
        assert tuple(hit.normal) == (-1.0, 0.0)
        assert not hit.started_inside


def test_zero_radius_circle_touching_a_circle_exactly_starts_inside() -> None:
    # |(3, 4)| = 5 = the radius: touching, the way out (-3/5, -4/5)
    point = Circle((0.0, 0.0), 0.0)
    ball = Circle((3.0, 4.0), 5.0)
    c = contact(point, ball)
    assert c is not None and c.depth == 0.0
    assert tuple(c.normal) == pytest.approx((-0.6, -0.8), abs=1e-15)
    hit = sweep(point, (1.0, 1.0), ball)
    assert hit is not None and hit.started_inside and hit.fraction == 0.0
    assert tuple(hit.normal) == pytest.approx((-0.6, -0.8), abs=1e-15)
    assert distance(point, ball) == 0.0


def test_zero_radius_capsule_touching_a_box_exactly_starts_inside() -> None:
    for mover in (Capsule((1.0, 0.0), (1.0, 2.0), 0.0), Segment((1.0, 0.0), (1.0, 2.0))):
        hit = sweep(mover, (5.0, 0.0), AABB((1.0, -1.0), (3.0, 3.0)))
        assert hit is not None
        assert hit.started_inside and hit.fraction == 0.0
        assert tuple(hit.normal) == (-1.0, 0.0)


def test_zero_radius_capsule_and_circle_closest_points_match_the_segment_bit_for_bit() -> None:
    """The segment (0,-2)-(2,-8) crosses the circle about (3,-3) of radius 3; the middle of the
    overlap along the line between the core witnesses is (3/5, -19/5) for both, computed in
    one order (the capsule's pair used to run the other way round and round differently)."""
    seg = Segment((0.0, -2.0), (2.0, -8.0))
    cap = Capsule((0.0, -2.0), (2.0, -8.0), 0.0)
    ball = Circle((3.0, -3.0), 3.0)
    assert closest_points(cap, ball) == closest_points(seg, ball)
    pa, pb, d = closest_points(seg, ball)
    assert d == 0.0
    # the core witness on the segment: (0,-2) + t (2,-6) nearest (3,-3), t = (6+6)/40 = 3/10
    t = Fraction(3, 10)
    w = (Fraction(0) + 2 * t, Fraction(-2) - 6 * t)
    assert w == (Fraction(3, 5), Fraction(-19, 5))
    assert tuple(pa) == tuple(pb) == pytest.approx((0.6, -3.8), abs=1e-15)


def test_a_zero_radius_sphere_sweeps_as_a_ray() -> None:
    # (0, 0, 0) + t (10, 5, 2) reaches x = 4 at t = 2/5
    hit = sweep(Sphere((0.0, 0.0, 0.0), 0.0), (10.0, 5.0, 2.0),
                AABB((4.0, -10.0, -10.0), (6.0, 10.0, 10.0)))
    assert hit is not None
    assert hit.fraction == pytest.approx(0.4, abs=1e-15)
    assert tuple(hit.normal) == (-1.0, 0.0, 0.0)
    assert hit.point == pytest.approx((4.0, 2.0, 0.8), abs=1e-14)


def test_zero_radius_capsule3_distance_to_a_sphere() -> None:
    # the axis (0,0,0)-(4,0,0) passes 3 below the sphere's centre (2,3,0), radius 1
    assert distance(Capsule((0.0, 0.0, 0.0), (4.0, 0.0, 0.0), 0.0),
                    Sphere((2.0, 3.0, 0.0), 1.0)) == 2.0


def test_two_zero_radius_segments_crossing_at_an_angle_meet_at_the_exact_fraction() -> None:
    """The segment x = 0, y in [0, 3] moving (6, 6) reaches the line x = 4 at t = 4/6, when
    it spans y in [4, 7] and overlaps the other segment (y in [-5, 5]) on [4, 5]: parallel
    segments touching along a piece, whose normal is their perpendicular exactly."""
    hit = sweep(Capsule((0.0, 0.0), (0.0, 3.0), 0.0), (6.0, 6.0),
                Capsule((4.0, -5.0), (4.0, 5.0), 0.0))
    assert hit is not None
    assert hit.fraction == pytest.approx(float(Fraction(2, 3)), abs=1e-15)
    assert tuple(hit.normal) == (-1.0, 0.0)
    assert math.isclose(hit.point[0], 4.0, abs_tol=1e-14)


def test_a_zero_radius_capsule_turning_into_a_box_face_gets_the_face_normal() -> None:
    """The rotating cast's normal was the direction between GJK's witness points too; it is
    now the perpendicular of the simplex's edge. A bar of radius 0 turning a quarter turn
    about its centre while moving (10, 0) meets the face x = 5 of a box: exactly (-1, 0)."""
    from swept.toi import Motion, TOIStatus, time_of_impact

    for bar in (Capsule((0.0, -1.0), (0.0, 1.0), 0.0), Segment((0.0, -1.0), (0.0, 1.0))):
        r = time_of_impact(bar, Motion((0.0, 0.0), 0.3, (10.0, 0.0), 0.7),
                           Polygon.box(1.0, 3.0), Motion((6.0, 0.0), 0.0, (0.0, 0.0), 0.0))
        assert r.status is TOIStatus.HIT
        assert tuple(r.normal) == (-1.0, 0.0)
        assert math.isclose(r.point[0], 5.0, abs_tol=1e-12)


def test_a_zero_radius_sphere_on_a_mesh_edge_or_vertex_gets_the_rays_normal() -> None:
    """A ball of radius 0 ends its sweep with its centre on the surface, where the direction
    from the touching point to the centre is the rounding's: landing on a tent's ridge, its
    normal came out facing away from the ball ((0.447, 0.894, 0) for a ball moving down and
    to +x) or along a rounding vector ((0.707, 0.707, 0)). It is cast as the watertight ray
    and gets a ray's normal: the face normal turned against the motion."""
    from swept import Ray, TriangleMesh, raycast

    tent = TriangleMesh([(0, 0, 0), (1, 0.5, 0), (2, 0, 0), (0, 0, 2), (1, 0.5, 2), (2, 0, 2)],
                        [(0, 3, 4), (0, 4, 1), (1, 4, 5), (1, 5, 2)])
    for p, d in [((0.9685469151305277, 0.36100957671534467, 0.5855288241233366),
                  (2.0629061697389446, -0.7220191534306893, -1.1710576482466732)),
                 ((3.0, 2.0, 2.0), (-4.0, -3.0, 0.0))]:
        hit = sweep(Sphere(p, 0.0), d, tent)
        ray = raycast(Ray(p, d), tent)
        assert hit is not None and ray is not None
        assert hit.fraction * math.hypot(*d) == pytest.approx(ray.distance, abs=1e-12)
        # a face normal (of either face at the ridge: they tie), turned against the motion
        assert any(tuple(hit.normal) in (tuple(n), tuple(-n)) for n in tent.normals)
        assert hit.normal.dot(d) < 0.0


def test_a_zero_radius_sphere_aimed_at_a_mesh_edge_far_away_never_slips_between_triangles() -> None:
    """A ball of radius 0 was cast against each triangle's face and its edges' capsules of
    radius 0: aimed at an edge of a floor at coordinates of 1e6, rounding put it outside both
    triangles' faces and off both capsules, and it went on through the floor to a fin behind
    it (fraction 0.794 instead of 2/3). A point is cast as the watertight ray."""
    from swept import Ray, TriangleMesh, raycast

    off = 1e6
    verts = [
        (0.0, 0.0, 0.0),
        (0.0, 0.04050240537116684, 1.0),
        (0.0, 0.004380903789045293, 2.0),
        (1.0, 0.0, 0.0),
        (1.0, 0.0, 1.0),
        (1.0, 0.0, 2.0),
        (2.0, 0.0, 0.0),
        (2.0, 0.0, 1.0),
        (2.0, 0.0, 2.0),
        (1.0, 1.0, 1.0),
        (0.5, 0.0, 0.8),
        (1.5, 0.0, 1.2),
    ]
    tris = [(0, 3, 4), (0, 4, 1), (1, 4, 2), (4, 5, 2), (3, 6, 4),
            (6, 7, 4), (4, 7, 5), (7, 8, 5), (9, 10, 11)]
    floor = TriangleMesh([tuple(c + off for c in v) for v in verts], tris)
    p = (1000000.2062829236, 999997.9739848585, 1000001.5419504289)
    d = (0.6734162021315994, 3.0599689125219367, -0.8129256432240966)
    hit = sweep(Sphere(p, 0.0), d, floor)
    ray = raycast(Ray(p, d), floor)
    assert hit is not None and ray is not None
    assert hit.fraction == pytest.approx(2.0 / 3.0, abs=1e-9)
    assert hit.fraction * math.sqrt(sum(x * x for x in d)) == pytest.approx(ray.distance, abs=1e-9)
    assert hit.normal == ray.normal
