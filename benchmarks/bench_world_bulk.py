"""Benchmark filling a World: one ``add`` per segment against ``add_segments`` from numpy.

Scene: random segments 1 to 10 long in a 1000 x 1000 world. Runners (best of ``repeat``
timings each, seconds):

- ``add x 10,000``: ``World.add(Segment(a, b))`` in a Python loop (the shapes built too);
- ``add_segments 10,000`` and ``add_segments 1,000,000``: one call on an (n, 4) array;
- ``first ray after 1,000,000``: the first query, which builds the broadphase over them;
- ``pickle 1,000,000`` / ``unpickle 1,000,000``: ``pickle.dumps`` and ``pickle.loads`` of that
  world (its bulk rows, not the trees).

``run(quick)`` is the entry point; ``python benchmarks/bench_world_bulk.py [--quick]`` runs it
from the command line (``--quick``: 100,000 rows instead of 1,000,000, one timing each) and
writes ``benchmarks/results/world_bulk.json``.
"""

from __future__ import annotations

import argparse
import json
import pickle
import sys
from pathlib import Path

import numpy as np

sys.path.insert(0, str(Path(__file__).resolve().parent))

from timing import best_time  # noqa: E402

from swept import Ray, Segment
from swept.world import World

RESULTS = Path(__file__).resolve().parent / "results" / "world_bulk.json"


def _segments(n: int, seed: int = 0) -> np.ndarray:
    rng = np.random.default_rng(seed)
    a = rng.uniform(0.0, 1000.0, (n, 2))
    angle = rng.uniform(0.0, 2.0 * np.pi, n)
    length = rng.uniform(1.0, 10.0, n)
    b = a + length[:, None] * np.column_stack((np.cos(angle), np.sin(angle)))
    return np.hstack((a, b))


def run(quick: bool = False) -> dict[str, float]:
    """Time every runner; print a table; return seconds by runner."""
    big = 100_000 if quick else 1_000_000
    repeat = 1 if quick else 3
    small = _segments(10_000, 1)
    rows = _segments(big, 2)
    World().add_segments(small[:2])  # imports and first-call costs out of the timings

    def one_by_one() -> None:
        w = World()
        for r in small:
            w.add(Segment((r[0], r[1]), (r[2], r[3])))

    out = {
        "add x 10,000": best_time(one_by_one, repeat, warm=False),
        "add_segments 10,000": best_time(lambda: World().add_segments(small), repeat,
                                         warm=False),
        f"add_segments {big:,}": best_time(lambda: World().add_segments(rows), repeat,
                                           warm=False),
    }
    world = World()
    world.add_segments(rows)
    # (the first call is the one measured: no warm-up)
    out[f"first ray after {big:,}"] = best_time(lambda: world.raycast(Ray((500, 500), (1, 0))),
                                                1, warm=False)
    blob = pickle.dumps(world)
    out[f"pickle {big:,}"] = best_time(lambda: pickle.dumps(world), repeat, warm=False)
    out[f"unpickle {big:,}"] = best_time(lambda: pickle.loads(blob), repeat, warm=False)
    print(f"{'runner':<30} {'seconds':>10}")
    for name, seconds in out.items():
        print(f"{name:<30} {seconds:>10.3f}")
    print(f"pickle size: {len(blob) / 1e6:.1f} MB for {big:,} segments")
    return out


if __name__ == "__main__":
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--quick", action="store_true")
    seconds = run(parser.parse_args().quick)
    RESULTS.parent.mkdir(exist_ok=True)
    RESULTS.write_text(json.dumps(seconds, indent=2) + "\n")
