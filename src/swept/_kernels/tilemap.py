"""Tile-map kernels: a moving ball or box cast against a tile map's outline segments.

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

import numpy as np

from . import kernel, reader
from .ray import MISS, ray_capsule2
from .sweep import ray_rounded_aabb2

__all__ = ["cast_segments"]


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
