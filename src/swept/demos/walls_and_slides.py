"""Walls and Slides (seed 004): a ball chases the mouse among walls and bumpers.

The model only: pure Python on swept's functions, no pygame. Each fixed step of 1/60 s the ball
accelerates toward the mouse (unless within 4 px of it), loses a share of its speed to drag,
is capped at its top speed and moves; then, in as many passes as the setting asks for, every
wall and then every bumper is tested against it, and each contact is answered as soon as it is
found: the ball is pushed out along the contact normal by the depth and, with the velocity fix
on, the part of its velocity going into the shape is taken away (walls: restitution 0, a
slide) or reversed at 90% (bumpers: a bounce).
"""

from __future__ import annotations

import math
from dataclasses import dataclass

from ..contact import contact
from ..response import push_out, respond
from ..shapes import Circle, Polygon
from ..vec import Vec2

__all__ = [
    "STEP",
    "RADIUS",
    "ACCEL",
    "DRAG",
    "MAX_SPEED",
    "BOUNCE",
    "WALL_RESTITUTION",
    "MOUSE_DEAD_ZONE",
    "ARROW_TIME",
    "ARROW_MIN_SPEED",
    "ARM",
    "WALLS",
    "WALL_NAMES",
    "BUMPERS",
    "START",
    "FIGURE_PLACE",
    "FIGURE_MOUSE",
    "FIGURE_STEPS",
    "WEDGE_PLACE",
    "WEDGE_MOUSE",
    "WINDOW_SIZE",
    "corners",
    "Overlap",
    "WallsAndSlides",
]

#: The simulation's fixed step, a sixtieth of a second.
STEP = 1.0 / 60.0
#: The ball's radius, px.
RADIUS = 16.0
#: How fast the ball accelerates toward the mouse, px/s per second.
ACCEL = 2000.0
#: The drag: the velocity is scaled by exp(-DRAG * STEP) each step.
DRAG = 2.2
#: The ball's top speed, px/s.
MAX_SPEED = 650.0
#: The bumpers' restitution: the ball leaves at 90% of its speed across them.
BOUNCE = 0.9
#: The walls' restitution: 0, so the ball slides along them.
WALL_RESTITUTION = 0.0
#: Within this distance of the mouse (px) the ball stops accelerating toward it.
MOUSE_DEAD_ZONE = 4.0
#: The velocity arrow shows where the ball would be this many seconds on.
ARROW_TIME = 0.15
#: Below this speed (px/s) the arrow is too short to draw.
ARROW_MIN_SPEED = 20.0
#: The window the demo draws in, px.
WINDOW_SIZE = (1000, 700)


def corners(lo: tuple[float, float], hi: tuple[float, float]) -> Polygon:
    """A box from its smallest to its largest corner, as a convex polygon."""
    (x0, y0), (x1, y1) = lo, hi
    return Polygon([(x0, y0), (x1, y0), (x1, y1), (x0, y1)])


#: The wedge's arm in its own frame: a thin box 30 by 280, centred on the origin.
ARM = Polygon([(-15.0, -140.0), (15.0, -140.0), (15.0, 140.0), (-15.0, 140.0)])

#: The walls, each a convex polygon: the long wall of two boxes meeting at x = 440, the wall
#: down from its left end, the wedge's two arms turned 10 degrees (0.1745 rad) each way so that
#: their lower ends meet at about (800, 600), and four boxes just outside the window's edges.
WALLS: tuple[Polygon, ...] = (
    corners((220.0, 120.0), (440.0, 160.0)),
    corners((440.0, 120.0), (660.0, 160.0)),
    corners((220.0, 160.0), (260.0, 440.0)),
    ARM.placed((776.0, 462.0), -0.1745),
    ARM.placed((824.0, 462.0), 0.1745),
    corners((-100.0, -100.0), (1100.0, 0.0)),
    corners((-100.0, 700.0), (1100.0, 800.0)),
    corners((-100.0, 0.0), (0.0, 700.0)),
    corners((1000.0, 0.0), (1100.0, 700.0)),
)
#: A name for each wall, in :data:`WALLS`' order.
WALL_NAMES = (
    "long wall (left box)",
    "long wall (right box)",
    "wall below the long one",
    "wedge's left arm",
    "wedge's right arm",
    "top edge",
    "bottom edge",
    "left edge",
    "right edge",
)
#: The round bumpers the ball bounces off.
BUMPERS: tuple[Circle, ...] = (
    Circle((560.0, 330.0), 40.0),
    Circle((400.0, 540.0), 34.0),
    Circle((640.0, 560.0), 30.0),
)
#: Where the ball starts, at rest.
START = Vec2(120.0, 350.0)
#: The seed's first figure: placed here at rest, just right of the wall below the long one...
FIGURE_PLACE = Vec2(276.0, 200.0)
#: ...with the mouse above the long wall, to its right...
FIGURE_MOUSE = Vec2(700.0, 60.0)
#: ...after two-thirds of a second, the speed reads 626 with no overlap left.
FIGURE_STEPS = 40
#: The seed's wedge figure: placed above the wedge...
WEDGE_PLACE = Vec2(800.0, 300.0)
#: ...with the mouse below the wedge's tip (about (800, 600)). One pixel right of straight
#: below: there every wedge figure (9.78 and 201 with one pass, 0.18 and 19 with eight) comes
#: out with a margin; straight below, eight passes leave 0.17500, on the rounding edge.
WEDGE_MOUSE = Vec2(801.0, 690.0)


@dataclass(frozen=True)
class Overlap:
    """The deepest overlap the passes left: how deep, and in what."""

    #: the depth, px (0 when the ball touches nothing)
    depth: float
    #: the wall's or bumper's name, or None when the ball touches nothing
    what: str | None


class WallsAndSlides:
    """The Walls and Slides demo's state and rules: the ball, the mouse and the settings.

    :meth:`step` takes one fixed step; :meth:`advance` feeds a frame's time to the accumulator;
    :meth:`place` is the click, :meth:`toggle_fix` the V key, :meth:`toggle_passes` the P key.
    """

    def __init__(self, place: tuple[float, float] = START,
                 mouse: tuple[float, float] | None = None, *, passes: int = 8,
                 fix_velocity: bool = True) -> None:
        if passes < 1:
            raise ValueError(f"passes must be at least 1, got {passes!r}")
        #: the ball's centre
        self.pos = Vec2(*place)
        #: the ball's velocity, px/s
        self.vel = Vec2(0.0, 0.0)
        #: where the ball is heading: the mouse
        self.mouse = Vec2(*(place if mouse is None else mouse))
        #: whether the response fixes the velocity (V)
        self.fix_velocity = fix_velocity
        #: how many passes the response makes over the walls and bumpers (P: 1 or 8)
        self.passes = passes
        #: the frame time not yet stepped, s
        self.accumulator = 0.0
        #: fixed steps taken
        self.steps = 0

    # ------------------------------------------------------------------------------- stepping

    def _answer(self, obstacle: Polygon | Circle, restitution: float) -> None:
        """Detect the ball against one shape and, if they touch, respond at once."""
        c = contact(Circle(self.pos, RADIUS), obstacle)
        if c is None:
            return
        # push out along the normal by the depth, so that the ball just touches
        self.pos = Vec2(*push_out(self.pos, c, skin=0.0))
        if self.fix_velocity:
            # take away (walls) or reverse (bumpers) the part going into the shape
            self.vel = Vec2(*respond(self.vel, c.normal, restitution))

    def step(self) -> None:
        """Take one fixed step: chase the mouse, drag, cap, move, then the passes."""
        to_mouse = self.mouse - self.pos
        distance = to_mouse.length()
        if distance > MOUSE_DEAD_ZONE:
            self.vel = self.vel + to_mouse * (ACCEL * STEP / distance)
        self.vel = self.vel * math.exp(-DRAG * STEP)
        speed = self.vel.length()
        if speed > MAX_SPEED:
            self.vel = self.vel * (MAX_SPEED / speed)
        self.pos = self.pos + self.vel * STEP
        for _ in range(self.passes):
            for wall in WALLS:
                self._answer(wall, WALL_RESTITUTION)
            for bumper in BUMPERS:
                self._answer(bumper, BOUNCE)
        self.steps += 1

    def run(self, steps: int) -> None:
        """Take ``steps`` fixed steps (headless: no frames, no accumulator)."""
        for _ in range(steps):
            self.step()

    def advance(self, dt: float) -> int:
        """Feed one frame's ``dt`` seconds to the accumulator and take the whole steps it
        holds; returns how many were taken."""
        self.accumulator += dt
        taken = 0
        while self.accumulator >= STEP:
            self.accumulator -= STEP
            self.step()
            taken += 1
        return taken

    # ----------------------------------------------------------------------------- the input

    def place(self, at: tuple[float, float]) -> None:
        """A click: the ball goes to ``at`` (even inside a wall), at rest."""
        self.pos = Vec2(*at)
        self.vel = Vec2(0.0, 0.0)

    def toggle_fix(self) -> None:
        """V: turn the velocity fix off or on."""
        self.fix_velocity = not self.fix_velocity

    def toggle_passes(self) -> None:
        """P: one pass or eight."""
        self.passes = 8 if self.passes == 1 else 1

    # ------------------------------------------------------------------------------- readouts

    @property
    def speed(self) -> float:
        """The ball's speed, px/s."""
        return self.vel.length()

    def overlaps(self) -> list[tuple[str, float]]:
        """Every wall and bumper the ball touches now, with the depth, in the passes' order."""
        ball = Circle(self.pos, RADIUS)
        found = []
        names = WALL_NAMES + tuple(f"bumper {i + 1}" for i in range(len(BUMPERS)))
        for name, shape in zip(names, WALLS + BUMPERS):
            c = contact(ball, shape)
            if c is not None:
                found.append((name, c.depth))
        return found

    def deepest_overlap(self) -> Overlap:
        """The deepest overlap the passes left, and in what (depth 0, None if none)."""
        best = Overlap(0.0, None)
        for name, depth in self.overlaps():
            if depth > best.depth:
                best = Overlap(depth, name)
        return best

    def arrow(self) -> tuple[Vec2, Vec2] | None:
        """The velocity arrow, from the ball to where it would be in 0.15 s, or None when
        the ball is too slow for one."""
        if self.speed <= ARROW_MIN_SPEED:
            return None
        return self.pos, self.pos + self.vel * ARROW_TIME

    def readout(self) -> tuple[str, str]:
        """The demo's two readout lines: the speed and deepest overlap, then the settings."""
        first = (f"speed {_lround(self.speed)} px/s   deepest overlap left "
                 f"{self.deepest_overlap().depth:.2f} px")
        second = (f"velocity fix {'on' if self.fix_velocity else 'off'}   "
                  f"passes {self.passes}")
        return first, second


def _lround(x: float) -> int:
    """Round half away from zero (C's ``lround``)."""
    return int(math.floor(abs(x) + 0.5)) * (1 if x >= 0.0 else -1)
