"""shapely interop: swept shapes from shapely geometries, and shapely geometries back.

Level outlines, map data and GIS layers often come as shapely geometries (from GeoJSON, WKT,
a shapefile through GeoPandas). :func:`from_shapely` turns them into swept shapes and
:func:`add_shapely` fills a :class:`~swept.World` with them; :func:`to_shapely` goes back, to
draw, measure or combine shapes with shapely's own operations. shapely is an optional
dependency (``pip install swept[shapely]``), imported on first use.

What each geometry becomes (2D only: a geometry with z coordinates is a ``ValueError``):

============================  ===============================================================
shapely                       swept
============================  ===============================================================
``Point``                     :class:`~swept.Circle` of ``radius`` (``radius=`` is required)
``LineString``, 2 points      :class:`~swept.Segment`
``LineString``, more          open :class:`~swept.Chain`; a closed one (last point == first)
                              a closed ``Chain`` (``loop=True``), as a ``LinearRing``
``LinearRing``                closed :class:`~swept.Chain` (``loop=True``)
convex ``Polygon``            :class:`~swept.Polygon` (an axis-aligned rectangle stays a
                              Polygon, or is an :class:`~swept.AABB` with ``prefer_box=True``)
non-convex ``Polygon``        closed :class:`~swept.Chain` of its outer ring: a *surface*, so
                              a query from inside meets the walls, not a solid (swept's solid
                              shapes are convex; split the polygon into convex parts, for
                              example with ``shapely.constrained_delaunay_triangles``, for a
                              solid)
``Polygon`` with holes        ``ValueError`` (take ``polygon.boundary`` for its rings as
                              chains, or split it into convex parts)
``Multi*``,                   a flat ``tuple`` of the above, in order (nested collections
``GeometryCollection``        flattened; empty parts skipped)
============================  ===============================================================

Repeated consecutive points (which shapely keeps) are dropped; other coordinates are taken
exactly, so ``from_shapely(to_shapely(shape)) == shape`` for a segment, chain or polygon
(a polygon's corners are stored in swept's canonical order, collinear middle corners dropped).

:func:`to_shapely` is exact for :class:`~swept.Segment`, :class:`~swept.Chain`,
:class:`~swept.Polygon` and a 2D :class:`~swept.AABB`; a :class:`~swept.Circle` or a 2D
:class:`~swept.Capsule` is *approximated* by a polygon inscribed in it
(``buffer(radius, quad_segs=resolution)``: ``4 * resolution`` segments for a full circle;
its area falls short of the disc's by about ``(pi / (2 * resolution))**2 / 6`` of it), and
one of radius 0 is its point or line.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from ._optional import require
from .chain import Chain
from .constants import SHAPELY_MAX_QUAD_SEGMENTS, SHAPELY_QUAD_SEGMENTS
from .shapes import AABB, Capsule, Circle, Plane, Polygon, Ray, Segment, Shape, Sphere
from .vec import as_finite

__all__ = ["from_shapely", "to_shapely", "add_shapely"]

#: what from_shapely makes of one part
Converted = Shape | Chain


def _shapely(purpose: str) -> Any:
    """The shapely module, or an ImportError naming the extra."""
    return require("shapely", "shapely", purpose)


def _flag(value: Any, name: str) -> bool:
    """A strict bool argument (TypeError naming it otherwise)."""
    if not isinstance(value, bool):
        raise TypeError(f"{name} must be True or False, not {type(value).__name__}")
    return value


def _distinct_run(coords: Any) -> list[tuple[float, float]]:
    """The points of a coordinate sequence with repeated consecutive points dropped."""
    out: list[tuple[float, float]] = []
    for x, y in coords:
        p = (float(x), float(y))
        if not out or p != out[-1]:
            out.append(p)
    return out


def _ring_points(coords: Any) -> list[tuple[float, float]]:
    """A closed ring's distinct points, once each: the closing repeat of the first dropped."""
    pts = _distinct_run(coords)
    while len(pts) > 1 and pts[-1] == pts[0]:
        pts.pop()
    return pts


def _is_axis_box(poly: Polygon) -> bool:
    """Whether a convex polygon is an axis-aligned rectangle (its four corners take two xs and
    two ys: four distinct points of ``{x0, x1} x {y0, y1}`` are all its corners)."""
    pts = poly.points
    return len(pts) == 4 and len({p[0] for p in pts}) == 2 and len({p[1] for p in pts}) == 2


def _polygon(g: Any, name: str, prefer_box: bool) -> Converted:
    """A shapely Polygon without holes: a convex Polygon (or AABB), else a closed Chain."""
    if len(g.interiors) > 0:
        raise ValueError(
            f"{name}: a Polygon with holes ({len(g.interiors)}) has no swept shape; pass "
            f"its .boundary for the rings as closed chains, or split it into convex parts"
        )
    shapely = _shapely("swept.from_shapely")
    if not shapely.is_valid(g):
        raise ValueError(f"{name}: the Polygon is not valid ({shapely.is_valid_reason(g)}); "
                         f"shapely.make_valid can repair it")
    ring = _ring_points(g.exterior.coords)
    try:
        poly = Polygon(ring)
    except ValueError:
        # not convex (or a sliver thinner than swept's collinear tolerance): its outline
        return Chain(ring, loop=True)
    if prefer_box and _is_axis_box(poly):
        xs = [p[0] for p in poly.points]
        ys = [p[1] for p in poly.points]
        return AABB((min(xs), min(ys)), (max(xs), max(ys)))
    return poly


def _one(g: Any, name: str, radius: float | None, prefer_box: bool) -> Converted:
    """One non-empty, non-collection geometry as a swept shape (errors name ``name``)."""
    kind = g.geom_type
    if kind == "Point":
        if radius is None:
            raise ValueError(f"{name}: a Point becomes a Circle and needs radius= (a Point "
                             f"alone has no size)")
        return Circle((float(g.x), float(g.y)), radius)
    if kind == "LinearRing":
        return Chain(_ring_points(g.coords), loop=True)
    if kind == "LineString":
        pts = _distinct_run(g.coords)
        if len(pts) < 2:
            raise ValueError(f"{name}: the LineString has zero length (all its points are "
                             f"the same)")
        if len(pts) >= 4 and pts[-1] == pts[0]:
            # closed: a ring, so its first point is a join, not two free ends
            return Chain(pts[:-1], loop=True)
        if len(pts) == 2:
            return Segment(pts[0], pts[1])
        return Chain(pts)
    if kind == "Polygon":
        return _polygon(g, name, prefer_box)
    raise TypeError(f"{name}: a {kind} has no swept shape")


def _check_2d(g: Any, name: str) -> None:
    """Refuse a geometry with z (or m) coordinates."""
    if g.has_z or getattr(g, "has_m", False):
        raise ValueError(f"{name} has 3D (z or m) coordinates; swept's shapely interop is 2D "
                         f"(shapely.force_2d drops them)")


def from_shapely(geometry: Any, *, radius: float | None = None,
                 prefer_box: bool = False) -> Converted | tuple[Converted, ...]:
    """A swept shape (or a flat tuple of them, for a collection) from a shapely geometry.

    See the module's table for what each geometry becomes. ``radius`` (>= 0) is the radius of
    the circles made from Points (required when there are Points, refused when there are
    none); ``prefer_box=True`` makes an axis-aligned rectangle an :class:`~swept.AABB`.
    Raises ValueError naming the part (``geometry.geoms[2]``) for an empty geometry, z
    coordinates, a Polygon with holes or an invalid one, and TypeError for a non-geometry.
    """
    shapely = _shapely("swept.from_shapely")
    if not isinstance(geometry, shapely.Geometry):
        raise TypeError(f"geometry must be a shapely geometry, not {type(geometry).__name__}")
    r = None if radius is None else as_finite(radius, "radius", minimum=0.0)
    box = _flag(prefer_box, "prefer_box")
    _check_2d(geometry, "geometry")
    single = not hasattr(geometry, "geoms")
    if single and geometry.is_empty:
        raise ValueError(f"geometry is empty ({geometry.geom_type} EMPTY): it has no shape")
    out: list[Converted] = []
    points = 0
    # depth first, in order: the stack holds (geometry, name) with the next part on top
    stack: list[tuple[Any, str]] = [(geometry, "geometry")]
    while stack:
        g, name = stack.pop()
        if hasattr(g, "geoms"):
            parts = list(g.geoms)
            stack.extend((parts[i], f"{name}.geoms[{i}]") for i in range(len(parts) - 1, -1, -1))
            continue
        if g.is_empty:
            continue
        points += g.geom_type == "Point"
        try:
            out.append(_one(g, name, r, box))
        except (ValueError, TypeError) as exc:
            text = str(exc)
            if text.startswith(name):
                raise
            raise type(exc)(f"{name}: {text}") from None
    if r is not None and points == 0:
        raise ValueError("radius is only for Points, and geometry has none")
    return out[0] if single else tuple(out)


def _resolution(value: Any) -> int:
    """``resolution``: an int in 1 .. SHAPELY_MAX_QUAD_SEGMENTS."""
    if isinstance(value, bool) or not isinstance(value, int):
        raise TypeError(f"resolution must be an int, not {type(value).__name__}")
    if not 1 <= value <= SHAPELY_MAX_QUAD_SEGMENTS:
        raise ValueError(f"resolution must be in 1 .. {SHAPELY_MAX_QUAD_SEGMENTS} (segments "
                         f"a quarter circle), got {value}")
    return value


def _to_one(shapely: Any, shape: Any, name: str, quad_segs: int) -> Any:
    """One swept shape (or a sequence of them) as a shapely geometry."""
    geom = shapely.geometry
    if isinstance(shape, Chain):
        pts = [tuple(p) for p in shape.points]
        return geom.LinearRing(pts) if shape.loop else geom.LineString(pts)
    if isinstance(shape, Segment):
        return geom.LineString([tuple(shape.a), tuple(shape.b)])
    if isinstance(shape, Polygon):
        return geom.Polygon([tuple(p) for p in shape.points])
    if isinstance(shape, Circle):
        centre = geom.Point(tuple(shape.center))
        return centre if shape.radius == 0.0 else centre.buffer(shape.radius,
                                                                quad_segs=quad_segs)
    if isinstance(shape, (AABB, Capsule)) and shape.dim != 2:
        raise ValueError(f"{name}: a 3D {type(shape).__name__} has no shapely form (shapely "
                         f"is 2D)")
    if isinstance(shape, AABB):
        (x0, y0), (x1, y1) = shape.min, shape.max
        return geom.box(x0, y0, x1, y1)
    if isinstance(shape, Capsule):
        core = (geom.Point(tuple(shape.a)) if shape.a == shape.b
                else geom.LineString([tuple(shape.a), tuple(shape.b)]))
        return core if shape.radius == 0.0 else core.buffer(shape.radius, quad_segs=quad_segs)
    if isinstance(shape, (list, tuple)):
        return geom.GeometryCollection([_to_one(shapely, s, f"{name}[{i}]", quad_segs)
                                        for i, s in enumerate(shape)])
    if isinstance(shape, (Sphere, Plane, Ray)):
        why = "it is unbounded" if isinstance(shape, Plane) else (
            "it is 3D" if isinstance(shape, Sphere) else "it is a query, not a shape")
        raise TypeError(f"{name}: a {type(shape).__name__} has no shapely form ({why})")
    raise TypeError(f"{name} must be a swept shape or a sequence of them, not "
                    f"{type(shape).__name__}")


def to_shapely(shape: Converted | Sequence[Converted], *,
               resolution: int = SHAPELY_QUAD_SEGMENTS) -> Any:
    """The shapely geometry of a 2D swept shape (a sequence: a ``GeometryCollection``).

    Exact for Segment (``LineString``), Chain (``LineString``, or ``LinearRing`` when
    closed), Polygon and AABB (``Polygon``). A Circle or Capsule is approximated by the
    polygon inscribed in it with ``resolution`` segments a quarter circle (shapely's
    ``quad_segs``; 1 .. :data:`~swept.constants.SHAPELY_MAX_QUAD_SEGMENTS`); radius 0 gives
    the ``Point`` or ``LineString`` itself. 3D shapes, planes and rays raise.
    """
    shapely = _shapely("swept.to_shapely")
    quad_segs = _resolution(resolution)
    return _to_one(shapely, shape, "shape", quad_segs)


def add_shapely(world: Any, geometry: Any, *, radius: float | None = None,
                prefer_box: bool = False, data: Any = None, **options: Any) -> list[int]:
    """Add every part of a shapely geometry to ``world`` (:func:`from_shapely` then
    :meth:`World.add <swept.World.add>` each); returns their handles, in order.

    ``data`` and the keyword ``options`` (``layer``, ``mask``, ``moving``, ``sensor``,
    ``one_way``) go to every ``add``. Everything is converted before anything is added, so a
    bad part leaves the world unchanged.
    """
    from .world import World

    if not isinstance(world, World):
        raise TypeError(f"world must be a swept World, not {type(world).__name__}")
    if world.dim not in (None, 2):
        raise ValueError(f"world is {world.dim}D; shapely geometries are 2D")
    got = from_shapely(geometry, radius=radius, prefer_box=prefer_box)
    parts = got if isinstance(got, tuple) else (got,)
    return [world.add(s, data, **options) for s in parts]
