"""Every speed goal of issues 11 and 13 in one run: each goal's benchmark, then one table.

Runs, one after the other and each in its own interpreter (so one cannot warm another's
caches): ``swept warmup`` from an empty cache (a copy of ``src/swept`` without its
``__pycache__``), then (untimed, :func:`prime`) ``swept warmup`` on the benchmarked sources,
``bench_world_rays.py``, ``bench_broadphase.py --quick``,
``bench_threads.py --quick``, ``bench_ccd.py`` (the full scene even in a quick run),
``bench_sim.py``, ``bench_mesh.py``, ``bench_world_bulk.py`` and ``bench_fresh_rays.py
--quick`` (not a goal of its own: the scene goal's row shows its figures); then reads the
JSON each wrote under ``benchmarks/results/`` and prints the goal table: the goal, the
measured figures (ratios where they compare) and whether it is met. Each row names the load
average when its benchmark started and the CPU that other processes used while it ran
(:func:`others_cpu`): the load average cannot tell the two apart, since for a minute after a
benchmark ends it still counts that benchmark's own processes (1.58 as ``bench_world_rays``
began at 2026-12-04 21:53, right after the cold compile and the priming, while other
processes used under 0.005 of a core during it).

``--quick`` runs the quick variants (the Simulation at 1,000 balls, meshes of about 100,000
triangles, 100,000 bulk rows): the goals that name a size then read "not measured".
``--only compile,sim`` runs some benchmarks; ``--table`` runs none and prints the table from
the results of earlier runs. Writes ``benchmarks/results/goals.json``.
"""

from __future__ import annotations

import argparse
import json
import math
import os
import shutil
import subprocess
import sys
import tempfile
import time
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any

HERE = Path(__file__).resolve().parent
ROOT = HERE.parent
RESULTS = HERE / "results"
COLD_COMPILE = "cold_compile.json"


@dataclass(frozen=True)
class Bench:
    """One benchmark script: its arguments in the full and the quick run, and its JSON."""

    script: str
    full: tuple[str, ...]
    quick: tuple[str, ...]
    result: str


#: The benchmarks by the name ``--only`` takes, in the order they run (``compile`` is the
#: cold ``swept warmup``, run by this script itself).
BENCHES: dict[str, Bench] = {
    "compile": Bench("", (), (), COLD_COMPILE),
    "world_rays": Bench("bench_world_rays.py", (), (), "world_rays.json"),
    "broadphase": Bench("bench_broadphase.py", ("--quick",), ("--quick",), "broadphase.json"),
    "threads": Bench("bench_threads.py", ("--quick",), ("--quick",), "threads.json"),
    "ccd": Bench("bench_ccd.py", (), (), "ccd.json"),  # its quick scene is too small to time
    "sim": Bench("bench_sim.py", (), ("--quick",), "sim.json"),
    "mesh": Bench("bench_mesh.py", (), ("--quick",), "mesh.json"),
    "bulk": Bench("bench_world_bulk.py", (), ("--quick",), "world_bulk.json"),
    "fresh_rays": Bench("bench_fresh_rays.py", ("--quick",), ("--quick",), "fresh_rays.json"),
}


def _load() -> float:
    return os.getloadavg()[0]


def children_cpu() -> float:
    """CPU seconds (user and system) of this process's children that have ended and been
    waited for."""
    times = os.times()
    return times.children_user + times.children_system


#: Where Linux keeps the machine's CPU time since boot, in clock ticks.
PROC_STAT = Path("/proc/stat")


def cpu_seconds() -> tuple[float, float, float]:
    """``(busy, steal, ours)``: the CPU seconds since boot the whole machine spent busy (user,
    nice, system, irq and softirq time of every core) and stolen by the hypervisor (a virtual
    machine's cores waiting for the host's), NaN both where there is no ``/proc/stat``; and
    the CPU seconds of this process's finished children (each benchmark: its own children
    too, once it has waited for them)."""
    try:
        fields = PROC_STAT.read_text().split("\n", 1)[0].split()
        user, nice, system, _idle, _iowait, irq, softirq, steal = (int(v) for v in fields[1:9])
        hz = os.sysconf("SC_CLK_TCK")
        busy, stolen = (user + nice + system + irq + softirq) / hz, steal / hz
    except (OSError, ValueError):
        busy = stolen = math.nan
    return busy, stolen, children_cpu()


def others_cpu(before: tuple[float, float, float], after: tuple[float, float, float],
               seconds: float) -> dict[str, float]:
    """What the machine ran beside a benchmark, from :func:`cpu_seconds` before and after it
    and its wall time: ``others``, the cores other processes kept busy on average (the
    machine's busy time less the benchmark's own), and ``steal``, the cores the hypervisor
    took (NaN both without ``/proc/stat``)."""
    busy = after[0] - before[0]
    ours = after[2] - before[2]
    return {"others": max(busy - ours, 0.0) / seconds, "steal": (after[1] - before[1]) / seconds}


def cold_compile() -> dict[str, Any]:
    """Wall-clock and CPU seconds of ``swept warmup`` on every core from an empty cache."""
    load = _load()
    with tempfile.TemporaryDirectory() as tmp:
        shutil.copytree(ROOT / "src" / "swept", Path(tmp) / "swept",
                        ignore=shutil.ignore_patterns("__pycache__"))
        env = dict(os.environ, PYTHONPATH=tmp)
        env.pop("NUMBA_CACHE_DIR", None)  # the cache beside the copied sources: empty
        before = children_cpu()
        start = time.perf_counter()
        subprocess.run([sys.executable, "-m", "swept", "warmup"], check=True, env=env,
                       stdout=subprocess.DEVNULL)
        wall = time.perf_counter() - start
        cpu = children_cpu() - before
    return {"warmup_s": wall, "warmup_cpu_s": cpu, "cores": os.cpu_count(),
            "load_average_1min_before": load}


def prime() -> None:
    """``swept warmup`` on the benchmarked sources, untimed: every benchmark then loads its
    kernels from numba's cache, as a program does after its first run. Without it, in a fresh
    clone the first benchmark compiled the kernels in its own timed process (the cold
    compile above fills a copy's cache, not this one), and a process that has just compiled
    them is slower at everything in Python: ``bench_world_rays``' ``World.raycast`` loop read
    1.42 us a ray at 1,000 segments in the goals run of 2026-12-04 15:52 (pymunk 4.38: 3.1x)
    and 0.90 us in the same clone once its cache was full (pymunk 3.61: 4.0x)."""
    print(f"== prime the kernels' cache, untimed ({time.strftime('%H:%M:%S')})", flush=True)
    subprocess.run([sys.executable, "-m", "swept", "warmup"], check=True, cwd=ROOT,
                   stdout=subprocess.DEVNULL)


def run(names: Sequence[str], quick: bool) -> dict[str, dict[str, float]]:
    """Run the benchmarks ``names`` (after :func:`prime`, when any but the cold compile
    runs); return, for each, the load average before it (``load``) and what other processes
    and the hypervisor took while it ran (:func:`others_cpu`)."""
    conditions: dict[str, dict[str, float]] = {}
    RESULTS.mkdir(exist_ok=True)
    primed = False
    for name in names:
        if name != "compile" and not primed:
            prime()
            primed = True
        bench = BENCHES[name]
        load = _load()
        print(f"== {name} ({time.strftime('%H:%M:%S')}, load {load:.2f})", flush=True)
        before = cpu_seconds()
        start = time.perf_counter()
        if name == "compile":
            (RESULTS / COLD_COMPILE).write_text(json.dumps(cold_compile(), indent=2) + "\n")
        else:
            args = bench.quick if quick else bench.full
            subprocess.run([sys.executable, str(HERE / bench.script), *args], check=True,
                           cwd=ROOT)
        beside = others_cpu(before, cpu_seconds(), max(time.perf_counter() - start, 1e-9))
        conditions[name] = {"load": load, **beside}
        print(f"== {name}: other processes used {beside['others']:.2f} of a core, the "
              f"hypervisor took {beside['steal']:.2f}", flush=True)
    return conditions


# -- the goals: each reads the results and says (what was measured, met?) ------------------

Verdict = tuple[str, "bool | None"]


def _sizes(world_rays: dict[str, Any]) -> dict[int, dict[str, Any]]:
    return {row["segments"]: row for row in world_rays["sizes"]}


def goal_raycast_one(r: dict[str, Any]) -> Verdict:
    """``World.raycast`` one ray at a time >= 3x pymunk at 1,000 and 10,000 segments."""
    sizes = _sizes(r["world_rays"])
    ratios = [sizes[n]["scalar_vs_pymunk"] for n in (1_000, 10_000)]
    return (f"{ratios[0]:.1f}x and {ratios[1]:.1f}x", min(ratios) >= 3.0)


def goal_raycast_many_one_thread(r: dict[str, Any]) -> Verdict:
    """``raycast_many`` on one thread >= 25x pymunk at 10,000 segments."""
    ratio = _sizes(r["world_rays"])[10_000]["batch_1_thread_vs_pymunk"]
    return (f"{ratio:.1f}x", ratio >= 25.0)


def goal_raycast_many_default(r: dict[str, Any]) -> Verdict:
    """``raycast_many`` on the default threads >= 40x pymunk at 10,000 segments, idle."""
    ratio = _sizes(r["world_rays"])[10_000]["batch_vs_pymunk"]
    return (f"{ratio:.1f}x", ratio >= 40.0)


def _scene(row: dict[str, Any]) -> str:
    return f"{row['scene']} {row['colliders']:,}"


def goal_scenes_best_plain(r: dict[str, Any]) -> Verdict:
    """Every scene kind within 1.3x of the best plain structure (one thread)."""
    rows = r["broadphase"]["scenes"]
    worst = max(rows, key=lambda row: row["world_vs_best_plain"])
    ratios = [row["world_vs_best_plain"] for row in rows]
    return (f"{min(ratios):.2f}-{max(ratios):.2f} (the worst: {_scene(worst)})",
            max(ratios) <= 1.3)


def goal_scenes_pymunk(r: dict[str, Any]) -> Verdict:
    """Every scene kind >= 20x pymunk's ``segment_query_first`` (one thread).

    Decided on ``bench_broadphase``'s repeated rays; where the run has ``bench_fresh_rays``'
    figures (a new ray set each call, as a game casts them), they follow, for the record."""
    rows = r["broadphase"]["scenes"]
    ratios = [row["pymunk_vs_world"] for row in rows]
    short = [f"{_scene(row)} {row['pymunk_vs_world']:.1f}x" for row in rows
             if row["pymunk_vs_world"] < 20.0]
    text = f"{min(ratios):.1f}-{max(ratios):.1f}x"
    text += f"; short: {', '.join(short)}" if short else ""
    fresh = [row for row in r.get("fresh_rays", {}).get("scenes", [])
             if not math.isnan(row["pymunk_vs_world_fresh"])]
    if fresh:
        low = [f"{_scene(row)} {row['pymunk_vs_world_fresh']:.1f}x" for row in fresh
               if row["pymunk_vs_world_fresh"] < 20.0]
        text += (f" (on fresh rays, bench_fresh_rays: "
                 f"{min(row['pymunk_vs_world_fresh'] for row in fresh):.1f}-"
                 f"{max(row['pymunk_vs_world_fresh'] for row in fresh):.1f}x"
                 + (f"; under 20x: {', '.join(low)}" if low else "") + ")")
    return (text, not short)


def goal_sweep_many(r: dict[str, Any]) -> Verdict:
    """``sweep_many`` (balls) within 1.3x of a plain compiled grid, 0 missed (one thread)."""
    engines = r["ccd"]["engines"]
    world = engines["swept World.sweep_many (1 thread)"]
    grid = engines["plain grid (1 thread)"]
    ratio = world["us_per_circle"] / grid["us_per_circle"]
    return (f"{ratio:.2f}x the grid, {world['misses']} missed",
            ratio <= 1.3 and world["misses"] == 0)


#: Calls whose batches are large enough that free cores must make them faster.
PARALLEL_CALLS = ("World.sweep_many", "World.contact_many", "sweep_circles_segments")


def goal_threads(r: dict[str, Any]) -> Verdict:
    """The default threads never slower than one thread with one core busy (within the
    control row's noise), and faster on free cores."""
    threads = r["threads"]
    busy = threads["one_core_busy"]["calls"]
    idle = threads["idle"]["calls"]
    control = [threads[k]["calls"]["control: 1 thread both ways"]["ratio"]
               for k in ("idle", "one_core_busy")]
    noise = 0.05 + max(abs(c - 1.0) for c in control)
    rows = [c for c in busy if not c.startswith("control")]
    # a row none of whose timed default calls ran on threads ran the one-thread code both
    # ways, as the control row does: its ratio is the pairs' noise, not the threads' (the
    # many_balls step, one compiled call both ways by design, read 0.64-1.30 busy over twenty
    # runs: benchmarks/README.md, session 33). The worst is taken over the rows that ran on
    # threads (a row of an older run without the count counts as one that did)
    threaded = [c for c in rows if busy[c].get("threaded_runs", 1) > 0]
    alone = [busy[c]["ratio"] for c in rows if c not in threaded]
    fast = [idle[c]["ratio"] for c in PARALLEL_CALLS]
    free = f"free: {min(fast):.2f}-{max(fast):.2f}"
    aside = ("; on one thread both ways (noise): " + ", ".join(f"{a:.2f}" for a in alone)
             if alone else "")
    if not threaded:
        return (f"busy: no call ran on threads (allowed {1 + noise:.2f}){aside}; {free}",
                max(fast) < 0.8)
    worst = max(threaded, key=lambda c: busy[c]["ratio"])
    met = busy[worst]["ratio"] <= 1.0 + noise and max(fast) < 0.8
    return (f"busy: the worst on threads {worst} {busy[worst]['ratio']:.2f} "
            f"({busy[worst]['threaded_runs']} runs on threads; allowed {1 + noise:.2f} by the "
            f"control rows {control[0]:.2f}/{control[1]:.2f}){aside}; {free}", met)


def _steps(sim: dict[str, Any], engine: str) -> dict[str, Any]:
    return next(row for row in sim["rows"] if row["engine"] == engine)


def goal_simulation(r: dict[str, Any]) -> Verdict:
    """The swept-mode Simulation >= 2x pymunk at 10,000 balls, 0 tunneled."""
    sim = r["sim"]
    swept_row = _steps(sim, "swept (swept)")
    one = _steps(sim, "swept (swept), 1 thread")
    pymunk = next(row for row in sim["rows"]
                  if row["engine"].startswith("pymunk") and "substeps" not in row["engine"])
    default = swept_row["steps_per_second"] / pymunk["steps_per_second"]
    single = one["steps_per_second"] / pymunk["steps_per_second"]
    apart = f"{default:.2f}x ({single:.2f}x on one thread)"
    tunneled = f"{swept_row['balls_tunneled']} tunneled"
    duel = sim.get("duel")
    if duel:
        # the engines stepped in turns (bench_sim.duel) give the goal's ratio; the rows'
        # (each engine timed apart) go beside it
        ratio = duel["ratio"]
        runs = " / ".join(f"{r:.2f}x" for r in duel["run_ratios"])
        text = (f"{swept_row['balls']:,} balls side by side: {ratio:.2f}x (runs {runs}); "
                f"timed apart {apart}; {tunneled}")
    else:
        ratio = default
        text = f"{swept_row['balls']:,} balls: {apart}, {tunneled}"
    if swept_row["balls"] < 10_000:
        return (text + " (not the goal's size)", None)
    return (text, ratio >= 2.0 and swept_row["balls_tunneled"] == 0)


def goal_cold_compile(r: dict[str, Any]) -> Verdict:
    """Compiling every kernel from a cold cache (``swept warmup``) in at most 60 s."""
    cold = r["compile"]
    return (f"{cold['warmup_s']:.1f} s wall, {cold['warmup_cpu_s']:.1f} s CPU on "
            f"{cold['cores']} cores", cold["warmup_s"] <= 60.0)


def goal_bulk(r: dict[str, Any]) -> Verdict:
    """``World.add_segments`` of 1,000,000 segments in under 2 s."""
    bulk = r["bulk"]
    key = "add_segments 1,000,000"
    if key not in bulk:
        return ("not measured (a quick run adds 100,000)", None)
    return (f"{bulk[key]:.2f} s", bulk[key] < 2.0)


def _mesh_rays(r: dict[str, Any], key: str) -> list[tuple[str, float]]:
    return [(f"{m['mesh']} {kind}", m["rays"][kind][key])
            for m in r["mesh"]["meshes"] for kind in m["rays"]]


def goal_mesh_embree(r: dict[str, Any]) -> Verdict:
    """Mesh rays (one thread) at most 3x Embree's time."""
    rows = _mesh_rays(r, "swept_1_thread_over_embree")
    if not rows:
        return ("not measured (embreex not installed)", None)
    return (", ".join(f"{name} {x:.2f}x" for name, x in rows), max(x for _, x in rows) <= 3.0)


def goal_mesh_pybullet(r: dict[str, Any]) -> Verdict:
    """Mesh rays (one thread) at least 10x faster than pybullet's ``rayTestBatch``."""
    rows = _mesh_rays(r, "pybullet_over_swept_1_thread")
    if not rows:
        return ("not measured (pybullet not installed)", None)
    # pybullet / Embree beside each (bench_mesh from meshray13): 10x pybullet asks swept
    # within a tenth of it times Embree's time
    over = {f"{m['mesh']} {kind}": e["pybullet_over_embree"]
            for m in r["mesh"]["meshes"] for kind, e in m["rays"].items()
            if "pybullet_over_embree" in e}
    return (", ".join(f"{name} {x:.1f}x" + (f" (pybullet / Embree {over[name]:.1f}x)"
                                            if name in over else "") for name, x in rows),
            min(x for _, x in rows) >= 10.0)


def goal_mesh_build(r: dict[str, Any]) -> Verdict:
    """The BVH build of 1,000,000 triangles in under 2 s (a mesh of more triangles judged by
    its time for 1,000,000: the build is about linear, and the icosphere has 1,310,720)."""
    big = [m for m in r["mesh"]["meshes"] if m["triangles"] >= 1_000_000]
    if not big:
        return ("not measured (a quick run's meshes are about 100,000 triangles)", None)
    million = {m["mesh"]: m["bvh_build_s"] * 1e6 / m["triangles"] for m in big}
    return (", ".join(f"{m['mesh']} {m['triangles']:,}: {m['bvh_build_s']:.2f} s "
                      f"({million[m['mesh']]:.2f} s a million)" for m in big),
            max(million.values()) < 2.0)


def goal_mesh_sweeps(r: dict[str, Any]) -> Verdict:
    """Sphere sweeps against the meshes: 0 missed impacts (the cost a sweep beside a ray's)."""
    rows = r["mesh"]["meshes"]
    missed = sum(m["sweeps"]["missed"] + m["sweeps"]["wrong"] for m in rows)
    cost = ", ".join(f"{m['mesh']} {m['sweeps']['us_per_sweep']:.1f} µs" for m in rows)
    return (f"{missed} missed or wrong; a sweep: {cost}", missed == 0)


#: Each goal: (issue, the benchmark whose results it reads, its reader).
GOALS: list[tuple[int, str, Callable[[dict[str, Any]], Verdict]]] = [
    (11, "world_rays", goal_raycast_one),
    (11, "world_rays", goal_raycast_many_one_thread),
    (11, "world_rays", goal_raycast_many_default),
    (11, "broadphase", goal_scenes_best_plain),
    (11, "broadphase", goal_scenes_pymunk),
    (11, "ccd", goal_sweep_many),
    (11, "threads", goal_threads),
    (11, "sim", goal_simulation),
    (11, "compile", goal_cold_compile),
    (11, "bulk", goal_bulk),
    (13, "mesh", goal_mesh_embree),
    (13, "mesh", goal_mesh_pybullet),
    (13, "mesh", goal_mesh_build),
    (13, "mesh", goal_mesh_sweeps),
]


def read_results(folder: Path = RESULTS) -> dict[str, Any]:
    """The JSON results of every benchmark found in ``folder``, by benchmark name."""
    found: dict[str, Any] = {}
    for name, bench in BENCHES.items():
        path = folder / bench.result
        if path.exists():
            found[name] = json.loads(path.read_text())
            found[name]["_written"] = time.strftime("%Y-%m-%d %H:%M",
                                                    time.localtime(path.stat().st_mtime))
    return found


def table(results: dict[str, Any], conditions: dict[str, dict[str, float]] | None = None,
          ) -> list[dict[str, Any]]:
    """One row a goal: its issue, its text, what was measured, whether it is met (``None``:
    not measured), when, and the machine's ``conditions`` then (:func:`run`'s)."""
    rows = []
    for issue, name, reader in GOALS:
        goal = " ".join((reader.__doc__ or "").split("\n\n")[0].split()).replace("``", "`")
        if name not in results:
            rows.append({"issue": issue, "goal": goal, "measured": "not run", "met": None})
            continue
        measured, met = reader(results)
        row = {"issue": issue, "goal": goal, "measured": measured, "met": met}
        if "_written" in results[name]:
            row["written"] = results[name]["_written"]
        if conditions and name in conditions:
            row.update(conditions[name])
        rows.append(row)
    return rows


def print_table(rows: Sequence[dict[str, Any]]) -> None:
    """The goal table, one goal a paragraph."""
    mark = {True: "MET", False: "not met", None: "-"}
    for row in rows:
        when = f" [{row['written']}" if "written" in row else ""
        if when and "load" in row:
            when += f", load {row['load']:.2f}"
        if when and "others" in row and not math.isnan(row["others"]):
            when += f", other processes {row['others']:.2f} of a core"
            if row["steal"] >= 0.005:
                when += f", stolen {row['steal']:.2f}"
        when += "]" if when else ""
        print(f"({row['issue']}) {row['goal']}\n    {mark[row['met']]}: {row['measured']}{when}")


def main(argv: Sequence[str] | None = None) -> None:
    """Run the chosen benchmarks, then print and save the goal table."""
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--quick", action="store_true", help="the quick variants")
    parser.add_argument("--only", default=None,
                        help=f"a comma-separated subset of {','.join(BENCHES)}")
    parser.add_argument("--table", action="store_true",
                        help="run nothing; print the table from earlier results")
    args = parser.parse_args(argv)
    names = list(BENCHES) if args.only is None else [n.strip() for n in args.only.split(",")]
    unknown = [n for n in names if n not in BENCHES]
    if unknown:
        parser.error(f"--only: unknown benchmark(s) {', '.join(unknown)}; "
                     f"choose from {', '.join(BENCHES)}")
    conditions = {} if args.table else run(names, args.quick)
    rows = table(read_results(), conditions)
    print()
    print_table(rows)
    RESULTS.mkdir(exist_ok=True)
    (RESULTS / "goals.json").write_text(json.dumps(rows, indent=2) + "\n")


if __name__ == "__main__":
    main()
