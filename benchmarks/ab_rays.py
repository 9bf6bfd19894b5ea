"""A/B of ``World.raycast_many`` on the broadphase scenes: a base revision and the working tree in
ONE process, alternated call by call, one thread.

On this shared 2-core machine (load 5 to 14) separate processes, even alternated, read the same
code 0.5x to 2x apart, and the minimum of a process's calls moves as much: too coarse for the
5-15% a kernel change is worth. Here the base revision's ``src/swept`` is exported by ``git
archive`` into ``benchmarks/results/ab-<rev>/sweptbase`` (renamed, its three package-name strings
patched; kept, so its numba cache is compiled once), both packages build the same scene, and each
round times one call of each, in turns (the order swapped every round). What is reported is the
median over the rounds of each round's new / base ratio, neighbouring calls seeing the same load,
and a hash of every output row of both (handles, distances, points, normals, hits) that must
agree. Usage::

    PYTHONPATH=$PWD/src python benchmarks/ab_rays.py --base main --scenes far:10000,uniform:1000

``--warm`` times each call right after an untimed one of the same World on the same rays
(``bench_broadphase.py``'s protocol, :func:`timing.interleaved`): what the goals' table reads,
where a branch the predictor learnt on the untimed call costs less. ``--rays`` sets the rays a
call (default 2,000, as ``bench_broadphase.py``; a game casts 100 to
2,000 a frame). ``--split`` times the working tree alone, each round one call each of
``raycast_many``, its kernel alone (``cast_range`` through its compiled entry point on the same
rays in the order ``raycast_many`` casts them, gathered beforehand where it gathers them, one
thread: the Python around it left out) and ``bench_broadphase.py``'s plain grid (its two
``--quick`` cell sizes, the better of the two each round), each call after an untimed one of
its own: the medians, the median ratios to the plain grid, and ``raycast_many`` less its kernel
(what the Python around the kernel costs a ray). ``--around`` breaks that difference down
(:func:`around`).
"""

from __future__ import annotations

import argparse
import hashlib
import os
import statistics
import subprocess
import sys
import tarfile
import time
from pathlib import Path
from typing import Any

import numpy as np

HERE = Path(__file__).resolve().parent
ROOT = HERE.parent
sys.path.insert(0, str(HERE))

import scenes  # noqa: E402

#: Rays a call by default (as ``bench_broadphase.py``).
RAYS = 2000
#: Ray sets a ``--fresh`` run casts in turn, one a round (a set is 2,000 rays by default).
#: Why: the same rays cast call after call read 1.26-2.0x faster than a new set each call
#: (``cast_range`` alone, one thread, medians of 116 calls: clusters at 10,000 1.55, uniform
#: segments at 1,000 2.00, coordinates of 1e6 at 10,000 1.26, every kind at 1,000 1.91; the
#: inputs' cache state ruled out): the branch predictor having learnt the repeated rays'
#: branches, and their cells' lines kept in cache, which a game's new rays each frame never
#: give it. A change that removes branches or cache misses shows its worth on fresh rays.
FRESH_SETS = 17
#: What the first line of a ``--warm`` run adds after the rays a call.
WARM_NOTE = " (each timed call after an untimed one of its own)"
#: What the first line of a ``--fresh`` run adds after the rays a call.
FRESH_NOTE = " (a new set each round)"
#: The package-name strings of ``src/swept`` that a renamed copy must say differently: the lazy
#: kernels' package, the inliner's own-module test, the hit records' type names.
#: ``{name}`` stands for the copy's package name (``sweptbase``, or ``sweptctl`` for the control).
RENAMES = (("_lazy.py", '"swept._kernels"', '"{name}._kernels"'),
           ("_kernels/__init__.py", 'modname == "swept" or modname.startswith("swept.")',
            'modname == "{name}" or modname.startswith("{name}.")'),
           ("_kernels/world_hit.py", 'name=f"swept.{type', 'name=f"{name}.{type'))
#: What a ``--control`` run calls its second copy of the base.
CONTROL = "sweptctl"


def base_package(rev: str, name: str = "sweptbase") -> Path:
    """The folder holding ``name`` (``sweptbase``, or :data:`CONTROL`), revision ``rev``'s
    ``src/swept`` (exported once)."""
    sha = subprocess.run(["git", "rev-parse", "--short=10", rev], cwd=ROOT, check=True,
                         capture_output=True, text=True).stdout.strip()
    top = HERE / "results" / (f"ab-{sha}" if name == "sweptbase" else f"ab-{sha}-{name}")
    package = top / name
    if not package.exists():
        top.mkdir(parents=True, exist_ok=True)
        archive = top / "src.tar"
        subprocess.run(["git", "archive", "-o", str(archive), sha, "src/swept"], cwd=ROOT,
                       check=True)
        with tarfile.open(archive) as tar:
            tar.extractall(top)  # noqa: S202 (our own repository's archive)
        (top / "src" / "swept").rename(package)
        for file, old, new in RENAMES:
            path = package / file
            text = path.read_text()
            if old not in text:
                raise SystemExit(f"{path}: {old!r} not found; update RENAMES")
            # keep the file's time: numba's cache index checks the source's stamp
            stat = path.stat()
            path.write_text(text.replace(old, new.replace("{name}", name)))
            os.utime(path, (stat.st_atime, stat.st_mtime))
    return top


def world(pkg: Any, scene: Any) -> Any:
    """The scene's colliders in a World of package ``pkg`` (its own shape classes)."""
    w = pkg.World()
    for i in range(len(scene)):
        k = int(scene.kind[i])
        p = scene.params[i]
        if k == scenes.KIND_SEGMENT:
            shape = pkg.Segment((p[0], p[1]), (p[2], p[3]))
        elif k == scenes.KIND_AABB2:
            shape = pkg.AABB((p[0], p[1]), (p[2], p[3]))
        elif k == scenes.KIND_CIRCLE:
            shape = pkg.Circle((p[0], p[1]), p[2])
        elif k == scenes.KIND_CAPSULE2:
            shape = pkg.Capsule((p[0], p[1]), (p[2], p[3]), p[4])
        else:
            first, count = int(p[0]), int(p[1])
            shape = pkg.Polygon(scene.verts[first:first + count])
        w.add(shape, moving=bool(scene.moving[i]))
    return w


def digest(batch: Any) -> str:
    """A hash of every output of a ray batch."""
    h = hashlib.sha1()
    for a in (batch.handle, batch.distance, batch.point, batch.normal, batch.hit):
        h.update(np.ascontiguousarray(a).tobytes())
    return h.hexdigest()[:12]


def compare(key: str, packages: dict[str, Any], rounds: int, count: int = RAYS,
            fresh: bool = False, warm: bool = False) -> float:
    """One scene: prints and returns the median new / base ratio over ``rounds`` rounds of
    ``count`` rays (the Worlds built in the order of ``packages``); with ``fresh``, each
    round's rays a new set (:data:`FRESH_SETS` in turn), every World casting the same; with
    ``warm``, each timed call right after an untimed one of the same World on the same rays
    (``bench_broadphase.py``'s protocol: :func:`timing.interleaved`). With a ``control``
    package (a second copy of the base), it is timed in the same rounds and its median
    control / base ratio printed beside: what the harness reads for no change at all."""
    name, n = key.split(":")
    scene = scenes.make_scene(name, int(n))
    sets = [scenes.rays(scene, count, salt) for salt in range(FRESH_SETS if fresh else 1)]
    origins, directions, tmax = sets[0]
    worlds = {label: world(pkg, scene) for label, pkg in packages.items()}
    hashes = {label: hashlib.sha1("".join(
        digest(w.raycast_many(o, d, tmax)) for o, d, _ in sets).encode()).hexdigest()[:12]
        for label, w in worlds.items()}
    us: dict[str, list[float]] = {label: [] for label in worlds}
    labels = [label for label in ("base", "new", "control") if label in worlds]
    for r in range(rounds):
        origins, directions, _ = sets[r % len(sets)]
        # the order turned every round (two runners: swapped)
        turn = r % len(labels)
        for label in labels[turn:] + labels[:turn]:
            if warm:
                worlds[label].raycast_many(origins, directions, tmax)
            start = time.process_time()
            worlds[label].raycast_many(origins, directions, tmax)
            us[label].append((time.process_time() - start) / count * 1e6)
    ratios = [a / b for a, b in zip(us["new"], us["base"])]
    ratio = statistics.median(ratios)
    quartiles = statistics.quantiles(ratios, n=4)
    same = all(h == hashes["base"] for h in hashes.values())
    control = ""
    if "control" in us:
        control = (f"; control / base "
                   f"{statistics.median(a / b for a, b in zip(us['control'], us['base'])):.3f}")
    print(f"{key:18s} base {statistics.median(us['base']):.3f} new "
          f"{statistics.median(us['new']):.3f} us a ray (medians); new / base {ratio:.3f} "
          f"(quartiles {quartiles[0]:.2f}-{quartiles[2]:.2f}){control}; outputs "
          f"{'the same' if same else 'DIFFER'}", flush=True)
    return ratio


def timed(runners: dict[str, Any], rounds: int, count: int) -> dict[str, list[float]]:
    """Each runner's calls of ``count`` rays, us a ray (CPU time): each round one call of each
    in turn, each timed call after an untimed one of its own."""
    us: dict[str, list[float]] = {label: [] for label in runners}
    for _ in range(rounds):
        for label, fn in runners.items():
            fn()
            start = time.process_time()
            fn()
            us[label].append((time.process_time() - start) / count * 1e6)
    return us


def split(key: str, rounds: int, count: int = RAYS) -> None:
    """One scene (``--split``): prints the working tree's ``raycast_many``, its kernel alone and
    the plain grid, us a ray (CPU time, medians of ``rounds`` rounds of ``count`` rays), one
    thread."""
    import bench_broadphase as bb

    import swept
    from swept import constants
    from swept._fast import batch_entry
    from swept._kernels import world as kw

    name, n = key.split(":")
    scene = scenes.make_scene(name, int(n))
    origins, directions, tmax = scenes.rays(scene, count)
    with bb.one_thread():
        w = world(swept, scene)
        _info, grids = bb.plain_grids(scene, bb.QUICK_GRID_CELL_FACTORS, origins, directions,
                                      tmax)
        reach = np.full(count, tmax)
        casts = kw.Casts(origins, directions, reach, reach)
        if (count >= constants.RAY_GATHER_MIN_ROWS
                and len(scene) >= getattr(constants, "RAY_ORDER_MIN_COLLIDERS", 0)):
            # the rays as raycast_many casts them: gathered into their spatial order
            order = np.empty(count, np.int64)
            kw.spatial_order(origins, order)
            casts = kw.Casts(*(np.ascontiguousarray(a[order]) for a in casts))
        out = kw.Hits(np.empty(count, np.int64), np.empty(count), np.empty((count, 2)),
                      np.empty((count, 2)), np.empty(count, np.bool_))
        args = (w._sync(), casts, np.zeros(0, np.int64), kw.ALL_LAYERS_MASK, kw.CAST_NORMALISE,
                out)
        kernel = batch_entry(kw.cast_range, args, ("ab_rays", True))
        runners = {"world": lambda: w.raycast_many(origins, directions, tmax),
                   "kernel": lambda: kernel(0, count, *args),
                   **grids}
        us = timed(runners, rounds, count)
    grid = [min(pair) for pair in zip(*(us[label] for label in grids))]

    def ratio(label: str) -> float:
        return statistics.median(a / b for a, b in zip(us[label], grid))

    python = statistics.median(a - b for a, b in zip(us["world"], us["kernel"]))
    print(f"{key:18s} raycast_many {statistics.median(us['world']):.3f} kernel "
          f"{statistics.median(us['kernel']):.3f} plain grid {statistics.median(grid):.3f} us a "
          f"ray (medians); / plain grid {ratio('world'):.2f} and {ratio('kernel'):.2f}; "
          f"raycast_many less its kernel {python:.3f} us a ray; load {os.getloadavg()[0]:.1f}",
          flush=True)


def around(key: str, rounds: int, count: int = RAYS) -> None:
    """One scene (``--around``): what ``raycast_many`` costs around its kernel, the working
    tree alone, one thread: each round one call each (after an untimed one of its own) of
    ``raycast_many``, its kernel on the gathered rows into the same outputs every call (warm),
    into fresh outputs, the spatial order and gather into fresh arrays, the scatter into fresh
    outputs, and the order, gather, kernel and scatter in turn; prints medians (us a ray, CPU
    time) and each one's median difference from the warm kernel."""
    import swept
    from swept._fast import batch_entry
    from swept._kernels import world as kw

    name, n = key.split(":")
    scene = scenes.make_scene(name, int(n))
    origins, directions, tmax = scenes.rays(scene, count)

    def hits() -> Any:
        return kw.Hits(np.empty(count, np.int64), np.empty(count), np.empty((count, 2)),
                       np.empty((count, 2)), np.empty(count, np.bool_))

    def gathered(order: np.ndarray) -> Any:
        rows = kw.Casts(np.empty((count, 2)), np.empty((count, 2)), np.empty(count),
                        np.empty(0))
        kw.gather_casts(casts, order, rows)
        return rows

    def ordered() -> np.ndarray:
        order = np.empty(count, np.int64)
        kw.spatial_order(origins, order)
        return order

    def scattered(found: Any, order: np.ndarray) -> None:
        back = kw.Hits(*hits()[:4], np.empty(0, np.bool_))
        kw.scatter_hits(found, order, back)

    def steps() -> None:
        order = ordered()
        found = hits()
        kernel(0, count, scene_, gathered(order), none, kw.ALL_LAYERS_MASK, flags, found)
        scattered(found, order)

    swept.set_threads(1)
    w = world(swept, scene)
    scene_ = w._sync()
    reach = np.full(count, tmax)
    casts = kw.Casts(origins, directions, reach, reach)
    order = ordered()
    rows = gathered(order)
    out = hits()
    none = np.zeros(0, np.int64)
    flags = kw.CAST_NORMALISE | kw.CAST_GATHERED
    kernel = batch_entry(kw.cast_range, (scene_, rows, none, kw.ALL_LAYERS_MASK, flags, out),
                         ("ab_rays", True))
    runners = {
        "raycast_many": lambda: w.raycast_many(origins, directions, tmax),
        "kernel, warm": lambda: kernel(0, count, scene_, rows, none, kw.ALL_LAYERS_MASK, flags,
                                       out),
        "kernel, fresh outputs": lambda: kernel(0, count, scene_, rows, none,
                                                kw.ALL_LAYERS_MASK, flags, hits()),
        "order and gather": lambda: gathered(ordered()),
        "scatter": lambda: scattered(out, order),
        "order, gather, kernel, scatter": steps}
    us = timed(runners, rounds, count)
    warm = us["kernel, warm"]
    for label, times in us.items():
        less = statistics.median(a - b for a, b in zip(times, warm))
        print(f"{key:18s} {label:32s} {statistics.median(times):.4f} us a ray; less the warm "
              f"kernel {less:+.4f}", flush=True)
    print(f"load {os.getloadavg()[0]:.1f}", flush=True)


def main(argv: list[str] | None = None) -> int:
    """Parse the arguments and run."""
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0] if __doc__ else None)
    parser.add_argument("--base", default="main", help="the base revision (git)")
    parser.add_argument("--scenes", default="uniform:1000,clustered:10000,far:10000,kinds:1000",
                        help="name:colliders, comma-separated")
    parser.add_argument("--rounds", type=int, default=301, help="alternated pairs a scene")
    parser.add_argument("--rays", type=int, default=RAYS, help="rays a call")
    parser.add_argument("--first", choices=("base", "new"), default="base",
                        help="whose World is built first (the one built second reads slower, "
                        "by up to 1.2-1.3x at 10,000 rays a call: run both, see README)")
    parser.add_argument("--fresh", action="store_true",
                        help="a new ray set each round (FRESH_SETS in turn), as a game casts")
    parser.add_argument("--warm", action="store_true",
                        help="each timed call after an untimed one of its own on the same rays "
                        "(bench_broadphase.py's protocol)")
    parser.add_argument("--control", action="store_true",
                        help="also time a second copy of the base (sweptctl) in the same "
                        "rounds: control / base is what the harness reads for no change")
    parser.add_argument("--split", action="store_true",
                        help="the working tree alone: raycast_many, its kernel, the plain grid")
    parser.add_argument("--around", action="store_true",
                        help="the working tree alone: raycast_many and the steps around its "
                        "kernel")
    args = parser.parse_args(argv)
    if args.around:
        for key in args.scenes.split(","):
            around(key, args.rounds, args.rays)
        return 0
    if args.split:
        for key in args.scenes.split(","):
            split(key, args.rounds, args.rays)
        return 0
    sys.path.insert(0, str(base_package(args.base)))
    import sweptbase  # type: ignore[import-not-found]
    from numba import set_num_threads

    import swept

    extra: dict[str, Any] = {}
    if args.control:
        import importlib

        sys.path.insert(0, str(base_package(args.base, CONTROL)))
        extra["control"] = importlib.import_module(CONTROL)
    set_num_threads(1)
    for package in (sweptbase, swept, *extra.values()):
        # swept's batches run on its own threads (the cores, by default), not numba's count
        setter = getattr(package, "set_threads", None)
        if setter is not None:
            setter(1)
    print(f"base {args.base} ({sweptbase.__file__}) against {swept.__file__}; {args.rays} "
          f"rays a call{FRESH_NOTE if args.fresh else ''}{WARM_NOTE if args.warm else ''}; "
          f"{args.first}'s World built first; "
          f"load {os.getloadavg()[0]:.1f}", flush=True)
    packages = {"base": sweptbase, "new": swept, **extra}
    if args.first == "new":
        packages = {"new": swept, "base": sweptbase, **extra}
    ratios = [compare(key, packages, args.rounds, args.rays, args.fresh, args.warm)
              for key in args.scenes.split(",")]
    print(f"geometric mean of the ratios {float(np.exp(np.mean(np.log(ratios)))):.3f}; load "
          f"{os.getloadavg()[0]:.1f}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
