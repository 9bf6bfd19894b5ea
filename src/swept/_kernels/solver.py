"""The Simulation's velocity solver: contact constraints solved by sequential impulses with
warm starting, so that piles, stacks and resting balls settle.

Each step, after gravity and before the move (:mod:`swept.sim`):

1. :func:`build_contacts` lists the contacts at the bodies' current places: every body pair
   the pair grid found (within :data:`~swept.constants.PAIR_MARGIN_FRACTION` of touching) and
   every collider within :data:`~swept.constants.CONTACT_MARGIN_FRACTION` of a body's radius.
   A contact holds the two sides (a body, and a body or a collider), the unit normal that
   separates the body from the other side, the separation (negative: the depth), and the
   relative normal speed before the solve. Its accumulated impulses start from the same
   contact's in the previous step (warm starting), found by its pair of sides. An *impact*,
   a contact whose sides approach faster than the restitution threshold with a restitution
   above 0, is left out: the move and the pair passes answer it as before (the swept cast's
   response at the time of impact, the pairwise exchange), which keep energy exactly, where a
   simultaneous solve of a chain of bouncing contacts loses some.
2. :func:`solve_contacts` runs ``iterations`` sweeps over the contacts (Gauss-Seidel). A
   contact allows the sides to approach by at most the separation in one step (a speculative
   contact: 0 when touching or overlapping), with an accumulated normal impulse that never
   pulls; friction (Coulomb's, ``|tangent impulse| <= mu * normal impulse``) stops sliding.
   These are the resting and slow contacts, which do not bounce: a ball dropped on a floor
   bounces on the impacts until gravity's pull each step is below the threshold, then rests.

3. :func:`solve_overlaps` heals overlaps deeper than the slop by split impulses: the same
   sweeps on a separate velocity whose displacement the first position pass applies (cast,
   like any push) and which is then forgotten, so no speed is left behind (a Baumgarte term
   in the velocities, tried, healed a 500-ball pile's overlaps but set a 20-ball column
   bouncing). The Simulation's position passes push apart what is left.

Bodies do not rotate, so a contact's effective mass is ``1 / (1/m_a + 1/m_b)`` for the normal
and the tangent alike.

Signs: ``normal`` points from the other side toward the contact's body; a contact is
satisfied when the relative velocity ``(v_body - v_other) . normal >= -max(sep, 0) / dt``
(``v_other`` of a collider: its velocity, zero unless it moves; a moving collider's ``sep`` is
taken where it started the step).
"""

from __future__ import annotations

import math
from typing import NamedTuple

import numpy as np

from ..constants import (
    CONTACT_MARGIN_FRACTION,
    CONTACT_SLOP_FRACTION,
    PAIR_MARGIN_FRACTION,
    POSITION_CORRECTION,
)
from . import inline_kernel, kernel
from .bvh import STACK_SIZE
from .scene import FLAG_KINEMATIC, FLAGS, HI, LO, Scene
from .sim import (
    Bodies,
    Scratch,
    _box_around,
    _cached,
    _spare,
    collider_velocity,
    gather_row,
    pair_normal,
    segment_beyond,
    start_gap,
)
from .sim_grid import GatherGrid
from .sim_shapes import BODY_BALL, body_gap_row, body_pair_gap
from .world import unowned

__all__ = ["Contacts", "Listing", "new_contacts", "build_contacts", "contacts_range",
           "merge_contacts", "solve_contacts", "solve_overlaps", "STAGED_COLLIDER_CONTACTS"]


class Contacts(NamedTuple):
    """A step's contacts in body order (CSR): body i's are ``first[i] .. first[i+1]-1``.

    ``body`` (k,) int64: the body whose contact it is. ``other`` (k,) int64: the other side,
    a body index (greater than the body's own), or ``-1 - h`` for collider h. ``surface``
    (k, 3): a collider's velocity (zero for a still one, and for a body pair). ``normal``
    (k, 3), ``sep`` (k,), ``approach`` (k,) the relative normal speed before the solve
    (negative: approaching), ``mass`` (k,) the effective mass, ``mu`` and ``bounce`` (k,) the
    friction and restitution, ``impulse`` (k,) the accumulated normal impulse and ``tangent``
    (k, 3) the accumulated friction impulse."""

    first: np.ndarray
    body: np.ndarray
    other: np.ndarray
    surface: np.ndarray
    normal: np.ndarray
    sep: np.ndarray
    approach: np.ndarray
    mass: np.ndarray
    mu: np.ndarray
    bounce: np.ndarray
    impulse: np.ndarray
    tangent: np.ndarray


def new_contacts(n: int, capacity: int) -> Contacts:
    """Empty contacts for ``n`` bodies with room for ``capacity`` contacts."""
    k = max(capacity, 1)
    return Contacts(np.zeros(n + 1, np.int64), np.zeros(k, np.int64), np.zeros(k, np.int64),
                    np.zeros((k, 3)), np.zeros((k, 3)),
                    np.zeros(k), np.zeros(k), np.zeros(k), np.zeros(k), np.zeros(k),
                    np.zeros(k), np.zeros((k, 3)))


class Listing(NamedTuple):
    """What a step's contact listing reads (:func:`build_contacts`, :func:`contacts_range`):
    the ``scene``'s colliders, the ``bodies`` at their current places, their ``scratch`` (each
    body's cache of colliders from the last step), the pair lists (CSR: ``pair_first`` each
    body's row, ``neighbour`` the listed bodies), the last step's contacts ``prev`` (warm
    starting), the restitution ``threshold`` (units/s: a faster approach that bounces is an
    impact, left out) and the gather ``grid`` a cache miss gathers through
    (:func:`~swept._kernels.sim.gather_row`)."""

    scene: Scene
    bodies: Bodies
    scratch: Scratch
    pair_first: np.ndarray
    neighbour: np.ndarray
    prev: Contacts
    threshold: float
    grid: GatherGrid


@inline_kernel
def _warm(prev: Contacts, i: int, other: int, c: int, out: Contacts) -> None:
    """Contact c of body i starts from the impulses of the same pair in ``prev`` (zero if the
    pair is new); the friction impulse loses its part along the new normal."""
    out.impulse[c] = 0.0
    out.tangent[c, 0] = 0.0
    out.tangent[c, 1] = 0.0
    out.tangent[c, 2] = 0.0
    if i + 1 >= prev.first.shape[0]:
        # a body added since the last step
        return
    for p in range(prev.first[i], prev.first[i + 1]):
        if prev.other[p] == other:
            out.impulse[c] = prev.impulse[p]
            tx = prev.tangent[p, 0]
            ty = prev.tangent[p, 1]
            tz = prev.tangent[p, 2]
            along = tx * out.normal[c, 0] + ty * out.normal[c, 1] + tz * out.normal[c, 2]
            out.tangent[c, 0] = tx - along * out.normal[c, 0]
            out.tangent[c, 1] = ty - along * out.normal[c, 1]
            out.tangent[c, 2] = tz - along * out.normal[c, 2]
            return


@inline_kernel
def _put(out: Contacts, c: int, body: int, other: int, nx: float, ny: float, nz: float, sep: float,
         approach: float, mass: float, mu: float, bounce: float) -> None:
    """Write contact c (its impulses are set by :func:`_warm`)."""
    out.body[c] = body
    out.other[c] = other
    out.normal[c, 0] = nx
    out.normal[c, 1] = ny
    out.normal[c, 2] = nz
    out.sep[c] = sep
    out.approach[c] = approach
    out.mass[c] = mass
    out.mu[c] = mu
    out.bounce[c] = bounce
    out.surface[c, 0] = 0.0
    out.surface[c, 1] = 0.0
    out.surface[c, 2] = 0.0


#: Rows of the staging table a body is given for its collider contacts when the contacts are
#: listed on threads (:func:`contacts_range`), beside its pair list's row: a chunk of bodies
#: writes its contacts into one stretch of the table as long as its bodies' rows; when a body's
#: contacts run past its chunk's stretch, the step lists them all on one thread instead
#: (:func:`build_contacts`: the same contacts at any value; a layout figure, not measured: a
#: ball rests on one or two walls, and a chunk holds hundreds of bodies).
STAGED_COLLIDER_CONTACTS = 2


@inline_kernel
def _contacts_span(first: int, stop: int, listing: Listing, out: Contacts, ends: np.ndarray,
                   c: int, cap: int) -> int:
    """The contacts of bodies ``first .. stop-1`` at their current places into ``out`` from row
    ``c`` on (module docstring), warm started from ``listing.prev``; nothing at or past row
    ``cap`` is written. Body i's end (one past its last contact, counted even when not written)
    goes to ``ends[i]``; returns the last one. A body's colliders come from its cache of the
    last step (``listing.scratch``) when that covers the ball and the margin. The loop of
    :func:`build_contacts` (every body, on the calling thread) and :func:`contacts_range` (a
    chunk of them, on a thread), inlined into each: as a compiled call of its own the same
    loop took 1.2-1.6x the CPU (bench_sim's 10,000 balls, one thread, six alternated pairs of
    processes, load 2), for no reason found."""
    # no reference counts in the loops (world.unowned): the scene's, the bodies' and the
    # scratch's arrays as views without an owner (the arguments keep them alive). Measured on
    # bench_sim's scene (10,000 balls, one thread, CPU, alternated in one process): 0.84 ->
    # 0.73 and 1.10 -> 0.94 ms
    scene = unowned(listing.scene)
    b = unowned(listing.bodies)
    s = unowned(listing.scratch)
    pair_first = listing.pair_first
    neighbour = listing.neighbour
    threshold = listing.threshold
    stack = np.empty(STACK_SIZE, np.int64)
    query = np.empty(6)
    spare = _spare(scene)
    # the contacts and the scratch query as owner-less views for the inlined helpers (each
    # counted them up and down once a body or a contact); the arguments keep the contacts
    # alive, and the query's owner stays in use in the loop (gather_row), so it lives on
    prev = unowned(listing.prev)
    out = unowned(out)
    query_view = unowned(query)
    # owner-less: the compiled row call reference-counts nothing
    view = unowned(scene)
    pos = b.pos
    vel = b.vel
    asleep = b.asleep
    # whether any body is not a ball (a balls-only step never asks a pair's kinds)
    shapes = b.local.shape[1] > 0
    kind = b.kind
    tags = scene.tags
    for i in range(first, stop):
        ball = kind[i] == BODY_BALL
        px = pos[i, 0]
        py = pos[i, 1]
        pz = pos[i, 2]
        ri = b.radius[i]
        # body pairs, each once from its lower index
        for q in range(pair_first[i], pair_first[i + 1]):
            j = neighbour[q]
            if j <= i:
                continue
            if (b.layer[i] & b.mask[j]) == 0 or (b.layer[j] & b.mask[i]) == 0:
                # one masks the other out: no contact
                continue
            if asleep[i] and asleep[j]:
                # both asleep: nothing moves
                continue
            dx = px - pos[j, 0]
            dy = py - pos[j, 1]
            dz = pz - pos[j, 2]
            if not shapes or (ball and kind[j] == BODY_BALL):
                dist, nx, ny, nz = pair_normal(dx, dy, dz)
                sep = dist - ri - b.radius[j]
            else:
                # a capsule or polygon in the pair: the convex contact of the two shapes
                sep, nx, ny, nz, _qx, _qy = body_pair_gap(b.kind, b.local, b.radius, i, px,
                                                          py, j, pos[j, 0], pos[j, 1])
            if sep > PAIR_MARGIN_FRACTION * (ri + b.radius[j]):
                # found within the grid's reach, but not near enough to act this step
                continue
            approach = ((vel[i, 0] - vel[j, 0]) * nx + (vel[i, 1] - vel[j, 1]) * ny
                        + (vel[i, 2] - vel[j, 2]) * nz)
            bounce = max(b.restitution[i], b.restitution[j])
            if bounce > 0.0 and approach < -threshold:
                # an impact that bounces: the pair passes answer it, exactly
                continue
            if c < cap:
                _put(out, c, i, j, nx, ny, nz, sep, approach, 1.0 / (b.inv_mass[i] + b.inv_mass[j]),
                     math.sqrt(b.friction[i] * b.friction[j]), bounce)
                _warm(prev, i, j, c, out)
            c += 1
        if asleep[i]:
            # asleep: its colliders hold nothing that moves
            ends[i] = c
            continue
        # colliders near the ball
        reach = CONTACT_MARGIN_FRACTION * ri
        _box_around(px, py, pz, ri + reach, query_view)
        cached = _cached(i, query_view, s.cache_count, s.cache_box)
        count = s.cache_count[i]
        if not cached:
            count = gather_row(scene, listing.grid, stack, query, b.mask[i], spare, 0)
        rows = scene.rows
        far = ri + reach
        for k in range(count):
            # (either array, read in place: see the note above sim._cached)
            h = s.cache[i, k] if cached else spare[0, k]
            if (tags[h, FLAGS] & FLAG_KINEMATIC) == 0 and (
                    rows[h, LO] > px + far or rows[h, HI] < px - far
                    or rows[h, LO + 1] > py + far or rows[h, HI + 1] < py - far):
                # a still collider whose box the ball's reach misses (a cache holds colliders
                # of a step's travel around it: most end here, without a call)
                continue
            wx = wy = wz = 0.0
            if ball:
                if ((tags[h, FLAGS] & FLAG_KINEMATIC) == 0
                        and segment_beyond(rows, tags, h, px, py, far)):
                    # a still wall clear of the ball's reach (the call would answer +inf)
                    continue
                # (a moving collider: the gap at the step's start, where it started)
                gap, nx, ny, nz = start_gap(view, h, px, py, pz, ri, reach)
                if (scene.tags[h, FLAGS] & FLAG_KINEMATIC) != 0:
                    # the contact answers its velocity
                    wx, wy, wz = collider_velocity(scene, h)
            else:
                gap, nx, ny, nz, _qx, _qy = body_gap_row(view, h, b.kind, b.local, b.radius,
                                                         i, px, py, reach)
                if (scene.tags[h, FLAGS] & FLAG_KINEMATIC) != 0:
                    # a moving collider, where it ends the step: the contact answers its
                    # velocity (friction carries what rests on it)
                    wx, wy, wz = collider_velocity(scene, h)
            if gap > reach:
                # clear of it by more than the margin
                continue
            approach = (vel[i, 0] - wx) * nx + (vel[i, 1] - wy) * ny + (vel[i, 2] - wz) * nz
            if b.restitution[i] > 0.0 and approach < -threshold:
                # an impact that bounces: the move (a cast or a push-out) answers it
                continue
            if c < cap:
                _put(out, c, i, -1 - h, nx, ny, nz, gap, approach, 1.0 / b.inv_mass[i],
                     b.friction[i], b.restitution[i])
                out.surface[c, 0] = wx
                out.surface[c, 1] = wy
                out.surface[c, 2] = wz
                _warm(prev, i, -1 - h, c, out)
            c += 1
        ends[i] = c
    return c


@kernel
def build_contacts(listing: Listing, out: Contacts) -> int:
    """The contacts of every body at its current place into ``out`` (module docstring), warm
    started from ``listing.prev``; returns how many there are. When that is more than ``out``
    holds, nothing past its capacity is written and the caller calls again with room for
    them. A body's colliders come from its cache of the last step when that covers the ball
    and the margin (:func:`_contacts_span` over every body)."""
    n = listing.bodies.pos.shape[0]
    cap = out.other.shape[0]
    first = out.first
    first[0] = 0
    c = _contacts_span(0, n, listing, out, first[1:], 0, cap)
    # each body's first row, as written (nothing past the capacity)
    for i in range(1, n + 1):
        first[i] = min(first[i], cap)
    return c


@kernel
def contacts_range(first: int, stop: int, listing: Listing, staged: Contacts,
                   starts: np.ndarray, ends: np.ndarray) -> None:
    """The contacts of bodies ``first .. stop-1`` (a range kernel: :func:`build_contacts` on
    threads) into their chunk's stretch of ``staged``, rows ``pair_first[first] + k * first``
    to ``pair_first[stop] + k * stop`` (k: :data:`STAGED_COLLIDER_CONTACTS`), body i's rows
    ``starts[i] .. ends[i]-1``, its start -1 when they ran past the stretch (listed again by
    :func:`merge_contacts`, which copies them into the contacts in body order)."""
    pair_first = listing.pair_first
    start = pair_first[first] + STAGED_COLLIDER_CONTACTS * first
    cap = pair_first[stop] + STAGED_COLLIDER_CONTACTS * stop
    _contacts_span(first, stop, listing, staged, ends, start, cap)
    for i in range(first, stop):
        starts[i] = start if ends[i] <= cap else -1
        start = ends[i]


@inline_kernel
def _copy_contact(staged: Contacts, k: int, out: Contacts, c: int) -> None:
    """Row k of ``staged`` into row c of ``out``."""
    out.body[c] = staged.body[k]
    out.other[c] = staged.other[k]
    out.sep[c] = staged.sep[k]
    out.approach[c] = staged.approach[k]
    out.mass[c] = staged.mass[k]
    out.mu[c] = staged.mu[k]
    out.bounce[c] = staged.bounce[k]
    out.impulse[c] = staged.impulse[k]
    for a in range(3):
        out.surface[c, a] = staged.surface[k, a]
        out.normal[c, a] = staged.normal[k, a]
        out.tangent[c, a] = staged.tangent[k, a]


@kernel
def merge_contacts(staged: Contacts, starts: np.ndarray, ends: np.ndarray, out: Contacts
                   ) -> int:
    """The contacts :func:`contacts_range` staged, into ``out`` in body order: the very rows
    :func:`build_contacts` writes; returns how many there are, writing none past ``out``'s
    capacity (the caller merges again with more room), or -1 when a body's rows ran past its
    chunk's stretch (rare: the caller lists them all with :func:`build_contacts` instead)."""
    n = starts.shape[0]
    cap = out.other.shape[0]
    staged = unowned(staged)
    out = unowned(out)
    c = 0
    for i in range(n):
        if starts[i] < 0:
            return -1
        out.first[i] = min(c, cap)
        for k in range(starts[i], ends[i]):
            if c < cap:
                _copy_contact(staged, k, out, c)
            c += 1
    out.first[n] = min(c, cap)
    return c


@kernel
def solve_contacts(b: Bodies, cs: Contacts, dt: float, iterations: int, tolerance: float
                   ) -> int:
    """Warm start, then at most ``iterations`` sweeps of sequential impulses (module
    docstring), stopping early after a sweep that changed no relative velocity by more than
    ``tolerance`` (converged: a settled pile, warm started, takes one or two); changes
    ``b.vel`` and the contacts' accumulated impulses; returns the sweeps taken."""
    # the arrays are read into locals and the loops written out: a helper taking the tuples
    # reference-counts an array on every access (measured 130x slower)
    vel = b.vel
    inv_mass = b.inv_mass
    other = cs.other
    surface = cs.surface
    normal = cs.normal
    sep = cs.sep
    mass = cs.mass
    mu = cs.mu
    impulse = cs.impulse
    tangent = cs.tangent
    body = cs.body
    count = cs.first[cs.first.shape[0] - 1]
    sweeps = 0
    for sweep in range(iterations + 1):
        warm = sweep == 0
        # the largest change of a relative velocity in this sweep
        biggest = 0.0
        for c in range(count):
            i = body[c]
            wi = inv_mass[i]
            o = other[c]
            wo = inv_mass[o] if o >= 0 else 0.0
            nx = normal[c, 0]
            ny = normal[c, 1]
            nz = normal[c, 2]
            m = mass[c]
            if warm:
                # last step's impulses, applied at once
                jx = impulse[c] * nx + tangent[c, 0]
                jy = impulse[c] * ny + tangent[c, 1]
                jz = impulse[c] * nz + tangent[c, 2]
            else:
                # relative to the other body, or to a collider's surface velocity
                rx = vel[i, 0] - (vel[o, 0] if o >= 0 else surface[c, 0])
                ry = vel[i, 1] - (vel[o, 1] if o >= 0 else surface[c, 1])
                rz = vel[i, 2] - (vel[o, 2] if o >= 0 else surface[c, 2])
                vn = rx * nx + ry * ny + rz * nz
                # approach by at most the gap in this step (none when touching)
                target = -max(sep[c], 0.0) / dt
                old = impulse[c]
                # never pull
                new = max(old + m * (target - vn), 0.0)
                impulse[c] = new
                d = new - old
                jx = d * nx
                jy = d * ny
                jz = d * nz
                # friction: stop the sliding (what is left after the normal impulse),
                # within mu times the normal impulse (Coulomb's cone)
                rx += (wi + wo) * jx
                ry += (wi + wo) * jy
                rz += (wi + wo) * jz
                vn = rx * nx + ry * ny + rz * nz
                tx = tangent[c, 0] - m * (rx - vn * nx)
                ty = tangent[c, 1] - m * (ry - vn * ny)
                tz = tangent[c, 2] - m * (rz - vn * nz)
                limit = mu[c] * new
                size = math.sqrt(tx * tx + ty * ty + tz * tz)
                if size > limit:
                    # sliding: the cone caps the friction impulse
                    scale = limit / size
                    tx *= scale
                    ty *= scale
                    tz *= scale
                jx += tx - tangent[c, 0]
                jy += ty - tangent[c, 1]
                jz += tz - tangent[c, 2]
                tangent[c, 0] = tx
                tangent[c, 1] = ty
                tangent[c, 2] = tz
                biggest = max(biggest, (wi + wo) * (abs(jx) + abs(jy) + abs(jz)))
            vel[i, 0] += wi * jx
            vel[i, 1] += wi * jy
            vel[i, 2] += wi * jz
            if o >= 0:
                vel[o, 0] -= wo * jx
                vel[o, 1] -= wo * jy
                vel[o, 2] -= wo * jz
        if not warm:
            sweeps += 1
            if biggest <= tolerance:
                # converged
                break
    return sweeps


@kernel
def solve_overlaps(b: Bodies, cs: Contacts, iterations: int, pushes: np.ndarray,
                   shift: np.ndarray) -> None:
    """Split impulses: ``iterations`` sweeps of the same sequential impulses on a separate
    velocity, into ``shift`` (n, 3), that moves each body by :data:`POSITION_CORRECTION` of
    its contacts' overlaps beyond the slop (:data:`CONTACT_SLOP_FRACTION` of the radii), and is
    then forgotten: position error heals without the speed a Baumgarte term would leave
    behind. ``pushes`` (k,) is scratch for the accumulated pushes. Shifts are displacements
    (a speed times the step)."""
    inv_mass = b.inv_mass
    radius = b.radius
    other = cs.other
    normal = cs.normal
    sep = cs.sep
    mass = cs.mass
    body = cs.body
    count = cs.first[cs.first.shape[0] - 1]
    shift[:] = 0.0
    pushes[:count] = 0.0
    for _ in range(iterations):
        for c in range(count):
            i = body[c]
            o = other[c]
            slop = CONTACT_SLOP_FRACTION * (radius[i] + (radius[o] if o >= 0 else radius[i]))
            if sep[c] >= -slop:
                # touching, or apart: nothing to heal
                continue
            wi = inv_mass[i]
            wo = inv_mass[o] if o >= 0 else 0.0
            nx = normal[c, 0]
            ny = normal[c, 1]
            nz = normal[c, 2]
            sx = shift[i, 0] - (shift[o, 0] if o >= 0 else 0.0)
            sy = shift[i, 1] - (shift[o, 1] if o >= 0 else 0.0)
            sz = shift[i, 2] - (shift[o, 2] if o >= 0 else 0.0)
            sn = sx * nx + sy * ny + sz * nz
            target = POSITION_CORRECTION * (-sep[c] - slop)
            old = pushes[c]
            new = max(old + mass[c] * (target - sn), 0.0)
            pushes[c] = new
            d = new - old
            shift[i, 0] += wi * d * nx
            shift[i, 1] += wi * d * ny
            shift[i, 2] += wi * d * nz
            if o >= 0:
                shift[o, 0] -= wo * d * nx
                shift[o, 1] -= wo * d * ny
                shift[o, 2] -= wo * d * nz

