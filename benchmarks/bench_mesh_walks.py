"""Where a mesh ray's walk goes (issue 13): rows, leaves and triangle lanes a ray visits.

Counts, not times: each ray of bench_mesh's sets (100,000 lidar rays from one point, 100,000
incoherent rays) walked alone through a ``TriangleMesh``'s eight-wide tree, in the batch's walk
order, by a counting copy of the single ray's walk (the same row layout, entry tests in the
same float64 operations, children sorted by entry, the reach shrinking to the best hit; the
leaf's triangles one by one through the watertight test). Per ray: rows opened, leaf blocks
tested, triangle lanes in them, leaf blocks tested up to and including the first that holds
a hit, leaf blocks with no hit at all, and rows entered at t = 0 (their box holds the
origin: every ray from there opens them, the rows a packet's head skips,
``swept._kernels.mesh.origin_head``); for the hitting and the missing rays apart. Also:

- the same walk with each ray's reach set to its own answer from the start (what knowing the
  hit in advance could save at most: the bound of "try the previous ray's leaf first");
- the lidar from points off the mesh's centre (``--offsets``), where no split plane of the
  tree passes through the origin.

Every count's answer is checked against the batch (``swept.level.raycast_many``). Prints a
table and writes ``benchmarks/results/mesh_walks.json``.

Run: ``python benchmarks/bench_mesh_walks.py`` (``--mesh terrain``; ``--quick``: the meshes of
``bench_mesh.py --quick``).
"""

from __future__ import annotations

import argparse
import json
import math
from pathlib import Path
from typing import Any

import numba
import numpy as np
from bench_mesh import SEED, incoherent, lidar, terrain

from swept import HeightField, TriangleMesh
from swept._kernels import bvh
from swept._kernels import mesh as kmesh
from swept.level import raycast_many

RESULTS = Path(__file__).resolve().parent / "results" / "mesh_walks.json"
#: Columns of :func:`walk_counts`' rows.
COLUMNS = ("rows", "leaves", "lanes", "leaves_to_first_hit", "leaves_without_hit", "k", "t",
           "rows_at_origin")


@numba.njit
def walk_counts(tree: np.ndarray, order: np.ndarray, verts: np.ndarray, tris: np.ndarray,
                o: np.ndarray, d: np.ndarray, reach: np.ndarray, stats: np.ndarray) -> None:
    """Walk each ray ``o[r] + t d[r]`` (unit d) with ``t <= reach[r]`` alone through the tree
    and write its counts to ``stats[r]`` (:data:`COLUMNS`; k -1 and t -1 on a miss)."""
    width = kmesh.TREE_WIDTH
    refs = kmesh.tree_refs(tree)
    stack_ref = np.empty(kmesh.TREE_STACK_SIZE, np.int64)
    stack_t = np.empty(kmesh.TREE_STACK_SIZE)
    for r in range(o.shape[0]):
        origin = (o[r, 0], o[r, 1], o[r, 2])
        frame = kmesh.ray_frame(d[r, 0], d[r, 1], d[r, 2])
        inv = (bvh.inverse_direction(d[r, 0]), bvh.inverse_direction(d[r, 1]),
               bvh.inverse_direction(d[r, 2]))
        limit = reach[r]
        best_k = -1
        sp = 0
        ref = 0
        rows = leaves = lanes = to_hit = empty = at_origin = 0
        entry = 0.0
        for _ in range(width * tree.shape[0] + 2):
            if ref >= 0:
                rows += 1
                if entry == 0.0:
                    # entered at t = 0: its box holds the origin (the head row 0 too)
                    at_origin += 1
                base = sp
                for s in range(width):
                    tn = 0.0
                    tf = limit
                    for a in range(3):
                        lo = np.float64(tree[ref, width * a + s])
                        hi = np.float64(tree[ref, width * (3 + a) + s])
                        enter, leave = (lo, hi) if inv[a] >= 0.0 else (hi, lo)
                        tn, tf = kmesh._slab(enter, leave, origin[a], inv[a], tn, tf)
                    if tn > tf:
                        continue
                    sp = kmesh._push_sorted(stack_ref, stack_t, base, sp,
                                            refs[ref, kmesh.TREE_REFS + s], tn)
            else:
                leaves += 1
                first, stop = kmesh._leaf_rows(ref)
                lanes += stop - first
                hit = False
                for q in range(first, stop):
                    k = order[q]
                    t = kmesh.ray_triangle(verts, tris, k, origin[0], origin[1], origin[2],
                                           frame, -1.0, limit)
                    if t >= 0.0:
                        hit = True
                        limit, best_k = kmesh._nearer(t, k, limit if best_k >= 0 else math.inf,
                                                      best_k)
                if not hit:
                    empty += 1
                elif to_hit == 0:
                    to_hit = leaves
            ref, entry, sp = kmesh._pop(stack_ref, stack_t, sp, limit)
            if ref == 0:
                break
        row = (float(rows), float(leaves), float(lanes), float(to_hit), float(empty),
               float(best_k), limit if best_k >= 0 else -1.0, float(at_origin))
        for c in range(len(COLUMNS)):
            stats[r, c] = row[c]


def summary(stats: np.ndarray) -> dict[str, Any]:
    """Mean counts a ray, over every ray and over the hitting and the missing ones."""
    hit = stats[:, 5] >= 0
    out: dict[str, Any] = {"rays": int(stats.shape[0]), "hits": int(hit.sum())}
    for name, rows in (("all", np.ones_like(hit)), ("hitting", hit), ("missing", ~hit)):
        if rows.any():
            out[name] = {c: round(float(stats[rows, i].mean()), 3)
                         for i, c in enumerate(COLUMNS) if c not in ("k", "t")}
    return out


def count(mesh: TriangleMesh, o: np.ndarray, d: np.ndarray) -> dict[str, Any]:
    """Counts of the rays ``o + t d`` in the batch's walk order, alone and with each reach
    set to the ray's own answer, checked against ``raycast_many``."""
    walk = kmesh.ray_order(o, d)
    if walk.shape[0]:
        o, d = o[walk], d[walk]
    # the directions exactly as raycast_many normalises them
    u = d / np.sqrt((d * d).sum(axis=1))[:, None]
    n = o.shape[0]
    stats = np.zeros((n, len(COLUMNS)))
    walk_counts(mesh._tree, mesh._order, mesh.vertices, mesh.triangles, o, u, np.full(n, np.inf),
                stats)
    batch = raycast_many(mesh, o, d)
    wrong = int((~((batch.handle == stats[:, 5])
                   & (batch.distance == np.where(stats[:, 5] >= 0, stats[:, 6], np.inf)))).sum())
    told = np.where(stats[:, 5] >= 0, stats[:, 6], np.inf)
    known = np.zeros_like(stats)
    walk_counts(mesh._tree, mesh._order, mesh.vertices, mesh.triangles, o, u, told, known)
    return {"walk": summary(stats), "reach_known": summary(known),
            "wrong_against_batch": wrong}


def main() -> None:
    """Count, print and write the table."""
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--mesh", choices=("icosphere", "terrain"), default="icosphere")
    parser.add_argument("--quick", action="store_true", help="the smaller meshes, 20,000 rays")
    parser.add_argument("--offsets", default="1.3,2.7,-0.9;37,-61,23",
                        help="lidar origins off the centre, as 'x,y,z;x,y,z'")
    args = parser.parse_args()
    rng = np.random.default_rng(SEED)
    n = 20_000 if args.quick else 100_000
    if args.mesh == "terrain":
        heights, step = terrain(224 if args.quick else 708, rng)
        hf = HeightField(heights, scale=(step, 1.0, step))
        mesh = TriangleMesh(hf.vertices, hf.triangles)
    else:
        import trimesh

        mesh = TriangleMesh.from_trimesh(
            trimesh.creation.icosphere(subdivisions=6 if args.quick else 8, radius=500.0))
    lo = np.array(mesh.aabb.min)
    hi = np.array(mesh.aabb.max)
    centre = 0.5 * (lo + hi)
    if args.mesh == "terrain":
        centre[1] = hi[1] + 10.0
    sets = {"lidar (centre)": lidar(n, centre),
            "incoherent": incoherent(n, lo - 50.0, hi + 50.0, rng)}
    for text in filter(None, args.offsets.split(";")):
        off = np.array([float(x) for x in text.split(",")])
        sets[f"lidar (centre + {text})"] = lidar(n, centre + off)
    rows = {}
    print(f"{args.mesh}: {mesh.triangles.shape[0]:,} triangles, {mesh._tree.shape[0]:,} rows, "
          f"{mesh._packed.shape[0]:,} leaf blocks")
    for name, (o, d) in sets.items():
        rows[name] = count(mesh, o, d)
        w = rows[name]["walk"]
        k = rows[name]["reach_known"]
        print(f"  {name}: {w['hits']:,} of {w['rays']:,} hit; a ray {w['all']}; hitting "
              f"{w.get('hitting')}; missing {w.get('missing')}; reach known from the start: "
              f"{k['all']}; wrong against the batch {rows[name]['wrong_against_batch']}")
    RESULTS.parent.mkdir(exist_ok=True)
    RESULTS.write_text(json.dumps({"mesh": args.mesh, "quick": args.quick, "sets": rows},
                                  indent=1))


if __name__ == "__main__":
    main()
