"""The engine's structure, pinned: kernels take the scene packed, threads come from one runner.

Issue 11 replaced kernels of 40 to 47 loose array parameters with a scene packed in five
arrays (``swept._kernels.scene.Scene``), and numba's ``prange`` loops (which collapse when
another process holds a core) with range kernels run by ``swept._parallel.parallel_for``. These
tests fail if either creeps back.
"""

from __future__ import annotations

import ast
import pathlib

import pytest

KERNELS = pathlib.Path(__file__).resolve().parent.parent / "src" / "swept" / "_kernels"
#: The modules that read colliders from the scene (the engine), not the scalar geometry.
ENGINE = ("scene", "world", "bvh", "grid", "sim", "batch_sweep", "world_sweep", "chain",
          "world_hit")
#: The most parameters a kernel of the engine takes, unless every one is a number.
MAX_PARAMETERS = 12
SCALARS = {"float", "int", "bool"}


def _functions(name: str) -> list[ast.FunctionDef]:
    tree = ast.parse((KERNELS / f"{name}.py").read_text())
    return [n for n in ast.walk(tree) if isinstance(n, ast.FunctionDef)]


@pytest.mark.parametrize("name", ENGINE)
def test_engine_kernels_take_at_most_twelve_parameters(name: str) -> None:
    """Kernels of the engine take the scene and their query packed; only a function of plain
    numbers (a slab test of 13 coordinates) may take more."""
    wide = []
    for fn in _functions(name):
        annotations = {ast.unparse(a.annotation) if a.annotation else "" for a in fn.args.args}
        if len(fn.args.args) > MAX_PARAMETERS and not annotations <= SCALARS:
            wide.append(f"{fn.name} ({len(fn.args.args)})")
    assert wide == []


def test_no_kernel_uses_prange() -> None:
    """Every parallel loop is a range kernel run by parallel_for (numba's prange waits for a
    core another process holds)."""
    users = [p.name for p in KERNELS.glob("*.py")
             if "prange(" in p.read_text() or "parallel=True" in p.read_text()]
    assert users == []


def test_one_bvh_walk() -> None:
    """The tree walks (front to back for rays, the box walk) exist once, in bvh.py: no other
    kernel module pops a traversal stack of node boxes itself."""
    walkers = []
    for p in KERNELS.glob("*.py"):
        if p.name == "bvh.py":
            continue
        text = p.read_text()
        if "stack[sp" in text:
            walkers.append(p.name)
    assert walkers == []
