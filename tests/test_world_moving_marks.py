"""The grid cells marked for the World's moving colliders (``swept._kernels.grid.bin_moving``).

A ray walking the static grid reads a coarse cell's list of moving colliders only in a grid cell
whose start carries the ``CELL_MOVING`` bit: the cells some moving collider's box (grown by the
grid margin) touches. These tests guard that mechanism: after every move the marked cells are
exactly the touched ones (a stale mark only costs time, a missing one loses hits), a fallback to
the moving tree leaves no mark, and rays at moving boxes' corners and edges on cell lines and
grazing moving circles equal brute force, the batch row equal to the scalar ray bit for bit.
"""

from __future__ import annotations

import math
from typing import Any

import numpy as np
import pytest

from shared import rays_equal_brute_force
from swept import AABB, Circle, Ray, Segment
from swept._kernels import grid as kgrid
from swept._kernels import scene as kscene
from swept.constants import GRID_MARGIN
from swept.world import World

#: Static segments on a 40 x 40 lattice over [0, 400]^2: the World grids them (0.5 to 1 a cell
#: of side 10 or so), and the moving colliders go in its coarse cells.
SIDE = 40


def _static_world(scale: float = 1.0, seed: int = 24) -> tuple[World, list[Any]]:
    """A gridded World of short static segments on the lattice, scaled by ``scale``."""
    world = World()
    shapes: list[Any] = []
    rng = np.random.default_rng(seed)
    for i in range(SIDE):
        for j in range(SIDE):
            if (i + j) % 3:
                continue
            a = np.array([10.0 * i + 1.0, 10.0 * j + 1.0])
            seg = Segment(a * scale, (a + rng.uniform(2.0, 8.0, 2)) * scale)
            world.add(seg)
            shapes.append(seg)
    return world, shapes


def _world(moving: list[Any]) -> tuple[World, list[Any], list[int]]:
    """:func:`_static_world`, then ``moving`` shapes added moving (and their handles)."""
    world, shapes = _static_world()
    handles = []
    for shape in moving:
        handles.append(world.add(shape, moving=True))
        shapes.append(shape)
    return world, shapes, handles


def _marks(world: World) -> tuple[set[int], set[int], np.ndarray, Any]:
    """White box: the cells whose start carries the bit, the cells the block lists, the
    starts without the bit, and the grid's frame ``(x0, y0, cell, nx, ny)``."""
    links = world._sync().links
    nodes = world._sync().nodes
    nx, ny = int(links[kscene.H_GRID_NX]), int(links[kscene.H_GRID_NY])
    assert nx > 0, "the scene must have a grid"
    cells = int(links[kscene.H_GRID_CELLS])
    # (the starts are int32 values: grid.grid_block)
    start = links.view(np.int32)[cells:cells + nx * ny + 1].astype(np.int64)
    flagged = {int(c) for c in np.flatnonzero(start >= kgrid.CELL_MOVING)}
    block = int(links[kscene.H_MOVING_GRID])
    at = (block + kgrid.MG_HEAD + int(links[block + kgrid.MG_OUTSIDE_CAP])
          + int(links[block + kgrid.MG_NX]) * int(links[block + kgrid.MG_NY]) + 1
          + int(links[block + kgrid.MG_CAPACITY]))
    listed = {int(c) for c in links[at:at + int(links[block + kgrid.MG_MARKED])]}
    frame = int(links[kscene.H_FRAME])
    return flagged, listed, start & kgrid.CELL_START, (
        float(nodes[frame, 0]), float(nodes[frame, 1]), float(nodes[frame, 2]), nx, ny)


def _touched(boxes: list[AABB], frame: Any) -> set[int]:
    """The grid cells the boxes, grown by GRID_MARGIN of a cell, touch (as binned)."""
    x0, y0, cell, nx, ny = frame
    g = GRID_MARGIN * cell
    out: set[int] = set()
    for box in boxes:
        lo, hi = np.asarray(box.min), np.asarray(box.max)
        ax = min(max(math.floor((lo[0] - g - x0) / cell), 0), nx - 1)
        bx = min(max(math.floor((hi[0] + g - x0) / cell), 0), nx - 1)
        ay = min(max(math.floor((lo[1] - g - y0) / cell), 0), ny - 1)
        by = min(max(math.floor((hi[1] + g - y0) / cell), 0), ny - 1)
        out |= {cx + nx * cy for cy in range(ay, by + 1) for cx in range(ax, bx + 1)}
    return out


def _box_of(shape: Any) -> AABB:
    """A moving circle's or box's bounding box."""
    if isinstance(shape, Circle):
        c = np.asarray(shape.center)
        return AABB(c - shape.radius, c + shape.radius)
    return shape


def test_the_marked_cells_are_exactly_those_the_moving_boxes_touch_after_every_move() -> None:
    """Each sync clears the last marks and marks the cells of the boxes now: the bit and the
    block's list name the same cells, exactly the touched ones, and the static starts are
    unchanged under the bit."""
    moving = [Circle((50.0 + 70.0 * i, 200.0), 3.0 + i) for i in range(5)]
    moving.append(AABB((300.0, 300.0), (312.0, 306.0)))
    world, shapes, handles = _world(moving)
    links = world._sync().links
    assert links[int(links[kscene.H_MOVING_GRID]) + kgrid.MG_MARKED_CAP] > 0
    flagged, listed, start0, frame = _marks(world)
    assert flagged == listed == _touched([_box_of(s) for s in moving], frame)
    rng = np.random.default_rng(5)
    for _step in range(4):
        for k, h in enumerate(handles):
            s = shapes[h]
            if isinstance(s, Circle):
                shapes[h] = Circle(np.clip(np.asarray(s.center) + rng.uniform(-80, 80, 2), 20,
                                           380), s.radius)
            else:
                shift = rng.uniform(-60, 60, 2)
                shapes[h] = AABB(np.asarray(s.min) + shift, np.asarray(s.max) + shift)
            world.move(h, shapes[h])
            moving[k] = shapes[h]
        flagged, listed, start, frame = _marks(world)
        assert flagged == listed == _touched([_box_of(s) for s in moving], frame)
        np.testing.assert_array_equal(start, start0)


def test_no_cell_stays_marked_when_the_rays_fall_back_to_the_moving_tree() -> None:
    """A moving collider grown past the reserved room: the block is not gridded, no cell keeps
    the bit (a walk would read a list that is not there), and the rays equal brute force;
    shrunk back, the marks return."""
    moving = [Circle((100.0 + 40.0 * i, 120.0), 5.0) for i in range(4)]
    world, shapes, handles = _world(moving)
    assert _marks(world)[0]
    shapes[handles[0]] = Circle((200.0, 200.0), 190.0)
    world.move(handles[0], shapes[handles[0]])
    flagged, listed, _start, _frame = _marks(world)
    links = world._sync().links
    assert links[int(links[kscene.H_MOVING_GRID]) + kgrid.MG_GRIDDED] == 0
    assert flagged == set() and listed == set()
    rng = np.random.default_rng(9)
    o = rng.uniform(-20.0, 420.0, (60, 2))
    a = rng.uniform(0.0, 2.0 * math.pi, 60)
    d = np.stack([np.cos(a), np.sin(a)], axis=1)
    rays_equal_brute_force(shapes, world, o, d, np.full(60, 600.0))
    shapes[handles[0]] = Circle((200.0, 200.0), 5.0)
    world.move(handles[0], shapes[handles[0]])
    flagged, listed, _start, frame = _marks(world)
    assert flagged == listed == _touched([_box_of(shapes[h]) for h in handles], frame)
    rays_equal_brute_force(shapes, world, o, d, np.full(60, 600.0))


def _corner_rays(lo: np.ndarray, hi: np.ndarray, scale: float
                 ) -> tuple[np.ndarray, np.ndarray]:
    """Rays through a box's corners (from several sides), along its edges and grazing them."""
    origins, directions = [], []
    corners = [lo, hi, np.array([lo[0], hi[1]]), np.array([hi[0], lo[1]])]
    for c in corners:
        for ang in np.linspace(0.0, 2.0 * math.pi, 16, endpoint=False):
            d = np.array([math.cos(ang), math.sin(ang)])
            origins.append(c - 37.0 * scale * d)
            directions.append(d)
    for y in (lo[1], hi[1]):
        origins.append(np.array([lo[0] - 50.0 * scale, y]))
        directions.append(np.array([1.0, 0.0]))
    for x in (lo[0], hi[0]):
        origins.append(np.array([x, hi[1] + 50.0 * scale]))
        directions.append(np.array([0.0, -1.0]))
    return np.array(origins), np.array(directions)


@pytest.mark.parametrize("scale", [1e-6, 1.0, 1e6])
def test_rays_at_moving_boxes_corners_on_cell_lines_and_grazing_circles(scale: float) -> None:
    """Moving boxes whose corners sit on grid cell lines (the marks' edge), rays through
    those corners, along the edges and grazing a moving circle, at scales 1e-6 to 1e6: equal
    brute force, and each batch row is its scalar ray bit for bit."""
    world, shapes = _static_world(scale, 31)
    frame = _marks_frame(world)
    x0, y0, cell = frame[0], frame[1], frame[2]
    # a box from one cell corner to another, and a circle whose box does the same
    lo = np.array([x0 + 7 * cell, y0 + 11 * cell])
    hi = np.array([x0 + 9 * cell, y0 + 12 * cell])
    box = AABB(lo, hi)
    centre = np.array([x0 + 20 * cell, y0 + 20 * cell])
    circle = Circle(centre, cell)
    for s in (box, circle):
        world.add(s, moving=True)
        shapes.append(s)
    o, d = _corner_rays(lo, hi, scale)
    # tangent to the circle: along the lines x = c +- r and y = c +- r
    r = circle.radius
    tangent_o = np.array([[centre[0] - r, centre[1] - 40 * scale], [centre[0] + r,
                          centre[1] + 40 * scale], [centre[0] - 40 * scale, centre[1] + r]])
    tangent_d = np.array([[0.0, 1.0], [0.0, -1.0], [1.0, 0.0]])
    o = np.concatenate([o, tangent_o])
    d = np.concatenate([d, tangent_d])
    md = np.full(o.shape[0], 500.0 * scale)
    rays_equal_brute_force(shapes, world, o, d, md, unit=scale)
    batch = world.raycast_many(o, d, md)
    for k in range(o.shape[0]):
        one = world.raycast(Ray(o[k], d[k], float(md[k])))
        if one is None:
            assert batch.handle[k] == -1
            continue
        assert batch.handle[k] == one.handle
        assert batch.distance[k] == one.distance
        assert tuple(batch.point[k]) == tuple(one.point)
        assert tuple(batch.normal[k]) == tuple(one.normal)
    # the moving grid, its cells marked, is what the rays walked (not the moving tree)
    links = world._sync().links
    assert links[int(links[kscene.H_MOVING_GRID]) + kgrid.MG_GRIDDED] == 1
    assert links[int(links[kscene.H_MOVING_GRID]) + kgrid.MG_MARKED_CAP] > 0


def _marks_frame(world: World) -> tuple[float, float, float, int, int]:
    """The grid's frame of a World with static colliders only (none marked yet)."""
    links = world._sync().links
    nodes = world._sync().nodes
    frame = int(links[kscene.H_FRAME])
    return (float(nodes[frame, 0]), float(nodes[frame, 1]), float(nodes[frame, 2]),
            int(links[kscene.H_GRID_NX]), int(links[kscene.H_GRID_NY]))


def test_moving_colliders_too_large_for_marks_are_read_in_every_cell() -> None:
    """Moving colliders whose boxes would mark more than MOVING_GRID_MARKS_PER_COLLIDER cells
    each: the block reserves no marks, none is set, the rays still meet them in the grid (not
    the moving tree), read at every cell, and equal brute force, before and after a move."""
    from swept.constants import MOVING_GRID_MARKS_PER_COLLIDER

    moving = [Circle((60.0 + 90.0 * i, 200.0 + 30.0 * i), 35.0) for i in range(4)]
    world, shapes, handles = _world(moving)
    links = world._sync().links
    block = int(links[kscene.H_MOVING_GRID])
    frame = _marks(world)[3]
    assert len(_touched([_box_of(s) for s in moving], frame)) > (
        MOVING_GRID_MARKS_PER_COLLIDER * len(moving))
    assert links[block + kgrid.MG_MARKED_CAP] == 0
    assert links[block + kgrid.MG_GRIDDED] == 1
    rng = np.random.default_rng(13)
    for step in range(2):
        flagged, listed, _start, _frame = _marks(world)
        assert flagged == set() and listed == set()
        o = rng.uniform(-20.0, 420.0, (60, 2))
        a = rng.uniform(0.0, 2.0 * math.pi, 60)
        d = np.stack([np.cos(a), np.sin(a)], axis=1)
        # and rays aimed at the circles' centres from afar
        aim = np.array([shapes[h].center for h in handles])
        o2 = aim + np.array([[-200.0, 5.0]])
        d2 = np.tile([1.0, 0.0], (len(handles), 1))
        rays_equal_brute_force(shapes, world, np.concatenate([o, o2]),
                               np.concatenate([d, d2]), np.full(60 + len(handles), 600.0))
        for h in handles:
            shapes[h] = Circle(np.asarray(shapes[h].center) + (17.0, -11.0 * step), 35.0)
            world.move(h, shapes[h])
