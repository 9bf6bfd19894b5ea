"""Triangle surfaces (3D): what a :class:`~swept.TriangleMesh` and a :class:`~swept.HeightField`
share, and the queries on them.

A surface is a list of triangles; each subclass brings its own way to find the triangles near
a ray (a mesh walks its BVH, a height field its cells) and near a box. Everything else is here,
once: the validation of vertex and triangle arrays, the edge adjacency (which triangle lies
across each edge, and whether that edge is flat), and the handlers of every query family
(``raycast``, ``closest_point``, ``distance`` / ``closest_points`` and ``contact`` of points,
spheres, capsules, boxes, oriented boxes and hulls, ``sweep`` of spheres (exact) and of the
others (conservative advancement)) registered for both shapes, plus :func:`raycast_many`.

Conventions (the kernels' docstring in :mod:`swept._kernels.mesh` has the degenerate cases):

- A surface is **two-sided** and has no inside: a ball on either side is outside it, and a
  normal is the face normal turned toward the ray's origin or the ball's centre. A
  :class:`~swept.RayHit`'s ``exit_distance`` is, for a closed mesh (every edge shared by
  exactly two triangles), the next crossing of the surface beyond the hit; ``inf`` for an open
  mesh or a height field.
- A ray from a point of the surface hits at 0 with ``started_inside=True``.
- **No internal-edge bumps:** the normal of a ball's contact or sweep hit is the face normal on
  a face, on a *flat* edge (between two coplanar triangles spread apart) and at a vertex whose
  every edge is flat; on any other edge or vertex it points from the touching point to the
  centre. A capsule's or box's *core* (its segment, its corners' hull) apart from the surface
  gets the same normal at its nearest point; a core that crosses the surface leaves plane by
  plane, never across a flat edge (:func:`swept._kernels.mesh.core_surface_contact`).
"""

from __future__ import annotations

import math
from collections.abc import Callable
from typing import Any, TypeVar

import numpy as np

from .. import (
    _kernels,  # noqa: F401  (installs the kernel cache stamps first)
    convex3d,  # noqa: F401  (the oriented box's and hull's cores)
)
from .._kernels import mesh as _k
from .._kernels import surface as _ks
from .._parallel import parallel_for
from ..constants import (
    BOX_MARGIN,
    FLAT_EDGE_TOLERANCE,
    HEADING_TOLERANCE,
    MAX_COORDINATE,
    SURFACE_SEARCH_DOUBLINGS,
    TRIANGLE_AREA_TOLERANCE,
)
from ..dispatch import CLOSEST_POINT, CLOSEST_POINTS, CONTACT, RAYCAST, SWEEP, UNSUPPORTED
from ..distance import PointOperand
from ..results import RayBatch, RayHit, make_ray_hit
from ..shapes import AABB, Capsule, ConvexHull, OrientedBox, Ray, Sphere
from ..sweep import shape_core
from ..vec import Vec3, as_vec3

__all__ = ["Surface", "raycast_many", "check_vertices", "check_triangles", "adjacency",
           "sweep_ahead"]


_T = TypeVar("_T")

#: Triangles sampled for a surface's typical triangle size (a starting guess of the
#: nearest-point search, not a tolerance: any positive size gives the same answers).
_SIZE_SAMPLE = 10_000


# ---------------------------------------------------------------------------------------------
# validation and adjacency (compiled: swept._kernels.surface)


def check_vertices(vertices: Any, name: str = "vertices") -> np.ndarray:
    """``vertices`` as a read-only (n, 3) float64 array, finite and within ``MAX_COORDINATE``,
    or ``ValueError`` naming the argument and the first bad row."""
    try:
        v = np.array(vertices, dtype=np.float64)
    except (TypeError, ValueError):
        raise TypeError(f"{name} must be an (n, 3) array of numbers") from None
    if v.ndim != 2 or v.shape[1] != 3 or v.shape[0] < 3:
        raise ValueError(f"{name} must be an (n, 3) array with n >= 3, got shape {v.shape}")
    bad = ~(np.abs(v) <= MAX_COORDINATE).all(axis=1)
    if bad.any():
        row = int(np.argmax(bad))
        raise ValueError(f"{name}[{row}] = {v[row].tolist()} is not finite or beyond "
                         f"MAX_COORDINATE = {MAX_COORDINATE:g}")
    v.flags.writeable = False
    return v


def check_triangles(triangles: Any, verts: np.ndarray, name: str = "triangles"
                    ) -> tuple[np.ndarray, np.ndarray]:
    """``triangles`` as a read-only (m, 3) int64 array of vertex indices in range, no triangle
    of zero area (its doubled area at most ``TRIANGLE_AREA_TOLERANCE`` times its longest edge
    squared), and the unit face normals ((m, 3), from the winding); else ``ValueError`` naming
    the argument and the row."""
    t = np.asarray(triangles)
    if t.dtype == np.bool_ or not (np.issubdtype(t.dtype, np.integer) or t.size == 0):
        raise TypeError(f"{name} must be an (m, 3) array of integer vertex indices")
    if t.ndim != 2 or t.shape[1] != 3 or t.shape[0] < 1:
        raise ValueError(f"{name} must be an (m, 3) array with m >= 1, got shape {t.shape}")
    t = t.astype(np.int64)
    n = verts.shape[0]
    normals, row, why = _ks.triangle_normals(verts, t, TRIANGLE_AREA_TOLERANCE)
    if why == _ks.BAD_INDEX:
        raise ValueError(f"{name}[{row}] = {t[row].tolist()} has an index out of range "
                         f"[0, {n})")
    if why == _ks.BAD_AREA:
        raise ValueError(f"{name}[{row}] = {t[row].tolist()} has zero area (its corners are "
                         f"collinear or coincide)")
    t.flags.writeable = False
    normals.flags.writeable = False
    return t, normals


def adjacency(verts: np.ndarray, tris: np.ndarray, normals: np.ndarray
              ) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """The edge adjacency of a triangle list: ``(neighbors, edge_flat, vertex_flat)``.

    ``neighbors`` (m, 3) int64: the triangle across edge e of triangle k (edge e runs from
    vertex e to vertex ``(e + 1) % 3``), -1 on the surface's boundary, -2 where three or more
    triangles share the edge. ``edge_flat`` (m, 3) bool: the edge has exactly one neighbour,
    coplanar (normals parallel within ``FLAT_EDGE_TOLERANCE``, as a sine) and spread on the
    other side of the edge (not folded back onto it). ``vertex_flat`` (n,) bool: every edge
    at the vertex is flat (so the triangles around it make one plane, and it is not on the
    boundary)."""
    neighbors, edge_flat, vertex_flat = _ks.edge_adjacency(verts, tris, normals,
                                                           FLAT_EDGE_TOLERANCE)
    for arr in (neighbors, edge_flat, vertex_flat):
        arr.flags.writeable = False
    return neighbors, edge_flat, vertex_flat


# ---------------------------------------------------------------------------------------------
# the shared base


class Surface:
    """What :class:`~swept.TriangleMesh` and :class:`~swept.HeightField` share: the triangle
    arrays, the adjacency, ``.aabb``, and the two searches each subclass provides
    (:meth:`_ray`, :meth:`_gather`)."""

    __slots__ = ("vertices", "triangles", "normals", "neighbors", "_edge_flat",
                 "_vertex_flat", "_aabb", "_margin", "_size", "_hash")
    dim = 3
    #: (n, 3) float64, read-only: the vertices
    vertices: np.ndarray
    #: (m, 3) int64, read-only: each triangle's three vertex indices
    triangles: np.ndarray
    #: (m, 3) float64, read-only: unit face normals, ``(b - a) x (c - a)`` normalised
    normals: np.ndarray
    #: (m, 3) int64, read-only: the triangle across each edge (see :func:`adjacency`)
    neighbors: np.ndarray
    _edge_flat: np.ndarray
    _vertex_flat: np.ndarray
    _aabb: AABB
    _margin: float
    _size: float
    _hash: int | None

    def _setup(self, verts: np.ndarray, tris: np.ndarray, normals: np.ndarray,
               boxes: tuple[np.ndarray, ...] | None = None) -> None:
        """Store the arrays, the adjacency, the box and the scale (for the subclasses);
        ``boxes`` is :func:`swept._kernels.surface.triangle_boxes` of the triangles, if the
        subclass has it."""
        neighbors, edge_flat, vertex_flat = adjacency(verts, tris, normals)
        tri_lo, tri_hi, lo, hi = boxes if boxes is not None else _ks.triangle_boxes(verts, tris)
        scale = max(float(np.abs(lo).max()), float(np.abs(hi).max()), float((hi - lo).max()))
        for name, value in (("vertices", verts), ("triangles", tris), ("normals", normals),
                            ("neighbors", neighbors), ("_edge_flat", edge_flat),
                            ("_vertex_flat", vertex_flat),
                            ("_aabb", AABB(Vec3(*lo.tolist()), Vec3(*hi.tolist()))),
                            ("_margin", BOX_MARGIN * scale), ("_hash", None)):
            object.__setattr__(self, name, value)
        # a typical triangle's size (the median over at most SIZE_SAMPLE of them): where the
        # nearest-point search starts
        step = max(1, tris.shape[0] // _SIZE_SAMPLE)
        span = tri_hi[::step] - tri_lo[::step]
        object.__setattr__(self, "_size", float(np.median(span.max(axis=1))))

    def __setattr__(self, name: str, value: Any) -> None:
        raise AttributeError(f"{type(self).__name__} is immutable")

    @property
    def aabb(self) -> AABB:
        """The smallest axis-aligned box holding every triangle."""
        return self._aabb

    # each subclass: the nearest triangle along a ray, and the triangles near a box
    def _ray(self, o: Any, d: Any, tmin: float, tmax: float) -> tuple[float, int]:
        raise NotImplementedError

    def _gather_into(self, query: np.ndarray, out: np.ndarray) -> int:
        # the triangles near the box `query` written to `out`, how many there are in all
        raise NotImplementedError

    def _gather(self, query: np.ndarray) -> np.ndarray:
        """The triangles whose boxes (a mesh) or cells (a height field) touch the box
        ``query`` ((6,) ``lo xyz hi xyz``), as an int64 array."""
        out = np.empty(64, np.int64)
        found = self._gather_into(query, out)
        if found > out.shape[0]:
            # the first buffer was short: one call more with room for every one
            out = np.empty(found, np.int64)
            found = self._gather_into(query, out)
        return out[:found]

    def _batch(self, o: np.ndarray, d: np.ndarray, tmax: np.ndarray,
               out: tuple[np.ndarray, ...]) -> None:
        # the nearest hits of a batch of rays (directions normalised by the kernel) into
        # out = (distance, triangle, point, normal)
        raise NotImplementedError

    def _sphere_cast(self, c: Vec3, rel: Vec3, reach: float, max_fraction: float
                     ) -> tuple[float, int]:
        """``(fraction, k)`` of a ball of radius ``reach`` at ``c`` moved by ``rel`` against
        the triangles whose boxes meet the swept box (``(0, k)`` when it starts touching,
        ``k < 0`` on a miss); a mesh walks its BVH instead."""
        end = c + rel * max_fraction
        lo = Vec3(min(c[0], end[0]), min(c[1], end[1]), min(c[2], end[2]))
        hi = Vec3(max(c[0], end[0]), max(c[1], end[1]), max(c[2], end[2]))
        cand = self._candidates(lo - (reach, reach, reach), hi + (reach, reach, reach))
        fraction, k = _k.sphere_cast(self.vertices, self.triangles, self.normals, cand,
                                     cand.shape[0], c[0], c[1], c[2], rel[0], rel[1], rel[2],
                                     reach, max_fraction)
        return fraction, k

    def _candidates(self, lo: Any, hi: Any) -> np.ndarray:
        """The triangles whose boxes (grown by the margin) touch the box ``[lo, hi]``."""
        m = self._margin
        query = np.array([lo[0] - m, lo[1] - m, lo[2] - m, hi[0] + m, hi[1] + m, hi[2] + m])
        return self._gather(query)

    def _nearest(self, p: Vec3) -> tuple[float, int]:
        """``(d, k)``: the distance from ``p`` to the surface and the nearest triangle
        (:meth:`_search` around the point)."""
        def measure(cand: np.ndarray) -> tuple[float, int]:
            d, k = _k.nearest_triangle(self.vertices, self.triangles, cand, cand.shape[0],
                                       p[0], p[1], p[2])
            return d, k

        d, k = self._search(p, p, measure)
        return d, k

    def _nearest_core(self, core: np.ndarray) -> tuple[float, ...]:
        """``(d, ax, ay, az, bx, by, bz, k)``: the distance from a convex core (its points'
        hull) to the surface, the nearest points (a on the core, b on triangle k)."""
        def measure(cand: np.ndarray) -> tuple[float, tuple[float, ...]]:
            out = _k.core_surface_nearest(core, self.vertices, self.triangles, self.normals,
                                          cand, cand.shape[0])
            return out[0], out

        lo = core.min(axis=0)
        hi = core.max(axis=0)
        _d, out = self._search(lo, hi, measure)
        return tuple(out)

    def _search(self, lo: Any, hi: Any, measure: Callable[[np.ndarray], tuple[float, _T]]
                ) -> tuple[float, _T]:
        """The nearest triangle to something inside the box ``[lo, hi]``, by ``measure``
        (candidate triangles -> ``(distance, answer)`` of the nearest among them).

        The search grows the box (by the gap to the surface's box plus a typical triangle's
        size, doubling) until a triangle in it lies within that growth: every triangle nearer
        than that touches the grown box, so the nearest is among those gathered. At most
        ``SURFACE_SEARCH_DOUBLINGS`` rounds, then all."""
        box = self._aabb
        gap = math.sqrt(sum(max(box.min[a] - hi[a], 0.0, lo[a] - box.max[a]) ** 2
                            for a in range(3)))
        reach = gap + max(self._size, self._margin)
        for _ in range(SURFACE_SEARCH_DOUBLINGS):
            cand = self._candidates([lo[a] - reach for a in range(3)],
                                    [hi[a] + reach for a in range(3)])
            if cand.shape[0]:
                d, answer = measure(cand)
                if d <= reach:
                    return d, answer
            reach *= 2.0
        return measure(np.arange(self.triangles.shape[0], dtype=np.int64))

    def _normal_at(self, k: int, p: Vec3) -> tuple[float, Vec3, Vec3]:
        """Distance from ``p`` to triangle k, its nearest point and the surface normal there
        toward ``p`` (internal edges smoothed: :func:`swept._kernels.mesh.surface_normal`)."""
        d, qx, qy, qz, nx, ny, nz = _k.surface_normal(
            self.vertices, self.triangles, self.normals, self._edge_flat, self._vertex_flat, k,
            p[0], p[1], p[2])
        return d, Vec3(qx, qy, qz), Vec3(nx + 0.0, ny + 0.0, nz + 0.0)

    def closed(self) -> bool:
        """Whether every edge is shared by exactly two triangles (a closed surface)."""
        return bool((self.neighbors >= 0).all())


# ---------------------------------------------------------------------------------------------
# the query families' handlers


def _ray_normal(surface: Surface, k: int, d: Any) -> Vec3:
    """Triangle k's face normal turned to face a ray along ``d``."""
    n = surface.normals[k]
    s = -1.0 if n[0] * d[0] + n[1] * d[1] + n[2] * d[2] > 0.0 else 1.0
    return Vec3(s * n[0] + 0.0, s * n[1] + 0.0, s * n[2] + 0.0)


def _raycast_surface(ray: Ray, surface: Surface) -> RayHit | None:
    """The nearest crossing of the ray with the surface (watertight), or None."""
    if ray.dim != 3:
        raise TypeError("a 3D surface needs a 3D ray")
    o, d = ray.origin, ray.direction
    t, k = surface._ray(o, d, -1.0, ray.max_distance)
    if k < 0:
        return None
    exit_distance = math.inf
    if surface.closed():
        # a closed surface bounds a solid: the ray leaves it at the next crossing
        t2, k2 = surface._ray(o, d, t, math.inf)
        if k2 >= 0:
            exit_distance = t2
    point = Vec3(o[0] + t * d[0], o[1] + t * d[1], o[2] + t * d[2]) if t > 0.0 else o
    return make_ray_hit(t, point, _ray_normal(surface, k, d), t == 0.0, exit_distance)


def _closest_point_surface(surface: Surface, p: Any) -> Vec3:
    """The point of the surface nearest ``p``."""
    q = as_vec3(p, "p")
    _d, k = surface._nearest(q)
    _d, point, _n = surface._normal_at(k, q)
    return point


def _closest_points_surface(shape: Any, surface: Surface) -> tuple[float, ...]:
    """The closest-points family's answer for a point or a sphere against a surface:
    ``(gap, a's point, b's point)``; both points are the surface's point when they touch."""
    c = shape.center
    r = shape.radius if isinstance(shape, Sphere) else 0.0
    _d, k = surface._nearest(c)
    d, q, n = surface._normal_at(k, c)
    if d <= r:
        return (0.0, q[0], q[1], q[2], q[0], q[1], q[2])
    u = (q - c) * (1.0 / d)
    a = c + u * r
    return (d - r, a[0], a[1], a[2], q[0], q[1], q[2])


def _contact_surface(sphere: Sphere, surface: Surface) -> tuple[Any, ...]:
    """The contact family's flat tuple (hit, normal, depth, point) of a sphere on a surface:
    the nearest triangle's point, the normal out of the surface toward the centre."""
    c = sphere.center
    r = sphere.radius
    cand = surface._candidates(c - (r, r, r), c + (r, r, r))
    if cand.shape[0] == 0:
        return (False, 0.0, 0.0, 0.0, 0.0, 0.0, 0.0, 0.0)
    d, k = _k.nearest_triangle(surface.vertices, surface.triangles, cand, cand.shape[0], c[0],
                               c[1], c[2])
    if d > r:
        return (False, 0.0, 0.0, 0.0, 0.0, 0.0, 0.0, 0.0)
    d, q, n = surface._normal_at(k, c)
    return (True, n[0], n[1], n[2], r - d, q[0], q[1], q[2])


def _closest_points_core_surface(shape: Any, surface: Surface) -> tuple[float, ...]:
    """The closest-points family's answer for a capsule, box, oriented box or hull against a
    surface: ``(gap, a's point, b's point)`` from the nearest points of the shape's core and
    the nearest triangle; both points are the surface's point when they touch or overlap."""
    core, r = shape_core(shape)
    d, ax, ay, az, bx, by, bz, _k_ = surface._nearest_core(core)
    if d <= r:
        return (0.0, bx, by, bz, bx, by, bz)
    u = (r / d)
    return (d - r, ax + u * (bx - ax), ay + u * (by - ay), az + u * (bz - az), bx, by, bz)


def _contact_core_surface(shape: Any, surface: Surface) -> tuple[Any, ...]:
    """The contact family's flat tuple of a capsule, box, oriented box or hull on a surface:
    :func:`swept._kernels.mesh.core_surface_contact` over the triangles near the shape (the
    nearest triangle's smoothed normal when the core is apart from the surface, the deepest
    push out of a triangle the core crosses)."""
    if shape.dim != 3:
        return UNSUPPORTED
    core, r = shape_core(shape)
    cand = surface._candidates(core.min(axis=0) - r, core.max(axis=0) + r)
    hit, nx, ny, nz, depth, px, py, pz, _k_ = _k.core_surface_contact(
        core, r, surface.vertices, surface.triangles, surface.normals, surface._edge_flat,
        surface._vertex_flat, cand, cand.shape[0])
    return (hit, nx + 0.0, ny + 0.0, nz + 0.0, depth, px, py, pz)


def _sweep_sphere_surface(sphere: Sphere, rel: Vec3, surface: Surface, td: float, mf: float
                          ) -> tuple[float, Vec3, Vec3, bool] | None:
    """The sweep family's answer for a sphere moved by ``rel`` against a surface: the exact
    first touch (the subclass's :meth:`Surface._sphere_cast`), the normal smoothed over flat
    edges."""
    reach = sphere.radius + td
    length = rel.length()
    if reach == 0.0 and length > 0.0:
        # a point: the watertight ray, so that a point aimed at an edge or a vertex never
        # slips between its triangles (the edges' capsules of radius 0 let it, at 1e6)
        t, k = surface._ray(sphere.center, rel * (1.0 / length), -1.0, length * mf)
        fraction = min(t / length, mf)
    else:
        fraction, k = surface._sphere_cast(sphere.center, rel, reach, mf)
    if k < 0:
        return None
    return _sphere_hit(sphere.center, reach, rel, surface, fraction, k)


def _sphere_hit(c: Vec3, reach: float, rel: Vec3, surface: Surface, fraction: float, k: int
                ) -> tuple[float, Vec3, Vec3, bool]:
    """A sphere's sweep answer once its first touch ``(fraction, k)`` is known: the normal of
    triangle k's feature there, smoothed over flat edges; for a ball of radius 0 (and no
    target distance), a ray's: the face normal turned against the motion."""
    _d, q, n = surface._normal_at(k, c + rel * fraction)
    if reach == 0.0:
        # the centre ends on the surface: the direction from the touching point to it is
        # the rounding's (a vertex hit at 1e6 came out facing away from the ball)
        n = _ray_normal(surface, k, rel)
    return fraction, n, q, fraction == 0.0


def _sweep_convex_surface(shape: Any, rel: Vec3, surface: Surface, td: float, mf: float
                          ) -> tuple[float, Vec3, Vec3, bool] | None:
    """The sweep family's answer for a capsule or a box moved by ``rel`` against a surface:
    conservative advancement against each triangle whose box meets the swept box (the first
    touch within ``CAST_TOLERANCE`` of the query's size), the normal smoothed over flat
    edges."""
    core, radius = shape_core(shape)
    cand = _swept_candidates(core, radius + td, rel * mf, surface)
    answer = _convex_hit(core, radius, rel, surface, td, mf, cand)
    return None if answer is None else answer[:4]


def _swept_candidates(core: np.ndarray, reach: float, motion: Vec3, surface: Surface
                      ) -> np.ndarray:
    """The triangles near the box swept by a core grown by ``reach`` over ``motion``."""
    lo = core.min(axis=0) - reach
    hi = core.max(axis=0) + reach
    d = np.array(motion)
    return surface._candidates(np.minimum(lo, lo + d), np.maximum(hi, hi + d))


def _convex_hit(core: np.ndarray, radius: float, rel: Vec3, surface: Surface, td: float,
                mf: float, cand: np.ndarray) -> tuple[float, Vec3, Vec3, bool, int] | None:
    """:func:`_sweep_convex_surface`'s answer over the candidate triangles ``cand``, and the
    triangle met."""
    status, fraction, k, nx, ny, nz, px, py, pz = _k.core_cast(
        core, radius, surface.vertices, surface.triangles, cand, cand.shape[0], rel[0], rel[1],
        rel[2], td, mf)
    if k < 0:
        return None
    d = np.array(rel) * mf
    point = Vec3(px, py, pz)
    if nx == 0.0 and ny == 0.0 and nz == 0.0:
        # the cores overlap: out along the face normal, toward the shape's centre
        n = surface.normals[k]
        toward = core.mean(axis=0) + d * fraction - point
        s = -1.0 if float(n @ toward) < 0.0 else 1.0
        normal = Vec3(s * n[0] + 0.0, s * n[1] + 0.0, s * n[2] + 0.0)
    else:
        # a point off the surface along the normal: its feature decides (flat edges: the face)
        _d, _q, normal = surface._normal_at(k, point + Vec3(nx, ny, nz) * surface._size)
    return fraction, normal, point, status == _k.CAST_OVERLAPPED or fraction == 0.0, k


def sweep_ahead(shape: Any, rel: Vec3, surface: Surface) -> tuple[float, Vec3, Vec3, bool] | None:
    """The first touch of ``shape`` (a sphere, capsule or box) moved by ``rel`` with a face of
    ``surface`` it heads into, as the sweep family's answer (no target distance).

    A sweep answers the first touch, and a start in contact at 0 with the face touched that
    the motion heads into most: a character standing on a mesh's floor (touching it) and
    walking along it got the floor back, and one sliding along a face a rounding's hair away
    got that face a little way on, and neither saw the wall of the same mesh ahead: they
    walked through. Here a touch the motion does not head into (along the face or leaving it:
    the plane through the touching point square to the normal then separates the shape from
    that plane's triangles for the rest of the motion) is passed over with every candidate
    triangle of its plane, and the cast is run again over the rest, at most once a
    candidate."""
    core, radius = shape_core(shape)
    cand = _swept_candidates(core, radius, rel, surface)
    heading = -HEADING_TOLERANCE * rel.length()
    ball = isinstance(shape, Sphere)
    whole = True
    for _ in range(cand.shape[0]):
        if ball and whole:
            # first the sweep's own cast (a mesh walks its tree)
            fraction, k = surface._sphere_cast(shape.center, rel, radius, 1.0)
        elif ball:
            fraction, k = _k.sphere_cast(surface.vertices, surface.triangles, surface.normals,
                                         cand, cand.shape[0], core[0, 0], core[0, 1],
                                         core[0, 2], rel[0], rel[1], rel[2], radius, 1.0)
        if ball:
            answer = None if k < 0 else (*_sphere_hit(shape.center, radius, rel, surface,
                                                      fraction, k), k)
        else:
            answer = _convex_hit(core, radius, rel, surface, 0.0, 1.0, cand)
        if answer is None:
            return None
        fraction, n, q, started, k = answer
        if n.dot(rel) < heading:
            return fraction, n, q, started
        # touching that plane and running along it or leaving it: its triangles are passed
        u = np.array(n)
        normals = surface.normals[cand]
        first = surface.vertices[surface.triangles[cand, 0]]
        plane = ((np.abs(normals @ u) >= 1.0 - FLAT_EDGE_TOLERANCE)
                 & (np.abs((first - np.array(q)) @ u) <= surface._margin))
        cand = cand[~plane & (cand != k)]
        whole = False
    return None


def raycast_many(surface: Surface, origins: Any, directions: Any,
                 max_distance: Any = math.inf) -> RayBatch:
    """The nearest hit of each of n rays on a mesh or height field, on the project's threads.

    ``origins``, ``directions``: (n, 3) (directions normalised here; a zero one is a
    ``ValueError`` naming its row); ``max_distance``: a number or (n,), >= 0 (inf allowed).
    Returns a :class:`~swept.RayBatch`: ``hit`` (n,) bool, ``distance`` (n,) float64 (inf on a
    miss), ``point`` and ``normal`` (n, 3) float64 (zeros on a miss; the normal faces the
    ray), ``handle`` (n,) int64: the triangle hit (-1 on a miss). Equal, ray for ray, to
    :func:`swept.raycast` (which adds ``exit_distance`` and ``started_inside``)."""
    if not isinstance(surface, Surface):
        raise TypeError(f"raycast_many needs a TriangleMesh or HeightField, got "
                        f"{type(surface).__name__}")
    o = np.ascontiguousarray(origins, dtype=np.float64)
    d = np.ascontiguousarray(directions, dtype=np.float64)
    if o.ndim != 2 or o.shape[1] != 3:
        raise ValueError(f"origins must be (n, 3), got shape {o.shape}")
    if d.shape != o.shape:
        raise ValueError(f"directions must have the shape of origins {o.shape}, got {d.shape}")
    n = o.shape[0]
    tmax = np.full(n, np.asarray(max_distance, dtype=np.float64)) if np.ndim(max_distance) == 0 \
        else np.ascontiguousarray(max_distance, dtype=np.float64)
    if tmax.shape != (n,):
        raise ValueError(f"max_distance must be a number or ({n},), got shape {tmax.shape}")
    # the checks and the normalising of directions are compiled (numpy's passes over the
    # arrays cost a quarter of a ray's time)
    fault, row = _k.check_rays(o, d, tmax, MAX_COORDINATE)
    if fault == _k.RAYS_BAD_ORIGIN:
        raise ValueError("origins must be finite and within MAX_COORDINATE")
    if fault == _k.RAYS_BAD_DIRECTION:
        raise ValueError("directions must be finite and within MAX_COORDINATE")
    if fault == _k.RAYS_ZERO_DIRECTION:
        raise ValueError(f"directions[{row}] is zero")
    if fault == _k.RAYS_BAD_REACH:
        raise ValueError("max_distance must be >= 0 (inf allowed)")
    t = np.empty(n)
    k = np.empty(n, np.int64)
    point = np.empty((n, 3))
    normal = np.empty((n, 3))
    surface._batch(o, d, tmax, (t, k, point, normal))
    hit = k >= 0
    return RayBatch(hit=hit, distance=t, point=point, normal=normal, handle=k)


def register(cls: type) -> None:
    """Register a surface type in every query family it joins."""
    RAYCAST.register(cls, _raycast_surface)
    CLOSEST_POINT.register(cls, _closest_point_surface)
    CONTACT.register((Sphere, cls), _contact_surface, flip=True)
    SWEEP.register((Sphere, cls), _sweep_sphere_surface)
    for operand in (PointOperand, Sphere):
        CLOSEST_POINTS.register((operand, cls), _closest_points_surface, flip=True)
    for convex in (Capsule, AABB, OrientedBox, ConvexHull):
        SWEEP.register((convex, cls), _sweep_convex_surface)
        CONTACT.register((convex, cls), _contact_core_surface, flip=True)
        CLOSEST_POINTS.register((convex, cls), _closest_points_core_surface, flip=True)


def run_batch(kernel: Any, n: int, args: tuple[Any, ...]) -> None:
    """Run a ray range kernel over ``n`` rays on the project's threads."""
    parallel_for(kernel, n, args)
