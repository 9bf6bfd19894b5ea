"""Cache stamps that follow a kernel's imports, so that no cached kernel outlives a callee.

numba keys each cached kernel on its own source file only (a hash of its content). A kernel
that calls a kernel of another file carries the callee's machine code, and numba freezes the
constants it imports, so an edit to ``ray.py`` or ``constants.py`` (a developer's, or an
upgrade that replaces some files) left every kernel of the other files running the old code
from the cache: measured, a changed ``ray.py`` recompiled its 38 kernels and none of the
World's casts built on them.

Here a swept source file's stamp hashes its own content and that of every module it imports,
directly or not, among those that can reach compiled code: the kernel modules of
``swept._kernels`` (a kernel can only call what its module imports) and ``constants.py``
(whose values numba freezes into the kernels). A change recompiles every kernel that
depends on the changed file and leaves the others cached. :func:`install` puts the stamping
locators ahead of numba's own.
"""

from __future__ import annotations

import hashlib
import os
import pickle
import re
import sys
from functools import cache
from typing import Any

import numba
from numba.core import caching

#: The swept package directory: only its files get dependency stamps.
PACKAGE = os.path.dirname(os.path.dirname(os.path.realpath(__file__)))
#: The files whose content can reach compiled code: the kernel modules (this one aside: it
#: only names the cache) and the constants they import.
KERNELS = os.path.join(PACKAGE, "_kernels")
CONSTANTS = os.path.join(PACKAGE, "constants.py")
#: The vectors module: the kernels compile two of its functions as they stand (``_length3``,
#: ``_unit_direction2``, :mod:`swept._kernels.geom`): its content reaches their machine
#: code.
VEC = os.path.join(PACKAGE, "vec.py")

#: Most files one closure may visit: far above the package's file count (a bound, not a limit
#: that a real closure reaches).
MAX_FILES = 10_000

# a relative import: its dots, the module path after them, and the imported names
_RELATIVE_IMPORT = re.compile(r"^[ \t]*from[ \t]+(\.+)([\w.]*)[ \t]+import[ \t]+(\([^)]*\)|[^\n]*)",
                              re.MULTILINE)


def _module_file(directory: str, dotted: str) -> str | None:
    """The source file of module ``dotted`` under ``directory`` (a package's ``__init__``)."""
    path = os.path.join(directory, *dotted.split(".")) if dotted else directory
    candidate = os.path.join(path, "__init__.py") if os.path.isdir(path) else path + ".py"
    return candidate if os.path.isfile(candidate) else None


def _compiled(path: str) -> bool:
    """Whether the content of source file ``path`` can reach a kernel's machine code."""
    if path in (CONSTANTS, VEC):
        return True
    return os.path.dirname(path) == KERNELS and os.path.basename(path) != "stamps.py"


@cache
def imports(path: str) -> tuple[str, ...]:
    """The kernel modules and constants that ``path`` imports directly (relative imports)."""
    with open(path, encoding="utf-8") as f:
        text = f.read()
    found: list[str] = []
    for dots, dotted, names in _RELATIVE_IMPORT.findall(text):
        base = os.path.dirname(path)
        for _ in range(len(dots) - 1):
            base = os.path.dirname(base)
        if os.path.commonpath([base, PACKAGE]) != PACKAGE:
            continue
        module = _module_file(base, dotted)
        if module is not None:
            found.append(module)
        package = os.path.join(base, *dotted.split(".")) if dotted else base
        if os.path.isdir(package):
            # ``from . import ray``: an imported name may be a module itself
            for name in re.findall(r"\w+", names):
                submodule = _module_file(package, name)
                if submodule is not None:
                    found.append(submodule)
    return tuple(sorted({f for f in found if _compiled(f)}))


def dependencies(path: str) -> list[str]:
    """``path`` and every swept source file it imports, directly or not, sorted."""
    seen: set[str] = set()
    todo = [os.path.realpath(path)]
    for _ in range(MAX_FILES):
        if not todo:
            break
        current = todo.pop()
        if current in seen:
            continue
        seen.add(current)
        todo.extend(imports(current))
    return sorted(seen)


@cache
def _content_hash(path: str, mtime: float, size: int) -> bytes:
    # keyed on the file's mtime and size too, so that an edit while running is re-read
    with open(path, "rb") as f:
        return hashlib.sha256(f.read()).digest()


@cache
def stamp(path: str) -> bytes:
    """The cache stamp of a swept source file: a hash of it and of everything it imports.

    Computed once a process, as numba reads a kernel's stamp once, when the kernel is made."""
    digest = hashlib.sha256()
    for dependency in dependencies(path):
        st = os.stat(dependency)
        digest.update(os.path.relpath(dependency, PACKAGE).encode())
        digest.update(_content_hash(dependency, st.st_mtime, st.st_size))
    return digest.digest()


@cache
def _in_package(py_file: str) -> bool:
    real = os.path.realpath(py_file)
    return os.path.isfile(real) and os.path.commonpath([real, PACKAGE]) == PACKAGE


def _stamped(base: type) -> type:
    """``base`` (one of numba's source-file locators) stamping swept files by :func:`stamp`."""

    class Stamped(base):
        def get_source_stamp(self) -> bytes:
            return stamp(self._py_file)

        @classmethod
        def from_function(cls, py_func: Any, py_file: str) -> Any:
            if not _in_package(py_file):
                return None
            return super().from_function(py_func, py_file)

    Stamped.__name__ = Stamped.__qualname__ = "Swept" + base.__name__
    return Stamped


def _numba_locator(name: str) -> type | None:
    # a public name in recent numba; with a leading underscore before
    found = getattr(caching, name, None) or getattr(caching, "_" + name, None)
    return found if isinstance(found, type) else None


#: numba's locators in numba's order of preference (a cache directory set by the user, the
#: package's ``__pycache__``, the user's cache for a read-only install), each stamping by
#: dependencies.
LOCATORS = tuple(_stamped(base) for base in (
    _numba_locator(name) for name in ("UserProvidedCacheLocator", "InTreeCacheLocator",
                                      "UserWideCacheLocator")) if base is not None)


def install() -> None:
    """Put :data:`LOCATORS` ahead of numba's own (once)."""
    impl: Any = _numba_locator("CacheImpl")
    if impl is None or not LOCATORS:
        return
    classes = impl._locator_classes
    if not any(c.__name__.startswith("Swept") for c in classes):
        classes[:0] = LOCATORS


# a decorator that numba caches on disk (an inline-only module keeps no index of its own)
_CACHED_KERNEL = re.compile(r"^@(kernel|reader|entry|callee|callee_reader)\b", re.MULTILINE)


@cache
def _has_cached_kernels(path: str) -> bool:
    with open(path, encoding="utf-8") as f:
        return _CACHED_KERNEL.search(f.read()) is not None


def _probe() -> None:
    """A function to locate a file's cache directory by (numba's locators take a function)."""


def cache_directory(path: str) -> str | None:
    """The directory where numba keeps the compiled kernels of swept source file ``path``
    (the first of numba's locators, ours ahead, that takes it), or None if none does."""
    install()
    impl: Any = _numba_locator("CacheImpl")
    classes: list[Any] = list(getattr(impl, "_locator_classes", LOCATORS))
    for cls in classes:
        try:
            locator = cls.from_function(_probe, path)
        except Exception:  # a locator of a numba version we do not know: try the next
            continue
        if locator is not None:
            found: str = locator.get_cache_path()
            return found
    return None


def cached(path: str) -> bool:
    """Whether numba's disk cache holds a kernel of source file ``path`` under its current
    stamp and numba version (an index file that numba would load, not a stale one)."""
    directory = cache_directory(path)
    if directory is None or not os.path.isdir(directory):
        return False
    module = os.path.splitext(os.path.basename(path))[0]
    suffix = f".py{sys.version_info[0]}{sys.version_info[1]}{getattr(sys, 'abiflags', '')}.nbi"
    current = stamp(path)
    for name in sorted(os.listdir(directory))[:MAX_FILES]:
        if not (name.startswith(module + ".") and name.endswith(suffix)):
            continue
        try:
            with open(os.path.join(directory, name), "rb") as f:
                if pickle.load(f) != numba.__version__:
                    continue
                if pickle.loads(f.read())[0] == current:
                    return True
        except Exception:  # a truncated or foreign index: numba would not load it either
            continue
    return False


def cold_modules(family: str) -> list[str]:
    """The kernel modules that a first use of ``swept._kernels.<family>`` may compile: the
    family's module and those it imports, directly or not, that hold cached kernels and have
    none in numba's disk cache under their current stamp (names without ``.py``)."""
    path = os.path.join(KERNELS, family + ".py")
    return [os.path.splitext(os.path.basename(p))[0] for p in dependencies(path)
            if _compiled(p) and p != CONSTANTS and _has_cached_kernels(p) and not cached(p)]
