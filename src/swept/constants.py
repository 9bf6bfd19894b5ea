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
#: length) of the target distance, plus :data:`CAST_ROUNDING`. Measured on 361 random
#: translating casts that hit (segments, capsules, boxes, polygons; 2D and 3D; of 4,000
#: drawn): they stop in 2-7 iterations (mean 3.2; the advance is a Newton step on the gap),
#: and at scales 1e-6, 1e-3, 1e3 and 1e7 the fractions agree with scale 1 to 1e-15 (before,
#: with a floor of 1.0 under the scale, a scene at 1e-6 stopped 7e-5 early).
CAST_TOLERANCE = 1e-9
#: The rounding part of a cast's stopping gap, times the largest coordinate involved: gaps
#: computed from coordinates of magnitude m carry ~m * 2.2e-16 per operation, and GJK counts
#: a core gap below 1e-12 m as touching; a cast asked to resolve less would spin to its
#: iteration cap on noise. Measured on the same casts moved 1e6 times their size from the
#: origin: the fractions agree to 1e-7 (distances to 2e-11 of the scene's size), the rounding
#: of the moved coordinates and this floor together.
CAST_ROUNDING = 1e-12
#: A moving circle's centre within this fraction of the grown polygon's size (plus
#: :data:`CAST_ROUNDING` of the coordinates) of the rim counts as *on* it, where an
#: entering-only cast (the swept step after a bounce) ignores the pieces it heads out of.
SWEEP_RIM_TOLERANCE = 1e-9

#: A gap at most this times the largest coordinate magnitude involved (points, radii, plane
#: offsets) counts as touching: distance 0, and a contact's normal comes from the exact
#: separating axes (edge normals, core perpendiculars) rather than from the direction between
#: two closest points equal to rounding. It absorbs the rounding of a - b and of GJK's simplex
#: solve, which otherwise leaves touching or crossing shapes ~1e-17 (relative) apart. Relative
#: to the coordinates, so the same at every scale. (Was defined, equal, in both
#: ``_kernels/distance.py`` and ``_kernels/contact.py``.)
TOUCH_TOLERANCE = 1e-12
#: GJK stops when ``|v| - dot(v, w) / |v| <= GJK_TOLERANCE * |v|``: the gap between its upper
#: bound ``|v|`` and lower bound (the support plane's distance) is this fraction of the result.
GJK_TOLERANCE = 1e-10
#: Two planes whose normals' dot product is within this of -1 (or +1) count as parallel.
PLANE_PARALLEL_TOLERANCE = 1e-12
#: A GJK simplex whose doubled area (triangle) or sextupled volume (tetrahedron) is at most
#: this times the product of its edge lengths from its first corner counts as flat
#: (degenerate): GJK skips it and its faces answer instead.
SIMPLEX_FLAT_TOLERANCE = 1e-14
#: Two 3D directions (a core and a box axis, two cores) whose angle has a sine below this
#: count as parallel, and their cross product is not used as a separating axis. Measured: a
#: core of length 1-10 at coordinates ~10, turned by a sine s from a box axis, gives the
#: axis ``core x axis`` a direction error (from the rounding of the core's ends, worst of
#: 3,000) of 8e-9 at s = 1e-7 (8% of s), 8e-8 at s = 1e-8 (8 times s) and 8e-6 at s = 1e-10:
#: below ~sqrt(machine epsilon) = 1.5e-8 the axis is noise, and the face axes (which it
#: then nearly equals) answer instead.
AXIS_PARALLEL_SINE = 1e-8
#: A different question with a different answer: the sine between a *ray* and a segment (or
#: a capsule's axis) below which ``ray.py`` treats them as parallel, a guard on the division
#: ``t = cross(w, e) / cross(d, e)``, not an axis. A ray that close to parallel still crosses
#: the line at a well-defined point (its rounding moves the hit along the segment), so the
#: guard sits far lower, just where the quotient would lose all digits (relative error
#: ~2.2e-16 / s: 2e-4 at 1e-12). The ray kernels (``_kernels/ray.py``, not changed here)
#: define this as ``PARALLEL_SINE = 1e-12``; they should import it from here.
RAY_PARALLEL_SINE = 1e-12
