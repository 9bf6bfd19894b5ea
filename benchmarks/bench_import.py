"""Start-up cost: ``import swept``, ``swept --help``, and a first query, cold and warm.

Issue 14 asks that ``import swept`` take at most 0.3 s with a warm cache, that ``swept
--help`` not import numba, and that the README state the measured cold and warm times of a
first query. Every figure comes from fresh interpreters (``--runs`` of each, minimum and
median, wall-clock):

- ``import swept``: the package alone (numba and the kernels load on first use);
- ``swept --help``: the whole command, interpreter start-up included (``python -m swept``);
- ``first query, warm``: ``import swept`` plus one ray cast against a circle, with numba's
  on-disk cache warm (numba's import and loading the ray kernels from the cache included);
- ``first query, cold``: the same in a copy of ``src/swept`` with an empty cache (the first
  run after an install: the ray family compiles), measured once per run of this script
  unless ``--cold-runs`` says more;
- ``python`` alone, the floor under the two whole-interpreter figures.

Prints the table and writes ``benchmarks/results/import.json``.

Run: python benchmarks/bench_import.py [--runs 7] [--cold-runs 1]
"""

from __future__ import annotations

import argparse
import json
import os
import shutil
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

SRC = Path(__file__).resolve().parent.parent / "src"

IMPORT = """
import time
t0 = time.perf_counter()
import swept
t1 = time.perf_counter()
import sys
assert "numba" not in sys.modules
print(t1 - t0)
"""

FIRST_QUERY = """
import time
t0 = time.perf_counter()
import swept
hit = swept.raycast(swept.Ray((0, 0), (1, 0)), swept.Circle((5, 0), 1))
t1 = time.perf_counter()
assert hit is not None and hit.distance == 4.0
print(t1 - t0)
"""


def _env(src: Path) -> dict[str, str]:
    env = dict(os.environ)
    env["PYTHONPATH"] = str(src)
    env["SWEPT_COMPILE_NOTICE"] = "0"
    env.pop("NUMBA_CACHE_DIR", None)
    return env


def _probe(code: str, src: Path) -> float:
    """Seconds the probe ``code`` prints, run in a fresh interpreter."""
    out = subprocess.run([sys.executable, "-c", code], check=True, capture_output=True,
                         text=True, env=_env(src)).stdout
    return float(out.split()[-1])


def _whole(args: list[str], src: Path) -> float:
    """Wall-clock seconds of a whole fresh interpreter running ``args``."""
    start = time.perf_counter()
    subprocess.run([sys.executable, *args], check=True, capture_output=True, env=_env(src))
    return time.perf_counter() - start


def _cold_first_query() -> float:
    """A first query in a copy of the package with no compiled kernels on disk."""
    with tempfile.TemporaryDirectory() as tmp:
        copy = Path(tmp) / "swept"
        shutil.copytree(SRC / "swept", copy,
                        ignore=shutil.ignore_patterns("__pycache__", "*.nbi", "*.nbc"))
        return _probe(FIRST_QUERY, Path(tmp))


def main() -> None:
    """Measure and print the start-up table; write JSON to benchmarks/results/import.json."""
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--runs", type=int, default=7, help="fresh interpreters per figure")
    parser.add_argument("--cold-runs", type=int, default=1,
                        help="cold first queries (each compiles the ray kernels)")
    args = parser.parse_args()
    if not 1 <= args.runs <= 1000 or not 0 <= args.cold_runs <= 100:
        parser.error("--runs must be 1 to 1000 and --cold-runs 0 to 100")
    _probe(FIRST_QUERY, SRC)  # warm numba's cache (and the OS's file cache)
    figures: dict[str, list[float]] = {
        "python alone": [_whole(["-c", "pass"], SRC) for _ in range(args.runs)],
        "import swept": [_probe(IMPORT, SRC) for _ in range(args.runs)],
        "swept --help (whole command)": [_whole(["-m", "swept", "--help"], SRC)
                                         for _ in range(args.runs)],
        "first query, warm": [_probe(FIRST_QUERY, SRC) for _ in range(args.runs)],
    }
    if args.cold_runs:
        figures["first query, cold"] = [_cold_first_query() for _ in range(args.cold_runs)]
    print(f"{'part':30s} {'min s':>8s} {'median s':>9s}")
    result = {}
    for name, values in figures.items():
        print(f"{name:30s} {min(values):8.3f} {statistics.median(values):9.3f}")
        result[name] = {"min": min(values), "median": statistics.median(values),
                        "runs": len(values)}
    out_dir = Path(__file__).parent / "results"
    out_dir.mkdir(exist_ok=True)
    (out_dir / "import.json").write_text(json.dumps(result, indent=2))


if __name__ == "__main__":
    main()
