"""manifold(): up to two contact points where two shapes meet, for stacking and resting.

``manifold(a, b)`` returns a :class:`~swept.results.Manifold` or ``None``, under exactly the
conventions of :func:`swept.contact`:

- ``normal`` is the unit direction to move ``a`` out of ``b``: ``contact(a, b).normal``;
- ``points`` holds one or two :class:`~swept.results.ManifoldPoint`, the deepest first, whose
  depth is ``contact(a, b).depth``; each ``point`` lies on ``b``'s boundary and ``point -
  normal * depth`` on ``a``'s, with ``depth >= 0`` (0 where they just touch);
- separated shapes give ``None``.

Swapping the arguments reverses the normal, keeps the depths and moves each point onto the
other shape's boundary (``point - normal * depth``).

Two points come from flat faces meeting: 2D box against box, box against polygon, polygon
against polygon (reference face and clipped incident edge, :mod:`swept._kernels.manifold`), and
a segment, or a capsule whose core lies parallel to the face, against a face of a box or
polygon. Every other pair that ``contact()`` supports (circles, spheres, capsules, planes, 3D
boxes, a tilted capsule on a face, a corner poking into a segment) gives the one point of
``contact(a, b)``. Unsupported pairs raise ``TypeError`` naming both types.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

import numpy as np

from ._fast import typed_build
from ._lazy import kernels
from .contact import contact
from .dispatch import CONTACT, MANIFOLD
from .results import Manifold, ManifoldPoint
from .shapes import AABB, Capsule, Polygon, Segment
from .vec import Vec2
from .views import view

if TYPE_CHECKING:
    from ._kernels import manifold as _k
else:
    _k = kernels("manifold")

__all__ = ["manifold"]

_tuple_new = typed_build  # tuple.__new__, typed
_Raw = tuple[Any, ...]


# ----------------------------------------------------------------------------- pair handlers
# Each returns the kernel's flat tuple, or None for shapes with no flat faces to clip (a 3D
# box): then the pair gets contact()'s one point.

def _polygon(p: Polygon) -> tuple[np.ndarray, np.ndarray]:
    """A polygon's corners and outward edge normals, from its kernel view."""
    v = view(p)
    assert v.normals is not None
    return v.core, v.normals


def _core2(shape: Segment | Capsule) -> tuple[float, float, float, float, float]:
    """A 2D segment or capsule as its core's ends and its radius (0 for a segment)."""
    v = view(shape)
    (ax, ay), (bx, by) = v.core[0], v.core[-1]
    return float(ax), float(ay), float(bx), float(by), v.radius


def _polygon_polygon(a: Polygon, b: Polygon) -> _Raw:
    return _k.manifold_polygon_polygon(*_polygon(a), *_polygon(b))


def _aabb_polygon(a: AABB, b: Polygon) -> _Raw | None:
    if a.dim != 2:
        return None
    (x0, y0), (x1, y1) = a.min, a.max
    return _k.manifold_aabb_polygon(x0, y0, x1, y1, *_polygon(b))


def _aabb_aabb(a: AABB, b: AABB) -> _Raw | None:
    if a.dim != 2 or b.dim != 2:
        return None
    return _k.manifold_aabb_aabb(*a.min, *a.max, *b.min, *b.max)


def _core_polygon(a: Segment | Capsule, b: Polygon) -> _Raw | None:
    if a.dim != 2:
        return None
    return _k.manifold_capsule_polygon(*_core2(a), *_polygon(b))


def _core_aabb(a: Segment | Capsule, b: AABB) -> _Raw | None:
    if a.dim != 2 or b.dim != 2:
        return None
    (x0, y0), (x1, y1) = b.min, b.max
    return _k.manifold_capsule_aabb(*_core2(a), x0, y0, x1, y1)


# the pairs with a two-point kernel, both orders from one handler (swept.dispatch)
for _ta, _tb, _h in (
    (Polygon, Polygon, _polygon_polygon),
    (AABB, Polygon, _aabb_polygon),
    (AABB, AABB, _aabb_aabb),
    (Segment, Polygon, _core_polygon),
    (Capsule, Polygon, _core_polygon),
    (Segment, AABB, _core_aabb),
    (Capsule, AABB, _core_aabb),
):
    MANIFOLD.register((_ta, _tb), _h, flip=True)


def _point(x: float, y: float, depth: float) -> ManifoldPoint:
    mp: ManifoldPoint = _tuple_new(ManifoldPoint, (_tuple_new(Vec2, (x, y)), depth))
    return mp


def manifold(a: Any, b: Any) -> Manifold | None:
    """Where shape ``a`` meets shape ``b``: a :class:`Manifold` of one or two points (the
    deepest first), or ``None`` when they are apart.

    ``normal`` and the deepest depth are ``contact(a, b)``'s; each point is on ``b``'s
    boundary, ``point - normal * depth`` on ``a``'s. Raises ``TypeError`` naming both types
    for an unsupported pair or mixed dimensions.
    """
    entry = MANIFOLD.find(type(a), type(b))
    raw = None
    swapped = False
    if entry is not None:
        handler, swapped = entry
        raw = handler(b, a) if swapped else handler(a, b)
    if raw is None:
        # no flat faces to clip: contact()'s one point
        if not CONTACT.supports(type(a), type(b)):
            raise MANIFOLD.unsupported(a, b)
        try:
            c = contact(a, b)
        except TypeError:
            raise MANIFOLD.unsupported(a, b) from None
        if c is None:
            return None
        return _tuple_new(Manifold, (c.normal, (_tuple_new(ManifoldPoint, (c.point, c.depth)),)))
    hit, nx, ny, count, p1x, p1y, d1, p2x, p2y, d2 = raw
    if not hit:
        return None
    if swapped:
        # the same points on the other shape's boundary
        p1x, p1y = p1x - nx * d1, p1y - ny * d1
        p2x, p2y = p2x - nx * d2, p2y - ny * d2
        nx, ny = -nx, -ny
    first = _point(p1x, p1y, d1)
    points = (first,) if count == 1 else (first, _point(p2x, p2y, d2))
    # (+ 0.0 turns a -0.0 normal component into 0.0)
    return _tuple_new(Manifold, (_tuple_new(Vec2, (nx + 0.0, ny + 0.0)), points))
