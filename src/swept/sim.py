"""Simulation: balls among static colliders, a fixed step with an accumulator, three CCD modes.

A :class:`Simulation` moves :class:`Body` objects (circles in 2D, spheres in 3D) through the
static colliders of a :class:`swept.world.World` (``sim.world.add(Segment(...))``), in fixed
steps of ``step`` seconds: :meth:`Simulation.update` adds a frame's time to an accumulator and
takes as many whole steps as it holds, carrying the rest to the next call (seed 000).

One step (loops over bodies run in chunks on several threads by :mod:`swept._parallel`, and
one serial loop over body pairs; see :mod:`swept._kernels.sim`):

1. **Integrate** by semi-implicit Euler: ``v += g dt``, then the body moves with the new ``v``.
2. **Move** by the body's ``ccd`` mode:

   - ``"discrete"`` moves by ``v dt`` (the naive test: a fast body can tunnel).
   - ``"swept"`` casts the move against every collider grown by the radius, stops at the first
     contact, responds (:func:`swept.respond`) and spends the rest of the step's time in the
     new direction, up to ``max_casts`` casts (seed 000's ``sweptStep``, :func:`swept_step`).
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

Static colliders: segments, circles and convex polygons (2D; a polygon is its outline of edges:
a body is kept out of it, but one placed inside its outline is not pushed out), spheres (3D),
and capsules, solid axis-aligned boxes and half-planes / half-spaces (both). A moving body is
cast against a box grown by its radius with rounded edges and corners, and a body inside a box
leaves through the nearest face. Layers and masks are not used: a body meets every collider.
Body-body contacts are discrete (continuous collision is against the static colliders, as
Box2D's default).

The same inputs give bit-identical results on every run, whatever the thread count: every
parallel loop writes only its own body's rows, and the pairs are visited in a fixed order.
"""

from __future__ import annotations

import math
from collections.abc import Iterable, Sequence
from typing import Any

import numpy as np

from ._kernels import sim as _k
from ._kernels.world import (
    KIND_AABB2,
    KIND_AABB3,
    KIND_CAPSULE2,
    KIND_CAPSULE3,
    KIND_CIRCLE,
    KIND_PLANE2,
    KIND_PLANE3,
    KIND_POLYGON,
    KIND_SEGMENT,
    KIND_SPHERE,
)
from ._parallel import threads
from .constants import (
    ACCUMULATOR_TOLERANCE,
    MAX_CASTS_PER_STEP,
    MAX_STEPS_PER_UPDATE,
)
from .constants import SIMULATION_PASSES as DEFAULT_PASSES
from .shapes import Circle, Shape, Sphere
from .vec import Vec2, Vec3, as_array, as_finite, as_vector
from .views import VIEW, view

#: the collider kinds a simulation's statics may have
_SIM_KINDS = (KIND_SEGMENT, KIND_CIRCLE, KIND_SPHERE, KIND_CAPSULE2, KIND_CAPSULE3, KIND_PLANE2,
              KIND_PLANE3, KIND_AABB2, KIND_AABB3, KIND_POLYGON)

__all__ = [
    "Body", "Simulation", "CCD_MODES", "DEFAULT_STEP", "DEFAULT_PASSES",
    "MAX_CASTS_PER_STEP", "MAX_STEPS_PER_UPDATE", "static_arrays", "path_crossings",
    "PathCrossings",
]

#: The ccd modes a body may use, by name.
CCD_MODES = ("discrete", "swept", "speculative")
_MODE_CODES = {"discrete": _k.MODE_DISCRETE, "swept": _k.MODE_SWEPT,
               "speculative": _k.MODE_SPECULATIVE}
#: The fixed step, in seconds (60 steps a second, as the seeds).
DEFAULT_STEP = 1.0 / 60.0


def _mode_code(ccd: Any) -> int:
    """The kernel's code for a ccd mode name, or a ValueError naming ``ccd``."""
    if not isinstance(ccd, str) or ccd not in _MODE_CODES:
        raise ValueError(f"ccd must be one of {', '.join(CCD_MODES)}, got {ccd!r}")
    return _MODE_CODES[ccd]


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
    return a.copy()


def _ball_parts(shape: Any) -> tuple[tuple[float, ...], float, int]:
    """Centre, radius and dimension of a body's shape (a Circle or a Sphere)."""
    if isinstance(shape, Circle):
        return tuple(shape.center), shape.radius, 2
    if isinstance(shape, Sphere):
        return tuple(shape.center), shape.radius, 3
    raise TypeError(f"shape must be a Circle or a Sphere, not {type(shape).__name__}")


class Body:
    """A moving ball: a Circle (2D) or Sphere (3D) with velocity, mass and response settings.

    Until it is added to a :class:`Simulation` it holds its own values; afterwards its
    properties read and write the simulation's arrays.
    """

    def __init__(self, shape: Circle | Sphere, velocity: Any = None, *, mass: float = 1.0,
                 restitution: float = 0.0, friction: float = 0.0,
                 ccd: str = "discrete") -> None:
        center, radius, dim = _ball_parts(shape)
        if radius <= 0.0:
            raise ValueError(f"shape: a body needs a radius > 0, got {radius!r}")
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
        """The ball's radius."""
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

    @property
    def shape(self) -> Circle | Sphere:
        """The ball where it is now."""
        if self._dim == 2:
            return Circle(self.position, self._radius)
        return Sphere(self.position, self._radius)

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
        """The share of the velocity along a surface lost at each response, in [0, 1]."""
        return self._friction

    @property
    def ccd(self) -> str:
        """The collision mode: ``"discrete"``, ``"swept"`` or ``"speculative"``."""
        return self._ccd

    @property
    def caught(self) -> int:
        """Steps in which this body responded to a collider (approaches caught)."""
        return 0 if self._sim is None else int(self._sim._caught[self.index])

    @property
    def missed(self) -> int:
        """Steps in which this body's centre path reached a collider with no response."""
        return 0 if self._sim is None else int(self._sim._missed[self.index])

    def __repr__(self) -> str:
        return (f"Body(position={tuple(self.position)}, velocity={tuple(self.velocity)}, "
                f"radius={self._radius!r}, mass={self._mass!r}, ccd={self._ccd!r})")


class _Colliders:
    """A stand-in for :class:`swept.world.World` while it is not importable: static shapes by
    handle (``add`` / ``remove`` / ``move``), nothing more."""

    def __init__(self) -> None:
        self._shapes: dict[int, Shape] = {}
        self._next = 0

    def add(self, shape: Shape, data: Any = None, **_options: Any) -> int:
        """Add a static shape; returns its handle."""
        if not isinstance(shape, Shape):
            raise TypeError(f"shape must be a shape, not {type(shape).__name__}")
        h = self._next
        self._next += 1
        self._shapes[h] = shape
        return h

    def remove(self, handle: int) -> None:
        """Remove the shape with this handle."""
        del self._shapes[handle]

    def move(self, handle: int, shape: Shape) -> None:
        """Replace the shape with this handle."""
        if handle not in self._shapes:
            raise KeyError(handle)
        self._shapes[handle] = shape

    def shapes(self) -> list[Shape]:
        """The shapes, in handle order."""
        return [self._shapes[h] for h in sorted(self._shapes)]


def _new_world() -> Any:
    """A fresh :class:`swept.world.World`, or the stand-in while none is importable."""
    try:
        from .world import World
    except ImportError:
        return _Colliders()
    return World()


def _world_shapes(world: Any) -> list[Shape]:
    """The static shapes of a world, in handle order (``World.handles`` and ``World.shape``;
    the stand-in's ``shapes``)."""
    handles = getattr(world, "handles", None)
    shape = getattr(world, "shape", None)
    if callable(handles) and callable(shape):
        # sensors are triggers, not solids: bodies pass through them
        sensor = getattr(world, "is_sensor", None)
        return [shape(h) for h in handles() if sensor is None or not sensor(h)]
    shapes = getattr(world, "shapes", None)
    if callable(shapes):
        return list(shapes())
    raise TypeError(f"cannot read the static shapes of a {type(world).__name__}: it needs "
                    f"handles() and shape(handle), as swept.world.World has")


def static_arrays(shapes: Iterable[Shape], dim: int
                  ) -> tuple[np.ndarray, np.ndarray, np.ndarray, np.ndarray, np.ndarray,
                             np.ndarray]:
    """Static colliders as the kernels take them: capsules ``(a (m,3), b (m,3), R (m,))``,
    a flag per row ``box (m,)`` (True: the row is a solid box from ``a`` to ``b``, R = 0) and
    planes ``(normal (k,3), offset (k,))``; 2D points get z = 0."""
    caps: list[tuple[tuple[float, ...], tuple[float, ...], float]] = []
    boxes: list[bool] = []
    planes: list[tuple[tuple[float, ...], float]] = []

    def pad(p: Sequence[float]) -> tuple[float, ...]:
        return (float(p[0]), float(p[1]), float(p[2]) if len(p) == 3 else 0.0)

    for shape in shapes:
        if shape.dim != dim:
            raise ValueError(f"a {dim}D simulation cannot hold the {shape.dim}D collider {shape!r}")
        n_caps = len(caps)
        v = view(shape) if VIEW.supports(type(shape)) else None
        if v is None or v.kind not in _SIM_KINDS:
            raise TypeError(f"a simulation cannot collide with a {type(shape).__name__} "
                            f"({dim}D): use segments, circles, capsules, boxes, polygons, "
                            f"spheres or planes")
        p = v.params
        if v.kind in (KIND_SEGMENT, KIND_CIRCLE, KIND_SPHERE, KIND_CAPSULE2, KIND_CAPSULE3):
            # a capsule-like row: its core's ends grown by its radius
            caps.append((pad(v.core[0]), pad(v.core[-1]), v.radius))
        elif v.kind in (KIND_PLANE2, KIND_PLANE3):
            planes.append((pad(p[:dim]), p[dim]))
        elif v.kind in (KIND_AABB2, KIND_AABB3):
            # a solid box (2D or 3D), one row from its min to its max corner
            caps.append((pad(p[:dim]), pad(p[dim:]), 0.0))
            boxes.append(True)
            continue
        elif v.kind == KIND_POLYGON:
            pts = [pad(q) for q in v.core]
            caps.extend((pts[i], pts[(i + 1) % len(pts)], 0.0) for i in range(len(pts)))
        boxes.extend(False for _ in range(len(caps) - n_caps))
    cap_a = np.array([c[0] for c in caps], np.float64).reshape(-1, 3)
    cap_b = np.array([c[1] for c in caps], np.float64).reshape(-1, 3)
    cap_r = np.array([c[2] for c in caps], np.float64)
    box = np.array(boxes, np.bool_)
    plane_n = np.array([p[0] for p in planes], np.float64).reshape(-1, 3)
    plane_o = np.array([p[1] for p in planes], np.float64)
    return cap_a, cap_b, cap_r, box, plane_n, plane_o


#: The colliders as the kernels take them: the grid's four arrays (:func:`_k.build_grid`), the
#: rows' bounding boxes (lo, hi (m, 3)), the rows (a, b, R, box: a capsule, or a solid box from a
#: to b) and the planes (normal, offset).
StaticArgs = tuple[np.ndarray, np.ndarray, np.ndarray, np.ndarray, np.ndarray, np.ndarray,
                   np.ndarray, np.ndarray, np.ndarray, np.ndarray, np.ndarray, np.ndarray]


class _Statics:
    """Capsule and plane arrays of the colliders, with a uniform grid of the capsules' boxes
    (static colliders: built once; every query of a step looks at a few cells)."""

    def __init__(self, shapes: list[Shape], dim: int) -> None:
        self.shapes = shapes
        self.cap_a, self.cap_b, self.cap_r, self.box, self.plane_n, self.plane_o = \
            static_arrays(shapes, dim)
        r = self.cap_r[:, None]
        # the capsules' boxes, three columns (z = 0 in 2D: one layer of grid cells)
        self.lo = np.zeros((len(self.cap_r), 3))
        self.hi = np.zeros((len(self.cap_r), 3))
        self.lo[:, :dim] = (np.minimum(self.cap_a, self.cap_b) - r)[:, :dim]
        self.hi[:, :dim] = (np.maximum(self.cap_a, self.cap_b) + r)[:, :dim]
        self.grid = _k.build_grid(self.lo, self.hi)

    def args(self) -> StaticArgs:
        """The grid, boxes, capsules and planes, in the kernels' argument order."""
        return (*self.grid, self.lo, self.hi, self.cap_a, self.cap_b, self.cap_r, self.box,
                self.plane_n, self.plane_o)


class PathCrossings:
    """The colliders ``shapes`` (a list of 2D or 3D shapes), ready to tell which centre paths
    reach them: ``PathCrossings(walls).crossed(starts, ends)``. Built once, asked often."""

    def __init__(self, shapes: Iterable[Shape], dim: int = 2) -> None:
        self.dim = dim
        self._colliders = _Statics(list(shapes), dim)

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
        a = np.zeros((n, 3))
        b = np.zeros((n, 3))
        a[:, : self.dim] = p0
        b[:, : self.dim] = p1
        caught = np.zeros(n, np.int64)
        missed = np.zeros(n, np.int64)
        no_cache = (np.zeros((n, 1), np.int64), np.full(n, -1, np.int64), np.zeros((n, 3)),
                    np.zeros((n, 3)))
        _k.count_approaches(a, b, np.zeros(n, np.bool_), np.zeros(n, np.bool_),
                            *self._colliders.args(), caught, missed, *no_cache)
        return missed > 0


def path_crossings(shapes: Iterable[Shape], starts: Any, ends: Any) -> np.ndarray:
    """:meth:`PathCrossings.crossed` in one call (``starts`` / ``ends`` (n, d))."""
    dim = np.array(starts, np.float64, ndmin=2).shape[1]
    return PathCrossings(shapes, dim).crossed(starts, ends)


class Simulation:
    """Balls (:class:`Body`) moved in fixed steps among a world's static colliders.

    ``world``: where the static colliders live (a new :class:`swept.world.World` if None; add
    walls with ``sim.world.add(...)``). ``gravity``: a 2- or 3-vector (default zero in 2D; its
    length sets the dimension). ``step``: the fixed step in seconds. ``passes``: contact passes
    per step. ``max_casts``: casts per step for a swept body. ``max_steps_per_update``: the
    most steps one :meth:`update` takes.
    """

    def __init__(self, world: Any = None, *, gravity: Any = None, step: float = DEFAULT_STEP,
                 passes: int = DEFAULT_PASSES, max_casts: int = MAX_CASTS_PER_STEP,
                 max_steps_per_update: int = MAX_STEPS_PER_UPDATE) -> None:
        g = as_vector((0.0, 0.0) if gravity is None else gravity, "gravity")
        self.dim = len(g)
        self.gravity = g
        self._gravity = np.array((*g, 0.0)[:3], np.float64)
        self.time_step = as_finite(step, "step")
        if self.time_step <= 0.0:
            raise ValueError(f"step must be > 0, got {step!r}")
        for name, value, least in (("passes", passes, 1), ("max_casts", max_casts, 1),
                                   ("max_steps_per_update", max_steps_per_update, 1)):
            if isinstance(value, bool) or not isinstance(value, int) or value < least:
                raise ValueError(f"{name} must be a whole number >= {least}, got {value!r}")
        self.passes = passes
        self.max_casts = max_casts
        self.max_steps_per_update = max_steps_per_update
        self.world = _new_world() if world is None else world
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
        self._caught = np.zeros(0, np.int64)
        self._missed = np.zeros(0, np.int64)
        self._statics: _Statics | None = None
        #: (world, world.version) when the statics were last built
        self._world_seen: tuple[Any, int] | None = None

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
                             body.friction, body.ccd)[0]
        body._sim = self
        body.index = int(index)
        self._bodies[index] = body
        return body

    def add_balls(self, centers: Any, radii: Any, velocities: Any = None, *,
                  mass: Any = 1.0, restitution: float = 0.0, friction: float = 0.0,
                  ccd: str = "discrete") -> np.ndarray:
        """Add many balls at once: ``centers`` (n, d), ``radii`` (n,) or a number,
        ``velocities`` (n, d) (zero if None), ``mass`` a number or (n,); returns their
        indices (n,) int64."""
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
                               _check_unit(friction, "friction"), ccd)
        for i in indices:
            body = Body(Circle(c[i - indices[0]], r[i - indices[0]]) if self.dim == 2
                        else Sphere(c[i - indices[0]], r[i - indices[0]]),
                        v[i - indices[0]], mass=float(m[i - indices[0]]),
                        restitution=restitution, friction=friction, ccd=ccd)
            body._sim = self
            body.index = int(i)
            self._bodies[i] = body
        return indices

    def _append(self, c: np.ndarray, r: np.ndarray, v: np.ndarray, mass: Any,
                restitution: float, friction: float, ccd: str) -> np.ndarray:
        """Append rows for new balls; returns their indices."""
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
        self._caught = np.concatenate([self._caught, np.zeros(n, np.int64)])
        self._missed = np.concatenate([self._missed, np.zeros(n, np.int64)])
        self._bodies.extend([None] * n)  # type: ignore[list-item]
        return np.arange(first, first + n, dtype=np.int64)

    @property
    def bodies(self) -> tuple[Body, ...]:
        """Every body, by index."""
        return tuple(self._bodies)

    @property
    def positions(self) -> np.ndarray:
        """The centres, (n, d) float64 (a copy)."""
        return self._pos[:, : self.dim].copy()

    @property
    def velocities(self) -> np.ndarray:
        """The velocities, (n, d) float64 (a copy)."""
        return self._vel[:, : self.dim].copy()

    @property
    def radii(self) -> np.ndarray:
        """The radii, (n,) float64 (a copy)."""
        return self._radius.copy()

    @property
    def caught(self) -> np.ndarray:
        """Per body, the steps in which it responded to a collider, (n,) int64 (a copy)."""
        return self._caught.copy()

    @property
    def missed(self) -> np.ndarray:
        """Per body, the steps in which its centre's path reached a collider with no
        response (it tunneled, or clipped one unseen), (n,) int64 (a copy)."""
        return self._missed.copy()

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

    def _static(self) -> _Statics:
        """The colliders' arrays, rebuilt when the world's shapes changed."""
        # fast path: a World's public change counter, unchanged since the last build
        version = getattr(self.world, "version", None)
        if isinstance(version, int):
            seen = self._world_seen
            if self._statics is not None and seen is not None and seen[0] is self.world \
                    and seen[1] == version:
                return self._statics
            self._world_seen = (self.world, version)
        shapes = _world_shapes(self.world)
        if self._statics is None or self._statics.shapes != shapes:
            self._statics = _Statics(shapes, self.dim)
        return self._statics

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
            self._step_with(self._static())
            steps += 1
        return steps

    def run(self, steps: int) -> None:
        """Take ``steps`` fixed steps, bypassing the accumulator."""
        if isinstance(steps, bool) or not isinstance(steps, int) or steps < 0:
            raise ValueError(f"steps must be a whole number >= 0, got {steps!r}")
        statics = self._static()
        for _ in range(steps):
            self._step_with(statics)

    def step(self) -> None:
        """Take one fixed step: integrate, move by mode, contact passes, bookkeeping."""
        self._step_with(self._static())

    def _step_with(self, colliders: _Statics) -> None:
        """One fixed step among ``colliders``."""
        statics = colliders.args()
        n = self._pos.shape[0]
        self.steps_taken += 1
        if n == 0:
            return
        dt = self.time_step
        start = np.empty_like(self._pos)
        responded = np.zeros(n, np.bool_)
        cache = (np.empty((n, _k.CACHE_CAPACITY), np.int64), np.empty(n, np.int64),
                 np.empty((n, 3)), np.empty((n, 3)))
        crossed = np.zeros(n, np.bool_)
        touching = np.empty(n, np.bool_)
        _k.advance_bodies(self._pos, self._vel, self._radius, self._restitution,
                          self._friction, self._mode, self._gravity, dt, self.max_casts,
                          *statics, start, responded, crossed, touching, *cache)
        moved = self._pos.copy()
        first, neighbour = _k.find_pairs(self._pos, self._radius, self.dim)
        dpos = np.zeros_like(self._pos)
        # on one thread the serial pass (the same bits) needs no count of the bodies to visit
        one_thread = threads() == 1
        for k in range(self.passes):
            dpos.fill(0.0)
            if neighbour.shape[0]:
                _k.pair_pass(self._pos, self._vel, self._radius, self._inv_mass,
                             self._restitution, self._friction, first, neighbour, dpos)
            # the first pass stays parallel on several threads: it visits most bodies of a
            # busy scene; later ones with few bodies to visit run on this thread alone (the
            # pushed bodies counted by their nonzero push components, at most 3 each: under half
            # of the cost of counting rows: 5 us against 12 for 1,000 bodies)
            serial = one_thread or (k > 0 and np.count_nonzero(touching)
                                    + np.count_nonzero(dpos) <= _k.SERIAL_PASS_LIMIT)
            _k.apply_and_resolve_statics(self._pos, self._vel, dpos, self._radius,
                                         self._restitution, self._friction, self._mode, *statics,
                                         responded, crossed, touching, *cache, serial=serial)
        _k.count_approaches(start, moved, responded, crossed, *statics, self._caught,
                            self._missed, *cache)
