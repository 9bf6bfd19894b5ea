"""Tile maps in the pair queries (issue 13): sweep, contact, manifold, distance, closest_points.

Sweeps are checked against brute force over every solid tile as a box (a moving box in exact
rational arithmetic, a circle against the scalar circle-box cast, a capsule against the scalar
capsule-box cast), contacts and distances against the same boxes, and normals against the
outline: a shape sliding along a flat row of tiles never meets a seam.
"""

from __future__ import annotations

import math
from fractions import Fraction

import numpy as np
import pytest
from hypothesis import assume, example, given, settings
from hypothesis import strategies as st

from swept import (
    AABB,
    Capsule,
    Circle,
    Polygon,
    Ray,
    Segment,
    Sphere,
    TileMap,
    closest_points,
    contact,
    distance,
    manifold,
    raycast,
    sweep,
)
from swept.constants import CAST_TOLERANCE
from swept.level.tile_queries import _clearance, segments_near, segments_swept
from swept.sweep import reference_point
from swept.vec import Vec2

EPS = 2.0 ** -52

grids = st.integers(1, 6).flatmap(
    lambda rows: st.integers(1, 6).flatmap(
        lambda cols: st.lists(st.booleans(), min_size=rows * cols, max_size=rows * cols).map(
            lambda cells: np.array(cells, bool).reshape(rows, cols))))


def _tile_boxes(tiles: TileMap) -> list[AABB]:
    """Every solid tile as its own box."""
    return [AABB(tiles.corner(c, r), tiles.corner(c + 1, r + 1))
            for r, c in zip(*np.nonzero(tiles.solid))]


def _box_fraction(lo: tuple, hi: tuple, d: tuple, tlo: tuple, thi: tuple) -> Fraction | None:
    """The exact first fraction in [0, 1] at which box lo..hi moved by d touches tlo..thi."""
    s0, s1 = Fraction(0), Fraction(1)
    for k in range(2):
        a, b = Fraction(lo[k]), Fraction(hi[k])
        ta, tb = Fraction(tlo[k]), Fraction(thi[k])
        dk = Fraction(d[k])
        if dk == 0:
            if b < ta or a > tb:
                return None
            continue
        e0, e1 = (ta - b) / dk, (tb - a) / dk
        s0, s1 = max(s0, min(e0, e1)), min(s1, max(e0, e1))
    return s0 if s0 <= s1 else None


def _brute_box(box: AABB, d: tuple, tiles: TileMap) -> Fraction | None:
    best = None
    for t in _tile_boxes(tiles):
        f = _box_fraction(tuple(box.min), tuple(box.max), d, tuple(t.min), tuple(t.max))
        if f is not None and (best is None or f < best):
            best = f
    return best


def _brute_sweep(shape: object, d: tuple, tiles: TileMap) -> float | None:
    """The first fraction at which ``shape`` moved by ``d`` touches any solid tile's box."""
    hits = [h.fraction for t in _tile_boxes(tiles)
            if (h := sweep(shape, d, t)) is not None]  # type: ignore[arg-type]
    return min(hits) if hits else None


FLOOR = np.array([[0] * 8, [0] * 8, [1] * 8], bool)


# ------------------------------------------------------------------------- the cell index

def test_a_short_sweep_visits_only_the_segments_near_it() -> None:
    rng = np.random.default_rng(3)
    tiles = TileMap(rng.random((256, 256)) < 0.3, 1.0)
    total = sum(len(c.segments) for c in tiles.chains())
    box = AABB((100.2, 100.2), (100.8, 100.8))
    near = segments_swept(tiles, box.min, box.max, (3.0, 2.0), 0.0)
    # the band of cells around the motion, a cell of slack each way: at most 4 x 7 cells
    assert 0 < len(near) <= 4 * 4 * 7
    assert total > 20_000
    # a long diagonal sweep visits a band, not the rectangle around it
    far = segments_swept(tiles, box.min, box.max, (100.0, 100.0), 0.0)
    assert len(far) < 0.1 * total


def test_the_index_files_every_segment_under_the_cells_it_borders() -> None:
    rng = np.random.default_rng(4)
    tiles = TileMap(rng.random((9, 11)) < 0.5, (2.0, 0.5), (-3.0, 7.0))
    chains = tiles.chains()
    for k, chain in enumerate(chains):
        for i, seg in enumerate(chain.segments):
            mid = (seg.a + seg.b) * 0.5
            assert (k, i) in segments_near(tiles, mid, mid)


@settings(max_examples=100, deadline=None)
@given(st.lists(st.one_of(st.integers(0, 40), st.integers(0, 2 ** 62)), max_size=300),
       st.lists(st.integers(0, 300), min_size=8, max_size=8))
@example([], [0] * 8)
@example([7], [0] * 8)
@example([5] * 50, [0] * 8)
@example(list(range(200, 0, -1)) * 2, [0] * 8)
def test_swept_ids_are_the_filed_ids_each_once_ascending(ids: list, cuts: list) -> None:
    """swept_ids sorts its gathered ids by a heap sort of its own and drops repeats (it used
    np.unique, whose sort numba compiled for this one call): on a 1 x 1 map whose nine grown
    cells a still box covers, the result is np.unique of every id in the CSR table, however
    the ids are spread over the cells, repeated or ordered."""
    from swept._kernels.tilemap import swept_ids
    table = np.array(ids, np.int64)
    start = np.array([0, *sorted(min(c, len(ids)) for c in cuts), len(ids)], np.int64)
    found = swept_ids(start, table, 1, 1, 0.0, 0.0, 1.0, 1.0, 0.0, 0.0, 1.0, 1.0, 0.0, 0.0)
    assert found.dtype == np.int64
    assert found.tolist() == np.unique(table).tolist()


# ------------------------------------------------------------------- sweeps: brute force

@settings(max_examples=150, deadline=None)
@given(grids, st.integers(-16, 112), st.integers(-16, 112), st.integers(2, 40),
       st.integers(2, 40), st.integers(-200, 200), st.integers(-200, 200))
# touching a tile's face exactly at the end of the motion
@example(np.isin(np.arange(30).reshape(5, 6), [8]), 5, 31, 36, 2, 46, 5)
def test_a_box_sweep_matches_exact_brute_force(solid: np.ndarray, x: int, y: int, w: int,
                                               h: int, dx: int, dy: int) -> None:
    tiles = TileMap(solid, 16.0)
    # dyadic coordinates: the brute force is exact and the touching cases are real touches
    box = AABB((x / 2, y / 2), ((x + w) / 2, (y + h) / 2))
    d = (dx / 4, dy / 4)
    assume(_brute_box(box, (0.0, 0.0), tiles) is None)
    exact = _brute_box(box, d, tiles)
    hit = sweep(box, d, tiles)
    if exact is None:
        assert hit is None
        return
    assert hit is not None and not hit.started_inside
    scale = max(abs(v) for v in (*box.min, *box.max, *tiles.corner(*solid.shape[::-1])))
    assert abs(hit.fraction - float(exact)) <= 16 * EPS * scale / math.hypot(*d)
    # the normal is a face of the outline, pointing out of the solid at the point
    assert abs(hit.normal[0]) + abs(hit.normal[1]) == 1.0
    assert hit.normal.dot(d) <= 0.0


@settings(max_examples=150, deadline=None)
@given(grids, st.floats(-2, 8), st.floats(-2, 8), st.floats(0.05, 1.5), st.floats(-9, 9),
       st.floats(-9, 9))
def test_a_circle_sweep_matches_brute_force(solid: np.ndarray, x: float, y: float, r: float,
                                            dx: float, dy: float) -> None:
    tiles = TileMap(solid, 1.0)
    ball = Circle((x, y), r)
    assume(all(distance(ball, t) > 1e-9 for t in _tile_boxes(tiles)))
    assume(math.hypot(dx, dy) > 1e-6)
    best = _brute_sweep(ball, (dx, dy), tiles)
    hit = sweep(ball, (dx, dy), tiles)
    assert (hit is None) == (best is None)
    if hit is None:
        return
    assert hit.fraction == pytest.approx(best, abs=1e-12)
    # the point is on the outline, a radius from the centre at that moment
    assert (hit.position - hit.point).length() == pytest.approx(r, rel=1e-9)
    assert hit.position[0] == pytest.approx(x + dx * hit.fraction, abs=1e-12)
    assert hit.position[1] == pytest.approx(y + dy * hit.fraction, abs=1e-12)


@settings(max_examples=80, deadline=None)
@given(grids, st.floats(-2, 8), st.floats(-2, 8), st.floats(0.0, 1.5), st.floats(0.0, 1.0),
       st.floats(0.05, 0.6), st.floats(-9, 9), st.floats(-9, 9))
def test_a_capsule_sweep_matches_brute_force(solid: np.ndarray, x: float, y: float, ex: float,
                                             ey: float, r: float, dx: float, dy: float) -> None:
    tiles = TileMap(solid, 1.0)
    cap = Capsule((x, y), (x + ex, y + ey), r)
    assume(all(distance(cap, t) > 1e-6 for t in _tile_boxes(tiles)))
    assume(math.hypot(dx, dy) > 1e-3)
    best = _brute_sweep(cap, (dx, dy), tiles)
    hit = sweep(cap, (dx, dy), tiles)
    assert (hit is None) == (best is None)
    if hit is None:
        return
    # the brute force casts by conservative advancement, to CAST_TOLERANCE of the query's size
    size = max(abs(v) for v in (x, y, x + ex, y + ey, dx, dy, 8.0))
    assert hit.fraction == pytest.approx(best, abs=100 * CAST_TOLERANCE * size)


# ------------------------------------------------------------------- sweeps: exact values

@pytest.mark.parametrize("cell", [1e-3, 0.37, 1.0, 64.0, 1e4])
@pytest.mark.parametrize("origin", [(0.0, 0.0), (1e6, -1e6), (-3.5, 2.25)])
def test_a_box_falls_onto_a_floor_of_flush_tiles_exactly(cell: float, origin: tuple) -> None:
    tiles = TileMap(FLOOR, cell, origin)
    ox, oy = origin
    floor_y = oy + 2 * cell
    for seam in range(1, 8):
        # the box's corner, or its middle, exactly over a seam between two floor tiles
        for offset in (0.0, -0.25, -0.5, 0.3):
            x0 = ox + (seam + offset) * cell
            box = AABB((x0, floor_y - 0.75 * cell), (x0 + 0.5 * cell, floor_y - 0.25 * cell))
            d = (0.125 * cell, 0.5 * cell)
            hit = sweep(box, d, tiles)
            exact = (Fraction(floor_y) - Fraction(box.max[1])) / Fraction(d[1])
            assert hit is not None
            assert abs(hit.fraction - float(exact)) <= 8 * EPS * abs(floor_y) / d[1] + EPS
            assert hit.normal == (0.0, -1.0)
            assert not hit.started_inside


@pytest.mark.parametrize("cell", [1e-3, 1.0, 1e4])
@pytest.mark.parametrize("origin", [(0.0, 0.0), (1e6, 1e6)])
@pytest.mark.parametrize("speed", [0.01, 0.3, 1.0, 7.0, 1000.0])
def test_sliding_along_a_floor_never_meets_a_seam(cell: float, origin: tuple,
                                                  speed: float) -> None:
    """The outline has no edge between two flush tiles, so a box or circle resting on (or a
    hair above) the floor and moving along it is never stopped by the next tile's side."""
    tiles = TileMap(FLOOR, cell, origin)
    ox, oy = origin
    floor_y = oy + 2 * cell
    for start in np.linspace(0.0, 6.0, 13):
        x0 = ox + start * cell
        resting = AABB((x0, floor_y - 0.5 * cell), (x0 + 0.5 * cell, floor_y))
        hit = sweep(resting, (speed * cell, 0.0), tiles)
        # touching counts: a hit at 0 from the start, out through the floor's face
        assert hit is not None and hit.started_inside and hit.normal == (0.0, -1.0)
        c = contact(resting, tiles)
        assert c is not None and c.normal == (0.0, -1.0) and c.depth == 0.0
        # a millionth of a cell and 1e-11 of the coordinates: past the casts' touching
        # tolerances (1e-9 of their size and CAST_ROUNDING, 1e-12, of the coordinates)
        gap = 1e-6 * cell + 1e-11 * abs(floor_y)
        for shape in (resting.translated((0.0, -gap)),
                      Circle((x0, floor_y - 0.25 * cell - gap), 0.25 * cell)):
            hit = sweep(shape, (speed * cell, 0.0), tiles)
            assert hit is None
            # falling onto it while moving along: the floor's face answers
            hit = sweep(shape, (speed * cell, max(speed, 0.5) * cell), tiles)
            assert hit is not None and hit.normal == (0.0, -1.0)


def test_a_box_corner_meets_a_tile_corner_exactly() -> None:
    tiles = TileMap(np.array([[0, 0], [0, 1]], bool), 1.0)
    box = AABB((0.0, 0.0), (0.5, 0.5))
    # the box's corner (0.5, 0.5) runs diagonally onto the tile's corner (1, 1)
    hit = sweep(box, (1.0, 1.0), tiles)
    assert hit is not None and hit.fraction == 0.5 and hit.point == (1.0, 1.0)
    assert hit.normal in ((-1.0, 0.0), (0.0, -1.0))
    # a hair to the side of the corner: onto the top face, a hair later
    hit = sweep(box.translated((1e-12, -2e-12)), (1.0, 1.0), tiles)
    assert hit is not None and hit.normal == (0.0, -1.0)
    assert hit.fraction == pytest.approx(0.5 + 2e-12, abs=1e-15)
    # its path ends exactly touching the tile's left face at the corner: a hit at 1
    hit = sweep(AABB((-0.5, 0.0), (0.0, 0.5)), (1.0, 1.0), tiles)
    assert hit is not None and hit.fraction == 1.0 and hit.point == (1.0, 1.0)
    assert sweep(AABB((-1.0, 0.0), (-0.5, 0.5)), (1.0, 1.0), tiles) is None


def test_a_touch_exactly_at_the_end_of_the_motion_is_a_hit() -> None:
    # The compiled cast runs along the motion's unit direction, so a touch exactly at the end
    # of the motion lay at the motion's length times (1 + an ulp), past the reach: a box
    # touching a tile's face exactly at fraction 1 was a miss (found by hypothesis against
    # exact brute force). The reach now allows the rounding and the fraction is clamped to 1.
    solid = np.zeros((5, 6), bool)
    solid[1, 2] = True
    tiles = TileMap(solid, 16.0)
    box = AABB((2.5, 15.5), (20.5, 16.5))
    hit = sweep(box, (11.5, 1.25), tiles)
    assert hit is not None and hit.fraction == 1.0 and tuple(hit.normal) == (-1.0, 0.0)
    assert tuple(hit.position) == (23.0, 17.25)
    # a quarter short of the face at the end: a miss
    assert sweep(box.translated((-0.25, 0.0)), (11.5, 1.25), tiles) is None
    # a ball the same way
    hit = sweep(Circle((2.5, 17.0), 1.5), (28.0, 1.25), tiles)
    assert hit is not None and hit.fraction == 1.0 and tuple(hit.normal) == (-1.0, 0.0)


def test_a_circle_grazing_a_ledge_corner() -> None:
    tiles = TileMap(np.array([[0, 0], [0, 1]], bool), 1.0)
    # a ball of radius 0.5 moving along y = 0.5 grazes the corner (1, 1)? it passes 0.5 above
    ball = Circle((-1.0, 0.5), 0.5)
    hit = sweep(ball, (4.0, 0.0), tiles)
    assert hit is not None and hit.fraction == pytest.approx(0.5, abs=1e-15)
    assert hit.normal == (0.0, -1.0)
    assert sweep(ball.translated((0.0, -1e-9)), (4.0, 0.0), tiles) is None


def test_a_sweep_that_starts_buried_or_overlapping_hits_at_zero() -> None:
    tiles = TileMap(np.ones((5, 5), bool), 1.0)
    hit = sweep(Circle((2.5, 2.4), 0.1), (3.0, 0.0), tiles)
    assert hit is not None and hit.started_inside and hit.fraction == 0.0
    # out through the nearest face: up (y = 0) is 2.4 away, the others farther
    assert hit.normal == (0.0, -1.0)
    hit = sweep(AABB((-0.5, 1.0), (0.5, 2.0)), (1.0, 0.0), tiles)
    assert hit is not None and hit.started_inside and hit.normal == (-1.0, 0.0)


def test_target_distance_and_max_fraction() -> None:
    tiles = TileMap(FLOOR, 1.0)
    box = AABB((1.0, 0.0), (2.0, 1.0))
    hit = sweep(box, (0.0, 2.0), tiles, target_distance=0.5)
    assert hit is not None and hit.fraction == 0.25
    assert sweep(box, (0.0, 2.0), tiles, max_fraction=0.4) is None
    hit = sweep(box, (0.0, 2.0), tiles, max_fraction=0.5)
    assert hit is not None and hit.fraction == 0.5


def test_the_reversed_pair_moves_the_map() -> None:
    tiles = TileMap(FLOOR, 1.0, (10.0, 20.0))
    ball = Circle((13.5, 20.5), 0.5)
    one = sweep(ball, (1.0, 2.0), tiles)
    other = sweep(tiles, (-1.0, -2.0), ball)
    assert one is not None and other is not None
    assert other.fraction == one.fraction
    assert other.normal == -one.normal
    assert other.position == pytest.approx((10.0 - one.fraction, 20.0 - 2 * one.fraction))
    # where they touch: on the still ball's rim
    assert (other.point - ball.center).length() == pytest.approx(0.5)


# ---------------------------------------------------------------------------- contacts

def test_contacts_on_a_floor_at_seams_take_the_face() -> None:
    tiles = TileMap(FLOOR, 1.0)
    for x in np.linspace(0.0, 7.0, 29):
        for shape in (Circle((x, 1.9), 0.2), AABB((x - 0.3, 1.7), (x + 0.3, 2.1)),
                      Capsule((x, 1.55), (x, 1.85), 0.25)):
            c = contact(shape, tiles)
            assert c is not None
            assert c.normal == (0.0, -1.0)
            assert c.depth == pytest.approx(0.1, abs=1e-12)


def test_a_box_sunk_at_the_map_edge_leaves_upward() -> None:
    """Each outline segment offers a way out; the shallowest that alone clears the whole map
    wins, so a box half sunk into the floor at the map's left edge is pushed up by its sinking,
    not out through the map's edge by its width."""
    tiles = TileMap(FLOOR, 1.0)
    c = contact(AABB((0.0, 1.5), (1.0, 2.5)), tiles)
    assert c is not None and c.normal == (0.0, -1.0) and c.depth == 0.5
    m = manifold(AABB((0.0, 1.5), (1.0, 2.5)), tiles)
    assert m is not None and m.normal == (0.0, -1.0)


def test_a_box_in_an_inside_corner_leaves_by_both_faces() -> None:
    """When no one face's push clears the map, the contact is the shortest clearing push of a
    few directions, among them the corner of two faces' planes: a box 0.2 into a wall and 0.1
    into a ceiling leaves by (-0.2, -0.1) at once (the deeper face alone, the old answer,
    left the ceiling for another pass)."""
    tiles = TileMap(np.array([[0, 0, 1], [1, 1, 1]], bool), 1.0)
    box = AABB((1.0, 0.4), (2.2, 1.1))
    c = contact(box, tiles)
    assert c is not None
    assert c.normal[0] == pytest.approx(-2.0 / math.sqrt(5.0), abs=1e-15)
    assert c.normal[1] == pytest.approx(-1.0 / math.sqrt(5.0), abs=1e-15)
    assert c.depth == pytest.approx(math.sqrt(0.05), abs=1e-15)
    assert contact(box.translated(c.normal * c.depth), tiles) is None or contact(
        box.translated(c.normal * c.depth), tiles).depth <= 1e-12


def test_a_ball_wedged_between_two_corners_leaves_between_them() -> None:
    """A ball wider than the gap between two tiles, its centre level with their tops, is
    pushed left by one tile's corner and right by the other's: the push out is up, by the
    exact height at which both corners clear (sqrt(r^2 - 0.25)), not into the other tile and
    back pass after pass."""
    solid = np.zeros((4, 5), bool)
    solid[1, 0] = solid[1, 2] = True
    tiles = TileMap(solid, 1.0)
    for y, r, n in ((2.0, 1.0, (0.0, 1.0)), (1.0, 0.75, (0.0, -1.0))):
        c = contact(Circle((1.5, y), r), tiles)
        assert c is not None and c.normal == n
        assert c.depth == pytest.approx(math.sqrt(r * r - 0.25), abs=1e-15)
        after = contact(Circle((1.5, y + n[1] * c.depth), r), tiles)
        assert after is None or after.depth <= 1e-12


def test_a_circle_at_an_outside_corner_leaves_radially() -> None:
    tiles = TileMap(np.array([[0, 0], [0, 1]], bool), 1.0)
    c = contact(Circle((0.9, 0.9), 0.5), tiles)
    s = math.sqrt(0.02)
    assert c is not None and c.point == (1.0, 1.0)
    assert c.normal[0] == pytest.approx(-0.1 / s) and c.normal[1] == pytest.approx(-0.1 / s)
    assert c.depth == pytest.approx(0.5 - s)


def test_a_buried_shape_leaves_by_the_nearest_face() -> None:
    tiles = TileMap(np.ones((6, 4), bool), 1.0)
    c = contact(Circle((2.0, 4.5), 0.25), tiles)
    assert c is not None and c.normal == (0.0, 1.0) and c.depth == pytest.approx(1.75)
    # the reversed order: the normal turned around, the point on the circle
    r = contact(tiles, Circle((2.0, 4.5), 0.25))
    assert r is not None and r.normal == (0.0, -1.0) and r.depth == c.depth


@pytest.mark.parametrize("centre, normal", [
    ((-1.0, 0.0), (-1.0, 0.0)),  # left of the bottom-left corner, on the bottom face's line
    ((0.0, -1.0), (0.0, -1.0)),  # below it, on the left face's line
    ((2.0, 1.0), (1.0, 0.0)),  # right of the top-right corner, on the top face's line
    ((1.0, 2.0), (0.0, 1.0)),  # above it, on the right face's line
])
def test_touching_a_corner_on_a_face_line_pushes_out_the_open_side(
        centre: tuple[float, float], normal: tuple[float, float]) -> None:
    # A ball touching a lone tile's corner exactly, its centre on the line of a face: that
    # face reports the corner's normal straight along itself (edge-on), and the side of the
    # face it then took came from the centre, which lies on the line: the tie went to the
    # face's left, the solid side, and the map answered (0, 1), out through the tile. The tie
    # now goes to the outline's open side (found by hypothesis).
    solid = np.zeros((5, 5), bool)
    solid[0, 0] = True
    tiles = TileMap(solid, 1.0)
    c = contact(Circle(centre, 1.0), tiles)
    assert c is not None and c.depth == 0.0
    assert tuple(c.normal) == normal
    assert tuple(c.normal) == tuple(contact(Circle(centre, 1.0), AABB((0, 0), (1, 1))).normal)


def test_touching_a_side_just_above_a_corner_leaves_sideways() -> None:
    # A ball touching a column's left face exactly, its centre 1e-10 above the bottom corner:
    # the face's own contact rounds to apart (0.05 computed as 0.05000000000000001), and the
    # bottom face's contact from its end points into the solid; that end's push used to be
    # the bottom face's (down by the radius, 0.05). It is now the shallower of the two faces
    # meeting at the corner: sideways by 0 (found by hypothesis).
    tiles = TileMap(np.ones((3, 1), bool), 1.0)
    ball = Circle((-0.05, 1e-10), 0.05)
    c = contact(ball, tiles)
    assert c is not None and c.depth == 0.0 and tuple(c.normal) == (-1.0, 0.0)
    # sunk a little: the face answers with the exact depth
    c = contact(Circle((-0.04, 1e-10), 0.05), tiles)
    assert c is not None and tuple(c.normal) == (-1.0, 0.0)
    assert c.depth == pytest.approx(0.01, abs=1e-15)


def _deepest_in_a_tile(shape: object, tiles: TileMap) -> float:
    """How deep ``shape`` overlaps the solid tiles, judged against every tile as its own box
    (not the map's contact under test)."""
    return max((c.depth for t in _tile_boxes(tiles)
                if (c := contact(shape, t)) is not None), default=0.0)  # type: ignore[arg-type]


@pytest.mark.parametrize("solid, normal", [
    ([[1, 0], [0, 1]], (1.0, -1.0)),
    ([[0, 1], [1, 0]], (1.0, 1.0)),
])
def test_a_ball_on_the_corner_two_diagonal_tiles_share_leaves_between_them(
        solid: list, normal: tuple[float, float]) -> None:
    # A ball centred exactly on the corner where two diagonal tiles meet touches the faces of
    # one from outside and the faces of the other only at their ends, from the solid side.
    # Those ends were set aside once a face answered, so the wedged search never tried the
    # bisector of one tile's face and the other's: the ball left along an axis by r + 1 (1.25)
    # instead of between the tiles by r sqrt(2), and the depth jumped as the centre crossed
    # the corner (0.354 a hair away). (Either diagonal between the tiles is as short.)
    tiles = TileMap(np.array(solid, bool), 1.0)
    c = contact(Circle((1.0, 1.0), 0.25), tiles)
    u = 1.0 / math.sqrt(2.0)
    assert c is not None and c.depth == pytest.approx(0.25 * math.sqrt(2.0), abs=1e-12)
    # the bisector either way between the tiles (both leave by the same distance)
    assert abs(c.normal[0] * normal[0] + c.normal[1] * normal[1]) == pytest.approx(
        2.0 * u, abs=1e-12)
    moved = Circle((1.0 + c.normal[0] * c.depth, 1.0 + c.normal[1] * c.depth), 0.25)
    assert _deepest_in_a_tile(moved, tiles) <= 1e-12
    near = contact(Circle((1.0, 1.0 - 1e-7 * normal[1]), 0.25), tiles)
    assert near is not None and near.depth == pytest.approx(c.depth, abs=1e-6)
    # a box and a capsule there had no answering face along a diagonal at all and left along
    # an axis by 1.2 and 1.1: the wedged search now tries the four diagonals too
    for shape in (AABB((0.8, 0.8), (1.2, 1.2)), Capsule((0.9, 1.0), (1.1, 1.0), 0.1)):
        c = contact(shape, tiles)
        assert c is not None and c.depth == pytest.approx(0.2 * math.sqrt(2.0), abs=1e-12)
        assert abs(c.normal[0] * normal[0] + c.normal[1] * normal[1]) == pytest.approx(
            2.0 * u, abs=1e-12)
        assert _deepest_in_a_tile(shape.translated(c.normal * c.depth), tiles) <= 1e-12


def test_a_push_that_lands_on_a_faces_end_is_judged_by_that_face() -> None:
    # A push is taken when the shape it moves has no way out deeper than the clearance. Only
    # the faces were asked: the ball pushed down by 0.75 landed with its centre exactly on the
    # end of a tile's bottom face, which it then met only at that end, from the solid side, so
    # the tile it sat 1.0 deep in went unseen and the push was taken (found by a random
    # search). The faces' ends are now asked too.
    tiles = TileMap(np.array([[0, 0, 0, 1], [0, 0, 1, 1], [0, 1, 1, 0]], bool), 1.0)
    ball = Circle((2.0, 1.75), 1.0)
    c = contact(ball, tiles)
    assert c is not None and c.depth == pytest.approx(1.25, abs=1e-12)
    assert c.normal[0] == pytest.approx(-0.8, abs=1e-12)
    assert c.normal[1] == pytest.approx(-0.6, abs=1e-12)
    assert _deepest_in_a_tile(ball.translated(c.normal * c.depth), tiles) <= 1e-12


@pytest.mark.parametrize("segment, solid, normal, depth", [
    # through a tile's bottom face next to its end, the segment's other end on the
    # diagonal tile's face
    (((1.0, 0.9), (1.2, 1.1)), [[1, 0], [0, 1]], (0.0, -1.0), 0.1),
    # a segment crossing a face and poking into the tile beyond a gap
    (((1.5, 0.5), (1.5, 1.2)), [[1, 0], [0, 1]], (0.0, -1.0), 0.2),
])
def test_a_segment_through_a_face_leaves_through_that_face(
        segment: tuple, solid: list, normal: tuple[float, float], depth: float) -> None:
    # A segment has no area, so its contact with a face it crosses is the two segments'
    # shortest separation, which may slide the face's end off it (0.07 across the segment,
    # with the tile beyond that end still around it): the map answered 0 deep. A thin shape
    # now leaves each face it meets along that face's normal, past the face's line.
    tiles = TileMap(np.array(solid, bool), 1.0)
    seg = Segment(*segment)
    c = contact(seg, tiles)
    assert c is not None and tuple(c.normal) == normal
    assert c.depth == pytest.approx(depth, abs=1e-12)
    assert _deepest_in_a_tile(seg.translated(c.normal * c.depth), tiles) <= 1e-12


movers = st.tuples(st.floats(-1, 5), st.floats(-1, 5), st.sampled_from([0.05, 0.25, 0.5, 1.0]),
                   st.floats(0, math.pi), st.integers(0, 4)).map(
    lambda t: _mover(*t))


def _mover(x: float, y: float, r: float, a: float, kind: int) -> object:
    """A shape of ``kind`` (circle, box, capsule, segment, polygon) of size ``r`` at (x, y)."""
    ux, uy = r * math.cos(a), r * math.sin(a)
    if kind == 0:
        return Circle((x, y), r)
    if kind == 1:
        return AABB((x - r, y - 0.5 * r), (x + r, y + 0.5 * r))
    if kind == 2:
        return Capsule((x - ux, y - uy), (x + ux, y + uy), 0.3 * r)
    if kind == 3:
        return Segment((x - ux, y - uy), (x + ux, y + uy))
    return Polygon([(x - r, y), (x, y - r), (x + r, y), (x, y + r)])


@settings(max_examples=150, deadline=None)
@given(grids, movers, st.booleans())
@example(np.array([[0, 0, 1], [1, 0, 1], [1, 0, 0], [1, 1, 1]], bool),
         Segment((0.25, 2.5), (1.75, 3.5)), False)
@example(np.array([[1, 0, 0], [0, 0, 1]], bool),
         Capsule((0.6569031924759845, 0.8613733330431057),
                 (1.9741533680837697, 1.5789051963504146), 0.22499999999999998), False)
# a thin capsule poking up into a row of tiles beside the corner of an empty tile: the face
# it crossed was met as its end, whose push read 0, so the push into that row was taken
@example(np.array([[0, 1, 1], [1, 0, 1], [1, 1, 1], [1, 0, 1]], bool),
         Capsule((0.25, 1.75), (0.75, 2.25), 0.075), False)
@example(np.array([[1, 1], [1, 1], [0, 1]], bool),
         Capsule((0.964419633780613, 1.322052350657003),
                 (0.9724756781469808, 2.3220199002050705), 0.15), False)
def test_every_movers_contact_clears_the_map(solid: np.ndarray, shape: object,
                                             snap: bool) -> None:
    # The push out of the map leaves every mover kind clear of every solid tile, judged
    # against the tiles as boxes. A push was taken when the moved shape's ways out through
    # the outline were all shallow, and a face crossed next to its end was met as that end,
    # whose push read 0: segments and capsules were left 0.3-0.6 deep in a tile (found by a
    # random search over movers). A push is now judged against the tiles' squares.
    if snap:
        # on the quarter grid: centres on corners and face lines
        ref = reference_point(shape)  # type: ignore[arg-type]
        shape = shape.translated(Vec2(round(ref[0] * 4) / 4 - ref[0],  # type: ignore[attr-defined]
                                      round(ref[1] * 4) / 4 - ref[1]))
    tiles = TileMap(solid, 1.0)
    c = contact(shape, tiles)  # type: ignore[arg-type]
    boxes = _tile_boxes(tiles)
    assert (c is not None) == any(contact(shape, t) is not None for t in boxes)  # type: ignore[arg-type]
    if c is None:
        return
    assert math.isfinite(c.depth) and c.depth >= 0.0
    moved = shape.translated(c.normal * c.depth)  # type: ignore[attr-defined]
    assert _deepest_in_a_tile(moved, tiles) <= max(_clearance(moved), 1e-12)


def test_apart_is_none() -> None:
    tiles = TileMap(FLOOR, 1.0)
    assert contact(Circle((3.0, 1.0), 0.5), tiles) is None
    assert contact(Circle((3.0, 1.5), 0.5), tiles) is not None  # touching counts
    assert manifold(Circle((3.0, 1.0), 0.5), tiles) is None


@settings(max_examples=100, deadline=None)
@given(grids, st.floats(-1, 7), st.floats(-1, 7), st.floats(0.05, 1.0))
@example(np.array([[True]]), -3.5088707111647125e-23, 0.0, 1.0)  # a tie: down or left
@example(np.arange(25).reshape(5, 5) == 0, -1.0, 0.0, 1.0)  # a corner, centre on a face's line
# wedged between two tiles' top (bottom) corners, their pushes opposite: no one face clears
@example(np.isin(np.arange(20).reshape(4, 5), [5, 7]), 1.5, 2.0, 1.0)
@example(np.isin(np.arange(20).reshape(4, 5), [5, 7]), 1.5, 1.0, 0.75)
# one tile touched, its own push into another tile's corner
@example(np.isin(np.arange(20).reshape(4, 5), [6, 16]), 0.75, 2.25, 0.75)
# touching a column's side just above its bottom corner
@example(np.ones((3, 1), bool), -0.05, 1e-10, 0.05)
def test_contact_clears_the_map(solid: np.ndarray, x: float, y: float,
                                                  r: float) -> None:
    tiles = TileMap(solid, 1.0)
    ball = Circle((x, y), r)
    c = contact(ball, tiles)
    boxes = _tile_boxes(tiles)
    touching = any(contact(ball, t) is not None for t in boxes)
    assert (c is not None) == touching
    if c is None:
        return
    assert math.isfinite(c.depth) and c.depth >= 0.0
    assert abs(c.normal.length() - 1.0) < 1e-12
    touched = [t for t in boxes if contact(ball, t) is not None]
    if len(touched) == 1 and not tiles.contains_closed(ball.center):
        # one tile touched from outside: its box's own contact, the shortest way out, unless
        # that push carries the ball into another tile (a tile's corner at (1, 2) pushes a
        # ball at (0.75, 2.25) of radius 0.75 towards the corner (1, 3) of another): then a
        # longer push that clears the map
        one = contact(ball, touched[0])
        assert one is not None
        into = ball.translated(one.normal * one.depth)
        # (judged against the tiles' boxes, not the map's contact under test)
        beyond = [b for t in boxes if (b := contact(into, t)) is not None]
        if any(b.depth > _clearance(into) for b in beyond):
            assert c.depth >= one.depth - 1e-12
        else:
            assert c.depth == pytest.approx(one.depth, abs=1e-12)
        if (c.normal - one.normal).length() > 1e-9 and c.depth <= one.depth + 1e-12:
            # a tie: the centre on a corner's diagonal to rounding (at (-3.5e-23, 0) by the
            # tile (0, 0)-(1, 1), down and left both leave by 1): another shortest way out,
            # which clears the tile as well
            rest = contact(ball.translated(c.normal * c.depth), touched[0])
            assert rest is None or rest.depth <= 1e-9
    # the push clears the map, wedged cases too (the ball between two tiles' corners a cell
    # apart, pushed left by one and right by the other, leaves between them)
    moved = ball.translated(c.normal * c.depth)
    after = contact(moved, tiles)
    assert after is None or after.depth <= _clearance(moved)


# -------------------------------------------------------------------------- distances

@settings(max_examples=100, deadline=None)
@given(grids, st.floats(-9, 15), st.floats(-9, 15), st.floats(0.0, 1.0))
def test_distance_matches_brute_force(solid: np.ndarray, x: float, y: float, r: float) -> None:
    assume(solid.any())
    tiles = TileMap(solid, 1.0)
    for shape in (Circle((x, y), r), AABB((x, y), (x + r + 0.1, y + 0.5)), (x, y)):
        brute = min(distance(shape, t) for t in _tile_boxes(tiles))
        assert distance(shape, tiles) == pytest.approx(brute, abs=1e-12)
        a, b, d = closest_points(shape, tiles)
        assert d == pytest.approx(brute, abs=1e-12)
        assert (b - a).length() == pytest.approx(d, abs=1e-12)
        b2, a2, d2 = closest_points(tiles, shape)
        assert (a2, b2, d2) == (a, b, d)


def test_distance_to_an_empty_map_is_an_error() -> None:
    with pytest.raises(ValueError, match="tile_map"):
        distance(Circle((0, 0), 1), TileMap(np.zeros((2, 2), bool), 1.0))


def test_every_mover_and_the_unsupported() -> None:
    tiles = TileMap(FLOOR, 1.0)
    for shape in (Circle((1, 0.5), 0.5), Segment((1, 0), (2, 1)), Capsule((1, 0), (2, 0), 0.5),
                  AABB((1, 0), (2, 1)), Polygon([(1, 0), (2, 0), (1.5, 1)])):
        hit = sweep(shape, (0.0, 3.0), tiles)
        assert hit is not None and hit.normal == (0.0, -1.0)
        assert hit.point[1] == 2.0
    with pytest.raises(TypeError):
        sweep(Sphere((0, 0, 0), 1), (1, 0, 0), tiles)
    with pytest.raises(TypeError):
        contact(Sphere((0, 0, 0), 1), tiles)


def test_the_docs_examples_run() -> None:
    """Every python block of docs/level.md runs (its asserts are the checks)."""
    from pathlib import Path

    text = (Path(__file__).resolve().parent.parent / "docs" / "level.md").read_text()
    blocks = text.split("```python\n")[1:]
    assert len(blocks) >= 4
    for k, block in enumerate(blocks):
        exec(compile(block.split("```")[0], f"docs/level.md python block {k}", "exec"), {})


# ------------------------------------------------------------------ rays: exact values

SCALES = [1e-3, 0.37, 1.0, 1e4]
ORIGINS = [(0.0, 0.0), (1e6, 1e6), (-1e6, 3.5)]


def _close(got: float, exact: Fraction, coords: float) -> bool:
    """Within the rounding of the coordinates: a few ulps of the largest one."""
    return abs(Fraction(got) - exact) <= 8 * EPS * Fraction(coords)


@pytest.mark.parametrize("cell", SCALES)
@pytest.mark.parametrize("origin", ORIGINS)
def test_rays_down_onto_seams_and_along_the_floor(cell: float, origin: tuple) -> None:
    tiles = TileMap(FLOOR, cell, origin)
    ox, oy = origin
    floor_y = oy + 2 * cell
    coords = max(abs(ox), abs(oy), 8 * cell)
    for seam in range(0, 9):
        # straight down exactly on a seam (and on the map's two outer edges)
        x = ox + seam * cell
        hit = raycast(Ray((x, oy), (0.0, 1.0)), tiles)
        assert hit is not None and not hit.started_inside
        assert _close(hit.distance, Fraction(floor_y) - Fraction(oy), coords)
        assert hit.normal == (0.0, -1.0)
    # grazing: along the floor's top face from the left, it first touches the map's corner
    start = ox - 3 * cell
    hit = raycast(Ray((start, floor_y), (1.0, 0.0)), tiles)
    assert hit is not None
    assert _close(hit.distance, Fraction(ox) - Fraction(start), coords)
    assert hit.normal == (-1.0, 0.0)
    # a hair above the face it passes over everything
    above = floor_y - max(cell * 1e-9, 1e-15 * coords * 64)
    assert raycast(Ray((start, above), (1.0, 0.0), 100 * cell), tiles) is None


@pytest.mark.parametrize("cell", SCALES)
@pytest.mark.parametrize("origin", ORIGINS)
def test_rays_through_tile_corners(cell: float, origin: tuple) -> None:
    # two tiles touching only at a corner, and a diagonal ray aimed exactly at that corner
    tiles = TileMap(np.array([[0, 0, 0], [0, 1, 0], [0, 0, 1]], bool), cell, origin)
    ox, oy = origin
    coords = max(abs(ox), abs(oy), 3 * cell)
    ray = Ray((ox, oy), (1.0, 1.0))
    hit = raycast(ray, tiles)
    s = ray.direction[0]
    assert hit is not None and not hit.started_inside
    # the first tile's corner (1, 1): entered where the later slab is entered
    exact = max((Fraction(ox + cell) - Fraction(ox)) / Fraction(s),
                (Fraction(oy + cell) - Fraction(oy)) / Fraction(ray.direction[1]))
    assert _close(hit.distance, exact, coords / s)
    assert hit.normal in ((-1.0, 0.0), (0.0, -1.0))
    # from inside along the diagonal toward the shared corner: the two tiles meet only at a
    # point, so the region goes on past it exactly when the (rounded) ray passes through it
    inner = Ray((ox + 1.5 * cell, oy + 1.5 * cell), (1.0, 1.0))
    hit = raycast(inner, tiles)
    assert hit is not None and hit.started_inside
    (rx, ry), (dx, dy) = (Fraction(v) for v in inner.origin), (Fraction(v) for v in
                                                                inner.direction)
    cx, cy = Fraction(ox + 2 * cell), Fraction(oy + 2 * cell)
    at_x, at_y = (cx - rx) / dx, (cy - ry) / dy
    if at_x == at_y:
        exact = min((Fraction(ox + 3 * cell) - rx) / dx, (Fraction(oy + 3 * cell) - ry) / dy)
    else:
        exact = min(at_x, at_y)
    assert _close(hit.exit_distance, exact, coords / s)


@pytest.mark.parametrize("cell", SCALES)
@pytest.mark.parametrize("origin", ORIGINS)
def test_a_ray_along_a_seam_inside_the_solid(cell: float, origin: tuple) -> None:
    # along the grid line between two solid rows: inside (on both tiles' boundaries) all the
    # way, and out where the rows end
    solid = np.zeros((4, 6), bool)
    solid[1:3, 1:5] = True
    tiles = TileMap(solid, cell, origin)
    ox, oy = origin
    coords = max(abs(ox), abs(oy), 6 * cell)
    start = ox + 1.25 * cell
    hit = raycast(Ray((start, oy + 2 * cell), (1.0, 0.0)), tiles)
    assert hit is not None and hit.started_inside and hit.distance == 0.0
    assert _close(hit.exit_distance, Fraction(ox + 5 * cell) - Fraction(start), coords)
    # a ball swept along the same seam from outside meets the region's side, exactly
    ball = Circle((ox - cell, oy + 2 * cell), 0.25 * cell)
    hit2 = sweep(ball, (4 * cell, 0.0), tiles)
    assert hit2 is not None and hit2.normal == (-1.0, 0.0)
    exact = (Fraction(ox + cell) - Fraction(0.25 * cell) - Fraction(ox - cell)) / Fraction(4 * cell)
    assert abs(Fraction(hit2.fraction) - exact) <= 16 * EPS * Fraction(coords) / Fraction(cell)
