"""Manifold kernels: up to two contact points where two flat-faced 2D shapes meet.

Every kernel is named ``manifold_<first>_<second>`` and answers for the shapes in that order.
It returns a flat tuple ``(hit, nx, ny, count, p1x, p1y, d1, p2x, p2y, d2)``: ``hit`` is False
when the shapes are apart (every other field is then 0); otherwise ``n`` is the unit normal
along which to move the *first* shape out of the second (exactly ``contact()``'s normal),
``count`` is 1 or 2, and each point ``p`` lies on the *second* shape's boundary with its depth
``d >= 0``, so that ``p - n * d`` lies on the first shape's boundary. The deepest point comes
first (on a tie, in order along the incident edge; for two boxes, along +x or +y); an unused
second point is all zeros.

The method is reference-face / incident-edge clipping (as Box2D's polygon collider):

- the **reference face** is the edge of either shape whose separating axis the separating axis
  test picks - the very axis and tie rule of ``contact_polygon_polygon`` (``_wins2``), so the
  normal and the deepest depth are ``contact()``'s;
- the **incident edge** is the edge of the other shape, next to its corner that reaches
  deepest past the reference face, whose normal is the more anti-parallel to the face's;
- the incident edge is **clipped** against the reference face's two side planes (the lines
  through the face's ends, square to it), and every clipped end whose separation from the face
  is ``<= 0`` is kept (touching counts, with depth 0). An end outside the face by no more than
  ``MANIFOLD_TOUCH_TOLERANCE`` times the coordinates' magnitude touches too (depth 0): two
  turned faces laid flush differ by rounding, and without it one end of the pair drops out.

A clipped end that was cut by a side plane is carried exactly onto that plane: its projection
on the reference face is the face's end itself, so a box resting flat on a box gives the
overlap interval's ends exactly. Two clipped ends that coincide give one point.
"""

from __future__ import annotations

import numpy as np

from ..constants import FACE_NORMAL_TOLERANCE, MANIFOLD_TOUCH_TOLERANCE
from . import callee, kernel, reader
from .contact import (
    TOUCH_TOLERANCE,
    box_arrays,
    contact_aabb_aabb,
    contact_capsule_polygon,
    polygon_reference_face,
)
from .geom import DEGENERATE_SEGMENT_SQ, abs_max, polygon_support

_INF = float("inf")

_MISS = (False, 0.0, 0.0, 0, 0.0, 0.0, 0.0, 0.0, 0.0, 0.0)


@callee
def _clip_end(c1x: float, c1y: float, c2x: float, c2y: float, u1: float, u2: float,
              bound: float, ex: float, ey: float, nx: float, ny: float
              ) -> tuple[float, float]:
    """Where incident edge c1c2 (tangent coordinates u1, u2 with u1 != u2) crosses the side
    plane at tangent coordinate ``bound`` through face end e: the point e + n * h, h being
    the edge's separation (along the face's outward normal n) interpolated to that plane."""
    f = (bound - u1) / (u2 - u1)
    h1 = nx * (c1x - ex) + ny * (c1y - ey)
    h2 = nx * (c2x - ex) + ny * (c2y - ey)
    h = h1 + (h2 - h1) * f
    return ex + nx * h, ey + ny * h


@callee
def clip_incident(c1x: float, c1y: float, c2x: float, c2y: float, r1x: float, r1y: float,
                  r2x: float, r2y: float, nx: float, ny: float, inset: float, slack: float
                  ) -> tuple[int, float, float, float, float, float, float, float, float,
                             float, float]:
    """Clip incident edge c1c2 against the side planes of reference face r1r2 (outward normal
    n, r1 to r2 counter-clockwise). Returns ``(count, c1, q1, h1, c2, q2, h2)``: the kept ends
    ``c`` on the incident edge, their projections ``q`` on the reference face and their
    separations ``h = n . (c - r1) - inset`` (``inset``: a radius carried by the incident side,
    0 for polygons), keeping only ends with ``h <= slack`` (``slack``: the rounding allowance
    within which an end just touches; its depth is then 0)."""
    # the face's tangent, from r1 toward r2
    tx = -ny
    ty = nx
    lo = tx * r1x + ty * r1y
    hi = tx * r2x + ty * r2y
    u1 = tx * c1x + ty * c1y
    u2 = tx * c2x + ty * c2y
    # which side plane (if any) each end was carried onto: 0 none, 1 at r1, 2 at r2
    s1 = 0
    s2 = 0
    # side plane through r1: keep u >= lo
    if u1 < lo and u2 < lo:
        return 0, 0.0, 0.0, 0.0, 0.0, 0.0, 0.0, 0.0, 0.0, 0.0, 0.0
    if u1 < lo:
        c1x, c1y = _clip_end(c1x, c1y, c2x, c2y, u1, u2, lo, r1x, r1y, nx, ny)
        u1 = lo
        s1 = 1
    elif u2 < lo:
        c2x, c2y = _clip_end(c1x, c1y, c2x, c2y, u1, u2, lo, r1x, r1y, nx, ny)
        u2 = lo
        s2 = 1
    # side plane through r2: keep u <= hi
    if u1 > hi and u2 > hi:
        return 0, 0.0, 0.0, 0.0, 0.0, 0.0, 0.0, 0.0, 0.0, 0.0, 0.0
    if u1 > hi:
        c1x, c1y = _clip_end(c1x, c1y, c2x, c2y, u1, u2, hi, r2x, r2y, nx, ny)
        s1 = 2
    elif u2 > hi:
        c2x, c2y = _clip_end(c1x, c1y, c2x, c2y, u1, u2, hi, r2x, r2y, nx, ny)
        s2 = 2
    count = 0
    o1x = o1y = o1q_x = o1q_y = o1h = 0.0
    o2x = o2y = o2q_x = o2q_y = o2h = 0.0
    for k in range(2):
        cx = c1x if k == 0 else c2x
        cy = c1y if k == 0 else c2y
        side = s1 if k == 0 else s2
        h = nx * (cx - r1x) + ny * (cy - r1y)
        # the projection on the face: the face's end itself for an end cut by a side plane
        if side == 1:
            qx, qy = r1x, r1y
        elif side == 2:
            qx, qy = r2x, r2y
        else:
            qx = cx - nx * h
            qy = cy - ny * h
        h -= inset
        if h > slack:
            # separated from the face (past rounding)
            continue
        if count == 1 and cx == o1x and cy == o1y:
            # both ends at one point (the edge clipped to a point)
            continue
        if count == 0:
            o1x, o1y, o1q_x, o1q_y, o1h = cx, cy, qx, qy, h
        else:
            o2x, o2y, o2q_x, o2q_y, o2h = cx, cy, qx, qy, h
        count += 1
    return count, o1x, o1y, o1q_x, o1q_y, o1h, o2x, o2y, o2q_x, o2q_y, o2h


@kernel
def _pack(nx: float, ny: float, count: int, p1x: float, p1y: float, h1: float, p2x: float,
          p2y: float, h2: float
          ) -> tuple[bool, float, float, int, float, float, float, float, float, float]:
    """The flat result from kept points and their separations: depths ``-h`` (never below
    0), the deeper point first."""
    d1 = max(0.0 - h1, 0.0)
    if count == 1:
        return True, nx, ny, 1, p1x, p1y, d1, 0.0, 0.0, 0.0
    d2 = max(0.0 - h2, 0.0)
    if d2 > d1:
        return True, nx, ny, 2, p2x, p2y, d2, p1x, p1y, d1
    return True, nx, ny, 2, p1x, p1y, d1, p2x, p2y, d2


@reader
def manifold_polygon_polygon(va: np.ndarray, na: np.ndarray, vb: np.ndarray, nb: np.ndarray
                             ) -> tuple[bool, float, float, int, float, float, float, float,
                                        float, float]:
    """Convex polygon a against convex polygon b: the separating axis test over both
    polygons' edge normals picks the reference face, the incident edge is clipped to it."""
    apart, _s, bnx, bny, best_i, best_j, ref_b = polygon_reference_face(va, na, vb, nb)
    if apart:
        return _MISS
    if ref_b:
        ref, inc, inc_n = vb, va, na
    else:
        ref, inc, inc_n = va, vb, nb
    # the reference face's outward normal (out of the shape that owns it)
    fx = bnx if ref_b else -bnx
    fy = bny if ref_b else -bny
    i = best_i
    i2 = i + 1 if i + 1 < ref.shape[0] else 0
    # the incident edge: of the two edges at the deepest corner, the more anti-parallel
    m = inc.shape[0]
    j = best_j
    jp = j - 1 if j > 0 else m - 1
    jn = j + 1 if j + 1 < m else 0
    if fx * inc_n[jp, 0] + fy * inc_n[jp, 1] < fx * inc_n[j, 0] + fy * inc_n[j, 1]:
        k1, k2 = jp, j
    else:
        k1, k2 = j, jn
    (count, c1x, c1y, q1x, q1y, h1, c2x, c2y, q2x, q2y, h2) = clip_incident(
        inc[k1, 0], inc[k1, 1], inc[k2, 0], inc[k2, 1], ref[i, 0], ref[i, 1], ref[i2, 0],
        ref[i2, 1], fx, fy, 0.0, MANIFOLD_TOUCH_TOLERANCE * max(abs_max(va), abs_max(vb)))
    if count == 0:
        # (cannot happen for overlapping polygons: the deepest corner is kept)
        return _MISS
    if ref_b:
        # the points on b's face, a's corners below them
        return _pack(bnx, bny, count, q1x, q1y, h1, q2x, q2y, h2)
    # b's corners (on b's boundary) inside a's face
    return _pack(bnx, bny, count, c1x, c1y, h1, c2x, c2y, h2)


@kernel
def manifold_aabb_polygon(minx: float, miny: float, maxx: float, maxy: float,
                          verts: np.ndarray, norms: np.ndarray
                          ) -> tuple[bool, float, float, int, float, float, float, float,
                                     float, float]:
    """A 2D box against a convex polygon: :func:`manifold_polygon_polygon` with the box as a
    polygon."""
    bv, bn = box_arrays(minx, miny, maxx, maxy)
    return manifold_polygon_polygon(bv, bn, verts, norms)


@kernel
def manifold_aabb_aabb(aminx: float, aminy: float, amaxx: float, amaxy: float, bminx: float,
                       bminy: float, bmaxx: float, bmaxy: float
                       ) -> tuple[bool, float, float, int, float, float, float, float,
                                  float, float]:
    """2D box a against box b: ``contact_aabb_aabb``'s normal and depth, with the points on
    b's face at the two ends of the boxes' overlap along the other axis (one point where
    that overlap is a single value: corners touching)."""
    hit, nx, ny, depth, _px, _py = contact_aabb_aabb(aminx, aminy, amaxx, amaxy, bminx, bminy,
                                                     bmaxx, bmaxy)
    if not hit:
        return _MISS
    if nx != 0.0:
        fx = bmaxx if nx > 0.0 else bminx
        lo = max(aminy, bminy)
        hi = min(amaxy, bmaxy)
        if lo == hi:
            return True, nx, 0.0, 1, fx, lo, depth, 0.0, 0.0, 0.0
        return True, nx, 0.0, 2, fx, lo, depth, fx, hi, depth
    fy = bmaxy if ny > 0.0 else bminy
    lo = max(aminx, bminx)
    hi = min(amaxx, bmaxx)
    if lo == hi:
        return True, 0.0, ny, 1, lo, fy, depth, 0.0, 0.0, 0.0
    return True, 0.0, ny, 2, lo, fy, depth, hi, fy, depth


@reader
def manifold_capsule_polygon(a0x: float, a0y: float, a1x: float, a1y: float, r: float,
                             verts: np.ndarray, norms: np.ndarray
                             ) -> tuple[bool, float, float, int, float, float, float, float,
                                        float, float]:
    """Capsule (core a0a1, radius r; r = 0 is a segment) against a convex polygon:
    ``contact_capsule_polygon``'s normal and depth. When that normal is one of the polygon's
    face normals and the core is a segment (r = 0) or lies parallel to the face, the core is
    the incident edge, clipped to the face; when it is the core's own normal and a polygon
    face lies along the core to rounding, that face clipped to the core
    (:func:`_clip_to_core`); otherwise (a tilted capsule, whose shallower end has no surface
    point straight below its core; a corner poking into the core's side) the contact's one
    point."""
    hit, nx, ny, depth, px, py = contact_capsule_polygon(a0x, a0y, a1x, a1y, r, verts, norms)
    if not hit:
        return _MISS
    one = (True, nx, ny, 1, px, py, depth, 0.0, 0.0, 0.0)
    dax = a1x - a0x
    day = a1y - a0y
    if dax * dax + day * day <= DEGENERATE_SEGMENT_SQ:
        # a point-like core: a circle
        return one
    if r != 0.0 and nx * dax + ny * day != 0.0:
        # a tilted capsule
        return one
    n = verts.shape[0]
    face = -1
    for i in range(n):
        if norms[i, 0] == nx and norms[i, 1] == ny:
            face = i
            break
    scale = max(max(abs(a0x), abs(a0y)), max(abs(a1x), abs(a1y)))
    scale = max(max(scale, abs_max(verts)), r)
    if face < 0:
        # the core's side is the reference: the polygon's incident edge clipped to it
        return _clip_to_core(a0x, a0y, a1x, a1y, r, verts, norms, nx, ny, depth, scale, one)
    i2 = face + 1 if face + 1 < n else 0
    (count, _c1x, _c1y, q1x, q1y, h1, _c2x, _c2y, q2x, q2y, h2) = clip_incident(
        a0x, a0y, a1x, a1y, verts[face, 0], verts[face, 1], verts[i2, 0], verts[i2, 1],
        nx, ny, r, MANIFOLD_TOUCH_TOLERANCE * scale)
    # the points on the polygon's face
    return _reaching(nx, ny, count, q1x, q1y, h1, q2x, q2y, h2, depth, scale, one)


@callee
def _reaching(nx: float, ny: float, count: int, p1x: float, p1y: float, h1: float, p2x: float,
              p2y: float, h2: float, depth: float, scale: float,
              one: tuple[bool, float, float, int, float, float, float, float, float, float]
              ) -> tuple[bool, float, float, int, float, float, float, float, float, float]:
    """The clipped ends as the manifold when the deeper reaches the contact's ``depth`` (to
    rounding at ``scale``); else ``one``, the contact's one point (the deepest end lies beyond
    the reference face's ends, or none was kept)."""
    if count == 0:
        return one
    deepest = max(max(0.0 - h1, 0.0 - h2), 0.0) if count == 2 else max(0.0 - h1, 0.0)
    if abs(deepest - depth) > TOUCH_TOLERANCE * scale:
        return one
    return _pack(nx, ny, count, p1x, p1y, h1, p2x, p2y, h2)


@callee
def _clip_to_core(a0x: float, a0y: float, a1x: float, a1y: float, r: float, verts: np.ndarray,
                  norms: np.ndarray, nx: float, ny: float, depth: float, scale: float,
                  one: tuple[bool, float, float, int, float, float, float, float, float, float]
                  ) -> tuple[bool, float, float, int, float, float, float, float, float, float]:
    """The manifold when the core's side is the reference face (normal ``n`` square to the
    core): the polygon's incident edge (at its corner deepest along ``n``, the one of its two
    edges more parallel to ``n``) clipped to the core's side planes, with the separations
    from the capsule's face toward the polygon (the core moved by ``-n r``), when that edge
    lies along the core (its normal within ``FACE_NORMAL_TOLERANCE`` of ``n``: a face that
    lost the separating axis test to the core's own axis by rounding): two points, not the
    polygon's corner beyond the core's end. ``one`` (the contact's point) otherwise (a corner
    poking into the core's side) and when the clipped ends do not reach the contact's
    depth."""
    n = verts.shape[0]
    # the capsule's face toward the polygon, its outward normal -n, ends counter-clockwise
    fx = 0.0 - nx
    fy = 0.0 - ny
    r1x = a0x - nx * r
    r1y = a0y - ny * r
    r2x = a1x - nx * r
    r2y = a1y - ny * r
    if (-fy) * (r2x - r1x) + fx * (r2y - r1y) < 0.0:
        r1x, r1y, r2x, r2y = r2x, r2y, r1x, r1y
    # the polygon's corner reaching deepest into the face, and its edge more parallel to n
    j = polygon_support(verts, nx, ny)
    jp = j - 1 if j > 0 else n - 1
    jn = j + 1 if j + 1 < n else 0
    if norms[jp, 0] * nx + norms[jp, 1] * ny > norms[j, 0] * nx + norms[j, 1] * ny:
        k1, k2 = jp, j
    else:
        k1, k2 = j, jn
    if norms[k1, 0] * nx + norms[k1, 1] * ny < 1.0 - FACE_NORMAL_TOLERANCE:
        # a corner poking into the core's side: the contact's one point
        return one
    (count, c1x, c1y, _q1x, _q1y, h1, c2x, c2y, _q2x, _q2y, h2) = clip_incident(
        verts[k1, 0], verts[k1, 1], verts[k2, 0], verts[k2, 1], r1x, r1y, r2x, r2y, fx, fy,
        0.0, MANIFOLD_TOUCH_TOLERANCE * scale)
    # the polygon's boundary points, the capsule's face a depth along n from each
    return _reaching(nx, ny, count, c1x, c1y, h1, c2x, c2y, h2, depth, scale, one)


@kernel
def manifold_capsule_aabb(a0x: float, a0y: float, a1x: float, a1y: float, r: float,
                          minx: float, miny: float, maxx: float, maxy: float
                          ) -> tuple[bool, float, float, int, float, float, float, float,
                                     float, float]:
    """Capsule (or segment, r = 0) against a 2D box: :func:`manifold_capsule_polygon` with
    the box as a polygon."""
    verts, norms = box_arrays(minx, miny, maxx, maxy)
    return manifold_capsule_polygon(a0x, a0y, a1x, a1y, r, verts, norms)
