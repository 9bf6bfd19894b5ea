"""World.raycast's scene descriptor and raycast_many's compiled normalisation.

World.raycast hands its kernel the scene by address (one int64 descriptor of the scene's
arrays and the traversal stack, :func:`swept._kernels.world.describe`), so each ray must use
the descriptor of the current scene: after any change that rebuilds or reallocates the arrays
(adds past the table's capacity, polygons past the pool's, moves, removals, a copy or a
pickle) the next ray answers on the new arrays. raycast_many normalises its directions in one
compiled pass, to the very bits of a Ray's direction.
"""

from __future__ import annotations

import copy
import inspect
import math
import pickle
from typing import Any

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from swept import Circle, Polygon, Ray, Segment, Vec3, raycast
from swept._kernels import world as kw
from swept.constants import MAX_COORDINATE
from swept.vec import _unit_direction2
from swept.world import INITIAL_CAPACITY, INITIAL_POOL, World, _lengths


def brute(world: World, ray: Ray) -> tuple[float, int] | None:
    """The nearest hit (distance, handle) over every collider, ties to the smaller handle."""
    best: tuple[float, int] | None = None
    for h in world.handles():
        hit = raycast(ray, world.shape(h))
        if hit is not None and (best is None or (hit.distance, h) < best):
            best = (hit.distance, h)
    return best


def answer(world: World, ray: Ray) -> tuple[float, int] | None:
    hit = world.raycast(ray)
    return None if hit is None else (hit.distance, hit.handle)


def wall(x: float) -> Segment:
    """A vertical wall at ``x`` from y = -1 to 1: the ray along +x from the origin meets it."""
    return Segment((x, -1.0), (x, 1.0))


RAY = Ray((0.0, 0.0), (1.0, 0.0))


def test_a_ray_after_the_table_grows_reads_the_new_arrays() -> None:
    """Adding past the table's capacity reallocates its arrays: a descriptor kept from before
    would point at the freed ones. Each ray must see the walls added since the last."""
    world = World()
    world.add(wall(1000.0))
    assert answer(world, RAY) == (1000.0, 0)
    for k in range(1, 3 * INITIAL_CAPACITY):
        world.add(wall(1000.0 - k))
        assert answer(world, RAY) == (1000.0 - k, k)


def test_a_ray_after_the_polygon_pool_grows_reads_the_new_pool() -> None:
    world = World()
    world.add(wall(1e4))
    assert answer(world, RAY) == (1e4, 0)
    # polygons of 64 corners: the pool doubles several times
    corners = 64
    for k in range(1, 3 * INITIAL_POOL // corners + 2):
        angle = np.linspace(0.0, 2.0 * math.pi, corners, endpoint=False)
        center = 1e4 - 10.0 * k
        world.add(Polygon(np.column_stack([center + np.cos(angle), np.sin(angle)])))
        assert answer(world, RAY) == brute(world, RAY)


def test_a_ray_after_moves_and_removals_answers_on_the_current_scene() -> None:
    world = World()
    near = world.add(wall(5.0), moving=True)
    far = world.add(wall(9.0))
    assert answer(world, RAY) == (5.0, near)
    world.move(near, wall(12.0))
    assert answer(world, RAY) == (9.0, far)
    world.remove(far)
    assert answer(world, RAY) == (12.0, near)
    world.remove(near)
    assert world.raycast(RAY) is None
    # a new collider in the emptied world
    again = world.add(Circle((3.0, 0.0), 1.0))
    assert answer(world, RAY) == (2.0, again)


@pytest.mark.parametrize("clone", [copy.copy, copy.deepcopy,
                                   lambda w: pickle.loads(pickle.dumps(w))])
def test_a_copied_world_describes_its_own_scene(clone: Any) -> None:
    """A copy has arrays of its own: it must never reuse the original's descriptor (whose
    addresses die with the original)."""
    world = World()
    for k in range(10):
        world.add(wall(10.0 + k))
    assert answer(world, RAY) == (10.0, 0)
    other = clone(world)
    del world
    assert answer(other, RAY) == (10.0, 0)
    other.remove(0)
    assert answer(other, RAY) == (11.0, 1)


def test_describe_refuses_arrays_of_another_layout() -> None:
    world = World()
    world.add(wall(1.0))
    scene = world._sync()
    # a strided view: the kernel's views assume C order
    with pytest.raises(ValueError, match="scene array 4"):
        kw.describe(scene._replace(links=np.repeat(scene.links, 2)[::2]))
    with pytest.raises(ValueError, match="scene array 0"):
        kw.describe(scene._replace(rows=scene.rows.astype(np.float32)))


@given(seed=st.integers(0, 2**32 - 1), n=st.integers(0, 400))
def test_world_raycast_equals_brute_force_on_random_walls(seed: int, n: int) -> None:
    rng = np.random.default_rng(seed)
    world = World()
    if n:
        a = rng.uniform(-50.0, 50.0, (n, 2))
        world.add_segments(np.hstack([a, a + rng.uniform(-20.0, 20.0, (n, 2))]))
    for _ in range(20):
        angle = rng.uniform(0.0, 2.0 * math.pi)
        ray = Ray(rng.uniform(-60.0, 60.0, 2), (math.cos(angle), math.sin(angle)))
        got = answer(world, ray)
        want = brute(world, ray)
        if want is None:
            assert got is None
        else:
            assert got is not None and got[1] == want[1]
            assert got[0] == pytest.approx(want[0], rel=1e-12, abs=1e-12)


# ---------------------------------------------------------------------------- raycast_many


def _directions(d: int, seed: int) -> np.ndarray:
    """Directions of every scale: ordinary, tiny (1e-160: squares underflow in 3D), huge
    (1e150), subnormal, and the axes both ways."""
    rng = np.random.default_rng(seed)
    parts = [rng.normal(size=(500, d)), rng.normal(size=(100, d)) * 1e-160,
             rng.normal(size=(100, d)) * 1e150, rng.normal(size=(100, d)) * 1e-310,
             np.eye(d), -np.eye(d)]
    return np.concatenate(parts)


@pytest.mark.parametrize("d", [2, 3])
def test_the_batch_normalises_to_the_bits_of_a_rays_direction(d: int) -> None:
    """raycast_many divides each direction by its length inside the cast kernel (where the
    threads share the work): the very bits of a Ray's direction (in 2D the shared formula
    ``swept.vec._unit_direction2``, in 3D numpy's ``v / lengths``), so each row is the cast of the
    direction a Ray would have normalised."""
    v = _directions(d, d)
    length = _lengths(v)
    v = v[length > 0.0]
    n = v.shape[0]
    rng = np.random.default_rng(d)
    world = World()
    if d == 2:
        a = rng.uniform(-50.0, 50.0, (200, 2))
        world.add_segments(np.hstack([a, a + rng.uniform(-20.0, 20.0, (200, 2))]))
    else:
        world.add_circles(rng.uniform(-50.0, 50.0, (200, 3)), rng.uniform(1.0, 5.0, 200))
    scene = world._sync()
    origins = rng.uniform(-60.0, 60.0, (n, d))
    tmax = np.full(n, np.inf)

    def cast(directions: np.ndarray, flags: int) -> kw.Hits:
        out = kw.Hits(np.empty(n, np.int64), np.empty(n), np.empty((n, d)), np.empty((n, d)),
                      np.empty(n, np.bool_))
        kw.cast_range(0, n, scene, kw.Casts(origins, directions, tmax, tmax),
                      np.empty(0, np.int64), 0xFFFFFFFF, flags, out)
        return out

    inside = cast(v, kw.CAST_NORMALISE)
    if d == 2:
        units = np.array([_unit_direction2(x, y)[:2] for x, y in v.tolist()])
    else:
        units = np.ascontiguousarray(v / _lengths(v)[:, None])
    numpy = cast(units, 0)
    assert (inside.handle >= 0).any()
    for got, want in zip(inside, numpy):
        assert np.array_equal(got, want)


@pytest.mark.parametrize("d", [2, 3])
def test_the_first_zero_length_row_is_found(d: int) -> None:
    v = np.ones((5, d))
    assert kw.zero_length_row(v) == -1
    v[3] = 0.0
    v[4] = 0.0
    assert kw.zero_length_row(v) == 3
    # tiny, not zero: hypot does not underflow in 2D, and in 3D the squares that do are
    # rescaled (as Vec3.length): a length, not a zero vector
    v[1] = 1e-170
    assert kw.zero_length_row(v) == 3
    assert _lengths(v[1:2])[0] == (Vec3(*v[1]).length() if d == 3 else math.hypot(*v[1]))
    assert _lengths(v[1:2])[0] > 0.0


def test_a_tiny_3d_direction_casts_as_its_ray() -> None:
    """A 3D direction whose squares underflow (1e-160, 1e-310) was once a zero length to the
    batch (ValueError: the zero vector) while a Ray rescales it (Vec3.length): the kernel now
    rescales it by the same operations, and each row equals World.raycast to the bit."""
    world = World()
    rng = np.random.default_rng(2)
    world.add_circles(rng.uniform(-50.0, 50.0, (200, 3)), rng.uniform(1.0, 5.0, 200))
    origins = rng.uniform(-60.0, 60.0, (300, 3))
    directions = rng.normal(size=(300, 3))
    directions[:100] *= 1e-160
    directions[100:150] *= 1e-310
    batch = world.raycast_many(origins, directions)
    assert batch.hit.sum() > 20
    for i in range(300):
        hit = world.raycast(Ray(origins[i], directions[i]))
        assert batch.hit[i] == (hit is not None)
        if hit is not None:
            assert batch.handle[i] == hit.handle and batch.distance[i] == hit.distance
            assert tuple(batch.normal[i]) == tuple(hit.normal)


def test_raycast_many_normalises_as_the_rays_do() -> None:
    """Each batch row is the scalar ray through the same (unnormalised) direction."""
    world = World()
    rng = np.random.default_rng(3)
    a = rng.uniform(0.0, 100.0, (300, 2))
    world.add_segments(np.hstack([a, a + rng.uniform(-10.0, 10.0, (300, 2))]))
    origins = rng.uniform(0.0, 100.0, (200, 2))
    directions = rng.normal(size=(200, 2)) * rng.choice([1e-9, 1.0, 1e9], (200, 1))
    batch = world.raycast_many(origins, directions)
    for i in range(200):
        hit = world.raycast(Ray(origins[i], directions[i]))
        assert batch.hit[i] == (hit is not None)
        if hit is not None:
            # the same unit direction (one formula), so the same bits
            assert batch.handle[i] == hit.handle
            assert batch.distance[i] == hit.distance
            assert tuple(batch.point[i]) == tuple(hit.point)


def test_raycast_many_names_the_zero_direction() -> None:
    world = World()
    world.add(wall(1.0))
    with pytest.raises(ValueError, match=r"directions\[2\] is the zero vector"):
        world.raycast_many(np.zeros((4, 2)), [[1.0, 0.0], [0.0, 1.0], [0.0, 0.0], [0.0, 0.0]])


def test_the_world_cast_is_compiled_once() -> None:
    """The World's cast (``_cast``, seconds of a cold compile per inlined copy) is inlined
    into one compiled kernel, the batch's ``cast_range``, which the batch calls once a range
    and every scalar query (``cast_one``, inlined into ``cast_at`` and the one-call entries
    of ``world_hit``) on the descriptor's one-row batch; a second inlined copy brings the
    cold compile's cost back."""
    from swept._kernels import world_hit as kh
    kernels = [getattr(kw, name) for name in ("cast_one", "cast_at", "cast_range")]
    kernels += [getattr(kh, name) for name in ("ray_hit2", "ray_hit3", "ball_hit2", "ball_hit3")]
    sites = [k.py_func.__name__ for k in kernels if "_cast(" in inspect.getsource(k.py_func)]
    assert sites == ["cast_range"]
    rng = np.random.default_rng(5)
    world = World()
    a = rng.uniform(0.0, 100.0, (100, 2))
    world.add_segments(np.hstack([a, a + rng.uniform(-10.0, 10.0, (100, 2))]))
    origins = rng.uniform(0.0, 100.0, (50, 2))
    directions = rng.normal(size=(50, 2))
    batch = world.raycast_many(origins, directions)
    balls = world.sweep_many(origins, np.full(50, 0.5), directions)
    batch_signatures = set(kw.cast_range.signatures)
    for k in range(50):
        hit = world.raycast(Ray(tuple(origins[k]), tuple(directions[k])))
        assert (hit.handle if hit is not None else -1) == batch.handle[k]
        if hit is not None:
            assert hit.distance == batch.distance[k]
    assert (batch.handle >= 0).any() and (balls.handle >= 0).any()
    # the scalar queries' one-row batch types as the batch does: no compile of its own
    assert set(kw.cast_range.signatures) == batch_signatures


def test_the_batch_cast_reads_a_strided_scene_as_a_contiguous_one() -> None:
    """``cast_range`` reads the scene through owner-less views (``world.unowned``) that keep
    each array's strides: a scene array that is a strided view answers as its contiguous
    copy does (views assuming one C-ordered block read such an array wrong)."""
    world = World()
    world.add(Segment((5.0, -1.0), (5.0, 1.0)))
    world.add(Circle((9.0, 0.0), 1.0))
    scene = world._sync()
    wide = np.zeros((scene.rows.shape[0], 2 * scene.rows.shape[1]))
    wide[:, ::2] = scene.rows
    strided = kw.Scene(wide[:, ::2], scene.tags, scene.pool, scene.nodes, scene.links)
    answers = []
    for table in (strided, scene):
        out = kw.Hits(np.empty(2, np.int64), np.empty(2), np.empty((2, 2)), np.empty((2, 2)),
                      np.empty(2, np.bool_))
        casts = kw.Casts(np.array([[0.0, 0.0], [12.0, 0.0]]),
                         np.array([[1.0, 0.0], [-1.0, 0.0]]), np.full(2, np.inf), np.zeros(2))
        kw.cast_range(0, 2, table, casts, np.empty(0, np.int64), 0xFFFFFFFF, 0, out)
        answers.append((out.handle.tolist(), out.t.tolist()))
    assert answers[0] == answers[1] == ([0, 1], [5.0, 2.0])


_CHECKED = st.sampled_from([0.0, -0.0, 1.0, -2.5, 1e-300, 5e-324, MAX_COORDINATE,
                            -MAX_COORDINATE, np.nextafter(MAX_COORDINATE, math.inf), math.inf,
                            -math.inf, math.nan])


@settings(max_examples=300, deadline=None)
@given(d=st.sampled_from([2, 3]), data=st.data())
def test_the_batch_checks_in_one_pass_answer_as_the_three_checks(d: int, data: Any) -> None:
    """raycast_many checks a float64 batch's origins and directions in one compiled pass
    (``rays_fine``: every value within MAX_COORDINATE, no zero direction) where it made three
    (``within`` twice, ``zero_length_row``): the one pass accepts exactly the batches the
    three accept, whatever the values (NaN, infinities, the limit and the next float past it,
    signed zeros, subnormals)."""
    n = data.draw(st.integers(0, 7))
    origins = np.array(data.draw(st.lists(_CHECKED, min_size=n * d, max_size=n * d)),
                       dtype=np.float64).reshape(n, d)
    directions = np.array(data.draw(st.lists(_CHECKED, min_size=n * d, max_size=n * d)),
                          dtype=np.float64).reshape(n, d)
    three = (kw.within(origins, MAX_COORDINATE) and kw.within(directions, MAX_COORDINATE)
             and kw.zero_length_row(directions) < 0)
    assert kw.rays_fine(origins, directions, MAX_COORDINATE) == three


@pytest.mark.parametrize("case", ["nan origin", "inf direction", "past the limit",
                                  "zero direction", "rows", "columns", "world's width"])
def test_a_batch_the_one_pass_rejects_raises_the_checks_own_error(case: str) -> None:
    """A float64 batch that fails raycast_many's one compiled check goes through the checks
    of any other input (their conversions, their messages): each error names what it named
    before, the same for arrays (the compiled check first) as for lists (the checks alone)."""
    world = World()
    world.add(wall(1.0))
    origins = np.zeros((4, 2))
    directions = np.ones((4, 2))
    if case == "nan origin":
        origins[3, 1] = math.nan
    elif case == "inf direction":
        directions[1, 0] = math.inf
    elif case == "past the limit":
        origins[2, 0] = 2.0 * MAX_COORDINATE
    elif case == "zero direction":
        directions[2] = 0.0
    elif case == "rows":
        directions = directions[:3].copy()
    elif case == "columns":
        directions = np.ones((4, 3))
    else:
        origins, directions = np.zeros((4, 3)), np.ones((4, 3))
    messages = []
    for o, v in ((origins, directions), (origins.tolist(), directions.tolist())):
        with pytest.raises(ValueError) as caught:
            world.raycast_many(o, v)
        messages.append(str(caught.value))
    assert messages[0] == messages[1]
    if case == "zero direction":
        assert messages[0] == "directions[2] is the zero vector"


def test_any_batch_layout_answers_as_the_plain_float64_batch() -> None:
    """Only a C-ordered float64 batch of the world's width takes the one compiled check; any
    other (Fortran order, a strided view, float32, read-only arrays, lists) is converted by
    the checks first: every form casts the same rays to the same bits."""
    world = World()
    rng = np.random.default_rng(5)
    a = rng.uniform(0.0, 100.0, (300, 2))
    world.add_segments(np.hstack([a, a + rng.uniform(-10.0, 10.0, (300, 2))]))
    origins = rng.uniform(0.0, 100.0, (200, 2)).astype(np.float32).astype(np.float64)
    directions = rng.normal(size=(200, 2)).astype(np.float32).astype(np.float64)
    frozen_o, frozen_v = origins.copy(), directions.copy()
    frozen_o.flags.writeable = frozen_v.flags.writeable = False
    wide = np.zeros((200, 4))
    wide[:, ::2] = directions
    forms = [(origins, directions), (np.asfortranarray(origins), np.asfortranarray(directions)),
             (origins, wide[:, ::2]), (origins.astype(np.float32), directions.astype(np.float32)),
             (frozen_o, frozen_v), (origins.tolist(), directions.tolist())]
    want = world.raycast_many(origins, directions)
    assert want.hit.sum() > 20
    for o, v in forms:
        got = world.raycast_many(o, v)
        for field in ("hit", "distance", "point", "normal", "handle"):
            assert getattr(got, field).tobytes() == getattr(want, field).tobytes()
