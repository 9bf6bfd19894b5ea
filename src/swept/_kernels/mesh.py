"""Triangle-mesh and height-field kernels: a watertight ray-triangle test, the closest point of
a triangle, the exact sphere cast against a triangle, and the walks that feed them (the BVH of
:mod:`swept._kernels.bvh` for a mesh, a cell walk for a height field).

A surface here is a list of triangles ``tris`` (m, 3) int64 into ``verts`` (n, 3) float64,
with unit face normals ``normals`` (m, 3) (from the winding: ``(b - a) x (c - a)``). Surfaces
are two-sided: a ray or a ball meets a triangle from either side, and the normal reported is
the face normal turned toward the ray's origin or the ball's centre.

Degenerate cases, decided once:

- **Watertight rays.** :func:`ray_triangle` is Woop, Benthin and Wald's test (JCGT 2013): the
  vertices are moved into the ray's frame (the ray along +z, sheared), each once, the same way
  for every triangle; the three edge functions are 2D cross products of those coordinates, so
  the two triangles on an edge compute the very same value for it, negated (a product
  commutes exactly, a difference negates exactly). A ray through an edge or a vertex is
  therefore on the inside or exactly on the edge of at least one triangle of the fan, and an
  edge function of zero counts as inside: no ray slips between two triangles that share their
  vertices (by index or by equal coordinates). The nearest hit is reported once (ties: the
  smallest triangle index).
- **A ray in a triangle's plane** (every edge function zero: the determinant is 0) misses that
  triangle; it still hits any triangle it crosses.
- **A ray from a point of the surface** hits at 0.
- **Zero-area triangles** never reach a kernel: the shapes reject them.

The ball cast (:func:`sphere_triangle_cast`) is exact: the ball's centre against the triangle
grown by the radius, which is the union of the triangle's two offset faces (clipped to the
triangle's prism), its three edges as cylinders and its vertices as spheres (the existing
capsule ray of :mod:`swept._kernels.ray`, one capsule an edge).

Internal edges (:func:`surface_normal`): the normal at a point of the surface nearest a ball's
centre is that of the feature the point lies on (face, edge or vertex), except that an edge
between two coplanar triangles that spread apart (a *flat* edge) and a vertex whose every edge
is flat give the face normal: a ball sliding across a flat floor of many triangles never gets
a normal tilted by a seam.

Convex cores (:func:`core_surface_contact`, :func:`core_surface_nearest`): a capsule is its
segment grown by its radius, a box or hull its corners' hull. Against one triangle the nearest
points come in closed form for a segment or point (:func:`segment_triangle`) and by GJK for
more corners (within ``GJK_TOLERANCE``); a gap within ``TOUCH_TOLERANCE`` of the coordinates
counts as touching. A core apart from the surface takes the ball's rule at its nearest point.
A core touching or crossing it is pushed out plane by plane: the crossed triangles that lie in
one plane (:func:`coplanar`) leave together along the plane's normal, to the side the core
reaches less far beyond it (+normal on a tie: a core lying in the plane goes up), or across a
non-flat edge of that piece in the plane, whichever is shorter (:func:`plane_push`); the plane
needing the largest push is reported. No push ever crosses a flat edge, so the answer on a
flat floor does not depend on how it is cut into triangles.
"""

from __future__ import annotations

import math
from typing import Any

import numpy as np
from llvmlite import ir as llvm_ir
from numba import types
from numba.core import cgutils
from numba.extending import intrinsic

from ..constants import (
    FLAT_EDGE_TOLERANCE,
    PLANE_CULL_TOLERANCE,
    RAY_BLOCK,
    RAY_ORDER_BITS,
    RAY_ORDER_MIN_RAYS,
    TOUCH_TOLERANCE,
)
from . import bvh, callee, inline_kernel, kernel
from .distance import GJK_CACHE_SIZE, GJK_OVERLAPPED, gjk_distance
from .geom import segment_segment_params
from .hints import _prefetch_at, _prefetch_item
from .polytope import deepest_middle
from .ray import ray_capsule3
from .sweep import CAST_HIT, CAST_OVERLAPPED, CAST_SEPARATED, cast_cores
from .world import unowned

#: ``t`` of a miss.
MISS = -1.0


def _row_pointer(context: Any, builder: Any, aryty: Any, value: Any, row: Any) -> Any:
    """In an intrinsic's code: a pointer to the first element of row ``row`` of the 2D array
    ``value`` (of numba type ``aryty``)."""
    ary = context.make_array(aryty)(context, builder, value)
    zero = context.get_constant(types.intp, 0)
    return cgutils.get_item_pointer(context, builder, aryty, ary, [row, zero],
                                    wraparound=False)


def _splat(builder: Any, x: Any, lanes: int) -> Any:
    """In an intrinsic's code: a vector of ``lanes`` float64, each ``x``."""
    vector = llvm_ir.VectorType(llvm_ir.DoubleType(), lanes)
    one = builder.insert_element(llvm_ir.Constant(vector, llvm_ir.Undefined), x,
                                 llvm_ir.IntType(32)(0))
    return builder.shuffle_vector(one, one, llvm_ir.Constant(
        llvm_ir.VectorType(llvm_ir.IntType(32), lanes), [0] * lanes))


def _fold(builder: Any, vector: Any, lanes: int, keep: str) -> Any:
    """In an intrinsic's code: the least (``keep`` ``"<"``) or the greatest (``">"``) of the
    ``lanes`` float64 of ``vector`` (none NaN), by halving shuffles of ordered comparisons:
    lanes s and s + width compared, the one kept in lane s, until lane 0 holds it."""
    i32 = llvm_ir.IntType(32)
    width = lanes
    while width > 1:
        width //= 2
        other = builder.shuffle_vector(vector, vector, llvm_ir.Constant(
            llvm_ir.VectorType(i32, lanes), [(s + width) % lanes for s in range(lanes)]))
        vector = builder.select(builder.fcmp_ordered(keep, other, vector), other, vector)
    return builder.extract_element(vector, i32(0))


def _prefetch_row(rows: Any, row: Any, offsets: tuple[int, ...]) -> Any:
    """The signature and code of a hint for the bytes ``offsets`` into row ``row`` of the 2D
    array ``rows``."""
    sig = types.void(rows, row)

    def codegen(context: Any, builder: Any, signature: Any, args: Any) -> Any:
        ptr = _row_pointer(context, builder, signature.args[0], args[0], args[1])
        _prefetch_at(builder, ptr, offsets)
        return context.get_dummy_value()

    return sig, codegen


def _prefetch_lines(rows: Any, row: Any, lines: int) -> Any:
    """The signature and code of :func:`_prefetch_typer` for the row's first ``lines``
    64-byte lines."""
    return _prefetch_row(rows, row, tuple(64 * line for line in range(lines)))


def _prefetch_typer(typingctx: Any, rows: Any, row: Any) -> Any:
    """Ask the CPU to start loading row ``row`` of the 2D array ``rows`` (its first
    ``64 PREFETCH_LINES`` bytes) into cache, without waiting for it: LLVM's prefetch hint,
    which changes no result."""
    return _prefetch_lines(rows, row, PREFETCH_LINES)


#: ``_prefetch(rows, row)`` in compiled code: :func:`_prefetch_typer`'s hint.
_prefetch: Any = intrinsic(_prefetch_typer)


def _prefetch_block_typer(typingctx: Any, rows: Any, row: Any) -> Any:
    """:func:`_prefetch_typer` of a whole leaf block of :func:`pack_leaves`
    (:data:`LEAF_BLOCK_LINES` lines)."""
    return _prefetch_lines(rows, row, LEAF_BLOCK_LINES)


#: ``_prefetch_block(packed, block)`` in compiled code: :func:`_prefetch_block_typer`'s hint.
_prefetch_block: Any = intrinsic(_prefetch_block_typer)


def _prefetch_point_typer(typingctx: Any, rows: Any, row: Any) -> Any:
    """:func:`_prefetch_typer` of row ``row`` of an (n, 3) float64 array (a ray's origin or
    direction, a triangle's normal): the lines of its first and its last element (a row of
    24 bytes may straddle two lines)."""
    return _prefetch_row(rows, row, (0, 16))


#: ``_prefetch_point(rows, row)`` in compiled code: :func:`_prefetch_point_typer`'s hint.
_prefetch_point: Any = intrinsic(_prefetch_point_typer)


#: Children a row of the rays' tree holds (:func:`flatten_tree`), their boxes tested at once
#: (:func:`_entry_row_typer`): eight, one AVX-512 register of float64 an axis' planes.
TREE_WIDTH = 8
#: 64-byte lines of a tree row (the whole row) :func:`_prefetch` asks for.
PREFETCH_LINES = 4
#: 64-byte lines of a leaf block (:func:`pack_leaves`: nine float64 coordinates of eight
#: lanes) :func:`_prefetch_block` asks for.
LEAF_BLOCK_LINES = 9


def _lowest_bit_typer(typingctx: Any, bits: Any) -> Any:
    """The index of the lowest set bit of ``bits`` (an int64, not 0): LLVM's count of
    trailing zeros."""
    sig = types.int64(bits)

    def codegen(context: Any, builder: Any, signature: Any, args: Any) -> Any:
        i64 = llvm_ir.IntType(64)
        fnty = llvm_ir.FunctionType(i64, [i64, llvm_ir.IntType(1)])
        fn = cgutils.get_or_insert_function(builder.module, fnty, "llvm.cttz.i64")
        return builder.call(fn, [args[0], llvm_ir.IntType(1)(0)])

    return sig, codegen


#: ``_lowest_bit(bits)`` in compiled code: :func:`_lowest_bit_typer`'s index.
_lowest_bit: Any = intrinsic(_lowest_bit_typer)


def _entries(context: Any, builder: Any, signature: Any, args: Any, fat: bool) -> Any:
    """The code of :func:`_entry_row_typer` (``fat``: of :func:`_fat_entry_row_typer`, the
    planes moved by the radius first)."""
    width = TREE_WIDTH
    start = _row_pointer(context, builder, signature.args[0], args[0], args[1])
    outty = signature.args[2]
    out = context.make_array(outty)(context, builder, args[2])
    out_at = cgutils.get_item_pointer(context, builder, outty, out,
                                      [context.get_constant(types.intp, 0)], wraparound=False)
    f64 = llvm_ir.DoubleType()
    wide = llvm_ir.VectorType(f64, width)
    wide32 = llvm_ir.VectorType(llvm_ir.FloatType(), width)
    i64 = llvm_ir.IntType(64)

    def splat(x: Any) -> Any:
        return _splat(builder, x, width)

    def planes(col: Any) -> Any:
        at = builder.bitcast(builder.gep(start, [col]), wide32.as_pointer())
        return builder.fpext(builder.load(at, align=4), wide)

    tn = splat(f64(0.0))
    tf = splat(args[-1])
    for axis in range(3):
        o = splat(args[3 + axis])
        inv = splat(args[6 + axis])
        enter = planes(builder.add(i64(width * axis), args[9 + axis]))
        leave = planes(builder.sub(i64(width * axis + 3 * width), args[9 + axis]))
        if fat:
            r = splat(args[12 + axis])
            enter = builder.fadd(enter, r)
            leave = builder.fsub(leave, r)
        near = builder.fmul(builder.fsub(enter, o), inv)
        far = builder.fmul(builder.fsub(leave, o), inv)
        tn = builder.select(builder.fcmp_ordered(">", near, tn), near, tn)
        tf = builder.select(builder.fcmp_ordered("<", far, tf), far, tf)
    missed = builder.fcmp_ordered(">", tn, tf)
    entry = builder.select(missed, splat(f64(math.inf)), tn)
    builder.store(entry, builder.bitcast(out_at, wide.as_pointer()), align=8)
    bits = builder.bitcast(builder.not_(missed), llvm_ir.IntType(width))
    return builder.zext(bits, i64)


def _entry_row_typer(typingctx: Any, tree: Any, row: Any, out: Any, ox: Any, oy: Any,
                     oz: Any, ix: Any, iy: Any, iz: Any, nx: Any, ny: Any, nz: Any,
                     limit: Any) -> Any:
    """Entry t of the segment ``o + t d``, t in [0, limit], into each of the
    :data:`TREE_WIDTH` boxes of a :func:`flatten_tree` row, written to ``out[:TREE_WIDTH]``
    (inf: a miss), in vector instructions; returns the mask of the boxes entered (bit s:
    box s). ``ix, iy, iz`` are the direction's inverses
    (:func:`swept._kernels.bvh.inverse_direction`), ``nx, ny, nz`` the column offsets (0 or
    ``3 TREE_WIDTH``) of the planes the ray enters by. Each axis reads the entering and the
    leaving planes as one load each (widened to float64, exactly) and every lane does
    :func:`_slab`'s very operations (a subtraction, a product, the ordered comparisons: a
    parallel axis gives +-inf, or NaN for an origin exactly on the plane, and a comparison
    with NaN is false, so the axis constrains nothing then, as a touching origin should
    not), so each t equals the scalar test's."""
    sig = types.int64(tree, row, out, ox, oy, oz, ix, iy, iz, nx, ny, nz, limit)

    def codegen(context: Any, builder: Any, signature: Any, args: Any) -> Any:
        return _entries(context, builder, signature, args, False)

    return sig, codegen


def _fat_entry_row_typer(typingctx: Any, tree: Any, row: Any, out: Any, ox: Any, oy: Any,
                         oz: Any, ix: Any, iy: Any, iz: Any, nx: Any, ny: Any, nz: Any,
                         rx: Any, ry: Any, rz: Any, limit: Any) -> Any:
    """:func:`_entry_row_typer` of the boxes grown by a ball's radius: ``rx, ry, rz`` are the
    radius signed to move each entering plane outward (``-r`` where the ray enters by the lo
    plane, ``+r`` by the hi plane), the leaving plane moving the other way. Kept apart:
    adding a zero radius costs the rays six additions a row."""
    sig = types.int64(tree, row, out, ox, oy, oz, ix, iy, iz, nx, ny, nz, rx, ry, rz, limit)

    def codegen(context: Any, builder: Any, signature: Any, args: Any) -> Any:
        return _entries(context, builder, signature, args, True)

    return sig, codegen


#: ``_entry_row(tree, row, out, ox, oy, oz, ix, iy, iz, nx, ny, nz, limit)`` in compiled
#: code: :func:`_entry_row_typer`'s entries (into ``out``) and mask.
_entry_row: Any = intrinsic(_entry_row_typer)
#: ``_fat_entry_row(tree, row, out, ox, oy, oz, ix, iy, iz, nx, ny, nz, rx, ry, rz, limit)``
#: in compiled code: :func:`_fat_entry_row_typer`'s entries and mask.
_fat_entry_row: Any = intrinsic(_fat_entry_row_typer)


# ---------------------------------------------------------------------------------------------
# the watertight ray-triangle test


@kernel
def ray_frame(dx: float, dy: float, dz: float
              ) -> tuple[int, int, int, float, float, float]:
    """The ray's frame for :func:`ray_triangle`: the axes ``(kx, ky, kz)`` (``kz`` the
    direction's largest component; ``kx, ky`` swapped when it is negative, which keeps the
    winding) and the shear ``(sx, sy, sz)`` that takes the direction to +z."""
    ax = abs(dx)
    ay = abs(dy)
    az = abs(dz)
    if ax >= ay and ax >= az:
        kz = 0
    elif ay >= az:
        kz = 1
    else:
        kz = 2
    kx = (kz + 1) % 3
    ky = (kx + 1) % 3
    d = (dx, dy, dz)
    if d[kz] < 0.0:
        kx, ky = ky, kx
    sx = d[kx] / d[kz]
    sy = d[ky] / d[kz]
    sz = 1.0 / d[kz]
    return kx, ky, kz, sx, sy, sz


@inline_kernel
def _watertight(akx: float, aky: float, akz: float, bkx: float, bky: float, bkz: float,
                ckx: float, cky: float, ckz: float, okx: float, oky: float, okz: float,
                sx: float, sy: float, sz: float, tmin: float, tmax: float) -> float:
    """The watertight test on coordinates already permuted into the ray's frame (``akx`` is
    ``a[kx]``, ... of :func:`ray_frame`): t with ``tmin < t <= tmax``, or :data:`MISS`. The
    one body of :func:`ray_triangle_at` and of the BVH walk's leaf test, so both decide by the
    very same operations."""
    # the vertices relative to the origin, sheared so the ray runs along +z
    az_ = akz - okz
    bz_ = bkz - okz
    cz_ = ckz - okz
    ax_ = (akx - okx) - sx * az_
    ay_ = (aky - oky) - sy * az_
    bx_ = (bkx - okx) - sx * bz_
    by_ = (bky - oky) - sy * bz_
    cx_ = (ckx - okx) - sx * cz_
    cy_ = (cky - oky) - sy * cz_
    # the edge functions of bc, ca, ab: antisymmetric in their two vertices
    u = cx_ * by_ - cy_ * bx_
    v = ax_ * cy_ - ay_ * cx_
    if (u < 0.0 and v > 0.0) or (u > 0.0 and v < 0.0):
        # outside edge bc or ca already (the test below on all three would say so too)
        return MISS
    w = bx_ * ay_ - by_ * ax_
    if (u < 0.0 or v < 0.0 or w < 0.0) and (u > 0.0 or v > 0.0 or w > 0.0):
        # the ray passes outside an edge (either side of the triangle: two-sided)
        return MISS
    det = u + v + w
    if det == 0.0:
        # the ray lies in the triangle's plane
        return MISS
    t = sz * (u * az_ + v * bz_ + w * cz_) / det
    if t < 0.0 or t <= tmin or t > tmax:
        # behind the origin, at or before tmin, or out of reach
        return MISS
    return t


@inline_kernel
def ray_triangle_at(ax: float, ay: float, az: float, bx: float, by: float, bz: float,
                    cx: float, cy: float, cz: float, ox: float, oy: float, oz: float,
                    frame: tuple[int, int, int, float, float, float], tmin: float, tmax: float
                    ) -> float:
    """Where the ray ``o + t d`` meets the triangle ``a b c``, watertight (module docstring):
    t with ``tmin < t <= tmax`` (``tmin < 0`` admits 0), or :data:`MISS`."""
    kx, ky, kz, sx, sy, sz = frame
    o = (ox, oy, oz)
    a = (ax, ay, az)
    b = (bx, by, bz)
    c = (cx, cy, cz)
    return _watertight(a[kx], a[ky], a[kz], b[kx], b[ky], b[kz], c[kx], c[ky], c[kz], o[kx],
                       o[ky], o[kz], sx, sy, sz, tmin, tmax)


@inline_kernel
def ray_triangle(verts: np.ndarray, tris: np.ndarray, k: int, ox: float, oy: float, oz: float,
                 frame: tuple[int, int, int, float, float, float], tmin: float, tmax: float
                 ) -> float:
    """:func:`ray_triangle_at` of triangle k of ``verts`` / ``tris``."""
    ia = tris[k, 0]
    ib = tris[k, 1]
    ic = tris[k, 2]
    return ray_triangle_at(verts[ia, 0], verts[ia, 1], verts[ia, 2], verts[ib, 0], verts[ib, 1],
                           verts[ib, 2], verts[ic, 0], verts[ic, 1], verts[ic, 2], ox, oy, oz,
                           frame, tmin, tmax)


#: Triangles a leaf block holds, tested eight abreast (:func:`_leaf_lanes`): a leaf of the
#: rays' tree is the highest BVH node with at most this many triangles (two or more of the
#: BVH's leaves of :data:`swept._kernels.bvh.LEAF_SIZE` merged), which takes a level off the
#: tree. Measured (bench_mesh's icosphere, one thread, rows visited and us a ray): see
#: :func:`pack_leaves`.
LEAF_LANES = 8
assert bvh.LEAF_SIZE <= LEAF_LANES


@callee
def leaf_nodes(links: np.ndarray, nodes: int) -> np.ndarray:
    """Which BVH nodes (:func:`swept._kernels.bvh.build`'s ``links`` over ``nodes`` nodes) are
    the leaves of the rays' tree, numbered: ``block_of (nodes,) int64``, each such node's block
    (in node order), -1 for a node above them (a row) or below one. A node is such a leaf when
    it holds at most :data:`LEAF_LANES` triangles and its parent holds more (the root: when it
    is one); children have larger indices than their parents, so one pass in node order
    finds them."""
    block_of = np.full(nodes, -1, np.int64)
    # 1: reached through rows only
    reached = np.zeros(nodes, np.bool_)
    if nodes > 0:
        reached[0] = True
    blocks = 0
    for node in range(nodes):
        if not reached[node]:
            continue
        if links[3 * node] < 0 or links[3 * node + 2] <= LEAF_LANES:
            block_of[node] = blocks
            blocks += 1
        else:
            reached[links[3 * node]] = True
            reached[links[3 * node] + 1] = True
    return block_of


@kernel
def pack_leaves(verts: np.ndarray, tris: np.ndarray, links: np.ndarray, nodes: int
                ) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """The triangles' corners a leaf at a time, for the eight-lane test (:func:`_leaf_lanes`):
    ``(packed (blocks, 9 LEAF_LANES) float64, order (LEAF_LANES blocks,) int64, block_of
    (nodes,) int64)``. The leaves are :func:`leaf_nodes`'. Block b holds leaf b's triangles
    corner by corner and axis by axis, ``LEAF_LANES`` lanes each (column
    ``LEAF_LANES (3 c + a) + lane``: axis a of corner c), in increasing triangle index (so
    that the first lane of a tie is the smallest index), lanes past the leaf's count a zero
    triangle (all its corners 0, whose determinant is exactly 0: never hit); triangle
    ``order[LEAF_LANES b + lane]`` is lane ``lane`` (-1 past the count). One copy of the
    coordinates: the watertight test sees the very same numbers. ``links`` is
    :func:`swept._kernels.bvh.build`'s, over ``nodes`` nodes.

    Measured (bench_mesh's icosphere of 1.3 million triangles, 100,000 rays in walk order,
    one thread, CPU time, one run): on the four-wide tree, leaves of up to four triangles
    tested four abreast visited 23.1 rows and 1.6 leaves a lidar ray (0.727 us), leaves of
    up to eight tested eight abreast 22.2 rows and 1.5 leaves (0.704 us); incoherent rays
    11.0 rows, 1.08 leaves (0.865 us) and 10.3 rows, 1.03 leaves (0.912 us), within the
    noise. Kept for the eight-wide tree, whose rows then hold leaves (15.1 and 7.1 rows a
    ray); on the terrain the same 6-7 triangles a ray are tested in 0.9-1.0 leaves."""
    block_of = leaf_nodes(links, nodes)
    blocks = 0
    for node in range(nodes):
        if block_of[node] >= 0:
            blocks += 1
    packed = np.zeros((blocks, 9 * LEAF_LANES))
    order = np.full(LEAF_LANES * blocks, -1, np.int64)
    items = 3 * nodes
    for node in range(nodes):
        b = block_of[node]
        if b < 0:
            continue
        start = links[3 * node + 1]
        count = links[3 * node + 2]
        row = LEAF_LANES * b
        # the node's triangles sorted by index (an insertion sort of at most LEAF_LANES)
        for lane in range(count):
            k = links[items + start + lane]
            pos = lane
            for _ in range(lane):
                if order[row + pos - 1] <= k:
                    break
                order[row + pos] = order[row + pos - 1]
                pos -= 1
            order[row + pos] = k
        for lane in range(count):
            k = order[row + lane]
            for c in range(3):
                for a in range(3):
                    packed[b, LEAF_LANES * (3 * c + a) + lane] = verts[tris[k, c], a]
    return packed, order, block_of


def _leaf_times(context: Any, builder: Any, args: Any) -> Any:
    """The code of :func:`_watertight` on the ``LEAF_LANES`` lanes of a leaf block (the
    arguments of :func:`_leaf_lanes_typer`): a vector of each lane's t, :data:`MISS` where
    that lane misses."""
    start = _row_pointer(context, builder, types.Array(types.float64, 2, "C"), args[0],
                         args[1])
    f64 = llvm_ir.DoubleType()
    wide = llvm_ir.VectorType(f64, LEAF_LANES)
    i64 = llvm_ir.IntType(64)

    def splat(x: Any) -> Any:
        return _splat(builder, x, LEAF_LANES)

    def coordinate(corner: int, axis: Any) -> Any:
        col = builder.mul(builder.add(i64(3 * corner), axis), i64(LEAF_LANES))
        at = builder.bitcast(builder.gep(start, [col]), wide.as_pointer())
        return builder.load(at, align=8)

    kx, ky, kz = args[2], args[3], args[4]
    okx, oky, okz = splat(args[5]), splat(args[6]), splat(args[7])
    sx, sy, sz = splat(args[8]), splat(args[9]), splat(args[10])
    sheared = []
    for corner in range(3):
        z = builder.fsub(coordinate(corner, kz), okz)
        x = builder.fsub(builder.fsub(coordinate(corner, kx), okx), builder.fmul(sx, z))
        y = builder.fsub(builder.fsub(coordinate(corner, ky), oky), builder.fmul(sy, z))
        sheared.append((x, y, z))
    (ax, ay, az), (bx, by, bz), (cx, cy, cz) = sheared
    u = builder.fsub(builder.fmul(cx, by), builder.fmul(cy, bx))
    v = builder.fsub(builder.fmul(ax, cy), builder.fmul(ay, cx))
    w = builder.fsub(builder.fmul(bx, ay), builder.fmul(by, ax))
    nought = splat(f64(0.0))

    def lt(p: Any, q: Any) -> Any:
        return builder.fcmp_ordered("<", p, q)

    def gt(p: Any, q: Any) -> Any:
        return builder.fcmp_ordered(">", p, q)

    negative = builder.or_(builder.or_(lt(u, nought), lt(v, nought)), lt(w, nought))
    positive = builder.or_(builder.or_(gt(u, nought), gt(v, nought)), gt(w, nought))
    det = builder.fadd(builder.fadd(u, v), w)
    t = builder.fdiv(builder.fmul(sz, builder.fadd(builder.fadd(
        builder.fmul(u, az), builder.fmul(v, bz)), builder.fmul(w, cz))), det)
    miss = builder.or_(builder.and_(negative, positive),
                       builder.fcmp_ordered("==", det, nought))
    miss = builder.or_(miss, builder.or_(lt(t, nought), builder.fcmp_ordered(
        "<=", t, splat(args[11]))))
    miss = builder.or_(miss, gt(t, splat(args[12])))
    return builder.select(miss, splat(f64(MISS)), t), miss, splat


def _leaf_lanes_typer(typingctx: Any, packed: Any, block: Any, kx: Any, ky: Any, kz: Any,
                      okx: Any, oky: Any, okz: Any, sx: Any, sy: Any, sz: Any, tmin: Any,
                      tmax: Any) -> Any:
    """:func:`_watertight` on the ``LEAF_LANES`` lanes of leaf block ``block`` of
    :func:`pack_leaves` at once, in vector instructions: ``kx, ky, kz`` and the shear are the
    ray's frame (:func:`ray_frame`), ``okx, oky, okz`` its permuted origin. Every lane does
    the scalar test's very operations in the same order (the products and differences, the
    sums, the product and quotient of t), and its early returns become one mask (the first
    one's case is part of the second's), so each lane's t equals the scalar test's,
    :data:`MISS` where that misses."""
    sig = types.UniTuple(types.float64, LEAF_LANES)(packed, block, kx, ky, kz, okx, oky, okz,
                                                    sx, sy, sz, tmin, tmax)

    def codegen(context: Any, builder: Any, signature: Any, args: Any) -> Any:
        t, _miss, _splat = _leaf_times(context, builder, args)
        lanes = [builder.extract_element(t, llvm_ir.IntType(32)(s))
                 for s in range(LEAF_LANES)]
        return context.make_tuple(builder, signature.return_type, lanes)

    return sig, codegen


def _leaf_nearest_typer(typingctx: Any, packed: Any, block: Any, kx: Any, ky: Any, kz: Any,
                        okx: Any, oky: Any, okz: Any, sx: Any, sy: Any, sz: Any, tmin: Any,
                        tmax: Any) -> Any:
    """The nearest lane of :func:`_leaf_lanes_typer`'s: ``(t, lane)``, the first lane of the
    least t (the smallest triangle index: :func:`pack_leaves` sorts a block's lanes), or
    ``(inf, LEAF_LANES)`` when every lane misses. The least of the lanes' t (misses as inf)
    by halving shuffles of ordered comparisons (a min of floats that are never NaN: the
    exact least), then the first lane equal to it (a mask's trailing zeros): no branch."""
    sig = types.Tuple((types.float64, types.int64))(packed, block, kx, ky, kz, okx, oky, okz,
                                                    sx, sy, sz, tmin, tmax)

    def codegen(context: Any, builder: Any, signature: Any, args: Any) -> Any:
        t, miss, splat = _leaf_times(context, builder, args)
        f64 = llvm_ir.DoubleType()
        t = builder.select(miss, splat(f64(math.inf)), t)
        i32 = llvm_ir.IntType(32)
        low = _fold(builder, t, LEAF_LANES, "<")
        # the hits equal to the least (none when every lane misses)
        equal = builder.and_(builder.fcmp_ordered("==", t, splat(low)), builder.not_(miss))
        bits = builder.bitcast(equal, llvm_ir.IntType(LEAF_LANES))
        # the bit past the lanes, set: LEAF_LANES when no lane hits
        mask = builder.or_(builder.zext(bits, llvm_ir.IntType(32)), i32(1 << LEAF_LANES))
        fnty = llvm_ir.FunctionType(i32, [i32, llvm_ir.IntType(1)])
        cttz = cgutils.get_or_insert_function(builder.module, fnty, "llvm.cttz.i32")
        lane = builder.zext(builder.call(cttz, [mask, llvm_ir.IntType(1)(1)]),
                            llvm_ir.IntType(64))
        return context.make_tuple(builder, signature.return_type, [low, lane])

    return sig, codegen


#: ``_leaf_lanes(packed, block, kx, ky, kz, okx, oky, okz, sx, sy, sz, tmin, tmax)`` in
#: compiled code: the ``LEAF_LANES`` lanes' t of :func:`_leaf_lanes_typer`.
_leaf_lanes: Any = intrinsic(_leaf_lanes_typer)
#: ``_leaf_nearest(packed, block, kx, ky, kz, okx, oky, okz, sx, sy, sz, tmin, tmax)`` in
#: compiled code: :func:`_leaf_nearest_typer`'s ``(t, lane)``.
_leaf_nearest: Any = intrinsic(_leaf_nearest_typer)


# ---------------------------------------------------------------------------------------------
# the mesh's ray walk: a compact copy of its BVH

#: Bits of a leaf reference that hold its triangle count (the rest: its block of packed rows; a
#: leaf holds at most :data:`swept._kernels.bvh.LEAF_SIZE` triangles, below 2^4).
LEAF_COUNT_BITS = 4


@kernel
def _outward32(x: float, up: bool) -> np.float32:
    """``x`` as a float32 rounded away from the box's inside: down for a lower bound, up for
    an upper one, so the float32 box holds the float64 box."""
    f = np.float32(x)
    if up and float(f) < x:
        f = np.nextafter(f, np.float32(math.inf))
    elif not up and float(f) > x:
        f = np.nextafter(f, np.float32(-math.inf))
    return f


#: Columns of a :func:`flatten_tree` row: its children's boxes stored coordinate by
#: coordinate (:data:`TREE_WIDTH` lo x, then as many lo y, lo z, hi x, hi y, hi z), then the
#: children's references (:data:`TREE_REFS` on, int32 bits), then unused columns to a whole
#: number of 64-byte lines: 256 bytes a row.
TREE_COLUMNS = 8 * TREE_WIDTH
#: Column of a :func:`flatten_tree` row's first child reference.
TREE_REFS = 6 * TREE_WIDTH
#: Entries the wide walk's stack needs: each row visited leaves at most ``TREE_WIDTH - 1``
#: of its children waiting, and rows nest at most ``MAX_DEPTH`` deep (collapsing the binary
#: tree never deepens it).
TREE_STACK_SIZE = (TREE_WIDTH - 1) * bvh.STACK_SIZE + 1


@inline_kernel
def _half_area(nodes: np.ndarray, k: int) -> float:
    """Half the surface area of BVH node k's box."""
    dx = nodes[k, 3] - nodes[k, 0]
    dy = nodes[k, 4] - nodes[k, 1]
    dz = nodes[k, 5] - nodes[k, 2]
    return dx * dy + dy * dz + dz * dx


@inline_kernel
def _empty_slot(rows: np.ndarray, refs: np.ndarray, r: int, s: int) -> None:
    """Slot ``s`` of row ``r`` of a :func:`flatten_tree` array ``rows`` (``refs`` its int32
    view) made empty: a box from +inf to -inf, which no ray or sweep enters, and the
    reference -1."""
    for a in range(3):
        rows[r, TREE_WIDTH * a + s] = np.float32(math.inf)
        rows[r, TREE_WIDTH * (3 + a) + s] = np.float32(-math.inf)
    refs[r, TREE_REFS + s] = -1


@kernel
def flatten_tree(nodes: np.ndarray, links: np.ndarray, block_of: np.ndarray) -> np.ndarray:
    """The mesh's BVH (:func:`swept._kernels.bvh.build`'s ``nodes, links``) collapsed into the
    wide tree its rays and sweeps walk, ``(r, TREE_COLUMNS)`` float32: each row holds up to
    :data:`TREE_WIDTH` children's boxes (each bound rounded outward to float32, so a box
    never shrinks; stored coordinate by coordinate so that one axis' planes are one vector
    load) and references (int32 bits: :func:`tree_refs`), 256 bytes. Its leaves are
    :func:`leaf_nodes`' (``block_of >= 0``), every other node reached is internal. A row
    starts from a binary node's two children and opens the child of largest surface area
    that is internal, ``TREE_WIDTH - 2`` times (fewer where only leaves remain); each
    internal child left becomes a row of its own, depth first (the first internal child in
    the next row). Unused slots hold an empty box (no ray enters it). Row 0 is a head whose
    only child is the root.

    Measured (bench_mesh's icosphere of 1.3 million triangles, 100,000 rays in walk order,
    one thread, CPU us a ray, medians of 7 in one run at load 6-7): eight-wide rows 0.633
    (lidar) and 0.778 (incoherent) against four-wide rows walked by the same code 0.765 and
    1.046.

    A reference ``ref >= 1`` is a row; a leaf is ``-1 - (block << LEAF_COUNT_BITS | count)``,
    ``block`` its block of :func:`pack_leaves` (``block_of``, each leaf node's) and ``count``
    its triangles: an int32 for up to :data:`~swept.constants.MAX_MESH_TRIANGLES` triangles,
    which the mesh checks."""
    m = nodes.shape[0]
    internal = 0
    for node in range(m):
        if block_of[node] < 0:
            internal += 1
    kids = np.full((internal + 1, TREE_WIDTH), -1, np.int64)
    row_of = np.full(max(m, 1), -1, np.int64)
    pending = np.empty(max(m, 1), np.int64)
    sp = 0
    if m > 0:
        kids[0, 0] = 0
        if block_of[0] < 0:
            pending[0] = 0
            sp = 1
    row = 1
    # each pass makes one row; every binary node is pushed at most once
    for _ in range(m):
        if sp == 0:
            break
        sp -= 1
        node = pending[sp]
        row_of[node] = row
        child = links[3 * node]
        kids[row, 0] = child
        kids[row, 1] = child + 1
        count = 2
        for _ in range(TREE_WIDTH - 2):
            # open the internal child of largest area (the first of equals)
            best = -1
            best_area = -1.0
            for s in range(count):
                k = kids[row, s]
                if block_of[k] < 0 and _half_area(nodes, k) > best_area:
                    best_area = _half_area(nodes, k)
                    best = s
            if best < 0:
                break
            grand = links[3 * kids[row, best]]
            kids[row, best] = grand
            kids[row, count] = grand + 1
            count += 1
        # the first internal child in the row after this one
        for s in range(count - 1, -1, -1):
            if block_of[kids[row, s]] < 0:
                pending[sp] = kids[row, s]
                sp += 1
        row += 1
    tree = np.zeros((row, TREE_COLUMNS), np.float32)
    refs = tree_refs(tree)
    for r in range(row):
        for s in range(TREE_WIDTH):
            k = kids[r, s]
            if k < 0:
                _empty_slot(tree, refs, r, s)
                continue
            for a in range(3):
                tree[r, TREE_WIDTH * a + s] = _outward32(nodes[k, a], False)
                tree[r, TREE_WIDTH * (3 + a) + s] = _outward32(nodes[k, 3 + a], True)
            refs[r, TREE_REFS + s] = _tree_ref(links, row_of, block_of, k)
    return tree


@inline_kernel
def tree_refs(tree: np.ndarray) -> np.ndarray:
    """The int32 view of a :func:`flatten_tree` array (its columns ``TREE_REFS ..
    TREE_REFS+3`` are references)."""
    return tree.view(np.int32)


@callee
def _tree_ref(links: np.ndarray, row_of: np.ndarray, block_of: np.ndarray, node: int) -> int:
    """The :func:`flatten_tree` reference of BVH node ``node``."""
    if block_of[node] < 0:
        return row_of[node]
    return -1 - ((block_of[node] << LEAF_COUNT_BITS) | links[3 * node + 2])


@inline_kernel
def _slab(enter: float, leave: float, o: float, inv: float, tn: float, tf: float
          ) -> tuple[float, float]:
    """The interval [tn, tf] clipped to one axis' slab, given the planes the ray enters and
    leaves it by (a NaN product, from a parallel ray's origin on a plane, clips nothing)."""
    near = (enter - o) * inv
    if near > tn:
        tn = near
    far = (leave - o) * inv
    if far < tf:
        tf = far
    return tn, tf


@inline_kernel
def _slab_frame(dx: float, dy: float, dz: float) -> tuple[float, float, float, int, int, int]:
    """What :func:`_entry_row` needs of a direction: its inverses
    (:func:`swept._kernels.bvh.inverse_direction`) and, per axis, the column offset of the
    planes it enters a row's boxes by: 0 (the lo planes) moving up the axis, else 12 (the hi
    planes)."""
    ix = bvh.inverse_direction(dx)
    iy = bvh.inverse_direction(dy)
    iz = bvh.inverse_direction(dz)
    hi = 3 * TREE_WIDTH
    return ix, iy, iz, 0 if ix >= 0.0 else hi, 0 if iy >= 0.0 else hi, 0 if iz >= 0.0 else hi


@inline_kernel
def _pop(stack_ref: np.ndarray, stack_t: np.ndarray, sp: int, limit: float
         ) -> tuple[int, float, int]:
    """The last child put aside that is entered within ``limit`` (those entered beyond it
    are dropped): ``(ref, its entry t, sp)``, ``ref = 0`` when none is left."""
    for _ in range(sp):
        sp -= 1
        if stack_t[sp] <= limit:
            return stack_ref[sp], stack_t[sp], sp
    return 0, math.inf, 0


@inline_kernel
def _leaf_rows(ref: int) -> tuple[int, int]:
    """The rows ``first .. stop-1`` of ``order`` (:func:`pack_leaves`) of the leaf reference
    ``ref < 0``: its block's lanes that hold a triangle."""
    code = -1 - ref
    first = LEAF_LANES * (code >> LEAF_COUNT_BITS)
    return first, first + (code & ((1 << LEAF_COUNT_BITS) - 1))


@inline_kernel
def _push_sorted(stack_ref: np.ndarray, stack_t: np.ndarray, base: int, sp: int, ref: int,
                 t: float) -> int:
    """Push the child ``ref`` entered at t (inf: missed, not pushed) among the entries
    ``base .. sp-1``, which stay sorted by decreasing t (the nearest on top); the new sp."""
    if t == math.inf:
        return sp
    pos = sp
    for _ in range(sp - base):
        if stack_t[pos - 1] >= t:
            break
        stack_t[pos] = stack_t[pos - 1]
        stack_ref[pos] = stack_ref[pos - 1]
        pos -= 1
    stack_t[pos] = t
    stack_ref[pos] = ref
    return sp + 1


@inline_kernel
def _nearer(t: float, k: int, best_t: float, best_k: int) -> tuple[float, int]:
    """The nearer of a lane's hit (t, k) (t < 0: a miss, k unread) and the best so far
    (ties: the smaller k)."""
    if t >= 0.0 and (t < best_t or (t == best_t and k < best_k)):
        return t, k
    return best_t, best_k


@inline_kernel
def _prefetch_child(packed: np.ndarray, tree: np.ndarray, order: np.ndarray, ref: int) -> None:
    """Ask for a child of the rays' tree before it is walked (:func:`_prefetch`): a row's
    four lines, or a leaf's whole block and the line of ``order`` that holds its triangles'
    indices. Measured (bench_mesh's 100,000 rays, one thread, CPU time, paired in one
    process with several walks in flight): a leaf's whole block against its first four
    lines, icosphere lidar 1.075x, incoherent 1.117x, terrain 1.04x and 1.125x; then its
    ``order`` line too, 1.07x, 1.043x, 1.036x and 1.045x."""
    if ref >= 0:
        _prefetch(tree, ref)
    else:
        block = (-1 - ref) >> LEAF_COUNT_BITS
        _prefetch_block(packed, block)
        _prefetch_item(order, LEAF_LANES * block)


#: Entries of a single ray's walk frame (:func:`ray_begin`): origin (3), the direction's
#: inverses (3), the origin permuted into the ray's frame (3), the shear (3), tmin (1); and of
#: its integer part: the frame's axes (3), the entering planes' column offsets (3).
RAY_FRAME_SIZE = 13
#: Integer entries of a single ray's walk frame (:func:`ray_begin`).
RAY_AXES_SIZE = 6


@inline_kernel
def ray_begin(frame: np.ndarray, axes: np.ndarray, ox: float, oy: float, oz: float,
              dx: float, dy: float, dz: float, tmin: float) -> None:
    """Fill a single ray's walk frame (:func:`ray_step`) for the ray ``o + t d`` (unit
    ``d``): ``frame`` (:data:`RAY_FRAME_SIZE`,) float64 and ``axes``
    (:data:`RAY_AXES_SIZE`,) int64, what :func:`_entry_row` and :func:`_leaf_nearest` read
    of the ray, computed once."""
    kx, ky, kz, sx, sy, sz = ray_frame(dx, dy, dz)
    ix, iy, iz, nx, ny, nz = _slab_frame(dx, dy, dz)
    o = (ox, oy, oz)
    frame[0] = ox
    frame[1] = oy
    frame[2] = oz
    frame[3] = ix
    frame[4] = iy
    frame[5] = iz
    frame[6] = o[kx]
    frame[7] = o[ky]
    frame[8] = o[kz]
    frame[9] = sx
    frame[10] = sy
    frame[11] = sz
    frame[12] = tmin
    axes[0] = kx
    axes[1] = ky
    axes[2] = kz
    axes[3] = nx
    axes[4] = ny
    axes[5] = nz


@inline_kernel
def _root_row(refs: np.ndarray) -> int:
    """The row a ray's walk starts at: the root's (the head row 0's only child) when the root
    is internal, else the head row. The head row's test is one box, the root's, which holds
    every box below it (each bound rounded outward, so the float32 boxes nest too): skipping
    it can only let a ray test boxes that the root's test would have spared it, and its
    answer, the nearest of the triangles it tests that it meets, is the same. It saves a row
    test for each ray that enters the root's box (`meshray13`)."""
    root = refs[0, TREE_REFS]
    return root if root > 0 else 0


@inline_kernel
def ray_step(packed: np.ndarray, tree: np.ndarray, refs: np.ndarray, order: np.ndarray,
             frame: np.ndarray, axes: np.ndarray, stack_ref: np.ndarray, stack_t: np.ndarray,
             entries: np.ndarray, ref: int, sp: int, limit: float, best_k: int
             ) -> tuple[int, int, float, int]:
    """One node of :func:`mesh_ray`'s walk of one ray (:func:`ray_begin`'s frame): node
    ``ref`` (:func:`_root_row` to begin) with ``sp`` children waiting on the stack, the reach
    ``limit`` (the ray's tmax to begin, then its best hit's t) and the best triangle so far
    ``best_k`` (-1: none); returns the next node's ``(ref, sp, limit, best_k)``, ``ref = 0``
    when the walk is done. A row's boxes are tested at once (:func:`_entry_row`), the
    children entered within the limit put on the stack sorted by entry t and asked for
    (:func:`_prefetch`), and the nearest is next; a leaf's triangles are tested eight at once
    (:func:`_leaf_nearest`), the limit shrinking to the best hit; then the last child put
    aside that is entered within the limit is next (those entered beyond it are dropped).
    One node a call, so that the batch (:func:`mesh_ray_range`) keeps several rays' walks
    in flight. Its stacks ``stack_ref, stack_t`` are (:data:`TREE_STACK_SIZE`,) int64 and
    float64, ``entries`` (:data:`TREE_WIDTH`,) float64 a row's scratch."""
    if ref >= 0:
        # an internal row: its children entered within the limit go on the stack, sorted,
        # and the nearest is next
        bits = _entry_row(tree, ref, entries, frame[0], frame[1], frame[2], frame[3],
                          frame[4], frame[5], axes[3], axes[4], axes[5], limit)
        base = sp
        # the boxes entered, lowest slot first (at most TREE_WIDTH), written out in both
        # walks: the same loop as one inline helper made this walk 1.8x slower on the
        # icosphere's lidar rays (1.41 against 0.78 us a ray, runs one after the other)
        for _ in range(TREE_WIDTH):
            if bits == 0:
                break
            s = _lowest_bit(bits)
            bits &= bits - 1
            sp = _push_sorted(stack_ref, stack_t, base, sp, refs[ref, TREE_REFS + s],
                              entries[s])
        if sp > base:
            # the children start loading, the nearest too: other walks may come before it
            for q in range(base, sp):
                _prefetch_child(packed, tree, order, stack_ref[q])
            sp -= 1
            return stack_ref[sp], sp, limit, best_k
    else:
        # a leaf: its block's lanes at once, the nearest of them (ties: smallest k)
        block = (-1 - ref) >> LEAF_COUNT_BITS
        t, lane = _leaf_nearest(packed, block, axes[0], axes[1], axes[2], frame[6], frame[7],
                                frame[8], frame[9], frame[10], frame[11], frame[12], limit)
        if t < math.inf:
            best_t = limit if best_k >= 0 else math.inf
            limit, best_k = _nearer(t, order[LEAF_LANES * block + lane], best_t, best_k)
    # the last child put aside that is entered within the limit, if any
    for _ in range(sp):
        sp -= 1
        if stack_t[sp] <= limit:
            return stack_ref[sp], sp, limit, best_k
    return 0, 0, limit, best_k


@inline_kernel
def _mesh_ray_walk(packed: np.ndarray, tree: np.ndarray, refs: np.ndarray, order: np.ndarray,
                   stack_ref: np.ndarray, stack_t: np.ndarray, entries: np.ndarray,
                   frame: np.ndarray, axes: np.ndarray, ox: float, oy: float, oz: float,
                   dx: float, dy: float, dz: float, tmin: float, tmax: float
                   ) -> tuple[float, int]:
    """:func:`mesh_ray` with its stacks given ((:data:`TREE_STACK_SIZE`,) int64 and
    float64), a row's entries' scratch ((:data:`TREE_WIDTH`,) float64) and the ray's frame
    (:func:`ray_begin`'s arrays): :func:`ray_step` to the end."""
    ray_begin(frame, axes, ox, oy, oz, dx, dy, dz, tmin)
    ref = _root_row(refs)
    sp = 0
    limit = tmax
    best_k = -1
    # each pass visits a row or a leaf, each at most once (a row has at most TREE_WIDTH
    # children)
    for _ in range(TREE_WIDTH * tree.shape[0] + 2):
        ref, sp, limit, best_k = ray_step(packed, tree, refs, order, frame, axes, stack_ref,
                                          stack_t, entries, ref, sp, limit, best_k)
        if ref == 0:
            break
    if best_k < 0:
        return MISS, -1
    return limit, best_k


@kernel
def mesh_ray(packed: np.ndarray, tree: np.ndarray, order: np.ndarray, ox: float, oy: float,
             oz: float, dx: float, dy: float, dz: float, tmin: float, tmax: float
             ) -> tuple[float, int]:
    """The nearest triangle of a mesh the ray ``o + t d`` (unit ``d``) meets with
    ``tmin < t <= tmax``: ``(t, k)`` (ties: smallest k), or ``(MISS, -1)``. Walks the mesh's
    eight-wide tree (:func:`flatten_tree`; boxes stored grown by the mesh's margin) front to
    back: a row's boxes tested at once (:func:`_entry_row`), the children entered put on
    the stack sorted by entry t and the nearest walked, the others prefetched; the reach
    shrinks to the best hit and what is entered beyond it is dropped. A leaf's triangles are
    tested eight at once (:func:`_leaf_nearest`); ``packed, order`` are
    :func:`pack_leaves`'."""
    # the stacks, with the ray's frame (ray_begin) after them: two arrays
    stack_ref = np.empty(TREE_STACK_SIZE + RAY_AXES_SIZE, np.int64)
    stack_t = np.empty(TREE_STACK_SIZE + TREE_WIDTH + RAY_FRAME_SIZE)
    # owner-less views (as in mesh_ray_range), the scratch's owners alive to the end
    ints = unowned(stack_ref)
    floats = unowned(stack_t)
    t, k = _mesh_ray_walk(unowned(packed), unowned(tree), unowned(tree_refs(tree)),
                          unowned(order), ints[:TREE_STACK_SIZE], floats[:TREE_STACK_SIZE],
                          floats[TREE_STACK_SIZE:TREE_STACK_SIZE + TREE_WIDTH],
                          floats[TREE_STACK_SIZE + TREE_WIDTH:], ints[TREE_STACK_SIZE:], ox,
                          oy, oz, dx, dy, dz, tmin, tmax)
    stack_ref[0] = 0
    stack_t[0] = 0.0
    return t, k


def _lane_box(builder: Any, start: Any, lanes: Any, limit: Any, col: Any) -> tuple[Any, Any]:
    """In an intrinsic's code: each packet ray's entry t into the box whose lo x plane is at
    column ``col`` of the tree row at ``start`` (the others every :data:`TREE_WIDTH` columns),
    and the mask of the rays that miss it; ``lanes`` the packet's origin and inverse rows
    (vectors), ``limit`` the reaches. :func:`_entries`' very operations, lane by lane."""
    width = PACKET_LANES
    f64 = llvm_ir.DoubleType()
    i64 = llvm_ir.IntType(64)

    def plane(at: Any) -> Any:
        x = builder.fpext(builder.load(builder.gep(start, [at])), f64)
        return _splat(builder, x, width)

    nought = _splat(builder, f64(0.0), width)
    tn = nought
    tf = limit
    for a in range(3):
        o = lanes[a]
        inv = lanes[3 + a]
        up = builder.fcmp_ordered(">=", inv, nought)
        lo = plane(builder.add(col, i64(TREE_WIDTH * a)))
        hi = plane(builder.add(col, i64(TREE_WIDTH * (3 + a))))
        enter = builder.select(up, lo, hi)
        leave = builder.select(up, hi, lo)
        near = builder.fmul(builder.fsub(enter, o), inv)
        far = builder.fmul(builder.fsub(leave, o), inv)
        tn = builder.select(builder.fcmp_ordered(">", near, tn), near, tn)
        tf = builder.select(builder.fcmp_ordered("<", far, tf), far, tf)
    return tn, builder.fcmp_ordered(">", tn, tf)


def _lane_rows(context: Any, builder: Any, aryty: Any, value: Any) -> list[Any]:
    """In an intrinsic's code: the first seven rows of a packet's lanes (:func:`packet_rays`)
    as vectors: origin, inverses, reach."""
    wide = llvm_ir.VectorType(llvm_ir.DoubleType(), PACKET_LANES)
    rows = []
    for r in range(7):
        at = _row_pointer(context, builder, aryty, value, context.get_constant(types.intp, r))
        rows.append(builder.load(builder.bitcast(at, wide.as_pointer()), align=8))
    return rows


def _packet_box_typer(typingctx: Any, tree: Any, row: Any, slot: Any, lanes: Any, out: Any
                      ) -> Any:
    """Entry t of each of a packet's :data:`PACKET_LANES` rays into box ``slot`` of a
    :func:`flatten_tree` row, against the rays in vector lanes, written to
    ``out[:PACKET_LANES]`` (inf: a miss); returns the mask of the rays that enter it (bit
    ``lane``). ``lanes`` is the packet's (:data:`PACKET_ROWS`, PACKET_LANES) float64 rays
    (:func:`packet_rays`): rows 0-2 the origins, 3-5 the direction's inverses, 6 the reach.
    Each lane does :func:`_entry_row_typer`'s very operations for its ray (the planes it
    enters by chosen by the sign of its inverse, as :func:`_slab_frame` chooses them), so
    each t equals the single ray's; a lane of reach -1 enters nothing."""
    sig = types.int64(tree, row, slot, lanes, out)

    def codegen(context: Any, builder: Any, signature: Any, args: Any) -> Any:
        width = PACKET_LANES
        start = _row_pointer(context, builder, signature.args[0], args[0], args[1])
        outty = signature.args[4]
        outary = context.make_array(outty)(context, builder, args[4])
        out_at = cgutils.get_item_pointer(context, builder, outty, outary,
                                          [context.get_constant(types.intp, 0)],
                                          wraparound=False)
        wide = llvm_ir.VectorType(llvm_ir.DoubleType(), width)
        rows = _lane_rows(context, builder, signature.args[3], args[3])
        inf = _splat(builder, llvm_ir.DoubleType()(math.inf), width)
        tn, missed = _lane_box(builder, start, rows, rows[6], args[2])
        builder.store(builder.select(missed, inf, tn), builder.bitcast(
            out_at, wide.as_pointer()), align=8)
        bits = builder.bitcast(builder.not_(missed), llvm_ir.IntType(width))
        return builder.zext(bits, llvm_ir.IntType(64))

    return sig, codegen


def _frustum_row_typer(typingctx: Any, tree: Any, row: Any, frustum: Any, out: Any, nx: Any,
                       ny: Any, nz: Any) -> Any:
    """Whether any ray of a packet from one origin whose inverses lie, axis by axis, between
    ``frustum[3 + a]`` and ``frustum[6 + a]`` (of one sign: the rays enter every box by the
    same planes, at the column offsets ``nx, ny, nz`` as :func:`_slab_frame`'s) may enter
    each box of a row within the reach ``frustum[9]``: the mask of those boxes (bit s: box
    s), and a lower bound of the rays' entries into each written to ``out[:TREE_WIDTH]``
    (inf where none enters). Conservative: a ray's near and far products ``(plane - o) inv``
    are rounded products of the same difference (the origin ``frustum[:3]`` is shared), which
    rounding keeps in the order of the inverses, so the least near and the greatest far are
    those of the two end inverses (a NaN, from an origin on a plane and an infinite
    inverse, clips nothing); every ray that enters a box by the single test then finds it
    entered here, at an entry no later than its own."""
    sig = types.int64(tree, row, frustum, out, nx, ny, nz)

    def codegen(context: Any, builder: Any, signature: Any, args: Any) -> Any:
        width = TREE_WIDTH
        start = _row_pointer(context, builder, signature.args[0], args[0], args[1])
        fty = signature.args[2]
        fary = context.make_array(fty)(context, builder, args[2])
        outty = signature.args[3]
        outary = context.make_array(outty)(context, builder, args[3])
        out_at = cgutils.get_item_pointer(context, builder, outty, outary,
                                          [context.get_constant(types.intp, 0)],
                                          wraparound=False)
        f64 = llvm_ir.DoubleType()
        wide = llvm_ir.VectorType(f64, width)
        wide32 = llvm_ir.VectorType(llvm_ir.FloatType(), width)
        i64 = llvm_ir.IntType(64)

        def value(k: int) -> Any:
            at = cgutils.get_item_pointer(context, builder, fty, fary,
                                          [context.get_constant(types.intp, k)],
                                          wraparound=False)
            return _splat(builder, builder.load(at), width)

        def planes(col: Any) -> Any:
            at = builder.bitcast(builder.gep(start, [col]), wide32.as_pointer())
            return builder.fpext(builder.load(at, align=4), wide)

        def clean(x: Any, bound: float) -> Any:
            return builder.select(builder.fcmp_unordered("uno", x, x),
                                  _splat(builder, f64(bound), width), x)

        tn = _splat(builder, f64(0.0), width)
        tf = value(9)
        offsets = args[4:7]
        for a in range(3):
            o = value(a)
            low = value(3 + a)
            high = value(6 + a)
            enter = builder.fsub(planes(builder.add(i64(width * a), offsets[a])), o)
            leave = builder.fsub(planes(builder.sub(i64(width * a + 3 * width), offsets[a])), o)
            n1 = clean(builder.fmul(enter, low), -math.inf)
            n2 = clean(builder.fmul(enter, high), -math.inf)
            f1 = clean(builder.fmul(leave, low), math.inf)
            f2 = clean(builder.fmul(leave, high), math.inf)
            near = builder.select(builder.fcmp_ordered("<", n1, n2), n1, n2)
            far = builder.select(builder.fcmp_ordered(">", f1, f2), f1, f2)
            tn = builder.select(builder.fcmp_ordered(">", near, tn), near, tn)
            tf = builder.select(builder.fcmp_ordered("<", far, tf), far, tf)
        missed = builder.fcmp_ordered(">", tn, tf)
        builder.store(builder.select(missed, _splat(builder, f64(math.inf), width), tn),
                      builder.bitcast(out_at, wide.as_pointer()), align=8)
        bits = builder.bitcast(builder.not_(missed), llvm_ir.IntType(width))
        return builder.zext(bits, i64)

    return sig, codegen


#: ``_packet_box(tree, row, slot, lanes, out)`` in compiled code: :func:`_packet_box_typer`'s
#: entries and mask.
_packet_box: Any = intrinsic(_packet_box_typer)
#: ``_frustum_row(tree, row, frustum, out, nx, ny, nz)`` in compiled code:
#: :func:`_frustum_row_typer`'s bounds and mask.
_frustum_row: Any = intrinsic(_frustum_row_typer)


def _lanes_within_typer(typingctx: Any, rows: Any, row: Any, lanes: Any) -> Any:
    """The mask of the lanes whose entry ``rows[row, lane]`` is within that ray's reach
    (``lanes[6, lane]``, :func:`packet_rays`): one vector comparison."""
    sig = types.int64(rows, row, lanes)

    def codegen(context: Any, builder: Any, signature: Any, args: Any) -> Any:
        wide = llvm_ir.VectorType(llvm_ir.DoubleType(), PACKET_LANES)
        at = _row_pointer(context, builder, signature.args[0], args[0], args[1])
        entry = builder.load(builder.bitcast(at, wide.as_pointer()), align=8)
        reach = _lane_rows(context, builder, signature.args[2], args[2])[6]
        within = builder.fcmp_ordered("<=", entry, reach)
        return builder.zext(builder.bitcast(within, llvm_ir.IntType(PACKET_LANES)),
                            llvm_ir.IntType(64))

    return sig, codegen


def _active_frustum_typer(typingctx: Any, lanes: Any, active: Any, frustum: Any) -> Any:
    """The frustum (:func:`packet_rays`) of the lanes of the mask ``active`` (not 0) alone,
    written to ``frustum[3:10]``: the least and greatest inverse of each axis and the greatest
    reach (``lanes[3:7, lane]``) over those lanes, by selects and halving shuffles. Bounds
    over fewer rays are still bounds for them (:func:`_frustum_row_typer`), and a row's boxes
    are tested only for the rays of ``active``."""
    sig = types.void(lanes, active, frustum)

    def codegen(context: Any, builder: Any, signature: Any, args: Any) -> Any:
        f64 = llvm_ir.DoubleType()
        rows = _lane_rows(context, builder, signature.args[0], args[0])
        bits = builder.trunc(args[1], llvm_ir.IntType(PACKET_LANES))
        mask = builder.bitcast(bits, llvm_ir.VectorType(llvm_ir.IntType(1), PACKET_LANES))
        fty = signature.args[2]
        fary = context.make_array(fty)(context, builder, args[2])

        def store(k: int, x: Any) -> None:
            builder.store(x, cgutils.get_item_pointer(
                context, builder, fty, fary, [context.get_constant(types.intp, k)],
                wraparound=False))

        def fold(row: Any, keep: str, other: float) -> Any:
            kept = builder.select(mask, row, _splat(builder, f64(other), PACKET_LANES))
            return _fold(builder, kept, PACKET_LANES, keep)

        for a in range(3):
            store(3 + a, fold(rows[3 + a], "<", math.inf))
            store(6 + a, fold(rows[3 + a], ">", -math.inf))
        store(9, fold(rows[6], ">", -1.0))
        return context.get_dummy_value()

    return sig, codegen


#: ``_lanes_within(rows, row, lanes)`` in compiled code: :func:`_lanes_within_typer`'s mask.
_lanes_within: Any = intrinsic(_lanes_within_typer)
#: ``_active_frustum(lanes, active, frustum)`` in compiled code: :func:`_active_frustum_typer`'s
#: bounds.
_active_frustum: Any = intrinsic(_active_frustum_typer)


# ---------------------------------------------------------------------------------------------
# ray packets: rays from one origin walked together

#: Rays a packet walks together (:func:`packet_step`): one box tested against them all
#: at once, eight float64 lanes (one AVX-512 register).
PACKET_LANES = 8
#: Rows of a packet's rays (:func:`packet_rays`): origin (3), the direction's inverses (3),
#: reach (1), direction (3), the origin permuted into the ray's frame (3), the shear (3).
PACKET_ROWS = 16
#: Entries of a packet's frustum (:func:`packet_rays`): origin (3), least and greatest
#: inverse of each axis (6), greatest reach (1).
FRUSTUM_SIZE = 10


@inline_kernel
def packet_rays(rays: np.ndarray, first: int, count: int, lanes: np.ndarray,
                frames: np.ndarray, frustum: np.ndarray) -> bool:
    """Fill a packet's lanes from the rows ``first .. first+count-1`` of a block of rays
    (:func:`mesh_ray_range`'s: unit direction, origin, reach), which share their origin:
    ``lanes`` (:data:`PACKET_ROWS`, :data:`PACKET_LANES`) float64 as :func:`_packet_row_typer`
    and the leaf test read them, ``frames`` (4, PACKET_LANES) int64 the axes of each ray's
    frame (:func:`ray_frame`) and, in ``frames[3, :3]``, the column offsets of the planes
    the rays enter by (:func:`_slab_frame`'s), and ``frustum`` (:data:`FRUSTUM_SIZE`,)
    float64 the origin, the least and greatest inverse of each axis and the greatest reach
    (:func:`_frustum_row_typer`). Whether the rays enter boxes by the same planes on every
    axis (then the frustum test applies). A lane past ``count`` gets reach -1, which enters
    no box."""
    same = True
    for a in range(3):
        frustum[a] = rays[first, 3 + a]
        frustum[3 + a] = math.inf
        frustum[6 + a] = -math.inf
    frustum[9] = -1.0
    for lane in range(PACKET_LANES):
        if lane >= count:
            for q in range(PACKET_ROWS):
                lanes[q, lane] = 0.0
            for a in range(3):
                lanes[3 + a, lane] = 1.0
                frames[a, lane] = a
            lanes[6, lane] = -1.0
            continue
        j = first + lane
        dx = rays[j, 0]
        dy = rays[j, 1]
        dz = rays[j, 2]
        o = (rays[j, 3], rays[j, 4], rays[j, 5])
        kx, ky, kz, sx, sy, sz = ray_frame(dx, dy, dz)
        ix, iy, iz, nx, ny, nz = _slab_frame(dx, dy, dz)
        if lane == 0:
            frames[3, 0] = nx
            frames[3, 1] = ny
            frames[3, 2] = nz
        elif nx != frames[3, 0] or ny != frames[3, 1] or nz != frames[3, 2]:
            same = False
        lanes[0, lane] = o[0]
        lanes[1, lane] = o[1]
        lanes[2, lane] = o[2]
        lanes[3, lane] = ix
        lanes[4, lane] = iy
        lanes[5, lane] = iz
        lanes[6, lane] = rays[j, 6]
        lanes[7, lane] = dx
        lanes[8, lane] = dy
        lanes[9, lane] = dz
        lanes[10, lane] = o[kx]
        lanes[11, lane] = o[ky]
        lanes[12, lane] = o[kz]
        lanes[13, lane] = sx
        lanes[14, lane] = sy
        lanes[15, lane] = sz
        frames[0, lane] = kx
        frames[1, lane] = ky
        frames[2, lane] = kz
        for a in range(3):
            frustum[3 + a] = min(frustum[3 + a], lanes[3 + a, lane])
            frustum[6 + a] = max(frustum[6 + a], lanes[3 + a, lane])
        frustum[9] = max(frustum[9], rays[j, 6])
    return same


@inline_kernel
def _one_origin(rays: np.ndarray, first: int, count: int) -> bool:
    """Whether the rows ``first .. first+count-1`` of a block of rays share their origin."""
    for j in range(first + 1, first + count):
        if (rays[j, 3] != rays[first, 3] or rays[j, 4] != rays[first, 4]
                or rays[j, 5] != rays[first, 5]):
            return False
    return True


#: Rows of a lidar's head (:func:`origin_head`) for each octant of directions: the boxes
#: below the rows that hold the origin, those rays of that octant may enter, eight a row.
HEAD_ROWS = 4
#: A reference at or above this is row ``ref - HEAD_REF`` of the head (:func:`origin_head`),
#: not a row of the tree (whose rows number below 2^30: int32 references).
HEAD_REF = 1 << 30
#: Rows holding the origin that :func:`origin_head` opens at most (a loop cap; more: no head).
HEAD_OPEN_ROWS = 64


@inline_kernel
def origin_head(tree: np.ndarray, ox: float, oy: float, oz: float, head: np.ndarray,
                head_rows: np.ndarray, todo: np.ndarray) -> None:
    """The head of the packets from the origin ``(ox, oy, oz)`` (a lidar's): every row of the
    tree whose box holds the origin (in its float32 bounds, inclusive; row 0 included) is
    opened by every ray from there, at entry 0, whatever its direction and reach, so a walk
    may start from their children that do not hold it instead. For each octant ``q`` of
    directions (bit a set: the rays enter boxes by the hi planes on axis a, as
    :func:`_slab_frame`'s offsets), those children some ray of the octant may enter (not
    wholly behind the origin on an axis: a box with ``hi < o`` on an axis the rays move up,
    or ``lo > o`` on one they move down, is never entered, a nonzero difference times an
    inverse of magnitude at least 1 staying negative) are copied, boxes and references, into
    ``head`` rows ``HEAD_ROWS q ..`` (:data:`TREE_COLUMNS` float32, the tree's layout), and
    ``head_rows[q]`` is how many: -1 for every octant when the rows holding the origin or an
    octant's children are more than :data:`HEAD_OPEN_ROWS` or :data:`HEAD_ROWS` rows hold
    (the packets then start at row 0). ``todo`` (:data:`HEAD_OPEN_ROWS`,) int64 scratch."""
    refs = tree_refs(tree)
    head_refs = tree_refs(head)
    width = TREE_WIDTH
    origin = (ox, oy, oz)
    for r in range(head.shape[0]):
        for s in range(width):
            _empty_slot(head, head_refs, r, s)
    filled = np.zeros(8, np.int64)
    todo[0] = 0
    waiting = 1
    opened = 0
    for _ in range(HEAD_OPEN_ROWS):
        if waiting == 0:
            break
        waiting -= 1
        row = todo[waiting]
        opened += 1
        for s in range(width):
            ref = refs[row, TREE_REFS + s]
            if ref == -1:
                continue
            holds = True
            for a in range(3):
                if not (tree[row, width * a + s] <= origin[a] <= tree[row, width * (3 + a) + s]):
                    holds = False
            if holds and ref >= 1:
                if waiting == HEAD_OPEN_ROWS:
                    opened = HEAD_OPEN_ROWS + 1
                    break
                todo[waiting] = ref
                waiting += 1
                continue
            for q in range(8):
                behind = False
                for a in range(3):
                    if (q >> a) & 1:
                        behind = behind or tree[row, width * a + s] > origin[a]
                    else:
                        behind = behind or tree[row, width * (3 + a) + s] < origin[a]
                if behind:
                    continue
                if filled[q] == HEAD_ROWS * width:
                    opened = HEAD_OPEN_ROWS + 1
                    break
                at = HEAD_ROWS * q + filled[q] // width
                slot = filled[q] % width
                for c in range(6):
                    head[at, width * c + slot] = tree[row, width * c + s]
                head_refs[at, TREE_REFS + slot] = ref
                filled[q] += 1
    for q in range(8):
        head_rows[q] = (filled[q] + width - 1) // width
        if waiting > 0 or opened > HEAD_OPEN_ROWS:
            head_rows[q] = -1


@inline_kernel
def packet_begin(count: int, best_t: np.ndarray, best_k: np.ndarray) -> int:
    """Start a packet's walk (:func:`packet_step`) of ``count`` rays: every ray's best hit
    none yet; returns the mask of its rays."""
    for lane in range(PACKET_LANES):
        best_t[lane] = math.inf
        best_k[lane] = -1
    return (1 << count) - 1


@inline_kernel
def _packet_head(tree: np.ndarray, rays: np.ndarray, first: int, frames: np.ndarray,
                 head: np.ndarray, head_rows: np.ndarray, head_origin: np.ndarray,
                 todo: np.ndarray, pack_ref: np.ndarray, pack_mask: np.ndarray,
                 pack_t: np.ndarray, pack_e: np.ndarray, active: int) -> tuple[int, int]:
    """Where a packet from the origin of ray ``first`` (:func:`packet_rays`' ``frames``
    filled) starts its walk: ``(ref, sp)``, its octant's first head row (:func:`origin_head`,
    built again when the origin is not ``head_origin``'s) with the octant's other head rows
    waiting on its stack (every ray of ``active``, entry 0), or ``(0, 0)``, the tree's row
    0, when the origin has no head."""
    o = (rays[first, 3], rays[first, 4], rays[first, 5])
    if o[0] != head_origin[0] or o[1] != head_origin[1] or o[2] != head_origin[2]:
        origin_head(tree, o[0], o[1], o[2], head, head_rows, todo)
        for a in range(3):
            head_origin[a] = o[a]
    q = 0
    for a in range(3):
        if frames[3, a] != 0:
            q |= 1 << a
    rows = head_rows[q]
    if rows <= 0:
        return 0, 0
    # the octant's last head rows wait, its first is walked now
    sp = 0
    for h in range(rows - 1, 0, -1):
        pack_ref[sp] = HEAD_REF + HEAD_ROWS * q + h
        pack_mask[sp] = active
        pack_t[sp] = 0.0
        for lane in range(PACKET_LANES):
            pack_e[sp, lane] = 0.0
        sp += 1
    return HEAD_REF + HEAD_ROWS * q, sp


@inline_kernel
def packet_step(packed: np.ndarray, tree: np.ndarray, refs: np.ndarray, order: np.ndarray,
                lanes: np.ndarray, frames: np.ndarray, frustum: np.ndarray,
                best_t: np.ndarray, best_k: np.ndarray, staging: np.ndarray,
                entries: np.ndarray, pack_ref: np.ndarray, pack_mask: np.ndarray,
                pack_t: np.ndarray, pack_e: np.ndarray, ref: int, active: int, sp: int,
                head: np.ndarray, head_refs: np.ndarray) -> tuple[int, int, int]:
    """One node of :func:`mesh_ray`'s walk for the rays of a packet (:func:`packet_rays`: one
    origin, every ray entering boxes by the same planes) walked together: node ``ref`` (to
    begin, after :func:`packet_begin`: :func:`_packet_head`'s, the first head row of the
    packet's octant (:func:`origin_head`), or 0, the tree's head row; a reference from
    :data:`HEAD_REF` on is a row of ``head``, whose int32 view is ``head_refs``) for the rays of
    the mask ``active``, the packet's stack holding ``sp`` children; returns the next node's
    ``(ref, active, sp)``, ``ref = 0`` when the walk is done. Each ray's ``(t, k)`` is then in
    ``best_t[lane], best_k[lane]``: the same answer as its own walk (the nearest triangle met
    within its reach, ties the smallest k), found in another order. A row's boxes are tested
    against the frustum of the rays still active at once (:func:`_active_frustum`,
    :func:`_frustum_row`), then each box it may enter against every ray of the packet
    (:func:`_packet_box`); a child goes on the stack with the
    mask of the rays that enter it within their reach and their entries, nearest (by its first
    such ray) on top, and starts loading (:func:`_prefetch`); a leaf is tested for each ray of
    its mask (:func:`_leaf_nearest`), each ray's reach shrinking to its best hit; a child taken
    off the stack keeps the rays whose entry is still within their reach, and is dropped when
    none is left. Why the answers are the same: each box holds its triangles, a ray's entry into
    a box is never after its hit on a triangle inside, and a ray's reach never falls below its
    best hit, so no triangle a ray meets before its best hit is culled, whatever the order.

    One node a call, so that the batch (:func:`mesh_ray_range`) keeps several packets'
    walks in flight, a node of each in turn: each node's rows were asked for when it was
    pushed, and arrive while the other packets' nodes are walked
    (:data:`~swept.constants.WALKS_IN_FLIGHT`).

    The frustum of the active rays (`meshray10`): on bench_mesh's icosphere lidar (100,000
    rays) the rows' box tests against the lanes fell from 541,924 to 400,697 (those that no
    active ray enters from 224,891 to 83,664); the 192,107 rows are the same (docs/level.md
    for the times, and a lone ray's boxes taken from its frustum, tried and not kept).

    Measured (bench_mesh's lidars, 100,000 rays, one thread, CPU time, the batch with and
    without packets alternated in one process, medians of 9 paired ratios, load 3-7): 1.12x,
    1.16x and 1.17x faster on the terrain, 0.98x, 0.99x and 1.00x on the icosphere (the same
    within the noise), with or without the rays that part walking on alone below (each alone
    where fewer than 3 enter a row: the same, so none does); testing every box of a row
    against every ray (no frustum) was 0.86-0.99x over four runs, the frustum alone (a
    row's rays all kept, a leaf's tested ray by ray) 0.85x and 0.79x. Per packet on the
    icosphere: 22.9 rows against the frustum and 59 boxes against the rays, against 120
    rows for its eight rays alone (the terrain: 8.3 and 22 against 41); the same leaves.
    With several walks in flight the packets pay on the icosphere too: its lidar took 0.67
    and 0.69 us a ray in packets against 0.84 and 0.85 as single rays, four and eight walks
    in flight (one process, load 5.6, before a leaf's whole block was asked for).

    The head (:func:`origin_head`): from the icosphere's centre every ray opens the same 10
    rows (row 0 included: their boxes hold the origin, which lies on the top rows' split
    planes) of the 15.1 its walk opens alone; their 64 children that do not hold it fill 3
    head rows an octant, which a packet walks instead. Off the centre (by (1.3, 2.7, -0.9))
    4 of 10.4 rows, 1-2 head rows. Measured (bench_mesh's 100,000 rays, the batch kernel
    before and after alternated in one process, one thread, CPU time, medians of 15 paired
    ratios, two runs at load 10-14): the icosphere's lidar 1.090x and 1.063x faster, off
    its centre 1.026x and 1.022x, the other sets 0.98-1.04x (docs/level.md); every answer
    equal.

    Inlined into its one caller, :func:`mesh_ray_range` (as a callee, its call passed some
    fifteen arrays a packet: inlined, 1.035x and 1.040x faster on the terrain's lidar in two
    paired runs, the icosphere's 1.00x and 1.02x, the incoherent rays, which do not use it,
    0.97-1.01x).

    Scratch, shared by the packets: ``staging`` (:data:`TREE_WIDTH`,) int64 (the order of a
    row's children); ``entries`` (:data:`TREE_WIDTH` (1 + PACKET_LANES),)
    float64. The packet's own stack: ``pack_ref, pack_mask, pack_t``
    (TREE_STACK_SIZE,) int64, int64, float64 and ``pack_e`` (TREE_STACK_SIZE,
    :data:`PACKET_LANES`) float64."""
    if ref >= 0:
        # a row of the tree, or of the head (origin_head) the packet starts from
        rows = tree
        row_refs = refs
        row = ref
        if ref >= HEAD_REF:
            rows = head
            row_refs = head_refs
            row = ref - HEAD_REF
        # the boxes some active ray may enter (the frustum of those rays alone), then each
        # against every ray
        _active_frustum(lanes, active, frustum)
        boxes = _frustum_row(rows, row, frustum, entries, frames[3, 0], frames[3, 1],
                             frames[3, 2])
        n = 0
        for _ in range(TREE_WIDTH):
            if boxes == 0:
                break
            s = _lowest_bit(boxes)
            boxes &= boxes - 1
            staged = TREE_WIDTH + PACKET_LANES * n
            m = _packet_box(rows, row, s, lanes, entries[staged:]) & active
            if m == 0:
                continue
            t = entries[staged + _lowest_bit(m)]
            # among the children so far, by decreasing entry (the nearest on top)
            pos = sp + n
            for _ in range(n):
                if pack_t[pos - 1] >= t:
                    break
                pack_t[pos] = pack_t[pos - 1]
                pack_ref[pos] = pack_ref[pos - 1]
                pack_mask[pos] = pack_mask[pos - 1]
                staging[pos - sp] = staging[pos - sp - 1]
                pos -= 1
            pack_t[pos] = t
            pack_ref[pos] = row_refs[row, TREE_REFS + s]
            pack_mask[pos] = m
            staging[pos - sp] = staged
            n += 1
        for q in range(n):
            staged = staging[q]
            for lane in range(PACKET_LANES):
                pack_e[sp + q, lane] = entries[staged + lane]
        sp += n
        # the children start loading, the nearest too: the other packets' nodes are walked
        # before it
        for q in range(sp - n, sp):
            _prefetch_child(packed, tree, order, pack_ref[q])
    else:
        # a leaf: its triangles against each ray of the mask
        block = (-1 - ref) >> LEAF_COUNT_BITS
        bits = active
        for _ in range(PACKET_LANES):
            if bits == 0:
                break
            lane = _lowest_bit(bits)
            bits &= bits - 1
            t, hit = _leaf_nearest(packed, block, frames[0, lane], frames[1, lane],
                                   frames[2, lane], lanes[10, lane], lanes[11, lane],
                                   lanes[12, lane], lanes[13, lane], lanes[14, lane],
                                   lanes[15, lane], -1.0, lanes[6, lane])
            if t < math.inf:
                best_t[lane], best_k[lane] = _nearer(
                    t, order[LEAF_LANES * block + hit], best_t[lane], best_k[lane])
                lanes[6, lane] = best_t[lane]
    # the last child put aside that a ray still enters within its reach, if any
    for _ in range(sp):
        sp -= 1
        keep = pack_mask[sp] & _lanes_within(pack_e, sp, lanes)
        if keep != 0:
            return pack_ref[sp], keep, sp
    return 0, active, 0


@inline_kernel
def _unit_direction(directions: np.ndarray, r: int) -> tuple[float, float, float]:
    """Row r of ``directions`` divided by its length (nonzero: :func:`check_rays`)."""
    dx = directions[r, 0]
    dy = directions[r, 1]
    dz = directions[r, 2]
    length = math.sqrt(dx * dx + dy * dy + dz * dz)
    return dx / length, dy / length, dz / length


@inline_kernel
def _write_hit(r: int, t: float, k: int, ox: float, oy: float, oz: float, ux: float,
               uy: float, uz: float, out: tuple[np.ndarray, np.ndarray, np.ndarray, np.ndarray]
               ) -> None:
    """Row r of a batch's distance, triangle and point: inf, -1 and zeros on a miss (k < 0),
    else t, k and the hit point ``o + t u`` (the normals: :func:`_write_normals`)."""
    out_t, out_k, out_point, _n = out
    out_k[r] = k
    if k < 0:
        out_t[r] = math.inf
        for a in range(3):
            out_point[r, a] = 0.0
        return
    out_t[r] = t
    out_point[r, 0] = ox + t * ux
    out_point[r, 1] = oy + t * uy
    out_point[r, 2] = oz + t * uz


@inline_kernel
def _write_normal(r: int, k: int, ux: float, uy: float, uz: float, normals: np.ndarray,
                  out: tuple[np.ndarray, np.ndarray, np.ndarray, np.ndarray]) -> None:
    """Row r of a batch's normals, for a ray along the unit ``u`` that hit triangle k (k < 0:
    a miss): the triangle's face normal turned against the ray, zeros on a miss."""
    out_normal = out[3]
    if k < 0:
        for a in range(3):
            out_normal[r, a] = 0.0
        return
    nx = normals[k, 0]
    ny = normals[k, 1]
    nz = normals[k, 2]
    s = -1.0 if nx * ux + ny * uy + nz * uz > 0.0 else 1.0
    # + 0.0: no negative zeros
    out_normal[r, 0] = nx * s + 0.0
    out_normal[r, 1] = ny * s + 0.0
    out_normal[r, 2] = nz * s + 0.0


@inline_kernel
def _write_normals(start: int, stop: int, walk: np.ndarray, directions: np.ndarray,
                   normals: np.ndarray,
                   out: tuple[np.ndarray, np.ndarray, np.ndarray, np.ndarray]) -> None:
    """The normals (:func:`_write_normal`) of the rays ``start .. stop-1`` of the walk order
    (:func:`_ray_at`), from their rows of ``out``'s triangles: a pass of its own after the
    rays (the height field's batch)."""
    out_k = out[1]
    for i in range(start, stop):
        r = _ray_at(walk, i)
        k = out_k[r]
        if k < 0:
            _write_normal(r, k, 0.0, 0.0, 0.0, normals, out)
            continue
        ux, uy, uz = _unit_direction(directions, r)
        _write_normal(r, k, ux, uy, uz, normals, out)


@inline_kernel
def _prefetch_normal(normals: np.ndarray, k: int) -> None:
    """Ask for the normal of triangle k (none when k < 0, a miss) when its ray's walk ends:
    it is read when the ray's answer is written out, after the rest of its block of rays is
    walked, and the normals a block's rays hit lie scattered over the mesh."""
    if k >= 0:
        _prefetch_point(normals, k)


@inline_kernel
def _prefetch_ray(walk: np.ndarray, i: int, origins: np.ndarray, directions: np.ndarray,
                  tmax: np.ndarray) -> None:
    """Ask for the rows of the i-th ray walked (``walk[i]``, :func:`ray_order`): its origin,
    direction and reach, read :data:`RAY_AHEAD` rays later."""
    r = walk[i]
    _prefetch_point(origins, r)
    _prefetch_point(directions, r)
    _prefetch_item(tmax, r)


@inline_kernel
def _unowned_batch(normals: np.ndarray, origins: np.ndarray, directions: np.ndarray,
                   tmax: np.ndarray,
                   out: tuple[np.ndarray, np.ndarray, np.ndarray, np.ndarray]
                   ) -> tuple[np.ndarray, np.ndarray, np.ndarray, np.ndarray,
                              tuple[np.ndarray, np.ndarray, np.ndarray, np.ndarray]]:
    """A ray batch's arrays (the surface's normals, the rays, the outputs) as owner-less views
    (:func:`swept._kernels.world.unowned`: passed on, they reference-count nothing), valid
    while the batch kernel's caller holds the arrays."""
    return (unowned(normals), unowned(origins), unowned(directions), unowned(tmax),
            (unowned(out[0]), unowned(out[1]), unowned(out[2]), unowned(out[3])))


#: How many rays ahead of the one copied a batch's copy loop asks for a ray's rows
#: (:func:`_prefetch_ray`): rows read in walk order lie scattered over the batch's arrays.
#: Measured (bench_mesh --quick's icosphere, 20,000 rays, one thread, CPU time, alternated in
#: one process, load 9): 8 and 32 ran 1.01x and 1.02x as fast as 16 on the lidar, 0.98x and
#: 1.02x on the incoherent rays (the same within the noise; so did blocks of 128 and 512 rays,
#: :data:`~swept.constants.RAY_BLOCK`, with it: 1.01x and 0.99x, 0.99x and 0.99x).
RAY_AHEAD = 16


@inline_kernel
def _ray_at(walk: np.ndarray, i: int) -> int:
    """The row of the i-th ray walked: ``walk[i]`` (:func:`ray_order`), or i when ``walk`` is
    empty (the batch's own order)."""
    if walk.shape[0] == 0:
        return i
    return walk[i]


@inline_kernel
def _spread_bits(x: int) -> int:
    """The low 21 bits of ``x`` spread three apart (bit b to bit 3 b): one axis of a Morton
    code, by five masked shifts."""
    x &= 0x1FFFFF
    x = (x | (x << 32)) & 0x1F00000000FFFF
    x = (x | (x << 16)) & 0x1F0000FF0000FF
    x = (x | (x << 8)) & 0x100F00F00F00F00F
    x = (x | (x << 4)) & 0x10C30C30C30C30C3
    x = (x | (x << 2)) & 0x1249249249249249
    return x


assert RAY_ORDER_BITS <= 21


def _hilbert_steps(levels: int) -> np.ndarray:
    """The table :func:`_hilbert` reads ``levels`` levels of the curve a step from: entry
    ``(state << 2 levels) | (x bits << levels) | y bits`` is the index's ``2 levels`` bits
    for those bits of x and y, with the frame's new state above them. A state is the frame
    the curve has turned to: bit 0 both axes mirrored, bit 1 transposed. At a level, the
    quadrant seen in that frame gives two bits of the index; a lower quadrant transposes
    the frame, its right one mirrors it too."""
    table = np.empty(4 << (2 * levels), np.int64)
    for state in range(4):
        for bits in range(1 << (2 * levels)):
            x = bits >> levels
            y = bits & ((1 << levels) - 1)
            flip = state & 1
            turn = state >> 1
            code = 0
            for level in range(levels - 1, -1, -1):
                bx = ((x >> level) & 1) ^ flip
                by = ((y >> level) & 1) ^ flip
                swap = (bx ^ by) & turn
                rx = bx ^ swap
                ry = by ^ swap
                code = (code << 2) | ((3 * rx) ^ ry)
                turn ^= 1 - ry
                flip ^= (1 - ry) & rx
            table[(state << (2 * levels)) | bits] = code | ((flip | (turn << 1)) << (2 * levels))
    return table


#: Levels of the Hilbert curve :func:`_hilbert` takes a step (a table of 4 x 2^(2 this)).
HILBERT_LEVELS = 2
#: :func:`_hilbert_steps`' table, a compile-time constant of the kernels.
HILBERT_STEPS = _hilbert_steps(HILBERT_LEVELS)
assert RAY_ORDER_BITS % HILBERT_LEVELS == 0


@inline_kernel
def _hilbert(x: int, y: int) -> int:
    """The index of the cell ``(x, y)`` along the Hilbert curve over a square of
    ``2^RAY_ORDER_BITS`` cells a side (x, y in ``[0, 2^RAY_ORDER_BITS)``): consecutive indices
    are neighbouring cells, and any run of the curve stays compact (a Morton curve jumps
    across the square between its quadrants). :data:`HILBERT_LEVELS` levels a step, from
    the highest, each a lookup in :data:`HILBERT_STEPS` by the frame so far and the bits of
    x and y (measured, a 100,000-ray lidar's order: a branch a level cost 0.06 us a ray, the
    same in branch-free bit operations 0.026, more than the order gains)."""
    steps = HILBERT_STEPS
    width = 2 * HILBERT_LEVELS
    low = (1 << HILBERT_LEVELS) - 1
    code = 0
    state = 0
    for step in range(RAY_ORDER_BITS // HILBERT_LEVELS - 1, -1, -1):
        shift = HILBERT_LEVELS * step
        entry = steps[(state << width) | (((x >> shift) & low) << HILBERT_LEVELS)
                      | ((y >> shift) & low)]
        code = (code << width) | (entry & ((1 << width) - 1))
        state = entry >> width
    return code


@inline_kernel
def _direction_code(dx: float, dy: float, dz: float) -> int:
    """The code a one-origin batch's ray of direction ``d`` (not zero) is walked in the
    order of (:func:`ray_order`): its octant (the signs of x, y, z as bits 2, 1, 0) above
    the :func:`_hilbert` index of its point on that octant's face of the octahedron
    ``|x| + |y| + |z| = 1`` (the face's x and z, in [0, 1], cut into ``2^RAY_ORDER_BITS``
    steps; the direction's length cancels). A run of rays in this order spans a compact cone
    of directions, all of one octant (they then enter boxes by the same planes: one packet,
    :func:`packet_rays`). Measured (bench_mesh's icosphere lidar, 100,000 rays, one thread,
    CPU time, one process, load 6): 8 consecutive rays' widest angle from their mean, median
    and 90th percentile, 1.72 and 4.16 degrees in the Morton order of the unit directions,
    1.40 and 1.84 in this one; the walk 0.578 -> 0.554 us a ray, the same answers."""
    steps = 2 ** RAY_ORDER_BITS - 1
    ax = abs(dx)
    az = abs(dz)
    # (each ratio within [0, 1]: its step at most the last)
    scale = steps / (ax + abs(dy) + az)
    x = min(int(ax * scale), steps)
    y = min(int(az * scale), steps)
    octant = (4 if dx < 0.0 else 0) | (2 if dy < 0.0 else 0) | (1 if dz < 0.0 else 0)
    return (octant << (2 * RAY_ORDER_BITS)) | _hilbert(x, y)


# (a direction's code fits the counting sort's two halves of 3 RAY_ORDER_BITS + 1 bits)
assert 2 * RAY_ORDER_BITS + 3 <= 3 * RAY_ORDER_BITS + 1


@kernel
def ray_order(origins: np.ndarray, directions: np.ndarray) -> np.ndarray:
    """The order to walk a ray batch in: its rows sorted by the Morton code of their origins
    (each axis cut into ``2^RAY_ORDER_BITS`` steps over the origins' box; ties keep the
    batch's order), so that rays from nearby points follow one another through the tree's
    nodes while those are in cache; when every origin is the same point (a lidar), by
    :func:`_direction_code` (the octant, then a Hilbert curve over the octant's face of the
    octahedron), so that rays of nearby directions follow one another in compact runs. An
    empty array (walk in the batch's own order) for fewer than ``RAY_ORDER_MIN_RAYS`` rays,
    or when every ray has the same code.
    Two stable counting sorts, by the low then the high half of the code: linear in the
    rays (the codes and both halves' bucket sizes in one pass, each code carried beside its
    row through the first sort: against a bit-by-bit interleave and the codes read back in
    walk order, 0.040 -> 0.035 us a ray on 100,000 incoherent rays, 0.053 -> 0.047 on a
    lidar, the same order). The measurements are at
    :data:`~swept.constants.RAY_ORDER_BITS`."""
    n = origins.shape[0]
    if n < RAY_ORDER_MIN_RAYS:
        return np.empty(0, np.int64)
    lo = np.empty(3)
    scale = np.empty(3)
    for a in range(3):
        low = origins[0, a]
        high = origins[0, a]
        for r in range(n):
            low = min(low, origins[r, a])
            high = max(high, origins[r, a])
        lo[a] = low
        # (o - lo) * scale in [0, 2^bits - 1]; a flat axis gives every origin step 0 there.
        # The span is divided first: origins within MAX_COORDINATE, high - low stays finite
        scale[a] = (2 ** RAY_ORDER_BITS - 1) / (high - low) if high > low else 0.0
    one_origin = scale[0] == 0.0 and scale[1] == 0.0 and scale[2] == 0.0
    half = (3 * RAY_ORDER_BITS + 1) // 2
    mask = (1 << half) - 1
    codes = np.empty(n, np.int64)
    # each half's bucket sizes, counted in the same pass as the codes
    count_low = np.zeros((1 << half) + 1, np.int64)
    count_high = np.zeros((1 << half) + 1, np.int64)
    same = True
    for r in range(n):
        if one_origin:
            code = _direction_code(directions[r, 0], directions[r, 1], directions[r, 2])
        else:
            # bit b of axis a's step goes to bit 3 b + 2 - a of the code (x first)
            code = ((_spread_bits(int((origins[r, 0] - lo[0]) * scale[0])) << 2)
                    | (_spread_bits(int((origins[r, 1] - lo[1]) * scale[1])) << 1)
                    | _spread_bits(int((origins[r, 2] - lo[2]) * scale[2])))
        codes[r] = code
        same = same and code == codes[0]
        count_low[(code & mask) + 1] += 1
        count_high[(code >> half) + 1] += 1
    if same:
        return np.empty(0, np.int64)
    for b in range(1 << half):
        count_low[b + 1] += count_low[b]
        count_high[b + 1] += count_high[b]
    # stably by the low half, each code carried beside its row (read in sequence), then
    # stably by the high half
    middle = np.empty(n, np.int64)
    middle_code = np.empty(n, np.int64)
    for r in range(n):
        bucket = codes[r] & mask
        middle[count_low[bucket]] = r
        middle_code[count_low[bucket]] = codes[r]
        count_low[bucket] += 1
    walk = np.empty(n, np.int64)
    for i in range(n):
        bucket = middle_code[i] >> half
        walk[count_high[bucket]] = middle[i]
        count_high[bucket] += 1
    return walk


#: :func:`check_rays`' verdicts: an origin, a direction not finite or beyond the coordinate
#: limit, a zero direction, a reach that is NaN or negative.
RAYS_OK, RAYS_BAD_ORIGIN, RAYS_BAD_DIRECTION, RAYS_ZERO_DIRECTION, RAYS_BAD_REACH = 0, 1, 2, 3, 4


@kernel
def check_rays(origins: np.ndarray, directions: np.ndarray, tmax: np.ndarray, limit: float
               ) -> tuple[int, int]:
    """The first fault of a ray batch and its row, each kind over every row before the next
    kind: origins (finite, within ``limit``), directions (likewise), directions not zero,
    reaches (not NaN, >= 0); ``(RAYS_OK, -1)`` when none."""
    n = origins.shape[0]
    for r in range(n):
        for a in range(3):
            if not abs(origins[r, a]) <= limit:
                return RAYS_BAD_ORIGIN, r
    for r in range(n):
        for a in range(3):
            if not abs(directions[r, a]) <= limit:
                return RAYS_BAD_DIRECTION, r
    for r in range(n):
        dx = directions[r, 0]
        dy = directions[r, 1]
        dz = directions[r, 2]
        # zero, or so short that its length underflows: no direction to normalise
        if math.sqrt(dx * dx + dy * dy + dz * dz) == 0.0:
            return RAYS_ZERO_DIRECTION, r
    for r in range(n):
        if not tmax[r] >= 0.0:
            return RAYS_BAD_REACH, r
    return RAYS_OK, -1


@kernel
def mesh_ray_range(start: int, stop: int, packed: np.ndarray, tree: np.ndarray,
                   order: np.ndarray, normals: np.ndarray, origins: np.ndarray,
                   directions: np.ndarray, tmax: np.ndarray, walk: np.ndarray,
                   packets: bool, in_flight: int,
                   out: tuple[np.ndarray, np.ndarray, np.ndarray, np.ndarray]) -> None:
    """:func:`mesh_ray` for the rays ``start .. stop-1`` of the walk order ``walk``
    (:func:`ray_order`; empty: the batch's order) (a range kernel for
    :func:`swept._parallel.parallel_for`), each direction normalised here, into ``out``
    (distance, triangle, point, normal: :func:`_write_hit`, :func:`_write_normal`), each
    ray's answer in its own row. ``in_flight`` walks (at least 1) go on at once, a node of
    each in turn (:func:`ray_step`, :func:`packet_step`;
    :data:`~swept.constants.WALKS_IN_FLIGHT`). With ``packets``, each run of
    :data:`PACKET_LANES` rays of the walk order that share their origin (a lidar's, sorted
    by direction) and enter boxes by the same planes is one walk (:func:`packet_step`), the
    other rays one walk each; a packet starts at the head of its origin's octant
    (:func:`origin_head`, built again whenever a packet's origin is not the last one's). The
    same answers either way.

    The batch's scattered reads are asked for ahead (`meshray11`): the copy loop asks for the
    rows of the ray :data:`RAY_AHEAD` rays on in walk order (:func:`_prefetch_ray`), and a
    ray's hit triangle's normal is asked for when its walk ends (:func:`_prefetch_normal`)
    and read when its block's answers are written out (:func:`_write_normal`; the pass of
    their own that read them after every block is gone). Profiled (perf's CPU-clock samples
    mapped onto this kernel's machine code; bench_mesh --quick's icosphere lidar, 20,000
    rays), those two reads held 11% and 9% of the kernel's samples, each a wait for a line
    (a lidar's walk order, a Hilbert curve over its directions, is scattered over the
    batch's rows and over the mesh's triangles). Measured (the kernel before in a scratch
    copy of the module, alternated in one process, one thread, CPU time, paired medians of
    9-11 rounds, load 2.5-10; outputs hashed equal): the quick icosphere (81,920 triangles,
    20,000 rays) lidar 1.137x, 1.101x, 1.071x, its incoherent rays 1.063x, 1.040x, 1.064x;
    the quick terrain's lidar 1.014x, incoherent 1.042x; the full icosphere (1.3 million
    triangles, 100,000 rays) lidar 1.066x, off its centre 1.066x, incoherent 1.004x."""
    slots = max(in_flight, 1)
    entries = np.empty(TREE_WIDTH * (1 + PACKET_LANES))
    staging = np.empty(TREE_WIDTH, np.int64)
    refs = tree_refs(tree)
    size = min(RAY_BLOCK, max(stop - start, 0))
    rays = np.empty((size, 7))
    found_t = np.empty(size)
    found_k = np.empty(size, np.int64)
    # each walk in flight: a ray's frame and stack, or a packet's rays, frustum, best hits
    # and stack
    frame = np.empty((slots, RAY_FRAME_SIZE))
    axes = np.empty((slots, RAY_AXES_SIZE), np.int64)
    stack_ref = np.empty((slots, TREE_STACK_SIZE), np.int64)
    stack_t = np.empty((slots, TREE_STACK_SIZE))
    lanes = np.empty((slots, PACKET_ROWS, PACKET_LANES))
    frames = np.empty((slots, 4, PACKET_LANES), np.int64)
    frustum = np.empty((slots, FRUSTUM_SIZE))
    best_t = np.empty((slots, PACKET_LANES))
    best_k = np.empty((slots, PACKET_LANES), np.int64)
    pack_mask = np.empty((slots, TREE_STACK_SIZE), np.int64)
    pack_e = np.empty((slots, TREE_STACK_SIZE, PACKET_LANES))
    # each walk's state: its first ray (a row of ``rays``), its rays, next node, the
    # packet's rays or the ray's best triangle, stack depth, kind (0 none, 1 a packet, 2 a
    # ray); and a ray's reach
    state = np.zeros((slots, 6), np.int64)
    reach = np.empty(slots)
    # the head of the packets from the last origin seen (origin_head), built when it changes
    head = np.empty((8 * HEAD_ROWS, TREE_COLUMNS), np.float32)
    head_refs = tree_refs(head)
    head_rows = np.full(8, -1, np.int64)
    head_origin = np.full(3, math.nan)
    todo = np.empty(HEAD_OPEN_ROWS, np.int64)
    # every array as a view without an owner (world.unowned): the inlined walk's helpers
    # then reference-count nothing (two atomic operations an array each time one takes it).
    # The arguments stay alive for the call; the scratch, through ``owned``, to the end
    owned = (entries, staging, rays, found_t, found_k, frame, axes, stack_ref, stack_t, lanes,
             frames, frustum, best_t, best_k, pack_mask, pack_e, state, reach, head, head_refs,
             head_rows, head_origin, todo)
    (entries, staging, rays, found_t, found_k, frame, axes, stack_ref, stack_t, lanes, frames,
     frustum, best_t, best_k, pack_mask, pack_e, state, reach) = (
        unowned(entries), unowned(staging), unowned(rays), unowned(found_t),
        unowned(found_k), unowned(frame), unowned(axes), unowned(stack_ref),
        unowned(stack_t), unowned(lanes), unowned(frames), unowned(frustum),
        unowned(best_t), unowned(best_k), unowned(pack_mask), unowned(pack_e),
        unowned(state), unowned(reach))
    head, head_refs, head_rows, head_origin, todo = (
        unowned(head), unowned(head_refs), unowned(head_rows), unowned(head_origin),
        unowned(todo))
    packed = unowned(packed)
    tree = unowned(tree)
    refs = unowned(refs)
    order = unowned(order)
    walk = unowned(walk)
    normals, origins, directions, tmax, out = _unowned_batch(normals, origins, directions,
                                                             tmax, out)
    steps = TREE_WIDTH * tree.shape[0] + 2
    # (in the batch's own order the rows are read in sequence: no prefetch)
    ahead = walk.shape[0] > 0
    # blocks of rays: each copied in walk order, walked, then its answers written out
    for block in range(start, stop, RAY_BLOCK):
        end = min(block + RAY_BLOCK, stop)
        for i in range(block, end):
            if ahead and i + RAY_AHEAD < stop:
                _prefetch_ray(walk, i + RAY_AHEAD, origins, directions, tmax)
            r = _ray_at(walk, i)
            j = i - block
            rays[j, 0], rays[j, 1], rays[j, 2] = _unit_direction(directions, r)
            rays[j, 3] = origins[r, 0]
            rays[j, 4] = origins[r, 1]
            rays[j, 5] = origins[r, 2]
            rays[j, 6] = tmax[r]
        rows = end - block
        # the next run of PACKET_LANES rays; the rays of a run that walk alone, the next
        # and the end; the walks in flight
        first = 0
        single = 0
        single_end = 0
        flying = 0
        # each pass walks a node of each walk in flight, after starting walks in the free
        # slots (each ray starts once, and a walk visits at most ``steps`` nodes)
        for _ in range((rows + 1) * (steps + 1)):
            for w in range(slots):
                kind = state[w, 5]
                if kind == 0:
                    # a free slot: the next run of rays, as a packet if it is one, else its
                    # rays one by one
                    start_ref = 0
                    start_sp = 0
                    if single >= single_end and first < rows:
                        count = min(PACKET_LANES, rows - first)
                        if (packets and count > 1 and _one_origin(rays, first, count)
                                and packet_rays(rays, first, count, lanes[w], frames[w],
                                                frustum[w])):
                            state[w, 0] = first
                            state[w, 1] = count
                            state[w, 3] = packet_begin(count, best_t[w], best_k[w])
                            kind = 1
                            start_ref, start_sp = _packet_head(
                                tree, rays, first, frames[w], head, head_rows, head_origin,
                                todo, stack_ref[w], pack_mask[w], stack_t[w], pack_e[w],
                                state[w, 3])
                        else:
                            single = first
                            single_end = first + count
                        first += count
                    if kind == 0 and single < single_end:
                        ray_begin(frame[w], axes[w], rays[single, 3], rays[single, 4],
                                  rays[single, 5], rays[single, 0], rays[single, 1],
                                  rays[single, 2], -1.0)
                        start_ref = _root_row(refs)
                        state[w, 0] = single
                        state[w, 3] = -1
                        reach[w] = rays[single, 6]
                        single += 1
                        kind = 2
                    if kind == 0:
                        continue
                    state[w, 2] = start_ref
                    state[w, 4] = start_sp
                    state[w, 5] = kind
                    flying += 1
                if kind == 1:
                    ref, active, sp = packet_step(
                        packed, tree, refs, order, lanes[w], frames[w], frustum[w],
                        best_t[w], best_k[w], staging, entries, stack_ref[w], pack_mask[w],
                        stack_t[w], pack_e[w], state[w, 2], state[w, 3], state[w, 4], head,
                        head_refs)
                    state[w, 3] = active
                    if ref == 0:
                        # done: its rays' answers
                        for lane in range(state[w, 1]):
                            found_t[state[w, 0] + lane] = best_t[w, lane]
                            found_k[state[w, 0] + lane] = best_k[w, lane]
                            _prefetch_normal(normals, best_k[w, lane])
                else:
                    ref, sp, limit, k = ray_step(packed, tree, refs, order, frame[w],
                                                 axes[w], stack_ref[w], stack_t[w], entries,
                                                 state[w, 2], state[w, 4], reach[w],
                                                 state[w, 3])
                    reach[w] = limit
                    state[w, 3] = k
                    if ref == 0:
                        # done: the ray's answer
                        found_t[state[w, 0]] = limit
                        found_k[state[w, 0]] = k
                        _prefetch_normal(normals, k)
                state[w, 2] = ref
                state[w, 4] = sp
                if ref == 0:
                    state[w, 5] = 0
                    flying -= 1
            if flying == 0 and first >= rows and single >= single_end:
                break
        # each answer written out (the hit triangles' normals asked for when their walks
        # ended)
        for i in range(block, end):
            j = i - block
            r = _ray_at(walk, i)
            _write_hit(r, found_t[j], found_k[j], rays[j, 3], rays[j, 4], rays[j, 5],
                       rays[j, 0], rays[j, 1], rays[j, 2], out)
            _write_normal(r, found_k[j], rays[j, 0], rays[j, 1], rays[j, 2], normals, out)
    # (the scratch's owners, alive to here)
    owned[0][0] = 0


# ---------------------------------------------------------------------------------------------
# the height field's cell walk


@inline_kernel
def _clip(o: float, d: float, lo: float, hi: float, t0: float, t1: float
          ) -> tuple[float, float]:
    """The ray interval [t0, t1] clipped to the slab ``lo <= o + t d <= hi`` (empty: t0 > t1)."""
    if d == 0.0:
        if o < lo or o > hi:
            return math.inf, -math.inf
        return t0, t1
    a = (lo - o) / d
    b = (hi - o) / d
    if a > b:
        a, b = b, a
    return max(t0, a), min(t1, b)


@kernel
def heightfield_ray(verts: np.ndarray, tris: np.ndarray, cols: int, grid: np.ndarray,
                    block: np.ndarray, ox: float, oy: float, oz: float, dx: float, dy: float,
                    dz: float, tmin: float, tmax: float) -> tuple[float, int]:
    """The nearest triangle of a height field the ray meets (as :func:`mesh_ray`).

    ``grid`` is ``(x0, z0, sx, sz, lox, loy, loz, hix, hiy, hiz)``: the origin and cell size
    in x and z, and the field's box grown by its margin. ``block`` (cells_z, cells_x, 2) holds
    each cell's 3 x 3 block's lowest and highest height (grown by the margin). The walk visits
    the cells the ray's x-z shadow crosses, in order (Amanatides and Woo), and tests the
    triangles of the 3 x 3 block around each cell the ray passes at the block's heights, so
    that a rounding in the walk (a corner crossed) never skips a triangle; it stops at the
    first cell entered beyond the best hit."""
    cells_z = block.shape[0]
    cells_x = block.shape[1]
    x0, z0, sx, sz = grid[0], grid[1], grid[2], grid[3]
    t0, t1 = _clip(ox, dx, grid[4], grid[7], 0.0, tmax)
    t0, t1 = _clip(oy, dy, grid[5], grid[8], t0, t1)
    t0, t1 = _clip(oz, dz, grid[6], grid[9], t0, t1)
    if t0 > t1:
        # the ray misses the field's box
        return MISS, -1
    frame = ray_frame(dx, dy, dz)
    gx = (ox - x0) / sx
    gz = (oz - z0) / sz
    ux = dx / sx
    uz = dz / sz
    j = min(max(int(math.floor(gx + t0 * ux)), 0), cells_x - 1)
    i = min(max(int(math.floor(gz + t0 * uz)), 0), cells_z - 1)
    step_j = 1 if ux > 0.0 else -1
    step_i = 1 if uz > 0.0 else -1
    next_x = (j + (1 if step_j > 0 else 0) - gx) / ux if ux != 0.0 else math.inf
    next_z = (i + (1 if step_i > 0 else 0) - gz) / uz if uz != 0.0 else math.inf
    best_t = math.inf
    best_k = -1
    t_enter = t0
    # each pass crosses one cell boundary (or ends): at most every column and row once
    for _ in range(cells_x + cells_z + 2):
        if t_enter > best_t:
            # every cell from here on is entered beyond the best hit
            break
        t_exit = min(next_x, next_z, t1)
        y_a = oy + t_enter * dy
        y_b = oy + t_exit * dy
        if min(y_a, y_b) <= block[i, j, 1] and max(y_a, y_b) >= block[i, j, 0]:
            # the ray passes this cell's block at its heights: test its triangles
            for ii in range(max(i - 1, 0), min(i + 2, cells_z)):
                for jj in range(max(j - 1, 0), min(j + 2, cells_x)):
                    for half in range(2):
                        k = 2 * (ii * (cols - 1) + jj) + half
                        t = ray_triangle(verts, tris, k, ox, oy, oz, frame, tmin,
                                         min(best_t, tmax))
                        if t >= 0.0 and (t < best_t or (t == best_t and k < best_k)):
                            best_t = t
                            best_k = k
        if t_exit >= t1:
            break
        if next_x <= next_z:
            j += step_j
            t_enter = next_x
            next_x += step_j / ux
        else:
            i += step_i
            t_enter = next_z
            next_z += step_i / uz
        if i < 0 or i >= cells_z or j < 0 or j >= cells_x:
            # out of the grid
            break
    if best_k < 0:
        return MISS, -1
    return best_t, best_k


@kernel
def heightfield_ray_range(start: int, stop: int, verts: np.ndarray, tris: np.ndarray,
                          cols: int, grid: np.ndarray, block: np.ndarray, normals: np.ndarray,
                          origins: np.ndarray, directions: np.ndarray, tmax: np.ndarray,
                          out: tuple[np.ndarray, np.ndarray, np.ndarray, np.ndarray]) -> None:
    """:func:`heightfield_ray` for rays ``start .. stop-1`` (a range kernel, as
    :func:`mesh_ray_range`)."""
    # owner-less views (as in mesh_ray_range): each ray's walk reference-counts nothing
    verts = unowned(verts)
    tris = unowned(tris)
    grid = unowned(grid)
    block = unowned(block)
    normals, origins, directions, tmax, out = _unowned_batch(normals, origins, directions,
                                                             tmax, out)
    for r in range(start, stop):
        ux, uy, uz = _unit_direction(directions, r)
        ox = origins[r, 0]
        oy = origins[r, 1]
        oz = origins[r, 2]
        t, k = heightfield_ray(verts, tris, cols, grid, block, ox, oy, oz, ux, uy, uz, -1.0,
                               tmax[r])
        _write_hit(r, t, k, ox, oy, oz, ux, uy, uz, out)
    # the batch's own order
    _write_normals(start, stop, np.empty(0, np.int64), directions, normals, out)


@kernel
def heightfield_gather(cols: int, grid: np.ndarray, block: np.ndarray, query: np.ndarray,
                       out: np.ndarray) -> int:
    """The triangles of the height field's cells whose x-z squares touch the box ``query``
    ((6,) ``lo xyz hi xyz``) and whose heights reach it, written to ``out``; returns how many
    (all are counted, the first ``len(out)`` written: call again with a larger ``out``)."""
    cells_z = block.shape[0]
    cells_x = block.shape[1]
    x0, z0, sx, sz = grid[0], grid[1], grid[2], grid[3]
    j0 = max(int(math.floor((query[0] - x0) / sx)) - 1, 0)
    j1 = min(int(math.floor((query[3] - x0) / sx)) + 1, cells_x - 1)
    i0 = max(int(math.floor((query[2] - z0) / sz)) - 1, 0)
    i1 = min(int(math.floor((query[5] - z0) / sz)) + 1, cells_z - 1)
    found = 0
    cap = out.shape[0]
    for i in range(i0, i1 + 1):
        for j in range(j0, j1 + 1):
            if block[i, j, 0] > query[4] or block[i, j, 1] < query[1]:
                # the cell's heights (with its neighbours') miss the box
                continue
            for half in range(2):
                if found < cap:
                    out[found] = 2 * (i * (cols - 1) + j) + half
                found += 1
    return found


# ---------------------------------------------------------------------------------------------
# closest points and the ball cast


@callee
def closest_on_triangle(verts: np.ndarray, tris: np.ndarray, k: int, px: float, py: float,
                        pz: float) -> tuple[float, float, float, int]:
    """The point of triangle k nearest ``p`` and its feature: 0 the face, ``1 + i`` vertex i,
    ``4 + e`` edge e (from vertex e to vertex ``(e + 1) % 3``). Ericson's Voronoi-region
    walk (Real-Time Collision Detection, 5.1.5)."""
    ia = tris[k, 0]
    ib = tris[k, 1]
    ic = tris[k, 2]
    ax, ay, az = verts[ia, 0], verts[ia, 1], verts[ia, 2]
    bx, by, bz = verts[ib, 0], verts[ib, 1], verts[ib, 2]
    cx, cy, cz = verts[ic, 0], verts[ic, 1], verts[ic, 2]
    abx, aby, abz = bx - ax, by - ay, bz - az
    acx, acy, acz = cx - ax, cy - ay, cz - az
    apx, apy, apz = px - ax, py - ay, pz - az
    d1 = abx * apx + aby * apy + abz * apz
    d2 = acx * apx + acy * apy + acz * apz
    if d1 <= 0.0 and d2 <= 0.0:
        # vertex a's region
        return ax, ay, az, 1
    bpx, bpy, bpz = px - bx, py - by, pz - bz
    d3 = abx * bpx + aby * bpy + abz * bpz
    d4 = acx * bpx + acy * bpy + acz * bpz
    if d3 >= 0.0 and d4 <= d3:
        # vertex b's region
        return bx, by, bz, 2
    vc = d1 * d4 - d3 * d2
    if vc <= 0.0 and d1 >= 0.0 and d3 <= 0.0:
        # edge ab's region
        s = d1 / (d1 - d3)
        return ax + s * abx, ay + s * aby, az + s * abz, 4
    cpx, cpy, cpz = px - cx, py - cy, pz - cz
    d5 = abx * cpx + aby * cpy + abz * cpz
    d6 = acx * cpx + acy * cpy + acz * cpz
    if d6 >= 0.0 and d5 <= d6:
        # vertex c's region
        return cx, cy, cz, 3
    vb = d5 * d2 - d1 * d6
    if vb <= 0.0 and d2 >= 0.0 and d6 <= 0.0:
        # edge ca's region
        s = d2 / (d2 - d6)
        return ax + s * acx, ay + s * acy, az + s * acz, 6
    va = d3 * d6 - d5 * d4
    if va <= 0.0 and (d4 - d3) >= 0.0 and (d5 - d6) >= 0.0:
        # edge bc's region
        s = (d4 - d3) / ((d4 - d3) + (d5 - d6))
        return bx + s * (cx - bx), by + s * (cy - by), bz + s * (cz - bz), 5
    # the face: barycentric weights of the projection
    denom = 1.0 / (va + vb + vc)
    v = vb * denom
    w = vc * denom
    return (ax + abx * v + acx * w, ay + aby * v + acy * w, az + abz * v + acz * w, 0)


@kernel
def surface_normal(verts: np.ndarray, tris: np.ndarray, normals: np.ndarray,
                   edge_flat: np.ndarray, vertex_flat: np.ndarray, k: int, px: float,
                   py: float, pz: float
                   ) -> tuple[float, float, float, float, float, float, float]:
    """The point q of triangle k nearest ``p``, the distance ``|p - q|`` and the unit normal
    of the surface there toward ``p``: ``(d, qx, qy, qz, nx, ny, nz)``. The face normal (turned
    toward p; +normal when p is in the plane) on the face, on a flat edge, at a flat vertex,
    and when p is on the surface; else the direction from q to p (module docstring)."""
    qx, qy, qz, feature = closest_on_triangle(verts, tris, k, px, py, pz)
    wx = px - qx
    wy = py - qy
    wz = pz - qz
    d = math.sqrt(wx * wx + wy * wy + wz * wz)
    fx, fy, fz = normals[k, 0], normals[k, 1], normals[k, 2]
    ia = tris[k, 0]
    side = ((px - verts[ia, 0]) * fx + (py - verts[ia, 1]) * fy + (pz - verts[ia, 2]) * fz)
    if side < 0.0:
        fx, fy, fz = -fx, -fy, -fz
    flat = feature == 0 or d == 0.0
    if 1 <= feature <= 3:
        flat = flat or vertex_flat[tris[k, feature - 1]]
    elif feature >= 4:
        flat = flat or edge_flat[k, feature - 4]
    if flat:
        return d, qx, qy, qz, fx, fy, fz
    return d, qx, qy, qz, wx / d, wy / d, wz / d


@inline_kernel
def _touch(verts: np.ndarray, tris: np.ndarray, normals: np.ndarray, k: int, px: float,
           py: float, pz: float, vx: float, vy: float, vz: float) -> tuple[float, float]:
    """``(d, h)`` of a ball centred at ``p`` moving by ``v`` and triangle k: the distance from
    ``p`` to the triangle, and ``v . n`` with n the unit direction from the triangle's nearest
    point to p (the face normal when p is on the triangle)."""
    qx, qy, qz, _f = closest_on_triangle(verts, tris, k, px, py, pz)
    wx, wy, wz = px - qx, py - qy, pz - qz
    d = math.sqrt(wx * wx + wy * wy + wz * wz)
    if d > 0.0:
        nx, ny, nz = wx / d, wy / d, wz / d
    else:
        # on the surface: the face normal
        nx, ny, nz = normals[k, 0], normals[k, 1], normals[k, 2]
    return d, vx * nx + vy * ny + vz * nz


@inline_kernel
def _heads_into_more(h: float, d: float, k: int, best_h: float, best_d: float, best_k: int
                     ) -> bool:
    """Whether a touching triangle ``(h, d, k)`` (:func:`_touch`) beats the best so far: the
    least ``h``, then the nearest, then the smallest index (a total order: the choice does not
    depend on the order the triangles are met in)."""
    return h < best_h or (h == best_h and (d < best_d or (d == best_d and k < best_k)))


@callee
def touching_triangle(verts: np.ndarray, tris: np.ndarray, normals: np.ndarray,
                      cand: np.ndarray, count: int, px: float, py: float, pz: float,
                      radius: float, vx: float, vy: float, vz: float) -> int:
    """Of the candidate triangles within ``radius`` of ``p`` (a ball that starts touching),
    the one the motion ``v`` heads into most (the least ``v . n``, n from the triangle toward
    p); ties, and no motion: the nearest, then the smallest index. -1 when none touches.

    At a crease a ball touches two faces at once; the nearest alone answered a floor probe
    with the steep face beside the floor (by a hair), and a character standing in the crease
    lost its floor."""
    best_h = math.inf
    best_d = math.inf
    best_k = -1
    for j in range(count):
        k = cand[j]
        d, h = _touch(verts, tris, normals, k, px, py, pz, vx, vy, vz)
        if d <= radius and _heads_into_more(h, d, k, best_h, best_d, best_k):
            best_h = h
            best_d = d
            best_k = k
    return best_k


@kernel
def nearest_triangle(verts: np.ndarray, tris: np.ndarray, cand: np.ndarray, count: int,
                     px: float, py: float, pz: float) -> tuple[float, int]:
    """The candidate triangle nearest ``p`` and its distance (ties: smallest index):
    ``(d, k)``, or ``(inf, -1)`` for no candidates."""
    best_d = math.inf
    best_k = -1
    for j in range(count):
        k = cand[j]
        qx, qy, qz, _f = closest_on_triangle(verts, tris, k, px, py, pz)
        d = math.sqrt((px - qx) ** 2 + (py - qy) ** 2 + (pz - qz) ** 2)
        if d < best_d or (d == best_d and k < best_k):
            best_d = d
            best_k = k
    return best_d, best_k


@inline_kernel
def triangle_edge(verts: np.ndarray, tris: np.ndarray, k: int, e: int
                  ) -> tuple[float, float, float, float, float, float]:
    """Edge e of triangle k (from corner e to corner ``(e + 1) % 3``): its start and its
    vector."""
    i0 = tris[k, e]
    i1 = tris[k, (e + 1) % 3]
    return (verts[i0, 0], verts[i0, 1], verts[i0, 2], verts[i1, 0] - verts[i0, 0],
            verts[i1, 1] - verts[i0, 1], verts[i1, 2] - verts[i0, 2])


@inline_kernel
def in_triangle(verts: np.ndarray, tris: np.ndarray, k: int, nx: float, ny: float, nz: float,
                px: float, py: float, pz: float) -> bool:
    """Whether ``p`` (a point of triangle k's plane) lies in the triangle, its boundary
    included: on the inner side of every edge, ``(e x w) . n >= 0`` (n its unit normal)."""
    for e in range(3):
        x0, y0, z0, ex, ey, ez = triangle_edge(verts, tris, k, e)
        wx = px - x0
        wy = py - y0
        wz = pz - z0
        if (ey * wz - ez * wy) * nx + (ez * wx - ex * wz) * ny + (ex * wy - ey * wx) * nz < 0.0:
            return False
    return True


@inline_kernel
def sphere_triangle_cast(verts: np.ndarray, tris: np.ndarray, normals: np.ndarray, k: int,
                         cx: float, cy: float, cz: float, ux: float, uy: float, uz: float,
                         radius: float, limit: float) -> float:
    """Where a ball of ``radius`` whose centre moves from ``c`` along the unit ``u`` first
    touches triangle k, in length units along ``u`` (``<= limit``), or :data:`MISS`. The ball
    must start clear of the triangle (the caller decides a start in contact). Exact
    (:func:`sphere_triangle_hit`), after a cull: a path that stays beyond the plane's slab
    ``|height| <= radius`` (on one side, by more than a slack of
    :data:`~swept.constants.PLANE_CULL_TOLERANCE` times the numbers' size) touches nothing of
    the triangle, as every touch, face, edge or vertex, lies in that slab. Inlined into its
    callers, so that a culled triangle costs no call (paired, bench_mesh's sweeps: 1.04x and
    1.06x faster on the terrain, 1.03x on the icosphere, the same answers)."""
    ia = tris[k, 0]
    nx, ny, nz = normals[k, 0], normals[k, 1], normals[k, 2]
    ax, ay, az = verts[ia, 0], verts[ia, 1], verts[ia, 2]
    height = (cx - ax) * nx + (cy - ay) * ny + (cz - az) * nz
    gap = abs(height) - radius
    closing = -(1.0 if height >= 0.0 else -1.0) * (ux * nx + uy * ny + uz * nz)
    slack = PLANE_CULL_TOLERANCE * (abs(cx) + abs(cy) + abs(cz) + abs(ax) + abs(ay) + abs(az)
                                    + radius + limit)
    if gap > slack and gap - closing * limit > slack:
        # beyond the slab at the start and at the reach: no touch. Measured on bench_mesh's
        # sweeps (CPU, medians of 5): 6.27 -> 5.69 us a sweep on the icosphere, no change on
        # the terrain (21.5 us, whose walk reaches mostly triangles near the path's plane)
        return MISS
    return sphere_triangle_hit(verts, tris, normals, k, cx, cy, cz, ux, uy, uz, radius, limit)


@kernel
def sphere_triangle_hit(verts: np.ndarray, tris: np.ndarray, normals: np.ndarray, k: int,
                        cx: float, cy: float, cz: float, ux: float, uy: float, uz: float,
                        radius: float, limit: float) -> float:
    """:func:`sphere_triangle_cast` without its cull: the nearest of the two faces offset by
    the radius (where the touching point lies in the triangle) and the three edges' capsules
    (cylinders and vertex spheres)."""
    ia = tris[k, 0]
    nx, ny, nz = normals[k, 0], normals[k, 1], normals[k, 2]
    ax, ay, az = verts[ia, 0], verts[ia, 1], verts[ia, 2]
    height = (cx - ax) * nx + (cy - ay) * ny + (cz - az) * nz
    side = 1.0 if height >= 0.0 else -1.0
    best = MISS
    gap = abs(height) - radius
    closing = -side * (ux * nx + uy * ny + uz * nz)
    if closing > 0.0 and gap <= closing * limit:
        # the face offset toward the centre: where the touching point lies, if in the triangle
        # (at 0 when the start is within the offset by rounding: the caller found the ball
        # clear of the triangle by its nearest point, by a hair the plane's height does not
        # see, and a ball resting on a face and pushed into it passed through)
        t = max(gap, 0.0) / closing
        px = cx + t * ux - side * radius * nx
        py = cy + t * uy - side * radius * ny
        pz = cz + t * uz - side * radius * nz
        if in_triangle(verts, tris, k, nx, ny, nz, px, py, pz):
            best = t
            limit = t
    for e in range(3):
        i0 = tris[k, e]
        i1 = tris[k, (e + 1) % 3]
        # the edge as a capsule: its cylinder and the spheres at its ends
        t = ray_capsule3(cx, cy, cz, ux, uy, uz, verts[i0, 0], verts[i0, 1], verts[i0, 2],
                         verts[i1, 0], verts[i1, 1], verts[i1, 2], radius, limit)[0]
        if t >= 0.0 and (best < 0.0 or t < best):
            best = t
            limit = t
    return best


@kernel
def sphere_cast(verts: np.ndarray, tris: np.ndarray, normals: np.ndarray, cand: np.ndarray,
                count: int, cx: float, cy: float, cz: float, vx: float, vy: float, vz: float,
                radius: float, max_fraction: float) -> tuple[float, int]:
    """A ball of ``radius`` at ``c`` moved by ``v`` against the candidate triangles:
    ``(fraction, k)`` of the first touch (ties: smallest k), ``(0, k)`` when it starts
    touching triangle k (the nearest), or ``(MISS, -1)``."""
    k0 = touching_triangle(verts, tris, normals, cand, count, cx, cy, cz, radius, vx, vy, vz)
    if k0 >= 0:
        # starts touching or overlapping: the face the motion heads into most
        return 0.0, k0
    length = math.sqrt(vx * vx + vy * vy + vz * vz)
    if length == 0.0 or count == 0:
        return MISS, -1
    ux = vx / length
    uy = vy / length
    uz = vz / length
    limit = max_fraction * length
    best_t = math.inf
    best_k = -1
    for j in range(count):
        k = cand[j]
        t = sphere_triangle_cast(verts, tris, normals, k, cx, cy, cz, ux, uy, uz, radius,
                                 min(limit, best_t))
        if t >= 0.0 and (t < best_t or (t == best_t and k < best_k)):
            best_t = t
            best_k = k
    if best_k < 0:
        return MISS, -1
    return min(best_t / length, max_fraction), best_k


@kernel
def mesh_sphere_cast(verts: np.ndarray, tris: np.ndarray, normals: np.ndarray,
                     tree: np.ndarray, order: np.ndarray, cx: float, cy: float, cz: float,
                     vx: float, vy: float, vz: float, radius: float, max_fraction: float
                     ) -> tuple[float, int]:
    """:func:`sphere_cast` against a whole mesh, in one walk of its compact tree
    (:func:`flatten_tree`, ``order`` the triangle of each leaf row): the ball's path as a fat
    ray (every box grown by the radius), front to back, the reach shrinking to the best hit.

    The start is decided in the same walk: a triangle within the radius of the centre has its
    box, grown by the radius, around the centre, so it lies in a leaf entered at t = 0, and
    only those leaves' triangles are measured (:func:`_touch`). Once one touches, the reach
    drops to 0: the walk then visits only the boxes around the centre, which hold every
    touching triangle, and answers ``(0, k)`` with :func:`touching_triangle`'s choice.
    Before that, each triangle of a leaf is cast (:func:`sphere_triangle_cast`, the ball
    clear of it)."""
    length = math.sqrt(vx * vx + vy * vy + vz * vz)
    if length > 0.0:
        ux = vx / length
        uy = vy / length
        uz = vz / length
    else:
        # no motion: a walk of the boxes around the centre (zero inverse: every axis parallel)
        ux = uy = uz = 0.0
    ix, iy, iz, nx, ny, nz = _slab_frame(ux, uy, uz)
    # each entering plane moves outward by the radius. Rounding is monotone: a grown plane
    # that holds the centre in exact arithmetic still holds it in floats (fl(hi + r) >= c
    # when hi + r >= c, c a float), so a box around the centre is entered at exactly 0
    rx = -radius if nx == 0 else radius
    ry = -radius if ny == 0 else radius
    rz = -radius if nz == 0 else radius
    # owner-less views (as in mesh_ray_range): the per-triangle casts' calls and the inlined
    # helpers reference-count nothing; the scratch's owners, ``owned``, alive to the end
    owned = (np.empty(TREE_STACK_SIZE, np.int64), np.empty(TREE_STACK_SIZE),
             np.empty(TREE_WIDTH))
    stack_ref = unowned(owned[0])
    stack_t = unowned(owned[1])
    entries = unowned(owned[2])
    verts = unowned(verts)
    tris = unowned(tris)
    normals = unowned(normals)
    tree = unowned(tree)
    order = unowned(order)
    refs = tree_refs(tree)
    best_t = math.inf
    best_k = -1
    touch_h = math.inf
    touch_d = math.inf
    touch_k = -1
    limit = max_fraction * length
    ref = 0
    t_ref = 0.0
    sp = 0
    # each pass visits a row or a leaf, each at most once (a row has at most TREE_WIDTH
    # children)
    for _ in range(TREE_WIDTH * tree.shape[0] + 2):
        if ref >= 0:
            bits = _fat_entry_row(tree, ref, entries, cx, cy, cz, ix, iy, iz, nx, ny, nz, rx,
                                  ry, rz, limit)
            # the ray walk's pushes, written out in both walks (see there)
            base = sp
            for _ in range(TREE_WIDTH):
                if bits == 0:
                    break
                s = _lowest_bit(bits)
                bits &= bits - 1
                sp = _push_sorted(stack_ref, stack_t, base, sp, refs[ref, TREE_REFS + s],
                                  entries[s])
            if sp > base:
                # the nearest child next
                sp -= 1
                ref = stack_ref[sp]
                t_ref = stack_t[sp]
                continue
        else:
            first, stop = _leaf_rows(ref)
            for row in range(first, stop):
                k = order[row]
                if t_ref == 0.0:
                    # the centre is in the leaf's grown box: the ball may start on k
                    d, h = _touch(verts, tris, normals, k, cx, cy, cz, vx, vy, vz)
                    if d <= radius:
                        if _heads_into_more(h, d, k, touch_h, touch_d, touch_k):
                            touch_h = h
                            touch_d = d
                            touch_k = k
                        limit = 0.0
                        continue
                if touch_k >= 0 or length == 0.0:
                    # a start in contact decides the answer; no motion, nothing to cast
                    continue
                t = sphere_triangle_cast(verts, tris, normals, k, cx, cy, cz, ux, uy, uz,
                                         radius, limit)
                if t >= 0.0 and (t < best_t or (t == best_t and k < best_k)):
                    best_t = t
                    best_k = k
                    limit = t
        ref, t_ref, sp = _pop(stack_ref, stack_t, sp, limit)
        if ref == 0:
            break
    owned[0][0] = 0
    if touch_k >= 0:
        # starts touching or overlapping: the face the motion heads into most
        return 0.0, touch_k
    if best_k < 0:
        return MISS, -1
    return min(best_t / length, max_fraction), best_k


@kernel
def core_cast(core: np.ndarray, radius: float, verts: np.ndarray, tris: np.ndarray,
              cand: np.ndarray, count: int, dx: float, dy: float, dz: float,
              target_distance: float, max_fraction: float
              ) -> tuple[int, float, int, float, float, float, float, float, float]:
    """A convex core (points ``core`` (p, 3) grown by ``radius``: a capsule, a box) moved by
    ``d`` against the candidate triangles, each by conservative advancement on GJK
    (:func:`swept._kernels.sweep.cast_cores`): ``(status, fraction, k, normal, point)`` of the
    earliest (ties: smallest k), the status ``CAST_OVERLAPPED`` when it starts within the
    target distance of triangle k (the deepest such), ``CAST_SEPARATED`` and ``k = -1`` on a
    miss. Of the triangles touched at the start, the one the motion heads into most (the
    least ``d . normal``; then the smallest k): at a crease a character's floor probe touches
    the floor and the steep face beside it within the skin, and the smaller index answered
    with the steep face, so the character lost its floor (the ball's rule,
    :func:`touching_triangle`)."""
    tri = np.empty((3, 3))
    best_status = CAST_SEPARATED
    best_t = math.inf
    best_k = -1
    best_h = math.inf
    nx = ny = nz = px = py = pz = 0.0
    limit = max_fraction
    for j in range(count):
        k = cand[j]
        for c in range(3):
            for a in range(3):
                tri[c, a] = verts[tris[k, c], a]
        status, t, mx, my, mz, qx, qy, qz, _it = cast_cores(core, radius, tri, 0.0, dx, dy, dz,
                                                            target_distance, limit)
        if status == CAST_SEPARATED:
            continue
        h = 0.0
        if status == CAST_OVERLAPPED:
            t = 0.0
            # touching at the start: how straight the motion heads into it
            h = dx * mx + dy * my + dz * mz
        if t < best_t or (t == best_t and (h < best_h or (h == best_h and k < best_k))):
            best_status = CAST_OVERLAPPED if status == CAST_OVERLAPPED else CAST_HIT
            best_t = t
            best_k = k
            best_h = h
            nx, ny, nz, px, py, pz = mx, my, mz, qx, qy, qz
            limit = t
    return best_status, best_t, best_k, nx, ny, nz, px, py, pz


# ---------------------------------------------------------------------------------------------
# convex cores against triangles: closest points and contact (capsules, boxes, hulls)


@callee
def segment_triangle(verts: np.ndarray, tris: np.ndarray, normals: np.ndarray, k: int,
                     p0x: float, p0y: float, p0z: float, p1x: float, p1y: float, p1z: float
                     ) -> tuple[float, float, float, float, float, float, float]:
    """The nearest points of the segment ``p0 p1`` (a point when ``p0 == p1``) and triangle k:
    ``(d, ax, ay, az, bx, by, bz)``, a on the segment, b on the triangle. Closed form: a
    segment crossing the triangle gives ``d = 0`` and a = b the crossing point; otherwise the
    nearest pair of two disjoint convex sets joins a vertex to a face or an edge to an edge,
    so the least of both ends against the triangle and the segment against its three
    edges."""
    ia = tris[k, 0]
    nx, ny, nz = normals[k, 0], normals[k, 1], normals[k, 2]
    h0 = (p0x - verts[ia, 0]) * nx + (p0y - verts[ia, 1]) * ny + (p0z - verts[ia, 2]) * nz
    h1 = (p1x - verts[ia, 0]) * nx + (p1y - verts[ia, 1]) * ny + (p1z - verts[ia, 2]) * nz
    if h0 != h1 and ((h0 <= 0.0 <= h1) or (h1 <= 0.0 <= h0)):
        # the segment crosses the plane: where, and whether inside every edge
        s = h0 / (h0 - h1)
        xx = p0x + s * (p1x - p0x)
        xy = p0y + s * (p1y - p0y)
        xz = p0z + s * (p1z - p0z)
        if in_triangle(verts, tris, k, nx, ny, nz, xx, xy, xz):
            return 0.0, xx, xy, xz, xx, xy, xz
    # the ends against the triangle (vertex-face)
    qx, qy, qz, _f = closest_on_triangle(verts, tris, k, p0x, p0y, p0z)
    best = math.sqrt((p0x - qx) ** 2 + (p0y - qy) ** 2 + (p0z - qz) ** 2)
    ax, ay, az, bx, by, bz = p0x, p0y, p0z, qx, qy, qz
    qx, qy, qz, _f = closest_on_triangle(verts, tris, k, p1x, p1y, p1z)
    d = math.sqrt((p1x - qx) ** 2 + (p1y - qy) ** 2 + (p1z - qz) ** 2)
    if d < best:
        best = d
        ax, ay, az, bx, by, bz = p1x, p1y, p1z, qx, qy, qz
    # the segment against each edge (edge-edge)
    dx, dy, dz = p1x - p0x, p1y - p0y, p1z - p0z
    for e in range(3):
        x0, y0, z0, ex, ey, ez = triangle_edge(verts, tris, k, e)
        s, t = segment_segment_params(dx, dy, dz, ex, ey, ez, p0x - x0, p0y - y0, p0z - z0)
        cx, cy, cz = p0x + s * dx, p0y + s * dy, p0z + s * dz
        ex_, ey_, ez_ = x0 + t * ex, y0 + t * ey, z0 + t * ez
        d = math.sqrt((cx - ex_) ** 2 + (cy - ey_) ** 2 + (cz - ez_) ** 2)
        if d < best:
            best = d
            ax, ay, az, bx, by, bz = cx, cy, cz, ex_, ey_, ez_
    return best, ax, ay, az, bx, by, bz


@callee
def core_triangle(core: np.ndarray, verts: np.ndarray, tris: np.ndarray, normals: np.ndarray,
                  k: int, tri: np.ndarray, cache: np.ndarray
                  ) -> tuple[float, float, float, float, float, float, float]:
    """The nearest points of a convex core (its points' hull: a point or segment in closed
    form, :func:`segment_triangle`; a box's or hull's corners by GJK, within
    ``GJK_TOLERANCE``) and triangle k: ``(d, a, b)``, ``d = 0`` when they touch or cross
    (a closed-form gap within ``TOUCH_TOLERANCE`` of the coordinates' magnitude counts, as
    GJK counts it). ``tri`` (3, 3) and ``cache`` (``GJK_CACHE_SIZE``) are scratch."""
    p = core.shape[0]
    if p <= 2:
        d, ax, ay, az, bx, by, bz = segment_triangle(verts, tris, normals, k, core[0, 0],
                                                     core[0, 1], core[0, 2], core[p - 1, 0],
                                                     core[p - 1, 1], core[p - 1, 2])
        scale = max(abs(ax), abs(ay), abs(az), abs(bx), abs(by), abs(bz))
        if d <= TOUCH_TOLERANCE * scale:
            # touching to rounding (a core lying in the plane): as GJK counts it
            d = 0.0
        return d, ax, ay, az, bx, by, bz
    for c in range(3):
        for a in range(3):
            tri[c, a] = verts[tris[k, c], a]
    cache[0] = 0
    d, ax, ay, az, bx, by, bz, _it, status = gjk_distance(core, tri, cache)
    if status == GJK_OVERLAPPED:
        d = 0.0
    return d, ax, ay, az, bx, by, bz


@callee
def coplanar(verts: np.ndarray, tris: np.ndarray, normals: np.ndarray, k: int, j: int) -> bool:
    """Whether triangle j lies in triangle k's plane: every corner of j within an angle of
    ``FLAT_EDGE_TOLERANCE`` (as a sine) of the plane, seen from k's first corner (the test of
    a flat edge, for triangles that need not share one; either winding)."""
    ia = tris[k, 0]
    nx, ny, nz = normals[k, 0], normals[k, 1], normals[k, 2]
    for c in range(3):
        iv = tris[j, c]
        wx = verts[iv, 0] - verts[ia, 0]
        wy = verts[iv, 1] - verts[ia, 1]
        wz = verts[iv, 2] - verts[ia, 2]
        h = wx * nx + wy * ny + wz * nz
        if abs(h) > FLAT_EDGE_TOLERANCE * math.sqrt(wx * wx + wy * wy + wz * wz):
            return False
    return True


@callee
def plane_push(core: np.ndarray, verts: np.ndarray, tris: np.ndarray, normals: np.ndarray,
               edge_flat: np.ndarray, group: np.ndarray, size: int
               ) -> tuple[float, float, float, float]:
    """How a core that touches or crosses a set of coplanar triangles (``group[:size]``, one
    piece of a plane) leaves them: ``(push, nx, ny, nz)``, the least move along an allowed
    axis that takes the core's hull clear of every one (just touching). The axes: the plane's
    normal, toward the side the core reaches less far beyond it (+ the first triangle's
    normal on a tie), and across each edge of the piece that is not flat (a boundary, a
    crease) its outward normal in the plane. A flat edge offers no way out: the plane goes on
    there (no internal-edge pushes), so the answer is the same however the plane is cut into
    triangles."""
    k0 = group[0]
    ia = tris[k0, 0]
    nx, ny, nz = normals[k0, 0], normals[k0, 1], normals[k0, 2]
    off = verts[ia, 0] * nx + verts[ia, 1] * ny + verts[ia, 2] * nz
    lo = math.inf
    hi = -math.inf
    for i in range(core.shape[0]):
        s = core[i, 0] * nx + core[i, 1] * ny + core[i, 2] * nz
        lo = min(lo, s)
        hi = max(hi, s)
    up = off - lo
    down = hi - off
    if up <= down:
        best, bx, by, bz = up, nx, ny, nz
    else:
        best, bx, by, bz = down, -nx, -ny, -nz
    for g in range(size):
        k = group[g]
        kx, ky, kz = normals[k, 0], normals[k, 1], normals[k, 2]
        for e in range(3):
            if edge_flat[k, e]:
                # a flat edge: the plane goes on across it
                continue
            _x0, _y0, _z0, ex, ey, ez = triangle_edge(verts, tris, k, e)
            # outward in the plane: edge x normal (the winding runs counter-clockwise about
            # the triangle's own normal)
            mx = ey * kz - ez * ky
            my = ez * kx - ex * kz
            mz = ex * ky - ey * kx
            size_m = math.sqrt(mx * mx + my * my + mz * mz)
            mx /= size_m
            my /= size_m
            mz /= size_m
            top = -math.inf
            for h in range(size):
                for c in range(3):
                    iv = tris[group[h], c]
                    top = max(top, verts[iv, 0] * mx + verts[iv, 1] * my + verts[iv, 2] * mz)
            low = math.inf
            for i in range(core.shape[0]):
                low = min(low, core[i, 0] * mx + core[i, 1] * my + core[i, 2] * mz)
            push = top - low
            if push < best:
                best, bx, by, bz = push, mx, my, mz
    return max(best, 0.0), bx, by, bz


@kernel
def core_surface_nearest(core: np.ndarray, verts: np.ndarray, tris: np.ndarray,
                         normals: np.ndarray, cand: np.ndarray, count: int
                         ) -> tuple[float, float, float, float, float, float, float, int]:
    """The candidate triangle nearest a convex core and the nearest points:
    ``(d, a, b, k)`` (ties: the smallest k), or ``(inf, ..., -1)`` for no candidates."""
    tri = np.empty((3, 3))
    cache = np.zeros(GJK_CACHE_SIZE, np.int64)
    best = math.inf
    best_k = -1
    ax = ay = az = bx = by = bz = 0.0
    for j in range(count):
        k = cand[j]
        d, px, py, pz, qx, qy, qz = core_triangle(core, verts, tris, normals, k, tri, cache)
        if d < best or (d == best and k < best_k):
            best = d
            best_k = k
            ax, ay, az, bx, by, bz = px, py, pz, qx, qy, qz
    return best, ax, ay, az, bx, by, bz, best_k


@kernel
def core_surface_contact(core: np.ndarray, radius: float, verts: np.ndarray, tris: np.ndarray,
                         normals: np.ndarray, edge_flat: np.ndarray, vertex_flat: np.ndarray,
                         cand: np.ndarray, count: int
                         ) -> tuple[bool, float, float, float, float, float, float, float, int]:
    """The deepest contact of a convex core grown by ``radius`` with the candidate triangles:
    ``(hit, nx, ny, nz, depth, px, py, pz, k)`` as a 3D contact kernel, plus a triangle.

    A core apart from every triangle: the nearest triangle (ties: the smallest k), ``depth =
    radius - d``, the normal of :func:`surface_normal` at the core's nearest point (internal
    edges smoothed), the point on the triangle. A core that touches or crosses triangles:
    they are taken plane by plane (:func:`coplanar` with the first of each piece, in the
    candidates' order), each plane's :func:`plane_push`, and the largest wins (ties: the
    piece met first): ``depth = push + radius``, the point the middle of the core's deepest
    feature moved by the push (on the plane, or on the line of the edge it leaves across). A
    crossing is always deeper than any triangle apart."""
    tri = np.empty((3, 3))
    cache = np.zeros(GJK_CACHE_SIZE, np.int64)
    crossed = np.empty(count, np.int64)
    crossings = 0
    near = math.inf
    near_k = -1
    ax = ay = az = 0.0
    for j in range(count):
        k = cand[j]
        d, px, py, pz, _qx, _qy, _qz = core_triangle(core, verts, tris, normals, k, tri, cache)
        if d > radius:
            continue
        if d == 0.0:
            # touching or crossing: resolved plane by plane below
            crossed[crossings] = k
            crossings += 1
        elif d < near or (d == near and k < near_k):
            near = d
            near_k = k
            ax, ay, az = px, py, pz
    if crossings > 0:
        taken = np.zeros(crossings, np.bool_)
        group = np.empty(crossings, np.int64)
        push_best = -1.0
        push_k = -1
        pnx = pny = pnz = 0.0
        for i in range(crossings):
            if taken[i]:
                continue
            # the piece of the plane of crossed[i]
            size = 0
            for j in range(i, crossings):
                if not taken[j] and coplanar(verts, tris, normals, crossed[i], crossed[j]):
                    taken[j] = True
                    group[size] = crossed[j]
                    size += 1
            push, mx, my, mz = plane_push(core, verts, tris, normals, edge_flat, group, size)
            if push > push_best:
                push_best = push
                push_k = crossed[i]
                pnx, pny, pnz = mx, my, mz
        mx, my, mz = deepest_middle(core, pnx, pny, pnz)
        return (True, pnx, pny, pnz, push_best + radius, mx + pnx * push_best,
                my + pny * push_best, mz + pnz * push_best, push_k)
    if near_k < 0:
        return False, 0.0, 0.0, 0.0, 0.0, 0.0, 0.0, 0.0, -1
    d, qx, qy, qz, nx, ny, nz = surface_normal(verts, tris, normals, edge_flat, vertex_flat,
                                               near_k, ax, ay, az)
    return True, nx, ny, nz, max(radius - d, 0.0), qx, qy, qz, near_k
