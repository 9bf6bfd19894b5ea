"""Properties of contact() for every supported pair, against brute force in plain Python.

For random shapes: the normal is a unit vector and the depth >= 0; moving the first shape by
``normal * depth`` leaves the two just touching (a fresh contact has depth ~0, or there is
none); swapping the shapes reverses the normal and keeps the depth; a contact exists exactly
when an independent overlap test says so, with the depth it implies; and the point lies on the
second shape's boundary.

The 2D reference is the Minkowski difference of the two shapes' cores (their corners, ends or
centres), whose convex hull is found here by a monotone chain: the shapes overlap by both radii
less the origin's signed distance to that hull. The 3D reference minimises distances by golden
section search. Polygon pairs are also checked against the minimum over every edge normal of
both polygons (the separating axis test written out by brute force).
"""

from __future__ import annotations

import math
from collections.abc import Callable, Sequence
from typing import Any

import pytest
from hypothesis import assume, given, settings
from hypothesis import strategies as st

from shared import golden_min
from swept import AABB, Capsule, Circle, Plane, Polygon, Segment, Sphere
from swept.contact import contact

Point = tuple[float, ...]

# ----------------------------------------------------------------------------- strategies

# Every number is rounded to 6 decimals: exact ties and touching cases come up often, and no
# shape is so small against its coordinates that moving it would collapse it (a segment or a
# polygon of 1e-58 moved by 1 is no longer one). test_contact.py pins the tiny-gap cases.


def _snap(v: float) -> float:
    return round(v, 6) + 0.0


coord = st.floats(-20, 20, allow_nan=False, allow_infinity=False).map(_snap)
radius = st.floats(0, 8, allow_nan=False).map(_snap)
extent = st.floats(0, 10, allow_nan=False).map(_snap)
angle = st.floats(-math.pi, math.pi, allow_nan=False).map(_snap)
p2 = st.tuples(coord, coord)
p3 = st.tuples(coord, coord, coord)


@st.composite
def polygons(draw: Any) -> Polygon:
    """A convex polygon: a turned box, a regular polygon, or the hull of a few points."""
    kind = draw(st.integers(0, 2))
    if kind == 0:
        return Polygon.box(draw(st.floats(0.1, 8).map(_snap)),
                           draw(st.floats(0.1, 8).map(_snap)), draw(p2), draw(angle))
    if kind == 1:
        return Polygon.regular(draw(st.integers(3, 8)), draw(st.floats(0.2, 10).map(_snap)),
                               draw(p2), draw(angle))
    pts = _hull(draw(st.lists(p2, min_size=3, max_size=7)))
    assume(len(pts) >= 3)
    try:
        return Polygon(pts)
    except ValueError:
        assume(False)
        raise  # pragma: no cover - assume(False) never returns


@st.composite
def segments(draw: Any) -> Segment:
    a = draw(p2)
    b = draw(p2)
    assume(a != b)
    return Segment(a, b)


@st.composite
def boxes2(draw: Any) -> AABB:
    x, y = draw(p2)
    return AABB((x, y), (x + draw(extent), y + draw(extent)))


@st.composite
def boxes3(draw: Any) -> AABB:
    x, y, z = draw(p3)
    return AABB((x, y, z), (x + draw(extent), y + draw(extent), z + draw(extent)))


@st.composite
def planes2(draw: Any) -> Plane:
    if draw(st.booleans()):
        n = draw(st.sampled_from([(0, 1), (1, 0), (0, -1), (-1, 0)]))
    else:
        a = draw(angle)
        n = (math.cos(a), math.sin(a))
    return Plane(n, draw(coord))


@st.composite
def planes3(draw: Any) -> Plane:
    if draw(st.booleans()):
        n = draw(st.sampled_from([(0, 1, 0), (1, 0, 0), (0, 0, -1), (0, -1, 0)]))
    else:
        unit = st.floats(-1, 1).map(_snap)
        n = draw(st.tuples(unit, unit, unit))
        assume(math.sqrt(sum(c * c for c in n)) > 0.1)
    return Plane(n, draw(coord))


SHAPES_2D: dict[str, Any] = {
    "circle": st.builds(Circle, p2, radius),
    "segment": segments(),
    "capsule": st.builds(Capsule, p2, p2, radius),
    "aabb": boxes2(),
    "polygon": polygons(),
}
SHAPES_3D: dict[str, Any] = {
    "sphere": st.builds(Sphere, p3, radius),
    "capsule": st.builds(Capsule, p3, p3, radius),
    "aabb": boxes3(),
}

# ---------------------------------------------------------------------- plain-Python geometry


def _sub(a: Sequence[float], b: Sequence[float]) -> Point:
    return tuple(x - y for x, y in zip(a, b))


def _dot(a: Sequence[float], b: Sequence[float]) -> float:
    return sum(x * y for x, y in zip(a, b))


def _norm(a: Sequence[float]) -> float:
    return math.sqrt(_dot(a, a))


def _cross2(o: Sequence[float], a: Sequence[float], b: Sequence[float]) -> float:
    return (a[0] - o[0]) * (b[1] - o[1]) - (a[1] - o[1]) * (b[0] - o[0])


def _hull(points: Sequence[Sequence[float]]) -> list[Point]:
    """Convex hull, counter-clockwise (y up), by Andrew's monotone chain; 1 or 2 points when
    the input is a point or collinear."""
    pts = sorted({(float(p[0]), float(p[1])) for p in points})
    if len(pts) <= 2:
        return list(pts)
    lower: list[Point] = []
    for p in pts:
        while len(lower) >= 2 and _cross2(lower[-2], lower[-1], p) <= 0:
            lower.pop()
        lower.append(p)
    upper: list[Point] = []
    for p in reversed(pts):
        while len(upper) >= 2 and _cross2(upper[-2], upper[-1], p) <= 0:
            upper.pop()
        upper.append(p)
    return lower[:-1] + upper[:-1]


def _point_segment(q: Sequence[float], a: Sequence[float], b: Sequence[float]) -> float:
    """Distance from q to segment ab (any dimension)."""
    e = _sub(b, a)
    ee = _dot(e, e)
    t = 0.0 if ee == 0 else min(1.0, max(0.0, _dot(_sub(q, a), e) / ee))
    return _norm(_sub(q, tuple(x + t * y for x, y in zip(a, e))))


def _signed_distance_hull(h: list[Point], q: Sequence[float]) -> float:
    """Signed distance from q to the convex hull h (negative inside)."""
    if len(h) == 1:
        return _norm(_sub(q, h[0]))
    if len(h) == 2:
        return _point_segment(q, h[0], h[1])
    edges = [(h[i], h[(i + 1) % len(h)]) for i in range(len(h))]
    d = min(_point_segment(q, a, b) for a, b in edges)
    inside = all(_cross2(a, b, q) >= 0 for a, b in edges)
    return -d if inside else d


def _core2(shape: Any) -> tuple[list[Point], float]:
    """A 2D shape as its core's points and its radius."""
    if isinstance(shape, Circle):
        return [tuple(shape.center)], shape.radius
    if isinstance(shape, Segment):
        return [tuple(shape.a), tuple(shape.b)], 0.0
    if isinstance(shape, Capsule):
        return [tuple(shape.a), tuple(shape.b)], shape.radius
    if isinstance(shape, AABB):
        (x0, y0), (x1, y1) = shape.min, shape.max
        return [(x0, y0), (x1, y0), (x1, y1), (x0, y1)], 0.0
    return [tuple(p) for p in shape.points], 0.0


def reference_depth_2d(a: Any, b: Any) -> float:
    """How far a must move to clear b (negative: the gap), from the Minkowski difference."""
    pa, ra = _core2(a)
    pb, rb = _core2(b)
    diff = _hull([_sub(p, q) for p in pa for q in pb])
    return ra + rb - _signed_distance_hull(diff, (0.0, 0.0))


def signed_distance_2d(shape: Any, q: Sequence[float]) -> float:
    """Signed distance from q to a 2D shape's boundary (negative inside)."""
    if isinstance(shape, Plane):
        return _dot(shape.normal, q) - shape.offset
    pts, r = _core2(shape)
    return _signed_distance_hull(_hull(pts), q) - r


def _golden_min(f: Callable[[float], float]) -> float:
    """shared.golden_min with 90 narrowings."""
    return golden_min(f, 90)


def _box_signed_distance(q: Sequence[float], lo: Sequence[float], hi: Sequence[float]) -> float:
    """Signed distance from q to a box (negative inside: minus the nearest face's distance)."""
    out = [max(lo_k - q_k, 0.0, q_k - hi_k) for q_k, lo_k, hi_k in zip(q, lo, hi)]
    d = math.sqrt(sum(o * o for o in out))
    if d > 0.0:
        return d
    return -min(min(q_k - lo_k, hi_k - q_k) for q_k, lo_k, hi_k in zip(q, lo, hi))


def _lerp(a: Sequence[float], b: Sequence[float], s: float) -> Point:
    return tuple(x + s * (y - x) for x, y in zip(a, b))


def signed_distance_3d(shape: Any, q: Sequence[float]) -> float:
    """Signed distance from q to a 3D shape's boundary (negative inside)."""
    if isinstance(shape, Sphere):
        return _norm(_sub(q, shape.center)) - shape.radius
    if isinstance(shape, Capsule):
        return _point_segment(q, shape.a, shape.b) - shape.radius
    if isinstance(shape, Plane):
        return _dot(shape.normal, q) - shape.offset
    return _box_signed_distance(q, shape.min, shape.max)


def reference_depth_3d(a: Any, b: Any) -> float | None:
    """How far a must move to clear b (negative: the gap), or None where this brute force has
    no closed answer (a capsule's core inside a box)."""
    if isinstance(a, Sphere):
        return -signed_distance_3d(b, a.center) + a.radius
    if isinstance(b, Sphere):
        return -signed_distance_3d(a, b.center) + b.radius
    if isinstance(a, Capsule) and isinstance(b, Capsule):
        d = _golden_min(lambda s: _point_segment(_lerp(a.a, a.b, s), b.a, b.b))
        return a.radius + b.radius - d
    if isinstance(a, Capsule) or isinstance(b, Capsule):
        cap, box = (a, b) if isinstance(a, Capsule) else (b, a)
        d = _golden_min(lambda s: _box_signed_distance(_lerp(cap.a, cap.b, s), box.min,
                                                       box.max))
        return cap.radius - d if d > 1e-9 else None
    # two boxes: the shallowest of the per-axis pushes
    return min(min(ah - bl, bh - al) for al, ah, bl, bh in zip(a.min, a.max, b.min, b.max))


def reference_depth_plane(shape: Any, plane: Plane) -> float:
    """How far a shape sinks below a plane's boundary: its radius less its core's lowest
    signed height."""
    if isinstance(shape, (Circle, Sphere)):
        pts, r = [tuple(shape.center)], shape.radius
    elif isinstance(shape, AABB) and shape.dim == 3:
        pts = [(x, y, z) for x in (shape.min[0], shape.max[0])
               for y in (shape.min[1], shape.max[1]) for z in (shape.min[2], shape.max[2])]
        r = 0.0
    elif isinstance(shape, Capsule) and shape.dim == 3:
        pts, r = [tuple(shape.a), tuple(shape.b)], shape.radius
    else:
        pts, r = _core2(shape)
    return r - min(_dot(plane.normal, p) - plane.offset for p in pts)


def sat_brute_depth(a: Polygon, b: Polygon) -> float:
    """The minimum over both polygons' edge normals of the shorter push along that axis."""
    best = math.inf
    for poly in (a, b):
        for n in poly.normals:
            pa = [n.dot(p) for p in a.points]
            pb = [n.dot(p) for p in b.points]
            best = min(best, max(pa) - min(pb), max(pb) - min(pa))
    return best


def _scale(*shapes: Any) -> float:
    """1 plus the largest coordinate or size among the shapes: the scale of rounding."""
    m = 1.0
    for s in shapes:
        for v in s._key():
            if isinstance(v, tuple):
                for c in v:
                    m = max(m, *(abs(x) for x in c)) if isinstance(c, tuple) else max(m, abs(c))
            else:
                m = max(m, abs(v))
    return m


# ----------------------------------------------------------------------------- the properties


def check_contact(a: Any, b: Any, reference: float | None) -> None:
    """Every property of contact(a, b): see the module docstring. ``reference`` is the
    brute-force depth (negative: the gap), or None to skip that comparison."""
    tol = 1e-9 * _scale(a, b)
    c = contact(a, b)
    if reference is not None:
        if reference > tol:
            assert c is not None, f"missed an overlap of {reference}"
        if reference < -tol:
            assert c is None, f"contact where the gap is {-reference}: {c}"
        if c is not None:
            assert abs(c.depth - max(reference, 0.0)) <= tol, (c.depth, reference)
    if c is None:
        return
    # unit normal, depth >= 0
    assert abs(c.normal.length() - 1.0) <= 1e-12
    assert c.depth >= 0.0
    # pushing the first shape out by normal * depth leaves them just touching
    after = contact(a.translated(c.normal * c.depth), b)
    assert after is None or after.depth <= tol, (c, after)
    # the point is on the second shape's boundary
    sd = signed_distance_3d(b, c.point) if b.dim == 3 else signed_distance_2d(b, c.point)
    assert abs(sd) <= tol, (c, sd)
    # swapping the shapes reverses the normal and keeps the depth
    r = contact(b, a)
    assert r is not None
    assert abs(r.depth - c.depth) <= tol
    if not all(abs(p + q) <= 1e-9 for p, q in zip(r.normal, c.normal)):
        # only a mirror-symmetric tie between two shapes of one type may keep the normal:
        # then both ways out are equally short (a 2D capsule of radius 0 is its segment)
        assert _kind(a) is _kind(b), (c, r)
        other = contact(a.translated(-r.normal * r.depth), b)
        assert other is None or other.depth <= tol, (c, r, other)


def _kind(shape: Any) -> type:
    """The type a shape is dispatched as: a 2D capsule of radius 0 is a Segment (unless its
    core is a point)."""
    if type(shape) is Capsule and shape.radius == 0.0 and shape.dim == 2 and shape.a != shape.b:
        return Segment
    return type(shape)


PAIRS_2D = [
    ("circle", "circle"), ("circle", "segment"), ("circle", "capsule"), ("circle", "aabb"),
    ("circle", "polygon"), ("segment", "segment"), ("segment", "capsule"),
    ("segment", "aabb"), ("segment", "polygon"), ("capsule", "capsule"), ("capsule", "aabb"),
    ("capsule", "polygon"), ("polygon", "polygon"), ("aabb", "aabb"), ("aabb", "polygon"),
]


@pytest.mark.parametrize("kind_a, kind_b", PAIRS_2D, ids=[f"{a}-{b}" for a, b in PAIRS_2D])
@given(data=st.data())
def test_2d_pair_properties(kind_a: str, kind_b: str, data: Any) -> None:
    a = data.draw(SHAPES_2D[kind_a], label="a")
    b = data.draw(SHAPES_2D[kind_b], label="b")
    check_contact(a, b, reference_depth_2d(a, b))
    # and in the other order, whose point lies on the first shape
    check_contact(b, a, reference_depth_2d(b, a))


PLANE_2D = ["circle", "segment", "capsule", "aabb", "polygon"]


@pytest.mark.parametrize("kind", PLANE_2D)
@settings(max_examples=100)
@given(data=st.data())
def test_2d_shape_plane_properties(kind: str, data: Any) -> None:
    a = data.draw(SHAPES_2D[kind], label="a")
    plane = data.draw(planes2(), label="plane")
    check_contact(a, plane, reference_depth_plane(a, plane))


PAIRS_3D = [("sphere", "sphere"), ("sphere", "capsule"), ("sphere", "aabb"),
            ("capsule", "capsule"), ("capsule", "aabb"), ("aabb", "aabb")]


@pytest.mark.parametrize("kind_a, kind_b", PAIRS_3D, ids=[f"{a}-{b}" for a, b in PAIRS_3D])
@settings(max_examples=100)
@given(data=st.data())
def test_3d_pair_properties(kind_a: str, kind_b: str, data: Any) -> None:
    a = data.draw(SHAPES_3D[kind_a], label="a")
    b = data.draw(SHAPES_3D[kind_b], label="b")
    check_contact(a, b, reference_depth_3d(a, b))
    check_contact(b, a, reference_depth_3d(b, a))


@pytest.mark.parametrize("kind", ["sphere", "capsule", "aabb"])
@settings(max_examples=100)
@given(data=st.data())
def test_3d_shape_plane_properties(kind: str, data: Any) -> None:
    a = data.draw(SHAPES_3D[kind], label="a")
    plane = data.draw(planes3(), label="plane")
    check_contact(a, plane, reference_depth_plane(a, plane))


# ----------------------------------------------------------------------------- named properties

@given(polygons(), polygons())
def test_sat_depth_is_brute_force_minimum_over_edge_normals(a: Polygon, b: Polygon) -> None:
    tol = 1e-9 * _scale(a, b)
    best = sat_brute_depth(a, b)
    c = contact(a, b)
    if best < -tol:
        assert c is None
    elif best > tol:
        assert c is not None
    if c is not None:
        assert abs(c.depth - max(best, 0.0)) <= tol
        # the normal is one of the edge normals (either polygon's, pointing a out of b)
        normals = list(b.normals) + [-n for n in a.normals]
        assert min(max(abs(p - q) for p, q in zip(c.normal, n)) for n in normals) <= 1e-12


@given(st.builds(Circle, p2, radius), polygons())
def test_circle_polygon_contact_iff_centre_within_radius(ball: Circle, poly: Polygon) -> None:
    # distance from the centre to the polygon, in plain Python: 0 inside
    pts = poly.points
    n = len(pts)
    cx, cy = ball.center
    inside = all(_cross2(pts[i], pts[(i + 1) % n], (cx, cy)) >= 0 for i in range(n))
    d = 0.0 if inside else min(_point_segment((cx, cy), pts[i], pts[(i + 1) % n])
                               for i in range(n))
    tol = 1e-9 * _scale(ball, poly)
    c = contact(ball, poly)
    if d < ball.radius - tol:
        assert c is not None
    elif d > ball.radius + tol:
        assert c is None
    if c is not None and not inside:
        assert abs(c.depth - (ball.radius - d)) <= tol


@given(st.builds(Circle, p2, radius), st.builds(Circle, p2, radius))
def test_circle_circle_depth_is_reach_less_distance(a: Circle, b: Circle) -> None:
    d = math.dist(a.center, b.center)
    c = contact(a, b)
    if d > a.radius + b.radius:
        assert c is None
    else:
        assert c is not None
        assert abs(c.depth - (a.radius + b.radius - d)) <= 1e-12 * _scale(a, b)
        if d == 0.0:
            assert tuple(c.normal) == (1.0, 0.0)
