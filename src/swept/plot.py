"""Debug drawing into a matplotlib ``Axes``, for notebooks and figures.

:func:`draw` takes what :meth:`swept.pygame_util.DrawOptions.draw` takes (any 2D shape, a
``Chain``, a ``TileMap``, a ``World``, a ``Simulation``, a ``Body``, a ``Ray``, a ``RayHit`` or
``SweepHit`` or ``Collision``, a ``Contact`` or ``Manifold``, a ``MoveResult``, a
``RayBatch``, ``SweepBatch`` or ``ContactBatch``, or a list of these);
:func:`draw_ray`, :func:`draw_sweep` and :func:`draw_move` draw a ray with its hit, a sweep and
a ``move_and_slide`` path. Each returns the artists it added.

Polygons and circles become ``matplotlib.patches.Polygon`` and ``Circle`` patches, lines and
points ``Line2D``, all in world coordinates (the axes' data coordinates). Unbounded things (a
half-plane, a ray with no end) are clipped to ``bounds`` or, by default, to the box of the
finite things drawn so far in these axes and in this call, grown by a tenth. Arrow and dot sizes
are fractions of that box. 3D things raise ``TypeError``.

``y_up=False`` inverts the y axis so a game scene (y down, swept's 2D convention) looks as it
does on screen; ``y_up=True`` shows y growing upwards, as plots do; None (the default) leaves
the axes as they are (y up in fresh axes). matplotlib
is imported here alone (``pip install swept[plot]``).
"""

from __future__ import annotations

import math
from typing import Any

from . import _draw
from .vec import as_vec2

__all__ = ["draw", "draw_ray", "draw_sweep", "draw_move", "PLOT_UNITS"]

#: The view box's diagonal, in view units: a normal is drawn 24 units long
#: (:data:`swept._draw.NORMAL_LENGTH`), 6% of the box's diagonal. A style default.
PLOT_UNITS = 400.0
#: How opaque a filled patch is inside (its outline is opaque). A style default.
PLOT_FILL_ALPHA = 0.35
#: How much the default box grows past the finite things on each side (a fraction of its size).
PLOT_PAD = 0.1


def _pyplot_parts() -> tuple[Any, Any, Any]:
    """matplotlib's Axes class, patches and lines modules, or ImportError naming the extra."""
    try:
        from matplotlib import lines, patches
        from matplotlib.axes import Axes
    except ImportError as exc:  # pragma: no cover - the test environment has matplotlib
        raise ImportError("swept.plot needs matplotlib: pip install swept[plot]") from exc
    return Axes, patches, lines


def _check_ax(ax: Any) -> None:
    """TypeError naming ``ax`` unless it is a 2D matplotlib Axes."""
    axes_cls, _, _ = _pyplot_parts()
    if not isinstance(ax, axes_cls):
        raise TypeError(f"ax must be a matplotlib Axes, got {type(ax).__name__}")
    if getattr(ax, "name", "") == "3d":
        raise TypeError("ax: a 3D Axes; swept's debug drawing is 2D")


def _view(ax: Any, probe: list[_draw.Mark], box: Any) -> _draw.View:
    """The view: ``box`` (lo, hi), or the finite marks' box and what the axes hold, padded."""
    if box is not None:
        try:
            lo, hi = as_vec2(box[0], "bounds[0]"), as_vec2(box[1], "bounds[1]")
        except (TypeError, IndexError) as exc:
            raise TypeError(f"bounds must be ((x_min, y_min), (x_max, y_max)), got "
                            f"{box!r}") from exc
        if not (lo[0] < hi[0] and lo[1] < hi[1]):
            raise ValueError(f"bounds: the low corner must be below the high one, got {box!r}")
        found = ((lo[0], lo[1]), (hi[0], hi[1]))
    else:
        found_or_none = _draw.bounds(probe)
        if ax.has_data():
            lim = ax.dataLim
            held = ((lim.x0, lim.y0), (lim.x1, lim.y1))
            if found_or_none is None:
                found_or_none = held
            else:
                a, b = found_or_none
                found_or_none = ((min(a[0], held[0][0]), min(a[1], held[0][1])),
                                 (max(b[0], held[1][0]), max(b[1], held[1][1])))
        if found_or_none is None:
            found_or_none = ((-1.0, -1.0), (1.0, 1.0))
        (x0, y0), (x1, y1) = found_or_none
        # a point or a line: a square box around it
        size = max(x1 - x0, y1 - y0) or max(abs(x0), abs(y0), 1.0)
        pad = PLOT_PAD * size
        found = ((x0 - pad, y0 - pad), (x1 + pad, y1 + pad))
    (x0, y0), (x1, y1) = found
    return _draw.View(found[0], found[1], math.hypot(x1 - x0, y1 - y0) / PLOT_UNITS)


def _probe() -> _draw.View:
    """A view with no box: unbounded things draw nothing (the finite things' box first)."""
    return _draw.View(None, None, 0.0)


def _render(ax: Any, found: list[_draw.Mark], color: Any, colors: Any, y_up: bool | None,
            aspect: bool) -> list[Any]:
    """Each mark as a patch or a line in ``ax``; the artists, in order."""
    if y_up is not None and not isinstance(y_up, bool):
        raise TypeError(f"y_up must be True, False or None, got {y_up!r}")
    if not isinstance(aspect, bool):
        raise TypeError(f"aspect must be True or False, got {aspect!r}")
    _, patches, lines = _pyplot_parts()
    one = _draw.check_color(color)
    table = _draw.colors_with(colors)
    out: list[Any] = []
    for m in found:
        rgb = one if one is not None else table[m.role]
        edge = tuple(c / 255.0 for c in rgb)
        face = (*edge, 1.0 if m.solid else PLOT_FILL_ALPHA) if m.fill else "none"
        pts = m.points
        artist: Any
        if m.kind == "polygon":
            artist = patches.Polygon(pts, closed=True, facecolor=face,
                                     edgecolor=edge if m.outline else "none",
                                     linewidth=1.0 if m.outline else 0.0)
            ax.add_patch(artist)
        elif m.kind == "circle":
            artist = patches.Circle(tuple(pts[0]), m.radius, facecolor=face, edgecolor=edge,
                                    linewidth=1.0)
            ax.add_patch(artist)
        elif m.kind == "polyline":
            xs, ys = list(pts[:, 0]), list(pts[:, 1])
            if m.closed:
                xs.append(xs[0])
                ys.append(ys[0])
            artist = lines.Line2D(xs, ys, color=edge, linewidth=1.0)
            ax.add_line(artist)
        else:
            artist = lines.Line2D([pts[0, 0]], [pts[0, 1]], color=edge, marker="o",
                                  markersize=m.radius * 1.5, linestyle="none")
            ax.add_line(artist)
        out.append(artist)
    if aspect:
        ax.set_aspect("equal", adjustable="datalim")
    if y_up is not None and y_up == ax.yaxis_inverted():
        ax.invert_yaxis()
    ax.autoscale_view()
    return out


def draw(ax: Any, thing: Any, *, color: Any = None, fill: bool = True, colors: Any = None,
         bounds: Any = None, y_up: bool | None = None, aspect: bool = True) -> list[Any]:
    """Draw ``thing`` into the matplotlib Axes ``ax`` (see the module's docstring); return
    the artists added. ``color``: one (r, g, b) for every mark; ``colors``: role -> (r, g, b)
    overrides; ``fill=False``: outlines only; ``bounds``: ((x_min, y_min), (x_max, y_max)),
    the box unbounded things are clipped to; ``aspect``: equal scales on x and y."""
    _check_ax(ax)
    if not isinstance(fill, bool):
        raise TypeError(f"fill must be True or False, got {fill!r}")
    v = _view(ax, _draw.marks(thing, _probe(), fill=fill), bounds)
    return _render(ax, _draw.marks(thing, v, fill=fill), color, colors, y_up, aspect)


def draw_ray(ax: Any, ray: Any, hit: Any = None, *, color: Any = None, colors: Any = None,
             bounds: Any = None, y_up: bool | None = None, aspect: bool = True) -> list[Any]:
    """Draw a ray up to ``hit`` (a RayHit, or None: to its end, clipped to the view), the hit
    point and its normal; return the artists added."""
    _check_ax(ax)
    v = _view(ax, _draw.ray_marks(ray, hit, _probe()), bounds)
    return _render(ax, _draw.ray_marks(ray, hit, v), color, colors, y_up, aspect)


def draw_sweep(ax: Any, shape: Any, displacement: Any, hit: Any = None, *, color: Any = None,
               colors: Any = None, y_up: bool | None = None, aspect: bool = True) -> list[Any]:
    """Draw a sweep of ``shape`` by ``displacement``: the volume it passes through, the shape
    at the start and the end and, with ``hit`` (a SweepHit), at the time of impact, with the
    contact point and normal; return the artists added."""
    _check_ax(ax)
    v = _view(ax, _draw.sweep_marks(shape, displacement, hit, _probe()), None)
    return _render(ax, _draw.sweep_marks(shape, displacement, hit, v), color, colors, y_up,
                   aspect)


def draw_move(ax: Any, result: Any, start: Any = None, *, color: Any = None,
              colors: Any = None, y_up: bool | None = None, aspect: bool = True) -> list[Any]:
    """Draw a ``move_and_slide`` result: with ``start`` (the shape before the move) the path
    through each slide; the shape where it ends; each surface met and its normal; return the
    artists added."""
    _check_ax(ax)
    v = _view(ax, _draw.move_marks(result, start, _probe()), None)
    return _render(ax, _draw.move_marks(result, start, v), color, colors, y_up, aspect)
