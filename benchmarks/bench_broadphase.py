"""Benchmark the World's ray broadphase on every scene kind against two plain structures.

Issue 11 item 3: whatever the scene, ``World.raycast_many`` on one thread should be within
1.3x of the faster of a plain uniform grid and a plain BVH built for that scene alone, and at
least 20x pymunk's ``Space.segment_query_first``. The scenes are :mod:`scenes` (every kind the
issue names) at 1,000 and 10,000 colliders, 2,000 rays each (:func:`scenes.rays`). Runners,
all on one thread:

- ``world``: :meth:`swept.world.World.raycast_many` as the World decides its structure
  (:func:`swept.broadphase.choose_broadphase`: grid and cell size, or the BVH);
- ``world_bvh``: the same World forced onto its BVH (the choice patched, for measurement
  only). In a scene with moving colliders, ``world_all_static`` adds the same colliders all
  static, to show what the moving colliders' own tree costs each ray;
- ``grid``: a plain compiled uniform grid written here (numba; DDA walk, stopping at the first
  cell whose hits lie within it; a segment binned into the cells it crosses, any other collider
  into the cells its box covers), at several cell sizes: the best is the reference;
- ``bvh``: a plain compiled BVH written here (binned SAH over the colliders' boxes, 4 a leaf,
  front-to-back walk pruned by the best hit so far);
- ``brute``: every collider tested, the answers every runner is checked against;
- ``pymunk``: ``segment_query_first`` in a Python loop over the same rays as the compiled
  runners, timed in the same rounds and as they are (the fastest loop kept).

The plain runners call swept's own ray kernels (:mod:`swept._kernels.ray`) for the narrowphase,
so their answers match exactly: each compiled runner must give the brute force's handle (ties:
the smallest handle) and distance (to :data:`AGREE_TOLERANCE` relative) on every ray; pymunk's
share of agreeing rays is reported (it answers a finite segment query, in its own conventions
for rays that start inside a shape). The runners, pymunk's loop too, are timed in turns, in
CPU time (:func:`interleaved`): the machine is shared. Prints a table (us a ray; World / best
plain; pymunk / World; pymunk / best plain, the most any structure with this narrowphase could
show) and writes ``benchmarks/results/broadphase.json``. ``run(quick)`` is the entry point for
``swept bench``; ``python benchmarks/bench_broadphase.py [--quick] [--scenes uniform,kinds:1000]
[--breakdown]`` runs it alone (``--scenes``: only these scene kinds, or kinds at one size;
``--breakdown``: where each scene's rays spend their time, :func:`scene_stats`).
"""

from __future__ import annotations

import argparse
import contextlib
import importlib.util
import json
import math
import os
import platform
import sys
import time
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any

import numba
import numpy as np

import swept.world as swept_world
from swept import Segment
from swept._kernels.ray import ray_aabb2, ray_capsule2, ray_circle, ray_polygon, ray_segment
from swept.broadphase import BroadphaseChoice
from swept.world import World


def _load_scenes() -> Any:
    """The sibling module :mod:`scenes`, loaded by path (``swept bench`` loads this script by
    path, so its folder is not on ``sys.path``)."""
    if "swept_bench_scenes" in sys.modules:
        return sys.modules["swept_bench_scenes"]
    path = Path(__file__).resolve().parent / "scenes.py"
    spec = importlib.util.spec_from_file_location("swept_bench_scenes", path)
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    sys.modules["swept_bench_scenes"] = module
    spec.loader.exec_module(module)
    return module


scenes = _load_scenes()

sys.path.insert(0, str(Path(__file__).resolve().parent))

from timing import best_time, interleaved  # noqa: E402

#: Collider counts measured.
SIZES = (1_000, 10_000)
#: Rays per measurement (the issue's count).
RAYS = 2_000
#: Timed repeats of the compiled runners, the best kept (full run / quick run).
REPEATS = (5, 3)
#: Timed loops of pymunk's rays at least, the best kept (full run / quick run), in the same
#: rounds as the compiled runners (:func:`interleaved`; the rounds are the larger of this and
#: :data:`REPEATS`). One loop of 300 rays read up to 1.7x apart between runs of the same scene
#: on the shared machine (clusters at 1,000: 2.0 and 3.5 us a ray), which moved every pymunk /
#: World ratio of a quick run with it; five rounds still read coordinates of 1e6 at 10,000 at
#: 13.9x in an idle goals run (2026-12-03 15:52) and 16.7x in the one before, where 40
#: alternated rounds read 20.1x: the machine's slow spells last seconds (benchmarks/README.md).
PYMUNK_REPEATS = (5, 11)
#: Rays a :func:`scene_stats` box count tests at a time against every collider (a bound on
#: its numpy temporaries: rays x colliders x 2 floats).
STATS_RAY_CHUNK = 100
#: The plain grid's cell sizes tried: these multiples of ``sqrt(area / n)`` (area: the
#: colliders' bounding square); the fastest is the reference.
GRID_CELL_FACTORS = (0.125, 0.18, 0.25, 0.35, 0.5, 0.7, 1.4)
#: Cell sizes a quick run tries.
QUICK_GRID_CELL_FACTORS = (0.35, 0.7)
#: A plain grid with more entries than this is not built (memory; it would lose anyway).
GRID_MAX_ENTRIES = 20_000_000
#: The plain grid's cells are padded by this fraction of a cell when binning (a collider whose
#: hit rounds onto the next cell is still found there).
GRID_PAD = 1e-6
#: The plain BVH's primitive boxes are grown by this times the scene's coordinate scale, so a
#: box test never rejects a hit the narrowphase finds (a hit at a segment's end lies on its box).
BVH_PAD = 1e-9
#: Colliders a plain BVH leaf holds at most.
BVH_LEAF = 4
#: Bins of the plain BVH's SAH split.
BVH_BINS = 16
#: Relative tolerance when comparing hit distances with the brute force.
AGREE_TOLERANCE = 1e-9
#: The issue's goals: World within this of the best plain structure, and this many times pymunk.
GOAL_VS_PLAIN = 1.3
GOAL_VS_PYMUNK = 20.0
RESULTS = Path(__file__).resolve().parent / "results" / "broadphase.json"

KIND_CIRCLE, KIND_SEGMENT, KIND_AABB2, KIND_POLYGON, KIND_CAPSULE2 = 0, 1, 2, 3, 4


# ---------------------------------------------------------------------------------------------
# narrowphase: swept's own kernels, one per kind


@numba.njit
def narrow(kind: np.ndarray, params: np.ndarray, verts: np.ndarray, norms: np.ndarray, i: int,
           ox: float, oy: float, dx: float, dy: float, tmax: float) -> float:
    """The distance at which the ray meets collider i (-1: a miss), as ``swept.raycast``."""
    k = kind[i]
    if k == KIND_SEGMENT:
        t = ray_segment(ox, oy, dx, dy, params[i, 0], params[i, 1], params[i, 2], params[i, 3],
                        tmax)[0]
    elif k == KIND_AABB2:
        t = ray_aabb2(ox, oy, dx, dy, params[i, 0], params[i, 1], params[i, 2], params[i, 3],
                      tmax)[0]
    elif k == KIND_CIRCLE:
        t = ray_circle(ox, oy, dx, dy, params[i, 0], params[i, 1], params[i, 2], tmax)[0]
    elif k == KIND_CAPSULE2:
        t = ray_capsule2(ox, oy, dx, dy, params[i, 0], params[i, 1], params[i, 2],
                         params[i, 3], params[i, 4], tmax)[0]
    else:
        o = int(params[i, 0])
        c = int(params[i, 1])
        t = ray_polygon(ox, oy, dx, dy, verts[o:o + c], norms[o:o + c], tmax)[0]
    return t


@numba.njit
def brute_rays(kind: np.ndarray, params: np.ndarray, verts: np.ndarray, norms: np.ndarray,
               origins: np.ndarray, directions: np.ndarray, tmax: float
               ) -> tuple[np.ndarray, np.ndarray]:
    """Nearest hit of each ray over every collider (ties: the smallest handle): ``index`` (n,)
    int64 (-1: a miss) and ``t`` (n,) float64 (inf: a miss)."""
    n = origins.shape[0]
    index = np.full(n, -1, np.int64)
    tout = np.full(n, np.inf)
    for r in range(n):
        best = tmax
        best_i = -1
        for i in range(kind.shape[0]):
            t = narrow(kind, params, verts, norms, i, origins[r, 0], origins[r, 1],
                       directions[r, 0], directions[r, 1], best)
            if t >= 0.0 and (best_i < 0 or t < best):
                best = t
                best_i = i
        if best_i >= 0:
            index[r] = best_i
            tout[r] = best
    return index, tout


# ---------------------------------------------------------------------------------------------
# the plain uniform grid


@numba.njit
def _clamp(v: float, cells: int) -> int:
    """The cell index of coordinate ``v`` (in cells), clamped to [0, cells)."""
    f = math.floor(v)
    if f < 0.0:
        return 0
    if f >= cells:
        return cells - 1
    return int(f)


@numba.njit
def _collider_cells(kind: np.ndarray, params: np.ndarray, lo: np.ndarray, hi: np.ndarray,
                    i: int, x0: float, y0: float, cell: float, nx: int, ny: int,
                    out: np.ndarray) -> tuple[int, np.ndarray]:
    """The cells collider i goes into (a segment: those it crosses, row by row; any other
    kind: those its box covers), padded by GRID_PAD of a cell; returns their count and the
    buffer holding them (grown when full)."""
    pad = GRID_PAD * cell
    cy0 = _clamp((lo[i, 1] - pad - y0) / cell, ny)
    cy1 = _clamp((hi[i, 1] + pad - y0) / cell, ny)
    m = 0
    for cy in range(cy0, cy1 + 1):
        xa = lo[i, 0]
        xb = hi[i, 0]
        if kind[i] == KIND_SEGMENT:
            ax, ay, bx, by = params[i, 0], params[i, 1], params[i, 2], params[i, 3]
            if ay != by:
                # the part of the segment within this row of cells (padded)
                ylo = y0 + cy * cell - pad
                yhi = y0 + (cy + 1) * cell + pad
                ta = (ylo - ay) / (by - ay)
                tb = (yhi - ay) / (by - ay)
                if ta > tb:
                    ta, tb = tb, ta
                ta = max(ta, 0.0)
                tb = min(tb, 1.0)
                if ta > tb:
                    continue
                xa = ax + ta * (bx - ax)
                xb = ax + tb * (bx - ax)
                if xa > xb:
                    xa, xb = xb, xa
        cx0 = _clamp((xa - pad - x0) / cell, nx)
        cx1 = _clamp((xb + pad - x0) / cell, nx)
        for cx in range(cx0, cx1 + 1):
            if m == out.shape[0]:
                grown = np.empty(2 * m, np.int64)
                grown[:m] = out
                out = grown
            out[m] = cy * nx + cx
            m += 1
    return m, out


@numba.njit
def grid_build(kind: np.ndarray, params: np.ndarray, lo: np.ndarray, hi: np.ndarray, x0: float,
               y0: float, cell: float, nx: int, ny: int, max_entries: int
               ) -> tuple[np.ndarray, np.ndarray]:
    """CSR arrays ``start`` (nx * ny + 1,) and ``items`` (collider indices, cell by cell; cell
    ``cx + nx * cy``); empty ``items`` and ``start`` of length 1 when there would be more than
    ``max_entries`` entries."""
    n = kind.shape[0]
    start = np.zeros(nx * ny + 1, np.int64)
    out = np.empty(64, np.int64)
    total = 0
    for i in range(n):
        m, out = _collider_cells(kind, params, lo, hi, i, x0, y0, cell, nx, ny, out)
        total += m
        if total > max_entries:
            return np.zeros(1, np.int64), np.zeros(0, np.int64)
        for j in range(m):
            start[out[j] + 1] += 1
    for c in range(nx * ny):
        start[c + 1] += start[c]
    fill = start.copy()
    items = np.empty(start[nx * ny], np.int64)
    for i in range(n):
        m, out = _collider_cells(kind, params, lo, hi, i, x0, y0, cell, nx, ny, out)
        for j in range(m):
            c = out[j]
            items[fill[c]] = i
            fill[c] += 1
    return start, items


@numba.njit
def grid_rays(kind: np.ndarray, params: np.ndarray, verts: np.ndarray, norms: np.ndarray,
              start: np.ndarray, items: np.ndarray, x0: float, y0: float, cell: float, nx: int,
              ny: int, origins: np.ndarray, directions: np.ndarray, tmax: float
              ) -> tuple[np.ndarray, np.ndarray]:
    """Nearest hit of each ray through the grid (one thread): the ray is clipped to the grid,
    then walks its cells in order (DDA), testing every collider of each, and stops at the first
    cell whose best hit lies within it. Returns as :func:`brute_rays`."""
    n = origins.shape[0]
    index = np.full(n, -1, np.int64)
    tout = np.full(n, np.inf)
    gx1 = x0 + nx * cell
    gy1 = y0 + ny * cell
    for r in range(n):
        ox, oy = origins[r, 0], origins[r, 1]
        dx, dy = directions[r, 0], directions[r, 1]
        # clip the ray to the grid's box
        t0 = 0.0
        t1 = tmax
        if dx == 0.0:
            if ox < x0 or ox > gx1:
                continue
        else:
            ta = (x0 - ox) / dx
            tb = (gx1 - ox) / dx
            t0 = max(t0, min(ta, tb))
            t1 = min(t1, max(ta, tb))
        if dy == 0.0:
            if oy < y0 or oy > gy1:
                continue
        else:
            ta = (y0 - oy) / dy
            tb = (gy1 - oy) / dy
            t0 = max(t0, min(ta, tb))
            t1 = min(t1, max(ta, tb))
        if t0 > t1:
            continue
        cx = _clamp((ox + t0 * dx - x0) / cell, nx)
        cy = _clamp((oy + t0 * dy - y0) / cell, ny)
        sx = 1 if dx > 0.0 else -1
        sy = 1 if dy > 0.0 else -1
        # t at which the ray crosses the next vertical / horizontal cell line
        tx = np.inf if dx == 0.0 else (x0 + (cx + (1 if dx > 0.0 else 0)) * cell - ox) / dx
        ty = np.inf if dy == 0.0 else (y0 + (cy + (1 if dy > 0.0 else 0)) * cell - oy) / dy
        stepx = np.inf if dx == 0.0 else cell / abs(dx)
        stepy = np.inf if dy == 0.0 else cell / abs(dy)
        best = tmax
        best_i = -1
        for _ in range(nx + ny + 2):
            c = cy * nx + cx
            for j in range(start[c], start[c + 1]):
                i = items[j]
                t = narrow(kind, params, verts, norms, i, ox, oy, dx, dy, best)
                if t >= 0.0 and (best_i < 0 or t < best or (t == best and i < best_i)):
                    best = t
                    best_i = i
            cell_exit = min(tx, ty)
            if (best_i >= 0 and best <= cell_exit) or cell_exit > t1:
                # the nearest hit lies in this cell, or the ray ends in it
                break
            if tx < ty:
                cx += sx
                tx += stepx
            else:
                cy += sy
                ty += stepy
            if cx < 0 or cy < 0 or cx >= nx or cy >= ny:
                break
        if best_i >= 0:
            index[r] = best_i
            tout[r] = best
    return index, tout


# ---------------------------------------------------------------------------------------------
# the plain BVH


@numba.njit
def bvh_build(lo: np.ndarray, hi: np.ndarray
              ) -> tuple[np.ndarray, np.ndarray, np.ndarray, np.ndarray, np.ndarray]:
    """A BVH over boxes ``lo``, ``hi`` (n, 2), binned SAH (perimeter cost, BVH_BINS bins on the
    longer axis of the centroids), at most BVH_LEAF a leaf. Returns ``node_box`` (m, 4) ``minx
    miny maxx maxy``, ``child`` (m,) (the left child; the right is ``child + 1``; -1 for a
    leaf), ``first`` and ``count`` (m,) (a leaf's run of ``order``), and ``order`` (n,)."""
    n = lo.shape[0]
    cap = 2 * n + 1
    node_box = np.empty((cap, 4))
    child = np.full(cap, -1, np.int64)
    first = np.zeros(cap, np.int64)
    count = np.zeros(cap, np.int64)
    order = np.arange(n)
    cen = (lo + hi) * 0.5
    stack = np.empty((cap, 3), np.int64)
    sp = 0
    stack[0, 0], stack[0, 1], stack[0, 2] = 0, 0, n
    sp = 1
    nodes = 1
    bin_count = np.zeros(BVH_BINS, np.int64)
    bin_box = np.empty((BVH_BINS, 4))
    left_cost = np.empty(BVH_BINS)
    while sp > 0:
        sp -= 1
        node, s, e = stack[sp, 0], stack[sp, 1], stack[sp, 2]
        bx0 = by0 = cx0 = cy0 = np.inf
        bx1 = by1 = cx1 = cy1 = -np.inf
        for j in range(s, e):
            i = order[j]
            bx0 = min(bx0, lo[i, 0])
            by0 = min(by0, lo[i, 1])
            bx1 = max(bx1, hi[i, 0])
            by1 = max(by1, hi[i, 1])
            cx0 = min(cx0, cen[i, 0])
            cy0 = min(cy0, cen[i, 1])
            cx1 = max(cx1, cen[i, 0])
            cy1 = max(cy1, cen[i, 1])
        node_box[node, 0], node_box[node, 1] = bx0, by0
        node_box[node, 2], node_box[node, 3] = bx1, by1
        m = e - s
        if m <= BVH_LEAF:
            first[node] = s
            count[node] = m
            continue
        axis = 0 if cx1 - cx0 >= cy1 - cy0 else 1
        c0 = cx0 if axis == 0 else cy0
        extent = (cx1 - cx0) if axis == 0 else (cy1 - cy0)
        mid = s + m // 2
        if extent > 0.0:
            bin_count[:] = 0
            for k in range(BVH_BINS):
                bin_box[k, 0] = bin_box[k, 1] = np.inf
                bin_box[k, 2] = bin_box[k, 3] = -np.inf
            scale = BVH_BINS / extent
            for j in range(s, e):
                i = order[j]
                k = min(int((cen[i, axis] - c0) * scale), BVH_BINS - 1)
                bin_count[k] += 1
                bin_box[k, 0] = min(bin_box[k, 0], lo[i, 0])
                bin_box[k, 1] = min(bin_box[k, 1], lo[i, 1])
                bin_box[k, 2] = max(bin_box[k, 2], hi[i, 0])
                bin_box[k, 3] = max(bin_box[k, 3], hi[i, 1])
            # sweep: cost of the split after bin k (perimeter x count on each side)
            ax0 = ay0 = np.inf
            ax1 = ay1 = -np.inf
            acc = 0
            for k in range(BVH_BINS - 1):
                acc += bin_count[k]
                if bin_count[k] > 0:
                    ax0 = min(ax0, bin_box[k, 0])
                    ay0 = min(ay0, bin_box[k, 1])
                    ax1 = max(ax1, bin_box[k, 2])
                    ay1 = max(ay1, bin_box[k, 3])
                left_cost[k] = ((ax1 - ax0) + (ay1 - ay0)) * acc if acc > 0 else 0.0
            ax0 = ay0 = np.inf
            ax1 = ay1 = -np.inf
            acc = 0
            best_cost = np.inf
            best_k = -1
            for k in range(BVH_BINS - 1, 0, -1):
                acc += bin_count[k]
                if bin_count[k] > 0:
                    ax0 = min(ax0, bin_box[k, 0])
                    ay0 = min(ay0, bin_box[k, 1])
                    ax1 = max(ax1, bin_box[k, 2])
                    ay1 = max(ay1, bin_box[k, 3])
                left_n = m - acc
                if left_n == 0 or acc == 0:
                    continue
                cost = left_cost[k - 1] + ((ax1 - ax0) + (ay1 - ay0)) * acc
                if cost < best_cost:
                    best_cost = cost
                    best_k = k
            if best_k > 0:
                # partition: bins below best_k to the left
                a = s
                b = e - 1
                while a <= b:
                    i = order[a]
                    if min(int((cen[i, axis] - c0) * scale), BVH_BINS - 1) < best_k:
                        a += 1
                    else:
                        order[a], order[b] = order[b], order[a]
                        b -= 1
                mid = a
        if mid <= s or mid >= e:
            # every centroid in one bin (identical boxes): split the run in half
            mid = s + m // 2
        child[node] = nodes
        stack[sp, 0], stack[sp, 1], stack[sp, 2] = nodes, s, mid
        stack[sp + 1, 0], stack[sp + 1, 1], stack[sp + 1, 2] = nodes + 1, mid, e
        sp += 2
        nodes += 2
    return node_box[:nodes].copy(), child[:nodes].copy(), first[:nodes].copy(), \
        count[:nodes].copy(), order


@numba.njit
def _box_entry(ox: float, oy: float, dx: float, dy: float, box: np.ndarray, node: int,
               limit: float) -> float:
    """Where the ray [0, limit] enters box row ``node`` (0 from inside), or inf on a miss."""
    t0 = 0.0
    t1 = limit
    if dx == 0.0:
        if ox < box[node, 0] or ox > box[node, 2]:
            return np.inf
    else:
        ta = (box[node, 0] - ox) / dx
        tb = (box[node, 2] - ox) / dx
        t0 = max(t0, min(ta, tb))
        t1 = min(t1, max(ta, tb))
    if dy == 0.0:
        if oy < box[node, 1] or oy > box[node, 3]:
            return np.inf
    else:
        ta = (box[node, 1] - oy) / dy
        tb = (box[node, 3] - oy) / dy
        t0 = max(t0, min(ta, tb))
        t1 = min(t1, max(ta, tb))
    return t0 if t0 <= t1 else np.inf


@numba.njit
def bvh_rays(kind: np.ndarray, params: np.ndarray, verts: np.ndarray, norms: np.ndarray,
             node_box: np.ndarray, child: np.ndarray, first: np.ndarray, count: np.ndarray,
             order: np.ndarray, origins: np.ndarray, directions: np.ndarray, tmax: float
             ) -> tuple[np.ndarray, np.ndarray]:
    """Nearest hit of each ray through the BVH (one thread): a stack walk, nearer child first,
    skipping nodes entered beyond the best hit so far. Returns as :func:`brute_rays`."""
    n = origins.shape[0]
    index = np.full(n, -1, np.int64)
    tout = np.full(n, np.inf)
    stack = np.empty(node_box.shape[0] + 1, np.int64)
    stack_t = np.empty(node_box.shape[0] + 1)
    for r in range(n):
        ox, oy = origins[r, 0], origins[r, 1]
        dx, dy = directions[r, 0], directions[r, 1]
        best = tmax
        best_i = -1
        t_root = _box_entry(ox, oy, dx, dy, node_box, 0, best)
        if t_root == np.inf:
            continue
        stack[0] = 0
        stack_t[0] = t_root
        sp = 1
        while sp > 0:
            sp -= 1
            node = stack[sp]
            if stack_t[sp] > best:
                continue
            c = child[node]
            if c < 0:
                for j in range(first[node], first[node] + count[node]):
                    i = order[j]
                    t = narrow(kind, params, verts, norms, i, ox, oy, dx, dy, best)
                    if t >= 0.0 and (best_i < 0 or t < best or (t == best and i < best_i)):
                        best = t
                        best_i = i
                continue
            tl = _box_entry(ox, oy, dx, dy, node_box, c, best)
            tr = _box_entry(ox, oy, dx, dy, node_box, c + 1, best)
            # push the farther child first, so the nearer is walked first
            if tl <= tr:
                if tr != np.inf:
                    stack[sp] = c + 1
                    stack_t[sp] = tr
                    sp += 1
                if tl != np.inf:
                    stack[sp] = c
                    stack_t[sp] = tl
                    sp += 1
            else:
                if tl != np.inf:
                    stack[sp] = c
                    stack_t[sp] = tl
                    sp += 1
                stack[sp] = c + 1
                stack_t[sp] = tr
                sp += 1
        if best_i >= 0:
            index[r] = best_i
            tout[r] = best
    return index, tout


# ---------------------------------------------------------------------------------------------
# pymunk


def pymunk_space(scene: Any) -> tuple[Any, dict[Any, int]]:
    """A pymunk ``Space`` holding the scene's colliders, every one on the static body, and
    each shape's collider index."""
    import pymunk

    space = pymunk.Space()
    body = space.static_body
    index_of: dict[Any, int] = {}
    for i in range(len(scene)):
        k = int(scene.kind[i])
        p = scene.params[i]
        if k == KIND_SEGMENT:
            s = pymunk.Segment(body, (p[0], p[1]), (p[2], p[3]), 0.0)
        elif k == KIND_CAPSULE2:
            s = pymunk.Segment(body, (p[0], p[1]), (p[2], p[3]), p[4])
        elif k == KIND_CIRCLE:
            s = pymunk.Circle(body, p[2], (p[0], p[1]))
        elif k == KIND_AABB2:
            s = pymunk.Poly(body, [(p[0], p[1]), (p[2], p[1]), (p[2], p[3]), (p[0], p[3])])
        else:
            o, c = int(p[0]), int(p[1])
            s = pymunk.Poly(body, [tuple(v) for v in scene.verts[o:o + c]])
        space.add(s)
        index_of[s] = i
    return space, index_of


def pymunk_rays(space: Any, index_of: dict[Any, int], origins: np.ndarray,
                directions: np.ndarray, tmax: float
                ) -> Callable[[], tuple[np.ndarray, np.ndarray]]:
    """A runner casting every ray with ``space``'s ``segment_query_first`` (a query segment
    of length ``tmax``): each ray's collider index (-1: none) and distance."""
    import pymunk

    starts = [tuple(o) for o in origins]
    ends = [tuple(o + d * tmax) for o, d in zip(origins, directions)]
    flt = pymunk.ShapeFilter()

    def run() -> tuple[np.ndarray, np.ndarray]:
        index = np.full(len(starts), -1, np.int64)
        t = np.full(len(starts), np.inf)
        query = space.segment_query_first
        for k, (s, e) in enumerate(zip(starts, ends)):
            hit = query(s, e, 0.0, flt)
            if hit is not None:
                index[k] = index_of[hit.shape]
                t[k] = hit.alpha * tmax
        return index, t

    return run


def pymunk_runner(scene: Any, origins: np.ndarray, directions: np.ndarray, tmax: float
                  ) -> Callable[[], tuple[np.ndarray, np.ndarray]]:
    """A runner casting every ray with pymunk's ``segment_query_first`` (a query segment of
    length ``tmax``); every collider on the static body (:func:`pymunk_space`)."""
    space, index_of = pymunk_space(scene)
    return pymunk_rays(space, index_of, origins, directions, tmax)


# ---------------------------------------------------------------------------------------------
# the World, and its grid decision patched for evidence


def _forced_bvh(lo: Any, hi: Any, dim: int, *, thin: Any = None) -> Any:
    """:func:`swept.broadphase.choose_broadphase` forced to the BVH."""
    return BroadphaseChoice(False, 1.0, "forced: BVH")


@contextlib.contextmanager
def world_decision(world: World, force_bvh: bool) -> Iterator[None]:
    """Within the block, ``world`` decides its ray structure as it does (``force_bvh``
    False) or takes its BVH; the static structures are rebuilt on entry, and what the block
    builds stays until the World next changes."""
    w: Any = world
    original = swept_world.choose_broadphase
    if force_bvh:
        swept_world.choose_broadphase = _forced_bvh  # type: ignore[assignment]
    w._static_tree = w._packed = w._scene = None
    try:
        yield
    finally:
        swept_world.choose_broadphase = original  # type: ignore[assignment]


def world_grid_info(world: World) -> dict[str, Any]:
    """What the World's static structure is now: grid cells and entries, or the BVH."""
    w: Any = world
    w._sync()
    if w._grid is None:
        return {"structure": "bvh"}
    frame, dims, _start, items = w._grid[:4]
    return {"structure": "grid", "cell": float(frame[2]), "cells": [int(dims[0]),
            int(dims[1])], "entries": int(items.shape[0]), "origin": [float(frame[0]),
            float(frame[1])]}


@contextlib.contextmanager
def one_thread() -> Iterator[None]:
    """Run the block on one thread (``swept.set_threads`` where it exists)."""
    import swept

    setter = getattr(swept, "set_threads", None)
    before = numba.get_num_threads()
    if setter is not None:
        setter(1)
    numba.set_num_threads(1)
    try:
        yield
    finally:
        if setter is not None:
            setter(before)
        numba.set_num_threads(before)


# ---------------------------------------------------------------------------------------------
# where a scene's rays spend their time


#: Names of the collider kind codes, for :func:`scene_stats`.
KIND_NAMES = {KIND_CIRCLE: "circle", KIND_SEGMENT: "segment", KIND_AABB2: "box",
              KIND_POLYGON: "polygon", KIND_CAPSULE2: "capsule"}


def box_candidates(scene: Any, origins: np.ndarray, directions: np.ndarray,
                   reach: np.ndarray) -> np.ndarray:
    """How many colliders of each kind (columns: kind codes 0 to 4) have a box that ray r's
    segment [0, reach[r]] meets: (n, 5) int64, counted by slab tests in numpy,
    :data:`STATS_RAY_CHUNK` rays at a time. The narrowphase tests a walk over colliders'
    boxes (a BVH's leaves) cannot avoid; a grid that bins a segment by the cells it crosses
    (not its box) tests fewer of long diagonal segments, whose boxes are loose."""
    n = origins.shape[0]
    counts = np.zeros((n, 5), np.int64)
    with np.errstate(divide="ignore", invalid="ignore"):
        inverse = 1.0 / directions
        for a in range(0, n, STATS_RAY_CHUNK):
            b = min(a + STATS_RAY_CHUNK, n)
            o = origins[a:b, None, :]
            inv = inverse[a:b, None, :]
            ta = (scene.lo[None, :, :] - o) * inv
            tb = (scene.hi[None, :, :] - o) * inv
            # an axis-parallel ray: inside the slab (nan from 0 * inf) or out of it
            inside = (scene.lo[None, :, :] <= o) & (o <= scene.hi[None, :, :])
            near = np.where(np.isnan(ta) | np.isnan(tb), np.where(inside, -np.inf, np.inf),
                            np.minimum(ta, tb))
            far = np.where(np.isnan(ta) | np.isnan(tb), np.where(inside, np.inf, -np.inf),
                           np.maximum(ta, tb))
            t0 = np.maximum(near.max(axis=2), 0.0)
            t1 = np.minimum(far.min(axis=2), reach[a:b, None])
            met = t0 <= t1
            for code in KIND_NAMES:
                counts[a:b, code] = met[:, scene.kind == code].sum(axis=1)
    return counts


def scene_stats(scene: Any, origins: np.ndarray, directions: np.ndarray, tmax: float,
                ref_i: np.ndarray, ref_t: np.ndarray, grid: dict[str, Any]) -> dict[str, Any]:
    """Where a scene's rays spend their time, as numbers that do not depend on the machine's
    load: the share of rays that hit, and that start inside a collider (hit at 0); the cells
    a ray crosses in the World's grid (``grid``, :func:`world_grid_info`) up to its hit (or
    its end, clipped to the grid); and the colliders a ray meets the box of before its hit, by
    kind (:func:`box_candidates`)."""
    hit = ref_i >= 0
    reach = np.where(hit, ref_t, tmax)
    stats: dict[str, Any] = {"hit": float(np.mean(hit)), "start_inside": float(np.mean(
        ref_t == 0.0))}
    if grid.get("structure") == "grid":
        x0, y0 = grid["origin"]
        cell = grid["cell"]
        nx, ny = grid["cells"]
        lo = np.array([x0, y0])
        hi = lo + cell * np.array([nx, ny])
        end = np.clip(origins + directions * reach[:, None], lo, hi)
        start = np.clip(origins, lo, hi)
        c0 = np.clip(np.floor((start - lo) / cell), 0, [nx - 1, ny - 1])
        c1 = np.clip(np.floor((end - lo) / cell), 0, [nx - 1, ny - 1])
        stats["cells_a_ray"] = float(np.mean(np.abs(c1 - c0).sum(axis=1) + 1.0))
    counts = box_candidates(scene, origins, directions, reach)
    stats["boxes_met_a_ray"] = {name: float(np.mean(counts[:, code]))
                                for code, name in KIND_NAMES.items() if (scene.kind == code).any()}
    return stats


def scene_world(scene: Any) -> World:
    """A World holding the scene's colliders, added in order (handle i for row i), the
    moving ones with ``moving=True``."""
    world = World()
    for i, shape in enumerate(scene.shapes()):
        world.add(shape, moving=bool(scene.moving[i]))
    return world


def fixed_cost(origins: np.ndarray, directions: np.ndarray, tmax: float, repeats: int
               ) -> float:
    """What a ray of ``raycast_many`` costs with nothing to find: us a ray on one thread, a
    World of one segment beyond every ray's reach (checks, the rays' order, the outputs, the
    root box test)."""
    world = World()
    # (no ray reaches past its origin's coordinates plus its length)
    far = float(np.max(np.abs(origins))) + tmax + 1.0
    world.add(Segment((far, far), (far + 1.0, far)))
    with one_thread():
        seconds = best_time(lambda: world.raycast_many(origins, directions, tmax), repeats,
                            time.thread_time)
    return seconds / origins.shape[0] * 1e6


# ---------------------------------------------------------------------------------------------
# measurement


def compare(ref_i: np.ndarray, ref_t: np.ndarray, idx: np.ndarray, t: np.ndarray
            ) -> dict[str, int]:
    """How a runner's answers differ from the brute force's: ``wrong`` (a different hit or
    miss, or the distance off by more than AGREE_TOLERANCE relative) and ``tie`` (the same
    distance on another collider)."""
    hit = ref_i >= 0
    same_miss = ~hit & (idx < 0)
    with np.errstate(invalid="ignore"):
        close = hit & (idx >= 0) & (np.abs(t - ref_t) <= AGREE_TOLERANCE * np.maximum(
            1.0, np.abs(ref_t)))
    right = same_miss | (close & (idx == ref_i))
    tie = close & (idx != ref_i)
    return {"wrong": int(np.sum(~right & ~tie)), "tie": int(np.sum(tie))}


def plain_grids(scene: Any, factors: tuple[float, ...], origins: np.ndarray,
                directions: np.ndarray, tmax: float
                ) -> tuple[dict[str, Any], dict[str, Callable[[], Any]]]:
    """The plain grid at each cell size: its statistics, and a runner each (named
    ``grid@factor``)."""
    x0, y0 = scene.lo.min(axis=0)
    x1, y1 = scene.hi.max(axis=0)
    n = len(scene)
    side = max(x1 - x0, y1 - y0)
    info: dict[str, Any] = {}
    runners: dict[str, Callable[[], Any]] = {}
    for f in factors:
        cell = side / math.sqrt(n) * f
        nx = int(math.floor((x1 - x0) / cell)) + 1
        ny = int(math.floor((y1 - y0) / cell)) + 1
        start, items = grid_build(scene.kind, scene.params, scene.lo, scene.hi, float(x0),
                                  float(y0), cell, nx, ny, GRID_MAX_ENTRIES)
        if start.shape[0] == 1:
            info[str(f)] = {"cell": cell, "skipped": "too many entries"}
            continue
        args = (scene.kind, scene.params, scene.verts, scene.norms, start, items, float(x0),
                float(y0), cell, nx, ny, origins, directions, tmax)
        info[str(f)] = {"cell": cell, "cells": [nx, ny], "entries": int(items.shape[0])}
        runners[f"grid@{f}"] = lambda a=args: grid_rays(*a)
    return info, runners


def bench_scene(name: str, n: int, quick: bool, breakdown: bool = False) -> dict[str, Any]:
    """Every runner on one scene: each checked against the brute force, then all timed in
    turns (:func:`interleaved`); with ``breakdown``, :func:`scene_stats` and
    :func:`fixed_cost` too (``row["stats"]``)."""
    scene = scenes.make_scene(name, n)
    origins, directions, tmax = scenes.rays(scene, RAYS)
    repeats = REPEATS[1] if quick else REPEATS[0]
    row: dict[str, Any] = {"scene": name, "colliders": n, "rays": RAYS}
    check: dict[str, dict[str, int]] = {}

    ref_i, ref_t = brute_rays(scene.kind, scene.params, scene.verts, scene.norms, origins,
                              directions, tmax)
    row["hit_rate"] = float(np.mean(ref_i >= 0))

    with one_thread():
        grid_info, runners = plain_grids(
            scene, QUICK_GRID_CELL_FACTORS if quick else GRID_CELL_FACTORS, origins,
            directions, tmax)
        for label, fn in runners.items():
            check[label] = compare(ref_i, ref_t, *fn())

        pad = BVH_PAD * max(1.0, float(np.max(np.abs(np.concatenate([scene.lo, scene.hi])))))
        start = time.perf_counter()
        tree = bvh_build(scene.lo - pad, scene.hi + pad)
        row["bvh_build_ms"] = (time.perf_counter() - start) * 1e3
        bargs = (scene.kind, scene.params, scene.verts, scene.norms, *tree, origins, directions,
                 tmax)
        runners["bvh"] = lambda: bvh_rays(*bargs)
        check["bvh"] = compare(ref_i, ref_t, *runners["bvh"]())

        structures: dict[str, Any] = {}
        worlds: dict[str, World] = {}
        for label, force in (("world", False), ("world_bvh", True)):
            start = time.perf_counter()
            world = scene_world(scene)
            if label == "world":
                row["world_add_ms"] = (time.perf_counter() - start) * 1e3
            with world_decision(world, force):
                # built here, with the decision patched; kept after (nothing changes)
                structures[label] = world_grid_info(world)
            worlds[label] = world
        if scene.moving.any():
            # the same colliders all static: what the moving ones cost each ray
            still = World()
            for shape in scene.shapes():
                still.add(shape)
            worlds["world_all_static"] = still
        for label, world in worlds.items():
            batch = world.raycast_many(origins, directions, tmax)
            check[label] = compare(ref_i, ref_t, batch.handle, batch.distance)
            runners[label] = lambda w=world: w.raycast_many(origins, directions, tmax)
        row["world_structure"] = structures

        # pymunk in the same rounds as the World, timed alike (each timed loop right after an
        # untimed one, the best kept): its figure moved more between runs than the World's,
        # and, timed apart after them, its variance alone decided the goal's ratio. Every ray
        # the World casts: quick runs cast the first 300 alone until 2026-12-03, and pymunk's
        # time a ray over those read 0.81-1.25x its time over all 2,000 (each alternated in
        # one process, benchmarks/README.md), so a quick ratio compared other rays
        try:
            run = pymunk_runner(scene, origins, directions, tmax)
        except ImportError:
            run = None
        if run is not None:
            pi, pt = run()
            c = compare(ref_i, ref_t, pi, pt)
            row["pymunk_agreement"] = 1.0 - c["wrong"] / RAYS
            runners["pymunk"] = run
            repeats = max(repeats, PYMUNK_REPEATS[1] if quick else PYMUNK_REPEATS[0])

        seconds = interleaved(runners, repeats)
    pymunk_s = seconds.pop("pymunk", None)
    us = {label: t / RAYS * 1e6 for label, t in seconds.items() if not label.startswith("grid@")}
    if pymunk_s is not None:
        us["pymunk"] = pymunk_s / RAYS * 1e6
    best_factor = min((t, label) for label, t in seconds.items() if label.startswith("grid@"))[1]
    for label, t in seconds.items():
        if label.startswith("grid@"):
            grid_info[label[5:]]["us"] = t / RAYS * 1e6
    grid_info["best_factor"] = float(best_factor[5:])
    grid_info["us"] = seconds[best_factor] / RAYS * 1e6
    row["grid"] = grid_info
    us["grid"] = grid_info["us"]

    if breakdown:
        row["stats"] = scene_stats(scene, origins, directions, tmax, ref_i, ref_t,
                                   structures["world"])
        row["stats"]["fixed_us"] = fixed_cost(origins, directions, tmax, repeats)

    best_plain = min(us["grid"], us["bvh"])
    row["us_per_ray"] = us
    row["check"] = check
    row["best_plain"] = "grid" if us["grid"] <= us["bvh"] else "bvh"
    if "pymunk" in us:
        # the most any structure with this narrowphase could show against pymunk
        row["pymunk_vs_best_plain"] = us["pymunk"] / best_plain
    for label in ("world", "world_bvh"):
        row[f"{label}_vs_best_plain"] = us[label] / best_plain
        if "pymunk" in us:
            row[f"pymunk_vs_{label}"] = us["pymunk"] / us[label]
    return row


def selected(only: str | None) -> list[tuple[str, int]]:
    """The (scene kind, collider count) pairs to run: every kind at every size, or those
    ``only`` names (comma-separated kinds, each maybe with ``:count``)."""
    if not only:
        return [(name, n) for name in scenes.KINDS for n in SIZES]
    pairs: list[tuple[str, int]] = []
    for item in only.split(","):
        name, _, count = item.strip().partition(":")
        if name not in scenes.KINDS:
            raise ValueError(f"--scenes: unknown scene kind {name!r} (one of {scenes.KINDS})")
        pairs += [(name, int(count))] if count else [(name, n) for n in SIZES]
    return pairs


def run(quick: bool = False, only: str | None = None, breakdown: bool = False
        ) -> dict[str, Any]:
    """Run the benchmark (``quick``: fewer pymunk rays, repeats and grid sizes; ``only`` and
    ``breakdown``: see :func:`selected` and :func:`bench_scene`); returns the results and
    writes them to ``benchmarks/results/broadphase.json``. Raises AssertionError if a compiled
    runner disagrees with the brute force."""
    rows = [bench_scene(name, n, quick, breakdown) for name, n in selected(only)]
    result = {
        "machine": {"python": platform.python_version(), "numba": numba.__version__,
                    "cpu": platform.machine(), "cores": os.cpu_count()},
        "quick": quick,
        "goal": f"World one thread within {GOAL_VS_PLAIN}x of the best plain structure and "
                f">= {GOAL_VS_PYMUNK}x pymunk on every scene",
        "scenes": rows,
    }
    RESULTS.parent.mkdir(parents=True, exist_ok=True)
    RESULTS.write_text(json.dumps(result, indent=2) + "\n")
    wrong = [(r["scene"], r["colliders"], name, c) for r in rows
             for name, c in r["check"].items() if c["wrong"] or c["tie"]]
    assert not wrong, f"runners disagree with the brute force: {wrong}"
    return result


def print_table(result: dict[str, Any]) -> None:
    """The results: us a ray per runner and scene, and the ratios."""
    print(f"{'scene':<12}{'n':>7}{'world':>8}{'w_bvh':>8}{'grid':>8}{'bvh':>8}{'pymunk':>8}"
          f"  {'world/best':>10}{'pm/world':>9}{'pm/best':>8}  best  world's structure")
    for r in result["scenes"]:
        u = r["us_per_ray"]
        s = r["world_structure"]
        print(f"{r['scene']:<12}{r['colliders']:>7}{u['world']:>8.3f}{u['world_bvh']:>8.3f}"
              f"{u['grid']:>8.3f}{u['bvh']:>8.3f}{u.get('pymunk', math.nan):>8.2f}"
              f"  {r['world_vs_best_plain']:>10.2f}{r.get('pymunk_vs_world', math.nan):>9.1f}"
              f"{r.get('pymunk_vs_best_plain', math.nan):>8.1f}"
              f"  {r['best_plain']:<5} {s['world']['structure']}")
        if "world_all_static" in u:
            print(f"{'':<19}(the same colliders all static: world "
                  f"{u['world_all_static']:.3f} us)")
        if "stats" in r:
            st = r["stats"]
            boxes = ", ".join(f"{k} {v:.2f}" for k, v in st["boxes_met_a_ray"].items())
            cells = f", {st['cells_a_ray']:.1f} grid cells" if "cells_a_ray" in st else ""
            print(f"{'':<19}hit {st['hit']:.0%}, inside {st['start_inside']:.0%}{cells}, "
                  f"boxes met a ray: {boxes}; fixed cost {st['fixed_us']:.3f} us")


def main(argv: list[str] | None = None) -> int:
    """Command line: run, print the table, write the JSON."""
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0] if __doc__ else None)
    parser.add_argument("--quick", action="store_true", help="a smoke run (under a minute)")
    parser.add_argument("--scenes", default=None,
                        help="only these scene kinds, comma-separated, each maybe with :count")
    parser.add_argument("--breakdown", action="store_true",
                        help="where each scene's rays spend their time (counts, fixed cost)")
    args = parser.parse_args(argv)
    result = run(args.quick, args.scenes, args.breakdown)
    print_table(result)
    print(f"wrote {RESULTS}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
