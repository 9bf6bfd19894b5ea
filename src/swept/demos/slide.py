"""Slide (seed 002): one velocity meeting a tilted surface, split into the part the surface
blocks and the part that slides along it, and the 46 degree limit between a floor and a wall.

The model of the ``slide-3d`` window (:mod:`swept.demos.view_slide`) and of the ``slide``
log lines (:mod:`swept.demos.text`). The scene lies in the x-y plane of a 3D world, y up: the
surface runs through the origin along ``(cos t, sin t, 0)`` for a tilt ``t`` and stretches
along z; its solid side is below. The velocity is aimed in the x-y plane, at ``aim`` degrees
from +x.
"""

from __future__ import annotations

import math
from dataclasses import dataclass

from ..response import decompose, is_walkable, slope_angle
from ..vec import Vec3

__all__ = ["MAX_SLOPE", "SLIDE_SPEED", "SLIDE_AIM", "SLIDE_TILT", "TILT_STEP", "AIM_STEP",
           "FLOOR_NORMAL", "SlideSplit", "split_at", "Slide"]

#: The slope limit of the slide scene, degrees: a surface steeper than this is a wall.
MAX_SLOPE = 46.0
#: The velocity's speed in the slide scene, m/s.
SLIDE_SPEED = 5.0
#: The velocity's aim in the slide scene: degrees from the +x axis (y up), 10 degrees down.
SLIDE_AIM = -10.0
#: The surface's tilt when the scene opens, degrees from flat (the seed's slider default).
SLIDE_TILT = 55.0
#: Degrees a press of Up or Down tilts the surface (the seed's slider step), 0 to 90.
TILT_STEP = 1.0
#: Degrees a press of Left or Right turns the velocity's aim, -180 to 180.
AIM_STEP = 5.0
#: Up, for the slope angle.
FLOOR_NORMAL = Vec3(0.0, 1.0, 0.0)


@dataclass(frozen=True)
class SlideSplit:
    """A velocity split against the surface (every vector in the x-y plane, z = 0)."""

    #: the surface's unit direction, rising at the tilt
    along: Vec3
    #: the surface's unit normal, out of the solid side
    normal: Vec3
    #: the velocity arriving at the surface
    velocity: Vec3
    #: the part the surface blocks (zero when the velocity already leaves it)
    blocked: Vec3
    #: the part that slides along (the whole velocity when it already leaves)
    sliding: Vec3
    #: the surface's slope, degrees from flat
    slope: float
    #: whether the surface is a floor: its slope at most :data:`MAX_SLOPE`
    walkable: bool
    #: whether the surface holds the velocity up at all (it heads into the surface)
    held_up: bool


def split_at(tilt: float, aim: float = SLIDE_AIM, speed: float = SLIDE_SPEED) -> SlideSplit:
    """The velocity of ``speed`` aimed ``aim`` degrees from +x, split against the surface
    rising at ``tilt`` degrees (solid below it), by :func:`swept.decompose`."""
    t = math.radians(tilt)
    a = math.radians(aim)
    along = Vec3(math.cos(t), math.sin(t), 0.0)
    # a quarter turn on from the surface's direction: out of the solid side
    normal = Vec3(-math.sin(t), math.cos(t), 0.0)
    velocity = Vec3(math.cos(a), math.sin(a), 0.0) * speed
    split = decompose(velocity, normal)
    slope = slope_angle(normal, FLOOR_NORMAL)
    walkable = is_walkable(normal, MAX_SLOPE, FLOOR_NORMAL)
    if split.amount >= 0.0:
        # already leaving (or running along): nothing is blocked
        zero = Vec3(0.0, 0.0, 0.0)
        return SlideSplit(along, normal, velocity, zero, velocity, slope, walkable, False)
    return SlideSplit(along, normal, velocity, Vec3(*split.normal_part),
                      Vec3(*split.tangent_part), slope, walkable, True)


class Slide:
    """The slide scene's settings: the surface's tilt and the velocity's aim."""

    def __init__(self, tilt: float = SLIDE_TILT, aim: float = SLIDE_AIM) -> None:
        if not 0.0 <= tilt <= 90.0:
            raise ValueError(f"tilt must be from 0 to 90 degrees, got {tilt!r}")
        if not -180.0 <= aim <= 180.0:
            raise ValueError(f"aim must be from -180 to 180 degrees, got {aim!r}")
        #: the surface's tilt, degrees from flat
        self.tilt = float(tilt)
        #: the velocity's aim, degrees from +x
        self.aim = float(aim)

    def tilt_by(self, notches: int) -> None:
        """Tilt the surface by ``notches`` of :data:`TILT_STEP`, kept within 0 to 90."""
        self.tilt = min(max(self.tilt + notches * TILT_STEP, 0.0), 90.0)

    def aim_by(self, notches: int) -> None:
        """Turn the velocity by ``notches`` of :data:`AIM_STEP`, kept within -180 to 180."""
        self.aim = min(max(self.aim + notches * AIM_STEP, -180.0), 180.0)

    def split(self) -> SlideSplit:
        """The velocity split against the surface as it stands."""
        return split_at(self.tilt, self.aim)

    def readout(self) -> str:
        """The scene's readout line, as the seed words it."""
        s = self.split()
        limit = f"{MAX_SLOPE:g}"
        text = f"slope {s.slope:.0f}\u00b0 \u00b7 "
        if s.held_up:
            text += (f"{s.blocked.length():.2f} m/s blocked, {s.sliding.length():.2f} m/s "
                     "slides along \u00b7 ")
        else:
            text += "nothing blocked, the velocity already points away from the surface \u00b7 "
        if s.walkable:
            return text + f"walkable, under the {limit}\u00b0 limit"
        return text + f"too steep to stand on, over the {limit}\u00b0 limit"
