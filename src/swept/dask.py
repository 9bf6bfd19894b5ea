"""Batch queries over Dask arrays: a World's ray casts and sweeps, chunk by chunk, on a cluster.

:func:`raycast_many` and :func:`sweep_many` take the arguments of
:meth:`World.raycast_many <swept.World.raycast_many>` and
:meth:`World.sweep_many <swept.World.sweep_many>`, with the per-row arrays as Dask arrays
chunked by rows (numpy arrays are wrapped with ``dask.array.asarray``), and build a lazy
graph: one task per row chunk calls the World's own batch method on that chunk, so each row's
answer is exactly the in-process one. Nothing runs until you compute.

The World goes into the graph once, as a single key (a World pickles), not once per task:
with the threaded scheduler the tasks share the object; on a ``distributed`` cluster the
scheduler has it made on one worker and every worker that runs a chunk fetches it from there
once and keeps it while the graph runs. To place it on every worker yourself, and reuse it
over many calls, scatter it and pass the future as ``world``:
``world_f = client.scatter(world, broadcast=True)``.

The result is a :class:`DaskRayBatch` (or :class:`DaskSweepBatch`): the fields of
:class:`~swept.RayBatch` (:class:`~swept.SweepBatch`), each a Dask array chunked as the rows
were, all slices of one record array (so computing several fields together runs each chunk
once), and :meth:`~DaskRayBatch.compute` returns the real RayBatch (SweepBatch).

Each worker compiles swept's kernels on its first chunk unless numba's on-disk cache already
holds them: give the workers the environment of the process that compiled them (the same
``NUMBA_CACHE_DIR``, or none, and the same installation), and warm the cache once with a small
in-process call. ``SWEPT_NUM_THREADS`` in a worker's environment sets how many threads each of
its chunks uses (with ``threads_per_worker`` Dask threads a worker, ``cores // threads`` is a
fair share).

Bad input: shapes, row counts and dtypes are checked when the graph is built (ValueError or
TypeError naming the argument); values (NaN, a zero direction) are checked by the World in
each chunk when it runs, and the error names the chunk's rows (row indices in the World's
message count from the chunk's first row).
"""

from __future__ import annotations

import math
import threading
import uuid
import weakref
from collections.abc import Sequence
from dataclasses import dataclass, fields
from typing import Any, ClassVar, Generic, TypeVar

import numpy as np

from ._optional import require
from .results import RayBatch, SweepBatch
from .shapes import Shape
from .vec import as_finite
from .world import ALL_LAYERS, World, _mask, _sweep_form

__all__ = ["raycast_many", "sweep_many", "DaskRayBatch", "DaskSweepBatch"]


def _dask() -> Any:
    """dask, or an ImportError naming the extra."""
    return require("dask", "dask", "swept.dask")


def _da() -> Any:
    """dask.array, or an ImportError naming the extra."""
    return require("dask.array", "dask", "swept.dask")


#: the in-process batch record a lazy batch computes to
B = TypeVar("B", RayBatch, SweepBatch)


@dataclass(frozen=True)
class _DaskBatch(Generic[B]):
    """The shared behaviour of the lazy batches: compute every field at once."""

    _result: ClassVar[type]

    def compute(self, **kwargs: Any) -> B:
        """Compute every field in one pass (``kwargs`` go to ``dask.compute``: ``scheduler``
        and so on) and return the in-process batch record."""
        arrays = _dask().compute(*(getattr(self, f.name) for f in fields(self)), **kwargs)
        out: B = self._result(*(np.ascontiguousarray(a) for a in arrays))
        return out

    def __len__(self) -> int:
        """The number of rows."""
        return int(self.hit.shape[0])  # type: ignore[attr-defined]


@dataclass(frozen=True)
class DaskRayBatch(_DaskBatch[RayBatch]):
    """:class:`~swept.RayBatch`'s fields as Dask arrays chunked by rows (d: the dimension);
    :meth:`compute` gives the RayBatch."""

    _result: ClassVar[type] = RayBatch

    #: (n,) bool: whether ray i hit anything
    hit: Any
    #: (n,) float64: distance along ray i to its hit (0 when it started inside); inf on a miss
    distance: Any
    #: (n, d) float64: the hit point, world space; zeros on a miss
    point: Any
    #: (n, d) float64: unit normal at the hit, facing the ray; zeros on a miss
    normal: Any
    #: (n,) int64: the collider hit; -1 on a miss
    handle: Any


@dataclass(frozen=True)
class DaskSweepBatch(_DaskBatch[SweepBatch]):
    """:class:`~swept.SweepBatch`'s fields as Dask arrays chunked by rows (d: the dimension);
    :meth:`compute` gives the SweepBatch."""

    _result: ClassVar[type] = SweepBatch

    #: (n,) bool: whether mover i touches anything during its move
    hit: Any
    #: (n,) float64: the fraction of the displacement at first contact; inf on a miss
    fraction: Any
    #: (n, d) float64: where the mover touches the collider then, world space; zeros on a miss
    point: Any
    #: (n, d) float64: unit normal out of the collider toward the mover; zeros on a miss
    normal: Any
    #: (n,) int64: the collider met; -1 on a miss
    handle: Any


def _record_dtype(amount: str, d: int) -> np.dtype:
    """One row of a batch result: the batch record's fields, ``amount`` the distance's name."""
    return np.dtype([("hit", np.bool_), (amount, np.float64), ("point", np.float64, (d,)),
                     ("normal", np.float64, (d,)), ("handle", np.int64)])


def _pack(batch: RayBatch | SweepBatch, dtype: np.dtype) -> np.ndarray:
    """A batch record's arrays as one record array of ``dtype``."""
    out = np.empty(batch.hit.shape[0], dtype)
    for name in dtype.names or ():
        out[name] = getattr(batch, name)
    return out


def _world_key(world: Any) -> tuple[Any, int | None]:
    """``world`` as one graph key (a World wrapped in a delayed of its own name, or a future or
    delayed the caller made), and its dimension when known."""
    dask = _dask()
    if isinstance(world, World):
        key = dask.delayed(world, name=f"swept-world-{uuid.uuid4().hex}", pure=True,
                           traverse=False)
        return key, world.dim
    if dask.is_dask_collection(world):
        return world, None
    try:
        from distributed import Future
    except ImportError:  # pragma: no cover - distributed is in the dask extra
        pass
    else:
        if isinstance(world, Future):
            return world, None
    raise TypeError(f"world must be a swept World (or a delayed or scattered one), not "
                    f"{type(world).__name__}")


def _rows(value: Any, name: str, ndim: int) -> Any:
    """``value`` as a Dask array of ``ndim`` dimensions of numbers, one chunk across columns."""
    da = _da()
    a = value if isinstance(value, da.Array) else da.asarray(value)
    if a.dtype.kind not in "biuf":
        raise TypeError(f"{name} must hold real numbers, not {a.dtype} values")
    if a.ndim != ndim:
        raise ValueError(f"{name} must be a {ndim}D array, got shape {a.shape}")
    if any(math.isnan(c) for c in a.chunks[0]):
        raise ValueError(f"{name} has unknown chunk sizes; call {name}.compute_chunk_sizes() "
                         f"first")
    if ndim == 2:
        if a.shape[1] not in (2, 3):
            raise ValueError(f"{name} must have 2 or 3 columns, got shape {a.shape}")
        if len(a.chunks[1]) > 1:
            a = a.rechunk({1: -1})
    return a.astype(np.float64)


def _like(a: Any, name: str, rows: Any, first: str, ndim: int) -> Any:
    """Another per-row argument, checked against ``rows`` (the argument ``first``) and
    chunked as it is."""
    b = _rows(a, name, ndim)
    if b.shape[0] != rows.shape[0]:
        raise ValueError(f"{name} must have {rows.shape[0]} rows (as many as {first}), got "
                         f"{b.shape[0]}")
    if ndim == 2 and b.shape[1] != rows.shape[1]:
        raise ValueError(f"{name} must have {rows.shape[1]} columns, got shape {b.shape}")
    return b.rechunk({0: rows.chunks[0]})


def _column(a: Any, rows: Any) -> Any:
    """A per-row (n,) array spread over ``rows``' columns, so that every input of a chunk has
    the same chunk grid (a chunk reads column 0)."""
    return _da().broadcast_to(a[:, None], rows.shape, chunks=rows.chunks)


def _check_dim(d: int, dim: int | None, name: str) -> None:
    """A per-row array's width against the world's dimension (when known)."""
    if dim is not None and d != dim:
        raise ValueError(f"{name} must have {dim} columns (the world is {dim}D), got {d}")


#: the Worlds this process has queried, each with its version then (its broadphase built)
_READY: weakref.WeakKeyDictionary[World, int] = weakref.WeakKeyDictionary()
#: held by a World's first query in this process
_FIRST_QUERY = threading.Lock()


def _in_chunk(world: World, call: Any, block_info: Any) -> Any:
    """Run one chunk's call; a ValueError or TypeError names the chunk's rows.

    A World builds its broadphase on its first query after a change. The chunks of one graph
    share one World a process (the caller's on the threaded scheduler, the unpickled copy on
    a worker), so the first chunk to reach a World (or a changed one: a new ``version``) runs
    alone and the others wait for it rather than build the same trees at once; after that,
    chunks run side by side. Changing the World while a computation runs is not supported.
    """
    try:
        if _READY.get(world) == world.version:
            return call()
        with _FIRST_QUERY:
            out = call()
            _READY[world] = world.version
            return out
    except (ValueError, TypeError) as exc:
        lo, hi = block_info[None]["array-location"][0] if block_info else (0, 0)
        raise type(exc)(f"in the chunk of rows {lo} to {hi - 1} (row indices below count "
                        f"from {lo}): {exc}") from None


def _ray_chunk(origins: np.ndarray, directions: np.ndarray, *rest: Any, max_distance: Any,
               mask: int, record: np.dtype, block_info: Any = None) -> np.ndarray:
    """One chunk of :func:`raycast_many`: the World's own batch call on its rows."""
    world = rest[-1]
    md = rest[0][:, 0] if len(rest) == 2 else max_distance
    got = _in_chunk(world, lambda: world.raycast_many(origins, directions, md, mask=mask),
                    block_info)
    return _pack(got, record)


def raycast_many(world: Any, origins: Any, directions: Any, max_distance: Any = math.inf, *,
                 mask: int = ALL_LAYERS) -> DaskRayBatch:
    """The nearest hit of each of n rays, :meth:`World.raycast_many
    <swept.World.raycast_many>` chunk by chunk over Dask arrays; lazy.

    ``world`` a :class:`~swept.World` (or a scattered future or a delayed of one);
    ``origins`` (n, d) and ``directions`` (n, d) Dask arrays chunked by rows (``directions``
    is rechunked to ``origins``' rows); ``max_distance`` a number or an (n,) array. Returns a
    :class:`DaskRayBatch`; ``.compute()`` gives the :class:`~swept.RayBatch`.
    """
    da = _da()
    m = _mask(mask)
    key, dim = _world_key(world)
    o = _rows(origins, "origins", 2)
    d = int(o.shape[1])
    _check_dim(d, dim, "origins")
    v = _like(directions, "directions", o, "origins", 2)
    extra: tuple[Any, ...] = ()
    md: Any = None
    if np.ndim(max_distance) == 0 and not isinstance(max_distance, da.Array):
        md = as_finite(max_distance, "max_distance", minimum=0.0, allow_inf=True)
    else:
        extra = (_column(_like(max_distance, "max_distance", o, "origins", 1), o),)
    dtype = _record_dtype("distance", d)
    rec = da.map_blocks(_ray_chunk, o, v, *extra, key, max_distance=md, mask=m, record=dtype,
                        dtype=dtype, drop_axis=1, meta=np.empty(0, dtype),
                        token="swept-raycast-many")
    return DaskRayBatch(rec["hit"], rec["distance"], rec["point"], rec["normal"],
                        rec["handle"])


def _sweep_chunk(*args: Any, form: str, one: Any, mask: int, record: np.dtype,
                 block_info: Any = None) -> np.ndarray:
    """One chunk of :func:`sweep_many`: the World's own batch call on its rows. ``form`` is
    ``balls`` (centers, radii column, displacements), ``shape`` (one mover ``one``) or
    ``shapes`` (the list of movers, the argument before the world)."""
    world = args[-1]
    if form == "balls":
        c, r, v = args[0], args[1][:, 0], args[2]

        def call() -> Any:
            return world.sweep_many(c, r, v, mask=mask)
    else:
        v = args[0]
        if form == "shape":
            movers = one
        else:
            lo, hi = block_info[None]["array-location"][0] if block_info else (0, len(args[1]))
            movers = list(args[1][lo:hi])

        def call() -> Any:
            return world.sweep_many(shapes=movers, displacements=v, mask=mask)
    return _pack(_in_chunk(world, call, block_info), record)


def sweep_many(world: Any, centers: Any = None, radii: Any = None, displacements: Any = None,
               *, shapes: Any = None, mask: int = ALL_LAYERS) -> DaskSweepBatch:
    """The first contact of each of n moving shapes, :meth:`World.sweep_many
    <swept.World.sweep_many>` chunk by chunk over Dask arrays; lazy.

    Balls: ``sweep_many(world, centers, radii, displacements)`` with ``centers`` (n, d),
    ``radii`` (n,) and ``displacements`` (n, d) arrays chunked by rows (the others are
    rechunked to ``centers``' rows). Any convex movers: ``sweep_many(world, shapes,
    displacements)`` (or ``shapes=``, ``displacements=``), one shape swept by every row of
    ``displacements`` (n, d), or a sequence of n shapes (put in the graph once, as the world
    is; each chunk takes its rows' shapes). Returns a :class:`DaskSweepBatch`;
    ``.compute()`` gives the :class:`~swept.SweepBatch`.
    """
    dask = _dask()
    da = _da()
    m = _mask(mask)
    key, dim = _world_key(world)
    centers, radii, displacements, shapes = _sweep_form(centers, radii, displacements, shapes,
                                                       "world, ")
    one: Any = None
    arrays: tuple[Any, ...]
    if shapes is not None:
        v = _rows(displacements, "displacements", 2)
        d = int(v.shape[1])
        _check_dim(d, dim, "displacements")
        if isinstance(shapes, Shape):
            form, one, arrays = "shape", shapes, (v,)
        elif isinstance(shapes, Sequence) and not isinstance(shapes, (str, bytes)):
            listed = list(shapes)
            if len(listed) != v.shape[0]:
                raise ValueError(f"displacements must have {len(listed)} rows (one per "
                                 f"shape), got {v.shape[0]}")
            movers = dask.delayed(listed, name=f"swept-movers-{uuid.uuid4().hex}", pure=True,
                                  traverse=False)
            form, arrays = "shapes", (v, movers)
        else:
            raise TypeError(f"shapes must be a shape or a sequence of shapes, not "
                            f"{type(shapes).__name__}")
    else:
        c = _rows(centers, "centers", 2)
        d = int(c.shape[1])
        _check_dim(d, dim, "centers")
        r = _column(_like(radii, "radii", c, "centers", 1), c)
        v = _like(displacements, "displacements", c, "centers", 2)
        form, arrays = "balls", (c, r, v)
    dtype = _record_dtype("fraction", d)
    rec = da.map_blocks(_sweep_chunk, *arrays, key, form=form, one=one, mask=m, record=dtype,
                        dtype=dtype, drop_axis=1, meta=np.empty(0, dtype),
                        token="swept-sweep-many")
    return DaskSweepBatch(rec["hit"], rec["fraction"], rec["point"], rec["normal"],
                          rec["handle"])
