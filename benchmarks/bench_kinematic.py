"""Benchmark: moving colliders (issue 12, item 5), swept's Simulation against pymunk in one run.

Two scenes (2D, y down: gravity (0, 980), steps of 1/60 s; balls do not rotate, so pymunk's
bodies get an infinite moment of inertia; pymunk's moving colliders are KINEMATIC bodies with
a velocity, swept's are ``moving=True`` colliders driven by ``Simulation.move_collider``):

- **platforms**: ``PLATFORMS`` platforms (200 x 10), each with ``PER_PLATFORM`` balls (radius
  5, friction 0.5) resting on it, driven along a square path (60 units/s, turning every 60
  steps: right, up, left, down) for ``STEPS`` steps. Steps per second, and how many balls
  are still on their platform at the end (resting on its top, within half a radius). swept
  also runs the same scene with the platforms still, stepped in turn with the moving one
  (sleeping off in both, after a compiling warm-up): the ratio is what the motion costs.
- **paddle**: a paddle (20 x 800) moving at 50 units a step through a column of ``BALLS``
  balls of radius 3 (no gravity, restitution 0.5). Balls left behind the paddle (tunneled)
  and the worst error of a ball's outgoing speed against the closed form ``(1 + e)
  v_paddle`` (they start at rest).

Run ``python benchmarks/bench_kinematic.py [--quick]``; writes
``benchmarks/results/kinematic.json``.
"""

from __future__ import annotations

import argparse
import json
import time
from pathlib import Path
from typing import Any

import numpy as np

from swept import AABB, Circle
from swept.sim import Body, Simulation

G = 980.0
DT = 1.0 / 60.0
PLATFORMS = 20
PER_PLATFORM = 10
STEPS = 600
BALLS = 100
#: The platforms' velocity for each quarter of the square path (y down: up is -y).
LEGS = ((60.0, 0.0), (0.0, -60.0), (-60.0, 0.0), (0.0, 60.0))
LEG_STEPS = 60


def _platform_layout() -> list[tuple[float, float]]:
    """Each platform's top-left corner: a grid far enough apart that no two meet."""
    return [(400.0 * (k % 5), 300.0 * (k // 5)) for k in range(PLATFORMS)]


def swept_platforms() -> tuple[Simulation, list[int]]:
    """The platform scene in swept (not stepped yet)."""
    # sleeping off: the riders never sleep, and the still scene's would
    sim = Simulation(gravity=(0.0, G), sleep_time=None)
    handles = []
    for x, y in _platform_layout():
        handles.append(sim.world.add(AABB((x, y), (x + 200.0, y + 10.0)), moving=True))
        centers = np.array([[x + 10.0 + 20.0 * j, y - 5.0] for j in range(PER_PLATFORM)])
        sim.add_balls(centers, 5.0, friction=0.5, ccd="swept")
    return sim, handles


def _on_platform(positions: np.ndarray, tops: list[tuple[float, float]]) -> int:
    """Balls resting on their own platform's top (within half a radius)."""
    count = 0
    for k, (x, y) in enumerate(tops):
        rows = positions[k * PER_PLATFORM:(k + 1) * PER_PLATFORM]
        on = (np.abs(rows[:, 1] - (y - 5.0)) < 2.5) & (rows[:, 0] >= x) & (rows[:, 0] <= x + 200)
        count += int(on.sum())
    return count


def run_swept_platforms(steps: int) -> dict[str, Any]:
    """Moving and still platforms stepped in turn: steps/s of each, balls still on top."""
    moving, handles = swept_platforms()
    still, _ = swept_platforms()
    # compile first (a throwaway copy of the moving scene, a few steps)
    warm, warm_handles = swept_platforms()
    for h in warm_handles:
        warm.move_collider(h, velocity=LEGS[0])
    warm.run(3)
    times = {"moving": 0.0, "still": 0.0}
    for step in range(steps):
        if step % LEG_STEPS == 0:
            leg = LEGS[(step // LEG_STEPS) % 4]
            for h in handles:
                moving.move_collider(h, velocity=leg)
        for name, sim in (("moving", moving), ("still", still)):
            t0 = time.perf_counter()
            sim.step()
            times[name] += time.perf_counter() - t0
    tops = [tuple(moving.world.shape(h).min) for h in handles]
    return {"moving_steps_per_s": steps / times["moving"],
            "still_steps_per_s": steps / times["still"],
            "cost_of_motion": times["moving"] / times["still"],
            "on_platform": _on_platform(moving.positions, tops),
            "missed": moving.missed_total}


def run_pymunk_platforms(steps: int) -> dict[str, Any] | None:
    """The moving platforms in pymunk (KINEMATIC bodies): steps/s, balls still on top."""
    try:
        import pymunk
    except ImportError:
        return None
    space = pymunk.Space()
    space.gravity = (0.0, G)
    plats = []
    balls = []
    for x, y in _platform_layout():
        body = pymunk.Body(body_type=pymunk.Body.KINEMATIC)
        body.position = (x + 100.0, y + 5.0)
        shape = pymunk.Poly.create_box(body, (200.0, 10.0))
        shape.friction = 0.5
        space.add(body, shape)
        plats.append(body)
        for j in range(PER_PLATFORM):
            ball = pymunk.Body(1.0, float("inf"))
            ball.position = (x + 10.0 + 20.0 * j, y - 5.0)
            circle = pymunk.Circle(ball, 5.0)
            circle.friction = 0.5
            space.add(ball, circle)
            balls.append(ball)
    t0 = time.perf_counter()
    for step in range(steps):
        if step % LEG_STEPS == 0:
            leg = LEGS[(step // LEG_STEPS) % 4]
            for body in plats:
                body.velocity = leg
        space.step(DT)
    elapsed = time.perf_counter() - t0
    tops = [(b.position.x - 100.0, b.position.y - 5.0) for b in plats]
    positions = np.array([tuple(b.position) for b in balls])
    return {"moving_steps_per_s": steps / elapsed, "on_platform": _on_platform(positions, tops)}


def _paddle_ball(k: int) -> tuple[float, float]:
    """Ball k of the paddle scene: a column 7 units apart, 60 units ahead of the paddle."""
    return 60.0, -350.0 + 7.0 * k


def run_swept_paddle() -> dict[str, Any]:
    """The paddle through a column of balls, swept mode: tunneled, speed error."""
    sim = Simulation(gravity=(0.0, 0.0))
    paddle = sim.world.add(AABB((-20.0, -400.0), (0.0, 400.0)), moving=True)
    for k in range(BALLS):
        sim.add(Body(Circle(_paddle_ball(k), 3.0), restitution=0.5, ccd="swept"))
    sim.move_collider(paddle, velocity=(3000.0, 0.0))
    sim.run(10)
    front = sim.world.shape(paddle).max[0]
    behind = int((sim.positions[:, 0] < front).sum())
    error = float(np.max(np.abs(sim.velocities[:, 0] - 1.5 * 3000.0)))
    return {"tunneled": behind, "missed": sim.missed_total, "speed_error": error}


def run_pymunk_paddle() -> dict[str, Any] | None:
    """The paddle in pymunk: balls left behind it."""
    try:
        import pymunk
    except ImportError:
        return None
    space = pymunk.Space()
    body = pymunk.Body(body_type=pymunk.Body.KINEMATIC)
    body.position = (-10.0, 0.0)
    shape = pymunk.Poly.create_box(body, (20.0, 800.0))
    shape.elasticity = 0.5
    space.add(body, shape)
    balls = []
    for k in range(BALLS):
        ball = pymunk.Body(1.0, float("inf"))
        ball.position = _paddle_ball(k)
        circle = pymunk.Circle(ball, 3.0)
        circle.elasticity = 1.0
        space.add(ball, circle)
        balls.append(ball)
    body.velocity = (3000.0, 0.0)
    for _ in range(10):
        space.step(DT)
    front = body.position.x + 10.0
    behind = sum(1 for b in balls if b.position.x < front)
    return {"tunneled": behind}


def run(quick: bool = False) -> dict[str, Any]:
    """Every scene, swept and pymunk side by side."""
    steps = 240 if quick else STEPS
    return {"steps": steps,
            "platforms": {"swept": run_swept_platforms(steps),
                          "pymunk": run_pymunk_platforms(steps)},
            "paddle": {"swept": run_swept_paddle(), "pymunk": run_pymunk_paddle()}}


def print_table(result: dict[str, Any]) -> None:
    """The results as two small tables."""
    total = PLATFORMS * PER_PLATFORM
    print(f"platforms: {PLATFORMS} platforms, {total} balls, {result['steps']} steps")
    print("| engine | steps/s moving | balls still on their platform |")
    print("| --- | --- | --- |")
    s = result["platforms"]["swept"]
    print(f"| swept (swept mode) | {s['moving_steps_per_s']:.0f} | {s['on_platform']} / {total} |")
    p = result["platforms"]["pymunk"]
    if p is not None:
        print(f"| pymunk | {p['moving_steps_per_s']:.0f} | {p['on_platform']} / {total} |")
    print(f"swept with the platforms still: {s['still_steps_per_s']:.0f} steps/s "
          f"(moving costs {s['cost_of_motion']:.2f}x); missed {s['missed']}")
    print(f"paddle: 50 units a step through {BALLS} balls of radius 3")
    print("| engine | balls tunneled |")
    print("| --- | --- |")
    q = result["paddle"]["swept"]
    print(f"| swept (swept mode) | {q['tunneled']} (missed {q['missed']}, outgoing speed "
          f"error {q['speed_error']:.1e}) |")
    r = result["paddle"]["pymunk"]
    if r is not None:
        print(f"| pymunk | {r['tunneled']} |")


def main() -> None:
    """Run, print, write benchmarks/results/kinematic.json."""
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--quick", action="store_true", help="fewer steps")
    args = parser.parse_args()
    result = run(quick=args.quick)
    print_table(result)
    out = Path(__file__).parent / "results" / "kinematic.json"
    out.parent.mkdir(exist_ok=True)
    out.write_text(json.dumps(result, indent=2))


if __name__ == "__main__":
    main()
