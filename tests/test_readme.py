"""The README's first-query example runs as written and prints what its comments say."""

from __future__ import annotations

import contextlib
import io
import re
from pathlib import Path

README = Path(__file__).resolve().parent.parent / "README.md"


def test_readme_first_query_runs_and_prints_its_comments() -> None:
    # The README is the first code a user copies: its example must run and its comments must
    # state the printed values.
    blocks = re.findall(r"```python\n(.*?)```", README.read_text(), re.S)
    assert blocks, "README.md has no python example"
    out = io.StringIO()
    with contextlib.redirect_stdout(out):
        exec(compile(blocks[0], "README.md", "exec"), {})
    lines = out.getvalue().splitlines()
    assert lines[0].startswith("3.88196601125")
    assert lines[1] == "Vec2(0.0, 1.0) 6.0"
    assert lines[2] == "2.0"
    assert lines[3].startswith("0.26666666666666")
