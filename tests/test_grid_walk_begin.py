"""A grid walk starts in the cell of its origin, worked out from the origin alone when the
ray starts in the grid's box (``t0`` 0), so that the first cell's load waits on no division by
the direction (:func:`swept._kernels.grid.walk_begin`); a ray from outside starts where it
enters. These tests guard that the start is the cell of ``o + t0 d`` as before, for origins on
cell lines, on the grid's edges and corners (the far edge clamped into the last cell), at
``-0.0``, just outside, and for rays along the axes, at scales 1e-6 to 1e7; and that the
World answers rays starting on its cell lines as the brute force does.
"""

from __future__ import annotations

import math

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from swept import Ray, Segment, raycast
from swept._kernels.bvh import inverse_direction
from swept._kernels.grid import walk_begin
from swept.world import World


def _clip(o: float, inv: float, lo: float, hi: float, t0: float, t1: float
          ) -> tuple[float, float]:
    """The ray interval [t0, t1] clipped to one axis' slab, as the grid's clip works it out
    (``bvh._clip_slab``, a callee kernel, which Python does not call): the same operations."""
    if math.isinf(inv):
        # parallel to the slabs
        return (t0, t1) if lo <= o <= hi else (math.inf, -math.inf)
    near, far = ((lo - o) * inv, (hi - o) * inv) if inv >= 0.0 else ((hi - o) * inv,
                                                                       (lo - o) * inv)
    return (near if near > t0 else t0), (far if far < t1 else t1)


def _start_cell(x0: float, y0: float, cell: float, nx: int, ny: int, ox: float, oy: float,
                dx: float, dy: float, limit: float) -> tuple[bool, int, int]:
    """The walk's start as a point at ``t0`` along the ray (the formula before the change)."""
    ix, iy = inverse_direction(dx), inverse_direction(dy)
    t0, t1 = _clip(ox, ix, x0, x0 + nx * cell, 0.0, limit)
    t0, t1 = _clip(oy, iy, y0, y0 + ny * cell, t0, t1)
    if t0 > t1:
        return False, 0, 0
    cx = min(max(int(math.floor((ox + t0 * dx - x0) / cell)), 0), nx - 1)
    cy = min(max(int(math.floor((oy + t0 * dy - y0) / cell)), 0), ny - 1)
    return True, cx, cy


def _check(x0: float, y0: float, cell: float, nx: int, ny: int, ox: float, oy: float,
           angle: float, limit: float = math.inf) -> None:
    dx, dy = math.cos(angle), math.sin(angle)
    entered, walk = walk_begin(x0, y0, cell, nx, ny, ox, oy, dx, dy, inverse_direction(dx),
                               inverse_direction(dy), limit)
    expected = _start_cell(x0, y0, cell, nx, ny, ox, oy, dx, dy, limit)
    assert entered == expected[0]
    if entered:
        assert (walk[0], walk[1]) == expected[1:]


ANGLES = [k * math.pi / 4 for k in range(8)] + [0.3, 2.0, -1.1, 1e-9]


@pytest.mark.parametrize("scale", [1e-6, 1.0, 1e7])
@pytest.mark.parametrize("angle", ANGLES)
def test_origins_on_lines_edges_and_corners(scale: float, angle: float) -> None:
    x0, y0, cell, nx, ny = -3.0 * scale, 2.0 * scale, 0.5 * scale, 8, 5
    xs = [x0 + k * cell for k in range(nx + 1)] + [x0 - cell * 1e-9, x0 + nx * cell * 1.0000001]
    ys = [y0 + k * cell for k in range(ny + 1)] + [y0 - cell * 1e-9]
    for ox in xs:
        for oy in ys:
            # on a cell line, a grid edge or corner (the far ones clamped), or just outside
            _check(x0, y0, cell, nx, ny, ox, oy, angle)
    # the origin at -0.0 on a grid whose edge is 0
    _check(0.0, 0.0, scale, 4, 4, -0.0, -0.0, angle)
    _check(0.0, 0.0, scale, 4, 4, -0.0, 2.5 * scale, angle)


@settings(max_examples=300, deadline=None)
@given(st.floats(-20.0, 20.0), st.floats(-20.0, 20.0), st.floats(-math.pi, math.pi),
       st.sampled_from([math.inf, 0.0, 1e-12, 3.0, 40.0]))
def test_any_origin_starts_where_the_ray_enters(ox: float, oy: float, angle: float,
                                                 limit: float) -> None:
    # inside, outside (entering, missing, or out of reach), and a zero reach
    _check(-10.0, -6.0, 1.25, 16, 10, ox, oy, angle, limit)


def test_world_rays_from_cell_lines_agree_with_brute_force() -> None:
    # a grid of short segments; rays start on the grid's cell lines and corners, in every
    # direction: the World's answer is the nearest segment's
    rng = np.random.default_rng(7)
    shapes = []
    world = World()
    for _ in range(400):
        a = rng.uniform(0.0, 100.0, 2)
        b = a + rng.uniform(-4.0, 4.0, 2)
        shapes.append(Segment(tuple(a), tuple(b)))
        world.add(shapes[-1])
    world.raycast_many(np.zeros((1, 2)), np.ones((1, 2)))
    bp = world._broadphase
    assert bp is not None and bp.use_grid
    lo = min(min(s.a.x, s.b.x) for s in shapes), min(min(s.a.y, s.b.y) for s in shapes)
    origins, directions = [], []
    for i in range(12):
        for j in range(12):
            for angle in ANGLES:
                origins.append((lo[0] + i * bp.cell, lo[1] + j * bp.cell))
                directions.append((math.cos(angle), math.sin(angle)))
    batch = world.raycast_many(np.array(origins), np.array(directions))
    for k, (o, d) in enumerate(zip(origins, directions)):
        ray = Ray(o, d)
        best_h, best_t = -1, math.inf
        for h, shape in enumerate(shapes):
            hit = raycast(ray, shape)
            if hit is not None and hit.distance < best_t:
                best_h, best_t = h, hit.distance
        assert batch.handle[k] == best_h
        if best_h >= 0:
            assert batch.distance[k] == best_t
