"""Tunnel's 3D window: a pygame-ce perspective view of :mod:`swept.demos.tunnel`.

The thin pane (red when no test noticed it) stands across the sphere's path; the dashed
frames on each side mark the window a frame's centre must land in; the grey rings are the
sphere at each frame, and the teal sphere is where the test in use found the wall. Keys as
in the flat view (:mod:`swept.demos.view_tunnel`): Up and Down the speed, Left and Right where
the frames land, Space the sweep, Esc quits.
"""

from __future__ import annotations

import pygame

from .tunnel import GAP, RADIUS, WALL, Tunnel
from .view3d import Camera, Frame3D
from .view_common import BACKGROUND, render_offscreen, run_window
from .view_tunnel import CAUGHT, CONTROLS, DIM, MISSED, PANE, draw_readout, handle_event

__all__ = ["WINDOW_SIZE", "TITLE", "CONTROLS", "camera", "handle_event", "draw", "render",
           "main"]

#: The window's size, px.
WINDOW_SIZE = (1000, 700)
#: The window's title.
TITLE = "swept: Tunnel (3D)"
#: The pane's half extent along y and z, m (the flat view's wall height).
HALF_PANE = WALL.max[1]
#: How far the path is drawn on each side, m.
PATH = 6.5


def camera() -> Camera:
    """The view: from in front of the path, above it and off to the side of the pane."""
    return Camera((-3.5, 3.0, 8.5), (0.3, 0.0, 0.0), WINDOW_SIZE, fov=55.0)


def draw(surface: pygame.Surface, model: Tunnel) -> None:
    """Draw one frame of the demo onto ``surface``."""
    surface.fill(BACKGROUND)
    found = model.hit()
    frame = Frame3D(camera())
    # the path along the x axis
    frame.line((-PATH, 0.0, 0.0), (PATH, 0.0, 0.0), DIM)
    # the pane, red when no test noticed it
    frame.box((WALL.min[0], -HALF_PANE, -HALF_PANE), (WALL.max[0], HALF_PANE, HALF_PANE),
              PANE if found is not None else MISSED)
    # the window a frame's centre must land in: the pane plus the radius on each side
    for x in (-GAP / 2.0, GAP / 2.0):
        corners = [(x, -HALF_PANE, -HALF_PANE), (x, HALF_PANE, -HALF_PANE),
                   (x, HALF_PANE, HALF_PANE), (x, -HALF_PANE, HALF_PANE)]
        for i in range(4):
            frame.line(corners[i], corners[(i + 1) % 4], DIM, dashed=True)
    for x in model.positions():
        frame.sphere((x, 0.0, 0.0), RADIUS, DIM, outline=1)
    if found is not None:
        frame.sphere((found.x, 0.0, 0.0), RADIUS, CAUGHT, on_top=True)
    frame.draw(surface)
    draw_readout(surface, model)


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
