"""Vec2 / Vec3 arithmetic and the one coercion path for user input."""

from __future__ import annotations

import math

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
