"""Properties of every ray cast on random shapes, against a brute-force reference written
here in plain Python: signed distance functions and sphere tracing (march along the ray by
the distance to the shape, which can never step past the surface).

For every shape type, 2D and 3D, and random rays (aimed near the shape, so that about half
hit), with and without a max_distance:

- a ray whose origin is inside starts inside: distance 0, point the origin, and the normal
  leads to the nearest boundary point (origin + depth * normal is on the surface);
- a hit from outside lies on the surface (1e-9 relative), is o + t d, its normal is unit,
  faces the ray and is the surface's outward normal there (stepping h along it leaves the
  shape at distance h);
- no point of the ray before the hit is inside the shape (dense sampling);
- a miss never enters the shape (dense sampling);
- the distance agrees with sphere tracing, except where the ray only grazes the shape;
- ``raycast`` and the seed function on raw vectors give the same answer;
- the exit: ``exit_distance >= distance``; a segment's is its distance; a half-plane's is
  ``inf`` unless the ray starts inside heading out; for the other (convex, bounded) shapes
  the exit point is on the surface, the ray is inside between entry and exit and outside
  just beyond the exit.
"""

from __future__ import annotations

import math
import sys
from collections.abc import Callable, Sequence

from hypothesis import assume, given, settings
from hypothesis import strategies as st

from swept.constants import RIM_TOLERANCE
from swept.raycast import ray_box, ray_capsule, ray_circle, ray_polygon, ray_segment, raycast
from swept.results import RayHit
from swept.shapes import AABB, Capsule, Circle, Plane, Polygon, Ray, Segment, Sphere

Vec = Sequence[float]
SDF = Callable[[Vec], float]

#: the size of the scenes: every coordinate and extent is within about this much of zero
SCALE = 20.0
#: how far inside the shape a sample may be and still count as on the surface
SURFACE_TOL = 1e-9 * SCALE
#: sphere tracing stops when this close to the surface
TRACE_EPS = 1e-12 * SCALE
TRACE_STEPS = 20_000
UNDECIDED = -1.0
EXAMPLES = 120

coord = st.floats(-10.0, 10.0, allow_nan=False, allow_infinity=False, allow_subnormal=False)
radius = st.floats(0.1, 5.0, allow_subnormal=False)
max_distance = st.one_of(st.just(math.inf), st.floats(0.0, 30.0, allow_subnormal=False))


# ---------------------------------------------------------------------------------------
# Plain-Python reference geometry
# ---------------------------------------------------------------------------------------

def dot(a: Vec, b: Vec) -> float:
    return sum(x * y for x, y in zip(a, b))


def sub(a: Vec, b: Vec) -> list[float]:
    return [x - y for x, y in zip(a, b)]


def along(o: Vec, d: Vec, t: float) -> list[float]:
    return [oc + t * dc for oc, dc in zip(o, d)]


def norm(a: Vec) -> float:
    return math.sqrt(dot(a, a))


def segment_distance(p: Vec, a: Vec, b: Vec) -> float:
    e = sub(b, a)
    ee = dot(e, e)
    s = 0.0 if ee == 0.0 else min(max(dot(sub(p, a), e) / ee, 0.0), 1.0)
    return norm(sub(p, along(a, e, s)))


def sdf_of(shape: object) -> SDF:
    """The signed distance to a shape (negative inside; a segment's is never negative)."""
    if isinstance(shape, (Circle, Sphere)):
        c, r = shape.center, shape.radius
        return lambda p: norm(sub(p, c)) - r
    if isinstance(shape, AABB):
        lo, hi = shape.min, shape.max

        def box(p: Vec) -> float:
            q = [max(lc - x, x - hc) for x, lc, hc in zip(p, lo, hi)]
            outside = math.sqrt(sum(max(v, 0.0) ** 2 for v in q))
            return outside + min(max(q), 0.0)

        return box
    if isinstance(shape, Capsule):
        a, b, r = shape.a, shape.b, shape.radius
        return lambda p: segment_distance(p, a, b) - r
    if isinstance(shape, Segment):
        a, b = shape.a, shape.b
        return lambda p: segment_distance(p, a, b)
    if isinstance(shape, Plane):
        n, off = shape.normal, shape.offset
        return lambda p: dot(n, p) - off
    if isinstance(shape, Polygon):
        pts, normals = shape.points, shape.normals
        k = len(pts)

        def polygon(p: Vec) -> float:
            gap = max(dot(n, sub(p, v)) for n, v in zip(normals, pts))
            if gap <= 0.0:
                return gap
            return min(segment_distance(p, pts[i], pts[(i + 1) % k]) for i in range(k))

        return polygon
    raise TypeError(type(shape).__name__)


def sphere_trace(sdf: SDF, o: Vec, d: Vec, limit: float) -> float | None:
    """The first t in [0, limit] where the ray comes within TRACE_EPS of the shape; None if
    it never does, UNDECIDED if tracing runs out of steps (a ray that grazes the shape)."""
    t = 0.0
    for _ in range(TRACE_STEPS):
        s = sdf(along(o, d, t))
        if s <= TRACE_EPS:
            return t
        t += s
        if t > limit:
            return None
    return UNDECIDED


def reach(shape: object, o: Vec) -> float:
    """A distance along any ray from o beyond which it can no longer meet the shape."""
    if isinstance(shape, Plane):
        return 1e7
    return norm(o) + 4.0 * SCALE


def same_hit(a: RayHit | None, b: RayHit | None) -> bool:
    """Two answers equal up to rounding (the seed functions normalise the direction again)."""
    if a is None or b is None:
        return a is b
    return (abs(a.distance - b.distance) <= 1e-12 * SCALE
            and a.started_inside == b.started_inside
            and max(abs(x - y) for x, y in zip(a.point, b.point)) <= 1e-12 * SCALE
            and max(abs(x - y) for x, y in zip(a.normal, b.normal)) <= 1e-9)


def check_raycast(ray: Ray, shape: object) -> RayHit | None:
    """Every property of one ray cast against one shape (see the module docstring); returns
    the hit."""
    hit = raycast(ray, shape)
    _check(ray, shape, hit)
    return hit


def _check(ray: Ray, shape: object, hit: RayHit | None) -> None:
    if hit is not None:
        _check_exit(ray, shape, hit)
    sdf = sdf_of(shape)
    solid = not isinstance(shape, Segment)
    o, d, tmax = ray.origin, ray.direction, ray.max_distance
    start = sdf(o)

    if hit is not None:
        n = hit.normal
        assert type(n) is type(o) and abs(norm(n) - 1.0) <= 1e-12
        assert 0.0 <= hit.distance <= tmax
        assert all(math.isfinite(c) for c in (*hit.point, *n))

    if solid and start < -SURFACE_TOL:
        # starts inside: out by the shortest way
        assert hit is not None and hit.started_inside and hit.distance == 0.0
        assert hit.point == o
        exit_point = along(o, hit.normal, -start)
        assert abs(sdf(exit_point)) <= 1e-7 * SCALE, (o, hit.normal, sdf(exit_point))
        return
    if abs(start) <= SURFACE_TOL:
        # on the boundary, up to rounding: either answer may be right, but a start inside
        # is always at distance 0
        if hit is not None and hit.started_inside:
            assert hit.distance == 0.0 and hit.point == o
        return
    limit = min(tmax, reach(shape, o))
    ref = sphere_trace(sdf, o, d, limit)

    if hit is None:
        # a miss never enters the shape
        samples = 400
        for k in range(samples + 1):
            p = along(o, d, limit * k / samples)
            assert sdf(p) >= -SURFACE_TOL, ("a miss that enters the shape", p)
        if ref is not None and ref != UNDECIDED:
            # the reference came within TRACE_EPS: only a graze, never a crossing
            for k in range(201):
                p = along(o, d, min(ref + k * 1e-3, limit))
                assert sdf(p) >= -1e-6 * SCALE, ("the reference crosses the shape", ref)
        return

    assert not hit.started_inside
    t = hit.distance
    n = hit.normal
    p = hit.point
    # the point is on the ray and on the surface
    assert max(abs(a - b) for a, b in zip(p, along(o, d, t))) <= 1e-12 * SCALE
    assert abs(sdf(p)) <= SURFACE_TOL, ("hit point off the surface", sdf(p))
    # the normal faces the ray and is the outward normal there
    assert dot(n, d) <= 1e-12
    h = 1e-4
    assert abs(sdf(along(p, n, h)) - h) <= 1e-7, ("not the outward normal", n)
    # no point before the hit is inside
    for k in range(200):
        q = along(o, d, t * k / 200)
        assert sdf(q) >= -SURFACE_TOL, ("inside before the hit", q)
    # agrees with sphere tracing, unless the ray grazes the surface
    if ref != UNDECIDED and abs(dot(n, d)) >= 1e-2:
        assert ref is not None, ("the reference misses", t)
        assert abs(t - ref) <= 1e-8 * SCALE, (t, ref)


def _check_exit(ray: Ray, shape: object, hit: RayHit) -> None:
    """The exit of a hit: on the surface, inside before it, outside after it."""
    te = hit.exit_distance
    assert te >= hit.distance
    if isinstance(shape, Segment):
        # no inside: the ray leaves where it meets it
        assert te == hit.distance
        return
    o, d = ray.origin, ray.direction
    if isinstance(shape, Plane):
        heading_out = dot(shape.normal, d) > 0.0
        assert math.isinf(te) == (not (hit.started_inside and heading_out))
        if math.isinf(te):
            return
    assert math.isfinite(te)
    sdf = sdf_of(shape)
    assert abs(sdf(along(o, d, te))) <= 1e-9 * SCALE, ("exit off the surface", te)
    # inside between entry and exit (a convex shape), outside beyond it
    for k in range(1, 20):
        assert sdf(along(o, d, hit.distance + (te - hit.distance) * k / 20)) <= SURFACE_TOL
    after = along(o, d, te + 1e-3)
    beyond = sdf(after)
    if isinstance(shape, Plane):
        # a half-plane left at a grazing angle (a normal component of 1e-107) is left by less
        # than the floats show: 1e-3 along the ray moves the distance by 1e-110, below the
        # rounding of dot(n, p) - offset itself (a few ulps of its terms) and of the point
        # o + t d (a few ulps of o and of t d: an exit 7e37 away along a direction with a
        # normal component of 1e-38, seed 2121, leaves o + t d only rounding away from the
        # line, and 1e-3 is below an ulp of t there)
        t_after = te + 1e-3
        rounding = 4.0 * sys.float_info.epsilon * (
            sum(abs(a) * (abs(oi) + abs(t_after * di))
                for a, oi, di in zip(shape.normal, o, d)) + abs(shape.offset))
        assert beyond > 0.0 or (dot(shape.normal, d) * 1e-3 < rounding and beyond >= -rounding)
    else:
        assert beyond > 0.0


# ---------------------------------------------------------------------------------------
# Rays and shapes
# ---------------------------------------------------------------------------------------

@st.composite
def rays_near(draw: st.DrawFn, target: Vec, spread: float) -> Ray:
    """A ray from anywhere in the scene or from near ``target``, mostly aimed at a point
    within ``spread`` of ``target`` (so that hits, misses and starts inside all occur)."""
    dim = len(target)
    offset = st.floats(-spread, spread, allow_subnormal=False)
    if draw(st.integers(0, 3)) == 0:
        origin = [c + draw(offset) for c in target]
    else:
        origin = [draw(st.floats(-12.0, 12.0, allow_subnormal=False)) for _ in range(dim)]
    if draw(st.integers(0, 2)) > 0:
        aim = [c + draw(offset) for c in target]
        direction = sub(aim, origin)
    else:
        direction = [draw(st.floats(-1.0, 1.0, allow_subnormal=False)) for _ in range(dim)]
    assume(norm(direction) > 1e-3)
    return Ray(origin, direction, draw(max_distance))


points2 = st.tuples(coord, coord)
points3 = st.tuples(coord, coord, coord)


def convex_hull(points: list[tuple[float, float]]) -> list[tuple[float, float]]:
    """Andrew's monotone chain (counter-clockwise, collinear points dropped)."""
    pts = sorted(set(points))
    if len(pts) < 3:
        return pts

    def cross(o: Vec, a: Vec, b: Vec) -> float:
        return (a[0] - o[0]) * (b[1] - o[1]) - (a[1] - o[1]) * (b[0] - o[0])

    lower: list[tuple[float, float]] = []
    for p in pts:
        while len(lower) >= 2 and cross(lower[-2], lower[-1], p) <= 0:
            lower.pop()
        lower.append(p)
    upper: list[tuple[float, float]] = []
    for p in reversed(pts):
        while len(upper) >= 2 and cross(upper[-2], upper[-1], p) <= 0:
            upper.pop()
        upper.append(p)
    return lower[:-1] + upper[:-1]


@st.composite
def polygons(draw: st.DrawFn) -> Polygon:
    pts = draw(st.lists(points2, min_size=3, max_size=8))
    hull = convex_hull(pts)
    assume(len(hull) >= 3)
    try:
        poly = Polygon(hull)
    except ValueError:
        assume(False)
        raise
    assume(poly.area > 0.5)
    return poly


@st.composite
def boxes(draw: st.DrawFn, dim: int) -> AABB:
    lo = [draw(coord) for _ in range(dim)]
    size = [draw(st.floats(0.05, 8.0, allow_subnormal=False)) for _ in range(dim)]
    return AABB(lo, [a + s for a, s in zip(lo, size)])


@st.composite
def planes(draw: st.DrawFn, dim: int) -> Plane:
    n = [draw(st.floats(-1.0, 1.0, allow_subnormal=False)) for _ in range(dim)]
    assume(norm(n) > 0.1)
    return Plane(n, draw(coord))


@st.composite
def segments(draw: st.DrawFn) -> Segment:
    a = draw(points2)
    b = draw(points2)
    assume(norm(sub(a, b)) > 0.1)
    return Segment(a, b)


def centre_and_spread(shape: object) -> tuple[list[float], float]:
    """Where to aim rays at a shape, and how widely."""
    if isinstance(shape, Plane):
        return [c * shape.offset for c in shape.normal], 10.0
    box = shape.aabb  # type: ignore[attr-defined]
    centre = [(a + b) / 2 for a, b in zip(box.min, box.max)]
    return centre, 0.75 * max(b - a for a, b in zip(box.min, box.max)) + 0.5


# ---------------------------------------------------------------------------------------
# The properties, per shape type
# ---------------------------------------------------------------------------------------

@settings(max_examples=EXAMPLES)
@given(st.data(), points2, radius)
def test_circle(data: st.DataObject, centre: tuple[float, float], r: float) -> None:
    shape = Circle(centre, r)
    ray = data.draw(rays_near(centre, r + 0.5))
    seed = ray_circle(ray.origin, ray.direction, centre, r, max_distance=ray.max_distance)
    assert same_hit(seed, check_raycast(ray, shape))


@settings(max_examples=EXAMPLES)
@given(st.data(), points3, radius)
def test_sphere(data: st.DataObject, centre: tuple[float, float, float], r: float) -> None:
    shape = Sphere(centre, r)
    ray = data.draw(rays_near(centre, r + 0.5))
    seed = ray_circle(ray.origin, ray.direction, centre, r, max_distance=ray.max_distance)
    assert same_hit(seed, check_raycast(ray, shape))


@settings(max_examples=EXAMPLES)
@given(st.data(), boxes(2))
def test_aabb2(data: st.DataObject, shape: AABB) -> None:
    ray = data.draw(rays_near(*centre_and_spread(shape)))
    seed = ray_box(ray.origin, ray.direction, shape.min, shape.max,
                   max_distance=ray.max_distance)
    assert same_hit(seed, check_raycast(ray, shape))


@settings(max_examples=EXAMPLES)
@given(st.data(), boxes(3))
def test_aabb3(data: st.DataObject, shape: AABB) -> None:
    ray = data.draw(rays_near(*centre_and_spread(shape)))
    seed = ray_box(ray.origin, ray.direction, shape.min, shape.max,
                   max_distance=ray.max_distance)
    assert same_hit(seed, check_raycast(ray, shape))


@settings(max_examples=EXAMPLES)
@given(st.data(), polygons())
def test_polygon(data: st.DataObject, shape: Polygon) -> None:
    ray = data.draw(rays_near(*centre_and_spread(shape)))
    seed = ray_polygon(ray.origin, ray.direction, list(reversed(shape.points)),
                       max_distance=ray.max_distance)
    assert same_hit(seed, check_raycast(ray, shape))


@settings(max_examples=EXAMPLES)
@given(st.data(), points2, points2, radius)
def test_capsule2(data: st.DataObject, a: tuple[float, float], b: tuple[float, float],
                  r: float) -> None:
    shape = Capsule(a, b, r)
    ray = data.draw(rays_near(*centre_and_spread(shape)))
    check_raycast(ray, shape)


@settings(max_examples=EXAMPLES)
@given(st.data(), points3, points3, radius)
def test_capsule3(data: st.DataObject, a: tuple[float, float, float],
                  b: tuple[float, float, float], r: float) -> None:
    shape = Capsule(a, b, r)
    ray = data.draw(rays_near(*centre_and_spread(shape)))
    check_raycast(ray, shape)


@settings(max_examples=EXAMPLES)
@given(st.data(), planes(2))
def test_plane2(data: st.DataObject, shape: Plane) -> None:
    check_raycast(data.draw(rays_near(*centre_and_spread(shape))), shape)


@settings(max_examples=EXAMPLES)
@given(st.data(), planes(3))
def test_plane3(data: st.DataObject, shape: Plane) -> None:
    check_raycast(data.draw(rays_near(*centre_and_spread(shape))), shape)


@settings(max_examples=EXAMPLES)
@given(st.data(), segments())
def test_segment(data: st.DataObject, shape: Segment) -> None:
    ray = data.draw(rays_near(*centre_and_spread(shape)))
    seed = ray_segment(ray.origin, ray.direction, shape.a, shape.b,
                       max_distance=ray.max_distance)
    hit = raycast(ray, shape)
    assert same_hit(seed, hit)
    o, d = ray.origin, ray.direction
    e = sub(shape.b, shape.a)
    side = d[0] * e[1] - d[1] * e[0]
    # near-parallel rays are the collinear / parallel cases, pinned by unit tests
    assume(abs(side) > 1e-6 * norm(e))
    # reference: where the ray's line crosses the segment's line, and whether that is on both
    w = sub(shape.a, o)
    t_ref = (w[0] * e[1] - w[1] * e[0]) / side
    u_ref = (w[0] * d[1] - w[1] * d[0]) / side
    margin = 1e-9
    sure_hit = (margin * SCALE < t_ref < ray.max_distance - margin * SCALE
                and margin < u_ref < 1 - margin)
    sure_miss = (t_ref < -margin * SCALE or t_ref > ray.max_distance + margin * SCALE
                 or u_ref < -margin or u_ref > 1 + margin)
    if sure_hit:
        assert hit is not None
        assert abs(hit.distance - t_ref) <= 1e-9 * SCALE
        check_raycast(ray, shape)
    elif sure_miss:
        assert hit is None
    if hit is not None and not hit.started_inside:
        n = hit.normal
        assert abs(norm(n) - 1.0) <= 1e-12 and dot(n, d) < 0.0
        assert abs(dot(n, e)) <= 1e-12 * norm(e)
        assert segment_distance(hit.point, shape.a, shape.b) <= SURFACE_TOL


# ---------------------------------------------------------------------------------------
# ray_capsule: only the pieces the ray heads into
# ---------------------------------------------------------------------------------------

def test_ray_capsule_on_the_rim_within_tolerance_hits_at_zero() -> None:
    """ray_capsule's rim band: an origin 6.7e-13 outside a capsule of radius 1 (found by a
    random run) is on the rim for ray_capsule (heading in: a hit at 0, started inside), and
    just outside for raycast (an entry 7.5e-13 along the ray), with the same normal."""
    o, d = (1.0, 1.0), (-0.44721359549983747, -0.894427190999976)
    a, b = (0.0, 0.0), (1.0, -6.729414881970685e-13)
    hit = ray_capsule(o, d, a, b, 1.0)
    full = raycast(Ray(o, d), Capsule(a, b, 1.0))
    assert hit is not None and full is not None
    assert hit.distance == 0.0 and hit.started_inside and hit.point == o
    assert not full.started_inside and 0.0 < full.distance < RIM_TOLERANCE
    assert hit.normal == full.normal == (6.729414881970685e-13, 1.0)


@settings(max_examples=EXAMPLES)
@given(st.data(), st.sampled_from([2, 3]), radius)
def test_ray_capsule_bounce_is_never_caught_again(data: st.DataObject, dim: int,
                                                  r: float) -> None:
    pts = points2 if dim == 2 else points3
    a, b = data.draw(pts), data.draw(pts)
    ray = data.draw(rays_near(*centre_and_spread(Capsule(a, b, r))))
    o, d = ray.origin, ray.direction
    hit = ray_capsule(o, d, a, b, r)
    full = raycast(Ray(o, d), Capsule(a, b, r))
    if full is not None and not full.started_inside and dot(full.normal, d) < 0.0:
        # ray_capsule counts an origin within RIM_TOLERANCE (relative) of the surface as on
        # its rim, a hit at 0 when heading in, where raycast casts from just outside: within
        # twice that band (the test's own distance rounds too) either answer stands
        scale = max(*(abs(x) for x in (*o, *a, *b)), r)
        if abs(segment_distance(o, a, b) - r) <= 2.0 * RIM_TOLERANCE * scale:
            # on the rim, to rounding
            assert hit == full or hit is None or (hit.distance == 0.0 and hit.started_inside)
        else:
            # from outside, heading in: the same hit as raycast
            assert hit == full
    if hit is None or hit.started_inside:
        return
    assert dot(hit.normal, d) < 0.0
    # a swept step: bounce at the contact and cast again from it
    k = 2.0 * dot(d, hit.normal)
    bounced = [dc - k * nc for dc, nc in zip(d, hit.normal)]
    assert ray_capsule(hit.point, bounced, a, b, r) is None
    # sliding along the surface is not a hit either
    k = dot(d, hit.normal)
    slide = [dc - k * nc for dc, nc in zip(d, hit.normal)]
    if norm(slide) > 1e-6:
        assert ray_capsule(hit.point, slide, a, b, r) is None
