"""Broadphase: a bounding volume hierarchy (BVH) over axis-aligned boxes, in 2D and 3D: one
build, one refit and one traversal, which every query of the World walks.

Layout. A tree is two arrays, ``nodes`` and ``links`` (:func:`build` returns them), so that a
scene can hold several trees in the same two arrays (:mod:`swept._kernels.scene`):

``nodes`` (m, 6) float64
    Node k's box ``lox loy loz hix hiy hiz`` (z is 0 in 2D): the exact componentwise min / max
    of the boxes below it.
``links`` (3 m + n,) int64
    Per node ``child start count``: an internal node's left child (the right one is ``child +
    1``; children have larger indices than their parent, node 0 is the root), or -1 for a
    leaf; the node's primitives are ``items[start : start + count]`` (a leaf holds 1 to
    :data:`LEAF_SIZE`, an internal node every primitive of its subtree). Then ``items`` (n,):
    a permutation of the primitive indices, grouped leaf by leaf.

A tree inside a larger pair of arrays is addressed by a :data:`TreeAt` tuple ``(root, count,
node_links, items, dim)``: its node k is row ``root + k`` of ``nodes``, its triple starts at
``links[node_links + 3 k]``, its items at ``links[items + start]``; :func:`whole` gives the
tuple of a tree that fills its arrays. Primitive boxes are given as one (n, 6) array in the
nodes' column order (:func:`box_rows`), or as the box columns of the scene's collider table.

The one traversal: :func:`ray_first_leaf` / :func:`ray_next_leaf` hand the caller the leaves a
ray (or a fat ray: a ball's path, boxes grown by its radius) touches, front to back, the caller
testing the leaf's primitives and shrinking its limit to the best hit so far; a node entered
beyond the limit is dropped. :func:`box_gather` lists the primitives whose
boxes touch a box, in one loop (a box walk has no limit to shrink, so it need not hand each leaf
to its caller). Everything else here (:func:`query_aabb`, :func:`ray_candidates_ordered`,
:func:`ray_closest_boxes`, the World's kernels) is a loop over those leaves or a call of
:func:`box_gather`.

The tree depth (root at depth 0) never exceeds :data:`MAX_DEPTH`, so every traversal stack of
:data:`STACK_SIZE` rows suffices. A ray walk's stack is a (:data:`STACK_SIZE`, 2) float64 array:
node, and the t at which the ray enters it; the box walk's a (:data:`STACK_SIZE`,) int64 array.

Degenerate boxes (every query stays exact, equal to brute force):

- *Point boxes* (``lo == hi``) and *duplicates* are ordinary primitives.
- *Infinite bounds* (``lo = -inf`` and/or ``hi = +inf`` on some axes, as the box of a
  half-plane or a line) are supported: the build clamps them only to choose its splits, node
  boxes stay exact (infinite), and queries stay exact. But every ancestor of such a box is
  infinite too, so every query descends there: a caller with a few unbounded colliders
  (planes) should keep them out of the tree and test them in a plain loop.
- *Empty boxes*: the empty box ``lo = +inf, hi = -inf`` on every axis (:data:`EMPTY_LO`,
  :data:`EMPTY_HI`) overlaps nothing, contains no point, no ray touches it, and it leaves its
  ancestors' boxes as if it were absent: a placeholder for a removed collider. (Box and point
  queries treat any box with ``lo > hi`` on some axis as empty; rays are only exact for the
  canonical one.) An empty query box (``qlo > qhi`` on some axis) finds nothing.
- NaN anywhere (boxes, query boxes, rays) is not supported: the caller validates input.

Touching counts: boxes that share only a face, an edge or a corner overlap; a ray that grazes a
box's face, or whose segment ends exactly on a box, touches it.

Ray parameter: a ray is ``origin + t * direction`` for t in [0, tmax]; t is in units of the
direction's length (a distance when the direction is a unit vector, as the World passes it).
The kernels do not normalise; a zero direction touches exactly the boxes that contain the
origin, at t = 0. Closest-hit ties: smallest t, then smallest primitive index.

Queries only read the tree, so any number may run at once; :func:`refit` writes it, so nothing
may query during a refit.
"""

from __future__ import annotations

import math

import numpy as np

from ..constants import AREA_EXTENT_CAP, CENTROID_CLAMP, MAX_DEPTH, MIN_DIRECTION_COMPONENT
from . import callee, inline_kernel, kernel
from .order import float_order
from .scalars import truncated

#: Where a tree lies in a pair of ``nodes`` / ``links`` arrays: ``(root, count, node_links,
#: items, dim)`` (module docstring).
TreeAt = tuple[int, int, int, int, int]
#: A ray (or a fat ray) as the traversal reads it: ``(ox, oy, oz, ix, iy, iz, r, dim)``, the
#: origin, the inverse direction (:func:`inverse_direction`; in 2D ``oz = 0``, ``iz = inf``)
#: and the radius every box grows by; dim as a float.
Probe = tuple[float, float, float, float, float, float, float, float]
#: The :data:`TreeAt` of no tree (no nodes), for :func:`box_gather`'s second tree.
NO_TREE = (0, 0, 0, 0, 2)

#: Most primitives in one leaf. Small leaves suit the World, whose per-primitive narrowphase
#: (a segment or polygon test) costs more than a box test.
LEAF_SIZE = 4
#: Number of centroid bins per axis in the binned SAH (surface area heuristic) split search.
SAH_BINS = 16
#: Entries a traversal stack needs: a node at depth k is popped with at most k entries waiting
#: (one sibling per level above it), then pushes its two children: k + 2 <= MAX_DEPTH + 1.
STACK_SIZE = MAX_DEPTH + 1
#: A :data:`Probe`'s dim slot for a 2D ray of no radius whose inverse direction is finite on
#: both axes: its box tests take :func:`_lean_entry2` (the same t, fewer operations).
PROBE_LEAN2 = -2.0
#: Lower bound of an empty box, which nothing overlaps and no ray touches.
EMPTY_LO = math.inf
#: Upper bound of an empty box.
EMPTY_HI = -math.inf
#: :func:`build_with` split rule: binned SAH, with median fallback (the default of build).
SPLIT_SAH = 0
#: :func:`build_with` split rule: object median on the axis of largest centroid spread.
SPLIT_MEDIAN = 1


# ---------------------------------------------------------------------------------------------
# ray vs box: the slab test


@kernel
def inverse_direction(component: float) -> float:
    """The inverse of one direction component for the slab test: ``1 / component``, or +inf
    when the component is (nearly) zero, meaning the ray is parallel to that axis' slabs."""
    if abs(component) < MIN_DIRECTION_COMPONENT:
        return math.inf
    return 1.0 / component


@callee
def _clip_slab(o: float, inv: float, lo: float, hi: float, t0: float, t1: float
               ) -> tuple[float, float]:
    """The ray interval [t0, t1] clipped to one axis' slab ``lo <= o + t d <= hi``.

    ``inv`` is :func:`inverse_direction` of d; an infinite ``inv`` means parallel. An empty
    result has t0 > t1. No NaN arises: ``inv`` is finite and nonzero whenever it multiplies.
    """
    if math.isinf(inv):
        # parallel to the slabs: inside them for every t (touching counts), or never
        if o < lo or o > hi:
            return math.inf, -math.inf
        return t0, t1
    if inv >= 0.0:
        # moving up the axis: enter through lo, leave through hi
        near = (lo - o) * inv
        far = (hi - o) * inv
    else:
        # moving down the axis: enter through hi, leave through lo
        near = (hi - o) * inv
        far = (lo - o) * inv
    if near > t0:
        t0 = near
    if far < t1:
        t1 = far
    return t0, t1


@kernel
def ray_box_entry2(ox: float, oy: float, ix: float, iy: float, tmax: float, lox: float,
                   loy: float, hix: float, hiy: float) -> float:
    """Where the 2D ray segment ``o + t d``, t in [0, tmax], first touches a box: the entry t
    (0 when the origin is inside or on it), or +inf when it misses.

    ``ix, iy`` are :func:`inverse_direction` of the direction's components. Monotone: a box
    that contains another is entered no later (exactly, in floating point), which makes
    pruning a tree by entry t safe.
    """
    t0, t1 = _clip_slab(ox, ix, lox, hix, 0.0, tmax)
    t0, t1 = _clip_slab(oy, iy, loy, hiy, t0, t1)
    if t0 > t1:
        # the slab intervals do not meet within [0, tmax]
        return math.inf
    return t0


@kernel
def ray_box_entry3(ox: float, oy: float, oz: float, ix: float, iy: float, iz: float,
                   tmax: float, lox: float, loy: float, loz: float, hix: float, hiy: float,
                   hiz: float) -> float:
    """The 3D counterpart of :func:`ray_box_entry2`: entry t of the segment into a box, or inf."""
    t0, t1 = _clip_slab(ox, ix, lox, hix, 0.0, tmax)
    t0, t1 = _clip_slab(oy, iy, loy, hiy, t0, t1)
    t0, t1 = _clip_slab(oz, iz, loz, hiz, t0, t1)
    if t0 > t1:
        return math.inf
    return t0


@inline_kernel
def _lean_entry2(ox: float, oy: float, ix: float, iy: float, tmax: float, lox: float,
                 loy: float, hix: float, hiy: float) -> float:
    """:func:`ray_box_entry2` for finite ``ix`` and ``iy``, its two slabs' sides picked by
    selects: the same products compared in the same order, so the same entry t (or inf)."""
    ax = (lox - ox) * ix
    bx = (hix - ox) * ix
    ay = (loy - oy) * iy
    by = (hiy - oy) * iy
    up_x = ix >= 0.0
    up_y = iy >= 0.0
    near_x = ax if up_x else bx
    far_x = bx if up_x else ax
    near_y = ay if up_y else by
    far_y = by if up_y else ay
    t0 = near_x if near_x > 0.0 else 0.0
    t1 = far_x if far_x < tmax else tmax
    t0 = near_y if near_y > t0 else t0
    t1 = far_y if far_y < t1 else t1
    return math.inf if t0 > t1 else t0


@inline_kernel
def make_probe(ox: float, oy: float, oz: float, dx: float, dy: float, dz: float, r: float,
               dim: int) -> Probe:
    """The :data:`Probe` of a ray from ``o`` along ``d`` (z ignored in 2D), boxes grown by
    ``r``."""
    if dim == 2:
        return (ox, oy, 0.0, inverse_direction(dx), inverse_direction(dy), math.inf, r, 2.0)
    return (ox, oy, oz, inverse_direction(dx), inverse_direction(dy), inverse_direction(dz), r,
            3.0)


@inline_kernel
def lean_probe(probe: Probe) -> Probe:
    """``probe`` marked for the lean slab test (:data:`PROBE_LEAN2`) when it is a 2D ray of no
    radius whose inverse direction is finite on both axes; any other unchanged. A tree walk
    asks for it once a ray (the grid's walk reads no box through the probe)."""
    ox, oy, oz, ix, iy, iz, r, dim = probe
    if dim == 2.0 and r == 0.0 and not (math.isinf(ix) or math.isinf(iy)):
        return (ox, oy, oz, ix, iy, iz, r, PROBE_LEAN2)
    return probe


@inline_kernel
def box_entry(boxes: np.ndarray, k: int, probe: Probe, limit: float) -> float:
    """Entry t of the probe's segment [0, limit] into row k of a (., 6) box array grown by
    the probe's radius (inf: a miss); the grown box holds every primitive below it grown by
    that radius."""
    return box_entry_at(boxes, k, 0, probe, limit)


@inline_kernel
def box_entry_at(boxes: np.ndarray, k: int, col: int, probe: Probe, limit: float) -> float:
    """:func:`box_entry` of the box in columns ``col .. col+5`` of row k (the collider
    table's box columns, read in place: a column view would be reference-counted)."""
    ox, oy, oz, ix, iy, iz, r, dim = probe
    if dim == PROBE_LEAN2:
        # an unsigned row index: no negative-index wraparound (world._skip_empty)
        u = np.uint64(k)
        return _lean_entry2(ox, oy, ix, iy, limit, boxes[u, col], boxes[u, col + 1],
                            boxes[u, col + 3], boxes[u, col + 4])
    if dim == 2.0:
        return ray_box_entry2(ox, oy, ix, iy, limit, boxes[k, col] - r, boxes[k, col + 1] - r,
                              boxes[k, col + 3] + r, boxes[k, col + 4] + r)
    return ray_box_entry3(ox, oy, oz, ix, iy, iz, limit, boxes[k, col] - r,
                          boxes[k, col + 1] - r, boxes[k, col + 2] - r, boxes[k, col + 3] + r,
                          boxes[k, col + 4] + r, boxes[k, col + 5] + r)


@inline_kernel
def box_touches(boxes: np.ndarray, k: int, query: np.ndarray, dim: int) -> bool:
    """Whether row k of a (., 6) box array overlaps or touches the query box ``query`` (6,)
    (same column order); an empty row (lo > hi on some axis) touches nothing."""
    return box_touches_at(boxes, k, 0, query, dim)


@inline_kernel
def box_touches_at(boxes: np.ndarray, k: int, col: int, query: np.ndarray, dim: int) -> bool:
    """:func:`box_touches` of the box in columns ``col .. col+5`` of row k."""
    for a in range(dim):
        lo = boxes[k, col + a]
        hi = boxes[k, col + 3 + a]
        # separated along axis a (sharing a face still touches), or empty along it
        if lo > query[3 + a] or hi < query[a] or lo > hi:
            return False
    return True


# ---------------------------------------------------------------------------------------------
# build


@callee
def _median_levels(count: int) -> int:
    """Levels of median splits (each child at most half, rounded up) until leaves fit."""
    levels = 0
    for _ in range(MAX_DEPTH + 1):
        if count <= LEAF_SIZE:
            break
        count = (count + 1) // 2
        levels += 1
    return levels


@callee
def _half_area(blo: np.ndarray, bhi: np.ndarray, d: int) -> float:
    """The SAH cost measure of a box: half its perimeter in 2D, half its surface area in 3D
    (proportional to the chance a random line crosses it). Extents clamped to
    [0, AREA_EXTENT_CAP], so empty boxes measure 0 and infinite ones are finite."""
    ex = bhi[0] - blo[0]
    ey = bhi[1] - blo[1]
    # empty (negative extent) or NaN from inf - inf: measure nothing
    ex = min(ex, AREA_EXTENT_CAP) if ex > 0.0 else 0.0
    ey = min(ey, AREA_EXTENT_CAP) if ey > 0.0 else 0.0
    if d == 2:
        return ex + ey
    ez = bhi[2] - blo[2]
    ez = min(ez, AREA_EXTENT_CAP) if ez > 0.0 else 0.0
    return ex * ey + ey * ez + ez * ex


@callee
def _centroid_bin(c: float, cmin: float, extent: float) -> int:
    """The SAH bin (0 .. SAH_BINS-1) of a centroid coordinate within [cmin, cmin + extent]."""
    # divide first: (c - cmin) / extent is in [0, 1] and cannot overflow
    b = int(SAH_BINS * ((c - cmin) / extent))
    return min(b, SAH_BINS - 1)


@inline_kernel
def _centroid_bounds(cen: np.ndarray, start: int, count: int, cmin: np.ndarray,
                     cmax: np.ndarray) -> None:
    """The componentwise min / max of the centroids ``cen[start : start+count]``."""
    d = cen.shape[1]
    for k in range(d):
        cmin[k] = math.inf
        cmax[k] = -math.inf
    for j in range(start, start + count):
        for k in range(d):
            c = cen[j, k]
            cmin[k] = min(cmin[k], c)
            cmax[k] = max(cmax[k], c)


@inline_kernel
def _sah_plane(lo: np.ndarray, hi: np.ndarray, cen: np.ndarray, start: int, count: int,
               cmin: np.ndarray, cmax: np.ndarray,
               scratch: tuple[np.ndarray, np.ndarray, np.ndarray, np.ndarray, np.ndarray,
                              np.ndarray, np.ndarray]) -> tuple[int, int]:
    """The cheapest binned-SAH plane of the boxes ``start : start+count`` (rows of the
    build's permuted arrays) as ``(axis, bin)``: boxes whose centroid falls in a bin below
    ``bin`` on ``axis`` go left. ``(-1, -1)`` when every centroid coincides.

    Cost of a plane: ``area(left) * n_left + area(right) * n_right``. Ties keep the lowest
    axis, then the lowest plane, so the build is deterministic. One pass bins every box on
    every axis at once. ``scratch`` holds ``(bin_count (d, B), bin_lo (d, B, d), bin_hi,
    right_area (B,), right_count (B,), acc_lo (d,), acc_hi (d,))``.
    """
    bin_count, bin_lo, bin_hi, right_area, right_count, acc_lo, acc_hi = scratch
    d = lo.shape[1]
    for a in range(d):
        for b in range(SAH_BINS):
            bin_count[a, b] = 0
            for k in range(d):
                bin_lo[a, b, k] = math.inf
                bin_hi[a, b, k] = -math.inf
    for j in range(start, start + count):
        for a in range(d):
            extent = cmax[a] - cmin[a]
            if not extent > 0.0:
                # all centroids share this coordinate: nothing to bin on this axis
                continue
            b = _centroid_bin(cen[j, a], cmin[a], extent)
            bin_count[a, b] += 1
            for k in range(d):
                bin_lo[a, b, k] = min(bin_lo[a, b, k], lo[j, k])
                bin_hi[a, b, k] = max(bin_hi[a, b, k], hi[j, k])
    best_cost = math.inf
    best_axis = -1
    best_split = -1
    for a in range(d):
        if not cmax[a] - cmin[a] > 0.0:
            # no plane on this axis separates the centroids
            continue
        # sweep from the right: bins s .. SAH_BINS-1 form the right part of plane s
        n_acc = 0
        for k in range(d):
            acc_lo[k] = math.inf
            acc_hi[k] = -math.inf
        for s in range(SAH_BINS - 1, 0, -1):
            n_acc += bin_count[a, s]
            for k in range(d):
                acc_lo[k] = min(acc_lo[k], bin_lo[a, s, k])
                acc_hi[k] = max(acc_hi[k], bin_hi[a, s, k])
            right_count[s] = n_acc
            right_area[s] = _half_area(acc_lo, acc_hi, d)
        # sweep from the left: bins 0 .. s-1 form the left part of plane s
        n_acc = 0
        for k in range(d):
            acc_lo[k] = math.inf
            acc_hi[k] = -math.inf
        for s in range(1, SAH_BINS):
            n_acc += bin_count[a, s - 1]
            for k in range(d):
                acc_lo[k] = min(acc_lo[k], bin_lo[a, s - 1, k])
                acc_hi[k] = max(acc_hi[k], bin_hi[a, s - 1, k])
            if n_acc == 0 or right_count[s] == 0:
                # one side empty: not a split
                continue
            cost = _half_area(acc_lo, acc_hi, d) * n_acc + right_area[s] * right_count[s]
            if cost < best_cost:
                best_cost = cost
                best_axis = a
                best_split = s
    return best_axis, best_split


@callee
def _swap_rows(lo: np.ndarray, hi: np.ndarray, cen: np.ndarray, order: np.ndarray, i: int,
               j: int) -> None:
    """Exchange rows i and j of the build's permuted arrays."""
    for k in range(lo.shape[1]):
        lo[i, k], lo[j, k] = lo[j, k], lo[i, k]
        hi[i, k], hi[j, k] = hi[j, k], hi[i, k]
        cen[i, k], cen[j, k] = cen[j, k], cen[i, k]
    order[i], order[j] = order[j], order[i]


@inline_kernel
def _sah_partition(lo: np.ndarray, hi: np.ndarray, cen: np.ndarray, order: np.ndarray,
                   start: int, count: int, cmin: np.ndarray, cmax: np.ndarray,
                   scratch: tuple[np.ndarray, np.ndarray, np.ndarray, np.ndarray, np.ndarray,
                                  np.ndarray, np.ndarray]) -> int:
    """Partition rows ``start : start+count`` by the cheapest binned-SAH plane
    (:func:`_sah_plane`); returns the size of the left part, or 0 when every centroid
    coincides (no plane separates them)."""
    axis, split = _sah_plane(lo, hi, cen, start, count, cmin, cmax, scratch)
    if axis < 0:
        return 0
    c0 = cmin[axis]
    extent = cmax[axis] - c0
    # in place: centroids in bins below the plane go left
    i = start
    j = start + count - 1
    for _ in range(count):
        if i > j:
            break
        if _centroid_bin(cen[i, axis], c0, extent) < split:
            i += 1
        else:
            _swap_rows(lo, hi, cen, order, i, j)
            j -= 1
    return i - start


@inline_kernel
def _median_partition(lo: np.ndarray, hi: np.ndarray, cen: np.ndarray, order: np.ndarray,
                      start: int, count: int, cmin: np.ndarray, cmax: np.ndarray) -> int:
    """Sort rows ``start : start+count`` by centroid along the axis of largest centroid
    spread (ties: lowest axis; equal centroids keep their order, a stable sort) and split them
    in half; returns the size of the left half, ``count // 2``."""
    d = cen.shape[1]
    best_axis = 0
    best_extent = -1.0
    for a in range(d):
        if cmax[a] - cmin[a] > best_extent:
            best_extent = cmax[a] - cmin[a]
            best_axis = a
    stop = start + count
    # a stable sort written as loops (numba's library merge sort compiled in seconds)
    perm = float_order(cen[start:stop, best_axis]) + start
    # gathered, then written back row by row: a slice assigned from an array compiles
    # numba's shape-mismatch error (its message formatting) for each rank in every process
    lo_p, hi_p, cen_p, order_p = lo[perm], hi[perm], cen[perm], order[perm]
    for k in range(count):
        for a in range(d):
            lo[start + k, a] = lo_p[k, a]
            hi[start + k, a] = hi_p[k, a]
            cen[start + k, a] = cen_p[k, a]
        order[start + k] = order_p[k]
    return count // 2


@inline_kernel
def _bounds(node_lo: np.ndarray, node_hi: np.ndarray, node_child: np.ndarray,
            node_start: np.ndarray, node_count: np.ndarray, lo: np.ndarray,
            hi: np.ndarray) -> None:
    """Every node's box, bottom-up, from the primitives' boxes in leaf order (the build's
    last step)."""
    d = lo.shape[1]
    # children have larger indices than parents: a reverse sweep sees children first
    for node in range(node_lo.shape[0] - 1, -1, -1):
        child = node_child[node]
        for k in range(d):
            node_lo[node, k] = math.inf
            node_hi[node, k] = -math.inf
        if child < 0:
            # a leaf: the union of its primitives
            for j in range(node_start[node], node_start[node] + node_count[node]):
                for k in range(d):
                    node_lo[node, k] = min(node_lo[node, k], lo[j, k])
                    node_hi[node, k] = max(node_hi[node, k], hi[j, k])
            continue
        for k in range(d):
            node_lo[node, k] = min(node_lo[child, k], node_lo[child + 1, k])
            node_hi[node, k] = max(node_hi[child, k], node_hi[child + 1, k])


@kernel
def _build_arrays(lo: np.ndarray, hi: np.ndarray, split: int
                  ) -> tuple[np.ndarray, np.ndarray, np.ndarray, np.ndarray, np.ndarray,
                             np.ndarray]:
    """The tree over the boxes ``[lo[i], hi[i]]`` with a split rule (:data:`SPLIT_SAH` or
    :data:`SPLIT_MEDIAN`) as separate arrays ``(node_lo, node_hi, node_child, node_start,
    node_count, order)`` (node_lo / node_hi (m, d)), before :func:`build_with` packs them.

    Nodes are split breadth-first in index order until leaves hold at most :data:`LEAF_SIZE`
    primitives. SAH: each node takes the binned-SAH plane, unless every centroid coincides or
    a SAH child could end deeper than :data:`MAX_DEPTH` by median splits from there, in which
    case it takes the median split (whose children hold at most half, so depth stays bounded).
    Deterministic: the same input gives a bit-identical tree.
    """
    n = lo.shape[0]
    d = lo.shape[1]
    order = np.arange(n).astype(np.int64)
    if n == 0:
        # empty scene: no nodes
        return (np.empty((0, d)), np.empty((0, d)), np.empty(0, np.int64),
                np.empty(0, np.int64), np.empty(0, np.int64), order)
    # the boxes and their centroids travel with ``order`` (rows permuted as nodes split), so
    # every pass over a node reads contiguous memory
    lo = lo.copy()
    hi = hi.copy()
    # centroids of the clamped boxes: finite even for infinite and empty boxes
    cen = np.empty((n, d))
    for i in range(n):
        for k in range(d):
            a = min(max(lo[i, k], -CENTROID_CLAMP), CENTROID_CLAMP)
            b = min(max(hi[i, k], -CENTROID_CLAMP), CENTROID_CLAMP)
            cen[i, k] = 0.5 * (a + b)
    max_nodes = 2 * n - 1
    node_lo = np.empty((max_nodes, d))
    node_hi = np.empty((max_nodes, d))
    node_child = np.full(max_nodes, -1, np.int64)
    node_start = np.zeros(max_nodes, np.int64)
    node_count = np.zeros(max_nodes, np.int64)
    node_depth = np.zeros(max_nodes, np.int64)
    node_count[0] = n
    used = 1
    # SAH scratch
    bin_count = np.empty((d, SAH_BINS), np.int64)
    bin_lo = np.empty((d, SAH_BINS, d))
    bin_hi = np.empty((d, SAH_BINS, d))
    right_area = np.empty(SAH_BINS)
    right_count = np.empty(SAH_BINS, np.int64)
    acc_lo = np.empty(d)
    acc_hi = np.empty(d)
    scratch = (bin_count, bin_lo, bin_hi, right_area, right_count, acc_lo, acc_hi)
    cmin = np.empty(d)
    cmax = np.empty(d)
    # each node is allocated once, by its parent, at a higher index: one pass in index order
    for node in range(max_nodes):
        if node >= used:
            break
        start = node_start[node]
        count = node_count[node]
        if count <= LEAF_SIZE:
            # small enough: a leaf
            continue
        _centroid_bounds(cen, start, count, cmin, cmax)
        mid = 0
        if split == SPLIT_SAH and node_depth[node] + 1 + _median_levels(count - 1) <= MAX_DEPTH:
            mid = _sah_partition(lo, hi, cen, order, start, count, cmin, cmax, scratch)
        if mid == 0:
            # median split: SAH not chosen, too deep to risk, or every centroid coincides
            mid = _median_partition(lo, hi, cen, order, start, count, cmin, cmax)
        left = used
        used += 2
        node_child[node] = left
        node_start[left] = start
        node_count[left] = mid
        node_start[left + 1] = start + mid
        node_count[left + 1] = count - mid
        node_depth[left] = node_depth[node] + 1
        node_depth[left + 1] = node_depth[node] + 1
    node_lo = node_lo[:used].copy()
    node_hi = node_hi[:used].copy()
    node_child = node_child[:used].copy()
    node_start = node_start[:used].copy()
    node_count = node_count[:used].copy()
    # node boxes bottom-up, exactly as a refit computes them
    _bounds(node_lo, node_hi, node_child, node_start, node_count, lo, hi)
    return node_lo, node_hi, node_child, node_start, node_count, order



# ---------------------------------------------------------------------------------------------
# layout


@kernel
def _pack(node_lo: np.ndarray, node_hi: np.ndarray, node_child: np.ndarray,
          node_start: np.ndarray, node_count: np.ndarray, order: np.ndarray
          ) -> tuple[np.ndarray, np.ndarray]:
    """The separate build arrays as ``(nodes, links)`` (module docstring)."""
    m = node_lo.shape[0]
    d = node_lo.shape[1]
    nodes = np.zeros((m, 6))
    links = np.empty(3 * m + order.shape[0], np.int64)
    for k in range(m):
        for a in range(d):
            nodes[k, a] = node_lo[k, a]
            nodes[k, 3 + a] = node_hi[k, a]
        links[3 * k] = node_child[k]
        links[3 * k + 1] = node_start[k]
        links[3 * k + 2] = node_count[k]
    for k in range(order.shape[0]):
        links[3 * m + k] = order[k]
    return nodes, links


def build_with(lo: np.ndarray, hi: np.ndarray, split: int) -> tuple[np.ndarray, np.ndarray]:
    """Build a BVH over the boxes ``[lo[i], hi[i]]`` ((n, d) float64 each, d 2 or 3) with a
    split rule (:data:`SPLIT_SAH` or :data:`SPLIT_MEDIAN`); returns ``(nodes, links)``.

    Nodes are split breadth-first in index order until leaves hold at most :data:`LEAF_SIZE`
    primitives. SAH: each node takes the binned-SAH plane, unless every centroid coincides or
    a SAH child could end deeper than :data:`MAX_DEPTH` by median splits from there, in which
    case it takes the median split (whose children hold at most half, so depth stays bounded).
    Deterministic: the same input gives a bit-identical tree. An empty scene (n = 0) gives no
    nodes; n = 1 a single leaf.

    Plain Python over two kernels, not a kernel itself: a compiled wrapper links its callees'
    whole code into its own module, which LLVM optimizes and emits again (measured on the
    compile tour: ``build`` and ``build_with`` as kernels cost 2.5 s of CPU each, the build
    compiled three times over); called once a build, the Python call costs nothing
    measurable.
    """
    return _pack(*_build_arrays(lo, hi, split))


def build(lo: np.ndarray, hi: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """Build a BVH by binned SAH over the boxes ``[lo[i], hi[i]]``: ``(nodes, links)`` (plain
    Python, as :func:`build_with`)."""
    return build_with(lo, hi, SPLIT_SAH)


@kernel
def whole(nodes: np.ndarray, dim: int) -> TreeAt:
    """The :data:`TreeAt` of a tree that fills its own ``nodes`` / ``links`` (as built)."""
    m = nodes.shape[0]
    return (0, m, 0, 3 * m, dim)


@kernel
def box_rows(lo: np.ndarray, hi: np.ndarray) -> np.ndarray:
    """Primitive boxes ``lo, hi`` ((n, d) each) as one (n, 6) array in the nodes' column order
    (z 0 in 2D)."""
    n = lo.shape[0]
    d = lo.shape[1]
    out = np.zeros((n, 6))
    for i in range(n):
        for a in range(d):
            out[i, a] = lo[i, a]
            out[i, 3 + a] = hi[i, a]
    return out


@kernel
def refit(nodes: np.ndarray, links: np.ndarray, tree: TreeAt, boxes: np.ndarray) -> None:
    """Recompute every node's box of ``tree`` in place from its primitives' current boxes
    (``boxes[item]``, (., 6)), keeping the topology. Queries stay exact after any motion, but
    after large motions the old topology fits the boxes poorly and queries slow down: rebuild
    then."""
    root, count, lb, ib, _dim = tree
    # children have larger indices than parents: a reverse sweep sees children first
    for k in range(count - 1, -1, -1):
        row = root + k
        child = links[lb + 3 * k]
        if child < 0:
            for a in range(6):
                nodes[row, a] = math.inf if a < 3 else -math.inf
            start = ib + links[lb + 3 * k + 1]
            for j in range(start, start + links[lb + 3 * k + 2]):
                p = links[j]
                for a in range(3):
                    nodes[row, a] = min(nodes[row, a], boxes[p, a])
                    nodes[row, 3 + a] = max(nodes[row, 3 + a], boxes[p, 3 + a])
            continue
        for a in range(3):
            nodes[row, a] = min(nodes[root + child, a], nodes[root + child + 1, a])
            nodes[row, 3 + a] = max(nodes[root + child, 3 + a], nodes[root + child + 1, 3 + a])


@kernel
def tree_depth(nodes: np.ndarray, links: np.ndarray) -> int:
    """The depth of the deepest leaf of a whole tree (root at 0; 0 also for an empty tree)."""
    m = nodes.shape[0]
    depth = np.zeros(m, np.int64)
    deepest = 0
    for node in range(m):
        child = links[3 * node]
        if child >= 0:
            depth[child] = depth[node] + 1
            depth[child + 1] = depth[node] + 1
            deepest = max(deepest, depth[node] + 1)
    return deepest


# ---------------------------------------------------------------------------------------------
# the traversal


@inline_kernel
def _pop(stack: np.ndarray, sp: int, limit: float) -> tuple[int, int]:
    """The last node put aside that is not entered beyond ``limit`` (-1: none left), and the
    stack's new size."""
    for _ in range(sp):
        sp -= 1
        if stack[sp, 1] <= limit:
            return truncated(stack[sp, 0]), sp
    return -1, 0


@inline_kernel
def _descend(nodes: np.ndarray, links: np.ndarray, tree: TreeAt, stack: np.ndarray, node: int,
             sp: int, probe: Probe, limit: float) -> tuple[int, int]:
    """From ``node`` (which the probe enters), down to the first leaf front to back: at each
    internal node both children are tested, the one entered first (ties: left) is descended
    into and the other, if touched, waits on the stack with its entry t. Returns ``(leaf,
    sp)``, or ``(-1, sp)`` when nothing within the limit is left."""
    root, count, lb, _ib, _dim = tree
    # every pass descends a level or pops a node put aside: count passes at most
    for _ in range(count):
        # (an unsigned index: no negative-index wraparound, world._skip_empty)
        child = links[np.uint64(lb + 3 * node)]
        if child < 0:
            return node, sp
        t_left = box_entry(nodes, root + child, probe, limit)
        t_right = box_entry(nodes, root + child + 1, probe, limit)
        if t_left <= t_right:
            if t_left != math.inf:
                if t_right != math.inf:
                    stack[sp, 0] = child + 1
                    stack[sp, 1] = t_right
                    sp += 1
                node = child
                continue
            # both children missed (or lie beyond the best hit)
        else:
            if t_left != math.inf:
                stack[sp, 0] = child
                stack[sp, 1] = t_left
                sp += 1
            node = child + 1
            continue
        node, sp = _pop(stack, sp, limit)
        if node < 0:
            return -1, sp
    return -1, sp


@inline_kernel
def ray_first_leaf(nodes: np.ndarray, links: np.ndarray, tree: TreeAt, stack: np.ndarray,
                   probe: Probe, limit: float) -> tuple[int, int]:
    """The first leaf (node index within the tree) the probe's segment [0, limit] touches,
    front to back, and the stack size to pass to :func:`ray_next_leaf`; -1 when none."""
    if tree[1] == 0 or box_entry(nodes, tree[0], probe, limit) == math.inf:
        # an empty tree, or the segment misses all of it
        return -1, 0
    return _descend(nodes, links, tree, stack, 0, 0, probe, limit)


@inline_kernel
def ray_next_leaf(nodes: np.ndarray, links: np.ndarray, tree: TreeAt, stack: np.ndarray,
                  sp: int, probe: Probe, limit: float) -> tuple[int, int]:
    """The next leaf after one :func:`ray_first_leaf` or :func:`ray_next_leaf` gave, with the
    (maybe shrunk) limit: nodes put aside and entered beyond it are dropped."""
    node, sp = _pop(stack, sp, limit)
    if node < 0:
        return -1, sp
    return _descend(nodes, links, tree, stack, node, sp, probe, limit)


@inline_kernel
def box_gather(nodes: np.ndarray, links: np.ndarray, tree: TreeAt, then: TreeAt,
               stack: np.ndarray, query: np.ndarray, boxes: np.ndarray, col: int,
               out: np.ndarray, row: int, found: int) -> int:
    """The box walk: the items of ``tree`` then of ``then`` (two trees in the same arrays, as
    a scene's static and moving trees; :data:`NO_TREE` for none), primitive indices or the
    scene's handles, whose own boxes (``boxes[item, col .. col+5]``, the nodes' column order)
    touch ``query`` ((6,) ``lo xyz hi xyz``; sharing a face, an edge or a corner counts; an
    empty box, ``lo > hi`` on some axis, touches nothing, and an empty query finds nothing).
    Each tree depth first, left child first, so that a smaller query lists a subsequence of a
    larger one's. Written to ``out[row, found:]`` (only the first ``out.shape[1]`` of the row
    in all); returns ``found`` plus how many touch (call again with a wider row when that
    exceeds it). ``stack`` is a (STACK_SIZE,) int64 scratch array.

    One loop, node indices on an int stack, the box tests unrolled per axis, both trees in
    one inlined body. Measured on the simulation benchmark's scene (1,000 balls, 100 walls,
    one query a ball, both trees): 55 us; handing out one leaf per call (a float stack, the
    caller looping over the leaf's items) took 240 us, and two inlined copies of this walk,
    one per tree, 150 us."""
    d3 = tree[4] == 3
    x0 = query[0]
    y0 = query[1]
    z0 = query[2]
    x1 = query[3]
    y1 = query[4]
    z1 = query[5]
    if x0 > x1 or y0 > y1 or (d3 and z0 > z1):
        # an empty query box
        return found
    cap = out.shape[1]
    for which in range(2):
        root, count, lb, ib, _dim = tree if which == 0 else then
        stack[0] = 0
        sp = 1 if count > 0 else 0
        # every node is pushed at most once
        for _ in range(count):
            if sp == 0:
                break
            sp -= 1
            node = stack[sp]
            k = root + node
            if (nodes[k, 0] > x1 or nodes[k, 3] < x0 or nodes[k, 1] > y1 or nodes[k, 4] < y0
                    or (d3 and (nodes[k, 2] > z1 or nodes[k, 5] < z0))):
                # the query misses the whole subtree
                continue
            child = links[lb + 3 * node]
            if child >= 0:
                # the left child is visited first
                stack[sp] = child + 1
                stack[sp + 1] = child
                sp += 2
                continue
            start = ib + links[lb + 3 * node + 1]
            for j in range(start, start + links[lb + 3 * node + 2]):
                h = links[j]
                lox = boxes[h, col]
                loy = boxes[h, col + 1]
                hix = boxes[h, col + 3]
                hiy = boxes[h, col + 4]
                if (lox > x1 or hix < x0 or loy > y1 or hiy < y0 or lox > hix or loy > hiy
                        or (d3 and (boxes[h, col + 2] > z1 or boxes[h, col + 5] < z0
                                    or boxes[h, col + 2] > boxes[h, col + 5]))):
                    # its box misses the query (or is empty)
                    continue
                if found < cap:
                    out[row, found] = h
                found += 1
    return found


@inline_kernel
def leaf_items(links: np.ndarray, tree: TreeAt, node: int) -> tuple[int, int]:
    """The range of ``links`` holding the leaf's items (primitive indices or handles)."""
    lb = tree[2]
    start = tree[3] + links[lb + 3 * node + 1]
    return start, start + links[lb + 3 * node + 2]


# ---------------------------------------------------------------------------------------------
# queries on a whole tree (the reference API; the World's kernels walk the same way)


@kernel
def query_aabb(nodes: np.ndarray, links: np.ndarray, boxes: np.ndarray, qlo: np.ndarray,
               qhi: np.ndarray, out: np.ndarray) -> int:
    """Indices of the primitives whose boxes (``boxes`` (n, 6)) overlap or touch the box
    [qlo, qhi] ((d,) each), written to ``out`` (int64) in traversal order; returns how many.

    Grow strategy: all matches are counted but only the first ``len(out)`` written; when the
    returned count exceeds ``len(out)``, call again with a buffer of at least that size.
    """
    d = qlo.shape[0]
    query = np.zeros(6)
    for a in range(d):
        if qlo[a] > qhi[a]:
            # an empty query box touches nothing
            return 0
        query[a] = qlo[a]
        query[3 + a] = qhi[a]
    stack = np.empty(STACK_SIZE, np.int64)
    return box_gather(nodes, links, whole(nodes, d), NO_TREE, stack, query, boxes, 0,
                      out.reshape((1, out.shape[0])), 0, 0)


@kernel
def query_point(nodes: np.ndarray, links: np.ndarray, boxes: np.ndarray, point: np.ndarray,
                out: np.ndarray) -> int:
    """Indices of the primitives whose boxes contain ``point`` ((d,); the boundary counts),
    written to ``out``; returns how many (grow strategy as :func:`query_aabb`)."""
    return query_aabb(nodes, links, boxes, point, point, out)


@kernel
def ray_candidates_ordered(nodes: np.ndarray, links: np.ndarray, boxes: np.ndarray,
                           origin: np.ndarray, direction: np.ndarray, tmax: float,
                           stack: np.ndarray, out: np.ndarray) -> int:
    """Indices of the primitives whose boxes the ray segment ``origin + t direction``,
    t in [0, tmax], touches, written to ``out``; returns how many (grow strategy as
    :func:`query_aabb`: the first ``len(out)`` written are the first in this order).

    Order: leaf by leaf front to back by node entry (the child entered first before its
    sibling), primitives within a leaf in tree order; not sorted by each box's own entry t
    where sibling boxes overlap: a caller needing sorted hits (``raycast_all``) sorts its
    narrowphase results. ``stack`` is a float64 scratch array of at least (:data:`STACK_SIZE`,
    2) (else ValueError).
    """
    if stack.shape[0] < STACK_SIZE or stack.shape[1] < 2:
        raise ValueError("stack must hold at least STACK_SIZE rows of 2")
    d = origin.shape[0]
    tree = whole(nodes, d)
    probe = make_probe(origin[0], origin[1], origin[d - 1], direction[0], direction[1],
                       direction[d - 1], 0.0, d)
    cap = out.shape[0]
    found = 0
    node, sp = ray_first_leaf(nodes, links, tree, stack, probe, tmax)
    for _ in range(nodes.shape[0]):
        if node < 0:
            break
        first, stop = leaf_items(links, tree, node)
        for j in range(first, stop):
            p = links[j]
            if box_entry(boxes, p, probe, tmax) != math.inf:
                if found < cap:
                    out[found] = p
                found += 1
        node, sp = ray_next_leaf(nodes, links, tree, stack, sp, probe, tmax)
    return found


@kernel
def _closest_range(nodes: np.ndarray, links: np.ndarray, boxes: np.ndarray,
                   origins: np.ndarray, directions: np.ndarray, tmax: np.ndarray, first: int,
                   stop: int, index: np.ndarray, t: np.ndarray) -> None:
    """The closest-hit walk for rays ``first .. stop-1``, each primitive standing for its box:
    writes ``index[r]``, ``t[r]`` for the first box ray r's segment [0, tmax[r]] touches, or -1
    and inf. Ties: smallest t, then smallest index; the limit is inclusive, so nodes entered
    exactly at the best t are still visited, and a hit at t == tmax counts."""
    d = origins.shape[1]
    tree = whole(nodes, d)
    stack = np.empty((STACK_SIZE, 2))
    for r in range(first, stop):
        probe = make_probe(origins[r, 0], origins[r, 1], origins[r, d - 1], directions[r, 0],
                           directions[r, 1], directions[r, d - 1], 0.0, d)
        limit = tmax[r]
        best_i = -1
        best_t = math.inf
        node, sp = ray_first_leaf(nodes, links, tree, stack, probe, limit)
        for _ in range(nodes.shape[0]):
            if node < 0:
                break
            lo_j, hi_j = leaf_items(links, tree, node)
            for j in range(lo_j, hi_j):
                p = links[j]
                # narrowphase stand-in: the primitive's own box
                tp = box_entry(boxes, p, probe, limit)
                if tp < best_t or (tp == best_t and p < best_i):
                    best_t = tp
                    best_i = p
                    limit = tp
            node, sp = ray_next_leaf(nodes, links, tree, stack, sp, probe, limit)
        index[r] = best_i
        t[r] = best_t


@kernel
def ray_closest_boxes(nodes: np.ndarray, links: np.ndarray, boxes: np.ndarray,
                      origin: np.ndarray, direction: np.ndarray, tmax: float
                      ) -> tuple[int, float]:
    """``(index, t)`` of the first box the ray segment ``origin + t direction`` ((d,) each),
    t in [0, tmax], touches (ties: smallest t, then smallest index), or ``(-1, inf)``."""
    d = origin.shape[0]
    index = np.empty(1, np.int64)
    t = np.empty(1)
    _closest_range(nodes, links, boxes, origin.reshape((1, d)), direction.reshape((1, d)),
                   np.full(1, tmax), 0, 1, index, t)
    return index[0], t[0]


@kernel
def ray_closest_boxes_many(nodes: np.ndarray, links: np.ndarray, boxes: np.ndarray,
                           origins: np.ndarray, directions: np.ndarray, tmax: np.ndarray
                           ) -> tuple[np.ndarray, np.ndarray]:
    """:func:`ray_closest_boxes` for n rays: ``origins, directions`` (n, d) float64, ``tmax``
    (n,) float64; returns ``index`` (n,) int64 (-1 on a miss) and ``t`` (n,) float64 (inf on a
    miss). An empty batch gives empty arrays of those types."""
    n = origins.shape[0]
    index = np.empty(n, np.int64)
    t = np.empty(n)
    _closest_range(nodes, links, boxes, origins, directions, tmax, 0, n, index, t)
    return index, t
