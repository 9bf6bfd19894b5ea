"""Broadphase: a uniform grid over 2D colliders, one build and one walk.

The World bins its static, bounded 2D colliders in a grid of ``nx`` by ``ny`` square cells of
side ``cell`` from ``(x0, y0)`` when that beats its BVH for the scene
(:mod:`swept.broadphase` decides); ray casts then walk the cells the ray crosses, in order
(2D DDA, :func:`walk_begin` / :func:`walk_next`), instead of descending the static tree.

Layout (packed into the scene's arrays by :func:`swept._kernels.world.pack`): ``start``
(nx * ny + 1,) int64 and ``items`` (E,) int64 in CSR form (cell ``cx + nx * cy`` holds
``items[start[c] : start[c + 1]]``, indices of the gridded colliders; in ``links`` as int32
values, :func:`grid_block`, each entry carrying its row's code, :func:`coded_entries`), the
gridded colliders' handles, and one row per gridded collider (:func:`collider_rows`): a
segment's crossing data, a box's corners, a circle's centre and radius, any other collider's
box grown by :data:`~swept.constants.GRID_MARGIN` of a cell. Grown, because the walk's box
test must not reject a hit the narrowphase finds: a ray through a segment's end at a corner of
its box can cross the box's edges an ulp apart in t (a miss) while ``ray_segment`` puts the
crossing on the segment (a hit).

Moving colliders (2D, when the static colliders have a grid) go in a second, coarser grid
over the same frame, rebinned in place at every sync after they move (:func:`bin_moving`):
its cell ``(cx // K, cy // K)`` (:func:`coarse_of`) holds every moving collider whose box (grown by
:data:`GRID_MARGIN` of a grid cell) touches the K x K grid cells it covers, so that a ray
walking the grid meets them cell by cell (a line crosses a square in one run of cells, so each
coarse cell is tested once, when the walk enters it) instead of walking the moving tree. Its
block in ``links`` (at ``links[H_MOVING_GRID]``): :data:`MG_HEAD` slots ``K mnx mny gridded
capacity outside outside_capacity marked marked_capacity``, the outside list (moving colliders
whose boxes leave the frame, tested by every ray), the coarse cells' starts (``mnx * mny +
1``), the entries (``capacity`` of them, sized when packed) and the marked cells (below).
``gridded`` 0 means the rays walk the moving tree instead (too many outside, more entries
than the capacity, or more marked cells than theirs).

The grid cells (fine ones) that some moving collider's grown box touches are *marked*: bit
:data:`CELL_MOVING` of their start in the grid's ``start`` (a reader masks it off with
:data:`CELL_START`), their indices listed in the block so that the next binning clears them.
A walk tests a coarse cell's moving colliders only in a marked cell (and once a coarse cell):
a ray that crosses a coarse cell away from every moving box skips its list and the coarse
cell's arithmetic. A block with no room for marks (``marked_capacity`` 0: the marks would
cost the sync more than :data:`~swept.constants.MOVING_GRID_MARKS_PER_COLLIDER` a moving
collider) marks nothing, and a walk then reads the coarse cell of every cell it crosses.

A cell listing many entries (a cluster's) holds instead one entry, ``-1 - b``, naming a
sub-grid block at ``items[b]`` (:func:`subdivide`): S, then its S x S sub-cells' starts and
entries in the same CSR form, over the cell's own square. A ray's walk entering such a cell
walks its sub-cells in order (a sub-grid is a grid: the same :func:`walk_begin` and
:func:`walk_next`), then goes on in the grid.

A walk's state is a :data:`Walk` tuple ``(cx, cy, step_x, step_y, next_x, next_y, delta_x,
delta_y)``: the cell, the step along each axis, t at the next vertical and horizontal cell
lines, and between successive ones.
"""

from __future__ import annotations

import math

import numpy as np

from ..constants import GRID_MARGIN
from . import callee, inline_kernel, kernel
from .bvh import _clip_slab
from .ray import RAY_PARALLEL_SINE, _unit2
from .scalars import cell_at, greatest, least, truncated
from .scene import (
    HI,
    KIND,
    KIND_AABB2,
    KIND_CAPSULE2,
    KIND_CHAIN_SEGMENT,
    KIND_CIRCLE,
    KIND_POLYGON,
    KIND_SEGMENT,
    LO,
    segment_kind,
)

#: Slots of the moving grid's block head (module docstring): K, mnx, mny, gridded, capacity,
#: outside count, outside capacity, marked cells' count, their capacity.
MG_K, MG_NX, MG_NY, MG_GRIDDED, MG_CAPACITY, MG_OUTSIDE, MG_OUTSIDE_CAP = 0, 1, 2, 3, 4, 5, 6
MG_MARKED, MG_MARKED_CAP = 7, 8
MG_HEAD = 9

#: The bit of a grid cell's start (``start[c]``, an int32: :func:`grid_of`) that marks cell c
#: as touched by some moving collider's box (module docstring): starts are below it (a grid
#: holds at most ``swept.world.GRID_MAX_ENTRIES``, 8 million, entries; :func:`grid_block`).
CELL_MOVING = 1 << 30
#: A cell's start without :data:`CELL_MOVING`.
CELL_START = CELL_MOVING - 1


def grid_block(start: np.ndarray, items: np.ndarray) -> np.ndarray:
    """The grid's CSR arrays (:func:`bin_colliders`, :func:`subdivide`) as ``links`` holds
    them: ``start`` then ``items`` as int32 values, two an int64 slot (a zero after an odd
    count), the cells' starts from int32 index 0 of the block (:func:`grid_of`). Half the
    bytes of int64 values, so more of a large grid stays in cache."""
    if start.shape[0] > 0 and start[-1] >= CELL_MOVING:
        raise ValueError(f"a grid holds at most {CELL_MOVING - 1} entries, got {start[-1]}")
    values = np.zeros(start.shape[0] + items.shape[0] + 1, np.int32)
    values[:start.shape[0]] = start
    values[start.shape[0]:values.shape[0] - 1] = items
    return values[:values.shape[0] - values.shape[0] % 2].view(np.int64)


@inline_kernel
def grid_of(links: np.ndarray) -> np.ndarray:
    """``links`` as int32 values, where the grid's starts and entries lie (:func:`grid_block`;
    ``links[H_GRID_CELLS]`` and ``links[H_GRID_ITEMS]`` index this view)."""
    return links.view(np.int32)


#: The state of a DDA walk (module docstring).
Walk = tuple[int, int, int, int, float, float, float, float]


@callee
def _box_cells(rows: np.ndarray, h: int, x0: float, y0: float, cell: float, nx: int, ny: int
               ) -> tuple[int, int, int, int]:
    """The cells ``(ax, bx, ay, by)`` (inclusive) that collider h's box, grown by
    :data:`GRID_MARGIN` of a cell, touches."""
    g = GRID_MARGIN * cell
    ax = min(max(int(math.floor((rows[h, LO] - g - x0) / cell)), 0), nx - 1)
    bx = min(max(int(math.floor((rows[h, HI] + g - x0) / cell)), 0), nx - 1)
    ay = min(max(int(math.floor((rows[h, LO + 1] - g - y0) / cell)), 0), ny - 1)
    by = min(max(int(math.floor((rows[h, HI + 1] + g - y0) / cell)), 0), ny - 1)
    return ax, bx, ay, by


@callee
def collider_cells(rows: np.ndarray, tags: np.ndarray, h: int, x0: float, y0: float,
                   cell: float, nx: int, ny: int, out: np.ndarray) -> tuple[int, np.ndarray]:
    """The cells (indices ``cx + nx * cy``) collider h is binned into, written to ``out``
    (grown when too short): returns their count and the (maybe new) ``out``.

    A segment (a chain's too), and a 2D capsule (its core grown by its radius), goes into the
    cells its shape grown by a square of half-side :data:`GRID_MARGIN` of a cell (plus the
    radius) touches: in each column of cells its box spans, the rows between the lowest and
    highest y of the core over the column's x range widened by that half-side, themselves
    widened by it (a conservative supercover: every cell within the margin of the shape, a
    subset of the box's cells). Every other kind goes into every cell its box, grown by the
    margin, touches."""
    ax, bx, ay, by = _box_cells(rows, h, x0, y0, cell, nx, ny)
    need = (bx - ax + 1) * (by - ay + 1)
    if need > out.shape[0]:
        out = np.empty(max(need, 2 * out.shape[0]), np.int64)
    n = 0
    k = tags[h, KIND]
    if k in (KIND_SEGMENT, KIND_CAPSULE2, KIND_CHAIN_SEGMENT):
        w = GRID_MARGIN * cell
        if k == KIND_CAPSULE2:
            w += rows[h, 4]
        pax = rows[h, 0]
        pay = rows[h, 1]
        pbx = rows[h, 2]
        pby = rows[h, 3]
        if pbx < pax:
            pax, pbx = pbx, pax
            pay, pby = pby, pay
        span = pbx - pax
        for cx in range(ax, bx + 1):
            # the column's x range widened by w (the edge columns reach out without end)
            lo = -math.inf if cx == 0 else x0 + cx * cell - w
            hi = math.inf if cx == nx - 1 else x0 + (cx + 1) * cell + w
            lo = max(lo, pax)
            hi = min(hi, pbx)
            if lo > hi:
                continue
            if span > 0.0:
                s0 = min(max((lo - pax) / span, 0.0), 1.0)
                s1 = min(max((hi - pax) / span, 0.0), 1.0)
                ya = pay + s0 * (pby - pay)
                yb = pay + s1 * (pby - pay)
            else:
                # a vertical segment
                ya = pay
                yb = pby
            ylo = max(min(ya, yb), min(pay, pby)) - w
            yhi = min(max(ya, yb), max(pay, pby)) + w
            cy0 = min(max(int(math.floor((ylo - y0) / cell)), ay), by)
            cy1 = min(max(int(math.floor((yhi - y0) / cell)), ay), by)
            for cy in range(cy0, cy1 + 1):
                out[n] = cx + nx * cy
                n += 1
        return n, out
    for cy in range(ay, by + 1):
        for cx in range(ax, bx + 1):
            out[n] = cx + nx * cy
            n += 1
    return n, out


@kernel
def bin_colliders(rows: np.ndarray, tags: np.ndarray, handles: np.ndarray, x0: float,
                  y0: float, cell: float, nx: int, ny: int, limit: int
                  ) -> tuple[np.ndarray, np.ndarray, int]:
    """Bin ``handles`` into the grid (:func:`collider_cells`): ``(start, items, entries)``,
    the CSR arrays ``start`` (nx * ny + 1,) and ``items`` (E,) int64, each entry the
    collider's index ``k`` in ``handles`` (its row of :func:`collider_rows`), in increasing
    order within a cell, and E.

    Binning that would make more than ``limit`` entries stops as soon as the count passes it
    and returns empty arrays and that count (the caller coarsens the cells and tries again).
    One pass finds each collider's cells, keeping them in the order of ``handles``; the fill
    reads them back instead of finding them again (measured, 1,000,000 segments in a
    708 x 708 grid, 7.9 million entries: the count of the old separate ``entry_count`` and
    the two passes of the fill, each finding the cells, took 2.0 s of CPU under load)."""
    start = np.zeros(nx * ny + 1, np.int64)
    out = np.empty(64, np.int64)
    cells = np.empty(max(min(limit, 2 * handles.shape[0]), 64), np.int64)
    per = np.empty(handles.shape[0], np.int64)
    total = 0
    for k in range(handles.shape[0]):
        n, out = collider_cells(rows, tags, handles[k], x0, y0, cell, nx, ny, out)
        if total + n > limit:
            return np.zeros(1, np.int64), np.empty(0, np.int64), total + n
        if total + n > cells.shape[0]:
            # grown by doubling, never past the limit
            grown = np.empty(min(max(2 * cells.shape[0], total + n), limit), np.int64)
            for j in range(total):
                grown[j] = cells[j]
            cells = grown
        for i in range(n):
            cells[total + i] = out[i]
            start[out[i] + 1] += 1
        per[k] = n
        total += n
    for c in range(nx * ny):
        start[c + 1] += start[c]
    fill = start[:-1].copy()
    items = np.empty(total, np.int64)
    q = 0
    for k in range(handles.shape[0]):
        for _ in range(per[k]):
            c = cells[q]
            items[fill[c]] = k
            fill[c] += 1
            q += 1
    return start, items, total


#: Column 2 of a grid collider row (:func:`collider_rows`) holds ``code + (h << ROW_CODE_BITS)``
#: (an exact float): the collider's handle ``h`` and a code saying what the row holds and so
#: how the walk tests the entry, so that one read of the row gives the walk both (not the
#: entry's handle from a list of its own, nor a generic collider's kind from the tags).
ROW_CODE_BITS = 3
#: The low bits of a row's tag, or of a coded grid entry (:func:`coded_entries`): the code.
ROW_CODE_MASK = (1 << ROW_CODE_BITS) - 1
#: A generic row (any kind without a code of its own) holds the collider's grown box, and the
#: walk tests the box, then the narrowphase on the collider's table row.
ROW_GENERIC = 0
#: A segment's row: ``ax ay tag ex ey parallel`` (its crossing test's precomputed data).
ROW_SEGMENT = 1
#: A 2D box's row: ``minx miny tag maxx maxy 0``, the box itself (not grown): the slab test of
#: ``ray_aabb2`` on it is both the box test and the narrowphase.
ROW_BOX = 2
#: A circle's row: ``cx cy tag r 0 0``: ``ray_circle``'s test on it needs no box test first.
ROW_CIRCLE = 3
#: A polygon's row: its grown box, as a generic row's (its kernel on its corners in the pool).
ROW_POLYGON = 4
#: A 2D capsule's row: its grown box, as a generic row's (its kernel on its table row).
ROW_CAPSULE = 5


#: Unit directions a ``nodes`` row holds after the grid's collider rows (:func:`collider_rows`):
#: gridded collider ``e``'s at row ``e // UNITS_A_ROW`` of that block, columns ``2 (e %
#: UNITS_A_ROW)`` and the next (zeros for a row that is not a segment's).
UNITS_A_ROW = 3
#: :func:`collider_rows` builds the unit directions' block, and the grid walk reads its best
#: segment's there (:func:`has_units`), on a grid of at most this many colliders; a larger
#: grid has no block, and the walk works the direction out (``_unit2``), where that row would
#: be one more wait on memory at the end of a ray. Measured (``benchmarks/ab_rays.py``, new /
#: main, 2,000 rays, both build orders, load 2-6; ``rays34``): read, uniform segments at 1,000
#: 0.95, 10% moving 0.95-0.98, coordinates of 1e6 0.93-0.97; at 10,000 uniform 0.96-1.07, 10%
#: moving 0.99-1.03, walls 1.02-1.04 (151 rounds). Between 1,000 and 10,000 (``rays37``,
#: 10,000 rays, 41 rounds, load 3-9, base first / new first): the block on every grid against
#: this bound read uniform segments at 5,000 1.350 / 0.801, 6,500 1.337 / 0.832, 8,000 1.297 /
#: 0.871, 10,000 1.368 / 0.928 (geometric means 1.04-1.13; the same code at 3,000 0.978 /
#: 0.954), and a bound of 1,024 against it (base first) 2,000 1.036, 3,000 1.049, 4,000 0.946.
GRID_UNITS_MAX_COLLIDERS = 4096


@inline_kernel
def has_units(m: int) -> bool:
    """Whether a grid of ``m`` colliders has the unit directions' block
    (:data:`GRID_UNITS_MAX_COLLIDERS`)."""
    return m <= GRID_UNITS_MAX_COLLIDERS


@inline_kernel
def unit_at(e: int) -> tuple[int, int]:
    """Where gridded collider ``e``'s unit direction lies in the block after the collider rows
    (:data:`UNITS_A_ROW`): ``(row in the block, first column)``."""
    return e // UNITS_A_ROW, 2 * (e % UNITS_A_ROW)


@inline_kernel
def row_tag(tag: float) -> tuple[int, int]:
    """A grid collider row's column 2 (:data:`ROW_CODE_BITS`) read: ``(code, handle)``."""
    value = truncated(tag)
    return value & ROW_CODE_MASK, value >> ROW_CODE_BITS


@inline_kernel
def entry_of(value: int) -> tuple[int, int]:
    """A grid entry (an int32 of :func:`grid_of`'s view, :func:`coded_entries`) read:
    ``(e, code)``, the gridded collider's row index and its row's code."""
    return value >> ROW_CODE_BITS, value & ROW_CODE_MASK


def coded_entries(start: np.ndarray, items: np.ndarray, rows: np.ndarray) -> np.ndarray:
    """The grid's entries (``items``, :func:`bin_colliders`, :func:`subdivide`) as the walk
    reads them: each entry ``e`` (a cell's or a sub-cell's) as ``e << ROW_CODE_BITS | code``,
    its row's code (``rows``, :func:`collider_rows`; :func:`entry_of`), so that the walk's
    dispatch on the kind waits for the entry's load alone, not for its row's load after it. A
    sub-grid's ``-1 - b``, its side and starts stay as they are. Ascending entries stay
    ascending, and equal ones equal."""
    if rows.shape[0] > CELL_START >> ROW_CODE_BITS:
        raise ValueError(f"a grid's entries name at most {CELL_START >> ROW_CODE_BITS} rows, "
                         f"got {rows.shape[0]}")
    codes = rows[:, 2].astype(np.int64) & ROW_CODE_MASK
    out = items.copy()
    flat = items[:start[-1]]
    listed = flat >= 0
    out[:start[-1]][listed] = flat[listed] << ROW_CODE_BITS | codes[flat[listed]]
    for b in (-1 - flat[~listed]).tolist():
        # a sub-grid block: its side S, its S * S + 1 starts, then its entries
        s = int(items[b])
        first = b + SUB_HEAD + s * s + 1
        block = items[first:first + int(items[first - 1])]
        out[first:first + block.shape[0]] = block << ROW_CODE_BITS | codes[block]
    return out


@kernel
def collider_rows(rows: np.ndarray, tags: np.ndarray, handles: np.ndarray, margin: float
                  ) -> np.ndarray:
    """The grid's collider rows (k, 6), one per gridded collider ``handles[j]`` (the entries
    name these rows: 8 bytes an entry, the rows small enough to stay in cache, where a row an
    entry made 56 and long walls' grids spill out of it). Column 2 holds the collider's handle
    and a code saying what the row holds (:data:`ROW_CODE_BITS`): a segment's crossing data ``ax
    ay tag ex ey parallel`` (``e = b - a`` and the parallel threshold ``RAY_PARALLEL_SINE *
    |e|``, as ``ray_segment`` computes them), a 2D box's own corners ``minx miny tag maxx maxy
    0``, a circle's ``cx cy tag r 0 0``, any other collider's box grown by ``margin``: ``minx
    miny tag maxx maxy 0`` (a polygon, a capsule or any other kind by its code). The walk
    tests a segment, a box or a circle on its row alone (the collider table's wide rows stay
    out of the cache's way).

    After the ``k`` rows, on a grid that has them (:func:`has_units`), the segments' unit
    directions ``e / |e|`` as ``ray_segment`` works them out for its normal
    (:func:`~swept._kernels.ray._unit2`), three a row (:func:`unit_at`): the walk reads the
    best segment's once, at the end of a ray, instead of its two divisions, a square root and
    two more."""
    m = handles.shape[0]
    units = has_units(m)
    out = np.zeros((m + ((m + UNITS_A_ROW - 1) // UNITS_A_ROW if units else 0), 6))
    for j in range(m):
        h = handles[j]
        k = tags[h, KIND]
        if segment_kind(k):
            # (a ray meets a chain's segment as a segment)
            ex = rows[h, 2] - rows[h, 0]
            ey = rows[h, 3] - rows[h, 1]
            out[j, 0] = rows[h, 0]
            out[j, 1] = rows[h, 1]
            out[j, 2] = ROW_SEGMENT + (h << ROW_CODE_BITS)
            out[j, 3] = ex
            out[j, 4] = ey
            ux, uy, length = _unit2(ex, ey)
            out[j, 5] = RAY_PARALLEL_SINE * length
            if units:
                at, col = unit_at(j)
                out[m + at, col] = ux
                out[m + at, col + 1] = uy
        elif k == KIND_AABB2:
            out[j, 0] = rows[h, 0]
            out[j, 1] = rows[h, 1]
            out[j, 2] = ROW_BOX + (h << ROW_CODE_BITS)
            out[j, 3] = rows[h, 2]
            out[j, 4] = rows[h, 3]
        elif k == KIND_CIRCLE:
            out[j, 0] = rows[h, 0]
            out[j, 1] = rows[h, 1]
            out[j, 2] = ROW_CIRCLE + (h << ROW_CODE_BITS)
            out[j, 3] = rows[h, 2]
        else:
            out[j, 0] = rows[h, LO] - margin
            out[j, 1] = rows[h, LO + 1] - margin
            code = (ROW_POLYGON if k == KIND_POLYGON else ROW_CAPSULE if k == KIND_CAPSULE2
                    else ROW_GENERIC)
            out[j, 2] = code + (h << ROW_CODE_BITS)
            out[j, 3] = rows[h, HI] + margin
            out[j, 4] = rows[h, HI + 1] + margin
    return out


@inline_kernel
def box_missed(near_x: float, near_y: float, far_x: float, far_y: float, ox: float, oy: float,
               ix: float, iy: float, limit: float) -> bool:
    """Whether the 2D ray segment [0, limit] misses a box given by the sides it would enter
    (``near_x``, ``near_y``: the min sides where ``i`` is positive, else the max) and leave
    (``far_x``, ``far_y``): the decision of ``ray_box_entry2(...) == inf``, the same products
    compared the same way, with the sides picked once per ray instead of per box. Only for a
    ray with finite ``ix`` and ``iy`` (no NaN arises then). Plain floats in (the caller reads
    the box): an inlined helper taking an array reference-counts it on every call."""
    t0 = greatest(greatest(0.0, (near_x - ox) * ix), (near_y - oy) * iy)
    t1 = least(least(limit, (far_x - ox) * ix), (far_y - oy) * iy)
    return t0 > t1


@inline_kernel
def walk_begin(x0: float, y0: float, cell: float, nx: int, ny: int, ox: float, oy: float,
               dx: float, dy: float, ix: float, iy: float, limit: float) -> tuple[bool, Walk]:
    """Where the 2D ray segment [0, limit] (direction ``d``, inverse ``i``) enters the grid:
    ``(entered, walk)``, ``entered`` False (and the walk meaningless) when the segment misses
    the grid's box."""
    # clip the ray segment to the grid's box
    t0, t1 = _clip_slab(ox, ix, x0, x0 + nx * cell, 0.0, limit)
    t0, t1 = _clip_slab(oy, iy, y0, y0 + ny * cell, t0, t1)
    if t0 > t1:
        return False, (0, 0, 0, 0, math.inf, math.inf, math.inf, math.inf)
    # the origin's cell, which waits on no division by the direction
    cx = cell_at(math.floor((ox - x0) / cell), nx)
    cy = cell_at(math.floor((oy - y0) / cell), ny)
    if t0 > 0.0:
        # the ray enters the grid's box from outside (at t0 0, ox + t0 * dx is ox)
        cx = cell_at(math.floor((ox + t0 * dx - x0) / cell), nx)
        cy = cell_at(math.floor((oy + t0 * dy - y0) / cell), ny)
    step_x = 1 if dx > 0.0 else -1
    step_y = 1 if dy > 0.0 else -1
    if math.isinf(ix):
        # parallel to the vertical cell lines
        next_x = math.inf
        delta_x = math.inf
    else:
        next_x = (x0 + (cx + (1 if dx > 0.0 else 0)) * cell - ox) * ix
        delta_x = cell * abs(ix)
    if math.isinf(iy):
        # parallel to the horizontal cell lines
        next_y = math.inf
        delta_y = math.inf
    else:
        next_y = (y0 + (cy + (1 if dy > 0.0 else 0)) * cell - oy) * iy
        delta_y = cell * abs(iy)
    return True, (cx, cy, step_x, step_y, next_x, next_y, delta_x, delta_y)


@inline_kernel
def walk_next(walk: Walk, nx: int, ny: int) -> tuple[bool, Walk]:
    """The next cell of a walk, across the nearer of the next vertical and horizontal cell
    lines: ``(in_grid, walk)``."""
    cx, cy, step_x, step_y, next_x, next_y, delta_x, delta_y = walk
    if next_x < next_y:
        cx += step_x
        next_x += delta_x
    else:
        cy += step_y
        next_y += delta_y
    return (0 <= cx < nx and 0 <= cy < ny), (cx, cy, step_x, step_y, next_x, next_y, delta_x,
                                             delta_y)


@kernel
def moving_block(k: int, mnx: int, mny: int, capacity: int, outside_cap: int,
                 marked_cap: int) -> np.ndarray:
    """A moving grid's block for ``links`` (module docstring), empty (``gridded`` 0) until
    :func:`bin_moving` fills it; room for ``capacity`` entries, ``outside_cap`` colliders
    outside the frame and ``marked_cap`` marked grid cells."""
    block = np.zeros(MG_HEAD + outside_cap + mnx * mny + 1 + capacity + marked_cap, np.int64)
    block[MG_MARKED_CAP] = marked_cap
    block[MG_K] = k
    block[MG_NX] = mnx
    block[MG_NY] = mny
    block[MG_CAPACITY] = capacity
    block[MG_OUTSIDE_CAP] = outside_cap
    return block


@inline_kernel
def coarse_of(c: int, inv_k: float) -> int:
    """The coarse column (or row) of grid column (or row) ``c``: ``int(c * (1 / K))``, which
    is ``c // K`` or, at an exact multiple of K, maybe one less (the product rounds down): a
    monotone map, the same for the binning and the walk, so each coarse cell still holds
    every moving collider over its grid cells. A product, not an integer division (tens of
    cycles, at every cell a ray crosses)."""
    return truncated(c * inv_k)


@callee
def _coarse_cells(rows: np.ndarray, h: int, x0: float, y0: float, cell: float, nx: int,
                  ny: int, inv_k: float) -> tuple[int, int, int, int]:
    """The coarse cells ``(ax, bx, ay, by)`` (inclusive) collider h's box touches: its grid
    cells (:func:`_box_cells`, grown by the margin) mapped by :func:`coarse_of`, as a walk
    maps its cells."""
    ax, bx, ay, by = _box_cells(rows, h, x0, y0, cell, nx, ny)
    return (coarse_of(ax, inv_k), coarse_of(bx, inv_k), coarse_of(ay, inv_k),
            coarse_of(by, inv_k))


@inline_kernel
def _clear_marks(grid: np.ndarray, cells: int, links: np.ndarray, marked: int, count: int
                 ) -> None:
    """Clear the marks of the ``count`` grid cells listed at ``links[marked ..]`` in the
    starts ``grid[cells ..]``."""
    for i in range(count):
        grid[cells + links[marked + i]] &= CELL_START


@callee
def bin_moving(rows: np.ndarray, links: np.ndarray, block: int, handles: np.ndarray,
               frame: tuple[float, float, float, int, int], starts_at: tuple[np.ndarray, int]
               ) -> None:
    """Rebin the moving colliders ``handles`` into the moving grid's block at
    ``links[block]`` in place (module docstring), for the grid ``frame`` ``(x0, y0, cell,
    nx, ny)``, whose cells' starts are ``grid[cells ..]`` (``starts_at`` is ``(grid, cells)``,
    :func:`grid_of`): the last binning's marks cleared, then the grid cells the binned
    colliders touch marked (module docstring). Colliders whose
    boxes leave the frame go in the outside list; when they do not fit it, or the entries or
    the marked cells exceed their capacities, ``gridded`` is left 0 (the rays walk the moving
    tree) and no cell is marked."""
    x0, y0, cell, nx, ny = frame
    grid, cells = starts_at
    inv_k = 1.0 / links[block + MG_K]
    mnx = links[block + MG_NX]
    mny = links[block + MG_NY]
    capacity = links[block + MG_CAPACITY]
    outside_cap = links[block + MG_OUTSIDE_CAP]
    links[block + MG_GRIDDED] = 0
    outside = block + MG_HEAD
    starts = outside + outside_cap
    items = starts + mnx * mny + 1
    marked = items + capacity
    # the last binning's marks cleared (before anything can fail: an unbinned grid marks none)
    _clear_marks(grid, cells, links, marked, links[block + MG_MARKED])
    links[block + MG_MARKED] = 0
    x1 = x0 + nx * cell
    y1 = y0 + ny * cell
    for c in range(mnx * mny + 1):
        links[starts + c] = 0
    n_out = 0
    for i in range(handles.shape[0]):
        h = handles[i]
        if rows[h, LO] < x0 or rows[h, LO + 1] < y0 or rows[h, HI] > x1 or rows[h, HI + 1] > y1:
            # the box leaves the frame: every ray tests it
            if n_out == outside_cap:
                return
            links[outside + n_out] = h
            n_out += 1
            continue
        ax, bx, ay, by = _coarse_cells(rows, h, x0, y0, cell, nx, ny, inv_k)
        for cy in range(ay, by + 1):
            for cx in range(ax, bx + 1):
                links[starts + cx + mnx * cy + 1] += 1
    for c in range(mnx * mny):
        links[starts + c + 1] += links[starts + c]
    if links[starts + mnx * mny] > capacity:
        # grown colliders: more entries than were reserved (until the next pack)
        return
    fill = np.empty(mnx * mny, np.int64)
    for c in range(mnx * mny):
        fill[c] = links[starts + c]
    # each binned collider into its coarse cells, and the grid cells its grown box touches
    # marked (each listed once; no room reserved: no marks, the rays read every cell's
    # coarse cell)
    marked_cap = links[block + MG_MARKED_CAP]
    n_marked = 0
    for i in range(handles.shape[0]):
        h = handles[i]
        if rows[h, LO] < x0 or rows[h, LO + 1] < y0 or rows[h, HI] > x1 or rows[h, HI + 1] > y1:
            continue
        ax, bx, ay, by = _coarse_cells(rows, h, x0, y0, cell, nx, ny, inv_k)
        for cy in range(ay, by + 1):
            for cx in range(ax, bx + 1):
                c = cx + mnx * cy
                links[items + fill[c]] = h
                fill[c] += 1
        if marked_cap == 0:
            continue
        ax, bx, ay, by = _box_cells(rows, h, x0, y0, cell, nx, ny)
        for cy in range(ay, by + 1):
            for cx in range(ax, bx + 1):
                at = cells + cx + nx * cy
                if grid[at] >= CELL_MOVING:
                    continue
                if n_marked == marked_cap:
                    # more cells than were reserved (grown colliders, until the next pack):
                    # the rays walk the moving tree, and no cell stays marked
                    _clear_marks(grid, cells, links, marked, n_marked)
                    return
                grid[at] |= CELL_MOVING
                links[marked + n_marked] = cx + nx * cy
                n_marked += 1
    links[block + MG_MARKED] = n_marked
    links[block + MG_OUTSIDE] = n_out
    links[block + MG_GRIDDED] = 1


# ---------------------------------------------------------------------------------------------
# sub-grids in crowded cells

#: Values in a sub-grid block's head (:func:`subdivide`): its side S.
SUB_HEAD = 1


@kernel
def subdivide(rows: np.ndarray, tags: np.ndarray, handles: np.ndarray, start: np.ndarray,
              items: np.ndarray, frame: tuple[float, float, float, int, int],
              crowded: int, per_cell: float, max_side: int, limit: int
              ) -> tuple[np.ndarray, np.ndarray]:
    """The grid's CSR arrays ``(start, items)`` (:func:`bin_colliders`) with each crowded
    cell (at least ``crowded`` entries) split into a sub-grid of S x S square cells over the
    cell's own square, S sized for ``per_cell`` entries a sub-cell (at most ``max_side``):
    so that a ray entering a cell where the colliders crowd (a cluster) tests the few of its
    sub-cells it crosses instead of all of them. ``frame`` is the grid's ``(x0, y0, cell, nx,
    ny)``.

    A split cell's range holds one entry, ``-1 - b``: its block begins at ``items[b]`` (after
    the cells' entries), ``S``, the sub-cells' starts (S * S + 1, relative to the block's
    entries) and the entries, each sub-cell binned as the grid bins (:func:`collider_cells`
    on the sub-grid: the same supercover and margin, relative to the sub-cell), in the
    cell's order (increasing). Cells are split in order while the entries stay within
    ``limit``; the others keep their entries."""
    x0, y0, cell, nx, ny = frame
    m = nx * ny
    side = np.zeros(m, np.int64)
    size = np.zeros(m, np.int64)
    out = np.empty(64, np.int64)
    total = start[m]
    for c in range(m):
        n = start[c + 1] - start[c]
        if n < crowded:
            continue
        s = min(max(int(math.ceil(math.sqrt(n / per_cell))), 2), max_side)
        sc = cell / s
        sx0 = x0 + (c % nx) * cell
        sy0 = y0 + (c // nx) * cell
        count = 0
        for j in range(start[c], start[c + 1]):
            got, out = collider_cells(rows, tags, handles[items[j]], sx0, sy0, sc, s, s, out)
            count += got
        # the block (head, starts, entries) and the cell's one entry, for its n entries
        grown = SUB_HEAD + s * s + 1 + count + 1 - n
        if total + grown > limit:
            continue
        side[c] = s
        size[c] = SUB_HEAD + s * s + 1 + count
        total += grown
    new_start = np.zeros(m + 1, np.int64)
    for c in range(m):
        new_start[c + 1] = new_start[c] + (1 if side[c] > 0 else start[c + 1] - start[c])
    flat = new_start[m]
    new_items = np.empty(total, np.int64)
    at = flat
    for c in range(m):
        if side[c] == 0:
            # (a loop, not a slice assigned from an array: numba would compile its
            # shape-mismatch error and the message's formatting, 2.5 s of a cold compile)
            for j in range(start[c + 1] - start[c]):
                new_items[new_start[c] + j] = items[start[c] + j]
            continue
        s = side[c]
        sc = cell / s
        sx0 = x0 + (c % nx) * cell
        sy0 = y0 + (c // nx) * cell
        new_items[new_start[c]] = -1 - at
        new_items[at] = s
        first = at + SUB_HEAD
        entries = first + s * s + 1
        for q in range(s * s + 1):
            new_items[first + q] = 0
        for j in range(start[c], start[c + 1]):
            got, out = collider_cells(rows, tags, handles[items[j]], sx0, sy0, sc, s, s, out)
            for i in range(got):
                new_items[first + out[i] + 1] += 1
        for q in range(s * s):
            new_items[first + q + 1] += new_items[first + q]
        # (each sub-cell's fill position, kept in its start until the fill is done)
        for j in range(start[c], start[c + 1]):
            got, out = collider_cells(rows, tags, handles[items[j]], sx0, sy0, sc, s, s, out)
            for i in range(got):
                q = out[i]
                new_items[entries + new_items[first + q]] = items[j]
                new_items[first + q] += 1
        # the fill moved each start to its successor's: shift them back
        for q in range(s * s, 0, -1):
            new_items[first + q] = new_items[first + q - 1]
        new_items[first] = 0
        at += size[c]
    return new_start, new_items
