"""The grid walk's two single-comparison tests give the answers of the tests they replace.

The walk tells a segment entry's miss by one comparison of the least of ``t``, ``limit - t``,
``u`` and ``1 - u`` (:func:`swept._kernels.world._crossing_missed`), where LLVM had made a
branch of each of the four range tests, and a crowded cell (one entry, naming a sub-grid) by
one integer test (:func:`swept._kernels.world._names_sub_grid`), where an ``and`` made two
branches. These tests guard that neither changes a decision: on the range bounds exactly (t at
-0.0, 0 and ``limit``, u at 0 and 1, their neighbouring floats, infinities), on random values,
and through the World against brute force on crossings placed exactly on segment ends and at
the ray's reach.
"""

from __future__ import annotations

import math

import numpy as np
import pytest
from hypothesis import given
from hypothesis import strategies as st

from shared import rays_equal_brute_force
from swept import Segment
from swept._kernels.world import _crossing_missed, _names_sub_grid
from swept.world import World

LIMITS = (0.0, 5e-324, 1e-300, 0.5, 1.0, 1e12, math.inf)


def _values_around(x: float) -> list[float]:
    """``x`` and its neighbouring floats (for 0: the signed zeros and the smallest subnormals)."""
    if x == 0.0:
        return [-5e-324, -0.0, 0.0, 5e-324]
    return [math.nextafter(x, -math.inf), x, math.nextafter(x, math.inf)]


def _in_range(t: float, u: float, limit: float) -> bool:
    """The four range tests the single comparison stands for."""
    return t >= 0.0 and t <= limit and u >= 0.0 and u <= 1.0


@pytest.mark.parametrize("limit", LIMITS)
def test_crossing_missed_on_every_bound(limit: float) -> None:
    """t on and beside 0 and the reach, u on and beside 0 and 1, and far out either way:
    missed exactly when a range test fails."""
    ts = _values_around(0.0) + [-1e300, -math.inf, 0.25, 1e300, math.inf]
    if limit != 0.0:
        ts += _values_around(limit)
    us = _values_around(0.0) + _values_around(1.0) + [-math.inf, -2.0, 0.5, 2.0, math.inf]
    for t in ts:
        for u in us:
            assert _crossing_missed(t, u, limit) == (not _in_range(t, u, limit)), (t, u, limit)


def test_crossing_missed_leaves_an_infinite_reach_to_the_exact_tests() -> None:
    """t and the reach both infinite (``limit - t`` is NaN, which drops out of the least): a
    miss by u alone, as the four range tests tell it (``inf <= inf``)."""
    for u in (-1.0, 0.0, 0.5, 1.0, 2.0):
        assert _crossing_missed(math.inf, u, math.inf) == (not 0.0 <= u <= 1.0)


@given(st.floats(allow_nan=False, width=64), st.floats(allow_nan=False, width=64),
       st.floats(min_value=0.0, allow_nan=False, width=64))
def test_crossing_missed_on_any_values(t: float, u: float, limit: float) -> None:
    """Any finite or infinite t, u and reach: the four range tests' decision."""
    assert _crossing_missed(t, u, limit) == (not _in_range(t, u, limit))


@pytest.mark.parametrize("count", (0, 1, 2, 7))
@pytest.mark.parametrize("first", (-(2 ** 31), -2, -1, 0, 1, 2 ** 31 - 1))
def test_names_sub_grid_is_one_negative_entry(count: int, first: int) -> None:
    """A sub-grid's cell: exactly one entry, and it negative (any int32 value)."""
    assert _names_sub_grid(count, first) == (count == 1 and first < 0)


def test_world_crossings_on_segment_ends_and_at_the_reach() -> None:
    """A grid of short axis-aligned segments on integer coordinates (so every crossing's t and
    u are exact): rays along the grid lines through segment ends (u exactly 0 and 1), with
    reaches ending exactly at, just short of and past a crossing (t exactly the reach), and
    from points on segments (t 0): the World's answers are brute force's."""
    shapes = []
    for i in range(12):
        for j in range(12):
            shapes.append(Segment((4.0 * i, 4.0 * j + 1.0), (4.0 * i, 4.0 * j + 3.0)))
    world = World()
    for shape in shapes:
        world.add(shape)
    origins, directions, reaches = [], [], []
    for j in range(12):
        for y in (4.0 * j + 1.0, 4.0 * j + 3.0, 4.0 * j + 2.0):
            # along a row of segments' ends (u 0 or 1) or middles, from between two columns
            for reach in (2.0, math.nextafter(2.0, 0.0), math.nextafter(2.0, 3.0), math.inf):
                origins.append((2.0, y))
                directions.append((1.0, 0.0))
                reaches.append(reach)
                origins.append((6.0, y))
                directions.append((-1.0, 0.0))
                reaches.append(reach)
        # from a point on a segment (t 0)
        origins.append((4.0, 4.0 * j + 2.0))
        directions.append((1.0, 0.0))
        reaches.append(math.inf)
    rays_equal_brute_force(shapes, world, np.array(origins), np.array(directions),
                           np.array(reaches))
