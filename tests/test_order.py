"""swept._kernels.order.stable_order, the radix sort that replaced numba's library sorts in
the kernels that sort integers, checked through its two callers against numpy's stable sort.

stable_order is a callee (only compiled code calls it): the body-pair grid's sparse path
(``sim.pair_grid``, once ``np.argsort(keys, kind="mergesort")``) and the tile map's candidate
ids (``tilemap.swept_ids``, once ``np.unique``; tests/test_tilemap_queries.py).

float_order, the merge sort of floats that replaced ``np.argsort(..., kind="mergesort")`` in
``bvh``'s median split, is checked against numpy's stable sort on the column views the
split passes it (one compiled wrapper, the split's own argument type).
"""

from __future__ import annotations

import numba
import numpy as np
from hypothesis import example, given, settings
from hypothesis import strategies as st

from swept._kernels import bvh
from swept._kernels.order import float_order
from swept._kernels.sim import DENSE_GRID_FACTOR, DENSE_GRID_MINIMUM, pair_grid


@numba.njit(cache=True)
def _float_order_of_column(table: np.ndarray, column: int) -> np.ndarray:
    """float_order of a column view of ``table``, as bvh's median split passes its keys."""
    return float_order(table[:, column])


def _grid(pos: np.ndarray, radius: np.ndarray, dim: int
          ) -> tuple[np.ndarray, np.ndarray, np.ndarray, np.ndarray, int, int]:
    """pair_grid's cells, sorted keys, cell starts and order, and each body's key."""
    cells, sorted_keys, cell_start, order, sx, sy, _dim, _pos, _radius = pair_grid(pos, radius,
                                                                                   dim)
    keys = (cells[:, 2] * sy + cells[:, 1]) * sx + cells[:, 0]
    return cells, sorted_keys, cell_start, order, keys, sx * sy


def _sparse_balls(rng: np.random.Generator, n: int, span: float, clumps: int, dim: int
                  ) -> np.ndarray:
    """``n`` unit balls' centres (n, 3): in ``clumps`` tight clumps (many bodies to a cell:
    equal keys) spread over ``span``, so the grid has far more cells than bodies."""
    centres = rng.uniform(-span, span, (clumps, 3))
    pos = centres[rng.integers(0, clumps, n)] + rng.uniform(-0.5, 0.5, (n, 3))
    if dim == 2:
        pos[:, 2] = 0.0
    return np.ascontiguousarray(pos)


@settings(max_examples=40, deadline=None)
@given(st.integers(1, 300), st.sampled_from([1e3, 1e6, 1e12, 1e40]), st.integers(1, 20),
       st.sampled_from([2, 3]), st.integers(0, 2 ** 32))
@example(1, 1e6, 1, 2, 0)
@example(300, 1e40, 1, 3, 5)
def test_the_sparse_pair_grid_orders_keys_as_numpys_stable_sort(
        n: int, span: float, clumps: int, dim: int, seed: int) -> None:
    """The sparse grid's order is np.argsort(keys, kind="stable") exactly (equal keys by body
    index), for keys of a few bits to 60 (the radix sort's passes stop at the largest key's
    bits), with every body in one cell or spread out."""
    rng = np.random.default_rng(seed)
    pos = _sparse_balls(rng, n, span, clumps, dim)
    radius = np.ones(n)
    cells, sorted_keys, cell_start, order, keys, _area = _grid(pos, radius, dim)
    span_keys = int(keys.max()) + 1
    if span_keys > DENSE_GRID_FACTOR * n + DENSE_GRID_MINIMUM:
        assert cell_start.shape == (0,)
    assert order.tolist() == np.argsort(keys, kind="stable").tolist()
    assert sorted_keys.tolist() == keys[order].tolist()


def test_keys_that_need_all_sixty_bits_and_one_body() -> None:
    """Two bodies at opposite ends of the coordinate range make the widest key span the grid
    allows (up to 2**60): the radix sort runs its most passes; a lone body needs none."""
    pos = np.array([[1e300, 1e300, 0.0], [-1e300, -1e300, 0.0], [1e300, 1e300, 0.0]])
    radius = np.ones(3)
    _cells, sorted_keys, cell_start, order, keys, _area = _grid(pos, radius, 2)
    assert cell_start.shape == (0,)
    assert int(keys.max()) > 2 ** 32
    assert order.tolist() == [1, 0, 2]
    assert sorted_keys.tolist() == sorted(keys.tolist())
    one = np.array([[5.0, 5.0, 0.0]])
    assert _grid(one, np.ones(1), 2)[3].tolist() == [0]


def test_the_dense_path_orders_by_the_same_rule() -> None:
    """The dense grid (a counting sort, untouched) orders by the same rule as the sparse one:
    keys ascending, equal keys by body index."""
    rng = np.random.default_rng(7)
    pos = np.ascontiguousarray(rng.uniform(0, 30, (200, 3)))
    pos[:, 2] = 0.0
    radius = np.ones(200)
    dense = _grid(pos, radius, 2)
    assert dense[2].shape[0] > 0
    assert dense[3].tolist() == np.argsort(dense[4], kind="stable").tolist()


@settings(max_examples=60, deadline=None)
@given(st.integers(0, 200), st.sampled_from(["normal", "ties", "specials"]),
       st.integers(0, 2 ** 32))
@example(0, "normal", 0)
@example(1, "specials", 0)
def test_float_order_is_numpys_stable_argsort(n: int, keys: str, seed: int) -> None:
    """A stable sort has one answer (equal keys by index): float_order's order is
    np.argsort(kind="stable") exactly, with ties, -0.0 beside 0.0 (equal, kept by index),
    infinities and NaN (last, by index)."""
    rng = np.random.default_rng(seed)
    if keys == "normal":
        column = rng.normal(size=n)
    elif keys == "ties":
        column = rng.integers(-3, 3, n).astype(float)
    else:
        column = rng.choice(np.array([0.0, -0.0, np.nan, np.inf, -np.inf, 1.0, -1.0]), n)
    table = np.ascontiguousarray(rng.normal(size=(n, 3)))
    table[:, 1] = column
    order = _float_order_of_column(table, 1)
    assert order.tolist() == np.argsort(column, kind="stable").tolist()


def test_the_median_split_sorts_coincident_and_spread_centroids() -> None:
    """The median split's float sort (through bvh's build): boxes whose centroids tie in runs
    along the split axis keep their index order, so the leaves' items read as numpy's stable
    sort of the centroids orders them."""
    rng = np.random.default_rng(3)
    c = np.round(rng.normal(size=(64, 2)), 1)
    c[:, 1] *= 0.01  # the x axis spreads most: every split sorts along it
    nodes, links = bvh.build_with(c - 0.05, c + 0.05, bvh.SPLIT_MEDIAN)
    items = links[3 * nodes.shape[0]:]
    # the first split's halves: the 32 smallest x (ties by index) on the left
    left = set(items[:32].tolist())
    assert left == set(np.argsort(c[:, 0], kind="stable")[:32].tolist())
