"""The Simulation survives any input inside the contract (issue 12, item 3).

A crash in a compiled kernel (an out-of-range index, a float-to-int overflow) ends the whole
process, so the fuzzing runs in a subprocess and the test asserts that the process lives and
says so. Inside, random extreme scenes (coordinates and radii from 1e-30 to 1e50, speeds up to
1e50, every ccd mode, coincident bodies, huge and tiny walls) are stepped, and every position
and velocity must stay finite (never NaN).
"""

from __future__ import annotations

import subprocess
import sys
import textwrap
from pathlib import Path

import pytest

FUZZ = textwrap.dedent(r"""
    import math, sys
    import numpy as np
    from swept import Plane
    from swept.sim import Simulation
    sys.path.insert(0, sys.argv[2])
    from shared import add_random_statics

    seed = int(sys.argv[1])
    rng = np.random.default_rng(seed)

    def magnitude():
        # a signed value of any size the contract allows
        return float(rng.choice([-1.0, 1.0]) * 10.0 ** rng.uniform(-30.0, 50.0))

    for trial in range(12):
        dim = 2 if trial % 3 else 3
        gravity = tuple(magnitude() * rng.integers(0, 2) for _ in range(dim))
        sim = Simulation(gravity=gravity)
        if dim == 3:
            # 3D: spheres among a plane
            sim.world.add(Plane((0.0, 0.0, 1.0), magnitude()))
        if dim == 2:
            add_random_statics(sim.world, rng, magnitude)
        n = int(rng.integers(1, 6))
        if rng.random() < 0.3:
            # coincident bodies
            centers = np.tile([[magnitude() for _ in range(dim)]], (n, 1))
        else:
            centers = np.array([[magnitude() for _ in range(dim)] for _ in range(n)])
        radii = np.abs([magnitude() for _ in range(n)])
        velocities = np.array([[magnitude() for _ in range(dim)] for _ in range(n)])
        ccd = ["discrete", "swept", "speculative"][int(rng.integers(0, 3))]
        sim.add_balls(centers, radii, velocities, restitution=float(rng.random()),
                      friction=float(rng.random()), ccd=ccd)
        # a few steps, and one long run that carries bodies far beyond the contract's range
        for _ in range(4 if trial else 300):
            sim.step()
            if not (np.isfinite(sim.positions).all() and np.isfinite(sim.velocities).all()):
                print("NON-FINITE", seed, trial, ccd, sim.positions, sim.velocities)
                sys.exit(3)
    print("SURVIVED", seed)
""")


@pytest.mark.parametrize("seed", range(6))
def test_random_extreme_scenes_never_crash_nor_give_nan(seed: int) -> None:
    """Random scenes at the edges of the input contract: the process survives, every output
    stays finite."""
    done = subprocess.run([sys.executable, "-c", FUZZ, str(seed), str(Path(__file__).parent)],
                          capture_output=True, text=True, timeout=600)
    assert done.returncode == 0, (done.returncode, done.stdout[-2000:], done.stderr[-2000:])
    assert f"SURVIVED {seed}" in done.stdout
