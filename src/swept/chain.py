"""Chains: floors and walls built from many segments, with smooth joins (no ghost collisions).

A shape sliding along a floor made of separate pieces can catch on a join: the end of the next
piece reports a contact whose normal points back along the floor, into the piece the shape came
from, and a response to it stops the slide. Box2D's chain shape cures this by giving each
segment a *Voronoi region* and accepting only normals inside it; :class:`Chain` does the same.

The rule, for a normal ``n`` reported by segment ``i`` of a chain (pointing out of it, toward the
other shape):

- a normal within :data:`FACE_NORMAL_TOLERANCE` of the segment's face normal (either side: a
  chain is two-sided) is a face contact and is kept;
- otherwise it comes from one of the segment's ends (the end ``n`` leans toward). At a free end
  (the ends of an open chain) it is kept, as on a lone segment. At a *convex* join (the
  neighbour bends away from the shape's side) it is kept if it lies in the fan between the two
  faces' normals and otherwise turned onto the nearer of them. At a *flat* or *concave* join
  (seams and inside corners) the join has no region of its own, so ``n`` is replaced by the
  segment's own face normal: the push that pointed back into the neighbour is gone.

A replaced normal keeps the hit or contact (nothing tunnels); a contact's depth is then measured
along the new normal, against the face's line, and never grows.
"""

from __future__ import annotations

from collections.abc import Iterator, Sequence
from typing import Any

import numpy as np

from .constants import (
    CANDIDATE_MARGIN,
    CHAIN_BOXES_MIN_SEGMENTS,
    CHAIN_RAY_BOXES_MIN_SEGMENTS,
    EDGE_ON_TOLERANCE,
    FACE_NORMAL_TOLERANCE,
    JOIN_FLAT_TOLERANCE,
)
from .contact import contact
from .dispatch import CLOSEST_POINT, CLOSEST_POINTS, CONTACT, RAYCAST, SWEEP, UNSUPPORTED
from .distance import PointOperand, closest_point
from .raycast import raycast
from .results import Contact, RayHit, SweepHit, make_contact, make_sweep_hit
from .shapes import AABB, Capsule, Circle, Polygon, Segment, Shape
from .sweep import reference_point, shape_core, sweep
from .vec import Vec2, as_vec2

__all__ = [
    "Chain",
    "contact_chain",
    "chain_contacts",
    "sweep_chain",
    "contact_obstacle",
    "sweep_obstacle",
    "FACE_NORMAL_TOLERANCE",
    "JOIN_FLAT_TOLERANCE",
    "EDGE_ON_TOLERANCE",
]


class Chain:
    """A polyline of segments with smooth joins: ``Chain(points, loop=False)`` (2D).

    ``points`` are the vertices in order (at least 2; consecutive ones distinct); ``loop=True``
    joins the last back to the first. The chain is two-sided and has no inside: it is a
    surface, like a :class:`~swept.Segment`. Contacts and sweeps against it keep only normals
    in each segment's Voronoi region (see the module's docstring).
    """

    __slots__ = ("points", "loop", "segments", "_dirs", "_lefts", "_box", "_boxes")
    points: tuple[Vec2, ...]
    loop: bool
    #: the segments, in order: segment ``i`` runs from ``points[i]`` to ``points[i + 1]``
    segments: tuple[Any, ...]
    _dirs: tuple[Vec2, ...]
    _lefts: tuple[Vec2, ...]
    _box: AABB
    _boxes: np.ndarray | None
    dim = 2

    def __init__(self, points: Sequence[Any], loop: bool = False) -> None:
        from .shapes import Segment

        pts = tuple(as_vec2(p, f"points[{i}]") for i, p in enumerate(points))
        if len(pts) < 2:
            raise ValueError(f"points needs at least 2 points, got {len(pts)}")
        if loop and len(pts) < 3:
            raise ValueError("points needs at least 3 points for a loop")
        ends = list(zip(pts, pts[1:]))
        if loop:
            ends.append((pts[-1], pts[0]))
        segs = []
        for i, (a, b) in enumerate(ends):
            if a == b:
                raise ValueError(f"points[{i}] and the next point coincide")
            segs.append(Segment(a, b))
        object.__setattr__(self, "points", pts)
        object.__setattr__(self, "loop", bool(loop))
        object.__setattr__(self, "segments", tuple(segs))
        dirs = [(s.b - s.a).normalized() for s in segs]
        object.__setattr__(self, "_dirs", tuple(dirs))
        object.__setattr__(self, "_lefts", tuple(d.perp() for d in dirs))
        xs = [p[0] for p in pts]
        ys = [p[1] for p in pts]
        object.__setattr__(self, "_box", AABB._unchecked(Vec2(min(xs), min(ys)),
                                                         Vec2(max(xs), max(ys))))
        #: the segments' boxes (n, 4) ``minx miny maxx maxy``, built on first use
        object.__setattr__(self, "_boxes", None)

    def __setattr__(self, name: str, value: Any) -> None:
        raise AttributeError("Chain is immutable")

    def __repr__(self) -> str:
        return f"Chain({[tuple(p) for p in self.points]}, loop={self.loop})"

    def __eq__(self, other: object) -> bool:
        if not isinstance(other, Chain):
            return NotImplemented
        return self.points == other.points and self.loop == other.loop

    def __hash__(self) -> int:
        return hash(("Chain", self.points, self.loop))

    def __reduce__(self) -> tuple[Any, ...]:
        """Pickle and copy as the constructor's arguments (the slots are read-only)."""
        return (Chain, (self.points, self.loop))

    def __len__(self) -> int:
        return len(self.segments)

    def __iter__(self) -> Iterator[Any]:
        return iter(self.segments)

    @property
    def aabb(self) -> AABB:
        """The smallest axis-aligned box holding every point."""
        return self._box

    def translated(self, offset: Any) -> Chain:
        """The same chain moved by ``offset``."""
        o = as_vec2(offset, "offset")
        return Chain([p + o for p in self.points], self.loop)

    def _segment_boxes(self) -> np.ndarray:
        """The segments' boxes (n, 4) ``minx miny maxx maxy``, built once."""
        boxes = self._boxes
        if boxes is None:
            pts = np.array(self.points, dtype=np.float64)
            a = pts[: len(self.segments)]
            b = np.roll(pts, -1, axis=0)[: len(self.segments)]
            boxes = np.hstack((np.minimum(a, b), np.maximum(a, b)))
            boxes.setflags(write=False)
            object.__setattr__(self, "_boxes", boxes)
        return boxes

    def _near(self, lo: Sequence[float], hi: Sequence[float]) -> Sequence[int]:
        """Indices, in order, of the segments whose boxes overlap or touch the box ``lo``..``hi``
        (every segment of a short chain: the test costs more than it saves)."""
        n = len(self.segments)
        if n < CHAIN_BOXES_MIN_SEGMENTS:
            return range(n)
        b = self._segment_boxes()
        keep = (b[:, 0] <= hi[0]) & (lo[0] <= b[:, 2]) & (b[:, 1] <= hi[1]) & (lo[1] <= b[:, 3])
        result: Sequence[int] = np.flatnonzero(keep).tolist()
        return result

    def _near_motion(self, shape: Shape, disp: Vec2, reach: float) -> Sequence[int]:
        """The segments ``shape`` may meet when moved by ``disp``: those whose boxes touch the
        box it sweeps, grown by ``reach`` and :data:`~swept.constants.CANDIDATE_MARGIN` of
        the scale (so that no touching tolerance of the narrowphase sees a culled one)."""
        if len(self.segments) < CHAIN_BOXES_MIN_SEGMENTS:
            return range(len(self.segments))
        box = shape.aabb
        lo = [min(box.min[k], box.min[k] + disp[k]) for k in range(2)]
        hi = [max(box.max[k], box.max[k] + disp[k]) for k in range(2)]
        return self._near(*self._grown(lo, hi, reach))

    def _grown(self, lo: Sequence[float], hi: Sequence[float], reach: float
               ) -> tuple[list[float], list[float]]:
        """The box ``lo``..``hi`` grown by ``reach`` and :data:`~swept.constants.CANDIDATE_MARGIN`
        of the scale (its and the chain's largest coordinate, at least 1)."""
        big = max(1.0, *(abs(v) for v in (*lo, *hi, *self._box.min, *self._box.max)))
        grow = reach + CANDIDATE_MARGIN * big
        return [v - grow for v in lo], [v + grow for v in hi]

    def _near_ray(self, ray: Any) -> Sequence[int]:
        """The segments whose boxes (grown by :data:`~swept.constants.CANDIDATE_MARGIN` of the
        scale) the ray meets within its ``max_distance``, in order."""
        n = len(self.segments)
        if n < CHAIN_RAY_BOXES_MIN_SEGMENTS:
            return range(n)
        o = np.array(ray.origin, dtype=np.float64)
        d = np.array(ray.direction, dtype=np.float64)
        big = max(1.0, float(np.abs(o).max()), *(abs(v) for v in self._box.min),
                  *(abs(v) for v in self._box.max))
        grow = CANDIDATE_MARGIN * big
        b = self._segment_boxes()
        lo = b[:, :2] - grow
        hi = b[:, 2:] + grow
        with np.errstate(divide="ignore", invalid="ignore", over="ignore"):
            t1 = (lo - o) / d
            t2 = (hi - o) / d
            near = np.minimum(t1, t2)
            far = np.maximum(t1, t2)
        # parallel to an axis: inside that slab all along, or never in it
        inside = (o >= lo) & (o <= hi)
        near = np.where(d == 0.0, np.where(inside, -np.inf, np.inf), near)
        far = np.where(d == 0.0, np.where(inside, np.inf, -np.inf), far)
        enter = near.max(axis=1)
        leave = far.min(axis=1)
        keep = (enter <= leave) & (leave >= 0.0) & (enter <= ray.max_distance)
        result: Sequence[int] = np.flatnonzero(keep).tolist()
        return result

    def _neighbour(self, i: int, forward: bool) -> int | None:
        """The segment sharing segment ``i``'s end (``forward``) or start, or None at a free
        end of an open chain."""
        n = len(self.segments)
        j = i + 1 if forward else i - 1
        if self.loop:
            return j % n
        return j if 0 <= j < n else None

    def region_normal(self, i: int, normal: Vec2, toward: Vec2 | None = None,
                      outward: Vec2 | None = None) -> tuple[Vec2, Vec2 | None]:
        """``normal`` (reported by segment ``i``) moved into the segment's Voronoi region:
        (the admissible normal, the join it was turned at, or None when it was kept).

        The side of the segment is the one ``normal`` leans to; a normal straight along the
        segment (edge-on) takes the side of ``outward`` when given (the open side of an outline
        with solid behind it, a tile map's), else of ``toward`` (the other shape's reference
        point), else the left (``perp``) side.
        """
        left = self._lefts[i]
        d = self._dirs[i]
        side = normal.dot(left)
        if abs(side) <= EDGE_ON_TOLERANCE:
            # a normal straight along the segment, from its end: the open side, else the
            # other shape's side
            side = 1.0
            if outward is not None:
                side = 1.0 if outward.dot(left) > 0.0 else -1.0
            elif toward is not None and (toward - self.segments[i].a).dot(left) < 0.0:
                side = -1.0
        face = left if side > 0.0 else -left
        if normal.dot(face) >= 1.0 - FACE_NORMAL_TOLERANCE:
            # face contact
            return normal, None
        forward = normal.dot(d) > 0.0
        j = self._neighbour(i, forward)
        if j is None:
            # a free end of an open chain: rounded, like a lone segment
            return normal, None
        seg_j = self.segments[j]
        vertex = self.segments[i].b if forward else self.segments[i].a
        far = seg_j.b if forward else seg_j.a
        length_j = seg_j.length
        bend = (far - vertex).dot(face)
        neighbour_face = self._lefts[j] if side > 0.0 else -self._lefts[j]
        if bend < -JOIN_FLAT_TOLERANCE * length_j:
            # convex join: the fan between the two face normals is this vertex's region
            turn = face.cross(neighbour_face)
            if face.cross(normal) * turn >= 0.0 and normal.cross(neighbour_face) * turn >= 0.0:
                return normal, None
            nearer = face if normal.dot(face) >= normal.dot(neighbour_face) else neighbour_face
            return nearer, vertex
        # flat seam or concave corner: no region of its own, the face answers
        return face, vertex


def _support_depth(shape: Shape, normal: Vec2, through: Vec2) -> float:
    """How far ``shape`` reaches past the line through ``through`` with outward ``normal``."""
    core, radius = shape_core(shape)
    lowest = float(np.min(core @ np.asarray(normal, dtype=np.float64))) - radius
    return through.dot(normal) - lowest


def chain_contacts(shape: Shape, chain: Chain) -> list[tuple[int, Contact]]:
    """Every segment of ``chain`` that ``shape`` touches, as (segment index, Contact), with
    normals in each segment's Voronoi region (ghost pushes replaced by face normals)."""
    box = shape.aabb
    # the candidate box grown as for a sweep: a shape touching a segment to rounding may lie
    # an ulp outside that segment's box (a point on the chain's end), and still touches
    lo, hi = chain._grown(box.min, box.max, 0.0)
    toward = reference_point(shape)
    found: list[tuple[int, Contact]] = []
    for i in chain._near(lo, hi):
        seg = chain.segments[i]
        sb = seg.aabb
        if sb.min[0] > hi[0] or sb.max[0] < lo[0] or sb.min[1] > hi[1] or sb.max[1] < lo[1]:
            continue
        c = contact(shape, seg)
        if c is None:
            continue
        n, join = chain.region_normal(i, c.normal, toward)  # type: ignore[arg-type]
        if join is not None:
            # the depth against the answering face's line (through the join), never more
            depth = min(c.depth, max(0.0, _support_depth(shape, n, join)))
            c = make_contact(n, depth, c.point)
        found.append((i, c))
    return found


def contact_chain(shape: Shape, chain: Chain) -> Contact | None:
    """The deepest admissible contact of ``shape`` with ``chain`` (normal moves ``shape`` out),
    or ``None`` when they do not touch."""
    best: Contact | None = None
    for _i, c in chain_contacts(shape, chain):
        if best is None or c.depth > best.depth:
            best = c
    return best


def sweep_chain(shape: Shape, displacement: Any, chain: Chain, *,
                target_distance: float = 0.0) -> SweepHit | None:
    """The first moment ``shape`` moved by ``displacement`` touches ``chain``, as
    :func:`swept.sweep` reports it, with the normal moved into the hit segment's Voronoi
    region (a replaced normal keeps the fraction and point), or ``None``."""
    disp = as_vec2(displacement, "displacement")
    toward = reference_point(shape)
    best: SweepHit | None = None
    for i in chain._near_motion(shape, disp, target_distance):
        seg = chain.segments[i]
        hit = sweep(shape, disp, seg, target_distance=target_distance)
        if hit is None or (best is not None and hit.fraction >= best.fraction):
            continue
        n, join = chain.region_normal(i, hit.normal, toward)  # type: ignore[arg-type]
        if join is not None:
            hit = make_sweep_hit(hit.fraction, hit.point, n, hit.position, hit.started_inside)
        best = hit
    return best


def contact_obstacle(shape: Shape, obstacle: Any) -> Contact | None:
    """:func:`swept.contact` that also takes a :class:`Chain` as the obstacle."""
    if isinstance(obstacle, Chain):
        return contact_chain(shape, obstacle)
    return contact(shape, obstacle)


def sweep_obstacle(shape: Shape, displacement: Any, obstacle: Any, *,
                   target_distance: float = 0.0) -> SweepHit | None:
    """:func:`swept.sweep` against a still obstacle that may also be a :class:`Chain`."""
    if isinstance(obstacle, Chain):
        return sweep_chain(shape, displacement, obstacle, target_distance=target_distance)
    return sweep(shape, displacement, obstacle, target_distance=target_distance)


# ---------------------------------------------------------------------------------------------
# Chain in every query family: each query asks every segment and keeps the nearest (raycast,
# sweep, distance, closest point) or deepest (contact) answer, with contact and sweep normals
# moved into the answering segment's Voronoi region as above. The one place a Chain joins the
# dispatch (swept.dispatch).

def _raycast_chain(ray: Any, chain: Chain) -> RayHit | None:
    """The nearest hit of ``ray`` on any segment (a chain is a surface: no inside)."""
    best: RayHit | None = None
    for i in chain._near_ray(ray):
        hit = raycast(ray, chain.segments[i])
        if hit is not None and (best is None or hit.distance < best.distance):
            best = hit
    return best


def contact_raw2(c: Contact | None) -> tuple[Any, ...]:
    """A 2D contact (or None) as the contact family's flat tuple (hit, nx, ny, depth, px, py),
    for a shape that answers through a record (a Chain, a TileMap)."""
    if c is None:
        return (False, 0.0, 0.0, 0.0, 0.0, 0.0)
    return (True, c.normal[0], c.normal[1], c.depth, c.point[0], c.point[1])


def _contact_chain_raw(shape: Any, chain: Chain) -> tuple[Any, ...]:
    """:func:`contact_chain` as the contact family's flat tuple (hit, nx, ny, depth, px, py)."""
    if shape.dim != 2:
        result: tuple[Any, ...] = UNSUPPORTED
        return result
    return contact_raw2(contact_chain(shape, chain))


def _sweep_chain_found(shape: Any, rel: Vec2, chain: Chain, td: float, mf: float
                       ) -> tuple[float, Vec2, Vec2, bool] | None:
    """The sweep family's answer against a chain: the earliest segment hit, its normal in that
    segment's Voronoi region."""
    toward = reference_point(shape)
    best: tuple[float, Vec2, Vec2, bool] | None = None
    for i in chain._near_motion(shape, rel, td):
        seg = chain.segments[i]
        handler, _swapped = SWEEP.lookup(shape, seg)
        found = handler(shape, rel, seg, td, mf)
        if found is None or (best is not None and found[0] >= best[0]):
            continue
        fraction, normal, point, inside = found
        n, join = chain.region_normal(i, normal, toward)  # type: ignore[arg-type]
        best = (fraction, n if join is not None else normal, point, inside)
    return best


def _closest_points_chain(shape: Any, chain: Chain) -> tuple[float, ...]:
    """The closest-points family's answer: the nearest segment's (d, a's point, b's point)."""
    best: tuple[float, ...] | None = None
    for seg in chain.segments:
        r = closest_points_segment(shape, seg)
        if best is None or r[0] < best[0]:
            best = r
    assert best is not None  # a chain has at least one segment
    return best


def closest_points_segment(shape: Any, seg: Segment) -> tuple[float, ...]:
    """The closest-points family's answer for ``shape`` and one segment, in that order:
    (d, shape's point, the segment's point), padded to 3D."""
    handler, swapped = CLOSEST_POINTS.lookup(shape, seg)
    r = handler(seg, shape) if swapped else handler(shape, seg)
    if swapped:
        r = (r[0], r[4], r[5], r[6], r[1], r[2], r[3])
    return tuple(r)


def _closest_point_chain(chain: Chain, p: Any) -> Vec2:
    """The point of the chain nearest ``p``."""
    q = as_vec2(p, "p")
    best: Vec2 | None = None
    best_d = float("inf")
    for seg in chain.segments:
        c = closest_point(seg, q)
        d = (c - q).length()
        if d < best_d:
            best, best_d = c, d  # type: ignore[assignment]
    assert best is not None
    return best


RAYCAST.register(Chain, _raycast_chain)
CLOSEST_POINT.register(Chain, _closest_point_chain)
for _cls in (Circle, Segment, Capsule, AABB, Polygon):
    CONTACT.register((_cls, Chain), _contact_chain_raw, flip=True)
    SWEEP.register((_cls, Chain), _sweep_chain_found)
for _operand in (PointOperand, Circle, Segment, Capsule, AABB, Polygon):
    CLOSEST_POINTS.register((_operand, Chain), _closest_points_chain, flip=True)
