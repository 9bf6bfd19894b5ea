"""The code stays ruff- and mypy-clean: both run as part of the test suite."""

from __future__ import annotations

import shutil
import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent


def _run(args: list[str]) -> subprocess.CompletedProcess[str]:
    return subprocess.run(args, cwd=ROOT, capture_output=True, text=True, timeout=600)


def test_ruff_is_clean() -> None:
    if shutil.which("ruff") is None:
        pytest.fail("ruff is not installed: install the dev extra (pip install -e '.[dev]')")
    result = _run(["ruff", "check", "."])
    assert result.returncode == 0, result.stdout + result.stderr


def test_mypy_is_clean() -> None:
    result = _run([sys.executable, "-m", "mypy"])
    assert result.returncode == 0, result.stdout + result.stderr
