"""Named tolerances and fallbacks, each with its meaning. Per-call margins are arguments."""

from __future__ import annotations

from .vec import Vec2, Vec3

__all__ = ["COINCIDENT_NORMAL_2D", "COINCIDENT_NORMAL_3D", "DEFAULT_SKIN", "HEADING_TOLERANCE"]

#: The normal used when two shapes' centres (or a point and a centre) coincide, so that no
#: direction between them exists: straight along +x, as seed 004's bumpers push a ball right.
COINCIDENT_NORMAL_2D = Vec2(1.0, 0.0)
#: The 3D counterpart of :data:`COINCIDENT_NORMAL_2D`.
COINCIDENT_NORMAL_3D = Vec3(1.0, 0.0, 0.0)

#: The default clearance that :func:`swept.push_out` leaves beyond the contact, in length
#: units (1 mm when the units are metres, as seed 002): enough that the next test does not
#: flicker between touching and not.
DEFAULT_SKIN = 0.001

#: A contact found by a cast counts as an impact only if the motion heads into it by more than
#: this fraction of the motion's length: a shape sliding along (or leaving) the surface it
#: rests on, or grazing a surface (such as the end of the next flush floor piece), is not
#: stopped by it. Used by the swept step and by ``advance``.
HEADING_TOLERANCE = 1e-9


# --- sweep, time of impact, distance and contact: tolerances relative to the query's scale ---

#: Conservative advancement (``sweep`` of two non-ball shapes, ``time_of_impact``) stops when
#: the gap is within this fraction of the query's own size (the shapes' extents and radii, the
#: displacement, the target distance; never the coordinates' magnitude, never an absolute
#: length) of the target distance, plus :data:`CAST_ROUNDING`. Measured on 20,000 random
#: casts at scales 1e-6..1e7: translating casts converge (Newton-like) in 2-6 iterations at
#: 1e-9, and the fractions at every scale agree to < 1e-12.
CAST_TOLERANCE = 1e-9
#: The rounding part of a cast's stopping gap, times the largest coordinate involved: gaps
#: computed from coordinates of magnitude m carry ~m * 2.2e-16 per operation, and GJK counts
#: a core gap below 1e-12 m as touching; a cast asked to resolve less would spin to its
#: iteration cap on noise. It is what lets a scene moved 1e6 times its size from the origin
#: still stop (at 1e-6 of its size).
CAST_ROUNDING = 1e-12
#: A moving circle's centre within this fraction of the grown polygon's size (plus
#: :data:`CAST_ROUNDING` of the coordinates) of the rim counts as *on* it, where an
#: entering-only cast (the swept step after a bounce) ignores the pieces it heads out of.
SWEEP_RIM_TOLERANCE = 1e-9
