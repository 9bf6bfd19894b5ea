"""Chains in the collider table: the Voronoi-region rule and the narrowphase on a chain.

A chain's points sit in the scene's pool (``count`` rows from ``first``); segment ``i`` runs
from point ``i`` to point ``i + 1`` (for a loop, the last runs back to point 0). The region
rule (:func:`region_normal`) is :meth:`swept.chain.Chain.region_normal` in compiled form,
the same arithmetic in the same order; the row functions answer as :mod:`swept.chain`
answers for one segment of the chain (``*_segment``) or for the whole chain (``*_chain``:
every segment, for a chain the broadphase holds as one primitive).

These are real calls (:func:`~swept._kernels.kernel`), not inlined: the traversal loops that
call the row narrowphase stay as small as they were.
"""

from __future__ import annotations

import math

import numpy as np

from ..constants import EDGE_ON_TOLERANCE, FACE_NORMAL_TOLERANCE, JOIN_FLAT_TOLERANCE
from . import callee, kernel
from .contact import contact_circle_capsule
from .geom import closest_on_segment2
from .ray import MISS, ray_capsule2, ray_segment


@callee
def segment_count(count: int, loop: bool) -> int:
    """How many segments a chain of ``count`` points has."""
    return count if loop else count - 1


@callee
def segment_ends(pool: np.ndarray, first: int, count: int, i: int
                 ) -> tuple[float, float, float, float]:
    """Segment ``i``'s ends ``(ax, ay, bx, by)`` (the last of a loop runs back to point 0)."""
    j = i + 1 if i + 1 < count else 0
    return pool[first + i, 0], pool[first + i, 1], pool[first + j, 0], pool[first + j, 1]


@callee
def _left(ax: float, ay: float, bx: float, by: float) -> tuple[float, float]:
    """The segment's left unit normal: ``(b - a).normalized().perp()`` as Vec2 computes it."""
    ex = bx - ax
    ey = by - ay
    n = math.hypot(ex, ey)
    return -(ey / n), ex / n


@kernel
def region_normal(pool: np.ndarray, first: int, count: int, loop: bool, i: int, nx: float,
                  ny: float, tx: float, ty: float, has_toward: bool
                  ) -> tuple[float, float, bool, float, float]:
    """``(nx, ny)`` reported by segment ``i`` moved into the segment's Voronoi region:
    ``(nx, ny, turned, vx, vy)``, ``turned`` True when it was replaced at the join ``v``.
    ``t`` is the other shape's reference point (read when ``has_toward``), which picks the
    side of an edge-on normal. :meth:`swept.chain.Chain.region_normal`, step for step."""
    nseg = segment_count(count, loop)
    ax, ay, bx, by = segment_ends(pool, first, count, i)
    ex = bx - ax
    ey = by - ay
    length = math.hypot(ex, ey)
    dx = ex / length
    dy = ey / length
    lx = -dy
    ly = dx
    side = nx * lx + ny * ly
    if abs(side) <= EDGE_ON_TOLERANCE:
        # a normal straight along the segment, from its end: the other shape's side
        side = 1.0
        if has_toward and (tx - ax) * lx + (ty - ay) * ly < 0.0:
            side = -1.0
    fx = lx if side > 0.0 else -lx
    fy = ly if side > 0.0 else -ly
    if nx * fx + ny * fy >= 1.0 - FACE_NORMAL_TOLERANCE:
        # face contact
        return nx, ny, False, 0.0, 0.0
    forward = nx * dx + ny * dy > 0.0
    j = i + 1 if forward else i - 1
    if loop:
        j = j % nseg
    elif j < 0 or j >= nseg:
        # a free end of an open chain: rounded, like a lone segment
        return nx, ny, False, 0.0, 0.0
    jax, jay, jbx, jby = segment_ends(pool, first, count, j)
    vx = bx if forward else ax
    vy = by if forward else ay
    far_x = jbx if forward else jax
    far_y = jby if forward else jay
    length_j = math.hypot(jax - jbx, jay - jby)
    bend = (far_x - vx) * fx + (far_y - vy) * fy
    jlx, jly = _left(jax, jay, jbx, jby)
    gx = jlx if side > 0.0 else -jlx
    gy = jly if side > 0.0 else -jly
    if bend < -JOIN_FLAT_TOLERANCE * length_j:
        # convex join: the fan between the two face normals is this vertex's region
        turn = fx * gy - fy * gx
        if (fx * ny - fy * nx) * turn >= 0.0 and (nx * gy - ny * gx) * turn >= 0.0:
            return nx, ny, False, 0.0, 0.0
        if nx * fx + ny * fy >= nx * gx + ny * gy:
            return fx, fy, True, vx, vy
        return gx, gy, True, vx, vy
    # flat seam or concave corner: no region of its own, the face answers
    return fx, fy, True, vx, vy


@callee
def cast_segment(pool: np.ndarray, first: int, count: int, loop: bool, i: int, ox: float,
                 oy: float, dx: float, dy: float, r: float, tmax: float, grown: bool
                 ) -> tuple[float, float, float, float, float, bool]:
    """A ray (``grown`` False: the segment, as ``raycast(ray, chain)`` tests it) or a ball of
    radius ``r`` from ``o`` (``grown``: a capsule, its normal moved into the segment's region,
    as ``sweep(ball, d, chain)``) at segment ``i``: ``(t, px, py, nx, ny, inside)``, ``t ==
    MISS`` on a miss. For a ball hit from outside, ``p`` is where it touches the segment
    (the centre at ``t`` less the capsule's own normal times ``r``: the region rule keeps the
    point)."""
    ax, ay, bx, by = segment_ends(pool, first, count, i)
    if not grown:
        return ray_segment(ox, oy, dx, dy, ax, ay, bx, by, tmax)
    t, px, py, nx, ny, inside = ray_capsule2(ox, oy, dx, dy, ax, ay, bx, by, r, tmax)
    if t < 0.0:
        return t, px, py, nx, ny, inside
    if inside:
        # the shortest way out as contact() gives it, as the scalar sweep takes it (on the
        # core itself ray_capsule2 picks the other side)
        hit, cnx, cny, _depth, _cpx, _cpy = contact_circle_capsule(ox, oy, r, ax, ay, bx, by,
                                                                    0.0)
        if hit:
            nx, ny = cnx, cny
    else:
        px = ox + t * dx - nx * r
        py = oy + t * dy - ny * r
    rx, ry, _turned, _vx, _vy = region_normal(pool, first, count, loop, i, nx, ny, ox, oy,
                                              True)
    return t, px, py, rx, ry, inside


@callee
def contact_segment(pool: np.ndarray, first: int, count: int, loop: bool, i: int, cx: float,
                    cy: float, r: float) -> tuple[bool, float, float, float, float, float]:
    """How to move a ball out of segment ``i``: ``(hit, nx, ny, depth, px, py)`` as
    :func:`swept.chain.chain_contacts` gives it (the region normal; a turned normal's depth
    measured against the face line through the join, never more)."""
    ax, ay, bx, by = segment_ends(pool, first, count, i)
    hit, nx, ny, depth, px, py = contact_circle_capsule(cx, cy, r, ax, ay, bx, by, 0.0)
    if not hit:
        return hit, nx, ny, depth, px, py
    rx, ry, turned, vx, vy = region_normal(pool, first, count, loop, i, nx, ny, cx, cy, True)
    if turned:
        # the ball's lowest point along the new normal, against the line through the join
        lowest = (cx * rx + cy * ry) - r
        depth = min(depth, max(0.0, (vx * rx + vy * ry) - lowest))
    return hit, rx, ry, depth, px, py


@callee
def cast_chain(pool: np.ndarray, first: int, count: int, loop: bool, ox: float, oy: float,
               dx: float, dy: float, r: float, tmax: float, grown: bool
               ) -> tuple[float, float, float, float, float, bool]:
    """:func:`cast_segment` on every segment: the nearest hit (ties: the first segment)."""
    best_t = MISS
    bpx = bpy = bnx = bny = 0.0
    binside = False
    limit = tmax
    for i in range(segment_count(count, loop)):
        t, px, py, nx, ny, inside = cast_segment(pool, first, count, loop, i, ox, oy, dx, dy,
                                                 r, limit, grown)
        if t >= 0.0 and (best_t < 0.0 or t < best_t):
            best_t, bpx, bpy, bnx, bny, binside = t, px, py, nx, ny, inside
            limit = t
    return best_t, bpx, bpy, bnx, bny, binside


@kernel
def contact_chain(pool: np.ndarray, first: int, count: int, loop: bool, cx: float, cy: float,
                  r: float) -> tuple[bool, float, float, float, float, float]:
    """:func:`contact_segment` on every segment: the deepest (ties: the first segment)."""
    found = False
    bnx = bny = bdepth = bpx = bpy = 0.0
    for i in range(segment_count(count, loop)):
        hit, nx, ny, depth, px, py = contact_segment(pool, first, count, loop, i, cx, cy, r)
        if hit and (not found or depth > bdepth):
            found = True
            bnx, bny, bdepth, bpx, bpy = nx, ny, depth, px, py
    return found, bnx, bny, bdepth, bpx, bpy


@callee
def closest_chain(pool: np.ndarray, first: int, count: int, loop: bool, qx: float, qy: float
                  ) -> tuple[float, float]:
    """The point of the chain nearest ``q`` (ties: the first segment)."""
    best_d = math.inf
    bx = by = 0.0
    for i in range(segment_count(count, loop)):
        ax, ay, ex, ey = segment_ends(pool, first, count, i)
        x, y, _t = closest_on_segment2(qx, qy, ax, ay, ex, ey)
        d = math.hypot(x - qx, y - qy)
        if d < best_d:
            best_d, bx, by = d, x, y
    return bx, by
