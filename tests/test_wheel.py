"""Packaging (issue 14 item 8): ``python -m build`` makes a wheel and an sdist that ship the
type hints (``py.typed``) and no compiled cache, and the wheel, installed in a fresh virtual
environment, runs ``swept demo bullet-time --headless``.

The build runs without isolation (the dev extra's setuptools and wheel, no network) from a
copy of the project, so that the working tree gets no ``build/`` or ``egg-info``; the virtual
environment sees the system's packages (numpy and numba, no network) and the wheel installs
without dependencies. It takes about half a minute, most of it the demo's cold compile in the
new install."""

from __future__ import annotations

import os
import shutil
import subprocess
import sys
import tarfile
import zipfile
from pathlib import Path

import pytest

import swept

ROOT = Path(__file__).resolve().parent.parent

pytest.importorskip("build", reason="the dev extra's build is needed: pip install -e '.[dev]'")


def _run(args: list[str], cwd: Path, **env: str) -> subprocess.CompletedProcess[str]:
    full = {k: v for k, v in os.environ.items() if k not in ("PYTHONPATH", "NUMBA_CACHE_DIR")}
    full.update(env)
    return subprocess.run(args, cwd=cwd, capture_output=True, text=True, env=full, timeout=600)


@pytest.fixture(scope="module")
def dist(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """The wheel and the sdist, built from a copy of the project."""
    base = tmp_path_factory.mktemp("wheel")
    project = base / "project"
    project.mkdir()
    for name in ("pyproject.toml", "README.md"):
        shutil.copy(ROOT / name, project / name)
    shutil.copytree(ROOT / "src", project / "src", ignore=shutil.ignore_patterns(
        "__pycache__", "*.nbi", "*.nbc", "*.egg-info"))
    out = base / "dist"
    done = _run([sys.executable, "-m", "build", "--no-isolation", "--skip-dependency-check",
                 "--outdir", str(out), str(project)], cwd=base)
    assert done.returncode == 0, done.stdout[-3000:] + done.stderr[-3000:]
    return out


def test_build_makes_a_wheel_and_an_sdist_with_the_type_hints(dist: Path) -> None:
    (wheel,) = dist.glob("swept-*.whl")
    (sdist,) = dist.glob("swept-*.tar.gz")
    assert wheel.name == f"swept-{swept.__version__}-py3-none-any.whl"
    names = zipfile.ZipFile(wheel).namelist()
    assert "swept/py.typed" in names and "swept/_kernels/ray.py" in names
    assert "swept/demos/bullet_time.py" in names
    # no compiled cache and no bytecode travel in the wheel
    assert [n for n in names if n.endswith((".nbi", ".nbc", ".pyc"))] == []
    with tarfile.open(sdist) as tar:
        members = tar.getnames()
    root = f"swept-{swept.__version__}"
    assert f"{root}/src/swept/py.typed" in members and f"{root}/pyproject.toml" in members


def test_the_wheel_installed_in_a_fresh_environment_runs_the_demo(dist: Path,
                                                                  tmp_path: Path) -> None:
    (wheel,) = dist.glob("swept-*.whl")
    venv = tmp_path / "venv"
    done = _run([sys.executable, "-m", "venv", "--system-site-packages", str(venv)],
                cwd=tmp_path)
    assert done.returncode == 0, done.stderr
    bin_dir = venv / ("Scripts" if os.name == "nt" else "bin")
    python = bin_dir / "python"
    done = _run([str(python), "-m", "pip", "install", "--no-deps", "--no-index", "--quiet",
                 str(wheel)], cwd=tmp_path)
    assert done.returncode == 0, done.stdout + done.stderr
    # the venv's own copy, not this checkout's (an editable install sits in the system's)
    where = _run([str(python), "-c", "import swept; print(swept.__file__, swept.__version__)"],
                 cwd=tmp_path)
    assert where.returncode == 0, where.stderr
    path, version = where.stdout.split()
    assert Path(path).resolve().is_relative_to(venv.resolve()) and version == swept.__version__
    demo = _run([str(bin_dir / "swept"), "demo", "bullet-time", "--headless", "--steps", "30"],
                cwd=tmp_path, SWEPT_COMPILE_NOTICE="1")
    assert demo.returncode == 0, demo.stdout + demo.stderr
    assert "Traceback" not in demo.stderr
    assert demo.stdout.strip() != ""
    # a fresh install compiles its kernels once, and says so on stderr
    assert demo.stderr.startswith("compiling swept's kernels, once: about "), demo.stderr
