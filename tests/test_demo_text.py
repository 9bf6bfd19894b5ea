"""Seed 002's demos: mtv, bouncing and slide print the seed's log lines, and the tunnel model.

The labels use swept's names where the seed used its own functions (``boxContact(floor,
feet)`` is ``contact(feet, floor)``, since swept's contact moves its *first* shape out of the
second; ``pushOut`` is ``push_out``); the numbers are the seed's.
"""

from __future__ import annotations

import pytest

from swept.demos.text import MAX_SLOPE, TEXT_DEMOS, bouncing, log_line, mtv, slide, slide_split
from swept.demos.tunnel import (
    GAP,
    OFFSET_MAX,
    RADIUS,
    SPEED_MAX,
    SPEED_MIN,
    WALL,
    Tunnel,
    discrete_hit,
    frame_positions,
    step_for,
    swept_hit,
)

SEED_MTV = [
    "push out along x \u2192 5.40 m",
    "push out along y \u2192 0.30 m // the shallowest, so this is the way out",
    "push out along z \u2192 5.40 m",
    "contact(feet, floor).normal \u2192 (0, 1, 0) // straight up, as a floor should",
    "push_out(position, contact) from y = 0.60 \u2192 0.901 // the depth plus a 1 mm skin, so "
    "the next test is not a coin flip",
]

SEED_BOUNCING = [
    "dropped from 2 m with restitution 0.5, apex after 1, 2 and 3 bounces \u2192 0.500 m, "
    "0.125 m, 0.031 m",
    "dropped from 2 m with restitution 0.8, apex after 1, 2 and 3 bounces \u2192 1.280 m, "
    "0.819 m, 0.524 m",
    "dropped from 2 m with restitution 0.95, apex after 1, 2 and 3 bounces \u2192 1.805 m, "
    "1.629 m, 1.470 m // sounds nearly lossless, still down a quarter after three",
    "dropped from 2 m with restitution 1, apex after 1, 2 and 3 bounces \u2192 2.000 m, "
    "2.000 m, 2.000 m // never settles, which is why nothing uses it",
    "landing at 5 m/s along the floor with friction 0 \u2192 5.00 m/s left // restitution "
    "never touches this part",
    "landing at 5 m/s along the floor with friction 0.3 \u2192 3.50 m/s left",
]


def test_mtv_prints_the_seeds_lines() -> None:
    assert mtv() == SEED_MTV


def test_bouncing_prints_the_seeds_lines() -> None:
    assert bouncing() == SEED_BOUNCING


def test_log_line_has_an_arrow_and_an_optional_note() -> None:
    assert log_line("a", "b") == "a \u2192 b"
    assert log_line("a", "b", "c") == "a \u2192 b // c"


def test_slide_prints_the_split_at_several_slopes_with_the_46_degree_limit() -> None:
    lines = slide()
    assert len(lines) == 8
    assert all("46\u00b0 limit" in line for line in lines)
    by_slope = {line.split("slope ")[1].split("\u00b0")[0]: line for line in lines[:-1]}
    assert "walkable, under" in by_slope["0"]
    assert "walkable, under" in by_slope["46"]
    assert "too steep to stand on, over" in by_slope["47"]
    assert "too steep to stand on, over" in by_slope["90"]
    assert "\u2192 0.87 m/s blocked, 4.92 m/s slides along" in by_slope["0"]
    assert "\u2192 4.53 m/s blocked, 2.11 m/s slides along" in by_slope["55"]
    assert "nothing blocked" in lines[-1]


def test_slide_split_keeps_the_velocity_whole() -> None:
    # blocked and sliding are the two legs of a right triangle on the velocity
    for tilt in (0.0, 20.0, 46.0, 70.0, 90.0):
        slope, blocked, sliding, walkable = slide_split(tilt)
        assert slope == pytest.approx(tilt)
        assert blocked**2 + sliding**2 == pytest.approx(25.0)
        assert walkable == (tilt <= MAX_SLOPE)


def test_the_slide_limit_flips_between_46_and_47_degrees() -> None:
    assert slide_split(46.0)[3] and not slide_split(47.0)[3]


def test_every_text_demo_is_named() -> None:
    assert set(TEXT_DEMOS) == {"mtv", "bouncing", "slide"}


# ------------------------------------------------------------------------------- the tunnel

def test_tunnel_at_60_m_s_covers_a_metre_a_frame_against_a_0_7_m_window() -> None:
    assert step_for(60.0) == 1.0
    assert pytest.approx(0.7) == GAP
    assert WALL.max.x - WALL.min.x == pytest.approx(0.1)


def test_tunnel_readouts() -> None:
    lead = "1.00 m per frame, and the wall plus the radius is only 0.70 m wide \u00b7 "
    assert Tunnel(60.0, 0.0).readout() == lead + "frame 6 happens to land inside it, at x = 0.00 m"
    assert Tunnel(60.0, 0.5).readout() == (lead + "every frame lands clear of it, so nothing "
                                           "was ever detected")
    assert Tunnel(60.0, 0.5, swept=True).readout() == (
        lead + "the sweep on frame 6 crosses it, contact at x = -0.35 m")


def test_tunnel_forty_offsets_at_60_m_s_give_both_outcomes_to_the_frame_test() -> None:
    found = [discrete_hit(60.0, i / 40) is not None for i in range(40)]
    assert any(found) and not all(found)


def test_tunnel_sweep_catches_every_speed_and_offset_one_radius_from_the_wall() -> None:
    speeds = [SPEED_MIN + 15.0 * i for i in range(19)]
    assert speeds[-1] == SPEED_MAX
    for speed in speeds:
        for k in range(20):
            hit = swept_hit(speed, 0.05 * k)
            assert hit is not None, (speed, k)
            # resting against the pane, not inside it
            assert hit.x == pytest.approx(WALL.min.x - RADIUS, abs=1e-9)


def test_tunnel_frames_start_at_the_offset_and_stay_on_the_path() -> None:
    xs = frame_positions(60.0, 0.25)
    assert xs[0] == pytest.approx(-5.75)
    assert all(b - a == pytest.approx(1.0) for a, b in zip(xs, xs[1:]))
    assert len(frame_positions(30.0, 0.0)) == 25


def test_tunnel_keys_stay_in_range() -> None:
    demo = Tunnel()
    for _ in range(30):
        demo.faster()
    assert demo.speed == SPEED_MAX
    for _ in range(30):
        demo.slower()
    assert demo.speed == SPEED_MIN
    for _ in range(30):
        demo.shift(1)
    assert demo.offset == pytest.approx(OFFSET_MAX)
    demo.shift(-100)
    assert demo.offset == 0.0
    demo.toggle_sweep()
    assert demo.swept and demo.hit() is not None


def test_tunnel_rejects_settings_out_of_range() -> None:
    with pytest.raises(ValueError, match="speed"):
        Tunnel(speed=10.0)
    with pytest.raises(ValueError, match="offset"):
        Tunnel(offset=1.0)
