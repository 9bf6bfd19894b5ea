"""The ``swept`` command: demos headless and in a (dummy) window, scenes, the tunneling
table and plot, the bench hook, and exit status 2 with one clear line for bad input."""

from __future__ import annotations

import os

os.environ.setdefault("SDL_VIDEODRIVER", "dummy")
os.environ.setdefault("PYGAME_HIDE_SUPPORT_PROMPT", "1")

import io  # noqa: E402
import shutil  # noqa: E402
import subprocess  # noqa: E402
import sys  # noqa: E402
import types  # noqa: E402
from pathlib import Path  # noqa: E402

import pytest  # noqa: E402

from swept import cli  # noqa: E402


def run(capsys: pytest.CaptureFixture[str], *argv: str) -> tuple[int, str, str]:
    status = cli.main(list(argv))
    captured = capsys.readouterr()
    return status, captured.out, captured.err


def test_bullet_time_headless_prints_the_seeds_readout(capsys: pytest.CaptureFixture[str]
                                                       ) -> None:
    status, out, _ = run(capsys, "demo", "bullet-time", "--headless")
    assert status == 0
    assert out == "naive test: caught 4 of 8 approaches (50%)\nspeed 2000 px/s: 33 px a step\n"


def test_bullet_time_headless_options(capsys: pytest.CaptureFixture[str]) -> None:
    assert run(capsys, "demo", "bullet-time", "--headless", "--steps", "12")[1].startswith(
        "naive test: caught 0 of 1 approaches (0%)")
    status, out, _ = run(capsys, "demo", "bullet-time", "--headless", "--steps", "3000",
                         "--speed", "5000", "--swept")
    first, second = out.splitlines()
    assert first.startswith("swept test: caught ") and first.endswith("(100%)")
    assert second == "speed 5000 px/s: 83 px a step"


def test_walls_and_slides_headless_defaults_are_the_seeds_first_figure(
        capsys: pytest.CaptureFixture[str]) -> None:
    status, out, _ = run(capsys, "demo", "walls-and-slides", "--headless")
    assert status == 0
    assert out == "speed 626 px/s   deepest overlap left 0.00 px\nvelocity fix on   passes 8\n"


@pytest.mark.parametrize(("passes", "first"), [
    ("1", "speed 201 px/s   deepest overlap left 9.78 px"),
    ("8", "speed 19 px/s   deepest overlap left 0.18 px"),
])
def test_walls_and_slides_headless_in_the_wedge(capsys: pytest.CaptureFixture[str],
                                                passes: str, first: str) -> None:
    status, out, _ = run(capsys, "demo", "walls-and-slides", "--headless", "--place", "800,300",
                         "--mouse", "801,690", "--steps", "180", "--passes", passes)
    assert status == 0
    assert out.splitlines() == [first, f"velocity fix on   passes {passes}"]


def test_walls_and_slides_no_fix(capsys: pytest.CaptureFixture[str]) -> None:
    status, out, _ = run(capsys, "demo", "walls-and-slides", "--headless", "--no-fix")
    assert out.splitlines()[1] == "velocity fix off   passes 8"


def test_tunnel_headless(capsys: pytest.CaptureFixture[str]) -> None:
    status, out, _ = run(capsys, "demo", "tunnel", "--headless", "--speed", "60", "--offset",
                         "0.5", "--swept")
    assert status == 0
    assert out.strip().endswith("the sweep on frame 6 crosses it, contact at x = -0.35 m")


@pytest.mark.parametrize("name", ["bullet-time", "walls-and-slides", "tunnel", "tunnel-3d",
                                  "slide-3d", "mesh-walk"])
def test_headless_screenshot_is_a_png_of_the_window(capsys: pytest.CaptureFixture[str],
                                                    tmp_path: Path, name: str) -> None:
    pygame = pytest.importorskip("pygame")
    shot = tmp_path / f"{name}.png"
    status, out, _ = run(capsys, "demo", name, "--headless", "--screenshot", str(shot))
    assert status == 0 and out
    image = pygame.image.load(str(shot))
    assert image.get_size() == (1000, 700)
    assert len({tuple(image.get_at((x, y))) for x in range(0, 1000, 9)
                for y in range(0, 700, 9)}) >= 5


@pytest.mark.parametrize("name", ["bullet-time", "walls-and-slides", "tunnel", "tunnel-3d",
                                  "slide-3d", "mesh-walk"])
def test_window_mode_runs_frames_under_the_dummy_driver(capsys: pytest.CaptureFixture[str],
                                                        tmp_path: Path, name: str) -> None:
    pytest.importorskip("pygame")
    shot = tmp_path / "last.png"
    status, _, _ = run(capsys, "demo", name, "--frames", "3", "--screenshot", str(shot))
    assert status == 0 and shot.stat().st_size > 0


def test_no_window_is_a_clear_error(capsys: pytest.CaptureFixture[str],
                                    monkeypatch: pytest.MonkeyPatch) -> None:
    pygame = pytest.importorskip("pygame")
    from swept.demos import view_bullet_time

    def no_display(*args: object, **kwargs: object) -> int:
        raise pygame.error("No available video device")

    monkeypatch.setattr(view_bullet_time, "main", no_display)
    status, _, err = run(capsys, "demo", "bullet-time")
    assert status == 2
    assert err.startswith("swept demo: error: cannot open a window (No available video device)")
    assert "--headless" in err


def test_missing_pygame_is_a_clear_error(capsys: pytest.CaptureFixture[str],
                                         monkeypatch: pytest.MonkeyPatch) -> None:
    def no_pygame(name: str) -> None:
        raise ModuleNotFoundError("No module named 'pygame'", name="pygame")

    monkeypatch.setattr(cli.importlib, "import_module", no_pygame)
    status, _, err = run(capsys, "demo", "tunnel", "--frames", "1")
    assert status == 2 and "need pygame-ce" in err


@pytest.mark.parametrize(("name", "first"), [
    ("mtv", "push out along x \u2192 5.40 m"),
    ("bouncing", "dropped from 2 m with restitution 0.5, apex after 1, 2 and 3 bounces \u2192 "
                 "0.500 m, 0.125 m, 0.031 m"),
    ("slide", "decompose(v, n): 5 m/s aimed -10\u00b0 at a surface of slope 0\u00b0 \u2192 "
              "0.87 m/s blocked, 4.92 m/s slides along"),
])
def test_text_demos(capsys: pytest.CaptureFixture[str], name: str, first: str) -> None:
    status, out, _ = run(capsys, "demo", name)
    assert status == 0 and out.splitlines()[0].startswith(first)


def test_demo_with_no_name_lists_the_demos(capsys: pytest.CaptureFixture[str]) -> None:
    status, out, _ = run(capsys, "demo")
    assert status == 0 and ("bullet-time, walls-and-slides, tunnel, tunnel-3d, slide-3d, "
                            "mesh-walk, mtv, bouncing, slide") in out


def test_scene_default_prints_seed_003s_traces(capsys: pytest.CaptureFixture[str]) -> None:
    status, out, _ = run(capsys, "scene")
    assert status == 0
    assert "time of impact 0.2667: hits floor" in out
    assert out.count("time of impact 0.3333") == 2


def test_scene_file(capsys: pytest.CaptureFixture[str], tmp_path: Path) -> None:
    path = tmp_path / "s.toml"
    path.write_text("[[bodies]]\nradius = 2\nposition = [0, 10]\ndisplacement = [0, -30]\n"
                    "[[planes]]\ny = 0\n")
    status, out, _ = run(capsys, "scene", str(path))
    assert status == 0 and "time of impact 0.2667: hits plane 1 (plane y = 0)" in out


def test_a_malformed_scene_is_one_line_and_status_2(capsys: pytest.CaptureFixture[str],
                                                    tmp_path: Path) -> None:
    path = tmp_path / "bad.json"
    path.write_text('{"bodies": [{"radius": 1, "position": [0, 0], "displacement": [0, 0]},'
                    ' {"radius": 1, "position": [0, 0], "displacement": [0, 0]},'
                    ' {"radius": "big", "position": [0, 0], "displacement": [0, 0]}]}')
    status, out, err = run(capsys, "scene", str(path))
    assert status == 2 and out == ""
    assert err == (f"swept scene: error: {path}: bodies[2].radius: expected a number >= 0, "
                   'got "big"\n')
    status, _, err = run(capsys, "scene", str(tmp_path / "nope.toml"))
    assert status == 2 and "nope.toml: cannot read the file" in err
    assert "Traceback" not in err


def test_tunneling_table(capsys: pytest.CaptureFixture[str]) -> None:
    status, out, _ = run(capsys, "tunneling", "--speeds", "755,2000,5000", "--steps", "2000")
    assert status == 0
    assert "the naive test cannot miss up to 851 px/s" in out
    rows = [line.split() for line in out.splitlines() if line.strip()[:1].isdigit()]
    assert [r[0] for r in rows] == ["755", "2000", "5000"]
    assert rows[0][3] == "100%"  # naive: below the safe speed nothing is missed
    assert all(r[4] == "100%" for r in rows)  # swept: everything caught
    assert rows[1][5] == "43%" and rows[2][5] == "17%"  # the estimate 2r / (step cos theta)


def test_tunneling_rows_match_the_bullet_time_model() -> None:
    (row,) = cli.tunneling_table([2000.0], 20_000)
    assert (row.naive_caught, row.naive_approaches) == (145, 391)
    assert row.swept_share == 1.0 and row.swept_approaches > 0
    assert row.estimate == pytest.approx(0.4255, abs=1e-3)


def test_tunneling_progress_lines_on_long_runs(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(cli, "PROGRESS_AFTER", 0.0)
    monkeypatch.setattr(cli, "PROGRESS_EVERY", 0.0)
    stream = io.StringIO()
    cli.tunneling_table([1000.0, 2000.0], 100, progress=stream)
    lines = stream.getvalue().splitlines()
    # a line each chunk of steps, counting the steps of every run (2 speeds x 2 tests x 100)
    assert lines[0].startswith("swept: tunneling: 50/400 steps (12%), ")
    assert lines[-1].startswith("swept: tunneling: 400/400 steps (100%), ")
    assert len(lines) == 8 and stream.getvalue().endswith("\n")
    quiet = io.StringIO()
    monkeypatch.setattr(cli, "PROGRESS_AFTER", 1e9)
    cli.tunneling_table([1000.0], 100, progress=quiet)
    assert quiet.getvalue() == ""


def test_tunneling_plot(capsys: pytest.CaptureFixture[str], tmp_path: Path) -> None:
    pytest.importorskip("matplotlib")
    plot = tmp_path / "rates.png"
    status, out, _ = run(capsys, "tunneling", "--count", "3", "--steps", "300", "--plot",
                         str(plot))
    assert status == 0 and f"plot saved to {plot}" in out
    assert plot.read_bytes()[:8] == b"\x89PNG\r\n\x1a\n"


@pytest.mark.parametrize("argv", [
    ["demo", "bullet-time", "--headless", "--speed", "9000"],
    ["demo", "walls-and-slides", "--headless", "--passes", "3"],
    ["demo", "walls-and-slides", "--headless", "--place", "1;2"],
    ["demo", "tunnel", "--headless", "--offset", "1"],
    ["demo", "nonsense"],
    ["tunneling", "--min", "2000", "--max", "1000"],
    ["tunneling", "--speeds", "fast"],
    [],
])
def test_bad_input_exits_2(capsys: pytest.CaptureFixture[str], argv: list[str]) -> None:
    status, _, err = run(capsys, *argv)
    assert status == 2
    assert "Traceback" not in err


def test_help_exits_0(capsys: pytest.CaptureFixture[str]) -> None:
    status, out, _ = run(capsys, "demo", "bullet-time", "--help")
    assert status == 0 and "--headless" in out


def test_bench_hook_says_clearly_when_the_benchmarks_are_missing(
        capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch) -> None:
    real = cli.importlib.import_module

    def without_bench(name: str) -> object:
        if name == "swept.bench":
            raise ModuleNotFoundError("No module named 'swept.bench'", name="swept.bench")
        return real(name)

    monkeypatch.setattr(cli.importlib, "import_module", without_bench)
    status, _, err = run(capsys, "bench")
    assert status == 2
    assert err == ("swept bench: error: the benchmarks are not part of this build (swept.bench "
                   "is missing)\n")


def test_bench_hook_hands_the_arguments_to_swept_bench(
        capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch) -> None:
    seen: list[list[str]] = []
    fake = types.ModuleType("swept.bench")
    fake.main = lambda argv: seen.append(argv) or 0  # type: ignore[attr-defined]
    monkeypatch.setitem(sys.modules, "swept.bench", fake)
    status, _, _ = run(capsys, "bench", "--quick", "raycast")
    assert status == 0 and seen == [["--quick", "raycast"]]


def test_the_console_script_runs() -> None:
    exe = shutil.which("swept")
    command = [exe] if exe else [sys.executable, "-m", "swept.cli"]
    done = subprocess.run([*command, "demo", "bullet-time", "--headless"], capture_output=True,
                          text=True, timeout=300,
                          env={**os.environ, "SDL_VIDEODRIVER": "dummy"})
    assert done.returncode == 0, done.stderr
    assert done.stdout.splitlines()[0] == "naive test: caught 4 of 8 approaches (50%)"


def test_window_demo_with_no_display_runs_headless(capsys: pytest.CaptureFixture[str],
                                                   monkeypatch: pytest.MonkeyPatch) -> None:
    # The main job must run on a machine with no display: a window demo asked for there falls
    # back to its headless model (and says so) instead of failing or hanging.
    monkeypatch.setattr(sys, "platform", "linux")
    for name in ("DISPLAY", "WAYLAND_DISPLAY", "SDL_VIDEODRIVER"):
        monkeypatch.delenv(name, raising=False)
    status, out, err = run(capsys, "demo", "bullet-time")
    assert status == 0
    assert out.splitlines() == ["naive test: caught 4 of 8 approaches (50%)",
                                "speed 2000 px/s: 33 px a step"]
    assert "no display" in err
