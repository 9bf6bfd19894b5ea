"""Hash of a Simulation's state after steps on bench_sim's scene: positions, velocities, counters, events."""
import sys, hashlib, time
sys.path.insert(0, sys.argv[4] if len(sys.argv) > 4 else "benchmarks")
import numpy as np
import bench_sim as bs
import swept
N = int(sys.argv[1]); steps = int(sys.argv[2]); threads = int(sys.argv[3])
swept.set_threads(threads)
sim = bs._swept_sim(bs.make_scene(N), "swept")
h = hashlib.sha256()
times = []
for k in range(steps):
    t = time.process_time(); sim.run(1); times.append(time.process_time() - t)
    for a in (sim.positions, sim.velocities, sim.caught, sim.missed):
        h.update(np.ascontiguousarray(a).tobytes())
    for ev in (sim.contacts_began, sim.contacts_ended):
        h.update(ev.tobytes())
print(N, steps, threads, h.hexdigest()[:16], "median ms %.3f" % (1000*np.median(times[2:])), "missed", sim.missed_total)
