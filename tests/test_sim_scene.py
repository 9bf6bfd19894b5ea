"""The Simulation on the World's scene: solid polygons, layers and masks, and the range kernels."""

from __future__ import annotations

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from swept import AABB, ALL_LAYERS, Circle, Polygon, Segment, Sphere
from swept.sim import Body, PathCrossings, Simulation

STEP = 1.0 / 60.0
#: Closed forms agree to rounding.
EXACT = 1e-12
#: A position reached through a few casts and responses.
PARITY = 1e-9
WALL_LAYER = 2
#: Every layer but the wall's.
NOT_WALLS = ALL_LAYERS & ~WALL_LAYER

# ---------------------------------------------------------------------------- solid polygons


def _slab(sim: Simulation) -> None:
    """A polygon slab, 20 wide and 1 thick, its top at y = 0."""
    sim.world.add(Polygon([(-10.0, -1.0), (10.0, -1.0), (10.0, 0.0), (-10.0, 0.0)]))


def test_a_ball_placed_inside_a_polygon_is_pushed_out_through_its_nearest_edge() -> None:
    """A polygon used to be its outline of edges, which kept a ball placed inside it inside;
    the scene's contact treats it as solid: out through the nearest edge, by the radius plus
    the depth of the centre."""
    for ccd in ("discrete", "swept", "speculative"):
        sim = Simulation(gravity=(0.0, 0.0), step=STEP)
        sim.world.add(Polygon([(0.0, 0.0), (4.0, 0.0), (4.0, 4.0), (0.0, 4.0)]))
        body = sim.add(Body(Circle((1.0, 2.0), 0.5), ccd=ccd))
        sim.step()
        # nearest edge x = 0: the centre moves 1 + 0.5 to x = -0.5
        assert tuple(body.position) == pytest.approx((-0.5, 2.0), abs=EXACT)
        assert body.caught == 1


def test_a_fast_ball_dropped_onto_a_polygon_lands_on_it() -> None:
    # cast against the polygon grown by the radius (ray_rounded_polygon, entering only): a
    # ball 60 units a step lands on the 1-thick slab and rests there
    sim = Simulation(gravity=(0.0, -100.0), step=STEP)
    _slab(sim)
    body = sim.add(Body(Circle((3.0, 40.0), 0.5), (0.0, -3600.0), ccd="swept"))
    sim.run(30)
    assert tuple(body.position) == pytest.approx((3.0, 0.5), abs=PARITY)
    assert body.missed == 0
    assert body.caught > 0


def test_a_discrete_ball_dropped_onto_a_polygon_tunnels_and_is_counted() -> None:
    sim = Simulation(gravity=(0.0, 0.0), step=STEP)
    _slab(sim)
    # 60 units a step from y = 30.25: its steps end at y = -29.75, clear of the slab
    body = sim.add(Body(Circle((3.0, 30.25), 0.5), (0.0, -3600.0)))
    sim.run(1)
    assert body.position.y == pytest.approx(-29.75, abs=EXACT)
    assert body.missed == 1


def test_a_ball_sliding_on_a_polygon_is_not_stopped() -> None:
    """The polygon cast tests its rim heading exactly, and a response leaves a few ulps of
    velocity into the rim: without the capsules' heading tolerance the ball sliding on a
    polygon was stopped for a whole step, its casts spent at t = 0."""
    sim = Simulation(gravity=(0.0, -100.0), step=STEP)
    _slab(sim)
    body = sim.add(Body(Circle((-5.0, 0.5), 0.5), (10.0, 0.0), ccd="swept"))
    sim.run(30)
    assert body.velocity.x == pytest.approx(10.0, abs=PARITY)
    assert tuple(body.position) == pytest.approx((-5.0 + 10.0 * 30 * STEP, 0.5), abs=PARITY)
    assert body.missed == 0


def test_path_crossings_see_a_solid_polygon() -> None:
    square = Polygon([(0.0, 0.0), (2.0, 0.0), (2.0, 2.0), (0.0, 2.0)])
    starts = np.array([[-1.0, 1.0], [-1.0, 3.0], [-1.0, -1.0], [0.5, 0.5], [-1.0, 2.0]])
    ends = np.array([[3.0, 1.0], [3.0, 3.0], [1.0, 1.0], [1.5, 1.5], [-0.5, 2.0]])
    # across; above; into it; wholly inside; along the top edge's line, short of the corner
    crossed = PathCrossings([square]).crossed(starts, ends)
    assert crossed.tolist() == [True, False, True, True, False]
    # touching the corner counts
    assert PathCrossings([square]).crossed([[-1.0, 3.0]], [[1.0, 1.0]]).tolist() == [True]


# ---------------------------------------------------------------------------- layers and masks


def _wall_sim(ccd: str, mask: int) -> tuple[Simulation, Body]:
    """A ball 10 units a step toward a thin wall at x = 5 on layer 2."""
    sim = Simulation(gravity=(0.0, 0.0), step=STEP)
    sim.world.add(Segment((5.0, -10.0), (5.0, 10.0)), layer=WALL_LAYER)
    body = sim.add(Body(Circle((0.0, 0.0), 1.0), (600.0, 0.0), ccd=ccd, mask=mask))
    return sim, body


@pytest.mark.parametrize("ccd", ["discrete", "swept", "speculative"])
def test_a_body_passes_through_a_collider_it_masks_out(ccd: str) -> None:
    sim, body = _wall_sim(ccd, NOT_WALLS)
    sim.run(2)
    # no contact, no miss: the wall is not there for it
    assert tuple(body.position) == pytest.approx((20.0, 0.0), abs=EXACT)
    assert tuple(body.velocity) == (600.0, 0.0)
    assert (body.caught, body.missed) == (0, 0)


@pytest.mark.parametrize("ccd", ["swept", "speculative"])
def test_the_default_mask_meets_every_layer(ccd: str) -> None:
    sim, body = _wall_sim(ccd, ALL_LAYERS)
    sim.run(2)
    assert body.position.x <= 4.0 + PARITY
    assert body.caught >= 1
    assert body.missed == 0


def test_a_discrete_body_that_tunnels_a_wall_in_its_mask_is_counted() -> None:
    sim, body = _wall_sim("discrete", WALL_LAYER)
    sim.run(1)
    assert body.missed == 1


@pytest.mark.parametrize("ccd", ["discrete", "swept", "speculative"])
def test_masks_in_3d(ccd: str) -> None:
    sim = Simulation(gravity=(0.0, 0.0, -100.0), step=STEP)
    sim.world.add(AABB((-5.0, -5.0, -1.0), (5.0, 5.0, 0.0)), layer=4)
    through = sim.add(Body(Sphere((0.0, 0.0, 3.0), 1.0), ccd=ccd, mask=ALL_LAYERS & ~4))
    kept = sim.add(Body(Sphere((3.0, 0.0, 3.0), 1.0), ccd=ccd))
    sim.run(60)
    assert sim.positions[through.index, 2] < -1.0
    assert sim.positions[kept.index, 2] == pytest.approx(1.0, abs=1e-6)


def _head_on(layers: tuple[int, int], masks: tuple[int, int]) -> tuple[Body, Body]:
    """Two balls meeting head on (radius 1, 1 unit a step each) after 2 steps."""
    sim = Simulation(gravity=(0.0, 0.0), step=STEP)
    a = sim.add(Body(Circle((-3.0, 0.0), 1.0), (60.0, 0.0), restitution=1.0,
                     layer=layers[0], mask=masks[0]))
    b = sim.add(Body(Circle((3.0, 0.0), 1.0), (-60.0, 0.0), restitution=1.0,
                     layer=layers[1], mask=masks[1]))
    sim.run(3)
    return a, b


def test_two_bodies_meet_only_when_each_layer_is_in_the_others_mask() -> None:
    # both ways: they bounce
    a, b = _head_on((1, 2), (2, 1))
    assert a.velocity.x == pytest.approx(-60.0, abs=EXACT)
    assert b.velocity.x == pytest.approx(60.0, abs=EXACT)
    # one way only (a sees b's layer, b does not see a's): they pass through each other
    for masks in ((2, 2), (1, 1), (0, ALL_LAYERS)):
        a, b = _head_on((1, 2), masks)
        assert (a.velocity.x, b.velocity.x) == (60.0, -60.0)
        assert a.position.x == pytest.approx(0.0, abs=EXACT)
        assert b.position.x == pytest.approx(0.0, abs=EXACT)


def test_add_balls_takes_a_layer_and_a_mask() -> None:
    sim = Simulation(gravity=(0.0, 0.0), step=STEP)
    sim.world.add(Segment((5.0, -10.0), (5.0, 10.0)), layer=WALL_LAYER)
    idx = sim.add_balls([[0.0, 0.0], [0.0, 4.0]], 1.0, [[600.0, 0.0], [600.0, 0.0]],
                        ccd="swept", layer=8, mask=NOT_WALLS)
    sim.run(2)
    assert sim.positions[:, 0] == pytest.approx([20.0, 20.0], abs=EXACT)
    assert [sim.bodies[i].layer for i in idx] == [8, 8]
    assert [sim.bodies[i].mask for i in idx] == [NOT_WALLS, NOT_WALLS]


def test_bad_layers_and_masks_are_named() -> None:
    shape = Circle((0.0, 0.0), 1.0)
    with pytest.raises(ValueError, match="layer"):
        Body(shape, layer=-1)
    with pytest.raises(ValueError, match="mask"):
        Body(shape, mask=1 << 32)
    with pytest.raises(TypeError, match="layer"):
        Body(shape, layer=1.5)  # type: ignore[arg-type]
    with pytest.raises(TypeError, match="mask"):
        Body(shape, mask=True)
    sim = Simulation(gravity=(0.0, 0.0))
    with pytest.raises(ValueError, match="mask"):
        sim.add_balls([[0.0, 0.0]], 1.0, mask=-3)


@settings(max_examples=30, deadline=None)
@given(st.integers(0, 2**32 - 1), st.integers(0, 2**32 - 1))
def test_a_swept_body_meets_a_wall_exactly_when_its_mask_has_the_walls_layer(
        layer: int, mask: int) -> None:
    sim = Simulation(gravity=(0.0, 0.0), step=STEP)
    sim.world.add(Segment((5.0, -10.0), (5.0, 10.0)), layer=layer)
    body = sim.add(Body(Circle((0.0, 0.0), 1.0), (600.0, 0.0), ccd="swept", mask=mask))
    sim.run(2)
    if layer & mask:
        assert body.position.x == pytest.approx(4.0, abs=PARITY)
    else:
        assert body.position.x == 20.0


# ---------------------------------------------------------------------------- candidates


@settings(max_examples=40, deadline=None)
@given(st.integers(0, 2**31), st.integers(1, 60), st.sampled_from([2, 3]))
def test_the_candidates_are_the_colliders_whose_boxes_touch_the_query(seed: int, m: int,
                                                                      dim: int) -> None:
    # the written-out walk of the scene's trees against a brute-force test of every box, with
    # layers, moving colliders, removed ones and planes
    from swept import Capsule, Plane
    from swept._kernels import sim as kernels
    from swept.world import World

    rng = np.random.default_rng(seed)
    world = World()
    for k in range(m):
        a = rng.uniform(-50, 50, dim)
        shape = (Capsule(a, a + rng.uniform(-8, 8, dim), float(rng.uniform(0, 2))) if k % 2
                 else AABB(a, a + rng.uniform(0.5, 8, dim)))
        world.add(shape, layer=int(rng.integers(1, 8)), moving=bool(k % 3 == 0))
    world.add(Plane((0.0,) * (dim - 1) + (1.0,), -60.0), layer=2)
    for h in rng.choice(m, m // 4, replace=False):
        world.remove(int(h))
    scene = world._sync()
    for _ in range(10):
        c = rng.uniform(-60, 60, 3)
        if dim == 2:
            c[2] = 0.0
        half = rng.uniform(0, 20)
        query = np.concatenate([c - half, c + half])
        mask = int(rng.integers(0, 8))
        got = kernels.candidates(scene, query, mask)
        want = []
        for h in world.handles():
            if not int(scene.tags[h, 1]) & mask:
                continue
            if isinstance(world.shape(h), Plane):
                want.append(h)
                continue
            lo = scene.rows[h, 8:8 + dim]
            hi = scene.rows[h, 11:11 + dim]
            if np.all(lo <= query[3:3 + dim]) and np.all(hi >= query[:dim]):
                want.append(h)
        assert sorted(got.tolist()) == sorted(want)
        # each once
        assert len(set(got.tolist())) == len(got)


def test_a_world_of_another_dimension_is_named() -> None:
    sim = Simulation(gravity=(0.0, 0.0, 0.0))
    sim.world.add(Segment((0.0, 0.0), (1.0, 0.0)))
    sim.add(Body(Sphere((0.0, 0.0, 5.0), 1.0)))
    with pytest.raises(ValueError, match="2D"):
        sim.step()
