"""Debug drawing on a pygame-ce surface, as ``pymunk.pygame_util`` does for pymunk.

``DrawOptions(surface, y_up=False, scale=1.0, offset=(0, 0))`` maps a world point ``(x, y)``
to the pixel ``(offset_x + scale x, offset_y + scale y)`` with y down (screen coordinates,
swept's 2D convention), or to ``(offset_x + scale x, height - (offset_y + scale y))`` with
``y_up=True`` (math coordinates: the world's origin at the bottom-left corner). Its methods
draw:

- :meth:`DrawOptions.draw`: any 2D shape, a ``Chain``, a ``TileMap``, a ``World`` (sensors as
  outlines in their own colour), a ``Simulation`` or ``Body``, a ``Ray``, a ``RayHit`` or
  ``SweepHit`` or ``Collision`` (the point and its normal), a ``Contact`` or ``Manifold``
  (points, normal and depths), a ``MoveResult``, a ``RayBatch``, ``SweepBatch`` or
  ``ContactBatch`` (each hit), or a list of these;
- :meth:`DrawOptions.draw_ray`: a ray up to its hit, the hit and its normal;
- :meth:`DrawOptions.draw_sweep`: the volume a shape sweeps, the shape at the start, at the
  end and at the time of impact, the contact point and normal;
- :meth:`DrawOptions.draw_move`: a ``move_and_slide`` path through each slide.

The geometry is :mod:`swept._draw`'s, shared with :mod:`swept.plot`; this module only turns
its marks into ``pygame.draw`` calls. pygame-ce is imported here alone (``pip install
swept[demos]``).
"""

from __future__ import annotations

import math
from typing import Any

import numpy as np

from . import _draw
from .vec import Vec2, as_vec2

__all__ = ["DrawOptions", "COLORS"]

#: Each role's default colour (see :data:`swept._draw.COLORS`).
COLORS = _draw.COLORS


def _pygame() -> Any:
    """pygame, imported on first use, or an ImportError naming the extra."""
    try:
        import pygame
    except ImportError as exc:  # pragma: no cover - the test environment has pygame-ce
        raise ImportError("swept.pygame_util needs pygame-ce: pip install swept[demos]") from exc
    return pygame


class DrawOptions:
    """Draws swept's things onto a pygame-ce ``surface`` (see the module's docstring).

    ``scale``: pixels per world unit (> 0). ``offset``: the pixel of the world's origin, from
    the top-left corner (y down) or the bottom-left corner (``y_up=True``). ``colors``: a dict
    of role -> (r, g, b) overriding :data:`COLORS`. ``width``: outline width in pixels.
    """

    def __init__(self, surface: Any, *, y_up: bool = False, scale: float = 1.0,
                 offset: Any = (0.0, 0.0), colors: dict[str, Any] | None = None,
                 width: int = 1) -> None:
        """Check the options and keep them (see the class docstring)."""
        pygame = _pygame()
        if not isinstance(surface, pygame.Surface):
            raise TypeError(f"surface must be a pygame.Surface, got {type(surface).__name__}")
        if not isinstance(y_up, bool):
            raise TypeError(f"y_up must be True or False, got {y_up!r}")
        if isinstance(width, bool) or not isinstance(width, int) or not 1 <= width <= 64:
            raise ValueError(f"width must be a whole number of pixels from 1 to 64, got "
                             f"{width!r}")
        self.surface = surface
        self.y_up = y_up
        self.scale = _draw.check_scale(scale, "scale")
        self.offset = as_vec2(offset, "offset")
        #: role -> (r, g, b): the colour of each kind of mark (see :data:`COLORS`)
        self.colors = _draw.colors_with(colors)
        self.width = width

    # ------------------------------------------------------------------ the transform

    def to_screen(self, point: Any) -> tuple[float, float]:
        """The pixel (x, y) of a world point."""
        x, y = point[0], point[1]
        sx = self.offset[0] + self.scale * x
        sy = self.offset[1] + self.scale * y
        if self.y_up:
            sy = self.surface.get_height() - sy
        return (float(sx), float(sy))

    def to_world(self, pixel: Any) -> Vec2:
        """The world point at a pixel (the inverse of :meth:`to_screen`)."""
        px, py = as_vec2(pixel, "pixel")
        if self.y_up:
            py = self.surface.get_height() - py
        return Vec2((px - self.offset[0]) / self.scale, (py - self.offset[1]) / self.scale)

    def _pixels(self, points: np.ndarray) -> list[tuple[int, int]]:
        """World points ``(n, 2)`` to pixels, each to the nearest (pygame truncates, which
        would shift every shape up and left)."""
        ox, oy = self.offset
        k = self.scale
        # in plain Python: a mark has a few points, where numpy's calls cost most
        if self.y_up:
            h = self.surface.get_height()
            return [(math.floor(ox + k * x + 0.5), math.floor(h - (oy + k * y) + 0.5))
                    for x, y in points.tolist()]
        return [(math.floor(ox + k * x + 0.5), math.floor(oy + k * y + 0.5))
                for x, y in points.tolist()]

    def _view(self) -> _draw.View:
        """The surface's area in the world, a few pixels wider, with a pixel as the unit."""
        w, h = self.surface.get_size()
        a, b = self.to_world((-4.0, -4.0)), self.to_world((w + 4.0, h + 4.0))
        lo = (min(a[0], b[0]), min(a[1], b[1]))
        hi = (max(a[0], b[0]), max(a[1], b[1]))
        return _draw.View(lo, hi, 1.0 / self.scale, clip=True)

    # ------------------------------------------------------------------ drawing

    def draw(self, thing: Any, *, color: Any = None, fill: bool = True) -> None:
        """Draw ``thing`` (a shape, Chain, TileMap, World, Simulation, Body, Ray, RayHit,
        SweepHit, Collision, Contact, Manifold, MoveResult, a batch's hits, or a list of
        these). ``color`` paints every mark of this call in one (r, g, b); ``fill=False``
        draws outlines only."""
        if not isinstance(fill, bool):
            raise TypeError(f"fill must be True or False, got {fill!r}")
        c = _draw.check_color(color)
        self._render(_draw.marks(thing, self._view(), fill=fill), c)

    def draw_ray(self, ray: Any, hit: Any = None, *, color: Any = None) -> None:
        """Draw a ray up to ``hit`` (a RayHit, or None: to its end or the surface's edge), the
        hit point and its normal."""
        c = _draw.check_color(color)
        self._render(_draw.ray_marks(ray, hit, self._view()), c)

    def draw_sweep(self, shape: Any, displacement: Any, hit: Any = None, *,
                   color: Any = None) -> None:
        """Draw a sweep of ``shape`` by ``displacement``: the volume it passes through, the
        shape at the start and the end and, with ``hit`` (a SweepHit), at the time of impact,
        with the contact point and normal."""
        c = _draw.check_color(color)
        self._render(_draw.sweep_marks(shape, displacement, hit, self._view()), c)

    def draw_move(self, result: Any, start: Any = None, *, color: Any = None) -> None:
        """Draw a ``move_and_slide`` result: with ``start`` (the shape before the move) the
        path through each slide; the shape where it ends; each surface met and its normal."""
        c = _draw.check_color(color)
        self._render(_draw.move_marks(result, start, self._view()), c)

    def _render(self, found: list[_draw.Mark], color: tuple[int, int, int] | None) -> None:
        """Each mark as a pygame.draw call."""
        pygame = _pygame()
        surf = self.surface
        for m in found:
            rgb = color if color is not None else self.colors[m.role]
            pts = self._pixels(m.points)
            if m.kind == "polygon":
                if m.fill:
                    pygame.draw.polygon(surf, rgb if m.solid else _draw.fill_color(rgb), pts)
                if m.outline:
                    pygame.draw.polygon(surf, rgb, pts, self.width)
            elif m.kind == "polyline":
                if len(pts) >= 2:
                    pygame.draw.lines(surf, rgb, m.closed, pts, self.width)
            elif m.kind == "circle":
                r = m.radius * self.scale
                if m.fill:
                    pygame.draw.circle(surf, _draw.fill_color(rgb), pts[0], r)
                # at least a pixel: a circle smaller than one still shows where it is
                pygame.draw.circle(surf, rgb, pts[0], max(r, 1.0), min(self.width,
                                                                      max(1, int(r))))
            else:  # a dot, its radius in pixels
                pygame.draw.circle(surf, rgb, pts[0], m.radius)
