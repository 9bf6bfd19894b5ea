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

# --- input contract (coordinate range) ---

#: The largest magnitude accepted for any coordinate, length, radius, displacement or other
#: number given to the public API; beyond it (and for NaN, and infinity except where an
#: argument allows it, as ``max_distance``) the coercion in :mod:`swept.vec` raises
#: ``ValueError`` naming the argument. Squares and products of a few such values (1e100,
#: 1e150) stay far from float64 overflow (about 1e308), so no kernel overflows or makes NaN
#: inside the range. It covers scenes from 1e-6 to 1e7 length units with room to spare.
MAX_COORDINATE = 1e50
