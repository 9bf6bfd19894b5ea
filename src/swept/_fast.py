"""The speed tricks of the public layer, in one place.

A ray cast costs a few hundred nanoseconds, so two costs of ordinary Python and numba matter
there, and only there (the scalar ``raycast`` and the World's one-ray path):

1. **numba's dispatcher.** Calling a compiled function through its dispatcher resolves the
   argument types on every call (about 100 ns for a ray kernel, most of a World call with fifty
   arrays). :func:`entry_point` returns the compiled entry point for one fixed signature instead;
   :func:`lazy_entry` puts it in a module's namespace on first use, so the module calls it as a
   plain global.
2. **Building results.** A result record is a tuple-backed dataclass (see
   :mod:`swept.results`); the hot paths build one with ``tuple.__new__(Record, fields)`` (one
   allocation), exposed here as :data:`build`.

Both are checked on first use and fall back to the plain call when numba's internals differ
(or JIT is disabled), so they can only cost speed, never correctness.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from .vec import Vec2, Vec3

__all__ = ["build", "entry_point", "checked_entry_point", "lazy_entry"]

#: ``build(Record, fields)``: a tuple-backed record (or Vec2 / Vec3) from the tuple of its
#: fields in one allocation, skipping the user-facing constructor's coercion.
build: Any = tuple.__new__

KernelCall = Callable[..., Any]


def entry_point(dispatcher: Any, call: tuple[Any, ...]) -> Any:
    """The compiled entry point of ``dispatcher`` for the argument types of ``call`` (which
    must already have been compiled, by calling it), or None when numba does not offer one."""
    try:
        import numba

        signature = tuple(numba.typeof(a) for a in call)
        return dispatcher.overloads[signature].entry_point
    except Exception:  # pragma: no cover - JIT disabled, or numba internals changed
        return None


def checked_entry_point(adapter: Any, example: tuple[Any, ...]) -> KernelCall:
    """The fastest safe way to call ``adapter`` with arguments shaped like ``example``.

    That is the compiled entry point for ``example``'s types, once it is checked to give the
    same answer for Vec2 / Vec3 arguments (as the shapes hold them) as for plain tuples.
    Otherwise a wrapper that passes plain tuples to the dispatcher, rejecting a tuple of the
    wrong size as the entry point does (``ValueError``).
    """
    sizes = tuple(len(a) if isinstance(a, tuple) else -1 for a in example)

    def checked(*args: Any) -> Any:
        plain = []
        for a, n in zip(args, sizes):
            if n >= 0:
                if len(a) != n:
                    raise ValueError(f"size mismatch for tuple, expected {n} elements")
                a = tuple(a)
            plain.append(a)
        return adapter(*plain)

    # the points and vectors as Vec2 / Vec3 (a packed ray stays a plain tuple)
    vectors = tuple(
        build(Vec2 if len(a) == 2 else Vec3, a) if isinstance(a, tuple) and len(a) in (2, 3)
        else a for a in example
    )
    expected = adapter(*example)
    fast = entry_point(adapter, example)
    try:
        if fast is None or fast(*vectors) != expected:
            return checked  # pragma: no cover - a numba that unboxes tuple subclasses oddly
    except Exception:  # pragma: no cover - numba internals changed
        return checked
    return fast


def lazy_entry(namespace: dict[str, Any], name: str, adapter: Any,
               example: tuple[Any, ...]) -> KernelCall:
    """A stand-in for the global ``name`` of ``namespace`` (a module's ``globals()``) that
    compiles ``adapter`` (or loads it from numba's cache) on its first call and then puts
    :func:`checked_entry_point`'s callable in its place, so that importing swept compiles
    nothing."""

    def first_call(*args: Any) -> Any:
        fn = checked_entry_point(adapter, example)
        namespace[name] = fn
        return fn(*args)

    return first_call
