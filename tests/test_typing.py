"""Typed package (issue 14 item 8): swept ships ``py.typed``, its version agrees with the
project's, and its public modules are held to mypy's ``--strict`` (the per-module flags in
pyproject.toml, which ``tests/test_lint.py``'s mypy run applies)."""

from __future__ import annotations

import sys
from pathlib import Path

import pytest

import swept

ROOT = Path(__file__).resolve().parent.parent

if sys.version_info >= (3, 11):
    import tomllib
else:  # pragma: no cover - Python 3.10
    tomllib = pytest.importorskip("tomli")

PYPROJECT = tomllib.loads((ROOT / "pyproject.toml").read_text())

#: The public modules that must type-check under --strict.
PUBLIC = {"swept", "swept.shapes", "swept.vec", "swept.results", "swept.raycast", "swept.sweep",
          "swept.contact", "swept.distance", "swept.world", "swept.toi", "swept.response",
          "swept.resolve", "swept.step", "swept.controller", "swept.sim", "swept.manifold",
          "swept.chain", "swept.tunneling", "swept.level", "swept.level.tilemap",
          "swept.constants"}
#: mypy's --strict, as per-module flags (warn_unused_configs and warn_redundant_casts are
#: global only).
STRICT = {"disallow_any_generics", "disallow_subclassing_any", "disallow_untyped_calls",
          "disallow_untyped_defs", "disallow_incomplete_defs", "check_untyped_defs",
          "disallow_untyped_decorators", "warn_unused_ignores", "warn_return_any",
          "no_implicit_reexport", "strict_equality", "extra_checks"}


def test_the_package_ships_py_typed_as_package_data() -> None:
    assert (Path(swept.__file__).parent / "py.typed").is_file()
    assert "py.typed" in PYPROJECT["tool"]["setuptools"]["package-data"]["swept"]


def test_the_version_is_the_project_s() -> None:
    assert swept.__version__ == PYPROJECT["project"]["version"]


def test_the_public_modules_are_held_to_strict() -> None:
    overrides = PYPROJECT["tool"]["mypy"]["overrides"]
    strict = [o for o in overrides if all(o.get(flag) is True for flag in STRICT)]
    covered = {m for o in strict for m in o["module"]}
    assert not PUBLIC - covered, sorted(PUBLIC - covered)
    # every listed module exists
    for module in covered:
        parts = module.split(".")
        base = ROOT / "src" / Path(*parts)
        assert base.with_suffix(".py").is_file() or (base / "__init__.py").is_file(), module
