"""A TileMap in the contact, distance, closest-points and sweep families.

Every query here answers against the map's outline (:meth:`TileMap.chains`): only the edges
between a solid tile and an empty one, merged where they run straight on, so a face between
two solid tiles does not exist and a shape sliding along a flat row of tiles never meets a seam.
Each answer's normal is moved into the answering segment's Voronoi region by
:meth:`swept.Chain.region_normal` (a concave corner answers with a face's normal).

**The cell index.** Each outline segment is filed under the cells on both sides of every unit
edge it covers (a CSR table over the grid grown by one cell on each side). A query gathers the
segments filed under the cells its box (a sweep: its *swept* box, row by row, so a diagonal
sweep visits a band of cells, not the rectangle around it) covers, grown by
:func:`query_margin` and one cell of slack, and tests only those: never every tile. A sweep
casts each against the part of it within that margin of its swept box (an outline run may be
the map's width long; cut to the motion, the casts' rim tolerances, relative to the grown
target's size, stay those of the motion's size).

**The solid side.** A map is solid (unlike a Chain, which is a surface). Each outline keeps
the solid on its left (y up), so a segment's outward normal is known:

- a contact whose normal points into the solid side of a segment while the segment's nearest
  point is inside its face (the shape has sunk through the face) is turned onto the face's
  outward normal, its depth measured against the face's line; one that points into the solid
  side from a segment's end is left to the neighbouring segment (unless no segment answers
  otherwise: a centre exactly on a corner, which gives no side, or one on the neighbour's
  face so exactly that rounding put that face apart, leaves through the shallower of the two
  faces at the corner);
- a segment (no area: its contact with a face says nothing of the side it lies on) leaves
  each face it meets along that face's outward normal, past the face's line;
- of the segments' ways out, the contact is the shallowest that alone leaves the shape clear
  of the whole map (judged against the solid tiles' squares); when none does (a box
  in an inside corner, a ball wedged between two tiles' corners or centred on the corner two
  diagonal tiles share), the shortest clearing push along a few directions (the axes, the
  diagonals, and those the pushes give), each to the exact distance at which the shape
  leaves every tile;
- a shape whose reference point lies in the solid region but touches no outline segment is
  *buried*: its contact leaves by the outward normal of the outline segment nearest that point,
  with the depth that clears that segment's line;
- a sweep that starts overlapping the map (or within ``target_distance``) hits at 0 with
  ``started_inside`` and the contact's normal (the shortest way out), as for any shape.

**Exact casts.** A moving shape against one axis-aligned outline segment is a ray from its
reference point against the Minkowski difference of the two: for a box a box (one slab test),
for a circle a capsule, for a capsule, segment or polygon the convex hull of the segment's ends
less the mover's core points, grown by the mover's radius (a rounded polygon). Each is a closed
form, so a fraction is exact to the rounding of the coordinates (no iteration). A ball's or a
box's candidates are cast in one compiled loop (:mod:`swept._kernels.tilemap`) and the record
is built from the winner by the same cut and cast.

**The reversed pair.** ``sweep(tile_map, d, shape)`` is ``sweep(shape, -d, tile_map)`` with the
normal reversed and the point carried along with the moving map; its ``position`` is the map's
origin at the moment of contact.
"""

from __future__ import annotations

import math
from typing import Any

import numpy as np

from .._kernels.geom import closest_on_segment2
from .._kernels.ray import ray_capsule2
from .._kernels.sweep import ray_rounded_polygon
from .._kernels.tilemap import sweep_segments, swept_ids
from ..chain import Chain, _support_depth, closest_points_segment, contact_raw2
from ..constants import (
    CAST_ROUNDING,
    CLEARANCE_TOLERANCE,
    EDGE_ON_TOLERANCE,
    REACH_ROUNDING,
    SWEEP_RIM_TOLERANCE,
    TILE_QUERY_MARGIN_FACTOR,
)
from ..contact import contact
from ..dispatch import CLOSEST_POINTS, CONTACT, SWEEP, UNSUPPORTED
from ..distance import PointOperand
from ..results import make_contact
from ..shapes import AABB, Capsule, Circle, Polygon, Segment, Shape
from ..sweep import reference_point, shape_core, sweep
from ..vec import Vec2, as_vec2
from ..views import view
from .tilemap import TileMap

__all__ = ["segments_near", "segments_swept", "query_margin", "cut_ends", "clipped",
           "sweep_tilemap", "contact_tilemap"]

_Found = tuple[float, Vec2, Vec2, bool]


# ----------------------------------------------------------------------------- the cell index

class _EdgeIndex:
    """The outline segments filed by cell: ``start`` / ``ids`` a CSR table over the grid grown
    by one cell each side (cell (r, c) at row ``r + 1``, column ``c + 1``), ``owner`` the
    (chain, segment) of each id."""

    __slots__ = ("start", "ids", "owner", "ends", "width", "height", "scale", "view")

    def __init__(self, tiles: TileMap) -> None:
        rows, cols = tiles.solid.shape
        loops = tiles.grid_outlines()
        owner: list[tuple[int, int]] = []
        ends: list[tuple[int, int, int, int]] = []
        for k, loop in enumerate(loops):
            n = len(loop)
            for i in range(n):
                (ax, ay), (bx, by) = loop[i], loop[(i + 1) % n]
                owner.append((k, i))
                ends.append((ax, ay, bx, by))
        self.width = cols + 2
        self.height = rows + 2
        #: the map's scale: its largest corner coordinate, at least 1
        self.scale = _scale(tiles)
        self.owner = owner
        if not ends:
            self.start = np.zeros(self.width * self.height + 1, np.int64)
            self.ids = np.zeros(0, np.int64)
            self.ends = np.zeros((0, 4), np.float64)
            self.view = self._view(tiles)
            return
        e = np.array(ends, dtype=np.int64)
        # each segment's ends in world space, as TileMap.corner computes them (bit for bit)
        (ox, oy), (w, h) = tiles.origin, tiles.cell_size
        world = np.empty((len(e), 4), np.float64)
        world[:, 0] = ox + e[:, 0] * w
        world[:, 1] = oy + e[:, 1] * h
        world[:, 2] = ox + e[:, 2] * w
        world[:, 3] = oy + e[:, 3] * h
        world.setflags(write=False)
        self.ends = world
        lengths = np.abs(e[:, 2] - e[:, 0]) + np.abs(e[:, 3] - e[:, 1])
        seg = np.repeat(np.arange(len(e)), lengths)
        # the unit edges of every segment: k steps from its lower end
        first = np.cumsum(lengths) - lengths
        step = np.arange(int(lengths.sum())) - np.repeat(first, lengths)
        lo_x = np.minimum(e[:, 0], e[:, 2])[seg]
        lo_y = np.minimum(e[:, 1], e[:, 3])[seg]
        horizontal = (e[:, 1] == e[:, 3])[seg]
        ux = np.where(horizontal, lo_x + step, lo_x)
        uy = np.where(horizontal, lo_y, lo_y + step)
        # the cells on both sides: a horizontal edge at y = uy spans cell rows uy - 1 and uy; a
        # vertical one at x = ux spans columns ux - 1 and ux
        r1 = np.where(horizontal, uy - 1, uy)
        c1 = np.where(horizontal, ux, ux - 1)
        cells = np.concatenate(((r1 + 1) * self.width + (c1 + 1),
                                (uy + 1) * self.width + (ux + 1)))
        owners = np.concatenate((seg, seg))
        order = np.lexsort((owners, cells))
        cells, owners = cells[order], owners[order]
        keep = np.ones(len(cells), bool)
        keep[1:] = (cells[1:] != cells[:-1]) | (owners[1:] != owners[:-1])
        cells, owners = cells[keep], owners[keep]
        counts = np.bincount(cells, minlength=self.width * self.height)
        self.start = np.concatenate(([0], np.cumsum(counts))).astype(np.int64)
        self.ids = owners.astype(np.int64)
        self.view = self._view(tiles)

    def _view(self, tiles: TileMap) -> tuple[np.ndarray, np.ndarray, np.ndarray, np.ndarray]:
        """The table as :func:`swept._kernels.tilemap.sweep_segments` reads it: ``start``,
        ``ids``, ``ends`` and the frame ``ox, oy, w, h, rows, cols``."""
        (ox, oy), (w, h) = tiles.origin, tiles.cell_size
        rows, cols = tiles.solid.shape
        return (self.start, self.ids, self.ends,
                np.array((ox, oy, w, h, rows, cols), np.float64))


def _index(tiles: TileMap) -> _EdgeIndex:
    """The map's cell index, built once."""
    index = tiles._index
    if index is None:
        index = _EdgeIndex(tiles)
        object.__setattr__(tiles, "_index", index)
    return index


def _scale(tiles: TileMap, *values: float) -> float:
    """The query's scale: its largest coordinate or the map's, at least 1."""
    box = tiles.aabb
    return max(1.0, *(abs(v) for v in values), *(abs(v) for v in box.min),
               *(abs(v) for v in box.max))


def segments_swept(tiles: TileMap, lo: Any, hi: Any, motion: Any, margin: float
                   ) -> list[tuple[int, int]]:
    """The outline segments, as (chain index, segment index), that the box ``lo``..``hi``
    moved by ``motion`` may touch within ``margin``: those filed under the cells its swept
    region (grown by ``margin`` and one cell of slack) covers, row by row."""
    owner = _index(tiles).owner
    return [owner[i] for i in _swept_ids(tiles, lo, hi, motion, margin).tolist()]


def _swept_ids(tiles: TileMap, lo: Any, hi: Any, motion: Any, margin: float) -> np.ndarray:
    """:func:`segments_swept` as the index's segment ids."""
    index = _index(tiles)
    (w, h), (ox, oy) = tiles.cell_size, tiles.origin
    rows, cols = tiles.solid.shape
    return swept_ids(index.start, index.ids, rows, cols, ox, oy, w, h, lo[0] - margin,
                     lo[1] - margin, hi[0] + margin, hi[1] + margin, float(motion[0]),
                     float(motion[1]))


def segments_near(tiles: TileMap, lo: Any, hi: Any, margin: float = 0.0
                  ) -> list[tuple[int, int]]:
    """The outline segments, as (chain index, segment index), within ``margin`` of the box
    ``lo``..``hi`` (and a cell of slack)."""
    return segments_swept(tiles, lo, hi, (0.0, 0.0), margin)


def _outward(chain: Chain, i: int) -> Vec2:
    """Segment ``i``'s outward normal: the solid lies on each outline's left (y up)."""
    return -chain._lefts[i]


def _box_of(shape: Any) -> tuple[Any, Any]:
    """A shape's box corners (a point operand's: the point twice)."""
    if isinstance(shape, PointOperand):
        return shape.center, shape.center
    box = shape.aabb
    return box.min, box.max


def query_margin(tiles: TileMap, lo: Any, hi: Any, motion: Any = (0.0, 0.0),
                 extra: float = 0.0) -> float:
    """How far past a query's swept box a segment may lie and still be touched: ``extra``
    (a target distance) and :data:`~swept.constants.TILE_QUERY_MARGIN_FACTOR` times the
    casts' own touching tolerances, the rim's
    (:data:`~swept.constants.SWEEP_RIM_TOLERANCE` of the query's size) and the coordinates'
    rounding (:data:`~swept.constants.CAST_ROUNDING` of their magnitude)."""
    size = max(hi[0] - lo[0], hi[1] - lo[1]) + abs(motion[0]) + abs(motion[1]) + extra
    coords = max(_index(tiles).scale, abs(lo[0]), abs(lo[1]), abs(hi[0]), abs(hi[1]))
    return extra + TILE_QUERY_MARGIN_FACTOR * (SWEEP_RIM_TOLERANCE * size
                                               + CAST_ROUNDING * coords)


def cut_ends(seg: Segment, lo: Any, hi: Any, motion: Any, margin: float
             ) -> tuple[float, float, float, float] | None:
    """The ends ``(ax, ay, bx, by)`` of the part of an (axis-aligned) outline segment within
    ``margin`` of the box ``lo``..``hi`` swept by ``motion``, cut along the segment's own axis
    and kept in its direction (as :func:`swept._kernels.tilemap.sweep_segments` cuts it); None
    when none is (or only a point)."""
    (ax, ay), (bx, by) = seg.a, seg.b
    axis = 0 if ay == by else 1
    a, b = (ax, bx) if axis == 0 else (ay, by)
    low = min(lo[axis], lo[axis] + motion[axis]) - margin
    high = max(hi[axis], hi[axis] + motion[axis]) + margin
    u0, u1 = max(min(a, b), low), min(max(a, b), high)
    if u0 >= u1:
        return None
    if a > b:
        u0, u1 = u1, u0
    if axis == 0:
        return u0, ay, u1, by
    return ax, u0, bx, u1


def clipped(seg: Segment, lo: Any, hi: Any, motion: Any, margin: float) -> Segment | None:
    """:func:`cut_ends` as a Segment (``seg`` itself when nothing is cut)."""
    ends = cut_ends(seg, lo, hi, motion, margin)
    if ends is None:
        return None
    if ends == (*seg.a, *seg.b):
        return seg
    return Segment(ends[:2], ends[2:])


# ------------------------------------------------------------------------------------ contact

def _nearest_segment(tiles: TileMap, p: Vec2) -> tuple[int, int, Vec2, float]:
    """The outline segment nearest ``p``: (chain, segment, its nearest point, distance),
    searched in boxes that double from a cell until one holds a segment nearer than its
    margin (at most enough doublings to cover the map)."""
    chains = tiles.chains()
    reach = max(tiles.cell_size)
    extent = max(tiles.cell_size[0] * tiles.solid.shape[1],
                 tiles.cell_size[1] * tiles.solid.shape[0])
    extent += max(abs(p[0] - tiles.origin[0]), abs(p[1] - tiles.origin[1]))
    best = (0, 0, p, math.inf)
    # each round doubles the reach; the last covers the whole map
    for _ in range(max(2, math.ceil(math.log2(max(extent / reach, 1.0))) + 3)):
        for k, i in segments_near(tiles, p, p, reach):
            seg = chains[k].segments[i]
            x, y, _t = closest_on_segment2(p[0], p[1], seg.a[0], seg.a[1], seg.b[0], seg.b[1])
            d = math.hypot(x - p[0], y - p[1])
            if d < best[3]:
                best = (k, i, Vec2(x, y), d)
        if best[3] <= reach:
            return best
        reach = max(2.0 * reach, best[3]) if best[3] < math.inf else 2.0 * reach
    return best


_Push = tuple[Vec2, float, Vec2]  # (normal, depth, point on the outline)


def _ways_out(shape: Shape, tiles: TileMap) -> tuple[list[_Push], list[_Push]]:
    """Every outline segment's way out for ``shape`` (the module docstring's rules): one per
    touching segment, or the buried answer, or none when apart; and beside them the pushes
    through the faces at the segments' ends that the contacts met from the solid side (set
    aside when a face answered, but still ways out: a wedged shape may leave between them)."""
    lo, hi = _box_of(shape)
    chains = tiles.chains()
    ref = reference_point(shape)
    thin = _is_thin(shape)
    found: list[_Push] = []
    ends: list[_Push] = []
    for k, i in segments_near(tiles, lo, hi, query_margin(tiles, lo, hi)):
        chain = chains[k]
        seg = chain.segments[i]
        c = contact(shape, seg)
        if c is None:
            continue
        out = _outward(chain, i)
        if thin:
            # a segment meeting a face (crossing it, or lying on it): out along the face's
            # normal past its line; the two segments' own shortest separation (sliding the
            # face's end off the shape) would leave the solid behind that end in place
            found.append((out, max(0.0, _support_depth(shape, out, seg.a)), as_vec2(c.point)))
            continue
        n, depth = c.normal, c.depth
        if n.dot(out) < -EDGE_ON_TOLERANCE:
            # pointing into the solid side of this segment
            _x, _y, t = closest_on_segment2(c.point[0], c.point[1], seg.a[0], seg.a[1],
                                            seg.b[0], seg.b[1])
            if not 0.0 < t < 1.0:
                # from the segment's end: the neighbour's face or corner answers (kept in
                # case none does: a centre exactly on the corner, or on the neighbour's face
                # so exactly that rounding put the neighbour's own contact apart)
                ends.append(_end_push(shape, chain, i, t >= 1.0, as_vec2(c.point)))
                continue
            # sunk through the face: out along the face's normal, past its line
            n, depth = out, max(0.0, _support_depth(shape, out, seg.a))
        else:
            n, join = chain.region_normal(i, n, ref, out)  # type: ignore[arg-type]
            if join is not None:
                # the depth against the answering face's line (through the join), never more
                depth = min(depth, max(0.0, _support_depth(shape, n, join)))
        found.append((n, depth, c.point))  # type: ignore[arg-type]
    if not found and ends:
        # only segments' ends touched, each from its solid side (a centre on the corner
        # itself): out through their faces
        return ends, ends
    if not found and tiles.contains_closed(ref):
        # buried: out by the nearest outline segment's face
        k, i, point, _d = _nearest_segment(tiles, ref)  # type: ignore[arg-type]
        chain = chains[k]
        out = _outward(chain, i)
        found.append((out, max(0.0, _support_depth(shape, out, chain.segments[i].a)), point))
    return found, ends


def _is_thin(shape: Shape) -> bool:
    """Whether ``shape`` has no area (a segment, or a capsule of radius 0), so that its
    contact with a face says nothing of which side of the face it lies on."""
    return isinstance(shape, Segment) or (isinstance(shape, Capsule) and shape.radius == 0.0)


def _end_push(shape: Shape, chain: Chain, i: int, forward: bool, point: Vec2) -> _Push:
    """The way out for a contact from segment ``i``'s end (its last point when ``forward``)
    that points into the solid side: the shallower of the two faces meeting at that corner,
    each by the depth that clears its line. A ball touching a column's side just above its
    bottom corner leaves sideways by 0, not down by its radius."""
    seg = chain.segments[i]
    corner = seg.b if forward else seg.a
    out = _outward(chain, i)
    best = (out, max(0.0, _support_depth(shape, out, corner)), point)
    j = chain._neighbour(i, forward)
    if j is not None:
        other = _outward(chain, j)
        depth = max(0.0, _support_depth(shape, other, corner))
        if depth < best[1]:
            best = (other, depth, point)
    return best


def _clearance(shape: Shape) -> float:
    """The depth below which ``shape`` counts as clear: rounding at its size and place."""
    box = shape.aabb
    return CLEARANCE_TOLERANCE * max(*(abs(c) for c in box.min), *(abs(c) for c in box.max),
                                     *(b - a for a, b in zip(box.min, box.max)))


def contact_tilemap(shape: Shape, tiles: TileMap) -> _Push | None:
    """How to move ``shape`` out of the map's solid region: (normal, depth, point on the
    outline), or None when apart.

    Of the segments' ways out (:func:`_ways_out`), the shallowest that alone leaves ``shape``
    clear of the whole map (a box sunk into a floor at the map's edge leaves upward, not
    sideways through the edge); when none does (a box wedged into an inside corner), the
    shortest push found that clears the map (:func:`_wedged_way_out`): a box in an inside
    corner leaves by both faces' depths at once, a ball wedged between two tiles' corners
    leaves between them.
    """
    found, ends = _ways_out(shape, tiles)
    if not found:
        return None
    box = shape.aabb
    for n, depth, point in sorted(found, key=lambda f: f[1]):
        lo = (box.min[0] + n[0] * depth, box.min[1] + n[1] * depth)
        hi = (box.max[0] + n[0] * depth, box.max[1] + n[1] * depth)
        if _box_clear(lo, hi, tiles):
            return n, depth, point
        moved = shape.translated(n * depth)  # type: ignore[attr-defined]
        if _clear_of(moved, tiles):
            return n, depth, point
    return _wedged_way_out(shape, tiles, found, [e for e in ends if e not in found])


def _clear_of(shape: Shape, tiles: TileMap) -> bool:
    """Whether ``shape`` overlaps no solid tile deeper than its clearance, judged against the
    tiles' own squares. The outline's ways out are no sure judge: a shape that crosses a face
    next to its end (a thin capsule poking up into a row of tiles beside the corner) meets
    that face as its end, from the solid side, and the end's push (the shallower of the two
    faces at that corner) reads 0."""
    clear = _clearance(shape)
    for tile in _tile_boxes_near(tiles, shape.aabb):
        c = contact(shape, tile)
        if c is not None and c.depth > clear:
            return False
    return True


def _wedged_way_out(shape: Shape, tiles: TileMap, found: list[_Push],
                    ends: list[_Push]) -> _Push:
    """The way out of a shape that no one face's push clears (in an inside corner, or wedged
    between tiles whose pushes oppose, as a ball between two tiles' corners a cell apart).

    Along a few directions (the four axes and the four diagonals; each push's normal and its
    two perpendiculars; for each pair of pushes their bisector and the corner of their two
    planes, the push by both depths at once; ``ends``, the faces met at segments' ends from
    the solid side, count as pushes here), the exact distance at
    which the shape first leaves every tile (:func:`_leave_along`); the shortest of those.
    That is the shortest way out when it lies along one of the directions (a box in an inside
    corner, a ball between two corners), and a push that clears the map otherwise. Pushing
    the deepest face instead could push into the opposite tile and back again, pass after
    pass. When no direction leaves the map within its cap (not seen), the deepest push.
    """
    # the map's four face normals (its faces are axis-aligned) and the four diagonals
    # between them (out between two tiles that meet at a corner, whatever faces answered) ...
    h = math.sqrt(0.5)
    directions = [Vec2(1.0, 0.0), Vec2(-1.0, 0.0), Vec2(0.0, 1.0), Vec2(0.0, -1.0),
                  Vec2(h, h), Vec2(-h, h), Vec2(h, -h), Vec2(-h, -h)]
    pushes = found + ends
    for i, (n, dn, _p) in enumerate(pushes):
        directions += [n, Vec2(-n[1], n[0]), Vec2(n[1], -n[0])]
        for m, dm, _q in pushes[i + 1:]:
            mid = n + m
            if mid.length() > EDGE_ON_TOLERANCE:
                directions.append(mid.normalized())
            det = n[0] * m[1] - n[1] * m[0]
            if abs(det) > EDGE_ON_TOLERANCE:
                # the corner of the two planes: v . n = dn and v . m = dm
                both = Vec2((dn * m[1] - dm * n[1]) / det, (n[0] * dm - m[0] * dn) / det)
                if both.length() > 0.0:
                    directions.append(both.normalized())
    best: tuple[float, Vec2] | None = None
    for u in directions:
        s = _leave_along(shape, tiles, u)
        if s is not None and (best is None or s < best[0]):
            best = (s, u)
    if best is None:
        return max(found, key=lambda f: f[1])
    s, u = best
    # the outline point of the push most along the way out
    point = max(pushes, key=lambda f: f[0].dot(u))[2]
    return u, s, point


def _tile_span(tiles: TileMap, lo: Any, hi: Any, closed: bool) -> tuple[int, int, int, int]:
    """The grid rows ``r0..r1`` and columns ``c0..c1`` (clamped to the grid; empty when
    ``r0 > r1`` or ``c0 > c1``) of the tiles whose squares meet the box ``lo``-``hi``: closed
    (touching counts) or open (a tile the box only touches is left out)."""
    (ox, oy), (w, h) = tiles.origin, tiles.cell_size
    rows, cols = tiles.solid.shape

    def last(x: float) -> int:
        return math.floor(x) if closed else math.ceil(x) - 1

    return (max(0, math.floor((lo[1] - oy) / h)), min(rows - 1, last((hi[1] - oy) / h)),
            max(0, math.floor((lo[0] - ox) / w)), min(cols - 1, last((hi[0] - ox) / w)))


def _box_clear(lo: tuple[float, float], hi: tuple[float, float], tiles: TileMap) -> bool:
    """Whether the box ``lo``-``hi``, shrunk by the clearance at its size and place, meets no
    solid tile's square (then a shape inside it overlaps none: a cheap sure answer; False
    says nothing)."""
    e = CLEARANCE_TOLERANCE * max(*(abs(c) for c in lo), *(abs(c) for c in hi),
                                  hi[0] - lo[0], hi[1] - lo[1])
    r0, r1, c0, c1 = _tile_span(tiles, (lo[0] + e, lo[1] + e), (hi[0] - e, hi[1] - e), False)
    return c0 > c1 or r0 > r1 or not bool(tiles.solid[r0:r1 + 1, c0:c1 + 1].any())


def _tile_boxes_near(tiles: TileMap, box: AABB) -> list[AABB]:
    """The solid tiles' squares that meet ``box`` (closed: touching counts)."""
    r0, r1, c0, c1 = _tile_span(tiles, box.min, box.max, True)
    return [AABB(tiles.corner(c, r), tiles.corner(c + 1, r + 1))
            for r in range(r0, r1 + 1) for c in range(c0, c1 + 1) if tiles.solid[r, c]]


def _leave_along(shape: Shape, tiles: TileMap, u: Vec2) -> float | None:
    """The least ``s >= 0`` at which ``shape`` moved by ``s * u`` overlaps no solid tile
    deeper than its clearance, or None past the cap.

    Each tile's overlaps along the line are one interval (a convex shape and a square), so
    from ``s`` every tile still overlapped is left at its interval's end, found exactly by a
    sweep back from beyond it; ``s`` moves to the farthest of those ends and the tiles are
    tested again. Each round passes at least one tile for good, so the tiles the shape's path
    crosses bound the rounds.
    """
    rows, cols = tiles.solid.shape
    box = shape.aabb
    # from beyond a tile (farther than the shape's size and the tile's together), back along -u
    far = 2.0 * (max(b - a for a, b in zip(box.min, box.max)) + math.hypot(*tiles.cell_size))
    s = 0.0
    for _ in range(2 * (rows + cols) + 4):
        moved = shape.translated(u * s)  # type: ignore[attr-defined]
        clear = _clearance(moved)
        ends = []
        for tile in _tile_boxes_near(tiles, moved.aabb):
            c = contact(moved, tile)
            if c is None or c.depth <= clear:
                continue
            back = sweep(moved.translated(u * far), u * -far, tile)
            ends.append(s + far * (1.0 - back.fraction) if back is not None else s)
        if not ends:
            return s
        nxt = max(ends)
        if not nxt > s:
            return None
        s = nxt
    return None


def _contact_raw(shape: Any, tiles: TileMap) -> tuple[Any, ...]:
    """:func:`contact_tilemap` as the contact family's flat tuple."""
    if shape.dim != 2:
        return UNSUPPORTED
    c = contact_tilemap(shape, tiles)
    return contact_raw2(None if c is None else make_contact(c[0], c[1], c[2]))


# ------------------------------------------------------------------------- closest points

def _closest_points_tilemap(shape: Any, tiles: TileMap) -> tuple[float, ...]:
    """The closest-points family's answer: 0 and a common point when ``shape`` touches or
    overlaps the solid region, else the nearest outline segment's answer, searched in boxes
    that double from a cell (at most enough doublings to cover the map)."""
    if isinstance(shape, PointOperand):
        p = shape.center
        if tiles.contains_closed(p):
            return (0.0, p[0], p[1], 0.0, p[0], p[1], 0.0)
    else:
        c = contact_tilemap(shape, tiles)
        if c is not None:
            ref = reference_point(shape)
            common = c[2] if not tiles.contains(ref) else ref
            return (0.0, common[0], common[1], 0.0, common[0], common[1], 0.0)
    lo, hi = _box_of(shape)
    chains = tiles.chains()
    if not chains:
        raise ValueError("tile_map has no solid tile: there is no distance to it")
    reach = max(tiles.cell_size)
    grid = tiles.aabb
    extent = max(max(hi[0], grid.max[0]) - min(lo[0], grid.min[0]),
                 max(hi[1], grid.max[1]) - min(lo[1], grid.min[1]))
    best: tuple[float, ...] | None = None
    for _ in range(max(2, math.ceil(math.log2(max(extent / reach, 1.0))) + 3)):
        for k, i in segments_near(tiles, lo, hi, reach):
            r = closest_points_segment(shape, chains[k].segments[i])
            if best is None or r[0] < best[0]:
                best = r
        if best is not None and best[0] <= reach:
            return best
        reach = 2.0 * reach if best is None else max(2.0 * reach, best[0])
    assert best is not None  # the last box covers the whole map
    return best


# -------------------------------------------------------------------------------------- sweep

def _unit(rel: Vec2) -> tuple[float, float, float]:
    """``rel`` as a unit direction and its length (+x for no motion)."""
    length = rel.length()
    if length == 0.0:
        return 1.0, 0.0, 0.0
    return rel[0] / length, rel[1] / length, length


def _cast_edge(shape: Shape, rel: Vec2, ends: tuple[float, float, float, float], td: float,
               mf: float) -> _Found | None:
    """``shape`` (a segment, capsule or polygon: balls and boxes are cast by the compiled
    :func:`swept._kernels.tilemap.sweep_segments`) moved by ``rel`` against one outline
    segment (its ``ends``), in closed form: (fraction, normal out of the segment, point on it,
    started inside) or None."""
    ref = reference_point(shape)
    dx, dy, length = _unit(rel)
    # a touch exactly at the motion's end is a hit (the unit direction rounds its distance)
    reach = length * mf * (1.0 + REACH_ROUNDING)
    ax, ay, bx, by = ends
    ox, oy = ref
    core, radius = shape_core(shape)
    radius += td
    rel_core = core - np.asarray(ref, dtype=np.float64)
    pts = np.vstack((np.array((ax, ay)) - rel_core, np.array((bx, by)) - rel_core))
    hull: Polygon | None = None
    try:
        hull = Polygon.hull(pts)
    except ValueError:
        # collinear (to the polygon's own tolerance): the segment case below
        hull = None
    if hull is None:
        # collinear (a core along the segment): a capsule between the two points farthest apart
        e = pts - pts[0]
        along = e @ e[int(np.argmax(np.einsum("ij,ij->i", e, e)))]
        p0, p1 = pts[int(np.argmin(along))], pts[int(np.argmax(along))]
        res = ray_capsule2(ox, oy, dx, dy, p0[0], p0[1], p1[0], p1[1], radius, reach)
    else:
        v = view(hull)
        assert v.normals is not None
        res = ray_rounded_polygon(ox, oy, dx, dy, v.core, v.normals, radius, reach, False)
    t, _px, _py, nx, ny, inside = res
    if t < 0.0:
        return None
    normal = Vec2(nx + 0.0, ny + 0.0)
    if inside:
        x, y, _t = closest_on_segment2(ox, oy, ax, ay, bx, by)
        return 0.0, normal, Vec2(x, y), True
    fraction = min(t / length, mf) if length > 0.0 else 0.0
    # the mover's core point deepest toward the segment (least along the normal)
    k = int(np.argmin(core @ np.array((nx, ny))))
    px, py = float(core[k, 0]), float(core[k, 1])
    # at the moment of contact, less the rounding: where it touches the segment
    qx = px + rel[0] * fraction - nx * radius
    qy = py + rel[1] * fraction - ny * radius
    x, y, _t = closest_on_segment2(qx, qy, ax, ay, bx, by)
    return fraction, normal, Vec2(x, y), False


def sweep_tilemap(shape: Shape, rel: Vec2, tiles: TileMap, td: float, mf: float
                  ) -> _Found | None:
    """The sweep family's answer for ``shape`` moved by ``rel`` against the map: the earliest
    outline hit, its normal in the segment's Voronoi region; a start that overlaps the map (or
    lies within ``td``) hits at 0 with the contact's normal."""
    chains = tiles.chains()
    box = shape.aabb
    ref = reference_point(shape)
    margin = query_margin(tiles, box.min, box.max, rel, td)
    best: _Found | None = None
    started = tiles.contains_closed(ref)
    if not started and isinstance(shape, (Circle, AABB)):
        # a ball or a box: the cells on its way, their segments and the casts in one compiled
        # call, which also works out the winner's point; the record from the winner alone
        if isinstance(shape, Circle):
            r, hx, hy = shape.radius + td, 0.0, 0.0
        else:
            r, hx, hy = td, shape.max[0] - ref[0], shape.max[1] - ref[1]
        fraction, i, nx, ny, qx, qy, inside = sweep_segments(
            *_index(tiles).view, box.min[0], box.min[1], box.max[0], box.max[1], margin,
            rel[0], rel[1], ref[0], ref[1], r, hx, hy, mf, isinstance(shape, AABB))
        if i >= 0:
            normal = Vec2(nx, ny)
            if inside:
                started = True
                best = (0.0, normal, Vec2(qx, qy), True)
            else:
                c, k = _index(tiles).owner[i]
                n, join = chains[c].region_normal(
                    k, normal, ref, _outward(chains[c], k))  # type: ignore[arg-type]
                best = (fraction, n if join is not None else normal, Vec2(qx, qy), False)
    elif not started:
        for c, i in segments_swept(tiles, box.min, box.max, rel, margin):
            chain = chains[c]
            ends = cut_ends(chain.segments[i], box.min, box.max, rel, margin)
            if ends is None:
                continue
            found = _cast_edge(shape, rel, ends, td, mf)
            if found is None or (best is not None and found[0] >= best[0]):
                continue
            if found[3]:
                started = True
                best = found
                break
            fraction, normal, point, _inside = found
            n, join = chain.region_normal(
                i, normal, ref, _outward(chain, i))  # type: ignore[arg-type]
            best = (fraction, n if join is not None else normal, point, False)
    if started:
        # touching, overlapping or within td at the start: the shortest way out
        way_out = contact_tilemap(shape, tiles)
        if way_out is not None:
            return 0.0, way_out[0], way_out[2], True
        assert best is not None  # only within td of a segment: its own answer
        return best
    return best


def _sweep_map_at(tiles: TileMap, rel: Vec2, shape: Shape, td: float, mf: float
                  ) -> _Found | None:
    """The reversed pair: the map moving by ``rel`` against a still shape is the shape moving
    by ``-rel`` against the map, the normal reversed and the point carried by the map."""
    found = sweep_tilemap(shape, -rel, tiles, td, mf)
    if found is None:
        return None
    fraction, normal, point, inside = found
    return fraction, Vec2(-normal[0] + 0.0, -normal[1] + 0.0), point + rel * fraction, inside


# ---------------------------------------------------------------------------- registration

_MOVERS: tuple[type, ...] = (Circle, Segment, Capsule, AABB, Polygon)
for _cls in _MOVERS:
    CONTACT.register((_cls, TileMap), _contact_raw, flip=True)
    SWEEP.register((_cls, TileMap), sweep_tilemap)
    SWEEP.register((TileMap, _cls), _sweep_map_at)
for _operand in (PointOperand, *_MOVERS):
    CLOSEST_POINTS.register((_operand, TileMap), _closest_points_tilemap, flip=True)
