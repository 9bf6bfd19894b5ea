"""A mesh walks a large ray batch in the order of its origins' Morton code
(:func:`swept._kernels.mesh.ray_order`) and writes each answer to the ray's own row: the batch
equals the rays cast one at a time, whatever the order, on one thread or several."""

from __future__ import annotations

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from swept import Ray, TriangleMesh, raycast
from swept._kernels import mesh as kmesh
from swept._parallel import set_threads, threads
from swept.constants import RAY_ORDER_BITS, RAY_ORDER_MIN_RAYS
from swept.level import raycast_many


def bumpy(n: int, seed: int) -> TriangleMesh:
    """A closed-off bumpy terrain of n x n unit cells."""
    rng = np.random.default_rng(seed)
    xs = np.arange(n + 1, dtype=np.float64)
    h = rng.uniform(0.0, 2.0, (n + 1, n + 1))
    verts = np.array([(xs[j], h[i, j], xs[i]) for i in range(n + 1) for j in range(n + 1)])
    tris = []
    for i in range(n):
        for j in range(n):
            a = i * (n + 1) + j
            tris += [(a, a + n + 1, a + n + 2), (a, a + n + 2, a + 1)]
    return TriangleMesh(verts, tris)


def morton(origins: np.ndarray) -> np.ndarray:
    """The codes ray_order sorts by, computed here in numpy from its definition."""
    lo = origins.min(axis=0)
    hi = origins.max(axis=0)
    span = np.where(hi > lo, hi - lo, 1.0)
    steps = ((origins - lo) * np.where(hi > lo, (2 ** RAY_ORDER_BITS - 1) / span, 0.0)
             ).astype(np.int64)
    codes = np.zeros(origins.shape[0], np.int64)
    for b in range(RAY_ORDER_BITS - 1, -1, -1):
        for a in range(3):
            codes = (codes << 1) | ((steps[:, a] >> b) & 1)
    return codes


def test_the_walk_order_is_the_stable_sort_by_morton_code() -> None:
    rng = np.random.default_rng(1)
    o = rng.uniform(-50.0, 50.0, (RAY_ORDER_MIN_RAYS + 123, 3))
    # duplicates: equal codes keep the batch's order
    o[100:200] = o[5]
    walk = kmesh.ray_order(o)
    assert np.array_equal(walk, np.argsort(morton(o), kind="stable"))


def test_small_batches_and_one_origin_keep_the_batch_order() -> None:
    rng = np.random.default_rng(2)
    assert kmesh.ray_order(rng.uniform(0, 1, (RAY_ORDER_MIN_RAYS - 1, 3))).shape == (0,)
    # a lidar: every ray from one point
    assert kmesh.ray_order(np.full((RAY_ORDER_MIN_RAYS * 2, 3), 7.5)).shape == (0,)
    # a flat axis is one step on that axis, the others still order
    o = rng.uniform(0, 1, (RAY_ORDER_MIN_RAYS, 3))
    o[:, 1] = 3.0
    assert np.array_equal(kmesh.ray_order(o), np.argsort(morton(o), kind="stable"))


def test_origins_at_the_coordinate_limits_order_without_overflow() -> None:
    # the box's span is 2e7 wide and the far corners land on the last step exactly
    rng = np.random.default_rng(3)
    o = rng.uniform(-1e7, 1e7, (RAY_ORDER_MIN_RAYS, 3))
    o[0] = (-1e7, -1e7, -1e7)
    o[1] = (1e7, 1e7, 1e7)
    walk = kmesh.ray_order(o)
    assert np.array_equal(np.sort(walk), np.arange(o.shape[0]))
    assert walk[0] == 0 and walk[-1] == 1


@pytest.mark.parametrize("thread_count", [1, 2])
def test_an_ordered_batch_equals_the_rays_one_at_a_time(thread_count: int) -> None:
    m = bumpy(24, seed=4)
    rng = np.random.default_rng(5)
    n = RAY_ORDER_MIN_RAYS + 2000
    o = rng.uniform((-2, -1, -2), (26, 4, 26), (n, 3))
    d = rng.normal(size=(n, 3))
    tmax = rng.uniform(0.0, 40.0, n)
    tmax[::7] = np.inf
    before = threads()
    set_threads(thread_count)
    try:
        batch = raycast_many(m, o, d, tmax)
    finally:
        set_threads(before)
    assert kmesh.ray_order(o).shape == (n,)
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
    batch = raycast_many(_PROPERTY_MESH, o, d)
    small = [raycast_many(_PROPERTY_MESH, o[s:s + 4096], d[s:s + 4096])
             for s in range(0, n, 4096)]
    assert np.array_equal(batch.distance, np.concatenate([b.distance for b in small]))
    assert np.array_equal(batch.handle, np.concatenate([b.handle for b in small]))
    assert np.array_equal(batch.normal, np.concatenate([b.normal for b in small]))


_PROPERTY_MESH = bumpy(16, seed=6)
