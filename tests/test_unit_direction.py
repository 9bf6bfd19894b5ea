"""2D's one unit-direction formula, shared by Python and the kernels.

A :class:`~swept.Ray` normalises its direction with :func:`swept.vec._unit_direction2` (a
square root of ``x*x + y*y`` and two divisions, rescaled by an exact power of two where the
squares underflow) and ``World.raycast_many`` normalises each row in its cast kernel with
:func:`swept._kernels.geom.unit2`, the same Python function compiled. These tests guard the
mechanism that keeps a batch row bit for bit its scalar ray: numba without fastmath evaluates
the same IEEE operations in the same order with the same roundings as CPython (no reordering,
no fused multiply-add), for every direction a user can pass, from subnormal to 1e50 and beyond;
and they pin the formula's accuracy against exact arithmetic (100-digit decimals), which the C
library's ``hypot`` it replaced did not keep for tiny vectors.
"""

from __future__ import annotations

import math
import struct
from decimal import Decimal, localcontext

import numba
import numpy as np
import pytest
from hypothesis import given
from hypothesis import strategies as st

from swept import AABB, Circle, Polygon, Ray, Segment, Vec2
from swept._kernels.geom import unit2
from swept.vec import _unit_direction2
from swept.world import World

# 2^-53: half an ulp of 1, the unit roundoff of float64
_U = 2.0 ** -53


@numba.njit(cache=False)
def _compiled_units(x: np.ndarray, y: np.ndarray, out: np.ndarray) -> None:
    """The compiled formula on every (x[i], y[i]): rows of ``(ux, uy, length)``."""
    for i in range(x.shape[0]):
        ux, uy, n = unit2(x[i], y[i])
        out[i, 0] = ux
        out[i, 1] = uy
        out[i, 2] = n


def _bits(values: tuple[float, ...] | np.ndarray) -> tuple[bytes, ...]:
    """Floats as their bytes (so that 0.0 and -0.0 differ)."""
    return tuple(struct.pack("<d", float(v)) for v in values)


def _adversarial(seed: int, n: int) -> tuple[np.ndarray, np.ndarray]:
    """Directions of every kind: ordinary, unit (cos, sin), each component at any binary
    exponent from subnormal to 2^1000 (mixed magnitudes, the other component up to 2^70
    times larger or smaller), axes, signed zeros, subnormals, and the edges of the squares'
    range."""
    rng = np.random.default_rng(seed)
    angle = rng.uniform(0.0, 2.0 * math.pi, n)
    e = rng.integers(-1074, 1000, n)
    xs = [rng.normal(size=n), np.cos(angle), np.ldexp(rng.uniform(-1.0, 1.0, n), e),
          rng.normal(size=n) * 1e-160]
    ys = [rng.normal(size=n), np.sin(angle),
          np.ldexp(rng.uniform(-1.0, 1.0, n), np.clip(e + rng.integers(-70, 71, n), -1074, 1000)),
          rng.normal(size=n) * 1e-160]
    tiny = 5e-324
    fmin = 2.2250738585072014e-308
    edges = [(1.0, 0.0), (0.0, -1.0), (-0.0, 3.0), (3.0, -0.0), (tiny, tiny), (tiny, 0.0),
             (-tiny, tiny), (fmin, fmin), (fmin, 1e-310), (1e-154, 1e-154), (1.5e-154, 0.0),
             (1e154, 1e154), (1.34e154, 1.34e154), (1e300, -1e300), (1e50, 1e-300),
             (3.0, 4.0), (1e-300, 1.0), (2.0 ** -537, 2.0 ** -537)]
    xs.append(np.array([a for a, _ in edges]))
    ys.append(np.array([b for _, b in edges]))
    return np.concatenate(xs), np.concatenate(ys)


def test_compiled_and_python_formulas_agree_bit_for_bit() -> None:
    """The kernels' unit2 is the Python function compiled: every output bit equal, signed
    zeros included, on 40,000 directions from subnormal to 2^1000."""
    x, y = _adversarial(1, 10_000)
    out = np.empty((x.shape[0], 3))
    _compiled_units(x, y, out)
    for i in range(x.shape[0]):
        want = _unit_direction2(float(x[i]), float(y[i]))
        assert _bits(out[i]) == _bits(want), (x[i], y[i], out[i], want)


def _ulps(got: float, exact: Decimal) -> float:
    """|got - exact| in ulps of exact rounded to a float (0 when both are 0)."""
    if exact == 0:
        return 0.0 if got == 0.0 else math.inf
    with localcontext() as ctx:
        ctx.prec = 100
        return float(abs(Decimal(got) - exact) / Decimal(math.ulp(float(exact))))


def _exact(x: float, y: float) -> tuple[Decimal, Decimal, Decimal]:
    """The unit direction and length to 100 significant digits (every float is a finite
    decimal, converted exactly)."""
    with localcontext() as ctx:
        ctx.prec = 100
        ctx.Emin = -9999
        length = (Decimal(x) ** 2 + Decimal(y) ** 2).sqrt()
        return Decimal(x) / length, Decimal(y) / length, length


# the error bound: the sum of squares within (1 + u)^2 of exact, its square root within
# u + (its half), the quotient within u more: a component within 2.75 u relative, the length
# within 1.75 u, in ulps (an ulp is at least u relative) no more than that
_COMPONENT_ULPS = 2.75
_LENGTH_ULPS = 1.75


def test_accuracy_against_exact_arithmetic() -> None:
    """Each component within 2.75 ulps of the exact quotient and the length within 1.75 ulps
    (the rounding bound), at every scale: the tiny vectors too (the C library's hypot gave
    (5e-324, 5e-324) a length of 5e-324 and so the direction (1, 1))."""
    x, y = _adversarial(2, 1_500)
    worst_c = worst_n = 0.0
    for a, b in zip(x.tolist(), y.tolist()):
        if a == 0.0 and b == 0.0:
            continue
        ux, uy, n = _unit_direction2(a, b)
        ex, ey, en = _exact(a, b)
        worst_c = max(worst_c, _ulps(ux, ex), _ulps(uy, ey))
        worst_n = max(worst_n, _ulps(n, en))
    assert worst_c <= _COMPONENT_ULPS
    assert worst_n <= _LENGTH_ULPS
    # the subnormal diagonal: the bits of (1, 1)'s direction, 1 / fl(sqrt 2), an ulp from
    # sqrt(1/2)
    ux, uy, _n = _unit_direction2(1.0, 1.0)
    assert ux == uy == 1.0 / math.sqrt(2.0)
    assert abs(ux - math.sqrt(0.5)) == math.ulp(0.5)
    assert _unit_direction2(5e-324, 5e-324)[:2] == (ux, uy)
    assert Ray((0, 0), (5e-324, -5e-324)).direction == Vec2(ux, -uy)


@given(st.floats(min_value=2.0 ** -30, max_value=2.0 ** 30),
       st.floats(min_value=-(2.0 ** 30), max_value=2.0 ** 30), st.integers(-400, 400),
       st.integers(0, 3))
def test_the_direction_is_invariant_under_power_of_two_scaling(a: float, b: float, k: int,
                                                               flip: int) -> None:
    """Scaling a direction by a power of two scales every intermediate exactly (squares in
    range both ways), so the unit direction is the same bits and the length scales exactly,
    whichever path (squares in range, or rescaled) each takes."""
    x, y = (a, b) if flip % 2 == 0 else (b, a)
    if flip >= 2:
        x = -x
    if x == 0.0 and y == 0.0:
        return
    if any(math.ldexp(math.ldexp(v, k), -k) != v for v in (x, y)):
        # a component scaled into the subnormals loses bits: another vector, not a scaling
        return
    ux, uy, n = _unit_direction2(x, y)
    sx, sy, sn = _unit_direction2(math.ldexp(x, k), math.ldexp(y, k))
    assert _bits((sx, sy)) == _bits((ux, uy))
    assert sn == math.ldexp(n, k)
    # a tiny vector (the squares underflow: the rescaled path) is its scaled-up twin
    tx, ty, tn = _unit_direction2(math.ldexp(x, -1000), math.ldexp(y, -1000))
    if all(math.ldexp(math.ldexp(v, -1000), 1000) == v for v in (x, y)):
        assert _bits((tx, ty)) == _bits((ux, uy))
        assert tn == math.ldexp(n, -1000)


def test_the_zero_vector_has_no_direction() -> None:
    assert _unit_direction2(0.0, 0.0) == (0.0, 0.0, 0.0)
    assert _unit_direction2(-0.0, 0.0) == (0.0, 0.0, 0.0)
    with pytest.raises(ValueError, match="direction"):
        Ray((0, 0), (0.0, -0.0))


def _scene() -> World:
    """Every 2D kind the grid tests on its own path: segments (axis-aligned ones too),
    boxes, circles, polygons; at 1e-6, 1 and 1e6 scales the callers pass their own."""
    world = World()
    rng = np.random.default_rng(9)
    for i in range(60):
        c = rng.uniform(0.0, 100.0, 2)
        which = i % 4
        if which == 0:
            world.add(Segment(c, c + rng.uniform(-8.0, 8.0, 2)))
        elif which == 1:
            world.add(AABB(c, c + rng.uniform(1.0, 6.0, 2)))
        elif which == 2:
            world.add(Circle(c, float(rng.uniform(0.5, 4.0))))
        else:
            world.add(Polygon([c + (0.0, 0.0), c + (5.0, 0.0), c + (4.0, 3.0), c + (1.0, 4.0)]))
    world.add(Segment((10.0, 50.0), (90.0, 50.0)))
    world.add(Segment((50.0, 10.0), (50.0, 90.0)))
    return world


def _check_rows(world: World, origins: np.ndarray, directions: np.ndarray) -> int:
    """Every batch row bit for bit World.raycast of the Ray through the same direction (not
    normalised by the caller); returns how many hit."""
    batch = world.raycast_many(origins, directions)
    hits = 0
    for i in range(origins.shape[0]):
        ray = Ray(origins[i], directions[i])
        hit = world.raycast(ray)
        assert batch.hit[i] == (hit is not None), i
        if hit is None:
            continue
        hits += 1
        assert batch.handle[i] == hit.handle, i
        assert _bits((batch.distance[i],)) == _bits((hit.distance,)), i
        assert _bits(batch.point[i]) == _bits(hit.point), i
        assert _bits(batch.normal[i]) == _bits(hit.normal), i
    return hits


@pytest.mark.parametrize("scale", [1e-6, 1.0, 1e6])
def test_batch_rows_equal_scalar_rays_bit_for_bit(scale: float) -> None:
    """Directions of every length (not unit: 1e-300 to 1e40, subnormal, axis-aligned) from
    random origins and aimed at polygon corners, along polygon and box edges, at box corners
    and grazing circles: each batch row is its scalar ray to the last bit (before the shared
    formula, the batch's C hypot and the Ray's math.hypot differed in the last bit for about
    0.3% of directions)."""
    world = _scene()
    rng = np.random.default_rng(11)
    m = 600
    origins = rng.uniform(-10.0, 110.0, (m, 2))
    directions = rng.normal(size=(m, 2)) * rng.choice([1e-300, 1e-9, 1.0, 1e9, 1e40], (m, 1))
    # subnormal directions: 1 to 999 times the smallest float, either sign
    directions[:20] = rng.integers(1, 1000, (20, 2)) * rng.choice([-1.0, 1.0], (20, 2)) * 5e-324
    directions[20:30] = [[1.0, 0.0], [-1.0, 0.0], [0.0, 1.0], [0.0, -1.0], [3.0, 0.0],
                         [0.0, -7.0], [1.0, 1.0], [-2.0, 2.0], [1e-310, 1e-310], [5e-324, 0.0]]
    origins[20:30] = [50.0, 30.0]
    # aimed at polygon corners and box corners, and along their edges (collinear)
    for k, h in enumerate(world.handles()[:40]):
        shape = world.shape(h)
        row = 40 + 2 * k
        if isinstance(shape, Polygon):
            p, q = np.array(shape.points[0]), np.array(shape.points[1])
            origins[row] = p - 3.0 * (q - p)
            directions[row] = q - p
            origins[row + 1] = p + (0.3, -9.0)
            directions[row + 1] = p - origins[row + 1]
        elif isinstance(shape, AABB):
            lo, hi = np.array(shape.min), np.array(shape.max)
            # along the bottom edge, and at the top right corner from below left
            origins[row] = (lo[0] - 5.0, lo[1])
            directions[row] = (1.0, 0.0)
            origins[row + 1] = hi - (8.0, 6.0)
            directions[row + 1] = (4.0, 3.0)
        elif isinstance(shape, Circle):
            c = np.array(shape.center)
            origins[row] = c + (-20.0, shape.radius)
            directions[row] = (1.0, 0.0)
    o = origins * scale
    assert _check_rows(world_scaled(world, scale), o, directions) > m // 3


def world_scaled(world: World, scale: float) -> World:
    """The world with every collider's coordinates times ``scale``."""
    out = World()
    for h in world.handles():
        s = world.shape(h)
        if isinstance(s, Segment):
            out.add(Segment(np.array(s.a) * scale, np.array(s.b) * scale))
        elif isinstance(s, AABB):
            out.add(AABB(np.array(s.min) * scale, np.array(s.max) * scale))
        elif isinstance(s, Circle):
            out.add(Circle(np.array(s.center) * scale, s.radius * scale))
        else:
            assert isinstance(s, Polygon)
            out.add(Polygon([np.array(p) * scale for p in s.points]))
    return out
