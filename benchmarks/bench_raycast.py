"""Per-call cost of swept's ray casts, side by side with pymunk and Box2D in one run.

For circle, segment, box and polygon: the same rays (half hit, half miss, every origin
outside the shape, deterministic) go to

- ``swept.raycast(ray, shape)`` (a prebuilt Ray and shape),
- the seed function (``ray_circle`` etc.) on raw tuples (coercion and normalisation included),
- pymunk's ``Shape.segment_query(start, end, 0)`` (shapes on ``space.static_body``),
- Box2D's ``b2Shape.RayCast(output, input, transform, 0)`` (a prebuilt ``b2RayCastInput``;
  it fills a reused output struct and builds no result object, so it is the cheapest call),

and the answers are checked against pymunk's (hit or miss, distance, normal). Each cost is
the minimum over repeats of timeit, divided by the number of rays: nanoseconds per call,
including the loop over the rays (the ``loop`` row measures that overhead alone). Prints a
table and writes ``benchmarks/results/raycast.json``.

Run: ``python benchmarks/bench_raycast.py [--quick]``.
"""

from __future__ import annotations

import argparse
import json
import math
import platform
import random
import sys
import timeit
from collections.abc import Callable
from pathlib import Path
from typing import Any

from swept.raycast import ray_box, ray_circle, ray_polygon, ray_segment, raycast
from swept.shapes import AABB, Circle, Polygon, Ray, Segment
from swept.vec import Vec2

try:
    import pymunk
except ImportError:  # pragma: no cover - optional
    pymunk = None
try:
    import Box2D
except ImportError:  # pragma: no cover - optional
    Box2D = None

RESULTS = Path(__file__).resolve().parent / "results" / "raycast.json"
#: how long every ray reaches (pymunk and Box2D take an end point, not a direction)
REACH = 100.0
#: rays per shape: half aimed to hit, half to miss
RAYS = 64
#: distances agree with pymunk to this (both in float64)
AGREE_TOL = 1e-9
#: Box2D computes in float32
BOX2D_TOL = 1e-3


def make_rays(rng: random.Random, centre: tuple[float, float], size: float,
              inside: Callable[[tuple[float, float]], bool]) -> list[tuple[Vec2, Vec2, bool]]:
    """``RAYS`` rays from outside the shape: half aimed at its centre region, half away."""
    rays: list[tuple[Vec2, Vec2, bool]] = []
    while len(rays) < RAYS:
        angle = rng.uniform(0.0, 2.0 * math.pi)
        dist = rng.uniform(2.0 * size, 6.0 * size)
        origin = Vec2(centre[0] + dist * math.cos(angle), centre[1] + dist * math.sin(angle))
        if inside(origin):
            continue
        aim_hit = len(rays) % 2 == 0
        if aim_hit:
            target = Vec2(centre[0] + rng.uniform(-0.3, 0.3) * size,
                          centre[1] + rng.uniform(-0.3, 0.3) * size)
        else:
            # aimed well to the side of the shape
            side = (Vec2(centre[0], centre[1]) - origin).perp().normalized()
            target = Vec2(centre[0], centre[1]) + side * (rng.choice([-1, 1]) * 3.0 * size)
        direction = (target - origin).normalized()
        rays.append((origin, direction, aim_hit))
    return rays


def per_call_ns(runs: dict[str, tuple[Callable[[], object], int, int]], repeat: int
                ) -> dict[str, float]:
    """Per inner call, the minimum over ``repeat`` rounds of each ``name: (fn, calls per fn
    run, fn runs per timing)``. The candidates take turns within every round, so that a busy
    machine slows them alike."""
    best = {name: math.inf for name in runs}
    for _ in range(repeat):
        for name, (fn, n_calls, number) in runs.items():
            t = timeit.timeit(fn, number=number) / (number * n_calls) * 1e9
            best[name] = min(best[name], t)
    return best


def build_cases() -> list[dict[str, Any]]:
    """The four shapes, each with its swept, pymunk and Box2D forms and its rays."""
    rng = random.Random(20240611)
    cases: list[dict[str, Any]] = []

    circle = Circle((5.0, 1.0), 1.5)
    cases.append(dict(
        name="circle", shape=circle,
        seed=lambda o, d: ray_circle(o, d, (5.0, 1.0), 1.5, max_distance=REACH),
        pymunk=lambda space: pymunk.Circle(space.static_body, 1.5, (5.0, 1.0)),
        box2d=lambda: Box2D.b2CircleShape(radius=1.5, pos=(5.0, 1.0)),
        rays=make_rays(rng, (5.0, 1.0), 1.5,
                       lambda p: (p - circle.center).length() <= circle.radius),
    ))
    cases.append(dict(
        name="segment", shape=Segment((4.0, -2.0), (6.0, 3.0)),
        seed=lambda o, d: ray_segment(o, d, (4.0, -2.0), (6.0, 3.0), max_distance=REACH),
        pymunk=lambda space: pymunk.Segment(space.static_body, (4.0, -2.0), (6.0, 3.0), 0.0),
        box2d=lambda: Box2D.b2EdgeShape(vertices=[(4.0, -2.0), (6.0, 3.0)]),
        rays=make_rays(rng, (5.0, 0.5), 2.7, lambda p: False),
    ))
    box = AABB((4.0, 1.0), (8.0, 5.0))
    corners = [(4.0, 1.0), (8.0, 1.0), (8.0, 5.0), (4.0, 5.0)]
    cases.append(dict(
        name="box", shape=box,
        seed=lambda o, d: ray_box(o, d, (4.0, 1.0), (8.0, 5.0), max_distance=REACH),
        pymunk=lambda space: pymunk.Poly(space.static_body, corners),
        box2d=lambda: Box2D.b2PolygonShape(vertices=corners),
        rays=make_rays(rng, (6.0, 3.0), 2.0,
                       lambda p: 4.0 <= p[0] <= 8.0 and 1.0 <= p[1] <= 5.0),
    ))
    hexagon = Polygon.regular(6, 2.0, center=(3.0, -2.0), angle=0.3)
    pts = [tuple(p) for p in hexagon.points]
    cases.append(dict(
        name="polygon", shape=hexagon,
        seed=lambda o, d: ray_polygon(o, d, hexagon, max_distance=REACH),
        pymunk=lambda space: pymunk.Poly(space.static_body, pts),
        box2d=lambda: Box2D.b2PolygonShape(vertices=pts),
        rays=make_rays(rng, (3.0, -2.0), 2.0,
                       lambda p: all(n.dot(p - v) <= 0.0
                                     for n, v in zip(hexagon.normals, hexagon.points))),
    ))
    return cases


def check_agreement(case: dict[str, Any], pm_shape: Any, b2_shape: Any) -> dict[str, Any]:
    """Compare swept's answers with pymunk's (and Box2D's) on every ray of a case."""
    hits = 0
    disagreements: list[str] = []
    box2d_disagreements = 0
    for origin, direction, _aim in case["rays"]:
        ours = raycast(Ray(origin, direction, REACH), case["shape"])
        seed = case["seed"](tuple(origin), tuple(direction))
        if (ours is None) != (seed is None) or (
                ours is not None and seed is not None
                and abs(ours.distance - seed.distance) > AGREE_TOL):
            disagreements.append(f"seed function differs at {origin} {direction}")
        hits += ours is not None
        if pm_shape is not None:
            end = origin + direction * REACH
            info = pm_shape.segment_query(tuple(origin), tuple(end), 0.0)
            theirs = info.alpha * REACH if info is not None and info.shape is not None else None
            if (ours is None) != (theirs is None):
                disagreements.append(f"pymunk hit={theirs is not None} at {origin} {direction}")
            elif ours is not None and theirs is not None:
                if abs(ours.distance - theirs) > AGREE_TOL * REACH:
                    disagreements.append(f"distance {ours.distance} vs {theirs}")
                if (abs(ours.normal.x - info.normal.x) > 1e-9
                        or abs(ours.normal.y - info.normal.y) > 1e-9):
                    disagreements.append(f"normal {ours.normal} vs {tuple(info.normal)}")
        if b2_shape is not None:
            out = Box2D.b2RayCastOutput()
            inp = Box2D.b2RayCastInput(p1=tuple(origin), p2=tuple(origin + direction * REACH),
                                       maxFraction=1.0)
            tf = Box2D.b2Transform()
            tf.SetIdentity()
            hit = b2_shape.RayCast(out, inp, tf, 0)
            if hit != (ours is not None) or (
                    hit and ours is not None
                    and abs(out.fraction * REACH - ours.distance) > BOX2D_TOL * REACH):
                box2d_disagreements += 1
    return dict(rays=len(case["rays"]), hits=hits, disagreements=disagreements,
                box2d_disagreements=box2d_disagreements)


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--quick", action="store_true", help="fewer repeats (a smoke run)")
    args = parser.parse_args()
    number, repeat = (20, 3) if args.quick else (100, 40)

    notes: list[str] = []
    if pymunk is None:
        notes.append("pymunk is not installed: its column is skipped")
    if Box2D is None:
        notes.append("Box2D (pybox2d) is not installed: its column is skipped")

    rows: list[dict[str, Any]] = []
    all_agree = True
    for case in build_cases():
        shape = case["shape"]
        rays = [Ray(o, d, REACH) for o, d, _aim in case["rays"]]
        raw = [(tuple(o), tuple(d)) for o, d, _aim in case["rays"]]
        n = len(rays)

        pm_shape = None
        segs: list[tuple[tuple[float, float], tuple[float, float]]] = []
        if pymunk is not None:
            space = pymunk.Space()
            pm_shape = case["pymunk"](space)
            space.add(pm_shape)
            segs = [(tuple(o), tuple(o + d * REACH)) for o, d, _aim in case["rays"]]
        b2_shape = None
        b2_inputs: list[Any] = []
        if Box2D is not None:
            b2_shape = case["box2d"]()
            b2_inputs = [Box2D.b2RayCastInput(p1=tuple(o), p2=tuple(o + d * REACH),
                                              maxFraction=1.0)
                         for o, d, _aim in case["rays"]]

        agreement = check_agreement(case, pm_shape, b2_shape)
        all_agree = all_agree and not agreement["disagreements"]

        def run_loop(rays: list[Ray] = rays, shape: Any = shape) -> None:
            for ray in rays:
                _noop(ray, shape)

        def run_raycast(rays: list[Ray] = rays, shape: Any = shape) -> None:
            for ray in rays:
                raycast(ray, shape)

        seed_fn = case["seed"]

        def run_seed(raw: list[Any] = raw, seed_fn: Any = seed_fn) -> None:
            for o, d in raw:
                seed_fn(o, d)

        row: dict[str, Any] = dict(shape=case["name"], rays=n, hits=agreement["hits"])
        runs: dict[str, tuple[Callable[[], object], int, int]] = {
            "loop_ns": (run_loop, n, number),
            "swept_raycast_ns": (run_raycast, n, number),
            "swept_seed_ns": (run_seed, n, max(number // 4, 1)),
        }
        if pm_shape is not None:
            def run_pymunk(segs: list[Any] = segs, q: Any = pm_shape.segment_query) -> None:
                for start, end in segs:
                    q(start, end, 0.0)

            runs["pymunk_ns"] = (run_pymunk, n, number)
        if b2_shape is not None:
            out = Box2D.b2RayCastOutput()
            tf = Box2D.b2Transform()
            tf.SetIdentity()

            def run_box2d(inputs: list[Any] = b2_inputs, cast: Any = b2_shape.RayCast,
                          out: Any = out, tf: Any = tf) -> None:
                for inp in inputs:
                    cast(out, inp, tf, 0)

            runs["box2d_ns"] = (run_box2d, n, number)
        # hits and misses apart, for swept and pymunk
        for label, keep in (("hit", True), ("miss", False)):
            picked = [i for i, (_o, _d, aim) in enumerate(case["rays"]) if aim == keep]
            sub_rays = [rays[i] for i in picked]

            def run_sub(rays: list[Ray] = sub_rays, shape: Any = shape) -> None:
                for ray in rays:
                    raycast(ray, shape)

            runs[f"swept_raycast_{label}_ns"] = (run_sub, len(sub_rays), number)
            if pm_shape is not None:
                sub_segs = [segs[i] for i in picked]

                def run_sub_pm(segs: list[Any] = sub_segs,
                               q: Any = pm_shape.segment_query) -> None:
                    for start, end in segs:
                        q(start, end, 0.0)

                runs[f"pymunk_{label}_ns"] = (run_sub_pm, len(sub_segs), number)
        row.update(per_call_ns(runs, repeat))
        if "pymunk_ns" in row:
            row["speedup_vs_pymunk"] = row["pymunk_ns"] / row["swept_raycast_ns"]
            row["speedup_vs_pymunk_hits"] = row["pymunk_hit_ns"] / row["swept_raycast_hit_ns"]
            row["speedup_vs_pymunk_misses"] = (row["pymunk_miss_ns"]
                                               / row["swept_raycast_miss_ns"])
        row["agreement"] = agreement
        rows.append(row)

    print_table(rows)
    for note in notes:
        print("note:", note)
    for row in rows:
        for d in row["agreement"]["disagreements"][:5]:
            print(f"DISAGREE {row['shape']}: {d}")
        if row["agreement"]["box2d_disagreements"]:
            print(f"note: {row['shape']}: {row['agreement']['box2d_disagreements']} rays "
                  f"differ from Box2D beyond its float32 tolerance")
    print("answers agree with pymunk on every ray" if all_agree and pymunk is not None
          else "answers checked" if all_agree else "ANSWERS DISAGREE (see above)")

    RESULTS.parent.mkdir(parents=True, exist_ok=True)
    RESULTS.write_text(json.dumps(dict(
        benchmark="raycast",
        unit="ns per call (min over repeats, including the loop over the rays)",
        python=sys.version.split()[0],
        platform=platform.platform(),
        pymunk=getattr(pymunk, "version", None),
        box2d=getattr(Box2D, "__version__", None),
        reach=REACH,
        number=number,
        repeat=repeat,
        notes=notes,
        rows=rows,
    ), indent=2))
    print(f"wrote {RESULTS}")
    return 0 if all_agree else 1


def _noop(ray: object, shape: object) -> None:
    """The loop baseline: a Python call that does nothing."""


def print_table(rows: list[dict[str, Any]]) -> None:
    cols = [("shape", "shape", "{}"), ("loop_ns", "loop", "{:.0f}"),
            ("swept_raycast_ns", "raycast", "{:.0f}"),
            ("swept_raycast_hit_ns", "(hits)", "{:.0f}"),
            ("swept_raycast_miss_ns", "(misses)", "{:.0f}"),
            ("swept_seed_ns", "seed fn", "{:.0f}"),
            ("pymunk_ns", "pymunk", "{:.0f}"), ("pymunk_hit_ns", "(hits)", "{:.0f}"),
            ("pymunk_miss_ns", "(misses)", "{:.0f}"), ("box2d_ns", "Box2D", "{:.0f}"),
            ("speedup_vs_pymunk", "x pymunk", "{:.2f}"),
            ("speedup_vs_pymunk_hits", "(hits)", "{:.2f}"),
            ("speedup_vs_pymunk_misses", "(misses)", "{:.2f}")]
    header = [c[1] for c in cols]
    lines = [[fmt.format(r[key]) if key in r else "-" for key, _h, fmt in cols] for r in rows]
    widths = [max(len(h), *(len(line[i]) for line in lines)) for i, h in enumerate(header)]
    print("ns per call (hits and misses mixed 50/50; '(hits)'/'(misses)' split them)")
    print("  ".join(h.rjust(w) for h, w in zip(header, widths)))
    for line in lines:
        print("  ".join(v.rjust(w) for v, w in zip(line, widths)))


if __name__ == "__main__":
    sys.exit(main())
