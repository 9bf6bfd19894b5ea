"""The result types of single queries: frozen dataclasses that users may also build.

A miss is ``None``, never a result with a sentinel value. Frames and signs:

- every point is in world space;
- every normal is a unit vector;
- a ray hit's normal faces the ray (it opposes the ray's direction), unless the ray started
  inside, when it is the direction of the shortest way out;
- a contact's normal is the direction to move the *first* shape out of the second;
- a sweep hit's normal points out of the target, toward the moving shape.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

from .vec import Vec2, Vec3

__all__ = ["RayHit", "SweepHit", "Contact"]


@dataclass(frozen=True, slots=True)
class RayHit:
    """Where a ray first meets a shape."""

    #: distance from the ray's origin to the hit, in length units along the ray (>= 0)
    distance: float
    #: the hit point, in world space (the origin when ``started_inside``)
    point: Vec2 | Vec3
    #: unit normal of the surface at the hit, facing the ray (opposing its direction); when
    #: ``started_inside``, the direction from the origin toward the nearest boundary point
    normal: Vec2 | Vec3
    #: True when the ray's origin is inside the shape or on its boundary (then distance is 0)
    started_inside: bool = False


@dataclass(frozen=True, slots=True)
class SweepHit:
    """When and where a moving shape first touches another during a step."""

    #: the fraction of the displacement (in [0, 1]) at which the shapes first touch
    fraction: float
    #: the point where the two touch at that moment, in world space
    point: Vec2 | Vec3
    #: unit normal pointing out of the target, toward the moving shape (against the relative
    #: motion); when ``started_inside``, the direction of the shortest way out
    normal: Vec2 | Vec3
    #: where the moving shape's reference point is at first contact: a circle's or sphere's
    #: centre, a box's centre, a polygon's centroid, a segment's or capsule's midpoint
    position: Vec2 | Vec3
    #: True when the shapes already touched or overlapped at the start (then fraction is 0)
    started_inside: bool = False


@dataclass(frozen=True, slots=True)
class Contact:
    """How deep and which way two overlapping (or touching) shapes meet."""

    #: unit normal: the direction to move the *first* shape to get it out of the second
    normal: Vec2 | Vec3
    #: how far to move the first shape along ``normal`` so that they just touch (>= 0)
    depth: float
    #: a point where they meet, in world space: on the second shape's boundary, where the first
    #: shape reaches deepest into it
    point: Vec2 | Vec3


_new = object.__new__


def _setter(cls: type, name: str) -> Callable[[Any, Any], None]:
    """The raw slot setter of a frozen slotted dataclass field (bypasses the frozen check)."""
    setter: Callable[[Any, Any], None] = cls.__dict__[name].__set__
    return setter


_rh_d = _setter(RayHit, "distance")
_rh_p = _setter(RayHit, "point")
_rh_n = _setter(RayHit, "normal")
_rh_s = _setter(RayHit, "started_inside")


def make_ray_hit(distance: float, point: Any, normal: Any, started_inside: bool) -> RayHit:
    """Build a RayHit without the dataclass's frozen-setattr overhead (internal, hot path)."""
    h = _new(RayHit)
    _rh_d(h, distance)
    _rh_p(h, point)
    _rh_n(h, normal)
    _rh_s(h, started_inside)
    return h


_c_n = _setter(Contact, "normal")
_c_d = _setter(Contact, "depth")
_c_p = _setter(Contact, "point")


def make_contact(normal: Any, depth: float, point: Any) -> Contact:
    """Build a Contact without the dataclass's frozen-setattr overhead (internal, hot path)."""
    c = _new(Contact)
    _c_n(c, normal)
    _c_d(c, depth)
    _c_p(c, point)
    return c
