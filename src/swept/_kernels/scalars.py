"""``min``, ``max`` and ``int`` of plain numbers, inlined, for the World's cast loop.

numba 0.68 implements the builtins ``min``, ``max`` and ``int`` as overloads: each is a small
function of its own, linked into its caller's module, where LLVM may inline it. In the World's
largest kernel (``world.cast_range``) it did not: every ``int(x)`` of a float and every ``min``
/ ``max`` there stayed a call (the argument in ``xmm0``, the result through memory, a status
checked; the disassembly: 15 ``int`` sites, 11 float and 9 integer ``min`` / ``max`` sites, a
grid row's tag converted at every entry), and ``perf`` on every kind at 1,000 found 4.7% of the
samples inside those five small functions. These helpers are numba IR inlined
(:func:`~swept._kernels.inline_kernel`), so no call is left: ``np.int64(x)`` lowers to the
conversion itself, and a comparison and a select to the same ``minsd`` / ``maxsd`` the
overloads hold. The same bits: Python's ``min(a, b)`` is ``b if b < a else a`` (a NaN or a tie
keeps ``a``), its ``max`` likewise with ``>``; ``int`` of a float in int64's range truncates as
``np.int64`` does. Measured alone (``cast_range``, one process alternated against ``main``):
within the noise (the out-of-order core hid the calls); kept as less work, and with it the
grid walk's unsigned indices (``world._skip_empty``) cost the BVH's clusters at 1,000 less.
"""

from __future__ import annotations

import numpy as np

from . import inline_kernel

__all__ = ["cell_at", "greatest", "least", "truncated"]


@inline_kernel
def least(a: float, b: float) -> float:
    """``min(a, b)`` of two floats, the same bits, without a call."""
    return b if b < a else a


@inline_kernel
def greatest(a: float, b: float) -> float:
    """``max(a, b)`` of two floats, the same bits, without a call."""
    return b if b > a else a


@inline_kernel
def truncated(x: float) -> int:
    """``int(x)`` of a float in int64's range (a grid row's tag, a cell index kept as a
    float), without a call."""
    return np.int64(x)


@inline_kernel
def cell_at(x: float, n: int) -> int:
    """``min(max(int(x), 0), n - 1)``: a floored coordinate in cells (in int64's range) as a
    cell index of a row of ``n`` cells, without a call."""
    c = truncated(x)
    c = c if c > 0 else 0
    return c if c < n - 1 else n - 1
