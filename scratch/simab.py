import sys, time
sys.path.insert(0, "benchmarks")
import bench_sim as bs
time.perf_counter = time.process_time  # CPU time: one-thread runs only
steps = int(sys.argv[1]) if len(sys.argv) > 1 else 120
scene = bs.make_scene(10000)
rows = []
for rep in range(2):
    for f in (lambda: bs.run_swept(scene, steps, "swept", 1), lambda: bs.run_pymunk(scene, steps)):
        r = f(); rows.append((r["engine"], r["steps_per_second"], r["balls_tunneled"]))
for e, s, t in rows: print(f"{e:28s} {s:8.1f} steps/s (CPU)  tunneled {t}")
