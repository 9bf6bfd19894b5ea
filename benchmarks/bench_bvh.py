"""Benchmark the BVH broadphase: build time, and closest-box ray queries per ray.

Scenes: random thin segments (length 5 to 50, random angle) in a 1000 x 1000 world, each
collider's box the segment's bounding box; rays from random points in random directions with
no distance limit. Both split rules (binned SAH and object median) are measured, on one
thread (the reference query is serial). The build is also timed in 3D (boxes of random
segments in a 1000-unit cube) and, without ``--quick``, at 1,000,000 boxes. Prints a table and
writes ``benchmarks/results/bvh.json``.

Run: ``python benchmarks/bench_bvh.py`` (``--quick`` for a smoke run).
"""

from __future__ import annotations

import argparse
import json
import os
import platform
import sys
from pathlib import Path
from typing import Any

import numba
import numpy as np

sys.path.insert(0, str(Path(__file__).resolve().parent))

from timing import best_time  # noqa: E402

from swept._kernels import bvh

#: Side of the square world, in length units.
WORLD_SIZE = 1000.0
#: Shortest and longest segment.
SEGMENT_LENGTH = (5.0, 50.0)
#: Seed of every random scene, so runs compare.
SEED = 12345
RESULTS = Path(__file__).resolve().parent / "results" / "bvh.json"
SPLITS = {"sah": bvh.SPLIT_SAH, "median": bvh.SPLIT_MEDIAN}
#: The bar to beat, from the issue (not measured here): a plain compiled uniform grid's full
#: nearest-segment ray query, microseconds per ray on one thread, by segment count.
GRID_REFERENCE_US = {1_000: 0.3, 10_000: 0.6}


def segment_boxes(n: int, rng: np.random.Generator) -> tuple[np.ndarray, np.ndarray]:
    """Bounding boxes ((n, 2) lo, hi) of n random segments in the world."""
    a = rng.uniform(0.0, WORLD_SIZE, (n, 2))
    length = rng.uniform(*SEGMENT_LENGTH, n)
    angle = rng.uniform(0.0, 2.0 * np.pi, n)
    b = a + np.stack([np.cos(angle), np.sin(angle)], axis=1) * length[:, None]
    return np.minimum(a, b), np.maximum(a, b)


def random_rays(n: int, rng: np.random.Generator) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """n rays from random points of the world, unit directions, unlimited length."""
    origins = rng.uniform(0.0, WORLD_SIZE, (n, 2))
    angle = rng.uniform(0.0, 2.0 * np.pi, n)
    directions = np.stack([np.cos(angle), np.sin(angle)], axis=1)
    return origins, directions, np.full(n, np.inf)


def bench_build(sizes: list[int], repeats: int) -> list[dict[str, Any]]:
    """Build time and tree depth for each size, dimension and split rule."""
    rows = []
    for n, dim in ((n, dim) for n in sizes for dim in (2, 3)):
        lo, hi = segment_boxes(n, np.random.default_rng(SEED))
        if dim == 3:
            z = np.random.default_rng(SEED + 1).uniform(0.0, WORLD_SIZE, (n, 1))
            dz = np.random.default_rng(SEED + 2).uniform(0.0, SEGMENT_LENGTH[1], (n, 1))
            lo, hi = np.hstack([lo, z]), np.hstack([hi, z + dz])
        for name, split in SPLITS.items():

            def run_build(lo: np.ndarray = lo, hi: np.ndarray = hi, split: int = split) -> None:
                """One build."""
                bvh.build_with(lo, hi, split)

            seconds = best_time(run_build, repeats)
            tree = bvh.build_with(lo, hi, split)
            rows.append({"n": n, "dim": dim, "split": name, "build_ms": seconds * 1e3,
                         "nodes": int(tree[0].shape[0]), "depth": int(bvh.tree_depth(*tree))})
    return rows


def bench_rays(sizes: list[int], n_rays: int, repeats: int) -> list[dict[str, Any]]:
    """Microseconds per closest-box ray query, one thread."""
    rows = []
    for n in sizes:
        rng = np.random.default_rng(SEED)
        lo, hi = segment_boxes(n, rng)
        origins, directions, tmax = random_rays(n_rays, rng)
        for name, split in SPLITS.items():
            tree = bvh.build_with(lo, hi, split)
            row: dict[str, Any] = {"n": n, "split": name, "rays": n_rays}

            boxes = bvh.box_rows(lo, hi)

            def run_rays(tree: tuple[np.ndarray, np.ndarray] = tree,
                         boxes: np.ndarray = boxes, origins: np.ndarray = origins,
                         directions: np.ndarray = directions, tmax: np.ndarray = tmax) -> None:
                """One batch of closest-box queries."""
                bvh.ray_closest_boxes_many(*tree, boxes, origins, directions, tmax)

            row["us_per_ray_1_thread"] = best_time(run_rays, repeats) / n_rays * 1e6
            index, _ = bvh.ray_closest_boxes_many(*tree, boxes, origins, directions, tmax)
            row["hit_rate"] = float(np.mean(index >= 0))
            rows.append(row)
    return rows


def main() -> None:
    """Run the benchmark, print the tables and write the JSON results."""
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--quick", action="store_true", help="small sizes, few repeats")
    args = parser.parse_args()
    build_sizes = [1_000, 10_000] if args.quick else [1_000, 10_000, 100_000, 1_000_000]
    repeats = 2 if args.quick else 7
    n_rays = 2_000 if args.quick else 10_000
    # the machine may be shared: record how busy it was, since the timings depend on it
    load_before = os.getloadavg()[0]
    build_rows = bench_build(build_sizes, repeats)
    ray_rows = bench_rays([1_000, 10_000], n_rays, repeats)

    print(f"BVH build (LEAF_SIZE={bvh.LEAF_SIZE}, SAH_BINS={bvh.SAH_BINS}; load average "
          f"{load_before:.2f} before, {os.getloadavg()[0]:.2f} after)")
    print(f"{'boxes':>8} {'dim':>4} {'split':>7} {'build ms':>9} {'nodes':>7} {'depth':>6}")
    for r in build_rows:
        print(f"{r['n']:>8} {r['dim']:>4} {r['split']:>7} {r['build_ms']:>9.2f} {r['nodes']:>7} "
              f"{r['depth']:>6}")
    print()
    print(f"closest-box ray queries, {n_rays} rays, thin segments in a 1000x1000 world")
    print(f"{'boxes':>8} {'split':>7} {'us/ray 1 thr':>13} {'hit rate':>9} {'grid ref':>9}")
    for r in ray_rows:
        print(f"{r['n']:>8} {r['split']:>7} {r['us_per_ray_1_thread']:>13.3f} "
              f"{r['hit_rate']:>9.3f} {GRID_REFERENCE_US[r['n']]:>9.1f}")
    print("(grid ref: a uniform grid's full nearest-segment query, 1 thread, from the issue)")

    RESULTS.parent.mkdir(parents=True, exist_ok=True)
    RESULTS.write_text(json.dumps({
        "machine": {"python": platform.python_version(), "numba": numba.__version__,
                    "cpu": platform.processor() or platform.machine(),
                    "load_average_1min_before": load_before,
                    "load_average_1min_after": os.getloadavg()[0]},
        "leaf_size": bvh.LEAF_SIZE, "sah_bins": bvh.SAH_BINS,
        "build": build_rows, "rays": ray_rows,
        "grid_reference_us_per_ray_1_thread": {str(k): v for k, v in GRID_REFERENCE_US.items()},
    }, indent=2) + "\n")
    print(f"\nwrote {RESULTS}")


if __name__ == "__main__":
    main()
