"""``benchmarks/bench_compile.py --breakdown``'s tables, on records made up for the test: numba's
library compiles are charged to the swept kernel that asked for them, through library
compiles nested in one another (the shape-mismatch error's string formatting asked for by a
slice assignment in ``grid.subdivide`` was found so)."""

from __future__ import annotations

import importlib.util
import pathlib
from typing import Any

import pytest

_PATH = pathlib.Path(__file__).resolve().parent.parent / "benchmarks" / "bench_compile.py"


def _bench() -> Any:
    """The benchmark script as a module."""
    spec = importlib.util.spec_from_file_location("bench_compile", _PATH)
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


def _record(kernel: str, parent: str | None, seconds: float) -> dict[str, Any]:
    return {"kernel": kernel, "parent": parent, "signature": "int64", "inclusive": seconds,
            "exclusive": seconds, "phases": {"other": seconds}}


def test_library_compiles_are_charged_to_the_swept_kernel_that_asked(
        capsys: pytest.CaptureFixture[str]) -> None:
    cold = [
        _record("numba.np.arrayobj.raise_shape", "swept._kernels.grid.subdivide", 0.25),
        # nested: the error's message formatting, asked for by the error's own compile
        _record("numba.cpython.unicode.repr", "numba.np.arrayobj.raise_shape", 0.5),
        _record("swept._kernels.grid.subdivide", None, 1.0),
        _record("numba.np.arrayobj.empty", "swept._kernels.bvh.build", 0.125),
        _record("swept._kernels.bvh.build", None, 2.0),
        # a library compile made straight from Python
        _record("numba.np.arrayobj.zeros", None, 0.0625),
    ]
    _bench().print_breakdown(cold, [])
    out = capsys.readouterr().out
    table = out.split("asked for them (CPU s, compiles):\n", 1)[1].split("swept kernels", 1)[0]
    rows = [line.split() for line in table.strip().splitlines()]
    assert rows == [["0.75", "s", "2", "swept._kernels.grid.subdivide"],
                    ["0.12", "s", "1", "swept._kernels.bvh.build"],
                    ["0.06", "s", "1", "None"]]
    assert "6 compiles, 3.9 s of CPU in all" in out
    assert "warm tour: 0 compiles" in out


def test_a_library_compile_that_names_itself_as_parent_ends(
        capsys: pytest.CaptureFixture[str]) -> None:
    # (a recursive compile: the walk up the parents is capped)
    cold = [_record("numba.misc.quicksort.run", "numba.misc.quicksort.run", 0.5)]
    _bench().print_breakdown(cold, [])
    assert "0.50 s    1  numba.misc.quicksort.run" in capsys.readouterr().out
