"""Bullet Time (seed 000): a fast ball, a thin wall, and a naive test against a swept one.

The model only: pure Python on swept's functions, no pygame, so it runs headless and in tests.
A ball of radius 7 zigzags round an arena at up to 5,000 px/s, in fixed steps of 1/60 s. The
*naive* test moves it the whole step and then looks for an overlap with the wall (folding any
overshoot back out); the *swept* test casts the move against the wall grown by the radius
(:func:`swept.step.swept_step`). Each step counts an approach to the wall: a bounce is one
caught, a step whose centre went straight through the wall without bouncing is one missed.
"""

from __future__ import annotations

import math
from collections import deque
from dataclasses import dataclass

from ..distance import closest_point
from ..raycast import ray_segment
from ..response import reflect
from ..shapes import AABB, Circle, Segment
from ..step import swept_step
from ..vec import Vec2

__all__ = [
    "STEP",
    "RADIUS",
    "ARENA",
    "WALL_A",
    "WALL_B",
    "WALL",
    "WALL_NORMAL",
    "START",
    "START_SPEED",
    "START_ANGLE",
    "MIN_SPEED",
    "MAX_SPEED",
    "SPEED_UP",
    "SPEED_DOWN",
    "TRAIL_LENGTH",
    "FIGURE_STEPS",
    "BulletTime",
    "naive_step",
    "keep_in_arena",
    "lround",
]

#: The simulation's fixed step, a sixtieth of a second.
STEP = 1.0 / 60.0
#: The ball's radius, in pixels.
RADIUS = 7.0
#: The arena the ball bounces round, from (60, 90) to (940, 640).
ARENA = AABB((60.0, 90.0), (940.0, 640.0))
#: The thin wall across the arena's middle: a segment with no thickness.
WALL_A = Vec2(500.0, 240.0)
#: The wall's lower end.
WALL_B = Vec2(500.0, 500.0)
#: The wall as a shape, for the swept step and the approach count.
WALL = Segment(WALL_A, WALL_B)
#: The wall's unit normal, the quarter turn of B - A: (-1, 0), facing left.
WALL_NORMAL = (WALL_B - WALL_A).perp().normalized()
#: Where the ball starts.
START = Vec2(150.0, 300.0)
#: The ball's starting speed, px/s.
START_SPEED = 2000.0
#: The ball's starting heading: radians below the horizontal (y grows down).
START_ANGLE = 0.16
#: The slowest speed the Down key reaches, px/s.
MIN_SPEED = 300.0
#: The fastest speed the Up key reaches, px/s.
MAX_SPEED = 5000.0
#: Up multiplies the speed by this.
SPEED_UP = 1.15
#: Down multiplies the speed by this.
SPEED_DOWN = 0.87
#: How many of the ball's last places the trail keeps.
TRAIL_LENGTH = 30
#: The steps of the seed's paused figure (about five and a half seconds): naive at 2,000 px/s
#: has then caught 4 of 8 approaches.
FIGURE_STEPS = 327


def lround(x: float) -> int:
    """Round half away from zero, as C's ``lround`` (Python's ``round`` rounds half to even)."""
    return int(math.floor(abs(x) + 0.5)) * (1 if x >= 0.0 else -1)


def naive_step(pos: Vec2, vel: Vec2) -> tuple[Vec2, Vec2, bool]:
    """One naive step: move the whole way, then test where the ball ended up.

    If it overlaps (or touches) the wall while moving into it, the overshoot past the point of
    contact is folded back out toward the side the step started on, and the velocity is
    reflected. Returns the new position, the new velocity and whether it bounced.
    """
    start = pos
    pos = pos + vel * STEP
    closest = closest_point(WALL, pos)
    offset = pos - closest
    if offset.length_squared() > RADIUS * RADIUS:
        # clear of the wall at the end of the step: the only thing this test can see
        return pos, vel, False
    # the wall's normal, turned toward the side the step started on (the centre may have
    # crossed the wall's line; it still goes back the way it came)
    back = WALL_NORMAL if (start - WALL_A).dot(WALL_NORMAL) >= 0.0 else -WALL_NORMAL
    if vel.dot(back) >= 0.0:
        # overlapping, but already moving away
        return pos, vel, False
    # how far past the point of contact the ball went, along the normal: fold it back out
    depth = RADIUS - offset.dot(back)
    pos = pos + back * (2.0 * depth)
    return pos, Vec2(*reflect(vel, back)), True


def keep_in_arena(pos: Vec2, vel: Vec2) -> tuple[Vec2, Vec2]:
    """Keep the ball in the arena: a centre past a side (less the radius) is mirrored back in
    by as much as it went past, and its velocity turned to head inward. Sides fill all the
    space beyond them, so this can never be tunneled through."""
    (x0, y0), (x1, y1) = ARENA.min, ARENA.max
    left, right = x0 + RADIUS, x1 - RADIUS
    top, bottom = y0 + RADIUS, y1 - RADIUS
    x, y = pos
    vx, vy = vel
    if x < left:
        x, vx = 2.0 * left - x, abs(vx)
    if x > right:
        x, vx = 2.0 * right - x, -abs(vx)
    if y < top:
        y, vy = 2.0 * top - y, abs(vy)
    if y > bottom:
        y, vy = 2.0 * bottom - y, -abs(vy)
    return Vec2(x, y), Vec2(vx, vy)


@dataclass
class StepReport:
    """What one fixed step did."""

    #: the ball's centre at the start of the step
    start: Vec2
    #: the ball's centre at the end of the step, after the arena
    end: Vec2
    #: whether the test in use bounced the ball off the wall (an approach caught)
    bounced: bool
    #: whether the centre went straight through the wall without a bounce (one missed)
    missed: bool


class BulletTime:
    """The Bullet Time demo's state and rules: the ball, the test in use, the counts, the trail.

    ``speed`` (px/s) sets the starting speed along :data:`START_ANGLE`; ``swept`` picks the
    test. :meth:`step` takes one fixed step; :meth:`advance` feeds a frame's time to the
    accumulator and takes the whole steps it holds; the key methods mirror the demo's keys.
    """

    def __init__(self, speed: float = START_SPEED, swept: bool = False) -> None:
        if not (math.isfinite(speed) and speed > 0.0):
            raise ValueError(f"speed must be a positive number of px/s, got {speed!r}")
        #: the ball's centre
        self.pos = START
        #: the ball's speed, px/s (the velocity's length)
        self.speed = float(speed)
        #: the ball's velocity, px/s
        self.vel = Vec2(math.cos(START_ANGLE), math.sin(START_ANGLE)) * self.speed
        #: True for the swept test, False for the naive one
        self.swept = swept
        #: whether the steps are paused
        self.paused = False
        #: the frame time not yet stepped, s
        self.accumulator = 0.0
        #: the ball's centre at the end of each of its last :data:`TRAIL_LENGTH` steps
        self.trail: deque[Vec2] = deque(maxlen=TRAIL_LENGTH)
        #: approaches caught since the counts last started
        self.caught = 0
        #: approaches missed since the counts last started
        self.missed = 0
        #: fixed steps taken since the start
        self.steps = 0

    # ------------------------------------------------------------------------------- stepping

    def step(self) -> StepReport:
        """Take one fixed step with the test in use, count the approach, keep in the arena."""
        start = self.pos
        if self.swept:
            result = swept_step(Circle(start, RADIUS), self.vel, STEP, (WALL,))
            pos, vel, bounced = Vec2(*result.position), Vec2(*result.velocity), result.bounced
        else:
            pos, vel, bounced = naive_step(start, self.vel)
        missed = False
        if bounced:
            self.caught += 1
        else:
            # an approach the test missed: the centre's path crossed the wall with no bounce
            move = pos - start
            length = move.length()
            if length > 0.0 and ray_segment(start, move, WALL_A, WALL_B,
                                            max_distance=length) is not None:
                self.missed += 1
                missed = True
        pos, vel = keep_in_arena(pos, vel)
        self.pos, self.vel = pos, vel
        self.trail.append(pos)
        self.steps += 1
        return StepReport(start, pos, bounced, missed)

    def run(self, steps: int) -> None:
        """Take ``steps`` fixed steps (headless: no frames, no accumulator)."""
        for _ in range(steps):
            self.step()

    def advance(self, dt: float) -> int:
        """Feed one frame's ``dt`` seconds to the accumulator and take the whole steps it
        holds (none while paused); returns how many were taken."""
        if self.paused:
            return 0
        self.accumulator += dt
        taken = 0
        while self.accumulator >= STEP:
            self.accumulator -= STEP
            self.step()
            taken += 1
        return taken

    # ----------------------------------------------------------------------------------- keys

    def _restart_counts(self) -> None:
        # a new test or a new speed changes what the counts measure
        self.speed = min(max(self.speed, MIN_SPEED), MAX_SPEED)
        self.vel = self.vel.normalized() * self.speed
        self.caught = self.missed = 0

    def toggle_test(self) -> None:
        """Space: switch between the naive and the swept test; the counts start afresh."""
        self.swept = not self.swept
        self._restart_counts()

    def speed_up(self) -> None:
        """Up: the speed times 1.15, at most 5,000 px/s; the counts start afresh."""
        self.speed *= SPEED_UP
        self._restart_counts()

    def speed_down(self) -> None:
        """Down: the speed times 0.87, at least 300 px/s; the counts start afresh."""
        self.speed *= SPEED_DOWN
        self._restart_counts()

    def toggle_pause(self) -> None:
        """P: pause or resume the steps."""
        self.paused = not self.paused

    # ------------------------------------------------------------------------------- readouts

    @property
    def approaches(self) -> int:
        """Approaches to the wall since the counts last started, caught or missed."""
        return self.caught + self.missed

    @property
    def share(self) -> int:
        """The share of approaches caught, as a whole percentage (100 before any approach)."""
        n = self.approaches
        return 100 * self.caught // n if n > 0 else 100

    @property
    def test_name(self) -> str:
        """``"swept"`` or ``"naive"``."""
        return "swept" if self.swept else "naive"

    def readout(self) -> tuple[str, str]:
        """The demo's two readout lines: the test's catch count, and the speed and step."""
        first = (f"{self.test_name} test: caught {self.caught} of {self.approaches} "
                 f"approaches ({self.share}%)")
        second = (f"speed {lround(self.speed)} px/s: {lround(self.speed * STEP)} px a step"
                  + ("   (paused)" if self.paused else ""))
        return first, second
