"""Simulation kernels: many moving balls among static colliders, one fixed step at a time.

Bodies are circles (2D) or spheres (3D), held as struct-of-arrays with three columns (a 2D
simulation keeps z = 0). Static colliders are capsules ``(a, b, R)`` (a segment is a capsule of
radius 0, a circle or sphere one with ``a == b``) binned by their boxes into a uniform grid
(:func:`build_grid`: the colliders are static, and a body's query looks at a few cells), plus
half-planes / half-spaces tested by brute force (a scene has few).

A step is a sequence of loops over bodies, each a range kernel (``*_range(first, stop, ...)``)
that :func:`swept._parallel.parallel_for` runs in chunks on several threads and that writes
only its own bodies' rows, and one serial loop over body pairs in a fixed order, so the result
does not depend on the thread count or the schedule (no unordered reductions). The loops'
entry points (:func:`advance_bodies`, :func:`find_pairs`, :func:`apply_and_resolve_statics`,
:func:`count_approaches`) are plain Python calling the runner:

1. :func:`advance_bodies` - gravity (semi-implicit Euler), then the move by each body's mode:
   ``discrete`` moves by ``v dt``; ``swept`` casts the move against the colliders grown by the
   radius and responds at the first contact, spending the rest of the step (seed 000's
   ``sweptStep``); ``speculative`` clamps the velocity against every collider within the step's
   reach so that the body stops at the surface (seed 002), then bounces there.
2. :func:`find_pairs` - body-body broadphase on a uniform grid (cells sorted by key).
3. passes of :func:`pair_pass` (serial Gauss-Seidel over the pairs in a fixed order: exact
   sharing, no energy gained) and :func:`apply_and_resolve_statics` (parallel: apply the
   pushes, cast for swept bodies, then push out of the colliders, Gauss-Seidel per body).
4. :func:`count_approaches` - the seed's Bullet Time bookkeeping.

Each geometric test uses the library's single kernels: ``ray_capsule2_entering`` /
``ray_capsule3_entering`` for the casts, ``contact_circle_capsule`` /
``contact_sphere_capsule`` for contacts and ``segment_segment_params`` for paths.
"""

from __future__ import annotations

import math
from collections.abc import Callable
from typing import Any, TypeVar

import numpy as np

from .._parallel import parallel_for
from ..constants import (
    CACHE_MARGIN_FRACTION,
    GRID_MAX_DOUBLINGS,
    GRID_MAX_HALVINGS,
    MAX_GRID_KEYS,
    PAIR_MARGIN_FRACTION,
    PAIR_PUSH_SLOP,
    SPECULATIVE_ITERATIONS,
    SPECULATIVE_MARGIN_FRACTION,
)
from . import inline_kernel, kernel
from .bvh import inverse_direction, ray_box_entry3
from .contact import (
    contact_circle_aabb,
    contact_circle_capsule,
    contact_sphere_aabb,
    contact_sphere_capsule,
)
from .geom import segment_segment_params
from .ray import HEADING_TOLERANCE, ray_capsule2_entering, ray_capsule3_entering
from .response import respond_velocity
from .sweep import ray_rounded_aabb2, ray_rounded_aabb3

__all__ = [
    "MODE_DISCRETE", "MODE_SWEPT", "MODE_SPECULATIVE", "advance_bodies", "find_pairs",
    "pair_pass", "apply_and_resolve_statics", "count_approaches", "build_grid", "advance_range",
    "resolve_range", "count_range", "pair_grid", "count_pairs_range", "fill_pairs_range",
]

F = TypeVar("F", bound=Callable[..., Any])


#: Mode code of a body that moves then resolves overlaps (the naive test).
MODE_DISCRETE = 0
#: Mode code of a body whose move is cast against the colliders (seed 000's swept step).
MODE_SWEPT = 1
#: Mode code of a body whose velocity is clamped by speculative contacts (seed 002).
MODE_SPECULATIVE = 2

#: Cells the static colliders' grid has per collider, about (:func:`build_grid`).
GRID_CELLS_PER_COLLIDER = 4
#: Grid entries (a collider in a cell) per collider, at most: a scene of long colliders (walls
#: across the whole scene) gets coarser cells rather than most colliders in most cells.
GRID_ENTRIES_PER_COLLIDER = 16
#: Candidate colliders one body's box query holds without growing its buffer.
CANDIDATE_CAPACITY = 32
#: Bodies below which a step's body loops (the move, the contact passes, the bookkeeping) run
#: on the calling thread (:func:`swept._parallel.parallel_for`'s ``min_batch``). Measured on
#: the many_balls scene (1,000 swept balls, one thread): the move 0.17-0.29 us a body, the
#: first contact pass 0.06, the bookkeeping 0.17; a parallel call costs 5-25 us more than a
#: serial one (an empty kernel: median 5-10 us, 90th percentile 20-25).
PARALLEL_MIN_BODIES = 256
#: Bodies below which :func:`find_pairs`'s two scans run on the calling thread. Measured: the
#: first scan costs 0.02 us a body (the whole of find_pairs 37 us for the 1,000 bodies of
#: many_balls), so a parallel call pays only from several thousand.
PARALLEL_MIN_PAIRS = 8192
#: Neighbours per body that :func:`find_pairs`'s single scan holds (more: a second scan).
PAIR_TABLE_WIDTH = 16
#: Colliders cached per body for the contact passes and the bookkeeping of one step.
CACHE_CAPACITY = 32
#: A dense cell table is used while the grid has at most this many cells per body (plus
#: :data:`DENSE_GRID_MINIMUM`); sparser grids find each cell's run by binary search.
DENSE_GRID_FACTOR = 8
#: Cells a dense table may always have, however few the bodies.
DENSE_GRID_MINIMUM = 4096
#: A contact pass runs on one thread while at most this many bodies are pushed or were
#: touching before it (the rest are skipped, so a parallel region would cost more than it
#: saves); the result is the same either way. A visited body costs about half a microsecond
#: (a cast, a path check, a contact test): with 2 threads, the 650 bodies of each later pass
#: of the benchmark took 0.33 ms on one thread and 0.12 ms on two.
SERIAL_PASS_LIMIT = 256
#: The direction two bodies with coincident centres are pushed apart (lower index along +x).
COINCIDENT_X = 1.0


@kernel
def build_grid(lo: np.ndarray, hi: np.ndarray
               ) -> tuple[np.ndarray, np.ndarray, np.ndarray, np.ndarray]:
    """A uniform grid over the colliders' boxes ``lo`` / ``hi`` (m, 3) (z = 0 in 2D):
    ``(grid_meta, grid_dims, cell_start, cell_items)``. ``grid_meta`` (4,) float64 is the
    grid's corner (x, y, z) and its inverse cell size; ``grid_dims`` (3,) int64 the cells along
    each axis; cell ``(z * gy + y) * gx + x`` holds the colliders
    ``cell_items[cell_start[cell] : cell_start[cell + 1]]``, by increasing index: every one
    whose box covers part of the cell (a box on a cell's face is in both cells). The cell size
    is the largest extent halved until one more halving would give more than
    :data:`GRID_CELLS_PER_COLLIDER` cells per collider, then doubled while the boxes would
    fill more than :data:`GRID_ENTRIES_PER_COLLIDER` entries per collider (long colliders
    across many cells: a coarser grid, down to one cell, a brute-force test)."""
    m = lo.shape[0]
    meta = np.zeros(4)
    dims = np.ones(3, np.int64)
    meta[3] = 1.0
    # an empty box (lo > hi on an axis) is in no cell: no query finds it
    boxed = np.ones(m, np.bool_)
    for k in range(m):
        for a in range(3):
            if not lo[k, a] <= hi[k, a]:
                boxed[k] = False
    if m == 0 or not boxed.any():
        # no colliders: one empty cell
        return meta, dims, np.zeros(2, np.int64), np.empty(0, np.int64)
    ext = np.zeros(3)
    for a in range(3):
        meta[a] = lo[boxed, a].min()
        ext[a] = hi[boxed, a].max() - meta[a]
    size = ext.max()
    if size > 0.0 and math.isfinite(size):
        target = float(GRID_CELLS_PER_COLLIDER * m)
        for _ in range(GRID_MAX_HALVINGS):
            half = size * 0.5
            cells = 1.0
            for a in range(3):
                cells *= math.floor(ext[a] / half) + 1.0
            if cells > target:
                break
            size = half
        budget = GRID_ENTRIES_PER_COLLIDER * m
        for _ in range(GRID_MAX_HALVINGS):
            # the entries each box would fill at this size (capped: a sum past the budget)
            entries = 0
            for k in range(m):
                if boxed[k] and entries <= budget:
                    cells_k = 1
                    for a in range(3):
                        cells_k *= (_grid_cell(hi[k, a], meta[a], 1.0 / size, 1 << 40)
                                    - _grid_cell(lo[k, a], meta[a], 1.0 / size, 1 << 40) + 1)
                    entries += cells_k
            if entries <= budget or size >= ext.max():
                break
            size *= 2.0
        meta[3] = 1.0 / size
        for a in range(3):
            dims[a] = int(math.floor(ext[a] * meta[3])) + 1
    # else: every box at one point (or beyond float range): one cell holds them all
    n_cells = dims[0] * dims[1] * dims[2]
    span = np.zeros((m, 6), np.int64)
    cell_start = np.zeros(n_cells + 1, np.int64)
    for k in range(m):
        if not boxed[k]:
            continue
        for a in range(3):
            span[k, a] = _grid_cell(lo[k, a], meta[a], meta[3], dims[a])
            span[k, 3 + a] = _grid_cell(hi[k, a], meta[a], meta[3], dims[a])
        for cz in range(span[k, 2], span[k, 5] + 1):
            for cy in range(span[k, 1], span[k, 4] + 1):
                for cx in range(span[k, 0], span[k, 3] + 1):
                    cell_start[(cz * dims[1] + cy) * dims[0] + cx + 1] += 1
    for c in range(n_cells):
        cell_start[c + 1] += cell_start[c]
    fill = cell_start[:-1].copy()
    cell_items = np.empty(cell_start[n_cells], np.int64)
    for k in range(m):
        if not boxed[k]:
            continue
        # by increasing k: each cell's colliders by index
        for cz in range(span[k, 2], span[k, 5] + 1):
            for cy in range(span[k, 1], span[k, 4] + 1):
                for cx in range(span[k, 0], span[k, 3] + 1):
                    c = (cz * dims[1] + cy) * dims[0] + cx
                    cell_items[fill[c]] = k
                    fill[c] += 1
    return meta, dims, cell_start, cell_items


@inline_kernel
def _grid_cell(x: float, origin: float, inv: float, count: int) -> int:
    """The grid cell along one axis that holds coordinate x, clamped to 0 .. count-1
    (monotone in x: a box's cells are those from its lo's cell to its hi's)."""
    f = (x - origin) * inv
    if not f >= 0.0:
        # below the grid (or NaN): the first cell
        return 0
    if f >= count - 1:
        # in the last cell or beyond the grid
        return count - 1
    return int(f)


@inline_kernel
def _query_into(grid_meta: np.ndarray, grid_dims: np.ndarray, cell_start: np.ndarray,
                cell_items: np.ndarray, lo: np.ndarray, hi: np.ndarray, qlo: np.ndarray,
                qhi: np.ndarray, buf: np.ndarray) -> int:
    """The colliders whose boxes (``lo`` / ``hi`` (m, 3), z = 0 in 2D) touch the box
    [qlo, qhi] (sharing a face counts; ``qlo <= qhi``, as every caller's box around a point
    or a path is), from the grid of :func:`build_grid`: the query's cells in key order, each
    collider reported in the first of them that holds it (the first ``len(buf)`` in ``buf``);
    returns how many. The same set as a BVH or brute-force box query."""
    x0 = qlo[0]
    x1 = qhi[0]
    y0 = qlo[1]
    y1 = qhi[1]
    z0 = qlo[2]
    z1 = qhi[2]
    cap = buf.shape[0]
    found = 0
    gx = grid_dims[0]
    gy = grid_dims[1]
    inv = grid_meta[3]
    ox = grid_meta[0]
    oy = grid_meta[1]
    oz = grid_meta[2]
    cx0 = _grid_cell(x0, ox, inv, gx)
    cx1 = _grid_cell(x1, ox, inv, gx)
    cy0 = _grid_cell(y0, oy, inv, gy)
    cy1 = _grid_cell(y1, oy, inv, gy)
    cz0 = _grid_cell(z0, oz, inv, grid_dims[2])
    cz1 = _grid_cell(z1, oz, inv, grid_dims[2])
    # one loop nest for 2D and 3D (a 2D grid has one layer): a second nest for the plane, or
    # a test of the query's emptiness, made the compiler spill this one (twice as slow)
    for cz in range(cz0, cz1 + 1):
        # a collider is reported in the first cell of the query that holds it: along each
        # axis, in the query's first cell, or in its own first cell (the one its lo is in:
        # the scaled (lo - corner) >= the cell's index exactly when _grid_cell(lo) >= it)
        fz = -math.inf if cz == cz0 else float(cz)
        for cy in range(cy0, cy1 + 1):
            row = (cz * gy + cy) * gx
            fy = -math.inf if cy == cy0 else float(cy)
            for cx in range(cx0, cx1 + 1):
                fx = -math.inf if cx == cx0 else float(cx)
                for j in range(cell_start[row + cx], cell_start[row + cx + 1]):
                    p = cell_items[j]
                    blx = lo[p, 0]
                    bly = lo[p, 1]
                    blz = lo[p, 2]
                    # without branches (each would be a coin toss): its box touches the
                    # query's along every axis, and this is its first cell of the query
                    ok = ((blx <= x1) & (hi[p, 0] >= x0) & (bly <= y1) & (hi[p, 1] >= y0)
                          & (blz <= z1) & (hi[p, 2] >= z0) & ((blx - ox) * inv >= fx)
                          & ((bly - oy) * inv >= fy) & ((blz - oz) * inv >= fz))
                    if found < cap:
                        # kept only when ok: otherwise the next one overwrites it
                        buf[found] = p
                    found += ok
    return found


@inline_kernel
def _query(grid_meta: np.ndarray, grid_dims: np.ndarray, cell_start: np.ndarray,
           cell_items: np.ndarray, lo: np.ndarray, hi: np.ndarray, qlo: np.ndarray,
           qhi: np.ndarray, buf: np.ndarray) -> tuple[np.ndarray, int]:
    """The colliders whose boxes touch [qlo, qhi], in ``buf`` (grown when too small)."""
    count = _query_into(grid_meta, grid_dims, cell_start, cell_items, lo, hi, qlo, qhi, buf)
    if count > buf.shape[0]:
        # more candidates than the buffer holds: query again into one that fits
        buf = np.empty(count, np.int64)
        count = _query_into(grid_meta, grid_dims, cell_start, cell_items, lo, hi, qlo, qhi,
                            buf)
    return buf, count


@inline_kernel
def _box_around(px: float, py: float, pz: float, reach: float, qlo: np.ndarray,
                qhi: np.ndarray) -> None:
    """The cube of half-side ``reach`` around p, into qlo / qhi."""
    qlo[0] = px - reach
    qlo[1] = py - reach
    qlo[2] = pz - reach
    qhi[0] = px + reach
    qhi[1] = py + reach
    qhi[2] = pz + reach


@kernel
def capsule_contact(px: float, py: float, pz: float, r: float, ax: float, ay: float,
                    az: float, bx: float, by: float, bz: float, cap_r: float, beyond: float
                    ) -> tuple[float, float, float, float]:
    """Gap and unit normal (out of the capsule toward the ball) between a ball of radius r at p
    and a capsule, by the library's contact kernels: ``gap = |p - q| - r - R`` with q the core
    point nearest p (negative: the depth). A gap over ``beyond`` is reported as +inf."""
    if pz == 0.0 and az == 0.0 and bz == 0.0:
        # in the plane: circle against capsule (a segment when R = 0)
        hit, nx, ny, depth, _x, _y = contact_circle_capsule(px, py, r + beyond, ax, ay, bx,
                                                            by, cap_r)
        nz = 0.0
    else:
        hit, nx, ny, nz, depth, _x, _y, _z = contact_sphere_capsule(
            px, py, pz, r + beyond, ax, ay, az, bx, by, bz, cap_r)
    if not hit:
        return math.inf, 0.0, 0.0, 0.0
    return beyond - depth, nx, ny, nz


@inline_kernel
def _fill_cache(i: int, grid_meta: np.ndarray, grid_dims: np.ndarray, cell_start: np.ndarray,
                cell_items: np.ndarray, lo: np.ndarray, hi: np.ndarray, qlo: np.ndarray,
                qhi: np.ndarray, cache: np.ndarray, cache_count: np.ndarray, cache_lo: np.ndarray,
                cache_hi: np.ndarray) -> tuple[np.ndarray, int]:
    """Cache body i's colliders whose boxes touch [qlo, qhi] (a count of -1 when they do not
    fit: the passes then query the grid themselves); returns them and how many."""
    cands, count = _query(grid_meta, grid_dims, cell_start, cell_items, lo, hi, qlo, qhi,
                          cache[i])
    # too many for the cache: they are in a grown array, for this move only
    cache_count[i] = count if count <= cache.shape[1] else -1
    for a in range(3):
        cache_lo[i, a] = qlo[a]
        cache_hi[i, a] = qhi[a]
    return cands, count


@inline_kernel
def _cached(i: int, qlo: np.ndarray, qhi: np.ndarray, cache_count: np.ndarray,
            cache_lo: np.ndarray, cache_hi: np.ndarray) -> bool:
    """Whether body i's cache covers the box [qlo, qhi]."""
    inside = cache_count[i] >= 0
    for a in range(3):
        inside = inside and cache_lo[i, a] <= qlo[a] and qhi[a] <= cache_hi[i, a]
    return inside


@kernel
def box_contact(px: float, py: float, pz: float, r: float, lox: float, loy: float,
                loz: float, hix: float, hiy: float, hiz: float, beyond: float
                ) -> tuple[float, float, float, float]:
    """:func:`capsule_contact` for a solid box ``lo .. hi`` (z = 0 .. 0 in 2D): gap and unit
    normal out of the box toward the ball, by the library's contact kernels (a centre inside
    leaves through the nearest face). A gap over ``beyond`` is reported as +inf."""
    if pz == 0.0 and loz == 0.0 and hiz == 0.0:
        # in the plane: circle against a 2D box
        hit, nx, ny, depth, _x, _y = contact_circle_aabb(px, py, r + beyond, lox, loy, hix,
                                                         hiy)
        nz = 0.0
    else:
        hit, nx, ny, nz, depth, _x, _y, _z = contact_sphere_aabb(px, py, pz, r + beyond, lox,
                                                                  loy, loz, hix, hiy, hiz)
    if not hit:
        return math.inf, 0.0, 0.0, 0.0
    return beyond - depth, nx, ny, nz


@kernel
def box_cast(px: float, py: float, pz: float, dx: float, dy: float, dz: float, length: float,
             r: float, lox: float, loy: float, loz: float, hix: float, hiy: float, hiz: float,
             flat: bool) -> tuple[float, float, float, float]:
    """Where a ball of radius r moving from p along unit d first heads into a solid box (the
    box grown by r, rounded at its edges and corners), within ``length``: ``(t, normal)``, t
    < 0 for none. As for capsules, only a contact the ball moves into counts: a ball resting
    on the box and sliding along it, or leaving it, is not stopped."""
    if flat:
        t, _x, _y, nx, ny, _inside = ray_rounded_aabb2(px, py, dx, dy, lox, loy, hix, hiy, r,
                                                       length, True)
        return t, nx, ny, 0.0
    t, _x, _y, _z, nx, ny, nz, inside = ray_rounded_aabb3(px, py, pz, dx, dy, dz, lox, loy,
                                                          loz, hix, hiy, hiz, r, length)
    if inside and dx * nx + dy * ny + dz * nz >= -HEADING_TOLERANCE:
        # starts touching (or inside) and moves along or out of it: no entering contact
        return -1.0, 0.0, 0.0, 0.0
    return t, nx, ny, nz


@kernel
def path_enters_box(px: float, py: float, pz: float, qx: float, qy: float, qz: float,
                    lox: float, loy: float, loz: float, hix: float, hiy: float, hiz: float
                    ) -> bool:
    """Whether the centre's path p -> q reaches a solid box (touching counts)."""
    return ray_box_entry3(px, py, pz, inverse_direction(qx - px), inverse_direction(qy - py),
                          inverse_direction(qz - pz), 1.0, lox, loy, loz, hix, hiy,
                          hiz) != math.inf


@inline_kernel
def _static_contact(px: float, py: float, pz: float, r: float, k: int, cap_a: np.ndarray,
                    cap_b: np.ndarray, cap_r: np.ndarray, box: np.ndarray, beyond: float
                    ) -> tuple[float, float, float, float]:
    """:func:`capsule_contact` or :func:`box_contact` (by ``box[k]``) with static collider k."""
    if box[k]:
        return box_contact(px, py, pz, r, cap_a[k, 0], cap_a[k, 1], cap_a[k, 2], cap_b[k, 0],
                           cap_b[k, 1], cap_b[k, 2], beyond)
    return capsule_contact(px, py, pz, r, cap_a[k, 0], cap_a[k, 1], cap_a[k, 2], cap_b[k, 0],
                           cap_b[k, 1], cap_b[k, 2], cap_r[k], beyond)


@inline_kernel
def _cast_statics(px: float, py: float, pz: float, dx: float, dy: float, dz: float,
                  length: float, r: float, cands: np.ndarray, count: int, lo: np.ndarray,
                  hi: np.ndarray, cap_a: np.ndarray, cap_b: np.ndarray, cap_r: np.ndarray,
                  box: np.ndarray,
                  plane_n: np.ndarray, plane_o: np.ndarray
                  ) -> tuple[float, float, float, float, int]:
    """First entering contact of a ball moving from p along unit d for ``length``: (distance,
    normal, collider index; capsules first, then planes at ``m + k``), or index -1."""
    best_t = math.inf
    best_k = -1
    bnx = 0.0
    bny = 0.0
    bnz = 0.0
    # the box the ball sweeps
    x0 = min(px, px + dx * length) - r
    x1 = max(px, px + dx * length) + r
    y0 = min(py, py + dy * length) - r
    y1 = max(py, py + dy * length) + r
    flat = pz == 0.0 and dz == 0.0
    for c in range(count):
        k = cands[c]
        if lo[k, 0] > x1 or hi[k, 0] < x0 or lo[k, 1] > y1 or hi[k, 1] < y0:
            # the swept box misses the collider's box
            continue
        # the ball's centre as a ray against the capsule (or box) grown by the ball's radius
        if box[k]:
            t, nx, ny, nz = box_cast(px, py, pz, dx, dy, dz, length, r, cap_a[k, 0],
                                     cap_a[k, 1], cap_a[k, 2], cap_b[k, 0], cap_b[k, 1],
                                     cap_b[k, 2], flat and cap_a[k, 2] == 0.0
                                     and cap_b[k, 2] == 0.0)
        elif flat and cap_a[k, 2] == 0.0 and cap_b[k, 2] == 0.0:
            # in the plane: the 2D capsule kernel
            t, _x, _y, nx, ny, _inside = ray_capsule2_entering(
                px, py, dx, dy, cap_a[k, 0], cap_a[k, 1], cap_b[k, 0], cap_b[k, 1],
                cap_r[k] + r, length)
            nz = 0.0
        else:
            t, _x, _y, _z, nx, ny, nz, _inside = ray_capsule3_entering(
                px, py, pz, dx, dy, dz, cap_a[k, 0], cap_a[k, 1], cap_a[k, 2], cap_b[k, 0],
                cap_b[k, 1], cap_b[k, 2], cap_r[k] + r, length)
        if t < 0.0:
            continue
        if t < best_t or (t == best_t and k < best_k):
            best_t = t
            best_k = k
            bnx = nx
            bny = ny
            bnz = nz
    m = cap_r.shape[0]
    for k in range(plane_o.shape[0]):
        nx = plane_n[k, 0]
        ny = plane_n[k, 1]
        nz = plane_n[k, 2]
        heading = dx * nx + dy * ny + dz * nz
        if heading >= -HEADING_TOLERANCE:
            # parallel to the plane or leaving it: never enters
            continue
        gap = px * nx + py * ny + pz * nz - plane_o[k] - r
        # solve: gap + t heading = 0; already inside (gap < 0) meets it at once
        t = max(gap, 0.0) / -heading
        if t <= length and t < best_t:
            best_t = t
            best_k = m + k
            bnx = nx
            bny = ny
            bnz = nz
    return best_t, bnx, bny, bnz, best_k


@kernel
def advance_range(first: int, stop: int, pos: np.ndarray, vel: np.ndarray, radius: np.ndarray,
                  restitution: np.ndarray, friction: np.ndarray, mode: np.ndarray,
                  gravity: np.ndarray, dt: float, max_casts: int, grid_meta: np.ndarray,
                  grid_dims: np.ndarray, cell_start: np.ndarray, cell_items: np.ndarray,
                  lo: np.ndarray, hi: np.ndarray, cap_a: np.ndarray, cap_b: np.ndarray,
                  cap_r: np.ndarray, box: np.ndarray, plane_n: np.ndarray, plane_o: np.ndarray,
                  start: np.ndarray, responded: np.ndarray, crossed: np.ndarray,
                  touching: np.ndarray, cache: np.ndarray, cache_count: np.ndarray,
                  cache_lo: np.ndarray, cache_hi: np.ndarray) -> None:
    """:func:`advance_bodies` for bodies ``first .. stop-1`` (a range kernel for
    :func:`swept._parallel.parallel_for`)."""
    qlo = np.empty(3)
    qhi = np.empty(3)
    for i in range(first, stop):
        start[i, 0] = pos[i, 0]
        start[i, 1] = pos[i, 1]
        start[i, 2] = pos[i, 2]
        responded[i] = False
        # the first contact pass looks for this body's overlaps (unless its cast proves it
        # clear)
        touching[i] = True
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
        speed = math.sqrt(vx * vx + vy * vy + vz * vz)
        if mode[i] == MODE_SWEPT and speed > 0.0:
            # every cast stays within speed * dt of the start (a response never speeds up);
            # the box also covers what the passes and the bookkeeping look at afterwards
            _box_around(px, py, pz, speed * dt + r * (1.0 + CACHE_MARGIN_FRACTION), qlo, qhi)
            cands, count = _fill_cache(i, grid_meta, grid_dims, cell_start, cell_items, lo, hi, qlo,
                                       qhi, cache, cache_count, cache_lo, cache_hi)
            remaining = dt
            for _ in range(max_casts):
                mx = vx * remaining
                my = vy * remaining
                mz = vz * remaining
                length = math.sqrt(mx * mx + my * my + mz * mz)
                if length == 0.0:
                    remaining = 0.0
                    break
                t, nx, ny, nz, k = _cast_statics(px, py, pz, mx / length, my / length,
                                                 mz / length, length, r, cands, count, lo,
                                                 hi, cap_a, cap_b, cap_r, box, plane_n, plane_o)
                if k < 0:
                    # a clear move: spend the rest of the step
                    px += mx
                    py += my
                    pz += mz
                    remaining = 0.0
                    break
                # first contact: move there, respond, and keep the rest of the step's time
                fraction = min(t / length, 1.0)
                px += mx * fraction
                py += my * fraction
                pz += mz * fraction
                vx, vy, vz = respond_velocity(vx, vy, vz, nx, ny, nz, e, f)
                remaining -= remaining * fraction
                responded[i] = True
            # past the cap of casts the body stays at its last contact
            # a clear first cast proves the whole move clear of every collider: the first
            # contact pass need not look for overlaps of a body no other body pushes
            touching[i] = responded[i]
        elif mode[i] == MODE_SPECULATIVE and speed > 0.0:
            reach = speed * dt + SPECULATIVE_MARGIN_FRACTION * r
            _box_around(px, py, pz, speed * dt + r * (1.0 + CACHE_MARGIN_FRACTION), qlo, qhi)
            cands, count = _fill_cache(i, grid_meta, grid_dims, cell_start, cell_items, lo, hi, qlo,
                                       qhi, cache, cache_count, cache_lo, cache_hi)
            ux = vx
            uy = vy
            uz = vz
            for _ in range(SPECULATIVE_ITERATIONS):
                clamped = False
                for c in range(count + plane_o.shape[0]):
                    if c < count:
                        k = cands[c]
                        gap, nx, ny, nz = _static_contact(px, py, pz, r, k, cap_a, cap_b,
                                                          cap_r, box, reach)
                    else:
                        k = c - count
                        nx = plane_n[k, 0]
                        ny = plane_n[k, 1]
                        nz = plane_n[k, 2]
                        gap = px * nx + py * ny + pz * nz - plane_o[k] - r
                    if gap > reach:
                        # out of this step's reach
                        continue
                    # the constraint: close at most the gap this step (overlap: no closing)
                    allowed = -max(gap, 0.0) / dt
                    vn = ux * nx + uy * ny + uz * nz
                    if vn < allowed:
                        ux += (allowed - vn) * nx
                        uy += (allowed - vn) * ny
                        uz += (allowed - vn) * nz
                        clamped = True
                        responded[i] = True
                        # the bounce at arrival, from the velocity the body arrived with
                        vx, vy, vz = respond_velocity(vx, vy, vz, nx, ny, nz, e, f)
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
            # the cache covers the path and the ball's surroundings at its end
            grow = r * (1.0 + CACHE_MARGIN_FRACTION)
            qlo[0] = min(start[i, 0], px) - grow
            qlo[1] = min(start[i, 1], py) - grow
            qlo[2] = min(start[i, 2], pz) - grow
            qhi[0] = max(start[i, 0], px) + grow
            qhi[1] = max(start[i, 1], py) + grow
            qhi[2] = max(start[i, 2], pz) + grow
            _fill_cache(i, grid_meta, grid_dims, cell_start, cell_items, lo, hi, qlo, qhi, cache,
                        cache_count, cache_lo, cache_hi)
        pos[i, 0] = px
        pos[i, 1] = py
        pos[i, 2] = pz
        vel[i, 0] = vx
        vel[i, 1] = vy
        vel[i, 2] = vz
        crossed[i] = False


def advance_bodies(pos: np.ndarray, vel: np.ndarray, radius: np.ndarray, restitution: np.ndarray,
                   friction: np.ndarray, mode: np.ndarray, gravity: np.ndarray, dt: float,
                   max_casts: int, grid_meta: np.ndarray, grid_dims: np.ndarray,
                   cell_start: np.ndarray, cell_items: np.ndarray, lo: np.ndarray, hi: np.ndarray,
                   cap_a: np.ndarray, cap_b: np.ndarray, cap_r: np.ndarray, box: np.ndarray,
                   plane_n: np.ndarray,
                   plane_o: np.ndarray, start: np.ndarray, responded: np.ndarray,
                   crossed: np.ndarray, touching: np.ndarray, cache: np.ndarray,
                   cache_count: np.ndarray, cache_lo: np.ndarray, cache_hi: np.ndarray) -> None:
    """Gravity and each body's move for one step, in place; ``start`` gets the positions
    before it, ``responded`` whether the move met a collider (``crossed`` is cleared),
    ``touching`` whether the first contact pass must look for its overlaps (False only for a
    swept body whose first cast was clear: it ends clear of every collider). Each
    body's colliders near its new place are cached for the passes: ``cache``
    (n, CACHE_CAPACITY) int64, its ``cache_count`` (n,) and the box they cover, ``cache_lo``
    / ``cache_hi`` (n, 3)."""
    parallel_for(advance_range, pos.shape[0],
                 (pos, vel, radius, restitution, friction, mode, gravity, dt, max_casts,
                  grid_meta, grid_dims, cell_start, cell_items, lo, hi, cap_a, cap_b, cap_r, box,
                  plane_n, plane_o, start, responded, crossed, touching, cache, cache_count,
                  cache_lo, cache_hi), min_batch=PARALLEL_MIN_BODIES)


@kernel
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


@kernel
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
                dx = pix - pos[j, 0]
                dy = piy - pos[j, 1]
                dz = piz - pos[j, 2]
                reach = (ri + radius[j]) * (1.0 + PAIR_MARGIN_FRACTION)
                # without a branch (a coin toss each): within reach, and not body i itself
                ok = (dx * dx + dy * dy + dz * dz <= reach * reach) & (j != i)
                if write and found < out.shape[0]:
                    # kept only when ok: otherwise the next one overwrites it
                    out[found] = j
                found += ok
    return found


@kernel
def pair_grid(pos: np.ndarray, radius: np.ndarray, dim: int
              ) -> tuple[np.ndarray, np.ndarray, np.ndarray, np.ndarray, int, int]:
    """The bodies binned for :func:`find_pairs` (n >= 1): ``(cells, sorted_keys, cell_start,
    order, sx, sy)``, the arguments of :func:`_neighbours` after ``radius``."""
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
        sorted_keys = keys[order]
    else:
        # a sparse grid: a stable sort of the keys, runs found by binary search
        order = np.argsort(keys, kind="mergesort")
        sorted_keys = keys[order]
        cell_start = np.empty(0, np.int64)
    return cells, sorted_keys, cell_start, order, sx, sy


@kernel
def count_pairs_range(first: int, stop: int, pos: np.ndarray, radius: np.ndarray,
                      cells: np.ndarray, sorted_keys: np.ndarray, cell_start: np.ndarray,
                      order: np.ndarray, sx: int, sy: int, dim: int, table: np.ndarray,
                      counts: np.ndarray) -> None:
    """:func:`find_pairs`'s first scan for bodies ``first .. stop-1``: each body's count of
    neighbours, and the first :data:`PAIR_TABLE_WIDTH` of them in its row of ``table``."""
    for i in range(first, stop):
        counts[i] = _neighbours(i, pos, radius, cells, sorted_keys, cell_start, order, sx, sy,
                                dim, table[i], True)


@kernel
def fill_pairs_range(first: int, stop: int, pos: np.ndarray, radius: np.ndarray,
                     cells: np.ndarray, sorted_keys: np.ndarray, cell_start: np.ndarray,
                     order: np.ndarray, sx: int, sy: int, dim: int, table: np.ndarray,
                     counts: np.ndarray, row_start: np.ndarray, neighbour: np.ndarray) -> None:
    """:func:`find_pairs`'s rows for bodies ``first .. stop-1``, each sorted by index (from
    the table, or a second scan for a body with more neighbours than a table row holds)."""
    for i in range(first, stop):
        row = neighbour[row_start[i]:row_start[i + 1]]
        if counts[i] <= PAIR_TABLE_WIDTH:
            for c in range(counts[i]):
                row[c] = table[i, c]
        else:
            _neighbours(i, pos, radius, cells, sorted_keys, cell_start, order, sx, sy, dim,
                        row, True)
        # insertion sort by index: a row holds a few neighbours (np.sort costs more to call
        # than this takes), each moved at most len(row) places
        for a in range(1, row.shape[0]):
            v = row[a]
            b = a
            for _ in range(a):
                if row[b - 1] <= v:
                    break
                row[b] = row[b - 1]
                b -= 1
            row[b] = v


def find_pairs(pos: np.ndarray, radius: np.ndarray, dim: int
               ) -> tuple[np.ndarray, np.ndarray]:
    """Every body's neighbours within the sum of radii (plus the margin): CSR arrays
    ``(start (n+1,), neighbour (total,))``, each body's list in increasing index order."""
    n = pos.shape[0]
    first = np.zeros(n + 1, np.int64)
    if n == 0:
        return first, np.empty(0, np.int64)
    grid = pair_grid(pos, radius, dim)
    # one scan into a fixed-width table; a body with more neighbours than it holds is
    # scanned again into its row of the result
    counts = np.empty(n, np.int64)
    table = np.empty((n, PAIR_TABLE_WIDTH), np.int64)
    parallel_for(count_pairs_range, n, (pos, radius, *grid, dim, table, counts),
                 min_batch=PARALLEL_MIN_PAIRS)
    np.cumsum(counts, out=first[1:])
    neighbour = np.empty(first[n], np.int64)
    parallel_for(fill_pairs_range, n, (pos, radius, *grid, dim, table, counts, first, neighbour),
                 min_batch=PARALLEL_MIN_PAIRS)
    return first, neighbour


@kernel
def pair_pass(pos: np.ndarray, vel: np.ndarray, radius: np.ndarray, inv_mass: np.ndarray,
              restitution: np.ndarray, friction: np.ndarray, first: np.ndarray,
              neighbour: np.ndarray, dpos: np.ndarray) -> None:
    """One pass over body-body contacts, pair by pair in a fixed order (Gauss-Seidel: each
    pair sees the pushes and impulses of the pairs before it): pair (i, j), i < j, by i then
    by j. Pushes accumulate in ``dpos`` (a pair's geometry is read at ``pos + dpos``);
    impulses change ``vel`` in place.

    A pair overlapping by ``d`` moves each body by its inverse-mass share of ``d`` along the
    line of centres (equal masses: ``d/2`` each); an approaching pair exchanges the impulse
    ``-(1 + e) v_n / (1/m_a + 1/m_b)`` (``e`` the larger restitution), so momentum is kept
    and no pair gains energy. Friction (the geometric mean) removes that share of the
    relative tangential velocity, shared by mass. Serial, and cheap: a pass costs one visit
    per pair, a small part of the step.
    """
    n = pos.shape[0]
    for i in range(n):
        for s in range(first[i], first[i + 1]):
            j = neighbour[s]
            if j <= i:
                # each pair once, from its lower index
                continue
            dx = pos[i, 0] + dpos[i, 0] - pos[j, 0] - dpos[j, 0]
            dy = pos[i, 1] + dpos[i, 1] - pos[j, 1] - dpos[j, 1]
            dz = pos[i, 2] + dpos[i, 2] - pos[j, 2] - dpos[j, 2]
            dist = math.sqrt(dx * dx + dy * dy + dz * dz)
            depth = radius[i] + radius[j] - dist
            if depth < 0.0:
                # apart: the pair was found within the margin only
                continue
            if dist > 0.0:
                nx = dx / dist
                ny = dy / dist
                nz = dz / dist
            else:
                # coincident centres: the lower index goes along +x, the other along -x
                nx = COINCIDENT_X
                ny = 0.0
                nz = 0.0
            total = inv_mass[i] + inv_mass[j]
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
            rvx = vel[i, 0] - vel[j, 0]
            rvy = vel[i, 1] - vel[j, 1]
            rvz = vel[i, 2] - vel[j, 2]
            vn = rvx * nx + rvy * ny + rvz * nz
            if vn >= 0.0:
                # separating (or resting): no impulse
                continue
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


@kernel
def resolve_range(first: int, stop: int, pos: np.ndarray, vel: np.ndarray, dpos: np.ndarray,
                  radius: np.ndarray, restitution: np.ndarray, friction: np.ndarray,
                  mode: np.ndarray, grid_meta: np.ndarray, grid_dims: np.ndarray,
                  cell_start: np.ndarray, cell_items: np.ndarray, lo: np.ndarray, hi: np.ndarray,
                  cap_a: np.ndarray, cap_b: np.ndarray, cap_r: np.ndarray, box: np.ndarray,
                  plane_n: np.ndarray, plane_o: np.ndarray, responded: np.ndarray,
                  crossed: np.ndarray, touching: np.ndarray, cache: np.ndarray,
                  cache_count: np.ndarray, cache_lo: np.ndarray, cache_hi: np.ndarray) -> None:
    """:func:`apply_and_resolve_statics` for bodies ``first .. stop-1`` (a range kernel for
    :func:`swept._parallel.parallel_for`)."""
    buf = np.empty(CANDIDATE_CAPACITY, np.int64)
    qlo = np.empty(3)
    qhi = np.empty(3)
    for i in range(first, stop):
        px = pos[i, 0]
        py = pos[i, 1]
        pz = pos[i, 2]
        r = radius[i]
        mx = dpos[i, 0]
        my = dpos[i, 1]
        mz = dpos[i, 2]
        push = math.sqrt(mx * mx + my * my + mz * mz)
        if push == 0.0 and not touching[i]:
            # unmoved since a pass (or a cast) that found it clear of every collider: still
            # clear
            continue
        if push > 0.0 and mode[i] != MODE_DISCRETE:
            # a body with continuous collision is never pushed through a collider by another
            # body: the push is cast, and stops at the first contact
            _box_around(px, py, pz, push + r, qlo, qhi)
            # the cast's result does not depend on which colliders beyond its swept box are
            # candidates, nor on their order: the body's cache serves when it covers the box
            if _cached(i, qlo, qhi, cache_count, cache_lo, cache_hi):
                cands = cache[i]
                count = cache_count[i]
            else:
                buf, count = _query(grid_meta, grid_dims, cell_start, cell_items, lo, hi,
                                    qlo, qhi, buf)
                cands = buf
            t, _nx, _ny, _nz, k = _cast_statics(px, py, pz, mx / push, my / push, mz / push,
                                                push, r, cands, count, lo, hi, cap_a, cap_b,
                                                cap_r, box, plane_n, plane_o)
            if k >= 0:
                scale = min(t / push, 1.0)
                mx *= scale
                my *= scale
                mz *= scale
        if push > 0.0 and not crossed[i]:
            # the bookkeeping follows the real path: does this push cross a collider?
            crossed[i] = _path_hits(px, py, pz, px + mx, py + my, pz + mz, i, grid_meta, grid_dims,
                                    cell_start, cell_items, lo, hi, cap_a, cap_b, cap_r, box,
                                    plane_n,
                                    plane_o, qlo, qhi, buf, cache, cache_count, cache_lo, cache_hi)
        px += mx
        py += my
        pz += mz
        # push out of every collider the ball overlaps, one after the other
        _box_around(px, py, pz, r, qlo, qhi)
        if _cached(i, qlo, qhi, cache_count, cache_lo, cache_hi):
            cands = cache[i]
            count = cache_count[i]
        else:
            buf, count = _query(grid_meta, grid_dims, cell_start, cell_items, lo, hi, qlo,
                                qhi, buf)
            cands = buf
        touching[i] = False
        for c in range(count + plane_o.shape[0]):
            if c < count:
                k = cands[c]
                if (lo[k, 0] > px + r or hi[k, 0] < px - r or lo[k, 1] > py + r
                        or hi[k, 1] < py - r):
                    # the ball's box misses the collider's box
                    continue
                gap, nx, ny, nz = _static_contact(px, py, pz, r, k, cap_a, cap_b, cap_r, box,
                                                  0.0)
            else:
                k = c - count
                nx = plane_n[k, 0]
                ny = plane_n[k, 1]
                nz = plane_n[k, 2]
                gap = px * nx + py * ny + pz * nz - plane_o[k] - r
            if gap > 0.0:
                # clear of it (touching counts as a contact)
                continue
            px -= gap * nx
            py -= gap * ny
            pz -= gap * nz
            vx, vy, vz = respond_velocity(vel[i, 0], vel[i, 1], vel[i, 2], nx, ny, nz,
                                          restitution[i], friction[i])
            vel[i, 0] = vx
            vel[i, 1] = vy
            vel[i, 2] = vz
            responded[i] = True
            touching[i] = True
        pos[i, 0] = px
        pos[i, 1] = py
        pos[i, 2] = pz


def apply_and_resolve_statics(pos: np.ndarray, vel: np.ndarray, dpos: np.ndarray,
                              radius: np.ndarray, restitution: np.ndarray, friction: np.ndarray,
                              mode: np.ndarray, grid_meta: np.ndarray, grid_dims: np.ndarray,
                              cell_start: np.ndarray, cell_items: np.ndarray, lo: np.ndarray,
                              hi: np.ndarray, cap_a: np.ndarray, cap_b: np.ndarray,
                              cap_r: np.ndarray, box: np.ndarray, plane_n: np.ndarray,
                              plane_o: np.ndarray,
                              responded: np.ndarray, crossed: np.ndarray, touching: np.ndarray,
                              cache: np.ndarray, cache_count: np.ndarray, cache_lo: np.ndarray,
                              cache_hi: np.ndarray, serial: bool = False) -> None:
    """Apply one pass's body-body corrections (cast first for swept and speculative bodies),
    then push each body out of the colliders it overlaps, answering its velocity.
    ``touching`` (n,) records which bodies met a collider in this pass (before the first,
    :func:`advance_bodies` sets it): a body that was clear and has not moved is skipped.
    ``serial``: one call on this thread, for a pass in which few bodies move or touch
    anything (the very same result: each body's rows depend on that body alone)."""
    args = (pos, vel, dpos, radius, restitution, friction, mode, grid_meta, grid_dims,
            cell_start, cell_items, lo, hi, cap_a, cap_b, cap_r, box, plane_n, plane_o,
            responded, crossed, touching, cache, cache_count, cache_lo, cache_hi)
    if serial:
        resolve_range(0, pos.shape[0], *args)
    else:
        parallel_for(resolve_range, pos.shape[0], args, min_batch=PARALLEL_MIN_BODIES)


@kernel
def _orient(ax: float, ay: float, bx: float, by: float, px: float, py: float) -> float:
    """Twice the signed area of triangle a, b, p: > 0 when p is left of a -> b."""
    return (bx - ax) * (py - ay) - (by - ay) * (px - ax)


@kernel
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


@inline_kernel
def _path_hits(px: float, py: float, pz: float, qx: float, qy: float, qz: float, i: int,
               grid_meta: np.ndarray, grid_dims: np.ndarray, cell_start: np.ndarray,
               cell_items: np.ndarray, lo: np.ndarray, hi: np.ndarray, cap_a: np.ndarray,
               cap_b: np.ndarray, cap_r: np.ndarray, box: np.ndarray, plane_n: np.ndarray,
               plane_o: np.ndarray,
               qlo: np.ndarray, qhi: np.ndarray, buf: np.ndarray, cache: np.ndarray,
               cache_count: np.ndarray, cache_lo: np.ndarray, cache_hi: np.ndarray) -> bool:
    """Whether the straight path p -> q of body i's centre reaches a collider (its cached
    colliders when they cover the path, else a query of the grid)."""
    qlo[0] = min(px, qx)
    qlo[1] = min(py, qy)
    qlo[2] = min(pz, qz)
    qhi[0] = max(px, qx)
    qhi[1] = max(py, qy)
    qhi[2] = max(pz, qz)
    if _cached(i, qlo, qhi, cache_count, cache_lo, cache_hi):
        cands = cache[i]
        count = cache_count[i]
    else:
        cands, count = _query(grid_meta, grid_dims, cell_start, cell_items, lo, hi, qlo, qhi,
                              buf)
    for c in range(count):
        j = cands[c]
        if box[j]:
            if path_enters_box(px, py, pz, qx, qy, qz, cap_a[j, 0], cap_a[j, 1], cap_a[j, 2],
                               cap_b[j, 0], cap_b[j, 1], cap_b[j, 2]):
                return True
        elif path_crosses(px, py, pz, qx, qy, qz, cap_a[j, 0], cap_a[j, 1], cap_a[j, 2],
                          cap_b[j, 0], cap_b[j, 1], cap_b[j, 2], cap_r[j]):
            return True
    for j in range(plane_o.shape[0]):
        s0 = px * plane_n[j, 0] + py * plane_n[j, 1] + pz * plane_n[j, 2]
        s1 = qx * plane_n[j, 0] + qy * plane_n[j, 1] + qz * plane_n[j, 2]
        if s0 >= plane_o[j] > s1:
            # from the free side into the solid side
            return True
    return False


@kernel
def count_range(first: int, stop: int, start: np.ndarray, moved: np.ndarray,
                responded: np.ndarray, crossed: np.ndarray, grid_meta: np.ndarray,
                grid_dims: np.ndarray, cell_start: np.ndarray, cell_items: np.ndarray,
                lo: np.ndarray, hi: np.ndarray, cap_a: np.ndarray, cap_b: np.ndarray,
                cap_r: np.ndarray, box: np.ndarray, plane_n: np.ndarray, plane_o: np.ndarray,
                caught: np.ndarray, missed: np.ndarray, cache: np.ndarray,
                cache_count: np.ndarray, cache_lo: np.ndarray, cache_hi: np.ndarray) -> None:
    """:func:`count_approaches` for bodies ``first .. stop-1`` (a range kernel for
    :func:`swept._parallel.parallel_for`)."""
    buf = np.empty(CANDIDATE_CAPACITY, np.int64)
    qlo = np.empty(3)
    qhi = np.empty(3)
    for i in range(first, stop):
        if responded[i]:
            caught[i] += 1
        elif crossed[i] or _path_hits(start[i, 0], start[i, 1], start[i, 2], moved[i, 0],
                                      moved[i, 1], moved[i, 2], i, grid_meta, grid_dims,
                                      cell_start, cell_items, lo, hi, cap_a, cap_b, cap_r, box,
                                      plane_n, plane_o, qlo, qhi, buf, cache, cache_count,
                                      cache_lo, cache_hi):
            missed[i] += 1


def count_approaches(start: np.ndarray, moved: np.ndarray, responded: np.ndarray,
                     crossed: np.ndarray, grid_meta: np.ndarray, grid_dims: np.ndarray,
                     cell_start: np.ndarray, cell_items: np.ndarray, lo: np.ndarray, hi: np.ndarray,
                     cap_a: np.ndarray, cap_b: np.ndarray, cap_r: np.ndarray, box: np.ndarray,
                     plane_n: np.ndarray,
                     plane_o: np.ndarray, caught: np.ndarray, missed: np.ndarray, cache: np.ndarray,
                     cache_count: np.ndarray, cache_lo: np.ndarray, cache_hi: np.ndarray) -> None:
    """Bullet Time's bookkeeping for one step: a body that responded to a collider caught an
    approach; one that did not, but whose centre's path reached a collider (crossed a thin
    wall, entered a capsule, or went into a plane's solid side), missed one. The path is the
    move ``start -> moved`` (straight when there was no response) and the pushes of the
    passes, which :func:`apply_and_resolve_statics` checked into ``crossed``. Adds to
    ``caught`` / ``missed`` (one per body per step at most). The cache is
    :func:`advance_bodies`'s (a count of -1 everywhere: none)."""
    parallel_for(count_range, start.shape[0],
                 (start, moved, responded, crossed, grid_meta, grid_dims, cell_start, cell_items,
                  lo, hi, cap_a, cap_b, cap_r, box, plane_n, plane_o, caught, missed, cache,
                  cache_count, cache_lo, cache_hi), min_batch=PARALLEL_MIN_BODIES)
