"""External colliders: shapes the World's compiled table cannot hold (oriented boxes, hulls,
triangle meshes, height fields, tile maps) kept in the outside tree beside the sensors.

Every World query must answer for them exactly as the scalar API does, merged with the
compiled table's answer (nearest hit, smallest handle on ties); batches answer the rows that
reach one through the scalar query; the Simulation refuses them rather than letting bodies
pass through.
"""

from __future__ import annotations

import math
import pickle

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from swept import (
    AABB,
    Capsule,
    Circle,
    ConvexHull,
    OrientedBox,
    Ray,
    Sphere,
    TileMap,
    TriangleMesh,
    World,
    move_and_slide,
    raycast,
    sweep,
)
from swept.sim import Simulation

TURN = math.sqrt(0.5)
#: a box turned 45 degrees about y
ROT = np.array([[TURN, 0.0, TURN], [0.0, 1.0, 0.0], [-TURN, 0.0, TURN]])


def _world() -> tuple[World, list]:
    """A floor (table), a turned box and a hull (external), a far box (table)."""
    shapes = [AABB((-20.0, -1.0, -20.0), (20.0, 0.0, 20.0)),
              OrientedBox((0.0, 2.0, 0.0), (1.0, 1.0, 1.0), ROT),
              ConvexHull([(5.0, 0.0, 0.0), (7.0, 0.0, 0.0), (6.0, 0.0, 2.0), (6.0, 3.0, 1.0)]),
              AABB((10.0, 0.0, -1.0), (11.0, 2.0, 1.0))]
    w = World()
    for s in shapes:
        w.add(s)
    return w, shapes


def test_external_rays_equal_the_scalar_answer() -> None:
    w, shapes = _world()
    down = w.raycast(Ray((0.0, 10.0, 0.0), (0.0, -1.0, 0.0)))
    want = raycast(Ray((0.0, 10.0, 0.0), (0.0, -1.0, 0.0)), shapes[1])
    assert down is not None and want is not None and down.handle == 1
    assert down.distance == want.distance == 7.0
    # along x at y = 2: the turned box's edge first (at x = -sqrt 2), then the hull, the box
    ray = Ray((-10.0, 2.0, 0.0), (1.0, 0.0, 0.0))
    hits = w.raycast_all(ray)
    assert [h.handle for h in hits] == [1, 3]
    assert hits[0].distance == pytest.approx(10.0 - math.sqrt(2.0), abs=1e-12)
    hull_ray = Ray((6.0, 10.0, 0.5), (0.0, -1.0, 0.0))
    got = w.raycast(hull_ray)
    assert got is not None and got.handle == 2
    assert got.distance == raycast(hull_ray, shapes[2]).distance  # type: ignore[union-attr]
    # masks and ignore reach the external colliders too
    assert w.raycast(Ray((0.0, 10.0, 0.0), (0.0, -1.0, 0.0)), ignore={1}).handle == 0
    assert w.raycast(Ray((0.0, 10.0, 0.0), (0.0, -1.0, 0.0)), mask=2) is None
    filt = w.raycast(Ray((0.0, 10.0, 0.0), (0.0, -1.0, 0.0)), filter=lambda h, d: h != 1)
    assert filt is not None and filt.handle == 0


def test_external_sweeps_and_contacts() -> None:
    w, shapes = _world()
    ball = Sphere((0.0, 10.0, 0.0), 0.5)
    hit = w.sweep(ball, (0.0, -20.0, 0.0))
    want = sweep(ball, (0.0, -20.0, 0.0), shapes[1])
    assert hit is not None and want is not None and hit.handle == 1
    assert hit.fraction == want.fraction and tuple(hit.normal) == tuple(want.normal)
    cap = Capsule((0.0, 10.0, 0.0), (0.0, 11.0, 0.0), 0.5)
    chit = w.sweep(cap, (0.0, -20.0, 0.0))
    assert chit is not None and chit.handle == 1
    touching = w.contacts(Sphere((0.0, 3.2, 0.0), 0.5))
    assert [c.handle for c in touching] == [1]


def test_batches_answer_the_rows_that_reach_an_external_collider() -> None:
    w, shapes = _world()
    o = np.array([[0.0, 10.0, 0.0], [-5.0, 10.0, 5.0], [6.0, 10.0, 0.5], [10.5, 10.0, 0.0]])
    d = np.tile([0.0, -1.0, 0.0], (4, 1))
    batch = w.raycast_many(o, d)
    for i in range(4):
        one = w.raycast(Ray(o[i], d[i]))
        assert one is not None
        assert batch.handle[i] == one.handle and batch.distance[i] == one.distance
    assert batch.handle.tolist() == [1, 0, 2, 3]
    sb = w.sweep_many(o, np.full(4, 0.5), d * 20.0)
    for i in range(4):
        one = w.sweep(Sphere(o[i], 0.5), d[i] * 20.0)
        assert one is not None and sb.handle[i] == one.handle and sb.fraction[i] == one.fraction
    cb = w.contact_many(np.array([[0.0, 3.2, 0.0], [-5.0, 0.2, 5.0]]), np.array([0.5, 0.5]))
    assert cb.handle.tolist() == [1, 0]


def test_remove_move_and_pickle() -> None:
    w, shapes = _world()
    moved = OrientedBox((0.0, 5.0, 0.0), (1.0, 1.0, 1.0), ROT)
    w.move(1, moved)
    assert w.shape(1) == moved
    assert w.raycast(Ray((0.0, 10.0, 0.0), (0.0, -1.0, 0.0))).distance == 4.0  # type: ignore
    with pytest.raises(ValueError, match="remove it and add"):
        w.move(1, AABB((0.0, 0.0, 0.0), (1.0, 1.0, 1.0)))
    with pytest.raises(ValueError, match="remove it and add"):
        w.move(0, moved)
    back = pickle.loads(pickle.dumps(w))
    assert back.raycast(Ray((0.0, 10.0, 0.0), (0.0, -1.0, 0.0))).handle == 1  # type: ignore
    w.remove(1)
    assert w.raycast(Ray((0.0, 10.0, 0.0), (0.0, -1.0, 0.0))).handle == 0  # type: ignore
    with pytest.raises(ValueError, match="one_way"):
        w.add(moved, one_way=(0.0, 1.0, 0.0))


def test_sensors_and_external_colliders_together() -> None:
    w, _ = _world()
    zone = w.add(AABB((-0.5, 5.0, -0.5), (0.5, 6.0, 0.5)), sensor=True)
    ray = Ray((0.0, 10.0, 0.0), (0.0, -1.0, 0.0))
    assert w.raycast(ray).handle == 1  # type: ignore[union-attr]
    assert w.raycast(ray, include_sensors=True).handle == zone  # type: ignore[union-attr]
    assert [h.handle for h in w.raycast_all(ray)] == [1, 0]


def test_the_simulation_refuses_external_colliders() -> None:
    w, _ = _world()
    sim = Simulation(w, gravity=(0.0, -9.8, 0.0))
    sim.add_balls(np.array([[0.0, 10.0, 0.0]]), 0.5)
    with pytest.raises(TypeError, match="OrientedBox"):
        sim.step()


def test_a_mesh_and_a_tile_map_in_worlds() -> None:
    mesh = TriangleMesh(vertices=[(0, 0, 0), (4, 0, 0), (4, 0, 4), (0, 0, 4), (8, 2, 0),
                                  (8, 2, 4)],
                        triangles=[(0, 3, 2), (0, 2, 1), (1, 2, 5), (1, 5, 4)])
    w = World()
    w.add(AABB((-10.0, -2.0, -10.0), (10.0, -1.0, 10.0)))
    h = w.add(mesh)
    hit = w.raycast(Ray((6.0, 10.0, 2.0), (0.0, -1.0, 0.0)))
    assert hit is not None and hit.handle == h and hit.distance == 9.0
    landed = move_and_slide(Sphere((1.0, 3.0, 1.0), 0.5), (0.0, -10.0, 0.0), 1.0, w)
    assert landed.on_floor and landed.position[1] == pytest.approx(0.5, abs=0.01)
    assert landed.position[1] >= 0.5
    tiles = TileMap(np.array([[0, 0], [1, 1]], bool), 1.0)
    w2 = World()
    t = w2.add(tiles)
    found = w2.raycast(Ray((0.5, -5.0), (0.0, 1.0)))
    assert found is not None and found.handle == t and found.distance == 6.0
    ball = w2.sweep(Circle((1.0, -3.0), 0.5), (0.0, 10.0))
    assert ball is not None and ball.fraction == pytest.approx(0.35, abs=1e-12)


@settings(max_examples=60, deadline=None)
@given(st.tuples(st.floats(-12, 12), st.floats(-2, 12), st.floats(-12, 12)),
       st.tuples(st.floats(-1, 1), st.floats(-1, 1), st.floats(-1, 1)))
def test_world_rays_equal_brute_force_over_scalar_answers(origin: tuple, direction: tuple
                                                          ) -> None:
    if math.hypot(*direction) < 1e-3:
        return
    w, shapes = _world()
    ray = Ray(origin, direction, 40.0)
    best = None
    for h, s in enumerate(shapes):
        hit = raycast(ray, s)
        if hit is not None and (best is None or hit.distance < best[0]):
            best = (hit.distance, h)
    got = w.raycast(ray)
    if best is None:
        assert got is None
    else:
        assert got is not None and got.distance == best[0] and got.handle == best[1]
