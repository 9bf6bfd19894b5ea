"""World kernels: the collider table, its one narrowphase dispatch, and the batch queries.

The World (:mod:`swept.world`) stores every collider in numba-friendly arrays, row ``h``
belonging to handle ``h`` (handles are never reused, so a row is never reused either):

``kind`` (cap,) int64
    The collider's kind code (``KIND_*``); :data:`KIND_EMPTY` for a removed handle.
``params`` (cap, PARAM_WIDTH) float64
    The shape as plain floats, by kind: circle ``cx cy r``; segment ``ax ay bx by``; 2D box
    ``minx miny maxx maxy``; 2D capsule ``ax ay bx by r``; 2D plane ``nx ny offset``; sphere
    ``cx cy cz r``; 3D box ``minx miny minz maxx maxy maxz``; 3D capsule ``ax ay az bx by bz
    r``; 3D plane ``nx ny nz offset``; a polygon uses ``poly`` instead.
``poly`` (cap, 2) int64
    A polygon's first row and row count in the vertex pool.
``verts, norms`` (V, 2) float64
    The polygon pool: corners (counter-clockwise, y up) and outward edge normals, as
    :class:`swept.shapes.Polygon` stores them.
``layer`` (cap,) int64
    The collider's layer bits (an unsigned 32-bit value).
``skip`` (cap,) bool
    The per-query ignore set: True rows are invisible to the query.

A collider is seen by a query when ``(layer & mask) != 0`` and ``skip`` is False.

Broadphase: two BVHs (:mod:`swept._kernels.bvh`), one over the static colliders and one over
the moving ones, each given as its tree arrays, then ``handles`` (k,) int64 (primitive ->
handle) and its primitives' boxes ``lo, hi`` (k, d) float64; plus ``planes`` (p,) int64, the
handles of the unbounded colliders, tested by every query. In 2D the static colliders may also
be binned in a uniform grid (:func:`grid_build`), given as ``grid_f`` (3,) float64 (origin x,
y and cell side), ``grid_i`` (2,) int64 (cells along x and y; ``(0, 0)``: no grid), and the
CSR arrays ``grid_start``, ``grid_items``, ``grid_boxes``; ray casts (not sweeps) then walk
the grid (:func:`_grid_ray`) instead of the static tree.

The narrowphase is :func:`cast_collider` (rays, and balls cast as rays against grown targets),
:func:`closest_collider` and :func:`contact_collider`, which call the existing ray, sweep,
distance and contact kernels; the scalar World queries and the ``prange`` batches share them.
Every result uses one 3D-shaped encoding (z components 0 in 2D).
"""

from __future__ import annotations

import math
from collections.abc import Callable
from typing import Any, TypeVar

import numba
import numpy as np

from ..constants import GRID_MARGIN
from . import batch_kernel, inline_kernel, kernel
from .bvh import STACK_SIZE, _clip_slab, inverse_direction, ray_box_entry2, ray_box_entry3
from .contact import (
    contact_circle_aabb,
    contact_circle_capsule,
    contact_circle_circle,
    contact_circle_plane,
    contact_circle_polygon,
    contact_sphere_aabb,
    contact_sphere_capsule,
    contact_sphere_plane,
    contact_sphere_sphere,
)
from .distance import (
    closest_on_capsule2,
    closest_on_capsule3,
    closest_on_circle,
    closest_on_plane,
    closest_on_sphere,
)
from .geom import closest_on_aabb2, closest_on_aabb3, closest_on_polygon, closest_on_segment2
from .ray import (
    MISS,
    RAY_PARALLEL_SINE,
    _capsule2,
    _capsule3,
    _unit2,
    ray_aabb2,
    ray_aabb2_face_x,
    ray_aabb3,
    ray_aabb3_face_x,
    ray_capsule2,
    ray_capsule3,
    ray_circle,
    ray_circle_x,
    ray_plane2,
    ray_plane2_x,
    ray_plane3,
    ray_plane3_x,
    ray_polygon,
    ray_polygon_edge_x,
    ray_segment,
    ray_sphere,
    ray_sphere_x,
)
from .sweep import ray_rounded_aabb2, ray_rounded_aabb3, ray_rounded_polygon

F = TypeVar("F", bound=Callable[..., Any])

#: A removed collider: no query sees it.
KIND_EMPTY = -1
#: 2D kinds.
KIND_CIRCLE, KIND_SEGMENT, KIND_AABB2, KIND_POLYGON, KIND_CAPSULE2, KIND_PLANE2 = 0, 1, 2, 3, 4, 5
#: 3D kinds.
KIND_SPHERE, KIND_AABB3, KIND_CAPSULE3, KIND_PLANE3 = 6, 7, 8, 9
#: Columns of the parameter table (the widest kind, a 3D capsule, needs 7).
PARAM_WIDTH = 8
#: Rays (or balls) one ``prange`` task handles with one pair of traversal stacks.
BATCH_CHUNK = 64
#: The grid walk tests each candidate's box before its shape only when the grid holds at most
#: this many entries a cell on average (the World sizes cells for about half a collider each,
#: so this is about half the cells a collider spans): measured on random segments binned into
#: the cells they cross, the test pays when boxes are small beside the cells (1,000 segments,
#: 1.2 entries a cell: 0.18 against 0.21 us a ray) and costs when a segment's box spans many
#: more cells than the segment (10,000 segments, 2.8 a cell: 0.26 against 0.23).
GRID_PREFILTER_MAX_FILL = 2.0
#: Columns of the segment table of a grid of segments (:func:`grid_segments`), one row per
#: grid entry in the grid's order: ``ax ay ex ey parallel h`` (first end, ``b - a``, the
#: parallel threshold ``RAY_PARALLEL_SINE * |b - a|`` and the handle, as a float).
SEGMENT_COLUMNS = 6
#: The segment batch casts its rays in the order of their origins' tiles of this many grid
#: cells a side (row by row), so that rays cast one after another read the same cells...
RAY_TILE_CELLS = 4
#: ... when the grid holds at least this many entries (a segment table of 768 KiB): measured
#: on 10,000 random rays, one thread, sorting took 0.168 to 0.147 us a ray at 10,000 segments
#: (56,000 entries) but 0.134 to 0.141 at 1,000 (2,500 entries, a table the cache holds anyway).
RAY_SORT_MIN_ENTRIES = 16_384


# ---------------------------------------------------------------------------------------------
# the narrowphase dispatch


@inline_kernel
def cast_collider(kind: np.ndarray, params: np.ndarray, poly: np.ndarray, verts: np.ndarray,
                  norms: np.ndarray, h: int, ox: float, oy: float, oz: float, dx: float,
                  dy: float, dz: float, r: float, tmax: float, grown: bool
                  ) -> tuple[float, float, float, float, float, float, float, bool]:
    """Cast a ray (``grown`` False) or a ball of radius ``r`` (``grown`` True: a ray against
    the collider grown by ``r``) at collider ``h``: ``(t, px, py, pz, nx, ny, nz, inside)``
    with ``t == MISS`` on a miss, by the very kernels :func:`swept.raycast` and
    :func:`swept.sweep` use. ``(dx, dy, dz)`` is a unit direction."""
    k = kind[h]
    # the row as scalars (a row view would be reference-counted on every call)
    p0, p1, p2, p3 = params[h, 0], params[h, 1], params[h, 2], params[h, 3]
    p4, p5, p6 = params[h, 4], params[h, 5], params[h, 6]
    if k == KIND_CIRCLE:
        # a circle; grown: a bigger circle
        rr = p2 + r if grown else p2
        t, px, py, nx, ny, ins = ray_circle(ox, oy, dx, dy, p0, p1, rr, tmax)
        return t, px, py, 0.0, nx, ny, 0.0, ins
    if k == KIND_SEGMENT:
        # a segment; grown: a capsule
        if grown:
            t, px, py, nx, ny, ins = ray_capsule2(ox, oy, dx, dy, p0, p1, p2, p3, r,
                                                  tmax)
        else:
            t, px, py, nx, ny, ins = ray_segment(ox, oy, dx, dy, p0, p1, p2, p3, tmax)
        return t, px, py, 0.0, nx, ny, 0.0, ins
    if k == KIND_AABB2:
        # a box; grown: a rounded box
        if grown:
            t, px, py, nx, ny, ins = ray_rounded_aabb2(ox, oy, dx, dy, p0, p1, p2, p3,
                                                       r, tmax, False)
        else:
            t, px, py, nx, ny, ins = ray_aabb2(ox, oy, dx, dy, p0, p1, p2, p3, tmax)
        return t, px, py, 0.0, nx, ny, 0.0, ins
    if k == KIND_POLYGON:
        # a convex polygon; grown: a rounded polygon
        s = poly[h, 0]
        e = s + poly[h, 1]
        if grown:
            t, px, py, nx, ny, ins = ray_rounded_polygon(ox, oy, dx, dy, verts[s:e],
                                                         norms[s:e], r, tmax, False)
        else:
            t, px, py, nx, ny, ins = ray_polygon(ox, oy, dx, dy, verts[s:e], norms[s:e], tmax)
        return t, px, py, 0.0, nx, ny, 0.0, ins
    if k == KIND_CAPSULE2:
        # a capsule; grown: a fatter capsule
        rr = p4 + r if grown else p4
        t, px, py, nx, ny, ins = ray_capsule2(ox, oy, dx, dy, p0, p1, p2, p3, rr, tmax)
        return t, px, py, 0.0, nx, ny, 0.0, ins
    if k == KIND_PLANE2:
        # a half-plane; grown: its boundary pushed out by r
        off = p2 + r if grown else p2
        t, px, py, nx, ny, ins = ray_plane2(ox, oy, dx, dy, p0, p1, off, tmax)
        return t, px, py, 0.0, nx, ny, 0.0, ins
    if k == KIND_SPHERE:
        rr = p3 + r if grown else p3
        return ray_sphere(ox, oy, oz, dx, dy, dz, p0, p1, p2, rr, tmax)
    if k == KIND_AABB3:
        if grown:
            return ray_rounded_aabb3(ox, oy, oz, dx, dy, dz, p0, p1, p2, p3, p4, p5,
                                     r, tmax)
        return ray_aabb3(ox, oy, oz, dx, dy, dz, p0, p1, p2, p3, p4, p5, tmax)
    if k == KIND_CAPSULE3:
        rr = p6 + r if grown else p6
        return ray_capsule3(ox, oy, oz, dx, dy, dz, p0, p1, p2, p3, p4, p5, rr,
                            tmax)
    if k == KIND_PLANE3:
        off = p3 + r if grown else p3
        return ray_plane3(ox, oy, oz, dx, dy, dz, p0, p1, p2, off, tmax)
    # a removed collider
    return MISS, 0.0, 0.0, 0.0, 0.0, 0.0, 0.0, False


@inline_kernel
def exit_collider(kind: np.ndarray, params: np.ndarray, poly: np.ndarray, verts: np.ndarray,
                  norms: np.ndarray, h: int, ox: float, oy: float, oz: float, dx: float,
                  dy: float, dz: float, t: float) -> float:
    """Where a ray that hits collider ``h`` at ``t`` leaves it (``RayHit.exit_distance``), by
    the same ``*_x`` kernels :func:`swept.raycast` uses: ``t`` for a segment, ``inf`` for a
    half-plane never left."""
    k = kind[h]
    p0, p1, p2, p3 = params[h, 0], params[h, 1], params[h, 2], params[h, 3]
    p4, p5, p6 = params[h, 4], params[h, 5], params[h, 6]
    te = t
    if k == KIND_CIRCLE:
        te = ray_circle_x(ox, oy, dx, dy, p0, p1, p2, np.inf)[6]
    elif k == KIND_AABB2:
        te = ray_aabb2_face_x(ox, oy, dx, dy, p0, p1, p2, p3, np.inf)[3]
    elif k == KIND_POLYGON:
        s = poly[h, 0]
        e = s + poly[h, 1]
        te = ray_polygon_edge_x(ox, oy, dx, dy, verts[s:e], norms[s:e], np.inf)[3]
    elif k == KIND_CAPSULE2:
        te = _capsule2(ox, oy, dx, dy, p0, p1, p2, p3, p4, np.inf, False)[6]
    elif k == KIND_PLANE2:
        te = ray_plane2_x(ox, oy, dx, dy, p0, p1, p2, np.inf)[6]
    elif k == KIND_SPHERE:
        te = ray_sphere_x(ox, oy, oz, dx, dy, dz, p0, p1, p2, p3, np.inf)[8]
    elif k == KIND_AABB3:
        te = ray_aabb3_face_x(ox, oy, oz, dx, dy, dz, p0, p1, p2, p3, p4, p5, np.inf)[3]
    elif k == KIND_CAPSULE3:
        te = _capsule3(ox, oy, oz, dx, dy, dz, p0, p1, p2, p3, p4, p5, p6, np.inf, False)[8]
    elif k == KIND_PLANE3:
        te = ray_plane3_x(ox, oy, oz, dx, dy, dz, p0, p1, p2, p3, np.inf)[8]
    # a segment: no inside
    return max(te, t)


@inline_kernel
def closest_collider(kind: np.ndarray, params: np.ndarray, poly: np.ndarray, verts: np.ndarray,
                     norms: np.ndarray, h: int, qx: float, qy: float, qz: float
                     ) -> tuple[float, float, float]:
    """The point of collider ``h`` nearest ``q`` (from inside, of its boundary), as
    :func:`swept.distance.closest_point` computes it."""
    k = kind[h]
    # the row as scalars (a row view would be reference-counted on every call)
    p0, p1, p2, p3 = params[h, 0], params[h, 1], params[h, 2], params[h, 3]
    p4, p5, p6 = params[h, 4], params[h, 5], params[h, 6]
    if k == KIND_CIRCLE:
        x, y, _i = closest_on_circle(qx, qy, p0, p1, p2)
        return x, y, 0.0
    if k == KIND_SEGMENT:
        x, y, _t = closest_on_segment2(qx, qy, p0, p1, p2, p3)
        return x, y, 0.0
    if k == KIND_AABB2:
        x, y, _nx, _ny, _i = closest_on_aabb2(qx, qy, p0, p1, p2, p3)
        return x, y, 0.0
    if k == KIND_POLYGON:
        s = poly[h, 0]
        e = s + poly[h, 1]
        x, y, _nx, _ny, _i = closest_on_polygon(verts[s:e], norms[s:e], qx, qy)
        return x, y, 0.0
    if k == KIND_CAPSULE2:
        x, y, _i = closest_on_capsule2(qx, qy, p0, p1, p2, p3, p4)
        return x, y, 0.0
    if k == KIND_PLANE2:
        x, y, _z, _i = closest_on_plane(qx, qy, 0.0, p0, p1, 0.0, p2)
        return x, y, 0.0
    if k == KIND_SPHERE:
        x, y, z, _i = closest_on_sphere(qx, qy, qz, p0, p1, p2, p3)
        return x, y, z
    if k == KIND_AABB3:
        x, y, z, _nx, _ny, _nz, _i = closest_on_aabb3(qx, qy, qz, p0, p1, p2, p3, p4,
                                                      p5)
        return x, y, z
    if k == KIND_CAPSULE3:
        x, y, z, _i = closest_on_capsule3(qx, qy, qz, p0, p1, p2, p3, p4, p5, p6)
        return x, y, z
    if k == KIND_PLANE3:
        return closest_on_plane(qx, qy, qz, p0, p1, p2, p3)[:3]
    return qx, qy, qz


@inline_kernel
def contact_collider(kind: np.ndarray, params: np.ndarray, poly: np.ndarray, verts: np.ndarray,
                     norms: np.ndarray, h: int, cx: float, cy: float, cz: float, r: float
                     ) -> tuple[bool, float, float, float, float, float, float, float]:
    """How to move a ball (centre ``c``, radius ``r``) out of collider ``h``: ``(hit, nx, ny,
    nz, depth, px, py, pz)`` as :func:`swept.contact` answers for ``contact(ball, collider)``
    (``hit`` False when apart)."""
    k = kind[h]
    # the row as scalars (a row view would be reference-counted on every call)
    p0, p1, p2, p3 = params[h, 0], params[h, 1], params[h, 2], params[h, 3]
    p4, p5, p6 = params[h, 4], params[h, 5], params[h, 6]
    if k == KIND_CIRCLE:
        hit, nx, ny, depth, px, py = contact_circle_circle(cx, cy, r, p0, p1, p2)
    elif k == KIND_SEGMENT:
        hit, nx, ny, depth, px, py = contact_circle_capsule(cx, cy, r, p0, p1, p2, p3,
                                                            0.0)
    elif k == KIND_AABB2:
        hit, nx, ny, depth, px, py = contact_circle_aabb(cx, cy, r, p0, p1, p2, p3)
    elif k == KIND_POLYGON:
        s = poly[h, 0]
        e = s + poly[h, 1]
        hit, nx, ny, depth, px, py = contact_circle_polygon(cx, cy, r, verts[s:e], norms[s:e])
    elif k == KIND_CAPSULE2:
        hit, nx, ny, depth, px, py = contact_circle_capsule(cx, cy, r, p0, p1, p2, p3,
                                                            p4)
    elif k == KIND_PLANE2:
        hit, nx, ny, depth, px, py = contact_circle_plane(cx, cy, r, p0, p1, p2)
    elif k == KIND_SPHERE:
        return contact_sphere_sphere(cx, cy, cz, r, p0, p1, p2, p3)
    elif k == KIND_AABB3:
        return contact_sphere_aabb(cx, cy, cz, r, p0, p1, p2, p3, p4, p5)
    elif k == KIND_CAPSULE3:
        return contact_sphere_capsule(cx, cy, cz, r, p0, p1, p2, p3, p4, p5, p6)
    elif k == KIND_PLANE3:
        return contact_sphere_plane(cx, cy, cz, r, p0, p1, p2, p3)
    else:
        return False, 0.0, 0.0, 0.0, 0.0, 0.0, 0.0, 0.0
    return hit, nx, ny, 0.0, depth, px, py, 0.0


# ---------------------------------------------------------------------------------------------
# traversal


@inline_kernel
def _entry(blo: np.ndarray, bhi: np.ndarray, k: int, d: int, ox: float, oy: float, oz: float,
           ix: float, iy: float, iz: float, r: float, limit: float) -> float:
    """Entry t of the ray segment [0, limit] into row k of a box array grown by ``r`` (inf:
    a miss); the grown box holds every collider below it grown by ``r``."""
    if d == 2:
        return ray_box_entry2(ox, oy, ix, iy, limit, blo[k, 0] - r, blo[k, 1] - r,
                              bhi[k, 0] + r, bhi[k, 1] + r)
    return ray_box_entry3(ox, oy, oz, ix, iy, iz, limit, blo[k, 0] - r, blo[k, 1] - r,
                          blo[k, 2] - r, bhi[k, 0] + r, bhi[k, 1] + r, bhi[k, 2] + r)


@inline_kernel
def _visible(layer: np.ndarray, skip: np.ndarray, h: int, mask: int) -> bool:
    """Whether collider ``h`` takes part in a query with this mask."""
    return (layer[h] & mask) != 0 and not skip[h]


@kernel
def _grid_cells(box_lo: np.ndarray, box_hi: np.ndarray, h: int, x0: float, y0: float,
                cell: float, nx: int, ny: int) -> tuple[int, int, int, int]:
    """The cells ``(ax, bx, ay, by)`` (inclusive) that collider h's box, grown by
    :data:`GRID_MARGIN` of a cell, touches."""
    g = GRID_MARGIN * cell
    ax = min(max(int(math.floor((box_lo[h, 0] - g - x0) / cell)), 0), nx - 1)
    bx = min(max(int(math.floor((box_hi[h, 0] + g - x0) / cell)), 0), nx - 1)
    ay = min(max(int(math.floor((box_lo[h, 1] - g - y0) / cell)), 0), ny - 1)
    by = min(max(int(math.floor((box_hi[h, 1] + g - y0) / cell)), 0), ny - 1)
    return ax, bx, ay, by


@kernel
def _grid_collider_cells(kind: np.ndarray, params: np.ndarray, box_lo: np.ndarray,
                         box_hi: np.ndarray, h: int, x0: float, y0: float, cell: float, nx: int,
                         ny: int, out: np.ndarray) -> tuple[int, np.ndarray]:
    """The cells (indices ``cx + nx * cy``) collider h is binned into, written to ``out``
    (grown when too short): returns their count and the (maybe new) ``out``.

    A segment, and a 2D capsule (its core grown by its radius), goes into the cells its shape
    grown by a square of half-side :data:`GRID_MARGIN` of a cell (plus the radius) touches: in
    each column of cells its box spans, the rows between the lowest and highest y of the core
    over the column's x range widened by that half-side, themselves widened by it (a
    conservative supercover: every cell within the margin of the shape, a subset of the box's
    cells). Every other kind goes into every cell its box, grown by the margin, touches."""
    ax, bx, ay, by = _grid_cells(box_lo, box_hi, h, x0, y0, cell, nx, ny)
    need = (bx - ax + 1) * (by - ay + 1)
    if need > out.shape[0]:
        out = np.empty(max(need, 2 * out.shape[0]), np.int64)
    n = 0
    k = kind[h]
    if k in (KIND_SEGMENT, KIND_CAPSULE2):
        w = GRID_MARGIN * cell
        if k == KIND_CAPSULE2:
            w += params[h, 4]
        pax = params[h, 0]
        pay = params[h, 1]
        pbx = params[h, 2]
        pby = params[h, 3]
        if pbx < pax:
            pax, pbx = pbx, pax
            pay, pby = pby, pay
        span = pbx - pax
        for cx in range(ax, bx + 1):
            # the column's x range widened by w (the edge columns reach out without end)
            lo = -math.inf if cx == 0 else x0 + cx * cell - w
            hi = math.inf if cx == nx - 1 else x0 + (cx + 1) * cell + w
            lo = max(lo, pax)
            hi = min(hi, pbx)
            if lo > hi:
                continue
            if span > 0.0:
                s0 = min(max((lo - pax) / span, 0.0), 1.0)
                s1 = min(max((hi - pax) / span, 0.0), 1.0)
                ya = pay + s0 * (pby - pay)
                yb = pay + s1 * (pby - pay)
            else:
                ya = pay
                yb = pby
            ylo = max(min(ya, yb), min(pay, pby)) - w
            yhi = min(max(ya, yb), max(pay, pby)) + w
            cy0 = min(max(int(math.floor((ylo - y0) / cell)), ay), by)
            cy1 = min(max(int(math.floor((yhi - y0) / cell)), ay), by)
            for cy in range(cy0, cy1 + 1):
                out[n] = cx + nx * cy
                n += 1
        return n, out
    for cy in range(ay, by + 1):
        for cx in range(ax, bx + 1):
            out[n] = cx + nx * cy
            n += 1
    return n, out


@kernel
def grid_build(handles: np.ndarray, kind: np.ndarray, params: np.ndarray, box_lo: np.ndarray,
               box_hi: np.ndarray, x0: float, y0: float, cell: float, nx: int, ny: int
               ) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """Bin 2D colliders into a uniform grid of ``nx`` by ``ny`` square cells of side ``cell``
    from ``(x0, y0)``: each of ``handles`` (k,) int64 goes into the cells
    :func:`_grid_collider_cells` gives (a segment or capsule: the cells its shape, grown by
    :data:`GRID_MARGIN` of a cell, touches; any other kind: those its box (``box_lo, box_hi``
    (cap, 2) float64, rows by handle), so grown, touches). Returns CSR arrays ``start``
    (nx * ny + 1,) int64, ``items`` (E,) int64 of handles (cell ``cx + nx * cy`` holds
    ``items[start[c] : start[c + 1]]``) and ``boxes`` (E, 4) float64, each entry's box
    ``minx miny maxx maxy``, grown by :data:`GRID_MARGIN` of a cell, stored in line with it,
    so that the walk reads a cell's boxes from one run of memory. Grown, because the walk's
    box test must not reject a hit the narrowphase finds: a ray through a segment's end at a
    corner of its box can cross the box's edges an ulp apart in t (a miss) while
    ``ray_segment`` puts the crossing on the segment (a hit)."""
    start = np.zeros(nx * ny + 1, np.int64)
    out = np.empty(64, np.int64)
    for k in range(handles.shape[0]):
        n, out = _grid_collider_cells(kind, params, box_lo, box_hi, handles[k], x0, y0, cell,
                                      nx, ny, out)
        for i in range(n):
            start[out[i] + 1] += 1
    for c in range(nx * ny):
        start[c + 1] += start[c]
    fill = start.copy()
    items = np.empty(start[nx * ny], np.int64)
    boxes = np.empty((start[nx * ny], 4))
    g = GRID_MARGIN * cell
    for k in range(handles.shape[0]):
        h = handles[k]
        n, out = _grid_collider_cells(kind, params, box_lo, box_hi, h, x0, y0, cell, nx, ny,
                                      out)
        for i in range(n):
            c = out[i]
            items[fill[c]] = h
            boxes[fill[c], 0] = box_lo[h, 0] - g
            boxes[fill[c], 1] = box_lo[h, 1] - g
            boxes[fill[c], 2] = box_hi[h, 0] + g
            boxes[fill[c], 3] = box_hi[h, 1] + g
            fill[c] += 1
    return start, items, boxes


@inline_kernel
def _box_missed(boxes: np.ndarray, j: int, ox: float, oy: float, ix: float, iy: float,
                near_x: int, near_y: int, limit: float) -> bool:
    """Whether the ray segment [0, limit] misses box row j (``minx miny maxx maxy``): the
    decision of ``ray_box_entry2(...) == inf`` (:mod:`swept._kernels.bvh`), the same products
    compared the same way, with the slab sides picked once per ray (``near_x``, ``near_y``:
    the columns entered first, 0 or 2 and 1 or 3) instead of per box. Only for a ray with
    finite ``ix`` and ``iy`` (no NaN arises then)."""
    t0 = max(max(0.0, (boxes[j, near_x] - ox) * ix), (boxes[j, near_y] - oy) * iy)
    t1 = min(min(limit, (boxes[j, 2 - near_x] - ox) * ix), (boxes[j, 4 - near_y] - oy) * iy)
    return t0 > t1


@inline_kernel
def _dda_start(grid_f: np.ndarray, grid_i: np.ndarray, ox: float, oy: float, dx: float,
               dy: float, ix: float, iy: float, limit: float
               ) -> tuple[bool, int, int, int, int, float, float, float, float]:
    """Where the 2D ray segment [0, limit] enters the grid, to walk its cells in the order it
    crosses them (2D DDA): ``(entered, cx, cy, step_x, step_y, next_x, next_y, delta_x,
    delta_y)``: the first cell, the step along each axis, t at the next vertical and
    horizontal cell lines and between successive ones. ``entered`` is False (and the rest
    meaningless) when the segment misses the grid's box.

    ``grid_f`` = (x0, y0, cell) float64, ``grid_i`` = (nx, ny) int64."""
    x0 = grid_f[0]
    y0 = grid_f[1]
    cell = grid_f[2]
    gnx = grid_i[0]
    gny = grid_i[1]
    # clip the ray segment to the grid's box
    t0, t1 = _clip_slab(ox, ix, x0, x0 + gnx * cell, 0.0, limit)
    t0, t1 = _clip_slab(oy, iy, y0, y0 + gny * cell, t0, t1)
    if t0 > t1:
        return False, 0, 0, 0, 0, math.inf, math.inf, math.inf, math.inf
    cx = min(max(int(math.floor((ox + t0 * dx - x0) / cell)), 0), gnx - 1)
    cy = min(max(int(math.floor((oy + t0 * dy - y0) / cell)), 0), gny - 1)
    step_x = 1 if dx > 0.0 else -1
    step_y = 1 if dy > 0.0 else -1
    if math.isinf(ix):
        next_x = math.inf
        delta_x = math.inf
    else:
        next_x = (x0 + (cx + (1 if dx > 0.0 else 0)) * cell - ox) * ix
        delta_x = cell * abs(ix)
    if math.isinf(iy):
        next_y = math.inf
        delta_y = math.inf
    else:
        next_y = (y0 + (cy + (1 if dy > 0.0 else 0)) * cell - oy) * iy
        delta_y = cell * abs(iy)
    return True, cx, cy, step_x, step_y, next_x, next_y, delta_x, delta_y


@inline_kernel
def _dda_step(grid_i: np.ndarray, cx: int, cy: int, step_x: int, step_y: int, next_x: float,
              next_y: float, delta_x: float, delta_y: float
              ) -> tuple[bool, int, int, float, float]:
    """The next cell of a DDA walk (:func:`_dda_start`): ``(in_grid, cx, cy, next_x,
    next_y)``, across the nearer of the next vertical and horizontal cell lines."""
    if next_x < next_y:
        cx += step_x
        next_x += delta_x
    else:
        cy += step_y
        next_y += delta_y
    in_grid = 0 <= cx < grid_i[0] and 0 <= cy < grid_i[1]
    return in_grid, cx, cy, next_x, next_y


@inline_kernel
def _grid_ray(grid_f: np.ndarray, grid_i: np.ndarray, grid_start: np.ndarray,
              grid_items: np.ndarray, grid_boxes: np.ndarray, kind: np.ndarray,
              params: np.ndarray, poly: np.ndarray, verts: np.ndarray, norms: np.ndarray,
              layer: np.ndarray, skip: np.ndarray, mask: int, ox: float, oy: float, dx: float,
              dy: float, ix: float, iy: float, limit: float, best_h: int, best_t: float,
              segments: bool
              ) -> tuple[float, int, float, float, float, float, float, bool, bool]:
    """The nearest hit among the gridded colliders of a 2D ray segment [0, limit]: returns
    ``(limit, best_h, best_t, px, py, nx, ny, inside, improved)``.

    ``grid_f`` = (x0, y0, cell) float64, ``grid_i`` = (nx, ny) int64. Cells are visited in
    the order the ray crosses them (2D DDA); the walk stops once the best hit lies within the
    current cell (``limit <= cell exit``): every later cell starts farther.

    ``segments``: every gridded collider is a segment the query sees (the batch checks it
    once, :func:`_all_visible_segments`); candidates then go straight to ``ray_segment``
    (the call :func:`cast_collider` makes for them), without the kind dispatch and the
    visibility test. Either way the same candidates are tested with the same limits, so both
    give the same answer. Each candidate's box is tested first when the grid is sparse
    (:data:`GRID_PREFILTER_MAX_FILL`); in a denser one the boxes span several cells and the
    test rejects too few candidates to pay for itself.
    """
    gnx = grid_i[0]
    gny = grid_i[1]
    px = py = nx = ny = 0.0
    inside = False
    improved = False
    entered, cx, cy, step_x, step_y, next_x, next_y, delta_x, delta_y = _dda_start(
        grid_f, grid_i, ox, oy, dx, dy, ix, iy, limit)
    if not entered:
        return limit, best_h, best_t, px, py, nx, ny, inside, improved
    prefilter = grid_items.shape[0] <= GRID_PREFILTER_MAX_FILL * gnx * gny
    # the per-ray box test needs both slabs crossed; an axis-parallel ray uses the general one
    signed = not (math.isinf(ix) or math.isinf(iy))
    near_x = 0 if ix >= 0.0 else 2
    near_y = 1 if iy >= 0.0 else 3
    # a ray crosses at most gnx + gny cells
    for _ in range(gnx + gny + 2):
        c = cx + gnx * cy
        for j in range(grid_start[c], grid_start[c + 1]):
            if prefilter:
                if signed:
                    if _box_missed(grid_boxes, j, ox, oy, ix, iy, near_x, near_y, limit):
                        continue
                elif ray_box_entry2(ox, oy, ix, iy, limit, grid_boxes[j, 0], grid_boxes[j, 1],
                                    grid_boxes[j, 2], grid_boxes[j, 3]) == math.inf:
                    # the ray misses this collider's box (within the limit)
                    continue
            h = grid_items[j]
            if segments:
                t, hx, hy, hnx, hny, hin = ray_segment(ox, oy, dx, dy, params[h, 0],
                                                       params[h, 1], params[h, 2],
                                                       params[h, 3], limit)
            else:
                if not _visible(layer, skip, h, mask):
                    continue
                t, hx, hy, _hz, hnx, hny, _hnz, hin = cast_collider(
                    kind, params, poly, verts, norms, h, ox, oy, 0.0, dx, dy, 0.0, 0.0, limit,
                    False)
            if t >= 0.0 and (t < best_t or (t == best_t and h < best_h)):
                best_t = t
                best_h = h
                limit = t
                px, py, nx, ny, inside = hx, hy, hnx, hny, hin
                improved = True
        if limit <= min(next_x, next_y):
            # the best hit (or the end of the ray) lies in this cell
            break
        in_grid, cx, cy, next_x, next_y = _dda_step(grid_i, cx, cy, step_x, step_y, next_x,
                                                    next_y, delta_x, delta_y)
        if not in_grid:
            break
    return limit, best_h, best_t, px, py, nx, ny, inside, improved


@kernel
def cast_range(s_lo: np.ndarray, s_hi: np.ndarray, s_child: np.ndarray, s_start: np.ndarray,
               s_count: np.ndarray, s_order: np.ndarray, s_handles: np.ndarray,
               s_blo: np.ndarray, s_bhi: np.ndarray, m_lo: np.ndarray, m_hi: np.ndarray,
               m_child: np.ndarray, m_start: np.ndarray, m_count: np.ndarray,
               m_order: np.ndarray, m_handles: np.ndarray, m_blo: np.ndarray,
               m_bhi: np.ndarray, planes: np.ndarray, kind: np.ndarray, params: np.ndarray,
               poly: np.ndarray, verts: np.ndarray, norms: np.ndarray, layer: np.ndarray,
               grid_f: np.ndarray, grid_i: np.ndarray, grid_start: np.ndarray,
               grid_items: np.ndarray, grid_boxes: np.ndarray, skip: np.ndarray, mask: int,
               origins: np.ndarray, directions: np.ndarray,
               tmax: np.ndarray, radii: np.ndarray, grown: bool, first: int, stop: int,
               stack_node: np.ndarray, stack_t: np.ndarray, out_handle: np.ndarray,
               out_t: np.ndarray, out_point: np.ndarray, out_normal: np.ndarray,
               out_inside: np.ndarray) -> None:
    """Closest hit of rays (or balls) ``first .. stop-1`` against the static tree (``s_*``),
    the moving tree (``m_*``) and the planes, writing their rows of the outputs.

    ``origins, directions`` (n, d) float64 (unit directions), ``tmax`` (n,) float64, ``radii``
    (n,) float64 (read only when ``grown``: each row is then a ball cast as a ray against the
    colliders grown by its radius). Outputs: ``out_handle`` (n,) int64 (-1 on a miss),
    ``out_t`` (n,) float64 (inf on a miss), ``out_point, out_normal`` (n, d) float64 (zero on
    a miss), ``out_inside`` (n,) bool. For a grown cast that starts inside, ``out_point`` is
    the collider's point nearest the ball's centre. Ties: smallest t, then smallest handle.
    """
    _cast_rows(s_lo, s_hi, s_child, s_start, s_count, s_order, s_handles, s_blo, s_bhi,
               m_lo, m_hi, m_child, m_start, m_count, m_order, m_handles, m_blo, m_bhi,
               planes, kind, params, poly, verts, norms, layer, grid_f, grid_i,
               grid_start, grid_items, grid_boxes, skip, mask, origins, directions, tmax,
               radii, grown, first, stop, stack_node, stack_t, out_handle, out_t,
               out_point, out_normal, out_inside, False)


@kernel
def _cast_rows(s_lo: np.ndarray, s_hi: np.ndarray, s_child: np.ndarray, s_start: np.ndarray,
               s_count: np.ndarray, s_order: np.ndarray, s_handles: np.ndarray,
               s_blo: np.ndarray, s_bhi: np.ndarray, m_lo: np.ndarray, m_hi: np.ndarray,
               m_child: np.ndarray, m_start: np.ndarray, m_count: np.ndarray,
               m_order: np.ndarray, m_handles: np.ndarray, m_blo: np.ndarray,
               m_bhi: np.ndarray, planes: np.ndarray, kind: np.ndarray, params: np.ndarray,
               poly: np.ndarray, verts: np.ndarray, norms: np.ndarray, layer: np.ndarray,
               grid_f: np.ndarray, grid_i: np.ndarray, grid_start: np.ndarray,
               grid_items: np.ndarray, grid_boxes: np.ndarray, skip: np.ndarray, mask: int,
               origins: np.ndarray, directions: np.ndarray,
               tmax: np.ndarray, radii: np.ndarray, grown: bool, first: int, stop: int,
               stack_node: np.ndarray, stack_t: np.ndarray, out_handle: np.ndarray,
               out_t: np.ndarray, out_point: np.ndarray, out_normal: np.ndarray,
               out_inside: np.ndarray, segments: bool) -> None:
    """:func:`cast_range`; ``segments``: every static collider is a visible segment (the
    batch checks it once, :func:`_all_visible_segments`), so the grid walk takes its lean path."""
    d = origins.shape[1]
    for i in range(first, stop):
        ox = origins[i, 0]
        oy = origins[i, 1]
        dx = directions[i, 0]
        dy = directions[i, 1]
        oz = 0.0
        dz = 0.0
        iz = math.inf
        if d == 3:
            oz = origins[i, 2]
            dz = directions[i, 2]
            iz = inverse_direction(dz)
        ix = inverse_direction(dx)
        iy = inverse_direction(dy)
        r = radii[i] if grown else 0.0
        limit = tmax[i]
        best_h = -1
        best_t = math.inf
        px = py = pz = nx = ny = nz = 0.0
        inside = False
        # the static tree, then the moving one (the traversal written once, inline: a call
        # per tree cost more than the traversal itself), then every plane
        use_grid = grid_i[0] > 0 and not grown and d == 2
        for tree in range(2):
            if tree == 0 and use_grid:
                # the static colliders through the uniform grid: cells in ray order (DDA)
                limit, best_h, best_t, gpx, gpy, gnx, gny, gin, better = _grid_ray(
                    grid_f, grid_i, grid_start, grid_items, grid_boxes, kind, params, poly,
                    verts, norms, layer, skip, mask, ox, oy, dx, dy, ix, iy, limit, best_h,
                    best_t, segments)
                if better:
                    px, py, pz, nx, ny, nz, inside = gpx, gpy, 0.0, gnx, gny, 0.0, gin
                continue
            if tree == 0:
                node_lo, node_hi, node_child, node_start, node_count = s_lo, s_hi, s_child, \
                    s_start, s_count
                order, handles, lo, hi = s_order, s_handles, s_blo, s_bhi
            else:
                node_lo, node_hi, node_child, node_start, node_count = m_lo, m_hi, m_child, \
                    m_start, m_count
                order, handles, lo, hi = m_order, m_handles, m_blo, m_bhi
            m = node_lo.shape[0]
            if m == 0:
                continue
            if _entry(node_lo, node_hi, 0, d, ox, oy, oz, ix, iy, iz, r, limit) == math.inf:
                # the (fat) ray misses the whole tree
                continue
            node = 0
            sp = 0
            # every pass visits a new node: m passes at most
            for _ in range(m):
                child = node_child[node]
                if child >= 0:
                    # both children; the one entered first is descended into, the other waits
                    t_left = _entry(node_lo, node_hi, child, d, ox, oy, oz, ix, iy, iz, r,
                                    limit)
                    t_right = _entry(node_lo, node_hi, child + 1, d, ox, oy, oz, ix, iy, iz, r,
                                     limit)
                    if t_left <= t_right:
                        if t_left != math.inf:
                            if t_right != math.inf:
                                stack_node[sp] = child + 1
                                stack_t[sp] = t_right
                                sp += 1
                            node = child
                            continue
                        # both children missed (or lie beyond the best hit)
                    else:
                        if t_left != math.inf:
                            stack_node[sp] = child
                            stack_t[sp] = t_left
                            sp += 1
                        node = child + 1
                        continue
                else:
                    for j in range(node_start[node], node_start[node] + node_count[node]):
                        q = order[j]
                        if _entry(lo, hi, q, d, ox, oy, oz, ix, iy, iz, r, limit) == math.inf:
                            # the (fat) ray misses this collider's box
                            continue
                        h = handles[q]
                        if not _visible(layer, skip, h, mask):
                            continue
                        t, ax, ay, az, anx, any_, anz, ains = cast_collider(
                            kind, params, poly, verts, norms, h, ox, oy, oz, dx, dy, dz, r,
                            limit, grown)
                        if t >= 0.0 and (t < best_t or (t == best_t and h < best_h)):
                            best_t = t
                            best_h = h
                            limit = t
                            px, py, pz, nx, ny, nz, inside = ax, ay, az, anx, any_, anz, ains
                # resume at the last node put aside that is not entered beyond the limit
                node = -1
                while sp > 0:
                    sp -= 1
                    if stack_t[sp] <= limit:
                        node = stack_node[sp]
                        break
                if node < 0:
                    break
        for j in range(planes.shape[0]):
            h = planes[j]
            if not _visible(layer, skip, h, mask):
                continue
            t, ax, ay, az, anx, any_, anz, ains = cast_collider(
                kind, params, poly, verts, norms, h, ox, oy, oz, dx, dy, dz, r, limit, grown)
            if t >= 0.0 and (t < best_t or (t == best_t and h < best_h)):
                best_t = t
                best_h = h
                limit = t
                px, py, pz, nx, ny, nz, inside = ax, ay, az, anx, any_, anz, ains
        out_handle[i] = best_h
        out_t[i] = best_t
        out_inside[i] = inside
        if best_h >= 0 and grown and inside:
            # a ball that starts touching: the point is the collider's nearest to its centre
            px, py, pz = closest_collider(kind, params, poly, verts, norms, best_h, ox, oy, oz)
        out_point[i, 0] = px
        out_point[i, 1] = py
        out_normal[i, 0] = nx
        out_normal[i, 1] = ny
        if d == 3:
            out_point[i, 2] = pz
            out_normal[i, 2] = nz


@kernel
def cast_one(s_lo: np.ndarray, s_hi: np.ndarray, s_child: np.ndarray, s_start: np.ndarray,
             s_count: np.ndarray, s_order: np.ndarray, s_handles: np.ndarray,
             s_blo: np.ndarray, s_bhi: np.ndarray, m_lo: np.ndarray, m_hi: np.ndarray,
             m_child: np.ndarray, m_start: np.ndarray, m_count: np.ndarray,
             m_order: np.ndarray, m_handles: np.ndarray, m_blo: np.ndarray,
             m_bhi: np.ndarray, planes: np.ndarray, kind: np.ndarray, params: np.ndarray,
             poly: np.ndarray, verts: np.ndarray, norms: np.ndarray, layer: np.ndarray,
             grid_f: np.ndarray, grid_i: np.ndarray, grid_start: np.ndarray,
             grid_items: np.ndarray, grid_boxes: np.ndarray, skip: np.ndarray, mask: int,
             d: int, ox: float, oy: float, oz: float, dx: float, dy: float, dz: float,
             tmax: float, radius: float, grown: bool, stack_node: np.ndarray,
             stack_t: np.ndarray
             ) -> tuple[int, float, float, float, float, float, float, float, bool, float]:
    """:func:`cast_range` for one ray (or ball) given as numbers, for the scalar World
    queries: ``(handle, t, px, py, pz, nx, ny, nz, inside, exit)`` (z is 0 in 2D; ``exit``,
    the hit collider's :func:`exit_collider`, for a ray only, else ``t``).

    Its inputs and outputs are numbers, not one-row arrays filled and read from Python
    (each such access costs more than the ray's whole traversal)."""
    origins = np.empty((1, d))
    directions = np.empty((1, d))
    origins[0, 0] = ox
    origins[0, 1] = oy
    directions[0, 0] = dx
    directions[0, 1] = dy
    if d == 3:
        origins[0, 2] = oz
        directions[0, 2] = dz
    limits = np.full(1, tmax)
    radii = np.full(1, radius)
    out_handle = np.empty(1, np.int64)
    out_t = np.empty(1)
    out_point = np.zeros((1, 3))
    out_normal = np.zeros((1, 3))
    out_inside = np.zeros(1, np.bool_)
    _cast_rows(s_lo, s_hi, s_child, s_start, s_count, s_order, s_handles, s_blo, s_bhi,
               m_lo, m_hi, m_child, m_start, m_count, m_order, m_handles, m_blo, m_bhi,
               planes, kind, params, poly, verts, norms, layer, grid_f, grid_i,
               grid_start, grid_items, grid_boxes, skip, mask, origins, directions, limits,
               radii, grown, 0, 1, stack_node, stack_t, out_handle, out_t,
               out_point, out_normal, out_inside, False)
    h = out_handle[0]
    te = out_t[0]
    if h >= 0 and not grown:
        te = exit_collider(kind, params, poly, verts, norms, h, ox, oy, oz, dx, dy, dz,
                           out_t[0])
    return (h, out_t[0], out_point[0, 0], out_point[0, 1], out_point[0, 2],
            out_normal[0, 0], out_normal[0, 1], out_normal[0, 2], out_inside[0], te)


@kernel
def _all_visible_segments(s_handles: np.ndarray, kind: np.ndarray, layer: np.ndarray,
                          skip: np.ndarray, mask: int, grid_i: np.ndarray, d: int,
                          grown: bool) -> bool:
    """Whether a batch of rays walks a grid whose colliders (the static ones) are all
    segments this query sees: then :func:`_grid_ray` needs neither the kind dispatch nor
    the visibility test per candidate."""
    if grown or d != 2 or grid_i[0] == 0:
        return False
    for q in range(s_handles.shape[0]):
        h = s_handles[q]
        if kind[h] != KIND_SEGMENT or not _visible(layer, skip, h, mask):
            return False
    return True


@batch_kernel
def cast_many(s_lo: np.ndarray, s_hi: np.ndarray, s_child: np.ndarray, s_start: np.ndarray,
              s_count: np.ndarray, s_order: np.ndarray, s_handles: np.ndarray,
              s_blo: np.ndarray, s_bhi: np.ndarray, m_lo: np.ndarray, m_hi: np.ndarray,
              m_child: np.ndarray, m_start: np.ndarray, m_count: np.ndarray,
              m_order: np.ndarray, m_handles: np.ndarray, m_blo: np.ndarray,
              m_bhi: np.ndarray, planes: np.ndarray, kind: np.ndarray, params: np.ndarray,
              poly: np.ndarray, verts: np.ndarray, norms: np.ndarray, layer: np.ndarray,
              grid_f: np.ndarray, grid_i: np.ndarray, grid_start: np.ndarray,
              grid_items: np.ndarray, grid_boxes: np.ndarray, skip: np.ndarray, mask: int,
              origins: np.ndarray, directions: np.ndarray,
              tmax: np.ndarray, radii: np.ndarray, grown: bool
              ) -> tuple[np.ndarray, np.ndarray, np.ndarray, np.ndarray, np.ndarray]:
    """:func:`cast_range` for n rays (or balls) in parallel: returns ``handle`` (n,) int64,
    ``t`` (n,) float64, ``point`` (n, d) float64, ``normal`` (n, d) float64 and ``inside``
    (n,) bool. An empty batch gives empty arrays of those types."""
    n = origins.shape[0]
    d = origins.shape[1]
    out_handle = np.empty(n, np.int64)
    out_t = np.empty(n)
    out_point = np.zeros((n, d))
    out_normal = np.zeros((n, d))
    out_inside = np.zeros(n, np.bool_)
    n_chunks = (n + BATCH_CHUNK - 1) // BATCH_CHUNK
    segments = _all_visible_segments(s_handles, kind, layer, skip, mask, grid_i, d, grown)
    for c in numba.prange(n_chunks):
        _cast_rows(s_lo, s_hi, s_child, s_start, s_count, s_order, s_handles, s_blo, s_bhi,
                   m_lo, m_hi, m_child, m_start, m_count, m_order, m_handles, m_blo, m_bhi,
                   planes, kind, params, poly, verts, norms, layer, grid_f, grid_i,
                   grid_start, grid_items, grid_boxes, skip, mask, origins,
                   directions, tmax, radii, grown, c * BATCH_CHUNK,
                   min(n, (c + 1) * BATCH_CHUNK), np.empty(STACK_SIZE, np.int64),
                   np.empty(STACK_SIZE), out_handle, out_t, out_point, out_normal,
                   out_inside, segments)
    return out_handle, out_t, out_point, out_normal, out_inside


@kernel
def cast_many_serial(s_lo: np.ndarray, s_hi: np.ndarray, s_child: np.ndarray, s_start: np.ndarray,
              s_count: np.ndarray, s_order: np.ndarray, s_handles: np.ndarray,
              s_blo: np.ndarray, s_bhi: np.ndarray, m_lo: np.ndarray, m_hi: np.ndarray,
              m_child: np.ndarray, m_start: np.ndarray, m_count: np.ndarray,
              m_order: np.ndarray, m_handles: np.ndarray, m_blo: np.ndarray,
              m_bhi: np.ndarray, planes: np.ndarray, kind: np.ndarray, params: np.ndarray,
              poly: np.ndarray, verts: np.ndarray, norms: np.ndarray, layer: np.ndarray,
              grid_f: np.ndarray, grid_i: np.ndarray, grid_start: np.ndarray,
              grid_items: np.ndarray, grid_boxes: np.ndarray, skip: np.ndarray, mask: int,
              origins: np.ndarray, directions: np.ndarray,
              tmax: np.ndarray, radii: np.ndarray, grown: bool
              ) -> tuple[np.ndarray, np.ndarray, np.ndarray, np.ndarray, np.ndarray]:
    """:func:`cast_many` on one thread (for small batches, where waking the thread pool costs
    more than the work): returns ``handle`` (n,) int64,
    ``t`` (n,) float64, ``point`` (n, d) float64, ``normal`` (n, d) float64 and ``inside``
    (n,) bool. An empty batch gives empty arrays of those types."""
    n = origins.shape[0]
    d = origins.shape[1]
    out_handle = np.empty(n, np.int64)
    out_t = np.empty(n)
    out_point = np.zeros((n, d))
    out_normal = np.zeros((n, d))
    out_inside = np.zeros(n, np.bool_)
    n_chunks = (n + BATCH_CHUNK - 1) // BATCH_CHUNK
    segments = _all_visible_segments(s_handles, kind, layer, skip, mask, grid_i, d, grown)
    for c in range(n_chunks):
        _cast_rows(s_lo, s_hi, s_child, s_start, s_count, s_order, s_handles, s_blo, s_bhi,
                   m_lo, m_hi, m_child, m_start, m_count, m_order, m_handles, m_blo, m_bhi,
                   planes, kind, params, poly, verts, norms, layer, grid_f, grid_i,
                   grid_start, grid_items, grid_boxes, skip, mask, origins,
                   directions, tmax, radii, grown, c * BATCH_CHUNK,
                   min(n, (c + 1) * BATCH_CHUNK), np.empty(STACK_SIZE, np.int64),
                   np.empty(STACK_SIZE), out_handle, out_t, out_point, out_normal,
                   out_inside, segments)
    return out_handle, out_t, out_point, out_normal, out_inside


@kernel
def grid_segments(grid_items: np.ndarray, params: np.ndarray
                  ) -> tuple[np.ndarray, np.ndarray]:
    """The segment tables of a grid whose entries are all segments: ``segs`` (E,
    SEGMENT_COLUMNS) float64, row j for entry j (``grid_items[j]``): ``ax ay ex ey parallel
    h``, where ``e = b - a``, ``parallel = RAY_PARALLEL_SINE * |e|`` (the length as
    ``ray_segment`` computes it) and ``h`` is the handle; and ``units`` (cap, 3) float64, row
    h segment h's unit ``e`` (as ``ray_segment`` computes it) and ``parallel`` (rows of
    other handles unset). The batch walk (:func:`_segment_walk`) reads a cell's segments from
    one run of memory instead of through the handles into the parameter table, skips the
    per-test length, and takes the winner's normal from ``units``."""
    m = grid_items.shape[0]
    segs = np.empty((m, SEGMENT_COLUMNS))
    units = np.empty((params.shape[0], 3))
    for j in range(m):
        h = grid_items[j]
        ax = params[h, 0]
        ay = params[h, 1]
        ex = params[h, 2] - ax
        ey = params[h, 3] - ay
        ux, uy, elen = _unit2(ex, ey)
        segs[j, 0] = ax
        segs[j, 1] = ay
        segs[j, 2] = ex
        segs[j, 3] = ey
        segs[j, 4] = RAY_PARALLEL_SINE * elen
        segs[j, 5] = h
        units[h, 0] = ux
        units[h, 1] = uy
        units[h, 2] = segs[j, 4]
    return segs, units


@inline_kernel
def _segment_walk(grid_f: np.ndarray, grid_i: np.ndarray, grid_start: np.ndarray,
                  segs: np.ndarray, params: np.ndarray, ox: float, oy: float, dx: float,
                  dy: float, limit: float) -> tuple[int, float]:
    """The nearest segment of a grid of segments (``segs``: :func:`grid_segments`) that the
    2D ray segment [0, limit] hits: ``(h, t)``, ``(-1, inf)`` on a miss. The same cells in
    the same order as :func:`_grid_ray`, every candidate tested (no box test first), the
    same t and the same ties (smallest t, then smallest handle): the same answer as its
    segment path.

    Each candidate is ``ray_segment``'s crossing test on the table's precomputed ``e`` and
    threshold, the same operations in the same order (so the same t), with the hit decided
    and the best updated by selects rather than branches (a ray's candidates hit or miss at
    random, which a branch predictor cannot learn). A ray (nearly) parallel to a segment, or
    a segment of zero length, goes to ``ray_segment`` itself."""
    gnx = grid_i[0]
    gny = grid_i[1]
    ix = inverse_direction(dx)
    iy = inverse_direction(dy)
    best_h = -1.0
    best_t = math.inf
    entered, cx, cy, step_x, step_y, next_x, next_y, delta_x, delta_y = _dda_start(
        grid_f, grid_i, ox, oy, dx, dy, ix, iy, limit)
    if not entered:
        return -1, math.inf
    # a ray crosses at most gnx + gny cells
    for _ in range(gnx + gny + 2):
        c = cx + gnx * cy
        for j in range(grid_start[c], grid_start[c + 1]):
            wx = segs[j, 0] - ox
            wy = segs[j, 1] - oy
            ex = segs[j, 2]
            ey = segs[j, 3]
            hf = segs[j, 5]
            denom = dx * ey - dy * ex  # cross(d, e)
            if abs(denom) <= segs[j, 4]:
                # parallel (or a point): ray_segment's collinear cases
                h = int(hf)
                t = ray_segment(ox, oy, dx, dy, params[h, 0], params[h, 1], params[h, 2],
                                params[h, 3], limit)[0]
                hit = t >= 0.0
            else:
                # the crossing o + t d = a + u e, within the ray segment and the segment
                t = (wx * ey - wy * ex) / denom
                u = (wx * dy - wy * dx) / denom
                hit = (t >= 0.0) & (t <= limit) & (u >= 0.0) & (u <= 1.0)
            better = hit & ((t < best_t) | ((t == best_t) & (hf < best_h)))
            best_t = t if better else best_t
            best_h = hf if better else best_h
            limit = t if better else limit
        if limit <= min(next_x, next_y):
            # the best hit (or the end of the ray) lies in this cell
            break
        in_grid, cx, cy, next_x, next_y = _dda_step(grid_i, cx, cy, step_x, step_y, next_x,
                                                    next_y, delta_x, delta_y)
        if not in_grid:
            break
    return int(best_h), best_t


@inline_kernel
def _segment_ray(grid_f: np.ndarray, grid_i: np.ndarray, grid_start: np.ndarray,
                 segs: np.ndarray, units: np.ndarray, planes: np.ndarray, kind: np.ndarray,
                 params: np.ndarray, poly: np.ndarray, verts: np.ndarray, norms: np.ndarray,
                 layer: np.ndarray, skip: np.ndarray, mask: int, ox: float, oy: float,
                 dx: float, dy: float, limit: float
                 ) -> tuple[int, float, float, float, float, float, bool]:
    """One ray (unit direction) against a grid of segments (:func:`_segment_walk`) and the
    planes: ``(handle, t, px, py, nx, ny, inside)`` as :func:`_cast_rows` finds them
    (``(-1, inf, 0, 0, 0, 0, False)`` on a miss). The hit segment's point and normal are
    ``ray_segment``'s, finished once after the walk from the segment's unit direction
    (``units``, :func:`grid_segments`)."""
    best_h, best_t = _segment_walk(grid_f, grid_i, grid_start, segs, params, ox, oy, dx, dy,
                                   limit)
    px = py = nx = ny = 0.0
    inside = False
    if best_h >= 0:
        limit = best_t
        # ray_segment starts on the segment exactly when it hits at 0
        inside = best_t == 0.0
        ex = params[best_h, 2] - params[best_h, 0]
        ey = params[best_h, 3] - params[best_h, 1]
        if abs(dx * ey - dy * ex) <= units[best_h, 2]:
            # parallel (or a point): ray_segment's collinear answer
            _t, px, py, nx, ny, _in = ray_segment(ox, oy, dx, dy, params[best_h, 0],
                                                  params[best_h, 1], params[best_h, 2],
                                                  params[best_h, 3], limit)
        else:
            # ray_segment's crossing: the perpendicular turned to face the ray, at the
            # origin when the ray starts on the segment
            nx = 0.0 - units[best_h, 1]
            ny = units[best_h, 0]
            if nx * dx + ny * dy > 0.0:
                nx = 0.0 - nx
                ny = 0.0 - ny
            px = ox + best_t * dx if best_t != 0.0 else ox
            py = oy + best_t * dy if best_t != 0.0 else oy
    for j in range(planes.shape[0]):
        h = planes[j]
        if not _visible(layer, skip, h, mask):
            continue
        t, ax, ay, _az, anx, any_, _anz, ains = cast_collider(
            kind, params, poly, verts, norms, h, ox, oy, 0.0, dx, dy, 0.0, 0.0, limit, False)
        if t >= 0.0 and (t < best_t or (t == best_t and h < best_h)):
            best_t = t
            best_h = h
            limit = t
            px, py, nx, ny, inside = ax, ay, anx, any_, ains
    return best_h, best_t, px, py, nx, ny, inside


@inline_kernel
def _segment_rows(grid_f: np.ndarray, grid_i: np.ndarray, grid_start: np.ndarray,
                  segs: np.ndarray, units: np.ndarray, planes: np.ndarray, kind: np.ndarray,
                  params: np.ndarray, poly: np.ndarray, verts: np.ndarray, norms: np.ndarray,
                  layer: np.ndarray, skip: np.ndarray, mask: int, origins: np.ndarray,
                  directions: np.ndarray, tmax: np.ndarray, order: np.ndarray, first: int,
                  stop: int, out_handle: np.ndarray, out_t: np.ndarray, out_point: np.ndarray,
                  out_normal: np.ndarray) -> None:
    """Rays ``order[first .. stop-1]`` through :func:`_segment_ray`: their rows of ``out_*``
    as :func:`_cast_rows` writes them. ``directions`` need not be unit: each is divided by
    its ``hypot`` here, as the World divides them for the other kernels (the same values);
    none may be zero."""
    for k in range(first, stop):
        i = order[k]
        length = math.hypot(directions[i, 0], directions[i, 1])
        h, t, px, py, nx, ny, _inside = _segment_ray(
            grid_f, grid_i, grid_start, segs, units, planes, kind, params, poly, verts, norms,
            layer, skip, mask, origins[i, 0], origins[i, 1], directions[i, 0] / length,
            directions[i, 1] / length, tmax[i])
        out_handle[i] = h
        out_t[i] = t
        out_point[i, 0] = px
        out_point[i, 1] = py
        out_normal[i, 0] = nx
        out_normal[i, 1] = ny


@kernel
def cast_segments_one(grid_f: np.ndarray, grid_i: np.ndarray, grid_start: np.ndarray,
                      segs: np.ndarray, units: np.ndarray, planes: np.ndarray,
                      kind: np.ndarray, params: np.ndarray, poly: np.ndarray,
                      verts: np.ndarray, norms: np.ndarray, layer: np.ndarray,
                      skip: np.ndarray, mask: int, ox: float, oy: float, dx: float, dy: float,
                      limit: float) -> tuple[int, float, float, float, float, float, bool]:
    """:func:`cast_one` for a 2D ray (unit direction, used as given) when the conditions of
    :func:`cast_segments_many` hold: ``(handle, t, px, py, nx, ny, inside)``. Half the arrays
    of the general kernel to unbox, and the segments-only walk."""
    return _segment_ray(grid_f, grid_i, grid_start, segs, units, planes, kind, params, poly,
                        verts, norms, layer, skip, mask, ox, oy, dx, dy, limit)


@kernel
def zero_row(v: np.ndarray) -> int:
    """The first row of ``v`` (n, d) whose components are all zero (a zero direction), or
    -1."""
    for i in range(v.shape[0]):
        zero = True
        for a in range(v.shape[1]):
            if v[i, a] != 0.0:
                zero = False
                break
        if zero:
            return i
    return -1


@kernel
def _ray_order(grid_f: np.ndarray, grid_i: np.ndarray, origins: np.ndarray) -> np.ndarray:
    """The rows of ``origins`` (n, 2) sorted by the grid tile (:data:`RAY_TILE_CELLS` cells a
    side, row by row; origins off the grid count in the nearest tile) their origin lies in: a
    counting sort, stable."""
    n = origins.shape[0]
    x0 = grid_f[0]
    y0 = grid_f[1]
    side = grid_f[2] * RAY_TILE_CELLS
    tnx = (grid_i[0] + RAY_TILE_CELLS - 1) // RAY_TILE_CELLS
    tny = (grid_i[1] + RAY_TILE_CELLS - 1) // RAY_TILE_CELLS
    key = np.empty(n, np.int64)
    count = np.zeros(tnx * tny + 1, np.int64)
    for i in range(n):
        tx = min(max((origins[i, 0] - x0) / side, 0.0), tnx - 1.0)
        ty = min(max((origins[i, 1] - y0) / side, 0.0), tny - 1.0)
        key[i] = int(tx) + tnx * int(ty)
        count[key[i] + 1] += 1
    for c in range(tnx * tny):
        count[c + 1] += count[c]
    order = np.empty(n, np.int64)
    for i in range(n):
        order[count[key[i]]] = i
        count[key[i]] += 1
    return order


@batch_kernel
def cast_segments_many(grid_f: np.ndarray, grid_i: np.ndarray, grid_start: np.ndarray,
                       segs: np.ndarray, units: np.ndarray, planes: np.ndarray, kind: np.ndarray,
                       params: np.ndarray, poly: np.ndarray, verts: np.ndarray,
                       norms: np.ndarray, layer: np.ndarray, skip: np.ndarray, mask: int,
                       origins: np.ndarray, directions: np.ndarray, tmax: np.ndarray
                       ) -> tuple[np.ndarray, np.ndarray, np.ndarray, np.ndarray]:
    """:func:`cast_many` for 2D rays when every static collider is a segment in the grid that
    the query sees, nothing moves, and ``segs, units`` are the grid's segment tables
    (:func:`grid_segments`): returns ``handle`` (n,) int64, ``t`` (n,) float64, ``point`` and
    ``normal`` (n, 2) float64, the same answers. ``directions`` (n, 2): nonzero, any length
    (normalised here, :func:`_segment_rows`)."""
    n = origins.shape[0]
    out_handle = np.empty(n, np.int64)
    out_t = np.empty(n)
    out_point = np.empty((n, 2))
    out_normal = np.empty((n, 2))
    if segs.shape[0] >= RAY_SORT_MIN_ENTRIES:
        order = _ray_order(grid_f, grid_i, origins)
    else:
        order = np.arange(n)
    n_chunks = (n + BATCH_CHUNK - 1) // BATCH_CHUNK
    for c in numba.prange(n_chunks):
        _segment_rows(grid_f, grid_i, grid_start, segs, units, planes, kind, params, poly, verts,
                      norms, layer, skip, mask, origins, directions, tmax, order,
                      c * BATCH_CHUNK, min(n, (c + 1) * BATCH_CHUNK), out_handle, out_t,
                      out_point, out_normal)
    return out_handle, out_t, out_point, out_normal


@kernel
def cast_segments_many_serial(grid_f: np.ndarray, grid_i: np.ndarray, grid_start: np.ndarray,
                              segs: np.ndarray, units: np.ndarray, planes: np.ndarray,
                              kind: np.ndarray, params: np.ndarray, poly: np.ndarray,
                              verts: np.ndarray, norms: np.ndarray, layer: np.ndarray,
                              skip: np.ndarray, mask: int, origins: np.ndarray,
                              directions: np.ndarray, tmax: np.ndarray
                              ) -> tuple[np.ndarray, np.ndarray, np.ndarray, np.ndarray]:
    """:func:`cast_segments_many` on one thread (small batches)."""
    n = origins.shape[0]
    out_handle = np.empty(n, np.int64)
    out_t = np.empty(n)
    out_point = np.empty((n, 2))
    out_normal = np.empty((n, 2))
    _segment_rows(grid_f, grid_i, grid_start, segs, units, planes, kind, params, poly, verts,
                  norms, layer, skip, mask, origins, directions, tmax, np.arange(n), 0, n,
                  out_handle, out_t, out_point, out_normal)
    return out_handle, out_t, out_point, out_normal


# ---------------------------------------------------------------------------------------------
# contacts


@inline_kernel
def _touches(blo: np.ndarray, bhi: np.ndarray, k: int, d: int, qlo: np.ndarray,
             qhi: np.ndarray) -> bool:
    """Whether row k of a box array overlaps or touches the box [qlo, qhi]."""
    for a in range(d):
        if blo[k, a] > qhi[a] or bhi[k, a] < qlo[a] or blo[k, a] > bhi[k, a]:
            return False
    return True


@kernel
def _contact_tree(node_lo: np.ndarray, node_hi: np.ndarray, node_child: np.ndarray,
                  node_start: np.ndarray, node_count: np.ndarray, order: np.ndarray,
                  handles: np.ndarray, lo: np.ndarray, hi: np.ndarray, kind: np.ndarray,
                  params: np.ndarray, poly: np.ndarray, verts: np.ndarray, norms: np.ndarray,
                  layer: np.ndarray, mask: int, d: int, cx: float, cy: float, cz: float,
                  r: float, qlo: np.ndarray, qhi: np.ndarray, stack: np.ndarray,
                  best_h: int, best_depth: float, out: np.ndarray
                  ) -> tuple[int, float]:
    """The deepest contact of a ball with the colliders of one tree: returns ``(best_h,
    best_depth)`` and writes ``out`` = (nx, ny, nz, px, py, pz) when it improves them."""
    m = node_lo.shape[0]
    if m == 0:
        return best_h, best_depth
    stack[0] = 0
    sp = 1
    # every node is pushed at most once: m pops at most
    for _ in range(m):
        if sp == 0:
            break
        sp -= 1
        node = stack[sp]
        if not _touches(node_lo, node_hi, node, d, qlo, qhi):
            # the ball's box misses the whole subtree
            continue
        child = node_child[node]
        if child >= 0:
            stack[sp] = child + 1
            stack[sp + 1] = child
            sp += 2
            continue
        for j in range(node_start[node], node_start[node] + node_count[node]):
            q = order[j]
            if not _touches(lo, hi, q, d, qlo, qhi):
                continue
            h = handles[q]
            if (layer[h] & mask) == 0:
                continue
            hit, nx, ny, nz, depth, px, py, pz = contact_collider(
                kind, params, poly, verts, norms, h, cx, cy, cz, r)
            if hit and (depth > best_depth or (depth == best_depth and h < best_h)):
                best_h = h
                best_depth = depth
                out[0], out[1], out[2], out[3], out[4], out[5] = nx, ny, nz, px, py, pz
    return best_h, best_depth


@kernel
def contact_range(s_lo: np.ndarray, s_hi: np.ndarray, s_child: np.ndarray,
                  s_start: np.ndarray, s_count: np.ndarray, s_order: np.ndarray,
                  s_handles: np.ndarray, s_blo: np.ndarray, s_bhi: np.ndarray,
                  m_lo: np.ndarray, m_hi: np.ndarray, m_child: np.ndarray,
                  m_start: np.ndarray, m_count: np.ndarray, m_order: np.ndarray,
                  m_handles: np.ndarray, m_blo: np.ndarray, m_bhi: np.ndarray,
                  planes: np.ndarray, kind: np.ndarray, params: np.ndarray, poly: np.ndarray,
                  verts: np.ndarray, norms: np.ndarray, layer: np.ndarray,
                  grid_f: np.ndarray, grid_i: np.ndarray, grid_start: np.ndarray,
                  grid_items: np.ndarray, grid_boxes: np.ndarray, mask: int,
                  centers: np.ndarray, radii: np.ndarray, first: int, stop: int,
                  stack: np.ndarray, out_handle: np.ndarray, out_depth: np.ndarray,
                  out_point: np.ndarray, out_normal: np.ndarray) -> None:
    """The deepest contact (ties: smallest handle) of balls ``first .. stop-1`` (``centers``
    (n, d), ``radii`` (n,) float64) with the visible colliders: writes ``out_handle`` (-1
    when touching nothing), ``out_depth`` (0 then), ``out_point`` and ``out_normal`` (zero
    then), as ``contact(ball, collider)`` answers."""
    d = centers.shape[1]
    qlo = np.empty(d)
    qhi = np.empty(d)
    best = np.zeros(6)
    for i in range(first, stop):
        cx = centers[i, 0]
        cy = centers[i, 1]
        cz = centers[i, 2] if d == 3 else 0.0
        r = radii[i]
        for a in range(d):
            qlo[a] = centers[i, a] - r
            qhi[a] = centers[i, a] + r
        best_h = -1
        best_depth = -math.inf
        best[:] = 0.0
        best_h, best_depth = _contact_tree(
            s_lo, s_hi, s_child, s_start, s_count, s_order, s_handles, s_blo, s_bhi, kind,
            params, poly, verts, norms, layer, mask, d, cx, cy, cz, r, qlo, qhi, stack, best_h,
            best_depth, best)
        best_h, best_depth = _contact_tree(
            m_lo, m_hi, m_child, m_start, m_count, m_order, m_handles, m_blo, m_bhi, kind,
            params, poly, verts, norms, layer, mask, d, cx, cy, cz, r, qlo, qhi, stack, best_h,
            best_depth, best)
        for j in range(planes.shape[0]):
            h = planes[j]
            if (layer[h] & mask) == 0:
                continue
            hit, nx, ny, nz, depth, px, py, pz = contact_collider(
                kind, params, poly, verts, norms, h, cx, cy, cz, r)
            if hit and (depth > best_depth or (depth == best_depth and h < best_h)):
                best_h = h
                best_depth = depth
                best[0], best[1], best[2], best[3], best[4], best[5] = nx, ny, nz, px, py, pz
        out_handle[i] = best_h
        out_depth[i] = best_depth if best_h >= 0 else 0.0
        for a in range(d):
            # (+ 0.0 turns a -0.0 normal component into 0.0, as contact() does)
            out_normal[i, a] = best[a] + 0.0
            out_point[i, a] = best[3 + a]


@batch_kernel
def contact_many(s_lo: np.ndarray, s_hi: np.ndarray, s_child: np.ndarray, s_start: np.ndarray,
                 s_count: np.ndarray, s_order: np.ndarray, s_handles: np.ndarray,
                 s_blo: np.ndarray, s_bhi: np.ndarray, m_lo: np.ndarray, m_hi: np.ndarray,
                 m_child: np.ndarray, m_start: np.ndarray, m_count: np.ndarray,
                 m_order: np.ndarray, m_handles: np.ndarray, m_blo: np.ndarray,
                 m_bhi: np.ndarray, planes: np.ndarray, kind: np.ndarray, params: np.ndarray,
                 poly: np.ndarray, verts: np.ndarray, norms: np.ndarray, layer: np.ndarray,
                 grid_f: np.ndarray, grid_i: np.ndarray, grid_start: np.ndarray,
                 grid_items: np.ndarray, grid_boxes: np.ndarray, mask: int, centers: np.ndarray,
                 radii: np.ndarray
                 ) -> tuple[np.ndarray, np.ndarray, np.ndarray, np.ndarray]:
    """:func:`contact_range` for n balls in parallel: returns ``handle`` (n,) int64,
    ``depth`` (n,) float64, ``point`` (n, d) and ``normal`` (n, d) float64."""
    n = centers.shape[0]
    d = centers.shape[1]
    out_handle = np.empty(n, np.int64)
    out_depth = np.empty(n)
    out_point = np.zeros((n, d))
    out_normal = np.zeros((n, d))
    n_chunks = (n + BATCH_CHUNK - 1) // BATCH_CHUNK
    for c in numba.prange(n_chunks):
        contact_range(s_lo, s_hi, s_child, s_start, s_count, s_order, s_handles, s_blo, s_bhi,
                      m_lo, m_hi, m_child, m_start, m_count, m_order, m_handles, m_blo, m_bhi,
                      planes, kind, params, poly, verts, norms, layer, grid_f, grid_i,
                      grid_start, grid_items, grid_boxes, mask, centers, radii,
                      c * BATCH_CHUNK, min(n, (c + 1) * BATCH_CHUNK),
                      np.empty(STACK_SIZE + 1, np.int64), out_handle, out_depth, out_point,
                      out_normal)
    return out_handle, out_depth, out_point, out_normal
