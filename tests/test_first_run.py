"""A fast first run (issue 14 item 1): ``import swept``, the shapes and every ``--help`` load no
numba; each kernel family loads on first use; a cold disk cache is announced on stderr once.

Each check runs in a fresh interpreter, since this test process has long imported numba."""

from __future__ import annotations

import json
import os
import pickle
import subprocess
import sys
import types
from pathlib import Path

import pytest

import swept
from swept import _lazy

SRC = Path(swept.__file__).resolve().parent.parent


def _python(code: str, **env: str) -> subprocess.CompletedProcess[str]:
    """Run ``code`` in a fresh interpreter on this tree's sources."""
    full = dict(os.environ)
    full["PYTHONPATH"] = str(SRC)
    full.update(env)
    return subprocess.run([sys.executable, "-c", code], capture_output=True, text=True,
                          env=full, timeout=600)


def test_import_swept_loads_neither_numba_nor_any_kernel() -> None:
    done = _python("import sys, swept\n"
                   "print(sorted(m for m in sys.modules if m == 'numba' or '_kernels' in m))")
    assert done.returncode == 0, done.stderr
    assert done.stdout.strip() == "[]"


def test_building_every_shape_and_result_loads_no_numba() -> None:
    """Shapes, vectors and results are plain Python: a Segment's normals (a kernel's formula)
    are made on their first read, not when the segment is built."""
    done = _python(
        "import sys\n"
        "from swept import (AABB, Capsule, Circle, Contact, Plane, Polygon, Ray, RayHit,\n"
        "                   Segment, Sphere, SweepHit, Vec2, Vec3)\n"
        "shapes = [AABB((0, 0), (1, 1)), Capsule((0, 0), (1, 0), 1), Circle((0, 0), 1),\n"
        "          Plane((0, 1), 0), Polygon([(0, 0), (1, 0), (0, 1)]), Ray((0, 0), (1, 0)),\n"
        "          Segment((0, 0), (1, 1)), Sphere((0, 0, 0), 1), AABB((0, 0, 0), (1, 1, 1))]\n"
        "RayHit(1.0, (1, 0), (0, 1), False); Contact((0, 1), 0.5, (0, 0))\n"
        "SweepHit(0.5, (1, 0), (0, 1), (1, 1), False); Vec2(1, 2) + Vec3(1, 2, 3)[:2]\n"
        "print('numba' in sys.modules, [m for m in sys.modules if '_kernels' in m])")
    assert done.returncode == 0, done.stderr
    assert done.stdout.strip() == "False []"


def _subcommands() -> list[list[str]]:
    """Every ``swept`` command line that ends in ``--help``: the command, each subcommand and
    each demo."""
    from swept.cli import build_parser

    found: list[list[str]] = []

    def walk(parser: object, prefix: list[str]) -> None:
        found.append([*prefix, "--help"])
        for action in getattr(parser, "_actions", []):
            choices = getattr(action, "choices", None)
            if isinstance(choices, dict):
                for name, sub in choices.items():
                    walk(sub, [*prefix, name])

    walk(build_parser(), [])
    return found


def test_every_help_runs_without_numba() -> None:
    """``swept --help`` and each subcommand's ``--help`` import neither numba nor a kernel
    (the parser reads the demos' settings; their shapes are built without a kernel)."""
    commands = _subcommands()
    assert ["demo", "bullet-time", "--help"] in commands and len(commands) >= 8
    done = _python(
        "import contextlib, io, json, sys\n"
        "from swept.cli import main\n"
        f"commands = {json.dumps(commands)}\n"
        "codes = []\n"
        "for argv in commands:\n"
        "    with contextlib.redirect_stdout(io.StringIO()) as out:\n"
        "        try:\n"
        "            code = main(argv)\n"
        "        except SystemExit as stop:\n"
        "            code = stop.code\n"
        "    codes.append((code or 0, 'usage' in out.getvalue()))\n"
        "print(json.dumps([codes, 'numba' in sys.modules]))")
    assert done.returncode == 0, done.stderr
    codes, numba_loaded = json.loads(done.stdout)
    assert codes == [[0, True]] * len(commands)
    assert numba_loaded is False


def test_the_command_s_help_as_a_process_loads_no_numba() -> None:
    full = dict(os.environ, PYTHONPATH=str(SRC), PYTHONVERBOSE="1")
    done = subprocess.run([sys.executable, "-m", "swept", "--help"], capture_output=True,
                          text=True, env=full, timeout=600)
    assert done.returncode == 0 and "usage: swept" in done.stdout
    # -v's import trace names every module imported
    assert "import 'swept.cli'" in done.stderr
    assert "import 'numba'" not in done.stderr


def test_every_public_name_resolves_and_dir_lists_them() -> None:
    assert set(swept.__all__) <= set(dir(swept))
    for name in swept.__all__:
        assert getattr(swept, name) is not None
    namespace: dict[str, object] = {}
    exec("from swept import *", namespace)
    assert set(swept.__all__) <= set(namespace)
    assert isinstance(swept.__version__, str) and swept.__version__.count(".") >= 2


def test_a_function_named_as_its_module_stays_the_function() -> None:
    """Importing a submodule binds it on its package (``swept.raycast = <module>``); the
    package keeps the public function of that name instead, as before lazy loading."""
    done = _python(
        "import importlib, types, swept\n"
        "for name in ('raycast', 'contact', 'distance', 'manifold', 'sweep', 'resolve'):\n"
        "    module = importlib.import_module('swept.' + name)\n"
        "    assert isinstance(module, types.ModuleType)\n"
        "    assert getattr(swept, name) is getattr(module, name), name\n"
        "    assert callable(getattr(swept, name))\n"
        "from swept import raycast\n"
        "assert not isinstance(raycast, types.ModuleType)\n"
        "print(type(swept.world).__name__, type(swept.level).__name__)")
    assert done.returncode == 0, done.stderr
    assert done.stdout.strip() == "module module"


def test_an_unknown_name_is_an_attribute_error() -> None:
    with pytest.raises(AttributeError, match="no attribute 'no_such_name'"):
        _ = swept.no_such_name  # type: ignore[attr-defined]
    assert not hasattr(swept, "__no_such_dunder__")


def test_a_lazy_module_loads_on_its_first_attribute_and_then_is_the_module() -> None:
    stand_in = _lazy.LazyModule("json.decoder")
    assert "JSONDecoder" not in stand_in.__dict__
    # introspection of dunders loads nothing
    assert not hasattr(stand_in, "__wrapped__")
    assert "JSONDecoder" not in stand_in.__dict__
    import json.decoder as real

    assert stand_in.JSONDecoder is real.JSONDecoder
    # the namespace is copied, so later reads are plain dictionary hits
    assert stand_in.__dict__["scanstring"] is real.scanstring
    assert isinstance(stand_in, types.ModuleType)
    assert repr(_lazy.kernels("ray")) == "<lazy module 'swept._kernels.ray'>"


def _reflect(cache: Path, **env: str) -> subprocess.CompletedProcess[str]:
    # the response family: two small kernels, the cheapest cold compile
    return _python("import swept\nprint(swept.reflect((1.0, -1.0), (0.0, 1.0)))",
                   NUMBA_CACHE_DIR=str(cache), **env)


def test_a_cold_cache_is_announced_once_and_a_warm_one_is_not(tmp_path: Path) -> None:
    """An empty numba cache directory: the first use of a family prints one line on stderr
    with its estimated compile time; the next process finds the kernels cached and says
    nothing; ``SWEPT_COMPILE_NOTICE=0`` silences the line."""
    quiet = _reflect(tmp_path / "quiet", SWEPT_COMPILE_NOTICE="0")
    assert quiet.returncode == 0 and quiet.stderr == "", quiet.stderr
    first = _reflect(tmp_path / "cache", SWEPT_COMPILE_NOTICE="1")
    assert first.returncode == 0, first.stderr
    assert first.stdout.strip() == "Vec2(1.0, 1.0)"
    assert first.stderr == "compiling swept's kernels, once: about 1 s\n"
    assert list((tmp_path / "cache").rglob("response.*.nbi"))
    second = _reflect(tmp_path / "cache", SWEPT_COMPILE_NOTICE="1")
    assert second.returncode == 0 and second.stderr == "", second.stderr


def test_a_cache_written_under_another_stamp_counts_as_cold(tmp_path: Path) -> None:
    """The check reads the index's stamp as numba does: an index that numba would not load
    (another source, another numba) is no warm cache."""
    assert _reflect(tmp_path, SWEPT_COMPILE_NOTICE="0").returncode == 0
    (index,) = list(tmp_path.rglob("response.*.nbi"))  # reflect_velocity's
    with index.open("rb") as f:
        pickle.load(f)  # numba's version
        head = f.tell()
        _stamp, overloads = pickle.loads(f.read())
    index.write_bytes(index.read_bytes()[:head] + pickle.dumps((b"another source", overloads)))
    again = _reflect(tmp_path, SWEPT_COMPILE_NOTICE="1")
    assert again.stderr.startswith("compiling swept's kernels, once:"), again.stderr
