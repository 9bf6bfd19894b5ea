import sys, time
sys.path.insert(0, "benchmarks")
import numpy as np, bench_sim as bs, swept
swept.set_threads(1)
N = int(sys.argv[1]) if len(sys.argv) > 1 else 10000
sim = bs._swept_sim(bs.make_scene(N), "swept"); sim.run(5)
t = time.process_time(); sim.run(int(sys.argv[2]) if len(sys.argv) > 2 else 200); print("ms/step", (time.process_time() - t) / 200 * 1000)
