import sys, time, cProfile, pstats
sys.path.insert(0, "benchmarks")
import bench_sim as bs, swept
swept.set_threads(1)
scene = bs.make_scene(int(sys.argv[1]) if len(sys.argv) > 1 else 1000)
bs._swept_sim(bs.make_scene(200), "swept").run(1)
sim = bs._swept_sim(scene, "swept"); sim.run(10)
pr = cProfile.Profile(); pr.enable(); sim.run(int(sys.argv[2]) if len(sys.argv) > 2 else 200); pr.disable()
pstats.Stats(pr).sort_stats("tottime").print_stats(25)
