"""``swept bench``: every benchmark side by side in one run, a table each, and one JSON file.

Each benchmark is a script in the repository's ``benchmarks/`` folder with a ``run(quick)``
function returning a JSON-ready dict (and, optionally, ``print_table(result)``). They are
loaded by path, so the scripts stay runnable on their own; a missing script is skipped with a
note. ``--quick`` runs the small sizes (CI smoke tests); ``--only NAME`` runs one; ``--json
PATH`` chooses the combined output (default ``benchmarks/results/bench.json``, gitignored).
"""

from __future__ import annotations

import argparse
import importlib.util
import json
import sys
import time
from pathlib import Path
from types import ModuleType
from typing import Any

__all__ = ["BENCHMARKS", "main", "benchmarks_dir"]

#: The benchmarks ``swept bench`` runs, by name, with their scripts in ``benchmarks/``.
BENCHMARKS = {
    "world_rays": "bench_world_rays.py",
    "sim": "bench_sim.py",
    "broadphase": "bench_broadphase.py",
    "threads": "bench_threads.py",
}


def benchmarks_dir() -> Path:
    """The repository's ``benchmarks/`` folder (next to ``src/``)."""
    return Path(__file__).resolve().parents[2] / "benchmarks"


def _load(path: Path) -> ModuleType:
    """Import a benchmark script by its path."""
    spec = importlib.util.spec_from_file_location(f"_swept_bench_{path.stem}", path)
    if spec is None or spec.loader is None:
        raise ImportError(f"cannot load {path}")
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


def _print_generic(result: Any) -> None:
    """A result with no table of its own, as indented JSON."""
    print(json.dumps(result, indent=2, default=str))


def main(argv: list[str]) -> int:
    """Run the benchmarks named in ``argv`` (all by default); returns the exit status (1 when
    one of them failed; the others still run)."""
    parser = argparse.ArgumentParser(prog="swept bench", description=__doc__.splitlines()[0])
    parser.add_argument("--quick", action="store_true", help="small sizes (a smoke test)")
    parser.add_argument("--only", choices=sorted(BENCHMARKS), action="append",
                        help="run only this benchmark (repeatable)")
    parser.add_argument("--json", type=Path, default=None, metavar="PATH",
                        help="where to write the combined results")
    args = parser.parse_args(argv)
    folder = benchmarks_dir()
    names = args.only or list(BENCHMARKS)
    combined: dict[str, Any] = {"quick": args.quick, "benchmarks": {}, "skipped": {},
                                "failed": {}}
    for name in names:
        path = folder / BENCHMARKS[name]
        print(f"== {name} ({BENCHMARKS[name]}){' --quick' if args.quick else ''}")
        if not path.exists():
            note = f"{path} is missing (the benchmarks live in a source checkout)"
            print(f"   skipped: {note}")
            combined["skipped"][name] = note
            continue
        try:
            module = _load(path)
        except ImportError as exc:
            note = f"cannot import it: {exc}"
            print(f"   skipped: {note}")
            combined["skipped"][name] = note
            continue
        t0 = time.perf_counter()
        try:
            result = module.run(args.quick)
        except Exception as exc:  # noqa: BLE001 - one failing benchmark must not stop the rest
            note = f"failed: {type(exc).__name__}: {exc}"
            print(f"   {note}")
            combined["failed"][name] = note
            continue
        seconds = time.perf_counter() - t0
        table = getattr(module, "print_table", None)
        if callable(table):
            table(result)
        else:
            _print_generic(result)
        print(f"   ({seconds:.1f} s)")
        combined["benchmarks"][name] = result
    out = args.json or folder / "results" / "bench.json"
    try:
        out.parent.mkdir(parents=True, exist_ok=True)
        out.write_text(json.dumps(combined, indent=2, default=str) + "\n")
        print(f"results written to {out}")
    except OSError as exc:
        print(f"could not write {out}: {exc}", file=sys.stderr)
    return 1 if combined["failed"] else 0
