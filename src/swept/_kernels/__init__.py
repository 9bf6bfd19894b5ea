"""numba-compiled scalar geometry: the single source of every formula in swept.

Each module holds one query family (``ray``, ``contact``, ``distance``, ...). Kernels take and
return plain floats, ints, bools, tuples of them, and float64 arrays (polygon corners and
normals, shape cores), so that the scalar API and the batch kernels (range kernels
run by :func:`swept._parallel.parallel_for`) call the very same code. The public modules
(``swept.raycast``, ``swept.contact``, ...) coerce input, call a kernel and wrap its result;
they hold no geometry of their own.

Compile time (issue 11: a cold cache compiles in at most 60 s; measure with
``benchmarks/bench_compile.py --breakdown``). A new kernel follows these rules:

- A compiled call to a large kernel (over ``LINKED_CALLEE_MAX_INSTRUCTIONS`` LLVM
  instructions) goes through a symbol mapped to its one copy of machine code
  (:mod:`.linking`): LLVM optimizes and emits it once, however many kernels call it (the
  tour's LLVM time 60.2 to 32.3 s of CPU with every callee so called). A small one is still
  linked, its code copied into the caller's module and optimized again there, so that LLVM
  may inline it.
  A wrapper that only Python calls is plain Python (``bvh.build``: the build was compiled
  and emitted four times over as three nested kernels).
- An :func:`inline_kernel` is typed, lowered and SSA-rebuilt once per call site, and numba's
  SSA pass grows with a function's size times its reassigned variables: inline what the hot
  loop needs; a rare path (a cache miss, a cast that starts touching, planes, a parallel
  segment) calls one compiled kernel (``sim.gather_spare``, ``world._start_touching``,
  ``world._row_cast``).
- A large helper called from one compiled site only is an :func:`inline_kernel`: a
  :func:`kernel` would be compiled and emitted on its own and then again inside its caller.
- A large body several kernels need is one :func:`kernel` they call, on owner-less views of
  their arrays (``world.unowned``, ``world.described``) so that the call
  reference-counts nothing: ``sim.gap_row``, ``sim.entering_row``, ``sim.reaches_row``
  (row dispatches once inlined at nine sites of the Simulation's kernels). A dispatch needed
  at two sites of one kernel is one site with its arguments chosen before it
  (``sim.relative_move``). A hot loop's body that a one-item query also needs is compiled
  once, in the batch kernel, which the one-item query calls on a one-row batch kept beside
  its scene (``world.cast_range``: the World's cast, once inlined into a scalar ``cast_hit``
  too, the tour 172.7 to 161.3 s of CPU; a call inside the loop instead made the batch's
  tree casts 1.2x slower, and the loop as a callee of its own its ball casts 1.07x).
- No literal arguments and no read-only / writable mixes (:func:`kernel` and :func:`reader`
  make every call site share one signature); the breakdown lists any kernel compiled twice.
- LLVM's per-function passes, which numba runs before the module passes that run them again,
  are kept only for :data:`HOT_KERNELS` (the World's cast, the Simulation's modules): every
  other kernel is optimized by the module passes alone (:func:`_functions_left_to_module`).
  A new hot loop that a side-by-side runtime A/B reads slower without them joins the set.
- A kernel that only compiled code calls is a :func:`callee` (or :func:`callee_reader`):
  compiled without numba's Python wrapper, which unboxes every argument and which nothing
  would call (``tests/test_compile.py`` checks that every ``kernel`` is named by Python code
  and no ``callee`` is).
"""

from __future__ import annotations

import copy
import gc
import os
from collections.abc import Callable
from typing import Any, TypeVar

import numba
from numba.core import inline_closurecall, ir, types
from numba.core.compiler_lock import global_compiler_lock
from numba.core.types import functions as _function_types

from ..constants import COINCIDENT_NORMAL_2D, COINCIDENT_NORMAL_3D
from . import stamps
from .compile_locks import compiled_once
from .linking import called_by_address

# every kernel's disk cache keyed on its file and all it imports (before any kernel is made)
stamps.install()

F = TypeVar("F", bound=Callable[..., Any])

#: :data:`~swept.constants.COINCIDENT_NORMAL_2D` as plain floats for compiled code (numba reads
#: module globals as compile-time constants).
COINCIDENT_2X, COINCIDENT_2Y = float(COINCIDENT_NORMAL_2D[0]), float(COINCIDENT_NORMAL_2D[1])
#: :data:`~swept.constants.COINCIDENT_NORMAL_3D` as plain floats for compiled code.
COINCIDENT_3X, COINCIDENT_3Y, COINCIDENT_3Z = (float(COINCIDENT_NORMAL_3D[0]),
                                               float(COINCIDENT_NORMAL_3D[1]),
                                               float(COINCIDENT_NORMAL_3D[2]))


def _typed_unliteral(dispatcher: Any) -> Any:
    """Make compiled callers of ``dispatcher`` resolve it on unliteral argument types.

    numba types a constant argument (``False``, ``0``) as a literal and compiles the callee once
    more for each literal value beside the plain type (``_capsule3(..., False)`` and
    ``(..., True)`` were two compiles of the whole capsule cast, ``_row_cast(..., grown)`` with
    a literal and a variable ``grown`` two more): the typing of a call now asks for the plain
    types, which every literal converts to, so each kernel compiles once per array layout.
    Measured on the compile tour (``benchmarks/bench_compile.py --breakdown``): 17 literal
    specializations, 15 s of a cold compile (wall-clock, on the shared 2-core machine). No
    kernel here dispatches on a literal.
    """
    resolve = dispatcher.get_call_template

    def get_call_template(args: tuple[Any, ...], kws: dict[str, Any]) -> Any:
        return resolve(tuple(types.unliteral(a) for a in args),
                       {k: types.unliteral(v) for k, v in kws.items()})

    dispatcher.get_call_template = get_call_template
    return dispatcher


#: How many of swept's compiles are running (nested) in this process: numba's compiler lock
#: holds while it is above 0, and :func:`_meminfos_only`'s shortcut applies only then.
_swept_compiles = [0]


def _llvm_lock_quiet(dispatcher: Any) -> Any:
    """Make ``dispatcher``'s compiles skip numba's LLVM-lock events (nothing if numba or
    llvmlite changed).

    numba registers a callback pair on llvmlite's lock that broadcasts a ``numba:llvm_lock``
    start and end event at every call into LLVM's C API (about 67,000 calls for the
    ``scalar3d`` warm-up family), to the timers each compile nested in the call installs
    for its metadata (``cres.metadata["timers"]["llvm_lock"]``, a duration nothing in swept
    or numba reads): about 5.7 us of Python a call with three timers installed, against
    0.8 us for the call itself. While a swept kernel compiles (its callees and numba's
    library compiles with it), the lock runs no callback: the same IR and machine code, no
    ``llvm_lock`` figure in those compiles' metadata. The callbacks are swapped, not
    edited, as a whole list (a thread iterating the old one finishes it), and only under
    numba's compiler lock, which a compile already holds."""
    from llvmlite.binding import ffi

    lock: Any = getattr(getattr(ffi, "lib", None), "_lock", None)
    compile_ = dispatcher.compile
    if not isinstance(getattr(lock, "_cblist", None), list):
        return dispatcher

    def compile_quiet(sig: Any) -> Any:
        callbacks = lock._cblist
        if not callbacks:  # a swept compile inside another: already quiet
            return compile_(sig)
        with global_compiler_lock:
            lock._cblist = []
            _swept_compiles[0] += 1
            try:
                return compile_(sig)
            finally:
                _swept_compiles[0] -= 1
                lock._cblist = callbacks

    dispatcher.compile = compile_quiet
    return dispatcher


def _collector_paused(dispatcher: Any) -> Any:
    """Make ``dispatcher``'s compiles run without Python's cyclic garbage collector.

    A compile allocates hundreds of thousands of objects (IR, types, llvmlite's instructions),
    which set off the collector's passes, and each full pass walks every object the process
    holds, the earlier compiles' results among them: 7.6 s of the ``world2d`` warm-up
    family's 51 s of CPU (21 full passes over up to 670,000 objects). While a swept kernel
    compiles (its callees and numba's library compiles with it) the collector is off, under
    numba's compiler lock; it is on again afterwards, and its next pass frees the compile's
    cycles. Nothing if the collector was already off (a swept compile inside another, or a
    program that turned it off): then it stays off."""
    compile_ = dispatcher.compile

    def compile_uncollected(sig: Any) -> Any:
        with global_compiler_lock:
            if not gc.isenabled():
                return compile_(sig)
            gc.disable()
            try:
                return compile_(sig)
            finally:
                gc.enable()

    dispatcher.compile = compile_uncollected
    return dispatcher


#: The kernels whose compiles keep numba's per-function optimization
#: (:func:`_functions_left_to_module`): ``"module"`` (every kernel of ``swept._kernels.module``)
#: or ``"module.kernel"``. The World's cast and the Simulation's step, where the side-by-side
#: runtime A/B found the skip slower (``benchmarks/README.md``, ``compile16``).
HOT_KERNELS = frozenset({"world.cast_range", "sim", "sim_grid", "sim_shapes", "solver",
                         "events"})

#: Whether the compile running now (the innermost of swept's nested compiles) is one of
#: :data:`HOT_KERNELS`, whose modules get numba's function passes.
_function_passes_kept = [False]


def is_hot(py_func: Any) -> bool:
    """Whether the kernel of Python function ``py_func`` is one of :data:`HOT_KERNELS`."""
    module = py_func.__module__.rpartition(".")[2]
    return module in HOT_KERNELS or f"{module}.{py_func.__qualname__}" in HOT_KERNELS


def _hot_marked(dispatcher: Any) -> Any:
    """Make ``dispatcher``'s compiles say whether it is hot (:func:`is_hot`, in
    :data:`_function_passes_kept`) while they run, the flag of the compile they are nested in
    given back afterwards: a kernel's callees compile while its call sites are typed, before
    its own module is lowered and optimized."""
    compile_ = dispatcher.compile
    hot = is_hot(dispatcher.py_func)

    def compile_marked(sig: Any) -> Any:
        with global_compiler_lock:
            outer = _function_passes_kept[0]
            _function_passes_kept[0] = hot
            try:
                return compile_(sig)
            finally:
                _function_passes_kept[0] = outer

    dispatcher.compile = compile_marked
    return dispatcher


def _compiled_quietly(dispatcher: Any) -> Any:
    """``dispatcher`` compiling without numba's LLVM-lock events and without Python's
    garbage collector (:func:`_llvm_lock_quiet`, :func:`_collector_paused`), saying whether it
    is hot (:func:`_hot_marked`)."""
    return _hot_marked(_collector_paused(_llvm_lock_quiet(dispatcher)))


#: ``numba.njit``, untyped: its stubs do not list the options ``no_cpython_wrapper`` and
#: ``no_cfunc_wrapper``. No kernel makes the C-callable wrapper (``no_cfunc_wrapper``), which
#: only numba's first-class function values use.
_njit: Any = numba.njit


def kernel(fn: F) -> F:
    """Compile ``fn`` as a scalar kernel: nopython, cached on disk, releasing the GIL."""
    compiled: F = called_by_address(compiled_once(_typed_unliteral(_compiled_quietly(_njit(
        cache=True, nogil=True, no_cfunc_wrapper=True)(fn)))))
    return compiled


def _python_refused(dispatcher: Any) -> Any:
    """Keep Python from calling ``dispatcher``, a kernel compiled without its Python wrapper.

    numba would call the missing wrapper's null address (a crash): its compiles stay out of
    the table that Python calls look up, so a call from Python reaches
    ``_compile_for_args``, which raises TypeError naming the kernel. Compiled callers find
    its compiles in ``overloads`` as usual."""
    name = getattr(dispatcher, "__qualname__", repr(dispatcher))

    def add_overload(cres: Any) -> None:
        dispatcher.overloads[tuple(cres.signature.args)] = cres

    def refuse(*args: Any, **kws: Any) -> Any:
        raise TypeError(f"{name} is a callee kernel: only compiled code calls it "
                        "(it is compiled without a Python wrapper)")

    dispatcher.add_overload = add_overload
    dispatcher._compile_for_args = refuse
    return dispatcher


def callee(fn: F) -> F:
    """Compile ``fn`` like :func:`kernel`, for a kernel that only compiled code calls.

    It is compiled without numba's Python wrapper (the code that unboxes each argument from
    a Python object, boxes the result and releases the GIL), which a kernel that Python never
    calls does not need. Measured: a wrapper is two thirds of a small kernel's compile
    that takes a scene (0.084 against 0.027 s of CPU, 29 such kernels). Python calling a
    callee gets a TypeError."""
    dispatcher = _compiled_quietly(_njit(cache=True, no_cpython_wrapper=True,
                                          no_cfunc_wrapper=True)(fn))
    compiled: F = called_by_address(compiled_once(_python_refused(_typed_unliteral(dispatcher))))
    return compiled


def _as_read_only(t: Any) -> Any:
    """The read-only twin of a writable float64 array type; any other type unchanged."""
    if isinstance(t, types.Array) and t.mutable and t.dtype == types.float64:
        return t.copy(readonly=True)
    return t


def _read_only_arrays(dispatcher: Any) -> Any:
    """Make compiled callers of ``dispatcher`` pass its float64 arrays as read-only."""
    resolve = dispatcher.get_call_template

    def get_call_template(args: tuple[Any, ...], kws: dict[str, Any]) -> Any:
        return resolve(tuple(_as_read_only(a) for a in args),
                       {k: _as_read_only(v) for k, v in kws.items()})

    dispatcher.get_call_template = get_call_template
    return dispatcher


def reader(fn: F) -> F:
    """Compile ``fn`` like :func:`kernel`, for a kernel that only reads its float64 arrays.

    Its compiled callers pass those arrays as read-only, so the Python API's shapes (whose
    arrays are read-only) and the arrays that kernels build or slice from the World's pool
    (writable) share one compile instead of one per mix: a polygon pair kernel took up to
    three (read-only a and b; writable a, read-only b; both writable). Measured on the compile
    tour: 24 such extra compiles of 20 kernels, 8.6 s of a cold compile (wall-clock, shared
    machine). A kernel that writes
    into one of them fails to compile, so the mark cannot hide a write.
    """
    compiled: F = _read_only_arrays(kernel(fn))
    return compiled


def callee_reader(fn: F) -> F:
    """Compile ``fn`` like :func:`reader`, for a kernel that only compiled code calls (without
    its Python wrapper, as :func:`callee`)."""
    compiled: F = _read_only_arrays(callee(fn))
    return compiled


def entry(fn: F) -> F:
    """Compile ``fn`` as a scalar entry point that Python calls one query at a time.

    Like :func:`kernel`, but it keeps the GIL: releasing and retaking it costs about 40 ns a
    call (measured on ``ray_circle_v``, a quarter of the call), more than such a query
    computes, and the Python caller holds the GIL around it anyway. Batch kernels release
    the GIL themselves.
    """
    compiled: F = called_by_address(compiled_once(_typed_unliteral(_compiled_quietly(_njit(
        cache=True, no_cfunc_wrapper=True)(fn)))))
    return compiled


def inline_kernel(fn: F) -> F:
    """Compile ``fn`` like :func:`kernel`, and inline it into its compiled callers at numba IR
    level. For the small helpers of the traversal and simulation loops that take arrays: a
    real call reference-counts every array argument (atomic operations), which made the BVH
    traversal loops twice as slow.

    Each call site gets a copy of its own, typed and lowered again with its caller, so a large
    body costs its compile once per site (measured: the World's ``_cast`` compiles in about
    10 s of CPU; inlined into ``cast_one`` and ``cast_range`` it cost that twice; now only
    in ``cast_range``, which the scalar queries call on a one-row batch). Inline small
    helpers; call large ones."""
    compiled: F = compiled_once(_typed_unliteral(_compiled_quietly(_njit(
        cache=True, nogil=True, inline="always", no_cfunc_wrapper=True)(fn))))
    return compiled


class _BlockCopier:
    """``copy`` for numba's inliner, copying a callee's blocks with one memo per IR.

    To inline a call, numba (``InlineWorker.inline_ir``, 0.68) deep-copies the callee's IR
    block by block, each ``copy.deepcopy(block)`` with a memo of its own, so every block copies
    the callee's whole scope (every local variable) once more: the cost grows as blocks times
    variables, and nested ``inline='always'`` helpers make the callee large (numba issue
    8989). Here the blocks of one IR (one scope) share one memo, which gives the very copy a
    deep copy of all the blocks together gives, the scope copied once. Measured: the cold
    compile of ``world.cast_one`` went from 16.8 s to 7.8 s of CPU.

    numba then copies its copy once more, "an unmutated copy of the callee_ir to return",
    which both of numba's callers of ``inline_ir`` (the untyped ``InlineInlinables`` and the
    typed ``InlineOverloads``, 0.68) discard: while ``made`` is a set (inlining swept's own
    IR), a block that this copier made in the same inlining is given back uncopied, so that
    copy costs nothing (about 7% of the ``world2d`` warm-up family's profiled compile went to
    the two copies).
    """

    def __init__(self) -> None:
        self.memos: dict[int, tuple[dict[int, Any], set[int]]] | None = None
        #: The ids of the blocks copied in this inlining (None: every block is copied).
        self.made: set[int] | None = None

    def deepcopy(self, x: Any, memo: dict[int, Any] | None = None) -> Any:
        """``copy.deepcopy``, sharing the memo between the blocks of one IR while inlining."""
        if memo is not None or self.memos is None or not isinstance(x, ir.Block):
            return copy.deepcopy(x, memo)
        made = self.made
        if made is not None and id(x) in made:
            return x  # numba's copy of its own copy, which its callers discard
        key = id(x.scope)
        shared, seen = self.memos.get(key, (None, set()))
        if shared is None or id(x) in seen:
            # the first block of this IR, or the same IR copied once more: a fresh copy
            shared, seen = {}, set()
            self.memos[key] = (shared, seen)
        seen.add(id(x))
        block = copy.deepcopy(x, shared)
        if made is not None:
            made.add(id(block))
        return block

    def __getattr__(self, name: str) -> Any:
        return getattr(copy, name)


def _is_swept_ir(callee_ir: Any) -> bool:
    """Whether numba IR ``callee_ir`` is the IR of a function of swept's own modules."""
    modname = getattr(getattr(callee_ir, "func_id", None), "modname", None)
    return isinstance(modname, str) and (modname == "swept" or modname.startswith("swept."))


def _share_block_copies() -> None:
    """Install :class:`_BlockCopier` in numba's inliner (once; nothing if numba changed).

    Only swept's own callees are copied with the shared memo: inlining any other program's
    function in the same process copies block by block with numba's own ``copy.deepcopy``,
    exactly as without swept."""
    worker = getattr(inline_closurecall, "InlineWorker", None)
    if (getattr(inline_closurecall, "copy", None) is not copy or worker is None
            or not hasattr(worker, "inline_ir")):
        return
    copier = _BlockCopier()
    inline_ir = worker.inline_ir

    def inline_ir_shared(self: Any, caller_ir: Any, block: Any, i: int, callee_ir: Any,
                         *args: Any, **kwargs: Any) -> Any:
        outer, outer_made = copier.memos, copier.made
        # another program's callee: plain deepcopy, block by block (memos None)
        swept_ir = _is_swept_ir(callee_ir)
        copier.memos = {} if swept_ir else None
        copier.made = set() if swept_ir else None
        try:
            return inline_ir(self, caller_ir, block, i, callee_ir, *args, **kwargs)
        finally:
            copier.memos, copier.made = outer, outer_made

    inline_closurecall.copy = copier  # type: ignore[assignment]
    worker.inline_ir = inline_ir_shared


_share_block_copies()


def _swept_function(func: Any) -> bool:
    """Whether Python function ``func`` is one of swept's own modules' functions."""
    modname = getattr(func, "__module__", None)
    return isinstance(modname, str) and (modname == "swept" or modname.startswith("swept."))


#: Compile flags that only the compiled function's wrappers and its release of the GIL read
#: (numba 0.68), not the untyped passes: a callee and a kernel inlining the same helper share
#: its IR.
_WRAPPER_FLAGS = frozenset({"no_cpython_wrapper", "no_cfunc_wrapper", "release_gil"})


def _frozen(value: Any) -> Any:
    """``value`` as a hashable key that compares equal exactly when the values' contents do
    (numba's option objects hold their settings as attributes); TypeError if it cannot be."""
    try:
        hash(value)
    except TypeError:
        pass
    else:
        if not hasattr(value, "__dict__") or type(value).__hash__ is not object.__hash__:
            return value
    if isinstance(value, dict):
        return ("dict", tuple(sorted((k, _frozen(v)) for k, v in value.items())))
    if isinstance(value, (list, tuple)):
        return ("seq", tuple(_frozen(v) for v in value))
    if isinstance(value, (set, frozenset)):
        return ("set", frozenset(_frozen(v) for v in value))
    if hasattr(value, "__dict__"):
        return (type(value), _frozen(vars(value)))
    raise TypeError(f"no key for {type(value).__name__}")


def _memo_untyped_passes() -> None:
    """Make numba's inliner run its untyped passes over each of swept's inlined functions once
    per process (once; nothing if numba changed).

    To inline a call of an ``inline="always"`` function, numba (``InlineWorker.inline_function``,
    0.68) first runs the compiler's untyped passes over the callee (bytecode to canonical IR,
    the callee's own inlined calls inlined into it), at every call site of every caller, then
    copies that IR into the caller (``inline_ir``, which never mutates the IR it is given).
    The IR depends on the function and on the compile's flags (and numba's typing context,
    which resolves the inlined callees, and target), so here the first IR for them is kept
    and given again, under a new identity as numba's each run makes
    (``FunctionIdentity.derive``: the inlined variables are named after it), and the flags'
    ``enable_ssa`` set as numba's run sets it: the same blocks and statements, inlined alike.
    As numba's compiled kernels do, the kept IR keeps the module globals it read when first
    made. Only swept's functions; any other program's are run through numba's passes at each
    site. Measured: numba ran them 133 times for the ``world2d`` warm-up family, the memo 53
    times (about 2.4 s of the family's 37 s of CPU at load 12: less than a profile shows)."""
    from numba.core import bytecode

    worker = getattr(inline_closurecall, "InlineWorker", None)
    run = getattr(worker, "run_untyped_passes", None)
    identity = getattr(bytecode, "FunctionIdentity", None)
    if (worker is None or run is None or getattr(run, "_swept_memo", False)
            or not hasattr(identity, "derive")):
        return
    memo: dict[Any, Any] = {}

    def run_untyped_passes(self: Any, func: Any, enable_ssa: bool = False) -> Any:
        if not _swept_function(func):
            return run(self, func, enable_ssa)
        try:
            options = {name: value for name, value in self.flags.values().items()
                       if name not in _WRAPPER_FLAGS}
            options["enable_ssa"] = enable_ssa
            # each compile has a target context of its own, a copy of the target's made
            # from the flags (numba's _make_subtarget): the target is its code generator
            key = (func, _frozen(options), _frozen(self.locals or {}), id(self.typingctx),
                   type(self.targetctx), id(self.targetctx.codegen()))
            known = memo.get(key)
        except (TypeError, AttributeError):
            # unhashable flags or locals: run as numba runs
            return run(self, func, enable_ssa)
        if known is None:
            known = run(self, func, enable_ssa)
            memo[key] = known
            return known
        self.flags.enable_ssa = enable_ssa
        served = copy.copy(known)
        served.func_id = known.func_id.derive()
        return served

    run_untyped_passes._swept_memo = True  # type: ignore[attr-defined]
    run_untyped_passes._numba_run = run  # type: ignore[attr-defined]
    worker.run_untyped_passes = run_untyped_passes


_memo_untyped_passes()


def _typing_swept(context: Any) -> bool:
    """Whether typing context ``context`` is typing a function of swept's own modules (the
    innermost frame of its call stack)."""
    stack = getattr(getattr(context, "callstack", None), "_stack", None)
    if not stack:
        return False
    modname = getattr(getattr(stack[-1], "func_id", None), "modname", None)
    return isinstance(modname, str) and (modname == "swept" or modname.startswith("swept."))


def _memo_call_types() -> None:
    """Make numba resolve each call of a function type once for the same argument types while
    it types swept's kernels (once; nothing if numba changed).

    numba types every call site on its own: ``a + b`` on two floats, at each of the thousands
    of sites of a kernel (and again at each inlined copy of a helper, and again as the types
    settle), orders the function's templates by target and tries them one after another
    until one answers (``BaseFunction.get_call_type``). The answer depends only on the
    function type and the argument types, so here the first answer for them (its signature,
    and the implementation key it records for the lowering) is kept per typing context and
    given again, the implementation key recorded again as numba records it: the very same
    signatures and implementations, so the same machine code. Only answers found (a failure
    is tried again each time, as numba tries it) and only while the innermost function typed
    is one of swept's own (:func:`_typing_swept`); any other program's functions are typed
    exactly as without swept. Measured: the ``scalar3d`` warm-up family from an empty cache,
    8,846 calls resolved and 178 of them tried, 43.2 against 33.0 s of CPU (the two side by
    side, a load average of 10).
    """
    base = getattr(_function_types, "BaseFunction", None)
    resolve = getattr(base, "get_call_type", None)
    if resolve is None or getattr(resolve, "_swept_memo", False):
        return
    assert base is not None

    def get_call_type(self: Any, context: Any, args: Any, kws: Any) -> Any:
        if not _typing_swept(context) or not isinstance(
                getattr(self, "_impl_keys", None), dict):
            # another program's function, or a numba whose function types keep no
            # implementation keys as this one's do: typed as numba types it
            return resolve(self, context, args, kws)
        memo = context.__dict__.setdefault("_swept_call_types", {})
        try:
            key = (self, tuple(args), tuple(sorted(kws.items())))
            known = memo.get(key)
        except TypeError:
            # an unhashable argument type: resolved as numba resolves it
            return resolve(self, context, args, kws)
        if known is not None:
            sig, impl = known
            self._impl_keys[sig.args] = impl
            return sig
        sig = resolve(self, context, args, kws)
        if sig is not None:
            memo[key] = (sig, self._impl_keys[sig.args])
        return sig

    get_call_type._swept_memo = True  # type: ignore[attr-defined]
    base.get_call_type = get_call_type


_memo_call_types()


def _plain_error_markup() -> None:
    """Make numba's error-message markup build its string without re-wrapping the standard
    streams each time (once; nothing if numba changed).

    numba builds a message for each failed lookup it recovers from while it compiles (a
    global whose type is looked up by name, ``operator.add`` at every binary operation's
    lowering, a value tried as a literal: about 21,000 messages for the ``scalar3d`` warm-up
    family), and where colorama is installed each one passes through colorama's ``init``,
    ``reinit`` and ``deinit``, which wrap and unwrap ``sys.stdout`` and ``sys.stderr``. The
    string is the markup, the message and the reset code, encoded and decoded as numba does;
    the first call goes through numba's own code, so colorama's exit handler is registered
    as before. Nothing is printed in between, so only the time differs."""
    errors = getattr(numba.core, "errors", None)
    scheme = getattr(errors, "HighlightColorScheme", None)
    markup = getattr(scheme, "_markup", None)
    codes = getattr(errors, "Style", None)
    reset, bright = getattr(codes, "RESET_ALL", None), getattr(codes, "BRIGHT", None)
    if (markup is None or not isinstance(reset, str) or not isinstance(bright, str)
            or getattr(markup, "_swept_plain", False)):
        return
    assert scheme is not None
    first = [True]

    def plain_markup(self: Any, msg: str, color: str | None = None,
                     style: str | None = bright) -> str:
        if first[0]:
            first[0] = False  # colorama's exit handler registered as numba registers it
            return str(markup(self, msg, color, style))
        features = ""
        if color:
            features += color
        if style:
            features += style
        return (features.encode("utf-8") + msg.encode("utf-8")
                + reset.encode("utf-8")).decode("utf-8")

    plain_markup._swept_plain = True  # type: ignore[attr-defined]
    plain_markup._numba_markup = markup  # type: ignore[attr-defined]
    scheme._markup = plain_markup


_plain_error_markup()


def _rewrite_mentioning(ssa: Any, blocks: Any, states: dict[str, Any], handler: Any,
                        labels: set[Any]) -> dict[Any, Any]:
    """numba's ``ssa._run_block_rewrite``, running ``handler`` only on the blocks of
    ``labels`` (those that name the variable rewritten): in any other block each of numba's
    SSA handlers gives every statement back unchanged, so that block's copy holds the same
    statements."""
    newblocks = {}
    for label, blk in blocks.items():
        newblk = ir.Block(scope=blk.scope, loc=blk.loc)
        if label in labels:
            states["label"] = label
            states["block"] = blk
            newblk.body = list(ssa._run_ssa_block_pass(states, blk, handler))
        else:
            newblk.body = list(blk.body)
        newblocks[label] = newblk
    return newblocks


def _swept_blocks(blocks: Any) -> bool:
    """Whether numba IR ``blocks`` are those of a function of swept's own files (the scope's
    location)."""
    first = next(iter(blocks.values()), None)
    filename = getattr(getattr(getattr(first, "scope", None), "loc", None), "filename", None)
    return isinstance(filename, str) and os.path.realpath(filename).startswith(_PACKAGE)


#: swept's package directory, with a trailing separator (:func:`_swept_blocks`).
_PACKAGE = os.path.dirname(os.path.dirname(os.path.realpath(__file__))) + os.sep


def _ssa_by_mentions() -> None:
    """Make numba's SSA reconstruction visit, for each variable it renames, only the blocks
    that name it, while it rebuilds swept's functions (once; nothing if numba changed).

    numba (``ssa._run_ssa``, 0.68) renames each variable assigned more than once in two
    passes over every statement of the function (fresh names for its assignments, then each
    use tied to the assignment that reaches it, with phi nodes where paths meet), so the
    pass costs the function's statements times its reassigned variables: 4.8% of the
    ``sim2d_moves`` warm-up family's compile, 1.5 s of ``sim.advance_range``'s. A statement
    that does not name the variable passes both handlers unchanged, and the blocks are
    visited in numba's order, so the phi nodes are made in the same order: the same IR.
    The blocks that name each variable are listed once, before the renames; a rename only
    replaces the variable renamed (by fresh names no other rename looks for) and adds phi
    nodes for it, so the lists stay true. Any other program's functions are rebuilt by
    numba's own pass."""
    from numba.core import ssa

    run_ssa = getattr(ssa, "_run_ssa", None)
    needed = ("_fresh_vars", "_fix_ssa_vars", "_make_states", "_run_ssa_block_pass",
              "_FreshVarHandler", "_FixSSAVars", "_CacheListVars", "_compute_phi_locations",
              "_iterated_domfronts", "_find_defs_violators", "compute_cfg_from_blocks")
    if run_ssa is None or getattr(run_ssa, "_swept_mentions", False) or not all(
            hasattr(ssa, name) for name in needed):
        return
    from collections import defaultdict

    def run_ssa_mentions(blocks: Any) -> Any:
        if not blocks or not _swept_blocks(blocks):
            return run_ssa(blocks)
        cfg = ssa.compute_cfg_from_blocks(blocks)
        df_plus = ssa._iterated_domfronts(cfg)
        violators = ssa._find_defs_violators(blocks, cfg)
        cache_list_vars = ssa._CacheListVars()
        naming: defaultdict[str, set[Any]] = defaultdict(set)
        for label, blk in blocks.items():
            for stmt in blk.body:
                for var in stmt.list_vars():
                    naming[var.name].add(label)
        for varname in violators:
            labels = naming[varname]
            # fresh names for the assignments (numba's _fresh_vars)
            states = ssa._make_states(blocks)
            states["varname"] = varname
            defmap: defaultdict[Any, list[Any]] = defaultdict(list)
            states["defmap"] = defmap
            blocks = _rewrite_mentioning(ssa, blocks, states, ssa._FreshVarHandler(), labels)
            # each use tied to its reaching assignment (numba's _fix_ssa_vars)
            states = ssa._make_states(blocks)
            states["varname"] = varname
            states["defmap"] = defmap
            phimap: defaultdict[Any, list[Any]] = defaultdict(list)
            states["phimap"] = phimap
            states["cfg"] = cfg
            states["phi_locations"] = ssa._compute_phi_locations(df_plus, defmap)
            blocks = _rewrite_mentioning(ssa, blocks, states,
                                         ssa._FixSSAVars(cache_list_vars), labels)
            for label, philist in phimap.items():
                blocks[label].body = philist + blocks[label].body
        if ssa.compute_cfg_from_blocks(blocks) != cfg:
            raise numba.core.errors.CompilerError("CFG mutated in SSA pass")
        return blocks

    run_ssa_mentions._swept_mentions = True  # type: ignore[attr-defined]
    run_ssa_mentions._numba_run_ssa = run_ssa  # type: ignore[attr-defined]
    ssa._run_ssa = run_ssa_mentions


_ssa_by_mentions()


def _omitted_without_error() -> None:
    """Make numba's lowering of a binary operation skip the error it raises and catches for
    each operand that is no literal (once; nothing if numba changed).

    ``lowering._lit_or_omitted`` (numba 0.68) asks ``types.literal`` for each of a binary
    operation's two static operands, twice, and catches the ``LiteralTypingError`` (with its
    message) that a value of a type with no literal kind raises: four errors at nearly every
    ``+``, ``*`` or ``<`` (7,780 for the ``scalar3d`` warm-up family). For such a value
    (``ir.UNDEFINED`` when the operand is a variable) the answer is ``Omitted(value)`` at
    once, as numba gives it after the error; any other value goes through numba's own
    function."""
    from numba.core import lowering

    lit_or_omitted = getattr(lowering, "_lit_or_omitted", None)
    literal = getattr(types, "Literal", None)
    ctors = getattr(literal, "ctor_map", None)
    if (lit_or_omitted is None or not isinstance(literal, type) or not isinstance(ctors, dict)
            or getattr(lit_or_omitted, "_swept_omitted", False)):
        return

    def omitted_without_error(value: Any) -> Any:
        if type(value) not in ctors and not isinstance(value, literal):
            return types.Omitted(value)
        return lit_or_omitted(value)

    omitted_without_error._swept_omitted = True  # type: ignore[attr-defined]
    omitted_without_error._numba_lit_or_omitted = lit_or_omitted  # type: ignore[attr-defined]
    lowering._lit_or_omitted = omitted_without_error


_omitted_without_error()


def _flat_list_vars() -> None:
    """Make numba's ``list_vars`` of a statement or expression collect into one list (once;
    nothing if numba changed).

    ``ir.Stmt.list_vars`` and ``ir.Expr.list_vars`` (numba 0.68) walk an instruction's
    attributes through ``Inst._rec_list_vars``, a recursive method that builds and extends a
    new list at every level (a call per attribute, per list item, per nested expression):
    every pass's use-def and liveness analysis lists every statement's variables again, about
    1.8 million such calls for the ``scalar3d`` warm-up family. Here one function walks the
    same values in the same order (a variable; an instruction: its own ``list_vars``, walked
    in place when it is numba's default; a list or tuple's items; a dict's values) appending
    to one list: the same variables in the same order, so the same IR."""
    stmt_list_vars = ir.Stmt.__dict__.get("list_vars")
    expr_list_vars = ir.Expr.__dict__.get("list_vars")
    rec = ir.Inst.__dict__.get("_rec_list_vars")
    if (stmt_list_vars is None or expr_list_vars is None or rec is None
            or getattr(stmt_list_vars, "_swept_flat", False)):
        return
    var, inst = ir.Var, ir.Inst

    def collect(value: Any, out: list[Any]) -> None:
        if isinstance(value, var):
            out.append(value)
        elif isinstance(value, inst):
            own = type(value).list_vars
            if own is flat_stmt:
                collect(value.__dict__, out)
            elif own is flat_expr:
                collect(value.__dict__["_kws"], out)
            else:
                out.extend(value.list_vars())
        elif isinstance(value, (list, tuple)):
            for item in value:
                collect(item, out)
        elif isinstance(value, dict):
            for item in value.values():
                collect(item, out)

    def flat_stmt(self: Any) -> list[Any]:
        out: list[Any] = []
        collect(self.__dict__, out)
        return out

    def flat_expr(self: Any) -> list[Any]:
        out: list[Any] = []
        collect(self._kws, out)
        return out

    flat_stmt._swept_flat = True  # type: ignore[attr-defined]
    flat_stmt._numba_list_vars = stmt_list_vars  # type: ignore[attr-defined]
    flat_expr._numba_list_vars = expr_list_vars  # type: ignore[attr-defined]
    ir.Stmt.list_vars = flat_stmt  # type: ignore[method-assign]
    ir.Expr.list_vars = flat_expr  # type: ignore[method-assign]


_flat_list_vars()


def _lazy_lifetimes() -> None:
    """Make numba's IR post-processing leave its liveness analysis to whoever reads it, while
    it post-processes swept's functions (once; nothing if numba changed).

    numba (``postproc.PostProcessor.run``, 0.68) runs after most of its passes (bytecode
    processing, closure inlining, each rewrite pass, type annotation, phi stripping, the
    lowering's check): it puts the control flow in canonical form, then computes each
    variable's uses, definitions, live and dead sets over every statement and the variables
    live on entry to each block, about nine times a compile. Only the ``ir.Del`` statements
    that a run inserts read them (three runs of the nine), and in nopython mode only object
    mode, generators and ``literal_unroll`` read the entry variables or the lifetimes
    afterwards (never swept's kernels). Here, for a swept function that is no generator, a
    run canonicalizes the control flow as numba does and keeps numba's lazy lifetime object
    (``VariableLifetime``, which computes each analysis when first read), and a run that
    inserts the dels computes what they need from it as numba does: the same blocks and
    dels, so the same IR. Any other program's functions are post-processed by numba's own
    run."""
    from numba.core import postproc

    run = getattr(postproc.PostProcessor, "run", None)
    lifetime = getattr(postproc, "VariableLifetime", None)
    canonical = getattr(getattr(postproc, "transforms", None), "canonicalize_cfg", None)
    if (run is None or lifetime is None or canonical is None
            or getattr(run, "_swept_lazy", False)
            or not hasattr(postproc.PostProcessor, "_insert_var_dels")):
        return

    def run_lazy(self: Any, emit_dels: bool = False, extend_lifetimes: bool = False) -> None:
        func_ir = self.func_ir
        if func_ir.is_generator or not _swept_blocks(func_ir.blocks):
            return run(self, emit_dels, extend_lifetimes)
        func_ir.blocks = postproc.transforms.canonicalize_cfg(func_ir.blocks)
        func_ir.variable_lifetime = lifetime(func_ir.blocks)
        func_ir.generator_info = None
        if emit_dels:
            self._insert_var_dels(extend_lifetimes=extend_lifetimes)
        return None

    run_lazy._swept_lazy = True  # type: ignore[attr-defined]
    run_lazy._numba_run = run  # type: ignore[attr-defined]
    postproc.PostProcessor.run = run_lazy  # type: ignore[method-assign]


_lazy_lifetimes()


def _live_sets_as_bits(cfg: Any, blocks: Any, var_use_map: Any, var_def_map: Any) -> Any:
    """numba's ``analysis.compute_live_map`` (0.68) with each set of variable names held as
    the bits of an integer while it iterates: the same steps in the same order, so the same
    sets (each variable live on entry to each block)."""
    order = cfg.topo_order()
    bit: dict[str, int] = {}

    def bits(names: Any) -> int:
        value = 0
        for name in names:
            value |= 1 << bit.setdefault(name, len(bit))
        return value

    uses = {offset: bits(var_use_map[offset]) for offset in blocks}
    defs = {offset: bits(var_def_map[offset]) for offset in blocks}
    successors = {offset: [out for out, _ in cfg.successors(offset)] for offset in order}
    predecessors = {offset: [inc for inc, _ in cfg.predecessors(offset)] for offset in order}
    # as numba's fix points: each pass over the blocks until one changes nothing (a pass
    # can only add names, so a block's set is as large as it will be once it stops growing;
    # the cap is one pass a block and variable more than any fix point takes)
    cap = (len(order) + 1) * (len(bit) + 1) + 1
    reach: dict[Any, int] = {}
    for _ in range(cap):
        before = dict(reach)
        for offset in order:
            reach[offset] = reach.get(offset, 0) | defs.get(offset, 0) | uses.get(offset, 0)
            for out in successors[offset]:
                reach[out] = reach.get(out, 0) | reach[offset]
        if reach == before:
            break
    live = dict(uses)
    for _ in range(cap):
        before = dict(live)
        for offset in reversed(order):
            for inc in predecessors[offset]:
                live[inc] |= (live[offset] & reach.get(inc, 0)) & ~defs.get(inc, 0)
        if live == before:
            break
    names = list(bit)
    return {offset: {names[i] for i in range(value.bit_length()) if value >> i & 1}
            for offset, value in live.items()}


def _live_map_by_bits() -> None:
    """Make numba compute the variables live on entry to each block of swept's functions
    with sets as integers' bits (once; nothing if numba changed).

    numba's ``analysis.compute_live_map`` (0.68), which the three post-processing runs that
    insert ``ir.Del`` statements read, iterates to a fix point over every block, each step a
    union of Python sets of variable names: 2.6 s of the ``world2d`` warm-up family's 48 s
    of CPU. :func:`_live_sets_as_bits` takes the same steps on integers; the dels are
    inserted from the same sets, so the IR is the same. Any other program's functions go
    through numba's own analysis."""
    from numba.core import analysis

    compute = getattr(analysis, "compute_live_map", None)
    if compute is None or getattr(compute, "_swept_bits", False):
        return

    def compute_live_map(cfg: Any, blocks: Any, var_use_map: Any, var_def_map: Any) -> Any:
        if not _swept_blocks(blocks):
            return compute(cfg, blocks, var_use_map, var_def_map)
        return _live_sets_as_bits(cfg, blocks, var_use_map, var_def_map)

    compute_live_map._swept_bits = True  # type: ignore[attr-defined]
    compute_live_map._numba_compute_live_map = compute  # type: ignore[attr-defined]
    analysis.compute_live_map = compute_live_map


_live_map_by_bits()


def _meminfos_only() -> None:
    """Make numba's reference counting read only the members of a value that hold a
    reference-counted pointer, while it compiles swept's kernels (once; nothing if numba
    changed).

    At each incref and decref (about 59,000 for the ``sim2d_moves`` warm-up family) numba
    (``NRTContext.get_meminfos``, 0.68) walks every member of the value's data model, nested
    structures included, emitting an ``extractvalue`` for each: a ``Scene`` or ``Bodies``
    tuple of arrays and scalars gets one for each scalar too, though only an array's memory
    pointer is counted. Here a member whose type holds no such pointer (by the same walk of
    its data model's members, once per type) is not read: the reference counts are the same
    calls on the same pointers, in the same order, without the ``extractvalue`` instructions
    nothing used (which LLVM's first simplification deletes): the optimized LLVM IR is the
    same but for the numbers of unnamed values. Only while one of swept's compiles runs
    (:data:`_swept_compiles`); any other program's compiles count references through numba's
    own walk."""
    from numba.core.runtime import context as nrt_context

    nrt = getattr(nrt_context, "NRTContext", None)
    walk = getattr(nrt, "get_meminfos", None)
    if walk is None or getattr(walk, "_swept_only", False):
        return
    assert nrt is not None
    holds: dict[tuple[int, Any], bool] = {}

    def holds_meminfo(dmm: Any, ty: Any, builder: Any) -> bool:
        key = (id(dmm), ty)
        known = holds.get(key)
        if known is None:
            model = dmm[ty]
            known = bool(model.has_nrt_meminfo()) or any(
                holds_meminfo(dmm, member, builder) for member, _ in model.traverse(builder))
            holds[key] = known
        return known

    def get_meminfos(self: Any, builder: Any, ty: Any, val: Any) -> Any:
        if not _swept_compiles[0]:
            return walk(self, builder, ty, val)
        dmm = self._context.data_model_manager
        datamodel = dmm[ty]
        meminfos = []
        if datamodel.has_nrt_meminfo():
            meminfos.append((ty, datamodel.get_nrt_meminfo(builder, val)))
        for member, getter in datamodel.traverse(builder):
            if holds_meminfo(dmm, member, builder):
                meminfos.extend(self.get_meminfos(builder, member, getter(val)))
        return meminfos

    get_meminfos._swept_only = True  # type: ignore[attr-defined]
    get_meminfos._numba_get_meminfos = walk  # type: ignore[attr-defined]
    nrt.get_meminfos = get_meminfos


_meminfos_only()


def _abi_sizes_once() -> None:
    """Make numba ask LLVM each type's ABI size once per target context while it compiles
    swept's kernels (once; nothing if numba or llvmlite changed).

    numba's ``BaseContext.get_abi_sizeof`` (0.68) answers through llvmlite's
    ``Type.get_abi_size``, which writes a module holding one global of the type as text and
    parses it back into LLVM for every question (3,354 of them for the ``world2d`` warm-up
    family: an allocation's size, an array's item size, for the same few types again and
    again). A size depends only on the type and the context's data layout, so here the first
    answer for a type's text is given again: the same integers, so the same IR. A type that
    names an identified struct (its text names, not spells, the struct) is asked each time.
    Only while one of swept's compiles runs (:data:`_swept_compiles`)."""
    from llvmlite import ir as llvm_ir
    from numba.core import base

    context = getattr(base, "BaseContext", None)
    ask = getattr(context, "get_abi_sizeof", None)
    named = getattr(llvm_ir, "IdentifiedStructType", None)
    if ask is None or named is None or getattr(ask, "_swept_once", False):
        return
    assert context is not None

    def get_abi_sizeof(self: Any, ty: Any) -> Any:
        if not _swept_compiles[0] or isinstance(ty, named):
            return ask(self, ty)
        text = str(ty)
        if "%" in text:  # it names an identified struct: asked each time
            return ask(self, ty)
        sizes = self.__dict__.setdefault("_swept_abi_sizes", {})
        key = (type(ty), text)
        size = sizes.get(key)
        if size is None:
            size = sizes[key] = ask(self, ty)
        return size

    get_abi_sizeof._swept_once = True  # type: ignore[attr-defined]
    get_abi_sizeof._numba_get_abi_sizeof = ask  # type: ignore[attr-defined]
    context.get_abi_sizeof = get_abi_sizeof


_abi_sizes_once()


def _functions_left_to_module() -> None:
    """Make numba leave the optimization of swept's functions to its module passes (once;
    nothing if numba changed).

    numba (``CPUCodeLibrary.add_llvm_module``, 0.68) runs LLVM's O3 function passes over each
    function of every module it adds to a library, then links the library's modules and runs
    the O3 module pipeline over the whole, which holds those function passes again: each
    function is optimized twice over. While one of swept's compiles runs
    (:data:`_swept_compiles`), but for :data:`HOT_KERNELS`, the first round is skipped (the
    module keeps numba's data layout, which the module passes read): the module pipeline
    alone optimizes it. The machine code differs (the same answers, hashed), so the runtime
    was compared side by side: the World's cast and the Simulation's step read up to 1.27x and
    1.06x slower without the first round, and keep it (``benchmarks/README.md``,
    ``compile16``)."""
    from numba.core import codegen

    library = getattr(codegen, "CPUCodeLibrary", None)
    optimize = getattr(library, "_optimize_functions", None)
    if optimize is None or getattr(optimize, "_swept_left", False):
        return
    assert library is not None

    def _optimize_functions(self: Any, ll_module: Any) -> None:
        if not _swept_compiles[0] or _function_passes_kept[0]:
            optimize(self, ll_module)
            return
        ll_module.data_layout = self._codegen._data_layout

    _optimize_functions._swept_left = True  # type: ignore[attr-defined]
    _optimize_functions._numba_optimize_functions = optimize  # type: ignore[attr-defined]
    library._optimize_functions = _optimize_functions


_functions_left_to_module()


#: The small linked callees that LLVM is made to inline into a hot kernel
#: (:func:`_chosen_callees_inlined`), as ``"module.kernel"`` names of swept's ``_kernels``
#: modules: ``world.cast_range``'s box and polygon tests of a grid entry, and the box's and
#: circle's point and normal of its best hit (``benchmarks/README.md``, ``rays41``).
INLINED_CALLEES: dict[str, tuple[str, ...]] = {
    "world.cast_range": ("ray.ray_aabb2", "ray.ray_aabb2_face_x", "ray.ray_polygon",
                         "ray.ray_circle", "ray.ray_circle_x", "ray._point2"),
}


def _mangled(name: str) -> str:
    """The start of numba's mangled symbol of every compile of kernel ``module.kernel`` of this
    package (its nested name, up to the ABI tags' ``B``)."""
    parts = f"{__name__}.{name}".split(".")
    return "_ZN" + "".join(f"{len(part)}{part}" for part in parts) + "B"


def _chosen_callees_inlined() -> None:
    """Make LLVM inline the callees of :data:`INLINED_CALLEES` into their kernel (once;
    nothing if numba or llvmlite changed).

    numba links a small callee's optimized module into its caller's and runs LLVM's module
    pipeline over the whole, whose inliner weighs each call site's cost against a threshold:
    in ``world.cast_range`` it left every narrowphase kernel a call (LLVM's remarks:
    ``ray_circle`` cost 105 and ``ray_aabb2`` 175 against 45, the threshold of a call site its
    static estimate deems cold; ``ray_polygon`` 350 against 250). Here, while one of swept's
    compiles runs (:data:`_swept_compiles`) and its module defines the kernel, the linked
    copies of its chosen callees in that module are marked ``alwaysinline`` before the module
    passes, whose first round inlines them at every call site: the callees' own libraries,
    and every other caller, link them unmarked."""
    from numba.core import codegen

    library = getattr(codegen, "CPUCodeLibrary", None)
    optimize = getattr(library, "_optimize_final_module", None)
    if optimize is None or getattr(optimize, "_swept_inlined", False):
        return
    assert library is not None
    chosen = [(_mangled(k), tuple(_mangled(c) for c in cs)) for k, cs in INLINED_CALLEES.items()]

    def _optimize_final_module(self: Any) -> None:
        if _swept_compiles[0]:
            defined = [fn for fn in self._final_module.functions if not fn.is_declaration]
            for kernel, callees in chosen:
                if any(fn.name.startswith(kernel) for fn in defined):
                    for fn in defined:
                        if fn.name.startswith(callees):
                            fn.add_function_attribute("alwaysinline")
        optimize(self)

    _optimize_final_module._swept_inlined = True  # type: ignore[attr-defined]
    _optimize_final_module._numba_optimize = optimize  # type: ignore[attr-defined]
    library._optimize_final_module = _optimize_final_module


_chosen_callees_inlined()
