"""Contact kernels: how deep and which way two overlapping (or touching) shapes meet.

Every kernel is named ``contact_<first>_<second>`` (``3`` marks the 3D form of a name shared
with 2D) and answers for the shapes in that order. It returns a flat tuple:

- 2D: ``(hit, nx, ny, depth, px, py)``
- 3D: ``(hit, nx, ny, nz, depth, px, py, pz)``

``hit`` is False when the shapes are apart (every other field is then 0). Otherwise ``n`` is
the unit normal along which to move the *first* shape out of the second, ``depth >= 0`` how far
(0 when they just touch), and ``p`` a point on the *second* shape's boundary where the first
reaches deepest into it, so that ``p - n * depth`` is the first shape's deepest point, on its
own boundary. :func:`flip_contact2` / :func:`flip_contact3` turn a result into the one for the
shapes in the other order (normal reversed, same depth, point moved by ``-n * depth``).

Inputs are plain floats: circles and spheres as centre and radius, capsules and segments as
their core's two ends and a radius (0 for a segment), boxes as min and max corners, planes as
unit normal and offset (solid where ``dot(n, p) < offset``), polygons as the ``(n, 2)`` float64
arrays of corners (counter-clockwise, y up) and outward edge normals. No kernel touches a
Python object (the box-against-polygon kernels build small numpy arrays), so all of them can
run inside ``numba.prange`` loops.

The contact point, pair by pair:

- a circle or sphere against anything but a plane: the nearest point of the second shape's
  boundary to the centre (from inside a box or polygon, the centre's foot on the nearest face);
- anything against a plane: the foot on the boundary of the first shape's deepest point (the
  middle of its deepest edge or face when one lies parallel to the boundary);
- capsules and segments whose cores are apart: the nearest point of the second shape's surface;
- separating-axis contacts (polygons, boxes with polygons, cores that cross or lie inside):
  when the least push is along one of the second shape's faces, the point of that face nearest
  the first shape's deepest corner (or deepest surface point); when it is along one of the
  first shape's faces, the second shape's corner (or surface point) reaching deepest into the
  first;
- two boxes: on the second box's face, at the middle of the boxes' overlap on the other axes.

Degenerate cases, decided once here:

- **Coincident centres** (circle-circle, sphere-sphere, and a centre on a capsule whose core is
  a point): the normal is ``COINCIDENT_NORMAL_2D`` / ``_3D`` (+x).
- **A centre on a capsule's core** (or, to rounding, on an end of it): the shortest way out is
  square to the core, so the normal is the unit perpendicular to the core nearest
  ``COINCIDENT_NORMAL`` (+x); for a core along x, the one nearest +y (:func:`fallback_perp2`,
  :func:`fallback_perp3`). 3D cores that touch or cross leave along the cross product of their
  directions, the way nearer +x (then +y, +z): a mirror-symmetric case, so both argument orders
  give the same normal, as with coincident centres; touching parallel 3D cores use
  :func:`fallback_perp3` of the first core.
- **Touching**: shapes whose gap (surface to surface, or between the cores when they have no
  radius) is within :data:`TOUCH_TOLERANCE` of the largest coordinate magnitude of their points
  and radii touch: a contact of depth 0. It is ``distance()``'s rule for 0, written once
  (:func:`~swept._kernels.geom.gap_apart`).
- **Exact ties between separating axes** go to the axis whose sign-free direction is greatest
  (x first, then y), so that swapping two shapes of one type only reverses the normal; when the
  two opposite pushes along one axis tie (a box centred on another along that axis, collinear
  cores), the first shape goes the positive way, as with coincident centres.
- **Flat contacts**: when the deepest part of the first shape is a whole edge (a box resting
  flat, a capsule lying on a face), the point is taken under the middle of the part of that
  edge that lies over the face.
"""

from __future__ import annotations

import math

import numpy as np

from ..constants import AXIS_PARALLEL_SINE, TOUCH_TOLERANCE
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
    closest_on_aabb2,
    closest_on_aabb3,
    closest_on_polygon,
    closest_on_segment2,
    closest_on_segment3,
    gap_apart,
    polygon_support,
    segment_segment_params,
    witness_scale,
)

_INF = math.inf


# ----------------------------------------------------------------------------- helpers

@kernel
def flip_contact2(hit: bool, nx: float, ny: float, depth: float, px: float, py: float
                  ) -> tuple[bool, float, float, float, float, float]:
    """A 2D contact result for the shapes in the other order: normal reversed, same depth,
    point moved onto the other shape's boundary (``p - n * depth``)."""
    if not hit:
        return False, 0.0, 0.0, 0.0, 0.0, 0.0
    return True, -nx, -ny, depth, px - nx * depth, py - ny * depth


@kernel
def flip_contact3(hit: bool, nx: float, ny: float, nz: float, depth: float, px: float,
                  py: float, pz: float
                  ) -> tuple[bool, float, float, float, float, float, float, float]:
    """A 3D contact result for the shapes in the other order (see :func:`flip_contact2`)."""
    if not hit:
        return False, 0.0, 0.0, 0.0, 0.0, 0.0, 0.0, 0.0
    return True, -nx, -ny, -nz, depth, px - nx * depth, py - ny * depth, pz - nz * depth


@callee
def fallback_perp2(ex: float, ey: float) -> tuple[float, float]:
    """The unit perpendicular to direction e (nonzero) nearest ``COINCIDENT_NORMAL_2D``; for e
    along that normal, the one nearest +y: the way out for a centre on a capsule's core."""
    length = math.hypot(ex, ey)
    px = -ey / length
    py = ex / length
    k = px * COINCIDENT_2X + py * COINCIDENT_2Y
    if k == 0.0:
        # the core runs along the coincident normal: prefer +y
        k = py
    if k < 0.0:
        return 0.0 - px, 0.0 - py
    return px + 0.0, py + 0.0


@callee
def fallback_perp3(ex: float, ey: float, ez: float) -> tuple[float, float, float]:
    """The unit perpendicular to direction e (nonzero) nearest ``COINCIDENT_NORMAL_3D``; for e
    (within :data:`AXIS_PARALLEL_SINE`) along that normal, the one nearest +y."""
    length = math.sqrt(ex * ex + ey * ey + ez * ez)
    ux = ex / length
    uy = ey / length
    uz = ez / length
    for attempt in range(2):
        if attempt == 0:
            cx, cy, cz = COINCIDENT_3X, COINCIDENT_3Y, COINCIDENT_3Z
        else:
            # the core runs along the coincident normal: prefer +y
            cx, cy, cz = 0.0, 1.0, 0.0
        # Gram-Schmidt, twice, so that a short remainder is still perpendicular
        k = cx * ux + cy * uy + cz * uz
        wx = cx - k * ux
        wy = cy - k * uy
        wz = cz - k * uz
        k = wx * ux + wy * uy + wz * uz
        wx -= k * ux
        wy -= k * uy
        wz -= k * uz
        w = math.sqrt(wx * wx + wy * wy + wz * wz)
        if w > AXIS_PARALLEL_SINE or attempt == 1:
            return wx / w, wy / w, wz / w
    return 0.0, 1.0, 0.0  # pragma: no cover - the loop always returns


@callee
def _wins2(s: float, nx: float, ny: float, best_s: float, bx: float, by: float) -> bool:
    """Whether candidate axis n with separation s beats the best so far: larger separation
    wins; an exact tie goes to the greater sign-free direction (x, then y), then to the
    direction nearer +x (+y) - so that the choice does not depend on the argument order."""
    if s != best_s:
        return s > best_s
    cx, cy = nx, ny
    if cx < 0.0 or (cx == 0.0 and cy < 0.0):
        cx, cy = -cx, -cy
    dx, dy = bx, by
    if dx < 0.0 or (dx == 0.0 and dy < 0.0):
        dx, dy = -dx, -dy
    if cx != dx:
        return cx > dx
    if cy != dy:
        return cy > dy
    # the same axis both ways (a symmetric tie): the positive direction
    return (nx > 0.0 or (nx == 0.0 and ny > 0.0)) and not (bx > 0.0 or (bx == 0.0 and by > 0.0))


@callee
def _wins3(s: float, nx: float, ny: float, nz: float, best_s: float, bx: float, by: float,
           bz: float) -> bool:
    """The 3D counterpart of :func:`_wins2` (sign-free direction compared x, y, then z)."""
    if s != best_s:
        return s > best_s
    cx, cy, cz = nx, ny, nz
    if cx < 0.0 or (cx == 0.0 and (cy < 0.0 or (cy == 0.0 and cz < 0.0))):
        cx, cy, cz = -cx, -cy, -cz
    dx, dy, dz = bx, by, bz
    if dx < 0.0 or (dx == 0.0 and (dy < 0.0 or (dy == 0.0 and dz < 0.0))):
        dx, dy, dz = -dx, -dy, -dz
    if cx != dx:
        return cx > dx
    if cy != dy:
        return cy > dy
    if cz != dz:
        return cz > dz
    pos_n = nx > 0.0 or (nx == 0.0 and (ny > 0.0 or (ny == 0.0 and nz > 0.0)))
    pos_b = bx > 0.0 or (bx == 0.0 and (by > 0.0 or (by == 0.0 and bz > 0.0)))
    return pos_n and not pos_b


@callee
def _middle_over2(p1x: float, p1y: float, p2x: float, p2y: float, r1x: float, r1y: float,
                  r2x: float, r2y: float, nx: float, ny: float) -> tuple[float, float]:
    """The middle of the part of edge p1p2 that lies over edge r1r2, both square to n: the
    centre of a flat contact patch, on p1p2's line (its nearest end's side when they miss)."""
    tx = -ny
    ty = nx
    a = tx * p1x + ty * p1y
    b = tx * p2x + ty * p2y
    c = tx * r1x + ty * r1y
    d = tx * r2x + ty * r2y
    lo = max(min(a, b), min(c, d))
    hi = min(max(a, b), max(c, d))
    m = 0.5 * (lo + hi)
    return p1x + tx * (m - a), p1y + ty * (m - a)


@callee
def closest_between_segments(a0x: float, a0y: float, a0z: float, a1x: float, a1y: float,
                             a1z: float, b0x: float, b0y: float, b0z: float, b1x: float,
                             b1y: float, b1z: float
                             ) -> tuple[float, float, float, float, float, float, float]:
    """The closest points of segments a0a1 and b0b1 and their distance ``(pa, pb, d)`` (2D
    callers pass z = 0). The nearest of several true pairs of points: ``geom.
    segment_segment_params``' pair; the lines' closest point on a (from cross products, which
    stay accurate for nearly parallel lines, where the normal equations lose digits) with its
    nearest point on b; and each end against the other segment (parallel segments)."""
    dax = a1x - a0x
    day = a1y - a0y
    daz = a1z - a0z
    dbx = b1x - b0x
    dby = b1y - b0y
    dbz = b1z - b0z
    s, t = segment_segment_params(dax, day, daz, dbx, dby, dbz, a0x - b0x, a0y - b0y, a0z - b0z)
    pax = a0x + s * dax
    pay = a0y + s * day
    paz = a0z + s * daz
    pbx = b0x + t * dbx
    pby = b0y + t * dby
    pbz = b0z + t * dbz
    best = math.sqrt((pax - pbx) ** 2 + (pay - pby) ** 2 + (paz - pbz) ** 2)
    # the lines' closest point on a, from cross products (s |w|^2 = ((b0 - a0) x db) . w),
    # clamped to a, against b: exact inside both, and steady for nearly parallel lines
    wx = day * dbz - daz * dby
    wy = daz * dbx - dax * dbz
    wz = dax * dby - day * dbx
    ww = wx * wx + wy * wy + wz * wz
    if ww > 0.0:
        rx = b0x - a0x
        ry = b0y - a0y
        rz = b0z - a0z
        sl = ((ry * dbz - rz * dby) * wx + (rz * dbx - rx * dbz) * wy
              + (rx * dby - ry * dbx) * wz) / ww
        sl = min(max(sl, 0.0), 1.0)
        cax = a0x + sl * dax
        cay = a0y + sl * day
        caz = a0z + sl * daz
        cbx, cby, cbz, _t = closest_on_segment3(cax, cay, caz, b0x, b0y, b0z, b1x, b1y, b1z)
        d = math.sqrt((cax - cbx) ** 2 + (cay - cby) ** 2 + (caz - cbz) ** 2)
        if d < best:
            best = d
            pax, pay, paz, pbx, pby, pbz = cax, cay, caz, cbx, cby, cbz
    for k in range(4):
        # an end of one segment against the other
        if k < 2:
            ex = a0x if k == 0 else a1x
            ey = a0y if k == 0 else a1y
            ez = a0z if k == 0 else a1z
            qx, qy, qz, _t = closest_on_segment3(ex, ey, ez, b0x, b0y, b0z, b1x, b1y, b1z)
            cax, cay, caz, cbx, cby, cbz = ex, ey, ez, qx, qy, qz
        else:
            ex = b0x if k == 2 else b1x
            ey = b0y if k == 2 else b1y
            ez = b0z if k == 2 else b1z
            qx, qy, qz, _t = closest_on_segment3(ex, ey, ez, a0x, a0y, a0z, a1x, a1y, a1z)
            cax, cay, caz, cbx, cby, cbz = qx, qy, qz, ex, ey, ez
        d = math.sqrt((cax - cbx) ** 2 + (cay - cby) ** 2 + (caz - cbz) ** 2)
        if d < best:
            best = d
            pax, pay, paz, pbx, pby, pbz = cax, cay, caz, cbx, cby, cbz
    return pax, pay, paz, pbx, pby, pbz, best


@callee_reader
def _polygon_face_separation(verts: np.ndarray, norms: np.ndarray, px: float, py: float
                             ) -> tuple[int, float]:
    """The polygon edge that point p is least inside (or most outside), and p's signed
    distance from that edge's line: the point's separating axis."""
    best_i = 0
    best_s = -_INF
    for i in range(verts.shape[0]):
        s = norms[i, 0] * (px - verts[i, 0]) + norms[i, 1] * (py - verts[i, 1])
        if s > best_s:
            best_s = s
            best_i = i
    return best_i, best_s


@callee_reader
def _polygon_nearest(verts: np.ndarray, px: float, py: float) -> tuple[float, float, float]:
    """The point of a polygon's edges nearest p, and its distance (no direction, so nothing
    divides by a distance that may be 0)."""
    n = verts.shape[0]
    best = _INF
    bx = by = 0.0
    for i in range(n):
        j = i + 1 if i + 1 < n else 0
        qx, qy, _t = closest_on_segment2(px, py, verts[i, 0], verts[i, 1], verts[j, 0],
                                         verts[j, 1])
        d = math.hypot(px - qx, py - qy)
        if d < best:
            best = d
            bx = qx
            by = qy
    return bx, by, best


@callee
def box_arrays(minx: float, miny: float, maxx: float, maxy: float
               ) -> tuple[np.ndarray, np.ndarray]:
    """A 2D box as polygon arrays: its corners counter-clockwise (y up) from min, and the
    outward normals of the edges that start at them."""
    verts = np.empty((4, 2))
    norms = np.zeros((4, 2))
    verts[0, 0] = minx
    verts[0, 1] = miny
    verts[1, 0] = maxx
    verts[1, 1] = miny
    verts[2, 0] = maxx
    verts[2, 1] = maxy
    verts[3, 0] = minx
    verts[3, 1] = maxy
    norms[0, 1] = -1.0
    norms[1, 0] = 1.0
    norms[2, 1] = 1.0
    norms[3, 0] = -1.0
    return verts, norms


# ----------------------------------------------------------------------------- 2D: circles

@kernel
def contact_circle_circle(ax: float, ay: float, ar: float, bx: float, by: float, br: float
                          ) -> tuple[bool, float, float, float, float, float]:
    """Circle a against circle b: the normal runs from b's centre to a's, the depth is how much
    nearer the centres are than the sum of the radii; the point is on b's rim."""
    dx = ax - bx
    dy = ay - by
    d = math.hypot(dx, dy)
    reach = ar + br
    if gap_apart(d - reach, max(witness_scale(ax, ay, 0.0, bx, by, 0.0), ar, br)):
        return False, 0.0, 0.0, 0.0, 0.0, 0.0
    if d > 0.0:
        nx = dx / d
        ny = dy / d
    else:
        # coincident centres: no direction between them
        nx = COINCIDENT_2X
        ny = COINCIDENT_2Y
    # (a gap within the touch tolerance touches: depth 0)
    return True, nx, ny, max(reach - d, 0.0), bx + nx * br, by + ny * br


@kernel
def contact_circle_capsule(cx: float, cy: float, cr: float, ax: float, ay: float, bx: float,
                           by: float, br: float
                           ) -> tuple[bool, float, float, float, float, float]:
    """Circle against capsule (core ab, radius br; br = 0 is a segment): out along the line
    from the nearest core point to the centre; the point is on the capsule's surface."""
    ex = bx - ax
    ey = by - ay
    reach = cr + br
    qx, qy, t = closest_on_segment2(cx, cy, ax, ay, bx, by)
    scale = max(max(abs(cx), abs(cy)), max(max(abs(ax), abs(ay)), max(abs(bx), abs(by))))
    touch = max(scale, cr, br)
    degenerate = ex * ex + ey * ey <= DEGENERATE_SEGMENT_SQ
    if degenerate or t <= 0.0 or t >= 1.0:
        # nearest an end of the core (or the core is a point): straight from that end
        dx = cx - qx
        dy = cy - qy
        dist = math.hypot(dx, dy)
        if gap_apart(dist - reach, touch):
            return False, 0.0, 0.0, 0.0, 0.0, 0.0
        if degenerate:
            if dist > 0.0:
                nx = dx / dist
                ny = dy / dist
            else:
                # coincident centres
                nx = COINCIDENT_2X
                ny = COINCIDENT_2Y
        elif dist > TOUCH_TOLERANCE * scale:
            nx = dx / dist
            ny = dy / dist
        else:
            # centre on an end of the core (to rounding, which also blurs which side of the
            # end it is): square to the core
            nx, ny = fallback_perp2(ex, ey)
            dist = nx * dx + ny * dy
    else:
        # beside the core: along its perpendicular (the side by the unit normal's dot), by
        # the distance to the nearest core point, as distance() measures it: a ball exactly
        # touching an axis-aligned wall touches (the cross product over the length read
        # 0.05000000000000001 for 0.05), and a point on a diagonal core to rounding touches
        # when its distance is 0
        length = math.hypot(ex, ey)
        px = -ey / length
        py = ex / length
        sd = px * (cx - ax) + py * (cy - ay)
        dist = math.hypot(cx - qx, cy - qy)
        if gap_apart(dist - reach, touch):
            return False, 0.0, 0.0, 0.0, 0.0, 0.0
        if sd > 0.0:
            nx = px + 0.0
            ny = py + 0.0
        elif sd < 0.0:
            nx = -px + 0.0
            ny = -py + 0.0
        else:
            # centre on the core
            nx, ny = fallback_perp2(ex, ey)
    # (a gap within the touch tolerance touches: depth 0)
    return True, nx, ny, max(reach - dist, 0.0), qx + nx * br, qy + ny * br


@kernel
def contact_circle_aabb(cx: float, cy: float, r: float, minx: float, miny: float, maxx: float,
                        maxy: float) -> tuple[bool, float, float, float, float, float]:
    """Circle against a 2D box: from outside, away from the nearest boundary point (diagonal
    at a corner); with the centre inside, out through the nearest face, by the radius plus the
    centre's distance to it. The point is that nearest boundary point."""
    qx, qy, nx, ny, inside = closest_on_aabb2(cx, cy, minx, miny, maxx, maxy)
    if inside:
        # centre inside: out through the nearest face
        return True, nx, ny, r + (qx - cx) * nx + (qy - cy) * ny, qx, qy
    d = math.hypot(cx - qx, cy - qy)
    if gap_apart(d - r, max(witness_scale(cx, cy, 0.0, minx, miny, 0.0), abs(maxx), abs(maxy),
                            r)):
        return False, 0.0, 0.0, 0.0, 0.0, 0.0
    return True, nx, ny, max(r - d, 0.0), qx, qy


@reader
def contact_circle_polygon(cx: float, cy: float, r: float, verts: np.ndarray, norms: np.ndarray
                           ) -> tuple[bool, float, float, float, float, float]:
    """Circle against a convex polygon: the separating-axis answer over the edge normals and
    the closest-corner axis. With the centre inside (or on, or within rounding of, the
    boundary), out through the nearest edge by the radius plus the centre's distance to it;
    from outside, away from the nearest boundary point. The point is the nearest boundary
    point (the centre's foot on that edge, from inside)."""
    i, s = _polygon_face_separation(verts, norms, cx, cy)
    nx = norms[i, 0]
    ny = norms[i, 1]
    if s <= 0.0:
        # centre inside (or on): out through the nearest edge
        return True, nx, ny, r - s, cx - nx * s, cy - ny * s
    scale = max(abs_max(verts), max(abs(cx), abs(cy)))
    near = TOUCH_TOLERANCE * scale
    if s <= near and _polygon_nearest(verts, cx, cy)[2] <= near:
        # a hair outside an edge (not far past a sharp corner, whose edges' lines pass near
        # the centre too): along that edge's own normal, since the direction from the nearest
        # point would be rounding noise; so close, it touches even with no radius
        return True, nx, ny, max(r - s, 0.0), cx - nx * s, cy - ny * s
    # outside: away from the nearest boundary point (an edge's, or a corner's)
    qx, qy, nx, ny, _inside = closest_on_polygon(verts, norms, cx, cy)
    d = math.hypot(cx - qx, cy - qy)
    if gap_apart(d - r, max(scale, r)):
        return False, 0.0, 0.0, 0.0, 0.0, 0.0
    return True, nx, ny, max(r - d, 0.0), qx, qy


@kernel
def contact_circle_plane(cx: float, cy: float, r: float, nx: float, ny: float, offset: float
                         ) -> tuple[bool, float, float, float, float, float]:
    """Circle against a half-plane (unit normal n): out along n by how far the circle's lowest
    point is below the boundary; the point is the centre's foot on the boundary."""
    s = nx * cx + ny * cy - offset
    depth = r - s
    if depth < 0.0:
        return False, 0.0, 0.0, 0.0, 0.0, 0.0
    return True, nx, ny, depth, cx - nx * s, cy - ny * s


# ----------------------------------------------------------------------------- 2D: capsules

@kernel
def contact_capsule_capsule(a0x: float, a0y: float, a1x: float, a1y: float, ar: float,
                            b0x: float, b0y: float, b1x: float, b1y: float, br: float
                            ) -> tuple[bool, float, float, float, float, float]:
    """Capsule a (core a0a1, radius ar) against capsule b (core b0b1, radius br); a radius of
    0 makes a segment. Cores apart: along the line between their closest points. Cores
    crossing or touching: the separating axis test over both cores' perpendiculars and
    directions (the sides and, for parallel cores, the ends of their Minkowski difference), by
    the least push plus both radii."""
    dax = a1x - a0x
    day = a1y - a0y
    dbx = b1x - b0x
    dby = b1y - b0y
    deg_a = dax * dax + day * day <= DEGENERATE_SEGMENT_SQ
    deg_b = dbx * dbx + dby * dby <= DEGENERATE_SEGMENT_SQ
    if deg_a and deg_b:
        return contact_circle_circle(a0x, a0y, ar, b0x, b0y, br)
    if deg_a:
        return contact_circle_capsule(a0x, a0y, ar, b0x, b0y, b1x, b1y, br)
    if deg_b:
        h, nx, ny, depth, px, py = contact_circle_capsule(b0x, b0y, br, a0x, a0y, a1x, a1y, ar)
        return flip_contact2(h, nx, ny, depth, px, py)
    reach = ar + br
    scale = max(max(abs(a0x), abs(a0y)), max(abs(a1x), abs(a1y)))
    scale = max(scale, max(max(abs(b0x), abs(b0y)), max(abs(b1x), abs(b1y))))
    la = math.hypot(dax, day)
    lb = math.hypot(dbx, dby)
    best_s = -_INF
    bnx = 0.0
    bny = 0.0
    best_k = 0
    for k in range(8):
        # axes 0-3 belong to a (perpendicular, direction), 4-7 to b; even k the + way
        if k < 2:
            ux, uy = -day / la, dax / la
        elif k < 4:
            ux, uy = dax / la, day / la
        elif k < 6:
            ux, uy = -dby / lb, dbx / lb
        else:
            ux, uy = dbx / lb, dby / lb
        if k % 2 == 1:
            ux, uy = -ux, -uy
        # separation along u: min over a minus max over b, from the differences of the ends
        s = min(min(ux * (a0x - b0x) + uy * (a0y - b0y), ux * (a0x - b1x) + uy * (a0y - b1y)),
                min(ux * (a1x - b0x) + uy * (a1y - b0y), ux * (a1x - b1x) + uy * (a1y - b1y)))
        if _wins2(s, ux, uy, best_s, bnx, bny):
            best_s = s
            bnx = ux
            bny = uy
            best_k = k
    if best_s > 0.0:
        pax, pay, _az, pbx, pby, _bz, d = closest_between_segments(
            a0x, a0y, 0.0, a1x, a1y, 0.0, b0x, b0y, 0.0, b1x, b1y, 0.0)
        if d > TOUCH_TOLERANCE * scale:
            # cores apart: along the line between their closest points
            if gap_apart(d - reach, max(scale, ar, br)):
                return False, 0.0, 0.0, 0.0, 0.0, 0.0
            nx = (pax - pbx) / d
            ny = (pay - pby) / d
            return True, nx, ny, max(reach - d, 0.0), pbx + nx * br, pby + ny * br
    # cores crossing or touching: the least push over the axes
    # (cores this close touch, even with no radii)
    depth = max(reach - best_s, 0.0)
    nx = bnx
    ny = bny
    if best_k < 4:
        # a's own axis: b's end that reaches furthest along n, on b's surface
        e0 = nx * b0x + ny * b0y
        e1 = nx * b1x + ny * b1y
        if e0 > e1:
            ex, ey = b0x, b0y
        elif e1 > e0:
            ex, ey = b1x, b1y
        else:
            # parallel cores: the middle of b's core over a's
            ex, ey = _middle_over2(b0x, b0y, b1x, b1y, a0x, a0y, a1x, a1y, nx, ny)
        return True, nx, ny, depth, ex + nx * br, ey + ny * br
    # b's axis: the point of b's surface facing n nearest a's deepest point
    f0 = nx * a0x + ny * a0y
    f1 = nx * a1x + ny * a1y
    if f0 < f1:
        fx, fy = a0x, a0y
    elif f1 < f0:
        fx, fy = a1x, a1y
    else:
        fx, fy = _middle_over2(a0x, a0y, a1x, a1y, b0x, b0y, b1x, b1y, nx, ny)
    if best_k < 6:
        # b's side: its core lifted by its radius
        s0x, s0y, s1x, s1y = b0x, b0y, b1x, b1y
    else:
        # b's end: the tip of its cap
        if nx * b0x + ny * b0y >= nx * b1x + ny * b1y:
            s0x, s0y = b0x, b0y
        else:
            s0x, s0y = b1x, b1y
        s1x, s1y = s0x, s0y
    qx, qy, _t = closest_on_segment2(fx - nx * ar, fy - ny * ar, s0x + nx * br, s0y + ny * br,
                                     s1x + nx * br, s1y + ny * br)
    return True, nx, ny, depth, qx, qy


@reader
def contact_capsule_polygon(a0x: float, a0y: float, a1x: float, a1y: float, r: float,
                            verts: np.ndarray, norms: np.ndarray
                            ) -> tuple[bool, float, float, float, float, float]:
    """Capsule (core a0a1, radius r; r = 0 is a segment) against a convex polygon. Core apart
    from the polygon: along the line between their closest points. Core touching or inside:
    the separating axis test over the polygon's edge normals and the core's perpendicular, by
    the least push plus the radius."""
    dax = a1x - a0x
    day = a1y - a0y
    if dax * dax + day * day <= DEGENERATE_SEGMENT_SQ:
        return contact_circle_polygon(a0x, a0y, r, verts, norms)
    n = verts.shape[0]
    scale = max(max(abs(a0x), abs(a0y)), max(abs(a1x), abs(a1y)))
    scale = max(scale, abs_max(verts))
    best_s = -_INF
    bnx = 0.0
    bny = 0.0
    best_i = 0
    from_core = False
    # the polygon's edges: the core's end least far out along the normal
    for i in range(n):
        nx = norms[i, 0]
        ny = norms[i, 1]
        s = min(nx * (a0x - verts[i, 0]) + ny * (a0y - verts[i, 1]),
                nx * (a1x - verts[i, 0]) + ny * (a1y - verts[i, 1]))
        if _wins2(s, nx, ny, best_s, bnx, bny):
            best_s = s
            bnx = nx
            bny = ny
            best_i = i
    # the core's two sides: the polygon corner reaching furthest toward the core
    la = math.hypot(dax, day)
    for k in range(2):
        nx = -day / la
        ny = dax / la
        if k == 1:
            nx, ny = -nx, -ny
        j = polygon_support(verts, nx, ny)
        s = min(nx * (a0x - verts[j, 0]) + ny * (a0y - verts[j, 1]),
                nx * (a1x - verts[j, 0]) + ny * (a1y - verts[j, 1]))
        if _wins2(s, nx, ny, best_s, bnx, bny):
            best_s = s
            bnx = nx
            bny = ny
            best_i = j
            from_core = True
    if best_s > 0.0:
        # core apart from the polygon: its ends against the polygon, the corners against it
        bd = _INF
        pax = pay = pbx = pby = 0.0
        for k in range(2):
            ex = a0x if k == 0 else a1x
            ey = a0y if k == 0 else a1y
            qx, qy, d = _polygon_nearest(verts, ex, ey)
            if d < bd:
                bd = d
                pax, pay, pbx, pby = ex, ey, qx, qy
        for j in range(n):
            vx = verts[j, 0]
            vy = verts[j, 1]
            qx, qy, _t = closest_on_segment2(vx, vy, a0x, a0y, a1x, a1y)
            d = math.hypot(qx - vx, qy - vy)
            if d < bd:
                bd = d
                pax, pay, pbx, pby = qx, qy, vx, vy
        if bd > TOUCH_TOLERANCE * scale:
            if gap_apart(bd - r, max(scale, r)):
                return False, 0.0, 0.0, 0.0, 0.0, 0.0
            return True, (pax - pbx) / bd, (pay - pby) / bd, max(r - bd, 0.0), pbx, pby
    # core touching or inside: the least push over the axes
    # (a core this close touches, even with no radius)
    depth = max(r - best_s, 0.0)
    nx = bnx
    ny = bny
    if from_core:
        # the core's side: the polygon corner reaching furthest toward it
        j = best_i
        vx = verts[j, 0]
        vy = verts[j, 1]
        top = nx * vx + ny * vy
        jn = j + 1 if j + 1 < n else 0
        jp = j - 1 if j > 0 else n - 1
        if nx * verts[jn, 0] + ny * verts[jn, 1] == top:
            # a polygon edge parallel to the core: the middle of it over the core
            vx, vy = _middle_over2(vx, vy, verts[jn, 0], verts[jn, 1], a0x, a0y, a1x, a1y,
                                   nx, ny)
        elif nx * verts[jp, 0] + ny * verts[jp, 1] == top:
            vx, vy = _middle_over2(verts[jp, 0], verts[jp, 1], vx, vy, a0x, a0y, a1x, a1y,
                                   nx, ny)
        return True, nx, ny, depth, vx, vy
    # a polygon edge: the point of that edge nearest the capsule's deepest point
    i = best_i
    i2 = i + 1 if i + 1 < n else 0
    f0 = nx * a0x + ny * a0y
    f1 = nx * a1x + ny * a1y
    if f0 < f1:
        fx, fy = a0x, a0y
    elif f1 < f0:
        fx, fy = a1x, a1y
    else:
        # the core lies parallel to the edge: the middle of it over the edge
        fx, fy = _middle_over2(a0x, a0y, a1x, a1y, verts[i, 0], verts[i, 1], verts[i2, 0],
                               verts[i2, 1], nx, ny)
    qx, qy, _t = closest_on_segment2(fx - nx * r, fy - ny * r, verts[i, 0], verts[i, 1],
                                     verts[i2, 0], verts[i2, 1])
    return True, nx, ny, depth, qx, qy


@kernel
def contact_capsule_aabb(a0x: float, a0y: float, a1x: float, a1y: float, r: float,
                         minx: float, miny: float, maxx: float, maxy: float
                         ) -> tuple[bool, float, float, float, float, float]:
    """Capsule (or segment, r = 0) against a 2D box: :func:`contact_capsule_polygon` with the
    box as a polygon."""
    verts, norms = box_arrays(minx, miny, maxx, maxy)
    return contact_capsule_polygon(a0x, a0y, a1x, a1y, r, verts, norms)


@kernel
def contact_capsule_plane(a0x: float, a0y: float, a1x: float, a1y: float, r: float,
                          nx: float, ny: float, offset: float
                          ) -> tuple[bool, float, float, float, float, float]:
    """Capsule (or segment) against a half-plane: out along n by how far the deeper end's
    surface is below the boundary; the point is that end's foot on the boundary (the core's
    middle's, when the core lies parallel to the boundary)."""
    s0 = nx * a0x + ny * a0y - offset
    s1 = nx * a1x + ny * a1y - offset
    if s0 < s1:
        fx, fy, s = a0x, a0y, s0
    elif s1 < s0:
        fx, fy, s = a1x, a1y, s1
    else:
        # the core parallel to the boundary
        fx = 0.5 * (a0x + a1x)
        fy = 0.5 * (a0y + a1y)
        s = s0
    depth = r - s
    if depth < 0.0:
        return False, 0.0, 0.0, 0.0, 0.0, 0.0
    return True, nx, ny, depth, fx - nx * s, fy - ny * s


# ----------------------------------------------------------------------------- 2D: polygons, boxes

@callee_reader
def _face_separation(vo: np.ndarray, no: np.ndarray, i: int, vx: np.ndarray
                     ) -> tuple[float, int]:
    """How far the other polygon's corners ``vx`` stay outside the owner's edge i (negative:
    they reach in), and the index of the corner that reaches furthest in."""
    nx = no[i, 0]
    ny = no[i, 1]
    ox = vo[i, 0]
    oy = vo[i, 1]
    best = _INF
    best_j = 0
    for j in range(vx.shape[0]):
        d = nx * (vx[j, 0] - ox) + ny * (vx[j, 1] - oy)
        if d < best:
            best = d
            best_j = j
    return best, best_j


@callee_reader
def polygon_reference_face(va: np.ndarray, na: np.ndarray, vb: np.ndarray, nb: np.ndarray
                           ) -> tuple[bool, float, float, float, int, int, bool]:
    """The separating axis test of convex polygon a against b over both polygons' edge
    normals: ``(apart, separation, nx, ny, face, corner, on_b)``.

    ``apart`` when some edge separates them by more than ``TOUCH_TOLERANCE`` of the
    coordinates (touching counts: a separation within rounding is a touch). Otherwise the
    reference face is the edge of least penetration (ties by :func:`_wins2`): ``face`` indexes
    it in b (``on_b``) or in a, ``(nx, ny)`` is the direction to move a out along it (b's
    outward normal, or a's inward one), ``separation`` its (negative or ~0) separation and
    ``corner`` the other polygon's deepest corner against it.
    """
    touch = TOUCH_TOLERANCE * max(abs_max(va), abs_max(vb))
    best_s = -_INF
    bnx = 0.0
    bny = 0.0
    best_i = 0
    best_j = 0
    ref_b = True
    # b's edges: a moves out along b's outward normal
    for i in range(vb.shape[0]):
        s, j = _face_separation(vb, nb, i, va)
        if s > touch:
            # separating axis
            return True, s, 0.0, 0.0, 0, 0, True
        if _wins2(s, nb[i, 0], nb[i, 1], best_s, bnx, bny):
            best_s = s
            bnx = nb[i, 0]
            bny = nb[i, 1]
            best_i = i
            best_j = j
            ref_b = True
    # a's edges: a moves back against its own outward normal
    for i in range(va.shape[0]):
        s, j = _face_separation(va, na, i, vb)
        if s > touch:
            return True, s, 0.0, 0.0, 0, 0, False
        if _wins2(s, -na[i, 0], -na[i, 1], best_s, bnx, bny):
            best_s = s
            bnx = -na[i, 0]
            bny = -na[i, 1]
            best_i = i
            best_j = j
            ref_b = False
    return False, best_s, bnx, bny, best_i, best_j, ref_b


@reader
def contact_polygon_polygon(va: np.ndarray, na: np.ndarray, vb: np.ndarray, nb: np.ndarray
                            ) -> tuple[bool, float, float, float, float, float]:
    """Convex polygon a against convex polygon b, by the separating axis test over both
    polygons' edge normals: the minimum translation vector.

    The edge with the least penetration is the reference face. If it is b's, the normal is its
    outward normal and the point is a's deepest corner carried out onto that edge; if it is
    a's, the normal is its inward normal and the point is b's deepest corner (b's corner inside
    a). Where the deepest part is a whole edge parallel to the reference face, the corner is
    replaced by the middle of that edge's part over the face.
    """
    apart, best_s, bnx, bny, best_i, best_j, ref_b = polygon_reference_face(va, na, vb, nb)
    if apart:
        return False, 0.0, 0.0, 0.0, 0.0, 0.0
    # touching (or apart by rounding): depth +0.0
    depth = 0.0 - best_s if best_s < 0.0 else 0.0
    nx = bnx
    ny = bny
    if ref_b:
        ref = vb
        inc = va
    else:
        ref = va
        inc = vb
    # the incident polygon's deepest corner, or the middle of its deepest edge over the face
    m = inc.shape[0]
    j = best_j
    jn = j + 1 if j + 1 < m else 0
    jp = j - 1 if j > 0 else m - 1
    ix = inc[j, 0]
    iy = inc[j, 1]
    level = nx * ix + ny * iy
    i = best_i
    i2 = i + 1 if i + 1 < ref.shape[0] else 0
    if nx * inc[jn, 0] + ny * inc[jn, 1] == level:
        # parallel edges
        ix, iy = _middle_over2(ix, iy, inc[jn, 0], inc[jn, 1], ref[i, 0], ref[i, 1],
                               ref[i2, 0], ref[i2, 1], nx, ny)
    elif nx * inc[jp, 0] + ny * inc[jp, 1] == level:
        ix, iy = _middle_over2(inc[jp, 0], inc[jp, 1], ix, iy, ref[i, 0], ref[i, 1],
                               ref[i2, 0], ref[i2, 1], nx, ny)
    if ref_b:
        # the point of b's edge nearest a's deepest corner
        qx, qy, _t = closest_on_segment2(ix, iy, ref[i, 0], ref[i, 1], ref[i2, 0], ref[i2, 1])
        return True, nx, ny, depth, qx, qy
    return True, nx, ny, depth, ix, iy


@kernel
def contact_aabb_polygon(minx: float, miny: float, maxx: float, maxy: float,
                         verts: np.ndarray, norms: np.ndarray
                         ) -> tuple[bool, float, float, float, float, float]:
    """A 2D box against a convex polygon: :func:`contact_polygon_polygon` with the box as a
    polygon."""
    bv, bn = box_arrays(minx, miny, maxx, maxy)
    return contact_polygon_polygon(bv, bn, verts, norms)


@kernel
def aabb_axis_overlaps(aminx: float, aminy: float, amaxx: float, amaxy: float, bminx: float,
                       bminy: float, bmaxx: float, bmaxy: float) -> tuple[float, float]:
    """How deep two 2D boxes overlap on each axis: the shorter of the two pushes that clear
    that axis (negative where the axis is already clear, by the gap)."""
    return (min(amaxx - bminx, bmaxx - aminx), min(amaxy - bminy, bmaxy - aminy))


@kernel
def aabb_axis_overlaps3(aminx: float, aminy: float, aminz: float, amaxx: float, amaxy: float,
                        amaxz: float, bminx: float, bminy: float, bminz: float, bmaxx: float,
                        bmaxy: float, bmaxz: float) -> tuple[float, float, float]:
    """The 3D counterpart of :func:`aabb_axis_overlaps`."""
    return (min(amaxx - bminx, bmaxx - aminx), min(amaxy - bminy, bmaxy - aminy),
            min(amaxz - bminz, bmaxz - aminz))


@callee
def _box_push(amin: float, amax: float, bmin: float, bmax: float) -> float:
    """Which way box a leaves box b along one axis: +1 or -1, the shorter push; +1 when the
    two pushes tie (a centred on b along the axis, like coincident centres)."""
    if amax - bmin < bmax - amin:
        return -1.0
    return 1.0


@callee
def _boxes_apart(gx: float, gy: float, gz: float, aminx: float, aminy: float, aminz: float,
                 amaxx: float, amaxy: float, amaxz: float, bminx: float, bminy: float,
                 bminz: float, bmaxx: float, bmaxy: float, bmaxz: float) -> bool:
    """Whether two boxes with gaps g on the axes (0 where they overlap) are apart by more than
    the touch tolerance of their coordinates (2D callers pass 0 for z)."""
    scale = max(witness_scale(aminx, aminy, aminz, amaxx, amaxy, amaxz),
                witness_scale(bminx, bminy, bminz, bmaxx, bmaxy, bmaxz))
    return gap_apart(math.hypot(math.hypot(gx, gy), gz), scale)


@kernel
def contact_aabb_aabb(aminx: float, aminy: float, amaxx: float, amaxy: float, bminx: float,
                      bminy: float, bmaxx: float, bmaxy: float
                      ) -> tuple[bool, float, float, float, float, float]:
    """2D box a against box b: out along the shallowest axis (x on a tie), the shorter way. The
    point is on b's face, at the middle of the boxes' overlap along the other axis."""
    ox, oy = aabb_axis_overlaps(aminx, aminy, amaxx, amaxy, bminx, bminy, bmaxx, bmaxy)
    if (ox < 0.0 or oy < 0.0) and _boxes_apart(max(-ox, 0.0), max(-oy, 0.0), 0.0, aminx, aminy,
                                                0.0, amaxx, amaxy, 0.0, bminx, bminy, 0.0,
                                                bmaxx, bmaxy, 0.0):
        return False, 0.0, 0.0, 0.0, 0.0, 0.0
    # (a gap within the touch tolerance touches: depth 0)
    if ox <= oy:
        sx = _box_push(aminx, amaxx, bminx, bmaxx)
        py = 0.5 * (max(aminy, bminy) + min(amaxy, bmaxy))
        return True, sx, 0.0, max(ox, 0.0), bmaxx if sx > 0.0 else bminx, py
    sy = _box_push(aminy, amaxy, bminy, bmaxy)
    px = 0.5 * (max(aminx, bminx) + min(amaxx, bmaxx))
    return True, 0.0, sy, max(oy, 0.0), px, bmaxy if sy > 0.0 else bminy


@kernel
def contact_polygon_plane(verts: np.ndarray, nx: float, ny: float, offset: float
                          ) -> tuple[bool, float, float, float, float, float]:
    """Convex polygon against a half-plane: out along n by how far its deepest corner is below
    the boundary; the point is that corner's foot (the middle of its edge's, when an edge lies
    parallel to the boundary)."""
    n = verts.shape[0]
    j = polygon_support(verts, -nx, -ny)
    fx = verts[j, 0]
    fy = verts[j, 1]
    low = nx * fx + ny * fy
    jn = j + 1 if j + 1 < n else 0
    jp = j - 1 if j > 0 else n - 1
    if nx * verts[jn, 0] + ny * verts[jn, 1] == low:
        # an edge parallel to the boundary
        fx = 0.5 * (fx + verts[jn, 0])
        fy = 0.5 * (fy + verts[jn, 1])
    elif nx * verts[jp, 0] + ny * verts[jp, 1] == low:
        fx = 0.5 * (fx + verts[jp, 0])
        fy = 0.5 * (fy + verts[jp, 1])
    s = low - offset
    if s > 0.0:
        return False, 0.0, 0.0, 0.0, 0.0, 0.0
    return True, nx, ny, 0.0 - s, fx - nx * s, fy - ny * s


@callee
def _deepest_coord(lo: float, hi: float, n: float) -> float:
    """A box's coordinate deepest against normal component n: lo for n > 0, hi for n < 0, the
    middle when the face is square to the boundary (n = 0)."""
    if n > 0.0:
        return lo
    if n < 0.0:
        return hi
    return 0.5 * (lo + hi)


@kernel
def contact_aabb_plane(minx: float, miny: float, maxx: float, maxy: float, nx: float,
                       ny: float, offset: float
                       ) -> tuple[bool, float, float, float, float, float]:
    """2D box against a half-plane: out along n by how far its deepest corner is below the
    boundary; the point is that corner's foot (the middle of the edge's, for an edge parallel
    to the boundary)."""
    fx = _deepest_coord(minx, maxx, nx)
    fy = _deepest_coord(miny, maxy, ny)
    s = nx * fx + ny * fy - offset
    if s > 0.0:
        return False, 0.0, 0.0, 0.0, 0.0, 0.0
    return True, nx, ny, 0.0 - s, fx - nx * s, fy - ny * s


# ----------------------------------------------------------------------------- 3D

@kernel
def contact_sphere_sphere(ax: float, ay: float, az: float, ar: float, bx: float, by: float,
                          bz: float, br: float
                          ) -> tuple[bool, float, float, float, float, float, float, float]:
    """Sphere a against sphere b: from b's centre to a's; the point is on b's surface."""
    dx = ax - bx
    dy = ay - by
    dz = az - bz
    d = math.sqrt(dx * dx + dy * dy + dz * dz)
    reach = ar + br
    if gap_apart(d - reach, max(witness_scale(ax, ay, az, bx, by, bz), ar, br)):
        return False, 0.0, 0.0, 0.0, 0.0, 0.0, 0.0, 0.0
    if d > 0.0:
        nx = dx / d
        ny = dy / d
        nz = dz / d
    else:
        # coincident centres
        nx = COINCIDENT_3X
        ny = COINCIDENT_3Y
        nz = COINCIDENT_3Z
    # (a gap within the touch tolerance touches: depth 0)
    return True, nx, ny, nz, max(reach - d, 0.0), bx + nx * br, by + ny * br, bz + nz * br


@kernel
def contact_sphere_capsule(cx: float, cy: float, cz: float, cr: float, ax: float, ay: float,
                           az: float, bx: float, by: float, bz: float, br: float
                           ) -> tuple[bool, float, float, float, float, float, float, float]:
    """Sphere against a 3D capsule (core ab, radius br): out along the line from the nearest
    core point to the centre; a centre on the core leaves along :func:`fallback_perp3`."""
    ex = bx - ax
    ey = by - ay
    ez = bz - az
    reach = cr + br
    qx, qy, qz, t = closest_on_segment3(cx, cy, cz, ax, ay, az, bx, by, bz)
    ee = ex * ex + ey * ey + ez * ez
    degenerate = ee <= DEGENERATE_SEGMENT_SQ
    if degenerate or t <= 0.0 or t >= 1.0:
        # nearest an end of the core (or the core is a point)
        dx = cx - qx
        dy = cy - qy
        dz = cz - qz
    else:
        # beside the core: the part of (c - a) square to it (taken twice, for the digits)
        dx = cx - ax
        dy = cy - ay
        dz = cz - az
        for _ in range(2):
            k = (dx * ex + dy * ey + dz * ez) / ee
            dx -= k * ex
            dy -= k * ey
            dz -= k * ez
    dist = math.sqrt(dx * dx + dy * dy + dz * dz)
    scale = max(max(abs(cx), abs(cy), abs(cz)),
                max(max(abs(ax), abs(ay), abs(az)), max(abs(bx), abs(by), abs(bz))))
    if gap_apart(dist - reach, max(scale, cr, br)):
        return False, 0.0, 0.0, 0.0, 0.0, 0.0, 0.0, 0.0
    if degenerate:
        if dist > 0.0:
            nx = dx / dist
            ny = dy / dist
            nz = dz / dist
        else:
            # coincident centres
            nx, ny, nz = COINCIDENT_3X, COINCIDENT_3Y, COINCIDENT_3Z
    elif dist > TOUCH_TOLERANCE * scale:
        nx = dx / dist
        ny = dy / dist
        nz = dz / dist
    else:
        # centre on the core to rounding (where the part square to the core is all noise, and
        # which side of an end the centre is, too): square to the core, nearest +x
        nx, ny, nz = fallback_perp3(ex, ey, ez)
        dist = nx * dx + ny * dy + nz * dz
    # (a gap within the touch tolerance touches: depth 0)
    return (True, nx, ny, nz, max(reach - dist, 0.0), qx + nx * br, qy + ny * br, qz + nz * br)


@kernel
def contact_sphere_aabb(cx: float, cy: float, cz: float, r: float, minx: float, miny: float,
                        minz: float, maxx: float, maxy: float, maxz: float
                        ) -> tuple[bool, float, float, float, float, float, float, float]:
    """Sphere against a 3D box: from outside, away from the nearest boundary point; with the
    centre inside, out through the nearest face (see :func:`contact_circle_aabb`)."""
    qx, qy, qz, nx, ny, nz, inside = closest_on_aabb3(cx, cy, cz, minx, miny, minz, maxx, maxy,
                                                      maxz)
    if inside:
        # centre inside: out through the nearest face
        depth = r + (qx - cx) * nx + (qy - cy) * ny + (qz - cz) * nz
        return True, nx, ny, nz, depth, qx, qy, qz
    d = math.sqrt((cx - qx) ** 2 + (cy - qy) ** 2 + (cz - qz) ** 2)
    if gap_apart(d - r, max(witness_scale(cx, cy, cz, minx, miny, minz),
                            witness_scale(maxx, maxy, maxz, 0.0, 0.0, 0.0), r)):
        return False, 0.0, 0.0, 0.0, 0.0, 0.0, 0.0, 0.0
    return True, nx, ny, nz, max(r - d, 0.0), qx, qy, qz


@kernel
def contact_sphere_plane(cx: float, cy: float, cz: float, r: float, nx: float, ny: float,
                         nz: float, offset: float
                         ) -> tuple[bool, float, float, float, float, float, float, float]:
    """Sphere against a half-space: out along n; the point is the centre's foot."""
    s = nx * cx + ny * cy + nz * cz - offset
    depth = r - s
    if depth < 0.0:
        return False, 0.0, 0.0, 0.0, 0.0, 0.0, 0.0, 0.0
    return True, nx, ny, nz, depth, cx - nx * s, cy - ny * s, cz - nz * s


@kernel
def contact_capsule_capsule3(a0x: float, a0y: float, a0z: float, a1x: float, a1y: float,
                             a1z: float, ar: float, b0x: float, b0y: float, b0z: float,
                             b1x: float, b1y: float, b1z: float, br: float
                             ) -> tuple[bool, float, float, float, float, float, float, float]:
    """3D capsule a against capsule b: along the line between the cores' closest points. Cores
    that touch or cross leave square to both cores (along their cross product), by both radii;
    parallel ones along :func:`fallback_perp3` of a's core."""
    dax = a1x - a0x
    day = a1y - a0y
    daz = a1z - a0z
    dbx = b1x - b0x
    dby = b1y - b0y
    dbz = b1z - b0z
    ea = dax * dax + day * day + daz * daz
    eb = dbx * dbx + dby * dby + dbz * dbz
    deg_a = ea <= DEGENERATE_SEGMENT_SQ
    deg_b = eb <= DEGENERATE_SEGMENT_SQ
    if deg_a and deg_b:
        return contact_sphere_sphere(a0x, a0y, a0z, ar, b0x, b0y, b0z, br)
    if deg_a:
        return contact_sphere_capsule(a0x, a0y, a0z, ar, b0x, b0y, b0z, b1x, b1y, b1z, br)
    if deg_b:
        h, nx, ny, nz, depth, px, py, pz = contact_sphere_capsule(
            b0x, b0y, b0z, br, a0x, a0y, a0z, a1x, a1y, a1z, ar)
        return flip_contact3(h, nx, ny, nz, depth, px, py, pz)
    reach = ar + br
    pax, pay, paz, pbx, pby, pbz, d = closest_between_segments(
        a0x, a0y, a0z, a1x, a1y, a1z, b0x, b0y, b0z, b1x, b1y, b1z)
    dx = pax - pbx
    dy = pay - pby
    dz = paz - pbz
    scale = max(max(abs(a0x), abs(a0y), abs(a0z)), max(abs(a1x), abs(a1y), abs(a1z)))
    scale = max(scale, max(max(abs(b0x), abs(b0y), abs(b0z)), max(abs(b1x), abs(b1y),
                                                                   abs(b1z))))
    if d > TOUCH_TOLERANCE * scale:
        if gap_apart(d - reach, max(scale, ar, br)):
            return False, 0.0, 0.0, 0.0, 0.0, 0.0, 0.0, 0.0
        dl = math.sqrt(dx * dx + dy * dy + dz * dz)
        nx = dx / dl
        ny = dy / dl
        nz = dz / dl
    else:
        # cores touching or crossing: the separating axis test over the directions square to
        # both cores (their cross product w), square to a's core within their plane, and the
        # fallback perpendiculars (parallel cores): the least push
        wx = day * dbz - daz * dby
        wy = daz * dbx - dax * dbz
        wz = dax * dby - day * dbx
        w = math.sqrt(wx * wx + wy * wy + wz * wz)
        best_s = -_INF
        nx = ny = nz = 0.0
        for k in range(8):
            if k < 4 and w == 0.0:
                # parallel cores: no plane between them
                continue
            if k < 2:
                ux, uy, uz = wx / w, wy / w, wz / w
            elif k < 4:
                # square to a within the cores' plane: w x da
                ux = wy * daz - wz * day
                uy = wz * dax - wx * daz
                uz = wx * day - wy * dax
                u = math.sqrt(ux * ux + uy * uy + uz * uz)
                if u == 0.0:
                    continue
                ux, uy, uz = ux / u, uy / u, uz / u
            elif k < 6:
                ux, uy, uz = fallback_perp3(dax, day, daz)
            else:
                ux, uy, uz = fallback_perp3(dbx, dby, dbz)
            if k % 2 == 1:
                ux, uy, uz = -ux, -uy, -uz
            sep = min(min(ux * (a0x - b0x) + uy * (a0y - b0y) + uz * (a0z - b0z),
                          ux * (a0x - b1x) + uy * (a0y - b1y) + uz * (a0z - b1z)),
                      min(ux * (a1x - b0x) + uy * (a1y - b0y) + uz * (a1z - b0z),
                          ux * (a1x - b1x) + uy * (a1y - b1y) + uz * (a1z - b1z)))
            if _wins3(sep, ux, uy, uz, best_s, nx, ny, nz):
                best_s = sep
                nx, ny, nz = ux, uy, uz
        # cores this close touch, even with no radius
        d = min(best_s, reach)
    # (a gap within the touch tolerance touches: depth 0)
    return (True, nx, ny, nz, max(reach - d, 0.0), pbx + nx * br, pby + ny * br,
            pbz + nz * br)


@callee
def _box_support_offset(nx: float, ny: float, nz: float, hx: float, hy: float, hz: float
                        ) -> float:
    """How far a box with half-extents h reaches from its centre along n."""
    return abs(nx) * hx + abs(ny) * hy + abs(nz) * hz


@callee
def _capsule_box_axes3(a0x: float, a0y: float, a0z: float, a1x: float, a1y: float, a1z: float,
                       cx: float, cy: float, cz: float, hx: float, hy: float, hz: float
                       ) -> tuple[float, float, float, float, int]:
    """The separating axis test of a core a0a1 against a box (centre c, half extents h): the
    axis of greatest separation over the box's axes and the core crossed with them, each both
    ways, as (separation, nx, ny, nz, k); k < 6 a box axis, else a cross."""
    dax = a1x - a0x
    day = a1y - a0y
    daz = a1z - a0z
    la = math.sqrt(dax * dax + day * day + daz * daz)
    best_s = -_INF
    bnx = 0.0
    bny = 0.0
    bnz = 0.0
    best_k = 0
    for k in range(12):
        # k < 6: the box's axes (x, y, z, each both ways); k >= 6: the core crossed with them
        axis = (k // 2) % 3
        ex = 1.0 if axis == 0 else 0.0
        ey = 1.0 if axis == 1 else 0.0
        ez = 1.0 if axis == 2 else 0.0
        if k < 6:
            ux, uy, uz = ex, ey, ez
        else:
            ux = day * ez - daz * ey
            uy = daz * ex - dax * ez
            uz = dax * ey - day * ex
            w = math.sqrt(ux * ux + uy * uy + uz * uz)
            if w <= AXIS_PARALLEL_SINE * la:
                # the core runs along this box axis: no new axis
                continue
            ux /= w
            uy /= w
            uz /= w
        if k % 2 == 1:
            ux, uy, uz = -ux, -uy, -uz
        s = min(ux * (a0x - cx) + uy * (a0y - cy) + uz * (a0z - cz),
                ux * (a1x - cx) + uy * (a1y - cy) + uz * (a1z - cz))
        s -= _box_support_offset(ux, uy, uz, hx, hy, hz)
        if _wins3(s, ux, uy, uz, best_s, bnx, bny, bnz):
            best_s = s
            bnx, bny, bnz = ux, uy, uz
            best_k = k
    return best_s, bnx, bny, bnz, best_k


@callee
def _core_box_closest3(a0x: float, a0y: float, a0z: float, a1x: float, a1y: float, a1z: float,
                       minx: float, miny: float, minz: float, maxx: float, maxy: float,
                       maxz: float) -> tuple[float, float, float, float, float, float, float]:
    """The closest points of a core a0a1 apart from a box, and their distance, as (distance,
    point on the core, point on the box): the core's ends against the box, the box's 12 edges
    against the core."""
    bd = _INF
    pax = pay = paz = pbx = pby = pbz = 0.0
    for k in range(2):
        ex = a0x if k == 0 else a1x
        ey = a0y if k == 0 else a1y
        ez = a0z if k == 0 else a1z
        qx, qy, qz, _nx, _ny, _nz, _inside = closest_on_aabb3(ex, ey, ez, minx, miny, minz,
                                                              maxx, maxy, maxz)
        d = math.sqrt((ex - qx) ** 2 + (ey - qy) ** 2 + (ez - qz) ** 2)
        if d < bd:
            bd = d
            pax, pay, paz, pbx, pby, pbz = ex, ey, ez, qx, qy, qz
    for k in range(12):
        # the edge along axis k // 4, at the min or max of each of the other two axes
        axis = k // 4
        lo1 = (k & 1) == 0
        lo2 = (k & 2) == 0
        if axis == 0:
            sx, sy, sz = minx, miny if lo1 else maxy, minz if lo2 else maxz
            gx, gy, gz = maxx - minx, 0.0, 0.0
        elif axis == 1:
            sx, sy, sz = minx if lo1 else maxx, miny, minz if lo2 else maxz
            gx, gy, gz = 0.0, maxy - miny, 0.0
        else:
            sx, sy, sz = minx if lo1 else maxx, miny if lo2 else maxy, minz
            gx, gy, gz = 0.0, 0.0, maxz - minz
        qax, qay, qaz, qbx, qby, qbz, d = closest_between_segments(
            a0x, a0y, a0z, a1x, a1y, a1z, sx, sy, sz, sx + gx, sy + gy, sz + gz)
        if d < bd:
            bd = d
            pax, pay, paz, pbx, pby, pbz = qax, qay, qaz, qbx, qby, qbz
    return bd, pax, pay, paz, pbx, pby, pbz


@callee
def _core_face_point3(core: tuple[float, float, float, float, float, float], r: float,
                      axis_face: int, nx: float, ny: float, nz: float,
                      box: tuple[float, float, float, float, float, float]
                      ) -> tuple[float, float, float]:
    """The point of the box face on ``axis_face`` with outward normal n nearest the deepest
    point of a capsule (``core`` (a0x, a0y, a0z, a1x, a1y, a1z), radius r) pushed out along
    n: from the core's deepest end, or the middle of the core's part over the face when the
    core lies parallel to it (``box`` is (minx, miny, minz, maxx, maxy, maxz))."""
    a0x, a0y, a0z, a1x, a1y, a1z = core
    minx, miny, minz, maxx, maxy, maxz = box
    dax = a1x - a0x
    day = a1y - a0y
    daz = a1z - a0z
    f0 = nx * a0x + ny * a0y + nz * a0z
    f1 = nx * a1x + ny * a1y + nz * a1z
    if f0 < f1:
        lam = 0.0
    elif f1 < f0:
        lam = 1.0
    else:
        # parallel to the face: clip the core to the face's extent on the two other axes
        lo = 0.0
        hi = 1.0
        for j in range(3):
            if j == axis_face:
                continue
            if j == 0:
                p0, dp, bl, bh = a0x, dax, minx, maxx
            elif j == 1:
                p0, dp, bl, bh = a0y, day, miny, maxy
            else:
                p0, dp, bl, bh = a0z, daz, minz, maxz
            if dp != 0.0:
                t0 = (bl - p0) / dp
                t1 = (bh - p0) / dp
                lo = max(lo, min(t0, t1))
                hi = min(hi, max(t0, t1))
        lam = 0.5 * (lo + hi) if lo <= hi else 0.5
    fx = min(max(a0x + lam * dax - nx * r, minx), maxx)
    fy = min(max(a0y + lam * day - ny * r, miny), maxy)
    fz = min(max(a0z + lam * daz - nz * r, minz), maxz)
    if axis_face == 0:
        fx = maxx if nx > 0.0 else minx
    elif axis_face == 1:
        fy = maxy if ny > 0.0 else miny
    else:
        fz = maxz if nz > 0.0 else minz
    return fx, fy, fz


@kernel
def contact_capsule_aabb3(a0x: float, a0y: float, a0z: float, a1x: float, a1y: float,
                          a1z: float, r: float, minx: float, miny: float, minz: float,
                          maxx: float, maxy: float, maxz: float
                          ) -> tuple[bool, float, float, float, float, float, float, float]:
    """3D capsule (core a0a1, radius r) against a 3D box. Core apart from the box: along the
    line between their closest points (core ends against the box, core against its 12 edges).
    Core touching or inside: the separating axis test over the box's axes and the core's
    cross products with them (the faces of their Minkowski sum), by the least push plus r."""
    dax = a1x - a0x
    day = a1y - a0y
    daz = a1z - a0z
    ea = dax * dax + day * day + daz * daz
    if ea <= DEGENERATE_SEGMENT_SQ:
        return contact_sphere_aabb(a0x, a0y, a0z, r, minx, miny, minz, maxx, maxy, maxz)
    scale = max(max(abs(a0x), abs(a0y), abs(a0z)), max(abs(a1x), abs(a1y), abs(a1z)))
    scale = max(scale, max(max(abs(minx), abs(miny), abs(minz)),
                           max(abs(maxx), abs(maxy), abs(maxz))))
    best_s, nx, ny, nz, best_k = _capsule_box_axes3(
        a0x, a0y, a0z, a1x, a1y, a1z, 0.5 * (minx + maxx), 0.5 * (miny + maxy),
        0.5 * (minz + maxz), 0.5 * (maxx - minx), 0.5 * (maxy - miny), 0.5 * (maxz - minz))
    if best_s > 0.0:
        # core apart from the box
        bd, pax, pay, paz, pbx, pby, pbz = _core_box_closest3(a0x, a0y, a0z, a1x, a1y, a1z,
                                                              minx, miny, minz, maxx, maxy,
                                                              maxz)
        if bd > TOUCH_TOLERANCE * scale:
            if gap_apart(bd - r, max(scale, r)):
                return False, 0.0, 0.0, 0.0, 0.0, 0.0, 0.0, 0.0
            return (True, (pax - pbx) / bd, (pay - pby) / bd, (paz - pbz) / bd,
                    max(r - bd, 0.0), pbx, pby, pbz)
    # core touching or inside: the least push over the axes
    # (a core this close touches, even with no radius)
    depth = max(r - best_s, 0.0)
    if best_k < 6:
        # a box face
        fx, fy, fz = _core_face_point3((a0x, a0y, a0z, a1x, a1y, a1z), r, best_k // 2, nx, ny,
                                       nz, (minx, miny, minz, maxx, maxy, maxz))
        return True, nx, ny, nz, depth, fx, fy, fz
    # the core crossed with a box axis: the box edge reaching furthest along n, at its point
    # nearest the core
    axis = (best_k // 2) % 3
    sx = _deepest_coord(minx, maxx, -nx)
    sy = _deepest_coord(miny, maxy, -ny)
    sz = _deepest_coord(minz, maxz, -nz)
    gx = gy = gz = 0.0
    if axis == 0:
        sx = minx
        gx = maxx - minx
    elif axis == 1:
        sy = miny
        gy = maxy - miny
    else:
        sz = minz
        gz = maxz - minz
    _ax, _ay, _az, qx, qy, qz, _d = closest_between_segments(
        a0x, a0y, a0z, a1x, a1y, a1z, sx, sy, sz, sx + gx, sy + gy, sz + gz)
    return True, nx, ny, nz, depth, qx, qy, qz

@kernel
def contact_capsule_plane3(a0x: float, a0y: float, a0z: float, a1x: float, a1y: float,
                           a1z: float, r: float, nx: float, ny: float, nz: float,
                           offset: float
                           ) -> tuple[bool, float, float, float, float, float, float, float]:
    """3D capsule against a half-space (see :func:`contact_capsule_plane`)."""
    s0 = nx * a0x + ny * a0y + nz * a0z - offset
    s1 = nx * a1x + ny * a1y + nz * a1z - offset
    if s0 < s1:
        fx, fy, fz, s = a0x, a0y, a0z, s0
    elif s1 < s0:
        fx, fy, fz, s = a1x, a1y, a1z, s1
    else:
        # the core parallel to the boundary
        fx = 0.5 * (a0x + a1x)
        fy = 0.5 * (a0y + a1y)
        fz = 0.5 * (a0z + a1z)
        s = s0
    depth = r - s
    if depth < 0.0:
        return False, 0.0, 0.0, 0.0, 0.0, 0.0, 0.0, 0.0
    return True, nx, ny, nz, depth, fx - nx * s, fy - ny * s, fz - nz * s


@kernel
def contact_aabb_aabb3(aminx: float, aminy: float, aminz: float, amaxx: float, amaxy: float,
                       amaxz: float, bminx: float, bminy: float, bminz: float, bmaxx: float,
                       bmaxy: float, bmaxz: float
                       ) -> tuple[bool, float, float, float, float, float, float, float]:
    """3D box a against box b: out along the shallowest axis (x, then y, on ties), the shorter
    way (seed 002's minimum translation vector). The point is on b's face, at the middle of
    the boxes' overlap on the other two axes."""
    ox, oy, oz = aabb_axis_overlaps3(aminx, aminy, aminz, amaxx, amaxy, amaxz, bminx, bminy,
                                     bminz, bmaxx, bmaxy, bmaxz)
    if (ox < 0.0 or oy < 0.0 or oz < 0.0) and _boxes_apart(
            max(-ox, 0.0), max(-oy, 0.0), max(-oz, 0.0), aminx, aminy, aminz, amaxx, amaxy,
            amaxz, bminx, bminy, bminz, bmaxx, bmaxy, bmaxz):
        return False, 0.0, 0.0, 0.0, 0.0, 0.0, 0.0, 0.0
    mx = 0.5 * (max(aminx, bminx) + min(amaxx, bmaxx))
    my = 0.5 * (max(aminy, bminy) + min(amaxy, bmaxy))
    mz = 0.5 * (max(aminz, bminz) + min(amaxz, bmaxz))
    # (a gap within the touch tolerance touches: depth 0)
    if ox <= oy and ox <= oz:
        sx = _box_push(aminx, amaxx, bminx, bmaxx)
        return True, sx, 0.0, 0.0, max(ox, 0.0), bmaxx if sx > 0.0 else bminx, my, mz
    if oy <= oz:
        sy = _box_push(aminy, amaxy, bminy, bmaxy)
        return True, 0.0, sy, 0.0, max(oy, 0.0), mx, bmaxy if sy > 0.0 else bminy, mz
    sz = _box_push(aminz, amaxz, bminz, bmaxz)
    return True, 0.0, 0.0, sz, max(oz, 0.0), mx, my, bmaxz if sz > 0.0 else bminz


@kernel
def contact_aabb_plane3(minx: float, miny: float, minz: float, maxx: float, maxy: float,
                        maxz: float, nx: float, ny: float, nz: float, offset: float
                        ) -> tuple[bool, float, float, float, float, float, float, float]:
    """3D box against a half-space: out along n by how far its deepest corner is below the
    boundary; the point is that corner's foot (the middle of a deepest edge or face's)."""
    fx = _deepest_coord(minx, maxx, nx)
    fy = _deepest_coord(miny, maxy, ny)
    fz = _deepest_coord(minz, maxz, nz)
    s = nx * fx + ny * fy + nz * fz - offset
    if s > 0.0:
        return False, 0.0, 0.0, 0.0, 0.0, 0.0, 0.0, 0.0
    return True, nx, ny, nz, 0.0 - s, fx - nx * s, fy - ny * s, fz - nz * s
