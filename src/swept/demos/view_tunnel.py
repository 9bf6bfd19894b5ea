"""Tunnel's window: a thin pygame-ce view of :mod:`swept.demos.tunnel`.

Up and Down change the speed (15 m/s a press, 30 to 300), Left and Right move where the frames
land (0.05 of a frame a press, 0 to 0.95), Space sweeps between frames or not, Esc quits.
"""

from __future__ import annotations

import pygame

from .tunnel import GAP, RADIUS, WALL, Tunnel
from .view_common import (
    BACKGROUND,
    GREY,
    SILVER,
    TEXT,
    draw_dashed_line,
    draw_grid,
    draw_text,
    render_offscreen,
    run_window,
)

__all__ = ["WINDOW_SIZE", "TITLE", "CONTROLS", "SCALE", "handle_event", "draw", "draw_readout",
           "render", "main"]

#: The window's size, px.
WINDOW_SIZE = (1000, 700)
#: The window's title.
TITLE = "swept: Tunnel"
#: The controls line at the bottom of the window.
CONTROLS = "[Up] [Down] speed   [Left] [Right] where the frames land   [Space] sweep   [Esc] quit"
#: Pixels a metre.
SCALE = 80.0
#: Where the world's origin (the pane's centre) is in the window, px.
ORIGIN = (500.0, 360.0)

CAUGHT = (57, 211, 195)
MISSED = (255, 123, 114)
DIM = (72, 79, 88)
PANE = (139, 148, 158)


def _screen(x: float, y: float = 0.0) -> tuple[float, float]:
    """World metres (y up) to window pixels (y down)."""
    return ORIGIN[0] + x * SCALE, ORIGIN[1] - y * SCALE


def handle_event(model: Tunnel, event: pygame.event.Event) -> bool:
    """Answer one event: the demo's keys; returns False to quit (Esc)."""
    if event.type != pygame.KEYDOWN:
        return True
    if event.key == pygame.K_ESCAPE:
        return False
    if event.key == pygame.K_UP:
        model.faster()
    elif event.key == pygame.K_DOWN:
        model.slower()
    elif event.key == pygame.K_RIGHT:
        model.shift(1)
    elif event.key == pygame.K_LEFT:
        model.shift(-1)
    elif event.key == pygame.K_SPACE:
        model.toggle_sweep()
    return True


def draw(surface: pygame.Surface, model: Tunnel) -> None:
    """Draw one frame of the demo onto ``surface``."""
    surface.fill(BACKGROUND)
    draw_grid(surface)
    width = surface.get_width()
    # the path along the x axis
    pygame.draw.line(surface, DIM, (0, ORIGIN[1]), (width, ORIGIN[1]))
    found = model.hit()
    # the pane, red when no test noticed it
    (x0, y0), (x1, y1) = WALL.min, WALL.max
    left, top = _screen(x0, y1)
    right, bottom = _screen(x1, y0)
    pygame.draw.rect(surface, PANE if found is not None else MISSED,
                     pygame.Rect(left, top, max(right - left, 2.0), bottom - top))
    # the window a frame's centre must land in: the pane plus the radius on each side
    for edge in (-GAP / 2.0, GAP / 2.0):
        draw_dashed_line(surface, _screen(edge, 2.3), _screen(edge, -2.3), DIM)
    radius = RADIUS * SCALE
    for x in model.positions():
        pygame.draw.circle(surface, DIM, _screen(x), radius, 1)
    if found is not None:
        pygame.draw.circle(surface, CAUGHT, _screen(found.x), radius, 2)
    draw_readout(surface, model)


def draw_readout(surface: pygame.Surface, model: Tunnel) -> None:
    """The readout (what the test found, in the colour of the outcome), the settings and the
    controls: the same in the flat view and the 3D one."""
    found = model.hit()
    lead, _, outcome = model.readout().partition(" \u00b7 ")
    draw_text(surface, lead, (12, 10), TEXT)
    draw_text(surface, outcome, (12, 30), CAUGHT if found is not None else MISSED)
    draw_text(surface, f"speed {model.speed:.0f} m/s   where the frames land "
                       f"{model.offset:.2f}   {'sweep' if model.swept else 'frame test'}",
              (12, 50), SILVER)
    draw_text(surface, CONTROLS, (12, surface.get_height() - 26), GREY)


def render(model: Tunnel) -> pygame.Surface:
    """One frame of the demo on an off-screen surface of the window's size."""
    return render_offscreen(lambda s: draw(s, model), WINDOW_SIZE)


def main(model: Tunnel | None = None, *, frames: int | None = None,
         screenshot: str | None = None) -> int:
    """Run the demo in a window until Esc (or ``frames`` frames); returns the frames drawn."""
    m = Tunnel() if model is None else model
    return run_window(TITLE, WINDOW_SIZE, draw=lambda s: draw(s, m),
                      handle=lambda e: handle_event(m, e), update=lambda dt: None,
                      frames=frames, screenshot=screenshot)
