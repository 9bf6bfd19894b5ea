"""Collision response: what to do with a contact once detection has found it.

Every function works on 2D and 3D vectors alike. A normal is normalised for you (a zero normal
is a ``ValueError``); the seeds' sign convention holds throughout: the normal points *out* of the
surface, so a velocity heading into it has a negative part along the normal.
"""

from __future__ import annotations

import math
from typing import TYPE_CHECKING, Any

from ._lazy import kernels
from .constants import DEFAULT_FLOOR_MAX_ANGLE, DEFAULT_SKIN
from .results import Contact, Decomposition, make_decomposition
from .vec import Vec2, Vec3, as_finite, as_vector, unit

if TYPE_CHECKING:
    from ._kernels import response as _kresponse
else:
    _kresponse = kernels("response")

__all__ = [
    "Decomposition",
    "decompose",
    "slide",
    "reflect",
    "respond",
    "push_out",
    "slope_angle",
    "is_walkable",
    "apex_after_bounces",
    "UP_2D",
    "UP_3D",
]

#: The default ``up`` in 2D: screen coordinates, y grows down (pygame, SDL, Godot 2D).
UP_2D = Vec2(0.0, -1.0)
#: The default ``up`` in 3D: y up.
UP_3D = Vec3(0.0, 1.0, 0.0)


def _pair(v: Any, n: Any) -> tuple[Vec2 | Vec3, Vec2 | Vec3]:
    """Coerce a velocity and a normal of the same dimension; normalise the normal."""
    vv = as_vector(v, "v")
    nn = as_vector(n, "n")
    if len(vv) != len(nn):
        raise ValueError(f"v and n must have the same dimension, got {len(vv)} and {len(nn)}")
    u, _ = unit(nn, "n")
    return vv, u


def _pad(v: Vec2 | Vec3) -> tuple[float, float, float]:
    return (v[0], v[1], v[2] if len(v) == 3 else 0.0)


def _like(v: Vec2 | Vec3, x: float, y: float, z: float) -> Vec2 | Vec3:
    return Vec2(x, y) if len(v) == 2 else Vec3(x, y, z)


def decompose(v: Any, n: Any) -> Decomposition:
    """Split ``v`` into its part along the unit normal ``n`` and its part along the surface."""
    vv, nn = _pair(v, n)
    amount = vv.dot(nn)
    normal_part = nn * amount
    return make_decomposition(amount, normal_part, vv - normal_part)


def slide(v: Any, n: Any) -> Vec2 | Vec3:
    """``v`` with its part along ``n`` removed: the velocity along the surface (a bounce with
    restitution 0, applied whatever the sign)."""
    vv, nn = _pair(v, n)
    x, y, z = _kresponse.reflect_velocity(*_pad(vv), *_pad(nn), 0.0)
    return _like(vv, x, y, z)


def reflect(v: Any, n: Any, restitution: float = 1.0) -> Vec2 | Vec3:
    """``v - (1 + e)(v . n) n``: the part along ``n`` reversed and scaled by ``restitution``;
    the part along the surface is untouched (scaling all of ``v`` by e is the common mistake)."""
    vv, nn = _pair(v, n)
    e = as_finite(restitution, "restitution", minimum=0.0)
    x, y, z = _kresponse.reflect_velocity(*_pad(vv), *_pad(nn), e)
    return _like(vv, x, y, z)


def respond(v: Any, n: Any, restitution: float = 0.0, friction: float = 0.0) -> Vec2 | Vec3:
    """The velocity after meeting a surface with outward normal ``n``.

    A velocity already leaving (``v . n > 0``) is returned unchanged. Otherwise the normal part
    is reversed and scaled by ``restitution`` (0 slides, 1 bounces fully) and the tangent part
    is scaled by ``1 - friction`` (``friction`` in [0, 1]: 0 is ice, 1 stops the slide).
    """
    vv, nn = _pair(v, n)
    e = as_finite(restitution, "restitution", minimum=0.0)
    f = as_finite(friction, "friction", minimum=0.0)
    if f > 1.0:
        raise ValueError(f"friction must be in [0, 1], got {friction!r}")
    x, y, z = _kresponse.respond_velocity(*_pad(vv), *_pad(nn), e, f)
    return _like(vv, x, y, z)


def push_out(position: Any, contact: Contact, skin: float = DEFAULT_SKIN) -> Vec2 | Vec3:
    """``position`` moved along ``contact.normal`` by ``contact.depth + skin``.

    The skin (default :data:`swept.constants.DEFAULT_SKIN`, 0.001 length units) leaves a hair of
    clearance so the next test does not flicker between touching and not.
    """
    p = as_vector(position, "position")
    if not isinstance(contact, Contact):
        raise TypeError(f"contact must be a Contact, not {type(contact).__name__}")
    s = as_finite(skin, "skin", minimum=0.0)
    if len(contact.normal) != len(p):
        raise ValueError("position and contact.normal must have the same dimension")
    return p + contact.normal * (contact.depth + s)


def _up_for(normal: Vec2 | Vec3, up: Any) -> Vec2 | Vec3:
    if up is None:
        return UP_2D if len(normal) == 2 else UP_3D
    u = as_vector(up, "up")
    if len(u) != len(normal):
        raise ValueError("normal and up must have the same dimension")
    return unit(u, "up")[0]


def slope_angle(normal: Any, up: Any = None) -> float:
    """How steep a surface is, in degrees from flat: the angle between its normal and ``up``
    (0 for a floor, 90 for a wall, 180 for a ceiling). ``up`` defaults to (0, -1) in 2D (y
    down) and (0, 1, 0) in 3D."""
    n, _ = unit(as_vector(normal, "normal"), "normal")
    u = _up_for(n, up)
    c = n.dot(u)
    return math.degrees(math.acos(min(1.0, max(-1.0, c))))


def is_walkable(normal: Any, max_slope_degrees: float = DEFAULT_FLOOR_MAX_ANGLE,
                up: Any = None) -> bool:
    """Whether a surface is a floor: its :func:`slope_angle` is at most ``max_slope_degrees``."""
    limit = as_finite(max_slope_degrees, "max_slope_degrees", minimum=0.0)
    return slope_angle(normal, up) <= limit


def apex_after_bounces(height: float, restitution: float, bounces: int) -> float:
    """The height a ball dropped from ``height`` reaches after ``bounces`` bounces:
    ``height * e^(2 * bounces)`` (restitution scales speed, height goes as speed squared)."""
    h = as_finite(height, "height", minimum=0.0)
    e = as_finite(restitution, "restitution", minimum=0.0)
    if not isinstance(bounces, int) or bounces < 0:
        raise ValueError(f"bounces must be a whole number >= 0, got {bounces!r}")
    if e == 0.0 or e == 1.0 or h == 0.0:
        # no power to take: a dead stop, a perfect bounce, or no height
        return h if (e == 1.0 or bounces == 0) else 0.0
    if e < 1.0 and bounces > 1000.0 / math.log2(1.0 / e):
        # far below the smallest float (and an int exponent beyond a float's range)
        return 0.0
    try:
        apex = h * e ** (2 * bounces)
    except OverflowError:
        # a restitution above 1 gains height each bounce
        apex = math.inf
    return as_finite(apex, "the apex (height * restitution ** (2 * bounces))")
