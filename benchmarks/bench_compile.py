"""Cold compile time: every kernel a user's first session meets, compiled from an empty cache.

Issue 11 asks that compiling every kernel from a cold cache (a fresh clone) take at most 60 s
on the project's 2-core machine. numba compiles a kernel on its first call and keeps the
machine code in ``__pycache__`` beside the sources, so a fresh clone pays once. This script
copies ``src/swept`` into a temporary directory (an empty cache), runs a *tour* in a fresh
interpreter that calls every family of kernels once (``swept.warmup.FAMILIES``: ray casts on
every shape, sweeps, contacts, distances, times of impact, manifolds, the World's scalar and
batch queries in 2D and 3D, the Simulation in every mode with ball and shape bodies,
move_and_slide, resolve, tile maps, triangle meshes and height fields), then runs the same tour
again (a warm cache). Cold minus warm is the compile time. Prints both, wall-clock and CPU (the
CPU figure does not grow when other processes share the cores), and writes
``benchmarks/results/compile.json``.

``--breakdown`` also records every compile of both tours (a ``numba:compile`` event listener)
and prints where the cold tour's compile time goes: seconds of CPU per module and per kernel
(exclusive: a compile minus the compiles nested in it), each kernel's number of compiled
signatures (more than one is a duplicate: a literal argument, a read-only array beside a
writable one), and the warm tour's compile count, which must be 0 (everything loaded from the
disk cache).

``--warmup`` also times ``swept warmup`` (the same families, one process a family, as many at
once as there are cores) from another empty cache: the wall-clock time a fresh install waits
when it compiles ahead on every core.

Run: python benchmarks/bench_compile.py [--breakdown [--save PATH]] [--warmup]
"""

from __future__ import annotations

import argparse
import collections
import json
import os
import resource
import shutil
import subprocess
import sys
import tempfile
import time
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parent.parent

#: Every kernel family once: the families of ``swept warmup`` (:data:`swept.warmup.FAMILIES`),
#: run one after another in one interpreter.
TOUR = r"""
from swept.warmup import FAMILIES, run_families
run_families(list(FAMILIES))
"""


#: Run before the tour with ``--breakdown``: records each compile (its CPU seconds inclusive and
#: exclusive of the compiles nested in it, and the exclusive seconds by phase: each numba
#: compiler pass, and LLVM's function passes, module passes and machine-code emission timed
#: inside the lowering pass; the compile it is nested in, its ``parent``) and writes them as
#: JSON to $SWEPT_COMPILE_RECORD.
RECORDER = r"""
import atexit, json, os, time
from numba.core import codegen, event

_stack, _records = [], []


def _enter(label, kernel=None):
    _stack.append([label, time.process_time(), 0.0, {}, kernel])


def _leave():
    label, start, nested, phases, _kernel = _stack.pop()
    spent = time.process_time() - start
    if _stack:
        _stack[-1][2] += spent
    return label, spent, spent - nested, phases


def _charge(label, seconds):
    # a phase's exclusive seconds go to the innermost compile on the stack
    for frame in reversed(_stack):
        if frame[0] is None:
            frame[3][label] = frame[3].get(label, 0.0) + seconds
            return


def _name(ev):
    fn = ev.data["dispatcher"].py_func
    return fn.__module__ + "." + fn.__qualname__


class _Compiles(event.Listener):
    def on_start(self, ev):
        _enter(None, _name(ev))

    def on_end(self, ev):
        _label, spent, exclusive, phases = _leave()
        # the compile that asked for this one (None: a call from Python)
        parent = next((f[4] for f in reversed(_stack) if f[4] is not None), None)
        phases["other"] = phases.get("other", 0.0) + exclusive  # outside any pass
        _records.append({"kernel": _name(ev), "parent": parent,
                         "signature": ", ".join(str(a) for a in ev.data["args"]),
                         "inclusive": spent, "exclusive": sum(phases.values()),
                         "phases": phases})


class _Passes(event.Listener):
    def on_start(self, ev):
        _enter(ev.data["name"])

    def on_end(self, ev):
        label, _spent, exclusive, _phases = _leave()
        _charge(label, exclusive)


def _timing(cls, name, label):
    original = getattr(cls, name)

    def timed(self, *args, **kwargs):
        _enter(label)
        try:
            return original(self, *args, **kwargs)
        finally:
            _charge(*_leave()[0:3:2])

    setattr(cls, name, timed)


_timing(codegen.CPUCodeLibrary, "add_llvm_module", "llvm: function passes")
_timing(codegen.CPUCodeLibrary, "_optimize_final_module", "llvm: module passes")
_timing(codegen.JITCodeLibrary, "_finalize_specific", "llvm: machine code")
event.register("numba:compile", _Compiles())
event.register("numba:run_pass", _Passes())
atexit.register(lambda: open(os.environ["SWEPT_COMPILE_RECORD"], "w").write(
    json.dumps(_records)))
"""


def _timed(argv: list[str], env: dict[str, str]) -> tuple[float, float]:
    """Wall-clock and CPU seconds (its own and its children's) of the command ``argv``."""
    before = resource.getrusage(resource.RUSAGE_CHILDREN)
    start = time.perf_counter()
    subprocess.run(argv, check=True, env=env)
    wall = time.perf_counter() - start
    after = resource.getrusage(resource.RUSAGE_CHILDREN)
    return wall, (after.ru_utime - before.ru_utime) + (after.ru_stime - before.ru_stime)


def run_warmup(pythonpath: str) -> tuple[float, float]:
    """Wall-clock and CPU seconds of ``swept warmup`` on every core with ``pythonpath``
    first."""
    return _timed([sys.executable, "-m", "swept", "warmup"],
                  dict(os.environ, PYTHONPATH=pythonpath))


def run_tour(pythonpath: str, record: str | None = None) -> tuple[float, float]:
    """Wall-clock and CPU seconds a fresh interpreter takes to run the tour with
    ``pythonpath`` first (recording its compiles to the file ``record`` if given)."""
    env = dict(os.environ, PYTHONPATH=pythonpath)
    code = TOUR
    if record is not None:
        env["SWEPT_COMPILE_RECORD"] = record
        code = RECORDER + TOUR
    return _timed([sys.executable, "-c", code], env)


def print_breakdown(cold: list[dict[str, Any]], warm: list[dict[str, Any]],
                    top: int = 25) -> None:
    """Print where the cold tour's compile time went (CPU s, exclusive) and the warm count."""
    total = sum(float(r["exclusive"]) for r in cold)
    print(f"\n{len(cold)} compiles, {total:.1f} s of CPU in all")
    by_module: dict[str, list[float]] = collections.defaultdict(lambda: [0.0, 0.0])
    by_kernel: dict[str, list[float]] = collections.defaultdict(lambda: [0.0, 0.0])
    for r in cold:
        name = str(r["kernel"])
        module = name.rsplit(".", 1)[0] if name.startswith("swept.") else "numba (library)"
        for table, key in ((by_module, module), (by_kernel, name)):
            table[key][0] += float(r["exclusive"])
            table[key][1] += 1
    print("per module (CPU s, compiles):")
    for key, (sec, n) in sorted(by_module.items(), key=lambda kv: -kv[1][0]):
        if sec >= 0.05:
            print(f"  {sec:6.1f} s {int(n):4d}  {key}")
    by_phase: dict[str, float] = collections.defaultdict(float)
    for r in cold:
        for phase, sec in dict(r.get("phases", {})).items():
            by_phase[phase.split(" [", 1)[0]] += float(sec)
    print("per phase (CPU s): numba's passes, and LLVM's work inside native_lowering:")
    for key, sec in sorted(by_phase.items(), key=lambda kv: -kv[1]):
        if sec >= 0.05:
            print(f"  {sec:6.1f} s  {key}")
    print(f"the {top} costliest kernels (CPU s, signatures compiled):")
    for key, (sec, n) in sorted(by_kernel.items(), key=lambda kv: -kv[1][0])[:top]:
        print(f"  {sec:6.2f} s x{int(n)}  {key}")
    asking: dict[str, list[float]] = collections.defaultdict(lambda: [0.0, 0.0])
    for r in cold:
        if not str(r["kernel"]).startswith("swept."):
            parent = r.get("parent")
            for _ in range(len(cold)):
                if parent is None or str(parent).startswith("swept."):
                    break
                # a library compile nested in another: charged to the swept kernel above
                parent = next((q.get("parent") for q in cold if q["kernel"] == parent), None)
            asking[str(parent)][0] += float(r["exclusive"])
            asking[str(parent)][1] += 1
    print("numba's library compiles by the swept kernel that asked for them (CPU s, compiles):")
    for key, (sec, n) in sorted(asking.items(), key=lambda kv: -kv[1][0])[:10]:
        print(f"  {sec:6.2f} s {int(n):4d}  {key}")
    duplicates = [(k, int(n)) for k, (_s, n) in by_kernel.items()
                  if n > 1 and k.startswith("swept.")]
    print(f"swept kernels compiled for more than one signature: {len(duplicates)}")
    for key, n in sorted(duplicates):
        print(f"  x{n} {key}")
        for r in cold:
            if r["kernel"] == key:
                print(f"      ({r['signature']})")
    print(f"warm tour: {len(warm)} compiles (0: everything came from the disk cache)")


def main() -> None:
    """Measure cold and warm tours; print them and write the JSON."""
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--breakdown", action="store_true",
                        help="record every compile and print where the time goes")
    parser.add_argument("--save", metavar="PATH",
                        help="with --breakdown: also write the cold tour's compiles as JSON")
    parser.add_argument("--warmup", action="store_true",
                        help="also time `swept warmup` on every core from an empty cache")
    args = parser.parse_args()
    ahead = None
    if args.warmup:
        with tempfile.TemporaryDirectory() as tmp:
            shutil.copytree(ROOT / "src" / "swept", Path(tmp) / "swept",
                            ignore=shutil.ignore_patterns("__pycache__"))
            ahead = run_warmup(tmp)
    with tempfile.TemporaryDirectory() as tmp:
        shutil.copytree(ROOT / "src" / "swept", Path(tmp) / "swept",
                        ignore=shutil.ignore_patterns("__pycache__"))
        cold_rec = str(Path(tmp) / "cold.json") if args.breakdown else None
        warm_rec = str(Path(tmp) / "warm.json") if args.breakdown else None
        cold, cold_cpu = run_tour(tmp, cold_rec)
        warm, warm_cpu = run_tour(tmp, warm_rec)
        if cold_rec is not None and warm_rec is not None:
            print_breakdown(json.loads(Path(cold_rec).read_text()),
                            json.loads(Path(warm_rec).read_text()))
            if args.save:
                shutil.copyfile(cold_rec, args.save)
    print(f"cold tour {cold:.1f} s, warm tour {warm:.1f} s: compiling took {cold - warm:.1f} s "
          f"(goal: at most 60 s)")
    print(f"CPU: cold tour {cold_cpu:.1f} s, warm tour {warm_cpu:.1f} s: compiling took "
          f"{cold_cpu - warm_cpu:.1f} s")
    result = {"cold_s": cold, "warm_s": warm, "compile_s": cold - warm, "cold_cpu_s": cold_cpu,
              "warm_cpu_s": warm_cpu, "compile_cpu_s": cold_cpu - warm_cpu}
    if ahead is not None:
        print(f"swept warmup on {os.cpu_count()} cores from an empty cache: {ahead[0]:.1f} s "
              f"wall, {ahead[1]:.1f} s of CPU")
        result.update(warmup_s=ahead[0], warmup_cpu_s=ahead[1], cores=os.cpu_count())
    out = ROOT / "benchmarks" / "results"
    out.mkdir(exist_ok=True)
    (out / "compile.json").write_text(json.dumps(result, indent=2))


if __name__ == "__main__":
    main()
