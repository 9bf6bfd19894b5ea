"""Start-up cost: ``import swept`` plus a first query, in fresh processes, with a warm cache.

Issue 2 asks that, with numba's on-disk cache warm, ``import swept`` and a first ray cast take
under a second together. The script warms the cache once, then runs ``--runs`` fresh
interpreters and reports the minimum and median of each part.

Run: python benchmarks/bench_import.py [--runs 7]
"""

from __future__ import annotations

import argparse
import json
import statistics
import subprocess
import sys
from pathlib import Path

PROBE = """
import time
t0 = time.perf_counter()
import numba  # noqa: F401
t1 = time.perf_counter()
import swept
t2 = time.perf_counter()
hit = swept.raycast(swept.Ray((0, 0), (1, 0)), swept.Circle((5, 0), 1))
t3 = time.perf_counter()
assert hit is not None and hit.distance == 4.0
print(t1 - t0, t2 - t1, t3 - t2)
"""


def main() -> None:
    """Measure and print the start-up table; write JSON to benchmarks/results/import.json."""
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--runs", type=int, default=7)
    args = parser.parse_args()
    subprocess.run([sys.executable, "-c", PROBE], check=True, capture_output=True)  # warm
    rows = []
    for _ in range(args.runs):
        out = subprocess.run([sys.executable, "-c", PROBE], check=True, capture_output=True,
                             text=True).stdout
        rows.append(tuple(float(x) for x in out.split()))
    parts = ["import numba", "import swept (after numba)", "first query", "total"]
    columns = list(zip(*rows))
    columns.append(tuple(sum(r) for r in rows))
    print(f"{'part':28s} {'min s':>8s} {'median s':>9s}")
    result = {}
    for name, values in zip(parts, columns):
        print(f"{name:28s} {min(values):8.3f} {statistics.median(values):9.3f}")
        result[name] = {"min": min(values), "median": statistics.median(values)}
    out_dir = Path(__file__).parent / "results"
    out_dir.mkdir(exist_ok=True)
    (out_dir / "import.json").write_text(json.dumps(result, indent=2))


if __name__ == "__main__":
    main()
