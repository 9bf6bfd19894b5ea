"""TriangleMesh construction and its ray walk: the compiled validation and edge adjacency
against plain references, the compact float32 tree the rays walk (outward-rounded boxes, every
triangle in exactly one leaf), and the walk's answers against every triangle on rays that start
exactly on the tree's box planes."""

from __future__ import annotations

import math

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from swept import HeightField, TriangleMesh
from swept._kernels import mesh as kmesh
from swept.constants import FLAT_EDGE_TOLERANCE
from swept.level import raycast_many
from swept.level.surface import adjacency, check_triangles, check_vertices


def brute_adjacency(verts: np.ndarray, tris: np.ndarray, normals: np.ndarray
                    ) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """The adjacency by comparing every edge with every other (the plain reference)."""
    m = tris.shape[0]
    edges = {}
    for k in range(m):
        for e in range(3):
            a, b = int(tris[k, e]), int(tris[k, (e + 1) % 3])
            edges.setdefault((min(a, b), max(a, b)), []).append((k, e))
    neighbors = np.full((m, 3), -1, np.int64)
    flat = np.zeros((m, 3), bool)
    for sharing in edges.values():
        if len(sharing) > 2:
            for k, e in sharing:
                neighbors[k, e] = -2
        elif len(sharing) == 2:
            (k1, e1), (k2, e2) = sorted(sharing, key=lambda ke: 3 * ke[0] + ke[1])
            neighbors[k1, e1] = k2
            neighbors[k2, e2] = k1
            n1, n2 = normals[k1], normals[k2]
            sine = math.sqrt(float((np.cross(n1, n2) ** 2).sum()))
            p = verts[tris[k1, e1]]
            q = verts[tris[k1, (e1 + 1) % 3]]
            sides = [float(np.dot(np.cross(q - p, verts[tris[k, (e + 2) % 3]] - p), n1))
                     for k, e in ((k1, e1), (k2, e2))]
            flat[k1, e1] = flat[k2, e2] = sine <= FLAT_EDGE_TOLERANCE and sides[0] * sides[1] < 0
    vertex_flat = np.zeros(verts.shape[0], bool)
    vertex_flat[tris.ravel()] = True
    for k in range(m):
        for e in range(3):
            if not flat[k, e]:
                vertex_flat[tris[k, e]] = vertex_flat[tris[k, (e + 1) % 3]] = False
    return neighbors, flat, vertex_flat


def fan(spokes: int, lift: float = 0.0) -> tuple[np.ndarray, np.ndarray]:
    """A disc of ``spokes`` triangles around vertex 0 (its rim lifted by ``lift``)."""
    angle = np.linspace(0.0, 2.0 * math.pi, spokes, endpoint=False)
    verts = np.vstack([[0.0, 0.0, 0.0],
                       np.c_[np.cos(angle), np.full(spokes, lift), np.sin(angle)]])
    tris = np.array([[0, 1 + (i + 1) % spokes, 1 + i] for i in range(spokes)])
    return verts, tris


# ------------------------------------------------------------------------------- adjacency


@pytest.mark.parametrize("spokes, lift", [(6, 0.0), (6, 0.3), (41, 0.0), (500, 0.0),
                                          (500, -0.2)])
def test_a_fan_of_any_size_links_its_spokes_and_is_flat_only_when_planar(spokes: int,
                                                                           lift: float) -> None:
    # a vertex shared by hundreds of edges: one large group of the counting sort
    verts, tris = fan(spokes, lift)
    m = TriangleMesh(verts, tris)
    ref = brute_adjacency(m.vertices, m.triangles, m.normals)
    got = adjacency(m.vertices, m.triangles, m.normals)
    for a, b in zip(got, ref):
        np.testing.assert_array_equal(a, b)
    # spoke i meets spoke i - 1 and i + 1 across its two edges from the centre
    assert m.neighbors[0, 0] == 1 and m.neighbors[0, 2] == spokes - 1
    assert (m.neighbors[:, 1] == -1).all()
    assert bool(m._vertex_flat[0]) == (lift == 0.0)
    assert not m._vertex_flat[1:].any()


def test_an_edge_of_three_triangles_has_no_single_neighbour() -> None:
    verts = np.array([[0, 0, 0], [1, 0, 0], [0, 1, 0], [0, -1, 0], [0, 0, 1.0], [2, 2, 2.0]])
    tris = np.array([[0, 1, 2], [1, 0, 3], [0, 1, 4], [2, 4, 5]])
    m = TriangleMesh(verts, tris)
    assert m.neighbors[0, 0] == m.neighbors[1, 0] == m.neighbors[2, 0] == -2
    for a, b in zip(adjacency(m.vertices, m.triangles, m.normals),
                    brute_adjacency(m.vertices, m.triangles, m.normals)):
        np.testing.assert_array_equal(a, b)


@settings(max_examples=40, deadline=None)
@given(st.integers(2, 9), st.integers(2, 9), st.integers(0, 2**32 - 1),
       st.sampled_from([0.0, 1e-3, 1.0]))
def test_adjacency_equals_the_pairwise_reference_on_random_terrains(rows: int, cols: int,
                                                                     seed: int, bump: float
                                                                     ) -> None:
    rng = np.random.default_rng(seed)
    heights = rng.normal(0.0, bump, (rows, cols)) if bump else np.zeros((rows, cols))
    hf = HeightField(heights, scale=(1.0, 1.0, 1.0))
    # drop some triangles (holes: boundary edges inside) and shuffle the rest
    keep = rng.random(hf.triangles.shape[0]) < 0.8
    keep[0] = True
    tris = hf.triangles[keep][rng.permutation(int(keep.sum()))]
    m = TriangleMesh(hf.vertices, tris)
    for a, b in zip(adjacency(m.vertices, m.triangles, m.normals),
                    brute_adjacency(m.vertices, m.triangles, m.normals)):
        np.testing.assert_array_equal(a, b)


def test_bad_triangles_name_the_first_bad_row() -> None:
    verts = check_vertices([[0, 0, 0], [1, 0, 0], [0, 1, 0], [2, 0, 0]])
    good = [[0, 1, 2]] * 3
    with pytest.raises(ValueError, match=r"triangles\[3\] = \[0, 1, 4\] has an index out of"):
        check_triangles(good + [[0, 1, 4], [0, 1, 3]], verts)
    with pytest.raises(ValueError, match=r"triangles\[3\] = \[0, 1, 3\] has zero area"):
        check_triangles(good + [[0, 1, 3], [0, 1, 4]], verts)
    with pytest.raises(ValueError, match=r"triangles\[1\] = \[-1, 1, 2\] has an index out of"):
        check_triangles([[0, 1, 2], [-1, 1, 2]], verts)
    tris, normals = check_triangles([[0, 1, 2], [0, 2, 1]], verts)
    np.testing.assert_array_equal(normals, [[0.0, 0.0, 1.0], [0.0, 0.0, -1.0]])


# ------------------------------------------------------------------------------- the tree


@pytest.mark.parametrize("x, lo, hi", [
    (0.5, 0.5, 0.5),
    (0.1, float(np.nextafter(np.float32(0.1), np.float32(0.0))), float(np.float32(0.1))),
    (-0.1, -float(np.float32(0.1)), -float(np.nextafter(np.float32(0.1), np.float32(0.0)))),
    (1e39, float(np.finfo(np.float32).max), math.inf),
    (-1e39, -math.inf, -float(np.finfo(np.float32).max)),
    (1e-50, 0.0, float(np.nextafter(np.float32(0.0), np.float32(1.0)))),
    (math.inf, math.inf, math.inf),
])
def test_float32_bounds_round_away_from_the_box(x: float, lo: float, hi: float) -> None:
    assert float(kmesh._outward32(x, False)) == lo
    assert float(kmesh._outward32(x, True)) == hi


def _brute(m: TriangleMesh, o: np.ndarray, d: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """Every ray against every triangle with the same watertight test."""
    unit = d / np.sqrt((d * d).sum(axis=1))[:, None]
    out_t = np.full(o.shape[0], np.inf)
    out_k = np.full(o.shape[0], -1)
    for r in range(o.shape[0]):
        frame = kmesh.ray_frame(*unit[r])
        for k in range(m.triangles.shape[0]):
            t = kmesh.ray_triangle(m.vertices, m.triangles, k, *o[r], frame, -1.0, math.inf)
            if t >= 0.0 and (t < out_t[r] or (t == out_t[r] and k < out_k[r])):
                out_t[r], out_k[r] = t, k
    return out_t, out_k


def test_rays_parallel_to_box_planes_from_origins_on_them_find_every_hit() -> None:
    # an axis-parallel ray whose origin lies exactly on a node's box plane gives 0 * inf = NaN
    # in that slab; the walk's comparisons ignore it, so the box is entered (touching counts)
    rng = np.random.default_rng(7)
    hf = HeightField(rng.normal(0.0, 0.5, (9, 9)), scale=(1.0, 1.0, 1.0))
    m = TriangleMesh(hf.vertices, hf.triangles)
    # the lo x and the hi z of the first two children's boxes of each row
    width = kmesh.TREE_WIDTH
    rows = m._tree[1:, :6 * width].astype(np.float64)
    planes = np.concatenate([rows[:40, [0, 5 * width]], rows[:40, [1, 5 * width + 1]]])
    # (a wide row's unused slot is an empty box of infinite planes)
    planes = planes[np.isfinite(planes).all(axis=1)]
    origins = []
    directions = []
    for row in range(planes.shape[0]):
        x, z = planes[row, 0], planes[row, 1]
        for d in ((0.0, -1.0, 0.0), (0.0, 1.0, 0.0), (0.0, 0.0, 1.0), (1.0, 0.0, 0.0)):
            origins.append((x, 5.0 if d[1] < 0 else -5.0 if d[1] > 0 else 0.0, z))
            directions.append(d)
    o = np.array(origins)
    d = np.array(directions)
    batch = raycast_many(m, o, d)
    ref_t, ref_k = _brute(m, o, d)
    np.testing.assert_array_equal(batch.distance, ref_t)
    np.testing.assert_array_equal(batch.handle, ref_k)
    assert batch.hit.any()


def test_a_direction_too_short_to_normalise_is_zero() -> None:
    m = TriangleMesh([[0, 0, 0], [1, 0, 0], [0, 0, 1]], [[0, 1, 2]])
    with pytest.raises(ValueError, match=r"directions\[1\] is zero"):
        raycast_many(m, [[0.2, 1, 0.2]] * 2, [[0, -1, 0], [0, -1e-200, 0]])
    # a short direction that still has a length is a direction (2^-500: its square is normal)
    batch = raycast_many(m, [[0.2, 1, 0.2]], [[0, -2.0 ** -500, 0]])
    assert batch.distance[0] == 1.0 and batch.handle[0] == 0
    assert batch.normal[0].tolist() == [0.0, 1.0, 0.0]
    assert batch.point[0].tolist() == [0.2, 0.0, 0.2]


def test_a_mesh_beyond_the_triangle_cap_is_a_value_error(monkeypatch) -> None:
    # the rays' tree keeps a leaf's first row in an int32 beside its count; a larger mesh
    # would wrap it, so the cap is checked at construction (lowered here to stay small)
    import swept.level.mesh as level_mesh

    monkeypatch.setattr(level_mesh, "MAX_MESH_TRIANGLES", 3)
    verts, tris = fan(4)
    with pytest.raises(ValueError, match="triangles holds 4 triangles, more than "
                                         "MAX_MESH_TRIANGLES = 3"):
        TriangleMesh(verts, tris)
    assert TriangleMesh(verts, tris[:3]).triangles.shape == (3, 3)


def test_the_walked_arrays_are_paged_copies_with_the_same_values_and_flags() -> None:
    """A mesh's arrays that a ray batch reads at random (its leaf blocks, their triangles'
    indices, its tree and the normals) are copied by ``_paged`` onto huge pages, each
    starting on a 64-byte line (a huge page's boundary from 2 MiB on, where Linux's
    ``madvise`` is there): the copies hold the very values the kernels computed, keep each
    array's read-only flag (the compiled kernels' signatures: a writable copy would compile
    them again) and their shapes."""
    import mmap

    from swept.level.mesh import HUGE_PAGE, _paged

    terrain = np.random.default_rng(5).normal(size=(150, 150))
    field = HeightField(terrain, scale=(1.0, 1.0, 1.0))
    mesh = TriangleMesh(field.vertices, field.triangles)
    assert mesh._packed.nbytes >= HUGE_PAGE
    for name in ("_packed", "_tree", "_order", "normals"):
        a = getattr(mesh, name)
        assert a.flags.c_contiguous and a.ctypes.data % 64 == 0, name
    if hasattr(mmap, "MADV_HUGEPAGE"):
        assert mesh._packed.ctypes.data % HUGE_PAGE == 0
    assert not mesh.normals.flags.writeable
    assert mesh._tree.flags.writeable and mesh._packed.flags.writeable
    assert np.array_equal(mesh.normals, field.normals)
    for a in (np.arange(7.0), np.arange(HUGE_PAGE // 8 + 3).reshape(-1, 1)):
        a.flags.writeable = False
        copy = _paged(a)
        assert copy.dtype == a.dtype and copy.shape == a.shape and not copy.flags.writeable
        assert np.array_equal(copy, a) and copy.ctypes.data % 64 == 0
