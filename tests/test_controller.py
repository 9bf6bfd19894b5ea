"""move_and_slide: the character controller's scenarios (screen coordinates: y grows down)."""

from __future__ import annotations

import math
from typing import Any

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from swept.chain import Chain
from swept.contact import contact
from swept.controller import (
    DEFAULT_FLOOR_MAX_ANGLE,
    DEFAULT_MAX_SLIDES,
    MoveResult,
    move_and_slide,
)
from swept.response import is_walkable
from swept.shapes import AABB, Capsule, Circle, Plane, Polygon, Segment, Shape, Sphere
from swept.vec import Vec2, Vec3
from swept.world import World

DT = 1.0 / 60.0
G = 980.0
SKIN = 0.001
FLOOR_Y = 100.0


def floor_box(x0: float = -1000.0, x1: float = 1000.0) -> AABB:
    """A floor whose top is at y = FLOOR_Y."""
    return AABB((x0, FLOOR_Y), (x1, FLOOR_Y + 40.0))


def resting_box(x: float = 0.0, w: float = 10.0, h: float = 20.0) -> AABB:
    """A box character resting a skin above the floor, its left side at x."""
    return AABB((x, FLOOR_Y - SKIN - h), (x + w, FLOOR_Y - SKIN))


def slope(angle_degrees: float, length: float = 400.0) -> Polygon:
    """A ramp rising to the right (toward -y) from (0, FLOOR_Y)."""
    a = math.radians(angle_degrees)
    top = Vec2(length * math.cos(a), FLOOR_Y - length * math.sin(a))
    return Polygon([(0.0, FLOOR_Y), (top[0], FLOOR_Y), top])


def ramp_normal(angle_degrees: float) -> Vec2:
    a = math.radians(angle_degrees)
    return Vec2(-math.sin(a), -math.cos(a))


def walk(shape: Shape, obstacles: Any, steps: int, vx: float = 0.0, gravity: float = G,
         **kw: Any) -> list[MoveResult]:
    """Walk at ``vx`` under gravity for ``steps`` steps; every step's result."""
    v = Vec2(vx, 0.0)
    out = []
    for _ in range(steps):
        v = Vec2(vx, v[1] + gravity * DT)
        r = move_and_slide(shape, v, DT, obstacles, **kw)
        out.append(r)
        shape, v = r.shape, r.velocity
    return out


def test_defaults_are_godots() -> None:
    assert DEFAULT_MAX_SLIDES == 4
    assert DEFAULT_FLOOR_MAX_ANGLE == 45.0


def test_walkable_under_46_degrees_and_not_over_it() -> None:
    assert is_walkable(ramp_normal(45.9), 46.0)
    assert not is_walkable(ramp_normal(46.1), 46.0)
    # the controller classifies the same way, with the default 45
    ball = Circle((100.0, 0.0), 5.0)
    for angle, floor in ((44.0, True), (46.0, False)):
        n = ramp_normal(angle)
        plane = Plane(n, n.dot((100.0, 50.0)))
        r = move_and_slide(ball, (0.0, 3000.0), DT, [plane])
        assert r.on_floor is floor and r.on_wall is (not floor)


# ---------------------------------------------------------------------------- the scenarios

def test_walking_into_a_wall_at_45_degrees_keeps_the_part_along_the_wall() -> None:
    wall = [AABB((50.0, -500.0), (60.0, 500.0))]
    r = move_and_slide(Circle((0.0, 0.0), 10.0), (100.0, 100.0), 0.5, wall)
    assert r.on_wall and not r.on_floor
    assert r.velocity.is_close((0.0, 100.0))
    assert r.position[0] == pytest.approx(40.0 - SKIN)
    assert r.position[1] == pytest.approx(50.0)
    assert len(r.collisions) == 1
    col = r.collisions[0]
    assert col.collider == 0 and col.normal == Vec2(-1.0, 0.0)
    assert (col.travel + col.remainder).is_close((50.0, 50.0))


@pytest.mark.parametrize("character", [
    Circle((0.0, FLOOR_Y - 10.0 - SKIN), 10.0),
    resting_box(),
], ids=["circle", "box"])
def test_resting_on_a_floor_for_10000_steps_is_still_and_on_the_floor(
        character: Shape) -> None:
    floor = [floor_box()]
    start = character
    v = Vec2(0.0, 0.0)
    for _ in range(10_000):
        v = Vec2(0.0, v[1] + G * DT)
        r = move_and_slide(character, v, DT, floor)
        assert r.on_floor
        assert (r.position - _ref(character)).length() < 1e-6
        character, v = r.shape, r.velocity
    assert (_ref(character) - _ref(start)).length() < 1e-6


def _ref(shape: Shape) -> Vec2 | Vec3:
    from swept.sweep import reference_point

    return reference_point(shape)


@pytest.mark.parametrize("character", [
    resting_box(),
    Circle((5.0, FLOOR_Y - 10.0 - SKIN), 10.0),
    Polygon.box(5.0, 10.0, (5.0, FLOOR_Y - 10.0 - SKIN)),
    Capsule((5.0, FLOOR_Y - 30.0), (5.0, FLOOR_Y - 10.0 - SKIN), 10.0),
], ids=["box", "circle", "polygon", "capsule"])
def test_crossing_100_flush_boxes_never_stops(character: Shape) -> None:
    """A floor of 100 boxes, 10 wide, touching end to end; a character walking at 10 a step
    crosses a seam every step and must never lose speed, rise or leave the floor."""
    floor = [AABB((10.0 * i, FLOOR_Y), (10.0 * i + 10.0, FLOOR_Y + 10.0)) for i in range(100)]
    y0 = _ref(character)[1]
    for r in walk(character, floor, 90, vx=600.0):
        assert r.on_floor
        assert r.velocity[0] == pytest.approx(600.0, rel=1e-9)
        assert abs(r.position[1] - y0) < 1e-6
    assert r.position[0] == pytest.approx(_ref(character)[0] + 900.0, rel=1e-9)


def test_crossing_a_chain_of_100_flush_segments_never_stops() -> None:
    floor = [Chain([(10.0 * i, FLOOR_Y) for i in range(101)])]
    for character in (resting_box(), Circle((5.0, FLOOR_Y - 10.0 - SKIN), 10.0)):
        for r in walk(character, floor, 90, vx=600.0):
            assert r.on_floor and r.velocity[0] == pytest.approx(600.0, rel=1e-9)


def test_without_a_skin_a_chain_still_has_no_seams() -> None:
    """With skin 0 the graze rule has nothing to go on (a box touching the next flush box
    meets its side edge-on), but a Chain's regions still answer only with its face."""
    floor = [Chain([(10.0 * i, FLOOR_Y) for i in range(101)])]
    box = AABB((0.0, FLOOR_Y - 20.0), (10.0, FLOOR_Y))
    for r in walk(box, floor, 60, vx=600.0, skin=0.0):
        assert r.on_floor and r.velocity[0] == 600.0
        assert r.shape.max[1] == pytest.approx(FLOOR_Y, abs=1e-9)


def test_sliding_along_a_wall_of_flush_boxes_never_stops() -> None:
    wall = [AABB((100.0, 10.0 * i), (110.0, 10.0 * i + 10.0)) for i in range(60)]
    box = AABB((89.0, 0.0), (100.0 - SKIN, 10.0))
    for _ in range(50):
        r = move_and_slide(box, (60.0, 600.0), DT, wall)
        assert r.velocity.is_close((0.0, 600.0), 1e-9)
        assert r.shape.max[0] == pytest.approx(100.0 - SKIN, abs=1e-9)
        box = r.shape
    assert box.min[1] == pytest.approx(500.0)


def test_a_step_of_10_times_the_walls_thickness_does_not_go_through_it() -> None:
    wall = [AABB((100.0, -100.0), (102.0, 100.0))]
    for character in (Circle((80.0, 0.0), 2.0), AABB((78.0, -2.0), (82.0, 2.0))):
        r = move_and_slide(character, (20.0 / DT, 0.0), DT, wall)
        assert r.on_wall
        assert r.shape.aabb.max[0] == pytest.approx(100.0 - SKIN, abs=1e-6)
        assert r.velocity.is_close((0.0, 0.0))


def test_a_corner_does_not_jitter() -> None:
    """Pushing down and right into the corner of a floor and a wall: still after settling."""
    obstacles = [floor_box(), AABB((50.0, -100.0), (60.0, FLOOR_Y))]
    for character in (Circle((30.0, 60.0), 10.0), AABB((30.0, 60.0), (40.0, 80.0))):
        positions = [r.position for r in walk(character, obstacles, 100, vx=300.0)]
        for p in positions[50:]:
            assert (p - positions[-1]).length() < 1e-9
        # in the corner, a skin from both
        shape = walk(character, obstacles, 100, vx=300.0)[-1].shape
        assert shape.aabb.max[0] == pytest.approx(50.0 - SKIN, abs=1e-6)
        assert shape.aabb.max[1] == pytest.approx(FLOOR_Y - SKIN, abs=1e-6)


def test_a_20_degree_wedge_stops_the_character_in_the_crease() -> None:
    """Two steep walls 20 degrees apart (a V): a ball falling in stops in the crease, without
    jitter and within the skin of both."""
    h = math.radians(10.0)
    left = Vec2(math.cos(h), -math.sin(h))  # normals pointing into the V (up and inward)
    right = Vec2(-math.cos(h), -math.sin(h))
    planes = [Plane(left, left.dot((0.0, FLOOR_Y))), Plane(right, right.dot((0.0, FLOOR_Y)))]
    results = walk(Circle((0.0, 0.0), 5.0), planes, 120)
    last = results[-1]
    for r in results[-20:]:
        assert (r.position - last.position).length() < 1e-9
    assert last.velocity.length() < 1e-6
    for p in planes:
        c = contact(last.shape, p)
        assert c is None or c.depth <= 1e-9


def test_3d_crease_slides_along_the_crease_line() -> None:
    """A sphere pushed into the vertical edge where two walls meet slides up the edge."""
    walls = [Plane((1.0, 0.0, 0.0), 0.0), Plane((0.0, 0.0, 1.0), 0.0)]
    ball = Sphere((1.0 + SKIN, 0.0, 1.0 + SKIN), 1.0)
    r = move_and_slide(ball, (-1.0, 1.0, -2.0), 1.0, walls)
    assert r.on_wall
    assert r.velocity.is_close((0.0, 1.0, 0.0), 1e-9)
    assert r.position[1] == pytest.approx(1.0, abs=1e-6)


# ------------------------------------------------------------------- floors, slopes, steps

def test_snap_keeps_the_character_on_the_floor_down_a_step() -> None:
    obstacles = [floor_box(-1000.0, 50.0), AABB((50.0, FLOOR_Y + 5.0), (1000.0, FLOOR_Y + 40.0))]
    box = resting_box(35.0)
    r = move_and_slide(box, (1200.0, 0.0), DT, obstacles, floor_snap_length=8.0)
    assert r.on_floor
    assert r.shape.max[1] == pytest.approx(FLOOR_Y + 5.0 - SKIN, abs=1e-6)
    r = move_and_slide(box, (1200.0, 0.0), DT, obstacles)
    assert not r.on_floor and r.shape.max[1] == pytest.approx(FLOOR_Y - SKIN)
    # a jump is not snapped back
    r = move_and_slide(box, (1200.0, -100.0), DT, obstacles, floor_snap_length=8.0)
    assert not r.on_floor


def test_snap_keeps_the_character_on_a_slope_going_down() -> None:
    ramp = [slope(30.0)]
    a = math.radians(30.0)
    foot = Vec2(200.0 * math.cos(a), FLOOR_Y - 200.0 * math.sin(a))
    ball = Circle(foot + ramp_normal(30.0) * (10.0 + SKIN), 10.0)
    for r in walk(ball, ramp, 30, vx=-300.0, gravity=0.0, floor_snap_length=10.0):
        assert r.on_floor
        assert r.floor_normal is not None and r.floor_normal.is_close(ramp_normal(30.0), 1e-6)


def test_stop_on_slope_keeps_a_character_at_rest_on_a_walkable_slope() -> None:
    ramp = [slope(30.0)]
    a = math.radians(30.0)
    foot = Vec2(200.0 * math.cos(a), FLOOR_Y - 200.0 * math.sin(a))
    ball = Circle(foot + ramp_normal(30.0) * (10.0 + SKIN), 10.0)
    still = walk(ball, ramp, 300, stop_on_slope=True)
    for r in still:
        assert r.on_floor
    assert (still[-1].position - ball.center).length() < 1e-6
    creeping = walk(ball, ramp, 300)
    assert (creeping[-1].position - ball.center).length() > 10.0


def test_constant_speed_on_slopes_keeps_the_speed_across_up() -> None:
    ramp = [slope(30.0)]
    a = math.radians(30.0)
    foot = Vec2(100.0 * math.cos(a), FLOOR_Y - 100.0 * math.sin(a))
    ball = Circle(foot + ramp_normal(30.0) * (10.0 + SKIN), 10.0)
    plain = move_and_slide(ball, (60.0, 0.0), 1.0, ramp)
    kept = move_and_slide(ball, (60.0, 0.0), 1.0, ramp, constant_speed_on_slopes=True)
    assert (plain.position - ball.center).length() == pytest.approx(60.0 * math.cos(a), rel=1e-6)
    assert (kept.position - ball.center).length() == pytest.approx(60.0, rel=1e-6)
    assert plain.on_floor and kept.on_floor


def test_autostep_climbs_a_small_step_and_not_a_tall_one() -> None:
    for height, climbs in ((5.0, True), (15.0, False)):
        obstacles = [floor_box(), AABB((50.0, FLOOR_Y - height), (1000.0, FLOOR_Y))]
        results = walk(resting_box(30.0), obstacles, 20, vx=120.0, step_height=8.0)
        last = results[-1]
        assert last.on_floor
        if climbs:
            assert last.shape.max[1] == pytest.approx(FLOOR_Y - height - SKIN, abs=1e-6)
            assert last.shape.min[0] > 50.0
        else:
            assert last.shape.max[0] == pytest.approx(50.0 - SKIN, abs=1e-6)
            assert last.shape.max[1] == pytest.approx(FLOOR_Y - SKIN, abs=1e-6)
    # off by default
    obstacles = [floor_box(), AABB((50.0, FLOOR_Y - 5.0), (1000.0, FLOOR_Y))]
    last = walk(resting_box(30.0), obstacles, 20, vx=120.0)[-1]
    assert last.shape.max[0] == pytest.approx(50.0 - SKIN, abs=1e-6)


def test_ceiling_is_reported() -> None:
    ceiling = [AABB((-100.0, -40.0), (100.0, 0.0))]
    r = move_and_slide(Circle((0.0, 20.0), 10.0), (50.0, -600.0), DT, ceiling)
    assert r.on_ceiling and not r.on_floor and not r.on_wall
    assert r.velocity.is_close((50.0, 0.0))


# ---------------------------------------------------------------------- moving platforms

def test_a_moving_platform_carries_the_character() -> None:
    platform = AABB((0.0, FLOOR_Y), (100.0, FLOOR_Y + 10.0))
    box = resting_box(40.0)
    v = Vec2(0.0, 0.0)
    for _ in range(60):
        v = Vec2(0.0, v[1] + G * DT)
        r = move_and_slide(box, v, DT, [platform],
                           platform_velocity=lambda collider: (30.0, 0.0))
        assert r.on_floor and r.platform_velocity == Vec2(30.0, 0.0)
        assert r.velocity == Vec2(0.0, 0.0)
        box, v = r.shape, r.velocity
        platform = platform.translated((30.0 * DT, 0.0))
    assert box.min[0] == pytest.approx(40.0 + 30.0, abs=1e-6)
    assert box.min[0] - platform.min[0] == pytest.approx(40.0, abs=1e-6)


def test_a_platform_in_a_world_carries_by_its_data() -> None:
    w = World()
    h = w.add(AABB((0.0, FLOOR_Y), (100.0, FLOOR_Y + 10.0)), {"velocity": (-20.0, 0.0)})
    w.add(floor_box(200.0, 400.0), "ground")
    box = resting_box(40.0)
    v = Vec2(0.0, 0.0)
    for _ in range(30):
        v = Vec2(0.0, v[1] + G * DT)
        r = w.move_and_slide(box, v, DT)
        assert r.on_floor and r.floor_collider == h
        box, v = r.shape, r.velocity
        w.move(h, w.shape(h).translated((-20.0 * DT, 0.0)))
    assert box.min[0] == pytest.approx(30.0, abs=1e-6)


# --------------------------------------------------------------------- world, 3D, recovery

def test_world_and_list_agree() -> None:
    obstacles = [floor_box(), AABB((50.0, -100.0), (60.0, FLOOR_Y))]
    w = World()
    for o in obstacles:
        w.add(o)
    for character in (Circle((30.0, 60.0), 10.0), AABB((30.0, 60.0), (40.0, 80.0))):
        a = walk(character, obstacles, 30, vx=300.0)[-1]
        b = walk(character, w, 30, vx=300.0)[-1]
        assert a.position.is_close(b.position, 1e-9)
        assert (a.on_floor, a.on_wall) == (b.on_floor, b.on_wall) == (True, True)


def test_3d_sphere_capsule_and_box_rest_on_a_floor() -> None:
    for floor in (AABB((-100.0, -10.0, -100.0), (100.0, 0.0, 100.0)), Plane((0.0, 1.0, 0.0), 0.0)):
        for character in (Sphere((0.0, 1.0 + SKIN, 0.0), 1.0),
                          Capsule((0.0, 1.0 + SKIN, 0.0), (0.0, 2.0, 0.0), 1.0),
                          AABB((-0.5, SKIN, -0.5), (0.5, 1.8 + SKIN, 0.5))):
            v = Vec3(0.0, 0.0, 0.0)
            start = _ref(character)
            for _ in range(200):
                v = Vec3(2.0, v[1] - 9.8 * DT, 0.0)
                r = move_and_slide(character, v, DT, [floor])
                assert r.on_floor and r.floor_normal is not None
                assert r.floor_normal.is_close((0.0, 1.0, 0.0), 1e-9)
                character, v = r.shape, r.velocity
            assert r.position[1] == pytest.approx(start[1], abs=1e-6)
            assert r.position[0] == pytest.approx(200 * 2.0 * DT, rel=1e-9)


def test_a_start_that_overlaps_is_pushed_out_first() -> None:
    floor = [floor_box()]
    sunk = Circle((0.0, FLOOR_Y - 5.0), 10.0)
    r = move_and_slide(sunk, (0.0, 0.0), DT, floor)
    assert r.position[1] == pytest.approx(FLOOR_Y - 10.0 - SKIN)
    assert r.on_floor


def test_bad_arguments_raise() -> None:
    with pytest.raises(TypeError):
        move_and_slide(Segment((0, 0), (1, 0)), (1, 0), DT, [])
    with pytest.raises(TypeError):
        move_and_slide(Plane((0, 1, 0), 0), (1, 0, 0), DT, [])
    with pytest.raises(ValueError):
        move_and_slide(Circle((0, 0), 1), (1, 0), -1.0, [])
    with pytest.raises(ValueError):
        move_and_slide(Circle((0, 0), 1), (1, 0), DT, [], up=(0, 0))
    with pytest.raises(ValueError):
        move_and_slide(Circle((0, 0), 1), (1, 0), DT, [], max_slides=-1)
    with pytest.raises(TypeError):
        move_and_slide(Circle((0, 0), 1), (1, 0), DT, ["wall"])


# ------------------------------------------------------------------------------ properties

_ROOM = [floor_box(-200.0, 200.0), AABB((-200.0, -200.0), (-190.0, FLOOR_Y)),
         AABB((190.0, -200.0), (200.0, FLOOR_Y)), AABB((-20.0, 60.0), (20.0, 64.0)),
         Polygon([(60.0, FLOOR_Y), (120.0, FLOOR_Y), (120.0, 50.0)])]


@settings(max_examples=40)
@given(st.floats(-150.0, 150.0), st.floats(-150.0, 40.0),
       st.floats(-3000.0, 3000.0), st.floats(-3000.0, 3000.0), st.booleans())
def test_never_ends_inside_an_obstacle_nor_tunnels(x: float, y: float, vx: float, vy: float,
                                                   round_character: bool) -> None:
    character: Shape = Circle((x, y), 6.0) if round_character else \
        AABB((x - 5.0, y - 8.0), (x + 5.0, y + 8.0))
    if any(contact(character, o) is not None for o in _ROOM):
        return
    r = move_and_slide(character, (vx, vy), DT, _ROOM)
    for o in _ROOM:
        c = contact(r.shape, o)
        assert c is None or c.depth <= 1e-9
    # the room's walls and floor are never crossed
    assert -190.0 < r.position[0] < 190.0
    assert r.position[1] < FLOOR_Y


def test_a_slope_too_steep_to_walk_is_not_climbed_by_pushing_into_it() -> None:
    """Walking into a 60-degree slope from the floor: blocked as by an upright wall."""
    ramp = Polygon([(50.0, FLOOR_Y), (400.0, FLOOR_Y), (400.0, FLOOR_Y - 350.0 * math.tan(
        math.radians(60.0)))])
    results = walk(resting_box(20.0), [floor_box(), ramp], 60, vx=600.0)
    for r in results:
        assert r.shape.max[1] == pytest.approx(FLOOR_Y - SKIN, abs=1e-6)
        assert r.on_floor
    assert results[-1].on_wall
    assert results[-1].velocity.is_close((0.0, 0.0), 1e-6)


@pytest.mark.parametrize("platform_v", [(0.0, -30.0), (0.0, 30.0), (40.0, -30.0)],
                         ids=["up", "down", "diagonal"])
def test_a_platform_moving_up_or_down_keeps_the_character_on_it(
        platform_v: tuple[float, float]) -> None:
    """The platform moves by its velocity after each call: the character rides it a skin
    above, on the floor every step, going up, down or diagonally."""
    platform = AABB((0.0, FLOOR_Y), (100.0, FLOOR_Y + 10.0))
    box = resting_box(40.0)
    v = Vec2(0.0, 0.0)
    for _ in range(60):
        v = Vec2(0.0, v[1] + G * DT)
        r = move_and_slide(box, v, DT, [platform], platform_velocity=lambda c: platform_v)
        assert r.on_floor and r.floor_collider == 0
        box, v = r.shape, r.velocity
        platform = platform.translated(Vec2(*platform_v) * DT)
        assert platform.min[1] - box.max[1] == pytest.approx(SKIN, abs=1e-6)
        assert box.min[0] - platform.min[0] == pytest.approx(40.0, abs=1e-6)


@settings(max_examples=15)
@given(st.lists(st.floats(-30.0, 30.0), min_size=12, max_size=12), st.booleans())
def test_walking_over_a_bumpy_chain_never_sinks_into_it_nor_stops(
        slopes: list[float], round_character: bool) -> None:
    """A chain of 12 pieces at random walkable slopes (convex and concave joins): a character
    walking over it under gravity never ends a step inside any piece and never stalls."""
    points = [Vec2(0.0, FLOOR_Y)]
    for angle in slopes:
        points.append(points[-1] + Vec2(10.0, 10.0 * math.tan(math.radians(angle))))
    chain = Chain(points)
    top = min(p[1] for p in points)
    character: Shape = Circle((5.0, top - 9.0), 8.0) if round_character else \
        AABB((1.0, top - 17.0), (9.0, top - 1.0))
    v = Vec2(0.0, 0.0)
    for _ in range(40):
        v = Vec2(150.0, v[1] + G * DT)
        r = move_and_slide(character, v, DT, [chain], floor_snap_length=4.0)
        assert r.position[0] - _ref(character)[0] > 0.5
        for seg in chain.segments:
            c = contact(r.shape, seg)
            assert c is None or c.depth <= 1e-9
        character, v = r.shape, r.velocity


def test_a_steep_slope_above_a_walkable_one_is_not_climbed_2d() -> None:
    """floor_block_on_wall on a sloped floor, in 2D: the slide up a 26.6 degree ramp, clipped
    by the upright plane of the 63 degree slope above it, kept a vertical part and climbed
    it. The crease of the ramp and the upright wall is a point: the character stops there."""
    ramp = Segment((0.0, 0.0), (8.0, -4.0))
    steep = Segment((8.0, -4.0), (9.0, -6.0))
    ball = move_and_slide(Circle((3.0, -3.0), 0.5), (0.0, 30.0), 0.1, [ramp, steep]).shape
    ys = []
    for _ in range(10):
        r = move_and_slide(ball, (6.0, 0.0), 0.25, [ramp, steep])
        ball = r.shape
        assert r.on_floor
        ys.append(ball.center[1])
    assert ys[-1] == ys[-2] == ys[-3]
    # never above the ramp by more than the radius and the skin (y is down: above is -y)
    x, y = ball.center
    over_ramp = (x * 0.5 + y * 1.0) / math.sqrt(1.25) * -1.0
    assert 0.5 <= over_ramp <= 0.5 + 2e-3
