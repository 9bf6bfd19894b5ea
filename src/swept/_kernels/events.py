"""Contact events kernels: the touches of a step as sorted keys per body, and the difference
between two steps' touches (what began, what ended).

A step's *touches* are a CSR table by body: body i's are ``first[i] .. first[i+1]-1``, each a
key ``other`` (a body index j > i, or ``-1 - h`` for collider h; for sensors, the sensor's
handle) and a data row ``(normal xyz, point xyz, approach)``: the normal out of the other side
toward body i, the point where they touch, and the approach speed (>= 0). Each body's keys are
sorted and distinct, so two steps compare by one merge per body (:func:`diff_touches`), with no
hashing and no Python objects: the cost is the touches' count.

A body touches (:func:`contact_touches`):

- every collider its swept move hit in the step (the move's log, :func:`swept._kernels.sim.
  log_hit`): a fast ball that hits a wall and bounces clear within one step touched it;
- every collider and every body (of a higher index, in each other's masks) it is apart from by
  at most :data:`~swept.constants.EVENT_TOUCH_FRACTION` of the radii's sum at the step's end
  (a collider counts the ball's radius twice): resting, sliding, pushed out, stopped.

A body overlaps a sensor (:func:`sensor_touches`) when at the step's end it touches or overlaps
it, or when its move (start to end, straight) entered it within the step.

Degenerate cases, decided here: a sleeping body keeps its touches (it has not moved, so the
end check finds them again); a removed collider is no longer found (its touch ends); the point
of a collider touch at the step's end is the collider's point nearest the ball's centre, of a
body pair the middle of the gap along the normal; coincident centres take
:func:`~swept._kernels.sim.pair_normal`'s +x.
"""

from __future__ import annotations

import numpy as np

from ..constants import EVENT_TOUCH_FRACTION, SEGMENT_CULL_TOLERANCE
from . import inline_kernel, kernel
from .bvh import STACK_SIZE
from .scene import HI, LO, Scene
from .sim import (
    Bodies,
    Scratch,
    _box_around,
    _cached,
    _gather_into,
    _spare,
    ball_gap,
    bodies_meet,
    collider_velocity,
    entering_row,
    gather_spare,
    pair_normal,
    segment_beyond,
    touch_row,
)
from .sim_shapes import BODY_BALL, body_cast_one, body_gap_row, body_pair_gap
from .world import unowned

__all__ = ["DATA_WIDTH", "contact_touches", "sensor_touches", "diff_touches", "drop_body"]

#: Columns of a touch's data row: normal xyz, point xyz, approach speed.
DATA_WIDTH = 7


@inline_kernel
def _put(other: np.ndarray, data: np.ndarray, c: int, key: int, nx: float, ny: float,
         nz: float, px: float, py: float, pz: float, approach: float) -> None:
    """Write touch c, when the table has room for it."""
    if c >= other.shape[0]:
        return
    other[c] = key
    touch_row(data, c, nx, ny, nz, px, py, pz, max(approach, 0.0))


@inline_kernel
def _sort_run(other: np.ndarray, data: np.ndarray, c0: int, c1: int, row: np.ndarray
              ) -> None:
    """Sort touches ``c0 .. c1-1`` by key (insertion sort: a body has a few); ``row`` is a
    (DATA_WIDTH,) scratch array."""
    for a in range(c0 + 1, c1):
        key = other[a]
        for w in range(DATA_WIDTH):
            row[w] = data[a, w]
        k = a
        for _ in range(a - c0):
            if other[k - 1] <= key:
                break
            other[k] = other[k - 1]
            for w in range(DATA_WIDTH):
                data[k, w] = data[k - 1, w]
            k -= 1
        other[k] = key
        for w in range(DATA_WIDTH):
            data[k, w] = row[w]


@inline_kernel
def _has(other: np.ndarray, c0: int, c1: int, key: int) -> bool:
    """Whether touches ``c0 .. c1-1`` (not yet sorted) hold ``key``."""
    found = False
    for c in range(c0, min(c1, other.shape[0])):
        # (a loop, not any(): numba compiles no generators)
        found = found or other[c] == key
    return found


@kernel
def contact_touches(scene: Scene, b: Bodies, s: Scratch, pair_first: np.ndarray,
                    neighbour: np.ndarray, vel_start: np.ndarray, first: np.ndarray,
                    other: np.ndarray, data: np.ndarray) -> int:
    """The step's touches (module docstring) into ``first`` (n+1,), ``other`` (k,) and
    ``data`` (k, DATA_WIDTH); returns how many there are. When that is more than ``other``
    holds, what is past its room is not written and the caller calls again with room.
    ``pair_first``/``neighbour``: the step's body pairs (CSR); ``vel_start`` (n, 3): the
    velocities at the step's start, after gravity (the approach of a touch the move did not
    log)."""
    # no reference counts in the loop (world.unowned): the scene's, the bodies' and the
    # scratch's arrays as views without an owner (the arguments keep them alive). Measured on
    # bench_sim's scene (10,000 balls, one thread, CPU, alternated in one process): 1.13 ->
    # 1.01 ms
    scene = unowned(scene)
    b = unowned(b)
    s = unowned(s)
    n = b.pos.shape[0]
    cap = other.shape[0]
    stack = np.empty(STACK_SIZE, np.int64)
    query = np.empty(6)
    spare = _spare(scene)
    # the outputs and the scratch query as owner-less views for the inlined helpers (each
    # counted them up and down once a body or a touch); the arguments keep the outputs alive,
    # and the query's owner stays in use in the loop (gather_spare), so it lives to its end
    other = unowned(other)
    data = unowned(data)
    first = unowned(first)
    query_view = unowned(query)
    # owner-less: the compiled row calls reference-count nothing
    view = unowned(scene)
    # (allocated once: with one made per body the kernel took 3.7 ms a step of 10,000
    # balls instead of 1.7, measured)
    row = np.empty(DATA_WIDTH)
    pos = b.pos
    radius = b.radius
    layer = b.layer
    mask = b.mask
    kind = b.kind
    # whether any body is not a ball (a balls-only step never asks a pair's kinds)
    shapes = b.local.shape[1] > 0
    c = 0
    for i in range(n):
        first[i] = min(c, cap)
        c0 = c
        px = pos[i, 0]
        py = pos[i, 1]
        pz = pos[i, 2]
        ri = radius[i]
        ball = kind[i] == BODY_BALL
        # the colliders the move hit (a ball may have bounced clear since)
        for k in range(s.hit_count[i]):
            hit = s.hit_data[i, k]
            _put(other, data, c, s.hit_other[i, k], hit[0], hit[1], hit[2], hit[3], hit[4],
                 hit[5], hit[6])
            c += 1
        logged = c
        # bodies touching at the step's end, each pair once from its lower index
        if i + 1 < pair_first.shape[0]:
            for q in range(pair_first[i], pair_first[i + 1]):
                j = neighbour[q]
                if j <= i or not bodies_meet(layer, mask, i, j):
                    # each pair once; bodies that mask each other out pass through
                    continue
                if not shapes or (ball and kind[j] == BODY_BALL):
                    dx = px - pos[j, 0]
                    dy = py - pos[j, 1]
                    dz = pz - pos[j, 2]
                    far = (1.0 + EVENT_TOUCH_FRACTION) * (ri + radius[j]) * (
                        1.0 + SEGMENT_CULL_TOLERANCE)
                    if dx * dx + dy * dy + dz * dz > far * far:
                        # apart beyond the touch (the pair lists reach a quarter of the radii
                        # further): skipped before the square root and the divisions, where
                        # the test below would find the same sum of squares past its bound (a
                        # margin far above their rounding: the constant's)
                        continue
                    dist, nx, ny, nz = pair_normal(dx, dy, dz)
                    sep = dist - ri - radius[j]
                    mid = ri + 0.5 * sep
                    mx = px - mid * nx
                    my = py - mid * ny
                else:
                    # a capsule or polygon in the pair: the convex contact of the shapes,
                    # the point in the middle of the gap
                    sep, nx, ny, nz, qx, qy = body_pair_gap(b.kind, b.local, radius, i, px, py,
                                                            j, pos[j, 0], pos[j, 1])
                    mx = qx + 0.5 * sep * nx
                    my = qy + 0.5 * sep * ny
                    mid = ri + 0.5 * sep
                if sep > EVENT_TOUCH_FRACTION * (ri + radius[j]):
                    continue
                approach = -((vel_start[i, 0] - vel_start[j, 0]) * nx
                             + (vel_start[i, 1] - vel_start[j, 1]) * ny
                             + (vel_start[i, 2] - vel_start[j, 2]) * nz)
                mid = ri + 0.5 * sep
                _put(other, data, c, j, nx, ny, nz, mx, my, pz - mid * nz, approach)
                c += 1
        # colliders touching at the step's end
        reach = 2.0 * EVENT_TOUCH_FRACTION * ri
        _box_around(px, py, pz, ri + reach, query_view)
        cached = _cached(i, query_view, s.cache_count, s.cache_box)
        count = s.cache_count[i]
        if not cached:
            count = gather_spare(scene, stack, query, mask[i], spare)
        rows = scene.rows
        tags = scene.tags
        far = ri + reach
        for k in range(count):
            h = s.cache[i, k] if cached else spare[0, k]
            if (rows[h, LO] > px + far or rows[h, HI] < px - far or rows[h, LO + 1] > py + far
                    or rows[h, HI + 1] < py - far):
                # the ball's reach misses the collider's box (a cache holds colliders of a
                # step's travel around it: most end here, without a call)
                continue
            if ball:
                if segment_beyond(rows, tags, h, px, py, far):
                    # a wall clear of the ball's reach (the call would answer +inf)
                    continue
                gap, nx, ny, nz = ball_gap(view, h, px, py, pz, ri, reach)
                qx = px - (ri + gap) * nx
                qy = py - (ri + gap) * ny
            else:
                gap, nx, ny, nz, qx, qy = body_gap_row(view, h, b.kind, b.local, radius, i,
                                                       px, py, reach)
            if gap > reach:
                # clear of it
                continue
            if _has(other, c0, logged, -1 - h):
                # the move's touch stands (its approach is the one it hit with)
                continue
            # (relative to a moving collider's velocity)
            wx, wy, wz = collider_velocity(scene, h)
            approach = -((vel_start[i, 0] - wx) * nx + (vel_start[i, 1] - wy) * ny
                         + (vel_start[i, 2] - wz) * nz)
            near = ri + gap
            _put(other, data, c, -1 - h, nx, ny, nz, qx, qy, pz - near * nz, approach)
            c += 1
        if c <= cap:
            _sort_run(other, data, c0, c, row)
    first[n] = min(c, cap)
    return c


@kernel
def sensor_touches(sensors: Scene, handles: np.ndarray, b: Bodies, start: np.ndarray,
                   vel: np.ndarray, first: np.ndarray, other: np.ndarray, data: np.ndarray
                   ) -> int:
    """Each body's sensors (the colliders of ``sensors``, a scene of the sensors alone, whose
    row h is the World's sensor ``handles[h]``, in increasing order): those it touches or
    overlaps at the step's end, and those its move from ``start`` (n, 3) to its place entered;
    keys are the World's handles. ``vel`` (n, 3): the velocities whose approach is reported.
    Returns the count; room as :func:`contact_touches`."""
    n = b.pos.shape[0]
    cap = other.shape[0]
    stack = np.empty(STACK_SIZE, np.int64)
    query = np.empty(6)
    spare = _spare(sensors)
    # owner-less: the compiled row calls reference-count nothing
    view = unowned(sensors)
    row = np.empty(DATA_WIDTH)
    pos = b.pos
    kind = b.kind
    c = 0
    for i in range(n):
        first[i] = min(c, cap)
        c0 = c
        px = pos[i, 0]
        py = pos[i, 1]
        pz = pos[i, 2]
        r = b.radius[i]
        ball = kind[i] == BODY_BALL
        sx = start[i, 0]
        sy = start[i, 1]
        sz = start[i, 2]
        # the box of the move, grown by the radius
        query[0] = min(px, sx) - r
        query[1] = min(py, sy) - r
        query[2] = min(pz, sz) - r
        query[3] = max(px, sx) + r
        query[4] = max(py, sy) + r
        query[5] = max(pz, sz) + r
        count = _gather_into(sensors, stack, query, b.mask[i], spare, 0)
        mx = px - sx
        my = py - sy
        mz = pz - sz
        length = np.sqrt(mx * mx + my * my + mz * mz)
        for k in range(count):
            h = spare[0, k]
            if ball:
                gap, nx, ny, nz = ball_gap(view, h, px, py, pz, r, 0.0)
                near = r + gap
                qx = px - near * nx
                qy = py - near * ny
            else:
                gap, nx, ny, nz, qx, qy = body_gap_row(view, h, b.kind, b.local, b.radius,
                                                       i, px, py, 0.0)
            if gap <= 0.0:
                # overlapping (or touching) at the step's end
                qz = pz - (r + gap) * nz
            elif length > 0.0 and not ball:
                # a capsule or polygon: whether its move swept through the sensor
                t, nx, ny, nz, qx, qy = body_cast_one(view, h, b.kind, b.local, b.radius,
                                                      i, sx, sy, mx / length, my / length,
                                                      length)
                if t < 0.0:
                    continue
                qz = 0.0
            elif length > 0.0:
                t, nx, ny, nz = entering_row(view, h, sx, sy, sz, mx / length,
                                                  my / length, mz / length, length, r)
                if t < 0.0:
                    # the move never entered it
                    continue
                # where the moving ball first touched it
                qx = sx + mx / length * t - r * nx
                qy = sy + my / length * t - r * ny
                qz = sz + mz / length * t - r * nz
            else:
                continue
            approach = -(vel[i, 0] * nx + vel[i, 1] * ny + vel[i, 2] * nz)
            _put(other, data, c, handles[h], nx, ny, nz, qx, qy, qz, approach)
            c += 1
        if c <= cap:
            _sort_run(other, data, c0, c, row)
    first[n] = min(c, cap)
    return c


@kernel
def diff_touches(old_first: np.ndarray, old_other: np.ndarray, new_first: np.ndarray,
                 new_other: np.ndarray, began: np.ndarray, ended: np.ndarray
                 ) -> tuple[int, int]:
    """Compare two steps' touches (each body's keys sorted): ``began[c]`` whether new touch c
    was not in the old table, ``ended[c]`` whether old touch c is not in the new one; returns
    how many of each. A body past the end of one table has no touches there."""
    n_old = old_first.shape[0] - 1
    n_new = new_first.shape[0] - 1
    nb = 0
    ne = 0
    for i in range(max(n_old, n_new)):
        a = old_first[i] if i < n_old else 0
        a_end = old_first[i + 1] if i < n_old else 0
        c = new_first[i] if i < n_new else 0
        c_end = new_first[i + 1] if i < n_new else 0
        # merge the two sorted runs
        for _ in range((a_end - a) + (c_end - c)):
            if a < a_end and (c >= c_end or old_other[a] < new_other[c]):
                ended[a] = True
                ne += 1
                a += 1
            elif c < c_end and (a >= a_end or new_other[c] < old_other[a]):
                began[c] = True
                nb += 1
                c += 1
            elif a < a_end:
                # in both
                a += 1
                c += 1
            else:
                break
    return nb, ne


@kernel
def drop_body(first: np.ndarray, other: np.ndarray, index: int, bodies_other: bool
              ) -> np.ndarray:
    """For the removal of body ``index``: which touches of the table (``first`` (n+1,),
    ``other`` (k,)) involve it, (k,) bool: its own run, and, when ``bodies_other`` (the keys
    are body indices when >= 0), every run's key ``index``."""
    k = first[first.shape[0] - 1]
    out = np.zeros(k, np.bool_)
    for c in range(first[index], first[index + 1]):
        out[c] = True
    if bodies_other:
        for c in range(k):
            if other[c] == index:
                out[c] = True
    return out
