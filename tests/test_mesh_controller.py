"""move_and_slide in 3D on triangle meshes and height fields (issue 13): the controller takes
a mesh as an obstacle (in a list or in a World) through the queries the mesh registers, and a
sphere, capsule or box character lands on its floor, walks up a gentle ramp with the ramp as
its floor, stops at walls and steep faces, climbs stairs only with step_height, and never ends
inside it."""

from __future__ import annotations

import math

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from swept import (
    AABB,
    Capsule,
    HeightField,
    Sphere,
    TriangleMesh,
    World,
    contact,
    distance,
    move_and_slide,
)
from test_mesh import grid_floor

#: a floor (y = 0, x from 0 to 4) and a ramp rising 2 over 4 (26.6 degrees) to x = 8
LEVEL = TriangleMesh(vertices=[(0, 0, 0), (4, 0, 0), (4, 0, 4), (0, 0, 4), (8, 2, 0),
                               (8, 2, 4)],
                     triangles=[(0, 3, 2), (0, 2, 1), (1, 2, 5), (1, 5, 4)])
SKIN = 1e-3


@pytest.mark.parametrize("as_world", [False, True])
def test_a_ball_lands_on_the_mesh_floor_and_walks_up_the_ramp(as_world: bool) -> None:
    obstacles: object = [LEVEL]
    if as_world:
        world = World()
        world.add(LEVEL)
        obstacles = world
    landed = move_and_slide(Sphere((1.0, 2.0, 2.0), 0.5), (0.0, -10.0, 0.0), 1.0, obstacles,
                            skin=SKIN)
    assert landed.on_floor and tuple(landed.floor_normal) == (0.0, 1.0, 0.0)
    assert landed.position == pytest.approx((1.0, 0.5 + SKIN, 2.0), abs=1e-12)
    # up the ramp: its normal is the floor's now, and the ball stays a skin off its face
    walked = move_and_slide(landed.shape, (5.0, 0.0, 0.0), 1.0, obstacles, skin=SKIN)
    n = (-1.0 / math.sqrt(5.0), 2.0 / math.sqrt(5.0), 0.0)
    assert walked.on_floor and walked.floor_normal == pytest.approx(n, abs=1e-12)
    p = walked.position
    # height over the ramp's plane (through (4, 0) with normal n): radius plus about a skin
    gap = (p[0] - 4.0) * n[0] + p[1] * n[1]
    assert 0.5 <= gap <= 0.5 + 2.0 * SKIN


def test_a_ball_rolls_across_a_height_field_without_sinking() -> None:
    heights = np.zeros((6, 6))
    terrain = HeightField(heights, (1.0, 1.0, 1.0), (0.0, 0.0, 0.0))
    ball = Sphere((0.5, 0.5 + SKIN, 0.5), 0.5)
    for _ in range(8):
        r = move_and_slide(ball, (0.6, -1.0, 0.5), 1.0, [terrain], skin=SKIN)
        # a flat terrain of many triangles: always the face normal, never an edge's
        assert r.on_floor and tuple(r.floor_normal) == (0.0, 1.0, 0.0)
        assert r.position[1] >= 0.5
        ball = r.shape


def test_a_wall_of_the_same_mesh_stops_a_ball_resting_on_its_floor() -> None:
    """The floor the ball rests on (within the skin) is the mesh's first contact; the wall
    ahead, a face of the same mesh, must still stop it (it passed through before)."""
    room = TriangleMesh(vertices=[(0, 0, 0), (4, 0, 0), (4, 0, 4), (0, 0, 4), (4, 3, 0),
                                  (4, 3, 4)],
                        triangles=[(0, 3, 2), (0, 2, 1), (1, 2, 5), (1, 5, 4)])
    ball = Sphere((1.0, 0.5 + SKIN, 2.0), 0.5)
    r = move_and_slide(ball, (10.0, 0.0, 0.0), 1.0, [room], skin=SKIN)
    assert r.on_wall
    assert 4.0 - 0.5 - 2.0 * SKIN <= r.position[0] <= 4.0 - 0.5
    assert r.position[1] == pytest.approx(0.5 + SKIN, abs=1e-9)


def test_a_ball_in_a_crease_gets_the_face_its_motion_heads_into() -> None:
    """A ball touching two faces at once (a floor and a steep face beside it) starts in
    contact with both; the sweep's answer at 0 is the face the motion heads into most, not the
    nearer one by a hair (the floor probe got the steep face and the character lost its
    floor)."""
    from swept import sweep

    crease = TriangleMesh(vertices=[(0, 0, 0), (4, 0, 0), (4, 0, 4), (0, 0, 4), (5, 2, 0),
                                    (5, 2, 4)],
                          triangles=[(0, 3, 2), (0, 2, 1), (1, 2, 5), (1, 5, 4)])
    # touching the floor (y = 0) and, a hair nearer, the steep face rising from x = 4
    n = (-2.0 / math.sqrt(5.0), 1.0 / math.sqrt(5.0), 0.0)
    x = 4.0 - (0.5 - 1e-9 - 0.5 * n[1]) / n[0] * -1.0
    ball = Sphere((x, 0.5, 2.0), 0.5)
    down = sweep(ball, (0.0, -1.0, 0.0), crease)
    assert down is not None and down.fraction == 0.0
    assert tuple(down.normal) == (0.0, 1.0, 0.0)
    side = sweep(ball, (1.0, 0.0, 0.0), crease)
    assert side is not None and side.fraction == 0.0
    assert side.normal[0] < -0.5  # the steep face's normal


def test_a_steep_face_above_a_ramp_is_not_climbed() -> None:
    """floor_block_on_wall on a sloped floor: the slide along the ramp, clipped by the steep
    face's upright plane, kept a part rising straight up off the ramp, so the character
    climbed the 63 degree face, left the ramp and then slid on up it. It now stays on the
    crease of the ramp and the upright wall (here a point across the motion: it stops)."""
    level = TriangleMesh(vertices=[(0, 0, 0), (4, 0, 0), (4, 0, 4), (0, 0, 4), (8, 2, 0),
                                   (8, 2, 4), (9, 4, 0), (9, 4, 4)],
                         triangles=[(0, 3, 2), (0, 2, 1), (1, 2, 5), (1, 5, 4), (4, 5, 7),
                                    (4, 7, 6)])
    ball = move_and_slide(Sphere((5.0, 1.06, 2.0), 0.5), (0.0, -1.0, 0.0), 0.1, [level]).shape
    heights = []
    for _ in range(8):
        r = move_and_slide(ball, (3.0, 0.0, 0.0), 0.25, [level])
        ball = r.shape
        assert r.on_floor
        heights.append(ball.center[1])
    # it reached the foot of the steep face and stayed there, never rising above the ramp
    assert heights[-1] == heights[-2] == heights[-3]
    c = ball.center
    over_ramp = (c[0] - 4.0) * (-1.0 / math.sqrt(5.0)) + c[1] * (2.0 / math.sqrt(5.0))
    assert 0.5 <= over_ramp <= 0.5 + 2e-3


def _stairs() -> TriangleMesh:
    """A floor (y = 0, x < 3), three steps of 0.3 up to a landing (y = 0.9, x 5..8), and a
    ceiling over the floor (y = 2, x 0..3, facing down); z from 0 to 4."""
    verts: list[tuple[float, float, float]] = []
    tris: list[tuple[int, int, int]] = []

    def quad(*corners: tuple[float, float, float]) -> None:
        i = len(verts)
        verts.extend(corners)
        tris.extend([(i, i + 1, i + 2), (i, i + 2, i + 3)])

    for x0, x1, y in ((0.0, 3.0, 0.0), (3.0, 4.0, 0.3), (4.0, 5.0, 0.6), (5.0, 8.0, 0.9)):
        quad((x0, y, 0.0), (x0, y, 4.0), (x1, y, 4.0), (x1, y, 0.0))  # a tread, facing up
    for x, y0, y1 in ((3.0, 0.0, 0.3), (4.0, 0.3, 0.6), (5.0, 0.6, 0.9)):
        quad((x, y0, 0.0), (x, y1, 0.0), (x, y1, 4.0), (x, y0, 4.0))  # a riser
    quad((0.0, 2.0, 0.0), (3.0, 2.0, 0.0), (3.0, 2.0, 4.0), (0.0, 2.0, 4.0))  # the ceiling
    return TriangleMesh(verts, tris)


def test_stairs_of_a_mesh_are_climbed_with_step_height_only() -> None:
    """Risers of 0.3 over a ball of radius 0.25: step_height 0.35 climbs every one to the
    landing; without it the first riser stops the ball."""
    stairs = _stairs()
    ball = Sphere((1.0, 0.25 + SKIN, 2.0), 0.25)
    for _ in range(30):
        r = move_and_slide(ball, (3.0, -2.0, 0.0), 1.0 / 15.0, [stairs], step_height=0.35,
                           skin=SKIN)
        ball = r.shape
    assert r.on_floor and tuple(r.floor_normal) == (0.0, 1.0, 0.0)
    assert 5.0 < ball.center[0] < 8.0
    assert 0.9 + 0.25 <= ball.center[1] <= 0.9 + 0.25 + SKIN + 1e-12  # on the landing
    ball = Sphere((1.0, 0.25 + SKIN, 2.0), 0.25)
    for _ in range(30):
        r = move_and_slide(ball, (3.0, -2.0, 0.0), 1.0 / 15.0, [stairs], skin=SKIN)
        ball = r.shape
    assert r.on_floor and r.on_wall
    assert 3.0 - 0.25 - 2.0 * SKIN <= ball.center[0] <= 3.0 - 0.25  # at the first riser
    assert ball.center[1] <= 0.25 + SKIN


def test_a_mesh_ceiling_stops_a_jump() -> None:
    stairs = _stairs()
    r = move_and_slide(Sphere((1.0, 0.25 + SKIN, 2.0), 0.25), (0.0, 10.0, 0.0), 1.0, [stairs],
                       skin=SKIN)
    assert r.on_ceiling and not r.on_floor
    assert 2.0 - 0.25 - 2.0 * SKIN <= r.position[1] <= 2.0 - 0.25


# ----------------------------------------------------------------- capsule and box characters
# The same level walked by an upright capsule (radius 0.25, 1 tall) and a box (0.5 x 1 x 0.5),
# placed by their lowest point; after every call the new contact finds them clear of the mesh.

KINDS = ["capsule", "box"]


def character(kind: str, x: float, bottom: float, z: float) -> Capsule | AABB:
    """An upright character whose lowest point is at height ``bottom`` over (x, z)."""
    if kind == "capsule":
        return Capsule((x, bottom + 0.25, z), (x, bottom + 0.75, z), 0.25)
    return AABB((x - 0.25, bottom, z - 0.25), (x + 0.25, bottom + 1.0, z + 0.25))


def lowest(shape: Capsule | AABB) -> float:
    """The character's lowest height."""
    if isinstance(shape, Capsule):
        return min(shape.a[1], shape.b[1]) - shape.radius
    return shape.min[1]


def front(shape: Capsule | AABB) -> float:
    """The character's largest x."""
    if isinstance(shape, Capsule):
        return max(shape.a[0], shape.b[0]) + shape.radius
    return shape.max[0]


def walk(shape: Capsule | AABB, velocity: tuple[float, float, float], dt: float, steps: int,
         level: object, **kwargs: float) -> tuple[Capsule | AABB, object]:
    """``steps`` calls of move_and_slide, checking after each that the character is clear."""
    r = None
    for _ in range(steps):
        r = move_and_slide(shape, velocity, dt, [level], skin=SKIN, **kwargs)
        shape = r.shape
        c = contact(shape, level)
        assert c is None or c.depth <= 1e-9
    return shape, r


@pytest.mark.parametrize("kind", KINDS)
def test_capsule_and_box_land_on_the_mesh_floor_and_walk_up_the_ramp(kind: str) -> None:
    shape, r = walk(character(kind, 1.0, 1.5, 2.0), (0.0, -10.0, 0.0), 0.5, 1, LEVEL)
    assert r.on_floor and tuple(r.floor_normal) == (0.0, 1.0, 0.0)
    assert lowest(shape) == pytest.approx(SKIN, abs=1e-9)
    # up the 26.6 degree ramp (under floor_max_angle): its normal is the floor's
    n = (-1.0 / math.sqrt(5.0), 2.0 / math.sqrt(5.0), 0.0)
    shape, r = walk(shape, (5.0, -0.5, 0.0), 0.25, 4, LEVEL)
    assert r.on_floor and r.floor_normal == pytest.approx(n, abs=1e-9)
    assert front(shape) > 5.5
    # the lowest point of the character over the ramp's plane: about a skin
    if isinstance(shape, Capsule):
        c = shape.a if shape.a[1] < shape.b[1] else shape.b
        gap = (c[0] - 4.0) * n[0] + c[1] * n[1] - shape.radius
    else:
        gap = (shape.max[0] - 4.0) * n[0] + shape.min[1] * n[1]
    assert 0.0 <= gap <= 2.0 * SKIN + 1e-9


@pytest.mark.parametrize("kind", KINDS)
def test_capsule_and_box_stop_at_a_wall_of_the_mesh(kind: str) -> None:
    room = TriangleMesh(vertices=[(0, 0, 0), (4, 0, 0), (4, 0, 4), (0, 0, 4), (4, 3, 0),
                                  (4, 3, 4)],
                        triangles=[(0, 3, 2), (0, 2, 1), (1, 2, 5), (1, 5, 4)])
    shape, r = walk(character(kind, 1.0, SKIN, 2.0), (10.0, 0.0, 0.0), 1.0, 2, room)
    assert r.on_wall and r.on_floor
    assert 4.0 - 2.0 * SKIN <= front(shape) <= 4.0
    assert lowest(shape) == pytest.approx(SKIN, abs=1e-9)


@pytest.mark.parametrize("kind", KINDS)
def test_capsule_and_box_do_not_climb_a_steep_face(kind: str) -> None:
    """A 63 degree face (over floor_max_angle) beyond a flat floor stops the character at its
    foot; it never rises."""
    level = TriangleMesh(vertices=[(0, 0, 0), (4, 0, 0), (4, 0, 4), (0, 0, 4), (5, 2, 0),
                                   (5, 2, 4)],
                         triangles=[(0, 3, 2), (0, 2, 1), (1, 2, 5), (1, 5, 4)])
    shape = character(kind, 1.0, SKIN, 2.0)
    for _ in range(10):
        shape, r = walk(shape, (3.0, -1.0, 0.0), 0.25, 1, level)
        assert lowest(shape) <= SKIN + 1e-9
    assert r.on_floor
    assert front(shape) == pytest.approx(front(walk(shape, (3.0, -1.0, 0.0), 0.25, 1,
                                                    level)[0]), abs=1e-9)


@pytest.mark.parametrize("kind", KINDS)
def test_capsule_and_box_climb_mesh_stairs_only_with_step_height(kind: str) -> None:
    stairs = _stairs()
    shape, r = walk(character(kind, 1.0, SKIN, 2.0), (3.0, -2.0, 0.0), 1.0 / 15.0, 28,
                    stairs, step_height=0.35)
    assert r.on_floor and tuple(r.floor_normal) == (0.0, 1.0, 0.0)
    assert front(shape) > 5.5
    assert 0.9 <= lowest(shape) <= 0.9 + SKIN + 1e-9  # on the landing
    shape, r = walk(character(kind, 1.0, SKIN, 2.0), (3.0, -2.0, 0.0), 1.0 / 15.0, 28, stairs)
    assert r.on_floor and r.on_wall
    assert 3.0 - 2.0 * SKIN <= front(shape) <= 3.0  # at the first riser
    assert lowest(shape) <= SKIN + 1e-9


_STAIRS = _stairs()


@pytest.mark.parametrize("kind", KINDS)
def test_a_mesh_ceiling_stops_a_capsule_or_box_jump(kind: str) -> None:
    shape, r = walk(character(kind, 1.0, SKIN, 2.0), (0.0, 10.0, 0.0), 1.0, 1, _stairs())
    assert r.on_ceiling and not r.on_floor
    top = lowest(shape) + 1.0
    assert 2.0 - 2.0 * SKIN <= top <= 2.0


@pytest.mark.parametrize("kind", KINDS)
def test_capsule_and_box_walk_a_rolling_height_field_and_never_end_inside(kind: str) -> None:
    """Gentle hills of many triangles: the character (snapped down the slopes) stays on its
    floor and clear of it after every call, close over it (a slide along a tangent plane
    over a hill's curve ends a little higher than the skin, as a ball's does)."""
    i, j = np.mgrid[0:24, 0:24]
    heights = 0.3 * np.sin(0.5 * j) * np.cos(0.4 * i)
    terrain = HeightField(heights, (0.5, 1.0, 0.5))
    shape = character(kind, 1.0, 1.0, 1.5)
    shape, r = walk(shape, (0.0, -10.0, 0.0), 0.5, 1, terrain)
    assert r.on_floor
    for _ in range(40):
        shape, r = walk(shape, (2.0, -3.0, 1.2), 0.1, 1, terrain, floor_snap_length=0.2)
        assert r.on_floor
        gap = distance(shape, terrain)
        assert 0.0 < gap <= 0.03


@pytest.mark.parametrize("kind", KINDS)
@pytest.mark.parametrize("speed", [1e-3, 0.3, 3.0, 30.0])
def test_capsule_and_box_slide_over_a_floor_of_small_triangles_without_bumps(
        kind: str, speed: float) -> None:
    """Sliding across hundreds of seams (flat edges) at any speed: always the face normal, and
    the height never changes (a seam's normal would lift or stop the character)."""
    floor = grid_floor(24, 0.25, seed=7)
    shape = character(kind, 0.6, SKIN, 0.7)
    for _ in range(6):
        r = move_and_slide(shape, (speed, -1.0, 0.61 * speed), 0.8 / speed, [floor], skin=SKIN)
        shape = r.shape
        assert r.on_floor and tuple(r.floor_normal) == (0.0, 1.0, 0.0)
        assert lowest(shape) == pytest.approx(SKIN, abs=1e-9)
        c = contact(shape, floor)
        assert c is None or c.depth <= 1e-9


@settings(max_examples=30, deadline=None)
@given(kind=st.sampled_from(KINDS), x=st.one_of(st.floats(0.3, 2.7), st.floats(3.3, 7.5)),
       z=st.floats(0.5, 3.5),
       moves=st.lists(st.tuples(st.floats(-6.0, 6.0), st.floats(-6.0, 6.0),
                                st.floats(-6.0, 6.0)), min_size=1, max_size=5))
def test_capsule_and_box_characters_never_end_inside_the_stairs(kind: str, x: float, z: float,
                                                                moves: list) -> None:
    """Random moves through the stairs level (treads, risers, a ceiling) from a clear start:
    after every call the character overlaps the mesh by no more than rounding."""
    stairs = _STAIRS
    # on the floor under the ceiling (x < 3), else clear over the steps and the landing
    shape = character(kind, x, SKIN if x < 3.0 else 1.0, z)
    assert contact(shape, stairs) is None
    for v in moves:
        shape, _r = walk(shape, v, 0.2, 1, stairs, step_height=0.35)


@pytest.mark.parametrize("kind", KINDS)
def test_capsule_and_box_walk_a_mesh_held_by_a_world(kind: str) -> None:
    """The World answers a mesh collider through the scalar queries: the same landing and
    ramp as with the mesh in a list, the collider named by its handle."""
    world = World()
    world.add(Sphere((100.0, 100.0, 100.0), 1.0))
    level = world.add(LEVEL)
    r = world.move_and_slide(character(kind, 1.0, 1.5, 2.0), (0.0, -10.0, 0.0), 0.5, skin=SKIN)
    assert r.on_floor and r.floor_collider == level
    assert lowest(r.shape) == pytest.approx(SKIN, abs=1e-9)
    listed = move_and_slide(character(kind, 1.0, 1.5, 2.0), (0.0, -10.0, 0.0), 0.5, [LEVEL],
                            skin=SKIN)
    assert r.shape == listed.shape
    r = world.move_and_slide(r.shape, (5.0, -0.5, 0.0), 0.8, skin=SKIN)
    assert front(r.shape) > 4.5
    assert r.on_floor and r.floor_normal == pytest.approx(
        (-1.0 / math.sqrt(5.0), 2.0 / math.sqrt(5.0), 0.0), abs=1e-9)
    assert all(c.depth <= 1e-9 for c in world.contacts(r.shape))


@pytest.mark.parametrize("kind", KINDS)
def test_capsule_and_box_on_a_height_field_ramp_and_steep_rise(kind: str) -> None:
    """A terrain flat for x <= 3, a ramp rising 0.5 a unit (26.6 degrees) to x = 5, then a
    rise of 2 in one unit (63 degrees, over floor_max_angle): the character lands, takes the
    ramp as its floor, and stops at the foot of the rise without climbing it."""
    profile = [0.0, 0.0, 0.0, 0.0, 0.5, 1.0, 3.0, 3.0]
    terrain = HeightField(np.tile(profile, (6, 1)), (1.0, 1.0, 1.0))
    shape, r = walk(character(kind, 1.0, 1.0, 2.5), (0.0, -10.0, 0.0), 0.5, 1, terrain)
    assert r.on_floor and tuple(r.floor_normal) == (0.0, 1.0, 0.0)
    assert lowest(shape) == pytest.approx(SKIN, abs=1e-9)
    ramp = (-0.5 / math.sqrt(1.25), 1.0 / math.sqrt(1.25), 0.0)
    on_ramp = False
    for _ in range(16):
        shape, r = walk(shape, (2.0, -1.0, 0.0), 0.25, 1, terrain)
        # (in the crease at the rise's foot the probe down may meet the rise first: a wall)
        assert r.on_floor or r.on_wall
        if r.floor_normal == pytest.approx(ramp, abs=1e-9):
            on_ramp = True
        # never up the rise: no higher than the ramp's top, never past the rise's first metre
        assert lowest(shape) <= 1.0 + 2.0 * SKIN
        assert front(shape) < 5.3
    assert on_ramp
    assert front(shape) > 4.9  # it reached the rise


#: a floor (y = 0, x from 0 to 4) and a wall at x = 4 rising to y = 3, z from 0 to 4
ROOM = TriangleMesh([(0, 0, 0), (4, 0, 0), (4, 0, 4), (0, 0, 4), (4, 3, 0), (4, 3, 4)],
                    [(0, 3, 2), (0, 2, 1), (1, 2, 5), (1, 5, 4)])


@pytest.mark.parametrize("as_world", [False, True])
@pytest.mark.parametrize("skin", [SKIN, 0.0])
@pytest.mark.parametrize("kind", ["sphere", "capsule", "box"])
def test_a_character_standing_exactly_on_the_floor_stops_at_the_wall_of_the_same_mesh(
        kind: str, skin: float, as_world: bool) -> None:
    """A mesh is one obstacle, and its sweep answers a start in contact at 0 with the face
    touched: a character standing exactly on the floor (touching it, as one placed there
    is, or any with ``skin=0``) got the floor back, the motion runs along it, so the cast was
    dropped as not an impact, and the wall of the same mesh ahead was never seen: every one
    of these walked through it to x = 11. The cast now passes over the touches the motion
    does not head into and meets the wall."""
    shape = {"sphere": Sphere((1.0, 0.5, 2.0), 0.5),
             "capsule": Capsule((1.0, 0.25, 2.0), (1.0, 0.75, 2.0), 0.25),
             "box": AABB((0.75, 0.0, 1.75), (1.25, 1.0, 2.25))}[kind]
    if as_world:
        world = World()
        world.add(ROOM)
        r = world.move_and_slide(shape, (10.0, 0.0, 0.0), 1.0, skin=skin)
    else:
        r = move_and_slide(shape, (10.0, 0.0, 0.0), 1.0, [ROOM], skin=skin)
    assert r.on_wall and r.on_floor
    assert r.position[0] == pytest.approx((4.0 - skin) - (0.5 if kind == "sphere" else 0.25),
                                          abs=1e-12)
    assert r.position[1] == pytest.approx(0.5, abs=1e-12)
    assert r.velocity == (0.0, 0.0, 0.0)


@pytest.mark.parametrize("center, radius, motion", [
    ((1000002.4245414367, 1000001.0469717685, 1000002.9238223692), 0.3061302244168568,
     (20.0, 6.0, -0.17135889592948675)),
    ((1000000.5181767343, 1000000.5322934247, 1000003.4975283452), 0.36094764463519513,
     (20.0, 6.0, -0.21239183866414085)),
])
def test_a_ball_sliding_up_a_ramp_far_from_the_origin_stops_at_the_wall_above_it(
        center: tuple, radius: float, motion: tuple) -> None:
    """A ball placed on a ramp (its centre a radius along the ramp's normal, rounded at
    coordinates of 1e6) and moved up along it, skin 0: the ramp's sweep answered a touch at 0
    or, a rounding's hair away, a little way on, the motion running along the ramp; either
    answer was dropped as not an impact, and the wall of the same mesh at the ramp's top was
    never seen (207 of 300 such balls passed through it). A touch the motion does not head
    into is passed over, at any fraction."""
    off = 1e6
    ramp = TriangleMesh(np.array([(0, 0, 0), (6, 1.8, 0), (6, 1.8, 4), (0, 0, 4), (6, 1.8, 0),
                                  (6, 6, 0), (6, 6, 4), (6, 1.8, 4)]) + off,
                        [(0, 1, 2), (0, 2, 3), (4, 5, 6), (4, 6, 7)])
    r = move_and_slide(Sphere(center, radius), motion, 1.0, [ramp], skin=0.0)
    assert r.on_wall
    assert r.position[0] - off == pytest.approx(6.0 - radius, abs=1e-9)
    c = contact(r.shape, ramp)
    assert c is None or c.depth <= 1e-9 * off
