"""Every example runs as it is: each ``examples/*.py`` as a script (the pygame one headless, for
a fixed number of frames), and each scene in ``examples/scenes/`` through ``swept scene``."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent
EXAMPLES = ROOT / "examples"
SCRIPTS = sorted(EXAMPLES.glob("*.py"))
#: The scripts with no window (the pygame example has its own test below).
PLAIN = [p for p in SCRIPTS if p.name != "pygame_ball.py"]
SCENES = sorted(p for p in (EXAMPLES / "scenes").glob("*") if p.suffix in (".toml", ".json"))
ENV = {**os.environ, "SDL_VIDEODRIVER": "dummy", "SDL_AUDIODRIVER": "dummy",
       "PYGAME_HIDE_SUPPORT_PROMPT": "1"}


def _run(args: list[str]) -> subprocess.CompletedProcess[str]:
    return subprocess.run(args, cwd=ROOT, env=ENV, capture_output=True, text=True, timeout=300)


def test_the_examples_are_there() -> None:
    names = {p.name for p in SCRIPTS}
    assert {"pygame_ball.py", "bullet_time_headless.py", "walls_and_slides_wedge.py",
            "scene_from_code.py"} <= names
    assert len(SCENES) >= 2


@pytest.mark.parametrize("script", PLAIN, ids=[p.name for p in PLAIN])
def test_each_example_runs_as_it_is(script: Path) -> None:
    done = _run([sys.executable, str(script)])
    assert done.returncode == 0, done.stderr
    assert done.stdout.strip()


def test_the_pygame_ball_runs_headless_for_n_frames_and_stays_in_its_box() -> None:
    pytest.importorskip("pygame")
    # three seconds at 60 frames a second, at 3,000 px/s: dozens of bounces
    done = _run([sys.executable, str(EXAMPLES / "pygame_ball.py"), "--frames", "180"])
    assert done.returncode == 0, done.stderr
    x, y = (float(v) for v in done.stdout.split("(")[1].split(")")[0].split(","))
    # the box's walls run from (40, 40) to (760, 560); the ball's radius is 8
    assert 48.0 - 1e-6 <= x <= 752.0 + 1e-6 and 48.0 - 1e-6 <= y <= 552.0 + 1e-6


def test_the_pygame_ball_example_is_about_twenty_lines() -> None:
    lines = (EXAMPLES / "pygame_ball.py").read_text().splitlines()
    assert len(lines) <= 30


def test_the_wedge_example_prints_the_seeds_figures() -> None:
    done = _run([sys.executable, str(EXAMPLES / "walls_and_slides_wedge.py")])
    assert "9.78 px" in done.stdout and "0.18 px" in done.stdout


@pytest.mark.parametrize("scene", SCENES, ids=[p.name for p in SCENES])
def test_each_example_scene_runs(scene: Path) -> None:
    done = _run([sys.executable, "-m", "swept.cli", "scene", str(scene)])
    assert done.returncode == 0, done.stderr
    assert "time of impact" in done.stdout


def test_the_many_balls_example_tunnels_none_in_swept_mode_and_many_in_discrete() -> None:
    # the example's point: the same balls among the same walls, with and without the time
    # of impact of each move
    done = _run([sys.executable, str(EXAMPLES / "many_balls.py")])
    assert done.returncode == 0, done.stderr
    lines = done.stdout.splitlines()
    swept = next(line for line in lines if "ccd='swept'" in line)
    discrete = next(line for line in lines if "ccd='discrete'" in line)
    assert ": 0 balls tunneled" in swept
    assert int(discrete.split(": ")[1].split(" balls")[0]) > 100
