"""One kernel view of each shape: what the compiled kernels see of it.

Every module that hands a shape to compiled code (the sweeps' and distances' GJK, time of
impact, the World's collider table, the Simulation's statics) reads it through :func:`view`,
never through the shape's private fields. A :class:`ShapeView` holds:

- ``kind``: the shape's code in the collider table (``swept._kernels.world.KIND_*``);
- ``params``: its row of parameters in that table (centre and radius, segment ends, box
  corners, capsule ends and radius, plane normal and offset; a polygon has none: its corners go
  to the table's vertex pool, from ``polygon``);
- ``core`` and ``radius``: the convex core points (an ``(n, dim)`` read-only float64 array) that,
  grown by ``radius``, make the shape: a circle's centre, a segment's or capsule's ends, a box's or
  polygon's corners. A plane has no core (an empty array): it is a half-space, handled apart.

A new shape registers its view here with :func:`register_view`, next to its handlers for the
query families (see :mod:`swept.dispatch`).
"""

from __future__ import annotations

from collections.abc import Callable
from typing import TYPE_CHECKING, Any, NamedTuple

import numpy as np

from ._lazy import kernels
from .dispatch import Family
from .shapes import AABB, Capsule, Circle, Plane, Polygon, Segment, Sphere

if TYPE_CHECKING:
    from ._kernels import scene as _kw
else:
    _kw = kernels("scene")

__all__ = ["ShapeView", "view", "register_view", "core_shape", "VIEW"]


class ShapeView(NamedTuple):
    """A shape as the kernels see it (see the module's docstring)."""

    #: the collider-table kind code (``swept._kernels.world.KIND_*``)
    kind: int
    #: 2 or 3
    dim: int
    #: the collider-table parameter row (at most ``PARAM_WIDTH`` values)
    params: tuple[float, ...]
    #: the convex core points, ``(n, dim)`` read-only float64 (empty for a plane)
    core: np.ndarray
    #: the core is grown by this radius (0 for segments, boxes and polygons)
    radius: float
    #: a polygon's outward edge normals, ``(n, 2)`` read-only float64, edge i from corner i to
    #: i + 1 (None for every other shape)
    normals: np.ndarray | None = None


#: shape type -> function building its view
VIEW = Family("view", 1)


def register_view(cls: type, build: Callable[[Any], ShapeView]) -> None:
    """Register how a shape type is seen by the kernels."""
    VIEW.register(cls, build)


def core_shape(shape: Any) -> Any:
    """``shape``, or the shape it is exactly: a 2D capsule of radius 0 is its segment (3D
    capsules and a point-like core stay: there is no 3D segment type). Queries pass a radius-0
    capsule through this so it runs the very same handler, in the same order, as its segment."""
    if type(shape) is Capsule and shape.radius == 0.0 and shape.dim == 2 and shape.a != shape.b:
        return Segment(shape.a, shape.b)
    return shape


def view(shape: Any) -> ShapeView:
    """The kernel view of ``shape``; ``TypeError`` for something that is not a known shape."""
    build, _swapped = VIEW.lookup(shape)
    result: ShapeView = build(shape)
    return result


def readonly(rows: Any, dim: int) -> np.ndarray:
    """Rows of points as a read-only ``(n, dim)`` float64 array: the one array type every
    GJK-based kernel is compiled for (``Polygon`` corners are stored the same way)."""
    arr = np.array(rows, dtype=np.float64).reshape(-1, dim)
    arr.setflags(write=False)
    return arr


def _circle(s: Circle) -> ShapeView:
    return ShapeView(_kw.KIND_CIRCLE, 2, (*s.center, s.radius), readonly([s.center], 2),
                     s.radius)


def _sphere(s: Sphere) -> ShapeView:
    return ShapeView(_kw.KIND_SPHERE, 3, (*s.center, s.radius), readonly([s.center], 3),
                     s.radius)


def _segment(s: Segment) -> ShapeView:
    return ShapeView(_kw.KIND_SEGMENT, 2, (*s.a, *s.b), readonly([s.a, s.b], 2), 0.0)


def _capsule(s: Capsule) -> ShapeView:
    kind = _kw.KIND_CAPSULE2 if s.dim == 2 else _kw.KIND_CAPSULE3
    return ShapeView(kind, s.dim, (*s.a, *s.b, s.radius), readonly([s.a, s.b], s.dim), s.radius)


def _aabb(s: AABB) -> ShapeView:
    lo, hi = s.min, s.max
    if s.dim == 2:
        corners = [(lo[0], lo[1]), (hi[0], lo[1]), (hi[0], hi[1]), (lo[0], hi[1])]
        return ShapeView(_kw.KIND_AABB2, 2, (*lo, *hi), readonly(corners, 2), 0.0)
    corners3 = [(x, y, z) for x in (lo[0], hi[0]) for y in (lo[1], hi[1]) for z in (lo[2], hi[2])]
    return ShapeView(_kw.KIND_AABB3, 3, (*lo, *hi), readonly(corners3, 3), 0.0)


def _polygon(s: Polygon) -> ShapeView:
    # the polygon's own corner array, read-only already
    return ShapeView(_kw.KIND_POLYGON, 2, (), s._verts, 0.0, s._norms)


def _plane(s: Plane) -> ShapeView:
    kind = _kw.KIND_PLANE2 if s.dim == 2 else _kw.KIND_PLANE3
    return ShapeView(kind, s.dim, (*s.normal, s.offset), readonly([], s.dim), 0.0)


for _cls, _build in ((Circle, _circle), (Sphere, _sphere), (Segment, _segment),
                     (Capsule, _capsule), (AABB, _aabb), (Polygon, _polygon), (Plane, _plane)):
    register_view(_cls, _build)
