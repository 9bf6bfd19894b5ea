"""Simulation: balls among static colliders, a fixed step with an accumulator, three CCD modes.

A :class:`Simulation` moves :class:`Body` objects (circles in 2D, spheres in 3D; in 2D also
capsules, boxes and convex polygons that do not rotate, :mod:`swept._kernels.sim_shapes`)
through the static colliders of a :class:`swept.world.World`
(``sim.world.add(Segment(...))``), in fixed steps of ``step`` seconds:
:meth:`Simulation.update` adds a frame's time to an accumulator and takes as many whole steps
as it holds, carrying the rest to the next call (seed 000).

One step (range kernels over bodies and one serial loop over body pairs; see
:mod:`swept._kernels.sim`). On one thread the whole step is one compiled call
(:func:`~swept._kernels.sim.step_serial`); on several, the move runs on the threads through
:func:`swept._parallel.parallel_for` from :data:`~swept.constants.SIM_PARALLEL_MIN`
bodies (after the velocity solver's contacts, listed there too:
:func:`~swept._kernels.solver.contacts_range`), then the rest
(:func:`~swept._kernels.sim.after_move`): the pair scan, the first contact pass's push-outs
and the bookkeeping on the threads too, the pair lists, the pair passes and the later contact
passes on the calling thread; below it the whole step is one call on the calling thread, as
on one thread. Every way gives the same bits:

1. **Integrate** by semi-implicit Euler: ``v += g dt``, then the body moves with the new ``v``.
2. **Move** by the body's ``ccd`` mode:

   - ``"discrete"`` moves by ``v dt`` (the naive test: a fast body can tunnel).
   - ``"swept"`` casts the move against every collider grown by the radius, stops at the first
     contact the ball moves into (a ball resting on a floor and sliding is not stopped),
     responds (:func:`swept.respond`) and spends the rest of the step's time in the new
     direction, up to ``max_casts`` casts (seed 000's ``sweptStep``, :func:`swept_step`).
   - ``"speculative"`` treats each collider within the step's reach as a constraint: the
     velocity into it is clamped to what closes the gap in one step, so the body stops at the
     surface, and its velocity is answered there (bounce, friction). No time of impact and no
     re-simulation: the rest of the step is lost (seed 002; Box2D's speculative contacts).
3. **Contact passes** (``passes`` of them): body-body pairs (a grid broadphase) are pushed
   apart by inverse-mass shares of the depth (equal masses: half each) and exchange a
   momentum-conserving impulse, pair by pair in a fixed order (Gauss-Seidel); then each body
   is pushed out of every collider it overlaps and its velocity answered. A swept or
   speculative body's push from another body is cast first, so it is never pushed through a
   wall.
4. **Bookkeeping** (seed 000's Bullet Time, for every body): a body that responded to a
   collider during the step *caught* an approach (a body resting on a floor catches one every
   step); one that did not, yet whose centre's path over the step (its move, then each push
   of the passes) reached a collider (for a thin wall: crossed or touched the segment),
   *missed* one.

Colliders: the World's (:class:`swept.world.World`), read through its packed scene
(:mod:`swept._kernels.scene`) and nothing else: its BVHs give each body's candidates, its
narrowphase the contacts. Every World shape: segments, circles, solid convex polygons (2D;
a ball placed inside one is pushed out through its nearest edge), spheres (3D), capsules,
solid axis-aligned boxes and half-planes / half-spaces (both).

Moving colliders (``World.add(..., moving=True)``): one driven by :meth:`Simulation.move_collider`
moves by its velocity times the step at each step's start; one moved by ``World.move``
between steps moves by its displacement since the last step. Over the step the bodies meet it
in relative motion (its table row holds its pose at the step's end, its motion and velocity:
:mod:`swept._kernels.sim`), and its contacts answer its velocity.

Layers and masks: a body meets a collider when ``(collider.layer & body.mask) != 0``, and two
bodies meet when each one's layer is in the other's mask (pymunk's ShapeFilter rule); the
defaults (layer 1, every bit of the mask) meet everything. Body-body contacts are discrete
(continuous collision is against the colliders, as Box2D's default).

Events (:mod:`swept.events`): after each step, the contacts and sensor overlaps that began
and ended in it (``contacts_began``, ``contacts_ended``, ``sensor_began``, ``sensor_ended``,
structured arrays), and callbacks called once a step with them (``on_contact_begin`` ...).

The same inputs give bit-identical results on every run, whatever the thread count: every
range kernel writes only its own bodies' rows, and the pairs are visited in a fixed order.
"""

from __future__ import annotations

import math
from collections.abc import Iterable, Sequence
from typing import TYPE_CHECKING, Any

import numpy as np

from ._fast import batch_entry
from ._lazy import kernels
from ._parallel import either_way, parallel_for, threads
from .constants import (
    ACCUMULATOR_TOLERANCE,
    CONTACT_MARGIN_FRACTION,
    MAX_BODY_POLYGON_POINTS,
    MAX_CASTS_PER_STEP,
    MAX_COORDINATE,
    MAX_STEPS_PER_UPDATE,
    PATH_WAKE_BLOCK,
    RESTITUTION_THRESHOLD_STEPS,
    SIM_PARALLEL_MIN,
    SLEEP_SPEED_STEPS,
    SLEEP_TIME,
    SOLVER_ITERATIONS,
    SOLVER_TOLERANCE_FRACTION,
)
from .constants import SIMULATION_PASSES as DEFAULT_PASSES
from .events import ContactEvents, EventCallback
from .shapes import AABB, Capsule, Circle, Polygon, Shape, Sphere
from .vec import Vec2, Vec3, as_array, as_finite, as_vector
from .world import ALL_LAYERS, World
from .world import _mask as _check_bits

if TYPE_CHECKING:
    from ._kernels import scene as _kscene
    from ._kernels import sim as _k
    from ._kernels import sim_grid as _grid
    from ._kernels import sim_shapes as _shapes
    from ._kernels import solver as _solver
else:
    _kscene = kernels("scene")
    _k = kernels("sim")
    _grid = kernels("sim_grid")
    _shapes = kernels("sim_shapes")
    _solver = kernels("solver")

__all__ = [
    "Body", "Simulation", "CCD_MODES", "DEFAULT_STEP", "DEFAULT_PASSES",
    "MAX_CASTS_PER_STEP", "MAX_STEPS_PER_UPDATE", "path_crossings", "PathCrossings",
]

#: The ccd modes a body may use, by name.
CCD_MODES = ("discrete", "swept", "speculative")
#: Gravity as the move kernel takes it once the step has applied it.
_NO_GRAVITY = np.zeros(3)
#: No overlap shifts for the first position pass.
_NO_SHIFT = np.zeros((0, 3))
#: The key of the step's choice between its one compiled call and its threaded form
#: (:func:`swept._parallel.either_way`).
_STEP_KEY = "Simulation.step"
#: The key of the threaded step's contact listing's choice between threads and one
#: (:func:`swept._parallel.parallel_for`).
_CONTACTS_KEY = "Simulation.contacts"
#: The fixed step, in seconds (60 steps a second, as the seeds).
DEFAULT_STEP = 1.0 / 60.0
#: Colliders each body's cache row holds when a Simulation starts (a buffer size: speed, never
#: an answer). The rows double, up to ``swept._kernels.sim.CACHE_CAPACITY`` (32), after a step
#: in which too many awake bodies overflowed them (:data:`_CACHE_OVERFLOW_SHARE`); a body that
#: overflows gathers its candidates again, the same ones, as it always did past that capacity.
#: Narrow rows lie close together: most bodies cache none to a few colliders, and the step
#: reads the rows body after body. Measured on bench_sim's scene (the same process, rows of 32
#: against narrower ones, steps alternated, one thread, CPU, every step hashed the same; load 3
#: to 9), never widened: 10,000 balls 0.89-0.91x the step at 8, 0.88-0.96x at 16, 0.77-0.89x at 4
#: (3 balls a step over 4, 6 colliders the most), 0.88-0.90x at 2 (160 a step over); 4 against
#: 8 directly 0.93-0.97x (two runs); 1,000 balls 0.98-0.99x at 8 (its rows fit in the caches).
_CACHE_START_WIDTH = 4
#: The cache rows double after a step in which more than one awake body in this many (and at
#: least one) overflowed its row: a few bodies past their rows gather again (a few tree walks
#: each), which costs less than wider rows for all (bench_sim's 10,000 balls: 3 a step over 4,
#: 8 the most in 150 steps; 512 allows 19). Not measured beyond that scene.
_CACHE_OVERFLOW_SHARE = 512


def _mode_code(ccd: Any) -> int:
    """The kernel's code for a ccd mode name, or a ValueError naming ``ccd``."""
    if not isinstance(ccd, str) or ccd not in CCD_MODES:
        raise ValueError(f"ccd must be one of {', '.join(CCD_MODES)}, got {ccd!r}")
    code: int = getattr(_k, "MODE_" + ccd.upper())
    return code


def _check_mass(mass: Any) -> float:
    """A positive, finite mass, or a ValueError naming ``mass``."""
    m = as_finite(mass, "mass")
    if m <= 0.0:
        raise ValueError(f"mass must be > 0, got {mass!r}")
    return m


def _check_unit(value: Any, name: str) -> float:
    """A number in [0, 1], or a ValueError naming it."""
    v = as_finite(value, name, minimum=0.0)
    if v > 1.0:
        raise ValueError(f"{name} must be in [0, 1], got {value!r}")
    return v


def _per_ball(a: np.ndarray, n: int, name: str) -> np.ndarray:
    """A number or one value per ball, as an (n,) array; ValueError naming ``name``."""
    if a.ndim == 0:
        return np.full(n, float(a))
    if a.shape != (n,):
        raise ValueError(f"{name} must be a number or have one value per center, shape "
                         f"({n},), got shape {a.shape}")
    result: np.ndarray = a.copy()
    return result


def _layer_bits(value: Any, name: str) -> int:
    """A layer or mask (32 bits), or a TypeError / ValueError naming it."""
    if isinstance(value, bool) or not isinstance(value, (int, np.integer)):
        raise TypeError(f"{name} must be an int, not {type(value).__name__}")
    return _check_bits(int(value), name)


#: The shapes a body may have, for messages.
_BODY_SHAPES = "a Circle, Sphere, 2D Capsule, 2D AABB or Polygon"
#: A body shape's local row when it is a ball (the ball kernels read no local row).
_NO_LOCAL = np.zeros(0)


def _body_parts(shape: Any) -> tuple[int, tuple[float, ...], float, np.ndarray, int]:
    """A body's shape as the kernels hold it (:mod:`swept._kernels.sim_shapes`): its kind,
    its position (a ball's or capsule's centre, a box's middle, a polygon's centroid), the
    radius of the ball around that position holding it, its local row (core offsets from the
    position) and its dimension. TypeError for another shape, ValueError naming ``shape``
    for a shape a body cannot be."""
    if isinstance(shape, Circle):
        return 0, tuple(shape.center), shape.radius, _NO_LOCAL, 2
    if isinstance(shape, Sphere):
        return 0, tuple(shape.center), shape.radius, _NO_LOCAL, 3
    if isinstance(shape, (Capsule, AABB)) and shape.dim == 3:
        raise TypeError(f"shape: 3D {type(shape).__name__} bodies are not supported yet; a 3D "
                        f"body is a Sphere")
    if isinstance(shape, Capsule):
        a = np.array(shape.a, np.float64)
        b = np.array(shape.b, np.float64)
        core = np.array([a, b])
        center = 0.5 * (a + b)
        kind = int(_shapes.BODY_CAPSULE)
        r = shape.radius
    elif isinstance(shape, AABB):
        lo = np.array(shape.min, np.float64)
        hi = np.array(shape.max, np.float64)
        if not (hi > lo).all():
            raise ValueError(f"shape: a box body needs a width and a height > 0, got {shape!r}")
        # counter-clockwise (y up), as a polygon's
        core = np.array([lo, (hi[0], lo[1]), hi, (lo[0], hi[1])])
        center = 0.5 * (lo + hi)
        kind = int(_shapes.BODY_POLYGON)
        r = 0.0
    elif isinstance(shape, Polygon):
        core = np.array(shape.points, np.float64)
        if core.shape[0] > MAX_BODY_POLYGON_POINTS:
            raise ValueError(f"shape: a polygon body has at most {MAX_BODY_POLYGON_POINTS} "
                             f"corners, got {core.shape[0]}")
        center = np.array(shape.centroid, np.float64)
        kind = int(_shapes.BODY_POLYGON)
        r = 0.0
    else:
        raise TypeError(f"shape must be {_BODY_SHAPES}, not {type(shape).__name__}")
    offsets = core - center
    local = np.concatenate([[core.shape[0], r], offsets.ravel()])
    bound = float(np.sqrt((offsets ** 2).sum(axis=1)).max()) + r
    if bound <= 0.0:
        raise ValueError(f"shape: a body needs a size > 0, got {shape!r}")
    return kind, (float(center[0]), float(center[1])), bound, local, 2


def _shape_at(kind: int, local: np.ndarray, radius: float, box: bool, position: Any,
              dim: int) -> Shape:
    """A body's shape placed at ``position``: a ball, capsule, box (``box``) or polygon."""
    if kind == 0:
        return Circle(position, radius) if dim == 2 else Sphere(position, radius)
    p = np.array(position, np.float64)
    k = int(local[0])
    core = local[2:2 + 2 * k].reshape(k, 2) + p
    if kind == int(_shapes.BODY_CAPSULE):
        return Capsule(core[0], core[1], float(local[1]))
    if box:
        return AABB(core[0], core[2])
    return Polygon(core)


class Body:
    """A moving body that does not rotate: a Circle or Sphere (a ball), or in 2D a Capsule, an
    AABB (a box) or a convex Polygon, with velocity, mass and response settings.

    The shape is given where the body starts, in world coordinates; the body's ``position``
    is its middle (a ball's or capsule's centre, a box's middle, a polygon's centroid) and
    the shape keeps its offset from it (:attr:`shape` is the shape where the body is now).

    ``layer`` (32 bits) and ``mask``: the body meets a collider whose layer shares a bit with
    its mask, and another body when each one's layer is in the other's mask (by default
    layer 1 and every bit of the mask: it meets everything).

    Until it is added to a :class:`Simulation` it holds its own values; afterwards its
    properties read and write the simulation's arrays.
    """

    def __init__(self, shape: Shape, velocity: Any = None, *, mass: float = 1.0,
                 restitution: float = 0.0, friction: float = 0.0,
                 ccd: str = "discrete", layer: int = 1, mask: int = ALL_LAYERS) -> None:
        kind, center, radius, local, dim = _body_parts(shape)
        if radius <= 0.0:
            raise ValueError(f"shape: a body needs a radius > 0, got {radius!r}")
        self._kind = kind
        self._local = local
        self._box = isinstance(shape, AABB)
        zero = (0.0,) * dim
        v = as_vector(zero if velocity is None else velocity, "velocity")
        if len(v) != dim:
            raise ValueError(f"velocity must have {dim} components like the shape, got {len(v)}")
        self._dim = dim
        self._center = center
        self._radius = radius
        self._velocity = tuple(v)
        self._mass = _check_mass(mass)
        self._restitution = _check_unit(restitution, "restitution")
        self._friction = _check_unit(friction, "friction")
        _mode_code(ccd)
        self._ccd = ccd
        self._layer = _layer_bits(layer, "layer")
        self._mask = _layer_bits(mask, "mask")
        self._sim: Simulation | None = None
        self.index = -1

    def _vec(self, values: Sequence[float]) -> Vec2 | Vec3:
        """A result vector of this body's dimension."""
        return Vec2(values[0], values[1]) if self._dim == 2 else Vec3(*values[:3])

    @property
    def dim(self) -> int:
        """2 for a circle, 3 for a sphere."""
        return self._dim

    @property
    def radius(self) -> float:
        """A ball's radius; for another shape, the radius of the ball around
        :attr:`position` that holds it (what the body-pair broadphase uses)."""
        return self._radius

    @property
    def position(self) -> Vec2 | Vec3:
        """The centre, now."""
        if self._sim is None:
            return self._vec(self._center)
        return self._vec(self._sim._pos[self.index])

    @position.setter
    def position(self, value: Any) -> None:
        p = as_vector(value, "position")
        if len(p) != self._dim:
            raise ValueError(f"position must have {self._dim} components, got {len(p)}")
        if self._sim is None:
            self._center = tuple(p)
        else:
            self._sim._pos[self.index, : self._dim] = tuple(p)
            # a body put somewhere else: the solver finds its pairs again
            self._sim._pairs = None
            self._sim.wake(self)

    @property
    def velocity(self) -> Vec2 | Vec3:
        """The velocity, now (length units per second)."""
        if self._sim is None:
            return self._vec(self._velocity)
        return self._vec(self._sim._vel[self.index])

    @velocity.setter
    def velocity(self, value: Any) -> None:
        v = as_vector(value, "velocity")
        if len(v) != self._dim:
            raise ValueError(f"velocity must have {self._dim} components, got {len(v)}")
        if self._sim is None:
            self._velocity = tuple(v)
        else:
            self._sim._vel[self.index, : self._dim] = tuple(v)
            self._sim.wake(self)

    @property
    def shape(self) -> Shape:
        """The body's shape where it is now (of the type it was given as)."""
        return _shape_at(self._kind, self._local, self._radius, self._box, self.position,
                         self._dim)

    @property
    def mass(self) -> float:
        """The mass (> 0): pushes and bounces between bodies are shared by inverse mass."""
        return self._mass

    @property
    def restitution(self) -> float:
        """The bounce, in [0, 1]: 0 slides, 1 mirrors the normal velocity."""
        return self._restitution

    @property
    def friction(self) -> float:
        """Friction, in [0, 1]: the Coulomb coefficient of a resting or sliding contact (the
        solver's friction impulse is at most this times the normal impulse), and the share of
        the velocity along a surface lost at an impact's response."""
        return self._friction

    @property
    def ccd(self) -> str:
        """The collision mode: ``"discrete"``, ``"swept"`` or ``"speculative"``."""
        return self._ccd

    @property
    def layer(self) -> int:
        """The body's layer bits: a body meets another whose mask has one of them."""
        return self._layer

    @property
    def mask(self) -> int:
        """The layers this body meets: colliders and bodies whose layer shares a bit with it."""
        return self._mask

    @property
    def sleeping(self) -> bool:
        """Whether the body is asleep: it rested (slower than the Simulation's
        ``sleep_speed``) for ``sleep_time`` seconds with every body touching it, and costs
        nothing per step until something wakes it: a moving body touching it, a change of the
        World's colliders, or setting its position or velocity (or an impulse)."""
        return False if self._sim is None else bool(self._sim._asleep[self.index])

    def wake(self) -> None:
        """Wake the body, and every body asleep with it."""
        if self._sim is not None:
            self._sim.wake(self)

    @property
    def caught(self) -> int:
        """Steps in which this body responded to a collider (approaches caught)."""
        return 0 if self._sim is None else int(self._sim._caught[self.index])

    @property
    def missed(self) -> int:
        """Steps in which this body's centre path reached a collider with no response."""
        return 0 if self._sim is None else int(self._sim._missed[self.index])

    def apply_impulse(self, impulse: Any) -> None:
        """Change the velocity by ``impulse / mass`` (an impulse: mass times a velocity)."""
        j = as_vector(impulse, "impulse")
        if len(j) != self._dim:
            raise ValueError(f"impulse must have {self._dim} components, got {len(j)}")
        v = self.velocity
        self.velocity = tuple(v[k] + j[k] / self._mass for k in range(self._dim))

    def __repr__(self) -> str:
        return (f"Body(position={tuple(self.position)}, velocity={tuple(self.velocity)}, "
                f"radius={self._radius!r}, mass={self._mass!r}, ccd={self._ccd!r})")


def _world_shapes(world: Any) -> list[Shape]:
    """The shapes of a world that is not a :class:`swept.world.World`, in handle order (its
    ``handles()`` and ``shape(handle)``, or its ``shapes()``)."""
    handles = getattr(world, "handles", None)
    shape = getattr(world, "shape", None)
    if callable(handles) and callable(shape):
        return [shape(h) for h in handles()]
    shapes = getattr(world, "shapes", None)
    if callable(shapes):
        return list(shapes())
    raise TypeError(f"cannot read the colliders of a {type(world).__name__}: it needs "
                    f"handles() and shape(handle), as swept.world.World has")


def _world_of(shapes: Iterable[Shape]) -> World:
    """A private World holding ``shapes`` (handles in their order)."""
    world = World()
    for shape in shapes:
        world.add(shape)
    return world


class PathCrossings:
    """The colliders ``shapes`` (a list of 2D or 3D shapes), ready to tell which centre paths
    reach them: ``PathCrossings(walls).crossed(starts, ends)``. Built once, asked often."""

    def __init__(self, shapes: Iterable[Shape], dim: int = 2) -> None:
        self.dim = dim
        world = _world_of(shapes)
        if world.dim is not None and world.dim != dim:
            raise ValueError(f"shapes: a {dim}D check cannot hold {world.dim}D colliders")
        self._scene = world._sync()

    def crossed(self, starts: Any, ends: Any) -> np.ndarray:
        """Whether each centre's straight path ``starts[i] -> ends[i]`` ((n, d) each) reaches
        a collider (for a thin wall: crosses or touches the segment), (n,) bool: the test the
        simulation's ``missed`` counter uses, for checking any engine's steps."""
        p0 = np.array(starts, np.float64, ndmin=2)
        p1 = np.array(ends, np.float64, ndmin=2)
        if p0.shape != p1.shape or p0.shape[1] != self.dim:
            raise ValueError(f"starts and ends must both have shape (n, {self.dim}), got "
                             f"{p0.shape} and {p1.shape}")
        n = p0.shape[0]
        bodies = _new_bodies(n)
        scratch = _k.new_scratch(n)
        scratch.start[:, : self.dim] = p0
        scratch.moved[:, : self.dim] = p1
        parallel_for(_k.approaches_range, n, (self._scene, bodies, scratch, _grid.NO_GRID))
        return bodies.missed > 0


def path_crossings(shapes: Iterable[Shape], starts: Any, ends: Any) -> np.ndarray:
    """:meth:`PathCrossings.crossed` in one call (``starts`` / ``ends`` (n, d))."""
    dim = np.array(starts, np.float64, ndmin=2).shape[1]
    return PathCrossings(shapes, dim).crossed(starts, ends)


def _new_bodies(n: int) -> _k.Bodies:
    """The kernels' arrays for ``n`` bodies at the origin, at rest, meeting every layer."""
    return _k.Bodies(np.zeros((n, 3)), np.zeros((n, 3)), np.zeros(n), np.ones(n), np.zeros(n),
                     np.zeros(n), np.zeros(n, np.int64), np.ones(n, np.int64),
                     np.full(n, ALL_LAYERS, np.int64), np.zeros(n, np.int64),
                     np.zeros(n, np.int64), np.zeros(n, np.bool_), np.zeros(n, np.int64),
                     np.zeros((n, 0)))


class Simulation:
    """Bodies (:class:`Body`) moved in fixed steps among a world's static colliders.

    ``world``: where the static colliders live (a new :class:`swept.world.World` if None; add
    walls with ``sim.world.add(...)``). ``gravity``: a 2- or 3-vector (default zero in 2D; its
    length sets the dimension). ``step``: the fixed step in seconds. ``passes``: position
    passes per step. ``iterations``: velocity-solver sweeps per step. ``max_casts``: casts per
    step for a swept body. ``max_steps_per_update``: the most steps one :meth:`update` takes.
    ``restitution_threshold``: an approach slower than this (units/s) does not bounce; by
    default two steps of gravity (``2 |gravity| step``: 0 without gravity, so every approach
    bounces then). ``events``: whether each step finds its contact and sensor events
    (:mod:`swept.events`; ``False`` saves their cost, and the event arrays stay empty).
    """

    def __init__(self, world: Any = None, *, gravity: Any = None, step: float = DEFAULT_STEP,
                 passes: int = DEFAULT_PASSES, iterations: int = SOLVER_ITERATIONS,
                 max_casts: int = MAX_CASTS_PER_STEP,
                 max_steps_per_update: int = MAX_STEPS_PER_UPDATE,
                 restitution_threshold: float | None = None,
                 sleep_time: float | None = SLEEP_TIME, sleep_speed: float | None = None,
                 events: bool = True) -> None:
        g = as_vector((0.0, 0.0) if gravity is None else gravity, "gravity")
        self.dim = len(g)
        self.gravity = g
        self._gravity = np.array((*g, 0.0)[:3], np.float64)
        self.time_step = as_finite(step, "step")
        if self.time_step <= 0.0:
            raise ValueError(f"step must be > 0, got {step!r}")
        for name, value, least in (("passes", passes, 1), ("iterations", iterations, 0),
                                   ("max_casts", max_casts, 1),
                                   ("max_steps_per_update", max_steps_per_update, 1)):
            if isinstance(value, bool) or not isinstance(value, int) or value < least:
                raise ValueError(f"{name} must be a whole number >= {least}, got {value!r}")
        self.passes = passes
        self.iterations = iterations
        if restitution_threshold is None:
            restitution_threshold = (RESTITUTION_THRESHOLD_STEPS * math.hypot(*g)
                                     * self.time_step)
        self.restitution_threshold = as_finite(restitution_threshold, "restitution_threshold",
                                               minimum=0.0)
        #: seconds a body (and every body touching it) rests before it sleeps; None: never
        self.sleep_time = (None if sleep_time is None
                           else as_finite(sleep_time, "sleep_time", minimum=0.0))
        if sleep_speed is None:
            # a tenth of gravity's pull in one step (see the constant)
            sleep_speed = SLEEP_SPEED_STEPS * math.hypot(*g) * self.time_step
        #: a body slower than this (units/s) counts as resting
        self.sleep_speed = as_finite(sleep_speed, "sleep_speed", minimum=0.0)
        self.max_casts = max_casts
        self.max_steps_per_update = max_steps_per_update
        self.world = World() if world is None else world
        #: time not yet stepped (less than one step after each update)
        self.accumulator = 0.0
        #: time dropped by updates that would have taken more than max_steps_per_update
        self.dropped_time = 0.0
        #: fixed steps taken so far
        self.steps_taken = 0
        self._bodies: list[Body] = []
        self._pos = np.zeros((0, 3))
        self._vel = np.zeros((0, 3))
        self._radius = np.zeros(0)
        self._inv_mass = np.zeros(0)
        self._restitution = np.zeros(0)
        self._friction = np.zeros(0)
        self._mode = np.zeros(0, np.int64)
        self._layer = np.zeros(0, np.int64)
        self._mask = np.zeros(0, np.int64)
        self._caught = np.zeros(0, np.int64)
        self._missed = np.zeros(0, np.int64)
        self._escaped = np.zeros(0, np.bool_)
        self._asleep = np.zeros(0, np.bool_)
        self._rest = np.zeros(0)
        self._island = np.zeros(0, np.int64)
        # each body's shape (sim_shapes: BODY_BALL, or a core's offsets from its position)
        self._kind = np.zeros(0, np.int64)
        self._local = np.zeros((0, 0))
        self._sleepers = False
        # the sleepers' boxes sorted along x for _wake_on_paths, with what they were made from
        self._path_sleepers: tuple[np.ndarray, ...] | None = None
        self._last_scene: _kscene.Scene | None = None
        # the gather grid of the static colliders (sim_grid), and the packed static tree
        # (the scene's ``links``) it was built for: a World repacks them on every change
        # of its static colliders
        self._gather_grid: Any = None
        self._grid_links: np.ndarray | None = None
        # gravity's change of velocity over a step, a row for every body (_gravity_rows)
        self._gravity_step: np.ndarray = np.zeros((0, 3))
        self._gravity_dt = self.time_step
        self._arrays = self._pack()
        # each body's collider cache row starts narrow (_CACHE_START_WIDTH, _widen_cache)
        self._cache_width = _CACHE_START_WIDTH
        self._scratch = self._new_scratch(0)
        # the velocity solver's contacts: this step's, and last step's for warm starting
        self._contacts = _solver.new_contacts(0, 0)
        self._last_contacts = _solver.new_contacts(0, 0)
        self._contact_count = 0
        # the threaded listing's staging table and each body's rows in it (_staging)
        self._staged = _solver.new_contacts(0, 0)
        self._staged_rows = np.zeros((2, 0), np.int64)
        # the solver's overlap shifts (split impulses), given to the first position pass
        self._pushes = np.zeros(0)
        self._shift = np.zeros((0, 3))
        self._shifted = False
        # the step's lists after the move, kept from step to step (_lists)
        self._step_lists = _k.new_step_lists(0)
        # the body pairs the last step found (None: find them again)
        self._pairs: tuple[np.ndarray, np.ndarray] | None = None
        # a world that is not a World: a private World of its shapes, rebuilt when they change
        self._own_world: World | None = None
        self._own_shapes: list[Shape] = []
        if not isinstance(events, (bool, np.bool_)):
            raise TypeError(f"events must be a bool, not {type(events).__name__}")
        #: whether each step finds its contact and sensor events
        self.events = bool(events)
        self._events = ContactEvents(self.dim)
        # moving colliders: the driven ones' velocities (move_collider), the colliders moved
        # or given a velocity before this step (None: none), and whether anything else in
        # the World changed since the last step (then every sleeping body wakes)
        self._driven: dict[int, Vec2 | Vec3] = {}
        self._stirred: dict[int, np.ndarray] | None = None
        self._relaid = True
        self._layout_seen = -1

    # ------------------------------------------------------------------------------ bodies

    def add(self, body: Body) -> Body:
        """Add a body (its index is its row in every array); returns it."""
        if not isinstance(body, Body):
            raise TypeError(f"body must be a Body, not {type(body).__name__}")
        if body._sim is not None:
            raise ValueError("body already belongs to a simulation")
        if body.dim != self.dim:
            raise ValueError(f"a {body.dim}D body cannot join a {self.dim}D simulation")
        index = self._append(np.array([body._center]), np.array([body._radius]),
                             np.array([body._velocity]), body.mass, body.restitution,
                             body.friction, body.ccd, body.layer, body.mask, body._kind,
                             body._local)[0]
        body._sim = self
        body.index = int(index)
        self._bodies[index] = body
        return body

    def add_balls(self, centers: Any, radii: Any, velocities: Any = None, *,
                  mass: Any = 1.0, restitution: float = 0.0, friction: float = 0.0,
                  ccd: str = "discrete", layer: int = 1, mask: int = ALL_LAYERS) -> np.ndarray:
        """Add many balls at once: ``centers`` (n, d), ``radii`` (n,) or a number,
        ``velocities`` (n, d) (zero if None), ``mass`` a number or (n,), one ``layer`` and
        ``mask`` for all; returns their indices (n,) int64."""
        lay = _layer_bits(layer, "layer")
        msk = _layer_bits(mask, "mask")
        c = as_array(centers, "centers")
        if c.ndim == 1:
            # one center
            c = c.reshape(1, -1)
        n = c.shape[0]
        if c.shape != (n, self.dim):
            raise ValueError(f"centers must have shape (n, {self.dim}) in this {self.dim}D "
                             f"simulation, got {c.shape}")
        r = _per_ball(as_array(radii, "radii"), n, "radii")
        if velocities is None:
            v = np.zeros((n, self.dim))
        else:
            v = as_array(velocities, "velocities")
            if v.ndim == 1:
                v = v.reshape(1, -1)
            if v.shape != (n, self.dim):
                raise ValueError(f"velocities must have shape ({n}, {self.dim}), one row per "
                                 f"center, got {v.shape}")
        m = _per_ball(as_array(mass, "mass"), n, "mass")
        if np.any(r <= 0.0):
            raise ValueError("radii must be > 0")
        if np.any(m <= 0.0):
            raise ValueError("mass must be > 0")
        indices = self._append(c, r, v, m, _check_unit(restitution, "restitution"),
                               _check_unit(friction, "friction"), ccd, lay, msk)
        for i in indices:
            body = Body(Circle(c[i - indices[0]], r[i - indices[0]]) if self.dim == 2
                        else Sphere(c[i - indices[0]], r[i - indices[0]]),
                        v[i - indices[0]], mass=float(m[i - indices[0]]),
                        restitution=restitution, friction=friction, ccd=ccd, layer=lay,
                        mask=msk)
            body._sim = self
            body.index = int(i)
            self._bodies[i] = body
        return indices

    def _append(self, c: np.ndarray, r: np.ndarray, v: np.ndarray, mass: Any,
                restitution: float, friction: float, ccd: str, layer: int, mask: int,
                kind: int = 0, local: np.ndarray = _NO_LOCAL) -> np.ndarray:
        """Append rows for new bodies of one ``kind`` and ``local`` row (balls by default);
        returns their indices."""
        code = _mode_code(ccd)
        n = c.shape[0]
        pad = np.zeros((n, 3))
        pad[:, : self.dim] = c
        vpad = np.zeros((n, 3))
        vpad[:, : self.dim] = v
        first = self._pos.shape[0]
        self._pos = np.concatenate([self._pos, pad])
        self._vel = np.concatenate([self._vel, vpad])
        self._radius = np.concatenate([self._radius, r])
        self._inv_mass = np.concatenate(
            [self._inv_mass, 1.0 / np.broadcast_to(np.asarray(mass, np.float64), (n,))])
        self._restitution = np.concatenate([self._restitution, np.full(n, restitution)])
        self._friction = np.concatenate([self._friction, np.full(n, friction)])
        self._mode = np.concatenate([self._mode, np.full(n, code, np.int64)])
        self._layer = np.concatenate([self._layer, np.full(n, layer, np.int64)])
        self._mask = np.concatenate([self._mask, np.full(n, mask, np.int64)])
        self._caught = np.concatenate([self._caught, np.zeros(n, np.int64)])
        self._missed = np.concatenate([self._missed, np.zeros(n, np.int64)])
        self._escaped = np.concatenate([self._escaped, np.zeros(n, np.bool_)])
        self._asleep = np.concatenate([self._asleep, np.zeros(n, np.bool_)])
        self._rest = np.concatenate([self._rest, np.zeros(n)])
        self._island = np.concatenate([self._island, np.arange(first, first + n)])
        self._kind = np.concatenate([self._kind, np.full(n, kind, np.int64)])
        width = max(self._local.shape[1], local.shape[0])
        rows = np.zeros((first + n, width))
        rows[:first, : self._local.shape[1]] = self._local
        rows[first:, : local.shape[0]] = local
        self._local = rows
        self._bodies.extend([None] * n)  # type: ignore[list-item]
        self._arrays = self._pack()
        self._scratch = self._new_scratch(self._pos.shape[0])
        self._pairs = None
        return np.arange(first, first + n, dtype=np.int64)

    def remove(self, body: Body | int) -> Body:
        """Take a body (or the body at an index) out of the simulation; the bodies after it
        move down one index. The removed :class:`Body` keeps its state and may be added
        again. Returns it."""
        if isinstance(body, Body):
            if body._sim is not self:
                raise ValueError("body does not belong to this simulation")
            index = body.index
        elif isinstance(body, (int, np.integer)) and not isinstance(body, bool):
            index = int(body)
            if not 0 <= index < len(self._bodies):
                raise ValueError(f"body index {index} out of range (0 .. "
                                 f"{len(self._bodies) - 1})")
            body = self._bodies[index]
        else:
            raise TypeError(f"body must be a Body or an index, not {type(body).__name__}")
        # the body keeps where it is and how it moves
        body._center = tuple(float(x) for x in self._pos[index, : self.dim])
        body._velocity = tuple(float(x) for x in self._vel[index, : self.dim])
        body._sim = None
        body.index = -1
        for name in ("_pos", "_vel", "_radius", "_inv_mass", "_restitution", "_friction",
                     "_mode", "_layer", "_mask", "_caught", "_missed", "_escaped",
                     "_asleep", "_rest", "_kind", "_local"):
            setattr(self, name, np.delete(getattr(self, name), index, axis=0))
        del self._bodies[index]
        # islands restart: every body its own (sleeping ones wake at their next contact)
        self._island = np.arange(len(self._bodies), dtype=np.int64)
        for k in range(index, len(self._bodies)):
            self._bodies[k].index = k
        self._arrays = self._pack()
        self._scratch = self._new_scratch(self._pos.shape[0])
        # indices moved: the warm start and the pairs start over
        self._contacts = _solver.new_contacts(0, 0)
        self._last_contacts = _solver.new_contacts(0, 0)
        self._contact_count = 0
        self._pairs = None
        # its contacts and sensor overlaps end now
        self._events.remove(index, len(self._bodies) + 1)
        return body

    def apply_impulse(self, body: Body | int, impulse: Any) -> None:
        """Change a body's (or the body at an index's) velocity by ``impulse / mass``."""
        if isinstance(body, (int, np.integer)) and not isinstance(body, bool):
            if not 0 <= int(body) < len(self._bodies):
                raise ValueError(f"body index {int(body)} out of range")
            body = self._bodies[int(body)]
        if not isinstance(body, Body) or body._sim is not self:
            raise ValueError("body must be a Body of this simulation or its index")
        body.apply_impulse(impulse)

    def _pack(self) -> _k.Bodies:
        """The bodies' arrays as the kernels take them (the same arrays, not copies)."""
        inv = self._inv_mass
        if self._asleep.any():
            # sleeping bodies are immovable in their pairs
            inv = np.where(self._asleep, 0.0, self._inv_mass)
        return _k.Bodies(self._pos, self._vel, self._radius, inv, self._restitution,
                         self._friction, self._mode, self._layer, self._mask, self._caught,
                         self._missed, self._asleep, self._kind, self._local)

    @property
    def bodies(self) -> tuple[Body, ...]:
        """Every body, by index."""
        return tuple(self._bodies)

    @property
    def positions(self) -> np.ndarray:
        """The centres, (n, d) float64 (a copy)."""
        result: np.ndarray = self._pos[:, : self.dim].copy()
        return result

    @property
    def velocities(self) -> np.ndarray:
        """The velocities, (n, d) float64 (a copy)."""
        result: np.ndarray = self._vel[:, : self.dim].copy()
        return result

    @property
    def radii(self) -> np.ndarray:
        """The radii (for a body that is not a ball, of the ball around its position that
        holds it), (n,) float64 (a copy)."""
        result: np.ndarray = self._radius.copy()
        return result

    @property
    def caught(self) -> np.ndarray:
        """Per body, the steps in which it responded to a collider, (n,) int64 (a copy)."""
        result: np.ndarray = self._caught.copy()
        return result

    @property
    def missed(self) -> np.ndarray:
        """Per body, the steps in which its centre's path reached a collider with no
        response (it tunneled, or clipped one unseen), (n,) int64 (a copy)."""
        result: np.ndarray = self._missed.copy()
        return result

    @property
    def caught_total(self) -> int:
        """Approaches caught by all bodies."""
        return int(self._caught.sum())

    @property
    def missed_total(self) -> int:
        """Approaches missed by all bodies."""
        return int(self._missed.sum())

    @property
    def alpha(self) -> float:
        """How far the accumulator is into the next step, in [0, 1): for interpolating."""
        return self.accumulator / self.time_step

    # -------------------------------------------------------------------------- stepping

    def _scene(self) -> _kscene.Scene:
        """The colliders' scene: the World's own (it rebuilds only what changed), or for
        another kind of world a private World of its shapes, rebuilt when they change."""
        world = self.world
        if not isinstance(world, World):
            shapes = _world_shapes(world)
            if self._own_world is None or self._own_shapes != shapes:
                self._own_world = _world_of(shapes)
                self._own_shapes = shapes
            world = self._own_world
        if world.dim is not None and world.dim != self.dim:
            raise ValueError(f"a {self.dim}D simulation cannot hold the {world.dim}D "
                             f"colliders of its world")
        if world._external_set:
            # the bodies' kernels read the compiled table only: never a silent pass-through
            kinds = sorted({type(world.shape(h)).__name__ for h in world._external_set})
            raise TypeError(f"the Simulation's bodies cannot meet {', '.join(kinds)} colliders "
                            f"yet; use the World's queries and move_and_slide for them")
        return world._sync()

    def update(self, dt: float) -> int:
        """Add ``dt`` seconds to the accumulator and take every whole step it holds (at most
        ``max_steps_per_update``); the rest waits for the next call. Returns steps taken."""
        t = as_finite(dt, "dt", minimum=0.0)
        self.accumulator += t
        steps = 0
        while self.accumulator >= self.time_step * (1.0 - ACCUMULATOR_TOLERANCE):
            if steps == self.max_steps_per_update:
                # a stall: drop what is left of whole steps rather than fall further behind
                whole = math.floor(self.accumulator / self.time_step)
                self.dropped_time += whole * self.time_step
                self.accumulator -= whole * self.time_step
                break
            self.accumulator = max(self.accumulator - self.time_step, 0.0)
            self._take_step()
            steps += 1
        return steps

    def run(self, steps: int) -> None:
        """Take ``steps`` fixed steps, bypassing the accumulator."""
        if isinstance(steps, bool) or not isinstance(steps, int) or steps < 0:
            raise ValueError(f"steps must be a whole number >= 0, got {steps!r}")
        for _ in range(steps):
            # the scene is asked for each step (tens of nanoseconds when nothing changed)
            self._take_step()

    def step(self) -> None:
        """Take one fixed step: integrate, move by mode, contact passes, bookkeeping."""
        self._take_step()

    # ------------------------------------------------------------------ moving colliders

    def move_collider(self, handle: int, velocity: Any = None) -> None:
        """Drive a collider of the World at ``velocity`` (a vector of the simulation's
        dimension, finite): each step moves it by ``velocity * step`` and gives it that
        velocity (:meth:`swept.world.World.velocity`), so the bodies meet it in relative
        motion and its contacts carry them; until called again, or with ``None``, which stops
        it where it is (velocity zero). The collider must have been added with
        ``moving=True`` (ValueError otherwise)."""
        world = self.world
        if not isinstance(world, World):
            raise TypeError(f"move_collider needs the Simulation's world to be a "
                            f"swept.world.World, not {type(world).__name__}")
        h = world._check(handle)
        if not world.is_moving(h):
            raise ValueError(f"handle {h}: a collider driven by move_collider must be added "
                             f"with moving=True (the others jump when moved)")
        if velocity is None:
            if self._driven.pop(h, None) is not None:
                world.set_velocity(h, (0.0,) * self.dim)
            return
        v = world._check_velocity(h, velocity, world.shape(h))
        if len(v) != self.dim:
            raise ValueError(f"velocity must have {self.dim} components, got {len(v)}")
        world.set_velocity(h, v)
        self._driven[h] = v

    def _take_step(self) -> None:
        """One fixed step, with the World's moving colliders in motion over it."""
        # (the step writes the bodies' caches of colliders and a hit log: last step's
        # touches, if not found yet, gather theirs, and keep their log)
        self._scratch = self._events.before_step(self._scratch)
        moved = self._colliders_begin()
        if moved is None:
            self._step_with(self._scene(), True)
            return
        world = self.world
        handles, own = moved
        version = world.version
        try:
            # (the colliders' rows change back after the step: its touches found at once)
            self._step_with(self._scene(), False)
        finally:
            world._end_motion(handles, own, version)

    def _colliders_begin(self) -> tuple[np.ndarray, np.ndarray] | None:
        """Before a step: move the driven colliders (:meth:`move_collider`), then give every
        collider moved since the last step its motion over this step (the translation since
        then; its velocity that translation over the step unless its move gave one) and a box
        covering where it starts. Returns the colliders in motion and their own boxes
        (:meth:`swept.world.World._begin_motion`), or None."""
        world = self.world
        self._stirred = None
        if not isinstance(world, World):
            self._relaid = True
            return None
        self._relaid = world._layout != self._layout_seen
        self._layout_seen = world._layout
        dt = self.time_step
        if self._driven or world._implied:
            # the colliders' rows and velocities change below: last step's touches are found
            # first, from the rows they saw (a World.move or set_velocity has told already)
            self._events.settle()
        for h, v in list(self._driven.items()):
            if h not in world:
                # removed from the world: no longer driven
                del self._driven[h]
                continue
            if any(v):
                world._replace(h, world._shape_at(h).translated(tuple(c * dt for c in v)), v)
        if not world._travel and not world._implied:
            return None
        travel, implied = world._take_travel()
        vec = Vec2 if self.dim == 2 else Vec3
        for h in implied:
            d = travel.get(h)
            # (a displacement near the range's edge over a tiny step: clamped to the range)
            world._set_velocity(h, vec(*(0.0,) * self.dim) if d is None else vec(
                *np.clip(d[: self.dim] / dt, -MAX_COORDINATE, MAX_COORDINATE).tolist()))
        self._stirred = travel
        moved = [h for h, d in travel.items() if h in world and d.any()]
        if not moved:
            return None
        handles = np.array(moved, np.int64)
        return handles, world._begin_motion(handles, np.array([travel[h] for h in moved]))

    def _solve_velocities(self, scene: _kscene.Scene, threaded: bool = False) -> None:
        """The contacts at the bodies' places (warm started from the last step's), solved
        for velocities (:mod:`swept._kernels.solver`). ``threaded``: the contacts listed on
        the threads (:meth:`_list_contacts`; the same contacts)."""
        n = self._pos.shape[0]
        if self._pairs is None:
            self._pairs = _k.find_pairs(self._pos, self._radius, self.dim)
        prev, out = self._contacts, self._last_contacts
        if out.first.shape[0] != n + 1:
            out = _solver.new_contacts(n, out.other.shape[0])
        count = self._list_contacts(scene, prev, out, threaded)
        if count > out.other.shape[0]:
            # more contacts than room: grow (with slack) and list them again
            out = _solver.new_contacts(n, 2 * count)
            count = self._list_contacts(scene, prev, out, threaded)
        self._contacts, self._last_contacts = out, prev
        self._contact_count = count
        if self.iterations > 0 and count:
            # converged when no sweep changes a speed by more than a small part of the
            # restitution threshold (0 without gravity: every sweep runs)
            _solver.solve_contacts(self._arrays, out, self.time_step, self.iterations,
                                   SOLVER_TOLERANCE_FRACTION * self.restitution_threshold)
            if self._pushes.shape[0] < count:
                self._pushes = np.zeros(out.other.shape[0])
            if self._shift.shape[0] != n:
                self._shift = np.zeros((n, 3))
            _solver.solve_overlaps(self._arrays, out, self.iterations, self._pushes,
                                   self._shift)
            self._shifted = True

    def _list_contacts(self, scene: _kscene.Scene, prev: _solver.Contacts,
                       out: _solver.Contacts, threaded: bool) -> int:
        """The contacts at the bodies' places into ``out``, warm started from ``prev``;
        returns how many (more than ``out`` holds: list again with more room). Listed by
        :func:`~swept._kernels.solver.build_contacts` on this thread, unless ``threaded``:
        then by a range kernel on the threads into a staging table
        (:func:`~swept._kernels.solver.contacts_range`) merged in body order (the same
        contacts), except when ``parallel_for`` runs the listing on one thread (one chunk of
        every body: the staging and its copy would only cost more) or a body's contacts ran
        past its chunk's stretch of the staging."""
        # (last step's pairs, found after its move within a quarter of the radii of touching,
        # still hold every pair near enough to touch: only the passes' pushes moved them)
        assert self._pairs is not None
        first, neighbour = self._pairs
        listing = _solver.Listing(scene, self._arrays, self._scratch, first, neighbour, prev,
                                  self.restitution_threshold, self._gather_grid)
        n = self._pos.shape[0]
        # the count build_contacts gave, when it listed them
        built: list[int] = []

        def listed(start: int, stop: int, *args: Any) -> None:
            """Bodies ``start .. stop-1`` listed: all of them by build_contacts on this thread,
            or a chunk of them on the threads into the staging table (``args``)."""
            if start == 0 and stop == n:
                built.append(_solver.build_contacts(listing, out))
            else:
                stage(start, stop, *args)

        if threaded:
            staged, starts, ends = self._staging(n, int(first[n]))
            args = (listing, staged, starts, ends)
            stage = batch_entry(_solver.contacts_range, args, _k.STEP_ENTRY_KEY)
            parallel_for(listed, n, args, chunk=_k.step_chunk(n), key=_CONTACTS_KEY)
            if not built:
                count = _solver.merge_contacts(staged, starts, ends, out)
                if count >= 0:
                    return count
                # (-1: a body's contacts ran past its chunk's stretch: listed below)
        if not built:
            listed(0, n)
        return built[0]

    def _staging(self, n: int, pairs: int) -> tuple[_solver.Contacts, np.ndarray, np.ndarray]:
        """The staging table of the threaded contact listing for ``n`` bodies whose pair lists
        hold ``pairs`` entries (:func:`~swept._kernels.solver.contacts_range`: room for every
        pair row and ``STAGED_COLLIDER_CONTACTS`` colliders a body), grown with slack when too
        small, and each body's start and end rows in it."""
        need = pairs + _solver.STAGED_COLLIDER_CONTACTS * n
        if self._staged.other.shape[0] < need:
            self._staged = _solver.new_contacts(0, need + need // 4)
        if self._staged_rows.shape[1] != n:
            self._staged_rows = np.zeros((2, n), np.int64)
        return self._staged, self._staged_rows[0], self._staged_rows[1]

    def _step_with(self, scene: _kscene.Scene, defer: bool) -> None:
        """One fixed step among the colliders of ``scene``; ``defer``: its contact touches
        may be found when first needed (:meth:`_find_events`)."""
        n = self._pos.shape[0]
        self.steps_taken += 1
        if n == 0:
            self._events.quiet()
            return
        changed = scene is not self._last_scene
        self._last_scene = scene
        if changed:
            # colliders moved (or came or went): every body's cache of them is stale
            self._scratch.cache_count.fill(-1)
            if scene.links is not self._grid_links or self._gather_grid is None:
                self._gather_grid = _grid.build_gather_grid(scene)
                self._grid_links = scene.links
        if self._sleepers and not self._wake_for(changed):
            # every body asleep and nothing woke one: the step costs nothing (and its
            # contacts are the last step's: no events)
            self._events.quiet()
            return
        bodies = self._arrays
        scratch = self._scratch
        # gravity, then the velocity solver over the contacts where the bodies stand, then
        # the move with the solved velocities and the position passes (the first one also
        # moves the bodies by the solver's overlap shifts)
        np.add(self._vel, self._gravity_rows(n), out=self._vel)
        if self._sleepers:
            # sleeping bodies do not feel gravity: they rest on something until woken
            self._vel[self._asleep] = 0.0
        # the velocities the events' approach speeds are read from
        vel_start = self._vel.copy() if self.events else self._vel

        def solved(threaded: bool) -> np.ndarray:
            """The velocity solve (its contacts listed on the threads when ``threaded``);
            returns the first pass's overlap shifts."""
            self._shifted = False
            self._solve_velocities(scene, threaded)
            return self._shift if self._shifted else _NO_SHIFT

        def fused() -> None:
            """The solve, then the whole step in one compiled call."""
            shift = solved(False)
            self._pairs = _k.step_serial(scene, bodies, scratch, _NO_GRAVITY, self.time_step,
                                         self.max_casts, self.passes, self.dim, shift,
                                         self._gather_grid, self._lists(n))

        def threaded() -> None:
            """The solve with its contacts listed on the threads, the move as a range kernel
            on threads, then the rest of the step with its per-body parts on threads too
            (:func:`swept._kernels.sim.after_move`)."""
            shift = solved(True)
            _k.step_range(_k.advance_range, n, (scene, bodies, scratch, _NO_GRAVITY,
                                                self.time_step, self.max_casts,
                                                self._gather_grid))
            # the pair scan, the first pass's push-outs and the bookkeeping on the threads;
            # the lists, the pair passes and the later passes (a few hundred bodies each) in
            # two serial calls between them: seven calls from Python, where a split into
            # every kernel (a dozen calls and more) cost more than it saved (README, the
            # threaded step)
            self._pairs = _k.after_move(scene, bodies, scratch, self.passes, self.dim, shift,
                                        self._lists(n), self._gather_grid)

        if threads() == 1 or n < SIM_PARALLEL_MIN:
            # one thread, or too few bodies for threads to pay (SIM_PARALLEL_MIN)
            fused()
        else:
            # threads only while the threaded step measures faster than the one call (run
            # serially, the threaded form costs more CPU than the one call: 5-7% when all its
            # kernels were called one by one from Python)
            either_way(_STEP_KEY, n, fused, threaded, min_batch=SIM_PARALLEL_MIN)
        self._shifted = False
        if not np.abs(self._pos).max() <= MAX_COORDINATE:
            self._escape()
        if self.sleep_time is not None:
            cs = self._contacts
            fell = _k.settle_range(self._arrays, cs.first, cs.other, cs.sep,
                                   self._contact_count,
                                   self.time_step, self.sleep_speed, self.sleep_time,
                                   self._rest, self._island)
            if fell:
                self._sleepers = True
                self._arrays = self._pack()
        if self.events:
            self._find_events(scene, vel_start, defer)
        else:
            self._events.forget()
        self._widen_cache()

    def _lists(self, n: int) -> _k.StepLists:
        """The step's lists after the move for ``n`` bodies (:class:`~swept._kernels.sim.
        StepLists`), kept from step to step, made again when the count changes."""
        if self._step_lists.ahead.shape[0] != n:
            self._step_lists = _k.new_step_lists(n)
        return self._step_lists

    def _new_scratch(self, n: int) -> _k.Scratch:
        """The step's scratch arrays for ``n`` bodies, each body's collider cache row
        ``_cache_width`` wide (:data:`_CACHE_START_WIDTH`)."""
        return _k.new_scratch(n, self._cache_width)

    def _widen_cache(self) -> None:
        """After a step in which more than one awake body in :data:`_CACHE_OVERFLOW_SHARE`
        overflowed its cache row (its count -1; a sleeping body's may be -1 since the colliders
        last changed), the rows double, up to ``CACHE_CAPACITY``: new rows, every body's cache
        empty (the next step gathers them again; a deferred events table keeps the old rows it
        was given)."""
        scratch = self._scratch
        width = scratch.cache.shape[1]
        if width >= _k.CACHE_CAPACITY:
            return
        counts = scratch.cache_count
        if self._sleepers:
            counts = counts[~self._asleep]
        if np.count_nonzero(counts < 0) * _CACHE_OVERFLOW_SHARE <= counts.shape[0]:
            return
        n = scratch.cache.shape[0]
        self._cache_width = min(2 * width, _k.CACHE_CAPACITY)
        self._scratch = scratch._replace(cache=np.zeros((n, self._cache_width), np.int64),
                                         cache_count=np.full(n, -1, np.int64))

    def _gravity_rows(self, n: int) -> np.ndarray:
        """Gravity's change of velocity over a step, ``gravity * step``, as (n, 3) rows (made
        again when the count or the step changes). Added to the velocities as two arrays of
        one shape, the same sums as the (3,) row broadcast over them, bit for bit: the
        broadcast's inner loop runs three elements at a time, and at 10,000 bodies it cost
        0.11 ms a step against 0.01 (numpy, one thread, CPU, medians of 3,000)."""
        rows = self._gravity_step
        if rows.shape[0] != n or self._gravity_dt != self.time_step:
            rows = self._gravity_step = np.repeat((self._gravity * self.time_step)[None, :], n,
                                                  axis=0)
            self._gravity_dt = self.time_step
        return rows

    def _find_events(self, scene: _kscene.Scene, vel_start: np.ndarray, defer: bool) -> None:
        """The step's contact and sensor events against the last step's (:mod:`swept.events`),
        and their callbacks. ``defer`` (no collider in motion over the step): the contact
        touches are found when first needed, unless the next step changes the colliders'
        rows itself (driven colliders, or velocities implied by moves); the World tells the
        events before it changes them (:meth:`swept.world.World._changing`)."""
        if self._pairs is None:
            self._pairs = _k.find_pairs(self._pos, self._radius, self.dim)
        world = self.world
        sensors = None
        if isinstance(world, World):
            sensors = world._sensor_scene()
            defer = defer and not self._driven and not world._implied
            if defer:
                world._watchers.add(self._events)
        self._events.after_step(scene, sensors, self._arrays, self._scratch, self._pairs,
                                vel_start, defer)

    @property
    def contacts_began(self) -> np.ndarray:
        """The contacts that began in the last step: a structured array of
        :func:`swept.events.event_dtype` (``body, other, kind, normal, point, approach``)."""
        return self._events.contacts_began

    @property
    def contacts_ended(self) -> np.ndarray:
        """The contacts that ended in the last step (or at a :meth:`remove`), as
        :attr:`contacts_began` (``approach`` 0; normal and point as last seen)."""
        return self._events.contacts_ended

    @property
    def sensor_began(self) -> np.ndarray:
        """Bodies that began overlapping a sensor in the last step (``kind`` KIND_SENSOR,
        ``other`` the sensor's handle), as :attr:`contacts_began`."""
        return self._events.sensor_began

    @property
    def sensor_ended(self) -> np.ndarray:
        """Bodies that stopped overlapping a sensor in the last step, as
        :attr:`contacts_ended`."""
        return self._events.sensor_ended

    def on_contact_begin(self, fn: EventCallback) -> EventCallback:
        """Call ``fn(events)`` after each step in which contacts began, with
        :attr:`contacts_began` (once a step, every event in one array); returns ``fn``, so
        it serves as a decorator. TypeError unless ``fn`` takes one positional argument."""
        return self._events.register("contacts_began", fn)

    def on_contact_end(self, fn: EventCallback) -> EventCallback:
        """Call ``fn(events)`` with :attr:`contacts_ended` after each step (or removal) that
        ended contacts, as :meth:`on_contact_begin`."""
        return self._events.register("contacts_ended", fn)

    def on_sensor_begin(self, fn: EventCallback) -> EventCallback:
        """Call ``fn(events)`` with :attr:`sensor_began` after each step in which a body
        entered a sensor, as :meth:`on_contact_begin`."""
        return self._events.register("sensor_began", fn)

    def on_sensor_end(self, fn: EventCallback) -> EventCallback:
        """Call ``fn(events)`` with :attr:`sensor_ended` after each step (or removal) in
        which a body left a sensor, as :meth:`on_contact_begin`."""
        return self._events.register("sensor_ended", fn)

    def _wake_for(self, changed: bool) -> bool:
        """Before a step with sleeping bodies: wake them all when the colliders changed, and
        the islands an awake body moving at ``sleep_speed`` or more touches. Returns whether
        any body is awake."""
        if changed and self._relaid:
            # a collider was added or removed: anything may have lost its support
            self.wake_all()
            return True
        if self._stirred:
            # colliders moved (or were given a velocity): wake the islands they touch
            self._wake_near(self._stirred)
        if self._pairs is not None and not self._asleep.all():
            woken = np.zeros(self._pos.shape[0], np.bool_)
            first, neighbour = self._pairs
            if _k.wake_touched(self._arrays, first, neighbour, self.sleep_speed, self._island,
                               woken):
                self._wake(woken[self._island] & self._asleep)
        if self._sleepers and not self._asleep.all():
            self._wake_on_paths()
        return not self._asleep.all()

    def _wake_on_paths(self) -> None:
        """Wake the islands of the sleeping bodies that an awake body moving at
        ``sleep_speed`` or more may reach this step: its ball swept over the step's move
        (the velocity with this step's gravity), against each sleeper's ball, both grown by
        the contact margin. The pair lists only hold bodies already within a fraction of
        their radii, so a fast body meeting a sleeping pile in this step was stopped by it as
        by a wall and the pile slept on. Sweep and prune along x (numpy's sort), the movers
        taken in blocks so that the candidate pairs stay within ``PATH_WAKE_BLOCK``."""
        speed2 = (self._vel * self._vel).sum(axis=1)
        movers = np.flatnonzero(~self._asleep & (speed2 >= self.sleep_speed * self.sleep_speed))
        sleeping = np.flatnonzero(self._asleep)
        if movers.size == 0 or sleeping.size == 0:
            return
        grow = 1.0 + CONTACT_MARGIN_FRACTION
        start = self._pos[movers]
        end = start + (self._vel[movers] + self._gravity * self.time_step) * self.time_step
        reach = (self._radius[movers] * grow)[:, None]
        mlo = np.minimum(start, end) - reach
        mhi = np.maximum(start, end) + reach
        sleeping, slo, shi = self._sorted_sleepers(sleeping, grow)
        widest = float((shi[:, 0] - slo[:, 0]).max())
        near = np.zeros(sleeping.size, np.bool_)
        # the sleepers whose box starts along x within [mover's lo - widest, mover's hi]
        first = np.searchsorted(slo[:, 0], mlo[:, 0] - widest, side="left")
        last = np.searchsorted(slo[:, 0], mhi[:, 0], side="right")
        counts = last - first
        block_start = 0
        for _ in range(movers.size):
            if block_start >= movers.size:
                break
            total = np.cumsum(counts[block_start:])
            stop = block_start + max(1, int(np.searchsorted(total, PATH_WAKE_BLOCK, "right")))
            c = counts[block_start:stop]
            k = np.repeat(np.arange(block_start, stop), c)
            offsets = np.arange(k.size) - np.repeat(np.cumsum(c) - c, c)
            j = first[k] + offsets
            hit = ((mlo[k] <= shi[j]) & (slo[j] <= mhi[k])).all(axis=1)
            near[j[hit]] = True
            block_start = stop
        if near.any():
            islands = np.unique(self._island[sleeping[near]])
            self._wake(np.isin(self._island, islands) & self._asleep)

    def _wake_near(self, colliders: Iterable[int]) -> None:
        """Wake the islands of the sleeping bodies whose balls (grown by the contact margin)
        touch the boxes of ``colliders`` (which, in motion, cover where they started)."""
        world = self.world
        sleeping = np.flatnonzero(self._asleep)
        pos = self._pos[sleeping]
        reach = (self._radius[sleeping] * (1.0 + CONTACT_MARGIN_FRACTION))[:, None]
        near = np.zeros(sleeping.shape[0], np.bool_)
        rows = world._rows
        for h in colliders:
            if h not in world or h >= rows.shape[0]:
                continue
            lo = rows[h, _kscene.LO:_kscene.LO + 3]
            hi = rows[h, _kscene.HI:_kscene.HI + 3]
            near |= ((pos + reach >= lo) & (pos - reach <= hi)).all(axis=1)
        if near.any():
            islands = np.unique(self._island[sleeping[near]])
            self._wake(np.isin(self._island, islands) & self._asleep)

    def _sorted_sleepers(self, sleeping: np.ndarray, grow: float
                         ) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
        """The sleepers' indices and boxes (their balls grown by ``grow``) sorted by the
        boxes' low x, kept while the same bodies sleep at the same places with the same radii
        (sleepers do not move: the sort is paid once a change, not once a step)."""
        pos = self._pos[sleeping]
        radius = self._radius[sleeping]
        kept = self._path_sleepers
        if (kept is not None and np.array_equal(kept[0], sleeping)
                and np.array_equal(kept[1], pos) and np.array_equal(kept[2], radius)):
            return kept[3], kept[4], kept[5]
        sreach = (radius * grow)[:, None]
        order = np.argsort(pos[:, 0] - sreach[:, 0], kind="stable")
        slo = pos[order] - sreach[order]
        shi = pos[order] + sreach[order]
        self._path_sleepers = (sleeping, pos, radius, sleeping[order], slo, shi)
        return sleeping[order], slo, shi

    def _wake(self, which: np.ndarray) -> None:
        """Wake the bodies selected by ``which`` ((n,) bool)."""
        if not which.any():
            return
        self._asleep[which] = False
        self._rest[which] = 0.0
        self._sleepers = bool(self._asleep.any())
        self._arrays = self._pack()

    def wake_all(self) -> None:
        """Wake every sleeping body."""
        self._wake(self._asleep.copy())

    def wake(self, body: Body | int) -> None:
        """Wake a body (or the body at an index) and every body asleep with it."""
        if isinstance(body, Body):
            if body._sim is not self:
                raise ValueError("body does not belong to this simulation")
            index = body.index
        else:
            index = int(body)
            if not 0 <= index < len(self._bodies):
                raise ValueError(f"body index {index} out of range")
        if self._asleep[index]:
            self._wake(self._asleep & (self._island == self._island[index]))

    @property
    def sleeping(self) -> np.ndarray:
        """Per body, whether it is asleep, (n,) bool (a copy)."""
        result: np.ndarray = self._asleep.copy()
        return result

    def _escape(self) -> None:
        """Bodies past the supported range (:data:`~swept.constants.MAX_COORDINATE`) are
        put back on its edge and stopped, and recorded in :attr:`escaped`."""
        out = ~(np.abs(self._pos) <= MAX_COORDINATE).all(axis=1)
        self._escaped |= out
        self._pos[out] = np.clip(np.nan_to_num(self._pos[out]), -MAX_COORDINATE,
                                 MAX_COORDINATE)
        self._vel[out] = 0.0
        self._pairs = None

    @property
    def escaped(self) -> np.ndarray:
        """Indices of the bodies that ever left the supported range (a coordinate beyond
        ``MAX_COORDINATE`` = 1e50, where the kernels' exactness is not promised): each was put
        back on the range's edge and stopped there, (k,) int64."""
        return np.flatnonzero(self._escaped)
