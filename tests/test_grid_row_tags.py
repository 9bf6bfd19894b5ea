"""The grid collider rows' own handles and codes, and the segments' precomputed unit directions.

A grid entry names its collider's row, and the row's column 2 holds the collider's handle and a
code for how the walk tests it (``code + (handle << ROW_CODE_BITS)``, an exact float:
:func:`swept._kernels.grid.row_tag`), so the walk reads no list of handles and no kind from the
tags; after the rows, each segment's unit direction (three a row, :func:`swept._kernels.grid.
unit_at`) stands in for the two divisions, square root and two more of its unit vector when the
walk's best is a segment. These tests guard that every row decodes to its collider's handle and
kind (handles far past the rows' count included), that the directions are ``_unit2``'s bits,
and that a hit's normal through them is :func:`swept.raycast`'s bit for bit.
"""

from __future__ import annotations

import math
import struct

import numpy as np

from swept import AABB, Capsule, Circle, Polygon, Ray, Segment, World, raycast
from swept._kernels import grid as _grid
from swept._kernels import scene as _scene

#: The code each gridded kind's row must carry.
CODES = {_scene.KIND_SEGMENT: _grid.ROW_SEGMENT, _scene.KIND_AABB2: _grid.ROW_BOX,
         _scene.KIND_CIRCLE: _grid.ROW_CIRCLE, _scene.KIND_POLYGON: _grid.ROW_POLYGON,
         _scene.KIND_CAPSULE2: _grid.ROW_CAPSULE}


def _bits(values: tuple[float, ...]) -> tuple[bytes, ...]:
    """Floats as their bytes (so that 0.0 and -0.0 differ)."""
    return tuple(struct.pack("<d", float(v)) for v in values)


def _unit(x: float, y: float) -> tuple[float, float]:
    """``ray_segment``'s unit direction of ``(x, y)`` (``ray._unit2``, a callee kernel: scaled
    by the larger component, then divided by the length), written out in Python."""
    m = max(abs(x), abs(y))
    x /= m
    y /= m
    k = math.sqrt(x * x + y * y)
    return x / k, y / k


def _kinds_world(seed: int) -> World:
    """Every gridded kind, 60 of each, scattered over 200 x 200, after 300 removed colliders
    (so that handles do not start at 0 nor follow the rows' order)."""
    rng = np.random.default_rng(seed)
    w = World()
    spare = [w.add(Circle((-50.0, -50.0), 1.0)) for _ in range(300)]
    for p in rng.uniform(0.0, 200.0, (60, 2)):
        d = rng.uniform(-6.0, 6.0, 2)
        w.add(Segment(p, p + d))
        w.add(AABB(p + 1.0, p + rng.uniform(1.5, 5.0, 2)))
        w.add(Circle(p - 2.0, float(rng.uniform(0.3, 3.0))))
        w.add(Polygon([p + (0.0, 3.0), p + (3.0, 3.0), p + (1.5, 5.0)]))
        w.add(Capsule(p - d, p - 0.5 * d, 0.7))
    for h in spare:
        w.remove(h)
    w.raycast_many(np.zeros((1, 2)), np.ones((1, 2)))
    assert w._broadphase is not None and w._broadphase.use_grid
    return w


def test_every_grid_row_holds_its_colliders_handle_and_kind_code() -> None:
    w = _kinds_world(3)
    _frame, _dims, _start, _items, rows, handles = w._grid
    assert int(handles.min()) >= 300
    for e, h in enumerate(handles):
        tag = rows[e, 2]
        assert tag == float(int(tag))
        code, handle = _grid.row_tag(tag)
        assert handle == int(h)
        assert code == CODES[int(w._tags[h, _scene.KIND])]


def test_a_handle_near_two_to_the_fifty_decodes_exactly() -> None:
    # the largest handles a row can hold: code + (h << 3) stays below 2^53
    for h in (2**50 - 1, 2**49 + 12345, 7):
        for code in CODES.values():
            assert _grid.row_tag(float(code + (h << _grid.ROW_CODE_BITS))) == (code, h)


def test_the_segments_unit_directions_are_unit2s_bits() -> None:
    w = _kinds_world(5)
    _frame, _dims, _start, _items, rows, handles = w._grid
    m = handles.shape[0]
    assert rows.shape[0] == m + (m + _grid.UNITS_A_ROW - 1) // _grid.UNITS_A_ROW
    segments = 0
    for e, h in enumerate(handles):
        at, col = _grid.unit_at(e)
        unit = (rows[m + at, col], rows[m + at, col + 1])
        if int(w._tags[h, _scene.KIND]) != _scene.KIND_SEGMENT:
            assert unit == (0.0, 0.0)
            continue
        segments += 1
        ex = w._rows[h, 2] - w._rows[h, 0]
        ey = w._rows[h, 3] - w._rows[h, 1]
        assert _bits(unit) == _bits(_unit(ex, ey))
    assert segments == 60


def _rays(seed: int, n: int, lo: float, hi: float) -> tuple[np.ndarray, np.ndarray]:
    """``n`` random origins in ``[lo, hi)`` squared and unit directions as a Ray holds them
    (the batch and the Ray then normalise alike)."""
    rng = np.random.default_rng(seed)
    origins = rng.uniform(lo, hi, (n, 2))
    angles = rng.uniform(0.0, 2.0 * np.pi, n)
    directions = np.array([tuple(Ray((0.0, 0.0), (np.cos(a), np.sin(a))).direction)
                           for a in angles])
    return origins, directions


def test_segment_hits_through_the_grid_have_raycasts_normal_bit_for_bit() -> None:
    w = _kinds_world(7)
    origins, directions = _rays(11, 400, -10.0, 210.0)
    batch = w.raycast_many(origins, directions, 300.0)
    seen = 0
    for i in range(400):
        h = int(batch.handle[i])
        if h < 0 or not isinstance(w.shape(h), Segment):
            continue
        seen += 1
        ray = Ray(tuple(origins[i]), tuple(directions[i]), 300.0)
        alone = raycast(ray, w.shape(h))
        assert alone is not None
        assert _bits(tuple(batch.normal[i])) == _bits(tuple(alone.normal))
        assert _bits(tuple(batch.point[i])) == _bits(tuple(alone.point))
        one = w.raycast(ray)
        assert one is not None and one.handle == h
        assert _bits(tuple(one.normal)) == _bits(tuple(alone.normal))
    assert seen >= 20


def _segments_world(m: int) -> World:
    """``m`` random segments (length 1 to 8) over 400 x 400, added in bulk, gridded."""
    rng = np.random.default_rng(m)
    a = rng.uniform(0.0, 400.0, (m, 2))
    b = a + rng.uniform(-6.0, 6.0, (m, 2))
    w = World()
    w.add_segments(np.hstack([a, b]))
    w.raycast_many(np.zeros((1, 2)), np.ones((1, 2)))
    assert w._broadphase is not None and w._broadphase.use_grid
    return w


def test_the_unit_directions_block_is_built_only_on_a_grid_that_reads_it() -> None:
    """The segments' unit directions block (``grid.unit_at``) follows the collider rows only on
    a grid of at most ``GRID_UNITS_MAX_COLLIDERS`` colliders (``grid.has_units``), the only
    grids whose walk reads it; a larger grid's walk works each best segment's direction out,
    and answers with the same bits."""
    bound = _grid.GRID_UNITS_MAX_COLLIDERS
    for m, block in ((bound, (bound + _grid.UNITS_A_ROW - 1) // _grid.UNITS_A_ROW),
                     (bound + 1, 0)):
        w = _segments_world(m)
        _frame, _dims, _start, _items, rows, handles = w._grid
        assert handles.shape[0] == m
        assert rows.shape[0] == m + block
        assert _grid.has_units(m) == (block > 0)
        origins, directions = _rays(5, 300, 0.0, 400.0)
        batch = w.raycast_many(origins, directions, 100.0)
        seen = 0
        for i in range(300):
            h = int(batch.handle[i])
            if h < 0:
                continue
            seen += 1
            alone = raycast(Ray(tuple(origins[i]), tuple(directions[i]), 100.0), w.shape(h))
            assert alone is not None
            assert _bits(tuple(batch.normal[i])) == _bits(tuple(alone.normal))
            assert _bits(tuple(batch.point[i])) == _bits(tuple(alone.point))
        assert seen >= 200
