"""swept.dask: a World's batch queries over Dask arrays, equal to the in-process batch.

Two schedulers: the threaded one (no cluster), and a ``distributed.LocalCluster`` of two
worker processes on the loopback, whose workers load swept's kernels from the on-disk cache the
in-process calls filled (their environment is this process's, so the cache is the same).
"""

from __future__ import annotations

import logging
import math
import os
import pickle
import sys
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import numpy as np
import pytest

import swept
from swept import (
    AABB,
    Capsule,
    Chain,
    Circle,
    Polygon,
    Segment,
    Sphere,
    World,
)

da = pytest.importorskip("dask.array")
dask = pytest.importorskip("dask")
sdask = pytest.importorskip("swept.dask")

RAY_FIELDS = ("hit", "distance", "point", "normal", "handle")
SWEEP_FIELDS = ("hit", "fraction", "point", "normal", "handle")


def assert_same(got: Any, want: Any, names: tuple[str, ...]) -> None:
    """Every field equal, exactly, with the same dtype and shape."""
    assert type(got) is type(want)
    for name in names:
        a, b = getattr(got, name), getattr(want, name)
        assert a.dtype == b.dtype and a.shape == b.shape, name
        assert np.array_equal(a, b), name


def scene_2d() -> World:
    """A small level of every 2D kind: ball, segment, box, polygon, capsule, chain."""
    w = World()
    w.add(Circle((5, 0), 1))
    w.add(Segment((0, 3), (10, 3)))
    w.add(AABB((-2, 7), (2, 9)))
    w.add(Polygon.regular(5, 1.5, (-6, -6)))
    w.add(Capsule((-5, 0), (-5, 4), 0.5))
    w.add(Chain([(0, -5), (3, -6), (6, -5), (9, -7)]))
    return w


def rays(n: int, d: int = 2, seed: int = 1) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """n random rays over the scenes (some start inside a shape) and their reaches."""
    rng = np.random.default_rng(seed)
    origins = rng.uniform(-10, 10, (n, d))
    directions = rng.normal(size=(n, d))
    reach = rng.uniform(0, 25, n)
    return origins, directions, reach


# --- the threaded scheduler, no cluster


def test_raycast_many_equals_the_in_process_batch() -> None:
    w = scene_2d()
    o, v, md = rays(1000)
    want = w.raycast_many(o, v, md)
    assert want.hit.any() and not want.hit.all()
    # origins in chunks of 300; directions chunked otherwise and rechunked to match
    lazy = sdask.raycast_many(w, da.from_array(o, chunks=(300, 2)),
                              da.from_array(v, chunks=(128, 1)), md)
    assert lazy.distance.chunks == ((300, 300, 300, 100),)
    assert lazy.point.chunks == ((300, 300, 300, 100), (2,))
    assert len(lazy) == 1000
    assert_same(lazy.compute(scheduler="threads"), want, RAY_FIELDS)
    # each field on its own, and a Dask array of reaches
    lazy = sdask.raycast_many(w, da.from_array(o, chunks=250), v, da.from_array(md, chunks=70))
    assert np.array_equal(lazy.handle.compute(scheduler="sync"), want.handle)
    assert np.array_equal(lazy.distance.compute(), want.distance)


def test_a_world_never_queried_is_shared_by_the_threads_of_one_computation() -> None:
    # A World builds its broadphase on its first query after a change; the threaded scheduler
    # hands one World to every chunk, so the first chunk builds it alone (a lock) and the
    # others wait, rather than all building the same trees at once.
    w = scene_2d()
    o, v, md = rays(2000, seed=11)
    lazy = sdask.raycast_many(w, da.from_array(o, chunks=125), da.from_array(v, chunks=125), md)
    got = lazy.compute(scheduler="threads", num_workers=4)
    assert_same(got, w.raycast_many(o, v, md), RAY_FIELDS)
    # changed: a wall across the middle, and the next computation sees it
    w.add(Segment((-10, 0.5), (10, 0.5)))
    lazy = sdask.raycast_many(w, da.from_array(o, chunks=125), da.from_array(v, chunks=125), md)
    again = lazy.compute(scheduler="threads", num_workers=4)
    want = w.raycast_many(o, v, md)
    assert (want.handle == len(w) - 1).any()
    assert_same(again, want, RAY_FIELDS)


def test_a_delayed_world_is_taken_as_it_is() -> None:
    w = scene_2d()
    o, v, _ = rays(300, seed=12)
    lazy = sdask.raycast_many(dask.delayed(w), da.from_array(o, chunks=100), v)
    assert_same(lazy.compute(), w.raycast_many(o, v), RAY_FIELDS)


def test_raycast_many_with_one_reach_for_every_ray() -> None:
    w = scene_2d()
    o, v, _ = rays(600, seed=2)
    for reach in (7.5, math.inf, 0.0):
        lazy = sdask.raycast_many(w, da.from_array(o, chunks=200), da.from_array(v, chunks=200),
                                  reach)
        assert_same(lazy.compute(), w.raycast_many(o, v, reach), RAY_FIELDS)


def test_raycast_many_in_3d() -> None:
    w = World()
    w.add(Sphere((0, 0, 0), 2))
    w.add(AABB((4, -1, -1), (6, 1, 1)))
    w.add(Capsule((-5, -5, 0), (-5, 5, 0), 1))
    o, v, md = rays(500, d=3, seed=3)
    want = w.raycast_many(o, v, md)
    assert want.hit.any()
    lazy = sdask.raycast_many(w, da.from_array(o, chunks=128), da.from_array(v, chunks=128), md)
    assert_same(lazy.compute(), want, RAY_FIELDS)


def test_sweep_many_balls_equals_the_in_process_batch() -> None:
    w = scene_2d()
    rng = np.random.default_rng(4)
    c = rng.uniform(-10, 10, (500, 2))
    r = rng.uniform(0, 1, 500)
    dv = rng.normal(size=(500, 2)) * 5
    want = w.sweep_many(c, r, dv)
    assert want.hit.any() and not want.hit.all()
    lazy = sdask.sweep_many(w, da.from_array(c, chunks=100), r, da.from_array(dv, chunks=64))
    assert_same(lazy.compute(), want, SWEEP_FIELDS)


def test_sweep_many_of_one_shape_and_of_a_shape_a_row() -> None:
    w = scene_2d()
    rng = np.random.default_rng(5)
    c = rng.uniform(-10, 10, (300, 2))
    dv = rng.normal(size=(300, 2)) * 5
    box = Polygon.box(0.3, 0.2)
    want = w.sweep_many(box, dv)
    lazy = sdask.sweep_many(w, box, da.from_array(dv, chunks=70))
    assert_same(lazy.compute(), want, SWEEP_FIELDS)
    lazy = sdask.sweep_many(w, shapes=box, displacements=da.from_array(dv, chunks=70))
    assert_same(lazy.compute(), want, SWEEP_FIELDS)
    # each row its own mover, mixed kinds: chunk k takes its rows' shapes
    movers = [Polygon.box(0.3, 0.2, tuple(p)) if i % 3 else Circle(tuple(p), 0.25)
              for i, p in enumerate(c)]
    want = w.sweep_many(movers, dv)
    assert want.hit.any() and not want.hit.all()
    lazy = sdask.sweep_many(w, movers, da.from_array(dv, chunks=70))
    assert_same(lazy.compute(), want, SWEEP_FIELDS)


def test_empty_batches_are_typed_empty_arrays() -> None:
    w = scene_2d()
    empty = np.zeros((0, 2))
    got = sdask.raycast_many(w, da.from_array(empty, chunks=10), empty).compute()
    assert_same(got, w.raycast_many(empty, empty), RAY_FIELDS)
    got = sdask.sweep_many(w, empty, np.zeros(0), empty).compute()
    assert_same(got, w.sweep_many(empty, np.zeros(0), empty), SWEEP_FIELDS)


def test_an_empty_world_misses_every_ray() -> None:
    o, v, _ = rays(50)
    got = sdask.raycast_many(World(), da.from_array(o, chunks=20), v).compute()
    assert not got.hit.any() and (got.handle == -1).all() and np.isinf(got.distance).all()
    assert_same(got, World().raycast_many(o, v), RAY_FIELDS)


def test_the_world_is_one_key_of_the_graph_not_a_copy_a_task() -> None:
    # a world of 2,000 segments pickles to tens of kilobytes; a graph of 20 chunks that
    # carried it in every task would be 20 times that
    w = World()
    rng = np.random.default_rng(6)
    a = rng.uniform(-100, 100, (2000, 2))
    w.add_segments(np.hstack([a, a + rng.uniform(1, 2, (2000, 2))]))
    size = len(pickle.dumps(w))
    o, v, _ = rays(2000)
    lazy = sdask.raycast_many(w, da.from_array(o, chunks=100), da.from_array(v, chunks=100))
    graph = dict(lazy.hit.__dask_graph__())
    world_keys = [k for k in graph if str(k).startswith("swept-world-")]
    assert len(world_keys) == 1
    others = {k: t for k, t in graph.items() if k not in world_keys}
    assert len(pickle.dumps(others)) < size
    # and the batch computed from it is the in-process one
    assert_same(lazy.compute(), w.raycast_many(o, v), RAY_FIELDS)


def test_shapes_are_checked_when_the_graph_is_built() -> None:
    w = scene_2d()
    o, v, md = rays(10)
    with pytest.raises(ValueError, match="origins must have 2 or 3 columns"):
        sdask.raycast_many(w, np.zeros((10, 4)), v)
    with pytest.raises(ValueError, match="origins must be a 2D array"):
        sdask.raycast_many(w, np.zeros(10), v)
    with pytest.raises(ValueError, match=r"origins must have 2 columns \(the world is 2D\)"):
        sdask.raycast_many(w, np.zeros((10, 3)), np.ones((10, 3)))
    with pytest.raises(ValueError, match="directions must have 10 rows"):
        sdask.raycast_many(w, o, v[:9])
    with pytest.raises(ValueError, match="directions must have 2 columns"):
        sdask.raycast_many(w, o, np.ones((10, 3)))
    with pytest.raises(ValueError, match="max_distance must have 10 rows"):
        sdask.raycast_many(w, o, v, md[:3])
    with pytest.raises(ValueError, match="max_distance must be >= 0"):
        sdask.raycast_many(w, o, v, -1.0)
    with pytest.raises(TypeError, match="origins must hold real numbers"):
        sdask.raycast_many(w, np.array([["a", "b"]]), v[:1])
    with pytest.raises(TypeError, match="world must be a swept World"):
        sdask.raycast_many("world", o, v)
    with pytest.raises(ValueError, match="mask"):
        sdask.raycast_many(w, o, v, mask=-1)
    with pytest.raises(ValueError, match="radii must have 10 rows"):
        sdask.sweep_many(w, o, np.ones(4), v)
    with pytest.raises(ValueError, match=r"displacements must have 3 rows \(one per shape\)"):
        sdask.sweep_many(w, [Circle((0, 0), 1)] * 3, v)
    with pytest.raises(TypeError, match="sweep_many takes"):
        sdask.sweep_many(w, o, None, v)
    unknown = da.from_array(o, chunks=5)
    unknown = unknown[unknown[:, 0] > 0]
    with pytest.raises(ValueError, match="origins has unknown chunk sizes"):
        sdask.raycast_many(w, unknown, unknown)


def test_a_bad_value_raises_at_compute_naming_the_chunks_rows() -> None:
    w = scene_2d()
    o, v, _ = rays(1000)
    v[703] = 0.0
    lazy = sdask.raycast_many(w, da.from_array(o, chunks=300), da.from_array(v, chunks=300))
    with pytest.raises(ValueError, match=r"in the chunk of rows 600 to 899 \(row indices "
                                         r"below count from 600\): directions\[103\] is the "
                                         r"zero vector"):
        lazy.compute()
    o[5, 1] = np.nan
    with pytest.raises(ValueError, match=r"rows 0 to 299 .*origins must not contain NaN"):
        sdask.raycast_many(w, da.from_array(o, chunks=300), np.ones((1000, 2))).compute()


def test_a_missing_dask_names_the_extra(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setitem(sys.modules, "dask.array", None)
    with pytest.raises(ImportError, match=r"swept.dask needs dask.*pip install swept\[dask\]"):
        sdask.raycast_many(World(), np.zeros((1, 2)), np.ones((1, 2)))


# --- a LocalCluster of two worker processes

@pytest.fixture(scope="module")
def client() -> Iterator[Any]:
    """Two single-threaded worker processes on the loopback, importing this swept."""
    distributed = pytest.importorskip("distributed")
    src = str(Path(swept.__file__).resolve().parent.parent)
    env = {
        # the swept under test, and numba's on-disk cache the in-process calls filled
        "PYTHONPATH": os.pathsep.join([src, os.environ.get("PYTHONPATH", "")]),
        # one worker thread each: one swept thread each
        "SWEPT_NUM_THREADS": "1",
    }
    if "NUMBA_CACHE_DIR" in os.environ:
        env["NUMBA_CACHE_DIR"] = os.environ["NUMBA_CACHE_DIR"]
    with distributed.LocalCluster(n_workers=2, threads_per_worker=1, processes=True,
                                  host="127.0.0.1", dashboard_address=None,
                                  silence_logs=logging.ERROR, env=env) as cluster, \
            distributed.Client(cluster) as c:
        yield c


def test_a_cluster_computes_the_in_process_batches(client: Any) -> None:
    w = scene_2d()
    o, v, md = rays(2000, seed=7)
    want = w.raycast_many(o, v, md)
    lazy = sdask.raycast_many(w, da.from_array(o, chunks=250), da.from_array(v, chunks=250),
                              da.from_array(md, chunks=250))
    assert_same(lazy.compute(), want, RAY_FIELDS)
    rng = np.random.default_rng(8)
    c = rng.uniform(-10, 10, (800, 2))
    r = rng.uniform(0, 1, 800)
    dv = rng.normal(size=(800, 2)) * 5
    assert_same(sdask.sweep_many(w, da.from_array(c, chunks=100), r, dv).compute(),
                w.sweep_many(c, r, dv), SWEEP_FIELDS)
    movers = [Capsule(tuple(p), tuple(p + 0.5), 0.2) for p in c]
    assert_same(sdask.sweep_many(w, movers, da.from_array(dv, chunks=100)).compute(),
                w.sweep_many(movers, dv), SWEEP_FIELDS)
    # the workers are other processes, with the one thread each they were given
    pids = client.run(os.getpid)
    assert len(pids) == 2 and os.getpid() not in pids.values()
    assert set(client.run(swept.threads).values()) == {1}


def test_a_world_scattered_to_every_worker_is_used_in_place(client: Any) -> None:
    w = scene_2d()
    o, v, _ = rays(1000, seed=9)
    want = w.raycast_many(o, v)
    future = client.scatter(w, broadcast=True)
    assert len(client.who_has(future)[future.key]) == 2
    for _ in range(2):
        lazy = sdask.raycast_many(future, da.from_array(o, chunks=125),
                                  da.from_array(v, chunks=125))
        assert_same(lazy.compute(), want, RAY_FIELDS)


def test_a_bad_value_on_a_worker_raises_here_naming_the_rows(client: Any) -> None:
    w = scene_2d()
    o, v, _ = rays(400)
    v[250] = 0.0
    lazy = sdask.raycast_many(w, da.from_array(o, chunks=200), da.from_array(v, chunks=200))
    with pytest.raises(ValueError, match=r"rows 200 to 399 .*directions\[50\] is the zero"):
        lazy.compute()

