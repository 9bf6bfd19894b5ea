"""The Simulation's gather grid: a uniform grid over the boxes of a 2D scene's static colliders,
so that each body's gather of the colliders near its move (:func:`swept._kernels.sim.
advance_range`) looks up a few cells instead of walking the static tree.

It lists exactly what the tree walk lists (:func:`swept._kernels.sim._gather_into`), in the
same order: every static collider whose box touches the query (sharing a face counts; an
empty box, ``lo > hi``, touches nothing), in the static tree's item order (the tree keeps its
items in depth-first order, left child first, which is the order its box walk lists them in),
then the moving tree's and the planes, filtered by the mask. So a body's cache, and every
loop over it, is bit for bit what the tree gave.

Why the same set: each collider is binned into every cell its box covers (clamped to the
grid), and a query looks up every cell its own box covers (clamped alike). Cell indices are
monotone in the coordinate, so a box touching the query shares at least one cell with it;
the collider is reported only from the first shared cell (the larger of the two lower cell
corners), so once. Measured on bench_sim's scene (10,000 balls among 1,000 walls, one query
a ball round its path): the tree walk 270 ns a query (0.5 colliders found).

Layout (:data:`GatherGrid`): ``frame`` (3,) float64 ``x0 y0 inv_cell``, ``dims`` (2,) int64
``nx ny`` (0 0: no grid; the tree is walked), ``starts`` (nx * ny + 1,) int64 and ``ranks``
(E,) int64 in CSR form: cell ``cx + nx * cy`` holds the static tree item positions (ranks)
``ranks[starts[c] : starts[c + 1]]``, increasing; ``boxes`` (E, 4) float64, each entry's
collider box ``lo x, lo y, hi x, hi y``, and ``firsts`` (E, 2) int64, the first cell that box
covers along x and y. A copy of the collider table's boxes, one beside each entry: a lookup
reads a cell's boxes one after another (32 bytes an entry), and reads an entry's rank only
when its box touches the query, where the table's rows are 184 bytes apart behind the tree's
item list, and needs no cell index computed again. The Simulation builds the grid again
whenever the scene's ``links`` change, which a static collider's change always does (the
static tree is built again), so the copy is never stale. Measured on bench_sim's scene
(10,000 path boxes, one thread, CPU, alternated in one process): 2.1 -> 1.6 ms a gather of
every ball with a box a rank (read through the entry's rank: each box's load waited on the
rank's, a third of the move by perf, 2026-12-03); with a box an entry, see
:func:`grid_static_into`. ``bounds`` (nx * ny, 4) float64: each cell's union of its entries'
boxes, so that a query skips a cell none of whose boxes it touches without reading them
(bench_sim's path boxes: 1.65 cells with entries and 3.6 entries a query, of which the union
test skips 0.85 cells and 1.36 entries; 0.72 entries touch).
"""

from __future__ import annotations

import math
from typing import Any, NamedTuple

import numpy as np

from ..constants import SIM_GRID_CELLS_PER_COLLIDER, SIM_GRID_MAX_ENTRIES_PER_COLLIDER
from . import inline_kernel, kernel
from .scene import (
    H_DIM,
    H_ITEMS,
    H_NODE_LINKS,
    H_PLANE_COUNT,
    H_PLANES,
    H_STATIC_NODES,
    HI,
    LAYER,
    LO,
    Scene,
)

__all__ = ["GatherGrid", "NO_GRID", "no_grid", "build_gather_grid", "grid_static_into",
           "planes_and_layers"]

class GatherGrid(NamedTuple):
    """The gather grid as the kernels take it (module docstring): ``frame`` (3,) float64,
    ``dims`` (2,) int64, ``starts`` and ``ranks`` int64 (CSR), each entry's collider box
    ``boxes`` (E, 4) float64 and first cells ``firsts`` (E, 2) int64, and each cell's
    ``bounds`` (nx * ny, 4) float64, the union of its entries' boxes (``lo x, lo y, hi x, hi
    y``; an empty cell's ``+inf +inf -inf -inf``). A named tuple of arrays, so
    that a kernel can pass it on without reference counts
    (:func:`swept._kernels.world.unowned`)."""

    frame: np.ndarray
    dims: np.ndarray
    starts: np.ndarray
    ranks: np.ndarray
    boxes: np.ndarray
    firsts: np.ndarray
    bounds: np.ndarray


@inline_kernel
def _no_cells() -> GatherGrid:
    """A grid of no cells (in compiled code: :func:`build_gather_grid`'s answer when a grid
    would not pay)."""
    return GatherGrid(np.zeros(3), np.zeros(2, np.int64), np.zeros(1, np.int64),
                      np.zeros(0, np.int64), np.zeros((0, 4)), np.zeros((0, 2), np.int64),
                      np.zeros((0, 4)))


def no_grid() -> GatherGrid:
    """A grid of no cells: the gathers walk the static tree (built in Python: the same
    function as :func:`_no_cells`, uncompiled)."""
    compiled: Any = _no_cells
    grid: GatherGrid = compiled.py_func()
    return grid


#: The grid of no cells (shared, never written).
NO_GRID = no_grid()


@inline_kernel
def _cell(v: float, lo: float, inv: float, n: int) -> int:
    """The cell index along one axis of coordinate v, clamped to ``0 .. n-1`` (monotone in
    v). Clamped as a float, before it becomes an integer: a coordinate far beyond the grid
    (a query box 1e30 wide) would overflow the conversion."""
    c = (v - lo) * inv
    if c < 0.0:
        return 0
    if c >= n:
        return n - 1
    return int(c)


@inline_kernel
def _binned(rows: np.ndarray, h: int, x0: float, y0: float, inv: float, nx: int, ny: int
            ) -> tuple[bool, int, int, int, int]:
    """Whether collider h's box is binned (not empty), and the cells ``ax bx ay by``
    (inclusive) it covers."""
    if rows[h, LO] > rows[h, HI] or rows[h, LO + 1] > rows[h, HI + 1]:
        return False, 0, -1, 0, -1
    return (True, _cell(rows[h, LO], x0, inv, nx), _cell(rows[h, HI], x0, inv, nx),
            _cell(rows[h, LO + 1], y0, inv, ny), _cell(rows[h, HI + 1], y0, inv, ny))


@kernel
def build_gather_grid(scene: Scene) -> GatherGrid:
    """The gather grid of ``scene``'s static colliders, or :func:`no_grid`'s when it would
    not pay or not be exact: a 3D scene, an empty static tree, a static box with an infinite
    bound, or more entries than :data:`~swept.constants.SIM_GRID_MAX_ENTRIES_PER_COLLIDER`
    a collider (colliders much larger than the cells)."""
    links = scene.links
    rows = scene.rows
    none = _no_cells()
    count = links[links[H_NODE_LINKS] + 2] if links[H_STATIC_NODES] > 0 else 0
    if links[H_DIM] != 2 or count == 0 or links[links[H_NODE_LINKS] + 1] != 0:
        return none
    items = links[H_ITEMS]
    x0 = y0 = math.inf
    x1 = y1 = -math.inf
    boxes = 0
    for k in range(count):
        h = links[items + k]
        if rows[h, LO] > rows[h, HI] or rows[h, LO + 1] > rows[h, HI + 1]:
            # an empty box: never found, never binned
            continue
        for a in range(2):
            if math.isinf(rows[h, LO + a]) or math.isinf(rows[h, HI + a]):
                return none
        x0 = min(x0, rows[h, LO])
        y0 = min(y0, rows[h, LO + 1])
        x1 = max(x1, rows[h, HI])
        y1 = max(y1, rows[h, HI + 1])
        boxes += 1
    if boxes == 0:
        return none
    # square cells, about SIM_GRID_CELLS_PER_COLLIDER of them a collider over the extent
    w = max(x1 - x0, 0.0)
    hgt = max(y1 - y0, 0.0)
    side = max(w, hgt)
    if side == 0.0:
        return none
    area = max(w * hgt, side * side / boxes)
    cell = math.sqrt(area / (SIM_GRID_CELLS_PER_COLLIDER * boxes))
    nx = int(min(math.floor(w / cell), 4.0 * boxes)) + 1
    ny = int(min(math.floor(hgt / cell), 4.0 * boxes)) + 1
    inv = 1.0 / cell
    starts = np.zeros(nx * ny + 1, np.int64)
    total = 0
    for k in range(count):
        binned, ax, bx, ay, by = _binned(rows, links[items + k], x0, y0, inv, nx, ny)
        if not binned:
            continue
        total += (bx - ax + 1) * (by - ay + 1)
        if total > SIM_GRID_MAX_ENTRIES_PER_COLLIDER * boxes:
            return none
        for cy in range(ay, by + 1):
            for cx in range(ax, bx + 1):
                starts[cx + nx * cy + 1] += 1
    for c in range(nx * ny):
        starts[c + 1] += starts[c]
    ranks = np.empty(total, np.int64)
    fill = starts[:-1].copy()
    # each entry's box and first cells, beside its rank
    entry_boxes = np.empty((total, 4))
    firsts = np.empty((total, 2), np.int64)
    # each cell's union of its entries' boxes
    bounds = np.empty((nx * ny, 4))
    bounds[:, :2] = math.inf
    bounds[:, 2:] = -math.inf
    # items in rank order: each cell's run is increasing
    for k in range(count):
        h = links[items + k]
        binned, ax, bx, ay, by = _binned(rows, h, x0, y0, inv, nx, ny)
        if not binned:
            continue
        for cy in range(ay, by + 1):
            for cx in range(ax, bx + 1):
                c = cx + nx * cy
                e = fill[c]
                ranks[e] = k
                entry_boxes[e, 0] = rows[h, LO]
                entry_boxes[e, 1] = rows[h, LO + 1]
                entry_boxes[e, 2] = rows[h, HI]
                entry_boxes[e, 3] = rows[h, HI + 1]
                firsts[e, 0] = ax
                firsts[e, 1] = ay
                bounds[c, 0] = min(bounds[c, 0], rows[h, LO])
                bounds[c, 1] = min(bounds[c, 1], rows[h, LO + 1])
                bounds[c, 2] = max(bounds[c, 2], rows[h, HI])
                bounds[c, 3] = max(bounds[c, 3], rows[h, HI + 1])
                fill[c] += 1
    frame = np.array([x0, y0, inv])
    dims = np.array([nx, ny], np.int64)
    return GatherGrid(frame, dims, starts, ranks, entry_boxes, firsts, bounds)


@inline_kernel
def grid_static_into(scene: Scene, grid: GatherGrid, query: np.ndarray, out: np.ndarray,
                     row: int) -> int:
    """The static colliders whose boxes touch ``query``, looked up in ``grid`` (which must be
    built and not empty), written to ``out[row]`` as the static tree's walk in
    :func:`swept._kernels.sim._gather_into` writes them (the same handles, in the same order;
    only the first ``out.shape[1]``); returns how many touch. The moving tree's walk, the
    planes and the mask follow in :func:`swept._kernels.sim.gather_into`."""
    frame, dims, starts, ranks, boxes, firsts, bounds = grid
    links = scene.links
    cap = out.shape[1]
    qx0 = query[0]
    qy0 = query[1]
    qx1 = query[3]
    qy1 = query[4]
    found = 0
    # (a 2D scene: box_gather reads no z of an empty query)
    if not (qx0 > qx1 or qy0 > qy1):
        nx = dims[0]
        ny = dims[1]
        gx = frame[0]
        gy = frame[1]
        inv = frame[2]
        items = links[H_ITEMS]
        cx0 = _cell(qx0, gx, inv, nx)
        cx1 = _cell(qx1, gx, inv, nx)
        cy0 = _cell(qy0, gy, inv, ny)
        cy1 = _cell(qy1, gy, inv, ny)
        for cy in range(cy0, cy1 + 1):
            for cx in range(cx0, cx1 + 1):
                c = cx + nx * cy
                if (bounds[c, 0] > qx1 or bounds[c, 2] < qx0 or bounds[c, 1] > qy1
                        or bounds[c, 3] < qy0):
                    # the union of the cell's boxes misses the query, so each of them does
                    # (an empty cell's too): the entry loop would report none of them
                    continue
                for e in range(starts[c], starts[c + 1]):
                    # the entry's own box (its rank is read only for a box that touches)
                    if (boxes[e, 0] > qx1 or boxes[e, 2] < qx0 or boxes[e, 1] > qy1
                            or boxes[e, 3] < qy0):
                        # (binned boxes are never empty)
                        continue
                    # reported from the first cell it shares with the query only: the larger
                    # of its first cell and the query's, on each axis
                    if ((cx > cx0 and firsts[e, 0] < cx) or (cy > cy0 and firsts[e, 1] < cy)):
                        continue
                    k = ranks[e]
                    if found < cap:
                        # insertion by rank: the static tree's order
                        j = found
                        for _ in range(found):
                            if out[row, j - 1] <= k:
                                break
                            out[row, j] = out[row, j - 1]
                            j -= 1
                        out[row, j] = k
                    found += 1
        # ranks to handles
        for j in range(min(found, cap)):
            out[row, j] = links[items + out[row, j]]
    return found


@inline_kernel
def planes_and_layers(links: np.ndarray, tags: np.ndarray, mask: int, out: np.ndarray,
                      row: int, found: int) -> int:
    """The end of a gather whose tree walks wrote ``found`` colliders to ``out[row]``: the
    planes after them, then, when all fit in the row, only the colliders in a layer of
    ``mask``, in order (returns how many); when they do not fit, how many in any layer."""
    cap = out.shape[1]
    first_plane = links[H_PLANES]
    for j in range(first_plane, first_plane + links[H_PLANE_COUNT]):
        if found < cap:
            out[row, found] = links[j]
        found += 1
    if found > cap:
        return found
    # keep the colliders in a layer of the mask, in order
    kept = 0
    for c in range(found):
        h = out[row, c]
        if (tags[h, LAYER] & mask) != 0:
            out[row, kept] = h
            kept += 1
    return kept
