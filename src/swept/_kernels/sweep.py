"""Shape-cast kernels: when a moving shape first touches another during a step.

Two methods, one per kind of motion:

- **A moving circle (sphere) is a ray against the target grown by its radius** (seed 000): a
  circle grows into a circle, a segment or capsule into a capsule, a box or polygon into a
  *rounded* polygon (offset faces and a circle at every corner; in 3D, offset faces, edges as
  cylinders and corners as spheres), a plane into a plane. These are exact closed forms, and
  they reuse the ray kernels.
- **Any other translating convex pair** is cast by conservative advancement on GJK: at each
  iteration the gap ``g`` between the shapes and the closing speed ``s`` along the separating
  normal give a safe advance ``(g - target) / s``, after which the shapes are still at least
  ``target`` apart (convex shapes lie on either side of the slab between their nearest points).
  :func:`rotating_time_of_impact` adds a bound on how fast rotation can close the gap.

Return encodings are documented on each kernel. Distances along a ray are in length units;
``fraction`` results are in [0, max_fraction].
"""

from __future__ import annotations

import math

import numpy as np

from ..constants import (
    CAST_MAX_ITERATIONS,
    CAST_ROUNDING,
    CAST_TOLERANCE,
    SWEEP_RIM_TOLERANCE,
)
from . import callee, callee_reader, kernel, reader
from .distance import GJK_CACHE_SIZE, GJK_OVERLAPPED, gjk_distance
from .geom import abs_max, closest_on_aabb3, closest_on_polygon
from .ray import MISS, ray_aabb3, ray_capsule3, ray_circle, ray_segment

__all__ = ["CAST_ROUNDING", "CAST_TOLERANCE", "SWEEP_RIM_TOLERANCE"]


#: Cast status: the shapes first touch at the reported fraction.
CAST_HIT = 0
#: Cast status: they never come within the target distance during the motion.
CAST_SEPARATED = 1
#: Cast status: they already overlap (or are within the target distance) at the start.
CAST_OVERLAPPED = 2
#: Cast status: the iteration cap ran out before the gap closed or the motion ended.
CAST_OUT_OF_ITERATIONS = 3


# ---------------------------------------------------------------------------------------------
# rays against rounded shapes (a moving circle or sphere against a grown target)


@reader
def ray_rounded_polygon(ox: float, oy: float, dx: float, dy: float, verts: np.ndarray,
                        norms: np.ndarray, r: float, max_distance: float, entering_only: bool
                        ) -> tuple[float, float, float, float, float, bool]:
    """Ray vs a convex polygon grown by ``r`` (offset edges and corner circles).

    Returns ``(t, px, py, nx, ny, inside)`` as the ray kernels do (``t == MISS`` on a miss).
    An origin within ``r`` of the polygon (or inside it) hits at 0 with the normal of the
    shortest way out, unless ``entering_only`` and the origin sits on the rim heading outward
    or along it: then only pieces the ray heads into count (seed 000's swept step).
    """
    qx, qy, nx, ny, inside = closest_on_polygon(verts, norms, ox, oy)
    gx = ox - qx
    gy = oy - qy
    dist = math.sqrt(gx * gx + gy * gy)
    if inside:
        dist = -dist
    # the rim's width: a fraction of the grown polygon's own size, plus the rounding of
    # coordinates this large (never an absolute length: the scene may be of any size)
    tol = (SWEEP_RIM_TOLERANCE * max(r, _extent(verts), abs(dist))
           + CAST_ROUNDING * max(abs(ox), abs(oy), abs_max(verts)))
    if dist <= r + tol:
        # within rounding of the rim counts as on it: a centre a hair outside would otherwise
        # start *on* an offset edge, which the casts below cannot see
        on_rim = dist >= r - tol
        if not (entering_only and on_rim and nx * dx + ny * dy >= 0.0):
            # starts inside the grown polygon (or on its rim, heading in)
            return 0.0, ox, oy, nx, ny, True
    best = MISS
    bx = by = bnx = bny = 0.0
    n = verts.shape[0]
    for i in range(n):
        j = i + 1 if i + 1 < n else 0
        ex = norms[i, 0]
        ey = norms[i, 1]
        if ex * dx + ey * dy < 0.0:
            # heading into this edge's side: its offset copy
            t, px, py, _nx, _ny, ins = ray_segment(
                ox, oy, dx, dy, verts[i, 0] + ex * r, verts[i, 1] + ey * r,
                verts[j, 0] + ex * r, verts[j, 1] + ey * r, max_distance)
            if t >= 0.0 and not ins and (best < 0.0 or t < best):
                best, bx, by, bnx, bny = t, px, py, ex, ey
        if r > 0.0:
            # the corner's circle
            t, px, py, cnx, cny, ins = ray_circle(ox, oy, dx, dy, verts[i, 0], verts[i, 1], r,
                                                  max_distance)
            entering = cnx * dx + cny * dy < 0.0 if entering_only else True
            if t >= 0.0 and not ins and entering and (best < 0.0 or t < best):
                best, bx, by, bnx, bny = t, px, py, cnx, cny
    if best < 0.0:
        return MISS, 0.0, 0.0, 0.0, 0.0, False
    return best, bx, by, bnx, bny, False


@callee
def box_corners(minx: float, miny: float, maxx: float, maxy: float
                ) -> tuple[np.ndarray, np.ndarray]:
    """A 2D box as a polygon: its corners counter-clockwise (y-up) and outward normals."""
    verts = np.empty((4, 2))
    norms = np.empty((4, 2))
    verts[0, 0], verts[0, 1] = minx, miny
    verts[1, 0], verts[1, 1] = maxx, miny
    verts[2, 0], verts[2, 1] = maxx, maxy
    verts[3, 0], verts[3, 1] = minx, maxy
    norms[0, 0], norms[0, 1] = 0.0, -1.0
    norms[1, 0], norms[1, 1] = 1.0, 0.0
    norms[2, 0], norms[2, 1] = 0.0, 1.0
    norms[3, 0], norms[3, 1] = -1.0, 0.0
    return verts, norms


@kernel
def ray_rounded_aabb2(ox: float, oy: float, dx: float, dy: float, minx: float, miny: float,
                      maxx: float, maxy: float, r: float, max_distance: float,
                      entering_only: bool) -> tuple[float, float, float, float, float, bool]:
    """Ray vs a 2D box grown by ``r`` with *rounded* corners (exact, not the grown box)."""
    verts, norms = box_corners(minx, miny, maxx, maxy)
    return ray_rounded_polygon(ox, oy, dx, dy, verts, norms, r, max_distance, entering_only)


@kernel
def ray_rounded_aabb3(ox: float, oy: float, oz: float, dx: float, dy: float, dz: float,
                      minx: float, miny: float, minz: float, maxx: float, maxy: float,
                      maxz: float, r: float, max_distance: float
                      ) -> tuple[float, float, float, float, float, float, float, bool]:
    """Ray vs a 3D box grown by ``r``: offset faces, edges as cylinders, corners as spheres.

    Returns ``(t, px, py, pz, nx, ny, nz, inside)``. The ray first meets the box grown by
    ``r`` with square edges; where that entry lies beyond two (an edge's region) or three (a
    corner's) of the box's slabs, the true entry is on the capsules of the edges there.
    """
    qx, qy, qz, nx, ny, nz, inside = closest_on_aabb3(ox, oy, oz, minx, miny, minz, maxx, maxy,
                                                      maxz)
    gx = ox - qx
    gy = oy - qy
    gz = oz - qz
    if inside or gx * gx + gy * gy + gz * gz <= r * r:
        # starts inside the grown box
        return 0.0, ox, oy, oz, nx, ny, nz, True
    t, px, py, pz, hx, hy, hz, _ins = ray_aabb3(ox, oy, oz, dx, dy, dz, minx - r, miny - r,
                                                minz - r, maxx + r, maxy + r, maxz + r,
                                                max_distance)
    if t < 0.0:
        return MISS, 0.0, 0.0, 0.0, 0.0, 0.0, 0.0, False
    # which of the box's own slabs the entry lies beyond: -1 below, +1 above, 0 within
    sx = -1 if px < minx else (1 if px > maxx else 0)
    sy = -1 if py < miny else (1 if py > maxy else 0)
    sz = -1 if pz < minz else (1 if pz > maxz else 0)
    outside = abs(sx) + abs(sy) + abs(sz)
    if outside <= 1:
        # a face's region: the grown box's face is the true surface
        return t, px, py, pz, hx, hy, hz, False
    # an edge's or a corner's region: cast against the capsule of every box edge there
    cx = minx if sx < 0 else maxx
    cy = miny if sy < 0 else maxy
    cz = minz if sz < 0 else maxz
    best = MISS
    bpx = bpy = bpz = bnx = bny = bnz = 0.0
    for axis in range(3):
        # the edge along `axis` through the corner (cx, cy, cz): needed when the entry lies
        # beyond both of the other two slabs
        if (axis == 0 and sy != 0 and sz != 0) or (axis == 1 and sx != 0 and sz != 0) or (
                axis == 2 and sx != 0 and sy != 0):
            ax, ay, az = cx, cy, cz
            bx, by, bz = cx, cy, cz
            if axis == 0:
                ax, bx = minx, maxx
            elif axis == 1:
                ay, by = miny, maxy
            else:
                az, bz = minz, maxz
            ct, cpx, cpy, cpz, cnx, cny, cnz, cins = ray_capsule3(
                ox, oy, oz, dx, dy, dz, ax, ay, az, bx, by, bz, r, max_distance)
            if cins:
                # starts on the edge's rim (exactly r from the box, which rounding put a hair
                # outside the grown box above): touching counts
                return 0.0, ox, oy, oz, cnx, cny, cnz, True
            if ct >= 0.0 and (best < 0.0 or ct < best):
                best, bpx, bpy, bpz, bnx, bny, bnz = ct, cpx, cpy, cpz, cnx, cny, cnz
    if best < 0.0:
        return MISS, 0.0, 0.0, 0.0, 0.0, 0.0, 0.0, False
    return best, bpx, bpy, bpz, bnx, bny, bnz, False


# ---------------------------------------------------------------------------------------------
# conservative advancement on GJK


@reader
def _extent(verts: np.ndarray) -> float:
    """The largest side of a core's bounding box: its size, whatever its position."""
    s = 0.0
    for k in range(verts.shape[1]):
        lo = verts[0, k]
        hi = verts[0, k]
        for i in range(1, verts.shape[0]):
            lo = min(lo, verts[i, k])
            hi = max(hi, verts[i, k])
        s = max(s, hi - lo)
    return s


@callee_reader
def _moved(verts: np.ndarray, dx: float, dy: float, dz: float, t: float) -> np.ndarray:
    """A core moved by t times (dx, dy, dz) (z ignored for a planar core)."""
    out = np.empty_like(verts)
    d = verts.shape[1]
    for i in range(verts.shape[0]):
        out[i, 0] = verts[i, 0] + t * dx
        out[i, 1] = verts[i, 1] + t * dy
        if d == 3:
            out[i, 2] = verts[i, 2] + t * dz
    return out


@callee_reader
def _simplex_normal(moved: np.ndarray, verts_b: np.ndarray, cache: np.ndarray, nx: float,
                    ny: float, nz: float) -> tuple[float, float, float]:
    """The separating normal from GJK's final simplex when it is an edge (2D) or a face (3D)
    of A - B: that feature's perpendicular, from differences of core points (exact for a face
    of either shape), turned to agree with ``n``, the direction between the witness points.
    The witnesses are weighted sums of core points whose rounding would otherwise tilt the
    normal (a segment of radius 0 meeting a box face got (-1, 4e-17)), and at a touch of
    radius-0 shapes they are two nearly equal points.
    Any other simplex (a point, a 3D edge) keeps ``n``."""
    count = cache[0]
    planar = moved.shape[1] == 2 and verts_b.shape[1] == 2
    if planar and count == 2:
        ex = (moved[cache[3], 0] - verts_b[cache[4], 0]) - (moved[cache[1], 0]
                                                             - verts_b[cache[2], 0])
        ey = (moved[cache[3], 1] - verts_b[cache[4], 1]) - (moved[cache[1], 1]
                                                             - verts_b[cache[2], 1])
        length = math.hypot(ex, ey)
        if length == 0.0:
            return nx, ny, nz
        ux = -ey / length
        uy = ex / length
        if ux * nx + uy * ny < 0.0:
            # the side A is on
            ux = -ux
            uy = -uy
        return ux, uy, 0.0
    if not planar and count == 3:
        w = np.empty((3, 3))
        for i in range(3):
            for k in range(3):
                ak = moved[cache[1 + 2 * i], k] if k < moved.shape[1] else 0.0
                bk = verts_b[cache[2 + 2 * i], k] if k < verts_b.shape[1] else 0.0
                w[i, k] = ak - bk
        e1x, e1y, e1z = w[1, 0] - w[0, 0], w[1, 1] - w[0, 1], w[1, 2] - w[0, 2]
        e2x, e2y, e2z = w[2, 0] - w[0, 0], w[2, 1] - w[0, 1], w[2, 2] - w[0, 2]
        ux = e1y * e2z - e1z * e2y
        uy = e1z * e2x - e1x * e2z
        uz = e1x * e2y - e1y * e2x
        length = math.hypot(math.hypot(ux, uy), uz)
        if length == 0.0:
            return nx, ny, nz
        ux /= length
        uy /= length
        uz /= length
        if ux * nx + uy * ny + uz * nz < 0.0:
            # the side A is on
            ux = -ux
            uy = -uy
            uz = -uz
        return ux, uy, uz
    return nx, ny, nz


@reader
def cast_cores(verts_a: np.ndarray, radius_a: float, verts_b: np.ndarray, radius_b: float,
               dx: float, dy: float, dz: float, target_distance: float, max_fraction: float
               ) -> tuple[int, float, float, float, float, float, float, float, int]:
    """Translate core A (grown by ``radius_a``) by ``t * (dx, dy, dz)`` against static core B
    (grown by ``radius_b``) and find the first ``t`` in [0, max_fraction] at which their gap
    is ``target_distance``, by conservative advancement on GJK.

    Returns ``(status, t, nx, ny, nz, px, py, pz, iterations)``: a ``CAST_*`` status, the
    fraction, the unit normal out of B toward A and the point of B's surface nearest A at
    that moment (for ``CAST_OVERLAPPED`` at t = 0: the normal of the separating axis when
    only the radii overlap, else (0, 0, 0), and a point in both cores). The gap at the
    reported ``t`` is within ``CAST_TOLERANCE`` times the query's size (the larger half
    extent of the cores, the radii, the displacement's length, the target distance) plus
    ``CAST_ROUNDING`` times the coordinates' magnitude of the target: no absolute length, so
    the fraction is the same at every scale.
    """
    cache = np.zeros(GJK_CACHE_SIZE, np.int64)
    # the stopping gap: a fraction of the query's own size (the shapes' half extents and
    # radii, the motion), plus the rounding of coordinates as large as these; no absolute
    # length, so that a scene of any size stops at the same fraction
    length = math.hypot(math.hypot(dx, dy), dz)
    size = max(0.5 * _extent(verts_a), 0.5 * _extent(verts_b), radius_a, radius_b, length,
               target_distance)
    magnitude = max(abs_max(verts_a), abs_max(verts_b), length)
    tol = CAST_TOLERANCE * size + CAST_ROUNDING * magnitude
    t = 0.0
    # the separating normal of the previous iteration
    lx = ly = lz = 0.0
    for it in range(CAST_MAX_ITERATIONS):
        moved = _moved(verts_a, dx, dy, dz, t)
        d, ax, ay, az, bx, by, bz, _n, status = gjk_distance(moved, verts_b, cache)
        gap = d - radius_a - radius_b
        if status == GJK_OVERLAPPED or d <= 0.0:
            # the cores touch: no separating direction
            if t == 0.0:
                return CAST_OVERLAPPED, 0.0, 0.0, 0.0, 0.0, ax, ay, az, it + 1
            # an advance landed exactly on contact: the slab it closed gives the normal
            return CAST_HIT, t, lx, ly, lz, ax, ay, az, it + 1
        # the normal of the features nearest each other, where they are an edge (2D) or a
        # face (3D) of A - B: not the rounding of the witness points
        nx, ny, nz = _simplex_normal(moved, verts_b, cache, (ax - bx) / d, (ay - by) / d,
                                     (az - bz) / d)
        px = bx + nx * radius_b
        py = by + ny * radius_b
        pz = bz + nz * radius_b
        if gap <= target_distance + tol:
            if t == 0.0 and gap < target_distance - tol:
                # already closer than the target distance at the start
                return CAST_OVERLAPPED, 0.0, nx, ny, nz, px, py, pz, it + 1
            return CAST_HIT, t, nx, ny, nz, px, py, pz, it + 1
        lx, ly, lz = nx, ny, nz
        closing = -(dx * nx + dy * ny + dz * nz)
        if closing <= 0.0:
            # moving apart or alongside: convex shapes under translation never meet now
            return CAST_SEPARATED, max_fraction, nx, ny, nz, px, py, pz, it + 1
        t += (gap - target_distance) / closing
        if t > max_fraction:
            return CAST_SEPARATED, max_fraction, nx, ny, nz, px, py, pz, it + 1
    return CAST_OUT_OF_ITERATIONS, t, 0.0, 0.0, 0.0, 0.0, 0.0, 0.0, CAST_MAX_ITERATIONS


@callee
def _posed(local: np.ndarray, px: float, py: float, angle: float) -> np.ndarray:
    """2D local core points turned by ``angle`` about the local origin, then moved to p."""
    c = math.cos(angle)
    s = math.sin(angle)
    out = np.empty_like(local)
    for i in range(local.shape[0]):
        x = local[i, 0]
        y = local[i, 1]
        out[i, 0] = c * x - s * y + px
        out[i, 1] = s * x + c * y + py
    return out


@callee
def _reach(local: np.ndarray) -> float:
    """The farthest a local core point is from the local origin (the rotation centre)."""
    m = 0.0
    for i in range(local.shape[0]):
        m = max(m, math.hypot(local[i, 0], local[i, 1]))
    return m


@kernel
def rotating_time_of_impact(local_a: np.ndarray, radius_a: float, pax: float, pay: float,
                            angle_a: float, vax: float, vay: float, wa: float,
                            local_b: np.ndarray, radius_b: float, pbx: float, pby: float,
                            angle_b: float, vbx: float, vby: float, wb: float,
                            target_distance: float, max_iterations: int
                            ) -> tuple[int, float, float, float, float, float, int]:
    """First time in [0, 1] at which two 2D shapes moving with linear and angular velocity
    come within ``target_distance``, by conservative advancement on GJK.

    Each shape is a local core (n, 2) grown by a radius, posed at ``p + v t`` and turned by
    ``angle + w t`` about its local origin (``v`` and ``w`` are the motion over the whole
    step). The advance bound is ``(gap - target) / (-(v_a - v_b) . n + |w_a| R_a + |w_b| R_b)``
    with ``R`` the farthest core point from the rotation centre: no point of either shape can
    close the gap faster, so a crossing is never stepped over, and ``CAST_SEPARATED`` is
    reported only when the motion ends (or can no longer close the gap) with the shapes apart.

    Returns ``(status, t, nx, ny, px, py, iterations)``: ``CAST_*`` status, the time, the unit
    normal out of B toward A and the point of B's surface nearest A at that time.
    """
    cache = np.zeros(GJK_CACHE_SIZE, np.int64)
    reach_a = _reach(local_a)
    reach_b = _reach(local_b)
    # the stopping gap: a fraction of the bodies' size, radii and motion, plus the rounding
    # of their coordinates; no absolute length
    speed_a = math.hypot(vax, vay)
    speed_b = math.hypot(vbx, vby)
    size = max(abs_max(local_a), abs_max(local_b), radius_a, radius_b, speed_a, speed_b,
               target_distance)
    magnitude = max(abs_max(local_a) + max(abs(pax), abs(pay)),
                    abs_max(local_b) + max(abs(pbx), abs(pby)), speed_a, speed_b)
    tol = CAST_TOLERANCE * size + CAST_ROUNDING * magnitude
    spin = abs(wa) * reach_a + abs(wb) * reach_b
    t = 0.0
    # the separating normal of the previous iteration
    lx = ly = 0.0
    for it in range(max_iterations):
        core_a = _posed(local_a, pax + vax * t, pay + vay * t, angle_a + wa * t)
        core_b = _posed(local_b, pbx + vbx * t, pby + vby * t, angle_b + wb * t)
        d, ax, ay, _az, bx, by, _bz, _n, status = gjk_distance(core_a, core_b, cache)
        gap = d - radius_a - radius_b
        if status == GJK_OVERLAPPED or d <= 0.0:
            if t == 0.0:
                return CAST_OVERLAPPED, 0.0, 0.0, 0.0, ax, ay, it + 1
            # an advance landed exactly on contact: the last separating axis is the normal
            return CAST_HIT, t, lx, ly, ax, ay, it + 1
        # the normal of the features nearest each other (an edge of A - B), not the rounding
        # of the witness points
        nx, ny, _nz = _simplex_normal(core_a, core_b, cache, (ax - bx) / d, (ay - by) / d, 0.0)
        px = bx + nx * radius_b
        py = by + ny * radius_b
        if gap <= target_distance + tol:
            if t == 0.0 and gap < target_distance - tol:
                return CAST_OVERLAPPED, 0.0, nx, ny, px, py, it + 1
            return CAST_HIT, t, nx, ny, px, py, it + 1
        lx, ly = nx, ny
        bound = -((vax - vbx) * nx + (vay - vby) * ny) + spin
        if bound <= 0.0:
            # nothing can close the gap any more
            return CAST_SEPARATED, 1.0, nx, ny, px, py, it + 1
        t += (gap - target_distance) / bound
        if t > 1.0:
            return CAST_SEPARATED, 1.0, nx, ny, px, py, it + 1
    return CAST_OUT_OF_ITERATIONS, t, 0.0, 0.0, 0.0, 0.0, max_iterations
