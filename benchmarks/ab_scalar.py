"""A/B of the scalar queries (one call, one query): a base revision and the working tree in ONE
process, alternated call by call, one thread.

For a change to how kernels are compiled (``compile16``: numba's function passes left to the
module passes outside ``swept._kernels.HOT_KERNELS``) the scalar queries' machine code moves,
not their answers. Each query (:data:`QUERIES`: rays against each 2D shape and a sphere,
contacts, distances, manifolds, sweeps and a time of impact between small shapes) is built from
each package's own shapes; each round times a loop of ``--calls`` calls of the base's and of
the working tree's (the order swapped every round), by the thread's CPU clock. Reported: the
median over the rounds of each round's new / base ratio (with quartiles), and whether every
answer's text (``repr``, every float's digits) agrees. The base package is ``ab_rays.py``'s
``sweptbase`` (``benchmarks/results/ab-<rev>``). Usage::

    PYTHONPATH=$PWD/src python benchmarks/ab_scalar.py --base main --rounds 41
"""

from __future__ import annotations

import argparse
import functools
import hashlib
import os
import statistics
import sys
import time
from collections.abc import Callable
from pathlib import Path
from typing import Any

import numpy as np

HERE = Path(__file__).resolve().parent
sys.path.insert(0, str(HERE))

from ab_rays import base_package  # noqa: E402

#: A query's calls, built from a package: the name and a function of the package giving the
#: list of argument-less calls (each one query).
Query = tuple[str, Callable[[Any], list[Callable[[], Any]]]]


def _rays(pkg: Any, shape: Any, dim: int = 2) -> list[Callable[[], Any]]:
    """Rays from the left at ``shape`` (most hit), one call each."""
    calls = []
    for i in range(16):
        origin = (0.0, 0.1 * (i % 7) - 0.3) if dim == 2 else (0.0, 0.1 * (i % 7) - 0.3, 0.05 * i)
        direction = (1.0, 0.01 * i) if dim == 2 else (1.0, 0.01 * i, -0.002 * i)
        calls.append(functools.partial(pkg.raycast, pkg.Ray(origin, direction), shape))
    return calls


def _pairs(pkg: Any, fn: str, a: Any, b: Any) -> list[Callable[[], Any]]:
    """``pkg.<fn>(a moved, b)`` for 16 offsets of ``a`` along x, one call each."""
    return [functools.partial(getattr(pkg, fn), a.translated((0.05 * i, 0.0)), b)
            for i in range(16)]


def _polygon(pkg: Any) -> Any:
    """A five-cornered polygon of package ``pkg`` to the right of the origin."""
    return pkg.Polygon([(4.0, -1.0), (6.0, -1.0), (6.5, 0.5), (5.0, 1.2), (3.8, 0.3)])


#: The queries timed, each from the package's own shapes.
QUERIES: tuple[Query, ...] = (
    ("ray circle", lambda p: _rays(p, p.Circle((5.0, 0.0), 1.0))),
    ("ray segment", lambda p: _rays(p, p.Segment((5.0, -1.0), (5.0, 1.0)))),
    ("ray box", lambda p: _rays(p, p.AABB((4.0, -1.0), (6.0, 1.0)))),
    ("ray polygon", lambda p: _rays(p, _polygon(p))),
    ("ray capsule", lambda p: _rays(p, p.Capsule((5.0, -1.0), (5.5, 1.0), 0.4))),
    ("ray sphere", lambda p: _rays(p, p.Sphere((5.0, 0.0, 0.0), 1.0), 3)),
    ("contact polygon polygon", lambda p: _pairs(p, "contact", _polygon(p).translated((-1.5, 0.2)),
                                                 _polygon(p))),
    ("contact circle box", lambda p: _pairs(p, "contact", p.Circle((3.4, 0.0), 0.8),
                                            p.AABB((4.0, -1.0), (6.0, 1.0)))),
    ("distance polygon polygon", lambda p: _pairs(p, "distance",
                                                  _polygon(p).translated((-3.0, 0.5)),
                                                  _polygon(p))),
    ("manifold polygon polygon", lambda p: _pairs(p, "manifold",
                                                  _polygon(p).translated((-1.5, 0.2)),
                                                  _polygon(p))),
    ("sweep circle polygon", lambda p: [
        functools.partial(p.sweep, p.Circle((0.0, 0.1 * i), 0.5), (8.0, 0.0), _polygon(p))
        for i in range(16)]),
    ("time of impact", lambda p: [
        functools.partial(p.time_of_impact, p.Circle((0.0, 0.0), 0.5),
                          p.Motion((0.0, 0.05 * i), 0.0, (8.0, 0.0), 1.0), _polygon(p),
                          p.Motion())
        for i in range(16)]),
)


def _timed(calls: list[Callable[[], Any]], loops: int) -> float:
    """Seconds of this thread's CPU for ``loops`` passes over ``calls``."""
    start = time.thread_time()
    for _ in range(loops):
        for call in calls:
            call()
    return time.thread_time() - start


def compare(name: str, build: Callable[[Any], list[Callable[[], Any]]],
            packages: dict[str, Any], rounds: int, loops: int) -> float:
    """Print and return the median new / base ratio of query ``name``'s rounds."""
    calls = {label: build(pkg) for label, pkg in packages.items()}
    answers = {label: hashlib.sha1(repr([c() for c in cs]).encode()).hexdigest()[:12]
               for label, cs in calls.items()}
    labels = list(packages)
    ratios = []
    for r in range(rounds):
        spent = {}
        for label in (labels if r % 2 == 0 else labels[::-1]):
            spent[label] = _timed(calls[label], loops)
        ratios.append(spent["new"] / spent["base"])
    q = np.quantile(ratios, [0.25, 0.75])
    same = "the same" if answers["base"] == answers["new"] else "DIFFERENT"
    median = statistics.median(ratios)
    print(f"{name:26s} new / base {median:.3f} (quartiles {q[0]:.2f}-{q[1]:.2f}); answers "
          f"{same}", flush=True)
    return median


def main(argv: list[str] | None = None) -> int:
    """Parse the arguments and run."""
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0] if __doc__ else None)
    parser.add_argument("--base", default="main", help="the base revision (git)")
    parser.add_argument("--rounds", type=int, default=41, help="alternated pairs a query")
    parser.add_argument("--loops", type=int, default=20, help="passes over a query's calls a "
                        "timing")
    parser.add_argument("--first", choices=("base", "new"), default="base",
                        help="whose calls come first in the first round")
    args = parser.parse_args(argv)
    if args.rounds < 1 or args.loops < 1:
        parser.error("--rounds and --loops must be at least 1")
    sys.path.insert(0, str(base_package(args.base)))
    import sweptbase  # type: ignore[import-not-found]

    import swept

    packages = {"base": sweptbase, "new": swept}
    if args.first == "new":
        packages = {"new": swept, "base": sweptbase}
    print(f"base {args.base} ({sweptbase.__file__}) against {swept.__file__}; {args.first} "
          f"first; load {os.getloadavg()[0]:.1f}", flush=True)
    ratios = [compare(name, build, packages, args.rounds, args.loops) for name, build in QUERIES]
    print(f"geometric mean of the ratios {float(np.exp(np.mean(np.log(ratios)))):.3f}; load "
          f"{os.getloadavg()[0]:.1f}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
