"""move_and_slide never ends inside geometry: regressions, bad input and the invariant."""

from __future__ import annotations

import math
from typing import Any

import pytest
from hypothesis import HealthCheck, assume, given, settings
from hypothesis import strategies as st

from swept.chain import Chain, contact_obstacle
from swept.controller import move_and_slide
from swept.demos.walls_and_slides import BUMPERS, WALLS
from swept.shapes import AABB, Capsule, Circle, Plane, Polygon, Segment, Shape, Sphere
from swept.vec import Vec2, Vec3
from swept.world import World

DT = 1.0 / 60.0
#: the invariant's allowance: a contact depth above this fraction of the scene's scale is
#: inside
INSIDE = 1e-9


def deepest(shape: Shape, obstacles: list[Any]) -> float:
    """The deepest contact of ``shape`` with ``obstacles`` (0 when it touches none)."""
    depth = 0.0
    for o in obstacles:
        c = contact_obstacle(shape, o)
        if c is not None:
            depth = max(depth, c.depth)
    return depth


def scene_scale(shape: Shape, obstacles: list[Any]) -> float:
    """The largest coordinate magnitude among the character's and the obstacles' boxes
    (planes and unbounded boxes left out)."""
    scale = 0.0
    for o in [shape, *obstacles]:
        if isinstance(o, Plane):
            scale = max(scale, abs(o.offset))
            continue
        box = o.aabb
        scale = max(scale, *(abs(c) for c in (*box.min, *box.max)))
    return scale


# ---------------------------------------------------------------------------- regressions

def test_autostep_does_not_climb_a_step_taller_than_step_height() -> None:
    """The step-up's forward and down legs missed a box edge the sphere sat a skin from (a
    cast's rounding), so it landed inside the 0.9 step, then climbed again from there into the
    1.2 one; a step must land no higher than step_height and clear, or not be taken."""
    floor = AABB((-100.0, -10.0, -100.0), (100.0, 0.0, 100.0))
    tall = AABB((-4.0, 0.0, -5.0), (-3.0, 1.2, 5.0))
    step = AABB((-3.0, 0.0, -5.0), (-2.0, 0.9, 5.0))
    obstacles = [floor, tall, step]
    r = move_and_slide(Sphere((5.0, 1.001, 0.0), 1.0), (-6000.0, 0.0, 0.0), DT, obstacles,
                       step_height=0.5)
    assert deepest(r.shape, obstacles) == 0.0
    # stopped a skin from the 0.9 step's edge, on the floor: no climb at all
    assert r.position[1] == pytest.approx(1.001, abs=1e-12)
    assert r.on_floor
    edge = Vec2(-2.0, 0.9)
    gap = (Vec2(r.position[0], r.position[1]) - edge).length() - 1.0
    assert gap == pytest.approx(0.001, abs=1e-9)


def test_autostep_still_climbs_a_step_within_step_height() -> None:
    floor = AABB((-100.0, -10.0, -100.0), (100.0, 0.0, 100.0))
    step = AABB((-100.0, 0.0, -5.0), (-2.0, 0.4, 5.0))
    r = move_and_slide(Sphere((5.0, 1.001, 0.0), 1.0), (-600.0, 0.0, 0.0), DT, [floor, step],
                       step_height=0.5)
    assert deepest(r.shape, [floor, step]) == 0.0
    assert r.on_floor and r.position[1] == pytest.approx(1.401, abs=1e-9)
    assert r.position[0] < -2.0


def test_a_sphere_a_skin_from_a_box_edge_is_stopped_by_the_edge() -> None:
    """The sphere-box cast with a skin misses the box when the sphere starts exactly on the
    skin's boundary at an edge (rounding puts the start inside the edge's capsule, and that
    entry is dropped), so the sphere walked into the box; a skin cast must not miss what the
    bare cast hits, and the edge must stop it where it starts."""
    box = AABB((-3.0, 0.0, -5.0), (-2.0, 0.9, 5.0))
    start = Sphere((-1.19950015615242, 1.501, 0.0), 1.0)
    r = move_and_slide(start, (-60.0, 0.0, 0.0), DT, [box])
    assert deepest(r.shape, [box]) == 0.0
    assert len(r.collisions) == 1 and r.collisions[0].travel.length() == 0.0
    n = r.collisions[0].normal
    # it starts on the skin's boundary: the normal points from the edge x = -2, y = 0.9 to
    # the centre, the shortest way out
    assert n.is_close(Vec3(-1.19950015615242 + 2.0, 1.501 - 0.9, 0.0).normalized(), 1e-9)
    # it slides up the edge's round: never past the edge's line x = -2
    assert r.position[0] > -2.0 and r.position[1] > 1.501


@pytest.mark.parametrize("height", [0.4995, 0.5, 0.501])
def test_autostep_climbs_a_step_up_to_step_height_above_the_feet(height: float) -> None:
    # the feet are a skin above the floor: a step whose top is up to step_height above the
    # feet (0.501 here) is climbed, and the sphere rests a skin above its top
    floor = AABB((-100.0, -10.0, -100.0), (100.0, 0.0, 100.0))
    step = AABB((-100.0, 0.0, -5.0), (-2.0, height, 5.0))
    r = move_and_slide(Sphere((5.0, 1.001, 0.0), 1.0), (-600.0, 0.0, 0.0), DT, [floor, step],
                       step_height=0.5)
    assert deepest(r.shape, [floor, step]) == 0.0
    assert r.on_floor and r.position[0] == pytest.approx(-5.0, abs=1e-12)
    assert r.position[1] == pytest.approx(1.0 + height + 0.001, abs=1e-12)


@pytest.mark.parametrize("height", [0.5012, 0.52, 0.6])
def test_autostep_does_not_perch_on_the_edge_of_a_step_a_little_too_tall(height: float) -> None:
    """Raised by step_height, a sphere moved forward over a slightly taller step's edge meets
    its round from above, at a walkable slope, and the drop "landed" there at once: it
    perched in the air on the edge, and the next slide launched it up the edge's tangent.
    The height climbed is the stood-on point's above the feet, and must be <= step_height."""
    floor = AABB((-100.0, -10.0, -100.0), (100.0, 0.0, 100.0))
    step = AABB((-100.0, 0.0, -5.0), (-2.0, height, 5.0))
    r = move_and_slide(Sphere((5.0, 1.001, 0.0), 1.0), (-600.0, 0.0, 0.0), DT, [floor, step],
                       step_height=0.5)
    assert deepest(r.shape, [floor, step]) == 0.0
    # stopped by the step's edge, a skin from it, on the floor
    assert r.position[1] == pytest.approx(1.001, abs=1e-12)
    gap = (Vec2(r.position[0], r.position[1]) - Vec2(-2.0, height)).length() - 1.0
    assert gap == pytest.approx(0.001, abs=1e-9)


POLYGON = [(-47.829179606631826, -31.85435890984033), (-48.658359213381885, -30.71309109028614),
           (-49.999999999881766, -31.149016607089365), (-49.999999999881766, -32.55970121259129),
           (-48.658359213381885, -32.995626729394516)]


def test_a_polygon_a_hair_from_a_wall_does_not_drift_into_it_while_sliding() -> None:
    """The cast's normal, from closest points 1.2e-10 apart, was 6e-5 off the wall's, and 90
    units of slide along that tilted plane took the polygon 0.0055 into the wall: the slide
    plane must be the exact face normal (the best separating axis)."""
    walls = [Segment((-50.0, 60.0), (-50.0, -50.0)), Segment((80.0, 60.0), (-50.0, 60.0))]
    poly = Polygon(POLYGON)
    r = move_and_slide(poly, (-51501.565114794736, 56534.57113390654), DT, walls,
                       max_slides=8)
    assert deepest(r.shape, walls) == 0.0
    # slid straight up the wall, keeping its x, and stopped a skin under the top wall
    assert r.collisions[0].normal == Vec2(1.0, 0.0)
    assert min(p[0] for p in r.shape.points) == -49.999999999881766  # type: ignore[attr-defined]
    assert max(p[1] for p in r.shape.points) == pytest.approx(60.0 - 0.001,  # type: ignore
                                                              abs=1e-9)


def test_a_world_gives_the_same_ends_as_a_list() -> None:
    walls = [Segment((-50.0, 60.0), (-50.0, -50.0)), Segment((80.0, 60.0), (-50.0, 60.0))]
    world = World()
    for w in walls:
        world.add(w)
    velocity = (-51501.565114794736, 56534.57113390654)
    r = world.move_and_slide(Polygon(POLYGON), velocity, DT, max_slides=8)
    assert r.shape == move_and_slide(Polygon(POLYGON), velocity, DT, walls,
                                     max_slides=8).shape
    assert deepest(r.shape, walls) == 0.0
    steps = World()
    for box in (AABB((-100.0, -10.0, -100.0), (100.0, 0.0, 100.0)),
                AABB((-4.0, 0.0, -5.0), (-3.0, 1.2, 5.0)),
                AABB((-3.0, 0.0, -5.0), (-2.0, 0.9, 5.0))):
        steps.add(box)
    r3 = steps.move_and_slide(Sphere((5.0, 1.001, 0.0), 1.0), (-6000.0, 0.0, 0.0), DT,
                              step_height=0.5)
    assert r3.position[1] == pytest.approx(1.001, abs=1e-12)


def test_the_safety_net_pushes_out_what_a_failed_cast_let_in(
        monkeypatch: pytest.MonkeyPatch) -> None:
    """If every cast missed (a kernel's failure), the slide would end inside the wall: the
    end state is verified, and a character inside is pushed out to the skin along the
    contact's normal."""
    import swept.controller as controller

    monkeypatch.setattr(controller, "sweep", lambda *a, **k: None)
    wall = AABB((10.0, -50.0), (20.0, 50.0))
    r = move_and_slide(Circle((0.0, 0.0), 1.0), (660.0, 0.0), DT, [wall])
    # the blind move ends at x = 11, 2 inside: pushed out of the near face, to the skin
    assert r.position == Vec2(9.0 - 0.001, 0.0)
    assert deepest(r.shape, [wall]) == 0.0


def test_the_safety_net_puts_back_a_character_it_cannot_push_out(
        monkeypatch: pytest.MonkeyPatch) -> None:
    """A blind move into a slot narrower than the character cannot be pushed out of both
    sides: it is put back where its slides began."""
    import swept.controller as controller

    monkeypatch.setattr(controller, "sweep", lambda *a, **k: None)
    slot = [AABB((10.0, -50.0), (20.0, -0.5)), AABB((10.0, 0.5), (20.0, 50.0)),
            AABB((20.0, -50.0), (30.0, 50.0))]
    start = Circle((0.0, 0.0), 1.0)
    r = move_and_slide(start, (900.0, 0.0), DT, slot)
    assert r.shape == start


# ---------------------------------------------------------------------------- bad input

@pytest.mark.parametrize("obstacles", [None, 3, 2.5, object(), Circle((0.0, 0.0), 1.0), "ab"])
def test_obstacles_that_are_not_a_list_raise_type_error(obstacles: Any) -> None:
    with pytest.raises(TypeError, match="obstacles"):
        move_and_slide(Circle((0.0, 0.0), 1.0), (1.0, 0.0), DT, obstacles)


def test_an_obstacle_that_is_not_a_shape_names_its_index() -> None:
    good = Segment((5.0, -5.0), (5.0, 5.0))
    for bad in (None, (1.0, 2.0), "wall"):
        with pytest.raises(TypeError, match=r"obstacles\[1\]"):
            move_and_slide(Circle((0.0, 0.0), 1.0), (1.0, 0.0), DT, [good, bad])
    with pytest.raises(TypeError, match=r"obstacles\[0\]"):
        move_and_slide(Sphere((0.0, 0.0, 0.0), 1.0), (1.0, 0.0, 0.0), DT, iter([7]))


# ---------------------------------------------------------------------------- the invariant

def room_2d() -> list[Any]:
    """A room of segments with thin walls, a corner, a wedge and a chain inside."""
    return [
        Segment((-50.0, -50.0), (50.0, -50.0)), Segment((50.0, -50.0), (50.0, 50.0)),
        Segment((50.0, 50.0), (-50.0, 50.0)), Segment((-50.0, 50.0), (-50.0, -50.0)),
        AABB((-20.0, -30.0), (-19.99, 30.0)),                       # a thin wall
        Segment((10.0, 10.0), (30.0, 10.0)), Segment((30.0, 10.0), (30.0, 30.0)),  # a corner
        Polygon([(0.0, -40.0), (20.0, -10.0), (2.0, -40.0)]),         # a sharp wedge
        Polygon.regular(5, 6.0, (-35.0, 20.0), 0.3),
        Chain([(10.0, 40.0), (20.0, 35.0), (30.0, 40.0), (40.0, 35.0)]),
    ]


coord = st.floats(-49.0, 49.0, allow_nan=False)
speed = st.floats(-1e5, 1e5, allow_nan=False)


@st.composite
def character_2d(draw: Any) -> Shape:
    kind = draw(st.sampled_from(["circle", "capsule", "box", "polygon"]))
    x, y = draw(coord), draw(coord)
    size = draw(st.floats(0.05, 5.0))
    if kind == "circle":
        return Circle((x, y), size)
    if kind == "capsule":
        a = draw(st.floats(0.0, 2.0 * math.pi))
        half = draw(st.floats(0.0, 4.0))
        d = Vec2(math.cos(a), math.sin(a)) * half
        return Capsule(Vec2(x, y) - d, Vec2(x, y) + d, size)
    if kind == "box":
        h = draw(st.floats(0.05, 5.0))
        return AABB((x - size, y - h), (x + size, y + h))
    n = draw(st.integers(3, 7))
    return Polygon.regular(n, size, (x, y), draw(st.floats(0.0, 2.0 * math.pi)))


def check_invariant(shape: Shape, velocity: Any, obstacles: list[Any], **kw: Any) -> None:
    assume(deepest(shape, obstacles) == 0.0)
    r = move_and_slide(shape, velocity, DT, obstacles, **kw)
    assert deepest(r.shape, obstacles) <= INSIDE * scene_scale(shape, obstacles), r
    assert all(math.isfinite(c) for c in (*r.position, *r.velocity))


@settings(max_examples=500, deadline=None, suppress_health_check=[HealthCheck.filter_too_much])
@given(character_2d(), speed, speed, st.sampled_from([4, 8]))
def test_2d_a_character_outside_never_ends_inside(shape: Shape, vx: float, vy: float,
                                                   slides: int) -> None:
    check_invariant(shape, (vx, vy), room_2d(), max_slides=slides)


@settings(max_examples=300, deadline=None, suppress_health_check=[HealthCheck.filter_too_much])
@given(character_2d(), speed, speed)
def test_2d_walls_and_slides_scene(shape: Shape, vx: float, vy: float) -> None:
    # the demo's polygon walls (the wedge's thin turned arms, the window's edges) and round
    # bumpers, the character moved into the window
    obstacles: list[Any] = [*WALLS, *BUMPERS]
    placed = shape.translated((500.0, 350.0))  # type: ignore[attr-defined]
    check_invariant(placed, (vx, vy), obstacles, max_slides=8)


@settings(max_examples=300, deadline=None, suppress_health_check=[HealthCheck.filter_too_much])
@given(character_2d(), speed, speed)
def test_2d_a_hair_from_a_wall_never_drifts_into_it(shape: Shape, vx: float, vy: float
                                                    ) -> None:
    # put the character a hair right of the wall x = -50, where cast normals are poorest
    walls: list[Any] = [Segment((-50.0, 60.0), (-50.0, -50.0)),
                        Segment((80.0, 60.0), (-50.0, 60.0)), AABB((-60.0, -60.0), (-50.0, -55.0))]
    gap = 1e-10
    placed = shape.translated((-50.0 + gap - shape.aabb.min[0], 0.0))  # type: ignore
    check_invariant(placed, (vx, vy), walls, max_slides=8)


FLOOR_Y = 100.0


def steps_2d() -> list[Any]:
    """A floor (y down) with steps of 3, 6, 9 and 12, a low ramp and a thin hanging wall."""
    f = FLOOR_Y
    return [AABB((-200.0, f), (200.0, f + 40.0)), AABB((-40.0, f - 12.0), (-30.0, f)),
            AABB((-30.0, f - 9.0), (-20.0, f)), AABB((20.0, f - 3.0), (30.0, f)),
            AABB((30.0, f - 6.0), (40.0, f)), Polygon([(50.0, f), (80.0, f), (80.0, f - 8.0)]),
            AABB((-60.0, f - 100.0), (-59.99, f - 5.0))]


@settings(max_examples=200, deadline=None, suppress_health_check=[HealthCheck.filter_too_much])
@given(st.sampled_from(["circle", "capsule", "box", "polygon"]), st.floats(0.5, 6.0),
       st.floats(-80.0, 90.0), st.floats(-1e5, 1e5), st.sampled_from([5.0, 7.0]),
       st.sampled_from([0.0, 3.0]))
def test_2d_walking_into_steps_never_ends_inside(kind: str, size: float, x: float, vx: float,
                                                  step: float, snap: float) -> None:
    # resting a skin above the floor, walking (under gravity) into steps of all heights
    y = FLOOR_Y - 0.001
    shape: Shape = {
        "circle": lambda: Circle((x, y - size), size),
        "capsule": lambda: Capsule((x, y - 3.0 * size), (x, y - size), size),
        "box": lambda: AABB((x - size, y - 2.0 * size), (x + size, y)),
        "polygon": lambda: Polygon.box(size, size, (x, y - size)),
    }[kind]()
    obstacles = steps_2d()
    assume(deepest(shape, obstacles) == 0.0)
    velocity = Vec2(vx, 0.0)
    for _ in range(5):
        velocity = velocity + Vec2(0.0, 980.0 * DT)
        r = move_and_slide(shape, velocity, DT, obstacles, step_height=step,
                           floor_snap_length=snap)
        assert deepest(r.shape, obstacles) <= INSIDE * 200.0, r
        shape, velocity = r.shape, r.velocity


def room_3d() -> list[Any]:
    """A floor with steps of 0.3, 0.6, 0.9 and 1.2 (some climbable at 0.5), walls, a thin
    wall, and a sloped plane."""
    return [
        AABB((-100.0, -10.0, -100.0), (100.0, 0.0, 100.0)),
        AABB((-4.0, 0.0, -5.0), (-3.0, 1.2, 5.0)),
        AABB((-3.0, 0.0, -5.0), (-2.0, 0.9, 5.0)),
        AABB((2.0, 0.0, -5.0), (3.0, 0.3, 5.0)),
        AABB((3.0, 0.0, -5.0), (4.0, 0.6, 5.0)),
        AABB((-10.0, 0.0, 6.0), (10.0, 5.0, 6.01)),                  # a thin wall
        AABB((10.0, 0.0, -10.0), (11.0, 5.0, 10.0)),
        Plane((0.5, 1.0, 0.0), -6.0),                               # a slope on the left
        Plane((0.0, 0.0, 1.0), -12.0),
    ]


@st.composite
def character_3d(draw: Any) -> Shape:
    x = draw(st.floats(-9.0, 9.0))
    z = draw(st.floats(-9.0, 5.0))
    r = draw(st.floats(0.1, 1.0))
    # resting a skin above the floor, or a little above it
    y = r + draw(st.sampled_from([0.001, 0.0, 0.01, 0.3, 1.0]))
    if draw(st.booleans()):
        return Sphere((x, y, z), r)
    h = draw(st.floats(0.0, 1.5))
    return Capsule((x, y, z), (x, y + h, z), r)


@settings(max_examples=400, deadline=None, suppress_health_check=[HealthCheck.filter_too_much])
@given(character_3d(), speed, st.floats(-1e3, 1e3), speed, st.sampled_from([0.0, 0.5]),
       st.sampled_from([0.0, 0.2]))
def test_3d_a_character_outside_never_ends_inside(shape: Shape, vx: float, vy: float,
                                                   vz: float, step: float, snap: float
                                                   ) -> None:
    check_invariant(shape, (vx, vy, vz), room_3d(), step_height=step, floor_snap_length=snap,
                    up=(0.0, 1.0, 0.0))


@settings(max_examples=400, deadline=None, suppress_health_check=[HealthCheck.filter_too_much])
@given(st.floats(0.1, 1.0), st.floats(-1.0, 9.0), st.floats(-4.0, 4.0), st.floats(-1e5, -100.0),
       st.sampled_from([0.0, -10.0]), st.sampled_from([0.0, 0.001, 0.01]),
       st.sampled_from([0.0, 0.2]), st.booleans())
def test_3d_walking_into_steps_never_ends_inside(r: float, x: float, z: float, vx: float,
                                                  vy: float, vz: float, snap: float,
                                                  sphere: bool) -> None:
    # resting a skin above the floor, right of the steps, walking along -x over the low ones
    # into the tall ones: autostep's case
    shape: Shape = Sphere((x, r + 0.001, z), r) if sphere else Capsule(
        (x, r + 0.001, z), (x, r + 1.001, z), r)
    check_invariant(shape, (vx, vy, vz * vx), room_3d(), step_height=0.5,
                    floor_snap_length=snap)


# ---------------------------------------------------------------------------- scale

def scaled_2d(k: float) -> tuple[Shape, list[Any]]:
    walls = [Segment((-50.0 * k, 60.0 * k), (-50.0 * k, -50.0 * k)),
             Segment((80.0 * k, 60.0 * k), (-50.0 * k, 60.0 * k)),
             Polygon([(0.0, -40.0 * k), (20.0 * k, -10.0 * k), (2.0 * k, -40.0 * k)])]
    return Polygon([(x * k, y * k) for x, y in POLYGON]), walls


def scaled_3d(k: float) -> tuple[Shape, list[Any]]:
    floor = AABB((-100.0 * k, -10.0 * k, -100.0 * k), (100.0 * k, 0.0, 100.0 * k))
    tall = AABB((-4.0 * k, 0.0, -5.0 * k), (-3.0 * k, 1.2 * k, 5.0 * k))
    low = AABB((-3.0 * k, 0.0, -5.0 * k), (-2.0 * k, 0.4 * k, 5.0 * k))
    return Sphere((5.0 * k, 1.001 * k, 1.0 * k), 1.0 * k), [floor, tall, low]


@pytest.mark.parametrize("k", [1e-3, 1e4])
@pytest.mark.parametrize("scene, velocity, kw", [
    (scaled_2d, (-51501.565114794736, 56534.57113390654), {"max_slides": 8}),
    (scaled_2d, (-300.0, -2000.0), {"max_slides": 8}),
    (scaled_3d, (-6000.0, 0.0, 500.0), {"step_height": 0.5}),
    (scaled_3d, (-600.0, -100.0, 0.0), {"step_height": 0.5, "floor_snap_length": 0.2}),
], ids=["2d-slide", "2d-wedge", "3d-steps", "3d-step-snap"])
def test_the_same_scene_at_another_scale_ends_at_the_same_place_scaled(
        k: float, scene: Any, velocity: tuple[float, ...], kw: dict[str, Any]) -> None:
    shape, obstacles = scene(1.0)
    one = move_and_slide(shape, velocity, DT, obstacles, skin=0.001, **kw)
    big_shape, big_obstacles = scene(k)
    lengths = {n: v * k for n, v in kw.items() if n in ("step_height", "floor_snap_length")}
    other = move_and_slide(big_shape, tuple(c * k for c in velocity), DT, big_obstacles,
                           skin=0.001 * k, **{**kw, **lengths})
    assert deepest(other.shape, big_obstacles) <= INSIDE * scene_scale(big_shape, big_obstacles)
    scale = scene_scale(shape, obstacles)
    for a, b in zip(one.position, other.position):
        assert b / k == pytest.approx(a, abs=1e-9 * scale)
    assert one.on_floor == other.on_floor and one.on_wall == other.on_wall
    assert len(one.collisions) == len(other.collisions)
