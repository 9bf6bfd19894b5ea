"""Simulation kernels: many moving balls among a World's colliders, one fixed step at a time.

Bodies are circles (2D) or spheres (3D), held as struct-of-arrays with three columns (a 2D
simulation keeps z = 0), packed in one :class:`Bodies` tuple; a step's scratch arrays in one
:class:`Scratch`. The colliders are the World's :class:`~swept._kernels.scene.Scene` and
nothing else: a body's candidates come from the scene's two BVHs (the one box walk,
:func:`swept._kernels.bvh.box_gather`, as :func:`swept._kernels.world.box_candidates` walks
them) and its planes, kept when the collider's layer is in the body's mask; each candidate row
is tested by the scene's own narrowphase (:func:`~swept._kernels.scene.contact_row`) or by
:func:`cast_entering_row`, the swept ball's *entering* cast (only a contact the ball moves
into stops it).

A moving collider (``FLAG_KINEMATIC``; its row holds its pose at the step's end, its motion
over the step and its velocity) is met in relative motion: see :func:`relative_move` and
:func:`start_gap`, and every response answers the collider's velocity (:func:`collider_velocity`).

A step is a few range kernels, ``kernel(first, stop, *args)``, each writing only the rows of
its bodies ``first .. stop-1`` (so :func:`swept._parallel.parallel_for` may split them over
threads with bit-identical results), and one serial loop over body pairs in a fixed order:

1. :func:`advance_range` - gravity (semi-implicit Euler), then the move by each body's mode:
   ``discrete`` moves by ``v dt``; ``swept`` casts the move against the colliders grown by the
   radius and responds at the first entering contact, spending the rest of the step (seed
   000's ``sweptStep``); ``speculative`` clamps the velocity against every collider within the
   step's reach so that the body stops at the surface (seed 002), then bounces there.
2. :func:`find_pairs` - body-body broadphase on a uniform grid (cells sorted by key); the
   step's own lists scan half of each cell's neighbourhood (:func:`forward_range`, a range
   kernel) and write each pair into both rows (:func:`find_pairs_serial`).
3. passes of :func:`listed_pairs_pass` (serial Gauss-Seidel over the pairs in a fixed order:
   exact sharing, no energy gained) and :func:`resolve_range` (apply the pushes, cast for
   swept and speculative bodies, then push out of the colliders, Gauss-Seidel per body), each
   over a work list (:func:`first_work`, :func:`next_work`): the bodies it may change, so
   that a pile's last passes cost its moving part, not every body.
4. :func:`approaches_range` - the seed's Bullet Time bookkeeping.

On one thread a step is one compiled call (:func:`step_serial`); the threaded step runs 1, the
scan of 2, the first pass's :func:`resolve_range` and 4 on the threads (:func:`after_move`).
"""

from __future__ import annotations

import math
from typing import Any, NamedTuple

import numpy as np

from .._fast import batch_entry
from .._parallel import parallel_for, threads
from ..constants import (
    CACHE_MARGIN_FRACTION,
    DEGENERATE_SEGMENT_SQ,
    GRID_MAX_DOUBLINGS,
    MAX_GRID_KEYS,
    PAIR_MARGIN_FRACTION,
    PAIR_PUSH_SLOP,
    PUSH_SLIDES,
    RELATIVE_MOTION_TOLERANCE,
    SEGMENT_CULL_TOLERANCE,
    SLEEP_DEPTH_FRACTION,
    SPECULATIVE_ITERATIONS,
    SPECULATIVE_MARGIN_FRACTION,
    TOUCHES_LOGGED_PER_STEP,
)
from . import callee, inline_kernel, kernel
from .bvh import (
    NO_TREE,
    STACK_SIZE,
    box_gather,
    inverse_direction,
    ray_box_entry3,
)
from .chain import region_normal
from .contact import contact_circle_capsule
from .geom import segment_segment_params
from .order import stable_order
from .ray import HEADING_TOLERANCE, MISS, ray_capsule2_entering, ray_capsule3_entering
from .response import respond_velocity
from .scene import (
    COUNT,
    FIRST,
    FLAG_KINEMATIC,
    FLAG_ONE_WAY,
    FLAGS,
    H_DIM,
    H_MOVING_NODES,
    HI,
    KIND,
    KIND_AABB2,
    KIND_AABB3,
    KIND_CAPSULE2,
    KIND_CAPSULE3,
    KIND_CHAIN_SEGMENT,
    KIND_CIRCLE,
    KIND_PLANE2,
    KIND_PLANE3,
    KIND_POLYGON,
    KIND_SEGMENT,
    KIND_SPHERE,
    LO,
    MOTION,
    VELOCITY,
    Scene,
    closest_row,
    contact_row,
    one_way_stands,
    segment_kind,
)
from .sim_grid import GatherGrid, grid_static_into, planes_and_layers
from .sim_shapes import BODY_BALL, body_gap_row, body_pair_gap, shape_cast_all
from .sweep import ray_rounded_aabb2, ray_rounded_aabb3, ray_rounded_polygon
from .world import moving_tree, static_tree, unowned

__all__ = [
    "MODE_DISCRETE", "MODE_SWEPT", "MODE_SPECULATIVE", "Bodies", "Scratch", "new_scratch",
    "advance_range", "find_pairs", "meeting_pairs", "pair_pass", "pairs_pass", "resolve_range",
    "listed_pairs_pass", "first_work", "next_work",
    "approaches_range",
    "cast_entering_row", "path_reaches_row", "segment_beyond", "segment_off_path", "candidates",
    "find_pairs_serial", "pairs_serial", "forward_range", "pairs_first_pass", "later_passes",
    "after_move_serial", "after_move", "step_range", "StepLists", "new_step_lists",
    "step_serial",
]


#: Mode code of a body that moves then resolves overlaps (the naive test).
MODE_DISCRETE = 0
#: Mode code of a body whose move is cast against the colliders (seed 000's swept step).
MODE_SWEPT = 1
#: Mode code of a body whose velocity is clamped by speculative contacts (seed 002).
MODE_SPECULATIVE = 2

#: Neighbours per body that :func:`find_pairs`'s single scan holds (more: a second scan).
PAIR_TABLE_WIDTH = 16
#: Colliders cached per body for the contact passes and the bookkeeping of one step.
CACHE_CAPACITY = 32
#: A dense cell table is used while the grid has at most this many cells per body (plus
#: :data:`DENSE_GRID_MINIMUM`); sparser grids find each cell's run by binary search.
DENSE_GRID_FACTOR = 8
#: Cells a dense table may always have, however few the bodies.
DENSE_GRID_MINIMUM = 4096
#: The direction two bodies with coincident centres are pushed apart (lower index along +x).
COINCIDENT_X = 1.0


class Bodies(NamedTuple):
    """The bodies, one row each: ``pos, vel`` (n, 3) float64 (z = 0 in 2D), ``radius,
    inv_mass, restitution, friction`` (n,) float64, ``mode, layer, mask`` (n,) int64, the
    counters ``caught, missed`` (n,) int64 and ``asleep`` (n,) bool. A sleeping body is skipped
    by every per-body kernel and has no inverse mass in its pairs (the Simulation packs the
    kernels an ``inv_mass`` with 0 for sleeping bodies), so it stays put until woken.

    ``kind`` (n,) int64 and ``local`` (n, w) float64: each body's shape
    (:mod:`swept._kernels.sim_shapes`: ``BODY_BALL``, or a capsule's or polygon's core as
    offsets from ``pos``; ``radius`` is then the ball around ``pos`` that holds the shape).
    Every narrowphase branches once on the kind: a ball takes the ball kernels here."""

    pos: np.ndarray
    vel: np.ndarray
    radius: np.ndarray
    inv_mass: np.ndarray
    restitution: np.ndarray
    friction: np.ndarray
    mode: np.ndarray
    layer: np.ndarray
    mask: np.ndarray
    caught: np.ndarray
    missed: np.ndarray
    asleep: np.ndarray
    kind: np.ndarray
    local: np.ndarray


class Scratch(NamedTuple):
    """One step's per-body scratch: ``start, moved, dpos`` (n, 3) (the place before the move,
    after it, and a pass's push from other bodies), ``responded, crossed, touching`` (n,) bool
    and the cache of colliders near each body, ``cache`` (n, CACHE_CAPACITY) int64 handles,
    ``cache_count`` (n,) (-1: none) and the box it covers, ``cache_box`` (n, 6) ``lo xyz hi
    xyz``; the log of the colliders each body's swept move hit (:func:`log_hit`): ``hit_count``
    (n,) int64, ``hit_other`` (n, TOUCHES_LOGGED_PER_STEP) int64 (``-1 - h`` for collider h)
    and ``hit_data`` (n, TOUCHES_LOGGED_PER_STEP, 7) float64 (normal xyz, point xyz, approach
    speed), read by :mod:`swept._kernels.events`."""

    start: np.ndarray
    moved: np.ndarray
    dpos: np.ndarray
    responded: np.ndarray
    crossed: np.ndarray
    touching: np.ndarray
    cache: np.ndarray
    cache_count: np.ndarray
    cache_box: np.ndarray
    hit_count: np.ndarray
    hit_other: np.ndarray
    hit_data: np.ndarray


def new_scratch(n: int, width: int = CACHE_CAPACITY) -> Scratch:
    """Scratch arrays for ``n`` bodies (every kernel writes a row before reading it), each
    body's collider cache row ``width`` wide."""
    return Scratch(np.zeros((n, 3)), np.zeros((n, 3)), np.zeros((n, 3)), np.zeros(n, np.bool_),
                   np.zeros(n, np.bool_), np.zeros(n, np.bool_),
                   np.zeros((n, width), np.int64), np.full(n, -1, np.int64),
                   np.zeros((n, 6)), np.zeros(n, np.int64),
                   np.zeros((n, TOUCHES_LOGGED_PER_STEP), np.int64),
                   np.zeros((n, TOUCHES_LOGGED_PER_STEP, 7)))


@inline_kernel
def log_hit(s: Scratch, i: int, other: int, nx: float, ny: float, nz: float, px: float,
            py: float, pz: float, approach: float) -> None:
    """Log that body i touched ``other`` (``-1 - h``: collider h) in this step's move, with the
    normal (out of the other toward the body), the point where they touch and the approach
    speed before the response; the first touch of a pair is kept, and past the log's room
    (:data:`~swept.constants.TOUCHES_LOGGED_PER_STEP`) nothing is (the contact events' check
    at the step's end still finds whatever the body is touching then)."""
    count = s.hit_count[i]
    for k in range(count):
        if s.hit_other[i, k] == other:
            # touched already this step: the first touch stands
            return
    if count >= s.hit_other.shape[1]:
        return
    s.hit_other[i, count] = other
    touch_row(s.hit_data[i], count, nx, ny, nz, px, py, pz, approach)
    s.hit_count[i] = count + 1


@inline_kernel
def touch_row(rows: np.ndarray, c: int, nx: float, ny: float, nz: float, px: float, py: float,
              pz: float, approach: float) -> None:
    """Row c of a touches' data (k, 7): normal xyz, point xyz, approach speed."""
    rows[c, 0] = nx
    rows[c, 1] = ny
    rows[c, 2] = nz
    rows[c, 3] = px
    rows[c, 4] = py
    rows[c, 5] = pz
    rows[c, 6] = approach


# ---------------------------------------------------------------------------------------------
# candidates: the scene's trees and planes


@inline_kernel
def _gather_into(scene: Scene, stack: np.ndarray, query: np.ndarray, mask: int,
                 out: np.ndarray, row: int) -> int:
    """Handles of the colliders in a layer of ``mask`` whose boxes touch ``query`` ((6,) ``lo
    xyz hi xyz``; sharing a face counts), the planes included: the static tree's, the moving
    tree's (each by :func:`~swept._kernels.bvh.box_gather`, so a smaller query lists a
    subsequence of a larger one's), then the planes, written to ``out[row]``; returns how
    many. When more touch the box than ``out.shape[1]`` holds, returns that larger count of
    colliders in any layer (the row is not filtered: gather again into a row that holds
    them). ``stack`` is a (STACK_SIZE,) int64 scratch array."""
    nodes = scene.nodes
    links = scene.links
    tags = scene.tags
    found = box_gather(nodes, links, static_tree(links), moving_tree(links), stack, query,
                       scene.rows, LO, out, row, 0)
    return planes_and_layers(links, tags, mask, out, row, found)


@inline_kernel
def _spare(scene: Scene) -> np.ndarray:
    """A (1, k) buffer that holds every candidate a query of ``scene`` can list (each row of
    the collider table at most once).

    A range kernel allocates it once and gathers into it whenever a body's cache does not
    cover a query: never replaced, never too small. Measured (the bookkeeping kernel, 1,000
    balls, one thread): with a small buffer that a gather replaced when it overflowed (an
    array variable reassigned inside the loop over bodies), 57 us; with this one, 12.6 us."""
    return np.empty((1, scene.rows.shape[0] + 1), np.int64)


@callee
def gather_spare(scene: Scene, stack: np.ndarray, query: np.ndarray, mask: int,
                 spare: np.ndarray) -> int:
    """:func:`_gather_into` row 0 of ``spare`` (:func:`_spare`) as a real call, for the
    events' cache misses (a body's query outside its cached box: rare). One compiled copy
    of the two tree walks instead of one inlined at each of eight sites, each copy typed and
    lowered again with its caller (measured on the compile tour's Simulation: see
    ``benchmarks/README.md``, compile time)."""
    return _gather_into(scene, stack, query, mask, spare, 0)


@inline_kernel
def gather_into(scene: Scene, grid: GatherGrid, stack: np.ndarray, query: np.ndarray,
                mask: int, out: np.ndarray, row: int) -> int:
    """:func:`_gather_into` row ``row`` of ``out``, the static colliders looked up in the
    gather grid when it has cells (:func:`~swept._kernels.sim_grid.grid_static_into`: the same
    list), else found by the static tree's walk; then the moving tree's walk. One inlined
    copy of the box walk and of the planes' end either way, where the grid's path and the
    tree's each inlined their own, in ``gather_row`` and again in ``advance_range``
    (``gather_row``'s fresh compile 7.0-7.2 s of CPU, now 4.5-4.8; load 4)."""
    links = scene.links
    tree = static_tree(links)
    then = moving_tree(links)
    found = 0
    if grid.dims[0] > 0:
        found = grid_static_into(scene, grid, query, out, row)
        # only the moving tree is walked
        tree = then
        then = NO_TREE
    found = box_gather(scene.nodes, links, tree, then, stack, query, scene.rows, LO, out, row,
                       found)
    return planes_and_layers(links, scene.tags, mask, out, row, found)


@kernel
def gather_row(scene: Scene, grid: GatherGrid, stack: np.ndarray, query: np.ndarray, mask: int,
               out: np.ndarray, row: int) -> int:
    """:func:`gather_into` as a compiled call: the move's later gathers, one or two a
    responding body, take no inlined copy of either walk, and the cache misses of the
    passes, the bookkeeping and the solver's contacts (into :func:`_spare`'s row 0) look up
    the gather grid instead of walking the static tree (bench_sim's 10,000 balls: about 60
    misses a step in the solver alone, each a walk of about 2 us)."""
    return gather_into(scene, grid, stack, query, mask, out, row)


@kernel
def candidates(scene: Scene, query: np.ndarray, mask: int) -> np.ndarray:
    """The handles :func:`_gather_into` lists for ``query`` and ``mask`` (for tests)."""
    stack = np.empty(STACK_SIZE, np.int64)
    spare = _spare(scene)
    count = gather_spare(scene, stack, query, mask, spare)
    return spare[0, :count].copy()


@inline_kernel
def _box_around(px: float, py: float, pz: float, reach: float, query: np.ndarray) -> None:
    """The cube of half-side ``reach`` around p, into ``query`` (lo xyz hi xyz)."""
    query[0] = px - reach
    query[1] = py - reach
    query[2] = pz - reach
    query[3] = px + reach
    query[4] = py + reach
    query[5] = pz + reach


@inline_kernel
def _path_box(px: float, py: float, pz: float, mx: float, my: float, mz: float, grow: float,
              query: np.ndarray) -> None:
    """The box of the move from p by m, grown by ``grow``, into ``query`` (lo xyz hi xyz)."""
    query[0] = min(px, px + mx) - grow
    query[1] = min(py, py + my) - grow
    query[2] = min(pz, pz + mz) - grow
    query[3] = max(px, px + mx) + grow
    query[4] = max(py, py + my) + grow
    query[5] = max(pz, pz + mz) + grow


# A body's candidates are read as ``cache[i, c]`` when ``cached`` else ``spare[0, c]``, two
# arrays that are never replaced (:func:`_spare`). A variable holding either array (a row view
# or a buffer) made the loops over them five times slower, and so do inlined helpers that take
# the arrays and loop over them: the hot loops (each body's move and casts, its contacts, the
# path tests) are written out in the range kernels instead. Measured, the bookkeeping kernel,
# 1,000 balls on one thread: 11 us written out, 23 us with its loop over the cache in an
# inlined helper (66 us when the helper also called the path test); the swept move's cast
# loop, advance_range: 106 us written out, 169 us through an inlined helper.


@inline_kernel
def _keep_cache(i: int, query: np.ndarray, count: int, cache_box: np.ndarray,
                cache_count: np.ndarray, cap: int) -> bool:
    """Body i's cache was just gathered for the box ``query``, ``count`` colliders: record
    the box and the count (-1 when more than the cache's ``cap`` held them); returns whether
    the cache holds them."""
    for a in range(6):
        cache_box[i, a] = query[a]
    cached = count <= cap
    cache_count[i] = count if cached else -1
    return cached


@inline_kernel
def _boxes_filter_all(scene: Scene) -> bool:
    """Whether every loop over a body's cache drops, by its own box, each collider whose box
    misses that box: a 2D scene (the loops compare x and y, all a 2D box has) with no collider
    in motion or carrying a velocity (the solver's contacts test those without their box).
    Then a cache gathered for a larger box answers as the smaller box's gather would."""
    if scene.links[H_DIM] != 2:
        return False
    tags = scene.tags
    still = True
    for h in range(tags.shape[0]):
        still = still and (tags[h, FLAGS] & FLAG_KINEMATIC) == 0
    return still


@inline_kernel
def _move_direction(mx: float, my: float, mz: float) -> tuple[float, float, float, float]:
    """A move's length and unit direction (zero for no move)."""
    length = math.sqrt(mx * mx + my * my + mz * mz)
    dx = mx / length if length > 0.0 else 0.0
    dy = my / length if length > 0.0 else 0.0
    dz = mz / length if length > 0.0 else 0.0
    return length, dx, dy, dz


@inline_kernel
def _cached(i: int, query: np.ndarray, cache_count: np.ndarray, cache_box: np.ndarray
            ) -> bool:
    """Whether body i's cache covers the box ``query``."""
    inside = cache_count[i] >= 0
    for a in range(3):
        inside = inside and cache_box[i, a] <= query[a] and query[3 + a] <= cache_box[i, 3 + a]
    return inside


# ---------------------------------------------------------------------------------------------
# the narrowphase on a row


@inline_kernel
def _gap_row(scene: Scene, h: int, px: float, py: float, pz: float, r: float, beyond: float
             ) -> tuple[float, float, float, float]:
    """Gap and unit normal (out of collider h toward the ball) of a ball of radius r at p, by
    the scene's :func:`contact_row` (negative gap: the depth). A gap over ``beyond`` is
    reported as +inf."""
    # apart: the ball's centre is farther than r + beyond from the collider's box (which holds
    # the collider; a plane's is unbounded). Most candidates of a cache end here: the events'
    # touches, the solver's contacts and the speculative gaps read every cached collider.
    # Measured on bench_sim's scene (10,000 balls, one thread, CPU time, two runs each): the
    # events 3.9-4.2 -> 2.6-2.7 ms a step, the solver's contacts 3.3 -> 1.9 ms
    reach = r + beyond
    if _box_beyond(scene.rows, h, px, py, pz, reach):
        return math.inf, 0.0, 0.0, 0.0
    hit, nx, ny, nz, depth, _x, _y, _z = contact_row(scene, h, px, py, pz, reach)
    if not hit:
        return math.inf, 0.0, 0.0, 0.0
    return beyond - depth, nx, ny, nz


@inline_kernel
def _box_beyond(rows: np.ndarray, h: int, px: float, py: float, pz: float, reach: float
                ) -> bool:
    """Whether the point p is farther than ``reach`` from collider h's box."""
    ox = max(rows[h, LO] - px, px - rows[h, HI], 0.0)
    oy = max(rows[h, LO + 1] - py, py - rows[h, HI + 1], 0.0)
    oz = max(rows[h, LO + 2] - pz, pz - rows[h, HI + 2], 0.0)
    return ox * ox + oy * oy + oz * oz > reach * reach


@inline_kernel
def _plain_wall(tags: np.ndarray, h: int) -> bool:
    """Whether collider h is a plain wall (a ``KIND_SEGMENT`` row, not one-way): the common
    row, which :func:`ball_gap` and :func:`ball_entering` answer on the rows alone."""
    return tags[h, KIND] == KIND_SEGMENT and (tags[h, FLAGS] & FLAG_ONE_WAY) == 0


@inline_kernel
def ball_gap(scene: Scene, h: int, px: float, py: float, pz: float, r: float, beyond: float
             ) -> tuple[float, float, float, float]:
    """:func:`gap_row`, a plain wall's (a ``KIND_SEGMENT`` row, not one-way) answered on the
    rows without the call, which passes the whole scene (five arrays, about forty machine
    words, stored to the stack at each call): the same contact, the same bits."""
    if not _plain_wall(scene.tags, h):
        return gap_row(scene, h, px, py, pz, r, beyond)
    rows = scene.rows
    reach = r + beyond
    if _box_beyond(rows, h, px, py, pz, reach):
        return math.inf, 0.0, 0.0, 0.0
    # contact_row's segment: a capsule of radius 0
    hit, nx, ny, depth, _x, _y = contact_circle_capsule(px, py, reach, rows[h, 0], rows[h, 1],
                                                        rows[h, 2], rows[h, 3], 0.0)
    if not hit:
        return math.inf, 0.0, 0.0, 0.0
    return beyond - depth, nx, ny, 0.0


@inline_kernel
def _segment_ends(rows: np.ndarray, tags: np.ndarray, h: int
                  ) -> tuple[bool, float, float, float, float, float, float, float]:
    """Whether collider h is a segment (``KIND_SEGMENT``) of a length over rounding, its
    ends ``a``, ``b``, ``e = b - a`` and ``|e|^2``."""
    if tags[h, KIND] != KIND_SEGMENT:
        return False, 0.0, 0.0, 0.0, 0.0, 0.0, 0.0, 0.0
    ax = rows[h, 0]
    ay = rows[h, 1]
    bx = rows[h, 2]
    by = rows[h, 3]
    ex = bx - ax
    ey = by - ay
    ee = ex * ex + ey * ey
    return ee > DEGENERATE_SEGMENT_SQ, ax, ay, bx, by, ex, ey, ee


@inline_kernel
def segment_beyond(rows: np.ndarray, tags: np.ndarray, h: int, px: float, py: float,
                   reach: float) -> bool:
    """Whether collider h is a segment (``KIND_SEGMENT``) whose distance from the point p is
    over ``reach`` by more than :data:`SEGMENT_CULL_TOLERANCE` of the magnitudes: then a ball
    of centre p touches it only when its radius and margin exceed ``reach``, and a kernel that
    asks :func:`gap_row` with that reach may skip the call (it would report +inf). False for
    any other collider, a degenerate segment, or a non-finite input (the call decides).

    Most of a cache's segments within a ball's box are far from the segment itself (a thin
    wall at an angle has a large box): measured on bench_sim's scene (10,000 balls), the
    events' kernel made 1,386 calls a step, 1,335 of them answering +inf."""
    segment, ax, ay, bx, by, ex, ey, ee = _segment_ends(rows, tags, h)
    if not segment:
        return False
    wx = px - ax
    wy = py - ay
    scale = abs(px) + abs(py) + abs(ax) + abs(ay) + abs(bx) + abs(by) + reach
    m = reach + SEGMENT_CULL_TOLERANCE * scale
    t = wx * ex + wy * ey
    if t <= 0.0:
        d2 = wx * wx + wy * wy
    elif t >= ee:
        fx = px - bx
        fy = py - by
        d2 = fx * fx + fy * fy
    else:
        c = wx * ey - wy * ex
        d2 = c * c / ee
    # (a NaN compares False: not culled)
    return d2 > m * m


@inline_kernel
def segment_off_path(rows: np.ndarray, tags: np.ndarray, h: int, px: float, py: float,
                     qx: float, qy: float, r: float) -> bool:
    """Whether collider h is a segment (``KIND_SEGMENT``) that a ball of radius r (0: a
    centre's path) moving straight from p to q never comes within r of, with the margin of
    :data:`SEGMENT_CULL_TOLERANCE`: the segment's two ends lie on one side of the move's line
    farther than r from it, or the move's two ends on one side of the segment's line farther
    than r. Then the move's cast against it (:func:`entering_row`) misses and the path does
    not reach it (:func:`reaches_row`), and a kernel may skip the call. False for any other
    collider, a degenerate segment, or a non-finite input (the call decides)."""
    segment, ax, ay, bx, by, ex, ey, ee = _segment_ends(rows, tags, h)
    if not segment:
        return False
    scale = (abs(px) + abs(py) + abs(qx) + abs(qy) + abs(ax) + abs(ay) + abs(bx) + abs(by)
             + r)
    m = r + SEGMENT_CULL_TOLERANCE * scale
    # the segment's ends against the move's line (|q - p| times their signed distances)
    ux = qx - px
    uy = qy - py
    sa = (ax - px) * uy - (ay - py) * ux
    sb = (bx - px) * uy - (by - py) * ux
    mm = m * m * (ux * ux + uy * uy)
    if sa * sb > 0.0 and sa * sa > mm and sb * sb > mm:
        return True
    # the move's ends against the segment's line (|b - a| times their signed distances)
    sp = (px - ax) * ey - (py - ay) * ex
    sq = (qx - ax) * ey - (qy - ay) * ex
    mm = m * m * ee
    # (a NaN compares False: not culled)
    return sp * sq > 0.0 and sp * sp > mm and sq * sq > mm


@inline_kernel
def _plane_entering(px: float, py: float, pz: float, dx: float, dy: float, dz: float,
                    nx: float, ny: float, nz: float, offset: float, r: float, length: float
                    ) -> tuple[float, float, float, float]:
    """A ball of radius r moving from p along unit d against the half-space ``n . x <=
    offset``: where it first heads into it within ``length``, ``(t, n)``, t = MISS for none."""
    heading = dx * nx + dy * ny + dz * nz
    if heading >= -HEADING_TOLERANCE:
        # parallel to the plane or leaving it: never enters
        return MISS, 0.0, 0.0, 0.0
    gap = px * nx + py * ny + pz * nz - offset - r
    # solve: gap + t heading = 0; already inside (gap < 0) meets it at once
    t = max(gap, 0.0) / -heading
    if t > length:
        return MISS, 0.0, 0.0, 0.0
    return t, nx, ny, nz


@inline_kernel
def _heading_in(t: float, nx: float, ny: float, nz: float, inside: bool, dx: float, dy: float,
                dz: float) -> tuple[float, float, float, float]:
    """A rounded solid's cast ``(t, n)``, or a miss when it starts touching (or inside) and
    moves along or out of it: the heading test of the capsule kernels, with their
    HEADING_TOLERANCE (a response leaves the velocity along a rim with a few ulps into it,
    and the polygon kernel's exact test stopped a ball sliding on a polygon every step)."""
    if inside and dx * nx + dy * ny + dz * nz >= -HEADING_TOLERANCE:
        return MISS, 0.0, 0.0, 0.0
    return t, nx, ny, nz


@inline_kernel
def cast_entering_row(scene: Scene, h: int, px: float, py: float, pz: float, dx: float,
                      dy: float, dz: float, length: float, r: float
                      ) -> tuple[float, float, float, float]:
    """:func:`cast_entering_shape_row`, a miss where a one-way collider lets the ball pass
    (:func:`~swept._kernels.scene.one_way_stands`)."""
    t, nx, ny, nz = cast_entering_shape_row(scene, h, px, py, pz, dx, dy, dz, length, r)
    if t >= 0.0 and not one_way_stands(scene, h, dx, dy, dz, nx, ny, nz):
        return MISS, 0.0, 0.0, 0.0
    return t, nx, ny, nz


@inline_kernel
def segment_entering(rows: np.ndarray, h: int, px: float, py: float, dx: float, dy: float,
                     length: float, r: float) -> tuple[float, float, float, float]:
    """:func:`cast_entering_shape_row` for a segment (``KIND_SEGMENT``): the segment grown by
    r, a capsule. On the rows alone, so that the move's cast loop calls it without
    :func:`entering_row`'s call, which passes the whole scene (five arrays, about forty
    machine words, stored to the stack at each call)."""
    t, _x, _y, nx, ny, _i = ray_capsule2_entering(px, py, dx, dy, rows[h, 0], rows[h, 1],
                                                  rows[h, 2], rows[h, 3], r, length)
    return t, nx, ny, 0.0


@inline_kernel
def ball_entering(scene: Scene, h: int, px: float, py: float, pz: float, dx: float, dy: float,
                  dz: float, length: float, r: float) -> tuple[float, float, float, float]:
    """:func:`entering_row`, a plain wall's answered by :func:`segment_entering` on the rows
    without the call (the scene copied to the stack: about a tenth of the move's time, by
    perf): the same bits."""
    if _plain_wall(scene.tags, h):
        return segment_entering(scene.rows, h, px, py, dx, dy, length, r)
    return entering_row(scene, h, px, py, pz, dx, dy, dz, length, r)


@inline_kernel
def cast_entering_shape_row(scene: Scene, h: int, px: float, py: float, pz: float, dx: float,
                            dy: float, dz: float, length: float, r: float
                            ) -> tuple[float, float, float, float]:
    """Where a ball of radius r moving from p along unit d first heads into collider h within
    ``length``: ``(t, nx, ny, nz)``, t < 0 for none. Only a contact the ball moves into counts:
    a ball resting on a collider and sliding along it, or leaving it, is not stopped (seed
    000's swept step)."""
    rows = scene.rows
    k = scene.tags[h, KIND]
    p0, p1, p2, p3 = rows[h, 0], rows[h, 1], rows[h, 2], rows[h, 3]
    p4, p5, p6 = rows[h, 4], rows[h, 5], rows[h, 6]
    if k == KIND_SEGMENT:
        return segment_entering(rows, h, px, py, dx, dy, length, r)
    if k == KIND_CHAIN_SEGMENT:
        # a chain's segment grown by r, its normal moved into the segment's Voronoi region
        # (no ghost push back along the floor at a seam)
        t, _x, _y, nx, ny, _i = ray_capsule2_entering(px, py, dx, dy, p0, p1, p2, p3, r, length)
        if t >= 0.0:
            nx, ny, _turned, _vx, _vy = region_normal(
                scene.pool, scene.tags[h, FIRST], scene.tags[h, COUNT], p5 != 0.0, int(p4),
                nx, ny, px, py, True)
        return t, nx, ny, 0.0
    if k == KIND_CIRCLE:
        # a circle grown by r: a capsule of one point
        t, _x, _y, nx, ny, _i = ray_capsule2_entering(px, py, dx, dy, p0, p1, p0, p1, p2 + r,
                                                      length)
        return t, nx, ny, 0.0
    if k == KIND_CAPSULE2:
        t, _x, _y, nx, ny, _i = ray_capsule2_entering(px, py, dx, dy, p0, p1, p2, p3, p4 + r,
                                                      length)
        return t, nx, ny, 0.0
    if k == KIND_AABB2:
        # a solid box grown by r, rounded at its corners
        t, _x, _y, nx, ny, inside = ray_rounded_aabb2(px, py, dx, dy, p0, p1, p2, p3, r,
                                                      length, True)
        return _heading_in(t, nx, ny, 0.0, inside, dx, dy, 0.0)
    if k == KIND_POLYGON:
        # a solid convex polygon grown by r, rounded at its corners
        pool = scene.pool
        s = scene.tags[h, FIRST]
        n = scene.tags[h, COUNT]
        t, _x, _y, nx, ny, inside = ray_rounded_polygon(px, py, dx, dy, pool[s:s + n],
                                                        pool[s + n:s + 2 * n], r, length, True)
        return _heading_in(t, nx, ny, 0.0, inside, dx, dy, 0.0)
    if k == KIND_PLANE2:
        return _plane_entering(px, py, 0.0, dx, dy, 0.0, p0, p1, 0.0, p2, r, length)
    if k == KIND_SPHERE:
        t, _x, _y, _z, nx, ny, nz, _i = ray_capsule3_entering(px, py, pz, dx, dy, dz, p0, p1,
                                                              p2, p0, p1, p2, p3 + r, length)
        return t, nx, ny, nz
    if k == KIND_CAPSULE3:
        t, _x, _y, _z, nx, ny, nz, _i = ray_capsule3_entering(px, py, pz, dx, dy, dz, p0, p1,
                                                              p2, p3, p4, p5, p6 + r, length)
        return t, nx, ny, nz
    if k == KIND_AABB3:
        t, _x, _y, _z, nx, ny, nz, inside = ray_rounded_aabb3(px, py, pz, dx, dy, dz, p0, p1,
                                                              p2, p3, p4, p5, r, length)
        return _heading_in(t, nx, ny, nz, inside, dx, dy, dz)
    if k == KIND_PLANE3:
        return _plane_entering(px, py, pz, dx, dy, dz, p0, p1, p2, p3, r, length)
    # a removed collider
    return MISS, 0.0, 0.0, 0.0


# ---------------------------------------------------------------------------------------------
# moving colliders: during a step a moving collider's row holds its pose at the step's end, and
# it started the step at that pose moved back by its ``MOTION`` (a translation at a constant
# velocity over the step). A ball meets it in relative motion: in the frame of the row, the
# ball's start is moved by the part of the collider's motion still ahead, and its move less
# that part (moving versus moving time of impact, as one cast against a still collider).


@inline_kernel
def collider_velocity(scene: Scene, h: int) -> tuple[float, float, float]:
    """Collider h's velocity (the surface velocity its contacts answer against), zero for a
    still collider."""
    if (scene.tags[h, FLAGS] & FLAG_KINEMATIC) == 0:
        return 0.0, 0.0, 0.0
    rows = scene.rows
    return rows[h, VELOCITY], rows[h, VELOCITY + 1], rows[h, VELOCITY + 2]


@inline_kernel
def relative_move(scene: Scene, h: int, px: float, py: float, pz: float, mx: float, my: float,
                  mz: float, lag: float
                  ) -> tuple[bool, float, float, float, float, float, float, float]:
    """A ball at p moving by m over the rest of the step, in the frame of moving collider h
    (``lag`` of its step's motion still to make): ``(ok, start, unit direction, length)``,
    ``ok`` False when it moves with the collider (to rounding) and so never enters it."""
    rows = scene.rows
    ax = lag * rows[h, MOTION]
    ay = lag * rows[h, MOTION + 1]
    az = lag * rows[h, MOTION + 2]
    # in the row's frame: the start moved by the motion ahead, the move less it
    rx = mx - ax
    ry = my - ay
    rz = mz - az
    length = math.sqrt(rx * rx + ry * ry + rz * rz)
    scale = (abs(mx) + abs(my) + abs(mz) + abs(ax) + abs(ay) + abs(az) + abs(px) + abs(py)
             + abs(pz))
    if length <= RELATIVE_MOTION_TOLERANCE * scale:
        return False, px, py, pz, 0.0, 0.0, 0.0, 0.0
    return True, px + ax, py + ay, pz + az, rx / length, ry / length, rz / length, length


@inline_kernel
def start_gap(scene: Scene, h: int, px: float, py: float, pz: float, r: float, reach: float
              ) -> tuple[float, float, float, float]:
    """:func:`gap_row` of a ball at p against collider h at the step's start: a moving
    collider's row holds its pose at the step's end, so p is moved by the collider's motion
    over the step and ``reach`` grown by that motion's length. ``scene`` owner-less
    (:func:`~swept._kernels.world.unowned`)."""
    if (scene.tags[h, FLAGS] & FLAG_KINEMATIC) == 0:
        return ball_gap(scene, h, px, py, pz, r, reach)
    rows = scene.rows
    ax = rows[h, MOTION]
    ay = rows[h, MOTION + 1]
    az = rows[h, MOTION + 2]
    return gap_row(scene, h, px + ax, py + ay, pz + az, r,
                   reach + math.sqrt(ax * ax + ay * ay + az * az))


@inline_kernel
def path_reaches_moving_row(scene: Scene, h: int, px: float, py: float, pz: float,
                            qx: float, qy: float, qz: float) -> bool:
    """:func:`path_reaches_row` for a centre's path p -> q over a whole step, relative to
    collider h's motion over the step (still colliders: the path itself)."""
    if (scene.tags[h, FLAGS] & FLAG_KINEMATIC) != 0:
        rows = scene.rows
        px += rows[h, MOTION]
        py += rows[h, MOTION + 1]
        pz += rows[h, MOTION + 2]
    return reaches_row(scene, h, px, py, pz, qx, qy, qz)


@kernel
def _orient(ax: float, ay: float, bx: float, by: float, px: float, py: float) -> float:
    """Twice the signed area of triangle a, b, p: > 0 when p is left of a -> b."""
    return (bx - ax) * (py - ay) - (by - ay) * (px - ax)


@callee
def path_crosses(px: float, py: float, pz: float, qx: float, qy: float, qz: float,
                 ax: float, ay: float, az: float, bx: float, by: float, bz: float,
                 cap_r: float) -> bool:
    """Whether the centre's path p -> q reaches a capsule: for a thin 2D wall, whether the
    path crosses or touches the segment (exact signs of areas); otherwise whether the two
    segments' closest points are at most R apart."""
    if cap_r == 0.0 and pz == qz == az == bz:
        # a thin wall in the plane: p and q not strictly on one side of ab, nor a and b of pq
        o1 = _orient(ax, ay, bx, by, px, py)
        o2 = _orient(ax, ay, bx, by, qx, qy)
        o3 = _orient(px, py, qx, qy, ax, ay)
        o4 = _orient(px, py, qx, qy, bx, by)
        if o1 == 0.0 and o2 == 0.0:
            # collinear: the boxes of the two segments overlap
            return (min(px, qx) <= max(ax, bx) and min(ax, bx) <= max(px, qx)
                    and min(py, qy) <= max(ay, by) and min(ay, by) <= max(py, qy))
        return (o1 * o2 <= 0.0) and (o3 * o4 <= 0.0)
    s, t = segment_segment_params(qx - px, qy - py, qz - pz, bx - ax, by - ay, bz - az,
                                  px - ax, py - ay, pz - az)
    dx = px + s * (qx - px) - (ax + t * (bx - ax))
    dy = py + s * (qy - py) - (ay + t * (by - ay))
    dz = pz + s * (qz - pz) - (az + t * (bz - az))
    return dx * dx + dy * dy + dz * dz <= cap_r * cap_r


@callee
def path_enters_box(px: float, py: float, pz: float, qx: float, qy: float, qz: float,
                    lox: float, loy: float, loz: float, hix: float, hiy: float, hiz: float
                    ) -> bool:
    """Whether the centre's path p -> q reaches a solid box (touching counts)."""
    return ray_box_entry3(px, py, pz, inverse_direction(qx - px), inverse_direction(qy - py),
                          inverse_direction(qz - pz), 1.0, lox, loy, loz, hix, hiy,
                          hiz) != math.inf


@callee
def path_enters_polygon(px: float, py: float, qx: float, qy: float, verts: np.ndarray,
                        norms: np.ndarray) -> bool:
    """Whether the centre's path p -> q reaches a solid convex polygon (touching counts): the
    path clipped by each edge's inner half-plane keeps a piece."""
    t0 = 0.0
    t1 = 1.0
    for i in range(verts.shape[0]):
        nx = norms[i, 0]
        ny = norms[i, 1]
        f0 = nx * (px - verts[i, 0]) + ny * (py - verts[i, 1])
        f1 = nx * (qx - verts[i, 0]) + ny * (qy - verts[i, 1])
        if f0 > 0.0 and f1 > 0.0:
            # wholly outside this edge
            return False
        if f0 > 0.0:
            # comes in across this edge's line
            t0 = max(t0, f0 / (f0 - f1))
        elif f1 > 0.0:
            # goes out across it
            t1 = min(t1, f0 / (f0 - f1))
        if t0 > t1:
            return False
    return True


@inline_kernel
def path_reaches_row(scene: Scene, h: int, px: float, py: float, pz: float, qx: float,
                     qy: float, qz: float) -> bool:
    """:func:`path_reaches_shape_row`; a one-way collider is reached only by a path that
    starts on its solid side and moves against it (any other passes it by design)."""
    if (scene.tags[h, FLAGS] & FLAG_ONE_WAY) != 0:
        # the start's side: from the collider's nearest point toward p
        cx, cy, cz = closest_row(scene, h, px, py, pz)
        if not one_way_stands(scene, h, qx - px, qy - py, qz - pz, px - cx, py - cy, pz - cz):
            return False
    return path_reaches_shape_row(scene, h, px, py, pz, qx, qy, qz)


@inline_kernel
def path_reaches_shape_row(scene: Scene, h: int, px: float, py: float, pz: float, qx: float,
                           qy: float, qz: float) -> bool:
    """Whether the straight path p -> q of a ball's centre reaches collider h: crosses or
    touches a thin wall, enters (or touches) a circle, capsule, sphere, box or polygon, or
    goes from a plane's free side into its solid side."""
    rows = scene.rows
    k = scene.tags[h, KIND]
    p0, p1, p2, p3 = rows[h, 0], rows[h, 1], rows[h, 2], rows[h, 3]
    p4, p5, p6 = rows[h, 4], rows[h, 5], rows[h, 6]
    if segment_kind(k):
        # a segment, or one segment of a chain
        return path_crosses(px, py, 0.0, qx, qy, 0.0, p0, p1, 0.0, p2, p3, 0.0, 0.0)
    if k == KIND_CIRCLE:
        return path_crosses(px, py, 0.0, qx, qy, 0.0, p0, p1, 0.0, p0, p1, 0.0, p2)
    if k == KIND_CAPSULE2:
        return path_crosses(px, py, 0.0, qx, qy, 0.0, p0, p1, 0.0, p2, p3, 0.0, p4)
    if k == KIND_AABB2:
        return path_enters_box(px, py, 0.0, qx, qy, 0.0, p0, p1, 0.0, p2, p3, 0.0)
    if k == KIND_POLYGON:
        pool = scene.pool
        s = scene.tags[h, FIRST]
        n = scene.tags[h, COUNT]
        return path_enters_polygon(px, py, qx, qy, pool[s:s + n], pool[s + n:s + 2 * n])
    if k == KIND_PLANE2:
        s0 = px * p0 + py * p1
        s1 = qx * p0 + qy * p1
        # from the free side into the solid side
        return s0 >= p2 > s1
    if k == KIND_SPHERE:
        return path_crosses(px, py, pz, qx, qy, qz, p0, p1, p2, p0, p1, p2, p3)
    if k == KIND_CAPSULE3:
        return path_crosses(px, py, pz, qx, qy, qz, p0, p1, p2, p3, p4, p5, p6)
    if k == KIND_AABB3:
        return path_enters_box(px, py, pz, qx, qy, qz, p0, p1, p2, p3, p4, p5)
    if k == KIND_PLANE3:
        s0 = px * p0 + py * p1 + pz * p2
        s1 = qx * p0 + qy * p1 + qz * p2
        return s0 >= p3 > s1
    return False


# ---------------------------------------------------------------------------------------------
# the row dispatches as compiled calls: each range kernel calls these on owner-less views of
# its scene (world.unowned), so a call reference-counts nothing, and each dispatch
# compiles once instead of once inlined at every site (measured: the Simulation's kernels held
# nine inlined copies, seconds of a cold compile each)


@callee
def gap_row(scene: Scene, h: int, px: float, py: float, pz: float, r: float, beyond: float
            ) -> tuple[float, float, float, float]:
    """:func:`_gap_row` as a compiled call (on an owner-less scene)."""
    return _gap_row(scene, h, px, py, pz, r, beyond)


@callee
def entering_row(scene: Scene, h: int, px: float, py: float, pz: float, dx: float, dy: float,
                 dz: float, length: float, r: float) -> tuple[float, float, float, float]:
    """:func:`cast_entering_row` as a compiled call (on an owner-less scene)."""
    return cast_entering_row(scene, h, px, py, pz, dx, dy, dz, length, r)


@callee
def reaches_row(scene: Scene, h: int, px: float, py: float, pz: float, qx: float, qy: float,
                qz: float) -> bool:
    """:func:`path_reaches_row` as a compiled call (on an owner-less scene)."""
    return path_reaches_row(scene, h, px, py, pz, qx, qy, qz)


# ---------------------------------------------------------------------------------------------
# the move


@inline_kernel
def _cast_all(scene: Scene, ray: tuple[float, float, float, float, float, float],
              length: float, r: float, cache: np.ndarray, spare: np.ndarray, i: int,
              cached: bool, count: int) -> tuple[float, float, float, float, int]:
    """First entering contact of a ball moving from p along unit d (``ray`` = ``(px, py, pz,
    dx, dy, dz)``) for ``length`` among the candidates: ``(distance, normal, handle)``, handle
    -1 for none (ties: the smallest handle, so the order of the candidates does not
    matter)."""
    px, py, pz, dx, dy, dz = ray
    best_t = math.inf
    best_h = -1
    bnx = 0.0
    bny = 0.0
    bnz = 0.0
    boxes = scene.rows
    # the box the ball sweeps
    x0 = min(px, px + dx * length) - r
    x1 = max(px, px + dx * length) + r
    y0 = min(py, py + dy * length) - r
    y1 = max(py, py + dy * length) + r
    tags = scene.tags
    for c in range(count):
        h = cache[i, c] if cached else spare[0, c]
        if (boxes[h, LO] > x1 or boxes[h, LO + 3] < x0 or boxes[h, LO + 1] > y1
                or boxes[h, LO + 4] < y0):
            # the swept box misses the collider's box (a plane's unbounded box never does)
            continue
        if segment_off_path(boxes, tags, h, px, py, px + dx * length, py + dy * length, r):
            # a wall the cast passes clear of
            continue
        t, nx, ny, nz = entering_row(scene, h, px, py, pz, dx, dy, dz, length, r)
        if t < 0.0:
            continue
        if t < best_t or (t == best_t and h < best_h):
            best_t = t
            best_h = h
            bnx = nx
            bny = ny
            bnz = nz
    return best_t, bnx, bny, bnz, best_h


@inline_kernel
def _slide_push(scene: Scene, b: Bodies, i: int, p: tuple[float, float, float],
                m: tuple[float, float, float], cache: np.ndarray, spare: np.ndarray,
                cached: bool, count: int) -> tuple[float, float, float]:
    """The part of the push ``m`` body i at ``p`` can make among the candidates: cast (a
    ball's sweep, or a shape body's convex sweep), and at
    each contact the rest of it slides along the contact's plane, at most
    :data:`PUSH_SLIDES` casts (the candidates cover the whole push's reach, and a slide only
    shortens it). Returns the displacement made."""
    px, py, pz = p
    mx, my, mz = m
    ox = 0.0
    oy = 0.0
    oz = 0.0
    for _ in range(PUSH_SLIDES):
        push = math.sqrt(mx * mx + my * my + mz * mz)
        if push == 0.0:
            break
        if b.kind[i] == BODY_BALL:
            t, nx, ny, nz, h = _cast_all(scene, (px + ox, py + oy, pz + oz, mx / push,
                                                 my / push, mz / push), push, b.radius[i],
                                         cache, spare, i, cached, count)
        else:
            # (a push is made where the colliders end the step: no motion ahead)
            t, nx, ny, nz, h, _qx, _qy = shape_cast_all(
                scene, b.kind, b.local, b.radius, i, px + ox, py + oy, mx / push, my / push,
                push, 0.0, cache, spare, cached, count)
            t *= push
        if h < 0:
            # clear to the end
            return ox + mx, oy + my, oz + mz
        scale = min(t / push, 1.0)
        ox += mx * scale
        oy += my * scale
        oz += mz * scale
        # the rest, less its part into the contact
        rest = 1.0 - scale
        mx *= rest
        my *= rest
        mz *= rest
        into = mx * nx + my * ny + mz * nz
        if into < 0.0:
            mx -= into * nx
            my -= into * ny
            mz -= into * nz
    return ox, oy, oz


@kernel
def advance_range(first: int, stop: int, scene: Scene, b: Bodies, s: Scratch,
                  gravity: np.ndarray, dt: float, max_casts: int, grid: GatherGrid) -> None:
    """Gravity and the move of bodies ``first .. stop-1`` for one step, in place (a range
    kernel): ``start`` gets the positions before it, ``responded`` whether the move met a
    collider (``crossed`` is cleared), ``touching`` whether the first contact pass must
    look for its overlaps (False only for a swept body whose first cast was clear: it ends
    clear of every collider). Each body's colliders near its path and its new place are
    cached for the passes and the bookkeeping (``cache``), gathered through ``grid``
    (:mod:`swept._kernels.sim_grid`) when it has cells."""
    # no reference counts in the loop (world.unowned): the scene's, the bodies' and the
    # scratch's arrays as views without an owner (the arguments keep them alive). Measured
    # on bench_sim's scene (10,000 balls, one thread, CPU, alternated runs): advance_range
    # 5.1 -> 4.6 ms a step, resolve_range 2.4 -> 1.45 ms; the same in the events' and the
    # solver's kernels and the pair pass changed nothing measurable, so they count
    scene = unowned(scene)
    b = unowned(b)
    s = unowned(s)
    grid = unowned(grid)
    stack = np.empty(STACK_SIZE, np.int64)
    # the scratch arrays as owner-less views (world.unowned) for the gathers and the inlined
    # helpers of every body's move, each of which counted them up and down; the owners stay
    # in use in the loop (the cache misses' gather_row), so they live to its end. Measured
    # on bench_sim's scene (10,000 balls, one thread, CPU, alternated in one process, the
    # same bits): 6.97 -> 6.67 ms at a load of 10
    stack_view = unowned(stack)
    start = s.start
    moved = s.moved
    responded = s.responded
    crossed = s.crossed
    touching = s.touching
    cache_count = s.cache_count
    cache_box = s.cache_box
    radius = b.radius
    restitution = b.restitution
    friction = b.friction
    mode = b.mode
    masks = b.mask
    query = np.empty(6)
    query_view = unowned(query)
    spare = _spare(scene)
    # owner-less: the compiled row calls reference-count nothing
    view = unowned(scene)
    pos = b.pos
    vel = b.vel
    cache = s.cache
    rows = scene.rows
    tags = scene.tags
    asleep = b.asleep
    kinds = b.kind
    # whether a responding ball may keep a cache that covers the rest of its move
    flat = _boxes_filter_all(scene)
    # whether a gather is the gather grid's alone (no moving tree): then a bounce's gather is
    # inlined here, not gather_row's call, which stores the scene and the grid (about 110
    # machine words) at each call: by perf, a tenth of the move
    links = scene.links
    grid_only = grid.dims[0] > 0 and links[H_MOVING_NODES] == 0
    for i in range(first, stop):
        start[i, 0] = pos[i, 0]
        start[i, 1] = pos[i, 1]
        start[i, 2] = pos[i, 2]
        responded[i] = False
        s.hit_count[i] = 0
        if asleep[i]:
            # asleep: it stays where it is, clear of the passes and the bookkeeping
            moved[i, 0] = pos[i, 0]
            moved[i, 1] = pos[i, 1]
            moved[i, 2] = pos[i, 2]
            touching[i] = False
            crossed[i] = False
            continue
        # the first contact pass looks for this body's overlaps (unless its cast proves it
        # clear)
        touching[i] = True
        mask = masks[i]
        ball = kinds[i] == BODY_BALL
        # semi-implicit Euler: the velocity first, then the move with the new velocity
        vx = vel[i, 0] + gravity[0] * dt
        vy = vel[i, 1] + gravity[1] * dt
        vz = vel[i, 2] + gravity[2] * dt
        px = pos[i, 0]
        py = pos[i, 1]
        pz = pos[i, 2]
        r = radius[i]
        e = restitution[i]
        f = friction[i]
        # (the speed's root only where it is used: a swept ball's move asks only whether it
        # moves, and the root of a square sum is positive exactly when the sum is)
        speed_sq = vx * vx + vy * vy + vz * vz
        moves = mode[i] != MODE_DISCRETE and speed_sq > 0.0
        grow = r * (1.0 + CACHE_MARGIN_FRACTION)
        # whether the cache covers every cast of the step (``wide``), or only the first
        wide = True
        if moves and not (ball and mode[i] == MODE_SWEPT):
            # every cast stays within speed * dt of the start (a response never speeds up);
            # the box also covers what the passes and the bookkeeping look at afterwards
            _box_around(px, py, pz, math.sqrt(speed_sq) * dt + grow, query_view)
        else:
            # discrete (or at rest): the path to p + v dt and the ball's surroundings there.
            # A swept ball too: most moves meet nothing, and then the path's box (grown by
            # the cache's margin) holds all the step looks at; a ball that responds gathers
            # the box of every cast (below). Measured on bench_sim's scene (1,000 balls, one
            # thread): the gather was two thirds of the move (the path's box holds a few
            # times fewer colliders and tree nodes than the cube round the start)
            wide = not moves
            _path_box(px, py, pz, vx * dt, vy * dt, vz * dt, grow, query_view)
        # cache the colliders in the box (inlined, on the owner-less views: an inlined
        # helper taking owned arrays cost a third of the step, measured; a compiled call,
        # 50 ns a body)
        count = gather_into(scene, grid, stack_view, query_view, mask, cache, i)
        cached = _keep_cache(i, query_view, count, cache_box, cache_count, cache.shape[1])
        if not cached:
            # too many for the cache: gathered again for this move only
            count = gather_row(view, grid, stack, query, mask, spare, 0)
        if mode[i] == MODE_SWEPT:
            # (a ball at rest casts too: a moving collider may come at it)
            remaining = dt
            for _ in range(max_casts):
                mx = vx * remaining
                my = vy * remaining
                mz = vz * remaining
                # the share of the moving colliders' step motion still ahead
                lag = remaining / dt
                # the move's length and direction (-1: not yet found; a ball's cast finds
                # them at its first candidate whose box its swept box touches: most casts
                # have none, and the root and three divisions were a tenth of the move by
                # perf, 2026-12-03)
                length = -1.0
                dx = dy = dz = 0.0
                # the first entering contact among the candidates (written out: see the note
                # above _cached), as a fraction of the move; ties: the smallest handle
                t = math.inf
                h = -1
                nx = ny = nz = 0.0
                # where the touch is: the ball's point toward the collider, by default
                qx = qy = math.nan
                if not ball:
                    # a capsule or polygon: the World's convex sweep (sim_shapes), a moving
                    # collider in relative motion (a body at rest casts too)
                    length, dx, dy, dz = _move_direction(mx, my, mz)
                    t, nx, ny, nz, h, qx, qy = shape_cast_all(
                        view, kinds, b.local, radius, i, px, py, dx, dy, length, lag, cache,
                        spare, cached, count)
                else:
                    # the box the ball sweeps
                    x0 = min(px, px + mx) - r
                    x1 = max(px, px + mx) + r
                    y0 = min(py, py + my) - r
                    y1 = max(py, py + my) + r
                    for c in range(count):
                        k = cache[i, c] if cached else spare[0, c]
                        if (rows[k, LO] > x1 or rows[k, HI] < x0 or rows[k, LO + 1] > y1
                                or rows[k, HI + 1] < y0):
                            # the swept box misses the collider's box (a plane's never does)
                            continue
                        if length < 0.0:
                            length, dx, dy, dz = _move_direction(mx, my, mz)
                        # one inlined copy of the cast (the row dispatch), for still and
                        # moving colliders alike: its start, direction and length here
                        cx = px
                        cy = py
                        cz = pz
                        ux = dx
                        uy = dy
                        uz = dz
                        reach = length
                        if (tags[k, FLAGS] & FLAG_KINEMATIC) != 0:
                            # a moving collider: the ball's move relative to it, as
                            # relative_move makes it
                            ok, cx, cy, cz, ux, uy, uz, reach = relative_move(
                                scene, k, px, py, pz, mx, my, mz, lag)
                            if not ok:
                                continue
                        elif length == 0.0:
                            # at rest: a still collider is never entered
                            continue
                        elif segment_off_path(rows, tags, k, px, py, px + mx, py + my, r):
                            # a still wall the move passes clear of
                            continue
                        tk, nkx, nky, nkz = ball_entering(view, k, cx, cy, cz, ux, uy, uz,
                                                          reach, r)
                        if tk >= 0.0:
                            tk = min(tk / reach, 1.0)
                        if tk >= 0.0 and (tk < t or (tk == t and k < h)):
                            t = tk
                            h = k
                            nx = nkx
                            ny = nky
                            nz = nkz
                if h < 0:
                    # a clear move: spend the rest of the step
                    px += mx
                    py += my
                    pz += mz
                    remaining = 0.0
                    break
                # first contact: move there, respond, and keep the rest of the step's time
                fraction = t
                px += mx * fraction
                py += my * fraction
                pz += mz * fraction
                # the response relative to the collider's velocity (zero for a still one)
                wx, wy, wz = collider_velocity(scene, h)
                # the touch, for the contact events (a ball may bounce clear within the step)
                if qx != qx:
                    # a ball: its point toward the collider
                    qx = px - r * nx
                    qy = py - r * ny
                log_hit(s, i, -1 - h, nx, ny, nz, qx, qy, pz - r * nz,
                        -((vx - wx) * nx + (vy - wy) * ny + (vz - wz) * nz))
                vx, vy, vz = respond_velocity(vx - wx, vy - wy, vz - wz, nx, ny, nz, e, f)
                vx += wx
                vy += wy
                vz += wz
                remaining -= remaining * fraction
                responded[i] = True
                if not wide:
                    # a swept ball that responds: gather the box of the rest of its move
                    # from the contact, along the new velocity (grown by the cache's margin,
                    # as the first path's box), again at each response. Every later cast
                    # tests only the colliders whose boxes touch its own swept box, which
                    # this box holds, and its answer does not depend on their order (ties:
                    # the smallest handle), so the casts are those of a gather of the cube
                    # round the start; the passes and the bookkeeping check that the cache
                    # covers their own queries (it covers the ball's end, grown). Measured on
                    # bench_sim's scene (the 1,420 of 10,000 balls that respond, moved alone
                    # from a snapshot, one thread, CPU, two alternated runs): 1.49 -> 1.35-1.37
                    # ms (the cube held a few times more colliders than the rest's box).
                    # When the cache already covers the rest's box (a 2D scene; e.g. a ball
                    # thrown back off a wall in the second half of its move stays inside the
                    # path's box; not counted), it is kept: its list holds the rest's as a
                    # subsequence in the same order, and every loop over it drops, by its own
                    # box, the colliders the rest's gather would have left out (the same
                    # comparisons), so every answer is the same; gather_row's call, which
                    # copies the scene and the grid to the stack, is spared
                    _path_box(px, py, pz, vx * remaining, vy * remaining, vz * remaining,
                              grow, query_view)
                    if not (flat and cached and _cached(i, query_view, cache_count, cache_box)):
                        if grid_only:
                            # gather_into's grid path with an empty moving tree (its walk
                            # finds nothing), without gather_row's call
                            count = planes_and_layers(
                                links, tags, mask, cache, i,
                                grid_static_into(view, grid, query_view, cache, i))
                        else:
                            count = gather_row(view, grid, stack_view, query_view, mask, cache,
                                               i)
                        cached = _keep_cache(i, query_view, count, cache_box, cache_count,
                                             cache.shape[1])
                        if not cached:
                            count = gather_row(view, grid, stack, query, mask, spare, 0)
            # past the cap of casts the body stays at its last contact
            if moves:
                # a clear first cast proves the whole move clear of every collider: the first
                # contact pass need not look for overlaps of a body no other body pushes
                touching[i] = responded[i]
        elif mode[i] == MODE_SPECULATIVE:
            # (a ball at rest too: a moving collider may come at it)
            reach = math.sqrt(speed_sq) * dt + SPECULATIVE_MARGIN_FRACTION * r
            ux = vx
            uy = vy
            uz = vz
            for _ in range(SPECULATIVE_ITERATIONS):
                clamped = False
                for c in range(count):
                    h = cache[i, c] if cached else spare[0, c]
                    closing = 0.0
                    wx = wy = wz = 0.0
                    if ball:
                        if ((tags[h, FLAGS] & FLAG_KINEMATIC) == 0
                                and segment_beyond(rows, tags, h, px, py, r + reach)):
                            # a still wall out of this step's reach
                            continue
                        # a moving collider: the gap at the step's start
                        gap, nx, ny, nz = start_gap(view, h, px, py, pz, r, reach)
                        if (tags[h, FLAGS] & FLAG_KINEMATIC) != 0:
                            # what the collider's motion closes of the gap (the constraint
                            # is relative)
                            closing = (rows[h, MOTION] * nx + rows[h, MOTION + 1] * ny
                                       + rows[h, MOTION + 2] * nz)
                            wx, wy, wz = collider_velocity(scene, h)
                    else:
                        gap, nx, ny, nz, _qx, _qy = body_gap_row(view, h, kinds, b.local,
                                                                 radius, i, px, py, reach)
                    if gap - closing > reach:
                        # out of this step's reach
                        continue
                    # the constraint: close at most the gap this step (overlap: no closing)
                    allowed = (closing - max(gap, 0.0)) / dt
                    vn = ux * nx + uy * ny + uz * nz
                    if vn < allowed:
                        ux += (allowed - vn) * nx
                        uy += (allowed - vn) * ny
                        uz += (allowed - vn) * nz
                        clamped = True
                        responded[i] = True
                        # the bounce at arrival, from the velocity the body arrived with
                        # (relative to the collider's)
                        vx, vy, vz = respond_velocity(vx - wx, vy - wy, vz - wz, nx, ny, nz,
                                                      e, f)
                        vx += wx
                        vy += wy
                        vz += wz
                if not clamped:
                    break
            px += ux * dt
            py += uy * dt
            pz += uz * dt
        else:
            # discrete (or at rest): move by v dt; the passes resolve what overlaps
            px += vx * dt
            py += vy * dt
            pz += vz * dt
        pos[i, 0] = px
        pos[i, 1] = py
        pos[i, 2] = pz
        vel[i, 0] = vx
        vel[i, 1] = vy
        vel[i, 2] = vz
        moved[i, 0] = px
        moved[i, 1] = py
        moved[i, 2] = pz
        crossed[i] = False


# ---------------------------------------------------------------------------------------------
# the contact passes against the colliders, and the bookkeeping


@kernel
def resolve_range(first: int, stop: int, scene: Scene, b: Bodies, s: Scratch,
                  work: np.ndarray, grid: GatherGrid) -> None:
    """One contact pass for bodies ``work[first .. stop-1]`` (a range kernel over a work
    list: :func:`first_work`, :func:`next_work`; each body once): apply the pass's
    body-body push ``dpos`` (cast first for swept and speculative bodies: never through a
    collider), then push each body out of the colliders it overlaps, one after the other,
    answering its velocity. ``touching`` records which bodies a collider moved or slowed in
    this pass (before the first, :func:`advance_range` sets it): a body that no collider
    changed and that no other body pushes is skipped (the pass would repeat itself exactly).
    A body whose cache does not cover a query gathers through ``grid`` (:func:`gather_row`)."""
    # no reference counts in the loop (world.unowned): the scene's, the bodies' and the
    # scratch's arrays as views without an owner (the arguments keep them alive)
    scene = unowned(scene)
    b = unowned(b)
    s = unowned(s)
    grid = unowned(grid)
    stack = np.empty(STACK_SIZE, np.int64)
    dpos = s.dpos
    responded = s.responded
    crossed = s.crossed
    touching = s.touching
    cache_count = s.cache_count
    cache_box = s.cache_box
    cache = s.cache
    radius = b.radius
    restitution = b.restitution
    friction = b.friction
    mode = b.mode
    masks = b.mask
    rows = scene.rows
    tags = scene.tags
    query = np.empty(6)
    # (the scratch query as an owner-less view for the inlined helpers, which counted it up
    # and down once a body; the owner stays in use in the loop, so it lives to its end)
    query_view = unowned(query)
    spare = _spare(scene)
    # owner-less: the compiled row calls reference-count nothing
    view = unowned(scene)
    pos = b.pos
    vel = b.vel
    asleep = b.asleep
    kinds = b.kind
    for w in range(first, stop):
        i = work[w]
        if asleep[i]:
            # asleep: not pushed (no inverse mass in its pairs), not pushed out
            continue
        mx = dpos[i, 0]
        my = dpos[i, 1]
        mz = dpos[i, 2]
        push = math.sqrt(mx * mx + my * my + mz * mz)
        if push == 0.0 and not touching[i]:
            # unmoved since a pass (or a cast) that found it clear of every collider: still
            # clear
            continue
        px = pos[i, 0]
        py = pos[i, 1]
        pz = pos[i, 2]
        r = radius[i]
        mask = masks[i]
        ball = kinds[i] == BODY_BALL
        if push > 0.0 and mode[i] != MODE_DISCRETE:
            # a body with continuous collision is never pushed through a collider by another
            # body: the push is cast, and slides along the first contact it meets (a ball
            # resting on a floor and pushed sideways and a little down moves sideways; a push
            # stopped dead there left a ball wedged in a corner overlapping its neighbour
            # for good)
            _box_around(px, py, pz, push + r, query_view)
            cached = _cached(i, query_view, cache_count, cache_box)
            count = cache_count[i]
            if not cached:
                count = gather_row(scene, grid, stack, query, mask, spare, 0)
            mx, my, mz = _slide_push(view, b, i, (px, py, pz), (mx, my, mz), cache, spare,
                                     cached, count)
        if push > 0.0 and not crossed[i]:
            # the bookkeeping follows the real path: does this push cross a collider?
            qx = px + mx
            qy = py + my
            qz = pz + mz
            query[0] = min(px, qx)
            query[1] = min(py, qy)
            query[2] = min(pz, qz)
            query[3] = max(px, qx)
            query[4] = max(py, qy)
            query[5] = max(pz, qz)
            cached = _cached(i, query_view, cache_count, cache_box)
            count = cache_count[i]
            if not cached:
                count = gather_row(scene, grid, stack, query, mask, spare, 0)
            for c in range(count):
                h = cache[i, c] if cached else spare[0, c]
                if (rows[h, LO] > query[3] or rows[h, HI] < query[0]
                        or rows[h, LO + 1] > query[4] or rows[h, HI + 1] < query[1]):
                    # the path's box misses the collider's box
                    continue
                if segment_off_path(rows, tags, h, px, py, qx, qy, 0.0):
                    # a wall the push passes clear of
                    continue
                if reaches_row(view, h, px, py, pz, qx, qy, qz):
                    crossed[i] = True
                    break
        px += mx
        py += my
        pz += mz
        # push out of every collider the ball overlaps, one after the other
        _box_around(px, py, pz, r, query_view)
        # (written out: see the note above _cached)
        cached = _cached(i, query_view, cache_count, cache_box)
        count = cache_count[i]
        if not cached:
            count = gather_row(scene, grid, stack, query, mask, spare, 0)
        touching[i] = False
        for c in range(count):
            h = cache[i, c] if cached else spare[0, c]
            if (rows[h, LO] > px + r or rows[h, LO + 3] < px - r
                    or rows[h, LO + 1] > py + r or rows[h, LO + 4] < py - r):
                # the ball's box misses the collider's box
                continue
            if ball:
                if segment_beyond(rows, tags, h, px, py, r):
                    # a wall clear of the ball (the call would answer +inf)
                    continue
                gap, nx, ny, nz = ball_gap(view, h, px, py, pz, r, 0.0)
            else:
                gap, nx, ny, nz, _qx, _qy = body_gap_row(view, h, kinds, b.local, radius, i,
                                                         px, py, 0.0)
            if gap > 0.0:
                # clear of it (touching counts as a contact)
                continue
            qx = px - gap * nx
            qy = py - gap * ny
            qz = pz - gap * nz
            # answered relative to the collider's velocity (zero for a still one)
            wx, wy, wz = collider_velocity(scene, h)
            vx, vy, vz = respond_velocity(vel[i, 0] - wx, vel[i, 1] - wy, vel[i, 2] - wz,
                                          nx, ny, nz, restitution[i], friction[i])
            vx += wx
            vy += wy
            vz += wz
            responded[i] = True
            # the next pass must look again only if this contact changed something: a body
            # left where it was, as it was (resting exactly on its contacts), and not pushed
            # by another body, would repeat this pass bit for bit. At 10,000 balls 600 to
            # 700 bodies were still pushed out in the sixth pass, nearly all by nothing
            if (qx != px or qy != py or qz != pz or vx != vel[i, 0] or vy != vel[i, 1]
                    or vz != vel[i, 2]):
                touching[i] = True
            px = qx
            py = qy
            pz = qz
            vel[i, 0] = vx
            vel[i, 1] = vy
            vel[i, 2] = vz
        pos[i, 0] = px
        pos[i, 1] = py
        pos[i, 2] = pz


@kernel
def approaches_range(first: int, stop: int, scene: Scene, b: Bodies, s: Scratch,
                     grid: GatherGrid) -> None:
    """Bullet Time's bookkeeping for bodies ``first .. stop-1`` (a range kernel): a body that
    responded to a collider caught an approach; one that did not, but whose centre's path
    reached a collider in its mask (crossed a thin wall, entered a solid, or went into a
    plane's solid side), missed one. The path is the move ``start -> moved`` (straight
    when there was no response; relative to a moving collider's motion over the step) and
    the pushes of the passes, which :func:`resolve_range` checked into ``crossed``. Adds to
    ``caught`` / ``missed`` (one per body per step at most)."""
    # no reference counts in the loop (world.unowned): the scene's, the bodies' and the
    # scratch's arrays as views without an owner (the arguments keep them alive)
    scene = unowned(scene)
    b = unowned(b)
    s = unowned(s)
    grid = unowned(grid)
    stack = np.empty(STACK_SIZE, np.int64)
    start = s.start
    moved = s.moved
    responded = s.responded
    crossed = s.crossed
    cache_count = s.cache_count
    cache_box = s.cache_box
    cache = s.cache
    masks = b.mask
    caught = b.caught
    missed = b.missed
    rows = scene.rows
    tags = scene.tags
    query = np.empty(6)
    # (the scratch query as an owner-less view for the inlined helpers, which counted it up
    # and down once a body; the owner stays in use in the loop, so it lives to its end)
    query_view = unowned(query)
    spare = _spare(scene)
    # owner-less: the compiled row calls reference-count nothing
    view = unowned(scene)
    asleep = b.asleep
    for i in range(first, stop):
        if asleep[i]:
            # asleep: did not move
            continue
        if responded[i]:
            caught[i] += 1
            continue
        reached = crossed[i]
        if not reached:
            # the straight path start -> moved, among the cached colliders when they cover it
            px, py, pz = start[i, 0], start[i, 1], start[i, 2]
            qx, qy, qz = moved[i, 0], moved[i, 1], moved[i, 2]
            query[0] = min(px, qx)
            query[1] = min(py, qy)
            query[2] = min(pz, qz)
            query[3] = max(px, qx)
            query[4] = max(py, qy)
            query[5] = max(pz, qz)
            cached = _cached(i, query_view, cache_count, cache_box)
            count = cache_count[i]
            if not cached:
                count = gather_row(scene, grid, stack, query, masks[i], spare, 0)
            for c in range(count):
                h = cache[i, c] if cached else spare[0, c]
                if (rows[h, LO] > query[3] or rows[h, HI] < query[0]
                        or rows[h, LO + 1] > query[4] or rows[h, HI + 1] < query[1]):
                    # the path's box misses the collider's box
                    continue
                if ((tags[h, FLAGS] & FLAG_KINEMATIC) == 0
                        and segment_off_path(rows, tags, h, px, py, qx, qy, 0.0)):
                    # a still wall the path passes clear of
                    continue
                # (relative to a moving collider's motion over the step)
                reached = path_reaches_moving_row(view, h, px, py, pz, qx, qy, qz)
                if reached:
                    break
        if reached:
            missed[i] += 1


# ---------------------------------------------------------------------------------------------
# body pairs


@callee
def _cell_keys(pos: np.ndarray, dim: int, cell: float
               ) -> tuple[np.ndarray, np.ndarray, int, int, float]:
    """Integer cell coordinates (n, 3) and keys (n,) on a grid of ``cell``-sized cells, with
    the key strides; the cell grows until every key fits in :data:`MAX_GRID_KEYS`."""
    n = pos.shape[0]
    lo = np.empty(3)
    hi = np.empty(3)
    for a in range(3):
        lo[a] = pos[:, a].min()
        hi[a] = pos[:, a].max()
    # sparse or far-flung scenes: coarser cells until the key span fits in an int64
    for _ in range(GRID_MAX_DOUBLINGS):
        span = 1.0
        for a in range(dim):
            span *= math.floor((hi[a] - lo[a]) / cell) + 3.0
        if span <= MAX_GRID_KEYS:
            break
        cell *= 2.0
    sx = int(math.floor((hi[0] - lo[0]) / cell)) + 3
    sy = int(math.floor((hi[1] - lo[1]) / cell)) + 3 if dim > 1 else 1
    cells = np.empty((n, 3), np.int64)
    keys = np.empty(n, np.int64)
    for i in range(n):
        # +1: every neighbour of a cell has non-negative coordinates
        cx = int(math.floor((pos[i, 0] - lo[0]) / cell)) + 1
        cy = int(math.floor((pos[i, 1] - lo[1]) / cell)) + 1
        cz = int(math.floor((pos[i, 2] - lo[2]) / cell)) + 1 if dim == 3 else 0
        cells[i, 0] = cx
        cells[i, 1] = cy
        cells[i, 2] = cz
        keys[i] = (cz * sy + cy) * sx + cx
    return cells, keys, sx, sy, cell


@callee
def _lower_bound(sorted_keys: np.ndarray, key: int) -> int:
    """The first index whose key is >= ``key`` (binary search)."""
    lo = 0
    hi = sorted_keys.shape[0]
    while lo < hi:
        mid = (lo + hi) >> 1
        if sorted_keys[mid] < key:
            lo = mid + 1
        else:
            hi = mid
    return lo


@inline_kernel
def _within_reach(pos: np.ndarray, radius: np.ndarray, pix: float, piy: float, piz: float,
                  ri: float, j: int) -> bool:
    """Whether body j is within the pair reach of a body of radius ``ri`` at ``pi``: the
    sum of radii grown by :data:`~swept.constants.PAIR_MARGIN_FRACTION`. Symmetric, bit for
    bit (``a - b`` is exactly ``-(b - a)``, and the sum of radii commutes)."""
    dx = pix - pos[j, 0]
    dy = piy - pos[j, 1]
    dz = piz - pos[j, 2]
    reach = (ri + radius[j]) * (1.0 + PAIR_MARGIN_FRACTION)
    return dx * dx + dy * dy + dz * dz <= reach * reach


@inline_kernel
def _neighbours(i: int, pos: np.ndarray, radius: np.ndarray, cells: np.ndarray,
                sorted_keys: np.ndarray, cell_start: np.ndarray, order: np.ndarray, sx: int,
                sy: int, dim: int, out: np.ndarray, write: bool) -> int:
    """Bodies j != i within the pair reach of body i, scanning the 3^dim cells around its
    cell in key order (a cell's bodies by index); written to ``out`` when ``write``; returns
    how many. ``cell_start`` (one entry per key, plus one) is the dense table of where each
    cell's run starts in ``order``; when it is empty, runs are found by binary search."""
    found = 0
    z_lo = -1 if dim == 3 else 0
    z_hi = 1 if dim == 3 else 0
    dense = cell_start.shape[0] > 0
    pix = pos[i, 0]
    piy = pos[i, 1]
    piz = pos[i, 2]
    ri = radius[i]
    for oz in range(z_lo, z_hi + 1):
        for oy in range(-1, 2):
            # the three cells x-1 .. x+1 of a row have consecutive keys: their runs are one
            # run of ``order``, visited in the same order as cell by cell
            key = ((cells[i, 2] + oz) * sy + cells[i, 1] + oy) * sx + cells[i, 0] - 1
            if dense:
                s = cell_start[key]
                e = cell_start[key + 3]
            else:
                s = _lower_bound(sorted_keys, key)
                e = _lower_bound(sorted_keys, key + 3)
            for q in range(s, e):
                j = order[q]
                # without a branch (a coin toss each): within reach, and not body i itself
                ok = _within_reach(pos, radius, pix, piy, piz, ri, j) & (j != i)
                if write and found < out.shape[0]:
                    # kept only when ok: otherwise the next one overwrites it
                    out[found] = j
                found += ok
    return found


#: The body-pair grid as :func:`find_pairs`'s range kernels take it: ``(cells (n, 3), sorted
#: keys (n,), cell_start (keys + 1, or empty: binary search), order (n,), sx, sy, dim,
#: cell_pos (n, 3), cell_radius (n,))``, the last two the bodies' positions and radii in the
#: cell order (``pos[order]``, ``radius[order]``: the forward scan, :func:`_forward`, reads
#: them one run after another instead of a body's rows scattered across ``pos``).
PairGrid = tuple[np.ndarray, np.ndarray, np.ndarray, np.ndarray, int, int, int, np.ndarray,
                 np.ndarray]


@kernel
def pair_grid(pos: np.ndarray, radius: np.ndarray, dim: int) -> PairGrid:
    """The bodies binned in a uniform grid of cells twice the largest radius (plus the
    margin), sorted by cell key, each cell's bodies by index, with their positions and radii
    copied in that order (n >= 1; :data:`PairGrid`)."""
    n = pos.shape[0]
    cell = 2.0 * radius.max() * (1.0 + PAIR_MARGIN_FRACTION)
    cells, keys, sx, sy, cell = _cell_keys(pos, dim, cell)
    sz = 1
    if dim == 3:
        sz = int(math.floor((pos[:, 2].max() - pos[:, 2].min()) / cell)) + 3
    n_keys = sx * sy * sz
    if n_keys <= DENSE_GRID_FACTOR * n + DENSE_GRID_MINIMUM:
        # few cells for the bodies: a counting sort, stable, so each cell's run is by index
        cell_start = np.zeros(n_keys + 1, np.int64)
        for i in range(n):
            cell_start[keys[i] + 1] += 1
        for k in range(n_keys):
            cell_start[k + 1] += cell_start[k]
        fill = cell_start[:-1].copy()
        order = np.empty(n, np.int64)
        for i in range(n):
            order[fill[keys[i]]] = i
            fill[keys[i]] += 1
    else:
        # a sparse grid: a stable sort of the keys, runs found by binary search
        order = stable_order(keys, n)
        cell_start = np.empty(0, np.int64)
    sorted_keys = keys[order]
    cell_pos = np.empty((n, 3))
    cell_radius = np.empty(n)
    for w in range(n):
        i = order[w]
        cell_pos[w, 0] = pos[i, 0]
        cell_pos[w, 1] = pos[i, 1]
        cell_pos[w, 2] = pos[i, 2]
        cell_radius[w] = radius[i]
    return cells, sorted_keys, cell_start, order, sx, sy, dim, cell_pos, cell_radius


@kernel
def count_neighbours_range(first: int, stop: int, pos: np.ndarray, radius: np.ndarray,
                           grid: PairGrid, table: np.ndarray, counts: np.ndarray) -> None:
    """The neighbours of the bodies ``order[first .. stop-1]`` (a range kernel over the
    grid's cell order: neighbouring bodies one after another, so the cells and bodies each
    scans are near the last one's in memory; measured on bench_sim's scene at 10,000 balls,
    0.63 -> 0.52 ms): how many into ``counts``, the first :data:`PAIR_TABLE_WIDTH` into their
    rows of ``table``."""
    cells, sorted_keys, cell_start, order, sx, sy, dim, _cp, _cr = grid
    for w in range(first, stop):
        i = order[w]
        counts[i] = _neighbours(i, pos, radius, cells, sorted_keys, cell_start, order, sx, sy,
                                dim, table[i], True)


@kernel
def fill_neighbours_range(first: int, stop: int, pos: np.ndarray, radius: np.ndarray,
                          grid: PairGrid, table: np.ndarray, start: np.ndarray,
                          neighbour: np.ndarray) -> None:
    """The neighbour lists of bodies ``first .. stop-1`` (a range kernel), each in increasing
    index order, into their runs ``start[i] .. start[i+1]-1`` of ``neighbour``."""
    cells, sorted_keys, cell_start, order, sx, sy, dim, _cp, _cr = grid
    for i in range(first, stop):
        row = neighbour[start[i]:start[i + 1]]
        count = start[i + 1] - start[i]
        if count <= PAIR_TABLE_WIDTH:
            for c in range(count):
                row[c] = table[i, c]
        else:
            # more than the table held: scan again into the row
            _neighbours(i, pos, radius, cells, sorted_keys, cell_start, order, sx, sy, dim,
                        row, True)
        # insertion sort by index: a row holds a few neighbours (np.sort costs more to call
        # than this takes), each moved at most len(row) places
        for a in range(1, count):
            v = row[a]
            k = a
            for _ in range(a):
                if row[k - 1] <= v:
                    break
                row[k] = row[k - 1]
                k -= 1
            row[k] = v


def find_pairs(pos: np.ndarray, radius: np.ndarray, dim: int) -> tuple[np.ndarray, np.ndarray]:
    """Every body's neighbours within the sum of radii (plus the margin): CSR arrays
    ``(start (n+1,), neighbour (total,))``, each body's list in increasing index order."""
    n = pos.shape[0]
    start = np.zeros(n + 1, np.int64)
    if n == 0:
        return start, np.empty(0, np.int64)
    grid = pair_grid(pos, radius, dim)
    counts = np.zeros(n, np.int64)
    table = np.empty((n, PAIR_TABLE_WIDTH), np.int64)
    parallel_for(count_neighbours_range, n, (pos, radius, grid, table, counts))
    np.cumsum(counts, out=start[1:])
    neighbour = np.empty(int(start[n]), np.int64)
    parallel_for(fill_neighbours_range, n, (pos, radius, grid, table, start, neighbour))
    return start, neighbour


@inline_kernel
def bodies_meet(layer: np.ndarray, mask: np.ndarray, i: int, j: int) -> bool:
    """Whether bodies i and j meet: each one's layer is in the other's mask."""
    return (layer[i] & mask[j]) != 0 and (layer[j] & mask[i]) != 0


@inline_kernel
def pair_normal(dx: float, dy: float, dz: float) -> tuple[float, float, float, float]:
    """The distance between two bodies' centres, ``d = c_i - c_j``, and the unit normal from
    j toward i: ``(dist, nx, ny, nz)``. Coincident centres: the lower index goes along +x, the
    other along -x."""
    dist = math.sqrt(dx * dx + dy * dy + dz * dz)
    if dist > 0.0:
        return dist, dx / dist, dy / dist, dz / dist
    # coincident centres
    return dist, COINCIDENT_X, 0.0, 0.0


@kernel
def meeting_pairs(b: Bodies, first: np.ndarray, neighbour: np.ndarray) -> np.ndarray:
    """The body pairs of the lists (CSR ``first``, ``neighbour``) that meet (each one's layer
    in the other's mask), each once as (i, j), i < j, by i then by j: (k, 2) int64. A step
    lists them once for its passes (:func:`pairs_pass`): a pass over the CSR lists visited
    every body and both halves of every pair (measured, bench_sim's scene at 10,000 balls,
    one thread: six passes 0.70 ms)."""
    n = b.pos.shape[0]
    layer = b.layer
    mask = b.mask
    # one scan into room for every listed neighbour (each pair is listed from both of its
    # bodies, so half of it is used): two scans, one to count, cost 0.21 ms a step at
    # 10,000 balls (bench_sim, one thread)
    out = np.empty((neighbour.shape[0], 2), np.int64)
    k = 0
    for i in range(n):
        for q in range(first[i], first[i + 1]):
            j = neighbour[q]
            # each pair once, from its lower index; one that masks the other out passes
            # through it
            if j > i and (layer[i] & mask[j]) != 0 and (layer[j] & mask[i]) != 0:
                out[k, 0] = i
                out[k, 1] = j
                k += 1
    return out[:k]


@kernel
def pair_pass(b: Bodies, first: np.ndarray, neighbour: np.ndarray, dpos: np.ndarray) -> None:
    """:func:`pairs_pass` over the meeting pairs of the CSR lists (:func:`meeting_pairs`)."""
    pairs_pass(b, meeting_pairs(b, first, neighbour), dpos)


@kernel
def pairs_pass(b: Bodies, pairs: np.ndarray, dpos: np.ndarray) -> None:
    """:func:`listed_pairs_pass` over every pair, none skipped (the reference the work lists
    are tested against)."""
    n = b.pos.shape[0]
    listed_pairs_pass(b, pairs, dpos, 0, np.full(n, -1, np.int64), np.ones(n, np.bool_),
                      np.empty(0, np.int64), 0)


@kernel
def listed_pairs_pass(b: Bodies, pairs: np.ndarray, dpos: np.ndarray, k: int,
                      changed: np.ndarray, listed: np.ndarray, work: np.ndarray, count: int
                      ) -> int:
    """Pass ``k`` over body-body contacts, pair by pair in a fixed order (Gauss-Seidel: each
    pair sees the pushes and impulses of the pairs before it): the rows (i, j) of ``pairs``
    (:func:`meeting_pairs`: i < j, by i then by j, each one's layer in the other's mask), in
    order. Pushes accumulate in ``dpos`` (a pair's geometry is read at ``pos + dpos``);
    impulses change ``b.vel`` in place.

    A pair overlapping by ``d`` moves each body by its inverse-mass share of ``d`` along the
    line of centres (equal masses: ``d/2`` each); an approaching pair exchanges the impulse
    ``-(1 + e) v_n / (1/m_a + 1/m_b)`` (``e`` the larger restitution), so momentum is kept
    and no pair gains energy. Friction (the geometric mean) removes that share of the
    relative tangential velocity, shared by mass. Serial, and cheap: a pass costs one visit
    per pair, a small part of the step.

    The work list (:func:`first_work`, :func:`next_work`): ``changed[x]`` is the last pass
    that changed body x (its push, its velocity, or a collider's push-out; -1: none yet). A
    pair neither of whose bodies changed in pass ``k - 1`` nor so far in this one is skipped:
    its bodies stand where they stood in pass ``k - 1`` with no push and the same velocities,
    so it would repeat that pass's evaluation, which changed neither (else one would be
    stamped ``k - 1``). A body this pass pushes, and that is not ``listed``, is appended to
    ``work`` (its first ``count`` entries hold the pass's bodies); returns the new count.
    """
    pos = b.pos
    vel = b.vel
    radius = b.radius
    inv_mass = b.inv_mass
    restitution = b.restitution
    friction = b.friction
    kind = b.kind
    # whether any body is not a ball (a balls-only step never asks a pair's kinds)
    shapes = b.local.shape[1] > 0
    for p in range(pairs.shape[0]):
        i = pairs[p, 0]
        j = pairs[p, 1]
        if changed[i] < k - 1 and changed[j] < k - 1:
            # both unchanged since before the last pass: that pass's evaluation, repeated
            continue
        dx = pos[i, 0] + dpos[i, 0] - pos[j, 0] - dpos[j, 0]
        dy = pos[i, 1] + dpos[i, 1] - pos[j, 1] - dpos[j, 1]
        dz = pos[i, 2] + dpos[i, 2] - pos[j, 2] - dpos[j, 2]
        if not shapes or (kind[i] == BODY_BALL and kind[j] == BODY_BALL):
            dist, nx, ny, nz = pair_normal(dx, dy, dz)
            depth = radius[i] + radius[j] - dist
        else:
            # a capsule or polygon in the pair: the convex contact of the two shapes
            gap, nx, ny, nz, _qx, _qy = body_pair_gap(kind, b.local, radius, i,
                                                      pos[i, 0] + dpos[i, 0],
                                                      pos[i, 1] + dpos[i, 1], j,
                                                      pos[j, 0] + dpos[j, 0],
                                                      pos[j, 1] + dpos[j, 1])
            depth = -gap
        if depth < 0.0:
            # apart: the pair was found within the margin only
            continue
        total = inv_mass[i] + inv_mass[j]
        if total == 0.0:
            # both asleep (immovable): nothing to share
            continue
        slop = PAIR_PUSH_SLOP * (radius[i] + radius[j] + abs(pos[i, 0]) + abs(pos[i, 1])
                                 + abs(pos[i, 2]))
        if depth > slop:
            # overlapping deeper than rounding: each body moves by its share of the depth
            share_i = inv_mass[i] / total
            share_j = inv_mass[j] / total
            dpos[i, 0] += nx * depth * share_i
            dpos[i, 1] += ny * depth * share_i
            dpos[i, 2] += nz * depth * share_i
            dpos[j, 0] -= nx * depth * share_j
            dpos[j, 1] -= ny * depth * share_j
            dpos[j, 2] -= nz * depth * share_j
            changed[i] = k
            changed[j] = k
            if not listed[i]:
                listed[i] = True
                work[count] = i
                count += 1
            if not listed[j]:
                listed[j] = True
                work[count] = j
                count += 1
        rvx = vel[i, 0] - vel[j, 0]
        rvy = vel[i, 1] - vel[j, 1]
        rvz = vel[i, 2] - vel[j, 2]
        vn = rvx * nx + rvy * ny + rvz * nz
        if vn >= 0.0:
            # separating (or resting): no impulse
            continue
        changed[i] = k
        changed[j] = k
        e = max(restitution[i], restitution[j])
        impulse = -(1.0 + e) * vn / total
        mu = math.sqrt(friction[i] * friction[j])
        # the impulse per unit inverse mass: along the normal, and against the sliding
        jx = impulse * nx - mu * (rvx - vn * nx) / total
        jy = impulse * ny - mu * (rvy - vn * ny) / total
        jz = impulse * nz - mu * (rvz - vn * nz) / total
        vel[i, 0] += inv_mass[i] * jx
        vel[i, 1] += inv_mass[i] * jy
        vel[i, 2] += inv_mass[i] * jz
        vel[j, 0] -= inv_mass[j] * jx
        vel[j, 1] -= inv_mass[j] * jy
        vel[j, 2] -= inv_mass[j] * jz
    return count


@kernel
def first_work(b: Bodies, s: Scratch, shift: np.ndarray, changed: np.ndarray,
               listed: np.ndarray, work: np.ndarray) -> int:
    """Before a step's first contact pass: ``dpos`` gets the solver's ``shift`` (zero when it
    is empty), ``changed`` -1 except 0 for a body with a shift, and the work list the bodies
    the first pass must visit: each marked ``touching`` by the move, and each with a shift
    (``listed`` marks them). Returns how many. A body left out would be skipped by
    :func:`resolve_range` (no push, not touching) unless a pair pushes it, which lists it."""
    n = b.pos.shape[0]
    dpos = s.dpos
    touching = s.touching
    shifted = shift.shape[0] > 0
    count = 0
    for i in range(n):
        stir = False
        if shifted:
            dpos[i, 0] = shift[i, 0]
            dpos[i, 1] = shift[i, 1]
            dpos[i, 2] = shift[i, 2]
            stir = shift[i, 0] != 0.0 or shift[i, 1] != 0.0 or shift[i, 2] != 0.0
        else:
            dpos[i, 0] = 0.0
            dpos[i, 1] = 0.0
            dpos[i, 2] = 0.0
        changed[i] = 0 if stir else -1
        listed[i] = stir or touching[i]
        if listed[i]:
            work[count] = i
            count += 1
    return count


@kernel
def next_work(k: int, s: Scratch, changed: np.ndarray, listed: np.ndarray, work: np.ndarray,
              count: int) -> int:
    """After pass ``k`` resolved the ``count`` bodies of ``work``: their pushes are spent
    (``dpos`` zeroed), and those a collider moved or slowed (``touching``) are stamped
    ``changed`` and stay listed for the next pass; the others leave. Returns how many stay."""
    dpos = s.dpos
    touching = s.touching
    kept = 0
    for q in range(count):
        i = work[q]
        dpos[i, 0] = 0.0
        dpos[i, 1] = 0.0
        dpos[i, 2] = 0.0
        if touching[i]:
            changed[i] = k
            work[kept] = i
            kept += 1
        else:
            listed[i] = False
    return kept


# ---------------------------------------------------------------------------------------------
# one whole step on the calling thread


@inline_kernel
def _forward(w: int, pos: np.ndarray, radius: np.ndarray, grid: PairGrid, out: np.ndarray
             ) -> int:
    """The neighbours of body ``order[w]`` in the forward half of its cell's neighbourhood
    (:func:`_neighbours`' test): the bodies after it in its own cell's run, then the cells
    whose keys are larger (in 2D: the next cell along x and the row above; in 3D also the
    layer above). Each pair of neighbours is found once, from the body whose cell key is
    smaller (or that comes first in a shared cell's run): the neighbourhood is symmetric, and
    so is the test (``a - b`` is exactly ``-(b - a)``). The first ``out.shape[0]`` are
    written to ``out``; returns how many."""
    _cells, sorted_keys, cell_start, order, sx, sy, dim, cell_pos, cell_radius = grid
    dense = cell_start.shape[0] > 0
    # body order[w] and its candidates read in the cell order (cell_pos, cell_radius: the
    # same numbers, so the same test), its cell's key from the sorted keys: one run after
    # another, where pos[order[q]] jumped across the bodies' rows (a step's move in between
    # leaves few of them cached)
    pix = cell_pos[w, 0]
    piy = cell_pos[w, 1]
    piz = cell_pos[w, 2]
    ri = cell_radius[w]
    # key((cx, cy, cz)) = (cz * sy + cy) * sx + cx, so the row of cells from (cx - 1, cy + oy,
    # cz + oz) starts at this key
    own = sorted_keys[w]
    found = 0
    z_hi = 1 if dim == 3 else 0
    for oz in range(0, z_hi + 1):
        for oy in range(-1, 2):
            if oz == 0 and oy < 0:
                # rows below: their bodies find this one
                continue
            key = own + (oz * sy + oy) * sx - 1
            e = cell_start[key + 3] if dense else _lower_bound(sorted_keys, key + 3)
            if oz == 0 and oy == 0:
                # the own row: the rest of the own cell's run, then the next cell's
                s = w + 1
            elif dense:
                s = cell_start[key]
            else:
                s = _lower_bound(sorted_keys, key)
            for q in range(s, e):
                j = order[q]
                ok = _within_reach(cell_pos, cell_radius, pix, piy, piz, ri, q)
                if found < out.shape[0]:
                    # kept only when ok: otherwise the next one overwrites it
                    out[found] = j
                found += ok
    return found


@callee
def _count_rest(w: int, pos: np.ndarray, radius: np.ndarray, grid: PairGrid, ahead: int,
                start: np.ndarray) -> None:
    """Count in ``start`` (shifted by one) the forward neighbours of body ``order[w]`` past
    the table's width (:func:`find_pairs_serial`; found again)."""
    row = np.empty(ahead, np.int64)
    _forward(w, pos, radius, grid, row)
    for c in range(PAIR_TABLE_WIDTH, ahead):
        start[row[c] + 1] += 1


@callee
def _fill_rest(w: int, pos: np.ndarray, radius: np.ndarray, grid: PairGrid, ahead: int,
               fill: np.ndarray, neighbour: np.ndarray) -> None:
    """Write both ways the forward neighbours of body ``order[w]`` past the table's width
    (:func:`find_pairs_serial`; found again)."""
    i = grid[3][w]
    row = np.empty(ahead, np.int64)
    _forward(w, pos, radius, grid, row)
    for c in range(PAIR_TABLE_WIDTH, ahead):
        j = row[c]
        neighbour[fill[i]] = j
        fill[i] += 1
        neighbour[fill[j]] = i
        fill[j] += 1


@kernel
def forward_range(first: int, stop: int, pos: np.ndarray, radius: np.ndarray, grid: PairGrid,
                  ahead: np.ndarray, table: np.ndarray) -> None:
    """The forward neighbours (:func:`_forward`) of the bodies ``order[first .. stop-1]`` of
    the grid's cell order (a range kernel): how many into ``ahead[w]``, the first
    :data:`PAIR_TABLE_WIDTH` into ``table[w]``. The scan of :func:`find_pairs_serial`, which
    the threaded step runs on the threads (:func:`pairs_from_forward` lists the pairs)."""
    for w in range(first, stop):
        ahead[w] = _forward(w, pos, radius, grid, table[w])


@callee
def _lists_from_forward(pos: np.ndarray, radius: np.ndarray, grid: PairGrid,
                        ahead: np.ndarray, table: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """The CSR pair lists ``(start, neighbour)`` of :func:`find_pairs` from the forward
    neighbours of every body (:func:`forward_range`): each pair written into both bodies'
    rows, each row then sorted by index."""
    n = pos.shape[0]
    order = grid[3]
    start = np.zeros(n + 1, np.int64)
    # both bodies of each pair count it
    for w in range(n):
        start[order[w] + 1] += ahead[w]
        for c in range(min(ahead[w], PAIR_TABLE_WIDTH)):
            start[table[w, c] + 1] += 1
        if ahead[w] > PAIR_TABLE_WIDTH:
            # more than the table held: the rest (rare)
            _count_rest(w, pos, radius, grid, ahead[w], start)
    for i in range(n):
        start[i + 1] += start[i]
    neighbour = np.empty(start[n], np.int64)
    fill = start[:-1].copy()
    for w in range(n):
        i = order[w]
        for c in range(min(ahead[w], PAIR_TABLE_WIDTH)):
            j = table[w, c]
            neighbour[fill[i]] = j
            fill[i] += 1
            neighbour[fill[j]] = i
            fill[j] += 1
        if ahead[w] > PAIR_TABLE_WIDTH:
            _fill_rest(w, pos, radius, grid, ahead[w], fill, neighbour)
    # each body's row by index: insertion sort (a row holds a few neighbours)
    for i in range(n):
        for a in range(start[i] + 1, start[i + 1]):
            v = neighbour[a]
            k = a
            for _ in range(a - start[i]):
                if neighbour[k - 1] <= v:
                    break
                neighbour[k] = neighbour[k - 1]
                k -= 1
            neighbour[k] = v
    return start, neighbour


@callee
def find_pairs_serial(pos: np.ndarray, radius: np.ndarray, dim: int, lists: StepLists
                      ) -> tuple[np.ndarray, np.ndarray]:
    """:func:`find_pairs` on the calling thread, compiled whole: the same lists, each pair
    found once (:func:`_forward`, half the neighbourhood of each cell) and written into both
    bodies' rows. Measured on bench_sim's scene (10,000 balls after 10 steps, 4,624 listed
    neighbours, one thread, CPU, medians of 40 calls, three runs): 0.60-0.61 ms, against
    0.92-0.95 for :func:`find_pairs`' full scan (its count pass alone 0.56). The forward
    table in ``lists`` (:class:`StepLists`, of as many bodies)."""
    n = pos.shape[0]
    if n == 0:
        return np.zeros(1, np.int64), np.empty(0, np.int64)
    grid = pair_grid(pos, radius, dim)
    # each body's forward neighbours (in cell order: neighbouring bodies one after another)
    ahead = lists.ahead
    table = lists.table
    forward_range(0, n, pos, radius, grid, ahead, table)
    return _lists_from_forward(pos, radius, grid, ahead, table)


@kernel
def pairs_serial(pos: np.ndarray, radius: np.ndarray, dim: int, lists: StepLists
                 ) -> tuple[np.ndarray, np.ndarray]:
    """:func:`find_pairs_serial` called from Python (for tests: it must list what
    :func:`find_pairs` lists)."""
    return find_pairs_serial(pos, radius, dim, lists)


@callee
def _first_pass(b: Bodies, s: Scratch, shift: np.ndarray, first: np.ndarray,
                neighbour: np.ndarray, passes: int, changed: np.ndarray, listed: np.ndarray,
                work: np.ndarray) -> tuple[np.ndarray, int]:
    """From the pair lists (CSR) to the first contact pass's colliders: the meeting pairs
    (:func:`meeting_pairs`), the first work list (:func:`first_work`) and, when there are
    passes, the first pass over the pairs (:func:`listed_pairs_pass`). Returns the pairs and
    the bodies the first :func:`resolve_range` visits (``work[:count]``)."""
    pairs = meeting_pairs(b, first, neighbour)
    count = first_work(b, s, shift, changed, listed, work)
    if passes > 0:
        count = listed_pairs_pass(b, pairs, s.dpos, 0, changed, listed, work, count)
    return pairs, count


@kernel
def pairs_first_pass(b: Bodies, s: Scratch, shift: np.ndarray, grid: PairGrid,
                     ahead: np.ndarray, table: np.ndarray, passes: int, changed: np.ndarray,
                     listed: np.ndarray, work: np.ndarray
                     ) -> tuple[np.ndarray, np.ndarray, np.ndarray, int]:
    """The threaded step's serial call between the scan of the pair lists
    (:func:`forward_range`, on the threads) and the first :func:`resolve_range` (on the
    threads): the lists (:func:`_lists_from_forward`), then :func:`_first_pass`. Returns the
    lists (CSR), the meeting pairs and the first pass's work count."""
    first, neighbour = _lists_from_forward(b.pos, b.radius, grid, ahead, table)
    pairs, count = _first_pass(b, s, shift, first, neighbour, passes, changed, listed, work)
    return first, neighbour, pairs, count


@kernel
def later_passes(scene: Scene, b: Bodies, s: Scratch, passes: int, pairs: np.ndarray,
                 changed: np.ndarray, listed: np.ndarray, work: np.ndarray, count: int,
                 grid: GatherGrid) -> None:
    """After the first pass's :func:`resolve_range` over ``work[:count]``: its work list
    carried on (:func:`next_work`), then passes 1 .. ``passes - 1``, each its pair pass, its
    :func:`resolve_range` and its next list. The later passes list a few hundred bodies (at
    10,000 balls in bench_sim's scene: about 600 each after the first pass's 3,700), about
    0.09 ms of work a pass, less than a threaded call's start would take back, so they run
    on the calling thread."""
    count = next_work(0, s, changed, listed, work, count)
    for k in range(1, passes):
        count = listed_pairs_pass(b, pairs, s.dpos, k, changed, listed, work, count)
        resolve_range(0, count, scene, b, s, work, grid)
        count = next_work(k, s, changed, listed, work, count)


@callee
def after_move_serial(scene: Scene, b: Bodies, s: Scratch, passes: int, dim: int,
                      shift: np.ndarray, lists: StepLists, grid: GatherGrid
                      ) -> tuple[np.ndarray, np.ndarray]:
    """Everything of a step after the move (:func:`advance_range`), for every body on the
    calling thread: the pair lists, the passes (:func:`pair_pass` then
    :func:`resolve_range`; the first one also moves each body by its row of ``shift``, the
    velocity solver's overlap shifts, unless ``shift`` is empty) and the bookkeeping
    (:func:`approaches_range`): the kernels :func:`after_move` runs, in its order (so the
    very same bits as any split over threads), in ``lists`` (:class:`StepLists`), the cache
    misses through the gather ``grid``. Returns the pair lists (CSR)."""
    n = b.pos.shape[0]
    first, neighbour = find_pairs_serial(b.pos, b.radius, dim, lists)
    # one pass after another, each over its work list (each body at most once)
    changed = lists.changed
    listed = lists.listed
    work = lists.work
    pairs, count = _first_pass(b, s, shift, first, neighbour, passes, changed, listed, work)
    if passes > 0:
        resolve_range(0, count, scene, b, s, work, grid)
        later_passes(scene, b, s, passes, pairs, changed, listed, work, count, grid)
    approaches_range(0, n, scene, b, s, grid)
    return first, neighbour


#: The key under which :func:`after_move` times its bookkeeping calls
#: (:func:`swept._parallel.parallel_for`).
_STEP_APPROACHES = "sim.after_move.approaches_range"
#: Chunks a thread that the threaded step cuts each of its range kernels into (:func:`step_chunk`).
#: Each chunk is a call from Python that unboxes the scene, the bodies and the scratch (an
#: empty call of the move 9.4 us, of the passes' push-outs and the bookkeeping 7 us, of the
#: solver's contacts 12 us; 10,000 balls, load 3.8), and the default cut gave each kernel
#: 15 to 18 chunks at 10,000 balls: about 0.4 ms of CPU a step in those calls.
STEP_CHUNKS_PER_THREAD = 4


#: The key of the threaded step's range kernels' compiled entry points
#: (:func:`swept._fast.batch_entry`): each chunk calls its kernel's entry point for the step's
#: argument types, not the dispatcher, which resolves the types of the scene, the bodies and
#: the scratch at every call (the move's empty call 7.3 us through the dispatcher against 2.4
#: us through its entry point: 10,000 balls, load 4). One key for all: every argument is the
#: Simulation's own, by construction C-ordered writable arrays of fixed dimensions (the
#: scene's, the bodies' from their rows, the scratch's, the gather grid's, the step's own
#: lists) and the step's numbers, so a kernel sees one set of types.
STEP_ENTRY_KEY = "Simulation.step"


def step_chunk(n: int) -> int:
    """The chunk size of the threaded step's range kernels over ``n`` items:
    :data:`STEP_CHUNKS_PER_THREAD` chunks a thread."""
    return max(1, -(-n // (STEP_CHUNKS_PER_THREAD * threads())))


def step_range(kernel: Any, n: int, args: tuple[Any, ...], key: Any = None) -> None:
    """The threaded step's range kernel ``kernel`` over ``n`` items on the threads
    (:func:`~swept._parallel.parallel_for`, timed under ``key``, by default the kernel), in
    :func:`step_chunk` chunks, each a call of its entry point for ``args``
    (:data:`STEP_ENTRY_KEY`)."""
    parallel_for(batch_entry(kernel, args, STEP_ENTRY_KEY), n, args,
                 key=kernel if key is None else key, chunk=step_chunk(n))


class StepLists(NamedTuple):
    """A step's lists after the move (:func:`after_move`, :func:`after_move_serial`), kept from
    step to step:
    ``ahead`` (n,) int64 and ``table`` (n, :data:`PAIR_TABLE_WIDTH`) int64, each body's forward
    neighbours (:func:`forward_range`); ``changed`` (n,) int64, ``listed`` (n,) bool and
    ``work`` (n,) int64, the passes' work lists (:func:`first_work`). Every entry is written
    before it is read in each step. Kept: made anew at every step (1.5 MB at 10,000 bodies,
    the table 1.3 MB) they were mapped and faulted in again at every step (about 85 page faults
    a step; see ``benchmarks/README.md``, the ``simspeed14`` round)."""

    ahead: np.ndarray
    table: np.ndarray
    changed: np.ndarray
    listed: np.ndarray
    work: np.ndarray


def new_step_lists(n: int) -> StepLists:
    """:class:`StepLists` for ``n`` bodies (uninitialised: every step writes them first)."""
    return StepLists(np.empty(n, np.int64), np.empty((n, PAIR_TABLE_WIDTH), np.int64),
                     np.empty(n, np.int64), np.empty(n, np.bool_), np.empty(n, np.int64))


def after_move(scene: Scene, b: Bodies, s: Scratch, passes: int, dim: int, shift: np.ndarray,
               lists: StepLists, grid: GatherGrid) -> tuple[np.ndarray, np.ndarray]:
    """:func:`after_move_serial` with its per-body parts on the threads
    (:func:`swept._parallel.parallel_for`): the scan of the pair lists
    (:func:`forward_range`), the first pass's :func:`resolve_range` (the later passes list a
    few bodies) and the bookkeeping (:func:`approaches_range`); between them two serial calls
    (:func:`pairs_first_pass`, :func:`later_passes`). What the threaded step runs after its
    move on the threads; the same bits as the one call (every range kernel writes only its
    own rows). ``b`` holds at least one body; ``lists`` (:func:`new_step_lists`) as many;
    ``grid`` the gather grid (:func:`resolve_range`)."""
    n = b.pos.shape[0]
    pos = b.pos
    radius = b.radius
    near = pair_grid(pos, radius, dim)
    ahead, table, changed, listed, work = lists
    step_range(forward_range, n, (pos, radius, near, ahead, table))
    first, neighbour, pairs, count = pairs_first_pass(b, s, shift, near, ahead, table, passes,
                                                      changed, listed, work)
    if passes > 0:
        step_range(resolve_range, count, (scene, b, s, work, grid))
        later_passes(scene, b, s, passes, pairs, changed, listed, work, count, grid)
    # (timed apart from PathCrossings' calls of the same kernel: another scene, other costs)
    step_range(approaches_range, n, (scene, b, s, grid), key=_STEP_APPROACHES)
    return first, neighbour


@kernel
def step_serial(scene: Scene, b: Bodies, s: Scratch, gravity: np.ndarray, dt: float,
                max_casts: int, passes: int, dim: int, shift: np.ndarray, grid: GatherGrid,
                lists: StepLists) -> tuple[np.ndarray, np.ndarray]:
    """One whole step of every body on the calling thread, in one call from Python:
    :func:`advance_range` over all the bodies, then :func:`after_move_serial`.

    One call instead of thirteen: measured on the benchmark's scene (1,000 balls, one thread),
    the kernels took about twice as long called one by one from Python inside a step as
    called again and again on their own (pair_pass 34 us a step against 13 us, the pair lists
    63 us against 37 us): each call from Python costs its dispatch (about 4 us to check and
    unbox the 25 arrays of the scene, bodies and scratch) and finds the caches cold. The step
    took 0.42 ms through the thirteen calls, 0.37 ms through this one (medians of 300
    steps)."""
    advance_range(0, b.pos.shape[0], scene, b, s, gravity, dt, max_casts, grid)
    return after_move_serial(scene, b, s, passes, dim, shift, lists, grid)


@kernel
def settle_range(b: Bodies, first: np.ndarray, other: np.ndarray, sep: np.ndarray, count: int,
                 dt: float, speed: float, sleep_after: float, rest: np.ndarray,
                 island: np.ndarray) -> int:
    """Sleeping, after a step: each awake body's time at rest (``rest``, seconds slower than
    ``speed`` with no contact of ``sep`` (the contacts' separations) deeper than
    :data:`SLEEP_DEPTH_FRACTION` of the smaller radius: an overlap still healing is not
    rest) grows or restarts; the awake bodies joined by the step's body contacts
    (``first``/``other``: the velocity solver's contacts, CSR, ``other`` < 0 a collider) form
    islands (union-find, smallest index the root, into ``island``; a sleeping body keeps the
    island it fell asleep in); an island whose every body
    has rested ``sleep_after`` seconds falls asleep (velocities zeroed). Returns how many fell
    asleep."""
    n = b.pos.shape[0]
    vel = b.vel
    asleep = b.asleep
    for i in range(n):
        if asleep[i]:
            # a sleeping body keeps its island (its root a sleeper of the same island), so
            # that what wakes one of them wakes them all
            continue
        island[i] = i
        v = math.sqrt(vel[i, 0] ** 2 + vel[i, 1] ** 2 + vel[i, 2] ** 2)
        rest[i] = rest[i] + dt if v < speed else 0.0
    # a deep overlap (the solver's split impulses still healing it, with no speed to show
    # for it) restarts both sides' rest: a pile put to sleep while it heals keeps its overlaps
    radius = b.radius
    for i in range(min(n, first.shape[0] - 1)):
        for c in range(first[i], min(first[i + 1], count)):
            j = other[c]
            smaller = min(radius[i], radius[j]) if j >= 0 else radius[i]
            if sep[c] < -SLEEP_DEPTH_FRACTION * smaller:
                rest[i] = 0.0
                if j >= 0:
                    rest[j] = 0.0
    # at least one step at rest, so that sleep_after = 0 never sleeps a moving island
    need = max(sleep_after, dt)
    resting = False
    for i in range(n):
        resting = resting or (not asleep[i] and rest[i] >= need)
    if not resting:
        # no awake body has rested long enough: no island falls asleep, and the islands need
        # not be found (an awake body's island is read by nothing before the next step's
        # call starts it again; a sleeping body's is kept: it joins no union). Measured
        # on bench_sim's scene (10,000 balls, none at rest, one thread):
        # the union, the roots and the sleep test were most of this kernel's time
        return 0
    # union the awake pairs (path halving keeps the trees shallow; each find is capped)
    for i in range(min(n, first.shape[0] - 1)):
        if asleep[i]:
            continue
        for c in range(first[i], first[i + 1]):
            j = other[c]
            if j < 0 or asleep[j]:
                continue
            a = i
            for _ in range(n):
                if island[a] == a:
                    break
                island[a] = island[island[a]]
                a = island[a]
            r = j
            for _ in range(n):
                if island[r] == r:
                    break
                island[r] = island[island[r]]
                r = island[r]
            if a != r:
                island[max(a, r)] = min(a, r)
    # every body's root; an island's least rest
    least = np.full(n, np.inf)
    for i in range(n):
        root = island[i]
        for _ in range(n):
            if island[root] == root:
                break
            root = island[root]
        island[i] = root
        if not asleep[i]:
            least[root] = min(least[root], rest[i])
    fell = 0
    for i in range(n):
        if not asleep[i] and least[island[i]] >= need:
            asleep[i] = True
            vel[i, 0] = 0.0
            vel[i, 1] = 0.0
            vel[i, 2] = 0.0
            fell += 1
    return fell


@kernel
def wake_touched(b: Bodies, first: np.ndarray, neighbour: np.ndarray, speed: float,
                 island: np.ndarray, woken: np.ndarray) -> int:
    """Before a step: the islands of sleeping bodies that an awake body moving at ``speed`` or
    faster touches (within the pair lists' reach) are marked in ``woken`` (by island root);
    returns how many islands."""
    n = b.pos.shape[0]
    vel = b.vel
    asleep = b.asleep
    count = 0
    for i in range(min(n, first.shape[0] - 1)):
        for q in range(first[i], first[i + 1]):
            j = neighbour[q]
            if asleep[i] == asleep[j]:
                continue
            mover = j if asleep[i] else i
            sleeper = i if asleep[i] else j
            v = math.sqrt(vel[mover, 0] ** 2 + vel[mover, 1] ** 2 + vel[mover, 2] ** 2)
            if v >= speed and not woken[island[sleeper]]:
                woken[island[sleeper]] = True
                count += 1
    return count
