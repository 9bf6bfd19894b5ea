"""Per-kernel CPU time on a snapshot of bench_sim's 10k scene (restored before each call)."""
import sys, time
sys.path.insert(0, "benchmarks")
import numpy as np
import bench_sim as bs
import swept
from swept._kernels import sim as _k, solver as _solver, events as _ek
swept.set_threads(1)
N = int(sys.argv[1]) if len(sys.argv) > 1 else 10000
REPS = int(sys.argv[2]) if len(sys.argv) > 2 else 15
sim = bs._swept_sim(bs.make_scene(N), "swept")
sim.run(10)
scene = sim._scene()
b, s = sim._arrays, sim._scratch
def snap():
    return [a.copy() for a in b] + [a.copy() for a in s]
def restore(saved):
    for dst, src in zip(list(b) + list(s), saved):
        dst[...] = src
# state at the start of a step: solve velocities the way the sim does (after gravity none)
sim._solve_velocities(scene)
shift = sim._shift if sim._shifted else np.zeros((0, 3))
saved = snap()
def timeit(name, f, reps=REPS):
    ts = []
    for _ in range(reps):
        restore(saved)
        t = time.process_time(); f(); ts.append(time.process_time() - t)
    print(f"{name:24s} {1000*np.median(ts):7.3f} ms (min {1000*min(ts):.3f})")
g = sim._gather_grid
noG = np.zeros(3)
timeit("advance_range", lambda: _k.advance_range(0, N, scene, b, s, noG, sim.time_step, sim.max_casts, g))
restore(saved); _k.advance_range(0, N, scene, b, s, noG, sim.time_step, sim.max_casts, g)
moved = snap()
ts = []
for _ in range(REPS):
    t = time.process_time(); _k.find_pairs(b.pos, b.radius, 2); ts.append(time.process_time() - t)
print(f"{'find_pairs_serial':24s} {1000*np.median(ts):7.3f} ms")
first, nb = _k.find_pairs(b.pos, b.radius, 2)
pairs = _k.meeting_pairs(b, first, nb)
print("pairs", pairs.shape[0], "neighbours", nb.shape[0])
ts = []
for _ in range(REPS):
    restore(moved); t = time.process_time()
    for k in range(sim.passes):
        s.dpos[:] = 0.0
        _k.pairs_pass(b, pairs, s.dpos)
    ts.append(time.process_time() - t)
print(f"{'6 pairs_pass':24s} {1000*np.median(ts):7.3f} ms")
ts = []
for _ in range(REPS):
    restore(moved); t = time.process_time()
    for k in range(sim.passes):
        s.dpos[:] = 0.0
        _k.resolve_range(0, N, scene, b, s)
    ts.append(time.process_time() - t)
print(f"{'6 resolve (no pushes)':24s} {1000*np.median(ts):7.3f} ms")
ts = []
for _ in range(REPS):
    restore(moved); t = time.process_time(); _k.approaches_range(0, N, scene, b, s); ts.append(time.process_time() - t)
print(f"{'approaches_range':24s} {1000*np.median(ts):7.3f} ms")
restore(saved); _k.advance_range(0, N, scene, b, s, noG, sim.time_step, sim.max_casts, g)
cc = s.cache_count
print("cache_count hist", np.bincount(np.maximum(cc, 0))[:12], "overflow", (cc < 0).sum())
print("responded", s.responded.sum(), "touching", s.touching.sum(), "asleep", b.asleep.sum())
print("grid dims", g.dims, "cell", 1 / g.frame[2], "entries", g.ranks.shape[0], "colliders", scene.rows.shape[0])
sp = np.sqrt((b.vel**2).sum(1)); print("speed*dt median", np.median(sp) * sim.time_step)
m0 = b.mask.copy()
saved_mask_idx = 8
saved[saved_mask_idx][:] = 0
timeit("advance mask=0", lambda: _k.advance_range(0, N, scene, b, s, noG, sim.time_step, sim.max_casts, g))
saved[saved_mask_idx][:] = m0
saved[1][:] = 0.0
timeit("advance vel=0", lambda: _k.advance_range(0, N, scene, b, s, noG, sim.time_step, sim.max_casts, g))
