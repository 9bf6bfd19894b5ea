"""Simulation kernels for bodies that are not balls: 2D capsules and convex polygons (boxes
among them) that move without rotating.

A body's shape is a *core* (points, as offsets from the body's position) grown by a radius,
held in its row of ``Bodies.local`` (:mod:`swept._kernels.sim`):

- ``local[i, 0]``: k, the core's points; ``local[i, 1]``: the radius;
- ``local[i, 2 + 2 v]``, ``local[i, 3 + 2 v]``: core point v's offset from the position
  (v < k; a polygon's corners counter-clockwise, y up).

``Bodies.kind`` says which: :data:`BODY_BALL` (the ball kernels of :mod:`swept._kernels.sim`;
``local`` unused), :data:`BODY_CAPSULE` (k = 2) or :data:`BODY_POLYGON` (k >= 3, radius 0).
``Bodies.radius`` is then the radius of the ball around the position that holds the shape:
the pair grid, the collider caches and the boxes that prune candidates read it, as for a ball.

The narrowphase, one formula for every pair of core shapes:

- :func:`core_gap` - the signed gap (negative: the depth) and the unit normal between two cores
  grown by radii: GJK's distance (:func:`~swept._kernels.distance.gjk_distance`) while the
  cores are apart, the normal along their nearest points; the least push over the edge
  normals of both cores (separating axes) once the cores touch or overlap. A segment core's
  axes are its two perpendiculars; two single points that coincide part along +x
  (:data:`~swept.constants.COINCIDENT_NORMAL_2D`).
- :func:`body_gap_row` - a body against collider h: its row read as a core (a circle is one
  point grown by its radius, a segment two points, a box four corners, a polygon its corners);
  a half-plane by the body's deepest core point. A one-way collider counts only when the
  normal faces its solid side. A chain's segment is a plain segment here (no seam rule).
- :func:`body_pair_gap` - two bodies (either may be a ball: a core of one point).
- :func:`body_cast_row` - the first contact of a body's move with collider h: the World's own
  sweep of a convex mover (:func:`swept._kernels.world_sweep.sweep_row`) with the body as the
  mover; only a contact the body moves *into* counts (as the ball's entering cast: a box
  resting on a floor and sliding along it is not stopped), and a one-way collider stops only
  a move against its solid side.
"""

from __future__ import annotations

import math

import numpy as np

from ..constants import (
    COINCIDENT_NORMAL_2D,
    GJK_TOLERANCE,
    RELATIVE_MOTION_TOLERANCE,
    TOUCH_TOLERANCE,
)
from . import callee, kernel
from .distance import GJK_CACHE_SIZE, GJK_FAILED, GJK_OVERLAPPED, gjk_distance
from .ray import HEADING_TOLERANCE, MISS
from .scene import (
    COUNT,
    FIRST,
    FLAG_KINEMATIC,
    FLAGS,
    HI,
    KIND,
    KIND_AABB2,
    KIND_CAPSULE2,
    KIND_CHAIN_SEGMENT,
    KIND_CIRCLE,
    KIND_PLANE2,
    KIND_POLYGON,
    KIND_SEGMENT,
    LO,
    MOTION,
    PARAM_WIDTH,
    Scene,
    one_way_faces,
    one_way_stands,
)
from .sweep import CAST_HIT, CAST_OUT_OF_ITERATIONS, CAST_OVERLAPPED, cast_cores
from .world_sweep import FIX_NORMAL, Movers, sweep_row

__all__ = ["BODY_BALL", "BODY_CAPSULE", "BODY_POLYGON", "body_core", "core_gap",
           "body_gap_row", "body_pair_gap", "body_cast_row", "body_cast_one", "shape_cast_all"]

#: ``Bodies.kind`` of a ball (circle or sphere): the ball kernels answer it.
BODY_BALL = 0
#: ``Bodies.kind`` of a capsule: a core of two points grown by a radius.
BODY_CAPSULE = 1
#: ``Bodies.kind`` of a convex polygon (a box is one): its corners, radius 0.
BODY_POLYGON = 2

_COINCIDENT_X = float(COINCIDENT_NORMAL_2D[0])
_COINCIDENT_Y = float(COINCIDENT_NORMAL_2D[1])


@callee
def body_core(kind: np.ndarray, local: np.ndarray, radius: np.ndarray, i: int, px: float,
              py: float) -> tuple[np.ndarray, float]:
    """Body i's core placed at ``p`` ((k, 2) world points) and its radius (a ball: its
    centre, its radius)."""
    if kind[i] == BODY_BALL:
        core = np.empty((1, 2))
        core[0, 0] = px
        core[0, 1] = py
        return core, radius[i]
    k = int(local[i, 0])
    core = np.empty((k, 2))
    for v in range(k):
        core[v, 0] = px + local[i, 2 + 2 * v]
        core[v, 1] = py + local[i, 3 + 2 * v]
    return core, local[i, 1]


@callee
def _row_core(scene: Scene, h: int) -> tuple[np.ndarray, float]:
    """Collider h's core (points, counter-clockwise for a solid) and radius; an empty core for
    a kind that has none (a half-plane, a removed row)."""
    rows = scene.rows
    k = scene.tags[h, KIND]
    if k == KIND_CIRCLE:
        core = np.empty((1, 2))
        core[0, 0] = rows[h, 0]
        core[0, 1] = rows[h, 1]
        return core, rows[h, 2]
    if k in (KIND_SEGMENT, KIND_CHAIN_SEGMENT, KIND_CAPSULE2):
        core = np.empty((2, 2))
        core[0, 0] = rows[h, 0]
        core[0, 1] = rows[h, 1]
        core[1, 0] = rows[h, 2]
        core[1, 1] = rows[h, 3]
        return core, (rows[h, 4] if k == KIND_CAPSULE2 else 0.0)
    if k == KIND_AABB2:
        lx, ly, hx, hy = rows[h, 0], rows[h, 1], rows[h, 2], rows[h, 3]
        core = np.empty((4, 2))
        core[0, 0], core[0, 1], core[1, 0], core[1, 1] = lx, ly, hx, ly
        core[2, 0], core[2, 1], core[3, 0], core[3, 1] = hx, hy, lx, hy
        return core, 0.0
    if k == KIND_POLYGON:
        s = scene.tags[h, FIRST]
        n = scene.tags[h, COUNT]
        return scene.pool[s:s + n].copy(), 0.0
    return np.empty((0, 2)), 0.0


@callee
def _push(a: np.ndarray, b: np.ndarray, mx: float, my: float) -> float:
    """How far core a must move along unit m to leave core b's extent on that axis."""
    top = -math.inf
    for v in range(b.shape[0]):
        top = max(top, b[v, 0] * mx + b[v, 1] * my)
    low = math.inf
    for v in range(a.shape[0]):
        low = min(low, a[v, 0] * mx + a[v, 1] * my)
    return top - low


@callee
def core_gap(a: np.ndarray, ra: float, b: np.ndarray, rb: float
             ) -> tuple[float, float, float, float, float]:
    """Core a grown by ra against core b grown by rb: ``(gap, nx, ny, px, py)``, the signed
    gap (negative: the depth), the unit normal out of b toward a and a point on b's surface
    where a comes nearest (or reaches deepest). See the module docstring."""
    cache = np.zeros(GJK_CACHE_SIZE, np.int64)
    d, ax, ay, _az, bx, by, _bz, _it, status = gjk_distance(a, b, cache)
    if status == GJK_FAILED:
        # an empty core: nothing to meet
        return math.inf, 0.0, 0.0, 0.0, 0.0
    best, bnx, bny = _least_push(a, b)
    if status != GJK_OVERLAPPED and d > 0.0:
        # GJK's distance is within its tolerance, and the rounding of the coordinates
        slack = GJK_TOLERANCE * d + TOUCH_TOLERANCE * max(_magnitude(a), _magnitude(b))
        if -best >= d - slack:
            # apart across a face: that face's normal, exactly (GJK's nearest points on a
            # long face tilt the line between them by the face's rounding over the gap)
            return _deep_point(a, ra, best + ra + rb, bnx, bny)
        # cores apart: along the line between their nearest points
        nx = (ax - bx) / d
        ny = (ay - by) / d
        return d - ra - rb, nx, ny, bx + nx * rb, by + ny * rb
    if best == math.inf:
        # two single points that coincide
        best = 0.0
    # cores touching or overlapping: the least push
    return _deep_point(a, ra, best + ra + rb, bnx, bny)


@callee
def _lowest(core: np.ndarray, nx: float, ny: float) -> tuple[float, float, float]:
    """A core's point furthest along -n (the first of ties): ``(n . q, qx, qy)``."""
    low = math.inf
    qx = core[0, 0]
    qy = core[0, 1]
    for v in range(core.shape[0]):
        s = core[v, 0] * nx + core[v, 1] * ny
        if s < low:
            low = s
            qx = core[v, 0]
            qy = core[v, 1]
    return low, qx, qy


@callee
def _magnitude(c: np.ndarray) -> float:
    """The largest coordinate of a core, in size."""
    m = 0.0
    for v in range(c.shape[0]):
        m = max(m, abs(c[v, 0]), abs(c[v, 1]))
    return m


@callee
def _deep_point(a: np.ndarray, ra: float, depth: float, nx: float, ny: float
                ) -> tuple[float, float, float, float, float]:
    """``(-depth, nx, ny, qx, qy)``: the gap, the normal, and q, core a's point furthest along
    -n moved onto the other shape's surface (``depth - ra`` along n; depth < 0: apart)."""
    _low, qx, qy = _lowest(a, nx, ny)
    shift = depth - ra
    return -depth, nx, ny, qx + nx * shift, qy + ny * shift


@callee
def _least_push(a: np.ndarray, b: np.ndarray) -> tuple[float, float, float]:
    """The least push of core a out of core b over the edge normals of both (separating
    axes): ``(push, mx, my)``, push < 0 when they are apart along that axis by -push; +inf
    (and :data:`~swept.constants.COINCIDENT_NORMAL_2D`) when neither has an edge."""
    best = math.inf
    bnx = _COINCIDENT_X
    bny = _COINCIDENT_Y
    for side in range(2):
        c = b if side == 0 else a
        k = c.shape[0]
        if k < 2:
            # a point has no edge
            continue
        # a segment has one edge, seen from both sides; a polygon k outward edges
        edges = k if k >= 3 else 1
        for e in range(edges):
            ex = c[(e + 1) % k, 0] - c[e, 0]
            ey = c[(e + 1) % k, 1] - c[e, 1]
            length = math.hypot(ex, ey)
            if length == 0.0:
                # a repeated point: no edge
                continue
            # outward for a counter-clockwise polygon; a's own edges push it inward
            ox = ey / length
            oy = -ex / length
            if side == 1:
                ox = -ox
                oy = -oy
            for turn in range(2 if k == 2 else 1):
                mx = ox if turn == 0 else -ox
                my = oy if turn == 0 else -oy
                push = _push(a, b, mx, my)
                if push < best:
                    best = push
                    bnx = mx
                    bny = my
    return best, bnx, bny


@callee
def body_gap_row(scene: Scene, h: int, kind: np.ndarray, local: np.ndarray,
                 radius: np.ndarray, i: int, px: float, py: float, beyond: float
                 ) -> tuple[float, float, float, float, float, float]:
    """Gap and unit normal (out of collider h toward the body) of body i at p: ``(gap, nx, ny,
    nz, qx, qy)`` with q on the collider's surface; a gap over ``beyond`` (or a one-way
    collider whose solid side the normal does not face) is reported as +inf."""
    rows = scene.rows
    # the collider's box beyond the ball that holds the body, grown by ``beyond``: apart
    # (a half-plane's box is unbounded)
    ox = max(rows[h, LO] - px, px - rows[h, HI], 0.0)
    oy = max(rows[h, LO + 1] - py, py - rows[h, HI + 1], 0.0)
    reach = radius[i] + beyond
    if ox * ox + oy * oy > reach * reach:
        return math.inf, 0.0, 0.0, 0.0, 0.0, 0.0
    core, r = body_core(kind, local, radius, i, px, py)
    if scene.tags[h, KIND] == KIND_PLANE2:
        # a half-plane: the deepest core point
        nx = rows[h, 0]
        ny = rows[h, 1]
        low, qx, qy = _lowest(core, nx, ny)
        gap = low - rows[h, 2] - r
        fx = qx - nx * (gap + r)
        fy = qy - ny * (gap + r)
    else:
        other, ro = _row_core(scene, h)
        if other.shape[0] == 0:
            return math.inf, 0.0, 0.0, 0.0, 0.0, 0.0
        gap, nx, ny, fx, fy = core_gap(core, r, other, ro)
    if gap > beyond or not one_way_faces(scene, h, nx, ny, 0.0):
        return math.inf, 0.0, 0.0, 0.0, 0.0, 0.0
    return gap, nx, ny, 0.0, fx, fy


@callee
def body_pair_gap(kind: np.ndarray, local: np.ndarray, radius: np.ndarray, i: int, pix: float,
                  piy: float, j: int, pjx: float, pjy: float
                  ) -> tuple[float, float, float, float, float, float]:
    """Bodies i at ``pi`` and j at ``pj``: ``(gap, nx, ny, nz, qx, qy)``, the signed gap
    (negative: the depth), the unit normal from j toward i and the point of j's surface
    nearest i (or reached deepest)."""
    a, ra = body_core(kind, local, radius, i, pix, piy)
    b, rb = body_core(kind, local, radius, j, pjx, pjy)
    gap, nx, ny, qx, qy = core_gap(a, ra, b, rb)
    return gap, nx, ny, 0.0, qx, qy


@kernel
def _mover(kind: np.ndarray, local: np.ndarray, radius: np.ndarray, i: int, px: float,
           py: float) -> Movers:
    """Body i at p as a one-row table of movers (:class:`~swept._kernels.world_sweep.Movers`)."""
    core, r = body_core(kind, local, radius, i, px, py)
    k = core.shape[0]
    kinds = np.full(1, KIND_CAPSULE2 if kind[i] == BODY_CAPSULE else KIND_POLYGON, np.int64)
    if kind[i] == BODY_BALL:
        kinds[0] = KIND_CIRCLE
    params = np.zeros((1, PARAM_WIDTH))
    if k == 2:
        params[0, 0] = core[0, 0]
        params[0, 1] = core[0, 1]
        params[0, 2] = core[1, 0]
        params[0, 3] = core[1, 1]
        params[0, 4] = r
    spans = np.zeros((1, 2), np.int64)
    spans[0, 1] = k
    normals = np.zeros((k, 2))
    if k >= 3:
        for e in range(k):
            ex = core[(e + 1) % k, 0] - core[e, 0]
            ey = core[(e + 1) % k, 1] - core[e, 1]
            length = math.hypot(ex, ey)
            if length > 0.0:
                # (an edge shorter than the rounding of far coordinates keeps a zero normal)
                normals[e, 0] = ey / length
                normals[e, 1] = -ex / length
    boxes = np.zeros((1, 6))
    for v in range(k):
        for a in range(2):
            boxes[0, a] = core[v, a] - r if v == 0 else min(boxes[0, a], core[v, a] - r)
            boxes[0, 3 + a] = core[v, a] + r if v == 0 else max(boxes[0, 3 + a], core[v, a] + r)
    return Movers(kinds, params, spans, core, normals, np.full(1, r), boxes)


@callee
def body_cast_row(scene: Scene, h: int, kind: np.ndarray, local: np.ndarray,
                  radius: np.ndarray, i: int, movers: Movers, px: float, py: float, dx: float,
                  dy: float, length: float,
                  scratch: tuple[np.ndarray, np.ndarray, np.ndarray, np.ndarray]
                  ) -> tuple[float, float, float, float, float, float]:
    """Where body i (``movers``: it placed at p) moving along unit d first heads into
    collider h within ``length``: ``(t, nx, ny, nz, qx, qy)`` (t a distance along d, q the
    point of touch), t = MISS for none (module docstring)."""
    # whether the cores overlap at the start with no separating normal
    overlapped = False
    if scene.tags[h, KIND] == KIND_CHAIN_SEGMENT:
        # a chain's segment, as a plain segment: the sweep's own cast of two cores
        rows = scene.rows
        seg = np.empty((2, 2))
        seg[0, 0], seg[0, 1], seg[1, 0], seg[1, 1] = rows[h, 0], rows[h, 1], rows[h, 2], rows[h, 3]
        status, f, nx, ny, _nz, qx, qy, _qz, _it = cast_cores(
            movers.cores, movers.radii[0], seg, 0.0, dx * length, dy * length, 0.0, 0.0, 1.0)
        if status == CAST_OVERLAPPED:
            f = 0.0
            overlapped = nx == 0.0 and ny == 0.0
        elif status not in (CAST_HIT, CAST_OUT_OF_ITERATIONS):
            return MISS, 0.0, 0.0, 0.0, 0.0, 0.0
    else:
        f, qx, qy, _qz, nx, ny, _nz, _inside, fix = sweep_row(
            scene, h, movers, 0, (dx * length, dy * length, 0.0), length, 0.0, scratch)
        if f < 0.0:
            return MISS, 0.0, 0.0, 0.0, 0.0, 0.0
        overlapped = fix == FIX_NORMAL
    if overlapped:
        # the cores overlap at the start: the normal of the shortest way out
        gap, nx, ny, _nz, qx, qy = body_gap_row(scene, h, kind, local, radius, i, px, py,
                                                math.inf)
        if gap == math.inf:
            return MISS, 0.0, 0.0, 0.0, 0.0, 0.0
        f = 0.0
    if f == 0.0 and dx * nx + dy * ny >= -HEADING_TOLERANCE:
        # touching at the start and moving along or out of it: not stopped
        return MISS, 0.0, 0.0, 0.0, 0.0, 0.0
    if not one_way_stands(scene, h, dx, dy, 0.0, nx, ny, 0.0):
        # a one-way collider passed from below or sideways
        return MISS, 0.0, 0.0, 0.0, 0.0, 0.0
    return f * length, nx, ny, 0.0, qx, qy


@callee
def shape_cast_all(scene: Scene, kind: np.ndarray, local: np.ndarray, radius: np.ndarray,
                   i: int, px: float, py: float, dx: float, dy: float, length: float,
                   lag: float, cache: np.ndarray, spare: np.ndarray, cached: bool, count: int
                   ) -> tuple[float, float, float, float, int, float, float]:
    """The first entering contact of body i moving from p along unit d for ``length`` among
    its candidates (``cache[i, :count]`` when ``cached``, else ``spare[0, :count]``):
    ``(fraction of the move, nx, ny, nz, handle, qx, qy)``, handle -1 for none (ties: the
    smallest handle). A moving collider (``FLAG_KINEMATIC``), with ``lag`` of its step's
    motion still ahead, is met in relative motion, as :func:`~swept._kernels.sim.
    relative_move` makes it for a ball: the body's move less the collider's, from the body's
    place moved by the motion ahead, against the collider's row (where it ends the step); a
    body at rest (``length`` 0) meets only moving colliders."""
    movers = _mover(kind, local, radius, i, px, py)
    scratch = (np.empty((2, 2)), np.empty((4, 2)), np.empty((8, 3)), np.empty((2, 3)))
    rows = scene.rows
    r = radius[i]
    x0 = min(px, px + dx * length) - r
    x1 = max(px, px + dx * length) + r
    y0 = min(py, py + dy * length) - r
    y1 = max(py, py + dy * length) + r
    best_t = math.inf
    best_h = -1
    bnx = bny = bqx = bqy = 0.0
    for c in range(count):
        h = cache[i, c] if cached else spare[0, c]
        if (rows[h, LO] > x1 or rows[h, LO + 3] < x0 or rows[h, LO + 1] > y1
                or rows[h, LO + 4] < y0):
            # the swept box misses the collider's box (a plane's never does; a moving
            # collider's covers where it starts the step)
            continue
        if (scene.tags[h, FLAGS] & FLAG_KINEMATIC) != 0:
            # a moving collider: the body's move relative to it, from where the body is
            # when the collider has made the motion ahead
            ax = lag * rows[h, MOTION]
            ay = lag * rows[h, MOTION + 1]
            rx = dx * length - ax
            ry = dy * length - ay
            rel = math.hypot(rx, ry)
            scale = abs(dx * length) + abs(dy * length) + abs(ax) + abs(ay) + abs(px) + abs(py)
            if rel <= RELATIVE_MOTION_TOLERANCE * scale:
                # moving with the collider (to rounding): never enters it
                continue
            shifted = _mover(kind, local, radius, i, px + ax, py + ay)
            t, nx, ny, _nz, qx, qy = body_cast_row(scene, h, kind, local, radius, i, shifted,
                                                   px + ax, py + ay, rx / rel, ry / rel, rel,
                                                   scratch)
            if t < 0.0:
                continue
            t = min(t / rel, 1.0)
            # the touch where the collider is at that moment, not where it ends the step
            qx -= (1.0 - t) * ax
            qy -= (1.0 - t) * ay
        elif length > 0.0:
            t, nx, ny, _nz, qx, qy = body_cast_row(scene, h, kind, local, radius, i, movers, px,
                                                   py, dx, dy, length, scratch)
            if t < 0.0:
                continue
            t = min(t / length, 1.0)
        else:
            # at rest: a still collider is never entered
            continue
        if t < best_t or (t == best_t and h < best_h):
            best_t = t
            best_h = h
            bnx = nx
            bny = ny
            bqx = qx
            bqy = qy
    return best_t, bnx, bny, 0.0, best_h, bqx, bqy


@callee
def body_cast_one(scene: Scene, h: int, kind: np.ndarray, local: np.ndarray,
                  radius: np.ndarray, i: int, px: float, py: float, dx: float, dy: float,
                  length: float) -> tuple[float, float, float, float, float, float]:
    """:func:`body_cast_row` for one collider, its mover and scratch made here."""
    movers = _mover(kind, local, radius, i, px, py)
    scratch = (np.empty((2, 2)), np.empty((4, 2)), np.empty((8, 3)), np.empty((2, 3)))
    return body_cast_row(scene, h, kind, local, radius, i, movers, px, py, dx, dy, length,
                         scratch)
