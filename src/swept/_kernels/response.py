"""Velocity response kernels: one formula for slide, bounce and friction (seeds 002 and 004).

Each takes a velocity (vx, vy, vz) and a unit normal (nx, ny, nz); 2D callers pass z = 0.
"""

from __future__ import annotations

from . import kernel


@kernel
def reflect_velocity(vx: float, vy: float, vz: float, nx: float, ny: float, nz: float,
                     restitution: float) -> tuple[float, float, float]:
    """v - (1 + e)(v . n) n: the normal part reversed and scaled by e, the rest kept.

    e = 0 is a slide, e = 1 a perfect mirror. Applied whatever the sign of v . n.
    """
    k = (1.0 + restitution) * (vx * nx + vy * ny + vz * nz)
    return vx - k * nx, vy - k * ny, vz - k * nz


@kernel
def respond_velocity(vx: float, vy: float, vz: float, nx: float, ny: float, nz: float,
                     restitution: float, friction: float) -> tuple[float, float, float]:
    """The full response: a velocity already leaving (v . n > 0) is left alone; otherwise
    the normal part is reversed and scaled by ``restitution`` and the tangent part scaled by
    ``1 - friction`` (friction clamped to [0, 1])."""
    amount = vx * nx + vy * ny + vz * nz
    if amount > 0.0:
        # already leaving the surface
        return vx, vy, vz
    tx = vx - amount * nx
    ty = vy - amount * ny
    tz = vz - amount * nz
    keep = 1.0 - min(max(friction, 0.0), 1.0)
    back = -amount * restitution
    return back * nx + keep * tx, back * ny + keep * ty, back * nz + keep * tz
