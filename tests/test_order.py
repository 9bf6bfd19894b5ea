"""swept._kernels.order.stable_order, the radix sort that replaced numba's library sorts in
the kernels that sort integers, checked through its two callers against numpy's stable sort.

stable_order is a callee (only compiled code calls it): the body-pair grid's sparse path
(``sim.pair_grid``, once ``np.argsort(keys, kind="mergesort")``) and the tile map's candidate
ids (``tilemap.swept_ids``, once ``np.unique``; tests/test_tilemap_queries.py).
"""

from __future__ import annotations

import numpy as np
from hypothesis import example, given, settings
from hypothesis import strategies as st

from swept._kernels.sim import DENSE_GRID_FACTOR, DENSE_GRID_MINIMUM, pair_grid


def _grid(pos: np.ndarray, radius: np.ndarray, dim: int
          ) -> tuple[np.ndarray, np.ndarray, np.ndarray, np.ndarray, int, int]:
    """pair_grid's cells, sorted keys, cell starts and order, and each body's key."""
    cells, sorted_keys, cell_start, order, sx, sy, _dim = pair_grid(pos, radius, dim)
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
