"""The chunked runner (``swept._parallel.parallel_for``) and the thread-count knobs.

The runner covers ``[0, n)`` exactly once in chunks that the calling thread and helper threads
take from a shared counter; the caller works too, so it never waits for a chunk nobody has
started; a kernel's exception reaches the caller; a call from inside a running kernel runs
serially instead of waiting for the pool; a call whose threads gained too little sends the
kernel's next calls to one thread for a while. And the batch kernels built on it (the
Simulation's step, the batch circle sweep) give the very same bits on any thread count.
"""

from __future__ import annotations

import itertools
import math
import os
import threading
import time
from collections.abc import Iterator
from typing import Any

import numba
import numpy as np
import pytest
from hypothesis import given
from hypothesis import strategies as st

import swept
from shared import busy_simulation
from swept import _parallel
from swept import sim as sim_module
from swept._kernels import bvh
from swept._kernels import sim as sim_kernels
from swept._kernels.batch_sweep import sweep_circles_segments
from swept.constants import MAX_THREADS
from swept.shapes import Segment
from swept.sim import Simulation
from swept.world import World

#: The runner's own choice of way (threads or one thread) for a kernel's call, kept here before
#: the fixture below replaces it.
REAL_PICK = _parallel._Choice.pick
#: The way a new kernel's first call goes before any choice (the fixture sets threads).
INITIAL_LAST_CHOICE = _parallel._last_choice


@pytest.fixture(autouse=True)
def _fresh_runner(monkeypatch: pytest.MonkeyPatch) -> Iterator[None]:
    """Every test starts from the default thread count, with no remembered speeds, and its
    parallel calls stay parallel (on a loaded machine the runner would send some to one
    thread); the tests of that choice put the real one back."""
    monkeypatch.setattr(_parallel._Choice, "pick", lambda self, now: (True, False))
    _parallel._choices.clear()
    monkeypatch.setattr(_parallel, "_last_choice", True)
    monkeypatch.setattr(_parallel, "_threads_probe_at", 0.0)
    monkeypatch.setattr(_parallel, "_threads_backoff", 0.0)
    yield
    # the default again, read afresh (a test's environment variables are still set here)
    _parallel._threads = None
    numba.set_num_threads(numba.config.NUMBA_NUM_THREADS)  # type: ignore[attr-defined]
    _parallel._choices.clear()


class Recorder:
    """A kernel (plain Python) that records each chunk it is given and the thread that ran it."""

    def __init__(self, pause: float = 0.0) -> None:
        self.calls: list[tuple[int, int, str]] = []
        self.pause = pause

    def __call__(self, start: int, stop: int, out: np.ndarray) -> None:
        self.calls.append((start, stop, threading.current_thread().name))
        out[start:stop] += 1
        if self.pause:
            # a chunk that takes a while, the GIL released: helpers get their turn
            time.sleep(self.pause)


# ---------------------------------------------------------------------------- coverage


@given(n=st.integers(0, 3000), chunk=st.one_of(st.none(), st.integers(1, 4000)),
       count=st.integers(1, 5))
def test_every_item_is_covered_exactly_once(n: int, chunk: int | None, count: int) -> None:
    swept.set_threads(count)
    out = np.zeros(n, np.int64)
    kernel = Recorder()
    _parallel.parallel_for(kernel, n, (out,), chunk=chunk, min_batch=0)
    assert out.tolist() == [1] * n
    spans = sorted((a, b) for a, b, _ in kernel.calls)
    # disjoint, in order, each non-empty (unless the batch is), and nothing outside [0, n)
    assert spans[0][0] == 0 and spans[-1][1] == n
    for (_, b), (c, _) in zip(spans, spans[1:]):
        assert b == c


@pytest.mark.parametrize("n, chunk", [(1, 1), (17, 16), (16, 16), (1000, 7), (4097, 64),
                                      (100, 1000)])
def test_chunks_are_the_requested_size(n: int, chunk: int) -> None:
    swept.set_threads(3)
    out = np.zeros(n, np.int64)
    kernel = Recorder()
    _parallel.parallel_for(kernel, n, (out,), chunk=chunk, min_batch=0)
    size = chunk
    sizes = sorted(b - a for a, b, _ in kernel.calls)
    if size >= n:
        # one chunk holds the batch: the plain serial call
        assert kernel.calls == [(0, n, "MainThread")]
    else:
        assert sizes[-1] == size and sum(sizes) == n
        assert len(sizes) == math.ceil(n / size)


def test_default_chunks_taper_so_the_threads_finish_together() -> None:
    """With equal chunks the last one may start just as the other threads find none left,
    and the call waits for all of it (about half a chunk on average): the default schedule
    ends instead in chunks of the smallest size, the first ones being the usual size."""
    swept.set_threads(3)
    n = 5000
    out = np.zeros(n, np.int64)
    kernel = Recorder()
    _parallel.parallel_for(kernel, n, (out,), min_batch=0)
    assert out.tolist() == [1] * n
    sizes = [b - a for a, b, _ in sorted(kernel.calls)]
    size = _parallel._auto_chunk(n, 3, math.nan)
    assert sizes[0] == size and max(sizes) == size
    # never growing (the last one takes a remainder under half a chunk with it)
    assert all(x >= y for x, y in zip(sizes[:-2], sizes[1:-1]))
    assert _parallel.MIN_CHUNK <= sizes[-1] < 1.5 * _parallel.MIN_CHUNK
    assert sizes[-2] == _parallel.MIN_CHUNK


@given(n=st.integers(1, 100_000), workers=st.integers(2, 16), chunk=st.integers(1, 5000),
       smallest=st.integers(1, 5000))
def test_tapered_chunks_cover_the_batch_once_never_growing(n: int, workers: int, chunk: int,
                                                           smallest: int) -> None:
    bounds = _parallel._tapered_bounds(n, workers, chunk, smallest)
    assert bounds[0] == 0 and bounds[-1] == n
    sizes = [b - a for a, b in zip(bounds, bounds[1:])]
    assert min(sizes) >= 1 and max(sizes) <= chunk + min(smallest, chunk) // 2
    assert all(x >= y for x, y in zip(sizes[:-2], sizes[1:-1]))
    # the taper adds a few chunks: about TAPER * workers per halving of the chunk
    halvings = math.log2(max(1, chunk // max(1, min(smallest, chunk)))) + 1
    assert len(sizes) <= math.ceil(n / chunk) + 2 * _parallel.TAPER * workers * halvings + 1


def test_timed_cheap_items_come_in_fewer_larger_chunks() -> None:
    # before any timing: CHUNKS_PER_THREAD a thread, at least MIN_CHUNK
    per = _parallel.CHUNKS_PER_THREAD
    assert _parallel._auto_chunk(100_000, 2, math.nan) == math.ceil(100_000 / (2 * per))
    assert _parallel._auto_chunk(300, 2, math.nan) == _parallel.MIN_CHUNK
    # items of 1 us: CHUNK_SECONDS (50 us) is 50 items, fewer than the default
    assert _parallel._auto_chunk(100_000, 2, 1e-6) == math.ceil(100_000 / (2 * per))
    # items of 0.002 us: 25,000 items make 50 us; but one chunk a thread at least
    assert _parallel._auto_chunk(100_000, 2, 2e-9) == 25_000
    assert _parallel._auto_chunk(1_000, 2, 2e-9) == 500
    assert _parallel._auto_chunk(10, 3, math.nan) == 4


def test_small_batches_and_one_thread_are_one_plain_call() -> None:
    out = np.zeros(500, np.int64)
    swept.set_threads(2)
    kernel = Recorder()
    _parallel.parallel_for(kernel, 100, (out,), chunk=10, min_batch=101)
    assert kernel.calls == [(0, 100, "MainThread")]
    swept.set_threads(1)
    kernel = Recorder()
    _parallel.parallel_for(kernel, 500, (out,), chunk=10, min_batch=0)
    assert kernel.calls == [(0, 500, "MainThread")]


def test_helpers_take_chunks_when_chunks_take_time() -> None:
    swept.set_threads(3)
    out = np.zeros(40, np.int64)
    kernel = Recorder(pause=0.002)
    _parallel.parallel_for(kernel, 40, (out,), chunk=1, min_batch=0)
    assert out.tolist() == [1] * 40
    threads = {name for _, _, name in kernel.calls}
    assert "MainThread" in threads and any(t.startswith("swept-worker-") for t in threads)


# ---------------------------------------------------------------------------- the caller works


def test_the_caller_alone_finishes_a_batch_when_no_helper_starts(
        monkeypatch: pytest.MonkeyPatch) -> None:
    """A helper that never runs (no helper at all here) must leave the batch to the caller,
    not make it wait: the chunks come from a shared counter that the caller drains too."""
    monkeypatch.setattr(_parallel, "_pool", _parallel._Pool())
    monkeypatch.setattr(_parallel._Pool, "ensure", lambda self, helpers: None)
    swept.set_threads(4)
    out = np.zeros(1000, np.int64)
    kernel = Recorder()
    _parallel.parallel_for(kernel, 1000, (out,), chunk=10, min_batch=0)
    assert out.tolist() == [1] * 1000
    assert len(kernel.calls) == 100
    assert {name for _, _, name in kernel.calls} == {"MainThread"}


def test_a_late_helper_is_not_waited_for(monkeypatch: pytest.MonkeyPatch) -> None:
    """A helper descheduled before it takes a chunk (here: asleep 0.5 s once woken) must cost
    the call nothing: the caller takes every chunk and returns without waiting for it."""
    original = _parallel._Job.help

    def late_help(job: Any) -> None:
        time.sleep(0.5)
        original(job)

    monkeypatch.setattr(_parallel, "_pool", _parallel._Pool())
    monkeypatch.setattr(_parallel._Job, "help", late_help)
    swept.set_threads(2)
    out = np.zeros(200, np.int64)
    kernel = Recorder()
    start = time.perf_counter()
    _parallel.parallel_for(kernel, 200, (out,), chunk=10, min_batch=0)
    assert time.perf_counter() - start < 0.4
    assert out.tolist() == [1] * 200
    assert {name for _, _, name in kernel.calls} == {"MainThread"}


def test_idle_helpers_sleep_rather_than_spin() -> None:
    """Between calls the helpers wait on a condition: a spinning helper would take a core
    from the other processes, the very load this runner must not suffer from or cause."""
    swept.set_threads(3)
    kernel = Recorder(pause=0.001)
    _parallel.parallel_for(kernel, 30, (np.zeros(30, np.int64),), chunk=1, min_batch=0)
    assert len(_parallel._pool.workers) >= 2
    start = time.process_time()
    time.sleep(0.3)
    assert time.process_time() - start < 0.05


# ---------------------------------------------------------------------------- errors


class Boom(RuntimeError):
    """The error a test kernel raises."""


def _raise_at(bad: int) -> Any:
    """A kernel that raises :class:`Boom` in the chunk holding item ``bad``."""

    def kernel(start: int, stop: int, out: np.ndarray) -> None:
        if start <= bad < stop:
            raise Boom(f"item {bad}")
        out[start:stop] += 1

    return kernel


@pytest.mark.parametrize("count", [1, 2, 4])
@pytest.mark.parametrize("bad", [0, 55, 999])
def test_an_exception_in_a_chunk_reaches_the_caller(count: int, bad: int) -> None:
    swept.set_threads(count)
    out = np.zeros(1000, np.int64)
    with pytest.raises(Boom, match=f"item {bad}"):
        _parallel.parallel_for(_raise_at(bad), 1000, (out,), chunk=10, min_batch=0)
    # no item ran twice, and the runner still works afterwards
    assert out.max() <= 1
    out[:] = 0
    _parallel.parallel_for(Recorder(), 1000, (out,), chunk=10, min_batch=0)
    assert out.tolist() == [1] * 1000


# ---------------------------------------------------------------------------- nesting, threads


def _in_time(fn: Any, seconds: float = 20.0) -> None:
    """Run ``fn`` in a thread; fail (rather than hang) if it has not ended in ``seconds``."""
    errors: list[BaseException] = []

    def body() -> None:
        try:
            fn()
        except BaseException as exc:  # noqa: BLE001 - re-raised below
            errors.append(exc)

    thread = threading.Thread(target=body, daemon=True)
    thread.start()
    thread.join(seconds)
    assert not thread.is_alive(), "deadlock: the call did not end"
    if errors:
        raise errors[0]


def test_a_call_from_inside_a_kernel_runs_serially() -> None:
    swept.set_threads(3)
    inner = Recorder()
    outer_calls: list[str] = []
    inner_out = np.zeros((40, 30), np.int64)

    def outer(start: int, stop: int, out: np.ndarray) -> None:
        outer_calls.append(threading.current_thread().name)
        for i in range(start, stop):
            out[i] += 1
            _parallel.parallel_for(inner, 30, (inner_out[i],), chunk=1, min_batch=0)
        time.sleep(0.001)

    out = np.zeros(40, np.int64)
    _in_time(lambda: _parallel.parallel_for(outer, 40, (out,), chunk=1, min_batch=0))
    assert out.tolist() == [1] * 40
    assert inner_out.tolist() == [[1] * 30] * 40
    # each inner call was the one plain call, on whichever thread ran the outer chunk
    assert [(a, b) for a, b, _ in inner.calls] == [(0, 30)] * 40


def test_calls_from_two_threads_at_once_both_finish() -> None:
    swept.set_threads(2)
    outs = [np.zeros(2000, np.int64) for _ in range(2)]

    def many(out: np.ndarray) -> None:
        for _ in range(50):
            _parallel.parallel_for(Recorder(), 2000, (out,), chunk=50, min_batch=0)

    threads = [threading.Thread(target=many, args=(o,)) for o in outs]

    def both() -> None:
        for t in threads:
            t.start()
        for t in threads:
            t.join()

    _in_time(both)
    for out in outs:
        assert out.tolist() == [50] * 2000


@pytest.mark.skipif(not hasattr(os, "fork"), reason="no fork on this platform")
def test_a_forked_child_runs_batches() -> None:
    import multiprocessing

    swept.set_threads(2)
    # start the parent's helpers first: the child has none of them
    _parallel.parallel_for(Recorder(), 100, (np.zeros(100, np.int64),), chunk=1, min_batch=0)
    ctx = multiprocessing.get_context("fork")
    child = ctx.Process(target=_child_batch)
    child.start()
    child.join(30)
    assert child.exitcode == 0


def _child_batch() -> None:
    """In a forked child: one parallel batch, exit code 0 when every item ran once."""
    out = np.zeros(1000, np.int64)
    _parallel.parallel_for(Recorder(), 1000, (out,), chunk=10, min_batch=0)
    os._exit(0 if out.tolist() == [1] * 1000 else 1)


# ---------------------------------------------------------------------------- threads or one


def test_a_kernel_whose_threads_do_not_pay_runs_on_one_thread(
        monkeypatch: pytest.MonkeyPatch) -> None:
    """Two threads that take turns on one core (another process holds the other) only add
    switches: once its serial calls have been timed faster per item than its parallel ones
    (by MIN_GAIN: tenfold here, which no call on a few threads reaches), a kernel's calls are
    the plain serial call, and threads come back when a later probe shows them faster."""
    monkeypatch.setattr(_parallel._Choice, "pick", REAL_PICK)
    monkeypatch.setattr(_parallel, "MIN_GAIN", 10.0)
    swept.set_threads(2)
    out = np.zeros(400, np.int64)
    kernel = Recorder(pause=0.001)
    # threads first (the latest choice, set by the fixture), then a probe of one thread
    _parallel.parallel_for(kernel, 400, (out,), chunk=100, min_batch=0)
    assert len(kernel.calls) == 4
    kernel.calls.clear()
    _parallel.parallel_for(kernel, 400, (out,), chunk=100, min_batch=0)
    assert kernel.calls == [(0, 400, "MainThread")]
    choice = _parallel._choices[kernel]
    assert not choice.parallel and choice.interval == _parallel.BACKOFF_MIN
    assert _parallel._last_choice is False
    # until the next probe: one thread
    kernel.calls.clear()
    choice.probe_at = time.perf_counter() + 60.0
    _parallel.parallel_for(kernel, 400, (out,), chunk=100, min_batch=0)
    assert kernel.calls == [(0, 400, "MainThread")]
    # a probe that shows threads faster enough brings them back (once the machine-wide spell
    # without probes of threads has ended too)
    monkeypatch.setattr(_parallel, "MIN_GAIN", 0.0)
    choice.probe_at = 0.0
    monkeypatch.setattr(_parallel, "_threads_probe_at", 0.0)
    kernel.calls.clear()
    _parallel.parallel_for(kernel, 400, (out,), chunk=100, min_batch=0)
    assert len(kernel.calls) == 4 and choice.parallel
    assert out.tolist() == [4] * 400


def test_the_runner_times_calls_without_a_system_call(monkeypatch: pytest.MonkeyPatch) -> None:
    """Reading the thread's CPU clock (``time.thread_time``) is a system call, where a loaded
    scheduler stops a caller that has just woken: timing serial calls by it made 3 ms calls
    take 11 ms on the 2-core machine at load 5.7. The runner's timings read only the wall
    clock (``perf_counter``, no system call)."""
    monkeypatch.setattr(_parallel._Choice, "pick", REAL_PICK)

    def forbidden() -> float:
        raise AssertionError("the runner read the thread CPU clock")

    monkeypatch.setattr(time, "thread_time", forbidden)
    monkeypatch.setattr(time, "thread_time_ns", forbidden)
    monkeypatch.setattr(time, "process_time", forbidden)
    swept.set_threads(2)
    out = np.zeros(400, np.int64)
    kernel = Recorder()
    for _ in range(4):  # threads, then a probe of one thread, then the choice
        _parallel.parallel_for(kernel, 400, (out,), chunk=100, min_batch=0)
        _parallel.either_way("work", 400, lambda: None, lambda: None, min_batch=0)
    choice = _parallel._choices[kernel]
    assert choice.samples[0] and choice.samples[1]
    assert out.tolist() == [4] * 400


def test_either_way_runs_the_form_its_timings_favour(monkeypatch: pytest.MonkeyPatch) -> None:
    """Work with a one-thread form and a threaded form (the Simulation's step) runs the one
    that measures faster."""
    monkeypatch.setattr(_parallel._Choice, "pick", REAL_PICK)
    monkeypatch.setattr(_parallel, "_last_choice", False)
    swept.set_threads(2)
    ran: list[str] = []

    # the two forms' sleeps far apart (40 ms against 1 ms, then 200 ms), so that a loaded
    # machine's late wake-ups (a few ms; under a load of 13 it failed with 4 ms against 1 ms)
    # cannot turn the order round
    def serial() -> None:
        ran.append("serial")
        time.sleep(0.04)

    def threaded() -> None:
        ran.append("threaded")
        time.sleep(0.001)

    # one thread first (no choice yet), then a probe of threads, which win (1 ms < 40 ms / 1.1)
    for _ in range(3):
        _parallel.either_way("work", 1000, serial, threaded, min_batch=0)
    assert ran == ["serial", "threaded", "threaded"]
    choice = _parallel._choices["work"]
    assert choice.parallel and len(choice.samples[0]) == 1
    # threads that take 200 ms lose to the serial form's 40 ms
    ran.clear()

    def slow() -> None:
        ran.append("threaded")
        time.sleep(0.2)

    for _ in range(_parallel.SAMPLES):
        _parallel.either_way("work", 1000, serial, slow, min_batch=0)
    assert not choice.parallel
    choice.probe_at = time.perf_counter() + 60.0
    ran.clear()
    _parallel.either_way("work", 1000, serial, slow, min_batch=0)
    assert ran == ["serial"]


def test_either_way_runs_small_work_and_one_thread_serially() -> None:
    ran: list[str] = []
    swept.set_threads(2)
    _parallel.either_way("small", 10, lambda: ran.append("s"), lambda: ran.append("t"),
                         min_batch=100)
    swept.set_threads(1)
    _parallel.either_way("one", 1000, lambda: ran.append("s"), lambda: ran.append("t"),
                         min_batch=0)
    assert ran == ["s", "s"] and not {"small", "one"} & set(_parallel._choices)
    with pytest.raises(ValueError, match="n must be"):
        _parallel.either_way("bad", -1, lambda: None, lambda: None)
    with pytest.raises(TypeError, match="min_batch"):
        _parallel.either_way("bad", 1, lambda: None, lambda: None, min_batch=1.5)  # type: ignore[arg-type]


def test_the_simulation_step_keeps_its_bits_whichever_form_each_step_takes(
        monkeypatch: pytest.MonkeyPatch) -> None:
    """The step chooses each time between its one compiled call and its threaded form: both
    give the same bits, so a run that switches between them step by step matches a run on one
    thread."""
    swept.set_threads(1)
    serial = _run(_busy_scene(), 25)
    monkeypatch.setattr(sim_module, "SIM_PARALLEL_MIN", 0)
    ways = itertools.cycle([(True, False), (False, False), (False, False), (True, False)])
    monkeypatch.setattr(_parallel._Choice, "pick", lambda self, now: next(ways))
    swept.set_threads(3)
    mixed = _run(_busy_scene(), 25)
    assert mixed == serial
    assert "Simulation.step" in _parallel._choices


def test_workloads_under_their_own_keys_keep_their_own_timings(
        monkeypatch: pytest.MonkeyPatch) -> None:
    """One kernel casting rays and balls (cast_range) at costs an item several times apart:
    timings of both in one ring compared a ball's serial time with a ray's parallel one, and
    chose threads that lose (or one thread that loses). Each key keeps its own."""
    monkeypatch.setattr(_parallel._Choice, "pick", REAL_PICK)
    swept.set_threads(2)
    kernel = Recorder()
    out = np.zeros(400, np.int64)
    _parallel.parallel_for(kernel, 400, (out,), chunk=100, min_batch=0, key="rays")
    _parallel.parallel_for(kernel, 400, (out,), chunk=100, min_batch=0, key="balls")
    assert set(_parallel._choices) == {"rays", "balls"}
    assert all(len(c.samples[0]) + len(c.samples[1]) == 1 for c in _parallel._choices.values())
    _parallel.parallel_for(kernel, 400, (out,), chunk=100, min_batch=0)
    assert kernel in _parallel._choices


def test_the_world_times_its_batch_rays_and_balls_apart() -> None:
    world = World()
    world.add(Segment((5.0, -100.0), (5.0, 100.0)))
    n = 2 * _parallel.PARALLEL_MIN_BATCH
    world.raycast_many(np.zeros((n, 2)), np.tile([1.0, 0.0], (n, 1)))
    world.sweep_many(np.zeros((n, 2)), np.ones(n), np.tile([10.0, 0.0], (n, 1)))
    assert {"World.raycast_many", "World.sweep_many balls"} <= set(_parallel._choices)


def test_a_new_kernel_starts_on_one_thread_until_a_choice_is_made(
        monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(_parallel._Choice, "pick", REAL_PICK)
    assert INITIAL_LAST_CHOICE is False
    choice = _parallel._Choice(5.0, False)
    assert choice.pick(5.0) == (False, False)
    # the next call probes threads
    choice.record(False, False, 1e-3, 1000, 5.0)
    assert choice.pick(5.001) == (True, True)


def test_once_threads_lose_no_kernel_probes_them_for_a_while(
        monkeypatch: pytest.MonkeyPatch) -> None:
    """On a busy machine a call on threads may take many times a serial one (a helper
    descheduled mid-chunk holds the caller for a time slice): after threads that were faster
    for one kernel lose, the others keep to one thread until the spell ends, instead of each
    paying for its own probe. The spell is in seconds, not in the losing call's duration
    (50 times a 46 ms step kept 3 ms ray batches off threads for 2.3 s)."""
    monkeypatch.setattr(_parallel._Choice, "pick", REAL_PICK)
    a = _parallel._Choice(0.0, True)
    a.record(True, False, 10e-3, 1000, 0.0)
    assert a.pick(0.5) == (False, True)
    a.record(False, True, 1e-3, 1000, 0.5)
    assert not a.parallel
    assert _parallel._threads_backoff == _parallel.BACKOFF_MIN
    assert _parallel._threads_probe_at == 0.5 + _parallel.BACKOFF_MIN
    # kernel b runs one thread and is due to probe threads: not before the spell ends
    b = _parallel._Choice(0.0, False)
    b.record(False, False, 1e-3, 1000, 0.0)
    assert b.pick(0.5 + 0.5 * _parallel.BACKOFF_MIN) == (False, False)
    assert b.pick(0.6) == (True, True)
    # threads win for b (which ends the spell), lose again for a (running one thread: no
    # spell), then lose for b (twice: one slow call is outvoted; a spell again, of seconds)
    b.record(True, True, 0.5e-3, 1000, 0.6)
    assert b.parallel and _parallel._threads_backoff == 0.0
    a.record(True, True, 10e-3, 1000, 0.7)
    assert _parallel._threads_backoff == 0.0 and _parallel._threads_probe_at < 0.7
    b.record(True, False, 10e-3, 1000, 0.8)
    assert b.parallel
    b.record(True, False, 10e-3, 1000, 0.85)
    assert not b.parallel and _parallel._threads_backoff == _parallel.BACKOFF_MIN
    assert _parallel._threads_probe_at == 0.85 + _parallel.BACKOFF_MIN
    # threads that win end it
    c = _parallel._Choice(0.0, False)
    c.record(False, False, 1e-3, 1000, 0.0)
    c.record(True, True, 0.5e-3, 1000, 2.0)
    assert c.parallel and _parallel._threads_backoff == 0.0


def test_a_kernel_whose_threads_never_pay_does_not_keep_the_others_from_probing(
        monkeypatch: pytest.MonkeyPatch) -> None:
    """A probe of threads that loses for a kernel running one thread says nothing new of the
    machine's load (that kernel's threads may never pay: too little work a call): it backs off
    that kernel's own probes only. Made machine-wide, a kernel probing every BACKOFF_MAX
    seconds could renew the spell before the others' probes came due, and keep them all on
    one thread with both cores free."""
    monkeypatch.setattr(_parallel._Choice, "pick", REAL_PICK)
    loser = _parallel._Choice(0.0, False)
    loser.record(False, False, 1e-3, 1000, 0.0)
    assert loser.pick(1.0) == (True, True)
    loser.record(True, True, 5e-3, 1000, 1.0)
    # (the next probe BACKOFF_CALLS times what this one lost apart: 4 ms)
    assert not loser.parallel
    assert loser.probe_at == pytest.approx(1.0 + _parallel.BACKOFF_CALLS * 4e-3, rel=1e-12)
    assert _parallel._threads_probe_at == 0.0 and _parallel._threads_backoff == 0.0
    other = _parallel._Choice(0.0, False)
    other.record(False, False, 1e-3, 1000, 0.0)
    assert other.pick(1.001) == (True, True)


def test_a_slow_first_call_each_way_is_outvoted_by_the_next() -> None:
    """A kernel's first call each way carries one-off costs (loading its compiled code,
    starting the helper threads: a 46 ms step's first threaded call took 173 ms). Of two
    timings a way the faster counts, so the next probe of threads, when it is fast, wins:
    with the slower of two counted, a cold first probe kept threads off until two more
    probes, each BACKOFF_CALLS calls apart or more."""
    choice = _parallel._Choice(0.0, False)
    choice.record(False, False, 1e-3, 1000, 0.0)
    choice.record(True, True, 20e-3, 1000, 1.0)
    assert not choice.parallel
    choice.record(True, True, 0.6e-3, 1000, 2.0)
    assert choice.parallel
    assert _parallel._median([3.0, 1.0]) == 1.0 and _parallel._median([3.0, 1.0, 2.0]) == 2.0


def test_the_choice_follows_the_faster_way_and_probes_less_often_while_it_stands(
        monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(_parallel._Choice, "pick", REAL_PICK)
    fast, slow = 1.0e-3, 1.5e-3  # seconds a call of 1000 items: threads, one thread
    choice = _parallel._Choice(0.0, True)
    assert choice.pick(0.0) == (True, False)
    choice.record(True, False, fast, 1000, 0.0)
    # one thread is timed on the second call, and then soon again until SAMPLES timings
    now = 0.0
    for k in range(_parallel.SAMPLES):
        now += 1.0
        assert choice.pick(now) == (False, True)
        choice.record(False, True, slow, 1000, now)
        # one thread took 1.5x the time an item: threads stay (faster by more than MIN_GAIN)
        assert choice.parallel and _parallel._last_choice is True
        expected = _parallel.BACKOFF_MIN if k < _parallel.SAMPLES - 1 else 2 * _parallel.BACKOFF_MIN
        assert choice.interval == expected
        assert choice.probe_at == pytest.approx(
            now + max(expected, _parallel.BACKOFF_CALLS * (slow - fast)), rel=1e-12)
    assert choice.pick(now + 1e-3) == (True, False)
    # probes of one thread, further and further apart while they confirm the choice
    intervals = []
    for k in range(12):
        now = 10.0 + 5.0 * k
        assert choice.pick(now) == (False, True)
        choice.record(False, True, slow, 1000, now)
        intervals.append(choice.interval)
    assert intervals[1] == 2 * intervals[0] and intervals[-1] == _parallel.BACKOFF_MAX
    # one call stretched by a lost time slice is outvoted by the median
    now = 66.5
    for _ in range(_parallel.SAMPLES - 1):
        choice.record(True, False, fast, 1000, now)
    choice.record(True, False, 20 * fast, 1000, now)
    assert choice.parallel
    # the threads slow down for good (another process took a core): one thread, at once
    choice.record(True, False, 20 * fast, 1000, now)
    assert not choice.parallel and choice.interval == _parallel.BACKOFF_MIN
    assert _parallel._last_choice is False
    # a kernel met afterwards starts the way this choice went
    swept.set_threads(2)
    kernel = Recorder()
    _parallel.parallel_for(kernel, 400, (np.zeros(400, np.int64),), chunk=100, min_batch=0)
    assert kernel.calls == [(0, 400, "MainThread")]
    # probes of threads that confirm one thread: further apart, and BACKOFF_CALLS times what
    # threads lose at least (by the medians: the threads' timings 20 ms, 20 ms and 100 ms a
    # call, one thread's 1.5 ms)
    choice.record(True, True, 0.1, 1000, 80.0)
    assert not choice.parallel and choice.interval == 2 * _parallel.BACKOFF_MIN
    assert choice.probe_at == pytest.approx(80.0 + _parallel.BACKOFF_CALLS * (20 * fast - slow),
                                            rel=1e-12)


def test_a_probe_that_lost_narrowly_is_repeated_soon(monkeypatch: pytest.MonkeyPatch) -> None:
    """Probes are kept BACKOFF_CALLS times what they lose apart, not their whole duration:
    a threaded call whose helper woke late loses a little (15.3-16.8 ms against 14.3 on one
    thread, measured), and spacing probes by 50 times the whole call kept a kernel off the
    free second core for 0.76 s. A probe that loses by many serial calls (a busy machine)
    still waits BACKOFF_CALLS times its loss, so probing costs at most about
    1/BACKOFF_CALLS."""
    monkeypatch.setattr(_parallel._Choice, "pick", REAL_PICK)
    serial = 14.3e-3
    narrow = _parallel._Choice(0.0, False)
    narrow.record(False, False, serial, 10_000, 0.0)
    assert narrow.pick(1.0) == (True, True)
    narrow.record(True, True, 16.0e-3, 10_000, 1.0)
    assert not narrow.parallel
    assert narrow.probe_at == pytest.approx(1.0 + _parallel.BACKOFF_CALLS * 1.7e-3, rel=1e-9)
    assert narrow.probe_at < 1.0 + 0.2
    # (not due yet at 1.1 s) the next probe wins (the helper on time): threads at once
    assert narrow.pick(1.1) == (False, False)
    assert narrow.pick(1.2) == (True, True)
    narrow.record(True, True, 7.5e-3, 10_000, 1.2)
    assert narrow.parallel
    # a busy machine: threads lose by ten serial calls, and wait BACKOFF_CALLS times that
    busy = _parallel._Choice(0.0, False)
    busy.record(False, False, serial, 10_000, 0.0)
    busy.record(True, True, 11 * serial, 10_000, 1.0)
    assert busy.probe_at == pytest.approx(1.0 + _parallel.BACKOFF_CALLS * 10 * serial,
                                          rel=1e-9)
    # a probe that was not slower (threads faster, by less than MIN_GAIN): the spell alone
    tie = _parallel._Choice(0.0, False)
    tie.record(False, False, serial, 10_000, 0.0)
    tie.record(True, True, 0.95 * serial, 10_000, 1.0)
    assert not tie.parallel and tie.probe_at == 1.0 + _parallel.BACKOFF_MIN


@given(st.lists(st.tuples(st.booleans(), st.floats(1e-6, 1.0), st.floats(0.0, 2.0)),
                max_size=40))
def test_the_choice_always_runs_the_way_its_medians_favour(
        calls: list[tuple[bool, float, float]]) -> None:
    """Whatever the timings, after each call the way chosen is the faster by the medians
    (threads only when MIN_GAIN faster), spells stay within BACKOFF_MIN..BACKOFF_MAX, and the
    next probe is never in the past."""
    choice = _parallel._Choice(0.0, False)
    now = 0.0
    for parallel, seconds, pause in calls:
        now += pause
        probe = parallel != choice.parallel
        before = choice.parallel
        choice.record(parallel, probe, seconds, 1000, now)
        serial, threaded = choice.samples
        assert len(serial) <= _parallel.SAMPLES and len(threaded) <= _parallel.SAMPLES
        assert choice.interval == 0.0 or (
            _parallel.BACKOFF_MIN <= choice.interval <= _parallel.BACKOFF_MAX)
        if serial and threaded:
            expected = _parallel._median(threaded) * _parallel.MIN_GAIN < _parallel._median(serial)
            assert choice.parallel is expected
            if probe or choice.parallel != before:
                # a probe or a switch sets the next probe ahead, by a spell at least, and by
                # BACKOFF_CALLS times what the way not chosen loses (by the medians)
                assert choice.probe_at >= now + _parallel.BACKOFF_MIN
                chosen, other = (threaded, serial) if expected else (serial, threaded)
                lost = 1000 * (_parallel._median(other) - _parallel._median(chosen))
                assert choice.probe_at >= now + _parallel.BACKOFF_CALLS * lost


# ---------------------------------------------------------------------------- knobs


def test_set_threads_and_threads() -> None:
    swept.set_threads(3)
    assert swept.threads() == 3
    swept.set_threads(1)
    assert swept.threads() == 1
    swept.set_threads(None)
    assert swept.threads() == _parallel._default_threads()


@pytest.mark.parametrize("bad", [1.5, "2", True, 2.0, [2]])
def test_set_threads_rejects_a_non_integer_by_name(bad: Any) -> None:
    with pytest.raises(TypeError, match="threads"):
        swept.set_threads(bad)


@pytest.mark.parametrize("bad", [0, -1, MAX_THREADS + 1, 10**30])
def test_set_threads_rejects_a_count_out_of_range_by_name(bad: int) -> None:
    with pytest.raises(ValueError, match="threads"):
        swept.set_threads(bad)


def test_swept_num_threads_wins_over_numba_num_threads(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("SWEPT_NUM_THREADS", "3")
    monkeypatch.setenv("NUMBA_NUM_THREADS", "2")
    assert _parallel._default_threads() == 3
    monkeypatch.delenv("SWEPT_NUM_THREADS")
    assert _parallel._default_threads() == 2
    monkeypatch.delenv("NUMBA_NUM_THREADS")
    assert _parallel._default_threads() == min(len(os.sched_getaffinity(0)), MAX_THREADS)
    # set but empty: as if unset
    monkeypatch.setenv("SWEPT_NUM_THREADS", " ")
    assert _parallel._default_threads() == min(len(os.sched_getaffinity(0)), MAX_THREADS)


@pytest.mark.parametrize("text", ["abc", "1.5", "0", "-2", str(MAX_THREADS + 1)])
@pytest.mark.parametrize("name", ["SWEPT_NUM_THREADS", "NUMBA_NUM_THREADS"])
def test_a_bad_thread_count_in_the_environment_is_named(monkeypatch: pytest.MonkeyPatch,
                                                        name: str, text: str) -> None:
    monkeypatch.delenv("SWEPT_NUM_THREADS", raising=False)
    monkeypatch.setenv(name, text)
    with pytest.raises(ValueError, match=name):
        _parallel._default_threads()


@pytest.mark.parametrize("kwargs, exc, name", [
    ({"n": -1}, ValueError, "n"), ({"n": 2.0}, TypeError, "n"), ({"n": True}, TypeError, "n"),
    ({"chunk": 0}, ValueError, "chunk"), ({"chunk": 1.5}, TypeError, "chunk"),
    ({"min_batch": -1}, ValueError, "min_batch"), ({"min_batch": "8"}, TypeError, "min_batch"),
])
def test_parallel_for_rejects_bad_arguments_by_name(kwargs: dict[str, Any], exc: type,
                                                    name: str) -> None:
    args: dict[str, Any] = {"n": 10, "chunk": None, "min_batch": 0, **kwargs}
    kernel = Recorder()
    with pytest.raises(exc, match=f"^{name} "):
        _parallel.parallel_for(kernel, args["n"], (np.zeros(10, np.int64),),
                               chunk=args["chunk"], min_batch=args["min_batch"])
    assert kernel.calls == []


# ---------------------------------------------------------------------------- the same bits


class SmallChunks:
    """Stands in for ``parallel_for`` in a kernel module: every call parallel, in chunks of
    ``chunk`` items, each chunk pausing so that the helpers surely take some; records which
    threads ran chunks."""

    def __init__(self, chunk: int) -> None:
        self.chunk = chunk
        self.threads: set[str] = set()
        self.calls = 0
        self.real = _parallel.parallel_for

    def __call__(self, kernel: Any, n: int, args: Any, **_: Any) -> None:
        self.calls += 1

        def paused(start: int, stop: int, *rest: Any) -> None:
            self.threads.add(threading.current_thread().name)
            kernel(start, stop, *rest)
            time.sleep(0.0005)

        self.real(paused, n, args, chunk=self.chunk, min_batch=0)


def _busy_scene() -> Simulation:
    """shared.busy_simulation's scene (seed 5)."""
    return busy_simulation(5)


def _run(sim: Simulation, steps: int) -> tuple[bytes, ...]:
    sim.run(steps)
    return (sim.positions.tobytes(), sim.velocities.tobytes(), sim.caught.tobytes(),
            sim.missed.tobytes())


def test_the_simulation_gives_the_same_bits_on_one_thread_and_in_small_chunks(
        monkeypatch: pytest.MonkeyPatch) -> None:
    swept.set_threads(1)
    serial = _run(_busy_scene(), 25)
    spy = SmallChunks(7)
    # the body kernels (called from swept.sim) and the pair search (from the kernels module)
    monkeypatch.setattr(sim_module, "parallel_for", spy)
    monkeypatch.setattr(sim_kernels, "parallel_for", spy)
    swept.set_threads(3)
    chunked = _run(_busy_scene(), 25)
    assert spy.calls > 0 and any(t.startswith("swept-worker-") for t in spy.threads)
    assert chunked == serial


def test_the_batch_sweep_gives_the_same_bits_on_one_thread_and_in_small_chunks(
        monkeypatch: pytest.MonkeyPatch) -> None:
    from swept._kernels import batch_sweep

    rng = np.random.default_rng(3)
    m = 400
    seg_a = rng.uniform(0, 1000, (m, 2))
    seg_b = seg_a + rng.uniform(-80, 80, (m, 2))
    lo = np.minimum(seg_a, seg_b)
    hi = np.maximum(seg_a, seg_b)
    tree = (*bvh.build(lo, hi), bvh.box_rows(lo, hi))
    n = 3000
    centers = rng.uniform(0, 1000, (n, 2))
    radii = rng.uniform(0.5, 5, n)
    disps = rng.uniform(-100, 100, (n, 2))
    swept.set_threads(1)
    serial = sweep_circles_segments(centers, radii, disps, seg_a, seg_b, *tree)
    spy = SmallChunks(13)
    monkeypatch.setattr(batch_sweep, "parallel_for", spy)
    swept.set_threads(3)
    chunked = sweep_circles_segments(centers, radii, disps, seg_a, seg_b, *tree)
    assert spy.calls == 1 and any(t.startswith("swept-worker-") for t in spy.threads)
    assert serial[0].sum() > 100
    for a, b in zip(serial, chunked):
        assert a.dtype == b.dtype and a.tobytes() == b.tobytes()
    # and the runner's own chunking, on the real thread count
    monkeypatch.setattr(batch_sweep, "parallel_for", _parallel.parallel_for)
    swept.set_threads(None)
    again = sweep_circles_segments(centers, radii, disps, seg_a, seg_b, *tree)
    for a, b in zip(serial, again):
        assert a.tobytes() == b.tobytes()
