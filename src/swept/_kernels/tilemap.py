"""Tile-map kernels: a ray walking the grid (:func:`ray_tiles`), the cells a moving box
covers (:func:`swept_ids`), and a moving ball or box cast against the outline segments filed
there (:func:`sweep_segments`).

The outline segments are axis-aligned rows of ``ends`` (``ax, ay, bx, by``), filed by cell.
A sweep reads the segments filed under the cells its box covers on the way and the span along
each axis its swept box covers (the box swept by the motion, grown by
the query's margin). Each segment is first cut to that span along its own axis (a floor run
may be the map's width long: cut to the motion, the casts' rim tolerances, relative to the
grown target's size, stay the motion's), then cast in closed form: a ball as a ray against the
cut segment grown into a capsule (:func:`~swept._kernels.ray.ray_capsule2`), a box as a ray
from its centre against the cut segment grown by the box's half extents (a box, rounded by
``r``: the target distance). The earliest wins, ties to the smallest segment id; the caller
builds the record from that one segment (:mod:`swept.level.tile_queries`).
"""

from __future__ import annotations

import math

import numpy as np

from ..constants import REACH_ROUNDING
from . import callee, kernel, reader
from .geom import closest_on_segment2
from .order import stable_order
from .ray import MISS, ray_aabb2_face_x, ray_capsule2
from .sweep import ray_rounded_aabb2

__all__ = ["swept_ids", "sweep_segments", "ray_tiles", "closed_contains"]


@callee
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


@callee
def _cell(v: float, origin: float, size: float, count: int) -> int:
    """The grid index of coordinate ``v`` (cells of ``size`` from ``origin``), clamped to
    ``-2 .. count + 2`` before it becomes an integer (a coordinate of 1e50 over a cell of 1e-3
    is no int64)."""
    g = (v - origin) / size
    g = min(max(g, -2.0), count + 2.0)
    return int(math.floor(g))


@callee
def _swept_spans(start: np.ndarray, rows: int, cols: int, ox: float, oy: float, w: float,
                 h: float, x0: float, y0: float, x1: float, y1: float, mx: float, my: float
                 ) -> tuple[np.ndarray, int]:
    """The runs of the cell index's ``ids`` (``spans[k] = (lo, hi)``, one a grid row) filed
    under the cells the box ``x0..x1`` x ``y0..y1`` covers while it moves by ``(mx, my)``,
    with a cell of slack each way, and how many ids they hold (a segment filed under several
    of the cells is in several runs). Row by row: the part ``s`` of the motion for which the
    box overlaps the row's band, then the columns the box covers over that part (a diagonal
    motion visits a band of cells, not the rectangle around it)."""
    width = cols + 2
    r_lo = max(_cell(min(y0, y0 + my), oy, h, rows) - 1, -1)
    r_hi = min(_cell(max(y1, y1 + my), oy, h, rows) + 1, rows)
    total = 0
    spans = np.zeros((max(r_hi - r_lo + 1, 0), 2), np.int64)
    for r in range(r_lo, r_hi + 1):
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
        spans[r - r_lo, 0] = start[base + c0 + 1]
        spans[r - r_lo, 1] = start[base + c1 + 2]
        total += spans[r - r_lo, 1] - spans[r - r_lo, 0]
    return spans, total


@kernel
def swept_ids(start: np.ndarray, ids: np.ndarray, rows: int, cols: int, ox: float, oy: float,
              w: float, h: float, x0: float, y0: float, x1: float, y1: float, mx: float,
              my: float) -> np.ndarray:
    """The segment ids filed under the cells the box ``x0..x1`` x ``y0..y1`` covers while it
    moves by ``(mx, my)`` (:func:`_swept_spans`), each once, ascending. ``start`` and ``ids``
    are the cell index's CSR table over the grid grown by a cell each side (``rows + 2`` by
    ``cols + 2``)."""
    spans, total = _swept_spans(start, rows, cols, ox, oy, w, h, x0, y0, x1, y1, mx, my)
    out = np.empty(total, np.int64)
    n = 0
    for k in range(spans.shape[0]):
        for j in range(spans[k, 0], spans[k, 1]):
            out[n] = ids[j]
            n += 1
    # each once, ascending (by a sort of loops: np.unique compiled numba's quick sort here)
    order = stable_order(out, n)
    found = np.empty(n, np.int64)
    kept = 0
    for k in range(n):
        v = out[order[k]]
        if kept == 0 or v != found[kept - 1]:
            found[kept] = v
            kept += 1
    return found[:kept]


@reader
def sweep_segments(start: np.ndarray, ids: np.ndarray, ends: np.ndarray, frame: np.ndarray,
                   lox: float, loy: float, hix: float, hiy: float, margin: float, mx: float,
                   my: float, px: float, py: float, r: float, hx: float, hy: float, mf: float,
                   box: bool) -> tuple[float, int, float, float, float, float, bool]:
    """A ball (``box`` False: centre ``p``, radius ``r``) or a box (``box`` True: centre ``p``,
    half extents ``hx``, ``hy``, rounded by ``r``) whose box is ``lo..hi``, moved by ``m``
    (up to ``mf`` of it), against the outline segments near its path (the cells the box grown
    by ``margin`` covers on the way), each cut to that span and cast by the module
    docstring's rule: ``(fraction, id, nx, ny, qx, qy, inside)`` of the earliest (ties: the
    smallest id), with ``q`` where it
    touches the cut
    segment; ``id == -1`` on a miss. Every candidate is cast over the whole reach.

    ``start``, ``ids``, ``ends``: the map's cell index (:mod:`swept.level.tile_queries`);
    ``frame`` (6,): ``ox, oy, w, h, rows, cols``. (Loose arrays, not a NamedTuple of them:
    numba's dispatcher types a tuple argument in Python, and the call took 9.5 us instead of
    about 3, measured.)"""
    ox, oy, w, h = frame[0], frame[1], frame[2], frame[3]
    rows = int(frame[4])
    cols = int(frame[5])
    # each candidate once: a segment is filed under every cell along it and on both its sides
    # (about twice as many entries as segments near a ball's path, measured)
    found = swept_ids(start, ids, rows, cols, ox, oy, w, h, lox - margin, loy - margin,
                      hix + margin, hiy + margin, mx, my)
    length = math.hypot(mx, my)
    dx = mx / length if length > 0.0 else 1.0
    dy = my / length if length > 0.0 else 0.0
    # a touch exactly at the motion's end is a hit (the unit direction rounds its distance)
    reach = length * mf * (1.0 + REACH_ROUNDING)
    low_x = min(lox, lox + mx) - margin
    low_y = min(loy, loy + my) - margin
    high_x = max(hix, hix + mx) + margin
    high_y = max(hiy, hiy + my) + margin
    best_t = MISS
    best = -1
    bnx = bny = 0.0
    binside = False
    bax = bay = bbx = bby = 0.0
    for q in range(found.shape[0]):
        i = found[q]
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
                px, py, dx, dy, min(ax, bx) - hx, min(ay, by) - hy, max(ax, bx) + hx,
                max(ay, by) + hy, r, reach, False)
        else:
            t, _px, _py, nx, ny, inside = ray_capsule2(px, py, dx, dy, ax, ay, bx, by, r,
                                                       reach)
        if t >= 0.0 and (best < 0 or t < best_t):
            # (ascending ids: a tie keeps the smaller)
            best_t, best, bnx, bny, binside = t, i, nx, ny, inside
            bax, bay, bbx, bby = ax, ay, bx, by
    if best < 0:
        return MISS, -1, 0.0, 0.0, 0.0, 0.0, False
    if binside:
        x, y, _s = closest_on_segment2(px, py, bax, bay, bbx, bby)
        return 0.0, best, bnx + 0.0, bny + 0.0, x, y, True
    fraction = min(best_t / length, mf) if length > 0.0 else 0.0
    # the mover's point deepest toward the segment (least along the normal): a ball's centre,
    # a box's corner or side
    cx = px
    cy = py
    if box:
        cx = lox if bnx > 0.0 else (hix if bnx < 0.0 else px)
        cy = loy if bny > 0.0 else (hiy if bny < 0.0 else py)
    # at the moment of contact, less the rounding: where it touches the segment
    x, y, _s = closest_on_segment2(cx + mx * fraction - bnx * r, cy + my * fraction - bny * r,
                                   bax, bay, bbx, bby)
    return fraction, best, bnx + 0.0, bny + 0.0, x, y, False


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


@callee
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
