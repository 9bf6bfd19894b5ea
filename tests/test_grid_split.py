"""The ray grid's crowded cells split into sub-grids (``swept._kernels.grid.subdivide``).

A cell holding at least ``GRID_SUB_CROWDED`` entries gets a sub-grid over its square, which a
ray entering the cell walks instead of testing every entry: these tests guard that the split
lists every collider in exactly the sub-cells the grid's own binning gives it, that the walk
through sub-grids finds exactly what brute force finds (random rays, rays through segment ends
and box corners, rays along sub-cell lines, at scales 1e-6 to 1e6), and that splitting changes
no answer, bit for bit.
"""

from __future__ import annotations

import math
from typing import Any

import numpy as np
import pytest

import swept.world as world_module
from shared import rays_equal_brute_force
from swept import AABB, Capsule, Circle, Polygon, Segment
from swept._kernels import grid as _grid
from swept._kernels import scene as _scene
from swept.broadphase import BroadphaseChoice
from swept.constants import GRID_SUB_CROWDED, GRID_SUB_MAX_SIDE
from swept.world import World

#: The forced grid's cell (world units at scale 1): the cluster's 40 x 40 square is a few cells.
CELL = 16.0


def _shapes(seed: int, scale: float) -> list[Any]:
    """A cluster of every 2D kind (about 260 colliders in a 40 x 40 square) among a few long
    segments over a 400 x 400 world, all times ``scale``."""
    rng = np.random.default_rng(seed)
    out: list[Any] = []
    for a in rng.uniform(0, 400, (12, 2)):
        out.append(Segment(a * scale, (a + rng.uniform(-120, 120, 2)) * scale))
    for _ in range(160):
        a = rng.uniform(180, 220, 2)
        d = rng.uniform(-4, 4, 2)
        if rng.random() < 0.15:
            d[int(rng.integers(0, 2))] = 0.0  # axis-parallel: along sub-cell lines
        out.append(Segment(a * scale, (a + d + 0.01) * scale))
    for p in rng.uniform(180, 220, (25, 2)):
        out.append(AABB(p * scale, (p + rng.uniform(0.2, 3, 2)) * scale))
    for p in rng.uniform(180, 220, (25, 2)):
        out.append(Circle(p * scale, float(rng.uniform(0.1, 2)) * scale))
    for p in rng.uniform(180, 220, (20, 2)):
        out.append(Polygon.box(*(rng.uniform(0.3, 2, 2) * scale)).placed(p * scale,
                                                                         float(rng.uniform(0, 3))))
    for a in rng.uniform(180, 220, (20, 2)):
        out.append(Capsule(a * scale, (a + rng.uniform(-3, 3, 2)) * scale,
                           float(rng.uniform(0.1, 1)) * scale))
    return out


def _grid_world(shapes: list[Any], scale: float, monkeypatch: pytest.MonkeyPatch,
                crowded: int = GRID_SUB_CROWDED) -> World:
    """A World over ``shapes`` forced onto a grid of cell CELL * scale (crowded cells split
    from ``crowded`` entries), built now."""
    monkeypatch.setattr(world_module, "choose_broadphase",
                        lambda lo, hi, dim, thin=None: BroadphaseChoice(True, CELL * scale,
                                                                        "test: a grid"))
    monkeypatch.setattr(world_module, "GRID_SUB_CROWDED", crowded)
    w = World()
    for s in shapes:
        w.add(s)
    w._sync()
    monkeypatch.undo()
    return w


def _split_cells(w: World) -> int:
    """How many cells of the World's grid the rays walk as sub-grids (read from the packed
    scene: white box)."""
    links = w._sync().links
    m = int(links[_scene.H_GRID_NX] * links[_scene.H_GRID_NY])
    # (the starts and entries are int32 values: grid.grid_block)
    grid = links.view(np.int32)
    start = grid[links[_scene.H_GRID_CELLS]:links[_scene.H_GRID_CELLS] + m + 1]
    items = grid[links[_scene.H_GRID_ITEMS]:]
    one = np.flatnonzero(np.diff(start) == 1)
    return int(np.sum(items[start[one]] < 0))


def test_split_lists_every_collider_in_exactly_its_sub_cells(monkeypatch: pytest.MonkeyPatch
                                                             ) -> None:
    # each split cell's block: its side, starts from 0, and each sub-cell listing (in
    # increasing order) exactly the cell's colliders whose sub-grid binning includes it;
    # uncrowded cells keep their entries
    w = _grid_world(_shapes(1, 1.0), 1.0, monkeypatch)
    frame, dims, start, items, _rows, handles = w._grid
    _f, _d, s2, i2, _r, _h = w._split_grid()
    nx, ny = int(dims[0]), int(dims[1])
    x0, y0, cell = float(frame[0]), float(frame[1]), float(frame[2])
    split = 0
    for c in range(nx * ny):
        mine = items[start[c]:start[c + 1]]
        if len(mine) < GRID_SUB_CROWDED:
            assert np.array_equal(i2[s2[c]:s2[c + 1]], mine)
            continue
        assert s2[c + 1] - s2[c] == 1 and i2[s2[c]] < 0
        split += 1
        at = -1 - int(i2[s2[c]])
        side = int(i2[at])
        assert 2 <= side <= GRID_SUB_MAX_SIDE
        sub_start = i2[at + 1:at + 2 + side * side]
        entries = i2[at + 2 + side * side:]
        assert sub_start[0] == 0 and np.all(np.diff(sub_start) >= 0)
        expected: list[list[int]] = [[] for _ in range(side * side)]
        for k in mine:
            # the grid's own binning, on the sub-grid, of this collider alone
            one, _one, _n = _grid.bin_colliders(
                w._rows, w._tags, handles[k:k + 1], x0 + (c % nx) * cell,
                y0 + (c // nx) * cell, cell / side, side, side, 1_000_000)
            for q in np.flatnonzero(np.diff(one)):
                expected[int(q)].append(int(k))
        got = [[int(k) for k in entries[sub_start[q]:sub_start[q + 1]]]
               for q in range(side * side)]
        assert got == expected
    assert split > 0


def test_split_stops_at_the_entry_limit(monkeypatch: pytest.MonkeyPatch) -> None:
    # a limit no split fits under leaves the grid as it was
    w = _grid_world(_shapes(2, 1.0), 1.0, monkeypatch)
    frame, dims, start, items, _rows, handles = w._grid
    args = (w._rows, w._tags, handles, start, items,
            (float(frame[0]), float(frame[1]), float(frame[2]), int(dims[0]), int(dims[1])),
            GRID_SUB_CROWDED, 2.0, GRID_SUB_MAX_SIDE)
    s2, i2 = _grid.subdivide(*args, int(items.shape[0]))
    assert np.array_equal(s2, start) and np.array_equal(i2, items)
    s3, i3 = _grid.subdivide(*args, 10**9)
    assert i3.shape[0] > items.shape[0]


@pytest.mark.parametrize("scale", [1e-6, 1.0, 1e6])
def test_rays_through_split_cells_equal_brute_force(scale: float,
                                                    monkeypatch: pytest.MonkeyPatch) -> None:
    shapes = _shapes(3, scale)
    w = _grid_world(shapes, scale, monkeypatch)
    assert _split_cells(w) > 0
    rng = np.random.default_rng(4)
    n = 60
    # from anywhere, toward the cluster; and from inside it
    origins = np.vstack([rng.uniform(0, 400, (n // 2, 2)), rng.uniform(180, 220, (n // 2, 2))])
    aim = rng.uniform(175, 225, (n, 2))
    v = aim - origins
    v[np.hypot(v[:, 0], v[:, 1]) == 0.0] = (1.0, 0.0)
    directions = v / np.hypot(v[:, 0], v[:, 1])[:, None]
    md = np.where(rng.random(n) < 0.3, rng.uniform(0, 60, n), math.inf) * scale
    rays_equal_brute_force(shapes, w, origins * scale, directions, md, unit=scale)


def test_rays_through_ends_corners_and_sub_cell_lines_equal_brute_force(
        monkeypatch: pytest.MonkeyPatch) -> None:
    # aimed exactly at segment ends and box corners (grazing hits), and axis-parallel rays
    # along sub-cell lines and through sub-cell corners
    shapes = _shapes(5, 1.0)
    w = _grid_world(shapes, 1.0, monkeypatch)
    assert _split_cells(w) > 0
    rng = np.random.default_rng(6)
    corners = []
    for s in shapes:
        if isinstance(s, Segment):
            corners += [tuple(s.a), tuple(s.b)]
        elif isinstance(s, AABB):
            corners += [tuple(s.min), tuple(s.max)]
    pick = np.array(corners)[rng.integers(0, len(corners), 50)]
    origins = pick + rng.uniform(-30, 30, (50, 2))
    v = pick - origins
    directions = v / np.hypot(v[:, 0], v[:, 1])[:, None]
    md = np.hypot(v[:, 0], v[:, 1]) * rng.choice([1.0, math.inf], 50)
    rays_equal_brute_force(shapes, w, origins, directions, md)
    frame = w._grid[0]
    x0, y0, cell = float(frame[0]), float(frame[1]), float(frame[2])
    lines = []
    for k in range(8, 18):
        for sub in (0.0, 0.25, 0.5, 0.125):
            lines.append(x0 + (k + sub) * cell)
    lines_a = np.array(lines)
    m = lines_a.shape[0]
    o1 = np.column_stack([lines_a, np.full(m, y0 - 5.0)])
    o2 = np.column_stack([np.full(m, x0 - 5.0), lines_a - x0 + y0])
    o3 = np.column_stack([lines_a, lines_a - x0 + y0])  # sub-cell corners, diagonally
    origins = np.vstack([o1, o2, o3])
    directions = np.vstack([np.tile([0.0, 1.0], (m, 1)), np.tile([1.0, 0.0], (m, 1)),
                            np.tile([math.sqrt(0.5), math.sqrt(0.5)], (m, 1))])
    rays_equal_brute_force(shapes, w, origins, directions, np.full(3 * m, math.inf))


def test_splitting_changes_no_answer(monkeypatch: pytest.MonkeyPatch) -> None:
    # the same grid split and unsplit: the same hits, bit for bit
    shapes = _shapes(7, 1.0)
    split = _grid_world(shapes, 1.0, monkeypatch)
    whole = _grid_world(shapes, 1.0, monkeypatch, crowded=10**9)
    assert _split_cells(split) > 0 and _split_cells(whole) == 0
    rng = np.random.default_rng(8)
    origins = rng.uniform(150, 250, (2000, 2))
    directions = rng.normal(size=(2000, 2))
    a = split.raycast_many(origins, directions)
    b = whole.raycast_many(origins, directions)
    assert a.hit.mean() > 0.5
    for field in ("hit", "distance", "point", "normal", "handle"):
        assert np.array_equal(getattr(a, field), getattr(b, field)), field
