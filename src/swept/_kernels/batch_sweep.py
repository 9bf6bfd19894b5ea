"""Batch shape casts: many moving circles against many static segments.

Each circle's move is a ray from its centre against every segment grown by its radius (a
capsule, seed 000). A BVH over the segments' boxes (:mod:`swept._kernels.bvh`) culls them: the
one traversal walks the fat ray front to back (every box grown by the circle's radius, which
contains every capsule below it), the limit shrinking to the nearest hit so far. The exact
cast is :func:`swept._kernels.ray.ray_capsule2`, the very kernel the scalar
:func:`swept.sweep` uses, so the batch and scalar answers agree.

Fractions are of each circle's displacement, in [0, 1]; a miss has ``inf`` and index -1.
"""

from __future__ import annotations

import math
from typing import NamedTuple

import numpy as np

from .._parallel import parallel_for
from . import kernel
from .bvh import (
    STACK_SIZE,
    box_entry,
    leaf_items,
    make_probe,
    ray_first_leaf,
    ray_next_leaf,
    whole,
)
from .ray import ray_capsule2

__all__ = ["sweep_circles_segments", "Segments", "Swept"]


class Segments(NamedTuple):
    """The static segments: ends ``a, b`` (m, 2), their tree ``nodes, links`` and boxes
    ``boxes`` (m, 6), as :func:`sweep_circles_segments` takes them."""

    a: np.ndarray
    b: np.ndarray
    nodes: np.ndarray
    links: np.ndarray
    boxes: np.ndarray


class Swept(NamedTuple):
    """The moving circles (``centers`` (n, 2), ``radii`` (n,), ``displacements`` (n, 2)) and
    the outputs (``hit``, ``fraction``, ``normal``, ``segment``: the index of the one met)."""

    centers: np.ndarray
    radii: np.ndarray
    displacements: np.ndarray
    hit: np.ndarray
    fraction: np.ndarray
    normal: np.ndarray
    segment: np.ndarray


@kernel
def _cast_range(first: int, stop: int, segs: Segments, io: Swept) -> None:
    """Cast circles ``first .. stop-1``, writing their rows of the outputs."""
    tree = whole(segs.nodes, 2)
    stack = np.empty((STACK_SIZE, 2))
    for i in range(first, stop):
        io.hit[i] = False
        io.fraction[i] = math.inf
        io.normal[i, 0] = 0.0
        io.normal[i, 1] = 0.0
        io.segment[i] = -1
        ox = io.centers[i, 0]
        oy = io.centers[i, 1]
        r = io.radii[i]
        vx = io.displacements[i, 0]
        vy = io.displacements[i, 1]
        length = math.hypot(vx, vy)
        if length > 0.0:
            dx = vx / length
            dy = vy / length
        else:
            # no motion: only a segment the circle already touches can be met, at 0
            dx = 1.0
            dy = 0.0
        probe = make_probe(ox, oy, 0.0, dx, dy, 0.0, r, 2)
        limit = length
        best_i = -1
        best_t = math.inf
        bnx = 0.0
        bny = 0.0
        node, sp = ray_first_leaf(segs.nodes, segs.links, tree, stack, probe, limit)
        # each leaf is handed out once
        for _ in range(tree[1]):
            if node < 0:
                break
            lo_j, hi_j = leaf_items(segs.links, tree, node)
            for j in range(lo_j, hi_j):
                p = segs.links[j]
                if box_entry(segs.boxes, p, probe, limit) == math.inf:
                    # the fat ray misses this segment's grown box
                    continue
                # the exact cast: a ray against the segment grown by r (a capsule)
                t, _px, _py, nx, ny, _inside = ray_capsule2(
                    ox, oy, dx, dy, segs.a[p, 0], segs.a[p, 1], segs.b[p, 0], segs.b[p, 1], r,
                    limit)
                if t < 0.0:
                    continue
                if t < best_t or (t == best_t and p < best_i):
                    best_t = t
                    best_i = p
                    bnx = nx
                    bny = ny
                    limit = t
            node, sp = ray_next_leaf(segs.nodes, segs.links, tree, stack, sp, probe, limit)
        if best_i < 0:
            continue
        io.hit[i] = True
        io.fraction[i] = min(best_t / length, 1.0) if length > 0.0 else 0.0
        io.normal[i, 0] = bnx
        io.normal[i, 1] = bny
        io.segment[i] = best_i


def sweep_circles_segments(centers: np.ndarray, radii: np.ndarray, displacements: np.ndarray,
                           seg_a: np.ndarray, seg_b: np.ndarray, nodes: np.ndarray,
                           links: np.ndarray, boxes: np.ndarray
                           ) -> tuple[np.ndarray, np.ndarray, np.ndarray, np.ndarray]:
    """First contact of each of n moving circles with m static segments.

    ``centers`` (n, 2), ``radii`` (n,), ``displacements`` (n, 2) float64: circle i moves from
    ``centers[i]`` by ``displacements[i]`` over the step. ``seg_a, seg_b`` (m, 2) float64:
    the segments' ends. The tree is :func:`swept._kernels.bvh.build` over the segments'
    boxes ``lo = minimum(seg_a, seg_b)``, ``hi = maximum(seg_a, seg_b)``, followed by those
    boxes as rows: ``sweep_circles_segments(c, r, d, a, b, *bvh.build(lo, hi),
    bvh.box_rows(lo, hi))``. Runs over chunks of circles on the calling thread and its
    helpers (:func:`swept._parallel.parallel_for`).

    Returns ``hit`` (n,) bool, ``fraction`` (n,) float64 in [0, 1] (inf on a miss),
    ``normal`` (n, 2) float64 (out of the segment toward the circle; zero on a miss) and
    ``index`` (n,) int64 (the segment met; -1 on a miss). Ties: the smallest index. A circle
    that starts touching or overlapping a segment hits it at 0 with the normal of the
    shortest way out, as :func:`swept.sweep` does. An empty batch gives empty arrays.
    """
    n = centers.shape[0]
    io = Swept(centers, radii, displacements, np.zeros(n, np.bool_), np.empty(n),
               np.empty((n, 2)), np.empty(n, np.int64))
    parallel_for(_cast_range, n, (Segments(seg_a, seg_b, nodes, links, boxes), io))
    return io.hit, io.fraction, io.normal, io.segment
