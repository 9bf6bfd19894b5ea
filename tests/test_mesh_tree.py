"""The walks of a TriangleMesh's compact tree (float32 boxes, 64-byte rows).

Sphere sweeps walk it in one traversal that also decides a start in contact: every answer
equals the cast over every triangle (no tree), fraction and triangle, bit for bit, with 0
missed impacts. A large ray batch is walked in the order of its origins' Morton code
(:func:`swept._kernels.mesh.ray_order`), each answer written to the ray's own row: the batch
equals the rays cast one at a time, whatever the order, on one thread or several."""

from __future__ import annotations

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from shared import on_threads
from swept import Ray, Sphere, TriangleMesh, raycast, sweep
from swept._kernels import mesh as kmesh
from swept.constants import RAY_ORDER_BITS, RAY_ORDER_MIN_RAYS
from swept.level import raycast_many


def terrain(n: int, seed: int, size: float = 1.0) -> TriangleMesh:
    """A bumpy terrain of n x n cells of ``size`` (heights up to half a cell)."""
    rng = np.random.default_rng(seed)
    xs = np.arange(n + 1) * size
    # heights on a grid of 1/64 of a cell: sums with them are exact in the tests
    heights = np.round(rng.uniform(0.0, 0.5, (n + 1, n + 1)) * 64.0) / 64.0 * size
    verts = np.array([(xs[j], heights[i, j], xs[i]) for i in range(n + 1) for j in range(n + 1)])
    tris = []
    for i in range(n):
        for j in range(n):
            a = i * (n + 1) + j
            tris += [(a, a + n + 1, a + n + 2), (a, a + n + 2, a + 1)]
    return TriangleMesh(verts, tris)


def tree_cast(m: TriangleMesh, c: np.ndarray, v: np.ndarray, r: float,
              max_fraction: float = 1.0) -> tuple[float, int]:
    """The compact-tree walk the mesh's sweeps call."""
    fraction, k = kmesh.mesh_sphere_cast(m.vertices, m.triangles, m.normals, m._tree, m._order,
                                         c[0], c[1], c[2], v[0], v[1], v[2], r, max_fraction)
    return fraction, k


def every_cast(m: TriangleMesh, c: np.ndarray, v: np.ndarray, r: float,
               max_fraction: float = 1.0) -> tuple[float, int]:
    """The exact reference: the ball against every triangle, no tree."""
    every = np.arange(m.triangles.shape[0], dtype=np.int64)
    fraction, k = kmesh.sphere_cast(m.vertices, m.triangles, m.normals, every, every.shape[0],
                                    c[0], c[1], c[2], v[0], v[1], v[2], r, max_fraction)
    return fraction, k


def test_tree_sweeps_equal_the_cast_over_every_triangle_on_a_terrain() -> None:
    m = terrain(12, seed=1)
    rng = np.random.default_rng(7)
    hits = starts = 0
    for _ in range(400):
        c = rng.uniform((-1, -1, -1), (13, 2, 13))
        v = rng.normal(size=3) * rng.uniform(0.1, 8.0)
        r = rng.uniform(0.01, 1.5)
        f, k = tree_cast(m, c, v, r)
        assert (f, k) == every_cast(m, c, v, r)
        hits += k >= 0
        starts += k >= 0 and f == 0.0
    assert hits > 150 and starts > 20


def test_a_ball_starting_on_the_surface_picks_the_triangle_of_the_full_search() -> None:
    # a ball resting exactly on a vertex shared by six triangles, and one on an edge: the
    # start is decided in the walk, with the choice of touching_triangle over all of them
    m = terrain(4, seed=3)
    for corner in (m.vertices[12], 0.5 * (m.vertices[6] + m.vertices[7])):
        for v in ((0.0, -1.0, 0.0), (1.0, 0.0, 0.0), (0.3, 0.2, -0.9), (0.0, 0.0, 0.0)):
            c = corner + np.array([0.0, 0.25, 0.0])
            f, k = tree_cast(m, c, np.array(v), 0.25)
            assert (f, k) == every_cast(m, c, np.array(v), 0.25)
            assert f == 0.0 and k >= 0


def test_zero_motion_finds_the_touching_triangle_or_misses() -> None:
    m = terrain(6, seed=5)
    rng = np.random.default_rng(2)
    zero = np.zeros(3)
    found = 0
    for _ in range(200):
        c = rng.uniform((0, -0.5, 0), (6, 1.0, 6))
        r = rng.uniform(0.05, 0.6)
        f, k = tree_cast(m, c, zero, r)
        assert (f, k) == every_cast(m, c, zero, r)
        found += k >= 0
    assert found > 30


def test_a_ball_far_larger_than_the_mesh_still_starts_in_contact() -> None:
    # The walk decides a start in contact only in leaves it enters at exactly t = 0, the
    # centre inside the leaf's box grown by the radius; that holds in floats because rounding
    # is monotone (fl(hi + r) >= c whenever hi + r >= c), even where half an ulp of r is far
    # more than the boxes' margin (relative to the mesh): a ball 1e6 to 3e9 times the mesh
    # resting on its highest vertex must answer (0, k), and one a hair above must not.
    m = terrain(3, seed=9)
    top = m.vertices[:, 1].max()
    peak = int(np.argmax(m.vertices[:, 1]))
    for r in (1e6, 1e8, 3e9):
        # the ball's lowest point exactly on the highest vertex
        c = m.vertices[peak] + np.array([0.0, r, 0.0])
        assert c[1] - r == top
        for v in ((0.0, -1.0, 0.0), (5.0, 0.0, 0.0), (0.0, 0.0, 0.0)):
            f, k = tree_cast(m, c, np.array(v), r)
            assert (f, k) == every_cast(m, c, np.array(v), r)
            assert f == 0.0 and k >= 0
        # a hair above: clear of the mesh, a sideways move misses and a fall hits just after
        c[1] = np.nextafter(c[1], np.inf)
        for v, hits in (((5.0, 0.0, 0.0), False), ((0.0, -1.0, 0.0), True)):
            f, k = tree_cast(m, c, np.array(v), r)
            assert (f, k) == every_cast(m, c, np.array(v), r)
            assert (k >= 0) == hits and (not hits or 0.0 < f < 1e-6)


def test_sweeps_that_end_exactly_on_a_face_hit_at_the_end() -> None:
    # straight down onto a flat floor: the touch at exactly the end of the move counts
    verts = [(0, 0, 0), (4, 0, 0), (4, 0, 4), (0, 0, 4)]
    m = TriangleMesh(verts, [(0, 2, 1), (0, 3, 2)])
    hit = sweep(Sphere((1.0, 3.0, 1.5), 1.0), (0, -2, 0), m)
    assert hit is not None and hit.fraction == 1.0 and tuple(hit.normal) == (0, 1, 0)
    assert sweep(Sphere((1.0, 3.0, 1.5), 1.0), (0, -1.999, 0), m) is None
    # grazing: moving parallel to the floor at exactly the radius above it, the ball first
    # touches the floor's edge x = 0 when its centre is over it, a quarter of the way
    c = np.array([-2.0, 1.0, 1.0])
    v = np.array([8.0, 0.0, 0.0])
    f, k = tree_cast(m, c, v, 1.0)
    assert (f, k) == every_cast(m, c, v, 1.0)
    assert k >= 0 and f == pytest.approx(0.25, abs=1e-12)


@pytest.mark.parametrize("scale", [1e-6, 1e-3, 1.0, 1e4, 1e7])
def test_tree_sweeps_scale_with_the_mesh(scale: float) -> None:
    base = terrain(5, seed=11)
    m = TriangleMesh(base.vertices * scale, base.triangles)
    rng = np.random.default_rng(13)
    for _ in range(60):
        c = rng.uniform((-1, -1, -1), (6, 2, 6)) * scale
        v = rng.normal(size=3) * 4.0 * scale
        r = rng.uniform(0.05, 1.0) * scale
        assert tree_cast(m, c, v, r) == every_cast(m, c, v, r)


@settings(max_examples=150, deadline=None)
@given(st.tuples(*[st.floats(-2.0, 6.0)] * 3), st.tuples(*[st.floats(-6.0, 6.0)] * 3),
       st.floats(0.0, 2.0), st.floats(0.0, 1.0))
def test_tree_sweeps_equal_the_reference_property(c: tuple[float, ...], v: tuple[float, ...],
                                                  r: float, mf: float) -> None:
    m = _PROPERTY_MESH
    ca = np.array(c)
    va = np.array(v)
    assert tree_cast(m, ca, va, r, mf) == every_cast(m, ca, va, r, mf)


_PROPERTY_MESH = terrain(4, seed=17)



def _cull_agrees(m: TriangleMesh, k: int, c: np.ndarray, u: np.ndarray, r: float,
                 limit: float) -> bool:
    """Whether the culled cast of triangle k equals the exact one (for a ball clear of it)."""
    args = (m.vertices, m.triangles, m.normals, k, c[0], c[1], c[2], u[0], u[1], u[2], r,
            limit)
    return bool(kmesh.sphere_triangle_cast(*args) == kmesh.sphere_triangle_hit(*args))


@pytest.mark.parametrize("scale, offset", [(1e-6, 0.0), (1.0, 0.0), (1.0, 1e6), (1e7, 0.0)])
def test_the_plane_cull_never_drops_a_touch_at_the_slab_edge(scale: float, offset: float
                                                             ) -> None:
    # A triangle is skipped when the ball's path stays beyond the slab |height| <= radius of
    # its plane at both ends; a path that ends exactly on the slab's edge (touching the face
    # at the very end of the reach) or runs along it (grazing) must still be cast: the cull's
    # slack (PLANE_CULL_TOLERANCE) keeps those, at any scale and far from the origin.
    verts = np.array([(0.0, 0.0, 0.0), (4.0, 0.0, 0.0), (0.0, 0.0, 4.0)]) * scale + offset
    m = TriangleMesh(verts, [(0, 2, 1)])
    r = 0.5 * scale
    base = np.array([1.0, 0.0, 1.0]) * scale + offset
    down = np.array([0.0, -1.0, 0.0])
    # straight down, reaching the face exactly at the end of the reach: a hit at the limit
    c = base + np.array([0.0, 2.0, 0.0]) * scale
    limit = 1.5 * scale
    assert _cull_agrees(m, 0, c, down, r, limit)
    t = kmesh.sphere_triangle_cast(m.vertices, m.triangles, m.normals, 0, *c, *down, r, limit)
    assert t == pytest.approx(limit, rel=1e-9)
    # grazing along the face at exactly the radius, from beside the triangle toward its edge
    side = np.array([1.0, 0.0, 0.0])
    c = np.array([-1.0, 0.5, 1.0]) * scale + offset
    assert _cull_agrees(m, 0, c, side, r, 3.0 * scale)
    # a hair farther than the radius: both answers miss
    c = np.array([-1.0, 0.5 + 1e-6, 1.0]) * scale + offset
    assert _cull_agrees(m, 0, c, side, r, 3.0 * scale)


@settings(max_examples=300, deadline=None)
@given(st.integers(0, 31), st.tuples(*[st.floats(-2.0, 6.0)] * 3),
       st.tuples(*[st.floats(-1.0, 1.0)] * 3), st.floats(0.0, 1.5), st.floats(0.0, 8.0))
def test_the_plane_cull_equals_the_exact_cast_property(k: int, c: tuple[float, ...],
                                                        u: tuple[float, ...], r: float,
                                                        limit: float) -> None:
    m = _PROPERTY_MESH
    ca = np.array(c)
    ua = np.array(u)
    length = float(np.sqrt(ua @ ua))
    if length < 1e-3:
        return
    ua = ua / length
    d, _h = kmesh._touch(m.vertices, m.triangles, m.normals, k, *ca, 0.0, 0.0, 0.0)
    if d <= r:
        # the cast is for a ball clear of the triangle
        return
    assert _cull_agrees(m, k, ca, ua, r, limit)


# ---------------------------------------------------------------------------------- ray order


def morton(origins: np.ndarray) -> np.ndarray:
    """The codes ray_order sorts by, computed here in numpy from its definition."""
    lo = origins.min(axis=0)
    hi = origins.max(axis=0)
    span = np.where(hi > lo, hi - lo, 1.0)
    steps = ((origins - lo) * np.where(hi > lo, (2 ** RAY_ORDER_BITS - 1) / span, 0.0)
             ).astype(np.int64)
    return interleave(steps)


def interleave(steps: np.ndarray) -> np.ndarray:
    """The Morton codes of integer steps (n, 3): their bits interleaved, x first."""
    codes = np.zeros(steps.shape[0], np.int64)
    for b in range(RAY_ORDER_BITS - 1, -1, -1):
        for a in range(3):
            codes = (codes << 1) | ((steps[:, a] >> b) & 1)
    return codes


def hilbert(x: np.ndarray, y: np.ndarray) -> np.ndarray:
    """The Hilbert index of the cells (x, y) of a square of 2^RAY_ORDER_BITS cells a side,
    from its definition: the quadrant's two bits a level, from the highest, then the rest
    of the square turned into the quadrant's frame (a lower quadrant transposed, its right
    one mirrored first)."""
    side = 1 << RAY_ORDER_BITS
    x = x.copy()
    y = y.copy()
    code = np.zeros(x.shape[0], np.int64)
    s = side >> 1
    while s > 0:
        rx = ((x & s) > 0).astype(np.int64)
        ry = ((y & s) > 0).astype(np.int64)
        code += s * s * ((3 * rx) ^ ry)
        lower = ry == 0
        right = lower & (rx == 1)
        x[right] = side - 1 - x[right]
        y[right] = side - 1 - y[right]
        x[lower], y[lower] = y[lower].copy(), x[lower].copy()
        s >>= 1
    return code


def direction_codes(d: np.ndarray) -> np.ndarray:
    """The codes ray_order sorts a one-origin batch by, from the definition: the octant
    (signs of x, y, z), then the Hilbert index of the direction's point on that octant's
    face of the octahedron |x| + |y| + |z| = 1 (its x and z cut into steps)."""
    a = np.abs(d)
    steps = 2 ** RAY_ORDER_BITS - 1
    scale = steps / ((a[:, 0] + a[:, 1]) + a[:, 2])
    x = np.minimum((a[:, 0] * scale).astype(np.int64), steps)
    y = np.minimum((a[:, 2] * scale).astype(np.int64), steps)
    octant = (d[:, 0] < 0) * 4 + (d[:, 1] < 0) * 2 + (d[:, 2] < 0) * 1
    return (octant.astype(np.int64) << (2 * RAY_ORDER_BITS)) | hilbert(x, y)


@given(st.integers(0, 2**21 - 1))
@settings(max_examples=200, deadline=None)
def test_spreading_an_axis_puts_bit_b_at_bit_3b(x: int) -> None:
    # the masked shifts of the Morton code equal the bit-by-bit interleave of one axis
    want = sum(((x >> b) & 1) << (3 * b) for b in range(21))
    assert kmesh._spread_bits(x) == want
    # bits past the 21st are dropped
    assert kmesh._spread_bits(x | (1 << 21) | (1 << 40)) == want


def test_the_walk_order_is_the_stable_sort_by_morton_code() -> None:
    rng = np.random.default_rng(1)
    o = rng.uniform(-50.0, 50.0, (RAY_ORDER_MIN_RAYS + 123, 3))
    d = rng.normal(size=o.shape)
    # duplicates: equal codes keep the batch's order
    o[100:200] = o[5]
    walk = kmesh.ray_order(o, d)
    assert np.array_equal(walk, np.argsort(morton(o), kind="stable"))


def test_small_batches_and_one_ray_keep_the_batch_order() -> None:
    rng = np.random.default_rng(2)
    o = rng.uniform(0, 1, (RAY_ORDER_MIN_RAYS - 1, 3))
    assert kmesh.ray_order(o, rng.normal(size=o.shape)).shape == (0,)
    # every ray from one point along one direction: nothing to order
    o = np.full((RAY_ORDER_MIN_RAYS * 2, 3), 7.5)
    assert kmesh.ray_order(o, np.full(o.shape, -2.0)).shape == (0,)
    # a flat axis is one step on that axis, the others still order
    o = rng.uniform(0, 1, (RAY_ORDER_MIN_RAYS, 3))
    o[:, 1] = 3.0
    assert np.array_equal(kmesh.ray_order(o, rng.normal(size=o.shape)),
                          np.argsort(morton(o), kind="stable"))


def test_a_lidar_is_walked_in_the_order_of_its_directions() -> None:
    # every ray from one point: sorted by octant, then along a Hilbert curve over the
    # octant's face of the octahedron; the axis-aligned ones (components exactly -1, 0, 1)
    # at the face's corners, lengths from 1e-3 to 1e4 (the code is of the direction alone)
    rng = np.random.default_rng(8)
    n = RAY_ORDER_MIN_RAYS + 77
    o = np.full((n, 3), -3.25)
    d = rng.normal(size=(n, 3)) * rng.uniform(1e-3, 1e4, (n, 1))
    d[:6] = [(1, 0, 0), (-1, 0, 0), (0, 1, 0), (0, -1, 0), (0, 0, 5), (0, 0, -1e-3)]
    walk = kmesh.ray_order(o, d)
    assert np.array_equal(walk, np.argsort(direction_codes(d), kind="stable"))
    # the octants in turn: +x before -x, +y before -y
    assert list(walk).index(0) < list(walk).index(1)
    assert list(walk).index(2) < list(walk).index(3)
    # a direction's code does not depend on its length
    for r in range(6, 40):
        code = kmesh._direction_code(d[r, 0], d[r, 1], d[r, 2])
        assert kmesh._direction_code(d[r, 0] * 1e-3, d[r, 1] * 1e-3, d[r, 2] * 1e-3) == code
        assert kmesh._direction_code(d[r, 0] * 4.0, d[r, 1] * 4.0, d[r, 2] * 4.0) == code


def test_the_hilbert_curve_visits_every_cell_once_through_neighbours() -> None:
    # the ray order's curve over the octant's face: every cell of the square has its own
    # index in [0, side^2), consecutive indices are cells one step apart (what keeps a run
    # of a lidar's rays in a compact cone), and it equals the textbook definition
    side = 1 << RAY_ORDER_BITS
    x, y = (a.ravel().astype(np.int64) for a in np.meshgrid(np.arange(side), np.arange(side)))
    codes = np.array([kmesh._hilbert(int(i), int(j)) for i, j in zip(x[::97], y[::97])])
    assert np.array_equal(codes, hilbert(x[::97], y[::97]))
    every = hilbert(x, y)
    assert np.array_equal(np.sort(every), np.arange(side * side))
    path = np.empty((side * side, 2), np.int64)
    path[every, 0] = x
    path[every, 1] = y
    assert (np.abs(np.diff(path, axis=0)).sum(axis=1) == 1).all()
    # the corners: the curve starts at (0, 0) and ends at (side - 1, 0)
    assert kmesh._hilbert(0, 0) == 0
    assert kmesh._hilbert(side - 1, 0) == side * side - 1


def test_a_lidar_in_packets_from_the_hilbert_order_equals_single_rays() -> None:
    # a lidar's rays walked eight together in the new order (packets of one octant, from
    # one origin exactly on the mesh's split planes, lengths scaled) give each ray's own
    # answer: distance and triangle, bit for bit, against the ray alone
    m = terrain(24, seed=9, size=1.0)
    rng = np.random.default_rng(10)
    n = RAY_ORDER_MIN_RAYS + 13
    o = np.full((n, 3), (12.0, 2.0, 12.0))
    d = rng.normal(size=(n, 3)) * rng.uniform(1e-3, 1e4, (n, 1))
    batch = raycast_many(m, o, d)
    assert kmesh.ray_order(o, d).shape == (n,)
    u = d / np.sqrt((d * d).sum(axis=1))[:, None]
    for r in range(0, n, 7):
        t, k = kmesh.mesh_ray(m._packed, m._tree, m._order, *o[r], *u[r], -1.0, np.inf)
        assert batch.handle[r] == k
        assert batch.distance[r] == (t if k >= 0 else np.inf)


@pytest.mark.parametrize("thread_count", [1, 2])
def test_an_ordered_batch_equals_the_rays_one_at_a_time(thread_count: int) -> None:
    m = terrain(24, seed=4, size=1.0)
    rng = np.random.default_rng(5)
    n = RAY_ORDER_MIN_RAYS + 2000
    o = rng.uniform((-2, -1, -2), (26, 4, 26), (n, 3))
    d = rng.normal(size=(n, 3))
    tmax = rng.uniform(0.0, 40.0, n)
    tmax[::7] = np.inf
    with on_threads(thread_count):
        batch = raycast_many(m, o, d, tmax)
    assert kmesh.ray_order(o, d).shape == (n,)
    u = d / np.sqrt((d * d).sum(axis=1))[:, None]
    hits = 0
    for r in range(n):
        t, k = kmesh.mesh_ray(m._packed, m._tree, m._order, *o[r], *u[r], -1.0, tmax[r])
        assert batch.handle[r] == k
        if k < 0:
            assert batch.distance[r] == np.inf and not batch.hit[r]
            assert tuple(batch.normal[r]) == (0.0, 0.0, 0.0)
            continue
        hits += 1
        assert batch.distance[r] == t
        assert np.array_equal(batch.point[r], o[r] + t * u[r])
        # the face normal turned against the ray
        n_k = m.normals[k] * (-1.0 if float(m.normals[k] @ u[r]) > 0.0 else 1.0) + 0.0
        assert np.array_equal(batch.normal[r], n_k)
        if r % 97 == 0:
            hit = raycast(Ray(o[r], d[r], tmax[r]), m)
            assert hit is not None and hit.distance == t
            assert tuple(hit.normal) == tuple(batch.normal[r])
    assert hits > n // 4


@settings(max_examples=25, deadline=None)
@given(st.integers(0, 2**31 - 1))
def test_ordered_batches_equal_the_unordered_walk_property(seed: int) -> None:
    rng = np.random.default_rng(seed)
    n = RAY_ORDER_MIN_RAYS
    # origins clustered in a few spots and spread wide: any mix orders the same answers
    centres = rng.uniform(-5, 30, (4, 3))
    o = centres[rng.integers(0, 4, n)] + rng.normal(size=(n, 3)) * rng.uniform(0.0, 3.0)
    d = rng.normal(size=(n, 3))
    batch = raycast_many(_RAY_MESH, o, d)
    small = [raycast_many(_RAY_MESH, o[s:s + 4096], d[s:s + 4096])
             for s in range(0, n, 4096)]
    assert np.array_equal(batch.distance, np.concatenate([b.distance for b in small]))
    assert np.array_equal(batch.handle, np.concatenate([b.handle for b in small]))
    assert np.array_equal(batch.normal, np.concatenate([b.normal for b in small]))


_RAY_MESH = terrain(16, seed=6)
