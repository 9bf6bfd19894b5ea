"""The kernel decorators' compile-time measures (swept._kernels): a kernel compiles once per
argument type, not once per literal value or per read-only/writable mix, and numba's inliner
copies an inlined callee's scope once, not once per block. The cold compile these cut is
measured by ``benchmarks/bench_compile.py``."""

from __future__ import annotations

import ast
import copy
import os
import pathlib
import shutil
import subprocess
import sys
from collections.abc import Iterator
from typing import Any

import numba
import numpy as np
import pytest
from numba.core import compiler, errors, ir

from swept import Polygon, contact
from swept._kernels import (
    _BlockCopier,
    _is_swept_ir,
    _read_only_arrays,
    _typed_unliteral,
    callee,
    callee_reader,
    inline_kernel,
    kernel,
    reader,
    stamps,
)
from swept._kernels import contact as kc


def _own_kernels() -> Iterator[Any]:
    """The Python function of every compiled kernel defined in a module of swept._kernels."""
    import importlib
    import pkgutil

    import swept._kernels as kernels

    for info in pkgutil.iter_modules(kernels.__path__):
        module = importlib.import_module(f"swept._kernels.{info.name}")
        for fn in vars(module).values():
            py_func = getattr(fn, "py_func", None)
            if py_func is not None and py_func.__module__ == module.__name__:
                yield py_func


def test_a_literal_argument_compiles_no_second_kernel() -> None:
    """numba types a constant argument (``True``, ``0``) as a literal and, unasked, compiles
    the callee once more per literal value beside its plain type (``_capsule3(..., False)``
    and ``(..., True)`` were two compiles of the whole capsule cast). The kernel decorators
    resolve compiled calls on the plain types, so three call sites make one compile."""

    def shift(x: float, up: bool, k: int) -> float:
        return x + k if up else x - k

    callee = _typed_unliteral(numba.njit(shift))

    @numba.njit
    def caller(x: float, up: bool, k: int) -> float:
        return callee(x, True, 2) + callee(x, False, 0) + callee(x, up, k)

    assert caller(1.0, True, 3) == 3.0 + 1.0 + 4.0
    assert len(callee.signatures) == 1
    assert callee.signatures[0] == (numba.float64, numba.boolean, numba.int64)


def test_a_reader_shares_one_compile_between_read_only_and_writable_arrays() -> None:
    """A Polygon's arrays are read-only; the arrays kernels build (a box's corners) or slice
    from the World's pool are writable, and numba compiles a kernel once per mix (a polygon
    pair kernel took three). A reader's compiled callers pass float64 arrays as read-only,
    so the Python call with read-only arrays and the compiled call with writable ones share
    one compile."""

    def total(verts: np.ndarray) -> float:
        return float(verts.sum())

    callee = _read_only_arrays(_typed_unliteral(numba.njit(total)))

    @numba.njit
    def caller(n: int) -> float:
        return callee(np.ones((n, 2)))

    frozen = np.ones((3, 2))
    frozen.setflags(write=False)
    assert callee(frozen) == 6.0
    assert caller(4) == 8.0
    assert len(callee.signatures) == 1
    assert not callee.signatures[0][0].mutable


def test_a_reader_that_writes_its_array_does_not_compile() -> None:
    """The read-only mark cannot hide a write: a reader that stores into its array fails to
    compile when a compiled caller passes it a writable array."""

    def scale(verts: np.ndarray) -> None:
        verts[0, 0] = 2.0

    callee = _read_only_arrays(numba.njit(scale))

    @numba.njit
    def caller() -> None:
        callee(np.ones((2, 2)))

    with pytest.raises(errors.TypingError):
        caller()


def test_geometry_kernels_compile_once_for_read_only_and_writable_polygons() -> None:
    """The shipped readers: a polygon pair contacted from Python (read-only arrays) and a box
    against a polygon (the box's corners built as writable arrays inside the kernel) use the
    one compile of ``contact_polygon_polygon``."""
    a = Polygon([(0, 0), (2, 0), (1, 2)])
    b = Polygon([(1, 1), (3, 1), (2, 3)])
    assert contact(a, b) is not None
    hit, *_ = kc.contact_aabb_polygon(0.0, 0.0, 2.0, 2.0, b._verts, b._norms)
    assert hit
    mutable = [sig for sig in kc.contact_polygon_polygon.signatures
               if any(getattr(t, "mutable", False) for t in sig)]
    assert mutable == []


def _three_blocks(x: float) -> float:
    y = x * 2.0
    for _ in range(2):
        # a loop: more than one block
        y = y - 1.0
    return y


def test_block_copier_copies_the_scope_once() -> None:
    """numba copies an inlined callee block by block, each with a memo of its own, so each
    block copies the callee's whole scope again (cost: blocks x variables). The copier shares
    one memo between the blocks of one IR: the copies share one new scope, and a second copy
    of the same IR (numba makes one to keep unmutated) is a fresh one."""
    func_ir = compiler.run_frontend(_three_blocks)
    assert len(func_ir.blocks) > 1
    copier = _BlockCopier()
    copier.memos = {}
    first = {k: copier.deepcopy(b) for k, b in func_ir.blocks.items()}
    second = {k: copier.deepcopy(b) for k, b in func_ir.blocks.items()}
    scopes = {id(b.scope) for b in first.values()}
    assert len(scopes) == 1
    assert scopes.isdisjoint({id(b.scope) for b in func_ir.blocks.values()})
    assert scopes.isdisjoint({id(b.scope) for b in second.values()})
    for label, block in func_ir.blocks.items():
        assert [str(s) for s in first[label].body] == [str(s) for s in block.body]
        assert first[label] is not second[label]
    # outside an inlining it is plain deepcopy: one scope per block
    copier.memos = None
    plain = [copier.deepcopy(b) for b in func_ir.blocks.values()]
    assert len({id(b.scope) for b in plain}) == len(plain)
    assert copier.deepcopy is not copy.deepcopy


@inline_kernel
def _twice(x: float) -> float:
    return _halve(x) * 4.0


@inline_kernel
def _halve(x: float) -> float:
    z = x
    if z < 0.0:
        # negative: mirrored
        z = -z
    return z * 0.5


@kernel
def _nested_inlines(x: float, y: float) -> float:
    return _twice(x) + _twice(y) + _halve(x - y)


@reader
def _row_sum(verts: np.ndarray, i: int) -> float:
    return verts[i, 0] + verts[i, 1]


def test_nested_inline_kernels_with_the_copier_compute_the_same() -> None:
    """Inline kernels inlined into inline kernels, twice at one site each, through the shared
    copies: the values of the plain Python functions."""

    def plain(x: float, y: float) -> float:
        def halve(v: float) -> float:
            return abs(v) * 0.5
        return halve(x) * 4.0 + halve(y) * 4.0 + halve(x - y)

    for x, y in ((1.0, 2.0), (-3.0, 0.5), (0.0, -0.0), (1e50, -1e50)):
        assert _nested_inlines(x, y) == plain(x, y)
    verts = np.arange(6.0).reshape(3, 2)
    assert _row_sum(verts, 2) == 9.0


def _user_helper(x: float) -> float:
    y = x
    for _ in range(2):
        # a loop: more than one block to copy
        y = y + 1.0
    return y


def test_another_programs_inlining_copies_as_numba_does(monkeypatch: pytest.MonkeyPatch) -> None:
    """swept installs its shared-memo copier in numba's inliner, which is process-wide; only
    swept's own callees may take the shared memo, so a user's ``inline="always"`` function
    compiled in the same process is copied block by block exactly as numba alone copies it."""
    from numba.core import inline_closurecall

    copier = inline_closurecall.copy
    assert isinstance(copier, _BlockCopier)
    seen: list[object] = []
    original = copier.deepcopy

    def spy(x: Any, memo: Any = None) -> Any:
        seen.append(copier.memos)
        return original(x, memo)

    monkeypatch.setattr(copier, "deepcopy", spy)
    helper = numba.njit(inline="always")(_user_helper)

    @numba.njit
    def user(x: float) -> float:
        return helper(x) * 2.0

    assert user(1.5) == 7.0
    assert seen and all(memos is None for memos in seen)
    assert not _is_swept_ir(compiler.run_frontend(_user_helper))
    assert _is_swept_ir(compiler.run_frontend(kc.contact_capsule_aabb3.py_func))


def _kernel_file(name: str) -> str:
    return os.path.join(stamps.KERNELS, name)


def _depends_on(name: str) -> set[str]:
    return {os.path.relpath(p, stamps.PACKAGE) for p in stamps.dependencies(_kernel_file(name))}


def test_a_kernel_file_depends_on_what_it_imports_and_the_constants() -> None:
    """The cache stamp's file set: a kernel module, the kernel modules it imports (directly or
    not), constants.py and vec.py (whose ``_length3`` and ``_unit_direction2`` geom compiles as they
    stand); not the rest of the Python layer, not the modules it does not import."""
    names = _depends_on("world.py")
    assert {"_kernels/world.py", "_kernels/ray.py", "_kernels/scene.py", "_kernels/__init__.py",
            "constants.py", "vec.py"} <= names
    assert "_kernels/stamps.py" not in names
    assert all(n.startswith("_kernels/") or n in ("constants.py", "vec.py") for n in names)
    # linking.py lowers the compiled calls between kernels, so its edits reach their code too
    # (compile_locks.py, which the decorators import, only for the file set's rule)
    assert _depends_on("geom.py") == {"_kernels/geom.py", "_kernels/__init__.py",
                                      "_kernels/linking.py", "_kernels/compile_locks.py",
                                      "constants.py", "vec.py"}


def test_a_changed_callee_file_changes_its_callers_stamp(monkeypatch: pytest.MonkeyPatch) -> None:
    """numba keys a cached kernel on its own file, yet a kernel carries its callees' machine
    code and the constants it read: a changed ray.py left the World's cached casts running the
    old ray code. The stamp hashes every file a kernel module imports: a change to ray.py
    changes world.py's stamp, and not geom.py's."""
    world, geom = _kernel_file("world.py"), _kernel_file("geom.py")
    # the stamp as computed afresh (a process keeps the first)
    stamp = stamps.stamp.__wrapped__
    before = stamp(world), stamp(geom)
    assert before == (stamps.stamp(world), stamps.stamp(geom))
    content_hash = stamps._content_hash

    def edited(path: str, mtime: float, size: int) -> bytes:
        digest = content_hash(path, mtime, size)
        return digest[::-1] if path.endswith(os.sep + "ray.py") else digest

    monkeypatch.setattr(stamps, "_content_hash", edited)
    assert stamp(world) != before[0]
    assert stamp(geom) == before[1]


_RECOMPILES = r"""
import sys
from swept._kernels import contact, geom
contact.contact_circle_aabb(0.5, 0.5, 1.0, 0.0, 0.0, 2.0, 2.0)
geom.closest_on_segment2(0.0, 1.0, -1.0, 0.0, 1.0, 0.0)
print(sum(contact.contact_circle_aabb.stats.cache_misses.values()),
      sum(geom.closest_on_segment2.stats.cache_misses.values()))
"""


def test_an_edited_callee_recompiles_its_callers_from_the_disk_cache(tmp_path: Any) -> None:
    """End to end, in fresh interpreters on a copy of the package: after an edit to geom.py,
    contact.py's kernel that calls geom's is compiled again (not loaded stale from the disk
    cache); a second run loads both."""
    shutil.copytree(os.path.dirname(stamps.PACKAGE), tmp_path / "src",
                    ignore=shutil.ignore_patterns("__pycache__", "*.nbi", "*.nbc"))

    def misses() -> tuple[int, int]:
        env = dict(os.environ, PYTHONPATH=str(tmp_path / "src"))
        out = subprocess.run([sys.executable, "-c", _RECOMPILES], env=env, check=True,
                             capture_output=True, text=True).stdout.split()
        return int(out[0]), int(out[1])

    assert misses() == (1, 1)
    assert misses() == (0, 0)
    with open(tmp_path / "src" / "swept" / "_kernels" / "geom.py", "a") as f:
        f.write("\n# edited\n")
    assert misses() == (1, 1)
    assert misses() == (0, 0)


def test_an_unpickled_polygon_keeps_one_compile_of_its_kernels() -> None:
    """numpy unpickles (and deep-copies) arrays as writable, and a frozen shape's kernels are
    compiled for its read-only arrays: a pickled or copied polygon (a World pickles and
    copies its shapes) compiled ``contact_polygon_polygon`` again, for writable arrays. The
    rebuilt shape's arrays are read-only, as the constructor leaves them."""
    import pickle

    a = Polygon([(0, 0), (2, 0), (1, 2)])
    b = Polygon([(1, 1), (3, 1), (2, 3)])
    for c, d in ((pickle.loads(pickle.dumps(a)), pickle.loads(pickle.dumps(b))),
                 (copy.deepcopy(a), copy.deepcopy(b))):
        assert not c._verts.flags.writeable and not d._norms.flags.writeable
        assert contact(c, d) == contact(a, b)
    mutable = [sig for sig in kc.contact_polygon_polygon.signatures
               if any(getattr(t, "mutable", False) for t in sig)]
    assert mutable == []


def test_a_callee_compiles_without_a_python_wrapper_and_refuses_python() -> None:
    """A callee is compiled without numba's Python wrapper (two thirds of a small kernel's
    compile), so a call from Python would jump to a null address: its compiles stay out of
    the table Python calls look up, and the call raises TypeError, before and after a
    compiled caller compiled it."""

    def doubled(a: np.ndarray, k: int) -> float:
        return float(a[k]) * 2.0

    twice = callee(doubled)

    @numba.njit
    def caller(a: np.ndarray) -> float:
        return twice(a, 1) + twice(a, 0)

    with pytest.raises(TypeError, match="doubled is a callee kernel"):
        twice(np.ones(3), 1)
    assert caller(np.array([1.5, 4.0])) == 8.0 + 3.0
    assert len(twice.signatures) == 1
    with pytest.raises(TypeError, match="only compiled code calls it"):
        twice(np.array([1.5, 4.0]), 1)


def test_a_callee_reader_shares_one_compile_between_read_only_and_writable_arrays() -> None:
    """A callee reader keeps the reader's mark: compiled callers passing a writable array and
    a read-only one share one compile, typed read-only."""

    def total(verts: np.ndarray) -> float:
        return float(verts.sum())

    summed = callee_reader(total)
    frozen = np.ones((3, 2))
    frozen.setflags(write=False)

    @numba.njit
    def caller(n: int, fixed: np.ndarray) -> float:
        return summed(np.ones((n, 2))) + summed(fixed)

    assert caller(4, frozen) == 8.0 + 6.0
    assert len(summed.signatures) == 1
    assert not summed.signatures[0][0].mutable


def test_a_shipped_callee_refuses_python() -> None:
    """The World's row cast (``world._row_cast``) is a callee: a Python call is a TypeError,
    not a crash."""
    from swept._kernels import world

    row_cast = vars(world)["_row_cast"]  # (by string: no Python code names a callee)
    with pytest.raises(TypeError, match="_row_cast is a callee kernel"):
        row_cast(None, 0, 0.0, 0.0, 0.0, 1.0, 0.0, 0.0, 0.0, 1.0, False)


_ROOT = pathlib.Path(__file__).resolve().parent.parent


def _decorator_name(d: ast.expr) -> str:
    """A decorator's last name: ``njit`` for ``numba.njit(cache=False)``."""
    if isinstance(d, ast.Call):
        d = d.func
    if isinstance(d, ast.Attribute):
        return d.attr
    return d.id if isinstance(d, ast.Name) else ""


def _python_names_and_kernels() -> tuple[set[str], dict[str, set[str]]]:
    """The names Python code reads (outside compiled kernels' bodies) in swept, its tests and
    benchmarks, and each kernel decorator's function names."""
    files = [*(_ROOT / "src" / "swept").rglob("*.py"), *(_ROOT / "tests").rglob("*.py"),
             *(_ROOT / "benchmarks").rglob("*.py")]
    decorators = {"kernel", "reader", "entry", "inline_kernel", "callee", "callee_reader"}
    by_decorator: dict[str, set[str]] = {d: set() for d in decorators}
    names: set[str] = set()

    def visit(node: ast.AST, compiled: bool) -> None:
        if isinstance(node, ast.FunctionDef):
            marks = {d.id for d in node.decorator_list if isinstance(d, ast.Name)} & decorators
            for mark in marks:
                by_decorator[mark].add(node.name)
            # a test's own ``@numba.njit(...)`` function is compiled code too
            jitted = any(_decorator_name(d) in ("njit", "jit") for d in node.decorator_list)
            for child in node.body:
                visit(child, compiled or bool(marks) or jitted)
            return
        if not compiled:
            if isinstance(node, ast.Name):
                names.add(node.id)
            elif isinstance(node, ast.Attribute):
                names.add(node.attr)
        for child in ast.iter_child_nodes(node):
            visit(child, compiled)

    for f in files:
        visit(ast.parse(f.read_text()), False)
    return names, by_decorator


def test_kernels_only_compiled_code_calls_are_callees() -> None:
    """Each kernel decorated ``kernel`` or ``reader`` is named by some Python code (a
    plain-Python function, a module table, a test or a benchmark); one that only compiled
    code calls is a ``callee``, compiled without the Python wrapper it would never use, and
    no Python code names a callee."""
    names, by_decorator = _python_names_and_kernels()
    plain = by_decorator["kernel"] | by_decorator["reader"]
    callees = by_decorator["callee"] | by_decorator["callee_reader"]
    assert len(callees) > 100
    assert sorted(plain - names) == []
    # (a name two files share counts for both: a test names a callee only by a twin's name)
    assert sorted((callees & names) - plain) == []



def test_the_worlds_scalar_and_batch_casts_compile_once_and_answer_alike() -> None:
    """The World's cast has one compiled copy, the batch's (``world.cast_range``, on
    owner-less views), which the scalar queries (``world.cast_one``) call on the
    descriptor's one-row batch: it compiles once (the one-row batch's types are the
    batch's; no literal or layout twin), and the scalar and batch queries answer alike, rays
    and balls, among static and moving colliders and a plane (the tree walk, the moving tree
    and the planes all met)."""
    from swept import AABB, Plane, Ray, Sphere, World
    from swept._kernels import world as kworld

    # (the compiles this test adds: other tests in the process may have compiled them before)
    before = set(kworld.cast_range.signatures)
    world = World()
    world.add(Plane((0.0, 0.0, 1.0), -5.0), "floor")
    rng = np.random.default_rng(3)
    for k in range(30):
        c = rng.uniform(0.0, 40.0, 3)
        shape = Sphere(tuple(c), 1.5) if k % 2 else AABB(tuple(c), tuple(c + 2.0))
        world.add(shape, k, moving=k % 5 == 0)
    origins = rng.uniform(-5.0, 45.0, (200, 3))
    directions = rng.normal(size=(200, 3))
    directions /= np.linalg.norm(directions, axis=1)[:, None]
    batch = world.raycast_many(origins, directions, 100.0)
    balls = world.sweep_many(origins, np.full(200, 0.5), directions * 100.0)
    batch_signatures = set(kworld.cast_range.signatures)
    hits = 0
    for i in range(200):
        hit = world.raycast(Ray(tuple(origins[i]), tuple(directions[i]), 100.0))
        assert (hit.handle if hit is not None else -1) == batch.handle[i]
        if hit is not None:
            hits += 1
            assert hit.distance == batch.distance[i]
            assert tuple(hit.point) == tuple(batch.point[i])
            assert tuple(hit.normal) == tuple(batch.normal[i])
        ball = world.sweep(Sphere(tuple(origins[i]), 0.5), tuple(directions[i] * 100.0))
        assert (ball.handle if ball is not None else -1) == balls.handle[i]
        if ball is not None:
            assert ball.fraction == pytest.approx(balls.fraction[i], rel=1e-12, abs=1e-15)
    assert 20 <= hits < 200
    # a ball along a ray's path meets whatever the ray meets
    assert np.all(balls.handle[batch.handle >= 0] >= 0)
    assert len(set(kworld.cast_range.signatures) - before) <= 1
    # the scalar queries' one-row batch types as the batch does: no compile of its own
    assert set(kworld.cast_range.signatures) == batch_signatures


def _typed(py_func: Any, sig: tuple[Any, ...]) -> tuple[list[str], list[str]]:
    """A fresh compile of ``py_func`` for ``sig`` (not cached): its variables' types and its
    calls' signatures, as text, sorted."""
    fresh = numba.njit(no_cfunc_wrapper=True)(py_func)
    fresh.compile(sig)
    annotation = fresh.overloads[sig].type_annotation
    types_ = sorted(f"{name}: {ty}" for name, ty in annotation.typemap.items())
    calls = sorted(str(s) for s in annotation.calltypes.values() if s is not None)
    return types_, calls


def test_the_memoized_call_typing_types_as_numba_does(monkeypatch: pytest.MonkeyPatch) -> None:
    """numba's call typing is memoized while it types swept's kernels (each function type's
    first answer for the same argument types given again, _memo_call_types): a kernel typed
    with the memo gets the very variable types and call signatures it gets without it, and
    the memo is installed once."""
    from numba.core.types import functions

    import swept._kernels as kernels
    from swept._kernels import bvh

    assert getattr(functions.BaseFunction.get_call_type, "_swept_memo", False)
    kernels._memo_call_types()  # a second install changes nothing
    assert getattr(functions.BaseFunction.get_call_type, "_swept_memo", False)
    sig = (numba.float64,) * 9
    with_memo = _typed(bvh.ray_box_entry2.py_func, sig)
    with_memo_again = _typed(bvh.ray_box_entry2.py_func, sig)
    monkeypatch.setattr(kernels, "_typing_swept", lambda context: False)
    without = _typed(bvh.ray_box_entry2.py_func, sig)
    assert with_memo == without
    assert with_memo_again == without
    assert any("float64" in call for call in without[1])


def _llvm_ir(py_func: Any, sig: tuple[Any, ...]) -> str:
    """The LLVM IR of a fresh compile of ``py_func`` for ``sig`` (not cached), with the numbers
    that numba counts across compiles (each compile's unique name, the names and block labels
    of inlined code) replaced by their order of appearance."""
    import re

    fresh = numba.njit(no_cfunc_wrapper=True)(py_func)
    fresh.compile(sig)
    text = fresh.inspect_llvm(sig)
    names: dict[str, str] = {}
    labels: dict[str, str] = {}
    # a function's version in its mangled name (B3v13: numba's counter of compiles) dropped,
    # and the module's globals (each callee's environment, named with that version) sorted:
    # numba emits them in an order that follows the versions' values, which differ with what
    # the process compiled before or loaded from the disk cache (a second run of this file in
    # a fresh copy read the same IR in another order)
    text = re.sub(r"B\d+v\d+", "Bv", text)
    lines = text.split("\n")
    slots = [k for k, line in enumerate(lines) if line.startswith("@")]
    for k, line in zip(slots, sorted(lines[k] for k in slots)):
        lines[k] = line
    text = "\n".join(lines)
    text = re.sub(r"\$\d+|_v\d+_",
                  lambda m: names.setdefault(m.group(0), f"#{len(names)}#"), text)
    text = re.sub(r"(?<![A-Za-z0-9_.])B\d+",
                  lambda m: labels.setdefault(m.group(0), f"L{len(labels)}"), text)
    # the widths those numbers took: a message's length, a comment's padding
    return re.sub(r"\[\d+ x i8\] c\"missing Environment| +;", "_", text)


def test_the_lowering_and_ssa_shortcuts_give_numbas_llvm_ir(
        monkeypatch: pytest.MonkeyPatch) -> None:
    """numba's SSA pass visits, for each variable it renames, only the blocks that name it
    (_ssa_by_mentions), its binary operations' lowering skips the literal lookup's caught
    error for operands that have no literal kind (_omitted_without_error), and its error
    messages' markup does not re-wrap the streams (_plain_error_markup): a kernel with loops,
    reassigned variables and nested inlined helpers compiles to the very LLVM IR it compiles
    to with numba's own functions, and each shortcut is installed once."""
    from numba.core import errors as numba_errors
    from numba.core import lowering, ssa

    import swept._kernels as kernels
    from swept._kernels import order

    for install, patched in ((kernels._ssa_by_mentions, lambda: ssa._run_ssa),
                             (kernels._omitted_without_error, lambda: lowering._lit_or_omitted),
                             (kernels._flat_list_vars, lambda: ir.Stmt.list_vars)):
        before = patched()
        install()  # a second install changes nothing
        assert patched() is before
    merge_sort = vars(order)["float_order"]  # (by string: no Python code names a callee)
    cases = [(merge_sort.py_func, (numba.float64[::1],)),
             (_nested_inlines.py_func, (numba.float64, numba.float64))]
    shortcut = [_llvm_ir(f, sig) for f, sig in cases]
    monkeypatch.setattr(ssa, "_run_ssa", ssa._run_ssa._numba_run_ssa)
    monkeypatch.setattr(lowering, "_lit_or_omitted",
                        lowering._lit_or_omitted._numba_lit_or_omitted)
    monkeypatch.setattr(numba_errors.HighlightColorScheme, "_markup",
                        numba_errors.HighlightColorScheme._markup._numba_markup)
    monkeypatch.setattr(ir.Stmt, "list_vars", ir.Stmt.list_vars._numba_list_vars)
    monkeypatch.setattr(ir.Expr, "list_vars", ir.Expr.list_vars._numba_list_vars)
    assert [_llvm_ir(f, sig) for f, sig in cases] == shortcut


def test_the_lazy_lifetimes_give_numbas_llvm_ir(monkeypatch: pytest.MonkeyPatch) -> None:
    """numba's IR post-processing computes every variable's lifetimes and the variables live
    into each block about nine times a compile, for readers that swept's kernels never have;
    for swept's functions it leaves them to numba's lazy lifetime object (_lazy_lifetimes),
    the dels still inserted from it: kernels with loops, arrays and inlined helpers compile to
    the very LLVM IR numba's own post-processing gives, a user's function is post-processed
    by numba's run (its entry variables filled in), and the shortcut is installed once."""
    from numba.core import postproc

    import swept._kernels as kernels
    from swept._kernels import contact as kcontact
    from swept._kernels import order

    before = postproc.PostProcessor.run
    kernels._lazy_lifetimes()  # a second install changes nothing
    assert postproc.PostProcessor.run is before
    assert getattr(before, "_swept_lazy", False)
    read_only = numba.types.Array(numba.float64, 2, "C", readonly=True)
    merge_sort = vars(order)["float_order"]  # (by string: no Python code names a callee)
    cases = [(merge_sort.py_func, (numba.float64[::1],)),
             (kcontact.contact_circle_polygon.py_func,
              (numba.float64, numba.float64, numba.float64, read_only, read_only))]
    for f, sig in cases:
        _llvm_ir(f, sig)  # its callees compiled first: then each compile numbers alike
    lazy = [_llvm_ir(f, sig) for f, sig in cases]
    user_ir = compiler.run_frontend(_user_helper)
    postproc.PostProcessor(user_ir).run()
    assert user_ir.block_entry_vars  # numba's run, for a function not swept's
    monkeypatch.setattr(postproc.PostProcessor, "run", before._numba_run)
    assert [_llvm_ir(f, sig) for f, sig in cases] == lazy


def _value_names_in_order(text: str) -> str:
    """LLVM IR ``text`` with each function's local value names (``%x``, ``%".12"``) replaced
    by their order of appearance in that function."""
    import re

    def renamed(line: str, names: dict[str, str]) -> str:
        return re.sub(r'%"[^"]*"|%[-A-Za-z$._0-9]+',
                      lambda m: names.setdefault(m.group(0), f"%v{len(names)}"), line)

    out = []
    names: dict[str, str] = {}
    for line in text.split("\n"):
        if line.startswith("define"):
            names = {}
        out.append(renamed(line, names))
    return "\n".join(out)


def _pair_sum(pair: Any) -> float:
    a, x, b = pair
    return float(a[0] + x + b[1])


def test_the_meminfo_walk_gives_numbas_llvm_ir(monkeypatch: pytest.MonkeyPatch) -> None:
    """numba reads every member of a value at each incref and decref, scalars too, for the
    reference-counted pointers among them; while swept compiles, only the members that hold
    one are read (_meminfos_only): the same reference counts, so kernels that pass arrays,
    tuples of arrays and scalars, and tuples of results compile to numba's optimized LLVM IR
    but for the numbers of the unread members' values; a compile that is not swept's walks as
    numba does, and the shortcut is installed once."""
    from numba.core.runtime import context as nrt_context

    import swept._kernels as kernels
    from swept._kernels import contact as kcontact
    from swept._kernels import order

    before = nrt_context.NRTContext.get_meminfos
    kernels._meminfos_only()  # a second install changes nothing
    assert nrt_context.NRTContext.get_meminfos is before
    assert kernels._swept_compiles == [0]  # no swept compile running
    read_only = numba.types.Array(numba.float64, 2, "C", readonly=True)
    vector = numba.float64[::1]
    merge_sort = vars(order)["float_order"]  # (by string: no Python code names a callee)
    cases = [(merge_sort.py_func, (vector,)),
             (kcontact.contact_circle_polygon.py_func,
              (numba.float64, numba.float64, numba.float64, read_only, read_only)),
             (_pair_sum, (numba.types.Tuple((vector, numba.float64, vector)),))]
    for f, sig in cases:
        _llvm_ir(f, sig)  # its callees compiled first: then each compile numbers alike
    numbas = [_llvm_ir(f, sig) for f, sig in cases]
    kernels._swept_compiles[0] += 1  # as inside a swept compile (of a hot kernel: numba's
    kernels._function_passes_kept[0] = True  # function passes kept, as outside)
    try:
        shortcut = [_llvm_ir(f, sig) for f, sig in cases]
    finally:
        kernels._swept_compiles[0] -= 1
        kernels._function_passes_kept[0] = False
    assert [_value_names_in_order(t) for t in shortcut] == [
        _value_names_in_order(t) for t in numbas]


def test_the_flat_variable_lists_are_numbas_for_every_kernel() -> None:
    """numba's analyses list each statement's variables through a recursive helper that
    builds a list at every level; the flat walk (_flat_list_vars) gives every statement and
    expression of every kernel's IR the very variables, in the same order."""


    flat_stmt, flat_expr = ir.Stmt.list_vars, ir.Expr.list_vars
    own_stmt, own_expr = flat_stmt._numba_list_vars, flat_expr._numba_list_vars
    checked = 0
    for py_func in _own_kernels():
        for block in compiler.run_frontend(py_func).blocks.values():
            for stmt in block.body:
                found = [stmt, *(v for v in vars(stmt).values() if isinstance(v, ir.Expr))]
                for inst in found:
                    flat = inst.list_vars()
                    own = (own_expr if isinstance(inst, ir.Expr) else own_stmt)(inst)
                    assert [id(v) for v in flat] == [id(v) for v in own], inst
                    checked += 1
    assert checked > 50_000


def test_a_kernels_compile_broadcasts_no_llvm_lock_events() -> None:
    """numba broadcasts an event at every call into LLVM's C API, for timers nothing reads
    (about 5.7 us a call, 67,000 calls a family): a swept kernel's compile runs without those
    callbacks (_llvm_lock_quiet), gives them back afterwards, and a user's compile still
    broadcasts them."""
    from llvmlite.binding import ffi
    from numba.core import event

    import swept._kernels as kernels

    callbacks = ffi.lib._lock._cblist
    assert callbacks
    quiet = kernels._llvm_lock_quiet(numba.njit(_user_helper))
    with event.install_recorder("numba:llvm_lock") as during:
        quiet.compile((numba.float64,))
    assert during.buffer == []
    assert ffi.lib._lock._cblist is callbacks
    assert quiet(1.0) == 3.0
    with event.install_recorder("numba:llvm_lock") as user:
        numba.njit(_user_helper).compile((numba.float64,))
    assert len(user.buffer) > 100


def test_a_kernels_compile_runs_without_the_garbage_collector() -> None:
    """Python's cyclic garbage collector walked every object of the process at each full pass
    set off by a compile's allocations (7.6 s of the ``world2d`` warm-up family's 51 s): a
    swept kernel's compile runs with the collector off (_collector_paused), turns it on
    again afterwards, and leaves it off where the program had turned it off."""
    import gc

    import swept._kernels as kernels

    class Recorder:
        def __init__(self) -> None:
            self.seen: list[bool] = []

        def compile(self, sig: Any) -> str:
            self.seen.append(gc.isenabled())
            return f"compiled {sig}"

    assert gc.isenabled()
    recorder = Recorder()
    paused = kernels._collector_paused(recorder)
    assert paused.compile("f8") == "compiled f8"
    assert recorder.seen == [False]
    assert gc.isenabled()
    gc.disable()
    try:
        assert paused.compile("i8") == "compiled i8"
    finally:
        gc.enable()
    assert recorder.seen == [False, False]
    with pytest.raises(ZeroDivisionError):
        kernels._collector_paused(type("Failing", (), {"compile": lambda self, sig: 1 / 0})()
                                  ).compile("f8")
    assert gc.isenabled()
    quiet = kernels._compiled_quietly(numba.njit(_user_helper))
    assert quiet.compile((numba.float64,)) is not None
    assert gc.isenabled()
    assert quiet(1.0) == 3.0


def test_the_live_map_by_bits_gives_numbas_sets_for_every_kernel() -> None:
    """numba's fix point of the variables live on entry to each block (read by the dels'
    insertion) iterates with Python sets: for swept's functions it runs on integers' bits
    (_live_map_by_bits), which give every kernel's IR the very sets, block by block, in
    numba's order of blocks."""
    from numba.core import analysis

    import swept._kernels as kernels

    numbas = analysis.compute_live_map._numba_compute_live_map
    checked = 0
    for py_func in _own_kernels():
        func_ir = compiler.run_frontend(py_func)
        cfg = analysis.compute_cfg_from_blocks(func_ir.blocks)
        usedefs = analysis.compute_use_defs(func_ir.blocks)
        theirs = numbas(cfg, func_ir.blocks, usedefs.usemap, usedefs.defmap)
        ours = analysis.compute_live_map(cfg, func_ir.blocks, usedefs.usemap, usedefs.defmap)
        assert list(ours) == list(theirs), py_func.__qualname__
        assert ours == theirs, py_func.__qualname__
        checked += 1
    assert checked > 300
    assert kernels._live_sets_as_bits(cfg, func_ir.blocks, usedefs.usemap,
                                      usedefs.defmap) == theirs


def test_another_programs_live_map_goes_through_numbas_own_analysis() -> None:
    """Only swept's own functions take the live map by bits: a user's function is analysed
    by numba's own fix point."""
    from numba.core import analysis, postproc

    import swept._kernels as kernels

    func_ir = compiler.run_frontend(_user_helper)
    assert not kernels._swept_blocks(func_ir.blocks)
    cfg = analysis.compute_cfg_from_blocks(func_ir.blocks)
    usedefs = analysis.compute_use_defs(func_ir.blocks)
    seen: list[Any] = []
    original = kernels._live_sets_as_bits
    kernels._live_sets_as_bits = lambda *args: seen.append(args)  # type: ignore[assignment]
    try:
        live = analysis.compute_live_map(cfg, func_ir.blocks, usedefs.usemap, usedefs.defmap)
        lifetime = postproc.VariableLifetime(func_ir.blocks).livemap
    finally:
        kernels._live_sets_as_bits = original
    assert seen == []
    numbas = analysis.compute_live_map._numba_compute_live_map
    assert live == lifetime == numbas(cfg, func_ir.blocks, usedefs.usemap, usedefs.defmap)


def test_the_ssa_shortcut_rebuilds_every_kernel_as_numba_does() -> None:
    """The SSA shortcut (_ssa_by_mentions) gives every kernel's IR (before inlining) the very
    statements, names and phi nodes that numba's own pass gives it."""
    import io
    from contextlib import redirect_stdout

    from numba.core import ssa


    def dump(func_ir: Any) -> str:
        out = io.StringIO()
        with redirect_stdout(out):
            func_ir.dump()
        return out.getvalue()

    checked = 0
    for py_func in _own_kernels():
        theirs, ours = compiler.run_frontend(py_func), compiler.run_frontend(py_func)
        theirs.blocks = ssa._run_ssa._numba_run_ssa(theirs.blocks)
        ours.blocks = ssa._run_ssa(ours.blocks)
        assert list(ours.blocks) == list(theirs.blocks), py_func.__qualname__
        assert dump(ours) == dump(theirs), py_func.__qualname__
        checked += 1
    assert checked > 300


def test_another_programs_ssa_goes_through_numbas_own_pass() -> None:
    """Only swept's own functions take the SSA shortcut: a user's function is rebuilt by
    numba's pass."""
    from numba.core import ssa

    from swept._kernels import _swept_blocks

    assert not _swept_blocks(compiler.run_frontend(_user_helper).blocks)
    assert _swept_blocks(compiler.run_frontend(kc.contact_capsule_aabb3.py_func).blocks)
    assert getattr(ssa._run_ssa, "_swept_mentions", False)


def test_numbas_error_markup_is_the_same_string() -> None:
    """The markup shortcut (_plain_error_markup) gives numba's own string for every kind of
    mark."""
    from numba.core import errors as numba_errors

    scheme = numba_errors.termcolor()
    own = numba_errors.HighlightColorScheme._markup._numba_markup
    for msg in ("Cannot determine Numba type of <class 'function'>", "", "é ∂"):
        for color in (None, "\x1b[34m"):
            assert scheme._markup(msg, color) == own(scheme, msg, color)
    assert scheme.errmsg("x") == own(scheme, "x", None)


def test_the_copier_gives_back_numbas_discarded_copy_of_its_own_copy() -> None:
    """numba's inliner copies its copy of a callee's IR once more, "unmutated", for its callers
    to discard (both of numba's callers do): while inlining swept's IR the copier gives back a
    block it made in the same inlining uncopied, and still copies the callee's own blocks
    afresh each time."""
    func_ir = compiler.run_frontend(_three_blocks)
    copier = _BlockCopier()
    copier.memos, copier.made = {}, set()
    first = {k: copier.deepcopy(b) for k, b in func_ir.blocks.items()}
    again = {k: copier.deepcopy(b) for k, b in first.items()}
    fresh = {k: copier.deepcopy(b) for k, b in func_ir.blocks.items()}
    for label, block in func_ir.blocks.items():
        assert again[label] is first[label]
        assert fresh[label] is not first[label] and fresh[label] is not block
        assert [str(s) for s in fresh[label].body] == [str(s) for s in block.body]
    copier.made = None  # another program's inlining: every block copied
    assert all(copier.deepcopy(b) is not b for b in first.values())


def _inline_worker() -> Any:
    from numba.core.compiler import Flags
    from numba.core.inline_closurecall import InlineWorker
    from numba.core.registry import cpu_target

    return InlineWorker(cpu_target.typing_context, cpu_target.target_context, {}, object(),
                        Flags())


def test_the_untyped_passes_run_once_for_each_swept_callee(
        monkeypatch: pytest.MonkeyPatch) -> None:
    """numba's inliner runs the untyped passes over a callee at every call site; for swept's
    functions the first IR is given again (_memo_untyped_passes) under a new identity, the
    flags' ``enable_ssa`` set as numba's run sets it, so kernels with nested inlined helpers
    and an inlined helper called at several sites compile to the very LLVM IR numba's own
    runs give; a user's function is run through numba's passes each time, and the memo is
    installed once."""
    from numba.core import inline_closurecall

    import swept._kernels as kernels
    from swept._kernels import bvh as kbvh
    from swept._kernels import contact as kcontact

    worker_type = inline_closurecall.InlineWorker
    memo = worker_type.run_untyped_passes
    kernels._memo_untyped_passes()  # a second install changes nothing
    assert worker_type.run_untyped_passes is memo
    assert getattr(memo, "_swept_memo", False)
    worker = _inline_worker()
    worker.flags.enable_ssa = True
    a = worker.run_untyped_passes(kbvh.box_entry.py_func)
    worker.flags.enable_ssa = True
    b = worker.run_untyped_passes(kbvh.box_entry.py_func)
    assert not worker.flags.enable_ssa  # as numba's run leaves it
    assert b.blocks is a.blocks and b.func_id.func is a.func_id.func
    assert b.func_id.unique_name != a.func_id.unique_name
    user = worker.run_untyped_passes(_halve.py_func)  # not swept's: run each time
    assert worker.run_untyped_passes(_halve.py_func).blocks is not user.blocks
    read_only = numba.types.Array(numba.float64, 2, "C", readonly=True)
    cases = [(_nested_inlines.py_func, (numba.float64, numba.float64)),
             (kcontact.contact_circle_polygon.py_func,
              (numba.float64, numba.float64, numba.float64, read_only, read_only))]
    for f, sig in cases:
        _llvm_ir(f, sig)  # its callees compiled (and its inlined helpers run) first
    served = [_llvm_ir(f, sig) for f, sig in cases]
    monkeypatch.setattr(worker_type, "run_untyped_passes", memo._numba_run)
    assert [_llvm_ir(f, sig) for f, sig in cases] == served


def test_the_abi_sizes_asked_once_are_numbas() -> None:
    """numba asks LLVM a type's ABI size by parsing a module written for the question, each
    time; while swept compiles, each type's first answer is given again (_abi_sizes_once):
    the sizes numba's own question gives, outside a swept compile numba's own question, and
    the shortcut installed once."""
    from llvmlite import ir as llvm_ir
    from numba.core import base
    from numba.core.registry import cpu_target

    import swept._kernels as kernels

    ask = base.BaseContext.get_abi_sizeof
    kernels._abi_sizes_once()  # a second install changes nothing
    assert base.BaseContext.get_abi_sizeof is ask
    context = cpu_target.target_context
    double, i8 = llvm_ir.DoubleType(), llvm_ir.IntType(8)
    types_ = [double, llvm_ir.IntType(64), i8, llvm_ir.LiteralStructType([i8, double]),
              llvm_ir.ArrayType(llvm_ir.LiteralStructType([double, i8]), 3),
              context.get_value_type(numba.float64[:, ::1])]
    numbas = [ask._numba_get_abi_sizeof(context, t) for t in types_]
    assert numbas[:5] == [8, 8, 1, 16, 48]
    kernels._swept_compiles[0] += 1  # as inside a swept compile
    try:
        assert [context.get_abi_sizeof(t) for t in types_] == numbas
        assert [context.get_abi_sizeof(t) for t in types_] == numbas  # answered again
    finally:
        kernels._swept_compiles[0] -= 1
    assert [context.get_abi_sizeof(t) for t in types_] == numbas


def test_function_passes_are_left_to_the_module_but_for_hot_kernels() -> None:
    """numba runs LLVM's function passes over each function a library adds, then the module
    passes over the linked whole; while swept compiles a kernel outside HOT_KERNELS the first
    round is skipped (_functions_left_to_module), a hot kernel's compile (and what numba
    compiles outside swept) keeps it, and the flag of an outer compile comes back after a
    nested one."""
    from llvmlite import binding as ll
    from numba.core import codegen

    import swept._kernels as kernels
    from swept._kernels import sim, world

    optimize = codegen.CPUCodeLibrary._optimize_functions
    kernels._functions_left_to_module()  # a second install changes nothing
    assert codegen.CPUCodeLibrary._optimize_functions is optimize
    hot = {"world.cast_range", "sim", "sim_grid", "sim_shapes", "solver", "events"}
    assert hot == kernels.HOT_KERNELS
    assert kernels.is_hot(world.cast_range.py_func) and kernels.is_hot(sim.advance_range.py_func)
    assert not kernels.is_hot(world.cast_at.py_func)
    assert not kernels.is_hot(kc.contact_polygon_polygon.py_func)
    library = numba.core.registry.cpu_target.target_context.codegen().create_library("t")
    text = "define double @f(double %x) {\n  %a = alloca double\n  store double %x, double* %a\n" \
        "  %y = load double, double* %a\n  ret double %y\n}\n"

    def optimized(swept_compiles: int, hot: bool) -> bool:
        module = ll.parse_assembly(text)
        kernels._swept_compiles[0] += swept_compiles
        kernels._function_passes_kept[0] = hot
        try:
            library._optimize_functions(module)
        finally:
            kernels._swept_compiles[0] -= swept_compiles
            kernels._function_passes_kept[0] = False
        assert module.data_layout == library._codegen._data_layout
        return "alloca" not in str(module)

    assert [optimized(0, False), optimized(1, False), optimized(1, True)] == [True, False, True]

    class Recorder:
        py_func = world.cast_range.py_func

        def compile(self, sig: Any) -> bool:
            return kernels._function_passes_kept[0]

    assert kernels._hot_marked(Recorder()).compile("f8") is True
    assert kernels._function_passes_kept[0] is False


def test_chosen_callees_are_inlined_into_their_kernel_alone() -> None:
    """numba links a small callee's module into its caller's, and LLVM's inliner weighs each
    call by its cost (in world.cast_range it left every narrowphase kernel a call); while swept
    compiles, the linked copies of a kernel's INLINED_CALLEES are marked alwaysinline in the
    module that defines that kernel (_chosen_callees_inlined), so the module passes inline
    them there, and nowhere else: another kernel's module, or a compile outside swept, keeps
    the calls."""
    from llvmlite import binding as ll
    from numba.core import codegen

    import swept._kernels as kernels

    optimize = codegen.CPUCodeLibrary._optimize_final_module
    kernels._chosen_callees_inlined()  # a second install changes nothing
    assert codegen.CPUCodeLibrary._optimize_final_module is optimize
    assert kernels.INLINED_CALLEES == {"world.cast_range": (
        "ray.ray_aabb2", "ray.ray_aabb2_face_x", "ray.ray_polygon", "ray.ray_circle",
        "ray.ray_circle_x", "ray._point2")}
    assert kernels._mangled("ray.ray_circle") == "_ZN5swept8_kernels3ray10ray_circleB"
    callee_name = kernels._mangled("ray.ray_circle") + "1v1Ed"
    # a callee too costly for LLVM's inliner at two call sites: 100 dependent divisions
    body = "".join(f"  %x{i + 1} = fdiv double %x{i}, {i + 2}.0\n" for i in range(100))
    callee_text = (f"define linkonce_odr double @{callee_name}(double %x0) {{\n{body}"
                   "  ret double %x100\n}\n")

    def calls_left(caller: str, swept_compiles: int) -> int:
        library = numba.core.registry.cpu_target.target_context.codegen().create_library("t")
        module = ll.parse_assembly(
            f"{callee_text}define double @{caller}(double %x) {{\n"
            f"  %a = call double @{callee_name}(double %x)\n"
            f"  %b = call double @{callee_name}(double %a)\n  ret double %b\n}}\n")
        module.data_layout = library._codegen._data_layout
        library._final_module = module
        kernels._swept_compiles[0] += swept_compiles
        try:
            library._optimize_final_module()
        finally:
            kernels._swept_compiles[0] -= swept_compiles
        return str(library._final_module).count(f"call double @{callee_name}")

    cast_range = kernels._mangled("world.cast_range") + "1v1Ed"
    cast_at = kernels._mangled("world.cast_at") + "1v1Ed"
    assert [calls_left(cast_range, 1), calls_left(cast_at, 1), calls_left(cast_range, 0)] \
        == [0, 2, 2]
