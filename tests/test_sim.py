"""Simulation: the fixed step, the integrator, body-body sharing, the three ccd modes, the
Bullet Time counters, determinism, bad input, and every batch kernel against a scalar path."""

from __future__ import annotations

import math
from pathlib import Path
from typing import Any

import numpy as np
import pytest

from shared import busy_simulation
from swept import AABB, Capsule, Circle, Plane, Ray, Segment, Sphere
from swept._kernels import sim as kernels
from swept.contact import contact
from swept.distance import distance
from swept.response import respond
from swept.sim import Body, Simulation, path_crossings
from swept.step import swept_step

STEP = 1.0 / 60.0
#: Closed forms agree to rounding.
EXACT = 1e-12
#: The batch path against the scalar path: the same kernels, different order of rounding.
PARITY = 1e-9


def _box_walls(sim: Simulation, x0: float, y0: float, x1: float, y1: float) -> None:
    """Four thin walls around the rectangle (x0, y0)-(x1, y1)."""
    corners = [(x0, y0), (x1, y0), (x1, y1), (x0, y1)]
    for i in range(4):
        sim.world.add(Segment(corners[i], corners[(i + 1) % 4]))


def _bodies(pos: np.ndarray, vel: np.ndarray, radii: np.ndarray, mass: np.ndarray,
            rest: np.ndarray, fric: np.ndarray) -> kernels.Bodies:
    """The kernels' body arrays (modes discrete, every layer)."""
    n = pos.shape[0]
    return kernels.Bodies(pos, vel, radii, 1.0 / mass, rest, fric, np.zeros(n, np.int64),
                          np.ones(n, np.int64), np.full(n, 0xFFFFFFFF, np.int64),
                          np.zeros(n, np.int64), np.zeros(n, np.int64), np.zeros(n, np.bool_),
                          np.zeros(n, np.int64), np.zeros((n, 0)))


# ---------------------------------------------------------------------------- fixed step


def test_accumulator_takes_whole_steps_and_carries_the_rest() -> None:
    sim = Simulation(step=STEP)
    sim.add(Body(Circle((0, 0), 1)))
    assert sim.update(0.025) == 1
    assert sim.accumulator == pytest.approx(0.025 - STEP, abs=EXACT)
    assert sim.alpha == pytest.approx((0.025 - STEP) / STEP, abs=EXACT)
    # 0.00833 carried + 0.01 = 0.01833: one more step, 0.00167 carried
    assert sim.update(0.01) == 1
    assert sim.accumulator == pytest.approx(0.035 - 2 * STEP, abs=EXACT)
    assert sim.update(0.0) == 0
    assert sim.steps_taken == 2


def test_frames_that_add_up_to_whole_steps_take_them_all() -> None:
    sim = Simulation(step=STEP)
    steps = sum(sim.update(STEP / 2) for _ in range(6))
    assert steps == 3


def test_a_stall_drops_time_beyond_the_cap() -> None:
    sim = Simulation(step=STEP, max_steps_per_update=5)
    assert sim.update(1.0) == 5
    assert sim.accumulator < STEP
    assert sim.dropped_time == pytest.approx(1.0 - 5 * STEP - sim.accumulator, abs=EXACT)


def test_gravity_is_integrated_by_semi_implicit_euler_exactly() -> None:
    # v_k = v0 + k g dt, x_k = x0 + k dt v0 + g dt^2 k (k + 1) / 2
    g = (0.0, 980.0)
    sim = Simulation(gravity=g, step=STEP)
    body = sim.add(Body(Circle((3.0, -10.0), 2.0), (50.0, -200.0)))
    k = 37
    sim.run(k)
    vx, vy = body.velocity
    x, y = body.position
    assert vx == pytest.approx(50.0, abs=EXACT)
    assert vy == pytest.approx(-200.0 + k * 980.0 * STEP, rel=EXACT)
    assert x == pytest.approx(3.0 + k * STEP * 50.0, rel=EXACT)
    expected_y = -10.0 + k * STEP * -200.0 + 980.0 * STEP * STEP * k * (k + 1) / 2
    assert y == pytest.approx(expected_y, rel=1e-11)


# ------------------------------------------------------------------------- body-body


def test_equal_masses_overlapping_by_d_move_half_d_each() -> None:
    sim = Simulation(passes=4)
    a = sim.add(Body(Circle((0.0, 0.0), 1.0)))
    b = sim.add(Body(Circle((1.5, 0.0), 1.0)))
    sim.step()
    assert tuple(a.position) == pytest.approx((-0.25, 0.0), abs=EXACT)
    assert tuple(b.position) == pytest.approx((1.75, 0.0), abs=EXACT)


def test_unequal_masses_share_the_push_by_inverse_mass() -> None:
    # depth 0.5, masses 1 and 3: the light one moves 3/4 of it, the heavy one 1/4
    sim = Simulation(passes=1)
    a = sim.add(Body(Circle((0.0, 0.0), 1.0), mass=1.0))
    b = sim.add(Body(Circle((0.0, 1.5), 1.0), mass=3.0))
    sim.step()
    assert tuple(a.position) == pytest.approx((0.0, -0.375), abs=EXACT)
    assert tuple(b.position) == pytest.approx((0.0, 1.625), abs=EXACT)


@pytest.mark.parametrize("e", [0.0, 0.5, 1.0])
def test_head_on_bounce_keeps_momentum_and_scales_by_restitution(e: float) -> None:
    m1, m2 = 1.0, 2.0
    v1, v2 = 10.0, -5.0
    sim = Simulation(passes=1)
    # 1 apart, closing at 15 per second: they overlap after one step
    a = sim.add(Body(Circle((0.0, 0.0), 0.6), (v1, 0.0), mass=m1, restitution=e))
    b = sim.add(Body(Circle((1.2, 0.0), 0.6), (v2, 0.0), mass=m2, restitution=0.0))
    sim.step()
    w1 = a.velocity.x
    w2 = b.velocity.x
    assert m1 * w1 + m2 * w2 == pytest.approx(m1 * v1 + m2 * v2, abs=EXACT)
    # the closing speed comes back times e (the larger restitution of the two)
    assert w2 - w1 == pytest.approx(e * (v1 - v2), abs=EXACT)
    assert a.velocity.y == 0.0 and b.velocity.y == 0.0


def test_coincident_centres_are_pushed_apart_along_x() -> None:
    sim = Simulation(passes=1)
    a = sim.add(Body(Circle((5.0, 5.0), 1.0)))
    b = sim.add(Body(Circle((5.0, 5.0), 1.0)))
    sim.step()
    assert tuple(a.position) == pytest.approx((6.0, 5.0), abs=EXACT)
    assert tuple(b.position) == pytest.approx((4.0, 5.0), abs=EXACT)


# ------------------------------------------------------------------- ccd and counters


def _fast_ball(ccd: str, steps: int = 300) -> tuple[Simulation, Body]:
    """Bullet Time at 5,000 units/s: a ball of radius 7 in a box, a thin wall across it."""
    sim = Simulation(step=STEP)
    _box_walls(sim, 0.0, 0.0, 1000.0, 700.0)
    sim.world.add(Segment((500.0, 100.0), (500.0, 600.0)))
    ball = sim.add(Body(Circle((150.0, 300.0), 7.0),
                        (5000.0 * math.cos(0.16), 5000.0 * math.sin(0.16)),
                        restitution=1.0, ccd=ccd))
    sim.run(steps)
    return sim, ball


def test_swept_ball_at_5000_never_tunnels() -> None:
    sim, ball = _fast_ball("swept")
    assert ball.missed == 0 and sim.missed_total == 0
    assert ball.caught > 30
    x, y = ball.position
    assert 7.0 - 1e-9 <= x <= 993.0 + 1e-9 and 7.0 - 1e-9 <= y <= 693.0 + 1e-9
    assert ball.velocity.length() == pytest.approx(5000.0, rel=1e-9)


def test_discrete_ball_at_5000_tunnels_and_the_counters_say_so() -> None:
    sim, ball = _fast_ball("discrete")
    assert ball.missed > 0
    assert sim.missed_total == ball.missed
    assert int(sim.missed[0]) == ball.missed and int(sim.caught[0]) == ball.caught


def test_speculative_ball_at_5000_is_stopped_too() -> None:
    sim, ball = _fast_ball("speculative")
    assert ball.missed == 0
    assert ball.caught > 30
    x, y = ball.position
    assert 7.0 - 1e-9 <= x <= 993.0 + 1e-9 and 7.0 - 1e-9 <= y <= 693.0 + 1e-9


def test_speculative_stops_at_the_surface_and_bounces_there() -> None:
    # 100 from a wall, 90 per step: the first step ends 10 short, the second at the surface
    sim = Simulation(step=STEP)
    sim.world.add(Segment((200.0, -50.0), (200.0, 50.0)))
    ball = sim.add(Body(Circle((95.0, 0.0), 5.0), (5400.0, 0.0), restitution=1.0,
                        ccd="speculative"))
    sim.run(2)
    assert ball.position.x == pytest.approx(195.0, abs=1e-9)
    assert tuple(ball.velocity) == pytest.approx((-5400.0, 0.0), abs=1e-9)
    assert ball.caught == 1 and ball.missed == 0


def test_a_swept_body_is_not_pushed_through_a_wall_by_another_body() -> None:
    # a heavy discrete ball lands on a light swept one resting on a thin floor
    sim = Simulation(step=STEP, passes=4)
    sim.world.add(Segment((-100.0, 0.0), (100.0, 0.0)))
    light = sim.add(Body(Circle((0.0, -1.0), 1.0), mass=0.01, ccd="swept"))
    sim.add(Body(Circle((0.0, -3.5), 2.0), (0.0, 600.0), mass=100.0))
    sim.run(3)
    assert light.position.y <= -1.0 + 1e-9
    assert light.missed == 0


def test_sphere_falls_onto_a_plane_in_3d() -> None:
    sim = Simulation(gravity=(0.0, -9.8, 0.0), step=STEP)
    sim.world.add(Plane((0.0, 1.0, 0.0), 0.0))
    ball = sim.add(Body(Sphere((0.0, 1.0, 0.0), 0.5), ccd="swept"))
    sim.run(120)
    assert ball.position.y == pytest.approx(0.5, abs=1e-6)
    assert ball.missed == 0 and ball.caught > 0


# -------------------------------------------------------------------------- determinism


def _busy_scene() -> Simulation:
    """shared.busy_simulation's scene (seed 7)."""
    return busy_simulation(7)


def test_reruns_are_bit_identical() -> None:
    runs = []
    for _ in range(2):
        sim = _busy_scene()
        sim.run(40)
        runs.append((sim.positions.tobytes(), sim.velocities.tobytes(), sim.caught.tobytes(),
                     sim.missed.tobytes()))
    assert runs[0] == runs[1]


def test_the_thread_count_does_not_change_a_bit(monkeypatch: pytest.MonkeyPatch) -> None:
    """One thread and three give the same bits (the threaded step lowered to every size: it
    runs from SIM_PARALLEL_MIN bodies)."""
    import swept
    import swept.sim as sim_module

    monkeypatch.setattr(sim_module, "SIM_PARALLEL_MIN", 0)
    # the threaded step on every step (not the one call, which the step's timings may favour)
    monkeypatch.setattr(sim_module, "either_way",
                        lambda key, n, serial, threaded, **_options: threaded())
    every = swept.threads()
    runs = []
    # 3 threads on any machine: more chunks run at once than cores, in any order
    for threads in (1, max(every, 3)):
        swept.set_threads(threads)
        try:
            sim = _busy_scene()
            sim.run(20)
        finally:
            swept.set_threads(None)
        runs.append((sim.positions.tobytes(), sim.velocities.tobytes(), sim.missed.tobytes()))
    assert runs[0] == runs[1]


# ---------------------------------------------------------------------------- bad input


def test_bad_input_is_named() -> None:
    with pytest.raises(ValueError, match="mass"):
        Body(Circle((0, 0), 1), mass=-1.0)
    with pytest.raises(ValueError, match="ccd"):
        Body(Circle((0, 0), 1), ccd="continuous")
    with pytest.raises(ValueError, match="velocity"):
        Body(Circle((0, 0), 1), (math.nan, 0.0))
    with pytest.raises(ValueError, match="restitution"):
        Body(Circle((0, 0), 1), restitution=1.5)
    with pytest.raises(TypeError, match="Circle, Sphere, 2D Capsule"):
        Body(Segment((0, 0), (1, 0)))  # type: ignore[arg-type]
    sim = Simulation()
    with pytest.raises(ValueError, match="dt"):
        sim.update(math.nan)
    with pytest.raises(ValueError, match="centers"):
        sim.add_balls([[math.nan, 0.0]], [1.0])
    with pytest.raises(ValueError, match="mass"):
        sim.add_balls([[0.0, 0.0]], [1.0], mass=0.0)
    with pytest.raises(ValueError, match="passes"):
        Simulation(passes=0)
    with pytest.raises(ValueError, match="step"):
        Simulation(step=-0.1)
    with pytest.raises(ValueError, match="3D body"):
        sim.add(Body(Sphere((0, 0, 0), 1)))


def test_an_unsupported_collider_is_a_type_error() -> None:
    # every World shape is supported; a stand-in world can still hand over a ray
    class Rays:
        def shapes(self) -> list[Ray]:
            return [Ray((0.0, 0.0), (1.0, 0.0))]

    sim = Simulation(Rays(), gravity=(0.0, 0.0))
    sim.add(Body(Circle((5, 5), 1)))
    with pytest.raises(TypeError, match="Ray"):
        sim.step()


# ------------------------------------------------------------- solid boxes


def test_a_fast_sphere_lands_on_a_3d_box_and_rests_on_it() -> None:
    # a 3D box is a solid static collider: the swept cast stops the sphere on its top face
    # (no tunneling through the box, 0.5 thick, at 3,000 units/s), and the passes hold it there
    sim = Simulation(gravity=(0.0, 0.0, -9.8))
    sim.world.add(AABB((-5.0, -5.0, 0.0), (5.0, 5.0, 0.5)))
    ball = sim.add(Body(Sphere((1.0, 2.0, 30.0), 1.0), velocity=(0.0, 0.0, -3000.0),
                        ccd="swept"))
    sim.run(240)
    assert abs(ball.position[2] - 1.5) <= 1e-9
    assert (ball.position[0], ball.position[1]) == (1.0, 2.0)
    assert ball.missed == 0 and ball.caught > 0


def test_a_ball_sliding_on_a_box_keeps_its_speed() -> None:
    # a ball resting on a box's top moves along it: the cast must not report the face it
    # only touches (it does not head into it), so without friction the speed along the face
    # is kept, in 2D and 3D
    for dim in (2, 3):
        g = (0.0, -10.0) if dim == 2 else (0.0, 0.0, -10.0)
        sim = Simulation(gravity=g)
        up = dim - 1
        lo = [-100.0] * dim
        hi = [100.0] * dim
        hi[up] = 0.0
        lo[up] = -1.0
        sim.world.add(AABB(lo, hi))
        start = [0.0] * dim
        start[up] = 1.0
        v = [0.0] * dim
        v[0] = 30.0
        shape = Circle(start, 1.0) if dim == 2 else Sphere(start, 1.0)
        ball = sim.add(Body(shape, velocity=v, ccd="swept"))
        sim.run(60)
        assert abs(ball.velocity[0] - 30.0) <= 1e-9, dim
        assert abs(ball.position[0] - 30.0) <= 1e-9, dim
        assert abs(ball.position[up] - 1.0) <= 1e-9, dim


def test_a_ball_placed_inside_a_2d_box_is_pushed_out() -> None:
    # a 2D box is solid (before: its outline of four edges, which kept a ball inside): a ball
    # whose centre starts inside leaves through the nearest face, here the top (0.25 away)
    sim = Simulation(gravity=(0.0, 0.0))
    sim.world.add(AABB((0.0, 0.0), (10.0, 2.0)))
    ball = sim.add(Body(Circle((5.0, 1.75), 0.5), ccd="discrete"))
    sim.run(1)
    assert ball.position == pytest.approx((5.0, 2.5), abs=EXACT)


def test_swept_mode_does_not_tunnel_thin_boxes_and_discrete_mode_does() -> None:
    # thin boxes (1 unit) across the way of balls at 4,000 units/s (67 units a step): the
    # swept and speculative modes stop every ball, the discrete mode lets some through
    def run(ccd: str) -> int:
        sim = Simulation(gravity=(0.0, 0.0))
        for x in (100.0, 200.0, 300.0):
            sim.world.add(AABB((x, -50.0), (x + 1.0, 50.0)))
        ys = np.linspace(-40.0, 40.0, 17)
        sim.add_balls(np.column_stack([np.zeros_like(ys), ys]), 1.0,
                      np.column_stack([np.full_like(ys, 4000.0), np.zeros_like(ys)]),
                      restitution=1.0, ccd=ccd)
        sim.run(30)
        return int(np.count_nonzero(sim.missed))

    assert run("swept") == 0
    assert run("speculative") == 0
    assert run("discrete") > 0


def test_boxes_give_bit_identical_reruns() -> None:
    # the box branch keeps the simulation deterministic: same inputs, same bits
    def run() -> np.ndarray:
        sim = Simulation(gravity=(0.0, -500.0))
        rng = np.random.default_rng(3)
        for _ in range(20):
            lo = rng.uniform(0.0, 180.0, 2)
            sim.world.add(AABB(lo, lo + rng.uniform(1.0, 20.0, 2)))
        _box_walls(sim, 0.0, 0.0, 200.0, 200.0)
        sim.add_balls(rng.uniform(5.0, 195.0, (200, 2)), 1.5,
                      rng.uniform(-2000.0, 2000.0, (200, 2)), restitution=0.8, ccd="swept")
        sim.run(60)
        return sim.positions

    assert np.array_equal(run(), run())


# ------------------------------------------------------------- batch against scalar


def test_swept_mode_matches_the_scalar_swept_step() -> None:
    walls = [Segment((0, 0), (400, 0)), Segment((400, 0), (400, 300)),
             Segment((400, 300), (0, 300)), Segment((0, 300), (0, 0)),
             Segment((150, 80), (260, 200))]
    starts = [((60.0, 60.0), 5.0, (3000.0, 1700.0), 1.0, 0.0),
              ((300.0, 250.0), 8.0, (-2500.0, -900.0), 0.6, 0.2),
              ((350.0, 50.0), 3.0, (100.0, -4000.0), 0.9, 0.0)]
    # one simulation per ball: the scalar step knows no other bodies
    sims = [Simulation(step=STEP) for _ in starts]
    for sim in sims:
        for w in walls:
            sim.world.add(w)
    bodies = [sim.add(Body(Circle(c, r), v, restitution=e, friction=f, ccd="swept"))
              for sim, (c, r, v, e, f) in zip(sims, starts)]
    ref = [(Circle(c, r), v, e, f) for c, r, v, e, f in starts]
    for _ in range(40):
        for sim in sims:
            sim.step()
        for k, (shape, v, e, f) in enumerate(ref):
            out = swept_step(shape, v, STEP, walls, restitution=e, friction=f)
            ref[k] = (out.shape, out.velocity, e, f)
            assert tuple(bodies[k].position) == pytest.approx(tuple(out.position), abs=PARITY)
            assert tuple(bodies[k].velocity) == pytest.approx(tuple(out.velocity), abs=PARITY)


def _discrete_reference(shape: Circle, v: tuple[float, float], walls: list[Segment],
                        e: float, f: float, passes: int) -> tuple[Circle, tuple[float, ...]]:
    """One discrete step of one ball by the scalar API: move, then push out and respond, wall
    by wall, in passes."""
    moved = shape.translated((v[0] * STEP, v[1] * STEP))
    vel = v
    for _ in range(passes):
        for wall in walls:
            hit = contact(moved, wall)
            if hit is None:
                continue
            moved = moved.translated(hit.normal * hit.depth)
            vel = tuple(respond(vel, hit.normal, e, f))
    return moved, vel


def test_discrete_mode_matches_a_scalar_reference() -> None:
    walls = [Segment((0, 0), (300, 0)), Segment((300, 0), (300, 300)),
             Segment((0, 300), (300, 300)), Segment((0, 0), (0, 300))]
    sim = Simulation(step=STEP, passes=2)
    for w in walls:
        sim.world.add(w)
    starts = [((20.0, 20.0), 6.0, (-400.0, -250.0), 0.7, 0.1),
              ((150.0, 280.0), 4.0, (100.0, 300.0), 1.0, 0.0)]
    bodies = [sim.add(Body(Circle(c, r), v, restitution=e, friction=f))
              for c, r, v, e, f in starts]
    ref = [(Circle(c, r), v, e, f) for c, r, v, e, f in starts]
    for _ in range(30):
        sim.step()
        for k, (shape, v, e, f) in enumerate(ref):
            shape, v = _discrete_reference(shape, v, walls, e, f, 2)
            ref[k] = (shape, v, e, f)
            assert tuple(bodies[k].position) == pytest.approx(tuple(shape.center), abs=PARITY)
            assert tuple(bodies[k].velocity) == pytest.approx(v, abs=PARITY)


def test_pair_pass_matches_a_scalar_reference() -> None:
    # every pair (i, j), i < j, in order, each seeing the pushes and impulses before it
    rng = np.random.default_rng(3)
    n = 40
    centers = rng.uniform(0, 30, (n, 2))
    radii = rng.uniform(1, 3, n)
    vel = rng.uniform(-50, 50, (n, 2))
    mass = rng.uniform(0.5, 4, n)
    rest = rng.uniform(0, 1, n)
    fric = rng.uniform(0, 1, n)
    pos3 = np.zeros((n, 3))
    pos3[:, :2] = centers
    vel3 = np.zeros((n, 3))
    vel3[:, :2] = vel
    first, neighbour = kernels.find_pairs(pos3, radii, 2)
    dpos = np.zeros((n, 3))
    kernels.pair_pass(_bodies(pos3, vel3, radii, mass, rest, fric), first, neighbour, dpos)
    p = centers.copy()
    v = vel.copy()
    pairs = 0
    for i in range(n):
        for j in range(i + 1, n):
            hit = contact(Circle(p[i], radii[i]), Circle(p[j], radii[j]))
            if hit is None:
                continue
            pairs += 1
            nrm = np.array(hit.normal)
            total = 1 / mass[i] + 1 / mass[j]
            p[i] += nrm * hit.depth * (1 / mass[i]) / total
            p[j] -= nrm * hit.depth * (1 / mass[j]) / total
            rv = v[i] - v[j]
            vn = rv @ nrm
            if vn < 0:
                impulse = -(1 + max(rest[i], rest[j])) * vn / total
                mu = math.sqrt(fric[i] * fric[j])
                jv = impulse * nrm - mu * (rv - vn * nrm) / total
                v[i] += jv / mass[i]
                v[j] -= jv / mass[j]
    assert pairs > 5
    assert pos3[:, :2] + dpos[:, :2] == pytest.approx(p, abs=PARITY)
    assert vel3[:, :2] == pytest.approx(v, abs=PARITY)


def test_a_pair_pass_never_adds_energy_or_momentum() -> None:
    rng = np.random.default_rng(4)
    n = 200
    pos = np.zeros((n, 3))
    pos[:, :2] = rng.uniform(0, 40, (n, 2))
    vel = np.zeros((n, 3))
    vel[:, :2] = rng.uniform(-100, 100, (n, 2))
    radii = rng.uniform(1, 3, n)
    mass = rng.uniform(0.5, 4, n)
    first, neighbour = kernels.find_pairs(pos, radii, 2)
    before = (0.5 * mass[:, None] * vel ** 2).sum()
    momentum = (mass[:, None] * vel).sum(axis=0)
    kernels.pair_pass(_bodies(pos, vel, radii, mass, np.ones(n), np.zeros(n)), first,
                      neighbour, np.zeros((n, 3)))
    assert (0.5 * mass[:, None] * vel ** 2).sum() <= before * (1 + 1e-12)
    assert (mass[:, None] * vel).sum(axis=0) == pytest.approx(momentum, abs=1e-9)


@pytest.mark.parametrize("dim", [2, 3])
def test_find_pairs_matches_brute_force(dim: int) -> None:
    rng = np.random.default_rng(11 + dim)
    n = 300
    pos = np.zeros((n, 3))
    pos[:, :dim] = rng.uniform(0, 100, (n, dim))
    pos[:5, 0] += 1e6  # a few far away: the sparse grid path
    radii = rng.uniform(0.5, 4, n)
    for scene in (pos, pos[5:]):
        m = scene.shape[0]
        r = radii[:m]
        first, neighbour = kernels.find_pairs(np.ascontiguousarray(scene), r, dim)
        for i in range(m):
            d = np.sqrt(((scene - scene[i]) ** 2).sum(axis=1))
            reach = (r + r[i]) * (1 + kernels.PAIR_MARGIN_FRACTION)
            expected = sorted(set(np.flatnonzero(d <= reach)) - {i})
            assert list(neighbour[first[i]:first[i + 1]]) == expected


def test_path_crossings_match_the_scalar_distance() -> None:
    rng = np.random.default_rng(5)
    walls = [Segment(a, a + rng.uniform(-30, 30, 2)) for a in rng.uniform(0, 100, (30, 2))]
    walls.append(Capsule((10, 10), (40, 60), 3.0))
    starts = rng.uniform(0, 100, (200, 2))
    ends = starts + rng.uniform(-20, 20, (200, 2))
    got = path_crossings(walls, starts, ends)
    for k in range(200):
        path = Segment(starts[k], ends[k])
        assert got[k] == any(distance(path, w) <= 0.0 for w in walls)


def test_add_balls_equals_adding_bodies() -> None:
    rng = np.random.default_rng(9)
    c = rng.uniform(0, 100, (30, 2))
    r = rng.uniform(1, 4, 30)
    v = rng.uniform(-500, 500, (30, 2))
    sims = [Simulation(gravity=(0, 100)) for _ in range(2)]
    for sim in sims:
        _box_walls(sim, -10, -10, 110, 110)
    sims[0].add_balls(c, r, v, restitution=0.5, ccd="swept")
    for k in range(30):
        sims[1].add(Body(Circle(c[k], r[k]), v[k], restitution=0.5, ccd="swept"))
    for sim in sims:
        sim.run(10)
    assert sims[0].positions.tobytes() == sims[1].positions.tobytes()
    assert sims[0].bodies[3].ccd == "swept"


def test_walls_added_moved_or_removed_between_steps_are_seen() -> None:
    sim = Simulation(step=STEP)
    ball = sim.add(Body(Circle((0.0, 0.0), 1.0), (600.0, 0.0), restitution=1.0, ccd="swept"))
    sim.run(1)
    assert ball.velocity.x == 600.0
    # a wall now stands in the way: the next step bounces off it
    handle = sim.world.add(Segment((14.0, -5.0), (14.0, 5.0)))
    sim.run(1)
    assert ball.velocity.x == -600.0
    # moved behind the ball (now at x = 6, heading back): the second step meets it
    sim.world.move(handle, Segment((-10.0, -5.0), (-10.0, 5.0)))
    sim.run(2)
    assert ball.velocity.x == 600.0
    # removed: nothing more to meet
    sim.world.remove(handle)
    sim.run(3)
    assert ball.velocity.x == 600.0 and ball.caught == 2


def test_speculative_sphere_stops_on_a_3d_capsule() -> None:
    sim = Simulation(gravity=(0.0, 0.0, 0.0), step=STEP)
    sim.world.add(Capsule((-5.0, 0.0, 0.0), (5.0, 0.0, 0.0), 0.5))
    ball = sim.add(Body(Sphere((0.0, 10.0, 0.0), 0.5), (0.0, -3000.0, 0.0), ccd="speculative"))
    sim.run(30)
    assert ball.missed == 0 and ball.caught >= 1
    assert ball.position.y == pytest.approx(1.0, abs=1e-9)


def test_bench_runs_each_script_side_by_side_and_skips_a_missing_one(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    import json

    from swept import bench

    (tmp_path / "bench_sim.py").write_text(
        "def run(quick=False):\n"
        "    return {'quick': quick, 'rows': [1, 2]}\n"
        "def print_table(result):\n"
        "    print('TABLE', result['rows'])\n")
    monkeypatch.setattr(bench, "benchmarks_dir", lambda: tmp_path)
    out = tmp_path / "all.json"
    assert bench.main(["--quick", "--json", str(out)]) == 0
    text = capsys.readouterr().out
    assert "TABLE [1, 2]" in text
    assert "skipped" in text  # bench_world_rays.py is not in the folder
    result = json.loads(out.read_text())
    assert result["benchmarks"]["sim"] == {"quick": True, "rows": [1, 2]}
    assert "world_rays" in result["skipped"]


def _speculative_reference(shape: Circle, v: tuple[float, float], walls: list[Segment],
                           e: float, f: float) -> tuple[Circle, tuple[float, ...]]:
    """One speculative step of one ball by the scalar API: clamp the approach into every wall
    within reach so that it closes at most the gap, bounce at arrival, then move."""
    speed = math.hypot(*v)
    reach = speed * STEP + kernels.SPECULATIVE_MARGIN_FRACTION * shape.radius
    u = np.array(v, float)
    bounce = tuple(v)
    for _ in range(kernels.SPECULATIVE_ITERATIONS):
        clamped = False
        for wall in walls:
            hit = contact(Circle(shape.center, shape.radius + reach), wall)
            if hit is None:
                # out of this step's reach
                continue
            n = np.array(hit.normal)
            allowed = -max(reach - hit.depth, 0.0) / STEP
            if u @ n < allowed:
                u += (allowed - u @ n) * n
                clamped = True
                bounce = tuple(respond(bounce, hit.normal, e, f))
        if not clamped:
            break
    return shape.translated(u * STEP), bounce


def test_speculative_mode_matches_a_scalar_reference() -> None:
    walls = [Segment((0, 0), (300, 0)), Segment((300, 0), (300, 300)),
             Segment((0, 300), (300, 300)), Segment((0, 0), (0, 300)),
             Segment((100, 100), (200, 180))]
    starts = [((40.0, 40.0), 6.0, (2500.0, 1900.0), 0.8, 0.1),
              ((250.0, 250.0), 4.0, (-3000.0, -700.0), 1.0, 0.0)]
    sims = [Simulation(step=STEP) for _ in starts]
    for sim in sims:
        for w in walls:
            sim.world.add(w)
    bodies = [sim.add(Body(Circle(c, r), v, restitution=e, friction=f, ccd="speculative"))
              for sim, (c, r, v, e, f) in zip(sims, starts)]
    ref = [(Circle(c, r), v, e, f) for c, r, v, e, f in starts]
    for _ in range(40):
        for sim in sims:
            sim.step()
        for k, (shape, v, e, f) in enumerate(ref):
            shape, v = _speculative_reference(shape, v, walls, e, f)
            ref[k] = (shape, v, e, f)
            assert tuple(bodies[k].position) == pytest.approx(tuple(shape.center), abs=PARITY)
            assert tuple(bodies[k].velocity) == pytest.approx(v, abs=PARITY)


@pytest.mark.parametrize("threaded_passes", [False, True])
def test_any_split_of_the_range_kernels_gives_the_same_bits(
        monkeypatch: pytest.MonkeyPatch, threaded_passes: bool) -> None:
    """Each range kernel writes only its own bodies' rows, so running it over any chunks of
    the bodies (as the threaded runner does) gives the bits of one call over all of them, and
    so does the whole step in one compiled call (one thread, or threaded_passes False: fewer
    bodies than SIM_PARALLEL_MIN)."""
    import swept.sim as sim_module
    from swept._kernels import sim as sim_kernels

    def chunked(size: int) -> Any:
        def run(kernel: Any, n: int, args: tuple[Any, ...], **_options: Any) -> None:
            # uneven chunks, the last one first: no order between chunks is promised
            starts = list(range(0, n, size))
            for first in reversed(starts):
                kernel(first, min(n, first + size), *args)
        return run

    runs = []
    monkeypatch.setattr(sim_module, "SIM_PARALLEL_MIN", 0 if threaded_passes else 10**9)
    # the threaded step whenever it is allowed (not the one call the step's timings may favour)
    monkeypatch.setattr(sim_module, "either_way",
                        lambda key, n, serial, threaded, **_options: threaded())
    for size in (None, 10**9, 1, 7, 64):
        # None: one thread, the whole step in one call; else threads, chunks of ``size``
        monkeypatch.setattr(sim_module, "threads", lambda s=size: 1 if s is None else 3)
        if size is not None:
            monkeypatch.setattr(sim_module, "parallel_for", chunked(size))
            monkeypatch.setattr(sim_kernels, "parallel_for", chunked(size))
        sim = _busy_scene()
        sim.run(20)
        runs.append((sim.positions.tobytes(), sim.velocities.tobytes(), sim.caught.tobytes(),
                     sim.missed.tobytes()))
    assert all(run == runs[0] for run in runs[1:])


def _one_call_then_threaded(monkeypatch: pytest.MonkeyPatch, passes: int,
                            called: list[Any]) -> list[tuple[bytes, ...]]:
    """The busy scene's positions, velocities and counters after 12 steps of ``passes`` passes,
    first in the one compiled call, then in the threaded step with its range kernels cut into
    uneven chunks of 7 run last first (each kernel the runner is given appended to
    ``called``)."""
    import swept.sim as sim_module
    from swept._kernels import sim as sim_kernels

    def chunked(kernel: Any, n: int, args: tuple[Any, ...], **_options: Any) -> None:
        called.append(kernel)
        for first in reversed(range(0, n, 7)):
            kernel(first, min(n, first + 7), *args)

    monkeypatch.setattr(sim_module, "SIM_PARALLEL_MIN", 0)
    monkeypatch.setattr(sim_module, "either_way",
                        lambda key, n, serial, threaded, **_options: threaded())
    runs = []
    for threaded in (False, True):
        monkeypatch.setattr(sim_module, "threads", lambda t=threaded: 3 if t else 1)
        if threaded:
            monkeypatch.setattr(sim_module, "parallel_for", chunked)
            monkeypatch.setattr(sim_kernels, "parallel_for", chunked)
        sim = _busy_scene()
        sim.passes = passes
        sim.run(12)
        runs.append((sim.positions.tobytes(), sim.velocities.tobytes(), sim.caught.tobytes(),
                     sim.missed.tobytes()))
    return runs


def test_the_threaded_steps_chunks_call_the_kernels_entry_points(
        monkeypatch: pytest.MonkeyPatch) -> None:
    """Each chunk of the threaded step's range kernels calls the kernel's compiled entry point
    for the step's argument types (``step_range``: ``batch_entry`` under ``STEP_ENTRY_KEY``),
    not numba's dispatcher, which resolves the types of the scene, bodies and scratch at every
    call; an entry point checks no types, so the step must pass the very types it was
    resolved for at every step (its lists after the move, ``StepLists``, kept from step to
    step among them): the bits of the one compiled call, step after step."""
    from swept._fast import _batch_entries
    from swept._kernels import sim as sim_kernels
    from swept._kernels import solver

    called: list[Any] = []
    runs = _one_call_then_threaded(monkeypatch, 6, called)
    assert runs[0] == runs[1]
    key = sim_kernels.STEP_ENTRY_KEY
    kernels = {sim_kernels.advance_range, sim_kernels.forward_range, sim_kernels.resolve_range,
               sim_kernels.approaches_range}
    # every step: the move, the scan, the first pass's push-outs, the bookkeeping, each
    # through its entry point (the contacts' listing: a closure calling its own)
    assert {_batch_entries[(kernel, key)] for kernel in kernels} <= set(called)
    assert (solver.contacts_range, key) in _batch_entries
    assert not kernels & set(called)


@pytest.mark.parametrize("passes", [1, 2, 6])
def test_the_threaded_rest_of_the_step_gives_the_one_calls_bits_at_any_pass_count(
        monkeypatch: pytest.MonkeyPatch, passes: int) -> None:
    """The threaded step runs the rest of the step after the move as pieces (the pair scan,
    the first pass's push-outs and the bookkeeping on the threads; the lists, the first pair
    pass and the later passes in two serial calls between them): the pass count decides
    where the first pass ends and the later ones begin (one pass: only its list carried on),
    so each count must give the bits of the one compiled call, with the range kernels cut
    into uneven chunks run last first."""
    runs = _one_call_then_threaded(monkeypatch, passes, [])
    assert runs[0] == runs[1]


def test_bench_reports_a_failing_script_and_runs_the_rest(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    from swept import bench

    (tmp_path / "bench_world_rays.py").write_text(
        "def run(quick=False):\n    raise RuntimeError('boom')\n")
    (tmp_path / "bench_sim.py").write_text("def run(quick=False):\n    return {'ok': 1}\n")
    monkeypatch.setattr(bench, "benchmarks_dir", lambda: tmp_path)
    assert bench.main(["--quick", "--json", str(tmp_path / "out.json")]) == 1
    text = capsys.readouterr().out
    assert "failed: RuntimeError: boom" in text and '"ok": 1' in text


def _fence_run(crossing_walls: bool) -> tuple[Simulation, list[float]]:
    """A fast ball inside a 48-sided fence of short walls (layer 1), with or without 40
    chords across it on layer 2 (which the ball's mask leaves out); the ball's distance from
    the centre after each of 120 steps."""
    sim = Simulation(step=STEP)
    sides = 48
    for k in range(sides):
        a = 30.0 * np.array([math.cos(2 * math.pi * k / sides), math.sin(2 * math.pi * k / sides)])
        b = 30.0 * np.array([math.cos(2 * math.pi * (k + 1) / sides),
                             math.sin(2 * math.pi * (k + 1) / sides)])
        sim.world.add(Segment(a, b), layer=1)
    if crossing_walls:
        rng = np.random.default_rng(3)
        for _ in range(40):
            t = rng.uniform(0.0, 2 * math.pi, 2)
            sim.world.add(Segment(25.0 * np.array([math.cos(t[0]), math.sin(t[0])]),
                                  25.0 * np.array([math.cos(t[1]), math.sin(t[1])])), layer=2)
    body = sim.add(Body(Circle((3.0, -2.0), 2.0), (2400.0, 1700.0), restitution=1.0,
                        ccd="swept", mask=1))
    reach = []
    for _ in range(120):
        sim.run(1)
        reach.append(float(np.hypot(*body.position)))
    return sim, reach


def test_a_body_among_more_colliders_than_its_cache_holds() -> None:
    """A body whose box holds more colliders than its cache row (kernels.CACHE_CAPACITY) has
    its candidates gathered again, filtered by its mask, into a buffer that holds them all:
    it bounces off every wall of its layers (never leaving the fence) and passes through the
    others as if they were not there (the same bits as without them)."""
    assert kernels.CACHE_CAPACITY < 48
    fenced, reach = _fence_run(False)
    crossed, reach_crossed = _fence_run(True)
    # the fence's walls are 30 from the centre at their ends, 29.9 at their middles
    assert max(reach) < 30.0 - 2.0 + 1e-9
    assert fenced.missed_total == 0 and fenced.caught_total > 20
    assert reach_crossed == reach
    assert crossed.positions.tobytes() == fenced.positions.tobytes()
    assert crossed.missed_total == 0 and crossed.caught_total == fenced.caught_total
