"""Broadphase: a uniform grid over 2D colliders, one build and one walk.

The World bins its static, bounded 2D colliders in a grid of ``nx`` by ``ny`` square cells of
side ``cell`` from ``(x0, y0)`` when that beats its BVH for the scene
(:mod:`swept.broadphase` decides); ray casts then walk the cells the ray crosses, in order
(2D DDA, :func:`walk_begin` / :func:`walk_next`), instead of descending the static tree.

Layout (packed into the scene's arrays by :func:`swept._kernels.world.pack`): ``start``
(nx * ny + 1,) int64 and ``items`` (E,) int64 in CSR form (cell ``cx + nx * cy`` holds
``items[start[c] : start[c + 1]]``, handles), and one box per entry, stored in line with it
so that a walk reads a cell's entries from one run of memory (:func:`entry_rows`): a
segment's crossing data, any other collider's box grown by
:data:`~swept.constants.GRID_MARGIN` of a cell. Grown, because the walk's box test must not
reject a hit the narrowphase finds: a ray through a segment's end at a corner of its box can
cross the box's edges an ulp apart in t (a miss) while ``ray_segment`` puts the crossing on
the segment (a hit).

A walk's state is a :data:`Walk` tuple ``(cx, cy, step_x, step_y, next_x, next_y, delta_x,
delta_y)``: the cell, the step along each axis, t at the next vertical and horizontal cell
lines, and between successive ones.
"""

from __future__ import annotations

import math

import numpy as np

from ..constants import GRID_MARGIN
from . import inline_kernel, kernel
from .bvh import _clip_slab
from .ray import RAY_PARALLEL_SINE, _unit2
from .scene import HI, KIND, KIND_CAPSULE2, KIND_SEGMENT, LO

#: The state of a DDA walk (module docstring).
Walk = tuple[int, int, int, int, float, float, float, float]


@kernel
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


@kernel
def collider_cells(rows: np.ndarray, tags: np.ndarray, h: int, x0: float, y0: float,
                   cell: float, nx: int, ny: int, out: np.ndarray) -> tuple[int, np.ndarray]:
    """The cells (indices ``cx + nx * cy``) collider h is binned into, written to ``out``
    (grown when too short): returns their count and the (maybe new) ``out``.

    A segment, and a 2D capsule (its core grown by its radius), goes into the cells its shape
    grown by a square of half-side :data:`GRID_MARGIN` of a cell (plus the radius) touches: in
    each column of cells its box spans, the rows between the lowest and highest y of the core
    over the column's x range widened by that half-side, themselves widened by it (a
    conservative supercover: every cell within the margin of the shape, a subset of the box's
    cells). Every other kind goes into every cell its box, grown by the margin, touches."""
    ax, bx, ay, by = _box_cells(rows, h, x0, y0, cell, nx, ny)
    need = (bx - ax + 1) * (by - ay + 1)
    if need > out.shape[0]:
        out = np.empty(max(need, 2 * out.shape[0]), np.int64)
    n = 0
    k = tags[h, KIND]
    if k in (KIND_SEGMENT, KIND_CAPSULE2):
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
def entry_count(rows: np.ndarray, tags: np.ndarray, handles: np.ndarray, x0: float, y0: float,
                cell: float, nx: int, ny: int) -> int:
    """How many entries binning ``handles`` would make (:func:`collider_cells`)."""
    out = np.empty(64, np.int64)
    total = 0
    for k in range(handles.shape[0]):
        n, out = collider_cells(rows, tags, handles[k], x0, y0, cell, nx, ny, out)
        total += n
    return total


@kernel
def bin_colliders(rows: np.ndarray, tags: np.ndarray, handles: np.ndarray, x0: float,
                  y0: float, cell: float, nx: int, ny: int) -> tuple[np.ndarray, np.ndarray]:
    """Bin ``handles`` into the grid (:func:`collider_cells`): the CSR arrays ``start``
    (nx * ny + 1,) and ``items`` (E,) int64, entries in each cell by increasing handle order
    of ``handles``."""
    start = np.zeros(nx * ny + 1, np.int64)
    out = np.empty(64, np.int64)
    for k in range(handles.shape[0]):
        n, out = collider_cells(rows, tags, handles[k], x0, y0, cell, nx, ny, out)
        for i in range(n):
            start[out[i] + 1] += 1
    for c in range(nx * ny):
        start[c + 1] += start[c]
    fill = start[:-1].copy()
    items = np.empty(start[nx * ny], np.int64)
    for k in range(handles.shape[0]):
        h = handles[k]
        n, out = collider_cells(rows, tags, h, x0, y0, cell, nx, ny, out)
        for i in range(n):
            c = out[i]
            items[fill[c]] = h
            fill[c] += 1
    return start, items


@kernel
def entry_rows(rows: np.ndarray, tags: np.ndarray, items: np.ndarray, margin: float
               ) -> np.ndarray:
    """The grid's entry rows (E, 6), one per entry ``items[j]``: a segment's crossing data
    ``ax ay 1 ex ey parallel`` (``e = b - a`` and the parallel threshold
    ``RAY_PARALLEL_SINE * |e|``, as ``ray_segment`` computes them), any other collider's box
    grown by ``margin``: ``minx miny 0 maxx maxy 0`` (column 2 tells them apart)."""
    m = items.shape[0]
    out = np.zeros((m, 6))
    for j in range(m):
        h = items[j]
        if tags[h, KIND] == KIND_SEGMENT:
            ex = rows[h, 2] - rows[h, 0]
            ey = rows[h, 3] - rows[h, 1]
            out[j, 0] = rows[h, 0]
            out[j, 1] = rows[h, 1]
            out[j, 2] = 1.0
            out[j, 3] = ex
            out[j, 4] = ey
            out[j, 5] = RAY_PARALLEL_SINE * _unit2(ex, ey)[2]
        else:
            out[j, 0] = rows[h, LO] - margin
            out[j, 1] = rows[h, LO + 1] - margin
            out[j, 3] = rows[h, HI] + margin
            out[j, 4] = rows[h, HI + 1] + margin
    return out


@inline_kernel
def box_missed(boxes: np.ndarray, j: int, ox: float, oy: float, ix: float, iy: float,
               near_x: int, near_y: int, limit: float) -> bool:
    """Whether the 2D ray segment [0, limit] misses row j of a (., 6) box array (``minx miny
    . maxx maxy .``): the decision of ``ray_box_entry2(...) == inf``, the same products
    compared the same way, with the slab sides picked once per ray (``near_x``, ``near_y``:
    the columns entered first, 0 or 3 and 1 or 4) instead of per box. Only for a ray with
    finite ``ix`` and ``iy`` (no NaN arises then)."""
    t0 = max(max(0.0, (boxes[j, near_x] - ox) * ix), (boxes[j, near_y] - oy) * iy)
    t1 = min(min(limit, (boxes[j, 3 - near_x] - ox) * ix), (boxes[j, 5 - near_y] - oy) * iy)
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
    cx = min(max(int(math.floor((ox + t0 * dx - x0) / cell)), 0), nx - 1)
    cy = min(max(int(math.floor((oy + t0 * dy - y0) / cell)), 0), ny - 1)
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
