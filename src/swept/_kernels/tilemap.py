"""Tile-map kernels: a ray walking the grid (:func:`ray_tiles`), the cells a moving box
covers (:func:`swept_ids`), and a moving ball or box cast against the outline segments filed
there (:func:`cast_segments`).

The outline segments are axis-aligned rows of ``ends`` (``ax, ay, bx, by``); a query passes the
candidates the cell index found (``ids``) and the span along each axis its swept box covers
(``low``, ``high``: the box swept by the motion, grown by the query's margin). Each segment is
first cut to that span along its own axis (a floor run may be the map's width long: cut to the
motion, the casts' rim tolerances, relative to the grown target's size, stay the motion's),
then cast in closed form: a ball as a ray against the cut segment grown into a capsule
(:func:`~swept._kernels.ray.ray_capsule2`), a box as a ray from its centre against the cut
segment grown by the box's half extents (a box, rounded by ``r``: the target distance).

Returns the first hit in candidate order among the earliest (ties: the first), as
``(t, k, nx, ny, inside)`` with ``k`` its position in ``ids`` (``-1`` and ``t == MISS`` on a
miss). The caller builds the record from that one segment (:mod:`swept.level.tile_queries`),
exactly as its scalar path does.
"""

from __future__ import annotations

import math

import numpy as np

from . import kernel, reader
from .ray import MISS, ray_aabb2_face_x, ray_capsule2
from .sweep import ray_rounded_aabb2

__all__ = ["cast_segments", "swept_ids", "ray_tiles", "closed_contains"]


@kernel
def _cut(a: float, b: float, low: float, high: float) -> tuple[float, float, bool]:
    """The span ``a``..``b`` (either order, kept) cut to ``low``..``high``; False when less
    than a span is left."""
    u0 = max(min(a, b), low)
    u1 = min(max(a, b), high)
    if u0 >= u1:
        return a, b, False
    if a <= b:
        return u0, u1, True
    return u1, u0, True


@reader
def cast_segments(ends: np.ndarray, ids: np.ndarray, ox: float, oy: float, dx: float,
                  dy: float, r: float, hx: float, hy: float, reach: float, box: bool,
                  low_x: float, low_y: float, high_x: float, high_y: float
                  ) -> tuple[float, int, float, float, bool]:
    """The earliest of the candidate segments hit by a ball of radius ``r`` (``box`` False)
    or a box of half extents ``hx``, ``hy`` rounded by ``r`` (``box`` True) from ``o`` along
    the unit ``d`` within ``reach``: ``(t, k, nx, ny, inside)``."""
    best_t = MISS
    best_k = -1
    bnx = bny = 0.0
    binside = False
    limit = reach
    for k in range(ids.shape[0]):
        i = ids[k]
        ax, ay, bx, by = ends[i, 0], ends[i, 1], ends[i, 2], ends[i, 3]
        if ay == by:
            # horizontal: cut along x
            ax, bx, keep = _cut(ax, bx, low_x, high_x)
        else:
            ay, by, keep = _cut(ay, by, low_y, high_y)
        if not keep:
            continue
        if box:
            t, _px, _py, nx, ny, inside = ray_rounded_aabb2(
                ox, oy, dx, dy, min(ax, bx) - hx, min(ay, by) - hy, max(ax, bx) + hx,
                max(ay, by) + hy, r, limit, False)
        else:
            t, _px, _py, nx, ny, inside = ray_capsule2(ox, oy, dx, dy, ax, ay, bx, by, r, limit)
        if t >= 0.0 and (best_k < 0 or t < best_t):
            best_t, best_k, bnx, bny, binside = t, k, nx, ny, inside
            limit = t
            if inside:
                # starts touching: nothing is earlier
                break
    return best_t, best_k, bnx, bny, binside


@kernel
def _cell(v: float, origin: float, size: float, count: int) -> int:
    """The grid index of coordinate ``v`` (cells of ``size`` from ``origin``), clamped to
    ``-2 .. count + 2`` before it becomes an integer (a coordinate of 1e50 over a cell of 1e-3
    is no int64)."""
    g = (v - origin) / size
    g = min(max(g, -2.0), count + 2.0)
    return int(math.floor(g))


@kernel
def swept_ids(start: np.ndarray, ids: np.ndarray, rows: int, cols: int, ox: float, oy: float,
              w: float, h: float, x0: float, y0: float, x1: float, y1: float, mx: float,
              my: float) -> np.ndarray:
    """The segment ids filed under the cells the box ``x0..x1`` x ``y0..y1`` covers while it
    moves by ``(mx, my)``, with a cell of slack each way, each once, ascending. ``start`` and
    ``ids`` are the cell index's CSR table over the grid grown by a cell each side (``rows + 2``
    by ``cols + 2``). Row by row: the part ``s`` of the motion for which the box overlaps the
    row's band, then the columns the box covers over that part (a diagonal motion visits a
    band of cells, not the rectangle around it)."""
    width = cols + 2
    r_lo = max(_cell(min(y0, y0 + my), oy, h, rows) - 1, -1)
    r_hi = min(_cell(max(y1, y1 + my), oy, h, rows) + 1, rows)
    total = 0
    spans = np.empty((max(r_hi - r_lo + 1, 0), 2), np.int64)
    for r in range(r_lo, r_hi + 1):
        spans[r - r_lo, 0] = 0
        spans[r - r_lo, 1] = 0
        band_lo = oy + (r - 1) * h
        band_hi = oy + (r + 2) * h
        s0 = 0.0
        s1 = 1.0
        if my != 0.0:
            a = (band_lo - y1) / my
            b = (band_hi - y0) / my
            s0 = max(s0, min(a, b))
            s1 = min(s1, max(a, b))
        elif y1 < band_lo or y0 > band_hi:
            continue
        if s0 > s1:
            continue
        xa = x0 + min(s0 * mx, s1 * mx)
        xb = x1 + max(s0 * mx, s1 * mx)
        c0 = max(_cell(xa, ox, w, cols) - 1, -1)
        c1 = min(_cell(xb, ox, w, cols) + 1, cols)
        if c0 > c1:
            continue
        base = (r + 1) * width
        lo = start[base + c0 + 1]
        hi = start[base + c1 + 2]
        spans[r - r_lo, 0] = lo
        spans[r - r_lo, 1] = hi
        total += hi - lo
    out = np.empty(total, np.int64)
    n = 0
    for k in range(spans.shape[0]):
        for j in range(spans[k, 0], spans[k, 1]):
            out[n] = ids[j]
            n += 1
    return np.unique(out)


@reader
def closed_contains(solid: np.ndarray, ox: float, oy: float, w: float, h: float, px: float,
                    py: float) -> bool:
    """Whether ``p`` lies in the closed solid region: some solid tile's closed square (its
    corners computed as ``ox + c * w``, ``oy + r * h``) holds it, as a ray or a box counts a
    touch."""
    rows, cols = solid.shape
    gx = math.floor(min(max((px - ox) / w, -2.0), cols + 2.0))
    gy = math.floor(min(max((py - oy) / h, -2.0), rows + 2.0))
    for r in range(max(int(gy) - 1, 0), min(int(gy) + 2, rows)):
        if not oy + r * h <= py <= oy + (r + 1) * h:
            continue
        for c in range(max(int(gx) - 1, 0), min(int(gx) + 2, cols)):
            if solid[r, c] and ox + c * w <= px <= ox + (c + 1) * w:
                return True
    return False


@reader
def ray_tiles(solid: np.ndarray, ox: float, oy: float, w: float, h: float, rox: float,
              roy: float, dx: float, dy: float, max_distance: float
              ) -> tuple[float, int, float, bool]:
    """A ray against every solid tile as a box, walking the grid (Amanatides and Woo's walk in
    grid units) and testing the solid tiles in the 3 x 3 block around each cell it passes
    (every tile a ray through the cell can touch, corners included) with
    :func:`~swept._kernels.ray.ray_aabb2_face_x`: ``(t, face, exit, inside)`` of the nearest
    tile hit (ties: the first tested), ``t == MISS`` on a miss. Rounding in grid units only
    decides which cells are visited; every test is exact. ``face`` indexes the box normals
    ``-x, +x, -y, +y``; a hit on a face flush with a solid neighbour (at the corner two flush
    tiles share) takes the other axis's face against the ray, never the internal edge's.

    ``inside`` (the origin in the closed solid region, :func:`closed_contains`): the ray runs
    unlimited, ``t`` is 0 and ``exit`` is where it leaves the region: the tiles' intervals
    joined where they meet, the walk repeated until the exit stops growing (at most once a
    cell of the grid)."""
    inside = closed_contains(solid, ox, oy, w, h, rox, roy)
    t, face, exit_distance, r, c = _walk(solid, ox, oy, w, h, rox, roy, dx, dy, max_distance,
                                         inside)
    if t < 0.0 or inside:
        return t, face, exit_distance, inside
    # the face's neighbour across it: a solid one makes the face an internal edge
    rows, cols = solid.shape
    rr = r + (-1 if face == 2 else 1 if face == 3 else 0)
    cc = c + (-1 if face == 0 else 1 if face == 1 else 0)
    if 0 <= rr < rows and 0 <= cc < cols and solid[rr, cc]:
        # an x face flush with its neighbour: the y face against the ray, and the reverse
        face = (2 if dy > 0.0 else 3) if face < 2 else (0 if dx > 0.0 else 1)
    return t, face, exit_distance, inside


@kernel
def _walk(solid: np.ndarray, ox: float, oy: float, w: float, h: float, rox: float, roy: float,
          dx: float, dy: float, max_distance: float, inside: bool
          ) -> tuple[float, int, float, int, int]:
    """:func:`ray_tiles`' walk: ``(t, face, exit, r, c)`` with the hit tile's row and column,
    ``inside`` given."""
    rows, cols = solid.shape
    diag = math.hypot(w, h)
    gx = (rox - ox) / w
    gy = (roy - oy) / h
    # ray distance per grid unit along each axis
    ux = dx / w
    uy = dy / h
    t0 = 0.0
    t1 = math.inf if inside else max_distance
    for axis in range(2):
        g = gx if axis == 0 else gy
        u = ux if axis == 0 else uy
        n = cols if axis == 0 else rows
        if u == 0.0:
            if not -1.0 <= g <= n + 1.0:
                return MISS, 0, 0.0, 0, 0
            continue
        a = (-1.0 - g) / u
        b = (n + 1.0 - g) / u
        t0 = max(t0, min(a, b))
        t1 = min(t1, max(a, b))
    if t0 > t1:
        # the ray misses the grid (grown by a cell)
        return MISS, 0, 0.0, 0, 0
    reach = math.inf if inside else max_distance
    best_t = MISS
    best_face = 0
    best_exit = 0.0
    best_r = best_c = 0
    exit_distance = 0.0
    for _pass in range(rows * cols + 1):
        grown = False
        c = int(math.floor(gx + t0 * ux))
        r = int(math.floor(gy + t0 * uy))
        sx = 1 if ux > 0 else -1
        sy = 1 if uy > 0 else -1
        nx = (c + (1 if sx > 0 else 0) - gx) / ux if ux != 0.0 else math.inf
        ny = (r + (1 if sy > 0 else 0) - gy) / uy if uy != 0.0 else math.inf
        t = t0
        for _ in range(rows + cols + 6):
            if not inside and best_t >= 0.0 and t > best_t + 2.0 * diag:
                # every later tile is touched later
                break
            if inside and t > exit_distance + 2.0 * diag:
                # past the solid region's end
                break
            for rr in range(max(r - 1, 0), min(r + 2, rows)):
                for cc in range(max(c - 1, 0), min(c + 2, cols)):
                    if not solid[rr, cc]:
                        continue
                    ht, face, _ins, te = ray_aabb2_face_x(
                        rox, roy, dx, dy, ox + cc * w, oy + rr * h, ox + (cc + 1) * w,
                        oy + (rr + 1) * h, reach)
                    if ht < 0.0:
                        continue
                    if inside:
                        # the region's intervals join where tiles meet: extend the exit
                        if ht <= exit_distance and te > exit_distance:
                            exit_distance = te
                            grown = True
                        continue
                    if best_t < 0.0 or ht < best_t:
                        best_t, best_face, best_exit, best_r, best_c = ht, face, te, rr, cc
            if min(nx, ny) > t1:
                break
            if nx <= ny:
                t = nx
                c += sx
                nx += sx / ux
            else:
                t = ny
                r += sy
                ny += sy / uy
        if not inside or not grown:
            break
    if inside:
        return 0.0, 0, exit_distance, 0, 0
    return best_t, best_face, best_exit, best_r, best_c
