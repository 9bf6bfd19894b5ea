"""World: handles, layers, the scalar queries against a brute-force pass over every collider,
and every batch kernel against the scalar path, on seeded random scenes (2D and 3D)."""

from __future__ import annotations

import math
from typing import Any

import numpy as np
import pytest

from swept import AABB, Capsule, Circle, Plane, Polygon, Ray, Segment, Sphere, raycast
from swept.contact import contact
from swept.sweep import sweep
from swept.world import (
    ALL_LAYERS,
    ContactBatch,
    RayBatch,
    SweepBatch,
    World,
    WorldContact,
    WorldRayHit,
    WorldSweepHit,
)

#: Closed-form results computed along two routes (normalised in numpy or in Python) agree to
#: this, relative to the scene's size.
TOL = 1e-9


# ---------------------------------------------------------------------------------------------
# brute force: the scalar API over every visible collider


def _visible(world: World, mask: int, ignore: set[int]) -> list[int]:
    return [h for h in world.handles() if world.layer(h) & mask and h not in ignore]


def brute_raycast(world: World, ray: Ray, mask: int = ALL_LAYERS, ignore: set[int] = frozenset()
                  ) -> tuple[Any, int] | None:
    best = None
    for h in _visible(world, mask, set(ignore)):
        hit = raycast(ray, world.shape(h))
        if hit is not None and (best is None or hit.distance < best[0].distance):
            best = (hit, h)
    return best


def brute_sweep(world: World, shape: Any, disp: Any, mask: int = ALL_LAYERS,
                ignore: set[int] = frozenset(), target_distance: float = 0.0
                ) -> tuple[Any, int] | None:
    best = None
    for h in _visible(world, mask, set(ignore)):
        hit = sweep(shape, disp, world.shape(h), target_distance=target_distance)
        if hit is not None and (best is None or hit.fraction < best[0].fraction):
            best = (hit, h)
    return best


def brute_contacts(world: World, shape: Any, mask: int = ALL_LAYERS,
                   ignore: set[int] = frozenset()) -> list[tuple[Any, int]]:
    out = []
    for h in _visible(world, mask, set(ignore)):
        c = contact(shape, world.shape(h))
        if c is not None:
            out.append((c, h))
    return out


def close(a: Any, b: Any, tol: float = TOL) -> bool:
    """Vectors or numbers equal to ``tol`` (relative to their size, at least 1)."""
    a = np.atleast_1d(np.asarray(a, dtype=float))
    b = np.atleast_1d(np.asarray(b, dtype=float))
    return bool(np.all(np.abs(a - b) <= tol * np.maximum(1.0, np.maximum(abs(a), abs(b)))))


def assert_ray_matches(got: WorldRayHit | None, want: tuple[Any, int] | None) -> None:
    """A world ray hit equals the brute-force one (a different handle only at a tie)."""
    if want is None:
        assert got is None
        return
    assert got is not None
    hit, h = want
    assert close(got.distance, hit.distance)
    if got.handle == h:
        assert close(got.point, hit.point)
        assert close(got.normal, hit.normal)
        assert got.started_inside == hit.started_inside


def assert_sweep_matches(got: WorldSweepHit | None, want: tuple[Any, int] | None) -> None:
    """A world sweep hit equals the brute-force one (a different handle only at a tie)."""
    if want is None:
        assert got is None
        return
    assert got is not None
    hit, h = want
    assert close(got.fraction, hit.fraction)
    if got.handle == h:
        assert close(got.point, hit.point)
        assert close(got.normal, hit.normal)
        assert close(got.position, hit.position)
        assert got.started_inside == hit.started_inside


# ---------------------------------------------------------------------------------------------
# random scenes


def random_shape_2d(rng: np.random.Generator, size: float = 20.0) -> Any:
    """One random 2D collider (no planes)."""
    kind = rng.integers(5)
    c = rng.uniform(-size, size, 2)
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


def random_shape_3d(rng: np.random.Generator, size: float = 20.0) -> Any:
    """One random 3D collider (no planes)."""
    kind = rng.integers(3)
    c = rng.uniform(-size, size, 3)
    if kind == 0:
        return Sphere(c, rng.uniform(0.1, 2.0))
    if kind == 1:
        return AABB(c, c + rng.uniform(0.1, 3, 3))
    return Capsule(c, c + rng.uniform(-3, 3, 3), rng.uniform(0.1, 1.0))


def random_world(rng: np.random.Generator, n: int, dim: int = 2, *, planes: bool = True
                 ) -> World:
    """A world of n random colliders, some moving, on layers 1 and 2, with a plane or two."""
    world = World()
    make = random_shape_2d if dim == 2 else random_shape_3d
    for i in range(n):
        world.add(make(rng), data=f"c{i}", layer=int(rng.choice([1, 2, 3])),
                  moving=bool(rng.integers(2)))
    if planes:
        world.add(Plane((0, 1) if dim == 2 else (0, 1, 0), -25.0), data="floor", layer=1)
        world.add(Plane((1, 0) if dim == 2 else (1, 0, 0), -30.0), data="wall", layer=2)
    return world


def churn(world: World, rng: np.random.Generator, steps: int) -> None:
    """Move, remove and add colliders at random (moving and static ones alike)."""
    make = random_shape_2d if world.dim == 2 else random_shape_3d
    for _ in range(steps):
        handles = world.handles()
        op = rng.integers(3)
        if op == 0 and handles:
            world.remove(int(rng.choice(handles)))
        elif op == 1 and handles:
            h = int(rng.choice(handles))
            if not isinstance(world.shape(h), Plane):
                world.move(h, make(rng))
        else:
            world.add(make(rng), layer=int(rng.choice([1, 2])), moving=bool(rng.integers(2)))


def random_rays(rng: np.random.Generator, n: int, dim: int, size: float = 30.0
                ) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    o = rng.uniform(-size, size, (n, dim))
    d = rng.normal(size=(n, dim))
    md = np.where(rng.random(n) < 0.3, rng.uniform(0, 40, n), np.inf)
    return o, d, md


# ---------------------------------------------------------------------------------------------
# basics


def test_handles_count_from_zero_in_insertion_order_and_are_never_reused() -> None:
    world = World()
    assert [world.add(Circle((i, 0), 0.5)) for i in range(3)] == [0, 1, 2]
    world.remove(1)
    assert 1 not in world and 0 in world and len(world) == 2
    assert world.add(Circle((9, 9), 1)) == 3
    assert world.handles() == [0, 2, 3]
    with pytest.raises(ValueError, match="handle 1: .*removed"):
        world.shape(1)
    with pytest.raises(ValueError, match="handle 1: .*removed"):
        world.remove(1)


def test_accessors_return_what_was_added() -> None:
    world = World()
    box = AABB((0, 0), (1, 1))
    h = world.add(box, data={"name": "crate"}, layer=4, mask=6, moving=True)
    assert world.shape(h) == box and world.data(h) == {"name": "crate"}
    assert world.layer(h) == 4 and world.mask(h) == 6 and world.is_moving(h)
    world.move(h, box.translated((5, 0)))
    assert world.shape(h) == AABB((5, 0), (6, 1))


def test_mixing_dimensions_is_a_value_error() -> None:
    world = World()
    world.add(Circle((0, 0), 1))
    with pytest.raises(ValueError, match="shape"):
        world.add(Sphere((0, 0, 0), 1))
    with pytest.raises(ValueError, match="ray"):
        world.raycast(Ray((0, 0, 0), (1, 0, 0)))


def test_unsupported_collider_is_a_type_error() -> None:
    with pytest.raises(TypeError):
        World().add(Ray((0, 0), (1, 0)))  # type: ignore[arg-type]


def test_empty_world_answers_nothing() -> None:
    world = World()
    assert world.raycast(Ray((0, 0), (1, 0))) is None
    assert world.raycast_all(Ray((0, 0), (1, 0))) == []
    assert world.sweep(Circle((0, 0), 1), (5, 0)) is None
    assert world.contacts(Circle((0, 0), 1)) == []
    assert world.query_point((0, 0)) == []
    batch = world.raycast_many(np.zeros((3, 2)), np.ones((3, 2)))
    assert batch.handle.tolist() == [-1, -1, -1] and np.isinf(batch.distance).all()


def test_ray_hit_carries_handle_and_data_and_equals_the_scalar_hit() -> None:
    world = World()
    world.add(Circle((5, 0), 1), data="ball")
    h = world.add(Segment((3, -1), (3, 1)), data="wall")
    hit = world.raycast(Ray((0, 0), (1, 0)))
    assert isinstance(hit, WorldRayHit)
    assert hit.handle == h and hit.data == "wall"
    scalar = raycast(Ray((0, 0), (1, 0)), Segment((3, -1), (3, 1)))
    assert (hit.distance, hit.point, hit.normal, hit.started_inside) == (
        scalar.distance, scalar.point, scalar.normal, scalar.started_inside)


def test_ties_go_to_the_smallest_handle() -> None:
    world = World()
    world.add(AABB((5, 1), (6, 2)))
    a = world.add(AABB((5, -1), (6, 0)))
    b = world.add(AABB((5, 0), (6, 1)))
    # the ray runs along the shared face y = 0 of boxes a and ... both enter at x = 5
    hit = world.raycast(Ray((0, 0), (1, 0)))
    assert hit is not None and hit.distance == 5.0 and hit.handle == a
    hits = world.raycast_all(Ray((0, 0), (1, 0)))
    assert [x.handle for x in hits] == [a, b]
    batch = world.raycast_many([[0.0, 0.0]], [[1.0, 0.0]])
    assert batch.handle[0] == a


def test_layers_masks_and_ignore_sets_hide_colliders() -> None:
    world = World()
    near = world.add(Circle((3, 0), 1), layer=0b01)
    far = world.add(Circle((8, 0), 1), layer=0b10)
    ray = Ray((0, 0), (1, 0))
    assert world.raycast(ray).handle == near
    assert world.raycast(ray, mask=0b10).handle == far
    assert world.raycast(ray, ignore={near}).handle == far
    assert world.raycast(ray, mask=0b01, ignore=[near]) is None
    assert world.raycast_many([[0, 0]], [[1, 0]], mask=0b10).handle[0] == far
    assert world.sweep_many([[0, 0]], [0.5], [[10, 0]], mask=0b10).handle[0] == far
    assert world.contact_many([[8, 0]], [0.5], mask=0b01).handle[0] == -1
    # the ignore set is forgotten after the query
    assert world.raycast(ray).handle == near


def test_planes_are_seen_by_every_query() -> None:
    world = World()
    floor = world.add(Plane((0, -1), 0.0), data="floor")  # solid where y > 0 (y down)
    assert world.raycast(Ray((0, -5), (0, 1))).handle == floor
    assert world.query_point((100, 3)) == [floor]
    assert world.sweep(Circle((0, -5), 1), (0, 10)).fraction == pytest.approx(0.4)
    assert world.contact_many([[3.0, 0.5]], [1.0]).depth[0] == pytest.approx(1.5)


def test_query_aabb_is_exact_not_just_bounds() -> None:
    world = World()
    diag = world.add(Segment((0, 0), (10, 10)))
    ball = world.add(Circle((20, 0), 1))
    # the box touches the segment's bounds but not the segment, the circle's bounds corner
    assert world.query_aabb(AABB((6, 0), (8, 2))) == []
    assert world.query_aabb(AABB((20.8, 0.8), (22, 2))) == []
    assert world.query_aabb(AABB((4, 4), (5, 5))) == [diag]
    assert world.query_aabb(AABB((0, 0), (30, 30))) == [diag, ball]
    assert world.query_point((20.5, 0.5)) == [ball]


def test_moving_colliders_refit_and_static_ones_rebuild() -> None:
    world = World()
    wall = world.add(Segment((10, -1), (10, 1)))
    mover = world.add(Circle((50, 0), 1), moving=True)
    ray = Ray((0, 0), (1, 0))
    assert world.raycast(ray).handle == wall
    for x in range(80, 0, -1):
        world.move(mover, Circle((x / 10.0, 0), 0.5))
        hit = world.raycast(ray)
        expected = max(min(x / 10.0 - 0.5, 10.0), 0.0)
        assert hit is not None and hit.distance == pytest.approx(expected)
    world.move(mover, Circle((50, 0), 1))
    world.move(wall, Segment((1, -1), (1, 1)))
    hit = world.raycast(ray)
    assert hit is not None and hit.handle == wall and hit.distance == 1.0


def test_world_contacts_use_the_query_shape_first() -> None:
    world = World()
    h = world.add(AABB((0, 0), (10, 1)), data="ground")
    (c,) = world.contacts(Circle((5, 1.5), 1))
    assert isinstance(c, WorldContact) and c.handle == h and c.data == "ground"
    assert c.normal == (0.0, 1.0) and c.depth == pytest.approx(0.5)


def test_sweep_of_polygon_mover_equals_scalar_sweep() -> None:
    world = World()
    world.add(Segment((10, -5), (10, 5)))
    h = world.add(Circle((6, 1.5), 1))
    box = Polygon.box(1, 1)
    got = world.sweep(box, (20, 0))
    want = sweep(box, (20, 0), world.shape(h))
    assert isinstance(got, WorldSweepHit) and got.handle == h
    assert got.fraction == want.fraction and got.normal == want.normal


def test_move_and_slide_delegates_to_the_controller() -> None:
    pytest.importorskip("swept.controller")
    world = World()
    world.add(AABB((-10, 1), (10, 2)))
    result = world.move_and_slide(Circle((0, 0), 0.5), (1, 10), 0.1)
    assert result is not None


# ---------------------------------------------------------------------------------------------
# bad input


@pytest.mark.parametrize(
    ("call", "name"),
    [
        (lambda w: w.raycast_many([[0, 0]], [[0, 0]]), r"directions\[0\]"),
        (lambda w: w.raycast_many([[0, 0], [1, 1]], [[1, 0], [0, 0]]), r"directions\[1\]"),
        (lambda w: w.raycast_many([[np.nan, 0]], [[1, 0]]), "origins"),
        (lambda w: w.raycast_many([[0, 0]], [[np.inf, 0]]), "directions"),
        (lambda w: w.raycast_many([[0, 0]], [[1, 0]], [np.nan]), "max_distance"),
        (lambda w: w.raycast_many([[0, 0]], [[1, 0]], -1.0), "max_distance"),
        (lambda w: w.raycast_many([[0, 0]], [[1, 0]], [1.0, 2.0]), "max_distance"),
        (lambda w: w.raycast_many([[0, 0, 0]], [[1, 0, 0]]), "origins"),
        (lambda w: w.raycast_many([[0, 0]], [[1, 0], [1, 0]]), "directions"),
        (lambda w: w.raycast_many([0, 0], [1, 0]), "origins"),
        (lambda w: w.sweep_many([[0, 0]], [-1.0], [[1, 0]]), "radii"),
        (lambda w: w.sweep_many([[0, 0]], [1.0], [[np.nan, 0]]), "displacements"),
        (lambda w: w.sweep_many([[0, 0]], [1.0, 2.0], [[1, 0]]), "radii"),
        (lambda w: w.contact_many([[0, np.inf]], [1.0]), "centers"),
        (lambda w: w.raycast_many([[0, 0]], [[1, 0]], mask=-1), "mask"),
        (lambda w: w.sweep(Circle((0, 0), 1), (np.nan, 0)), "displacement"),
        (lambda w: w.sweep(Circle((0, 0), 1), (1, 0), target_distance=-1), "target_distance"),
    ],
)
def test_bad_input_is_a_value_error_naming_the_argument(call: Any, name: str) -> None:
    world = World()
    world.add(Circle((5, 0), 1))
    with pytest.raises(ValueError, match=name):
        call(world)


# ---------------------------------------------------------------------------------------------
# batches equal the scalar path


@pytest.mark.parametrize("dim", [2, 3])
def test_empty_batches_return_typed_empty_arrays(dim: int) -> None:
    world = random_world(np.random.default_rng(1), 10, dim)
    rb = world.raycast_many(np.zeros((0, dim)), np.zeros((0, dim)))
    sb = world.sweep_many(np.zeros((0, dim)), np.zeros(0), np.zeros((0, dim)))
    cb = world.contact_many(np.zeros((0, dim)), np.zeros(0))
    assert isinstance(rb, RayBatch) and isinstance(sb, SweepBatch)
    assert isinstance(cb, ContactBatch)
    for arr, dtype, shape in [
        (rb.hit, np.bool_, (0,)), (rb.distance, np.float64, (0,)),
        (rb.point, np.float64, (0, dim)), (rb.normal, np.float64, (0, dim)),
        (rb.handle, np.int64, (0,)), (sb.fraction, np.float64, (0,)),
        (sb.point, np.float64, (0, dim)), (sb.handle, np.int64, (0,)),
        (cb.depth, np.float64, (0,)), (cb.normal, np.float64, (0, dim)),
        (cb.handle, np.int64, (0,)),
    ]:
        assert arr.dtype == dtype and arr.shape == shape


@pytest.mark.parametrize(("dim", "seed"), [(2, 0), (2, 1), (3, 2)])
def test_raycast_many_equals_world_raycast_and_brute_force(dim: int, seed: int) -> None:
    rng = np.random.default_rng(seed)
    world = random_world(rng, 150, dim)
    churn(world, rng, 40)
    o, d, md = random_rays(rng, 300, dim)
    batch = world.raycast_many(o, d, md, mask=0b01)
    assert batch.hit.any() and not batch.hit.all()
    for i in range(len(o)):
        ray = Ray(o[i], d[i], md[i])
        got = world.raycast(ray, mask=0b01)
        want = brute_raycast(world, ray, mask=0b01)
        assert_ray_matches(got, want)
        if got is None:
            assert not batch.hit[i] and batch.handle[i] == -1
            assert batch.distance[i] == math.inf
            continue
        assert batch.hit[i] and close(batch.distance[i], got.distance)
        if batch.handle[i] == got.handle:
            assert close(batch.point[i], got.point) and close(batch.normal[i], got.normal)


@pytest.mark.parametrize(("dim", "seed"), [(2, 3), (3, 4)])
def test_sweep_many_equals_world_sweep_and_brute_force(dim: int, seed: int) -> None:
    rng = np.random.default_rng(seed)
    world = random_world(rng, 120, dim)
    churn(world, rng, 30)
    n = 300  # above PARALLEL_MIN_BATCH: the parallel kernel (hypothesis covers the serial one)
    centers = rng.uniform(-30, 30, (n, dim))
    radii = rng.uniform(0.0, 2.0, n)
    disp = rng.normal(scale=15.0, size=(n, dim))
    disp[:5] = 0.0  # no motion: only a start in contact hits
    batch = world.sweep_many(centers, radii, disp, mask=0b11)
    assert batch.hit.any() and not batch.hit.all()
    make = Circle if dim == 2 else Sphere
    for i in range(n):
        ball = make(centers[i], radii[i])
        got = world.sweep(ball, disp[i], mask=0b11)
        assert_sweep_matches(got, brute_sweep(world, ball, disp[i], mask=0b11))
        if got is None:
            assert not batch.hit[i] and batch.fraction[i] == math.inf
            continue
        assert batch.hit[i] and close(batch.fraction[i], got.fraction)
        if batch.handle[i] == got.handle:
            assert close(batch.point[i], got.point) and close(batch.normal[i], got.normal)


@pytest.mark.parametrize(("dim", "seed"), [(2, 5), (3, 6)])
def test_contact_many_is_the_deepest_of_world_contacts(dim: int, seed: int) -> None:
    rng = np.random.default_rng(seed)
    world = random_world(rng, 150, dim)
    churn(world, rng, 30)
    n = 200
    centers = rng.uniform(-30, 30, (n, dim))
    radii = rng.uniform(0.0, 3.0, n)
    batch = world.contact_many(centers, radii, mask=0b10)
    assert batch.hit.any() and not batch.hit.all()
    make = Circle if dim == 2 else Sphere
    for i in range(n):
        ball = make(centers[i], radii[i])
        found = world.contacts(ball, mask=0b10)
        want = brute_contacts(world, ball, mask=0b10)
        assert [c.handle for c in found] == [h for _c, h in want]
        if not found:
            assert batch.handle[i] == -1 and batch.depth[i] == 0.0
            continue
        deepest = max(found, key=lambda c: (c.depth, -c.handle))
        assert batch.handle[i] == deepest.handle
        assert batch.depth[i] == deepest.depth
        assert close(batch.normal[i], deepest.normal) and close(batch.point[i], deepest.point)


@pytest.mark.parametrize(("dim", "seed"), [(2, 7), (3, 8)])
def test_scalar_queries_equal_brute_force_through_adds_moves_and_removes(dim: int,
                                                                         seed: int) -> None:
    rng = np.random.default_rng(seed)
    world = random_world(rng, 60, dim)
    make = random_shape_2d if dim == 2 else random_shape_3d
    for _round in range(4):
        churn(world, rng, 15)
        ignore = set(rng.choice(world.handles(), 5).tolist())
        for mask in (ALL_LAYERS, 0b01, 0b10):
            for _ in range(10):
                o = rng.uniform(-30, 30, dim)
                ray = Ray(o, rng.normal(size=dim))
                assert_ray_matches(world.raycast(ray, mask=mask, ignore=ignore),
                                   brute_raycast(world, ray, mask, ignore))
                got_all = world.raycast_all(ray, mask=mask, ignore=ignore)
                want_all = []
                for h in _visible(world, mask, ignore):
                    hit = raycast(ray, world.shape(h))
                    if hit is not None:
                        want_all.append((hit.distance, h))
                assert [(x.distance, x.handle) for x in got_all] == sorted(want_all)
                shape = make(rng, 25.0)
                if not isinstance(shape, Plane):
                    disp = rng.normal(scale=8.0, size=dim)
                    assert_sweep_matches(world.sweep(shape, disp, mask=mask, ignore=ignore),
                                         brute_sweep(world, shape, disp, mask, ignore))
                got_c = world.contacts(shape, mask=mask, ignore=ignore)
                want_c = brute_contacts(world, shape, mask, ignore)
                assert [(c.handle, c.depth) for c in got_c] == [(h, c.depth) for c, h in want_c]
                lo = rng.uniform(-30, 30, dim)
                box = AABB(lo, lo + rng.uniform(0, 10, dim))
                assert world.query_aabb(box, mask=mask, ignore=ignore) == [
                    h for c, h in brute_contacts(world, box, mask, ignore)]
                p = rng.uniform(-30, 30, dim)
                assert world.query_point(p, mask=mask, ignore=ignore) == [
                    h for c, h in brute_contacts(world, AABB(p, p), mask, ignore)]


def test_rays_through_a_large_static_2d_scene_equal_brute_force() -> None:
    # Many static colliders on a lattice: 2D ray queries walk the uniform grid. Rays along
    # the lattice lines (axis-parallel, through cell corners), from outside the scene, with
    # short limits, and every kind of collider, must still find the brute-force nearest hit.
    rng = np.random.default_rng(11)
    world = World()
    for i in range(400):
        c = rng.integers(-20, 20, 2).astype(float)
        kind = i % 5
        if kind == 0:
            world.add(Segment(c, c + rng.integers(-3, 4, 2) + (0.5, 0.0)))
        elif kind == 1:
            world.add(AABB(c, c + rng.integers(1, 3, 2)))
        elif kind == 2:
            world.add(Circle(c, float(rng.choice([0.5, 1.0]))))
        elif kind == 3:
            world.add(Polygon.box(0.5, 1.0, tuple(c), float(rng.uniform(0, 3))))
        else:
            world.add(Capsule(c, c + (2.0, 0.0), 0.25))
    world.add(Segment((-500, 30), (500, 30)))  # one long collider across every cell
    origins, directions, limits = [], [], []
    for _ in range(300):
        o = rng.integers(-40, 40, 2).astype(float)
        axis = rng.integers(4)
        d = [(1.0, 0.0), (0.0, -1.0), (1.0, 1.0), tuple(rng.normal(size=2))][axis]
        origins.append(o)
        directions.append(d)
        limits.append(float(rng.choice([np.inf, 3.0, 17.5])))
    batch = world.raycast_many(origins, directions, limits)
    assert batch.hit.sum() > 100
    for i in range(len(origins)):
        ray = Ray(origins[i], directions[i], limits[i])
        got = world.raycast(ray)
        assert_ray_matches(got, brute_raycast(world, ray))
        assert (got is None) == (not batch.hit[i])
        if got is not None:
            assert close(batch.distance[i], got.distance)


def test_rays_grazing_gridded_segment_ends_equal_brute_force() -> None:
    # Segments and capsules are binned only into the cells their shape crosses (not every
    # cell of their box): horizontal, vertical and diagonal ones on the lattice (often exactly
    # on cell lines), and rays aimed at their ends and through their boxes' corners, must
    # still find the brute-force nearest hit, in the batch and the scalar query alike.
    rng = np.random.default_rng(12)
    world = World()
    ends = []
    for i in range(300):
        a = rng.integers(-30, 30, 2).astype(float)
        step = [(1.0, 0.0), (0.0, 1.0), (1.0, 1.0), (1.0, -1.0), (3.0, 1.0),
                tuple(rng.normal(size=2))][i % 6]
        b = a + np.asarray(step) * float(rng.integers(1, 12))
        if i % 7 == 6:
            world.add(Capsule(a, b, float(rng.choice([0.1, 0.5, 1.0]))))
        else:
            world.add(Segment(a, b))
        ends += [a, b]
    origins, directions, limits = [], [], []
    for i in range(600):
        o = rng.integers(-45, 45, 2).astype(float) + rng.choice([0.0, 0.5], 2)
        if i % 2:
            target = ends[rng.integers(len(ends))]
            d = target - o if np.any(target != o) else np.array([1.0, 0.0])
        else:
            d = np.asarray([(1.0, 0.0), (0.0, 1.0), (1.0, 1.0), (-1.0, 1.0)][i % 4 // 2 * 2
                                                                            + rng.integers(2)])
        origins.append(o)
        directions.append(d)
        limits.append(float(rng.choice([np.inf, np.inf, 20.0])))
    batch = world.raycast_many(origins, directions, limits)
    assert batch.hit.sum() > 200
    for i in range(len(origins)):
        ray = Ray(origins[i], directions[i], limits[i])
        got = world.raycast(ray)
        assert_ray_matches(got, brute_raycast(world, ray))
        assert (got is None) == (not batch.hit[i])
        if got is not None:
            assert close(batch.distance[i], got.distance)


# ---------------------------------------------------------------------------------------------
# the segments-only batch kernel (cast_segments_many): raycast_many takes it when every static
# collider is a gridded segment the mask sees and nothing moves; the scenes above mix kinds or
# hold fewer than 64 colliders, so they do not reach it


@pytest.mark.parametrize(("seed", "plane", "n_rays"), [(21, False, 400), (22, True, 400),
                                                       (23, False, 100)])
def test_raycast_many_on_segments_only_equals_scalar_and_brute_force(
        seed: int, plane: bool, n_rays: int) -> None:
    # lattice segments (cell lines, shared ends, collinear runs) and rays that start on them,
    # run along them, aim at their ends or graze their boxes' corners; n_rays 100 takes the
    # one-thread kernel, 400 the parallel one
    rng = np.random.default_rng(seed)
    world = World()
    ends = []
    for i in range(300):
        a = rng.integers(-30, 30, 2).astype(float)
        step = [(1.0, 0.0), (0.0, 1.0), (1.0, 1.0), (2.0, -1.0), (1.0, -3.0)][i % 5]
        b = a + np.asarray(step) * float(rng.integers(1, 8))
        world.add(Segment(a, b))
        ends.append((a, b))
    if plane:
        world.add(Plane((0.0, 1.0), -25.0))
    origins, directions, limits = [], [], []
    for i in range(n_rays):
        a, b = ends[rng.integers(len(ends))]
        kind = i % 4
        if kind == 0:
            o, d = (a + b) / 2.0, rng.normal(size=2)  # starts on a segment
        elif kind == 1:
            o, d = a - (b - a), (b - a) * rng.choice([1.0, 7.5])  # along one (collinear)
        elif kind == 2:
            o = rng.integers(-35, 35, 2).astype(float)
            d = b - o if np.any(b != o) else np.array([1.0, 0.0])  # at an end
        else:
            o, d = rng.uniform(-35, 35, 2), rng.normal(size=2)
        origins.append(o)
        directions.append(d)
        limits.append(float(rng.choice([math.inf, 0.0, 6.5])))
    batch = world.raycast_many(origins, directions, limits)
    assert world._grid is not None  # the rays walked the uniform grid
    assert batch.hit.sum() > n_rays // 3
    for i in range(n_rays):
        ray = Ray(origins[i], directions[i], limits[i])
        got = world.raycast(ray)
        assert_ray_matches(got, brute_raycast(world, ray))
        assert (got is None) == (not batch.hit[i])
        if got is None:
            assert batch.handle[i] == -1 and batch.distance[i] == math.inf
            continue
        assert batch.handle[i] == got.handle and close(batch.distance[i], got.distance)
        assert close(batch.point[i], got.point) and close(batch.normal[i], got.normal)


def test_ray_through_a_segment_end_at_its_box_corner_is_not_culled() -> None:
    # the ray from (-19, 11) along (1, -3) meets segment (-18, 4)-(-17, 5) at its end (-17, 5),
    # the corner of its box, where the grid's box test (sparse grid: boxes tested first) once
    # saw the box's edges crossed an ulp apart and culled the hit ray_segment finds
    world = World()
    for i in range(80):
        a = np.array([40.0 + 3.0 * (i % 10), 40.0 + 3.0 * (i // 10)])
        world.add(Segment(a, a + (1.0, 0.5)))
    target = world.add(Segment((-18.0, 4.0), (-17.0, 5.0)))
    ray = Ray((-19.0, 11.0), (5.0, -15.0))
    want = brute_raycast(world, ray)
    assert want is not None and want[1] == target
    got = world.raycast(ray)
    assert got is not None and got.handle == target and close(got.distance, math.sqrt(40.0))
    batch = world.raycast_many([(-19.0, 11.0)] * 300, [(5.0, -15.0)] * 300)
    assert (batch.handle == target).all()


def test_rays_aimed_at_segment_ends_are_not_culled_by_the_tree() -> None:
    # a ray aimed exactly at a segment's end crosses the corner of the segment's box, where
    # its two slab crossings (equal in exact arithmetic) can round an ulp out of order: the
    # tree (a world under GRID_MIN_COLLIDERS, so no grid) culled 4% of such hits until the
    # stored boxes were grown by BOX_MARGIN
    rng = np.random.default_rng(5)
    checked = hits = 0
    for _ in range(40):
        world = World()
        segments = []
        while len(segments) < 20:
            a = rng.integers(-20, 20, 2).astype(float)
            b = a + rng.integers(-3, 4, 2)
            if (a != b).any():
                segments.append(Segment(a, b))
                world.add(segments[-1])
        for k in range(40):
            s = segments[rng.integers(len(segments))]
            origin = rng.integers(-25, 25, 2).astype(float)
            direction = np.asarray(s.a if k % 2 else s.b) - origin
            if not direction.any():
                continue
            ray = Ray(origin, direction)
            want = brute_raycast(world, ray)
            got = world.raycast(ray)
            checked += 1
            if want is None:
                # the unit direction's rounding took the ray an ulp past every end it aimed at
                assert got is None
                continue
            assert got is not None
            assert (got.handle, got.distance) == (want[1], want[0].distance)
            hits += 1
    assert checked > 1500 and hits > 1000
