"""The ray grid's build: one pass finds each collider's cells and the fill reads them back,
with a cap on the entries that coarsens the cells or, past any cell size, takes the BVH."""

from __future__ import annotations

import numpy as np
import pytest

import swept.world as world_module
from swept import AABB, Circle, Ray, Segment, World
from swept._kernels import grid as _grid
from swept._kernels import scene as _scene


def _mixed_world(seed: int) -> World:
    """Segments (some vertical and horizontal, some long), boxes and circles, in a grid."""
    rng = np.random.default_rng(seed)
    w = World()
    a = rng.uniform(0, 100, (300, 2))
    d = rng.uniform(-15, 15, (300, 2))
    d[:20, 0] = 0.0  # vertical
    d[20:40, 1] = 0.0  # horizontal
    d[40:45] *= 6.0  # long
    w.add_segments(np.hstack([a, a + d]))
    for p in rng.uniform(0, 100, (40, 2)):
        w.add(AABB(p, p + rng.uniform(0.5, 8, 2)))
        w.add(Circle(p + 3.0, float(rng.uniform(0.2, 4))))
    return w


def _cells_by_collider(w: World) -> list[list[int]]:
    """Every gridded collider's cells, found one collider at a time (a grid of it alone)."""
    frame, dims, _start, _items, _rows, handles = w._grid
    cells = []
    for k in range(handles.shape[0]):
        start, _one, n = _grid.bin_colliders(
            w._rows, w._tags, handles[k:k + 1], float(frame[0]), float(frame[1]),
            float(frame[2]), int(dims[0]), int(dims[1]), 1_000_000)
        cells.append([int(c) for c in np.flatnonzero(np.diff(start))])
        assert n == len(cells[-1])
    return cells


@pytest.mark.parametrize("seed", [1, 2, 3])
def test_csr_lists_every_collider_in_exactly_its_cells(seed: int) -> None:
    # the fill reads back the first pass's cells: each cell must list, in increasing order,
    # exactly the colliders whose own cells include it
    w = _mixed_world(seed)
    w.raycast(Ray((0, 0), (1, 1)))
    assert w._grid is not None, w._broadphase.reason
    _frame, dims, start, items, _rows, _handles = w._grid
    expected: list[list[int]] = [[] for _ in range(int(dims[0]) * int(dims[1]))]
    for k, cells in enumerate(_cells_by_collider(w)):
        for c in cells:
            expected[c].append(k)
    got = [[int(k) for k in items[start[c]:start[c + 1]]] for c in range(len(expected))]
    assert got == expected
    assert start[-1] == items.shape[0] == sum(len(c) for c in expected)


def test_binning_stops_past_the_limit() -> None:
    w = _mixed_world(4)
    w.raycast(Ray((0, 0), (1, 1)))
    frame, dims, start, items, _rows, handles = w._grid
    args = (w._rows, w._tags, handles, float(frame[0]), float(frame[1]), float(frame[2]),
            int(dims[0]), int(dims[1]))
    entries = items.shape[0]
    s2, i2, n2 = _grid.bin_colliders(*args, entries)
    # exactly at the limit: the whole grid
    assert n2 == entries and np.array_equal(s2, start) and np.array_equal(i2, items)
    # one under: empty arrays and a count above the limit
    s3, i3, n3 = _grid.bin_colliders(*args, entries - 1)
    assert n3 > entries - 1 and i3.shape[0] == 0 and s3.shape[0] == 1


def test_cap_coarsens_the_cells(monkeypatch: pytest.MonkeyPatch) -> None:
    # a cap under the entries of the chosen cell size doubles the cell until they fit
    w = _mixed_world(5)
    w.raycast(Ray((0, 0), (1, 1)))
    fine = float(w._grid[0][2])
    entries = int(w._grid[3].shape[0])
    monkeypatch.setattr(world_module, "GRID_MAX_ENTRIES", entries - 1)
    w2 = _mixed_world(5)
    hit = w2.raycast(Ray((0, 0), (1, 1)))
    assert w2._grid is not None
    assert float(w2._grid[0][2]) >= 2.0 * fine
    assert w2._grid[3].shape[0] <= entries - 1
    ref = w.raycast(Ray((0, 0), (1, 1)))
    assert (hit is None) == (ref is None)
    if ref is not None:
        assert hit.distance == ref.distance and hit.handle == ref.handle


def test_no_cell_size_fits_takes_the_bvh(monkeypatch: pytest.MonkeyPatch) -> None:
    # more colliders than the cap: even one cell holds too many entries, so the World takes
    # its BVH (and says why) instead of a grid of one cell; the rays' answers do not change
    rng = np.random.default_rng(6)
    origins = rng.uniform(-10, 110, (200, 2))
    directions = rng.normal(size=(200, 2))
    ref = _mixed_world(6).raycast_many(origins, directions)
    monkeypatch.setattr(world_module, "GRID_MAX_ENTRIES", 100)
    w = _mixed_world(6)
    got = w.raycast_many(origins, directions)
    assert w._grid is None
    assert not w._broadphase.use_grid and "BVH" in w._broadphase.reason
    assert np.array_equal(got.hit, ref.hit)
    assert np.array_equal(got.distance, ref.distance)
    assert np.array_equal(got.handle, ref.handle)
    assert got.hit.any()
    kinds = {int(k) for k in w._tags[:len(w), _scene.KIND]}
    assert _scene.KIND_SEGMENT in kinds and _scene.KIND_CIRCLE in kinds
    assert isinstance(w.shape(int(got.handle[got.hit][0])), (Segment, AABB, Circle))
