"""Triangle meshes (3D): ``TriangleMesh(vertices, triangles)``, a level's geometry, with its BVH.

The BVH (:mod:`swept._kernels.bvh`, the same build and traversal the World uses) is built once
at construction over the triangles' boxes (grown by ``BOX_MARGIN`` times the mesh's scale, so
that a slab test's rounding never culls a triangle the watertight test hits). Rays walk it front
to back; sweeps, contacts and nearest-point searches gather the triangles whose boxes meet a
box. The queries and their conventions are :mod:`swept.level.surface`'s.
"""

from __future__ import annotations

import mmap
from pathlib import Path
from typing import Any

import numpy as np

from .._kernels import bvh as _bvh
from .._kernels import mesh as _k
from .._kernels import surface as _ks
from ..constants import MAX_MESH_TRIANGLES, WALKS_IN_FLIGHT
from ..vec import Vec3
from .surface import Surface, check_triangles, check_vertices, register, run_batch

__all__ = ["TriangleMesh"]

#: Bytes of a transparent huge page on x86-64 Linux (2 MiB): :func:`_paged` puts an array of
#: this size or more on huge pages, starting on one's boundary.
HUGE_PAGE = 2 << 20


def _paged(a: np.ndarray) -> np.ndarray:
    """A copy of ``a`` (C-contiguous) on transparent huge pages where Linux gives them: for
    :data:`HUGE_PAGE` bytes or more, a fresh anonymous mapping marked ``MADV_HUGEPAGE``
    before its first write, the array starting on a huge page's boundary; a smaller one (or
    where ``madvise`` is missing) in a numpy buffer, starting on a 64-byte line. The arrays
    the kernels allocate (``pack_leaves``' blocks, say) lie on 4 KiB pages, and numpy's own
    hint misses memory its allocator reuses. A ray's walk reads its rows, leaf blocks,
    triangle indices and hit normals at random over tens of megabytes, each read a new page: on
    4 KiB pages a miss of the address translation cache each (a page walk before the line is
    even asked for). The same values, the same flags (read-only stays read-only): the same
    compiled kernels. Measured: ``docs/level.md``'s mesh notes (``meshray12``)."""
    if a.nbytes >= HUGE_PAGE and hasattr(mmap, "MADV_HUGEPAGE"):
        area = mmap.mmap(-1, a.nbytes + HUGE_PAGE, flags=mmap.MAP_PRIVATE | mmap.MAP_ANONYMOUS)
        area.madvise(mmap.MADV_HUGEPAGE)
        buf = np.frombuffer(area, np.uint8)
        start = -buf.ctypes.data % HUGE_PAGE
    else:
        buf = np.empty(a.nbytes + 64, np.uint8)
        start = -buf.ctypes.data % 64
    out = buf[start:start + a.nbytes].view(a.dtype).reshape(a.shape)
    out[...] = a
    out.flags.writeable = a.flags.writeable
    return out


class TriangleMesh(Surface):
    """A triangle mesh: ``vertices`` (n, 3) numbers and ``triangles`` (m, 3) vertex indices.

    Validated (``ValueError`` naming the argument and the row: an index out of range, NaN or
    infinity, a triangle of zero area), immutable, two-sided (see :mod:`swept.level.surface`).
    Vertices no triangle uses are allowed. Attributes: ``vertices``, ``triangles``,
    ``normals`` (unit, from the winding ``(b - a) x (c - a)``), ``neighbors`` (the triangle
    across each edge), ``aabb``; :meth:`closed`.
    """

    __slots__ = ("_nodes", "_links", "_boxes", "_packed", "_tree", "_order")
    _nodes: np.ndarray
    _links: np.ndarray
    _boxes: np.ndarray
    _packed: np.ndarray
    _tree: np.ndarray
    _order: np.ndarray

    def __init__(self, vertices: Any, triangles: Any) -> None:
        verts = check_vertices(vertices)
        tris, normals = check_triangles(triangles, verts)
        if tris.shape[0] > MAX_MESH_TRIANGLES:
            raise ValueError(f"triangles holds {tris.shape[0]:,} triangles, more than "
                             f"MAX_MESH_TRIANGLES = {MAX_MESH_TRIANGLES:,}")
        boxes = _ks.triangle_boxes(verts, tris)
        # the arrays a ray batch reads at random, on huge pages (_paged): the normals here,
        # the leaf blocks, their triangles' indices and the tree below
        normals = _paged(normals)
        self._setup(verts, tris, normals, boxes)
        lo, hi = boxes[0], boxes[1]
        _ks.grow_boxes(lo, hi, self._margin)
        nodes, links = _bvh.build(lo, hi)
        object.__setattr__(self, "_nodes", nodes)
        object.__setattr__(self, "_links", links)
        object.__setattr__(self, "_boxes", _bvh.box_rows(lo, hi))
        # the leaves' triangles packed a block a leaf, the triangle of each lane, and the
        # four-wide tree the rays and sweeps walk
        packed, order, block_of = _k.pack_leaves(verts, tris, links, nodes.shape[0])
        object.__setattr__(self, "_packed", _paged(packed))
        object.__setattr__(self, "_order", _paged(order))
        # (the kernels' own copies freed at once: only one array is held twice at a time)
        del packed, order
        object.__setattr__(self, "_tree", _paged(_k.flatten_tree(nodes, links, block_of)))

    @classmethod
    def from_trimesh(cls, mesh: Any) -> TriangleMesh:
        """A mesh from a ``trimesh.Trimesh`` (its ``vertices`` and ``faces``)."""
        if not hasattr(mesh, "vertices") or not hasattr(mesh, "faces"):
            raise TypeError(f"from_trimesh needs a trimesh.Trimesh, got {type(mesh).__name__}")
        return cls(np.asarray(mesh.vertices, dtype=np.float64), np.asarray(mesh.faces))

    @classmethod
    def load(cls, path: str | Path, **kwargs: Any) -> TriangleMesh:
        """A mesh read from a file trimesh reads (OBJ, STL, PLY, glTF, ...); a scene's meshes
        are merged into one. Needs the ``mesh`` extra (``pip install swept[mesh]``)."""
        try:
            import trimesh
        except ImportError:
            raise ImportError("TriangleMesh.load needs trimesh: pip install swept[mesh]") \
                from None
        loaded = trimesh.load(str(path), force="mesh", **kwargs)
        return cls.from_trimesh(loaded)

    def __repr__(self) -> str:
        return (f"TriangleMesh({self.vertices.shape[0]} vertices, "
                f"{self.triangles.shape[0]} triangles)")

    def __eq__(self, other: object) -> bool:
        if not isinstance(other, TriangleMesh):
            return NotImplemented
        return (np.array_equal(self.vertices, other.vertices)
                and np.array_equal(self.triangles, other.triangles))

    def __hash__(self) -> int:
        if self._hash is None:
            object.__setattr__(self, "_hash", hash(("TriangleMesh", self.vertices.tobytes(),
                                                    self.triangles.tobytes())))
        assert self._hash is not None
        return self._hash

    def __reduce__(self) -> tuple[Any, ...]:
        """Pickle and copy as the constructor's arguments (the BVH is built again)."""
        return (TriangleMesh, (self.vertices, self.triangles))

    def _ray(self, o: Any, d: Any, tmin: float, tmax: float) -> tuple[float, int]:
        t, k = _k.mesh_ray(self._packed, self._tree, self._order, o[0], o[1], o[2], d[0],
                           d[1], d[2], tmin, tmax)
        return t, k

    def _sphere_cast(self, c: Vec3, rel: Vec3, reach: float, max_fraction: float
                     ) -> tuple[float, int]:
        # the ball's path walked through the rays' compact tree as a fat ray
        fraction, k = _k.mesh_sphere_cast(self.vertices, self.triangles, self.normals,
                                          self._tree, self._order, c[0], c[1], c[2], rel[0],
                                          rel[1], rel[2], reach, max_fraction)
        return fraction, k

    def _gather_into(self, query: np.ndarray, out: np.ndarray) -> int:
        found: int = _bvh.query_aabb(self._nodes, self._links, self._boxes, query[:3],
                                     query[3:], out)
        return found

    def _batch(self, o: np.ndarray, d: np.ndarray, tmax: np.ndarray,
               out: tuple[np.ndarray, ...]) -> None:
        # walked in the order of the origins' Morton code (nearby rays one after another;
        # rays from one origin in packets), each answer written to its own row
        walk = _k.ray_order(o, d)
        run_batch(_k.mesh_ray_range, o.shape[0], (self._packed, self._tree, self._order,
                                                  self.normals, o, d, tmax, walk,
                                                  walk.shape[0] > 0, WALKS_IN_FLIGHT, out))


register(TriangleMesh)
