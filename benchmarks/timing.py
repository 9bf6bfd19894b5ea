"""How the benchmark scripts time their runners (one module, imported by each script).

Two ways, both taking the fastest call of a runner (the one least disturbed by the rest of a
shared machine):

- :func:`best_time`: one runner, its calls in a row.
- :func:`interleaved`: several runners taking turns, in a new random order each round, each
  timed call right after an untimed one of its own. On a shared machine whose load drifts
  within seconds (this one's two vCPUs are SMT siblings of one core, shared with other
  tenants: a busy sibling makes a compiled loop up to 1.8x slower), the runners then see the
  same moments, so their ratios compare like with like. A random order, because in a fixed
  one the runner after `bench_broadphase`'s plain BVH read 1.4-1.6x slower than the same
  runner elsewhere, in every run on clusters of 1,000, whichever runner it was (not
  explained).

The scripts are loaded by path (``swept bench``), so each puts its own folder on ``sys.path``
before ``import timing``.
"""

from __future__ import annotations

import math
import random
import time
from collections.abc import Callable, Mapping
from typing import Any

#: Seed of :func:`interleaved`'s round orders (the same orders in every run).
ORDER_SEED = 11

#: A clock: seconds as a float (``time.perf_counter``, ``time.thread_time``).
Clock = Callable[[], float]


def best_time(fn: Callable[[], Any], repeats: int, clock: Clock = time.perf_counter,
              warm: bool = True) -> float:
    """The fastest of ``repeats`` (at least one) timed calls of ``fn``, in seconds of
    ``clock``, after one untimed call when ``warm`` (leave it out for runners whose first
    call is what is measured, or that build something new each call anyway).

    ``time.thread_time`` leaves out the time other processes hold the core (wall-clock minima
    of one runner moved by 2x between runs at a load of 10 on 2 cores); a call on several
    threads needs the wall clock, the only one that sees its helpers' work overlap."""
    if warm:
        fn()
    best = math.inf
    for _ in range(max(1, repeats)):
        start = clock()
        fn()
        best = min(best, clock() - start)
    return best


def interleaved(runners: Mapping[str, Callable[[], Any]], rounds: int, *,
                clocks: Mapping[str, Clock] | None = None,
                seed: int = ORDER_SEED) -> dict[str, float]:
    """The fastest of ``rounds`` timed calls of each runner, in seconds, the runners taking
    turns in a new random order each round (``seed``), each timed call right after an untimed
    one of the same runner (so that it finds its own data in the cache, not the previous
    runner's). Each runner is timed on its clock in ``clocks``, by default this thread's CPU
    time."""
    best = dict.fromkeys(runners, math.inf)
    names = list(runners)
    shuffle = random.Random(seed)
    for _ in range(max(1, rounds)):
        shuffle.shuffle(names)
        for name in names:
            clock = clocks[name] if clocks is not None and name in clocks else time.thread_time
            best[name] = min(best[name], best_time(runners[name], 1, clock))
    return best
