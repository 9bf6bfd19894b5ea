"""Compile swept's kernels ahead of their first use, the families spread over the cores.

numba compiles each kernel on its first call and keeps the machine code on disk
(``__pycache__`` beside swept's sources), so a fresh install pays the compile once, in the
first session that meets each kernel: minutes of CPU in all (README, "Compile time").
``swept warmup`` pays it up front, in ``jobs`` processes at once (default: one a core), each
running *families* (:data:`FAMILIES`: a tour of every kernel a family's public
calls reach) one after another and writing the shared cache; afterwards every call loads its
kernel from the disk. A process runs the next family that is free to start once its last one
ends, instead of a fresh interpreter a family: it pays numba's start-up once, and keeps what
its earlier families compiled or loaded (a fresh interpreter a family paid about 1.2 s of
CPU each, nine of them, measured on a warm cache: 14.4 s of CPU against 2.7 s for the same
families in one interpreter). The processes share one directory of compile locks
(:mod:`swept._kernels.compile_locks`): a kernel two running families meet is compiled by one
of them while the other waits and then loads it, so each kernel is compiled once. One process
a core, no spare one to fill a core while a process waits on a lock: on the 2-core machine of
issue 11, whose two cores are SMT siblings (an idle sibling makes the other faster, so a wait
costs little), two processes took less CPU than three in 12 alternated pairs of 12 (median
0.91x) and less wall time in 11 (median 0.92x in the 8 pairs beside another helper's
benchmarks throughout; ``benchmarks/README.md``, ``compile17``).
The families start in :data:`FAMILIES`' order: the longest first, the small ones last, so
that the processes end together; a small family that reuses most of a big one's kernels
starts once that one is done (:data:`AFTER`). The longest chain of compiles one process must
make alone bounds the wall time: on more than two cores the 2D Simulation's is split in two
(``sim2d_moves`` compiles the move and passes while ``sim2d`` compiles the contact solver;
on two, the split's processes waited on each other's locks, so ``sim2d_moves`` comes late in
the order), and the level geometry is three (``level_meshes``, ``level_fields``,
``level_tiles``), so that no family runs alone at the end.

``FAMILIES`` is also the compile benchmark's tour (``benchmarks/bench_compile.py``), so the
two stay one list.
"""

from __future__ import annotations

import contextlib
import json
import os
import queue
import subprocess
import sys
import tempfile
import time
from collections.abc import Callable, Sequence
from concurrent.futures import FIRST_COMPLETED, Future, ThreadPoolExecutor, wait
from typing import Any

import numpy as np

__all__ = ["AFTER", "FAMILIES", "LOCKS_ENV", "run_families", "warm_up"]

#: The variable that gives a warm-up process its compile-lock directory
#: (:data:`swept._kernels.compile_locks.ENV`; spelled here so that the warm-up's own process
#: never imports numba).
LOCKS_ENV = "SWEPT_COMPILE_LOCKS"


def _scalar2d() -> None:
    """Every 2D query family: rays, sweeps, contacts, distances, closest points and manifolds
    of each mover against each shape, closest points to a point, a rotating time of impact."""
    from swept import (
        AABB,
        Capsule,
        Chain,
        Circle,
        Motion,
        Plane,
        Polygon,
        Ray,
        Segment,
        closest_point,
        closest_points,
        contact,
        distance,
        manifold,
        raycast,
        sweep,
        time_of_impact,
    )
    shapes: list[Any] = [Circle((5, 0), 1), Segment((5, -1), (5, 1)), AABB((4, -1), (6, 1)),
                         Polygon([(4, -1), (6, -1), (5, 1)]), Capsule((5, -1), (5, 1), 0.5),
                         Plane((-1, 0), -5), Chain([(5, -1), (5, 1), (6, 2)])]
    movers: list[Any] = [Circle((0, 0), 0.5), AABB((-0.5, -0.5), (0.5, 0.5)),
                         Capsule((0, -0.5), (0, 0.5), 0.2),
                         Polygon([(-0.5, -0.5), (0.5, -0.5), (0, 0.5)])]
    for s in shapes:
        raycast(Ray((0, 0), (1, 0)), s)
        for m in movers:
            sweep(m, (10, 0), s)
            contact(m, s)
            if not isinstance(s, Plane):
                distance(m, s)
                closest_points(m, s)
                manifold(m, s)
        closest_point(s, (0, 0))
    time_of_impact(Polygon([(-1, -1), (1, -1), (0, 1)]), Motion((0, 0), 0.0, (10, 0), 3.0),
                   Polygon([(4, -1), (6, -1), (6, 1)]), Motion())


def _scalar3d() -> None:
    """Every 3D query family on spheres, boxes, capsules and planes, and oriented boxes and
    convex hulls."""
    from swept import (
        AABB,
        Capsule,
        ConvexHull,
        OrientedBox,
        Plane,
        Ray,
        Sphere,
        contact,
        distance,
        raycast,
        sweep,
    )
    shapes = [Sphere((5, 0, 0), 1), AABB((4, -1, -1), (6, 1, 1)),
              Capsule((5, -1, 0), (5, 1, 0), 0.5), Plane((-1, 0, 0), -5),
              OrientedBox((5, 0, 0), (1, 1, 1), (0.9238795, 0.0, 0.0, 0.3826834)),
              ConvexHull([(4, -1, -1), (6, -1, -1), (5, 1, -1), (5, 0, 1)])]
    movers = [Sphere((0, 0, 0), 0.5), Capsule((0, 0, -0.5), (0, 0, 0.5), 0.2),
              AABB((-0.5, -0.5, -0.5), (0.5, 0.5, 0.5))]
    for s in shapes:
        raycast(Ray((0, 0, 0), (1, 0, 0)), s)
        for m in movers:
            sweep(m, (10, 0, 0), s)
            contact(m, s)
            if not isinstance(s, Plane):
                distance(m, s)


def _world(dim: int) -> Any:
    """A World of every collider kind in ``dim`` D, with a moving one in 2D."""
    from swept import AABB, Capsule, Chain, Circle, Plane, Polygon, Segment, Sphere, World
    rng = np.random.default_rng(0)
    w = World()
    if dim == 2:
        a = rng.uniform(0, 100, (200, 2))
        w.add_segments(np.c_[a, a + rng.uniform(-5, 5, (200, 2))])
        for s in (Circle((5, 0), 1), Segment((5, -1), (5, 1)), AABB((4, -1), (6, 1)),
                  Polygon([(4, -1), (6, -1), (5, 1)]), Capsule((5, -1), (5, 1), 0.5),
                  Plane((-1, 0), -5), Chain([(7, -1), (7, 1), (8, 2)])):
            w.add(s)
        w.add(Circle((50, 50), 2), moving=True)
    else:
        w.add_circles(rng.uniform(0, 100, (200, 3)), 1.0)
        for solid in (Sphere((5, 0, 0), 1), AABB((4, -1, -1), (6, 1, 1)),
                      Capsule((5, -1, 0), (5, 1, 0), 0.5), Plane((-1, 0, 0), -5)):
            w.add(solid)
    return w


def _world_queries(dim: int) -> None:
    """The World's batch and scalar queries, move_and_slide and resolve in ``dim`` D."""
    from swept import AABB, Capsule, Circle, Plane, Ray, Sphere, resolve
    from swept.constants import RAY_GATHER_MIN_ROWS
    rng = np.random.default_rng(1)
    w = _world(dim)
    o = rng.uniform(0, 100, (300, dim))
    d = rng.normal(size=(300, dim))
    w.raycast_many(o, d)
    w.raycast_many(o[:5], d[:5])
    # a batch cast gathered into its order (gather_casts, scatter_hits: one compile each):
    # balls, which a World of any size gathers from RAY_GATHER_MIN_ROWS rows (rays only from
    # RAY_ORDER_MIN_COLLIDERS colliders; the types are the same)
    rows = (RAY_GATHER_MIN_ROWS, dim)
    w.sweep_many(np.resize(o, rows), np.ones(RAY_GATHER_MIN_ROWS), np.resize(d, rows))
    w.sweep_many(o, np.ones(300), d)
    w.contact_many(o, np.ones(300))
    w.raycast(Ray(tuple(o[0]), tuple(d[0])))
    w.raycast(Ray(tuple(o[0]), tuple(d[0])), ignore=[0])
    w.raycast_all(Ray(tuple(o[0]), tuple(d[0])))
    ball = Circle((1, 1), 1) if dim == 2 else Sphere((1, 1, 1), 1)
    w.sweep(ball, (5,) * dim)
    w.contacts(ball)
    mover = ball if dim == 2 else Capsule((1, 1, 1), (1, 2, 1), 0.5)
    w.move_and_slide(mover, (30,) * dim, 1 / 60)
    solids: list[Any] = ([Circle((5, 0), 1), AABB((4, -1), (6, 1)), Plane((-1, 0), -5)] if dim == 2
                         else [Sphere((5, 0, 0), 1), AABB((4, -1, -1), (6, 1, 1)),
                               Plane((-1, 0, 0), -5)])
    resolve(ball, (0.0,) * dim, solids)


def _simulation(dim: int) -> None:
    """The Simulation in every ccd mode in ``dim`` D (2D: with shape bodies too)."""
    from swept import AABB, Capsule, Polygon, Simulation
    from swept.sim import Body
    rng = np.random.default_rng(2)
    for mode in ("discrete", "swept", "speculative"):
        sim = Simulation(_world(dim), gravity=(0, -980) if dim == 2 else (0, -980, 0))
        sim.add_balls(rng.uniform(10, 90, (300, dim)), 1.0, rng.normal(size=(300, dim)) * 300,
                      ccd=mode)
        if dim == 2:
            for shape in (AABB((40, 40), (42, 42)), Capsule((45, 40), (47, 40), 1.0),
                          Polygon([(50, 40), (52, 40), (51, 42)])):
                sim.add(Body(shape, (30.0, -20.0), ccd=mode))
        sim.run(3)


def _simulation_moves() -> None:
    """The 2D Simulation's move and the rest of its step (``advance_range``, ``after_move``:
    the pair lists, the passes' ``resolve_range``, the bookkeeping), compiled straight from
    Python on the arrays of the Simulation :func:`_simulation` builds, as the step's threaded
    path calls them: the same kernels for the same argument types, which a
    step on one thread reaches only after the contact solver's kernels. In a warm-up this
    family compiles them while ``sim2d`` compiles the solver, so that the Simulation's
    compiles run on two cores instead of one after another (the longest path of a warm-up);
    run after ``sim2d`` (the tour), it loads them from the cache."""
    from swept import AABB, Capsule, Polygon, Simulation
    from swept._kernels import sim as kernels
    from swept._kernels import sim_grid
    from swept.sim import _NO_GRAVITY, _NO_SHIFT, Body
    rng = np.random.default_rng(2)
    sim = Simulation(_world(2), gravity=(0, -980))
    sim.add_balls(rng.uniform(10, 90, (300, 2)), 1.0, rng.normal(size=(300, 2)) * 300,
                  ccd="swept")
    for shape in (AABB((40, 40), (42, 42)), Capsule((45, 40), (47, 40), 1.0),
                  Polygon([(50, 40), (52, 40), (51, 42)])):
        sim.add(Body(shape, (30.0, -20.0), ccd="swept"))
    scene = sim._scene()
    bodies, scratch = sim._arrays, sim._scratch
    n = bodies.pos.shape[0]
    grid = sim_grid.build_gather_grid(scene)
    kernels.advance_range(0, n, scene, bodies, scratch, _NO_GRAVITY, sim.time_step,
                          sim.max_casts, grid)
    kernels.after_move(scene, bodies, scratch, sim.passes, 2, _NO_SHIFT,
                       kernels.new_step_lists(n), grid)


def _level_tiles() -> None:
    """Tile maps: a ray, sweeps, contacts and closest points of a ball, a box and a capsule,
    and a box's move_and_slide."""
    from swept import (
        AABB,
        Capsule,
        Circle,
        Ray,
        TileMap,
        closest_points,
        contact,
        move_and_slide,
        raycast,
        sweep,
    )
    tiles: Any = TileMap(np.array([[0, 0, 0], [1, 1, 1]], bool), cell_size=16)
    raycast(Ray((8, 4), (0, 1)), tiles)
    for walker in (Circle((8, 4), 3), AABB((4, 2), (10, 6)), Capsule((4, 4), (10, 4), 2)):
        sweep(walker, (20, 30), tiles)
        contact(walker, tiles)
        closest_points(walker, tiles)
    move_and_slide(AABB((4, 2), (10, 6)), (20, 30), 1.0, [tiles], skin=1e-3)


def _level_surface(mesh: bool) -> None:
    """A triangle mesh (``mesh``) or a height field: rays (one and many), sweeps, contacts,
    distances and a capsule's move_and_slide."""
    from swept import (
        AABB,
        Capsule,
        HeightField,
        Ray,
        Sphere,
        TriangleMesh,
        contact,
        distance,
        move_and_slide,
        raycast,
        sweep,
    )
    from swept.level import raycast_many
    rng = np.random.default_rng(3)
    field = HeightField(rng.normal(0.0, 0.3, (20, 20)), scale=(0.5, 1.0, 0.5))
    surface: Any = TriangleMesh(field.vertices, field.triangles) if mesh else field
    origins = np.tile([[4.0, 5.0, 4.0]], (100, 1))
    directions = rng.normal(size=(100, 3))
    raycast(Ray((4, 5, 4), (0, -1, 0)), surface)
    raycast_many(surface, origins, directions)
    for m in (Sphere((4, 2, 4), 0.5), Capsule((4, 2, 4), (4, 3, 4), 0.5),
              AABB((3.5, 2, 3.5), (4.5, 3, 4.5))):
        sweep(m, (0, -5, 0), surface)
        contact(m, surface)
        distance(m, surface)
    move_and_slide(Capsule((4, 2, 4), (4, 3, 4), 0.5), (1, -5, 0), 1.0, [surface],
                   skin=1e-3)


#: The kernel families a warm-up compiles, by name, in the order they start (CPU s each, alone
#: from an empty cache, the base of 2026-12-01: sim2d 90, world2d 72, level 46, scalar2d 8,
#: scalar3d 8, world3d and sim3d a few once their 2D twins are cached; sim2d_moves 66 alone,
#: after which sim2d compiles 17.5 more). In a warm-up of 2026-12-02 08:55 (load 4 to 5, three
#: processes): sim2d 42.6, world2d 33.9, sim2d_moves 30.3, level 28.5 (started as the first
#: process freed and alone for its last 21 s), the rest under 10. The level geometry is three
#: families since (about 23 s of CPU the meshes and height fields, 3 the tile maps), so that
#: the pieces left when the first three end are small enough to share the cores evenly (a
#: warm-up at load 2, 09:55: sim2d_moves 31.3, world2d 35.5, sim2d 41.4, level_meshes 15.5,
#: level_fields 9.4, scalar2d 8.4, scalar3d 4.5, level_tiles 2.6; all ended within 2.5 s).
#: The order since session 25 (2026-12-03), for one process a core on 2 cores: the Simulation
#: first and alone (``sim2d`` about 46-49 s of CPU), the level meshes beside it, then the
#: World (whose kernels it shares with the Simulation: started second, it waited 9 s of 38 on
#: ``sim2d``'s compile locks; third, none), then the small families, so that both processes end
#: together; ``sim2d_moves`` comes after them (on 2 cores it loads what ``sim2d`` compiled; on
#: more cores it starts sooner and splits the Simulation's chain as before). Cold warm-ups of
#: the same code in the old and this order, idle (load 0.1 to 1.7), one after the other: 67.6
#: s (``sim2d_moves`` and ``sim2d`` started together, waiting 17 s on each other's locks), and
#: 53.4 s, 103.7 s of CPU (both processes done within 0.1 s of each other).
FAMILIES: dict[str, Callable[[], None]] = {
    "sim2d": lambda: _simulation(2),
    "level_meshes": lambda: _level_surface(True),
    "world2d": lambda: _world_queries(2),
    "level_fields": lambda: _level_surface(False),
    "scalar2d": _scalar2d,
    "scalar3d": _scalar3d,
    "level_tiles": _level_tiles,
    "sim2d_moves": _simulation_moves,
    "world3d": lambda: _world_queries(3),
    "sim3d": lambda: _simulation(3),
}

#: The families each waits for in a warm-up: a 3D family compiles little beyond its 2D twin's
#: kernels (world3d 3.7 s, sim3d 1.4 s of CPU after them), so it starts once the twin is
#: done instead of holding a process while it waits for the twin's compile locks.
AFTER: dict[str, tuple[str, ...]] = {
    "world3d": ("world2d",),
    "sim3d": ("sim2d", "sim2d_moves", "world3d"),
}


def run_families(names: Sequence[str]) -> dict[str, float]:
    """Run the families ``names`` in this process (compiling what they meet); returns the CPU
    seconds each took. KeyError names an unknown family."""
    spent = {}
    for name in names:
        family = FAMILIES[name]
        start = time.process_time()
        family()
        spent[name] = time.process_time() - start
    return spent


#: The line a warm-up worker prints before each family's result (JSON), so that anything else
#: a family prints on stdout is skipped.
_RESULT = "swept-warmup-result "

#: A warm-up worker: an interpreter that runs the families named on its stdin, one a line,
#: printing each one's CPU seconds (or its error, after which it exits). At the end of its
#: stdin it ends at once (``os._exit``): numba wrote each compile to the disk cache as it
#: finished, and the interpreter's own shutdown (freeing every compile's IR and types) took
#: 0.4-0.5 s of CPU a worker and 3 s of wall time at load 11, at the end of every warm-up.
_WORKER = (
    "import json, os, sys, traceback\n"
    "from swept.warmup import run_families\n"
    "for line in sys.stdin:\n"
    "    name = line.strip()\n"
    "    try:\n"
    "        answer = {'cpu': run_families([name])[name]}\n"
    "    except BaseException:\n"
    "        answer = {'error': traceback.format_exc()[-2000:]}\n"
    f"    print({_RESULT!r} + json.dumps(answer), flush=True)\n"
    "    if 'error' in answer:\n"
    "        break\n"
    "sys.stderr.flush()\n"
    "os._exit(0)\n")

#: Lines of other output a worker may print before a family's result (a cap on the read).
_MAX_OTHER_LINES = 100_000


class _Worker:
    """One warm-up worker process (:data:`_WORKER`) and the file its stderr goes to."""

    def __init__(self, locks: str) -> None:
        env = dict(os.environ)
        if locks:
            env[LOCKS_ENV] = locks
        # closed by close(), which ends the worker
        self.stderr = tempfile.TemporaryFile(mode="w+")  # noqa: SIM115
        self.process = subprocess.Popen([sys.executable, "-c", _WORKER], stdin=subprocess.PIPE,
                                        stdout=subprocess.PIPE, stderr=self.stderr, text=True,
                                        env=env)

    def run(self, name: str) -> dict[str, Any]:
        """Run family ``name``: its answer, ``{"cpu": seconds}`` or ``{"error": text}``."""
        stdin, stdout = self.process.stdin, self.process.stdout
        assert stdin is not None and stdout is not None
        try:
            stdin.write(name + "\n")
            stdin.flush()
        except OSError:
            pass  # the worker died: its stdout ends at once, below
        for _ in range(_MAX_OTHER_LINES):
            line = stdout.readline()
            if not line:
                break
            if line.startswith(_RESULT):
                answer: dict[str, Any] = json.loads(line[len(_RESULT):])
                return answer
        self.close()
        self.stderr.seek(0)
        tail = self.stderr.read()[-2000:]
        return {"error": f"the worker ended (status {self.process.returncode}): {tail}"}

    def release(self) -> None:
        """Close the worker's stdin: it exits once its family (if any) ends."""
        with contextlib.suppress(OSError):
            if self.process.stdin is not None:
                self.process.stdin.close()

    def close(self) -> None:
        """End the worker (:meth:`release`) and wait for it."""
        self.release()
        try:
            self.process.wait(timeout=60)
        except subprocess.TimeoutExpired:
            self.process.kill()
            self.process.wait()
        self.stderr.close()


#: The idle workers of each running warm-up, by its compile-lock directory.
_idle: dict[str, queue.SimpleQueue[_Worker]] = {}


def _child(name: str, locks: str = "") -> tuple[str, float, float]:
    """Run family ``name`` in a worker interpreter (an idle one of this warm-up's, else a new
    one), sharing the compile-lock directory ``locks``: (name, wall seconds, CPU seconds).
    RuntimeError with the family's error when it fails (that worker is ended)."""
    start = time.perf_counter()
    idle = _idle.setdefault(locks, queue.SimpleQueue())
    try:
        worker = idle.get_nowait()
    except queue.Empty:
        worker = _Worker(locks)
    answer = worker.run(name)
    if "error" in answer:
        worker.close()
        raise RuntimeError(f"warm-up family {name!r} failed: {str(answer['error']).strip()}")
    idle.put(worker)
    return name, time.perf_counter() - start, float(answer["cpu"])


def _close_workers(locks: str) -> None:
    """End the idle workers of the warm-up that uses the lock directory ``locks``."""
    idle = _idle.pop(locks, None)
    workers: list[_Worker] = []
    while idle is not None and not idle.empty():
        workers.append(idle.get_nowait())
    # all told first, then waited for: their exits (a second or more each) overlap
    for worker in workers:
        worker.release()
    for worker in workers:
        worker.close()


def warm_up(jobs: int | None = None, names: Sequence[str] | None = None,
            starts: dict[str, float] | None = None) -> dict[str, tuple[float, float]]:
    """Compile the families ``names`` (default: all of :data:`FAMILIES`) into numba's cache,
    ``jobs`` at a time (default: the CPU count) in as many worker interpreters,
    each running one family after another, sharing compile locks; returns each family's
    (wall, CPU) seconds, and fills ``starts`` (if given) with each family's start, in seconds
    after the first. ValueError for ``jobs``
    under 1 or an unknown family; RuntimeError when a family fails (the others still run)."""
    chosen = list(FAMILIES) if names is None else list(names)
    unknown = [n for n in chosen if n not in FAMILIES]
    if unknown:
        raise ValueError(f"names: unknown warm-up famil{'y' if len(unknown) == 1 else 'ies'} "
                         f"{', '.join(map(repr, unknown))}; choose from {', '.join(FAMILIES)}")
    if jobs is None:
        jobs = os.cpu_count() or 1
    if isinstance(jobs, bool) or not isinstance(jobs, int) or jobs < 1:
        raise ValueError(f"jobs must be a whole number of at least 1, got {jobs!r}")
    # each family once the families it waits for (AFTER) are done, in FAMILIES' order
    waiting = [n for n in FAMILIES if n in chosen]
    results: dict[str, tuple[float, float]] = {}
    errors: list[str] = []
    began = time.perf_counter()
    with tempfile.TemporaryDirectory(prefix="swept-warmup-") as locks:
        try:
            with ThreadPoolExecutor(max_workers=jobs) as pool:
                _schedule(pool, locks, jobs, chosen, waiting, results, errors, starts, began)
        finally:
            _close_workers(locks)
    if errors:
        raise RuntimeError("; ".join(errors))
    return results


def _schedule(pool: ThreadPoolExecutor, locks: str, jobs: int, chosen: list[str],
              waiting: list[str], results: dict[str, tuple[float, float]], errors: list[str],
              starts: dict[str, float] | None, began: float) -> None:
    """:func:`warm_up`'s loop: start each family of ``waiting`` once those it waits for are
    done, ``jobs`` at a time, filling ``results`` and ``errors`` as they end."""
    done: set[str] = set()
    running: dict[Future[tuple[str, float, float]], str] = {}
    for _ in range(2 * len(FAMILIES) + 1):
        for name in [n for n in waiting
                     if all(a in done or a not in chosen for a in AFTER.get(n, ()))]:
            if len(running) < jobs:
                running[pool.submit(_child, name, locks)] = name
                if starts is not None:
                    starts[name] = time.perf_counter() - began
                waiting.remove(name)
        if not running:
            break
        finished, _pending = wait(running, return_when=FIRST_COMPLETED)
        for future in finished:
            done.add(running.pop(future))
            try:
                name, wall, cpu = future.result()
                results[name] = (wall, cpu)
            except RuntimeError as exc:
                errors.append(str(exc))
