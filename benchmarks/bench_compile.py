"""Cold compile time: every kernel a user's first session meets, compiled from an empty cache.

Issue 11 asks that compiling every kernel from a cold cache (a fresh clone) take at most 60 s
on the project's 2-core machine. numba compiles a kernel on its first call and keeps the
machine code in ``__pycache__`` beside the sources, so a fresh clone pays once. This script
copies ``src/swept`` into a temporary directory (an empty cache), runs a *tour* in a fresh
interpreter that calls every family of kernels once (ray casts on every shape, sweeps,
contacts, distances, times of impact, manifolds, the World's scalar and batch queries in 2D
and 3D, the Simulation in every mode, move_and_slide, resolve), then runs the same tour again
(a warm cache). Cold minus warm is the compile time. Prints both and writes
``benchmarks/results/compile.json``.

Run: python benchmarks/bench_compile.py
"""

from __future__ import annotations

import json
import os
import shutil
import subprocess
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent

TOUR = r"""
import numpy as np
import swept
from swept import (AABB, Capsule, Chain, Circle, Plane, Polygon, Ray, Segment, Sphere, World,
                   Simulation, contact, distance, manifold, move_and_slide, raycast, resolve,
                   sweep, time_of_impact, closest_point, closest_points, Motion)
from swept.vec import Vec2, Vec3
shapes2 = [Circle((5, 0), 1), Segment((5, -1), (5, 1)), AABB((4, -1), (6, 1)),
           Polygon([(4, -1), (6, -1), (5, 1)]), Capsule((5, -1), (5, 1), 0.5),
           Plane((-1, 0), -5), Chain([(5, -1), (5, 1), (6, 2)])]
shapes3 = [Sphere((5, 0, 0), 1), AABB((4, -1, -1), (6, 1, 1)),
           Capsule((5, -1, 0), (5, 1, 0), 0.5), Plane((-1, 0, 0), -5)]
for s in shapes2:
    raycast(Ray((0, 0), (1, 0)), s)
    for m in (Circle((0, 0), 0.5), AABB((-0.5, -0.5), (0.5, 0.5)),
              Capsule((0, -0.5), (0, 0.5), 0.2), Polygon([(-0.5, -0.5), (0.5, -0.5), (0, 0.5)])):
        sweep(m, (10, 0), s)
        contact(m, s)
        if not isinstance(s, Plane):
            distance(m, s)
            closest_points(m, s)
            manifold(m, s)
    closest_point(s, (0, 0))
for s in shapes3:
    raycast(Ray((0, 0, 0), (1, 0, 0)), s)
    for m in (Sphere((0, 0, 0), 0.5), Capsule((0, 0, -0.5), (0, 0, 0.5), 0.2),
              AABB((-0.5, -0.5, -0.5), (0.5, 0.5, 0.5))):
        sweep(m, (10, 0, 0), s)
        contact(m, s)
time_of_impact(Polygon([(-1, -1), (1, -1), (0, 1)]), Motion((0, 0), 0.0, (10, 0), 3.0),
               Polygon([(4, -1), (6, -1), (6, 1)]), Motion())
rng = np.random.default_rng(0)
for dim in (2, 3):
    w = World()
    if dim == 2:
        a = rng.uniform(0, 100, (200, 2))
        w.add_segments(np.c_[a, a + rng.uniform(-5, 5, (200, 2))])
        for s in shapes2[:-1]:
            w.add(s)
        w.add(Circle((50, 50), 2), moving=True)
    else:
        w.add_circles(rng.uniform(0, 100, (200, 3)), 1.0)
        for s in shapes3:
            w.add(s)
    o = rng.uniform(0, 100, (300, dim)); d = rng.normal(size=(300, dim))
    w.raycast_many(o, d); w.raycast_many(o[:5], d[:5])
    w.sweep_many(o, np.ones(300), d); w.contact_many(o, np.ones(300))
    w.raycast(Ray(tuple(o[0]), tuple(d[0])))
    w.raycast(Ray(tuple(o[0]), tuple(d[0])), ignore=[0])
    w.raycast_all(Ray(tuple(o[0]), tuple(d[0])))
    ball = Circle((1, 1), 1) if dim == 2 else Sphere((1, 1, 1), 1)
    w.sweep(ball, (5,) * dim); w.contacts(ball)
    mover = ball if dim == 2 else Capsule((1, 1, 1), (1, 2, 1), 0.5)
    w.move_and_slide(mover, (30,) * dim, 1 / 60)
    solids = [s for s in (shapes2 if dim == 2 else shapes3) if not isinstance(s, Chain)]
    resolve(ball, (0.0,) * dim, solids)
    for mode in ("discrete", "swept", "speculative"):
        sim = Simulation(w, gravity=(0, -980) if dim == 2 else (0, -980, 0))
        sim.add_balls(rng.uniform(10, 90, (300, dim)), 1.0, rng.normal(size=(300, dim)) * 300,
                      ccd=mode)
        sim.run(3)
"""


def run_tour(pythonpath: str) -> float:
    """Seconds a fresh interpreter takes to run the tour with ``pythonpath`` first."""
    env = dict(os.environ, PYTHONPATH=pythonpath)
    start = time.perf_counter()
    subprocess.run([sys.executable, "-c", TOUR], check=True, env=env)
    return time.perf_counter() - start


def main() -> None:
    """Measure cold and warm tours; print them and write the JSON."""
    with tempfile.TemporaryDirectory() as tmp:
        shutil.copytree(ROOT / "src" / "swept", Path(tmp) / "swept",
                        ignore=shutil.ignore_patterns("__pycache__"))
        cold = run_tour(tmp)
        warm = run_tour(tmp)
    print(f"cold tour {cold:.1f} s, warm tour {warm:.1f} s: compiling took {cold - warm:.1f} s "
          f"(goal: at most 60 s)")
    out = ROOT / "benchmarks" / "results"
    out.mkdir(exist_ok=True)
    (out / "compile.json").write_text(json.dumps({"cold_s": cold, "warm_s": warm,
                                                  "compile_s": cold - warm}, indent=2))


if __name__ == "__main__":
    main()
