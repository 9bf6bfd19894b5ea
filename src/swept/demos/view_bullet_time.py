"""Bullet Time's window: a thin pygame-ce view of :mod:`swept.demos.bullet_time`.

Space switches naive/swept, Up and Down change the speed (x1.15, x0.87, kept within 300 to
5,000 px/s), P pauses, Esc quits.
"""

from __future__ import annotations

import pygame

from .bullet_time import ARENA, RADIUS, WALL_A, WALL_B, WALL_NORMAL, BulletTime
from .view_common import (
    BACKGROUND,
    GREY,
    SILVER,
    draw_grid,
    draw_text,
    render_offscreen,
    run_window,
)

__all__ = ["WINDOW_SIZE", "TITLE", "CONTROLS", "handle_event", "draw", "render", "main"]

#: The window's size, px.
WINDOW_SIZE = (1000, 700)
#: The window's title.
TITLE = "swept: Bullet Time"
#: The controls line at the bottom of the window.
CONTROLS = "[Space] naive or swept   [Up] [Down] speed   [P] pause   [Esc] quit"

GREEN = (47, 158, 68)
RED = (224, 49, 49)
FAINT = (70, 78, 90)
TRAIL_DOT = 2


def handle_event(model: BulletTime, event: pygame.event.Event) -> bool:
    """Answer one event: the demo's keys; returns False to quit (Esc)."""
    if event.type != pygame.KEYDOWN:
        return True
    if event.key == pygame.K_ESCAPE:
        return False
    if event.key == pygame.K_p:
        model.toggle_pause()
    elif event.key == pygame.K_SPACE:
        model.toggle_test()
    elif event.key == pygame.K_UP:
        model.speed_up()
    elif event.key == pygame.K_DOWN:
        model.speed_down()
    return True


def draw(surface: pygame.Surface, model: BulletTime) -> None:
    """Draw one frame of the demo onto ``surface``."""
    surface.fill(BACKGROUND)
    draw_grid(surface)
    # the arena, and the thin wall two pixels wide (the tests treat it as a line)
    (x0, y0), (x1, y1) = ARENA.min, ARENA.max
    pygame.draw.rect(surface, SILVER, pygame.Rect(x0, y0, x1 - x0, y1 - y0), 1)
    pygame.draw.line(surface, SILVER, WALL_A, WALL_B)
    pygame.draw.line(surface, SILVER, WALL_A + (1.0, 0.0), WALL_B + (1.0, 0.0))
    if model.swept:
        # the wall grown by the radius, faintly: the outline the centre cannot cross
        side = WALL_NORMAL * RADIUS
        pygame.draw.line(surface, FAINT, WALL_A + side, WALL_B + side)
        pygame.draw.line(surface, FAINT, WALL_A - side, WALL_B - side)
        pygame.draw.circle(surface, FAINT, WALL_A, RADIUS, 1)
        pygame.draw.circle(surface, FAINT, WALL_B, RADIUS, 1)
    # the trail: the ball's places at the ends of its last steps
    trail = list(model.trail)
    if len(trail) > 1:
        pygame.draw.lines(surface, GREY, False, trail)
    for p in trail:
        pygame.draw.circle(surface, GREY, p, TRAIL_DOT)
    pygame.draw.circle(surface, GREEN if model.swept else RED, model.pos, RADIUS)
    first, second = model.readout()
    draw_text(surface, first, (12, 10), GREEN if model.swept else RED)
    draw_text(surface, second, (12, 30), SILVER)
    draw_text(surface, CONTROLS, (12, WINDOW_SIZE[1] - 26), GREY)


def render(model: BulletTime) -> pygame.Surface:
    """One frame of the demo on an off-screen surface of the window's size."""
    return render_offscreen(lambda s: draw(s, model), WINDOW_SIZE)


def main(model: BulletTime | None = None, *, frames: int | None = None,
         screenshot: str | None = None) -> int:
    """Run the demo in a window until Esc (or ``frames`` frames); returns the frames drawn."""
    m = BulletTime() if model is None else model
    return run_window(TITLE, WINDOW_SIZE, draw=lambda s: draw(s, m),
                      handle=lambda e: handle_event(m, e), update=m.advance, frames=frames,
                      screenshot=screenshot)
