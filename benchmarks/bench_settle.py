"""Benchmark: does a pile settle? swept's Simulation against pymunk on resting-contact scenes.

Issue 12's bar, side by side with pymunk in one run (2D, y down: gravity (0, 980), steps of
1/60 s; balls do not rotate, so pymunk's bodies get an infinite moment of inertia):

- **bounce**: a ball (radius 10, restitution 0.5, friction 0.3) dropped 100 units onto a
  floor. Settling time: the first moment after which its speed stays below
  ``REST_SPEED`` for the rest of the run. The last second's hop (highest minus lowest centre)
  and top speed say what "at rest" looks like.
- **pile**: 500 balls (radii 4 to 8, restitution 0, friction 0.3, no overlaps at the start)
  dropped into a box, after 3,000 steps: the median and largest speed, the worst overlap of a
  pair as a fraction of the smaller radius, and the pairs overlapping by more than 1% of it.
  The goal: median below 0.5 units/s and no pair over 1%.
- **column**: 20 balls (radius 5) stacked in a tube 1% wider than a ball, 3,000 steps: the top
  speed at the end and the worst overlap.
- **pyramid**: a triangle of balls (radius 5, 10 at the base, friction 0.5) between two walls
  that hold the base row, 3,000 steps: the top speed at the end and how far any ball moved.
- **energy**: 50 balls (radius 5) with random velocities in a closed 400 x 400 box, restitution
  1, no friction, no gravity, 10,000 steps: the largest relative change of the kinetic energy
  over the run (the goal: within 1e-6).
- **sleeping** (swept only: pymunk's sleeping is off by default): a pile of 10,000 balls
  (1,000 with ``--quick``) in 10 rows, stepped until every ball sleeps; then steps per second
  asleep, against the same settled pile with sleeping turned off (every ball
  awake, resting), and how many steps it took to fall asleep. The goal: 10x.
- **events** (swept only): the cost of the contact events (``Simulation(events=True)``, the
  default, against ``events=False``): the same falling pile of 10,000 balls (1,000 with
  ``--quick``, sleeping off) in two simulations stepped in turn on one thread, the ratio of
  their median steps, and the events' own part of each step timed inside it (the median of
  step / (step - part): steady where the first swings with the machine's load); and
  how often a settled contact flickers: in the 500-ball pile (150 with ``--quick``) after it
  has rested, the contacts that begin and end a step.

Every scene starts with no overlaps. The swept side runs the Simulation with ``ccd="swept"``;
tunneled counts are its ``missed`` counters. Run ``python benchmarks/bench_settle.py
[--quick]``; writes ``benchmarks/results/settle.json``.
"""

from __future__ import annotations

import argparse
import json
import math
import time
from collections.abc import Callable
from pathlib import Path
from typing import Any

import numpy as np

import swept
from swept import Segment
from swept.sim import Simulation

#: The fixed step, seconds.
STEP = 1.0 / 60.0
#: Gravity, y down (the 2D convention).
GRAVITY = (0.0, 980.0)
#: A ball moving slower than this (units/s) counts as at rest.
REST_SPEED = 0.5
#: Seed of every random scene.
SEED = 12345
#: Rows of the sleeping benchmark's pile (10,000 balls: 1,000 across). Piles of 40 rows (250
#: across) and of 100 rows did not all fall asleep within 4,000 steps: the solver leaves some
#: ball of a deep pile creeping faster than the sleep speed, which keeps its island awake.
SLEEP_PILE_ROWS = 10
#: Where the results go (gitignored).
RESULTS = Path(__file__).resolve().parent / "results" / "settle.json"


# ----------------------------------------------------------------------------- scenes


def _box_walls(x0: float, x1: float, y_top: float, y_floor: float) -> list[tuple]:
    """A floor and two side walls: an open-topped box (y down: the floor has the larger y)."""
    return [((x0, y_floor), (x1, y_floor)), ((x0, y_top), (x0, y_floor)),
            ((x1, y_top), (x1, y_floor))]


def bounce_scene() -> dict[str, Any]:
    """One ball dropped onto a floor."""
    return {"walls": [((-1000.0, 0.0), (1000.0, 0.0))], "centers": np.array([[0.0, -110.0]]),
            "radii": np.array([10.0]), "velocities": np.zeros((1, 2)), "gravity": GRAVITY,
            "restitution": 0.5, "friction": 0.3}


def pile_scene(n: int = 500, per_row: int = 17) -> dict[str, Any]:
    """``n`` balls of radii 4 to 8 on a grid above a box ``per_row`` balls wide, no overlaps."""
    rng = np.random.default_rng(SEED)
    spacing = 17.0
    width = per_row * spacing
    rows = math.ceil(n / per_row)
    k = np.arange(n)
    centers = np.stack([(k % per_row + 0.5) * spacing, -(k // per_row + 0.5) * spacing], 1)
    # jitter inside the spacing so the pile is not a lattice
    centers += rng.uniform(-0.4, 0.4, centers.shape)
    return {"walls": _box_walls(0.0, width, -(rows + 2) * spacing, 0.0), "centers": centers,
            "radii": rng.uniform(4.0, 8.0, n), "velocities": np.zeros((n, 2)),
            "gravity": GRAVITY, "restitution": 0.0, "friction": 0.3}


def column_scene(n: int = 20) -> dict[str, Any]:
    """``n`` balls of radius 5 in a tube 1% wider than a ball, each just above the last."""
    r = 5.0
    half = 1.01 * r
    centers = np.array([[0.0, -r - i * (2.0 * r + 0.01)] for i in range(n)])
    return {"walls": _box_walls(-half, half, -2.0 * r * (n + 2), 0.0), "centers": centers,
            "radii": np.full(n, r), "velocities": np.zeros((n, 2)), "gravity": GRAVITY,
            "restitution": 0.0, "friction": 0.3}


def pyramid_scene(base: int = 10) -> dict[str, Any]:
    """A triangle of balls of radius 5 (``base`` at the bottom) between walls that hold the
    base row."""
    r = 5.0
    gap = 0.01
    centers = []
    for row in range(base):
        for i in range(base - row):
            centers.append(((2.0 * i + row + 1.0) * (r + gap),
                            -r - row * math.sqrt(3.0) * (r + gap)))
    width = 2.0 * base * (r + gap)
    n = len(centers)
    return {"walls": _box_walls(0.0, width, -4.0 * r * base, 0.0), "centers": np.array(centers),
            "radii": np.full(n, r), "velocities": np.zeros((n, 2)), "gravity": GRAVITY,
            "restitution": 0.0, "friction": 0.5}


def energy_scene(n: int = 50) -> dict[str, Any]:
    """``n`` balls of radius 5 with random velocities in a closed 400 x 400 box."""
    rng = np.random.default_rng(SEED)
    ticks = np.arange(20.0, 400.0, 40.0)
    gx, gy = np.meshgrid(ticks, ticks)
    spots = np.stack([gx.ravel(), gy.ravel()], 1)[rng.permutation(len(ticks) ** 2)[:n]]
    heading = rng.uniform(0.0, 2.0 * math.pi, n)
    speed = rng.uniform(50.0, 200.0, n)
    corners = [(0.0, 0.0), (400.0, 0.0), (400.0, 400.0), (0.0, 400.0)]
    walls = [(corners[i], corners[(i + 1) % 4]) for i in range(4)]
    return {"walls": walls, "centers": spots, "radii": np.full(n, 5.0),
            "velocities": np.stack([np.cos(heading), np.sin(heading)], 1) * speed[:, None],
            "gravity": (0.0, 0.0), "restitution": 1.0, "friction": 0.0}


# ---------------------------------------------------------------------------- engines

Observer = Callable[[int, np.ndarray, np.ndarray], None]


def run_swept(scene: dict[str, Any], steps: int, observe: Observer | None = None
              ) -> dict[str, Any]:
    """Step the scene in swept's Simulation (ccd="swept"); final positions and velocities."""
    sim = Simulation(gravity=scene["gravity"], step=STEP)
    for a, b in scene["walls"]:
        sim.world.add(Segment(a, b))
    sim.add_balls(scene["centers"], scene["radii"], scene["velocities"],
                  restitution=scene["restitution"], friction=scene["friction"], ccd="swept")
    sim.run(1)  # compile outside the clock
    sim = Simulation(gravity=scene["gravity"], step=STEP)
    for a, b in scene["walls"]:
        sim.world.add(Segment(a, b))
    sim.add_balls(scene["centers"], scene["radii"], scene["velocities"],
                  restitution=scene["restitution"], friction=scene["friction"], ccd="swept")
    start = time.perf_counter()
    for k in range(steps):
        sim.step()
        if observe is not None:
            observe(k, sim.positions, sim.velocities)
    seconds = time.perf_counter() - start
    return {"positions": sim.positions.copy(), "velocities": sim.velocities.copy(),
            "seconds": seconds, "tunneled": int(sim.missed_total)}


def run_pymunk(scene: dict[str, Any], steps: int, observe: Observer | None = None
               ) -> dict[str, Any] | None:
    """The same scene in pymunk (None when pymunk is not installed). Elasticity and friction
    multiply in pymunk, so the walls get 1 and the balls the scene's values."""
    try:
        import pymunk
    except ImportError:
        return None
    space = pymunk.Space()
    space.gravity = scene["gravity"]
    for a, b in scene["walls"]:
        seg = pymunk.Segment(space.static_body, a, b, 0.0)
        seg.elasticity = 1.0
        seg.friction = 1.0
        space.add(seg)
    bodies = []
    for c, r, v in zip(scene["centers"], scene["radii"], scene["velocities"]):
        body = pymunk.Body(1.0, math.inf)  # balls do not rotate, as swept's
        body.position = (float(c[0]), float(c[1]))
        body.velocity = (float(v[0]), float(v[1]))
        shape = pymunk.Circle(body, float(r))
        shape.elasticity = scene["restitution"]
        shape.friction = scene["friction"]
        space.add(body, shape)
        bodies.append(body)
    pos = np.zeros((len(bodies), 2))
    vel = np.zeros((len(bodies), 2))

    def read() -> None:
        for i, body in enumerate(bodies):
            pos[i] = body.position
            vel[i] = body.velocity

    start = time.perf_counter()
    for k in range(steps):
        space.step(STEP)
        if observe is not None:
            read()
            observe(k, pos, vel)
    seconds = time.perf_counter() - start
    read()
    return {"positions": pos.copy(), "velocities": vel.copy(), "seconds": seconds,
            "tunneled": None, "engine": f"pymunk {pymunk.version}"}


# ---------------------------------------------------------------------------- metrics


def worst_overlaps(positions: np.ndarray, radii: np.ndarray) -> tuple[float, int]:
    """The worst pair overlap as a fraction of the smaller radius, and the pairs overlapping
    by more than 1% of it (brute force: the scenes are small)."""
    d = np.linalg.norm(positions[:, None, :] - positions[None, :, :], axis=2)
    depth = radii[:, None] + radii[None, :] - d
    frac = depth / np.minimum(radii[:, None], radii[None, :])
    np.fill_diagonal(frac, -np.inf)
    iu = np.triu_indices(len(radii), 1)
    f = frac[iu]
    return float(max(f.max(), 0.0)), int(np.count_nonzero(f > 0.01))


def speeds(velocities: np.ndarray) -> np.ndarray:
    """Each ball's speed."""
    return np.linalg.norm(velocities, axis=1)


def measure_bounce(run: Callable[..., dict[str, Any] | None], steps: int
                   ) -> dict[str, Any] | None:
    """Settling time of a dropped ball and its last second's hop and top speed."""
    heights = np.zeros(steps)
    tops = np.zeros(steps)

    def observe(k: int, pos: np.ndarray, vel: np.ndarray) -> None:
        heights[k] = pos[0, 1]
        tops[k] = float(np.linalg.norm(vel[0]))

    out = run(bounce_scene(), steps, observe)
    if out is None:
        return None
    moving = np.flatnonzero(tops >= REST_SPEED)
    settled_step = int(moving[-1]) + 1 if len(moving) else 0
    last = slice(max(0, steps - 60), steps)
    return {"settle_s": settled_step * STEP if settled_step < steps else math.inf,
            "hop_last_s": float(heights[last].max() - heights[last].min()),
            "top_speed_last_s": float(tops[last].max()), "tunneled": out["tunneled"]}


def measure_rest(scene: dict[str, Any], run: Callable[..., dict[str, Any] | None], steps: int
                 ) -> dict[str, Any] | None:
    """Speeds, overlaps and drift of a scene that should come to rest."""
    out = run(scene, steps)
    if out is None:
        return None
    s = speeds(out["velocities"])
    worst, over = worst_overlaps(out["positions"], scene["radii"])
    moved = np.linalg.norm(out["positions"] - scene["centers"], axis=1)
    return {"median_speed": float(np.median(s)), "max_speed": float(s.max()),
            "worst_overlap": worst, "pairs_over_1pc": over, "max_moved": float(moved.max()),
            "steps_per_s": steps / out["seconds"], "tunneled": out["tunneled"]}


def measure_energy(run: Callable[..., dict[str, Any] | None], steps: int
                   ) -> dict[str, Any] | None:
    """The largest relative change of the kinetic energy over the run."""
    scene = energy_scene()
    e0 = 0.5 * float(np.sum(scene["velocities"] ** 2))
    worst = [0.0]

    def observe(k: int, pos: np.ndarray, vel: np.ndarray) -> None:
        worst[0] = max(worst[0], abs(0.5 * float(np.sum(vel ** 2)) - e0) / e0)

    out = run(scene, steps, observe)
    if out is None:
        return None
    return {"energy_drift": worst[0], "tunneled": out["tunneled"]}


def measure_sleep(n: int, max_steps: int) -> dict[str, Any]:
    """Steps per second of a settled pile asleep and awake (swept only)."""
    scene = pile_scene(n, per_row=n // SLEEP_PILE_ROWS)
    sim = Simulation(gravity=scene["gravity"], step=STEP)
    for a, b in scene["walls"]:
        sim.world.add(Segment(a, b))
    sim.add_balls(scene["centers"], scene["radii"], scene["velocities"],
                  restitution=scene["restitution"], friction=scene["friction"], ccd="swept")
    steps = max_steps
    for k in range(max_steps):
        sim.step()
        if sim.sleeping.all():
            steps = k + 1
            break
    asleep = int(sim.sleeping.sum())
    timed = 100
    start = time.perf_counter()
    sim.run(timed)
    asleep_rate = timed / (time.perf_counter() - start)
    sim.sleep_time = None
    sim.wake_all()
    sim.run(1)
    start = time.perf_counter()
    sim.run(timed)
    awake_rate = timed / (time.perf_counter() - start)
    return {"balls": n, "steps_to_sleep": steps, "asleep": asleep,
            "asleep_steps_per_s": asleep_rate, "awake_steps_per_s": awake_rate,
            "ratio": asleep_rate / awake_rate}


def measure_events(n: int, steps: int, pile_n: int, pile_steps: int) -> dict[str, Any]:
    """Seconds a step with the contact events and without (a falling pile of ``n``, stepped in
    turn, ``steps`` each), and the events a step of a rested ``pile_n`` pile reports."""
    scene = pile_scene(n, per_row=n // SLEEP_PILE_ROWS)
    sims = []
    for events in (True, False):
        sim = Simulation(gravity=scene["gravity"], step=STEP, sleep_time=None, events=events)
        for a, b in scene["walls"]:
            sim.world.add(Segment(a, b))
        sim.add_balls(scene["centers"], scene["radii"], scene["velocities"],
                      restitution=scene["restitution"], friction=scene["friction"],
                      ccd="swept")
        sim.run(1)  # compile outside the clock
        sims.append(sim)
    # the events' own part of each step of the first, timed inside it
    find = sims[0]._find_events
    spent = [0.0]

    def timed(*args: Any) -> None:
        start = time.perf_counter()
        find(*args)
        spent[0] += time.perf_counter() - start

    sims[0]._find_events = timed  # type: ignore[method-assign]
    # one thread, the two stepped in turn (which goes first alternating), and the median
    # step of each: on a shared machine, the threads' waits and the order moved two identical
    # simulations' mean steps apart by 15%
    times: list[list[float]] = [[], []]
    shares = []
    began = 0
    swept.set_threads(1)
    try:
        for step in range(steps):
            for k in ((0, 1) if step % 2 == 0 else (1, 0)):
                before = spent[0]
                start = time.perf_counter()
                sims[k].step()
                times[k].append(time.perf_counter() - start)
                if k == 0:
                    # the step against the same step without its events part
                    shares.append(times[0][-1] / (times[0][-1] - (spent[0] - before)))
            began += sims[0].contacts_began.shape[0]
    finally:
        swept.set_threads(None)
    seconds = [float(np.median(t)) for t in times]
    # flicker: a pile that has rested, its events over the last fifth of the run
    pile = pile_scene(pile_n)
    sim = Simulation(gravity=pile["gravity"], step=STEP, sleep_time=None)
    for a, b in pile["walls"]:
        sim.world.add(Segment(a, b))
    sim.add_balls(pile["centers"], pile["radii"], pile["velocities"],
                  restitution=pile["restitution"], friction=pile["friction"], ccd="swept")
    watched = pile_steps // 5
    sim.run(pile_steps - watched)
    flicker = 0
    for _ in range(watched):
        sim.step()
        flicker += sim.contacts_began.shape[0] + sim.contacts_ended.shape[0]
    contacts = int(sim._events.contacts.first[-1])
    return {"balls": n, "steps": steps, "events_ms": 1e3 * seconds[0],
            "none_ms": 1e3 * seconds[1], "ratio": seconds[0] / seconds[1],
            "events_part_ms": 1e3 * spent[0] / steps, "in_step_ratio": float(np.median(shares)),
            "began_per_step": began / steps, "pile_balls": pile_n,
            "pile_contacts": contacts, "pile_steps": pile_steps,
            "rested_events_per_step": flicker / watched}


def run(quick: bool = False) -> dict[str, Any]:
    """Every scene on both engines (``quick``: fewer steps and balls); the JSON-ready result
    (``swept bench`` calls this)."""
    rest_steps = 600 if quick else 3000
    bounce_steps = 600 if quick else 3000
    energy_steps = 1000 if quick else 10_000
    pile = pile_scene(150 if quick else 500)
    results: dict[str, Any] = {"steps": {"rest": rest_steps, "bounce": bounce_steps,
                                         "energy": energy_steps}}
    sleep = measure_sleep(1_000 if quick else 10_000, 3000)
    events = measure_events(1_000 if quick else 10_000, 100 if quick else 300,
                            150 if quick else 500, 600 if quick else 3000)
    for name, runner in (("swept", run_swept), ("pymunk", run_pymunk)):
        results[name] = {
            "bounce": measure_bounce(runner, bounce_steps),
            "pile": measure_rest(pile, runner, rest_steps),
            "column": measure_rest(column_scene(), runner, rest_steps),
            "pyramid": measure_rest(pyramid_scene(), runner, rest_steps),
            "energy": measure_energy(runner, energy_steps),
        }
    results["sleeping"] = sleep
    results["events"] = events
    return results


def print_table(results: dict[str, Any]) -> None:
    """The side-by-side table of :func:`run`'s result."""
    steps = results["steps"]
    print(f"resting contact after {steps['rest']} steps (bounce {steps['bounce']}, energy "
          f"{steps['energy']}); speeds in units/s, overlaps as a fraction of the smaller radius")
    rows = [("bounce", "settle_s"), ("bounce", "hop_last_s"), ("bounce", "top_speed_last_s"),
            ("pile", "median_speed"), ("pile", "max_speed"), ("pile", "worst_overlap"),
            ("pile", "pairs_over_1pc"), ("pile", "steps_per_s"), ("column", "max_speed"),
            ("column", "worst_overlap"), ("pyramid", "max_speed"), ("pyramid", "max_moved"),
            ("energy", "energy_drift"), ("pile", "tunneled")]
    print(f"{'scene':>8} {'measure':>17} {'swept':>12} {'pymunk':>12}")
    for scene, key in rows:
        cells = []
        for engine in ("swept", "pymunk"):
            part = results[engine][scene]
            value = None if part is None else part.get(key)
            cells.append("-" if value is None else f"{value:12.4g}")
        print(f"{scene:>8} {key:>17} {cells[0]:>12} {cells[1]:>12}")
    sleep = results["sleeping"]
    print(f"sleeping: {sleep['asleep']:,} of {sleep['balls']:,} balls asleep after "
          f"{sleep['steps_to_sleep']:,} steps; {sleep['asleep_steps_per_s']:,.0f} steps/s asleep "
          f"against {sleep['awake_steps_per_s']:,.0f} awake and resting: "
          f"{sleep['ratio']:.0f}x")
    events = results["events"]
    print(f"events: {events['balls']:,} falling balls, {events['events_ms']:.2f} ms a step "
          f"with contact events against {events['none_ms']:.2f} ms without: "
          f"{events['ratio']:.3f}x; inside the step, the events took "
          f"{events['events_part_ms']:.2f} ms: {events['in_step_ratio']:.3f}x "
          f"({events['began_per_step']:.0f} began a step); a rested "
          f"{events['pile_balls']}-ball pile ({events['pile_contacts']} contacts, after "
          f"{events['pile_steps']} steps): {events['rested_events_per_step']:.2f} events a step")
    if results["pymunk"]["pile"] is None:
        print("(pymunk is not installed: pip install -e '.[bench]')")


def main() -> None:
    """Run every scene on both engines, print the table, write the JSON."""
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--quick", action="store_true", help="fewer steps and balls")
    args = parser.parse_args()
    results = run(args.quick)
    print_table(results)
    RESULTS.parent.mkdir(parents=True, exist_ok=True)
    RESULTS.write_text(json.dumps(results, indent=2, default=float) + "\n")
    print(f"wrote {RESULTS}")


if __name__ == "__main__":
    main()
