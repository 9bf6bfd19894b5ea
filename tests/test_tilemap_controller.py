"""move_and_slide through a TileMap (issue 13): floors, walls, corners, steps and seams.

The character meets the map's outline segments (no edge between two flush tiles), so it
slides along a floor of many tiles without a snag, stops at walls and in corners, climbs a
step only with ``step_height``, and never ends inside the solid region.
"""

from __future__ import annotations

import numpy as np
import pytest
from hypothesis import assume, given, settings
from hypothesis import strategies as st

from swept import AABB, Capsule, Circle, TileMap, World, contact, move_and_slide

# 12 columns: an open room above a floor (row 5), a wall on the left (column 0) and a step
# one tile high from column 8 on
ROOM = np.zeros((6, 12), bool)
ROOM[5, :] = True
ROOM[:, 0] = True
ROOM[4, 8:] = True


def _inside(shape: object, tiles: TileMap) -> bool:
    """Whether ``shape`` overlaps the map deeper than rounding."""
    c = contact(shape, tiles)  # type: ignore[arg-type]
    return c is not None and c.depth > 1e-9


@pytest.mark.parametrize("cell", [1e-3, 1.0, 1e4])
@pytest.mark.parametrize("origin", [(0.0, 0.0), (1e6, -1e6)])
@pytest.mark.parametrize("speed", [0.05, 1.0, 3.0, 20.0])
@pytest.mark.parametrize("x", [1.5, 2.0, 2.75, 3.0])
def test_walking_along_a_floor_of_flush_tiles_never_snags(cell: float, origin: tuple,
                                                          speed: float, x: float) -> None:
    """A character standing on a floor of separate tiles (a box's corner, or a ball's centre,
    on a seam between two) and walking along it keeps all its speed: the outline has no edge
    between two flush tiles, so no tile's side ever stops it."""
    tiles = TileMap(ROOM, cell, origin)
    ox, oy = origin
    floor_y = oy + 5 * cell
    skin = 1e-4 * cell
    for shape in (AABB((ox + x * cell, floor_y - 0.8 * cell - skin),
                       (ox + (x + 0.5) * cell, floor_y - skin)),
                  Circle((ox + (x + 0.25) * cell, floor_y - 0.25 * cell - skin), 0.25 * cell),
                  Capsule((ox + (x + 0.25) * cell, floor_y - 0.75 * cell - skin),
                          (ox + (x + 0.25) * cell, floor_y - 0.25 * cell - skin), 0.25 * cell)):
        moved = shape
        for _ in range(int(3 / speed) + 1):
            before = moved.aabb.min[0]
            r = move_and_slide(moved, (speed * cell, 0.0), 1.0 / 60.0, [tiles], skin=skin)
            moved = r.shape
            if moved.aabb.max[0] > ox + 7.9 * cell:
                break
            assert r.velocity == (speed * cell, 0.0)
            assert not r.on_wall
            assert all(c.normal == (0.0, -1.0) for c in r.collisions)
            assert moved.aabb.min[0] - before == pytest.approx(speed * cell / 60.0,
                                                               rel=1e-9, abs=1e-9 * abs(ox))
            assert not _inside(moved, tiles)


def test_a_wall_stops_and_a_corner_holds() -> None:
    tiles = TileMap(ROOM, 1.0)
    box = AABB((2.0, 4.0), (2.5, 5.0))
    r = move_and_slide(box, (-100.0, 0.0), 1.0, [tiles], skin=1e-3)
    # the wall at x = 1 (column 0's right face)
    assert r.shape.aabb.min[0] == pytest.approx(1.001, abs=1e-9)
    assert r.on_wall and r.on_floor  # touching the floor at the start: it stays on it
    assert r.velocity[0] == 0.0
    # into the corner of wall and floor: held there, both faces met
    r = move_and_slide(box.translated((0.0, -1.0)), (-100.0, 100.0), 1.0, [tiles], skin=1e-3)
    assert r.shape.aabb.min[0] == pytest.approx(1.001, abs=1e-9)
    assert r.shape.aabb.max[1] == pytest.approx(4.999, abs=1e-9)
    assert r.on_wall and r.on_floor
    assert r.velocity == (0.0, 0.0)


def test_a_step_blocks_unless_step_height_climbs_it() -> None:
    tiles = TileMap(ROOM, 1.0)
    box = AABB((6.0, 4.2), (6.5, 4.999))
    r = move_and_slide(box, (3.0, 0.0), 1.0, [tiles], skin=1e-3)
    # the step's side at x = 8 stops it; it climbs nothing
    assert r.shape.aabb.max[0] == pytest.approx(7.999, abs=1e-9)
    assert r.shape.aabb.max[1] == pytest.approx(4.999, abs=1e-12)
    assert r.on_wall
    r = move_and_slide(box, (3.0, 0.0), 1.0, [tiles], skin=1e-3, step_height=1.1)
    assert r.shape.aabb.max[0] == pytest.approx(9.5, abs=1e-6)
    assert r.shape.aabb.max[1] == pytest.approx(3.999, abs=1e-6)
    assert r.on_floor


def test_a_tile_map_among_other_obstacles_and_bad_input() -> None:
    tiles = TileMap(ROOM, 1.0)
    ball = Circle((5.0, 2.0), 0.4)
    r = move_and_slide(ball, (0.0, 10.0), 1.0, [AABB((20, 20), (21, 21)), tiles], skin=1e-3)
    assert r.on_floor and r.position[1] == pytest.approx(4.599, abs=1e-9)
    assert r.collisions[0].collider == 1
    with pytest.raises(TypeError, match="obstacles"):
        move_and_slide(ball, (1.0, 0.0), 1.0, tiles)


def test_the_world_takes_the_map_or_its_outline_chains() -> None:
    """A TileMap in a World is an external collider (answered by the scalar queries, solid
    inside); its outline chains are two-sided surfaces in the compiled table. Both move a
    character outside the tiles alike."""
    tiles = TileMap(ROOM, 1.0)
    chains = World()
    for chain in tiles.chains():
        chains.add(chain)
    whole = World()
    whole.add(tiles)
    ball = Circle((5.0, 2.0), 0.4)
    a = move_and_slide(ball, (3.0, 10.0), 1.0, chains, skin=1e-3)
    b = move_and_slide(ball, (3.0, 10.0), 1.0, [tiles], skin=1e-3)
    c = move_and_slide(ball, (3.0, 10.0), 1.0, whole, skin=1e-3)
    assert a.position == pytest.approx(b.position, abs=1e-9)
    assert c.position == b.position
    assert a.on_floor and b.on_floor and c.on_floor


grids = st.integers(2, 7).flatmap(
    lambda rows: st.integers(2, 7).flatmap(
        lambda cols: st.lists(st.booleans(), min_size=rows * cols, max_size=rows * cols).map(
            lambda cells: np.array(cells, bool).reshape(rows, cols))))


@settings(max_examples=120, deadline=None)
@given(grids, st.integers(0, 48), st.sampled_from(["box", "circle", "capsule"]),
       st.floats(0.1, 0.45), st.lists(st.tuples(st.floats(-40, 40), st.floats(-40, 40)),
                                      min_size=1, max_size=6),
       st.sampled_from([0.0, 1e-3, 0.02]))
def test_a_character_never_ends_inside_the_map(solid: np.ndarray, pick: int, kind: str,
                                               half: float, moves: list, skin: float) -> None:
    rows, cols = solid.shape
    empty = list(zip(*np.nonzero(~solid)))
    assume(empty)
    r0, c0 = empty[pick % len(empty)]
    tiles = TileMap(solid, 1.0, (-2.0, 3.0))
    centre = tiles.corner(c0 + 0.5, r0 + 0.5)
    if kind == "box":
        shape: object = AABB(centre - (half, half), centre + (half, half))
    elif kind == "circle":
        shape = Circle(centre, half)
    else:
        shape = Capsule(centre - (0.0, half / 2), centre + (0.0, half / 2), half / 2)
    assert not _inside(shape, tiles)
    for v in moves:
        r = move_and_slide(shape, v, 1.0 / 10.0, [tiles], skin=skin,  # type: ignore[arg-type]
                           step_height=0.3)
        shape = r.shape
        assert not _inside(shape, tiles)
        # nothing tunnels: the character's centre stays out of the solid tiles
        assert not tiles.contains(r.position)
