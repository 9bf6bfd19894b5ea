"""choose_broadphase: grid (and its cell) or BVH from the statistics of a scene's boxes."""

from __future__ import annotations

import math
from typing import Any

import numpy as np
import pytest
from hypothesis import given
from hypothesis import strategies as st

from shared import bench_scenes
from swept.broadphase import BroadphaseChoice, choose_broadphase, plan_grid
from swept.constants import (
    BROADPHASE_CLUSTER_COLLIDERS_PER_CELL,
    BROADPHASE_CLUSTER_GRID_MIN_COLLIDERS,
    BROADPHASE_COLLIDERS_PER_CELL,
    BROADPHASE_GRID_MIN_COLLIDERS,
    BROADPHASE_MAX_CLUSTER_OCCUPANCY,
    BROADPHASE_MAX_ENTRIES_PER_COLLIDER,
    BROADPHASE_MAX_OCCUPANCY,
)

scenes = bench_scenes()

#: What the benchmark measured to be fastest (within 1.3x) for each scene kind.
EXPECTED = {"uniform": True, "walls": True, "boxes": True, "clustered": True, "far": True,
            "mixed_sizes": True, "moving": True, "kinds": True}
#: The exceptions by collider count: a cluster of fewer than
#: BROADPHASE_CLUSTER_GRID_MIN_COLLIDERS takes the BVH.
EXPECTED_AT = {("clustered", 1_000): False}


def _finite_positive(c: BroadphaseChoice) -> None:
    assert isinstance(c, BroadphaseChoice)
    assert math.isfinite(c.cell) and c.cell > 0.0, c
    assert isinstance(c.reason, str) and c.reason


@pytest.mark.parametrize("n", [1_000, 10_000])
@pytest.mark.parametrize("kind", scenes.KINDS)
def test_choice_per_scene_kind(kind: str, n: int) -> None:
    """The static colliders of each benchmark scene: a grid everywhere (the cluster's a coarser
    one, or the BVH for fewer than BROADPHASE_CLUSTER_GRID_MIN_COLLIDERS)."""
    scene = scenes.make_scene(kind, n)
    static = ~scene.moving
    thin = np.isin(scene.kind, (scenes.KIND_SEGMENT, scenes.KIND_CAPSULE2))[static]
    c = choose_broadphase(scene.lo[static], scene.hi[static], 2, thin=thin)
    _finite_positive(c)
    assert c.use_grid is EXPECTED_AT.get((kind, n), EXPECTED[kind]), c.reason


def test_lattice_cell_is_the_closed_form_and_occupancy_one() -> None:
    """k unit boxes on a regular lattice: cells for 0.125 colliders a cell over the bounds, one
    collider a probe cell at most (occupancy exactly 1)."""
    side = 16
    ij = np.stack(np.meshgrid(np.arange(side), np.arange(side)), axis=-1).reshape(-1, 2)
    lo = ij * 10.0
    hi = lo + 1.0
    k = side * side
    c = choose_broadphase(lo, hi, 2)
    width = 10.0 * (side - 1) + 1.0
    assert c.use_grid
    assert c.cell == pytest.approx(math.sqrt(width * width / (8.0 * k)), rel=1e-12)
    plan = plan_grid(lo, hi)
    assert plan.occupancy == 1.0
    assert plan.entries >= k


def test_few_colliders_take_the_bvh() -> None:
    rng = np.random.default_rng(1)
    for k in (1, 2, BROADPHASE_GRID_MIN_COLLIDERS - 1):
        lo = rng.uniform(0.0, 100.0, (k, 2))
        c = choose_broadphase(lo, lo + 1.0, 2)
        _finite_positive(c)
        assert not c.use_grid
    lo = rng.uniform(0.0, 100.0, (BROADPHASE_GRID_MIN_COLLIDERS, 2))
    assert choose_broadphase(lo, lo + 1.0, 2).use_grid


def test_no_colliders() -> None:
    for lo in (np.zeros((0, 2)), [], np.zeros(0)):
        c = choose_broadphase(lo, np.zeros((0, 2)), 2)
        _finite_positive(c)
        assert not c.use_grid


def test_one_collider_and_one_point() -> None:
    for box in (([3.0, 4.0], [5.0, 9.0]), ([3.0, 4.0], [3.0, 4.0]), ([0.0, 0.0], [0.0, 0.0])):
        c = choose_broadphase([box[0]], [box[1]], 2)
        _finite_positive(c)
        assert not c.use_grid


def test_all_points_spread_take_a_grid() -> None:
    """Zero-size boxes (points) spread evenly are small colliders, one to a few a cell."""
    rng = np.random.default_rng(2)
    p = rng.uniform(0.0, 1000.0, (500, 2))
    c = choose_broadphase(p, p, 2)
    _finite_positive(c)
    assert c.use_grid


@pytest.mark.parametrize("where", [0.0, 1e6, -1e50])
def test_all_identical_boxes_and_points_take_the_bvh(where: float) -> None:
    """Nothing separates identical colliders: every cell or leaf would hold all of them."""
    for size in (0.0, 5.0):
        lo = np.full((200, 2), where)
        c = choose_broadphase(lo, lo + size, 2)
        _finite_positive(c)
        assert not c.use_grid
        assert "identical" in c.reason


def test_a_dense_cluster_takes_the_bvh_and_its_occupancy_is_above_the_threshold() -> None:
    """199 tiny boxes in one spot and one far away: a grid over the bounds puts them all in one
    cell (an occupancy above even the clusters' threshold)."""
    rng = np.random.default_rng(3)
    lo = np.vstack([rng.uniform(0.0, 1.0, (199, 2)), [[1000.0, 1000.0]]])
    c = choose_broadphase(lo, lo + 0.01, 2)
    _finite_positive(c)
    assert not c.use_grid
    assert plan_grid(lo, lo + 0.01).occupancy > BROADPHASE_MAX_CLUSTER_OCCUPANCY


@pytest.mark.parametrize("n", [1_000, 2_000, 3_000])
def test_a_small_cluster_takes_the_bvh(n: int) -> None:
    """The benchmark's cluster of fewer than BROADPHASE_CLUSTER_GRID_MIN_COLLIDERS colliders
    takes the BVH, whose walk (no reference counts a node since the ray round) beat the coarse
    grid there (by 1.1x to 1.3x since the grid splits its crowded cells)."""
    scene = scenes.make_scene("clustered", n)
    thin = np.isin(scene.kind, (scenes.KIND_SEGMENT, scenes.KIND_CAPSULE2))
    plan = plan_grid(scene.lo, scene.hi, thin=thin)
    assert BROADPHASE_MAX_OCCUPANCY < plan.occupancy <= BROADPHASE_MAX_CLUSTER_OCCUPANCY
    c = choose_broadphase(scene.lo, scene.hi, 2, thin=thin)
    assert not c.use_grid and "clustered" in c.reason, c.reason
    assert c.cell == plan.cell


@pytest.mark.parametrize("n", [BROADPHASE_CLUSTER_GRID_MIN_COLLIDERS, 10_000])
def test_a_cluster_takes_a_coarser_grid(n: int) -> None:
    """The benchmark's cluster (99% of the colliders in 1% of the area) of
    BROADPHASE_CLUSTER_GRID_MIN_COLLIDERS or more takes a grid sized for
    BROADPHASE_CLUSTER_COLLIDERS_PER_CELL colliders a cell, not the BVH (issue 11: its BVH
    made the World's rays 1.7x the plain structures'; the coarse grid matches the plain
    grid's best)."""
    scene = scenes.make_scene("clustered", n)
    thin = np.isin(scene.kind, (scenes.KIND_SEGMENT, scenes.KIND_CAPSULE2))
    plan = plan_grid(scene.lo, scene.hi, thin=thin)
    assert BROADPHASE_MAX_OCCUPANCY < plan.occupancy <= BROADPHASE_MAX_CLUSTER_OCCUPANCY
    c = choose_broadphase(scene.lo, scene.hi, 2, thin=thin)
    assert c.use_grid and "clustered" in c.reason, c.reason
    coarse = plan_grid(scene.lo, scene.hi, thin=thin,
                       per_cell=BROADPHASE_CLUSTER_COLLIDERS_PER_CELL)
    assert c.cell == coarse.cell > plan.cell


def test_huge_coordinates_give_a_finite_cell_without_overflow() -> None:
    rng = np.random.default_rng(4)
    with np.errstate(all="raise"):
        for scale in (1e-6, 1e7, 1e50):
            lo = rng.uniform(-scale, scale, (300, 2))
            c = choose_broadphase(lo, lo + scale * 1e-3, 2)
            _finite_positive(c)
            assert c.use_grid
            assert c.cell == pytest.approx(
                math.sqrt(float(np.prod(lo.max(0) + scale * 1e-3 - lo.min(0))) / 2400.0),
                rel=1e-12)


def test_coordinates_past_the_range_still_give_a_finite_cell() -> None:
    """Boxes spread over 1e200 (past MAX_COORDINATE): the cells' area would overflow to inf;
    the cell is still finite."""
    rng = np.random.default_rng(7)
    lo = rng.uniform(-1e200, 1e200, (300, 2))
    c = choose_broadphase(lo, lo + 1e197, 2)
    _finite_positive(c)


def test_zero_width_scene_takes_a_one_column_grid() -> None:
    """Every box on the line x = 5 (zero width): the cells are sized by the height."""
    y = np.linspace(0.0, 999.0, 300)
    lo = np.stack([np.full(300, 5.0), y], axis=1)
    hi = lo + [0.0, 1.0]
    c = choose_broadphase(lo, hi, 2)
    _finite_positive(c)
    assert c.use_grid
    assert c.cell == pytest.approx(1000.0 / 2400.0, rel=1e-12)
    plan = plan_grid(lo, hi)
    assert plan.cells[0] == 1
    # and the zero-height scene, the same turned
    c2 = choose_broadphase(lo[:, ::-1], hi[:, ::-1], 2)
    assert c2.use_grid and c2.cell == c.cell


def test_long_solid_colliders_coarsen_the_cells_to_the_entries_bound() -> None:
    """Boxes as large as the world would each cover every cell: the cells double until the
    entries fit BROADPHASE_MAX_ENTRIES_PER_COLLIDER a collider."""
    rng = np.random.default_rng(5)
    lo = rng.uniform(0.0, 10.0, (2000, 2))
    hi = lo + 990.0
    plan = plan_grid(lo, hi)
    points = plan_grid(lo, lo)  # the same count of points: the count-based cell
    assert plan.entries <= BROADPHASE_MAX_ENTRIES_PER_COLLIDER * 2000
    assert plan.cell >= 2.0 * points.cell
    # as diagonals (thin), they cross cells instead of covering them: fewer doublings
    thin = plan_grid(lo, hi, thin=np.ones(2000, np.bool_))
    assert points.cell <= thin.cell < plan.cell
    assert thin.entries <= BROADPHASE_MAX_ENTRIES_PER_COLLIDER * 2000


def test_3d_takes_the_bvh() -> None:
    rng = np.random.default_rng(6)
    lo = rng.uniform(0.0, 100.0, (1000, 3))
    c = choose_broadphase(lo, lo + 1.0, 3)
    _finite_positive(c)
    assert not c.use_grid


@pytest.mark.parametrize("args, name", [
    (([[np.nan, 0.0]] * 64, [[1.0, 1.0]] * 64, 2), "lo"),
    (([[0.0, 0.0]] * 64, [[np.inf, 1.0]] * 64, 2), "hi"),
    (([[0.0, 0.0]] * 64, [[1.0, 1.0]] * 63, 2), "hi"),
    (([[1.0, 0.0]] * 64, [[0.0, 1.0]] * 64, 2), "hi"),
    (([[0.0, 0.0, 0.0]] * 64, [[1.0, 1.0, 1.0]] * 64, 2), "lo"),
    (([[0.0, 0.0]] * 64, [[1.0, 1.0]] * 64, 4), "dim"),
    (([[0.0, 0.0]] * 64, [[1.0, 1.0]] * 64, True), "dim"),
    (([[0.0, 0.0]] * 64, [[1.0, 1.0]] * 64, 2.0), "dim"),
])
def test_bad_input_names_the_argument(args: tuple[Any, ...], name: str) -> None:
    with pytest.raises(ValueError, match=name):
        choose_broadphase(*args)


def test_bad_thin_and_strings() -> None:
    lo = np.zeros((64, 2))
    with pytest.raises(ValueError, match="thin"):
        choose_broadphase(lo, lo + 1.0, 2, thin=np.ones(3, np.bool_))
    with pytest.raises(TypeError, match="lo"):
        choose_broadphase("boxes", lo, 2)


boxes = st.integers(0, 300).flatmap(lambda k: st.tuples(
    st.just(k), st.integers(0, 2**32 - 1), st.sampled_from([1e-6, 1.0, 1e3, 1e7, 1e40]),
    st.floats(0.0, 0.5), st.floats(0.0, 1.0)))


@given(boxes)
def test_any_scene_gives_a_sane_choice(spec: tuple[int, int, float, float, float]) -> None:
    """Random scenes of 0 to 300 boxes at scales 1e-6 to 1e40, partly clustered: a finite
    positive cell, a grid of at most 24k + 1 cells within the entries bound, and the same
    decision, the cell scaled, when the scene is scaled by 4 (exact in binary)."""
    k, seed, scale, cluster, size = spec
    rng = np.random.default_rng(seed)
    lo = rng.uniform(-scale, scale, (k, 2))
    lo[: int(cluster * k)] *= 1e-3  # part of the scene clustered near the origin
    hi = lo + rng.uniform(0.0, size, (k, 2)) * scale * 0.1
    with np.errstate(all="raise"):
        c = choose_broadphase(lo, hi, 2)
        scaled = choose_broadphase(lo * 4.0, hi * 4.0, 2)
    _finite_positive(c)
    if k < BROADPHASE_GRID_MIN_COLLIDERS:
        assert not c.use_grid
    if c.use_grid:
        clustered = plan_grid(lo, hi).occupancy > BROADPHASE_MAX_OCCUPANCY
        plan = plan_grid(lo, hi, per_cell=BROADPHASE_CLUSTER_COLLIDERS_PER_CELL
                         if clustered else BROADPHASE_COLLIDERS_PER_CELL)
        assert plan.cell == c.cell
        assert plan.cells[0] * plan.cells[1] <= 24 * k + 1
        assert plan.entries <= BROADPHASE_MAX_ENTRIES_PER_COLLIDER * k
    assert scaled.use_grid == c.use_grid
    if k > 0:
        assert scaled.cell == 4.0 * c.cell
