"""docs/drawing.md's code blocks run as written and print what their comments say, and the
pictures it shows are the ones examples/draw_world.py writes."""

from __future__ import annotations

import contextlib
import io
import os
import re
import subprocess
import sys
from pathlib import Path

import pytest

pytest.importorskip("pygame")
pytest.importorskip("matplotlib")

ROOT = Path(__file__).resolve().parent.parent
PAGE = ROOT / "docs" / "drawing.md"


def _blocks() -> list[str]:
    return re.findall(r"```python\n(.*?)```", PAGE.read_text(), re.S)


def test_each_block_prints_what_its_comments_say() -> None:
    blocks = _blocks()
    assert len(blocks) == 3
    printed = []
    for i, block in enumerate(blocks):
        out = io.StringIO()
        with contextlib.redirect_stdout(out):
            exec(compile(block, f"drawing.md block {i + 1}", "exec"), {})
        printed.append(out.getvalue().splitlines())
    # pygame prints its greeting on first import in some setups: compare the last lines
    assert printed[0][-1] == "(67, 71, 76)"
    assert printed[1] == ["(250.0, 100.0)", "Vec2(0.0, -3.0)"]
    assert printed[2] == ["0.4375 5"]
    for i, block in enumerate(blocks):
        comments = re.findall(r"print\(.*\)\s+# (\S.*?)[:\s]", block)
        assert comments, f"block {i + 1} states no printed value"


def test_the_pages_pictures_exist_and_the_example_writes_them(tmp_path: Path) -> None:
    names = re.findall(r"\]\(images/([\w.]+)\)", PAGE.read_text())
    assert names == ["draw_world.png", "draw_world_plot.png", "draw_close_up.png"]
    for name in names:
        assert (ROOT / "docs" / "images" / name).stat().st_size > 1000
    env = {**os.environ, "SDL_VIDEODRIVER": "dummy", "PYGAME_HIDE_SUPPORT_PROMPT": "1"}
    done = subprocess.run([sys.executable, str(ROOT / "examples" / "draw_world.py"), "--out",
                           str(tmp_path)], capture_output=True, text=True, env=env, timeout=600)
    assert done.returncode == 0, done.stderr
    assert "7 of 7 rays hit" in done.stdout
    assert sorted(p.name for p in tmp_path.iterdir()) == sorted(names)
    # the committed picture has the example's size and its colours (not pixel for pixel: a
    # change in the Simulation moves its balls, and the picture is then made again)
    import pygame

    fresh = pygame.image.load(str(tmp_path / "draw_world.png"))
    kept = pygame.image.load(str(ROOT / "docs" / "images" / "draw_world.png"))
    assert fresh.get_size() == kept.get_size() == (640, 400)

    def colours(surface: pygame.Surface) -> set[tuple[int, ...]]:
        return {tuple(surface.get_at((x, y)))[:3] for x in range(0, 640, 3)
                for y in range(0, 400, 3)}

    assert len(colours(kept)) >= 10 and len(colours(kept) & colours(fresh)) >= 10
