"""Loading on first use: numba and each kernel family are imported when a query needs them.

``import swept`` imports nothing of numba: :mod:`swept` resolves its public names on first
access (a module ``__getattr__``), and each public module holds its kernel families as
:class:`LazyModule` stand-ins (``_k = kernels("ray")``) that import the real
``swept._kernels.<family>`` on their first attribute read. The stand-in then copies the real
module's namespace into its own, so every later ``_k.name`` is a plain dictionary hit, as fast
as a read from the real module. Type checkers see the real module: each use is written

    if TYPE_CHECKING:
        from ._kernels import ray as _k
    else:
        _k = kernels("ray")

The first load of a family whose compiled code is not yet in numba's on-disk cache prints one
line on stderr (:func:`notice`), since its first call compiles for a while; set the
environment variable ``SWEPT_COMPILE_NOTICE=0`` to silence it.
"""

from __future__ import annotations

import importlib
import os
import sys
import threading
import types
from typing import Any

__all__ = ["LazyModule", "kernels", "preload", "notice", "NOTICE_VARIABLE", "COMPILE_SECONDS"]

#: The environment variable that silences the first-compile notice when set to ``0``.
NOTICE_VARIABLE = "SWEPT_COMPILE_NOTICE"
#: The package that holds the kernel families.
KERNELS_PACKAGE = "swept._kernels"

#: Seconds of CPU that compiling each kernel module's kernels took from an empty cache, the
#: basis of the notice's estimate (a first use compiles only the kernels it calls, so the
#: figure is an upper bound for a module). Measured by ``benchmarks/bench_compile.py
#: --breakdown`` (the tour of every family on the 2-core machine, load average about 1 with a
#: test run starting beside it, 2026-12-03 14:13: 87.8 s of CPU in 377 compiles; numba's own
#: library kernels, 3.6 s, are in no module's figure; ``events`` and ``batch_sweep``, which
#: that tour compiled nothing of, keep their figures of 2026-12-02). Kept here rather than in
#: :mod:`swept.constants`: a figure for a message, and an edit there recompiles every kernel.
#: ``default`` is for a module that the table does not name.
COMPILE_SECONDS: dict[str, float] = {
    "sim": 17.5, "world": 14.8, "mesh": 11.9, "contact": 7.0, "ray": 4.8, "bvh": 4.3,
    "sim_shapes": 2.2, "solver": 3.6, "distance": 2.7, "tilemap": 1.6, "grid": 2.4,
    "polytope": 1.4, "sweep": 2.2, "manifold": 1.3, "events": 2.4, "surface": 1.5,
    "world_hit": 1.2, "world_sweep": 0.8, "sim_grid": 1.0, "chain": 0.8, "geom": 0.9,
    "order": 0.3, "response": 0.1, "batch_sweep": 2.0, "default": 2.0,
}

_lock = threading.RLock()
#: The families whose cold-cache check has run in this process (each is told at most once).
_checked: set[str] = set()


class LazyModule(types.ModuleType):
    """A stand-in for a module, imported on the first read of one of its attributes."""

    def __init__(self, target: str) -> None:
        super().__init__(target, f"The module {target}, imported on first use.")
        self.__dict__["_lazy_target"] = target

    def __getattr__(self, name: str) -> Any:
        # only a missing name reaches here: before the load, every public name
        if name.startswith("__") and name.endswith("__"):
            raise AttributeError(name)  # introspection (copy, pickle, inspect) loads nothing
        real = load(self.__dict__["_lazy_target"])
        self.__dict__.update(real.__dict__)
        return getattr(real, name)

    def __repr__(self) -> str:
        return f"<lazy module {self.__dict__['_lazy_target']!r}>"


def kernels(family: str) -> LazyModule:
    """A stand-in for ``swept._kernels.<family>``, imported (with numba) on first use."""
    return LazyModule(f"{KERNELS_PACKAGE}.{family}")


def preload(*families: str) -> None:
    """Import kernel ``families`` (and numba) now, announcing a cold cache, and call one
    small kernel: for a command that times its own work, so that its progress clock counts
    the work, not the start-up. numba's first call of any kernel sets up its typing and
    target registries (about a second on the shared 2-core machine, measured on ``swept
    scene``: importing numba's array library and scipy with it), which this call pays."""
    for family in (*families, "response"):
        load(f"{KERNELS_PACKAGE}.{family}")
    response = sys.modules[f"{KERNELS_PACKAGE}.response"]
    response.reflect_velocity(1.0, 0.0, 0.0, 0.0, 1.0, 0.0, 1.0)


def load(target: str) -> types.ModuleType:
    """Import module ``target``; before a kernel family's first import, :func:`notice`."""
    with _lock:
        module = sys.modules.get(target)
        if module is not None:
            return module
        if target.startswith(KERNELS_PACKAGE + ".") and target not in _checked:
            _checked.add(target)
            message = notice(target.rsplit(".", 1)[1])
            if message:
                print(message, file=sys.stderr, flush=True)
        return importlib.import_module(target)


def notice(family: str) -> str | None:
    """The one-line notice for kernel ``family``'s first use: None when its kernels (and every
    kernel module they import) are in numba's on-disk cache under their current stamps, or when
    ``SWEPT_COMPILE_NOTICE=0``; else the estimated compile time (:data:`COMPILE_SECONDS`)."""
    if os.environ.get(NOTICE_VARIABLE, "1").strip() == "0":
        return None
    from ._kernels import stamps

    cold = stamps.cold_modules(family)
    if not cold:
        return None
    seconds = sum(COMPILE_SECONDS.get(name, COMPILE_SECONDS["default"]) for name in cold)
    return f"compiling swept's kernels, once: about {max(1, round(seconds))} s"
