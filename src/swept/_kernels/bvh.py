"""Broadphase: a bounding volume hierarchy (BVH) over axis-aligned boxes, in 2D and 3D.

The caller (``World``) keeps one box per collider in two arrays, ``lo`` and ``hi``, of shape
``(n, d)`` float64 with ``d`` 2 or 3, row ``i`` belonging to primitive ``i``. :func:`build`
turns them into a tree; :func:`refit` updates the tree after boxes move; the query kernels
return primitive indices (rows of ``lo`` / ``hi``), testing each primitive's own box, so their
answers equal a brute-force loop over every box.

Tree layout (a flat array per field; :func:`build` returns them in this order, so
``query_aabb(*tree, lo, hi, ...)`` works):

``node_lo, node_hi`` (m, d) float64
    Each node's box: the exact componentwise min / max of the boxes below it.
``node_child`` (m,) int64
    Internal node: the index of its left child; the right child is ``node_child + 1``.
    Leaf: -1. Children always have larger indices than their parent (node 0 is the root),
    so a reverse sweep over the nodes visits children before parents.
``node_start, node_count`` (m,) int64
    The node's primitives are ``order[node_start : node_start + node_count]``: for a leaf
    1 to :data:`LEAF_SIZE` of them, for an internal node every primitive of its subtree.
``order`` (n,) int64
    A permutation of ``0 .. n-1``: primitive indices grouped leaf by leaf.

An empty scene (n = 0) gives m = 0 nodes; every query then finds nothing. n = 1 gives a single
leaf. The tree depth (root at depth 0) never exceeds :data:`MAX_DEPTH`, so every traversal
stack of :data:`STACK_SIZE` entries suffices.

Degenerate boxes (every query stays exact, equal to brute force):

- *Point boxes* (``lo == hi``) and *duplicates* are ordinary primitives.
- *Infinite bounds* (``lo = -inf`` and/or ``hi = +inf`` on some axes, as the box of a
  half-plane or a line) are supported: the build clamps them only to choose its splits, node
  boxes stay exact (infinite), and queries stay exact. But every ancestor of such a box is
  infinite too, so every query descends there: a caller with a few unbounded colliders
  (planes) should keep them out of the tree and test them in a plain loop.
- *Empty boxes*: the empty box ``lo = +inf, hi = -inf`` on every axis (:data:`EMPTY_LO`,
  :data:`EMPTY_HI`) overlaps nothing, contains no point, no ray touches it, and it leaves its
  ancestors' boxes as if it were absent: a placeholder for a removed collider, so that
  ``remove`` is "set its box empty, then :func:`refit`". (Box and point queries treat any
  box with ``lo > hi`` on some axis as empty; rays are only exact for the canonical one.)
  An empty query box (``qlo > qhi`` on some axis) finds nothing.
- NaN anywhere (boxes, query boxes, rays) is not supported: the caller validates input.

Touching counts: boxes that share only a face, an edge or a corner overlap; a ray that grazes a
box's face, or whose segment ends exactly on a box, touches it.

Ray parameter: a ray is ``origin + t * direction`` for t in [0, tmax]; t is in units of the
direction's length (a distance when the direction is a unit vector, as the World passes it).
The kernels do not normalise; a zero direction touches exactly the boxes that contain the
origin, at t = 0. Closest-hit ties: smallest t, then smallest primitive index.

Kernels: :func:`build` (binned SAH; :func:`build_with` picks the split rule), :func:`refit`,
:func:`tree_depth`; :func:`query_aabb`, :func:`query_point`; the slab test
:func:`ray_box_entry2` / :func:`ray_box_entry3` with :func:`inverse_direction`;
:func:`ray_candidates_ordered` (every box a ray touches, near first);
:func:`ray_closest_boxes_range`, the closest-hit traversal the World copies with its
narrowphase inlined, with :func:`ray_closest_boxes` (one ray) and
:func:`ray_closest_boxes_many` (a ``prange`` batch) on top. Queries only read the tree, so
any number may run at once; :func:`refit` writes it, so nothing may query during a refit.
"""

from __future__ import annotations

import math
from collections.abc import Callable
from typing import Any, TypeVar

import numba
import numpy as np

from ..constants import AREA_EXTENT_CAP, CENTROID_CLAMP, MAX_DEPTH, MIN_DIRECTION_COMPONENT
from . import batch_kernel, inline_kernel, kernel

F = TypeVar("F", bound=Callable[..., Any])

#: The tree as :func:`build` returns it: ``(node_lo, node_hi, node_child, node_start,
#: node_count, order)``, laid out as the module docstring describes.
Tree = tuple[np.ndarray, np.ndarray, np.ndarray, np.ndarray, np.ndarray, np.ndarray]

#: Most primitives in one leaf. Small leaves suit the World, whose per-primitive narrowphase
#: (a segment or polygon test) costs more than a box test.
LEAF_SIZE = 4
#: Number of centroid bins per axis in the binned SAH (surface area heuristic) split search.
SAH_BINS = 16
#: Entries a traversal stack needs: a node at depth k is popped with at most k entries waiting
#: (one sibling per level above it), then pushes its two children: k + 2 <= MAX_DEPTH + 1.
STACK_SIZE = MAX_DEPTH + 1
#: Rays one ``prange`` task handles with one stack allocation in the batch kernel.
RAY_CHUNK = 64
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


@kernel
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
def _row_entry(box_lo: np.ndarray, box_hi: np.ndarray, k: int, d: int, ox: float, oy: float,
               oz: float, ix: float, iy: float, iz: float, tmax: float) -> float:
    """:func:`ray_box_entry2` or :func:`ray_box_entry3` (by ``d``) of row k of a box array."""
    if d == 2:
        return ray_box_entry2(ox, oy, ix, iy, tmax, box_lo[k, 0], box_lo[k, 1],
                              box_hi[k, 0], box_hi[k, 1])
    return ray_box_entry3(ox, oy, oz, ix, iy, iz, tmax, box_lo[k, 0], box_lo[k, 1],
                          box_lo[k, 2], box_hi[k, 0], box_hi[k, 1], box_hi[k, 2])


@inline_kernel
def _prepare_ray(origin: np.ndarray, direction: np.ndarray
                 ) -> tuple[float, float, float, float, float, float]:
    """Origin and inverse direction as six scalars; in 2D, z is 0 and parallel (never read)."""
    ox = origin[0]
    oy = origin[1]
    ix = inverse_direction(direction[0])
    iy = inverse_direction(direction[1])
    oz = 0.0
    iz = math.inf
    if origin.shape[0] == 3:
        oz = origin[2]
        iz = inverse_direction(direction[2])
    return ox, oy, oz, ix, iy, iz


@inline_kernel
def _row_touches_box(box_lo: np.ndarray, box_hi: np.ndarray, k: int, qlo: np.ndarray,
                     qhi: np.ndarray, d: int) -> bool:
    """Whether row k of a box array overlaps or touches the box [qlo, qhi]; an empty row
    (lo > hi on some axis) touches nothing, not even an infinite query box."""
    for a in range(d):
        blo = box_lo[k, a]
        bhi = box_hi[k, a]
        # separated along axis a (sharing a face still touches), or empty along it
        if blo > qhi[a] or bhi < qlo[a] or blo > bhi:
            return False
    return True


# ---------------------------------------------------------------------------------------------
# build


@kernel
def _median_levels(count: int) -> int:
    """Levels of median splits (each child at most half, rounded up) until leaves fit."""
    levels = 0
    for _ in range(MAX_DEPTH + 1):
        if count <= LEAF_SIZE:
            break
        count = (count + 1) // 2
        levels += 1
    return levels


@kernel
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


@kernel
def _centroid_bin(c: float, cmin: float, extent: float) -> int:
    """The SAH bin (0 .. SAH_BINS-1) of a centroid coordinate within [cmin, cmin + extent]."""
    # divide first: (c - cmin) / extent is in [0, 1] and cannot overflow
    b = int(SAH_BINS * ((c - cmin) / extent))
    return min(b, SAH_BINS - 1)


@kernel
def _sah_partition(lo: np.ndarray, hi: np.ndarray, cen: np.ndarray, order: np.ndarray,
                   start: int, count: int, bin_count: np.ndarray, bin_lo: np.ndarray,
                   bin_hi: np.ndarray, right_area: np.ndarray, right_count: np.ndarray,
                   acc_lo: np.ndarray, acc_hi: np.ndarray) -> int:
    """Partition ``order[start : start+count]`` by the cheapest binned-SAH plane; returns the
    size of the left part, or 0 when every centroid coincides (no plane separates them).

    Cost of a plane: ``area(left) * n_left + area(right) * n_right``. Ties keep the lowest
    axis, then the lowest plane, so the build is deterministic. The remaining arguments are
    scratch buffers.
    """
    d = lo.shape[1]
    best_cost = math.inf
    best_axis = -1
    best_split = -1
    best_cmin = 0.0
    best_extent = 0.0
    for a in range(d):
        cmin = math.inf
        cmax = -math.inf
        for j in range(start, start + count):
            c = cen[order[j], a]
            cmin = min(cmin, c)
            cmax = max(cmax, c)
        extent = cmax - cmin
        if not extent > 0.0:
            # all centroids share this coordinate: no plane on this axis separates them
            continue
        for b in range(SAH_BINS):
            bin_count[b] = 0
            for k in range(d):
                bin_lo[b, k] = math.inf
                bin_hi[b, k] = -math.inf
        for j in range(start, start + count):
            p = order[j]
            b = _centroid_bin(cen[p, a], cmin, extent)
            bin_count[b] += 1
            for k in range(d):
                bin_lo[b, k] = min(bin_lo[b, k], lo[p, k])
                bin_hi[b, k] = max(bin_hi[b, k], hi[p, k])
        # sweep from the right: bins s .. SAH_BINS-1 form the right part of plane s
        n_acc = 0
        for k in range(d):
            acc_lo[k] = math.inf
            acc_hi[k] = -math.inf
        for s in range(SAH_BINS - 1, 0, -1):
            n_acc += bin_count[s]
            for k in range(d):
                acc_lo[k] = min(acc_lo[k], bin_lo[s, k])
                acc_hi[k] = max(acc_hi[k], bin_hi[s, k])
            right_count[s] = n_acc
            right_area[s] = _half_area(acc_lo, acc_hi, d)
        # sweep from the left: bins 0 .. s-1 form the left part of plane s
        n_acc = 0
        for k in range(d):
            acc_lo[k] = math.inf
            acc_hi[k] = -math.inf
        for s in range(1, SAH_BINS):
            n_acc += bin_count[s - 1]
            for k in range(d):
                acc_lo[k] = min(acc_lo[k], bin_lo[s - 1, k])
                acc_hi[k] = max(acc_hi[k], bin_hi[s - 1, k])
            if n_acc == 0 or right_count[s] == 0:
                # one side empty: not a split
                continue
            cost = _half_area(acc_lo, acc_hi, d) * n_acc + right_area[s] * right_count[s]
            if cost < best_cost:
                best_cost = cost
                best_axis = a
                best_split = s
                best_cmin = cmin
                best_extent = extent
    if best_axis < 0:
        return 0
    # partition in place: centroids in bins below the plane go left
    i = start
    j = start + count - 1
    for _ in range(count):
        if i > j:
            break
        if _centroid_bin(cen[order[i], best_axis], best_cmin, best_extent) < best_split:
            i += 1
        else:
            swap = order[i]
            order[i] = order[j]
            order[j] = swap
            j -= 1
    return i - start


@kernel
def _median_partition(cen: np.ndarray, order: np.ndarray, start: int, count: int) -> int:
    """Sort ``order[start : start+count]`` by centroid along the axis of largest centroid
    spread (ties: lowest axis; equal centroids keep their order, a stable sort) and split it
    in half; returns the size of the left half, ``count // 2``."""
    d = cen.shape[1]
    best_axis = 0
    best_extent = -1.0
    for a in range(d):
        cmin = math.inf
        cmax = -math.inf
        for j in range(start, start + count):
            c = cen[order[j], a]
            cmin = min(cmin, c)
            cmax = max(cmax, c)
        if cmax - cmin > best_extent:
            best_extent = cmax - cmin
            best_axis = a
    keys = np.empty(count)
    for j in range(count):
        keys[j] = cen[order[start + j], best_axis]
    perm = np.argsort(keys, kind="mergesort")
    sorted_ids = np.empty(count, np.int64)
    for j in range(count):
        sorted_ids[j] = order[start + perm[j]]
    for j in range(count):
        order[start + j] = sorted_ids[j]
    return count // 2


@kernel
def _node_bounds(lo: np.ndarray, hi: np.ndarray, order: np.ndarray, start: int, count: int,
                 node_lo: np.ndarray, node_hi: np.ndarray, node: int) -> None:
    """Set a node's box to the union of the boxes ``order[start : start+count]``."""
    d = lo.shape[1]
    for k in range(d):
        node_lo[node, k] = math.inf
        node_hi[node, k] = -math.inf
    for j in range(start, start + count):
        p = order[j]
        for k in range(d):
            node_lo[node, k] = min(node_lo[node, k], lo[p, k])
            node_hi[node, k] = max(node_hi[node, k], hi[p, k])


@kernel
def refit(node_lo: np.ndarray, node_hi: np.ndarray, node_child: np.ndarray,
          node_start: np.ndarray, node_count: np.ndarray, order: np.ndarray, lo: np.ndarray,
          hi: np.ndarray) -> None:
    """Recompute every node's box in place from the primitives' current boxes, keeping the
    topology. Queries stay exact after any motion, but after large motions the old topology
    fits the boxes poorly and queries slow down: rebuild then."""
    d = lo.shape[1]
    # children have larger indices than parents: a reverse sweep sees children first
    for node in range(node_lo.shape[0] - 1, -1, -1):
        child = node_child[node]
        if child < 0:
            _node_bounds(lo, hi, order, node_start[node], node_count[node], node_lo, node_hi,
                         node)
            continue
        for k in range(d):
            node_lo[node, k] = min(node_lo[child, k], node_lo[child + 1, k])
            node_hi[node, k] = max(node_hi[child, k], node_hi[child + 1, k])


@kernel
def build_with(lo: np.ndarray, hi: np.ndarray, split: int) -> Tree:
    """Build a BVH over the boxes ``[lo[i], hi[i]]`` with a split rule (:data:`SPLIT_SAH` or
    :data:`SPLIT_MEDIAN`); returns ``(node_lo, node_hi, node_child, node_start, node_count,
    order)`` as the module docstring lays out.

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
    bin_count = np.empty(SAH_BINS, np.int64)
    bin_lo = np.empty((SAH_BINS, d))
    bin_hi = np.empty((SAH_BINS, d))
    right_area = np.empty(SAH_BINS)
    right_count = np.empty(SAH_BINS, np.int64)
    acc_lo = np.empty(d)
    acc_hi = np.empty(d)
    # each node is allocated once, by its parent, at a higher index: one pass in index order
    for node in range(max_nodes):
        if node >= used:
            break
        start = node_start[node]
        count = node_count[node]
        if count <= LEAF_SIZE:
            # small enough: a leaf
            continue
        mid = 0
        if split == SPLIT_SAH and node_depth[node] + 1 + _median_levels(count - 1) <= MAX_DEPTH:
            mid = _sah_partition(lo, hi, cen, order, start, count, bin_count, bin_lo, bin_hi,
                                 right_area, right_count, acc_lo, acc_hi)
        if mid == 0:
            # median split: SAH not chosen, too deep to risk, or every centroid coincides
            mid = _median_partition(cen, order, start, count)
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
    refit(node_lo, node_hi, node_child, node_start, node_count, order, lo, hi)
    return node_lo, node_hi, node_child, node_start, node_count, order


@kernel
def build(lo: np.ndarray, hi: np.ndarray) -> Tree:
    """Build a BVH by binned SAH over the boxes ``[lo[i], hi[i]]`` ((n, d) float64 each, d 2
    or 3); returns ``(node_lo, node_hi, node_child, node_start, node_count, order)``."""
    return build_with(lo, hi, SPLIT_SAH)


@kernel
def tree_depth(node_child: np.ndarray) -> int:
    """The depth of the deepest leaf (root at 0; 0 also for an empty tree)."""
    m = node_child.shape[0]
    depth = np.zeros(m, np.int64)
    deepest = 0
    for node in range(m):
        child = node_child[node]
        if child >= 0:
            depth[child] = depth[node] + 1
            depth[child + 1] = depth[node] + 1
            deepest = max(deepest, depth[node] + 1)
    return deepest


# ---------------------------------------------------------------------------------------------
# box and point queries


@kernel
def query_aabb(node_lo: np.ndarray, node_hi: np.ndarray, node_child: np.ndarray,
               node_start: np.ndarray, node_count: np.ndarray, order: np.ndarray,
               lo: np.ndarray, hi: np.ndarray, qlo: np.ndarray, qhi: np.ndarray,
               out: np.ndarray) -> int:
    """Indices of the primitives whose boxes overlap or touch the box [qlo, qhi] ((d,) each),
    written to ``out`` (int64) in traversal order; returns how many there are.

    Grow strategy: all matches are counted but only the first ``len(out)`` written; when the
    returned count exceeds ``len(out)``, call again with a buffer of at least that size.
    """
    m = node_lo.shape[0]
    if m == 0:
        return 0
    d = lo.shape[1]
    for a in range(d):
        if qlo[a] > qhi[a]:
            # an empty query box touches nothing
            return 0
    cap = out.shape[0]
    stack = np.empty(STACK_SIZE, np.int64)
    stack[0] = 0
    sp = 1
    found = 0
    # every node is pushed at most once: m pops at most
    for _ in range(m):
        if sp == 0:
            break
        sp -= 1
        node = stack[sp]
        if not _row_touches_box(node_lo, node_hi, node, qlo, qhi, d):
            # the query box misses the whole subtree
            continue
        child = node_child[node]
        if child >= 0:
            stack[sp] = child + 1
            stack[sp + 1] = child
            sp += 2
            continue
        for j in range(node_start[node], node_start[node] + node_count[node]):
            p = order[j]
            if _row_touches_box(lo, hi, p, qlo, qhi, d):
                if found < cap:
                    out[found] = p
                found += 1
    return found


@kernel
def query_point(node_lo: np.ndarray, node_hi: np.ndarray, node_child: np.ndarray,
                node_start: np.ndarray, node_count: np.ndarray, order: np.ndarray,
                lo: np.ndarray, hi: np.ndarray, point: np.ndarray, out: np.ndarray) -> int:
    """Indices of the primitives whose boxes contain ``point`` ((d,); the boundary counts),
    written to ``out``; returns how many (grow strategy as :func:`query_aabb`)."""
    return query_aabb(node_lo, node_hi, node_child, node_start, node_count, order, lo, hi,
                      point, point, out)


# ---------------------------------------------------------------------------------------------
# ray traversal


@kernel
def ray_candidates_ordered(node_lo: np.ndarray, node_hi: np.ndarray, node_child: np.ndarray,
                           node_start: np.ndarray, node_count: np.ndarray, order: np.ndarray,
                           lo: np.ndarray, hi: np.ndarray, origin: np.ndarray,
                           direction: np.ndarray, tmax: float, stack: np.ndarray,
                           out: np.ndarray) -> int:
    """Indices of the primitives whose boxes the ray segment ``origin + t direction``,
    t in [0, tmax], touches, written to ``out``; returns how many (grow strategy as
    :func:`query_aabb`: the first ``len(out)`` written are the first in this order).

    Order: depth first, into the child entered first (smaller entry t; ties: left) before its
    sibling, primitives within a leaf in ``order``. That is front to back by node entry, but
    not sorted by each box's own entry t where sibling boxes overlap: a caller needing sorted
    hits (``raycast_all``) sorts its narrowphase results. ``stack`` is an int64 scratch
    buffer of at least :data:`STACK_SIZE` entries (else ValueError).
    """
    m = node_lo.shape[0]
    if m == 0:
        return 0
    if stack.shape[0] < STACK_SIZE:
        raise ValueError("stack must hold at least STACK_SIZE entries")
    d = lo.shape[1]
    cap = out.shape[0]
    ox, oy, oz, ix, iy, iz = _prepare_ray(origin, direction)
    found = 0
    if _row_entry(node_lo, node_hi, 0, d, ox, oy, oz, ix, iy, iz, tmax) == math.inf:
        # the segment misses the whole scene
        return 0
    node = 0
    sp = 0
    # each pass visits a node not visited before: m passes at most
    for _ in range(m):
        child = node_child[node]
        if child >= 0:
            # test both children before descending; the far one waits on the stack
            t_left = _row_entry(node_lo, node_hi, child, d, ox, oy, oz, ix, iy, iz, tmax)
            t_right = _row_entry(node_lo, node_hi, child + 1, d, ox, oy, oz, ix, iy, iz, tmax)
            if t_left <= t_right:
                if t_left != math.inf:
                    if t_right != math.inf:
                        stack[sp] = child + 1
                        sp += 1
                    node = child
                    continue
                # both children missed
            else:
                if t_left != math.inf:
                    stack[sp] = child
                    sp += 1
                node = child + 1
                continue
        else:
            for j in range(node_start[node], node_start[node] + node_count[node]):
                p = order[j]
                if _row_entry(lo, hi, p, d, ox, oy, oz, ix, iy, iz, tmax) != math.inf:
                    if found < cap:
                        out[found] = p
                    found += 1
        # a leaf done, or both children missed: resume at the last node put aside
        if sp == 0:
            break
        sp -= 1
        node = stack[sp]
    return found


@kernel
def ray_closest_boxes_range(node_lo: np.ndarray, node_hi: np.ndarray, node_child: np.ndarray,
                            node_start: np.ndarray, node_count: np.ndarray, order: np.ndarray,
                            lo: np.ndarray, hi: np.ndarray, origins: np.ndarray,
                            directions: np.ndarray, tmax: np.ndarray, first: int, stop: int,
                            stack_node: np.ndarray, stack_t: np.ndarray, index: np.ndarray,
                            t: np.ndarray) -> None:
    """The closest-hit traversal for rays ``first .. stop-1``, treating each primitive as its
    box: writes ``index[r]``, ``t[r]`` for the first box ray r's segment [0, tmax[r]] touches,
    or -1 and inf.

    The pattern for the World to copy, with its narrowphase in place of the leaf's box test:

    - one call handles a run of rays, so the array arguments are reference-counted once per
      run (a call per ray costs about 0.07 us in reference counting alone);
    - per ray: origin and inverse direction (:func:`inverse_direction`) as scalars (2D:
      ``oz = 0``, ``iz = inf``, never read); the stacks ``stack_node`` (int64) and
      ``stack_t`` (float64), at least :data:`STACK_SIZE` each, are the caller's, one pair
      per thread;
    - at an internal node both children are tested; the one entered first (ties: left) is
      descended into at once and the other, if touched, waits on the stack with its entry t;
    - the limit shrinks to the best hit so far: farther boxes miss, and a waiting node
      entered beyond the limit is dropped when popped.

    Ties: smallest t, then smallest index. The limit is inclusive, so nodes entered exactly
    at the best t are still visited, and a hit at t == tmax counts. Every pass of the node
    loop visits a new node, so it runs at most m times; the stack holds at most one node per
    level (at most MAX_DEPTH).
    """
    m = node_lo.shape[0]
    d = origins.shape[1]
    for r in range(first, stop):
        index[r] = -1
        t[r] = math.inf
        if m == 0:
            continue
        ox = origins[r, 0]
        oy = origins[r, 1]
        ix = inverse_direction(directions[r, 0])
        iy = inverse_direction(directions[r, 1])
        oz = 0.0
        iz = math.inf
        if d == 3:
            oz = origins[r, 2]
            iz = inverse_direction(directions[r, 2])
        limit = tmax[r]
        if _row_entry(node_lo, node_hi, 0, d, ox, oy, oz, ix, iy, iz, limit) == math.inf:
            # the segment misses the whole scene
            continue
        best_i = -1
        best_t = math.inf
        node = 0
        sp = 0
        for _ in range(m):
            child = node_child[node]
            if child >= 0:
                # test both children before descending; the far one waits on the stack
                t_left = _row_entry(node_lo, node_hi, child, d, ox, oy, oz, ix, iy, iz, limit)
                t_right = _row_entry(node_lo, node_hi, child + 1, d, ox, oy, oz, ix, iy, iz,
                                     limit)
                if t_left <= t_right:
                    if t_left != math.inf:
                        if t_right != math.inf:
                            stack_node[sp] = child + 1
                            stack_t[sp] = t_right
                            sp += 1
                        node = child
                        continue
                    # both children missed (or lie beyond the best hit)
                else:
                    if t_left != math.inf:
                        stack_node[sp] = child
                        stack_t[sp] = t_left
                        sp += 1
                    node = child + 1
                    continue
            else:
                for j in range(node_start[node], node_start[node] + node_count[node]):
                    p = order[j]
                    # narrowphase stand-in: the primitive's own box
                    tp = _row_entry(lo, hi, p, d, ox, oy, oz, ix, iy, iz, limit)
                    if tp < best_t or (tp == best_t and p < best_i):
                        best_t = tp
                        best_i = p
                        limit = tp
            # resume at the last node put aside that is not entered beyond the limit
            node = -1
            for _ in range(sp):
                sp -= 1
                if stack_t[sp] <= limit:
                    node = stack_node[sp]
                    break
            if node < 0:
                break
        index[r] = best_i
        t[r] = best_t


@kernel
def ray_closest_boxes(node_lo: np.ndarray, node_hi: np.ndarray, node_child: np.ndarray,
                      node_start: np.ndarray, node_count: np.ndarray, order: np.ndarray,
                      lo: np.ndarray, hi: np.ndarray, origin: np.ndarray,
                      direction: np.ndarray, tmax: float) -> tuple[int, float]:
    """``(index, t)`` of the first box the ray segment ``origin + t direction`` ((d,) each),
    t in [0, tmax], touches (ties: smallest t, then smallest index), or ``(-1, inf)``."""
    d = origin.shape[0]
    origins = np.empty((1, d))
    directions = np.empty((1, d))
    for k in range(d):
        origins[0, k] = origin[k]
        directions[0, k] = direction[k]
    tmaxs = np.full(1, tmax)
    index = np.empty(1, np.int64)
    t = np.empty(1)
    ray_closest_boxes_range(node_lo, node_hi, node_child, node_start, node_count, order, lo,
                            hi, origins, directions, tmaxs, 0, 1, np.empty(STACK_SIZE, np.int64),
                            np.empty(STACK_SIZE), index, t)
    return index[0], t[0]


@batch_kernel
def ray_closest_boxes_many(node_lo: np.ndarray, node_hi: np.ndarray, node_child: np.ndarray,
                           node_start: np.ndarray, node_count: np.ndarray, order: np.ndarray,
                           lo: np.ndarray, hi: np.ndarray, origins: np.ndarray,
                           directions: np.ndarray, tmax: np.ndarray
                           ) -> tuple[np.ndarray, np.ndarray]:
    """:func:`ray_closest_boxes` for n rays in parallel: ``origins, directions`` (n, d)
    float64, ``tmax`` (n,) float64; returns ``index`` (n,) int64 (-1 on a miss) and ``t``
    (n,) float64 (inf on a miss). An empty batch gives empty arrays of those types.

    The parallel pattern: ``prange`` over runs of :data:`RAY_CHUNK` rays, each run one call
    of :func:`ray_closest_boxes_range` with its own stacks.
    """
    n = origins.shape[0]
    index = np.empty(n, np.int64)
    t = np.empty(n)
    n_chunks = (n + RAY_CHUNK - 1) // RAY_CHUNK
    for c in numba.prange(n_chunks):
        ray_closest_boxes_range(node_lo, node_hi, node_child, node_start, node_count, order,
                                lo, hi, origins, directions, tmax, c * RAY_CHUNK,
                                min(n, (c + 1) * RAY_CHUNK), np.empty(STACK_SIZE, np.int64),
                                np.empty(STACK_SIZE), index, t)
    return index, t
