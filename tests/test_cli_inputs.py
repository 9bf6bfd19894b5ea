"""Bad input to the ``swept`` command: every case exits with status 2 and one line on stderr
naming the flag (or the file and the place in it), run through the real command in a
subprocess; and the pieces that make it so (bounded counts, output paths checked before the
run, scene files read with bounds, progress on stderr, help text with no jargon)."""

from __future__ import annotations

import argparse
import io
import os
import re
import subprocess
import sys
import time
from collections.abc import Iterator
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path

import pytest
from hypothesis import given
from hypothesis import strategies as st

import swept
from swept import cli
from swept.constants import (
    CLI_MAX_STEPS,
    SCENE_MAX_BODIES,
    SCENE_MAX_FILE_BYTES,
    SCENE_MAX_NUMBER_CHARS,
)
from swept.scene import SceneError, load_scenes

#: The folder holding this checkout's ``swept`` package (the subprocesses import it, not an
#: installed copy).
SRC = str(Path(swept.__file__).resolve().parents[1])
ENV = {**os.environ, "PYTHONPATH": SRC + os.pathsep + os.environ.get("PYTHONPATH", ""),
       "SDL_VIDEODRIVER": "dummy", "PYGAME_HIDE_SUPPORT_PROMPT": "1"}


def swept_command(*argv: str, cwd: Path | None = None) -> subprocess.CompletedProcess[str]:
    """Run ``python -m swept ARGV`` (the real command) in a subprocess."""
    return subprocess.run([sys.executable, "-m", "swept", *argv], capture_output=True,
                          text=True, timeout=300, env=ENV, cwd=cwd)


def _body_json(x: float) -> str:
    """A body of a JSON scene, at rest at (x, 0)."""
    return f'{{"radius": 1, "position": [{x}, 0], "displacement": [0, 0]}}'


def _scene_json(*scenes: list[str]) -> str:
    """A JSON scene file of these scenes' bodies (one scene: at the top)."""
    if len(scenes) == 1:
        return f'{{"bodies": [{",".join(scenes[0])}]}}'
    return '{"scenes": [' + ", ".join(f'{{"bodies": [{",".join(b)}]}}' for b in scenes) + "]}"


def _write_scene_files(folder: Path) -> dict[str, Path]:
    """The bad scene files of the corpus, by name."""
    files = {
        # a radius of 5,000 digits: Python's int() refuses it with a traceback
        "int5000.json": '{"bodies": [{"radius": %s, "position": [0, 0], '
                        '"displacement": [0, 0]}]}' % ("1" * 5000),
        "int5000.toml": "[[bodies]]\nradius = %s\nposition = [0, 0]\ndisplacement = [0, 0]\n"
                        % ("1" * 5000),
        "float5000.toml": "[[bodies]]\nradius = 1.%s\nposition = [0, 0]\n"
                          "displacement = [0, 0]\n" % ("1" * 5000),
        "deep.json": "[" * 100_000 + "]" * 100_000,
        "broken.json": '{"bodies": [}',
        "infinite.json": '{"bodies": [{"radius": 1e999, "position": [0, 0], '
                         '"displacement": [0, 0]}]}',
        # each number in range, but a bounce carries a body beyond it
        "range.json": '{"planes": [{"normal": [1e-50, 1e50], "offset": 1e50}], "bodies": ['
                      '{"radius": 1e50, "position": [1e50, -1e50], "displacement": [-1e50, 1e50]},'
                      ' {"radius": 1e-50, "position": [0, 0], "displacement": [1e-50, 0]}]}',
        "many.json": _scene_json([_body_json(i) for i in range(SCENE_MAX_BODIES + 1)]),
    }
    paths = {}
    for name, text in files.items():
        paths[name] = folder / name
        paths[name].write_text(text)
    # over the size cap: refused before it is read (a 1 GB number took 3.3 GB to fail)
    paths["big.json"] = folder / "big.json"
    with open(paths["big.json"], "wb") as f:
        f.truncate(SCENE_MAX_FILE_BYTES + 1)
    return paths


#: (name, argv with {folder} for the scene files' folder, what the one line must contain).
CORPUS = [
    ("no command", [], "swept: error: expected a command"),
    ("unknown command", ["nonsense"], "invalid choice: 'nonsense'"),
    ("unknown demo", ["demo", "nonsense"], "argument NAME: invalid choice"),
    ("unknown flag", ["demo", "bullet-time", "--headless", "--bogus"], "--bogus"),
    ("missing value", ["demo", "bullet-time", "--headless", "--steps"],
     "argument --steps: expected one argument"),
    ("steps not a number", ["demo", "bullet-time", "--headless", "--steps", "1e3"],
     "argument --steps: expected a whole number, got '1e3'"),
    ("steps huge", ["demo", "walls-and-slides", "--headless", "--steps", "99999999999"],
     f"argument --steps: expected a whole number from 0 to {CLI_MAX_STEPS:,}"),
    ("steps negative", ["demo", "bullet-time", "--headless", "--steps", "-5"],
     "argument --steps: expected a whole number from 0"),
    ("steps 1000 digits", ["tunneling", "--steps", "9" * 1000],
     "argument --steps: expected a whole number, got"),
    ("frames zero", ["demo", "tunnel", "--headless", "--frames", "0"], "argument --frames"),
    ("speed out of range", ["demo", "bullet-time", "--headless", "--speed", "9000"],
     "argument --speed: expected a number from 300 to 5000"),
    ("speed nan", ["demo", "bullet-time", "--headless", "--speed", "nan"], "argument --speed"),
    ("passes", ["demo", "walls-and-slides", "--headless", "--passes", "3"],
     "argument --passes: invalid choice"),
    ("place malformed", ["demo", "walls-and-slides", "--headless", "--place", "1;2"],
     "argument --place: expected X,Y"),
    ("place one number", ["demo", "walls-and-slides", "--headless", "--place", "-5"],
     "argument --place: expected X,Y"),
    ("mouse infinite", ["demo", "walls-and-slides", "--headless", "--mouse", "inf,0"],
     "argument --mouse: expected two finite numbers"),
    ("offset", ["demo", "tunnel", "--headless", "--offset", "1"], "argument --offset"),
    ("screenshot txt", ["demo", "bullet-time", "--headless", "--screenshot", "x.txt"],
     "argument --screenshot: cannot write 'x.txt': the name must end in .png"),
    ("screenshot no folder", ["demo", "bullet-time", "--headless", "--screenshot",
                              "{folder}/nope/x.png"], "the folder"),
    ("plot xyz", ["tunneling", "--plot", "x.xyz"],
     "argument --plot: cannot write 'x.xyz': the name must end in .png or .pdf or .svg"),
    ("plot a folder", ["tunneling", "--plot", "{folder}"], "argument --plot"),
    ("plot no folder", ["tunneling", "--plot", "{folder}/nope/x.png"],
     "argument --plot: cannot write"),
    ("speeds empty item", ["tunneling", "--speeds", "755,,2000"],
     "argument --speeds: item 2 of '755,,2000' is empty"),
    ("speeds trailing comma", ["tunneling", "--speeds", "755,"], "argument --speeds: item 2"),
    ("speeds negative", ["tunneling", "--speeds", "-5,10"], "argument --speeds: item 1"),
    ("speeds word", ["tunneling", "--speeds", "fast"], "argument --speeds: item 1, 'fast'"),
    ("count huge", ["tunneling", "--count", "5000"], "argument --count"),
    ("min above max", ["tunneling", "--min", "2000", "--max", "1000"],
     "--max (1000) must be above --min (2000)"),
    ("scene missing", ["scene", "{folder}/none.json"], "none.json: cannot read the file"),
    ("scene yaml", ["scene", "x.yaml"], "x.yaml: expected a .toml or .json scene file"),
    ("scene 5000-digit int json", ["scene", "{folder}/int5000.json"],
     "int5000.json: bodies[0].radius: a number 5,000 characters long"),
    ("scene 5000-digit int toml", ["scene", "{folder}/int5000.toml"],
     "int5000.toml: line 2, column 10: a number 5,000 characters long"),
    ("scene 5000-digit float toml", ["scene", "{folder}/float5000.toml"],
     "float5000.toml: line 2, column 10: a number 5,002 characters long"),
    ("scene over the size cap", ["scene", "{folder}/big.json"],
     f"big.json: the file is {SCENE_MAX_FILE_BYTES + 1:,} bytes"),
    ("scene nested", ["scene", "{folder}/deep.json"], "deep.json: not a scene"),
    ("scene broken", ["scene", "{folder}/broken.json"], "broken.json: line 1, column 13"),
    ("scene infinite", ["scene", "{folder}/infinite.json"],
     "infinite.json: bodies[0].radius: expected a number >= 0 of magnitude at most 1e+50"),
    ("scene beyond the range", ["scene", "{folder}/range.json"],
     "range.json: scene 'range', body 'body 2': cannot advance it: displacement is out of range"),
    ("scene too many", ["scene", "{folder}/many.json"], "many.json: bodies: too many bodies"),
    ("bench json unwritable", ["bench", "--json", "{folder}/nope/out.json"],
     "swept bench: error: --json: cannot write"),
    ("bench json not json", ["bench", "--json", "{folder}/out.txt"],
     "--json: cannot write"),
    ("bench unknown", ["bench", "--only", "nothing"], "argument --only: invalid choice"),
    ("bench unknown flag", ["bench", "--bogus"], "unrecognized arguments: --bogus"),
]


#: A progress line of a long run (swept.cli.Progress).
_PROGRESS = re.compile(r"^swept: [\w ]+: [\d,]+/[\d,]+ \w+ \(\d+%\), \d+ s$")


@pytest.fixture(scope="module")
def corpus_runs(tmp_path_factory: pytest.TempPathFactory
                ) -> Iterator[dict[str, tuple[subprocess.CompletedProcess[str], str]]]:
    """Every case of :data:`CORPUS` run through the real command, a few at a time."""
    folder = tmp_path_factory.mktemp("corpus")
    _write_scene_files(folder)

    def one(case: tuple[str, list[str], str]) -> tuple[str, subprocess.CompletedProcess[str]]:
        name, argv, _ = case
        return name, swept_command(*(a.format(folder=folder) for a in argv), cwd=folder)

    with ThreadPoolExecutor(max_workers=4) as pool:
        done = dict(pool.map(one, CORPUS))
    yield {name: (done[name], str(folder)) for name in done}


@pytest.mark.parametrize("name, argv, expected", CORPUS, ids=[c[0] for c in CORPUS])
def test_bad_input_is_status_2_and_one_line_naming_the_flag_or_file(
        corpus_runs: dict[str, tuple[subprocess.CompletedProcess[str], str]], name: str,
        argv: list[str], expected: str) -> None:
    """Each bad input once exited 0, ran for ever, printed the usage block, or raised a
    traceback (argparse's own errors, a 5,000-digit number, an unknown output format): now it
    is one line on stderr, naming what was wrong, and status 2, before any long work. A run
    that takes over a second before its error (a bounce beyond the range is found only by
    the run; a loaded machine's first compile) may show progress lines first, never one
    claiming the work all done."""
    done, folder = corpus_runs[name]
    assert done.returncode == 2, (done.stdout, done.stderr)
    progress = [line for line in done.stderr.splitlines() if _PROGRESS.match(line)]
    assert not any("(100%)" in line for line in progress), done.stderr
    lines = [line for line in done.stderr.splitlines() if not _PROGRESS.match(line)]
    assert len(lines) == 1, done.stderr
    assert expected in lines[0], lines[0]
    assert lines[0].startswith("swept")
    assert "Traceback" not in done.stderr and done.stdout == ""
    assert not (Path(folder) / "out.txt").exists()


def test_help_runs_through_the_real_command() -> None:
    done = swept_command("demo", "walls-and-slides", "--help")
    assert done.returncode == 0 and done.stderr == ""
    assert "--place X,Y" in done.stdout


# ----------------------------------------------------------------------- negative values

def test_negative_coordinates_are_values_not_flags(capsys: pytest.CaptureFixture[str]) -> None:
    """argparse takes a word starting with "-" that is not a plain number for a flag, so
    ``--place -5000,-5000`` was "expected one argument": a value-taking flag followed by a
    word starting with a minus and a digit is now joined to it."""
    status = cli.main(["demo", "walls-and-slides", "--headless", "--place", "-5000,-5000",
                       "--mouse", "-4999,-5000", "--steps", "1"])
    out = capsys.readouterr().out
    assert status == 0 and out.startswith("speed ")


def test_join_negative_values_leaves_other_words() -> None:
    flags = {"--place", "--steps"}
    assert cli._join_negative_values(["--place", "-1,-2", "--headless", "-x"], flags) == [
        "--place=-1,-2", "--headless", "-x"]
    assert cli._join_negative_values(["--place", "--steps", "-.5"], flags) == [
        "--place", "--steps=-.5"]
    assert cli._join_negative_values(["-5,-5"], flags) == ["-5,-5"]


def test_every_value_flag_is_known() -> None:
    flags = cli._value_flags(cli.build_parser())
    assert {"--place", "--mouse", "--steps", "--speed", "--speeds", "--plot", "--screenshot",
            "--frames", "--offset", "--min", "--max", "--count"} <= flags
    assert "--headless" not in flags and "--swept" not in flags


# ---------------------------------------------------------------------------- list items

@given(st.lists(st.integers(1, 1_000_000), min_size=1, max_size=20))
def test_speeds_read_back_exactly(speeds: list[int]) -> None:
    assert cli._speeds(",".join(map(str, speeds))) == [float(s) for s in speeds]


@given(st.lists(st.integers(1, 1_000_000), min_size=1, max_size=8), st.integers(0, 8))
def test_an_empty_speed_item_anywhere_is_refused(speeds: list[int], at: int) -> None:
    items = [str(s) for s in speeds]
    items.insert(min(at, len(items)), " ")
    with pytest.raises(argparse.ArgumentTypeError, match="is empty"):
        cli._speeds(",".join(items))


def test_counts_are_bounded_at_the_documented_maximum() -> None:
    parse = cli._whole(0, CLI_MAX_STEPS)
    assert parse(str(CLI_MAX_STEPS)) == CLI_MAX_STEPS  # the maximum itself
    assert parse("0") == 0 and parse(" 7 ") == 7
    with pytest.raises(argparse.ArgumentTypeError, match="from 0 to 1,000,000"):
        parse(str(CLI_MAX_STEPS + 1))
    for bad in ("", "1.0", "1e3", "0x10", "9" * 31, "--1"):
        with pytest.raises(argparse.ArgumentTypeError, match="whole number"):
            parse(bad)


# ------------------------------------------------------------------------------ outputs

def test_check_writable(tmp_path: Path) -> None:
    new = tmp_path / "new.png"
    assert cli.check_writable(new) == new and not new.exists()  # probed, then removed
    old = tmp_path / "old.png"
    old.write_bytes(b"kept")
    cli.check_writable(old)
    assert old.read_bytes() == b"kept"  # an existing file is not truncated
    with pytest.raises(argparse.ArgumentTypeError, match="it is a folder"):
        cli.check_writable(tmp_path)
    with pytest.raises(argparse.ArgumentTypeError, match="does not exist"):
        cli.check_writable(tmp_path / "no" / "x.png")
    with pytest.raises(argparse.ArgumentTypeError, match="does not exist"):
        cli.check_writable(old / "x.png")  # the folder is a file


def test_an_unwritable_output_fails_before_the_run(capsys: pytest.CaptureFixture[str],
                                                   tmp_path: Path,
                                                   monkeypatch: pytest.MonkeyPatch) -> None:
    """``--plot`` to a path that cannot be written used to run every speed first, then fail:
    the path is now checked while the arguments are read."""
    ran: list[object] = []
    monkeypatch.setattr(cli, "tunneling_table", lambda *a, **k: ran.append(a) or [])
    status = cli.main(["tunneling", "--plot", str(tmp_path / "no" / "rates.png")])
    assert status == 2 and ran == []
    assert capsys.readouterr().err.count("\n") == 1


# -------------------------------------------------------------------------- scene files

def test_scene_literals_at_the_limit_are_read(tmp_path: Path) -> None:
    # a long decimal fraction of exactly SCENE_MAX_NUMBER_CHARS characters is a number
    radius = "2." + "0" * (SCENE_MAX_NUMBER_CHARS - 2)
    for suffix, text in ((".json", '{"bodies": [{"radius": %s, "position": [0, 10], '
                                   '"displacement": [0, -30]}], "planes": [{"y": 0}]}'),
                         (".toml", "[[bodies]]\nradius = %s\nposition = [0, 10]\n"
                                   "displacement = [0, -30]\n[[planes]]\ny = 0\n")):
        path = tmp_path / f"s{suffix}"
        path.write_text(text % radius)
        (scene,) = load_scenes(path)
        assert scene.bodies[0].radius == 2.0
        path.write_text(text % (radius + "0"))
        with pytest.raises(SceneError, match=f"{SCENE_MAX_NUMBER_CHARS + 1} characters long"):
            load_scenes(path)


def test_a_long_digit_string_in_toml_is_text_not_a_number(tmp_path: Path) -> None:
    path = tmp_path / "s.toml"
    digits = "1" * (2 * SCENE_MAX_NUMBER_CHARS)
    path.write_text(f'name = "{digits}"\n# {digits}\n[[bodies]]\nradius = 1\n'
                    "position = [0, 0]\ndisplacement = [1, 0]\n")
    (scene,) = load_scenes(path)
    assert scene.name == digits


def test_a_huge_number_within_the_size_cap_fails_fast(tmp_path: Path) -> None:
    """A 1 GB TOML number grew to 23.8 GB before the system killed it, and 15 MB of digits
    still took tomllib 2 GB: the literal is now found by one scan and refused before any
    parser converts it."""
    for suffix, text in ((".json", '{"bodies": [{"radius": %s}]}'), (".toml", "radius = %s\n")):
        path = tmp_path / f"huge{suffix}"
        path.write_text(text % ("7" * (SCENE_MAX_FILE_BYTES - 100)))
        started = time.perf_counter()
        with pytest.raises(SceneError, match="characters long: expected at most 400"):
            load_scenes(path)
        assert time.perf_counter() - started < 10.0


def test_the_body_cap_counts_every_scene(tmp_path: Path) -> None:
    half = SCENE_MAX_BODIES // 2
    path = tmp_path / "s.json"
    first, second = [_body_json(0)] * half, [_body_json(0)] * (SCENE_MAX_BODIES - half)
    path.write_text(_scene_json(first, second))
    assert sum(len(s.bodies) for s in load_scenes(path)) == SCENE_MAX_BODIES
    # one more, a plane of the second scene: over the cap, and named there
    path.write_text(_scene_json(first, second)[:-3] + ', "planes": [{"y": 0}]}]}')
    with pytest.raises(SceneError, match=r"scenes\[1\]\.planes: too many bodies and planes"):
        load_scenes(path)


# ------------------------------------------------------------------------------ progress

def test_progress_is_quiet_for_short_work_and_ends_with_the_total(
        monkeypatch: pytest.MonkeyPatch) -> None:
    quiet = io.StringIO()
    bar = cli.Progress("demo", 10, "steps", quiet)
    for i in range(10):
        bar.update(i + 1)
    bar.close()
    assert quiet.getvalue() == ""
    monkeypatch.setattr(cli, "PROGRESS_AFTER", 0.0)
    monkeypatch.setattr(cli, "PROGRESS_EVERY", 1e9)
    shown = io.StringIO()
    bar = cli.Progress("demo", 1000, "steps", shown)
    bar.update(3)
    bar.update(500)  # too soon for another line
    bar.close()
    lines = shown.getvalue().splitlines()
    assert lines[0].startswith("swept: demo: 3/1,000 steps (0%), ")
    assert lines[1].startswith("swept: demo: 1,000/1,000 steps (100%), ")
    assert len(lines) == 2
    # work stopped by an error: no line claims it all done
    failed = io.StringIO()
    bar = cli.Progress("demo", 1000, "steps", failed)
    bar.update(3)
    bar.close(complete=False)
    assert failed.getvalue().splitlines() == [
        line for line in failed.getvalue().splitlines() if "(0%)" in line]
    assert len(failed.getvalue().splitlines()) == 1


class _Terminal(io.StringIO):
    """A stream that says it is a terminal."""

    def isatty(self) -> bool:
        return True


def test_a_terminal_gets_a_tqdm_bar_and_a_log_gets_lines(
        monkeypatch: pytest.MonkeyPatch) -> None:
    """On a terminal with tqdm installed the progress is a tqdm bar (drawn with carriage
    returns); any other stream (a log, CI's output) keeps the plain lines."""
    pytest.importorskip("tqdm")
    monkeypatch.setattr(cli, "PROGRESS_AFTER", 0.0)
    tty = _Terminal()
    bar = cli.Progress("demo", 1000, "steps", tty)
    assert bar.bar is not None
    bar.update(250)
    bar.close()
    text = tty.getvalue()
    assert "swept: demo" in text and "1000/1000" in text and "\r" in text
    log = io.StringIO()
    lines = cli.Progress("demo", 1000, "steps", log)
    assert lines.bar is None
    lines.update(1000)
    lines.close()
    assert log.getvalue().startswith("swept: demo: 1,000/1,000 steps (100%), ")


def test_a_long_demo_run_shows_progress(capsys: pytest.CaptureFixture[str],
                                        monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(cli, "PROGRESS_AFTER", 0.0)
    monkeypatch.setattr(cli, "PROGRESS_EVERY", 0.0)
    status = cli.main(["demo", "bullet-time", "--headless", "--steps", "120"])
    captured = capsys.readouterr()
    assert status == 0 and captured.out.startswith("naive test: caught")
    assert captured.err.splitlines()[-1].startswith("swept: bullet-time: 120/120 steps (100%)")
    assert len(captured.err.splitlines()) == 120 // cli.STEPS_PER_CHUNK + 1


def test_a_long_scene_shows_progress(capsys: pytest.CaptureFixture[str], tmp_path: Path,
                                     monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(cli, "PROGRESS_AFTER", 0.0)
    monkeypatch.setattr(cli, "PROGRESS_EVERY", 0.0)
    status = cli.main(["scene"])
    captured = capsys.readouterr()
    assert status == 0
    assert captured.err.splitlines() == [
        "swept: scene: 1/3 bodies (33%), 0 s", "swept: scene: 2/3 bodies (66%), 0 s",
        "swept: scene: 3/3 bodies (100%), 0 s"]


def test_heartbeat_beats_while_the_work_runs() -> None:
    stream = io.StringIO()
    with cli.Heartbeat("bench x", every=0.01, stream=stream):
        time.sleep(0.1)
    lines = stream.getvalue().splitlines()
    assert lines and all(l.startswith("swept: bench x: still running, ") for l in lines)
    count = len(lines)
    time.sleep(0.05)
    assert len(stream.getvalue().splitlines()) == count  # stopped with the block


# --------------------------------------------------------------------------------- help

def _every_help(parser: argparse.ArgumentParser) -> Iterator[str]:
    yield parser.format_help()
    for action in parser._actions:
        if isinstance(action, argparse._SubParsersAction):
            for sub in action.choices.values():
                yield from _every_help(sub)


def test_help_text_has_no_jargon_and_no_markup(capsys: pytest.CaptureFixture[str]) -> None:
    """The help said "seed 000" with no explanation and showed raw reStructuredText."""
    from swept import bench

    texts = list(_every_help(cli.build_parser()))
    assert bench.main(["--help"]) == 0
    texts.append(capsys.readouterr().out)
    assert "--json PATH.json" in texts[-1]
    for text in texts:
        assert "seed 0" not in text
        assert "``" not in text and ":func:" not in text and ":data:" not in text
