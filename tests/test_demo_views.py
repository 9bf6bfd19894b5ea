"""The pygame-ce views render frames with no display (SDL's dummy video driver), and their
screenshots are PNGs of the window's size that are not blank; their keys drive the models."""

from __future__ import annotations

import os

os.environ.setdefault("SDL_VIDEODRIVER", "dummy")
os.environ.setdefault("PYGAME_HIDE_SUPPORT_PROMPT", "1")

from pathlib import Path  # noqa: E402
from types import ModuleType  # noqa: E402
from typing import Any  # noqa: E402

import pytest  # noqa: E402

pygame = pytest.importorskip("pygame")

from swept.demos import (  # noqa: E402
    view_bullet_time,
    view_mesh_walk,
    view_slide,
    view_tunnel,
    view_tunnel3d,
    view_walls_and_slides,
)
from swept.demos.bullet_time import BulletTime  # noqa: E402
from swept.demos.mesh_walk import MeshWalk  # noqa: E402
from swept.demos.slide import Slide  # noqa: E402
from swept.demos.tunnel import Tunnel  # noqa: E402
from swept.demos.walls_and_slides import WallsAndSlides  # noqa: E402

VIEWS: list[tuple[ModuleType, Any]] = [
    (view_bullet_time, lambda: BulletTime()),
    (view_walls_and_slides, lambda: WallsAndSlides(mouse=(700.0, 60.0))),
    (view_tunnel, lambda: Tunnel()),
    (view_tunnel3d, lambda: Tunnel(speed=120.0, swept=True)),
    (view_slide, lambda: Slide()),
    (view_mesh_walk, lambda: MeshWalk()),
]
IDS = ["bullet-time", "walls-and-slides", "tunnel", "tunnel-3d", "slide-3d", "mesh-walk"]


def _assert_not_blank(surface: Any) -> None:
    """At least a handful of colours: background, grid, shapes and text."""
    w, h = surface.get_size()
    colours = {tuple(surface.get_at((x, y)))[:3] for x in range(0, w, 7) for y in range(0, h, 7)}
    assert len(colours) >= 5


def _key(key: int) -> Any:
    return pygame.event.Event(pygame.KEYDOWN, key=key, mod=0, unicode="", scancode=0)


@pytest.mark.parametrize(("view", "make"), VIEWS, ids=IDS)
def test_the_window_renders_frames_and_saves_a_screenshot(view: ModuleType, make: Any,
                                                          tmp_path: Path) -> None:
    shot = tmp_path / "shot.png"
    model = make()
    assert view.main(model, frames=5, screenshot=str(shot)) == 5
    image = pygame.image.load(str(shot))
    assert image.get_size() == view.WINDOW_SIZE == (1000, 700)
    _assert_not_blank(image)


@pytest.mark.parametrize(("view", "make"), VIEWS, ids=IDS)
def test_the_view_draws_off_screen_at_the_window_size(view: ModuleType, make: Any) -> None:
    surface = view.render(make())
    assert surface.get_size() == (1000, 700)
    _assert_not_blank(surface)


def test_the_bullet_time_window_steps_the_model() -> None:
    model = BulletTime()
    view_bullet_time.main(model, frames=4)
    assert model.steps <= 4 * 3  # at most 0.05 s a frame: three steps
    assert len(model.trail) == model.steps


def test_bullet_time_keys() -> None:
    model = BulletTime()
    handle = view_bullet_time.handle_event
    assert handle(model, _key(pygame.K_SPACE)) and model.swept
    assert handle(model, _key(pygame.K_UP)) and model.speed == pytest.approx(2300.0)
    assert handle(model, _key(pygame.K_DOWN)) and model.speed == pytest.approx(2001.0)
    assert handle(model, _key(pygame.K_p)) and model.paused
    assert handle(model, pygame.event.Event(pygame.MOUSEMOTION, pos=(1, 1), rel=(0, 0),
                                            buttons=(0, 0, 0)))
    assert not handle(model, _key(pygame.K_ESCAPE))


def test_bullet_time_swept_draws_the_grown_wall_faintly() -> None:
    naive = view_bullet_time.render(BulletTime())
    swept = view_bullet_time.render(BulletTime(swept=True))
    # the grown wall's side, RADIUS left of the wall, between its ends
    assert tuple(naive.get_at((493, 370)))[:3] != tuple(swept.get_at((493, 370)))[:3]


def test_walls_and_slides_keys_and_click() -> None:
    model = WallsAndSlides()
    handle = view_walls_and_slides.handle_event
    assert handle(model, _key(pygame.K_v)) and not model.fix_velocity
    assert handle(model, _key(pygame.K_p)) and model.passes == 1
    click = pygame.event.Event(pygame.MOUSEBUTTONDOWN, pos=(300, 400), button=1)
    assert handle(model, click)
    assert model.pos == (300.0, 400.0) and model.vel == (0.0, 0.0)
    right = pygame.event.Event(pygame.MOUSEBUTTONDOWN, pos=(10, 10), button=3)
    assert handle(model, right) and model.pos == (300.0, 400.0)
    assert not handle(model, _key(pygame.K_ESCAPE))


def test_tunnel_keys() -> None:
    model = Tunnel()
    handle = view_tunnel.handle_event
    assert handle(model, _key(pygame.K_UP)) and model.speed == 75.0
    assert handle(model, _key(pygame.K_DOWN)) and model.speed == 60.0
    assert handle(model, _key(pygame.K_RIGHT)) and model.offset == pytest.approx(0.05)
    assert handle(model, _key(pygame.K_LEFT)) and model.offset == 0.0
    assert handle(model, _key(pygame.K_SPACE)) and model.swept
    assert not handle(model, _key(pygame.K_ESCAPE))


def test_a_quit_event_closes_the_window() -> None:
    pygame.display.init()
    model = BulletTime()

    def quit_soon(surface: Any) -> None:
        view_bullet_time.draw(surface, model)
        pygame.event.post(pygame.event.Event(pygame.QUIT))

    from swept.demos.view_common import run_window

    drawn = run_window("t", (200, 100), draw=quit_soon, handle=lambda e: True,
                       update=lambda dt: None, frames=50)
    assert drawn <= 2
