"""Shared geometric primitives: closest points on segments, boxes and polygons.

Every higher query (contacts, closest points, distance, sweeps) that needs one of these calls
it from here, so each formula exists once.
"""

from __future__ import annotations

import math

import numpy as np

from ..constants import DEGENERATE_SEGMENT_SQ, SEGMENT_PARALLEL_SINE_SQ, TOUCH_TOLERANCE
from ..vec import _length3, _unit_direction2
from . import callee, callee_reader, kernel, reader

#: ``sqrt(x^2 + y^2 + z^2)``, rescaled by the largest magnitude where the sum of squares
#: underflows below the smallest normal float: :meth:`swept.Vec3.length`'s function itself,
#: compiled (so the same operations, bit for bit).
length3 = callee(_length3)

#: 2D's one unit-direction formula, ``(ux, uy, length)``:
#: :func:`swept.vec._unit_direction2` itself, compiled, so that a batch row's direction is a
#: :class:`~swept.Ray`'s to the last bit.
unit2 = callee(_unit_direction2)


@kernel
def closest_on_segment2(px: float, py: float, ax: float, ay: float, bx: float,
                        by: float) -> tuple[float, float, float]:
    """The point of segment ab nearest p, and its parameter t in [0, 1] from a."""
    ex = bx - ax
    ey = by - ay
    ee = ex * ex + ey * ey
    if ee <= DEGENERATE_SEGMENT_SQ:
        # degenerate: the segment is a point
        return ax, ay, 0.0
    # solve: dot(a + t e - p, e) = 0, clamped to the segment
    t = ((px - ax) * ex + (py - ay) * ey) / ee
    if t <= 0.0:
        return ax, ay, 0.0
    if t >= 1.0:
        return bx, by, 1.0
    return ax + t * ex, ay + t * ey, t


@callee_reader
def abs_max(verts: np.ndarray) -> float:
    """The largest coordinate magnitude among the rows of ``verts``: the scale of rounding."""
    m = 0.0
    for i in range(verts.shape[0]):
        for k in range(verts.shape[1]):
            m = max(m, abs(verts[i, k]))
    return m


@callee
def witness_scale(ax: float, ay: float, az: float, bx: float, by: float, bz: float) -> float:
    """The largest coordinate magnitude of two points: the scale of their rounding error."""
    return max(abs(ax), abs(ay), abs(az), abs(bx), abs(by), abs(bz))


@callee
def gap_apart(gap: float, scale: float) -> bool:
    """Whether two shapes ``gap`` apart (surface to surface) are apart: a gap within
    :data:`TOUCH_TOLERANCE` of ``scale`` (the largest coordinate magnitude of the shapes'
    points, and their radii) is rounding, and touches. The one rule for ``distance()``'s 0 and
    ``contact()``'s depth-0 touch."""
    return gap > TOUCH_TOLERANCE * scale


@callee
def closest_on_segment3(px: float, py: float, pz: float, ax: float, ay: float, az: float,
                        bx: float, by: float, bz: float
                        ) -> tuple[float, float, float, float]:
    """The point of segment ab nearest p (3D), and its parameter t in [0, 1] from a."""
    ex = bx - ax
    ey = by - ay
    ez = bz - az
    ee = ex * ex + ey * ey + ez * ez
    if ee <= DEGENERATE_SEGMENT_SQ:
        return ax, ay, az, 0.0
    t = ((px - ax) * ex + (py - ay) * ey + (pz - az) * ez) / ee
    if t <= 0.0:
        return ax, ay, az, 0.0
    if t >= 1.0:
        return bx, by, bz, 1.0
    return ax + t * ex, ay + t * ey, az + t * ez, t


@callee
def _clamp01(x: float) -> float:
    """x clamped to [0, 1]."""
    if x < 0.0:
        return 0.0
    if x > 1.0:
        return 1.0
    return x


@callee
def segment_segment_params(d1x: float, d1y: float, d1z: float, d2x: float, d2y: float,
                           d2z: float, rx: float, ry: float, rz: float
                           ) -> tuple[float, float]:
    """Parameters (s, t) in [0, 1]^2 of the closest points p1 + s d1 and p2 + t d2 of two
    segments, where r = p1 - p2 (2D callers pass z = 0).

    Parallel segments get the s nearest the start of the overlap (any closest pair is a valid
    answer there); degenerate segments (points) are handled.
    """
    a = d1x * d1x + d1y * d1y + d1z * d1z
    e = d2x * d2x + d2y * d2y + d2z * d2z
    f = d2x * rx + d2y * ry + d2z * rz
    if a <= DEGENERATE_SEGMENT_SQ and e <= DEGENERATE_SEGMENT_SQ:
        # both segments are points
        return 0.0, 0.0
    if a <= DEGENERATE_SEGMENT_SQ:
        # the first segment is a point
        return 0.0, _clamp01(f / e)
    c = d1x * rx + d1y * ry + d1z * rz
    if e <= DEGENERATE_SEGMENT_SQ:
        # the second segment is a point
        return _clamp01(-c / a), 0.0
    b = d1x * d2x + d1y * d2y + d1z * d2z
    denom = a * e - b * b
    # s on the infinite lines, clamped; parallel lines (denom ~ 0) start from s = 0
    s = 0.0
    if denom > SEGMENT_PARALLEL_SINE_SQ * a * e:
        s = _clamp01((b * f - c * e) / denom)
    t = (b * s + f) / e
    # t outside the segment: clamp it and recompute s for the clamped t
    if t < 0.0:
        t = 0.0
        s = _clamp01(-c / a)
    elif t > 1.0:
        t = 1.0
        s = _clamp01((b - c) / a)
    return s, t


@kernel
def closest_on_aabb2(px: float, py: float, minx: float, miny: float, maxx: float,
                     maxy: float) -> tuple[float, float, float, float, bool]:
    """The point of a 2D box's boundary nearest p, its outward unit normal, and whether p is
    inside (or on) the box.

    From outside, the normal is the direction from the boundary point to p (diagonal at a
    corner). From inside, the nearest face wins (ties: x faces before y faces, min before max)
    and the normal is that face's.
    """
    inside = minx <= px <= maxx and miny <= py <= maxy
    if not inside:
        qx = min(max(px, minx), maxx)
        qy = min(max(py, miny), maxy)
        dx = px - qx
        dy = py - qy
        # scaled, so that a gap of 1e-160 does not underflow to a zero length
        m = max(abs(dx), abs(dy))
        d = m * math.sqrt((dx / m) * (dx / m) + (dy / m) * (dy / m))
        return qx, qy, dx / d, dy / d, False
    # inside: leave through the nearest face
    best = px - minx
    qx, qy, nx, ny = minx, py, -1.0, 0.0
    g = maxx - px
    if g < best:
        best = g
        qx, qy, nx, ny = maxx, py, 1.0, 0.0
    g = py - miny
    if g < best:
        best = g
        qx, qy, nx, ny = px, miny, 0.0, -1.0
    g = maxy - py
    if g < best:
        qx, qy, nx, ny = px, maxy, 0.0, 1.0
    return qx, qy, nx, ny, True


@kernel
def closest_on_aabb3(px: float, py: float, pz: float, minx: float, miny: float, minz: float,
                     maxx: float, maxy: float, maxz: float
                     ) -> tuple[float, float, float, float, float, float, bool]:
    """The point of a 3D box's boundary nearest p, its outward unit normal, and whether p is
    inside (or on) it; the 3D counterpart of :func:`closest_on_aabb2`."""
    inside = minx <= px <= maxx and miny <= py <= maxy and minz <= pz <= maxz
    if not inside:
        qx = min(max(px, minx), maxx)
        qy = min(max(py, miny), maxy)
        qz = min(max(pz, minz), maxz)
        dx = px - qx
        dy = py - qy
        dz = pz - qz
        m = max(abs(dx), abs(dy), abs(dz))
        d = m * math.sqrt((dx / m) * (dx / m) + (dy / m) * (dy / m) + (dz / m) * (dz / m))
        return qx, qy, qz, dx / d, dy / d, dz / d, False
    best = px - minx
    qx, qy, qz, nx, ny, nz = minx, py, pz, -1.0, 0.0, 0.0
    g = maxx - px
    if g < best:
        best = g
        qx, qy, qz, nx, ny, nz = maxx, py, pz, 1.0, 0.0, 0.0
    g = py - miny
    if g < best:
        best = g
        qx, qy, qz, nx, ny, nz = px, miny, pz, 0.0, -1.0, 0.0
    g = maxy - py
    if g < best:
        best = g
        qx, qy, qz, nx, ny, nz = px, maxy, pz, 0.0, 1.0, 0.0
    g = pz - minz
    if g < best:
        best = g
        qx, qy, qz, nx, ny, nz = px, py, minz, 0.0, 0.0, -1.0
    g = maxz - pz
    if g < best:
        qx, qy, qz, nx, ny, nz = px, py, maxz, 0.0, 0.0, 1.0
    return qx, qy, qz, nx, ny, nz, True


@reader
def closest_on_polygon(verts: np.ndarray, norms: np.ndarray, px: float, py: float
                       ) -> tuple[float, float, float, float, bool]:
    """The point of a convex polygon's boundary nearest p, its outward unit normal, and whether
    p is inside (or on) the polygon.

    ``verts`` (n, 2) are the corners in counter-clockwise (y-up) order and ``norms`` (n, 2) the
    outward edge normals. From outside, the normal runs from the boundary point to p (so it is
    the corner's direction at a corner). From inside, p leaves through the nearest edge (the
    face of least penetration) and the normal is that edge's.
    """
    n = verts.shape[0]
    # the edge p is least inside (largest signed distance): the separating axis
    best_i = 0
    best_s = -1e300
    for i in range(n):
        s = norms[i, 0] * (px - verts[i, 0]) + norms[i, 1] * (py - verts[i, 1])
        if s > best_s:
            best_s = s
            best_i = i
    if best_s <= 0.0:
        # inside (or on): out through the nearest edge, along its normal
        nx = norms[best_i, 0]
        ny = norms[best_i, 1]
        return px - best_s * nx, py - best_s * ny, nx, ny, True
    # outside: the nearest point of any edge
    bd = 1e300
    qx = 0.0
    qy = 0.0
    for i in range(n):
        j = i + 1 if i + 1 < n else 0
        cx, cy, _t = closest_on_segment2(px, py, verts[i, 0], verts[i, 1], verts[j, 0],
                                         verts[j, 1])
        d = (px - cx) * (px - cx) + (py - cy) * (py - cy)
        if d < bd:
            bd = d
            qx = cx
            qy = cy
    d = math.sqrt(bd)
    if d == 0.0:
        # on a corner, called outside by rounding: it is on the boundary
        return px, py, norms[best_i, 0], norms[best_i, 1], True
    return qx, qy, (px - qx) / d, (py - qy) / d, False


@callee_reader
def polygon_support(verts: np.ndarray, dx: float, dy: float) -> int:
    """The index of the polygon corner farthest along (dx, dy) (the first, on a tie)."""
    best = 0
    bv = verts[0, 0] * dx + verts[0, 1] * dy
    for i in range(1, verts.shape[0]):
        v = verts[i, 0] * dx + verts[i, 1] * dy
        if v > bv:
            bv = v
            best = i
    return best
