"""Response functions: the seeds' numbers for slide, bounce, friction, skin, slopes, apexes."""

from __future__ import annotations

import math

import pytest
from hypothesis import given
from hypothesis import strategies as st

from swept import Contact, Vec2, Vec3
from swept.response import (
    apex_after_bounces,
    decompose,
    is_walkable,
    push_out,
    reflect,
    respond,
    slide,
    slope_angle,
)


def test_bounce_and_slide_on_a_floor_seed_004() -> None:
    # (300, 400) meets a floor whose normal is (0, -1) (y down): restitution 0.5
    assert reflect((300, 400), (0, -1), 0.5) == Vec2(300, -200)
    assert respond((300, 400), (0, -1), 0.5) == Vec2(300, -200)
    assert slide((300, 400), (0, -1)) == Vec2(300, 0)
    assert respond((300, 400), (0, -1), 0.0) == Vec2(300, 0)
    # the common mistake (reflect all, scale all) would give (150, -200); the split does not
    assert reflect((300, 400), (0, -1), 0.5) != Vec2(150, -200)
    assert reflect((300, 400), (0, -1)) == Vec2(300, -400)


def test_friction_acts_on_the_tangent_part_only_seed_002() -> None:
    assert respond((5, -1, 0), (0, 1, 0), 0, 0).length() == pytest.approx(5.00, abs=1e-12)
    assert respond((5, -1, 0), (0, 1, 0), 0, 0.3).length() == pytest.approx(3.50, abs=1e-12)


def test_a_velocity_already_leaving_is_left_alone() -> None:
    assert respond((3, -4), (0, -1), 0.5, 0.9) == Vec2(3, -4)


def test_decompose_splits_into_blocked_and_sliding() -> None:
    d = decompose((3, 4), (0, 2))
    assert d.amount == 4
    assert d.normal_part == Vec2(0, 4)
    assert d.tangent_part == Vec2(3, 0)


def test_push_out_with_a_millimetre_skin_seed_002() -> None:
    c = Contact(Vec3(0, 1, 0), 0.3, Vec3(0, 0, 0))
    assert push_out((0, 0.6, 0), c).y == pytest.approx(0.901, abs=1e-12)
    assert push_out((0, 0.6, 0), c, skin=0).y == pytest.approx(0.9, abs=1e-12)


@pytest.mark.parametrize(
    ("e", "apexes"),
    [(0.5, (0.500, 0.125, 0.031)), (0.8, (1.280, 0.819, 0.524)),
     (0.95, (1.805, 1.629, 1.470)), (1.0, (2.0, 2.0, 2.0))],
)
def test_apex_after_bounces_seed_002(e: float, apexes: tuple[float, ...]) -> None:
    for n, want in enumerate(apexes, start=1):
        assert round(apex_after_bounces(2, e, n), 3) == want
        assert apex_after_bounces(2, e, n) == pytest.approx(2 * e ** (2 * n), rel=1e-12)


def test_walkable_under_46_degrees_and_not_over_it() -> None:
    def normal_at(deg: float) -> Vec3:
        r = math.radians(deg)
        return Vec3(math.sin(r), math.cos(r), 0)

    assert slope_angle(normal_at(30)) == pytest.approx(30, abs=1e-9)
    assert is_walkable(normal_at(45.9), 46)
    assert not is_walkable(normal_at(46.1), 46)
    # 2D default up is (0, -1): a floor's normal points toward smaller y
    assert slope_angle((0, -1)) == 0.0
    assert slope_angle((1, 0)) == 90.0
    assert slope_angle((0, 1)) == 180.0
    assert is_walkable((0, 1), 45, up=(0, 1))


def test_bad_input_is_named() -> None:
    with pytest.raises(ValueError, match="n must not be"):
        reflect((1, 2), (0, 0))
    with pytest.raises(ValueError, match="restitution"):
        reflect((1, 2), (0, 1), -1)
    with pytest.raises(ValueError, match="friction"):
        respond((1, 2), (0, 1), 0, 1.5)
    with pytest.raises(ValueError, match="v"):
        slide((math.nan, 2), (0, 1))
    with pytest.raises(ValueError, match="same dimension"):
        slide((1, 2, 3), (0, 1))
    with pytest.raises(ValueError, match="bounces"):
        apex_after_bounces(2, 0.5, -1)


finite = st.floats(-1e3, 1e3, allow_nan=False)


@given(finite, finite, st.floats(0, 2 * math.pi), st.floats(0, 1))
def test_sliding_is_bouncing_with_no_bounce(vx: float, vy: float, a: float, e: float) -> None:
    n = Vec2(math.cos(a), math.sin(a))
    s = slide((vx, vy), n)
    assert abs(s.dot(n)) <= 1e-9 * (1 + abs(vx) + abs(vy))
    r = reflect((vx, vy), n, 0.0)
    assert s.is_close(r, 1e-12 * (1 + abs(vx) + abs(vy)))
    # the bounce keeps the tangent part and scales the normal part by -e
    b = reflect((vx, vy), n, e)
    d0 = decompose((vx, vy), n)
    d1 = decompose(b, n)
    assert d1.amount == pytest.approx(-e * d0.amount, abs=1e-9 * (1 + abs(vx) + abs(vy)))
    assert d1.tangent_part.is_close(d0.tangent_part, 1e-9 * (1 + abs(vx) + abs(vy)))
