"""numba-compiled scalar geometry: the single source of every formula in swept.

Each module holds one query family (``ray``, ``contact``, ``distance``, ...). Kernels take and
return plain floats, ints, bools, tuples of them, and float64 arrays (polygon corners and
normals, shape cores), so that the scalar API and the batch kernels (range kernels
run by :func:`swept._parallel.parallel_for`) call the very same code. The public modules
(``swept.raycast``, ``swept.contact``, ...) coerce input, call a kernel and wrap its result;
they hold no geometry of their own.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any, TypeVar

import numba

from ..constants import COINCIDENT_NORMAL_2D, COINCIDENT_NORMAL_3D

F = TypeVar("F", bound=Callable[..., Any])

#: :data:`~swept.constants.COINCIDENT_NORMAL_2D` as plain floats for compiled code (numba reads
#: module globals as compile-time constants).
COINCIDENT_2X, COINCIDENT_2Y = float(COINCIDENT_NORMAL_2D[0]), float(COINCIDENT_NORMAL_2D[1])
#: :data:`~swept.constants.COINCIDENT_NORMAL_3D` as plain floats for compiled code.
COINCIDENT_3X, COINCIDENT_3Y, COINCIDENT_3Z = (float(COINCIDENT_NORMAL_3D[0]),
                                               float(COINCIDENT_NORMAL_3D[1]),
                                               float(COINCIDENT_NORMAL_3D[2]))


def kernel(fn: F) -> F:
    """Compile ``fn`` as a scalar kernel: nopython, cached on disk, releasing the GIL."""
    compiled: F = numba.njit(cache=True, nogil=True)(fn)  # type: ignore[assignment]
    return compiled


def entry(fn: F) -> F:
    """Compile ``fn`` as a scalar entry point that Python calls one query at a time.

    Like :func:`kernel`, but it keeps the GIL: releasing and retaking it costs about 40 ns a
    call (measured on ``ray_circle_v``, a quarter of the call), more than such a query
    computes, and the Python caller holds the GIL around it anyway. Batch kernels release
    the GIL themselves.
    """
    compiled: F = numba.njit(cache=True)(fn)  # type: ignore[assignment]
    return compiled


def inline_kernel(fn: F) -> F:
    """Compile ``fn`` like :func:`kernel`, and inline it into its compiled callers at numba IR
    level. For the small helpers of the traversal and simulation loops that take arrays: a
    real call reference-counts every array argument (atomic operations), which made the BVH
    traversal loops twice as slow."""
    compiled: F = numba.njit(cache=True, nogil=True, inline="always")(fn)  # type: ignore[assignment]
    return compiled
