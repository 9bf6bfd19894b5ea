"""Fixtures that several test modules build the same way (imported as ``shared``: pytest puts
this folder on ``sys.path``)."""

from __future__ import annotations

import importlib.util
import math
import sys
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from pathlib import Path
from types import ModuleType
from typing import Any

import numpy as np

from swept import AABB, Capsule, Circle, Plane, Segment, raycast
from swept._parallel import set_threads, threads
from swept.sim import Body, Simulation


@contextmanager
def on_threads(count: int) -> Iterator[None]:
    """Run the block with swept's parallel calls on ``count`` threads, then the count before."""
    before = threads()
    set_threads(count)
    try:
        yield
    finally:
        set_threads(before)


def bench_scenes() -> ModuleType:
    """``benchmarks/scenes.py``, the scene generators the broadphase benchmark and its tests
    share, loaded once."""
    return bench_script("scenes", "swept_bench_scenes")


def bench_script(stem: str, name: str) -> ModuleType:
    """``benchmarks/<stem>.py`` as module ``name``, loaded once (by path: the folder is not a
    package)."""
    if name in sys.modules:
        return sys.modules[name]
    path = Path(__file__).resolve().parents[1] / "benchmarks" / f"{stem}.py"
    spec = importlib.util.spec_from_file_location(name, path)
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    sys.modules[name] = module
    spec.loader.exec_module(module)
    return module


def nearest_hit(shapes: list[Any], ray: Any) -> tuple[int, Any]:
    """The nearest hit of ``ray`` over ``shapes`` by the scalar ``swept.raycast`` (ties: the
    smallest index), as ``(index, hit)``; ``(-1, None)`` on a miss."""
    best_h, best = -1, None
    for h, shape in enumerate(shapes):
        hit = raycast(ray, shape)
        if hit is not None and (best is None or hit.distance < best.distance):
            best_h, best = h, hit
    return best_h, best


def rays_equal_brute_force(shapes: list[Any], world: Any, origins: np.ndarray,
                           directions: np.ndarray, max_distance: np.ndarray,
                           unit: float = 1.0) -> None:
    """``world.raycast_many`` and ``world.raycast`` agree with the brute force
    (:func:`nearest_hit` over ``shapes``, the World's colliders in handle order) on every ray:
    the same handle (ties: the smallest), distances and points to 1e-9 relative (of at least
    ``unit``: the scene's length scale), normals to 1e-12, ``started_inside``."""
    from swept import Ray

    def close(a: float, b: float, scale: float) -> bool:
        return abs(a - b) <= 1e-9 * max(unit, scale)

    batch = world.raycast_many(origins, directions, max_distance)
    for r in range(origins.shape[0]):
        ray = Ray(origins[r], directions[r], float(max_distance[r]))
        h, hit = nearest_hit(shapes, ray)
        one = world.raycast(ray)
        scale = float(np.max(np.abs(origins[r])))
        if hit is None:
            assert one is None, r
            assert batch.handle[r] == -1 and not batch.hit[r] and batch.distance[r] == math.inf
            continue
        assert one is not None and one.handle == h, (r, h, one)
        assert batch.handle[r] == h and batch.hit[r], (r, h, batch.handle[r])
        for got in (one.distance, batch.distance[r]):
            assert close(got, hit.distance, hit.distance), (r, got, hit.distance)
        for k in range(2):
            assert close(one.point[k], hit.point[k], scale), r
            assert close(batch.point[r, k], hit.point[k], scale), r
            assert abs(one.normal[k] - hit.normal[k]) <= 1e-12, r
            assert abs(batch.normal[r, k] - hit.normal[k]) <= 1e-12, r
        assert one.started_inside == hit.started_inside


def busy_simulation(seed: int) -> Simulation:
    """300 balls of the three ccd modes, mixed sizes, masses, restitutions and frictions,
    thrown about a closed 600 x 600 box with 20 random walls, a capsule and a circle, under
    gravity."""
    rng = np.random.default_rng(seed)
    sim = Simulation(gravity=(0.0, 300.0), step=1.0 / 60.0)
    for p, q in (((0, 0), (600, 0)), ((600, 0), (600, 600)), ((600, 600), (0, 600)),
                 ((0, 600), (0, 0))):
        sim.world.add(Segment(p, q))
    for _ in range(20):
        a = rng.uniform(50, 550, 2)
        sim.world.add(Segment(a, a + rng.uniform(-60, 60, 2)))
    sim.world.add(Capsule((100.0, 500.0), (300.0, 520.0), 8.0))
    sim.world.add(Circle((450.0, 450.0), 20.0))
    modes = ("discrete", "swept", "speculative")
    for k in range(300):
        sim.add(Body(Circle(rng.uniform(20, 580, 2), rng.uniform(2, 8)),
                     rng.uniform(-2000, 2000, 2), mass=rng.uniform(0.5, 3),
                     restitution=rng.uniform(0, 1), friction=rng.uniform(0, 0.5),
                     ccd=modes[k % 3]))
    return sim


def golden_min(f: Callable[[float], float], steps: int = 100) -> float:
    """The least value of a convex function on [0, 1], by golden-section search (``steps``
    narrowings, each by the golden ratio), the ends included."""
    r = (math.sqrt(5.0) - 1.0) / 2.0
    lo, hi = 0.0, 1.0
    x1, x2 = hi - r * (hi - lo), lo + r * (hi - lo)
    f1, f2 = f(x1), f(x2)
    for _ in range(steps):
        if f1 <= f2:
            hi, x2, f2 = x2, x1, f1
            x1 = hi - r * (hi - lo)
            f1 = f(x1)
        else:
            lo, x1, f1 = x1, x2, f2
            x2 = lo + r * (hi - lo)
            f2 = f(x2)
    return min(f1, f2, f(0.0), f(1.0))


def add_random_statics(world: Any, rng: np.random.Generator,
                       magnitude: Callable[[], float]) -> None:
    """Up to three random 2D colliders (segments, circles, boxes, half-planes) with every
    coordinate and size drawn by ``magnitude`` (the fuzz scripts: any size the input contract
    allows)."""
    for _ in range(int(rng.integers(0, 4))):
        kind = rng.integers(0, 4)
        a = (magnitude(), magnitude())
        if kind == 0:
            world.add(Segment(a, (magnitude(), magnitude())))
        elif kind == 1:
            world.add(Circle(a, abs(magnitude())))
        elif kind == 2:
            lo = np.minimum(a, (magnitude(), magnitude()))
            world.add(AABB(lo, lo + np.abs([magnitude(), magnitude()])))
        else:
            world.add(Plane((0.0, -1.0), magnitude()))
