"""One-way colliders (issue 12, item 6): solid from the side their direction faces only.

Every query family applies one rule (:mod:`swept.oneway`): a cast stands when it moves against
the direction onto a surface facing it, a contact when its normal faces it. The compiled
kernels, the Python walks (filters, sensors), the Simulation and ``move_and_slide`` must all
answer by it: a body jumps up through a platform and lands on it.
"""

from __future__ import annotations

import pickle

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from swept import AABB, Chain, Circle, Polygon, Ray, Segment, Sphere, World, move_and_slide
from swept import raycast as scalar_raycast
from swept.oneway import one_way_direction, one_way_faces, one_way_stands
from swept.sim import Simulation

UP = (0.0, -1.0)  # 2D: y is down


def _platforms() -> World:
    """A thin platform (handle 0) and a thick one (handle 1), both one-way, facing up."""
    w = World()
    w.add(Segment((-5.0, 0.0), (5.0, 0.0)), one_way=UP)
    w.add(AABB((20.0, 0.0), (30.0, 2.0)), one_way=(0.0, -3.0))
    return w


def test_the_direction_is_made_unit_and_checked() -> None:
    assert one_way_direction((0.0, -3.0), 2) == (0.0, -1.0)
    assert one_way_direction((3.0, 0.0, 4.0), 3) == (0.6, 0.0, 0.8)
    w = _platforms()
    assert w.one_way(1) == (0.0, -1.0)
    assert w.one_way(0) == (0.0, -1.0)
    h = w.add(Circle((0.0, 50.0), 1.0))
    assert w.one_way(h) is None
    for bad in ((0.0, 0.0), (float("nan"), 1.0), (1.0, float("inf"))):
        with pytest.raises(ValueError, match="one_way"):
            w.add(Segment((0.0, 0.0), (1.0, 0.0)), one_way=bad)
    with pytest.raises((ValueError, TypeError), match="one_way"):
        w.add(Segment((0.0, 0.0), (1.0, 0.0)), one_way=(0.0, 1.0, 0.0))
    with pytest.raises(ValueError, match="sensor"):
        w.add(Segment((0.0, 0.0), (1.0, 0.0)), one_way=UP, sensor=True)
    with pytest.raises(ValueError, match="Chain"):
        w.add(Chain([(0.0, 0.0), (1.0, 0.0), (2.0, 1.0)]), one_way=UP)


def test_rules_in_python() -> None:
    assert one_way_stands(None, (0.0, 1.0), (0.0, 1.0))
    assert one_way_stands((0.0, -1.0), (0.0, 1.0), (0.0, -1.0))  # falling onto the top
    assert not one_way_stands((0.0, -1.0), (0.0, -1.0), (0.0, 1.0))  # rising from below
    assert not one_way_stands((0.0, -1.0), (1.0, 0.0), (-1.0, 0.0))  # from the side
    assert one_way_faces((0.0, -1.0), (0.0, -1.0)) and not one_way_faces((0.0, -1.0), (0.0, 1.0))


@pytest.mark.parametrize("kernel", [True, False])
def test_rays_hit_from_above_only(kernel: bool) -> None:
    w = _platforms()
    # the Python walk answers when a filter is given
    kw = {} if kernel else {"filter": lambda h, d: True}
    down = w.raycast(Ray((0.0, -10.0), (0.0, 1.0)), **kw)
    assert down is not None and down.handle == 0 and down.distance == 10.0
    assert tuple(down.normal) == (0.0, -1.0) and tuple(down.point) == (0.0, 0.0)
    assert w.raycast(Ray((0.0, 10.0), (0.0, -1.0)), **kw) is None  # from below
    # the thick platform: from below (its bottom face), from the side, from above
    assert w.raycast(Ray((25.0, 10.0), (0.0, -1.0)), **kw) is None
    assert w.raycast(Ray((10.0, 1.0), (1.0, 0.0)), **kw) is None
    top = w.raycast(Ray((25.0, -4.0), (0.0, 1.0)), **kw)
    assert top is not None and top.handle == 1 and top.distance == 4.0
    assert tuple(top.normal) == (0.0, -1.0)
    # a slanted fall onto the top counts; a slanted rise never does
    slant = w.raycast(Ray((-3.0, -4.0), (0.6, 0.8)), **kw)
    assert slant is not None and slant.distance == pytest.approx(5.0, abs=1e-12)
    assert w.raycast(Ray((-3.0, 4.0), (0.6, -0.8)), **kw) is None
    hits = w.raycast_all(Ray((0.0, 10.0), (0.0, -1.0)))
    assert hits == []
    assert [h.handle for h in w.raycast_all(Ray((0.0, -10.0), (0.0, 1.0)))] == [0]


def test_ray_batches_equal_the_scalar_rule() -> None:
    w = _platforms()
    o = np.array([[0.0, -10.0], [0.0, 10.0], [25.0, 10.0], [25.0, -4.0], [10.0, 1.0]])
    d = np.array([[0.0, 1.0], [0.0, -1.0], [0.0, -1.0], [0.0, 1.0], [1.0, 0.0]])
    batch = w.raycast_many(o, d)
    assert batch.handle.tolist() == [0, -1, -1, 1, -1]
    assert batch.distance[0] == 10.0 and batch.distance[3] == 4.0


def test_sweeps_land_from_above_and_pass_from_below() -> None:
    w = _platforms()
    ball = Circle((0.0, -10.0), 1.0)
    hit = w.sweep(ball, (0.0, 20.0))
    assert hit is not None and hit.handle == 0 and hit.fraction == 0.45
    assert tuple(hit.normal) == (0.0, -1.0)
    assert w.sweep(Circle((0.0, 10.0), 1.0), (0.0, -20.0)) is None
    # a ball resting on the top, pushed down: touching at 0; pushed up or along: free
    rest = Circle((0.0, -1.0), 1.0)
    stay = w.sweep(rest, (0.0, 3.0))
    assert stay is not None and stay.fraction == 0.0 and stay.started_inside
    assert w.sweep(rest, (0.0, -3.0)) is None and w.sweep(rest, (3.0, 0.0)) is None
    # a ball half through from below, still rising: free
    assert w.sweep(Circle((0.0, 0.5), 1.0), (0.0, -3.0)) is None
    # a box mover (the convex kernels) and its Python walk
    box = AABB((23.0, -6.0), (25.0, -4.0))
    for kw in ({}, {"filter": lambda h, d: True}):
        got = w.sweep(box, (0.0, 8.0), **kw)
        assert got is not None and got.handle == 1 and got.fraction == 0.5
        assert w.sweep(AABB((23.0, 4.0), (25.0, 6.0)), (0.0, -8.0), **kw) is None
    many = w.sweep_many(np.array([[0.0, -10.0], [0.0, 10.0]]), np.array([1.0, 1.0]),
                        np.array([[0.0, 20.0], [0.0, -20.0]]))
    assert many.handle.tolist() == [0, -1] and many.fraction[0] == 0.45


def test_contacts_push_up_only() -> None:
    w = _platforms()
    sunk = w.contacts(Circle((0.0, -0.5), 1.0))
    assert [(c.handle, tuple(c.normal), c.depth) for c in sunk] == [(0, (0.0, -1.0), 0.5)]
    assert w.contacts(Circle((0.0, 0.5), 1.0)) == []  # under the platform
    # the overlap queries still see it
    assert w.query_point((0.0, 0.0)) == [0]
    assert w.query_aabb(AABB((24.0, 1.0), (26.0, 3.0))) == [1]
    batch = w.contact_many(np.array([[0.0, -0.5], [0.0, 0.5]]), np.array([1.0, 1.0]))
    assert batch.handle.tolist() == [0, -1] and batch.depth[0] == 0.5


def test_move_remove_and_pickle_keep_the_rule() -> None:
    w = _platforms()
    w.move(0, Segment((-5.0, 10.0), (5.0, 10.0)))
    assert w.one_way(0) == (0.0, -1.0)
    hit = w.raycast(Ray((0.0, 0.0), (0.0, 1.0)))
    assert hit is not None and hit.distance == 10.0
    assert w.raycast(Ray((0.0, 20.0), (0.0, -1.0))) is None
    back = pickle.loads(pickle.dumps(w))
    assert back.one_way(0) == (0.0, -1.0) and back.one_way(1) == (0.0, -1.0)
    assert back.raycast(Ray((0.0, 20.0), (0.0, -1.0))) is None
    w.remove(0)
    h = w.add(Segment((-5.0, 10.0), (5.0, 10.0)))
    assert w.one_way(h) is None
    assert w.raycast(Ray((0.0, 20.0), (0.0, -1.0))) is not None


def test_three_d_platform() -> None:
    w = World()
    w.add(AABB((-5.0, -1.0, -5.0), (5.0, 0.0, 5.0)), one_way=(0.0, 1.0, 0.0))
    assert w.raycast(Ray((0.0, -5.0, 0.0), (0.0, 1.0, 0.0))) is None
    hit = w.sweep(Sphere((0.0, 5.0, 0.0), 1.0), (0.0, -8.0, 0.0))
    assert hit is not None and hit.fraction == 0.5
    assert w.sweep(Sphere((0.0, -5.0, 0.0), 0.5), (0.0, 8.0, 0.0)) is None


def test_a_character_jumps_up_through_and_lands() -> None:
    w = World()
    w.add(Segment((-50.0, 0.0), (50.0, 0.0)), one_way=UP)
    player = Circle((0.0, 10.0), 2.0)
    up = move_and_slide(player, (0.0, -600.0), 1.0 / 30.0, w)
    assert up.collisions == () and up.position == (0.0, -10.0)
    down = move_and_slide(up.shape, (0.0, 600.0), 1.0 / 30.0, w)
    assert down.on_floor and len(down.collisions) == 1
    assert down.position[1] < -2.0 and down.position[1] == pytest.approx(-2.0, abs=0.2)
    # half through from below: not pushed out, still free to rise
    half = move_and_slide(Circle((0.0, 1.0), 2.0), (0.0, -30.0), 1.0 / 30.0, w)
    assert half.collisions == () and half.position == (0.0, 0.0)


@pytest.mark.parametrize("ccd", ["discrete", "swept", "speculative"])
def test_a_ball_thrown_up_through_a_platform_lands_on_it(ccd: str) -> None:
    sim = Simulation(gravity=(0.0, 980.0))
    sim.world.add(Segment((-100.0, 0.0), (100.0, 0.0)), one_way=UP)
    sim.world.add(Segment((-100.0, 100.0), (100.0, 100.0)))  # the ground below
    sim.add_balls(np.array([[0.0, 90.0]]), 5.0, np.array([[0.0, -700.0]]), ccd=ccd)
    sim.run(120)
    # rose through the platform (apex 90 - 700^2/1960 = -160), fell back and rests on it
    assert sim.positions[0, 1] == pytest.approx(-5.0, abs=0.05)
    assert abs(sim.velocities[0, 1]) < 1.0
    assert sim.missed_total == 0


@settings(max_examples=80, deadline=None)
@given(st.floats(-30.0, 30.0), st.floats(-30.0, 30.0), st.floats(-1.0, 1.0),
       st.floats(-1.0, 1.0))
def test_world_rays_equal_the_rule_on_scalar_hits(x: float, y: float, dx: float,
                                                  dy: float) -> None:
    if dx == 0.0 and dy == 0.0:
        return
    shapes = [Segment((-5.0, 0.0), (5.0, 0.0)), AABB((20.0, 0.0), (30.0, 2.0)),
              Polygon([(-20.0, 5.0), (-10.0, 5.0), (-15.0, 12.0)]), Circle((0.0, 20.0), 3.0)]
    dirs = [UP, UP, (0.0, 1.0), None]
    w = World()
    for s, d in zip(shapes, dirs):
        w.add(s, one_way=d)
    ray = Ray((x, y), (dx, dy), 100.0)
    best = None
    for h, (s, d) in enumerate(zip(shapes, dirs)):
        hit = scalar_raycast(ray, s)
        way = None if d is None else one_way_direction(d, 2)
        if hit is not None and one_way_stands(way, ray.direction, hit.normal) and (
                best is None or hit.distance < best[0].distance):
            best = (hit, h)
    got = w.raycast(ray)
    if best is None:
        assert got is None
    else:
        assert got is not None and got.handle == best[1] and got.distance == best[0].distance
