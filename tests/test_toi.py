"""Seed 003's time of impact (plane, two circles, advance) and seed 000's two moving balls.

Each of seed 003's common mistakes has a test here that would catch it.
"""

from __future__ import annotations

import math

import pytest

from swept import Circle, Plane, Vec2
from swept.sweep import sweep
from swept.toi import advance, toi_circles, toi_plane


def test_toi_plane_seed_003_trace() -> None:
    # radius 2, centre (0, 10), displacement (0, -30), plane y = 0: t = 8 / 30
    assert toi_plane((0, 10), 2, (0, -30), 0) == pytest.approx(8 / 30, abs=1e-15)
    assert round(toi_plane((0, 10), 2, (0, -30), 0), 4) == 0.2667  # type: ignore[arg-type]
    # the same plane as a half-plane (solid below y = 0)
    assert toi_plane((0, 10), 2, (0, -30), Plane((0, 1), 0)) == pytest.approx(8 / 30,
                                                                              abs=1e-15)


def test_toi_plane_from_below_crosses_the_other_way() -> None:
    assert toi_plane((0, -10), 2, (0, 30), 0) == pytest.approx(8 / 30, abs=1e-15)


def test_mistake_negative_or_late_t_is_not_a_hit() -> None:
    # the touch is in the past (moving away) or beyond this step (t > 1)
    assert toi_plane((0, 10), 2, (0, 30), 0) is None
    assert toi_plane((0, 10), 2, (0, -5), 0) is None
    assert toi_circles((0, 0), 1, (1, 0), (6, 0), 1, (0, 0)) is None
    assert toi_circles((0, 0), 1, (-10, 0), (6, 0), 1, (0, 0)) is None


def test_mistake_parallel_motion_does_not_divide_by_zero() -> None:
    assert toi_plane((0, 10), 2, (30, 0), 0) is None
    assert toi_plane((0, 10), 2, (0, 0), 0) is None
    assert toi_plane((0, 10), 2, (30, 0), Plane((0, 1), 0)) is None


def test_mistake_larger_root_would_report_leaving() -> None:
    # seed 003: A (0, 0) r 1 moving (10, 0); B (6, 0) r 1 moving (-2, 0): 1/3, not 2/3
    t = toi_circles((0, 0), 1, (10, 0), (6, 0), 1, (-2, 0))
    assert t == pytest.approx(1 / 3, abs=1e-15)
    assert abs(t - (6 + 2) / 12) > 0.1  # type: ignore[operator]


def test_mistake_already_overlapping_start_hits_at_zero() -> None:
    assert toi_plane((0, 1), 2, (0, -1), 0) == 0.0
    assert toi_plane((0, 1), 2, (0, 1), 0) == 0.0  # a resting body still reports contact
    assert toi_circles((0, 0), 1, (1, 0), (1.5, 0), 1, (0, 0)) == 0.0
    # no relative motion and apart: never
    assert toi_circles((0, 0), 1, (3, 0), (5, 0), 1, (3, 0)) is None


def test_mistake_overlapping_but_leaving_is_not_bounced() -> None:
    # the circle overlaps the floor but is already moving up: it carries on, unbounced
    result = advance((0, 1), 2, (0, 5), [0])
    assert result.hits == ()
    assert result.center == Vec2(0, 6)
    assert result.displacement == Vec2(0, 5)


def test_advance_moves_to_the_toi_bounces_and_spends_the_rest() -> None:
    result = advance((0, 10), 2, (0, -30), [0], restitution=1.0)
    assert result.toi == pytest.approx(8 / 30, abs=1e-15)
    # at the touch y = 2; then the remaining 22/30 of the step goes up at 30 a step
    assert result.center.is_close((0, 2 + 22), 1e-12)
    assert result.displacement == Vec2(0, 30)
    half = advance((0, 10), 2, (0, -30), [0], restitution=0.5)
    assert half.center.is_close((0, 2 + 15 * 22 / 30), 1e-12)


def test_advance_takes_the_earliest_of_several_obstacles() -> None:
    obstacles = [Plane((0, 1), 0), Circle((0, 6), 1), 20.0]
    result = advance((0, 10), 1, (0, -30), obstacles)
    assert result.hits[0][1] == 1  # the circle at y = 6 is met first: t = 2 / 30
    assert result.toi == pytest.approx(2 / 30, abs=1e-15)


def test_advance_against_a_moving_circle_uses_the_relative_velocity() -> None:
    result = advance((0, 0), 1, (10, 0), [(Circle((6, 0), 1), (-2, 0))], restitution=1.0)
    assert result.toi == pytest.approx(1 / 3, abs=1e-15)
    # relative velocity (12, 0) reflects to (-12, 0); plus the obstacle's (-2, 0)
    assert result.displacement.is_close((-14, 0), 1e-12)


def test_two_balls_seed_000() -> None:
    # radii 10, A (0, 0) at (300, 0), B (100, 5) at (-200, 0): 80.64 px of relative travel
    a = Circle((0, 0), 10)
    b = Circle((100, 5), 10)
    hit = sweep(a, (300, 0), b, (-200, 0))
    assert hit is not None
    relative_travel = hit.fraction * 500
    assert relative_travel == pytest.approx(100 - math.sqrt(375), abs=1e-9)
    assert round(relative_travel, 2) == 80.64
    assert round(hit.fraction, 2) == 0.16  # of a 1-second step: 0.16 s
    assert hit.position.is_close((300 * hit.fraction, 0), 1e-9)
    assert round(hit.position.x, 1) == 48.4
    b_at = Vec2(100, 5) + Vec2(-200, 0) * hit.fraction
    assert round(b_at.x, 1) == 67.7
    assert hit.position.distance_to(b_at) == pytest.approx(20, abs=1e-9)
    # the point is where they touch: on both rims
    assert hit.point.distance_to(b_at) == pytest.approx(10, abs=1e-9)
    assert hit.point.distance_to(hit.position) == pytest.approx(10, abs=1e-9)


def test_bad_input_is_named() -> None:
    with pytest.raises(ValueError, match="radius"):
        toi_plane((0, 0), -1, (0, 1), 0)
    with pytest.raises(ValueError, match="displacement"):
        toi_plane((0, 0), 1, (0, math.nan), 0)
    with pytest.raises(ValueError, match="plane"):
        toi_plane((0, 0), 1, (0, 1), math.inf)
    with pytest.raises(ValueError, match="center_b"):
        toi_circles((0, 0), 1, (0, 1), (math.nan, 0), 1, (0, 0))
    with pytest.raises(TypeError, match=r"obstacles\[0\]"):
        advance((0, 0), 1, (1, 0), [Circle((0, 0), 1).aabb.__class__((0, 0, 0), (1, 1, 1))])
