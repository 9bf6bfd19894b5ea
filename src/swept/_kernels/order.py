"""Integer sorting for kernels, by loops that compile in a fraction of a second.

numba compiles its ``np.sort`` / ``np.argsort`` / ``np.unique`` for each dtype and kind, and
that library code was seconds of a cold compile for the two kernels that sort integers
(``bvh``'s float sort is left to numba): the tour's library compiles charged
``sim.pair_grid``'s stable ``argsort`` of its cell keys 2.3 s of CPU (a merge sort) and
``tilemap.swept_ids``' ``np.unique`` 2.5 s (a quick sort). :func:`stable_order` serves both.
:func:`float_order` does the same for ``bvh``'s median split, a stable sort of floats that
numba's ``np.argsort(..., kind="mergesort")`` compiled as library code.
"""

from __future__ import annotations

import math

import numpy as np

from ..constants import SORT_DIGIT_BITS
from . import callee, inline_kernel

__all__ = ["float_order", "stable_order"]


@callee
def stable_order(keys: np.ndarray, n: int) -> np.ndarray:
    """The order (int64, ``n``) that sorts ``keys[:n]`` (int64, each at least 0) ascending,
    equal keys by index, as ``np.argsort(keys[:n], kind="stable")``: a least-significant-digit
    radix sort, :data:`~swept.constants.SORT_DIGIT_BITS` bits a pass, as many passes as the
    largest key needs (at most 64 bits' worth), each a counting sort (stable)."""
    order = np.empty(n, np.int64)
    spare = np.empty(n, np.int64)
    top = 0
    for i in range(n):
        order[i] = i
        top = max(top, keys[i])
    buckets = 1 << SORT_DIGIT_BITS
    mask = buckets - 1
    counts = np.empty(buckets + 1, np.int64)
    shift = 0
    for _pass in range(64 // SORT_DIGIT_BITS + 1):
        if shift >= 64 or (top >> shift) == 0:
            break
        for d in range(buckets + 1):
            counts[d] = 0
        for i in range(n):
            counts[((keys[order[i]] >> shift) & mask) + 1] += 1
        for d in range(buckets):
            counts[d + 1] += counts[d]
        for i in range(n):
            d = (keys[order[i]] >> shift) & mask
            spare[counts[d]] = order[i]
            counts[d] += 1
        order, spare = spare, order
        shift += SORT_DIGIT_BITS
    return order


@inline_kernel
def _before(a: float, b: float) -> bool:
    """Whether ``a`` sorts before ``b``: smaller, NaN last (numpy's and numba's order)."""
    return a < b or (math.isnan(b) and not math.isnan(a))


@callee
def float_order(keys: np.ndarray) -> np.ndarray:
    """The order (int64) that sorts the floats ``keys`` ascending, equal keys by index, NaN
    last, as ``np.argsort(keys, kind="mergesort")``: a stable sort gives the one order that
    keeps equal keys by index, so the very same order. A bottom-up merge sort, runs of
    1, 2, 4, ... merged between two buffers (at most 64 passes, each a whole pass)."""
    n = keys.shape[0]
    order = np.empty(n, np.int64)
    spare = np.empty(n, np.int64)
    for i in range(n):
        order[i] = i
    width = 1
    for _pass in range(64):
        if width >= n:
            break
        for left in range(0, n, 2 * width):
            mid = min(left + width, n)
            right = min(left + 2 * width, n)
            i = left
            j = mid
            for k in range(left, right):
                # the right run's next key only when strictly before the left's (stable)
                if j < right and (i >= mid or _before(keys[order[j]], keys[order[i]])):
                    spare[k] = order[j]
                    j += 1
                else:
                    spare[k] = order[i]
                    i += 1
        order, spare = spare, order
        width *= 2
    return order
