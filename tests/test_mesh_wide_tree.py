"""The wide tree a TriangleMesh's rays walk (:func:`swept._kernels.mesh.flatten_tree`).

Its layout: every triangle in one leaf, each child box holding its triangles' grown boxes,
unused slots empty. Its walk: every ray's answer (distance and triangle, ties to the smallest
index) equals every triangle tested one by one with the same watertight test, on rays aimed
at vertices, at points of edges and at random, at scales from 1e-3 to 1e4; a batch walked in
blocks, in the order of its origins or (one origin) of its directions, equals the rays cast
one at a time."""

from __future__ import annotations

import math

import numba
import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from shared import on_threads
from swept import HeightField, TriangleMesh
from swept._kernels import mesh as kmesh
from swept.constants import RAY_BLOCK, RAY_ORDER_MIN_RAYS
from swept.level import raycast_many


@numba.njit(cache=True)
def every_triangle(verts: np.ndarray, tris: np.ndarray, origins: np.ndarray,
                   units: np.ndarray, tmax: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """The exact reference: each ray against every triangle (the same watertight test)."""
    n = origins.shape[0]
    out_t = np.full(n, np.inf)
    out_k = np.full(n, -1, np.int64)
    for r in range(n):
        frame = kmesh.ray_frame(units[r, 0], units[r, 1], units[r, 2])
        for k in range(tris.shape[0]):
            t = kmesh.ray_triangle(verts, tris, k, origins[r, 0], origins[r, 1], origins[r, 2],
                                   frame, -1.0, tmax[r])
            if t >= 0.0 and (t < out_t[r] or (t == out_t[r] and k < out_k[r])):
                out_t[r] = t
                out_k[r] = k
    return out_t, out_k


def units(d: np.ndarray) -> np.ndarray:
    """The directions as the batch normalises them."""
    return d / np.sqrt((d * d).sum(axis=1))[:, None]


def bumpy(n: int, seed: int, scale: float) -> TriangleMesh:
    """A terrain of n x n cells (a height field's triangles) at ``scale``."""
    rng = np.random.default_rng(seed)
    hf = HeightField(rng.normal(0.0, 0.4, (n + 1, n + 1)) * scale,
                     scale=(scale, 1.0, scale))
    return TriangleMesh(hf.vertices, hf.triangles)


def blob(seed: int, scale: float) -> TriangleMesh:
    """A closed, lumpy sphere: an octahedron subdivided three times, its vertices pushed out
    to random radii (shared vertices by index: rays must not slip between its triangles)."""
    verts = [(1, 0, 0), (-1, 0, 0), (0, 1, 0), (0, -1, 0), (0, 0, 1), (0, 0, -1)]
    tris = [(0, 2, 4), (2, 1, 4), (1, 3, 4), (3, 0, 4), (2, 0, 5), (1, 2, 5), (3, 1, 5),
            (0, 3, 5)]
    points = [np.array(v, float) for v in verts]
    for _ in range(3):
        middle: dict[tuple[int, int], int] = {}

        def mid(a: int, b: int, middle: dict[tuple[int, int], int] = middle) -> int:
            key = (min(a, b), max(a, b))
            if key not in middle:
                points.append((points[a] + points[b]) / 2.0)
                middle[key] = len(points) - 1
            return middle[key]

        tris = [t for a, b, c in tris for t in ((a, mid(a, b), mid(c, a)),
                                                (b, mid(b, c), mid(a, b)),
                                                (c, mid(c, a), mid(b, c)),
                                                (mid(a, b), mid(b, c), mid(c, a)))]
    p = np.array(points)
    rng = np.random.default_rng(seed)
    p = p / np.linalg.norm(p, axis=1)[:, None] * rng.uniform(0.8, 1.2, (p.shape[0], 1))
    return TriangleMesh(p * scale, tris)


def aimed_rays(m: TriangleMesh, n: int, rng: np.random.Generator
               ) -> tuple[np.ndarray, np.ndarray]:
    """Rays from random points around the mesh aimed at its vertices, at points of its edges
    (midpoints and random fractions) and at random points: ``(origins, directions)``."""
    v = m.vertices[m.triangles]
    lo = v.reshape(-1, 3).min(axis=0)
    hi = v.reshape(-1, 3).max(axis=0)
    size = float((hi - lo).max())
    k = rng.integers(0, m.triangles.shape[0], n)
    corner = rng.integers(0, 3, n)
    a = v[k, corner]
    b = v[k, (corner + 1) % 3]
    f = rng.uniform(0.0, 1.0, (n, 1))
    f[: n // 3] = 0.5
    targets = np.concatenate([a, a + (b - a) * f, rng.uniform(lo, hi, (n, 3))])
    origins = rng.uniform(lo - 0.5 * size, hi + 0.5 * size, (3 * n, 3))
    return origins, targets - origins


def walk_each(m: TriangleMesh, o: np.ndarray, u: np.ndarray, tmax: np.ndarray
              ) -> tuple[np.ndarray, np.ndarray]:
    """The rays cast one at a time through the wide tree (:func:`kmesh.mesh_ray`)."""
    t = np.empty(o.shape[0])
    k = np.empty(o.shape[0], np.int64)
    for r in range(o.shape[0]):
        t[r], k[r] = kmesh.mesh_ray(m._packed, m._tree, m._order, *o[r], *u[r], -1.0, tmax[r])
    return np.where(k < 0, np.inf, t), k


@settings(max_examples=30, deadline=None)
@given(st.integers(1, 400), st.integers(0, 2**32 - 1),
       st.sampled_from([1e-6, 0.1, 1.0, 1e4, 1e7]))
def test_the_wide_tree_holds_every_triangle_once_in_boxes_that_hold_their_triangles(
        count: int, seed: int, scale: float) -> None:
    rng = np.random.default_rng(seed)
    verts = rng.normal(size=(3 * count, 3)) * scale
    m = TriangleMesh(verts, np.arange(3 * count).reshape(count, 3))
    tree = m._tree
    assert tree.dtype == np.float32 and tree.shape[1] == kmesh.TREE_COLUMNS
    width = kmesh.TREE_WIDTH
    refs = tree.view(np.int32)[:, kmesh.TREE_REFS:kmesh.TREE_REFS + width]
    corners = m.vertices[m.triangles]
    lo = corners.min(axis=1) - m._margin
    hi = corners.max(axis=1) + m._margin

    def rows_below(ref: int) -> list[int]:
        if ref >= 1:
            return [r for s in range(width) if tree[ref, s] <= tree[ref, 3 * width + s]
                    for r in rows_below(int(refs[ref, s]))]
        # a leaf: its block's lanes that hold a triangle
        code = -1 - ref
        first = kmesh.LEAF_LANES * (code >> kmesh.LEAF_COUNT_BITS)
        lanes = list(range(first, first + (code & ((1 << kmesh.LEAF_COUNT_BITS) - 1))))
        assert (m._order[lanes] >= 0).all()
        return lanes

    # the head: the root in slot 0, the other slots empty
    assert (tree[0, 1:width] == np.inf).all()
    assert (tree[0, 3 * width + 1:4 * width] == -np.inf).all()
    below_root = rows_below(int(refs[0, 0]))
    assert sorted(m._order[below_root].tolist()) == list(range(count))
    assert sorted(m._order[m._order >= 0].tolist()) == list(range(count))
    # each lane's corners are its triangle's, a lane past the leaf's count all zeros; a
    # block's triangles in increasing index (the first lane of a tie is the smallest index)
    lanes = kmesh.LEAF_LANES
    for block in range(m._packed.shape[0]):
        held = m._order[lanes * block:lanes * (block + 1)]
        held = held[held >= 0]
        assert 1 <= held.shape[0] <= lanes and (np.diff(held) > 0).all()
        for lane in range(lanes):
            k = m._order[lanes * block + lane]
            corners = m._packed[block, lane::lanes].reshape(3, 3)
            expect = m.vertices[m.triangles[k]] if k >= 0 else np.zeros((3, 3))
            assert np.array_equal(corners, expect)
    # a leaf is the highest BVH node of at most LEAF_LANES triangles: reached through nodes
    # that hold more (children have larger indices than their parents)
    links = m._links
    nodes = m._nodes.shape[0]
    block_of = kmesh.pack_leaves(m.vertices, m.triangles, links, nodes)[2]
    reached = np.zeros(nodes, bool)
    reached[0] = True
    for node in range(nodes):
        small = links[3 * node] < 0 or links[3 * node + 2] <= lanes
        assert (block_of[node] >= 0) == (reached[node] and small)
        if reached[node] and not small:
            reached[links[3 * node]] = reached[links[3 * node] + 1] = True
    assert (block_of[0] >= 0) == (count <= lanes)
    seen = set()
    for row in range(tree.shape[0]):
        used = 0
        for s in range(width):
            box_lo = tree[row, [s, width + s, 2 * width + s]].astype(np.float64)
            box_hi = tree[row, [3 * width + s, 4 * width + s, 5 * width + s]].astype(np.float64)
            if box_lo[0] == np.inf:
                # an unused slot: an empty box, after the used ones
                assert (box_lo == np.inf).all() and (box_hi == -np.inf).all()
                continue
            assert s == used
            used += 1
            ref = int(refs[row, s])
            if ref >= 1:
                assert ref not in seen
                seen.add(ref)
            below = m._order[rows_below(ref)]
            assert (box_lo <= lo[below]).all() and (box_hi >= hi[below]).all()
        # two slots at least below the head (a binary node's two children)
        assert used >= (1 if row == 0 else 2)
    # every row but the head is some row's child, depth first: the row after an internal
    # row is one of its children
    assert seen == set(range(1, tree.shape[0]))
    for row in range(1, tree.shape[0] - 1):
        if (refs[row] >= 1).any():
            assert row + 1 in refs[row].tolist()


@pytest.mark.parametrize("scale", [1e-3, 1.0, 1e4])
@pytest.mark.parametrize("make", [bumpy, blob])
def test_wide_tree_rays_equal_every_triangle_on_vertex_edge_and_random_rays(
        make: object, scale: float) -> None:
    m = bumpy(14, 3, scale) if make is bumpy else blob(4, scale)
    rng = np.random.default_rng(11)
    o, d = aimed_rays(m, 300, rng)
    tmax = np.full(o.shape[0], np.inf)
    # some reaches end short of the surface, some exactly at a hit
    tmax[::5] = rng.uniform(0.0, 2.0 * scale, tmax[::5].shape[0])
    u = units(d)
    exact_t, _ = every_triangle(m.vertices, m.triangles, o[1::5], u[1::5], np.full(
        o[1::5].shape[0], np.inf))
    tmax[1::5] = np.where(np.isfinite(exact_t), exact_t, 1.0)
    ref_t, ref_k = every_triangle(m.vertices, m.triangles, o, u, tmax)
    batch = raycast_many(m, o, d, tmax)
    np.testing.assert_array_equal(batch.distance, ref_t)
    np.testing.assert_array_equal(batch.handle, ref_k)
    one_t, one_k = walk_each(m, o, u, tmax)
    np.testing.assert_array_equal(one_t, ref_t)
    np.testing.assert_array_equal(one_k, ref_k)
    assert batch.hit.sum() > o.shape[0] // 4
    # a reach exactly at the hit keeps it
    assert np.isfinite(batch.distance[1::5]).sum() >= np.isfinite(exact_t).sum()


def test_rays_from_inside_a_closed_wide_tree_mesh_hit_it_through_every_vertex() -> None:
    # from the centre of a closed blob toward each vertex and each edge midpoint: every ray
    # leaves through the surface, none slips between triangles; equal to every triangle
    m = blob(9, 1.0)
    targets = np.concatenate([m.vertices, (m.vertices[m.triangles[:, 0]]
                                           + m.vertices[m.triangles[:, 1]]) / 2.0])
    o = np.zeros_like(targets)
    batch = raycast_many(m, o, targets)
    assert batch.hit.all()
    ref_t, ref_k = every_triangle(m.vertices, m.triangles, o, units(targets),
                                  np.full(o.shape[0], np.inf))
    np.testing.assert_array_equal(batch.distance, ref_t)
    np.testing.assert_array_equal(batch.handle, ref_k)


@pytest.mark.parametrize("thread_count", [1, 2])
def test_a_lidar_batch_in_blocks_equals_the_rays_one_at_a_time(thread_count: int) -> None:
    # a batch from one origin is walked in its directions' Morton order, RAY_BLOCK rays a
    # block, each answer written back to its own row: the same as one ray at a time
    m = blob(5, 10.0)
    n = RAY_ORDER_MIN_RAYS + RAY_BLOCK // 2 + 3
    rng = np.random.default_rng(12)
    d = rng.normal(size=(n, 3))
    o = np.tile([0.5, -0.25, 1.0], (n, 1))
    tmax = rng.uniform(5.0, 15.0, n)
    assert kmesh.ray_order(o, d).shape == (n,)
    with on_threads(thread_count):
        batch = raycast_many(m, o, d, tmax)
    u = units(d)
    one_t, one_k = walk_each(m, o, u, tmax)
    np.testing.assert_array_equal(batch.distance, one_t)
    np.testing.assert_array_equal(batch.handle, one_k)
    hit = one_k >= 0
    assert 0 < hit.sum() < n
    np.testing.assert_array_equal(batch.point[hit], o[hit] + one_t[hit, None] * u[hit])
    assert (batch.point[~hit] == 0.0).all() and (batch.normal[~hit] == 0.0).all()


@settings(max_examples=20, deadline=None)
@given(st.integers(0, 2**32 - 1), st.sampled_from([1e-3, 1.0, 1e4]))
def test_wide_tree_rays_equal_every_triangle_property(seed: int, scale: float) -> None:
    rng = np.random.default_rng(seed)
    m = _BLOBS[scale]
    o, d = aimed_rays(m, 20, rng)
    u = units(d)
    tmax = np.full(o.shape[0], math.inf)
    ref_t, ref_k = every_triangle(m.vertices, m.triangles, o, u, tmax)
    t, k = walk_each(m, o, u, tmax)
    np.testing.assert_array_equal(t, ref_t)
    np.testing.assert_array_equal(k, ref_k)


_BLOBS = {scale: blob(6, scale) for scale in (1e-3, 1.0, 1e4)}


@numba.njit(cache=True)
def entries_both(tree: np.ndarray, rays: np.ndarray, limit: float
                 ) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """Each row's entry t of each box for each ray (origin, direction): the vector
    intrinsic's, and :func:`kmesh._slab` lane by lane; and the intrinsic's mask of boxes
    entered."""
    width = kmesh.TREE_WIDTH
    hi = 3 * width
    n = rays.shape[0] * tree.shape[0]
    wide = np.empty((n, width))
    scalar = np.empty((n, width))
    masks = np.empty(n, np.int64)
    i = 0
    for r in range(rays.shape[0]):
        ox, oy, oz = rays[r, 0], rays[r, 1], rays[r, 2]
        ix, iy, iz, nx, ny, nz = kmesh._slab_frame(rays[r, 3], rays[r, 4], rays[r, 5])
        for row in range(tree.shape[0]):
            masks[i] = kmesh._entry_row(tree, row, wide[i], ox, oy, oz, ix, iy, iz, nx, ny,
                                        nz, limit)
            for s in range(width):
                tn, tf = kmesh._slab(tree[row, nx + s], tree[row, hi - nx + s], ox, ix,
                                     0.0, limit)
                tn, tf = kmesh._slab(tree[row, width + ny + s], tree[row, width + hi - ny + s],
                                     oy, iy, tn, tf)
                tn, tf = kmesh._slab(tree[row, 2 * width + nz + s],
                                     tree[row, 2 * width + hi - nz + s], oz, iz, tn, tf)
                scalar[i, s] = tn if tn <= tf else np.inf
            i += 1
    return wide, scalar, masks


def test_the_vector_slab_test_equals_the_scalar_one_lane_by_lane() -> None:
    # a row's slab tests in vector instructions must be the scalar test exactly, a NaN from an
    # origin on a plane of a parallel ray included (it constrains nothing) and the empty
    # slots' infinite planes (never entered)
    m = blob(7, 3.0)
    tree = m._tree
    rng = np.random.default_rng(13)
    rays = np.concatenate([rng.uniform(-4, 4, (40, 3)), rng.normal(size=(40, 3))], axis=1)
    # axis-parallel rays from points on the rows' planes
    for row in range(1, 21):
        width = kmesh.TREE_WIDTH
        x, y, z = tree[row, 0], tree[row, width], tree[row, 5 * width]
        rays = np.concatenate([rays, [[x, y, z, 0, 0, 1], [x, y, z, 1, 0, 0],
                                      [x, y, z, 0, -1, 0], [x, y, 0.0, 0, 0, -1]]])
    rays = rays[np.isfinite(rays).all(axis=1)]
    for limit in (math.inf, 2.5, 0.0):
        wide, scalar, masks = entries_both(tree, rays, limit)
        np.testing.assert_array_equal(wide, scalar)
        # bit s of the mask: box s entered
        bits = (masks[:, None] >> np.arange(kmesh.TREE_WIDTH)) & 1
        np.testing.assert_array_equal(bits == 1, wide < math.inf)
        assert not np.isnan(wide).any()
    assert (wide == 0.0).any() and (wide == math.inf).any()


@numba.njit(cache=True)
def lanes_both(packed: np.ndarray, rays: np.ndarray, tmin: float, tmax: float
               ) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """Each block's lane t for each ray: the vector intrinsic's, :func:`kmesh._watertight`
    lane by lane, and the vector nearest lane's ``(t, lane)``."""
    lanes = kmesh.LEAF_LANES
    n = rays.shape[0] * packed.shape[0]
    wide = np.empty((n, lanes))
    scalar = np.empty((n, lanes))
    nearest = np.empty((n, 2))
    i = 0
    for r in range(rays.shape[0]):
        kx, ky, kz, sx, sy, sz = kmesh.ray_frame(rays[r, 3], rays[r, 4], rays[r, 5])
        o = (rays[r, 0], rays[r, 1], rays[r, 2])
        for b in range(packed.shape[0]):
            got = kmesh._leaf_lanes(packed, b, kx, ky, kz, o[kx], o[ky], o[kz], sx, sy, sz,
                                    tmin, tmax)
            for s in range(lanes):
                wide[i, s] = got[s]
            t, lane = kmesh._leaf_nearest(packed, b, kx, ky, kz, o[kx], o[ky], o[kz], sx, sy,
                                          sz, tmin, tmax)
            nearest[i, 0] = t
            nearest[i, 1] = lane
            for s in range(lanes):
                scalar[i, s] = kmesh._watertight(
                    packed[b, lanes * kx + s], packed[b, lanes * ky + s],
                    packed[b, lanes * kz + s], packed[b, lanes * (3 + kx) + s],
                    packed[b, lanes * (3 + ky) + s], packed[b, lanes * (3 + kz) + s],
                    packed[b, lanes * (6 + kx) + s], packed[b, lanes * (6 + ky) + s],
                    packed[b, lanes * (6 + kz) + s], o[kx], o[ky], o[kz], sx, sy, sz, tmin,
                    tmax)
            i += 1
    return wide, scalar, nearest


def nearest_lane(scalar: np.ndarray) -> np.ndarray:
    """Each row's least hit t and its first lane (inf and LEAF_LANES for no hit)."""
    t = np.where(scalar >= 0.0, scalar, np.inf)
    least = t.min(axis=1)
    lane = np.where(np.isfinite(least), np.argmax(t == least[:, None], axis=1),
                    kmesh.LEAF_LANES)
    return np.stack([least, lane.astype(float)], axis=1)


def test_the_vector_triangle_test_equals_the_watertight_test_lane_by_lane() -> None:
    # a leaf's triangles tested in vector instructions must be the scalar watertight test
    # exactly, and the nearest lane the first of the least t: rays through vertices and
    # edges (edge functions exactly 0), rays in a triangle's plane, a reach ending exactly at
    # a hit, and the zero triangles that pad a leaf (never hit)
    m = bumpy(6, 14, 1.0)
    rng = np.random.default_rng(15)
    o, d = aimed_rays(m, 30, rng)
    u = units(d)
    # a ray along a flat stretch's plane: y = const over a grid line
    flat = np.array([[0.0, 0.0, 0.0, 1.0, 0.0, 0.0], [0.5, 0.0, -1.0, 0.0, 0.0, 1.0]])
    rays = np.concatenate([np.concatenate([o, u], axis=1), flat])
    for tmin, tmax in ((-1.0, math.inf), (-1.0, 1.5), (0.5, math.inf)):
        wide, scalar, nearest = lanes_both(m._packed, rays, tmin, tmax)
        np.testing.assert_array_equal(wide, scalar)
        np.testing.assert_array_equal(nearest, nearest_lane(scalar))
        assert (wide >= 0.0).any() and (wide == kmesh.MISS).any()
    # the exact reach of a hit keeps it, a reach just short drops it, in both tests
    first, _, _ = lanes_both(m._packed, rays, -1.0, math.inf)
    at = np.argwhere(first > 0.0)[0]
    t = float(first[at[0], at[1]])
    for reach, kept in ((t, True), (float(np.nextafter(t, 0.0)), False)):
        wide, scalar, nearest = lanes_both(m._packed, rays, -1.0, reach)
        np.testing.assert_array_equal(wide, scalar)
        np.testing.assert_array_equal(nearest, nearest_lane(scalar))
        assert (wide[at[0], at[1]] == t) == kept


@pytest.mark.parametrize("copies", [2, 3, 9])
def test_a_tie_between_coincident_triangles_goes_to_the_smallest_index(copies: int) -> None:
    # the leaf test returns the first lane of the least t, and a block's lanes are sorted by
    # triangle index, so coincident triangles (every lane of a leaf equal) answer with the
    # smallest index, whether the copies share a leaf (2, 3) or spread over several (9)
    rng = np.random.default_rng(copies)
    base = rng.uniform(-1.0, 1.0, (5, 3, 3))
    base[:, :, 1] *= 0.1
    # the copies of each triangle far apart in index, shuffled
    tris = np.arange(5 * 3).reshape(5, 3)
    order = rng.permutation(5 * copies)
    all_tris = np.tile(tris, (copies, 1))[order]
    m = TriangleMesh(base.reshape(-1, 3), all_tris)
    centres = base.mean(axis=1)
    o = centres + (0.0, 3.0, 0.0)
    d = np.tile([0.0, -1.0, 0.0], (5, 1))
    ref_t, ref_k = every_triangle(m.vertices, m.triangles, o, d, np.full(5, np.inf))
    batch = raycast_many(m, o, d)
    np.testing.assert_array_equal(batch.distance, ref_t)
    np.testing.assert_array_equal(batch.handle, ref_k)
    t, k = walk_each(m, o, d, np.full(5, np.inf))
    np.testing.assert_array_equal(k, ref_k)
    # the reference's answer is the smallest index among the triangle's copies (ties)
    hit = ref_k >= 0
    assert hit.sum() >= 3
    for r in np.flatnonzero(hit):
        same = np.flatnonzero((all_tris == all_tris[ref_k[r]]).all(axis=1))
        assert ref_k[r] == same.min()


@pytest.mark.parametrize("make", [lambda: blob(3, 1.0), lambda: bumpy(1, 4, 1.0)])
def test_single_rays_start_at_the_roots_row_and_equal_every_triangle_on_its_box(
        make: object) -> None:
    # a single ray's walk skips the head row, whose one box is the root's, and starts at the
    # root's row (kmesh._root_row): the boxes below nest in the root's, so no answer moves;
    # rays from the root box's faces, edges and corners, along its faces (zero components:
    # infinite inverses, NaN slab products), and from outside it past it and into it equal
    # every triangle, in the batch and one at a time; a mesh whose root is a leaf (two
    # triangles) starts at the head row
    m = make()  # type: ignore[operator]
    root = kmesh.tree_refs(m._tree)[0, kmesh.TREE_REFS]
    assert (root == 1) if m.triangles.shape[0] > kmesh.LEAF_LANES else (root < 0)
    # the root's box as the head row holds it (float32, grown by the mesh's margin)
    w = kmesh.TREE_WIDTH
    lo = m._tree[0, [0, w, 2 * w]].astype(np.float64)
    hi = m._tree[0, [3 * w, 4 * w, 5 * w]].astype(np.float64)
    rng = np.random.default_rng(7)
    corners = np.array([(x, y, z) for x in (lo[0], hi[0]) for y in (lo[1], hi[1])
                        for z in (lo[2], hi[2])])
    faces = rng.uniform(lo, hi, (60, 3))
    axis = rng.integers(0, 3, 60)
    faces[np.arange(60), axis] = np.where(rng.random(60) < 0.5, lo[axis], hi[axis])
    axes = np.eye(3)
    starts = np.concatenate([corners, faces, rng.uniform(lo - 1.0, hi + 1.0, (60, 3))])
    o = np.repeat(starts, 7, axis=0)
    d = np.concatenate([np.concatenate([axes, -axes, rng.normal(size=(1, 3))])
                        for _ in range(starts.shape[0])])
    tmax = np.full(o.shape[0], np.inf)
    ref_t, ref_k = every_triangle(m.vertices, m.triangles, o, units(d), tmax)
    batch = raycast_many(m, o, d)
    np.testing.assert_array_equal(batch.distance, ref_t)
    np.testing.assert_array_equal(batch.handle, ref_k)
    one_t, one_k = walk_each(m, o, units(d), tmax)
    np.testing.assert_array_equal(one_t, ref_t)
    np.testing.assert_array_equal(one_k, ref_k)
    assert 0 < (ref_k >= 0).sum() < o.shape[0]
