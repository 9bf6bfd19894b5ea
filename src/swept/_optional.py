"""Optional dependencies: imported on first use, with an error that names the extra to install.

swept's core needs numpy and numba only. The integrations (:mod:`swept.interop` for shapely,
:mod:`swept.dask` for Dask) import their library inside the functions that use it, through
:func:`require`, so ``import swept`` never pays for them and a missing one is an
``ImportError`` that says which ``pip install swept[EXTRA]`` brings it.
"""

from __future__ import annotations

import importlib
from types import ModuleType

__all__ = ["require"]


def require(module: str, extra: str, purpose: str) -> ModuleType:
    """Import ``module``, or raise ImportError naming ``purpose`` and ``swept[extra]``."""
    try:
        return importlib.import_module(module)
    except ImportError as exc:
        top = module.split(".")[0]
        raise ImportError(
            f"{purpose} needs {top}, which is not installed: pip install swept[{extra}]"
        ) from exc
