"""World sweeps of any convex mover: a segment, capsule, box or polygon moved through a scene.

A mover is its kernel view (:func:`swept.views.view`): core points grown by a radius, plus its
kind and parameter row (for the closed forms that need its own shape, and a polygon's edge
normals). The batch is a table of movers (:class:`Movers`) and a table of sweeps
(:class:`Sweeps`: which mover, its displacement and that displacement's length), so one kernel
serves :meth:`swept.world.World.sweep` (one row) and :meth:`swept.world.World.sweep_many`
(many shapes, or one shape with many displacements).

The walk: the mover's swept box is a fat ray (:func:`~swept._kernels.bvh.make_probe`) from the
centre of the mover's box along the displacement, every collider box grown by the mover's
largest half extent plus the target distance and :data:`~swept.constants.CANDIDATE_MARGIN` of
the scene's scale; the one front-to-back traversal of :mod:`swept._kernels.bvh` hands out the
static tree's leaves, then the moving tree's, dropping nodes entered beyond the best hit; the
candidates must also touch the swept box itself (a thin mover's fat ray is a loose cube); then
every plane. A collider touched at fraction f is entered by the fat ray at ``f * length`` or
before, so the pruning is exact.

The narrowphase on a row (:func:`sweep_row`) is the very computation :func:`swept.sweep` runs
for that pair (:mod:`swept.sweep`):

- a plane: the closed form of the mover's deepest core point (``_plane_cast``);
- a circle or sphere: the ball cast by the reversed displacement against the mover grown by the
  ball's radius (``_sweep_at_ball``), the ray kernels of the mover's own kind;
- a segment, capsule, box or polygon: conservative advancement on GJK (:func:`cast_cores`),
  the collider's core built from its row in the order its view lists it.

Two start-inside cases take their normal from :func:`swept.contact` in the scalar API (a ball
inside the grown mover; two overlapping cores): the kernel finds the fraction (0) and the
handle, and flags the row (``fix`` :data:`FIX_NORMAL`) for the caller to ask
:func:`swept.sweep` for that one collider's normal and point. A candidate of a kind this
module does not sweep (a kind added to the table later) flags the row
:data:`FIX_UNSUPPORTED`: the caller answers that row in Python.
"""

from __future__ import annotations

import math
from typing import NamedTuple

import numpy as np

from ..constants import CANDIDATE_MARGIN
from . import callee, kernel
from .bvh import (
    STACK_SIZE,
    box_entry_at,
    box_touches_at,
    leaf_items,
    make_probe,
    ray_first_leaf,
    ray_next_leaf,
)
from .ray import MISS, ray_capsule2, ray_capsule3
from .scene import (
    COUNT,
    FIRST,
    H_DIM,
    H_PLANE_COUNT,
    H_PLANES,
    KIND,
    KIND_AABB2,
    KIND_AABB3,
    KIND_CAPSULE2,
    KIND_CAPSULE3,
    KIND_CIRCLE,
    KIND_EMPTY,
    KIND_PLANE2,
    KIND_PLANE3,
    KIND_POLYGON,
    KIND_SEGMENT,
    KIND_SPHERE,
    LO,
    Scene,
    one_way_stands,
    visible,
)
from .sweep import (
    CAST_HIT,
    CAST_OUT_OF_ITERATIONS,
    CAST_OVERLAPPED,
    cast_cores,
    ray_rounded_aabb2,
    ray_rounded_aabb3,
    ray_rounded_polygon,
)
from .world import moving_tree, static_tree

__all__ = ["Movers", "Sweeps", "SweepHits", "sweep_row", "sweep_range", "FIX_NONE",
           "FIX_NORMAL", "FIX_UNSUPPORTED"]

#: ``SweepHits.fix``: the row's answer is complete.
FIX_NONE = 0
#: ``SweepHits.fix``: a start inside whose normal and point :func:`swept.sweep` must give.
FIX_NORMAL = 1
#: ``SweepHits.fix``: a candidate of a collider kind the kernel cannot sweep: answer the row
#: in Python.
FIX_UNSUPPORTED = 2


class Movers(NamedTuple):
    """The moving shapes: ``kinds`` (m,) int64 (``KIND_*``), ``params`` (m, PARAM_WIDTH)
    float64 (the collider-table row of each), ``spans`` (m, 2) int64 (first row and count of
    each core in ``cores``), ``cores`` (V, d) float64, ``normals`` (V, 2) float64 (a
    polygon's edge normals, beside its corners; zero for other kinds), ``radii`` (m,)
    float64, ``boxes`` (m, 6) float64 (each mover's box ``lo xyz hi xyz``, z 0 in 2D)."""

    kinds: np.ndarray
    params: np.ndarray
    spans: np.ndarray
    cores: np.ndarray
    normals: np.ndarray
    radii: np.ndarray
    boxes: np.ndarray


class Sweeps(NamedTuple):
    """The sweeps: ``mover`` (n,) int64 (a row of :class:`Movers`), ``displacements`` (n, d)
    float64 and ``lengths`` (n,) float64 (each displacement's length, as the scalar API's
    ``Vec2.length`` / ``Vec3.length`` computes it)."""

    mover: np.ndarray
    displacements: np.ndarray
    lengths: np.ndarray


class SweepHits(NamedTuple):
    """Each sweep's first contact: ``handle`` (n,) int64 (-1 on a miss), ``fraction`` (n,)
    float64 (inf on a miss), ``point, normal`` (n, d) float64, ``inside`` (n,) bool, ``fix``
    (n,) int64 (a ``FIX_*`` code)."""

    handle: np.ndarray
    fraction: np.ndarray
    point: np.ndarray
    normal: np.ndarray
    inside: np.ndarray
    fix: np.ndarray


#: ``sweep_row``'s answer: ``(fraction, px, py, pz, nx, ny, nz, inside, fix)``, fraction
#: ``MISS`` on a miss, ``fix`` a ``FIX_*`` code.
RowHit = tuple[float, float, float, float, float, float, float, bool, int]


@callee
def _collider_core(scene: Scene, h: int, scratch: tuple[np.ndarray, np.ndarray, np.ndarray,
                                                        np.ndarray]
                   ) -> tuple[np.ndarray, float]:
    """Collider ``h``'s core and radius, its points in the order of its view
    (:func:`swept.views.view`): a segment's or capsule's ends, a box's corners, a polygon's
    pool corners. ``scratch``: (2, 2), (4, 2), (8, 3), (2, 3) arrays to fill."""
    rows = scene.rows
    k = scene.tags[h, KIND]
    if k == KIND_POLYGON:
        s = scene.tags[h, FIRST]
        return scene.pool[s:s + scene.tags[h, COUNT]], 0.0
    if k in (KIND_SEGMENT, KIND_CAPSULE2):
        c = scratch[0]
        c[0, 0], c[0, 1], c[1, 0], c[1, 1] = rows[h, 0], rows[h, 1], rows[h, 2], rows[h, 3]
        return c, (rows[h, 4] if k == KIND_CAPSULE2 else 0.0)
    if k == KIND_AABB2:
        c = scratch[1]
        lx, ly, hx, hy = rows[h, 0], rows[h, 1], rows[h, 2], rows[h, 3]
        c[0, 0], c[0, 1], c[1, 0], c[1, 1] = lx, ly, hx, ly
        c[2, 0], c[2, 1], c[3, 0], c[3, 1] = hx, hy, lx, hy
        return c, 0.0
    if k == KIND_AABB3:
        c = scratch[2]
        # x outermost, then y, then z, each low then high
        for i in range(8):
            c[i, 0] = rows[h, 3] if (i & 4) else rows[h, 0]
            c[i, 1] = rows[h, 4] if (i & 2) else rows[h, 1]
            c[i, 2] = rows[h, 5] if (i & 1) else rows[h, 2]
        return c, 0.0
    # a 3D capsule
    c = scratch[3]
    for a in range(3):
        c[0, a] = rows[h, a]
        c[1, a] = rows[h, 3 + a]
    return c, rows[h, 6]


@callee
def _at_plane(core: np.ndarray, radius: float, pn: tuple[float, float, float], offset: float,
              rel: tuple[float, float, float], td: float) -> RowHit:
    """A mover against a half-plane (half-space) of unit normal ``pn``: the closed form of its
    deepest core point (``swept.sweep._plane_cast``)."""
    d = core.shape[1]
    nx, ny, nz = pn
    rx, ry, rz = rel
    # the deepest core point (ties: the first)
    best = 0
    low = math.inf
    for i in range(core.shape[0]):
        hgt = core[i, 0] * nx + core[i, 1] * ny
        if d == 3:
            hgt = hgt + core[i, 2] * nz
        if hgt < low:
            low = hgt
            best = i
    qx = core[best, 0]
    qy = core[best, 1]
    qz = core[best, 2] if d == 3 else 0.0
    gap = low - offset - radius
    if gap <= td:
        # starts within the target distance of the plane (or inside it)
        g = gap + radius
        return 0.0, qx - nx * g, qy - ny * g, qz - nz * g, nx, ny, nz, True, FIX_NONE
    closing = -(rx * nx + ry * ny + rz * nz) if d == 3 else -(rx * nx + ry * ny)
    if closing <= 0.0:
        # parallel to the plane, or leaving it
        return MISS, 0.0, 0.0, 0.0, 0.0, 0.0, 0.0, False, FIX_NONE
    f = (gap - td) / closing
    if f > 1.0:
        return MISS, 0.0, 0.0, 0.0, 0.0, 0.0, 0.0, False, FIX_NONE
    g = radius + td
    return (f, (qx + rx * f) - nx * g, (qy + ry * f) - ny * g, (qz + rz * f) - nz * g, nx, ny,
            nz, False, FIX_NONE)


@callee
def _at_ball(movers: Movers, k: int, core: np.ndarray, ball: tuple[float, float, float, float],
             rel: tuple[float, float, float], length: float, td: float) -> RowHit:
    """A mover against a circle or sphere (``ball``: centre and radius): the ball cast by
    ``-rel`` against the mover grown by the ball's radius plus ``td``, by the ray kernels of
    the mover's own kind (``swept.sweep._sweep_at_ball``)."""
    d = core.shape[1]
    cx, cy, cz, rb = ball
    rx, ry, rz = rel
    if length == 0.0:
        # no relative motion: only a start in contact can hit
        ux, uy, uz = 1.0, 0.0, 0.0
    else:
        ux, uy, uz = -rx / length, -ry / length, (-rz / length if d == 3 else 0.0)
    rr = rb + td
    mk = movers.kinds[k]
    p = movers.params[k]
    if d == 2:
        if mk == KIND_SEGMENT:
            t, _px, _py, nx, ny, inside = ray_capsule2(cx, cy, ux, uy, p[0], p[1], p[2], p[3], rr,
                                                       length)
        elif mk == KIND_CAPSULE2:
            t, _px, _py, nx, ny, inside = ray_capsule2(cx, cy, ux, uy, p[0], p[1], p[2], p[3],
                                                       p[4] + rr, length)
        elif mk == KIND_AABB2:
            t, _px, _py, nx, ny, inside = ray_rounded_aabb2(cx, cy, ux, uy, p[0], p[1], p[2],
                                                            p[3], rr, length, False)
        else:
            s = movers.spans[k, 0]
            n = movers.spans[k, 1]
            t, _px, _py, nx, ny, inside = ray_rounded_polygon(cx, cy, ux, uy, core,
                                                              movers.normals[s:s + n], rr,
                                                              length, False)
        nz = 0.0
    elif mk == KIND_CAPSULE3:
        t, _px, _py, _pz, nx, ny, nz, inside = ray_capsule3(cx, cy, cz, ux, uy, uz, p[0], p[1],
                                                            p[2], p[3], p[4], p[5], p[6] + rr,
                                                            length)
    else:
        t, _px, _py, _pz, nx, ny, nz, inside = ray_rounded_aabb3(
            cx, cy, cz, ux, uy, uz, p[0], p[1], p[2], p[3], p[4], p[5], rr, length)
    if t < 0.0:
        return MISS, 0.0, 0.0, 0.0, 0.0, 0.0, 0.0, False, FIX_NONE
    if inside:
        # the ball starts inside the grown mover: the normal is contact()'s (the caller's)
        return 0.0, cx, cy, cz, -nx, -ny, -nz, True, FIX_NORMAL
    f = min(t / length, 1.0) if length > 0.0 else 0.0
    # the ball's centre at contact, back to the mover's surface, then onto the ball's
    bx = (cx + (-rx) * f) - nx * rr
    by = (cy + (-ry) * f) - ny * rr
    bz = (cz + (-rz) * f) - nz * rr
    nx, ny, nz = -nx, -ny, -nz
    return (f, (bx - nx * td) + rx * f, (by - ny * td) + ry * f,
            ((bz - nz * td) + rz * f) if d == 3 else 0.0, nx, ny, nz, False, FIX_NONE)


@callee
def sweep_row(scene: Scene, h: int, movers: Movers, k: int, rel: tuple[float, float, float],
              length: float, td: float,
              scratch: tuple[np.ndarray, np.ndarray, np.ndarray, np.ndarray]) -> RowHit:
    """Mover ``k`` moved by ``rel`` (of length ``length``) against collider ``h``, as
    :func:`swept.sweep` answers with ``target_distance=td``: ``(fraction, px, py, pz, nx, ny,
    nz, inside, fix)`` (fraction ``MISS`` on a miss; ``fix``: the caller must take the normal
    and point from :func:`swept.sweep`)."""
    rows = scene.rows
    kind = scene.tags[h, KIND]
    s = movers.spans[k, 0]
    core = movers.cores[s:s + movers.spans[k, 1]]
    ra = movers.radii[k]
    if kind == KIND_PLANE2:
        return _at_plane(core, ra, (rows[h, 0], rows[h, 1], 0.0), rows[h, 2], rel, td)
    if kind == KIND_PLANE3:
        return _at_plane(core, ra, (rows[h, 0], rows[h, 1], rows[h, 2]), rows[h, 3], rel, td)
    if kind == KIND_CIRCLE:
        return _at_ball(movers, k, core, (rows[h, 0], rows[h, 1], 0.0, rows[h, 2]), rel, length,
                        td)
    if kind == KIND_SPHERE:
        return _at_ball(movers, k, core, (rows[h, 0], rows[h, 1], rows[h, 2], rows[h, 3]), rel,
                        length, td)
    if kind not in (KIND_SEGMENT, KIND_CAPSULE2, KIND_AABB2, KIND_POLYGON, KIND_AABB3,
                    KIND_CAPSULE3):
        # a removed collider, or a kind this kernel cannot sweep (the caller's, in Python)
        return (MISS, 0.0, 0.0, 0.0, 0.0, 0.0, 0.0, False,
                FIX_NONE if kind == KIND_EMPTY else FIX_UNSUPPORTED)
    core_b, rb = _collider_core(scene, h, scratch)
    status, t, nx, ny, nz, px, py, pz, _it = cast_cores(core, ra, core_b, rb, rel[0], rel[1],
                                                        rel[2], td, 1.0)
    if core.shape[1] == 2:
        nz = 0.0
        pz = 0.0
    if status == CAST_OVERLAPPED:
        # the cores overlap (no separating normal): contact()'s normal, from the caller
        fix = FIX_NORMAL if nx == 0.0 and ny == 0.0 and nz == 0.0 else FIX_NONE
        return 0.0, px, py, pz, nx, ny, nz, True, fix
    if status in (CAST_HIT, CAST_OUT_OF_ITERATIONS):
        return t, px, py, pz, nx, ny, nz, t == 0.0, FIX_NONE
    return MISS, 0.0, 0.0, 0.0, 0.0, 0.0, 0.0, False, FIX_NONE


@kernel
def sweep_range(first: int, stop: int, scene: Scene, movers: Movers, sweeps: Sweeps, td: float,
                mask: int, out: SweepHits) -> None:
    """The first contact (least fraction, ties: smallest handle) of sweeps ``first ..
    stop-1`` with the visible colliders, written to their rows of ``out`` (a range kernel:
    any split of a batch into ranges gives the same answers)."""
    nodes = scene.nodes
    links = scene.links
    rows = scene.rows
    dim = links[H_DIM]
    d = sweeps.displacements.shape[1]
    stack = np.empty((STACK_SIZE, 2))
    query = np.zeros(6)
    scratch = (np.empty((2, 2)), np.empty((4, 2)), np.empty((8, 3)), np.empty((2, 3)))
    for i in range(first, stop):
        k = sweeps.mover[i]
        rx = sweeps.displacements[i, 0]
        ry = sweeps.displacements[i, 1]
        rz = sweeps.displacements[i, 2] if d == 3 else 0.0
        rel = (rx, ry, rz)
        length = sweeps.lengths[i]
        # the swept box and the scene's scale (its largest coordinate, at least 1)
        scale = 1.0
        half = 0.0
        for a in range(d):
            lo = movers.boxes[k, a]
            hi = movers.boxes[k, 3 + a]
            query[a] = min(lo, lo + sweeps.displacements[i, a])
            query[3 + a] = max(hi, hi + sweeps.displacements[i, a])
            scale = max(scale, abs(query[a]), abs(query[3 + a]))
            half = max(half, 0.5 * (hi - lo))
        grow = td + CANDIDATE_MARGIN * scale
        for a in range(d):
            query[a] -= grow
            query[3 + a] += grow
        cx = 0.5 * (movers.boxes[k, 0] + movers.boxes[k, 3])
        cy = 0.5 * (movers.boxes[k, 1] + movers.boxes[k, 4])
        cz = 0.5 * (movers.boxes[k, 2] + movers.boxes[k, 5])
        if length > 0.0:
            ux, uy, uz = rx / length, ry / length, rz / length
        else:
            # no motion: the boxes that hold the start
            ux, uy, uz = 1.0, 0.0, 0.0
        probe = make_probe(cx, cy, cz, ux, uy, uz, half + grow, dim)
        limit = length
        best_h = -1
        best_f = math.inf
        px = py = pz = nx = ny = nz = 0.0
        inside = False
        fix = FIX_NONE
        unsupported = False
        for which in range(2):
            tree = static_tree(links) if which == 0 else moving_tree(links)
            node, sp = ray_first_leaf(nodes, links, tree, stack, probe, limit)
            # each leaf is handed out once
            for _ in range(tree[1]):
                if node < 0:
                    break
                lo_j, hi_j = leaf_items(links, tree, node)
                for j in range(lo_j, hi_j):
                    h = links[j]
                    if box_entry_at(rows, h, LO, probe, limit) == math.inf:
                        # the fat ray misses this collider's box, or enters it past the best
                        continue
                    if not box_touches_at(rows, h, LO, query, dim):
                        continue
                    if not visible(scene.tags, h, mask):
                        continue
                    f, ax, ay, az, anx, any_, anz, ains, afix = sweep_row(
                        scene, h, movers, k, rel, length, td, scratch)
                    unsupported = unsupported or afix == FIX_UNSUPPORTED
                    if f >= 0.0 and (f < best_f or (f == best_f and h < best_h)):
                        best_f = f
                        best_h = h
                        limit = f * length
                        px, py, pz, nx, ny, nz, inside, fix = ax, ay, az, anx, any_, anz, ains, afix
                node, sp = ray_next_leaf(nodes, links, tree, stack, sp, probe, limit)
        first_plane = links[H_PLANES]
        for j in range(first_plane, first_plane + links[H_PLANE_COUNT]):
            h = links[j]
            if not visible(scene.tags, h, mask):
                continue
            f, ax, ay, az, anx, any_, anz, ains, afix = sweep_row(scene, h, movers, k, rel,
                                                                  length, td, scratch)
            if f >= 0.0 and not one_way_stands(scene, h, rel[0], rel[1], rel[2], anx, any_, anz):
                # a one-way collider (they sit in this list, never in the trees) passed
                continue
            unsupported = unsupported or afix == FIX_UNSUPPORTED
            if f >= 0.0 and (f < best_f or (f == best_f and h < best_h)):
                best_f = f
                best_h = h
                px, py, pz, nx, ny, nz, inside, fix = ax, ay, az, anx, any_, anz, ains, afix
        out.handle[i] = best_h
        out.fraction[i] = best_f
        out.inside[i] = inside
        out.fix[i] = FIX_UNSUPPORTED if unsupported else fix
        out.point[i, 0] = px
        out.point[i, 1] = py
        out.normal[i, 0] = nx
        out.normal[i, 1] = ny
        if d == 3:
            out.point[i, 2] = pz
            out.normal[i, 2] = nz
