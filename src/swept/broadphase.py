"""Which structure serves ray queries over a scene's static colliders: a uniform grid or a BVH.

:func:`choose_broadphase` decides from cheap statistics of the colliders' boxes (numpy only,
one pass over the boxes): see its docstring for the rule and the measurements behind it.
"""

from __future__ import annotations

import math
from typing import Any, NamedTuple

import numpy as np

from .constants import (
    BROADPHASE_CLUSTER_COLLIDERS_PER_CELL,
    BROADPHASE_CLUSTER_GRID_MIN_COLLIDERS,
    BROADPHASE_COLLIDERS_PER_CELL,
    BROADPHASE_GRID_MIN_COLLIDERS,
    BROADPHASE_MAX_CLUSTER_OCCUPANCY,
    BROADPHASE_MAX_ENTRIES_PER_COLLIDER,
    BROADPHASE_MAX_OCCUPANCY,
    BROADPHASE_OCCUPANCY_COLLIDERS_PER_CELL,
    BROADPHASE_SMALL_CELLS,
)

__all__ = ["BroadphaseChoice", "GridPlan", "choose_broadphase", "plan_grid"]


class BroadphaseChoice(NamedTuple):
    """The structure for ray queries: a grid of square cells of side ``cell`` when
    ``use_grid`` (else a BVH; ``cell`` is then still a finite positive number, the size the
    grid would have had), and ``reason``, a short sentence saying why."""

    use_grid: bool
    cell: float
    reason: str


class GridPlan(NamedTuple):
    """The grid a scene's boxes would get (:func:`plan_grid`) and its statistics.

    ``cell`` the cells' side; ``cells`` ``(nx, ny)``; ``entries`` the estimated entries
    binning makes (a thin collider: the cells its box's diagonal crosses; any other: the cells
    its box covers); ``occupancy`` the mean, over the colliders at most
    :data:`~swept.constants.BROADPHASE_SMALL_CELLS` probe cells across, of how many of them
    have their box centre in its centre's probe cell (1 when each has a cell to itself; it
    grows as the scene clusters; 0 when no collider is that small). The probe cells are sized
    for :data:`~swept.constants.BROADPHASE_OCCUPANCY_COLLIDERS_PER_CELL` colliders a cell,
    whatever the grid's own, so that the occupancy is a statistic of the scene alone."""

    cell: float
    cells: tuple[int, int]
    entries: float
    occupancy: float


def _spans(lo: np.ndarray, hi: np.ndarray, origin: np.ndarray, cell: float
           ) -> tuple[np.ndarray, np.ndarray]:
    """How many cells each box spans along x and along y (at least 1)."""
    a = np.floor((lo - origin) / cell)
    b = np.floor((hi - origin) / cell)
    span = np.maximum(b - a, 0.0) + 1.0
    return span[:, 0], span[:, 1]


def _entries(lo: np.ndarray, hi: np.ndarray, origin: np.ndarray, cell: float,
             thin: np.ndarray) -> float:
    """The entries binning the boxes at ``cell`` makes (see :class:`GridPlan`)."""
    sx, sy = _spans(lo, hi, origin, cell)
    return float(np.sum(np.where(thin, sx + sy - 1.0, sx * sy)))


def plan_grid(lo: Any, hi: Any, *, thin: Any = None,
              per_cell: float = BROADPHASE_COLLIDERS_PER_CELL) -> GridPlan:
    """The grid :func:`choose_broadphase` would build over 2D boxes ``lo``, ``hi`` ((k, 2)
    float64, k >= 1, finite) and its statistics; ``thin`` (k,) bool marks colliders binned by
    the cells their shape crosses (segments, capsules) rather than their box.

    The cell is sized for ``per_cell`` colliders a cell (by default
    :data:`~swept.constants.BROADPHASE_COLLIDERS_PER_CELL`) over the boxes' bounds (never
    thinner than the bounds' larger side over the number of cells, nor than 1e-12 of the
    coordinates' magnitude), then doubled until binning makes at most
    :data:`~swept.constants.BROADPHASE_MAX_ENTRIES_PER_COLLIDER` entries a collider.
    """
    lo = np.asarray(lo, dtype=np.float64)
    hi = np.asarray(hi, dtype=np.float64)
    k = lo.shape[0]
    thin_mask = np.zeros(k, np.bool_) if thin is None else np.asarray(thin, dtype=np.bool_)
    origin = lo.min(axis=0)
    top = hi.max(axis=0)
    width, height = float(top[0] - origin[0]), float(top[1] - origin[1])
    magnitude = max(float(np.max(np.abs(origin))), float(np.max(np.abs(top))), 1e-300)

    def sized(per_cell: float) -> float:
        """The side of square cells holding ``per_cell`` colliders each on average."""
        cells = max(k / per_cell, 1.0)
        # (the square root taken factor by factor: width * height may pass the floats)
        result: float = max(math.sqrt(width) * math.sqrt(height / cells),
                            max(width, height) / cells, 1e-12 * magnitude)
        return result

    cell = sized(per_cell)
    entries = _entries(lo, hi, origin, cell, thin_mask)
    for _ in range(64):
        # long or large colliders: coarser cells until binning fits (a loop cap: 2^64)
        if entries <= BROADPHASE_MAX_ENTRIES_PER_COLLIDER * k:
            break
        cell *= 2.0
        entries = _entries(lo, hi, origin, cell, thin_mask)
    nx = int(math.floor(width / cell)) + 1
    ny = int(math.floor(height / cell)) + 1
    # occupancy, at cells of a fixed density whatever the grid's own: among the colliders at
    # most a few such cells across (a long or large collider is in many cells, and counted by
    # the entries instead)
    probe = sized(BROADPHASE_OCCUPANCY_COLLIDERS_PER_CELL)
    px = int(math.floor(width / probe)) + 1
    small = np.all(hi - lo <= BROADPHASE_SMALL_CELLS * probe, axis=1)
    occupancy = 0.0
    if small.any():
        centre = (lo[small] + hi[small]) * 0.5
        cx = np.floor((centre[:, 0] - origin[0]) / probe).astype(np.int64)
        cy = np.floor((centre[:, 1] - origin[1]) / probe).astype(np.int64)
        _ids, counts = np.unique(cy * (px + 1) + np.minimum(cx, px), return_counts=True)
        occupancy = float(np.sum(counts.astype(np.float64) ** 2) / np.sum(counts))
    return GridPlan(cell, (nx, ny), entries, occupancy)


def _boxes(lo: Any, hi: Any, dim: Any) -> tuple[np.ndarray, np.ndarray, int]:
    """``lo``, ``hi`` as (k, dim) float64 arrays, checked."""
    if isinstance(dim, bool) or not isinstance(dim, (int, np.integer)) or dim not in (2, 3):
        raise ValueError(f"dim must be 2 or 3, got {dim!r}")
    d = int(dim)
    arrays = []
    for name, value in (("lo", lo), ("hi", hi)):
        try:
            a = np.asarray(value, dtype=np.float64)
        except (TypeError, ValueError) as exc:
            raise TypeError(f"{name} must be a (k, {d}) array of numbers") from exc
        if a.ndim == 1 and a.shape[0] == 0:
            a = a.reshape(0, d)
        if a.ndim != 2 or a.shape[1] != d:
            raise ValueError(f"{name} must have shape (k, {d}), got {a.shape}")
        if not np.isfinite(a).all():
            raise ValueError(f"{name} must be finite")
        arrays.append(a)
    box_lo, box_hi = arrays
    if box_lo.shape != box_hi.shape:
        raise ValueError(f"hi must have the shape of lo {box_lo.shape}, got {box_hi.shape}")
    if (box_hi < box_lo).any():
        raise ValueError(f"hi must be >= lo (row {int(np.argmax((box_hi < box_lo).any(axis=1)))})")
    return box_lo, box_hi, d


def _fallback_cell(lo: np.ndarray, hi: np.ndarray) -> float:
    """A finite, positive cell size for a scene that gets no grid: its larger side over the
    number of colliders (1.0 for an empty or pointlike scene at the origin)."""
    if lo.shape[0] == 0:
        return 1.0
    extent = float(np.max(hi.max(axis=0) - lo.min(axis=0)))
    magnitude = max(float(np.max(np.abs(lo))), float(np.max(np.abs(hi))))
    cell = max(extent / lo.shape[0], 1e-12 * magnitude)
    return cell if cell > 0.0 else 1.0


def choose_broadphase(lo: Any, hi: Any, dim: int, *, thin: Any = None) -> BroadphaseChoice:
    """Grid (and its cell size) or BVH for ray queries over static colliders with boxes
    ``lo``, ``hi`` ((k, dim) float64; ``dim`` 2 or 3); ``thin`` (k,) bool, optional, marks the
    colliders a grid bins by the cells their shape crosses (segments, capsules) instead of by
    their box.

    The rule (2D; a 3D scene, or fewer than
    :data:`~swept.constants.BROADPHASE_GRID_MIN_COLLIDERS` colliders, takes the BVH):

    1. Size the cells for :data:`~swept.constants.BROADPHASE_COLLIDERS_PER_CELL` colliders a
       cell over the boxes' bounds, coarsened (doubled) while binning would make more than
       :data:`~swept.constants.BROADPHASE_MAX_ENTRIES_PER_COLLIDER` entries a collider (a
       memory bound, not a speed one) (:func:`plan_grid`).
    2. Take the grid unless the small colliders (at most
       :data:`~swept.constants.BROADPHASE_SMALL_CELLS` probe cells across) crowd into shared
       cells: an occupancy (:class:`GridPlan`) above
       :data:`~swept.constants.BROADPHASE_MAX_OCCUPANCY` (a cluster) takes the BVH below
       :data:`~swept.constants.BROADPHASE_CLUSTER_GRID_MIN_COLLIDERS` colliders, else a
       coarser grid, sized for :data:`~swept.constants.BROADPHASE_CLUSTER_COLLIDERS_PER_CELL`
       colliders a cell (rays mostly cross the empty world around a cluster, and stop in the
       first crowded cell they enter); above
       :data:`~swept.constants.BROADPHASE_MAX_CLUSTER_OCCUPANCY` (nearly everything in one
       spot) the BVH. Identical boxes (nothing separates them) take the BVH too.

    Why, measured (``benchmarks/bench_broadphase.py``: 2,000 rays, one thread, us a ray at
    1,000 / 10,000 colliders; "grid" and "BVH" are the World's own, its grid decision patched
    to this function or to "none"): the grid wins on every scene kind but a cluster, and by
    most exactly where long or large colliders make it hold many entries, which the World's
    previous rule (no grid past 8 entries a collider) turned away: walls as long as the world
    0.17 / 0.69 on the grid against 21 / 119 on the BVH (at 10,000, 170 entries a collider;
    the boxes of long diagonal walls overlap everywhere, so a BVH walk tests most of them);
    uniform segments 20 to 100 long 0.080 / 0.106 against 0.47 / 3.9; large boxes 0.26 / 0.31
    against 0.61 / 0.84; small and long mixed 0.082 / 0.151 against 1.7 / 15; coordinates of
    1e6 0.070 / 0.161 against 0.29 / 0.48; every kind 0.26 / 0.47 against 0.41 / 1.17. A
    sparse scene whose rays mostly miss and walk the whole grid still favours it (10,000
    segments 0.05 to 0.1 long, 19% hits: 0.79 against 2.6). Only clusters turn it (small
    colliders crowding few cells that most rays cross without a hit): see
    :data:`~swept.constants.BROADPHASE_MAX_OCCUPANCY` (the crossing between occupancy 3.8 and
    6.1; unclustered scenes read 1.0 to 1.6). The occupancy leaves out long and large
    colliders because a cell crossed by many long walls is opaque (a ray entering it stops
    there) while a cell crowded with small ones is mostly passed through, and it is read on
    probe cells of a fixed density, so that it does not drift with the collider count or the
    grid's own cell. A cluster of small colliders in 1% of the world (occupancy 55 to 66)
    then took the coarser grid: see
    :data:`~swept.constants.BROADPHASE_CLUSTER_COLLIDERS_PER_CELL` (0.22 / 0.26 against the
    BVH's 0.30 / 0.43); since the batch cast reference-counts nothing a ray, the BVH is the
    faster below about 8,000 colliders (0.16 against 0.31 at 1,000, a tie at 10,000): see
    :data:`~swept.constants.BROADPHASE_CLUSTER_GRID_MIN_COLLIDERS`. The World's rays against
    the plain structures on every scene kind: ``benchmarks/bench_broadphase.py``'s table
    (the README quotes it). These timings come from a shared 2-core machine and vary by up
    to 2x between runs; the ratios within one run are what count.

    ``cell`` is finite and positive whatever the input (for the BVH, the size a grid would
    have had, or a fallback). Bad input (wrong shapes, NaN, ``hi < lo``, ``dim`` not 2 or 3)
    raises ValueError naming the argument.
    """
    box_lo, box_hi, d = _boxes(lo, hi, dim)
    k = box_lo.shape[0]
    if k == 0:
        return BroadphaseChoice(False, 1.0, "no colliders")
    if d != 2:
        return BroadphaseChoice(False, _fallback_cell(box_lo, box_hi),
                                "3D: the grid is 2D only")
    if k < BROADPHASE_GRID_MIN_COLLIDERS:
        return BroadphaseChoice(False, _fallback_cell(box_lo, box_hi),
                                f"{k} colliders: fewer than "
                                f"{BROADPHASE_GRID_MIN_COLLIDERS}, a shallow BVH")
    if thin is not None:
        thin = np.asarray(thin, dtype=np.bool_)
        if thin.shape != (k,):
            raise ValueError(f"thin must have shape ({k},), got {thin.shape}")
    if (box_lo == box_lo[0]).all() and (box_hi == box_hi[0]).all():
        return BroadphaseChoice(False, _fallback_cell(box_lo, box_hi),
                                "every box identical: nothing to separate them")
    plan = plan_grid(box_lo, box_hi, thin=thin)
    stats = (f"occupancy {plan.occupancy:.1f}, {plan.entries / k:.1f} entries a collider, "
             f"{plan.cells[0]} x {plan.cells[1]} cells")
    if plan.occupancy > BROADPHASE_MAX_CLUSTER_OCCUPANCY:
        return BroadphaseChoice(False, plan.cell, f"crowded into few cells ({stats}): BVH")
    if plan.occupancy > BROADPHASE_MAX_OCCUPANCY and k < BROADPHASE_CLUSTER_GRID_MIN_COLLIDERS:
        return BroadphaseChoice(False, plan.cell, f"clustered ({stats}), {k} colliders: "
                                f"fewer than {BROADPHASE_CLUSTER_GRID_MIN_COLLIDERS}, the BVH")
    if plan.occupancy > BROADPHASE_MAX_OCCUPANCY:
        coarse = plan_grid(box_lo, box_hi, thin=thin,
                           per_cell=BROADPHASE_CLUSTER_COLLIDERS_PER_CELL)
        return BroadphaseChoice(True, coarse.cell, f"clustered ({stats}): a coarser grid, "
                                f"{coarse.cells[0]} x {coarse.cells[1]} cells")
    return BroadphaseChoice(True, plan.cell, f"grid ({stats})")
