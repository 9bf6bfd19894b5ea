"""World: many colliders, a broadphase, and scalar and batch queries over them.

``World()`` holds colliders (shapes with a handle, user data, a layer and a mask). Its queries
answer as the scalar API would over every collider, with ties going to the smallest handle:

- :meth:`World.raycast` is the minimum over colliders of :func:`swept.raycast`;
  :meth:`World.raycast_all` every hit, sorted by distance then handle;
- :meth:`World.sweep` the minimum over colliders of :func:`swept.sweep`;
- :meth:`World.contacts` :func:`swept.contact` against each collider touched, by handle;
- :meth:`World.query_aabb` / :meth:`World.query_point` the colliders whose *shape* (not just
  its bounds) overlaps the box or contains the point;
- :meth:`World.raycast_many`, :meth:`World.sweep_many` and :meth:`World.contact_many` the
  same for numpy batches, on the calling thread and its helpers
  (:func:`swept._parallel.parallel_for`), returning struct-of-arrays results.

A collider is seen by a query when ``(collider.layer & mask) != 0`` and its handle is not in
``ignore``. Handles are ints from 0 in insertion order, never reused. The world's dimension (2
or 3) is fixed by its first collider.

Beyond layers, a scalar query takes ``filter=`` (a callable of handle and data, called for the
colliders the mask passes; the query answers as if the ones it rejects were absent: the
kernels' nearest hit asked again without each rejected one, at most
:data:`~swept.constants.FILTER_KERNEL_TRIES` times, then a Python walk over the broadphase's
candidates in box-entry order, stopping once the next box lies beyond the best hit).
**Sensors** (``add(..., sensor=True)``) are trigger volumes kept out of the collider table
and the kernels' trees, in a small tree of their own that only the Python paths read: rays,
sweeps and batches pass through them unless a scalar query asks ``include_sensors=True``;
``contacts``, ``query_aabb`` and ``query_point`` report them.
``add_segments`` / ``add_circles`` / ``add_boxes`` write numpy rows straight into the table,
and build each row's shape only when asked for it. A World pickles and copies as its colliders
(the trees and caches are rebuilt), and :attr:`World.version` counts its changes.

Storage: one collider table, owned by the World and read by every kernel that needs
colliders (its queries, the Simulation, the controller's candidates): a row per handle of
shape parameters and box, a row of tags (kind, layer, pool rows, flags), and a pool for polygon
corners; with the broadphase, five packed arrays in all (:class:`swept._kernels.scene.Scene`;
numba unboxes each array argument on every call, about 30 ns, and the scene used to be 30
loose arrays). One narrowphase on a row (:mod:`swept._kernels.scene`) calls the very kernels
the scalar API calls, for the scalar and the batch paths alike.

Broadphase: every static, bounded collider is in a BVH (:mod:`swept._kernels.bvh`, binned
SAH, 4 a leaf), and every moving one in a second BVH; in 2D, the static colliders are also
binned in a uniform grid (:mod:`swept._kernels.grid`) that ray casts walk cell by cell instead
of the static tree, when :func:`swept.broadphase.choose_broadphase` says the grid serves the
scene better (it does on every scene kind measured: walls as long as the world, large boxes,
small and long mixed, coordinates of 1e6, and a cluster, on coarser cells; see its docstring
for the figures); the moving colliders then go in a coarser grid over the same frame,
rebinned at each sync after they move, so that a ray meets them in the same walk instead of
walking the moving tree.
Sweeps, contacts, box and point queries use the BVHs. One traversal of each serves every query.
Colliders with **infinite bounds** (planes) sit in a plain list tested by every query (in a
tree every ancestor of an infinite box is infinite, so every query would descend there).
**Static** colliders (the default) are rebuilt lazily, on the next query after an add, remove
or move among them; **moving** colliders (``add(..., moving=True)``) live in the second BVH,
which a move *refits* (topology kept, boxes recomputed), rebuilt after
:data:`DYNAMIC_REFITS_BEFORE_REBUILD` refits or an add or remove among them.

A :class:`~swept.Chain` is one collider (one handle, one row of kind ``KIND_CHAIN``, its points
in the pool), but each of its segments is a broadphase primitive of its own (a row of kind
``KIND_CHAIN_SEGMENT`` past the handles' rows, naming the chain), so that a query meets only
the segments near it: a ray at a 10,000-point chain costs what it costs at 10,000 segments.
The kernels report a segment's row; the World turns it into the chain's handle. A ray meets a
segment as a Segment; a ball's sweep and contact apply the chain's Voronoi-region rule
(:mod:`swept._kernels.chain`), so every answer is the scalar API's for that chain. (Exact
ties between a chain and another collider go to the other: the segments' rows come after
every handle.)
Measured (``benchmarks/bench_broadphase.py``, ``benchmarks/bench_world_rays.py``): see
docs/world.md and the README.
"""

from __future__ import annotations

import bisect
import math
import weakref
from collections.abc import Callable, Iterable, Sequence
from typing import TYPE_CHECKING, Any

import numpy as np

from ._fast import batch_entry, entry_point, resolving_entry
from ._lazy import kernels
from ._parallel import parallel_for
from .broadphase import BroadphaseChoice, choose_broadphase
from .chain import Chain
from .constants import (
    BOX_MARGIN,
    CANDIDATE_MARGIN,
    FILTER_KERNEL_TRIES,
    GRID_MARGIN,
    GRID_SUB_CROWDED,
    GRID_SUB_GROWTH,
    GRID_SUB_MAX_SIDE,
    GRID_SUB_PER_CELL,
    MAX_COORDINATE,
    MAX_DEPTH,
    MOVING_GRID_COLLIDERS_PER_CELL,
    MOVING_GRID_MARKS_PER_COLLIDER,
    MOVING_GRID_OUTSIDE,
    RAY_GATHER_MIN_ROWS,
    RAY_ORDER_MIN_COLLIDERS,
)
from .contact import contact
from .oneway import one_way_direction, one_way_faces, one_way_stands
from .raycast import raycast
from .results import (
    ContactBatch,
    RayBatch,
    SweepBatch,
    WorldContact,
    WorldRayHit,
    WorldSweepHit,
)
from .shapes import AABB, Capsule, Circle, Plane, Polygon, Ray, Segment, Shape, Sphere
from .sweep import reference_point
from .sweep import sweep as _sweep
from .vec import _FLOAT_MIN, Vec2, Vec3, _length3, as_array, as_finite, as_vec2, as_vec3
from .views import ShapeView, view

if TYPE_CHECKING:
    from ._kernels import bvh as _bvh
    from ._kernels import grid as _grid
    from ._kernels import scene as _scene
    from ._kernels import world as _world_kernels
    from ._kernels import world_hit as _world_hit
    from ._kernels import world_sweep as _ws
else:
    _bvh = kernels("bvh")
    _grid = kernels("grid")
    _scene = kernels("scene")
    _world_kernels = kernels("world")
    _world_hit = kernels("world_hit")
    _ws = kernels("world_sweep")

__all__ = [
    "ALL_LAYERS",
    "World",
    "WorldRayHit",
    "WorldSweepHit",
    "WorldContact",
    "RayBatch",
    "SweepBatch",
    "ContactBatch",
    "DYNAMIC_REFITS_BEFORE_REBUILD",
]

#: Every layer bit set: the default mask, which sees every collider.
ALL_LAYERS = 0xFFFFFFFF
#: Moves of moving colliders the dynamic tree absorbs by refitting before it is rebuilt (a
#: refit keeps the topology, which fits the boxes worse the farther they have moved).
DYNAMIC_REFITS_BEFORE_REBUILD = 64
#: The most entries (and cells) a World's ray grid holds, whatever the scene: a grid entry is
#: an index (8 bytes; each gridded collider has one row of six floats), so at most about
#: 64 MB of entries. Its cells are doubled
#: until binning fits. Not measured for speed: a memory bound (1,000,000 segments 20 to 100
#: long in a 1000 x 1000 world make about 3 entries each at the chosen cell).
GRID_MAX_ENTRIES = 8_000_000
#: Rows the collider table starts with; it doubles when full.
INITIAL_CAPACITY = 64
#: Rows the polygon pool starts with; it doubles when full.
INITIAL_POOL = 256
#: The polygon pool is compacted when its dead rows exceed both this and its live rows.
POOL_COMPACT_MIN = 4096

_tn = tuple.__new__
#: builds a result record from the tuple of its fields (untyped: mypy sees a dataclass)
_rn: Any = tuple.__new__
#: The world kernels, untyped for mypy: they take the scene as a splatted tuple of arrays.
_kw: Any = _world_kernels
#: The convex-mover sweep kernels, untyped for mypy likewise.
_kws: Any = _ws
#: Movers :meth:`World.sweep` and :meth:`World.sweep_many` cast through
#: :mod:`swept._kernels.world_sweep` (circles and spheres take the ball path).
_CONVEX_MOVERS = (Segment, Capsule, AABB, Polygon)


# ---------------------------------------------------------------------------------------------
# input checks


def _array(value: Any, name: str, ndim: int, d: int | None = None, *,
           allow_inf: bool = False) -> np.ndarray:
    """``value`` as a C-contiguous float64 array of ``ndim`` dimensions (rows of width ``d``),
    each value within MAX_COORDINATE (or of any size up to +-inf where ``allow_inf``: an
    unbounded quantity such as a ray's reach), with a ValueError naming ``name`` otherwise."""
    raw = as_array(value, name, allow_inf=allow_inf)
    a = np.ascontiguousarray(raw, dtype=np.float64)
    if ndim == 2 and a.ndim == 2 and a.shape[0] == 0 and a.shape[1] in (2, 3):
        pass
    elif ndim == 2 and a.ndim == 1 and a.size == 0:
        a = a.reshape(0, d if d is not None else 2)
    if a.ndim != ndim:
        raise ValueError(f"{name} must be a {ndim}D array, got shape {a.shape}")
    if ndim == 2 and a.shape[1] not in (2, 3):
        raise ValueError(f"{name} must have 2 or 3 columns, got shape {a.shape}")
    if ndim == 2 and d is not None and a.shape[1] != d:
        raise ValueError(f"{name} must have {d} columns (the world is {d}D), got shape "
                         f"{a.shape}")
    return a


#: float64's dtype (numpy's one instance): a batch's dtype is it, as a rule, and ``is`` answers
#: in a fraction of ``==``'s time (which builds a dtype from its argument each call).
_FLOAT64 = np.dtype(np.float64)


def _batch_rows(value: Any, name: str, d: int | None) -> np.ndarray:
    """:func:`_array` ``(value, name, 2, d)`` for a batch's rows, the usual case (a C-ordered
    float64 (n, 2 or 3) array, every value within MAX_COORDINATE) checked in one compiled
    pass instead of numpy's three (measured, a (10,000, 2) array: 3.8 against 15.4 us); any
    other value, or a bad one, goes through :func:`_array` (its conversions and messages)."""
    if (isinstance(value, np.ndarray) and (value.dtype is _FLOAT64 or value.dtype == np.float64)
            and value.ndim == 2
            and value.flags.c_contiguous and value.shape[1] in (2, 3)
            and (d is None or value.shape[1] == d)
            and _kw.within(value, MAX_COORDINATE)):
        return value
    return _array(value, name, 2, d)


def _sweep_form(centers: Any, radii: Any, displacements: Any, shapes: Any, lead: str = ""
               ) -> tuple[Any, Any, Any, Any]:
    """Which form a ``sweep_many`` call takes: shapes (``shapes=``, or a shape or a sequence
    of shapes first) or balls. Returns ``(centers, radii, displacements, shapes)`` with the
    other form's arguments None; TypeError for a mix or a missing argument. ``lead``: the
    caller's arguments before these (``"world, "``), for the messages."""
    if shapes is None and (isinstance(centers, Shape) or (
            isinstance(centers, (list, tuple)) and len(centers) > 0
            and isinstance(centers[0], Shape))):
        # the shapes' form, by position: (shapes, displacements)
        if displacements is not None:
            raise TypeError(f"sweep_many({lead}shapes, displacements) takes no third array")
        centers, radii, displacements, shapes = None, None, radii, centers
    elif shapes is not None and (centers is not None or radii is not None):
        raise TypeError("sweep_many: pass shapes= or centers and radii, not both")
    if shapes is not None:
        if displacements is None:
            raise TypeError(f"sweep_many({lead}shapes, displacements): displacements is "
                            f"missing")
        return None, None, displacements, shapes
    if centers is None or radii is None or displacements is None:
        raise TypeError(f"sweep_many takes ({lead}centers, radii, displacements) or "
                        f"({lead}shapes, displacements)")
    return centers, radii, displacements, None


def _mask(mask: Any, name: str = "mask") -> int:
    """A layer mask (or layer, by ``name``) checked to be an unsigned 32-bit integer."""
    if type(mask) is int and 0 <= mask <= ALL_LAYERS:
        # the common case, checked first: every scalar query passes here
        return mask
    if isinstance(mask, bool) or not isinstance(mask, (int, np.integer)):
        raise TypeError(f"{name} must be an int, not {type(mask).__name__}")
    m = int(mask)
    if not 0 <= m <= ALL_LAYERS:
        shown = repr(mask) if len(repr(mask)) <= 40 else f"an int of {len(str(m))} digits"
        raise ValueError(f"{name} must be in [0, 0xFFFFFFFF], got {shown}")
    return m


def _lengths(v: np.ndarray) -> np.ndarray:
    """Row lengths of an (n, d) array as the World's ball sweeps take a displacement's
    length (``sweep_many``'s rows and, through :func:`_ball_length`, ``sweep``): in 2D the C
    library's ``hypot`` (``np.hypot``; ``Vec2.length``'s CPython ``math.hypot`` rounds
    differently in the last bit for about 0.6% of vectors), in 3D ``Vec3.length``'s square
    root, rescaled for the rows whose squares underflow (a tiny vector). (A ray's direction
    is normalised in the kernel by a ``Ray``'s own formula; ``raycast_many`` uses these
    lengths only for the far end of a row's box against the external colliders.)"""
    if v.shape[1] == 2:
        result: np.ndarray = np.hypot(v[:, 0], v[:, 1])
        return result
    s = v[:, 0] * v[:, 0] + v[:, 1] * v[:, 1] + v[:, 2] * v[:, 2]
    result = np.sqrt(s)
    small = np.flatnonzero(s < _FLOAT_MIN)
    if small.size:
        # squares under the smallest normal float (to zero, or subnormal) of a vector that
        # is not zero: rescaled, as Vec3.length
        for i in small[np.any(v[small] != 0.0, axis=1)].tolist():
            result[i] = _length3(*v[i].tolist())
    return result


def _ball_length(disp: Vec2 | Vec3) -> float:
    """A ball's displacement length as every World ball sweep computes it, :func:`_lengths`
    for one vector: so that ``sweep_many``'s rows equal ``sweep`` to the last bit."""
    if len(disp) == 2:
        return float(np.hypot(disp[0], disp[1]))
    return disp.length()


def _movers(shapes: Sequence[Shape], d: int) -> _ws.Movers:
    """The kernel table of convex movers (:class:`swept._kernels.world_sweep.Movers`)."""
    m = len(shapes)
    kinds = np.empty(m, np.int64)
    params = np.zeros((m, _scene.PARAM_WIDTH))
    spans = np.empty((m, 2), np.int64)
    radii = np.empty(m)
    boxes = np.zeros((m, 6))
    cores = []
    normals = []
    at = 0
    for i, s in enumerate(shapes):
        v = view(s)
        n = v.core.shape[0]
        kinds[i] = v.kind
        params[i, :len(v.params)] = v.params
        spans[i] = at, n
        at += n
        radii[i] = v.radius
        cores.append(v.core)
        normals.append(v.normals if v.normals is not None else np.zeros((n, 2)))
        box = s.aabb
        boxes[i, :d] = box.min
        boxes[i, 3:3 + d] = box.max
    return _ws.Movers(kinds, params, spans, np.concatenate(cores).reshape(-1, d),
                      np.concatenate(normals).reshape(-1, 2), radii, boxes)


def _vec_lengths(v: np.ndarray) -> np.ndarray:
    """Row lengths of an (n, d) array exactly as ``Vec2.length`` / ``Vec3.length`` compute
    them (``math.hypot``, whose rounding ``np.hypot`` does not always share), so that a batch
    row's fraction is the scalar sweep's to the last bit."""
    if v.shape[1] == 2:
        return np.array([math.hypot(x, y) for x, y in v.tolist()], dtype=np.float64)
    return np.array([_length3(x, y, z) for x, y, z in v.tolist()], dtype=np.float64)


def _sweep_hits(n: int, d: int) -> _ws.SweepHits:
    """An empty :class:`swept._kernels.world_sweep.SweepHits` for n sweeps."""
    return _ws.SweepHits(np.empty(n, np.int64), np.empty(n), np.zeros((n, d)),
                         np.zeros((n, d)), np.zeros(n, np.bool_), np.zeros(n, np.int64))


def _encode(shape: Shape) -> ShapeView:
    """A shape's kernel view, for its row in the collider table (TypeError for a shape the
    World cannot hold)."""
    try:
        v = view(shape)
    except TypeError:
        v = None
    if v is None or v.kind < 0:
        raise TypeError(f"a World cannot hold a {type(shape).__name__}: use Circle, Segment, "
                        f"AABB, Polygon, Capsule, Plane, Chain (2D) or Sphere, AABB, Capsule, "
                        f"Plane (3D)")
    return v


#: The shape types the compiled table holds (the cheap first test of :func:`_external`).
_TABLE_TYPES = frozenset({Circle, Segment, AABB, Polygon, Capsule, Plane, Sphere})


def _external(shape: Any) -> bool:
    """Whether ``shape`` is a collider the compiled table cannot hold but the scalar API
    answers (an oriented box, a hull, a triangle mesh, a height field, a tile map): a World
    keeps it outside the table and answers it through the scalar queries."""
    if type(shape) in _TABLE_TYPES or isinstance(shape, (Chain, Ray)):
        # the table's own kinds (add's common case: no second view of the shape)
        return False
    if not isinstance(shape, Shape) and not hasattr(shape, "aabb"):
        return False
    try:
        v = view(shape)
    except TypeError:
        v = None
    if v is not None and v.kind >= 0:
        return False
    from .dispatch import RAYCAST

    return RAYCAST.find(type(shape)) is not None


def _check_filter(filter: Any, include_sensors: Any) -> None:
    """TypeError unless ``filter`` is None or callable and ``include_sensors`` a bool."""
    if filter is not None and not callable(filter):
        raise TypeError(f"filter must be a callable filter(handle, data) -> bool or None, not "
                        f"{type(filter).__name__}")
    if not isinstance(include_sensors, (bool, np.bool_)):
        raise TypeError(f"include_sensors must be a bool, not {type(include_sensors).__name__}")


def _flag(value: Any, name: str) -> bool:
    """A bool argument, or TypeError naming it."""
    if not isinstance(value, (bool, np.bool_)):
        raise TypeError(f"{name} must be a bool, not {type(value).__name__}")
    return bool(value)


def _rows(value: Any, name: str, widths: tuple[int, ...]) -> np.ndarray:
    """A bulk add's array: C-contiguous float64 of shape (n, w) for a w in ``widths``, every
    value finite and within MAX_COORDINATE; ValueError naming ``name`` (and the first bad row,
    as ``index (row, column)``) otherwise."""
    a = np.ascontiguousarray(as_array(value, name), dtype=np.float64)
    if a.ndim == 1 and a.size == 0:
        a = a.reshape(0, widths[0])
    if a.ndim != 2 or a.shape[1] not in widths:
        shapes = " or ".join(f"(n, {w})" for w in widths)
        raise ValueError(f"{name} must have shape {shapes}, got {a.shape}")
    return a


def _scale(*values: Iterable[float]) -> float:
    """The largest magnitude among the given coordinates, at least 1."""
    s = 1.0
    for vs in values:
        for v in vs:
            if math.isfinite(v):
                s = max(s, abs(v))
    return s




#: The compiled scalar kernels of the World's one-ray queries, each called through its
#: compiled entry point once resolved on first use (swept._fast.resolving_entry: it skips
#: the dispatcher's type resolution of the arguments). World.raycast's 2D and 3D kernels and
#: World.sweep's circle kernel return the WorldRayHit / WorldSweepHit (or None) themselves
#: (swept._kernels.world_hit); _cast_at answers the other rays and the balls with numbers.
_ray_hit2: Any = resolving_entry(globals(), "_ray_hit2", lambda: _world_hit.ray_hit2)
_ray_hit3: Any = resolving_entry(globals(), "_ray_hit3", lambda: _world_hit.ray_hit3)
_ball_hit2: Any = resolving_entry(globals(), "_ball_hit2", lambda: _world_hit.ball_hit2)
_ball_hit3: Any = resolving_entry(globals(), "_ball_hit3", lambda: _world_hit.ball_hit3)
#: What World._sweep_ball_one_call answers when the general path must answer.
_GENERAL = object()
_cast_at: Any = resolving_entry(globals(), "_cast_at", lambda: _kw.cast_at)
#: The same for the convex movers' sweep kernel of World.sweep (one signature: every array
#: of its arguments is float64 or int64, two-dimensional or one, in 2D and 3D alike).
_fast_sweep_range: Any = None




#: The keys of :func:`swept._parallel.parallel_for`'s timings of the batch rays and of the
#: batch balls (one kernel, cast_range, at costs an item several times apart).
_RAY_CASTS = "World.raycast_many"
_BALL_CASTS = "World.sweep_many balls"
#: The order :func:`swept._kernels.world.cast_range` reads as "the rows in their own order".
_IN_ORDER = np.zeros(0, np.int64)
#: World._ray_scene before the scene was ever described (never a scene, never None).
_NOT_DESCRIBED = object()
#: The axis normals ``-x, +x, -y, +y`` World.raycast shares between hits, by their keys 0 to
#: 3 (:func:`swept._kernels.world.normal_key`).
_AXIS_NORMALS: dict[int, Vec2] = {0: Vec2(-1.0, 0.0), 1: Vec2(1.0, 0.0), 2: Vec2(0.0, -1.0),
                                  3: Vec2(0.0, 1.0)}


def _new_hits(n: int, d: int, inside: bool = True) -> _world_kernels.Hits:
    """Arrays for the hits of a batch of ``n`` rows in ``d`` dimensions (not filled); without
    ``inside``, an empty ``inside`` (the column a ray batch does not return)."""
    hits: _world_kernels.Hits = _kw.Hits(np.empty(n, np.int64), np.empty(n), np.empty((n, d)),
                                         np.empty((n, d)),
                                         np.empty(n if inside else 0, np.bool_))
    return hits


class _Pending:
    """The placeholder a bulk add leaves in ``World._shapes``: the shape is built from its bulk
    record when first asked for (:meth:`World._shape_at`). One instance, :data:`_PENDING`;
    it pickles and copies as itself."""

    __slots__ = ()

    def __reduce__(self) -> str:
        return "_PENDING"

    def __repr__(self) -> str:
        return "_PENDING"


_PENDING = _Pending()

#: A bulk add's record: (first handle, kind tag, its rows as validated, read-only). Tags and
#: row layouts: "segment2" (ax, ay, bx, by), "segment3" (a, b: a radius-0 Capsule),
#: "circle" (cx, cy, r), "sphere" (cx, cy, cz, r), "box2" / "box3" (min, max).
_Bulk = tuple[int, str, np.ndarray]

#: bulk tag -> the name of the collider-table kind its rows are written as
_BULK_KIND = {"segment2": "KIND_SEGMENT", "segment3": "KIND_CAPSULE3", "circle": "KIND_CIRCLE",
              "sphere": "KIND_SPHERE", "box2": "KIND_AABB2", "box3": "KIND_AABB3"}


def _bulk_shape(tag: str, row: list[float]) -> Shape:
    """The shape of one bulk row (as ``add`` would have been given it)."""
    if tag == "segment2":
        return Segment((row[0], row[1]), (row[2], row[3]))
    if tag == "segment3":
        return Capsule((row[0], row[1], row[2]), (row[3], row[4], row[5]), 0.0)
    if tag == "circle":
        return Circle((row[0], row[1]), row[2])
    if tag == "sphere":
        return Sphere((row[0], row[1], row[2]), row[3])
    half = len(row) // 2
    return AABB(tuple(row[:half]), tuple(row[half:]))


def _bulk_boxes(tag: str, rows: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """The exact bounding boxes ``(lo, hi)`` of bulk rows, as each shape's ``aabb`` gives."""
    if tag in ("segment2", "segment3"):
        d = rows.shape[1] // 2
        return np.minimum(rows[:, :d], rows[:, d:]), np.maximum(rows[:, :d], rows[:, d:])
    if tag in ("circle", "sphere"):
        c, r = rows[:, :-1], rows[:, -1:]
        return c - r, c + r
    d = rows.shape[1] // 2
    return rows[:, :d], rows[:, d:]


def _slab_entry(origin: np.ndarray, direction: np.ndarray, lo: np.ndarray, hi: np.ndarray
                ) -> np.ndarray:
    """Where the ray ``origin + t direction`` (t >= 0) enters each box ``[lo[i], hi[i]]``: t,
    at least 0 (``inf`` for a box it never meets). A lower bound on any hit inside the box,
    used to stop a candidate walk early."""
    if lo.shape[0] == 0:
        return np.zeros(0)
    with np.errstate(divide="ignore", invalid="ignore", over="ignore"):
        t1 = (lo - origin) / direction
        t2 = (hi - origin) / direction
        near = np.minimum(t1, t2)
        if not direction.all():
            # parallel to an axis: inside the slab from the start, or never in it (and no
            # 0 / 0 left behind to break the sort)
            inside = (origin >= lo) & (origin <= hi)
            near = np.where(direction == 0.0, np.where(inside, -np.inf, np.inf), near)
    out = near.max(axis=1)
    result: np.ndarray = np.maximum(out, 0.0, out=out)
    return result


def _set_row(batch: Any, i: int, hit: Any, value: str) -> None:
    """Row i of a batch (``RayBatch``, ``SweepBatch``, ``ContactBatch``) set to a scalar
    World answer (None: a miss), ``value`` naming the batch's distance-like field."""
    if hit is None:
        batch.hit[i] = False
        batch.handle[i] = -1
        getattr(batch, value)[i] = 0.0 if value == "depth" else math.inf
        batch.point[i] = 0.0
        batch.normal[i] = 0.0
        return
    batch.hit[i] = True
    batch.handle[i] = hit.handle
    getattr(batch, value)[i] = getattr(hit, value)
    batch.point[i] = hit.point
    batch.normal[i] = hit.normal


def _rows_reach(lo: np.ndarray, hi: np.ndarray, box_lo: np.ndarray, box_hi: np.ndarray
                ) -> np.ndarray:
    """(n,) bool: whether row i's box ``[lo[i], hi[i]]`` touches any of the boxes
    ``[box_lo[k], box_hi[k]]`` (a coarse test: rows that cannot reach any box are skipped)."""
    out = np.zeros(lo.shape[0], np.bool_)
    for k in range(box_lo.shape[0]):
        out |= ((lo <= box_hi[k]) & (hi >= box_lo[k])).all(axis=1)
    return out


class _BoxTree:
    """A BVH over boxes given row by row (``lo[i]``, ``hi[i]`` the box of ``handles[i]``), for
    the sensors, which the kernels never see: only the Python query paths read it."""

    __slots__ = ("handles", "lo", "hi", "nodes", "links", "rows")

    def __init__(self, handles: list[int], lo: np.ndarray, hi: np.ndarray) -> None:
        self.handles = np.array(handles, dtype=np.int64)
        self.lo = np.ascontiguousarray(lo)
        self.hi = np.ascontiguousarray(hi)
        self.nodes, self.links = _bvh.build(self.lo, self.hi)
        self.rows = _bvh.box_rows(self.lo, self.hi)

    def _touching(self, qlo: np.ndarray, qhi: np.ndarray) -> np.ndarray:
        out = np.empty(max(16, self.handles.shape[0]), np.int64)
        n = _bvh.query_aabb(self.nodes, self.links, self.rows, np.asarray(qlo, np.float64),
                            np.asarray(qhi, np.float64), out)
        return out[:n]

    def _crossed(self, origin: np.ndarray, direction: np.ndarray, tmax: float) -> np.ndarray:
        out = np.empty(max(16, self.handles.shape[0]), np.int64)
        n = _bvh.ray_candidates_ordered(self.nodes, self.links, self.rows,
                                        np.asarray(origin, np.float64),
                                        np.asarray(direction, np.float64), tmax,
                                        np.empty((_bvh.STACK_SIZE, 2)), out)
        return out[:n]

    def candidates(self, qlo: np.ndarray, qhi: np.ndarray) -> list[int]:
        """Handles whose boxes touch the box [qlo, qhi]."""
        result: list[int] = self.handles[self._touching(qlo, qhi)].tolist()
        return result

    def ray_candidates(self, origin: np.ndarray, direction: np.ndarray, tmax: float
                       ) -> list[int]:
        """Handles whose boxes the ray segment touches."""
        result: list[int] = self.handles[self._crossed(origin, direction, tmax)].tolist()
        return result

    def boxes(self, qlo: np.ndarray, qhi: np.ndarray
              ) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
        """``(handles, lo, hi)`` of the boxes touching the box [qlo, qhi]."""
        rows = self._touching(qlo, qhi)
        return self.handles[rows], self.lo[rows], self.hi[rows]

    def ray_boxes(self, origin: np.ndarray, direction: np.ndarray, tmax: float
                  ) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
        """``(handles, lo, hi)`` of the boxes the ray segment touches."""
        rows = self._crossed(origin, direction, tmax)
        return self.handles[rows], self.lo[rows], self.hi[rows]


# ---------------------------------------------------------------------------------------------
# the world


class World:
    """Colliders with handles, a broadphase, and scalar and batch queries (module docstring).

    Supported colliders: Circle, Segment, AABB, Polygon, Capsule, Plane, Chain (2D); Sphere,
    AABB, Capsule, Plane (3D). The first collider fixes the dimension; mixing raises ValueError.
    """

    def __init__(self) -> None:
        self._dim: int | None = None
        cap = INITIAL_CAPACITY
        self._rows = np.zeros((cap, _scene.ROW_WIDTH))
        self._tags = np.zeros((cap, _scene.TAG_WIDTH), np.int64)
        self._tags[:, _scene.KIND] = _scene.KIND_EMPTY
        #: rows of the table kept for handles; the rows past them hold the static chains'
        #: segments (one broadphase primitive each), rewritten whenever the static tree is
        #: rebuilt (:meth:`_split_chains`)
        self._hcap = cap
        #: the live chains' handles, and each static chain's segment rows (first row, count)
        self._chain_set: set[int] = set()
        self._chain_rows: dict[int, tuple[int, int]] = {}
        self._static_rows_end = cap
        self._pool = np.zeros((INITIAL_POOL, 2))
        self._pool_used = 0
        self._pool_live = 0
        self._shapes: list[Shape | Chain | _Pending | None] = []
        self._data: list[Any] = []
        self._masks: list[int] = []
        self._moving: list[bool] = []
        self._alive = 0
        self._static_set: set[int] = set()
        self._dynamic_set: set[int] = set()
        self._plane_set: set[int] = set()
        # one-way colliders' unit directions (they sit in the unbounded list too)
        self._one_way: dict[int, Vec2 | Vec3] = {}
        # the broadphase's parts, None when stale: each tree as (nodes, links, handles), the
        # grid as grid.py's parts (or None: no grid), then the packed scene
        self._static_tree: tuple[np.ndarray, np.ndarray, np.ndarray] | None = None
        self._grid: Any = None
        self._dynamic_tree: tuple[np.ndarray, np.ndarray, np.ndarray] | None = None
        self._packed: tuple[np.ndarray, np.ndarray] | None = None
        self._scene: _scene.Scene | None = None
        self._refit = False
        self._refits = 0
        #: the last broadphase choice for the static colliders (swept.broadphase)
        self._broadphase: BroadphaseChoice | None = None
        #: the scene World.raycast's descriptor describes (_NOT_DESCRIBED before one), the
        #: descriptor (swept._kernels.world.describe: it holds the addresses of that scene's
        #: arrays, which this reference keeps alive, and the scalar queries' one-row batch)
        #: and its own address, which the scalar kernels take
        self._ray_scene: Any = _NOT_DESCRIBED
        self._ray_desc = np.zeros(0, np.int64)
        self._ray_address = 0
        #: the objects the descriptor gives World.raycast's kernel by address (the data list,
        #: the normals), kept alive with it
        self._ray_objects: tuple[list[Any], dict[int, Vec2]] = ([], {})
        #: the hit normals World.raycast shares between hits, by the kernel's key
        #: (swept._kernels.world.normal_key), for the described scene
        self._normals: dict[int, Vec2] = dict(_AXIS_NORMALS)
        #: the dimension of the rays World.raycast answers in one kernel call (the world's,
        #: when it has no external colliders; 0: none), for the described scene
        self._plain_dim = 0
        # sensors: out of the kernels' table and trees entirely; only Python paths read them
        self._sensor_set: set[int] = set()
        # colliders of shapes the kernels cannot hold (oriented boxes, hulls, meshes, height
        # fields, tile maps): in the outside tree with the sensors, answered by the scalar API
        self._external_set: set[int] = set()
        self._sensor_box: dict[int, tuple[np.ndarray, np.ndarray]] = {}
        self._sensor_tree: _BoxTree | None = None
        self._sensor_planes: list[int] = []
        #: the sensors as a private World of their own (by handle) and their handles, for the
        #: Simulation's sensor events (None: build it again)
        self._sensor_world: tuple[World, np.ndarray] | None = None
        # bulk adds' records, whose shapes are built on demand (_PENDING in _shapes until then)
        self._bulk: list[_Bulk] = []
        self._bulk_starts: list[int] = []
        self._version = 0
        # moving colliders (swept.sim): each one's velocity (absent: still), the translation
        # each moved table collider made since a Simulation last took them (a velocity
        # change alone: zero), the colliders whose last move gave no velocity (a Simulation
        # sets it from the step's displacement), and a counter of every other change
        self._velocity: dict[int, Vec2 | Vec3] = {}
        self._travel: dict[int, np.ndarray] = {}
        self._implied: set[int] = set()
        self._layout = 0
        #: told before the collider table changes (:meth:`_changing`), held weakly: a
        #: Simulation's contact events waiting to be found from the table as it is
        self._watchers: weakref.WeakSet[Any] = weakref.WeakSet()

    # ------------------------------------------------------------------ collider management

    def __len__(self) -> int:
        return self._alive

    def __contains__(self, handle: object) -> bool:
        return isinstance(handle, (int, np.integer)) and 0 <= int(handle) < len(self._shapes) \
            and self._shapes[int(handle)] is not None

    @property
    def dim(self) -> int | None:
        """The world's dimension (2 or 3), or None before the first collider."""
        return self._dim

    def handles(self) -> list[int]:
        """The live handles, in increasing order."""
        return [h for h, s in enumerate(self._shapes) if s is not None]

    def _check(self, handle: Any) -> int:
        """``handle`` as an int, if it names a live collider; otherwise ValueError (TypeError
        for a handle that is not an int) naming it and saying why."""
        if handle in self:
            return int(handle)
        if not isinstance(handle, (int, np.integer)):
            raise TypeError(f"handle must be an int (as World.add returns), not "
                            f"{type(handle).__name__}: {handle!r}")
        if 0 <= int(handle) < len(self._shapes):
            raise ValueError(f"handle {handle!r}: that collider was removed from this world "
                             f"(handles are never reused)")
        raise ValueError(f"handle {handle!r}: never added to this world (its handles run "
                         f"from 0 to {len(self._shapes) - 1})" if self._shapes else
                         f"handle {handle!r}: never added to this world (it has no colliders "
                         f"yet)")

    def shape(self, handle: int) -> Any:
        """The collider's shape (a Shape, a Chain, or an external collider's level shape)."""
        return self._shape_at(self._check(handle))

    def _shape_at(self, h: int) -> Any:
        """Live collider h's shape (or Chain), built from its bulk record on first use."""
        s = self._shapes[h]
        if s is _PENDING:
            start, tag, rows = self._bulk[bisect.bisect_right(self._bulk_starts, h) - 1]
            s = _bulk_shape(tag, rows[h - start].tolist())
            self._shapes[h] = s
        assert s is not None
        return s

    @property
    def version(self) -> int:
        """A change counter: it increases on every add, bulk add, remove and move, and never
        otherwise. Compare it with a remembered value to know whether cached answers about
        this world (the Simulation's static arrays, a user's) are still current."""
        return self._version

    def is_sensor(self, handle: int) -> bool:
        """Whether the collider was added with ``sensor=True``."""
        return self._check(handle) in self._sensor_set

    def data(self, handle: int) -> Any:
        """The collider's user data."""
        return self._data[self._check(handle)]

    def layer(self, handle: int) -> int:
        """The collider's layer bits."""
        return int(self._tags[self._check(handle), _scene.LAYER])

    def mask(self, handle: int) -> int:
        """The collider's own mask: the layers it collides with when it moves (for callers)."""
        return self._masks[self._check(handle)]

    def one_way(self, handle: int) -> Vec2 | Vec3 | None:
        """The unit direction of a one-way collider's solid side, or None for an ordinary one."""
        return self._one_way.get(self._check(handle))

    def is_moving(self, handle: int) -> bool:
        """Whether the collider was added with ``moving=True`` (the dynamic tree)."""
        return self._moving[self._check(handle)]

    def velocity(self, handle: int) -> Vec2 | Vec3:
        """The collider's velocity (length units per second; zero for a still collider): as
        set by :meth:`set_velocity` or :meth:`move`, or for a collider moved without one, its
        last Simulation step's displacement over the step's time."""
        h = self._check(handle)
        v = self._velocity.get(h)
        if v is not None:
            return v
        return Vec2(0.0, 0.0) if (self._dim or 2) == 2 else Vec3(0.0, 0.0, 0.0)

    def set_velocity(self, handle: int, velocity: Any) -> None:
        """Set the collider's velocity without moving it (a 2- or 3-vector, finite): the
        velocity of its surface, that a Simulation's contacts answer against (a still collider
        with a velocity along its surface is a conveyor belt). Sensors and colliders outside
        the compiled table (meshes, height fields...) hold none: ValueError."""
        h = self._check(handle)
        v = self._check_velocity(h, velocity, self._shape_at(h))
        self._changing()
        self._implied.discard(h)
        self._set_velocity(h, v)
        # a velocity change alone: no travel, but the Simulation wakes what touches it
        self._travel.setdefault(h, np.zeros(3))
        self._version += 1

    def _changing(self) -> None:
        """Before the collider table (rows, tags, pool, trees, velocities) changes: each
        watcher's ``world_changing()`` (:meth:`swept.events.ContactEvents.world_changing`)."""
        for watcher in list(self._watchers):
            watcher.world_changing()

    def _check_velocity(self, h: int, velocity: Any, shape: Any) -> Vec2 | Vec3:
        """``velocity`` for collider h as a vector of the world's dimension, or a ValueError
        (TypeError for a non-vector) naming ``velocity``."""
        if h in self._sensor_set or h in self._external_set:
            kind = "a sensor" if h in self._sensor_set else f"a {type(shape).__name__}"
            raise ValueError(f"velocity: {kind} has no velocity (a Simulation's bodies do not "
                             f"meet it)")
        if isinstance(shape, Chain) or h in self._chain_set:
            raise ValueError("velocity: a Chain cannot carry a velocity; add its segments as "
                             "colliders to move them")
        d = self._dim or shape.dim
        v = as_vec2(velocity, "velocity") if d == 2 else as_vec3(velocity, "velocity")
        result: Vec2 | Vec3 = v
        return result

    def _set_velocity(self, h: int, v: Vec2 | Vec3) -> None:
        """Keep collider h's velocity and write it to its table row."""
        self._keep_velocity(h, v)
        self._write_velocity(h)

    def _keep_velocity(self, h: int, v: Vec2 | Vec3) -> None:
        """Keep collider h's velocity (zero: none); its row is the caller's to write."""
        if any(v):
            self._velocity[h] = v
        else:
            self._velocity.pop(h, None)

    def _write_velocity(self, h: int) -> None:
        """Collider h's velocity into its row's ``VELOCITY`` columns, and its kinematic flag
        (set while it carries a velocity or moves in a step)."""
        row = self._rows[h]
        v = self._velocity.get(h)
        d = self._dim or 2
        row[_scene.VELOCITY:_scene.VELOCITY + 3] = 0.0
        if v is not None:
            row[_scene.VELOCITY:_scene.VELOCITY + d] = v
        if v is not None or row[_scene.MOTION:_scene.MOTION + 3].any():
            self._tags[h, _scene.FLAGS] |= _scene.FLAG_KINEMATIC
        else:
            self._tags[h, _scene.FLAGS] &= ~_scene.FLAG_KINEMATIC

    def _note_travel(self, h: int, old: Any, new: Any, velocity: Vec2 | Vec3 | None,
                     before: np.ndarray | None) -> None:
        """Record a table collider's move for the Simulation, once its row holds the new
        shape: the translation of its box's centre (``before``: the sum of its row's box
        corners before the move; a plane's: along its normal, when that is unchanged; a
        Chain's: none, it jumps), and its velocity (given, or left to the Simulation:
        implied; the caller writes the row's)."""
        if isinstance(old, Chain) or isinstance(new, Chain):
            self._forget_motion(h)
            self._layout += 1
            return
        if not self._moving[h]:
            # a still collider put somewhere else: a jump, not a motion (a Simulation wakes
            # every body, as for an add)
            self._travel.pop(h, None)
            self._layout += 1
            if velocity is not None:
                self._keep_velocity(h, velocity)
            return
        step = np.zeros(3)
        if before is None or isinstance(new, Plane):
            if isinstance(old, Plane) and isinstance(new, Plane) and old.normal == new.normal:
                step[:new.dim] = np.multiply(new.normal, new.offset - old.offset)
        else:
            # the box's centre: the table's box is grown by the same margin on both sides
            row = self._rows[h]
            step = 0.5 * ((row[_scene.LO:_scene.LO + 3] + row[_scene.HI:_scene.HI + 3])
                          - before)
        if not np.isfinite(step).all():
            # coordinates near the range's edge: a jump
            step[:] = 0.0
        so_far = self._travel.get(h)
        self._travel[h] = step if so_far is None else so_far + step
        if velocity is None:
            self._implied.add(h)
        else:
            self._implied.discard(h)
            self._keep_velocity(h, velocity)

    def _forget_motion(self, h: int) -> None:
        """Collider h neither moves nor carries a velocity any more (removed, or a Chain)."""
        self._velocity.pop(h, None)
        self._travel.pop(h, None)
        self._implied.discard(h)

    def _begin_motion(self, handles: np.ndarray, travel: np.ndarray) -> np.ndarray:
        """During a Simulation step, colliders ``handles`` ((k,) int64) move by ``travel``
        ((k, 3)), and their rows hold their poses at the step's end: the rows' ``MOTION`` and
        boxes that also cover where they started. Returns their own boxes ((k, 6)) for
        :meth:`_end_motion`."""
        rows = self._rows
        lo = rows[handles, _scene.LO:_scene.LO + 3]
        hi = rows[handles, _scene.HI:_scene.HI + 3]
        own = np.concatenate((lo, hi), axis=1)
        rows[handles, _scene.MOTION:_scene.MOTION + 3] = travel
        rows[handles, _scene.LO:_scene.LO + 3] = np.minimum(lo, lo - travel)
        rows[handles, _scene.HI:_scene.HI + 3] = np.maximum(hi, hi - travel)
        self._tags[handles, _scene.FLAGS] |= _scene.FLAG_KINEMATIC
        self._boxes_moved(handles)
        return own

    def _end_motion(self, handles: np.ndarray, own: np.ndarray, version: int) -> None:
        """After the step: the rows of ``handles`` still again, with their own boxes ``own``
        (from :meth:`_begin_motion`; recomputed from the shapes when the World changed
        since, at ``version``, as a callback's move or remove may have rewritten them)."""
        keep = np.array([h in self for h in handles.tolist()], np.bool_)
        handles, own = handles[keep], own[keep]
        rows = self._rows
        if self._version != version:
            d = self._dim or 2
            for k, h in enumerate(handles.tolist()):
                box = self._shape_at(h).aabb
                grow = BOX_MARGIN * _scale(box.min, box.max)
                own[k, :d] = np.subtract(box.min, grow)
                own[k, 3:3 + d] = np.add(box.max, grow)
        rows[handles, _scene.MOTION:_scene.MOTION + 3] = 0.0
        rows[handles, _scene.LO:_scene.LO + 3] = own[:, :3]
        rows[handles, _scene.HI:_scene.HI + 3] = own[:, 3:]
        still = ~rows[handles, _scene.VELOCITY:_scene.VELOCITY + 3].any(axis=1)
        self._tags[handles[still], _scene.FLAGS] &= ~_scene.FLAG_KINEMATIC
        self._boxes_moved(handles)

    def _boxes_moved(self, handles: np.ndarray) -> None:
        """The boxes of ``handles`` changed in place: refit the moving tree, rebuild the
        static one when it holds one of them (the unbounded list needs nothing)."""
        for h in handles.tolist():
            if h in self._dynamic_set:
                self._refit = True
            elif h in self._static_set:
                self._static_tree = None
                self._packed = None
        self._scene = None

    def _take_travel(self) -> tuple[dict[int, np.ndarray], set[int]]:
        """For a Simulation's step: the translation of every table collider moved (or given a
        velocity) since the last call, and which of them take the velocity of that
        translation; both are forgotten here."""
        travel, self._travel = self._travel, {}
        return travel, self._implied.intersection(travel) | {
            h for h in self._implied if h in self._velocity}

    def _grow(self, need: int) -> None:
        """Make room for row ``need - 1`` in the collider table."""
        cap = self._hcap
        if need <= cap:
            return
        new = max(need, 2 * cap)
        rows = np.zeros((new, _scene.ROW_WIDTH))
        rows[:cap] = self._rows[:cap]
        tags = np.zeros((new, _scene.TAG_WIDTH), np.int64)
        tags[:, _scene.KIND] = _scene.KIND_EMPTY
        tags[:cap] = self._tags[:cap]
        self._rows, self._tags = rows, tags
        self._hcap = new
        self._static_rows_end = new
        self._scene = None
        if self._chain_rows:
            # the chains' segment rows were past the old handle rows: write them anew
            self._chain_rows = {}
            self._static_tree = None
            self._packed = None

    def _pool_add(self, poly: ShapeView) -> tuple[int, int]:
        """Copy a polygon's corners, then its normals, into the pool: (first row, corners)."""
        n = poly.core.shape[0]
        if self._pool_used + 2 * n > self._pool.shape[0]:
            size = max(2 * self._pool.shape[0], self._pool_used + 2 * n)
            new = np.zeros((size, 2))
            new[: self._pool_used] = self._pool[: self._pool_used]
            self._pool = new
            self._scene = None
        s = self._pool_used
        self._pool[s:s + n] = poly.core
        self._pool[s + n:s + 2 * n] = poly.normals
        self._pool_used += 2 * n
        self._pool_live += 2 * n
        return s, n

    def _pool_release(self, h: int) -> None:
        """Forget collider h's pool rows; compact the pool when mostly dead."""
        chain = self._tags[h, _scene.KIND] == _scene.KIND_CHAIN
        self._pool_live -= (1 if chain else 2) * int(self._tags[h, _scene.COUNT])
        dead = self._pool_used - self._pool_live
        if dead > POOL_COMPACT_MIN and dead > self._pool_live:
            self._pool_used = 0
            self._pool_live = 0
            for g, s in enumerate(self._shapes):
                if g != h and isinstance(s, Polygon) and \
                        self._tags[g, _scene.KIND] == _scene.KIND_POLYGON:
                    self._tags[g, _scene.FIRST:_scene.COUNT + 1] = self._pool_add(view(s))
                elif g != h and isinstance(s, Chain) and \
                        self._tags[g, _scene.KIND] == _scene.KIND_CHAIN:
                    self._tags[g, _scene.FIRST:_scene.COUNT + 1] = self._pool_add_points(s)
            if self._chain_rows:
                # the chains' segment rows name their points' old place in the pool
                self._chain_rows = {}
                self._static_tree = None
                self._packed = None
                self._scene = None

    def _pool_add_points(self, chain: Chain) -> tuple[int, int]:
        """Copy a chain's points into the pool: (first row, points)."""
        n = len(chain.points)
        if self._pool_used + n > self._pool.shape[0]:
            size = max(2 * self._pool.shape[0], self._pool_used + n)
            new = np.zeros((size, 2))
            new[: self._pool_used] = self._pool[: self._pool_used]
            self._pool = new
            self._scene = None
        s = self._pool_used
        self._pool[s:s + n] = np.array(chain.points, dtype=np.float64)
        self._pool_used += n
        self._pool_live += n
        return s, n

    def _store_chain(self, h: int, chain: Chain) -> None:
        """Write chain h's row: kind, loop flag, its points in the pool, its box."""
        self._chain_set.add(h)
        self._tags[h, _scene.KIND] = _scene.KIND_CHAIN
        row = self._rows[h]
        row[:] = 0.0
        row[0] = 1.0 if chain.loop else 0.0
        self._tags[h, _scene.FIRST:_scene.COUNT + 1] = self._pool_add_points(chain)
        box = chain.aabb
        grow = BOX_MARGIN * _scale(box.min, box.max)
        row[_scene.LO:_scene.LO + 2] = np.subtract(box.min, grow)
        row[_scene.HI:_scene.HI + 2] = np.add(box.max, grow)

    def _split_chains(self, handles: set[int], static: bool) -> np.ndarray:
        """A tree's primitives: ``handles`` sorted, each chain among them replaced by one row
        per segment, so that a query meets only the segments near it, not every segment of a
        long chain. The rows lie past the handles' (the table grows to hold them): the static
        chains' first, rewritten whenever the static tree is rebuilt (which then rebuilds the
        moving tree too), then the moving chains', rewritten when the moving tree is."""
        plain = sorted(handles.difference(self._chain_set))
        chains = sorted(handles.intersection(self._chain_set))
        hcap = self._hcap
        if static:
            self._chain_rows = {}
            at = hcap
            if self._dynamic_set.intersection(self._chain_set):
                # the moving chains' rows follow the static ones': written anew after them
                self._dynamic_tree = None
        else:
            # (a static tree built when there were no chains left no rows: the handles' end)
            at = max(self._static_rows_end, hcap)
            for g in [g for g, (first, _n) in self._chain_rows.items() if first >= at]:
                del self._chain_rows[g]
        counts = [int(self._tags[g, _scene.COUNT]) - (0 if self._rows[g, 0] else 1)
                  for g in chains]
        stop = at + sum(counts)
        if self._rows.shape[0] < stop:
            size = hcap + max(stop - hcap, 2 * (self._rows.shape[0] - hcap))
            rows = np.zeros((size, _scene.ROW_WIDTH))
            rows[:at] = self._rows[:at]
            tags = np.zeros((size, _scene.TAG_WIDTH), np.int64)
            tags[:, _scene.KIND] = _scene.KIND_EMPTY
            tags[:at] = self._tags[:at]
            self._rows, self._tags = rows, tags
            self._scene = None
        first_row = at
        for g, n in zip(chains, counts):
            self._write_chain_rows(g, at, n)
            self._chain_rows[g] = (at, n)
            at += n
        if static:
            self._static_rows_end = at
        # rows of chains since removed or moved: nothing reads them (no tree holds them)
        self._tags[at:, _scene.KIND] = _scene.KIND_EMPTY
        self._tags[at:, _scene.LAYER] = 0
        return np.concatenate((np.array(plain, dtype=np.int64),
                               np.arange(first_row, at, dtype=np.int64)))

    def _write_chain_rows(self, g: int, at: int, n: int) -> None:
        """Write chain g's n segments into the table's rows ``at .. at+n-1``."""
        first = int(self._tags[g, _scene.FIRST])
        count = int(self._tags[g, _scene.COUNT])
        pts = self._pool[first:first + count]
        a = pts[:n]
        b = np.roll(pts, -1, axis=0)[:n]
        rows = self._rows[at:at + n]
        rows[:] = 0.0
        rows[:, 0:2] = a
        rows[:, 2:4] = b
        rows[:, 4] = np.arange(n)
        rows[:, 5] = self._rows[g, 0]
        rows[:, _scene.CHAIN_OWNER] = g
        lo, hi = np.minimum(a, b), np.maximum(a, b)
        # each segment's box grown as the table grows a lone segment's
        grow = BOX_MARGIN * np.maximum(1.0, np.maximum(np.abs(lo), np.abs(hi)).max(axis=1))
        rows[:, _scene.LO:_scene.LO + 2] = lo - grow[:, None]
        rows[:, _scene.HI:_scene.HI + 2] = hi + grow[:, None]
        tags = self._tags[at:at + n]
        tags[:] = 0
        tags[:, _scene.KIND] = _scene.KIND_CHAIN_SEGMENT
        tags[:, _scene.LAYER] = self._tags[g, _scene.LAYER]
        tags[:, _scene.FIRST] = first
        tags[:, _scene.COUNT] = count

    def _owners(self, found: np.ndarray) -> np.ndarray:
        """Kernel results' rows as handles: a chain segment's row becomes its chain's handle
        (in place; -1 and handles stay)."""
        if self._chain_rows:
            sub = found >= self._hcap
            if sub.any():
                found[sub] = self._rows[found[sub], _scene.CHAIN_OWNER].astype(np.int64)
        return found

    def _store(self, h: int, shape: Shape | Chain) -> None:
        """Write collider h's kind, parameters and box."""
        if isinstance(shape, Chain):
            self._store_chain(h, shape)
            return
        self._chain_set.discard(h)
        v = _encode(shape)
        self._tags[h, _scene.KIND] = v.kind
        row = self._rows[h]
        row[:] = 0.0
        row[: len(v.params)] = v.params
        if v.normals is not None:
            self._tags[h, _scene.FIRST:_scene.COUNT + 1] = self._pool_add(v)
        box = shape.aabb
        grow = BOX_MARGIN * _scale(box.min, box.max)
        d = shape.dim
        row[_scene.LO:_scene.LO + d] = np.subtract(box.min, grow)
        row[_scene.HI:_scene.HI + d] = np.add(box.max, grow)
        w = self._one_way.get(h)
        if w is None:
            self._tags[h, _scene.FLAGS] &= ~_scene.FLAG_ONE_WAY
        else:
            row[_scene.ONE_WAY:_scene.ONE_WAY + d] = w
            self._tags[h, _scene.FLAGS] |= _scene.FLAG_ONE_WAY

    def add(self, shape: Shape | Chain, data: Any = None, *, layer: int = 1,
            mask: int = ALL_LAYERS, moving: bool = False, sensor: bool = False,
            one_way: Any = None) -> int:
        """Add a collider; returns its handle (ints from 0 in insertion order, never reused).

        ``layer`` (32 bits) is what queries' masks test; ``mask`` is the collider's own
        mask, kept for callers that move it; ``moving=True`` puts it in the dynamic tree,
        for colliders moved often. ``sensor=True`` makes a trigger volume: rays, sweeps and
        batches pass through it (unless a scalar query asks ``include_sensors=True``);
        ``contacts``, ``query_aabb`` and ``query_point`` report it. A :class:`~swept.Chain`
        (2D) is one collider whose every query answers as the scalar API's for the chain.

        An :class:`~swept.OrientedBox`, :class:`~swept.ConvexHull`, ``TriangleMesh``,
        ``HeightField`` or ``TileMap`` is an *external* collider: kept outside the compiled
        table and answered by the scalar queries (every World query, batches row by row for
        the rows that reach one, ``move_and_slide``), not by a Simulation's bodies.

        ``one_way`` (a direction, made unit) makes a one-way collider, solid only from the
        side it faces: casts moving against it onto a surface facing it, and contacts whose
        normal faces it, stand; everything else passes (a platform jumped through from below
        and landed on from above; :mod:`swept.oneway`). One-way colliders are tested by every
        query (as planes are), so a level should hold tens of them, not thousands.
        """
        if not isinstance(sensor, (bool, np.bool_)):
            raise TypeError(f"sensor must be a bool, not {type(sensor).__name__}")
        if one_way is not None:
            if sensor:
                raise ValueError("one_way: a sensor has no solid side")
            if isinstance(shape, Chain):
                raise ValueError("one_way: a Chain cannot be one-way; add its segments")
        outside = _external(shape)
        if outside and one_way is not None:
            raise ValueError(f"one_way: a {type(shape).__name__} cannot be one-way")
        if not outside and (not isinstance(shape, (Shape, Chain)) or isinstance(shape, Ray)):
            raise TypeError(f"shape must be a collider shape, not {type(shape).__name__}")
        if not outside and not isinstance(shape, Chain):
            _encode(shape)  # the type check
        if self._dim is not None and shape.dim != self._dim:
            raise ValueError(f"shape: this world is {self._dim}D, a {shape.dim}D "
                             f"{type(shape).__name__} cannot join it")
        w = None if one_way is None else one_way_direction(one_way, shape.dim)
        self._changing()
        if self._dim is None:
            self._dim = shape.dim
        lay = _mask(layer, "layer") if not isinstance(layer, bool) else None
        if lay is None:
            raise TypeError("layer must be an int")
        m = _mask(mask)
        h = len(self._shapes)
        self._grow(h + 1)
        self._shapes.append(shape)
        self._data.append(data)
        self._masks.append(m)
        self._moving.append(bool(moving))
        self._tags[h, _scene.LAYER] = lay
        if w is not None:
            self._one_way[h] = w
        if sensor or outside:
            self._sensor_file(h, shape, not sensor)
        else:
            self._store(h, shape)
            self._file(h, shape)
        self._alive += 1
        self._version += 1
        self._layout += 1
        return h

    def _sensor_file(self, h: int, shape: Any, solid: bool = False) -> None:
        """Keep sensor h's box (grown as :meth:`_store` grows the table's) for the outside
        tree, which only the Python query paths read; mark that tree for rebuild. ``solid``:
        h is an external collider (a shape the kernels cannot hold), not a sensor."""
        (self._external_set if solid else self._sensor_set).add(h)
        # World.raycast's one-call path depends on the external colliders: describe again
        self._ray_scene = _NOT_DESCRIBED
        self._tags[h, _scene.KIND] = _scene.KIND_EMPTY
        box = shape.aabb
        grow = BOX_MARGIN * _scale(box.min, box.max)
        self._sensor_box[h] = (np.subtract(box.min, grow), np.add(box.max, grow))
        self._sensor_tree = None
        self._sensor_world = None

    def _sensor_unfile(self, h: int) -> None:
        self._sensor_set.discard(h)
        self._external_set.discard(h)
        self._ray_scene = _NOT_DESCRIBED
        del self._sensor_box[h]
        self._sensor_tree = None
        self._sensor_world = None

    def _sensor_sync(self) -> _BoxTree:
        """The outside tree over the sensors' and external colliders' bounded boxes (sensor
        planes in ``_sensor_planes``)."""
        if self._sensor_tree is None:
            d = self._dim or 2
            planes = sorted(h for h in self._sensor_set if isinstance(self._shapes[h], Plane))
            bounded = sorted(set(self._sensor_box).difference(planes))
            lo = np.array([self._sensor_box[h][0] for h in bounded], np.float64)
            hi = np.array([self._sensor_box[h][1] for h in bounded], np.float64)
            self._sensor_tree = _BoxTree(bounded, lo.reshape(-1, d), hi.reshape(-1, d))
            self._sensor_planes = planes
        return self._sensor_tree

    def _sensor_scene(self) -> tuple[_scene.Scene, np.ndarray] | None:
        """The sensors as the kernels take colliders: the scene of a private World holding
        their shapes and layers in handle order, and the handle of each of its rows ((k,)
        int64, increasing); None when there are none. For the Simulation's sensor events."""
        if not self._sensor_set:
            return None
        if self._sensor_world is None:
            handles = sorted(self._sensor_set)
            own = World()
            for h in handles:
                own.add(self._shape_at(h), layer=int(self._tags[h, _scene.LAYER]))
            self._sensor_world = (own, np.array(handles, np.int64))
        own, rows = self._sensor_world
        return own._sync(), rows

    def _file(self, h: int, shape: Shape | Chain) -> None:
        """Put collider h in the unbounded list (a plane, a one-way collider) or one of the
        trees (marking it for rebuild)."""
        if isinstance(shape, Plane) or h in self._one_way:
            self._plane_set.add(h)
        elif self._moving[h]:
            self._dynamic_set.add(h)
            self._dynamic_tree = None
        else:
            self._static_set.add(h)
            self._static_tree = None
        self._packed = None
        self._scene = None

    def _unfile(self, h: int) -> None:
        """Take collider h out of its set (marking the structure for rebuild)."""
        if h in self._plane_set:
            self._plane_set.discard(h)
        elif h in self._dynamic_set:
            self._dynamic_set.discard(h)
            self._dynamic_tree = None
        else:
            self._static_set.discard(h)
            self._static_tree = None
        self._packed = None
        self._scene = None

    def remove(self, handle: int) -> None:
        """Remove a collider; its handle is never reused."""
        h = self._check(handle)
        self._changing()
        self._version += 1
        self._layout += 1
        self._forget_motion(h)
        if h in self._sensor_box:
            self._sensor_unfile(h)
            self._shapes[h] = None
            self._data[h] = None
            self._alive -= 1
            return
        self._unfile(h)
        self._one_way.pop(h, None)
        if self._tags[h, _scene.KIND] in (_scene.KIND_POLYGON, _scene.KIND_CHAIN):
            self._pool_release(h)
        self._chain_set.discard(h)
        self._tags[h] = 0
        self._tags[h, _scene.KIND] = _scene.KIND_EMPTY
        self._shapes[h] = None
        self._data[h] = None
        self._alive -= 1

    def move(self, handle: int, shape: Shape | Chain, velocity: Any = None) -> None:
        """Replace a collider's shape (a new pose, or a new shape of the world's dimension).

        ``velocity`` (a 2- or 3-vector, finite) sets the collider's velocity
        (:meth:`velocity`). A collider added with ``moving=True`` *moves*: a
        :class:`swept.Simulation`'s next step sweeps its bodies against its displacement since
        the step before (the translation of its box's centre) and, without ``velocity``, gives
        it that displacement over the step's time as its velocity. Any other collider *jumps*
        (as before: the bodies are pushed out of it where it lands). The World's own queries
        ignore velocities (docs/simulation.md, "Moving colliders")."""
        h = self._check(handle)
        v = None if velocity is None else self._check_velocity(h, velocity, shape)
        outside = _external(shape)
        if h not in self._sensor_set and outside != (h in self._external_set):
            raise ValueError(f"shape: collider {h} cannot become a {type(shape).__name__} "
                             f"(the compiled table holds one of the two kinds and not the "
                             f"other); remove it and add the new shape")
        if not isinstance(shape, Chain) and not outside:
            _encode(shape)
        elif h in self._one_way:
            raise ValueError("shape: a one-way collider cannot become a Chain")
        if shape.dim != self._dim:
            raise ValueError(f"shape: this world is {self._dim}D, a {shape.dim}D "
                             f"{type(shape).__name__} cannot join it")
        self._replace(h, shape, v)

    def _replace(self, h: int, shape: Shape | Chain, v: Vec2 | Vec3 | None) -> None:
        """:meth:`move` after its checks (a Simulation moving a driven collider by its
        velocity calls it with the translation of a shape already checked)."""
        self._changing()
        self._version += 1
        if h in self._sensor_box:
            self._layout += 1
            self._shapes[h] = shape
            self._sensor_file(h, shape, h in self._external_set)
            return
        old = self._shape_at(h)
        row = self._rows[h]
        # twice the box's centre (a plane's box is unbounded: its travel is its offset's)
        before = (None if isinstance(old, Plane)
                  else row[_scene.LO:_scene.LO + 3] + row[_scene.HI:_scene.HI + 3])
        if self._tags[h, _scene.KIND] in (_scene.KIND_POLYGON, _scene.KIND_CHAIN):
            self._pool_release(h)
        self._shapes[h] = shape
        self._store(h, shape)
        self._note_travel(h, old, shape, v, before)
        self._write_velocity(h)
        if self._moving[h] and (isinstance(old, Chain) or isinstance(shape, Chain)):
            # a moving chain's segment rows: rewritten in place (the refit follows), or the
            # moving tree rebuilt when its segments are not the same number
            place = self._chain_rows.get(h)
            n = len(shape.segments) if isinstance(shape, Chain) else -1
            if place is not None and place[1] == n:
                self._write_chain_rows(h, place[0], n)
            else:
                self._dynamic_tree = None
                self._packed = None
                self._scene = None
        if isinstance(old, Plane) or isinstance(shape, Plane) or h in self._one_way:
            self._unfile(h)
            self._file(h, shape)
        elif self._moving[h]:
            # a moving collider: refit its tree, or rebuild it after many refits
            self._refits += 1
            if self._refits > DYNAMIC_REFITS_BEFORE_REBUILD:
                self._dynamic_tree = None
                self._packed = None
                self._scene = None
            else:
                self._refit = True
                self._scene = None
        else:
            self._static_tree = None
            self._packed = None
            self._scene = None

    # ------------------------------------------------------------------ broadphase sync

    def _tree(self, handles: set[int]) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
        """A BVH over the boxes of ``handles``: (nodes, links, handles in row order)."""
        d = self._dim or 2
        if self._chain_set:
            # a chain contributes one primitive per segment
            hs = self._split_chains(handles, handles is self._static_set)
        else:
            hs = np.array(sorted(handles), dtype=np.int64)
        lo = np.ascontiguousarray(self._rows[hs, _scene.LO:_scene.LO + d])
        hi = np.ascontiguousarray(self._rows[hs, _scene.HI:_scene.HI + d])
        nodes, links = _bvh.build(lo, hi)
        return nodes, links, hs

    def _sync(self) -> _scene.Scene:
        """Rebuild, repack or refit what is stale; the scene as the kernels take it."""
        scene = self._scene
        if scene is not None:
            # nothing changed: every change sets _scene to None
            return scene
        if self._packed is None:
            if self._static_tree is None:
                self._static_tree = self._tree(self._static_set)
                self._grid = self._build_grid(self._static_tree[2])
            if self._dynamic_tree is None:
                self._dynamic_tree = self._tree(self._dynamic_set)
                self._refits = 0
            planes = np.array(sorted(self._plane_set), dtype=np.int64)
            self._packed = _kw.pack(self._dim or 2, self._static_tree, self._dynamic_tree,
                                    planes, self._split_grid(), self._moving_block())
            # the moving tree's boxes may have moved since it was built
            self._refit = bool(self._dynamic_set)
        scene = _scene.Scene(self._rows, self._tags, self._pool, *self._packed)
        if self._refit:
            _kw.refit_moving(scene)
            self._refit = False
        self._scene = scene
        return scene

    def _build_grid(self, handles: np.ndarray) -> Any:
        """The ray grid over the static colliders as :func:`swept._kernels.world.pack` takes
        it, or None when :func:`swept.broadphase.choose_broadphase` picks the BVH for the
        scene (3D, few colliders, clusters). Colliders on layer 0, which no mask sees, stay out
        of it. The choice is kept in ``_broadphase`` (its ``reason`` says why)."""
        # in ascending order (they are already: sorted, chain rows after): a cell's entries
        # then follow the handles' order, which the ray walk's stop on a hit at 0 relies on
        handles = np.sort(handles[self._tags[handles, _scene.LAYER] != 0])
        d = self._dim or 2
        lo = self._rows[handles, _scene.LO:_scene.LO + d]
        hi = self._rows[handles, _scene.HI:_scene.HI + d]
        kinds = self._tags[handles, _scene.KIND]
        thin = ((kinds == _scene.KIND_SEGMENT) | (kinds == _scene.KIND_CAPSULE2)
                | (kinds == _scene.KIND_CHAIN_SEGMENT))
        choice = choose_broadphase(lo, hi, d, thin=thin)
        self._broadphase = choice
        if not choice.use_grid:
            return None
        x0, y0 = float(lo[:, 0].min()), float(lo[:, 1].min())
        width = float(hi[:, 0].max()) - x0
        height = float(hi[:, 1].max()) - y0
        cell = choice.cell
        # memory: at most GRID_MAX_ENTRIES entries and cells in all, the cell doubled until so
        for _ in range(MAX_DEPTH):
            nx = int(math.floor(width / cell)) + 1
            ny = int(math.floor(height / cell)) + 1
            if nx * ny <= GRID_MAX_ENTRIES:
                start, items, entries = _grid.bin_colliders(
                    self._rows, self._tags, handles, x0, y0, cell, nx, ny, GRID_MAX_ENTRIES)
                if entries <= GRID_MAX_ENTRIES:
                    break
            cell *= 2.0
        else:
            # more colliders than a grid may hold entries (one cell would hold them all)
            self._broadphase = choice._replace(
                use_grid=False, reason=f"BVH (a grid would hold over {GRID_MAX_ENTRIES:,} "
                                       "entries at any cell size)")
            return None
        rows = _grid.collider_rows(self._rows, self._tags, handles, GRID_MARGIN * cell)
        frame = np.array([x0, y0, cell])
        return frame, np.array([nx, ny], dtype=np.int64), start, items, rows, handles

    def _split_grid(self) -> Any:
        """The ray grid as the rays walk it: :attr:`_grid` with its crowded cells split into
        sub-grids (:func:`swept._kernels.grid.subdivide`), or None without a grid."""
        if self._grid is None:
            return None
        frame, dims, start, items, rows, handles = self._grid
        start, items = _grid.subdivide(
            self._rows, self._tags, handles, start, items,
            (float(frame[0]), float(frame[1]), float(frame[2]), int(dims[0]), int(dims[1])),
            GRID_SUB_CROWDED, GRID_SUB_PER_CELL, GRID_SUB_MAX_SIDE,
            min(GRID_MAX_ENTRIES, items.shape[0] + GRID_SUB_GROWTH * handles.shape[0]))
        return frame, dims, start, items, rows, handles

    def _moving_block(self) -> np.ndarray | None:
        """The moving colliders' coarse grid block (:func:`swept._kernels.grid.moving_block`)
        over the ray grid's frame, or None (no grid, or no moving colliders). Its cells are K
        x K grid cells, K sized for MOVING_GRID_COLLIDERS_PER_CELL moving colliders a coarse
        cell; its capacity holds every moving collider's box, at its size now, wherever it
        moves."""
        if self._grid is None or self._dynamic_tree is None:
            return None
        handles = self._dynamic_tree[2]
        m = handles.shape[0]
        if m == 0:
            return None
        frame, dims = self._grid[0], self._grid[1]
        nx, ny = int(dims[0]), int(dims[1])
        cell = float(frame[2])
        k = max(1, int(round(math.sqrt(nx * ny * MOVING_GRID_COLLIDERS_PER_CELL / m))))
        k = min(k, max(nx, ny))
        mnx = (nx + k - 1) // k
        mny = (ny + k - 1) // k
        # a box of span s touches at most floor((s + 2 g) / (k cell)) + 2 coarse cells an axis
        g = 2.0 * GRID_MARGIN * cell
        span = (self._rows[handles, _scene.HI:_scene.HI + 2]
                - self._rows[handles, _scene.LO:_scene.LO + 2])
        per_axis = np.minimum(np.floor((span + g) / (k * cell)) + 2.0, [mnx, mny])
        capacity = int(np.sum(per_axis[:, 0] * per_axis[:, 1]))
        # and at most floor((s + 2 g) / cell) + 2 grid cells an axis (the cells it marks),
        # marked only within MOVING_GRID_MARKS_PER_COLLIDER a collider (0: no marks, the rays
        # read the coarse cell of every grid cell they cross)
        fine = np.minimum(np.floor((span + g) / cell) + 2.0, [nx, ny])
        marked = int(min(np.sum(fine[:, 0] * fine[:, 1]), nx * ny))
        if marked > MOVING_GRID_MARKS_PER_COLLIDER * m:
            marked = 0
        return _grid.moving_block(k, mnx, mny, capacity, MOVING_GRID_OUTSIDE, marked)

    def _outside(self, sensors: bool, skip: set[int]) -> set[int] | None:
        """The skip set for a walk of the outside tree, or None when the query has nothing
        there to walk: the external colliders always, the sensors only when asked."""
        if sensors and self._sensor_set:
            return skip
        if self._external_set:
            return skip | self._sensor_set if self._sensor_set else skip
        return None

    def _visible(self, h: int, mask: int, ignore: set[int]) -> bool:
        return (int(self._tags[h, _scene.LAYER]) & mask) != 0 and h not in ignore

    def _candidates(self, qlo: Any, qhi: Any) -> list[int]:
        """Handles whose boxes touch [qlo, qhi], planes included, sorted."""
        scene = self._sync()
        query = np.zeros(6)
        d = self._dim or 2
        query[:d] = qlo
        query[3:3 + d] = qhi
        out = np.empty(64, np.int64)
        n = _kw.box_candidates(scene, query, out)
        if n > out.shape[0]:
            out = np.empty(n, np.int64)
            _kw.box_candidates(scene, query, out)
        if self._chain_rows:
            # a chain's segments: the chain, once
            return sorted(set(self._owners(out[:n]).tolist()))
        return sorted(out[:n].tolist())

    def _ray_candidates(self, origin: Any, direction: Any, tmax: float, radius: float
                        ) -> list[int]:
        """Handles whose boxes, grown by ``radius``, the ray segment touches (front to back by
        node entry), planes included."""
        scene = self._sync()
        if len(origin) == 2:
            ray = (origin[0], origin[1], 0.0, direction[0], direction[1], 0.0)
        else:
            ray = (*origin, *direction)
        out = np.empty(64, np.int64)
        n = _kw.ray_candidates(scene, ray, tmax, radius, out)
        if n > out.shape[0]:
            out = np.empty(n, np.int64)
            _kw.ray_candidates(scene, ray, tmax, radius, out)
        if self._chain_rows:
            # a chain's segments: the chain, once, where its first segment came
            return list(dict.fromkeys(self._owners(out[:n]).tolist()))
        result: list[int] = out[:n].tolist()
        return result

    def _box_handles(self, lo: Any, hi: Any, *, mask: int = ALL_LAYERS,
                     ignore: Iterable[int] = (), include_sensors: bool = True) -> list[int]:
        """Handles of the visible colliders whose *boxes* touch the box [lo, hi], sorted: the
        broadphase's answer without a narrowphase, for callers that run their own
        (:func:`swept.controller.move_and_slide`)."""
        m = _mask(mask)
        if self._dim is None or self._alive == 0:
            return []
        qlo = np.asarray(lo, dtype=np.float64)
        qhi = np.asarray(hi, dtype=np.float64)
        cands = self._candidates(qlo, qhi)
        skip = set(ignore)
        outside = self._outside(include_sensors, skip)
        if outside is not None:
            cands = sorted(cands + self._sensor_sync().candidates(qlo, qhi) + self._sensor_planes)
            skip = outside
        return [h for h in cands if self._visible(h, m, skip)]

    def _table_boxes(self, handles: list[int]) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
        """``(handles, lo, hi)`` of table colliders, their boxes as the broadphase holds them."""
        d = self._dim or 2
        hs = np.array(handles, dtype=np.int64)
        return (hs, self._rows[hs, _scene.LO:_scene.LO + d],
                self._rows[hs, _scene.HI:_scene.HI + d])

    def _check_dim(self, shape: Any, name: str) -> None:
        if shape.dim != self._dim:
            raise ValueError(f"{name}: this world is {self._dim}D, got a {shape.dim}D "
                             f"{type(shape).__name__}")

    def _set_skip(self, ignore: Iterable[int]) -> list[int]:
        """Mark the ignored handles invisible to the kernels; returns them, to unmark."""
        marked = []
        n = len(self._shapes)
        for h in ignore:
            if isinstance(h, (int, np.integer)) and 0 <= int(h) < n:
                self._tags[int(h), _scene.FLAGS] |= _scene.FLAG_SKIP
                marked.append(int(h))
                if int(h) in self._chain_rows:
                    # a chain: its segments' rows too
                    first, count = self._chain_rows[int(h)]
                    self._tags[first:first + count, _scene.FLAGS] |= _scene.FLAG_SKIP
                    marked += range(first, first + count)
        return marked

    # ------------------------------------------------------------------ scalar queries

    def _describe_scene(self) -> None:
        """Bring the scene up to date and describe it for World.raycast's kernel."""
        scene = self._sync()
        # a segment's shared normals belong to its shape, which may have changed
        normals = dict(_AXIS_NORMALS)
        # the data list and the normals go to World.raycast's kernel by address: the
        # descriptor's objects are kept alive beside it (the very ones described). Made in
        # locals, then stored together with no allocation between: an allocation may run the
        # garbage collector, whose finalizers may query the World and describe it in between
        data = self._data
        desc = _world_hit.describe_hits(scene, data, normals, self._hcap)
        address = desc.ctypes.data
        self._normals = normals
        self._ray_objects = (data, normals)
        self._ray_desc = desc
        self._ray_address = address
        self._ray_scene = scene
        # World.raycast's one-call path: rays in a world of table colliders only
        self._plain_dim = (self._dim or 0) if not self._external_set else 0

    def _cast_one(self, origin: Any, direction: Any, tmax: float, radius: float, grown: bool,
                  mask: int, ignore: Iterable[int]
                  ) -> tuple[int, float, tuple[float, ...], tuple[float, ...], bool, float]:
        """One ray (or ball) through the kernels: (handle, t, point, normal, inside, exit)
        (the exit is ``t`` for a ball)."""
        if self._scene is not self._ray_scene:
            self._describe_scene()
        if len(origin) == 2:
            (ox, oy), (dx, dy) = origin, direction
            ray = (ox, oy, 0.0, dx, dy, 0.0)
        else:
            ray = (*origin, *direction)
        marked = self._set_skip(ignore) if ignore else []
        flags = (_kw.CAST_GROWN if grown else 0) | (_kw.CAST_SKIPPING if marked else 0)
        try:
            h, t, px, py, pz, nx, ny, nz, inside, te = _cast_at(self._ray_address, ray, tmax,
                                                                radius, mask, flags)
        finally:
            for g in marked:
                self._tags[g, _scene.FLAGS] &= ~_scene.FLAG_SKIP
        if h >= self._hcap:
            # a chain's segment: the chain
            h = int(self._rows[h, _scene.CHAIN_OWNER])
        if len(origin) == 2:
            return h, t, (px, py), (nx, ny), inside, te
        return h, t, (px, py, pz), (nx, ny, nz), inside, te

    def raycast(self, ray: Ray, *, mask: int = ALL_LAYERS, ignore: Iterable[int] = (),
                filter: Callable[[int, Any], bool] | None = None,
                include_sensors: bool = False) -> WorldRayHit | None:
        """The nearest hit of ``ray`` on a visible collider (ties: smallest handle), or None:
        what :func:`swept.raycast` gives for that collider, with its handle and data.

        ``filter(handle, data)``, called for colliders the mask and ``ignore`` pass, hides
        those it returns false for (the nearest *accepted* hit); ``include_sensors=True``
        also tests sensors."""
        if ray.__class__ is not Ray or self._scene is not self._ray_scene:
            if ray.__class__ is not Ray and not isinstance(ray, Ray):
                raise TypeError(f"ray must be a Ray, not {type(ray).__name__}")
            if self._scene is not self._ray_scene:
                # something changed since the last query (or there was none)
                if self._dim is None or self._alive == 0:
                    return None
                self._describe_scene()
        m = mask if mask == ALL_LAYERS else _mask(mask)
        if ray.dim == self._plain_dim and not ignore and filter is None and \
                include_sensors is False:
            # the common case in one compiled call, which returns the WorldRayHit (or None)
            # itself (swept._kernels.world_hit: the record built by the call's boxing, the
            # normal shared when it recurs, the data read by handle); World.raycast is called
            # once a ray, from loops: every Python step here is a share of the call
            hit: WorldRayHit | None
            if self._plain_dim == 2:
                hit = _ray_hit2(self._ray_address, ray._args, m)
            else:
                hit = _ray_hit3(self._ray_address, ray._args, m)
            return hit
        if filter is not None or include_sensors is not False:
            _check_filter(filter, include_sensors)
        if self._dim is None or self._alive == 0:
            return None
        self._check_dim(ray, "ray")
        if filter is not None:
            return self._raycast_filtered(ray, m, ignore, filter, include_sensors)
        skip = set(ignore)
        outside = self._outside(include_sensors, skip)
        origin = ray.origin
        h, t, p, n, inside, te = self._cast_one(origin, ray.direction, ray.max_distance, 0.0,
                                                False, m, skip)
        found: WorldRayHit | None = None
        if h >= 0:
            vec = Vec2 if self._dim == 2 else Vec3
            point: Any = origin if inside else _tn(vec, p)
            # the exit comes from the kernel (exit_row, on the hit collider only)
            found = _rn(WorldRayHit, (t, point, _tn(vec, n), inside, te, h, self._data[h]))
        if outside is not None:
            # the sensors (if asked) and the external colliders: the scalar walk, to beat it
            found = self._raycast_python(ray, m, outside, None, False, True, found)
        return found

    def raycast_all(self, ray: Ray, *, mask: int = ALL_LAYERS, ignore: Iterable[int] = (),
                    filter: Callable[[int, Any], bool] | None = None,
                    include_sensors: bool = False) -> list[WorldRayHit]:
        """Every visible collider ``ray`` hits, sorted by distance then handle (``filter``
        and ``include_sensors`` as in :meth:`raycast`)."""
        if not isinstance(ray, Ray):
            raise TypeError(f"ray must be a Ray, not {type(ray).__name__}")
        m = _mask(mask)
        _check_filter(filter, include_sensors)
        if self._dim is None or self._alive == 0:
            return []
        self._check_dim(ray, "ray")
        cands = self._ray_candidates(ray.origin, ray.direction, ray.max_distance, 0.0)
        skip = set(ignore)
        outside = self._outside(include_sensors, skip)
        if outside is not None:
            o = np.array(ray.origin, dtype=np.float64)
            v = np.array(ray.direction, dtype=np.float64)
            cands += self._sensor_sync().ray_candidates(o, v, ray.max_distance)
            cands += self._sensor_planes
            skip = outside
        hits = []
        for h in cands:
            if not self._visible(h, m, skip):
                continue
            if filter is not None and not filter(h, self._data[h]):
                continue
            hit = raycast(ray, self._shape_at(h))
            if hit is not None and one_way_stands(self._one_way.get(h), ray.direction,
                                                  hit.normal):
                # the library's own values: built without the user-facing checks
                found: Any = hit
                hits.append(_rn(WorldRayHit, (*found, h, self._data[h])))
        hits.sort(key=lambda x: (x.distance, x.handle))
        return hits

    def sweep(self, shape: Shape, displacement: Any, *, mask: int = ALL_LAYERS,
              ignore: Iterable[int] = (), target_distance: float = 0.0,
              filter: Callable[[int, Any], bool] | None = None,
              include_sensors: bool = False) -> WorldSweepHit | None:
        """The first visible collider ``shape`` meets when moved by ``displacement`` (the
        least fraction, ties: smallest handle), or None: what :func:`swept.sweep` gives for
        that collider, with its handle and data. Circles, spheres, segments, capsules, boxes
        and polygons go through the compiled kernels (:mod:`swept._kernels.world_sweep` for
        the non-balls); any other mover through :func:`swept.sweep` on the broadphase's
        candidates. ``filter`` and ``include_sensors`` as in :meth:`raycast`."""
        kind = shape.__class__
        if (kind is Circle or kind is Sphere) and target_distance.__class__ is float and \
                not ignore and filter is None and include_sensors is False:
            # a circle or sphere in a world of table colliders, in one compiled call that
            # returns the WorldSweepHit itself (as World.raycast's one-call path); the checks
            # are those of the general path below, inline for the values that pass them
            if self._scene is not self._ray_scene and self._alive:
                self._describe_scene()
            if self._scene is self._ray_scene and 0.0 <= target_distance <= MAX_COORDINATE:
                ball: Any = shape
                hit = self._sweep_ball_one_call(ball, displacement, mask,
                                                ball.radius + target_distance)
                if hit is not _GENERAL:
                    found: WorldSweepHit | None = hit
                    return found
        m = _mask(mask)
        if filter is not None or include_sensors is not False:
            _check_filter(filter, include_sensors)
        if self._dim is None or self._alive == 0:
            return None
        self._check_dim(shape, "shape")
        coerce = as_vec2 if self._dim == 2 else as_vec3
        disp = coerce(displacement, "displacement")
        td = as_finite(target_distance, "target_distance", minimum=0.0)
        if isinstance(shape, Plane):
            raise TypeError("sweep does not support moving a Plane")
        if filter is not None:
            if isinstance(shape, _CONVEX_MOVERS):
                return self._sweep_convex_filtered(shape, disp, td, m, ignore, filter,
                                                   include_sensors)
            return self._sweep_filtered(shape, disp, td, m, ignore, filter, include_sensors)
        skip = set(ignore)
        outside = self._outside(include_sensors, skip)
        first = self._sweep_table(shape, disp, m, skip, td)
        if outside is not None:
            # the sensors (if asked) and the external colliders: the scalar walk, to beat first
            return self._sweep_python(shape, disp, td, m, outside, None, False, True, first)
        return first

    def _sweep_ball_one_call(self, shape: Circle | Sphere, displacement: Any, mask: Any,
                             r: float) -> Any:
        """:meth:`sweep` of a ball of grown radius ``r`` in one compiled call (the described
        scene's), or ``_GENERAL`` when the general path must answer (another dimension, a
        displacement that is not a Vec2 / Vec3 within MAX_COORDINATE: it checks them)."""
        dim = self._plain_dim
        if dim == 2 and displacement.__class__ is Vec2 and shape.__class__ is Circle:
            dx, dy = displacement
            if -MAX_COORDINATE <= dx <= MAX_COORDINATE and \
                    -MAX_COORDINATE <= dy <= MAX_COORDINATE:
                m = mask if mask == ALL_LAYERS else _mask(mask)
                cx, cy = shape.center
                # (the length: the C library's hypot, in the kernel, as _ball_length)
                return _ball_hit2(self._ray_address, (cx, cy, r, dx, dy), m)
        elif dim == 3 and displacement.__class__ is Vec3 and shape.__class__ is Sphere:
            dx, dy, dz = displacement
            if -MAX_COORDINATE <= dx <= MAX_COORDINATE and \
                    -MAX_COORDINATE <= dy <= MAX_COORDINATE and \
                    -MAX_COORDINATE <= dz <= MAX_COORDINATE:
                m = mask if mask == ALL_LAYERS else _mask(mask)
                cx, cy, cz = shape.center
                return _ball_hit3(self._ray_address,
                                  (cx, cy, cz, r, dx, dy, dz, _length3(dx, dy, dz)), m)
        return _GENERAL

    def _sweep_table(self, shape: Shape, disp: Vec2 | Vec3, m: int, skip: set[int],
                     td: float) -> WorldSweepHit | None:
        """:meth:`sweep` among the colliders of the compiled table."""
        if isinstance(shape, (Circle, Sphere)):
            return self._sweep_ball(shape, disp, m, skip, td)
        if isinstance(shape, _CONVEX_MOVERS):
            return self._sweep_convex(shape, disp, m, skip, td)
        box = shape.aabb
        lo = np.minimum(np.asarray(box.min), np.asarray(box.min) + disp)
        hi = np.maximum(np.asarray(box.max), np.asarray(box.max) + disp)
        grow = td + CANDIDATE_MARGIN * _scale(lo, hi)
        best: WorldSweepHit | None = None
        for h in self._candidates(lo - grow, hi + grow):
            if not self._visible(h, m, skip):
                continue
            hit = _sweep(shape, disp, self._shape_at(h), target_distance=td)
            if hit is not None and (best is None or hit.fraction < best.fraction):
                met: Any = hit
                best = _rn(WorldSweepHit, (*met, h, self._data[h]))
        return best

    def _sweep_ball(self, shape: Circle | Sphere, disp: Vec2 | Vec3, mask: int,
                    ignore: Iterable[int], td: float) -> WorldSweepHit | None:
        """A circle or sphere swept through the kernels, finished as swept.sweep does."""
        length = _ball_length(disp)
        if length == 0.0:
            # no motion: only a collider already touched can be met
            direction: tuple[float, ...] = (1.0, 0.0) if self._dim == 2 else (1.0, 0.0, 0.0)
        else:
            direction = tuple(c / length for c in disp)
        r = shape.radius + td
        h, t, p, n, inside, _te = self._cast_one(shape.center, direction, length, r, True, mask,
                                            ignore)
        if h < 0:
            return None
        vec = Vec2 if self._dim == 2 else Vec3
        normal: Any = _tn(vec, n)
        point: Any
        if inside:
            fraction = 0.0
            point = _tn(vec, p)
        else:
            fraction = min(t / length, 1.0) if length > 0.0 else 0.0
            at = shape.center + disp * fraction
            # a chain's region rule may have turned the normal: the kernel's touch point
            point = _tn(vec, p) if h in self._chain_set else at - normal * r
        position = shape.center + disp * fraction
        result: WorldSweepHit = _rn(WorldSweepHit, (fraction, point, normal, position, inside,
                                                    h, self._data[h]))
        return result

    def _sweep_convex_filtered(self, shape: Shape, disp: Vec2 | Vec3, td: float, mask: int,
                               ignore: Iterable[int], filt: Callable[[int, Any], bool],
                               sensors: bool) -> WorldSweepHit | None:
        """The first contact ``filt`` accepts for a convex mover (:meth:`_retry_filtered`
        over the compiled convex sweep)."""
        hit: WorldSweepHit | None = self._retry_filtered(
            lambda skip: self._sweep_convex(shape, disp, mask, skip, td),
            lambda skip, cols, sens, best: self._sweep_python(shape, disp, td, mask, skip, filt,
                                                               cols, sens, best),
            ignore, filt, sensors)
        return hit

    def _sweep_scratch(self, shape: Shape, d: int
                       ) -> tuple[_ws.Movers, _ws.Sweeps, _ws.SweepHits]:
        """The one-row kernel arguments of :meth:`_sweep_convex`, kept between calls (as the
        traversal stack is: building them anew cost about a third of a sweep), with ``shape``
        written in as the mover."""
        v = view(shape)
        n = v.core.shape[0]
        scratch = self.__dict__.get("_convex_scratch")
        if scratch is None or scratch[0].cores.shape[0] < n or scratch[0].cores.shape[1] != d:
            cap = max(8, n)
            scratch = (_ws.Movers(np.zeros(1, np.int64), np.zeros((1, _scene.PARAM_WIDTH)),
                                  np.zeros((1, 2), np.int64), np.zeros((cap, d)),
                                  np.zeros((cap, 2)), np.zeros(1), np.zeros((1, 6))),
                       _ws.Sweeps(np.zeros(1, np.int64), np.zeros((1, d)), np.zeros(1)),
                       _sweep_hits(1, d))
            self._convex_scratch = scratch
        movers = scratch[0]
        movers.kinds[0] = v.kind
        if v.params:
            movers.params[0, :len(v.params)] = v.params
        movers.spans[0, 1] = n
        movers.cores[:n] = v.core
        if v.normals is not None:
            movers.normals[:n] = v.normals
        movers.radii[0] = v.radius
        box = shape.aabb
        movers.boxes[0, :d] = box.min
        movers.boxes[0, 3:3 + d] = box.max
        return scratch

    def _sweep_convex(self, shape: Shape, disp: Vec2 | Vec3, mask: int, ignore: Iterable[int],
                      td: float) -> WorldSweepHit | None:
        """A segment, capsule, box or polygon swept through the kernels
        (:func:`swept._kernels.world_sweep.sweep_range`, one row), finished as swept.sweep
        does."""
        global _fast_sweep_range
        scene = self._sync()
        d = self._dim or 2
        movers, sweeps, out = self._sweep_scratch(shape, d)
        sweeps.displacements[0] = disp
        sweeps.lengths[0] = disp.length()
        marked = self._set_skip(ignore) if ignore else []
        call = (0, 1, scene, movers, sweeps, td, mask, out)
        try:
            if _fast_sweep_range is not None:
                _fast_sweep_range(*call)
            else:
                _kws.sweep_range(*call)
                _fast_sweep_range = entry_point(_kws.sweep_range, call)
        finally:
            for g in marked:
                self._tags[g, _scene.FLAGS] &= ~_scene.FLAG_SKIP
        fix = int(out.fix[0])
        if fix == _ws.FIX_UNSUPPORTED:
            # a collider kind the kernel cannot sweep: the scalar sweep on every candidate
            return self._sweep_python(shape, disp, td, mask, set(ignore), None, True, False,
                                      None)
        h = int(out.handle[0])
        if h < 0:
            return None
        if fix == _ws.FIX_NORMAL:
            # a start inside whose normal is contact()'s: the scalar sweep of that collider
            met: Any = _sweep(shape, disp, self._shape_at(h), target_distance=td)
            result: WorldSweepHit = _rn(WorldSweepHit, (*met, h, self._data[h]))
            return result
        vec = Vec2 if d == 2 else Vec3
        fraction = float(out.fraction[0])
        point: Any = _tn(vec, out.point[0].tolist())
        normal: Any = _tn(vec, out.normal[0].tolist())
        position = reference_point(shape) + disp * fraction
        found: WorldSweepHit = _rn(WorldSweepHit, (fraction, point, normal, position,
                                                   bool(out.inside[0]), h, self._data[h]))
        return found

    def contacts(self, shape: Shape, *, mask: int = ALL_LAYERS, ignore: Iterable[int] = (),
                 filter: Callable[[int, Any], bool] | None = None,
                 include_sensors: bool = True) -> list[WorldContact]:
        """Every visible collider ``shape`` touches or overlaps, by handle: ``contact(shape,
        collider)`` for each (the normal moves ``shape`` out). Sensors are reported unless
        ``include_sensors=False``; ``filter`` as in :meth:`raycast`. A one-way collider is
        reported only when the normal faces its solid side."""
        return self._contacts(shape, mask, ignore, filter, include_sensors, True)

    def _contacts(self, shape: Shape, mask: int, ignore: Iterable[int],
                  filter: Callable[[int, Any], bool] | None, include_sensors: bool,
                  one_way: bool) -> list[WorldContact]:
        """:meth:`contacts`, with one-way colliders' rule (``one_way``) or without (the
        overlap queries)."""
        m = _mask(mask)
        _check_filter(filter, include_sensors)
        if self._dim is None or self._alive == 0:
            return []
        self._check_dim(shape, "shape")
        box = shape.aabb
        grow = CANDIDATE_MARGIN * _scale(box.min, box.max)
        lo = np.asarray(box.min, dtype=np.float64) - grow
        hi = np.asarray(box.max, dtype=np.float64) + grow
        skip = set(ignore)
        out = []
        cands = self._candidates(lo, hi)
        outside = self._outside(include_sensors, skip)
        if outside is not None:
            cands = sorted(cands + self._sensor_sync().candidates(lo, hi) + self._sensor_planes)
            skip = outside
        for h in cands:
            if not self._visible(h, m, skip):
                continue
            if filter is not None and not filter(h, self._data[h]):
                continue
            c = contact(shape, self._shape_at(h))
            if c is not None and (not one_way or one_way_faces(self._one_way.get(h), c.normal)):
                touch: Any = c
                out.append(_rn(WorldContact, (*touch, h, self._data[h])))
        return out

    def query_aabb(self, box: AABB, *, mask: int = ALL_LAYERS, ignore: Iterable[int] = (),
                   filter: Callable[[int, Any], bool] | None = None,
                   include_sensors: bool = True) -> list[int]:
        """Handles of the visible colliders whose shape overlaps or touches ``box`` (exact,
        by :func:`swept.contact`), sorted; sensors included unless ``include_sensors=False``,
        ``filter`` as in :meth:`raycast`."""
        if not isinstance(box, AABB):
            raise TypeError(f"box must be an AABB, not {type(box).__name__}")
        return [c.handle for c in self._contacts(box, mask, ignore, filter, include_sensors,
                                                 False)]

    def query_point(self, point: Any, *, mask: int = ALL_LAYERS, ignore: Iterable[int] = (),
                    filter: Callable[[int, Any], bool] | None = None,
                    include_sensors: bool = True) -> list[int]:
        """Handles of the visible colliders containing ``point`` (the boundary counts; a
        segment contains the points on it), sorted: ``query_aabb`` of the point's box."""
        if self._dim is None:
            _mask(mask)
            _check_filter(filter, include_sensors)
            return []
        p = as_vec2(point, "point") if self._dim == 2 else as_vec3(point, "point")
        return self.query_aabb(AABB(p, p), mask=mask, ignore=ignore, filter=filter,
                               include_sensors=include_sensors)

    def move_and_slide(self, shape: Shape, velocity: Any, dt: float, **kwargs: Any) -> Any:
        """Move a character through the world: :func:`swept.controller.move_and_slide`."""
        from .controller import move_and_slide  # type: ignore[import-not-found,unused-ignore]

        return move_and_slide(shape, velocity, dt, self, **kwargs)

    # ------------------------------------------------------------------ batch queries

    def _empty_scene(self) -> bool:
        return self._dim is None or self._alive == 0

    def _external_rows(self, lo: np.ndarray, hi: np.ndarray, mask: int) -> np.ndarray:
        """The rows of a batch whose query box (``lo``, ``hi``: (n, d)) touches an external
        collider's box in the mask's layers: the rows the batch answers again through the
        scalar query (which walks the external colliders)."""
        hs = [h for h in sorted(self._external_set) if int(self._tags[h, _scene.LAYER]) & mask]
        if not hs:
            return np.zeros(0, np.int64)
        box_lo = np.array([self._sensor_box[h][0] for h in hs])
        box_hi = np.array([self._sensor_box[h][1] for h in hs])
        return np.flatnonzero(_rows_reach(lo, hi, box_lo, box_hi))

    def raycast_many(self, origins: Any, directions: Any, max_distance: Any = math.inf, *,
                     mask: int = ALL_LAYERS) -> RayBatch:
        """The nearest hit of each of n rays, in parallel: :meth:`raycast` per ray.

        ``origins`` (n, d) and ``directions`` (n, d) float64 (any nonzero length; normalised
        here), ``max_distance`` a number or (n,) float64 (>= 0, inf allowed). Returns a
        :class:`RayBatch`. NaN, infinities or a zero direction raise ValueError naming the
        argument (and the row).

        A row's direction is normalised by the formula a :class:`~swept.Ray`'s is (the same
        Python function, compiled), so each row answers as :meth:`raycast` of the same ray,
        bit for bit, whatever the direction's length.
        """
        m = _mask(mask)
        o, v = self._ray_rows(origins, directions)
        n, d = o.shape
        if type(max_distance) is float or np.ndim(max_distance) == 0:
            # (a float first: np.ndim converts its argument to an array)
            md = np.empty(n)
            md.fill(as_finite(max_distance, "max_distance", minimum=0.0, allow_inf=True))
        else:
            md = _array(max_distance, "max_distance", 1, allow_inf=True)
            if md.shape[0] != n:
                raise ValueError(f"max_distance must be a number or have {n} entries, got "
                                 f"shape {md.shape}")
            if (md < 0.0).any():
                raise ValueError(f"max_distance must be >= 0 (row {int(np.argmax(md < 0.0))})")
        if self._empty_scene() or n == 0:
            return RayBatch(np.zeros(n, np.bool_), np.full(n, math.inf), np.zeros((n, d)),
                            np.zeros((n, d)), np.full(n, -1, np.int64))
        out = self._cast_batch(_kw.Casts(o, v, md, md), m, _kw.CAST_NORMALISE)
        batch = RayBatch(out.handle >= 0, out.t, out.point, out.normal, out.handle)
        if self._external_set:
            # the rays that reach an external collider's box: the scalar query, row by row
            u = v / _lengths(v)[:, None]
            with np.errstate(invalid="ignore"):
                far = o + u * np.where(np.isinf(md), 0.0, md)[:, None]
                ends = np.where(np.isinf(md)[:, None], np.where(u > 0, np.inf, -np.inf), far)
                ends = np.where(np.isinf(md)[:, None] & (u == 0.0), o, ends)
            for i in self._external_rows(np.minimum(o, ends), np.maximum(o, ends), m):
                hit = self.raycast(Ray(o[i], v[i], md[i]), mask=m)
                _set_row(batch, i, hit, "distance")
        return batch

    def _ray_rows(self, origins: Any, directions: Any) -> tuple[np.ndarray, np.ndarray]:
        """:meth:`raycast_many`'s ``origins`` and ``directions`` checked: the usual case (two
        C-ordered float64 arrays of one shape (n, d), d the world's) in one compiled pass
        (:func:`swept._kernels.world.rays_fine`; measured, the checks' Python included,
        alternated, load 10: 1.5 against 2.8 us for 100 rays, 2.8 against 4.9 for 2,000, where
        the old checks made three compiled calls); any other, or a bad one, as
        :func:`_batch_rows` converts and checks each (their messages), then the rows' count
        and the zero vector."""
        o = origins
        v = directions
        if (isinstance(o, np.ndarray) and isinstance(v, np.ndarray) and o.dtype is _FLOAT64
                and v.dtype is _FLOAT64 and o.ndim == 2 and o.shape == v.shape
                and (o.shape[1] == self._dim or (self._dim is None and o.shape[1] in (2, 3)))
                and o.flags.c_contiguous and v.flags.c_contiguous
                and _kw.rays_fine(o, v, MAX_COORDINATE)):
            return o, v
        o = _batch_rows(origins, "origins", self._dim)
        v = _batch_rows(directions, "directions", o.shape[1])
        if v.shape[0] != o.shape[0]:
            raise ValueError(f"directions must have as many rows as origins ({o.shape[0]}), "
                             f"got {v.shape[0]}")
        # (the kernel divides each direction by its length, a Ray's formula: zero only for the
        # zero vector)
        zero = int(_kw.zero_length_row(v))
        if zero >= 0:
            raise ValueError(f"directions[{zero}] is the zero vector")
        return o, v

    def sweep_many(self, centers: Any = None, radii: Any = None, displacements: Any = None, *,
                   shapes: Any = None, mask: int = ALL_LAYERS) -> SweepBatch:
        """The first contact of each of n moving shapes, in parallel: :meth:`sweep` per row.

        Two forms, told apart by the first argument:

        - balls: ``sweep_many(centers, radii, displacements)``, ``centers`` (n, d), ``radii``
          (n,) (>= 0) and ``displacements`` (n, d) float64: n circles (spheres);
        - any convex movers: ``sweep_many(shapes, displacements)`` (or ``shapes=``,
          ``displacements=``), ``shapes`` one shape swept by each of the n rows of
          ``displacements`` (a probe of many directions, a character's candidate moves), or a
          sequence of n shapes, row i swept by ``displacements[i]``. Circles, spheres,
          segments, capsules, boxes and polygons, mixed as you like; each row answers as
          :meth:`sweep` does (balls by the ball kernels, the others by
          :mod:`swept._kernels.world_sweep`).

        Shapes rather than arrays of corners: a shape is already validated and carries its
        kind, and the one-shape form packs one mover for the whole batch. The balls' arrays
        stay for many balls (no shape objects to build). Returns a :class:`SweepBatch`.
        """
        m = _mask(mask)
        centers, radii, displacements, shapes = _sweep_form(centers, radii, displacements,
                                                           shapes)
        if shapes is not None:
            return self._sweep_shapes(shapes, displacements, m)
        c = _array(centers, "centers", 2, self._dim)
        d = c.shape[1]
        n = c.shape[0]
        r = _array(radii, "radii", 1)
        if r.shape[0] != n:
            raise ValueError(f"radii must have {n} entries (one per centre), got {r.shape}")
        if (r < 0.0).any():
            raise ValueError(f"radii must be >= 0 (row {int(np.argmax(r < 0.0))})")
        v = _array(displacements, "displacements", 2, d)
        if v.shape[0] != n:
            raise ValueError(f"displacements must have {n} rows, got {v.shape[0]}")
        return self._sweep_balls(c, r, v, m)

    def _sweep_balls(self, c: np.ndarray, r: np.ndarray, v: np.ndarray, m: int) -> SweepBatch:
        """The balls' :meth:`sweep_many`, on checked arrays."""
        n, d = c.shape
        if self._empty_scene() or n == 0:
            return SweepBatch(np.zeros(n, np.bool_), np.full(n, math.inf), np.zeros((n, d)),
                              np.zeros((n, d)), np.full(n, -1, np.int64))
        length = _lengths(v)
        moving = length > 0.0
        unit = np.zeros((n, d))
        unit[:, 0] = 1.0
        unit[moving] = v[moving] / length[moving, None]
        out = self._cast_batch(_kw.Casts(c, unit, length, r), m, _kw.CAST_GROWN)
        handle, t, point, normal, inside = out
        hit = handle >= 0
        # fraction of the displacement; a ball that starts touching hits at 0
        with np.errstate(divide="ignore", invalid="ignore"):
            fraction = np.where(moving, np.minimum(t / np.where(moving, length, 1.0), 1.0), 0.0)
        fraction = np.where(inside, 0.0, fraction)
        fraction[~hit] = math.inf
        outside = hit & ~inside
        if self._chain_set:
            # a chain's region rule may have turned the normal: keep the kernel's touch point
            outside &= ~np.isin(handle, np.array(sorted(self._chain_set), dtype=np.int64))
        # from outside: the ball's centre at contact, back along the normal by its radius
        at = c[outside] + v[outside] * fraction[outside, None]
        point[outside] = at - normal[outside] * r[outside, None]
        batch = SweepBatch(hit, fraction, point, normal, handle)
        if self._external_set:
            ball = Circle if d == 2 else Sphere
            lo = np.minimum(c, c + v) - r[:, None]
            hi = np.maximum(c, c + v) + r[:, None]
            for i in self._external_rows(lo, hi, m):
                _set_row(batch, i, self.sweep(ball(c[i], r[i]), v[i], mask=m), "fraction")
        return batch

    def _sweep_shapes(self, shapes: Any, displacements: Any, mask: int) -> SweepBatch:
        """The shapes' :meth:`sweep_many`: one shape by n displacements, or n shapes."""
        one = isinstance(shapes, Shape)
        if not one and not isinstance(shapes, Sequence):
            raise TypeError(f"shapes must be a shape or a sequence of shapes, not "
                            f"{type(shapes).__name__}")
        listed: list[Shape] = [shapes] if one else list(shapes)
        for i, s in enumerate(listed):
            name = "shapes" if one else f"shapes[{i}]"
            if not isinstance(s, (Circle, Sphere, *_CONVEX_MOVERS)):
                raise TypeError(f"{name}: sweep_many cannot move a {type(s).__name__}")
            if self._dim is not None:
                self._check_dim(s, name)
        dim = self._dim if self._dim is not None else (listed[0].dim if listed else None)
        v = _array(displacements, "displacements", 2, dim)
        n, d = v.shape
        if not one and n != len(listed):
            raise ValueError(f"displacements must have {len(listed)} rows (one per shape), "
                             f"got {n}")
        if self._empty_scene() or n == 0:
            return SweepBatch(np.zeros(n, np.bool_), np.full(n, math.inf), np.zeros((n, d)),
                              np.zeros((n, d)), np.full(n, -1, np.int64))
        index = np.zeros(n, np.int64) if one else np.arange(n, dtype=np.int64)
        balls = np.array([isinstance(s, (Circle, Sphere)) for s in listed], dtype=np.bool_)
        rows_ball = np.flatnonzero(balls[index])
        rows_convex = np.flatnonzero(~balls[index])
        hit = np.zeros(n, np.bool_)
        fraction = np.full(n, math.inf)
        point = np.zeros((n, d))
        normal = np.zeros((n, d))
        handle = np.full(n, -1, np.int64)
        if rows_ball.size:
            ball_of = index[rows_ball]
            c = np.array([listed[k].center for k in ball_of.tolist()], dtype=np.float64)
            r = np.array([listed[k].radius for k in ball_of.tolist()], dtype=np.float64)
            got = self._sweep_balls(c.reshape(-1, d), r, v[rows_ball], mask)
            hit[rows_ball] = got.hit
            fraction[rows_ball] = got.fraction
            point[rows_ball] = got.point
            normal[rows_ball] = got.normal
            handle[rows_ball] = got.handle
        if rows_convex.size:
            # the convex movers' own table: each distinct shape once
            distinct, at = np.unique(index[rows_convex], return_inverse=True)
            movers = _movers([listed[k] for k in distinct.tolist()], d)
            disp = np.ascontiguousarray(v[rows_convex])
            sweeps = _ws.Sweeps(at.astype(np.int64).reshape(-1), disp, _vec_lengths(disp))
            k_n = rows_convex.shape[0]
            out = _sweep_hits(k_n, d)
            parallel_for(_kws.sweep_range, k_n, (self._sync(), movers, sweeps, 0.0, mask, out))
            for j in np.flatnonzero(out.fix).tolist():
                shape = listed[int(distinct[at[j]])]
                if out.fix[j] == _ws.FIX_UNSUPPORTED:
                    # a collider kind the kernel cannot sweep: the scalar sweep on every
                    # candidate
                    row: Any = _tn(Vec2 if d == 2 else Vec3, disp[j].tolist())
                    found = self._sweep_python(shape, row, 0.0, mask, set(), None, True, False,
                                               None)
                    out.handle[j] = -1 if found is None else found.handle
                    out.fraction[j] = math.inf if found is None else found.fraction
                    out.point[j] = 0.0 if found is None else found.point
                    out.normal[j] = 0.0 if found is None else found.normal
                    continue
                # a start inside whose normal is contact()'s: the scalar sweep of that collider
                h = int(out.handle[j])
                met = _sweep(shape, disp[j], self._shape_at(h))
                if met is not None:
                    out.point[j] = met.point
                    out.normal[j] = met.normal
            hit[rows_convex] = out.handle >= 0
            fraction[rows_convex] = out.fraction
            point[rows_convex] = out.point
            normal[rows_convex] = out.normal
            handle[rows_convex] = out.handle
        return SweepBatch(hit, fraction, point, normal, handle)

    def contact_many(self, centers: Any, radii: Any, *, mask: int = ALL_LAYERS) -> ContactBatch:
        """The deepest contact (ties: smallest handle) of each of n circles (spheres) with
        the visible colliders, in parallel: the deepest of :meth:`contacts` per ball.

        ``centers`` (n, d), ``radii`` (n,) (>= 0) float64. Returns a :class:`ContactBatch`.
        """
        m = _mask(mask)
        c = _array(centers, "centers", 2, self._dim)
        d = c.shape[1]
        n = c.shape[0]
        r = _array(radii, "radii", 1)
        if r.shape[0] != n:
            raise ValueError(f"radii must have {n} entries (one per centre), got {r.shape}")
        if (r < 0.0).any():
            raise ValueError(f"radii must be >= 0 (row {int(np.argmax(r < 0.0))})")
        if self._empty_scene() or n == 0:
            return ContactBatch(np.zeros(n, np.bool_), np.zeros((n, d)), np.zeros(n),
                                np.zeros((n, d)), np.full(n, -1, np.int64))
        scene = self._sync()
        out = _kw.Touches(np.empty(n, np.int64), np.empty(n), np.zeros((n, d)), np.zeros((n, d)))
        parallel_for(_kw.contact_range, n, (scene, _kw.Balls(c, r), m, out))
        self._owners(out.handle)
        batch = ContactBatch(out.handle >= 0, out.normal, out.depth, out.point, out.handle)
        if self._external_set:
            ball = Circle if d == 2 else Sphere
            for i in self._external_rows(c - r[:, None], c + r[:, None], m):
                found = self.contacts(ball(c[i], r[i]), mask=m, include_sensors=False)
                if found:
                    deepest = max(found, key=lambda x: (x.depth, -x.handle))
                    _set_row(batch, i, deepest, "depth")
        return batch

    def _cast_batch(self, casts: _world_kernels.Casts, mask: int,
                    flags: int) -> _world_kernels.Hits:
        """A batch of rays (or balls) through :func:`swept._kernels.world.cast_range`, with
        its ``flags``."""
        scene = self._sync()
        n, d = casts.origins.shape
        if not flags & _kw.CAST_GROWN and (n < RAY_GATHER_MIN_ROWS
                                           or self._alive < RAY_ORDER_MIN_COLLIDERS):
            # rays in their own order: on fewer rows or colliders the spatial order costs
            # more than it saves (measured: RAY_ORDER_MIN_COLLIDERS)
            out = self._cast_rows(scene, casts, _IN_ORDER, mask, flags)
        else:
            # cast in the order of the origins' places (rays that start close together read
            # the same cells from the cache), each row still answered in its own place
            order = np.empty(n, np.int64)
            _kw.spatial_order(casts.origins, order)
            if n >= RAY_GATHER_MIN_ROWS:
                # the rows gathered into that order, cast one after another, the hits put back
                # (rays: no radii to gather, no inside to put back; measured, see gather_casts)
                grown = bool(flags & _kw.CAST_GROWN)
                rows = _kw.Casts(np.empty((n, d)), np.empty((n, d)), np.empty(n),
                                 np.empty(n if grown else 0))
                _kw.gather_casts(casts, order, rows)
                found = self._cast_rows(scene, rows, _IN_ORDER, mask, flags | _kw.CAST_GATHERED)
                out = _new_hits(n, d, grown)
                _kw.scatter_hits(found, order, out)
            else:
                out = self._cast_rows(scene, casts, order, mask, flags)
        self._owners(out.handle)
        return out

    def _cast_rows(self, scene: Any, casts: _world_kernels.Casts, order: np.ndarray, mask: int,
                   flags: int) -> _world_kernels.Hits:
        """The hits of ``casts`` by :func:`swept._kernels.world.cast_range` on the threads,
        cast in ``order`` (empty: their own)."""
        n, d = casts.origins.shape
        # the kernel writes every field of every row
        out = _new_hits(n, d)
        args = (scene, casts, order, mask, flags, out)
        # the kernel's entry point for these argument types (the dispatcher's own resolution
        # costs about 20 us a chunk): every array here is a C-ordered float64 or int64 array of
        # fixed dimensions (the scene's by construction, the casts' by _array, the outputs
        # new), so the casts' writeable flags (read-only arrays type apart) are the key
        kernel = batch_entry(_kw.cast_range, args, (
            casts.origins.flags.writeable, casts.directions.flags.writeable,
            casts.tmax.flags.writeable, casts.radii.flags.writeable))
        # rays and balls cost differently an item: each has its own timings
        parallel_for(kernel, n, args, key=_BALL_CASTS if flags & _kw.CAST_GROWN else _RAY_CASTS)
        return out

    # ------------------------------------------------------------------ filtered and sensor paths

    def _retry_filtered(self, ask: Callable[[set[int]], Any],
                        walk: Callable[[set[int], bool, bool, Any], Any], ignore: Iterable[int],
                        filt: Callable[[int, Any], bool], sensors: bool) -> Any:
        """The first hit ``filt`` accepts: ``ask(skip)`` (the kernels' answer), asked again
        with each rejected collider ignored (at most FILTER_KERNEL_TRIES times), then
        ``walk(skip, colliders, sensors, best)`` (the Python walk) over what is left; the
        sensors (if asked) by the walk. The filter is called at most once per collider."""
        given = set(ignore)
        skip = set(given)
        best: Any = None
        for _ in range(FILTER_KERNEL_TRIES):
            hit = ask(skip)
            if hit is None or filt(hit.handle, hit.data):
                best = hit
                break
            # rejected: as if absent
            skip.add(hit.handle)
        else:
            best = walk(skip, True, False, None)
        outside = self._outside(sensors, given)
        if outside is not None:
            best = walk(outside, False, True, best)
        return best

    def _raycast_filtered(self, ray: Ray, mask: int, ignore: Iterable[int],
                          filt: Callable[[int, Any], bool], sensors: bool
                          ) -> WorldRayHit | None:
        """The nearest hit ``filt`` accepts (:meth:`_retry_filtered`)."""
        hit: WorldRayHit | None = self._retry_filtered(
            lambda skip: self.raycast(ray, mask=mask, ignore=skip),
            lambda skip, cols, sens, best: self._raycast_python(ray, mask, skip, filt, cols,
                                                                 sens, best),
            ignore, filt, sensors)
        return hit

    def _sweep_filtered(self, shape: Shape, disp: Vec2 | Vec3, td: float, mask: int,
                        ignore: Iterable[int], filt: Callable[[int, Any], bool], sensors: bool
                        ) -> WorldSweepHit | None:
        """The first contact ``filt`` accepts: for a ball, :meth:`_retry_filtered` over the
        kernels; for other movers, the Python walk over every candidate."""
        if not isinstance(shape, (Circle, Sphere)):
            skip = set(ignore)
            best = self._sweep_python(shape, disp, td, mask, skip, filt, True, False, None)
            outside = self._outside(sensors, skip)
            if outside is not None:
                best = self._sweep_python(shape, disp, td, mask, outside, filt, False, True,
                                          best)
            return best
        hit: WorldSweepHit | None = self._retry_filtered(
            lambda skip: self._sweep_ball(shape, disp, mask, skip, td),
            lambda skip, cols, sens, best: self._sweep_python(shape, disp, td, mask, skip, filt,
                                                               cols, sens, best),
            ignore, filt, sensors)
        return hit

    def _raycast_python(self, ray: Ray, mask: int, skip: set[int],
                        filt: Callable[[int, Any], bool] | None, colliders: bool,
                        sensors: bool, best: WorldRayHit | None) -> WorldRayHit | None:
        """The nearest hit, better than ``best``, among the ordinary colliders (``colliders``)
        and the sensors (``sensors``) that the mask, ``skip`` and ``filt`` accept: the exact
        :func:`swept.raycast` on the broadphase's candidates in order of box entry, stopping
        once the next box is entered beyond the best hit."""
        o = np.array(ray.origin, dtype=np.float64)
        v = np.array(ray.direction, dtype=np.float64)
        tmax = ray.max_distance
        entries: list[tuple[float, int]] = []
        boxed: list[tuple[np.ndarray, np.ndarray, np.ndarray]] = []
        planes: list[int] = []
        if colliders:
            self._split_planes(self._ray_candidates(ray.origin, ray.direction, tmax, 0.0),
                               boxed, planes)
        if sensors:
            boxed.append(self._sensor_sync().ray_boxes(o, v, tmax))
            planes += self._sensor_planes
        for hs, lo, hi in boxed:
            if hs.shape[0]:
                entries += zip(_slab_entry(o, v, lo, hi).tolist(), hs.tolist())
        # a half-plane has no box: tested first
        entries += [(0.0, h) for h in planes]
        hit: WorldRayHit | None = self._walk_entries(
            entries, best, mask, skip, filt, lambda target: raycast(ray, target), WorldRayHit,
            ray.direction)
        return hit

    def _split_planes(self, cands: list[int],
                      boxed: list[tuple[np.ndarray, np.ndarray, np.ndarray]],
                      planes: list[int]) -> None:
        """Candidates sorted into the boxed ones (``(handles, lo, hi)`` appended to ``boxed``)
        and the planes (appended to ``planes``), for the Python walks."""
        planes += [h for h in cands if h in self._plane_set]
        boxed.append(self._table_boxes([h for h in cands if h not in self._plane_set]))

    def _walk_entries(self, entries: list[tuple[float, int]], best: Any, mask: int,
                      skip: set[int], filt: Callable[[int, Any], bool] | None,
                      ask: Callable[[Any], Any], record: Any, motion: Any) -> Any:
        """The Python walks' common loop: candidates ``(entry, handle)`` in order of the
        value (distance or fraction) at which their boxes are entered, each visible and
        accepted one asked ``ask(shape)``, the least value kept (ties: the smallest handle)
        as a ``record`` with its handle and data, better than ``best`` (a one-way collider's
        hit only where the ``motion`` stands on it); the walk stops once the next box is
        entered beyond the best hit."""
        entries.sort()
        best_v = math.inf if best is None else best[0]
        best_h = -1 if best is None else best.handle
        for entry, h in entries:
            if entry > best_v:
                # every later box is entered beyond the best hit
                break
            if not self._visible(h, mask, skip):
                continue
            data = self._data[h]
            if filt is not None and not filt(h, data):
                continue
            hit = ask(self._shape_at(h))
            if hit is not None and h in self._one_way and not one_way_stands(
                    self._one_way[h], motion, hit.normal):
                continue
            # (a hit's first field is its distance or fraction)
            if hit is not None and (hit[0] < best_v or (hit[0] == best_v and h < best_h)):
                best = _rn(record, (*hit, h, data))
                best_v, best_h = hit[0], h
        return best

    def _sweep_python(self, shape: Shape, disp: Vec2 | Vec3, td: float, mask: int,
                      skip: set[int], filt: Callable[[int, Any], bool] | None, colliders: bool,
                      sensors: bool, best: WorldSweepHit | None) -> WorldSweepHit | None:
        """The first contact, better than ``best``, among the colliders and sensors the mask,
        ``skip`` and ``filt`` accept: :func:`swept.sweep` on the broadphase's candidates in
        order of the fraction at which the moving shape's box enters theirs, stopping once
        that is beyond the best hit."""
        box = shape.aabb
        mlo = np.asarray(box.min, dtype=np.float64)
        mhi = np.asarray(box.max, dtype=np.float64)
        d = np.asarray(disp, dtype=np.float64)
        lo = np.minimum(mlo, mlo + d)
        hi = np.maximum(mhi, mhi + d)
        grow = td + CANDIDATE_MARGIN * _scale(lo, hi)
        qlo, qhi = lo - grow, hi + grow
        entries: list[tuple[float, int]] = []
        found: list[tuple[np.ndarray, np.ndarray, np.ndarray]] = []
        planes: list[int] = []
        if colliders:
            self._split_planes(self._candidates(qlo, qhi), found, planes)
        if sensors:
            found.append(self._sensor_sync().boxes(qlo, qhi))
            planes += self._sensor_planes
        zero = np.zeros_like(d)
        for hs, tlo, thi in found:
            if not hs.shape[0]:
                continue
            # the moving box meets a target box when its origin-relative corner path enters
            # the target grown by the mover's box (a Minkowski sum)
            enter = _slab_entry(zero, d, tlo - grow - mhi, thi + grow - mlo)
            entries += zip(enter.tolist(), hs.tolist())
        entries += [(0.0, h) for h in planes]
        best = self._walk_entries(
            entries, best, mask, skip, filt,
            lambda target: _sweep(shape, disp, target, target_distance=td), WorldSweepHit, disp)
        return best

    # ------------------------------------------------------------------ bulk adds

    def add_segments(self, segments: Any, *, data: Sequence[Any] | None = None,
                     layer: int = 1, mask: int = ALL_LAYERS, moving: bool = False
                     ) -> np.ndarray:
        """Add n segments at once from an (n, 4) array of ``(ax, ay, bx, by)`` rows (2D) or
        (n, 6) of ``(a, b)`` (3D: radius-0 capsules); returns their handles (int64)."""
        rows = _rows(segments, "segments", (4, 6))
        d = rows.shape[1] // 2
        same = (rows[:, :d] == rows[:, d:]).all(axis=1)
        if same.any():
            i = int(np.argmax(same))
            raise ValueError(f"segments: row {i} has zero length (a == b == "
                             f"{tuple(rows[i, :d].tolist())})")
        return self._add_bulk("segment2" if d == 2 else "segment3", rows, d, "segments", data,
                              layer, mask, moving)

    def add_circles(self, centers: Any, radii: Any, *, data: Sequence[Any] | None = None,
                    layer: int = 1, mask: int = ALL_LAYERS, moving: bool = False
                    ) -> np.ndarray:
        """Add n circles (spheres, for 3D centres) at once from ``centers`` (n, d) and
        ``radii`` (n,) or one radius for all; returns their handles (int64)."""
        c = _rows(centers, "centers", (2, 3))
        n = c.shape[0]
        r = as_array(radii, "radii")
        if r.ndim == 0:
            r = np.full(n, float(r))
        if r.shape != (n,):
            raise ValueError(f"radii must be one number or have {n} entries (one per centre), "
                             f"got shape {r.shape}")
        if (r < 0.0).any():
            i = int(np.argmax(r < 0.0))
            raise ValueError(f"radii: row {i} is negative ({r[i]!r}); a radius must be >= 0")
        rows = np.ascontiguousarray(np.column_stack((c, r)), dtype=np.float64)
        d = c.shape[1]
        return self._add_bulk("circle" if d == 2 else "sphere", rows, d, "centers", data,
                              layer, mask, moving)

    def add_boxes(self, mins: Any, maxs: Any, *, data: Sequence[Any] | None = None,
                  layer: int = 1, mask: int = ALL_LAYERS, moving: bool = False) -> np.ndarray:
        """Add n axis-aligned boxes at once from ``mins`` and ``maxs`` ((n, d) each); returns
        their handles (int64)."""
        lo = _rows(mins, "mins", (2, 3))
        hi = _rows(maxs, "maxs", (2, 3))
        if hi.shape != lo.shape:
            raise ValueError(f"maxs must have the shape of mins {lo.shape}, got {hi.shape}")
        flipped = (lo > hi).any(axis=1)
        if flipped.any():
            i = int(np.argmax(flipped))
            raise ValueError(f"maxs: row {i} is below mins on an axis (min "
                             f"{tuple(lo[i].tolist())}, max {tuple(hi[i].tolist())})")
        d = lo.shape[1]
        rows = np.ascontiguousarray(np.hstack((lo, hi)))
        return self._add_bulk("box2" if d == 2 else "box3", rows, d, "mins", data, layer, mask,
                              moving)

    def _add_bulk(self, tag: str, rows: np.ndarray, d: int, name: str, data: Any, layer: Any,
                  mask: Any, moving: Any) -> np.ndarray:
        """Append validated bulk rows: the table written in one go, shapes left pending."""
        lay = _mask(layer, "layer") if not isinstance(layer, bool) else None
        if lay is None:
            raise TypeError("layer must be an int")
        m = _mask(mask)
        mv = _flag(moving, "moving")
        self._changing()
        n = rows.shape[0]
        if data is not None:
            if isinstance(data, (str, bytes)) or not hasattr(data, "__len__"):
                raise TypeError(f"data must be None or a sequence of {n} values, not "
                                f"{type(data).__name__}")
            if len(data) != n:
                raise ValueError(f"data must have {n} entries (one per row), got {len(data)}")
        if self._dim is not None and d != self._dim:
            raise ValueError(f"{name}: this world is {self._dim}D, got {d}D rows")
        h0 = len(self._shapes)
        if n == 0:
            return np.zeros(0, np.int64)
        if self._dim is None:
            self._dim = d
        rows.setflags(write=False)
        self._grow(h0 + n)
        self._shapes.extend([_PENDING] * n)
        self._data.extend([None] * n if data is None else list(data))
        self._masks.extend([m] * n)
        self._moving.extend([mv] * n)
        self._tags[h0:h0 + n, _scene.LAYER] = lay
        self._bulk.append((h0, tag, rows))
        self._bulk_starts.append(h0)
        self._write_rows(slice(h0, h0 + n), tag, rows)
        self._file_range(range(h0, h0 + n), mv)
        self._alive += n
        self._version += 1
        self._layout += 1
        return np.arange(h0, h0 + n, dtype=np.int64)

    def _write_rows(self, where: slice | np.ndarray, tag: str, rows: np.ndarray) -> None:
        """Write bulk rows' kind, parameters and boxes (grown as :meth:`_store` grows them)
        into the collider table at rows ``where``, vectorised."""
        self._tags[where, _scene.KIND] = getattr(_kw, _BULK_KIND[tag])
        self._rows[where] = 0.0
        # every bulk layout is its kind's parameter row (a 3D segment's radius stays 0)
        self._rows[where, : rows.shape[1]] = rows
        lo, hi = _bulk_boxes(tag, rows)
        grow = BOX_MARGIN * np.maximum(1.0, np.maximum(np.abs(lo), np.abs(hi)).max(axis=1))
        d = lo.shape[1]
        self._rows[where, _scene.LO:_scene.LO + d] = lo - grow[:, None]
        self._rows[where, _scene.HI:_scene.HI + d] = hi + grow[:, None]

    def _file_range(self, handles: Iterable[int], moving: bool) -> None:
        """Put bounded colliders in the static or the dynamic set (marking it for rebuild)."""
        if moving:
            self._dynamic_set.update(handles)
            self._dynamic_tree = None
        else:
            self._static_set.update(handles)
            self._static_tree = None
        self._packed = None
        self._scene = None

    # ------------------------------------------------------------------ pickle and copy

    def __getstate__(self) -> dict[str, Any]:
        """The colliders (handles, shapes or their bulk records, data, layers, masks, flags)
        and the change counter; not the table, the trees, nor the compiled calls' caches."""
        n = len(self._shapes)
        return {
            "format": 1,
            "dim": self._dim,
            # a Shape, None (removed) or _PENDING (a bulk row whose shape is not built yet)
            "shapes": list(self._shapes),
            "data": list(self._data),
            "layers": self._tags[:n, _scene.LAYER].copy(),
            "masks": list(self._masks),
            "moving": list(self._moving),
            "sensors": sorted(self._sensor_set),
            "one_way": {h: tuple(w) for h, w in self._one_way.items()},
            "bulk": list(self._bulk),
            "version": self._version,
            "velocity": {h: tuple(v) for h, v in self._velocity.items()},
            "implied": sorted(self._implied),
        }

    def __setstate__(self, state: dict[str, Any]) -> None:
        """Rebuild the world from :meth:`__getstate__`'s colliders."""
        World.__init__(self)
        if state.get("format") != 1:
            raise ValueError(f"cannot restore a World from state format {state.get('format')!r}")
        dim = state["dim"]
        shapes = list(state["shapes"])
        n = len(shapes)
        if dim is None:
            return
        self._dim = dim
        self._grow(n)
        self._shapes = shapes
        self._data = list(state["data"])
        self._masks = list(state["masks"])
        self._moving = list(state["moving"])
        self._tags[:n, _scene.LAYER] = state["layers"]
        self._bulk = list(state["bulk"])
        self._bulk_starts = [b[0] for b in self._bulk]
        sensors = set(state["sensors"])
        vec = Vec2 if dim == 2 else Vec3
        self._one_way = {int(h): vec(*w) for h, w in state.get("one_way", {}).items()}
        pending = np.zeros(n, np.bool_)
        for h, s in enumerate(shapes):
            if s is None:
                continue
            self._alive += 1
            if s is _PENDING:
                pending[h] = True
            elif h in sensors:
                self._sensor_file(h, s)
            elif _external(s):
                self._sensor_file(h, s, True)
            else:
                self._store(h, s)
                self._file(h, s)
        moving = np.array(self._moving, dtype=np.bool_)
        for start, tag, rows in self._bulk:
            sel = np.flatnonzero(pending[start:start + rows.shape[0]])
            if sel.size == 0:
                continue
            hs = start + sel
            self._write_rows(hs, tag, rows[sel])
            self._file_range(hs[moving[hs]].tolist(), True)
            self._file_range(hs[~moving[hs]].tolist(), False)
        for h, v in state.get("velocity", {}).items():
            self._set_velocity(int(h), vec(*v))
        self._implied = {int(h) for h in state.get("implied", ())}
        self._version = int(state["version"])
