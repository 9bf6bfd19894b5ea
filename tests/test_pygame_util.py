"""swept.pygame_util draws onto a pygame-ce surface: each shape colours exactly the pixels inside
it (checked pixel by pixel, with y down and with y up, at scale and offset), a World with every
kind of collider, a Simulation, rays and their hits, contacts, manifolds, sweeps and
move_and_slide paths draw what they say, and bad input raises naming the argument."""

from __future__ import annotations

import os
import subprocess
import sys

os.environ.setdefault("SDL_VIDEODRIVER", "dummy")
os.environ.setdefault("PYGAME_HIDE_SUPPORT_PROMPT", "1")

from typing import Any  # noqa: E402

import numpy as np  # noqa: E402
import pytest  # noqa: E402

pygame = pytest.importorskip("pygame")

from swept import (  # noqa: E402
    AABB,
    Body,
    Capsule,
    Chain,
    Circle,
    Plane,
    Polygon,
    Ray,
    Segment,
    Simulation,
    Sphere,
    TileMap,
    World,
    contact,
    manifold,
    raycast,
    sweep,
)
from swept._draw import COLORS, fill_color  # noqa: E402
from swept.pygame_util import DrawOptions  # noqa: E402

BLACK = (0, 0, 0)


def _surface(w: int = 100, h: int = 100) -> Any:
    return pygame.Surface((w, h))


def _at(surface: Any, x: int, y: int) -> tuple[int, int, int]:
    return tuple(surface.get_at((x, y)))[:3]


def _painted(surface: Any) -> np.ndarray:
    """(w, h) bool: the pixels that are not black."""
    return pygame.surfarray.array3d(surface).any(axis=2)


def _extent(surface: Any) -> tuple[int, int, int, int]:
    """The painted pixels' x_min, x_max, y_min, y_max."""
    xs, ys = np.nonzero(_painted(surface))
    return int(xs.min()), int(xs.max()), int(ys.min()), int(ys.max())


SHAPE = COLORS["shape"]
SHAPE_FILL = fill_color(SHAPE)

# ------------------------------------------------------------------ shapes, pixel by pixel


def test_a_box_colours_its_pixels_and_no_others_with_y_down() -> None:
    s = _surface()
    DrawOptions(s).draw(AABB((10, 10), (30, 20)))
    assert _extent(s) == (10, 30, 10, 20)
    assert _painted(s).sum() == 21 * 11
    assert _at(s, 20, 15) == SHAPE_FILL
    for x, y in ((10, 10), (30, 20), (10, 15), (20, 20)):
        assert _at(s, x, y) == SHAPE
    for x, y in ((9, 15), (31, 15), (20, 9), (20, 21)):
        assert _at(s, x, y) == BLACK


def test_a_box_with_y_up_is_mirrored_about_the_surfaces_height() -> None:
    s = _surface()
    DrawOptions(s, y_up=True).draw(AABB((10, 10), (30, 20)))
    # world y in [10, 20] -> screen rows 100 - 20 = 80 to 100 - 10 = 90
    assert _extent(s) == (10, 30, 80, 90)
    assert _at(s, 20, 85) == SHAPE_FILL
    assert _at(s, 20, 15) == BLACK


def test_scale_and_offset_map_world_units_to_pixels() -> None:
    s = _surface()
    opts = DrawOptions(s, scale=10, offset=(5, 5))
    opts.draw(AABB((1, 1), (3, 2)))
    assert _extent(s) == (15, 35, 15, 25)
    assert opts.to_screen((1, 2)) == (15.0, 25.0)
    assert opts.to_world((35, 15)) == (3.0, 1.0)
    up = DrawOptions(s, y_up=True, scale=10, offset=(5, 5))
    assert up.to_screen((1, 2)) == (15.0, 75.0)
    assert up.to_world(up.to_screen((0.25, -3.5))) == (0.25, -3.5)


@pytest.mark.parametrize("scale", [1e-6, 1e7])
def test_the_same_box_at_any_scale_colours_the_same_pixels(scale: float) -> None:
    s = _surface()
    DrawOptions(s, scale=scale).draw(AABB((10 / scale, 10 / scale), (30 / scale, 20 / scale)))
    assert _extent(s) == (10, 30, 10, 20)


def test_a_circle_colours_the_disc_and_not_the_corners_of_its_box() -> None:
    s = _surface()
    DrawOptions(s).draw(Circle((50, 50), 10))
    assert _extent(s) == (40, 59, 40, 59)
    assert _at(s, 50, 50) == SHAPE_FILL
    assert _at(s, 42, 42) == BLACK  # 11.3 from the centre
    assert _at(s, 50, 38) == BLACK


def test_a_circle_far_larger_than_the_surface_covers_it_all() -> None:
    s = _surface()
    DrawOptions(s, scale=1e7, offset=(50, 50)).draw(Circle((0, 0), 1))
    assert _painted(s).all()
    assert _at(s, 50, 50) == SHAPE_FILL


def test_a_triangle_colours_inside_its_edges_only() -> None:
    s = _surface()
    DrawOptions(s).draw(Polygon([(10, 10), (90, 10), (10, 90)]))
    assert _at(s, 30, 30) == SHAPE_FILL
    assert _at(s, 60, 60) == BLACK  # beyond the hypotenuse x + y = 100
    assert _at(s, 49, 49) == SHAPE_FILL
    assert _extent(s) == (10, 90, 10, 90)


def test_a_capsule_has_round_ends() -> None:
    s = _surface()
    DrawOptions(s).draw(Capsule((30, 50), (70, 50), 10))
    assert _at(s, 50, 50) == SHAPE_FILL
    assert _at(s, 23, 50) == SHAPE_FILL  # in the left cap
    assert _at(s, 22, 42) == BLACK  # the box's corner, outside the cap
    assert _at(s, 50, 61) == BLACK
    x0, x1, y0, y1 = _extent(s)
    assert (x0, x1) == (20, 80) and (y0, y1) == (40, 60)


def test_a_segment_and_a_chain_are_lines() -> None:
    s = _surface()
    DrawOptions(s).draw([Segment((10, 20), (90, 20)), Chain([(10, 60), (50, 80), (90, 60)])])
    assert all(_at(s, x, 20) == SHAPE for x in range(10, 91))
    assert _at(s, 50, 21) == BLACK and _at(s, 50, 19) == BLACK
    assert _at(s, 50, 80) == SHAPE and _at(s, 50, 70) == BLACK


def test_a_half_plane_fills_its_solid_side_to_the_surfaces_edges() -> None:
    # solid where y < 50: the top half with y down, the bottom half with y up
    down, up = _surface(), _surface()
    DrawOptions(down).draw(Plane((0, 1), 50))
    DrawOptions(up, y_up=True).draw(Plane((0, 1), 50))
    assert _extent(down) == (0, 99, 0, 50)
    assert _extent(up) == (0, 99, 50, 99)
    assert _at(down, 50, 25) == SHAPE_FILL and _at(down, 50, 50) == SHAPE
    assert _at(up, 50, 75) == SHAPE_FILL and _at(up, 50, 49) == BLACK


def test_a_tile_map_fills_its_tiles_with_no_seam_between_flush_tiles() -> None:
    s = _surface()
    tiles = TileMap(np.array([[1, 1, 0], [0, 1, 0]]), 10, origin=(20, 20))
    DrawOptions(s).draw(tiles)
    assert _at(s, 25, 25) == SHAPE_FILL
    assert _at(s, 30, 25) == SHAPE_FILL  # where tiles (0, 0) and (0, 1) meet: no edge drawn
    assert _at(s, 35, 35) == SHAPE_FILL
    assert _at(s, 25, 35) == BLACK and _at(s, 45, 25) == BLACK
    assert _at(s, 20, 25) == SHAPE  # the outline
    assert _extent(s) == (20, 40, 20, 40)


def test_fill_false_draws_outlines_only_and_color_overrides_every_mark() -> None:
    s = _surface()
    DrawOptions(s).draw(AABB((10, 10), (30, 20)), fill=False, color=(1, 2, 3))
    assert _at(s, 20, 15) == BLACK and _at(s, 10, 15) == (1, 2, 3)


def test_shapes_reaching_the_coordinate_limit_draw_clipped_to_the_surface() -> None:
    # Every mark is clipped to the surface's world box before it reaches pygame, and clipped
    # points are clamped into the box; a scene reaching 1e50 draws what shows, with no error.
    s = _surface()
    opts = DrawOptions(s)
    opts.draw(Plane((0, 1), 50))
    far = [Polygon([(-1e50, 3e49), (1e50, -1e49), (7e49, 9e49)]), Circle((1e50, 0), 1e50),
           Capsule((-1e50, -1e50), (1e50, 1e50), 10), Chain([(-1e50, 0), (50, 50), (1e50, 0)]),
           Ray((-1e50, -1e50), (1, 1))]
    opts.draw(far, fill=False)
    # the half-plane's fill is untouched below its line, except where the lines cross it
    assert _at(s, 10, 80) == BLACK and _at(s, 10, 25) == SHAPE_FILL
    assert _at(s, 50, 50) == SHAPE  # the chain's corner
    for scale in (1e-40, 1e40):
        DrawOptions(s, scale=scale, offset=(50, 50)).draw(far)


# ------------------------------------------------------------------ worlds and simulations


def _every_kind_world() -> World:
    w = World()
    w.add(Plane((0, -1), -95))                      # solid below y = 95
    w.add(Circle((15, 15), 8))
    w.add(Segment((30, 5), (60, 5)))
    w.add(AABB((70, 5), (90, 25)), moving=True)
    w.add(Polygon([(5, 40), (25, 40), (15, 55)]))
    w.add(Capsule((35, 45), (55, 45), 5))
    w.add(Chain([(5, 70), (40, 65), (80, 70)]))
    w.add(AABB((60, 35), (90, 55)), sensor=True)
    for loop in TileMap(np.array([[1, 1]]), 5, origin=(40, 80)).chains():
        w.add(loop)
    return w


def test_a_world_with_every_kind_of_collider_draws_each_in_its_role() -> None:
    s = _surface()
    DrawOptions(s).draw(_every_kind_world())
    static, static_fill = COLORS["static"], fill_color(COLORS["static"])
    assert _at(s, 15, 15) == static_fill                 # circle
    assert _at(s, 45, 5) == static                       # segment
    assert _at(s, 80, 15) == fill_color(COLORS["moving"])  # moving box
    assert _at(s, 15, 45) == static_fill                 # polygon
    assert _at(s, 45, 45) == static_fill                 # capsule
    assert _at(s, 40, 65) == static                      # chain's corner
    assert _at(s, 75, 45) == BLACK                       # a sensor is an outline only
    assert _at(s, 60, 45) == COLORS["sensor"]
    assert _at(s, 40, 82) == static                      # the tile outline's left side
    assert _at(s, 50, 97) == static_fill                 # the half-plane
    assert _at(s, 50, 94) == BLACK


def test_a_one_way_collider_shows_the_side_it_is_solid_from() -> None:
    w = World()
    w.add(Segment((20, 50), (80, 50)), one_way=(0, -1))  # solid from above (y down)
    w.add(Plane((0, -1), -90), one_way=(0, -1))
    s = _surface()
    DrawOptions(s).draw(w)
    assert _at(s, 30, 50) == COLORS["static"]
    assert _at(s, 50, 35) == COLORS["one_way"]   # an arrow up from the platform's middle
    assert _at(s, 50, 55) == BLACK
    assert _at(s, 50, 80) == COLORS["one_way"]   # the half-plane's, from the view's middle


def test_a_3d_world_is_refused() -> None:
    w = World()
    w.add(Sphere((0, 0, 0), 1))
    with pytest.raises(TypeError, match="thing: a 3D World"):
        DrawOptions(_surface()).draw(w)


def test_a_simulation_draws_its_walls_and_its_bodies() -> None:
    w = World()
    w.add(Segment((0, 90), (100, 90)))
    sim = Simulation(w, gravity=(0, 0))
    sim.add(Body(Circle((30, 50), 6)))
    s = _surface()
    DrawOptions(s).draw(sim)
    assert _at(s, 30, 50) == fill_color(COLORS["body"])
    assert _at(s, 50, 90) == COLORS["static"]
    assert _at(s, 40, 50) == BLACK


def test_a_sleeping_body_is_drawn_in_its_own_colour() -> None:
    sim = Simulation(gravity=(0, 0), sleep_time=0.01, sleep_speed=1.0)
    awake = sim.add(Body(Circle((30, 50), 6), (60, 0)))
    asleep = sim.add(Body(Circle((70, 50), 6)))
    sim.run(3)
    assert asleep.sleeping and not awake.sleeping
    s = _surface()
    DrawOptions(s).draw([awake, asleep])
    assert _at(s, round(awake.position[0]), 50) == fill_color(COLORS["body"])
    assert _at(s, 70, 50) == fill_color(COLORS["sleeping"])


# ------------------------------------------------------------------ rays, hits, contacts


def test_a_ray_stops_at_its_hit_with_the_hit_point_and_its_normal() -> None:
    wall = AABB((60, 0), (70, 100))
    ray = Ray((10, 50), (1, 0))
    hit = raycast(ray, wall)
    assert hit is not None and tuple(hit.point) == (60.0, 50.0)
    s = _surface()
    DrawOptions(s).draw_ray(ray, hit)
    assert _at(s, 20, 50) == COLORS["ray"]
    assert _at(s, 45, 50) == COLORS["normal"]     # the normal, 24 px back toward the ray
    assert _at(s, 60, 50) == COLORS["hit"]
    assert _at(s, 80, 50) == BLACK                # nothing past the hit
    assert _at(s, 20, 52) == BLACK


def test_a_ray_with_no_end_runs_to_the_surfaces_edge() -> None:
    s = _surface()
    DrawOptions(s).draw(Ray((10, 50), (1, 0)))
    assert _at(s, 99, 50) == COLORS["ray"]
    s2 = _surface()
    DrawOptions(s2).draw(Ray((10, 50), (1, 0), 30))
    assert _at(s2, 40, 50) == COLORS["ray"] and _at(s2, 42, 50) == BLACK


def test_a_contact_shows_its_point_normal_and_depth() -> None:
    c = contact(Circle((50, 45), 10), AABB((0, 50), (100, 100)))
    assert c is not None and c.depth == 5.0 and tuple(c.normal) == (0.0, -1.0)
    s = _surface()
    DrawOptions(s).draw(c)
    assert _at(s, 50, 50) == COLORS["contact"]
    assert _at(s, 50, 35) == COLORS["normal"]      # the normal, up out of the box
    assert all(_at(s, 50, y) == COLORS["depth"] for y in (54, 55))  # the depth, 5 px down
    assert _at(s, 50, 57) == BLACK


def test_a_manifold_shows_both_points_and_their_depths() -> None:
    m = manifold(AABB((20, 40), (80, 58)), AABB((0, 50), (100, 100)))
    assert m is not None and len(m.points) == 2
    assert [mp.depth for mp in m.points] == [8.0, 8.0]
    s = _surface()
    DrawOptions(s).draw(m)
    for mp in m.points:
        x, y = (round(c) for c in mp.point)
        assert _at(s, x, y) == COLORS["contact"]
        # the depth: 8 px down to the first box's deepest point
        assert _at(s, x, y + 6) == COLORS["depth"]


def test_a_sweep_shows_its_volume_the_ends_and_the_shape_at_impact() -> None:
    ball = Circle((20, 50), 5)
    hit = sweep(ball, (60, 0), AABB((60, 0), (100, 100)))
    assert hit is not None and tuple(hit.position) == (55.0, 50.0)
    s = _surface()
    DrawOptions(s).draw_sweep(ball, (60, 0), hit)
    assert _at(s, 30, 53) == fill_color(COLORS["sweep"])     # the swept volume
    assert _at(s, 55, 47) == fill_color(COLORS["impact"])    # the ball at impact
    assert _at(s, 60, 50) == COLORS["hit"]
    assert _at(s, 84, 50) == COLORS["start"]                 # the end's outline
    assert _at(s, 30, 43) == BLACK and _at(s, 30, 57) == BLACK


def test_a_move_and_slide_result_shows_its_path() -> None:
    w = World()
    w.add(Segment((0, 60), (100, 60)))
    start = Circle((20, 30), 5)
    result = w.move_and_slide(start, (0, 600), 0.1)  # down onto the floor at y = 60
    assert result.collisions
    s = _surface()
    DrawOptions(s).draw_move(result, start)
    assert _at(s, 20, 33) == COLORS["path"]
    assert _at(s, 20, 40) == COLORS["normal"]  # the floor's normal's head
    assert _at(s, 17, 55) == fill_color(COLORS["body"])  # the ball, resting on the floor
    assert _at(s, 20, 60) == COLORS["hit"]


def test_a_ray_batch_draws_each_hit_and_nothing_for_a_miss() -> None:
    w = World()
    w.add(AABB((60, 0), (70, 100)))
    origins = np.array([[10.0, 20.0], [10.0, 80.0], [80.0, 50.0]])
    batch = w.raycast_many(origins, np.array([[1.0, 0.0], [1.0, 0.0], [1.0, 0.0]]))
    assert batch.hit.tolist() == [True, True, False]
    s = _surface()
    DrawOptions(s).draw(batch)
    assert _at(s, 60, 20) == COLORS["hit"] and _at(s, 60, 80) == COLORS["hit"]
    assert _at(s, 45, 20) == COLORS["normal"]
    # the arrows reach 24 px back to x = 36, their heads 3.5 px either side (16.5 and 83.5
    # to the nearest pixel: 17 and 84); the dots (3 px) reach x = 62
    assert _extent(s) == (36, 62, 17, 84)


def test_a_contact_batch_draws_depths() -> None:
    w = World()
    w.add(AABB((0, 50), (100, 100)))
    batch = w.contact_many(np.array([[30.0, 45.0], [70.0, 20.0]]), np.array([10.0, 5.0]))
    assert batch.hit.tolist() == [True, False] and batch.depth[0] == 5.0
    s = _surface()
    DrawOptions(s).draw(batch)
    assert _at(s, 30, 50) == COLORS["contact"] and _at(s, 30, 55) == COLORS["depth"]
    assert _at(s, 70, 25) == BLACK


# ------------------------------------------------------------------ bad input


@pytest.mark.parametrize("thing", [3, "box", None, Sphere((0, 0, 0), 1), AABB((0, 0, 0),
                                   (1, 1, 1)), Ray((0, 0, 0), (1, 0, 0)), [[Circle((0, 0), 1)]],
                                   {"a": 1}])
def test_what_cannot_be_drawn_is_a_type_error_naming_thing(thing: Any) -> None:
    with pytest.raises(TypeError, match="thing"):
        DrawOptions(_surface()).draw(thing)


def test_the_other_arguments_are_checked_by_name() -> None:
    s = _surface()
    with pytest.raises(TypeError, match="surface"):
        DrawOptions("screen")
    with pytest.raises(ValueError, match="scale"):
        DrawOptions(s, scale=0)
    with pytest.raises(ValueError, match="scale"):
        DrawOptions(s, scale=float("nan"))
    with pytest.raises(TypeError, match="y_up"):
        DrawOptions(s, y_up=1)  # type: ignore[arg-type]
    with pytest.raises(ValueError, match="offset"):
        DrawOptions(s, offset=(float("inf"), 0))
    with pytest.raises(ValueError, match="colors"):
        DrawOptions(s, colors={"wall": (1, 2, 3)})
    with pytest.raises(ValueError, match="color"):
        DrawOptions(s).draw(Circle((0, 0), 1), color=(300, 0, 0))
    with pytest.raises(TypeError, match="ray"):
        DrawOptions(s).draw_ray(Circle((0, 0), 1))
    with pytest.raises(TypeError, match="hit"):
        DrawOptions(s).draw_ray(Ray((0, 0), (1, 0)), "hit")
    with pytest.raises(TypeError, match="shape"):
        DrawOptions(s).draw_sweep(Plane((0, 1), 0), (1, 0))
    with pytest.raises(TypeError, match="shape"):
        DrawOptions(s).draw_sweep(Sphere((0, 0, 0), 1), (1, 0, 0))
    with pytest.raises(TypeError, match="result"):
        DrawOptions(s).draw_move(Circle((0, 0), 1))


def _run(code: str) -> subprocess.CompletedProcess[str]:
    env = {**os.environ, "PYTHONPATH": os.pathsep.join(sys.path)}
    return subprocess.run([sys.executable, "-c", code], capture_output=True, text=True,
                          env=env, timeout=300)


def test_pygame_is_imported_only_when_drawing_and_its_absence_names_the_extra() -> None:
    code = (
        "import sys\n"
        "import swept, swept.pygame_util, swept.plot\n"
        "assert 'pygame' not in sys.modules and 'matplotlib' not in sys.modules\n"
        "sys.modules['pygame'] = None\n"
        "try:\n"
        "    swept.pygame_util.DrawOptions(object())\n"
        "except ImportError as e:\n"
        "    print(e)\n")
    done = _run(code)
    assert done.returncode == 0, done.stderr
    assert "pip install swept[demos]" in done.stdout
