"""OrientedBox and ConvexHull in every query family: exact values, properties, bad input."""

from __future__ import annotations

import itertools
import math
import warnings

import numpy as np
import pytest
from hypothesis import assume, example, given
from hypothesis import strategies as st

from swept import (
    AABB,
    Capsule,
    ConvexHull,
    OrientedBox,
    Plane,
    Ray,
    Sphere,
    Vec3,
    World,
    closest_point,
    closest_points,
    contact,
    distance,
    manifold,
    raycast,
    sweep,
)
from swept.constants import CAST_TOLERANCE

R2 = math.sqrt(2.0)
C = math.sqrt(0.5)
#: a turn of 45 degrees about z: the box's x axis along (1, 1, 0) / sqrt 2
TURN45 = ((C, -C, 0.0), (C, C, 0.0), (0.0, 0.0, 1.0))
#: the unit cube turned 45 degrees about z, at the origin: corners (+-sqrt 2, 0, +-1) and
#: (0, +-sqrt 2, +-1); its vertical edges at x = +-sqrt 2 and y = +-sqrt 2
DIAMOND = OrientedBox((0, 0, 0), (1, 1, 1), TURN45)
HULL_DIAMOND = ConvexHull(DIAMOND.corners)
OCTAHEDRON = ConvexHull([(1, 0, 0), (-1, 0, 0), (0, 1, 0), (0, -1, 0), (0, 0, 1), (0, 0, -1)])


def close(a: object, b: object, tol: float = 1e-12) -> bool:
    """Vectors or numbers equal to within ``tol`` (absolute, per component)."""
    if isinstance(a, (int, float)):
        return abs(a - b) <= tol  # type: ignore[operator]
    return all(abs(x - y) <= tol for x, y in zip(a, b))  # type: ignore[call-overload]


def quaternion(w: float, x: float, y: float, z: float) -> np.ndarray:
    """The rotation matrix of a quaternion (normalised)."""
    q = np.array([w, x, y, z]) / np.linalg.norm([w, x, y, z])
    w, x, y, z = q
    return np.array([
        [1 - 2 * (y * y + z * z), 2 * (x * y - w * z), 2 * (x * z + w * y)],
        [2 * (x * y + w * z), 1 - 2 * (x * x + z * z), 2 * (y * z - w * x)],
        [2 * (x * z - w * y), 2 * (y * z + w * x), 1 - 2 * (x * x + y * y)],
    ])


# ------------------------------------------------------------------------- construction

def test_oriented_box_quaternion_and_matrix_give_one_box() -> None:
    a = math.pi / 8  # half of 45 degrees about z
    q = OrientedBox((0, 0, 0), (1, 1, 1), (math.cos(a), 0, 0, math.sin(a)))
    for got, want in zip(q.rotation, TURN45):
        assert close(got, want, 1e-15)
    assert close(q.axes[0], (C, C, 0), 1e-15)
    # a quaternion of norm 1 + 1e-7 is normalised
    q2 = OrientedBox((0, 0, 0), (1, 1, 1), (1 + 1e-7, 0, 0, 0))
    assert q2.rotation == ((1.0, 0.0, 0.0), (0.0, 1.0, 0.0), (0.0, 0.0, 1.0))


def test_oriented_box_aabb_and_corners() -> None:
    assert close(DIAMOND.aabb.min, (-R2, -R2, -1)) and close(DIAMOND.aabb.max, (R2, R2, 1))
    assert len(set(DIAMOND.corners)) == 8
    box = OrientedBox((1, 2, 3), (0.5, 1, 2), np.eye(3))
    assert box.aabb == AABB((0.5, 1, 1), (1.5, 3, 5))
    assert box.translated((1, 0, 0)).center == Vec3(2, 2, 3)


@pytest.mark.parametrize("rotation, match", [
    (np.eye(3) * 2, "not orthonormal"),
    (np.diag([1.0, 1.0, -1.0]), "reflection"),
    ([[1, 0.01, 0], [0, 1, 0], [0, 0, 1]], "not orthonormal"),
    ((2, 0, 0, 0), "norm 1"),
    ((0, 0, 0, 0), "norm 1"),
    ((1, 0, 0), "3x3 matrix or a quaternion"),
    ([[1, 0], [0, 1]], "3x3 matrix or a quaternion"),
    ((math.nan, 0, 0, 0), "finite"),
    (np.full((3, 3), math.inf), "finite"),
])
def test_bad_rotations_are_value_errors_naming_rotation(rotation: object, match: str) -> None:
    with pytest.raises(ValueError, match=f"rotation.*{match}|{match}.*rotation"):
        OrientedBox((0, 0, 0), (1, 1, 1), rotation)


def test_a_huge_quaternion_is_a_value_error_without_an_overflow_warning() -> None:
    """The quaternion's norm was taken as the square root of its squares, which overflow for
    entries of 1e200: numpy warned of the overflow (an error where warnings are errors) before
    the ValueError. It is measured scaled by its largest entry."""
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        with pytest.raises(ValueError, match=r"rotation.*norm 1.*1\.414213562373095e\+200"):
            OrientedBox((0, 0, 0), (1, 1, 1), (1e200, 1e200, 0, 0))


def test_bad_box_input_names_the_argument() -> None:
    with pytest.raises(TypeError, match="rotation"):
        OrientedBox((0, 0, 0), (1, 1, 1), "identity")
    with pytest.raises(ValueError, match="half_extents"):
        OrientedBox((0, 0, 0), (1, -1, 1), np.eye(3))
    with pytest.raises(ValueError, match="center"):
        OrientedBox((0, math.nan, 0), (1, 1, 1), np.eye(3))
    with pytest.raises(ValueError, match="half_extents"):
        OrientedBox((0, 0, 0), (1, 1), np.eye(3))


def test_a_world_holds_them_as_external_colliders() -> None:
    """The compiled table cannot hold them: the World keeps them outside it and answers
    them through the scalar queries (tests/test_world_external.py has the rest)."""
    w = World()
    handles = [w.add(shape) for shape in (DIAMOND, OCTAHEDRON)]
    ray = Ray((-5, 0, 0.25), (1, 0, 0))
    hit = w.raycast(ray)
    want = min((raycast(ray, s).distance, h) for h, s in zip(handles, (DIAMOND, OCTAHEDRON))
               if raycast(ray, s) is not None)
    assert hit is not None and (hit.distance, hit.handle) == want


# ----------------------------------------------------------------- raycast: exact values

def test_ray_along_x_meets_the_diamonds_vertical_edge() -> None:
    for shape in (DIAMOND, HULL_DIAMOND):
        hit = raycast(Ray((-5, 0, 0.25), (1, 0, 0)), shape)
        assert hit is not None and not hit.started_inside
        assert close(hit.distance, 5 - R2) and close(hit.exit_distance, 5 + R2)
        assert close(hit.point, (-R2, 0, 0.25))
        # either face of the edge, facing the ray
        assert any(close(hit.normal, n) for n in ((-C, -C, 0), (-C, C, 0)))


def test_ray_through_a_corner_of_the_diamond() -> None:
    # from up and left, heading in through the corner (-sqrt 2, 0, 1)
    corner = (-R2, 0.0, 1.0)
    o = (-R2 - 3 * C, 0.0, 1.0 + 3 * C)
    for shape in (DIAMOND, HULL_DIAMOND):
        hit = raycast(Ray(o, (1, 0, -1)), shape)
        assert hit is not None
        assert close(hit.distance, 3.0) and close(hit.point, corner)
        assert hit.normal.dot(Vec3(1, 0, -1)) < 0.0
        assert close(hit.exit_distance, 3.0 + 2 * R2)


def test_ray_square_onto_a_face_of_the_diamond() -> None:
    # along the box's own x axis, from -3 (1, 1, 0): the face -x at distance 1 from the centre
    o = (-3.0, -3.0, 0.5)
    for shape in (DIAMOND, HULL_DIAMOND):
        hit = raycast(Ray(o, (1, 1, 0)), shape)
        assert hit is not None
        assert close(hit.distance, 3 * R2 - 1) and close(hit.exit_distance, 3 * R2 + 1)
        assert close(hit.normal, (-C, -C, 0))
        assert close(hit.point, (-C, -C, 0.5))


def test_rays_grazing_and_missing_the_diamond() -> None:
    for shape in (DIAMOND, HULL_DIAMOND):
        # y = 1.4: inside |x| + |y| <= sqrt 2, entering at x = -(sqrt 2 - 1.4)
        hit = raycast(Ray((-5, 1.4, 0), (1, 0, 0)), shape)
        assert hit is not None and close(hit.distance, 5 - (R2 - 1.4), 1e-12)
        assert close(hit.normal, (-C, C, 0))
        assert raycast(Ray((-5, 1.5, 0), (1, 0, 0)), shape) is None
        # along the top face (z = 1): touching counts
        top = raycast(Ray((-5, 0, 1), (1, 0, 0)), shape)
        assert top is not None and close(top.distance, 5 - R2)
        assert raycast(Ray((-5, 0, 1.0 + 1e-9), (1, 0, 0)), shape) is None
        # short of it, and pointing away
        assert raycast(Ray((-5, 0, 0), (1, 0, 0), max_distance=5 - R2 - 1e-9), shape) is None
        assert raycast(Ray((-5, 0, 0), (-1, 0, 0)), shape) is None
        end = raycast(Ray((-5, 0, 0), (1, 0, 0), max_distance=5 - R2), shape)
        assert end is not None


def test_ray_starting_inside_the_diamond_leaves_through_the_nearest_face() -> None:
    for shape in (DIAMOND, HULL_DIAMOND):
        hit = raycast(Ray((0.5, 0.1, 0.0), (0, 0, 1)), shape)
        assert hit is not None and hit.started_inside and hit.distance == 0.0
        assert hit.point == Vec3(0.5, 0.1, 0.0)
        # local coordinates (0.42, -0.28): the +x face is nearest, 1 - 0.42 away
        assert close(hit.normal, (C, C, 0))
        assert close(hit.exit_distance, 1.0)


def test_octahedron_rays_at_a_vertex_a_face_and_an_edge() -> None:
    hit = raycast(Ray((-5, 0, 0), (1, 0, 0)), OCTAHEDRON)
    assert hit is not None and hit.distance == 4.0 and hit.point == Vec3(-1, 0, 0)
    hit = raycast(Ray((-5, 0.2, 0.1), (1, 0, 0)), OCTAHEDRON)
    assert hit is not None and close(hit.distance, 4.3) and close(hit.exit_distance, 5.7)
    r3 = 1 / math.sqrt(3)
    assert close(hit.normal, (-r3, r3, r3))
    # through the edge from (-1, 0, 0) to (0, 1, 0), at its middle
    hit = raycast(Ray((-0.5, 0.5, -5), (0, 0, 1)), OCTAHEDRON)
    assert hit is not None and close(hit.distance, 5.0) and close(hit.exit_distance, 5.0)


# --------------------------------------------------------------- sweeps: exact values

def test_sphere_sweep_meets_the_diamonds_edge_as_a_cylinder() -> None:
    for shape in (DIAMOND, HULL_DIAMOND):
        hit = sweep(Sphere((-5, 0, 0.5), 1.0), (10, 0, 0), shape)
        assert hit is not None and not hit.started_inside
        assert close(hit.fraction, (4 - R2) / 10)
        assert close(hit.normal, (-1, 0, 0)) and close(hit.point, (-R2, 0, 0.5))
        assert close(hit.position, (-R2 - 1, 0, 0.5))


def test_sphere_sweep_square_onto_a_face_of_the_diamond() -> None:
    for shape in (DIAMOND, HULL_DIAMOND):
        hit = sweep(Sphere((-3, -3, 0), 0.5), (6, 6, 0), shape)
        assert hit is not None
        # the centre reaches the box's -x face grown by 0.5: distance 1.5 from the centre
        assert close(hit.fraction, (3 * R2 - 1.5) / (6 * R2))
        assert close(hit.normal, (-C, -C, 0)) and close(hit.point, (-C, -C, 0))


def test_sphere_sweep_meets_an_octahedron_corner_and_edge() -> None:
    hit = sweep(Sphere((-5, 0, 0), 0.5), (10, 0, 0), OCTAHEDRON)
    assert hit is not None and close(hit.fraction, 0.35) and close(hit.normal, (-1, 0, 0))
    assert close(hit.point, (-1, 0, 0))
    # the edge from (-1, 0, 0) to (0, 1, 0), as a cylinder of radius 0.1
    hit = sweep(Sphere((-5, 0.5, 0), 0.1), (10, 0, 0), OCTAHEDRON)
    assert hit is not None
    assert close(hit.fraction, (4.5 - 0.1 * R2) / 10)
    assert close(hit.normal, (-C, C, 0))


def test_sphere_sweeps_that_miss_or_start_inside() -> None:
    for shape in (DIAMOND, HULL_DIAMOND, OCTAHEDRON):
        assert sweep(Sphere((-5, 3, 0), 0.5), (10, 0, 0), shape) is None
        assert sweep(Sphere((-5, 0, 0), 0.5), (-10, 0, 0), shape) is None
        hit = sweep(Sphere((0.2, 0, 0), 0.1), (10, 0, 0), shape)
        assert hit is not None and hit.started_inside and hit.fraction == 0.0
        assert hit.normal == contact(Sphere((0.2, 0, 0), 0.1), shape).normal


def test_capsule_and_box_sweeps_against_the_diamond_by_conservative_advancement() -> None:
    for shape in (DIAMOND, HULL_DIAMOND):
        hit = sweep(Capsule((-5, 0, -3), (-5, 0, 3), 0.5), (10, 0, 0), shape)
        assert hit is not None
        assert abs(hit.fraction - (4.5 - R2) / 10) <= CAST_TOLERANCE * 20
        assert close(hit.normal, (-1, 0, 0), 1e-6)
        box = AABB((-6, -0.5, -0.5), (-5, 0.5, 0.5))
        hit = sweep(box, (10, 0, 0), shape)
        assert hit is not None and abs(hit.fraction - (5 - R2) / 10) <= CAST_TOLERANCE * 20
        # the moving box against the sphere: the same closed form, reversed
        hit = sweep(shape, (10, 0, 0), Sphere((5, 0, 0), 1.0))
        assert hit is not None and close(hit.fraction, (4 - R2) / 10)
        assert close(hit.normal, (-1, 0, 0)) and close(hit.position, ((4 - R2), 0, 0))
        # against a floor: the lowest corners reach z = -3 after 2 of 4
        hit = sweep(shape, (0, 0, -4), Plane((0, 0, 1), -3))
        assert hit is not None and close(hit.fraction, 0.5) and hit.normal == Vec3(0, 0, 1)


# ------------------------------------------------ contact, distance, closest points: exact

def test_sphere_contact_with_the_diamonds_edge_and_reversed() -> None:
    for shape in (DIAMOND, HULL_DIAMOND):
        c = contact(Sphere((2, 0, 0), 1.0), shape)
        assert c is not None
        assert close(c.normal, (1, 0, 0), 1e-9) and close(c.depth, R2 - 1, 1e-9)
        assert close(c.point, (R2, 0, 0), 1e-9)
        r = contact(shape, Sphere((2, 0, 0), 1.0))
        assert r is not None and close(r.normal, -c.normal) and close(r.depth, c.depth)
        # the reversed point is on the sphere: the box's deepest point pushed out by the depth
        assert close(r.point, (1, 0, 0), 1e-9)
        assert contact(Sphere((2.5, 0, 0), 1.0), shape) is None
        m = manifold(Sphere((2, 0, 0), 1.0), shape)
        assert m is not None and close(m.points[0].depth, R2 - 1, 1e-9)


def test_sphere_centre_inside_the_diamond_leaves_by_the_nearest_face() -> None:
    for shape in (DIAMOND, HULL_DIAMOND):
        c = contact(Sphere((0.5, 0.1, 0.0), 0.25), shape)
        assert c is not None and close(c.normal, (C, C, 0))
        # 1 - (0.5 + 0.1) / sqrt 2 to the face, plus the radius
        assert close(c.depth, 1 - 0.6 * C + 0.25)


def test_capsule_contact_with_the_diamonds_edge() -> None:
    for shape in (DIAMOND, HULL_DIAMOND):
        c = contact(Capsule((2, 0, -5), (2, 0, 5), 1.0), shape)
        assert c is not None and close(c.normal, (1, 0, 0), 1e-9)
        assert close(c.depth, R2 - 1, 1e-9)
        # the core through the box: out by the least push over the separating axes
        c = contact(Capsule((1, 0, -5), (1, 0, 5), 0.5), shape)
        assert c is not None and close(c.depth, (R2 - 1) * C + 0.5)


def test_box_against_box_and_hull_against_hull_by_separating_axes() -> None:
    other = AABB((1, -1, -1), (3, 1, 1))
    for shape in (DIAMOND, HULL_DIAMOND):
        c = contact(shape, other)
        assert c is not None and close(c.normal, (-1, 0, 0)) and close(c.depth, R2 - 1)
        assert close(c.point, (1, 0, 0))
        r = contact(other, shape)
        assert r is not None and close(r.normal, (1, 0, 0)) and close(r.depth, R2 - 1)
    c = contact(DIAMOND, HULL_DIAMOND)
    assert c is not None and close(c.depth, 2.0)
    far = OrientedBox((5, 0, 0), (1, 1, 1), TURN45)
    assert contact(DIAMOND, far) is None
    touching = OrientedBox((2 * R2, 0, 0), (1, 1, 1), TURN45)
    t = contact(DIAMOND, touching)
    assert t is not None and close(t.depth, 0.0)


def test_hull_and_box_against_a_plane() -> None:
    floor = Plane((0, 0, 1), -0.5)
    for shape in (DIAMOND, HULL_DIAMOND):
        c = contact(shape, floor)
        assert c is not None and c.normal == Vec3(0, 0, 1) and close(c.depth, 0.5)
        assert close(c.point, (0, 0, -0.5))
        assert close(distance(shape, Plane((0, 0, 1), -3)), 2.0)


def test_distances_and_closest_points() -> None:
    for shape in (DIAMOND, HULL_DIAMOND):
        assert close(distance(Sphere((5, 0, 0), 1), shape), 4 - R2, 1e-9)
        assert close(distance((5, 0, 0), shape), 5 - R2, 1e-9)
        assert close(closest_point(shape, (5, 0, 0)), (R2, 0, 0), 1e-9)
        # from inside: the nearest face
        gap = 1 - 0.6 * C  # to the +x face, along (C, C, 0)
        assert close(closest_point(shape, (0.5, 0.1, 0)), (0.5 + gap * C, 0.1 + gap * C, 0),
                     1e-12)
        pa, pb, d = closest_points(Capsule((0, 5, -1), (5, 0, -1), 0.5), shape)
        # the capsule's axis is the line x + y = 5, sqrt 2 past the edge x + y = sqrt 2 ...
        assert close(d, (5 - R2) * C - 0.5, 1e-9)
        assert close(distance(shape, OrientedBox((5, 0, 0), (1, 1, 1), TURN45)), 5 - 2 * R2,
                     1e-9)
        assert close(distance(AABB((4, -1, -1), (5, 1, 1)), shape), 4 - R2, 1e-9)
        assert distance(Sphere((0, 0, 0), 1), shape) == 0.0


@pytest.mark.parametrize("scale", [1e-6, 1e-3, 1.0, 1e3, 1e7])
def test_the_diamond_answers_scale_with_the_scene(scale: float) -> None:
    box = OrientedBox((0, 0, 0), (scale, scale, scale), TURN45)
    hull = ConvexHull(box.corners)
    for shape in (box, hull):
        hit = raycast(Ray((-5 * scale, 0, 0.25 * scale), (1, 0, 0)), shape)
        assert hit is not None and abs(hit.distance / scale - (5 - R2)) <= 1e-12
        s = sweep(Sphere((-5 * scale, 0, 0), scale), (10 * scale, 0, 0), shape)
        assert s is not None and abs(s.fraction - (4 - R2) / 10) <= 1e-12
        c = contact(Sphere((2 * scale, 0, 0), scale), shape)
        assert c is not None and abs(c.depth / scale - (R2 - 1)) <= 1e-9


def test_two_dimensional_shapes_are_type_errors() -> None:
    from swept import Circle, Polygon

    for shape in (DIAMOND, OCTAHEDRON):
        with pytest.raises(TypeError):
            raycast(Ray((0, 0), (1, 0)), shape)
        with pytest.raises(TypeError):
            contact(Circle((0, 0), 1), shape)
        with pytest.raises(TypeError):
            contact(shape, AABB((0, 0), (1, 1)))
        with pytest.raises(TypeError):
            sweep(Polygon.box(1, 1), (1, 0), shape)
        with pytest.raises(TypeError):
            distance(shape, (0, 0))
        with pytest.raises(TypeError):
            contact(Capsule((0, 0), (1, 0), 1), shape)


# ------------------------------------------------------------------------- properties

finite = st.floats(-50, 50, allow_nan=False)
quat = st.tuples(st.floats(-1, 1), st.floats(-1, 1), st.floats(-1, 1), st.floats(-1, 1)
                 ).filter(lambda q: math.sqrt(sum(c * c for c in q)) > 0.1).map(
    lambda q: tuple(c / math.sqrt(sum(k * k for k in q)) for c in q))
extent = st.floats(0.1, 10)
point = st.tuples(finite, finite, finite)
direction = st.tuples(st.floats(-1, 1), st.floats(-1, 1), st.floats(-1, 1)).filter(
    lambda d: math.sqrt(sum(c * c for c in d)) > 0.1)


@given(point, st.tuples(extent, extent, extent), quat, point, direction)
def test_a_ray_hit_is_on_the_box_surface_and_faces_the_ray(c: tuple, h: tuple, q: tuple,
                                                          o: tuple, d: tuple) -> None:
    box = OrientedBox(c, h, q)
    hit = raycast(Ray(o, d), box)
    if hit is None or hit.started_inside:
        return
    local = np.array(box.to_local(hit.point)) - np.array(box.to_local(box.center))
    gap = np.abs(local) - np.array(h)
    assert abs(float(np.max(gap))) <= 1e-12 * 100
    assert hit.normal.dot(Vec3(*d)) <= 1e-12
    assert hit.exit_distance >= hit.distance


@given(point, st.tuples(extent, extent, extent), point, direction, st.floats(0.0, 3.0))
def test_an_identity_box_answers_exactly_as_the_axis_aligned_box(
        c: tuple, h: tuple, o: tuple, d: tuple, r: float) -> None:
    box = OrientedBox(c, h, np.eye(3))
    aabb = AABB(box._lo, box._hi)
    ray = Ray(o, d)
    assert raycast(ray, box) == raycast(ray, aabb)
    ball = Sphere(o, r)
    assert sweep(ball, Vec3(*d) * 40, box) == sweep(ball, Vec3(*d) * 40, aabb)
    assert contact(ball, box) == contact(ball, aabb)
    assert contact(box, ball) == contact(aabb, ball)
    assert closest_point(box, o) == closest_point(aabb, o)
    assert distance(ball, box) == distance(ball, aabb)
    assert closest_points(o, box) == closest_points(o, aabb)
    cap = Capsule(o, Vec3(*o) + Vec3(*d) * 3, r)
    assert contact(cap, box) == contact(cap, aabb)
    floor = Plane(d, c[0])
    assert contact(box, floor) == contact(aabb, floor)


@given(point, st.tuples(extent, extent, extent), point, direction, st.floats(0.0, 3.0))
# a point-like ball grazing the box's edge (x max, y max) exactly, found by a random run
@example((-0.75, 0.5, 0.0), (1.0, 1.0, 1.0), (1.0, 1.0, 0.0), (-0.75, 0.5, 0.25),
         2.2250738585e-313)
@example((-0.5, 0.125, 0.0), (1.0, 1.0, 1.0), (1.0, 1.0, 0.0),
         (-0.5, 0.125, 0.13470947397591382), 2.2250738585e-313)
def test_a_hull_of_a_boxs_corners_answers_as_the_axis_aligned_box(
        c: tuple, h: tuple, o: tuple, d: tuple, r: float) -> None:
    aabb = AABB.from_center(c, h)
    hull = ConvexHull(list(itertools.product(*zip(aabb.min, aabb.max))))
    ray = Ray(o, d)
    a, b = raycast(ray, hull), raycast(ray, aabb)
    assert (a is None) == (b is None)
    if a is not None and b is not None:
        assert close(a.distance, b.distance, 1e-12 * 100)
        assert close(a.exit_distance, b.exit_distance, 1e-12 * 100)
        assert a.started_inside == b.started_inside
        if a.normal != b.normal:
            # a tie (an edge or corner, or an inner point as near two faces): the hull's face
            # holds the point (from inside: is as near the origin) as the box's face does
            def gap(n: Vec3, p: Vec3) -> float:
                k = max(range(3), key=lambda i: abs(n[i]))
                return abs((aabb.max[k] if n[k] > 0 else aabb.min[k]) - p[k])
            assert close(gap(a.normal, a.point), gap(b.normal, b.point), 1e-12 * 100)
    ball = Sphere(o, r)
    sa, sb = sweep(ball, Vec3(*d) * 40, hull), sweep(ball, Vec3(*d) * 40, aabb)
    # a ball whose radius is below the rounding of the scene's coordinates (2.2e-313 against
    # boxes of size 1, found by a random run) is a point to both casts: where its path grazes
    # an edge exactly, the hull's face test (with its tolerance) and the box's slab test
    # (exact, on a direction normalised with one rounding) may part, and an edge's normal is
    # the rounding of the offset from it
    point_like = r <= 1e-12 * max(1.0, *(abs(x) for x in (*o, *aabb.min, *aabb.max)))
    if point_like and (sa is None) != (sb is None):
        # a graze: the path touches the box, to rounding
        path = Capsule(o, Vec3(*o) + Vec3(*d) * 40, 0.0)
        assert distance(path, aabb) <= 1e-12 * 100
    else:
        assert (sa is None) == (sb is None)
    if sa is not None and sb is not None:
        assert close(sa.fraction, sb.fraction, 1e-12 * 100)
        if not sa.started_inside and not point_like:
            assert close(sa.normal, sb.normal, 1e-9)
    ca, cb = contact(ball, hull), contact(ball, aabb)
    assert (ca is None) == (cb is None) or close(distance(ball, aabb), 0.0, 1e-9)
    if ca is not None and cb is not None:
        assert close(ca.depth, cb.depth, 1e-9 * 100)
    assert close(distance(ball, hull), distance(ball, aabb), 1e-9 * 100)


@given(point, st.tuples(extent, extent, extent), quat, point, st.floats(0.0, 3.0), quat)
def test_turning_the_whole_scene_leaves_distances_and_depths_equal(
        c: tuple, h: tuple, q: tuple, s: tuple, r: float, turn: tuple) -> None:
    rot = np.array(OrientedBox((0, 0, 0), (1, 1, 1), q).rotation)
    t = quaternion(*turn)
    box = OrientedBox(c, h, rot)
    turned = OrientedBox(t @ np.array(c), h, t @ rot)
    ball = Sphere(s, r)
    ball2 = Sphere(t @ np.array(s), r)
    size = 100.0
    assert close(distance(ball, box), distance(ball2, turned), 1e-12 * size)
    hull = ConvexHull(box.corners)
    hull2 = ConvexHull(turned.corners)
    assert close(distance(ball, hull), distance(ball2, hull2), 1e-9 * size)
    ca, cb = contact(ball, box), contact(ball2, turned)
    assume((ca is None) == (cb is None))
    if ca is not None and cb is not None:
        assert close(ca.depth, cb.depth, 1e-12 * size)
    cap = Capsule(s, (0, 0, 0), r)
    cap2 = Capsule(t @ np.array(s), (0, 0, 0), r)
    assert close(distance(cap, hull), distance(cap2, hull2), 1e-9 * size)


@given(point, st.tuples(extent, extent, extent), quat, point, direction, st.floats(0.01, 3.0))
def test_a_sphere_sweep_stops_touching_the_box_and_never_inside_it(
        c: tuple, h: tuple, q: tuple, s: tuple, d: tuple, r: float) -> None:
    box = OrientedBox(c, h, q)
    hull = ConvexHull(box.corners)
    disp = Vec3(*d) * 60
    for shape in (box, hull):
        ball = Sphere(s, r)
        hit = sweep(ball, disp, shape)
        if hit is None:
            # never closer than the radius along the way (sampled)
            for k in range(41):
                assert distance(Sphere(Vec3(*s) + disp * (k / 40), r), shape) > 0.0 or \
                    distance(ball, shape) == 0.0
            continue
        if hit.started_inside:
            assert distance(ball, shape) <= 1e-9 * 100
            continue
        at = Sphere(hit.position, r)
        gap = distance(Sphere(hit.position, 0.0), shape) - r
        assert abs(gap) <= 1e-9 * 100, gap
        assert contact(at, shape) is not None or gap > 0
        assert abs(Vec3(*hit.point).distance_to(hit.position) - r) <= 1e-9 * 100


def test_docs_shapes3d_blocks_run() -> None:
    """Every python block of docs/shapes3d.md runs and its assertions hold."""
    import re
    from pathlib import Path

    text = (Path(__file__).resolve().parent.parent / "docs" / "shapes3d.md").read_text()
    blocks = re.findall(r"```python\n(.*?)```", text, re.S)
    assert len(blocks) == 3
    for block in blocks:
        exec(compile(block, "docs/shapes3d.md", "exec"), {})


# ------------------------------------------------------------------------ adversarial cases

CUBE = ConvexHull(list(itertools.product((0.0, 1.0), repeat=3)))


def test_radius_zero_sphere_sweeps_as_the_ray_and_touches_at_depth_zero() -> None:
    for shape in (DIAMOND, HULL_DIAMOND, OCTAHEDRON):
        s = sweep(Sphere((-5, 0.1, 0.2), 0.0), (10, 0, 0), shape)
        r = raycast(Ray((-5, 0.1, 0.2), (1, 0, 0)), shape)
        assert s is not None and r is not None
        assert close(s.fraction * 10, r.distance) and close(s.normal, r.normal)
        c = contact(Sphere(r.point, 0.0), shape)
        assert c is not None and close(c.depth, 0.0)


def test_touching_exactly_is_a_contact_of_depth_zero_and_a_hair_apart_is_none() -> None:
    c = contact(Sphere((2.0, 0.5, 0.5), 1.0), CUBE)
    assert c is not None and c.depth == 0.0 and c.normal == Vec3(1, 0, 0)
    assert c.point == Vec3(1.0, 0.5, 0.5)
    assert contact(Sphere((2.0 + 1e-9, 0.5, 0.5), 1.0), CUBE) is None
    # two cubes sharing a face, and sharing only an edge
    t = contact(CUBE, ConvexHull(list(itertools.product((1.0, 2.0), (0.0, 1.0), (0.0, 1.0)))))
    assert t is not None and t.depth == 0.0 and t.normal == Vec3(-1, 0, 0)
    e = contact(CUBE, ConvexHull(list(itertools.product((1.0, 2.0), (1.0, 2.0), (0.0, 1.0)))))
    assert e is not None and e.depth == 0.0


def test_rays_parallel_to_a_hull_face() -> None:
    # inside the face's slab: hits the next face; on the face's plane: touches; beyond: misses
    hit = raycast(Ray((-1, 0.5, 0.5), (1, 0, 0)), CUBE)
    assert hit is not None and hit.distance == 1.0 and hit.normal == Vec3(-1, 0, 0)
    on = raycast(Ray((-1, 1.0, 0.5), (1, 0, 0)), CUBE)
    assert on is not None and on.distance == 1.0
    assert raycast(Ray((-1, 1.0 + 1e-12, 0.5), (1, 0, 0)), CUBE) is None
    # along an edge, and out of a corner
    edge = raycast(Ray((-1, 1.0, 1.0), (1, 0, 0)), CUBE)
    assert edge is not None and edge.distance == 1.0 and edge.exit_distance == 2.0
    corner = raycast(Ray((1, 1, 1), (1, 1, 1)), CUBE)
    assert corner is not None and corner.started_inside and corner.exit_distance == 0.0


def test_zero_displacement_sweeps_hit_only_when_touching() -> None:
    for shape in (DIAMOND, CUBE):
        assert sweep(Sphere((5, 5, 5), 1.0), (0, 0, 0), shape) is None
        hit = sweep(Sphere((0.5, 0.5, 0.5), 0.1), (0, 0, 0), shape)
        assert hit is not None and hit.started_inside and hit.fraction == 0.0
        assert sweep(Capsule((5, 5, 5), (6, 6, 6), 1.0), (0, 0, 0), shape) is None


def test_a_capsule_with_equal_ends_is_its_sphere() -> None:
    for shape in (DIAMOND, CUBE, OCTAHEDRON):
        for centre in ((2, 0.3, 0.1), (0.4, 0.5, 0.5), (-1.2, 0.1, 0)):
            a = contact(Capsule(centre, centre, 0.9), shape)
            b = contact(Sphere(centre, 0.9), shape)
            assert (a is None) == (b is None)
            if a is not None and b is not None:
                assert close(a.depth, b.depth, 1e-9) and close(a.normal, b.normal, 1e-9)


@given(point, st.tuples(st.sampled_from([0.0, 1e-9, 1.0, 7.0]), extent, extent), quat,
       point, direction, st.sampled_from([0.0, 1e-9, 0.5, 4.0]))
def test_no_query_returns_nan_even_for_flat_boxes(c: tuple, h: tuple, q: tuple, o: tuple,
                                                  d: tuple, r: float) -> None:
    box = OrientedBox(c, h, q)
    shapes: list = [box]
    if h[0] > 0.0:
        shapes.append(ConvexHull(box.corners))
    for shape in shapes:
        results = [raycast(Ray(o, d), shape), sweep(Sphere(o, r), Vec3(*d) * 30, shape),
                   contact(Sphere(o, r), shape), contact(Capsule(o, c, r), shape),
                   contact(shape, AABB.from_center(o, (r, r, r))),
                   sweep(Capsule(o, Vec3(*o) + Vec3(*d), r), Vec3(*d) * 30, shape)]
        for res in results:
            if res is None:
                continue
            for value in res:
                flat = value if isinstance(value, tuple) else (value,)
                assert all(not (isinstance(x, float) and math.isnan(x)) for x in flat)
        assert not math.isnan(distance(Sphere(o, r), shape))
        assert not any(math.isnan(x) for x in closest_point(shape, o))


def test_hulls_and_boxes_sweep_against_each_other_by_conservative_advancement() -> None:
    # the diamond's corner at x = sqrt 2 meets the cube's face x = 3 after (3 - sqrt 2) / 10
    cube = ConvexHull(list(itertools.product((3.0, 4.0), (-0.5, 0.5), (-0.5, 0.5))))
    for mover in (DIAMOND, HULL_DIAMOND):
        hit = sweep(mover, (10, 0, 0), cube)
        assert hit is not None and abs(hit.fraction - (3 - R2) / 10) <= CAST_TOLERANCE * 20
        assert close(hit.normal, (-1, 0, 0), 1e-6)
        assert close(hit.position, ((3 - R2), 0, 0), 1e-7)
        both = sweep(mover, (5, 0, 0), cube, (-5, 0, 0))
        assert both is not None and abs(both.fraction - (3 - R2) / 10) <= CAST_TOLERANCE * 20
        assert sweep(mover, (0, 10, 0), cube) is None


def test_far_from_the_origin_the_answers_keep_their_relative_precision() -> None:
    far = Vec3(1e6, -1e6, 1e6)
    box = OrientedBox(far, (1, 1, 1), TURN45)
    hull = ConvexHull(box.corners)
    for shape in (box, hull):
        hit = raycast(Ray(far + (-5, 0, 0.25), (1, 0, 0)), shape)
        assert hit is not None and abs(hit.distance - (5 - R2)) <= 1e-12 * 1e6
        s = sweep(Sphere(far + (-5, 0, 0), 1.0), (10, 0, 0), shape)
        assert s is not None and abs(s.fraction - (4 - R2) / 10) <= 1e-12 * 1e6


def test_oriented_boxes_pickle_compare_and_hash_by_value() -> None:
    import pickle

    again = pickle.loads(pickle.dumps(DIAMOND))
    assert again == DIAMOND and hash(again) == hash(DIAMOND)
    assert raycast(Ray((-5, 0, 0), (1, 0, 0)), again) == raycast(Ray((-5, 0, 0), (1, 0, 0)),
                                                                 DIAMOND)
    assert OrientedBox((0, 0, 0), (1, 1, 1), np.eye(3)) != DIAMOND


@given(st.integers(0, 2**32 - 1), st.integers(4, 40), point, direction,
       st.sampled_from([1e-6, 1.0, 1e6]))
def test_a_hull_ray_hit_is_on_its_surface_and_a_miss_never_crosses_it(
        seed: int, n: int, o: tuple, d: tuple, scale: float) -> None:
    rng = np.random.default_rng(seed)
    cloud = rng.normal(size=(n, 3)) * 10 * scale
    try:
        hull = ConvexHull(cloud)
    except ValueError:
        return
    origin = Vec3(*o) * scale
    hit = raycast(Ray(origin, d), hull)
    unit = Vec3(*d).normalized()
    if hit is None:
        # no point along the ray (sampled) is inside
        for t in np.linspace(0, 200 * scale, 201):
            p = np.array(origin + unit * float(t))
            assert np.max(hull._norms @ p - hull._offs) > -1e-9 * 100 * scale
        return
    p = np.array(hit.point)
    s = hull._norms @ p - hull._offs
    if hit.started_inside:
        assert np.max(s) <= 1e-12 * 100 * scale
        assert hit.distance == 0.0 and hit.exit_distance >= 0.0
        return
    assert abs(float(np.max(s))) <= 1e-12 * 100 * scale
    assert hit.normal.dot(unit) <= 1e-12
    k = hull.normals.index(hit.normal)
    assert abs(float(s[k])) <= 1e-12 * 100 * scale
