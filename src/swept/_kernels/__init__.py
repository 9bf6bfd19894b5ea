"""numba-compiled scalar geometry: the single source of every formula in swept.

Each module holds one query family (``ray``, ``contact``, ``distance``, ...). Kernels take and
return plain floats, ints, bools, tuples of them, and float64 arrays (polygon corners and
normals, shape cores), so that the scalar API and the batch kernels (``prange`` loops) call the
very same code. The public modules (``swept.raycast``, ``swept.contact``, ...) coerce input,
call a kernel and wrap its result; they hold no geometry of their own.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any, TypeVar

import numba

F = TypeVar("F", bound=Callable[..., Any])


def kernel(fn: F) -> F:
    """Compile ``fn`` as a scalar kernel: nopython, cached on disk, releasing the GIL."""
    compiled: F = numba.njit(cache=True, nogil=True)(fn)  # type: ignore[assignment]
    return compiled
