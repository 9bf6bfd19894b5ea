"""Closest points and distance: GJK on shape cores, and the closed forms that are simpler.

Shapes are described by their *core* and a radius (the Box2D approach): a circle or sphere is
its centre grown by its radius, a capsule its axis grown by its radius, a segment its two
ends, a polygon or a box its corners. The distance between two shapes is the distance between
their cores' convex hulls minus both radii, never below 0.

Cores are float64 arrays of shape (n, 2) or (n, 3), one point a row; a 2-column array is read
with z = 0, so one GJK serves 2D and 3D. 2D callers of the scalar kernels pass z = 0 too.

Every pair kernel (``closest_points_*``, :func:`shape_distance`) returns the same *pair
result*: ``(distance, pax, pay, paz, pbx, pby, pbz)`` (plus extras for ``shape_distance``),
the gap and the nearest points on the first and on the second shape. When the shapes touch or
overlap the distance is 0 and both points are one point that lies in both shapes: where the
cores overlap, the core witness point; where only the radii overlap, the middle of the overlap
along the line between the core witnesses; against a plane, the shape's point deepest into the
half-space.

Tolerances (see each constant): GJK stops when its upper bound on the core distance is within
:data:`GJK_TOLERANCE` (relative) of its lower bound, so a separated result d satisfies
``d_true <= d <= d_true / (1 - GJK_TOLERANCE)`` up to rounding; gaps below
:data:`TOUCH_TOLERANCE` times the magnitude of the coordinates involved count as touching.
"""

from __future__ import annotations

import math

import numpy as np

from ..constants import (
    GJK_MAX_ITERATIONS,
    GJK_TOLERANCE,
    PLANE_PARALLEL_TOLERANCE,
    SIMPLEX_FLAT_TOLERANCE,
    TOUCH_TOLERANCE,
)
from . import (
    COINCIDENT_2X,
    COINCIDENT_2Y,
    COINCIDENT_3X,
    COINCIDENT_3Y,
    COINCIDENT_3Z,
    callee,
    callee_reader,
    kernel,
    reader,
)
from .geom import (
    DEGENERATE_SEGMENT_SQ,
    abs_max,
    closest_on_aabb3,
    closest_on_polygon,
    closest_on_segment2,
    closest_on_segment3,
    gap_apart,
    polygon_support,
    segment_segment_params,
    witness_scale,
)

#: Length of a simplex cache array: ``[count, ia0, ib0, ia1, ib1, ia2, ib2, ia3, ib3]``.
GJK_CACHE_SIZE = 9

#: GJK status: the cores are apart; distance and witness points are valid.
GJK_SEPARATED = 0
#: GJK status: the cores overlap or touch (distance 0); the witness points coincide (to
#: rounding) at a point common to both cores.
GJK_OVERLAPPED = 1
#: GJK status: :data:`GJK_MAX_ITERATIONS` ran out; the result is the best upper bound found.
GJK_ITERATION_LIMIT = 2
#: GJK status: an empty core was given; the distance is inf.
GJK_FAILED = 3



@kernel
def _length3(x: float, y: float, z: float) -> float:
    """The length of (x, y, z), without underflow or overflow in the squares."""
    return math.hypot(math.hypot(x, y), z)


# ---------------------------------------------------------------------------------------------
# closest point on one shape


@kernel
def closest_on_circle(px: float, py: float, cx: float, cy: float, radius: float
                      ) -> tuple[float, float, bool]:
    """The point of a circle's boundary nearest p, and whether p is inside (or on) it.

    A point at the centre leaves along :data:`swept.constants.COINCIDENT_NORMAL_2D`.
    """
    dx = px - cx
    dy = py - cy
    d = math.hypot(dx, dy)
    if d == 0.0:
        # coincident with the centre: no direction, use the fallback
        return cx + radius * COINCIDENT_2X, cy + radius * COINCIDENT_2Y, True
    return cx + radius * (dx / d), cy + radius * (dy / d), d <= radius


@kernel
def closest_on_sphere(px: float, py: float, pz: float, cx: float, cy: float, cz: float,
                      radius: float) -> tuple[float, float, float, bool]:
    """The point of a sphere's surface nearest p, and whether p is inside (or on) it.

    A point at the centre leaves along :data:`swept.constants.COINCIDENT_NORMAL_3D`.
    """
    dx = px - cx
    dy = py - cy
    dz = pz - cz
    d = _length3(dx, dy, dz)
    if d == 0.0:
        # coincident with the centre: no direction, use the fallback
        return (cx + radius * COINCIDENT_3X, cy + radius * COINCIDENT_3Y,
                cz + radius * COINCIDENT_3Z, True)
    return cx + radius * (dx / d), cy + radius * (dy / d), cz + radius * (dz / d), d <= radius


@kernel
def closest_on_capsule2(px: float, py: float, ax: float, ay: float, bx: float, by: float,
                        radius: float) -> tuple[float, float, bool]:
    """The point of a 2D capsule's boundary nearest p, and whether p is inside (or on) it.

    A point on the axis (its ends included) leaves sideways, along the axis's left normal
    ``(b - a).perp()``; a capsule with ``a == b`` is a circle and uses the circle's fallback.
    """
    ex = bx - ax
    ey = by - ay
    ee = ex * ex + ey * ey
    if ee <= DEGENERATE_SEGMENT_SQ:
        # degenerate: a circle
        return closest_on_circle(px, py, ax, ay, radius)
    el = math.sqrt(ee)
    nx = -ey / el
    ny = ex / el
    cx, cy, t = closest_on_segment2(px, py, ax, ay, bx, by)
    if 0.0 < t < 1.0 or (px == cx and py == cy):
        # beside the axis: measured across it (the projection's rounding runs along it)
        s = nx * (px - ax) + ny * (py - ay)
        if s < 0.0:
            # the right side
            nx = -nx
            ny = -ny
            s = -s
        # on the axis (s == 0): out through the left side
        return px + (radius - s) * nx, py + (radius - s) * ny, s <= radius
    # beyond an end: its cap
    return closest_on_circle(px, py, cx, cy, radius)


@callee
def _across(wx: float, wy: float, wz: float, ex: float, ey: float, ez: float, ee: float
            ) -> tuple[float, float, float]:
    """The part of w square to the line along e (``ee = |e|^2 > 0``), as ``e x (w x e) / ee``:
    square to e up to rounding, where ``w - e (w.e) / ee`` carries an error along e of an
    ulp of |w|, larger than the result itself when w lies near the line."""
    ux = wy * ez - wz * ey
    uy = wz * ex - wx * ez
    uz = wx * ey - wy * ex
    return (ey * uz - ez * uy) / ee, (ez * ux - ex * uz) / ee, (ex * uy - ey * ux) / ee


@callee
def _unit_perp3(x: float, y: float, z: float) -> tuple[float, float, float]:
    """A unit vector perpendicular to (x, y, z): its cross product with the least aligned
    world axis (the rule of ``Vec3.perp``)."""
    if abs(x) <= abs(y) and abs(x) <= abs(z):
        px, py, pz = 0.0, -z, y
    elif abs(y) <= abs(z):
        px, py, pz = z, 0.0, -x
    else:
        px, py, pz = -y, x, 0.0
    n = _length3(px, py, pz)
    return px / n, py / n, pz / n


@kernel
def closest_on_capsule3(px: float, py: float, pz: float, ax: float, ay: float, az: float,
                        bx: float, by: float, bz: float, radius: float
                        ) -> tuple[float, float, float, bool]:
    """The point of a 3D capsule's surface nearest p, and whether p is inside (or on) it.

    A point on the axis (its ends included) leaves along ``(b - a).perp()`` (the stable
    perpendicular of ``Vec3.perp``); a capsule with ``a == b`` is a sphere and uses the
    sphere's fallback.
    """
    ex = bx - ax
    ey = by - ay
    ez = bz - az
    ee = ex * ex + ey * ey + ez * ez
    if ee <= DEGENERATE_SEGMENT_SQ:
        # degenerate: a sphere
        return closest_on_sphere(px, py, pz, ax, ay, az, radius)
    cx, cy, cz, t = closest_on_segment3(px, py, pz, ax, ay, az, bx, by, bz)
    if 0.0 < t < 1.0 or (px == cx and py == cy and pz == cz):
        # beside the axis: the offset across it, e x (w x e) / |e|^2, which is square to the
        # axis whatever the rounding (a projection's rounding runs along the axis)
        wx, wy, wz = _across(px - ax, py - ay, pz - az, ex, ey, ez, ee)
        s = _length3(wx, wy, wz)
        if s == 0.0:
            # on the axis: out sideways, along a perpendicular of the axis
            nx, ny, nz = _unit_perp3(ex, ey, ez)
        else:
            nx = wx / s
            ny = wy / s
            nz = wz / s
        return (px + (radius - s) * nx, py + (radius - s) * ny, pz + (radius - s) * nz,
                s <= radius)
    # beyond an end: its cap
    return closest_on_sphere(px, py, pz, cx, cy, cz, radius)


@kernel
def closest_on_plane(px: float, py: float, pz: float, nx: float, ny: float, nz: float,
                     offset: float) -> tuple[float, float, float, bool]:
    """The point of a plane's boundary nearest p (its projection), and whether p is in the
    solid (``dot(n, p) <= offset``). ``n`` is a unit normal; 2D callers pass z = 0."""
    s = nx * px + ny * py + nz * pz - offset
    return px - s * nx, py - s * ny, pz - s * nz, s <= 0.0


# ---------------------------------------------------------------------------------------------
# pair results


@callee
def finish_pair(ax: float, ay: float, az: float, bx: float, by: float, bz: float,
                radius_a: float, radius_b: float, cores_touch: bool, scale: float
                ) -> tuple[float, float, float, float, float, float, float]:
    """The pair result of two shapes from their core witnesses a and b: take off the radii.

    Apart: the points move from a toward b by ``radius_a`` and from b toward a by
    ``radius_b``. Touching or overlapping (``cores_touch``, or a gap within
    :data:`TOUCH_TOLERANCE` of ``scale``, the largest coordinate magnitude of the two shapes'
    core points, or of the witnesses or radii when larger): distance 0, and both points are
    the middle of the overlap of the two shapes along the line from a to b (a point in both);
    coincident witnesses give that point.
    """
    dx = bx - ax
    dy = by - ay
    dz = bz - az
    d = _length3(dx, dy, dz)
    gap = d - radius_a - radius_b
    scale = max(scale, witness_scale(ax, ay, az, bx, by, bz), radius_a, radius_b)
    if not cores_touch and gap_apart(gap, scale):
        # apart: step in from the core witnesses by the radii
        ka = radius_a / d
        kb = radius_b / d
        return (gap, ax + ka * dx, ay + ka * dy, az + ka * dz,
                bx - kb * dx, by - kb * dy, bz - kb * dz)
    if d == 0.0:
        # coincident core witnesses: the point itself is in both
        return 0.0, ax, ay, az, ax, ay, az
    # the radii overlap: A covers [0, radius_a] and B covers [d - radius_b, d] along a -> b
    lo = max(0.0, d - radius_b)
    hi = min(radius_a, d)
    # (a gap within the touch tolerance has hi < lo: the middle of the two surface points)
    k = 0.5 * (lo + hi) / d
    if cores_touch:
        # cores touching (to rounding): halfway between their witnesses
        k = 0.5
    px = ax + k * dx
    py = ay + k * dy
    pz = az + k * dz
    return 0.0, px, py, pz, px, py, pz


@kernel
def closest_points_capsule_capsule(a1x: float, a1y: float, a1z: float, b1x: float,
                                   b1y: float, b1z: float, radius1: float, a2x: float,
                                   a2y: float, a2z: float, b2x: float, b2y: float,
                                   b2z: float, radius2: float
                                   ) -> tuple[float, float, float, float, float, float, float]:
    """Pair result of two capsules a1-b1 and a2-b2 (closed form). Circles, spheres and points
    are capsules with a == b, segments capsules of radius 0."""
    d1x = b1x - a1x
    d1y = b1y - a1y
    d1z = b1z - a1z
    d2x = b2x - a2x
    d2y = b2y - a2y
    d2z = b2z - a2z
    s, t = segment_segment_params(d1x, d1y, d1z, d2x, d2y, d2z, a1x - a2x, a1y - a2y,
                                  a1z - a2z)
    scale = max(witness_scale(a1x, a1y, a1z, b1x, b1y, b1z),
                witness_scale(a2x, a2y, a2z, b2x, b2y, b2z))
    return finish_pair(a1x + s * d1x, a1y + s * d1y, a1z + s * d1z,
                       a2x + t * d2x, a2y + t * d2y, a2z + t * d2z, radius1, radius2, False,
                       scale)


@kernel
def closest_points_ball_polygon(cx: float, cy: float, radius: float, verts: np.ndarray,
                                norms: np.ndarray
                                ) -> tuple[float, float, float, float, float, float, float]:
    """Pair result of a circle (or a point: radius 0) and a convex polygon (closed form)."""
    qx, qy, _nx, _ny, inside = closest_on_polygon(verts, norms, cx, cy)
    if inside:
        # centre in the polygon
        return finish_pair(cx, cy, 0.0, cx, cy, 0.0, radius, 0.0, True, 0.0)
    return finish_pair(cx, cy, 0.0, qx, qy, 0.0, radius, 0.0, False,
                       max(abs_max(verts), abs(cx), abs(cy)))


@kernel
def closest_points_ball_aabb(cx: float, cy: float, cz: float, radius: float, minx: float,
                             miny: float, minz: float, maxx: float, maxy: float, maxz: float
                             ) -> tuple[float, float, float, float, float, float, float]:
    """Pair result of a sphere or circle (or a point: radius 0) and a box (closed form; 2D
    callers pass z = 0 for the centre and both bounds)."""
    qx, qy, qz, _nx, _ny, _nz, inside = closest_on_aabb3(cx, cy, cz, minx, miny, minz, maxx,
                                                         maxy, maxz)
    if inside:
        # centre in the box
        return finish_pair(cx, cy, cz, cx, cy, cz, radius, 0.0, True, 0.0)
    return finish_pair(cx, cy, cz, qx, qy, qz, radius, 0.0, False,
                       max(witness_scale(cx, cy, cz, minx, miny, minz),
                           witness_scale(maxx, maxy, maxz, 0.0, 0.0, 0.0)))


@callee
def _interval_witness(lo_a: float, hi_a: float, lo_b: float, hi_b: float
                      ) -> tuple[float, float]:
    """Nearest coordinates of two intervals on one axis: the facing ends when apart, else
    both the middle of the overlap."""
    if hi_a < lo_b:
        # A below B
        return hi_a, lo_b
    if hi_b < lo_a:
        # B below A
        return lo_a, hi_b
    m = 0.5 * (max(lo_a, lo_b) + min(hi_a, hi_b))
    return m, m


@kernel
def closest_points_aabb_aabb(minax: float, minay: float, minaz: float, maxax: float,
                             maxay: float, maxaz: float, minbx: float, minby: float,
                             minbz: float, maxbx: float, maxby: float, maxbz: float
                             ) -> tuple[float, float, float, float, float, float, float]:
    """Pair result of two boxes (closed form, axis by axis; 2D callers pass z = 0)."""
    ax, bx = _interval_witness(minax, maxax, minbx, maxbx)
    ay, by = _interval_witness(minay, maxay, minby, maxby)
    az, bz = _interval_witness(minaz, maxaz, minbz, maxbz)
    scale = max(witness_scale(minax, minay, minaz, maxax, maxay, maxaz),
                witness_scale(minbx, minby, minbz, maxbx, maxby, maxbz))
    return finish_pair(ax, ay, az, bx, by, bz, 0.0, 0.0, False, scale)


@callee_reader
def _row3(verts: np.ndarray, i: int) -> tuple[float, float, float]:
    """Row i of a core array as a 3D point (z = 0 for a 2-column array)."""
    if verts.shape[1] >= 3:
        return verts[i, 0], verts[i, 1], verts[i, 2]
    return verts[i, 0], verts[i, 1], 0.0


@callee_reader
def core_support(verts: np.ndarray, dx: float, dy: float, dz: float) -> int:
    """The index of the core point farthest along d (the first, on a tie)."""
    if verts.shape[1] == 2:
        # planar core: z is 0 for every point, so dz does not matter
        return polygon_support(verts, dx, dy)
    best = 0
    bv = verts[0, 0] * dx + verts[0, 1] * dy + verts[0, 2] * dz
    for i in range(1, verts.shape[0]):
        v = verts[i, 0] * dx + verts[i, 1] * dy + verts[i, 2] * dz
        if v > bv:
            bv = v
            best = i
    return best


@kernel
def closest_points_core_plane(verts: np.ndarray, radius: float, nx: float, ny: float,
                              nz: float, offset: float
                              ) -> tuple[float, float, float, float, float, float, float]:
    """Pair result of a shape (core ``verts`` grown by ``radius``) and a plane (unit normal
    n, solid where ``dot(n, p) < offset``; closed form).

    The shape's nearest point is its support point against n (deepest into the solid); the
    plane's is that point's projection. Touching or overlapping: both are the shape's
    deepest point.
    """
    i = core_support(verts, -nx, -ny, -nz)
    cx, cy, cz = _row3(verts, i)
    qx = cx - radius * nx
    qy = cy - radius * ny
    qz = cz - radius * nz
    gap = nx * qx + ny * qy + nz * qz - offset
    scale = max(abs(qx), abs(qy), abs(qz), abs(offset), radius)
    if gap > TOUCH_TOLERANCE * scale:
        # above the plane
        return gap, qx, qy, qz, qx - gap * nx, qy - gap * ny, qz - gap * nz
    # touching or in the solid: the deepest point is in both
    return 0.0, qx, qy, qz, qx, qy, qz


@kernel
def closest_points_plane_plane(n1x: float, n1y: float, n1z: float, offset1: float,
                               n2x: float, n2y: float, n2z: float, offset2: float
                               ) -> tuple[float, float, float, float, float, float, float]:
    """Pair result of two planes (unit normals; closed form).

    Two half-spaces always meet unless they are parallel and facing away from each other
    (normals opposite, ``offset1 + offset2 < 0``): then the distance is the width of the
    empty slab between them, and the points are plane 1's boundary point nearest the origin
    and its projection onto plane 2. Otherwise the distance is 0 and both points are one
    point in both: for parallel normals the deeper boundary's point nearest the origin (same
    way) or the middle of the slab (opposite ways); else the point of both boundaries nearest
    the origin.
    """
    c = n1x * n2x + n1y * n2y + n1z * n2z
    scale = max(abs(offset1), abs(offset2))
    if c <= -1.0 + PLANE_PARALLEL_TOLERANCE:
        # parallel, facing opposite ways: a slab, empty or shared
        gap = -(offset1 + offset2)
        if gap > TOUCH_TOLERANCE * scale:
            px = offset1 * n1x
            py = offset1 * n1y
            pz = offset1 * n1z
            return gap, px, py, pz, px + gap * n1x, py + gap * n1y, pz + gap * n1z
        k = 0.5 * (offset1 - offset2)
        return 0.0, k * n1x, k * n1y, k * n1z, k * n1x, k * n1y, k * n1z
    if c >= 1.0 - PLANE_PARALLEL_TOLERANCE:
        # parallel, same way: the one with the smaller offset lies inside the other
        k = min(offset1, offset2)
        return 0.0, k * n1x, k * n1y, k * n1z, k * n1x, k * n1y, k * n1z
    # crossing boundaries: p = l1 n1 + l2 n2 with dot(n1, p) = offset1, dot(n2, p) = offset2
    det = 1.0 - c * c
    l1 = (offset1 - c * offset2) / det
    l2 = (offset2 - c * offset1) / det
    px = l1 * n1x + l2 * n2x
    py = l1 * n1y + l2 * n2y
    pz = l1 * n1z + l2 * n2z
    return 0.0, px, py, pz, px, py, pz


# ---------------------------------------------------------------------------------------------
# GJK


@callee
def _det3(ax: float, ay: float, az: float, bx: float, by: float, bz: float, cx: float,
          cy: float, cz: float) -> float:
    """The determinant of the rows a, b, c: dot(a, cross(b, c))."""
    return ax * (by * cz - bz * cy) + ay * (bz * cx - bx * cz) + az * (bx * cy - by * cx)


@callee
def _solve_simplex(sw: np.ndarray, count: int, full: int
                   ) -> tuple[int, float, float, float, float, float, float, float, float]:
    """The point nearest the origin of the hull of the first ``count`` rows of ``sw``.

    Returns ``(mask, l0, l1, l2, l3, vx, vy, vz, vv)``: the rows of the smallest sub-simplex
    holding that point (bit i for row i), its barycentric weights in row order (0 beyond),
    the point and its squared length.

    Every sub-simplex is tried: the nearest point of its affine hull counts when all its
    weights are positive, so that it is a convex combination of the rows (never nearer than
    the true answer), and the nearest such point wins. Degenerate sub-simplices (repeated,
    collinear or coplanar rows) are skipped and their faces answer. Weights come from signed
    areas and volumes (not normal equations, which square the condition number). A
    full-dimensional sub-simplex (``full`` rows: 3 in 2D, 4 in 3D) counts only when it holds
    the origin, and then the point is exactly the origin.
    """
    best_mask = 0
    best_k = 5
    best_vv = math.inf
    b0 = b1 = b2 = b3 = 0.0
    bvx = bvy = bvz = 0.0
    for mask in range(1, 1 << count):
        # the rows of this sub-simplex
        k = 0
        i0 = i1 = i2 = i3 = 0
        for i in range(count):
            if mask & (1 << i):
                if k == 0:
                    i0 = i
                elif k == 1:
                    i1 = i
                elif k == 2:
                    i2 = i
                else:
                    i3 = i
                k += 1
        if k > full:
            continue
        x0, y0, z0 = sw[i0, 0], sw[i0, 1], sw[i0, 2]
        l0 = 1.0
        l1 = l2 = l3 = 0.0
        if k >= 2:
            x1, y1, z1 = sw[i1, 0], sw[i1, 1], sw[i1, 2]
            e1x, e1y, e1z = x1 - x0, y1 - y0, z1 - z0
            g11 = e1x * e1x + e1y * e1y + e1z * e1z
            if g11 <= 0.0:
                # degenerate: a repeated point
                continue
        if k == 2:
            # solve: dot(p0 + t e1, e1) = 0
            t = -(x0 * e1x + y0 * e1y + z0 * e1z) / g11
            if not (0.0 < t < 1.0):
                # nearest an end: the vertex sub-simplex answers
                continue
            l0 = 1.0 - t
            l1 = t
        elif k == 3:
            x2, y2, z2 = sw[i2, 0], sw[i2, 1], sw[i2, 2]
            e2x, e2y, e2z = x2 - x0, y2 - y0, z2 - z0
            g22 = e2x * e2x + e2y * e2y + e2z * e2z
            # the triangle's normal n = e1 x e2; |n|^2 is its doubled area squared
            nx = e1y * e2z - e1z * e2y
            ny = e1z * e2x - e1x * e2z
            nz = e1x * e2y - e1y * e2x
            nn = nx * nx + ny * ny + nz * nz
            if not nn > SIMPLEX_FLAT_TOLERANCE * SIMPLEX_FLAT_TOLERANCE * g11 * g22:
                # degenerate: collinear points
                continue
            # weights of the origin's projection: the signed areas of the triangles it makes
            # with each edge, dot(n, p_j x p_k) / |n|^2
            l0 = _det3(nx, ny, nz, x1, y1, z1, x2, y2, z2)
            l1 = _det3(nx, ny, nz, x2, y2, z2, x0, y0, z0)
            l2 = _det3(nx, ny, nz, x0, y0, z0, x1, y1, z1)
            if not (l0 > 0.0 and l1 > 0.0 and l2 > 0.0):
                continue
            total = l0 + l1 + l2
            l0 /= total
            l1 /= total
            l2 /= total
        elif k == 4:
            x2, y2, z2 = sw[i2, 0], sw[i2, 1], sw[i2, 2]
            x3, y3, z3 = sw[i3, 0], sw[i3, 1], sw[i3, 2]
            e2x, e2y, e2z = x2 - x0, y2 - y0, z2 - z0
            e3x, e3y, e3z = x3 - x0, y3 - y0, z3 - z0
            g22 = e2x * e2x + e2y * e2y + e2z * e2z
            g33 = e3x * e3x + e3y * e3y + e3z * e3z
            vol = _det3(e1x, e1y, e1z, e2x, e2y, e2z, e3x, e3y, e3z)
            if not vol * vol > SIMPLEX_FLAT_TOLERANCE * SIMPLEX_FLAT_TOLERANCE * g11 * g22 * g33:
                # degenerate: coplanar points
                continue
            # weights of the origin: the signed volumes of the tetrahedra it makes with each
            # face, over the whole volume
            l0 = _det3(x1, y1, z1, x2, y2, z2, x3, y3, z3) / vol
            l1 = _det3(-x0, -y0, -z0, e2x, e2y, e2z, e3x, e3y, e3z) / vol
            l2 = _det3(e1x, e1y, e1z, -x0, -y0, -z0, e3x, e3y, e3z) / vol
            l3 = _det3(e1x, e1y, e1z, e2x, e2y, e2z, -x0, -y0, -z0) / vol
            if not (l0 > 0.0 and l1 > 0.0 and l2 > 0.0 and l3 > 0.0):
                continue
            total = l0 + l1 + l2 + l3
            l0 /= total
            l1 /= total
            l2 /= total
            l3 /= total
        if k == full:
            # origin in the full-dimensional simplex
            vx = vy = vz = 0.0
        elif k == 1:
            vx, vy, vz = x0, y0, z0
        elif k == 2:
            # the edge's nearest point as p0's part across the edge: p0 + t e1's error along
            # the edge turns a point near the origin's direction (a thin shape's support
            # then picks the wrong vertex)
            vx, vy, vz = _across(x0, y0, z0, e1x, e1y, e1z, g11)
        else:
            # a triangle in 3D: the nearest point along its normal, for the same reason
            s = (nx * x0 + ny * y0 + nz * z0) / nn
            vx, vy, vz = s * nx, s * ny, s * nz
        vv = vx * vx + vy * vy + vz * vz
        if vv < best_vv or (vv == best_vv and k < best_k):
            best_vv = vv
            best_k = k
            best_mask = mask
            b0, b1, b2, b3 = l0, l1, l2, l3
            bvx, bvy, bvz = vx, vy, vz
    return best_mask, b0, b1, b2, b3, bvx, bvy, bvz, best_vv


@reader
def gjk_distance(verts_a: np.ndarray, verts_b: np.ndarray, cache: np.ndarray
                 ) -> tuple[float, float, float, float, float, float, float, int, int]:
    """Distance between the convex hulls of two cores, by GJK.

    ``verts_a`` (n, 2|3) and ``verts_b`` (m, 2|3) float64 are the core points (any order;
    repeated, collinear or single points are fine). ``cache`` is an int64 array of
    :data:`GJK_CACHE_SIZE` holding a simplex to start from (``[count, ia0, ib0, ...]``;
    count 0 for a cold start; indices out of range are ignored) and receives the final one,
    so that a caller moving the cores a little between calls (conservative advancement) can
    warm-start.

    Returns ``(distance, ax, ay, az, bx, by, bz, iterations, status)``: the points of each
    hull nearest the other (z = 0 for two planar cores), the number of support points
    added, and a ``GJK_*`` status. ``GJK_OVERLAPPED`` gives distance 0 and a ~= b, a point in
    both hulls. The distance is within :data:`GJK_TOLERANCE` (relative) of the true one, and
    gaps within :data:`TOUCH_TOLERANCE` of the coordinates' magnitude count as overlapping.
    """
    na = verts_a.shape[0]
    nb = verts_b.shape[0]
    if na == 0 or nb == 0:
        return math.inf, 0.0, 0.0, 0.0, 0.0, 0.0, 0.0, 0, GJK_FAILED
    planar = verts_a.shape[1] == 2 and verts_b.shape[1] == 2
    full = 3 if planar else 4
    # the simplex: support indices into a and b, and the Minkowski points w = a - b
    ia = np.zeros(4, np.int64)
    ib = np.zeros(4, np.int64)
    sw = np.zeros((4, 3))
    lam = np.zeros(4)
    best_ia = np.zeros(4, np.int64)
    best_ib = np.zeros(4, np.int64)
    best_lam = np.zeros(4)
    best_count = 0
    count = 0
    # warm start from the cache, when it names valid points
    if cache.shape[0] >= GJK_CACHE_SIZE and 1 <= cache[0] <= full:
        ok = True
        for i in range(cache[0]):
            if not (0 <= cache[1 + 2 * i] < na and 0 <= cache[2 + 2 * i] < nb):
                ok = False
        if ok:
            count = cache[0]
            for i in range(count):
                ia[i] = cache[1 + 2 * i]
                ib[i] = cache[2 + 2 * i]
    if count == 0:
        count = 1
        ia[0] = 0
        ib[0] = 0
    size = 0.0
    for i in range(count):
        ax, ay, az = _row3(verts_a, ia[i])
        bx, by, bz = _row3(verts_b, ib[i])
        sw[i, 0] = ax - bx
        sw[i, 1] = ay - by
        sw[i, 2] = az - bz
        size = max(size, witness_scale(ax, ay, az, bx, by, bz))

    status = GJK_ITERATION_LIMIT
    best_vv = math.inf
    iterations = 0
    while iterations < GJK_MAX_ITERATIONS:
        iterations += 1
        touch = TOUCH_TOLERANCE * size
        mask, l0, l1, l2, l3, vx, vy, vz, vv = _solve_simplex(sw, count, full)
        if vv >= best_vv:
            # no progress (rounding): the previous simplex is as near as this one gets
            status = GJK_SEPARATED
            break
        # keep the sub-simplex that holds the nearest point
        k = 0
        for i in range(count):
            if mask & (1 << i):
                ia[k] = ia[i]
                ib[k] = ib[i]
                sw[k, 0] = sw[i, 0]
                sw[k, 1] = sw[i, 1]
                sw[k, 2] = sw[i, 2]
                lam[k] = l0 if k == 0 else (l1 if k == 1 else (l2 if k == 2 else l3))
                k += 1
        count = k
        best_vv = vv
        best_count = count
        for i in range(count):
            best_ia[i] = ia[i]
            best_ib[i] = ib[i]
            best_lam[i] = lam[i]
        if vv <= touch * touch:
            # origin in the simplex (or within the touch tolerance of it): overlap
            status = GJK_OVERLAPPED
            break
        # the support point of a - b toward the origin, along -v
        ja = core_support(verts_a, -vx, -vy, -vz)
        jb = core_support(verts_b, vx, vy, vz)
        repeated = False
        for i in range(count):
            if ia[i] == ja and ib[i] == jb:
                repeated = True
        if repeated:
            # the support point is already in the simplex: nothing nearer exists
            status = GJK_SEPARATED
            break
        ax, ay, az = _row3(verts_a, ja)
        bx, by, bz = _row3(verts_b, jb)
        wx = ax - bx
        wy = ay - by
        wz = az - bz
        if vv - (vx * wx + vy * wy + vz * wz) <= GJK_TOLERANCE * vv:
            # converged: the support plane along v is within tolerance of v
            status = GJK_SEPARATED
            break
        # grow the simplex (it had at most full - 1 rows: a full one ends in overlap)
        ia[count] = ja
        ib[count] = jb
        sw[count, 0] = wx
        sw[count, 1] = wy
        sw[count, 2] = wz
        count += 1
        size = max(size, witness_scale(ax, ay, az, bx, by, bz))

    # witness points: the best simplex's weights applied to each core's support points
    ax = ay = az = bx = by = bz = 0.0
    for i in range(best_count):
        pax, pay, paz = _row3(verts_a, best_ia[i])
        pbx, pby, pbz = _row3(verts_b, best_ib[i])
        ax += best_lam[i] * pax
        ay += best_lam[i] * pay
        az += best_lam[i] * paz
        bx += best_lam[i] * pbx
        by += best_lam[i] * pby
        bz += best_lam[i] * pbz
    if cache.shape[0] >= GJK_CACHE_SIZE:
        cache[0] = best_count
        for i in range(4):
            cache[1 + 2 * i] = best_ia[i] if i < best_count else 0
            cache[2 + 2 * i] = best_ib[i] if i < best_count else 0
    if status == GJK_OVERLAPPED:
        return 0.0, ax, ay, az, bx, by, bz, iterations, status
    dist = _length3(bx - ax, by - ay, bz - az)
    return dist, ax, ay, az, bx, by, bz, iterations, status


@reader
def shape_distance(verts_a: np.ndarray, radius_a: float, verts_b: np.ndarray,
                   radius_b: float, cache: np.ndarray
                   ) -> tuple[float, float, float, float, float, float, float, float, float,
                              float, int, int]:
    """Distance between two shapes given as cores grown by radii: GJK, then the radii.

    Returns ``(distance, pax, pay, paz, pbx, pby, pbz, nx, ny, nz, iterations, status)``:
    the pair result (see the module docstring), the unit direction from A's core witness to
    B's (the separating axis; (0, 0, 0) when the cores overlap), and GJK's iterations and
    status (of the cores: a distance of 0 with ``GJK_SEPARATED`` means only the radii
    overlap). ``cache`` is as for :func:`gjk_distance`.
    """
    d, ax, ay, az, bx, by, bz, iterations, status = gjk_distance(verts_a, verts_b, cache)
    if status == GJK_FAILED:
        return (math.inf, 0.0, 0.0, 0.0, 0.0, 0.0, 0.0, 0.0, 0.0, 0.0, iterations, status)
    nx = ny = nz = 0.0
    if status != GJK_OVERLAPPED and d > 0.0:
        nx = (bx - ax) / d
        ny = (by - ay) / d
        nz = (bz - az) / d
    dist, pax, pay, paz, pbx, pby, pbz = finish_pair(ax, ay, az, bx, by, bz, radius_a,
                                                     radius_b, status == GJK_OVERLAPPED,
                                                     max(abs_max(verts_a), abs_max(verts_b)))
    return dist, pax, pay, paz, pbx, pby, pbz, nx, ny, nz, iterations, status
