"""Ray-cast kernels: where a ray first meets each shape, in 2D and 3D (seed 000).

Every kernel takes the ray as its origin ``(ox, oy[, oz])``, its **unit** direction
``(dx, dy[, dz])`` and ``max_distance`` (last; may be ``inf``), and the shape as plain floats
(a polygon as its ``(verts, norms)`` arrays). Nothing here normalises or validates: the public
layer (:mod:`swept.raycast`) and the batch loops do that once.

Return encoding, the same for every kernel:

- 2D: ``(t, px, py, nx, ny, inside)``; 3D: ``(t, px, py, pz, nx, ny, nz, inside)``.
- A miss has ``t == MISS`` (``-1.0``; test ``t < 0.0``); the other fields are then zero.
- A hit has ``0 <= t <= max_distance``, the hit point ``p = o + t d`` and a unit normal.
  From outside the normal is the surface's outward normal at the hit, which faces the ray
  (``dot(n, d) < 0``, or ``== 0`` for a grazing touch) and ``inside`` is False.
- A ray whose origin is inside the shape or on its boundary hits at ``t = 0`` with
  ``p = o``, ``inside`` True and the normal of the shortest way out: the outward normal of
  the boundary point nearest the origin (``COINCIDENT_NORMAL`` when the origin is at a
  circle's or sphere's centre, ``-d`` when the radius is 0; the plane's normal for a plane).

Conventions shared by every shape: touching counts (a tangent ray hits); a hit exactly at
``max_distance`` counts; anything behind the origin is a miss; a ray parallel to a slab or an
edge never divides by zero. The ``*_entering`` capsule kernels are the seed's swept-step
variant: only pieces the ray heads into count (see :func:`ray_capsule2_entering`).

The exit. Each kernel named ``*_x`` (and each ``*_v`` adapter) appends ``exit``: where the ray
leaves the solid shape, ``>= t``, the true exit even beyond ``max_distance`` (a convex shape's
pieces are clipped from ``[0, inf]``, not ``[0, max_distance]``); for a ray that starts inside,
where it leaves; ``t`` itself for a segment (no inside) and for a point; ``inf`` for a
half-plane from outside, or from inside heading along or into it. The kernels without the
suffix keep the common encoding (the sweep, simulation and World kernels call them).

Degenerate cases, decided once:

- **Radius 0.** A zero-radius circle or sphere is a point: a ray through it (off the ray by at
  most ``COLLINEAR_TOLERANCE`` of the origin's distance to it, so that a normalised diagonal
  direction still counts) hits at ``t = -dot(o - c, d)`` with normal ``-d``; an origin on the
  point hits at 0 with ``inside`` True and normal ``-d`` (not ``COINCIDENT_NORMAL``: the
  origin is on the rim as much as at the centre, and ``-d`` is the segment kernels' rule for a
  point). A zero-radius capsule is its core: in 2D exactly :func:`ray_segment` (bit for bit);
  in 3D :func:`_segment3`, a hit where the ray meets the core segment (the two lines within
  ``COLLINEAR_TOLERANCE``), normal the part of ``-d`` square to the core, normalised, or
  ``-d`` for a ray along the core (the 2D collinear rule); with ``a == b``, a point. In the
  entering-only kernels, an origin on the core of a zero-radius capsule misses (a segment has
  no inside to head into; a ball that has just bounced off a thin wall is not caught again).
- **A radius below the rounding** (1e-100 at 1e50): a ray that passes the centre dead on
  hits with normal ``-d``; otherwise the line passes farther than ``r`` and misses.
- **Beyond the floats.** A slab, edge or half-plane entry at ``t = inf`` (a direction
  component of 1e-300 against coordinates of 1e50) is a miss, even under an unlimited
  ``max_distance``; its exit may be ``inf``. Inside ``|coordinate| <= 1e50`` no product or
  square exceeds about 1e101, so no kernel overflows or returns NaN.

Kernels: ``ray_circle``, ``ray_segment``, ``ray_aabb2``, ``ray_polygon``, ``ray_plane2``,
``ray_capsule2`` (2D); ``ray_sphere``, ``ray_aabb3``, ``ray_plane3``, ``ray_capsule3`` (3D);
``ray_simple_polygon`` (2D, any simple polygon, not only convex).
``ray_aabb2_face`` / ``ray_aabb3_face`` and ``ray_polygon_edge`` return ``(t, index, inside)``
with the entered face code (``FACE_*``) or edge index instead of the normal, for callers that
hold the normals already. The ``*_v`` adapters at the end serve the Python API only.
"""

from __future__ import annotations

import math

import numpy as np

from ..constants import (
    COINCIDENT_NORMAL_2D,
    COINCIDENT_NORMAL_3D,
    COLLINEAR_TOLERANCE,
    HEADING_TOLERANCE,
    RAY_PARALLEL_SINE,
    RIM_TOLERANCE,
)
from . import callee, callee_reader, entry, inline_kernel, kernel

#: ``t`` returned on a miss; every hit has ``t >= 0``.
MISS = -1.0

#: A length surely exceeds ``reach`` when its squares' sum exceeds ``reach^2`` times this
#: (:func:`_surely_farther`): the sum and ``reach^2`` round by at most 2^-52 of themselves
#: and :func:`_unit2`'s length by at most 5 * 2^-53 of the true one, far inside 2^-40. Not a
#: tolerance: a bound on rounding, exact (tested against fractions).
LENGTH_SURE = 1.0 + 2.0 ** -40
#: Below this, ``reach^2`` may be subnormal, whose rounding is not relative:
#: :func:`_surely_farther` answers undecided. Not a tolerance: the normal floats' range, with
#: room.
SQUARE_NORMAL_MIN = 2.0 ** -1000


#: The normal of the shortest way out when the origin is exactly at a circle's centre (or a
#: point capsule's): swept.constants.COINCIDENT_NORMAL_2D, as plain floats.
COINCIDENT_NX2, COINCIDENT_NY2 = COINCIDENT_NORMAL_2D
#: The 3D counterpart, for spheres: swept.constants.COINCIDENT_NORMAL_3D.
COINCIDENT_NX3, COINCIDENT_NY3, COINCIDENT_NZ3 = COINCIDENT_NORMAL_3D


@callee
def _unit2(x: float, y: float) -> tuple[float, float, float]:
    """``(x, y)`` scaled to unit length, and its length; ``(0, 0, 0)`` for the zero vector.

    Scaled by the larger component first, so that tiny or huge vectors neither underflow nor
    overflow on the way.
    """
    m = max(abs(x), abs(y))
    if m == 0.0:
        return 0.0, 0.0, 0.0
    x /= m
    y /= m
    k = math.sqrt(x * x + y * y)
    return x / k, y / k, m * k


@kernel
def _unit3(x: float, y: float, z: float) -> tuple[float, float, float, float]:
    """``(x, y, z)`` scaled to unit length, and its length (as :func:`_unit2`)."""
    m = max(abs(x), abs(y), abs(z))
    if m == 0.0:
        return 0.0, 0.0, 0.0, 0.0
    x /= m
    y /= m
    z /= m
    k = math.sqrt(x * x + y * y + z * z)
    return x / k, y / k, z / k, m * k


# --------------------------------------------------------------------------------------
# 2D
# --------------------------------------------------------------------------------------

@callee
def _far_root(b: float, c: float, disc: float) -> float:
    """The larger root of ``t^2 + 2 b t + c = 0`` given ``disc = b^2 - c`` (clamped at 0),
    written without cancellation: ``sqrt(disc) - b`` when ``b <= 0``, else ``c`` over the
    other root."""
    sq = math.sqrt(max(disc, 0.0))
    if b <= 0.0:
        return sq - b
    den = -b - sq
    if den == 0.0:
        return 0.0
    return c / den


@callee
def _point2(ox: float, oy: float, dx: float, dy: float, mx: float, my: float,
            max_distance: float) -> tuple[float, float, float, float, float, bool, float]:
    """Ray vs a point at ``o - m`` (a zero-radius circle, or a zero-radius capsule with
    ``a == b``): a hit where the ray passes through it, normal ``-d``; exit = entry."""
    b = mx * dx + my * dy
    _ux, _uy, ml = _unit2(mx, my)
    if ml == 0.0:
        # the origin is on the point
        return 0.0, ox, oy, 0.0 - dx, 0.0 - dy, True, 0.0
    _hx, _hy, hl = _unit2(mx - b * dx, my - b * dy)
    t = 0.0 - b
    if b >= 0.0 or hl > COLLINEAR_TOLERANCE * ml or t > max_distance:
        # behind the origin, off the ray, or out of reach
        return MISS, 0.0, 0.0, 0.0, 0.0, False, 0.0
    return t, ox + t * dx, oy + t * dy, 0.0 - dx, 0.0 - dy, False, t


@inline_kernel
def _circle_terms(mx: float, my: float, dx: float, dy: float, r: float
                  ) -> tuple[float, float, float]:
    """A ray's quadratic ``t^2 + 2 b t + c = 0`` against a circle of radius ``r`` for an
    origin at ``centre + m``: ``(b, disc, c)``, ``b = m . d``, the discriminant ``disc = r^2 -
    |h|^2`` from the closest approach ``h = m - b d`` (no cancellation in ``b^2 - c``) and
    ``c = |m|^2 - r^2``. The one copy, for :func:`ray_circle_x` and
    :func:`ray_circle_distance`, so that both see the same bits."""
    b = mx * dx + my * dy
    hx = mx - b * dx
    hy = my - b * dy
    disc = r * r - (hx * hx + hy * hy)
    mm = mx * mx + my * my
    return b, disc, mm - r * r


@inline_kernel
def _circle_near_root(b: float, disc: float, c: float) -> tuple[float, float]:
    """The nearer root of :func:`_circle_terms`' quadratic from outside (``c > 0``, ``b <
    0``, ``disc >= 0``), and ``sqrt(disc)``: ``-b - sqrt(disc)`` written as ``c / (-b +
    sqrt(disc))`` to keep precision near the rim (the product of the roots is ``c``)."""
    sq = math.sqrt(disc)
    return c / (sq - b), sq


@callee
def ray_circle_x(ox: float, oy: float, dx: float, dy: float, cx: float, cy: float, r: float,
                 max_distance: float
                 ) -> tuple[float, float, float, float, float, bool, float]:
    """Ray vs solid circle: the nearer root of ``|o + t d - c|^2 = r^2``, plus the exit (the
    farther root) as a last field."""
    mx = ox - cx
    my = oy - cy
    if r == 0.0:
        # a point
        return _point2(ox, oy, dx, dy, mx, my, max_distance)
    b, disc, c = _circle_terms(mx, my, dx, dy, r)
    if c <= 0.0:
        # starts inside or on the rim: out along the centre-to-origin direction
        te = _far_root(b, c, disc)
        ux, uy, m = _unit2(mx, my)
        if m > 0.0:
            return 0.0, ox, oy, ux, uy, True, te
        return 0.0, ox, oy, COINCIDENT_NX2, COINCIDENT_NY2, True, te
    if b >= 0.0 or disc < 0.0:
        # heading away from the centre (both roots behind), or the line passes farther than
        # r from the centre
        return MISS, 0.0, 0.0, 0.0, 0.0, False, 0.0
    t, sq = _circle_near_root(b, disc, c)
    if t > max_distance:
        return MISS, 0.0, 0.0, 0.0, 0.0, False, 0.0
    px = ox + t * dx
    py = oy + t * dy
    nx, ny, n = _unit2(mx + t * dx, my + t * dy)
    if n == 0.0:
        # a radius lost below the rounding of the coordinates, hit dead on
        nx = 0.0 - dx
        ny = 0.0 - dy
    return t, px, py, nx, ny, False, max(sq - b, t)


@inline_kernel
def ray_circle_distance(ox: float, oy: float, dx: float, dy: float, cx: float, cy: float,
                        r: float, max_distance: float) -> float:
    """:func:`ray_circle_x`'s ``t`` alone, bit for bit (``MISS`` on a miss, 0 from inside),
    without its normal's divisions and square root and without a call: for the callers that
    keep only the nearest of many hits (the World's grid rows, a capsule's end circles) and
    ask the full kernel for that one's point and normal."""
    mx = ox - cx
    my = oy - cy
    if r == 0.0:
        # a point
        return _point2(ox, oy, dx, dy, mx, my, max_distance)[0]
    b, disc, c = _circle_terms(mx, my, dx, dy, r)
    if c <= 0.0:
        # starts inside or on the rim
        return 0.0
    if b >= 0.0 or disc < 0.0:
        return MISS
    t, _sq = _circle_near_root(b, disc, c)
    if t > max_distance:
        return MISS
    return t


@kernel
def ray_circle(ox: float, oy: float, dx: float, dy: float, cx: float, cy: float, r: float,
               max_distance: float) -> tuple[float, float, float, float, float, bool]:
    """Ray vs solid circle (see :func:`ray_circle_x`), in the common encoding."""
    t, px, py, nx, ny, inside, _te = ray_circle_x(ox, oy, dx, dy, cx, cy, r, max_distance)
    return t, px, py, nx, ny, inside


@inline_kernel
def segment_crossing(wx: float, wy: float, ex: float, ey: float, dx: float, dy: float,
                     denom: float) -> tuple[float, float]:
    """Where the ray ``o + t d`` crosses the segment ``a + u e``: ``(t, u)``, from ``w = a -
    o``, ``e`` and ``d`` and their cross product ``denom = cross(d, e)`` (not near zero: the
    caller has ruled out a parallel ray). The one copy of the formula, inlined into
    :func:`ray_segment` and into the World's two walks that meet segments themselves (the
    grid's segment rows, the BVH's segments), so that all three give the same bits."""
    t = (wx * ey - wy * ex) / denom
    u = (wx * dy - wy * dx) / denom
    return t, u


@kernel
def ray_segment(ox: float, oy: float, dx: float, dy: float, ax: float, ay: float, bx: float,
                by: float, max_distance: float
                ) -> tuple[float, float, float, float, float, bool]:
    """Ray vs segment ``ab`` (``a != b``): the crossing, with the perpendicular turned to
    face the ray; a collinear ray hits where it first reaches the segment, normal ``-d``.

    An origin on the segment hits at 0 with ``inside`` True (normal: the facing
    perpendicular, or ``-d`` when collinear). A parallel, non-collinear ray misses.
    """
    ex = bx - ax
    ey = by - ay
    ux, uy, elen = _unit2(ex, ey)
    wx = ax - ox
    wy = ay - oy
    if elen == 0.0:
        # degenerate: the segment is a point (the offset edge of a box with no width); the ray
        # meets it only if the point lies exactly on the ray
        s = wx * dx + wy * dy
        if s < 0.0 or s > max_distance or wx - s * dx != 0.0 or wy - s * dy != 0.0:
            return MISS, 0.0, 0.0, 0.0, 0.0, False
        if s == 0.0:
            return 0.0, ox, oy, -dx, -dy, True
        return s, ax, ay, -dx, -dy, False
    denom = dx * ey - dy * ex  # cross(d, e) = |e| sin(angle)
    if abs(denom) <= RAY_PARALLEL_SINE * elen:
        # parallel: collinear, or a miss
        off = wx * ey - wy * ex  # cross(w, e) = |e| * distance of the origin from the line
        wlen = math.sqrt(wx * wx + wy * wy)
        if abs(off) > COLLINEAR_TOLERANCE * elen * (wlen + elen):
            return MISS, 0.0, 0.0, 0.0, 0.0, False
        # collinear: distances along the ray to both ends
        sa = wx * dx + wy * dy
        sb = (bx - ox) * dx + (by - oy) * dy
        near = min(sa, sb)
        far = max(sa, sb)
        if far < 0.0:
            # the whole segment is behind the origin
            return MISS, 0.0, 0.0, 0.0, 0.0, False
        if near <= 0.0:
            # starts on the segment
            return 0.0, ox, oy, -dx, -dy, True
        if near > max_distance:
            return MISS, 0.0, 0.0, 0.0, 0.0, False
        return near, ox + near * dx, oy + near * dy, -dx, -dy, False
    # solve: o + t d = a + u e
    t, u = segment_crossing(wx, wy, ex, ey, dx, dy, denom)
    if t < 0.0 or t > max_distance or u < 0.0 or u > 1.0:
        # behind the origin, out of range, or past an end
        return MISS, 0.0, 0.0, 0.0, 0.0, False
    nx = 0.0 - uy  # (0.0 - x: no negative zero in a result)
    ny = ux
    if nx * dx + ny * dy > 0.0:
        # turn the perpendicular to face the ray
        nx = 0.0 - nx
        ny = 0.0 - ny
    if t == 0.0:
        # starts on the segment
        return 0.0, ox, oy, nx, ny, True
    return t, ox + t * dx, oy + t * dy, nx, ny, False


@kernel
def _slab(o: float, d: float, lo: float, hi: float, t_enter: float, t_exit: float
          ) -> tuple[float, float, bool, bool]:
    """Narrow ``[t_enter, t_exit]`` to the part of the ray inside one slab ``[lo, hi]``.

    Returns the new range, whether this slab raised ``t_enter``, and whether the range is
    still non-empty.
    """
    if d == 0.0:
        # parallel to the slab's sides: inside it always, or never
        return t_enter, t_exit, False, lo <= o <= hi
    t1 = (lo - o) / d
    t2 = (hi - o) / d
    if t1 > t2:
        t1, t2 = t2, t1
    raised = False
    if t1 > t_enter:
        t_enter = t1
        raised = True
    if t2 < t_exit:
        t_exit = t2
    return t_enter, t_exit, raised, t_enter <= t_exit


#: Face codes of the box kernels' ``face`` result: the index of the face's outward normal
#: in ``(-x, +x, -y, +y, -z, +z)``.
FACE_MIN_X, FACE_MAX_X, FACE_MIN_Y, FACE_MAX_Y, FACE_MIN_Z, FACE_MAX_Z = 0, 1, 2, 3, 4, 5


@callee
def _face_normal(face: int) -> tuple[float, float, float]:
    """The outward unit normal of a box face code."""
    sign = 1.0 if face % 2 == 1 else -1.0
    axis = face // 2
    return (sign if axis == 0 else 0.0, sign if axis == 1 else 0.0,
            sign if axis == 2 else 0.0)


@callee
def ray_aabb2_face_x(ox: float, oy: float, dx: float, dy: float, minx: float, miny: float,
                     maxx: float, maxy: float, max_distance: float
                     ) -> tuple[float, int, bool, float]:
    """Ray vs solid 2D box, by the slab method: ``(t, face, inside, exit)``, ``t = MISS`` on a
    miss.

    In the box from the later slab entry to the earlier slab exit; the range starts at
    ``[0, inf]`` (so a box behind the origin misses, and the exit is the true one even beyond
    ``max_distance``), and an entry beyond ``max_distance`` (or beyond the floats, from a
    direction component as small as 1e-300) misses. ``face`` is the entered face's code (on an
    edge or corner tie, the x face). Starting inside or on the box: the nearest face (ties: x
    before y, min before max).
    """
    t0, t1, rx, ok = _slab(ox, dx, minx, maxx, 0.0, np.inf)
    if not ok:
        return MISS, 0, False, 0.0
    t0, t1, ry, ok = _slab(oy, dy, miny, maxy, t0, t1)
    if not ok or t0 > max_distance or t0 == np.inf:
        return MISS, 0, False, 0.0
    if ry:
        # entered through a y face
        return t0, FACE_MIN_Y if dy > 0.0 else FACE_MAX_Y, False, t1
    if rx:
        # entered through an x face
        return t0, FACE_MIN_X if dx > 0.0 else FACE_MAX_X, False, t1
    # starts inside or on the box: out through the nearest face
    face = FACE_MIN_X
    best = ox - minx
    g = maxx - ox
    if g < best:
        best, face = g, FACE_MAX_X
    g = oy - miny
    if g < best:
        best, face = g, FACE_MIN_Y
    g = maxy - oy
    if g < best:
        face = FACE_MAX_Y
    return 0.0, face, True, t1


@kernel
def ray_aabb2_face(ox: float, oy: float, dx: float, dy: float, minx: float, miny: float,
                   maxx: float, maxy: float, max_distance: float) -> tuple[float, int, bool]:
    """:func:`ray_aabb2_face_x` without the exit."""
    t, face, inside, _te = ray_aabb2_face_x(ox, oy, dx, dy, minx, miny, maxx, maxy,
                                            max_distance)
    return t, face, inside


@kernel
def ray_aabb2(ox: float, oy: float, dx: float, dy: float, minx: float, miny: float,
              maxx: float, maxy: float, max_distance: float
              ) -> tuple[float, float, float, float, float, bool]:
    """Ray vs solid 2D box (see :func:`ray_aabb2_face`), in the common encoding."""
    t, face, inside = ray_aabb2_face(ox, oy, dx, dy, minx, miny, maxx, maxy, max_distance)
    if t < 0.0:
        return MISS, 0.0, 0.0, 0.0, 0.0, False
    nx, ny, _nz = _face_normal(face)
    return t, ox + t * dx, oy + t * dy, nx, ny, inside


@inline_kernel
def _clipped_polygon(ox: float, oy: float, dx: float, dy: float, verts: np.ndarray,
                     norms: np.ndarray, max_distance: float
                     ) -> tuple[float, int, bool, float]:
    """:func:`ray_polygon_edge_x`'s answer, inlined into it and into :func:`ray_polygon` (a
    call passing the two arrays reference-counted them each time: measured, ``ray_polygon``
    on rays through the polygon's box 144 ns a test as a call of ``ray_polygon_edge_x``).

    Every edge is divided, and the entry, the exit, the nearest edge and the miss are kept by
    selects, not branches: which side of a ray each edge falls on changes from ray to ray,
    and each such branch was a guess the processor often lost (a parallel edge divides by 1
    instead of 0; its quotient is never kept). The entry only rises and the exit only falls,
    so comparing them once after the loop answers as a test at every edge would."""
    t_enter = 0.0
    t_exit = np.inf
    entered = -1
    nearest = 0
    nearest_gap = np.inf
    parallel_out = False
    for i in range(verts.shape[0]):
        nx = norms[i, 0]
        ny = norms[i, 1]
        # how far the origin is inside this edge's half-plane (negative: outside it)
        gap = nx * (verts[i, 0] - ox) + ny * (verts[i, 1] - oy)
        closer = gap < nearest_gap
        nearest_gap = gap if closer else nearest_gap
        nearest = i if closer else nearest
        denom = nx * dx + ny * dy
        t = gap / (denom if denom != 0.0 else 1.0)
        # parallel to the edge and outside its half-plane: never in it
        parallel_out |= (denom == 0.0) & (gap < 0.0)
        # heading into the half-plane (entering at t) or out of it (leaving at t)
        enters = (denom < 0.0) & (t > t_enter)
        t_enter = t if enters else t_enter
        entered = i if enters else entered
        leaves = (denom > 0.0) & (t < t_exit)
        t_exit = t if leaves else t_exit
    if parallel_out or t_enter > t_exit or t_enter > max_distance or t_enter == np.inf:
        # clipped away, or out of reach
        return MISS, 0, False, 0.0
    if entered >= 0:
        return t_enter, entered, False, t_exit
    # starts inside or on the polygon: out through the nearest edge
    return 0.0, nearest, True, t_exit


@callee_reader
def ray_polygon_edge_x(ox: float, oy: float, dx: float, dy: float, verts: np.ndarray,
                       norms: np.ndarray, max_distance: float
                       ) -> tuple[float, int, bool, float]:
    """Ray vs solid convex polygon: ``(t, edge, inside, exit)``, ``t = MISS`` on a miss.

    Each edge's half-plane clips ``[0, inf]``; the ray enters through the edge that raised the
    entry last, and an entry beyond ``max_distance`` (or beyond the floats) misses. ``verts``
    (n, 2) float64 are the corners, ``norms`` (n, 2) float64 the outward unit normals
    (``norms[i]`` belongs to edge ``verts[i] -> verts[i + 1]``), as :class:`Polygon` stores
    them. ``edge`` is the entered edge (at a corner, the first such edge in order); starting
    inside or on the polygon, the nearest edge (the first of equals). A ray parallel to an
    edge outside its half-plane misses (:func:`_clipped_polygon`)."""
    return _clipped_polygon(ox, oy, dx, dy, verts, norms, max_distance)


@kernel
def ray_polygon_edge(ox: float, oy: float, dx: float, dy: float, verts: np.ndarray,
                     norms: np.ndarray, max_distance: float) -> tuple[float, int, bool]:
    """:func:`ray_polygon_edge_x` without the exit."""
    t, edge, inside, _te = ray_polygon_edge_x(ox, oy, dx, dy, verts, norms, max_distance)
    return t, edge, inside


@kernel
def ray_polygon(ox: float, oy: float, dx: float, dy: float, verts: np.ndarray,
                norms: np.ndarray, max_distance: float
                ) -> tuple[float, float, float, float, float, bool]:
    """Ray vs solid convex polygon (see :func:`ray_polygon_edge_x`), in the common encoding:
    the normal is the entered (or, from inside, the nearest) edge's outward normal."""
    t, edge, inside, _te = _clipped_polygon(ox, oy, dx, dy, verts, norms, max_distance)
    if t < 0.0:
        return MISS, 0.0, 0.0, 0.0, 0.0, False
    return t, ox + t * dx, oy + t * dy, norms[edge, 0], norms[edge, 1], inside


@callee
def _on_or_inside(px: float, py: float, verts: np.ndarray, tol: float) -> bool:
    """Whether ``p`` is in the simple polygon ``verts`` or within ``tol`` of its boundary:
    the boundary by distance to each edge, the inside by the crossing parity of a ray along
    +x (each edge counted half-open in y, so a vertex on that ray counts once)."""
    n = verts.shape[0]
    inside = False
    for i in range(n):
        ax = verts[i, 0]
        ay = verts[i, 1]
        j = i + 1 if i + 1 < n else 0
        bx = verts[j, 0]
        by = verts[j, 1]
        ex = bx - ax
        ey = by - ay
        ee = ex * ex + ey * ey
        wx = px - ax
        wy = py - ay
        u = 0.0 if ee == 0.0 else min(max((wx * ex + wy * ey) / ee, 0.0), 1.0)
        _qx, _qy, dist = _unit2(wx - u * ex, wy - u * ey)
        if dist <= tol:
            # on the boundary
            return True
        if (ay > py) != (by > py):
            # the edge spans p's height: crossed if its x there is to the right of p
            x = ax + (py - ay) / (by - ay) * ex
            if x > px:
                inside = not inside
    return inside


@callee
def ray_simple_polygon(ox: float, oy: float, dx: float, dy: float, verts: np.ndarray,
                       max_distance: float
                       ) -> tuple[float, float, float, float, float, bool, float]:
    """Ray vs solid simple polygon, convex or not (seed 000's loop over the edges): the
    nearest crossing of any edge, plus the exit as a last field.

    ``verts`` (n, 2) float64 are the corners counter-clockwise (y up), of a simple polygon
    (the caller checks). From outside: the nearest edge crossing (touching counts; at a
    corner, the edge whose outward normal faces the ray most, then the first in order),
    normal that edge's outward normal. An origin inside (by crossing parity) or on the
    boundary (within ``COLLINEAR_TOLERANCE`` of the polygon's extent) hits at 0 with the
    outward normal of the nearest edge. The exit is the first crossing after the entry beyond
    which the ray is outside (a ray through a reflex corner that stays inside does not leave
    there).
    """
    n = verts.shape[0]
    scale = 0.0
    for i in range(n):
        scale = max(scale, abs(verts[i, 0] - ox), abs(verts[i, 1] - oy))
    tol = COLLINEAR_TOLERANCE * scale
    # every crossing of the ray with an edge's segment (both ends of a collinear edge)
    ts = np.empty(2 * n)
    count = 0
    best_t = np.inf
    best_edge = -1
    best_dot = np.inf
    nearest = 0
    nearest_dist = np.inf
    for i in range(n):
        ax = verts[i, 0]
        ay = verts[i, 1]
        j = i + 1 if i + 1 < n else 0
        bx = verts[j, 0]
        by = verts[j, 1]
        ex = bx - ax
        ey = by - ay
        ux, uy, elen = _unit2(ex, ey)
        # the outward normal of a counter-clockwise edge: its direction turned clockwise
        nx = uy
        ny = 0.0 - ux
        nd = nx * dx + ny * dy
        # the origin's distance to this edge (for a start inside)
        wx = ox - ax
        wy = oy - ay
        u = min(max(wx * ux + wy * uy, 0.0), elen)
        _qx, _qy, dist = _unit2(wx - u * ux, wy - u * uy)
        if dist < nearest_dist:
            nearest_dist = dist
            nearest = i
        if elen == 0.0:
            continue
        denom = dx * ey - dy * ex
        t = -1.0
        if abs(denom) <= RAY_PARALLEL_SINE * elen:
            # parallel: collinear (both ends count), or no crossing
            off = wx * uy - wy * ux
            if abs(off) <= tol:
                sa = (ax - ox) * dx + (ay - oy) * dy
                sb = (bx - ox) * dx + (by - oy) * dy
                if sa >= 0.0:
                    ts[count] = sa
                    count += 1
                if sb >= 0.0:
                    ts[count] = sb
                    count += 1
                if max(sa, sb) >= 0.0:
                    t = max(min(sa, sb), 0.0)
        else:
            # solve o + t d = a + v e
            t = ((ax - ox) * ey - (ay - oy) * ex) / denom
            v = ((ax - ox) * dy - (ay - oy) * dx) / denom
            # through a corner, v may round a little past 0 or 1: within tol it counts
            vtol = tol / elen
            if t < 0.0 or v < -vtol or v > 1.0 + vtol or t == np.inf:
                t = -1.0
            else:
                ts[count] = t
                count += 1
        # a corner: both its edges meet the ray there, up to rounding (tol): the one that
        # faces the ray more wins
        if t >= 0.0 and (t < best_t - tol or (t <= best_t + tol and nd < best_dot)):
            best_t = t
            best_edge = i
            best_dot = nd
    ts = np.sort(ts[:count])
    if nearest_dist <= tol or _on_or_inside(ox, oy, verts, 0.0):
        # starts inside or on the boundary: out through the nearest edge
        t0 = 0.0
        edge = nearest
        inside = True
    elif best_edge < 0 or best_t > max_distance:
        # no crossing, or out of reach
        return MISS, 0.0, 0.0, 0.0, 0.0, False, 0.0
    else:
        t0 = best_t
        edge = best_edge
        inside = False
    # the exit: the first crossing from the entry on past which the ray is outside
    te = t0
    for k in range(count):
        if ts[k] < t0:
            continue
        te = ts[k]
        if k + 1 == count:
            break
        if ts[k + 1] == ts[k]:
            continue
        mid = 0.5 * (ts[k] + ts[k + 1])
        if not _on_or_inside(ox + mid * dx, oy + mid * dy, verts, tol):
            break
    ax = verts[edge, 0]
    ay = verts[edge, 1]
    j = edge + 1 if edge + 1 < n else 0
    ux, uy, _elen = _unit2(verts[j, 0] - ax, verts[j, 1] - ay)
    if inside:
        return 0.0, ox, oy, uy + 0.0, 0.0 - ux, True, te
    return t0, ox + t0 * dx, oy + t0 * dy, uy + 0.0, 0.0 - ux, False, max(te, t0)


@callee
def ray_plane2_x(ox: float, oy: float, dx: float, dy: float, nx: float, ny: float,
                 offset: float, max_distance: float
                 ) -> tuple[float, float, float, float, float, bool, float]:
    """Ray vs half-plane ``dot(n, p) < offset`` (unit ``n``, pointing out of the solid).

    The normal is always ``n``; starting inside or on the boundary hits at 0. The exit is
    ``inf`` unless the ray starts inside heading out.
    """
    s = nx * ox + ny * oy - offset
    denom = nx * dx + ny * dy
    if s <= 0.0:
        # starts inside or on the boundary: it leaves only heading out
        te = (0.0 - s) / denom if denom > 0.0 else np.inf
        return 0.0, ox, oy, nx, ny, True, te
    if denom >= 0.0:
        # parallel, or heading away
        return MISS, 0.0, 0.0, 0.0, 0.0, False, 0.0
    t = s / -denom
    if t > max_distance or t == np.inf:
        # out of reach (or beyond the floats)
        return MISS, 0.0, 0.0, 0.0, 0.0, False, 0.0
    return t, ox + t * dx, oy + t * dy, nx, ny, False, np.inf


@kernel
def ray_plane2(ox: float, oy: float, dx: float, dy: float, nx: float, ny: float,
               offset: float, max_distance: float
               ) -> tuple[float, float, float, float, float, bool]:
    """Ray vs half-plane (see :func:`ray_plane2_x`), in the common encoding."""
    t, px, py, hx, hy, inside, _te = ray_plane2_x(ox, oy, dx, dy, nx, ny, offset,
                                                  max_distance)
    return t, px, py, hx, hy, inside


@callee
def _disc_exit(mx: float, my: float, mz: float, dx: float, dy: float, dz: float, r: float
               ) -> float:
    """Where a ray (origin ``c + m``, unit ``d``) leaves the ball of radius ``r`` at ``c``;
    ``-inf`` when its line misses the ball (2D: ``mz = dz = 0``)."""
    b = mx * dx + my * dy + mz * dz
    hx = mx - b * dx
    hy = my - b * dy
    hz = mz - b * dz
    disc = r * r - (hx * hx + hy * hy + hz * hz)
    if disc < 0.0:
        return -np.inf
    return _far_root(b, mx * mx + my * my + mz * mz - r * r, disc)


@callee
def _capsule2_exit(ox: float, oy: float, dx: float, dy: float, ax: float, ay: float,
                   bx: float, by: float, ux: float, uy: float, elen: float, r: float,
                   t: float) -> float:
    """Where a ray that meets a 2D capsule at ``t`` leaves it: the latest exit of its pieces
    (the two end discs and the rectangle between), whose union is the convex capsule."""
    te = max(_disc_exit(ox - ax, oy - ay, 0.0, dx, dy, 0.0, r),
             _disc_exit(ox - bx, oy - by, 0.0, dx, dy, 0.0, r))
    if elen > 0.0:
        # the rectangle: a slab along the core and a slab across it
        wx = ox - ax
        wy = oy - ay
        lo, hi, _r, ok = _slab(wx * ux + wy * uy, dx * ux + dy * uy, 0.0, elen, -np.inf, np.inf)
        if ok:
            lo, hi, _r, ok = _slab(ux * wy - uy * wx, ux * dy - uy * dx, -r, r, lo, hi)
            if ok:
                te = max(te, hi)
    return max(te, t)


@inline_kernel
def _surely_farther(x: float, y: float, reach: float) -> bool:
    """Whether :func:`_unit2`'s length of ``(x, y)`` surely exceeds ``reach``, from squares
    alone: ``x^2 + y^2 > reach^2`` times :data:`LENGTH_SURE`, ``reach^2`` a normal float at
    least :data:`SQUARE_NORMAL_MIN` (else False: undecided)."""
    rr = reach * reach
    return rr >= SQUARE_NORMAL_MIN and x * x + y * y > rr * LENGTH_SURE


@callee
def _capsule2_way_out(ox: float, oy: float, ax: float, ay: float, bx: float, by: float,
                      ux: float, uy: float, elen: float, reach: float
                      ) -> tuple[float, float, float]:
    """The way out of a 2D capsule from origin o (core ab, unit axis u, length elen): the
    unit normal from the core point nearest o toward o and o's distance from the core, as
    (nx, ny, distance). On the core, or exactly on an end, out to the left of a -> b; at the
    centre of a capsule that is a circle, the coincidence normal. An origin beyond an end
    and surely farther than ``reach`` from it (:func:`_surely_farther`) gets ``(0, 0, inf)``
    without the normal's divisions and square root: the callers only compare its distance
    with ``reach`` (``inf`` when nothing is to be skipped)."""
    wx = ox - ax
    wy = oy - ay
    along = wx * ux + wy * uy  # the origin's position along the core, from a
    beside = elen > 0.0 and 0.0 < along < elen
    qx, qy = wx, wy  # the origin's offset from a core point on its line
    if elen > 0.0 and along >= elen and (ox - bx) * ux + (oy - by) * uy < 0.0:
        # past b measured from a, but short of it measured from b: an origin on or beside the
        # core within rounding of b (the offset from b would point along the axis, a way
        # out that stays inside); measured from b
        qx = ox - bx
        qy = oy - by
        beside = True
    if beside:
        # beside the core: straight out sideways, square to it (its signed height h)
        h = ux * qy - uy * qx
        dist = abs(h)
        side = 1.0 if h >= 0.0 else -1.0
        # on the core itself (h = 0): out to the left of a -> b
        wnx = side * (0.0 - uy) + 0.0
        wny = side * ux + 0.0
    else:
        # beyond an end (or a capsule that is a circle): out from that end
        if elen > 0.0 and along >= elen:
            wx = ox - bx
            wy = oy - by
        if _surely_farther(wx, wy, reach):
            # beyond the reach the caller compares: no normal needed
            return 0.0, 0.0, np.inf
        wnx, wny, dist = _unit2(wx, wy)
        if dist == 0.0 and elen > 0.0:
            # exactly on an end: out to the left of a -> b
            wnx = 0.0 - uy
            wny = ux
        elif dist == 0.0:
            # at the centre of a capsule that is a circle
            wnx = COINCIDENT_NX2
            wny = COINCIDENT_NY2
    return wnx, wny, dist


@inline_kernel
def _capsule2_body(ox: float, oy: float, dx: float, dy: float, ax: float, ay: float, bx: float,
              by: float, r: float, max_distance: float, entering_only: bool, with_exit: bool
              ) -> tuple[float, float, float, float, float, bool, float]:
    """Ray vs 2D capsule (segment ``ab`` grown by ``r``): both modes, see the callers; the
    exit is the last field when ``with_exit`` (else the hit's t: :func:`ray_capsule2` drops
    it, and a real call cannot leave its two disc exits and two slabs out for the caller;
    measured, ``benchmarks/ab_rays.py`` on the every-kind scene, see CHANGELOG)."""
    ux, uy, elen = _unit2(bx - ax, by - ay)
    if r == 0.0 and not entering_only:
        # no thickness: exactly the segment (or the point)
        if elen == 0.0:
            return _point2(ox, oy, dx, dy, ox - ax, oy - ay, max_distance)
        t, px, py, nx, ny, inside = ray_segment(ox, oy, dx, dy, ax, ay, bx, by, max_distance)
        return t, px, py, nx, ny, inside, max(t, 0.0)
    # the way out: from the core point nearest the origin, toward the origin (its normal
    # only when the origin may be within the reach compared below)
    tol = 0.0
    reach = r
    if entering_only:
        tol = RIM_TOLERANCE * max(abs(ox), abs(oy), abs(ax), abs(ay), abs(bx), abs(by), r)
        reach = r + tol
    wnx, wny, dist = _capsule2_way_out(ox, oy, ax, ay, bx, by, ux, uy, elen, reach)
    if entering_only:
        if dist < r - tol:
            # starts strictly inside
            te = 0.0
            if with_exit:
                te = _capsule2_exit(ox, oy, dx, dy, ax, ay, bx, by, ux, uy, elen, r, 0.0)
            return 0.0, ox, oy, wnx, wny, True, te
        if dist <= reach:
            # on the rim: a hit at 0 only when heading into the surface; a convex shape
            # left (or grazed) from its rim is never met again
            if dist > 0.0 and wnx * dx + wny * dy < -HEADING_TOLERANCE:
                te = 0.0
                if with_exit:
                    te = _capsule2_exit(ox, oy, dx, dy, ax, ay, bx, by, ux, uy, elen, r, 0.0)
                return 0.0, ox, oy, wnx, wny, True, te
            return MISS, 0.0, 0.0, 0.0, 0.0, False, 0.0
        if r == 0.0:
            # no thickness, from off the core: the segment (or the point), entered only if
            # the ray heads across it (or along it, to its near end)
            if elen == 0.0:
                return _point2(ox, oy, dx, dy, ox - ax, oy - ay, max_distance)
            t, px, py, nx, ny, inside = ray_segment(ox, oy, dx, dy, ax, ay, bx, by,
                                                    max_distance)
            if t <= 0.0 or nx * dx + ny * dy >= 0.0:
                return MISS, 0.0, 0.0, 0.0, 0.0, False, 0.0
            return t, px, py, nx, ny, False, t
    elif dist <= r:
        # starts inside or on the rim
        te = 0.0
        if with_exit:
            te = _capsule2_exit(ox, oy, dx, dy, ax, ay, bx, by, ux, uy, elen, r, 0.0)
        return 0.0, ox, oy, wnx, wny, True, te

    # from outside: the nearest entry into the two sides or the two end circles
    best = max_distance
    found = False
    nx = 0.0
    ny = 0.0
    if elen > 0.0:
        # the left normal of a -> b; the ray can enter only the side it heads against
        sx = 0.0 - uy
        sy = ux
        dn = dx * sx + dy * sy
        if abs(dn) > RAY_PARALLEL_SINE:
            h = (ox - ax) * sx + (oy - ay) * sy  # the origin's height above the core's line
            side = 1.0 if dn < 0.0 else -1.0
            t = (side * r - h) / dn
            if 0.0 <= t <= best:
                along = (ox + t * dx - ax) * ux + (oy + t * dy - ay) * uy
                if 0.0 <= along <= elen:
                    best = t
                    found = True
                    nx = side * sx + 0.0
                    ny = side * sy + 0.0
    for k in range(2):
        cx = ax if k == 0 else bx
        cy = ay if k == 0 else by
        # the distance first; the circle kernel's normal only for a nearer hit
        t = ray_circle_distance(ox, oy, dx, dy, cx, cy, r, best)
        if t >= 0.0 and (t < best or not found):
            t, _px, _py, nx, ny, _inside, _te = ray_circle_x(ox, oy, dx, dy, cx, cy, r, best)
            best = t
            found = True
    if not found:
        return MISS, 0.0, 0.0, 0.0, 0.0, False, 0.0
    if entering_only and nx * dx + ny * dy >= 0.0:
        # a grazing touch: the ray never heads into the surface
        return MISS, 0.0, 0.0, 0.0, 0.0, False, 0.0
    te = best
    if with_exit:
        te = _capsule2_exit(ox, oy, dx, dy, ax, ay, bx, by, ux, uy, elen, r, best)
    return best, ox + best * dx, oy + best * dy, nx, ny, False, te


@callee
def _capsule2(ox: float, oy: float, dx: float, dy: float, ax: float, ay: float, bx: float,
              by: float, r: float, max_distance: float, entering_only: bool, with_exit: bool
              ) -> tuple[float, float, float, float, float, bool, float]:
    """:func:`_capsule2_body` as one compiled call, for every caller but :func:`ray_capsule2`
    (which inlines it: the World's grid walk calls that one for each capsule it meets, and a
    call inside a call cost it; measured, see CHANGELOG)."""
    return _capsule2_body(ox, oy, dx, dy, ax, ay, bx, by, r, max_distance, entering_only,
                          with_exit)


@kernel
def ray_capsule2(ox: float, oy: float, dx: float, dy: float, ax: float, ay: float, bx: float,
                 by: float, r: float, max_distance: float
                 ) -> tuple[float, float, float, float, float, bool]:
    """Ray vs solid 2D capsule: the nearest entry into its two sides and two end circles.

    Starting inside or on the rim hits at 0 (normal: from the nearest core point toward the
    origin; on the core itself, the left normal of ``a -> b``; ``+x`` if also ``a == b``).
    A grazing (tangent) touch from outside is a hit.
    """
    t, px, py, nx, ny, inside, _te = _capsule2_body(ox, oy, dx, dy, ax, ay, bx, by, r,
                                                    max_distance, False, False)
    return t, px, py, nx, ny, inside


@kernel
def ray_capsule2_entering(ox: float, oy: float, dx: float, dy: float, ax: float, ay: float,
                          bx: float, by: float, r: float, max_distance: float
                          ) -> tuple[float, float, float, float, float, bool]:
    """Ray vs 2D capsule counting only the pieces the ray heads into (seed 000's swept step).

    A hit needs ``dot(d, n) < 0`` at the hit: an origin on the rim (within
    ``RIM_TOLERANCE``) heading outward or along the rim (``dot(d, n) >= -HEADING_TOLERANCE``)
    misses, as does a grazing touch,
    so a ball that has just bounced off the capsule is not caught again at 0. An origin
    on the rim heading in hits at 0 (``inside`` True, outward normal); one strictly inside
    hits at 0 with the normal of the shortest way out.
    """
    t, px, py, nx, ny, inside, _te = _capsule2(ox, oy, dx, dy, ax, ay, bx, by, r,
                                               max_distance, True, False)
    return t, px, py, nx, ny, inside


# --------------------------------------------------------------------------------------
# 3D
# --------------------------------------------------------------------------------------

@callee
def _point3(ox: float, oy: float, oz: float, dx: float, dy: float, dz: float, mx: float,
            my: float, mz: float, max_distance: float
            ) -> tuple[float, float, float, float, float, float, float, bool, float]:
    """Ray vs a point at ``o - m`` (as :func:`_point2`)."""
    b = mx * dx + my * dy + mz * dz
    _ux, _uy, _uz, ml = _unit3(mx, my, mz)
    if ml == 0.0:
        # the origin is on the point
        return 0.0, ox, oy, oz, 0.0 - dx, 0.0 - dy, 0.0 - dz, True, 0.0
    _hx, _hy, _hz, hl = _unit3(mx - b * dx, my - b * dy, mz - b * dz)
    t = 0.0 - b
    if b >= 0.0 or hl > COLLINEAR_TOLERANCE * ml or t > max_distance:
        # behind the origin, off the ray, or out of reach
        return MISS, 0.0, 0.0, 0.0, 0.0, 0.0, 0.0, False, 0.0
    return t, ox + t * dx, oy + t * dy, oz + t * dz, 0.0 - dx, 0.0 - dy, 0.0 - dz, False, t


@callee
def ray_sphere_x(ox: float, oy: float, oz: float, dx: float, dy: float, dz: float, cx: float,
                 cy: float, cz: float, r: float, max_distance: float
                 ) -> tuple[float, float, float, float, float, float, float, bool, float]:
    """Ray vs solid sphere: the nearer root of ``|o + t d - c|^2 = r^2``, plus the exit (as
    :func:`ray_circle_x`)."""
    mx = ox - cx
    my = oy - cy
    mz = oz - cz
    if r == 0.0:
        # a point
        return _point3(ox, oy, oz, dx, dy, dz, mx, my, mz, max_distance)
    b = mx * dx + my * dy + mz * dz
    hx = mx - b * dx
    hy = my - b * dy
    hz = mz - b * dz
    disc = r * r - (hx * hx + hy * hy + hz * hz)
    mm = mx * mx + my * my + mz * mz
    c = mm - r * r
    if c <= 0.0:
        # starts inside or on the surface
        te = _far_root(b, c, disc)
        ux, uy, uz, m = _unit3(mx, my, mz)
        if m > 0.0:
            return 0.0, ox, oy, oz, ux, uy, uz, True, te
        return 0.0, ox, oy, oz, COINCIDENT_NX3, COINCIDENT_NY3, COINCIDENT_NZ3, True, te
    if b >= 0.0 or disc < 0.0:
        # heading away from the centre, or the line passes farther than r from it
        return MISS, 0.0, 0.0, 0.0, 0.0, 0.0, 0.0, False, 0.0
    sq = math.sqrt(disc)
    t = c / (sq - b)
    if t > max_distance:
        return MISS, 0.0, 0.0, 0.0, 0.0, 0.0, 0.0, False, 0.0
    nx, ny, nz, n = _unit3(mx + t * dx, my + t * dy, mz + t * dz)
    if n == 0.0:
        # a radius lost below the rounding of the coordinates, hit dead on
        nx = 0.0 - dx
        ny = 0.0 - dy
        nz = 0.0 - dz
    return t, ox + t * dx, oy + t * dy, oz + t * dz, nx, ny, nz, False, max(sq - b, t)


@kernel
def ray_sphere(ox: float, oy: float, oz: float, dx: float, dy: float, dz: float, cx: float,
               cy: float, cz: float, r: float, max_distance: float
               ) -> tuple[float, float, float, float, float, float, float, bool]:
    """Ray vs solid sphere (see :func:`ray_sphere_x`), in the common encoding."""
    t, px, py, pz, nx, ny, nz, inside, _te = ray_sphere_x(ox, oy, oz, dx, dy, dz, cx, cy, cz,
                                                          r, max_distance)
    return t, px, py, pz, nx, ny, nz, inside


@kernel
def ray_aabb3_face_x(ox: float, oy: float, oz: float, dx: float, dy: float, dz: float,
                     minx: float, miny: float, minz: float, maxx: float, maxy: float,
                     maxz: float, max_distance: float) -> tuple[float, int, bool, float]:
    """Ray vs solid 3D box: three slabs, as :func:`ray_aabb2_face_x` (ties: x, then y)."""
    t0, t1, rx, ok = _slab(ox, dx, minx, maxx, 0.0, np.inf)
    if not ok:
        return MISS, 0, False, 0.0
    t0, t1, ry, ok = _slab(oy, dy, miny, maxy, t0, t1)
    if not ok:
        return MISS, 0, False, 0.0
    t0, t1, rz, ok = _slab(oz, dz, minz, maxz, t0, t1)
    if not ok or t0 > max_distance or t0 == np.inf:
        return MISS, 0, False, 0.0
    if rz:
        # entered through a z face
        return t0, FACE_MIN_Z if dz > 0.0 else FACE_MAX_Z, False, t1
    if ry:
        # entered through a y face
        return t0, FACE_MIN_Y if dy > 0.0 else FACE_MAX_Y, False, t1
    if rx:
        # entered through an x face
        return t0, FACE_MIN_X if dx > 0.0 else FACE_MAX_X, False, t1
    # starts inside or on the box: out through the nearest face
    face = FACE_MIN_X
    best = ox - minx
    g = maxx - ox
    if g < best:
        best, face = g, FACE_MAX_X
    g = oy - miny
    if g < best:
        best, face = g, FACE_MIN_Y
    g = maxy - oy
    if g < best:
        best, face = g, FACE_MAX_Y
    g = oz - minz
    if g < best:
        best, face = g, FACE_MIN_Z
    g = maxz - oz
    if g < best:
        face = FACE_MAX_Z
    return 0.0, face, True, t1


@kernel
def ray_aabb3_face(ox: float, oy: float, oz: float, dx: float, dy: float, dz: float,
                   minx: float, miny: float, minz: float, maxx: float, maxy: float,
                   maxz: float, max_distance: float) -> tuple[float, int, bool]:
    """:func:`ray_aabb3_face_x` without the exit."""
    t, face, inside, _te = ray_aabb3_face_x(ox, oy, oz, dx, dy, dz, minx, miny, minz, maxx,
                                            maxy, maxz, max_distance)
    return t, face, inside


@kernel
def ray_aabb3(ox: float, oy: float, oz: float, dx: float, dy: float, dz: float, minx: float,
              miny: float, minz: float, maxx: float, maxy: float, maxz: float,
              max_distance: float
              ) -> tuple[float, float, float, float, float, float, float, bool]:
    """Ray vs solid 3D box (see :func:`ray_aabb3_face`), in the common encoding."""
    t, face, inside = ray_aabb3_face(ox, oy, oz, dx, dy, dz, minx, miny, minz, maxx, maxy,
                                     maxz, max_distance)
    if t < 0.0:
        return MISS, 0.0, 0.0, 0.0, 0.0, 0.0, 0.0, False
    nx, ny, nz = _face_normal(face)
    return t, ox + t * dx, oy + t * dy, oz + t * dz, nx, ny, nz, inside


@callee
def ray_plane3_x(ox: float, oy: float, oz: float, dx: float, dy: float, dz: float, nx: float,
                 ny: float, nz: float, offset: float, max_distance: float
                 ) -> tuple[float, float, float, float, float, float, float, bool, float]:
    """Ray vs half-space ``dot(n, p) < offset`` (as :func:`ray_plane2_x`)."""
    s = nx * ox + ny * oy + nz * oz - offset
    denom = nx * dx + ny * dy + nz * dz
    if s <= 0.0:
        # starts inside or on the boundary: it leaves only heading out
        te = (0.0 - s) / denom if denom > 0.0 else np.inf
        return 0.0, ox, oy, oz, nx, ny, nz, True, te
    if denom >= 0.0:
        # parallel, or heading away
        return MISS, 0.0, 0.0, 0.0, 0.0, 0.0, 0.0, False, 0.0
    t = s / -denom
    if t > max_distance or t == np.inf:
        # out of reach (or beyond the floats)
        return MISS, 0.0, 0.0, 0.0, 0.0, 0.0, 0.0, False, 0.0
    return t, ox + t * dx, oy + t * dy, oz + t * dz, nx, ny, nz, False, np.inf


@kernel
def ray_plane3(ox: float, oy: float, oz: float, dx: float, dy: float, dz: float, nx: float,
               ny: float, nz: float, offset: float, max_distance: float
               ) -> tuple[float, float, float, float, float, float, float, bool]:
    """Ray vs half-space (see :func:`ray_plane3_x`), in the common encoding."""
    t, px, py, pz, hx, hy, hz, inside, _te = ray_plane3_x(ox, oy, oz, dx, dy, dz, nx, ny, nz,
                                                          offset, max_distance)
    return t, px, py, pz, hx, hy, hz, inside


@callee
def _segment3(ox: float, oy: float, oz: float, dx: float, dy: float, dz: float, ax: float,
              ay: float, az: float, bx: float, by: float, bz: float, max_distance: float
              ) -> tuple[float, float, float, float, float, float, float, bool, float]:
    """Ray vs 3D segment ``ab`` (``a != b``; a zero-radius capsule): a hit where the ray meets
    it (the two lines within ``COLLINEAR_TOLERANCE`` of each other, relative to the distances
    involved), normal the part of ``-d`` square to the segment, normalised; a collinear ray
    hits where it first reaches the segment with normal ``-d``, as :func:`ray_segment`. An
    origin on the segment hits at 0 with ``inside`` True. The exit is the entry."""
    ux, uy, uz, elen = _unit3(bx - ax, by - ay, bz - az)
    wx = ax - ox
    wy = ay - oy
    wz = az - oz
    _wux, _wuy, _wuz, wl = _unit3(wx, wy, wz)
    tol = COLLINEAR_TOLERANCE * (wl + elen)
    # d x u: its length is the sine of the angle between the ray and the segment
    nx, ny, nz, sn = _unit3(dy * uz - dz * uy, dz * ux - dx * uz, dx * uy - dy * ux)
    # w x u: |w| times the origin's distance from the segment's line
    cx = wy * uz - wz * uy
    cy = wz * ux - wx * uz
    cz = wx * uy - wy * ux
    if sn <= RAY_PARALLEL_SINE:
        # parallel: collinear, or a miss
        _qx, _qy, _qz, off = _unit3(cx, cy, cz)
        if off > tol:
            return MISS, 0.0, 0.0, 0.0, 0.0, 0.0, 0.0, False, 0.0
        sa = wx * dx + wy * dy + wz * dz
        sb = (bx - ox) * dx + (by - oy) * dy + (bz - oz) * dz
        near = min(sa, sb)
        if max(sa, sb) < 0.0:
            # the whole segment is behind the origin
            return MISS, 0.0, 0.0, 0.0, 0.0, 0.0, 0.0, False, 0.0
        if near <= 0.0:
            # starts on the segment
            return 0.0, ox, oy, oz, 0.0 - dx, 0.0 - dy, 0.0 - dz, True, 0.0
        if near > max_distance:
            return MISS, 0.0, 0.0, 0.0, 0.0, 0.0, 0.0, False, 0.0
        return (near, ox + near * dx, oy + near * dy, oz + near * dz, 0.0 - dx, 0.0 - dy,
                0.0 - dz, False, near)
    # skew or crossing: the lines' distance apart is w . (d x u) / |d x u|
    if abs(wx * nx + wy * ny + wz * nz) > tol:
        return MISS, 0.0, 0.0, 0.0, 0.0, 0.0, 0.0, False, 0.0
    # o + t d = a + s u: t = (w x u) . n / sn, s = (w x d) . n / sn
    t = (cx * nx + cy * ny + cz * nz) / sn
    s = ((wy * dz - wz * dy) * nx + (wz * dx - wx * dz) * ny + (wx * dy - wy * dx) * nz) / sn
    if t < 0.0 or t > max_distance or s < 0.0 or s > elen:
        # behind the origin, out of reach, or past an end
        return MISS, 0.0, 0.0, 0.0, 0.0, 0.0, 0.0, False, 0.0
    du = dx * ux + dy * uy + dz * uz
    hx, hy, hz, _k = _unit3(du * ux - dx, du * uy - dy, du * uz - dz)
    if t == 0.0:
        # starts on the segment
        return 0.0, ox, oy, oz, hx, hy, hz, True, 0.0
    return t, ox + t * dx, oy + t * dy, oz + t * dz, hx, hy, hz, False, t



@callee
def _cylinder_quadratic(wx: float, wy: float, wz: float, wu: float, dx: float, dy: float,
                        dz: float, ux: float, uy: float, uz: float, r: float
                        ) -> tuple[float, float, float, float]:
    """The ray ``w + t d`` (``w`` from a point of the axis, ``wu = dot(w, u)``) against the
    infinite cylinder of radius ``r`` about the unit axis ``u``: the parts square to the axis
    give ``qa t^2 + 2 qb t + qc = 0`` (``|mp + t dp|^2 = r^2``); also ``du = dot(d, u)``."""
    du = dx * ux + dy * uy + dz * uz
    mpx = wx - wu * ux
    mpy = wy - wu * uy
    mpz = wz - wu * uz
    dpx = dx - du * ux
    dpy = dy - du * uy
    dpz = dz - du * uz
    qa = dpx * dpx + dpy * dpy + dpz * dpz
    qb = mpx * dpx + mpy * dpy + mpz * dpz
    qc = mpx * mpx + mpy * mpy + mpz * mpz - r * r
    return qa, qb, qc, du

@callee
def _capsule3_exit(ox: float, oy: float, oz: float, dx: float, dy: float, dz: float,
                   ax: float, ay: float, az: float, bx: float, by: float, bz: float,
                   ux: float, uy: float, uz: float, elen: float, r: float, t: float) -> float:
    """Where a ray that meets a 3D capsule at ``t`` leaves it: the latest exit of its pieces
    (the two end balls and the cylinder between), whose union is the convex capsule."""
    te = max(_disc_exit(ox - ax, oy - ay, oz - az, dx, dy, dz, r),
             _disc_exit(ox - bx, oy - by, oz - bz, dx, dy, dz, r))
    if elen > 0.0:
        wx = ox - ax
        wy = oy - ay
        wz = oz - az
        wu = wx * ux + wy * uy + wz * uz
        # the parts square to the axis: |mp + t dp|^2 = r^2, roots lo <= hi
        qa, qb, qc, du = _cylinder_quadratic(wx, wy, wz, wu, dx, dy, dz, ux, uy, uz, r)
        ok = True
        lo = -np.inf
        hi = np.inf
        if qa <= RAY_PARALLEL_SINE * RAY_PARALLEL_SINE:
            # parallel to the axis: in the infinite cylinder always, or never
            ok = qc <= 0.0
        else:
            tp = (ux * (dy * wz - dz * wy) + uy * (dz * wx - dx * wz)
                  + uz * (dx * wy - dy * wx))
            disc = qa * r * r - tp * tp
            if disc < 0.0:
                ok = False
            else:
                sq = math.sqrt(disc)
                # the roots, each written without cancellation (their product is qc / qa)
                if qb <= 0.0:
                    hi = (sq - qb) / qa
                    lo = qc / (sq - qb) if sq - qb > 0.0 else hi
                else:
                    lo = (-qb - sq) / qa
                    hi = qc / (-qb - sq)
        if ok:
            lo, hi, _r, ok = _slab(wu, du, 0.0, elen, lo, hi)
            if ok:
                te = max(te, hi)
    return max(te, t)


@callee
def _capsule3_way_out(ox: float, oy: float, oz: float, ax: float, ay: float, az: float,
                      bx: float, by: float, bz: float, ux: float, uy: float, uz: float,
                      elen: float) -> tuple[float, float, float, float, float]:
    """The way out of a capsule from origin o (core ab, unit axis u, length elen): the unit
    normal from the core point nearest o toward o, o's distance from the core, and o's
    position along the core from a, as (nx, ny, nz, distance, along). On the core itself, a
    stable perpendicular of the axis; at the centre of a capsule that is a sphere, the
    coincidence normal."""
    wx = ox - ax
    wy = oy - ay
    wz = oz - az
    along = wx * ux + wy * uy + wz * uz  # the origin's position along the core, from a
    # the origin's offset from a core point and its position along the core from there
    qx, qy, qz, qu = wx, wy, wz, along
    beside = elen > 0.0 and 0.0 < along < elen
    if elen > 0.0 and along >= elen:
        back = (ox - bx) * ux + (oy - by) * uy + (oz - bz) * uz
        if back < 0.0:
            # past b measured from a, but short of it measured from b: an origin on or
            # beside the core within rounding of b (the offset from b would point along the
            # axis, a way out that stays inside); measured from b
            qx, qy, qz, qu = ox - bx, oy - by, oz - bz, back
            beside = True
    if beside:
        # beside the core: the offset square to it (a second pass removes what rounding
        # left along the axis)
        vx = qx - qu * ux
        vy = qy - qu * uy
        vz = qz - qu * uz
        vv = vx * vx + vy * vy + vz * vz
        if vv <= (COLLINEAR_TOLERANCE * COLLINEAR_TOLERANCE) * (qx * qx + qy * qy + qz * qz):
            # on the core, to rounding: what is left of the offset is the subtraction's
            # rounding, of any direction (along the axis, for an origin on a diagonal core),
            # so the square way out below, as for an origin exactly on it
            vx = 0.0
            vy = 0.0
            vz = 0.0
        else:
            rest = vx * ux + vy * uy + vz * uz
            vx -= rest * ux
            vy -= rest * uy
            vz -= rest * uz
    elif elen > 0.0 and along >= elen:
        # beyond b
        vx = ox - bx
        vy = oy - by
        vz = oz - bz
    else:
        # beyond a (or a capsule that is a sphere)
        vx = wx
        vy = wy
        vz = wz
    wnx, wny, wnz, dist = _unit3(vx, vy, vz)
    if dist == 0.0 and elen > 0.0:
        # on the core: out square to it, crossing the axis with the world axis least aligned
        if abs(ux) <= abs(uy) and abs(ux) <= abs(uz):
            wnx, wny, wnz = 0.0, -uz, uy
        elif abs(uy) <= abs(uz):
            wnx, wny, wnz = uz, 0.0, -ux
        else:
            wnx, wny, wnz = -uy, ux, 0.0
        wnx, wny, wnz, _k = _unit3(wnx, wny, wnz)
    elif dist == 0.0:
        # at the centre of a capsule that is a sphere
        wnx, wny, wnz = COINCIDENT_NX3, COINCIDENT_NY3, COINCIDENT_NZ3
    return wnx, wny, wnz, dist, along


@callee
def _capsule3_side(ox: float, oy: float, oz: float, dx: float, dy: float, dz: float,
                   ax: float, ay: float, az: float, ux: float, uy: float, uz: float,
                   elen: float, r: float, wu: float, best: float
                   ) -> tuple[bool, float, float, float, float]:
    """A ray's entry from outside into a capsule's side (the infinite cylinder of radius r
    round the axis u from a, clipped to the core's span 0..elen; ``wu`` is the origin's
    position along it) no later than ``best``, as (found, t, nx, ny, nz)."""
    found = False
    nx = 0.0
    ny = 0.0
    nz = 0.0
    wx = ox - ax
    wy = oy - ay
    wz = oz - az
    # the parts square to the axis: |mp + t dp|^2 = r^2
    qa, qb, qc, du = _cylinder_quadratic(wx, wy, wz, wu, dx, dy, dz, ux, uy, uz, r)
    # parallel to the axis (never reaches the side), inside the infinite cylinder
    # (enters through an end sphere), or heading away from the axis: no side entry
    if qa > RAY_PARALLEL_SINE * RAY_PARALLEL_SINE and qc > 0.0 and qb < 0.0:
        # discriminant qb^2 - qa qc = qa r^2 - (u . (d x w))^2, without cancellation
        tp = (ux * (dy * wz - dz * wy) + uy * (dz * wx - dx * wz)
              + uz * (dx * wy - dy * wx))
        disc = qa * r * r - tp * tp
        if disc >= 0.0:
            t = qc / (math.sqrt(disc) - qb)
            along = wu + t * du
            if t <= best and 0.0 <= along <= elen:
                # the hit's part square to the axis: mp + t dp = w + t d - along u
                sx, sy, sz, k = _unit3(wx + t * dx - along * ux, wy + t * dy - along * uy,
                                       wz + t * dz - along * uz)
                if k > 0.0:
                    best = t
                    found = True
                    nx = sx
                    ny = sy
                    nz = sz
    return found, best, nx, ny, nz


@callee
def _capsule3(ox: float, oy: float, oz: float, dx: float, dy: float, dz: float, ax: float,
              ay: float, az: float, bx: float, by: float, bz: float, r: float,
              max_distance: float, entering_only: bool
              ) -> tuple[float, float, float, float, float, float, float, bool, float]:
    """Ray vs 3D capsule: both modes, see the callers; the exit is the last field."""
    ux, uy, uz, elen = _unit3(bx - ax, by - ay, bz - az)
    if r == 0.0 and not entering_only:
        # no thickness: exactly the segment (or the point)
        if elen == 0.0:
            return _point3(ox, oy, oz, dx, dy, dz, ox - ax, oy - ay, oz - az, max_distance)
        return _segment3(ox, oy, oz, dx, dy, dz, ax, ay, az, bx, by, bz, max_distance)
    # the way out: from the core point nearest the origin, toward the origin
    wnx, wny, wnz, dist, along = _capsule3_way_out(ox, oy, oz, ax, ay, az, bx, by, bz, ux,
                                                   uy, uz, elen)
    if entering_only:
        tol = RIM_TOLERANCE * max(abs(ox), abs(oy), abs(oz), abs(ax), abs(ay), abs(az),
                                  abs(bx), abs(by), abs(bz), r)
        if dist < r - tol:
            # starts strictly inside
            return 0.0, ox, oy, oz, wnx, wny, wnz, True, _capsule3_exit(
                ox, oy, oz, dx, dy, dz, ax, ay, az, bx, by, bz, ux, uy, uz, elen, r, 0.0)
        if dist <= r + tol:
            # on the rim: a hit at 0 only when heading into the surface
            if dist > 0.0 and wnx * dx + wny * dy + wnz * dz < -HEADING_TOLERANCE:
                return 0.0, ox, oy, oz, wnx, wny, wnz, True, _capsule3_exit(
                    ox, oy, oz, dx, dy, dz, ax, ay, az, bx, by, bz, ux, uy, uz, elen, r, 0.0)
            return MISS, 0.0, 0.0, 0.0, 0.0, 0.0, 0.0, False, 0.0
        if r == 0.0:
            # no thickness, from off the core: the segment (or the point); its normal
            # always opposes the ray, so every hit heads in
            if elen == 0.0:
                return _point3(ox, oy, oz, dx, dy, dz, ox - ax, oy - ay, oz - az,
                               max_distance)
            hit = _segment3(ox, oy, oz, dx, dy, dz, ax, ay, az, bx, by, bz, max_distance)
            if hit[0] <= 0.0:
                return MISS, 0.0, 0.0, 0.0, 0.0, 0.0, 0.0, False, 0.0
            return hit
    elif dist <= r:
        # starts inside or on the surface
        return 0.0, ox, oy, oz, wnx, wny, wnz, True, _capsule3_exit(
            ox, oy, oz, dx, dy, dz, ax, ay, az, bx, by, bz, ux, uy, uz, elen, r, 0.0)

    # from outside: the nearest entry into the side (an infinite cylinder clipped to the
    # segment's span) or the two end spheres
    best = max_distance
    found = False
    nx = 0.0
    ny = 0.0
    nz = 0.0
    if elen > 0.0:
        found, best, nx, ny, nz = _capsule3_side(ox, oy, oz, dx, dy, dz, ax, ay, az, ux, uy,
                                                 uz, elen, r, along, best)
    for e in range(2):
        cx = ax if e == 0 else bx
        cy = ay if e == 0 else by
        cz = az if e == 0 else bz
        t, _px, _py, _pz, cnx, cny, cnz, _inside, _te = ray_sphere_x(
            ox, oy, oz, dx, dy, dz, cx, cy, cz, r, best)
        if t >= 0.0 and (t < best or not found):
            best = t
            found = True
            nx = cnx
            ny = cny
            nz = cnz
    if not found:
        return MISS, 0.0, 0.0, 0.0, 0.0, 0.0, 0.0, False, 0.0
    if entering_only and nx * dx + ny * dy + nz * dz >= 0.0:
        # a grazing touch: the ray never heads into the surface
        return MISS, 0.0, 0.0, 0.0, 0.0, 0.0, 0.0, False, 0.0
    return best, ox + best * dx, oy + best * dy, oz + best * dz, nx, ny, nz, False, \
        _capsule3_exit(ox, oy, oz, dx, dy, dz, ax, ay, az, bx, by, bz, ux, uy, uz, elen, r,
                       best)


@kernel
def ray_capsule3(ox: float, oy: float, oz: float, dx: float, dy: float, dz: float, ax: float,
                 ay: float, az: float, bx: float, by: float, bz: float, r: float,
                 max_distance: float
                 ) -> tuple[float, float, float, float, float, float, float, bool]:
    """Ray vs solid 3D capsule: the nearest entry into its cylinder side or end spheres.

    Starting inside or on the surface hits at 0 (normal: from the nearest core point toward
    the origin; on the core itself, a stable perpendicular of the axis; ``+x`` if also
    ``a == b``). A grazing touch from outside is a hit.
    """
    t, px, py, pz, nx, ny, nz, inside, _te = _capsule3(ox, oy, oz, dx, dy, dz, ax, ay, az, bx,
                                                       by, bz, r, max_distance, False)
    return t, px, py, pz, nx, ny, nz, inside


@kernel
def ray_capsule3_entering(ox: float, oy: float, oz: float, dx: float, dy: float, dz: float,
                          ax: float, ay: float, az: float, bx: float, by: float, bz: float,
                          r: float, max_distance: float
                          ) -> tuple[float, float, float, float, float, float, float, bool]:
    """Ray vs 3D capsule counting only the pieces the ray heads into (as
    :func:`ray_capsule2_entering`)."""
    t, px, py, pz, nx, ny, nz, inside, _te = _capsule3(ox, oy, oz, dx, dy, dz, ax, ay, az, bx,
                                                       by, bz, r, max_distance, True)
    return t, px, py, pz, nx, ny, nz, inside


# --------------------------------------------------------------------------------------
# Adapters for the scalar Python API (swept.raycast), no geometry of their own. They take
# the ray packed in one tuple (``Ray._args``: fewer arguments to unbox, about 10 ns a call)
# and each point or vector of the shape as one tuple (a Vec2 / Vec3 is a tuple), return None
# on a miss (no tuple to build), and give a box face, polygon edge or segment side as its
# index, so that the Python layer can hand out a prebuilt normal instead of building one.
# --------------------------------------------------------------------------------------

Tuple2 = tuple[float, float]
Tuple3 = tuple[float, float, float]
#: A ray packed for the entry kernels, as ``Ray._args`` holds it: origin, unit direction, reach.
Ray2 = tuple[float, float, float, float, float]
Ray3 = tuple[float, float, float, float, float, float, float]
#: A hit in the common encoding with the exit appended.
Hit2 = tuple[float, float, float, float, float, bool, float]
Hit3 = tuple[float, float, float, float, float, float, float, bool, float]


@entry
def ray_circle_v(ray: Ray2, c: Tuple2, r: float) -> Hit2 | None:
    """:func:`ray_circle_x` with tuple arguments; None on a miss."""
    hit = ray_circle_x(ray[0], ray[1], ray[2], ray[3], c[0], c[1], r, ray[4])
    if hit[0] < 0.0:
        return None
    return hit


@kernel
def segment_normals2(ax: float, ay: float, bx: float, by: float
                     ) -> tuple[float, float, float, float]:
    """The two unit normals :func:`ray_segment` gives segment ``ab``, bit for bit: the left
    one (``(b - a).perp()`` normalised) and the right one, ``(lx, ly, rx, ry)``."""
    ux, uy, _elen = _unit2(bx - ax, by - ay)
    # as ray_segment writes them: 0.0 - x, so that neither has a negative zero
    lx = 0.0 - uy
    ly = ux
    return lx, ly, 0.0 - lx, 0.0 - ly


#: :func:`ray_segment_v`'s normal codes: the segment's left normal, its right normal, and
#: ``-direction`` (a collinear ray).
SEGMENT_LEFT, SEGMENT_RIGHT, SEGMENT_BACK = 0, 1, 2


@entry
def ray_segment_v(ray: Ray2, a: Tuple2, b: Tuple2
                  ) -> tuple[float, float, float, int, bool] | None:
    """:func:`ray_segment` with tuple arguments: ``(t, px, py, code, inside)`` or None.

    ``code`` names the normal (``SEGMENT_LEFT``, ``SEGMENT_RIGHT`` or ``SEGMENT_BACK``), so
    that the caller can hand out the segment's prebuilt normal rather than build one.
    """
    t, px, py, nx, ny, inside = ray_segment(ray[0], ray[1], ray[2], ray[3], a[0], a[1], b[0], b[1],
                                            ray[4])
    if t < 0.0:
        return None
    lx, ly, rx, ry = segment_normals2(a[0], a[1], b[0], b[1])
    if nx == lx and ny == ly:
        return t, px, py, SEGMENT_LEFT, inside
    if nx == rx and ny == ry:
        return t, px, py, SEGMENT_RIGHT, inside
    # collinear: the normal is -d
    return t, px, py, SEGMENT_BACK, inside


@entry
def ray_aabb2_v(ray: Ray2, lo: Tuple2, hi: Tuple2
                ) -> tuple[float, float, float, int, bool, float] | None:
    """:func:`ray_aabb2_face_x` with tuple arguments: ``(t, px, py, face, inside, exit)`` or
    None."""
    t, face, inside, te = ray_aabb2_face_x(ray[0], ray[1], ray[2], ray[3], lo[0], lo[1], hi[0],
                                           hi[1], ray[4])
    if t < 0.0:
        return None
    return t, ray[0] + t * ray[2], ray[1] + t * ray[3], face, inside, te


@entry
def ray_polygon_v(ray: Ray2, corners: np.ndarray
                  ) -> tuple[float, float, float, int, bool, float] | None:
    """:func:`ray_polygon_edge_x` with tuple arguments: ``(t, px, py, edge, inside, exit)``
    or None. ``corners`` is ``Polygon._corners``: the vertices and the edge normals stacked,
    shape ``(2, n, 2)`` (one array to unbox rather than two: about 30 ns a call)."""
    t, edge, inside, te = ray_polygon_edge_x(ray[0], ray[1], ray[2], ray[3], corners[0],
                                             corners[1], ray[4])
    if t < 0.0:
        return None
    return t, ray[0] + t * ray[2], ray[1] + t * ray[3], edge, inside, te


@entry
def ray_plane2_v(ray: Ray2, n: Tuple2, offset: float
                 ) -> tuple[float, float, float, bool, float] | None:
    """:func:`ray_plane2_x` with tuple arguments: ``(t, px, py, inside, exit)`` (the normal
    is the plane's) or None."""
    t, px, py, _nx, _ny, inside, te = ray_plane2_x(ray[0], ray[1], ray[2], ray[3], n[0], n[1],
                                                   offset, ray[4])
    if t < 0.0:
        return None
    return t, px, py, inside, te


@entry
def ray_capsule2_v(ray: Ray2, a: Tuple2, b: Tuple2, r: float) -> Hit2 | None:
    """:func:`ray_capsule2` with tuple arguments; None on a miss."""
    hit = _capsule2(ray[0], ray[1], ray[2], ray[3], a[0], a[1], b[0], b[1], r, ray[4], False,
                    True)
    if hit[0] < 0.0:
        return None
    return hit


@entry
def ray_capsule2_entering_v(ray: Ray2, a: Tuple2, b: Tuple2, r: float) -> Hit2 | None:
    """:func:`ray_capsule2_entering` with tuple arguments; None on a miss."""
    hit = _capsule2(ray[0], ray[1], ray[2], ray[3], a[0], a[1], b[0], b[1], r, ray[4], True,
                    True)
    if hit[0] < 0.0:
        return None
    return hit


@entry
def ray_sphere_v(ray: Ray3, c: Tuple3, r: float) -> Hit3 | None:
    """:func:`ray_sphere_x` with tuple arguments; None on a miss."""
    hit = ray_sphere_x(ray[0], ray[1], ray[2], ray[3], ray[4], ray[5], c[0], c[1], c[2], r,
                       ray[6])
    if hit[0] < 0.0:
        return None
    return hit


@entry
def ray_aabb3_v(ray: Ray3, lo: Tuple3, hi: Tuple3
                ) -> tuple[float, float, float, float, int, bool, float] | None:
    """:func:`ray_aabb3_face_x` with tuple arguments: ``(t, px, py, pz, face, inside,
    exit)`` or None."""
    t, face, inside, te = ray_aabb3_face_x(ray[0], ray[1], ray[2], ray[3], ray[4], ray[5],
                                           lo[0], lo[1], lo[2], hi[0], hi[1], hi[2], ray[6])
    if t < 0.0:
        return None
    return (t, ray[0] + t * ray[3], ray[1] + t * ray[4], ray[2] + t * ray[5], face, inside,
            te)


@entry
def ray_plane3_v(ray: Ray3, n: Tuple3, offset: float
                 ) -> tuple[float, float, float, float, bool, float] | None:
    """:func:`ray_plane3_x` with tuple arguments: ``(t, px, py, pz, inside, exit)`` or
    None."""
    t, px, py, pz, _nx, _ny, _nz, inside, te = ray_plane3_x(ray[0], ray[1], ray[2], ray[3],
                                                            ray[4], ray[5], n[0], n[1], n[2],
                                                            offset, ray[6])
    if t < 0.0:
        return None
    return t, px, py, pz, inside, te


@entry
def ray_capsule3_v(ray: Ray3, a: Tuple3, b: Tuple3, r: float) -> Hit3 | None:
    """:func:`ray_capsule3` with tuple arguments; None on a miss."""
    hit = _capsule3(ray[0], ray[1], ray[2], ray[3], ray[4], ray[5], a[0], a[1], a[2], b[0],
                    b[1], b[2], r, ray[6], False)
    if hit[0] < 0.0:
        return None
    return hit


@entry
def ray_capsule3_entering_v(ray: Ray3, a: Tuple3, b: Tuple3, r: float) -> Hit3 | None:
    """:func:`ray_capsule3_entering` with tuple arguments; None on a miss."""
    hit = _capsule3(ray[0], ray[1], ray[2], ray[3], ray[4], ray[5], a[0], a[1], a[2], b[0],
                    b[1], b[2], r, ray[6], True)
    if hit[0] < 0.0:
        return None
    return hit


@entry
def ray_simple_polygon_v(ray: Ray2, verts: np.ndarray) -> Hit2 | None:
    """:func:`ray_simple_polygon` with the ray packed; None on a miss."""
    hit = ray_simple_polygon(ray[0], ray[1], ray[2], ray[3], verts, ray[4])
    if hit[0] < 0.0:
        return None
    return hit
