"""Tile maps: a 2D grid of solid tiles, the level of many 2D games.

``TileMap(solid, cell_size, origin)``: ``solid`` is a (rows, cols) boolean grid; tile (r, c)
covers ``x`` in ``[ox + c w, ox + (c + 1) w]`` and ``y`` in ``[oy + r h, oy + (r + 1) h]``
(row r along +y: with the 2D convention's y down, row 0 is the top row).

The solid region is the union of the solid tiles. Its boundary is kept as closed outlines
(:meth:`TileMap.outlines`): only the edges between a solid tile and an empty one (or the map's
edge), joined end to end and merged where they run straight on, so two flush tiles share no
edge at all. A ray, a contact or a slide along a flat row of tiles therefore never meets an
internal edge (the tile version of :class:`~swept.Chain`'s smooth joins; the outlines *are*
chains, :meth:`TileMap.chains`). Each outline keeps the solid on its left when walked with y
up (counter-clockwise around solid, clockwise around a hole); two solid tiles that touch only
at a corner belong to separate outlines.

Queries here: :func:`swept.raycast` (a ray that starts inside the solid region reports
``started_inside`` with its exit distance, as a solid box does; the grid walk is compiled,
:func:`swept._kernels.tilemap.ray_tiles`) and :func:`swept.closest_point` (a point inside is
its own closest point). Sweeps, contacts, distances and the character controller answer
against the outline in :mod:`swept.level.tile_queries`. A World takes the outlines:
``world.add(chain)`` for each of :meth:`TileMap.chains` (``world.add(tile_map)`` says so).
"""

from __future__ import annotations

import math
from typing import Any

import numpy as np

from .._kernels.tilemap import closed_contains, ray_tiles
from ..chain import Chain
from ..dispatch import CLOSEST_POINT, RAYCAST
from ..distance import closest_point
from ..raycast import _AABB2_NORMALS
from ..results import RayHit
from ..shapes import AABB, Ray
from ..vec import Vec2, as_finite, as_vec2

__all__ = ["TileMap", "MAX_TILES"]

#: The most tiles a map may have (rows times columns): the outline is traced in Python, about
#: a microsecond a boundary edge. Not measured: a 4096 x 4096 map.
MAX_TILES = 4096 * 4096

# unit steps along +x, +y, -x, -y (grid coordinates)
_STEPS = ((1, 0), (0, 1), (-1, 0), (0, -1))


def _boundary_edges(solid: np.ndarray) -> dict[tuple[int, int], list[int]]:
    """Every boundary edge of the solid tiles as a unit step from a grid corner, keyed by the
    corner: ``{(x, y): [step index, ...]}``, directed so the solid lies to the left when y is
    up (to the step direction turned by +90 degrees in grid coordinates: (dx, dy) -> (-dy,
    dx))."""
    rows, cols = solid.shape
    pad = np.zeros((rows + 2, cols + 2), bool)
    pad[1:-1, 1:-1] = solid
    out: dict[tuple[int, int], list[int]] = {}
    # horizontal edges on grid line y = r between rows r - 1 and r
    change = pad[1:, 1:-1] != pad[:-1, 1:-1]
    for r, c in zip(*np.nonzero(change)):
        if pad[r + 1, c + 1]:
            # solid below (row r, +y): walk +x, so +y is on the left
            out.setdefault((int(c), int(r)), []).append(0)
        else:
            # solid above (row r - 1): walk -x from x = c + 1
            out.setdefault((int(c) + 1, int(r)), []).append(2)
    # vertical edges on grid line x = c between columns c - 1 and c
    change = pad[1:-1, 1:] != pad[1:-1, :-1]
    for r, c in zip(*np.nonzero(change)):
        if pad[r + 1, c + 1]:
            # solid to the right (column c, +x): walk -y from y = r + 1
            out.setdefault((int(c), int(r) + 1), []).append(3)
        else:
            # solid to the left (column c - 1): walk +y
            out.setdefault((int(c), int(r)), []).append(1)
    return out


def _turn(step: int, outs: list[int]) -> int:
    """The step to take next, arriving by ``step``, among ``outs``: turn toward the solid
    (left, with y up) if possible, else go straight on, else turn away."""
    for turn in (1, 0, 3):
        if (step + turn) % 4 in outs:
            return (step + turn) % 4
    raise AssertionError("a boundary corner with no way on")  # every corner is balanced


def _trace(edges: dict[tuple[int, int], list[int]]) -> list[list[tuple[int, int]]]:
    """The closed outlines the edges form, as corner lists with straight runs merged. Where
    two outlines meet at a corner (tiles touching diagonally), each turns toward its solid
    side, so they stay separate."""
    loops: list[list[tuple[int, int]]] = []
    total = sum(len(v) for v in edges.values())
    # corners only leave the table: the smallest one left is the next in sorted order
    order = sorted(edges)
    cursor = 0
    for _ in range(total):
        if not edges:
            break
        while order[cursor] not in edges:
            cursor += 1
        start = order[cursor]
        first = edges[start][0]
        step = first
        x, y = start
        corners: list[tuple[int, int]] = []
        # every edge is walked once: a loop is at most every edge left
        for _ in range(total):
            outs = edges[(x, y)]
            outs.remove(step)
            if not outs:
                del edges[(x, y)]
            corners.append((x, y))
            x, y = x + _STEPS[step][0], y + _STEPS[step][1]
            if (x, y) == start and _turn(step, edges.get(start, []) + [first]) == first:
                # back where it began, about to take its first edge again: closed
                break
            step = _turn(step, edges[(x, y)])
        loops.append(_merge_straight(corners))
    return loops


def _merge_straight(corners: list[tuple[int, int]]) -> list[tuple[int, int]]:
    """The loop without the corners where it runs straight on."""
    n = len(corners)
    keep = []
    for i in range(n):
        ax, ay = corners[i - 1]
        bx, by = corners[i]
        cx, cy = corners[(i + 1) % n]
        if (bx - ax) * (cy - by) - (by - ay) * (cx - bx) != 0:
            # the outline turns here
            keep.append(corners[i])
    return keep


class TileMap:
    """A grid of solid tiles (2D): ``TileMap(solid, cell_size, origin=(0, 0))``.

    ``solid``: (rows, cols) of booleans (or 0 / 1), at least one row and one column and at most
    :data:`MAX_TILES` tiles. ``cell_size``: a tile's width and height (one number for square
    tiles, or ``(w, h)``), > 0. ``origin``: the corner of tile (0, 0). Immutable.
    """

    __slots__ = ("solid", "cell_size", "origin", "_grid_outlines", "_outlines", "_chains",
                 "_index", "_aabb")
    dim = 2
    solid: np.ndarray
    cell_size: Vec2
    origin: Vec2
    _grid_outlines: tuple[tuple[tuple[int, int], ...], ...] | None
    _outlines: tuple[tuple[Vec2, ...], ...] | None
    _chains: tuple[Chain, ...] | None
    _index: Any
    _aabb: AABB | None

    def __init__(self, solid: Any, cell_size: Any, origin: Any = (0.0, 0.0)) -> None:
        grid = np.asarray(solid)
        if grid.ndim != 2 or grid.shape[0] < 1 or grid.shape[1] < 1:
            raise ValueError(f"solid must be a (rows, cols) grid with at least one tile, got "
                             f"shape {grid.shape}")
        if grid.size > MAX_TILES:
            raise ValueError(f"solid has {grid.size} tiles, more than MAX_TILES = {MAX_TILES}")
        if grid.dtype != np.bool_:
            if not np.issubdtype(grid.dtype, np.integer) or not np.isin(grid, (0, 1)).all():
                raise TypeError("solid must hold booleans (or the integers 0 and 1)")
            grid = grid.astype(bool)
        grid = grid.copy()
        grid.flags.writeable = False
        if isinstance(cell_size, (int, float)) and not isinstance(cell_size, bool):
            w = h = as_finite(cell_size, "cell_size")
        else:
            w, h = as_vec2(cell_size, "cell_size")
        if not (w > 0.0 and h > 0.0):
            raise ValueError(f"cell_size must be > 0, got {cell_size!r}")
        o = as_vec2(origin, "origin")
        far = (abs(o[0]) + w * grid.shape[1], abs(o[1]) + h * grid.shape[0])
        if not max(far) <= 1e50:
            raise ValueError("origin and cell_size put the map beyond MAX_COORDINATE = 1e50")
        object.__setattr__(self, "solid", grid)
        object.__setattr__(self, "cell_size", Vec2(w, h))
        object.__setattr__(self, "origin", o)
        object.__setattr__(self, "_grid_outlines", None)
        object.__setattr__(self, "_outlines", None)
        object.__setattr__(self, "_chains", None)
        #: the outline segments by cell (swept.level.tile_queries), built on first use
        object.__setattr__(self, "_index", None)
        object.__setattr__(self, "_aabb", None)

    def __setattr__(self, name: str, value: Any) -> None:
        raise AttributeError("TileMap is immutable")

    def __repr__(self) -> str:
        rows, cols = self.solid.shape
        return (f"TileMap({rows}x{cols}, {int(self.solid.sum())} solid, cell_size="
                f"{tuple(self.cell_size)}, origin={tuple(self.origin)})")

    def __eq__(self, other: object) -> bool:
        if not isinstance(other, TileMap):
            return NotImplemented
        return (self.cell_size == other.cell_size and self.origin == other.origin
                and np.array_equal(self.solid, other.solid))

    def __hash__(self) -> int:
        return hash(("TileMap", self.solid.tobytes(), self.solid.shape, self.cell_size,
                     self.origin))

    def __reduce__(self) -> tuple[Any, ...]:
        """Pickle and copy as the constructor's arguments."""
        return (TileMap, (self.solid, tuple(self.cell_size), tuple(self.origin)))

    @property
    def reference_point(self) -> Vec2:
        """The point a sweep of the moving map reports as ``position``: its origin."""
        return self.origin

    def translated(self, offset: Any) -> TileMap:
        """The same map moved by ``offset`` (its origin moved)."""
        return TileMap(self.solid, self.cell_size, self.origin + as_vec2(offset, "offset"))

    def corner(self, x: float, y: float) -> Vec2:
        """The point at grid coordinates ``(x, y)`` (columns, rows from the origin)."""
        return Vec2(self.origin[0] + x * self.cell_size[0], self.origin[1] + y * self.cell_size[1])

    @property
    def aabb(self) -> AABB:
        """The box of the solid tiles (of the whole grid when none is solid), built once."""
        if self._aabb is None:
            object.__setattr__(self, "_aabb", self._solid_box())
        assert self._aabb is not None
        return self._aabb

    def _solid_box(self) -> AABB:
        """The box of the solid tiles (of the whole grid when none is solid)."""
        rows_any = np.flatnonzero(self.solid.any(axis=1))
        cols_any = np.flatnonzero(self.solid.any(axis=0))
        if rows_any.size == 0:
            return AABB(self.corner(0, 0), self.corner(*self.solid.shape[::-1]))
        return AABB(self.corner(cols_any[0], rows_any[0]),
                    self.corner(cols_any[-1] + 1, rows_any[-1] + 1))

    def grid_outlines(self) -> tuple[tuple[tuple[int, int], ...], ...]:
        """:meth:`outlines` in grid coordinates (whole numbers: columns, rows), built once."""
        if self._grid_outlines is None:
            loops = _trace(_boundary_edges(np.asarray(self.solid)))
            object.__setattr__(self, "_grid_outlines", tuple(tuple(loop) for loop in loops))
        assert self._grid_outlines is not None
        return self._grid_outlines

    def outlines(self) -> tuple[tuple[Vec2, ...], ...]:
        """The boundary of the solid region as closed loops of corners (module docstring)."""
        if self._outlines is None:
            object.__setattr__(self, "_outlines", tuple(
                tuple(self.corner(x, y) for x, y in loop) for loop in self.grid_outlines()))
        assert self._outlines is not None
        return self._outlines

    def chains(self) -> tuple[Chain, ...]:
        """The outlines as closed :class:`~swept.Chain` loops, for the World and the queries
        that take chains."""
        if self._chains is None:
            object.__setattr__(self, "_chains",
                               tuple(Chain(loop, loop=True) for loop in self.outlines()))
        assert self._chains is not None
        return self._chains

    def tile_at(self, p: Any) -> tuple[int, int] | None:
        """The (row, col) of the tile holding point ``p`` (the lower row or column on a grid
        line), or None outside the grid."""
        q = as_vec2(p, "p")
        c = math.floor((q[0] - self.origin[0]) / self.cell_size[0])
        r = math.floor((q[1] - self.origin[1]) / self.cell_size[1])
        rows, cols = self.solid.shape
        if 0 <= r < rows and 0 <= c < cols:
            return r, c
        return None

    def contains_closed(self, p: Any) -> bool:
        """Whether ``p`` lies in the closed solid region (on it or in it: some solid tile's
        closed square holds it), as a ray or a box counts a touch."""
        q = as_vec2(p, "p")
        (ox, oy), (w, h) = self.origin, self.cell_size
        return bool(closed_contains(self.solid, ox, oy, w, h, q[0], q[1]))

    def contains(self, p: Any) -> bool:
        """Whether ``p`` lies in the interior of the solid region: every tile whose closed
        square holds it is solid (a point on the region's boundary is not inside)."""
        q = as_vec2(p, "p")
        gx = (q[0] - self.origin[0]) / self.cell_size[0]
        gy = (q[1] - self.origin[1]) / self.cell_size[1]
        rows, cols = self.solid.shape
        xs = {math.floor(gx)} | ({math.floor(gx) - 1} if gx == math.floor(gx) else set())
        ys = {math.floor(gy)} | ({math.floor(gy) - 1} if gy == math.floor(gy) else set())
        for r in ys:
            for c in xs:
                if not (0 <= r < rows and 0 <= c < cols and self.solid[r, c]):
                    return False
        return True


def _raycast_tilemap(ray: Ray, tiles: TileMap) -> RayHit | None:
    """The first solid tile the ray touches, exactly as the tile's box answers (a touch
    counts), found by a grid walk (:func:`swept._kernels.tilemap.ray_tiles`). A ray from
    inside the closed solid region starts inside (distance 0, the normal against the ray)
    with the distance where it leaves the region. A hit at the corner two flush tiles share
    takes the face normal, never the internal edge's."""
    (ox, oy), (w, h) = tiles.origin, tiles.cell_size
    (rx, ry), (dx, dy) = ray.origin, ray.direction
    t, face, exit_distance, inside = ray_tiles(tiles.solid, ox, oy, w, h, rx, ry, dx, dy,
                                               ray.max_distance)
    if inside:
        return RayHit(0.0, ray.origin, Vec2(-dx + 0.0, -dy + 0.0), True, exit_distance)
    if t < 0.0:
        return None
    return RayHit(t, Vec2(rx + t * dx, ry + t * dy), _AABB2_NORMALS[face], False, exit_distance)


def _closest_point_tilemap(tiles: TileMap, p: Any) -> Vec2:
    """``p`` itself inside the solid region, else the nearest point of its boundary (``p``
    again when nothing is solid)."""
    q = as_vec2(p, "p")
    if tiles.contains(q):
        return q
    best = q
    best_d = math.inf
    for chain in tiles.chains():
        c = as_vec2(closest_point(chain, q))  # type: ignore[arg-type]
        d = (c - q).length()
        if d < best_d:
            best, best_d = c, d
    return best


RAYCAST.register(TileMap, _raycast_tilemap)
CLOSEST_POINT.register(TileMap, _closest_point_tilemap)
