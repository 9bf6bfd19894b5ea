"""Time of impact as a fraction of a step: seed 003's exercise, and rotating bodies.

- :func:`toi_plane` and :func:`toi_circles` are seed 003's functions: the fraction ``t`` in
  [0, 1] of a step at which a moving circle first touches a plane or another moving circle,
  with 003's validation (a hit only while moving toward the obstacle, only for 0 <= t <= 1, an
  overlapping start hits at 0, the smaller root).
- :func:`advance` moves a circle to its earliest time of impact among several obstacles,
  responds with restitution, and spends the rest of the step with the new velocity.
- :func:`time_of_impact` handles rotation: two convex shapes moving with linear *and* angular
  velocity over a step, by conservative advancement on GJK distance, with a status.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

import numpy as np

from ._lazy import kernels
from .constants import ADVANCE_MAX_BOUNCES, HEADING_TOLERANCE, TOI_MAX_ITERATIONS
from .dispatch import TIME_OF_IMPACT
from .results import Advance, TOIResult, TOIStatus, make_advance, make_toi_result
from .shapes import AABB, Capsule, Circle, Plane, Polygon, Segment, Shape
from .sweep import sweep
from .vec import Vec2, as_finite, as_vec2
from .views import view

if TYPE_CHECKING:
    from ._kernels import response as _kresponse
    from ._kernels import sweep as _ksweep
else:
    _kresponse = kernels("response")
    _ksweep = kernels("sweep")

__all__ = [
    "toi_plane",
    "toi_circles",
    "advance",
    "Advance",
    "Motion",
    "TOIStatus",
    "TOIResult",
    "time_of_impact",
]


def _plane_of(plane: Any) -> Plane | float:
    if isinstance(plane, Plane):
        if plane.dim != 2:
            raise ValueError("plane must be a 2D Plane (or a height)")
        return plane
    return as_finite(plane, "plane")


def toi_plane(center: Any, radius: float, displacement: Any, plane: Any) -> float | None:
    """The fraction of the step at which a circle moving by ``displacement`` first touches a
    plane, or ``None``.

    ``plane`` is a 2D :class:`Plane` (a half-plane: a circle inside or touching it hits at 0) or
    a number ``p``, seed 003's horizontal plane ``y = p`` crossed from either side. A hit needs
    motion toward the plane and ``0 <= t <= 1``; a start overlapping it hits at 0 whatever the
    motion; motion parallel to it never divides by zero.
    """
    c = as_vec2(center, "center")
    r = as_finite(radius, "radius", minimum=0.0)
    d = as_vec2(displacement, "displacement")
    target = _plane_of(plane)
    if isinstance(target, Plane):
        hit = sweep(Circle(c, r), d, target)
        return None if hit is None else hit.fraction
    p = target
    gap = c.y - p
    if abs(gap) <= r:
        # starts overlapping (or touching) the plane
        return 0.0
    if gap > 0.0:
        # above: cy + vy t = p + r, moving down
        if d.y >= 0.0:
            return None
        t = (p + r - c.y) / d.y
    else:
        # below: cy + vy t = p - r, moving up
        if d.y <= 0.0:
            return None
        t = (p - r - c.y) / d.y
    return t if 0.0 <= t <= 1.0 else None


def toi_circles(center_a: Any, radius_a: float, displacement_a: Any, center_b: Any,
                radius_b: float, displacement_b: Any) -> float | None:
    """The fraction of the step at which two moving circles first touch, or ``None``: the
    smaller root of ``|d + u t| = ra + rb`` (d the offset, u the relative displacement).
    Overlapping (or touching) at the start gives 0; no relative motion gives ``None``."""
    a = Circle(as_vec2(center_a, "center_a"), as_finite(radius_a, "radius_a", minimum=0.0))
    b = Circle(as_vec2(center_b, "center_b"), as_finite(radius_b, "radius_b", minimum=0.0))
    hit = sweep(a, as_vec2(displacement_a, "displacement_a"), b,
                as_vec2(displacement_b, "displacement_b"))
    return None if hit is None else hit.fraction




def _obstacle(index: int, item: Any) -> tuple[Shape | float, Vec2]:
    """An obstacle and its displacement over the step."""
    if isinstance(item, tuple) and len(item) == 2 and isinstance(item[0], Shape):
        shape, disp = item[0], as_vec2(item[1], f"obstacles[{index}] displacement")
    elif isinstance(item, Shape):
        shape, disp = item, Vec2(0.0, 0.0)
    else:
        # seed 003's horizontal plane y = p
        return as_finite(item, f"obstacles[{index}]"), Vec2(0.0, 0.0)
    if not isinstance(shape, (Circle, Segment, Capsule, Polygon, Plane, AABB)) or shape.dim != 2:
        raise TypeError(f"obstacles[{index}]: a {shape.dim}D {type(shape).__name__} is not a "
                        "2D obstacle")
    return shape, disp


def _impact(center: Vec2, radius: float, disp: Vec2, obstacle: Shape | float,
            obstacle_disp: Vec2, span: float) -> tuple[float, Vec2] | None:
    """(fraction of the remaining span, normal) of the circle's first touch, or None."""
    if not isinstance(obstacle, Shape):
        t = toi_plane(center, radius, disp * span, obstacle)
        if t is None:
            return None
        # the normal faces the side the circle is on
        return t, Vec2(0.0, 1.0) if center.y >= obstacle else Vec2(0.0, -1.0)
    hit = sweep(Circle(center, radius), disp * span, obstacle, obstacle_disp * span)
    if hit is None:
        return None
    return hit.fraction, hit.normal  # type: ignore[return-value]


def advance(center: Any, radius: float, displacement: Any, obstacles: Sequence[Any],
            restitution: float = 1.0, *, max_bounces: int = ADVANCE_MAX_BOUNCES) -> Advance:
    """Move a circle through one step among obstacles: to its earliest time of impact, respond
    there, and spend the rest of the step with the new velocity (seed 003).

    ``obstacles`` are 2D shapes (planes, circles, segments, capsules, boxes, polygons), numbers
    (seed 003's horizontal plane ``y = p``), or ``(shape, displacement)`` pairs for obstacles
    moving during the step. The response reflects the velocity relative to the obstacle about
    the contact normal with ``restitution``. Only obstacles the motion heads into count: one
    that the circle overlaps or touches while already moving away from it (or along it) is
    not bounced off, and the circle carries on. At most ``max_bounces`` impacts are answered;
    the rest of the step is then spent without looking further.
    """
    c = as_vec2(center, "center")
    r = as_finite(radius, "radius", minimum=0.0)
    disp = as_vec2(displacement, "displacement")
    e = as_finite(restitution, "restitution", minimum=0.0)
    if not isinstance(max_bounces, int) or max_bounces < 0:
        raise ValueError(f"max_bounces must be a whole number >= 0, got {max_bounces!r}")
    items = [_obstacle(i, o) for i, o in enumerate(obstacles)]
    remaining = 1.0
    elapsed = 0.0
    hits: list[tuple[float, int, Vec2]] = []
    for _ in range(max_bounces):
        best: tuple[float, int, Vec2] | None = None
        for i, (shape, odisp) in enumerate(items):
            if isinstance(shape, Shape) and elapsed > 0.0 and odisp != (0.0, 0.0):
                # a moving obstacle, where it is now
                shape = shape.translated(odisp * elapsed)  # type: ignore[attr-defined]
            found = _impact(c, r, disp, shape, odisp, remaining)
            if found is None:
                continue
            t, n = found
            rel = disp - odisp
            if rel.dot(n) >= -HEADING_TOLERANCE * rel.length():
                # touching or overlapping but already moving away, sliding along, or grazing:
                # not an impact
                continue
            if best is None or t < best[0]:
                best = (t, i, n)
        if best is None:
            break
        t, i, n = best
        step_t = t * remaining
        c = c + disp * step_t
        odisp = items[i][1]
        rel = disp - odisp
        vx, vy, _vz = _kresponse.respond_velocity(rel[0], rel[1], 0.0, n[0], n[1], 0.0, e, 0.0)
        disp = Vec2(vx, vy) + odisp
        elapsed += step_t
        remaining -= step_t
        hits.append((elapsed, i, n))
    c = c + disp * max(remaining, 0.0)
    return make_advance(c, disp, hits[0][0] if hits else None, tuple(hits))


@dataclass(frozen=True)
class Motion:
    """A body's pose over one step: it starts at ``position`` turned by ``angle`` (radians),
    and moves by ``displacement`` while turning by ``rotation`` (radians) about its origin."""

    #: where the body's local origin is at the start of the step
    position: Any = (0.0, 0.0)
    #: the body's angle at the start of the step, radians
    angle: float = 0.0
    #: how far the local origin moves during the step
    displacement: Any = (0.0, 0.0)
    #: how far the body turns during the step, radians (any sign, any size)
    rotation: float = 0.0




def _status(code: int) -> TOIStatus:
    """The TOIStatus of a cast status code of :mod:`swept._kernels.sweep`."""
    return {_ksweep.CAST_HIT: TOIStatus.HIT, _ksweep.CAST_SEPARATED: TOIStatus.SEPARATED,
            _ksweep.CAST_OVERLAPPED: TOIStatus.OVERLAPPED,
            _ksweep.CAST_OUT_OF_ITERATIONS: TOIStatus.OUT_OF_ITERATIONS}[code]


def _local_core(shape: Any, name: str) -> tuple[np.ndarray, float]:
    """A shape's core points and radius in its local frame (2D shapes with a convex core)."""
    v = view(shape)
    return v.core, v.radius


for _ta in (Circle, Capsule, Segment, Polygon):
    for _tb in (Circle, Capsule, Segment, Polygon):
        TIME_OF_IMPACT.register((_ta, _tb), _local_core)


def _motion(m: Any, name: str) -> tuple[Vec2, float, Vec2, float]:
    if not isinstance(m, Motion):
        raise TypeError(f"{name} must be a Motion, not {type(m).__name__}")
    return (as_vec2(m.position, f"{name}.position"), as_finite(m.angle, f"{name}.angle"),
            as_vec2(m.displacement, f"{name}.displacement"),
            as_finite(m.rotation, f"{name}.rotation"))


def time_of_impact(shape_a: Shape, motion_a: Motion, shape_b: Shape, motion_b: Motion, *,
                   target_distance: float = 0.0,
                   max_iterations: int = TOI_MAX_ITERATIONS) -> TOIResult:
    """The first time in [0, 1] of a step at which two moving, rotating 2D shapes touch.

    Each shape is given in its local frame (a Polygon's corners, a Circle's centre, a Capsule's
    or Segment's ends) and posed by its :class:`Motion`: at time ``t`` it is turned by
    ``angle + rotation t`` about its local origin and moved to ``position + displacement t``.
    Conservative advancement on GJK distance never steps past a contact, so ``SEPARATED`` is
    reported only when the shapes stay apart, at any rotation per step. The touching gap is
    within ``CAST_TOLERANCE`` times the query's size (the shapes, radii and displacements, not
    their positions; no absolute length) plus ``CAST_ROUNDING`` times the coordinates'
    magnitude, of ``target_distance``: the same fraction at every scale.
    """
    entry = TIME_OF_IMPACT.table.get((type(shape_a), type(shape_b)))
    if entry is None:
        entry = TIME_OF_IMPACT.lookup(shape_a, shape_b)
    if shape_a.dim != 2 or shape_b.dim != 2:
        raise TIME_OF_IMPACT.unsupported(shape_a, shape_b)
    core_a, ra = entry[0](shape_a, "shape_a")
    core_b, rb = entry[0](shape_b, "shape_b")
    pa, aa, va, wa = _motion(motion_a, "motion_a")
    pb, ab, vb, wb = _motion(motion_b, "motion_b")
    td = as_finite(target_distance, "target_distance", minimum=0.0)
    if not isinstance(max_iterations, int) or max_iterations < 1:
        raise ValueError(f"max_iterations must be a whole number >= 1, got {max_iterations!r}")
    status, t, nx, ny, px, py, iterations = _ksweep.rotating_time_of_impact(
        core_a, ra, pa[0], pa[1], aa, va[0], va[1], wa,
        core_b, rb, pb[0], pb[1], ab, vb[0], vb[1], wb, td, max_iterations)
    return make_toi_result(_status(status), t, Vec2(nx, ny), Vec2(px, py), iterations)
