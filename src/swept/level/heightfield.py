"""Height fields (3D): ``HeightField(heights, scale, origin)``, a terrain on a regular grid.

``heights[i, j]`` is the height of the grid point at ``x = ox + j sx``, ``z = oz + i sz``:
the point ``(ox + j sx, oy + heights[i, j] sy, oz + i sz)``, with y up. Each cell (i, j)
(between rows i, i + 1 and columns j, j + 1) is two triangles split along the diagonal from
grid point (i, j) to (i + 1, j + 1): ``(i, j), (i + 1, j), (i + 1, j + 1)`` and ``(i, j),
(i + 1, j + 1), (i, j + 1)``, wound so that their normals point up (+y). Triangle index
``2 (i (cols - 1) + j) + half``.

Rays walk the cells (no BVH); sweeps and contacts gather the cells under a box. The queries
and their conventions are :mod:`swept.level.surface`'s (two-sided, ``exit_distance`` inf).
"""

from __future__ import annotations

from typing import Any

import numpy as np

from .._kernels import mesh as _k
from ..constants import MAX_COORDINATE
from ..vec import Vec3, as_vec3
from .surface import Surface, check_triangles, register, run_batch

__all__ = ["HeightField", "MAX_HEIGHTFIELD_POINTS"]

#: The most grid points a height field may have (rows times columns): its triangles are stored
#: (48 bytes a triangle, 24 a point). Not measured: 4096 x 4096, about 1.6 GB of arrays.
MAX_HEIGHTFIELD_POINTS = 4096 * 4096


def _max3x3(a: np.ndarray, low: bool) -> np.ndarray:
    """The min (``low``) or max of each entry's 3 x 3 block (clipped at the borders)."""
    pad = np.pad(a, 1, mode="edge")
    rows, cols = a.shape
    stack = [pad[di:di + rows, dj:dj + cols] for di in range(3) for dj in range(3)]
    out: np.ndarray = np.min(stack, axis=0) if low else np.max(stack, axis=0)
    return out


class HeightField(Surface):
    """A terrain: ``heights`` (rows, cols) numbers, ``scale`` ``(sx, sy, sz)`` (> 0) and
    ``origin`` (the grid point (0, 0) at height 0); see the module docstring for the layout
    and the diagonal. At least 2 x 2 points. Immutable, two-sided."""

    __slots__ = ("heights", "scale", "origin", "_grid", "_block", "_cols")
    heights: np.ndarray
    scale: Vec3
    origin: Vec3
    _grid: np.ndarray
    _block: np.ndarray
    _cols: int

    def __init__(self, heights: Any, scale: Any = (1.0, 1.0, 1.0),
                 origin: Any = (0.0, 0.0, 0.0)) -> None:
        try:
            h = np.array(heights, dtype=np.float64)
        except (TypeError, ValueError):
            raise TypeError("heights must be a (rows, cols) array of numbers") from None
        if h.ndim != 2 or h.shape[0] < 2 or h.shape[1] < 2:
            raise ValueError(f"heights must be (rows, cols) with rows, cols >= 2, got shape "
                             f"{h.shape}")
        if h.size > MAX_HEIGHTFIELD_POINTS:
            raise ValueError(f"heights has {h.size} points, more than MAX_HEIGHTFIELD_POINTS "
                             f"= {MAX_HEIGHTFIELD_POINTS}")
        bad = ~(np.abs(h) <= MAX_COORDINATE)
        if bad.any():
            i, j = np.argwhere(bad)[0]
            raise ValueError(f"heights[{i}, {j}] = {h[i, j]!r} is not finite or beyond "
                             f"MAX_COORDINATE")
        s = as_vec3(scale, "scale")
        if not min(s) > 0.0:
            raise ValueError(f"scale must be > 0 on every axis, got {tuple(s)}")
        o = as_vec3(origin, "origin")
        rows, cols = h.shape
        jj, ii = np.meshgrid(np.arange(cols), np.arange(rows))
        verts = np.stack([o[0] + jj * s[0], o[1] + h * s[1], o[2] + ii * s[2]], axis=-1)
        verts = verts.reshape(-1, 3)
        if not (np.abs(verts) <= MAX_COORDINATE).all():
            raise ValueError("origin and scale put the field beyond MAX_COORDINATE")
        verts.flags.writeable = False
        v00 = (ii[:-1, :-1] * cols + jj[:-1, :-1]).ravel()
        v01 = v00 + 1
        v10 = v00 + cols
        v11 = v10 + 1
        tris = np.empty((v00.shape[0], 2, 3), np.int64)
        tris[:, 0] = np.stack([v00, v10, v11], axis=1)
        tris[:, 1] = np.stack([v00, v11, v01], axis=1)
        try:
            tris, normals = check_triangles(tris.reshape(-1, 3), verts)
        except ValueError as e:
            # (the triangles are the field's own: the culprit is a cell's heights or the scale)
            row = int(str(e).split("[", 1)[1].split("]", 1)[0])
            i, j = divmod(row // 2, cols - 1)
            raise ValueError(f"heights and scale make cell ({i}, {j}) so steep or thin that one "
                             f"of its triangles has zero area (heights[{i}:{i + 2}, {j}:{j + 2}]"
                             f" = {h[i:i + 2, j:j + 2].tolist()}, scale = {tuple(s)})") from None
        h.flags.writeable = False
        object.__setattr__(self, "heights", h)
        object.__setattr__(self, "scale", s)
        object.__setattr__(self, "origin", o)
        object.__setattr__(self, "_cols", cols)
        self._setup(verts, tris, normals)
        # each cell's lowest and highest point, then over its 3 x 3 block, grown by the margin
        y = verts[:, 1].reshape(rows, cols)
        corners = np.stack([y[:-1, :-1], y[:-1, 1:], y[1:, :-1], y[1:, 1:]])
        block = np.stack([_max3x3(corners.min(axis=0), True) - self._margin,
                          _max3x3(corners.max(axis=0), False) + self._margin], axis=-1)
        box = self._aabb
        m = self._margin
        grid = np.array([o[0], o[2], s[0], s[2], box.min[0] - m, box.min[1] - m,
                         box.min[2] - m, box.max[0] + m, box.max[1] + m, box.max[2] + m])
        object.__setattr__(self, "_grid", grid)
        object.__setattr__(self, "_block", np.ascontiguousarray(block))

    def __repr__(self) -> str:
        rows, cols = self.heights.shape
        return (f"HeightField({rows}x{cols}, scale={tuple(self.scale)}, "
                f"origin={tuple(self.origin)})")

    def __eq__(self, other: object) -> bool:
        if not isinstance(other, HeightField):
            return NotImplemented
        return (self.scale == other.scale and self.origin == other.origin
                and np.array_equal(self.heights, other.heights))

    def __hash__(self) -> int:
        if self._hash is None:
            object.__setattr__(self, "_hash", hash(("HeightField", self.heights.tobytes(),
                                                    self.heights.shape, self.scale,
                                                    self.origin)))
        assert self._hash is not None
        return self._hash

    def __reduce__(self) -> tuple[Any, ...]:
        """Pickle and copy as the constructor's arguments."""
        return (HeightField, (self.heights, tuple(self.scale), tuple(self.origin)))

    def _ray(self, o: Any, d: Any, tmin: float, tmax: float) -> tuple[float, int]:
        t, k = _k.heightfield_ray(self.vertices, self.triangles, self._cols, self._grid,
                                  self._block, o[0], o[1], o[2], d[0], d[1], d[2], tmin, tmax)
        return t, k

    def _gather_into(self, query: np.ndarray, out: np.ndarray) -> int:
        found: int = _k.heightfield_gather(self._cols, self._grid, self._block, query, out)
        return found

    def _batch(self, o: np.ndarray, d: np.ndarray, tmax: np.ndarray,
               out: tuple[np.ndarray, ...]) -> None:
        run_batch(_k.heightfield_ray_range, o.shape[0],
                  (self.vertices, self.triangles, self._cols, self._grid, self._block,
                   self.normals, o, d, tmax, out))


register(HeightField)
