"""Bullet Time's model (seed 000), headless: the seed's figures, the keys and the two steps.

The model takes fixed steps of 1/60 s. The naive test moves the ball a whole step and only
then looks for an overlap with the thin wall, so a step longer than the 14 px band around the
wall can jump it; the swept test casts the move against the wall grown by the radius and never
can. Each step counts an approach: a bounce is one caught, a step whose centre crossed the wall
without a bounce is one missed. The seed's numbers are reproduced exactly in float64.
"""

from __future__ import annotations

import math

import pytest

from swept.demos.bullet_time import (
    ARENA,
    MAX_SPEED,
    MIN_SPEED,
    RADIUS,
    START_ANGLE,
    STEP,
    TRAIL_LENGTH,
    WALL_A,
    WALL_NORMAL,
    BulletTime,
    keep_in_arena,
    lround,
    naive_step,
)
from swept.tunneling import catch_rate, safe_speed
from swept.vec import Vec2


def test_wall_normal_faces_left() -> None:
    assert WALL_NORMAL == (-1.0, 0.0)


def test_before_any_approach_the_share_reads_100() -> None:
    demo = BulletTime()
    assert demo.readout() == ("naive test: caught 0 of 0 approaches (100%)",
                              "speed 2000 px/s: 33 px a step")


def test_naive_at_2000_misses_the_first_approach_within_a_fifth_of_a_second() -> None:
    demo = BulletTime()
    demo.run(12)  # a fifth of a second
    assert (demo.caught, demo.missed) == (0, 1)
    assert demo.readout()[0] == "naive test: caught 0 of 1 approaches (0%)"


def test_naive_at_2000_caught_4_of_8_after_327_steps() -> None:
    demo = BulletTime()
    demo.run(327)
    assert demo.readout() == ("naive test: caught 4 of 8 approaches (50%)",
                              "speed 2000 px/s: 33 px a step")


def test_the_figures_last_miss_ends_9_px_past_the_wall_with_the_edge_2_px_clear() -> None:
    demo = BulletTime()
    misses = []
    for _ in range(327):
        report = demo.step()
        if report.missed:
            misses.append(report)
    assert len(misses) == 4
    last = misses[-1]
    past = last.end.x - WALL_A.x
    assert lround(past) == 9
    assert lround(past - RADIUS) == 2
    # going right, higher up than the miss before it, which went left
    assert last.end.x > last.start.x and misses[-2].end.x < misses[-2].start.x
    assert last.end.y < misses[-2].end.y


def test_naive_at_2000_catches_about_37_percent_over_a_long_run() -> None:
    demo = BulletTime()
    demo.run(20_000)
    assert demo.share == 37
    assert demo.readout()[0] == "naive test: caught 145 of 391 approaches (37%)"


def test_the_random_landing_estimate_at_2000_is_43_percent_and_safe_is_851() -> None:
    assert catch_rate(2000.0, RADIUS, 0.0, START_ANGLE, STEP) == pytest.approx(14 / 32.91,
                                                                               abs=5e-4)
    assert round(100 * catch_rate(2000.0, RADIUS, 0.0, START_ANGLE, STEP)) == 43
    assert round(safe_speed(RADIUS, 0.0, START_ANGLE, STEP)) == 851


def test_down_seven_times_is_755_px_s_and_every_approach_is_caught() -> None:
    demo = BulletTime()
    for _ in range(7):
        demo.speed_down()
    assert demo.readout()[1] == "speed 755 px/s: 13 px a step"
    # 12.4 px across the wall a step, less than the 14 px band
    assert demo.speed * STEP * math.cos(START_ANGLE) == pytest.approx(12.4, abs=0.05)
    demo.run(10_000)
    assert demo.approaches > 60
    assert demo.missed == 0
    assert demo.share == 100


def test_up_to_the_top_speed_the_naive_test_catches_about_a_third() -> None:
    demo = BulletTime()
    for _ in range(8):
        demo.speed_up()
    assert demo.speed == MAX_SPEED
    assert demo.readout()[1] == "speed 5000 px/s: 83 px a step"
    demo.run(20_000)
    assert demo.approaches > 500
    assert demo.share == 31  # "about a third"


@pytest.mark.parametrize("speed", [300.0, 755.0, 2000.0, 3500.0, 5000.0])
def test_swept_catches_every_approach_at_every_speed(speed: float) -> None:
    demo = BulletTime(speed=speed, swept=True)
    demo.run(3000)
    assert demo.approaches > 0
    assert demo.missed == 0
    assert demo.share == 100


def test_swept_after_space_at_top_speed_catches_every_approach() -> None:
    demo = BulletTime()
    demo.run(100)
    demo.toggle_test()
    for _ in range(8):
        demo.speed_up()
    demo.run(6000)
    assert demo.swept and demo.approaches > 100 and demo.missed == 0


def test_swept_ball_never_ends_a_step_overlapping_the_wall() -> None:
    demo = BulletTime(speed=5000.0, swept=True)
    for _ in range(2000):
        demo.step()
        # the centre never inside the wall grown by the radius (a hair of rounding aside)
        y = min(max(demo.pos.y, 240.0), 500.0)
        assert math.hypot(demo.pos.x - 500.0, demo.pos.y - y) >= RADIUS - 1e-9


def test_naive_step_folds_the_overshoot_back_out() -> None:
    # ends 5 px from the wall, 2 px past first contact: folded back to 4 px short of it
    pos, vel, bounced = naive_step(Vec2(485.0, 300.0), Vec2(600.0, 0.0))
    assert bounced
    assert pos == pytest.approx((491.0, 300.0), abs=1e-12)
    assert vel == (-600.0, 0.0)


def test_naive_step_sends_a_centre_that_crossed_the_line_back_the_way_it_came() -> None:
    pos, vel, bounced = naive_step(Vec2(497.0, 300.0), Vec2(600.0, 0.0))
    assert bounced
    assert pos.x < 500.0 and vel.x < 0.0


def test_naive_step_leaves_a_ball_moving_away_alone() -> None:
    pos, vel, bounced = naive_step(Vec2(495.0, 300.0), Vec2(-60.0, 0.0))
    assert not bounced
    assert pos == pytest.approx((494.0, 300.0)) and vel == (-60.0, 0.0)


def test_naive_step_clear_of_the_wall_just_moves() -> None:
    pos, vel, bounced = naive_step(Vec2(150.0, 300.0), Vec2(600.0, 60.0))
    assert not bounced
    assert pos == pytest.approx((160.0, 301.0))


def test_keep_in_arena_mirrors_the_overshoot_and_turns_the_velocity_inward() -> None:
    left = ARENA.min.x + RADIUS
    pos, vel = keep_in_arena(Vec2(left - 5.0, 300.0), Vec2(-100.0, 20.0))
    assert pos == pytest.approx((left + 5.0, 300.0))
    assert vel == (100.0, 20.0)
    bottom = ARENA.max.y - RADIUS
    pos, vel = keep_in_arena(Vec2(400.0, bottom + 3.0), Vec2(10.0, 50.0))
    assert pos == pytest.approx((400.0, bottom - 3.0))
    assert vel == (10.0, -50.0)


def test_keys_restart_the_counts_and_keep_the_speed_in_range() -> None:
    demo = BulletTime()
    demo.run(327)
    assert demo.approaches == 8
    demo.toggle_test()
    assert demo.swept and demo.approaches == 0
    demo.run(10)
    demo.speed_up()
    assert demo.speed == pytest.approx(2300.0) and demo.approaches == 0
    heading = demo.vel.normalized()
    for _ in range(30):
        demo.speed_down()
    assert demo.speed == MIN_SPEED
    assert demo.vel.length() == pytest.approx(MIN_SPEED)
    assert demo.vel.normalized() == pytest.approx(heading)


def test_pause_stops_the_steps_and_the_accumulator_keeps_the_rest() -> None:
    demo = BulletTime()
    demo.toggle_pause()
    assert demo.advance(1.0) == 0 and demo.steps == 0
    assert demo.readout()[1].endswith("(paused)")
    demo.toggle_pause()
    assert demo.advance(0.05) == 3  # three whole steps of 1/60 s
    assert demo.accumulator == pytest.approx(0.05 - 3 * STEP, abs=1e-12)
    assert demo.advance(STEP / 2) == 0
    assert demo.advance(STEP / 2) == 1


def test_the_trail_keeps_the_last_30_places() -> None:
    demo = BulletTime()
    demo.run(45)
    assert len(demo.trail) == TRAIL_LENGTH
    assert demo.trail[-1] == demo.pos


def test_speed_must_be_positive() -> None:
    with pytest.raises(ValueError, match="speed"):
        BulletTime(speed=0.0)


def test_lround_rounds_half_away_from_zero() -> None:
    assert (lround(32.5), lround(33.4), lround(-2.5), lround(0.0)) == (33, 33, -3, 0)
