"""Slide's 3D window: a pygame-ce view of :mod:`swept.demos.slide`.

A tilted surface (a slab, solid below) in perspective, the velocity arriving at the contact
point (orange), the part the surface blocks (red), the part that slides along (teal), the
dashed lines closing the triangle, and the surface normal. Up and Down tilt the surface (1
degree a press, 0 to 90), Left and Right turn the velocity (5 degrees a press), Esc quits.
"""

from __future__ import annotations

from collections.abc import Sequence

import pygame

from .slide import Slide
from .view3d import Camera, Frame3D
from .view_common import BACKGROUND, GREY, TEXT, draw_text, render_offscreen, run_window

__all__ = ["WINDOW_SIZE", "TITLE", "CONTROLS", "camera", "handle_event", "draw", "render",
           "main"]

#: The window's size, px.
WINDOW_SIZE = (1000, 700)
#: The window's title.
TITLE = "swept: Slide (3D)"
#: The controls line at the bottom of the window.
CONTROLS = "[Up] [Down] tilt the surface   [Left] [Right] aim the velocity   [Esc] quit"
#: Half the surface's length along its slope, and half its width along z, m.
HALF_LENGTH, HALF_WIDTH = 6.0, 3.0
#: The slab's thickness under the surface, m.
THICKNESS = 0.7

SLIDING = (57, 211, 195)
BLOCKED = (255, 123, 114)
INCOMING = (240, 136, 62)
DIM = (72, 79, 88)
SURFACE = (139, 148, 158)


def camera() -> Camera:
    """The view: from in front of the scene's plane and above it, so that the surface shows
    its face and the arrows their lengths."""
    return Camera((-3.0, 8.0, 11.0), (0.0, 0.0, 0.0), WINDOW_SIZE, fov=62.0)


def handle_event(model: Slide, event: pygame.event.Event) -> bool:
    """Answer one event: the demo's keys; returns False to quit (Esc)."""
    if event.type != pygame.KEYDOWN:
        return True
    if event.key == pygame.K_ESCAPE:
        return False
    if event.key == pygame.K_UP:
        model.tilt_by(1)
    elif event.key == pygame.K_DOWN:
        model.tilt_by(-1)
    elif event.key == pygame.K_LEFT:
        model.aim_by(1)
    elif event.key == pygame.K_RIGHT:
        model.aim_by(-1)
    return True


def _at(v: Sequence[float], k: float = 1.0) -> tuple[float, float, float]:
    """``k v`` in the scene's plane (z = 0)."""
    return v[0] * k, v[1] * k, 0.0


def draw(surface: pygame.Surface, model: Slide) -> None:
    """Draw one frame of the demo onto ``surface``."""
    surface.fill(BACKGROUND)
    s = model.split()
    frame = Frame3D(camera())
    ax, ay, _ = s.along
    nx, ny, _ = s.normal
    # the slab: the surface on top, solid below it, stretched along z
    top = [(ax * u, ay * u, w) for u, w in ((-HALF_LENGTH, -HALF_WIDTH),
                                             (HALF_LENGTH, -HALF_WIDTH),
                                             (HALF_LENGTH, HALF_WIDTH),
                                             (-HALF_LENGTH, HALF_WIDTH))]
    below = [(x - nx * THICKNESS, y - ny * THICKNESS, z) for x, y, z in top]
    for i in range(4):
        j = (i + 1) % 4
        frame.quad([top[i], top[j], below[j], below[i]], DIM)
    frame.quad(below, DIM)
    frame.quad(top, SURFACE)
    # the normal, out of the solid side at the contact point
    frame.arrow((0.0, 0.0, 0.0), _at(s.normal, 2.0), DIM)
    # the velocity arriving at the contact point, and its two parts from where it started
    start = _at(s.velocity, -1.0)
    frame.arrow(start, (0.0, 0.0, 0.0), INCOMING)
    tip_blocked = (start[0] + s.blocked[0], start[1] + s.blocked[1], 0.0)
    tip_sliding = (start[0] + s.sliding[0], start[1] + s.sliding[1], 0.0)
    frame.arrow(start, tip_blocked, BLOCKED)
    frame.arrow(start, tip_sliding, SLIDING)
    if s.held_up:
        frame.line(tip_sliding, (0.0, 0.0, 0.0), DIM, dashed=True)
        frame.line((0.0, 0.0, 0.0), tip_blocked, DIM, dashed=True)
    frame.draw(surface)
    slope, _, rest = model.readout().partition(" \u00b7 ")
    split, _, label = rest.rpartition(" \u00b7 ")
    draw_text(surface, f"{slope}   surface tilt {model.tilt:.0f}\u00b0   velocity aimed "
                       f"{model.aim:.0f}\u00b0, 5 m/s", (12, 10), TEXT)
    draw_text(surface, split, (12, 30), SLIDING if s.held_up else GREY)
    draw_text(surface, label, (12, 50), SLIDING if s.walkable else BLOCKED)
    draw_text(surface, CONTROLS, (12, WINDOW_SIZE[1] - 26), GREY)


def render(model: Slide) -> pygame.Surface:
    """One frame of the demo on an off-screen surface of the window's size."""
    return render_offscreen(lambda s: draw(s, model), WINDOW_SIZE)


def main(model: Slide | None = None, *, frames: int | None = None,
         screenshot: str | None = None) -> int:
    """Run the demo in a window until Esc (or ``frames`` frames); returns the frames drawn."""
    m = Slide() if model is None else model
    return run_window(TITLE, WINDOW_SIZE, draw=lambda s: draw(s, m),
                      handle=lambda e: handle_event(m, e), update=lambda dt: None,
                      frames=frames, screenshot=screenshot)
