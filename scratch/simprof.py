"""Per-stage time of a Simulation step on the bench_sim scene (forced staged path, serial)."""
import sys, time, collections
sys.path.insert(0, "benchmarks")
import numpy as np
import bench_sim as bs
import swept
from swept import sim as simmod
from swept._kernels import sim as _k
from swept._kernels import solver as _solver
import swept._parallel as par

N = int(sys.argv[1]) if len(sys.argv) > 1 else 10000
CCD = sys.argv[2] if len(sys.argv) > 2 else "swept"
acc = collections.defaultdict(float)

def timed(name, f):
    def g(*a, **k):
        t = time.process_time(); r = f(*a, **k); acc[name] += time.process_time() - t; return r
    return g

def pf(kernel, n, args, **kw):
    t = time.process_time(); kernel(0, n, *args); acc[kernel.__name__ if hasattr(kernel,'__name__') else str(kernel)] += time.process_time() - t

swept.set_threads(2)
simmod.parallel_for = pf
simmod.SIM_PARALLEL_MIN = 0
for name in ["find_pairs", "pair_pass", "settle_range"]:
    setattr(_k, name, timed(name, getattr(_k, name)))
_solver.build_contacts = timed("build_contacts", _solver.build_contacts)
_solver.solve_contacts = timed("solve_contacts", _solver.solve_contacts)
simmod.Simulation._find_events = timed("events", simmod.Simulation._find_events)
simmod.Simulation._scene = timed("scene", simmod.Simulation._scene)
simmod.Simulation._pack = timed("pack", simmod.Simulation._pack)
scene = bs.make_scene(N)
sim = bs._swept_sim(bs.make_scene(300), CCD); sim.run(3)
sim = bs._swept_sim(scene, CCD)
sim.run(5)
acc.clear()
t0 = time.process_time(); steps = 40
for _ in range(steps):
    sim.run(1)
tot = time.process_time() - t0
print(f"{N} balls {CCD}: {1000*tot/steps:.2f} ms/step CPU")
for k, v in sorted(acc.items(), key=lambda kv: -kv[1]):
    print(f"  {k:22s} {1000*v/steps:8.2f} ms  {100*v/tot:5.1f}%")
print("  other                 ", f"{1000*(tot-sum(acc.values()))/steps:8.2f} ms")
import swept.events as ev
from swept._kernels import events as _ek
acc.clear()
_ek.contact_touches = timed("contact_touches", _ek.contact_touches)
_ek.diff_touches = timed("diff_touches", _ek.diff_touches)
ev.ContactEvents._records = timed("records", ev.ContactEvents._records)
ev._fill = timed("_fill", ev._fill)
for _ in range(steps):
    sim.run(1)
for k, v in sorted(acc.items(), key=lambda kv: -kv[1]):
    print(f"  {k:22s} {1000*v/steps:8.2f} ms")
