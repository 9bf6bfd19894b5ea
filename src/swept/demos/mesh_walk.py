"""Mesh walk (issue 13): a ball character walks a small level that is one triangle mesh.

The model only: pure Python on swept's functions, no pygame. The level is a floor, a ramp of
26.6 degrees up to a raised platform, and a back wall, all faces of one
:class:`~swept.TriangleMesh` (y up). Each fixed step of 1/60 s the character's walking
velocity (set by the keys, or the scripted walk headless) and gravity move it through
:func:`swept.move_and_slide`: it stands on the floor, walks up the ramp with the ramp as its
floor, slides along the wall, and never ends inside the mesh.
"""

from __future__ import annotations

import math

from ..controller import move_and_slide
from ..level.mesh import TriangleMesh
from ..shapes import Sphere
from ..vec import Vec3

__all__ = ["STEP", "RADIUS", "GRAVITY", "WALK_SPEED", "SKIN", "START", "SCRIPT", "LEVEL",
           "MeshWalk"]

#: The fixed step, s.
STEP = 1.0 / 60.0
#: The character's radius, m.
RADIUS = 0.5
#: Gravity's pull, m/s^2 (down is -y).
GRAVITY = 9.8
#: How fast the character walks, m/s.
WALK_SPEED = 3.0
#: The skin kept between the character and the level, m.
SKIN = 1e-3
#: Where the character starts: standing on the floor.
START = Vec3(1.0, RADIUS + SKIN, 2.0)
#: The headless walk: (steps, direction on the ground) legs: along +x up the ramp onto the
#: platform, then toward the back wall (+z), then into it at 45 degrees, sliding along it.
SCRIPT = ((240, (1.0, 0.0)), (100, (0.0, 1.0)), (40, (-1.0, 1.0)))

#: The level: floor (x 0..6, y 0), ramp (x 6..10, rising to y 2), platform (x 10..14, y 2),
#: all z 0..6, and a wall along z = 6 from y 0 to 3 over the whole length.
_V = [(0, 0, 0), (6, 0, 0), (6, 0, 6), (0, 0, 6),          # floor
      (10, 2, 0), (10, 2, 6),                             # ramp top edge
      (14, 2, 0), (14, 2, 6),                             # platform far edge
      (0, 3, 6), (14, 3, 6), (14, 0, 6)]                  # wall top and far foot
LEVEL = TriangleMesh(
    vertices=_V,
    triangles=[(0, 3, 2), (0, 2, 1),                      # floor, facing up
               (1, 2, 5), (1, 5, 4),                      # ramp
               (4, 5, 7), (4, 7, 6),                      # platform
               (3, 8, 9), (3, 9, 10)],                    # wall, facing -z
)


class MeshWalk:
    """The character: its ball, its velocity, and what it stands on."""

    def __init__(self, start: Vec3 = START) -> None:
        #: the character
        self.ball = Sphere(start, RADIUS)
        #: its vertical speed (gravity's part of the velocity), m/s
        self.fall = 0.0
        #: the walking direction on the ground (x, z), unit or zero
        self.heading = (0.0, 0.0)
        #: whether it stood on a floor after the last step
        self.on_floor = False
        #: the floor's slope under it, degrees (None when in the air)
        self.slope: float | None = None
        #: steps taken
        self.steps = 0
        #: the centre after each step (for the view's trail)
        self.trail: list[Vec3] = [self.ball.center]

    def walk(self, dx: float, dz: float) -> None:
        """Walk toward (dx, dz) on the ground (normalised; (0, 0) stands still)."""
        n = math.hypot(dx, dz)
        self.heading = (dx / n, dz / n) if n > 0.0 else (0.0, 0.0)

    def step(self) -> None:
        """One fixed step: walk and fall, through move_and_slide against the level."""
        self.fall = 0.0 if self.on_floor else self.fall - GRAVITY * STEP
        v = (self.heading[0] * WALK_SPEED, self.fall, self.heading[1] * WALK_SPEED)
        r = move_and_slide(self.ball, v, STEP, [LEVEL], skin=SKIN,
                           floor_snap_length=0.1)
        self.ball = r.shape  # type: ignore[assignment]
        self.on_floor = r.on_floor
        if r.floor_normal is not None:
            ny = max(-1.0, min(1.0, r.floor_normal[1]))
            self.slope = math.degrees(math.acos(ny))
        else:
            self.slope = None
        if r.on_floor:
            self.fall = 0.0
        self.steps += 1
        self.trail.append(self.ball.center)

    def run_script(self) -> None:
        """The headless walk: every leg of :data:`SCRIPT`."""
        for steps, (dx, dz) in SCRIPT:
            self.walk(dx, dz)
            for _ in range(steps):
                self.step()

    def readout(self) -> str:
        """Where the character is and what it stands on."""
        c = self.ball.center
        where = f"at ({c[0]:.2f}, {c[1]:.2f}, {c[2]:.2f}) after {self.steps} steps"
        if not self.on_floor or self.slope is None:
            return where + " \u00b7 in the air"
        return where + f" \u00b7 on a floor of slope {self.slope:.1f}\u00b0"
