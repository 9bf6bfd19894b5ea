"""move_and_slide: a kinematic character controller, swept so that it never tunnels.

The character is a shape (2D: Circle, Capsule, AABB or Polygon; 3D: Sphere, Capsule or AABB)
moved by ``velocity * dt`` through obstacles: a list of shapes (a :class:`~swept.chain.Chain`
included; a collider is its index) or a World (anything with ``query_aabb``, ``shape``, ``data``,
``contacts`` and ``sweep``; a collider is its handle). One call:

1. **recovers** from a start that overlaps: the deepest overlap is pushed out (to the skin),
   then the next, a few passes (deepest first, so a push that would point back into a flush
   neighbour is never the one answered);
2. **probes the floor** under the start (two skins below it) for the platform it stands on
   and for autostep and snapping; a platform carries the character by its velocity times
   ``dt`` (call this first, then move the platform by the same amount);
3. **slides** up to ``max_slides`` times: each slide casts the rest of the motion with the skin
   as target distance, stops at the first surface the motion heads into, and removes from the
   motion and from the velocity the part heading into *every* plane touched so far (in 2D two
   non-parallel planes stop it in the crease; in 3D it slides along the crease line), so that
   corners and wedges neither jitter nor trap;
4. **snaps** down onto a floor within ``floor_snap_length`` if it stood on one at the start
   and is not moving up, or else reports a floor within the skin;
5. **verifies** the end: a character that ends inside an obstacle (contact depth above
   :data:`~swept.constants.CLEARANCE_TOLERANCE` of its scale) is pushed out, deepest first, or
   else put back where its slides began. The steps above already keep it out (this net is for
   rounding): each slide plane is the best separating axis among the cast's normal and the
   faces' normals (exact, so a long slide along a wall a hair away does not drift into it),
   and an autostep is taken only if it lands on a floor no higher than ``step_height`` with
   each of its legs clear.

Normals are classified against ``up`` by ``floor_max_angle`` (degrees): a floor if the slope
is at most the limit (plus :data:`FLOOR_ANGLE_TOLERANCE` degrees), a ceiling if its downward
slope is, a wall otherwise. The defaults are Godot's: 45 degrees and 4 slides.
"""

from __future__ import annotations

import math
from collections.abc import Callable, Iterable, Mapping, Sequence
from typing import TYPE_CHECKING, Any, cast

import numpy as np

from ._lazy import kernels
from .chain import Chain, contact_obstacle
from .constants import (
    CLEARANCE_TOLERANCE,
    CLIP_TOLERANCE,
    DEFAULT_FLOOR_MAX_ANGLE,
    DEFAULT_MAX_SLIDES,
    DEFAULT_SKIN,
    FEATURE_NORMAL_TOLERANCE,
    FLOOR_ANGLE_TOLERANCE,
    FLOOR_PROBE_SKINS,
    HEADING_TOLERANCE,
    MIN_MOTION_FRACTION,
    PARALLEL_TOLERANCE,
    RECOVERY_PASSES,
    RISING_TOLERANCE,
    ROUND_CORE_FRACTION,
    SAME_PLANE_TOLERANCE,
    STOP_ON_SLOPE_TOLERANCE,
    TRAVEL_SLOP,
)
from .level.surface import Surface, sweep_ahead
from .level.tile_queries import clipped, query_margin, segments_swept
from .level.tilemap import TileMap
from .oneway import one_way_faces, one_way_stands
from .response import UP_2D, UP_3D
from .results import (
    Collision,
    Contact,
    MoveResult,
    SweepHit,
    make_collision,
    make_move_result,
    make_sweep_hit,
)
from .shapes import AABB, Capsule, Circle, Plane, Polygon, Segment, Shape, Sphere
from .sweep import reference_point, shape_core, sweep
from .vec import Vec2, Vec3, as_finite, as_vec2, as_vec3
from .views import view

if TYPE_CHECKING:
    from ._kernels import bvh as _bvh
else:
    _bvh = kernels("bvh")

__all__ = [
    "move_and_slide",
    "MoveResult",
    "Collision",
    "DEFAULT_MAX_SLIDES",
    "DEFAULT_FLOOR_MAX_ANGLE",
    "FLOOR_ANGLE_TOLERANCE",
    "RECOVERY_PASSES",
]

#: A list of obstacles longer than this is filtered by bounding boxes (numpy) before casting.
BROADPHASE_MIN_OBSTACLES = 8
#: How many lists of obstacles' bounding boxes are kept between calls.
BOX_CACHE_SIZE = 64

_CHARACTERS_2D = (Circle, Capsule, AABB, Polygon)
_CHARACTERS_3D = (Sphere, Capsule, AABB)

_FLOOR, _WALL, _CEILING = 0, 1, 2


# ------------------------------------------------------------------------------ obstacles

_Found = tuple[Any, Shape | Chain | TileMap | Surface, Any]  # (collider, obstacle, data)
_box_cache: dict[tuple[int, ...], tuple[list[Any], np.ndarray, np.ndarray, np.ndarray]] = {}


def _boxes(items: list[Any]) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """A BVH over the obstacles' bounding boxes (the World's one build and traversal:
    ``(nodes, links, box rows)``), cached by the obstacles' identities."""
    key = tuple(map(id, items))
    hit = _box_cache.get(key)
    if hit is not None and all(a is b for a, b in zip(hit[0], items)):
        return hit[1], hit[2], hit[3]
    lo = np.array([tuple(o.aabb.min) for o in items], dtype=np.float64)
    hi = np.array([tuple(o.aabb.max) for o in items], dtype=np.float64)
    nodes, links = _bvh.build(lo, hi)
    rows = _bvh.box_rows(lo, hi)
    if len(_box_cache) >= BOX_CACHE_SIZE:
        _box_cache.clear()
    _box_cache[key] = (list(items), nodes, links, rows)
    return nodes, links, rows


class _Obstacles:
    """A list of shapes or a World, behind one interface: candidates by box."""

    def __init__(self, obstacles: Any, mask: int | None, ignore: Iterable[Any]) -> None:
        self.world = obstacles if hasattr(obstacles, "query_aabb") and hasattr(
            obstacles, "shape") else None
        self.ignore = set(ignore)
        self.kwargs: dict[str, Any] = {"ignore": tuple(self.ignore)}
        if mask is not None:
            self.kwargs["mask"] = mask
        if self.world is not None and hasattr(self.world, "is_sensor"):
            # a World's sensors are triggers, not obstacles (its overlap queries report them)
            self.kwargs["include_sensors"] = False
        if self.world is None:
            if isinstance(obstacles, (Shape, Chain, TileMap, Surface, str, bytes)) or \
                    not isinstance(obstacles, Iterable):
                raise TypeError(f"obstacles must be a list of shapes or a World, not "
                                f"{type(obstacles).__name__}")
            self.items = list(obstacles)
            for i, o in enumerate(self.items):
                if not isinstance(o, (Shape, Chain, TileMap, Surface)):
                    raise TypeError(f"obstacles[{i}] must be a shape, a Chain, a TileMap, a "
                                    f"TriangleMesh or a HeightField, not {type(o).__name__}")
            self.tree: tuple[np.ndarray, np.ndarray, np.ndarray] | None = None
            if len(self.items) > BROADPHASE_MIN_OBSTACLES:
                self.tree = _boxes(self.items)
        #: stand-ins for colliders moved within this call (a carrying platform)
        self.extra: list[_Found] = []

    def one_way(self, found: _Found) -> Vec2 | Vec3 | None:
        """The one-way direction of a World collider or its stand-in (None for list obstacles
        and ordinary colliders)."""
        if self.world is None:
            return None
        get = getattr(self.world, "one_way", None)
        w: Vec2 | Vec3 | None = get(found[0]) if get is not None else None
        return w

    def hide(self, collider: Any) -> None:
        """From now on, leave ``collider`` out."""
        self.ignore.add(collider)
        self.kwargs["ignore"] = tuple(self.ignore)

    def near(self, lo: Sequence[float], hi: Sequence[float]) -> list[_Found]:
        """The obstacles whose boxes touch the box ``lo``..``hi`` (and every stand-in)."""
        return self.extra + self._near(lo, hi) if self.extra else self._near(lo, hi)

    def _near(self, lo: Sequence[float], hi: Sequence[float]) -> list[_Found]:
        if self.world is not None:
            w = self.world
            near = getattr(w, "_box_handles", None)
            if near is not None:
                # the World's broadphase: colliders by box (the narrowphase is ours)
                return [(h, w.shape(h), w.data(h)) for h in near(lo, hi, **self.kwargs)]
            dim = len(lo)
            box = AABB(Vec2(*lo) if dim == 2 else Vec3(*lo), Vec2(*hi) if dim == 2
                       else Vec3(*hi))
            return [(h, w.shape(h), w.data(h)) for h in w.query_aabb(box, **self.kwargs)]
        if self.tree is None:
            return [(i, o, None) for i, o in enumerate(self.items) if i not in self.ignore]
        nodes, links, rows = self.tree
        out = np.empty(len(self.items), np.int64)
        n = _bvh.query_aabb(nodes, links, rows, np.asarray(lo, dtype=np.float64),
                            np.asarray(hi, dtype=np.float64), out)
        keep = sorted(out[:n].tolist())
        return [(i, self.items[i], None) for i in keep if i not in self.ignore]


def _grown(shape: Shape, motion: Vec2 | Vec3, margin: float
           ) -> tuple[list[float], list[float]]:
    """The box swept by ``shape`` over ``motion``, grown by ``margin``."""
    box = shape.aabb
    lo = [min(a, a + m) - margin for a, m in zip(box.min, motion)]
    hi = [max(b, b + m) + margin for b, m in zip(box.max, motion)]
    return lo, hi


def _first_hit(obs: _Obstacles, shape: Shape, motion: Vec2 | Vec3, skin: float
               ) -> tuple[_Found, SweepHit] | None:
    """The first surface ``motion`` heads into, cast with the skin as target distance.

    Skipped: surfaces the motion runs along or leaves (resting on the floor, sliding along a
    wall), and *grazes*: a surface met only because of the skin, which the same motion cast
    without the skin never touches (the corner of the next flush floor box, seen by a
    character that sits a skin above the floor): answering it would snag on the seam, and
    ignoring it cannot put the character inside anything.
    """
    length = motion.length()
    best: tuple[_Found, SweepHit] | None = None
    lo, hi = _grown(shape, motion, skin + length * MIN_MOTION_FRACTION)
    for found in obs.near(lo, hi):
        target = found[1]
        if isinstance(target, Chain):
            # each segment is a surface of its own, with its Voronoi region's normals
            toward = reference_point(shape)
            # (a long chain: only the segments whose boxes touch the motion's, culled at once)
            for i in target._near(lo, hi):
                seg = target.segments[i]
                box = seg.aabb
                if any(b > h for b, h in zip(box.min, hi)) or any(
                        b < l for b, l in zip(box.max, lo)):
                    continue
                hit = _cast(shape, motion, seg, skin, length, target, i, toward)
                if hit is not None and (best is None or hit.fraction < best[1].fraction):
                    best = (found, hit)
            continue
        if isinstance(target, TileMap):
            # the map's outline segments along the motion's band of cells, each a surface of
            # its own with its Voronoi region's normals (no seams: the outline has none)
            toward = reference_point(shape)
            chains = target.chains()
            box0 = shape.aabb
            margin = query_margin(target, box0.min, box0.max, motion,
                                  skin + length * MIN_MOTION_FRACTION)
            for k, i in segments_swept(target, box0.min, box0.max, motion, margin):
                # (cut to the motion: a floor run may be the map's width long)
                seg = clipped(chains[k].segments[i], box0.min, box0.max, motion, margin)
                if seg is None:
                    continue
                hit = _cast(shape, motion, seg, skin, length, chains[k], i, toward)
                if hit is not None and (best is None or hit.fraction < best[1].fraction):
                    best = (found, hit)
            continue
        # (a mesh or height field is cast like a shape: the dispatch table serves it)
        hit = _cast(shape, motion, cast(Shape, target), skin, length)
        if hit is not None and not one_way_stands(obs.one_way(found), motion, hit.normal):
            # a one-way collider met from behind or from the side: passed through
            continue
        if hit is not None and (best is None or hit.fraction < best[1].fraction):
            best = (found, hit)
    return best


def _cast(shape: Shape, motion: Vec2 | Vec3, target: Shape, skin: float, length: float,
          chain: Chain | None = None, index: int = 0, toward: Vec2 | Vec3 | None = None
          ) -> SweepHit | None:
    """``motion`` cast against one surface (segment ``index`` of ``chain`` if given, its
    normal moved into the segment's region): the hit if the motion heads into it and it is
    not a graze, else None."""
    hit = sweep(shape, motion, target, target_distance=skin)
    if hit is None:
        return None
    n = _feature_normal(shape, motion * hit.fraction, target, hit.normal, hit.point)
    if n is not hit.normal:
        hit = make_sweep_hit(hit.fraction, hit.point, n, hit.position, hit.started_inside)
    if chain is not None:
        n, join = chain.region_normal(index, hit.normal, toward)  # type: ignore[arg-type]
        if join is not None:
            hit = make_sweep_hit(hit.fraction, hit.point, n, hit.position, hit.started_inside)
    if motion.dot(hit.normal) >= -HEADING_TOLERANCE * length:
        # along the surface or leaving it: not an impact
        if isinstance(target, Surface):
            return _beyond_resting_face(shape, motion, target, skin, length)
        return None
    if skin > 0.0 and sweep(shape, motion, target) is None:
        # a graze: only the skin touches
        return None
    return hit


def _beyond_resting_face(shape: Shape, motion: Vec2 | Vec3, target: Surface, skin: float,
                         length: float) -> SweepHit | None:
    """The face of a mesh or height field ``motion`` heads into when the first contact of the
    skinned sweep is a face it rests on and runs along.

    A mesh is one obstacle of many faces and its sweep answers the first contact only: the
    floor a character stands on (touched within the skin, at 0) hid the ramp or wall of the
    same mesh ahead, and the character passed through it. Swept without the skin, the face it
    rests on is not touched; the face met is backed off by the skin along its normal (exact
    for a flat face). The cast passes over every touch the motion does not head into
    (:func:`swept.level.surface.sweep_ahead`): a character that touches the face it rests on
    (no skin, or standing exactly on it) got that touch back at 0, one sliding along a face a
    rounding's hair away got it a little way on, and the wall ahead was passed through."""
    bare = sweep_ahead(shape, cast(Vec3, motion), target)
    if bare is None:
        return None
    fraction0, normal, point, started = bare
    heading = motion.dot(normal)
    if heading >= -HEADING_TOLERANCE * length:
        return None
    fraction = max(fraction0 - skin / -heading, 0.0)
    return make_sweep_hit(fraction, point, normal, reference_point(shape) + motion * fraction,
                          started)


_BOX_AXES = {
    2: np.array([(1.0, 0.0), (-1.0, 0.0), (0.0, 1.0), (0.0, -1.0)]),
    3: np.array([(1.0, 0.0, 0.0), (-1.0, 0.0, 0.0), (0.0, 1.0, 0.0), (0.0, -1.0, 0.0),
                 (0.0, 0.0, 1.0), (0.0, 0.0, -1.0)]),
}


def _face_axes(shape: Shape, outward: bool) -> np.ndarray | None:
    """The unit normals of ``shape``'s faces (a 2D polygon's, a box's, both sides of a 2D
    segment's or capsule's core), pointing out of it (``outward``) or into it; None if it has
    no flat face."""
    if isinstance(shape, AABB):
        return _BOX_AXES[shape.dim]
    if isinstance(shape, Polygon):
        normals = view(shape).normals
        assert normals is not None
        return normals if outward else -normals
    if isinstance(shape, (Segment, Capsule)) and shape.dim == 2:
        e = shape.b - shape.a
        size = e.length()
        if size == 0.0:
            return None
        return np.array([(-e[1] / size, e[0] / size), (e[1] / size, -e[0] / size)])
    return None


def _feature_normal(shape: Shape, offset: Vec2 | Vec3, target: Shape, normal: Vec2 | Vec3,
                    point: Vec2 | Vec3) -> Vec2 | Vec3:
    """The contact normal of ``shape`` moved by ``offset`` against ``target``: the best
    separating axis among the cast's ``normal`` and the face normals of both shapes.

    A cast by conservative advancement takes its normal from closest points, whose rounding
    grows as the gap between the cores shrinks: a polygon a hair from a wall got one 6e-5 off,
    and a long slide along that tilted plane drifted into the wall. A face normal is exact,
    and when it separates the shapes as well as the cast's normal does (a face contact), it is
    the plane to slide along: any motion square to a separating axis keeps the separation
    along it, so it cannot enter. In a vertex contact the cast's direction separates better
    and is kept. Balls and planes are cast in closed form, and capsules' cores stay a radius
    apart (unless it is tiny next to the contact ``point``'s coordinates): their normals are
    kept.
    """
    if isinstance(shape, (Circle, Sphere)) or isinstance(target, (Circle, Sphere, Plane,
                                                                   Surface)):
        # closed forms; a mesh's cast normal is already its face's (internal edges smoothed)
        return normal
    round_ = (shape.radius if isinstance(shape, Capsule) else 0.0) + (
        target.radius if isinstance(target, Capsule) else 0.0)
    if round_ > 0.0 and round_ >= ROUND_CORE_FRACTION * max(abs(c) for c in point):
        # rounded: the cores stay ``round_`` apart, and their direction is accurate
        return normal
    axes_b = _face_axes(target, True)
    axes_a = _face_axes(shape, False)
    if axes_a is None and axes_b is None:
        return normal
    core_a, ra = shape_core(shape)
    core_b, rb = shape_core(target)
    core_a = core_a + np.asarray(offset, dtype=np.float64)
    n0 = np.asarray(normal, dtype=np.float64)
    cand = np.vstack([a for a in (axes_b, axes_a) if a is not None] + [n0[None, :]])
    sep = (core_a @ cand.T).min(axis=0) - (core_b @ cand.T).max(axis=0)
    best = int(np.argmax(sep[:-1]))
    scale = max(float(np.abs(core_a).max()), float(np.abs(core_b).max()), ra + rb)
    if sep[best] < sep[-1] - FEATURE_NORMAL_TOLERANCE * scale:
        # a vertex (or rounded) contact: the cast's direction separates better
        return normal
    n = cand[best]
    return Vec2(float(n[0]), float(n[1])) if len(n) == 2 else Vec3(
        float(n[0]), float(n[1]), float(n[2]))


def _deepest(obs: _Obstacles, shape: Shape) -> tuple[_Found, Contact] | None:
    """The deepest overlap of ``shape`` with the obstacles (depth > 0), or None."""
    lo, hi = _grown(shape, shape.aabb.min * 0.0, 0.0)
    best: tuple[_Found, Contact] | None = None
    for found in obs.near(lo, hi):
        c = contact_obstacle(shape, found[1])
        if c is not None and not one_way_faces(obs.one_way(found), c.normal):
            # under a one-way collider: not pushed out
            continue
        if c is not None and c.depth > 0.0 and (best is None or c.depth > best[1].depth):
            best = (found, c)
    return best


def _tolerance(shape: Shape) -> float:
    """The depth below which ``shape`` counts as clear: rounding at its size and place."""
    box = shape.aabb
    scale = max(max(abs(c) for c in box.min), max(abs(c) for c in box.max),
                max(hi - lo for lo, hi in zip(box.min, box.max)))
    result: float = CLEARANCE_TOLERANCE * scale
    return result


def _clear(obs: _Obstacles, shape: Shape) -> bool:
    """Whether ``shape`` overlaps no obstacle deeper than rounding."""
    deepest = _deepest(obs, shape)
    return deepest is None or deepest[1].depth <= _tolerance(shape)


def _settle(obs: _Obstacles, shape: Shape, skin: float, fallback: Shape) -> Shape:
    """The safety net after the slides: ``shape`` if it is clear, else pushed out (deepest
    first, to the skin), else ``fallback`` (where the slides began, clear) if that is clear."""
    moved = shape
    for _ in range(RECOVERY_PASSES):
        deepest = _deepest(obs, moved)
        if deepest is None or deepest[1].depth <= _tolerance(moved):
            return moved
        c = deepest[1]
        moved = moved.translated(c.normal * (c.depth + skin))  # type: ignore[attr-defined]
    if _clear(obs, moved):
        return moved
    return fallback if _clear(obs, fallback) else shape


# ------------------------------------------------------------------------------ planes


def _clip(vec: Vec2 | Vec3, planes: list[Vec2 | Vec3]) -> Vec2 | Vec3:
    """``vec`` with its part heading into any of ``planes`` removed (Quake's slide rule).

    Projected onto the first plane it heads into; if that heads into another, in 2D it stops
    (the crease of two non-parallel lines is a point), in 3D it is projected onto the crease
    line of the two planes, and if that still heads into a third, it stops.
    """
    length = vec.length()
    slack = -CLIP_TOLERANCE * length
    zero = vec * 0.0
    for i, ni in enumerate(planes):
        if vec.dot(ni) >= slack:
            continue
        c = vec - ni * vec.dot(ni)
        if c.length() <= CLIP_TOLERANCE * length:
            # straight into the plane: nothing left but rounding
            return zero
        if all(c.dot(nj) >= slack for j, nj in enumerate(planes) if j != i):
            return c
        if len(vec) == 2:
            # a crease between two lines: stop in it
            return zero
        for j, nj in enumerate(planes):
            if j == i or c.dot(nj) >= slack:
                continue
            line = cast(Vec3, ni).cross(nj)
            size = line.length()
            if size <= PARALLEL_TOLERANCE:
                continue
            line = line / size
            c2 = line * vec.dot(line)
            if c2.length() <= CLIP_TOLERANCE * length:
                # square to the crease line: stop
                return zero
            if all(c2.dot(nk) >= slack for k, nk in enumerate(planes) if k not in (i, j)):
                # along the crease line of two planes
                return c2
        # a corner of three planes
        return zero
    return vec


def _crease(vec: Vec2 | Vec3, a: Vec2 | Vec3, b: Vec2 | Vec3) -> Vec2 | Vec3:
    """``vec`` along the crease of the planes with normals ``a`` and ``b``: the line they
    share in 3D (nothing when they are parallel), a point in 2D (nothing)."""
    if len(vec) == 2:
        # two lines meet in a point
        return vec * 0.0
    line = cast(Vec3, a).cross(cast(Vec3, b))
    size = line.length()
    if size <= PARALLEL_TOLERANCE:
        return vec * 0.0
    line = line / size
    along: Vec2 | Vec3 = line * vec.dot(line)
    return along


def _add_plane(planes: list[Vec2 | Vec3], n: Vec2 | Vec3) -> None:
    """Remember a touched plane, once."""
    for p in planes:
        if p.dot(n) >= 1.0 - SAME_PLANE_TOLERANCE:
            return
    planes.append(n)


# ------------------------------------------------------------------------------ the mover


def _platform(found: _Found, platform_velocity: Callable[[Any], Any] | None, coerce: Any
              ) -> Vec2 | Vec3 | None:
    """The velocity of the floor collider: the callable's answer, else its data's
    ``"velocity"``."""
    value = None
    if platform_velocity is not None:
        value = platform_velocity(found[0])
    elif isinstance(found[2], Mapping):
        value = found[2].get("velocity")
    return None if value is None else coerce(value, "platform velocity")


class _Rules:
    """A call's validated settings: which way is up, how floors are told from walls, and the
    skin, snap, step and smallest-motion lengths."""

    __slots__ = ("up", "cos_floor", "skin", "snap", "climb", "tiny", "stop_on_slope",
                 "constant_speed")

    def __init__(self, shape: Shape, up: Any, floor_max_angle: float, skin: float,
                 floor_snap_length: float, step_height: float, stop_on_slope: bool,
                 constant_speed_on_slopes: bool) -> None:
        coerce = as_vec2 if shape.dim == 2 else as_vec3
        if up is None:
            u: Vec2 | Vec3 = UP_2D if shape.dim == 2 else UP_3D
        else:
            u = coerce(up, "up")
            if u.length() == 0.0:
                raise ValueError("up must not be the zero vector")
            u = u / u.length()
        limit = as_finite(floor_max_angle, "floor_max_angle", minimum=0.0)
        if limit > 180.0:
            raise ValueError(
                f"floor_max_angle must be in [0, 180] degrees, got {floor_max_angle!r}")
        self.up = u
        self.skin = as_finite(skin, "skin", minimum=0.0)
        self.snap = as_finite(floor_snap_length, "floor_snap_length", minimum=0.0)
        self.climb = as_finite(step_height, "step_height", minimum=0.0)
        self.cos_floor = math.cos(math.radians(min(limit + FLOOR_ANGLE_TOLERANCE, 180.0)))
        box = shape.aabb
        size = max(hi - lo for lo, hi in zip(box.min, box.max))
        self.tiny = max(size, self.skin) * MIN_MOTION_FRACTION
        self.stop_on_slope = bool(stop_on_slope)
        self.constant_speed = bool(constant_speed_on_slopes)

    def rising(self, vec: Vec2 | Vec3) -> bool:
        """Moving up (a jump): no snapping, no stepping."""
        return vec.dot(self.up) > RISING_TOLERANCE * vec.length()

    def kind(self, n: Vec2 | Vec3) -> int:
        """A surface normal's kind against up: floor, ceiling or wall."""
        c = n.dot(self.up)
        if c >= self.cos_floor:
            return _FLOOR
        if -c >= self.cos_floor:
            return _CEILING
        return _WALL


def _recover(obs: _Obstacles, shape: Shape, skin: float) -> Shape:
    """Step 1: a start that overlaps is pushed out to the skin, deepest overlap first."""
    moved = shape
    for _ in range(RECOVERY_PASSES):
        deepest = _deepest(obs, moved)
        if deepest is None:
            break
        c = deepest[1]
        moved = moved.translated(c.normal * (c.depth + skin))  # type: ignore[attr-defined]
    return moved


def _ride(obs: _Obstacles, moved: Shape, start_floor: tuple[_Found, SweepHit],
          carried: Vec2 | Vec3, step: float, skin: float) -> Shape:
    """Step 2's platform: it moves by ``carried * step`` this step (after the call), so the
    character rides along (cast, stopped by anything but the platform), and the rest of the
    call sees the platform where it will be."""
    ride = carried * step
    platform = start_floor[0]
    obs.hide(platform[0])
    blocked = _first_hit(obs, moved, ride, skin)
    moved = moved.translated(  # type: ignore[attr-defined]
        ride * (blocked[1].fraction if blocked is not None else 1.0))
    ahead: Any = platform[1]
    obs.extra.append((platform[0], ahead.translated(ride), platform[2]))
    return moved


class _Slides:
    """Steps 3 and 4 of a call: the slides and the snap, and what they met."""

    def __init__(self, obs: _Obstacles, rules: _Rules, moved: Shape, velocity: Vec2 | Vec3,
                 start_floor: tuple[_Found, SweepHit] | None) -> None:
        self.obs = obs
        self.rules = rules
        self.moved = moved
        self.v = velocity
        self.start_floor = start_floor
        self.grounded = start_floor is not None
        self.planes: list[Vec2 | Vec3] = []
        self.collisions: list[Collision] = []
        self.on_floor = self.on_wall = self.on_ceiling = False
        self.floor_normal: Vec2 | Vec3 | None = None
        self.floor_collider: Any = None

    def run(self, motion: Vec2 | Vec3, max_slides: int) -> None:
        """Up to ``max_slides`` slides of ``motion``."""
        left: Vec2 | Vec3 | None = motion
        for _ in range(max_slides):
            left = self._slide(left)  # type: ignore[arg-type]
            if left is None:
                break

    def _slide(self, motion: Vec2 | Vec3) -> Vec2 | Vec3 | None:
        """One slide: cast ``motion``, stop at the first surface it heads into; the motion
        left after clipping it by every plane met, or None when the slides are over."""
        r = self.rules
        if motion.length() <= r.tiny:
            return None
        first = _first_hit(self.obs, self.moved, motion, r.skin)
        if first is None:
            self.moved = self.moved.translated(motion)  # type: ignore[attr-defined]
            return None
        found, hit = first
        travel = motion * hit.fraction
        if travel.length() <= r.skin * TRAVEL_SLOP:
            # already at the skin: a cast's tolerance would only creep it closer each call
            travel = motion * 0.0
        self.moved = self.moved.translated(travel)  # type: ignore[attr-defined]
        remainder = motion - travel
        n = hit.normal
        k = r.kind(n)
        if k == _WALL and r.climb > 0.0 and self.grounded and not r.rising(self.v):
            stepped = _step_up(self.obs, self.moved, remainder, r.up, r.climb, r.skin, r.kind)
            if stepped is not None:
                self.moved, left, landing = stepped
                self.on_floor = True
                self.floor_normal = landing[1].normal
                self.floor_collider = landing[0][0]
                return left
        self.collisions.append(
            make_collision(found[0], hit.point, n, travel, remainder, found[2]))
        if k == _FLOOR:
            self.on_floor = self.grounded = True
            self.floor_normal = n
            self.floor_collider = found[0]
            across = self.v - r.up * self.v.dot(r.up)
            if r.stop_on_slope and across.length() <= STOP_ON_SLOPE_TOLERANCE * self.v.length():
                # standing still on a walkable slope: no creeping down it
                self.v = self.v * 0.0
                return None
        elif k == _WALL:
            self.on_wall = True
        else:
            self.on_ceiling = True
        return self._clipped(remainder, n, k)

    def _clipped(self, remainder: Vec2 | Vec3, n: Vec2 | Vec3, k: int) -> Vec2 | Vec3:
        """The motion left after a surface of normal ``n`` and kind ``k``: ``remainder``
        clipped by every plane met so far (the velocity too)."""
        r = self.rules
        blocking = n
        standing: Vec2 | Vec3 | None = None
        if k == _WALL and self.grounded:
            # a wall met on a floor blocks as if it were upright (Godot's floor_block_on_wall):
            # the character does not climb a slope too steep to walk by pushing into it
            upright = n - r.up * n.dot(r.up)
            if upright.length() > CLIP_TOLERANCE:
                blocking = upright / upright.length()
            # the floor met in this call, else the one under the start
            standing = self.floor_normal
            if standing is None and self.start_floor is not None:
                standing = self.start_floor[1].normal
        _add_plane(self.planes, blocking)
        slid = _clip(remainder, self.planes)
        if standing is not None and slid.dot(standing) > CLIP_TOLERANCE * remainder.length():
            # the slide along a sloped floor, clipped by the upright wall, kept a part rising
            # off the floor (straight up at the foot of a steep face over a ramp): keep the
            # character on its floor, along the crease of the floor and the upright wall
            slid = _crease(slid, standing, blocking)
        if k == _FLOOR and r.constant_speed:
            # keep the speed across up: rescale the slide along the slope
            flat = remainder - r.up * remainder.dot(r.up)
            length = slid.length()
            if length > r.tiny and flat.length() > r.tiny:
                slid = slid * (flat.length() / length)
        self.v = _clip(self.v, self.planes)
        return slid

    def snap(self) -> None:
        """Step 4: snap down onto a floor within ``floor_snap_length`` (when the character
        stood on one and is not rising), or else note a floor within the skin."""
        r = self.rules
        if self.on_floor or r.rising(self.v):
            return
        reach = r.snap if (r.snap > 0.0 and self.grounded) else 0.0
        down = -r.up * max(reach + r.skin * FLOOR_PROBE_SKINS, r.tiny)
        below = _first_hit(self.obs, self.moved, down, r.skin)
        if below is None or r.kind(below[1].normal) != _FLOOR:
            return
        if reach > 0.0:
            self.moved = self.moved.translated(  # type: ignore[attr-defined]
                down * below[1].fraction)
            # snapped: the velocity no longer heads into the floor
            self.v = _clip(self.v, [below[1].normal])
        self.on_floor = True
        self.floor_normal = below[1].normal
        self.floor_collider = below[0][0]


def move_and_slide(shape: Shape, velocity: Any, dt: float, obstacles: Any, *,
                   up: Any = None, max_slides: int = DEFAULT_MAX_SLIDES,
                   floor_max_angle: float = DEFAULT_FLOOR_MAX_ANGLE,
                   skin: float = DEFAULT_SKIN, floor_snap_length: float = 0.0,
                   stop_on_slope: bool = False, constant_speed_on_slopes: bool = False,
                   step_height: float = 0.0,
                   platform_velocity: Callable[[Any], Any] | None = None,
                   mask: int | None = None, ignore: Iterable[Any] = ()) -> MoveResult:
    """Move a character by ``velocity * dt`` through ``obstacles``, sliding along what it meets.

    ``up`` defaults to (0, -1) in 2D (y down) and (0, 1, 0) in 3D. ``skin`` (default
    :data:`~swept.constants.DEFAULT_SKIN`) is kept between the character and every surface;
    it is also what lets the character slide over seams between flush boxes (with ``skin=0``,
    build flush floors as a :class:`~swept.chain.Chain`).
    ``floor_snap_length`` (0: off) keeps a character that stood on a floor at the start, and is
    not moving up, on the ground down slopes and steps. ``stop_on_slope`` stops a character
    that only falls (no velocity across ``up``) from creeping down a walkable slope.
    ``constant_speed_on_slopes`` keeps the speed across ``up`` when a floor turns the motion up
    or down a slope. ``step_height`` (0: off) climbs a step up to that height met while on a
    floor. The floor the character stands on at the start carries it by its velocity:
    ``platform_velocity(collider)`` if given, else a World collider's ``data["velocity"]`` when
    its data is a mapping with that key; the character rides by that velocity times ``dt``
    and the call sees the platform moved by as much, so move the platform *after* the call.
    ``mask`` and ``ignore`` filter a World's colliders (``ignore`` also skips list indices).
    The returned ``velocity`` is the character's own, clipped; ``collisions`` lists the
    surfaces met (a step climbed by autostep is not one). A character that starts outside
    every obstacle never ends inside one. ``obstacles`` that is neither a World nor an
    iterable of shapes (or holds an item that is not a shape) raises ``TypeError``.
    """
    if isinstance(shape, Shape) and shape.dim == 2:
        allowed: tuple[type, ...] = _CHARACTERS_2D
    else:
        allowed = _CHARACTERS_3D
    if not isinstance(shape, allowed):
        raise TypeError(f"move_and_slide does not support a {type(shape).__name__} character")
    coerce = as_vec2 if shape.dim == 2 else as_vec3
    v = coerce(velocity, "velocity")
    step = as_finite(dt, "dt", minimum=0.0)
    rules = _Rules(shape, up, floor_max_angle, skin, floor_snap_length, step_height,
                   stop_on_slope, constant_speed_on_slopes)
    if not isinstance(max_slides, int) or max_slides < 0:
        raise ValueError(f"max_slides must be a whole number >= 0, got {max_slides!r}")
    obs = _Obstacles(obstacles, mask, ignore)
    u, s = rules.up, rules.skin
    # 1. recovery: deepest overlap first, pushed to the skin
    moved = _recover(obs, shape, s)
    # 2. the floor under the start: for platforms, snapping and steps
    start_floor: tuple[_Found, SweepHit] | None = None
    probe = _first_hit(obs, moved, -u * max(s * FLOOR_PROBE_SKINS, rules.tiny), s)
    if probe is not None and rules.kind(probe[1].normal) == _FLOOR:
        start_floor = probe
    carried = None
    if start_floor is not None:
        carried = _platform(start_floor[0], platform_velocity, coerce)
        if carried is not None and carried.length() > 0.0:
            moved = _ride(obs, moved, start_floor, carried, step, s)
    # 3. the slides, then 4. snapping, or a floor within the skin
    anchor = moved
    slides = _Slides(obs, rules, moved, v, start_floor)
    slides.run(v * step, max_slides)
    slides.snap()
    # 5. the safety net: a leg that still ended inside something (a cast's rounding) is
    # pushed out, and the end is never inside an obstacle it began outside of
    moved = _settle(obs, slides.moved, s, anchor)
    return make_move_result(moved, reference_point(moved), slides.v, slides.on_floor,
                            slides.on_wall, slides.on_ceiling, slides.floor_normal,
                            tuple(slides.collisions), slides.floor_collider,
                            carried if carried is not None else v * 0.0)


def _step_up(obs: _Obstacles, shape: Shape, remainder: Vec2 | Vec3, u: Vec2 | Vec3,
             climb: float, skin: float, kind: Callable[[Vec2 | Vec3], int]
             ) -> tuple[Shape, Vec2 | Vec3, tuple[_Found, SweepHit]] | None:
    """Autostep over a wall met while on a floor: up by ``climb``, forward by the rest of the
    motion across ``up``, down onto a walkable floor. (the shape, the motion left, the
    landing) or None when it is too tall (no forward progress, or it would land higher than
    ``climb``), lands on no floor, or any of its three legs would end inside something."""
    forward = remainder - u * remainder.dot(u)
    if forward.length() <= skin:
        return None
    # up, as far as a ceiling allows: a skin above step_height, so that the forward leg
    # passes over the edge of a step up to step_height (the skin cast calls it a graze)
    # instead of stopping on the edge's round and perching there
    rise = u * (climb + skin)
    hit_up = _first_hit(obs, shape, rise, skin)
    risen = (climb + skin) * (hit_up[1].fraction if hit_up is not None else 1.0)
    raised = shape.translated(u * risen)  # type: ignore[attr-defined]
    if not _clear(obs, raised):
        return None
    # forward, over the step
    hit_fwd = _first_hit(obs, raised, forward, skin)
    ahead = forward * (hit_fwd[1].fraction if hit_fwd is not None else 1.0)
    if ahead.length() <= skin:
        # a step taller than step_height: no progress at the raised height
        return None
    over = raised.translated(ahead)
    if not _clear(obs, over):
        # the forward cast missed something (rounding): no step
        return None
    # down, onto the step's top
    drop = -u * (risen + skin)
    landing = _first_hit(obs, over, drop, skin)
    if landing is None or kind(landing[1].normal) != _FLOOR:
        return None
    landed = over.translated(drop * landing[1].fraction)
    # the step's height: where it is stood on, above the character's lowest point
    core, radius = shape_core(shape)
    feet = float((core @ np.asarray(u, dtype=np.float64)).min()) - radius
    height = landing[1].point.dot(u) - feet
    climbed = (reference_point(landed) - reference_point(shape)).dot(u)
    tol = _tolerance(shape)
    if height > climb + tol or climbed > climb + skin + tol or not _clear(obs, landed):
        # higher than step_height (perched on the round of a taller step's edge, say), or
        # inside something: no step
        return None
    return landed, forward - ahead, landing
