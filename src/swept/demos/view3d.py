"""A small software 3D renderer for the demos' 3D views, on pygame-ce.

A perspective :class:`Camera` maps world points (y up) to window pixels, and a
:class:`Frame3D` collects primitives (flat-shaded quads, lines, dashed lines, arrows, spheres,
rings) and draws them far to near (the painter's algorithm: enough for the demos' few, convex,
non-intersecting pieces). Only the 3D views import it; the models stay pure Python.
"""

from __future__ import annotations

import math
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field

import pygame

from .view_common import Color

__all__ = ["Camera", "Frame3D", "LIGHT"]

Vec = tuple[float, float, float]
#: The direction the light comes from (unit), for the quads' and spheres' shading.
LIGHT: Vec = (-0.3 / 0.9899494936611666, 0.8 / 0.9899494936611666,
              0.5 / 0.9899494936611666)
#: The least a face is lit (the share of its colour in full shade).
AMBIENT = 0.35
#: Points nearer the camera than this (along its view) are not drawn.
NEAR = 0.05


def _sub(a: Sequence[float], b: Sequence[float]) -> Vec:
    return a[0] - b[0], a[1] - b[1], a[2] - b[2]


def _dot(a: Sequence[float], b: Sequence[float]) -> float:
    return a[0] * b[0] + a[1] * b[1] + a[2] * b[2]


def _cross(a: Sequence[float], b: Sequence[float]) -> Vec:
    return a[1] * b[2] - a[2] * b[1], a[2] * b[0] - a[0] * b[2], a[0] * b[1] - a[1] * b[0]


def _unit(a: Sequence[float]) -> Vec:
    n = math.sqrt(_dot(a, a))
    return a[0] / n, a[1] / n, a[2] / n


def shade(color: Color, normal: Sequence[float]) -> Color:
    """``color`` lit by :data:`LIGHT` on a face with this unit ``normal`` (both sides lit)."""
    k = AMBIENT + (1.0 - AMBIENT) * abs(_dot(normal, LIGHT))
    return int(color[0] * k), int(color[1] * k), int(color[2] * k)


class Camera:
    """A perspective camera at ``eye`` looking at ``target``, ``fov`` degrees top to bottom,
    for a window of ``size`` pixels (y up in the world, y down on the screen)."""

    def __init__(self, eye: Sequence[float], target: Sequence[float],
                 size: Sequence[int], fov: float = 45.0,
                 up: Sequence[float] = (0.0, 1.0, 0.0)) -> None:
        self.eye: Vec = (float(eye[0]), float(eye[1]), float(eye[2]))
        self.forward = _unit(_sub(target, eye))
        self.right = _unit(_cross(self.forward, up))
        self.up = _cross(self.right, self.forward)
        #: pixels per unit at distance 1 along the view
        self.focal = size[1] / 2.0 / math.tan(math.radians(fov) / 2.0)
        self.center = (size[0] / 2.0, size[1] / 2.0)

    def depth(self, p: Sequence[float]) -> float:
        """How far ``p`` lies in front of the camera, along its view."""
        return _dot(_sub(p, self.eye), self.forward)

    def project(self, p: Sequence[float]) -> tuple[float, float] | None:
        """``p`` in window pixels, or None when it is not in front of the camera."""
        v = _sub(p, self.eye)
        z = _dot(v, self.forward)
        if z < NEAR:
            return None
        return (self.center[0] + self.focal * _dot(v, self.right) / z,
                self.center[1] - self.focal * _dot(v, self.up) / z)

    def pixels(self, size: float, p: Sequence[float]) -> float:
        """How many pixels a length ``size`` spans at ``p`` (square to the view)."""
        return self.focal * size / max(self.depth(p), NEAR)


@dataclass
class Frame3D:
    """One frame's primitives, drawn far to near by :meth:`draw`."""

    camera: Camera
    items: list[tuple[float, int, Callable[[pygame.Surface], object]]] = field(
        default_factory=list)

    def _add(self, depth: float, paint: Callable[[pygame.Surface], object]) -> None:
        # (the count keeps equal depths in the order they were added)
        self.items.append((depth, len(self.items), paint))

    def quad(self, corners: Sequence[Sequence[float]], color: Color) -> None:
        """A flat polygon, shaded by its normal."""
        pts = [self.camera.project(c) for c in corners]
        if any(p is None for p in pts):
            return
        n = _cross(_sub(corners[1], corners[0]), _sub(corners[2], corners[0]))
        tint = shade(color, _unit(n)) if _dot(n, n) > 0.0 else color
        depth = sum(self.camera.depth(c) for c in corners) / len(corners)
        self._add(depth, lambda s: pygame.draw.polygon(s, tint, pts))  # type: ignore[arg-type]

    def box(self, lo: Sequence[float], hi: Sequence[float], color: Color) -> None:
        """An axis-aligned box: its six faces."""
        x = (lo[0], hi[0])
        y = (lo[1], hi[1])
        z = (lo[2], hi[2])
        for axis in range(3):
            for side in range(2):
                corners = []
                for u, v in ((0, 0), (1, 0), (1, 1), (0, 1)):
                    c = [0.0, 0.0, 0.0]
                    c[axis] = (x, y, z)[axis][side]
                    c[(axis + 1) % 3] = (x, y, z)[(axis + 1) % 3][u]
                    c[(axis + 2) % 3] = (x, y, z)[(axis + 2) % 3][v]
                    corners.append(c)
                self.quad(corners, color)

    def line(self, a: Sequence[float], b: Sequence[float], color: Color, width: int = 1,
             dashed: bool = False, on_top: bool = False) -> None:
        """A line from ``a`` to ``b`` (skipped where either end is behind the camera;
        ``on_top``: over every face, as a path drawn on a floor)."""
        pa, pb = self.camera.project(a), self.camera.project(b)
        if pa is None or pb is None:
            return
        depth = -math.inf if on_top else min(self.camera.depth(a), self.camera.depth(b))
        if not dashed:
            self._add(depth, lambda s: pygame.draw.line(s, color, pa, pb, width))
            return
        from .view_common import draw_dashed_line

        self._add(depth, lambda s: draw_dashed_line(s, pa, pb, color))

    def arrow(self, a: Sequence[float], b: Sequence[float], color: Color,
              width: int = 3) -> None:
        """An arrow from ``a`` to ``b``, its head drawn in the screen's plane; nothing when
        it is shorter than a few pixels (a zero part of a split simply disappears)."""
        pa, pb = self.camera.project(a), self.camera.project(b)
        if pa is None or pb is None:
            return
        dx, dy = pb[0] - pa[0], pb[1] - pa[1]
        length = math.hypot(dx, dy)
        if length < 4.0:
            return
        ux, uy = dx / length, dy / length
        head = min(16.0, length * 0.4)
        back = (pb[0] - ux * head, pb[1] - uy * head)
        wing = head * 0.45
        left = (back[0] - uy * wing, back[1] + ux * wing)
        right = (back[0] + uy * wing, back[1] - ux * wing)
        depth = min(self.camera.depth(a), self.camera.depth(b)) - 1e-3

        def paint(s: pygame.Surface) -> None:
            pygame.draw.line(s, color, pa, back, width)
            pygame.draw.polygon(s, color, [pb, left, right])

        self._add(depth, paint)

    def sphere(self, center: Sequence[float], radius: float, color: Color,
               outline: int = 0, on_top: bool = False) -> None:
        """A sphere: a disc of its projected size, lit on the light's side (``outline`` > 0:
        only its outline, that many pixels wide; ``on_top``: drawn over everything, as a
        marker that must show even inside a thin wall)."""
        p = self.camera.project(center)
        if p is None:
            return
        r = self.camera.pixels(radius, center)
        depth = -math.inf if on_top else self.camera.depth(center)
        if outline:
            self._add(depth, lambda s: pygame.draw.circle(s, color, p, r, outline))
            return
        dark = shade(color, (0.0, 0.0, 0.0))
        # the lit spot, toward the light as the screen sees it
        lx, ly = _dot(LIGHT, self.camera.right), -_dot(LIGHT, self.camera.up)

        def paint(s: pygame.Surface) -> None:
            pygame.draw.circle(s, dark, p, r)
            pygame.draw.circle(s, color, (p[0] + lx * r * 0.25, p[1] + ly * r * 0.25), r * 0.72)

        self._add(depth, paint)

    def draw(self, surface: pygame.Surface) -> None:
        """Paint every primitive, the farthest first."""
        for _depth, _order, paint in sorted(self.items, key=lambda item: (-item[0], item[1])):
            paint(surface)
