"""The World's grid walk reads its cells without numba's overloaded ``min``, ``max`` and ``int``
(:mod:`swept._kernels.scalars`, inlined: the overloads stayed calls in ``cast_range``) and steps
over empty runs with the cell's start carried as an unsigned index
(:func:`swept._kernels.world._skip_empty`: no negative-index wraparound at each read).

These tests guard that neither changes an answer: the helpers give the builtins' very bits
(NaN, signed zeros and ties included), and the skip visits the cells the signed formula visits
and stops where it stops, in every direction of step, exactly.
"""

from __future__ import annotations

import math
import struct

import numpy as np
import pytest

from swept._kernels.grid import CELL_MOVING, walk_next
from swept._kernels.scalars import cell_at, greatest, least, truncated
from swept._kernels.world import _skip_empty

SPECIALS = (0.0, -0.0, 1.0, -1.0, 2.5, -2.5, 1e-300, -1e300, math.inf, -math.inf, math.nan)


def _bits(x: float) -> bytes:
    """A float's bytes (0.0 and -0.0 differ, every NaN is the same NaN here)."""
    return struct.pack("<d", x)


@pytest.mark.parametrize("a", SPECIALS)
@pytest.mark.parametrize("b", SPECIALS)
def test_least_and_greatest_are_min_and_max(a: float, b: float) -> None:
    """least / greatest give Python's min / max bits: the first argument on a tie or a NaN."""
    assert _bits(least(a, b)) == _bits(min(a, b))
    assert _bits(greatest(a, b)) == _bits(max(a, b))


@pytest.mark.parametrize("x", (0.0, -0.0, 0.5, -0.5, 1.0, -1.0, 7.999999999999999, -7.5,
                               2.0 ** 52 + 1.0, -(2.0 ** 62), 123456789.75))
def test_truncated_and_cell_at_are_int(x: float) -> None:
    """truncated is int() toward zero; cell_at clamps it to a row of cells as min(max(...))."""
    assert truncated(x) == int(x)
    for n in (1, 2, 7, 1000):
        assert cell_at(math.floor(x), n) == min(max(int(math.floor(x)), 0), n - 1)


def _skip_reference(grid: np.ndarray, cells: int, nx: int, ny: int, walk: tuple,
                    limit: float) -> tuple:
    """The skip by the general walk's own step (:func:`swept._kernels.grid.walk_next`), each
    cell's index worked out from its column and row (signed), in plain Python."""
    for _ in range(nx + ny + 2):
        c = cells + walk[0] + nx * walk[1]
        lo = int(grid[c])
        if lo != int(grid[c + 1]) or lo >= CELL_MOVING:
            return True, tuple(walk)
        if limit <= min(walk[4], walk[5]):
            break
        inside, walk = walk_next(walk, nx, ny)
        if not inside:
            break
    return False, tuple(walk)


def test_skip_matches_the_signed_walk_in_every_direction() -> None:
    """Random sparse grids (a few cells occupied, one marked moving) and walks stepping both
    ways on both axes, from every cell, with reaches that end inside and beyond the grid:
    the same (entered, walk) as the signed formula, exactly."""
    rng = np.random.default_rng(40)
    for nx, ny in ((1, 1), (1, 9), (9, 1), (7, 5), (16, 16)):
        cells = 3
        starts = np.zeros(cells + nx * ny + 1, np.int32)
        count = 0
        for c in range(nx * ny):
            starts[cells + c] = count
            count += int(rng.random() < 0.15)
        starts[cells + nx * ny] = count
        marked = cells + int(rng.integers(nx * ny))
        if starts[marked] == starts[marked + 1]:
            starts[marked] |= CELL_MOVING
        for _ in range(200):
            step_x, step_y = int(rng.choice((-1, 1))), int(rng.choice((-1, 1)))
            delta_x, delta_y = float(rng.uniform(0.1, 3.0)), float(rng.uniform(0.1, 3.0))
            walk = (int(rng.integers(nx)), int(rng.integers(ny)), step_x, step_y,
                    float(rng.uniform(0.0, delta_x)), float(rng.uniform(0.0, delta_y)),
                    delta_x, delta_y)
            limit = float(rng.choice((rng.uniform(0.0, 4.0), rng.uniform(0.0, 40.0), math.inf)))
            got = _skip_empty(starts, cells, nx, ny, walk, limit)
            want = _skip_reference(starts, cells, nx, ny, walk, limit)
            assert (bool(got[0]), tuple(got[1])) == want
