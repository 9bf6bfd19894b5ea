"""Contact events and sensors of a :class:`swept.sim.Simulation`: what began and what ended in
the last step, as numpy structured arrays, and callbacks called once per step with them.

After each step the Simulation compares the step's touches with the previous step's
(:mod:`swept._kernels.events`: each body's keys sorted, one merge per body, compiled) and
keeps four arrays, each of :func:`event_dtype` (the touches found, the tables compared and
the arrays built when first needed, :class:`_Later`: the same bits as at once):

- ``contacts_began`` / ``contacts_ended``: body-body and body-collider contacts;
- ``sensor_began`` / ``sensor_ended``: bodies entering and leaving the World's sensors
  (colliders added with ``sensor=True``, which bodies pass through).

A contact *exists* in a step when the two sides touched in it: the body's swept move hit the
collider (so a fast ball that hits a wall and bounces clear within one step has a contact in
that step, which ends in the next), or at the step's end they are apart by at most
:data:`~swept.constants.EVENT_TOUCH_FRACTION` of the radii's sum (resting, sliding, pushed out
of an overlap, stopped by a speculative contact). Bodies on layers that their masks exclude
never touch. A body overlaps a sensor when it touches or overlaps it at the step's end, or its
move in the step entered it (a ball crossing a thin sensor within one step: began, then ended
in the next step).

A sleeping body keeps its contacts (no end event when a pile falls asleep; a step with every
body asleep reports nothing). Removing a body ends its contacts and sensor overlaps at once:
:meth:`~swept.sim.Simulation.remove` sets the ended arrays to them (indices as before the
removal), empties the began ones, and calls the end callbacks.

Fields of an event (one row):

- ``body`` int64: the body's index; for a body pair, the lower index;
- ``other`` int64: the other body's index (``kind == KIND_BODY``), or the World handle of the
  collider (``KIND_COLLIDER``) or sensor (``KIND_SENSOR``);
- ``kind`` int8: :data:`KIND_BODY`, :data:`KIND_COLLIDER` or :data:`KIND_SENSOR`;
- ``normal`` (d,) float64: unit, out of the other side toward the body;
- ``point`` (d,) float64: where they touch, in world space (a collider's point nearest the
  ball's centre; for a body pair, the middle of the gap; for a swept hit or a sensor entered
  in the move, the touching point at that time); for an ended event, the last one seen;
- ``approach`` float64: for a began event, the speed (>= 0) at which the body approached the
  other side along the normal when the touch began: the velocity a swept cast carried into
  the collider, otherwise the relative velocity at the step's start (after gravity, before
  the solver and any response); 0 for an ended event.

Callbacks (:meth:`~swept.sim.Simulation.on_contact_begin`, ``on_contact_end``,
``on_sensor_begin``, ``on_sensor_end``) are batched: each is called once after a step whose
array is not empty, with that array (``fn(events)``), in the order they were registered; what
a 10,000-ball simulation wants, rather than a Python call per contact.
"""

from __future__ import annotations

import inspect
from collections.abc import Callable
from typing import Any, NamedTuple

import numpy as np

from ._kernels import events as _k
from ._kernels import sim as _sim
from ._kernels.scene import Scene

__all__ = ["KIND_BODY", "KIND_COLLIDER", "KIND_SENSOR", "event_dtype", "EventCallback"]

#: ``kind`` of an event whose ``other`` is a body index.
KIND_BODY = 0
#: ``kind`` of an event whose ``other`` is a World collider's handle.
KIND_COLLIDER = 1
#: ``kind`` of an event whose ``other`` is a World sensor's handle.
KIND_SENSOR = 2

#: A callback: called with one step's events (a structured array of :func:`event_dtype`).
EventCallback = Callable[[np.ndarray], Any]


def event_dtype(dim: int) -> np.dtype:
    """The structured dtype of the events of a ``dim``-dimensional simulation (module
    docstring): ``body, other`` int64, ``kind`` int8, ``normal, point`` (dim,) float64,
    ``approach`` float64."""
    if dim not in (2, 3):
        raise ValueError(f"dim must be 2 or 3, got {dim!r}")
    return np.dtype([("body", np.int64), ("other", np.int64), ("kind", np.int8),
                     ("normal", np.float64, (dim,)), ("point", np.float64, (dim,)),
                     ("approach", np.float64)])


def check_callback(fn: Any, name: str = "fn") -> EventCallback:
    """``fn`` if it can be called with one positional argument (the events); otherwise a
    TypeError naming ``name``."""
    if not callable(fn):
        raise TypeError(f"{name} must be callable (it is called with the events array), not "
                        f"{type(fn).__name__}")
    try:
        signature = inspect.signature(fn)
    except (TypeError, ValueError):
        # a builtin without a signature: taken on trust
        return fn
    try:
        signature.bind(None)
    except TypeError as error:
        raise TypeError(f"{name} must take one positional argument (the events array): "
                        f"{error}") from None
    return fn


class Touches(NamedTuple):
    """One step's touches by body (CSR): body i's are ``first[i] .. first[i+1]-1``, with keys
    ``other`` (k,) int64 sorted within each body and rows ``data`` (k, 7) float64 (normal
    xyz, point xyz, approach) (:mod:`swept._kernels.events`)."""

    first: np.ndarray
    other: np.ndarray
    data: np.ndarray


def _no_touches(n: int, room: int = 0) -> Touches:
    """A table for ``n`` bodies with no touches and room for ``room``."""
    k = max(room, 1)
    return Touches(np.zeros(n + 1, np.int64), np.zeros(k, np.int64),
                   np.zeros((k, _k.DATA_WIDTH)))


def _fill(fill: Callable[[Touches], int], n: int, room: int) -> Touches:
    """A new table filled by ``fill`` (which returns how many touches there are), with
    ``room`` or, when that is too little, as much as needed (and some slack)."""
    out = _no_touches(n, room)
    count = fill(out)
    if count > out.other.shape[0]:
        out = _no_touches(n, 2 * count)
        fill(out)
    return out


#: The four event arrays of a step, by attribute name.
EVENT_ARRAYS = ("contacts_began", "contacts_ended", "sensor_began", "sensor_ended")


class _Later:
    """A step's contact touches not found yet: what :func:`~swept._kernels.events.
    contact_touches` reads, kept so that the table is found when first needed (its events
    read, the next step's compared with it, a body removed, a callback), not in every step.
    At 10,000 balls the touches cost about a tenth of a step (bench_sim, one thread) that
    nobody read.

    Until :meth:`detach`, it holds the step's own arrays (found at once). :meth:`detach` keeps
    them past the next step: a copy of the positions, and every other input by reference
    (the velocities at the step's start, the pair lists and the bodies' other arrays are made
    new, never written in place; the next step logs its hits in another hit log,
    :meth:`ContactEvents.free_log`; the World's table is kept from changing by
    :meth:`ContactEvents.world_changing`). The bodies' caches of colliders serve only until
    the next step starts writing them (:meth:`stale`); after that each body gathers its
    colliders from the scene's trees, which find the same touches (each touch is found
    alone, and each body's keys are sorted)."""

    __slots__ = ("inputs", "room", "detached", "cached", "found")

    def __init__(self, scene: Scene, bodies: _sim.Bodies, scratch: _sim.Scratch,
                 pairs: tuple[np.ndarray, np.ndarray], vel_start: np.ndarray,
                 room: int) -> None:
        #: what the kernel reads (dropped once the table is found)
        self.inputs: tuple[Scene, _sim.Bodies, _sim.Scratch, tuple[np.ndarray, np.ndarray],
                           np.ndarray] | None = (scene, bodies, scratch, pairs, vel_start)
        self.room = room
        #: whether the inputs are kept past the next step (:meth:`detach`)
        self.detached = False
        #: whether the scratch's collider caches are still the step's
        self.cached = True
        #: the table, once found
        self.found: Touches | None = None

    def detach(self) -> None:
        """Keep the inputs past the next step (class docstring)."""
        assert self.inputs is not None
        scene, bodies, s, pairs, vel_start = self.inputs
        self.inputs = (scene, bodies._replace(pos=bodies.pos.copy()), s, pairs, vel_start)
        self.detached = True

    def log(self) -> np.ndarray | None:
        """The hit counts of the hit log this table will read (None: it reads none)."""
        if self.found is not None or not self.detached or self.inputs is None:
            return None
        return self.inputs[2].hit_count

    def stale(self) -> None:
        """The bodies' collider caches are about to change: the table, when found later,
        gathers each body's colliders instead of reading them."""
        self.cached = False

    def table(self) -> Touches:
        """The touches (found on the first call, then kept)."""
        if self.found is not None:
            return self.found
        assert self.inputs is not None
        scene, b, s, (first, neighbour), vel_start = self.inputs
        n = b.pos.shape[0]
        if not self.cached:
            # (a count of -1: no cache)
            s = s._replace(cache_count=np.full(n, -1, np.int64))
        self.found = _fill(lambda t: _k.contact_touches(scene, b, s, first, neighbour,
                                                         vel_start, t.first, t.other, t.data),
                           n, self.room)
        # what the table was found from is no longer needed
        self.inputs = None
        return self.found


def _table(touches: Touches | _Later) -> Touches:
    """A table, found now when it was deferred."""
    return touches.table() if isinstance(touches, _Later) else touches


def _room(touches: Touches | _Later) -> int:
    """The room of a table (of a deferred one: its own once found, else the room it will
    have)."""
    if isinstance(touches, _Later):
        return touches.room if touches.found is None else touches.found.other.shape[0]
    return int(touches.other.shape[0])


class _Unmerged(NamedTuple):
    """A step's began and ended events not yet told apart: the last step's touches ``old``
    and this step's ``new``, of sensors or contacts (:meth:`ContactEvents._diff`'s
    arguments; contacts' tables perhaps not found yet, :class:`_Later`). A step keeps these
    in both of its slots and compares the tables only when one is read (a property, or a
    callback registered for it): the comparison cost 0.13 ms of a 10,000-ball step
    (bench_sim, one thread) that nobody read. The tables are never written again (each step
    fills new ones), so the comparison can wait."""

    old: Touches | _Later
    new: Touches | _Later
    sensor: bool


class _Pending(NamedTuple):
    """Events not yet made into records: the touches ``which`` ((k,) bool) selects in
    ``table``, of sensors or contacts, began or ended (:meth:`ContactEvents._records`'s
    arguments). A step keeps these and builds the structured array only when it is read (a
    property, or a callback registered for it): building it each step cost a tenth of a
    1,000-ball step (bench_sim, one thread)."""

    table: Touches
    which: np.ndarray
    sensor: bool
    began: bool


class ContactEvents:
    """The last step's contact and sensor events of a ``dim``-dimensional simulation, the
    touches they were found from, and the callbacks (module docstring)."""

    def __init__(self, dim: int) -> None:
        self.dtype = event_dtype(dim)
        self.dim = dim
        #: the last step's contact touches, perhaps not found yet (:attr:`contacts`)
        self._contacts: Touches | _Later = _no_touches(0)
        #: hit logs (counts, keys, rows) for steps while deferred tables read others
        #: (:meth:`free_log`)
        self._logs: list[tuple[np.ndarray, np.ndarray, np.ndarray]] = []
        #: whether the events (or the touches) were read since the last step: a reader's
        #: next step finds its touches at once (:meth:`after_step`)
        self._read = False
        self.sensors = _no_touches(0)
        #: each of the four event arrays, or what builds it on first read (:class:`_Pending`,
        #: :class:`_Unmerged`)
        self._events: dict[str, np.ndarray | _Pending | _Unmerged] = {}
        self.quiet()
        self.callbacks: dict[str, list[EventCallback]] = {
            "contacts_began": [], "contacts_ended": [], "sensor_began": [],
            "sensor_ended": []}

    def register(self, which: str, fn: Any) -> EventCallback:
        """Add a callback for the ``which`` events (an attribute name); returns it."""
        self.callbacks[which].append(check_callback(fn))
        return fn

    def quiet(self) -> None:
        """A step in which nothing moved: no events, the touches kept."""
        empty = np.zeros(0, self.dtype)
        for which in EVENT_ARRAYS:
            self._events[which] = empty

    def _get(self, which: str) -> np.ndarray:
        """The event array ``which``, its records built now if they are still pending (and
        kept: every later read gives the same array)."""
        self._read = True
        got = self._events[which]
        if isinstance(got, _Unmerged):
            # the step's tables compared now: both slots of the pair get their pending events
            began, ended = self._diff(_table(got.old), _table(got.new), got.sensor)
            prefix = "sensor_" if got.sensor else "contacts_"
            self._events[prefix + "began"] = began
            self._events[prefix + "ended"] = ended
            got = self._events[which]
        if isinstance(got, _Pending):
            got = self._events[which] = self._records(*got)
        assert isinstance(got, np.ndarray)
        return got

    @property
    def contacts(self) -> Touches:
        """The last step's contact touches (found now when they were deferred)."""
        self._read = True
        found = self._contacts = _table(self._contacts)
        return found

    def settle(self) -> None:
        """Find every deferred table now (:class:`_Later`): the last step's touches and those
        its events compare them with."""
        _table(self._contacts)
        for got in self._events.values():
            if isinstance(got, _Unmerged):
                _table(got.old)
                _table(got.new)

    def world_changing(self) -> None:
        """The World calls this before its collider table changes (:meth:`swept.world.World.
        _changing`): the deferred tables are found while it is as they saw it."""
        self.settle()

    def _deferred(self) -> list[_Later]:
        """The tables not found yet that a read may still need."""
        out = [self._contacts] if isinstance(self._contacts, _Later) else []
        for got in self._events.values():
            if isinstance(got, _Unmerged) and isinstance(got.old, _Later):
                out.append(got.old)
        return [table for table in out if table.found is None]

    def before_step(self, scratch: _sim.Scratch) -> _sim.Scratch:
        """A step is about to write the bodies' collider caches and hit log: a deferred table
        no longer reads the caches, and the step gets a hit log no deferred table reads
        (:meth:`free_log`). Returns the scratch the step should use."""
        deferred = self._deferred()
        if not deferred:
            # (a reader's step: nothing waits)
            return scratch
        for table in deferred:
            table.stale()
        return self.free_log(scratch, deferred)

    def free_log(self, scratch: _sim.Scratch, deferred: list[_Later]) -> _sim.Scratch:
        """``scratch``, with a hit log that none of the ``deferred`` tables reads: its own, or
        one kept from an earlier step (at most three: this step's and two deferred tables'), or
        a new one. Swapped rather than copied: copying the used part of the log when a table was
        deferred cost 0.7 ms of a 10,000-ball step (bench_sim, one thread, loaded)."""
        busy = [log for log in (table.log() for table in deferred) if log is not None]
        if not any(log is scratch.hit_count for log in busy):
            return scratch
        shape = scratch.hit_data.shape
        # the logs of this many bodies: the scratch's own among them
        logs = [log for log in self._logs if log[2].shape == shape]
        if not any(log[0] is scratch.hit_count for log in logs):
            logs.append((scratch.hit_count, scratch.hit_other, scratch.hit_data))
        self._logs = logs
        for count, other, data in logs:
            if not any(log is count for log in busy):
                return scratch._replace(hit_count=count, hit_other=other, hit_data=data)
        new = (np.zeros_like(scratch.hit_count), np.zeros_like(scratch.hit_other),
               np.zeros_like(scratch.hit_data))
        logs.append(new)
        return scratch._replace(hit_count=new[0], hit_other=new[1], hit_data=new[2])

    @property
    def contacts_began(self) -> np.ndarray:
        """The contacts that began in the last step (module docstring)."""
        return self._get("contacts_began")

    @property
    def contacts_ended(self) -> np.ndarray:
        """The contacts that ended in the last step or at a removal."""
        return self._get("contacts_ended")

    @property
    def sensor_began(self) -> np.ndarray:
        """The sensor overlaps that began in the last step."""
        return self._get("sensor_began")

    @property
    def sensor_ended(self) -> np.ndarray:
        """The sensor overlaps that ended in the last step or at a removal."""
        return self._get("sensor_ended")

    def forget(self) -> None:
        """A step taken with the events off: no events, and no touches remembered (when they
        are turned on again, whatever touches then begins)."""
        self.quiet()
        self._contacts = _no_touches(0)
        self.sensors = _no_touches(0)

    def after_step(self, scene: Scene, sensors: tuple[Scene, np.ndarray] | None,
                   bodies: _sim.Bodies, scratch: _sim.Scratch,
                   pairs: tuple[np.ndarray, np.ndarray], vel_start: np.ndarray,
                   defer: bool = False) -> None:
        """Find the step's touches and sensor overlaps, the events against the last step's,
        and call the callbacks. ``defer``: the contact touches may wait until first needed
        (:class:`_Later`; the caller makes sure nothing but the World, which tells
        :meth:`world_changing`, writes what they are found from before the next step). They
        are found at once when a contact callback will read them, or when the last step's
        events were read: a reader's next read would find them after a later step, which has
        rewritten the bodies' collider caches, by gathering from the trees (bench_sim's
        10,000 balls, loaded: 3.9-4.8 ms against 2.9 at once)."""
        n = bodies.pos.shape[0]
        new = _Later(scene, bodies, scratch, pairs, vel_start, _room(self._contacts))
        if (defer and not self._read and not self.callbacks["contacts_began"]
                and not self.callbacks["contacts_ended"]):
            new.detach()
        else:
            new.table()
        self._read = False
        unmerged = _Unmerged(self._contacts, new, False)
        self._events["contacts_began"] = self._events["contacts_ended"] = unmerged
        self._contacts = new
        if sensors is not None or self.sensors.first[-1] > 0:
            if sensors is None:
                found = _no_touches(n)
            else:
                sensor_scene, handles = sensors
                found = _fill(lambda t: _k.sensor_touches(sensor_scene, handles, bodies,
                                                          scratch.start, vel_start, t.first,
                                                          t.other, t.data),
                              n, _room(self.sensors))
            unmerged = _Unmerged(self.sensors, found, True)
            self._events["sensor_began"] = self._events["sensor_ended"] = unmerged
            self.sensors = found
        else:
            empty = np.zeros(0, self.dtype)
            self._events["sensor_began"] = self._events["sensor_ended"] = empty
        self.call()

    def _diff(self, old: Touches, new: Touches, sensor: bool
              ) -> tuple[np.ndarray | _Pending, np.ndarray | _Pending]:
        """The began and ended events between two tables: empty arrays, or the touches that
        make them, as records built when first read (:meth:`_get`)."""
        k_old = int(old.first[-1])
        k_new = int(new.first[-1])
        empty = np.zeros(0, self.dtype)
        if k_old == 0 and k_new == 0:
            return empty, empty
        began = np.zeros(k_new, np.bool_)
        ended = np.zeros(k_old, np.bool_)
        n_began, n_ended = _k.diff_touches(old.first, old.other, new.first, new.other, began,
                                           ended)
        # (the tables are never written again: each step fills new ones, so they can wait)
        return (_Pending(new, began, sensor, True) if n_began else empty,
                _Pending(old, ended, sensor, False) if n_ended else empty)

    def _records(self, table: Touches, which: np.ndarray, sensor: bool, began: bool
                 ) -> np.ndarray:
        """The events of the touches ``which`` selects ((k,) bool) in ``table``."""
        rows = np.flatnonzero(which)
        out = np.zeros(rows.shape[0], self.dtype)
        if rows.shape[0] == 0:
            return out
        d = self.dim
        # each touch's body: the run of ``first`` it lies in
        out["body"] = np.searchsorted(table.first, rows, side="right") - 1
        other = table.other[rows]
        if sensor:
            out["other"] = other
            out["kind"] = KIND_SENSOR
        else:
            collider = other < 0
            out["other"] = np.where(collider, -1 - other, other)
            out["kind"] = np.where(collider, KIND_COLLIDER, KIND_BODY)
        data = table.data[rows]
        out["normal"] = data[:, :d]
        out["point"] = data[:, 3:3 + d]
        if began:
            out["approach"] = data[:, 6]
        return out

    def remove(self, index: int, n: int) -> None:
        """Body ``index`` of ``n`` is removed: its touches end now (events set and the end
        callbacks called), and the tables' rows and keys move down past it."""
        empty = np.zeros(0, self.dtype)
        self._events["contacts_began"] = self._events["sensor_began"] = empty
        self._contacts, self._events["contacts_ended"] = self._drop(self.contacts, index, n,
                                                                    False)
        self.sensors, self._events["sensor_ended"] = self._drop(self.sensors, index, n, True)
        self.call()

    def _drop(self, table: Touches, index: int, n: int, sensor: bool
              ) -> tuple[Touches, np.ndarray]:
        """``table`` without body ``index`` (later bodies one index lower), and the ended
        events of the touches it loses."""
        if table.first.shape[0] != n + 1:
            # the table is from before bodies were added: pad it (they had no touches)
            first = np.full(n + 1, table.first[-1], np.int64)
            first[: table.first.shape[0]] = table.first
            table = Touches(first, table.other, table.data)
        gone = _k.drop_body(table.first, table.other, index, not sensor)
        ended = self._records(table, gone, sensor, False)
        k = int(table.first[-1])
        keep = ~gone
        other = table.other[:k][keep]
        if not sensor:
            # body keys past the removed one move down (collider keys are negative)
            other = np.where(other > index, other - 1, other)
        body = np.repeat(np.arange(n), np.diff(table.first))[keep]
        counts = np.bincount(body - (body > index), minlength=n - 1)
        first = np.zeros(n, np.int64)
        np.cumsum(counts, out=first[1:])
        data = table.data[:k][keep]
        if other.shape[0] == 0:
            other = np.zeros(1, np.int64)
            data = np.zeros((1, _k.DATA_WIDTH))
        return Touches(first, other, data), ended

    def call(self) -> None:
        """Call each callback with its events, when there are any."""
        for which, fns in self.callbacks.items():
            if not fns:
                continue
            events = self._get(which)
            if events.shape[0]:
                for fn in fns:
                    fn(events)
