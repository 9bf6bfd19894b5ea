"""contact(): how deep and which way two shapes overlap, and seed 002's ``axis_overlaps``.

``contact(a, b)`` returns a :class:`~swept.results.Contact` or ``None``:

- ``normal`` is the unit direction to move ``a`` out of ``b`` (``contact(ball, wall).normal``
  points out of the wall, toward the ball);
- ``depth >= 0`` is how far along it, so that ``a`` moved by ``normal * depth`` just touches
  ``b``; touching shapes give a contact with depth 0, separated ones ``None``;
- ``point`` lies on ``b``'s boundary where ``a`` reaches deepest into it, so ``point - normal *
  depth`` is ``a``'s deepest point, on ``a``'s boundary.

Swapping the arguments reverses the normal, keeps the depth and moves the point onto the other
shape's boundary by exactly that rule. Two exceptions, decided once: when two centres coincide
(circles, spheres, a centre on a point-like capsule core) the normal is
``COINCIDENT_NORMAL_2D`` / ``_3D`` (+x) in both orders, and when two boxes are centred on each
other along their shallowest axis the first goes the positive way along it in both orders. A
centre exactly on a capsule's core leaves along the perpendicular to the core nearest +x (+y for
a core along x). The geometry and every per-pair choice of point are in
:mod:`swept._kernels.contact`.

Supported pairs, both orders. 2D: circle, segment, capsule, box, polygon and plane against each
other (not plane-plane). 3D: sphere, capsule, box and plane against each other (not
plane-plane); oriented boxes and convex hulls join from :mod:`swept.convex3d`. Anything else,
or a 2D shape against a 3D one, raises ``TypeError`` naming both.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import TYPE_CHECKING, Any

import numpy as np

from ._lazy import kernels
from .dispatch import CONTACT, UNSUPPORTED, type_name
from .results import Contact, make_contact
from .shapes import AABB, Capsule, Circle, Plane, Polygon, Segment, Sphere
from .vec import Vec2, Vec3
from .views import core_shape, view

if TYPE_CHECKING:
    from ._kernels import contact as _k
else:
    _k = kernels("contact")

__all__ = ["contact", "axis_overlaps"]

_tuple_new = tuple.__new__

# A pair handler takes the two shapes in the table's order and returns the kernel's flat
# tuple, or UNSUPPORTED when the shapes' dimensions do not fit the pair (then contact() raises).
_Raw = tuple[Any, ...]
_Handler = Callable[[Any, Any], _Raw]
#: :data:`~swept.dispatch.UNSUPPORTED` typed as a handler's result, which it stands in for
_UNSUPPORTED: _Raw = UNSUPPORTED


# ----------------------------------------------------------------------------- pair handlers

def _polygon(p: Polygon) -> tuple[np.ndarray, np.ndarray]:
    """A polygon's corners and outward edge normals, from its kernel view."""
    v = view(p)
    assert v.normals is not None
    return v.core, v.normals


def _circle_circle(a: Circle, b: Circle) -> _Raw:
    (ax, ay), (bx, by) = a.center, b.center
    return _k.contact_circle_circle(ax, ay, a.radius, bx, by, b.radius)


def _circle_segment(a: Circle, b: Segment) -> _Raw:
    (cx, cy), (ax, ay), (bx, by) = a.center, b.a, b.b
    return _k.contact_circle_capsule(cx, cy, a.radius, ax, ay, bx, by, 0.0)


def _circle_capsule(a: Circle, b: Capsule) -> _Raw:
    if b.dim != 2:
        return _UNSUPPORTED
    (cx, cy), (ax, ay), (bx, by) = a.center, b.a, b.b
    return _k.contact_circle_capsule(cx, cy, a.radius, ax, ay, bx, by, b.radius)


def _circle_aabb(a: Circle, b: AABB) -> _Raw:
    if b.dim != 2:
        return _UNSUPPORTED
    (cx, cy), (x0, y0), (x1, y1) = a.center, b.min, b.max
    return _k.contact_circle_aabb(cx, cy, a.radius, x0, y0, x1, y1)


def _circle_polygon(a: Circle, b: Polygon) -> _Raw:
    cx, cy = a.center
    return _k.contact_circle_polygon(cx, cy, a.radius, *_polygon(b))


def _circle_plane(a: Circle, b: Plane) -> _Raw:
    if b.dim != 2:
        return _UNSUPPORTED
    (cx, cy), (nx, ny) = a.center, b.normal
    return _k.contact_circle_plane(cx, cy, a.radius, nx, ny, b.offset)


def _core2(shape: Segment | Capsule) -> tuple[float, float, float, float, float]:
    """A 2D segment or capsule as its core's ends and its radius (0 for a segment)."""
    (ax, ay), (bx, by) = shape.a, shape.b
    return ax, ay, bx, by, (shape.radius if isinstance(shape, Capsule) else 0.0)


def _core_core(a: Segment | Capsule, b: Segment | Capsule) -> _Raw:
    if a.dim != b.dim:
        return _UNSUPPORTED
    if a.dim == 3:
        assert isinstance(a, Capsule) and isinstance(b, Capsule)
        (a0x, a0y, a0z), (a1x, a1y, a1z) = a.a, a.b
        (b0x, b0y, b0z), (b1x, b1y, b1z) = b.a, b.b
        return _k.contact_capsule_capsule3(a0x, a0y, a0z, a1x, a1y, a1z, a.radius,
                                           b0x, b0y, b0z, b1x, b1y, b1z, b.radius)
    return _k.contact_capsule_capsule(*_core2(a), *_core2(b))


def _core_aabb(a: Segment | Capsule, b: AABB) -> _Raw:
    if a.dim != b.dim:
        return _UNSUPPORTED
    if b.dim == 3:
        assert isinstance(a, Capsule)
        (a0x, a0y, a0z), (a1x, a1y, a1z) = a.a, a.b
        (x0, y0, z0), (x1, y1, z1) = b.min, b.max
        return _k.contact_capsule_aabb3(a0x, a0y, a0z, a1x, a1y, a1z, a.radius,
                                        x0, y0, z0, x1, y1, z1)
    (x0, y0), (x1, y1) = b.min, b.max
    return _k.contact_capsule_aabb(*_core2(a), x0, y0, x1, y1)


def _core_polygon(a: Segment | Capsule, b: Polygon) -> _Raw:
    if a.dim != 2:
        return _UNSUPPORTED
    return _k.contact_capsule_polygon(*_core2(a), *_polygon(b))


def _core_plane(a: Segment | Capsule, b: Plane) -> _Raw:
    if a.dim != b.dim:
        return _UNSUPPORTED
    if b.dim == 3:
        assert isinstance(a, Capsule)
        (a0x, a0y, a0z), (a1x, a1y, a1z) = a.a, a.b
        nx, ny, nz = b.normal
        return _k.contact_capsule_plane3(a0x, a0y, a0z, a1x, a1y, a1z, a.radius,
                                         nx, ny, nz, b.offset)
    nx, ny = b.normal
    return _k.contact_capsule_plane(*_core2(a), nx, ny, b.offset)


def _polygon_polygon(a: Polygon, b: Polygon) -> _Raw:
    return _k.contact_polygon_polygon(*_polygon(a), *_polygon(b))


def _polygon_plane(a: Polygon, b: Plane) -> _Raw:
    if b.dim != 2:
        return _UNSUPPORTED
    nx, ny = b.normal
    return _k.contact_polygon_plane(_polygon(a)[0], nx, ny, b.offset)


def _aabb_aabb(a: AABB, b: AABB) -> _Raw:
    if a.dim != b.dim:
        return _UNSUPPORTED
    if a.dim == 3:
        return _k.contact_aabb_aabb3(*a.min, *a.max, *b.min, *b.max)
    return _k.contact_aabb_aabb(*a.min, *a.max, *b.min, *b.max)


def _aabb_polygon(a: AABB, b: Polygon) -> _Raw:
    if a.dim != 2:
        return _UNSUPPORTED
    (x0, y0), (x1, y1) = a.min, a.max
    return _k.contact_aabb_polygon(x0, y0, x1, y1, *_polygon(b))


def _aabb_plane(a: AABB, b: Plane) -> _Raw:
    if a.dim != b.dim:
        return _UNSUPPORTED
    if a.dim == 3:
        (x0, y0, z0), (x1, y1, z1), (nx, ny, nz) = a.min, a.max, b.normal
        return _k.contact_aabb_plane3(x0, y0, z0, x1, y1, z1, nx, ny, nz, b.offset)
    (x0, y0), (x1, y1), (nx, ny) = a.min, a.max, b.normal
    return _k.contact_aabb_plane(x0, y0, x1, y1, nx, ny, b.offset)


def _sphere_sphere(a: Sphere, b: Sphere) -> _Raw:
    (ax, ay, az), (bx, by, bz) = a.center, b.center
    return _k.contact_sphere_sphere(ax, ay, az, a.radius, bx, by, bz, b.radius)


def _sphere_capsule(a: Sphere, b: Capsule) -> _Raw:
    if b.dim != 3:
        return _UNSUPPORTED
    (cx, cy, cz), (ax, ay, az), (bx, by, bz) = a.center, b.a, b.b
    return _k.contact_sphere_capsule(cx, cy, cz, a.radius, ax, ay, az, bx, by, bz, b.radius)


def _sphere_aabb(a: Sphere, b: AABB) -> _Raw:
    if b.dim != 3:
        return _UNSUPPORTED
    (cx, cy, cz), (x0, y0, z0), (x1, y1, z1) = a.center, b.min, b.max
    return _k.contact_sphere_aabb(cx, cy, cz, a.radius, x0, y0, z0, x1, y1, z1)


def _sphere_plane(a: Sphere, b: Plane) -> _Raw:
    if b.dim != 3:
        return _UNSUPPORTED
    (cx, cy, cz), (nx, ny, nz) = a.center, b.normal
    return _k.contact_sphere_plane(cx, cy, cz, a.radius, nx, ny, nz, b.offset)


# ----------------------------------------------------------------------------- dispatch
# Each pair is registered once; the reversed order is served by the same handler and its
# result flipped (see swept.dispatch).

for _ta, _tb, _h in (
    (Circle, Circle, _circle_circle),
    (Circle, Segment, _circle_segment),
    (Circle, Capsule, _circle_capsule),
    (Circle, AABB, _circle_aabb),
    (Circle, Polygon, _circle_polygon),
    (Circle, Plane, _circle_plane),
    (Segment, Segment, _core_core),
    (Segment, Capsule, _core_core),
    (Segment, AABB, _core_aabb),
    (Segment, Polygon, _core_polygon),
    (Segment, Plane, _core_plane),
    (Capsule, Capsule, _core_core),
    (Capsule, AABB, _core_aabb),
    (Capsule, Polygon, _core_polygon),
    (Capsule, Plane, _core_plane),
    (Polygon, Polygon, _polygon_polygon),
    (AABB, Polygon, _aabb_polygon),
    (Polygon, Plane, _polygon_plane),
    (AABB, AABB, _aabb_aabb),
    (AABB, Plane, _aabb_plane),
    (Sphere, Sphere, _sphere_sphere),
    (Sphere, Capsule, _sphere_capsule),
    (Sphere, AABB, _sphere_aabb),
    (Sphere, Plane, _sphere_plane),
):
    CONTACT.register((_ta, _tb), _h, flip=True)

_TABLE = CONTACT.table


def contact(a: Any, b: Any) -> Contact | None:
    """How to move shape ``a`` out of shape ``b``: a :class:`Contact` (depth 0 when they just
    touch), or ``None`` when they are apart.

    ``normal`` points the way ``a`` must move, ``depth`` is how far, and ``point`` is on
    ``b``'s boundary where ``a`` reaches deepest. A centre inside a box or polygon leaves
    through the nearest face; coincident centres leave along ``COINCIDENT_NORMAL_2D`` /
    ``_3D``. Raises ``TypeError`` naming both types for an unsupported pair or mixed
    dimensions.
    """
    if type(a) is Capsule:
        a = core_shape(a)
    if type(b) is Capsule:
        b = core_shape(b)
    entry = _TABLE.get((type(a), type(b)))
    if entry is None:
        entry = CONTACT.lookup(a, b)
    handler, swapped = entry
    raw = handler(b, a) if swapped else handler(a, b)
    if raw is UNSUPPORTED:
        raise CONTACT.unsupported(a, b)
    if not raw[0]:
        return None
    # (+ 0.0 turns a -0.0 normal component into 0.0)
    if len(raw) == 6:
        if swapped:
            raw = _k.flip_contact2(*raw)
        return make_contact(_tuple_new(Vec2, (raw[1] + 0.0, raw[2] + 0.0)), raw[3],
                            _tuple_new(Vec2, (raw[4], raw[5])))
    if swapped:
        raw = _k.flip_contact3(*raw)
    return make_contact(_tuple_new(Vec3, (raw[1] + 0.0, raw[2] + 0.0, raw[3] + 0.0)), raw[4],
                        _tuple_new(Vec3, (raw[5], raw[6], raw[7])))


def axis_overlaps(a: AABB, b: AABB) -> Vec2 | Vec3:
    """How deep two boxes overlap on each axis: the shorter push that clears that axis,
    negative where the axis is already clear (by the gap). Seed 002's helper; the boxes
    overlap (or touch) exactly when no entry is negative."""
    if not isinstance(a, AABB) or not isinstance(b, AABB) or a.dim != b.dim:
        raise TypeError(f"axis_overlaps() needs two boxes of one dimension, got {type_name(a)} "
                        f"and {type_name(b)}")
    if a.dim == 3:
        return _tuple_new(Vec3, _k.aabb_axis_overlaps3(*a.min, *a.max, *b.min, *b.max))
    return _tuple_new(Vec2, _k.aabb_axis_overlaps(*a.min, *a.max, *b.min, *b.max))
