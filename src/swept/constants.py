"""Every tolerance, slop, margin, iteration cap and numeric limit of swept, each with its meaning
and the measurement that chose it (or "not measured", with the reason for the value).

The rule: a tolerance is relative to the query's own scale (the coordinates' magnitude, the
shapes' sizes, a motion's length: each comment says which) unless it says otherwise; the few
absolute ones (:data:`DEFAULT_SKIN` in length units, the angle slacks in degrees or radians,
the overflow guards near 1e±300, :data:`VEC_CLOSE_TOLERANCE`) say so. Every loop in the library
has a cap, named here when it is a fixed number. Per-call margins (``skin``,
``target_distance``, ``max_casts``...) are arguments; the defaults named here are theirs.

Sections, in order:

- shared: the coincident-centre normals, the default skin, the heading test;
- the contact manifold (:mod:`swept.manifold`);
- the character controller's tolerances (:mod:`swept.controller`);
- ray casts (:mod:`swept._kernels.ray`);
- shared geometry (:mod:`swept._kernels.geom`);
- the BVH (:mod:`swept._kernels.bvh`);
- the World's broadphase (:mod:`swept.world`, :mod:`swept._kernels.world`);
- the Simulation (:mod:`swept.sim`, :mod:`swept._kernels.sim`);
- the swept step and the Simulation's casts (:mod:`swept.step`);
- chains (:mod:`swept.chain`);
- the character controller's defaults;
- the input contract (the coordinate range, :mod:`swept.vec`);
- sweep, time of impact, distance and contact (:mod:`swept._kernels.sweep`,
  :mod:`swept._kernels.distance`, :mod:`swept._kernels.contact`, :mod:`swept.toi`),
  with their iteration caps;
- shapes (:mod:`swept.shapes`: polygon validation);
- vectors (:mod:`swept.vec`);
- collision response (:mod:`swept.resolve`);
- threads (:mod:`swept._parallel`).

What is *not* here, on purpose: data-layout constants (the collider kind codes, the table's
column names and ``PARAM_WIDTH`` in :mod:`swept._kernels.scene`; the cast flags in
:mod:`swept._kernels.world`; the cast and GJK status codes and ``GJK_CACHE_SIZE`` in
:mod:`swept._kernels.sweep` and :mod:`swept._kernels.distance`; ``MISS`` in
:mod:`swept._kernels.ray`; the ccd mode codes in :mod:`swept._kernels.sim`; the split codes
``SPLIT_SAH``/``SPLIT_MEDIAN`` and ``EMPTY_LO``/``EMPTY_HI`` in :mod:`swept._kernels.bvh`),
buffer sizes (``CANDIDATE_CAPACITY``, ``CACHE_CAPACITY``, ``PAIR_TABLE_WIDTH``,
``INITIAL_CAPACITY``, ``INITIAL_POOL``, ``BOX_CACHE_SIZE``) and the measured performance-tuning
knobs of the broadphases and threads (``LEAF_SIZE`` and ``SAH_BINS`` in
:mod:`swept._kernels.bvh`; ``GRID_MAX_ENTRIES``, ``POOL_COMPACT_MIN`` and
``DYNAMIC_REFITS_BEFORE_REBUILD`` in :mod:`swept.world`; ``DENSE_GRID_*`` in
:mod:`swept._kernels.sim`; ``CHUNKS_PER_THREAD``, ``PARALLEL_MIN_BATCH`` and ``MIN_CHUNK`` in
:mod:`swept._parallel`; ``BROADPHASE_MIN_OBSTACLES`` in :mod:`swept.controller`; the grid
choice's thresholds are here, ``BROADPHASE_*``, because they decide a structure, with their
measurements). They change speed or memory, never an answer, and live beside the
code they shape. Physical defaults (restitution, gravity, the 1/60 s step) and the command
line's settings stay in their modules too.

numba reads module globals as compile-time constants, and its on-disk cache checks only each
function's own source file: after changing a value here, delete the caches
(``find src -name '*.nb[ic]' -delete``).
"""

from __future__ import annotations

from .vec import Vec2, Vec3

__all__ = [
    # shared
    "COINCIDENT_NORMAL_2D", "COINCIDENT_NORMAL_3D", "DEFAULT_SKIN", "HEADING_TOLERANCE",
    # manifold
    "MANIFOLD_TOUCH_TOLERANCE",
    # the character controller's tolerances
    "FEATURE_NORMAL_TOLERANCE", "CLEARANCE_TOLERANCE", "ROUND_CORE_FRACTION",
    # ray casts
    "COLLINEAR_TOLERANCE", "RIM_TOLERANCE",
    # shared geometry
    "DEGENERATE_SEGMENT_SQ", "SEGMENT_PARALLEL_SINE_SQ",
    # the BVH
    "MAX_DEPTH", "MIN_DIRECTION_COMPONENT", "CENTROID_CLAMP", "AREA_EXTENT_CAP",
    # the World's broadphase
    "GRID_MARGIN", "CANDIDATE_MARGIN", "BOX_MARGIN",
    # the Simulation
    "GRID_MAX_DOUBLINGS", "SPECULATIVE_ITERATIONS",
    "SPECULATIVE_MARGIN_FRACTION", "PAIR_MARGIN_FRACTION", "CACHE_MARGIN_FRACTION",
    "SIM_GRID_CELLS_PER_COLLIDER", "SIM_GRID_MAX_ENTRIES_PER_COLLIDER",
    "RELATIVE_MOTION_TOLERANCE",
    "MAX_GRID_KEYS", "PAIR_PUSH_SLOP", "SEGMENT_CULL_TOLERANCE",
    "PUSH_SLIDES", "SLEEP_DEPTH_FRACTION", "PATH_WAKE_BLOCK", "SIMULATION_PASSES",
    "MAX_STEPS_PER_UPDATE",
    "ACCUMULATOR_TOLERANCE", "SIM_PARALLEL_MIN",
    # the swept step
    "MAX_CASTS_PER_STEP", "MAX_BODY_POLYGON_POINTS",
    # chains
    "FACE_NORMAL_TOLERANCE", "JOIN_FLAT_TOLERANCE", "EDGE_ON_TOLERANCE",
    # the character controller's defaults
    "DEFAULT_MAX_SLIDES", "DEFAULT_FLOOR_MAX_ANGLE", "FLOOR_ANGLE_TOLERANCE", "TRAVEL_SLOP",
    "RISING_TOLERANCE", "FLOOR_PROBE_SKINS", "RECOVERY_PASSES", "MIN_MOTION_FRACTION",
    "SAME_PLANE_TOLERANCE", "CLIP_TOLERANCE", "STOP_ON_SLOPE_TOLERANCE", "PARALLEL_TOLERANCE",
    # the input contract
    "MAX_COORDINATE",
    # triangle meshes and height fields
    "TRIANGLE_AREA_TOLERANCE", "FLAT_EDGE_TOLERANCE", "SURFACE_SEARCH_DOUBLINGS",
    "MAX_MESH_TRIANGLES", "RAY_ORDER_BITS", "RAY_ORDER_MIN_RAYS",
    "RAY_BLOCK", "WALKS_IN_FLIGHT", "PLANE_CULL_TOLERANCE",
    # sweep, time of impact, distance and contact
    "CAST_TOLERANCE", "CAST_ROUNDING", "SWEEP_RIM_TOLERANCE", "REACH_ROUNDING",
    "TOUCH_TOLERANCE",
    "GJK_TOLERANCE", "PLANE_PARALLEL_TOLERANCE", "SIMPLEX_FLAT_TOLERANCE", "AXIS_PARALLEL_SINE",
    "RAY_PARALLEL_SINE", "CAST_MAX_ITERATIONS", "TOI_MAX_ITERATIONS", "GJK_MAX_ITERATIONS",
    "ADVANCE_MAX_BOUNCES",
    # shapes
    "POLYGON_COLLINEAR_TOLERANCE", "POLYGON_TURNING_SLACK",
    # oriented boxes and convex hulls (swept.hull, swept.convex3d)
    "ROTATION_TOLERANCE", "HULL_TOLERANCE", "HULL_MAX_POINTS", "POLYTOPE_FEATURE_TOLERANCE",
    # vectors
    "VEC_CLOSE_TOLERANCE",
    # collision response
    "RESOLVE_PASSES",
    # the World's query filter
    "FILTER_KERNEL_TRIES", "CHAIN_BOXES_MIN_SEGMENTS",
    "CHAIN_RAY_BOXES_MIN_SEGMENTS",
    # the candidate margin of a tile map's queries
    "TILE_QUERY_MARGIN_FACTOR",
    # broadphase choice
    "BROADPHASE_GRID_MIN_COLLIDERS", "BROADPHASE_COLLIDERS_PER_CELL",
    "BROADPHASE_MAX_ENTRIES_PER_COLLIDER", "BROADPHASE_SMALL_CELLS", "BROADPHASE_MAX_OCCUPANCY",
    "BROADPHASE_OCCUPANCY_COLLIDERS_PER_CELL", "MOVING_GRID_COLLIDERS_PER_CELL",
    "BROADPHASE_CLUSTER_COLLIDERS_PER_CELL", "BROADPHASE_MAX_CLUSTER_OCCUPANCY",
    "BROADPHASE_CLUSTER_GRID_MIN_COLLIDERS", "MOVING_GRID_OUTSIDE",
    "MOVING_GRID_MARKS_PER_COLLIDER",
    "GRID_SUB_CROWDED", "GRID_SUB_PER_CELL", "GRID_SUB_MAX_SIDE",
    "GRID_SUB_GROWTH",
    # threads
    "MAX_THREADS",
    # the order a batch casts its rays in (swept._kernels.world.spatial_order)
    "RAY_ORDER_PER_BUCKET", "RAY_ORDER_MAX_SIDE", "RAY_GATHER_MIN_ROWS",
    "RAY_ORDER_MIN_COLLIDERS",
    # the Simulation's velocity solver
    "SOLVER_ITERATIONS", "CONTACT_MARGIN_FRACTION", "RESTITUTION_THRESHOLD_STEPS",
    "CONTACT_SLOP_FRACTION", "POSITION_CORRECTION", "SOLVER_TOLERANCE_FRACTION", "SLEEP_TIME",
    "EVENT_TOUCH_FRACTION", "TOUCHES_LOGGED_PER_STEP",
    # swept warmup's compile locks (swept._kernels.compile_locks)
    "COMPILE_LOCK_POLL_SECONDS", "COMPILE_LOCK_MAX_POLLS",
    # which compiled callees are linked into their callers (swept._kernels.linking)
    "LINKED_CALLEE_MAX_INSTRUCTIONS",
    # integer sorts in kernels
    "SORT_DIGIT_BITS",
    "SLEEP_SPEED_STEPS",
    # the swept command and its scene files
    "CLI_MAX_STEPS", "CLI_MAX_FRAMES", "CLI_MAX_SPEEDS", "SCENE_MAX_FILE_BYTES",
    "SCENE_MAX_NUMBER_CHARS", "SCENE_MAX_BODIES",
    # debug drawing (swept.pygame_util, swept.plot)
    "DRAW_ARC_SEGMENTS",
    # shapely interop
    "SHAPELY_QUAD_SEGMENTS", "SHAPELY_MAX_QUAD_SEGMENTS",
]

# --- shared: the coincident-centre normals, the default skin, the heading test

#: The normal used when two shapes' centres (or a point and a centre) coincide, so that no
#: direction between them exists: straight along +x, as seed 004's bumpers push a ball right.
#: Not measured: a convention, not a tolerance.
COINCIDENT_NORMAL_2D = Vec2(1.0, 0.0)
#: The 3D counterpart of :data:`COINCIDENT_NORMAL_2D`. Not measured: a convention.
COINCIDENT_NORMAL_3D = Vec3(1.0, 0.0, 0.0)

#: The default clearance that :func:`swept.push_out` leaves beyond the contact, in length
#: units (1 mm when the units are metres, as seed 002): enough that the next test does not
#: flicker between touching and not. Absolute (a length), and an argument's default: a scene
#: in other units passes its own skin. Not measured: seed 002's value.
DEFAULT_SKIN = 0.001

#: A contact found by a cast counts as an impact only if the motion heads into it by more than
#: this fraction of the motion's length: a shape sliding along (or leaving) the surface it
#: rests on, or grazing a surface (such as the end of the next flush floor piece), is not
#: stopped by it. Used by the swept step and by ``advance``. Not measured: chosen far above
#: the rounding of a dot product of unit vectors (~1e-16) and far below any approach a user
#: would call one (1e-9 rad of heading).
HEADING_TOLERANCE = 1e-9

# --- manifold

#: A clipped end of an incident edge (see :func:`swept.manifold`) that lies outside the
#: reference face by at most this times the largest coordinate magnitude of the two shapes
#: still touches it, with depth 0. Measured: two turned squares laid face to face (2,000
#: random turns, side 4) put the second end outside by rounding (about 1e-16 of the
#: coordinates) in a third of the pairs, so it dropped out of the manifold; 1e-12, contact's
#: own touching tolerance, keeps every one of them and no end that is apart by more than
#: rounding.
MANIFOLD_TOUCH_TOLERANCE = 1e-12

# -- the character controller (move_and_slide)

#: A face normal replaces a cast's normal when it separates the two shapes at least as well,
#: less this fraction of the coordinates' magnitude (rounding in the separations, ~1e-16
#: relative, with a wide margin; a vertex contact's face axes separate worse by a geometric
#: amount, so they are never taken). Measured on a seed: a polygon 1.2e-10 from a wall at
#: x = -50 got a cast normal 6e-5 off the wall's, and slid 0.0055 into it; the value itself
#: is not measured: chosen as :data:`TOUCH_TOLERANCE`'s 1e-12.
FEATURE_NORMAL_TOLERANCE = 1e-12
#: A character whose contact depth with an obstacle is above this fraction of its scale (its
#: size and its coordinates' magnitude) at the end of a move is inside it and is pushed out.
#: Not measured: chosen well above the rounding of a resting contact (~1e-16 relative), well
#: below the 1e-9 the invariant tests allow.
CLEARANCE_TOLERANCE = 1e-11
#: A capsule's cast normal is kept (not replaced by a face's) when the radii are at least this
#: fraction of the coordinates' magnitude: its cores stay that far apart, so the direction
#: between them is good to ~1e-16 / this (2e-13: a 4e-12 drift over a slide 17 times the
#: scene, as 1e5 units/s for 1/60 s in a scene of 100). Not measured: the value is chosen so
#: that the direction error stays near 1e-13; the drift figure is derived from it.
ROUND_CORE_FRACTION = 1e-3

# --- ray casts (swept._kernels.ray)

#: How far from a segment's line (relative to the distances involved: the origin to the
#: segment plus the segment's length) a parallel ray's origin may be and still count as
#: collinear with it. Not measured: chosen as :data:`TOUCH_TOLERANCE`'s 1e-12, some
#: thousands of ulps.
COLLINEAR_TOLERANCE = 1e-12
#: The half-width of the band around a capsule's rim, relative to the size of the coordinates
#: involved, inside which the entering-only capsule kernels treat the origin as sitting *on*
#: the rim (where a swept step leaves a ball after a bounce, up to rounding): such a ray hits
#: at 0 only if it heads into the surface, and a deeper origin counts as strictly inside.
#: Not measured: chosen as the 1e-9 of the other rim and heading bands
#: (:data:`SWEEP_RIM_TOLERANCE`, :data:`HEADING_TOLERANCE`), far above rounding.
RIM_TOLERANCE = 1e-9

# --- shared geometry (swept._kernels.geom)

#: Squared length below which a segment counts as a point (its ends coincide). Absolute: a
#: guard against dividing by a zero length, not a rounding tolerance (any segment longer than
#: 1e-150 is a segment). Not measured: chosen just above the smallest normal float
#: (2.2e-308), so that only a length whose square may have underflowed counts as zero.
DEGENERATE_SEGMENT_SQ = 1e-300
#: The closest points of two segments treat them as parallel (start from ``s = 0`` and clamp,
#: rather than solve for the lines' closest points) when ``a e - b^2``, which is ``a e``
#: times the squared sine of their angle, is at most this times ``a e``: a sine below ~1e-7.
#: Below it the solved ``s`` would carry a relative error of ~2.2e-16 / sine^2 (2% at
#: 1e-7), while the parallel branch gives parallel segments' distance exactly. Not measured:
#: chosen as the square of a sine of 1e-7, a few times sqrt(machine epsilon) (1.5e-8).
SEGMENT_PARALLEL_SINE_SQ = 1e-14

# --- the BVH (swept._kernels.bvh)

#: Deepest any leaf may be (root at depth 0): fixes the size of the traversal stack. The SAH
#: build falls back to median splits, which halve the primitive count, wherever continuing by
#: SAH could exceed it. Not measured: 64 median levels hold 2^64 primitives, more than fit in
#: memory.
MAX_DEPTH = 64
#: A direction component smaller than this in magnitude counts as zero: the ray is parallel to
#: that axis' slabs (its inverse would overflow, and 0 * inf would make NaN). Absolute (an
#: overflow guard). Not measured: chosen so that its inverse, 1e300, is finite.
MIN_DIRECTION_COMPONENT = 1e-300
#: Box bounds are clamped to +-this before taking centroids, so that infinite and empty boxes
#: get finite centroids (only the build's choice of split uses centroids). Absolute (an
#: overflow guard). Not measured: any bound beyond :data:`MAX_COORDINATE` whose double still
#: fits in a float64 works.
CENTROID_CLAMP = 1e300
#: Box extents are clamped to [0, this] in the SAH area, so that infinite boxes have a finite
#: (huge) area and 3D products of extents cannot overflow. Absolute (an overflow guard). Not
#: measured: the sum of three products of two, 3e300, still fits in a float64.
AREA_EXTENT_CAP = 1e150

# --- the World's broadphase (swept.world, swept._kernels.world)

#: Each collider is binned into the grid cells its shape (a segment or capsule) or its box
#: (other kinds), grown by this fraction of a cell, touches: a hit point on a cell's
#: boundary, or one that rounding puts a hair outside the cell the traversal is in, still
#: finds its collider in the current cell's list. Not measured: chosen as
#: :data:`CANDIDATE_MARGIN`'s 1e-6, billions of ulps; its cost is that a collider within a
#: millionth of a cell of a boundary lands in one more cell.
GRID_MARGIN = 1e-6
#: Candidate boxes of the Python-side queries (sweeps of non-ball shapes, contacts, box and
#: point queries) are grown by this times the scene's scale (the largest coordinate, at least
#: 1), so that the narrowphase's own touching tolerances (1e-12 to 1e-9, relative) never see a
#: collider the broadphase has culled. Not measured: chosen 1,000 times the largest of those
#: tolerances.
CANDIDATE_MARGIN = 1e-6
#: Every collider's stored box is grown by this times its own scale (its largest coordinate,
#: at least 1), so that the rounding of a slab test never culls what the narrowphase hits: a
#: ray aimed exactly at a segment's end crosses the end's box corner, and its two slab
#: crossings, equal in exact arithmetic, may come out an ulp in the wrong order (commit
#: e7bc92c; tests/test_world.py guards it). Not measured: chosen millions of ulps above that
#: rounding and below the narrowphase's own bands.
BOX_MARGIN = 1e-9

# --- the Simulation (swept.sim, swept._kernels.sim)

#: Doublings of the cell size that the body-pair grid (``_cell_keys``) may make until every
#: key fits in :data:`MAX_GRID_KEYS` (a loop cap: a sparse scene's span over its cell, per
#: axis, must drop below 2^20 in 3D, 2^30 in 2D). Measured: with the former cap of 200, three
#: balls of radius 1e-30 at x = -1e49 and 1e49 (inside the coordinate range) ran out of
#: doublings and made ``Simulation.step`` raise (the key span overflowed an int64); any ratio
#: of two positive doubles is below 2^2100, so this cap never stops the loop before the keys
#: fit, and the loop itself stops after as many doublings as the scene needs (about 1,200 at
#: worst in the range).
GRID_MAX_DOUBLINGS = 2100
#: Gauss-Seidel sweeps over one body's speculative contacts in a step (each removes the
#: approach into one contact; a corner needs two). Not measured: two for a corner, doubled.
SPECULATIVE_ITERATIONS = 4
#: How much farther than the step's own reach (as a fraction of the body's radius) speculative
#: contacts are gathered: Box2D's speculative distance, scale-free. Not measured: Box2D's.
SPECULATIVE_MARGIN_FRACTION = 0.25
#: Extra reach of the body-body broadphase beyond the sum of radii, as a fraction of that sum:
#: pairs found after the move stay found while the passes move the bodies a little. Not
#: measured: chosen as :data:`SPECULATIVE_MARGIN_FRACTION`.
PAIR_MARGIN_FRACTION = 0.25
#: A ball's move relative to a moving collider no longer than this fraction of the two
#: motions' and the ball's coordinates' magnitudes is none: the ball rides the collider. The
#: same motion computed two ways (the ball's velocity times the time left; the collider's
#: step displacement times the share of the step left) differs by a few ulps, in a direction
#: of its own, and as a cast that residue ran straight into the collider the ball rode, at
#: every cast of the step. Measured: a paddle at 50 units a step that had just given a ball
#: its speed held it at the contact for the rest of the step, inside the paddle's end pose,
#: 23 units behind its face. 1e-12, as :data:`PAIR_PUSH_SLOP`, is far above that rounding.
RELATIVE_MOTION_TOLERANCE = 1e-12
#: How far beyond its radius (as a fraction of the radius) a body's cached colliders reach:
#: passes and the bookkeeping reuse the cache while the body stays within it. Not measured:
#: one radius, a round number that covers the passes' pushes.
CACHE_MARGIN_FRACTION = 1.0
#: Cells per static collider in the Simulation's gather grid (:mod:`swept._kernels.sim_grid`):
#: square cells over the static colliders' extent, about this many a collider. Not measured:
#: one a collider, a round number (the grid lists the same colliders at any cell size).
SIM_GRID_CELLS_PER_COLLIDER = 1.0
#: Most cell entries a static collider of the gather grid may need on average; past it (the
#: colliders much larger than the cells) the Simulation walks the static tree instead. A limit
#: on memory and on the build, not measured.
SIM_GRID_MAX_ENTRIES_PER_COLLIDER = 16
#: Largest grid key span (cells along all axes multiplied); sparser scenes use coarser cells.
#: A limit, not a tolerance: keys below 2^60 leave an int64 room for a neighbour's offset.
#: Not measured.
MAX_GRID_KEYS = 1 << 60
#: A body-body overlap no deeper than this fraction of the pair's scale (the sum of radii plus
#: the first body's distance from the origin, coordinate by coordinate) is rounding: a pair
#: pushed apart to exactly touching reads back a depth of a few ulps of its coordinates, and
#: pushing it again would only move it by those ulps (and send every such body through a pass
#: for nothing). Such a pair touches: it still exchanges an impulse when approaching.
#: Measured (commit 53f17a4, 10k balls on one thread): about 1,530 bodies a pass overlapped
#: by a few ulps after a push, median 2e-13; 1e-12 is five times that median (the share of
#: them it covers was not recorded).
PAIR_PUSH_SLOP = 1e-12
#: How far beyond a ball's reach (relative to the sum of the reach's and the coordinates'
#: magnitudes) a segment collider must lie before the Simulation's kernels skip its
#: narrowphase call (:func:`swept._kernels.sim.segment_beyond`,
#: :func:`swept._kernels.sim.segment_off_path`): a skip only where the call would have found
#: no contact. The culls' distances and the narrowphase's own differ by a few ulps of the
#: coordinates, and a cast counts an origin within :data:`RIM_TOLERANCE` (1e-9 of the largest
#: magnitude) of the rim as on it. Not measured: chosen as 1e-6, far above both and far
#: below any reach (what it culls is measured in :func:`swept._kernels.sim.segment_beyond`).
SEGMENT_CULL_TOLERANCE = 1e-6
#: Casts a Simulation body's position-pass push takes at most: at each contact the rest of the
#: push slides along it (a loop cap). Four: a floor, a wall and a ceiling in 3D leave nothing
#: after the third; a fourth catches an edge met on the way. Not measured beyond the pile of
#: benchmarks/bench_settle.py.
PUSH_SLIDES = 4
#: A Simulation body with a contact deeper than this fraction of the smaller radius (of a
#: collider contact, the body's own) is not at rest, whatever its speed: the solver's split
#: impulses are still healing the overlap, and a sleeping body heals nothing. Half the issue's
#: bar of 1%. Measured on the 500-ball pile of benchmarks/bench_settle.py (seeds 1 to 7,
#: sleeping on): without it the pile fell asleep with overlaps of 4 to 6% (126 to 160 pairs
#: over 1%); with half a percent of the two radii's sum, 0.9 to 1.2% (up to 2 pairs over 1%);
#: with this (and 6 passes), 0.44 to 0.49%, none over 1%, every ball asleep.
SLEEP_DEPTH_FRACTION = 0.005
#: Most candidate (mover, sleeper) pairs that the Simulation's wake-on-path test
#: (``Simulation._wake_on_paths``: the sleeping islands an awake body may reach this step)
#: builds at once; the movers are taken in blocks below it, so its memory stays bounded.
#: Not measured: 2^18 pairs, a few MB of numpy temporaries.
PATH_WAKE_BLOCK = 1 << 18
#: Contact passes per :class:`~swept.Simulation` step by default (``passes``; the module
#: alias ``swept.sim.DEFAULT_PASSES``): seed 004 shows why one is not enough in a corner.
#: Measured on the 500-ball pile of benchmarks/bench_settle.py (seeds 1 to 7, sleeping off,
#: 3,000 steps): 4 passes left the worst pair at 0.3 to 1.3% of the smaller radius (one seed
#: over the issue's 1%), 6 at 0.02 to 0.33% for 1.14x the CPU time of 4, 8 at 0.01 to 0.26% for
#: 1.33x.
SIMULATION_PASSES = 6
#: Steps one :meth:`Simulation.update` may take: time beyond them is dropped (and counted in
#: ``dropped_time``), so that a long stall cannot make the next frame longer still. Not
#: measured: four seconds of 1/60 s steps.
MAX_STEPS_PER_UPDATE = 240
#: Relative slack when the accumulator is compared with the step: 0.05 s of frames at 1/60
#: adds up to 2.9999999999999996 steps in floats, and should still take 3. Measured: 20,000
#: runs of 1-50 equal frames (1/30, 1/60, 1/144, 0.05, 0.1 s or random in [0.001, 0.1] s)
#: summed in floats fall short of their exact whole steps in 2,761 runs, by at most 1.1e-13 of
#: a step; 1e-9 covers them with room, and takes a step early by at most 1.7e-11 s at 1/60.
ACCUMULATOR_TOLERANCE = 1e-9

# --- the swept step (swept.step) and the Simulation's casts

#: The default cap on casts in one step, for :func:`swept.swept_step` and for each swept body
#: of a :class:`~swept.Simulation` (``max_casts``; the same meaning in both): each contact
#: costs one cast, and the cap stops a shape wedged between obstacles from looping forever.
#: Not measured: seed 000's 4.
MAX_CASTS_PER_STEP = 4
#: The most corners a polygon :class:`~swept.Body` may have: each body's shape row in the
#: Simulation is as wide as its widest body's (two floats a corner), and the separating-axis
#: contact of two polygons costs the product of their corner counts. Not measured: 64, far
#: above a game's boxes and hulls, well below a row that would dwarf the other arrays.
MAX_BODY_POLYGON_POINTS = 64

# --- chains (swept.chain)

#: A normal whose cosine with a segment's face normal is at least ``1 -`` this is a face normal
#: (about 1.4e-6 radians: a face normal is computed exactly, a rim normal leans). Not
#: measured: chosen as :data:`TOUCH_TOLERANCE`'s 1e-12.
FACE_NORMAL_TOLERANCE = 1e-12
#: A join bends (is convex or concave) only if the neighbour's far end leaves the segment's line
#: by more than this fraction of the neighbour's length; less is a flat seam. Not measured:
#: chosen far above rounding and far below a bend anyone would draw (1e-9 rad).
JOIN_FLAT_TOLERANCE = 1e-9
#: A normal whose component across a segment is at most this is edge-on (along the segment).
#: Not measured: chosen as :data:`TOUCH_TOLERANCE`'s 1e-12.
EDGE_ON_TOLERANCE = 1e-12

# --- the character controller (swept.controller): defaults

#: Godot's default number of slides per call (a loop cap). Not measured: Godot's value.
DEFAULT_MAX_SLIDES = 4
#: Godot's default steepest walkable slope, in degrees (also :func:`swept.is_walkable`'s).
#: Not measured: Godot's value.
DEFAULT_FLOOR_MAX_ANGLE = 45.0
#: Slack added to ``floor_max_angle`` when classifying, in degrees (absolute: an angle; Godot's
#: 0.01 rad is 0.57; this is tighter, so that a 46-degree slope is a wall under the 45-degree
#: default). Not measured: chosen below a degree's hundredth.
FLOOR_ANGLE_TOLERANCE = 0.01
#: A travel to a surface shorter than this fraction of the skin is none: the character is
#: already a skin away, and conservative advancement's tolerance would creep it closer. Not
#: measured: chosen a thousandth of the skin.
TRAVEL_SLOP = 1e-3
#: A velocity rises (a jump: no snap, no step) only if its part along ``up`` is more than this
#: fraction of its length (less is rounding left by a floor's clipping). Not measured: chosen
#: far above that rounding (~1e-16) and far below a jump.
RISING_TOLERANCE = 1e-6
#: How far below the character, in skins, a floor still counts as stood on (the probes at
#: the start and end of a call): more than one skin, so that the probe reaches the surface.
#: Not measured: the next whole number of skins.
FLOOR_PROBE_SKINS = 2.0
#: How many deepest-first pushes the start-overlap recovery makes at most (a loop cap). Not
#: measured: as many as :data:`DEFAULT_MAX_SLIDES`.
RECOVERY_PASSES = 4
#: A motion shorter than this fraction of the character's size is no motion (ends the slides).
#: Not measured: chosen as :data:`TOUCH_TOLERANCE`'s 1e-12.
MIN_MOTION_FRACTION = 1e-12
#: Two touched normals whose cosine is at least ``1 -`` this are one plane when clipping. Not
#: measured: chosen as :data:`HEADING_TOLERANCE`'s 1e-9.
SAME_PLANE_TOLERANCE = 1e-9
#: A clipped motion may head into an earlier plane by this fraction of its length and still
#: count as leaving it (rounding, not a crease); a clipped motion shorter than this fraction of
#: the original is none (rounding in the normals, such as a cast's, is not a slide). Not
#: measured: chosen as :data:`HEADING_TOLERANCE`'s 1e-9.
CLIP_TOLERANCE = 1e-9
#: With ``stop_on_slope``, a velocity whose part across ``up`` is at most this fraction of its
#: length is "standing still" (only gravity), and does not slide down a walkable slope. Not
#: measured: chosen a thousandth, as :data:`TRAVEL_SLOP`.
STOP_ON_SLOPE_TOLERANCE = 1e-3
#: Below this share of the up axis two 3D normals are parallel: no crease line between them.
#: Not measured: chosen as :data:`TOUCH_TOLERANCE`'s 1e-12.
PARALLEL_TOLERANCE = 1e-12

# --- input contract (coordinate range) ---

#: The largest magnitude accepted for any coordinate, length, radius, displacement or other
#: number given to the public API; beyond it (and for NaN, and infinity except where an
#: argument allows it, as ``max_distance``) the coercion in :mod:`swept.vec` raises
#: ``ValueError`` naming the argument. Squares and products of a few such values (1e100,
#: 1e150) stay far from float64 overflow (about 1e308), so no kernel overflows or makes NaN
#: inside the range. It covers scenes from 1e-6 to 1e7 length units with room to spare. A
#: limit, absolute. Not measured: chosen so that cubes stay finite.
MAX_COORDINATE = 1e50

# --- triangle meshes and height fields (swept.level.surface, swept._kernels.mesh) ---

#: A triangle is rejected as zero-area when its doubled area is at most this times its longest
#: edge squared (twice the sine of its smallest angle, near enough): relative, so a mesh
#: scaled by 1e-6 or 1e7 is accepted or rejected alike. Not measured: chosen far above the
#: rounding of a cross product (1e-16) so that every accepted triangle has a face normal
#: good to about 1e-4 of a radian, and far below any triangle a modeller makes.
TRIANGLE_AREA_TOLERANCE = 1e-12
#: Two triangles sharing an edge are coplanar (the edge is *flat*, and a ball touching it gets
#: the face normal) when the sine of the angle between their normals is at most this. Not
#: measured: chosen well above the rounding of normals computed from coordinates (about 1e-15
#: of a radian) and well below a modelled bend (a 1-degree bend is a sine of 0.017).
FLAT_EDGE_TOLERANCE = 1e-9
#: Rounds of the nearest-point search on a surface (:meth:`Surface._nearest`), each doubling
#: the cube searched, before it tests every triangle. A cap. Not measured: the first cube
#: already reaches the surface's box, so rounds beyond log2(extent / smallest triangle) (about
#: 40 at 1e-6 .. 1e7) never run.
SURFACE_SEARCH_DOUBLINGS = 128
#: Most triangles a ``TriangleMesh`` holds: its rays' compact tree
#: (:func:`swept._kernels.mesh.flatten_tree`) keeps a leaf's block of triangles and, in the
#: low 4 bits, its count in one int32 (blocks below 2^27). A cap. Not measured: such a mesh
#: already takes about 10 GB for its corners alone.
MAX_MESH_TRIANGLES = 2**27
#: A ray batch on a mesh (:func:`swept._kernels.mesh.ray_order`) is walked in the order of its
#: origins' Morton code (when every ray starts at one point: its directions' octant, then a
#: Hilbert curve over the octant's octahedron face, `_direction_code`), each axis cut into
#: 2^this steps: nearby rays then follow one another through the same nodes, which
#: stay in cache. Measured (bench_mesh, 1-1.3 million triangles, one thread, CPU time), with
#: the rows copied in that order a block at a time (:data:`RAY_BLOCK`): incoherent rays
#: 1.186 -> 0.909 us a ray on the terrain, 1.525 -> 1.139 on the icosphere against reading the
#: rows where they lie (the earlier walk, which gained only 1.02-1.07x from the order); a
#: lidar sorted by direction 1.41 -> 1.04 us on the icosphere, 0.61 -> 0.50 on the terrain.
#: 10 bits: 30-bit codes, two counting-sort passes.
RAY_ORDER_BITS = 10
#: Ray batches on a mesh smaller than this keep their own order (the Morton sort's two passes
#: over 2^15 buckets cost about as much as 300 rays). Not measured beyond that estimate.
RAY_ORDER_MIN_RAYS = 8192
#: A mesh's ray batch is walked in blocks of this many rays: each block's rows are first copied
#: in walk order into a small buffer, walked, then its answers written to their rows.
#: Measured (bench_mesh's 100,000 rays on 1-1.3 million triangles, one thread, CPU time): the
#: blocks against reading and writing each ray's rows where they lie, 1.19 -> 0.91 us a ray on
#: the terrain's incoherent rays, 1.53 -> 1.14 on the icosphere's; blocks of 64, 256 and 1024
#: within the noise of one another (load 5-10).
RAY_BLOCK = 256
#: Walks (single rays or lidar packets) a mesh's ray batch keeps going at once, a node of each
#: in turn (:func:`swept._kernels.mesh.ray_step`, :func:`~swept._kernels.mesh.packet_step`):
#: each child is asked for when it goes on its walk's stack and arrives while the other
#: walks' nodes are walked, so that the waits for memory overlap. Measured (bench_mesh's
#: 100,000 rays, one thread, CPU time, paired in one process against one walk at a time,
#: load 4-7): icosphere lidar 1.15x at 4, 6 or 8, 1.17x at 12; icosphere incoherent 1.19x,
#: 1.21x, 1.21x, 1.23x; terrain incoherent 1.14x, 1.15x, 1.13x, 1.13x; terrain lidar
#: 0.97-0.98x at every count (1.03x against the code before: see docs/level.md).
WALKS_IN_FLIGHT = 6
#: A ball's cast against a triangle (:func:`swept._kernels.mesh.sphere_triangle_cast`) is
#: skipped when its centre's whole path stays farther than the radius from the triangle's
#: plane, on one side, by more than this times the size of the numbers involved (the centre's
#: and a corner's coordinates, the radius, the reach): every touch, face, edge or vertex, lies
#: within the radius of the plane, and the slack covers the rounding of the plane distance and
#: of the edge casts' hits. Not measured: the 1e-9 of RIM_TOLERANCE, far above that rounding.
PLANE_CULL_TOLERANCE = 1e-9

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
#: Not measured: chosen as :data:`CAST_TOLERANCE`, the gap a cast stops at.
SWEEP_RIM_TOLERANCE = 1e-9
#: A tile map's cast runs along the motion's unit direction (the motion over its length), so
#: a touch exactly at the motion's end lies at the length times (1 +- a few ulps): the reach
#: grows by this fraction and the fraction is clamped to the end, so that such a touch is a
#: hit at 1 (a box touching a tile's face exactly at the end of its motion was a miss, found
#: by hypothesis against exact brute force). Not measured: four ulps of 2.2e-16, rounded up.
REACH_ROUNDING = 1e-15

#: A gap at most this times the largest coordinate magnitude involved (points, radii, plane
#: offsets) counts as touching: distance 0, and a contact's normal comes from the exact
#: separating axes (edge normals, core perpendiculars) rather than from the direction between
#: two closest points equal to rounding. It absorbs the rounding of a - b and of GJK's simplex
#: solve, which otherwise leaves touching or crossing shapes ~1e-17 (relative) apart. Relative
#: to the coordinates, so the same at every scale. (Was defined, equal, in both
#: ``_kernels/distance.py`` and ``_kernels/contact.py``.) Measured through the GJK kernel (which
#: applies it): 3,000 pairs of turned squares (side 4, coordinates 1e-3 to 1e6) laid face to
#: face, and 3,000 with a corner on a face, all read 0; moved apart by 1e-11 of their
#: coordinates, none reads touching at 1e-12, while 2,974 of the 3,000 face-to-face pairs would
#: at 1e-11. (The rounding side, how far below 1e-12 touching pairs fall, cannot be seen
#: through the kernel; the ~1e-17 above is the size of that rounding.)
TOUCH_TOLERANCE = 1e-12
#: GJK stops when ``|v| - dot(v, w) / |v| <= GJK_TOLERANCE * |v|``: the gap between its upper
#: bound ``|v|`` and lower bound (the support plane's distance) is this fraction of the result.
#: Not measured: chosen between :data:`TOUCH_TOLERANCE` and :data:`CAST_TOLERANCE`, ten
#: times finer than a cast's stopping gap.
GJK_TOLERANCE = 1e-10
#: Two planes whose normals' dot product is within this of -1 (or +1) count as parallel. Not
#: measured: chosen as :data:`TOUCH_TOLERANCE`'s 1e-12.
PLANE_PARALLEL_TOLERANCE = 1e-12
#: A GJK simplex whose doubled area (triangle) or sextupled volume (tetrahedron) is at most
#: this times the product of its edge lengths from its first corner counts as flat
#: (degenerate): GJK skips it and its faces answer instead. Not measured: chosen some fifty
#: ulps above rounding (the normalised area or volume is a sine, good to ~1e-16).
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
#: ~2.2e-16 / s: 2e-4 at 1e-12). Not measured: derived from that error bound.
RAY_PARALLEL_SINE = 1e-12
#: Most conservative-advancement iterations of a translating cast (a loop cap; the cast then
#: reports ``CAST_OUT_OF_ITERATIONS`` with the time reached, never past a contact). Measured
#: (:data:`CAST_TOLERANCE`'s 361 casts): they stop in 2-7 iterations; 64 is nine times that.
CAST_MAX_ITERATIONS = 64
#: Most conservative-advancement iterations of a rotating time of impact by default
#: (``max_iterations`` of :func:`swept.time_of_impact`; a loop cap). Rotation bounds the
#: advance by the farthest point's speed, so a spinning body advances in small steps.
#: Measured: 600 random rotating pairs (polygons, capsules, segments, circles of size 1e-2 to
#: 1e2, turning up to 20 rad a step; 496 hit) take at most 481 iterations (mean 36, 99th
#: percentile 183); none reaches 2,000.
TOI_MAX_ITERATIONS = 2000
#: Most GJK iterations (support points added) before giving up with the best bound so far (a
#: loop cap). Measured: 3,000 random pairs of point clouds (1-12 points, sizes 1e-3 to 1e3)
#: in 2D take at most 6 iterations (mean 2.7), 3,000 in 3D at most 8 (mean 3.0); none nears 64.
GJK_MAX_ITERATIONS = 64
#: Most impacts :func:`swept.advance` responds to in one step by default (``max_bounces``; a
#: loop cap). Not measured: as :data:`MAX_CASTS_PER_STEP`, seed 000's 4.
ADVANCE_MAX_BOUNCES = 4

# --- shapes (swept.shapes): polygon validation

#: Three polygon points count as collinear when the cross product of their two edges is at
#: most this times the product of the edges' lengths (a sine): the middle one is dropped, and
#: a polygon whose points are all collinear is rejected (zero area). Measured: of 20,000
#: middle points put on the line by rounding (coordinates 1e-6 to 1e7, edges 1 to 1e-3 of
#: them), 1e-13 calls 19,034 collinear, 1e-12 19,997 and 1e-11 all (the worst sine is
#: 1.2e-12, from the shortest edges far from the origin); none of 20,000 middles moved off
#: the line by 1e-10 of the edge is called collinear at any of them.
POLYGON_COLLINEAR_TOLERANCE = 1e-12
#: A convex polygon's boundary turns by exactly 2 pi; one that crosses itself turns by 4 pi or
#: more, so a turning above 2 pi plus this (radians, absolute: an angle has no scale) is
#: rejected. Not measured: the sum of n ``atan2`` carries ~n * 1e-16 of rounding, and the gap
#: it guards is 2 pi wide: any value between works.
POLYGON_TURNING_SLACK = 1e-6

# --- oriented boxes and convex hulls (swept.shapes, swept.hull, swept.convex3d)

#: An :class:`~swept.OrientedBox`'s rotation is accepted when its matrix is orthonormal to
#: this (the largest entry of ``R^T R - I``, absolute: a rotation has no scale) with
#: determinant > 0, or its quaternion's norm is within this of 1; it is then made exactly
#: orthonormal (polar decomposition) or normalised. Not measured: a rotation rounded to
#: float32 is off by ~1e-7, so this accepts it with a tenfold margin and rejects any scale or
#: shear of 1e-6 or more.
ROTATION_TOLERANCE = 1e-6
#: A point within ``HULL_TOLERANCE * (extent + magnitude)`` of a hull face's plane is on it (not
#: a corner), where extent is the cloud's bounding-box diagonal and magnitude its largest
#: coordinate; the same band rejects a cloud with no volume and merges coplanar triangles into
#: one face. Not measured: the signed distance of a point to a plane through three cloud points
#: carries ~1e-15 of the coordinates' magnitude of rounding, and this is a thousand times that.
HULL_TOLERANCE = 1e-12
#: The most points :func:`swept.hull.hull3d` and :meth:`swept.Polygon.hull` take (a limit:
#: the builder is numpy-vectorised Python, one pass per corner). Not measured: the size of a
#: detailed prop's cloud, ten times over.
HULL_MAX_POINTS = 100_000
#: In a contact against an oriented box or hull, the first shape's core points whose depth
#: along the normal is within this fraction of the core's extent of the deepest count as one
#: deepest feature (a face or an edge), and the contact point is their middle. Not measured:
#: rounding of a rotated box's corners is ~1e-16 of its extent; any value well above that and
#: well below a visible tilt works.
POLYTOPE_FEATURE_TOLERANCE = 1e-9

# --- vectors (swept.vec)

#: The default ``tol`` of :meth:`Vec2.is_close` and :meth:`Vec3.is_close`: the largest
#: difference, component by component, of two vectors called close. Absolute, unlike the
#: library's tolerances: a convenience for comparing vectors of order one. (:mod:`swept.vec`
#: cannot import this module, which imports it, so the default is written there as a literal
#: too; tests/test_constants.py checks that the two agree.) Not measured: chosen as
#: :data:`CAST_TOLERANCE`, to compare the results of casts at scale 1.
VEC_CLOSE_TOLERANCE = 1e-9

# --- collision response (swept.resolve)

#: Passes of :func:`swept.resolve` by default (``passes``; the module alias
#: ``swept.resolve.DEFAULT_PASSES``; a loop cap): seed 004's number of passes (Walls and
#: Slides makes eight), enough to leave a 20-degree wedge under 0.2 of overlap, as that seed
#: measured. Not measured here beyond the seed.
RESOLVE_PASSES = 8

# --- the World's query filter (swept.world, ``filter=``)

#: A filtered ``World.raycast`` (and a ball's ``World.sweep``) first asks the compiled kernels
#: for the nearest hit, calls the filter on it, and on a rejection asks again with that
#: collider ignored, at most this many times (a loop cap); then it walks the remaining
#: broadphase candidates in Python, in order of box entry. Measured (1,000 rays, 10,000
#: random segments 5 to 50 long in a 1000 x 1000 world, a filter rejecting a random 0 / 50 /
#: 90 / 99% of them; microseconds a ray, one thread, on a shared 2-core machine): the Python
#: walk alone 57 / 56 / 56 / 66; 2 tries 3.3 / 22 / 55 / 75; 4 tries 3.0 / 12 / 56 / 99; 8
#: tries 3.3 / 9.8 / 78 / 145; 16 tries 3.3 / 9.1 / 104 / 206. 4 is 19x faster than the walk
#: when the filter rejects little and at most 1.5x slower when it rejects nearly everything.
FILTER_KERNEL_TRIES = 4

# --- broadphase choice (swept.broadphase): grid or BVH for a scene's ray queries

#: Fewer static colliders than this take the BVH (a few levels deep) without a grid. Not
#: measured here: the World's ``GRID_MIN_COLLIDERS``, kept.
BROADPHASE_GRID_MIN_COLLIDERS = 64
#: The grid's cells are sized for this many colliders a cell on average over the colliders'
#: bounds (``k / 0.125`` cells). Measured (``benchmarks/bench_broadphase.py``, one thread,
#: every scene kind at 1,000 and 10,000 colliders, us a ray): the World's grid at 0.5 / 0.25 /
#: 0.125 / 0.0625 a cell: large boxes 0.35 / 0.32 / 0.29 / 0.28 at 10,000 (the plain grid's
#: best: 0.245), every kind 0.57 / 0.51 / 0.49 / 0.45, walls 0.20 / 0.17 / 0.14 / 0.13 at
#: 1,000, uniform segments 0.085 / 0.095 / 0.098 / 0.105 at 1,000 (the only one slower, and
#: still faster than the plain grid's best, 0.118); the plain grid gains more (factors of
#: 1.3 to 2 from 0.5 to 0.125). 0.125 brings the boxes within 1.2x of the plain grid, with
#: 1.4x to 3x the entries of 0.5; 0.0625 doubles the entries again for 5%.
BROADPHASE_COLLIDERS_PER_CELL = 0.125
#: The occupancy (:class:`swept.broadphase.GridPlan`) is measured on probe cells sized for
#: this many colliders a cell, whatever the grid's own cell, so that its threshold
#: (:data:`BROADPHASE_MAX_OCCUPANCY`) reads the scene alone. Measured with it: see there (the
#: World's ``GRID_COLLIDERS_PER_CELL``, at which the clusters were measured).
BROADPHASE_OCCUPANCY_COLLIDERS_PER_CELL = 0.5
#: The grid's cells are doubled until binning makes at most this many entries a collider on
#: average (a memory bound: the World's grid stores an index, 8 bytes, per entry, and a row
#: of six floats per collider, so at most ~4 KB a collider). Measured (issue 11 item 3: the
#: World's ``cast_range`` on ``benchmarks/scenes.py``'s scenes with this bound patched,
#: beside the plain grid of ``benchmarks/bench_broadphase.py``, one thread, us a ray, one
#: run): 10,000 walls as long as the world make 340 entries a collider at the count-sized
#: cell (3.4 million, 27 MB) and took 1.14 there (entries were then 56 bytes each), against
#: 3.6 at 256's doubled cell (170 a collider) and 1.34 for the plain grid's best; 1,000 such
#: walls (110 a collider) are not coarsened by either bound. The earlier 256 put those walls
#: at 1.6x the plain grid.
BROADPHASE_MAX_ENTRIES_PER_COLLIDER = 512.0
#: Colliders at most this many probe cells across count towards the occupancy (a longer or larger
#: one is in many cells, where a ray stops at it: it is counted by the entries). Measured:
#: chosen so the occupancy does not depend on the collider count: with 1 cell it read 3.9 and
#: 12.6 for the same cluster at 10,000 and 1,000 colliders (its segments span 1 to 3 cells);
#: with 4, 12.7 and 12.6.
BROADPHASE_SMALL_CELLS = 4.0
#: Above this occupancy (the mean number of small colliders sharing a small collider's probe
#: cell) the scene takes the BVH. Measured (one thread, us a ray, the World's grid at
#: :data:`BROADPHASE_COLLIDERS_PER_CELL` against its BVH): clusters of 10,000 tiny segments in
#: a square of side 400 / 300 / 250 / 200 / 100 in a 1000 x 1000 world read occupancy 3.2 /
#: 6.2 / 8.5 / 12.7 / 47.5, grid 0.36 / 0.42 / 0.46 / 0.51 / 0.55, BVH 0.50 / 0.34 / 0.28 /
#: 0.24 / 0.14; at 1,000, occupancy 3.8 / 6.1 / 8.4 / 12.6 / 43: grid 0.17 / 0.19 / 0.19 /
#: 0.21 / 0.22, BVH 0.21 / 0.17 / 0.15 / 0.13 / 0.11. The crossing lies between 3.8 and 6.1;
#: every unclustered scene kind reads 1.0 to 1.6.
BROADPHASE_MAX_OCCUPANCY = 5.0

# --- threads (swept._parallel)

#: Most threads :func:`swept.set_threads` (or ``SWEPT_NUM_THREADS`` / ``NUMBA_NUM_THREADS``)
#: may ask for, the caller included: each is an OS thread, so a runaway count is an error,
#: not a machine brought down. Not measured: chosen well above the cores of any one machine
#: that swept targets (a batch cut for more threads than cores only adds chunks).
MAX_THREADS = 256

# --- the order a batch casts its rays in (swept._kernels.world.spatial_order)

#: A batch of rays (or balls) is cast bucket by bucket of a square grid over its origins,
#: sized for about this many origins a bucket, so that rays cast one after another read the
#: same cells and colliders (from the cache) instead of random ones. Measured (10,000 rays at
#: 10,000 segments, bench_world_rays' scene, the kernel on one thread, CPU time, min of 25 to
#: 30, load 4 to 8): 0.224-0.236 us a ray in the given (random) order, 0.195-0.207 with the
#: rays copied into bucket order, alike from 0.01 to 39 origins a bucket (16 to 1024 buckets
#: a side); cast in place in that order, 0.206-0.223 against 0.232-0.250 in the given order
#: (alternated in one process). 4 keeps the counting sort's counters a quarter of the rays.
RAY_ORDER_PER_BUCKET = 4.0
#: The most buckets along a side of :data:`RAY_ORDER_PER_BUCKET`'s grid (a cap on its
#: counters: at most this squared, 8 bytes each, 8 MB). Not measured: reached at 4 million
#: rays a batch, where 1024 buckets a side were as fast as 64 at 10,000 rays.
RAY_ORDER_MAX_SIDE = 1024
#: From this many rows a batch of rays (or balls) is cast gathered into its order: its rows
#: copied in that order into new arrays (``swept._kernels.world.gather_casts``), cast one
#: after another, and the hits put back in the rows they answer (``scatter_hits``), instead of
#: cast in place in that order (each ray read and its hit written anywhere in the arrays: a
#: cache line a row for each of eight arrays, which pushes the grid's cells and the colliders
#: out of the caches). Measured (World.raycast_many and sweep_many, bench_threads' scene of
#: 10,000 segments, the two ways alternated in one process, CPU time, medians of 15 to 41
#: rounds, load 4-5): 10,000 rays 0.76-0.84x the time on one thread, 0.86-0.89x on two; 10,000
#: balls 0.96-1.0x; 4,096 rays 0.95x, balls 0.94x; 1,024 to 2,048 rows 0.98-1.04x (the copies
#: cost what they save); 256 rays 1.11x. The copies run on the calling thread: 10,000 rows
#: 0.2 ms each way at load 11, where the cast of those rays took about 9 ms of CPU.
RAY_GATHER_MIN_ROWS = 4096
#: ``World.raycast_many`` casts its rays in that order (gathered) only from
#: :data:`RAY_GATHER_MIN_ROWS` rays and this many colliders; any other batch of rays in its own
#: order (balls, not measured so, keep the order at any size). Measured on
#: ``benchmarks/scenes.py``'s eight scene kinds (one thread, the kernel with and without the
#: order alternated in one process, CPU time, medians of 31 to 101 rounds, load 3-6; the
#: order's pass and copies included), the ordered time over the own order's: 10,000 rays
#: gathered at 1,000 colliders 1.02-1.22 (geometric mean 1.14), at 3,000 0.90-1.15 (1.02), at
#: 5,000 0.85-1.05 (0.97, six kinds), at 10,000 0.85-1.16 (0.98; the clusters, whose rays start
#: anywhere, 1.16); below the gather, 100 to 2,000 rays cast in place in that order, 1.00-1.15
#: at 1,000 colliders and 0.98-1.13 at 10,000.
RAY_ORDER_MIN_COLLIDERS = 4096

# --- a Chain in the World (swept.world, swept.chain)

#: The scalar sweeps and contacts against a Chain (and so the character controller over a
#: World holding chains) first cull, with one numpy test over every segment's box, the
#: segments the moving shape's box cannot reach, for chains of at least this many segments.
#: Measured (a ball over a flat floor chain, ms a query, sweep / contact, shared 2-core
#: machine): 8 segments 0.017 / 0.005 culled against 0.017 / 0.018 looped; 16: 0.017 / 0.006
#: against 0.030 / 0.031; 1,000: 0.022 / 0.008 against 1.6 / 1.8; 10,000: 0.050 / 0.023
#: against 16 / 18.
CHAIN_BOXES_MIN_SEGMENTS = 8
#: The same for ``raycast(ray, chain)``, whose per-segment test is cheaper (about 0.2 us):
#: culling pays from about 300 segments. Measured as above (ms a ray): 100 segments 0.040
#: culled against 0.021 looped; 300: 0.054 / 0.057; 1,000: 0.11 / 0.19; 10,000: 0.90 / 2.2.
CHAIN_RAY_BOXES_MIN_SEGMENTS = 512

# --- a TileMap's pair queries (swept.level.tile_queries)

#: A tile map's sweeps, contacts and the controller's casts test the outline segments within
#: this many times the casts' own touching tolerances (:data:`SWEEP_RIM_TOLERANCE` of the
#: query's size plus :data:`CAST_ROUNDING` of its coordinates) of the query's swept box, and
#: cut each segment to that reach: a cast's rim tolerance is relative to the grown target's
#: size, which a cut segment keeps within about twice the query's, so twice would do; four
#: leaves room for the rounding of the cut itself. Not measured: chosen by that bound.
TILE_QUERY_MARGIN_FACTOR = 4.0

# --- the Simulation's step on threads (swept.sim, the simspeed helper)

#: Bodies from which a step runs on threads (more than one thread): the move, the contact
#: passes and the bookkeeping as parallel calls, one per kernel; below it the whole step is one
#: compiled call on the calling thread, as on one thread. Each call from Python costs its
#: dispatch (about 4 us) and a parallel call 5-25 us more than a serial one. Measured on free
#: cores (the bench_sim scene, swept mode, ms a step, one thread against two, two runs each):
#: 1,000 balls 1.03 against 1.10 (threads slower), 10,000 balls 11.8 against 11.1, 40,000
#: balls 56 against 44. Earlier, with other processes on both cores: 1,000 balls 0.376 ms a
#: step in one call against 0.422 ms as parallel calls.
SIM_PARALLEL_MIN = 8192

# --- the Simulation's velocity solver (swept._kernels.solver)

#: Sequential-impulse sweeps over a step's contacts (``Simulation(iterations=)``). Not
#: measured yet beyond benchmarks/bench_settle.py's scenes: pymunk's default, 10.
SOLVER_ITERATIONS = 10
#: A collider within this fraction of a ball's radius of its surface is a contact of the step
#: (a speculative one while apart: the ball may close the gap, not pass it). Not measured:
#: small against a radius, far above rounding, so a ball resting on a floor (gap 0 after the
#: passes, or a rounding error either way) is always one.
CONTACT_MARGIN_FRACTION = 0.01
#: The restitution threshold by default, in steps of gravity: an approach slower than this many
#: times ``|gravity| * step`` does not bounce (Box2D's ``restitutionThreshold``), so a ball
#: that gravity pulls back each step comes to rest; with no gravity every approach bounces.
#: Not measured: two steps of gravity (Box2D's 1 m/s is about six at 10 m/s^2 and 60 Hz).
RESTITUTION_THRESHOLD_STEPS = 2.0
#: Overlap the solver leaves alone, as a fraction of the two radii's sum (a collider counts
#: the ball's radius twice): deeper overlaps are moved apart by split impulses
#: (:data:`POSITION_CORRECTION`). Not measured yet: well under the issue's 1% of the smaller
#: radius.
CONTACT_SLOP_FRACTION = 0.002
#: The share of an overlap beyond the slop that the split impulses move apart each step (the
#: first position pass applies it; Box2D's position solver uses 0.2). Measured on the 500-ball
#: pile of benchmarks/bench_settle.py: 0.2 and 0.8 gave 67 and 204 pairs over 1% after 3,000
#: steps (a chaotic scene: the figures move with any change).
POSITION_CORRECTION = 0.2
#: The solver stops before its ``iterations`` once a sweep changes no relative speed by more
#: than this fraction of the restitution threshold (so never without gravity, where the
#: threshold is 0). Measured: a millionth left a 20-ball column creeping at 8e-5 units/s (each
#: contact stopping a little early, the errors adding up the column); a billionth holds it
#: still (below 1e-6 units/s).
SOLVER_TOLERANCE_FRACTION = 1e-9

# --- the moving colliders in the ray grid (swept._kernels.grid, issue 11 item 3)

#: When the World's static colliders have a ray grid, its moving colliders are binned too, at
#: every sync after they move, into a coarser grid over the same frame (each coarse cell a
#: square of K x K grid cells) sized for this many moving colliders a coarse cell; rays then
#: meet them in the same cell walk instead of walking the moving tree. Measured
#: (``cast_range`` alone on ``benchmarks/scenes.py``'s ``moving`` scene, one thread, us a
#: ray, one run on a loaded machine): 0.125 / 0.25 / 0.5 / 1 / 2 a cell took 0.268 / 0.268 /
#: 0.270 / 0.272 / 0.282 at 1,000 colliders and 0.60 / 0.57 / 0.61 / 0.59 / 0.61 at 10,000:
#: flat, so the middle. Against the moving tree walked by every ray: 0.16 against 0.31 at
#: 1,000, 0.20 against 0.45 at 10,000 (the plain grid 0.13 / 0.15).
MOVING_GRID_COLLIDERS_PER_CELL = 0.5
#: Moving colliders whose boxes leave the grid's frame (at most this many) are tested by every
#: ray in a plain loop; more than this, and the rays walk the moving tree instead (the grid
#: is not used for moving colliders until they are back). Not measured for speed: a small
#: list, a few box tests a ray.
MOVING_GRID_OUTSIDE = 16
#: The grid cells the moving colliders' boxes touch are marked at each sync
#: (:func:`swept._kernels.grid.bin_moving`), so that a ray reads a coarse cell's moving
#: colliders only in a marked cell, unless the marks would exceed this many a moving
#: collider (moving colliders large against the grid's cells): then no cell is marked and a
#: ray reads the coarse cell of every cell it crosses, as before the marks. Measured
#: (``benchmarks/scenes.py``'s ``moving`` scene, 100 / 1,000 moving circles 10 to 40 across;
#: one thread): with marks, 2,000 rays 0.237-0.252 -> 0.206-0.219 us a ray at 1,000
#: colliders (about 14 cells a circle) and 0.295-0.32 -> 0.274-0.28 at 10,000 (about 50 a
#: circle), and the sync's rebin (``refit_moving``) 7.3 -> 11.5 us and 64 -> 214 us: at
#: 10,000 the marks pay only past about 6,000 rays a sync, at 1,000 past about 130. 16
#: keeps the first and turns away the second (the rebin then as before).
MOVING_GRID_MARKS_PER_COLLIDER = 16

# --- the broadphase choice for clusters (swept.broadphase, issue 11 item 3)

#: A clustered scene (occupancy above :data:`BROADPHASE_MAX_OCCUPANCY`) takes a grid sized for
#: this many colliders a cell (coarser than :data:`BROADPHASE_COLLIDERS_PER_CELL`'s) instead
#: of the BVH. Measured (``benchmarks/scenes.py``'s ``clustered``: 99% of the colliders in 1%
#: of the area, occupancy 55 to 66; one thread, us a ray, one run; the cell as a multiple of
#: ``sqrt(area / n)``): at 1,000 colliders the World's grid at 0.35 / 0.7 / 1.0 / 1.4 took
#: 0.286 / 0.233 / 0.221 / 0.260 and its BVH 0.298 (the plain grid's best 0.222); at 10,000,
#: 0.380 / 0.279 / 0.264 / 0.297 against 0.433 (plain 0.261). 1.0 a cell is the 1.0 multiple.
#: Since the grid splits its crowded cells (:data:`GRID_SUB_CROWDED`), coarser cells win:
#: their misses cross fewer cells, and a ray entering the cluster walks a split cell's
#: sub-cells (minimum of 15 alternated runs, load 5.5, us a ray, at 10,000: 1 / 2 / 4 / 8 a
#: cell 0.296 / 0.258 / 0.239 / 0.235, the grid unsplit at 1 a cell 0.400, the BVH 0.485; at
#: 1,000, 0.242 / 0.220 / 0.194 / 0.225 against the BVH's 0.145 to 0.160). 4 a cell, until the
#: grid walk told a segment's miss by one comparison (issue 11, session 28), which made a cell's
#: entries cheaper than its steps: then (the constant patched, one process, each call after an
#: untimed one of its own, fresh ray sets, the order shuffled every round, 61-101 rounds, the
#: median of the rounds' ratios to 4 a cell, a second 4 a cell as the control) 8 / 16 / 32 a
#: cell read 0.98 / 0.94 / - at 10,000 (control 0.99), 0.95 / 0.94 / 0.94 at 5,000 (control
#: 0.97), 0.90 / 0.91 / 0.92 at 20,000 (control 0.99); clusters of 10,000 in squares of side
#: 200 and 300 (occupancy about 14 and 7) 0.98 / 0.99 (control 0.98) and 1.04 / 1.04 (control
#: 1.02). 16 a cell.
BROADPHASE_CLUSTER_COLLIDERS_PER_CELL = 16.0
#: Above this occupancy (nearly every small collider crowding one probe cell) the scene takes
#: the BVH after all: every ray crossing the crowded cell would test all of them. Not measured
#: at the crossing: chosen between the benchmark's cluster (55 to 66, where the coarse grid
#: wins, see :data:`BROADPHASE_CLUSTER_COLLIDERS_PER_CELL`) and 199 tiny boxes in one spot
#: (198).
BROADPHASE_MAX_CLUSTER_OCCUPANCY = 100.0
#: A clustered scene (occupancy above :data:`BROADPHASE_MAX_OCCUPANCY`) of fewer colliders
#: than this takes the BVH instead of the coarser grid: once the batch cast stopped
#: reference-counting the scene's arrays at every node (issue 11, the ray round), the BVH walk
#: became the faster on clusters, by less as the tree deepens. Measured (``cast_range`` through
#: ``raycast_many``, one thread, us a ray, medians of 7 alternated runs, loaded machine;
#: ``benchmarks/scenes.py``'s ``clustered``, occupancy 53 to 63): 1,000 colliders grid 0.306 /
#: BVH 0.159, 2,000 0.313 / 0.183, 3,000 0.337 / 0.221, 5,000 0.369 / 0.268, 10,000 0.337 /
#: 0.328 (another run 0.344 / 0.430); clusters of 10,000 in squares of side 200 and 300
#: (occupancy 14.5, 7.0): 0.636 / 0.480 and 0.353 / 0.412. Chosen between 5,000 and 10,000.
#: With split crowded cells and 4 colliders a cell (:data:`GRID_SUB_CROWDED`,
#: :data:`BROADPHASE_CLUSTER_COLLIDERS_PER_CELL`; minimum of 15 alternated runs, load 5.5):
#: 2,000 grid 0.227 / BVH 0.184 to 0.201, 3,000 0.239 / 0.218 to 0.238, 5,000 0.248 / 0.276
#: to 0.292, 10,000 0.239 / 0.485: chosen between 3,000 and 5,000. Again with the empty-run
#: skip (``raycast_many``, the constant patched, alternated in one process, medians of 101
#: rounds, load 10; the grid's time over the BVH's): 1,000 1.25, 1,500 1.13, 2,000 1.17,
#: 2,500 1.06, 3,000 1.03: kept.
BROADPHASE_CLUSTER_GRID_MIN_COLLIDERS = 4_000
#: A ray grid cell holding at least this many entries (a cluster's cell) is split into a
#: sub-grid (:func:`swept._kernels.grid.subdivide`): a ray entering it walks the few
#: sub-cells it crosses instead of testing every entry. Measured (``benchmarks/scenes.py``,
#: one thread, minimum of 15 alternated runs, load 5.5, us a ray): the clustered scene at
#: 10,000 colliders on its grid of 1 a cell, split 0.297 against unsplit 0.400 (98 cells
#: split; 4 a cell split: 0.239); scenes without clusters split few cells or none (every kind
#: at 10,000: 105 of 80,000, 0.274 against 0.273). The threshold at 8 / 16 / 32 / 64 (same
#: runs, load 7): the cluster at 10,000 0.229 / 0.230 / 0.235 / 0.236, at 5,000 0.234 / 0.232
#: / 0.233 / 0.234, every kind at 10,000 0.233 / 0.232 / 0.233 / 0.257, walls at 1,000 0.400
#: / 0.401 / 0.393 / 0.396: flat (a cluster's cells hold hundreds); 16, a few more entries
#: than a uniform scene's cells hold.
GRID_SUB_CROWDED = 16
#: A crowded cell's sub-grid is sized for this many entries a sub-cell (S x S sub-cells, S
#: the square root of the cell's entries over this, rounded up, at least 2 and at most
#: :data:`GRID_SUB_MAX_SIDE`). Measured (one thread, minimum of 15 alternated runs, load 7,
#: us a ray) at 0.5 / 1 / 2 / 4 / 8 entries a sub-cell: the cluster at 10,000 0.228 / 0.230 /
#: 0.228 / 0.238 / 0.236 (its cells of about 400 entries get 16 / 16 / 15 / 10 / 7 sub-cells
#: a side), at 5,000 0.245 / 0.247 / 0.254 / 0.254 / 0.255: nearly flat; 2.
GRID_SUB_PER_CELL = 2.0
#: The most sub-cells along a side of a crowded cell's sub-grid (a cap on its walk and its
#: memory: a segment crossing the cell is binned into up to 2 S sub-cells). Not measured:
#: the benchmark's cluster at 4 colliders a cell asks for 15.
GRID_SUB_MAX_SIDE = 16
#: Splitting cells stops before it adds more than this many entries a gridded collider (a
#: memory bound: long walls crowd every cell they cross, and their sub-grids would multiply
#: the grid's entries; a cluster's split cells add about 10 a collider). Not measured for
#: speed: a memory bound.
GRID_SUB_GROWTH = 16
# --- the swept command and its scene files (swept.cli, swept.scene)

#: Most fixed steps ``--steps`` takes (``swept demo ... --steps``, ``swept tunneling
#: --steps``): a bound, so a mistyped count is an error rather than a run that never ends.
#: Measured (``swept demo NAME --headless --steps N``, shared 2-core machine): walls-and-slides
#: 10,000 steps in 4.9 s with the second of start-up (about 0.35 ms a step), bullet-time 20,000
#: in 1.1 s (its naive test, about 5 us a step); so the bound is at most about six minutes of
#: one demo (with progress on stderr), and 1,000,000 steps of 1/60 s are 4.6 hours simulated.
CLI_MAX_STEPS = 1_000_000
#: Most window frames ``--frames`` asks for. Not measured: chosen equal to
#: :data:`CLI_MAX_STEPS` (at 60 frames a second, 4.6 hours of window).
CLI_MAX_FRAMES = 1_000_000
#: Most speeds ``swept tunneling`` runs (``--count``, or the items of ``--speeds``). Not
#: measured: each speed is two runs of ``--steps`` steps, and 1,000 points are far more than a
#: curve of catch rate against speed needs.
CLI_MAX_SPEEDS = 1_000
#: Largest scene file ``swept scene`` reads (bytes, 16 MiB), checked before reading: a 1 GB
#: JSON number took 16 s and 3.3 GB of memory to fail and a 1 GB TOML one grew to 23.8 GB
#: (measured, issue 14). Not measured beyond that: a scene of :data:`SCENE_MAX_BODIES` bodies
#: spelled out in full is well under 1 MiB.
SCENE_MAX_FILE_BYTES = 16 * 1024 * 1024
#: Longest number literal a scene file may hold (characters): every number of a scene is at
#: most :data:`MAX_COORDINATE` (1e50) in magnitude, 51 digits written out, so a longer literal
#: is refused before Python converts it (a 5,000-digit integer raised a traceback, issue 14).
#: Not measured: chosen with room for long decimal fractions.
SCENE_MAX_NUMBER_CHARS = 400
#: Most bodies and planes a scene file may hold, all its scenes together: each body is
#: advanced against every other, so the work grows as the square of the count. Measured
#: (``swept scene`` on one scene of a floor and N - 1 balls in a row, the whole command, shared
#: 2-core machine): N = 250 2.7 s, 500 6.8 s, 1,000 24 s (with a progress line a second on
#: stderr); so the cap keeps a scene file under about half a minute.
SCENE_MAX_BODIES = 1_000

# --- sleeping (swept.sim)

#: Seconds a body, and every body touching it, must rest (move slower than the Simulation's
#: ``sleep_speed``) before they sleep. Not measured: Box2D's ``b2_timeToSleep``, half a second.
SLEEP_TIME = 0.5
#: The default ``sleep_speed``, in steps of gravity: a body slower than this many times
#: ``|gravity| * step`` counts as resting. Measured on benchmarks/bench_settle.py's 500-ball
#: pile: at 1 (pymunk's idle speed) the whole pile slept after 138 steps, still falling into
#: place (pairs overlapping up to 38% of a radius were frozen); at 0.1 after 1,386 steps, with
#: the pile settled (worst 7.5%, as the pile without sleeping).
SLEEP_SPEED_STEPS = 0.1

# --- debug drawing (swept._draw, for swept.pygame_util and swept.plot)

#: Segments a full turn of a drawn arc has (a capsule's ends, a swept volume's rounded corners;
#: circles are drawn as circles). Not measured: chosen so that on a 100 px radius the chord
#: strays from the true arc by at most 100 (1 - cos(pi / 48)) = 0.21 px, under a pixel.
DRAW_ARC_SEGMENTS = 48
# --- shapely interop (swept.interop)

#: The default ``resolution`` of :func:`swept.to_shapely`: segments a quarter circle in the
#: polygon that stands for a Circle or a Capsule's round ends (shapely's own ``buffer``
#: default). Measured (shapely 2.2, a unit circle): 65 points, area 0.16% short of pi
#: (``(pi / (2 * 16))**2 / 6`` of it, as the series says); 4 gives 2.6%, 64 gives 0.01%.
SHAPELY_QUAD_SEGMENTS = 16
#: Largest ``resolution`` :func:`swept.to_shapely` accepts, so a typo cannot ask for millions
#: of points. Measured: a circle at 4,096 is 16,385 points, built in 1.7 ms, 2.5e-8 short of
#: the disc's area; chosen with room: no drawing or area needs a finer polygon.
SHAPELY_MAX_QUAD_SEGMENTS = 4096
# --- contact events and sensors (swept.events)

#: Two sides count as touching at the end of a step (a contact of the step, for the contact
#: events) when apart by at most this fraction of the two radii's sum (a collider counts the
#: ball's radius twice), so that a ball resting on a floor, a rounding error either side of
#: touching, is one contact that never flickers (Box2D's contacts begin within its speculative
#: distance, four slops, too). Measured (benchmarks/bench_settle.py's events measure: the
#: 500-ball pile after 2,400 steps, sleeping off, began plus ended events a step over the
#: next 600): 1e-4: 1.19 (876 contacts), 1e-3: 0.63 (968), 1e-2: 0.29 (1,031); the rest are
#: balls still creeping in the pile.
EVENT_TOUCH_FRACTION = 1e-2
#: Colliders a body's swept move logs as touched in one step (the first touches; a ball that
#: bounces clear within the step is found by this log alone). Not measured: a swept move
#: casts at most ``max_casts`` (4 by default) times, each meeting one collider.
TOUCHES_LOGGED_PER_STEP = 8
# --- swept warmup's compile locks (swept._kernels.compile_locks)

#: Seconds a warm-up process sleeps between two tries of a kernel's compile lock that another
#: process holds. Not measured: chosen far below a kernel's compile (0.03 to 10 s of CPU in
#: the tour) and far above the cost of a try (one system call).
COMPILE_LOCK_POLL_SECONDS = 0.05
#: Tries of a taken compile lock before a warm-up process compiles the kernel anyway (two
#: compiles instead of a stall): 12,000 polls of 0.05 s, ten minutes. Not measured: chosen
#: far above the costliest kernel's compile with its callees (about 30 s of CPU).
COMPILE_LOCK_MAX_POLLS = 12_000
# --- compiled calls between kernels (swept._kernels.linking)

#: A kernel whose optimized function has at most this many LLVM instructions is linked into
#: its compiled callers as numba does (LLVM may inline it into a hot loop); a larger one is
#: called through its mapped symbol, optimized and emitted once. Not measured: chosen above
#: LLVM's inlining bound at numba's -O3 (a cost of 250, about 5 an instruction: 50 to 150
#: instructions with its bonuses), so that what LLVM would inline stays linked.
LINKED_CALLEE_MAX_INSTRUCTIONS = 200
# --- integer sorts in kernels (swept._kernels.order)

#: Bits of the key a radix sort pass orders by (``stable_order``: 2**8 counters a pass, as
#: many passes as the largest key's bits need). Not measured: a byte, the usual digit, whose
#: counters stay in the first cache level.
SORT_DIGIT_BITS = 8
