"""Ray casts: where a ray first meets a shape, in 2D and 3D (seed 000).

:func:`raycast` takes a :class:`~swept.shapes.Ray` and a shape and branches on the shape's
type in one function; the seed's own functions (:func:`ray_circle`, :func:`ray_box`,
:func:`ray_segment`, :func:`ray_polygon`, :func:`ray_capsule`) take raw vectors. All of them
call the compiled kernels in :mod:`swept._kernels.ray`, the single source of the geometry.

Conventions (contracts, each pinned by a test):

- The result is a :class:`~swept.results.RayHit` or ``None`` for a miss. ``distance`` is in
  length units along the unit direction, ``point = origin + distance * direction``.
- Touching counts: a ray that grazes a shape (tangent to a circle, through a box's corner,
  along a box's face) hits it. A hit exactly at ``max_distance`` is a hit; anything behind
  the origin is a miss.
- From outside, ``normal`` is the unit outward normal of the surface at the hit, so it faces
  the ray: ``dot(normal, direction) < 0`` (``== 0`` for a grazing touch).
- A ray that starts inside a shape or on its boundary hits at distance 0, with
  ``point = origin``, ``started_inside=True`` and the normal of the shortest way out: the
  outward normal of the boundary point nearest the origin (for a circle or sphere
  ``(origin - center) / |origin - center|``, or ``COINCIDENT_NORMAL_2D`` / ``_3D`` at the
  centre; for a plane the plane's normal). That normal need not face the ray.
- A segment has no inside: a ray crossing it gets the perpendicular turned to face the ray;
  a ray collinear with it hits where it first reaches it (the nearer end, or 0 if the origin
  is on it) with the normal ``-direction``; a parallel, non-collinear ray misses. An origin
  on the segment counts as starting on the shape (``started_inside=True``).
- A ray parallel to a box's slab is inside it always or never: no division by zero, no NaN.
  At an edge or corner the entered face is the x face (then y, then z).
- ``exit_distance`` is where the ray leaves the solid shape (``>= distance``), even beyond
  ``max_distance``: ``distance`` for a segment or a point, ``inf`` for a half-plane it never
  leaves. Radius 0 makes a circle or sphere a point (normal ``-direction``) and a capsule its
  segment; the kernel module's docstring decides each degenerate case.
- :func:`ray_capsule` is the seed's swept-step cast and differs from ``raycast`` on a capsule
  in one respect: only the pieces the ray heads into count, so an origin on the rim heading
  outward or along it misses, as does a grazing touch.
"""

from __future__ import annotations

import math
from collections.abc import Callable
from typing import TYPE_CHECKING, Any

from ._fast import lazy_entry, typed_build
from ._lazy import kernels
from .constants import RIM_TOLERANCE as RIM_TOLERANCE  # the rim band, for documentation
from .dispatch import RAYCAST
from .results import RayHit
from .shapes import AABB, Capsule, Circle, Plane, Polygon, Ray, Segment, Sphere
from .vec import Vec2, Vec3, as_finite, as_vec2, as_vec3, as_vector, unit

if TYPE_CHECKING:
    from ._kernels import ray as _k
else:
    _k = kernels("ray")

__all__ = ["raycast", "ray_circle", "ray_box", "ray_segment", "ray_polygon", "ray_capsule"]

_INF = math.inf
_tn = tuple.__new__
#: builds a record (RayHit) from the tuple of its fields (tuple.__new__, typed)
_rn = typed_build
# A hit is built as one tuple: RayHit is a tuple-backed record (see swept.results), and
# tuple.__new__ fills it in one allocation. The circle and segment handlers build their hit
# inline rather than through _hit2: the call costs about 40 ns of a hit, measured against
# pymunk in benchmarks/bench_raycast.py.

#: A kernel callable: tuple arguments in, the kernel's flat result tuple out.
KernelCall = Callable[..., Any]


# --------------------------------------------------------------------------------------
# Kernel binding: each adapter is compiled (or loaded from numba's cache) on first use, and
# then called through its compiled entry point (see swept._fast).
# --------------------------------------------------------------------------------------

def _lazy(name: str, adapter: str, example: Callable[[], tuple[Any, ...]]) -> KernelCall:
    """A stand-in for this module's global ``name``, bound on first call to the ray kernel
    ``adapter`` (the family, numba with it, and ``example`` load then, not on import)."""
    return lazy_entry(globals(), name, lambda: getattr(_k, adapter), example)


def _example_polygon() -> Polygon:
    return Polygon([(2.0, -1.0), (4.0, -1.0), (3.0, 1.0)])


#: example rays, packed as Ray._args: from the origin along +x, unlimited
_R2 = (0.0, 0.0, 1.0, 0.0, _INF)
_R3 = (0.0, 0.0, 0.0, 1.0, 0.0, 0.0, _INF)
_P2 = (3.0, 0.5)
_P3 = (3.0, 0.5, 0.0)

_k_circle = _lazy("_k_circle", "ray_circle_v", lambda: (_R2, _P2, 1.0))
_k_segment = _lazy("_k_segment", "ray_segment_v", lambda: (_R2, (3.0, -1.0), (3.0, 1.0)))
_k_aabb2 = _lazy("_k_aabb2", "ray_aabb2_v", lambda: (_R2, (2.0, -1.0), (4.0, 1.0)))
_k_polygon = _lazy("_k_polygon", "ray_polygon_v", lambda: (_R2, _example_polygon()._corners))
_k_plane2 = _lazy("_k_plane2", "ray_plane2_v", lambda: (_R2, (-1.0, 0.0), -3.0))
_k_capsule2 = _lazy("_k_capsule2", "ray_capsule2_v", lambda: (_R2, _P2, (5.0, 0.5), 1.0))
_k_capsule2_entering = _lazy("_k_capsule2_entering", "ray_capsule2_entering_v",
                             lambda: (_R2, _P2, (5.0, 0.5), 1.0))
_k_simple_polygon = _lazy("_k_simple_polygon", "ray_simple_polygon_v",
                          lambda: (_R2, _example_polygon()._verts))
_k_sphere = _lazy("_k_sphere", "ray_sphere_v", lambda: (_R3, _P3, 1.0))
_k_aabb3 = _lazy("_k_aabb3", "ray_aabb3_v", lambda: (_R3, (2.0, -1.0, -1.0), (4.0, 1.0, 1.0)))
_k_plane3 = _lazy("_k_plane3", "ray_plane3_v", lambda: (_R3, (-1.0, 0.0, 0.0), -3.0))
_k_capsule3 = _lazy("_k_capsule3", "ray_capsule3_v", lambda: (_R3, _P3, (5.0, 0.5, 0.0), 1.0))
_k_capsule3_entering = _lazy("_k_capsule3_entering", "ray_capsule3_entering_v",
                             lambda: (_R3, _P3, (5.0, 0.5, 0.0), 1.0))


# --------------------------------------------------------------------------------------
# Results. Each handler builds its RayHit inline: this is the hot path of every ray cast.
# --------------------------------------------------------------------------------------

#: Outward normals of the box face codes (swept._kernels.ray.FACE_*), prebuilt.
_AABB2_NORMALS = (Vec2(-1.0, 0.0), Vec2(1.0, 0.0), Vec2(0.0, -1.0), Vec2(0.0, 1.0))
_AABB3_NORMALS = (
    Vec3(-1.0, 0.0, 0.0), Vec3(1.0, 0.0, 0.0), Vec3(0.0, -1.0, 0.0), Vec3(0.0, 1.0, 0.0),
    Vec3(0.0, 0.0, -1.0), Vec3(0.0, 0.0, 1.0),
)


def _hit2(hit: Any, origin: Any) -> RayHit | None:
    """A 2D ``(t, px, py, nx, ny, inside, exit)`` adapter result as a RayHit (None stays
    None)."""
    if hit is None:
        return None
    t, px, py, nx, ny, inside, te = hit
    # starts inside: the point is the origin itself
    return _rn(RayHit, (t, origin if inside else _tn(Vec2, (px, py)), _tn(Vec2, (nx, ny)),
                        inside, te))


def _hit3(hit: Any, origin: Any) -> RayHit | None:
    """A 3D ``(t, px, py, pz, nx, ny, nz, inside, exit)`` adapter result as a RayHit."""
    if hit is None:
        return None
    t, px, py, pz, nx, ny, nz, inside, te = hit
    return _rn(RayHit, (t, origin if inside else _tn(Vec3, (px, py, pz)),
                        _tn(Vec3, (nx, ny, nz)), inside, te))


def _hit_face(hit: Any, origin: Any) -> RayHit | None:
    """A box adapter result ``(t, p..., face, inside, exit)`` (2D or 3D) as a RayHit."""
    if hit is None:
        return None
    inside = hit[-2]
    if len(hit) == 6:
        return _rn(RayHit, (hit[0], origin if inside else _tn(Vec2, hit[1:3]),
                            _AABB2_NORMALS[hit[3]], inside, hit[5]))
    return _rn(RayHit, (hit[0], origin if inside else _tn(Vec3, hit[1:4]),
                        _AABB3_NORMALS[hit[4]], inside, hit[6]))


def _hit_edge(hit: Any, origin: Any, normals: tuple[Vec2, ...]) -> RayHit | None:
    """A polygon adapter result ``(t, px, py, edge, inside, exit)`` as a RayHit."""
    if hit is None:
        return None
    t, px, py, edge, inside, te = hit
    return _rn(RayHit, (t, origin if inside else _tn(Vec2, (px, py)), normals[edge], inside,
                        te))


def _dimension_error(ray: Any, shape: Any) -> TypeError:
    return TypeError(
        f"raycast({type(ray).__name__}, {type(shape).__name__}): a {ray.dim}D ray cannot "
        f"meet a {shape.dim}D {type(shape).__name__}; both must have the same dimension"
    )


# --------------------------------------------------------------------------------------
# raycast: one handler per shape type, registered in the RAYCAST family (swept.dispatch).
# Each calls its kernel and builds the RayHit in place (this is the hot path of every ray
# cast). A 2D ray at a 3D shape (or the reverse) reaches the kernel with tuples of the wrong
# size, which its entry point rejects (ValueError for a longer tuple, TypeError for a shorter
# one): that is the dimension check, at no cost on the good path.
# --------------------------------------------------------------------------------------

def _ray_circle(ray: Ray, shape: Circle) -> RayHit | None:
    hit = _k_circle(ray._args, shape.center, shape.radius)
    if hit is None:
        return None
    t, px, py, nx, ny, inside, te = hit
    # starts inside: the point is the origin itself
    return _rn(RayHit, (t, ray.origin if inside else _tn(Vec2, (px, py)), _tn(Vec2, (nx, ny)),
                        inside, te))


def _ray_segment(ray: Ray, shape: Segment) -> RayHit | None:
    hit = _k_segment(ray._args, shape.a, shape.b)
    if hit is None:
        return None
    t, px, py, code, inside = hit
    # the segment's own prebuilt normal, or -direction for a collinear ray; a segment has no
    # inside, so the ray leaves it where it meets it
    return _rn(RayHit, (t, ray.origin if inside else _tn(Vec2, (px, py)),
                        shape._normals[code] if code < 2 else -ray.direction, inside, t))


def _ray_polygon(ray: Ray, shape: Polygon) -> RayHit | None:
    hit = _k_polygon(ray._args, shape._corners)
    if hit is None:
        return None
    t, px, py, edge, inside, te = hit
    # the edge's own outward normal, prebuilt by the polygon
    return _rn(RayHit, (t, ray.origin if inside else _tn(Vec2, (px, py)), shape.normals[edge],
                        inside, te))


def _ray_aabb(ray: Ray, shape: AABB) -> RayHit | None:
    if shape.dim == 2:
        hit = _k_aabb2(ray._args, shape.min, shape.max)
        if hit is None:
            return None
        t, px, py, face, inside, te = hit
        return _rn(RayHit, (t, ray.origin if inside else _tn(Vec2, (px, py)),
                            _AABB2_NORMALS[face], inside, te))
    hit = _k_aabb3(ray._args, shape.min, shape.max)
    if hit is None:
        return None
    t, px, py, pz, face, inside, te = hit
    return _rn(RayHit, (t, ray.origin if inside else _tn(Vec3, (px, py, pz)),
                        _AABB3_NORMALS[face], inside, te))


def _ray_plane(ray: Ray, shape: Plane) -> RayHit | None:
    # the normal is always the plane's own
    if shape.dim == 2:
        hit = _k_plane2(ray._args, shape.normal, shape.offset)
        if hit is None:
            return None
        t, px, py, inside, te = hit
        return _rn(RayHit, (t, ray.origin if inside else _tn(Vec2, (px, py)), shape.normal,
                            inside, te))
    hit = _k_plane3(ray._args, shape.normal, shape.offset)
    if hit is None:
        return None
    t, px, py, pz, inside, te = hit
    return _rn(RayHit, (t, ray.origin if inside else _tn(Vec3, (px, py, pz)), shape.normal,
                        inside, te))


def _ray_capsule(ray: Ray, shape: Capsule) -> RayHit | None:
    if shape.dim == 2:
        return _hit2(_k_capsule2(ray._args, shape.a, shape.b, shape.radius), ray.origin)
    return _hit3(_k_capsule3(ray._args, shape.a, shape.b, shape.radius), ray.origin)


def _ray_sphere(ray: Ray, shape: Sphere) -> RayHit | None:
    return _hit3(_k_sphere(ray._args, shape.center, shape.radius), ray.origin)


for _cls, _handler in ((Circle, _ray_circle), (Segment, _ray_segment), (Polygon, _ray_polygon),
                       (AABB, _ray_aabb), (Plane, _ray_plane), (Capsule, _ray_capsule),
                       (Sphere, _ray_sphere)):
    RAYCAST.register(_cls, _handler)

#: type -> (handler, swapped): the RAYCAST family's table, read directly (one dict lookup a
#: call; a subclass is remembered there on first use)
_TABLE = RAYCAST.table


def raycast(ray: Ray, shape: Any) -> RayHit | None:
    """Where ``ray`` first meets ``shape`` (within ``ray.max_distance``), or None.

    Supports Circle, Segment, AABB (2D, 3D), Polygon, Capsule (2D, 3D), Plane (2D, 3D),
    Sphere, and every shape registered in :data:`swept.dispatch.RAYCAST` (Chain). A shape of
    another type, or of the other dimension than the ray, raises ``TypeError`` naming both
    types. A ray that starts inside or on the shape hits at 0 with ``started_inside=True`` and
    the normal of the shortest way out (see the module's conventions).
    """
    if type(ray) is not Ray and not isinstance(ray, Ray):
        raise TypeError(
            f"raycast needs a Ray as its first argument: raycast({type(ray).__name__}, "
            f"{type(shape).__name__}) is not supported"
        )
    entry = _TABLE.get(type(shape))
    if entry is None:
        entry = _entry_of(ray, shape)
    try:
        hit: RayHit | None = entry[0](ray, shape)
    except (ValueError, TypeError):
        raise _dimension_error(ray, shape) from None
    return hit


def _entry_of(ray: Ray, shape: Any) -> tuple[Any, bool]:
    """The family's entry for a subclass of a supported type (remembered), or TypeError."""
    entry = RAYCAST.find(type(shape))
    if entry is not None:
        return entry
    names = ", ".join(t.__name__ for t in RAYCAST.registered())
    raise TypeError(
        f"raycast({type(ray).__name__}, {type(shape).__name__}) is not supported: the shape "
        f"must be one of {names}"
    )


# --------------------------------------------------------------------------------------
# The seed's functions, on raw vectors
# --------------------------------------------------------------------------------------

def _ray_args(origin: Any, direction: Any, max_distance: Any
              ) -> tuple[Vec2 | Vec3, Vec2 | Vec3, float]:
    """Coerce and check a ray given as raw vectors: the direction normalised."""
    o = as_vector(origin, "origin")
    d = as_vec2(direction, "direction") if len(o) == 2 else as_vec3(direction, "direction")
    u, _ = unit(d, "direction")
    m = as_finite(max_distance, "max_distance", minimum=0.0, allow_inf=True)
    return o, u, m


def _like(o: Vec2 | Vec3, value: Any, name: str) -> Vec2 | Vec3:
    """Coerce ``value`` to a vector of the origin's dimension."""
    return as_vec2(value, name) if len(o) == 2 else as_vec3(value, name)


def _finish(o: Vec2 | Vec3, result: tuple[Any, ...]) -> RayHit | None:
    return _hit2(result, o) if len(o) == 2 else _hit3(result, o)


def ray_circle(origin: Any, direction: Any, center: Any, radius: float, *,
               max_distance: float = _INF) -> RayHit | None:
    """Where a ray first meets a solid circle (a sphere, given 3D vectors), or None.

    The nearer root of ``|origin + t d - center|^2 = radius^2``; a ray that starts inside or
    on the rim hits at 0 with ``started_inside=True`` and the normal pointing from the centre
    through the origin.
    """
    o, d, m = _ray_args(origin, direction, max_distance)
    c = _like(o, center, "center")
    r = as_finite(radius, "radius", minimum=0.0)
    if len(o) == 2:
        return _hit2(_k_circle((*o, *d, m), c, r), o)
    return _hit3(_k_sphere((*o, *d, m), c, r), o)


def ray_box(origin: Any, direction: Any, box_min: Any, box_max: Any, *,
            max_distance: float = _INF) -> RayHit | None:
    """Where a ray first meets a solid axis-aligned box (2D or 3D), by the slab method.

    In the box from the latest slab entry to the earliest slab exit; a ray parallel to a slab
    is inside it always or never. Starting inside or on the box hits at 0, with the nearest
    face's normal.
    """
    o, d, m = _ray_args(origin, direction, max_distance)
    lo = _like(o, box_min, "box_min")
    hi = _like(o, box_max, "box_max")
    for i, (a, b) in enumerate(zip(lo, hi)):
        if a > b:
            axis = "xyz"[i]
            raise ValueError(f"box_min.{axis} ({a}) must not exceed box_max.{axis} ({b})")
    if len(o) == 2:
        return _hit_face(_k_aabb2((*o, *d, m), lo, hi), o)
    return _hit_face(_k_aabb3((*o, *d, m), lo, hi), o)


def ray_segment(origin: Any, direction: Any, a: Any, b: Any, *,
                max_distance: float = _INF) -> RayHit | None:
    """Where a 2D ray first meets the segment from ``a`` to ``b`` (``a != b``), or None.

    The normal is the segment's perpendicular turned to face the ray. A collinear ray hits
    where it first reaches the segment (its nearer end, or 0 if the origin is on it) with the
    normal ``-direction``; a parallel, non-collinear one misses.
    """
    o, d, m = _ray_args(origin, direction, max_distance)
    if len(o) != 2:
        raise ValueError(f"origin must be a 2D vector for ray_segment, got {len(o)} components")
    pa = as_vec2(a, "a")
    pb = as_vec2(b, "b")
    if pa == pb:
        raise ValueError(f"b: the segment needs a nonzero length, a and b are both {tuple(pa)}")
    hit = _k_segment((*o, *d, m), pa, pb)
    if hit is None:
        return None
    t, px, py, code, inside = hit
    normal: Vec2 | Vec3
    if code < 2:
        lx, ly, rx, ry = _k.segment_normals2(pa[0], pa[1], pb[0], pb[1])
        normal = Vec2(lx, ly) if code == 0 else Vec2(rx, ry)
    else:
        # collinear
        normal = -d
    return _rn(RayHit, (t, o if inside else _tn(Vec2, (px, py)), normal, inside, t))


def ray_polygon(origin: Any, direction: Any, points: Any, *,
                max_distance: float = _INF) -> RayHit | None:
    """Where a 2D ray first meets a solid polygon, convex or not, or None.

    ``points`` is a :class:`~swept.shapes.Polygon` (convex: the fast path) or the corners of
    any simple polygon in either winding. A convex list takes the Polygon path; any other
    goes through every edge (seed 000's loop): the nearest crossing, with that edge's outward
    normal (at a corner, the edge facing the ray most); starting inside (by crossing parity)
    or on the boundary hits at 0 with the nearest edge's normal; ``exit_distance`` is where
    the ray first gets outside again. A self-intersecting polygon, or one with fewer than 3
    distinct corners or no area, raises ``ValueError`` naming ``points``. Only ray casts take
    a non-convex polygon: ``Polygon``, and so ``raycast``, ``sweep``, ``contact``,
    ``distance`` and the World, need convex shapes.
    """
    o, d, m = _ray_args(origin, direction, max_distance)
    if len(o) != 2:
        raise ValueError(f"origin must be a 2D vector for ray_polygon, got {len(o)} components")
    if isinstance(points, Polygon):
        poly = points
    else:
        try:
            poly = Polygon(points)
        except ValueError:
            # not convex (or not a polygon at all): the general loop, once checked simple
            verts = _simple_polygon(points)
            return _hit2(_k_simple_polygon((*o, *d, m), verts), o)
    return _hit_edge(_k_polygon((*o, *d, m), poly._corners), o, poly.normals)


def _simple_polygon(points: Any) -> Any:
    """``points`` as an (n, 2) float64 array of a simple polygon's corners, counter-clockwise
    (y up), repeated points dropped; ValueError naming ``points`` if it is not one."""
    import numpy as np

    if isinstance(points, (str, bytes)):
        raise TypeError(f"points must be a sequence of 2D points, not {type(points).__name__}")
    try:
        items = list(points)
    except TypeError:
        raise TypeError(
            f"points must be a sequence of 2D points, not {type(points).__name__}") from None
    raw = [as_vec2(q, f"points[{i}]") for i, q in enumerate(items)]
    corners: list[Vec2] = []
    for q in raw:
        # repeated points (and a last point repeating the first) drop out
        if not corners or q != corners[-1]:
            corners.append(q)
    while len(corners) > 1 and corners[-1] == corners[0]:
        corners.pop()
    n = len(corners)
    if n < 3:
        raise ValueError(f"points: a polygon needs at least 3 distinct corners, got {n}")
    def side(a: Vec2, b: Vec2, c: Vec2) -> float:
        return (b - a).cross(c - a)

    def crosses(p1: Vec2, p2: Vec2, q1: Vec2, q2: Vec2) -> bool:
        # closed segments p1p2 and q1q2 share a point (touching included)
        s1, s2 = side(p1, p2, q1), side(p1, p2, q2)
        s3, s4 = side(q1, q2, p1), side(q1, q2, p2)
        if ((s1 > 0 > s2) or (s1 < 0 < s2)) and ((s3 > 0 > s4) or (s3 < 0 < s4)):
            return True

        def on(a: Vec2, b: Vec2, c: Vec2, sc: float) -> bool:
            return sc == 0.0 and min(a.x, b.x) <= c.x <= max(a.x, b.x) and min(
                a.y, b.y) <= c.y <= max(a.y, b.y)

        return (on(p1, p2, q1, s1) or on(p1, p2, q2, s2) or on(q1, q2, p1, s3)
                or on(q1, q2, p2, s4))

    for i in range(n):
        a, b = corners[i], corners[(i + 1) % n]
        for j in range(i + 1, n):
            c, e = corners[j], corners[(j + 1) % n]
            if j == i + 1 or (i == 0 and j == n - 1):
                # neighbours share a corner: they must not fold back over each other
                shared, p_far, q_far = (b, a, e) if j == i + 1 else (a, b, c)
                if side(shared, p_far, q_far) == 0.0 and (p_far - shared).dot(
                        q_far - shared) > 0.0:
                    raise ValueError(
                        f"points: edges {i} and {j} fold back over each other (the polygon "
                        "must be simple)")
                continue
            if crosses(a, b, c, e):
                raise ValueError(
                    f"points: edges {i} and {j} cross or touch (the polygon must be simple, "
                    "not self-intersecting)")
    area2 = sum(corners[i].cross(corners[(i + 1) % n]) for i in range(n))
    if area2 == 0.0:
        raise ValueError("points: the polygon has no area")
    if area2 < 0.0:
        corners.reverse()
    return np.array([tuple(q) for q in corners], dtype=np.float64)


def ray_capsule(origin: Any, direction: Any, a: Any, b: Any, radius: float, *,
                max_distance: float = _INF) -> RayHit | None:
    """Where a ray first heads into the segment ``a``-``b`` grown by ``radius`` (2D or 3D).

    The capsule is two sides (a cylinder in 3D) plus two end circles (spheres); only the
    pieces the ray heads into count (``dot(direction, outward normal) < 0``), as a swept step
    needs right after a bounce: an origin on the rim (within ``RIM_TOLERANCE`` of it, relative
    to the coordinates) heading outward or along it misses, and so does a grazing touch. On
    the rim heading in, or strictly inside, it hits at 0 with ``started_inside=True``.
    ``a == b`` is a circle (sphere).
    """
    o, d, m = _ray_args(origin, direction, max_distance)
    pa = _like(o, a, "a")
    pb = _like(o, b, "b")
    r = as_finite(radius, "radius", minimum=0.0)
    if len(o) == 2:
        return _hit2(_k_capsule2_entering((*o, *d, m), pa, pb, r), o)
    return _hit3(_k_capsule3_entering((*o, *d, m), pa, pb, r), o)


