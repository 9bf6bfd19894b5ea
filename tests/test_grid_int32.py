"""The ray grid's cell starts and entries as int32 values in ``links``.

``links`` is int64, but the grid's CSR arrays go in as int32 values, two a slot
(:func:`swept._kernels.grid.grid_block`), and every walk reads them through the int32 view
(:func:`swept._kernels.grid.grid_of`, indexed by ``H_GRID_CELLS`` and ``H_GRID_ITEMS``): half the
bytes, so more of a large grid stays in cache. These tests guard the packing (every value back
exactly, an odd count padded), the bound it relies on (a start past ``CELL_MOVING`` is refused),
and that a packed World's view holds its grid's starts and entries exactly, the blocks after it
(the moving grid's) where the header says.
"""

from __future__ import annotations

import numpy as np
import pytest

from swept import AABB, Segment, World
from swept._kernels import grid as _grid
from swept._kernels import scene as _scene


@pytest.mark.parametrize("cells, entries", [(5, 4), (5, 5), (1, 0), (4, 0)])
def test_grid_block_packs_starts_then_entries_two_a_slot(cells: int, entries: int) -> None:
    start = np.arange(cells, dtype=np.int64) * 3
    items = np.array([-7, 0, 2**30, 12, 5][:entries], np.int64)
    block = _grid.grid_block(start, items)
    assert block.dtype == np.int64
    assert block.shape == ((cells + entries + 1) // 2,)
    values = block.view(np.int32)
    assert values[:cells].tolist() == start.tolist()
    assert values[cells:cells + entries].tolist() == items.tolist()
    assert values[cells + entries:].tolist() == [0] * ((cells + entries) % 2)


def test_grid_block_refuses_starts_that_reach_the_moving_bit() -> None:
    with pytest.raises(ValueError, match="entries"):
        _grid.grid_block(np.array([0, _grid.CELL_MOVING], np.int64), np.zeros(0, np.int64))


def test_a_packed_worlds_grid_view_holds_its_starts_and_entries() -> None:
    rng = np.random.default_rng(3)
    w = World()
    a = rng.uniform(0.0, 300.0, (700, 2))
    w.add_segments(np.hstack([a, a + rng.uniform(-5.0, 5.0, (700, 2))]))
    mover = w.add(AABB((10.0, 10.0), (12.0, 12.0)), moving=True)
    w.add(Segment((0.0, 0.0), (300.0, 300.0)))
    w.raycast_many(np.zeros((1, 2)), np.ones((1, 2)))
    assert w._broadphase is not None and w._broadphase.use_grid
    _frame, _dims, start, items, rows, _handles = w._split_grid()
    links = w._sync().links
    view = links.view(np.int32)
    cells = int(links[_scene.H_GRID_CELLS])
    first = int(links[_scene.H_GRID_ITEMS])
    assert first == cells + start.shape[0]
    # (the mover marks some starts: the bit masked off)
    assert (view[cells:first] & _grid.CELL_START).tolist() == start.tolist()
    # (each entry carries its row's code: grid.coded_entries)
    assert view[first:first + items.shape[0]].tolist() == _grid.coded_entries(start, items,
                                                                              rows).tolist()
    block = int(links[_scene.H_MOVING_GRID])
    assert 2 * block == first + items.shape[0] + (first + items.shape[0]) % 2
    assert links[block + _grid.MG_GRIDDED] == 1
    assert w.raycast_many(np.array([[5.0, 11.0]]), np.array([[1.0, 0.0]])).handle[0] == mover
