"""Shape casts: when a moving shape first touches another during a step (time of impact).

``sweep(shape, displacement, target, target_displacement=None)`` moves ``shape`` by
``displacement`` over one step (and ``target`` by ``target_displacement``) and returns the first
moment they touch as a :class:`~swept.SweepHit`, or ``None``.

- A moving circle or sphere is exact: a ray against the target grown by the radius (a capsule
  for a segment, a *rounded* box or polygon, a bigger circle, an offset plane). A moving
  segment, capsule, box or polygon against a circle or sphere is the same closed form,
  reversed; against a plane, the closed form of its deepest point.
- Any other convex pair is cast by conservative advancement on GJK distance, exact to
  :data:`~swept.constants.CAST_TOLERANCE` times the query's own size (never an absolute
  length: the same fraction at every scale).
- Both moving: the cast uses the relative displacement; ``position`` and ``point`` are reported
  where the shapes are at the moment of contact.
- Touching counts: shapes that touch or overlap at the start hit at fraction 0 with
  ``started_inside=True`` and the normal of the shortest way out (the contact normal).
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

import numpy as np

from ._lazy import kernels
from .dispatch import SWEEP
from .distance import closest_point
from .results import SweepHit, make_sweep_hit
from .shapes import (
    AABB,
    Capsule,
    Circle,
    ConvexHull,
    OrientedBox,
    Plane,
    Polygon,
    Segment,
    Shape,
    Sphere,
)
from .vec import Vec2, Vec3, as_finite, as_vec2, as_vec3
from .views import view

if TYPE_CHECKING:
    from ._kernels import ray as _kray
    from ._kernels import sweep as _ksweep
else:
    _kray = kernels("ray")
    _ksweep = kernels("sweep")

__all__ = ["sweep", "shape_core", "reference_point", "register_convex"]

def shape_core(shape: Shape) -> tuple[np.ndarray, float]:
    """A convex shape as its core points (an (n, d) float64 array) grown by a radius."""
    v = view(shape)
    if v.core.shape[0] == 0:
        raise TypeError(f"{type(shape).__name__} has no convex core")
    return v.core, v.radius


def reference_point(shape: Shape) -> Vec2 | Vec3:
    """The point a sweep reports as ``position``: a circle's or sphere's centre, a box's
    centre, a polygon's centroid, a segment's or capsule's midpoint, an oriented box's centre,
    a convex hull's centre of volume."""
    if isinstance(shape, (Circle, Sphere, OrientedBox)):
        return shape.center
    if isinstance(shape, (Segment, Capsule)):
        return (shape.a + shape.b) * 0.5
    if isinstance(shape, Polygon):
        return shape.centroid
    if isinstance(shape, AABB):
        return shape.center
    own = getattr(shape, "reference_point", None)
    if isinstance(own, (Vec2, Vec3)):
        # a shape from another module names its own (a TileMap: its origin)
        return own
    if isinstance(shape, ConvexHull):
        return shape.centroid
    raise TypeError(f"{type(shape).__name__} cannot be swept")


def _vec(dim: int, values: Any) -> Vec2 | Vec3:
    return Vec2(values[0], values[1]) if dim == 2 else Vec3(values[0], values[1], values[2])


# ---------------------------------------------------------------------------------------------
# a moving circle (sphere): a ray from its centre against the target grown by its radius
# each returns (t along the unit direction, the normal, inside) or None



def _unpack2(res: tuple[Any, ...]) -> tuple[float, tuple[float, ...], bool] | None:
    t = res[0]
    if t < 0.0:
        return None
    return t, (res[3], res[4]), res[5]


def _unpack3(res: tuple[Any, ...]) -> tuple[float, tuple[float, ...], bool] | None:
    t = res[0]
    if t < 0.0:
        return None
    return t, (res[4], res[5], res[6]), res[7]


def _grown_circle(o: Any, d: Any, r: float, m: float, s: Circle
                  ) -> tuple[float, tuple[float, ...], bool] | None:
    return _unpack2(_kray.ray_circle(o[0], o[1], d[0], d[1], s.center[0], s.center[1],
                               s.radius + r, m))


def _grown_segment(o: Any, d: Any, r: float, m: float, s: Segment
                   ) -> tuple[float, tuple[float, ...], bool] | None:
    return _unpack2(_kray.ray_capsule2(o[0], o[1], d[0], d[1], s.a[0], s.a[1], s.b[0], s.b[1],
                                       r, m))


def _grown_capsule(o: Any, d: Any, r: float, m: float, s: Capsule
                   ) -> tuple[float, tuple[float, ...], bool] | None:
    if s.dim == 2:
        return _unpack2(_kray.ray_capsule2(o[0], o[1], d[0], d[1], s.a[0], s.a[1], s.b[0], s.b[1],
                                     s.radius + r, m))
    return _unpack3(_kray.ray_capsule3(o[0], o[1], o[2], d[0], d[1], d[2], s.a[0], s.a[1], s.a[2],
                                 s.b[0], s.b[1], s.b[2], s.radius + r, m))


def _grown_aabb(o: Any, d: Any, r: float, m: float, s: AABB
                ) -> tuple[float, tuple[float, ...], bool] | None:
    lo, hi = s.min, s.max
    if s.dim == 2:
        return _unpack2(_ksweep.ray_rounded_aabb2(o[0], o[1], d[0], d[1], lo[0], lo[1], hi[0],
                                                  hi[1], r, m, False))
    return _unpack3(_ksweep.ray_rounded_aabb3(o[0], o[1], o[2], d[0], d[1], d[2], lo[0], lo[1],
                                              lo[2], hi[0], hi[1], hi[2], r, m))


def _grown_polygon(o: Any, d: Any, r: float, m: float, s: Polygon
                   ) -> tuple[float, tuple[float, ...], bool] | None:
    v = view(s)
    assert v.normals is not None
    return _unpack2(_ksweep.ray_rounded_polygon(o[0], o[1], d[0], d[1], v.core, v.normals, r, m,
                                        False))


def _grown_plane(o: Any, d: Any, r: float, m: float, s: Plane
                 ) -> tuple[float, tuple[float, ...], bool] | None:
    n = s.normal
    if s.dim == 2:
        return _unpack2(_kray.ray_plane2(o[0], o[1], d[0], d[1], n[0], n[1], s.offset + r, m))
    return _unpack3(_kray.ray_plane3(o[0], o[1], o[2], d[0], d[1], d[2], n[0], n[1], n[2],
                               s.offset + r, m))


def _grown_sphere(o: Any, d: Any, r: float, m: float, s: Sphere
                  ) -> tuple[float, tuple[float, ...], bool] | None:
    c = s.center
    return _unpack3(_kray.ray_sphere(o[0], o[1], o[2], d[0], d[1], d[2], c[0], c[1], c[2],
                               s.radius + r, m))


_GROWN: dict[type, Any] = {
    Circle: _grown_circle,
    Segment: _grown_segment,
    Capsule: _grown_capsule,
    AABB: _grown_aabb,
    Polygon: _grown_polygon,
    Plane: _grown_plane,
    Sphere: _grown_sphere,
}


def _unit(v: Vec2 | Vec3) -> tuple[tuple[float, ...], float]:
    length = v.length()
    if length == 0.0:
        # no relative motion: only a start in contact can hit
        return ((1.0, 0.0) if len(v) == 2 else (1.0, 0.0, 0.0)), 0.0
    return tuple(c / length for c in v), length


def _ball_cast(center: Vec2 | Vec3, radius: float, rel: Vec2 | Vec3, target: Shape,
               target_distance: float, max_fraction: float
               ) -> tuple[float, Vec2 | Vec3, Vec2 | Vec3, bool] | None:
    """Cast a ball (circle or sphere) by ``rel`` against a static target: (fraction, normal,
    point on the target, started inside), in the target's frame."""
    direction, length = _unit(rel)
    grown = _GROWN.get(type(target))
    if grown is None:
        # a subclass of a supported target: cast against its base type
        grown = next(g for cls, g in _GROWN.items() if isinstance(target, cls))
    res = grown(center, direction, radius + target_distance, length * max_fraction, target)
    if res is None:
        return None
    t, n, inside = res
    dim = len(center)
    normal = _vec(dim, n)
    if inside:
        # the shortest way out is the contact's normal, so that a tie (a centre on a
        # segment, a capsule's axis or a box's middle) breaks as contact() breaks it
        from .contact import contact

        ball = Circle(center, radius + target_distance) if dim == 2 else \
            Sphere(center, radius + target_distance)
        c = contact(ball, target)
        if c is not None:
            normal = c.normal
        return 0.0, normal, closest_point(target, center), True
    fraction = min(t / length, max_fraction) if length > 0.0 else 0.0
    at = center + rel * fraction
    return fraction, normal, at - normal * (radius + target_distance), False


def _plane_cast(shape: Shape, rel: Vec2 | Vec3, plane: Plane, target_distance: float,
                max_fraction: float) -> tuple[float, Vec2 | Vec3, Vec2 | Vec3, bool] | None:
    """Cast any convex shape against a plane: its deepest core point, a closed form."""
    core, radius = shape_core(shape)
    n = plane.normal
    heights = core @ np.asarray(n, dtype=np.float64)
    k = int(np.argmin(heights))
    deepest = _vec(plane.dim, core[k])
    gap = float(heights[k]) - plane.offset - radius
    if gap <= target_distance:
        # starts within the target distance of the plane (or inside it)
        return 0.0, n, deepest - n * (gap + radius), True
    closing = -rel.dot(n)
    if closing <= 0.0:
        # parallel to the plane, or leaving it
        return None
    fraction = (gap - target_distance) / closing
    if fraction > max_fraction:
        return None
    at = deepest + rel * fraction
    return fraction, n, at - n * (radius + target_distance), False


def _core_cast(shape: Shape, rel: Vec2 | Vec3, target: Shape, target_distance: float,
               max_fraction: float) -> tuple[float, Vec2 | Vec3, Vec2 | Vec3, bool] | None:
    """Cast any convex pair by conservative advancement on GJK distance."""
    core_a, ra = shape_core(shape)
    core_b, rb = shape_core(target)
    dz = rel[2] if len(rel) == 3 else 0.0
    status, t, nx, ny, nz, px, py, pz, _it = _ksweep.cast_cores(
        core_a, ra, core_b, rb, rel[0], rel[1], dz, target_distance, max_fraction)
    dim = len(rel)
    if status == _ksweep.CAST_OVERLAPPED:
        normal = _vec(dim, (nx, ny, nz))
        if normal.length() == 0.0:
            # the cores overlap: the contact's shortest way out
            from .contact import contact

            c = contact(shape, target)
            if c is not None:
                return 0.0, c.normal, c.point, True
            normal = Vec2(1.0, 0.0) if dim == 2 else Vec3(1.0, 0.0, 0.0)
        return 0.0, normal, _vec(dim, (px, py, pz)), True
    if status in (_ksweep.CAST_HIT, _ksweep.CAST_OUT_OF_ITERATIONS):
        return t, _vec(dim, (nx, ny, nz)), _vec(dim, (px, py, pz)), t == 0.0
    return None


# ---------------------------------------------------------------------------------------------
# the handlers, one per kind of pair: (shape, rel, target, target_distance, max_fraction) ->
# (fraction, normal out of the target, point on the target, started inside) in the target's
# frame, or None

def _sweep_ball(shape: Any, rel: Vec2 | Vec3, target: Shape, td: float, mf: float
                ) -> tuple[float, Vec2 | Vec3, Vec2 | Vec3, bool] | None:
    """A moving circle or sphere: a ray from its centre against the target grown by it."""
    return _ball_cast(shape.center, shape.radius, rel, target, td, mf)


def _sweep_at_ball(shape: Shape, rel: Vec2 | Vec3, target: Any, td: float, mf: float
                   ) -> tuple[float, Vec2 | Vec3, Vec2 | Vec3, bool] | None:
    """A shape moving against a circle or sphere: the same closed form, seen from the ball,
    which moves by ``-rel`` against the shape."""
    found = _ball_cast(target.center, target.radius, -rel, shape, td, mf)
    if found is None:
        return None
    fraction, normal, point, inside = found
    # the ball's cast gives the normal out of `shape` and a point on its surface: turn both
    # around, onto the target's surface, back in the target's frame
    normal = -normal
    if inside:
        point = target.center + normal * target.radius
    else:
        point = point - normal * td + rel * fraction
    return fraction, normal, point, inside


_BALLS: tuple[type, ...] = (Circle, Sphere)
_SHAPES: tuple[type, ...] = (Segment, Capsule, AABB, Polygon)

for _ball in _BALLS:
    for _target in (*_BALLS, *_SHAPES, Plane):
        SWEEP.register((_ball, _target), _sweep_ball)
for _mover in _SHAPES:
    SWEEP.register((_mover, Plane), _plane_cast)
    for _target in _BALLS:
        SWEEP.register((_mover, _target), _sweep_at_ball)
    for _target in _SHAPES:
        SWEEP.register((_mover, _target), _core_cast)


def register_convex(cls: type, grown: Any, others: tuple[type, ...]) -> None:
    """Join a new convex shape type to the sweep family (from the shape's own module).

    ``grown(origin, direction, r, max_distance, shape) -> (t, normal, inside) | None`` is the
    ray against the shape grown by ``r``: balls sweep against it through it (exact), and it
    against balls through the same, reversed. It sweeps against planes by its deepest core
    point, and against each of ``others`` (and itself), both ways, by conservative advancement.
    """
    _GROWN[cls] = grown
    for ball in _BALLS:
        SWEEP.register((ball, cls), _sweep_ball)
        SWEEP.register((cls, ball), _sweep_at_ball)
    SWEEP.register((cls, Plane), _plane_cast)
    for other in (*others, cls):
        SWEEP.register((other, cls), _core_cast)
        SWEEP.register((cls, other), _core_cast)


def sweep(shape: Shape, displacement: Any, target: Shape, target_displacement: Any = None, *,
          target_distance: float = 0.0, max_fraction: float = 1.0) -> SweepHit | None:
    """The first moment ``shape``, moved by ``displacement`` over a step, touches ``target``
    (itself moved by ``target_displacement``, default still), or ``None``.

    ``fraction`` is in [0, ``max_fraction``] of the step. ``normal`` points out of the target
    toward the moving shape; ``point`` is where they touch and ``position`` the moving shape's
    :func:`reference_point` at that moment, in world space. ``target_distance`` (>= 0) keeps a
    skin: the cast stops when the gap first reaches it. Shapes that already touch, overlap or
    are within ``target_distance`` at the start hit at 0 with ``started_inside=True`` and the
    normal of the shortest way out. Movers: Circle, Sphere, Segment, Capsule, AABB, Polygon,
    OrientedBox, ConvexHull; targets: those and Plane. An unsupported pair raises
    ``TypeError``.
    """
    entry = SWEEP.table.get((type(shape), type(target)))
    if entry is None:
        entry = SWEEP.lookup(shape, target)
    if shape.dim != target.dim:
        raise TypeError(f"sweep: a {shape.dim}D {type(shape).__name__} cannot meet a "
                        f"{target.dim}D {type(target).__name__}")
    dim = shape.dim
    coerce = as_vec2 if dim == 2 else as_vec3
    disp = coerce(displacement, "displacement")
    tdisp = coerce(target_displacement, "target_displacement") if target_displacement \
        is not None else None
    td = as_finite(target_distance, "target_distance", minimum=0.0)
    mf = as_finite(max_fraction, "max_fraction", minimum=0.0)
    if mf > 1.0:
        raise ValueError(f"max_fraction must be in [0, 1], got {max_fraction!r}")
    rel = disp - tdisp if tdisp is not None else disp
    found = entry[0](shape, rel, target, td, mf)
    if found is None:
        return None
    fraction, normal, point, inside = found
    if tdisp is not None:
        point = point + tdisp * fraction
    position = reference_point(shape) + disp * fraction
    # built as the library's own result: the user-facing constructor's checks are skipped
    return make_sweep_hit(float(fraction), point, normal, position, bool(inside))
