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
- :func:`ray_capsule` is the seed's swept-step cast and differs from ``raycast`` on a capsule
  in one respect: only the pieces the ray heads into count, so an origin on the rim heading
  outward or along it misses, as does a grazing touch.
"""

from __future__ import annotations

import math
from collections.abc import Callable
from typing import Any

from ._kernels import ray as _k
from .results import RayHit
from .shapes import AABB, Capsule, Circle, Plane, Polygon, Ray, Segment, Sphere
from .vec import Vec2, Vec3, as_finite, as_vec2, as_vec3, as_vector, unit

__all__ = ["raycast", "ray_circle", "ray_box", "ray_segment", "ray_polygon", "ray_capsule"]

_INF = math.inf
_tn = tuple.__new__
#: builds a record (RayHit) from the tuple of its fields; untyped, as mypy sees a dataclass
_rn: Any = tuple.__new__
# A hit is built as one tuple: RayHit is a tuple-backed record (see swept.results), and
# tuple.__new__ fills it in one allocation. The circle and segment handlers build their hit
# inline rather than through _hit2: the call costs about 40 ns of a hit, measured against
# pymunk in benchmarks/bench_raycast.py.

#: A kernel callable: tuple arguments in, the kernel's flat result tuple out.
KernelCall = Callable[..., Any]


# --------------------------------------------------------------------------------------
# Kernel binding: each adapter is compiled (or loaded from numba's cache) on first use, and
# then called through its compiled entry point, skipping the dispatcher's type resolution.
# --------------------------------------------------------------------------------------

def _resolve(adapter: Any, example: tuple[Any, ...]) -> KernelCall:
    """The fastest safe way to call ``adapter`` with arguments shaped like ``example``.

    That is the compiled entry point for ``example``'s types, once it is checked to give
    the same answer for Vec2 / Vec3 arguments as for plain tuples. Otherwise (numba
    internals changed, or JIT disabled) a wrapper that passes plain tuples to the
    dispatcher, rejecting a tuple of the wrong size as the entry point does.
    """
    sizes = tuple(len(a) if isinstance(a, tuple) else -1 for a in example)

    def checked(*args: Any) -> Any:
        plain = []
        for a, n in zip(args, sizes):
            if n >= 0:
                if len(a) != n:
                    raise ValueError(f"size mismatch for tuple, expected {n} elements")
                a = tuple(a)
            plain.append(a)
        return adapter(*plain)

    # the points and vectors as Vec2 / Vec3, as the shapes hold them (the packed ray stays a
    # plain tuple, as Ray._args is one)
    vectors = tuple(
        _tn(Vec2 if len(a) == 2 else Vec3, a) if isinstance(a, tuple) and len(a) in (2, 3)
        else a for a in example
    )
    try:
        import numba

        expected = adapter(*example)
        signature = tuple(numba.typeof(a) for a in example)
        fast = adapter.overloads[signature].entry_point
        if fast(*vectors) != expected:
            return checked  # pragma: no cover - a numba that unboxes tuple subclasses oddly
    except Exception:  # pragma: no cover - JIT disabled, or numba internals changed
        return checked
    return fast


def _lazy(name: str, adapter: Any, example: tuple[Any, ...]) -> KernelCall:
    """A stand-in for the module global ``name`` that resolves the kernel on first call and
    puts the resolved callable in its place."""

    def first_call(*args: Any) -> Any:
        fn = _resolve(adapter, example)
        globals()[name] = fn
        return fn(*args)

    return first_call


def _example_polygon() -> Polygon:
    return Polygon([(2.0, -1.0), (4.0, -1.0), (3.0, 1.0)])


#: example rays, packed as Ray._args: from the origin along +x, unlimited
_R2 = (0.0, 0.0, 1.0, 0.0, _INF)
_R3 = (0.0, 0.0, 0.0, 1.0, 0.0, 0.0, _INF)
_P2 = (3.0, 0.5)
_P3 = (3.0, 0.5, 0.0)
_EXP = _example_polygon()

_k_circle = _lazy("_k_circle", _k.ray_circle_v, (_R2, _P2, 1.0))
_k_segment = _lazy("_k_segment", _k.ray_segment_v, (_R2, (3.0, -1.0), (3.0, 1.0)))
_k_aabb2 = _lazy("_k_aabb2", _k.ray_aabb2_v, (_R2, (2.0, -1.0), (4.0, 1.0)))
_k_polygon = _lazy("_k_polygon", _k.ray_polygon_v, (_R2, _EXP._corners))
_k_plane2 = _lazy("_k_plane2", _k.ray_plane2_v, (_R2, (-1.0, 0.0), -3.0))
_k_capsule2 = _lazy("_k_capsule2", _k.ray_capsule2_v, (_R2, _P2, (5.0, 0.5), 1.0))
_k_capsule2_entering = _lazy(
    "_k_capsule2_entering", _k.ray_capsule2_entering_v, (_R2, _P2, (5.0, 0.5), 1.0)
)
_k_sphere = _lazy("_k_sphere", _k.ray_sphere_v, (_R3, _P3, 1.0))
_k_aabb3 = _lazy("_k_aabb3", _k.ray_aabb3_v, (_R3, (2.0, -1.0, -1.0), (4.0, 1.0, 1.0)))
_k_plane3 = _lazy("_k_plane3", _k.ray_plane3_v, (_R3, (-1.0, 0.0, 0.0), -3.0))
_k_capsule3 = _lazy("_k_capsule3", _k.ray_capsule3_v, (_R3, _P3, (5.0, 0.5, 0.0), 1.0))
_k_capsule3_entering = _lazy(
    "_k_capsule3_entering", _k.ray_capsule3_entering_v, (_R3, _P3, (5.0, 0.5, 0.0), 1.0)
)


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
    """A 2D ``(t, px, py, nx, ny, inside)`` adapter result as a RayHit (None stays None)."""
    if hit is None:
        return None
    t, px, py, nx, ny, inside = hit
    # starts inside: the point is the origin itself
    return _rn(RayHit, (t, origin if inside else _tn(Vec2, (px, py)), _tn(Vec2, (nx, ny)),
                        inside))


def _hit3(hit: Any, origin: Any) -> RayHit | None:
    """A 3D ``(t, px, py, pz, nx, ny, nz, inside)`` adapter result as a RayHit."""
    if hit is None:
        return None
    t, px, py, pz, nx, ny, nz, inside = hit
    return _rn(RayHit, (t, origin if inside else _tn(Vec3, (px, py, pz)),
                        _tn(Vec3, (nx, ny, nz)), inside))


def _hit_face(hit: Any, origin: Any) -> RayHit | None:
    """A box adapter result ``(t, p..., face, inside)`` (2D or 3D) as a RayHit."""
    if hit is None:
        return None
    inside = hit[-1]
    if len(hit) == 5:
        return _rn(RayHit, (hit[0], origin if inside else _tn(Vec2, hit[1:3]),
                            _AABB2_NORMALS[hit[3]], inside))
    return _rn(RayHit, (hit[0], origin if inside else _tn(Vec3, hit[1:4]),
                        _AABB3_NORMALS[hit[4]], inside))


def _hit_edge(hit: Any, origin: Any, normals: tuple[Vec2, ...]) -> RayHit | None:
    """A polygon adapter result ``(t, px, py, edge, inside)`` as a RayHit."""
    if hit is None:
        return None
    t, px, py, edge, inside = hit
    return _rn(RayHit, (t, origin if inside else _tn(Vec2, (px, py)), normals[edge], inside))


def _dimension_error(ray: Any, shape: Any) -> TypeError:
    return TypeError(
        f"raycast({type(ray).__name__}, {type(shape).__name__}): a {ray.dim}D ray cannot "
        f"meet a {shape.dim}D {type(shape).__name__}; both must have the same dimension"
    )


# --------------------------------------------------------------------------------------
# raycast: one branch per shape type, in one function (a switch, as Box2D's b2RayCast has):
# a handler function per type would cost one more Python call, a tenth of a ray cast. Each
# branch calls its kernel and builds the RayHit in place. A 2D ray at a 3D shape (or the
# reverse) reaches the kernel with tuples of the wrong size, which its entry point rejects
# (ValueError for a longer tuple, TypeError for a shorter one): that is the dimension check,
# at no cost on the good path.
# --------------------------------------------------------------------------------------

#: The supported shape types: each type, or a user subclass of one (added on first use), to
#: the type whose branch casts it. The one place raycast learns of a shape type, with the
#: branches in :func:`raycast`.
_KINDS: dict[type, type] = {
    Circle: Circle, Segment: Segment, Polygon: Polygon, AABB: AABB, Capsule: Capsule,
    Plane: Plane, Sphere: Sphere,
}
_SUPPORTED = tuple(_KINDS)


def raycast(ray: Ray, shape: Any) -> RayHit | None:
    """Where ``ray`` first meets ``shape`` (within ``ray.max_distance``), or None.

    Supports Circle, Segment, AABB (2D, 3D), Polygon, Capsule (2D, 3D), Plane (2D, 3D) and
    Sphere. A shape of another type, or of the other dimension than the ray, raises
    ``TypeError`` naming both types. A ray that starts inside or on the shape hits at 0 with
    ``started_inside=True`` and the normal of the shortest way out (see the module's
    conventions).
    """
    if type(ray) is not Ray and not isinstance(ray, Ray):
        raise TypeError(
            f"raycast needs a Ray as its first argument: raycast({type(ray).__name__}, "
            f"{type(shape).__name__}) is not supported"
        )
    try:
        kind = _KINDS[type(shape)]
    except KeyError:
        kind = _kind_of(ray, shape)
    try:
        if kind is Circle:
            hit = _k_circle(ray._args, shape.center, shape.radius)
            if hit is None:
                return None
            t, px, py, nx, ny, inside = hit
            # starts inside: the point is the origin itself
            return _rn(RayHit, (t, ray.origin if inside else _tn(Vec2, (px, py)),
                                _tn(Vec2, (nx, ny)), inside))
        if kind is Segment:
            hit = _k_segment(ray._args, shape.a, shape.b)
            if hit is None:
                return None
            t, px, py, code, inside = hit
            # the segment's own prebuilt normal, or -direction for a collinear ray
            return _rn(RayHit, (t, ray.origin if inside else _tn(Vec2, (px, py)),
                                shape._normals[code] if code < 2 else -ray.direction, inside))
        if kind is Polygon:
            hit = _k_polygon(ray._args, shape._corners)
            if hit is None:
                return None
            t, px, py, edge, inside = hit
            # the edge's own outward normal, prebuilt by the polygon
            return _rn(RayHit, (t, ray.origin if inside else _tn(Vec2, (px, py)),
                                shape.normals[edge], inside))
        if kind is AABB:
            if shape.dim == 2:
                hit = _k_aabb2(ray._args, shape.min, shape.max)
                if hit is None:
                    return None
                t, px, py, face, inside = hit
                return _rn(RayHit, (t, ray.origin if inside else _tn(Vec2, (px, py)),
                                    _AABB2_NORMALS[face], inside))
            hit = _k_aabb3(ray._args, shape.min, shape.max)
            if hit is None:
                return None
            t, px, py, pz, face, inside = hit
            return _rn(RayHit, (t, ray.origin if inside else _tn(Vec3, (px, py, pz)),
                                _AABB3_NORMALS[face], inside))
        if kind is Plane:
            # the normal is always the plane's own
            if shape.dim == 2:
                hit = _k_plane2(ray._args, shape.normal, shape.offset)
                if hit is None:
                    return None
                t, px, py, inside = hit
                return _rn(RayHit, (t, ray.origin if inside else _tn(Vec2, (px, py)), shape.normal,
                                    inside))
            hit = _k_plane3(ray._args, shape.normal, shape.offset)
            if hit is None:
                return None
            t, px, py, pz, inside = hit
            return _rn(RayHit, (t, ray.origin if inside else _tn(Vec3, (px, py, pz)), shape.normal,
                                inside))
        if kind is Capsule:
            if shape.dim == 2:
                return _hit2(_k_capsule2(ray._args, shape.a, shape.b, shape.radius), ray.origin)
            return _hit3(_k_capsule3(ray._args, shape.a, shape.b, shape.radius), ray.origin)
        # a sphere
        return _hit3(_k_sphere(ray._args, shape.center, shape.radius), ray.origin)
    except (ValueError, TypeError):
        raise _dimension_error(ray, shape) from None


def _kind_of(ray: Ray, shape: Any) -> type:
    """The supported type ``shape`` is an instance of (remembered), or TypeError."""
    for cls in _SUPPORTED:
        if isinstance(shape, cls):
            _KINDS[type(shape)] = cls
            return cls
    raise TypeError(
        f"raycast({type(ray).__name__}, {type(shape).__name__}) is not supported: the shape "
        f"must be one of {', '.join(c.__name__ for c in _SUPPORTED)}"
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
    return _rn(RayHit, (t, o if inside else _tn(Vec2, (px, py)), normal, inside))


def ray_polygon(origin: Any, direction: Any, points: Any, *,
                max_distance: float = _INF) -> RayHit | None:
    """Where a 2D ray first meets a solid convex polygon, or None.

    ``points`` is a :class:`~swept.shapes.Polygon` or its corners in either winding (checked
    convex). From outside the normal is the entered edge's outward normal, which faces the
    ray; starting inside or on the polygon hits at 0 with the nearest edge's normal.
    """
    o, d, m = _ray_args(origin, direction, max_distance)
    if len(o) != 2:
        raise ValueError(f"origin must be a 2D vector for ray_polygon, got {len(o)} components")
    poly = points if isinstance(points, Polygon) else Polygon(points)
    return _hit_edge(_k_polygon((*o, *d, m), poly._corners), o, poly.normals)


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


#: The rim band of :func:`ray_capsule`, re-exported for documentation.
RIM_TOLERANCE = _k.RIM_TOLERANCE
