"""Walls and Slides' window: a thin pygame-ce view of :mod:`swept.demos.walls_and_slides`.

The ball chases the mouse; a left click places it there at rest, V turns the velocity fix off
and on, P switches between one pass and eight, Esc quits.
"""

from __future__ import annotations

import pygame

from ..vec import Vec2
from .view_common import (
    BACKGROUND,
    GREY,
    SILVER,
    TEXT,
    draw_arrow,
    draw_grid,
    draw_text,
    render_offscreen,
    run_window,
)
from .walls_and_slides import BUMPERS, RADIUS, WALLS, WINDOW_SIZE, WallsAndSlides

__all__ = ["WINDOW_SIZE", "TITLE", "CONTROLS", "handle_event", "draw", "render", "main"]

#: The window's title.
TITLE = "swept: Walls and Slides"
#: The controls line at the bottom of the window.
CONTROLS = "[Click] place the ball   [V] velocity fix   [P] passes   [Esc] quit"

BLUE = (47, 111, 235)
AMBER = (232, 89, 12)
WALL = (104, 112, 124)


def handle_event(model: WallsAndSlides, event: pygame.event.Event) -> bool:
    """Answer one event: the keys and the click; returns False to quit (Esc)."""
    if event.type == pygame.KEYDOWN:
        if event.key == pygame.K_ESCAPE:
            return False
        if event.key == pygame.K_v:
            model.toggle_fix()
        elif event.key == pygame.K_p:
            model.toggle_passes()
    elif event.type == pygame.MOUSEBUTTONDOWN and event.button == 1:
        # a click puts the ball where the mouse is, at rest, even inside a wall
        model.place(event.pos)
    return True


def draw(surface: pygame.Surface, model: WallsAndSlides) -> None:
    """Draw one frame of the demo onto ``surface``."""
    surface.fill(BACKGROUND)
    draw_grid(surface)
    for wall in WALLS:
        pygame.draw.polygon(surface, WALL, [tuple(p) for p in wall.points])
    for bumper in BUMPERS:
        pygame.draw.circle(surface, AMBER, bumper.center, bumper.radius)
    pygame.draw.circle(surface, BLUE, model.pos, RADIUS)
    arrow = model.arrow()
    if arrow is not None:
        # the velocity: where the ball would be in 0.15 s
        draw_arrow(surface, arrow[0], arrow[1], TEXT)
    first, second = model.readout()
    draw_text(surface, first, (12, 10), TEXT)
    draw_text(surface, second, (12, 30), SILVER)
    draw_text(surface, CONTROLS, (12, WINDOW_SIZE[1] - 26), GREY)


def render(model: WallsAndSlides) -> pygame.Surface:
    """One frame of the demo on an off-screen surface of the window's size."""
    return render_offscreen(lambda s: draw(s, model), WINDOW_SIZE)


def main(model: WallsAndSlides | None = None, *, frames: int | None = None,
         screenshot: str | None = None) -> int:
    """Run the demo in a window until Esc (or ``frames`` frames); returns the frames drawn."""
    m = WallsAndSlides() if model is None else model

    def update(dt: float) -> None:
        # the ball chases wherever the mouse is this frame
        if pygame.mouse.get_focused():
            m.mouse = Vec2(*pygame.mouse.get_pos())
        m.advance(dt)

    return run_window(TITLE, WINDOW_SIZE, draw=lambda s: draw(s, m),
                      handle=lambda e: handle_event(m, e), update=update, frames=frames,
                      screenshot=screenshot)
