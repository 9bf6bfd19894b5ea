import sys, time
sys.path.insert(0, "benchmarks")
import numpy as np, numba
import bench_sim as bs
import swept
from swept._kernels import sim as _k
swept.set_threads(1)
N = 10000
sim = bs._swept_sim(bs.make_scene(N), "swept"); sim.run(10)
pos, radius = sim._pos, sim._radius
grid = _k.pair_grid(pos, radius, 2)
M = 1.25
@numba.njit(cache=False)
def count_order(pos, radius, grid, table, counts, sorted_first):
    cells, sorted_keys, cell_start, order, sx, sy, dim = grid
    n = pos.shape[0]
    for q0 in range(n):
        i = order[q0] if sorted_first else q0
        found = 0
        pix = pos[i, 0]; piy = pos[i, 1]; piz = pos[i, 2]; ri = radius[i]
        for oy in range(-1, 2):
            key = ((cells[i, 2]) * sy + cells[i, 1] + oy) * sx + cells[i, 0] - 1
            s = cell_start[key]; e = cell_start[key + 3]
            for q in range(s, e):
                j = order[q]
                dx = pix - pos[j, 0]; dy = piy - pos[j, 1]; dz = piz - pos[j, 2]
                reach = (ri + radius[j]) * M
                ok = (dx * dx + dy * dy + dz * dz <= reach * reach) & (j != i)
                if found < 16:
                    table[i, found] = j
                found += ok
        counts[i] = found
@numba.njit(cache=False)
def count_soa(pos, radius, grid, table, counts, sp):
    cells, sorted_keys, cell_start, order, sx, sy, dim = grid
    n = pos.shape[0]
    for q in range(n):
        j = order[q]
        sp[q, 0] = pos[j, 0]; sp[q, 1] = pos[j, 1]; sp[q, 2] = pos[j, 2]; sp[q, 3] = radius[j]
    for q0 in range(n):
        i = order[q0]
        found = 0
        pix = sp[q0, 0]; piy = sp[q0, 1]; piz = sp[q0, 2]; ri = sp[q0, 3]
        for oy in range(-1, 2):
            key = ((cells[i, 2]) * sy + cells[i, 1] + oy) * sx + cells[i, 0] - 1
            s = cell_start[key]; e = cell_start[key + 3]
            for q in range(s, e):
                j = order[q]
                dx = pix - sp[q, 0]; dy = piy - sp[q, 1]; dz = piz - sp[q, 2]
                reach = (ri + sp[q, 3]) * M
                ok = (dx * dx + dy * dy + dz * dz <= reach * reach) & (j != i)
                if found < 16:
                    table[i, found] = j
                found += ok
        counts[i] = found
counts = np.zeros(N, np.int64); table = np.empty((N, 16), np.int64)
def tm(name, f, reps=40):
    f(); ts = []
    for _ in range(reps):
        t = time.process_time(); f(); ts.append(time.process_time() - t)
    print(f"{name:24s} {1000*np.median(ts):7.3f} ms")
for rep in range(2):
    tm("count_neighbours", lambda: _k.count_neighbours_range(0, N, pos, radius, grid, table, counts))
    ref = counts.copy()
    tm("index order njit", lambda: count_order(pos, radius, grid, table, counts, False))
    assert (counts == ref).all()
    tm("cell order njit", lambda: count_order(pos, radius, grid, table, counts, True))
    assert (counts == ref).all()
    sp = np.empty((N, 4))
    tm("cell order soa", lambda: count_soa(pos, radius, grid, table, counts, sp))
    assert (counts == ref).all()
