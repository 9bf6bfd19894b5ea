"""Vec2 / Vec3 arithmetic and the one coercion path for user input."""

from __future__ import annotations

import math
from fractions import Fraction

import numpy as np
import pytest

from swept import Vec2, Vec3, as_vec2, as_vec3, as_vector
from swept.vec import as_finite


def test_vec2_arithmetic_and_products() -> None:
    a = Vec2(3, 4)
    b = Vec2(1, -2)
    assert a + b == Vec2(4, 2)
    assert a - b == Vec2(2, 6)
    assert a * 2 == Vec2(6, 8)
    assert 2 * a == Vec2(6, 8)
    assert a / 2 == Vec2(1.5, 2)
    assert -a == Vec2(-3, -4)
    assert a.dot(b) == 3 - 8
    assert a.cross(b) == 3 * -2 - 4 * 1
    assert a.length() == 5.0
    assert a.length_squared() == 25.0
    assert a.normalized() == Vec2(0.6, 0.8)
    assert a.perp() == Vec2(-4, 3)
    assert a + (1, 1) == Vec2(4, 5)
    assert (1, 1) + a == Vec2(4, 5)
    assert (10, 10) - a == Vec2(7, 6)


def test_vec2_is_an_immutable_hashable_tuple() -> None:
    a = Vec2(1, 2)
    x, y = a
    assert (x, y) == (1.0, 2.0)
    assert a.x == 1.0 and a.y == 2.0
    assert {a: 1}[Vec2(1.0, 2.0)] == 1
    with pytest.raises(AttributeError):
        a.x = 5  # type: ignore[misc]
    assert isinstance(a.x, float)
    assert repr(a) == "Vec2(1.0, 2.0)"


def test_vec3_arithmetic_and_cross() -> None:
    a = Vec3(1, 0, 0)
    b = Vec3(0, 1, 0)
    assert a.cross(b) == Vec3(0, 0, 1)
    assert (a + b) * 2 == Vec3(2, 2, 0)
    assert Vec3(2, 3, 6).length() == 7.0
    assert Vec3(0, 0, 5).normalized() == Vec3(0, 0, 1)
    p = Vec3(0.3, -2.0, 0.7).perp()
    assert abs(p.dot(Vec3(0.3, -2.0, 0.7))) < 1e-15
    assert math.isclose(p.length(), 1.0, rel_tol=1e-15)


def test_zero_vector_cannot_be_normalized() -> None:
    with pytest.raises(ValueError):
        Vec2(0, 0).normalized()
    with pytest.raises(ValueError):
        Vec3(0, 0, 0).normalized()


def test_coercion_accepts_sequences_arrays_and_pygame() -> None:
    assert as_vec2((1, 2)) == Vec2(1, 2)
    assert as_vec2([1, 2]) == Vec2(1, 2)
    assert as_vec2(np.array([1.5, 2.5])) == Vec2(1.5, 2.5)
    assert as_vec3(np.array([1, 2, 3], dtype=np.int32)) == Vec3(1, 2, 3)
    assert type(as_vector((1, 2, 3))) is Vec3
    assert type(as_vector((1, 2))) is Vec2
    pygame = pytest.importorskip("pygame")
    assert as_vec2(pygame.Vector2(3, 4)) == Vec2(3, 4)
    assert as_vec3(pygame.Vector3(3, 4, 5)) == Vec3(3, 4, 5)


@pytest.mark.parametrize("bad", [(math.nan, 0), (0, math.inf), (-math.inf, 1)])
def test_coercion_rejects_non_finite_naming_the_argument(bad: tuple[float, float]) -> None:
    with pytest.raises(ValueError, match="center"):
        as_vec2(bad, "center")
    with pytest.raises(ValueError, match="center"):
        as_vec2(Vec2(*bad), "center")


def test_coercion_rejects_wrong_shapes_and_types() -> None:
    with pytest.raises(ValueError, match="origin"):
        as_vec2((1, 2, 3), "origin")
    with pytest.raises(ValueError, match="origin"):
        as_vec3((1, 2), "origin")
    with pytest.raises(ValueError, match="origin"):
        as_vector((1,), "origin")
    with pytest.raises(TypeError, match="origin"):
        as_vec2("ab", "origin")
    with pytest.raises(TypeError, match="origin"):
        as_vec2(5, "origin")
    with pytest.raises(TypeError, match="origin"):
        as_vec2(("a", 1), "origin")


def test_scalar_coercion() -> None:
    assert as_finite(3, "r") == 3.0
    assert as_finite(math.inf, "m", allow_inf=True) == math.inf
    with pytest.raises(ValueError, match="radius"):
        as_finite(-1, "radius", minimum=0.0)
    with pytest.raises(ValueError, match="radius"):
        as_finite(math.nan, "radius")
    with pytest.raises(ValueError, match="radius"):
        as_finite(math.inf, "radius")
    with pytest.raises(TypeError, match="radius"):
        as_finite("1", "radius")


# A subnormal length has lost bits (hypot(5e-324, 5e-324) rounds to 5e-324) and an overflowed
# one is infinite: dividing by either gave (1, 1) or (0, 0), no unit vector. normalized() now
# rescales such vectors by a power of two first; checked here against exact arithmetic.
_EXTREME_VECTORS = [
    (5e-324, 5e-324, 0.0),  # the smallest subnormals, diagonal
    (3e-320, 1e-321, 0.0),
    (1e-310, 3e-310, 2e-311),  # subnormal components, a subnormal length
    (2.2e-308, 2.2e-308, 2.2e-308),  # normal components, the squares underflow
    (1.7e308, 1.7e308, 0.0),  # the length overflows
    (1.7e308, -1.7e308, 1e308),
    (-1.0e-320, 1.0e300, 0.0),  # mixed: the small component rounds away
]


def _exact_unit(v: tuple[float, ...]) -> list[Fraction]:
    """``v / |v|`` in rational arithmetic: the length by an integer square root carrying 300
    bits more than a double has (its error far below an ulp of any component)."""
    sq = sum(Fraction(c) ** 2 for c in v)
    bits = 2000  # enough to bring the smallest subnormal's square (2^-2148) above 1
    root = Fraction(math.isqrt(int(sq * 2 ** (2 * (bits + 300)))), 2 ** (bits + 300))
    return [Fraction(c) / root for c in v]


def _assert_unit_exactly(u: tuple[float, ...], v: tuple[float, ...]) -> None:
    """Each component of ``u`` within 2 ulps of the exact ``v / |v|`` (a unit vector in the
    same direction)."""
    for got, want in zip(u, _exact_unit(v)):
        assert abs(Fraction(got) - want) <= 2 * Fraction(math.ulp(float(want))), (u, v)


@pytest.mark.parametrize("v", _EXTREME_VECTORS)
def test_normalized_extreme_lengths_stay_unit(v: tuple[float, float, float]) -> None:
    u3 = Vec3(*v).normalized()
    _assert_unit_exactly(u3, v)
    if v[2] == 0.0:
        u2 = Vec2(v[0], v[1]).normalized()
        _assert_unit_exactly(u2, v[:2])
        # the 2D and 3D forms agree on a vector in the plane
        assert u2 == pytest.approx((u3[0], u3[1]), rel=0, abs=4e-16)
