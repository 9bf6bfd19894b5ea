"""The benchmarks' shared timing (``benchmarks/timing.py``): the fastest call of a runner, and
runners taking turns in a random order, each timed call after an untimed one of its own."""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path

from shared import bench_script

timing = bench_script("timing", "swept_bench_timing")

#: The modules of the ``bench`` extra, which a clean ``pip install -e ".[dev]"`` lacks.
BENCH_PEERS = {"pymunk", "Box2D", "fcl", "embreex", "pybullet"}


class Ticks:
    """A fake clock: each runner call advances it by that call's cost from a script."""

    def __init__(self) -> None:
        self.now = 0.0

    def __call__(self) -> float:
        return self.now

    def runner(self, name: str, costs: list[float], log: list[str]) -> Callable[[], None]:
        """A runner that logs its name and advances the clock by its next cost."""
        left = list(costs)

        def run() -> None:
            log.append(name)
            self.now += left.pop(0)
        return run


def test_best_time_warms_up_then_keeps_the_fastest_timed_call() -> None:
    # The first (untimed) call is left out of the minimum: its cost of 100 never counts.
    clock = Ticks()
    log: list[str] = []
    fn = clock.runner("a", [100.0, 3.0, 1.5, 2.0], log)
    assert timing.best_time(fn, 3, clock) == 1.5
    assert log == ["a"] * 4


def test_best_time_without_warm_up_times_the_first_call() -> None:
    # A runner whose first call is the measurement (a first ray after a bulk add).
    clock = Ticks()
    log: list[str] = []
    assert timing.best_time(clock.runner("a", [7.0], log), 1, clock, warm=False) == 7.0
    assert timing.best_time(clock.runner("b", [4.0], log), 0, clock, warm=False) == 4.0
    assert log == ["a", "b"]


def test_interleaved_times_each_call_after_an_untimed_one_of_its_own() -> None:
    # Each runner's calls come in pairs (untimed, timed), so the cost charged to a runner is
    # never another runner's: here the untimed calls cost 50, the timed ones their own.
    clock = Ticks()
    log: list[str] = []
    runners = {"a": clock.runner("a", [50.0, 2.0, 50.0, 1.0, 50.0, 3.0], log),
               "b": clock.runner("b", [50.0, 9.0, 50.0, 8.0, 50.0, 7.5], log)}
    best = timing.interleaved(runners, 3, clocks={"a": clock, "b": clock})
    assert best == {"a": 1.0, "b": 7.5}
    assert [log[k] == log[k + 1] for k in range(0, len(log), 2)] == [True] * 6
    assert sorted(log) == ["a"] * 6 + ["b"] * 6


def test_interleaved_orders_the_rounds_at_random_by_its_seed() -> None:
    # The order changes between rounds (a fixed order biased one runner: timing's docstring)
    # and is the same for the same seed.
    def orders(seed: int) -> list[tuple[str, ...]]:
        clock = Ticks()
        log: list[str] = []
        names = "abcd"
        runners = {n: clock.runner(n, [1.0] * 40, log) for n in names}
        timing.interleaved(runners, 20, clocks=dict.fromkeys(names, clock), seed=seed)
        firsts = log[::2]
        return [tuple(firsts[k:k + 4]) for k in range(0, 80, 4)]
    first = orders(timing.ORDER_SEED)
    assert first == orders(timing.ORDER_SEED)
    assert len(set(first)) > 1
    assert all(sorted(o) == list("abcd") for o in first)


def test_every_benchmark_script_imports() -> None:
    # A script's imports are checked by nothing else until someone runs it: bench_rotating_toi
    # imported a cap from the kernel module it had moved out of (to swept.constants) and no
    # longer ran. Loading each by path runs its imports and module-level code, not its main.
    folder = Path(__file__).resolve().parents[1] / "benchmarks"
    scripts = sorted(p.stem for p in folder.glob("*.py"))
    assert "timing" in scripts and "bench_rotating_toi" in scripts
    for stem in scripts:
        try:
            module = bench_script(stem, f"swept_bench_import_{stem}")
        except ModuleNotFoundError as exc:
            # only the benchmark extra's peers may be missing (pip install 'swept[bench]')
            assert exc.name in BENCH_PEERS, (stem, exc.name)
            continue
        assert module.__doc__, stem
