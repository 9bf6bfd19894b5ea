"""The scene as the kernels take it: one collider table and one broadphase, packed in five arrays.

The World (:mod:`swept.world`) owns the scene; every kernel that reads colliders (the World's
scalar and batch queries, the Simulation's statics, the character controller's candidates)
takes it as one :class:`Scene` argument. Five arrays, because numba unboxes every array
argument on every call (about 30 ns each, measured): the scene used to be 30 loose arrays, half
of a one-ray World query.

The collider table, row ``h`` belonging to handle ``h`` (handles are never reused):

``rows`` (cap, :data:`ROW_WIDTH`) float64
    Columns ``0 .. PARAM_WIDTH-1``: the shape as plain floats, by kind (circle ``cx cy r``;
    segment ``ax ay bx by``; 2D box ``minx miny maxx maxy``; 2D capsule ``ax ay bx by r``; 2D
    plane ``nx ny offset``; sphere ``cx cy cz r``; 3D box ``minx miny minz maxx maxy maxz``;
    3D capsule ``ax ay az bx by bz r``; 3D plane ``nx ny nz offset``; a polygon and a chain use
    the pool; a chain's segment rows: :data:`KIND_CHAIN_SEGMENT`). Columns :data:`LO` and
    :data:`HI` (three each; z is 0 in 2D): the collider's box, grown by ``BOX_MARGIN`` of its
    scale (during a Simulation step, a moving collider's box also covers its start pose).
    Columns :data:`ONE_WAY`, :data:`MOTION`, :data:`VELOCITY`: a one-way collider's side, a
    moving collider's displacement over the step and its velocity. Rows past the handles'
    may hold chain segments (their owner in :data:`CHAIN_OWNER`).
``tags`` (cap, :data:`TAG_WIDTH`) int64
    :data:`KIND` (a ``KIND_*`` code, :data:`KIND_EMPTY` for a removed handle), :data:`LAYER`
    (32 layer bits), :data:`FIRST` and :data:`COUNT` (a polygon's or chain's rows in the pool)
    and :data:`FLAGS` (:data:`FLAG_SKIP`: hidden from the running query, its ``ignore`` set).
``pool`` (V, 2) float64
    A polygon's ``n`` corners (counter-clockwise) in rows ``FIRST .. FIRST+n-1`` then its ``n``
    outward edge normals (``COUNT`` is ``n``; each half a contiguous block, as the polygon
    kernels take them); a chain's points.

The broadphase, rebuilt by :func:`swept._kernels.world.pack` when the static colliders change:

``nodes`` (N, 6) float64
    BVH node boxes ``lox loy loz hix hiy hiz``: the static tree's nodes (root 0), then the
    moving tree's (root ``links[H_MOVING_ROOT]``); then the grid's collider rows (row
    ``links[H_GRID_BOXES] + i`` for gridded collider i, :func:`swept._kernels.grid.collider_rows`),
    then, on a grid of few colliders (:func:`swept._kernels.grid.has_units`), the gridded
    segments' unit directions, three a row (from ``links[H_GRID_UNITS]``,
    :func:`swept._kernels.grid.unit_at`); the last row is the grid's frame ``x0 y0 cell``.
``links`` (L,) int64
    A header of :data:`HEADER` slots (``H_*``: counts and where each section starts), then the
    sections: per node ``child start count`` (child -1 for a leaf; the right child is
    ``child + 1``; a node's colliders are ``items[start : start + count]``), the trees' items
    (handles, leaf by leaf), the unbounded colliders (planes, tested by every query), the
    grid's cell starts (``nx * ny + 1``) and its entries (gridded collider indices, each
    naming its row, which holds the collider's handle, and carrying the row's code:
    :func:`swept._kernels.grid.coded_entries`) as int32 values, two a slot
    (:func:`swept._kernels.grid.grid_block`), and the moving colliders' coarse grid
    (:func:`swept._kernels.grid.bin_moving`), rewritten in place at each sync.

The narrowphase on a row (:func:`cast_row`, :func:`exit_row`, :func:`closest_row`,
:func:`contact_row`) calls the very kernels the scalar API calls, so every World answer is
the scalar one for that collider.
"""

from __future__ import annotations

from typing import NamedTuple

import numpy as np

from ..constants import BOX_MARGIN as BOX_MARGIN  # re-exported for the table's writers
from . import inline_kernel
from .chain import cast_chain, cast_segment, closest_chain, contact_chain, contact_segment
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
    _capsule2,
    _capsule3,
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

# ---------------------------------------------------------------------------------------------
# layout

#: A removed collider: no query sees it.
KIND_EMPTY = -1
#: 2D kinds.
KIND_CIRCLE, KIND_SEGMENT, KIND_AABB2, KIND_POLYGON, KIND_CAPSULE2, KIND_PLANE2 = 0, 1, 2, 3, 4, 5
#: 3D kinds.
KIND_SPHERE, KIND_AABB3, KIND_CAPSULE3, KIND_PLANE3 = 6, 7, 8, 9
#: A 2D chain (:class:`swept.Chain`), as one row: ``loop`` (1.0 or 0.0) in column 0, its
#: points in the pool (``FIRST``, ``COUNT``). A chain the broadphase holds as one primitive
#: (a moving chain) is answered by testing every segment.
KIND_CHAIN = 10
#: One segment of a chain, a row of its own beyond the handles' rows (the World gives each
#: segment of a static chain its own broadphase primitive): ``ax ay bx by i loop owner`` (the
#: segment's ends, its index, the chain's loop flag and handle), ``FIRST``/``COUNT`` and
#: ``LAYER`` the owning chain's. A ray tests it as a segment; a ball's cast and contact apply
#: the chain's Voronoi-region rule (:mod:`swept._kernels.chain`).
KIND_CHAIN_SEGMENT = 11
#: Column of a chain segment row holding its owning chain's handle.
CHAIN_OWNER = 6
#: Columns of the shape parameters in ``rows`` (the widest kind, a 3D capsule, needs 7).
PARAM_WIDTH = 8
#: First column of the collider's box minimum in ``rows`` (x, y, z).
LO = PARAM_WIDTH
#: First column of the collider's box maximum in ``rows`` (x, y, z).
HI = PARAM_WIDTH + 3
#: First column of a one-way collider's solid-side direction in ``rows`` (x, y, z; zero
#: for an ordinary collider): see :data:`FLAG_ONE_WAY`.
ONE_WAY = PARAM_WIDTH + 6
#: First column of the collider's displacement over the Simulation's current step (x, y, z;
#: zero outside a step and for a still collider): during a step the row holds the collider's
#: pose at the step's end, and it started the step at that pose moved back by this (a
#: translation). See :data:`FLAG_KINEMATIC`.
MOTION = PARAM_WIDTH + 9
#: First column of the collider's velocity (x, y, z): the surface velocity the Simulation's
#: contacts answer against (zero for a still collider). See :data:`FLAG_KINEMATIC`.
VELOCITY = PARAM_WIDTH + 12
#: Columns of ``rows``.
ROW_WIDTH = PARAM_WIDTH + 15
#: Columns of ``tags``.
KIND, LAYER, FIRST, COUNT, FLAGS = 0, 1, 2, 3, 4
TAG_WIDTH = 5
#: ``tags[h, FLAGS]`` bit: collider h is in the running query's ``ignore`` set.
FLAG_SKIP = 1
#: ``tags[h, FLAGS]`` bit: collider h is one-way, solid only from the side its unit
#: direction ``w`` (columns :data:`ONE_WAY`) faces: a cast stands only when it moves against
#: ``w`` onto a surface facing ``w`` (:func:`one_way_stands`), a contact only when its normal
#: faces ``w`` (:func:`one_way_faces`). One-way colliders sit in the unbounded list (every
#: query tests them), so that the grid's fast paths never meet one.
FLAG_ONE_WAY = 2
#: ``tags[h, FLAGS]`` bit: collider h moves (columns :data:`MOTION`, during a Simulation
#: step) or carries a velocity (columns :data:`VELOCITY`): the Simulation's bodies meet it in
#: relative motion (:mod:`swept._kernels.sim`). The World's own queries ignore both.
FLAG_KINEMATIC = 4

#: Header slots of ``links``.
H_DIM = 0            # the scene's dimension (2 or 3)
H_STATIC_NODES = 1   # nodes of the static tree (0: empty), from node 0
H_MOVING_ROOT = 2    # the moving tree's root node
H_MOVING_NODES = 3   # nodes of the moving tree (0: empty)
H_NODE_LINKS = 4     # where the per-node ``child start count`` triples start
H_ITEMS = 5          # where the trees' items start
H_PLANES = 6         # where the unbounded colliders' handles start
H_PLANE_COUNT = 7    # how many
H_GRID_NX = 8        # grid cells along x (0: no grid)
H_GRID_NY = 9        # grid cells along y
H_GRID_CELLS = 10    # where the grid's cell starts begin (nx * ny + 1), in grid.grid_of's view
H_GRID_ITEMS = 11    # where the grid's entries begin, in grid.grid_of's view
H_GRID_BOXES = 12    # the first ``nodes`` row of the grid's entry boxes
H_FRAME = 13         # the ``nodes`` row of the grid's frame (x0, y0, cell)
H_MOVING_GRID = 14   # where the moving colliders' coarse grid block starts (0: none)
H_GRID_UNITS = 15    # the ``nodes`` row after the grid's collider rows (its unit directions)
HEADER = 16


class Scene(NamedTuple):
    """The collider table and the broadphase, as the kernels take them (module docstring)."""

    rows: np.ndarray
    tags: np.ndarray
    pool: np.ndarray
    nodes: np.ndarray
    links: np.ndarray


# ---------------------------------------------------------------------------------------------
# visibility


@inline_kernel
def segment_kind(k: int) -> bool:
    """Whether kind ``k`` is a 2D segment: its own row, or one segment of a chain (which the
    queries meet as a segment: no inside, so a ray leaves it where it enters)."""
    return k in (KIND_SEGMENT, KIND_CHAIN_SEGMENT)


@inline_kernel
def visible(tags: np.ndarray, h: int, mask: int) -> bool:
    """Whether collider ``h`` takes part in a query with this mask (a removed row has layer 0)."""
    return (tags[h, LAYER] & mask) != 0 and (tags[h, FLAGS] & FLAG_SKIP) == 0


# ---------------------------------------------------------------------------------------------
# one-way colliders


@inline_kernel
def one_way_faces(scene: Scene, h: int, nx: float, ny: float, nz: float) -> bool:
    """Whether a touch of collider ``h`` with normal ``n`` (out of it) counts: always, unless
    ``h`` is one-way and ``n`` does not face its solid side (a body below a platform)."""
    if (scene.tags[h, FLAGS] & FLAG_ONE_WAY) == 0:
        return True
    rows = scene.rows
    return nx * rows[h, ONE_WAY] + ny * rows[h, ONE_WAY + 1] + nz * rows[h, ONE_WAY + 2] > 0.0


@inline_kernel
def one_way_stands(scene: Scene, h: int, dx: float, dy: float, dz: float, nx: float,
                   ny: float, nz: float) -> bool:
    """Whether a cast along ``d`` that meets collider ``h`` with normal ``n`` counts: always,
    unless ``h`` is one-way and the cast does not move against its side ``w`` onto a surface
    facing ``w`` (from below, or sideways, a one-way collider is passed through)."""
    if (scene.tags[h, FLAGS] & FLAG_ONE_WAY) == 0:
        return True
    rows = scene.rows
    wx, wy, wz = rows[h, ONE_WAY], rows[h, ONE_WAY + 1], rows[h, ONE_WAY + 2]
    return dx * wx + dy * wy + dz * wz < 0.0 and nx * wx + ny * wy + nz * wz > 0.0


# ---------------------------------------------------------------------------------------------
# the narrowphase on a row


@inline_kernel
def cast_row(scene: Scene, h: int, ox: float, oy: float, oz: float, dx: float, dy: float,
             dz: float, r: float, tmax: float, grown: bool
             ) -> tuple[float, float, float, float, float, float, float, bool]:
    """:func:`cast_shape_row`, a miss where a one-way collider lets the cast pass
    (:func:`one_way_stands`)."""
    t, px, py, pz, nx, ny, nz, ins = cast_shape_row(scene, h, ox, oy, oz, dx, dy, dz, r, tmax,
                                                    grown)
    if t >= 0.0 and not one_way_stands(scene, h, dx, dy, dz, nx, ny, nz):
        return MISS, 0.0, 0.0, 0.0, 0.0, 0.0, 0.0, False
    return t, px, py, pz, nx, ny, nz, ins


@inline_kernel
def cast_shape_row(scene: Scene, h: int, ox: float, oy: float, oz: float, dx: float,
                   dy: float, dz: float, r: float, tmax: float, grown: bool
                   ) -> tuple[float, float, float, float, float, float, float, bool]:
    """Cast a ray (``grown`` False) or a ball of radius ``r`` (``grown`` True: a ray against
    the collider grown by ``r``) at collider ``h``: ``(t, px, py, pz, nx, ny, nz, inside)``
    with ``t == MISS`` on a miss, by the very kernels :func:`swept.raycast` and
    :func:`swept.sweep` use. ``(dx, dy, dz)`` is a unit direction."""
    rows = scene.rows
    k = scene.tags[h, KIND]
    # the row as scalars (a row view would be reference-counted on every call)
    p0, p1, p2, p3 = rows[h, 0], rows[h, 1], rows[h, 2], rows[h, 3]
    p4, p5, p6 = rows[h, 4], rows[h, 5], rows[h, 6]
    if k == KIND_SEGMENT:
        # a segment; grown: a capsule
        if grown:
            t, px, py, nx, ny, ins = ray_capsule2(ox, oy, dx, dy, p0, p1, p2, p3, r, tmax)
        else:
            t, px, py, nx, ny, ins = ray_segment(ox, oy, dx, dy, p0, p1, p2, p3, tmax)
        return t, px, py, 0.0, nx, ny, 0.0, ins
    if k == KIND_CIRCLE:
        # a circle; grown: a bigger circle
        rr = p2 + r if grown else p2
        t, px, py, nx, ny, ins = ray_circle(ox, oy, dx, dy, p0, p1, rr, tmax)
        return t, px, py, 0.0, nx, ny, 0.0, ins
    if k == KIND_AABB2:
        # a box; grown: a rounded box
        if grown:
            t, px, py, nx, ny, ins = ray_rounded_aabb2(ox, oy, dx, dy, p0, p1, p2, p3, r, tmax,
                                                       False)
        else:
            t, px, py, nx, ny, ins = ray_aabb2(ox, oy, dx, dy, p0, p1, p2, p3, tmax)
        return t, px, py, 0.0, nx, ny, 0.0, ins
    if k == KIND_POLYGON:
        # a convex polygon; grown: a rounded polygon
        pool = scene.pool
        s = scene.tags[h, FIRST]
        n = scene.tags[h, COUNT]
        if grown:
            t, px, py, nx, ny, ins = ray_rounded_polygon(ox, oy, dx, dy, pool[s:s + n],
                                                         pool[s + n:s + 2 * n], r, tmax, False)
        else:
            t, px, py, nx, ny, ins = ray_polygon(ox, oy, dx, dy, pool[s:s + n],
                                                 pool[s + n:s + 2 * n], tmax)
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
            return ray_rounded_aabb3(ox, oy, oz, dx, dy, dz, p0, p1, p2, p3, p4, p5, r, tmax)
        return ray_aabb3(ox, oy, oz, dx, dy, dz, p0, p1, p2, p3, p4, p5, tmax)
    if k == KIND_CAPSULE3:
        rr = p6 + r if grown else p6
        return ray_capsule3(ox, oy, oz, dx, dy, dz, p0, p1, p2, p3, p4, p5, rr, tmax)
    if k == KIND_PLANE3:
        off = p3 + r if grown else p3
        return ray_plane3(ox, oy, oz, dx, dy, dz, p0, p1, p2, off, tmax)
    if k == KIND_CHAIN_SEGMENT:
        # one segment of a chain: a ray meets it as a segment; a ball, its region's normal
        if grown:
            t, px, py, nx, ny, ins = cast_segment(scene.pool, scene.tags[h, FIRST],
                                                  scene.tags[h, COUNT], p5 != 0.0, int(p4),
                                                  ox, oy, dx, dy, r, tmax, True)
        else:
            t, px, py, nx, ny, ins = ray_segment(ox, oy, dx, dy, p0, p1, p2, p3, tmax)
        return t, px, py, 0.0, nx, ny, 0.0, ins
    if k == KIND_CHAIN:
        # a whole chain: every segment
        t, px, py, nx, ny, ins = cast_chain(scene.pool, scene.tags[h, FIRST],
                                            scene.tags[h, COUNT], p0 != 0.0, ox, oy, dx, dy, r,
                                            tmax, grown)
        return t, px, py, 0.0, nx, ny, 0.0, ins
    # a removed collider
    return MISS, 0.0, 0.0, 0.0, 0.0, 0.0, 0.0, False


@inline_kernel
def exit_row(scene: Scene, h: int, ox: float, oy: float, oz: float, dx: float, dy: float,
             dz: float, t: float) -> float:
    """Where a ray that hits collider ``h`` at ``t`` leaves it (``RayHit.exit_distance``), by
    the same ``*_x`` kernels :func:`swept.raycast` uses: ``t`` for a segment, ``inf`` for a
    half-plane never left."""
    rows = scene.rows
    k = scene.tags[h, KIND]
    p0, p1, p2, p3 = rows[h, 0], rows[h, 1], rows[h, 2], rows[h, 3]
    p4, p5, p6 = rows[h, 4], rows[h, 5], rows[h, 6]
    te = t
    if k == KIND_CIRCLE:
        te = ray_circle_x(ox, oy, dx, dy, p0, p1, p2, np.inf)[6]
    elif k == KIND_AABB2:
        te = ray_aabb2_face_x(ox, oy, dx, dy, p0, p1, p2, p3, np.inf)[3]
    elif k == KIND_POLYGON:
        pool = scene.pool
        s = scene.tags[h, FIRST]
        n = scene.tags[h, COUNT]
        te = ray_polygon_edge_x(ox, oy, dx, dy, pool[s:s + n], pool[s + n:s + 2 * n], np.inf)[3]
    elif k == KIND_CAPSULE2:
        te = _capsule2(ox, oy, dx, dy, p0, p1, p2, p3, p4, np.inf, False, True)[6]
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
def closest_row(scene: Scene, h: int, qx: float, qy: float, qz: float
                ) -> tuple[float, float, float]:
    """The point of collider ``h`` nearest ``q`` (from inside, of its boundary), as
    :func:`swept.distance.closest_point` computes it."""
    rows = scene.rows
    k = scene.tags[h, KIND]
    p0, p1, p2, p3 = rows[h, 0], rows[h, 1], rows[h, 2], rows[h, 3]
    p4, p5, p6 = rows[h, 4], rows[h, 5], rows[h, 6]
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
        pool = scene.pool
        s = scene.tags[h, FIRST]
        n = scene.tags[h, COUNT]
        x, y, _nx, _ny, _i = closest_on_polygon(pool[s:s + n], pool[s + n:s + 2 * n], qx, qy)
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
        x, y, z, _nx, _ny, _nz, _i = closest_on_aabb3(qx, qy, qz, p0, p1, p2, p3, p4, p5)
        return x, y, z
    if k == KIND_CAPSULE3:
        x, y, z, _i = closest_on_capsule3(qx, qy, qz, p0, p1, p2, p3, p4, p5, p6)
        return x, y, z
    if k == KIND_PLANE3:
        return closest_on_plane(qx, qy, qz, p0, p1, p2, p3)[:3]
    if k == KIND_CHAIN_SEGMENT:
        x, y, _t = closest_on_segment2(qx, qy, p0, p1, p2, p3)
        return x, y, 0.0
    if k == KIND_CHAIN:
        x, y = closest_chain(scene.pool, scene.tags[h, FIRST], scene.tags[h, COUNT], p0 != 0.0,
                             qx, qy)
        return x, y, 0.0
    return qx, qy, qz


@inline_kernel
def contact_row(scene: Scene, h: int, cx: float, cy: float, cz: float, r: float
                ) -> tuple[bool, float, float, float, float, float, float, float]:
    """:func:`contact_shape_row`, apart where a one-way collider's solid side does not face
    the ball (:func:`one_way_faces`)."""
    hit, nx, ny, nz, depth, px, py, pz = contact_shape_row(scene, h, cx, cy, cz, r)
    if hit and not one_way_faces(scene, h, nx, ny, nz):
        return False, 0.0, 0.0, 0.0, 0.0, 0.0, 0.0, 0.0
    return hit, nx, ny, nz, depth, px, py, pz


@inline_kernel
def contact_shape_row(scene: Scene, h: int, cx: float, cy: float, cz: float, r: float
                      ) -> tuple[bool, float, float, float, float, float, float, float]:
    """How to move a ball (centre ``c``, radius ``r``) out of collider ``h``: ``(hit, nx, ny,
    nz, depth, px, py, pz)`` as :func:`swept.contact` answers for ``contact(ball, collider)``
    (``hit`` False when apart). A polygon is solid: a ball inside it is pushed out through
    its nearest edge."""
    rows = scene.rows
    k = scene.tags[h, KIND]
    p0, p1, p2, p3 = rows[h, 0], rows[h, 1], rows[h, 2], rows[h, 3]
    p4, p5, p6 = rows[h, 4], rows[h, 5], rows[h, 6]
    if k == KIND_CIRCLE:
        hit, nx, ny, depth, px, py = contact_circle_circle(cx, cy, r, p0, p1, p2)
    elif k == KIND_SEGMENT:
        hit, nx, ny, depth, px, py = contact_circle_capsule(cx, cy, r, p0, p1, p2, p3, 0.0)
    elif k == KIND_AABB2:
        hit, nx, ny, depth, px, py = contact_circle_aabb(cx, cy, r, p0, p1, p2, p3)
    elif k == KIND_POLYGON:
        pool = scene.pool
        s = scene.tags[h, FIRST]
        n = scene.tags[h, COUNT]
        hit, nx, ny, depth, px, py = contact_circle_polygon(cx, cy, r, pool[s:s + n],
                                                            pool[s + n:s + 2 * n])
    elif k == KIND_CAPSULE2:
        hit, nx, ny, depth, px, py = contact_circle_capsule(cx, cy, r, p0, p1, p2, p3, p4)
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
    elif k == KIND_CHAIN_SEGMENT:
        # one segment of a chain: the region's normal, the depth against its face line
        hit, nx, ny, depth, px, py = contact_segment(scene.pool, scene.tags[h, FIRST],
                                                     scene.tags[h, COUNT], p5 != 0.0, int(p4),
                                                     cx, cy, r)
    elif k == KIND_CHAIN:
        hit, nx, ny, depth, px, py = contact_chain(scene.pool, scene.tags[h, FIRST],
                                                   scene.tags[h, COUNT], p0 != 0.0, cx, cy, r)
    else:
        return False, 0.0, 0.0, 0.0, 0.0, 0.0, 0.0, 0.0
    return hit, nx, ny, 0.0, depth, px, py, 0.0
