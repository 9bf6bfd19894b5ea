"""The World's rays against pymunk's on new rays every call (as a game casts them), beside the
same rays cast again and again (as ``bench_broadphase.py`` times them).

``bench_broadphase.py`` times every runner on one set of 2,000 rays, each timed call right
after an untimed one of its own: the fastest a runner can go on rays it has just cast. A game
casts new rays every frame, with its own work in between. Measured here, one thread, on the
scene kinds of :mod:`scenes`: each round, the World and pymunk each cast a new ray set
(:data:`SETS` of them, in turn, both the same set, in alternating order, no untimed call
first: the call finds what the other runner's call left in the caches and the branch
predictor), and, in the same rounds, set 0 again after an untimed call of its own (the
``repeated`` figures, as ``bench_broadphase.py``). Prints, us a ray (medians over the rounds;
``best`` the fastest repeated call, the figure ``bench_broadphase.py`` takes), pymunk / World
in both ways, and the World's fresh time over its repeated one; writes
``benchmarks/results/fresh_rays.json``.

Why it matters (2026-12-04, ``benchmarks/README.md``): ``cast_range`` alone, one thread, read
1.26-2.0x slower on a new set each call than on one set repeated with nothing between the
calls (the inputs' cache state ruled out): the branch predictor learns a repeated set's
branches, and its rays keep their cells' lines in cache. pymunk's time does not move so.

Usage: ``python benchmarks/bench_fresh_rays.py [--quick] [--scenes clustered:10000,kinds]``, or
``swept bench --only fresh_rays`` (``run(quick)`` and :func:`print_table`).
"""

from __future__ import annotations

import argparse
import json
import math
import os
import statistics
import sys
import time
from pathlib import Path
from typing import Any

import numpy as np

HERE = Path(__file__).resolve().parent
sys.path.insert(0, str(HERE))

import bench_broadphase as bb  # noqa: E402
import scenes  # noqa: E402
from timing import best_time  # noqa: E402

#: Ray sets a scene's fresh rounds cast in turn (each 2,000 rays, :func:`scenes.rays` with
#: salts 0 to SETS - 1).
SETS = 9
#: Rounds over a scene (each: one fresh call and one repeated call of each runner): full run /
#: quick run.
ROUNDS = (27, 9)
#: Rays a call (``bench_broadphase.py``'s count).
RAYS = bb.RAYS
RESULTS = HERE / "results" / "fresh_rays.json"


def bench_scene(name: str, n: int, rounds: int) -> dict[str, Any]:
    """One scene: the World's and pymunk's fresh and repeated times (see the module)."""
    import swept

    scene = scenes.make_scene(name, n)
    sets = [scenes.rays(scene, RAYS, salt) for salt in range(SETS)]
    tmax = sets[0][2]
    world = bb.scene_world(scene)
    runners = {"world": [lambda o=o, d=d: world.raycast_many(o, d, tmax) for o, d, _ in sets]}
    try:
        space, index_of = bb.pymunk_space(scene)
    except ImportError:
        # (pymunk is a benchmark extra: without it, the World's figures alone)
        pass
    else:
        runners["pymunk"] = [bb.pymunk_rays(space, index_of, o, d, tmax) for o, d, _ in sets]
    fresh: dict[str, list[float]] = {label: [] for label in runners}
    repeated: dict[str, list[float]] = {label: [] for label in runners}
    swept.set_threads(1)
    for label in runners:
        # compiled and warmed once, on the last set (so that no fresh set is a repeat of it)
        runners[label][-1]()
    for r in range(rounds):
        labels = list(runners) if r % 2 == 0 else list(runners)[::-1]
        for label in labels:
            fn = runners[label][r % SETS]
            start = time.thread_time()
            fn()
            fresh[label].append((time.thread_time() - start) / RAYS * 1e6)
        for label in labels:
            repeated[label].append(best_time(runners[label][0], 1, time.thread_time) / RAYS
                                   * 1e6)
    row: dict[str, Any] = {"scene": name, "colliders": n, "rounds": rounds}
    for label in runners:
        row[f"{label}_fresh_us"] = statistics.median(fresh[label])
        row[f"{label}_repeated_us"] = statistics.median(repeated[label])
        row[f"{label}_best_us"] = min(repeated[label])
    for way in ("fresh", "repeated", "best"):
        row[f"pymunk_vs_world_{way}"] = (row[f"pymunk_{way}_us"] / row[f"world_{way}_us"]
                                         if "pymunk" in runners else math.nan)
    row["world_fresh_vs_repeated"] = row["world_fresh_us"] / row["world_repeated_us"]
    return row


def run(quick: bool = False, only: str | None = None) -> dict[str, Any]:
    """Every selected scene (``bench_broadphase.selected``); prints the table, writes and
    returns the results."""
    rounds = ROUNDS[1] if quick else ROUNDS[0]
    pairs = ([(name, 10_000) for name in scenes.KINDS] if quick and not only
             else bb.selected(only))
    print(f"{'scene':14}{'n':>7}  {'world: fresh':>12}{'repeated':>9}{'best':>7}  "
          f"{'pymunk: fresh':>13}{'repeated':>9}  {'pm/world: fresh':>15}{'repeated':>9}"
          f"{'best':>6}  {'world fresh/rep':>15}", flush=True)
    rows = []
    for name, n in pairs:
        r = bench_scene(name, n, rounds)
        rows.append(r)
        print(f"{name:14}{n:>7}  {r['world_fresh_us']:>12.3f}{r['world_repeated_us']:>9.3f}"
              f"{r['world_best_us']:>7.3f}  {r.get('pymunk_fresh_us', math.nan):>13.2f}"
              f"{r.get('pymunk_repeated_us', math.nan):>9.2f}  {r['pymunk_vs_world_fresh']:>15.1f}"
              f"{r['pymunk_vs_world_repeated']:>9.1f}{r['pymunk_vs_world_best']:>6.1f}  "
              f"{r['world_fresh_vs_repeated']:>15.2f}", flush=True)
    results = {"rays": RAYS, "sets": SETS, "rounds": rounds, "scenes": rows,
               "load": os.getloadavg()[0]}
    RESULTS.parent.mkdir(parents=True, exist_ok=True)
    RESULTS.write_text(json.dumps(results, indent=2) + "\n")
    print(f"wrote {RESULTS}; load {results['load']:.1f}")
    return results


def print_table(results: dict[str, Any]) -> None:
    """One line after :func:`run`'s table (which it prints row by row): the World's fresh over
    repeated times, and pymunk / World on fresh rays, their ranges."""
    rows = results["scenes"]
    slow = [row["world_fresh_vs_repeated"] for row in rows]
    ratios = [row["pymunk_vs_world_fresh"] for row in rows
              if not math.isnan(row["pymunk_vs_world_fresh"])]
    line = f"the World's fresh / repeated time {min(slow):.2f}-{max(slow):.2f}"
    if ratios:
        line += f"; pymunk / World on fresh rays {min(ratios):.1f}-{max(ratios):.1f}x"
    print(line)


def main(argv: list[str] | None = None) -> None:
    """Parse the arguments and run."""
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0] if __doc__ else None)
    parser.add_argument("--quick", action="store_true",
                        help="every kind at 10,000, fewer rounds")
    parser.add_argument("--scenes", default=None,
                        help="scene kinds, each maybe with :count (bench_broadphase's form)")
    args = parser.parse_args(argv)
    np.seterr(all="ignore")
    print_table(run(args.quick, args.scenes))


if __name__ == "__main__":
    main()
