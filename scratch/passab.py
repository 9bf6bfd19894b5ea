"""The contact passes on a snapshot of bench_sim's scene after the move: every body (old) against
work lists (new), alternated, CPU medians."""
import sys, time
sys.path.insert(0, "benchmarks"); sys.path.insert(0, "tests")
import numpy as np
import bench_sim as bs
import swept
from swept._kernels import sim as _k
swept.set_threads(1)
N = int(sys.argv[1]) if len(sys.argv) > 1 else 10000
sim = bs._swept_sim(bs.make_scene(N), "swept"); sim.run(10)
from test_sim_step_cost import _after_move
scene, b, s, pairs, shift = _after_move(sim)
n = N
saved = [a.copy() for a in (*b, *s)]
def restore():
    for d, x in zip((*b, *s), saved): d[...] = x
ar = np.arange(n)
def old():
    for k in range(sim.passes):
        s.dpos[:] = shift if k == 0 and shift.shape[0] else 0.0
        _k.pairs_pass(b, pairs, s.dpos)
        _k.resolve_range(0, n, scene, b, s, ar)
def new():
    changed = np.empty(n, np.int64); listed = np.empty(n, np.bool_); work = np.empty(n, np.int64)
    count = _k.first_work(b, s, shift, changed, listed, work)
    for k in range(sim.passes):
        count = _k.listed_pairs_pass(b, pairs, s.dpos, k, changed, listed, work, count)
        _k.resolve_range(0, count, scene, b, s, work)
        count = _k.next_work(k, s, changed, listed, work, count)
to, tn = [], []
for _ in range(31):
    for f, ts in ((old, to), (new, tn)):
        restore(); t = time.process_time(); f(); ts.append(time.process_time() - t)
print(f"passes at {N}: every body {1000*np.median(to):.3f} ms, work lists {1000*np.median(tn):.3f} ms")
restore()
changed = np.empty(n, np.int64); listed = np.empty(n, np.bool_); work = np.empty(n, np.int64)
count = _k.first_work(b, s, shift, changed, listed, work)
for k in range(sim.passes):
    t0 = time.process_time()
    c0 = count
    count = _k.listed_pairs_pass(b, pairs, s.dpos, k, changed, listed, work, count)
    t1 = time.process_time()
    _k.resolve_range(0, count, scene, b, s, work)
    t2 = time.process_time()
    print(f"pass {k}: listed {c0} -> {count}, pairs {1e6*(t1-t0):.0f} us, resolve {1e6*(t2-t1):.0f} us")
    count = _k.next_work(k, s, changed, listed, work, count)
print("pairs", pairs.shape[0])
