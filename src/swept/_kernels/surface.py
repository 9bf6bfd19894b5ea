"""Building a triangle surface (:mod:`swept.level.surface`): the validation of its triangles,
their unit normals and boxes, and the edge adjacency, each one compiled pass over the arrays.

Written in numpy these were most of a ``TriangleMesh()`` of a million triangles: the
validation's corner gathers and cross products 0.25 s, the adjacency's sort of 3 million edge
keys and its gathers 1.4 s, against a BVH build of 1.4 s (CPU time, the benchmark's terrain,
on the shared 2-core machine). The edges are grouped here by two counting sorts over the
vertices (by upper vertex, then stably by lower vertex): linear time whatever the mesh (a fan
of many triangles around one vertex included), and no comparison sort to compile (an
``np.argsort`` for large groups added seconds to the cold compile).

The arithmetic is the numpy version's, operation for operation (no contraction into fused
multiply-adds: numba does not enable it), so the normals and the flat-edge decisions are the
same numbers.
"""

from __future__ import annotations

import math

import numpy as np

from . import callee, inline_kernel, kernel

#: How :func:`triangle_normals` reports the first bad triangle: an index out of range.
BAD_INDEX = 1
#: How :func:`triangle_normals` reports the first bad triangle: zero area.
BAD_AREA = 2


@kernel
def triangle_normals(verts: np.ndarray, tris: np.ndarray, area_tolerance: float
                     ) -> tuple[np.ndarray, int, int]:
    """The unit normals ``(b - a) x (c - a)`` of the triangles ``tris`` (m, 3) int64 over
    ``verts`` (n, 3) float64, and the first bad row and why: ``(normals, row, kind)``, kind
    :data:`BAD_INDEX` (an index outside [0, n)), :data:`BAD_AREA` (the doubled area at most
    ``area_tolerance`` times the longest edge squared: collinear or coincident corners), or
    ``(normals, -1, 0)`` when every row is good (the normals are only whole then)."""
    m = tris.shape[0]
    n = verts.shape[0]
    normals = np.empty((m, 3))
    for k in range(m):
        ia = tris[k, 0]
        ib = tris[k, 1]
        ic = tris[k, 2]
        if ia < 0 or ia >= n or ib < 0 or ib >= n or ic < 0 or ic >= n:
            # checked before any corner is read
            return normals, k, BAD_INDEX
        abx = verts[ib, 0] - verts[ia, 0]
        aby = verts[ib, 1] - verts[ia, 1]
        abz = verts[ib, 2] - verts[ia, 2]
        acx = verts[ic, 0] - verts[ia, 0]
        acy = verts[ic, 1] - verts[ia, 1]
        acz = verts[ic, 2] - verts[ia, 2]
        bcx = verts[ic, 0] - verts[ib, 0]
        bcy = verts[ic, 1] - verts[ib, 1]
        bcz = verts[ic, 2] - verts[ib, 2]
        cx = aby * acz - abz * acy
        cy = abz * acx - abx * acz
        cz = abx * acy - aby * acx
        doubled = math.sqrt(cx * cx + cy * cy + cz * cz)
        # a - c squares as c - a does
        longest = max(max(abx * abx + aby * aby + abz * abz, bcx * bcx + bcy * bcy + bcz * bcz),
                      acx * acx + acy * acy + acz * acz)
        if not doubled > area_tolerance * longest:
            # zero area (or NaN from an overflow)
            return normals, k, BAD_AREA
        normals[k, 0] = cx / doubled
        normals[k, 1] = cy / doubled
        normals[k, 2] = cz / doubled
    return normals, -1, 0


@kernel
def triangle_boxes(verts: np.ndarray, tris: np.ndarray
                   ) -> tuple[np.ndarray, np.ndarray, np.ndarray, np.ndarray]:
    """Each triangle's box ``(lo, hi)`` ((m, 3) each) and the box of them all ``(lo, hi)``
    ((3,) each: the box of the vertices the triangles use)."""
    m = tris.shape[0]
    lo = np.empty((m, 3))
    hi = np.empty((m, 3))
    all_lo = np.full(3, math.inf)
    all_hi = np.full(3, -math.inf)
    for k in range(m):
        for a in range(3):
            x0 = verts[tris[k, 0], a]
            x1 = verts[tris[k, 1], a]
            x2 = verts[tris[k, 2], a]
            low = min(x0, min(x1, x2))
            high = max(x0, max(x1, x2))
            lo[k, a] = low
            hi[k, a] = high
            all_lo[a] = min(all_lo[a], low)
            all_hi[a] = max(all_hi[a], high)
    return lo, hi, all_lo, all_hi


@kernel
def grow_boxes(lo: np.ndarray, hi: np.ndarray, margin: float) -> None:
    """Grow the boxes ``lo, hi`` ((m, 3) each) by ``margin`` on every side, in place."""
    for k in range(lo.shape[0]):
        for a in range(3):
            lo[k, a] -= margin
            hi[k, a] += margin


@inline_kernel
def _edge_side(verts: np.ndarray, ip: int, iq: int, iw: int, nx: float, ny: float, nz: float
               ) -> float:
    """``((q - p) x (w - p)) . n`` of vertices p, q, w: which side of the edge pq the corner
    w lies on, seen along n."""
    px, py, pz = verts[ip, 0], verts[ip, 1], verts[ip, 2]
    ex = verts[iq, 0] - px
    ey = verts[iq, 1] - py
    ez = verts[iq, 2] - pz
    wx = verts[iw, 0] - px
    wy = verts[iw, 1] - py
    wz = verts[iw, 2] - pz
    return (ey * wz - ez * wy) * nx + (ez * wx - ex * wz) * ny + (ex * wy - ey * wx) * nz


@inline_kernel
def _flat_pair(verts: np.ndarray, tris: np.ndarray, normals: np.ndarray, k1: int, e1: int,
               k2: int, e2: int, flat_tolerance: float) -> bool:
    """Whether the edge e1 of triangle k1, shared with edge e2 of triangle k2, is flat: the
    normals parallel (the sine of their angle at most ``flat_tolerance``) and the third
    corners on opposite sides of the edge (the triangles spread apart, not folded)."""
    n1x, n1y, n1z = normals[k1, 0], normals[k1, 1], normals[k1, 2]
    n2x, n2y, n2z = normals[k2, 0], normals[k2, 1], normals[k2, 2]
    sx = n1y * n2z - n1z * n2y
    sy = n1z * n2x - n1x * n2z
    sz = n1x * n2y - n1y * n2x
    sine = math.sqrt(sx * sx + sy * sy + sz * sz)
    ip = tris[k1, e1]
    iq = tris[k1, (e1 + 1) % 3]
    iw1 = tris[k1, (e1 + 2) % 3]
    iw2 = tris[k2, (e2 + 2) % 3]
    side1 = _edge_side(verts, ip, iq, iw1, n1x, n1y, n1z)
    side2 = _edge_side(verts, ip, iq, iw2, n1x, n1y, n1z)
    return sine <= flat_tolerance and side1 * side2 < 0.0


@inline_kernel
def _edge_ends(tris: np.ndarray, edge: int) -> tuple[int, int]:
    """The lower and the upper vertex of edge ``edge`` (``3 k + e``: edge e of triangle k)."""
    a = tris[edge // 3, edge % 3]
    b = tris[edge // 3, (edge % 3 + 1) % 3]
    return min(a, b), max(a, b)


@callee
def _edges_by_vertex(tris: np.ndarray, n: int, edges: np.ndarray, upper: bool) -> np.ndarray:
    """``edges`` (edge indices) stably sorted by their upper (else lower) vertex: a counting
    sort over the n vertices."""
    start = np.zeros(n + 1, np.int64)
    for edge in edges:
        lo, hi = _edge_ends(tris, edge)
        start[(hi if upper else lo) + 1] += 1
    for v in range(n):
        start[v + 1] += start[v]
    out = np.empty_like(edges)
    for edge in edges:
        lo, hi = _edge_ends(tris, edge)
        v = hi if upper else lo
        out[start[v]] = edge
        start[v] += 1
    return out


@kernel
def edge_adjacency(verts: np.ndarray, tris: np.ndarray, normals: np.ndarray,
                   flat_tolerance: float) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """``(neighbors (m, 3) int64, edge_flat (m, 3) bool, vertex_flat (n,) bool)`` of
    :func:`swept.level.surface.adjacency`: the triangle across each edge (-1 on the boundary,
    -2 where three or more triangles share it), whether the edge is flat
    (:func:`_flat_pair`, decided from the triangle of the pair that comes first), and whether
    every edge at a vertex is flat."""
    m = tris.shape[0]
    n = verts.shape[0]
    # the edges grouped by (lower, upper) vertex: sorted by upper vertex, then stably by lower
    # (two counting sorts), each group in edge order
    edges = _edges_by_vertex(tris, n, _edges_by_vertex(tris, n, np.arange(3 * m), True), False)
    neighbors = np.full((m, 3), -1, np.int64)
    edge_flat = np.zeros((m, 3), np.bool_)
    i = 0
    # each pass takes one run of equal ends (one edge of the surface)
    for _ in range(3 * m):
        if i >= 3 * m:
            break
        ends = _edge_ends(tris, edges[i])
        j = i + 1
        for _ in range(3 * m - j):
            if _edge_ends(tris, edges[j]) != ends:
                break
            j += 1
        if j - i == 2:
            k1, e1 = edges[i] // 3, edges[i] % 3
            k2, e2 = edges[i + 1] // 3, edges[i + 1] % 3
            neighbors[k1, e1] = k2
            neighbors[k2, e2] = k1
            flat = _flat_pair(verts, tris, normals, k1, e1, k2, e2, flat_tolerance)
            edge_flat[k1, e1] = flat
            edge_flat[k2, e2] = flat
        elif j - i > 2:
            # three or more triangles on one edge: no single neighbour
            for q in range(i, j):
                neighbors[edges[q] // 3, edges[q] % 3] = -2
        i = j
    vertex_flat = np.zeros(n, np.bool_)
    for k in range(m):
        for e in range(3):
            vertex_flat[tris[k, e]] = True
    for k in range(m):
        for e in range(3):
            if not edge_flat[k, e]:
                vertex_flat[tris[k, e]] = False
                vertex_flat[tris[k, (e + 1) % 3]] = False
    return neighbors, edge_flat, vertex_flat
