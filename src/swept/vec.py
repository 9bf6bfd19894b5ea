"""Immutable 2D and 3D vectors, and the one path that turns user input into them.

Every public function that takes a point or a vector accepts any 2- or 3-sequence of real
numbers: a tuple, a list, a numpy array, a ``pygame.Vector2``/``Vector3`` or the library's own
:class:`Vec2` / :class:`Vec3`. They all go through :func:`as_vec2`, :func:`as_vec3` or
:func:`as_vector`, which reject NaN, infinities and magnitudes beyond
:data:`~swept.constants.MAX_COORDINATE` (1e50) with a ``ValueError`` naming the argument, and
strings (or anything that is not a real number) with a ``TypeError``. Scalars go through
:func:`as_finite`, under the same rules.
"""

from __future__ import annotations

import math
import sys
from collections.abc import Sequence
from operator import itemgetter
from typing import Any, SupportsFloat, Union

import numpy as np

__all__ = ["Vec2", "Vec3", "VecLike", "as_vec2", "as_vec3", "as_vector", "as_finite", "as_array",
           "unit"]

_tuple_new = tuple.__new__


_FLOAT_MIN = sys.float_info.min
_INF = math.inf


def _length3(x: float, y: float, z: float) -> float:
    """``sqrt(x^2 + y^2 + z^2)``, as the kernels compute it, unless the sum of squares
    underflows below the smallest normal float or overflows: then the components are first
    divided by the largest magnitude among them, as ``hypot`` does."""
    s = x * x + y * y + z * z
    if _FLOAT_MIN <= s < _INF:
        return math.sqrt(s)
    m = max(abs(x), abs(y), abs(z))
    if not 0.0 < m < _INF:
        # zero, or not finite (no length to rescale)
        return math.sqrt(s)
    x /= m
    y /= m
    z /= m
    return m * math.sqrt(x * x + y * y + z * z)


def _power_scaled(v: tuple[float, ...]) -> tuple[float, ...]:
    """``v`` scaled by the power of two that brings its largest component into [0.5, 1): exact
    (a subnormal component gains bits it already had; none is lost), and a direction kept."""
    e = math.frexp(max(abs(c) for c in v))[1]
    return tuple(math.ldexp(c, -e) for c in v)


def _unit_direction2(x: float, y: float) -> tuple[float, float, float]:
    """``(x, y)`` divided by its length, and the length: 2D's one unit-direction formula (a
    :class:`~swept.Ray`'s direction, ``raycast_many``'s rows, every scalar query's
    :func:`unit`), compiled as it stands for the kernels (:func:`swept._kernels.geom.unit2`),
    so that Python and the kernels give the same bits. Plain IEEE operations, each rounded
    once and in this order (numba without fastmath neither reorders nor fuses them):
    ``s = x*x + y*y``, ``n = sqrt(s)``, ``(x / n, y / n, n)``. Where the sum of squares falls
    below the smallest normal float (a tiny vector) or overflows, both components are first
    scaled by the power of two that brings the larger into [0.5, 1) (exact), the direction
    taken from the scaled vector and the length scaled back. ``(0, 0, 0)`` for the zero
    vector; finite components of magnitude at most ``MAX_COORDINATE`` (the length of a
    larger vector may overflow). Accuracy against exact arithmetic
    (``tests/test_unit_direction.py``): each component within 2.75 ulps (the rounding bound;
    the worst of 50,000 directions of every scale 2.1, the mean 0.46), the length within 1.75
    (measured 1.1). Dividing by the C library's ``hypot`` instead is within 1.5 ulps for
    ordinary vectors but wrong for tiny ones (a subnormal length: ``(5e-324, 5e-324)`` became
    ``(1, 1)``), rounds differently from CPython's ``math.hypot``, and cost a batch ray about
    25 ns more (a library call the next ray's cast cannot overlap)."""
    s = x * x + y * y
    if _FLOAT_MIN <= s < _INF:
        n = math.sqrt(s)
        return x / n, y / n, n
    m = max(abs(x), abs(y))
    if m == 0.0:
        # the zero vector: no direction
        return 0.0, 0.0, 0.0
    # tiny (the squares underflow) or huge (they overflow): scaled by 2^-e, exactly
    e = math.frexp(m)[1]
    xs = math.ldexp(x, -e)
    ys = math.ldexp(y, -e)
    k = math.sqrt(xs * xs + ys * ys)
    return xs / k, ys / k, math.ldexp(k, e)


class Vec2(tuple[Any, ...]):
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
        result: float = self[0] * ox + self[1] * oy
        return result

    def cross(self, other: Any) -> float:
        """The 2D cross product ``x * o.y - y * o.x``: positive when ``other`` turns counter-
        clockwise from this vector in a y-up frame (clockwise on a y-down screen)."""
        ox, oy = other
        result: float = self[0] * oy - self[1] * ox
        return result

    def length(self) -> float:
        """The Euclidean length."""
        return math.hypot(self[0], self[1])

    def length_squared(self) -> float:
        """The squared length (no square root)."""
        result: float = self[0] * self[0] + self[1] * self[1]
        return result

    def normalized(self) -> Vec2:
        """This vector scaled to unit length; only the zero vector raises ``ValueError`` (the
        length is a hypot: no square underflows, so a 1e-200 vector has a direction). Where the
        length itself is subnormal or overflows (``(5e-324, 5e-324)``, ``(1.7e308, 1.7e308)``),
        the components are first scaled by a power of two (exact), so the result is still a
        unit vector."""
        x, y = self[0], self[1]
        n = math.hypot(x, y)
        if n == 0.0:
            raise ValueError("cannot normalize a zero-length vector")
        if not _FLOAT_MIN <= n < _INF:
            # a subnormal length has lost bits, an infinite one all of them: rescale first
            x, y = _power_scaled((x, y))
            n = math.hypot(x, y)
        return _tuple_new(Vec2, (x / n, y / n))

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
        result: bool = abs(self[0] - ox) <= tol and abs(self[1] - oy) <= tol
        return result


class Vec3(tuple[Any, ...]):
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
        return _length3(self[0], self[1], self[2])

    def dot(self, other: Any) -> float:
        """The dot product with another 3-vector."""
        ox, oy, oz = other
        result: float = self[0] * ox + self[1] * oy + self[2] * oz
        return result

    def cross(self, other: Any) -> Vec3:
        """The cross product (right-handed)."""
        ox, oy, oz = other
        x, y, z = self
        return _tuple_new(Vec3, (y * oz - z * oy, z * ox - x * oz, x * oy - y * ox))

    def length(self) -> float:
        """The Euclidean length (rescaled where the squares would underflow or overflow)."""
        return _length3(self[0], self[1], self[2])

    def length_squared(self) -> float:
        """The squared length (no square root)."""
        result: float = self[0] * self[0] + self[1] * self[1] + self[2] * self[2]
        return result

    def normalized(self) -> Vec3:
        """This vector scaled to unit length; only the zero vector raises ``ValueError`` (a
        1e-200 vector has a direction: see :meth:`length`). Where the length is subnormal or
        overflows, the components are first scaled by a power of two (exact), as in 2D."""
        x, y, z = self[0], self[1], self[2]
        n = _length3(x, y, z)
        if n == 0.0:
            raise ValueError("cannot normalize a zero-length vector")
        if not _FLOAT_MIN <= n < _INF:
            # a subnormal length has lost bits, an infinite one all of them: rescale first
            x, y, z = _power_scaled((x, y, z))
            n = _length3(x, y, z)
        return _tuple_new(Vec3, (x / n, y / n, z / n))

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
        result: float = (self - other).length()
        return result

    def is_close(self, other: Any, tol: float = 1e-9) -> bool:
        """Whether every component is within ``tol`` of ``other``'s."""
        ox, oy, oz = other
        result: bool = (abs(self[0] - ox) <= tol and abs(self[1] - oy) <= tol
                        and abs(self[2] - oz) <= tol)
        return result


#: Anything accepted where a point or vector is expected.
VecLike = Union[Vec2, Vec3, Sequence[float], Any]

# constants imports this module (for Vec2 / Vec3) and may be the first to load, so the limit
# (swept.constants.MAX_COORDINATE) is read from the module at call time
from . import constants as _constants  # noqa: E402

_NOT_NUMBERS = (str, bytes, bytearray)
_REAL = (float, int)


def _show(value: Any) -> str:
    """``repr(value)``, shortened: an error message must stay readable for a 400-digit int."""
    text = repr(value)
    return text if len(text) <= 80 else f"{text[:60]}...{text[-12:]} ({len(text)} chars)"


def _range_error(name: str, value: Any) -> ValueError:
    return ValueError(
        f"{name} is out of range: every coordinate and number must be finite with magnitude "
        f"at most MAX_COORDINATE = {_constants.MAX_COORDINATE:g}, got {_show(value)}"
    )


def _real(c: Any, name: str, value: Any) -> float:
    """One component ``c`` of ``value`` as a float in range, or raise naming ``name``."""
    lim = _constants.MAX_COORDINATE
    if isinstance(c, _NOT_NUMBERS):
        raise TypeError(f"{name} must contain real numbers, not {type(c).__name__}: "
                        f"got {_show(value)}")
    try:
        f = float(c)
    except OverflowError:
        # an int too large for a float
        raise _range_error(name, value) from None
    except (TypeError, ValueError):
        raise TypeError(f"{name} must contain real numbers, got {_show(value)}") from None
    if -lim <= f <= lim:
        return f
    if f != f:
        raise ValueError(f"{name} must be finite (not NaN), got {_show(value)}")
    raise _range_error(name, value)


def _components(value: Any, name: str) -> tuple[float, ...]:
    """Read a short sequence of real numbers, raising TypeError/ValueError naming ``name``."""
    if isinstance(value, _NOT_NUMBERS):
        raise TypeError(f"{name} must be a 2- or 3-vector of numbers, not {type(value).__name__}")
    try:
        n = len(value)
    except TypeError:
        raise TypeError(
            f"{name} must be a 2- or 3-vector of numbers, not {type(value).__name__}"
        ) from None
    if n == 2:
        x, y = value[0], value[1]
        # plain numbers in range: converted at once (an int compares exactly, however large)
        lim = _constants.MAX_COORDINATE
        if type(x) in _REAL and type(y) in _REAL and -lim <= x <= lim and -lim <= y <= lim:
            return (float(x), float(y))
        return (_real(x, name, value), _real(y, name, value))
    if n == 3:
        x, y, z = value[0], value[1], value[2]
        lim = _constants.MAX_COORDINATE
        if type(x) in _REAL and type(y) in _REAL and type(z) in _REAL and \
                -lim <= x <= lim and -lim <= y <= lim and -lim <= z <= lim:
            return (float(x), float(y), float(z))
        return (_real(x, name, value), _real(y, name, value), _real(z, name, value))
    raise ValueError(f"{name} must have 2 or 3 components, got {n}")



def as_vec2(value: Any, name: str = "vector") -> Vec2:
    """Coerce ``value`` to a :class:`Vec2` in range (finite, each component at most
    ``MAX_COORDINATE`` in magnitude), or raise naming ``name``."""
    lim = _constants.MAX_COORDINATE
    t = type(value)
    if t is Vec2:
        # in range (NaN fails every comparison)
        if -lim <= value[0] <= lim and -lim <= value[1] <= lim:
            result: Vec2 = value
            return result
    elif (t is tuple or t is list) and len(value) == 2:
        # the common case: a plain pair of numbers (an int compares exactly, however large)
        x, y = value
        if type(x) in _REAL and type(y) in _REAL and -lim <= x <= lim and -lim <= y <= lim:
            return _tuple_new(Vec2, (float(x), float(y)))
    c = _components(value, name)
    if len(c) != 2:
        raise ValueError(f"{name} must be a 2D vector, got {len(c)} components")
    return _tuple_new(Vec2, c)


def as_vec3(value: Any, name: str = "vector") -> Vec3:
    """Coerce ``value`` to a :class:`Vec3` in range, or raise naming ``name``."""
    lim = _constants.MAX_COORDINATE
    if type(value) is Vec3 and -lim <= value[0] <= lim and -lim <= value[1] <= lim and \
            -lim <= value[2] <= lim:
        return value
    c = _components(value, name)
    if len(c) != 3:
        raise ValueError(f"{name} must be a 3D vector, got {len(c)} components")
    return _tuple_new(Vec3, c)


def as_vector(value: Any, name: str = "vector") -> Vec2 | Vec3:
    """Coerce ``value`` to a :class:`Vec2` or :class:`Vec3` (by its length) in range."""
    lim = _constants.MAX_COORDINATE
    t = type(value)
    if t is Vec2 and -lim <= value[0] <= lim and -lim <= value[1] <= lim:
        result: Vec2 | Vec3 = value
        return result
    if t is Vec3 and -lim <= value[0] <= lim and -lim <= value[1] <= lim and \
            -lim <= value[2] <= lim:
        result = value
        return result
    c = _components(value, name)
    if len(c) == 2:
        return _tuple_new(Vec2, c)
    return _tuple_new(Vec3, c)


def as_finite(value: Any, name: str, *, minimum: float | None = None,
              allow_inf: bool = False) -> float:
    """Coerce a scalar to float, rejecting NaN, magnitudes beyond ``MAX_COORDINATE``, values
    below ``minimum`` and non-numbers (``TypeError``: a string is not a number), with an error
    naming ``name``. ``allow_inf`` marks an unbounded quantity (a ray's ``max_distance``, a
    static body's mass): any magnitude is accepted, infinity included."""
    lim = _constants.MAX_COORDINATE
    if type(value) is float:
        v = value
    else:
        if isinstance(value, _NOT_NUMBERS) or not isinstance(value, (int, float, SupportsFloat)):
            raise TypeError(f"{name} must be a real number, not {type(value).__name__}")
        try:
            v = float(value)
        except OverflowError:
            # an int too large for a float
            raise _range_error(name, value) from None
        except (TypeError, ValueError):
            raise TypeError(f"{name} must be a real number, got {_show(value)}") from None
    if not -lim <= v <= lim:
        if v != v:
            raise ValueError(f"{name} must be finite (not NaN), got {_show(value)}")
        if not allow_inf:
            raise _range_error(name, value)
    if minimum is not None and v < minimum:
        raise ValueError(f"{name} must be >= {minimum:g}, got {_show(value)}")
    return v


def unit(value: Vec2 | Vec3, name: str) -> tuple[Vec2 | Vec3, float]:
    """``value`` (a coerced vector) normalised, and its length: only an exactly zero vector
    raises (``ValueError`` naming ``name``). The length never underflows (rescaled where the
    squares would), so a 1e-200 vector has a direction. In 2D, :func:`_unit_direction2` (bit
    for bit the batch kernels' normalisation); in 3D, ``value / value.length()``, as the kernels
    compute it."""
    if len(value) == 2:
        ux, uy, length = _unit_direction2(value[0], value[1])
        if length == 0.0:
            raise ValueError(f"{name} must not be the zero vector")
        return _tuple_new(Vec2, (ux, uy)), length
    length = value.length()
    if length == 0.0:
        raise ValueError(f"{name} must not be the zero vector")
    return value / length, length


def as_array(value: Any, name: str, *, allow_inf: bool = False) -> np.ndarray:
    """``value`` (any array-like of numbers, of any shape) as a float64 array, every value in
    range (magnitude at most ``MAX_COORDINATE``; any size up to infinity where ``allow_inf``,
    for an unbounded quantity), or a ``ValueError`` / ``TypeError`` (strings, which numpy would
    convert one by one) naming ``name``. The array counterpart of :func:`as_finite`."""
    lim = _constants.MAX_COORDINATE
    try:
        raw = value if isinstance(value, np.ndarray) else np.asarray(value)
    except (TypeError, ValueError):
        # ragged rows
        raise ValueError(f"{name} must be a rectangular array of numbers (rows of one "
                         f"length)") from None
    if raw.dtype.kind not in "biuf":
        if raw.dtype.kind in "USa" or (raw.dtype.kind == "O" and any(
                isinstance(x, (str, bytes)) for x in raw.flat)):
            raise TypeError(f"{name} must contain numbers, not strings")
        try:
            raw = raw.astype(np.float64)
        except OverflowError:
            # an int too large for a float
            raise ValueError(f"{name} is out of range: every value must have magnitude at "
                             f"most MAX_COORDINATE = {lim:g}") from None
        except (TypeError, ValueError):
            raise TypeError(f"{name} must contain real numbers, not {raw.dtype} values") \
                from None
    a = np.asarray(raw, dtype=np.float64)
    if np.isnan(a).any():
        raise ValueError(f"{name} must not contain NaN (at index "
                         f"{tuple(int(i) for i in np.argwhere(np.isnan(a))[0])})")
    big = np.abs(a) > (np.inf if allow_inf else lim)
    if big.any():
        raise ValueError(f"{name} is out of range: every value must be finite with magnitude "
                         f"at most MAX_COORDINATE = {lim:g} (at index "
                         f"{tuple(int(i) for i in np.argwhere(big)[0])})")
    return a
