"""Every result type of swept, in one module and one style.

**Single-query results** (one hit, one contact, one step's outcome) are *records*, made by
:func:`record` (see :mod:`swept._fast` for why and what it costs). A record is a frozen
dataclass (``dataclasses.fields``, ``replace``, ``asdict`` and ``is_dataclass`` work on it,
and assigning a field raises ``dataclasses.FrozenInstanceError``) whose fields are kept in a
tuple, as pymunk's ``SegmentQueryInfo`` and Python's named tuples are. So a hit also unpacks
(``distance, point, normal, inside, exit_distance = hit``) and indexes in field order.
Equality and hashing are by field values, between results of the same class only; results
pickle and copy. Every field is documented by a ``#:`` comment saying its frame, direction,
sign, and what it holds on a miss or when the query started inside.

A miss is ``None``, never a result with a sentinel value. Frames and signs:

- every point is in world space;
- every normal is a unit vector;
- a ray hit's normal faces the ray (it opposes the ray's direction), unless the ray started
  inside, when it is the direction of the shortest way out;
- a contact's (and a manifold's) normal is the direction to move the *first* shape out of the
  second;
- a sweep hit's (and a collision's) normal points out of the target, toward the moving shape.

A result built by calling its class is checked as any input is: a vector field (annotated
``Vec2 | Vec3``, ``Vec2`` or ``Vec3``) is coerced by :func:`~swept.vec.as_vector` (so a tuple
or list becomes a Vec2 or Vec3; NaN, infinities, magnitudes beyond ``MAX_COORDINATE`` and
strings are refused, naming the field), the vector fields must share one dimension, a
``float`` field is coerced by :func:`~swept.vec.as_finite` (infinity only where the field's
default is infinite) and a ``bool`` field must be a bool (or 0 or 1). The library builds
results from its own, already-checked values with the ``make_*`` helpers below (or
``swept._fast.build``), skipping the constructor.

**Batch results** (:class:`RayBatch`, :class:`SweepBatch`, :class:`ContactBatch`, the answers
of the World's ``*_many`` queries for n queries at once) are plain frozen dataclasses of numpy
arrays: a struct of arrays, one array per field, row i answering query i. Their shapes are
``(n,)`` for a scalar field and ``(n, d)`` for a vector field (d the world's dimension, 2 or
3); their dtypes are ``bool`` (``hit``), ``int64`` (``handle``) and ``float64`` (the rest). A
miss is a row with ``hit`` False, ``handle`` -1, zeros for every vector and the distance or
fraction ``inf`` (a contact's depth 0.0), never NaN. They are not records: they are built
once per batch, and their arrays are the library's own output.

:class:`TOIStatus` is an Enum (how a rotating time-of-impact query ended).
"""

from __future__ import annotations

import math
from dataclasses import dataclass
from enum import Enum
from typing import TYPE_CHECKING, Any

import numpy as np

from ._fast import build, record
from .vec import Vec2, Vec3

if TYPE_CHECKING:
    from .shapes import Shape

__all__ = [
    "RayHit",
    "SweepHit",
    "Contact",
    "ManifoldPoint",
    "Manifold",
    "WorldRayHit",
    "WorldSweepHit",
    "WorldContact",
    "Decomposition",
    "Collision",
    "MoveResult",
    "Resolved",
    "SweptStep",
    "Advance",
    "TOIStatus",
    "TOIResult",
    "RayBatch",
    "SweepBatch",
    "ContactBatch",
    "record",
]


# ---------------------------------------------------------------------------------------------
# queries: ray casts, sweeps, contacts, manifolds

@record
class RayHit:
    """Where a ray first meets a shape."""

    #: distance from the ray's origin to the hit, in length units along the ray (>= 0)
    distance: float
    #: the hit point, in world space (the origin when ``started_inside``)
    point: Vec2 | Vec3
    #: unit normal of the surface at the hit, facing the ray (opposing its direction); when
    #: ``started_inside``, the direction from the origin toward the nearest boundary point
    normal: Vec2 | Vec3
    #: True when the ray's origin is inside the shape or on its boundary (then distance is 0)
    started_inside: bool = False
    #: where the ray leaves the solid shape, in length units along the ray (``>= distance``):
    #: the true exit, even beyond the ray's ``max_distance``; for a ray that started inside,
    #: the distance to where it leaves; ``distance`` itself for a segment (no inside);
    #: ``inf`` for a half-plane it never leaves (or an exit beyond the floats' range)
    exit_distance: float = math.inf


@record
class SweepHit:
    """When and where a moving shape first touches another during a step."""

    #: the fraction of the displacement (in [0, 1]) at which the shapes first touch
    fraction: float
    #: the point where the two touch at that moment, in world space
    point: Vec2 | Vec3
    #: unit normal pointing out of the target, toward the moving shape (against the relative
    #: motion); when ``started_inside``, the direction of the shortest way out
    normal: Vec2 | Vec3
    #: where the moving shape's reference point is at first contact: a circle's or sphere's
    #: centre, a box's centre, a polygon's centroid, a segment's or capsule's midpoint
    position: Vec2 | Vec3
    #: True when the shapes already touched or overlapped at the start (then fraction is 0)
    started_inside: bool = False


@record
class Contact:
    """How deep and which way two overlapping (or touching) shapes meet."""

    #: unit normal: the direction to move the *first* shape to get it out of the second
    normal: Vec2 | Vec3
    #: how far to move the first shape along ``normal`` so that they just touch (>= 0)
    depth: float
    #: a point where they meet, in world space: on the second shape's boundary, where the first
    #: shape reaches deepest into it
    point: Vec2 | Vec3


@record
class ManifoldPoint:
    """One point of a contact manifold: where the two shapes meet, and how deep."""

    #: the point, in world space, on the *second* shape's boundary; ``point - normal * depth``
    #: (with the manifold's normal) is on the first shape's boundary
    point: Vec2 | Vec3
    #: how far the first shape reaches into the second here, along the manifold's normal, in
    #: length units (>= 0; 0 where they just touch)
    depth: float


@record
class Manifold:
    """Where two overlapping (or touching) shapes meet: one normal and up to two points."""

    #: unit normal: the direction to move the *first* shape to get it out of the second (the
    #: normal of ``contact(a, b)``)
    normal: Vec2 | Vec3
    #: one or two :class:`ManifoldPoint`, the deepest first; the deepest one's depth is
    #: ``contact(a, b).depth``
    points: tuple[ManifoldPoint, ...]


# ---------------------------------------------------------------------------------------------
# World queries: the plain result, then the collider's handle and data


@record
class WorldRayHit(RayHit):
    """A :class:`~swept.RayHit` against a world collider, with its handle and data."""

    #: the collider hit: its World handle (an int from 0; -1 only in a hand-built hit)
    handle: int = -1
    #: the collider's user data, as given to ``World.add`` (None when none was given)
    data: Any = None


@record
class WorldSweepHit(SweepHit):
    """A :class:`~swept.SweepHit` against a world collider, with its handle and data."""

    #: the collider met: its World handle (an int from 0; -1 only in a hand-built hit)
    handle: int = -1
    #: the collider's user data, as given to ``World.add`` (None when none was given)
    data: Any = None


@record
class WorldContact(Contact):
    """A :class:`~swept.Contact` with a world collider (the query shape first), with the
    collider's handle and data."""

    #: the collider touched: its World handle (an int from 0; -1 only in a hand-built contact)
    handle: int = -1
    #: the collider's user data, as given to ``World.add`` (None when none was given)
    data: Any = None


# ---------------------------------------------------------------------------------------------
# response: one velocity against one surface


@record
class Decomposition:
    """A velocity split against a surface normal (the answer of :func:`~swept.decompose`)."""

    #: signed size of the part along the unit normal, in the velocity's units: negative heads
    #: into the surface, positive leaves it, 0 runs along it
    amount: float
    #: the part along the normal, ``amount * n`` (world frame; zero when running along)
    normal_part: Vec2 | Vec3
    #: the part along the surface, ``v - normal_part`` (world frame; zero when head-on)
    tangent_part: Vec2 | Vec3


# ---------------------------------------------------------------------------------------------
# moving a shape: move_and_slide, resolve, swept_step, advance


@record
class Collision:
    """One surface the character met during a move (Godot's KinematicCollision)."""

    #: the obstacle: its index in the list, or its World handle
    collider: Any
    #: where the character touched it, in world space (on the obstacle's surface)
    point: Vec2 | Vec3
    #: unit normal out of the obstacle toward the character (after the chain / seam rules)
    normal: Vec2 | Vec3
    #: the motion done in this slide before the contact, in world space (zero when the
    #: character started at the skin of this surface)
    travel: Vec2 | Vec3
    #: the motion that was left at the contact, before it was clipped (world space)
    remainder: Vec2 | Vec3
    #: the World collider's ``data`` (None for a list of obstacles)
    data: Any = None


@record
class MoveResult:
    """The result of :func:`~swept.move_and_slide`."""

    #: the character moved to where it ends (never inside an obstacle it began outside of)
    shape: Shape
    #: the character's reference point (centre, box centre, polygon centroid, capsule middle),
    #: in world space, at the end
    position: Vec2 | Vec3
    #: the character's own velocity after the slides (clipped against every touched plane),
    #: world frame; the platform's velocity is not in it
    velocity: Vec2 | Vec3
    #: True if it met or stands on (within the skin, or snapped to) a walkable surface
    on_floor: bool
    #: True if it met a surface too steep to walk on that is not a ceiling
    on_wall: bool
    #: True if it met a surface facing down (slope from ``-up`` within ``floor_max_angle``)
    on_ceiling: bool
    #: the floor's unit normal, pointing out of the floor (None when not on a floor)
    floor_normal: Vec2 | Vec3 | None
    #: every surface met, in order (empty when it met nothing)
    collisions: tuple[Collision, ...]
    #: the floor's collider (None when not on a floor)
    floor_collider: Any = None
    #: the velocity of the platform it stood on at the start, carried this call, world frame
    #: (zero if none)
    platform_velocity: Vec2 | Vec3 | None = None


@record
class Resolved:
    """The result of :func:`~swept.resolve`."""

    #: the shape moved out of the obstacles (as far as the passes got)
    shape: Shape
    #: the velocity after every contact's response, world frame (unchanged if
    #: ``fix_velocity`` is False, or if nothing touched)
    velocity: Vec2 | Vec3
    #: the deepest overlap left after the last pass, in length units (>= 0; 0.0 when clear of
    #: every obstacle)
    deepest: float
    #: each contact answered, in order, over all passes: (collider, Contact as found; its
    #: normal moves the shape out of the obstacle); the collider is the obstacle's index in a
    #: list, or the World handle; empty when nothing touched
    contacts: tuple[tuple[Any, Contact], ...]


@record
class SweptStep:
    """The result of :func:`~swept.swept_step`."""

    #: the shape moved to where it ends the step
    shape: Shape
    #: the shape's reference point (a circle's centre) at the end of the step, world space
    position: Vec2 | Vec3
    #: the velocity at the end of the step, after every response, world frame
    velocity: Vec2 | Vec3
    #: each contact responded to, in order: (obstacle index, the hit of that cast; its
    #: ``fraction`` is of the remaining step at that cast, its normal out of the obstacle);
    #: empty when the shape met nothing
    hits: tuple[tuple[int, SweepHit], ...] = ()
    #: how many casts the step used (at most ``max_casts``)
    casts: int = 0

    @property
    def bounced(self) -> bool:
        """Whether the shape met anything during the step."""
        return bool(self.hits)


@record
class Advance:
    """The result of :func:`~swept.advance`: a circle's state after one step."""

    #: the circle's centre at the end of the step, world space
    center: Vec2
    #: its displacement for a whole step after the last response (the new velocity times dt),
    #: world frame
    displacement: Vec2
    #: the first time of impact in the step, as a fraction of the step in [0, 1] (0 when it
    #: started touching), or None if it hit nothing
    toi: float | None
    #: every impact responded to: (fraction of the step in [0, 1], obstacle index, unit normal
    #: out of the obstacle toward the circle); empty when it hit nothing
    hits: tuple[tuple[float, int, Vec2], ...] = ()


# ---------------------------------------------------------------------------------------------
# rotating time of impact


class TOIStatus(Enum):
    """How a rotating time-of-impact query ended."""

    #: the shapes first touch at ``fraction``
    HIT = "hit"
    #: they stay apart for the whole step
    SEPARATED = "separated"
    #: they already overlap at the start
    OVERLAPPED = "overlapped"
    #: the iteration cap ran out (``fraction`` is a safe time before any contact)
    OUT_OF_ITERATIONS = "out_of_iterations"


@record
class TOIResult:
    """The answer of :func:`~swept.time_of_impact`."""

    #: how the query ended
    status: TOIStatus
    #: the time of first contact as a fraction of the step, in [0, 1] (1 when separated, 0
    #: when overlapped at the start)
    fraction: float
    #: unit normal out of B toward A at that time, world frame (zero when the cores already
    #: overlap)
    normal: Vec2
    #: the point of B's surface nearest A at that time, in world space
    point: Vec2
    #: conservative-advancement iterations used (>= 0, at most the cap)
    iterations: int


# ---------------------------------------------------------------------------------------------
# batch results: struct of arrays (see the module docstring)


@dataclass(frozen=True)
class RayBatch:
    """The nearest hit of each of n rays (struct of arrays; d is the world's dimension)."""

    #: (n,) bool: whether ray i hit anything
    hit: np.ndarray
    #: (n,) float64: distance along ray i to its hit (0 when it started inside); inf on a miss
    distance: np.ndarray
    #: (n, d) float64: the hit point, world space (the origin when it started inside); zeros on
    #: a miss
    point: np.ndarray
    #: (n, d) float64: unit normal at the hit, facing the ray (from inside: the shortest way
    #: out); zeros on a miss
    normal: np.ndarray
    #: (n,) int64: the collider hit; -1 on a miss
    handle: np.ndarray


@dataclass(frozen=True)
class SweepBatch:
    """The first contact of each of n moving shapes (balls, or any convex mover given to
    ``World.sweep_many(shapes, displacements)``) during its displacement."""

    #: (n,) bool: whether mover i touches anything during its move
    hit: np.ndarray
    #: (n,) float64: the fraction of the displacement, in [0, 1], at first contact (0 when it
    #: started touching); inf on a miss
    fraction: np.ndarray
    #: (n, d) float64: where the mover touches the collider at that moment, world space; zeros
    #: on a miss
    point: np.ndarray
    #: (n, d) float64: unit normal out of the collider toward the ball; zeros on a miss
    normal: np.ndarray
    #: (n,) int64: the collider met; -1 on a miss
    handle: np.ndarray


@dataclass(frozen=True)
class ContactBatch:
    """The deepest contact of each of n circles (spheres) with the world."""

    #: (n,) bool: whether ball i touches or overlaps anything
    hit: np.ndarray
    #: (n, d) float64: unit direction to move ball i out of the collider; zeros on a miss
    normal: np.ndarray
    #: (n,) float64: how far along ``normal`` (>= 0; 0 when just touching); 0.0 on a miss
    depth: np.ndarray
    #: (n, d) float64: on the collider's boundary where the ball reaches deepest, world space;
    #: zeros on a miss
    point: np.ndarray
    #: (n,) int64: the collider; -1 on a miss
    handle: np.ndarray


# ---------------------------------------------------------------------------------------------
# fast builders: the library's own, already-checked values, fields in order, one allocation

#: builds a record from the tuple of its fields (untyped: mypy sees a dataclass, not a tuple)
_rn: Any = build


def make_ray_hit(distance: float, point: Any, normal: Any, started_inside: bool,
                 exit_distance: float = math.inf) -> RayHit:
    """Build a RayHit in one tuple allocation (internal, hot path)."""
    hit: RayHit = _rn(RayHit, (distance, point, normal, started_inside, exit_distance))
    return hit


def make_sweep_hit(fraction: float, point: Any, normal: Any, position: Any,
                   started_inside: bool) -> SweepHit:
    """Build a SweepHit in one tuple allocation (internal: the values are the library's own,
    already checked, and may reach past MAX_COORDINATE, as a point beyond a far shape)."""
    hit: SweepHit = _rn(SweepHit, (fraction, point, normal, position, started_inside))
    return hit


def make_contact(normal: Any, depth: float, point: Any) -> Contact:
    """Build a Contact in one tuple allocation (internal, hot path)."""
    c: Contact = _rn(Contact, (normal, depth, point))
    return c


def make_decomposition(amount: float, normal_part: Any, tangent_part: Any) -> Decomposition:
    """Build a Decomposition in one tuple allocation (internal)."""
    d: Decomposition = _rn(Decomposition, (amount, normal_part, tangent_part))
    return d


def make_collision(collider: Any, point: Any, normal: Any, travel: Any, remainder: Any,
                   data: Any) -> Collision:
    """Build a Collision in one tuple allocation (internal)."""
    c: Collision = _rn(Collision, (collider, point, normal, travel, remainder, data))
    return c


def make_move_result(shape: Shape, position: Any, velocity: Any, on_floor: bool,
                     on_wall: bool, on_ceiling: bool, floor_normal: Any,
                     collisions: tuple[Collision, ...], floor_collider: Any,
                     platform_velocity: Any) -> MoveResult:
    """Build a MoveResult in one tuple allocation (internal)."""
    r: MoveResult = _rn(MoveResult, (shape, position, velocity, on_floor, on_wall, on_ceiling,
                                     floor_normal, collisions, floor_collider,
                                     platform_velocity))
    return r


def make_resolved(shape: Shape, velocity: Any, deepest: float,
                  contacts: tuple[tuple[Any, Contact], ...]) -> Resolved:
    """Build a Resolved in one tuple allocation (internal)."""
    r: Resolved = _rn(Resolved, (shape, velocity, deepest, contacts))
    return r


def make_swept_step(shape: Shape, position: Any, velocity: Any,
                    hits: tuple[tuple[int, SweepHit], ...], casts: int) -> SweptStep:
    """Build a SweptStep in one tuple allocation (internal)."""
    r: SweptStep = _rn(SweptStep, (shape, position, velocity, hits, casts))
    return r


def make_advance(center: Vec2, displacement: Vec2, toi: float | None,
                 hits: tuple[tuple[float, int, Vec2], ...]) -> Advance:
    """Build an Advance in one tuple allocation (internal)."""
    r: Advance = _rn(Advance, (center, displacement, toi, hits))
    return r


def make_toi_result(status: TOIStatus, fraction: float, normal: Vec2, point: Vec2,
                    iterations: int) -> TOIResult:
    """Build a TOIResult in one tuple allocation (internal)."""
    r: TOIResult = _rn(TOIResult, (status, fraction, normal, point, iterations))
    return r
