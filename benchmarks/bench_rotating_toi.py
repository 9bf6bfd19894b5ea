"""Benchmark time of impact for turning boxes: Box2D's b2TimeOfImpact against swept's.

Seeded pairs of boxes (half sizes 0.2 to 2), box A moving roughly at box B, both turning by up
to pi in the step, B drifting. Ground truth samples the step 2,000 times (an exact separating
axis test on the boxes' corners, vectorised over the samples): a *crossing* is a pair apart at
the start that overlaps at some sample. On the same crossings:

- **Box2D** (pybox2d 2.3.10, float32): ``b2TimeOfImpact`` with ``b2PolygonShape`` boxes and
  ``b2Sweep`` motions (centre and angle interpolated linearly, local centre at the box's
  centre), ``tMax = 1``;
- **swept**: :func:`swept.toi.time_of_impact` with ``Polygon.box`` shapes and ``Motion``s (the
  same poses at every time), and its kernel ``rotating_time_of_impact`` called directly.

For each: the share of crossings wrongly reported "separated" (the issue measured about 3.8%
for Box2D; swept must report none), the share ending in a failure state (Box2D ``e_failed``,
swept ``OUT_OF_ITERATIONS``), the share reporting a hit later than the first sampled overlap,
and the cost per query. Box2D rounds its boxes by ``b2_polygonRadius`` (0.01) and stops
``3 * b2_linearSlop`` inside that skin, i.e. 0.005 before the boxes touch, which makes its hits
slightly early, never late. Prints a table and writes ``benchmarks/results/rotating_toi.json``.

Run: ``python benchmarks/bench_rotating_toi.py`` (``--quick`` for fewer crossings).
"""

from __future__ import annotations

import argparse
import json
import math
import platform
import sys
import time
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import numba
import numpy as np

sys.path.insert(0, str(Path(__file__).resolve().parent))

from timing import best_time  # noqa: E402

from swept import Polygon
from swept._kernels.sweep import (
    CAST_HIT,
    CAST_OUT_OF_ITERATIONS,
    CAST_SEPARATED,
    rotating_time_of_impact,
)
from swept.constants import TOI_MAX_ITERATIONS
from swept.toi import Motion, TOIStatus, time_of_impact

#: Samples of each step for the ground truth.
SAMPLES = 2000
#: Seed of the batch, so runs compare.
SEED = 20240602
#: Largest turn of either box in one step, radians.
MAX_TURN = math.pi
#: Edges of the bins of the larger turn (radians) for the breakdown of "separated".
TURN_BINS = (0.0, math.pi / 4, math.pi / 2, 3 * math.pi / 4, math.pi + 1e-9)
RESULTS = Path(__file__).resolve().parent / "results" / "rotating_toi.json"


@dataclass(frozen=True)
class Crossing:
    """Two boxes and their motions over the step, and the first sampled overlap."""

    half_a: tuple[float, float]
    motion_a: Motion
    half_b: tuple[float, float]
    motion_b: Motion
    #: the first sampled time at which the boxes overlap
    first_overlap: float


def corners(half: tuple[float, float], m: Motion, t: np.ndarray) -> np.ndarray:
    """A box's corners posed at every time of t: (T, 4, 2)."""
    hw, hh = half
    local = np.array([(-hw, -hh), (hw, -hh), (hw, hh), (-hw, hh)])
    ang = m.angle + m.rotation * t
    c = np.cos(ang)[:, None]
    s = np.sin(ang)[:, None]
    px = m.position[0] + m.displacement[0] * t[:, None]
    py = m.position[1] + m.displacement[1] * t[:, None]
    x = local[None, :, 0]
    y = local[None, :, 1]
    return np.stack([c * x - s * y + px, s * x + c * y + py], axis=-1)


def overlaps(pa: np.ndarray, pb: np.ndarray) -> np.ndarray:
    """Whether two posed boxes overlap, per sample: the separating axis test on each box's
    two edge normals (touching overlaps)."""
    separated = np.zeros(pa.shape[0], bool)
    for poly in (pa, pb):
        for k in (0, 1):
            ex = poly[:, k + 1, 0] - poly[:, k, 0]
            ey = poly[:, k + 1, 1] - poly[:, k, 1]
            sa = pa[:, :, 0] * ey[:, None] - pa[:, :, 1] * ex[:, None]
            sb = pb[:, :, 0] * ey[:, None] - pb[:, :, 1] * ex[:, None]
            separated |= (sa.max(1) < sb.min(1)) | (sb.max(1) < sa.min(1))
    return ~separated


def make_crossings(n: int, rng: np.random.Generator) -> tuple[list[Crossing], int]:
    """n crossings (apart at the start, overlapping at some sample), and how many random
    pairs were drawn to find them."""
    times = np.linspace(0.0, 1.0, SAMPLES + 1)
    out: list[Crossing] = []
    drawn = 0
    while len(out) < n:
        drawn += 1
        hwa, hha, hwb, hhb = rng.uniform(0.2, 2.0, 4)
        pa = rng.uniform(-10, 10, 2)
        heading = rng.uniform(0, 2 * math.pi)
        pb = pa + rng.uniform(1.0, 8.0) * np.array([math.cos(heading), math.sin(heading)])
        aim = pb - pa + rng.uniform(-3.0, 3.0, 2)
        ma = Motion(tuple(pa), rng.uniform(-math.pi, math.pi),
                    tuple(aim * rng.uniform(0.3, 2.0)), rng.uniform(-MAX_TURN, MAX_TURN))
        mb = Motion(tuple(pb), rng.uniform(-math.pi, math.pi), tuple(rng.uniform(-2, 2, 2)),
                    rng.uniform(-MAX_TURN, MAX_TURN))
        hit = overlaps(corners((hwa, hha), ma, times), corners((hwb, hhb), mb, times))
        k = np.flatnonzero(hit)
        if k.size == 0 or k[0] == 0:
            # a miss, or overlapping at the start
            continue
        out.append(Crossing((hwa, hha), ma, (hwb, hhb), mb, float(times[k[0]])))
    return out, drawn


# ---------------------------------------------------------------------------------------------
# the engines: each returns ("hit" | "separated" | "failed" | "overlapped", time)


def box2d_queries(crossings: list[Crossing]) -> Callable[[], list[tuple[str, float]]]:
    """Box2D's b2TimeOfImpact on every crossing (shapes and sweeps built beforehand)."""
    from Box2D import b2PolygonShape, b2Sweep, b2TimeOfImpact, b2TOIOutput

    names = {b2TOIOutput.e_touching: "hit", b2TOIOutput.e_separated: "separated",
             b2TOIOutput.e_failed: "failed", b2TOIOutput.e_overlapped: "overlapped",
             b2TOIOutput.e_unknown: "failed"}
    prepared = []
    for c in crossings:
        sweeps = []
        for m in (c.motion_a, c.motion_b):
            p = m.position
            d = m.displacement
            sweeps.append(b2Sweep(localCenter=(0, 0), c0=tuple(p), c=(p[0] + d[0], p[1] + d[1]),
                                  a0=m.angle, a=m.angle + m.rotation, alpha0=0))
        prepared.append((b2PolygonShape(box=c.half_a), b2PolygonShape(box=c.half_b), *sweeps))

    def run() -> list[tuple[str, float]]:
        """One query per crossing."""
        out = []
        for a, b, sa, sb in prepared:
            state, t = b2TimeOfImpact(shapeA=a, shapeB=b, sweepA=sa, sweepB=sb, tMax=1.0)
            out.append((names[state], t))
        return out

    return run


def swept_queries(crossings: list[Crossing]) -> Callable[[], list[tuple[str, float]]]:
    """swept's time_of_impact on every crossing (shapes built beforehand)."""
    names = {TOIStatus.HIT: "hit", TOIStatus.SEPARATED: "separated",
             TOIStatus.OUT_OF_ITERATIONS: "failed", TOIStatus.OVERLAPPED: "overlapped"}
    prepared = [(Polygon.box(*c.half_a), c.motion_a, Polygon.box(*c.half_b), c.motion_b)
                for c in crossings]

    def run() -> list[tuple[str, float]]:
        """One query per crossing."""
        out = []
        for a, ma, b, mb in prepared:
            r = time_of_impact(a, ma, b, mb)
            out.append((names[r.status], r.fraction))
        return out

    return run


def kernel_queries(crossings: list[Crossing]) -> Callable[[], list[tuple[str, float]]]:
    """swept's kernel rotating_time_of_impact on every crossing (arrays built beforehand)."""
    names = {CAST_HIT: "hit", CAST_SEPARATED: "separated",
             CAST_OUT_OF_ITERATIONS: "failed"}
    prepared = []
    for c in crossings:
        a = Polygon.box(*c.half_a)._verts
        b = Polygon.box(*c.half_b)._verts
        ma, mb = c.motion_a, c.motion_b
        prepared.append((a, 0.0, float(ma.position[0]), float(ma.position[1]), float(ma.angle),
                         float(ma.displacement[0]), float(ma.displacement[1]),
                         float(ma.rotation), b, 0.0, float(mb.position[0]),
                         float(mb.position[1]), float(mb.angle), float(mb.displacement[0]),
                         float(mb.displacement[1]), float(mb.rotation), 0.0,
                         TOI_MAX_ITERATIONS))

    def run() -> list[tuple[str, float]]:
        """One kernel call per crossing."""
        out = []
        for args in prepared:
            status, t, *_ = rotating_time_of_impact(*args)
            out.append((names.get(status, "overlapped"), t))
        return out

    return run


def score(crossings: list[Crossing], answers: list[tuple[str, float]]) -> dict[str, Any]:
    """Shares of wrong "separated", failures and late hits over the crossings."""
    n = len(crossings)
    separated = sum(s == "separated" for s, _ in answers)
    failed = sum(s == "failed" for s, _ in answers)
    overlapped = sum(s == "overlapped" for s, _ in answers)
    late = sum(s == "hit" and t > c.first_overlap for c, (s, t) in zip(crossings, answers))
    # the share reported separated, by the larger turn of the two boxes
    by_turn = {}
    for k in range(len(TURN_BINS) - 1):
        lo, hi = TURN_BINS[k], TURN_BINS[k + 1]
        inside = [s for c, (s, _t) in zip(crossings, answers)
                  if lo <= max(abs(c.motion_a.rotation), abs(c.motion_b.rotation)) < hi]
        by_turn[f"{lo:.3f}-{hi:.3f}"] = {
            "crossings": len(inside),
            "separated_share": sum(s == "separated" for s in inside) / max(len(inside), 1)}
    return {"crossings": n, "separated": separated, "separated_share": separated / n,
            "failed": failed, "failed_share": failed / n, "overlapped": overlapped,
            "late_hits": late, "separated_share_by_turn": by_turn}


def main() -> None:
    """Run the benchmark, print the table and write the JSON results."""
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--quick", action="store_true", help="300 crossings, one repeat")
    args = parser.parse_args()
    n = 300 if args.quick else 3000
    repeats = 1 if args.quick else 3
    start = time.perf_counter()
    crossings, drawn = make_crossings(n, np.random.default_rng(SEED))
    truth_s = time.perf_counter() - start

    rows: dict[str, dict[str, Any]] = {}
    for name, make in (("Box2D b2TimeOfImpact", box2d_queries),
                       ("swept time_of_impact", swept_queries),
                       ("swept kernel", kernel_queries)):
        run = make(crossings)
        seconds = best_time(run, repeats)
        rows[name] = {**score(crossings, run()), "us_per_query": seconds / n * 1e6}

    print(f"rotating TOI: {n} crossings of boxes turning up to pi per step "
          f"({drawn} pairs drawn; ground truth {SAMPLES} samples, {truth_s:.1f} s)")
    print(f"{'engine':<24}{'separated':>10}{'share %':>9}{'failed':>8}{'late':>6}"
          f"{'us/query':>10}")
    for name, r in rows.items():
        print(f"{name:<24}{r['separated']:>10}{100 * r['separated_share']:>9.2f}"
              f"{r['failed']:>8}{r['late_hits']:>6}{r['us_per_query']:>10.2f}")
    print("\n'separated' share (%) by the larger turn of the two boxes in the step:")
    bins = list(rows["Box2D b2TimeOfImpact"]["separated_share_by_turn"])
    print(f"{'engine':<24}" + "".join(f"{b:>14}" for b in bins))
    for name, r in rows.items():
        cells = r["separated_share_by_turn"]
        print(f"{name:<24}" + "".join(f"{100 * cells[b]['separated_share']:>14.2f}"
                                      for b in bins))
    counts = rows["Box2D b2TimeOfImpact"]["separated_share_by_turn"]
    print(f"{'(crossings)':<24}" + "".join(f"{counts[b]['crossings']:>14}" for b in bins))

    RESULTS.parent.mkdir(parents=True, exist_ok=True)
    RESULTS.write_text(json.dumps({
        "machine": {"python": platform.python_version(), "numba": numba.__version__,
                    "cpu": platform.processor() or platform.machine()},
        "batch": {"crossings": n, "pairs_drawn": drawn, "seed": SEED, "samples": SAMPLES,
                  "max_turn": MAX_TURN, "half_sizes": [0.2, 2.0]},
        "ground_truth": f"{SAMPLES + 1} samples of the step, separating axis test per sample",
        "engines": rows,
    }, indent=2) + "\n")
    print(f"\nwrote {RESULTS}")


if __name__ == "__main__":
    main()
