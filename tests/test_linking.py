"""Compiled calls between swept's kernels through mapped symbols (swept._kernels.linking).

numba links a callee's whole module into every compiled caller and LLVM optimizes it again
there; swept's kernels are instead called through a symbol mapped to the callee's one copy of
machine code. These tests guard the two ways that can break: a caller whose code still holds
the callee (no saving), and a caller loaded from numba's disk cache in a fresh process before
its callee is mapped (LLVM's linker would end the process)."""

from __future__ import annotations

import os
import pathlib
import subprocess
import sys
from typing import Any

import numba
import pytest

from swept._kernels import callee, kernel, linking
from swept._kernels import ray as kray

SRC = str(pathlib.Path(__file__).resolve().parent.parent / "src")

#: A module of kernels for the cache tests: ``top`` (Python calls it) calls ``middle``, which
#: calls ``leaf``; ``leaf`` raises ValueError on a negative count.
_MODULE = '''
import numpy as np
from swept._kernels import callee, kernel

@callee
def leaf(x, n):
    if n < 0:
        raise ValueError("leaf: n must be at least 0")
    total = 0.0
    for i in range(n):
        total += x * (i + 1)
    return total

@callee
def middle(a, n):
    out = np.empty(a.shape[0])
    for i in range(a.shape[0]):
        out[i] = leaf(a[i], n)
    return out

@kernel
def top(a, n):
    return middle(a, n).sum()
'''

#: Run in a fresh interpreter: call ``top`` (the first call in the process), then with a
#: negative count; print the sum, the error and each kernel's compiles in this process.
_RUN = r'''
import sys
import numpy as np
from swept._kernels import linking
linking.LINKED_CALLEE_MAX_INSTRUCTIONS = 0  # every callee through its symbol
import linked_mod as m
value = m.top(np.arange(4.0), 3)
try:
    m.top(np.arange(4.0), -1)
    error = "none"
except ValueError as exc:
    error = str(exc)
print(repr(value))
print(error)
print(*(sum(k.stats.cache_misses.values()) for k in (m.top, m.middle, m.leaf)))
if sys.argv[1:] == ["cold"]:  # (a kernel loaded from the cache has no LLVM text)
    code = m.top.inspect_llvm(m.top.signatures[0])
    inner = m.middle.overloads[m.middle.signatures[0]].fndesc.llvm_func_name
    print(linking.PREFIX + "middle." in code, "define" in code and inner not in code)
'''


def _run(directory: pathlib.Path, *argv: str) -> list[str]:
    """Run :data:`_RUN` in a fresh interpreter with ``directory`` and swept importable."""
    env = dict(os.environ, PYTHONPATH=os.pathsep.join([str(directory), SRC]))
    done = subprocess.run([sys.executable, "-c", _RUN, *argv], env=env, capture_output=True,
                          text=True, timeout=600, cwd=directory)
    assert done.returncode == 0, done.stderr[-3000:]
    return done.stdout.split("\n")


def test_a_cached_caller_loads_in_a_fresh_process_before_its_callees(
        tmp_path: pathlib.Path) -> None:
    """(Every callee counted large.) A cold process compiles all three kernels, ``top``
    calling ``middle``'s symbol; a fresh one loads ``top`` from the disk cache first, whose
    reload hook loads ``middle`` and that one's loads ``leaf`` (mapping their symbols) before
    ``top``'s code is linked: the same value, the callee's ValueError through both callers,
    and no compile."""
    (tmp_path / "linked_mod.py").write_text(_MODULE)
    expected = sum(x * 6.0 for x in range(4))
    cold = _run(tmp_path, "cold")
    assert float(cold[0]) == expected
    assert cold[1] == "leaf: n must be at least 0"
    assert cold[2] == "1 1 1"
    assert cold[3] == "True True"  # calls middle's symbol, holds no copy of middle
    warm = _run(tmp_path)
    assert float(warm[0]) == expected
    assert warm[1] == "leaf: n must be at least 0"
    assert warm[2] == "0 0 0"


@callee
def _tripled(x: float) -> float:
    return 3.0 * x


@kernel
def tripled_plus_one(x: float) -> float:
    return _tripled(x) + 1.0


def test_a_caller_of_a_large_callee_keeps_a_hook_that_loads_it(
        monkeypatch: pytest.MonkeyPatch) -> None:
    """With every callee counted large, the caller's compile (fresh or from the disk cache)
    carries the hook that loads the callee by name before the caller's code, and the
    callee's symbol is mapped in this process."""
    monkeypatch.setattr(linking, "LINKED_CALLEE_MAX_INSTRUCTIONS", 0)
    assert tripled_plus_one(2.0) == 7.0
    inner = globals()["_tripled"]  # (by string: no Python code names a callee)
    args = tuple(inner.signatures[0])
    hooks = tripled_plus_one.overloads[tripled_plus_one.signatures[0]].reload_init
    assert [(h.func, h.args) for h in hooks] == [(linking.load_callee,
                                                  (__name__, "_tripled", args))]
    from llvmlite import binding as ll
    assert ll.address_of_symbol(linking.symbol_name(__name__, "_tripled", args))


def test_a_small_callee_stays_linked_for_llvm_to_inline() -> None:
    """A callee under the bound (the ray's circle test) is linked into its caller as numba
    does, for LLVM to inline: the caller calls no symbol."""
    @numba.njit
    def first_hit(x: float) -> float:
        return kray.ray_circle(0.0, 0.0, 1.0, 0.0, x, 0.0, 1.0, 100.0)[0]

    assert first_hit(5.0) == 4.0
    assert not linking._large(kray.ray_circle.overloads[kray.ray_circle.signatures[0]])
    code = first_hit.inspect_llvm(first_hit.signatures[0])
    assert linking.PREFIX not in code


def test_a_kernel_no_module_name_reaches_keeps_numbas_linking(
        monkeypatch: pytest.MonkeyPatch) -> None:
    """A kernel that its module's name does not reach (made in a function: no loader could
    find it in a fresh process; here a second kernel of ``_tripled``'s function, whose name
    reaches the first) is linked into its callers as numba does, even counted large."""
    monkeypatch.setattr(linking, "LINKED_CALLEE_MAX_INSTRUCTIONS", 0)
    twin = callee(globals()["_tripled"].py_func)

    @kernel
    def outer(x: float) -> float:
        return twin(x) - 1.0

    assert outer(3.0) == 8.0
    # no hook loads a callee: the call is linked (holds also when loaded from the cache)
    assert not outer.overloads[outer.signatures[0]].reload_init


@pytest.mark.parametrize("args", [(numba.float64, numba.int64),
                                  (numba.float64[::1], numba.int64)])
def test_symbol_names_are_stable_and_tell_signatures_apart(args: tuple[Any, ...]) -> None:
    """A symbol is the same for the same kernel and types (every process computes it alone)
    and differs for another signature, kernel or module."""
    name = linking.symbol_name("m", "f", args)
    assert name == linking.symbol_name("m", "f", args)
    assert name.startswith(linking.PREFIX + "f.")
    assert name != linking.symbol_name("m", "f", (numba.float32,) + args[1:])
    assert name != linking.symbol_name("m", "g", args)
    assert name != linking.symbol_name("n", "f", args)


def test_load_callee_loads_a_kernel_by_its_name() -> None:
    """The reload hook compiles or loads the named kernel for the given types."""
    args = (numba.float64,) * 8
    linking.load_callee("swept._kernels.ray", "ray_circle", args)
    assert args in kray.ray_circle.overloads
    assert kray.ray_circle(0.0, 0.0, 1.0, 0.0, 5.0, 0.0, 1.0, 10.0)[0] == 4.0
