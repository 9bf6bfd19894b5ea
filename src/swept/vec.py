"""Immutable 2D and 3D vectors, and the one path that turns user input into them.

Every public function that takes a point or a vector accepts any 2- or 3-sequence of real
numbers: a tuple, a list, a numpy array, a ``pygame.Vector2``/``Vector3`` or the library's own
:class:`Vec2` / :class:`Vec3`. They all go through :func:`as_vec2`, :func:`as_vec3` or
:func:`as_vector`, which reject NaN and infinities with a ``ValueError`` naming the argument.
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from operator import itemgetter
from typing import Any, SupportsFloat, Union

__all__ = ["Vec2", "Vec3", "VecLike", "as_vec2", "as_vec3", "as_vector", "as_finite"]

_tuple_new = tuple.__new__


class Vec2(tuple):
    """An immutable 2D vector: hashable, unpackable as ``x, y``, with vector arithmetic."""

    __slots__ = ()
    #: the component names, as a named tuple has them: code that rebuilds named tuples from
    #: their items (``dataclasses.asdict`` on a result, for one) rebuilds a Vec2 this way
    _fields = ("x", "y")

    def __new__(cls, x: SupportsFloat, y: SupportsFloat) -> Vec2:
        """Build from two numbers (converted to float; not checked for finiteness)."""
        return _tuple_new(cls, (float(x), float(y)))

    x = property(itemgetter(0), doc="The x component.")
    y = property(itemgetter(1), doc="The y component.")

    def __repr__(self) -> str:
        return f"Vec2({self[0]!r}, {self[1]!r})"

    def __getnewargs__(self) -> tuple[float, float]:
        return (self[0], self[1])

    def __add__(self, other: Any) -> Vec2:
        ox, oy = other
        return _tuple_new(Vec2, (self[0] + ox, self[1] + oy))

    __radd__ = __add__

    def __sub__(self, other: Any) -> Vec2:
        ox, oy = other
        return _tuple_new(Vec2, (self[0] - ox, self[1] - oy))

    def __rsub__(self, other: Any) -> Vec2:
        ox, oy = other
        return _tuple_new(Vec2, (ox - self[0], oy - self[1]))

    def __mul__(self, k: Any) -> Vec2:
        if isinstance(k, (int, float)):
            return _tuple_new(Vec2, (self[0] * k, self[1] * k))
        return NotImplemented

    __rmul__ = __mul__

    def __truediv__(self, k: float) -> Vec2:
        return _tuple_new(Vec2, (self[0] / k, self[1] / k))

    def __neg__(self) -> Vec2:
        return _tuple_new(Vec2, (-self[0], -self[1]))

    def __pos__(self) -> Vec2:
        return self

    def __abs__(self) -> float:
        return math.hypot(self[0], self[1])

    def dot(self, other: Any) -> float:
        """The dot product with another 2-vector."""
        ox, oy = other
        return self[0] * ox + self[1] * oy

    def cross(self, other: Any) -> float:
        """The 2D cross product ``x * o.y - y * o.x``: positive when ``other`` turns counter-
        clockwise from this vector in a y-up frame (clockwise on a y-down screen)."""
        ox, oy = other
        return self[0] * oy - self[1] * ox

    def length(self) -> float:
        """The Euclidean length."""
        return math.hypot(self[0], self[1])

    def length_squared(self) -> float:
        """The squared length (no square root)."""
        return self[0] * self[0] + self[1] * self[1]

    def normalized(self) -> Vec2:
        """This vector scaled to unit length; a zero vector raises ``ValueError``."""
        n = math.hypot(self[0], self[1])
        if n == 0.0:
            raise ValueError("cannot normalize a zero-length vector")
        return _tuple_new(Vec2, (self[0] / n, self[1] / n))

    def perp(self) -> Vec2:
        """The quarter turn ``(x, y) -> (-y, x)``."""
        return _tuple_new(Vec2, (-self[1], self[0]))

    def distance_to(self, other: Any) -> float:
        """The distance to another point."""
        ox, oy = other
        return math.hypot(self[0] - ox, self[1] - oy)

    def rotated(self, angle: float) -> Vec2:
        """This vector turned by ``angle`` radians (counter-clockwise in a y-up frame)."""
        c, s = math.cos(angle), math.sin(angle)
        return _tuple_new(Vec2, (c * self[0] - s * self[1], s * self[0] + c * self[1]))

    def is_close(self, other: Any, tol: float = 1e-9) -> bool:
        """Whether every component is within ``tol`` of ``other``'s."""
        ox, oy = other
        return abs(self[0] - ox) <= tol and abs(self[1] - oy) <= tol


class Vec3(tuple):
    """An immutable 3D vector: hashable, unpackable as ``x, y, z``, with vector arithmetic."""

    __slots__ = ()
    #: the component names, as a named tuple has them: code that rebuilds named tuples from
    #: their items (``dataclasses.asdict`` on a result, for one) rebuilds a Vec3 this way
    _fields = ("x", "y", "z")

    def __new__(cls, x: SupportsFloat, y: SupportsFloat, z: SupportsFloat) -> Vec3:
        """Build from three numbers (converted to float; not checked for finiteness)."""
        return _tuple_new(cls, (float(x), float(y), float(z)))

    x = property(itemgetter(0), doc="The x component.")
    y = property(itemgetter(1), doc="The y component.")
    z = property(itemgetter(2), doc="The z component.")

    def __repr__(self) -> str:
        return f"Vec3({self[0]!r}, {self[1]!r}, {self[2]!r})"

    def __getnewargs__(self) -> tuple[float, float, float]:
        return (self[0], self[1], self[2])

    def __add__(self, other: Any) -> Vec3:
        ox, oy, oz = other
        return _tuple_new(Vec3, (self[0] + ox, self[1] + oy, self[2] + oz))

    __radd__ = __add__

    def __sub__(self, other: Any) -> Vec3:
        ox, oy, oz = other
        return _tuple_new(Vec3, (self[0] - ox, self[1] - oy, self[2] - oz))

    def __rsub__(self, other: Any) -> Vec3:
        ox, oy, oz = other
        return _tuple_new(Vec3, (ox - self[0], oy - self[1], oz - self[2]))

    def __mul__(self, k: Any) -> Vec3:
        if isinstance(k, (int, float)):
            return _tuple_new(Vec3, (self[0] * k, self[1] * k, self[2] * k))
        return NotImplemented

    __rmul__ = __mul__

    def __truediv__(self, k: float) -> Vec3:
        return _tuple_new(Vec3, (self[0] / k, self[1] / k, self[2] / k))

    def __neg__(self) -> Vec3:
        return _tuple_new(Vec3, (-self[0], -self[1], -self[2]))

    def __pos__(self) -> Vec3:
        return self

    def __abs__(self) -> float:
        return math.sqrt(self[0] * self[0] + self[1] * self[1] + self[2] * self[2])

    def dot(self, other: Any) -> float:
        """The dot product with another 3-vector."""
        ox, oy, oz = other
        return self[0] * ox + self[1] * oy + self[2] * oz

    def cross(self, other: Any) -> Vec3:
        """The cross product (right-handed)."""
        ox, oy, oz = other
        x, y, z = self
        return _tuple_new(Vec3, (y * oz - z * oy, z * ox - x * oz, x * oy - y * ox))

    def length(self) -> float:
        """The Euclidean length."""
        return math.sqrt(self[0] * self[0] + self[1] * self[1] + self[2] * self[2])

    def length_squared(self) -> float:
        """The squared length (no square root)."""
        return self[0] * self[0] + self[1] * self[1] + self[2] * self[2]

    def normalized(self) -> Vec3:
        """This vector scaled to unit length; a zero vector raises ``ValueError``."""
        n = self.length()
        if n == 0.0:
            raise ValueError("cannot normalize a zero-length vector")
        return _tuple_new(Vec3, (self[0] / n, self[1] / n, self[2] / n))

    def perp(self) -> Vec3:
        """A unit vector perpendicular to this one (any of them; chosen stably)."""
        x, y, z = self
        # cross with the world axis least aligned with this vector
        if abs(x) <= abs(y) and abs(x) <= abs(z):
            p = _tuple_new(Vec3, (0.0, -z, y))
        elif abs(y) <= abs(z):
            p = _tuple_new(Vec3, (z, 0.0, -x))
        else:
            p = _tuple_new(Vec3, (-y, x, 0.0))
        return p.normalized()

    def distance_to(self, other: Any) -> float:
        """The distance to another point."""
        return (self - other).length()

    def is_close(self, other: Any, tol: float = 1e-9) -> bool:
        """Whether every component is within ``tol`` of ``other``'s."""
        ox, oy, oz = other
        return abs(self[0] - ox) <= tol and abs(self[1] - oy) <= tol and abs(self[2] - oz) <= tol


#: Anything accepted where a point or vector is expected.
VecLike = Union[Vec2, Vec3, Sequence[float], Any]


def _components(value: Any, name: str) -> tuple[float, ...]:
    """Read a short sequence of real numbers, raising TypeError/ValueError naming ``name``."""
    if isinstance(value, (str, bytes)):
        raise TypeError(f"{name} must be a 2- or 3-vector of numbers, not {type(value).__name__}")
    try:
        n = len(value)
    except TypeError:
        raise TypeError(
            f"{name} must be a 2- or 3-vector of numbers, not {type(value).__name__}"
        ) from None
    if n not in (2, 3):
        raise ValueError(f"{name} must have 2 or 3 components, got {n}")
    try:
        out = tuple(float(value[i]) for i in range(n))
    except (TypeError, ValueError):
        raise TypeError(f"{name} must contain real numbers, got {value!r}") from None
    for c in out:
        if not math.isfinite(c):
            raise ValueError(f"{name} must be finite, got {value!r}")
    return out


_REAL = (float, int)


def as_vec2(value: Any, name: str = "vector") -> Vec2:
    """Coerce ``value`` to a finite :class:`Vec2`, or raise naming ``name``."""
    t = type(value)
    if t is Vec2:
        # finite iff (x - x) + (y - y) is exactly 0: NaN and inf both give NaN
        if (value[0] - value[0]) + (value[1] - value[1]) == 0.0:
            return value
        raise ValueError(f"{name} must be finite, got {value!r}")
    if (t is tuple or t is list) and len(value) == 2:
        x, y = value
        if type(x) in _REAL and type(y) in _REAL:
            # the common case: a plain pair of numbers
            fx = float(x)
            fy = float(y)
            if (fx - fx) + (fy - fy) == 0.0:
                return _tuple_new(Vec2, (fx, fy))
            raise ValueError(f"{name} must be finite, got {value!r}")
    c = _components(value, name)
    if len(c) != 2:
        raise ValueError(f"{name} must be a 2D vector, got {len(c)} components")
    return _tuple_new(Vec2, c)


def as_vec3(value: Any, name: str = "vector") -> Vec3:
    """Coerce ``value`` to a finite :class:`Vec3`, or raise naming ``name``."""
    if type(value) is Vec3:
        if (value[0] - value[0]) + (value[1] - value[1]) + (value[2] - value[2]) == 0.0:
            return value
        raise ValueError(f"{name} must be finite, got {value!r}")
    c = _components(value, name)
    if len(c) != 3:
        raise ValueError(f"{name} must be a 3D vector, got {len(c)} components")
    return _tuple_new(Vec3, c)


def as_vector(value: Any, name: str = "vector") -> Vec2 | Vec3:
    """Coerce ``value`` to a finite :class:`Vec2` or :class:`Vec3` by its length."""
    t = type(value)
    if t is Vec2:
        return as_vec2(value, name)
    if t is Vec3:
        return as_vec3(value, name)
    c = _components(value, name)
    if len(c) == 2:
        return _tuple_new(Vec2, c)
    return _tuple_new(Vec3, c)


def as_finite(value: Any, name: str, *, minimum: float | None = None,
              allow_inf: bool = False) -> float:
    """Coerce a scalar to float, rejecting NaN (and inf unless allowed) and values below
    ``minimum``, with an error naming ``name``."""
    if isinstance(value, (str, bytes)) or not isinstance(value, (int, float, SupportsFloat)):
        raise TypeError(f"{name} must be a real number, not {type(value).__name__}")
    try:
        v = float(value)
    except (TypeError, ValueError):
        raise TypeError(f"{name} must be a real number, got {value!r}") from None
    if math.isnan(v) or (math.isinf(v) and not allow_inf):
        raise ValueError(f"{name} must be finite, got {value!r}")
    if minimum is not None and v < minimum:
        raise ValueError(f"{name} must be >= {minimum:g}, got {value!r}")
    return v
