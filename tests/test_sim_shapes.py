"""Capsule, box and convex-polygon Simulation bodies (issue 12, item 7): 2D bodies that do not
rotate, with the balls' three ccd modes and guarantees (no tunneling in swept mode, never
inside a static at a step's end), body-body contacts along the two shapes' own normal,
friction and restitution, events, sleeping, removal, impulses, position and velocity."""

from __future__ import annotations

import math
import subprocess
import sys
import textwrap
from pathlib import Path

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from swept import AABB, Capsule, Circle, Polygon, Segment, Sphere, contact
from swept.constants import MAX_BODY_POLYGON_POINTS
from swept.events import KIND_COLLIDER
from swept.sim import Body, Simulation

G = 980.0
STEP = 1.0 / 60.0


def _floor(gravity: float = G, **kwargs: object) -> Simulation:
    """A y-up simulation with a long floor segment on y = 0."""
    sim = Simulation(gravity=(0.0, -gravity), **kwargs)  # type: ignore[arg-type]
    sim.world.add(Segment((-1e4, 0.0), (1e4, 0.0)))
    return sim


def _not_inside(sim: Simulation, body: Body) -> None:
    """The body overlaps no collider of the world by more than rounding."""
    shape = body.shape
    for h in sim.world.handles():
        c = contact(shape, sim.world.shape(h))
        assert c is None or c.depth <= 1e-9 * max(1.0, abs(body.position[0]),
                                                  abs(body.position[1])), (h, c)


# ----------------------------------------------------------------------------- construction


def test_a_box_body_keeps_its_shape_and_reports_it_where_it_is() -> None:
    box = Body(AABB((1.0, 2.0), (5.0, 4.0)), (3.0, 0.0))
    assert tuple(box.position) == (3.0, 3.0)
    assert box.radius == pytest.approx(math.hypot(2.0, 1.0), abs=1e-15)
    assert box.shape == AABB((1.0, 2.0), (5.0, 4.0))
    sim = Simulation(gravity=(0.0, 0.0))
    sim.add(box)
    sim.run(60)
    assert tuple(box.position) == pytest.approx((6.0, 3.0), abs=1e-12)
    assert isinstance(box.shape, AABB)
    assert tuple(box.shape.min) == pytest.approx((4.0, 2.0), abs=1e-12)
    assert tuple(box.shape.max) == pytest.approx((8.0, 4.0), abs=1e-12)


def test_capsule_and_polygon_bodies_sit_at_their_middle() -> None:
    cap = Body(Capsule((0.0, 0.0), (4.0, 0.0), 1.0))
    assert tuple(cap.position) == (2.0, 0.0)
    assert cap.radius == 3.0
    tri = Body(Polygon([(0.0, 0.0), (3.0, 0.0), (0.0, 3.0)]))
    assert tuple(tri.position) == pytest.approx((1.0, 1.0), abs=1e-15)
    tri.position = (11.0, 1.0)
    assert tri.shape == Polygon([(10.0, 0.0), (13.0, 0.0), (10.0, 3.0)])
    assert cap.shape == Capsule((0.0, 0.0), (4.0, 0.0), 1.0)


def test_bad_body_shapes_are_clear_errors() -> None:
    with pytest.raises(TypeError, match="shape"):
        Body(Segment((0.0, 0.0), (1.0, 0.0)))  # type: ignore[arg-type]
    with pytest.raises(TypeError, match="3D Capsule"):
        Body(Capsule((0.0, 0.0, 0.0), (1.0, 0.0, 0.0), 1.0))
    with pytest.raises(TypeError, match="3D AABB"):
        Body(AABB((0.0, 0.0, 0.0), (1.0, 1.0, 1.0)))
    with pytest.raises(ValueError, match="shape: a box body"):
        Body(AABB((0.0, 0.0), (1.0, 0.0)))
    with pytest.raises(ValueError, match="shape"):
        Body(Capsule((0.0, 0.0), (0.0, 0.0), 0.0))
    many = Polygon.regular(MAX_BODY_POLYGON_POINTS + 1, 10.0)
    with pytest.raises(ValueError, match="at most"):
        Body(many)
    with pytest.raises(ValueError, match="velocity"):
        Body(AABB((0.0, 0.0), (1.0, 1.0)), (1.0, 2.0, 3.0))
    with pytest.raises(ValueError, match="ccd"):
        Body(AABB((0.0, 0.0), (1.0, 1.0)), ccd="sometimes")
    sim3 = Simulation(gravity=(0.0, 0.0, 0.0))
    with pytest.raises(ValueError, match="2D body"):
        sim3.add(Body(AABB((0.0, 0.0), (1.0, 1.0))))


# ----------------------------------------------------------------------------- landing


@pytest.mark.parametrize("ccd", ["discrete", "swept", "speculative"])
@pytest.mark.parametrize("scale", [1e-3, 1.0, 1e4])
def test_a_box_lands_on_a_floor_at_its_half_height(ccd: str, scale: float) -> None:
    """A box of half-height h dropped on a floor at y = 0 rests with its middle at y = h (the
    solver's speculative contact closes the gap exactly, the passes push out the rest). The
    drop is short enough that even the naive mode's step (0.55 h) leaves the middle above."""
    h = 0.5 * scale
    sim = _floor(G * scale)
    box = sim.add(Body(AABB((-scale, 0.5 * scale), (scale, 1.5 * scale)), ccd=ccd))
    sim.run(180)
    assert box.position[1] == pytest.approx(h, rel=1e-9)
    assert box.position[0] == pytest.approx(0.0, abs=1e-9 * scale)
    assert abs(box.velocity[1]) <= 1e-9 * scale
    assert box.sleeping


def test_a_triangle_lands_on_its_lowest_corner() -> None:
    sim = _floor()
    tri = sim.add(Body(Polygon([(0.0, 10.0), (6.0, 10.0), (3.0, 16.0)]), ccd="swept"))
    sim.run(120)
    low = min(p[1] for p in tri.shape.points)  # type: ignore[attr-defined]
    assert low == pytest.approx(0.0, abs=1e-9)
    assert tri.position[1] == pytest.approx(2.0, abs=1e-9)


def test_a_capsule_lying_down_lands_at_its_radius() -> None:
    sim = _floor()
    cap = sim.add(Body(Capsule((0.0, 20.0), (8.0, 20.0), 1.5), ccd="swept"))
    sim.run(120)
    assert cap.position[1] == pytest.approx(1.5, abs=1e-9)
    assert cap.position[0] == pytest.approx(4.0, abs=1e-9)


# ----------------------------------------------------------------------------- tunneling


def _thin_wall_sim(ccd: str, speed: float, half: float = 0.5) -> tuple[Simulation, Body]:
    """A box moving at ``speed`` toward a wall 0.01 thick at x = 100 (no gravity)."""
    sim = Simulation(gravity=(0.0, 0.0))
    sim.world.add(AABB((100.0, -50.0), (100.01, 50.0)))
    box = sim.add(Body(AABB((-half, -half), (half, half)), (speed, 0.0), ccd=ccd))
    return sim, box


@pytest.mark.parametrize("ccd", ["swept", "speculative"])
def test_a_fast_box_never_tunnels_through_a_thin_wall(ccd: str) -> None:
    sim, box = _thin_wall_sim(ccd, 1e4)
    sim.run(30)
    assert box.position[0] <= 100.0 - 0.5 + 1e-9
    assert sim.missed_total == 0
    assert sim.caught_total >= 1
    _not_inside(sim, box)


def test_a_fast_discrete_box_does_tunnel() -> None:
    """The check above can fail: the naive mode moves 166 units a step, past the wall."""
    sim, box = _thin_wall_sim("discrete", 1e4)
    sim.run(30)
    assert box.position[0] > 100.01
    assert sim.missed_total >= 1


@settings(max_examples=40, deadline=None)
@given(speed=st.floats(1.0, 1e5), angle=st.floats(-1.2, 1.2), half=st.floats(0.05, 20.0),
       kind=st.sampled_from(["box", "capsule", "triangle"]))
def test_swept_shapes_never_cross_a_thin_wall(speed: float, angle: float, half: float,
                                              kind: str) -> None:
    """Any speed, any heading toward the wall, any size: a swept body never ends past the
    wall nor inside it, and never misses an approach."""
    sim = Simulation(gravity=(0.0, 0.0))
    sim.world.add(AABB((100.0, -1e4), (100.01, 1e4)))
    if kind == "box":
        shape: AABB | Capsule | Polygon = AABB((-half, -half), (half, half))
    elif kind == "capsule":
        shape = Capsule((0.0, -half), (0.0, half), 0.5 * half)
    else:
        shape = Polygon([(-half, -half), (half, 0.0), (-half, half)])
    v = (speed * math.cos(angle), speed * math.sin(angle))
    body = sim.add(Body(shape, v, ccd="swept", restitution=0.5))
    sim.run(20)
    right = max(p for p in _xs(body.shape))
    assert right <= 100.0 + 1e-9 * max(1.0, abs(body.position[1]))
    assert sim.missed_total == 0
    _not_inside(sim, body)


def _xs(shape: object) -> list[float]:
    """The x coordinates of a body shape's extreme points."""
    box = shape.aabb  # type: ignore[attr-defined]
    return [box.min[0], box.max[0]]


# ----------------------------------------------------------------------------- body pairs


def test_a_box_stack_stands_still() -> None:
    """Three boxes dropped one on another: each rests on the one below, at 1, 3 and 5."""
    sim = _floor()
    boxes = [sim.add(Body(AABB((-2.0, 1.0 + 3.0 * k), (2.0, 3.0 + 3.0 * k)), ccd="swept"))
             for k in range(3)]
    sim.run(300)
    heights = [b.position[1] for b in boxes]
    assert heights == pytest.approx([1.0, 3.0, 5.0], abs=2e-3)
    for b in boxes:
        assert b.position[0] == pytest.approx(0.0, abs=1e-9)
        assert abs(b.velocity[1]) < 1e-6
        assert b.sleeping


def test_boxes_meeting_side_on_part_along_the_face_normal() -> None:
    """Two boxes meeting face to face, offset in y: the contact's normal is the face's (x),
    not the line of their centres, so neither is pushed up or down."""
    sim = Simulation(gravity=(0.0, 0.0))
    a = sim.add(Body(AABB((-2.0, 0.0), (0.0, 2.0)), (60.0, 0.0), ccd="swept"))
    b = sim.add(Body(AABB((1.0, 1.5), (3.0, 3.5)), ccd="swept"))
    seen = []
    sim.on_contact_begin(lambda events: seen.append(events.copy()))
    sim.run(20)
    assert a.velocity[1] == 0.0 and b.velocity[1] == 0.0
    assert a.position[1] == 1.0 and b.position[1] == 2.5
    # momentum kept: equal masses, perfectly inelastic by default
    assert a.velocity[0] + b.velocity[0] == pytest.approx(60.0, abs=1e-9)
    pair = [e for events in seen for e in events if e["other"] >= 0]
    assert pair, "the two boxes' contact began"
    assert tuple(pair[0]["normal"][:2]) == pytest.approx((-1.0, 0.0), abs=1e-12)


def test_elastic_boxes_swap_velocities() -> None:
    sim = Simulation(gravity=(0.0, 0.0))
    a = sim.add(Body(AABB((-2.0, 0.0), (0.0, 2.0)), (60.0, 0.0), restitution=1.0))
    b = sim.add(Body(AABB((1.0, 0.0), (3.0, 2.0)), restitution=1.0))
    sim.run(10)
    assert tuple(a.velocity) == pytest.approx((0.0, 0.0), abs=1e-9)
    assert tuple(b.velocity) == pytest.approx((60.0, 0.0), abs=1e-9)


def test_a_ball_resting_on_a_box_rests_at_the_sum_of_sizes() -> None:
    sim = _floor()
    box = sim.add(Body(AABB((-3.0, 0.0), (3.0, 2.0)), ccd="swept"))
    ball = sim.add(Body(Circle((0.5, 6.0), 1.0), ccd="swept"))
    sim.run(240)
    assert box.position[1] == pytest.approx(1.0, abs=1e-9)
    assert ball.position[1] == pytest.approx(3.0, abs=2e-3)
    assert ball.position[0] == pytest.approx(0.5, abs=1e-9)


def test_a_capsule_on_a_box_edge_contacts_along_the_true_normal() -> None:
    """A capsule lying across a box's top corner region: pushed straight up by the face."""
    sim = Simulation(gravity=(0.0, -G))
    sim.world.add(AABB((-10.0, -1.0), (10.0, 0.0)))
    cap = sim.add(Body(Capsule((-3.0, 4.0), (3.0, 4.0), 1.0), ccd="speculative"))
    sim.run(120)
    assert cap.position[1] == pytest.approx(1.0, abs=1e-9)
    assert cap.position[0] == pytest.approx(0.0, abs=1e-9)


# ----------------------------------------------------------------------------- slopes, friction


def _slope_sim(degrees: float) -> tuple[Simulation, float]:
    """A y-up world with a straight slope through the origin falling to the right."""
    sim = Simulation(gravity=(0.0, -G))
    a = math.radians(degrees)
    d = (math.cos(a), -math.sin(a))
    sim.world.add(Segment((-1e3 * d[0], -1e3 * d[1]), (1e3 * d[0], 1e3 * d[1])))
    return sim, a


def test_a_frictionless_capsule_slides_down_a_slope_on_its_surface() -> None:
    sim, a = _slope_sim(30.0)
    n = (math.sin(a), math.cos(a))
    r = 1.0
    cap = sim.add(Body(Capsule((-1.0 * n[1] + r * n[0], 1.0 * n[0] + r * n[1]),
                               (1.0 * n[1] + r * n[0], -1.0 * n[0] + r * n[1]), r),
                       ccd="swept", friction=0.0))
    sim.run(60)
    x, y = cap.position
    # it stays on the slope: its middle one radius above the line
    assert x * n[0] + y * n[1] == pytest.approx(r, abs=1e-6)
    # and slides down it at about g sin(a) (semi-implicit Euler: within a step's error)
    along = x * math.cos(a) - y * math.sin(a)
    assert along == pytest.approx(0.5 * G * math.sin(a) * 1.0 ** 2, rel=0.03)


def test_friction_holds_a_box_on_a_gentle_slope() -> None:
    """Coulomb: friction 0.8 > tan(20 degrees) holds the box; 0 lets it slide."""
    for friction, held in ((0.8, True), (0.0, False)):
        sim, a = _slope_sim(20.0)
        n = (math.sin(a), math.cos(a))
        c = (n[0] * 1.0, n[1] * 1.0)
        box = sim.add(Body(Polygon.box(1.0, 1.0, c, -a), ccd="swept", friction=friction))
        sim.run(120)
        moved = math.hypot(box.position[0] - c[0], box.position[1] - c[1])
        assert (moved < 0.05) == held, (friction, moved)


# ----------------------------------------------------------------------------- events, sleep


def test_a_landing_box_reports_its_contact_with_the_floor() -> None:
    sim = _floor()
    box = sim.add(Body(AABB((-1.0, 5.0), (1.0, 7.0)), ccd="swept"))
    began = []
    sim.on_contact_begin(lambda events: began.append(events.copy()))
    sim.run(60)
    assert box.position[1] == pytest.approx(1.0, abs=1e-9)
    first = began[0][0]
    assert first["body"] == 0 and first["other"] == 0 and first["kind"] == KIND_COLLIDER
    assert tuple(first["normal"][:2]) == pytest.approx((0.0, 1.0), abs=1e-12)
    assert first["point"][1] == pytest.approx(0.0, abs=1e-9)
    assert first["approach"] > 0.0


def test_a_box_in_a_sensor_is_reported() -> None:
    sim = Simulation(gravity=(0.0, 0.0))
    sensor = sim.world.add(AABB((10.0, -5.0), (12.0, 5.0)), sensor=True)
    sim.add(Body(AABB((-1.0, -1.0), (1.0, 1.0)), (600.0, 0.0), ccd="swept"))
    began = []
    sim.on_sensor_begin(lambda events: began.append(events.copy()))
    sim.run(3)
    assert len(began) == 1 and began[0][0]["other"] == sensor


def test_a_resting_box_sleeps_and_wakes_on_an_impulse() -> None:
    sim = _floor()
    box = sim.add(Body(AABB((-1.0, 0.0), (1.0, 2.0)), ccd="swept"))
    sim.run(60)
    assert box.sleeping
    box.apply_impulse((0.0, 300.0))
    assert not box.sleeping
    assert tuple(box.velocity) == (0.0, 300.0)
    sim.run(1)
    assert box.position[1] > 1.0


# ----------------------------------------------------------------------------- edits


@pytest.mark.parametrize("shape", [AABB((-1.0, -1.0), (1.0, 1.0)),
                                   Capsule((-1.0, 0.0), (1.0, 0.0), 0.5),
                                   Polygon([(-1.0, -1.0), (1.0, -1.0), (0.0, 1.0)]),
                                   Circle((0.0, 0.0), 1.0)])
def test_remove_impulse_position_velocity_for_every_shape(shape: object) -> None:
    sim = Simulation(gravity=(0.0, 0.0))
    other = sim.add(Body(Circle((50.0, 50.0), 1.0)))
    body = sim.add(Body(shape, mass=2.0))  # type: ignore[arg-type]
    start = tuple(body.position)
    sim.apply_impulse(body, (4.0, 0.0))
    assert tuple(body.velocity) == (2.0, 0.0)
    body.velocity = (0.0, 6.0)
    body.position = (start[0] + 10.0, start[1])
    sim.run(10)
    assert tuple(body.position) == pytest.approx((start[0] + 10.0, start[1] + 1.0), abs=1e-12)
    assert type(body.shape) is type(shape)
    gone = sim.remove(body)
    assert gone is body and len(sim.bodies) == 1 and other.index == 0
    assert tuple(body.position) == pytest.approx((start[0] + 10.0, start[1] + 1.0), abs=1e-12)
    sim.run(1)
    again = Simulation(gravity=(0.0, 0.0))
    again.add(body)
    again.run(1)
    assert body.position[1] == pytest.approx(start[1] + 1.1, abs=1e-12)


def test_removing_a_shape_body_keeps_the_others_shapes() -> None:
    sim = _floor()
    ball = sim.add(Body(Circle((10.0, 1.0), 1.0)))
    cap = sim.add(Body(Capsule((-1.0, 1.0), (1.0, 1.0), 1.0)))
    box = sim.add(Body(AABB((20.0, 0.0), (24.0, 2.0))))
    sim.remove(ball)
    sim.run(30)
    assert cap.position[1] == pytest.approx(1.0, abs=1e-9)
    assert box.position[1] == pytest.approx(1.0, abs=1e-9)
    assert isinstance(box.shape, AABB) and isinstance(cap.shape, Capsule)


def test_sphere_bodies_are_unchanged_by_shape_bodies_in_2d() -> None:
    sim = Simulation(gravity=(0.0, -G, 0.0))
    ball = sim.add(Body(Sphere((0.0, 5.0, 0.0), 1.0)))
    sim.run(1)
    assert ball.position[1] < 5.0


def test_a_one_way_platform_lets_a_box_up_and_holds_it_from_above() -> None:
    sim = Simulation(gravity=(0.0, -G))
    sim.world.add(Segment((-10.0, 5.0), (10.0, 5.0)), one_way=(0.0, 1.0))
    box = sim.add(Body(AABB((-1.0, 0.0), (1.0, 2.0)), (0.0, 200.0), ccd="swept"))
    sim.run(120)
    assert box.position[1] == pytest.approx(6.0, abs=1e-9)


def test_mixed_bodies_settle_in_a_pile_without_overlap() -> None:
    """Balls, boxes, capsules and triangles dropped into a bin settle with no overlap past the
    solver's slop and nothing inside the walls."""
    sim = _floor()
    sim.world.add(Segment((-20.0, 0.0), (-20.0, 100.0)))
    sim.world.add(Segment((20.0, 0.0), (20.0, 100.0)))
    rng = np.random.default_rng(7)
    bodies = []
    for k in range(24):
        x = -15.0 + 30.0 * rng.random()
        y = 5.0 + 4.0 * k
        which = k % 4
        if which == 0:
            shape: object = Circle((x, y), 1.0)
        elif which == 1:
            shape = AABB((x - 1.0, y - 1.0), (x + 1.0, y + 1.0))
        elif which == 2:
            shape = Capsule((x - 1.0, y), (x + 1.0, y), 0.8)
        else:
            shape = Polygon([(x - 1.2, y - 1.0), (x + 1.2, y - 1.0), (x, y + 1.2)])
        bodies.append(sim.add(Body(shape, ccd="swept", friction=0.3)))  # type: ignore[arg-type]
    sim.run(600)
    assert sim.missed_total == 0
    for i, a in enumerate(bodies):
        _not_inside(sim, a)
        for b in bodies[i + 1:]:
            c = contact(a.shape, b.shape)
            assert c is None or c.depth < 0.05, (i, c)
    assert max(abs(v) for b in bodies for v in b.velocity) < 1.0


# ----------------------------------------------------------------------------- survival

FUZZ = textwrap.dedent(r"""
    import sys
    import numpy as np
    from swept import AABB, Capsule, Polygon
    from swept.sim import Body, Simulation
    sys.path.insert(0, sys.argv[2])
    from shared import add_random_statics

    seed = int(sys.argv[1])
    rng = np.random.default_rng(seed)

    def magnitude(lo=-30.0, hi=50.0):
        # a signed value of any size the contract allows
        return float(rng.choice([-1.0, 1.0]) * 10.0 ** rng.uniform(lo, hi))

    for trial in range(10):
        sim = Simulation(gravity=(magnitude() * rng.integers(0, 2),
                                  magnitude() * rng.integers(0, 2)))
        add_random_statics(sim.world, rng, magnitude)
        center = np.array([magnitude(), magnitude()])
        for _ in range(int(rng.integers(1, 5))):
            if rng.random() > 0.3:
                # not coincident with the last body
                center = np.array([magnitude(), magnitude()])
            # a size the coordinates can hold (a box of width 0 is a ValueError)
            size = max(abs(magnitude()), 1e-9 * float(np.abs(center).max()))
            which = rng.integers(0, 3)
            if which == 0:
                shape = AABB(center - size, center + size)
            elif which == 1:
                shape = Capsule(center - (size, 0.0), center + (size, 0.0), size)
            else:
                shape = Polygon([center + (-size, -size), center + (size, -size),
                                 center + (0.0, size)])
            sim.add(Body(shape, (magnitude(), magnitude()), restitution=float(rng.random()),
                         friction=float(rng.random()),
                         ccd=["discrete", "swept", "speculative"][int(rng.integers(0, 3))]))
        for _ in range(4 if trial else 200):
            sim.step()
            if not (np.isfinite(sim.positions).all() and np.isfinite(sim.velocities).all()):
                print("NON-FINITE", seed, trial, sim.positions, sim.velocities)
                sys.exit(3)
    print("SURVIVED", seed)
""")


@pytest.mark.parametrize("seed", range(3))
def test_random_extreme_shape_bodies_never_crash_nor_give_nan(seed: int) -> None:
    """Random capsules, boxes and triangles at the edges of the input contract (coordinates
    and sizes 1e-30 to 1e50, speeds to 1e50), among random colliders, every ccd mode, run in
    a subprocess (a crash in a kernel would end the process): it survives, every output
    stays finite."""
    done = subprocess.run([sys.executable, "-c", FUZZ, str(seed), str(Path(__file__).parent)],
                          capture_output=True, text=True, timeout=600)
    assert done.returncode == 0, (done.returncode, done.stdout[-2000:], done.stderr[-2000:])
    assert f"SURVIVED {seed}" in done.stdout


def test_a_box_lands_on_a_chain_floor() -> None:
    """A chain's segments meet a shape body as plain segments: a box lands on a chain."""
    from swept import Chain

    sim = Simulation(gravity=(0.0, -G))
    sim.world.add(Chain([(-50.0, 0.0), (0.0, 0.0), (50.0, 0.0)]))
    box = sim.add(Body(AABB((-3.0, 4.0), (-1.0, 6.0)), (30.0, 0.0), ccd="swept"))
    # a second over the seam at x = 0, and off the chain's end only at x = 50
    sim.run(60)
    assert box.position[1] == pytest.approx(1.0, abs=1e-9)
    assert box.position[0] > 0.0
    assert sim.missed_total == 0


def test_a_polygon_body_whose_corners_round_together_still_steps() -> None:
    """A polygon body's corners are its position plus offsets; far from the origin, offsets
    below the rounding of the position put corners on one point, and the swept cast's edge
    normals divided by a zero edge length (a ZeroDivisionError out of the compiled step).
    Such an edge now keeps a zero normal, and the step goes on."""
    sim = Simulation(gravity=(0.0, 0.0))
    sim.world.add(Segment((-1e21, 0.0), (1e21, 0.0)))
    tri = sim.add(Body(Polygon([(0.0, 1.0), (1e-3, 1.0), (0.0, 1.001)]), (0.0, -1e3),
                       ccd="swept"))
    tri.position = (1e20, 5.0)
    sim.run(3)
    assert np.isfinite(sim.positions).all() and np.isfinite(sim.velocities).all()
    assert tri.position[1] >= -1e-9


@pytest.mark.parametrize("restitution", [0.0, 0.5, 1.0])
@pytest.mark.parametrize("shape", ["box", "capsule", "triangle"])
def test_a_paddle_hits_a_swept_shape_body_with_the_closed_form_speed(shape: str,
                                                                     restitution: float) -> None:
    """A shape body's swept move meets a moving collider in relative motion (its move less
    the collider's, as a ball's does): before, the cast met the collider only where it ends
    the step, so a paddle at 50 units a step jumped a small box and the position passes
    pushed it out on the far side. The body leaves at ``(1 + e) v_paddle - e v_body``."""
    from swept import Capsule, Polygon

    sim = Simulation(gravity=(0.0, 0.0))
    paddle = sim.world.add(AABB((-20.0, -100.0), (0.0, 100.0)), moving=True)
    if shape == "box":
        body = AABB((195.0, -5.0), (205.0, 5.0))
    elif shape == "capsule":
        body = Capsule((200.0, -3.0), (200.0, 3.0), 5.0)
    else:
        body = Polygon([(195.0, -5.0), (205.0, 0.0), (195.0, 5.0)])
    b = sim.add(Body(body, (-300.0, 0.0), restitution=restitution, ccd="swept"))
    sim.move_collider(paddle, velocity=(3000.0, 0.0))
    out = (1.0 + restitution) * 3000.0 + restitution * 300.0
    for _ in range(8):
        sim.step()
        front = sim.world.shape(paddle).max[0]
        assert b.shape.aabb.min[0] >= front - 1e-9
    assert b.velocity[0] == pytest.approx(out, rel=1e-12)
    assert b.velocity[1] == pytest.approx(0.0, abs=1e-9)
    assert sim.missed_total == 0


def test_a_platform_carries_a_resting_box() -> None:
    """A box resting on a moving platform (friction 1) rides it: the solver's contact answers
    the platform's velocity, so friction brings the box to the platform's 60 units/s by
    mu g dt = 980/60 a step (16.33, 32.67, 49, then 60: it lags 82/60 units behind), and it
    stays on top. Before, a shape body's contact ignored a collider's velocity."""
    sim = Simulation(gravity=(0.0, 980.0))
    platform = sim.world.add(AABB((0.0, 100.0), (200.0, 110.0)), moving=True)
    box = sim.add(Body(AABB((90.0, 80.0), (110.0, 100.0)), friction=1.0, ccd="swept"))
    sim.run(30)
    sim.move_collider(platform, velocity=(60.0, 0.0))
    sim.run(120)
    assert box.shape.max[1] == pytest.approx(100.0, abs=1e-6)
    assert box.position[0] == pytest.approx(100.0 + 60.0 * 2.0 - 82.0 / 60.0, rel=1e-9)
