"""Convex hulls of point clouds: 2D by Andrew's monotone chain, 3D by quickhull.

Both take any cloud (duplicates, collinear or coplanar runs, points inside) and keep only the
hull's corners: a point within the tolerance of an edge (2D) or a face plane (3D) is not a
corner. A cloud with no area (2D) or no volume (3D) is a ``ValueError`` naming ``points``.

Tolerances, decided once here:

- 2D: three points are collinear when the cross product of their two edges is at most
  :data:`~swept.constants.POLYGON_COLLINEAR_TOLERANCE` times the product of the edges' lengths
  (the rule :class:`~swept.Polygon` validates with), so the chain's ring always passes it.
- 3D: a point is on a face's plane (not outside it) when its signed distance is at most
  ``HULL_TOLERANCE * (extent + magnitude)``: the cloud's extent (the largest distance between
  its bounding box's corners) plus its coordinates' magnitude, so a cloud far from the origin
  keeps the rounding of its coordinates inside the band. The same band decides a degenerate
  cloud (all points within it of a line or a plane) and merges adjacent triangles into one
  polygonal face.
"""

from __future__ import annotations

import math
from typing import Any, NamedTuple

import numpy as np

from .constants import HULL_MAX_POINTS, HULL_TOLERANCE, POLYGON_COLLINEAR_TOLERANCE

__all__ = ["hull2d", "hull3d", "Hull3D"]


def _cloud(points: Any, dim: int) -> np.ndarray:
    """``points`` as a finite ``(n, dim)`` float64 array, or ValueError/TypeError naming it."""
    from .constants import MAX_COORDINATE

    if isinstance(points, (str, bytes)):
        raise TypeError("points must be a sequence of points, not a string")
    try:
        arr = np.asarray(points, dtype=np.float64)
    except (TypeError, ValueError):
        raise TypeError(f"points must be a sequence of {dim}-vectors of numbers") from None
    if arr.ndim != 2 or arr.shape[1] != dim:
        raise ValueError(f"points must be an (n, {dim}) array of {dim}D points, got shape "
                         f"{arr.shape}")
    if arr.shape[0] > HULL_MAX_POINTS:
        raise ValueError(f"points: at most {HULL_MAX_POINTS} points, got {arr.shape[0]}")
    if not np.all(np.isfinite(arr)):
        raise ValueError("points must be finite (no NaN or infinity)")
    if arr.size and float(np.max(np.abs(arr))) > MAX_COORDINATE:
        raise ValueError(f"points: coordinates beyond {MAX_COORDINATE:g}")
    return arr


def hull2d(points: Any) -> list[tuple[float, float]]:
    """The convex hull of 2D ``points`` as its corners, counter-clockwise (y up), by Andrew's
    monotone chain; duplicates, points within the band of a corner, and collinear points
    dropped. Fewer than 3 non-collinear points raise ``ValueError`` naming ``points``."""
    arr = _cloud(points, 2)
    pts = sorted({(float(x) + 0.0, float(y) + 0.0) for x, y in arr})
    if len(pts) < 3:
        raise ValueError(f"points: a hull needs 3 points not on one line, got {len(pts)} "
                         f"distinct point(s)")
    a = np.array(pts)
    extent = float(np.linalg.norm(a.max(axis=0) - a.min(axis=0)))
    eps = HULL_TOLERANCE * (extent + float(np.max(np.abs(a))))

    def chain(seq: list[tuple[float, float]]) -> list[tuple[float, float]]:
        # the plain chain: keep strict left turns only
        out: list[tuple[float, float]] = []
        for p in seq:
            while len(out) >= 2 and (out[-1][0] - out[-2][0]) * (p[1] - out[-1][1]) - \
                    (out[-1][1] - out[-2][1]) * (p[0] - out[-1][0]) <= 0.0:
                out.pop()
            out.append(p)
        return out

    ring = chain(pts)[:-1] + chain(pts[::-1])[:-1]

    def clear_turn(o: tuple[float, float], a: tuple[float, float],
                   b: tuple[float, float]) -> bool:
        # a turn beyond Polygon's own collinear band (a sine), with the middle farther than
        # the cloud's band from the line through its neighbours (a length)
        ax, ay = a[0] - o[0], a[1] - o[1]
        bx, by = b[0] - a[0], b[1] - a[1]
        cross = ax * by - ay * bx
        if cross <= POLYGON_COLLINEAR_TOLERANCE * math.hypot(ax, ay) * math.hypot(bx, by):
            return False
        return cross > eps * math.hypot(b[0] - o[0], b[1] - o[1])

    # drop corners within the band of their neighbours' line (near-duplicates included); each
    # pass drops one, so at most as many passes as corners
    for _ in range(len(ring)):
        n = len(ring)
        if n < 3:
            break
        drop = next((i for i in range(n)
                     if not clear_turn(ring[i - 1], ring[i], ring[(i + 1) % n])), None)
        if drop is None:
            break
        del ring[drop]
    if len(ring) < 3:
        raise ValueError("points: all points lie on one line; a hull needs an area")
    return ring


class Hull3D(NamedTuple):
    """A 3D convex hull: corners, polygonal faces and their planes, edges."""

    #: the corners, ``(n, 3)`` float64
    vertices: np.ndarray
    #: each face's corner indices, counter-clockwise seen from outside
    faces: tuple[tuple[int, ...], ...]
    #: each face's outward unit normal, ``(f, 3)`` float64
    normals: np.ndarray
    #: each face's plane offset: inside is ``dot(normal, p) <= offset``, ``(f,)`` float64
    offsets: np.ndarray
    #: each edge once as ``(i, j)`` with ``i < j``, ``(e, 2)`` int64
    edges: np.ndarray
    #: the on-plane band used to build it (length units)
    tolerance: float


def _plane(p: np.ndarray, a: int, b: int, c: int) -> tuple[np.ndarray, float] | None:
    """The unit normal and offset of the triangle (a, b, c) counter-clockwise, or None for a
    sliver with no normal."""
    n = np.cross(p[b] - p[a], p[c] - p[a])
    length = float(np.linalg.norm(n))
    if length == 0.0 or not math.isfinite(length):
        return None
    n = n / length
    return n, float(n @ p[a])


def hull3d(points: Any) -> Hull3D:
    """The convex hull of 3D ``points`` by quickhull (see the module's tolerances).

    Coincident, collinear or coplanar clouds raise ``ValueError`` naming ``points``. The loop
    adds one cloud point a pass and a point once added is never outside again, so it runs at
    most as many passes as there are points.
    """
    arr = _cloud(points, 3)
    if arr.shape[0] < 4:
        raise ValueError(f"points: a 3D hull needs 4 points not on one plane, got "
                         f"{arr.shape[0]}")
    p = np.unique(arr + 0.0, axis=0)
    lo = p.min(axis=0)
    hi = p.max(axis=0)
    extent = float(np.linalg.norm(hi - lo))
    magnitude = float(np.max(np.abs(p)))
    eps = HULL_TOLERANCE * (extent + magnitude)
    if extent <= eps:
        raise ValueError("points: every point is the same point; a hull needs a volume")
    # the initial tetrahedron: the farthest pair of axis extremes, the farthest point from
    # their line, the farthest point from their plane
    ext = np.concatenate([p.argmin(axis=0), p.argmax(axis=0)])
    best = (0.0, 0, 0)
    for i in ext:
        for j in ext:
            d = float(np.linalg.norm(p[i] - p[j]))
            if d > best[0]:
                best = (d, int(i), int(j))
    _, i0, i1 = best
    u = (p[i1] - p[i0]) / best[0]
    rel = p - p[i0]
    off_line = np.linalg.norm(rel - np.outer(rel @ u, u), axis=1)
    i2 = int(np.argmax(off_line))
    if off_line[i2] <= eps:
        raise ValueError("points: all points lie on one line; a hull needs a volume")
    plane0 = _plane(p, i0, i1, i2)
    assert plane0 is not None
    height = (p - p[i0]) @ plane0[0]
    i3 = int(np.argmax(np.abs(height)))
    if abs(height[i3]) <= eps:
        raise ValueError("points: all points lie on one plane; a hull needs a volume")
    inner = (p[i0] + p[i1] + p[i2] + p[i3]) / 4.0

    # faces: id -> [a, b, c, normal, offset, outside point indices]
    faces: dict[int, list[Any]] = {}
    next_id = 0

    def add_face(a: int, b: int, c: int, candidates: np.ndarray) -> None:
        nonlocal next_id
        pl = _plane(p, a, b, c)
        if pl is None:
            return
        n, off = pl
        if n @ inner > off:
            # wound inward: turn it round
            a, b = b, a
            n, off = -n, -off
        dist = p[candidates] @ n - off if candidates.size else np.empty(0)
        faces[next_id] = [a, b, c, n, off, candidates[dist > eps]]
        next_id += 1

    everyone = np.arange(p.shape[0])
    for a, b, c in ((i0, i1, i2), (i0, i1, i3), (i0, i2, i3), (i1, i2, i3)):
        add_face(a, b, c, everyone)
    # each cloud point goes to one face's outside set only
    claimed = np.zeros(p.shape[0], bool)
    for f in faces.values():
        mine = f[5][~claimed[f[5]]]
        claimed[mine] = True
        f[5] = mine

    for _pass in range(p.shape[0] + 1):
        fid = next((k for k, f in faces.items() if f[5].size), None)
        if fid is None:
            break
        f = faces[fid]
        far = int(f[5][np.argmax(p[f[5]] @ f[3] - f[4])])
        apex = p[far]
        visible = [k for k, g in faces.items() if apex @ g[3] - g[4] > eps]
        if fid not in visible:
            visible.append(fid)
        vis = set(visible)
        directed = {}
        for k in visible:
            a, b, c = faces[k][:3]
            for e in ((a, b), (b, c), (c, a)):
                directed[e] = k
        horizon = [e for e in directed if (e[1], e[0]) not in directed]
        orphans = np.unique(np.concatenate([faces[k][5] for k in visible]))
        orphans = orphans[orphans != far]
        for k in vis:
            del faces[k]
        first_new = next_id
        for a, b in horizon:
            add_face(a, b, far, np.empty(0, np.int64))
        # hand each orphan to the first new face it is outside of
        left = orphans
        for k in range(first_new, next_id):
            if k not in faces or left.size == 0:
                continue
            g = faces[k]
            out = p[left] @ g[3] - g[4] > eps
            g[5] = left[out]
            left = left[~out]
    else:  # pragma: no cover - the cap is the number of points, never reached
        raise ValueError("points: the hull did not converge")

    return _merge(p, list(faces.values()), eps)


def _merge(p: np.ndarray, tris: list[list[Any]], eps: float) -> Hull3D:
    """Merge coplanar neighbouring triangles into polygonal faces; index the corners used."""
    n = len(tris)
    edge_of: dict[tuple[int, int], int] = {}
    for t, f in enumerate(tris):
        a, b, c = f[:3]
        for e in ((a, b), (b, c), (c, a)):
            edge_of[e] = t
    # union coplanar neighbours (each one's far corner within the band of the other's plane)
    parent = list(range(n))

    def root(i: int) -> int:
        # union-find with path halving: a chain is never longer than the triangles
        for _ in range(n):
            if parent[i] == i:
                break
            parent[i] = parent[parent[i]]
            i = parent[i]
        return i

    for (a, b), t in edge_of.items():
        s = edge_of.get((b, a))
        if s is None or s <= t:
            continue
        ft, fs = tris[t], tris[s]
        far_s = next(v for v in fs[:3] if v != a and v != b)
        far_t = next(v for v in ft[:3] if v != a and v != b)
        if abs(p[far_s] @ ft[3] - ft[4]) <= eps and abs(p[far_t] @ fs[3] - fs[4]) <= eps \
                and float(ft[3] @ fs[3]) > 0.0:
            parent[root(t)] = root(s)
    groups: dict[int, list[int]] = {}
    for t in range(n):
        groups.setdefault(root(t), []).append(t)
    loops: list[list[int]] = []
    for members in groups.values():
        mset = set(members)
        nxt: dict[int, int] = {}
        for t in members:
            a, b, c = tris[t][:3]
            for e in ((a, b), (b, c), (c, a)):
                s = edge_of.get((e[1], e[0]))
                if s is None or s not in mset or root(s) != root(t):
                    nxt[e[0]] = e[1]
        start = min(nxt)
        loop = [start]
        for _ in range(len(nxt)):
            v = nxt[loop[-1]]
            if v == start:
                break
            loop.append(v)
        loops.append(loop)
    used = sorted({v for loop in loops for v in loop})
    index = {v: i for i, v in enumerate(used)}
    verts = p[used].copy()
    faces = tuple(tuple(index[v] for v in loop) for loop in loops)
    normals = np.empty((len(faces), 3))
    offsets = np.empty(len(faces))
    for k, face in enumerate(faces):
        # Newell's normal of the polygon; the offset from its outermost corner, so that every
        # corner is inside or on every face's plane
        nv = np.zeros(3)
        v0 = verts[face[0]]
        for i in range(1, len(face) - 1):
            # (relative to the first corner: no cancellation far from the origin)
            nv += np.cross(verts[face[i]] - v0, verts[face[i + 1]] - v0)
        nv = nv / np.linalg.norm(nv)
        normals[k] = nv + 0.0
        offsets[k] = float(np.max(verts[list(face)] @ nv))
    edge_set = set()
    for face in faces:
        for i, a in enumerate(face):
            b = face[(i + 1) % len(face)]
            edge_set.add((min(a, b), max(a, b)))
    edges = np.array(sorted(edge_set), dtype=np.int64).reshape(-1, 2)
    for arr in (verts, normals, offsets, edges):
        arr.setflags(write=False)
    return Hull3D(verts, faces, normals, offsets, edges, eps)
