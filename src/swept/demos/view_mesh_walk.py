"""Mesh walk's 3D window: a pygame-ce view of :mod:`swept.demos.mesh_walk`.

The level's triangles flat-shaded in perspective, the character's ball and its trail. The
arrow keys walk (held down: Up +x, Down -x, Left -z, Right +z), Esc quits.
"""

from __future__ import annotations

import pygame

from .mesh_walk import LEVEL, RADIUS, STEP, MeshWalk
from .view3d import Camera, Frame3D
from .view_common import BACKGROUND, GREY, TEXT, draw_text, render_offscreen, run_window

__all__ = ["WINDOW_SIZE", "TITLE", "CONTROLS", "camera", "handle_event", "draw", "render",
           "main"]

#: The window's size, px.
WINDOW_SIZE = (1000, 700)
#: The window's title.
TITLE = "swept: Mesh walk (3D)"
#: The controls line at the bottom of the window.
CONTROLS = "[Up] [Down] walk along x   [Left] [Right] walk along z   [Esc] quit"

#: Steps of the trail drawn behind the character.
TRAIL_STEPS = 600

LEVEL_COLOR = (139, 148, 158)
BALL = (57, 211, 195)
TRAIL = (240, 136, 62)

#: Held keys and the ground direction (x, z) each adds.
_KEYS = {pygame.K_UP: (1.0, 0.0), pygame.K_DOWN: (-1.0, 0.0), pygame.K_LEFT: (0.0, -1.0),
         pygame.K_RIGHT: (0.0, 1.0)}


def camera() -> Camera:
    """The view: from the front left, above the floor's near corner."""
    return Camera((-4.0, 9.0, -7.0), (7.0, 0.5, 3.0), WINDOW_SIZE, fov=55.0)


def handle_event(model: MeshWalk, event: pygame.event.Event, held: set[int]) -> bool:
    """Answer one event: the arrow keys set the walking direction while held; Esc quits."""
    if event.type == pygame.KEYDOWN and event.key == pygame.K_ESCAPE:
        return False
    if event.type in (pygame.KEYDOWN, pygame.KEYUP) and event.key in _KEYS:
        if event.type == pygame.KEYDOWN:
            held.add(event.key)
        else:
            held.discard(event.key)
        dx = sum(_KEYS[k][0] for k in held)
        dz = sum(_KEYS[k][1] for k in held)
        model.walk(dx, dz)
    return True


def draw(surface: pygame.Surface, model: MeshWalk) -> None:
    """Draw one frame of the demo onto ``surface``."""
    surface.fill(BACKGROUND)
    frame = Frame3D(camera())
    for a, b, c in LEVEL.triangles:
        frame.quad([LEVEL.vertices[a], LEVEL.vertices[b], LEVEL.vertices[c]], LEVEL_COLOR)
    trail = model.trail[-TRAIL_STEPS:]
    for p, q in zip(trail, trail[1:]):
        frame.line(p, q, TRAIL, 2, on_top=True)
    frame.sphere(model.ball.center, RADIUS, BALL, on_top=True)
    frame.draw(surface)
    where, _, floor = model.readout().partition(" \u00b7 ")
    draw_text(surface, where, (12, 10), TEXT)
    draw_text(surface, floor, (12, 30), BALL if model.on_floor else GREY)
    draw_text(surface, CONTROLS, (12, WINDOW_SIZE[1] - 26), GREY)


def _steps(model: MeshWalk, dt: float) -> None:
    """The fixed steps a frame of ``dt`` seconds holds (at least one)."""
    for _ in range(max(1, round(dt / STEP))):
        model.step()


def render(model: MeshWalk) -> pygame.Surface:
    """One frame of the demo on an off-screen surface of the window's size."""
    return render_offscreen(lambda s: draw(s, model), WINDOW_SIZE)


def main(model: MeshWalk | None = None, *, frames: int | None = None,
         screenshot: str | None = None) -> int:
    """Run the demo in a window until Esc (or ``frames`` frames); returns the frames drawn."""
    m = MeshWalk() if model is None else model
    held: set[int] = set()
    return run_window(TITLE, WINDOW_SIZE, draw=lambda s: draw(s, m),
                      handle=lambda e: handle_event(m, e, held),
                      update=lambda dt: _steps(m, dt),
                      frames=frames, screenshot=screenshot)
