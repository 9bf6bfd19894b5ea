"""The shape types: frozen, hashable, validated on construction.

2D: :class:`Circle`, :class:`Segment`, :class:`AABB`, :class:`Polygon`, :class:`Capsule`,
:class:`Plane`, :class:`Ray`. 3D: :class:`Sphere`, and :class:`AABB`, :class:`Plane`,
:class:`Capsule` and :class:`Ray` built with 3-vectors. Every shape has ``dim`` (2 or 3) and
``aabb`` (its bounding box; infinite for planes and unbounded rays).

Invalid input (NaN, infinities, magnitudes beyond :data:`~swept.constants.MAX_COORDINATE`,
a negative radius, a zero-length segment, a non-convex, collinear or too-short polygon, a box
with ``min > max``) raises ``ValueError`` naming the argument; a string where a number belongs
raises ``TypeError``. Vectors given as directions (a plane's normal, a ray's direction) are
normalised after scaling by their largest component, so any nonzero one is accepted.
"""

from __future__ import annotations

import math
from typing import TYPE_CHECKING, Any

import numpy as np

from ._lazy import kernels
from .constants import (
    AXIS_PARALLEL_SINE,
    POLYGON_COLLINEAR_TOLERANCE,
    POLYGON_TURNING_SLACK,
    ROTATION_TOLERANCE,
)
from .hull import hull2d, hull3d
from .vec import Vec2, Vec3, as_finite, as_vec2, as_vec3, as_vector, unit

if TYPE_CHECKING:
    from ._kernels import ray as _kray
else:
    _kray = kernels("ray")

__all__ = [
    "Shape",
    "Circle",
    "Segment",
    "AABB",
    "Polygon",
    "Capsule",
    "Plane",
    "Ray",
    "Sphere",
    "OrientedBox",
    "ConvexHull",
    "POLYGON_COLLINEAR_TOLERANCE",
]

_tuple_new = tuple.__new__
_INF = math.inf



class Shape:
    """Base of every shape: immutable, compared and hashed by value."""

    __slots__ = ()
    #: the number of dimensions, 2 or 3
    dim: int

    def _key(self) -> tuple[Any, ...]:
        """The values that define the shape (every concrete shape defines it)."""
        raise TypeError(f"{type(self).__name__} is not a concrete shape")

    def __setattr__(self, name: str, value: Any) -> None:
        raise AttributeError(f"{type(self).__name__} is immutable")

    def __delattr__(self, name: str) -> None:
        raise AttributeError(f"{type(self).__name__} is immutable")

    def __eq__(self, other: object) -> bool:
        if type(other) is not type(self):
            return NotImplemented
        return self._key() == other._key()

    def __ne__(self, other: object) -> bool:
        eq = self.__eq__(other)
        return eq if eq is NotImplemented else not eq

    def __hash__(self) -> int:
        return hash((type(self).__name__, self._key()))

    def __reduce__(self) -> tuple[Any, ...]:
        # restore the stored state as it is: re-running __init__ would renormalise vectors
        state = {k: getattr(self, k) for k in type(self).__slots__}  # type: ignore[var-annotated]
        return (_rebuild, (type(self), state))

    @property
    def aabb(self) -> AABB:
        """The smallest axis-aligned box holding the shape."""
        raise TypeError(f"{type(self).__name__} is not a concrete shape")


def _set(obj: Any, name: str, value: Any) -> None:
    object.__setattr__(obj, name, value)


def _rebuild(cls: type, state: dict[str, Any]) -> Any:
    """Unpickle a shape from its stored state, without re-validating it. Its arrays come
    back read-only, as the constructor leaves them (unpickled and deep-copied arrays are
    writable: a query on them compiled its kernels a second time, for writable arrays)."""
    obj: Any = object.__new__(cls)
    for k, v in state.items():
        if isinstance(v, np.ndarray):
            v.setflags(write=False)
        object.__setattr__(obj, k, v)
    return obj


def _radius(value: Any, name: str = "radius") -> float:
    return as_finite(value, name, minimum=0.0)


class Circle(Shape):
    """A solid disc: ``center`` (2D) and ``radius >= 0``."""

    __slots__ = ("center", "radius")
    center: Vec2
    radius: float
    dim = 2

    def __init__(self, center: Any, radius: float) -> None:
        _set(self, "center", as_vec2(center, "center"))
        _set(self, "radius", _radius(radius))

    def _key(self) -> tuple[Any, ...]:
        return (self.center, self.radius)

    def __repr__(self) -> str:
        return f"Circle(center={tuple(self.center)}, radius={self.radius!r})"

    @property
    def aabb(self) -> AABB:
        """The smallest axis-aligned box holding the circle."""
        cx, cy = self.center
        r = self.radius
        return AABB._unchecked(Vec2(cx - r, cy - r), Vec2(cx + r, cy + r))

    def translated(self, offset: Any) -> Circle:
        """The same circle moved by ``offset``."""
        return Circle(self.center + as_vec2(offset, "offset"), self.radius)


class Sphere(Shape):
    """A solid ball: ``center`` (3D) and ``radius >= 0``."""

    __slots__ = ("center", "radius")
    center: Vec3
    radius: float
    dim = 3

    def __init__(self, center: Any, radius: float) -> None:
        _set(self, "center", as_vec3(center, "center"))
        _set(self, "radius", _radius(radius))

    def _key(self) -> tuple[Any, ...]:
        return (self.center, self.radius)

    def __repr__(self) -> str:
        return f"Sphere(center={tuple(self.center)}, radius={self.radius!r})"

    @property
    def aabb(self) -> AABB:
        """The smallest axis-aligned box holding the sphere."""
        c = self.center
        r = self.radius
        return AABB._unchecked(c - (r, r, r), c + (r, r, r))

    def translated(self, offset: Any) -> Sphere:
        """The same sphere moved by ``offset``."""
        return Sphere(self.center + as_vec3(offset, "offset"), self.radius)


class Segment(Shape):
    """A line segment from ``a`` to ``b`` (2D), with no thickness; ``a != b``."""

    __slots__ = ("a", "b", "_normals")
    a: Vec2
    b: Vec2
    #: the left and right unit normals, built by the ray kernel's own formula on first use
    #: (:meth:`__getattr__`; making a segment loads no kernel): a ray cast hands one out
    #: rather than build a vector per hit
    _normals: tuple[Vec2, Vec2]
    dim = 2

    def __init__(self, a: Any, b: Any) -> None:
        pa = as_vec2(a, "a")
        pb = as_vec2(b, "b")
        if pa == pb:
            raise ValueError(f"segment needs a nonzero length: a and b are both {tuple(pa)}")
        _set(self, "a", pa)
        _set(self, "b", pb)

    def __getattr__(self, name: str) -> Any:
        # only an unset slot reaches here: the normals, on their first read
        if name != "_normals":
            raise AttributeError(f"'Segment' object has no attribute {name!r}")
        a, b = self.a, self.b
        lx, ly, rx, ry = _kray.segment_normals2(a[0], a[1], b[0], b[1])
        normals = (Vec2(lx, ly), Vec2(rx, ry))
        _set(self, "_normals", normals)
        return normals

    def _key(self) -> tuple[Any, ...]:
        return (self.a, self.b)

    def __repr__(self) -> str:
        return f"Segment(a={tuple(self.a)}, b={tuple(self.b)})"

    @property
    def length(self) -> float:
        """The distance from ``a`` to ``b``."""
        return self.a.distance_to(self.b)

    @property
    def normal(self) -> Vec2:
        """The unit normal ``(b - a).perp()`` normalised (its left side in a y-up frame)."""
        return self._normals[0]

    @property
    def aabb(self) -> AABB:
        """The smallest axis-aligned box holding the segment."""
        (ax, ay), (bx, by) = self.a, self.b
        return AABB._unchecked(Vec2(min(ax, bx), min(ay, by)), Vec2(max(ax, bx), max(ay, by)))

    def translated(self, offset: Any) -> Segment:
        """The same segment moved by ``offset``."""
        o = as_vec2(offset, "offset")
        return Segment(self.a + o, self.b + o)


class AABB(Shape):
    """An axis-aligned box from ``min`` to ``max`` (2D or 3D), solid; ``min <= max``.

    A box of zero width (``min == max`` on an axis) is allowed: it is a flat box, or a point.
    """

    __slots__ = ("min", "max", "dim")
    min: Vec2 | Vec3
    max: Vec2 | Vec3
    dim: int

    def __init__(self, min: Any, max: Any) -> None:  # noqa: A002 - the public names
        lo = as_vector(min, "min")
        hi = as_vector(max, "max")
        if len(lo) != len(hi):
            raise ValueError(f"min and max must have the same dimension, got {lo} and {hi}")
        for i, (a, b) in enumerate(zip(lo, hi)):
            if a > b:
                axis = "xyz"[i]
                raise ValueError(f"min.{axis} ({a}) must not exceed max.{axis} ({b})")
        _set(self, "min", lo)
        _set(self, "max", hi)
        _set(self, "dim", len(lo))

    @classmethod
    def _unchecked(cls, lo: Vec2 | Vec3, hi: Vec2 | Vec3) -> AABB:
        """Build without validation (bounds may be infinite): for bounding boxes."""
        box = object.__new__(cls)
        _set(box, "min", lo)
        _set(box, "max", hi)
        _set(box, "dim", len(lo))
        return box

    @classmethod
    def from_center(cls, center: Any, half_extents: Any) -> AABB:
        """The box centred on ``center`` reaching ``half_extents`` (each >= 0) each way."""
        c = as_vector(center, "center")
        h = as_vector(half_extents, "half_extents")
        if len(c) != len(h):
            raise ValueError("center and half_extents must have the same dimension")
        if any(v < 0 for v in h):
            raise ValueError(f"half_extents must be >= 0, got {tuple(h)}")
        return cls(c - h, c + h)

    def _key(self) -> tuple[Any, ...]:
        return (self.min, self.max)

    def __repr__(self) -> str:
        return f"AABB(min={tuple(self.min)}, max={tuple(self.max)})"

    @property
    def center(self) -> Vec2 | Vec3:
        """The middle of the box."""
        return (self.min + self.max) * 0.5

    @property
    def half_extents(self) -> Vec2 | Vec3:
        """Half the box's size on each axis."""
        return (self.max - self.min) * 0.5

    @property
    def aabb(self) -> AABB:
        """The box itself."""
        return self

    def translated(self, offset: Any) -> AABB:
        """The same box moved by ``offset``."""
        o = as_vector(offset, "offset")
        return AABB(self.min + o, self.max + o)

    def overlaps(self, other: AABB) -> bool:
        """Whether two boxes overlap or touch."""
        return all(a <= d and c <= b for a, b, c, d in zip(self.min, self.max, other.min,
                                                           other.max))

    def union(self, other: AABB) -> AABB:
        """The smallest box holding both boxes."""
        lo = [min(a, b) for a, b in zip(self.min, other.min)]
        hi = [max(a, b) for a, b in zip(self.max, other.max)]
        mk = Vec2 if self.dim == 2 else Vec3
        return AABB._unchecked(mk(*lo), mk(*hi))


def _clean_ring(points: list[Vec2]) -> list[Vec2]:
    """Drop repeated points and the middle one of any collinear triple, around the ring."""
    # repeated points (including last == first)
    ring: list[Vec2] = []
    for p in points:
        if not ring or p != ring[-1]:
            ring.append(p)
    while len(ring) > 1 and ring[0] == ring[-1]:
        ring.pop()
    # collinear middles, relative to the edge lengths involved
    changed = True
    guard = 0
    while changed and len(ring) >= 3 and guard < 4 * len(points) + 4:
        guard += 1
        changed = False
        n = len(ring)
        for i in range(n):
            a, b, c = ring[i - 1], ring[i], ring[(i + 1) % n]
            e1 = b - a
            e2 = c - b
            cr = e1.cross(e2)
            scale = e1.length() * e2.length()
            # collinear: b lies on the line through a and c, going the same way
            if abs(cr) <= POLYGON_COLLINEAR_TOLERANCE * scale and e1.dot(e2) > 0.0:
                del ring[i]
                changed = True
                break
    return ring


class Polygon(Shape):
    """A solid convex polygon (2D), given by its corners in order, in either winding.

    The corners are stored in one canonical order, counter-clockwise in a y-up frame (the
    signed area is positive; on a y-down screen they run clockwise), with repeated points and
    collinear middle points dropped. ``normals[i]`` is the outward unit normal of the edge
    from ``points[i]`` to ``points[i + 1]``.
    """

    __slots__ = ("points", "normals", "_corners", "_verts", "_norms")
    points: tuple[Vec2, ...]
    normals: tuple[Vec2, ...]
    _corners: np.ndarray
    _verts: np.ndarray
    _norms: np.ndarray
    dim = 2

    def __init__(self, points: Any) -> None:
        if isinstance(points, np.ndarray) and points.ndim == 2:
            raw = [as_vec2(p, f"points[{i}]") for i, p in enumerate(points)]
        else:
            try:
                items = list(points)
            except TypeError:
                raise TypeError(
                    f"points must be a sequence of 2D points, not {type(points).__name__}"
                ) from None
            raw = [as_vec2(p, f"points[{i}]") for i, p in enumerate(items)]
        if len(raw) < 3:
            raise ValueError(f"points: a polygon needs at least 3 points, got {len(raw)}")
        ring = _clean_ring(raw)
        if len(ring) < 3:
            raise ValueError(
                "points: the polygon has zero area (fewer than 3 distinct, non-collinear points)"
            )
        area2 = 0.0
        n = len(ring)
        for i in range(n):
            area2 += ring[i].cross(ring[(i + 1) % n])
        if area2 == 0.0:
            raise ValueError("points: the polygon has zero area")
        if area2 < 0.0:
            ring.reverse()
        # convex: every turn goes the same way, and the boundary winds around exactly once
        turning = 0.0
        for i in range(n):
            e1 = ring[(i + 1) % n] - ring[i]
            e2 = ring[(i + 2) % n] - ring[(i + 1) % n]
            if e1.cross(e2) <= 0.0:
                raise ValueError(
                    f"points: the polygon is not convex (it turns the other way at "
                    f"{tuple(ring[(i + 1) % n])})"
                )
            turning += math.atan2(e1.cross(e2), e1.dot(e2))
        if turning > 2.0 * math.pi + POLYGON_TURNING_SLACK:
            raise ValueError("points: the polygon is not convex (its boundary crosses itself)")
        normals = []
        for i in range(n):
            e = ring[(i + 1) % n] - ring[i]
            normals.append(Vec2(e[1] + 0.0, 0.0 - e[0]).normalized())
        # the kernels' copy: corners and edge normals stacked in one (2, n, 2) array (a ray
        # cast unboxes one array, not two), and each half as a view of it
        corners = np.array([ring, normals], dtype=np.float64)
        corners.setflags(write=False)
        _set(self, "points", tuple(ring))
        _set(self, "normals", tuple(normals))
        _set(self, "_corners", corners)
        _set(self, "_verts", corners[0])
        _set(self, "_norms", corners[1])

    @classmethod
    def box(cls, half_w: float, half_h: float, center: Any = (0.0, 0.0),
            angle: float = 0.0) -> Polygon:
        """A rectangle of half-size ``half_w`` by ``half_h`` (both > 0), centred on ``center``
        and turned by ``angle`` radians."""
        hw = as_finite(half_w, "half_w")
        hh = as_finite(half_h, "half_h")
        if hw <= 0.0:
            raise ValueError(f"half_w must be > 0, got {half_w!r}")
        if hh <= 0.0:
            raise ValueError(f"half_h must be > 0, got {half_h!r}")
        box = cls([(-hw, -hh), (hw, -hh), (hw, hh), (-hw, hh)])
        c = as_vec2(center, "center")
        a = as_finite(angle, "angle")
        if c == (0.0, 0.0) and a == 0.0:
            return box
        return box.placed(c, a)

    @classmethod
    def hull(cls, points: Any) -> Polygon:
        """The convex hull of 2D ``points`` (any order; duplicates, collinear runs and inner
        points dropped), by Andrew's monotone chain. Fewer than 3 points off one line raise
        ``ValueError`` naming ``points``."""
        return cls(hull2d(points))

    @classmethod
    def regular(cls, n: int, radius: float, center: Any = (0.0, 0.0),
                angle: float = 0.0) -> Polygon:
        """A regular ``n``-gon (n >= 3) with corners ``radius`` (> 0) from ``center``."""
        if isinstance(n, bool) or not isinstance(n, (int, np.integer)):
            raise TypeError(f"n must be an integer >= 3, not {type(n).__name__}")
        if n < 3:
            raise ValueError(f"n must be an integer >= 3, got {n!r}")
        n = int(n)
        r = as_finite(radius, "radius")
        if r <= 0.0:
            raise ValueError(f"radius must be > 0, got {radius!r}")
        c = as_vec2(center, "center")
        a0 = as_finite(angle, "angle")
        return cls([c + Vec2(r * math.cos(a0 + 2 * math.pi * i / n),
                             r * math.sin(a0 + 2 * math.pi * i / n)) for i in range(n)])

    def placed(self, position: Any, angle: float = 0.0) -> Polygon:
        """This polygon turned by ``angle`` radians about the origin, then moved by
        ``position``: its local corners put into the world."""
        p = as_vec2(position, "position")
        a = as_finite(angle, "angle")
        c, s = math.cos(a), math.sin(a)
        px, py = p
        return Polygon([(c * x - s * y + px, s * x + c * y + py) for x, y in self.points])

    def translated(self, offset: Any) -> Polygon:
        """The same polygon moved by ``offset``."""
        return self.placed(offset, 0.0)

    def _key(self) -> tuple[Any, ...]:
        return (self.points,)

    def __repr__(self) -> str:
        return f"Polygon({[tuple(p) for p in self.points]})"

    @property
    def centroid(self) -> Vec2:
        """The centre of area."""
        cx = cy = a2 = 0.0
        pts = self.points
        n = len(pts)
        ox, oy = pts[0]
        for i in range(n):
            x0, y0 = pts[i][0] - ox, pts[i][1] - oy
            x1, y1 = pts[(i + 1) % n][0] - ox, pts[(i + 1) % n][1] - oy
            cr = x0 * y1 - x1 * y0
            a2 += cr
            cx += (x0 + x1) * cr
            cy += (y0 + y1) * cr
        return Vec2(ox + cx / (3.0 * a2), oy + cy / (3.0 * a2))

    @property
    def area(self) -> float:
        """The area (positive)."""
        pts = self.points
        n = len(pts)
        return 0.5 * sum(pts[i].cross(pts[(i + 1) % n]) for i in range(n))

    @property
    def aabb(self) -> AABB:
        """The smallest axis-aligned box holding the polygon."""
        v = self._verts
        lo = v.min(axis=0)
        hi = v.max(axis=0)
        return AABB._unchecked(Vec2(lo[0], lo[1]), Vec2(hi[0], hi[1]))


class Capsule(Shape):
    """A segment from ``a`` to ``b`` grown by ``radius`` (2D or 3D): a stadium or a pill.

    ``a == b`` is allowed, and is a circle (sphere) of that radius.
    """

    __slots__ = ("a", "b", "radius", "dim")
    a: Vec2 | Vec3
    b: Vec2 | Vec3
    radius: float
    dim: int

    def __init__(self, a: Any, b: Any, radius: float) -> None:
        pa = as_vector(a, "a")
        pb = as_vector(b, "b")
        if len(pa) != len(pb):
            raise ValueError("a and b must have the same dimension")
        _set(self, "a", pa)
        _set(self, "b", pb)
        _set(self, "radius", _radius(radius))
        _set(self, "dim", len(pa))

    def _key(self) -> tuple[Any, ...]:
        return (self.a, self.b, self.radius)

    def __repr__(self) -> str:
        return f"Capsule(a={tuple(self.a)}, b={tuple(self.b)}, radius={self.radius!r})"

    @property
    def aabb(self) -> AABB:
        """The smallest axis-aligned box holding the capsule."""
        r = self.radius
        lo = [min(p, q) - r for p, q in zip(self.a, self.b)]
        hi = [max(p, q) + r for p, q in zip(self.a, self.b)]
        mk = Vec2 if self.dim == 2 else Vec3
        return AABB._unchecked(mk(*lo), mk(*hi))

    def translated(self, offset: Any) -> Capsule:
        """The same capsule moved by ``offset``."""
        o = as_vector(offset, "offset")
        return Capsule(self.a + o, self.b + o, self.radius)


class Plane(Shape):
    """A half-plane (2D) or half-space (3D): the solid side is where ``dot(normal, p) <
    offset``; the boundary is ``dot(normal, p) == offset``.

    ``normal`` is normalised on construction, and ``offset`` divided by the same length, so
    the plane is the same set of points: ``Plane((0, 2), 4)`` is ``Plane((0, 1), 2)``. The
    normal points out of the solid, toward the free side.
    """

    __slots__ = ("normal", "offset", "dim")
    normal: Vec2 | Vec3
    offset: float
    dim: int

    def __init__(self, normal: Any, offset: float = 0.0) -> None:
        n = as_vector(normal, "normal")
        d = as_finite(offset, "offset")
        u, length = unit(n, "normal")
        # the offset along the unit normal: a tiny normal with a large offset puts the plane
        # beyond the supported range
        offset_unit = as_finite(d / length, "offset (divided by the normal's length)")
        _set(self, "normal", u)
        _set(self, "offset", offset_unit)
        _set(self, "dim", len(n))

    @classmethod
    def through(cls, point: Any, normal: Any) -> Plane:
        """The plane through ``point`` with outward ``normal``."""
        n = as_vector(normal, "normal")
        p = as_vector(point, "point")
        if len(p) != len(n):
            raise ValueError("point and normal must have the same dimension")
        n, _ = unit(n, "normal")
        return cls(n, n.dot(p))

    def _key(self) -> tuple[Any, ...]:
        return (self.normal, self.offset)

    def __repr__(self) -> str:
        return f"Plane(normal={tuple(self.normal)}, offset={self.offset!r})"

    def translated(self, offset: Any) -> Plane:
        """The same plane moved by ``offset``."""
        o = as_vector(offset, "offset")
        if len(o) != self.dim:
            raise ValueError("offset must have the plane's dimension")
        return Plane(self.normal, self.offset + self.normal.dot(o))

    def signed_distance(self, point: Any) -> float:
        """How far ``point`` is outside the plane (negative inside the solid)."""
        return self.normal.dot(as_vector(point, "point")) - self.offset

    @property
    def aabb(self) -> AABB:
        """The plane's bounding box: infinite, except along an axis it is square to."""
        n = self.normal
        lo = [-_INF] * self.dim
        hi = [_INF] * self.dim
        for i, c in enumerate(n):
            if abs(c) == 1.0:
                # the solid is everything below (or above) the boundary along this axis
                if c > 0:
                    hi[i] = self.offset
                else:
                    lo[i] = -self.offset
        mk = Vec2 if self.dim == 2 else Vec3
        return AABB._unchecked(mk(*lo), mk(*hi))


class Ray(Shape):
    """A ray: ``origin``, a unit ``direction`` (normalised for you; zero is an error) and
    ``max_distance`` (>= 0, default infinity), in length units along the ray."""

    __slots__ = ("origin", "direction", "max_distance", "dim", "_args")
    origin: Vec2 | Vec3
    direction: Vec2 | Vec3
    max_distance: float
    dim: int
    #: origin, direction and max_distance in one flat tuple, as the ray kernels take them
    _args: tuple[float, ...]

    def __init__(self, origin: Any, direction: Any, max_distance: float = _INF) -> None:
        o = as_vector(origin, "origin")
        d = as_vector(direction, "direction")
        if len(o) != len(d):
            raise ValueError("origin and direction must have the same dimension")
        u, _ = unit(d, "direction")
        m = as_finite(max_distance, "max_distance", minimum=0.0, allow_inf=True)
        _set(self, "origin", o)
        _set(self, "direction", u)
        _set(self, "max_distance", m)
        _set(self, "dim", len(o))
        _set(self, "_args", (*o, *u, m))

    @classmethod
    def between(cls, start: Any, end: Any) -> Ray:
        """The ray from ``start`` toward ``end``, reaching exactly to it."""
        s = as_vector(start, "start")
        e = as_vector(end, "end")
        if len(s) != len(e):
            raise ValueError("start and end must have the same dimension")
        d = e - s
        if d == (0.0,) * len(d):
            raise ValueError("end: start and end must differ")
        # the unit direction and the exact length, scaled first (no underflow for close points)
        _, length = unit(d, "end")
        return cls(s, d, length)

    def _key(self) -> tuple[Any, ...]:
        return (self.origin, self.direction, self.max_distance)

    def __repr__(self) -> str:
        return (f"Ray(origin={tuple(self.origin)}, direction={tuple(self.direction)}, "
                f"max_distance={self.max_distance!r})")

    def at(self, distance: float) -> Vec2 | Vec3:
        """The point ``distance`` along the ray."""
        return self.origin + self.direction * as_finite(distance, "distance")

    @property
    def aabb(self) -> AABB:
        """The box around the ray's reach (infinite when ``max_distance`` is)."""
        o = self.origin
        d = self.direction
        m = self.max_distance
        lo, hi = [], []
        for oc, dc in zip(o, d):
            end = oc + dc * m if dc != 0.0 else oc
            lo.append(min(oc, end))
            hi.append(max(oc, end))
        mk = Vec2 if self.dim == 2 else Vec3
        return AABB._unchecked(mk(*lo), mk(*hi))


# ------------------------------------------------------------------ 3D boxes and convex hulls

def _bounds3(points: np.ndarray) -> AABB:
    """The axis-aligned box of an (n, 3) array of points."""
    lo = points.min(axis=0)
    hi = points.max(axis=0)
    return AABB._unchecked(Vec3(*lo), Vec3(*hi))


def _rotation(value: Any) -> tuple[Vec3, Vec3, Vec3]:
    """A rotation given as a 3x3 matrix or a unit quaternion ``(w, x, y, z)``, as the matrix's
    three columns (the rotated x, y and z axes), exactly orthonormal; ValueError naming
    ``rotation`` for anything else (see :data:`~swept.constants.ROTATION_TOLERANCE`)."""
    if isinstance(value, (str, bytes)):
        raise TypeError("rotation must be a 3x3 matrix or a quaternion (w, x, y, z), not a "
                        "string")
    try:
        arr = np.asarray(value, dtype=np.float64)
    except (TypeError, ValueError):
        raise TypeError("rotation must be a 3x3 matrix or a quaternion (w, x, y, z) of "
                        "numbers") from None
    if not np.all(np.isfinite(arr)):
        raise ValueError("rotation must be finite (no NaN or infinity)")
    if arr.shape == (4,):
        big = float(np.abs(arr).max())
        # (a huge quaternion's squares overflow: it is measured scaled by its largest entry)
        norm = float(np.linalg.norm(arr)) if big <= 2.0 else big * float(np.linalg.norm(arr / big))
        if abs(norm - 1.0) > ROTATION_TOLERANCE:
            raise ValueError(f"rotation: a quaternion (w, x, y, z) must have norm 1 (within "
                             f"{ROTATION_TOLERANCE:g}), got {norm!r}")
        w, x, y, z = arr / norm
        m = np.array([
            [1.0 - 2.0 * (y * y + z * z), 2.0 * (x * y - w * z), 2.0 * (x * z + w * y)],
            [2.0 * (x * y + w * z), 1.0 - 2.0 * (x * x + z * z), 2.0 * (y * z - w * x)],
            [2.0 * (x * z - w * y), 2.0 * (y * z + w * x), 1.0 - 2.0 * (x * x + y * y)],
        ])
    elif arr.shape == (3, 3):
        m = arr
        err = float(np.max(np.abs(m.T @ m - np.eye(3))))
        if err > ROTATION_TOLERANCE:
            raise ValueError(f"rotation: the matrix is not orthonormal (R^T R differs from the "
                             f"identity by {err:.3g}, more than {ROTATION_TOLERANCE:g})")
        if np.linalg.det(m) <= 0.0:
            raise ValueError("rotation: the matrix is a reflection (determinant -1), not a "
                             "rotation")
    else:
        raise ValueError(f"rotation must be a 3x3 matrix or a quaternion (w, x, y, z), got "
                         f"shape {arr.shape}")
    if float(np.max(np.abs(m.T @ m - np.eye(3)))) > 0.0:
        # the nearest exact rotation (polar decomposition)
        u, _s, vt = np.linalg.svd(m)
        m = u @ vt
    m = m + 0.0
    return (Vec3(m[0, 0], m[1, 0], m[2, 0]), Vec3(m[0, 1], m[1, 1], m[2, 1]),
            Vec3(m[0, 2], m[1, 2], m[2, 2]))


class OrientedBox(Shape):
    """A solid box turned in 3D: ``center``, ``half_extents`` (each >= 0) along its own axes,
    and ``rotation``.

    ``rotation`` is a 3x3 rotation matrix (nested sequences or an array) whose columns are the
    box's x, y and z axes in the world, or a unit quaternion ``(w, x, y, z)`` (scalar first).
    A matrix must be orthonormal with determinant +1 and a quaternion of norm 1, each within
    :data:`~swept.constants.ROTATION_TOLERANCE`; the box stores the nearest exact rotation
    (a quaternion normalised), as ``rotation``: a 3x3 tuple of rows.
    """

    __slots__ = ("center", "half_extents", "rotation", "axes", "_lo", "_hi", "_corners",
                 "_normals")
    center: Vec3
    half_extents: Vec3
    #: the rotation matrix's rows
    rotation: tuple[tuple[float, float, float], ...]
    #: the box's own x, y and z axes in the world (the matrix's columns), unit vectors
    axes: tuple[Vec3, Vec3, Vec3]
    #: the box in its rotated frame (coordinates ``dot(axes[i], p)``): min and max corners
    _lo: Vec3
    _hi: Vec3
    #: the eight corners in the world, (8, 3) read-only float64 (x outermost, low first)
    _corners: np.ndarray
    #: the outward face normals in the world, in the box face codes' order (-x, +x, -y, ...)
    _normals: tuple[Vec3, ...]
    dim = 3

    def __init__(self, center: Any, half_extents: Any, rotation: Any) -> None:
        c = as_vec3(center, "center")
        h = as_vec3(half_extents, "half_extents")
        for i, v in enumerate(h):
            if v < 0.0:
                raise ValueError(f"half_extents.{'xyz'[i]} must be >= 0, got {v!r}")
        axes = _rotation(rotation)
        local_c = Vec3(*(a.dot(c) for a in axes))
        lo = Vec3(*(local_c[i] - h[i] for i in range(3)))
        hi = Vec3(*(local_c[i] + h[i] for i in range(3)))
        corners = np.array([
            tuple(c[k] + axes[0][k] * sx + axes[1][k] * sy + axes[2][k] * sz for k in range(3))
            for sx in (-h[0], h[0]) for sy in (-h[1], h[1]) for sz in (-h[2], h[2])
        ], dtype=np.float64)
        corners.setflags(write=False)
        normals = []
        for a in axes:
            normals.append(Vec3(0.0 - a[0], 0.0 - a[1], 0.0 - a[2]))
            normals.append(a)
        _set(self, "center", c)
        _set(self, "half_extents", h)
        _set(self, "axes", axes)
        _set(self, "rotation", tuple((axes[0][r], axes[1][r], axes[2][r]) for r in range(3)))
        _set(self, "_lo", lo)
        _set(self, "_hi", hi)
        _set(self, "_corners", corners)
        _set(self, "_normals", tuple(normals))

    def _key(self) -> tuple[Any, ...]:
        return (self.center, self.half_extents, self.rotation)

    def __repr__(self) -> str:
        return (f"OrientedBox(center={tuple(self.center)}, "
                f"half_extents={tuple(self.half_extents)}, rotation={self.rotation})")

    def to_local(self, p: Any) -> Vec3:
        """``p`` in the box's rotated frame: ``(dot(axes[0], p), dot(axes[1], p), ...)``;
        the box there is the axis-aligned box from ``_lo`` to ``_hi``."""
        q = as_vec3(p, "p")
        a, b, c = self.axes
        return Vec3(a.dot(q), b.dot(q), c.dot(q))

    def to_world(self, v: Any) -> Vec3:
        """A vector of the box's rotated frame back in the world (the inverse of
        :meth:`to_local`)."""
        x, y, z = v
        a, b, c = self.axes
        return Vec3(a[0] * x + b[0] * y + c[0] * z, a[1] * x + b[1] * y + c[1] * z,
                    a[2] * x + b[2] * y + c[2] * z)

    @property
    def corners(self) -> tuple[Vec3, ...]:
        """The eight corners in the world."""
        return tuple(Vec3(*row) for row in self._corners)

    @property
    def aabb(self) -> AABB:
        """The smallest axis-aligned box holding the turned box."""
        return _bounds3(self._corners)

    def translated(self, offset: Any) -> OrientedBox:
        """The same box moved by ``offset``."""
        return OrientedBox(self.center + as_vec3(offset, "offset"), self.half_extents,
                           self.rotation)


class ConvexHull(Shape):
    """A solid convex polyhedron: the convex hull of a 3D point cloud (``ConvexHull(points)``).

    Built by quickhull (:func:`swept.hull.hull3d`): points inside or on a face are dropped, and
    coplanar triangles merge into polygonal faces. Coincident, collinear or coplanar clouds
    raise ``ValueError`` naming ``points``. The hull is the set where ``dot(normals[f], p) <=
    offsets[f]`` for every face ``f``.
    """

    __slots__ = ("vertices", "faces", "normals", "offsets", "edges", "_verts", "_norms",
                 "_offs", "_edges", "_dirs", "_eps")
    #: the corners
    vertices: tuple[Vec3, ...]
    #: each face as its corner indices, counter-clockwise seen from outside
    faces: tuple[tuple[int, ...], ...]
    #: each face's outward unit normal
    normals: tuple[Vec3, ...]
    #: each face's plane offset (inside: ``dot(normal, p) <= offset``)
    offsets: tuple[float, ...]
    #: each edge once, as a pair of corner indices (smaller first)
    edges: tuple[tuple[int, int], ...]
    _verts: np.ndarray
    _norms: np.ndarray
    _offs: np.ndarray
    _edges: np.ndarray
    #: the edges' distinct unit directions (parallel edges once), (k, 3) float64
    _dirs: np.ndarray
    #: the on-plane band the hull was built with (length units)
    _eps: float
    dim = 3

    def __init__(self, points: Any) -> None:
        h = hull3d(points)
        verts = h.vertices
        e = h.edges
        d = verts[e[:, 1]] - verts[e[:, 0]]
        d = d / np.linalg.norm(d, axis=1)[:, None]
        keep = np.zeros(len(d), bool)
        for i in range(len(d)):
            # parallel edges share one separating-axis direction (parallel as the separating
            # axis test counts it: their cross product is no axis)
            kept = d[keep]
            if not kept.size or float(np.min(np.linalg.norm(np.cross(kept, d[i]), axis=1))) \
                    > AXIS_PARALLEL_SINE:
                keep[i] = True
        dir_arr = np.ascontiguousarray(d[keep], dtype=np.float64).reshape(-1, 3)
        dir_arr.setflags(write=False)
        _set(self, "vertices", tuple(Vec3(*row) for row in verts))
        _set(self, "faces", h.faces)
        _set(self, "normals", tuple(Vec3(*row) for row in h.normals))
        _set(self, "offsets", tuple(float(x) for x in h.offsets))
        _set(self, "edges", tuple((int(a), int(b)) for a, b in e))
        _set(self, "_verts", verts)
        _set(self, "_norms", h.normals)
        _set(self, "_offs", h.offsets)
        _set(self, "_edges", e)
        _set(self, "_dirs", dir_arr)
        _set(self, "_eps", h.tolerance)

    def _key(self) -> tuple[Any, ...]:
        return (self.vertices,)

    def __repr__(self) -> str:
        return f"ConvexHull({[tuple(v) for v in self.vertices]})"

    @property
    def centroid(self) -> Vec3:
        """The centre of volume."""
        v = self._verts
        o = v.mean(axis=0)
        total = 0.0
        acc = np.zeros(3)
        for face in self.faces:
            a = v[face[0]]
            for i in range(1, len(face) - 1):
                b, c = v[face[i]], v[face[i + 1]]
                vol = float(np.dot(a - o, np.cross(b - o, c - o)))
                total += vol
                acc += vol * (o + a + b + c) / 4.0
        x, y, z = acc / total
        return Vec3(x, y, z)

    @property
    def aabb(self) -> AABB:
        """The smallest axis-aligned box holding the hull."""
        return _bounds3(self._verts)

    def translated(self, offset: Any) -> ConvexHull:
        """The same hull moved by ``offset``."""
        o = np.asarray(as_vec3(offset, "offset"), dtype=np.float64)
        return ConvexHull(self._verts + o)
