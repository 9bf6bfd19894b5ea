"""Hash of a settling pile (gravity, solver shifts, sleeping, events) after steps."""
import sys, hashlib, time
sys.path.insert(0, sys.argv[3] if len(sys.argv) > 3 else "benchmarks")
import numpy as np
from bench_settle import pile_scene, STEP
import swept
from swept import Segment
from swept.sim import Simulation
steps = int(sys.argv[1]); threads = int(sys.argv[2])
swept.set_threads(threads)
sc = pile_scene()
sim = Simulation(gravity=sc["gravity"], step=STEP)
for a, b in sc["walls"]:
    sim.world.add(Segment(a, b))
sim.add_balls(sc["centers"], sc["radii"], sc["velocities"], restitution=0.2, friction=0.3, ccd="swept")
h = hashlib.sha256(); ts = []
for k in range(steps):
    t = time.process_time(); sim.step(); ts.append(time.process_time() - t)
    for a in (sim.positions, sim.velocities, sim.caught, sim.missed, sim.sleeping):
        h.update(np.ascontiguousarray(a).tobytes())
    for ev in (sim.contacts_began, sim.contacts_ended):
        h.update(ev.tobytes())
print("pile", len(sim.radii), steps, threads, h.hexdigest()[:16], "median ms %.3f" % (1000*np.median(ts)), "sleeping", int(sim.sleeping.sum()))
