"""docs/interop.md runs as written and prints what its comments say.

Every python block runs in order in one namespace (as a script: ``__name__`` is
``"__main__"``, so the cluster block runs too); each ``print(...)`` line ends in a comment
holding the line it prints.
"""

from __future__ import annotations

import contextlib
import io
import re
from pathlib import Path

import pytest

DOC = Path(__file__).resolve().parent.parent / "docs" / "interop.md"


def expected_lines(block: str) -> list[str]:
    """The comments of a block's print lines, in order."""
    out = []
    for line in block.splitlines():
        if line.lstrip().startswith("print(") and "  # " in line:
            out.append(line.rsplit("  # ", 1)[1].strip())
    return out


def test_every_block_of_docs_interop_runs_and_prints_its_comments() -> None:
    pytest.importorskip("shapely")
    pytest.importorskip("dask.array")
    pytest.importorskip("distributed")
    blocks = re.findall(r"```python\n(.*?)```", DOC.read_text(), re.S)
    assert len(blocks) >= 4
    namespace: dict[str, object] = {"__name__": "__main__"}
    for i, block in enumerate(blocks):
        want = expected_lines(block)
        assert want, f"block {i} prints nothing to check"
        out = io.StringIO()
        with contextlib.redirect_stdout(out):
            exec(compile(block, f"docs/interop.md block {i}", "exec"), namespace)
        assert out.getvalue().splitlines() == want, f"block {i}"
