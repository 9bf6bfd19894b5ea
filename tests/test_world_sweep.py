"""World.sweep and World.sweep_many of convex movers (segments, capsules, boxes, polygons)
through the compiled kernel (:mod:`swept._kernels.world_sweep`): every answer is the scalar
``swept.sweep`` minimised over the colliders (least fraction, ties: smallest handle)."""

from __future__ import annotations

import math
import random
from typing import Any

import numpy as np
import pytest
from hypothesis import given
from hypothesis import strategies as st

import swept.world as world_module
from swept import AABB, Capsule, Circle, Plane, Polygon, Segment, Sphere, World, sweep
from swept.shapes import Shape

#: closed forms agree to the last bits; a GJK cast to well within its stopping tolerance
TOL = 1e-12


def _brute(w: World, mover: Shape, d: Any, td: float = 0.0, skip: frozenset[int] = frozenset(),
           mask: int = 0xFFFFFFFF) -> tuple[int, Any]:
    """The scalar sweep minimised over every visible collider: (handle, hit), (-1, None)."""
    best = None
    best_h = -1
    for h in w.handles():
        if h in skip or (w.layer(h) & mask) == 0:
            continue
        hit = sweep(mover, d, w.shape(h), target_distance=td)
        if hit is not None and (best is None or hit.fraction < best.fraction):
            best, best_h = hit, h
    return best_h, best


def _close(a: Any, b: Any, scale: float) -> bool:
    return all(abs(x - y) <= TOL * max(1.0, scale, abs(x), abs(y)) for x, y in zip(a, b))


def _assert_same(got: Any, want: tuple[int, Any], scale: float = 1.0) -> None:
    h, hit = want
    if hit is None:
        assert got is None
        return
    assert got is not None
    assert got.handle == h
    assert abs(got.fraction - hit.fraction) <= TOL
    assert got.started_inside == hit.started_inside
    assert _close(got.normal, hit.normal, 1.0)
    assert _close(got.point, hit.point, scale)
    assert _close(got.position, hit.position, scale)


def _scene2(rng: random.Random, n: int, s: float = 1.0) -> World:
    """n random 2D colliders of every kind in a (100 s)^2 square, and a floor plane."""
    w = World()
    for i in range(n):
        x, y = rng.uniform(0, 100) * s, rng.uniform(0, 100) * s
        k = i % 5
        shape: Shape
        if k == 0:
            shape = Circle((x, y), rng.uniform(0.5, 3) * s)
        elif k == 1:
            shape = Segment((x, y), (x + rng.uniform(-5, 5) * s, y + rng.uniform(-5, 5) * s))
        elif k == 2:
            shape = AABB((x, y), (x + rng.uniform(0.5, 4) * s, y + rng.uniform(0.5, 4) * s))
        elif k == 3:
            shape = Polygon.box(rng.uniform(0.5, 3) * s, rng.uniform(0.5, 3) * s).placed(
                (x, y), rng.uniform(0, 3))
        else:
            shape = Capsule((x, y), (x + rng.uniform(-4, 4) * s, y + rng.uniform(-4, 4) * s),
                            rng.uniform(0.2, 2) * s)
        w.add(shape, moving=(i % 7 == 3))
    w.add(Plane((0.0, 1.0), -5.0 * s))
    return w


def _scene3(rng: random.Random, n: int, s: float = 1.0) -> World:
    """n random 3D colliders of every kind in a (100 s)^3 cube, and a floor plane."""
    w = World()
    for i in range(n):
        x, y, z = (rng.uniform(0, 100) * s for _ in range(3))
        k = i % 3
        shape: Shape
        if k == 0:
            shape = Sphere((x, y, z), rng.uniform(0.5, 5) * s)
        elif k == 1:
            shape = AABB((x, y, z), (x + rng.uniform(0.5, 8) * s, y + rng.uniform(0.5, 8) * s,
                                     z + rng.uniform(0.5, 8) * s))
        else:
            shape = Capsule((x, y, z), (x + rng.uniform(-6, 6) * s, y + rng.uniform(-6, 6) * s,
                                        z + rng.uniform(-6, 6) * s), rng.uniform(0.5, 3) * s)
        w.add(shape, moving=(i % 7 == 3))
    w.add(Plane((0.0, 1.0, 0.0), -5.0 * s))
    return w


def _mover2(rng: random.Random, k: int, s: float = 1.0) -> Shape:
    x, y = rng.uniform(0, 100) * s, rng.uniform(0, 100) * s
    if k == 0:
        return Capsule((x, y), (x + 2 * s, y + 1 * s), 0.7 * s)
    if k == 1:
        return AABB((x, y), (x + 2 * s, y + 1.5 * s))
    if k == 2:
        return Polygon([(x, y), (x + 3 * s, y + 0.5 * s), (x + 1 * s, y + 2 * s)])
    return Segment((x, y), (x + 1 * s, y - 2 * s))


def _mover3(rng: random.Random, k: int, s: float = 1.0) -> Shape:
    x, y, z = (rng.uniform(0, 100) * s for _ in range(3))
    if k % 2 == 0:
        return Capsule((x, y, z), (x + 2 * s, y + 1 * s, z - 1 * s), 0.7 * s)
    return AABB((x, y, z), (x + 2 * s, y + 1.5 * s, z + 1 * s))


# ---------------------------------------------------------------------------------------------
# World.sweep against the scalar sweep


@pytest.mark.parametrize("seed", [1, 2, 3])
def test_world_sweep_2d_equals_scalar_sweep_minimised(seed: int) -> None:
    rng = random.Random(seed)
    w = _scene2(rng, 120)
    hits = inside = 0
    for trial in range(120):
        mover = _mover2(rng, trial % 4)
        d = (rng.uniform(-40, 40), rng.uniform(-40, 40))
        want = _brute(w, mover, d)
        _assert_same(w.sweep(mover, d), want, 100.0)
        hits += want[1] is not None
        inside += want[1] is not None and want[1].started_inside
    # the scenes exercise hits from outside and starts inside alike
    assert hits > 40 and inside > 5


@pytest.mark.parametrize("seed", [1, 2])
def test_world_sweep_3d_equals_scalar_sweep_minimised(seed: int) -> None:
    rng = random.Random(seed)
    w = _scene3(rng, 150)
    hits = 0
    for trial in range(80):
        mover = _mover3(rng, trial)
        d = tuple(rng.uniform(-50, 50) for _ in range(3))
        want = _brute(w, mover, d)
        _assert_same(w.sweep(mover, d), want, 100.0)
        hits += want[1] is not None
    assert hits > 20


@pytest.mark.parametrize("s", [1e-6, 1e-3, 1.0, 1e3, 1e7])
def test_world_sweep_equals_scalar_at_every_scale(s: float) -> None:
    rng = random.Random(7)
    w2 = _scene2(rng, 60, s)
    w3 = _scene3(rng, 60, s)
    for trial in range(30):
        mover = _mover2(rng, trial % 4, s)
        d = (rng.uniform(-40, 40) * s, rng.uniform(-40, 40) * s)
        _assert_same(w2.sweep(mover, d), _brute(w2, mover, d), 100.0 * s)
        mover3 = _mover3(rng, trial, s)
        d3 = tuple(rng.uniform(-50, 50) * s for _ in range(3))
        _assert_same(w3.sweep(mover3, d3), _brute(w3, mover3, d3), 100.0 * s)


def test_target_distance_mask_ignore_and_removed_colliders() -> None:
    rng = random.Random(11)
    w = _scene2(rng, 80)
    for h in range(0, 80, 9):
        w.remove(h)
    for i in range(1, 80, 2):
        if i in w and w.is_moving(i):
            # a moving collider moved: the moving tree is refitted
            w.move(i, w.shape(i).translated((3.0, -2.0)))
    for trial in range(60):
        mover = _mover2(rng, trial % 4)
        d = (rng.uniform(-30, 30), rng.uniform(-30, 30))
        _assert_same(w.sweep(mover, d, target_distance=0.25), _brute(w, mover, d, 0.25), 100.0)
        first = _brute(w, mover, d)[0]
        if first >= 0:
            skip = frozenset({first})
            _assert_same(w.sweep(mover, d, ignore=skip), _brute(w, mover, d, skip=skip), 100.0)
    layered = World()
    layered.add(AABB((5, -1), (6, 1)), layer=2)
    layered.add(AABB((8, -1), (9, 1)), layer=1)
    box = AABB((0, -0.5), (1, 0.5))
    hit = layered.sweep(box, (10, 0), mask=1)
    assert hit is not None and hit.handle == 1 and hit.fraction == 0.7


# ---------------------------------------------------------------------------------------------
# adversarial cases, with their closed-form answers


def test_box_touching_at_start_hits_at_zero_inside() -> None:
    w = World()
    w.add(AABB((1, 0), (2, 1)))
    box = AABB((0, 0), (1, 1))  # shares the face x = 1
    hit = w.sweep(box, (1, 0))
    assert hit is not None and hit.fraction == 0.0 and hit.started_inside
    assert tuple(hit.normal) == (-1.0, 0.0)
    _assert_same(hit, _brute(w, box, (1, 0)))
    # sliding along the shared face (grazing): touching counts, at 0
    _assert_same(w.sweep(box, (0, 5)), _brute(w, box, (0, 5)))
    # leaving it: still touching at the start
    _assert_same(w.sweep(box, (-3, 0)), _brute(w, box, (-3, 0)))


def test_overlapping_cores_take_the_contact_normal() -> None:
    """Two overlapping cores have no separating normal: the kernel flags the row and the
    normal is contact()'s, as the scalar sweep gives it."""
    w = World()
    w.add(Polygon.box(1, 1).placed((0, 0), 0.0))
    w.add(Circle((0.3, 0.1), 0.5))
    for mover in (AABB((-0.2, -0.2), (0.4, 0.5)), Capsule((-0.5, 0), (0.5, 0.2), 0.1),
                  Segment((0.0, 0.0), (0.2, 0.1))):
        hit = w.sweep(mover, (3, 1))
        assert hit is not None and hit.handle == 0 and hit.fraction == 0.0
        _assert_same(hit, _brute(w, mover, (3, 1)))


def test_ball_centred_on_a_core_takes_the_contact_normal() -> None:
    """A ball whose centre lies on a segment's core (or end, or a capsule's axis) has two
    equal ways out; the World's cast must break the tie as contact() does (the scalar
    sweep's rule), in the scalar query and in the batch, not by the ray kernel's own rule."""
    for target in (Segment((0.0, 0.0), (0.0, 1.0)), Segment((0.0, -1.0), (0.0, 1.0)),
                   Capsule((0.0, 1.0), (0.0, -1.0), 0.25), Segment((2.0, 0.0), (-2.0, 0.0))):
        w = World()
        w.add(target)
        ball = Circle((0.0, 0.0), 0.75)
        for disp in ((0.0, 2.0), (0.0, -2.0), (1.0, 0.0), (0.0, 0.0)):
            hit = w.sweep(ball, disp)
            want = sweep(ball, disp, target)
            assert hit is not None and want is not None and hit.started_inside
            # centre on the core: the perpendicular nearest +x (+y for a core along x)
            assert tuple(hit.normal) == tuple(want.normal)
            assert tuple(hit.point) == tuple(want.point)
            batch = w.sweep_many(np.array([[0.0, 0.0]]), np.array([0.75]), np.array([disp]))
            assert tuple(batch.normal[0]) == tuple(want.normal)


def test_exact_fractions_of_boxes_capsules_and_polygons() -> None:
    w = World()
    wall = w.add(AABB((10, -5), (11, 5)))
    w.add(Circle((0, 20), 1.0))
    w.add(Plane((0.0, 1.0), -3.0))
    box = AABB((0, -1), (2, 1))
    hit = w.sweep(box, (16, 0))
    # the box's face x = 2 reaches x = 10 after 8 of 16
    assert hit is not None and hit.handle == wall and abs(hit.fraction - 0.5) <= 1e-9
    assert tuple(hit.normal) == (-1.0, 0.0)
    cap = Capsule((0, 10), (0, 14), 1.0)
    hit = w.sweep(cap, (0, 10))
    # the capsule's top (y 15) reaches the circle's bottom (y 19): 4 of 10, closed form
    assert hit is not None and hit.handle == 1 and abs(hit.fraction - 0.4) <= 1e-15
    tri = Polygon([(-1, 5), (1, 5), (0, 3)])
    hit = w.sweep(tri, (0, -10))
    # the corner (0, 3) meets the floor y = -3 after 6 of 10
    assert hit is not None and hit.handle == 2 and abs(hit.fraction - 0.6) <= 1e-15
    assert tuple(hit.point) == (0.0, -3.0)


def test_through_a_vertex_and_between_two_boxes() -> None:
    w = World()
    w.add(AABB((4, 1), (5, 2)))
    w.add(AABB((4, -2), (5, -1)))
    # a unit box through the gap between them (exactly its height): grazes both faces
    box = AABB((0, -1), (1, 1))
    _assert_same(w.sweep(box, (10, 0)), _brute(w, box, (10, 0)))
    # a diamond aimed corner first at a box corner
    diamond = Polygon([(0, 2), (-1, 3), (-2, 2), (-1, 1)])
    _assert_same(w.sweep(diamond, (5, 0)), _brute(w, diamond, (5, 0)))
    # zero displacement: only what touches at the start
    assert w.sweep(box, (0, 0)) is None
    touching = AABB((3, 0), (4, 1))
    _assert_same(w.sweep(touching, (0, 0)), _brute(w, touching, (0, 0)))


@given(x=st.floats(-20, 120), y=st.floats(-20, 120), dx=st.floats(-60, 60),
       dy=st.floats(-60, 60), k=st.integers(0, 3), td=st.sampled_from([0.0, 0.5]))
def test_property_world_sweep_equals_brute_force(x: float, y: float, dx: float, dy: float,
                                                 k: int, td: float) -> None:
    w = _PROPERTY_WORLD
    mover: Shape = [Capsule((x, y), (x + 1, y + 3), 0.5), AABB((x, y), (x + 2, y + 1)),
                    Polygon([(x, y), (x + 2, y + 1), (x, y + 2)]),
                    Segment((x, y), (x + 3, y))][k]
    _assert_same(w.sweep(mover, (dx, dy), target_distance=td), _brute(w, mover, (dx, dy), td),
                 200.0)


_PROPERTY_WORLD = _scene2(random.Random(5), 60)


def test_world_sweep_runs_no_python_narrowphase(monkeypatch: pytest.MonkeyPatch) -> None:
    """The convex movers are swept in the kernel: the scalar sweep is only asked for the
    normal of a start inside with overlapping cores."""
    w = _scene2(random.Random(3), 60)
    box = AABB((-50, 50), (-49, 51))
    want = _brute(w, box, (200, 3))

    def refuse(*_args: Any, **_kwargs: Any) -> Any:
        raise AssertionError("the Python narrowphase ran")

    monkeypatch.setattr(world_module, "_sweep", refuse)
    _assert_same(w.sweep(box, (200, 3)), want, 200.0)


# ---------------------------------------------------------------------------------------------
# sweep_many


def _batch_equals_scalar(w: World, movers: list[Shape], disps: np.ndarray, batch: Any) -> None:
    for i, (mover, d) in enumerate(zip(movers, disps)):
        want = w.sweep(mover, d)
        if want is None:
            assert not batch.hit[i] and batch.handle[i] == -1
            assert batch.fraction[i] == math.inf
            continue
        assert batch.hit[i] and batch.handle[i] == want.handle
        assert batch.fraction[i] == want.fraction
        assert tuple(batch.point[i]) == tuple(want.point)
        assert tuple(batch.normal[i]) == tuple(want.normal)


def test_sweep_many_of_shapes_equals_world_sweep_2d() -> None:
    rng = random.Random(21)
    w = _scene2(rng, 150)
    movers: list[Shape] = []
    for i in range(300):
        movers.append(_mover2(rng, i % 5) if i % 5 < 4 else
                      Circle((rng.uniform(0, 100), rng.uniform(0, 100)), 1.3))
    disps = np.array([(rng.uniform(-40, 40), rng.uniform(-40, 40)) for _ in movers])
    batch = w.sweep_many(movers, disps)
    _batch_equals_scalar(w, movers, disps, batch)
    assert batch.hit.sum() > 100
    # one shape, many displacements (by position and by keyword)
    one = Polygon([(50, 50), (52, 50), (51, 53)])
    for got in (w.sweep_many(one, disps), w.sweep_many(shapes=one, displacements=disps)):
        _batch_equals_scalar(w, [one] * len(disps), disps, got)


def test_sweep_many_of_shapes_equals_world_sweep_3d() -> None:
    rng = random.Random(22)
    w = _scene3(rng, 150)
    movers = [_mover3(rng, i) if i % 3 else Sphere((50, 50, 50), 2.0) for i in range(120)]
    disps = np.array([tuple(rng.uniform(-50, 50) for _ in range(3)) for _ in movers])
    _batch_equals_scalar(w, movers, disps, w.sweep_many(movers, disps))
    box = AABB((40, 40, 40), (42, 43, 41))
    _batch_equals_scalar(w, [box] * len(disps), disps, w.sweep_many(box, disps))


def test_sweep_many_keeps_the_ball_form_and_checks_its_input() -> None:
    w = World()
    w.add(AABB((5, -1), (6, 1)))
    b = w.sweep_many([[0.0, 0.0]], [1.0], [[10.0, 0.0]])
    assert b.handle.tolist() == [0] and b.fraction.tolist() == [0.4]
    box = AABB((0, -0.5), (1, 0.5))
    with pytest.raises(TypeError, match="Plane"):
        w.sweep_many(Plane((1.0, 0.0), 0.0), [[1.0, 0.0]])
    with pytest.raises(ValueError, match="displacements"):
        w.sweep_many([box, box], [[1.0, 0.0]])
    with pytest.raises(ValueError, match="displacements"):
        w.sweep_many(box, [[math.nan, 0.0]])
    with pytest.raises(ValueError, match="shapes\\[1\\]"):
        w.sweep_many([box, Sphere((0, 0, 0), 1)], [[1.0, 0.0], [1.0, 0.0]])
    with pytest.raises(TypeError, match="displacements"):
        w.sweep_many(shapes=box)
    empty = World().sweep_many(box, np.zeros((3, 2)))
    assert empty.handle.tolist() == [-1, -1, -1] and not empty.hit.any()


def test_3d_touching_overlapping_and_planes() -> None:
    w = World()
    w.add(AABB((0, 0, 0), (1, 1, 1)))
    w.add(Sphere((5, 0.5, 0.5), 1.0))
    w.add(Capsule((0, 5, 0), (0, 5, 4), 0.5))
    w.add(Plane((0.0, 1.0, 0.0), -2.0))
    movers: list[Shape] = [
        AABB((1, 0, 0), (2, 1, 1)),                        # shares a face with the box
        AABB((0.2, 0.2, 0.2), (0.8, 1.5, 0.8)),            # cores overlap the box
        AABB((4.5, 0.0, 0.0), (5.5, 1.0, 1.0)),            # the sphere's centre inside it
        Capsule((3.0, 0.5, 0.5), (3.5, 0.5, 0.5), 0.5),    # touches the sphere at the start
        Capsule((-3, 5, 2), (-2, 5, 2), 0.5),              # heads for the capsule's side
        Capsule((8, -1, 0), (8, -1.5, 0), 0.0),            # radius 0, over the floor
    ]
    for mover in movers:
        for d in ((3.0, 0.0, 0.0), (0.0, -2.0, 0.0), (-1.0, 0.5, 0.25), (0.0, 0.0, 0.0)):
            _assert_same(w.sweep(mover, d), _brute(w, mover, d), 10.0)
    disps = np.array([(3.0, 0.0, 0.0), (0.0, -2.0, 0.0), (-1.0, 0.5, 0.25), (0.0, 0.0, 0.0),
                      (1.0, 1.0, 1.0), (0.0, -9.0, 0.0)])
    _batch_equals_scalar(w, movers, disps, w.sweep_many(movers, disps))
    # the floor y = -2 under a radius-0 capsule whose low end is at y = -1.5: 0.5 of 9
    hit = w.sweep(movers[5], (0.0, -9.0, 0.0))
    assert hit is not None and hit.handle == 3 and abs(hit.fraction - 0.5 / 9.0) <= 1e-15


def test_radius_zero_capsule_mover_equals_its_segment() -> None:
    rng = random.Random(4)
    w = _scene2(rng, 80)
    for _ in range(40):
        x, y = rng.uniform(0, 100), rng.uniform(0, 100)
        d = (rng.uniform(-30, 30), rng.uniform(-30, 30))
        cap = Capsule((x, y), (x + 2, y + 3), 0.0)
        _assert_same(w.sweep(cap, d), _brute(w, cap, d), 100.0)
        seg_hit = w.sweep(Segment((x, y), (x + 2, y + 3)), d)
        cap_hit = w.sweep(cap, d)
        assert (seg_hit is None) == (cap_hit is None)
        if seg_hit is not None and cap_hit is not None:
            assert seg_hit.handle == cap_hit.handle
            assert abs(seg_hit.fraction - cap_hit.fraction) <= TOL


@pytest.mark.parametrize("s", [1e-6, 1.0, 1e7])
def test_filtered_sweeps_with_sensors_equal_brute_force(s: float) -> None:
    rng = random.Random(31)
    w = World()
    for i in range(60):
        x, y = rng.uniform(0, 60) * s, rng.uniform(0, 60) * s
        shape: Shape = [Circle((x, y), 2 * s), AABB((x, y), (x + 3 * s, y + 2 * s)),
                        Segment((x, y), (x + 4 * s, y - 3 * s))][i % 3]
        w.add(shape, data=i, sensor=(i % 7 == 0))

    def accept(h: int, data: Any) -> bool:
        return h % 4 != 1

    for trial in range(40):
        mover = _mover2(rng, trial % 4, s * 0.6)
        d = (rng.uniform(-40, 40) * s, rng.uniform(-40, 40) * s)
        for sensors in (False, True):
            best = None
            best_h = -1
            for h in w.handles():
                if (w.is_sensor(h) and not sensors) or not accept(h, w.data(h)):
                    continue
                hit = sweep(mover, d, w.shape(h))
                if hit is not None and (best is None or hit.fraction < best.fraction):
                    best, best_h = hit, h
            got = w.sweep(mover, d, filter=accept, include_sensors=sensors)
            _assert_same(got, (best_h, best), 60.0 * s)


@given(rows=st.lists(st.tuples(st.floats(-20, 120), st.floats(-20, 120), st.floats(-60, 60),
                               st.floats(-60, 60), st.integers(0, 4)), min_size=1, max_size=12))
def test_property_sweep_many_equals_world_sweep(
        rows: list[tuple[float, float, float, float, int]]) -> None:
    w = _PROPERTY_WORLD
    movers: list[Shape] = [
        [Capsule((x, y), (x + 1, y + 3), 0.5), AABB((x, y), (x + 2, y + 1)),
         Polygon([(x, y), (x + 2, y + 1), (x, y + 2)]), Segment((x, y), (x + 3, y)),
         Circle((x, y), 0.75)][k] for x, y, _dx, _dy, k in rows]
    disps = np.array([(dx, dy) for _x, _y, dx, dy, _k in rows])
    _batch_equals_scalar(w, movers, disps, w.sweep_many(movers, disps))
    _batch_equals_scalar(w, [movers[0]] * len(rows), disps, w.sweep_many(movers[0], disps))


def test_ball_sweep_many_takes_the_scalar_sweeps_length_to_the_bit() -> None:
    """A ball's fraction is its cast's distance over the displacement's length, so the batch
    and the one-ball sweep must compute that length alike: numpy's ``hypot`` (the C
    library's) and CPython's ``math.hypot`` differ in the last bit for about 0.6% of random
    vectors (found by a random run: a fraction 0.28260238794829307 against
    0.2826023879482931), and in 3D a tiny move's squares underflow unless rescaled. Every
    row equals ``sweep`` (the one-call path) and the general path (an ``ignore`` of a handle
    that does not exist) to the last bit."""
    rng = np.random.default_rng(8)
    w2 = _PROPERTY_WORLD
    disps2 = rng.uniform(-60.0, 60.0, (400, 2))
    disps2[0] = (59.99999999999999, 14.03463407505302)
    ball2 = Circle((0.0, 0.0), 0.75)
    batch = w2.sweep_many(ball2, disps2)
    _batch_equals_scalar(w2, [ball2] * len(disps2), disps2, batch)
    assert batch.handle[0] == 50 and batch.fraction[0] == 0.28260238794829307
    for i, d in enumerate(disps2.tolist()):
        general = w2.sweep(ball2, d, ignore=[10**6])
        assert (general is None) == (not batch.hit[i])
        if general is not None:
            assert general.fraction == batch.fraction[i]
    w3 = _scene3(random.Random(4), 60)
    ball3 = Sphere((0.0, 0.0, 0.0), 0.75)
    disps3 = rng.uniform(-60.0, 60.0, (300, 3))
    # tiny moves whose squares underflow: rescaled, as Vec3.length
    disps3[:20] *= 1e-160
    batch3 = w3.sweep_many(ball3, disps3)
    _batch_equals_scalar(w3, [ball3] * len(disps3), disps3, batch3)


def test_a_collider_kind_the_kernel_cannot_sweep_falls_back_to_python() -> None:
    """A collider kind added to the table after this kernel (a chain, say) must not be
    silently missed: the kernel flags the row and the World answers it by the scalar sweep on
    every candidate. Simulated by relabelling a row with a kind code no kernel knows."""
    w = World()
    w.add(AABB((20, -1), (21, 1)))
    strange = w.add(AABB((5, -1), (6, 1)))
    box = AABB((0, -0.5), (1, 0.5))
    w._sync()
    w._tags[strange, 0] = 99
    hit = w.sweep(box, (30, 0))
    assert hit is not None and hit.handle == strange and hit.fraction == 4.0 / 30.0
    batch = w.sweep_many([box, box], np.array([(30.0, 0.0), (0.0, 5.0)]))
    assert batch.handle.tolist() == [strange, -1]
    assert batch.fraction[0] == 4.0 / 30.0 and tuple(batch.normal[0]) == (-1.0, 0.0)
