"""``swept bench`` works on every run, not only the first: the real command run twice in a
subprocess (on a small script with a ``cache=True`` kernel, and on the real world_rays
benchmark), a stale cache from an older swept recovered, the missing peers named with how to
install them, and the JSON written (no NaN) or status 2."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

import pytest

import swept
from swept import bench

#: The folder holding this checkout's ``swept`` package (the subprocesses import it).
SRC = str(Path(swept.__file__).resolve().parents[1])

#: A benchmark script with a numba kernel cached on disk, as the real ones have.
SCRIPT = '''
import numba


@numba.njit(cache=True)
def twice(x):
    return 2.0 * x


def run(quick):
    return {"twice": twice(21.0), "quick": quick, "ratio_vs_missing_peer": float("nan")}
'''

#: How swept before this fix loaded a script: by path, not registered in ``sys.modules``.
OLD_LOADER = '''
import importlib.util, sys
spec = importlib.util.spec_from_file_location("_swept_bench_bench_threads", sys.argv[1])
module = importlib.util.module_from_spec(spec)
spec.loader.exec_module(module)
print(module.run(True))
'''


def swept_bench(*argv: str, scripts: Path | None = None, timeout: float = 600
                ) -> subprocess.CompletedProcess[str]:
    """Run ``python -m swept bench ARGV`` (the real command) in a subprocess."""
    env = {**os.environ, "PYTHONPATH": SRC + os.pathsep + os.environ.get("PYTHONPATH", "")}
    if scripts is not None:
        env["SWEPT_BENCHMARKS_DIR"] = str(scripts)
    return subprocess.run([sys.executable, "-m", "swept", "bench", *argv],
                          capture_output=True, text=True, timeout=timeout, env=env)


@pytest.fixture
def scripts(tmp_path: Path) -> Path:
    """A benchmarks folder holding :data:`SCRIPT` as ``bench_threads.py``."""
    folder = tmp_path / "benchmarks"
    folder.mkdir()
    (folder / "bench_threads.py").write_text(SCRIPT)
    return folder


def test_bench_runs_twice_with_its_cache(scripts: Path, tmp_path: Path) -> None:
    """numba caches a ``cache=True`` kernel with the name of its module; a script loaded by
    path and not registered in ``sys.modules`` was cached as module ``<dynamic>``, so every
    run after the first failed with ``ModuleNotFoundError: No module named '<dynamic>'``."""
    out = tmp_path / "bench.json"
    for _ in range(2):
        done = swept_bench("--quick", "--only", "threads", "--json", str(out), scripts=scripts)
        assert done.returncode == 0, done.stdout + done.stderr
        assert "failed" not in done.stdout and "Traceback" not in done.stderr
        assert "stale" not in done.stdout  # the cache of the first run is loaded as it is
        result = json.loads(out.read_text())
        assert result["benchmarks"]["threads"] == {"twice": 42.0, "quick": True,
                                                   "ratio_vs_missing_peer": None}
        assert result["failed"] == {} and result["skipped"] == {}
    assert list((scripts / "__pycache__").glob("bench_threads.twice-*.nbi"))


def test_bench_recovers_from_a_cache_an_older_swept_wrote(scripts: Path,
                                                          tmp_path: Path) -> None:
    """A cache written by the old loader names the module ``<dynamic>``: the script is
    unchanged, so numba would keep loading it; swept bench deletes it and compiles again."""
    script = scripts / "bench_threads.py"
    for _ in range(2):  # the second run fails as it did before the fix
        old = subprocess.run([sys.executable, "-c", OLD_LOADER, str(script)],
                             capture_output=True, text=True, timeout=300)
    assert "No module named '<dynamic>'" in old.stderr
    out = tmp_path / "bench.json"
    for note in (True, False):
        done = swept_bench("--quick", "--only", "threads", "--json", str(out), scripts=scripts)
        assert done.returncode == 0, done.stdout + done.stderr
        assert ("deleted a stale numba cache" in done.stdout) == note
        assert json.loads(out.read_text())["benchmarks"]["threads"]["twice"] == 42.0


def test_the_real_world_rays_benchmark_runs_twice(tmp_path: Path) -> None:
    """The real script (with its own compiled kernels), run twice by the real command: no
    test ran the real scripts, so a cache bug went unseen."""
    if not (bench.benchmarks_dir() / "bench_world_rays.py").exists():
        pytest.skip("the benchmarks live in a source checkout")
    out = tmp_path / "bench.json"
    for _ in range(2):
        done = swept_bench("--quick", "--only", "world_rays", "--json", str(out))
        assert done.returncode == 0, done.stdout + done.stderr
        result = json.loads(out.read_text())
        assert result["failed"] == {}
        sizes = result["benchmarks"]["world_rays"]["sizes"]
        assert [row["segments"] for row in sizes] == [1_000, 10_000]
        assert all(row["agreement_with_grid"]["swept_batch"] == 1.0 for row in sizes)
        assert "nan" not in done.stdout and "stale" not in done.stdout


def test_missing_peers_are_named_with_how_to_install_them(
        scripts: Path, tmp_path: Path, capsys: pytest.CaptureFixture[str],
        monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setitem(sys.modules, "pymunk", None)  # as if not installed
    monkeypatch.setenv("SWEPT_BENCHMARKS_DIR", str(scripts))
    assert "pymunk" in bench.missing_peers()
    out = tmp_path / "bench.json"
    assert bench.main(["--quick", "--only", "threads", "--json", str(out)]) == 0
    first = capsys.readouterr().out.splitlines()[0]
    assert first.startswith("peer engines not installed: pymunk")
    assert first.endswith('(install them with: pip install -e ".[bench]")')
    assert "pymunk" in json.loads(out.read_text())["missing_peers"]


def test_world_rays_table_without_pymunk_says_so() -> None:
    """Without pymunk the ratio was NaN, printed as "batch is nanx pymunk"."""
    path = bench.benchmarks_dir() / "bench_world_rays.py"
    if not path.exists():
        pytest.skip("the benchmarks live in a source checkout")
    module = bench._load(path)
    row = {"segments": 1000, "us_per_ray": {"swept_batch": 0.1, "grid": 0.2},
           "agreement_with_grid": {}, "batch_vs_pymunk": None, "batch_vs_grid": 2.0,
           "batch_1_thread_vs_pymunk": None, "batch_1_thread_vs_grid": 1.5, "hit_rate": 0.9}
    import contextlib
    import io

    text = io.StringIO()
    with contextlib.redirect_stdout(text):
        module.print_table({"sizes": [row], "machine": {"threads": 1},
                            "load_average_1min": 0.0})
    assert "nan" not in text.getvalue()
    assert 'pymunk is not installed: pip install -e ".[bench]"' in text.getvalue()


def test_a_failing_benchmark_is_recorded_and_the_json_still_written(
        tmp_path: Path, capsys: pytest.CaptureFixture[str],
        monkeypatch: pytest.MonkeyPatch) -> None:
    folder = tmp_path / "benchmarks"
    folder.mkdir()
    (folder / "bench_threads.py").write_text("def run(quick):\n    raise RuntimeError('x')\n")
    monkeypatch.setenv("SWEPT_BENCHMARKS_DIR", str(folder))
    out = tmp_path / "bench.json"
    assert bench.main(["--only", "threads", "--only", "sim", "--json", str(out)]) == 1
    result = json.loads(out.read_text())
    assert result["failed"] == {"threads": "failed: RuntimeError: x"}
    assert "sim" in result["skipped"]


def test_the_default_json_folder_unwritable_is_status_2(
        tmp_path: Path, capsys: pytest.CaptureFixture[str],
        monkeypatch: pytest.MonkeyPatch) -> None:
    blocker = tmp_path / "benchmarks"
    blocker.mkdir()
    (blocker / "results").write_text("a file where the folder should be")
    monkeypatch.setenv("SWEPT_BENCHMARKS_DIR", str(blocker))
    assert bench.main(["--quick"]) == 2
    captured = capsys.readouterr()
    assert captured.out == ""
    assert captured.err.startswith("swept bench: error: cannot write ")
    assert captured.err.count("\n") == 1


def test_every_benchmark_with_a_run_function_is_registered() -> None:
    """`swept bench` runs the scripts its table names: a script that gains `run(quick)` but is
    left out of the table is never run side by side with the others (bench_tilemap and
    bench_dask_rays were)."""
    folder = bench.benchmarks_dir()
    if not folder.exists():
        pytest.skip("the benchmarks live in a source checkout")
    with_run = {p.name for p in folder.glob("bench_*.py")
                if "\ndef run(quick: bool = False" in p.read_text()}
    assert with_run == set(bench.BENCHMARKS.values())


def test_no_benchmark_script_caches_its_kernels() -> None:
    """numba's cache names the module a kernel was compiled in, and a script runs under two
    names (`python benchmarks/x.py` as ``__main__``, `swept bench` as ``_swept_bench_x``): a
    cache one of them wrote made the other fail with ModuleNotFoundError, so the scripts'
    own kernels compile on every run."""
    folder = bench.benchmarks_dir()
    if not folder.exists():
        pytest.skip("the benchmarks live in a source checkout")
    caching = sorted(p.name for p in folder.glob("*.py") if "cache=True" in p.read_text())
    assert caching == []
