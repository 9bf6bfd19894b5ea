"""Benchmark contacts and distances of spheres, capsules and boxes on a terrain (issue 13).

One noisy terrain (a grid of random heights on hills) as a ``TriangleMesh`` and as the same
``HeightField``; 2,000 shapes placed a little over or into it at random. Measured per call,
side by side in one run (scalar calls in a Python loop, one thread): ``contact`` and
``distance`` of a ``Sphere``, an upright ``Capsule`` and an ``AABB`` of the same size, and
the ratio of each to the sphere's. Before timing, the capsule's and box's distances are
checked against the least over the triangles near them (the same kernel on every triangle of
a wide box: a check of the search, not of the geometry, which the tests check).

Prints a table and writes ``benchmarks/results/mesh_contact.json``.

Run: ``python benchmarks/bench_mesh_contact.py`` (``--quick``: a smaller terrain, fewer
shapes).
"""

from __future__ import annotations

import argparse
import json
import math
import time
from pathlib import Path
from typing import Any

import numpy as np

from swept import AABB, Capsule, HeightField, Sphere, TriangleMesh, contact, distance
from swept._kernels import mesh as kmesh
from swept.sweep import shape_core

SEED = 2026
RESULTS = Path(__file__).resolve().parent / "results" / "mesh_contact.json"


def terrain(cells: int, rng: np.random.Generator) -> HeightField:
    """A noisy terrain of ``cells`` x ``cells`` cells on a square of side 100."""
    n = cells + 1
    x = np.linspace(0.0, 6.0 * math.pi, n)
    hills = 4.0 * np.sin(x)[None, :] * np.cos(0.7 * x)[:, None]
    heights = hills + rng.normal(0.0, 0.2, (n, n))
    step = 100.0 / cells
    return HeightField(heights, (step, 1.0, step))


def shapes(field: HeightField, count: int, rng: np.random.Generator
           ) -> dict[str, list[Any]]:
    """``count`` spheres, capsules and boxes (radius or half-width 0.5, 2 tall), their lowest
    point from 0.3 under to 0.3 over the ground below their centre."""
    out: dict[str, list[Any]] = {"sphere": [], "capsule": [], "box": []}
    for _ in range(count):
        x, z = rng.uniform(5.0, 95.0, 2)
        ground = field.vertices[:, 1].reshape(field.heights.shape)
        j = min(int(x / field.scale[0]), field.heights.shape[1] - 1)
        i = min(int(z / field.scale[2]), field.heights.shape[0] - 1)
        y = float(ground[i, j]) + rng.uniform(-0.3, 0.3)
        out["sphere"].append(Sphere((x, y + 0.5, z), 0.5))
        out["capsule"].append(Capsule((x, y + 0.5, z), (x, y + 1.5, z), 0.5))
        out["box"].append(AABB((x - 0.5, y, z - 0.5), (x + 0.5, y + 2.0, z + 0.5)))
    return out


def per_call(fn: Any, items: list[Any], surface: Any, repeats: int = 3) -> float:
    """The fastest of ``repeats`` loops, in microseconds a call."""
    best = math.inf
    for _ in range(repeats):
        t0 = time.perf_counter()
        for s in items:
            fn(s, surface)
        best = min(best, time.perf_counter() - t0)
    return 1e6 * best / len(items)


def check(surface: Any, items: list[Any], sample: int = 50) -> int:
    """How many of the first ``sample`` shapes' distances differ from the least over every
    triangle within 5 units of them (the kernel on a wide set: the search checked)."""
    wrong = 0
    for s in items[:sample]:
        core, r = shape_core(s)
        cand = surface._candidates(core.min(axis=0) - 5.0, core.max(axis=0) + 5.0)
        d = kmesh.core_surface_nearest(core, surface.vertices, surface.triangles,
                                       surface.normals, cand, cand.shape[0])[0]
        if abs(max(d - r, 0.0) - distance(s, surface)) > 1e-9:
            wrong += 1
    return wrong


def main() -> None:
    """Run the benchmark, print the table, write the JSON."""
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--quick", action="store_true", help="a smaller terrain, fewer shapes")
    args = parser.parse_args()
    rng = np.random.default_rng(SEED)
    cells = 100 if args.quick else 300
    count = 300 if args.quick else 2000
    field = terrain(cells, rng)
    mesh = TriangleMesh(field.vertices, field.triangles)
    items = shapes(field, count, rng)
    rows = []
    for name, surface in (("TriangleMesh", mesh), ("HeightField", field)):
        # warm: compile every kernel before timing
        for kind in items:
            contact(items[kind][0], surface)
            distance(items[kind][0], surface)
        wrong = sum(check(surface, items[kind]) for kind in ("capsule", "box"))
        base: dict[str, float] = {}
        for query, fn in (("contact", contact), ("distance", distance)):
            for kind in ("sphere", "capsule", "box"):
                us = per_call(fn, items[kind], surface)
                if kind == "sphere":
                    base[query] = us
                rows.append({"surface": name, "query": query, "shape": kind, "us": us,
                             "ratio_to_sphere": us / base[query], "wrong": wrong})
    print(f"terrain {cells} x {cells} cells ({2 * cells * cells} triangles), {count} shapes")
    print(f"{'surface':<13} {'query':<9} {'shape':<8} {'us/call':>9} {'x sphere':>9}")
    for r in rows:
        print(f"{r['surface']:<13} {r['query']:<9} {r['shape']:<8} {r['us']:>9.1f} "
              f"{r['ratio_to_sphere']:>9.2f}")
    print("distances differing from the wide search:", rows[0]["wrong"], "(mesh),",
          rows[-1]["wrong"], "(height field)")
    RESULTS.parent.mkdir(exist_ok=True)
    RESULTS.write_text(json.dumps({"cells": cells, "count": count, "rows": rows}, indent=1))


if __name__ == "__main__":
    main()
