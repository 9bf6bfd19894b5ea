"""World.raycast's and World.sweep's (circles) one-call paths, whose compiled call builds the
hit record itself.

A 2D ray with no ``ignore``, ``filter`` or sensors goes to ``swept._kernels.world_hit.
ray_hit2``, whose boxing builds the record with the C API: the point and the normal as Vec2s
(the normal shared through the World's normal dict), the collider's data read from the World's
list by handle, a chain's segment reported as its chain. These tests hold it to the general
path (the same cast, the record built in Python; ``ignore`` of a handle that does not exist
takes it), bit for bit, on every kind of collider, masks, moving colliders, adds, removals,
copies; and check the objects it makes: exact types, no reference leaked or lost. A circle's
sweep (``ball_hit2``, a ``WorldSweepHit``) is held to the general ball path likewise.
"""

from __future__ import annotations

import copy
import gc
import math
import pickle
import sys
import weakref
from typing import Any

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from swept import AABB, Capsule, Chain, Circle, Plane, Polygon, Ray, Segment, Sphere, Vec2, Vec3
from swept.results import WorldRayHit, WorldSweepHit
from swept.world import World

#: ``ignore`` with a handle no World has: the general path, with nothing ignored
GENERAL = (-1,)


def same(got: WorldRayHit | WorldSweepHit | None,
         want: WorldRayHit | WorldSweepHit | None) -> None:
    """Two answers are the very same: equal field by field, each field of the same type (a
    Vec2 or Vec3 where the general path has one, a float, an int, a bool), the same data."""
    assert got == want
    if got is not None and want is not None:
        assert type(got) is type(want) and type(got) in (WorldRayHit, WorldSweepHit)
        for name in type(got)._fields:  # type: ignore[union-attr]
            assert type(getattr(got, name)) is type(getattr(want, name)), name
        assert type(got.point) in (Vec2, Vec3) and type(got.handle) is int
        assert got.data is want.data


def mixed_world(seed: int, moving: bool = False) -> World:
    """Every kind of 2D table collider, each with a data object of its own, in a 100 x 100
    area; some on layer 2."""
    rng = np.random.default_rng(seed)
    world = World()
    for k in range(40):
        x, y = rng.uniform(0, 100, 2)
        kind = k % 6
        shape: Any
        if kind == 0:
            shape = Segment((x, y), (x + rng.uniform(-20, 20), y + rng.uniform(-20, 20)))
        elif kind == 1:
            shape = Circle((x, y), rng.uniform(0.5, 5))
        elif kind == 2:
            shape = AABB((x, y), (x + rng.uniform(1, 8), y + rng.uniform(1, 8)))
        elif kind == 3:
            shape = Capsule((x, y), (x + rng.uniform(-9, 9), y + rng.uniform(-9, 9)), 1.5)
        elif kind == 4:
            shape = Polygon([(x, y), (x + 6, y), (x + 3, y + 5)])
        else:
            shape = Chain([(x, y), (x + 5, y + 2), (x + 9, y - 3), (x + 12, y + 4)])
        world.add(shape, {"k": k}, layer=2 if k % 5 == 0 else 1,
                  moving=moving and k % 3 == 0)
    return world


def rays(seed: int, count: int) -> list[Ray]:
    """Rays from across the area (some inside colliders) in every direction, some short."""
    rng = np.random.default_rng(seed)
    out = []
    for _ in range(count):
        angle = rng.uniform(0, 2 * math.pi)
        reach = math.inf if rng.uniform() < 0.7 else float(rng.uniform(1, 60))
        out.append(Ray(tuple(rng.uniform(-10, 110, 2)), (math.cos(angle), math.sin(angle)),
                       reach))
    return out


@pytest.mark.parametrize("moving", [False, True])
@pytest.mark.parametrize("mask", [0xFFFFFFFF, 1, 2, 0])
def test_the_one_call_path_answers_as_the_general_path(moving: bool, mask: int) -> None:
    """Every kind of collider, static and moving, under each mask: the same hit, bit for bit
    (same cast; only where the record is built differs)."""
    world = mixed_world(3, moving)
    hits = 0
    for ray in rays(4, 400):
        got = world.raycast(ray, mask=mask)
        same(got, world.raycast(ray, mask=mask, ignore=GENERAL))
        hits += got is not None
    # layer 2 holds a fifth of the colliders; mask 0 sees none
    assert hits > {0xFFFFFFFF: 100, 1: 100, 2: 30}[mask] if mask else hits == 0


@settings(max_examples=25, deadline=None)
@given(st.integers(0, 10_000), st.integers(0, 10_000))
def test_the_one_call_path_answers_as_the_general_path_on_random_scenes(
        seed: int, ray_seed: int) -> None:
    world = mixed_world(seed)
    for ray in rays(ray_seed, 20):
        same(world.raycast(ray), world.raycast(ray, ignore=GENERAL))


def test_after_adds_moves_and_removals_each_ray_sees_the_current_scene() -> None:
    """The record's data and normals come from the World's objects by address: after every
    change the next ray answers with the current colliders and their data."""
    world = World()
    ray = Ray((0.0, 0.0), (1.0, 0.0))
    first = world.add(Segment((10.0, -1.0), (10.0, 1.0)), "first")
    hit = world.raycast(ray)
    assert hit is not None and (hit.handle, hit.data, hit.distance) == (first, "first", 10.0)
    assert hit.normal == Vec2(-1.0, 0.0)
    second = world.add(Circle((5.0, 0.0), 1.0), ["second"])
    hit = world.raycast(ray)
    assert hit is not None and (hit.handle, hit.data, hit.distance) == (second, ["second"], 4.0)
    world.move(second, Circle((20.0, 0.0), 1.0))
    hit = world.raycast(ray)
    assert hit is not None and (hit.handle, hit.distance) == (first, 10.0)
    # a segment moved: its shared normal is its new side, not the one kept before
    world.move(first, Segment((8.0, -1.0), (9.0, 1.0)))
    hit = world.raycast(ray)
    assert hit is not None and hit.handle == first
    same(hit, world.raycast(ray, ignore=GENERAL))
    assert tuple(hit.normal) == pytest.approx((-2.0 / math.sqrt(5.0), 1.0 / math.sqrt(5.0)),
                                              abs=1e-12)
    world.remove(first)
    hit = world.raycast(ray)
    assert hit is not None and (hit.handle, hit.data, hit.distance) == (second, ["second"], 19.0)
    world.remove(second)
    assert world.raycast(ray) is None


def test_bulk_adds_and_many_handles() -> None:
    """Handles past the small ints' cache and bulk adds' data: read by handle."""
    world = World()
    n = 3000
    xs = np.arange(n, dtype=np.float64) + 10.0
    handles = world.add_segments(np.column_stack([xs, np.full(n, -1.0), xs, np.full(n, 1.0)]),
                                 data=[f"wall {k}" for k in range(n)])
    for k in (0, 255, 256, 257, 1000, n - 1):
        start = float(xs[k]) - 0.5
        hit = world.raycast(Ray((start, 0.0), (1.0, 0.0)))
        assert hit is not None
        assert (hit.handle, hit.data, hit.distance) == (int(handles[k]), f"wall {k}", 0.5)
        assert hit.point == Vec2(float(xs[k]), 0.0)


def test_a_chain_is_reported_as_the_chain() -> None:
    world = World()
    world.add(Circle((100.0, 100.0), 1.0))
    chain = world.add(Chain([(0.0, -5.0), (5.0, 0.0), (0.0, 5.0)]), "chain")
    hit = world.raycast(Ray((-1.0, 0.0), (1.0, 0.0)))
    assert hit is not None and (hit.handle, hit.data) == (chain, "chain")
    assert hit.distance == pytest.approx(6.0, abs=1e-12)
    same(hit, world.raycast(Ray((-1.0, 0.0), (1.0, 0.0)), ignore=GENERAL))


def test_a_ray_that_starts_inside_reports_its_origin() -> None:
    world = World()
    world.add(AABB((-1.0, -1.0), (1.0, 1.0)), "box")
    ray = Ray((0.25, 0.5), (1.0, 0.0))
    hit = world.raycast(ray)
    assert hit is not None and hit.started_inside is True
    assert (hit.distance, hit.point, hit.exit_distance) == (0.0, ray.origin, 0.75)
    same(hit, world.raycast(ray, ignore=GENERAL))


def test_normals_that_recur_are_one_object() -> None:
    """An axis normal, and each side of a segment, are shared between hits."""
    world = World()
    world.add(AABB((10.0, -5.0), (12.0, 5.0)))
    world.add(Segment((20.0, 10.0), (30.0, 20.0)))
    a = world.raycast(Ray((0.0, 0.0), (1.0, 0.0)))
    b = world.raycast(Ray((0.0, 3.0), (1.0, 0.0)))
    assert a is not None and b is not None and a.normal is b.normal
    assert a.normal == Vec2(-1.0, 0.0)
    c = world.raycast(Ray((25.0, 0.0), (0.0, 1.0)))
    d = world.raycast(Ray((22.0, 0.0), (0.0, 1.0)))
    assert c is not None and d is not None and c.normal is d.normal
    assert tuple(c.normal) == pytest.approx((math.sqrt(0.5), -math.sqrt(0.5)), abs=1e-12)
    # a circle's normals do not recur: each hit has its own
    world.add(Circle((0.0, -20.0), 2.0))
    e = world.raycast(Ray((0.0, -10.0), (0.0, -1.0)))
    assert e is not None and e.normal == Vec2(0.0, 1.0) and e.point == Vec2(0.0, -18.0)


def test_no_reference_is_leaked_or_lost() -> None:
    """The boxing takes new references to the data and the shared normals and hands the
    caller the only one to the record: counts are unchanged after many calls, and a record is
    freed with its last reference."""
    world = World()
    data = object()
    world.add(Segment((10.0, -1.0), (10.0, 1.0)), data)
    ray = Ray((0.0, 0.0), (1.0, 0.0))
    miss = Ray((0.0, 0.0), (-1.0, 0.0))
    first = world.raycast(ray)
    assert first is not None
    normal = first.normal
    del first
    gc.collect()
    before = (sys.getrefcount(data), sys.getrefcount(normal), sys.getrefcount(None))
    for _ in range(10_000):
        world.raycast(ray)
        assert world.raycast(miss) is None
    after = (sys.getrefcount(data), sys.getrefcount(normal), sys.getrefcount(None))
    # None is immortal in later Pythons: only its count's growth is checked
    assert after[:2] == before[:2] and abs(after[2] - before[2]) < 100
    hit = world.raycast(ray)
    # the local name and getrefcount's argument: nothing else holds the record
    assert sys.getrefcount(hit) == 2
    assert hit is not None
    point = hit.point
    del hit
    # the record, freed, released its point: only the local name holds it now
    assert sys.getrefcount(point) == 2


class _Entity:
    """User data of a tracked kind, weakly referable: a cycle through it can be watched."""

    hit: Any = None


def _tracked(hit: WorldRayHit | WorldSweepHit) -> tuple[bool, ...]:
    """Whether the collector tracks the record and each of its vectors."""
    vectors = [v for v in hit if type(v) in (Vec2, Vec3)]
    return (gc.is_tracked(hit), *(gc.is_tracked(v) for v in vectors))


@pytest.mark.parametrize("data", [None, 7, "wall", 2.5])
def test_records_of_untracked_data_are_off_the_collectors_list(data: Any) -> None:
    """The boxing takes a record off the garbage collector's list when nothing in it can lead
    back to it (its data of an untracked type; its vectors hold floats alone), so a loop that
    keeps its hits sets off no full collections: every record and vector of a 2D and a 3D
    ray, a circle's and a sphere's sweep (by a Vec2 or Vec3: the one-call path) is untracked
    (a point or normal Vec2 made in the call, not the World's four premade axis normals)."""
    world = World()
    world.add(Segment((10.0, -1.0), (11.0, 1.0)), data)
    hit = world.raycast(Ray((0.0, 0.0), (1.0, 0.0)))
    ball = world.sweep(Circle((0.0, 0.0), 0.5), Vec2(20.0, 0.0))
    world3 = World()
    world3.add(Sphere((10.0, 0.0, 0.0), 1.0), data)
    hit3 = world3.raycast(Ray((0.0, 0.0, 0.0), (1.0, 0.0, 0.0)))
    ball3 = world3.sweep(Sphere((0.0, 0.0, 0.0), 0.5), Vec3(20.0, 0.0, 0.0))
    for record in (hit, ball, hit3, ball3):
        assert record is not None and record.data == data
        assert not any(_tracked(record)), record


@pytest.mark.parametrize("make", [list, dict, _Entity])
def test_records_of_tracked_data_stay_on_the_list_and_their_cycles_are_collected(
        make: Any) -> None:
    """A record whose data is of a tracked kind stays on the collector's list, and a reference
    cycle through it (the data holding its own hit) is collected: taking such a record off
    the list would leak the cycle for good."""
    data = make()
    world = World()
    world.add(Segment((10.0, -1.0), (11.0, 1.0)), data)
    # (off the axis: a normal made in the call, not a premade axis normal)
    world.add(Circle((0.3, 30.0), 1.0), data)
    for record in (world.raycast(Ray((0.0, 0.0), (1.0, 0.0))),
                   world.sweep(Circle((0.0, 0.0), 0.5), Vec2(0.0, 40.0))):
        assert record is not None and record.data is data
        tracked = _tracked(record)
        assert tracked[0] and not any(tracked[1:])
    if make is _Entity:
        watch = _Entity()
        world.add(Segment((-10.0, -1.0), (-11.0, 1.0)), watch)
        hit = world.raycast(Ray((0.0, 0.0), (-1.0, 0.0)))
        assert hit is not None and hit.data is watch
        # the cycle watch -> hit -> watch, then every outside reference dropped
        watch.hit = hit
        gone = weakref.ref(watch)
        del hit, watch, record, world
        gc.collect()
        assert gone() is None


def test_many_calls_leave_no_objects_behind() -> None:
    world = mixed_world(5)
    batch = rays(6, 200)
    for ray in batch:
        world.raycast(ray)
    gc.collect()
    count = len(gc.get_objects())
    for _ in range(20):
        for ray in batch:
            world.raycast(ray)
    gc.collect()
    assert len(gc.get_objects()) - count < 50


@pytest.mark.parametrize("clone", [copy.copy, copy.deepcopy,
                                   lambda w: pickle.loads(pickle.dumps(w))])
def test_a_copy_answers_with_its_own_data(clone: Any) -> None:
    world = mixed_world(7)
    batch = rays(8, 100)
    before = [world.raycast(ray) for ray in batch]
    other = clone(world)
    for ray, want in zip(batch, before):
        got = other.raycast(ray)
        assert got == want
        if got is not None and want is not None and clone is copy.copy:
            assert got.data is want.data
    # the original still answers with its own objects after the copy described its own
    assert [world.raycast(ray) for ray in batch] == before


def test_bad_input_is_still_refused() -> None:
    world = mixed_world(9)
    with pytest.raises(TypeError, match="ray"):
        world.raycast((0.0, 0.0))  # type: ignore[arg-type]
    with pytest.raises(TypeError, match="mask"):
        world.raycast(Ray((0.0, 0.0), (1.0, 0.0)), mask=1.5)  # type: ignore[arg-type]
    with pytest.raises(ValueError, match="mask"):
        world.raycast(Ray((0.0, 0.0), (1.0, 0.0)), mask=-1)
    with pytest.raises(ValueError, match="origin"):
        Ray((math.nan, 0.0), (1.0, 0.0))
    with pytest.raises(ValueError, match="direction"):
        Ray((0.0, 0.0), (0.0, 0.0))
    with pytest.raises(ValueError, match="ray"):
        world.raycast(Ray((0.0, 0.0, 0.0), (1.0, 0.0, 0.0)))
    assert World().raycast(Ray((0.0, 0.0), (1.0, 0.0))) is None


def circles(seed: int, count: int) -> list[tuple[Circle, Vec2, float]]:
    """Circles from across the area (some touching at the start), displacements of any
    direction (some zero), target distances (some zero)."""
    rng = np.random.default_rng(seed)
    out = []
    for k in range(count):
        circle = Circle(tuple(rng.uniform(-10, 110, 2)), float(rng.uniform(0.05, 4)))
        disp = Vec2(*rng.uniform(-60, 60, 2)) if k % 10 else Vec2(0.0, 0.0)
        td = float(rng.uniform(0, 1)) if k % 3 == 0 else 0.0
        out.append((circle, disp, td))
    return out


@pytest.mark.parametrize("moving", [False, True])
@pytest.mark.parametrize("mask", [0xFFFFFFFF, 2, 0])
def test_a_circles_sweep_answers_as_the_general_path(moving: bool, mask: int) -> None:
    """Every kind of collider, static and moving, chains, under each mask, with zero
    displacements, target distances and circles that start touching: the same hit, bit for
    bit."""
    world = mixed_world(3, moving)
    hits = inside = 0
    for circle, disp, td in circles(4, 600):
        got = world.sweep(circle, disp, mask=mask, target_distance=td)
        same(got, world.sweep(circle, disp, mask=mask, target_distance=td,
                                    ignore=GENERAL))
        hits += got is not None
        inside += got is not None and got.started_inside
    assert (hits > 60 and inside > 5) if mask else hits == 0


@settings(max_examples=20, deadline=None)
@given(st.integers(0, 10_000), st.integers(0, 10_000))
def test_a_circles_sweep_answers_as_the_general_path_on_random_scenes(
        seed: int, circle_seed: int) -> None:
    world = mixed_world(seed)
    for circle, disp, td in circles(circle_seed, 20):
        same(world.sweep(circle, disp, target_distance=td),
                   world.sweep(circle, disp, target_distance=td, ignore=GENERAL))


def test_a_circles_sweep_closed_forms_and_changes() -> None:
    """A circle of radius 1 moved 10 along +x meets a wall at x = 6 after 5 units; a chain
    is reported as the chain; after a removal the next wall is met."""
    world = World()
    wall = world.add(Segment((6.0, -5.0), (6.0, 5.0)), "wall")
    chain = world.add(Chain([(9.0, -5.0), (9.0, 5.0)]), "chain")
    ball = Circle((0.0, 0.0), 1.0)
    hit = world.sweep(ball, Vec2(10.0, 0.0))
    assert hit is not None
    assert (hit.handle, hit.data, hit.fraction) == (wall, "wall", 0.5)
    assert (hit.point, hit.normal, hit.position) == (Vec2(6.0, 0.0), Vec2(-1.0, 0.0),
                                                     Vec2(5.0, 0.0))
    # the target distance grows the radius: met 0.5 earlier
    hit = world.sweep(ball, Vec2(10.0, 0.0), target_distance=0.5)
    assert hit is not None and hit.fraction == 0.45 and hit.position == Vec2(4.5, 0.0)
    world.remove(wall)
    hit = world.sweep(ball, Vec2(10.0, 0.0))
    assert hit is not None and (hit.handle, hit.data) == (chain, "chain")
    assert hit.fraction == pytest.approx(0.8, abs=1e-12)
    same(hit, world.sweep(ball, Vec2(10.0, 0.0), ignore=GENERAL))
    # too short to reach, and no motion at all: no hit
    assert world.sweep(ball, Vec2(1.0, 0.0)) is None
    assert world.sweep(ball, Vec2(0.0, 0.0)) is None
    # starts touching: fraction 0, at its own centre
    hit = world.sweep(Circle((8.5, 0.0), 1.0), Vec2(0.0, 3.0))
    assert hit is not None and hit.started_inside and hit.fraction == 0.0
    assert hit.position == Vec2(8.5, 0.0)


def test_a_circles_sweep_still_refuses_bad_input() -> None:
    world = mixed_world(9)
    ball = Circle((0.0, 0.0), 1.0)
    with pytest.raises(ValueError, match="target_distance"):
        world.sweep(ball, Vec2(1.0, 0.0), target_distance=-1.0)
    with pytest.raises(ValueError, match="target_distance"):
        world.sweep(ball, Vec2(1.0, 0.0), target_distance=math.nan)
    with pytest.raises(ValueError, match="displacement"):
        world.sweep(ball, (math.inf, 0.0))
    # a Vec2 made by arithmetic is not checked when made: the sweep checks it
    for far in (Vec2(1e300, 0.0) * 1e300, Vec2(0.0, 1.0) * 1e300):
        with pytest.raises(ValueError, match="displacement"):
            world.sweep(ball, far)
    with pytest.raises(TypeError, match="mask"):
        world.sweep(ball, Vec2(1.0, 0.0), mask=1.5)  # type: ignore[arg-type]
    with pytest.raises(ValueError, match="mask"):
        world.sweep(ball, Vec2(1.0, 0.0), mask=1 << 40)
    assert World().sweep(ball, Vec2(1.0, 0.0)) is None


def test_a_circles_sweep_leaks_no_reference() -> None:
    world = World()
    data = object()
    world.add(Segment((10.0, -1.0), (10.0, 1.0)), data)
    ball = Circle((0.0, 0.0), 1.0)
    move = Vec2(20.0, 0.0)
    first = world.sweep(ball, move)
    assert first is not None
    normal = first.normal
    del first
    before = (sys.getrefcount(data), sys.getrefcount(normal))
    for _ in range(10_000):
        world.sweep(ball, move)
        assert world.sweep(ball, -move) is None
    assert (sys.getrefcount(data), sys.getrefcount(normal)) == before
    hit = world.sweep(ball, move)
    assert sys.getrefcount(hit) == 2
    assert hit is not None
    position = hit.position
    del hit
    assert sys.getrefcount(position) == 2


def mixed_world_3d(seed: int, moving: bool = False) -> World:
    """Every kind of 3D table collider (a plane among them), each with data, some moving."""
    rng = np.random.default_rng(seed)
    world = World()
    world.add(Plane((0.0, 0.0, 1.0), -5.0), "floor")
    for k in range(40):
        c = rng.uniform(0, 50, 3)
        kind = k % 4
        shape: Any
        if kind == 0:
            shape = Sphere(tuple(c), float(rng.uniform(0.5, 4)))
        elif kind == 1:
            shape = AABB(tuple(c), tuple(c + rng.uniform(1, 6, 3)))
        elif kind == 2:
            shape = Capsule(tuple(c), tuple(c + rng.uniform(-6, 6, 3)), 1.0)
        else:
            # a capsule of radius 0: a 3D segment
            shape = Capsule(tuple(c), tuple(c + rng.uniform(-9, 9, 3)), 0.0)
        world.add(shape, [k], moving=moving and k % 3 == 0)
    return world


@pytest.mark.parametrize("moving", [False, True])
def test_a_3d_ray_answers_as_the_general_path(moving: bool) -> None:
    world = mixed_world_3d(11, moving)
    rng = np.random.default_rng(12)
    hits = inside = 0
    for _ in range(400):
        d = rng.normal(size=3)
        ray = Ray(tuple(rng.uniform(-5, 55, 3)), tuple(d / np.linalg.norm(d)),
                  math.inf if rng.uniform() < 0.8 else 20.0)
        got = world.raycast(ray)
        same(got, world.raycast(ray, ignore=GENERAL))
        if got is not None:
            assert type(got.point) is Vec3 and type(got.normal) is Vec3
            hits += 1
            inside += got.started_inside
    assert hits > 150 and inside > 0


def test_a_3d_ray_closed_form() -> None:
    world = World()
    ball = world.add(Sphere((10.0, 0.0, 0.0), 2.0), "ball")
    hit = world.raycast(Ray((0.0, 0.0, 0.0), (1.0, 0.0, 0.0)))
    assert hit is not None
    assert (hit.distance, hit.exit_distance, hit.handle, hit.data) == (8.0, 12.0, ball, "ball")
    assert (hit.point, hit.normal) == (Vec3(8.0, 0.0, 0.0), Vec3(-1.0, 0.0, 0.0))
    hit = world.raycast(Ray((10.5, 0.0, 0.0), (0.0, 1.0, 0.0)))
    assert hit is not None and hit.started_inside and hit.point == Vec3(10.5, 0.0, 0.0)
    assert world.raycast(Ray((0.0, 0.0, 0.0), (-1.0, 0.0, 0.0))) is None
    with pytest.raises(ValueError, match="ray"):
        world.raycast(Ray((0.0, 0.0), (1.0, 0.0)))


#: The script of the finalizer test, run in a process of its own (a failure is a crash).
MEDDLER_SCRIPT = """
import gc
from swept import Circle, Ray, Segment, Vec2, World

world = World()
world.add(Segment((10.0, -1.0), (10.0, 1.0)), "wall")
# a second World, queried too: its allocations reuse what a freed dict leaves
other = World()
other.add(Segment((10.0, -1.0), (10.0, 1.0)), "other")
ray = Ray((0.0, 0.0), (1.0, 0.0))
ball = Circle((0.0, 0.0), 1.0)
calls = []

class Meddler:
    def __init__(self):
        self.me = self

    def __del__(self):
        if len(calls) < 100:
            world._ray_scene = object()   # stale, as after any change
            calls.append(world.raycast(ray))
            other.raycast(ray)
            calls.append(world.sweep(ball, Vec2(20.0, 0.0)))

world.raycast(ray)
gc.set_threshold(1, 1, 1)
for _ in range(300):
    Meddler()
    hit = world.raycast(ray)
    assert (hit.handle, hit.data, hit.distance, hit.normal) == (0, "wall", 10.0, (-1.0, 0.0))
    met = world.sweep(ball, Vec2(20.0, 0.0))
    assert (met.handle, met.data, met.fraction) == (0, "wall", 0.45)
assert len(calls) == 100 and all(c.data == "wall" for c in calls)
print("done")
"""


def test_a_finalizer_that_describes_the_world_again_mid_call_is_safe() -> None:
    """The boxing allocates, so the garbage collector may run inside it, and a finalizer may
    query the World after a change, which describes the scene again and drops the normal dict
    the boxing is using: before the boxing held the dict from its first allocation on, this
    corrupted the heap (a crash in the allocator, or a SystemError from the dict). Forced
    here, in a process of its own: a collection on nearly every allocation, and a finalizer
    that marks the description stale (as any change does) and casts."""
    import os
    import subprocess

    import swept

    env = dict(os.environ, PYTHONPATH=os.path.dirname(os.path.dirname(swept.__file__)),
               SWEPT_COMPILE_NOTICE="0")
    run = subprocess.run([sys.executable, "-c", MEDDLER_SCRIPT], env=env, capture_output=True,
                         text=True, timeout=600)
    assert run.returncode == 0, run.stderr[-2000:]
    assert run.stdout.strip() == "done"


def test_one_way_colliders_and_sensors_answer_as_the_general_path() -> None:
    """A one-way platform (passed from below, met from above) and a sensor (skipped unless
    asked): the one-call paths answer as the general path, ray and circle alike."""
    world = mixed_world(13)
    platform = world.add(Segment((-50.0, 0.0), (150.0, 0.0)), "platform", one_way=(0.0, 1.0))
    zone = world.add(AABB((-50.0, 50.0), (150.0, 52.0)), "zone", sensor=True)
    down = Ray((120.0, 40.0), (0.0, -1.0))
    up = Ray((120.0, -40.0), (0.0, 1.0))
    hit = world.raycast(down)
    assert hit is not None and (hit.handle, hit.distance) == (platform, 40.0)
    passed = world.raycast(up)
    assert passed is None or passed.handle != platform
    sensed = world.raycast(Ray((120.0, 60.0), (0.0, -1.0)), include_sensors=True)
    assert sensed is not None and sensed.handle == zone
    for ray in rays(14, 300) + [down, up]:
        same(world.raycast(ray), world.raycast(ray, ignore=GENERAL))
    for circle, disp, td in circles(15, 300):
        same(world.sweep(circle, disp, target_distance=td),
             world.sweep(circle, disp, target_distance=td, ignore=GENERAL))
    met = world.sweep(Circle((120.0, 40.0), 1.0), Vec2(0.0, -80.0))
    assert met is not None and met.handle == platform and met.fraction == 39.0 / 80.0


@pytest.mark.parametrize("moving", [False, True])
def test_a_spheres_sweep_answers_as_the_general_path(moving: bool) -> None:
    """Spheres among every 3D collider kind (a plane too), zero moves, target distances,
    spheres that start touching: the one-call sweep equals the general path bit for bit."""
    world = mixed_world_3d(16, moving)
    rng = np.random.default_rng(17)
    hits = inside = 0
    for k in range(400):
        sphere = Sphere(tuple(rng.uniform(-5, 55, 3)), float(rng.uniform(0.05, 3)))
        disp = Vec3(*rng.uniform(-30, 30, 3)) if k % 10 else Vec3(0.0, 0.0, 0.0)
        td = float(rng.uniform(0, 1)) if k % 3 == 0 else 0.0
        got = world.sweep(sphere, disp, target_distance=td)
        same(got, world.sweep(sphere, disp, target_distance=td, ignore=GENERAL))
        if got is not None:
            assert type(got.position) is Vec3
            hits += 1
            inside += got.started_inside
    assert hits > 100 and inside > 5


def test_a_spheres_sweep_closed_form_and_bad_input() -> None:
    world = World()
    world.add(Plane((0.0, 0.0, 1.0), 0.0), "floor")
    ball = Sphere((0.0, 0.0, 10.0), 1.0)
    hit = world.sweep(ball, Vec3(0.0, 0.0, -20.0))
    assert hit is not None and (hit.fraction, hit.data) == (0.45, "floor")
    assert (hit.point, hit.normal, hit.position) == ((0.0, 0.0, 0.0), (0.0, 0.0, 1.0),
                                                     (0.0, 0.0, 1.0))
    assert world.sweep(ball, Vec3(0.0, 0.0, 20.0)) is None
    with pytest.raises(ValueError, match="displacement"):
        world.sweep(ball, Vec3(0.0, 0.0, 1.0) * 1e300)
    with pytest.raises(ValueError, match="target_distance"):
        world.sweep(ball, Vec3(0.0, 0.0, -20.0), target_distance=-0.5)
    with pytest.raises(ValueError, match="shape"):
        world.sweep(Circle((0.0, 0.0), 1.0), Vec2(1.0, 0.0))
