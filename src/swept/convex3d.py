"""Oriented boxes and convex hulls in every query family (3D).

:class:`~swept.OrientedBox` and :class:`~swept.ConvexHull` join ``raycast``,
``closest_point``, ``contact`` (and so ``manifold``'s one-point contact), ``distance`` /
``closest_points`` and ``sweep`` from here, beside their handlers (see :mod:`swept.dispatch`).
Methods, by pair:

- **Oriented box, in its own frame.** A ray, a sphere (contact, closest points, its cast), a
  capsule's contact, a point and a plane are turned into the box's frame (coordinates
  ``dot(axes[i], p)``: a rotation only, no translation), where the box is axis-aligned, and
  answered by the axis-aligned box's own kernels; normals and points are turned back. Exact to
  rounding, and with the identity rotation the very same arithmetic as the :class:`~swept.AABB`
  answer, bit for bit.
- **Convex hull.** A ray clips against the face planes (exact); a sphere's cast is a ray
  against the hull grown by its radius: faces moved out, edges as cylinders, corners as
  spheres (exact); a point inside goes to the nearest face's plane (exact), outside to GJK's
  nearest point.
- **Contact** of anything else with a hull or box (sphere or capsule against a hull; a box,
  turned or not, or a hull against a box or hull): GJK between the cores when they are apart
  (depth to :data:`~swept.constants.GJK_TOLERANCE` of the gap), the separating axis test when
  they touch or overlap (exact); see :mod:`swept._kernels.polytope`.
- **Distance and closest points**: the closed form for a sphere or point against a box; GJK
  on the cores otherwise (within :data:`~swept.constants.GJK_TOLERANCE`, relative).
- **Sweeps** of other movers (capsule, box, hull): conservative advancement on GJK distance,
  to :data:`~swept.constants.CAST_TOLERANCE` of the query's size; against a plane, the closed
  form of the deepest corner.

Reversed pairs are served by the same handlers: a contact's normal reverses. A World does not
hold these shapes yet (its collider table has no row kind for them): ``World.add`` raises
``TypeError``.
"""

from __future__ import annotations

from typing import Any

import numpy as np

from ._kernels import contact as _kc
from ._kernels import distance as _kd
from ._kernels import polytope as _kp
from ._kernels.geom import closest_on_aabb3
from ._kernels.ray import ray_aabb3_face_x
from ._kernels.scene import KIND_EMPTY
from ._kernels.sweep import ray_rounded_aabb3
from .dispatch import CLOSEST_POINT, CLOSEST_POINTS, CONTACT, RAYCAST, UNSUPPORTED
from .distance import PointOperand, _any_plane, _gjk
from .results import RayHit
from .shapes import AABB, Capsule, ConvexHull, OrientedBox, Plane, Ray, Sphere
from .sweep import register_convex
from .vec import Vec3, as_vec3
from .views import ShapeView, register_view

__all__ = ["separating_data"]

_tn = tuple.__new__
_rn: Any = tuple.__new__


def _readonly(rows: Any) -> np.ndarray:
    arr = np.array(rows, dtype=np.float64).reshape(-1, 3)
    arr.setflags(write=False)
    return arr


_NONE = _readonly([])
_IDENTITY = _readonly(np.eye(3))


def _local(box: OrientedBox, p: Any) -> tuple[float, float, float]:
    """A point or vector in the box's frame (a rotation: the same arithmetic for both)."""
    a, b, c = box.axes
    x, y, z = p[0], p[1], p[2]
    return (a[0] * x + a[1] * y + a[2] * z, b[0] * x + b[1] * y + b[2] * z,
            c[0] * x + c[1] * y + c[2] * z)


def _world(box: OrientedBox, x: float, y: float, z: float) -> Vec3:
    """A point or vector of the box's frame back in the world."""
    a, b, c = box.axes
    v: Vec3 = _tn(Vec3, (a[0] * x + b[0] * y + c[0] * z + 0.0,
                         a[1] * x + b[1] * y + c[1] * z + 0.0,
                         a[2] * x + b[2] * y + c[2] * z + 0.0))
    return v


# ------------------------------------------------------------------------------- views

register_view(OrientedBox, lambda s: ShapeView(KIND_EMPTY, 3, (), s._corners, 0.0))
register_view(ConvexHull, lambda s: ShapeView(KIND_EMPTY, 3, (), s._verts, 0.0))


def separating_data(shape: Any) -> tuple[np.ndarray, float, np.ndarray, np.ndarray]:
    """A 3D convex shape as the separating axis test takes it: its core (n, 3), radius, face
    normals (k, 3) and distinct edge directions (m, 3); ``TypeError`` for a shape without."""
    if isinstance(shape, Sphere):
        return _readonly([shape.center]), shape.radius, _NONE, _NONE
    if isinstance(shape, Capsule) and shape.dim == 3:
        core = _readonly([shape.a, shape.b])
        if shape.a == shape.b:
            return core, shape.radius, _NONE, _NONE
        d = shape.b - shape.a
        return core, shape.radius, _NONE, _readonly([d / d.length()])
    if isinstance(shape, AABB) and shape.dim == 3:
        lo, hi = shape.min, shape.max
        corners = [(x, y, z) for x in (lo[0], hi[0]) for y in (lo[1], hi[1])
                   for z in (lo[2], hi[2])]
        return _readonly(corners), 0.0, _IDENTITY, _IDENTITY
    if isinstance(shape, OrientedBox):
        axes = _readonly(shape.axes)
        return shape._corners, 0.0, axes, axes
    if isinstance(shape, ConvexHull):
        return shape._verts, 0.0, shape._norms, shape._dirs
    raise TypeError(f"{type(shape).__name__} has no separating-axis data")


# ------------------------------------------------------------------------------- raycast

def _ray_obb(ray: Ray, box: OrientedBox) -> RayHit | None:
    if ray.dim != 3:
        raise TypeError("dimension")
    ox, oy, oz = _local(box, ray.origin)
    dx, dy, dz = _local(box, ray.direction)
    lo, hi = box._lo, box._hi
    t, face, inside, te = ray_aabb3_face_x(ox, oy, oz, dx, dy, dz, lo[0], lo[1], lo[2],
                                           hi[0], hi[1], hi[2], ray.max_distance)
    if t < 0.0:
        return None
    o, d = ray.origin, ray.direction
    point = o if inside else _tn(Vec3, (o[0] + t * d[0], o[1] + t * d[1], o[2] + t * d[2]))
    return _rn(RayHit, (t, point, box._normals[face], inside, te))


def _ray_hull(ray: Ray, hull: ConvexHull) -> RayHit | None:
    if ray.dim != 3:
        raise TypeError("dimension")
    o, d = ray.origin, ray.direction
    t, face, inside, te = _kp.ray_hull_face_x(o[0], o[1], o[2], d[0], d[1], d[2], hull._norms,
                                              hull._offs, ray.max_distance)
    if t < 0.0:
        return None
    point = o if inside else _tn(Vec3, (o[0] + t * d[0], o[1] + t * d[1], o[2] + t * d[2]))
    return _rn(RayHit, (t, point, hull.normals[face], inside, te))


RAYCAST.register(OrientedBox, _ray_obb)
RAYCAST.register(ConvexHull, _ray_hull)


# ------------------------------------------------------------------------- closest point

def _closest_on_obb(box: OrientedBox, p: Any) -> Vec3:
    px, py, pz = _local(box, as_vec3(p, "p"))
    lo, hi = box._lo, box._hi
    x, y, z, _nx, _ny, _nz, _inside = closest_on_aabb3(px, py, pz, lo[0], lo[1], lo[2],
                                                       hi[0], hi[1], hi[2])
    return _world(box, x, y, z)


def _closest_on_hull(hull: ConvexHull, p: Any) -> Vec3:
    px, py, pz = as_vec3(p, "p")
    x, y, z, _inside = _kp.closest_on_hull(px, py, pz, hull._verts, hull._norms, hull._offs)
    v: Vec3 = _tn(Vec3, (x, y, z))
    return v


CLOSEST_POINT.register(OrientedBox, _closest_on_obb)
CLOSEST_POINT.register(ConvexHull, _closest_on_hull)


# ------------------------------------------------------------------------------- contact

_Raw = tuple[Any, ...]


def _contact_back(box: OrientedBox, raw: _Raw) -> _Raw:
    """A contact kernel's result in the box's frame, turned back into the world."""
    if not raw[0]:
        return raw
    n = _world(box, raw[1], raw[2], raw[3])
    p = _world(box, raw[5], raw[6], raw[7])
    return True, n[0], n[1], n[2], raw[4], p[0], p[1], p[2]


def _sphere_obb(a: Sphere, b: OrientedBox) -> _Raw:
    cx, cy, cz = _local(b, a.center)
    lo, hi = b._lo, b._hi
    return _contact_back(b, _kc.contact_sphere_aabb(cx, cy, cz, a.radius, lo[0], lo[1], lo[2],
                                                    hi[0], hi[1], hi[2]))


def _capsule_obb(a: Capsule, b: OrientedBox) -> _Raw:
    if a.dim != 3:
        return UNSUPPORTED
    p0 = _local(b, a.a)
    p1 = _local(b, a.b)
    lo, hi = b._lo, b._hi
    return _contact_back(b, _kc.contact_capsule_aabb3(*p0, *p1, a.radius, lo[0], lo[1], lo[2],
                                                      hi[0], hi[1], hi[2]))


def _obb_plane(a: OrientedBox, b: Plane) -> _Raw:
    if b.dim != 3:
        return UNSUPPORTED
    nx, ny, nz = _local(a, b.normal)
    lo, hi = a._lo, a._hi
    return _contact_back(a, _kc.contact_aabb_plane3(lo[0], lo[1], lo[2], hi[0], hi[1], hi[2],
                                                    nx, ny, nz, b.offset))


def _hull_plane(a: ConvexHull, b: Plane) -> _Raw:
    if b.dim != 3:
        return UNSUPPORTED
    nx, ny, nz = b.normal
    return _kp.contact_core_plane3(a._verts, 0.0, nx, ny, nz, b.offset)


def _polytopes(a: Any, b: Any) -> _Raw:
    """Any pair with a box or hull: GJK apart, the separating axis test touching."""
    if a.dim != 3 or b.dim != 3:
        return UNSUPPORTED
    return _kp.contact_core_polytope(*separating_data(a), *separating_data(b))


for _ta, _tb, _h in (
    (Sphere, OrientedBox, _sphere_obb),
    (Capsule, OrientedBox, _capsule_obb),
    (AABB, OrientedBox, _polytopes),
    (OrientedBox, OrientedBox, _polytopes),
    (OrientedBox, Plane, _obb_plane),
    (Sphere, ConvexHull, _polytopes),
    (Capsule, ConvexHull, _polytopes),
    (AABB, ConvexHull, _polytopes),
    (OrientedBox, ConvexHull, _polytopes),
    (ConvexHull, ConvexHull, _polytopes),
    (ConvexHull, Plane, _hull_plane),
):
    CONTACT.register((_ta, _tb), _h, flip=True)


# ---------------------------------------------------------------- distance, closest points

def _ball_obb(a: Any, b: OrientedBox) -> tuple[float, ...]:
    """A sphere or point and a box: the closed form, in the box's frame."""
    cx, cy, cz = _local(b, a.center)
    lo, hi = b._lo, b._hi
    r = a.radius if isinstance(a, Sphere) else 0.0
    d, ax, ay, az, bx, by, bz = _kd.closest_points_ball_aabb(cx, cy, cz, r, lo[0], lo[1], lo[2],
                                                             hi[0], hi[1], hi[2])
    pa = _world(b, ax, ay, az)
    pb = _world(b, bx, by, bz)
    return d, pa[0], pa[1], pa[2], pb[0], pb[1], pb[2]


for _cls in (OrientedBox, ConvexHull):
    for _other in (Capsule, AABB, OrientedBox, ConvexHull):
        CLOSEST_POINTS.register((_other, _cls), _gjk, flip=True)
    CLOSEST_POINTS.register((_cls, Plane), _any_plane, flip=True)
for _ball in (PointOperand, Sphere):
    CLOSEST_POINTS.register((_ball, OrientedBox), _ball_obb, flip=True)
    CLOSEST_POINTS.register((_ball, ConvexHull), _gjk, flip=True)


# ------------------------------------------------------------------------------- sweeps

def _grown_obb(o: Any, d: Any, r: float, m: float, s: OrientedBox
               ) -> tuple[float, tuple[float, ...], bool] | None:
    """A ray against the box grown by r (a sphere's cast), in the box's frame."""
    ox, oy, oz = _local(s, o)
    dx, dy, dz = _local(s, d)
    lo, hi = s._lo, s._hi
    res = ray_rounded_aabb3(ox, oy, oz, dx, dy, dz, lo[0], lo[1], lo[2], hi[0], hi[1], hi[2],
                            r, m)
    if res[0] < 0.0:
        return None
    return res[0], tuple(_world(s, res[4], res[5], res[6])), res[7]


def _grown_hull(o: Any, d: Any, r: float, m: float, s: ConvexHull
                ) -> tuple[float, tuple[float, ...], bool] | None:
    """A ray against the hull grown by r: faces, edges as cylinders, corners as spheres."""
    res = _kp.ray_rounded_hull(o[0], o[1], o[2], d[0], d[1], d[2], s._verts, s._norms,
                               s._offs, s._edges, r, s._eps, m)
    if res[0] < 0.0:
        return None
    return res[0], (res[4], res[5], res[6]), res[7]


register_convex(OrientedBox, _grown_obb, (Capsule, AABB))
register_convex(ConvexHull, _grown_hull, (Capsule, AABB, OrientedBox))
