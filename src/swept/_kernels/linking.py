"""Compiled calls to a kernel through its address, instead of through a copy of its code.

numba makes a compiled call to another kernel by linking the callee's whole optimized module
(and the modules it links in turn) into the caller's, and LLVM optimizes and emits all of
that code again with the caller: a large kernel called from five kernels is optimized six
times. Here a kernel's compiled callers instead call it through a symbol of its own (the
kernel, its module and its argument types, hashed), which :func:`llvmlite.binding.add_symbol`
maps to the kernel's machine code once it is compiled or loaded in this process: the callee
is optimized and emitted once, and each caller only declares it.

This changes nothing in numba for other code: only the calls to swept's own kernels are
lowered this way (their compiled results' entries in the target context's implementation
table), and only for kernels a module-level name reaches (a loader finds them again).

numba's disk cache keeps a caller's machine code with the symbol unresolved; before it loads
that code in a new process, numba runs the caller's ``reload_init`` hooks (pickled with it),
and the hook this module adds loads or compiles the callee (:func:`load_callee`), which maps
its symbol again. A symbol the loader could not map would end the process in LLVM's linker
(it exits on an unresolved symbol), so the mapping comes first, in every path: a fresh
compile maps it when the callee's compile is added, a cache load when the hook runs.
"""

from __future__ import annotations

import functools
import hashlib
import importlib
from typing import Any

from llvmlite import binding as ll
from numba.core import cgutils
from numba.core.base import OverloadSelector
from numba.core.imputils import fix_returning_optional, impl_ret_new_ref

from ..constants import LINKED_CALLEE_MAX_INSTRUCTIONS

#: The prefix of every symbol this module maps (never numba's own ``_ZN5numba`` names).
PREFIX = "swept_kernel."


def symbol_name(module: str, qualname: str, args: tuple[Any, ...]) -> str:
    """The symbol of kernel ``module.qualname`` compiled for argument types ``args``: the same
    in every process (numba's own names carry a per-process counter)."""
    key = f"{module}:{qualname}:{', '.join(str(a) for a in args)}"
    return f"{PREFIX}{qualname}.{hashlib.sha1(key.encode()).hexdigest()[:20]}"


def _named(module: str, qualname: str) -> Any:
    """The object that module ``module``'s name ``qualname`` (dotted) refers to."""
    found: Any = importlib.import_module(module)
    for part in qualname.split("."):
        found = getattr(found, part)
    return found


def load_callee(module: str, qualname: str, args: tuple[Any, ...]) -> None:
    """Load (from the cache) or compile kernel ``module.qualname`` for ``args`` in this
    process, which maps its symbol: run before a cached caller's machine code is loaded."""
    _named(module, qualname).compile(tuple(args))


def _large(cres: Any) -> bool:
    """Whether the compiled kernel ``cres`` has more than
    :data:`~swept.constants.LINKED_CALLEE_MAX_INSTRUCTIONS` LLVM instructions (counted in its
    optimized module, up to the first past the bound)."""
    module = cres.library._get_module_for_linking()
    try:
        fn = module.get_function(cres.fndesc.llvm_func_name)
    except NameError:
        return False
    count = 0
    for block in fn.blocks:
        for _instruction in block.instructions:
            count += 1
            if count > LINKED_CALLEE_MAX_INSTRUCTIONS:
                return True
    return False


def _external_call(fndesc: Any, symbol: str, loader: Any) -> Any:
    """The lowering of a compiled call to the kernel ``fndesc`` through ``symbol``: numba's
    own call of a compiled function (``imputils.user_function``) with a declared symbol in
    place of linked code, and ``loader`` among the caller's reload hooks."""

    def imp(context: Any, builder: Any, sig: Any, args: Any) -> Any:
        fnty = context.call_conv.get_function_type(fndesc.restype, fndesc.argtypes)
        fn = cgutils.get_or_insert_function(builder.module, fnty, symbol)
        context.call_conv.decorate_function(fn, fndesc.args, fndesc.argtypes,
                                            noalias=fndesc.noalias)
        status, retval = context.call_conv.call_function(builder, fn, fndesc.restype,
                                                         fndesc.argtypes, args)
        with cgutils.if_unlikely(builder, status.is_error):
            context.call_conv.return_status_propagate(builder, status)
        retval = fix_returning_optional(context, builder, sig, status, retval)
        # the caller's cached code needs the callee mapped before it loads
        context.active_code_library._reload_init.add(loader)
        return impl_ret_new_ref(context, builder, fndesc.restype, retval)

    imp.signature = fndesc.argtypes  # type: ignore[attr-defined]
    imp.libs = ()  # type: ignore[attr-defined]
    return imp


def called_by_address(dispatcher: Any) -> Any:
    """Make compiled callers of ``dispatcher`` call each of its large compiles through the
    compile's mapped symbol (see the module docstring); a small one (LLVM may inline it into
    a hot loop) and a kernel no module-level name reaches keep numba's linking."""
    add_overload = dispatcher.add_overload

    def add(cres: Any) -> None:
        # the cached compile's own hooks go with its code, so that a caller that links it
        # (numba's linking) inherits them as it does after a fresh compile
        if cres.reload_init:
            cres.library._reload_init.update(cres.reload_init)
        py_func = dispatcher.py_func
        module, qualname = py_func.__module__, py_func.__qualname__
        if not cres.objectmode and "<" not in qualname and _large(cres):
            try:
                reached = _named(module, qualname) is dispatcher
            except (ImportError, AttributeError):
                reached = False
            if reached:
                args = tuple(cres.signature.args)
                symbol = symbol_name(module, qualname, args)
                address = cres.library.get_pointer_to_function(cres.fndesc.llvm_func_name)
                if address:
                    ll.add_symbol(symbol, address)
                    loader = functools.partial(load_callee, module, qualname, args)
                    context = dispatcher.targetctx
                    table = OverloadSelector()
                    impl = _external_call(cres.fndesc, symbol, loader)
                    table.append(impl, impl.signature)
                    context._defns[cres.entry_point] = table
        add_overload(cres)

    dispatcher.add_overload = add
    return dispatcher
