"""Every ```python block of README.md and docs/*.md runs (issue 14 item 9).

A page's blocks run in order in one namespace, as a reader would paste them, in a temporary
working directory. A block is skipped when it is fenced as anything but ``python`` (```text,
```console) or when its first line is one of :data:`MARKERS`: a signature (the shape of a call,
names standing for the reader's own values) or a window loop that runs until it is closed. A
block that needs an optional extra (pygame-ce, matplotlib, shapely, dask, trimesh) that is not
installed ends its page's run as skipped (later blocks may build on it); with the extra
installed, its ImportError is a failure like any other. The blocks' own ``assert`` lines and the
printed values that test_readme.py checks are what they claim to print.
"""

from __future__ import annotations

import contextlib
import importlib.util
import io
import os
import re
import textwrap
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent
PAGES = [ROOT / "README.md", *sorted((ROOT / "docs").glob("*.md"))]

#: First-line comments that mark a block as not to be run.
MARKERS = ("# signature", "# window")
#: The top-level modules of the optional extras: a block that fails to import one of these,
#: when it is not installed, is skipped with the rest of its page.
OPTIONAL = {"pygame": "demos", "matplotlib": "plot", "shapely": "shapely", "dask": "dask",
            "distributed": "dask", "trimesh": "mesh"}

# an opening fence (maybe indented, in a list item), its language, its body, the closing fence
_BLOCK = re.compile(r"^([ \t]*)```([\w+-]*)[ \t]*\n(.*?)^\1```[ \t]*$", re.S | re.M)


def blocks(text: str) -> list[tuple[int, str]]:
    """The ```python blocks of a Markdown ``text``: (line of the fence, dedented source)."""
    found = []
    for m in _BLOCK.finditer(text):
        if m.group(2) == "python":
            found.append((text.count("\n", 0, m.start()) + 1, textwrap.dedent(m.group(3))))
    return found


def _marked(source: str) -> bool:
    first = source.lstrip().split("\n", 1)[0].strip().lower()
    return first.startswith(MARKERS)


def _missing_extra(error: ImportError) -> str | None:
    """The extra whose absent module raised ``error``, or None when it is not an extra's or
    the module is installed (then the error is the block's own)."""
    top = (error.name or "").split(".")[0]
    if top in OPTIONAL and importlib.util.find_spec(top) is None:
        return OPTIONAL[top]
    return None


#: The pages that hold at least one python block.
CODE_PAGES = [p for p in PAGES if blocks(p.read_text())]


def test_blocks_finds_indented_fences_and_languages() -> None:
    text = ("intro\n```python\nx = 1\n```\n- item\n\n  ```python\n  y = 2\n  ```\n"
            "```text\nnot code\n```\n```console\n$ swept\n```\n")
    assert blocks(text) == [(2, "x = 1\n"), (7, "y = 2\n")]
    assert _marked("# signature: move_and_slide\nr = f(a)\n")
    assert not _marked("from swept import Ray\n# signature later\n")


def test_the_pages_with_code_include_the_readme_and_the_guides() -> None:
    names = {p.name for p in CODE_PAGES}
    assert {"README.md", "raycast.md", "contact.md", "controller.md", "world.md"} <= names


@pytest.mark.parametrize("page", CODE_PAGES, ids=lambda p: p.name)
def test_every_python_block_of_the_page_runs(page: Path, tmp_path: Path,
                                             monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.chdir(tmp_path)
    monkeypatch.setenv("MPLBACKEND", "Agg")
    os.environ.setdefault("SDL_VIDEODRIVER", "dummy")
    namespace: dict[str, object] = {"__name__": "__docs__"}
    ran = 0
    for line, source in blocks(page.read_text()):
        if _marked(source):
            continue
        code = compile(source, f"{page.name}:{line}", "exec")
        try:
            with contextlib.redirect_stdout(io.StringIO()):
                exec(code, namespace)
        except ImportError as error:
            extra = _missing_extra(error)
            if extra is None:
                raise
            pytest.skip(f"{page.name}:{line} needs the {extra!r} extra "
                        f"(pip install swept[{extra}])")
        ran += 1
    assert ran > 0 or all(_marked(s) for _, s in blocks(page.read_text()))
