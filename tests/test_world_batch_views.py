"""The batch ray kernel reads its arrays through views without an owner.

:func:`swept._kernels.world.cast_range` takes the scene, the rays and the outputs as arrays
and, before its loop, rebuilds each as a view with a null meminfo
(:func:`swept._kernels.world._unowned_view`), and its traversal stack as such a view of a
scratch array it keeps alive until the loop ends: numba then reference-counts nothing a ray
(the atomic counts were about 40% of the kernel's time). The views are only valid while their
owners live, and they must read and write exactly what the arrays hold. These tests guard
that: every structure the cast walks (the grid, the static BVH with its stack, the moving
colliders' grid and tree, the planes) gives the brute-force answer on every row, whatever the
split of the batch into ranges and on two threads, and writes only its own rows.
"""

from __future__ import annotations

import math

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

import swept
from swept import AABB, Capsule, Circle, Plane, Ray, Segment, Sphere
from swept._kernels import world as kw
from swept.world import World
from test_world import brute_raycast

#: ``cast_range``'s order for the rows in turn (an empty permutation).
NO_ORDER = np.empty(0, np.int64)


def _segments_world(n: int, seed: int) -> tuple[World, list[object]]:
    """n random segments 5 to 50 long in a 1000 x 1000 square, in a World (its grid)."""
    rng = np.random.default_rng(seed)
    a = rng.uniform(0.0, 1000.0, (n, 2))
    angle = rng.uniform(0.0, 2.0 * math.pi, n)
    b = a + np.stack([np.cos(angle), np.sin(angle)], axis=1) * rng.uniform(5.0, 50.0, n)[:, None]
    world = World()
    world.add_segments(np.hstack([a, b]))
    return world, [Segment(a[i], b[i]) for i in range(n)]


def _rays_through_ends(shapes: list[object], k: int, seed: int
                       ) -> tuple[np.ndarray, np.ndarray]:
    """k rays from random points, half of them aimed exactly at a segment's end, the other
    half along a segment (parallel, from beyond its end) or in random directions."""
    rng = np.random.default_rng(seed)
    origins = rng.uniform(0.0, 1000.0, (k, 2))
    directions = np.empty((k, 2))
    for i in range(k):
        s = shapes[int(rng.integers(len(shapes)))]
        assert isinstance(s, Segment)
        if i % 3 == 0:
            directions[i] = np.subtract(s.b, origins[i])
        elif i % 3 == 1:
            # along the segment, starting before its first end
            e = np.subtract(s.b, s.a)
            origins[i] = np.subtract(s.a, e)
            directions[i] = e
        else:
            angle = rng.uniform(0.0, 2.0 * math.pi)
            directions[i] = (math.cos(angle), math.sin(angle))
    return origins, directions


def _assert_rows_equal_brute(world: World, origins: np.ndarray, directions: np.ndarray
                             ) -> swept.RayBatch:
    """raycast_many's rows are the brute force's hits (``test_world.brute_raycast``: the
    scalar API over every collider; the same collider; distance, point and
    normal to 1e-12 relative: the batch normalises its directions in the kernel, the scalar
    ``Ray`` in Python) and the scalar query's collider."""
    batch = world.raycast_many(origins, directions)
    for i in range(origins.shape[0]):
        ray = Ray(origins[i], directions[i])
        found = brute_raycast(world, ray)
        want, h = found if found is not None else (None, -1)
        one = world.raycast(ray)
        if want is None:
            assert not batch.hit[i] and batch.handle[i] == -1 and one is None, i
            assert batch.distance[i] == math.inf
            continue
        assert batch.handle[i] == h and one is not None and one.handle == h, (i, h)
        scale = max(1.0, float(np.max(np.abs(origins[i]))))
        assert batch.distance[i] == pytest.approx(want.distance, rel=1e-12,
                                                  abs=1e-12 * scale)
        for k in range(origins.shape[1]):
            assert batch.point[i, k] == pytest.approx(want.point[k], rel=1e-12,
                                                      abs=1e-12 * scale)
            assert batch.normal[i, k] == pytest.approx(want.normal[k], abs=1e-12)
    return batch


def test_grid_rows_equal_brute_force_through_segment_ends_and_along_segments() -> None:
    world, shapes = _segments_world(300, 7)
    origins, directions = _rays_through_ends(shapes, 240, 8)
    _assert_rows_equal_brute(world, origins, directions)
    assert world._broadphase is not None and world._broadphase.use_grid


def test_the_bvh_walk_reads_its_stack_for_every_ray_of_a_batch() -> None:
    """A 3D scene takes the BVH: every ray of the batch pushes and pops the kernel's scratch
    stack (a view of an array the kernel keeps alive to its end)."""
    rng = np.random.default_rng(3)
    world = World()
    for i in range(400):
        c = rng.uniform(-40.0, 40.0, 3)
        world.add(Sphere(c, rng.uniform(0.5, 4.0)) if i % 2 else
                  AABB(c - rng.uniform(0.5, 4.0, 3), c + rng.uniform(0.5, 4.0, 3)))
    origins = rng.uniform(-50.0, 50.0, (300, 3))
    directions = rng.normal(size=(300, 3))
    batch = _assert_rows_equal_brute(world, origins, directions)
    assert batch.hit.sum() > 50
    assert world._broadphase is not None and not world._broadphase.use_grid


def test_moving_colliders_and_planes_beside_the_grid() -> None:
    """Static segments in the grid, moving circles and capsules in the moving grid (and, for
    those leaving the frame, its outside list), a plane: every path of the cast reads the
    scene's arrays."""
    world, _shapes = _segments_world(200, 11)
    rng = np.random.default_rng(12)
    for i in range(40):
        c = rng.uniform(0.0, 1000.0, 2)
        world.add(Circle(c, rng.uniform(2.0, 20.0)) if i % 2 else
                  Capsule(c, c + rng.uniform(-30.0, 30.0, 2), rng.uniform(1.0, 5.0)),
                  moving=True)
    # a moving circle that leaves the frame: the outside list
    world.add(Circle((-500.0, 500.0), 30.0), moving=True)
    world.add(Plane((0.0, 1.0), -40.0))
    origins = rng.uniform(0.0, 1000.0, (200, 2))
    angle = rng.uniform(0.0, 2.0 * math.pi, 200)
    directions = np.stack([np.cos(angle), np.sin(angle)], axis=1)
    origins[:20, 0] = -400.0
    directions[:20] = (-1.0, 0.0)
    _assert_rows_equal_brute(world, origins, directions)


def _whole() -> kw.Hits:
    """One call of the range kernel over every ray of the module's batch."""
    scene = WORLD._sync()
    n = ORIGINS.shape[0]
    out = kw.Hits(np.empty(n, np.int64), np.empty(n), np.empty((n, 2)), np.empty((n, 2)),
                  np.empty(n, np.bool_))
    kw.cast_range(0, n, scene, kw.Casts(ORIGINS, DIRECTIONS, np.full(n, math.inf),
                                         np.zeros(n)), NO_ORDER, kw.ALL_LAYERS_MASK, 0, out)
    return out


WORLD, _SHAPES = _segments_world(500, 21)
ORIGINS, DIRECTIONS = _rays_through_ends(_SHAPES, 500, 22)
WORLD.raycast_many(ORIGINS[:1], DIRECTIONS[:1])
WHOLE = _whole()


@settings(max_examples=25, deadline=None)
@given(cuts=st.lists(st.integers(0, 500), max_size=6), spatial=st.booleans())
def test_any_split_into_ranges_writes_the_rows_of_one_call(cuts: list[int],
                                                           spatial: bool) -> None:
    """The range kernel called on consecutive ranges (as the threads call it) writes the very
    rows one call writes, and nothing outside its range; in the order of the origins' places
    (``spatial_order``, the batch's own) each range writes the rows it names."""
    scene = WORLD._sync()
    n = ORIGINS.shape[0]
    order = np.arange(n)
    if spatial:
        kw.spatial_order(ORIGINS, order)
        assert not np.array_equal(order, np.arange(n))
    casts = kw.Casts(ORIGINS, DIRECTIONS, np.full(n, math.inf), np.zeros(n))
    bounds = sorted({0, n, *(min(c, n) for c in cuts)})
    out = kw.Hits(np.full(n, -7, np.int64), np.full(n, -7.0), np.full((n, 2), -7.0),
                  np.full((n, 2), -7.0), np.zeros(n, np.bool_))
    for first, stop in zip(bounds, bounds[1:]):
        kw.cast_range(first, stop, scene, casts, order if spatial else NO_ORDER,
                      kw.ALL_LAYERS_MASK, 0, out)
        # the rows later ranges name are untouched
        assert (out.handle[order[stop:]] == -7).all() and (out.t[order[stop:]] == -7.0).all()
    assert np.array_equal(out.handle, WHOLE.handle)
    assert np.array_equal(out.t, WHOLE.t)
    assert np.array_equal(out.point, WHOLE.point)
    assert np.array_equal(out.normal, WHOLE.normal)
    assert np.array_equal(out.inside, WHOLE.inside)


_COORDINATE = st.one_of(st.floats(-1e308, 1e308), st.sampled_from([0.0, -0.0, 1e-300, 5.0]))


@settings(max_examples=60, deadline=None)
@given(rows=st.lists(st.tuples(_COORDINATE, _COORDINATE, _COORDINATE), max_size=200),
       d=st.sampled_from([2, 3]))
def test_the_spatial_order_is_a_permutation_at_any_coordinates(
        rows: list[tuple[float, float, float]], d: int) -> None:
    """Whatever the origins (equal, huge, spanning the whole float range), the order names
    each row once (its buckets are clamped; a range that overflows puts all in one)."""
    origins = np.array(rows, dtype=np.float64).reshape(len(rows), 3)[:, :d].copy()
    order = np.full(len(rows), -1, np.int64)
    kw.spatial_order(origins, order)
    assert np.array_equal(np.sort(order), np.arange(len(rows)))


def test_the_spatial_order_keeps_small_batches_in_turn_and_puts_neighbours_together() -> None:
    """Fewer than four rays a bucket of a 2 x 2 grid: the rows in turn. Many random origins:
    consecutive rays start about a bucket apart, not half the square apart."""
    rng = np.random.default_rng(71)
    few = rng.uniform(0.0, 1000.0, (15, 2))
    order = np.empty(15, np.int64)
    kw.spatial_order(few, order)
    assert order.tolist() == list(range(15))
    many = rng.uniform(0.0, 1000.0, (10_000, 2))
    order = np.empty(10_000, np.int64)
    kw.spatial_order(many, order)
    given_gap = np.median(np.linalg.norm(np.diff(many, axis=0), axis=1))
    ordered_gap = np.median(np.linalg.norm(np.diff(many[order], axis=0), axis=1))
    # 50 x 50 buckets of 20 x 20: neighbours in a bucket or the next one
    assert given_gap > 400.0 and ordered_gap < 25.0


def test_two_threads_give_the_rows_of_one_thread() -> None:
    before = swept.threads()
    try:
        swept.set_threads(1)
        one = WORLD.raycast_many(ORIGINS, DIRECTIONS)
        swept.set_threads(2)
        for _ in range(3):
            two = WORLD.raycast_many(ORIGINS, DIRECTIONS)
            assert np.array_equal(two.handle, one.handle)
            assert np.array_equal(two.distance, one.distance)
            assert np.array_equal(two.point, one.point)
            assert np.array_equal(two.normal, one.normal)
    finally:
        swept.set_threads(before)


def test_the_batch_reads_arrays_freed_after_the_call_never() -> None:
    """The batch's arrays may be dropped as soon as the call returns: the results stay
    (the kernel wrote into the output arrays themselves, not into views outliving them)."""
    world, shapes = _segments_world(100, 31)
    origins, directions = _rays_through_ends(shapes, 60, 32)
    batch = world.raycast_many(origins.copy(), directions.copy())
    del world
    kept = batch.distance.copy()
    junk = [np.full((200, 2), np.nan) for _ in range(50)]
    assert np.array_equal(batch.distance, kept) and len(junk) == 50
    assert np.isfinite(batch.distance[batch.hit]).all()
    assert not np.isnan(batch.point).any() and not np.isnan(batch.normal).any()


@pytest.mark.parametrize("scale", [1e-6, 1.0, 1e6])
def test_unowned_views_at_every_scale(scale: float) -> None:
    world, shapes = _segments_world(120, 41)
    scaled = World()
    big = [Segment(np.multiply(s.a, scale), np.multiply(s.b, scale))  # type: ignore[attr-defined]
           for s in shapes]
    for s in big:
        scaled.add(s)
    origins, directions = _rays_through_ends(shapes, 60, 42)
    _assert_rows_equal_brute(scaled, origins * scale, directions)


@pytest.mark.parametrize("d", [2, 3])
def test_contact_many_through_views_equals_the_deepest_scalar_contact(d: int) -> None:
    """contact_range reads the scene, the balls and the outputs through views without an
    owner too, its traversal stack and candidate list as views of one scratch array kept to
    its end: each row is the deepest of the scalar ``contacts`` (ties: the smallest handle),
    the same on two threads."""
    rng = np.random.default_rng(50 + d)
    world = World()
    ball: type[Circle] | type[Sphere]
    if d == 2:
        a = rng.uniform(0.0, 200.0, (400, 2))
        world.add_segments(np.hstack([a, a + rng.uniform(-15.0, 15.0, (400, 2))]))
        ball = Circle
    else:
        for _ in range(300):
            c = rng.uniform(0.0, 60.0, 3)
            world.add(Sphere(c, rng.uniform(0.5, 3.0)))
        ball = Sphere
    centers = rng.uniform(0.0, 200.0 if d == 2 else 60.0, (300, d))
    radii = rng.uniform(0.0, 6.0, 300)
    radii[:10] = 0.0
    before = swept.threads()
    try:
        swept.set_threads(1)
        one = world.contact_many(centers, radii)
        swept.set_threads(2)
        two = world.contact_many(centers, radii)
    finally:
        swept.set_threads(before)
    assert np.array_equal(one.handle, two.handle) and np.array_equal(one.depth, two.depth)
    assert np.array_equal(one.normal, two.normal) and np.array_equal(one.point, two.point)
    assert one.hit.sum() > 30
    for i in range(300):
        found = world.contacts(ball(centers[i], radii[i]))
        if not found:
            assert one.handle[i] == -1 and not one.hit[i] and one.depth[i] == 0.0
            continue
        deepest = max(found, key=lambda x: (x.depth, -x.handle))
        assert one.handle[i] == deepest.handle
        assert one.depth[i] == pytest.approx(deepest.depth, rel=1e-12, abs=1e-12)
        for k in range(d):
            assert one.normal[i, k] == pytest.approx(deepest.normal[k], abs=1e-12)
            assert one.point[i, k] == pytest.approx(deepest.point[k], rel=1e-12, abs=1e-9)


@pytest.mark.parametrize("bad", [math.nan, math.inf, -math.inf, 2e300])
@pytest.mark.parametrize("which", ["origins", "directions"])
def test_a_float64_batch_with_a_bad_value_is_named(bad: float, which: str) -> None:
    """raycast_many checks a C-ordered float64 batch in one compiled pass (``within``) and
    hands anything it does not pass to the general checks: a NaN, an infinity or a value
    beyond MAX_COORDINATE in either array still raises the ValueError naming it."""
    origins = np.zeros((300, 2))
    directions = np.ones((300, 2))
    (origins if which == "origins" else directions)[137, 1] = bad
    with pytest.raises(ValueError, match=which):
        WORLD.raycast_many(origins, directions)
    assert not kw.within(origins if which == "origins" else directions, 1e300)
    assert kw.within(np.full((4, 3), -1e300), 1e300)


@settings(max_examples=40, deadline=None)
@given(n=st.integers(0, 60), d=st.sampled_from([2, 3]), seed=st.integers(0, 2**32 - 1))
def test_gathered_casts_and_scattered_hits_move_each_row_to_its_place(n: int, d: int,
                                                                     seed: int) -> None:
    """A large batch is cast gathered into its spatial order and its hits put back: the
    gather writes row ``order[k]`` of every cast array to row k, the scatter row k of every
    hit array back to row ``order[k]``, every value bit for bit (-0.0, inf and NaN kept); a
    ray batch's empty radii and inside columns are left empty."""
    rng = np.random.default_rng(seed)
    order = rng.permutation(n).astype(np.int64)
    values = rng.choice([0.0, -0.0, math.inf, -math.inf, math.nan, 1e-300, 3.5], (n, 2 * d + 2))
    values[:, 0] = rng.normal(size=n)
    casts = kw.Casts(values[:, :d].copy(), values[:, d:2 * d].copy(),
                     values[:, 2 * d].copy(), values[:, 2 * d + 1].copy())
    rows = kw.Casts(np.empty((n, d)), np.empty((n, d)), np.empty(n), np.empty(n))
    kw.gather_casts(casts, order, rows)
    for given_field, gathered in zip(casts, rows):
        assert given_field[order].tobytes() == gathered.tobytes()
    found = kw.Hits(rng.integers(-1, 9, n), rows.tmax, rows.origins, rows.directions,
                    rng.integers(0, 2, n).astype(np.bool_))
    back = kw.Hits(np.empty(n, np.int64), np.empty(n), np.empty((n, d)), np.empty((n, d)),
                   np.empty(n, np.bool_))
    kw.scatter_hits(found, order, back)
    for put, field in zip(back, found):
        assert put[order].tobytes() == field.tobytes()
    # a ray batch's: no radii gathered (the cast reads none), no inside put back (the batch
    # returns none), every other column as above
    rays = kw.Casts(np.empty((n, d)), np.empty((n, d)), np.empty(n), np.empty(0))
    kw.gather_casts(casts, order, rays)
    for given_field, gathered in zip(casts[:3], rays[:3]):
        assert given_field[order].tobytes() == gathered.tobytes()
    assert rays.radii.shape == (0,)
    hits = kw.Hits(np.empty(n, np.int64), np.empty(n), np.empty((n, d)), np.empty((n, d)),
                   np.empty(0, np.bool_))
    kw.scatter_hits(found, order, hits)
    for put, field in zip(hits[:4], found[:4]):
        assert put[order].tobytes() == field.tobytes()
    assert hits.inside.shape == (0,)


@pytest.mark.parametrize("d", [2, 3])
def test_a_batch_cast_gathered_answers_each_row_as_cast_in_place(
        d: int, monkeypatch: pytest.MonkeyPatch) -> None:
    """From RAY_GATHER_MIN_ROWS rows a batch's balls (and its rays, from
    RAY_ORDER_MIN_COLLIDERS colliders) are copied into their spatial order, cast one after
    another and their hits put back in their rows (the cache then holds the grid and the
    colliders rather than scattered rows): every row answers bit for bit as the batch cast
    in place in that order, or in its own order (rays below those sizes), on one thread and
    on two."""
    from swept import world as world_module

    rng = np.random.default_rng(90 + d)
    world = World()
    for k in range(300):
        c = rng.uniform(0.0, 100.0, d)
        if d == 2:
            world.add(Segment(c, c + rng.uniform(-8.0, 8.0, 2)) if k % 3 else Circle(c, 1.5),
                      moving=k % 7 == 0)
        else:
            world.add(Sphere(c, 1.5) if k % 2 else AABB(c, c + 2.0), moving=k % 7 == 0)
    n = 3000
    origins = rng.uniform(-5.0, 105.0, (n, d))
    directions = rng.normal(size=(n, d))
    reach = rng.choice([math.inf, 30.0], n)
    radii = rng.uniform(0.0, 2.0, n)
    answers = []
    before = swept.threads()
    try:
        for gather_from, colliders_from in ((n + 1, 0), (n, 0), (1, 0), (1, 301)):
            monkeypatch.setattr(world_module, "RAY_GATHER_MIN_ROWS", gather_from)
            monkeypatch.setattr(world_module, "RAY_ORDER_MIN_COLLIDERS", colliders_from)
            for count in (1, 2):
                swept.set_threads(count)
                rays = world.raycast_many(origins, directions, reach)
                balls = world.sweep_many(origins, radii, directions * 30.0)
                answers.append([getattr(b, f).tobytes() for b in (rays, balls)
                                for f in ("handle", "point", "normal")]
                               + [rays.distance.tobytes(), balls.fraction.tobytes()])
    finally:
        swept.set_threads(before)
    assert all(a == answers[0] for a in answers)
    # (rays that hit, so that the rows compared are not all misses)
    assert (np.frombuffer(answers[0][0], np.int64) >= 0).sum() > 100
