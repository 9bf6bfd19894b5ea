"""Benchmark triangle meshes (issue 13): BVH build, rays and sphere sweeps on large meshes.

Meshes: a noisy terrain (a grid of random heights, as a ``TriangleMesh`` and as the same
``HeightField``) and a subdivided icosphere (with trimesh), of about 100,000 to 1,000,000
triangles. Measured, side by side in one run:

- the ``TriangleMesh`` construction (validation, adjacency, BVH) and the BVH build alone;
- rays: 100,000 lidar rays from one point and 100,000 incoherent rays, through
  ``swept.level.raycast_many`` on one thread and on the default threads, against embreex (Embree,
  float32, its own threads) and pybullet's ``rayTestBatch`` (batches of 8,192) where they are
  installed (``pip install embreex pybullet``); swept's answers checked against a brute-force
  loop over every triangle on a sample of rays, and the peers' against swept's. Embree's
  ``run`` casts its rays one after another on the calling thread, and ``rayTestBatch`` is
  called with ``numThreads=1`` (its default): both are one-thread figures, compared with
  swept on one thread;
- sphere sweeps: ``swept.sweep(Sphere, mesh)`` per call (wall-clock and CPU time), with missed
  impacts counted against the cast over every triangle (no BVH) on a sample.

Each ray time is the fastest of ``LOOPS`` (5) calls, for every engine alike, as wall-clock
time and as the process's CPU time (``time.process_time``: on a machine that other processes
keep busy the CPU time of a one-thread call is the steadier measure; the ratios are given for
both, and the load average is printed with them). The three engines' calls alternate, round by
round (swept, Embree, pybullet, then again), so that a change of load falls on all three; and
every timed call runs with Python's garbage collector collected before it and off during it,
as ``timeit`` does: pybullet's answers are Python tuples, and the collector's full passes over
the process's objects (numba's, some 200,000) then fell inside its calls or not, from one
process to the next, which moved its figure 1.8x between runs (``meshray13``). pybullet's time
over Embree's is printed beside the ratios (what "10x faster than pybullet" asks against
Embree). Prints a table and writes ``benchmarks/results/mesh.json``.

Run: ``python benchmarks/bench_mesh.py`` (``--quick``: about 100,000 triangles and fewer rays).
"""

from __future__ import annotations

import argparse
import gc
import json
import math
import os
import platform
import time
from collections.abc import Callable
from pathlib import Path
from typing import Any

import numba
import numpy as np

from swept import HeightField, Sphere, TriangleMesh, sweep
from swept._kernels import bvh
from swept._kernels import mesh as kmesh
from swept._parallel import set_threads, threads
from swept.level import raycast_many

SEED = 2026
#: Rounds each engine's rays are timed over, the fastest kept (wall-clock and CPU time each):
#: the same count for swept, Embree and pybullet, their calls alternated round by round, so
#: that no engine's noise decides a row (pybullet's time moved 2x between runs when it took
#: the fastest of two).
LOOPS = 5
RESULTS = Path(__file__).resolve().parent / "results" / "mesh.json"


@numba.njit
def brute_rays(verts: np.ndarray, tris: np.ndarray, origins: np.ndarray,
               directions: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """The exact reference: every ray against every triangle (the same watertight test)."""
    n = origins.shape[0]
    out_t = np.full(n, np.inf)
    out_k = np.full(n, -1, np.int64)
    for r in range(n):
        frame = kmesh.ray_frame(directions[r, 0], directions[r, 1], directions[r, 2])
        for k in range(tris.shape[0]):
            t = kmesh.ray_triangle(verts, tris, k, origins[r, 0], origins[r, 1], origins[r, 2],
                                   frame, -1.0, np.inf)
            if t >= 0.0 and (t < out_t[r] or (t == out_t[r] and k < out_k[r])):
                out_t[r] = t
                out_k[r] = k
    return out_t, out_k


def terrain(cells: int, rng: np.random.Generator) -> tuple[np.ndarray, float]:
    """Heights of a noisy terrain of ``cells`` x ``cells`` cells (2 cells^2 triangles), on a
    square of side 1000: smooth hills plus noise."""
    n = cells + 1
    x = np.linspace(0.0, 6.0 * math.pi, n)
    hills = 40.0 * np.sin(x)[None, :] * np.cos(0.7 * x)[:, None]
    return hills + rng.normal(0.0, 2.0, (n, n)), 1000.0 / cells


def timed(fn: Any, repeats: int = 1) -> tuple[float, Any]:
    """The fastest of ``repeats`` calls (seconds, wall-clock) and the last result."""
    wall, _cpu, out = timed_both(fn, repeats)
    return wall, out


def timed_call(fn: Callable[[], Any]) -> tuple[float, float, Any]:
    """One call's wall-clock and CPU seconds and its result, Python's garbage collector
    collected before it and off during it (as ``timeit`` does): a full pass of the collector
    over the process's objects costs tens of milliseconds here and falls inside a call or not
    by chance (it moved pybullet's figure 1.8x between runs, its answers being tuples)."""
    gc.collect()
    was = gc.isenabled()
    gc.disable()
    try:
        w0 = time.perf_counter()
        c0 = time.process_time()
        out = fn()
        cpu = time.process_time() - c0
        wall = time.perf_counter() - w0
    finally:
        if was:
            gc.enable()
    return wall, cpu, out


def timed_both(fn: Callable[[], Any], repeats: int = 1) -> tuple[float, float, Any]:
    """The fastest of ``repeats`` calls in wall-clock and in CPU seconds (each its own
    fastest), and the last result."""
    return timed_rounds({"": fn}, repeats)[""]


def timed_rounds(calls: dict[str, Callable[[], Any]], rounds: int
                 ) -> dict[str, tuple[float, float, Any]]:
    """Each call's fastest of ``rounds`` in wall-clock and in CPU seconds (each its own
    fastest) and its last result, the calls alternated: each round calls each once, in turn."""
    best = {name: (math.inf, math.inf, None) for name in calls}
    for _ in range(rounds):
        for name, fn in calls.items():
            wall, cpu, out = timed_call(fn)
            best[name] = (min(best[name][0], wall), min(best[name][1], cpu), out)
    return best


def lidar(n: int, centre: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """n rays from one point over the whole sphere of directions (a Fibonacci spiral)."""
    i = np.arange(n) + 0.5
    phi = np.arccos(1.0 - 2.0 * i / n)
    theta = math.pi * (1.0 + 5.0 ** 0.5) * i
    d = np.stack([np.cos(theta) * np.sin(phi), np.cos(phi), np.sin(theta) * np.sin(phi)], axis=1)
    return np.broadcast_to(centre, d.shape).copy(), d


def incoherent(n: int, lo: np.ndarray, hi: np.ndarray, rng: np.random.Generator
               ) -> tuple[np.ndarray, np.ndarray]:
    """n rays from random points of the box [lo, hi] in random directions."""
    o = rng.uniform(lo, hi, (n, 3))
    d = rng.normal(size=(n, 3))
    d /= np.linalg.norm(d, axis=1)[:, None]
    return o, d


#: A peer engine's rays made ready: the call to time, and what reads its last answer.
Peer = tuple[Callable[[], Any], Callable[[Any], dict[str, Any]]]


def embree_rays(mesh: TriangleMesh, o: np.ndarray, d: np.ndarray) -> Peer | str:
    """Embree's scene and rays (float32), ready to time: its call and the reader of its
    nearest hits; or why not."""
    try:
        from embreex import rtcore_scene as rtcs
        from embreex.mesh_construction import TriangleMesh as EmbreeMesh
    except ImportError as e:
        return f"embreex not installed ({e})"
    scene = rtcs.EmbreeScene()
    EmbreeMesh(scene, mesh.vertices[mesh.triangles].astype(np.float32))
    o32 = o.astype(np.float32)
    d32 = d.astype(np.float32)
    scene.run(o32[:100], d32[:100], output=1)

    def read(res: Any) -> dict[str, Any]:
        t = np.asarray(res["tfar"], dtype=np.float64)
        k = np.asarray(res["primID"], dtype=np.int64)
        t[k < 0] = np.inf
        return {"t": t, "k": k}

    return (lambda: scene.run(o32, d32, output=1)), read


def bullet_rays(mesh: TriangleMesh, o: np.ndarray, d: np.ndarray, reach: float,
                client: int) -> Peer | str:
    """pybullet's ``rayTestBatch`` on the same mesh (a static concave mesh body in the
    connected ``client``), ready to time: its call (the rays' conversion to lists with it)
    and the reader of its hits; or why not."""
    import tempfile

    import pybullet as pb

    # the mesh through an OBJ file: pybullet's in-memory vertex list is limited (it fails
    # on a million triangles)
    with tempfile.TemporaryDirectory() as tmp:
        path = os.path.join(tmp, "mesh.obj")
        with open(path, "w") as f:
            np.savetxt(f, mesh.vertices, fmt="v %.17g %.17g %.17g")
            np.savetxt(f, mesh.triangles + 1, fmt="f %d %d %d")
        try:
            shape = pb.createCollisionShape(pb.GEOM_MESH, fileName=path,
                                            flags=pb.GEOM_FORCE_CONCAVE_TRIMESH,
                                            physicsClientId=client)
        except pb.error as e:
            return f"pybullet could not load the mesh ({e})"
    pb.createMultiBody(0, shape, physicsClientId=client)
    ends = o + d * reach
    # (a batch of exactly MAX_RAY_INTERSECTION_BATCH_SIZE rays came back one short)
    batch = pb.MAX_RAY_INTERSECTION_BATCH_SIZE // 2

    def run() -> list[Any]:
        out: list[Any] = []
        for s in range(0, o.shape[0], batch):
            out += pb.rayTestBatch(o[s:s + batch].tolist(), ends[s:s + batch].tolist(),
                                   numThreads=1, physicsClientId=client)
        return out

    def read(res: list[Any]) -> dict[str, Any]:
        hit = np.array([r[0] >= 0 for r in res])
        t = np.array([r[2] * reach if r[0] >= 0 else np.inf for r in res])
        return {"hit": hit, "t": t}

    return run, read


def ray_times(mesh: TriangleMesh, o: np.ndarray, d: np.ndarray, reach: float, stride: int
              ) -> tuple[dict[str, tuple[float, float, Any]], dict[str, str]]:
    """swept on one thread, Embree and pybullet (on every ``stride``-th ray) timed in
    alternated rounds: each engine's fastest wall-clock and CPU seconds and its last answer
    (read); and why a peer is missing."""
    calls: dict[str, Callable[[], Any]] = {"swept": lambda: raycast_many(mesh, o, d)}
    readers: dict[str, Callable[[Any], Any]] = {"swept": lambda batch: batch}
    missing: dict[str, str] = {}
    emb = embree_rays(mesh, o, d)
    if isinstance(emb, str):
        missing["embree"] = emb
    else:
        calls["embree"], readers["embree"] = emb
    try:
        import pybullet as pb
    except ImportError as e:
        missing["pybullet"] = f"pybullet not installed ({e})"
        client = None
    else:
        client = pb.connect(pb.DIRECT)
    try:
        if client is not None:
            bul = bullet_rays(mesh, o[::stride], d[::stride], reach, client)
            if isinstance(bul, str):
                missing["pybullet"] = bul
            else:
                calls["pybullet"], readers["pybullet"] = bul
        default = threads()
        set_threads(1)
        try:
            best = timed_rounds(calls, LOOPS)
        finally:
            set_threads(default)
    finally:
        if client is not None:
            pb.disconnect(client)
    return {name: (wall, cpu, readers[name](out))
            for name, (wall, cpu, out) in best.items()}, missing


def bench_mesh(name: str, mesh: TriangleMesh, rays: dict[str, tuple[np.ndarray, np.ndarray]],
               sweeps: int, sample: int, rng: np.random.Generator, reach: float
               ) -> dict[str, Any]:
    """Every measure on one mesh."""
    m = mesh.triangles.shape[0]
    corners = mesh.vertices[mesh.triangles]
    lo = np.ascontiguousarray(corners.min(axis=1))
    hi = np.ascontiguousarray(corners.max(axis=1))
    bvh.build(lo[:10], hi[:10])
    build_s, build_cpu, _ = timed_both(lambda: bvh.build(lo, hi), 2)
    construct_s, construct_cpu, _ = timed_both(
        lambda: TriangleMesh(mesh.vertices, mesh.triangles), 2)
    row: dict[str, Any] = {"mesh": name, "triangles": m, "bvh_build_s": build_s,
                           "bvh_build_cpu_s": build_cpu, "construct_s": construct_s,
                           "construct_cpu_s": construct_cpu, "rays": {}}
    for kind, (o, d) in rays.items():
        n = o.shape[0]
        raycast_many(mesh, o[:10], d[:10])
        # every stride-th ray for pybullet: a sample spread over the whole batch (the lidar's
        # first rays all point up and miss the terrain)
        stride = max(1, n // 20_000)
        bullet_n = len(range(0, n, stride))
        best, missing = ray_times(mesh, o, d, reach, stride)
        one_s, one_cpu, batch = best["swept"]
        default = threads()
        many_s, again = timed(lambda o=o, d=d: raycast_many(mesh, o, d), 3)
        assert np.array_equal(batch.distance, again.distance)
        pick = rng.choice(n, min(sample, n), replace=False)
        # the directions exactly as raycast_many normalises them
        unit = d[pick] / np.sqrt((d[pick] * d[pick]).sum(axis=1))[:, None]
        ref_t, ref_k = brute_rays(mesh.vertices, mesh.triangles, o[pick], unit)
        wrong = int((~((batch.distance[pick] == ref_t) & (batch.handle[pick] == ref_k))).sum())
        entry: dict[str, Any] = {
            "rays": n, "hits": int(batch.hit.sum()),
            "swept_us_per_ray_1_thread": one_s / n * 1e6,
            "swept_cpu_us_per_ray_1_thread": one_cpu / n * 1e6,
            f"swept_us_per_ray_{default}_threads": many_s / n * 1e6,
            "checked_against_brute_force": int(pick.shape[0]), "wrong": wrong}
        entry.update(missing)
        if "embree" in best:
            emb_s, emb_cpu, emb = best["embree"]
            both = np.isfinite(emb["t"]) & batch.hit
            gap = np.zeros(n)
            gap[both] = np.abs(emb["t"][both] - batch.distance[both]) / np.maximum(
                1.0, batch.distance[both])
            agree = (np.isinf(emb["t"]) == ~batch.hit) & (gap <= 1e-4)
            entry["embree_us_per_ray"] = emb_s / n * 1e6
            entry["embree_disagrees"] = int((~agree).sum())
            entry["embree_cpu_us_per_ray"] = emb_cpu / n * 1e6
            entry["swept_1_thread_over_embree"] = one_s / emb_s
            entry["swept_1_thread_over_embree_cpu"] = one_cpu / emb_cpu
        if "pybullet" in best:
            bul_s, bul_cpu, bul = best["pybullet"]
            entry["pybullet_us_per_ray"] = bul_s / bullet_n * 1e6
            entry["pybullet_cpu_us_per_ray"] = bul_cpu / bullet_n * 1e6
            entry["pybullet_over_swept_1_thread"] = (bul_s / bullet_n) / (one_s / n)
            entry["pybullet_over_swept_1_thread_cpu"] = (bul_cpu / bullet_n) / (one_cpu / n)
            if "embree" in best:
                # what "10x faster than pybullet" asks, against Embree's time
                entry["pybullet_over_embree"] = (bul_s / bullet_n) / (emb_s / n)
                entry["pybullet_over_embree_cpu"] = (bul_cpu / bullet_n) / (emb_cpu / n)
            within = batch.distance[::stride] <= reach
            entry["pybullet_hit_disagrees"] = int((bul["hit"] != within).sum())
        row["rays"][kind] = entry
    # sphere sweeps: per call through the public API, misses against every triangle
    box = mesh.aabb
    lo3 = np.array(box.min)
    hi3 = np.array(box.max)
    size = float((hi3 - lo3).max())
    centres = rng.uniform(lo3, hi3, (sweeps, 3))
    moves = rng.normal(size=(sweeps, 3)) * size * 0.05
    radii = rng.uniform(0.002, 0.01, sweeps) * size
    balls = [Sphere(c, r) for c, r in zip(centres, radii)]
    sweep(balls[0], moves[0], mesh)
    t0 = time.perf_counter()
    c0 = time.process_time()
    found = [sweep(b, v, mesh) for b, v in zip(balls, moves)]
    sweep_cpu = time.process_time() - c0
    sweep_s = time.perf_counter() - t0
    every = np.arange(m, dtype=np.int64)
    missed = wrong = 0
    for i in range(min(sample // 10, sweeps)):
        f, k = kmesh.sphere_cast(mesh.vertices, mesh.triangles, mesh.normals, every, m,
                                 *centres[i], *moves[i], radii[i], 1.0)
        if k >= 0 and found[i] is None:
            missed += 1
        elif (k >= 0) != (found[i] is not None) or (found[i] is not None
                                                     and found[i].fraction != f):
            wrong += 1
    row["sweeps"] = {"sweeps": sweeps, "hits": sum(h is not None for h in found),
                     "us_per_sweep": sweep_s / sweeps * 1e6,
                     "cpu_us_per_sweep": sweep_cpu / sweeps * 1e6,
                     "checked_against_every_triangle": min(sample // 10, sweeps),
                     "missed": missed, "wrong": wrong}
    return row


def main() -> None:
    """Run the benchmark and print its table."""
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--quick", action="store_true", help="smaller meshes, fewer rays")
    args = parser.parse_args()
    rng = np.random.default_rng(SEED)
    cells = 224 if args.quick else 708
    n_rays = 20_000 if args.quick else 100_000
    heights, step = terrain(cells, rng)
    hf = HeightField(heights, scale=(step, 1.0, step))
    meshes: list[tuple[str, TriangleMesh]] = [
        ("terrain", TriangleMesh(hf.vertices, hf.triangles))]
    try:
        import trimesh

        sphere = trimesh.creation.icosphere(subdivisions=6 if args.quick else 8, radius=500.0)
        meshes.append(("icosphere", TriangleMesh.from_trimesh(sphere)))
    except ImportError:
        print("icosphere skipped: trimesh not installed (pip install swept[mesh])")
    rows = []
    for name, mesh in meshes:
        box = mesh.aabb
        lo = np.array(box.min)
        hi = np.array(box.max)
        centre = 0.5 * (lo + hi)
        if name == "terrain":
            centre[1] = hi[1] + 10.0
        rays = {"lidar": lidar(n_rays, centre),
                "incoherent": incoherent(n_rays, lo - 50.0, hi + 50.0, rng)}
        rows.append(bench_mesh(name, mesh, rays, 2_000 if args.quick else 10_000,
                               200, rng, 4000.0))
        rows[-1]["load_average"] = os.getloadavg()
        print_rows(rows[-1:])
    # the height field's own walk on the terrain's rays
    o, d = lidar(n_rays, np.array([500.0, float(hf.aabb.max[1]) + 10.0, 500.0]))
    raycast_many(hf, o[:10], d[:10])
    default = threads()
    set_threads(1)
    hf_s, hf_batch = timed(lambda: raycast_many(hf, o, d), 3)
    set_threads(default)
    mesh_batch = raycast_many(meshes[0][1], o, d)
    hf_row = {"heightfield_us_per_ray_1_thread": hf_s / n_rays * 1e6,
              "equal_to_mesh": bool(np.array_equal(hf_batch.distance, mesh_batch.distance))}
    print(f"\nheight field walk (terrain, lidar): {hf_row}")
    RESULTS.parent.mkdir(exist_ok=True)
    RESULTS.write_text(json.dumps({"machine": {"platform": platform.platform(),
                                               "cpus": os.cpu_count(), "threads": default},
                                   "quick": args.quick, "meshes": rows,
                                   "heightfield": hf_row}, indent=1))


def print_rows(rows: list[dict[str, Any]]) -> None:
    """The table: one block a mesh."""
    for row in rows:
        print(f"\n{row['mesh']}: {row['triangles']:,} triangles; BVH build "
              f"{row['bvh_build_s']:.2f} s ({row['bvh_build_cpu_s']:.2f} s CPU), TriangleMesh() "
              f"{row['construct_s']:.2f} s ({row['construct_cpu_s']:.2f} s CPU) "
              f"(load average {', '.join(f'{x:.1f}' for x in row['load_average'])})")
        for kind, e in row["rays"].items():
            cols = [f"{k}={v:.3g}" if isinstance(v, float) else f"{k}={v}"
                    for k, v in e.items()]
            print(f"  rays {kind}: " + ", ".join(cols))
            if "pybullet_over_embree_cpu" in e:
                # 10x pybullet asks swept within pybullet / Embree / 10 of Embree's time
                pb_emb = e["pybullet_over_embree_cpu"]
                print(f"    {kind} (CPU): swept / Embree {e['swept_1_thread_over_embree_cpu']:.2f}x"
                      f", pybullet / swept {e['pybullet_over_swept_1_thread_cpu']:.1f}x, "
                      f"pybullet / Embree {pb_emb:.1f}x (10x pybullet: swept within "
                      f"{pb_emb / 10.0:.2f}x Embree's time)")
        s = row["sweeps"]
        print("  sweeps: " + ", ".join(f"{k}={v:.3g}" if isinstance(v, float) else f"{k}={v}"
                                       for k, v in s.items()))


if __name__ == "__main__":
    main()
