"""Tunnel (seed 002): a sphere fast enough to skip over a thin wall, and a sweep that cannot.

The model only. A ball of radius 0.3 m flies along the x axis at 30 to 300 m/s toward a pane
0.1 m thick, sampled at 60 frames a second. The discrete test looks at each frame's position
and notices the wall only when a frame lands inside the 0.7 m window (the pane plus the radius
on each side); the swept test casts each frame's move and finds the contact one radius short of
the pane, whatever the speed. "Where the frames land" shifts every frame along the path by a
share of one frame's move: same speed, same wall, and the discrete answer flips.
"""

from __future__ import annotations

from dataclasses import dataclass

from ..contact import contact
from ..shapes import AABB, Circle
from ..sweep import sweep

__all__ = [
    "FRAME_RATE",
    "RADIUS",
    "WALL",
    "GAP",
    "DOTS",
    "START_X",
    "END_X",
    "SPEED_MIN",
    "SPEED_MAX",
    "SPEED_STEP",
    "SPEED_DEFAULT",
    "OFFSET_MAX",
    "OFFSET_STEP",
    "TunnelHit",
    "step_for",
    "frame_positions",
    "discrete_hit",
    "swept_hit",
    "Tunnel",
]

#: Frames a second: each frame moves the ball speed / 60.
FRAME_RATE = 60.0
#: The ball's radius, m.
RADIUS = 0.3
#: The pane: 0.1 m thick (x from -0.05 to 0.05) and 4.2 m tall, centred on the path.
WALL = AABB((-0.05, -2.1), (0.05, 2.1))
#: The window a frame's centre must land in to be noticed: the pane grown by the radius on
#: both sides, 0.7 m.
GAP = (WALL.max[0] - WALL.min[0]) + 2.0 * RADIUS
#: The most frames the demo shows.
DOTS = 40
#: Where the ball's path starts and ends, m.
START_X = -6.0
#: The path's far end, m.
END_X = 6.0
#: The speed slider's range and step, m/s.
SPEED_MIN = 30.0
#: The fastest speed, m/s.
SPEED_MAX = 300.0
#: The speed slider's step, m/s.
SPEED_STEP = 15.0
#: The speed the demo opens at, m/s: a metre a frame.
SPEED_DEFAULT = 60.0
#: The largest "where the frames land" offset (a share of one frame's move).
OFFSET_MAX = 0.95
#: The offset slider's step.
OFFSET_STEP = 0.05


@dataclass(frozen=True)
class TunnelHit:
    """Where a test noticed the wall."""

    #: the frame (counted from 0) that landed inside the window, or whose sweep crossed it
    frame: int
    #: the ball centre's x there, m: where the frame landed, or the contact for a sweep
    x: float


def step_for(speed: float) -> float:
    """How far one frame moves the ball, m."""
    return speed / FRAME_RATE


def frame_positions(speed: float, offset: float) -> list[float]:
    """The ball centre's x at each frame: from :data:`START_X`, shifted by ``offset`` of a
    frame's move, up to :data:`END_X` and at most :data:`DOTS` of them."""
    step = step_for(speed)
    xs = []
    for i in range(DOTS):
        x = START_X + (i + offset) * step
        if x > END_X:
            break
        xs.append(x)
    return xs


def discrete_hit(speed: float, offset: float) -> TunnelHit | None:
    """The first frame whose position overlaps the pane (the naive test), or ``None``."""
    for i, x in enumerate(frame_positions(speed, offset)):
        if contact(Circle((x, 0.0), RADIUS), WALL) is not None:
            return TunnelHit(i, x)
    return None


def swept_hit(speed: float, offset: float) -> TunnelHit | None:
    """The first frame whose move, swept, touches the pane, with the contact, or ``None``."""
    xs = frame_positions(speed, offset)
    for i in range(1, len(xs)):
        hit = sweep(Circle((xs[i - 1], 0.0), RADIUS), (xs[i] - xs[i - 1], 0.0), WALL)
        if hit is not None:
            return TunnelHit(i, hit.position[0])
    return None


class Tunnel:
    """The Tunnel demo's settings: the speed, where the frames land, and the test in use."""

    def __init__(self, speed: float = SPEED_DEFAULT, offset: float = 0.0,
                 swept: bool = False) -> None:
        if not SPEED_MIN <= speed <= SPEED_MAX:
            raise ValueError(f"speed must be from {SPEED_MIN:g} to {SPEED_MAX:g} m/s, "
                             f"got {speed!r}")
        if not 0.0 <= offset <= OFFSET_MAX:
            raise ValueError(f"offset must be from 0 to {OFFSET_MAX:g}, got {offset!r}")
        #: the ball's speed, m/s
        self.speed = float(speed)
        #: where the frames land: a share of one frame's move, 0 to 0.95
        self.offset = float(offset)
        #: True to sweep between frames, False for the discrete test
        self.swept = swept

    def faster(self) -> None:
        """The speed up a notch (15 m/s), at most 300."""
        self.speed = min(self.speed + SPEED_STEP, SPEED_MAX)

    def slower(self) -> None:
        """The speed down a notch (15 m/s), at least 30."""
        self.speed = max(self.speed - SPEED_STEP, SPEED_MIN)

    def shift(self, notches: int) -> None:
        """Move where the frames land by ``notches`` of 0.05, kept within 0 to 0.95."""
        offset = round(self.offset / OFFSET_STEP) + notches
        self.offset = min(max(offset, 0), round(OFFSET_MAX / OFFSET_STEP)) * OFFSET_STEP

    def toggle_sweep(self) -> None:
        """Sweep between frames, or go back to testing each frame."""
        self.swept = not self.swept

    def positions(self) -> list[float]:
        """The ball centre's x at each frame."""
        return frame_positions(self.speed, self.offset)

    def hit(self) -> TunnelHit | None:
        """What the test in use found, or ``None`` when it never saw the wall."""
        if self.swept:
            return swept_hit(self.speed, self.offset)
        return discrete_hit(self.speed, self.offset)

    def readout(self) -> str:
        """The demo's readout line."""
        found = self.hit()
        lead = (f"{step_for(self.speed):.2f} m per frame, and the wall plus the radius is only "
                f"{GAP:.2f} m wide \u00b7 ")
        if found is None:
            return lead + "every frame lands clear of it, so nothing was ever detected"
        if self.swept:
            return (lead + f"the sweep on frame {found.frame} crosses it, contact at "
                    f"x = {_metres(found.x)} m")
        return lead + f"frame {found.frame} happens to land inside it, at x = {_metres(found.x)} m"


def _metres(x: float) -> str:
    """``x`` to two decimals, never "-0.00"."""
    text = f"{x:.2f}"
    return "0.00" if text == "-0.00" else text
