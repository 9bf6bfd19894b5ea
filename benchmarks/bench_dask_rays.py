"""Benchmark swept.dask: 10,000,000 rays split over Dask workers, against the in-process batch.

Scene: ``scenes.make_scene("kinds", 1000)`` (circles, boxes, convex polygons, capsules and
segments, 5 to 50 across, in a 1000 x 1000 world). Rays: RAYS random rays (origins uniform in
the world, directions normal-distributed, reach the world's diagonal), made by
``dask.array.random`` in chunks of CHUNK rows, so a cluster's workers make their own and no
ray crosses the network. Runners, on the same rays:

- ``in-process``: :meth:`World.raycast_many <swept.World.raycast_many>` on all the rays in one
  call, swept's default threads, and on one thread;
- ``dask threads``: :func:`swept.dask.raycast_many` on the threaded scheduler (one process,
  one Dask thread a core, one swept thread each);
- ``cluster``: the same on a ``distributed.LocalCluster`` of WORKERS single-threaded worker
  processes (``SWEPT_NUM_THREADS=1``) on the loopback, the rays made on the workers and kept
  there (persisted, not timed), the answer reduced there to per-chunk checksums (hits, the sum
  of handles, the sum of hit distances) so that only those come back; and once with every
  field gathered back (a 10,000,000-row RayBatch: the cost of moving results).

Every runner's per-chunk checksums must equal the in-process batch's exactly (the same rows in
the same order: bit-for-bit sums). Prints rays per second and writes
``benchmarks/results/dask_rays.json``. ``python benchmarks/bench_dask_rays.py [--quick]``
(``--quick``: 1,000,000 rays).
"""

from __future__ import annotations

import argparse
import json
import logging
import math
import os
import platform
import sys
import time
from pathlib import Path
from typing import Any

import numba
import numpy as np

sys.path.insert(0, str(Path(__file__).resolve().parent))

from scenes import WORLD_SIZE, make_scene  # noqa: E402

import swept  # noqa: E402
import swept.dask as sdask  # noqa: E402

#: Rays of the full run (issue 14: ten million).
RAYS = 10_000_000
#: Rays of a quick run.
QUICK_RAYS = 1_000_000
#: Rows a chunk: 40 chunks of the full run, a few tenths of a second each on one core.
CHUNK = 250_000
#: Worker processes of the cluster (this machine's cores).
WORKERS = os.cpu_count() or 2
#: Colliders in the scene.
COLLIDERS = 1_000
#: Seed of the rays.
SEED = 14
RESULTS = Path(__file__).resolve().parent / "results" / "dask_rays.json"


def make_rays(n: int) -> tuple[Any, Any, float]:
    """The rays as lazy Dask arrays chunked by CHUNK rows, and their reach."""
    import dask.array as da

    rng = da.random.default_rng(SEED)
    origins = rng.uniform(0.0, WORLD_SIZE, (n, 2), chunks=(CHUNK, 2))
    directions = rng.standard_normal((n, 2), chunks=(CHUNK, 2))
    return origins, directions, WORLD_SIZE * math.sqrt(2.0)


def _chunk_sums(hit: np.ndarray, distance: np.ndarray, handle: np.ndarray) -> np.ndarray:
    """One chunk's checksums: hits, the sum of handles (misses -1), the sum of hit distances."""
    return np.array([[hit.sum(), handle.sum(), distance[hit].sum()]], dtype=np.float64)


def warm(world: swept.World, reach: float) -> None:
    """A few rays, so that this process has loaded the kernels the scene needs."""
    world.raycast_many(np.ones((10, 2)), np.ones((10, 2)), reach)


def checksums(batch: Any, chunks: tuple[int, ...]) -> np.ndarray:
    """Per-chunk checksums of an in-process RayBatch, over the same rows as the chunks."""
    out = []
    start = 0
    for size in chunks:
        s = slice(start, start + size)
        out.append(_chunk_sums(batch.hit[s], batch.distance[s], batch.handle[s]))
        start += size
    return np.concatenate(out)


def lazy_checksums(lazy: sdask.DaskRayBatch) -> Any:
    """The checksums of a DaskRayBatch, computed where its chunks are."""
    import dask.array as da

    return da.map_blocks(_chunk_sums, lazy.hit, lazy.distance, lazy.handle,
                         chunks=((1,) * len(lazy.hit.chunks[0]), (3,)), new_axis=1,
                         dtype=np.float64)


def run(quick: bool = False) -> dict[str, Any]:
    """Run every runner once; returns the results and writes the JSON."""
    import dask
    import distributed

    n = QUICK_RAYS if quick else RAYS
    load = os.getloadavg()[0] if hasattr(os, "getloadavg") else math.nan
    world = swept.World()
    for shape in make_scene("kinds", COLLIDERS).shapes():
        world.add(shape)
    origins, directions, reach = make_rays(n)
    chunks = origins.chunks[0]
    # compile (or load from numba's cache) before timing
    warm(world, reach)
    o, v = dask.compute(origins, directions, scheduler="threads")
    rows: dict[str, dict[str, Any]] = {}

    def record(name: str, seconds: float, sums: np.ndarray) -> None:
        rows[name] = {"seconds": seconds, "rays_per_second": n / seconds,
                      "checksums_equal": bool(np.array_equal(sums, want))}
        print(f"  {name:<34} {seconds:8.2f} s  {n / seconds / 1e6:8.2f} M rays/s  "
              f"equal: {rows[name]['checksums_equal']}", file=sys.stderr)

    t = time.perf_counter()
    batch = world.raycast_many(o, v, reach)
    seconds = time.perf_counter() - t
    want = checksums(batch, chunks)
    record(f"in-process ({swept.threads()} threads)", seconds, want)
    del batch
    threads = swept.threads()
    swept.set_threads(1)
    t = time.perf_counter()
    batch = world.raycast_many(o, v, reach)
    record("in-process (1 thread)", time.perf_counter() - t, checksums(batch, chunks))
    del batch
    import dask.array as da

    lazy = sdask.raycast_many(world, da.from_array(o, chunks=(CHUNK, 2)),
                              da.from_array(v, chunks=(CHUNK, 2)), reach)
    t = time.perf_counter()
    sums = lazy_checksums(lazy).compute(scheduler="threads", num_workers=threads)
    record(f"dask threads ({threads} threads)", time.perf_counter() - t, sums)
    swept.set_threads(threads)
    del o, v
    env = {"SWEPT_NUM_THREADS": "1",
           "PYTHONPATH": os.pathsep.join([str(Path(swept.__file__).resolve().parents[1]),
                                          os.environ.get("PYTHONPATH", "")])}
    t = time.perf_counter()
    with distributed.LocalCluster(n_workers=WORKERS, threads_per_worker=1, processes=True,
                                  host="127.0.0.1", dashboard_address=None,
                                  silence_logs=logging.ERROR, env=env) as cluster, \
            distributed.Client(cluster) as client:
        start = time.perf_counter() - t
        # the first query on a fresh worker loads swept's kernels from numba's cache: on
        # every worker, before timing
        t = time.perf_counter()
        client.run(warm, world, reach)
        warm_up = time.perf_counter() - t
        on_workers = client.persist([origins, directions])
        distributed.wait(on_workers)
        lazy = sdask.raycast_many(world, on_workers[0], on_workers[1], reach)
        t = time.perf_counter()
        sums = lazy_checksums(lazy).compute()
        record(f"cluster ({WORKERS} workers), reduced there", time.perf_counter() - t, sums)
        t = time.perf_counter()
        gathered = lazy.compute()
        record(f"cluster ({WORKERS} workers), gathered", time.perf_counter() - t,
               checksums(gathered, chunks))
        del gathered
    result = {
        "machine": {"python": platform.python_version(), "numba": numba.__version__,
                    "dask": dask.__version__, "distributed": distributed.__version__,
                    "cpu": platform.machine(), "cores": os.cpu_count(),
                    "threads": threads},
        "quick": quick, "rays": n, "chunk": CHUNK, "chunks": len(chunks),
        "colliders": COLLIDERS, "workers": WORKERS,
        "load_average_1min": load,
        "cluster_start_seconds": start, "cluster_warm_up_seconds": warm_up,
        "runners": rows,
    }
    RESULTS.parent.mkdir(parents=True, exist_ok=True)
    RESULTS.write_text(json.dumps(result, indent=2) + "\n")
    return result


def print_table(result: dict[str, Any]) -> None:
    """Rays per second of each runner."""
    m = result["machine"]
    print(f"{result['rays']:,} rays in {result['chunks']} chunks against {result['colliders']:,} "
          f"colliders; {m['cores']} cores, load average before {result['load_average_1min']:.2f}"
          f"; cluster start {result['cluster_start_seconds']:.1f} s, kernels loaded on the "
          f"workers in "
          f"{result['cluster_warm_up_seconds']:.1f} s")
    for name, row in result["runners"].items():
        print(f"{name:<36} {row['seconds']:8.2f} s {row['rays_per_second'] / 1e6:8.2f} M rays/s"
              f"   checksums equal: {row['checksums_equal']}")


def main(argv: list[str] | None = None) -> int:
    """Command line: run, print the table, write the JSON."""
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0] if __doc__ else None)
    parser.add_argument("--quick", action="store_true", help="1,000,000 rays")
    args = parser.parse_args(argv)
    print_table(run(args.quick))
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
