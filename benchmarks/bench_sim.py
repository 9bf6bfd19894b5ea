"""Benchmark: many fast balls among thin walls, swept's simulation against pymunk.

Scene: ``balls`` balls (radius 2 to 10, speed 0 to 5,000 units/s in random directions, perfectly
elastic, no friction, no gravity) among ``walls`` thin walls (segments 20 to 120 long at random
angles, plus the 4 sides of the arena), stepped ``steps`` times at 1/60 s. The arena's area
grows with the number of balls, so the density stays the same at every size.

Tunneled (seed 000's "approach missed"): a ball tunneled when, in some step, the path of its
centre crossed (or touched) a wall segment while the engine made no contact with any wall in
that step. For swept that is its ``missed`` counter, which follows the real path (the move,
then each push of the contact passes). pymunk shows only where a step starts and ends, so for
it the path is the chord, start to end, and "no contact" means no ball-wall arbiter reached
``pre_solve``. The chord test is also run on swept's steps ("chord" columns, no wall response:
``caught`` did not move) as an outside check; it over-counts a little, since a push from
another ball can bend a path round a wall's end so that the chord cuts across it. A step
with a bounce is never counted: its chord can cut across the end of a wall the path went
round.

Steps per second (every engine alike): the same steps run :data:`TIMED_RUNS` times more from
the same start, each run back to back with nothing between its steps (pymunk without the
benchmark's contact callback, swept without the chord test), timed in :data:`TIMED_WINDOWS`
windows of consecutive steps; the rate is the steps over the sum of each window's least time
among the runs (the least disturbed reading of those very steps on a shared machine). The
tunneling counts come from one more run, checked step by step. pymunk's own rate moved
between single idle runs from 77 to 120 steps per second (2026-12-03), which decided the goal
row; each run's own rate is kept in the results (``runs_steps_per_second``) to show the
spread, and ``same_end`` says whether every run ended where the checked run did.

The same pymunk scene is also run with :data:`SAFE_SUBSTEPS` substeps a step (for
:data:`SUBSTEP_ROW_STEPS` steps): the cost, to a user, of asking pymunk for the correctness
swept gives (its rate from its checked run alone, the steps timed between the checks: 20 s a
run).

Side by side (:func:`duel`, the goal's ratio): swept (swept mode, default threads) and pymunk
stepping the same steps in turns, a window of each at a time, so that the host's slow spells
fall on both alike; each window at its least time among :data:`DUEL_RUNS` runs.

Growth: the wall-clock cost of one swept-mode step at 1k, 10k and 100k balls (the same
density), and the exponent of a least-squares fit of log(cost) against log(n).

Run ``python benchmarks/bench_sim.py [--quick]`` or ``swept bench``.
"""

from __future__ import annotations

import argparse
import json
import math
import sys
import time
from pathlib import Path
from typing import Any

import numpy as np

import swept
from swept import Segment
from swept.sim import PathCrossings, Simulation
from swept.world import World

#: Arena area per ball (square units): 10,000 balls in a 4,000 x 4,000 arena.
AREA_PER_BALL = 1600.0
#: Walls per ball in the scene (1,000 walls for 10,000 balls).
WALLS_PER_BALL = 0.1
#: Ball radii, smallest and largest.
RADIUS_RANGE = (2.0, 10.0)
#: Largest ball speed, units per second.
MAX_SPEED = 5000.0
#: Wall lengths, shortest and longest.
WALL_LENGTH_RANGE = (20.0, 120.0)
#: The fixed step, seconds.
STEP = 1.0 / 60.0
#: Clearance between a new ball and the walls or other balls, in units.
PLACEMENT_GAP = 1.0
#: Seed of the scene's random numbers.
SEED = 12345
#: Balls in the throwaway scene that compiles the kernels before the clock starts: more than
#: swept._parallel.PARALLEL_MIN_BATCH, so that a step on several threads warms up the same
#: calls as the timed scene's (below it the whole step is one serial call).
WARM_UP_BALLS = 200
#: Untimed steps of a throwaway copy of the timed scene before each runner's clock starts: the
#: first runner's first steps of a fresh large scene ran 10-30% slower than the same steps
#: later (measured: 1,000 balls, first of six alternated runs 777 steps/s, the rest 827-895),
#: which read as "two threads slower than one" when the two-thread row came first.
WARM_UP_STEPS = 5
#: pymunk's substeps a step in the row that asks pymunk for swept's correctness: the fewest at
#: which a ball at the scene's top speed moves at most the smallest radius a substep (5,000 /
#: 60 / 2 = 41.7), so that a ball crossing a wall overlaps it at some substep (its centre
#: passes within half a radius of the wall's line) and pymunk's discrete test sees it. Ball
#: against ball can speed a light ball past the top speed, so a few may still tunnel.
SAFE_SUBSTEPS = math.ceil(MAX_SPEED * STEP / RADIUS_RANGE[0])
#: Steps the substepped pymunk row runs (each costs SAFE_SUBSTEPS pymunk steps: measured idle,
#: 60 of them at 10,000 balls took 5 minutes, 0.2 steps/s).
SUBSTEP_ROW_STEPS = 6
#: Runs of each engine's steps timed back to back (the tunneling counts come from one more,
#: checked run): a full run's extra cost is about this many times each row's 600 steps.
TIMED_RUNS = 2
#: Windows of consecutive steps each timed run is timed in; the rate takes each window's
#: least time among the runs (600 steps: windows of 100).
TIMED_WINDOWS = 6
#: Windows the side-by-side run (:func:`duel`) cuts the steps into, each engine's window
#: right after the other's (600 steps: windows of 20, about 0.1 s of swept and 0.2 s of
#: pymunk): the host's slow spells, which last seconds, then fall on both engines alike.
DUEL_WINDOWS = 30
#: Runs of the side-by-side steps; each window's least time among them is kept.
DUEL_RUNS = 2
#: pymunk collision type of the balls.
BALL_TYPE = 1
#: pymunk collision type of the walls.
WALL_TYPE = 2
#: Where the results go (gitignored).
RESULTS = Path(__file__).resolve().parent / "results" / "sim.json"


def make_scene(balls: int, seed: int = SEED) -> dict[str, Any]:
    """Walls (a, b arrays) and balls (centers, radii, velocities) with no overlaps at the start."""
    rng = np.random.default_rng(seed)
    side = math.sqrt(AREA_PER_BALL * balls)
    n_walls = max(4, int(round(WALLS_PER_BALL * balls)))
    corners = np.array([(0.0, 0.0), (side, 0.0), (side, side), (0.0, side)])
    wa = [corners[i] for i in range(4)]
    wb = [corners[(i + 1) % 4] for i in range(4)]
    mid = rng.uniform(0.05 * side, 0.95 * side, (n_walls - 4, 2))
    ang = rng.uniform(0.0, math.pi, n_walls - 4)
    half = 0.5 * rng.uniform(*WALL_LENGTH_RANGE, n_walls - 4)
    d = np.stack([np.cos(ang), np.sin(ang)], axis=1) * half[:, None]
    a = np.concatenate([np.array(wa), mid - d])
    b = np.concatenate([np.array(wb), mid + d])
    # balls on a grid of candidate spots, kept where they clear every wall
    spacing = 2.0 * RADIUS_RANGE[1] + 2.0 * PLACEMENT_GAP
    ticks = np.arange(spacing, side - spacing, spacing)
    gx, gy = np.meshgrid(ticks, ticks)
    spots = np.stack([gx.ravel(), gy.ravel()], axis=1)
    spots = spots[rng.permutation(len(spots))]
    radii_all = rng.uniform(*RADIUS_RANGE, len(spots))
    # spots whose ball (grown by the gap) touches no wall, by the World's batch contact test
    world = World()
    for wa_, wb_ in zip(a, b):
        world.add(Segment(wa_, wb_))
    clear = ~world.contact_many(spots, radii_all + PLACEMENT_GAP).hit
    keep = np.flatnonzero(clear)[:balls]
    if len(keep) < balls:
        raise RuntimeError(f"only {len(keep)} spots clear of the walls for {balls} balls")
    centers = spots[keep]
    radii = radii_all[keep]
    heading = rng.uniform(0.0, 2.0 * math.pi, balls)
    speed = rng.uniform(0.0, MAX_SPEED, balls)
    velocities = np.stack([np.cos(heading), np.sin(heading)], axis=1) * speed[:, None]
    return {"wall_a": a, "wall_b": b, "centers": centers, "radii": radii,
            "velocities": velocities, "side": side}


def _walls(scene: dict[str, Any]) -> list[Segment]:
    """The scene's walls as segments."""
    return [Segment(a, b) for a, b in zip(scene["wall_a"], scene["wall_b"])]


def _swept_sim(scene: dict[str, Any], ccd: str) -> Simulation:
    """The scene as a swept Simulation in mode ``ccd``."""
    sim = Simulation(step=STEP)
    for wall in _walls(scene):
        sim.world.add(wall)
    sim.add_balls(scene["centers"], scene["radii"], scene["velocities"], restitution=1.0,
                  friction=0.0, ccd=ccd)
    return sim


def run_swept(scene: dict[str, Any], steps: int, ccd: str,
              threads: int | None = None) -> dict[str, Any]:
    """Step a swept simulation (on ``threads`` threads, :func:`swept.set_threads`; the default
    if None); steps per second and tunneling counts."""
    swept.set_threads(threads)
    try:
        row = _run_swept(scene, steps, ccd)
    finally:
        swept.set_threads(None)
    if threads is not None:
        row["engine"] += f", {threads} thread{'s' if threads > 1 else ''}"
    return row


def _run_swept(scene: dict[str, Any], steps: int, ccd: str) -> dict[str, Any]:
    """:func:`run_swept` on the current threads."""
    _swept_sim(make_scene(WARM_UP_BALLS), ccd).run(1)  # compile outside the clock
    _swept_sim(scene, ccd).run(WARM_UP_STEPS)  # and touch the scene's memory
    sim = _swept_sim(scene, ccd)
    check = PathCrossings(_walls(scene))
    tunneled = np.zeros(len(scene["radii"]), bool)
    events = 0
    for _ in range(steps):
        before = sim.positions
        caught = sim.caught
        sim.run(1)
        # crossed a wall in a step with no response to any wall
        crossed = check.crossed(before, sim.positions) & (sim.caught == caught)
        tunneled |= crossed
        events += int(crossed.sum())
    end = _digest(sim.positions)

    def timed_run() -> tuple[list[float], bytes]:
        plain = _swept_sim(scene, ccd)
        return _windows(steps, plain.run), _digest(plain.positions)

    return {"engine": f"swept ({ccd})", "balls": len(scene["radii"]),
            "walls": len(scene["wall_a"]), "steps": steps,
            **_timed(steps, timed_run, end),
            "balls_tunneled": int((sim.missed > 0).sum()),
            "tunneling_steps": sim.missed_total, "chord_balls": int(tunneled.sum()),
            "chord_steps": events, "caught_counter": sim.caught_total}


def _digest(positions: np.ndarray) -> bytes:
    """Where a run ended, as bytes (the same steps end at the same bits)."""
    return np.ascontiguousarray(positions, np.float64).tobytes()


def _windows(steps: int, run_steps: Any) -> list[float]:
    """Seconds of each of :data:`TIMED_WINDOWS` windows of ``steps`` consecutive steps,
    ``run_steps(k)`` taking k steps (wall clock: a swept step may run on threads)."""
    cuts = np.linspace(0, steps, TIMED_WINDOWS + 1).round().astype(int)
    times = []
    for k in np.diff(cuts):
        t0 = time.perf_counter()
        run_steps(int(k))
        times.append(time.perf_counter() - t0)
    return times


def _timed(steps: int, timed_run: Any, end: bytes) -> dict[str, Any]:
    """The rate of :data:`TIMED_RUNS` runs of the same steps (``timed_run()``: one run's window
    times and where it ended): ``steps`` over the sum of each window's least time, each run's
    own rate, and whether every run ended at ``end`` (the checked run's end)."""
    runs = [timed_run() for _ in range(TIMED_RUNS)]
    best = np.min([windows for windows, _ in runs], axis=0)
    return {"steps_per_second": steps / float(best.sum()),
            "runs_steps_per_second": [steps / sum(windows) for windows, _ in runs],
            "same_end": all(digest == end for _, digest in runs),
            "timed": f"least of {TIMED_RUNS} runs, per window of {steps // TIMED_WINDOWS} steps"}


def _pymunk_space(scene: dict[str, Any]) -> tuple[Any, list[Any], dict[Any, int]]:
    """The scene as a pymunk space, its ball bodies, and each ball shape's index."""
    import pymunk
    space = pymunk.Space()
    space.gravity = (0.0, 0.0)
    for a, b in zip(scene["wall_a"], scene["wall_b"]):
        seg = pymunk.Segment(space.static_body, tuple(a), tuple(b), 0.0)
        seg.elasticity = 1.0
        seg.friction = 0.0
        seg.collision_type = WALL_TYPE
        space.add(seg)
    bodies: list[Any] = []
    index: dict[Any, int] = {}
    for c, r, v in zip(scene["centers"], scene["radii"], scene["velocities"]):
        body = pymunk.Body(1.0, pymunk.moment_for_circle(1.0, 0.0, float(r)))
        body.position = tuple(c)
        body.velocity = tuple(v)
        shape = pymunk.Circle(body, float(r))
        shape.elasticity = 1.0
        shape.friction = 0.0
        shape.collision_type = BALL_TYPE
        space.add(body, shape)
        index[shape] = len(bodies)
        bodies.append(body)
    return space, bodies, index


def _pymunk_positions(bodies: list[Any]) -> np.ndarray:
    """The balls' centres in a pymunk space."""
    return np.array([tuple(body.position) for body in bodies])


def run_pymunk(scene: dict[str, Any], steps: int, substeps: int = 1
               ) -> dict[str, Any] | None:
    """The same scene in pymunk (None when pymunk is not installed), each step of 1/60 s
    taken as ``substeps`` pymunk steps. One substep a step: the rate from
    :data:`TIMED_RUNS` runs (:func:`_timed`); more: from the checked run."""
    try:
        import pymunk
    except ImportError:
        return None
    space, bodies, index = _pymunk_space(scene)
    touched = np.zeros(len(bodies), bool)

    def wall_contact(arbiter: Any, _space: Any, _data: Any) -> None:
        # a ball touching a wall this step: pymunk responds to it
        for shape in arbiter.shapes:
            k = index.get(shape)
            if k is not None:
                touched[k] = True

    space.on_collision(BALL_TYPE, WALL_TYPE, pre_solve=wall_contact)
    check = PathCrossings(_walls(scene))
    tunneled = np.zeros(len(bodies), bool)
    events = 0
    elapsed = 0.0
    for _ in range(steps):
        before = _pymunk_positions(bodies)
        touched[:] = False
        t0 = time.perf_counter()
        for _sub in range(substeps):
            space.step(STEP / substeps)
        elapsed += time.perf_counter() - t0
        crossed = check.crossed(before, _pymunk_positions(bodies)) & ~touched
        tunneled |= crossed
        events += int(crossed.sum())
    engine = f"pymunk {pymunk.version}"
    if substeps > 1:
        engine += f", {substeps} substeps"
        timing: dict[str, Any] = {"steps_per_second": steps / elapsed,
                                  "timed": "the checked run's steps"}
    else:
        end = _digest(_pymunk_positions(bodies))

        def timed_run() -> tuple[list[float], bytes]:
            # pymunk's own steps: no contact callback
            plain, plain_bodies, _ = _pymunk_space(scene)

            def run_steps(k: int) -> None:
                for _ in range(k):
                    plain.step(STEP)

            return _windows(steps, run_steps), _digest(_pymunk_positions(plain_bodies))

        timing = _timed(steps, timed_run, end)
    return {"engine": engine, "balls": len(bodies),
            "walls": len(scene["wall_a"]), "steps": steps, **timing,
            "balls_tunneled": int(tunneled.sum()),
            "tunneling_steps": events, "chord_balls": int(tunneled.sum()),
            "chord_steps": events, "caught_counter": None}


def duel(scene: dict[str, Any], steps: int) -> dict[str, Any] | None:
    """swept (swept mode, the default threads) and pymunk on the same steps in turns: each run
    cuts ``steps`` into :data:`DUEL_WINDOWS` windows and steps one engine's window, then the
    other's (the first engine alternating window to window), wall clock; each engine's rate is
    the steps over the sum of its windows' least times among :data:`DUEL_RUNS` runs. The
    ratio of the two is the goal's (issue 11: at least 2x): timed minutes apart, as the rows
    are, each engine's rate moved up to 1.7x with the host's load (pymunk 72-125 steps/s on
    idle runs of one day), and the ratio with it. None when pymunk is not installed."""
    try:
        import pymunk  # noqa: F401
    except ImportError:
        return None
    _swept_sim(scene, "swept").run(WARM_UP_STEPS)  # touch the scene's memory first
    cuts = np.diff(np.linspace(0, steps, DUEL_WINDOWS + 1).round().astype(int))
    runs: dict[str, list[list[float]]] = {"swept": [], "pymunk": []}
    for _ in range(DUEL_RUNS):
        sim = _swept_sim(scene, "swept")
        space, _bodies, _index = _pymunk_space(scene)

        def pymunk_steps(k: int, space: Any = space) -> None:
            for _ in range(k):
                space.step(STEP)

        engines = {"swept": sim.run, "pymunk": pymunk_steps}
        times: dict[str, list[float]] = {"swept": [], "pymunk": []}
        for w, k in enumerate(cuts):
            for name in (("swept", "pymunk") if w % 2 == 0 else ("pymunk", "swept")):
                t0 = time.perf_counter()
                engines[name](int(k))
                times[name].append(time.perf_counter() - t0)
        for name, windows in times.items():
            runs[name].append(windows)
    rates = {name: steps / float(np.min(windows, axis=0).sum())
             for name, windows in runs.items()}
    return {"steps": steps, "windows": DUEL_WINDOWS, "runs": DUEL_RUNS,
            "threads": swept.threads(),
            "swept_steps_per_second": rates["swept"],
            "pymunk_steps_per_second": rates["pymunk"],
            "ratio": rates["swept"] / rates["pymunk"],
            "run_ratios": [sum(p) / sum(s) for s, p in zip(runs["swept"], runs["pymunk"])]}


def step_cost(balls: int, repeats: int) -> float:
    """Seconds of one swept-mode step at ``balls`` balls: the least of ``repeats`` steps after
    a warm-up step (the least is the one least disturbed by a shared machine)."""
    sim = _swept_sim(make_scene(balls), "swept")
    sim.run(1)
    times = []
    for _ in range(repeats):
        t0 = time.perf_counter()
        sim.run(1)
        times.append(time.perf_counter() - t0)
    return float(min(times))


def run(quick: bool = False) -> dict[str, Any]:
    """Every case of this benchmark; returns ``{"name", "rows", "growth"}`` for swept.bench."""
    balls = 1000 if quick else 10000
    steps = 60 if quick else 600
    scene = make_scene(balls)
    rows = [run_swept(scene, steps, "swept"), run_swept(scene, steps, "swept", threads=1),
            run_swept(scene, steps, "discrete"), run_swept(scene, steps, "speculative")]
    pm = run_pymunk(scene, steps)
    if pm is not None:
        rows.append(pm)
        # pymunk with swept's correctness: enough substeps that no ball passes a wall unseen
        safe = run_pymunk(scene, SUBSTEP_ROW_STEPS, SAFE_SUBSTEPS)
        if safe is not None:
            rows.append(safe)
    side_by_side = duel(scene, steps) if pm is not None else None
    sizes = [1000, 4000, 16000] if quick else [1000, 10000, 100000]
    costs = [step_cost(n, 3 if quick else 5) for n in sizes]
    slope = float(np.polyfit(np.log(sizes), np.log(costs), 1)[0])
    growth = {"sizes": sizes, "seconds_per_step": costs, "fitted_exponent": slope,
              # n log n between the smallest and largest size, as an exponent of n
              "n_log_n_exponent": 1.0 + math.log(math.log(sizes[-1]) / math.log(sizes[0]))
              / math.log(sizes[-1] / sizes[0])}
    result = {"name": "sim: balls among thin walls", "quick": quick,
              "threads": swept.threads(), "rows": rows, "duel": side_by_side,
              "growth": growth}
    RESULTS.parent.mkdir(parents=True, exist_ok=True)
    RESULTS.write_text(json.dumps(result, indent=2) + "\n")
    return result


def print_table(result: dict[str, Any]) -> None:
    """The engines side by side, then the growth of one step's cost."""
    rows = result["rows"]
    if rows:
        r0 = rows[0]
        print(f"{r0['balls']:,} balls among {r0['walls']:,} thin walls, {r0['steps']} steps "
              f"of 1/60 s, {result['threads']} threads. Tunneled: the centre's path crossed a "
              f"wall in a step with no wall contact (swept: its real path, the missed counter; "
              f"pymunk: the chord). Chord: the straight start-to-end test for every engine. "
              f"Steps/s: the same steps run {TIMED_RUNS} more times back to back (no checks, "
              f"no pymunk callback), each window of {r0['steps'] // TIMED_WINDOWS} steps at its "
              f"least time among the runs; runs: each run's own rate (the substepped row: its "
              f"checked run's steps alone).")
    print(f"{'engine':<28}{'steps/s':>10}{'balls tunneled':>16}{'tunneling steps':>17}"
          f"{'chord balls':>13}{'chord steps':>13}{'caught':>11}  runs")
    for row in rows:
        caught = "-" if row["caught_counter"] is None else f"{row['caught_counter']:,}"
        runs = " / ".join(f"{r:.1f}" for r in row.get("runs_steps_per_second", []))
        if not row.get("same_end", True):
            runs += " (a run ended elsewhere)"
        print(f"{row['engine']:<28}{row['steps_per_second']:>10.1f}"
              f"{row['balls_tunneled']:>16,}{row['tunneling_steps']:>17,}"
              f"{row['chord_balls']:>13,}{row['chord_steps']:>13,}{caught:>11}  {runs}")
    d = result.get("duel")
    if d:
        print(f"side by side (swept mode on {d['threads']} threads and pymunk, windows of "
              f"{d['steps'] // d['windows']} steps in turns, each at its least of {d['runs']} "
              f"runs): swept {d['swept_steps_per_second']:.1f} steps/s, pymunk "
              f"{d['pymunk_steps_per_second']:.1f}: {d['ratio']:.2f}x (runs: "
              + " / ".join(f"{r:.2f}x" for r in d["run_ratios"]) + ")")
    g = result["growth"]
    print("one swept-mode step: " + ", ".join(
        f"{n:,} balls {t * 1e3:.2f} ms" for n, t in zip(g["sizes"], g["seconds_per_step"]))
        + f"; fitted exponent {g['fitted_exponent']:.2f} (n log n over this range: "
          f"{g['n_log_n_exponent']:.2f})")


def main(argv: list[str]) -> int:
    """Run and print this benchmark alone."""
    parser = argparse.ArgumentParser(description=(__doc__ or "").splitlines()[0])
    parser.add_argument("--quick", action="store_true",
                        help="1,000 balls, 100 walls, 60 steps (a smoke run)")
    args = parser.parse_args(argv)
    print_table(run(args.quick))
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
