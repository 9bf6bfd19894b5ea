"""The 3D views of seed 002's scenes: the software camera's projection in closed form, and the
slide model's split, readout and keys (the 46 degree limit flips the label, not the maths)."""

from __future__ import annotations

import math
import os

os.environ.setdefault("SDL_VIDEODRIVER", "dummy")
os.environ.setdefault("PYGAME_HIDE_SUPPORT_PROMPT", "1")

import pytest  # noqa: E402

pygame = pytest.importorskip("pygame")

from swept.demos import view_slide, view_tunnel3d  # noqa: E402
from swept.demos.slide import MAX_SLOPE, Slide, split_at  # noqa: E402
from swept.demos.text import slide_split  # noqa: E402
from swept.demos.tunnel import Tunnel  # noqa: E402
from swept.demos.view3d import Camera, Frame3D  # noqa: E402


def _key(key: int) -> object:
    return pygame.event.Event(pygame.KEYDOWN, key=key, mod=0, unicode="", scancode=0)


def test_the_camera_projects_in_closed_form() -> None:
    # looking down -z from z = 10, 90 degrees top to bottom, a 200 x 100 window
    cam = Camera((0.0, 0.0, 10.0), (0.0, 0.0, 0.0), (200, 100), fov=90.0)
    assert cam.focal == pytest.approx(50.0, abs=1e-12)
    assert cam.project((0.0, 0.0, 0.0)) == (100.0, 50.0)  # the target: the window's centre
    # a point 2 right and 1 up at depth 10: 50 * 2 / 10 px right, 50 * 1 / 10 px up
    x, y = cam.project((2.0, 1.0, 0.0))  # type: ignore[misc]
    assert x == pytest.approx(110.0, abs=1e-12) and y == pytest.approx(45.0, abs=1e-12)
    assert cam.depth((5.0, 5.0, 4.0)) == pytest.approx(6.0, abs=1e-12)
    assert cam.pixels(1.0, (0.0, 0.0, 5.0)) == pytest.approx(10.0, abs=1e-12)
    # behind the camera (and at it): not drawn
    assert cam.project((0.0, 0.0, 11.0)) is None and cam.project((0.0, 0.0, 10.0)) is None


def test_the_frame_paints_far_to_near() -> None:
    cam = Camera((0.0, 0.0, 10.0), (0.0, 0.0, 0.0), (100, 100), fov=90.0)
    frame = Frame3D(cam)
    near = [(-1.0, -1.0, 5.0), (1.0, -1.0, 5.0), (1.0, 1.0, 5.0), (-1.0, 1.0, 5.0)]
    far = [(x, y, -5.0) for x, y, _ in near]
    frame.quad(near, (250, 0, 0))
    frame.quad(far, (0, 0, 250))  # added last, but farther: painted first, then covered
    surface = pygame.Surface((100, 100))
    frame.draw(surface)
    r, g, b = tuple(surface.get_at((50, 50)))[:3]
    assert r > 0 and b == 0


def test_the_slide_split_adds_up_and_matches_the_log_lines() -> None:
    s = split_at(55.0, -10.0)
    v = s.velocity
    assert s.held_up and not s.walkable and s.slope == pytest.approx(55.0, abs=1e-12)
    # blocked + sliding is exactly the velocity, blocked along the normal
    for a in range(3):
        assert s.blocked[a] + s.sliding[a] == pytest.approx(v[a], abs=1e-12)
    assert s.blocked.length() == pytest.approx(5.0 * math.sin(math.radians(65.0)), abs=1e-12)
    assert s.sliding.length() == pytest.approx(5.0 * math.cos(math.radians(65.0)), abs=1e-12)
    assert slide_split(55.0, -10.0)[1:3] == (s.blocked.length(), s.sliding.length())
    # aimed away from the surface: nothing blocked
    away = split_at(55.0, 80.0)
    assert not away.held_up and away.blocked.length() == 0.0 and away.sliding == away.velocity


def test_the_readout_flips_at_the_limit() -> None:
    assert Slide(46.0).readout().endswith(f"walkable, under the {MAX_SLOPE:g}\u00b0 limit")
    assert Slide(47.0).readout() == ("slope 47\u00b0 \u00b7 4.19 m/s blocked, 2.72 m/s slides "
                                     "along \u00b7 too steep to stand on, over the 46\u00b0 "
                                     "limit")
    assert "nothing blocked" in Slide(0.0, 30.0).readout()
    with pytest.raises(ValueError, match="tilt"):
        Slide(91.0)
    with pytest.raises(ValueError, match="aim"):
        Slide(0.0, -181.0)


def test_slide_keys() -> None:
    model = Slide()
    handle = view_slide.handle_event
    assert handle(model, _key(pygame.K_UP)) and model.tilt == 56.0
    assert handle(model, _key(pygame.K_DOWN)) and model.tilt == 55.0
    assert handle(model, _key(pygame.K_LEFT)) and model.aim == -5.0
    assert handle(model, _key(pygame.K_RIGHT)) and model.aim == -10.0
    flat = Slide(0.0, -180.0)
    flat.tilt_by(-3)
    flat.aim_by(-1)
    assert flat.tilt == 0.0 and flat.aim == -180.0
    assert not handle(model, _key(pygame.K_ESCAPE))


def test_the_caught_sphere_shows_through_the_pane() -> None:
    """The frame test's catch lands inside the thin pane; the marker is drawn over it."""
    caught = view_tunnel3d.render(Tunnel())  # frame 6 lands at x = 0, inside the pane
    p = view_tunnel3d.camera().project((0.0, 0.0, 0.0))
    assert p is not None
    r, g, b = tuple(caught.get_at((int(p[0]), int(p[1]))))[:3]
    assert g > r  # teal, not the pane's grey or the missed red


def test_the_mesh_walk_climbs_the_ramp_and_slides_along_the_wall() -> None:
    """The scripted walk: up the 26.6 degree ramp onto the platform, to the wall, then into
    it at 45 degrees, sliding along it; on a floor at the end and never inside the mesh."""
    from swept import closest_point
    from swept.demos.mesh_walk import LEVEL, RADIUS, SKIN, MeshWalk

    walk = MeshWalk()
    walk.run_script()
    c = walk.ball.center
    assert walk.on_floor and walk.slope == pytest.approx(0.0, abs=1e-9)
    # on the platform (y = 2) and against the wall (z = 6), within the skin of each
    assert 2.0 + RADIUS <= c[1] <= 2.0 + RADIUS + SKIN
    assert 6.0 - RADIUS - 2.0 * SKIN <= c[2] <= 6.0 - RADIUS
    assert 10.0 < c[0] < 14.0
    for p in walk.trail:
        # never inside: every centre at least a radius from the mesh
        assert math.dist(p, closest_point(LEVEL, p)) >= RADIUS - 1e-9
    assert walk.readout().endswith("on a floor of slope 0.0\u00b0")


def test_mesh_walk_keys_set_the_heading() -> None:
    from swept.demos import view_mesh_walk
    from swept.demos.mesh_walk import MeshWalk

    walk = MeshWalk()
    held: set[int] = set()
    handle = view_mesh_walk.handle_event
    assert handle(walk, _key(pygame.K_UP), held) and walk.heading == (1.0, 0.0)
    assert handle(walk, _key(pygame.K_RIGHT), held)
    assert walk.heading == pytest.approx((math.sqrt(0.5), math.sqrt(0.5)), abs=1e-15)
    up = pygame.event.Event(pygame.KEYUP, key=pygame.K_UP, mod=0, unicode="", scancode=0)
    assert handle(walk, up, held) and walk.heading == (0.0, 1.0)
    assert not handle(walk, _key(pygame.K_ESCAPE), held)
