"""Shape casts (``sweep``): hand-derived times of impact for every mover against every target.

A moving circle or sphere is a ray against the target grown by its radius (seed 000), so its
answers are closed forms checked to 1e-12: a segment grows into two sides and two end circles,
a box or polygon into a *rounded* shape (a corner hit comes later than the square grown box
would say), a 3D box into offset faces, edges as cylinders and corners as spheres. Other movers
are cast by conservative advancement, checked to 1e-9 relative. Then the conventions: both
moving, ``target_distance`` (a skin), ``max_fraction``, starting inside or touching, zero
displacement, bad input; and the batch kernel ``sweep_circles_segments`` against the scalar
path.
"""

from __future__ import annotations

import math
from typing import Any

import numpy as np
import pytest

from swept import AABB, Capsule, Circle, Plane, Polygon, Ray, Segment, Sphere, Vec2, Vec3
from swept._kernels import bvh
from swept._kernels.batch_sweep import sweep_circles_segments
from swept.distance import closest_point, distance
from swept.results import SweepHit
from swept.sweep import reference_point, sweep

#: closed forms (a ray against a grown target)
TOL = 1e-12
#: conservative advancement: CAST_TOLERANCE times the scene's scale, relative
ITER = 1e-9

R2 = math.sqrt(2.0)
R3 = math.sqrt(3.0)


def close(a: Any, b: Any, tol: float) -> bool:
    """Component-wise closeness of two numbers or vectors."""
    if isinstance(a, tuple):
        assert isinstance(b, tuple) and len(a) == len(b), (a, b)
        return all(abs(x - y) <= tol for x, y in zip(a, b))
    return bool(abs(a - b) <= tol)


def assert_sweep(hit: SweepHit | None, fraction: float, normal: tuple[float, ...],
                 point: tuple[float, ...] | None, position: tuple[float, ...],
                 started_inside: bool = False, tol: float = TOL) -> SweepHit:
    """The hit exists and has these values (``point`` None: checked on both surfaces only)."""
    assert hit is not None, "expected a hit, got a miss"
    assert isinstance(hit, SweepHit)
    vec = Vec2 if len(position) == 2 else Vec3
    assert type(hit.point) is vec and type(hit.normal) is vec and type(hit.position) is vec
    assert close(hit.fraction, fraction, tol), (hit.fraction, fraction)
    assert close(hit.normal, tuple(normal), max(tol, TOL) * 10), (hit.normal, normal)
    if point is not None:
        assert close(hit.point, tuple(point), tol * 10), (hit.point, point)
    assert close(hit.position, tuple(position), tol * 10), (hit.position, position)
    assert hit.started_inside is started_inside
    assert abs(hit.normal.length() - 1.0) <= 1e-12
    return hit


def assert_point_on_both(hit: SweepHit, shape: Any, displacement: Any, target: Any,
                         target_displacement: Any = None, tol: float = 1e-9) -> None:
    """At the hit, ``point`` lies on both surfaces (where each shape is at that moment)."""
    moved = shape.translated(Vec2(*displacement) * hit.fraction if len(displacement) == 2
                             else Vec3(*displacement) * hit.fraction)
    there = target
    if target_displacement is not None:
        there = target.translated(Vec2(*target_displacement) * hit.fraction
                                  if len(target_displacement) == 2
                                  else Vec3(*target_displacement) * hit.fraction)
    for s in (moved, there):
        if isinstance(s, Plane):
            assert abs(s.signed_distance(hit.point)) <= tol, (s, hit.point)
        else:
            assert closest_point(s, hit.point).distance_to(hit.point) <= tol, (s, hit.point)


def moved_by(shape: Any, displacement: Any, fraction: float) -> Any:
    """The shape moved by ``fraction`` of ``displacement``."""
    d = Vec2(*displacement) if len(displacement) == 2 else Vec3(*displacement)
    return shape.translated(d * fraction)


# ---------------------------------------------------------------------------------------------
# a moving circle: closed forms


class TestMovingCircle:
    def test_circle_falls_on_a_floor_plane_seed_003(self) -> None:
        # radius 2, centre (0, 10), displacement (0, -30), floor y = 0: t = 8 / 30
        c = Circle((0, 10), 2)
        hit = sweep(c, (0, -30), Plane((0, 1), 0))
        assert_sweep(hit, 8 / 30, (0, 1), (0, 0), (0, 2))

    def test_circle_meets_a_tilted_plane(self) -> None:
        # n = (3/5, 4/5), offset 1; the centre is 13 above it, closing at 28 a step: (13-1)/28
        plane = Plane((0.6, 0.8), 1.0)
        c = Circle((10, 10), 1)
        hit = sweep(c, (-20, -20), plane)
        f = 12 / 28
        at = Vec2(10 - 20 * f, 10 - 20 * f)
        assert_sweep(hit, f, (0.6, 0.8), at - Vec2(0.6, 0.8), at)
        assert hit is not None and abs(plane.signed_distance(hit.point)) <= TOL * 10

    def test_circle_moving_along_a_plane_never_meets_it(self) -> None:
        assert sweep(Circle((0, 10), 2), (30, 0), Plane((0, 1), 0)) is None
        assert sweep(Circle((0, 10), 2), (0, 30), Plane((0, 1), 0)) is None

    def test_circle_meets_a_segment_side_head_on(self) -> None:
        # the grown wall's side x = 4: 4 of 10
        hit = sweep(Circle((0, 0), 1), (10, 0), Segment((5, -2), (5, 2)))
        assert_sweep(hit, 0.4, (-1, 0), (5, 0), (4, 0))

    def test_circle_meets_a_segment_side_at_an_angle(self) -> None:
        # the centre reaches x = 4 at half of (8, 6): the side, not r along the path short
        hit = sweep(Circle((0, 0), 1), (8, 6), Segment((5, -10), (5, 10)))
        assert_sweep(hit, 0.5, (-1, 0), (5, 3), (4, 3))

    def test_circle_meets_a_segment_end_circle_beside_its_path(self) -> None:
        # the centre passes 0.5 below the end (5, 0.5): (s - 5)^2 + 0.25 = 1
        s = 5 - math.sqrt(0.75)
        hit = sweep(Circle((0, 0), 1), (10, 0), Segment((5, 0.5), (5, 10)))
        assert_sweep(hit, s / 10, (-math.sqrt(0.75), -0.5), (5, 0.5), (s, 0))

    def test_circle_meets_a_collinear_segment_at_its_end(self) -> None:
        hit = sweep(Circle((0, 0), 1), (10, 0), Segment((5, 0), (9, 0)))
        assert_sweep(hit, 0.4, (-1, 0), (5, 0), (4, 0))

    def test_circle_passing_a_segment_end_by_more_than_its_radius_misses(self) -> None:
        assert sweep(Circle((0, 0), 1), (10, 0), Segment((5, 1.0000001), (5, 10))) is None

    def test_circle_grazing_a_segment_end_touches(self) -> None:
        # the path passes exactly r from the end: touching counts
        hit = sweep(Circle((0, 0), 1), (10, 0), Segment((5, 1), (5, 10)))
        assert_sweep(hit, 0.5, (0, -1), (5, 1), (5, 0))

    def test_circle_meets_a_circle(self) -> None:
        # combined radius 2.5: (s - 6)^2 + 1 = 6.25
        s = 6 - math.sqrt(5.25)
        n = Vec2(s - 6, -1) / 2.5
        hit = sweep(Circle((0, 0), 1), (10, 0), Circle((6, 1), 1.5))
        assert_sweep(hit, s / 10, n, Vec2(6, 1) + n * 1.5, (s, 0))

    def test_circle_meets_an_aabb_face(self) -> None:
        hit = sweep(Circle((0, 4), 1), (10, 0), AABB((3, 3), (5, 5)))
        assert_sweep(hit, 0.2, (-1, 0), (3, 4), (2, 4))

    def test_circle_meets_an_aabb_rounded_corner_later_than_the_square_grown_box(self) -> None:
        # diagonally at the corner (3, 3): the square box grown by 1 is entered at (2, 2),
        # fraction 0.2; the true contact is when the centre is 1 from the corner:
        # (3 - s) sqrt 2 = 1
        hit = sweep(Circle((0, 0), 1), (10, 10), AABB((3, 3), (5, 5)))
        s = 3 - 1 / R2
        assert_sweep(hit, s / 10, (-1 / R2, -1 / R2), (3, 3), (s, s))
        assert hit is not None and hit.fraction > 0.2 + 0.02

    def test_circle_meets_an_aabb_corner_beside_its_path(self) -> None:
        # the centre passes 0.5 below the corner (3, 2)
        s = 3 - math.sqrt(0.75)
        hit = sweep(Circle((0, 1.5), 1), (10, 0), AABB((3, 2), (5, 5)))
        assert_sweep(hit, s / 10, (-math.sqrt(0.75), -0.5), (3, 2), (s, 1.5))

    def test_circle_meets_a_polygon_corner_dead_on(self) -> None:
        # the diamond's left corner (5, 0): the rounded polygon is entered at x = 4; the
        # offset edges alone (a sharp grown polygon) would meet at x = 5 - sqrt 2
        diamond = Polygon([(5, 0), (7, -2), (9, 0), (7, 2)])
        hit = sweep(Circle((0, 0), 1), (10, 0), diamond)
        assert_sweep(hit, 0.4, (-1, 0), (5, 0), (4, 0))

    def test_circle_meets_a_polygon_edge(self) -> None:
        # the diamond's edge (5, 0)-(7, -2), normal (-1, -1)/sqrt 2, its middle (6, -1):
        # the centre starts 5 out along the normal and moves straight in by 10
        diamond = Polygon([(5, 0), (7, -2), (9, 0), (7, 2)])
        n = Vec2(-1, -1) / R2
        start = Vec2(6, -1) + n * 5
        hit = sweep(Circle(start, 1), -n * 10, diamond)
        assert_sweep(hit, 0.4, n, (6, -1), Vec2(6, -1) + n)

    def test_circle_meets_a_capsule_side_and_end(self) -> None:
        side = sweep(Circle((0, 0), 1), (10, 0), Capsule((5, -3), (5, 3), 0.5))
        assert_sweep(side, 0.35, (-1, 0), (4.5, 0), (3.5, 0))
        # the end circle (5, 1) grown to 1.5: (s - 5)^2 + 1 = 2.25
        s = 5 - math.sqrt(1.25)
        n = Vec2(s - 5, -1) / 1.5
        end = sweep(Circle((0, 0), 1), (10, 0), Capsule((5, 1), (5, 3), 0.5))
        assert_sweep(end, s / 10, n, Vec2(5, 1) + n * 0.5, (s, 0))

    def test_seed_000_ball_meets_the_bullet_time_wall(self) -> None:
        # radius 7 from (150, 300), 0.16 rad at 2000 px/s: the side x = 493 at the step
        # in which the centre crosses it
        heading = Vec2(math.cos(0.16), math.sin(0.16))
        step = heading * (2000 / 60)
        wall = Segment((500, 240), (500, 500))
        start = Vec2(150, 300) + heading * (343 / math.cos(0.16) - 20)
        hit = sweep(Circle(start, 7), step, wall)
        f = (493 - start.x) / step.x
        assert_sweep(hit, f, (-1, 0), (500, start.y + step.y * f), start + step * f)


# ---------------------------------------------------------------------------------------------
# a moving capsule, box or polygon against every 2D target


CAPSULE = Capsule((0, -1), (0, 1), 0.5)
BOX = AABB((-1, -1), (1, 1))
TRIANGLE = Polygon([(0, -1), (1, 0), (0, 1)])  # tip (1, 0), centroid (1/3, 0)
WALL_PLANE = Plane((-1, 0), -5)  # solid where x > 5


class TestMovingCapsule:
    def test_capsule_meets_a_plane(self) -> None:
        hit = sweep(CAPSULE, (10, 0), WALL_PLANE)
        assert_sweep(hit, 0.45, (-1, 0), None, (4.5, 0))
        assert hit is not None and hit.point.x == pytest.approx(5, abs=TOL)
        assert -1 <= hit.point.y <= 1

    def test_capsule_side_meets_a_circle(self) -> None:
        hit = sweep(CAPSULE, (10, 0), Circle((6, 0.5), 1))
        assert_sweep(hit, 0.45, (-1, 0), (5, 0.5), (4.5, 0))

    def test_capsule_end_meets_a_circle(self) -> None:
        # the circle (6, 2) meets the core's end (0, 1) grown to 1.5: (6 - s)^2 + 1 = 2.25
        k = math.sqrt(1.25)
        s = 6 - k
        n = Vec2(-k, -1) / 1.5
        hit = sweep(CAPSULE, (10, 0), Circle((6, 2), 1))
        assert_sweep(hit, s / 10, n, Vec2(6, 2) + n, (s, 0))

    def test_capsule_side_meets_a_segment(self) -> None:
        hit = sweep(CAPSULE, (10, 0), Segment((5, -3), (5, 3)))
        assert_sweep(hit, 0.45, (-1, 0), None, (4.5, 0), tol=ITER)

    def test_capsule_end_meets_a_segment_end(self) -> None:
        # the end circle (s, 1) r 0.5 reaches the segment's end (5, 1.25)
        k = math.sqrt(0.1875)
        s = 5 - k
        hit = sweep(CAPSULE, (10, 0), Segment((5, 1.25), (5, 4)))
        assert_sweep(hit, s / 10, (-k / 0.5, -0.25 / 0.5), (5, 1.25), (s, 0), tol=ITER)

    def test_capsule_meets_a_capsule(self) -> None:
        hit = sweep(CAPSULE, (10, 0), Capsule((6, -3), (6, 3), 1))
        assert_sweep(hit, 0.45, (-1, 0), None, (4.5, 0), tol=ITER)

    def test_capsule_meets_an_aabb_face_and_corner(self) -> None:
        face = sweep(CAPSULE, (10, 0), AABB((5, -3), (8, 3)))
        assert_sweep(face, 0.45, (-1, 0), None, (4.5, 0), tol=ITER)
        k = math.sqrt(0.1875)
        s = 5 - k
        corner = sweep(CAPSULE, (10, 0), AABB((5, 1.25), (8, 4)))
        assert_sweep(corner, s / 10, (-k / 0.5, -0.5), (5, 1.25), (s, 0), tol=ITER)

    def test_capsule_meets_a_polygon_corner(self) -> None:
        diamond = Polygon([(5, 0), (7, -2), (9, 0), (7, 2)])
        hit = sweep(CAPSULE, (10, 0), diamond)
        assert_sweep(hit, 0.45, (-1, 0), (5, 0), (4.5, 0), tol=ITER)


class TestMovingSegment:
    def test_segment_meets_a_plane(self) -> None:
        hit = sweep(Segment((0, -1), (0, 1)), (10, 0), WALL_PLANE)
        assert_sweep(hit, 0.5, (-1, 0), None, (5, 0))

    def test_segment_end_meets_a_circle(self) -> None:
        # the circle (6, 1.5) r 1 meets the segment's end (s, 1): (6 - s)^2 + 0.25 = 1
        k = math.sqrt(0.75)
        s = 6 - k
        hit = sweep(Segment((0, -1), (0, 1)), (10, 0), Circle((6, 1.5), 1))
        n = Vec2(-k, -0.5)
        assert_sweep(hit, s / 10, n, Vec2(6, 1.5) + n, (s, 0))

    def test_segment_meets_a_capsule_side(self) -> None:
        hit = sweep(Segment((0, -1), (0, 1)), (10, 0), Capsule((6, -3), (6, 3), 1))
        assert_sweep(hit, 0.5, (-1, 0), None, (5, 0), tol=ITER)

    def test_segment_meets_a_polygon_corner(self) -> None:
        diamond = Polygon([(5, 0), (7, -2), (9, 0), (7, 2)])
        hit = sweep(Segment((0, -1), (0, 1)), (10, 0), diamond)
        assert_sweep(hit, 0.5, (-1, 0), (5, 0), (5, 0), tol=ITER)


class TestMovingBox:
    def test_box_meets_a_plane(self) -> None:
        hit = sweep(BOX, (10, 0), WALL_PLANE)
        assert_sweep(hit, 0.4, (-1, 0), None, (4, 0))
        assert hit is not None and hit.point.x == pytest.approx(5, abs=TOL)

    def test_box_face_meets_a_circle(self) -> None:
        hit = sweep(BOX, (10, 0), Circle((6, 0), 1))
        assert_sweep(hit, 0.4, (-1, 0), (5, 0), (4, 0))

    def test_box_corner_meets_a_circle(self) -> None:
        # the circle (6, 1.5) meets the corner (1 + s, 1): (5 - s)^2 + 0.25 = 1
        k = math.sqrt(0.75)
        s = 5 - k
        n = Vec2(-k, -0.5)
        hit = sweep(BOX, (10, 0), Circle((6, 1.5), 1))
        assert_sweep(hit, s / 10, n, Vec2(6, 1.5) + n, (s, 0))

    def test_box_meets_a_segment(self) -> None:
        hit = sweep(BOX, (10, 0), Segment((5, -3), (5, 3)))
        assert_sweep(hit, 0.4, (-1, 0), None, (4, 0), tol=ITER)

    def test_box_meets_a_capsule(self) -> None:
        hit = sweep(BOX, (10, 0), Capsule((6, -3), (6, 3), 1))
        assert_sweep(hit, 0.4, (-1, 0), None, (4, 0), tol=ITER)

    def test_box_meets_a_box_face(self) -> None:
        hit = sweep(BOX, (10, 0), AABB((5, 0.5), (8, 3)))
        assert_sweep(hit, 0.4, (-1, 0), None, (4, 0), tol=ITER)
        assert hit is not None and 0.5 - ITER <= hit.point.y <= 1 + ITER

    def test_box_corner_meets_a_box_corner_diagonally(self) -> None:
        # corner (1, 1) reaches corner (5, 5) at 4 of 10 along each axis
        hit = sweep(BOX, (10, 10), AABB((5, 5), (7, 7)))
        assert hit is not None
        assert hit.fraction == pytest.approx(0.4, rel=ITER)
        assert hit.point.is_close((5, 5), 1e-8)
        assert hit.normal.dot((1, 1)) < 0.0

    def test_box_moving_diagonally_into_a_wall_gets_the_walls_normal(self) -> None:
        # Regression: conservative advancement closes a face-to-face gap in one exact step
        # (gap 4 at closing speed 10), so GJK sees the cores touching (distance 0) and
        # cast_cores returns no normal; sweep() then falls back to the reverse of the motion,
        # (-10, -2) normalised, instead of the face's normal (-1, 0). A bounce off that normal
        # sends the box straight back the way it came instead of mirroring it.
        hit = sweep(BOX, (10, 2), AABB((5, -3), (8, 3)))
        assert_sweep(hit, 0.4, (-1, 0), None, (4, 0.8), tol=ITER)
        wall = sweep(BOX, (10, 3), Segment((5, -30), (5, 30)))
        assert_sweep(wall, 0.4, (-1, 0), None, (4, 1.2), tol=ITER)
        box3 = sweep(AABB((-1, -1, -1), (1, 1, 1)), (10, 2, 3), AABB((5, -3, -3), (8, 3, 3)))
        assert_sweep(box3, 0.4, (-1, 0, 0), None, (4, 0.8, 1.2), tol=ITER)

    def test_box_face_meets_a_polygon_corner(self) -> None:
        diamond = Polygon([(5, 0), (7, -2), (9, 0), (7, 2)])
        hit = sweep(BOX, (10, 0), diamond)
        assert_sweep(hit, 0.4, (-1, 0), (5, 0), (4, 0), tol=ITER)


class TestMovingPolygon:
    def test_polygon_tip_meets_a_plane(self) -> None:
        hit = sweep(TRIANGLE, (10, 0), WALL_PLANE)
        assert_sweep(hit, 0.4, (-1, 0), (5, 0), (1 / 3 + 4, 0))

    def test_polygon_tip_meets_a_circle(self) -> None:
        hit = sweep(TRIANGLE, (10, 0), Circle((6, 0), 1))
        assert_sweep(hit, 0.4, (-1, 0), (5, 0), (1 / 3 + 4, 0))

    def test_polygon_tip_meets_a_segment(self) -> None:
        hit = sweep(TRIANGLE, (10, 0), Segment((5, -3), (5, 3)))
        assert_sweep(hit, 0.4, (-1, 0), (5, 0), (1 / 3 + 4, 0), tol=ITER)

    def test_polygon_tip_meets_a_capsule(self) -> None:
        hit = sweep(TRIANGLE, (10, 0), Capsule((6, -3), (6, 3), 1))
        assert_sweep(hit, 0.4, (-1, 0), (5, 0), (1 / 3 + 4, 0), tol=ITER)

    def test_polygon_tip_meets_an_aabb(self) -> None:
        hit = sweep(TRIANGLE, (10, 0), AABB((5, -3), (8, 3)))
        assert_sweep(hit, 0.4, (-1, 0), (5, 0), (1 / 3 + 4, 0), tol=ITER)

    def test_polygon_tip_meets_a_polygon_face(self) -> None:
        hit = sweep(TRIANGLE, (10, 0), Polygon.box(1, 3, (6, 0)))
        assert_sweep(hit, 0.4, (-1, 0), (5, 0), (1 / 3 + 4, 0), tol=ITER)

    def test_polygon_edge_meets_a_circle_at_an_angle(self) -> None:
        # the triangle's upper edge (0, 1)-(1, 0) has normal (1, 1)/sqrt 2; a circle of
        # radius 1 whose centre is 5 out from the edge's middle along it, the triangle
        # moving straight at it by 10
        n = Vec2(1, 1) / R2
        centre = Vec2(0.5, 0.5) + n * 5
        hit = sweep(TRIANGLE, n * 10, Circle(centre, 1))
        assert_sweep(hit, 0.4, -n, centre - n, Vec2(1 / 3, 0) + n * 4)


# ---------------------------------------------------------------------------------------------
# 3D


class TestMoving3D:
    def test_sphere_falls_on_a_floor_plane(self) -> None:
        hit = sweep(Sphere((1, 10, 2), 2), (0, -30, 0), Plane((0, 1, 0), 0))
        assert_sweep(hit, 8 / 30, (0, 1, 0), (1, 0, 2), (1, 2, 2))

    def test_sphere_meets_a_sphere(self) -> None:
        # combined radius 2.5, offset (1, 1) across the path: (s - 6)^2 + 2 = 6.25
        s = 6 - math.sqrt(4.25)
        n = Vec3(s - 6, -1, -1) / 2.5
        hit = sweep(Sphere((0, 0, 0), 1), (10, 0, 0), Sphere((6, 1, 1), 1.5))
        assert_sweep(hit, s / 10, n, Vec3(6, 1, 1) + n * 1.5, (s, 0, 0))

    def test_sphere_meets_an_aabb_face(self) -> None:
        hit = sweep(Sphere((0, 4, 4), 1), (10, 0, 0), AABB((3, 3, 3), (5, 5, 5)))
        assert_sweep(hit, 0.2, (-1, 0, 0), (3, 4, 4), (2, 4, 4))

    def test_sphere_meets_an_aabb_edge_as_a_cylinder(self) -> None:
        # diagonally in xy at the edge x = y = 3 (z = 4 within the box's slab):
        # (3 - s) sqrt 2 = 1; the square grown box would say s = 2
        s = 3 - 1 / R2
        hit = sweep(Sphere((0, 0, 4), 1), (10, 10, 0), AABB((3, 3, 3), (5, 5, 5)))
        assert_sweep(hit, s / 10, (-1 / R2, -1 / R2, 0), (3, 3, 4), (s, s, 4))

    def test_sphere_meets_an_aabb_edge_beside_its_path(self) -> None:
        # the centre passes 0.5 below the edge y = 3, x = 3
        s = 3 - math.sqrt(0.75)
        hit = sweep(Sphere((0, 2.5, 4), 1), (10, 0, 0), AABB((3, 3, 3), (5, 5, 5)))
        assert_sweep(hit, s / 10, (-math.sqrt(0.75), -0.5, 0), (3, 3, 4), (s, 2.5, 4))

    def test_sphere_meets_an_aabb_corner_as_a_sphere(self) -> None:
        # diagonally at the corner (3, 3, 3): (3 - s) sqrt 3 = 1
        s = 3 - 1 / R3
        hit = sweep(Sphere((0, 0, 0), 1), (10, 10, 10), AABB((3, 3, 3), (5, 5, 5)))
        assert_sweep(hit, s / 10, (-1 / R3, -1 / R3, -1 / R3), (3, 3, 3), (s, s, s))

    def test_sphere_meets_a_capsule_side_and_end(self) -> None:
        side = sweep(Sphere((0, 0, 0), 1), (10, 0, 0), Capsule((5, -3, 0), (5, 3, 0), 0.5))
        assert_sweep(side, 0.35, (-1, 0, 0), (4.5, 0, 0), (3.5, 0, 0))
        s = 5 - math.sqrt(1.25)
        n = Vec3(s - 5, -1, 0) / 1.5
        end = sweep(Sphere((0, 0, 0), 1), (10, 0, 0), Capsule((5, 1, 0), (5, 3, 0), 0.5))
        assert_sweep(end, s / 10, n, Vec3(5, 1, 0) + n * 0.5, (s, 0, 0))

    def test_capsule_meets_a_plane_3d(self) -> None:
        cap = Capsule((0, -1, 0), (0, 1, 0), 0.5)
        hit = sweep(cap, (10, 0, 0), Plane((-1, 0, 0), -5))
        assert_sweep(hit, 0.45, (-1, 0, 0), None, (4.5, 0, 0))
        assert hit is not None and hit.point.x == pytest.approx(5, abs=TOL)

    def test_capsule_meets_a_sphere_3d(self) -> None:
        cap = Capsule((0, -1, 0), (0, 1, 0), 0.5)
        hit = sweep(cap, (10, 0, 0), Sphere((6, 0.5, 0), 1))
        assert_sweep(hit, 0.45, (-1, 0, 0), (5, 0.5, 0), (4.5, 0, 0))

    def test_capsule_meets_an_aabb_face_and_edge_3d(self) -> None:
        cap = Capsule((0, -1, 0), (0, 1, 0), 0.5)
        face = sweep(cap, (10, 0, 0), AABB((5, -3, -3), (8, 3, 3)))
        assert_sweep(face, 0.45, (-1, 0, 0), None, (4.5, 0, 0), tol=ITER)
        # the core's end sphere (s, 1, 0) r 0.5 reaches the edge x = 5, y = 1.25
        k = math.sqrt(0.1875)
        s = 5 - k
        edge = sweep(cap, (10, 0, 0), AABB((5, 1.25, -3), (8, 4, 3)))
        assert_sweep(edge, s / 10, (-k / 0.5, -0.5, 0), (5, 1.25, 0), (s, 0, 0), tol=ITER)

    def test_box_meets_a_box_3d(self) -> None:
        hit = sweep(AABB((-1, -1, -1), (1, 1, 1)), (10, 0, 0), AABB((5, -3, -3), (8, 3, 3)))
        assert_sweep(hit, 0.4, (-1, 0, 0), None, (4, 0, 0), tol=ITER)


# ---------------------------------------------------------------------------------------------
# both moving


class TestBothMoving:
    def test_two_circles_closing_head_on(self) -> None:
        # relative displacement (20, 0), gap 8: 0.4; A at (4, 0), B at (6, 0)
        a = Circle((0, 0), 1)
        b = Circle((10, 0), 1)
        hit = sweep(a, (10, 0), b, (-10, 0))
        assert_sweep(hit, 0.4, (-1, 0), (5, 0), (4, 0))
        assert hit is not None
        assert_point_on_both(hit, a, (10, 0), b, (-10, 0), tol=TOL * 10)

    def test_circle_chasing_a_receding_segment(self) -> None:
        # the wall runs away at 5 of the circle's 15: the relative 10 closes 4 at 0.4
        wall = Segment((5, -2), (5, 2))
        hit = sweep(Circle((0, 0), 1), (15, 0), wall, (5, 0))
        assert_sweep(hit, 0.4, (-1, 0), (7, 0), (6, 0))

    def test_capsule_and_box_closing(self) -> None:
        # relative (10, 0), gap 4.5: 0.45; the capsule's middle at (2.25, 0), the box's
        # face at 5 - 2.25 = 2.75
        box = AABB((5, -3), (8, 3))
        hit = sweep(CAPSULE, (5, 0), box, (-5, 0))
        assert_sweep(hit, 0.45, (-1, 0), None, (2.25, 0), tol=ITER)
        assert hit is not None
        assert hit.point.x == pytest.approx(2.75, abs=1e-8)
        assert_point_on_both(hit, CAPSULE, (5, 0), box, (-5, 0), tol=1e-8)

    def test_polygon_and_circle_closing(self) -> None:
        # the tip (1, 0) and the circle's left side (5, 0) close 4 at 10 a step
        c = Circle((6, 0), 1)
        hit = sweep(TRIANGLE, (4, 0), c, (-6, 0))
        assert_sweep(hit, 0.4, (-1, 0), (2.6, 0), (1 / 3 + 1.6, 0))
        assert hit is not None
        assert_point_on_both(hit, TRIANGLE, (4, 0), c, (-6, 0), tol=TOL * 10)

    def test_box_overtaken_by_a_plane_is_not_a_thing_planes_do(self) -> None:
        # a plane may move too: the box still meets it when the gap closes
        hit = sweep(BOX, (2, 0), WALL_PLANE, (-8, 0))
        assert_sweep(hit, 0.4, (-1, 0), None, (0.8, 0))

    def test_spheres_closing_in_3d(self) -> None:
        a = Sphere((0, 0, 0), 1)
        b = Sphere((0, 0, 10), 1)
        hit = sweep(a, (0, 0, 4), b, (0, 0, -6))
        assert_sweep(hit, 0.8, (0, 0, -1), (0, 0, 4.2), (0, 0, 3.2))

    def test_moving_together_never_meet(self) -> None:
        assert sweep(Circle((0, 0), 1), (10, 0), Circle((5, 0), 1), (10, 0)) is None
        assert sweep(CAPSULE, (10, 0), AABB((5, -3), (8, 3)), (10, 0)) is None


# ---------------------------------------------------------------------------------------------
# target distance (a skin) and max fraction


class TestSkinAndLimit:
    def test_circle_stops_a_skin_short_of_a_segment(self) -> None:
        # gap 0.5 when the centre is at 3.5
        wall = Segment((5, -2), (5, 2))
        hit = sweep(Circle((0, 0), 1), (10, 0), wall, target_distance=0.5)
        assert_sweep(hit, 0.35, (-1, 0), (5, 0), (3.5, 0))
        assert distance(Circle((3.5, 0), 1), wall) == pytest.approx(0.5, abs=TOL)

    def test_capsule_stops_a_skin_short_of_a_box(self) -> None:
        box = AABB((5, -3), (8, 3))
        hit = sweep(CAPSULE, (10, 0), box, target_distance=0.5)
        assert_sweep(hit, 0.4, (-1, 0), None, (4, 0), tol=ITER)
        assert hit is not None
        assert distance(moved_by(CAPSULE, (10, 0), hit.fraction), box) == pytest.approx(
            0.5, abs=1e-8)
        assert hit.point.x == pytest.approx(5, abs=1e-8)

    def test_box_stops_a_skin_short_of_a_plane(self) -> None:
        hit = sweep(BOX, (10, 0), WALL_PLANE, target_distance=0.5)
        assert_sweep(hit, 0.35, (-1, 0), None, (3.5, 0))
        assert hit is not None and hit.point.x == pytest.approx(5, abs=TOL)

    def test_polygon_stops_a_skin_short_of_a_circle(self) -> None:
        c = Circle((6, 0), 1)
        hit = sweep(TRIANGLE, (10, 0), c, target_distance=0.5)
        assert_sweep(hit, 0.35, (-1, 0), (5, 0), (1 / 3 + 3.5, 0))

    def test_starting_within_the_skin_hits_at_zero(self) -> None:
        wall = Segment((5, -2), (5, 2))
        hit = sweep(Circle((3.8, 0), 1), (10, 0), wall, target_distance=0.5)
        assert_sweep(hit, 0.0, (-1, 0), (5, 0), (3.8, 0), started_inside=True)
        box = AABB((5, -3), (8, 3))
        hit2 = sweep(CAPSULE.translated((4.2, 0)), (10, 0), box, target_distance=0.5)
        assert_sweep(hit2, 0.0, (-1, 0), None, (4.2, 0), started_inside=True, tol=ITER)

    def test_max_fraction_cuts_the_cast(self) -> None:
        wall = Segment((5, -2), (5, 2))
        c = Circle((0, 0), 1)
        assert sweep(c, (10, 0), wall, max_fraction=0.3) is None
        # a hit exactly at the limit counts
        assert_sweep(sweep(c, (10, 0), wall, max_fraction=0.4), 0.4, (-1, 0), (5, 0), (4, 0))
        box = AABB((5, -3), (8, 3))
        assert sweep(CAPSULE, (10, 0), box, max_fraction=0.44) is None
        assert_sweep(sweep(CAPSULE, (10, 0), box, max_fraction=0.5), 0.45, (-1, 0), None,
                     (4.5, 0), tol=ITER)
        assert sweep(BOX, (10, 0), WALL_PLANE, max_fraction=0.39) is None
        assert sweep(TRIANGLE, (10, 0), Circle((6, 0), 1), max_fraction=0.39) is None
        assert sweep(c, (10, 0), wall, max_fraction=0.0) is None


# ---------------------------------------------------------------------------------------------
# starting inside or touching


class TestStartedInside:
    def test_circle_overlapping_a_segment_leaves_the_shortest_way(self) -> None:
        hit = sweep(Circle((4.5, 0), 1), (10, 0), Segment((5, -2), (5, 2)))
        assert_sweep(hit, 0.0, (-1, 0), (5, 0), (4.5, 0), started_inside=True)

    def test_circle_touching_a_segment_hits_at_zero_even_moving_away(self) -> None:
        hit = sweep(Circle((4, 0), 1), (-10, 0), Segment((5, -2), (5, 2)))
        assert_sweep(hit, 0.0, (-1, 0), (5, 0), (4, 0), started_inside=True)

    def test_circle_centre_inside_a_box_leaves_by_the_nearest_face(self) -> None:
        hit = sweep(Circle((4.8, 4.5), 1), (1, 0), AABB((3, 3), (5, 5)))
        assert_sweep(hit, 0.0, (1, 0), (5, 4.5), (4.8, 4.5), started_inside=True)

    def test_circle_inside_a_plane(self) -> None:
        hit = sweep(Circle((0, 1), 2), (0, 5), Plane((0, 1), 0))
        assert_sweep(hit, 0.0, (0, 1), (0, 0), (0, 1), started_inside=True)

    def test_box_overlapping_a_box_leaves_the_shortest_way(self) -> None:
        hit = sweep(BOX.translated((4.5, 0)), (10, 0), AABB((5, -3), (8, 3)))
        assert_sweep(hit, 0.0, (-1, 0), None, (4.5, 0), started_inside=True, tol=ITER)

    def test_capsule_radius_overlapping_a_box_leaves_the_shortest_way(self) -> None:
        # only the radius overlaps (the core is 0.3 clear): along the separating axis
        hit = sweep(CAPSULE.translated((4.7, 0)), (0, 10), AABB((5, -3), (8, 3)))
        assert_sweep(hit, 0.0, (-1, 0), None, (4.7, 0), started_inside=True, tol=ITER)

    def test_polygon_overlapping_a_circle_leaves_the_shortest_way(self) -> None:
        hit = sweep(TRIANGLE.translated((4.5, 0)), (10, 0), Circle((6, 0), 1))
        assert_sweep(hit, 0.0, (-1, 0), (5, 0), (1 / 3 + 4.5, 0), started_inside=True)

    def test_polygon_overlapping_a_plane(self) -> None:
        hit = sweep(TRIANGLE.translated((4.5, 0)), (-10, 0), WALL_PLANE)
        assert_sweep(hit, 0.0, (-1, 0), (5, 0), (1 / 3 + 4.5, 0), started_inside=True)

    def test_sphere_inside_an_aabb(self) -> None:
        hit = sweep(Sphere((4, 4, 4.9), 0.5), (1, 0, 0), AABB((3, 3, 3), (5, 5, 5)))
        assert_sweep(hit, 0.0, (0, 0, 1), None, (4, 4, 4.9), started_inside=True)


# ---------------------------------------------------------------------------------------------
# zero displacement


class TestZeroDisplacement:
    def test_still_shapes_apart_never_meet(self) -> None:
        assert sweep(Circle((0, 0), 1), (0, 0), Segment((5, -2), (5, 2))) is None
        assert sweep(CAPSULE, (0, 0), AABB((5, -3), (8, 3))) is None
        assert sweep(BOX, (0, 0), WALL_PLANE) is None
        assert sweep(TRIANGLE, (0, 0), Circle((6, 0), 1)) is None
        assert sweep(Sphere((0, 0, 0), 1), (0, 0, 0), Sphere((5, 0, 0), 1)) is None

    def test_still_shapes_touching_hit_at_zero(self) -> None:
        hit = sweep(Circle((4, 0), 1), (0, 0), Segment((5, -2), (5, 2)))
        assert_sweep(hit, 0.0, (-1, 0), (5, 0), (4, 0), started_inside=True)
        hit2 = sweep(CAPSULE.translated((4.5, 0)), (0, 0), AABB((5, -3), (8, 3)))
        assert_sweep(hit2, 0.0, (-1, 0), None, (4.5, 0), started_inside=True, tol=ITER)

    def test_equal_displacements_are_no_relative_motion(self) -> None:
        assert sweep(Circle((0, 0), 1), (3, 4), Circle((5, 0), 1), (3, 4)) is None


# ---------------------------------------------------------------------------------------------
# bad input


class TestBadInput:
    def test_nan_displacement_is_named(self) -> None:
        with pytest.raises(ValueError, match="displacement"):
            sweep(Circle((0, 0), 1), (math.nan, 0), Segment((5, -2), (5, 2)))
        with pytest.raises(ValueError, match="displacement"):
            sweep(CAPSULE, (0, math.inf), AABB((5, -3), (8, 3)))
        with pytest.raises(ValueError, match="target_displacement"):
            sweep(Circle((0, 0), 1), (1, 0), Circle((5, 0), 1), (math.nan, 0))

    def test_bad_skin_and_limit_are_named(self) -> None:
        with pytest.raises(ValueError, match="target_distance"):
            sweep(Circle((0, 0), 1), (1, 0), Circle((5, 0), 1), target_distance=-1)
        with pytest.raises(ValueError, match="max_fraction"):
            sweep(Circle((0, 0), 1), (1, 0), Circle((5, 0), 1), max_fraction=1.5)
        with pytest.raises(ValueError, match="max_fraction"):
            sweep(Circle((0, 0), 1), (1, 0), Circle((5, 0), 1), max_fraction=math.nan)

    def test_unsupported_pairs_name_both_types(self) -> None:
        with pytest.raises(TypeError, match="Plane.*Circle|Circle.*Plane"):
            sweep(Plane((0, 1), 0), (1, 0), Circle((5, 0), 1))
        with pytest.raises(TypeError, match="Ray"):
            sweep(Circle((0, 0), 1), (1, 0), Ray((0, 0), (1, 0)))
        with pytest.raises(TypeError, match="Ray"):
            sweep(Ray((0, 0), (1, 0)), (1, 0), Circle((5, 0), 1))

    def test_mixed_dimensions_are_a_type_error(self) -> None:
        with pytest.raises(TypeError, match="Circle.*Sphere"):
            sweep(Circle((0, 0), 1), (1, 0), Sphere((5, 0, 0), 1))
        with pytest.raises(TypeError, match="Sphere.*AABB"):
            sweep(Sphere((0, 0, 0), 1), (1, 0, 0), AABB((3, 3), (5, 5)))

    def test_displacement_of_the_wrong_length(self) -> None:
        with pytest.raises((TypeError, ValueError), match="displacement"):
            sweep(Circle((0, 0), 1), (1, 0, 0), Circle((5, 0), 1))


def test_reference_points_are_centres_and_middles() -> None:
    assert reference_point(CAPSULE) == Vec2(0, 0)
    assert reference_point(BOX.translated((2, 3))) == Vec2(2, 3)
    assert reference_point(TRIANGLE).is_close((1 / 3, 0), 1e-15)


# ---------------------------------------------------------------------------------------------
# the batch kernel: many circles against many segments, through a BVH


def _segment_tree(seg_a: np.ndarray, seg_b: np.ndarray) -> tuple[np.ndarray, ...]:
    """A BVH over the segments' boxes, and those boxes."""
    lo = np.minimum(seg_a, seg_b)
    hi = np.maximum(seg_a, seg_b)
    return (*bvh.build(lo, hi), bvh.box_rows(lo, hi))


def _scalar_sweeps(centers: np.ndarray, radii: np.ndarray, disps: np.ndarray,
                   seg_a: np.ndarray, seg_b: np.ndarray) -> list[tuple[float, int, Any]]:
    """(fraction, index, normal) of each circle's first hit by the scalar ``sweep``
    (ties: the smallest index), or (inf, -1, None)."""
    segments = [Segment(a, b) for a, b in zip(seg_a, seg_b)]
    out = []
    for c, r, d in zip(centers, radii, disps):
        best: tuple[float, int, Any] = (math.inf, -1, None)
        circle = Circle(c, r)
        for j, s in enumerate(segments):
            hit = sweep(circle, d, s)
            if hit is not None and hit.fraction < best[0]:
                best = (hit.fraction, j, hit.normal)
        out.append(best)
    return out


class TestBatchSweep:
    def test_empty_batch_gives_typed_empty_arrays(self) -> None:
        rng = np.random.default_rng(1)
        seg_a = rng.uniform(0, 100, (5, 2))
        seg_b = seg_a + rng.uniform(-10, 10, (5, 2))
        tree = _segment_tree(seg_a, seg_b)
        hit, fraction, normal, index = sweep_circles_segments(
            np.empty((0, 2)), np.empty(0), np.empty((0, 2)), seg_a, seg_b, *tree)
        assert hit.shape == (0,) and hit.dtype == np.bool_
        assert fraction.shape == (0,) and fraction.dtype == np.float64
        assert normal.shape == (0, 2) and normal.dtype == np.float64
        assert index.shape == (0,) and index.dtype == np.int64

    def test_no_segments_is_every_circle_a_miss(self) -> None:
        empty = np.empty((0, 2))
        tree = _segment_tree(empty, empty)
        hit, fraction, normal, index = sweep_circles_segments(
            np.zeros((3, 2)), np.ones(3), np.ones((3, 2)), empty, empty, *tree)
        assert not hit.any()
        assert np.all(fraction == math.inf)
        assert np.all(index == -1)
        assert np.all(normal == 0.0)

    def test_seed_000_wall_in_a_batch(self) -> None:
        # the same numbers as the scalar test: side x = 4 at 0.4, an end, a miss
        seg_a = np.array([[5.0, -2.0], [5.0, 20.5]])
        seg_b = np.array([[5.0, 2.0], [5.0, 30.0]])
        tree = _segment_tree(seg_a, seg_b)
        centers = np.array([[0.0, 0.0], [0.0, 20.0], [0.0, 50.0]])
        radii = np.array([1.0, 1.0, 1.0])
        disps = np.array([[10.0, 0.0], [10.0, 0.0], [10.0, 0.0]])
        hit, fraction, normal, index = sweep_circles_segments(
            centers, radii, disps, seg_a, seg_b, *tree)
        s = 5 - math.sqrt(0.75)
        assert hit.tolist() == [True, True, False]
        assert fraction[0] == pytest.approx(0.4, abs=TOL)
        assert fraction[1] == pytest.approx(s / 10, abs=TOL)
        assert fraction[2] == math.inf
        assert index.tolist() == [0, 1, -1]
        assert normal[0].tolist() == pytest.approx([-1.0, 0.0], abs=TOL)
        assert normal[1].tolist() == pytest.approx([-math.sqrt(0.75), -0.5], abs=TOL)

    @pytest.mark.parametrize("seed", [0, 1, 2])
    def test_batch_equals_the_scalar_sweep_on_random_scenes(self, seed: int) -> None:
        rng = np.random.default_rng(seed)
        m = 60
        seg_a = rng.uniform(0, 200, (m, 2))
        angle = rng.uniform(0, 2 * math.pi, m)
        length = rng.uniform(1, 40, m)
        seg_b = seg_a + np.stack([np.cos(angle), np.sin(angle)], axis=1) * length[:, None]
        n = 80
        centers = rng.uniform(0, 200, (n, 2))
        radii = rng.uniform(0.5, 6, n)
        disps = rng.uniform(-80, 80, (n, 2))
        disps[:4] = 0.0  # still circles: a hit only when they start touching
        tree = _segment_tree(seg_a, seg_b)
        hit, fraction, normal, index = sweep_circles_segments(
            centers, radii, disps, seg_a, seg_b, *tree)
        expected = _scalar_sweeps(centers, radii, disps, seg_a, seg_b)
        assert hit.sum() > 10  # the scenes are crowded enough to test something
        for i, (f, j, nrm) in enumerate(expected):
            assert bool(hit[i]) is (j >= 0), i
            if j < 0:
                assert fraction[i] == math.inf and index[i] == -1
                continue
            assert fraction[i] == pytest.approx(f, abs=TOL), i
            if index[i] != j:
                # a tie: both segments are met at the same fraction
                other = _scalar_sweeps(centers[i:i + 1], radii[i:i + 1], disps[i:i + 1],
                                       seg_a[index[i]:index[i] + 1],
                                       seg_b[index[i]:index[i] + 1])[0]
                assert other[0] == pytest.approx(f, abs=TOL), i
            else:
                assert normal[i].tolist() == pytest.approx(list(nrm), abs=1e-12), i


def test_circle_passing_a_box_with_no_width_does_not_hit_it() -> None:
    # A box of zero size has zero-length offset edges; a ray against such a point-like edge
    # must meet it only if the point lies on the ray (it once counted as collinear with any ray).
    from swept import AABB, Circle, sweep

    assert sweep(Circle((0, 1), 0.75), (0, -2), AABB((1, 0), (1, 0))) is None
    hit = sweep(Circle((0, 1), 0.75), (0, -2), AABB((0.5, 0), (0.5, 0)))
    assert hit is not None and abs(hit.position.distance_to((0.5, 0)) - 0.75) < 1e-12


def test_polygon_box_accepts_a_numpy_centre() -> None:
    # Polygon.box compared its centre argument to a tuple before coercing it, which a numpy
    # array cannot answer.
    import numpy as np

    from swept import Polygon

    assert Polygon.box(1, 1, center=np.array([2.0, 3.0])).centroid.is_close((2, 3), 1e-12)
