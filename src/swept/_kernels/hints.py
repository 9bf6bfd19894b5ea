"""Cache hints for compiled kernels: LLVM's prefetch, emitted by intrinsics (the mesh kernels'
rows and blocks, the World's grid cells). A hint changes no result."""

from __future__ import annotations

from typing import Any

from llvmlite import ir as llvm_ir
from numba import types
from numba.core import cgutils
from numba.extending import intrinsic


def _prefetch_at(builder: Any, ptr: Any, offsets: tuple[int, ...]) -> None:
    """Emit LLVM's prefetch hint for the bytes ``offsets`` past the pointer ``ptr``: a read,
    kept in every cache level, of data."""
    i32 = llvm_ir.IntType(32)
    byte = llvm_ir.IntType(8).as_pointer()
    fnty = llvm_ir.FunctionType(llvm_ir.VoidType(), [byte, i32, i32, i32])
    fn = cgutils.get_or_insert_function(builder.module, fnty, "llvm.prefetch.p0")
    first = builder.bitcast(ptr, byte)
    for offset in offsets:
        at = builder.gep(first, [llvm_ir.IntType(64)(offset)]) if offset else first
        builder.call(fn, [at, i32(0), i32(3), i32(1)])


def _prefetch_item_typer(typingctx: Any, items: Any, at: Any) -> Any:
    """Ask the CPU to start loading the 64-byte line that holds item ``at`` of the 1D array
    ``items`` into cache, without waiting for it (it changes no result, and an address out of
    the array faults nothing)."""
    sig = types.void(items, at)

    def codegen(context: Any, builder: Any, signature: Any, args: Any) -> Any:
        aryty = signature.args[0]
        ary = context.make_array(aryty)(context, builder, args[0])
        ptr = cgutils.get_item_pointer(context, builder, aryty, ary, [args[1]],
                                       wraparound=False)
        _prefetch_at(builder, ptr, (0,))
        return context.get_dummy_value()

    return sig, codegen


#: ``_prefetch_item(items, at)`` in compiled code: :func:`_prefetch_item_typer`'s hint.
_prefetch_item: Any = intrinsic(_prefetch_item_typer)
