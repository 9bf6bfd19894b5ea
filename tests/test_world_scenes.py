"""The World's ray queries on every scene kind of the broadphase benchmark equal brute force.

For each kind of ``benchmarks/scenes.py`` (uniform short segments, walls as long as the world,
large boxes, a cluster in 1% of the area, coordinates of 1e6, small and large mixed, moving
colliders among static ones, every collider kind) at 200 colliders: ``World.raycast_many`` and
the scalar ``World.raycast`` give, ray by ray, the minimum over colliders of
:func:`swept.raycast` (ties: the smallest handle), with its point and normal. These guard the
broadphase rewrite (issue 11): whichever structure the World picks, the answers stay these.
"""

from __future__ import annotations

import math
from typing import Any

import numpy as np
import pytest
from hypothesis import given
from hypothesis import strategies as st

from shared import bench_scenes, rays_equal_brute_force
from swept.world import World

N = 200
RAYS = 48


scenes = bench_scenes()
_CACHE: dict[str, tuple[Any, list[Any], World]] = {}


def _world(kind: str) -> tuple[Any, list[Any], World]:
    """The scene, its shapes, and a World holding them (built once per kind)."""
    if kind not in _CACHE:
        scene = scenes.make_scene(kind, N)
        shapes = scene.shapes()
        world = World()
        for i, shape in enumerate(shapes):
            assert world.add(shape, moving=bool(scene.moving[i])) == i
        _CACHE[kind] = (scene, shapes, world)
    return _CACHE[kind]


@pytest.mark.parametrize("kind", scenes.KINDS)
def test_world_rays_equal_brute_force_on_every_scene_kind(kind: str) -> None:
    """The scene's own rays (from inside its bounds, max distance its diagonal)."""
    scene, shapes, world = _world(kind)
    origins, directions, tmax = scenes.rays(scene, RAYS)
    rays_equal_brute_force(shapes, world, origins, directions, np.full(RAYS, tmax))


@pytest.mark.parametrize("kind", scenes.KINDS)
def test_world_rays_through_ends_and_corners_equal_brute_force(kind: str) -> None:
    """Rays aimed exactly at collider box corners (a segment's end, a box's corner: grazing
    hits the broadphase's own box tests must not reject), with max distances that end short
    of, exactly at, and past the corner."""
    scene, shapes, world = _world(kind)
    rng = np.random.default_rng(5)
    pick = rng.integers(0, N, RAYS)
    corner = np.where(rng.integers(0, 2, (RAYS, 1)) == 1, scene.lo[pick], scene.hi[pick])
    span = scene.bounds_hi - scene.bounds_lo
    origins = corner + rng.uniform(-0.3, 0.3, (RAYS, 2)) * span
    v = corner - origins
    directions = v / np.hypot(v[:, 0], v[:, 1])[:, None]
    reach = np.hypot(v[:, 0], v[:, 1])
    md = reach * rng.choice([0.5, 1.0, math.inf], RAYS)
    rays_equal_brute_force(shapes, world, origins, directions, md)


@given(kind=st.sampled_from(scenes.KINDS), u=st.floats(0.0, 1.0), w=st.floats(0.0, 1.0),
       angle=st.floats(0.0, 2.0 * math.pi), reach=st.floats(0.0, 1.5))
def test_world_ray_equals_brute_force_for_any_ray(kind: str, u: float, w: float, angle: float,
                                                  reach: float) -> None:
    """Any ray from inside the scene's bounds, any max distance up to 1.5 diagonals."""
    scene, shapes, world = _world(kind)
    origin = scene.bounds_lo + np.array([u, w]) * (scene.bounds_hi - scene.bounds_lo)
    direction = np.array([math.cos(angle), math.sin(angle)])
    direction = direction / math.hypot(direction[0], direction[1])
    rays_equal_brute_force(shapes, world, origin[None, :], direction[None, :],
           np.array([reach * scene.diagonal]))


def _moving_world() -> tuple[Any, list[Any], World, list[int]]:
    """A fresh World of the ``moving`` scene (its own: these tests move colliders), its shapes
    and the moving colliders' handles."""
    scene = scenes.make_scene("moving", N)
    shapes = scene.shapes()
    world = World()
    for i, shape in enumerate(shapes):
        world.add(shape, moving=bool(scene.moving[i]))
    return scene, shapes, world, [int(h) for h in np.flatnonzero(scene.moving)]


def _moving_grid_state(world: World) -> int:
    """Whether the rays meet the moving colliders in the grid (1) or walk the moving tree (0),
    read from the packed scene (-1: no moving grid)."""
    from swept._kernels import grid as kgrid
    from swept._kernels import scene as kscene

    links = world._sync().links  # white box: which path the rays took
    block = int(links[kscene.H_MOVING_GRID])
    return -1 if block == 0 else int(links[block + kgrid.MG_GRIDDED])


def _scene_rays(scene: Any, salt: int) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    origins, directions, tmax = scenes.rays(scene, RAYS, salt)
    return origins, directions, np.full(RAYS, tmax)


def test_moving_colliders_are_met_in_the_grid_and_stay_exact_as_they_move() -> None:
    """The moving colliders of a gridded scene are binned in the grid's coarse cells at every
    sync after they move (issue 11: every ray walked the moving tree, 2.5 to 5x the plain
    grid's time): the rays take that path, and after each of several moves of every moving
    collider (each a refit and a rebin) they still equal brute force."""
    from swept import Circle

    scene, shapes, world, moving = _moving_world()
    assert _moving_grid_state(world) == 1
    rng = np.random.default_rng(11)
    for step in range(3):
        for h in moving:
            c = shapes[h]
            centre = np.clip(np.asarray(c.center) + rng.uniform(-60.0, 60.0, 2), 30.0, 970.0)
            shapes[h] = Circle(centre, c.radius)
            world.move(h, shapes[h])
        assert _moving_grid_state(world) == 1
        rays_equal_brute_force(shapes, world, *_scene_rays(scene, step))


def test_moving_colliders_outside_the_grid_are_still_hit() -> None:
    """Moving colliders moved out of the grid's frame (the static colliders' bounds): a few go
    in the outside list every ray tests (rays from outside the frame, and rays that never
    enter it, hit them); more than MOVING_GRID_OUTSIDE send the rays back to the moving
    tree. Both equal brute force."""
    from swept import Circle
    from swept.constants import MOVING_GRID_OUTSIDE

    scene, shapes, world, moving = _moving_world()
    rng = np.random.default_rng(3)
    # rays from a ring around the world, aimed anywhere near it
    angle = rng.uniform(0.0, 2.0 * math.pi, RAYS)
    origins = 500.0 + 900.0 * np.stack([np.cos(angle), np.sin(angle)], axis=1)
    aim = rng.uniform(-300.0, 1300.0, (RAYS, 2))
    v = aim - origins
    directions = v / np.hypot(v[:, 0], v[:, 1])[:, None]
    md = np.full(RAYS, 3000.0)
    for count, state in ((3, 1), (MOVING_GRID_OUTSIDE + 1, 0)):
        for i, h in enumerate(moving[:count]):
            # outside the frame, on the ring's side of the world
            a = 2.0 * math.pi * i / count
            shapes[h] = Circle((500.0 + 750.0 * math.cos(a), 500.0 + 750.0 * math.sin(a)),
                               40.0)
            world.move(h, shapes[h])
        assert _moving_grid_state(world) == state
        rays_equal_brute_force(shapes, world, origins, directions, md)
        # aimed at the moved colliders themselves
        centres = np.array([shapes[h].center for h in moving[:count]])
        v = centres - origins[:count]
        rays_equal_brute_force(shapes, world, origins[:count],
                               v / np.hypot(v[:, 0], v[:, 1])[:, None], md[:count])


def test_moving_colliders_grown_past_the_grids_capacity_are_still_hit() -> None:
    """A moving collider grown (a new, larger shape) past the entries reserved for the moving
    grid when it was packed: the rays walk the moving tree instead, and equal brute force."""
    from swept import Circle

    scene, shapes, world, moving = _moving_world()
    # packed (its capacity reserved) at the shapes' first sizes
    rays_equal_brute_force(shapes, world, *_scene_rays(scene, 6))
    for i, h in enumerate(moving[:4]):
        # inside the frame (not the outside list), each over many coarse cells
        shapes[h] = Circle((400.0 + 60.0 * i, 500.0), 250.0)
        world.move(h, shapes[h])
    assert _moving_grid_state(world) == 0
    rays_equal_brute_force(shapes, world, *_scene_rays(scene, 7))


def test_a_static_chains_segments_in_the_grid_equal_brute_force(
        monkeypatch: pytest.MonkeyPatch) -> None:
    """A static chain's segments are grid entries of their own, tested by the segment
    entries' precomputed crossing test (as a ray meets a chain's segment as a Segment): rays
    at a 300-point zigzag chain among segments, through its corners too, equal brute force,
    the chain reported by its handle. (The zigzag crowds its band: a cluster, which at this
    count takes the BVH; the grid is forced, as the benchmark forces a structure.)"""
    import swept.world as swept_world
    from swept import Chain
    from swept.broadphase import BroadphaseChoice, plan_grid

    def grid(lo: Any, hi: Any, dim: int, *, thin: Any = None) -> BroadphaseChoice:
        return BroadphaseChoice(True, plan_grid(lo, hi, thin=thin).cell, "forced: the grid")

    monkeypatch.setattr(swept_world, "choose_broadphase", grid)

    rng = np.random.default_rng(17)
    x = np.linspace(0.0, 1000.0, 300)
    y = 500.0 + np.where(np.arange(300) % 2 == 0, -40.0, 40.0)
    chain = Chain(np.stack([x, y], axis=1))
    scene = scenes.make_scene("uniform", N)
    shapes: list[Any] = scene.shapes()
    world = World()
    for shape in shapes:
        world.add(shape)
    shapes.append(chain)
    assert world.add(chain) == N
    # from either side of the zigzag, at its corners and anywhere
    corners = np.stack([x, y], axis=1)[rng.integers(0, 300, RAYS)]
    origins = np.stack([rng.uniform(0.0, 1000.0, RAYS),
                        np.where(rng.integers(0, 2, RAYS) == 1, 300.0, 700.0)], axis=1)
    aim = np.where(rng.integers(0, 2, (RAYS, 1)) == 1, corners,
                   rng.uniform(0.0, 1000.0, (RAYS, 2)))
    v = aim - origins
    directions = v / np.hypot(v[:, 0], v[:, 1])[:, None]
    assert world._sync().links[0] == 2 and world._grid is not None  # white box: the grid
    rays_equal_brute_force(shapes, world, origins, directions, np.full(RAYS, 2000.0))
