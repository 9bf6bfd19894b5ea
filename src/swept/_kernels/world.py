"""World kernels: the queries over a scene (:mod:`swept._kernels.scene`), and its packing.

Every kernel takes the scene as one :class:`~swept._kernels.scene.Scene` argument and a
query's inputs and outputs as small named tuples of arrays (:class:`Casts`, :class:`Hits`,
:class:`Balls`, :class:`Touches`), so none has more than a handful of parameters. The batch
kernels are range kernels, ``kernel(first, stop, *args)``, which
:func:`swept._parallel.parallel_for` runs over chunks of a batch on the calling thread and
its helpers; the scalar World queries call :func:`cast_one` with numbers in and out.

Each query walks the static colliders (the uniform grid when the scene has one and the query
is a ray, else the static BVH), then the moving BVH, then the unbounded colliders (planes),
keeping the best hit; the trees and the grid are walked by the one traversal of
:mod:`swept._kernels.bvh` and :mod:`swept._kernels.grid`, the colliders tested by the one
narrowphase of :mod:`swept._kernels.scene`. Every result uses one 3D-shaped encoding (z
components 0 in 2D).
"""

from __future__ import annotations

import math
from typing import Any, NamedTuple

import numpy as np
from llvmlite import ir
from numba import carray, types
from numba.core import cgutils
from numba.extending import intrinsic

from ..constants import GRID_SUB_MAX_SIDE, RAY_ORDER_MAX_SIDE, RAY_ORDER_PER_BUCKET
from . import callee, entry, inline_kernel, kernel
from .bvh import (
    STACK_SIZE,
    Probe,
    box_entry_at,
    box_gather,
    leaf_items,
    lean_probe,
    make_probe,
    ray_box_entry2,
    ray_first_leaf,
    ray_next_leaf,
    refit,
)
from .geom import length3, unit2
from .grid import (
    CELL_MOVING,
    CELL_START,
    MG_GRIDDED,
    MG_HEAD,
    MG_K,
    MG_MARKED_CAP,
    MG_NX,
    MG_NY,
    MG_OUTSIDE,
    MG_OUTSIDE_CAP,
    ROW_BOX,
    ROW_CAPSULE,
    ROW_CIRCLE,
    ROW_POLYGON,
    ROW_SEGMENT,
    SUB_HEAD,
    Walk,
    bin_moving,
    box_missed,
    coarse_of,
    coded_entries,
    entry_of,
    grid_block,
    grid_of,
    has_units,
    row_tag,
    unit_at,
    walk_begin,
    walk_next,
)
from .hints import _prefetch_item
from .ray import (
    RAY_PARALLEL_SINE,
    _unit2,
    ray_aabb2,
    ray_capsule2,
    ray_circle,
    ray_circle_distance,
    ray_polygon,
    segment_crossing,
)
from .scalars import least, truncated
from .scene import (
    COUNT,
    FIRST,
    FLAG_SKIP,
    FLAGS,
    H_DIM,
    H_FRAME,
    H_GRID_BOXES,
    H_GRID_CELLS,
    H_GRID_ITEMS,
    H_GRID_NX,
    H_GRID_NY,
    H_GRID_UNITS,
    H_ITEMS,
    H_MOVING_GRID,
    H_MOVING_NODES,
    H_MOVING_ROOT,
    H_NODE_LINKS,
    H_PLANE_COUNT,
    H_PLANES,
    H_STATIC_NODES,
    HEADER,
    HI,
    KIND,
    KIND_AABB2,
    KIND_AABB3,
    KIND_CAPSULE2,
    KIND_CAPSULE3,
    KIND_CIRCLE,
    KIND_EMPTY,
    KIND_PLANE2,
    KIND_PLANE3,
    KIND_POLYGON,
    KIND_SEGMENT,
    KIND_SPHERE,
    LAYER,
    LO,
    Scene,
    cast_row,
    closest_row,
    contact_row,
    exit_row,
    segment_kind,
    visible,
)

__all__ = ["KIND_AABB2", "KIND_AABB3", "KIND_CAPSULE2", "KIND_CAPSULE3", "KIND_CIRCLE",
           "KIND_EMPTY", "KIND_PLANE2", "KIND_PLANE3", "KIND_POLYGON", "KIND_SEGMENT",
           "KIND_SPHERE", "Casts", "Hits", "Balls", "Touches", "pack", "cast_one",
           "describe", "unowned", "cast_at", "cast_range", "spatial_order", "gather_casts",
           "scatter_hits", "within",
           "zero_length_row", "rays_fine", "contact_range", "box_candidates", "ray_candidates",
           "refit_moving", "STACK_SIZE"]


class Casts(NamedTuple):
    """A batch of rays, or of balls cast along rays: ``origins, directions`` (n, d) float64
    (unit directions, unless cast with :data:`CAST_NORMALISE`), ``tmax`` (n,) float64 and
    ``radii`` (n,) float64 (read for balls)."""

    origins: np.ndarray
    directions: np.ndarray
    tmax: np.ndarray
    radii: np.ndarray


class Hits(NamedTuple):
    """A batch's nearest hits: ``handle`` (n,) int64 (-1 on a miss), ``t`` (n,) float64 (inf
    on a miss), ``point, normal`` (n, d) float64 (zero on a miss), ``inside`` (n,) bool."""

    handle: np.ndarray
    t: np.ndarray
    point: np.ndarray
    normal: np.ndarray
    inside: np.ndarray


class Balls(NamedTuple):
    """A batch of balls: ``centers`` (n, d) and ``radii`` (n,) float64."""

    centers: np.ndarray
    radii: np.ndarray


class Touches(NamedTuple):
    """A batch's deepest contacts: ``handle`` (n,) int64 (-1 when touching nothing),
    ``depth`` (n,) (0 then), ``point, normal`` (n, d) float64 (zero then)."""

    handle: np.ndarray
    depth: np.ndarray
    point: np.ndarray
    normal: np.ndarray


# ---------------------------------------------------------------------------------------------
# packing the broadphase


def pack(dim: int, static: tuple[np.ndarray, np.ndarray, np.ndarray],
         moving: tuple[np.ndarray, np.ndarray, np.ndarray], planes: np.ndarray,
         grid: tuple[np.ndarray, np.ndarray, np.ndarray, np.ndarray, np.ndarray,
                     np.ndarray] | None,
         moving_block: np.ndarray | None = None) -> tuple[np.ndarray, np.ndarray]:
    """The scene's ``nodes`` and ``links`` (:mod:`swept._kernels.scene`) from its parts: each
    tree as ``(nodes, links, handles)`` (a built tree over the boxes of ``handles``), the
    planes' handles, the grid as ``(frame (3,), dims (2,), start, items, rows (k, 6),
    handles (k,))`` (:mod:`swept._kernels.grid`) or None, and the moving colliders' grid
    block (:func:`swept._kernels.grid.moving_block`; only with a grid) or None."""
    s_nodes, s_links, s_handles = static
    m_nodes, m_links, m_handles = moving
    ms = s_nodes.shape[0]
    mm = m_nodes.shape[0]
    s_items = s_handles[s_links[3 * ms:]]
    m_items = m_handles[m_links[3 * mm:]]
    header = np.zeros(HEADER, np.int64)
    header[H_DIM] = dim
    header[H_STATIC_NODES] = ms
    header[H_MOVING_ROOT] = ms
    header[H_MOVING_NODES] = mm
    header[H_NODE_LINKS] = HEADER
    header[H_ITEMS] = HEADER + 3 * (ms + mm)
    header[H_PLANES] = header[H_ITEMS] + s_items.shape[0] + m_items.shape[0]
    header[H_PLANE_COUNT] = planes.shape[0]
    parts = [header, s_links[:3 * ms], m_links[:3 * mm], s_items, m_items, planes]
    node_parts = [s_nodes, m_nodes]
    frame = np.zeros((1, 6))
    at = header[H_PLANES] + planes.shape[0]
    if grid is not None:
        g_frame, dims, start, items, boxes, g_handles = grid
        header[H_GRID_NX], header[H_GRID_NY] = dims
        cells = grid_block(start, coded_entries(start, items, boxes))
        header[H_GRID_CELLS] = 2 * at
        header[H_GRID_ITEMS] = 2 * at + start.shape[0]
        header[H_GRID_BOXES] = ms + mm
        header[H_GRID_UNITS] = ms + mm + g_handles.shape[0]
        parts.append(cells)
        node_parts.append(boxes)
        frame[0, :3] = g_frame
        if moving_block is not None:
            header[H_MOVING_GRID] = at + cells.shape[0]
            parts.append(moving_block)
    header[H_FRAME] = sum(p.shape[0] for p in node_parts)
    node_parts.append(frame)
    return np.concatenate(node_parts), np.concatenate(parts).astype(np.int64, copy=False)


@inline_kernel
def static_tree(links: np.ndarray) -> tuple[int, int, int, int, int]:
    """The static tree's :data:`~swept._kernels.bvh.TreeAt`."""
    return 0, links[H_STATIC_NODES], links[H_NODE_LINKS], links[H_ITEMS], links[H_DIM]


@inline_kernel
def moving_tree(links: np.ndarray) -> tuple[int, int, int, int, int]:
    """The moving tree's :data:`~swept._kernels.bvh.TreeAt` (its items follow the static
    tree's, as many as the static root holds)."""
    ms = links[H_STATIC_NODES]
    static_items = links[links[H_NODE_LINKS] + 2] if ms > 0 else 0
    return (links[H_MOVING_ROOT], links[H_MOVING_NODES], links[H_NODE_LINKS] + 3 * ms,
            links[H_ITEMS] + static_items, links[H_DIM])


@kernel
def refit_moving(scene: Scene) -> None:
    """Refit the moving tree in place to its colliders' current boxes, and rebin them in the
    moving grid when the scene has one (:func:`swept._kernels.grid.bin_moving`)."""
    links = scene.links
    tree = moving_tree(links)
    refit(scene.nodes, links, tree, scene.rows[:, LO:])
    block = links[H_MOVING_GRID]
    if block > 0 and tree[1] > 0:
        frame = links[H_FRAME]
        first = tree[3] + links[tree[2] + 1]
        handles = links[first:first + links[tree[2] + 2]]
        bin_moving(scene.rows, links, block, handles,
                   (scene.nodes[frame, 0], scene.nodes[frame, 1], scene.nodes[frame, 2],
                    links[H_GRID_NX], links[H_GRID_NY]), (grid_of(links), links[H_GRID_CELLS]))


# ---------------------------------------------------------------------------------------------
# casts: rays, and balls as rays against grown colliders

#: ``_cast`` flag: a ball cast as a ray against the colliders grown by its radius.
CAST_GROWN = 1
#: ``_cast`` flag: the query's ``ignore`` set hides some colliders (``FLAG_SKIP`` rows).
CAST_SKIPPING = 2
#: :func:`cast_range` flag: the batch's directions have any nonzero length; each is divided by
#: its length before the cast.
CAST_NORMALISE = 4
#: :func:`cast_range` flag: the batch's rows are gathered in their spatial order
#: (:func:`spatial_order`): consecutive rays start close together, their first grid cells
#: already in cache, so no hints (:func:`_hint_cell`) are asked for them.
CAST_GATHERED = 8
#: The mask that sees every layer (``swept.world.ALL_LAYERS``).
ALL_LAYERS_MASK = 0xFFFFFFFF


@callee
def _row_cast(scene: Scene, h: int, ox: float, oy: float, oz: float, dx: float, dy: float,
              dz: float, r: float, tmax: float, grown: bool
              ) -> tuple[float, float, float, float, float, float, float, bool]:
    """:func:`~swept._kernels.scene.cast_row` as a real call, for the rare paths (planes, a
    grid entry that is not a segment) and the trees' colliders: one compiled copy of the
    whole narrowphase instead of one inlined at every site (each copy is seconds of a cold
    compile). :func:`cast_range`'s scene is owner-less, so the call reference-counts nothing:
    measured (one thread, min of 7, side by side), the trees' colliders through this call
    against an inlined ``cast_row``: 3D rays at 3,000 spheres 0.93 against 0.95 us, 2D balls
    0.43 against 0.54 us, and ``cast_hit`` compiled in 7.7 s of CPU against 9.8."""
    return cast_row(scene, h, ox, oy, oz, dx, dy, dz, r, tmax, grown)


#: A cast's best hit so far: ``(handle, t, px, py, pz, nx, ny, nz, inside)``.
Best = tuple[int, float, float, float, float, float, float, float, bool]
#: A grid walk's best hit so far (2D): ``(handle, t, px, py, nx, ny, inside, seg_row,
#: limit)``; ``seg_row`` the grid row of a segment, box or circle hit whose point and normal
#: wait for the end of the walk (-1: none), ``limit`` the reach left to the walk.
GridBest = tuple[int, float, float, float, float, float, bool, int, float]
#: A 2D ray as the grid walk reads it: ``(ox, oy, dx, dy, ix, iy)`` (``i``: the inverse
#: direction, :func:`~swept._kernels.bvh.inverse_direction`).
Ray2 = tuple[float, float, float, float, float, float]


@inline_kernel
def _better(t: float, h: int, best_t: float, best_h: int) -> bool:
    """Whether a hit at ``t`` on collider ``h`` beats the best so far (ties: smallest t,
    then smallest handle)."""
    return t >= 0.0 and (t < best_t or (t == best_t and h < best_h))


@inline_kernel
def _crossing_missed(t: float, u: float, limit: float) -> bool:
    """Whether a ray's crossing of a segment's line at ``t``, at ``u`` along the segment,
    misses the segment within the ray's reach: ``t`` or ``u`` out of ``[0, limit]`` or ``[0,
    1]``, told by one comparison of the least of ``t``, ``limit - t``, ``u`` and ``1 - u`` (each
    difference below 0 exactly when its bound is passed, -0.0 within). LLVM made a branch of
    each of the four range tests, and which of them fails first changes from entry to entry
    at random, where this one is mostly true (``perf``: the grid walk's segment test, four
    guesses an entry). A NaN (``limit - t`` with ``t`` and ``limit`` both inf) drops out of
    the least, the other tests deciding, as the four tests decide (``inf <= inf``): False
    exactly when all four hold, so the caller tests none of them again."""
    return least(least(t, limit - t), least(u, 1.0 - u)) < 0.0


@inline_kernel
def _cast_trees(scene: Scene, stack: np.ndarray,
                ray: tuple[float, float, float, float, float, float], probe: Probe, r: float,
                limit: float, first_tree: int, mask: int, flags: int, best: Best) -> Best:
    """:func:`_cast` through the BVHs, from ``first_tree`` (0: the static tree, 1: only the
    moving one), improving on ``best``. Inlined: as a real call (each array argument
    reference-counted) it cost 0.07 us a ray more on a clustered scene walked through the BVH
    and on a scene with moving colliders (1,000 colliders, one thread), and saved nothing
    measurable on a grid scene. A 2D ray meets a segment by ``ray_segment``'s crossing test
    inline (the point and normal once, for the best), not by a call of the narrowphase each:
    measured (``benchmarks/ab_rays.py``, clusters of 1,000 on the BVH, load 8-13), 0.88-0.91
    of the time."""
    nodes = scene.nodes
    links = scene.links
    grown = (flags & CAST_GROWN) != 0
    best_h, best_t, px, py, pz, nx, ny, nz, inside = best
    ox, oy, oz, dx, dy, dz = ray
    # a 2D ray meets a segment by the crossing test inline, its point and normal once for the
    # best at the end (the tree's segment, -1: none)
    inline_segments = not grown and links[H_DIM] == 2
    seg_h = -1
    # a ray's box tests by the lean slab test where it applies (the same t)
    probe = lean_probe(probe)
    for which in range(first_tree, 2):
        tree = static_tree(links) if which == 0 else moving_tree(links)
        node, sp = ray_first_leaf(nodes, links, tree, stack, probe, limit)
        # each leaf is handed out once
        for _ in range(tree[1]):
            if node < 0:
                break
            first, stop = leaf_items(links, tree, node)
            for j in range(first, stop):
                h = links[j]
                if box_entry_at(scene.rows, h, LO, probe, limit) == math.inf:
                    # the (fat) ray misses this collider's box
                    continue
                if not visible(scene.tags, h, mask):
                    continue
                if inline_segments and scene.tags[h, KIND] == KIND_SEGMENT:
                    # ray_segment's crossing test (its segment_crossing, so the same t),
                    # unless near parallel (its collinear cases: the call). A tree holds no
                    # one-way collider (they are listed with the planes)
                    rows = scene.rows
                    ex = rows[h, 2] - rows[h, 0]
                    ey = rows[h, 3] - rows[h, 1]
                    denom = dx * ey - dy * ex  # cross(d, e)
                    if abs(denom) > 2.0 * RAY_PARALLEL_SINE * (abs(ex) + abs(ey)):
                        wx = rows[h, 0] - ox
                        wy = rows[h, 1] - oy
                        t, u = segment_crossing(wx, wy, ex, ey, dx, dy, denom)
                        if not _crossing_missed(t, u, limit) and _better(t, h, best_t, best_h):
                            best_t = t
                            best_h = h
                            limit = t
                            seg_h = h
                        continue
                t, ax, ay, az, anx, any_, anz, ains = _row_cast(scene, h, ox, oy, oz, dx, dy, dz,
                                                                r, limit, grown)
                if _better(t, h, best_t, best_h):
                    best_t = t
                    best_h = h
                    limit = t
                    px, py, pz, nx, ny, nz, inside = ax, ay, az, anx, any_, anz, ains
                    seg_h = -1
            node, sp = ray_next_leaf(nodes, links, tree, stack, sp, probe, limit)
    if seg_h >= 0:
        # the best is a segment met inline: its point and normal as ray_segment gives them
        rows = scene.rows
        ux, uy, _len = _unit2(rows[seg_h, 2] - rows[seg_h, 0], rows[seg_h, 3] - rows[seg_h, 1])
        px, py, nx, ny, inside = _segment_hit(ox, oy, dx, dy, ux, uy, best_t)
        pz = 0.0
        nz = 0.0
    return best_h, best_t, px, py, pz, nx, ny, nz, inside


@inline_kernel
def _cast_planes(scene: Scene, ray: tuple[float, float, float, float, float, float], r: float,
                 limit: float, mask: int, flags: int, best: Best) -> Best:
    """:func:`_cast` against the unbounded colliders (planes), improving on ``best``."""
    links = scene.links
    grown = (flags & CAST_GROWN) != 0
    best_h, best_t, px, py, pz, nx, ny, nz, inside = best
    ox, oy, oz, dx, dy, dz = ray
    first_plane = links[H_PLANES]
    for j in range(first_plane, first_plane + links[H_PLANE_COUNT]):
        h = links[j]
        if not visible(scene.tags, h, mask):
            continue
        t, ax, ay, az, anx, any_, anz, ains = _row_cast(scene, h, ox, oy, oz, dx, dy, dz, r,
                                                       limit, grown)
        if _better(t, h, best_t, best_h):
            best_t = t
            best_h = h
            limit = t
            px, py, pz, nx, ny, nz, inside = ax, ay, az, anx, any_, anz, ains
    return best_h, best_t, px, py, pz, nx, ny, nz, inside


@inline_kernel
def _shown(layer: int, flags: int, mask: int) -> bool:
    """:func:`~swept._kernels.scene.visible` on a collider's tags ``LAYER`` and ``FLAGS``
    (plain ints in: see :func:`_cast_plain2`)."""
    return (layer & mask) != 0 and (flags & FLAG_SKIP) == 0


@inline_kernel
def _plain_kind(k: int) -> bool:
    """Whether a 2D collider kind's ray test needs only its row's plain floats
    (:func:`_cast_plain2`): a circle, a box, a capsule."""
    return k in (KIND_CIRCLE, KIND_AABB2, KIND_CAPSULE2)


@inline_kernel
def _cast_plain2(k: int, p0: float, p1: float, p2: float, p3: float, p4: float, ox: float,
                 oy: float, dx: float, dy: float, limit: float
                 ) -> tuple[float, float, float, float, float, bool]:
    """:func:`~swept._kernels.scene.cast_row`'s ray (not grown) at a circle, box or capsule
    (:func:`_plain_kind`) given its row's parameters: the same kernel called with the same
    numbers, so the same hit. Plain floats in: an inlined helper taking the scene's arrays
    reference-counts them on every call, which the grid's per-entry test cannot afford
    (measured, ``cast_range`` alone on ``benchmarks/scenes.py``'s large boxes, one thread, us
    a ray: 0.21 against 0.33 through ``cast_row`` at 1,000 colliders, 0.22 against 0.35 at
    10,000, the plain grid's best 0.21 / 0.26)."""
    if k == KIND_CIRCLE:
        return ray_circle(ox, oy, dx, dy, p0, p1, p2, limit)
    if k == KIND_AABB2:
        return ray_aabb2(ox, oy, dx, dy, p0, p1, p2, p3, limit)
    return ray_capsule2(ox, oy, dx, dy, p0, p1, p2, p3, p4, limit)


@inline_kernel
def _segment_hit(ox: float, oy: float, dx: float, dy: float, ux: float, uy: float, t: float
                 ) -> tuple[float, float, float, float, bool]:
    """``ray_segment``'s point, normal and ``inside`` for a crossing at ``t`` of a segment
    along ``e``, of unit direction ``u`` (``_unit2(e)``): the perpendicular turned to face the
    ray, at the origin when the ray starts on the segment."""
    nx = 0.0 - uy
    ny = ux
    if nx * dx + ny * dy > 0.0:
        nx = 0.0 - nx
        ny = 0.0 - ny
    inside = t == 0.0
    px = ox + t * dx if not inside else ox
    py = oy + t * dy if not inside else oy
    return px, py, nx, ny, inside


@inline_kernel
def _moving_list(scene: Scene, first: int, stop: int, ray: Ray2, mask: int, best: GridBest
                 ) -> GridBest:
    """The moving colliders ``links[first .. stop-1]`` (a coarse cell's list of the moving
    grid, or its outside list), improving on ``best``: each collider's box, then its ray test
    (a circle, a box or a capsule on its row's plain floats, :func:`_cast_plain2`; any other
    kind by the narrowphase). Inlined into the grid walk, once for every coarse cell it enters:
    the walk's arrays are views without an owner (:func:`cast_range`), so passing them counts
    no references."""
    links = scene.links
    rows = scene.rows
    tags = scene.tags
    ox, oy, dx, dy, ix, iy = ray
    best_h, best_t, px, py, nx, ny, inside, seg_row, limit = best
    for j in range(first, stop):
        h = links[j]
        if ray_box_entry2(ox, oy, ix, iy, limit, rows[h, LO], rows[h, LO + 1], rows[h, HI],
                          rows[h, HI + 1]) == math.inf:
            # the ray misses this collider's box
            continue
        if not _shown(tags[h, LAYER], tags[h, FLAGS], mask):
            continue
        kind = tags[h, KIND]
        if _plain_kind(kind):
            t, ax, ay, anx, any_, ains = _cast_plain2(
                kind, rows[h, 0], rows[h, 1], rows[h, 2], rows[h, 3], rows[h, 4], ox, oy, dx,
                dy, limit)
        else:
            t, ax, ay, _az, anx, any_, _anz, ains = _row_cast(
                scene, h, ox, oy, 0.0, dx, dy, 0.0, 0.0, limit, False)
        if _better(t, h, best_t, best_h):
            best_t = t
            best_h = h
            limit = t
            px, py, nx, ny, inside = ax, ay, anx, any_, ains
            seg_row = -1
    return best_h, best_t, px, py, nx, ny, inside, seg_row, limit


@callee
def _moving_entries(scene: Scene, first: int, stop: int, ray: Ray2, mask: int,
                    best: GridBest) -> GridBest:
    """:func:`_moving_list` as a real call: the moving grid's outside list, which every ray
    tests before its walk when it is not empty (rare)."""
    return _moving_list(scene, first, stop, ray, mask, best)


@callee
def _start_touching(scene: Scene, h: int, ox: float, oy: float, oz: float, r: float,
                    nx: float, ny: float, nz: float
                    ) -> tuple[float, float, float, float, float, float]:
    """A ball cast from ``o`` that starts touching collider ``h``: the point of ``h`` nearest
    its centre and the normal :func:`~swept._kernels.scene.contact_row` gives (``n`` kept
    when it finds no touch). A real call, on a rare path: one compiled copy of the two row
    dispatches instead of one inlined into each cast kernel (see :func:`_row_cast`)."""
    px, py, pz = closest_row(scene, h, ox, oy, oz)
    touching, cnx, cny, cnz, _depth, _cx, _cy, _cz = contact_row(scene, h, ox, oy, oz, r)
    if touching:
        return px, py, pz, cnx, cny, cnz
    return px, py, pz, nx, ny, nz


@callee
def _exit_at(scene: Scene, h: int, ox: float, oy: float, oz: float, dx: float, dy: float,
             dz: float, t: float) -> float:
    """:func:`~swept._kernels.scene.exit_row` as a real call: the scalar queries' scene is
    owner-less (:func:`described`), so the call reference-counts nothing, and the row
    dispatch compiles once instead of once inlined into :func:`cast_one`."""
    return exit_row(scene, h, ox, oy, oz, dx, dy, dz, t)


@inline_kernel
def _keep_walk(stack: np.ndarray, walk: Walk) -> None:
    """Keep a grid walk's state in the first four rows of the scratch ``stack`` ((., 2)
    float64, unused while the grid is walked), while a sub-grid is walked."""
    stack[0, 0] = walk[0]
    stack[0, 1] = walk[1]
    stack[1, 0] = walk[2]
    stack[1, 1] = walk[3]
    stack[2, 0] = walk[4]
    stack[2, 1] = walk[5]
    stack[3, 0] = walk[6]
    stack[3, 1] = walk[7]


@inline_kernel
def _keep_hit(stack: np.ndarray, px: float, py: float, nx: float, ny: float, inside: bool
              ) -> None:
    """Keep the point, normal and ``inside`` of a grid walk's best hit so far in rows 4 to 6
    of the scratch ``stack`` (unused while the grid is walked): the hits whose collider's own
    kernel gave them (a segment, box or circle row's wait for the end of the walk instead),
    out of the walk's loop-carried values."""
    stack[4, 0] = px
    stack[4, 1] = py
    stack[5, 0] = nx
    stack[5, 1] = ny
    stack[6, 0] = 1.0 if inside else 0.0


@inline_kernel
def _kept_hit(stack: np.ndarray) -> tuple[float, float, float, float, bool]:
    """The hit :func:`_keep_hit` kept."""
    return stack[4, 0], stack[4, 1], stack[5, 0], stack[5, 1], stack[6, 0] != 0.0


@inline_kernel
def _kept_walk(stack: np.ndarray) -> Walk:
    """The walk :func:`_keep_walk` kept."""
    return (truncated(stack[0, 0]), truncated(stack[0, 1]), truncated(stack[1, 0]),
            truncated(stack[1, 1]), stack[2, 0], stack[2, 1], stack[3, 0], stack[3, 1])


@inline_kernel
def _skip_empty(grid: np.ndarray, cells: int, nx: int, ny: int, walk: Walk, limit: float
                ) -> tuple[bool, Walk]:
    """Step a grid walk over the empty, unmarked cells from its cell on (each cell's start
    ``grid[cells + c]`` (:func:`~swept._kernels.grid.grid_of`) equal to the next one's,
    without :data:`~swept._kernels.grid.CELL_MOVING`): ``(entered, walk)``, the walk at the
    first cell holding entries or marked, or ``entered`` False when the ray's reach
    (``limit``) ends in an empty cell or the walk leaves the grid. The same cells, in the same
    order, as the general walk's loop, whose every kind's test, sub-grids and moving colliders
    it leaves out (a tight loop of its own); the step picks its axis by selects, not a
    branch. The cell's index is carried from step to step as an unsigned int (never below 0
    while the walk is in the grid), which numba indexes without the wraparound of a negative
    index (a shift, a mask and an add before each load): with it LLVM kept this loop's values
    in registers where it had spilled them to the stack at every step (the disassembly); the
    walk's other loads (a cell's start, an entry, its row) are read the same way (``perf`` on
    clusters at 10,000 had put a quarter of ``cast_range``'s samples in this loop)."""
    cx, cy, step_x, step_y, next_x, next_y, delta_x, delta_y = walk
    c = np.uint64(cells + cx + nx * cy)
    up = np.uint64(nx * step_y)
    for _ in range(nx + ny + 2):
        lo = grid[c]
        if lo != grid[c + np.uint64(1)] or lo >= CELL_MOVING:
            return True, (cx, cy, step_x, step_y, next_x, next_y, delta_x, delta_y)
        if limit <= least(next_x, next_y):
            # the ray ends in this empty cell
            break
        go_x = next_x < next_y
        cx += step_x if go_x else 0
        cy += 0 if go_x else step_y
        c += np.uint64(step_x) if go_x else up
        next_x = next_x + delta_x if go_x else next_x
        next_y = next_y if go_x else next_y + delta_y
        if not (0 <= cx < nx and 0 <= cy < ny):
            break
    return False, (cx, cy, step_x, step_y, next_x, next_y, delta_x, delta_y)


@inline_kernel
def _names_sub_grid(count: int, first: int) -> bool:
    """Whether a grid cell of ``count`` entries whose first is ``first`` (any value when
    ``count`` is 0) holds a crowded cell's one entry naming its sub-grid (a negative one:
    :func:`~swept._kernels.grid.subdivide`): one integer test, not the two branches of an
    ``and``, the first of which (one entry or more) a sparse grid's cells make a guess."""
    return ((count - 1) | ((first >> 31) + 1)) == 0


@inline_kernel
def _skip_listed(grid: np.ndarray, at: int, end: int, e: int) -> tuple[bool, int]:
    """Whether entry ``e`` is in the ascending list ``grid[at .. end-1]`` (the list of the
    cell the walk tested before), found by a cursor that only moves forward as a cell's own
    ascending entries ask: ``(listed, at)``, the cursor moved to the first value not below
    ``e``. An entry met again was tested in that cell with a reach at least the present one,
    on the same ray, and a collider's test depends on nothing else: it cannot beat the best
    now (a miss misses again; a hit is at a t the best already beats or ties, with the same
    handle), so the walk skips it."""
    for _ in range(end - at):
        if grid[at] >= e:
            break
        at += 1
    return at < end and grid[at] == e, at


@inline_kernel
def _cast(scene: Scene, stack: np.ndarray, ray: tuple[float, float, float, float, float, float],
          r: float, limit: float, mask: int, flags: int
          ) -> tuple[int, float, float, float, float, float, float, float, bool]:
    """The nearest visible collider a ray (``flags`` without :data:`CAST_GROWN`) or a ball
    of radius ``r`` cast along it (with it) meets within ``limit``: ``(handle, t, px, py, pz,
    nx, ny, nz, inside)``, handle -1 on a miss. Ties: smallest t, then smallest handle.
    :data:`CAST_SKIPPING`: some collider is in the query's ``ignore`` set.

    The static colliders through the uniform grid (a 2D ray, when the scene has one: its cells
    in ray order (DDA; in a crowded cell, :func:`~swept._kernels.grid.subdivide`'s, the
    sub-cells the ray crosses, in order, the grid's walk kept meanwhile in ``stack``), each
    cell's static entries (a segment by its precomputed crossing
    test, a box or a circle by its kernel's distance on the grid row, these three finished
    (point, normal) once for the best at the end; any other collider by its grown box, then
    the narrowphase) and, when the moving
    colliders are gridded, each coarse cell's moving colliders as the walk enters it
    (:func:`_moving_entries`)) or the static tree, the moving ones there or through the
    moving tree (:func:`_cast_trees`), then the planes (:func:`_cast_planes`).

    The grid walk was written here, not as inlined helpers, when every inlined helper that
    took the scene's arrays reference-counted them on each call (atomic operations; measured
    then, uniform segments at 1,000, one thread, the walk as such a helper made the rays 0.18
    us against 0.13). Since :func:`cast_range` passes views without an owner, a helper counts
    nothing, but it still moves LLVM's choices for the whole walk: a coarse cell's moving
    colliders went to :func:`_moving_list` (one body with the outside list's call) for about
    1% (``ab_rays --fresh``, 201 rounds, twice, each against the harness's reading of the
    base against itself in the same minutes: moving colliders at 1,000 0.0, at 10,000 +1.5%
    (+2-3% in 301 rounds against a control copy, ``--control``), walls +4%, uniform and
    clusters 0.0, every kind +0.5%; outputs hashed equal), and the other kinds' narrowphase
    as a helper cost uniform segments 1.5% though they never reach it (not taken). On a
    sparse grid (fewer entries than cells) the runs of empty cells are stepped over by
    :func:`_skip_empty`."""
    grown = (flags & CAST_GROWN) != 0
    links = scene.links
    ox, oy, oz, dx, dy, dz = ray
    probe = make_probe(ox, oy, oz, dx, dy, dz, r, links[H_DIM])
    best = (-1, math.inf, 0.0, 0.0, 0.0, 0.0, 0.0, 0.0, False)
    use_grid = links[H_GRID_NX] > 0 and not grown
    moving_done = False
    if use_grid:
        nodes = scene.nodes
        rows = scene.rows
        gnx = links[H_GRID_NX]
        gny = links[H_GRID_NY]
        cells = links[H_GRID_CELLS]
        items = links[H_GRID_ITEMS]
        # the grid's cells' starts and entries (int32: grid.grid_of)
        grid = grid_of(links)
        boxes = links[H_GRID_BOXES]
        frame = links[H_FRAME]
        ix = probe[3]
        iy = probe[4]
        ray2 = (ox, oy, dx, dy, ix, iy)
        signed = not (math.isinf(ix) or math.isinf(iy))
        near_x = 0 if ix >= 0.0 else 3
        near_y = 1 if iy >= 0.0 else 4
        # every gridded collider is visible unless the query masks layers or skips some
        # (layer-0 colliders are never gridded)
        check = mask != ALL_LAYERS_MASK or (flags & CAST_SKIPPING) != 0
        best_h = -1
        best_t = math.inf
        # the point and normal of a hit that no row waits for: in the scratch stack
        _keep_hit(stack, 0.0, 0.0, 0.0, 0.0, False)
        # a segment hit's entry row: its point and normal wait for the end (-1: none)
        seg_row = -1
        block = links[H_MOVING_GRID]
        gridded = block > 0 and links[block + MG_GRIDDED] != 0
        inv_k = 1.0
        mnx = m_starts = m_items = 0
        # a moving grid whose cells are not marked (grid.bin_moving): every cell is read
        unmarked = gridded and links[block + MG_MARKED_CAP] == 0
        if gridded:
            inv_k = 1.0 / links[block + MG_K]
            mnx = links[block + MG_NX]
            m_starts = block + MG_HEAD + links[block + MG_OUTSIDE_CAP]
            m_items = m_starts + mnx * links[block + MG_NY] + 1
            if links[block + MG_OUTSIDE] > 0:
                # the moving colliders outside the grid's frame: every ray tests them
                best_h, best_t, px, py, nx, ny, inside, seg_row, limit = _moving_entries(
                    scene, block + MG_HEAD, block + MG_HEAD + links[block + MG_OUTSIDE], ray2,
                    mask, (best_h, best_t, 0.0, 0.0, 0.0, 0.0, False, seg_row, limit))
                _keep_hit(stack, px, py, nx, ny, inside)
        gx0 = nodes[frame, 0]
        gy0 = nodes[frame, 1]
        gcell = nodes[frame, 2]
        entered, walk = walk_begin(gx0, gy0, gcell, gnx, gny, ox, oy, dx, dy, ix, iy, limit)
        # a sparse grid (fewer entries than cells: runs of empty cells) has its empty runs
        # stepped over in a loop of their own (_skip_empty), unless every cell is read for
        # the moving grid; a denser one not (measured: uniform segments at 10,000, 2.4
        # entries a cell, 24% of them empty, read 1.09-1.11 of the base's time with it)
        sparse = not unmarked and grid[cells + gnx * gny] < gnx * gny
        last = -1
        # a crowded cell's sub-grid (grid.subdivide) is walked in place of the grid (``walk``
        # then walks it; the grid's walk waits in the scratch ``stack``): its block, its side
        sub = False
        block_at = side = sub_base = 0
        # the entry list of the cell (or sub-cell) tested before this one, grid[was .. was_end
        # - 1] (ascending, as every list): a box, circle or other non-segment collider listed
        # there too was tested already, with a reach at least the present one, so its test
        # again cannot beat the best (_skip_listed)
        was = was_end = 0
        # a ray crosses at most gnx + gny cells, and in each at most 2 S sub-cells
        for _ in range((gnx + gny + 2) * (2 * GRID_SUB_MAX_SIDE + 3)):
            if not entered:
                break
            # the entries of the cell (or sub-cell) the walk is in: grid[base + lo .. hi-1]
            if sub:
                sc = block_at + SUB_HEAD + walk[0] + side * walk[1]
                base = sub_base
                lo = grid[np.uint64(sc)]
                hi = grid[np.uint64(sc + 1)]
            else:
                if sparse:
                    # a run of empty, unmarked cells stepped over in a loop of its own
                    entered, walk = _skip_empty(grid, cells, gnx, gny, walk, limit)
                    if not entered:
                        break
                c = cells + walk[0] + gnx * walk[1]
                lo = grid[np.uint64(c)]
                if lo >= CELL_MOVING or unmarked:
                    # a cell some moving collider's box touches (grid.bin_moving marks them,
                    # only while gridded), or any cell of a moving grid without marks: its
                    # coarse cell's moving colliders, once a coarse cell. Unmarked cells skip
                    # the coarse cell's arithmetic and list (measured: see
                    # MOVING_GRID_MARKS_PER_COLLIDER)
                    lo &= CELL_START
                    mc = coarse_of(walk[0], inv_k) + mnx * coarse_of(walk[1], inv_k)
                    if gridded and mc != last:
                        # a coarse cell entered: its moving colliders, once
                        last = mc
                        m_first = m_items + links[m_starts + mc]
                        m_stop = m_items + links[m_starts + mc + 1]
                        if m_first < m_stop:
                            px, py, nx, ny, inside = _kept_hit(stack)
                            best_h, best_t, px, py, nx, ny, inside, seg_row, limit = \
                                _moving_list(scene, m_first, m_stop, ray2, mask,
                                             (best_h, best_t, px, py, nx, ny, inside, seg_row,
                                              limit))
                            _keep_hit(stack, px, py, nx, ny, inside)
                base = items
                hi = grid[np.uint64(c + 1)] & CELL_START
                # the cell's first entry (in an empty cell the value before it, a start or
                # an entry: a read in the block either way)
                first = grid[np.uint64(items + lo - 1 + (1 if hi > lo else 0))]
                if _names_sub_grid(hi - lo, first):
                    # a crowded cell: the walk goes on in its sub-grid, where the ray enters it
                    block_at = items - 1 - first
                    side = grid[block_at]
                    sub_base = block_at + SUB_HEAD + side * side + 1
                    lo = hi = 0
                    sub, sub_walk = walk_begin(gx0 + walk[0] * gcell, gy0 + walk[1] * gcell,
                                               gcell / side, side, side, ox, oy, dx, dy, ix, iy,
                                               limit)
                    if sub:
                        _keep_walk(stack, walk)
                        walk = sub_walk
                        sc = block_at + SUB_HEAD + walk[0] + side * walk[1]
                        base = sub_base
                        lo = grid[np.uint64(sc)]
                        hi = grid[np.uint64(sc + 1)]
            # this list's entries met again in the next cell are skipped (a walk that stops in
            # this cell's loop ends: no next cell then)
            at = was
            at_end = was_end
            was = base + lo
            was_end = base + hi
            for j in range(lo, hi):
                # the entry names a gridded collider's row and carries its code
                # (grid.coded_entries): the dispatch below waits for the entry alone; the
                # row holds the handle (grid.row_tag)
                e = grid[np.uint64(base + j)]
                at_row, code = entry_of(e)
                row = boxes + at_row
                # the row read by an unsigned index: no negative-index wraparound before the
                # load (its address waits for the entry's load already)
                ur = np.uint64(row)
                h = row_tag(nodes[ur, 2])[1]
                if code == ROW_SEGMENT:
                    # a segment entry (ax ay tag ex ey parallel): ray_segment's crossing test
                    # (its segment_crossing, so the same t) on its precomputed e and
                    # threshold; the point and normal once, at the end
                    if check and not _shown(scene.tags[h, LAYER], scene.tags[h, FLAGS], mask):
                        continue
                    wx = nodes[ur, 0] - ox
                    wy = nodes[ur, 1] - oy
                    ex = nodes[ur, 3]
                    ey = nodes[ur, 4]
                    denom = dx * ey - dy * ex  # cross(d, e)
                    if abs(denom) <= nodes[ur, 5]:
                        # parallel (or a point): ray_segment's collinear cases (rare: a call)
                        t, ax, ay, _az, anx, any_, _anz, ains = _row_cast(
                            scene, h, ox, oy, 0.0, dx, dy, 0.0, 0.0, limit, False)
                        if _better(t, h, best_t, best_h):
                            best_t = t
                            best_h = h
                            limit = t
                            _keep_hit(stack, ax, ay, anx, any_, ains)
                            seg_row = -1
                        continue
                    t, u = segment_crossing(wx, wy, ex, ey, dx, dy, denom)
                    if _crossing_missed(t, u, limit):
                        continue
                    # within both ranges: the best updated by selects, not branches
                    better = (t < best_t) | ((t == best_t) & (h < best_h))
                    best_t = t if better else best_t
                    best_h = h if better else best_h
                    limit = t if better else limit
                    seg_row = row if better else seg_row
                    continue
                if code in (ROW_BOX, ROW_CIRCLE):
                    # a box or a circle on its own row: the distance alone (the box kernel
                    # the scalar query calls, its point and normal unused; a circle's t by
                    # ray_circle_distance, the same bits without the normal), the point and normal
                    # of the best once, at the end. No box test first: for a box the slab
                    # test is the narrowphase, and a circle's miss is a few products
                    listed, at = _skip_listed(grid, at, at_end, e)
                    if listed:
                        continue
                    if check and not _shown(scene.tags[h, LAYER], scene.tags[h, FLAGS], mask):
                        continue
                    if code == ROW_BOX:
                        bx0 = nodes[ur, 0]
                        by0 = nodes[ur, 1]
                        bx1 = nodes[ur, 3]
                        by1 = nodes[ur, 4]
                        if bx0 <= ox <= bx1 and by0 <= oy <= by1:
                            # the origin in or on the box: ray_aabb2's answer is 0 (both
                            # slabs hold the origin, so neither raises the entry), without
                            # its four divisions
                            t = 0.0
                        else:
                            t = ray_aabb2(ox, oy, dx, dy, bx0, by0, bx1, by1, limit)[0]
                    else:
                        t = ray_circle_distance(ox, oy, dx, dy, nodes[ur, 0], nodes[ur, 1],
                                                nodes[ur, 3], limit)
                    better = (t >= 0.0) & ((t < best_t) | ((t == best_t) & (h < best_h)))
                    best_t = t if better else best_t
                    best_h = h if better else best_h
                    limit = t if better else limit
                    seg_row = row if better else seg_row
                    if best_t == 0.0 and best_h <= h:
                        # a hit at 0 (the origin inside a collider) can only lose a tie to a
                        # smaller handle, and a cell's later entries have larger ones (the
                        # grid's handles ascend): nothing left in this cell can win, and the
                        # walk stops here. Checked here and after the other kinds' tests, not
                        # on the segments' path (a segment rarely holds the origin). Measured,
                        # the scenes where most rays start inside (large boxes, every kind at
                        # 10,000): see README's table
                        break
                    continue
                if signed:
                    if box_missed(nodes[ur, near_x], nodes[ur, near_y], nodes[ur, 3 - near_x],
                                  nodes[ur, 5 - near_y], ox, oy, ix, iy, limit):
                        continue
                elif ray_box_entry2(ox, oy, ix, iy, limit, nodes[ur, 0], nodes[ur, 1],
                                    nodes[ur, 3], nodes[ur, 4]) == math.inf:
                    # an axis-parallel ray misses this collider's box
                    continue
                listed, at = _skip_listed(grid, at, at_end, e)
                if listed:
                    continue
                if check and not _shown(scene.tags[h, LAYER], scene.tags[h, FLAGS], mask):
                    continue
                if code == ROW_CAPSULE:
                    t, ax, ay, anx, any_, ains = ray_capsule2(
                        ox, oy, dx, dy, rows[h, 0], rows[h, 1], rows[h, 2], rows[h, 3], rows[h, 4],
                        limit)
                elif code == ROW_POLYGON:
                    # a polygon: its kernel on its corners and normals in the pool (the
                    # whole narrowphase as a call costs a ray of the every-kind scene more)
                    first_v = scene.tags[h, FIRST]
                    count_v = scene.tags[h, COUNT]
                    t, ax, ay, anx, any_, ains = ray_polygon(
                        ox, oy, dx, dy, scene.pool[first_v:first_v + count_v],
                        scene.pool[first_v + count_v:first_v + 2 * count_v], limit)
                else:
                    t, ax, ay, _az, anx, any_, _anz, ains = _row_cast(
                        scene, h, ox, oy, 0.0, dx, dy, 0.0, 0.0, limit, False)
                if _better(t, h, best_t, best_h):
                    best_t = t
                    best_h = h
                    limit = t
                    _keep_hit(stack, ax, ay, anx, any_, ains)
                    seg_row = -1
                    if t == 0.0:
                        # (as after a box or a circle: the later entries' handles are larger)
                        break
            if limit <= least(walk[4], walk[5]):
                # the best hit (or the end of the ray) lies in this cell (or sub-cell)
                break
            if sub:
                sub, walk = walk_next(walk, side, side)
                if sub:
                    continue
                # out of the sub-grid: the grid's walk, from its crowded cell
                walk = _kept_walk(stack)
                if limit <= least(walk[4], walk[5]):
                    break
            entered, walk = walk_next(walk, gnx, gny)
        if seg_row >= 0:
            # the best is a segment, box or circle whose point and normal were left for now
            code = row_tag(nodes[seg_row, 2])[0]
            if code == ROW_SEGMENT:
                # its unit direction precomputed (grid.collider_rows) on a small grid, worked
                # out on a larger one (grid.has_units): the same numbers
                if has_units(links[H_GRID_UNITS] - boxes):
                    unit, col = unit_at(seg_row - boxes)
                    unit += links[H_GRID_UNITS]
                    ux = nodes[unit, col]
                    uy = nodes[unit, col + 1]
                else:
                    ux, uy, _len = _unit2(nodes[seg_row, 3], nodes[seg_row, 4])
                px, py, nx, ny, inside = _segment_hit(ox, oy, dx, dy, ux, uy, best_t)
            else:
                # the same kernel on the same numbers, reaching exactly to the best: the same t
                _t, px, py, nx, ny, inside = _cast_plain2(
                    KIND_AABB2 if code == ROW_BOX else KIND_CIRCLE, nodes[seg_row, 0],
                    nodes[seg_row, 1], nodes[seg_row, 3], nodes[seg_row, 4], 0.0, ox, oy, dx,
                    dy, best_t)
        else:
            # a hit by its collider's own kernel (or none: zeros)
            px, py, nx, ny, inside = _kept_hit(stack)
        best = (best_h, best_t, px, py, 0.0, nx, ny, 0.0, inside)
        moving_done = gridded
    if not use_grid or (links[H_MOVING_NODES] > 0 and not moving_done):
        # the static tree (unless the grid stood for it), then the moving tree (unless the
        # grid's moving cells did)
        best = _cast_trees(scene, stack, ray, probe, r, limit, 1 if use_grid else 0, mask,
                           flags, best)
        limit = best[1] if best[0] >= 0 else limit
    if links[H_PLANE_COUNT] > 0:
        best = _cast_planes(scene, ray, r, limit, mask, flags, best)
    best_h, best_t, px, py, pz, nx, ny, nz, inside = best
    if best_h >= 0 and grown and inside:
        # a ball that starts touching: the point is the collider's nearest to its centre, and
        # the normal the shortest way out as contact() gives it, so that a tie (a centre on a
        # segment's core or end, a box's middle) breaks as the scalar sweep breaks it
        px, py, pz, nx, ny, nz = _start_touching(scene, best_h, ox, oy, oz, r, nx, ny, nz)
    return best_h, best_t, px, py, pz, nx, ny, nz, inside


@inline_kernel
def cast_one(scene: Scene, row: tuple[Casts, Hits, np.ndarray],
             ray: tuple[float, float, float, float, float, float], tmax: float, radius: float,
             mask: int, flags: int
             ) -> tuple[int, float, float, float, float, float, float, float, bool, float]:
    """One ray (or ball) for the scalar World queries: ``(handle, t, px, py, pz, nx, ny, nz,
    inside, exit)`` (z is 0 in 2D; ``exit``, the hit collider's :func:`exit_row`, for a ray
    only, else ``t``). ``ray`` is ``(ox, oy, oz, dx, dy, dz)`` with a unit direction; ``row``
    the descriptor's one-row batch (:func:`described`); ``flags`` as :func:`_cast` takes
    them.

    The ray is cast as row 0 of that one-row batch by :func:`cast_range`, the batch's own
    kernel, so that the World's cast is compiled once for the scalar and the batch queries
    (a copy inlined in each took about 11 and 16 s of CPU of a cold compile). Inlined (a
    call of :func:`cast_range` and one of :func:`_exit_at`) into the two entry points
    :func:`cast_at` and :mod:`swept._kernels.world_hit`'s entries."""
    casts, out, order = row
    casts.origins[0, 0] = ray[0]
    casts.origins[0, 1] = ray[1]
    casts.origins[0, 2] = ray[2]
    casts.directions[0, 0] = ray[3]
    casts.directions[0, 1] = ray[4]
    casts.directions[0, 2] = ray[5]
    casts.tmax[0] = tmax
    casts.radii[0] = radius
    cast_range(0, 1, scene, casts, order, mask, flags, out)
    h = out.handle[0]
    t = out.t[0]
    te = t
    if h >= 0 and (flags & CAST_GROWN) == 0 and \
            not segment_kind(scene.tags[h, KIND]):
        # where the ray leaves the collider: a segment has no inside, so it leaves where it
        # enters (exit_row's answer, without its call: a twentieth of World.raycast)
        te = _exit_at(scene, h, ray[0], ray[1], ray[2], ray[3], ray[4], ray[5], t)
    return (h, t, out.point[0, 0], out.point[0, 1], out.point[0, 2], out.normal[0, 0],
            out.normal[0, 1], out.normal[0, 2], out.inside[0], te)


# ---------------------------------------------------------------------------------------------
# the scalar ray's scene by address
#
# Passing the scene to a compiled call as arrays costs each array an unboxing (a meminfo
# allocated and freed, the array reference-counted with atomic operations in the kernel): with
# the five scene arrays and the stack that was half of World.raycast's kernel call. The scalar
# ray path instead passes the address of one int64 array, the *descriptor*, holding each
# array's address and shape, and rebuilds the arrays inside the kernel as views without an
# owner (no reference counting). Measured (1,000 segments, 1,000 rays, best of 21 loops,
# timeit): the kernel call 0.68 us a ray with the arrays, 0.35 us with the descriptor.

#: Values a descriptor holds per array: its address, then two dimensions (a 1-d array's second
#: is 0).
DESC_STRIDE = 3
#: The arrays a descriptor holds, in order: the scene's (``rows, tags, pool, nodes, links``).
DESC_ARRAYS = 5
#: Each described array's dtype and number of dimensions, in descriptor order.
DESC_LAYOUT = ((np.float64, 2), (np.int64, 2), (np.float64, 2), (np.float64, 2), (np.int64, 1))
#: The one-row batch that follows the described arrays in a descriptor (:func:`described`,
#: :func:`cast_one`: the scalar queries' ray as a :class:`Casts` row, their hit as a
#: :class:`Hits` row), each field's offset in 8-byte slots from the batch's start, in field
#: order: the casts' ``origins`` (1, 3), ``directions`` (1, 3), ``tmax`` (1,), ``radii``
#: (1,), then the hits' ``handle`` (1,) int64, ``t`` (1,), ``point`` (1, 3), ``normal`` (1,
#: 3) and ``inside`` (1,) bool (one byte of its slot).
ONE_ROW = (0, 3, 6, 7, 8, 9, 10, 13, 16)
#: The slots of the one-row batch (:data:`ONE_ROW`).
ONE_ROW_SLOTS = 17
#: The length of :func:`describe`'s descriptor, in int64 values: the arrays' addresses and
#: shapes, then the one-row batch.
DESC_SIZE = DESC_ARRAYS * DESC_STRIDE + ONE_ROW_SLOTS


def _pointer_intrinsic(dtype: Any, name: str) -> Any:
    """An intrinsic ``pointer(address)``: the ``dtype`` pointer at an integer ``address``,
    named ``name`` (this module's name for it, as a pickle finds it)."""

    def pointer(typingctx: Any, address: Any) -> Any:
        sig = types.CPointer(dtype)(types.int64)

        def codegen(context: Any, builder: Any, signature: Any, args: Any) -> Any:
            return builder.inttoptr(args[0], context.get_value_type(signature.return_type))

        return sig, codegen

    pointer.__name__ = pointer.__qualname__ = name
    pointer.__doc__ = f"The {dtype} pointer at an integer ``address``."
    return intrinsic(pointer)


#: The float64, int64 and bool pointers at an address, as compiled code calls them,
#: ``pointer(address)`` (untyped for mypy).
_float64_at: Any = _pointer_intrinsic(types.float64, "_float64_at")
_int64_at: Any = _pointer_intrinsic(types.int64, "_int64_at")
_bool_at: Any = _pointer_intrinsic(types.boolean, "_bool_at")


@intrinsic
def _frame_stack_pointer(typingctx: Any) -> Any:
    """A float64 pointer to room for a (STACK_SIZE, 2) traversal stack on the calling
    compiled function's own frame (allocated once, at its entry, for as long as it runs):
    a scratch stack that costs a call nothing, where ``np.empty`` allocates and frees one
    on the heap."""
    sig = types.CPointer(types.float64)()

    def codegen(context: Any, builder: Any, signature: Any, args: Any) -> Any:
        room = cgutils.alloca_once(builder, ir.ArrayType(ir.DoubleType(), 2 * STACK_SIZE))
        return builder.bitcast(room, context.get_value_type(signature.return_type))

    return sig, codegen


#: :func:`_frame_stack_pointer` as compiled code calls it (untyped for mypy, as above).
_frame_stack: Any = _frame_stack_pointer


@intrinsic
def _unowned_view(typingctx: Any, value: Any) -> Any:
    """An array, or a named tuple of arrays (a :class:`~swept._kernels.scene.Scene`, the
    casts, the outputs), without an owner: each array's meminfo and parent null, so that its
    copies and passes reference-count nothing. numba counts an array up and down (two atomic
    operations) each time an inlined helper takes it, and the ray cast inlines several that
    take the scene, once a ray: measured (``cast_range`` on 10,000 rays, bench_world_rays'
    scene, one thread, perf), the counts were about 40% of the kernel's time. Only for arrays
    that something else keeps alive while the views are used (a kernel's arguments, for that
    call; a scratch array used again after the loop)."""
    # (a named tuple's member types: ``types``, on both numba's kinds of named tuple)
    members: tuple[Any, ...] = ((value,) if isinstance(value, types.Array) else
                                tuple(getattr(value, "types", ())))
    if not members or not all(isinstance(t, types.Array) for t in members) or not isinstance(
            value, (types.Array, types.BaseNamedTuple)):
        return None
    sig = value(value)

    def codegen(context: Any, builder: Any, signature: Any, args: Any) -> Any:
        def bare(array_type: Any, array: Any) -> Any:
            view = context.make_array(array_type)(context, builder, value=array)
            view.meminfo = cgutils.get_null_value(view.meminfo.type)
            view.parent = cgutils.get_null_value(view.parent.type)
            return view._getvalue()

        if isinstance(signature.args[0], types.Array):
            return bare(members[0], args[0])
        result = args[0]
        for k, array_type in enumerate(members):
            result = builder.insert_value(
                result, bare(array_type, builder.extract_value(args[0], k)), k)
        return result

    return sig, codegen


#: :func:`_unowned_view` as compiled code calls it (untyped for mypy, as above): the batch
#: kernels' arrays, and the scene the Simulation's kernels pass to their compiled row
#: dispatches (``sim.gap_row``, ``sim.entering_row``, ``sim.reaches_row``).
unowned: Any = _unowned_view



def describe(scene: Scene) -> np.ndarray:
    """The descriptor of ``scene`` whose address :func:`cast_at` takes (and
    :func:`swept._kernels.world_hit.ray_hit2`, from a longer descriptor that begins so):
    (DESC_SIZE,) int64, each array's address and shape, then the slots of the scalar
    queries' one-row batch (:data:`ONE_ROW`: the descriptor is its memory, so a query
    allocates nothing). The caller keeps the descriptor and ``scene`` alive (and unchanged
    in shape) as long as it passes the address: the kernels read their memory by
    address."""
    desc = np.zeros(DESC_SIZE, np.int64)
    for k, (array, (dtype, ndim)) in enumerate(zip(scene, DESC_LAYOUT)):
        if array.dtype != dtype or array.ndim != ndim or not array.flags.c_contiguous:
            # the views rebuilt in the kernel assume this layout
            raise ValueError(f"scene array {k} must be a C-contiguous {ndim}-d {dtype.__name__} "
                             f"array, got {array.ndim}-d {array.dtype}")
        desc[DESC_STRIDE * k] = array.ctypes.data
        desc[DESC_STRIDE * k + 1:DESC_STRIDE * k + 1 + ndim] = array.shape
    return desc


@inline_kernel
def described(address: int) -> tuple[Scene, tuple[Casts, Hits, np.ndarray]]:
    """The scene and the one-row batch (``(casts, hits, order)``, ``order`` empty:
    :func:`cast_one`) of the descriptor (:func:`describe`) at ``address``, as arrays
    without an owner (the descriptor itself passed by address too: an int unboxes in a third
    of an array's time, 0.31 against 0.33 us a World.raycast kernel call)."""
    desc = carray(_int64_at(address), (DESC_ARRAYS * DESC_STRIDE,))
    rows = carray(_float64_at(desc[0]), (desc[1], desc[2]))
    tags = carray(_int64_at(desc[3]), (desc[4], desc[5]))
    pool = carray(_float64_at(desc[6]), (desc[7], desc[8]))
    nodes = carray(_float64_at(desc[9]), (desc[10], desc[11]))
    links = carray(_int64_at(desc[12]), (desc[13],))
    one = address + 8 * DESC_ARRAYS * DESC_STRIDE
    at = ONE_ROW
    casts = Casts(carray(_float64_at(one + 8 * at[0]), (1, 3)),
                  carray(_float64_at(one + 8 * at[1]), (1, 3)),
                  carray(_float64_at(one + 8 * at[2]), (1,)),
                  carray(_float64_at(one + 8 * at[3]), (1,)))
    hits = Hits(carray(_int64_at(one + 8 * at[4]), (1,)),
                carray(_float64_at(one + 8 * at[5]), (1,)),
                carray(_float64_at(one + 8 * at[6]), (1, 3)),
                carray(_float64_at(one + 8 * at[7]), (1, 3)),
                carray(_bool_at(one + 8 * at[8]), (1,)))
    order = carray(_int64_at(one), (0,))
    return Scene(rows, tags, pool, nodes, links), (casts, hits, order)


@entry
def cast_at(desc: int, ray: tuple[float, float, float, float, float, float], tmax: float,
            radius: float, mask: int, flags: int
            ) -> tuple[int, float, float, float, float, float, float, float, bool, float]:
    """:func:`cast_one` on the scene of the descriptor (:func:`describe`) at address
    ``desc``: the scalar World's 3D rays, rays that ignore colliders, and balls. Keeps the
    GIL: the one-row batch is the World's one scratch."""
    scene, row = described(desc)
    return cast_one(scene, row, ray, tmax, radius, mask, flags)


#: :func:`normal_key`'s keys (:func:`swept._kernels.world_hit.ray_hit2`'s shared normals):
#: the four axis normals ``-x, +x, -y, +y`` are keys 0 to 3, a segment's two faces (left,
#: right of ``a -> b``) in row ``h`` keys ``AXIS_NORMALS + 2 h`` and ``AXIS_NORMALS + 2 h + 1``.
AXIS_NORMALS = 4


@inline_kernel
def _same_bits(a: float, b: float) -> bool:
    """Whether floats ``a`` and ``b`` are the very same value (a zero's sign included)."""
    return a == b and math.copysign(1.0, a) == math.copysign(1.0, b)


@inline_kernel
def normal_key(scene: Scene, h: int, nx: float, ny: float) -> int:
    """A key naming the 2D normal ``(nx, ny)`` of a hit on collider ``h`` when it is one of a
    few that recur, bit for bit, hit after hit (-1 otherwise): an axis normal (a box's faces,
    an axis-aligned wall), or one of a segment's two faces (computed as ``ray_segment`` turns
    its perpendicular). The scalar World query keeps one Vec2 per key, so that a hit makes one
    object fewer (:meth:`swept.world.World.raycast`)."""
    if ny == 0.0 and math.copysign(1.0, ny) > 0.0 and (nx == 1.0 or nx == -1.0):
        return 0 if nx < 0.0 else 1
    if nx == 0.0 and math.copysign(1.0, nx) > 0.0 and (ny == 1.0 or ny == -1.0):
        return 2 if ny < 0.0 else 3
    k = scene.tags[h, KIND]
    if segment_kind(k):
        rows = scene.rows
        ux, uy, _length = _unit2(rows[h, 2] - rows[h, 0], rows[h, 3] - rows[h, 1])
        # the left perpendicular, and the right one, as ray_segment writes them
        lx = 0.0 - uy
        ly = ux
        if _same_bits(nx, lx) and _same_bits(ny, ly):
            return AXIS_NORMALS + 2 * h
        if _same_bits(nx, 0.0 - lx) and _same_bits(ny, 0.0 - ly):
            return AXIS_NORMALS + 2 * h + 1
    return -1


@inline_kernel
def _bucket_of(x: float, lo: float, scale: float, side: int) -> int:
    """The bucket (0 .. side-1) of coordinate ``x`` among ``side`` equal buckets from ``lo``,
    ``scale`` buckets a half unit (halves cannot overflow; a NaN from an infinite scale goes
    to bucket 0, an infinite place to the last)."""
    f = (0.5 * x - 0.5 * lo) * scale
    if not f >= 0.0:
        return 0
    return int(min(f, side - 1.0))


@kernel
def spatial_order(origins: np.ndarray, order: np.ndarray) -> None:
    """Write to ``order`` (n,) int64 the rows of ``origins`` (n, d), bucket by bucket of a
    square grid over their x and y range (about :data:`RAY_ORDER_PER_BUCKET` a bucket, rows
    of buckets in turn; the rows of one bucket in their order): the order :func:`cast_range`
    casts a batch in, so that consecutive rays, starting close together, read the same grid
    cells and colliders from the cache (a counting sort: O(n + buckets)).
    (:func:`swept._kernels.mesh.ray_order` orders a mesh's rays by a 30-bit Morton code
    instead, from 8,192 rays: its fixed 2^15 counters cost what a batch of 1,000 rays gains.)"""
    n = origins.shape[0]
    side = min(max(int(math.sqrt(n / RAY_ORDER_PER_BUCKET)), 1), RAY_ORDER_MAX_SIDE)
    if side == 1:
        for i in range(n):
            order[i] = i
        return
    x0 = y0 = math.inf
    x1 = y1 = -math.inf
    for i in range(n):
        x0 = min(x0, origins[i, 0])
        x1 = max(x1, origins[i, 0])
        y0 = min(y0, origins[i, 1])
        y1 = max(y1, origins[i, 1])
    # buckets a half unit along each axis (the half range cannot overflow)
    sx = 0.5 * x1 - 0.5 * x0
    sy = 0.5 * y1 - 0.5 * y0
    ax = side / sx if sx > 0.0 else 0.0
    ay = side / sy if sy > 0.0 else 0.0
    keys = np.empty(n, np.int64)
    count = np.zeros(side * side + 1, np.int64)
    for i in range(n):
        b = _bucket_of(origins[i, 0], x0, ax, side) + side * _bucket_of(origins[i, 1], y0, ay,
                                                                        side)
        keys[i] = b
        count[b + 1] += 1
    for b in range(side * side):
        count[b + 1] += count[b]
    for i in range(n):
        b = keys[i]
        order[count[b]] = i
        count[b] += 1


@kernel
def gather_casts(casts: Casts, order: np.ndarray, to: Casts) -> None:
    """Copy the rows ``order[k]`` of ``casts`` to the rows k of ``to``: the batch in its cast
    order (:func:`spatial_order`), so that :func:`cast_range` reads its rays and writes their
    hits (then put back by :func:`scatter_hits`) one after another instead of all over the
    arrays (measured: see :data:`~swept.constants.RAY_GATHER_MIN_ROWS`). An empty
    ``to.radii`` (rays: :func:`cast_range` reads no radius) is left so, its column not copied.

    A loop for each width, its components written out (a loop over them made the copy of
    10,000 rows 81 against 51 us, 41 without the radii; load 7)."""
    radii = to.radii.shape[0] > 0
    if casts.origins.shape[1] == 2:
        for k in range(order.shape[0]):
            i = order[k]
            to.origins[k, 0] = casts.origins[i, 0]
            to.origins[k, 1] = casts.origins[i, 1]
            to.directions[k, 0] = casts.directions[i, 0]
            to.directions[k, 1] = casts.directions[i, 1]
            to.tmax[k] = casts.tmax[i]
            if radii:
                to.radii[k] = casts.radii[i]
        return
    for k in range(order.shape[0]):
        i = order[k]
        for j in range(3):
            to.origins[k, j] = casts.origins[i, j]
            to.directions[k, j] = casts.directions[i, j]
        to.tmax[k] = casts.tmax[i]
        if radii:
            to.radii[k] = casts.radii[i]


@kernel
def scatter_hits(found: Hits, order: np.ndarray, to: Hits) -> None:
    """Copy the hits of rows k of ``found`` to the rows ``order[k]`` of ``to``:
    :func:`gather_casts` undone. An empty ``to.inside`` (rays: ``raycast_many`` returns no
    such column) is left so. A loop for each width (as :func:`gather_casts`: 112 against 72 us
    for 10,000 rows, the ``inside`` column left out; load 7)."""
    inside = to.inside.shape[0] > 0
    if found.point.shape[1] == 2:
        for k in range(order.shape[0]):
            i = order[k]
            to.handle[i] = found.handle[k]
            to.t[i] = found.t[k]
            to.point[i, 0] = found.point[k, 0]
            to.point[i, 1] = found.point[k, 1]
            to.normal[i, 0] = found.normal[k, 0]
            to.normal[i, 1] = found.normal[k, 1]
            if inside:
                to.inside[i] = found.inside[k]
        return
    for k in range(order.shape[0]):
        i = order[k]
        to.handle[i] = found.handle[k]
        to.t[i] = found.t[k]
        for j in range(3):
            to.point[i, j] = found.point[k, j]
            to.normal[i, j] = found.normal[k, j]
        if inside:
            to.inside[i] = found.inside[k]


@inline_kernel
def _ray_at(o: np.ndarray, v: np.ndarray, radii: np.ndarray, tmax: np.ndarray, i: int, d: int,
            grown: bool, normalise: bool
            ) -> tuple[int, float, float, float, float, float, float, float, float]:
    """Row ``i`` of a batch as :func:`cast_range` reads it: ``(i, ox, oy, oz, dx, dy, dz, r,
    tmax)`` (z 0 in 2D, r 0 for rays), the direction divided by its length when
    ``normalise`` (a :class:`~swept.Ray`'s bits: :func:`~swept._kernels.geom.unit2` in 2D,
    :func:`~swept._kernels.geom.length3` in 3D).
    Inlined on views without an owner: no counts."""
    dx = v[i, 0]
    dy = v[i, 1]
    dz = v[i, 2] if d == 3 else 0.0
    if normalise:
        if d == 2:
            dx, dy, _length = unit2(dx, dy)
        else:
            length = length3(dx, dy, dz)
            dx /= length
            dy /= length
            dz /= length
    return (i, o[i, 0], o[i, 1], o[i, 2] if d == 3 else 0.0, dx, dy, dz,
            radii[i] if grown else 0.0, tmax[i])


#: Rays ahead whose first grid cell :func:`cast_range` asks for (:func:`_hint_cell`), then
#: whose cell's entry list, then whose first entries' rows: each stage reads only what the
#: one before asked for, so no stage waits on memory.
HINT_CELL_AHEAD = 12
HINT_LIST_AHEAD = 6
HINT_ROWS_AHEAD = 2
#: Entries of a cell whose rows :func:`_hint_cell` asks for.
HINT_ROWS = 3
#: :func:`cast_range` hints only on a grid whose ``links`` and gridded colliders hold at least
#: this many values together (2 MiB, four times a core's L2 cache here; one value a gridded
#: collider: ``links`` held their handles when this was measured, and the grid's starts and
#: entries one a value, as when they were int64: :func:`_hint_values`; so the same scenes hint
#: as then): on a smaller one the first cells are mostly in cache anyway and the hints only
#: cost. Measured (``benchmarks/ab_rays.py``, 2,000 rays, new / main, load 2-5, both build
#: orders): from 2^17 (1 MiB) the 10% moving scene at 10,000 (287,379 values) read 1.06 /
#: 1.07 and uniform segments at 10,000 (314,233) 0.99 / 0.98, where every kind (642,327),
#: large boxes (810,576) and small and long mixed (531,095) at 10,000 read 0.87-0.96; the
#: mixed scene without the hints (its ``links`` alone, 521,095, as first counted when the
#: handles left them: ``rays34``) read 1.45 of the time. Lowered from 2^19 on 2026-12-04, for
#: new rays each call (as a game casts them), against 2^19 (``ab_rays.py``, 81 rounds, both
#: build orders, load 1): uniform segments at 10,000 0.81 / 0.78 on fresh ray sets and 0.92 /
#: 0.93 on repeated ones, the 10% moving scene at 10,000 0.92 / 0.85 fresh and 1.01 / 1.00
#: repeated, clusters at 10,000 (123,631 values, no hints either way: the control) 1.00 / 1.01
#: and 0.99 / 1.04. From 2^16 the clusters and coordinates of 1e6 at 10,000 (131,227), grids
#: that stay in a core's L2, read 1.05-1.07 on fresh rays: there the hints only cost.
HINT_MIN_LINKS = 1 << 18


@inline_kernel
def _hint_values(links: np.ndarray) -> int:
    """The values :data:`HINT_MIN_LINKS` counts: ``links``, its grid's starts and entries
    counted one a value as when they were int64 (:func:`~swept._kernels.grid.grid_of`), and
    one a gridded collider."""
    end = links[H_MOVING_GRID] if links[H_MOVING_GRID] > 0 else links.shape[0]
    return (links.shape[0] + (end - links[H_GRID_CELLS] // 2) + links[H_GRID_UNITS]
            - links[H_GRID_BOXES])


@inline_kernel
def _origin_cell(scene: Scene, ox: float, oy: float) -> int:
    """The index of the grid cell holding the 2D point ``(ox, oy)`` in the grid's starts
    (:func:`~swept._kernels.grid.grid_of`), or -1 when it
    lies outside the grid (or the scene has none)."""
    links = scene.links
    gnx = links[H_GRID_NX]
    if gnx <= 0:
        return -1
    frame = links[H_FRAME]
    fx = (ox - scene.nodes[frame, 0]) / scene.nodes[frame, 2]
    fy = (oy - scene.nodes[frame, 1]) / scene.nodes[frame, 2]
    if not (fx >= 0.0 and fy >= 0.0 and fx < gnx and fy < links[H_GRID_NY]):
        return -1
    return links[H_GRID_CELLS] + int(fx) + gnx * int(fy)


@inline_kernel
def _hint_cell(scene: Scene, o: np.ndarray, i: int, stage: int) -> None:
    """Ask for what row ``i``'s 2D ray (origin ``o[i]``) reads first in the uniform grid,
    one stage of :data:`HINT_CELL_AHEAD`'s: 0 its cell's bounds, 1 its cell's entry list (the
    bounds asked for before), 2 its first :data:`HINT_ROWS` entries' grid rows (each row holds
    its handle). The batch's rays start anywhere: on a grid larger than the cache each ray's
    first cell is a wait on memory, which the hints of the rays ahead overlap with the casts."""
    c = _origin_cell(scene, o[i, 0], o[i, 1])
    if c < 0:
        return
    links = scene.links
    grid = grid_of(links)
    if stage == 0:
        _prefetch_item(grid, c)
        return
    items = links[H_GRID_ITEMS]
    lo = grid[c] & CELL_START
    if stage == 1:
        _prefetch_item(grid, items + lo)
        return
    hi = grid[c + 1] & CELL_START
    for j in range(lo, min(hi, lo + HINT_ROWS)):
        e = grid[items + j]
        if e < 0:
            # a crowded cell's sub-grid
            break
        _prefetch_item(scene.nodes[links[H_GRID_BOXES] + entry_of(e)[0]], 0)


@kernel
def cast_range(first: int, stop: int, scene: Scene, casts: Casts, order: np.ndarray,
               mask: int, flags: int, out: Hits) -> None:
    """:func:`_cast` for the rows ``order[first .. stop-1]`` of a batch (``order`` a
    permutation of its rows, :func:`spatial_order`; empty: the rows ``first .. stop-1``
    themselves), writing those rows of ``out`` (a range kernel: any split of a batch into
    ranges gives the same answers). ``flags``: :data:`CAST_GROWN` (balls of
    ``casts.radii``), :data:`CAST_SKIPPING`, :data:`CAST_GATHERED`, :data:`CAST_NORMALISE`
    (directions of any nonzero length).

    The World's one compiled cast: the batch queries call it once a range, the scalar ones
    (:func:`cast_one`) on a one-row batch. Its traversal stack is on the call's own frame
    (:func:`_frame_stack`), so a call allocates nothing."""
    if first >= stop:
        return
    # no reference counts in the loop (unowned): every array it passes or reads is a view
    # without an owner, each kept alive by an argument (the cast inlined: a call of a
    # compiled cast once a ray made the batch's casts through the trees 1.2x slower)
    stack = carray(_frame_stack(), (STACK_SIZE, 2))
    scene = unowned(scene)
    casts = unowned(casts)
    order = unowned(order)
    out = unowned(out)
    d = casts.origins.shape[1]
    o = casts.origins
    v = casts.directions
    grown = (flags & CAST_GROWN) != 0
    normalise = (flags & CAST_NORMALISE) != 0
    ordered = order.shape[0] > 0
    radii = casts.radii
    tmax = casts.tmax
    # each ray's inputs are read (and its direction normalised, here where the threads share
    # the work) one ray ahead, before the cast of the one before: in the spatial order they
    # lie anywhere in the arrays, and read so their loads and the length's square root and
    # divisions overlap a cast instead of stalling the next (measured: see
    # RAY_ORDER_PER_BUCKET)
    ahead = _ray_at(o, v, radii, tmax, order[first] if ordered else first, d, grown, normalise)
    hints = (d == 2 and not grown and not ordered and (flags & CAST_GATHERED) == 0
             and scene.links[H_GRID_NX] > 0 and _hint_values(scene.links) >= HINT_MIN_LINKS)
    for k in range(first, stop):
        i, ox, oy, oz, dx, dy, dz, r, limit = ahead
        if hints:
            # the first cells of the rays ahead asked for, in stages (_hint_cell; hints are
            # only asked for a batch cast in its own row order)
            for stage, at in enumerate((HINT_CELL_AHEAD, HINT_LIST_AHEAD, HINT_ROWS_AHEAD)):
                if k + at < stop:
                    _hint_cell(scene, o, k + at, stage)
        if k + 1 < stop:
            ahead = _ray_at(o, v, radii, tmax, order[k + 1] if ordered else k + 1, d, grown,
                            normalise)
        h, t, px, py, pz, nx, ny, nz, inside = _cast(
            scene, stack, (ox, oy, oz, dx, dy, dz), r, limit, mask, flags)
        out.handle[i] = h
        out.t[i] = t
        out.inside[i] = inside
        out.point[i, 0] = px
        out.point[i, 1] = py
        out.normal[i, 0] = nx
        out.normal[i, 1] = ny
        if d == 3:
            out.point[i, 2] = pz
            out.normal[i, 2] = nz


@kernel
def within(a: np.ndarray, limit: float) -> bool:
    """Whether every value of ``a`` (n, d), C-ordered, has magnitude at most ``limit`` (a
    NaN has not). One pass without an early exit, so that it vectorises."""
    flat = a.reshape(a.size)
    inside = 0
    for i in range(flat.shape[0]):
        inside += abs(flat[i]) <= limit
    return inside == flat.shape[0]


@kernel
def zero_length_row(v: np.ndarray) -> int:
    """The first row of ``v`` (n, d) that is the zero vector (the only rows whose length is
    zero: ``hypot`` in 2D and the rescaled square root in 3D never underflow), or -1."""
    d = v.shape[1]
    for i in range(v.shape[0]):
        if v[i, 0] == 0.0 and v[i, 1] == 0.0 and (d == 2 or v[i, 2] == 0.0):
            return i
    return -1


@kernel
def rays_fine(origins: np.ndarray, directions: np.ndarray, limit: float) -> bool:
    """Whether a batch of rays passes its checks: every value of ``origins`` and
    ``directions`` (C-ordered, both (n, d)) of magnitude at most ``limit`` (a NaN is not) and
    no direction the zero vector. :func:`within` of both and :func:`zero_length_row` in one
    call (``World.raycast_many`` paid three), each a pass without an early exit, so that it
    vectorises."""
    n, d = directions.shape
    a = origins.reshape(origins.size)
    b = directions.reshape(directions.size)
    inside = 0
    for i in range(a.shape[0]):
        inside += (abs(a[i]) <= limit) + (abs(b[i]) <= limit)
    # (only the zero vector's magnitudes sum to zero; a loop for each width, with a
    # constant stride: 1.9 against 2.6 us for 2,000 rows with the width tested in one loop)
    zero = 0
    if d == 2:
        for i in range(n):
            zero += (abs(b[2 * i]) + abs(b[2 * i + 1])) == 0.0
    else:
        for i in range(n):
            zero += (abs(b[3 * i]) + abs(b[3 * i + 1]) + abs(b[3 * i + 2])) == 0.0
    return inside == 2 * a.shape[0] and zero == 0


# ---------------------------------------------------------------------------------------------
# contacts


@kernel
def contact_range(first: int, stop: int, scene: Scene, balls: Balls, mask: int,
                  out: Touches) -> None:
    """The deepest contact (ties: smallest handle) of balls ``first .. stop-1`` with the
    visible colliders, as ``contact(ball, collider)`` answers: their rows of ``out``."""
    # no reference counts in the loop (_unowned_view): its arrays are views without an
    # owner, each kept alive by an argument or by the scratch arrays (used after the loop)
    scene = unowned(scene)
    balls = unowned(balls)
    out = unowned(out)
    nodes = scene.nodes
    links = scene.links
    d = balls.centers.shape[1]
    scratch = np.empty(STACK_SIZE + scene.rows.shape[0] + 1, np.int64)
    stack = unowned(scratch[:STACK_SIZE])
    # every collider a query can list (each row at most once): never too small
    near = unowned(scratch[STACK_SIZE:].reshape((1, scene.rows.shape[0] + 1)))
    floats = np.zeros(12)
    query = unowned(floats[:6])
    best = unowned(floats[6:])
    for i in range(first, stop):
        cx = balls.centers[i, 0]
        cy = balls.centers[i, 1]
        cz = balls.centers[i, 2] if d == 3 else 0.0
        r = balls.radii[i]
        for a in range(d):
            query[a] = balls.centers[i, a] - r
            query[3 + a] = balls.centers[i, a] + r
        best_h = -1
        best_depth = -math.inf
        best[:] = 0.0
        count = box_gather(nodes, links, static_tree(links), moving_tree(links), stack, query,
                           scene.rows, LO, near, 0, 0)
        # then the unbounded colliders: every one
        first_plane = links[H_PLANES]
        for j in range(first_plane, first_plane + links[H_PLANE_COUNT]):
            near[0, count] = links[j]
            count += 1
        for c in range(count):
            h = near[0, c]
            if (scene.tags[h, LAYER] & mask) == 0:
                continue
            hit, nx, ny, nz, depth, px, py, pz = contact_row(scene, h, cx, cy, cz, r)
            if hit and (depth > best_depth or (depth == best_depth and h < best_h)):
                best_h = h
                best_depth = depth
                best[0], best[1], best[2] = nx, ny, nz
                best[3], best[4], best[5] = px, py, pz
        out.handle[i] = best_h
        out.depth[i] = best_depth if best_h >= 0 else 0.0
        for a in range(d):
            # (+ 0.0 turns a -0.0 normal component into 0.0, as contact() does)
            out.normal[i, a] = best[a] + 0.0
            out.point[i, a] = best[3 + a]
    # (uses of the scratch arrays after the loop: they live until here)
    scratch[0] = 0
    floats[0] = 0.0


# ---------------------------------------------------------------------------------------------
# candidates, for the queries finished in Python


@kernel
def box_candidates(scene: Scene, query: np.ndarray, out: np.ndarray) -> int:
    """Handles of the colliders whose boxes touch ``query`` ((6,) ``lo xyz hi xyz``), the
    planes included, written to ``out``; returns how many (when more than ``len(out)``, call
    again with a buffer that large)."""
    nodes = scene.nodes
    links = scene.links
    stack = np.empty(STACK_SIZE, np.int64)
    row = out.reshape((1, out.shape[0]))
    found = box_gather(nodes, links, static_tree(links), moving_tree(links), stack, query,
                       scene.rows, LO, row, 0, 0)
    cap = out.shape[0]
    first_plane = links[H_PLANES]
    for j in range(first_plane, first_plane + links[H_PLANE_COUNT]):
        if found < cap:
            out[found] = links[j]
        found += 1
    return found


@kernel
def ray_candidates(scene: Scene, ray: tuple[float, float, float, float, float, float],
                   tmax: float, radius: float, out: np.ndarray) -> int:
    """Handles of the colliders whose boxes, grown by ``radius``, the ray segment [0, tmax]
    touches, the planes included, written to ``out`` front to back by node entry; returns how
    many (grow strategy as :func:`box_candidates`)."""
    nodes = scene.nodes
    links = scene.links
    probe = make_probe(ray[0], ray[1], ray[2], ray[3], ray[4], ray[5], radius, links[H_DIM])
    stack = np.empty((STACK_SIZE, 2))
    cap = out.shape[0]
    found = 0
    for which in range(2):
        tree = static_tree(links) if which == 0 else moving_tree(links)
        node, sp = ray_first_leaf(nodes, links, tree, stack, probe, tmax)
        for _ in range(tree[1]):
            if node < 0:
                break
            lo_j, hi_j = leaf_items(links, tree, node)
            for j in range(lo_j, hi_j):
                h = links[j]
                if box_entry_at(scene.rows, h, LO, probe, tmax) != math.inf:
                    if found < cap:
                        out[found] = h
                    found += 1
            node, sp = ray_next_leaf(nodes, links, tree, stack, sp, probe, tmax)
    first_plane = links[H_PLANES]
    for j in range(first_plane, first_plane + links[H_PLANE_COUNT]):
        if found < cap:
            out[found] = links[j]
        found += 1
    return found

