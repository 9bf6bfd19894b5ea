"""Batch shape casts: many moving circles against many static segments, on several threads.

Each circle's move is a ray from its centre against every segment grown by its radius (a
capsule, seed 000). A BVH over the segments' boxes (:mod:`swept._kernels.bvh`) culls them: the
ray is traversed front to back against each node's box grown by the circle's radius (the fat
ray), which contains every capsule below it, and the limit shrinks to the nearest hit so far.
The exact cast is :func:`swept._kernels.ray.ray_capsule2`, the very kernel the scalar
:func:`swept.sweep` uses, so the batch and scalar answers agree.

Fractions are of each circle's displacement, in [0, 1]; a miss has ``inf`` and index -1.

:func:`sweep_circles_segments` is plain Python: it allocates the outputs and has
:func:`swept._parallel.parallel_for` run the range kernel :func:`cast_range` over the circles
in chunks, each writing its own rows (so the result does not depend on the thread count).
"""

from __future__ import annotations

import math

import numpy as np

from .._parallel import parallel_for
from . import kernel
from .bvh import STACK_SIZE, inverse_direction, ray_box_entry2
from .ray import ray_capsule2

__all__ = ["sweep_circles_segments", "cast_range", "PARALLEL_MIN_CIRCLES"]

#: Circles below which :func:`sweep_circles_segments` runs on the calling thread
#: (:func:`swept._parallel.parallel_for`'s ``min_batch``). Measured: a cast costs 1.0 us
#: (10,000 circles of radius 1-5 moving up to 50 among 10,000 segments of length 5-50 in a
#: 1000 x 1000 world, one thread); a parallel call costs 5-25 us more than a serial one.
PARALLEL_MIN_CIRCLES = 128


@kernel
def cast_range(first: int, stop: int, centers: np.ndarray, radii: np.ndarray,
               displacements: np.ndarray, seg_a: np.ndarray, seg_b: np.ndarray,
               node_lo: np.ndarray, node_hi: np.ndarray, node_child: np.ndarray,
               node_start: np.ndarray, node_count: np.ndarray, order: np.ndarray, lo: np.ndarray,
               hi: np.ndarray, hit: np.ndarray, fraction: np.ndarray, normal: np.ndarray,
               index: np.ndarray) -> None:
    """Cast circles ``first .. stop-1``, writing their rows of the four outputs (a range
    kernel for :func:`swept._parallel.parallel_for`)."""
    m = node_lo.shape[0]
    # one pair of traversal stacks for the whole range
    stack_node = np.empty(STACK_SIZE, np.int64)
    stack_t = np.empty(STACK_SIZE)
    for i in range(first, stop):
        hit[i] = False
        fraction[i] = math.inf
        normal[i, 0] = 0.0
        normal[i, 1] = 0.0
        index[i] = -1
        if m == 0:
            continue
        ox = centers[i, 0]
        oy = centers[i, 1]
        r = radii[i]
        vx = displacements[i, 0]
        vy = displacements[i, 1]
        length = math.hypot(vx, vy)
        if length > 0.0:
            dx = vx / length
            dy = vy / length
        else:
            # no motion: only a segment the circle already touches can be met, at 0
            dx = 1.0
            dy = 0.0
        ix = inverse_direction(dx)
        iy = inverse_direction(dy)
        limit = length
        if ray_box_entry2(ox, oy, ix, iy, limit, node_lo[0, 0] - r, node_lo[0, 1] - r,
                          node_hi[0, 0] + r, node_hi[0, 1] + r) == math.inf:
            # the fat ray misses the whole scene
            continue
        best_i = -1
        best_t = math.inf
        bnx = 0.0
        bny = 0.0
        node = 0
        sp = 0
        # every pass visits a new node: m passes at most
        for _ in range(m):
            child = node_child[node]
            if child >= 0:
                # both children's boxes grown by r; the nearer first, the other waits
                c = child
                t_left = ray_box_entry2(ox, oy, ix, iy, limit, node_lo[c, 0] - r,
                                        node_lo[c, 1] - r, node_hi[c, 0] + r,
                                        node_hi[c, 1] + r)
                c = child + 1
                t_right = ray_box_entry2(ox, oy, ix, iy, limit, node_lo[c, 0] - r,
                                         node_lo[c, 1] - r, node_hi[c, 0] + r,
                                         node_hi[c, 1] + r)
                if t_left <= t_right:
                    if t_left != math.inf:
                        if t_right != math.inf:
                            stack_node[sp] = child + 1
                            stack_t[sp] = t_right
                            sp += 1
                        node = child
                        continue
                    # both children missed (or lie beyond the nearest hit)
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
                    if ray_box_entry2(ox, oy, ix, iy, limit, lo[p, 0] - r, lo[p, 1] - r,
                                      hi[p, 0] + r, hi[p, 1] + r) == math.inf:
                        # the fat ray misses this segment's grown box
                        continue
                    # the exact cast: a ray against the segment grown by r (a capsule)
                    t, _px, _py, nx, ny, _inside = ray_capsule2(
                        ox, oy, dx, dy, seg_a[p, 0], seg_a[p, 1], seg_b[p, 0], seg_b[p, 1], r,
                        limit)
                    if t < 0.0:
                        continue
                    if t < best_t or (t == best_t and p < best_i):
                        best_t = t
                        best_i = p
                        bnx = nx
                        bny = ny
                        limit = t
            # resume at the last node put aside that is not entered beyond the limit
            node = -1
            while sp > 0:
                sp -= 1
                if stack_t[sp] <= limit:
                    node = stack_node[sp]
                    break
            if node < 0:
                break
        if best_i < 0:
            continue
        hit[i] = True
        fraction[i] = min(best_t / length, 1.0) if length > 0.0 else 0.0
        normal[i, 0] = bnx
        normal[i, 1] = bny
        index[i] = best_i


def sweep_circles_segments(centers: np.ndarray, radii: np.ndarray, displacements: np.ndarray,
                           seg_a: np.ndarray, seg_b: np.ndarray, node_lo: np.ndarray,
                           node_hi: np.ndarray, node_child: np.ndarray, node_start: np.ndarray,
                           node_count: np.ndarray, order: np.ndarray, lo: np.ndarray,
                           hi: np.ndarray
                           ) -> tuple[np.ndarray, np.ndarray, np.ndarray, np.ndarray]:
    """First contact of each of n moving circles with m static segments.

    ``centers`` (n, 2), ``radii`` (n,), ``displacements`` (n, 2) float64: circle i moves from
    ``centers[i]`` by ``displacements[i]`` over the step. ``seg_a, seg_b`` (m, 2) float64:
    the segments' ends. The tree is :func:`swept._kernels.bvh.build` over the segments'
    boxes ``lo = minimum(seg_a, seg_b)``, ``hi = maximum(seg_a, seg_b)``, followed by those
    boxes: ``sweep_circles_segments(c, r, d, a, b, *bvh.build(lo, hi), lo, hi)``.

    Returns ``hit`` (n,) bool, ``fraction`` (n,) float64 in [0, 1] (inf on a miss),
    ``normal`` (n, 2) float64 (out of the segment toward the circle; zero on a miss) and
    ``index`` (n,) int64 (the segment met; -1 on a miss). Ties: the smallest index. A circle
    that starts touching or overlapping a segment hits it at 0 with the normal of the
    shortest way out, as :func:`swept.sweep` does. An empty batch gives empty arrays.
    """
    n = centers.shape[0]
    hit = np.zeros(n, np.bool_)
    fraction = np.empty(n)
    normal = np.empty((n, 2))
    index = np.empty(n, np.int64)
    parallel_for(cast_range, n,
                 (centers, radii, displacements, seg_a, seg_b, node_lo, node_hi, node_child,
                  node_start, node_count, order, lo, hi, hit, fraction, normal, index),
                 min_batch=PARALLEL_MIN_CIRCLES)
    return hit, fraction, normal, index
