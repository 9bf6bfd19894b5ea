"""Debug drawing's geometry, shared by :mod:`swept.pygame_util` and :mod:`swept.plot`.

Nothing here imports a drawing library. :func:`marks` turns a thing to draw (a 2D shape, a
Chain, a TileMap, a World, a Simulation, a Body, a Ray, a query result) into a list of
:class:`Mark`: polygons, polylines, circles and points in world coordinates, each with a *role*
("static", "sensor", "normal", ...) that a backend maps to a colour. A backend only maps a
mark's points to its own primitives (pygame's ``draw.polygon``, matplotlib's patches), so every
outline, every arc, every arrow head and every clip is computed once, here.

Decided once:

- A **circle** stays a circle mark (centre and radius): both backends draw circles exactly.
  Every other round outline (a capsule, the volume a shape sweeps) is the convex hull of its
  core points grown by its radius, with arcs of :data:`~swept.constants.DRAW_ARC_SEGMENTS`
  segments a full turn (:func:`rounded_hull`).
- **Unbounded things** (a half-plane, a ray with no ``max_distance``) are clipped to the
  :class:`View`'s box; with no box (``View.lo is None``) they draw nothing, which is how a
  backend measures the bounds of the finite things first.
- **Sizes on screen** (an arrow's length and head, a point's dot) are in *view units*:
  ``View.unit`` world lengths each, a pixel for pygame.
- A **3D** thing, or anything that is not drawable, is a ``TypeError`` naming ``thing``.
- **Precision**: clipped points are exact but for the rounding of the coordinates they come
  from: a segment from ``-1e50`` to ``1e50`` seen through a 100-unit window is placed to
  about ``1e50 * 2**-52`` (a dot, not a line). Clipped points are clamped into the box, so
  rounding never puts one outside it.
"""

from __future__ import annotations

import math
import sys
from collections.abc import Sequence
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any

import numpy as np

from .chain import Chain
from .constants import DRAW_ARC_SEGMENTS
from .hull import hull2d
from .results import (
    Collision,
    Contact,
    ContactBatch,
    Manifold,
    MoveResult,
    RayBatch,
    RayHit,
    SweepBatch,
    SweepHit,
)
from .shapes import AABB, Capsule, Circle, Plane, Polygon, Ray, Segment, Shape
from .sweep import reference_point
from .vec import as_finite, as_vec2
from .views import view as kernel_view

if TYPE_CHECKING:
    from .level.tilemap import TileMap

__all__ = [
    "Mark",
    "View",
    "COLORS",
    "NORMAL_LENGTH",
    "ARROW_HEAD",
    "POINT_RADIUS",
    "marks",
    "ray_marks",
    "sweep_marks",
    "move_marks",
    "rounded_hull",
    "arrow",
    "clip_line",
    "clip_polygon",
    "bounds",
]

#: A drawn normal's length, in view units (pixels on a pygame surface). A style default.
NORMAL_LENGTH = 24.0
#: An arrow head's length, in view units. A style default.
ARROW_HEAD = 7.0
#: The radius of a drawn point (a hit, a contact), in view units. A style default.
POINT_RADIUS = 3.0

#: Each role's colour (red, green, blue, 0 to 255). Filled marks use the colour for the
#: outline and a darker one (:func:`fill_color`) inside.
COLORS: dict[str, tuple[int, int, int]] = {
    "shape": (120, 170, 230),     # a shape drawn on its own
    "static": (150, 158, 170),    # a World's static collider
    "moving": (110, 150, 235),    # a World collider added with moving=True
    "sensor": (235, 200, 60),     # a sensor: outline only
    "body": (70, 190, 110),       # a Simulation's body
    "sleeping": (60, 110, 80),    # a sleeping body
    "ray": (170, 120, 230),       # a ray, up to its hit or its end
    "hit": (240, 80, 80),         # where a ray or a sweep hits
    "normal": (250, 150, 60),     # a hit's or a contact's normal
    "contact": (240, 80, 200),    # a contact point
    "depth": (40, 200, 200),      # a contact's depth, along its normal
    "sweep": (95, 110, 150),      # the volume a sweep passes through
    "start": (150, 158, 170),     # a moving shape where it starts (and would end)
    "impact": (240, 80, 80),      # a moving shape at the time of impact
    "path": (200, 200, 120),      # a move_and_slide path
    "one_way": (170, 220, 60),    # the side a one-way collider is solid from (an arrow)
}
#: How much of a role's colour its filled inside keeps (the rest is black).
FILL_SHADE = 0.45


def fill_color(rgb: tuple[int, int, int]) -> tuple[int, int, int]:
    """The darker colour a filled mark of colour ``rgb`` is painted inside with."""
    r, g, b = rgb
    return (int(r * FILL_SHADE), int(g * FILL_SHADE), int(b * FILL_SHADE))


@dataclass(frozen=True)
class Mark:
    """One thing to draw, in world coordinates (see the module's docstring)."""

    #: "polygon" (closed outline, filled when ``fill``), "polyline" (open, or closed when
    #: ``closed``), "circle" (one point and ``radius``) or "point" (a dot of ``radius`` view
    #: units)
    kind: str
    #: (n, 2) float64: the corners, the line's points, or the circle's or dot's centre
    points: np.ndarray
    #: the role that picks the colour (a key of :data:`COLORS`)
    role: str
    #: a circle's radius (world units) or a dot's (view units); 0 otherwise
    radius: float = 0.0
    #: whether a polygon or circle is painted inside (an outline is always drawn)
    fill: bool = False
    #: whether a polyline returns to its first point
    closed: bool = False
    #: whether a polygon or circle gets its outline (False: a filled piece of a larger region,
    #: such as a run of tiles, whose own edges would show seams)
    outline: bool = True
    #: whether a filled polygon is painted inside in its outline's colour (an arrow head),
    #: not the darker fill (:func:`fill_color`)
    solid: bool = False


@dataclass(frozen=True)
class View:
    """Where drawing happens: the world box that unbounded things are clipped to (``lo`` and
    ``hi``, or None for no box) and the world length of one view unit (a pixel)."""

    lo: tuple[float, float] | None
    hi: tuple[float, float] | None
    unit: float
    #: whether finite marks are clipped to the box too (pygame: coordinates stay small)
    clip: bool = False
    #: marks from one call, collected (internal)
    out: list[Mark] = field(default_factory=list)


# --------------------------------------------------------------------------- pure geometry


def _pts(points: Any) -> np.ndarray:
    """``points`` as an (n, 2) float64 array."""
    return np.asarray(points, dtype=np.float64).reshape(-1, 2)


def _hull(points: np.ndarray) -> np.ndarray:
    """The convex hull, counter-clockwise with y up (:func:`swept.hull.hull2d`); a cloud with
    no area comes back as its one point or the two ends of its line."""
    try:
        return _pts(hull2d(points))
    except ValueError:
        # a point or a line (to hull2d's tolerance): its ends are the two points farthest
        # apart, the one farthest from any point and the one farthest from that (the
        # lexicographic extremes were not: (0, 0), (0, -1), (-2e-313, 0) gave the first and
        # the last, a line of length 2e-313), kept in lexicographic order
        a = points[int(np.argmax(((points - points[0]) ** 2).sum(axis=1)))]
        b = points[int(np.argmax(((points - a) ** 2).sum(axis=1)))]
        ends = sorted({(float(a[0]), float(a[1])), (float(b[0]), float(b[1]))})
        return _pts(ends)


def _arc(center: np.ndarray, radius: float, start: float, turn: float,
         segments: int) -> list[tuple[float, float]]:
    """Points on a circle from angle ``start`` turning ``turn`` radians counter-clockwise,
    both ends included, with about ``segments`` segments a full turn (at least one)."""
    n = max(1, math.ceil(segments * turn / (2.0 * math.pi) - 1e-9))
    return [(center[0] + radius * math.cos(start + turn * k / n),
             center[1] + radius * math.sin(start + turn * k / n)) for k in range(n + 1)]


def rounded_hull(points: Any, radius: float, segments: int = DRAW_ARC_SEGMENTS) -> np.ndarray:
    """The outline of the convex hull of ``points`` grown by ``radius``: a capsule's outline
    (two points), a circle's sweep (two points), a capsule's or box's sweep. Counter-clockwise
    with y up. With radius 0 it is the hull itself (one or two points for a point or a line)."""
    hull = _hull(_pts(points))
    if radius <= 0.0 or len(hull) == 0:
        return hull
    if len(hull) == 1:
        return _pts(_arc(hull[0], radius, 0.0, 2.0 * math.pi, segments)[:-1])
    out: list[tuple[float, float]] = []
    n = len(hull)
    for i in range(n):
        prev, cur, nxt = hull[i - 1], hull[i], hull[(i + 1) % n]
        # outward normals (y up, counter-clockwise) of the edges into and out of this corner
        a_in = math.atan2(-(cur[0] - prev[0]), cur[1] - prev[1])
        a_out = math.atan2(-(nxt[0] - cur[0]), nxt[1] - cur[1])
        turn = (a_out - a_in) % (2.0 * math.pi)
        if n == 2:
            turn = math.pi  # the two ends of a line: half a turn each
        out.extend(_arc(cur, radius, a_in, turn, segments))
    return _pts(out)


def arrow(start: Any, vector: Any, head: float) -> tuple[np.ndarray, np.ndarray]:
    """An arrow from ``start`` along ``vector``: its shaft (2 points) and its head (a triangle:
    one barb, the tip, the other barb), the head ``head`` long (at most 0.4 of the arrow)."""
    s = np.asarray(start, np.float64)
    v = np.asarray(vector, np.float64)
    tip = s + v
    length = math.hypot(v[0], v[1])
    if length == 0.0:
        return _pts([s, tip]), _pts([tip, tip, tip])
    u = v / length
    h = min(head, 0.4 * length)
    side = np.array((-u[1], u[0])) * (0.5 * h)
    back = tip - u * h
    return _pts([s, tip]), _pts([back + side, tip, back - side])


def clip_line(origin: Any, direction: Any, t0: float, t1: float, lo: Sequence[float],
              hi: Sequence[float]) -> np.ndarray | None:
    """The part of ``origin + t direction``, ``t`` in ``[t0, t1]`` (either may be infinite),
    inside the box ``lo``-``hi`` as its two ends, or None when none of it is (Liang-Barsky)."""
    o = np.asarray(origin, np.float64)
    d = np.asarray(direction, np.float64)
    for k in range(2):
        if d[k] == 0.0:
            # parallel to this slab: inside it or out entirely
            if not lo[k] <= o[k] <= hi[k]:
                return None
            continue
        ta, tb = (lo[k] - o[k]) / d[k], (hi[k] - o[k]) / d[k]
        if ta > tb:
            ta, tb = tb, ta
        t0, t1 = max(t0, ta), min(t1, tb)
    if not t0 <= t1 or math.isinf(t0) or math.isinf(t1):
        return None
    # the ends are in the box but for rounding, which far-away origins make large: clamp
    return np.clip(_pts([o + d * t0, o + d * t1]), lo, hi)


def _clip_by(points: list[tuple[float, float]], nx: float, ny: float,
             c: float) -> list[tuple[float, float]]:
    """The part of a convex polygon where ``nx x + ny y <= c`` (one Sutherland-Hodgman pass;
    plain Python: a polygon has a few corners, where numpy's calls cost most)."""
    out: list[tuple[float, float]] = []
    m = len(points)
    for i in range(m):
        p, q = points[i], points[(i + 1) % m]
        dp, dq = nx * p[0] + ny * p[1] - c, nx * q[0] + ny * q[1] - c
        if dp <= 0.0:
            out.append(p)
        if (dp < 0.0 < dq) or (dq < 0.0 < dp):
            # the edge crosses the line: the crossing point
            t = dp / (dp - dq)
            out.append((p[0] + (q[0] - p[0]) * t, p[1] + (q[1] - p[1]) * t))
    return out


def _box(lo: Sequence[float], hi: Sequence[float]) -> np.ndarray:
    """The box ``lo``-``hi`` as four corners, counter-clockwise with y up."""
    return _pts([(lo[0], lo[1]), (hi[0], lo[1]), (hi[0], hi[1]), (lo[0], hi[1])])


def clip_polygon(points: Any, lo: Sequence[float], hi: Sequence[float]) -> np.ndarray:
    """A convex polygon clipped to the box ``lo``-``hi`` (fewer than 3 points: nothing left)."""
    p = [(x, y) for x, y in _pts(points).tolist()]
    for nx, ny, c in ((1.0, 0.0, hi[0]), (-1.0, 0.0, -lo[0]), (0.0, 1.0, hi[1]),
                      (0.0, -1.0, -lo[1])):
        if len(p) < 3:
            break
        p = _clip_by(p, nx, ny, c)
    if len(p) < 3:
        # a point or a line (or a sliver clipped to one) is no area to fill
        return _pts([])
    # far-away corners leave crossings off by their rounding (1e50 * 2^-52 is 2e34): clamp
    return np.clip(_pts(p), lo, hi)


def bounds(found: Sequence[Mark]) -> tuple[tuple[float, float], tuple[float, float]] | None:
    """The world box around ``found`` (circles by their radius; dots as points), or None."""
    lo = [math.inf, math.inf]
    hi = [-math.inf, -math.inf]
    for m in found:
        r = m.radius if m.kind == "circle" else 0.0
        for k in range(2):
            lo[k] = min(lo[k], float(m.points[:, k].min()) - r)
            hi[k] = max(hi[k], float(m.points[:, k].max()) + r)
    if lo[0] > hi[0]:
        return None
    return (lo[0], lo[1]), (hi[0], hi[1])


# --------------------------------------------------------------------------- marks


def _emit(v: View, kind: str, points: Any, role: str, *, radius: float = 0.0,
          fill: bool = False, closed: bool = False, outline: bool = True,
          solid: bool = False) -> None:
    """Add a mark to ``v.out``, clipped to the view's box when ``v.clip``."""
    p = _pts(points)
    if v.clip and v.lo is not None and v.hi is not None:
        lo, hi = v.lo, v.hi
        r = radius if kind == "circle" else 0.0
        # in plain Python: the marks are a few points each, where numpy's calls cost most
        xs, ys = zip(*p.tolist())
        least, most = (min(xs) - r, min(ys) - r), (max(xs) + r, max(ys) + r)
        if least[0] >= lo[0] and least[1] >= lo[1] and most[0] <= hi[0] and most[1] <= hi[1]:
            pass  # inside the box: nothing to clip
        elif kind == "polygon":
            p = clip_polygon(p, lo, hi)
            if len(p) < 3:
                return
        elif kind == "polyline":
            # each piece on its own, clipped
            ends = list(p) + ([p[0]] if closed and len(p) > 2 else [])
            for a, b in zip(ends, ends[1:]):
                piece = clip_line(a, b - a, 0.0, 1.0, lo, hi)
                if piece is not None:
                    v.out.append(Mark("polyline", piece, role))
            return
        elif kind == "circle":
            if most[0] < lo[0] or least[0] > hi[0] or most[1] < lo[1] or least[1] > hi[1]:
                return
            c = p[0]
            span = max(hi[0] - lo[0], hi[1] - lo[1])
            if radius > 4.0 * span:
                # far bigger than the view: its outline, clipped, keeps coordinates small
                ring = _pts(_arc(c, radius, 0.0, 2.0 * math.pi, 8 * DRAW_ARC_SEGMENTS)[:-1])
                _emit(v, "polygon", ring, role, fill=fill, outline=outline, solid=solid)
                return
        else:  # a dot outside the box
            return
    v.out.append(Mark(kind, p, role, radius, fill, closed, outline, solid))


def _arrow(v: View, start: Any, direction: Any, length: float, role: str) -> None:
    """An arrow ``length`` long from ``start`` along the unit ``direction``."""
    shaft, head = arrow(start, np.asarray(direction, np.float64) * length, ARROW_HEAD * v.unit)
    _emit(v, "polyline", shaft, role)
    _emit(v, "polygon", head, role, fill=True, solid=True)


def _shape(v: View, s: Any, role: str, fill: bool) -> None:
    """A 2D shape's outline (filled when ``fill``)."""
    if isinstance(s, Circle):
        _emit(v, "circle", [s.center], role, radius=s.radius, fill=fill)
    elif isinstance(s, Segment):
        _emit(v, "polyline", [s.a, s.b], role)
    elif isinstance(s, Plane):
        _plane(v, s, role, fill)
    elif isinstance(s, Polygon):
        _emit(v, "polygon", s.points, role, fill=fill)
    elif isinstance(s, AABB):
        _emit(v, "polygon", _box(s.min, s.max), role, fill=fill)
    elif isinstance(s, Capsule):
        kv = kernel_view(s)
        ring = rounded_hull(kv.core, kv.radius)
        if len(ring) < 3:
            # a capsule of radius 0: its segment
            _emit(v, "polyline", ring, role)
        else:
            _emit(v, "polygon", ring, role, fill=fill)
    elif isinstance(s, Chain):
        _emit(v, "polyline", s.points, role, closed=s.loop)
    elif _is(s, "swept.level.tilemap", "TileMap"):
        _tilemap(v, s, role, fill)
    else:  # pragma: no cover - _check_2d lets only these through
        raise TypeError(f"thing: cannot draw a {type(s).__name__}")


def _plane(v: View, p: Plane, role: str, fill: bool) -> None:
    """A half-plane: its solid side (``dot(normal, x) < offset``) within the view's box, and
    its boundary line."""
    if v.lo is None or v.hi is None:
        return
    n = np.asarray(p.normal, np.float64)
    if fill:
        box = [(x, y) for x, y in _box(v.lo, v.hi).tolist()]
        solid = _clip_by(box, float(n[0]), float(n[1]), p.offset)
        if len(solid) >= 3:
            v.out.append(Mark("polygon", _pts(solid), role, 0.0, True))
    # from the line's point nearest the box's centre: near the box, the clip keeps its precision
    line = clip_line(_anchor(v, p), (-n[1], n[0]), -math.inf, math.inf, v.lo, v.hi)
    if line is not None:
        v.out.append(Mark("polyline", line, role))


def _tilemap(v: View, t: TileMap, role: str, fill: bool) -> None:
    """A tile map: each row's runs of solid tiles filled (within the view's box, when there
    is one), and the solid region's outlines."""
    if fill:
        solid = np.asarray(t.solid)
        rows, cols = solid.shape
        w, h = t.cell_size
        ox, oy = t.origin
        r0, r1, c0, c1 = 0, rows, 0, cols
        if v.lo is not None and v.hi is not None and v.clip:
            # only the tiles the view can see
            r0 = max(0, min(rows, math.floor((v.lo[1] - oy) / h)))
            r1 = max(0, min(rows, math.ceil((v.hi[1] - oy) / h)))
            c0 = max(0, min(cols, math.floor((v.lo[0] - ox) / w)))
            c1 = max(0, min(cols, math.ceil((v.hi[0] - ox) / w)))
        for r in range(r0, r1):
            line = np.concatenate(([False], solid[r, c0:c1], [False]))
            edges = np.flatnonzero(line[1:] != line[:-1])
            for a, b in zip(edges[::2], edges[1::2]):
                lo = t.corner(c0 + a, r)
                hi = t.corner(c0 + b, r + 1)
                # the run's own edges would show seams: the region's outline is drawn instead
                _emit(v, "polygon", _box(lo, hi), role, fill=True, outline=False)
    for loop in t.outlines():
        _emit(v, "polyline", loop, role, closed=True)


def _ray(v: View, ray: Ray, hit: RayHit | None, role: str) -> None:
    """A ray from its origin to its hit (or its end, clipped to the view), then the hit."""
    _emit(v, "point", [ray.origin], role, radius=POINT_RADIUS * 0.6)
    if hit is not None:
        _emit(v, "polyline", [ray.origin, hit.point], role)
        _ray_hit(v, hit)
        return
    if math.isinf(ray.max_distance):
        if v.lo is None or v.hi is None:
            return
        seg = clip_line(ray.origin, ray.direction, 0.0, math.inf, v.lo, v.hi)
        if seg is not None:
            _emit(v, "polyline", seg, role)
    else:
        _emit(v, "polyline", [ray.origin, ray.at(ray.max_distance)], role)


def _ray_hit(v: View, hit: RayHit | SweepHit | Collision) -> None:
    """A hit's (or a collision's) normal, then its point on top."""
    _hit_at(v, hit.point, hit.normal)


def _hit_at(v: View, point: Any, normal: Any) -> None:
    """A hit point's normal, then the point on top."""
    _arrow(v, point, normal, NORMAL_LENGTH * v.unit, "normal")
    _emit(v, "point", [point], "hit", radius=POINT_RADIUS)


def _contact(v: View, c: Contact) -> None:
    """A contact: its point, its normal, and its depth as a line from the point back along the
    normal (to the first shape's deepest point)."""
    _contact_at(v, c.point, c.normal, c.depth)


def _contact_at(v: View, point: Any, normal: Any, depth: float) -> None:
    """A contact's normal, then its depth and point."""
    _arrow(v, point, normal, NORMAL_LENGTH * v.unit, "normal")
    _contact_point(v, point, normal, depth)


def _batch(v: View, batch: RayBatch | SweepBatch | ContactBatch) -> None:
    """A batch's hits (its misses draw nothing): each point and normal, and for contacts the
    depth."""
    point = np.asarray(batch.point, np.float64)
    if point.ndim != 2 or point.shape[1] != 2:
        raise TypeError(f"thing: a 3D {type(batch).__name__} cannot be drawn; swept's debug "
                        f"drawing is 2D")
    normal = np.asarray(batch.normal, np.float64)
    for i in np.flatnonzero(batch.hit):
        if isinstance(batch, ContactBatch):
            _contact_at(v, point[i], normal[i], float(batch.depth[i]))
        else:
            _hit_at(v, point[i], normal[i])


def _contact_point(v: View, point: Any, normal: Any, depth: float) -> None:
    """A contact point, with its depth as a line back along ``normal``."""
    p = np.asarray(point, np.float64)
    if depth > 0.0:
        _emit(v, "polyline", [p, p - np.asarray(normal, np.float64) * depth], "depth")
    _emit(v, "point", [p], "contact", radius=POINT_RADIUS)


def _manifold(v: View, m: Manifold) -> None:
    """A manifold: its normal from the middle of its points, then each point and depth."""
    if m.points:
        mid = np.mean([np.asarray(mp.point, np.float64) for mp in m.points], axis=0)
        _arrow(v, mid, m.normal, NORMAL_LENGTH * v.unit, "normal")
    for mp in m.points:
        _contact_point(v, mp.point, m.normal, mp.depth)


def _world(v: View, world: Any, fill: bool) -> None:
    """Every collider: half-planes first (they cover the most), sensors as outlines."""
    if world.dim == 3:
        raise TypeError("thing: a 3D World cannot be drawn; swept's debug drawing is 2D")
    shapes = [(h, world.shape(h)) for h in world.handles()]
    planes = [(h, s) for h, s in shapes if isinstance(s, Plane)]
    for h, shape in planes + [(h, s) for h, s in shapes if not isinstance(s, Plane)]:
        if world.is_sensor(h):
            _shape(v, shape, "sensor", False)
        else:
            _shape(v, shape, "moving" if world.is_moving(h) else "static", fill)
        facing = world.one_way(h)
        if facing is not None:
            # the side it is solid from: an arrow out of its middle that way
            at = _anchor(v, shape)
            if at is not None:
                _arrow(v, at, facing, NORMAL_LENGTH * v.unit, "one_way")


def _anchor(v: View, shape: Any) -> np.ndarray | None:
    """Where a mark about a whole shape goes: the middle of its box, or for a half-plane the
    point of its boundary nearest the view's centre (None with no view)."""
    if isinstance(shape, Plane):
        if v.lo is None or v.hi is None:
            return None
        n = np.asarray(shape.normal, np.float64)
        centre = (np.asarray(v.lo) + np.asarray(v.hi)) * 0.5
        return centre - n * (float(n @ centre) - shape.offset)
    box = shape.aabb
    return (np.asarray(box.min, np.float64) + np.asarray(box.max, np.float64)) * 0.5


def _simulation(v: View, sim: Any, fill: bool) -> None:
    """A Simulation: its World, then its bodies."""
    if sim.dim != 2:
        raise TypeError("thing: a 3D Simulation cannot be drawn; swept's debug drawing is 2D")
    _world(v, sim.world, fill)
    for body in sim.bodies:
        _body(v, body, fill)


def _body(v: View, body: Any, fill: bool) -> None:
    """A body's shape where it is now (darker when it sleeps)."""
    if body.dim != 2:
        raise TypeError("thing: a 3D Body cannot be drawn; swept's debug drawing is 2D")
    _shape(v, body.shape, "sleeping" if body.sleeping else "body", fill)


def _check_2d(thing: Any) -> None:
    """TypeError naming ``thing`` unless it is 2D."""
    dim = getattr(thing, "dim", None)
    if dim is None:
        for name in ("point", "normal", "position", "origin"):
            vec = getattr(thing, name, None)
            if vec is not None:
                dim = len(vec)
                break
    if dim == 3:
        raise TypeError(f"thing: a 3D {type(thing).__name__} cannot be drawn; swept's debug "
                        f"drawing is 2D")


def _is(thing: Any, module: str, name: str) -> bool:
    """Whether ``thing`` is a ``module.name``, without importing the module: a thing of a
    class whose module was never imported cannot exist (so drawing loads no kernels)."""
    cls = getattr(sys.modules.get(module), name, None)
    return cls is not None and isinstance(thing, cls)


DRAWABLE = ("a 2D shape (Circle, Segment, AABB, Polygon, Capsule, Plane), a Chain, a TileMap, "
            "a World, a Simulation, a Body, a Ray, a RayHit, a SweepHit, a Contact, a Manifold, "
            "a Collision, a MoveResult, a RayBatch, SweepBatch or ContactBatch, or a list of "
            "these")


def marks(thing: Any, v: View, *, role: str | None = None, fill: bool = True) -> list[Mark]:
    """The marks that draw ``thing`` (see the module's docstring); ``role`` overrides the
    role of a shape, ``fill=False`` draws outlines only. ``TypeError`` naming ``thing`` for
    something that cannot be drawn, 3D things included."""
    _collect(thing, v, role, fill, depth=0)
    return v.out


def _collect(thing: Any, v: View, role: str | None, fill: bool, depth: int) -> None:
    """:func:`marks` for one thing, or for each thing of a plain list (``depth`` 0)."""
    # a plain list or tuple (results are tuples too, of their own types)
    if type(thing) in (list, tuple):
        if depth > 0:
            raise TypeError(f"thing: a nested {type(thing).__name__} cannot be drawn; draw "
                            f"takes {DRAWABLE}")
        for item in thing:
            _collect(item, v, role, fill, depth + 1)
        return
    if isinstance(thing, (RayBatch, SweepBatch, ContactBatch)):
        _batch(v, thing)
        return
    _check_2d(thing)
    if isinstance(thing, Ray):
        _ray(v, thing, None, role or "ray")
    elif isinstance(thing, (Shape, Chain)) or _is(thing, "swept.level.tilemap", "TileMap"):
        _shape(v, thing, role or "shape", fill)
    elif isinstance(thing, (RayHit, SweepHit, Collision)):
        _ray_hit(v, thing)
    elif isinstance(thing, Contact):
        _contact(v, thing)
    elif isinstance(thing, Manifold):
        _manifold(v, thing)
    elif isinstance(thing, MoveResult):
        _move(v, None, thing)
    elif _is(thing, "swept.world", "World"):
        _world(v, thing, fill)
    elif _is(thing, "swept.sim", "Simulation"):
        _simulation(v, thing, fill)
    elif _is(thing, "swept.sim", "Body"):
        _body(v, thing, fill)
    else:
        raise TypeError(f"thing: cannot draw a {type(thing).__name__}; draw takes "
                        f"{DRAWABLE}")


def ray_marks(ray: Any, hit: Any, v: View) -> list[Mark]:
    """A ray up to its hit (or its end), the hit point and the hit's normal."""
    if not isinstance(ray, Ray):
        raise TypeError(f"ray: expected a Ray, got {type(ray).__name__}")
    _check_2d(ray)
    if hit is not None and not isinstance(hit, RayHit):
        raise TypeError(f"hit: expected a RayHit or None, got {type(hit).__name__}")
    _ray(v, ray, hit, "ray")
    return v.out


def sweep_marks(shape: Any, displacement: Any, hit: Any, v: View, *,
                fill: bool = True) -> list[Mark]:
    """A sweep: the volume the shape passes through from start to end (the hull of both
    placements), the shape at the start and at the end, and, with a hit, the shape at the time
    of impact, the contact point and the normal."""
    if not isinstance(shape, (Circle, Segment, AABB, Polygon, Capsule)):
        raise TypeError(f"shape: expected a 2D convex shape (Circle, Segment, AABB, Polygon, "
                        f"Capsule), got {type(shape).__name__}")
    _check_2d(shape)
    d = as_vec2(displacement, "displacement")
    if hit is not None and not isinstance(hit, SweepHit):
        raise TypeError(f"hit: expected a SweepHit or None, got {type(hit).__name__}")
    kv = kernel_view(shape)
    core = np.asarray(kv.core, np.float64)
    volume = rounded_hull(np.vstack([core, core + np.asarray(d)]), kv.radius)
    if len(volume) >= 3:
        _emit(v, "polygon", volume, "sweep", fill=fill)
    else:
        _emit(v, "polyline", volume, "sweep")
    _shape(v, shape, "start", False)
    _shape(v, shape.translated(d), "start", False)
    if hit is not None:
        at = shape.translated(np.asarray(hit.position) - np.asarray(reference_point(shape)))
        _shape(v, at, "impact", fill)
        _ray_hit(v, hit)
    return v.out


def move_marks(result: Any, start: Any, v: View, *, fill: bool = True) -> list[Mark]:
    """A move_and_slide result: with ``start`` (the shape before the move), the start and the
    path through each slide; the shape where it ends; each surface met, with its normal."""
    if not isinstance(result, MoveResult):
        raise TypeError(f"result: expected a MoveResult, got {type(result).__name__}")
    if start is not None and not isinstance(start, Shape):
        raise TypeError(f"start: expected the shape before the move, got "
                        f"{type(start).__name__}")
    _check_2d(result.shape)
    _move(v, start, result, fill)
    return v.out


def _move(v: View, start: Shape | None, result: MoveResult, fill: bool = True) -> None:
    """A move: the start and the path (with ``start``), the end, each surface met."""
    if start is not None:
        _check_2d(start)
        _shape(v, start, "start", False)
        p = np.asarray(reference_point(start), np.float64)
        path = [p]
        for c in result.collisions:
            p = p + np.asarray(c.travel, np.float64)
            path.append(p)
        path.append(np.asarray(result.position, np.float64))
        _emit(v, "polyline", path, "path")
    _shape(v, result.shape, "body", fill)
    for c in result.collisions:
        _ray_hit(v, c)


# the per-backend options every public entry point validates the same way

def check_scale(value: Any, name: str) -> float:
    """A positive finite number, or ValueError / TypeError naming ``name``."""
    x = as_finite(value, name)
    if x <= 0.0:
        raise ValueError(f"{name} must be > 0, got {value!r}")
    return x


def check_color(value: Any, name: str = "color") -> tuple[int, int, int] | None:
    """None, or an (r, g, b) of integers 0 to 255; otherwise TypeError / ValueError."""
    if value is None:
        return None
    if isinstance(value, str) or not isinstance(value, Sequence) or len(value) not in (3, 4):
        raise TypeError(f"{name} must be an (r, g, b) sequence of 0-255 integers, got "
                        f"{value!r}")
    out = []
    for c in value[:3]:
        if isinstance(c, bool) or not isinstance(c, (int, np.integer)) or not 0 <= c <= 255:
            raise ValueError(f"{name} components must be integers 0 to 255, got {value!r}")
        out.append(int(c))
    return (out[0], out[1], out[2])


def colors_with(overrides: Any) -> dict[str, tuple[int, int, int]]:
    """:data:`COLORS` with ``overrides`` (a role -> colour mapping) applied, checked."""
    table = dict(COLORS)
    if overrides is None:
        return table
    if not isinstance(overrides, dict):
        raise TypeError(f"colors must be a dict of role -> (r, g, b), got "
                        f"{type(overrides).__name__}")
    for key, value in overrides.items():
        if key not in COLORS:
            raise ValueError(f"colors: unknown role {key!r}; the roles are {sorted(COLORS)}")
        checked = check_color(value, f"colors[{key!r}]")
        assert checked is not None
        table[key] = checked
    return table

