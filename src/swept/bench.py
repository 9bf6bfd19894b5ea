"""``swept bench``: every benchmark side by side in one run, a table each, and one JSON file.

Each benchmark is a script in the repository's ``benchmarks/`` folder with a ``run(quick)``
function returning a JSON-ready dict (and, optionally, ``print_table(result)``). They are
loaded by path, so the scripts stay runnable on their own; a missing script is skipped with a
note. ``--quick`` runs the small sizes (CI smoke tests); ``--only NAME`` runs one; ``--json
PATH`` chooses the combined output (default ``benchmarks/results/bench.json``, gitignored).

A script loaded by path is registered in ``sys.modules`` under its own name before it runs:
numba's on-disk cache of a ``cache=True`` kernel defined in the script records the module by
name, and a module missing there is recorded as ``<dynamic>``, which the next run cannot
import (``ModuleNotFoundError: No module named '<dynamic>'``). Peer engines (pymunk, Box2D,
python-fcl) are optional: the run names the missing ones and how to install them, and their
columns are left out. Bad arguments, or a JSON path that cannot be written (checked before any
benchmark runs), exit with status 2 and one line on stderr; a benchmark that fails is recorded
and the run exits with status 1.
"""

from __future__ import annotations

import argparse
import importlib.util
import json
import math
import os
import sys
import time
from pathlib import Path
from types import ModuleType
from typing import Any

from .cli import EXIT_USAGE, Heartbeat, Parser, UsageError, check_writable

__all__ = ["BENCHMARKS", "main", "benchmarks_dir"]

#: The benchmarks ``swept bench`` runs, by name, with their scripts in ``benchmarks/``.
BENCHMARKS = {
    "world_rays": "bench_world_rays.py",
    "sim": "bench_sim.py",
    "broadphase": "bench_broadphase.py",
    "threads": "bench_threads.py",
    "settle": "bench_settle.py",
    "world_sweep": "bench_world_sweep.py",
    "world_bulk": "bench_world_bulk.py",
    "tilemap": "bench_tilemap.py",
    "dask_rays": "bench_dask_rays.py",
    "kinematic": "bench_kinematic.py",
    "sim_shapes": "bench_sim_shapes.py",
    "fresh_rays": "bench_fresh_rays.py",
}

#: The peer engines the benchmarks compare against: import name, then the package to install.
PEERS = {"pymunk": "pymunk", "Box2D": "box2d", "fcl": "python-fcl"}


def benchmarks_dir() -> Path:
    """The folder of the benchmark scripts: ``SWEPT_BENCHMARKS_DIR`` if set, else the
    repository's ``benchmarks/`` folder (next to ``src/``)."""
    chosen = os.environ.get("SWEPT_BENCHMARKS_DIR")
    if chosen:
        return Path(chosen)
    return Path(__file__).resolve().parents[2] / "benchmarks"


def _forget(path: Path) -> int:
    """Unload the script at ``path`` and delete numba's cache of its kernels (those an older
    swept wrote under the module name ``<dynamic>``); returns how many files went."""
    sys.modules.pop(f"_swept_bench_{path.stem}", None)
    gone = 0
    for cached in path.parent.glob(f"__pycache__/{path.stem}.*.nb[ic]"):
        cached.unlink(missing_ok=True)
        gone += 1
    return gone


def _load(path: Path) -> ModuleType:
    """Import a benchmark script by its path, registered in ``sys.modules`` (so numba's cache
    of the script's ``cache=True`` kernels names a module the next run can import)."""
    name = f"_swept_bench_{path.stem}"
    spec = importlib.util.spec_from_file_location(name, path)
    if spec is None or spec.loader is None:
        raise ImportError(f"cannot load {path}")
    module = importlib.util.module_from_spec(spec)
    sys.modules[name] = module
    try:
        spec.loader.exec_module(module)
    except BaseException:
        del sys.modules[name]
        raise
    return module


def missing_peers() -> list[str]:
    """The peer engines not installed, by the package name to install."""
    missing = []
    for module, package in PEERS.items():
        try:
            found = importlib.util.find_spec(module) is not None
        except (ImportError, ValueError):  # a broken install, or one blocked in sys.modules
            found = False
        if not found:
            missing.append(package)
    return missing


def _finite(value: Any) -> Any:
    """``value`` with every NaN or infinity replaced by None (null: JSON has no NaN)."""
    if isinstance(value, float) and not math.isfinite(value):
        return None
    if isinstance(value, dict):
        return {k: _finite(v) for k, v in value.items()}
    if isinstance(value, (list, tuple)):
        return [_finite(v) for v in value]
    return value


def _print_generic(result: Any) -> None:
    """A result with no table of its own, as indented JSON."""
    print(json.dumps(result, indent=2, default=str))


def _parse(argv: list[str]) -> argparse.Namespace:
    """The arguments (raises :class:`swept.cli.UsageError` for bad ones)."""
    parser = Parser(prog="swept bench",
                    description="Run every benchmark (or those named with --only), print a "
                                "table each and write one JSON file. Peer engines (pymunk, "
                                "Box2D, python-fcl) are optional: pip install -e \".[bench]\".")
    parser.add_argument("--quick", action="store_true", help="small sizes (a smoke test)")
    parser.add_argument("--only", choices=sorted(BENCHMARKS), action="append",
                        help="run only this benchmark (repeatable)")
    parser.add_argument("--json", default=None, metavar="PATH.json",
                        help="where to write the combined results (default "
                             "benchmarks/results/bench.json)")
    args = parser.parse_args(argv)
    if args.json is not None:
        if Path(args.json).suffix.lower() != ".json":
            parser.error(f"--json: cannot write {args.json!r}: the name must end in .json")
        try:
            args.json = check_writable(args.json)
        except argparse.ArgumentTypeError as exc:
            parser.error(f"--json: {exc}")
    return args


def main(argv: list[str]) -> int:
    """Run the benchmarks named in ``argv`` (all by default); returns the exit status: 0, 1
    when one of them failed (the others still run), 2 for bad arguments or a JSON file that
    cannot be written."""
    try:
        args = _parse(argv)
    except UsageError as exc:
        print(exc, file=sys.stderr)
        return EXIT_USAGE
    except SystemExit as exc:  # --help
        return int(exc.code or 0) if not isinstance(exc.code, str) else EXIT_USAGE
    folder = benchmarks_dir()
    out = args.json or folder / "results" / "bench.json"
    if args.json is None:
        try:
            out.parent.mkdir(parents=True, exist_ok=True)
            check_writable(out)
        except (OSError, argparse.ArgumentTypeError) as exc:
            print(f"swept bench: error: cannot write {out} (choose another with --json): "
                  f"{exc}", file=sys.stderr)
            return EXIT_USAGE
    names = args.only or list(BENCHMARKS)
    missing = missing_peers()
    combined: dict[str, Any] = {"quick": args.quick, "missing_peers": missing,
                                "benchmarks": {}, "skipped": {}, "failed": {}}
    if missing:
        print(f"peer engines not installed: {', '.join(missing)}; their columns are left out "
              f"(install them with: pip install -e \".[bench]\")")
    for name in names:
        path = folder / BENCHMARKS[name]
        print(f"== {name} ({BENCHMARKS[name]}){' --quick' if args.quick else ''}", flush=True)
        if not path.exists():
            note = f"{path} is missing (the benchmarks live in a source checkout)"
            print(f"   skipped: {note}")
            combined["skipped"][name] = note
            continue
        t0 = time.perf_counter()
        try:
            with Heartbeat(f"bench {name}"):
                try:
                    module = _load(path)
                    result = module.run(args.quick)
                except ModuleNotFoundError as exc:
                    if exc.name != "<dynamic>" or not _forget(path):
                        raise
                    # a cache written by an older swept: deleted, so compile once more
                    print("   (deleted a stale numba cache of this script; compiling again)")
                    module = _load(path)
                    result = module.run(args.quick)
        except ImportError as exc:
            note = f"cannot import it: {exc}"
            print(f"   skipped: {note}")
            combined["skipped"][name] = note
            continue
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
        print(f"   ({seconds:.1f} s)", flush=True)
        combined["benchmarks"][name] = result
    try:
        out.write_text(json.dumps(_finite(combined), indent=2, default=str,
                                  allow_nan=False) + "\n")
    except OSError as exc:
        print(f"swept bench: error: --json: cannot write {str(out)!r} "
              f"({exc.strerror or exc})", file=sys.stderr)
        return EXIT_USAGE
    print(f"results written to {out}")
    return 1 if combined["failed"] else 0
