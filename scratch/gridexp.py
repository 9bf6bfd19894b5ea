"""advance_range's time against the gather grid's cells per collider (same lists at any size)."""
import sys, time, inspect, textwrap
sys.path.insert(0, "benchmarks")
import numpy as np, numba
import bench_sim as bs
import swept
from swept._kernels import sim as _k, sim_grid as sg
swept.set_threads(1)
N = int(sys.argv[1]) if len(sys.argv) > 1 else 10000
src = inspect.getsource(sg.build_gather_grid.py_func)
src = src.replace("@kernel\n", "").replace("def build_gather_grid(scene: Scene)", "def build_grid_f(scene, CELLS)")
src = src.replace("SIM_GRID_CELLS_PER_COLLIDER", "CELLS").replace("-> GatherGrid:", ":")
ns = dict(vars(sg)); exec(src, ns)
build = numba.njit(ns["build_grid_f"])
sim = bs._swept_sim(bs.make_scene(N), "swept"); sim.run(10)
scene = sim._scene(); b, s = sim._arrays, sim._scratch
sim._solve_velocities(scene)
saved = [a.copy() for a in (*b, *s)]
def restore():
    for d, x in zip((*b, *s), saved): d[...] = x
ref = None
for rep in range(3):
    for cells in (1.0, 2.0, 4.0, 8.0, 16.0):
        g = build(scene, cells)
        ts = []
        for _ in range(9):
            restore(); t = time.process_time()
            _k.advance_range(0, N, scene, b, s, np.zeros(3), sim.time_step, sim.max_casts, g)
            ts.append(time.process_time() - t)
        out = b.pos.tobytes() + s.cache.tobytes() + s.cache_count.tobytes()
        if ref is None: ref = out
        assert out == ref
        print(f"cells/collider {cells:5.1f} dims {g.dims} entries {g.ranks.shape[0]:6d}  advance {1000*np.median(ts):.3f} ms")
