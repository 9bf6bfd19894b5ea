"""The swept step: move a shape through a step among obstacles, bouncing, without tunneling.

Seed 000's ``sweptStep``, generalised to any sweepable shape, any list of obstacles, restitution
and friction: cast the move, stop at the first contact, respond, and spend the rest of the step
in the new direction, up to a cap of casts.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import TYPE_CHECKING, Any

from ._lazy import kernels
from .constants import HEADING_TOLERANCE, MAX_CASTS_PER_STEP
from .results import SweepHit, SweptStep, make_swept_step
from .shapes import Shape
from .sweep import reference_point, sweep
from .vec import Vec2, Vec3, as_finite, as_vec2, as_vec3

if TYPE_CHECKING:
    from ._kernels import response as _kresponse
else:
    _kresponse = kernels("response")

__all__ = ["swept_step", "SweptStep", "MAX_CASTS_PER_STEP", "HEADING_TOLERANCE"]


def swept_step(shape: Shape, velocity: Any, dt: float, obstacles: Sequence[Shape], *,
               restitution: float = 1.0, friction: float = 0.0,
               max_casts: int = MAX_CASTS_PER_STEP) -> SweptStep:
    """Move ``shape`` with ``velocity`` for ``dt`` among static ``obstacles``, never tunneling.

    Each cast sweeps the rest of the step's move against every obstacle; at the first contact
    the shape stops there, its velocity is answered with :func:`swept.respond` (``restitution``
    1 mirrors it, 0 slides; ``friction`` scales the part along the surface), and the rest of the
    step's *time* is spent with the new velocity. Only obstacles the move heads into count, so
    a shape that has just bounced off (or is sliding along) a surface is not caught by it again
    at distance 0. After ``max_casts`` casts the shape stays where the last contact left it for
    the rest of the step: never past an obstacle.
    """
    if not isinstance(shape, Shape):
        raise TypeError(f"shape must be a shape, not {type(shape).__name__}")
    coerce = as_vec2 if shape.dim == 2 else as_vec3
    v = coerce(velocity, "velocity")
    step = as_finite(dt, "dt", minimum=0.0)
    e = as_finite(restitution, "restitution", minimum=0.0)
    f = as_finite(friction, "friction", minimum=0.0)
    if f > 1.0:
        raise ValueError(f"friction must be in [0, 1], got {friction!r}")
    if not isinstance(max_casts, int) or max_casts < 0:
        raise ValueError(f"max_casts must be a whole number >= 0, got {max_casts!r}")
    obstacles = list(obstacles)
    remaining = step
    moved = shape
    hits: list[tuple[int, SweepHit]] = []
    casts = 0
    while casts < max_casts and remaining > 0.0:
        move = v * remaining
        length = move.length()
        if length == 0.0:
            break
        casts += 1
        best: tuple[int, SweepHit] | None = None
        for i, obstacle in enumerate(obstacles):
            hit = sweep(moved, move, obstacle)
            if hit is None:
                continue
            if move.dot(hit.normal) >= -HEADING_TOLERANCE * length:
                # resting on it, sliding along it, grazing it or leaving it: not an impact
                continue
            if best is None or hit.fraction < best[1].fraction:
                best = (i, hit)
        if best is None:
            moved = moved.translated(move)  # type: ignore[attr-defined]
            remaining = 0.0
            break
        i, hit = best
        moved = moved.translated(move * hit.fraction)  # type: ignore[attr-defined]
        n = hit.normal
        x, y, z = _kresponse.respond_velocity(v[0], v[1], v[2] if len(v) == 3 else 0.0, n[0], n[1],
                                   n[2] if len(n) == 3 else 0.0, e, f)
        v = Vec2(x, y) if len(v) == 2 else Vec3(x, y, z)
        remaining -= remaining * hit.fraction
        hits.append((i, hit))
    return make_swept_step(moved, reference_point(moved), v, tuple(hits), casts)
