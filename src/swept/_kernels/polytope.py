"""Convex polytopes in 3D (convex hulls; boxes, turned or not, when paired with a hull or with
each other): ray casts, the sphere cast, contact and closest point.

A polytope is given by its planes, ``normals`` (f, 3) outward unit normals and ``offsets``
(f,), the solid being where ``dot(normals[k], p) <= offsets[k]`` for every face ``k``, and
by its corners ``verts`` (n, 3) for the queries that need them. A contact's shapes are *cores*
grown by a radius (the Box2D approach, as in :mod:`swept._kernels.distance`): a sphere is its
centre, a capsule its axis, a box or hull its corners; each core also brings its face normals
(none for a point or a segment) and its distinct edge directions (a segment's own, none for
a point), from which the separating axes are built.

Degenerate cases and tolerances, decided once:

- **Ray, parallel to a face.** A ray square to a face's normal (``dot(n, d) == 0``) is inside
  that face's slab always or never: no division, no NaN. A ray along a face (on its plane)
  touches, and touching counts.
- **Ray, starting inside or on the hull** hits at 0 with the normal of the face nearest the
  origin (the boundary point nearest an inner point lies on the nearest face's plane). At an
  edge or corner entered from outside, the entered face is the first in the hull's order.
- **Sphere cast (a ray against the hull grown by r)**: faces moved out by ``r``, edges as
  cylinders, corners as spheres (the capsules of :func:`~swept._kernels.ray.ray_capsule3`
  around each edge); a face hit counts when its foot on the face lies within ``eps`` (the
  hull's build band) of every other face's plane, and an edge's capsule answers otherwise, at
  the same ``t`` where they meet. All closed forms: exact to rounding.
- **Contact.** Cores apart (GJK, to :data:`~swept.constants.GJK_TOLERANCE` of the distance):
  along the line between their nearest points, depth ``ra + rb - distance``. Cores touching
  or overlapping: the separating axis test over the second shape's face normals, then the
  first's, then the cross products of their edge directions (skipped when nearly parallel,
  :data:`~swept.constants.AXIS_PARALLEL_SINE`); the least push wins (the first on a tie), plus
  both radii. Exact for polytopes. The point is the middle of the first core's deepest feature
  (points within :data:`~swept.constants.POLYTOPE_FEATURE_TOLERANCE` of its extent of the
  deepest) pushed out by the depth, on the second shape's support plane.
"""

from __future__ import annotations

import math

import numpy as np

from ..constants import AXIS_PARALLEL_SINE, POLYTOPE_FEATURE_TOLERANCE
from . import callee_reader, reader
from .distance import GJK_CACHE_SIZE, GJK_OVERLAPPED, gjk_distance
from .geom import abs_max, gap_apart
from .ray import MISS, ray_capsule3

_INF = math.inf


@reader
def ray_hull_face_x(ox: float, oy: float, oz: float, dx: float, dy: float, dz: float,
                    normals: np.ndarray, offsets: np.ndarray, max_distance: float
                    ) -> tuple[float, int, bool, float]:
    """Ray vs solid convex hull, by clipping ``[0, inf]`` against every face's half-space:
    ``(t, face, inside, exit)``, ``t == MISS`` on a miss. ``face`` is the entered face, or for
    an origin inside or on the hull the face nearest it (``inside`` True, ``t`` 0)."""
    t0 = 0.0
    t1 = _INF
    entered = -1
    nearest = 0
    nearest_s = -_INF
    for k in range(normals.shape[0]):
        nx = normals[k, 0]
        ny = normals[k, 1]
        nz = normals[k, 2]
        s = nx * ox + ny * oy + nz * oz - offsets[k]
        den = nx * dx + ny * dy + nz * dz
        if s > nearest_s:
            nearest_s = s
            nearest = k
        if den == 0.0:
            # parallel to the face: inside its slab always or never
            if s > 0.0:
                return MISS, 0, False, 0.0
            continue
        t = -s / den
        if den < 0.0:
            # entering this face's half-space
            if t > t0:
                t0 = t
                entered = k
        elif t < t1:
            # leaving it
            t1 = t
    if t1 < 0.0 or t0 > t1 or t0 > max_distance or t0 == _INF:
        return MISS, 0, False, 0.0
    if entered < 0 or nearest_s <= 0.0:
        # starts inside or on the hull: out through the nearest face
        return 0.0, nearest, True, t1
    return t0, entered, False, t1


@reader
def ray_rounded_hull(ox: float, oy: float, oz: float, dx: float, dy: float, dz: float,
                     verts: np.ndarray, normals: np.ndarray, offsets: np.ndarray,
                     edges: np.ndarray, r: float, eps: float, max_distance: float
                     ) -> tuple[float, float, float, float, float, float, float, bool]:
    """Ray vs a convex hull grown by ``r`` (a sphere's cast against it), in the ray kernels'
    common encoding ``(t, px, py, pz, nx, ny, nz, inside)``. An origin inside the grown hull
    hits at 0 with ``inside`` True and the normal of the nearest face (the caller replaces it
    by the contact's)."""
    if r <= 0.0:
        t, face, inside, _te = ray_hull_face_x(ox, oy, oz, dx, dy, dz, normals, offsets,
                                               max_distance)
        if t < 0.0:
            return MISS, 0.0, 0.0, 0.0, 0.0, 0.0, 0.0, False
        return (t, ox + t * dx, oy + t * dy, oz + t * dz, normals[face, 0], normals[face, 1],
                normals[face, 2], inside)
    nf = normals.shape[0]
    best = _INF
    bnx = 0.0
    bny = 0.0
    bnz = 0.0
    inside = True
    nearest = 0
    nearest_s = -_INF
    for k in range(nf):
        nx = normals[k, 0]
        ny = normals[k, 1]
        nz = normals[k, 2]
        s = nx * ox + ny * oy + nz * oz - offsets[k]
        if s > nearest_s:
            nearest_s = s
            nearest = k
        if s > 0.0:
            inside = False
        if s > r:
            # the origin is above this face's grown plane: where the ray crosses it
            den = nx * dx + ny * dy + nz * dz
            if den >= 0.0:
                continue
            t = (s - r) / -den
            if t > max_distance or t >= best:
                continue
            # the foot of the hit on the face's own plane
            qx = ox + t * dx - r * nx
            qy = oy + t * dy - r * ny
            qz = oz + t * dz - r * nz
        elif s > 0.0:
            # between the face and its grown plane: inside if the foot is on the face
            t = 0.0
            qx = ox - s * nx
            qy = oy - s * ny
            qz = oz - s * nz
        else:
            continue
        on_face = True
        for g in range(nf):
            if g != k and (normals[g, 0] * qx + normals[g, 1] * qy + normals[g, 2] * qz
                           - offsets[g]) > eps:
                on_face = False
                break
        if on_face:
            if t == 0.0:
                return (0.0, ox, oy, oz, nx, ny, nz, True)
            best = t
            bnx = nx
            bny = ny
            bnz = nz
    if inside:
        # the origin is in the hull itself
        return (0.0, ox, oy, oz, normals[nearest, 0], normals[nearest, 1], normals[nearest, 2],
                True)
    # edges as cylinders, corners as spheres: the capsule around each edge
    for e in range(edges.shape[0]):
        i = edges[e, 0]
        j = edges[e, 1]
        t, _px, _py, _pz, nx, ny, nz, ins = ray_capsule3(
            ox, oy, oz, dx, dy, dz, verts[i, 0], verts[i, 1], verts[i, 2], verts[j, 0],
            verts[j, 1], verts[j, 2], r, max_distance)
        if t < 0.0:
            continue
        if ins:
            return (0.0, ox, oy, oz, nx, ny, nz, True)
        if t < best:
            best = t
            bnx = nx
            bny = ny
            bnz = nz
    if best == _INF:
        return MISS, 0.0, 0.0, 0.0, 0.0, 0.0, 0.0, False
    return best, ox + best * dx, oy + best * dy, oz + best * dz, bnx, bny, bnz, False


@reader
def closest_on_hull(px: float, py: float, pz: float, verts: np.ndarray, normals: np.ndarray,
                    offsets: np.ndarray) -> tuple[float, float, float, bool]:
    """The point of a convex hull's boundary nearest p, and whether p is inside or on it.
    Inside: p's foot on the nearest face's plane (exact). Outside: GJK's nearest point (to
    :data:`~swept.constants.GJK_TOLERANCE` of the distance)."""
    nearest = 0
    nearest_s = -_INF
    for k in range(normals.shape[0]):
        s = normals[k, 0] * px + normals[k, 1] * py + normals[k, 2] * pz - offsets[k]
        if s > nearest_s:
            nearest_s = s
            nearest = k
    if nearest_s <= 0.0:
        return (px - nearest_s * normals[nearest, 0], py - nearest_s * normals[nearest, 1],
                pz - nearest_s * normals[nearest, 2], True)
    point = np.empty((1, 3))
    point[0, 0] = px
    point[0, 1] = py
    point[0, 2] = pz
    cache = np.zeros(GJK_CACHE_SIZE, np.int64)
    _d, _ax, _ay, _az, bx, by, bz, _it, _status = gjk_distance(point, verts, cache)
    return bx, by, bz, False


@callee_reader
def _project(core: np.ndarray, nx: float, ny: float, nz: float) -> tuple[float, float]:
    """The interval a core covers along a direction."""
    lo = _INF
    hi = -_INF
    for i in range(core.shape[0]):
        s = core[i, 0] * nx + core[i, 1] * ny + core[i, 2] * nz
        lo = min(lo, s)
        hi = max(hi, s)
    return lo, hi


@callee_reader
def deepest_middle(core: np.ndarray, nx: float, ny: float, nz: float
                    ) -> tuple[float, float, float]:
    """The middle of a core's deepest feature against n (its points lowest along n, within
    :data:`POLYTOPE_FEATURE_TOLERANCE` of the core's extent), placed at the lowest depth."""
    lo, _hi = _project(core, nx, ny, nz)
    extent = 0.0
    for i in range(core.shape[0]):
        for c in range(3):
            extent = max(extent, abs(core[i, c] - core[0, c]))
    band = lo + POLYTOPE_FEATURE_TOLERANCE * extent
    sx = 0.0
    sy = 0.0
    sz = 0.0
    count = 0
    for i in range(core.shape[0]):
        if core[i, 0] * nx + core[i, 1] * ny + core[i, 2] * nz <= band:
            sx += core[i, 0]
            sy += core[i, 1]
            sz += core[i, 2]
            count += 1
    mx = sx / count
    my = sy / count
    mz = sz / count
    # on the deepest level exactly
    off = mx * nx + my * ny + mz * nz - lo
    return mx - off * nx, my - off * ny, mz - off * nz


@callee_reader
def _try_axis(core_a: np.ndarray, core_b: np.ndarray, nx: float, ny: float, nz: float,
              best: float) -> tuple[float, float]:
    """The least push of core a out of core b along +n or -n as a signed amount (negative:
    along -n), if it is below ``best``; else ``best`` unchanged and sign 0."""
    alo, ahi = _project(core_a, nx, ny, nz)
    blo, bhi = _project(core_b, nx, ny, nz)
    up = bhi - alo
    down = ahi - blo
    if up <= down:
        if up < best:
            return up, 1.0
        return best, 0.0
    if down < best:
        return down, -1.0
    return best, 0.0


@reader
def contact_core_polytope(core_a: np.ndarray, ra: float, faces_a: np.ndarray,
                          dirs_a: np.ndarray, core_b: np.ndarray, rb: float,
                          faces_b: np.ndarray, dirs_b: np.ndarray
                          ) -> tuple[bool, float, float, float, float, float, float, float]:
    """How to move shape a (core a grown by ra) out of shape b: ``(hit, nx, ny, nz, depth,
    px, py, pz)`` as every 3D contact kernel (see the module's docstring for the method)."""
    cache = np.zeros(GJK_CACHE_SIZE, np.int64)
    d, ax, ay, az, bx, by, bz, _it, status = gjk_distance(core_a, core_b, cache)
    scale = max(abs_max(core_a), abs_max(core_b))
    if status != GJK_OVERLAPPED and gap_apart(d, scale):
        if gap_apart(d - ra - rb, max(scale, ra, rb)):
            return False, 0.0, 0.0, 0.0, 0.0, 0.0, 0.0, 0.0
        # cores apart: along the line between their nearest points (a gap within the touch
        # tolerance touches: depth 0)
        nx = (ax - bx) / d
        ny = (ay - by) / d
        nz = (az - bz) / d
        return (True, nx, ny, nz, max(ra + rb - d, 0.0), bx + nx * rb, by + ny * rb,
                bz + nz * rb)
    # cores touching (to rounding: their direction would be noise) or overlapping: the least
    # push over the separating axes
    best = _INF
    bnx = 0.0
    bny = 0.0
    bnz = 0.0
    for k in range(faces_b.shape[0]):
        nx, ny, nz = faces_b[k, 0], faces_b[k, 1], faces_b[k, 2]
        best, sign = _try_axis(core_a, core_b, nx, ny, nz, best)
        if sign != 0.0:
            bnx, bny, bnz = sign * nx, sign * ny, sign * nz
    for k in range(faces_a.shape[0]):
        nx, ny, nz = faces_a[k, 0], faces_a[k, 1], faces_a[k, 2]
        best, sign = _try_axis(core_a, core_b, nx, ny, nz, best)
        if sign != 0.0:
            bnx, bny, bnz = sign * nx, sign * ny, sign * nz
    for i in range(dirs_a.shape[0]):
        ex, ey, ez = dirs_a[i, 0], dirs_a[i, 1], dirs_a[i, 2]
        for j in range(dirs_b.shape[0]):
            fx, fy, fz = dirs_b[j, 0], dirs_b[j, 1], dirs_b[j, 2]
            cx = ey * fz - ez * fy
            cy = ez * fx - ex * fz
            cz = ex * fy - ey * fx
            length = math.sqrt(cx * cx + cy * cy + cz * cz)
            if length <= AXIS_PARALLEL_SINE:
                # parallel edges: the face axes answer
                continue
            cx /= length
            cy /= length
            cz /= length
            best, sign = _try_axis(core_a, core_b, cx, cy, cz, best)
            if sign != 0.0:
                bnx, bny, bnz = sign * cx, sign * cy, sign * cz
    if best == _INF:
        # no axis at all (two points or a point and a segment): the cores coincide
        return True, 1.0, 0.0, 0.0, ra + rb, ax + rb, ay, az
    depth = max(best, 0.0) + ra + rb
    mx, my, mz = deepest_middle(core_a, bnx, bny, bnz)
    shift = depth - ra
    return True, bnx, bny, bnz, depth, mx + bnx * shift, my + bny * shift, mz + bnz * shift


@reader
def contact_core_plane3(core: np.ndarray, r: float, nx: float, ny: float, nz: float,
                        offset: float
                        ) -> tuple[bool, float, float, float, float, float, float, float]:
    """A core grown by r against a half-space: out along n by how far its deepest point is
    below the boundary; the point is the foot of its deepest feature's middle."""
    mx, my, mz = deepest_middle(core, nx, ny, nz)
    s = mx * nx + my * ny + mz * nz - offset - r
    if s > 0.0:
        return False, 0.0, 0.0, 0.0, 0.0, 0.0, 0.0, 0.0
    h = s + r
    return True, nx, ny, nz, 0.0 - s, mx - nx * h, my - ny * h, mz - nz * h
