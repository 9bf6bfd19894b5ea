"""World features a game's world asks for: sensors, a query filter, bulk adds from numpy,
pickling and copying, and the public change counter, each against brute force over the
scalar API or against the same world built one ``add`` at a time."""

from __future__ import annotations

import copy
import dataclasses
import math
import pickle
from collections.abc import Callable
from typing import Any

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from swept import AABB, Capsule, Circle, Plane, Polygon, Ray, Segment, Sphere, raycast
from swept.constants import MAX_COORDINATE
from swept.contact import contact
from swept.resolve import resolve
from swept.sim import Body, Simulation
from swept.sweep import sweep
from swept.world import ALL_LAYERS, World, WorldRayHit, WorldSweepHit

#: Two routes to one closed form (the compiled kernels and the scalar API) agree to this,
#: relative to the scene's size.
TOL = 1e-9


# ---------------------------------------------------------------------------------------------
# brute force over the scalar API


def _seen(world: World, mask: int, accept: Callable[[int, Any], bool] | None,
          sensors: bool) -> list[int]:
    return [h for h in world.handles()
            if world.layer(h) & mask and (sensors or not world.is_sensor(h))
            and (accept is None or accept(h, world.data(h)))]


def brute_raycast(world: World, ray: Ray, mask: int = ALL_LAYERS,
                  accept: Callable[[int, Any], bool] | None = None, sensors: bool = False
                  ) -> tuple[Any, int] | None:
    best = None
    for h in _seen(world, mask, accept, sensors):
        hit = raycast(ray, world.shape(h))
        if hit is not None and (best is None or hit.distance < best[0].distance):
            best = (hit, h)
    return best


def brute_sweep(world: World, shape: Any, disp: Any, mask: int = ALL_LAYERS,
                accept: Callable[[int, Any], bool] | None = None, sensors: bool = False
                ) -> tuple[Any, int] | None:
    best = None
    for h in _seen(world, mask, accept, sensors):
        hit = sweep(shape, disp, world.shape(h))
        if hit is not None and (best is None or hit.fraction < best[0].fraction):
            best = (hit, h)
    return best


def brute_contacts(world: World, shape: Any, mask: int = ALL_LAYERS,
                   accept: Callable[[int, Any], bool] | None = None, sensors: bool = True
                   ) -> list[int]:
    return [h for h in _seen(world, mask, accept, sensors)
            if contact(shape, world.shape(h)) is not None]


def close(a: Any, b: Any, tol: float = TOL) -> bool:
    a = np.atleast_1d(np.asarray(a, dtype=float))
    b = np.atleast_1d(np.asarray(b, dtype=float))
    return bool(np.all(np.abs(a - b) <= tol * np.maximum(1.0, np.maximum(abs(a), abs(b)))))


def assert_ray_matches(got: WorldRayHit | None, want: tuple[Any, int] | None) -> None:
    if want is None:
        assert got is None
        return
    assert got is not None
    hit, h = want
    assert close(got.distance, hit.distance)
    if got.handle == h:
        assert close(got.point, hit.point)
        assert close(got.normal, hit.normal)


def assert_sweep_matches(got: WorldSweepHit | None, want: tuple[Any, int] | None) -> None:
    if want is None:
        assert got is None
        return
    assert got is not None
    hit, h = want
    assert close(got.fraction, hit.fraction)
    if got.handle == h:
        assert close(got.point, hit.point)
        assert close(got.position, hit.position)


# ---------------------------------------------------------------------------------------------
# random scenes


def random_shape(rng: np.random.Generator, dim: int, size: float = 20.0) -> Any:
    c = rng.uniform(-size, size, dim)
    if dim == 3:
        kind = rng.integers(3)
        if kind == 0:
            return Sphere(c, rng.uniform(0.1, 2.0))
        if kind == 1:
            return AABB(c, c + rng.uniform(0.1, 3, 3))
        return Capsule(c, c + rng.uniform(-3, 3, 3), rng.uniform(0.0, 1.0))
    kind = rng.integers(5)
    if kind == 0:
        return Circle(c, rng.uniform(0.1, 2.0))
    if kind == 1:
        return Segment(c, c + rng.uniform(-3, 3, 2))
    if kind == 2:
        return AABB(c, c + rng.uniform(0.1, 3, 2))
    if kind == 3:
        return Polygon.regular(int(rng.integers(3, 7)), rng.uniform(0.3, 2.5), c,
                               rng.uniform(0, 6))
    return Capsule(c, c + rng.uniform(-3, 3, 2), rng.uniform(0.0, 1.0))


def random_world(seed: int, n: int, dim: int = 2, *, sensors: bool = True) -> World:
    """n random colliders (some moving, some sensors, on layers 1 to 3), a plane, some churn."""
    rng = np.random.default_rng(seed)
    world = World()
    for i in range(n):
        world.add(random_shape(rng, dim), data=f"c{i}", layer=int(rng.choice([1, 2, 3])),
                  moving=bool(rng.integers(2)), sensor=sensors and rng.random() < 0.25)
    world.add(Plane((0, 1) if dim == 2 else (0, 1, 0), -25.0), data="floor")
    if sensors:
        world.add(Plane((1, 0) if dim == 2 else (1, 0, 0), -28.0), data="zone", sensor=True)
    for _ in range(n // 4):
        handles = world.handles()
        h = int(rng.choice(handles))
        if rng.random() < 0.5:
            world.remove(h)
        elif not isinstance(world.shape(h), Plane):
            world.move(h, random_shape(rng, dim))
    return world


def random_ray(rng: np.random.Generator, dim: int) -> Ray:
    return Ray(rng.uniform(-30, 30, dim), rng.normal(size=dim),
               math.inf if rng.random() < 0.7 else rng.uniform(0, 40))


# ---------------------------------------------------------------------------------------------
# sensors


def test_rays_and_sweeps_pass_through_sensors_unless_asked() -> None:
    world = World()
    floor = world.add(Segment((0, 0), (10, 0)), data="floor")
    zone = world.add(Circle((5, 5), 1), data="zone", sensor=True)
    ray = Ray((5, 10), (0, -1))
    hit = world.raycast(ray)
    assert hit is not None and hit.handle == floor and hit.distance == 10.0
    hit = world.raycast(ray, include_sensors=True)
    assert hit is not None and hit.handle == zone and hit.distance == 4.0
    assert hit.data == "zone" and hit.exit_distance == 6.0
    assert [h.handle for h in world.raycast_all(ray)] == [floor]
    assert [h.handle for h in world.raycast_all(ray, include_sensors=True)] == [zone, floor]
    ball = Circle((5, 10), 0.5)
    met = world.sweep(ball, (0, -10))
    assert met is not None and met.handle == floor and met.fraction == pytest.approx(0.95,
                                                                                     abs=1e-12)
    met = world.sweep(ball, (0, -10), include_sensors=True)
    assert met is not None and met.handle == zone and met.fraction == pytest.approx(0.35,
                                                                                    abs=1e-12)
    box = Polygon.box(0.5, 0.5).placed((5, 10), 0.0)
    met = world.sweep(box, (0, -10), include_sensors=True)
    assert met is not None and met.handle == zone
    assert world.is_sensor(zone) and not world.is_sensor(floor)


def test_overlap_queries_report_sensors_by_default() -> None:
    world = World()
    wall = world.add(AABB((0, 0), (4, 4)))
    zone = world.add(AABB((2, 2), (6, 6)), sensor=True)
    assert world.query_point((3, 3)) == [wall, zone]
    assert world.query_point((3, 3), include_sensors=False) == [wall]
    assert world.query_aabb(AABB((5, 5), (7, 7))) == [zone]
    assert [c.handle for c in world.contacts(Circle((3, 3), 0.5))] == [wall, zone]
    assert [c.handle for c in world.contacts(Circle((3, 3), 0.5), include_sensors=False)] \
        == [wall]


def test_a_sensor_that_touches_at_the_same_distance_loses_to_the_smaller_handle() -> None:
    world = World()
    zone = world.add(Segment((-1, 0), (1, 0)), sensor=True)
    wall = world.add(Segment((-1, 0), (1, 0)))
    # exactly coincident: the tie goes to the smaller handle, whichever path found it
    hit = world.raycast(Ray((0, 5), (0, -1)), include_sensors=True)
    assert hit is not None and hit.handle == zone and hit.distance == 5.0
    world2 = World()
    wall = world2.add(Segment((-1, 0), (1, 0)))
    world2.add(Segment((-1, 0), (1, 0)), sensor=True)
    hit = world2.raycast(Ray((0, 5), (0, -1)), include_sensors=True)
    assert hit is not None and hit.handle == wall


def test_an_ignore_generator_is_read_once_by_every_path() -> None:
    """The sensor and filter paths ask the kernels too: a one-shot ``ignore`` iterator must
    be read once, not consumed by the first of them."""
    world = World()
    near = world.add(Segment((-1, 1), (1, 1)))
    zone = world.add(Segment((-1, 2), (1, 2)), sensor=True)
    far = world.add(Segment((-1, 0), (1, 0)))
    ray = Ray((0, 5), (0, -1))
    ball = Circle((0, 5), 0.25)
    accept = lambda h, d: True  # noqa: E731
    for kwargs in ({"include_sensors": True}, {"filter": accept},
                   {"filter": accept, "include_sensors": True}):
        hit = world.raycast(ray, ignore=(h for h in (near, zone)), **kwargs)
        assert hit is not None and hit.handle == far
        met = world.sweep(ball, (0, -10), ignore=(h for h in (near, zone)), **kwargs)
        assert met is not None and met.handle == far


def test_batches_never_see_sensors() -> None:
    world = random_world(3, 40)
    solid = World()
    for h in world.handles():
        if not world.is_sensor(h):
            solid.add(world.shape(h), layer=world.layer(h))
    rng = np.random.default_rng(4)
    o = rng.uniform(-30, 30, (300, 2))
    d = rng.normal(size=(300, 2))
    handles = np.array([h for h in world.handles() if not world.is_sensor(h)])
    got = world.raycast_many(o, d)
    want = solid.raycast_many(o, d)
    assert np.array_equal(got.hit, want.hit)
    assert np.array_equal(got.distance, want.distance)
    assert np.array_equal(got.handle[got.hit], handles[want.handle[want.hit]])
    r = rng.uniform(0.1, 1, 300)
    got_s = world.sweep_many(o, r, d * 5)
    want_s = solid.sweep_many(o, r, d * 5)
    assert np.array_equal(got_s.fraction, want_s.fraction)
    got_c = world.contact_many(o, r)
    want_c = solid.contact_many(o, r)
    assert np.array_equal(got_c.depth, want_c.depth)
    assert np.array_equal(got_c.handle[got_c.hit], handles[want_c.handle[want_c.hit]])


def test_sensors_move_and_are_removed() -> None:
    world = World()
    zone = world.add(Circle((0, 0), 1), sensor=True, data="z")
    assert world.query_point((0, 0)) == [zone]
    world.move(zone, Circle((10, 0), 1))
    assert world.query_point((0, 0)) == []
    assert world.query_point((10, 0)) == [zone]
    assert world.is_sensor(zone) and world.shape(zone) == Circle((10, 0), 1)
    hit = world.raycast(Ray((0, 0), (1, 0)), include_sensors=True)
    assert hit is not None and hit.distance == 9.0
    assert world.raycast(Ray((0, 0), (1, 0))) is None
    world.remove(zone)
    assert world.query_point((10, 0)) == [] and len(world) == 0
    with pytest.raises(ValueError, match="removed"):
        world.is_sensor(zone)


def test_a_sensor_half_plane_is_a_trigger_everywhere_on_its_side() -> None:
    world = World()
    below = world.add(Plane((0, 1), 0.0), sensor=True)
    assert world.query_point((100, -5)) == [below]
    assert world.query_point((100, 5)) == []
    assert world.raycast(Ray((0, 5), (0, -1))) is None
    hit = world.raycast(Ray((0, 5), (0, -1)), include_sensors=True)
    assert hit is not None and hit.handle == below and hit.distance == 5.0


def test_a_simulation_ball_falls_through_a_sensor() -> None:
    sim = Simulation(gravity=(0.0, 100.0), step=1.0 / 60.0)
    sim.world.add(Segment((-10, 5), (10, 5)), sensor=True)
    ball = sim.add(Body(Circle((0, 0), 1.0), ccd="swept"))
    sim.run(60)
    assert ball.position.y > 40.0


def test_resolve_does_not_push_out_of_a_sensor() -> None:
    """``resolve`` gathers a World's contacts, which report sensors by default: it must ask
    for solids only, or a shape inside a trigger zone is pushed out of it."""
    world = World()
    wall = world.add(AABB((-10, 1), (10, 5)))
    world.add(Circle((0, 0), 3), sensor=True)
    out = resolve(Circle((0, 0), 1.5), (0.0, 2.0), world)
    assert out.shape == Circle((0, -0.5), 1.5)
    assert {h for h, _ in out.contacts} == {wall}
    assert out.velocity == (0.0, 0.0)


def test_move_and_slide_walks_through_a_sensor() -> None:
    """The controller gathers obstacles with ``query_aabb``, which reports sensors by default:
    it must ask for solids only, or a trigger zone stops the character like a wall."""
    world = World()
    world.add(Segment((-100, 10), (100, 10)), data="floor")
    world.add(AABB((3, -5), (5, 9)), data="zone", sensor=True)
    moved = world.move_and_slide(Circle((0, 9), 1.0), (60.0, 0.0), 0.25)
    assert moved.position.x == pytest.approx(15.0, abs=1e-9)
    assert not moved.on_wall


@settings(max_examples=25, deadline=None)
@given(seed=st.integers(0, 2**31), dim=st.sampled_from([2, 3]))
def test_scalar_queries_with_sensors_equal_brute_force(seed: int, dim: int) -> None:
    world = random_world(seed, 30, dim)
    rng = np.random.default_rng(seed + 1)
    for _ in range(10):
        ray = random_ray(rng, dim)
        mask = int(rng.choice([1, 2, ALL_LAYERS]))
        for sensors in (False, True):
            assert_ray_matches(world.raycast(ray, mask=mask, include_sensors=sensors),
                               brute_raycast(world, ray, mask, sensors=sensors))
        mover = random_shape(rng, dim, 25.0)
        disp = rng.normal(size=dim) * 10
        assert_sweep_matches(world.sweep(mover, disp, mask=mask, include_sensors=True),
                             brute_sweep(world, mover, disp, mask, sensors=True))
        assert [c.handle for c in world.contacts(mover, mask=mask)] == \
            brute_contacts(world, mover, mask)


# ---------------------------------------------------------------------------------------------
# the query filter


@settings(max_examples=25, deadline=None)
@given(seed=st.integers(0, 2**31), dim=st.sampled_from([2, 3]),
       keep=st.floats(0.0, 1.0), sensors=st.booleans())
def test_filtered_queries_equal_brute_force_over_the_accepted(seed: int, dim: int, keep: float,
                                                              sensors: bool) -> None:
    world = random_world(seed, 30, dim)
    rng = np.random.default_rng(seed + 2)
    accepted = {h for h in world.handles() if rng.random() < keep}

    def accept(h: int, data: Any) -> bool:
        assert data == world.data(h)
        return h in accepted

    for _ in range(10):
        ray = random_ray(rng, dim)
        mask = int(rng.choice([1, 2, ALL_LAYERS]))
        assert_ray_matches(world.raycast(ray, mask=mask, filter=accept, include_sensors=sensors),
                           brute_raycast(world, ray, mask, accept, sensors))
        got = [(h.distance, h.handle) for h in world.raycast_all(ray, mask=mask, filter=accept,
                                                                 include_sensors=sensors)]
        want = sorted((hit.distance, h) for h in _seen(world, mask, accept, sensors)
                      if (hit := raycast(ray, world.shape(h))) is not None)
        assert [h for _, h in got] == [h for _, h in want]
        mover = random_shape(rng, dim, 25.0)
        disp = rng.normal(size=dim) * 10
        assert_sweep_matches(world.sweep(mover, disp, mask=mask, filter=accept,
                                         include_sensors=sensors),
                             brute_sweep(world, mover, disp, mask, accept, sensors))
        assert [c.handle for c in world.contacts(mover, mask=mask, filter=accept,
                                                 include_sensors=sensors)] == \
            brute_contacts(world, mover, mask, accept, sensors)
        box = mover.aabb
        assert world.query_aabb(box, mask=mask, filter=accept) == \
            brute_contacts(world, box, mask, accept)
        p = rng.uniform(-20, 20, dim)
        assert world.query_point(p, mask=mask, filter=accept) == \
            brute_contacts(world, AABB(p, p), mask, accept)


@pytest.mark.parametrize("scale", [1e-6, 1.0, 1e7, 1e45])
def test_filtered_rays_and_sweeps_equal_brute_force_at_every_scale(scale: float) -> None:
    rng = np.random.default_rng(8)
    world = World()
    for i in range(40):
        c = rng.uniform(-20, 20, 2) * scale
        if i % 3 == 0:
            world.add(Circle(c, rng.uniform(0.1, 2) * scale), sensor=i % 4 == 0)
        elif i % 3 == 1:
            world.add(Segment(c, c + rng.uniform(-3, 3, 2) * scale))
        else:
            world.add(Polygon.regular(5, scale, c, 0.3))

    def accept(h: int, data: Any) -> bool:
        return h % 3 != 1

    for _ in range(60):
        ray = Ray(rng.uniform(-30, 30, 2) * scale, rng.normal(size=2))
        got = world.raycast(ray, filter=accept, include_sensors=True)
        want = brute_raycast(world, ray, accept=accept, sensors=True)
        assert_ray_matches(got, want)
        if got is not None and want is not None:
            assert close(np.divide(got.point, scale), np.divide(want[0].point, scale))
        mover = Circle(rng.uniform(-30, 30, 2) * scale, scale)
        disp = rng.normal(size=2) * 10 * scale
        met = world.sweep(mover, disp, filter=accept, include_sensors=True)
        assert_sweep_matches(met, brute_sweep(world, mover, disp, accept=accept, sensors=True))
        for found in (got, met):
            assert found is None or all(math.isfinite(x) for x in (*found.point, *found.normal))


def test_accept_all_filter_answers_as_no_filter() -> None:
    world = random_world(11, 60, sensors=False)
    rng = np.random.default_rng(12)
    for _ in range(200):
        ray = random_ray(rng, 2)
        a = world.raycast(ray)
        b = world.raycast(ray, filter=lambda h, d: True)
        assert (a is None) == (b is None)
        if a is not None and b is not None:
            assert a.handle == b.handle and close(a.distance, b.distance, 1e-12)
            assert close(a.point, b.point, 1e-12) and close(a.normal, b.normal, 1e-12)
        ball = Circle(rng.uniform(-25, 25, 2), 0.5)
        disp = rng.normal(size=2) * 10
        sa = world.sweep(ball, disp)
        sb = world.sweep(ball, disp, filter=lambda h, d: True)
        assert (sa is None) == (sb is None)
        if sa is not None and sb is not None:
            assert close(sa.fraction, sb.fraction)


def test_filter_is_called_only_for_candidates_the_mask_passes() -> None:
    world = World()
    for i in range(20):
        world.add(Segment((i, -1), (i, 1)), layer=1 + (i % 2))
    calls: list[int] = []

    def accept(h: int, data: Any) -> bool:
        calls.append(h)
        return h >= 10

    hit = world.raycast(Ray((-1, 0), (1, 0)), mask=2, filter=accept)
    assert hit is not None and hit.handle == 11 and hit.distance == 12.0
    assert calls and all(world.layer(h) & 2 for h in calls)
    calls.clear()
    assert world.query_aabb(AABB((0, -1), (19, 1)), mask=1, filter=accept) == \
        [10, 12, 14, 16, 18]
    assert sorted(calls) == list(range(0, 20, 2))


def test_a_filtered_ray_stops_once_the_next_box_is_beyond_the_best_hit() -> None:
    """The walk in box-entry order must end at the first accepted hit, not call the filter
    for every wall the ray would cross."""
    world = World()
    for i in range(1000):
        world.add(Segment((i, -1), (i, 1)), data=i)
    calls: list[int] = []

    def accept(h: int, data: Any) -> bool:
        calls.append(h)
        return data >= 500

    hit = world.raycast(Ray((-1, 0), (1, 0)), filter=accept)
    assert hit is not None and hit.handle == 500 and hit.distance == 501.0
    assert len(calls) < 520
    calls.clear()
    met = world.sweep(Circle((-1, 0), 0.25), (2000, 0), filter=accept)
    assert met is not None and met.handle == 500
    assert met.fraction == pytest.approx(500.75 / 2000, abs=1e-12)
    assert len(calls) < 520


@pytest.mark.parametrize("y", [0.0, 0.5, 1.0])
def test_filtered_axis_parallel_rays_along_faces_and_through_ends(y: float) -> None:
    """The walk's box-entry bound with a zero direction component: grazing a face (y = 0 or
    1), through the boxes' middle, and collinear with segments, past rejected colliders."""
    world = World()
    for i in range(10):
        world.add(AABB((2 * i, 0), (2 * i + 1, 1)), data=i)
        world.add(Segment((2 * i + 1.25, y), (2 * i + 1.75, y)), data=i)

    def accept(h: int, data: Any) -> bool:
        return data >= 6

    for origin, direction in (((-5, y), (1, 0)), ((30, y), (-1, 0)), ((13.5, -5), (0, 1)),
                              ((13.25, 5), (0, -1))):
        ray = Ray(origin, direction)
        got = world.raycast(ray, filter=accept)
        want = brute_raycast(world, ray, accept=accept)
        assert_ray_matches(got, want)
        assert got is not None and want is not None and got.handle == want[1]
        met = world.sweep(Circle(origin, 0.0), np.multiply(direction, 40.0), filter=accept)
        assert_sweep_matches(met, brute_sweep(world, Circle(origin, 0.0),
                                              np.multiply(direction, 40.0), accept=accept))


def test_a_filter_that_rejects_everything_finds_nothing() -> None:
    world = random_world(5, 20)
    never = lambda h, d: False  # noqa: E731
    assert world.raycast(Ray((0, 0), (1, 0)), filter=never) is None
    assert world.raycast_all(Ray((0, 0), (1, 0)), filter=never) == []
    assert world.sweep(Circle((0, 0), 1), (30, 0), filter=never) is None
    assert world.contacts(Circle((0, 0), 100), filter=never) == []
    assert world.query_point((0, 0), filter=never) == []


@pytest.mark.parametrize("bad", [1, "h > 3", [lambda h, d: True]])
def test_a_filter_that_is_not_callable_is_a_type_error(bad: Any) -> None:
    world = World()
    world.add(Circle((0, 0), 1))
    for call in (lambda: world.raycast(Ray((0, 5), (0, -1)), filter=bad),
                 lambda: world.raycast_all(Ray((0, 5), (0, -1)), filter=bad),
                 lambda: world.sweep(Circle((0, 5), 1), (0, -5), filter=bad),
                 lambda: world.contacts(Circle((0, 0), 1), filter=bad),
                 lambda: world.query_aabb(AABB((0, 0), (1, 1)), filter=bad),
                 lambda: world.query_point((0, 0), filter=bad),
                 lambda: World().query_point((0, 0), filter=bad)):
        with pytest.raises(TypeError, match="filter"):
            call()
    with pytest.raises(TypeError, match="include_sensors"):
        world.raycast(Ray((0, 5), (0, -1)), include_sensors=1)  # type: ignore[arg-type]
    with pytest.raises(TypeError, match="sensor"):
        world.add(Circle((0, 0), 1), sensor="yes")  # type: ignore[arg-type]


# ---------------------------------------------------------------------------------------------
# bulk adds


def _per_shape(shapes: list[Any], **kw: Any) -> World:
    world = World()
    for s in shapes:
        world.add(s, **kw)
    return world


def _fields(batch: Any) -> list[str]:
    return [f.name for f in dataclasses.fields(batch)]


def _same_answers(a: World, b: World, dim: int, seed: int) -> None:
    """Two worlds answer every query identically (batches bit for bit)."""
    rng = np.random.default_rng(seed)
    o = rng.uniform(-30, 30, (400, dim))
    d = rng.normal(size=(400, dim))
    for ra, rb in ((a.raycast_many(o, d), b.raycast_many(o, d)),
                   (a.sweep_many(o, np.full(400, 0.3), d * 5),
                    b.sweep_many(o, np.full(400, 0.3), d * 5))):
        for field in _fields(ra):
            assert np.array_equal(getattr(ra, field), getattr(rb, field)), field
    ca, cb = a.contact_many(o, np.full(400, 2.0)), b.contact_many(o, np.full(400, 2.0))
    for field in _fields(ca):
        assert np.array_equal(getattr(ca, field), getattr(cb, field)), field
    for i in range(40):
        ray = Ray(o[i], d[i])
        assert a.raycast(ray) == b.raycast(ray)
        assert a.raycast_all(ray) == b.raycast_all(ray)
        mover = random_shape(rng, dim, 25.0)
        assert a.sweep(mover, d[i] * 5) == b.sweep(mover, d[i] * 5)
        assert a.contacts(mover) == b.contacts(mover)
        assert a.query_point(o[i]) == b.query_point(o[i])


@pytest.mark.parametrize("dim", [2, 3])
@pytest.mark.parametrize("moving", [False, True])
def test_bulk_adds_answer_as_per_shape_adds(dim: int, moving: bool) -> None:
    rng = np.random.default_rng(dim + 2 * moving)
    n = 300
    a = rng.uniform(-25, 25, (n, dim))
    segs = np.hstack((a, a + rng.uniform(-4, 4, (n, dim))))
    centers = rng.uniform(-25, 25, (n, dim))
    radii = rng.uniform(0.0, 2.0, n)
    radii[:5] = 0.0
    mins = rng.uniform(-25, 25, (n, dim))
    maxs = mins + rng.uniform(0.0, 3.0, (n, dim))
    ball = Circle if dim == 2 else Sphere
    shapes = [Segment(r[:2], r[2:]) if dim == 2 else Capsule(r[:3], r[3:], 0.0) for r in segs]
    shapes += [ball(c, r) for c, r in zip(centers, radii)]
    shapes += [AABB(lo, hi) for lo, hi in zip(mins, maxs)]
    one = _per_shape(shapes, layer=3, moving=moving)
    bulk = World()
    h1 = bulk.add_segments(segs, layer=3, moving=moving)
    h2 = bulk.add_circles(centers, radii, layer=3, moving=moving)
    h3 = bulk.add_boxes(mins, maxs, layer=3, moving=moving)
    assert h1.dtype == np.int64
    assert np.array_equal(np.concatenate((h1, h2, h3)), np.arange(3 * n))
    assert bulk.handles() == one.handles() and len(bulk) == 3 * n and bulk.dim == dim
    for h in (0, n - 1, n, 2 * n - 1, 2 * n, 3 * n - 1):
        assert bulk.shape(h) == one.shape(h)
        assert bulk.layer(h) == 3 and bulk.is_moving(h) == moving and bulk.data(h) is None
    _same_answers(bulk, one, dim, 7)


@settings(max_examples=30, deadline=None)
@given(seed=st.integers(0, 2**31), scale=st.sampled_from([1e-6, 1.0, 1e7, 1e40]),
       dim=st.sampled_from([2, 3]))
def test_bulk_rows_at_any_scale_answer_batches_bit_for_bit(seed: int, scale: float,
                                                          dim: int) -> None:
    rng = np.random.default_rng(seed)
    n = 40
    a = np.round(rng.uniform(-20, 20, (n, dim)), 1) * scale
    # axis-aligned, flat and point-like rows among the random ones
    step = np.round(rng.uniform(-3, 3, (n, dim)), 1) * scale
    step[: n // 4, 1:] = 0.0
    step[np.all(step == 0.0, axis=1), 0] = scale
    radii = np.where(rng.random(n) < 0.2, 0.0, rng.uniform(0, 2, n) * scale)
    size = np.where(rng.random((n, dim)) < 0.2, 0.0, rng.uniform(0, 3, (n, dim)) * scale)
    ball = Circle if dim == 2 else Sphere
    shapes = [Segment(p, p + q) if dim == 2 else Capsule(p, p + q, 0.0) for p, q in zip(a, step)]
    shapes += [ball(p, r) for p, r in zip(a, radii)] + [AABB(p, p + e) for p, e in zip(a, size)]
    one = _per_shape(shapes)
    bulk = World()
    bulk.add_segments(np.hstack((a, a + step)))
    bulk.add_circles(a, radii)
    bulk.add_boxes(a, a + size)
    o = rng.uniform(-30, 30, (200, dim)) * scale
    d = rng.normal(size=(200, dim))
    ra, rb = bulk.raycast_many(o, d), one.raycast_many(o, d)
    for field in _fields(ra):
        assert np.array_equal(getattr(ra, field), getattr(rb, field)), field
    for h in range(3 * n):
        assert bulk.shape(h) == one.shape(h)


def test_bulk_rows_mix_with_adds_moves_and_removes() -> None:
    rng = np.random.default_rng(1)
    a = rng.uniform(-20, 20, (50, 2))
    segs = np.hstack((a, a + rng.uniform(-3, 3, (50, 2))))
    bulk = World()
    one = World()
    first = bulk.add(Circle((0, 0), 1), data="c")
    one.add(Circle((0, 0), 1), data="c")
    hs = bulk.add_segments(segs, data=[f"s{i}" for i in range(50)], mask=5)
    for i, r in enumerate(segs):
        one.add(Segment(r[:2], r[2:]), data=f"s{i}", mask=5)
    assert first == 0 and hs[0] == 1
    assert bulk.data(7) == "s6" and bulk.mask(7) == 5
    for w in (bulk, one):
        w.remove(3)
        w.move(4, Circle((5, 5), 2))
        w.add(AABB((1, 1), (2, 2)))
    assert bulk.handles() == one.handles()
    assert bulk.shape(4) == Circle((5, 5), 2)
    with pytest.raises(ValueError, match="removed"):
        bulk.shape(3)
    _same_answers(bulk, one, 2, 3)


def test_bulk_adds_accept_lists_one_radius_and_nothing() -> None:
    world = World()
    assert world.add_segments(np.zeros((0, 4))).shape == (0,)
    assert world.add_circles([], []).shape == (0,)
    assert world.dim is None and len(world) == 0
    hs = world.add_circles([[0, 0], [5, 0]], 1.5)
    assert hs.tolist() == [0, 1] and world.shape(1) == Circle((5, 0), 1.5)
    hs = world.add_boxes([(1, 1)], [(2, 3)], data=("box",))
    assert world.shape(2) == AABB((1, 1), (2, 3)) and world.data(2) == "box"


@pytest.mark.parametrize(("call", "name", "row"), [
    (lambda w: w.add_segments([[0, 0, 1, 1], [0, math.nan, 1, 1]]), "segments", "1"),
    (lambda w: w.add_segments([[0, 0, 1, 1], [0, 0, 1, 1], [0, 0, math.inf, 1]]), "segments",
     "2"),
    (lambda w: w.add_segments([[0, 0, 1, 1], [0, 0, 2 * MAX_COORDINATE, 1]]), "segments", "1"),
    (lambda w: w.add_segments([[0, 0, 1, 1], [3, 3, 3, 3]]), "segments", "row 1"),
    (lambda w: w.add_segments([[0, 0, 1]]), "segments", "(n, 4)"),
    (lambda w: w.add_segments([0, 0, 1, 1]), "segments", "(n, 4)"),
    (lambda w: w.add_circles([[0, 0], [1, 1]], [1.0, -0.5]), "radii", "row 1"),
    (lambda w: w.add_circles([[0, 0], [1, 1]], [1.0]), "radii", "2 entries"),
    (lambda w: w.add_circles([[0, 0, 0, 0]], [1.0]), "centers", "(n, 2)"),
    (lambda w: w.add_boxes([[0, 0], [2, 2]], [[1, 1], [3, 1]]), "maxs", "row 1"),
    (lambda w: w.add_boxes([[0, 0]], [[1, 1, 1]]), "maxs", "shape"),
    (lambda w: w.add_circles([[0, 0]], [1.0], data=[1, 2]), "data", "1 entries"),
])
def test_bulk_add_bad_input_names_the_argument_and_row(call: Any, name: str, row: str) -> None:
    world = World()
    with pytest.raises(ValueError, match=name) as info:
        call(world)
    assert row in str(info.value)
    assert len(world) == 0 and world.dim is None and world.version == 0


@pytest.mark.parametrize(("call", "name"), [
    (lambda w, a: w.add_segments(a), "segments"),
    (lambda w, a: w.add_circles(a, 1.0), "centers"),
    (lambda w, a: w.add_circles([(0.0, 0.0)] * len(a), [r[0] for r in a]), "radii"),
    (lambda w, a: w.add_boxes(a, a), "mins"),
])
def test_bulk_arrays_follow_the_input_contract(call: Any, name: str) -> None:
    """Strings are a TypeError, huge ints and 1e60 a ValueError, each naming the argument."""
    world = World()
    row = [0.0, 0.0, 1.0, 1.0] if name == "segments" else [0.0, 0.0]
    for bad in ([[10**400] + row[1:]], [[1e60] + row[1:]]):
        with pytest.raises(ValueError, match=rf"^{name} .*MAX_COORDINATE"):
            call(world, bad)
    with pytest.raises(TypeError, match=rf"^{name} "):
        call(world, [["1"] + row[1:]])
    with pytest.raises(TypeError, match=rf"^{name} "):
        call(world, np.array([["1"] * len(row)]))
    assert len(world) == 0 and world.version == 0


def test_is_sensor_of_an_unknown_handle_is_named() -> None:
    world = World()
    world.add(Circle((0, 0), 1))
    with pytest.raises(ValueError, match="handle 5: .*never added"):
        world.is_sensor(5)
    with pytest.raises(TypeError, match="handle"):
        world.is_sensor("0")  # type: ignore[arg-type]


def test_bulk_add_of_the_wrong_dimension_is_named() -> None:
    world = World()
    world.add(Circle((0, 0), 1))
    with pytest.raises(ValueError, match="segments: this world is 2D"):
        world.add_segments(np.zeros((3, 6)) + np.arange(6))
    with pytest.raises(ValueError, match="centers: this world is 2D"):
        world.add_circles(np.zeros((1, 3)), [1.0])
    with pytest.raises(TypeError, match="data"):
        world.add_circles(np.zeros((2, 2)), [1.0, 1.0], data="ab")
    with pytest.raises(TypeError, match="moving"):
        world.add_circles(np.zeros((1, 2)), [1.0], moving=None)  # type: ignore[arg-type]
    with pytest.raises(ValueError, match="layer"):
        world.add_circles(np.zeros((1, 2)), [1.0], layer=-1)
    assert len(world) == 1


@pytest.mark.parametrize("scale", [1e-6, 1.0, 1e7])
def test_bulk_boxes_are_grown_as_per_shape_boxes_at_every_scale(scale: float) -> None:
    """A ray aimed at a segment's end, where its box corner is, hits in both worlds alike."""
    segs = np.array([[0.0, 0.0, 1.0, 1.0], [1.0, 0.0, 2.0, 1.0], [-3.0, 2.0, 3.0, 2.0]]) * scale
    one = _per_shape([Segment(r[:2], r[2:]) for r in segs])
    bulk = World()
    bulk.add_segments(segs)
    for origin, direction in (((-1, 1), (1, -1)), ((3, 1), (-1, 0)), ((0, 5), (0, -1)),
                              ((2, -1), (0, 1))):
        ray = Ray(np.multiply(origin, scale), direction)
        assert bulk.raycast(ray) == one.raycast(ray)


def test_bulk_shapes_are_built_only_when_asked() -> None:
    world = World()
    world.add_segments(np.array([[0.0, 0.0, 1.0, 0.0]] * 1000) + np.arange(1000)[:, None])
    hit = world.raycast(Ray((0.5, 5), (0, -1)))
    assert hit is not None and hit.handle == 0
    # the kernel path builds no shape: every row but the one asked for stays a record
    assert sum(isinstance(s, Segment) for s in world._shapes) == 0
    assert world.shape(999) == Segment((999, 999), (1000, 999))
    assert sum(isinstance(s, Segment) for s in world._shapes) == 1


# ---------------------------------------------------------------------------------------------
# pickle and copy


def _rich_world(dim: int) -> World:
    world = random_world(21 + dim, 40, dim)
    rng = np.random.default_rng(dim)
    a = rng.uniform(-20, 20, (30, dim))
    world.add_segments(np.hstack((a, a + 1.0)), data=list(range(30)), layer=2, moving=True)
    hs = world.add_circles(rng.uniform(-20, 20, (30, dim)), 0.5, mask=6)
    world.remove(int(world.handles()[-3]))
    world.move(int(hs[4]), random_shape(rng, dim))
    world.shape(int(world.handles()[-5]))  # one bulk row built, the others still pending
    return world


def _assert_same_world(a: World, b: World) -> None:
    assert a.handles() == b.handles() and len(a) == len(b) and a.dim == b.dim
    assert a.version == b.version
    for h in a.handles():
        assert a.shape(h) == b.shape(h)
        assert a.data(h) == b.data(h)
        assert (a.layer(h), a.mask(h), a.is_moving(h), a.is_sensor(h)) == \
            (b.layer(h), b.mask(h), b.is_moving(h), b.is_sensor(h))
    for h in range(len(a._shapes)):
        assert (h in a) == (h in b)
    rng = np.random.default_rng(5)
    dim = a.dim or 2
    for _ in range(30):
        ray = random_ray(rng, dim)
        for sensors in (False, True):
            assert a.raycast(ray, include_sensors=sensors) == \
                b.raycast(ray, include_sensors=sensors)
            assert a.raycast_all(ray, include_sensors=sensors) == \
                b.raycast_all(ray, include_sensors=sensors)
        mover = random_shape(rng, dim, 25.0)
        disp = rng.normal(size=dim) * 10
        assert a.sweep(mover, disp, include_sensors=True) == b.sweep(mover, disp,
                                                                     include_sensors=True)
        assert a.contacts(mover) == b.contacts(mover)
    o = rng.uniform(-30, 30, (300, dim))
    d = rng.normal(size=(300, dim))
    for ra, rb in ((a.raycast_many(o, d), b.raycast_many(o, d)),
                   (a.sweep_many(o, np.full(300, 0.4), d), b.sweep_many(o, np.full(300, 0.4), d))):
        for field in _fields(ra):
            assert np.array_equal(getattr(ra, field), getattr(rb, field)), field


@pytest.mark.parametrize("dim", [2, 3])
@pytest.mark.parametrize("how", ["pickle", "deepcopy", "copy"])
def test_a_world_round_trips_through_pickle_and_copy(dim: int, how: str) -> None:
    world = _rich_world(dim)
    world.raycast_many(np.zeros((2, dim)), np.ones((2, dim)))  # caches and compiled calls warm
    if how == "pickle":
        other = pickle.loads(pickle.dumps(world))
    elif how == "deepcopy":
        other = copy.deepcopy(world)
    else:
        other = copy.copy(world)
    _assert_same_world(world, other)
    # removed handles stay removed, and new handles continue from where they were
    removed = next(h for h in range(len(world._shapes)) if h not in world)
    with pytest.raises(ValueError, match="removed"):
        other.shape(removed)
    h = other.add(Sphere((0, 0, 0), 1) if dim == 3 else Circle((0, 0), 1))
    assert h == len(world._shapes) and h not in world
    # the copy is independent of the original
    live = world.handles()[0]
    other.remove(live)
    assert live in world


def test_an_empty_world_and_a_world_emptied_round_trip() -> None:
    empty = pickle.loads(pickle.dumps(World()))
    assert empty.dim is None and len(empty) == 0 and empty.version == 0
    world = World()
    h = world.add(Circle((0, 0), 1))
    world.remove(h)
    back = pickle.loads(pickle.dumps(world))
    assert back.dim == 2 and len(back) == 0 and back.add(Circle((1, 1), 1)) == 1


def test_a_pickle_holds_the_colliders_not_the_broadphase() -> None:
    world = World()
    a = np.random.default_rng(0).uniform(0, 100, (5000, 2))
    world.add_segments(np.hstack((a, a + 1.0)))
    small = len(pickle.dumps(world))
    world.raycast_many(a[:300], np.ones((300, 2)))  # trees, grid and caches built
    assert len(pickle.dumps(world)) == small
    # about the rows themselves (32 bytes a segment) plus a few bytes a handle
    assert small < 5000 * 64


# ---------------------------------------------------------------------------------------------
# the change counter


def test_version_counts_every_change_and_nothing_else() -> None:
    world = World()
    assert world.version == 0
    h = world.add(Circle((0, 0), 1))
    assert world.version == 1
    world.add_segments(np.array([[0.0, 0.0, 1.0, 1.0], [2.0, 2.0, 3.0, 3.0]]))
    assert world.version == 2
    world.move(h, Circle((1, 1), 1))
    assert world.version == 3
    world.remove(h)
    assert world.version == 4
    s = world.add(Circle((0, 0), 1), sensor=True)
    world.move(s, Circle((0, 1), 1))
    world.remove(s)
    assert world.version == 7
    world.raycast(Ray((0, 0), (1, 0)))
    world.query_point((0, 0))
    world.raycast_many(np.zeros((3, 2)), np.ones((3, 2)))
    assert world.version == 7
    for bad in (lambda: world.add(Sphere((0, 0, 0), 1)), lambda: world.remove(h),
                lambda: world.move(99, Circle((0, 0), 1)),
                lambda: world.add_circles([[0, 0]], [-1.0])):
        with pytest.raises(ValueError):
            bad()
    assert world.version == 7


def test_the_simulation_sees_a_wall_moved_into_a_balls_path() -> None:
    """The Simulation rebuilds its statics when the World's version changes."""
    sim = Simulation(step=1.0 / 60.0)
    wall = sim.world.add(Segment((100, -10), (100, 10)))
    ball = sim.add(Body(Circle((0, 0), 1.0), (600.0, 0.0), ccd="swept"))
    sim.run(3)
    sim.world.move(wall, Segment((40, -10), (40, 10)))
    sim.run(10)
    assert ball.position.x <= 39.0 + 1e-9
