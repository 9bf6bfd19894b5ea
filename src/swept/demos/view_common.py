"""Shared pygame-ce plumbing for the demo views: the window loop, text, arrows, screenshots.

Only the ``view_*`` modules import this (and so pygame); the models never do.
"""

from __future__ import annotations

import math
from collections.abc import Callable, Sequence
from functools import lru_cache

import pygame

__all__ = [
    "BACKGROUND",
    "GRID",
    "TEXT",
    "GREY",
    "SILVER",
    "FPS",
    "MAX_FRAME",
    "font",
    "draw_grid",
    "draw_text",
    "draw_arrow",
    "draw_dashed_line",
    "render_offscreen",
    "save_png",
    "run_window",
]

#: The window's background.
BACKGROUND = (18, 21, 26)
#: The faint grid behind everything.
GRID = (28, 32, 39)
#: Readout text.
TEXT = (235, 238, 242)
#: The controls line and other quiet things.
GREY = (90, 100, 112)
#: Outlines and the second readout line.
SILVER = (150, 158, 170)
#: Frames a second the window aims for.
FPS = 60
#: The longest frame the loop passes on, s: a stall does not turn into a burst of steps.
MAX_FRAME = 0.05
#: The grid's spacing, px.
GRID_SPACING = 50
#: The readout font's size, px.
FONT_SIZE = 20

Color = tuple[int, int, int]
Point = tuple[float, float]


@lru_cache(maxsize=1)
def font() -> pygame.font.Font:
    """The readout font: pygame's default font (initialising pygame's font module)."""
    pygame.font.init()
    return pygame.font.Font(None, FONT_SIZE)


def draw_grid(surface: pygame.Surface) -> None:
    """A faint grid every 50 px."""
    w, h = surface.get_size()
    for x in range(0, w, GRID_SPACING):
        pygame.draw.line(surface, GRID, (x, 0), (x, h))
    for y in range(0, h, GRID_SPACING):
        pygame.draw.line(surface, GRID, (0, y), (w, y))


def draw_text(surface: pygame.Surface, text: str, at: Point, color: Color = TEXT) -> None:
    """One line of text with its top-left corner at ``at``."""
    surface.blit(font().render(text, True, color), at)


def draw_arrow(surface: pygame.Surface, start: Point, end: Point, color: Color,
               head: float = 9.0) -> None:
    """An arrow from ``start`` to ``end``, with a two-stroke head."""
    pygame.draw.line(surface, color, start, end, 2)
    dx, dy = end[0] - start[0], end[1] - start[1]
    length = math.hypot(dx, dy)
    if length == 0.0:
        return
    ux, uy = dx / length, dy / length
    size = min(head, 0.4 * length)
    for side in (1.0, -1.0):
        # the head's strokes: back along the shaft, and out to each side
        tip = (end[0] - ux * size - uy * side * size * 0.5,
               end[1] - uy * size + ux * side * size * 0.5)
        pygame.draw.line(surface, color, end, tip, 2)


def draw_dashed_line(surface: pygame.Surface, start: Point, end: Point, color: Color,
                     dash: float = 8.0, gap: float = 6.0) -> None:
    """A dashed line from ``start`` to ``end``."""
    dx, dy = end[0] - start[0], end[1] - start[1]
    length = math.hypot(dx, dy)
    if length == 0.0:
        return
    ux, uy = dx / length, dy / length
    s = 0.0
    while s < length:
        e = min(s + dash, length)
        pygame.draw.line(surface, color, (start[0] + ux * s, start[1] + uy * s),
                         (start[0] + ux * e, start[1] + uy * e))
        s = e + gap


def render_offscreen(draw: Callable[[pygame.Surface], None],
                     size: Sequence[int]) -> pygame.Surface:
    """Draw one frame onto a surface of ``size`` with no window (for headless screenshots)."""
    surface = pygame.Surface((int(size[0]), int(size[1])))
    draw(surface)
    return surface


def save_png(surface: pygame.Surface, path: str) -> None:
    """Save ``surface`` as a PNG file."""
    pygame.image.save(surface, path)


def run_window(title: str, size: Sequence[int], *,
               draw: Callable[[pygame.Surface], None],
               handle: Callable[[pygame.event.Event], bool],
               update: Callable[[float], object],
               frames: int | None = None, screenshot: str | None = None) -> int:
    """Open a window and run the frame loop: events (``handle`` returns False to quit), then
    ``update`` with the frame's seconds (at most :data:`MAX_FRAME`), then ``draw``.

    Stops at the window's close, when ``handle`` says so, or after ``frames`` frames; saves
    the last frame to ``screenshot`` (a PNG) if given. Returns the frames drawn.
    """
    pygame.display.init()
    pygame.font.init()
    try:
        screen = pygame.display.set_mode((int(size[0]), int(size[1])))
        pygame.display.set_caption(title)
        clock = pygame.time.Clock()
        drawn = 0
        running = True
        while running and (frames is None or drawn < frames):
            for event in pygame.event.get():
                if event.type == pygame.QUIT or not handle(event):
                    running = False
            dt = min(clock.tick(FPS) / 1000.0, MAX_FRAME)
            update(dt)
            draw(screen)
            pygame.display.flip()
            drawn += 1
        if screenshot is not None:
            save_png(screen, screenshot)
        return drawn
    finally:
        pygame.display.quit()
