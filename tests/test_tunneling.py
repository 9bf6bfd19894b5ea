"""safe_speed and catch_rate: the discrete test's band against a step's crossing."""

from __future__ import annotations

import math

import pytest

from swept.tunneling import catch_rate, safe_speed


def test_bullet_time_safe_speed_is_851_px_per_s() -> None:
    # radius 7, a wall with no thickness, 0.16 rad to the normal, steps of 1/60 s (seed 000)
    v = safe_speed(7, 0, 0.16, 1 / 60)
    assert v == pytest.approx(14 * 60 / math.cos(0.16), rel=1e-12)
    assert round(v) == 851


def test_safe_speed_head_on_and_thick_walls() -> None:
    # seed 000 exercise 3: radius 5, a wall 4 thick, straight on
    assert safe_speed(5, 4, 0, 1 / 60) == pytest.approx(14 * 60, rel=1e-12)
    assert safe_speed(5, 4, 0, 1 / 144) == pytest.approx(14 * 144, rel=1e-12)
    # parallel to the wall: never crosses it
    assert safe_speed(5, 0, math.pi / 2, 1 / 60) == math.inf
    assert safe_speed(0, 0, 0, 1 / 60) == 0.0


def test_catch_rate_matches_the_band_over_the_crossing() -> None:
    across = 2000 / 60 * math.cos(0.16)
    assert catch_rate(2000, 7, 0, 0.16, 1 / 60) == pytest.approx(14 / across, rel=1e-12)
    assert round(100 * catch_rate(2000, 7, 0, 0.16, 1 / 60)) == 43
    assert catch_rate(755, 7, 0, 0.16, 1 / 60) == 1.0
    assert catch_rate(850, 7, 0, 0.16, 1 / 60) == 1.0
    assert catch_rate(852, 7, 0, 0.16, 1 / 60) < 1.0
    assert catch_rate(0, 7, 0, 0.16, 1 / 60) == 1.0


@pytest.mark.parametrize(
    ("args", "name"),
    [
        ((-1, 0, 0, 1 / 60), "radius"),
        ((1, -1, 0, 1 / 60), "thickness"),
        ((1, 0, math.nan, 1 / 60), "angle"),
        ((1, 0, 4.0, 1 / 60), "angle"),
        ((1, 0, 0, 0), "step"),
        ((1, 0, 0, math.inf), "step"),
    ],
)
def test_bad_input_is_named(args: tuple[float, ...], name: str) -> None:
    with pytest.raises(ValueError, match=name):
        safe_speed(*args)
    with pytest.raises(ValueError, match="speed"):
        catch_rate(-5, 1, 0, 0, 1 / 60)
