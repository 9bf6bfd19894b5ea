"""Closest points and distance between convex shapes (and points), 2D and 3D.

- :func:`closest_point` — the point of a shape nearest a point; from inside, the nearest
  point of the boundary.
- :func:`distance` — the gap between two shapes (or a shape and a point), 0 when they touch
  or overlap.
- :func:`closest_points` — the nearest point on each, and the distance.

Supported: :class:`~swept.Circle`, :class:`~swept.Segment`, :class:`~swept.AABB`,
:class:`~swept.Polygon`, :class:`~swept.Capsule`, :class:`~swept.Plane`,
:class:`~swept.Sphere`, and any 2- or 3-vector standing for a point, paired in the same
dimension. Rays are not shapes with a distance: use :func:`swept.raycast`.

This module only coerces input and picks a kernel (``swept._kernels.distance``): closed forms
for capsule-like pairs (circles, spheres, points, segments, capsules), a ball against a box or
polygon, two boxes and anything against a plane; GJK on the shapes' cores otherwise. A gap
below ``TOUCH_TOLERANCE`` (1e-12) times the coordinates' magnitude counts as touching; GJK
results are within ``GJK_TOLERANCE`` (1e-10, relative) of the true distance.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import numpy as np

from ._kernels import distance as _k
from ._kernels.geom import (
    closest_on_aabb2,
    closest_on_aabb3,
    closest_on_polygon,
    closest_on_segment2,
)
from .shapes import AABB, Capsule, Circle, Plane, Polygon, Segment, Shape, Sphere
from .vec import Vec2, Vec3, as_vec2, as_vec3, as_vector

__all__ = ["closest_point", "distance", "closest_points"]

_tuple_new = tuple.__new__


def _vec(dim: int, x: float, y: float, z: float) -> Vec2 | Vec3:
    """A result vector of the given dimension."""
    if dim == 2:
        return _tuple_new(Vec2, (x, y))
    return _tuple_new(Vec3, (x, y, z))


def closest_point(shape: Shape, p: Any) -> Vec2 | Vec3:
    """The point of ``shape`` nearest ``p``.

    When ``p`` is inside the shape or on it, the answer is the nearest point of the
    *boundary* (for a segment, which has no inside, the point of the segment itself). A point
    at a circle's or sphere's centre goes out along ``COINCIDENT_NORMAL_2D`` / ``_3D`` (+x);
    a point on a capsule's axis, its ends included, goes out sideways (2D: along
    ``(b - a).perp()``; 3D: along ``Vec3.perp`` of the axis). For a plane, the projection of
    ``p`` onto its boundary.

    ``p`` is any 2- or 3-vector matching the shape's dimension (``ValueError`` naming ``p``
    otherwise, or when it is not finite); an unsupported shape raises ``TypeError``.
    """
    if isinstance(shape, Circle):
        px, py = as_vec2(p, "p")
        cx, cy = shape.center
        x, y, _inside = _k.closest_on_circle(px, py, cx, cy, shape.radius)
        return _tuple_new(Vec2, (x, y))
    if isinstance(shape, Sphere):
        px, py, pz = as_vec3(p, "p")
        cx, cy, cz = shape.center
        x, y, z, _inside = _k.closest_on_sphere(px, py, pz, cx, cy, cz, shape.radius)
        return _tuple_new(Vec3, (x, y, z))
    if isinstance(shape, Segment):
        px, py = as_vec2(p, "p")
        (ax, ay), (bx, by) = shape.a, shape.b
        x, y, _t = closest_on_segment2(px, py, ax, ay, bx, by)
        return _tuple_new(Vec2, (x, y))
    if isinstance(shape, Polygon):
        px, py = as_vec2(p, "p")
        x, y, _nx, _ny, _inside = closest_on_polygon(shape._verts, shape._norms, px, py)
        return _tuple_new(Vec2, (x, y))
    if isinstance(shape, AABB):
        if shape.dim == 2:
            px, py = as_vec2(p, "p")
            lx, ly = shape.min
            hx, hy = shape.max
            x, y, _nx, _ny, _inside = closest_on_aabb2(px, py, lx, ly, hx, hy)
            return _tuple_new(Vec2, (x, y))
        px, py, pz = as_vec3(p, "p")
        lx, ly, lz = shape.min
        hx, hy, hz = shape.max
        x, y, z, _nx, _ny, _nz, _inside = closest_on_aabb3(px, py, pz, lx, ly, lz, hx, hy,
                                                              hz)
        return _tuple_new(Vec3, (x, y, z))
    if isinstance(shape, Capsule):
        r = shape.radius
        if r == 0.0 and shape.dim == 2:
            # radius 0: exactly its segment (or its point, for a == b)
            px, py = as_vec2(p, "p")
            (ax, ay), (bx, by) = shape.a, shape.b
            x, y, _t = closest_on_segment2(px, py, ax, ay, bx, by)
            return _tuple_new(Vec2, (x, y))
        if shape.dim == 2:
            px, py = as_vec2(p, "p")
            ax, ay = shape.a
            bx, by = shape.b
            x, y, _inside = _k.closest_on_capsule2(px, py, ax, ay, bx, by, r)
            return _tuple_new(Vec2, (x, y))
        px, py, pz = as_vec3(p, "p")
        ax, ay, az = shape.a
        bx, by, bz = shape.b
        x, y, z, _inside = _k.closest_on_capsule3(px, py, pz, ax, ay, az, bx, by, bz, r)
        return _tuple_new(Vec3, (x, y, z))
    if isinstance(shape, Plane):
        n = shape.normal
        q = as_vec2(p, "p") if shape.dim == 2 else as_vec3(p, "p")
        qz = q[2] if len(q) == 3 else 0.0
        nz = n[2] if len(n) == 3 else 0.0
        x, y, z, _inside = _k.closest_on_plane(q[0], q[1], qz, n[0], n[1], nz, shape.offset)
        return _vec(shape.dim, x, y, z)
    raise TypeError(f"closest_point: unsupported shape type {type(shape).__name__}")


# ---------------------------------------------------------------------------------------------
# pairs: each operand becomes a proxy (kind, dim, order key, payload)

# kinds, in the order a pair is put in before dispatch (the lower kind first)
_CAPSULE = 0  # capsule-like core a-b grown by a radius: points, circles, spheres, segments
_POLYGON = 1
_BOX = 2
_PLANE = 3

_Proxy = tuple[int, int, tuple[Any, ...], Any]


def _proxy(obj: Any, name: str) -> _Proxy | None:
    """The proxy of a shape or point, or None when it is neither (unsupported)."""
    t = type(obj)
    if t is Circle or t is Sphere:
        c = obj.center
        x, y, z = (c[0], c[1], 0.0) if t is Circle else c
        # radius 0: the point itself, put in the same order as that point would be
        key = ("", tuple(c)) if obj.radius == 0.0 else (t.__name__, obj._key())
        return (_CAPSULE, obj.dim, key, (x, y, z, x, y, z, obj.radius))
    if t is Segment or t is Capsule:
        a, b = obj.a, obj.b
        r = obj.radius if t is Capsule else 0.0
        if obj.dim == 2:
            payload = (a[0], a[1], 0.0, b[0], b[1], 0.0, r)
        else:
            payload = (a[0], a[1], a[2], b[0], b[1], b[2], r)
        # radius 0: the segment itself, put in the same order as that segment would be
        key = ("Segment", (a, b)) if r == 0.0 else (t.__name__, obj._key())
        return (_CAPSULE, obj.dim, key, payload)
    if t is Polygon:
        return (_POLYGON, 2, ("Polygon", obj._key()), obj)
    if t is AABB:
        lo, hi = obj.min, obj.max
        if obj.dim == 2:
            box = (lo[0], lo[1], 0.0, hi[0], hi[1], 0.0)
        else:
            box = (lo[0], lo[1], lo[2], hi[0], hi[1], hi[2])
        return (_BOX, obj.dim, ("AABB", obj._key()), box)
    if t is Plane:
        n = obj.normal
        nz = n[2] if obj.dim == 3 else 0.0
        return (_PLANE, obj.dim, ("Plane", obj._key()), (n[0], n[1], nz, obj.offset))
    if isinstance(obj, Shape):
        return None
    try:
        p = as_vector(obj, name)
    except TypeError:
        return None
    x, y, z = (p[0], p[1], 0.0) if len(p) == 2 else p
    return (_CAPSULE, len(p), ("", tuple(p)), (x, y, z, x, y, z, 0.0))


def _readonly(rows: list[tuple[float, ...]] | np.ndarray) -> np.ndarray:
    """A read-only float64 core array (the same numba type as ``Polygon._verts``, so one
    compiled GJK serves every pair)."""
    arr = np.array(rows, dtype=np.float64)
    arr.setflags(write=False)
    return arr


def _core(proxy: _Proxy) -> tuple[np.ndarray, float]:
    """A proxy's core points (n, dim) and radius, for GJK."""
    kind, dim, _key, data = proxy
    if kind == _CAPSULE:
        ax, ay, az, bx, by, bz, r = data
        if dim == 2:
            return _readonly([(ax, ay), (bx, by)]), r
        return _readonly([(ax, ay, az), (bx, by, bz)]), r
    if kind == _POLYGON:
        return data._verts, 0.0
    lx, ly, lz, hx, hy, hz = data
    if dim == 2:
        return _readonly([(lx, ly), (hx, ly), (hx, hy), (lx, hy)]), 0.0
    return _readonly([(x, y, z) for x in (lx, hx) for y in (ly, hy) for z in (lz, hz)]), 0.0


_PairResult = tuple[float, float, float, float, float, float, float]


def _gjk(a: _Proxy, b: _Proxy) -> _PairResult:
    """Any two cores, by GJK."""
    va, ra = _core(a)
    vb, rb = _core(b)
    cache = np.zeros(_k.GJK_CACHE_SIZE, np.int64)
    out = _k.shape_distance(va, ra, vb, rb, cache)
    return out[0], out[1], out[2], out[3], out[4], out[5], out[6]


def _capsule_capsule(a: _Proxy, b: _Proxy) -> _PairResult:
    return _k.closest_points_capsule_capsule(*a[3], *b[3])


def _capsule_polygon(a: _Proxy, b: _Proxy) -> _PairResult:
    ax, ay, _az, bx, by, _bz, r = a[3]
    if ax == bx and ay == by:
        # a ball: closed form from its centre
        poly = b[3]
        return _k.closest_points_ball_polygon(ax, ay, r, poly._verts, poly._norms)
    return _gjk(a, b)


def _capsule_box(a: _Proxy, b: _Proxy) -> _PairResult:
    ax, ay, az, bx, by, bz, r = a[3]
    if ax == bx and ay == by and az == bz:
        # a ball: closed form from its centre
        return _k.closest_points_ball_aabb(ax, ay, az, r, *b[3])
    return _gjk(a, b)


def _box_box(a: _Proxy, b: _Proxy) -> _PairResult:
    return _k.closest_points_aabb_aabb(*a[3], *b[3])


def _any_plane(a: _Proxy, b: _Proxy) -> _PairResult:
    verts, r = _core(a)
    return _k.closest_points_core_plane(verts, r, *b[3])


def _plane_plane(a: _Proxy, b: _Proxy) -> _PairResult:
    return _k.closest_points_plane_plane(*a[3], *b[3])


# the pair table, by (kind of a, kind of b) with a's kind <= b's
_PAIRS: dict[tuple[int, int], Callable[[_Proxy, _Proxy], _PairResult]] = {
    (_CAPSULE, _CAPSULE): _capsule_capsule,
    (_CAPSULE, _POLYGON): _capsule_polygon,
    (_CAPSULE, _BOX): _capsule_box,
    (_CAPSULE, _PLANE): _any_plane,
    (_POLYGON, _POLYGON): _gjk,
    (_POLYGON, _BOX): _gjk,
    (_POLYGON, _PLANE): _any_plane,
    (_BOX, _BOX): _box_box,
    (_BOX, _PLANE): _any_plane,
    (_PLANE, _PLANE): _plane_plane,
}


def _pair(a: Any, b: Any, fname: str) -> tuple[int, _PairResult]:
    """The dimension and pair result of (a, b), in that order."""
    pa = _proxy(a, "a")
    pb = _proxy(b, "b")
    if pa is None or pb is None or pa[1] != pb[1]:
        da = f" ({pa[1]}D)" if pa is not None else ""
        db = f" ({pb[1]}D)" if pb is not None else ""
        raise TypeError(f"{fname}: unsupported pair {type(a).__name__}{da} and "
                        f"{type(b).__name__}{db}")
    # one canonical order per pair, so that (a, b) and (b, a) compute the very same thing
    swap = pa[0] > pb[0] or (pa[0] == pb[0] and pa[2] > pb[2])
    if swap:
        pa, pb = pb, pa
    r = _PAIRS[(pa[0], pb[0])](pa, pb)
    if swap:
        return pa[1], (r[0], r[4], r[5], r[6], r[1], r[2], r[3])
    return pa[1], r


def distance(a: Any, b: Any) -> float:
    """The gap between ``a`` and ``b`` (shapes of one dimension, or a point and a shape):
    0 when they touch or overlap.

    Two planes are 0 apart unless parallel and facing away from each other, when the
    distance is the width of the empty slab between them. An unsupported pair (a ray, mixed
    dimensions, something that is neither a shape nor a point) raises ``TypeError`` naming
    both types; a point with NaN or infinities raises ``ValueError`` naming ``a`` or ``b``.
    """
    return _pair(a, b, "distance")[1][0]


def closest_points(a: Any, b: Any) -> tuple[Vec2 | Vec3, Vec2 | Vec3, float]:
    """The point of ``a`` nearest ``b``, the point of ``b`` nearest ``a``, and the distance.

    Apart: ``distance == |point_b - point_a|`` and ``point_b - point_a`` is the separating
    direction. Touching or overlapping: distance 0 and both points are one point lying in
    both shapes: where the cores (centres, axes, corners' hull) overlap, a point common to
    both; where only the radii overlap, the middle of the overlap along the line between the
    cores' nearest points; against a plane, the shape's point deepest into the solid side.
    Errors as for :func:`distance`.
    """
    dim, r = _pair(a, b, "closest_points")
    return _vec(dim, r[1], r[2], r[3]), _vec(dim, r[4], r[5], r[6]), r[0]
