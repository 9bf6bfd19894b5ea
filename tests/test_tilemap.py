"""Tile maps (issue 13): the outline of the solid tiles, rays and closest points.

The outline is checked against the grid itself (every point's winding number about the loops
is 1 on a solid tile and 0 on an empty one, and the outline's length is the count of solid /
empty tile sides), rays against brute force over each solid tile as a box, and the merged
outline against internal edges (a ray along or onto a flat row of tiles sees one face).
"""

from __future__ import annotations

import math
import pickle

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from swept import AABB, Ray, TileMap, closest_point, raycast
from swept.level import MAX_TILES

grids = st.integers(1, 7).flatmap(
    lambda rows: st.integers(1, 7).flatmap(
        lambda cols: st.lists(st.booleans(), min_size=rows * cols, max_size=rows * cols).map(
            lambda cells: np.array(cells, bool).reshape(rows, cols))))


def _winding(loops: tuple, x: float, y: float) -> int:
    """The winding number of the loops about (x, y) (y up orientation: counter-clockwise
    counts +1), by crossings of a ray toward +x."""
    w = 0
    for loop in loops:
        n = len(loop)
        for i in range(n):
            (ax, ay), (bx, by) = loop[i], loop[(i + 1) % n]
            if (ay <= y) != (by <= y):
                t = (y - ay) / (by - ay)
                if ax + t * (bx - ax) > x:
                    w += 1 if by > ay else -1
    return w


def _perimeter(solid: np.ndarray) -> int:
    """Tile sides between a solid tile and an empty one or the map's edge."""
    pad = np.pad(solid, 1)
    return int((pad[1:, :] != pad[:-1, :]).sum() + (pad[:, 1:] != pad[:, :-1]).sum())


@settings(max_examples=150, deadline=None)
@given(grids, st.floats(0.5, 3.0), st.floats(-50, 50), st.floats(-50, 50))
def test_the_outline_bounds_exactly_the_solid_tiles(solid: np.ndarray, size: float,
                                                     ox: float, oy: float) -> None:
    tiles = TileMap(solid, size, (ox, oy))
    loops = tiles.outlines()
    rows, cols = solid.shape
    for r in range(rows):
        for c in range(cols):
            # the tile's centre: winding 1 when solid (solid on the left, y up), 0 when empty
            x, y = ox + (c + 0.5) * size, oy + (r + 0.5) * size
            assert _winding(loops, x, y) == int(solid[r, c])
            assert tiles.contains((x, y)) == bool(solid[r, c])
    length = sum(math.dist(loop[i], loop[(i + 1) % len(loop)]) for loop in loops
                 for i in range(len(loop)))
    assert length == pytest.approx(_perimeter(solid) * size, rel=1e-12)
    # straight runs are merged: every kept corner turns
    for loop in loops:
        n = len(loop)
        for i in range(n):
            (ax, ay), (bx, by), (cx, cy) = loop[i - 1], loop[i], loop[(i + 1) % n]
            assert (bx - ax) * (cy - by) - (by - ay) * (cx - bx) != 0


def test_a_flat_row_of_tiles_is_one_rectangle() -> None:
    """Flush tiles share no edge: 100 tiles in a row are one loop of 4 corners."""
    tiles = TileMap(np.ones((1, 100), bool), 16.0)
    assert tiles.outlines() == (((0.0, 0.0), (1600.0, 0.0), (1600.0, 16.0), (0.0, 16.0)),)


def test_tiles_touching_at_a_corner_are_two_outlines() -> None:
    tiles = TileMap([[1, 0], [0, 1]], 1.0)
    assert sorted(len(loop) for loop in tiles.outlines()) == [4, 4]
    assert len(tiles.outlines()) == 2


def test_a_hole_is_its_own_outline_turning_the_other_way() -> None:
    tiles = TileMap([[1, 1, 1], [1, 0, 1], [1, 1, 1]], 1.0)
    loops = tiles.outlines()
    assert len(loops) == 2
    areas = sorted(0.5 * sum(a[0] * b[1] - b[0] * a[1] for a, b in zip(lp, lp[1:] + lp[:1]))
                   for lp in loops)
    assert areas == [-1.0, 9.0]


def _brute_ray(ray: Ray, tiles: TileMap) -> float:
    """The nearest hit distance over every solid tile as a box (inf on a miss)."""
    best = math.inf
    rows, cols = tiles.solid.shape
    w, h = tiles.cell_size
    for r in range(rows):
        for c in range(cols):
            if tiles.solid[r, c]:
                lo = tiles.corner(c, r)
                hit = raycast(ray, AABB(lo, (lo[0] + w, lo[1] + h)))
                if hit is not None:
                    best = min(best, hit.distance)
    return best


@settings(max_examples=150, deadline=None)
@given(grids, st.floats(-2, 9), st.floats(-2, 9), st.floats(0, 2 * math.pi))
def test_rays_match_brute_force_over_the_tiles(solid: np.ndarray, x: float, y: float,
                                               angle: float) -> None:
    tiles = TileMap(solid, 1.0)
    ray = Ray((x, y), (math.cos(angle), math.sin(angle)))
    hit = raycast(ray, tiles)
    expected = _brute_ray(ray, tiles)
    if tiles.contains_closed((x, y)):
        # on or in a solid tile's closed square, as a box counts it
        assert hit is not None and hit.started_inside and hit.distance == 0.0
        return
    if math.isinf(expected):
        assert hit is None
        return
    assert hit is not None and not hit.started_inside
    assert hit.distance == pytest.approx(expected, abs=1e-12)
    # the hit point is on the outline: on a tile's side
    px, py = hit.point
    assert min(abs(px - round(px)), abs(py - round(py))) < 1e-12


@pytest.mark.parametrize("origin, direction, distance, normal", [
    # aimed at the corner two flush tiles share: one hit, a face normal (no internal edge)
    ((0.5, -1.0), (1.0, 2.0), math.sqrt(0.5 ** 2 + 1.0), (0.0, -1.0)),
    # straight down onto the seam between two flush tiles
    ((2.0, -3.0), (0.0, 1.0), 3.0, (0.0, -1.0)),
    # grazing along the top face: touching counts, at the first corner
    ((-2.0, 0.0), (1.0, 0.0), 2.0, (-1.0, 0.0)),
    # through the outer corner of the row, diagonally
    ((-1.0, -1.0), (1.0, 1.0), math.sqrt(2.0), None),
])
def test_rays_at_seams_and_corners_hit_once_exactly(origin: tuple, direction: tuple,
                                                      distance: float, normal: tuple | None
                                                      ) -> None:
    tiles = TileMap(np.ones((1, 5), bool), 1.0)
    hit = raycast(Ray(origin, direction), tiles)
    assert hit is not None
    assert hit.distance == pytest.approx(distance, abs=1e-12)
    if normal is not None:
        assert tuple(hit.normal) == pytest.approx(normal, abs=1e-12)


def test_a_ray_from_inside_reports_its_exit() -> None:
    tiles = TileMap([[1, 1, 1, 0]], 2.0)
    hit = raycast(Ray((1.0, 1.0), (1.0, 0.0)), tiles)
    assert hit is not None and hit.started_inside
    assert hit.distance == 0.0 and hit.exit_distance == 5.0
    assert tuple(hit.normal) == (-1.0, 0.0)
    short = raycast(Ray((1.0, 1.0), (1.0, 0.0), max_distance=1.0), tiles)
    assert short is not None and short.exit_distance == 5.0


def test_closest_point() -> None:
    tiles = TileMap([[1, 1], [0, 1]], 1.0)
    assert tuple(closest_point(tiles, (0.5, 0.5))) == (0.5, 0.5)
    assert tuple(closest_point(tiles, (0.5, 1.75))) == (1.0, 1.75)
    assert tuple(closest_point(tiles, (-1.0, 0.5))) == (0.0, 0.5)


@pytest.mark.parametrize("solid, size, error, match", [
    (np.ones((0, 3), bool), 1.0, ValueError, "solid"),
    (np.ones(3, bool), 1.0, ValueError, "solid"),
    ([[0.5, 1.0]], 1.0, TypeError, "solid"),
    ([[2, 1]], 1.0, TypeError, "solid"),
    ([[1]], 0.0, ValueError, "cell_size"),
    ([[1]], -1.0, ValueError, "cell_size"),
    ([[1]], math.nan, ValueError, "cell_size"),
    ([[1]], (1.0, 0.0), ValueError, "cell_size"),
])
def test_bad_input_names_the_argument(solid: object, size: object, error: type,
                                      match: str) -> None:
    with pytest.raises(error, match=match):
        TileMap(solid, size)


def test_too_many_tiles_is_an_error() -> None:
    with pytest.raises(ValueError, match="MAX_TILES"):
        TileMap(np.zeros((1, MAX_TILES + 1), bool), 1.0)


def test_frozen_equal_and_pickled() -> None:
    grid = np.array([[1, 0], [1, 1]], bool)
    tiles = TileMap(grid, (2.0, 3.0), (1.0, -1.0))
    grid[0, 1] = True
    assert not tiles.solid[0, 1]
    with pytest.raises(AttributeError):
        tiles.origin = (0.0, 0.0)  # type: ignore[misc]
    with pytest.raises(ValueError):
        tiles.solid[0, 0] = False
    again = pickle.loads(pickle.dumps(tiles))
    assert again == tiles and hash(again) == hash(tiles)
    assert tiles.aabb == AABB((1.0, -1.0), (5.0, 5.0))
    assert len(tiles.chains()) == 1 and tiles.chains()[0].loop
