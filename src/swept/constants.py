"""Named tolerances and fallbacks, each with its meaning. Per-call margins are arguments."""

from __future__ import annotations

from .vec import Vec2, Vec3

__all__ = ["COINCIDENT_NORMAL_2D", "COINCIDENT_NORMAL_3D", "DEFAULT_SKIN", "HEADING_TOLERANCE",
           "MANIFOLD_TOUCH_TOLERANCE"]

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

# --- manifold

#: A clipped end of an incident edge (see :func:`swept.manifold`) that lies outside the
#: reference face by at most this times the largest coordinate magnitude of the two shapes
#: still touches it, with depth 0. Two turned squares laid face to face (2,000 random turns,
#: side 4) put the second end outside by rounding (about 1e-16 of the coordinates) in a third
#: of the pairs, so it dropped out of the manifold; 1e-12, contact's own touching tolerance,
#: keeps every one of them and no end that is apart by more than rounding.
MANIFOLD_TOUCH_TOLERANCE = 1e-12

# -- the character controller (move_and_slide)

#: A face normal replaces a cast's normal when it separates the two shapes at least as well,
#: less this fraction of the coordinates' magnitude (rounding in the separations, ~1e-16
#: relative, with a wide margin; a vertex contact's face axes separate worse by a geometric
#: amount, so they are never taken). Seed: a polygon 1.2e-10 from a wall at x = -50 got a
#: cast normal 6e-5 off the wall's, and slid 0.0055 into it.
FEATURE_NORMAL_TOLERANCE = 1e-12
#: A character whose contact depth with an obstacle is above this fraction of its scale (its
#: size and its coordinates' magnitude) at the end of a move is inside it and is pushed out:
#: well above the rounding of a resting contact (~1e-16 relative), well below the 1e-9 the
#: invariant tests allow.
CLEARANCE_TOLERANCE = 1e-11
#: A capsule's cast normal is kept (not replaced by a face's) when the radii are at least this
#: fraction of the coordinates' magnitude: its cores stay that far apart, so the direction
#: between them is good to ~1e-16 / this (2e-13: a 4e-12 drift over a slide 17 times the
#: scene, as 1e5 units/s for 1/60 s in a scene of 100).
ROUND_CORE_FRACTION = 1e-3
