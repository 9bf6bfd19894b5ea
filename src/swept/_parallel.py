"""Batch kernels on threads that never make a call slower than one thread.

numba's own parallel loops (``prange`` under the OpenMP, TBB or workqueue layer) split a loop
into one fixed share per thread and wait for the last share at a barrier. When another
process holds one of the cores, the thread on that core runs its share at a fraction of the
speed (or not at all for a whole time slice) and every call waits for it: on this 2-core
machine ``examples/many_balls.py`` fell from 436-788 steps/s on one thread to 7-44 with two.

:func:`parallel_for` runs instead a *range kernel* ``kernel(start, stop, *args)`` (compiled
with ``nogil=True``; it writes the rows ``start .. stop-1`` of output arrays given in ``args``)
over ``[0, n)`` in chunks that threads take one at a time from a shared counter (dynamic
scheduling), and the calling thread takes chunks too. So a helper thread that is late to wake
or is descheduled only takes fewer chunks: the caller never waits for a chunk nobody has
started, only for the chunks already running (a slice of the batch each). With the cores free,
every thread works on the batch; on one thread, or below ``min_batch`` items, the call is the
plain ``kernel(0, n, *args)``.

Sharing the cores is not always a gain: when other processes keep the cores busy, two threads
may only take turns on the time the scheduler grants (Linux shares time between groups of
processes; a virtual machine's cores may be shared with other machines), each chunk stretched
by the switches, and a helper descheduled in the middle of its chunk holds the caller for the
rest of a time slice (a 0.3 ms call took up to 14 ms so, measured with both cores busy). So
each kernel's calls choose their way by measurement: the wall time per item of its last
:data:`SAMPLES` parallel calls and of its last serial calls, medians compared. The timings
are wall-clock readings (``time.perf_counter``, no system call): timing a serial call by its
thread's CPU time (``time.thread_time``, not stretched by another process's time slices) was
tried and measured worse, since reading that clock is a system call, a point where a loaded
scheduler stops the caller: on the 2-core machine at load 5.7 with a process spinning,
10,000-ray calls started after a 10 ms pause took 3.0 ms (median of 20) plain or between
``perf_counter`` readings, and 11.0 ms between ``thread_time`` readings. A kernel's
first call goes the way the latest choice of any kernel went (one thread before any
choice: the safe way; the machine's load is the same for every kernel), its second call probes
the other way; from then on it runs the faster way (parallel only while at least
:data:`MIN_GAIN` times faster), switching at once when the way it runs has become the slower,
and probes the other way again after :data:`BACKOFF_MIN` seconds, doubling while the choice
stands, up to :data:`BACKOFF_MAX`, and at least :data:`BACKOFF_CALLS` times what a probe loses
apart (by the medians: the way not chosen's time per item less the chosen way's, for the
call's items), so that probing costs at most about 1/BACKOFF_CALLS of the time, however close
the two ways are. Once threads that were faster for one kernel lose, no kernel probes them for
a spell (:data:`BACKOFF_MIN` seconds, doubling while they lose, up to :data:`BACKOFF_MAX`): the
load is the machine's. Measured on the 2-core machine with another process spinning: see
``benchmarks/bench_threads.py``.

On a machine whose other processes keep every core busy, two threads can still finish a call
sooner than one by taking a larger share of the machine from those processes (measured at load
5.6 with a process spinning: ``sweep_many`` 0.60x and ``contact_many`` 0.68x one thread's
time), and the choice keeps them there.

Work with a one-thread form and a threaded form that are not the same kernel (the
Simulation's step: one compiled call, or its move as a range kernel on the threads followed by
one call for the rest; run serially the threaded form costs more than the one call, 5-7% more
CPU when its kernels were called one by one from Python) chooses between the two forms with
:func:`either_way`, timed and chosen as above; the choices of the kernels inside the threaded
form cannot see that cost.

Where a threaded call's time goes (``benchmarks/bench_threads.py --trace``: every chunk stamped;
``World.raycast_many``, 10,000 rays, 10,000 segments, forced onto two threads; load 4-6 on the
2-core machine, so other processes held the cores): not in the runner. A chunk costs the
kernel's entry point 1.2 us (an empty range: unboxing its five packed arguments) and 1-2 us of
Python, 18 chunks a call: under 60 us of a 2.3 ms call, so a compiled chunk loop that unboxes
once a thread would save about 2%. The helper started its first chunk 15-40 us after the caller
in those calls. Measured again (2026-12-04, load about 1, jobs of 16 chunks of 0.2 ms), it
starts 51 us after the caller right after the last job, 85 us after 3 ms asleep, 199 us after 10
ms (a 90th percentile of 4 ms) and 763 us after 30 ms: the virtual cores wake slowly once idle,
so a call of a few milliseconds made once a frame gains little from the helper
(``World.raycast_many`` of 10,000 rays: 2.3 against 3.5 ms back to back, 4.2 against 4.2 each
after a 10 ms sleep; benchmarks/README.md, session 31). The serial work around the chunks (the
rays' spatial order, the output arrays, the handles) takes 150-230 us: two free cores give at
most about 1.8x. Under load the caller waited for a core: its chunks took 1,510 ns a ray of wall
time for 252 of CPU time, of which 466 ns a ray on the run queue
(``/proc/thread-self/schedstat``) and 42 asleep (the GIL and the locks), while the helper ran at
340 ns for 253: the two threads shared one core's time, and there was no gain to be had.
Python's 5 ms switch interval plays no part: lowered to 0.1 ms for a run, the threaded call
stayed slower than one thread (4.0 against 2.5 ms).

Threads: :func:`threads` (how many take part in a call, the caller included) and
:func:`set_threads`. The default is the ``SWEPT_NUM_THREADS`` environment variable if set, else
``NUMBA_NUM_THREADS`` if set, else the number of cores this process may run on
(``os.sched_getaffinity``): ``SWEPT_NUM_THREADS`` wins, so a program can give numba and swept
different counts. The helpers are daemon threads, started at the first call that needs them;
between calls they sleep on a condition (no spinning). A call made from inside a running
kernel (from a helper, or by the caller while it runs chunks), or from a second thread while
another call is running, runs serially rather than wait for the pool.

Results do not depend on the thread count or the schedule as long as each row is written by
the chunk that owns it (no reductions across rows): the batch kernels of swept are written so.
"""

from __future__ import annotations

import itertools
import math
import os
import threading
import time
from collections.abc import Callable, Hashable, Sequence
from typing import Any

from .constants import MAX_THREADS

__all__ = ["parallel_for", "either_way", "set_threads", "threads", "CHUNKS_PER_THREAD", "TAPER",
           "PARALLEL_MIN_BATCH", "MIN_CHUNK", "CHUNK_SECONDS", "MIN_GAIN", "SAMPLES",
           "BACKOFF_MIN", "BACKOFF_MAX", "BACKOFF_CALLS"]

#: Chunks a batch is cut into per thread when ``chunk`` is not given: a late or descheduled
#: helper then leaves at most about 1/(threads * CHUNKS_PER_THREAD) of the batch to the end,
#: and each chunk's own cost (3-5 us for a kernel of 25-30 arrays: unboxing them, a turn of
#: the GIL) stays a small part of it. Measured on the 2-core machine, the many_balls step
#: forced parallel with one core busy, alternated with the serial step: 8 chunks a thread (of
#: at least 16 items) 1.13-1.14x the serial time, 4 (of at least 64) 1.11-1.14x, 2 1.12-1.14x:
#: once chunks carry CHUNK_SECONDS the count hardly matters there, and 4 keeps the tail short.
CHUNKS_PER_THREAD = 4
#: The taper of the last chunks (:func:`_tapered_bounds`): once the batch left is under
#: ``TAPER * threads`` chunks, each chunk takes 1 / (TAPER * threads) of what is left (down to
#: MIN_CHUNK and CHUNK_SECONDS of work), as guided self-scheduling does. With equal chunks the
#: last one may start just as the other threads find none left, and they wait for all of it:
#: about half a chunk on average (10,000 rays at 0.17 us on 2 threads in chunks of 1,250: up to
#: 0.2 ms of a 1 ms call); tapered, the wait is at most the smallest chunk. Two: the chunks
#: halve about every TAPER * threads chunks, so the taper adds only a few chunks (that call:
#: 13 chunks instead of 8, each costing 3-5 us).
TAPER = 2
#: Seconds of work a chunk is given at least, once a kernel's serial calls have been timed
#: (its time per item): ten times a chunk's own cost, so that cheap items (a contact pass
#: that skips most bodies: 0.06 us a body) come in few chunks.
CHUNK_SECONDS = 50e-6
#: Items below which :func:`parallel_for` runs ``kernel(0, n, *args)`` on the calling thread
#: by default. Measured: a parallel call costs 5-25 us more than a serial one (an empty
#: kernel, 1,000 items: median 5-10 us, 90th percentile 20-25), about the work of 128 items
#: of 0.1-0.2 us. Callers with heavier or lighter items pass their own ``min_batch``.
PARALLEL_MIN_BATCH = 128
#: The smallest chunk :func:`parallel_for` cuts by itself (before any timing): a chunk under
#: this many items costs more in its call than most kernels compute in it.
MIN_CHUNK = 64
#: How much faster than one thread (time per item) a kernel's parallel calls must be for it to
#: keep running them. Measured on the 2-core machine (5,000-item calls of 0.5 us items): 1.85-1.9
#: with the other core free, 0.96-1.04 while other processes held both cores; 1.1 keeps the
#: threads only where they clearly pay, since "never slower than one thread" comes first.
MIN_GAIN = 1.1
#: Timings a kernel keeps of its last calls each way; it compares their medians. Three: one
#: call stretched by a lost time slice (3-4 ms of a 0.2 ms call, seen under load) is outvoted.
#: Threads chosen on fewer serial timings than this probe one thread again soon.
SAMPLES = 3
#: Seconds before a kernel probes the way it does not run again, after it switched; doubled
#: after each probe that confirms the choice, up to :data:`BACKOFF_MAX`.
BACKOFF_MIN = 0.01
#: The longest wait between probes, seconds: how long a kernel may keep to one thread after
#: the other processes have left the cores (or to threads that have stopped paying). Measured:
#: with both cores busy a probe of threads took 5-40x its serial call (0.2-0.3 ms calls of the
#: many_balls step took up to 14 ms); a game stepping 60 times a second makes about 180 such
#: calls a second, so one probe a second would cost up to 10-20% there, one in 4 s 3-5%.
BACKOFF_MAX = 4.0
#: Probes are at least this many times what a probe loses apart (by the medians: the way not
#: chosen against the way chosen, for the call's items): probing then costs at most about
#: 1/BACKOFF_CALLS of the time. Until 2026-12-04 probes were 50 times the probe's whole wall
#: time apart: a probe that lost narrowly (a 15 ms ``sweep_many`` call on threads whose helper
#: woke late, 15.3-16.8 ms against 14.3 on one thread) kept the kernel off the free second core
#: for 0.76 s, and ``bench_threads.py``'s free regime on one thread in 2 of 10 runs (in none of
#: 10 alternated with them since; benchmarks/README.md, session 33).
BACKOFF_CALLS = 100
#: Kernels whose speed each way :func:`parallel_for` remembers, at most (then it forgets them all).
MAX_REMEMBERED = 256


_lock = threading.Lock()
# guards the kernels' timings (parallel_for holds _lock too; either_way only this)
_choice_lock = threading.Lock()
_threads: int | None = None


def _env_threads(name: str) -> int | None:
    """The thread count in environment variable ``name``, or None when it is not set."""
    text = os.environ.get(name, "").strip()
    if not text:
        return None
    try:
        value = int(text)
    except ValueError:
        raise ValueError(f"the environment variable {name} must be a whole number of "
                         f"threads, got {text!r}") from None
    if not 1 <= value <= MAX_THREADS:
        raise ValueError(f"the environment variable {name} must be between 1 and "
                         f"{MAX_THREADS}, got {value}")
    return value


def _default_threads() -> int:
    """``SWEPT_NUM_THREADS``, else ``NUMBA_NUM_THREADS``, else the cores this process may use."""
    for name in ("SWEPT_NUM_THREADS", "NUMBA_NUM_THREADS"):
        value = _env_threads(name)
        if value is not None:
            return value
    try:
        cores = len(os.sched_getaffinity(0))
    except (AttributeError, OSError):
        # no affinity call (macOS, Windows): every core the machine reports
        cores = os.cpu_count() or 1
    return max(1, min(cores, MAX_THREADS))


def threads() -> int:
    """How many threads a parallel call uses, the caller included (see :func:`set_threads`)."""
    global _threads
    if _threads is None:
        _threads = _default_threads()
    return _threads


def set_threads(count: int | None) -> None:
    """Use ``count`` threads (the caller included) in swept's parallel calls; None: the default.

    The default is ``SWEPT_NUM_THREADS`` if set, else ``NUMBA_NUM_THREADS`` if set, else the
    number of cores this process may run on. The count also goes to numba
    (``numba.set_num_threads``, for the calling thread, clamped to numba's own pool) so that
    kernels still written with ``prange`` follow it.
    """
    global _threads
    if count is None:
        value = _default_threads()
    else:
        if isinstance(count, bool) or not isinstance(count, int):
            raise TypeError(f"threads must be a whole number or None, got {count!r}")
        if not 1 <= count <= MAX_THREADS:
            raise ValueError(f"threads must be between 1 and {MAX_THREADS}, got {count}")
        value = count
    _threads = value
    import numba

    pool = numba.config.NUMBA_NUM_THREADS  # type: ignore[attr-defined]
    numba.set_num_threads(min(value, pool))


class _Job:
    """One :func:`parallel_for` call: its chunks, handed out by a shared counter, and the
    helpers still inside it (the caller waits for them, never for a chunk not yet taken)."""

    __slots__ = ("kernel", "args", "bounds", "count", "helpers", "next", "inside", "error",
                 "cond")

    def __init__(self, kernel: Callable[..., Any], args: Sequence[Any], bounds: list[int],
                 helpers: int) -> None:
        self.kernel = kernel
        self.args = tuple(args)
        # chunk k is the items bounds[k] .. bounds[k + 1] - 1
        self.bounds = bounds
        self.count = len(bounds) - 1
        self.helpers = helpers
        # next(self.next) is atomic (one C call under the GIL): each chunk index goes to one
        # thread, without a lock
        self.next = itertools.count()
        self.inside = 0
        self.error: BaseException | None = None
        self.cond = threading.Condition(threading.Lock())

    def work(self) -> None:
        """Take chunks and run them until none is left (skipping them once one has raised)."""
        kernel = self.kernel
        args = self.args
        bounds = self.bounds
        count = self.count
        # one chunk a pass, each index taken once: at most ``count`` passes
        for _ in range(count):
            k = next(self.next)
            if k >= count:
                return
            if self.error is not None:
                # a chunk raised: the rest are not run, only taken
                continue
            try:
                kernel(bounds[k], bounds[k + 1], *args)
            except BaseException as exc:  # noqa: BLE001 - handed to the caller, re-raised there
                with self.cond:
                    if self.error is None:
                        self.error = exc

    def help(self) -> None:
        """A helper's share: enter, take chunks, leave (waking the caller if it waits)."""
        with self.cond:
            self.inside += 1
        try:
            self.work()
        finally:
            with self.cond:
                self.inside -= 1
                if self.inside == 0:
                    self.cond.notify_all()

    def wait(self) -> None:
        """Block (sleeping) until no helper is inside; call once every chunk has been taken:
        a helper that enters later finds none left."""
        with self.cond:
            # each helper inside leaves after at most its share of chunks
            while self.inside > 0:
                self.cond.wait()


class _Pool:
    """The helper threads: each sleeps until a new job is posted, works on it, sleeps again."""

    def __init__(self) -> None:
        self.cond = threading.Condition(threading.Lock())
        self.generation = 0
        self.job: _Job | None = None
        self.workers: list[threading.Thread] = []

    def ensure(self, helpers: int) -> None:
        """Start helper threads until there are ``helpers`` of them."""
        while len(self.workers) < helpers:
            index = len(self.workers)
            worker = threading.Thread(target=self._serve, args=(index,),
                                      name=f"swept-worker-{index}", daemon=True)
            worker.start()
            self.workers.append(worker)

    def post(self, job: _Job) -> None:
        """Hand ``job`` to the helpers and wake them."""
        with self.cond:
            self.job = job
            self.generation += 1
            self.cond.notify_all()

    def clear(self) -> None:
        """Drop the finished job (and its arrays)."""
        with self.cond:
            self.job = None

    def _serve(self, index: int) -> None:
        """A helper's life: wait for a job newer than the last one seen, work on it, repeat."""
        _state.inside = True
        seen = 0
        # a daemon's loop: it lasts as long as the process (each pass sleeps until a new job)
        while True:
            with self.cond:
                while self.generation == seen:
                    self.cond.wait()
                seen = self.generation
                job = self.job
            if job is not None and index < job.helpers:
                job.help()


class _State(threading.local):
    """Per thread: whether it is running chunks of a parallel call (nested calls go serial)."""

    inside = False


_state = _State()
_pool = _Pool()


def _reset_after_fork() -> None:
    """A forked child has none of the parent's helper threads: start afresh."""
    global _pool, _lock, _choice_lock
    _pool = _Pool()
    _lock = threading.Lock()
    _choice_lock = threading.Lock()
    _state.inside = False


if hasattr(os, "register_at_fork"):
    os.register_at_fork(after_in_child=_reset_after_fork)


class _Choice:
    """Which way one kernel's calls run: the wall time per item of its last few calls each
    way (serial, parallel), the way chosen, and when to probe the other way."""

    __slots__ = ("samples", "parallel", "probe_at", "interval")

    def __init__(self, now: float, parallel: bool) -> None:
        self.samples: tuple[list[float], list[float]] = ([], [])
        self.parallel = parallel
        self.probe_at = now
        self.interval = 0.0

    def per_item(self) -> float:
        """The median seconds an item of the serial calls (NaN before one is timed)."""
        return _median(self.samples[0]) if self.samples[0] else math.nan

    def pick(self, now: float) -> tuple[bool, bool]:
        """(whether this call runs in parallel, whether it is a probe of the other way)."""
        if now > self.probe_at:
            if not self.parallel and now <= _threads_probe_at:
                # a kernel found threads slower a moment ago: no probe of them yet (on a busy
                # machine each may cost many serial calls)
                return False, False
            return not self.parallel, True
        return self.parallel, False

    def record(self, parallel: bool, probe: bool, seconds: float, n: int, now: float) -> None:
        """Note a call of ``n`` items that took ``seconds`` one way, and choose again."""
        ring = self.samples[1 if parallel else 0]
        ring.append(seconds / n)
        if len(ring) > SAMPLES:
            del ring[0]
        serial, threaded = self.samples
        if not serial or not threaded:
            return
        # medians: a call the scheduler interrupted (a time slice lost: milliseconds) is one
        # outlier among them, not the verdict
        faster = _median(threaded) * MIN_GAIN < _median(serial)
        global _last_choice, _threads_backoff, _threads_probe_at
        _last_choice = faster
        if not faster and self.parallel:
            # threads this kernel ran (they were faster) have lost: the machine's load has
            # changed, so no kernel probes them for a while, doubling while they lose. A spell
            # in seconds, not in calls (a spell of 50 times the losing call, a 46 ms step's,
            # once kept 10,000-ray calls of 3 ms from probing threads for 2.3 s); each kernel
            # spaces its own probes by what they lose. A probe of threads that loses for a kernel
            # running one thread says nothing new of the load (its threads may never pay,
            # whatever the load; a kernel probing them every BACKOFF_MAX seconds could renew
            # the spell before the others' probes came due), so it backs off that kernel's
            # probes only.
            _threads_backoff = min(max(2.0 * _threads_backoff, BACKOFF_MIN), BACKOFF_MAX)
            _threads_probe_at = now + _threads_backoff
        elif faster and parallel:
            _threads_backoff = 0.0
        if faster != self.parallel:
            # the way it ran has become the slower: switch, and check again soon
            self.parallel = faster
            self.interval = BACKOFF_MIN
        elif probe:
            if self.parallel and len(serial) < SAMPLES:
                # threads chosen on few timings of one thread (one may have been interrupted):
                # time one thread again soon, which costs little
                self.interval = BACKOFF_MIN
            else:
                # the probe confirmed the choice: probe again later (a probe of threads on a
                # busy machine may cost many times a serial call)
                self.interval = min(max(2.0 * self.interval, BACKOFF_MIN), BACKOFF_MAX)
        else:
            # a call the chosen way: the next probe stays as it was
            return
        # what the next probe (of the way not chosen) should lose, by the medians: probes are
        # kept BACKOFF_CALLS times that apart
        chosen, other = (threaded, serial) if faster else (serial, threaded)
        lost = n * max(_median(other) - _median(chosen), 0.0)
        self.probe_at = now + max(self.interval, BACKOFF_CALLS * lost)


def _median(values: list[float]) -> float:
    """The middle of a few values (the lower middle of an even count: of two timings, the
    faster, so that a kernel's first call each way, slowed by one-off costs (loading the
    compiled kernel, starting the helper threads: a 46 ms step's first threaded call took 173
    ms), is outvoted by the next call, not only by two more)."""
    return sorted(values)[(len(values) - 1) // 2]


_choices: dict[Any, _Choice] = {}
# the way the latest choice of any kernel went: a new kernel's first call goes that way (the
# load of the machine is the same for every kernel); one thread before any choice, the safe way
_last_choice = False
# no kernel running one thread probes threads before this time (perf_counter seconds), set when
# threads that were faster for a kernel lost to one thread, BACKOFF_MIN to BACKOFF_MAX seconds
# (doubling while they lose) after it
_threads_probe_at = 0.0
_threads_backoff = 0.0


def _auto_chunk(n: int, workers: int, per_item: float) -> int:
    """The chunk size for ``n`` items on ``workers`` threads, items taking ``per_item`` seconds
    each on one thread (NaN: not yet timed): about CHUNKS_PER_THREAD chunks a thread, of at
    least MIN_CHUNK items and CHUNK_SECONDS of work, but one chunk a thread at least."""
    size = max(MIN_CHUNK, -(-n // (workers * CHUNKS_PER_THREAD)))
    if per_item > 0.0:
        size = max(size, math.ceil(CHUNK_SECONDS / per_item))
    return min(size, -(-n // workers))


def _smallest_chunk(per_item: float) -> int:
    """The fewest items :func:`_tapered_bounds` puts in a chunk, items taking ``per_item``
    seconds each (NaN: not yet timed): MIN_CHUNK, and CHUNK_SECONDS of work."""
    if per_item > 0.0:
        return max(MIN_CHUNK, math.ceil(CHUNK_SECONDS / per_item))
    return MIN_CHUNK


def _whole(value: Any, name: str, minimum: int) -> int:
    """``value`` as an int >= ``minimum``, or an error naming ``name``."""
    if isinstance(value, bool) or not isinstance(value, int):
        raise TypeError(f"{name} must be a whole number, got {value!r}")
    if value < minimum:
        raise ValueError(f"{name} must be at least {minimum}, got {value}")
    return value


def _even_bounds(n: int, chunk: int) -> list[int]:
    """The bounds of chunks of ``chunk`` items over ``[0, n)`` (the last one shorter)."""
    return [*range(0, n, chunk), n]


def _tapered_bounds(n: int, workers: int, chunk: int, smallest: int) -> list[int]:
    """The bounds of chunks over ``[0, n)`` for ``workers`` threads: ``chunk`` items each
    while the batch left is large, then a share of what is left (1 / (TAPER * workers)) but
    at least ``smallest`` items, so that the threads finish close together: the last chunks,
    the ones a thread may still be running when the others find none left, are small."""
    smallest = min(smallest, chunk)
    bounds = [0]
    at = 0
    # each pass takes at least one item: at most n passes
    for _ in range(n):
        left = n - at
        if left <= 0:
            break
        size = min(chunk, left, max(smallest, -(-left // (TAPER * workers))))
        if left - size < smallest // 2:
            # a remainder under half the smallest chunk goes with this one
            size = left
        at += size
        bounds.append(at)
    return bounds


def _run(kernel: Callable[..., Any], args: Sequence[Any], bounds: list[int], count: int
         ) -> None:
    """Run the chunks on ``count`` threads, the caller included; re-raise a chunk's error."""
    job = _Job(kernel, args, bounds, count - 1)
    pool = _pool
    pool.ensure(count - 1)
    pool.post(job)
    _state.inside = True
    try:
        job.work()
    finally:
        _state.inside = False
        job.wait()
        pool.clear()
    if job.error is not None:
        raise job.error


def _choose(key: Hashable, now: float) -> tuple[_Choice, bool, bool]:
    """``key``'s choice (made afresh when new), whether this call runs on threads, and
    whether it is a probe of the way not chosen."""
    with _choice_lock:
        choice = _choices.get(key)
        if choice is None:
            if len(_choices) >= MAX_REMEMBERED:
                _choices.clear()
            choice = _choices[key] = _Choice(now, _last_choice)
        parallel, probe = choice.pick(now)
    return choice, parallel, probe


def _timed(choice: _Choice, parallel: bool, probe: bool, n: int, start: float,
           call: Callable[[], Any]) -> None:
    """Run ``call`` (the way ``parallel`` says) and note its wall time from ``start`` in
    ``choice``."""
    call()
    now = time.perf_counter()
    with _choice_lock:
        choice.record(parallel, probe, now - start, n, now)


def either_way(key: Hashable, n: int, serial: Callable[[], Any], threaded: Callable[[], Any],
               *, min_batch: int = PARALLEL_MIN_BATCH) -> None:
    """Run ``serial()`` or ``threaded()`` (a sequence of :func:`parallel_for` calls doing the
    same work), whichever ``key``'s timings favour, chosen and timed as :func:`parallel_for`
    chooses for one kernel; ``n``: the items, for the timings and ``min_batch``.

    For work whose one-thread form is faster than its threaded form run serially (the
    Simulation's step: one compiled call, against its move on the threads and the rest in a
    second call): a choice per kernel inside the threaded form cannot see that.
    """
    n = _whole(n, "n", 0)
    min_batch = _whole(min_batch, "min_batch", 0)
    if threads() == 1 or n == 0 or n < min_batch or _state.inside:
        serial()
        return
    start = time.perf_counter()
    choice, parallel, probe = _choose(key, start)
    _timed(choice, parallel, probe, n, start, threaded if parallel else serial)


def parallel_for(kernel: Callable[..., Any], n: int, args: Sequence[Any], *,
                 chunk: int | None = None, min_batch: int = PARALLEL_MIN_BATCH,
                 key: Hashable = None) -> None:
    """Run ``kernel(start, stop, *args)`` over ``[0, n)`` in chunks on :func:`threads` threads.

    ``kernel`` is compiled with ``nogil=True`` and writes only the rows ``start .. stop-1`` of
    its outputs. ``chunk``: items a chunk (default: about ``CHUNKS_PER_THREAD`` chunks a
    thread). Below ``min_batch`` items, on one thread, or when called from inside a parallel
    call, it is the single call ``kernel(0, n, *args)``. The first exception a chunk raises is
    re-raised here once the running chunks end (chunks not yet started are skipped).
    ``key``: whose timings choose the way (threads or one) of this call; by default the
    kernel's. A kernel that runs workloads of different costs an item (rays and balls through
    one cast kernel) passes a key for each, so that the ways are compared on one workload.
    """
    n = _whole(n, "n", 0)
    min_batch = _whole(min_batch, "min_batch", 0)
    if chunk is not None:
        chunk = _whole(chunk, "chunk", 1)
    count = threads()
    if (count == 1 or n == 0 or n < min_batch or _state.inside
            or (chunk is not None and chunk >= n)):
        kernel(0, n, *args)
        return
    if not _lock.acquire(blocking=False):
        # another thread's call holds the pool: this one runs on its own thread, not waiting
        kernel(0, n, *args)
        return
    try:
        start = time.perf_counter()
        choice, parallel, probe = _choose(kernel if key is None else key, start)
        if parallel:
            if chunk is None:
                per_item = choice.per_item()
                bounds = _tapered_bounds(n, count, _auto_chunk(n, count, per_item),
                                         _smallest_chunk(per_item))
            else:
                bounds = _even_bounds(n, chunk)
            _timed(choice, True, probe, n, start, lambda: _run(kernel, args, bounds, count))
        else:
            _timed(choice, False, probe, n, start, lambda: kernel(0, n, *args))
    finally:
        _lock.release()
