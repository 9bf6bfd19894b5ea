"""Properties of closest points and distance, for random shape pairs in 2D and 3D.

Each property can fail on its own: symmetry, non-negativity, translation invariance, the
points being the reported distance apart and lying in their shapes, a duality certificate
(along the direction between the points, the shapes' support functions leave a gap of at
least the distance, up to GJK's tolerance: with the points in the shapes, this proves the
distance is the least one), agreement with brute-force references written here in plain
Python, and the triangle inequality through a point. ``closest_point`` is checked against
signed distance functions: its answer is on the boundary and as far from p as the boundary
is.
"""

from __future__ import annotations

import math
from collections.abc import Callable, Sequence
from typing import Any

from hypothesis import assume, given, reject, settings
from hypothesis import strategies as st

from shared import golden_min
from swept import AABB, Capsule, Circle, Plane, Polygon, Segment, Sphere
from swept.distance import closest_point, closest_points, distance

Point = tuple[float, ...]

# GJK's stated tolerance is 1e-10 relative; rounding adds about 1e-15 of the coordinates
REL = 1e-9
ABS = 1e-10

coord = st.floats(-20.0, 20.0, allow_nan=False, allow_infinity=False)
radius = st.floats(0.0, 5.0, allow_nan=False, allow_infinity=False)
size = st.floats(0.0, 8.0, allow_nan=False, allow_infinity=False)
point2 = st.tuples(coord, coord)
point3 = st.tuples(coord, coord, coord)


# --------------------------------------------------------------------------------------------
# strategies


def _hull(points: Sequence[Point]) -> list[Point]:
    """Convex hull, counter-clockwise (Andrew's monotone chain)."""
    pts = sorted(set(points))
    if len(pts) < 3:
        return list(pts)

    def cross(o: Point, a: Point, b: Point) -> float:
        return (a[0] - o[0]) * (b[1] - o[1]) - (a[1] - o[1]) * (b[0] - o[0])

    lower: list[Point] = []
    for p in pts:
        while len(lower) >= 2 and cross(lower[-2], lower[-1], p) <= 0:
            lower.pop()
        lower.append(p)
    upper: list[Point] = []
    for p in reversed(pts):
        while len(upper) >= 2 and cross(upper[-2], upper[-1], p) <= 0:
            upper.pop()
        upper.append(p)
    return lower[:-1] + upper[:-1]


def _polygon(points: Sequence[Point]) -> Polygon | None:
    try:
        return Polygon(_hull(points))
    except ValueError:
        return None


def _segment(a: Point, b: Point) -> Segment | None:
    return Segment(a, b) if a != b else None


def _plane(normal: Point, offset: float) -> Plane | None:
    if math.hypot(*normal) < 1e-3:
        return None
    return Plane(normal, offset)


polygons = st.lists(point2, min_size=3, max_size=8).map(_polygon).filter(
    lambda p: p is not None)
shapes2 = st.one_of(
    point2,
    st.builds(Circle, point2, radius),
    st.builds(_segment, point2, point2).filter(lambda s: s is not None),
    st.builds(Capsule, point2, point2, radius),
    st.builds(lambda lo, w, h: AABB(lo, (lo[0] + w, lo[1] + h)), point2, size, size),
    polygons,
    st.builds(_plane, point2, coord).filter(lambda p: p is not None),
)
shapes3 = st.one_of(
    point3,
    st.builds(Sphere, point3, radius),
    st.builds(Capsule, point3, point3, radius),
    st.builds(lambda lo, s: AABB(lo, (lo[0] + s[0], lo[1] + s[1], lo[2] + s[2])), point3,
              st.tuples(size, size, size)),
    st.builds(_plane, point3, coord).filter(lambda p: p is not None),
)
# bounded shapes only (closest_point takes a shape, and the references need a core)
shapes = st.one_of(shapes2, shapes3)
pairs = st.one_of(st.tuples(shapes2, shapes2), st.tuples(shapes3, shapes3))


# --------------------------------------------------------------------------------------------
# plain-Python geometry for the references


def _dot(a: Sequence[float], b: Sequence[float]) -> float:
    return sum(x * y for x, y in zip(a, b))


def _seg_dist(p: Sequence[float], a: Sequence[float], b: Sequence[float]) -> float:
    """Distance from p to segment ab."""
    e = [bi - ai for ai, bi in zip(a, b)]
    ee = _dot(e, e)
    t = 0.0 if ee == 0.0 else min(max(_dot([pi - ai for pi, ai in zip(p, a)], e) / ee, 0.0), 1.0)
    return math.dist(p, [ai + t * ei for ai, ei in zip(a, e)])


def _box_sdf(p: Sequence[float], lo: Sequence[float], hi: Sequence[float]) -> float:
    q = [abs(x - 0.5 * (l_ + h_)) - 0.5 * (h_ - l_) for x, l_, h_ in zip(p, lo, hi)]
    outside = math.sqrt(sum(max(c, 0.0) ** 2 for c in q))
    return outside + min(max(q), 0.0)


def _polygon_sdf(p: Sequence[float], pts: Sequence[Point]) -> float:
    n = len(pts)
    signed = []
    for i in range(n):
        a, b = pts[i], pts[(i + 1) % n]
        ex, ey = b[0] - a[0], b[1] - a[1]
        length = math.hypot(ex, ey)
        signed.append((ey * (p[0] - a[0]) - ex * (p[1] - a[1])) / length)
    if max(signed) <= 0.0:
        return max(signed)
    return min(_seg_dist(p, pts[i], pts[(i + 1) % n]) for i in range(n))


def sdf(shape: Any, p: Sequence[float]) -> float:
    """Signed distance from p to the shape's boundary (negative inside; a segment's or a
    point's is the unsigned distance)."""
    if isinstance(shape, (Circle, Sphere)):
        return math.dist(p, shape.center) - shape.radius
    if isinstance(shape, Segment):
        return _seg_dist(p, shape.a, shape.b)
    if isinstance(shape, Capsule):
        return _seg_dist(p, shape.a, shape.b) - shape.radius
    if isinstance(shape, AABB):
        return _box_sdf(p, shape.min, shape.max)
    if isinstance(shape, Polygon):
        return _polygon_sdf(p, shape.points)
    if isinstance(shape, Plane):
        return _dot(shape.normal, p) - shape.offset
    return math.dist(p, shape)


def support(shape: Any, n: Sequence[float]) -> float:
    """The largest dot(n, x) over the shape (inf for a plane unless n is its normal)."""
    if isinstance(shape, (Circle, Sphere)):
        return _dot(shape.center, n) + shape.radius
    if isinstance(shape, (Segment, Capsule)):
        r = shape.radius if isinstance(shape, Capsule) else 0.0
        return max(_dot(shape.a, n), _dot(shape.b, n)) + r
    if isinstance(shape, AABB):
        return sum(max(lo * c, hi * c) for lo, hi, c in zip(shape.min, shape.max, n))
    if isinstance(shape, Polygon):
        return max(_dot(q, n) for q in shape.points)
    if isinstance(shape, Plane):
        return shape.offset if _dot(shape.normal, n) >= 1.0 - 1e-9 else math.inf
    return _dot(shape, n)


def scale(*things: Any) -> float:
    """1 + the largest coordinate or radius magnitude of the shapes and points given."""
    m = 1.0
    for t in things:
        if isinstance(t, (Circle, Sphere)):
            vals = [*t.center, t.radius]
        elif isinstance(t, (Segment, Capsule)):
            vals = [*t.a, *t.b] + ([t.radius] if isinstance(t, Capsule) else [])
        elif isinstance(t, AABB):
            vals = [*t.min, *t.max]
        elif isinstance(t, Polygon):
            vals = [c for q in t.points for c in q]
        elif isinstance(t, Plane):
            vals = [t.offset]
        else:
            vals = list(t)
        m = max(m, 1.0 + max(abs(v) for v in vals))
    return m


def _core(shape: Any) -> tuple[list[Point], float]:
    """Core points (deduplicated, hull order for 2D boxes) and radius of a bounded shape."""
    if isinstance(shape, (Circle, Sphere)):
        pts, r = [tuple(shape.center)], shape.radius
    elif isinstance(shape, Segment):
        pts, r = [tuple(shape.a), tuple(shape.b)], 0.0
    elif isinstance(shape, Capsule):
        pts, r = [tuple(shape.a), tuple(shape.b)], shape.radius
    elif isinstance(shape, AABB) and shape.dim == 2:
        (lx, ly), (hx, hy) = shape.min, shape.max
        pts, r = [(lx, ly), (hx, ly), (hx, hy), (lx, hy)], 0.0
    elif isinstance(shape, Polygon):
        pts, r = list(shape.points), 0.0
    else:
        pts, r = [tuple(shape)], 0.0
    unique: list[Point] = []
    for p in pts:
        if p not in unique:
            unique.append(p)
    return unique, r


def _edges(pts: list[Point]) -> list[tuple[Point, Point]]:
    if len(pts) == 1:
        return [(pts[0], pts[0])]
    if len(pts) == 2:
        return [(pts[0], pts[1])]
    return [(pts[i], pts[(i + 1) % len(pts)]) for i in range(len(pts))]


def _orient(a: Point, b: Point, c: Point) -> float:
    return (b[0] - a[0]) * (c[1] - a[1]) - (b[1] - a[1]) * (c[0] - a[0])


def _seg_seg_dist2(a: Point, b: Point, c: Point, d: Point) -> float:
    """Distance between segments ab and cd in 2D: 0 on a proper crossing, else the least
    end-to-segment distance."""
    if (_orient(a, b, c) * _orient(a, b, d) < 0.0
            and _orient(c, d, a) * _orient(c, d, b) < 0.0):
        return 0.0
    return min(_seg_dist(a, c, d), _seg_dist(b, c, d), _seg_dist(c, a, b), _seg_dist(d, a, b))


def _inside_hull(p: Point, hull: list[Point]) -> bool:
    return len(hull) >= 3 and all(_orient(hull[i], hull[(i + 1) % len(hull)], p) >= 0.0
                                  for i in range(len(hull)))


def _golden_min(f: Callable[[float], float]) -> float:
    """shared.golden_min with 100 narrowings."""
    return golden_min(f, 100)


def reference_distance(a: Any, b: Any) -> float:
    """Brute-force distance: hull vertex-edge minima in 2D, golden-section search along a
    segment core in 3D, the support point against a plane."""
    if isinstance(a, Plane) and isinstance(b, Plane):
        if _dot(a.normal, b.normal) <= -1.0 + 1e-12:
            return max(0.0, -(a.offset + b.offset))
        return 0.0
    if isinstance(a, Plane):
        a, b = b, a
    if isinstance(b, Plane):
        n = b.normal
        return max(0.0, -support(a, [-c for c in n]) - b.offset)
    dim = a.dim if hasattr(a, "dim") else len(a)
    if dim == 2:
        pa, ra = _core(a)
        pb, rb = _core(b)
        if any(_inside_hull(p, pb) for p in pa) or any(_inside_hull(p, pa) for p in pb):
            return 0.0
        hull = min(_seg_seg_dist2(p, q, s, t) for p, q in _edges(pa) for s, t in _edges(pb))
        return max(0.0, hull - ra - rb)
    # 3D: boxes by the axis formula, anything else along its segment core
    if isinstance(a, AABB) and isinstance(b, AABB):
        return math.sqrt(sum(max(lb - ha, la - hb, 0.0) ** 2 for la, ha, lb, hb in
                             zip(a.min, a.max, b.min, b.max)))
    if isinstance(a, AABB):
        a, b = b, a
    pa, ra = _core(a)
    p0, p1 = pa[0], pa[-1]

    def at(t: float) -> Point:
        return tuple(x + t * (y - x) for x, y in zip(p0, p1))

    if isinstance(b, AABB):
        lo, hi = b.min, b.max
        return max(0.0, _golden_min(lambda t: max(_box_sdf(at(t), lo, hi), 0.0)) - ra)
    pb, rb = _core(b)
    return max(0.0, _golden_min(lambda t: _seg_dist(at(t), pb[0], pb[-1])) - ra - rb)


def _in_shape(shape: Any, p: Sequence[float], tol: float) -> bool:
    return sdf(shape, p) <= tol


class _approx:  # noqa: N801 - reads like a value in comparisons
    """A float within ``REL`` relative plus ``tol`` absolute of a value."""

    def __init__(self, value: float, tol: float) -> None:
        self.value = value
        self.tol = tol

    def __eq__(self, other: object) -> bool:
        assert isinstance(other, float)
        return abs(other - self.value) <= REL * abs(self.value) + self.tol

    def __repr__(self) -> str:
        return f"{self.value!r} +- {REL * abs(self.value) + self.tol:.3g}"


# --------------------------------------------------------------------------------------------
# properties


@settings(max_examples=500)
@given(pairs)
def test_distance_is_symmetric_and_non_negative(pair: tuple[Any, Any]) -> None:
    a, b = pair
    pa, pb, d = closest_points(a, b)
    qb, qa, e = closest_points(b, a)
    assert d == e and pa == qa and pb == qb
    assert d >= 0.0 and math.isfinite(d)
    assert distance(a, b) == d == distance(b, a)


@settings(max_examples=500)
@given(pairs)
def test_points_are_the_distance_apart_and_in_their_shapes(pair: tuple[Any, Any]) -> None:
    a, b = pair
    pa, pb, d = closest_points(a, b)
    tol = ABS * scale(a, b)
    assert len(pa) == len(pb)
    if d == 0.0:
        assert pa == pb
    else:
        assert math.dist(pa, pb) == _approx(d, tol)
    assert _in_shape(a, pa, tol), sdf(a, pa)
    assert _in_shape(b, pb, tol), sdf(b, pb)


@settings(max_examples=500)
@given(pairs)
def test_the_gap_along_the_points_direction_certifies_the_distance(
        pair: tuple[Any, Any]) -> None:
    a, b = pair
    pa, pb, d = closest_points(a, b)
    s = scale(a, b)
    assume(d > 1e-6 * s)
    n = [(y - x) / d for x, y in zip(pa, pb)]
    # the slab between the supporting lines (planes) across n is as wide as the distance
    gap = -support(b, [-c for c in n]) - support(a, n)
    assert gap >= d * (1.0 - REL) - ABS * s


@settings(max_examples=500)
@given(pairs)
def test_distance_matches_brute_force(pair: tuple[Any, Any]) -> None:
    a, b = pair
    d = distance(a, b)
    assert d == _approx(reference_distance(a, b), ABS * scale(a, b))


@settings(max_examples=100)
@given(pairs, st.one_of(point2, point3))
def test_distance_is_invariant_under_translation(pair: tuple[Any, Any],
                                                 offset: Point) -> None:
    a, b = pair
    dim = len(offset)
    assume((a.dim if hasattr(a, "dim") else len(a)) == dim)
    try:
        moved = [_translated(x, offset) for x in (a, b)]
    except ValueError:
        # a tiny segment whose ends round together once moved
        reject()
    d = distance(a, b)
    assert distance(*moved) == _approx(d, ABS * scale(a, b, *moved))


def _translated(x: Any, offset: Point) -> Any:
    if isinstance(x, Plane):
        return Plane(x.normal, x.offset + _dot(x.normal, offset))
    if hasattr(x, "translated"):
        return x.translated(offset)
    return tuple(c + o for c, o in zip(x, offset))


@settings(max_examples=100)
@given(pairs, st.one_of(point2, point3))
def test_triangle_inequality_through_a_point(pair: tuple[Any, Any], p: Point) -> None:
    a, b = pair
    assume((a.dim if hasattr(a, "dim") else len(a)) == len(p))
    tol = ABS * scale(a, b, p)
    assert distance(a, b) <= distance(a, p) + distance(p, b) + tol


@given(shapes, st.one_of(point2, point3))
def test_closest_point_is_on_the_boundary_and_nearest(shape: Any, p: Point) -> None:
    dim = shape.dim if hasattr(shape, "dim") else len(shape)
    assume(dim == len(p) and not isinstance(shape, tuple))
    q = closest_point(shape, p)
    tol = ABS * scale(shape, p)
    # on the boundary (a segment is all boundary)
    assert abs(sdf(shape, q)) <= tol
    # and as far from p as the boundary is
    assert math.dist(p, q) == _approx(abs(sdf(shape, p)), tol)
    if sdf(shape, p) > tol:
        assert distance(shape, p) == _approx(math.dist(p, q), tol)
