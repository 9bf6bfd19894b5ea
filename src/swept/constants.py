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

# --- ray casts (swept._kernels.ray)

#: How far from a segment's line (relative to the distances involved: the origin to the
#: segment plus the segment's length) a parallel ray's origin may be and still count as
#: collinear with it.
COLLINEAR_TOLERANCE = 1e-12
#: The half-width of the band around a capsule's rim, relative to the size of the coordinates
#: involved, inside which the entering-only capsule kernels treat the origin as sitting *on*
#: the rim (where a swept step leaves a ball after a bounce, up to rounding): such a ray hits
#: at 0 only if it heads into the surface, and a deeper origin counts as strictly inside.
RIM_TOLERANCE = 1e-9

# --- shared geometry (swept._kernels.geom)

#: Squared length below which a segment counts as a point (its ends coincide).
DEGENERATE_SEGMENT_SQ = 1e-300

# --- the BVH (swept._kernels.bvh)

#: Deepest any leaf may be (root at depth 0). The SAH build falls back to median splits,
#: which halve the primitive count, wherever continuing by SAH could exceed it.
MAX_DEPTH = 64
#: A direction component smaller than this in magnitude counts as zero: the ray is parallel to
#: that axis' slabs (its inverse would overflow, and 0 * inf would make NaN).
MIN_DIRECTION_COMPONENT = 1e-300
#: Box bounds are clamped to +-this before taking centroids, so that infinite and empty boxes
#: get finite centroids (only the build's choice of split uses centroids).
CENTROID_CLAMP = 1e300
#: Box extents are clamped to [0, this] in the SAH area, so that infinite boxes have a finite
#: (huge) area and 3D products of extents cannot overflow.
AREA_EXTENT_CAP = 1e150

# --- the World's broadphase (swept._kernels.world)

#: Each collider is binned into the grid cells its shape (a segment or capsule) or its box
#: (other kinds), grown by this fraction of a cell, touches: a hit point on a cell's
#: boundary, or one that rounding puts a hair outside the cell the traversal is in, still
#: finds its collider in the current cell's list.
GRID_MARGIN = 1e-6

# --- the Simulation (swept._kernels.sim)

#: Halvings of the cell size that :func:`build_grid` may try, from the colliders' extent.
GRID_MAX_HALVINGS = 200
#: Gauss-Seidel sweeps over one body's speculative contacts in a step (each removes the
#: approach into one contact; a corner needs two).
SPECULATIVE_ITERATIONS = 4
#: How much farther than the step's own reach (as a fraction of the body's radius) speculative
#: contacts are gathered: Box2D's speculative distance, scale-free.
SPECULATIVE_MARGIN_FRACTION = 0.25
#: Extra reach of the body-body broadphase beyond the sum of radii, as a fraction of that sum:
#: pairs found after the move stay found while the passes move the bodies a little.
PAIR_MARGIN_FRACTION = 0.25
#: How far beyond its radius (as a fraction of the radius) a body's cached colliders reach:
#: passes and the bookkeeping reuse the cache while the body stays within it.
CACHE_MARGIN_FRACTION = 1.0
#: Largest grid key span (cells along all axes multiplied); sparser scenes use coarser cells.
MAX_GRID_KEYS = 1 << 60
#: A body-body overlap no deeper than this fraction of the pair's scale (the sum of radii plus
#: the first body's distance from the origin, coordinate by coordinate) is rounding: a pair
#: pushed apart to exactly touching reads back a depth of a few ulps of its coordinates, and
#: pushing it again would only move it by those ulps (and send every such body through a pass
#: for nothing). Such a pair touches: it still exchanges an impulse when approaching.
PAIR_PUSH_SLOP = 1e-12

# --- the swept step (swept.step) and the Simulation's casts

#: The default cap on casts in one step: each contact costs one cast, and the cap stops a
#: shape wedged between obstacles from looping forever (seed 000 uses 4).
MAX_CASTS_PER_STEP = 4

# --- chains (swept.chain)

#: A normal whose cosine with a segment's face normal is at least ``1 -`` this is a face normal
#: (about 1.4e-6 radians: a face normal is computed exactly, a rim normal leans).
FACE_NORMAL_TOLERANCE = 1e-12
#: A join bends (is convex or concave) only if the neighbour's far end leaves the segment's line
#: by more than this fraction of the neighbour's length; less is a flat seam.
JOIN_FLAT_TOLERANCE = 1e-9
#: A normal whose component across a segment is at most this is edge-on (along the segment).
EDGE_ON_TOLERANCE = 1e-12

# --- the character controller (swept.controller): defaults

#: Godot's default number of slides per call.
DEFAULT_MAX_SLIDES = 4
#: Godot's default steepest walkable slope, in degrees.
DEFAULT_FLOOR_MAX_ANGLE = 45.0
#: Slack added to ``floor_max_angle`` when classifying, in degrees (Godot's 0.01 rad is 0.57;
#: this is tighter, so that a 46-degree slope is a wall under the 45-degree default).
FLOOR_ANGLE_TOLERANCE = 0.01
#: A travel to a surface shorter than this fraction of the skin is none: the character is
#: already a skin away, and conservative advancement's tolerance would creep it closer.
TRAVEL_SLOP = 1e-3
#: A velocity rises (a jump: no snap, no step) only if its part along ``up`` is more than this
#: fraction of its length (less is rounding left by a floor's clipping).
RISING_TOLERANCE = 1e-6
#: How far below the character, in skins, a floor still counts as stood on (the probes at
#: the start and end of a call): more than one skin, so that the probe reaches the surface.
FLOOR_PROBE_SKINS = 2.0
#: How many deepest-first pushes the start-overlap recovery makes at most.
RECOVERY_PASSES = 4
#: A motion shorter than this fraction of the character's size is no motion (ends the slides).
MIN_MOTION_FRACTION = 1e-12
#: Two touched normals whose cosine is at least ``1 -`` this are one plane when clipping.
SAME_PLANE_TOLERANCE = 1e-9
#: A clipped motion may head into an earlier plane by this fraction of its length and still
#: count as leaving it (rounding, not a crease); a clipped motion shorter than this fraction of
#: the original is none (rounding in the normals, such as a cast's, is not a slide).
CLIP_TOLERANCE = 1e-9
#: With ``stop_on_slope``, a velocity whose part across ``up`` is at most this fraction of its
#: length is "standing still" (only gravity), and does not slide down a walkable slope.
STOP_ON_SLOPE_TOLERANCE = 1e-3
#: Below this share of the up axis two 3D normals are parallel: no crease line between them.
PARALLEL_TOLERANCE = 1e-12

# --- input contract (coordinate range) ---

#: The largest magnitude accepted for any coordinate, length, radius, displacement or other
#: number given to the public API; beyond it (and for NaN, and infinity except where an
#: argument allows it, as ``max_distance``) the coercion in :mod:`swept.vec` raises
#: ``ValueError`` naming the argument. Squares and products of a few such values (1e100,
#: 1e150) stay far from float64 overflow (about 1e308), so no kernel overflows or makes NaN
#: inside the range. It covers scenes from 1e-6 to 1e7 length units with room to spare.
MAX_COORDINATE = 1e50

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
#: ~2.2e-16 / s: 2e-4 at 1e-12).
RAY_PARALLEL_SINE = 1e-12
