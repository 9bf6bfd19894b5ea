"""One compile of each kernel among the processes of a warm-up (``swept warmup``).

A warm-up runs the kernel families in several processes at once, and a kernel two of them
meet (the World's scene and casts, the ray and contact kernels) was compiled by each. When
the variable :data:`ENV` names a directory (``swept.warmup`` sets it for its processes
only), each kernel's compile takes a file lock of its own there first: a process that meets
a kernel another is compiling waits for it and then loads it from numba's disk cache, which
that compile wrote before letting go. Elsewhere (no variable) nothing changes.

A compile holds its kernel's lock while its callees compile, each under its own lock;
callees never call their callers back, so the waits form no cycle. A lock is re-entered by
the thread that holds it (a kernel typed again inside its own compile), and a wait gives up
after :data:`~swept.constants.COMPILE_LOCK_MAX_POLLS` polls and compiles anyway (two
compiles, as before, never a stall).
"""

from __future__ import annotations

import contextlib
import hashlib
import os
import threading
import time
from collections.abc import Iterator
from typing import Any

from numba.core import sigutils

from ..constants import COMPILE_LOCK_MAX_POLLS, COMPILE_LOCK_POLL_SECONDS

try:
    import fcntl
except ImportError:  # pragma: no cover - Windows: no locks, each process compiles its own
    fcntl = None  # type: ignore[assignment]

#: The environment variable naming the lock directory.
ENV = "SWEPT_COMPILE_LOCKS"

#: The locks this process's threads hold: (thread id, path) -> (file descriptor, depth). By
#: thread: two threads of one process may meet a kernel at once (the threads of a batch
#: query, each calling it first), and the second must wait for the first's lock, not enter it
#: as its own (keyed by path alone, it did: the first's release then failed the second's with
#: a KeyError, seen once in a warm warm-up).
_held: dict[tuple[int, str], tuple[int, int]] = {}


@contextlib.contextmanager
def _locked(path: str) -> Iterator[bool]:
    """Hold the lock file ``path`` (re-entrant in this thread; another thread of this process
    waits for it as another process does); yields whether it is held (False after
    :data:`COMPILE_LOCK_MAX_POLLS` polls found it taken)."""
    key = (threading.get_ident(), path)
    if key in _held:
        fd, depth = _held[key]
        _held[key] = (fd, depth + 1)
        try:
            yield True
        finally:
            _held[key] = (fd, _held[key][1] - 1)
        return
    fd = os.open(path, os.O_RDWR | os.O_CREAT, 0o644)
    got = False
    try:
        for _ in range(COMPILE_LOCK_MAX_POLLS):
            try:
                fcntl.flock(fd, fcntl.LOCK_EX | fcntl.LOCK_NB)
            except BlockingIOError:
                time.sleep(COMPILE_LOCK_POLL_SECONDS)
                continue
            got = True
            break
        if got:
            _held[key] = (fd, 1)
        yield got
    finally:
        if got:
            del _held[key]
            fcntl.flock(fd, fcntl.LOCK_UN)
        os.close(fd)


def lock_path(directory: str, module: str, qualname: str) -> str:
    """The lock file of kernel ``module.qualname`` in ``directory``."""
    digest = hashlib.sha1(f"{module}:{qualname}".encode()).hexdigest()[:16]
    return os.path.join(directory, f"{qualname}.{digest}.lock")


def compiled_once(dispatcher: Any) -> Any:
    """With :data:`ENV` set, make ``dispatcher``'s compiles take its lock (see the module
    docstring); else ``dispatcher`` unchanged."""
    directory = os.environ.get(ENV, "")
    if not directory or fcntl is None:
        return dispatcher
    compile_ = dispatcher.compile
    path = lock_path(directory, dispatcher.py_func.__module__, dispatcher.py_func.__qualname__)

    def compile_locked(sig: Any) -> Any:
        args, _return = sigutils.normalize_signature(sig)
        if tuple(args) in dispatcher.overloads:
            return compile_(sig)
        with _locked(path):
            return compile_(sig)

    dispatcher.compile = compile_locked
    return dispatcher
