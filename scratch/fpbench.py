import sys, time
sys.path.insert(0, "benchmarks")
import numpy as np
import bench_sim as bs
import swept
from swept._kernels import sim as _k
swept.set_threads(1)
N = int(sys.argv[1]) if len(sys.argv) > 1 else 10000
sim = bs._swept_sim(bs.make_scene(N), "swept"); sim.run(10)
pos, radius = sim._pos, sim._radius
def tm(name, f, reps=30):
    ts = []
    for _ in range(reps):
        t = time.process_time(); f(); ts.append(time.process_time() - t)
    print(f"{name:24s} {1000*np.median(ts):7.3f} ms")
tm("find_pairs", lambda: _k.find_pairs(pos, radius, 2))
tm("pair_grid", lambda: _k.pair_grid(pos, radius, 2))
grid = _k.pair_grid(pos, radius, 2)
counts = np.zeros(N, np.int64); table = np.empty((N, 16), np.int64)
tm("count_neighbours", lambda: _k.count_neighbours_range(0, N, pos, radius, grid, table, counts))
start = np.zeros(N + 1, np.int64); np.cumsum(counts, out=start[1:]); nb = np.empty(start[-1], np.int64)
tm("fill_neighbours", lambda: _k.fill_neighbours_range(0, N, pos, radius, grid, table, start, nb))
tm("np.zeros table", lambda: np.empty((N, 16), np.int64))
