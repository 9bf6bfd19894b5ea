"""The text demos of seed 002: mtv, bouncing and slide, as lines of ``label → value // note``.

Each demo is a function returning its log lines, computed with swept's own functions (the
seed's ``boxContact``, ``pushOut``, ``apexAfterBounces`` and ``respond`` are swept's
``contact``, ``push_out``, ``apex_after_bounces`` and ``respond``), so the numbers are the
library's, and the tests hold them to the seed's.
"""

from __future__ import annotations

from collections.abc import Callable

from ..contact import axis_overlaps, contact
from ..response import apex_after_bounces, push_out, respond
from ..shapes import AABB
from ..vec import Vec3
from .slide import FLOOR_NORMAL, MAX_SLOPE, SLIDE_AIM, SLIDE_SPEED, split_at

__all__ = [
    "ARROW",
    "log_line",
    "FLOOR",
    "FEET",
    "DROP",
    "FLOOR_NORMAL",
    "RUNNING",
    "MAX_SLOPE",
    "SLIDE_SPEED",
    "SLIDE_AIM",
    "mtv",
    "bouncing",
    "slide",
    "slide_split",
    "TEXT_DEMOS",
]

#: The arrow between a log line's label and its value.
ARROW = "\u2192"


def log_line(label: str, value: str, note: str | None = None) -> str:
    """One log line: ``label → value``, and ``// note`` when there is one."""
    line = f"{label} {ARROW} {value}"
    return f"{line} // {note}" if note else line


def _number(x: float) -> str:
    """A number as JavaScript prints it in a template: 1 not 1.0, 0 not -0."""
    if x == int(x):
        return str(int(x))
    return repr(x)


# ---------------------------------------------------------------------------------------- mtv

#: A wide floor, a metre thick, its top at y = 0 (3D, y up, metres).
FLOOR = AABB((-5.0, -1.0, -5.0), (5.0, 0.0, 5.0))
#: A character's feet box, sunk 30 cm into the floor.
FEET = AABB((-0.4, -0.3, -0.4), (0.4, 1.5, 0.4))


def mtv() -> list[str]:
    """Three ways out of one overlap, and why the shortest is the only acceptable answer."""
    lines = []
    for axis, overlap in zip("xyz", axis_overlaps(FLOOR, FEET)):
        note = "the shallowest, so this is the way out" if axis == "y" else None
        lines.append(log_line(f"push out along {axis}", f"{overlap:.2f} m", note))
    # swept's contact moves its *first* shape out of the second: the feet out of the floor
    found = contact(FEET, FLOOR)
    if found is None:  # pragma: no cover - the boxes above overlap by construction
        raise RuntimeError("the feet should overlap the floor")
    nx, ny, nz = found.normal
    lines.append(log_line("contact(feet, floor).normal",
                          f"({_number(nx)}, {_number(ny)}, {_number(nz)})",
                          "straight up, as a floor should"))
    lifted = push_out(Vec3(0.0, 0.6, 0.0), found)
    lines.append(log_line("push_out(position, contact) from y = 0.60", f"{lifted[1]:.3f}",
                          "the depth plus a 1 mm skin, so the next test is not a coin flip"))
    return lines


# ----------------------------------------------------------------------------------- bouncing

#: The height the ball is dropped from, m.
DROP = 2.0
#: A landing velocity: 5 m/s along the floor, 1 m/s down into it.
RUNNING = Vec3(5.0, -1.0, 0.0)


def bouncing() -> list[str]:
    """Restitution scales speed, so it scales height twice over; friction acts on the rest."""
    lines = []
    notes = {0.95: "sounds nearly lossless, still down a quarter after three",
             1.0: "never settles, which is why nothing uses it"}
    for e in (0.5, 0.8, 0.95, 1.0):
        apexes = ", ".join(f"{apex_after_bounces(DROP, e, n):.3f} m" for n in (1, 2, 3))
        lines.append(log_line(
            f"dropped from {_number(DROP)} m with restitution {_number(e)}, apex after 1, 2 "
            "and 3 bounces", apexes, notes.get(e)))
    # friction acts on the other half of the split: the part along the surface
    for friction in (0.0, 0.3):
        after = respond(RUNNING, FLOOR_NORMAL, 0.0, friction)
        lines.append(log_line(
            f"landing at 5 m/s along the floor with friction {_number(friction)}",
            f"{after.length():.2f} m/s left",
            "restitution never touches this part" if friction == 0.0 else None))
    return lines


# -------------------------------------------------------------------------------------- slide

#: The surface angles the slide demo prints, degrees from flat.
SLIDE_TILTS = (0.0, 30.0, 45.0, 46.0, 47.0, 55.0, 90.0)


def slide_split(tilt: float, aim: float = SLIDE_AIM, speed: float = SLIDE_SPEED
                ) -> tuple[float, float, float, bool]:
    """The velocity split against a surface through the origin, rising at ``tilt`` degrees
    (solid below it): (slope in degrees, m/s blocked, m/s sliding, walkable). A velocity
    already leaving the surface has nothing blocked and keeps all its speed
    (:func:`swept.demos.slide.split_at`)."""
    s = split_at(tilt, aim, speed)
    return s.slope, s.blocked.length(), s.sliding.length(), s.walkable


def slide() -> list[str]:
    """One velocity meeting surfaces of several slopes: what is blocked, what slides, and
    which side of the 46 degree limit each surface is."""
    lines = []
    limit = _number(MAX_SLOPE)
    cases = [(tilt, SLIDE_AIM) for tilt in SLIDE_TILTS] + [(55.0, 80.0)]
    for tilt, aim in cases:
        slope, blocked, sliding, walkable = slide_split(tilt, aim)
        label = (f"decompose(v, n): {_number(SLIDE_SPEED)} m/s aimed {_number(aim)}\u00b0 at a "
                 f"surface of slope {slope:.0f}\u00b0")
        if blocked > 0.0:
            value = f"{blocked:.2f} m/s blocked, {sliding:.2f} m/s slides along"
        else:
            value = "nothing blocked, the velocity already points away from the surface"
        note = (f"is_walkable: walkable, under the {limit}\u00b0 limit" if walkable
                else f"is_walkable: too steep to stand on, over the {limit}\u00b0 limit")
        lines.append(log_line(label, value, note))
    return lines


#: The text demos by name.
TEXT_DEMOS: dict[str, Callable[[], list[str]]] = {
    "mtv": mtv,
    "bouncing": bouncing,
    "slide": slide,
}
