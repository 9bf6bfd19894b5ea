"""Each ray grid entry carries its row's code, so the walk's kind dispatch waits on the entry alone.

The packed grid's entries (:func:`swept._kernels.grid.coded_entries`) are ``e << ROW_CODE_BITS |
code``: the gridded collider's row index and the code its row's column 2 also holds
(:func:`swept._kernels.grid.row_tag`), read back by :func:`swept._kernels.grid.entry_of`, while a
crowded cell's ``-1 - b`` and its sub-grid's side and starts stay as they are. These tests guard
the encoding on a hand-made grid with a sub-grid block (exact values), the bound it relies on,
and that a packed World of every gridded kind holds every entry, sub-cells' too, with its own
row's code.
"""

from __future__ import annotations

import numpy as np
import pytest

import swept.world as world_module
from swept import Circle
from swept._kernels import grid as _grid
from swept._kernels import scene as _scene
from swept.broadphase import BroadphaseChoice
from test_grid_row_tags import _kinds_world


def _rows(codes: list[int]) -> np.ndarray:
    """Grid collider rows whose column 2 holds ``code + (handle << ROW_CODE_BITS)`` (handle 10
    + the row's index)."""
    rows = np.zeros((len(codes), 6))
    for j, code in enumerate(codes):
        rows[j, 2] = code + ((10 + j) << _grid.ROW_CODE_BITS)
    return rows


def test_coded_entries_tag_cell_and_sub_cell_entries_and_nothing_else() -> None:
    # two cells: cell 0 lists rows 0 and 2, cell 1 is split (entry -1 - 3: its block at
    # items[3]): side 2, sub-cell starts 0 1 1 3 3, entries 1 / - / 0 2 / -
    start = np.array([0, 2, 3], np.int64)
    items = np.array([0, 2, -4, 2, 0, 1, 1, 3, 3, 1, 0, 2], np.int64)
    rows = _rows([_grid.ROW_SEGMENT, _grid.ROW_POLYGON, _grid.ROW_CIRCLE])
    coded = _grid.coded_entries(start, items, rows)
    seg, poly, circle = (0 << 3) | 1, (1 << 3) | 4, (2 << 3) | 3
    assert coded.tolist() == [seg, circle, -4, 2, 0, 1, 1, 3, 3, poly, seg, circle]
    assert items.tolist() == [0, 2, -4, 2, 0, 1, 1, 3, 3, 1, 0, 2]
    assert [_grid.entry_of(int(v)) for v in (seg, poly, circle)] == [(0, 1), (1, 4), (2, 3)]


def test_coded_entries_refuse_rows_past_the_int32_bound() -> None:
    rows = np.zeros(((_grid.CELL_START >> _grid.ROW_CODE_BITS) + 1, 1))
    with pytest.raises(ValueError, match="rows"):
        _grid.coded_entries(np.zeros(2, np.int64), np.zeros(0, np.int64), rows)


def test_a_packed_worlds_entries_carry_their_rows_codes(monkeypatch: pytest.MonkeyPatch
                                                        ) -> None:
    # (a grid of 8-unit cells forced: the scene is clustered, which the BVH would take)
    monkeypatch.setattr(world_module, "choose_broadphase",
                        lambda lo, hi, dim, thin=None: BroadphaseChoice(True, 8.0, "test: a grid"))
    # every gridded kind, 60 of each
    w = _kinds_world(5)
    rng = np.random.default_rng(5)
    # a crowd of small circles in one place: a split cell
    for p in rng.uniform(100.0, 101.0, (200, 2)):
        w.add(Circle(p, 0.01))
    w._sync()
    monkeypatch.undo()
    assert w._broadphase is not None and w._broadphase.use_grid
    _frame, _dims, start, items, rows, _handles = w._split_grid()
    links = w._sync().links
    first = int(links[_scene.H_GRID_ITEMS])
    view = links.view(np.int32)[first:first + items.shape[0]].astype(np.int64)
    assert view.tolist() == _grid.coded_entries(start, items, rows).tolist()
    # every entry decodes to its own row's index and code; the sub-grids' values unchanged
    listed = items >= 0
    tagged = listed.copy()
    blocks = -1 - items[:start[-1]][items[:start[-1]] < 0]
    assert blocks.shape[0] > 0
    for b in blocks.tolist():
        side = int(items[b])
        head = b + _grid.SUB_HEAD + side * side + 1
        tagged[b:head] = False
        tagged[head:head + int(items[head - 1])] = True
    codes = rows[:, 2].astype(np.int64) & 7
    assert (view[tagged] >> 3).tolist() == items[tagged].tolist()
    assert (view[tagged] & 7).tolist() == codes[items[tagged]].tolist()
    assert view[~tagged].tolist() == items[~tagged].tolist()
    assert sorted(set(codes[items[tagged]].tolist())) == [
        _grid.ROW_SEGMENT, _grid.ROW_BOX, _grid.ROW_CIRCLE, _grid.ROW_POLYGON, _grid.ROW_CAPSULE]
