"""Benchmark TileMap queries: rays and circle sweeps against the same level as a World.

Two 256 x 256 maps of unit tiles, seeded: ``random`` (each tile solid with probability 0.3)
and ``platformer`` (a floor three tiles thick, walls at both sides, floating platforms 3 to 12
tiles long every few rows, and pillars). Queries start in empty tiles: rays in random
directions (``max_distance`` 64 tiles) and circle sweeps (radius 0.1 to 0.45 tiles,
displacement up to 8 tiles in a random direction). Runners, each a Python loop of scalar
calls:

- ``tilemap``: ``raycast(ray, tile_map)`` and ``sweep(circle, d, tile_map)`` (the grid walk
  and the outline segments by cell);
- ``world_boxes``: a World holding one box per solid tile (``add_boxes``): ``World.raycast``
  and ``World.sweep``;
- ``world_chains``: a World holding the map's outline chains: the same calls.

Every runner's answers are checked against the tile map's (same hit or miss; same distance or
fraction within ``AGREE_TOLERANCE``). Prints microseconds a query and the ratio to the
``tilemap`` runner, best of ``REPEATS`` alternated rounds, and writes
``benchmarks/results/tilemap.json``. ``run(quick)`` is the entry point; ``python
benchmarks/bench_tilemap.py [--quick]`` runs it from the command line.
"""

from __future__ import annotations

import argparse
import json
import math
import platform
import time
from collections.abc import Callable
from pathlib import Path
from typing import Any

import numpy as np

from swept import Circle, Ray, TileMap, raycast, sweep
from swept.world import World

#: Side of each map, in tiles.
MAP_SIZE = 256
#: Seed of every map and query set.
SEED = 7
#: Probability that a tile of the random map is solid.
RANDOM_FILL = 0.3
#: Queries per runner (full run, quick run).
QUERIES = (2_000, 300)
#: Longest ray, in tiles.
RAY_LENGTH = 64.0
#: Longest sweep displacement, in tiles.
SWEEP_LENGTH = 8.0
#: Smallest and largest circle radius, in tiles.
RADII = (0.1, 0.45)
#: Relative tolerance when two runners' distances or fractions are compared.
AGREE_TOLERANCE = 1e-9
#: Alternated timed rounds (the best of each runner is kept).
REPEATS = 3
RESULTS = Path(__file__).resolve().parent / "results" / "tilemap.json"


def random_map(rng: np.random.Generator) -> np.ndarray:
    """Each tile solid with probability :data:`RANDOM_FILL`."""
    return rng.random((MAP_SIZE, MAP_SIZE)) < RANDOM_FILL


def platformer_map(rng: np.random.Generator) -> np.ndarray:
    """A floor, two side walls, floating platforms and pillars."""
    solid = np.zeros((MAP_SIZE, MAP_SIZE), bool)
    solid[-3:, :] = True
    solid[:, :2] = True
    solid[:, -2:] = True
    for row in range(8, MAP_SIZE - 6, 5):
        col = 2
        while col < MAP_SIZE - 16:
            col += int(rng.integers(4, 14))
            length = int(rng.integers(3, 13))
            solid[row, col:col + length] = True
            col += length
    for col in rng.integers(4, MAP_SIZE - 4, size=24):
        top = int(rng.integers(MAP_SIZE // 2, MAP_SIZE - 6))
        solid[top:MAP_SIZE - 3, col] = True
    return solid


def queries(solid: np.ndarray, n: int, rng: np.random.Generator
            ) -> tuple[np.ndarray, np.ndarray, np.ndarray, np.ndarray]:
    """``n`` starts in empty tiles (away from the tile's sides), unit directions, sweep
    displacements and radii."""
    rows, cols = np.nonzero(~solid)
    pick = rng.integers(0, len(rows), size=n)
    starts = np.column_stack((cols[pick] + rng.uniform(0.45, 0.55, n),
                              rows[pick] + rng.uniform(0.45, 0.55, n)))
    angle = rng.uniform(0.0, 2.0 * math.pi, n)
    dirs = np.column_stack((np.cos(angle), np.sin(angle)))
    disp = dirs * rng.uniform(0.5, SWEEP_LENGTH, n)[:, None]
    radii = rng.uniform(*RADII, n)
    # a circle must start clear of the solid tiles: no larger than its tile's inside
    radii = np.minimum(radii, 0.44)
    return starts, dirs, disp, radii


def _timed(fn: Callable[[], list[Any]]) -> tuple[float, list[Any]]:
    t0 = time.perf_counter()
    out = fn()
    return time.perf_counter() - t0, out


def _key(hit: Any, field: str) -> float:
    return math.inf if hit is None else float(getattr(hit, field))


def measure(name: str, solid: np.ndarray, n: int, rng: np.random.Generator) -> dict[str, Any]:
    """Time every runner on one map; check their answers agree."""
    tiles = TileMap(solid, 1.0)
    t0 = time.perf_counter()
    tiles.chains()
    build_outline = time.perf_counter() - t0
    t0 = time.perf_counter()
    sweep(Circle((0.5, 0.5), 0.1), (0.0, 0.0), tiles)  # the cell index
    build_index = time.perf_counter() - t0
    rows, cols = np.nonzero(solid)
    boxes = World()
    boxes.add_boxes(np.column_stack((cols, rows)).astype(float),
                    np.column_stack((cols + 1, rows + 1)).astype(float))
    chains = World()
    for chain in tiles.chains():
        chains.add(chain)
    starts, dirs, disp, radii = queries(solid, n, rng)
    rays = [Ray(tuple(o), tuple(d), RAY_LENGTH) for o, d in zip(starts, dirs)]
    balls = [Circle(tuple(o), float(r)) for o, r in zip(starts, radii)]
    moves = [tuple(d) for d in disp]
    # warm every path (numba compiles, the Worlds' trees)
    raycast(rays[0], tiles)
    boxes.raycast(rays[0])
    chains.raycast(rays[0])
    boxes.sweep(balls[0], moves[0])
    chains.sweep(balls[0], moves[0])
    runners: dict[str, dict[str, Callable[[], list[Any]]]] = {
        "tilemap": {
            "rays": lambda: [raycast(r, tiles) for r in rays],
            "sweeps": lambda: [sweep(b, m, tiles) for b, m in zip(balls, moves)],
        },
        "world_boxes": {
            "rays": lambda: [boxes.raycast(r) for r in rays],
            "sweeps": lambda: [boxes.sweep(b, m) for b, m in zip(balls, moves)],
        },
        "world_chains": {
            "rays": lambda: [chains.raycast(r) for r in rays],
            "sweeps": lambda: [chains.sweep(b, m) for b, m in zip(balls, moves)],
        },
    }
    best: dict[str, dict[str, float]] = {k: {"rays": math.inf, "sweeps": math.inf}
                                         for k in runners}
    answers: dict[str, dict[str, list[Any]]] = {k: {} for k in runners}
    for _ in range(REPEATS):
        for runner, kinds in runners.items():
            for kind, fn in kinds.items():
                seconds, out = _timed(fn)
                best[runner][kind] = min(best[runner][kind], seconds)
                answers[runner][kind] = out
    disagree: dict[str, dict[str, int]] = {}
    for runner in runners:
        disagree[runner] = {}
        for kind, field in (("rays", "distance"), ("sweeps", "fraction")):
            ref = answers["tilemap"][kind]
            got = answers[runner][kind]
            disagree[runner][kind] = sum(
                1 for a, b in zip(ref, got)
                if not (_key(a, field) == _key(b, field) or abs(_key(a, field) - _key(b, field))
                        <= AGREE_TOLERANCE * max(1.0, abs(_key(a, field)))))
    hits = {kind: sum(h is not None for h in answers["tilemap"][kind]) for kind in
            ("rays", "sweeps")}
    return {
        "map": name, "solid_tiles": int(solid.sum()), "queries": n, "hits": hits,
        "outline_segments": sum(len(c.segments) for c in tiles.chains()),
        "build_outline_s": build_outline, "build_index_s": build_index,
        "us_per_query": {r: {k: 1e6 * v / n for k, v in kinds.items()}
                         for r, kinds in best.items()},
        "ratio_to_tilemap": {r: {k: best[r][k] / best["tilemap"][k] for k in kinds}
                             for r, kinds in best.items()},
        "disagreements": disagree,
    }


def run(quick: bool = False) -> dict[str, Any]:
    """Both maps, every runner; returns a JSON-ready dict."""
    rng = np.random.default_rng(SEED)
    n = QUERIES[1] if quick else QUERIES[0]
    maps = {"random": random_map(rng), "platformer": platformer_map(rng)}
    return {
        "machine": {"python": platform.python_version(), "platform": platform.platform()},
        "quick": quick,
        "results": [measure(name, solid, n, rng) for name, solid in maps.items()],
    }


def print_table(result: dict[str, Any]) -> None:
    """Microseconds a query and the ratio to the tile map, per map and runner."""
    for m in result["results"]:
        print(f"\n{m['map']} map: {m['solid_tiles']} solid tiles, {m['outline_segments']} "
              f"outline segments, {m['queries']} queries (hits: {m['hits']}); outline "
              f"{m['build_outline_s'] * 1e3:.0f} ms, cell index {m['build_index_s'] * 1e3:.0f} ms")
        print(f"{'runner':<14}{'ray us':>10}{'ratio':>8}{'sweep us':>11}{'ratio':>8}"
              f"{'disagree':>10}")
        for runner, us in m["us_per_query"].items():
            ratio = m["ratio_to_tilemap"][runner]
            bad = m["disagreements"][runner]
            print(f"{runner:<14}{us['rays']:>10.1f}{ratio['rays']:>8.2f}{us['sweeps']:>11.1f}"
                  f"{ratio['sweeps']:>8.2f}{bad['rays'] + bad['sweeps']:>10d}")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--quick", action="store_true", help="fewer queries")
    args = parser.parse_args()
    result = run(args.quick)
    print_table(result)
    RESULTS.parent.mkdir(parents=True, exist_ok=True)
    RESULTS.write_text(json.dumps(result, indent=2))


if __name__ == "__main__":
    main()
