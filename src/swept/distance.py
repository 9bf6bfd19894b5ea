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

from typing import TYPE_CHECKING, Any

import numpy as np

from ._lazy import kernels
from .dispatch import CLOSEST_POINT, CLOSEST_POINTS
from .shapes import AABB, Capsule, Circle, Plane, Polygon, Segment, Shape, Sphere
from .vec import Vec2, Vec3, as_vec2, as_vec3, as_vector
from .views import ShapeView, core_shape, readonly, register_view, view

if TYPE_CHECKING:
    from ._kernels import distance as _k
    from ._kernels import geom as _kgeom
    from ._kernels import world as _kworld
else:
    _k = kernels("distance")
    _kgeom = kernels("geom")
    _kworld = kernels("world")

__all__ = ["closest_point", "distance", "closest_points"]

_tuple_new = tuple.__new__


def _vec(dim: int, x: float, y: float, z: float) -> Vec2 | Vec3:
    """A result vector of the given dimension."""
    if dim == 2:
        return _tuple_new(Vec2, (x, y))
    return _tuple_new(Vec3, (x, y, z))


def _closest_on_circle(shape: Circle, p: Any) -> Vec2 | Vec3:
    px, py = as_vec2(p, "p")
    cx, cy = shape.center
    x, y, _inside = _k.closest_on_circle(px, py, cx, cy, shape.radius)
    return _tuple_new(Vec2, (x, y))


def _closest_on_sphere(shape: Sphere, p: Any) -> Vec2 | Vec3:
    px, py, pz = as_vec3(p, "p")
    cx, cy, cz = shape.center
    x, y, z, _inside = _k.closest_on_sphere(px, py, pz, cx, cy, cz, shape.radius)
    return _tuple_new(Vec3, (x, y, z))


def _closest_on_segment(shape: Segment, p: Any) -> Vec2 | Vec3:
    px, py = as_vec2(p, "p")
    (ax, ay), (bx, by) = shape.a, shape.b
    x, y, _t = _kgeom.closest_on_segment2(px, py, ax, ay, bx, by)
    return _tuple_new(Vec2, (x, y))


def _closest_on_polygon(shape: Polygon, p: Any) -> Vec2 | Vec3:
    px, py = as_vec2(p, "p")
    v = view(shape)
    assert v.normals is not None
    x, y, _nx, _ny, _inside = _kgeom.closest_on_polygon(v.core, v.normals, px, py)
    return _tuple_new(Vec2, (x, y))


def _closest_on_aabb(shape: AABB, p: Any) -> Vec2 | Vec3:
    if shape.dim == 2:
        px, py = as_vec2(p, "p")
        lx, ly = shape.min
        hx, hy = shape.max
        x, y, _nx, _ny, _inside = _kgeom.closest_on_aabb2(px, py, lx, ly, hx, hy)
        return _tuple_new(Vec2, (x, y))
    px, py, pz = as_vec3(p, "p")
    lx, ly, lz = shape.min
    hx, hy, hz = shape.max
    x, y, z, _nx, _ny, _nz, _inside = _kgeom.closest_on_aabb3(px, py, pz, lx, ly, lz, hx, hy, hz)
    return _tuple_new(Vec3, (x, y, z))


def _closest_on_capsule(shape: Capsule, p: Any) -> Vec2 | Vec3:
    r = shape.radius
    if r == 0.0 and shape.dim == 2:
        # radius 0: exactly its segment (or its point, for a == b)
        px, py = as_vec2(p, "p")
        (ax, ay), (bx, by) = shape.a, shape.b
        x, y, _t = _kgeom.closest_on_segment2(px, py, ax, ay, bx, by)
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


def _closest_on_plane(shape: Plane, p: Any) -> Vec2 | Vec3:
    n = shape.normal
    q = as_vec2(p, "p") if shape.dim == 2 else as_vec3(p, "p")
    qz = q[2] if len(q) == 3 else 0.0
    nz = n[2] if len(n) == 3 else 0.0
    x, y, z, _inside = _k.closest_on_plane(q[0], q[1], qz, n[0], n[1], nz, shape.offset)
    return _vec(shape.dim, x, y, z)


for _cls, _handler in ((Circle, _closest_on_circle), (Sphere, _closest_on_sphere),
                       (Segment, _closest_on_segment), (Polygon, _closest_on_polygon),
                       (AABB, _closest_on_aabb), (Capsule, _closest_on_capsule),
                       (Plane, _closest_on_plane)):
    CLOSEST_POINT.register(_cls, _handler)


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
    entry = CLOSEST_POINT.table.get(type(shape))
    if entry is None:
        entry = CLOSEST_POINT.lookup(shape)
    point: Vec2 | Vec3 = entry[0](shape, p)
    return point


# ---------------------------------------------------------------------------------------------
# pairs: each operand is a shape or a point; the handlers read the operands' kernel views

class PointOperand:
    """A bare point given to :func:`distance` or :func:`closest_points`, as an operand."""

    __slots__ = ("center", "dim")

    def __init__(self, p: Vec2 | Vec3) -> None:
        self.center = p
        self.dim = len(p)

    def _key(self) -> tuple[Any, ...]:
        return tuple(self.center)


register_view(PointOperand, lambda p: ShapeView(_kworld.KIND_EMPTY, p.dim, (*p.center, 0.0),
                                          readonly([p.center], p.dim), 0.0))

_PairResult = tuple[float, float, float, float, float, float, float]


def _padded(x: Any) -> tuple[float, ...]:
    """A point's coordinates as three floats (z = 0 in 2D)."""
    return (x[0], x[1], x[2]) if len(x) == 3 else (x[0], x[1], 0.0)


def _segment_of(v: ShapeView) -> tuple[float, ...]:
    """A capsule-like view as its core's ends (padded to 3D) and its radius."""
    a = v.core[0]
    b = v.core[-1]
    return (*_padded(a), *_padded(b), v.radius)


def _ball_center(v: ShapeView) -> tuple[float, ...] | None:
    """The centre of a capsule-like view whose core is one point (a ball), else None."""
    a, b = v.core[0], v.core[-1]
    if all(a == b):
        return _padded(a)
    return None


def _gjk(a: Any, b: Any) -> _PairResult:
    """Any two cores, by GJK."""
    va, vb = view(a), view(b)
    cache = np.zeros(_k.GJK_CACHE_SIZE, np.int64)
    out = _k.shape_distance(va.core, va.radius, vb.core, vb.radius, cache)
    return out[0], out[1], out[2], out[3], out[4], out[5], out[6]


def _capsule_capsule(a: Any, b: Any) -> _PairResult:
    return _k.closest_points_capsule_capsule(*_segment_of(view(a)), *_segment_of(view(b)))


def _capsule_polygon(a: Any, b: Any) -> _PairResult:
    va = view(a)
    c = _ball_center(va)
    if c is not None:
        # a ball: closed form from its centre
        vb = view(b)
        assert vb.normals is not None
        return _k.closest_points_ball_polygon(c[0], c[1], va.radius, vb.core, vb.normals)
    return _gjk(a, b)


def _capsule_box(a: Any, b: Any) -> _PairResult:
    va, vb = view(a), view(b)
    c = _ball_center(va)
    if c is not None:
        # a ball: closed form from its centre
        (lx, ly, lz), (hx, hy, hz) = _padded(vb.params[:vb.dim]), _padded(vb.params[vb.dim:])
        return _k.closest_points_ball_aabb(c[0], c[1], c[2], va.radius, lx, ly, lz, hx, hy, hz)
    return _gjk(a, b)


def _box_box(a: Any, b: Any) -> _PairResult:
    pa, pb = view(a).params, view(b).params
    d = len(pa) // 2
    return _k.closest_points_aabb_aabb(*_padded(pa[:d]), *_padded(pa[d:]),
                                       *_padded(pb[:d]), *_padded(pb[d:]))


def _plane_params(v: ShapeView) -> tuple[float, ...]:
    return (*_padded(v.params[:v.dim]), v.params[v.dim])


def _any_plane(a: Any, b: Any) -> _PairResult:
    va = view(a)
    return _k.closest_points_core_plane(va.core, va.radius, *_plane_params(view(b)))


def _plane_plane(a: Any, b: Any) -> _PairResult:
    return _k.closest_points_plane_plane(*_plane_params(view(a)), *_plane_params(view(b)))


_ROUND = (PointOperand, Circle, Sphere, Segment, Capsule)
for _i, _ta in enumerate(_ROUND):
    for _tb in _ROUND[_i:]:
        CLOSEST_POINTS.register((_ta, _tb), _capsule_capsule, flip=True)
    CLOSEST_POINTS.register((_ta, Polygon), _capsule_polygon, flip=True)
    CLOSEST_POINTS.register((_ta, AABB), _capsule_box, flip=True)
    CLOSEST_POINTS.register((_ta, Plane), _any_plane, flip=True)
CLOSEST_POINTS.register((Polygon, Polygon), _gjk)
CLOSEST_POINTS.register((Polygon, AABB), _gjk, flip=True)
CLOSEST_POINTS.register((Polygon, Plane), _any_plane, flip=True)
CLOSEST_POINTS.register((AABB, AABB), _box_box)
CLOSEST_POINTS.register((AABB, Plane), _any_plane, flip=True)
CLOSEST_POINTS.register((Plane, Plane), _plane_plane)


def _operand(obj: Any, name: str) -> Any:
    """A shape as it is, a 2- or 3-vector as a :class:`PointOperand`; None for anything else.

    Radius 0 is the core itself, so that it runs through exactly the same handler, in the same
    order, as that core would: a circle or sphere becomes its centre, a 2D capsule its segment.
    """
    if type(obj) is Circle or type(obj) is Sphere:
        return PointOperand(obj.center) if obj.radius == 0.0 else obj
    if type(obj) is Capsule and obj.radius == 0.0 and obj.dim == 2:
        return core_shape(obj) if obj.a != obj.b else PointOperand(obj.a)
    if isinstance(obj, Shape) or isinstance(getattr(type(obj), "dim", None), int):
        # a shape, or a shape-like type registered by its own module (Chain)
        return obj
    try:
        return PointOperand(as_vector(obj, name))
    except TypeError:
        return None


def _pair(a: Any, b: Any, fname: str) -> tuple[int, _PairResult]:
    """The dimension and pair result of (a, b), in that order."""
    oa = _operand(a, "a")
    ob = _operand(b, "b")
    entry = None
    if oa is not None and ob is not None and oa.dim == ob.dim:
        entry = CLOSEST_POINTS.find(type(oa), type(ob))
    if entry is None:
        da = f" ({oa.dim}D)" if oa is not None else ""
        db = f" ({ob.dim}D)" if ob is not None else ""
        raise TypeError(f"{fname}: unsupported pair {type(a).__name__}{da} and "
                        f"{type(b).__name__}{db}")
    handler, swap = entry
    if not swap and type(oa) is type(ob):
        # one canonical order per pair, so that (a, b) and (b, a) compute the very same thing
        swap = oa._key() > ob._key()
    r = handler(ob, oa) if swap else handler(oa, ob)
    if swap:
        return oa.dim, (r[0], r[4], r[5], r[6], r[1], r[2], r[3])
    return oa.dim, r


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
