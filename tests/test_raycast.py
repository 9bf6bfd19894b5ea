"""Ray casts against every shape: seed 000's worked numbers, closed forms to 1e-12, and each
convention (start inside, on the boundary, touching, behind, parallel, collinear, exactly at
max_distance, corners) in 2D and 3D."""

from __future__ import annotations

import importlib
import math
from typing import Any

import numpy as np
import pytest

from swept import COINCIDENT_NORMAL_2D, COINCIDENT_NORMAL_3D
from swept._kernels import ray as K
from swept.raycast import (
    ray_box,
    ray_capsule,
    ray_circle,
    ray_polygon,
    ray_segment,
    raycast,
)
from swept.results import RayHit
from swept.shapes import AABB, Capsule, Circle, Plane, Polygon, Ray, Segment, Sphere
from swept.vec import Vec2, Vec3

TOL = 1e-12
INF = math.inf


def close(a: object, b: object, tol: float = TOL) -> bool:
    """Component-wise closeness of two numbers or vectors."""
    if isinstance(a, tuple):
        assert isinstance(b, tuple) and len(a) == len(b), (a, b)
        return all(abs(x - y) <= tol for x, y in zip(a, b))
    return abs(a - b) <= tol  # type: ignore[operator]


def assert_hit(hit: RayHit | None, distance: float, point: tuple[float, ...],
               normal: tuple[float, ...], started_inside: bool = False,
               tol: float = TOL) -> None:
    assert hit is not None, "expected a hit, got a miss"
    assert isinstance(hit, RayHit)
    assert close(hit.distance, distance, tol), (hit.distance, distance)
    assert close(hit.point, tuple(point), tol), (hit.point, point)
    assert close(hit.normal, tuple(normal), tol), (hit.normal, normal)
    assert hit.started_inside is started_inside
    dim = len(point)
    vec = Vec2 if dim == 2 else Vec3
    assert type(hit.point) is vec and type(hit.normal) is vec
    assert abs(hit.normal.length() - 1.0) <= TOL


# ---------------------------------------------------------------------------------------
# Seed 000: worked numbers
# ---------------------------------------------------------------------------------------

class TestSeedWorkedNumbers:
    def test_circle_entry_is_five_minus_root_one_and_a_quarter(self) -> None:
        hit = ray_circle((0, 0), (1, 0), (5, 1), 1.5)
        t = 5.0 - math.sqrt(1.25)
        assert_hit(hit, t, (t, 0.0), ((t - 5.0) / 1.5, -1.0 / 1.5))
        assert round(hit.distance, 2) == 3.88  # type: ignore[union-attr]

    def test_circle_exit_is_five_plus_root_one_and_a_quarter(self) -> None:
        # the exit of the forward ray is the entry of the reversed ray from beyond the circle
        back = ray_circle((10, 0), (-1, 0), (5, 1), 1.5)
        t_exit = 5.0 + math.sqrt(1.25)
        assert back is not None
        assert close(back.point.x, t_exit)
        assert close(10.0 - back.distance, t_exit)
        assert round(t_exit, 2) == 6.12

    def test_circle_radius_point_nine_misses(self) -> None:
        assert ray_circle((0, 0), (1, 0), (5, 1), 0.9) is None

    def test_slab_entry_at_five_at_four_three(self) -> None:
        assert_hit(ray_box((0, 0), (0.8, 0.6), (4, 1), (8, 5)), 5.0, (4.0, 3.0), (-1.0, 0.0))

    def test_slab_exit_at_twenty_five_thirds(self) -> None:
        # the reversed ray from (8, 6) = 10 * (0.8, 0.6) enters where the forward one leaves
        back = ray_box((8, 6), (-0.8, -0.6), (4, 1), (8, 5))
        assert_hit(back, 10.0 - 25.0 / 3.0, (20.0 / 3.0, 5.0), (0.0, 1.0))
        assert close(10.0 - back.distance, 25.0 / 3.0)  # type: ignore[union-attr]

    def test_slab_steep_ray_misses(self) -> None:
        assert ray_box((0, 0), (0.6, 0.8), (4, 1), (8, 5)) is None

    def test_exercise_1_radius_five_touches(self) -> None:
        # b = -5, c = 25: the discriminant is 0, the ray touches the rim at t = 5
        assert_hit(ray_circle((0, 0), (0.6, 0.8), (7, 1), 5), 5.0, (3.0, 4.0), (-0.8, 0.6))

    def test_exercise_1_radius_four_misses(self) -> None:
        assert ray_circle((0, 0), (0.6, 0.8), (7, 1), 4) is None

    def test_exercise_1_radius_thirteen_starts_inside(self) -> None:
        n = (-7.0 / math.sqrt(50.0), -1.0 / math.sqrt(50.0))
        assert_hit(ray_circle((0, 0), (0.6, 0.8), (7, 1), 13), 0.0, (0.0, 0.0), n, True)

    def test_exercise_2_enters_the_right_face(self) -> None:
        hit = ray_box((10, 0), (-0.6, 0.8), (2, 4), (6, 8))
        assert_hit(hit, 20.0 / 3.0, (6.0, 0.8 * 20.0 / 3.0), (1.0, 0.0))

    def test_two_moving_balls_relative_velocity(self) -> None:
        # A at (0, 0) r 10 moving (300, 0); B at (100, 5) r 10 moving (-200, 0)
        hit = ray_circle((0, 0), (500, 0), (100, 5), 20)
        assert hit is not None
        assert close(hit.distance, 100.0 - math.sqrt(375.0))
        assert round(hit.distance / 500.0, 2) == 0.16


# ---------------------------------------------------------------------------------------
# Circle and sphere
# ---------------------------------------------------------------------------------------

class TestCircle:
    def test_head_on_hit(self) -> None:
        assert_hit(raycast(Ray((0, 0), (1, 0)), Circle((5, 0), 1)), 4.0, (4.0, 0.0),
                   (-1.0, 0.0))

    def test_tangent_ray_touches(self) -> None:
        hit = raycast(Ray((0, 1), (1, 0)), Circle((5, 0), 1))
        assert_hit(hit, 5.0, (5.0, 1.0), (0.0, 1.0))
        assert hit is not None and hit.normal.dot((1.0, 0.0)) == 0.0

    def test_starts_inside(self) -> None:
        assert_hit(raycast(Ray((5, 0.5), (1, 0)), Circle((5, 0), 1)), 0.0, (5.0, 0.5),
                   (0.0, 1.0), True)

    def test_starts_inside_normal_need_not_face_the_ray(self) -> None:
        hit = raycast(Ray((5, 0.5), (0, 1)), Circle((5, 0), 1))
        assert_hit(hit, 0.0, (5.0, 0.5), (0.0, 1.0), True)

    def test_starts_at_the_centre_uses_the_coincident_normal(self) -> None:
        assert_hit(raycast(Ray((5, 0), (0, 1)), Circle((5, 0), 1)), 0.0, (5.0, 0.0),
                   tuple(COINCIDENT_NORMAL_2D), True)

    def test_starts_on_the_rim_heading_out_hits_at_zero(self) -> None:
        assert_hit(raycast(Ray((6, 0), (1, 0)), Circle((5, 0), 1)), 0.0, (6.0, 0.0),
                   (1.0, 0.0), True)

    def test_starts_on_the_rim_heading_in_starts_inside(self) -> None:
        assert_hit(raycast(Ray((6, 0), (-1, 0)), Circle((5, 0), 1)), 0.0, (6.0, 0.0),
                   (1.0, 0.0), True)

    def test_started_inside_point_is_the_origin_object(self) -> None:
        ray = Ray((5, 0.5), (1, 0))
        hit = raycast(ray, Circle((5, 0), 1))
        assert hit is not None and hit.point is ray.origin

    def test_behind_the_origin_misses(self) -> None:
        assert raycast(Ray((0, 0), (1, 0)), Circle((-5, 0), 1)) is None

    def test_heading_away_from_a_near_circle_misses(self) -> None:
        assert raycast(Ray((0, 0), (1, 0)), Circle((-1.5, 0.5), 1)) is None

    def test_hit_exactly_at_max_distance(self) -> None:
        assert_hit(raycast(Ray((0, 0), (1, 0), 4.0), Circle((5, 0), 1)), 4.0, (4.0, 0.0),
                   (-1.0, 0.0))

    def test_just_short_of_max_distance_misses(self) -> None:
        assert raycast(Ray((0, 0), (1, 0), 3.999999), Circle((5, 0), 1)) is None

    def test_zero_max_distance_only_hits_from_inside(self) -> None:
        assert raycast(Ray((0, 0), (1, 0), 0.0), Circle((5, 0), 1)) is None
        assert raycast(Ray((5, 0), (1, 0), 0.0), Circle((5, 0), 1)) is not None

    def test_zero_radius_circle_is_a_point(self) -> None:
        assert_hit(raycast(Ray((0, 0), (1, 0)), Circle((5, 0), 0)), 5.0, (5.0, 0.0),
                   (-1.0, 0.0))
        assert raycast(Ray((0, 0), (1, 0)), Circle((5, 1e-9), 0)) is None

    def test_far_circle_keeps_precision(self) -> None:
        # the discriminant from the closest approach, not b^2 - c, keeps every digit
        hit = raycast(Ray((0, 0), (1, 0)), Circle((1e6, 0.5), 1))
        assert hit is not None
        assert close(hit.distance, 1e6 - math.sqrt(0.75), 1e-9)

    def test_direction_is_normalised(self) -> None:
        hit = ray_circle((0, 0), (10, 0), (5, 0), 1)
        assert_hit(hit, 4.0, (4.0, 0.0), (-1.0, 0.0))

    def test_ray_circle_matches_raycast(self) -> None:
        a = ray_circle((0, 0), (0.6, 0.8), (5, 7), 2, max_distance=20)
        b = raycast(Ray((0, 0), (0.6, 0.8), 20), Circle((5, 7), 2))
        assert a == b and a is not None


class TestSphere:
    def test_seed_numbers_in_3d(self) -> None:
        t = 5.0 - math.sqrt(1.25)
        hit = raycast(Ray((0, 0, 0), (1, 0, 0)), Sphere((5, 1, 0), 1.5))
        assert_hit(hit, t, (t, 0.0, 0.0), ((t - 5.0) / 1.5, -1.0 / 1.5, 0.0))
        assert raycast(Ray((0, 0, 0), (1, 0, 0)), Sphere((5, 1, 0), 0.9)) is None

    def test_ray_circle_with_3d_vectors_is_a_sphere(self) -> None:
        a = ray_circle((0, 0, 0), (0, 0, 2), (0, 1, 5), 1.5)
        b = raycast(Ray((0, 0, 0), (0, 0, 1)), Sphere((0, 1, 5), 1.5))
        assert a == b and a is not None

    def test_tangent(self) -> None:
        assert_hit(raycast(Ray((0, 0, 1), (1, 0, 0)), Sphere((5, 0, 0), 1)), 5.0,
                   (5.0, 0.0, 1.0), (0.0, 0.0, 1.0))

    def test_starts_inside(self) -> None:
        assert_hit(raycast(Ray((5, 0, -0.5), (1, 0, 0)), Sphere((5, 0, 0), 1)), 0.0,
                   (5.0, 0.0, -0.5), (0.0, 0.0, -1.0), True)

    def test_starts_at_the_centre(self) -> None:
        assert_hit(raycast(Ray((5, 0, 0), (0, 1, 0)), Sphere((5, 0, 0), 1)), 0.0,
                   (5.0, 0.0, 0.0), tuple(COINCIDENT_NORMAL_3D), True)

    def test_on_the_surface_hits_at_zero(self) -> None:
        assert_hit(raycast(Ray((5, 1, 0), (0, 1, 0)), Sphere((5, 0, 0), 1)), 0.0,
                   (5.0, 1.0, 0.0), (0.0, 1.0, 0.0), True)

    def test_behind_and_max_distance(self) -> None:
        assert raycast(Ray((0, 0, 0), (1, 0, 0)), Sphere((-5, 0, 0), 1)) is None
        assert raycast(Ray((0, 0, 0), (1, 0, 0), 4.0), Sphere((5, 0, 0), 1)) is not None
        assert raycast(Ray((0, 0, 0), (1, 0, 0), 3.5), Sphere((5, 0, 0), 1)) is None


# ---------------------------------------------------------------------------------------
# Segment
# ---------------------------------------------------------------------------------------

class TestSegment:
    def test_crossing_hit_normal_faces_the_ray(self) -> None:
        ray = Ray((0, 0), (1, 0))
        assert_hit(raycast(ray, Segment((5, -1), (5, 1))), 5.0, (5.0, 0.0), (-1.0, 0.0))
        # either winding: the perpendicular is turned to face the ray
        assert_hit(raycast(ray, Segment((5, 1), (5, -1))), 5.0, (5.0, 0.0), (-1.0, 0.0))

    def test_oblique_crossing(self) -> None:
        # segment from (0, 4) to (4, 0); ray straight up from (1, 0) meets it at (1, 3)
        s = 1.0 / math.sqrt(2.0)
        assert_hit(raycast(Ray((1, 0), (0, 1)), Segment((0, 4), (4, 0))), 3.0, (1.0, 3.0),
                   (-s, -s))

    def test_through_an_end_point(self) -> None:
        assert_hit(raycast(Ray((0, 0), (1, 0)), Segment((5, 0), (5, 2))), 5.0, (5.0, 0.0),
                   (-1.0, 0.0))

    def test_past_an_end_misses(self) -> None:
        assert raycast(Ray((0, 0), (1, 0)), Segment((5, 0.5), (5, 2))) is None

    def test_collinear_ahead_hits_the_nearer_end(self) -> None:
        ray = Ray((0, 0), (1, 0))
        assert_hit(raycast(ray, Segment((5, 0), (10, 0))), 5.0, (5.0, 0.0), (-1.0, 0.0))
        assert_hit(raycast(ray, Segment((10, 0), (5, 0))), 5.0, (5.0, 0.0), (-1.0, 0.0))

    def test_collinear_diagonal(self) -> None:
        s = 1.0 / math.sqrt(2.0)
        hit = ray_segment((0, 0), (1, 1), (2, 2), (3, 3))
        assert_hit(hit, 2.0 * math.sqrt(2.0), (2.0, 2.0), (-s, -s), tol=1e-12)

    def test_collinear_starting_on_segment(self) -> None:
        assert_hit(raycast(Ray((7, 0), (1, 0)), Segment((5, 0), (10, 0))), 0.0, (7.0, 0.0),
                   (-1.0, 0.0), True)
        # heading back along it, too: the normal still opposes the ray
        assert_hit(raycast(Ray((7, 0), (-1, 0)), Segment((5, 0), (10, 0))), 0.0,
                   (7.0, 0.0), (1.0, 0.0), True)

    def test_collinear_starting_on_an_end(self) -> None:
        assert_hit(raycast(Ray((10, 0), (1, 0)), Segment((5, 0), (10, 0))), 0.0, (10.0, 0.0),
                   (-1.0, 0.0), True)

    def test_collinear_behind_misses(self) -> None:
        assert raycast(Ray((0, 0), (1, 0)), Segment((-10, 0), (-5, 0))) is None

    def test_collinear_beyond_max_distance_misses(self) -> None:
        assert raycast(Ray((0, 0), (1, 0), 4.0), Segment((5, 0), (10, 0))) is None
        assert raycast(Ray((0, 0), (1, 0), 5.0), Segment((5, 0), (10, 0))) is not None

    def test_parallel_not_collinear_misses(self) -> None:
        assert raycast(Ray((0, 0), (1, 0)), Segment((5, 1), (10, 1))) is None
        assert raycast(Ray((0, 0), (1, 0)), Segment((5, -1e-9), (10, -1e-9))) is None

    def test_origin_on_segment_crossing_it(self) -> None:
        assert_hit(raycast(Ray((5, 0), (1, 1)), Segment((5, -1), (5, 1))), 0.0, (5.0, 0.0),
                   (-1.0, 0.0), True)

    def test_behind_misses(self) -> None:
        assert raycast(Ray((0, 0), (1, 0)), Segment((-5, -1), (-5, 1))) is None

    def test_hit_exactly_at_max_distance(self) -> None:
        assert raycast(Ray((0, 0), (1, 0), 5.0), Segment((5, -1), (5, 1))) is not None
        assert raycast(Ray((0, 0), (1, 0), 4.9), Segment((5, -1), (5, 1))) is None

    def test_ray_segment_matches_raycast(self) -> None:
        a = ray_segment((0, 0), (2, 1), (5, -1), (4, 6))
        b = raycast(Ray((0, 0), (2, 1)), Segment((5, -1), (4, 6)))
        assert a == b and a is not None


# ---------------------------------------------------------------------------------------
# Boxes
# ---------------------------------------------------------------------------------------

class TestAABB2:
    box = AABB((4, 1), (8, 5))

    def test_each_face_from_outside(self) -> None:
        b = self.box
        assert_hit(raycast(Ray((0, 3), (1, 0)), b), 4.0, (4.0, 3.0), (-1.0, 0.0))
        assert_hit(raycast(Ray((10, 3), (-1, 0)), b), 2.0, (8.0, 3.0), (1.0, 0.0))
        assert_hit(raycast(Ray((6, -1), (0, 1)), b), 2.0, (6.0, 1.0), (0.0, -1.0))
        assert_hit(raycast(Ray((6, 9), (0, -1)), b), 4.0, (6.0, 5.0), (0.0, 1.0))

    def test_parallel_to_a_slab_inside_it(self) -> None:
        assert_hit(raycast(Ray((0, 3), (1, 0)), self.box), 4.0, (4.0, 3.0), (-1.0, 0.0))

    def test_parallel_to_a_slab_outside_it_misses(self) -> None:
        assert raycast(Ray((0, 6), (1, 0)), self.box) is None
        assert raycast(Ray((0, 0.999), (1, 0)), self.box) is None

    def test_grazing_along_a_face_touches(self) -> None:
        assert_hit(raycast(Ray((0, 5), (1, 0)), self.box), 4.0, (4.0, 5.0), (-1.0, 0.0))
        assert_hit(raycast(Ray((0, 1), (1, 0)), self.box), 4.0, (4.0, 1.0), (-1.0, 0.0))

    def test_corner_hit_takes_the_x_face(self) -> None:
        hit = raycast(Ray((0, -3), (1, 1)), self.box)
        assert_hit(hit, 4.0 * math.sqrt(2.0), (4.0, 1.0), (-1.0, 0.0), tol=1e-12)

    def test_grazing_a_corner_touches(self) -> None:
        # the line y = x touches box (4, 0)-(8, 4) only at its corner (4, 4)
        hit = raycast(Ray((0, 0), (1, 1)), AABB((4, 0), (8, 4)))
        assert_hit(hit, 4.0 * math.sqrt(2.0), (4.0, 4.0), (-1.0, 0.0), tol=1e-12)

    def test_starts_inside_nearest_face(self) -> None:
        b = self.box
        assert_hit(raycast(Ray((6, 1.5), (1, 0)), b), 0.0, (6.0, 1.5), (0.0, -1.0), True)
        assert_hit(raycast(Ray((7.5, 3), (0, 1)), b), 0.0, (7.5, 3.0), (1.0, 0.0), True)
        assert_hit(raycast(Ray((6, 4.9), (0, -1)), b), 0.0, (6.0, 4.9), (0.0, 1.0), True)
        assert_hit(raycast(Ray((4.2, 3), (0, 1)), b), 0.0, (4.2, 3.0), (-1.0, 0.0), True)

    def test_starts_inside_tie_takes_x_min_first(self) -> None:
        assert_hit(raycast(Ray((5, 2), (1, 0)), self.box), 0.0, (5.0, 2.0), (-1.0, 0.0),
                   True)

    def test_on_the_boundary_heading_out_hits_at_zero(self) -> None:
        assert_hit(raycast(Ray((8, 3), (1, 0)), self.box), 0.0, (8.0, 3.0), (1.0, 0.0), True)

    def test_on_the_boundary_heading_in_starts_inside(self) -> None:
        assert_hit(raycast(Ray((4, 3), (1, 0)), self.box), 0.0, (4.0, 3.0), (-1.0, 0.0), True)
        assert_hit(raycast(Ray((8, 5), (-1, -1)), self.box), 0.0, (8.0, 5.0), (1.0, 0.0),
                   True)

    def test_behind_misses(self) -> None:
        assert raycast(Ray((10, 3), (1, 0)), self.box) is None

    def test_hit_exactly_at_max_distance(self) -> None:
        assert raycast(Ray((0, 3), (1, 0), 4.0), self.box) is not None
        assert raycast(Ray((0, 3), (1, 0), 3.9), self.box) is None

    def test_flat_box(self) -> None:
        assert_hit(raycast(Ray((0, 0), (1, 0)), AABB((5, -1), (5, 1))), 5.0, (5.0, 0.0),
                   (-1.0, 0.0))

    def test_no_nan_for_axis_aligned_rays_on_the_boundary_lines(self) -> None:
        for origin in [(4, 0), (8, 0), (4, 6), (0, 1), (0, 5), (4, 1)]:
            for direction in [(1, 0), (0, 1), (-1, 0), (0, -1)]:
                hit = raycast(Ray(origin, direction), self.box)
                if hit is not None:
                    assert all(math.isfinite(c) for c in (*hit.point, *hit.normal))
                    assert math.isfinite(hit.distance)

    def test_ray_box_matches_raycast(self) -> None:
        a = ray_box((0, 0), (3, 1), (4, -1), (8, 5), max_distance=10)
        b = raycast(Ray((0, 0), (3, 1), 10), AABB((4, -1), (8, 5)))
        assert a == b and a is not None


class TestAABB3:
    box = AABB((4, 1, -1), (8, 5, 1))

    def test_slab_numbers_in_3d(self) -> None:
        assert_hit(raycast(Ray((0, 0, 0), (0.8, 0.6, 0)), self.box), 5.0, (4.0, 3.0, 0.0),
                   (-1.0, 0.0, 0.0))
        assert raycast(Ray((0, 0, 0), (0.6, 0.8, 0)), self.box) is None

    def test_each_face(self) -> None:
        b = self.box
        cases = [
            ((0, 3, 0), (1, 0, 0), 4.0, (-1, 0, 0)),
            ((10, 3, 0), (-1, 0, 0), 2.0, (1, 0, 0)),
            ((6, -1, 0), (0, 1, 0), 2.0, (0, -1, 0)),
            ((6, 9, 0), (0, -1, 0), 4.0, (0, 1, 0)),
            ((6, 3, -5), (0, 0, 1), 4.0, (0, 0, -1)),
            ((6, 3, 5), (0, 0, -1), 4.0, (0, 0, 1)),
        ]
        for o, d, t, n in cases:
            p = tuple(oc + t * dc for oc, dc in zip(o, d))
            assert_hit(raycast(Ray(o, d), b), t, p, tuple(float(c) for c in n))

    def test_parallel_to_two_slabs(self) -> None:
        assert raycast(Ray((6, 3, 2), (1, 0, 0)), self.box) is None
        assert_hit(raycast(Ray((0, 3, 1), (1, 0, 0)), self.box), 4.0, (4.0, 3.0, 1.0),
                   (-1.0, 0.0, 0.0))

    def test_corner_hit_takes_the_x_face(self) -> None:
        hit = raycast(Ray((0, 0, 0), (1, 1, 1)), AABB((4, 4, 4), (8, 8, 8)))
        assert_hit(hit, 4.0 * math.sqrt(3.0), (4.0, 4.0, 4.0), (-1.0, 0.0, 0.0), tol=1e-12)

    def test_edge_hit_y_over_z(self) -> None:
        hit = raycast(Ray((6, 0, -2), (0, 1, 1)), self.box)
        assert_hit(hit, math.sqrt(2.0), (6.0, 1.0, -1.0), (0.0, -1.0, 0.0), tol=1e-12)

    def test_starts_inside_nearest_face(self) -> None:
        assert_hit(raycast(Ray((6, 3, 0.8), (1, 0, 0)), self.box), 0.0, (6.0, 3.0, 0.8),
                   (0.0, 0.0, 1.0), True)
        assert_hit(raycast(Ray((6, 3, -0.8), (1, 0, 0)), self.box), 0.0, (6.0, 3.0, -0.8),
                   (0.0, 0.0, -1.0), True)

    def test_on_the_boundary(self) -> None:
        assert_hit(raycast(Ray((6, 3, 1), (0, 0, 1)), self.box), 0.0, (6.0, 3.0, 1.0),
                   (0.0, 0.0, 1.0), True)

    def test_behind_and_max_distance(self) -> None:
        assert raycast(Ray((0, 3, 0), (-1, 0, 0)), self.box) is None
        assert raycast(Ray((0, 3, 0), (1, 0, 0), 4.0), self.box) is not None
        assert raycast(Ray((0, 3, 0), (1, 0, 0), 3.99), self.box) is None

    def test_ray_box_3d_matches_raycast(self) -> None:
        a = ray_box((0, 0, 0), (0.8, 0.6, 0.1), (4, 1, -1), (8, 5, 1))
        b = raycast(Ray((0, 0, 0), (0.8, 0.6, 0.1)), self.box)
        assert a == b and a is not None


# ---------------------------------------------------------------------------------------
# Polygon
# ---------------------------------------------------------------------------------------

class TestPolygon:
    tri = Polygon([(0, 0), (4, 0), (0, 4)])

    def test_square_matches_the_box_numbers(self) -> None:
        sq = Polygon([(4, 1), (8, 1), (8, 5), (4, 5)])
        assert_hit(raycast(Ray((0, 0), (0.8, 0.6)), sq), 5.0, (4.0, 3.0), (-1.0, 0.0))
        assert raycast(Ray((0, 0), (0.6, 0.8)), sq) is None

    def test_slanted_edge(self) -> None:
        s = 1.0 / math.sqrt(2.0)
        hit = raycast(Ray((4, 4), (-1, -1)), self.tri)
        assert_hit(hit, 2.0 * math.sqrt(2.0), (2.0, 2.0), (s, s), tol=1e-12)

    def test_each_edge_normal_is_outward_and_faces_the_ray(self) -> None:
        s = 1.0 / math.sqrt(2.0)
        assert_hit(raycast(Ray((1, -3), (0, 1)), self.tri), 3.0, (1.0, 0.0), (0.0, -1.0))
        assert_hit(raycast(Ray((-3, 1), (1, 0)), self.tri), 3.0, (-3.0 + 3.0, 1.0),
                   (-1.0, 0.0))
        hit = raycast(Ray((3, 3), (-1, 0)), self.tri)
        assert_hit(hit, 2.0, (1.0, 3.0), (s, s), tol=1e-12)

    def test_corner_hit(self) -> None:
        hit = raycast(Ray((-1, -1), (1, 1)), self.tri)
        assert hit is not None
        assert close(hit.distance, math.sqrt(2.0)) and close(hit.point, (0.0, 0.0))
        assert hit.normal.dot(Vec2(1, 1).normalized()) < 0.0

    def test_grazing_a_corner_touches(self) -> None:
        hit = raycast(Ray((4, -2), (0, 1)), self.tri)
        assert_hit(hit, 2.0, (4.0, 0.0), (0.0, -1.0))

    def test_parallel_to_an_edge_outside_misses(self) -> None:
        assert raycast(Ray((-3, -1), (1, 0)), self.tri) is None

    def test_along_an_edge_touches(self) -> None:
        assert_hit(raycast(Ray((-3, 0), (1, 0)), self.tri), 3.0, (0.0, 0.0), (-1.0, 0.0))

    def test_starts_inside_nearest_edge(self) -> None:
        assert_hit(raycast(Ray((1, 0.5), (0, 1)), self.tri), 0.0, (1.0, 0.5), (0.0, -1.0),
                   True)
        s = 1.0 / math.sqrt(2.0)
        assert_hit(raycast(Ray((1.8, 1.8), (-1, 0)), self.tri), 0.0, (1.8, 1.8), (s, s),
                   True, tol=1e-12)

    def test_on_an_edge_heading_out_hits_at_zero(self) -> None:
        assert_hit(raycast(Ray((2, 0), (0, -1)), self.tri), 0.0, (2.0, 0.0), (0.0, -1.0),
                   True)

    def test_on_an_edge_heading_in_starts_inside(self) -> None:
        assert_hit(raycast(Ray((2, 0), (0, 1)), self.tri), 0.0, (2.0, 0.0), (0.0, -1.0),
                   True)

    def test_on_a_corner_starts_inside(self) -> None:
        hit = raycast(Ray((4, 0), (1, 0)), self.tri)
        assert hit is not None and hit.started_inside and hit.distance == 0.0

    def test_behind_and_max_distance(self) -> None:
        assert raycast(Ray((1, -3), (0, -1)), self.tri) is None
        assert raycast(Ray((1, -3), (0, 1), 3.0), self.tri) is not None
        assert raycast(Ray((1, -3), (0, 1), 2.999), self.tri) is None

    def test_normal_is_the_polygons_own_vector(self) -> None:
        hit = raycast(Ray((1, -3), (0, 1)), self.tri)
        assert hit is not None and hit.normal in self.tri.normals

    def test_ray_polygon_takes_points_in_either_winding(self) -> None:
        ccw = ray_polygon((4, 4), (-1, -1), [(0, 0), (4, 0), (0, 4)])
        cw = ray_polygon((4, 4), (-1, -1), [(0, 4), (4, 0), (0, 0)])
        poly = ray_polygon((4, 4), (-1, -1), self.tri)
        assert ccw == cw == poly == raycast(Ray((4, 4), (-1, -1)), self.tri)
        assert ccw is not None

    def test_regular_polygon_placed(self) -> None:
        hexagon = Polygon.regular(6, 2.0, center=(10, 0))
        assert_hit(raycast(Ray((0, 0), (1, 0)), hexagon), 8.0, (8.0, 0.0),
                   (-math.sqrt(3) / 2, 0.5), tol=1e-12)


# ---------------------------------------------------------------------------------------
# Capsule
# ---------------------------------------------------------------------------------------

class TestCapsule2:
    cap = Capsule((0, 0), (10, 0), 1)

    def test_side_hit(self) -> None:
        assert_hit(raycast(Ray((5, 5), (0, -1)), self.cap), 4.0, (5.0, 1.0), (0.0, 1.0))
        assert_hit(raycast(Ray((5, -5), (0, 1)), self.cap), 4.0, (5.0, -1.0), (0.0, -1.0))

    def test_end_circle_head_on(self) -> None:
        assert_hit(raycast(Ray((-5, 0), (1, 0)), self.cap), 4.0, (-1.0, 0.0), (-1.0, 0.0))
        assert_hit(raycast(Ray((15, 0), (-1, 0)), self.cap), 4.0, (11.0, 0.0), (1.0, 0.0))

    def test_end_circle_off_axis(self) -> None:
        t = 5.0 - math.sqrt(0.75)
        assert_hit(raycast(Ray((-5, 0.5), (1, 0)), self.cap), t, (-math.sqrt(0.75), 0.5),
                   (-math.sqrt(0.75), 0.5), tol=1e-12)

    def test_oblique_side_hit(self) -> None:
        hit = raycast(Ray((2, 5), (0.6, -0.8)), self.cap)
        assert_hit(hit, 5.0, (5.0, 1.0), (0.0, 1.0), tol=1e-12)

    def test_tangent_along_the_side_touches(self) -> None:
        assert_hit(raycast(Ray((-5, 1), (1, 0)), self.cap), 5.0, (0.0, 1.0), (0.0, 1.0))

    def test_starts_inside(self) -> None:
        assert_hit(raycast(Ray((5, 0.5), (1, 0)), self.cap), 0.0, (5.0, 0.5), (0.0, 1.0),
                   True)
        assert_hit(raycast(Ray((-0.5, 0), (1, 0)), self.cap), 0.0, (-0.5, 0.0), (-1.0, 0.0),
                   True)

    def test_starts_on_the_core_goes_out_the_left_side(self) -> None:
        assert_hit(raycast(Ray((5, 0), (1, 0)), self.cap), 0.0, (5.0, 0.0), (0.0, 1.0), True)

    def test_point_capsule_is_a_circle(self) -> None:
        c = Capsule((5, 0), (5, 0), 1)
        assert raycast(Ray((0, 0.5), (1, 0)), c) == raycast(Ray((0, 0.5), (1, 0)),
                                                             Circle((5, 0), 1))
        assert_hit(raycast(Ray((5, 0), (0, 1)), c), 0.0, (5.0, 0.0),
                   tuple(COINCIDENT_NORMAL_2D), True)

    def test_zero_radius_capsule_is_a_segment(self) -> None:
        c = Capsule((5, -1), (5, 1), 0)
        assert_hit(raycast(Ray((0, 0), (1, 0)), c), 5.0, (5.0, 0.0), (-1.0, 0.0))
        assert_hit(raycast(Ray((0, 1), (1, 0)), c), 5.0, (5.0, 1.0), (-1.0, 0.0))

    def test_raycast_on_the_rim_heading_out_hits_at_zero(self) -> None:
        assert_hit(raycast(Ray((5, 1), (0, 1)), self.cap), 0.0, (5.0, 1.0), (0.0, 1.0), True)

    def test_behind_and_max_distance(self) -> None:
        assert raycast(Ray((5, 5), (0, 1)), self.cap) is None
        assert raycast(Ray((5, 5), (0, -1), 4.0), self.cap) is not None
        assert raycast(Ray((5, 5), (0, -1), 3.9), self.cap) is None
        assert raycast(Ray((-5, 0), (1, 0), 4.0), self.cap) is not None
        assert raycast(Ray((-5, 0), (1, 0), 3.9), self.cap) is None

    def test_slanted_capsule(self) -> None:
        c = Capsule((0, 0), (4, 4), 1)
        s = 1.0 / math.sqrt(2.0)
        # straight down onto the upper-left side: that side's line is y = x + sqrt(2)
        hit = raycast(Ray((1, 5), (0, -1)), c)
        assert_hit(hit, 4.0 - math.sqrt(2.0), (1.0, 1.0 + math.sqrt(2.0)), (-s, s),
                   tol=1e-12)


class TestRayCapsuleSeed:
    """ray_capsule counts only the pieces the ray heads into (seed 000's swept step)."""

    a = (0.0, 0.0)
    b = (10.0, 0.0)

    def test_hits_like_raycast_from_outside(self) -> None:
        for o, d in [((5, 5), (0, -1)), ((-5, 0.5), (1, 0)), ((2, 5), (0.6, -0.8)),
                     ((15, -3), (-1, 0.5))]:
            assert ray_capsule(o, d, self.a, self.b, 1) == raycast(
                Ray(o, d), Capsule(self.a, self.b, 1))

    def test_on_the_rim_heading_out_misses(self) -> None:
        assert ray_capsule((5, 1), (0, 1), self.a, self.b, 1) is None
        assert ray_capsule((-1, 0), (-1, 0), self.a, self.b, 1) is None
        assert ray_capsule((11, 0), (0.6, 0.8), self.a, self.b, 1) is None

    def test_on_the_rim_heading_along_it_misses(self) -> None:
        assert ray_capsule((5, 1), (1, 0), self.a, self.b, 1) is None
        assert ray_capsule((-1, 0), (0, 1), self.a, self.b, 1) is None

    def test_on_the_rim_heading_in_hits_at_zero(self) -> None:
        assert_hit(ray_capsule((5, 1), (0, -1), self.a, self.b, 1), 0.0, (5.0, 1.0),
                   (0.0, 1.0), True)

    def test_strictly_inside_hits_at_zero(self) -> None:
        assert_hit(ray_capsule((5, 0.5), (0, 1), self.a, self.b, 1), 0.0, (5.0, 0.5),
                   (0.0, 1.0), True)

    def test_grazing_touch_misses(self) -> None:
        assert ray_capsule((-5, 1), (1, 0), self.a, self.b, 1) is None
        assert ray_capsule((-5, -1), (1, 0), self.a, self.b, 1) is None

    def test_bounce_off_an_end_circle_is_not_caught_again(self) -> None:
        # the hit point of an oblique end-circle hit is only on the rim up to rounding
        d = Vec2(1.0, 0.3).normalized()
        hit = ray_capsule((-5, -1.2), d, self.a, self.b, 1)
        assert hit is not None and not hit.started_inside and hit.point.x < 0.0
        assert abs(hit.point.length() - 1.0) < 1e-12
        n = hit.normal
        bounced = d - n * (2.0 * d.dot(n))
        assert ray_capsule(hit.point, bounced, self.a, self.b, 1) is None
        # whereas raycast counts the rim as the shape and stops there
        assert raycast(Ray(hit.point, bounced), Capsule(self.a, self.b, 1)) is not None

    def test_bounce_off_a_side_is_not_caught_again(self) -> None:
        d = Vec2(0.6, -0.8)
        hit = ray_capsule((2.1, 5.3), d, self.a, self.b, 1)
        assert hit is not None
        bounced = d - hit.normal * (2.0 * d.dot(hit.normal))
        assert ray_capsule(hit.point, bounced, self.a, self.b, 1) is None

    def test_3d_on_the_rim(self) -> None:
        a3, b3 = (0.0, 0.0, 0.0), (10.0, 0.0, 0.0)
        assert ray_capsule((5, 0, 1), (0, 0, 1), a3, b3, 1) is None
        assert ray_capsule((5, 0, 1), (1, 0, 0), a3, b3, 1) is None
        assert_hit(ray_capsule((5, 0, 1), (0, 0, -1), a3, b3, 1), 0.0, (5.0, 0.0, 1.0),
                   (0.0, 0.0, 1.0), True)
        assert ray_capsule((-5, 0, 1), (1, 0, 0), a3, b3, 1) is None
        assert_hit(ray_capsule((5, 0, 5), (0, 0, -1), a3, b3, 1), 4.0, (5.0, 0.0, 1.0),
                   (0.0, 0.0, 1.0))

    def test_point_capsule(self) -> None:
        assert_hit(ray_capsule((0, 0), (1, 0), (5, 0), (5, 0), 1), 4.0, (4.0, 0.0),
                   (-1.0, 0.0))


class TestCapsule3:
    cap = Capsule((0, 0, 0), (10, 0, 0), 1)

    def test_cylinder_side(self) -> None:
        assert_hit(raycast(Ray((5, 5, 0), (0, -1, 0)), self.cap), 4.0, (5.0, 1.0, 0.0),
                   (0.0, 1.0, 0.0))

    def test_cylinder_side_oblique_to_the_axis(self) -> None:
        hit = raycast(Ray((5, 3, 4), (0, -0.6, -0.8)), self.cap)
        assert_hit(hit, 4.0, (5.0, 0.6, 0.8), (0.0, 0.6, 0.8), tol=1e-12)

    def test_skew_ray_across_the_cylinder(self) -> None:
        # a ray along y at height z = 0.6 enters the cylinder at y = -0.8
        hit = raycast(Ray((3, -5, 0.6), (0, 1, 0)), self.cap)
        assert_hit(hit, 4.2, (3.0, -0.8, 0.6), (0.0, -0.8, 0.6), tol=1e-12)

    def test_end_sphere_head_on(self) -> None:
        assert_hit(raycast(Ray((-5, 0, 0), (1, 0, 0)), self.cap), 4.0, (-1.0, 0.0, 0.0),
                   (-1.0, 0.0, 0.0))

    def test_parallel_to_the_axis_enters_through_the_end_sphere(self) -> None:
        t = 5.0 - math.sqrt(0.75)
        assert_hit(raycast(Ray((-5, 0.5, 0), (1, 0, 0)), self.cap), t,
                   (-math.sqrt(0.75), 0.5, 0.0), (-math.sqrt(0.75), 0.5, 0.0), tol=1e-12)

    def test_tangent_to_the_cylinder_touches(self) -> None:
        assert_hit(raycast(Ray((5, -5, 1), (0, 1, 0)), self.cap), 5.0, (5.0, 0.0, 1.0),
                   (0.0, 0.0, 1.0))

    def test_past_the_end_of_the_cylinder_meets_the_sphere(self) -> None:
        # crosses the axis line beyond b: the cylinder's span excludes it, the sphere does not
        hit = raycast(Ray((10.5, 5, 0), (0, -1, 0)), self.cap)
        t = 5.0 - math.sqrt(0.75)
        assert_hit(hit, t, (10.5, math.sqrt(0.75), 0.0), (0.5, math.sqrt(0.75), 0.0),
                   tol=1e-12)

    def test_starts_inside(self) -> None:
        assert_hit(raycast(Ray((5, 0, 0.5), (1, 0, 0)), self.cap), 0.0, (5.0, 0.0, 0.5),
                   (0.0, 0.0, 1.0), True)

    def test_starts_on_the_core(self) -> None:
        hit = raycast(Ray((5, 0, 0), (1, 0, 0)), self.cap)
        assert hit is not None and hit.started_inside and hit.distance == 0.0
        assert close(hit.normal.length(), 1.0) and close(hit.normal.dot((1, 0, 0)), 0.0)

    def test_point_capsule_is_a_sphere(self) -> None:
        c = Capsule((5, 0, 0), (5, 0, 0), 1)
        ray = Ray((0, 0.5, 0.1), (1, 0, 0))
        assert raycast(ray, c) == raycast(ray, Sphere((5, 0, 0), 1))
        assert_hit(raycast(Ray((5, 0, 0), (0, 1, 0)), c), 0.0, (5.0, 0.0, 0.0),
                   tuple(COINCIDENT_NORMAL_3D), True)

    def test_behind_and_max_distance(self) -> None:
        assert raycast(Ray((5, 5, 0), (0, 1, 0)), self.cap) is None
        assert raycast(Ray((5, 5, 0), (0, -1, 0), 4.0), self.cap) is not None
        assert raycast(Ray((5, 5, 0), (0, -1, 0), 3.9), self.cap) is None

    def test_miss_beside(self) -> None:
        assert raycast(Ray((-5, 0, -5), (0, 0, 1)), self.cap) is None
        assert raycast(Ray((5, 1.01, -5), (0, 0, 1)), self.cap) is None


# ---------------------------------------------------------------------------------------
# Plane
# ---------------------------------------------------------------------------------------

class TestPlane:
    floor = Plane((0, 1), 2)  # solid below y = 2

    def test_straight_down(self) -> None:
        assert_hit(raycast(Ray((0, 5), (0, -1)), self.floor), 3.0, (0.0, 2.0), (0.0, 1.0))

    def test_oblique(self) -> None:
        assert_hit(raycast(Ray((0, 5), (0.6, -0.8)), self.floor), 3.75, (2.25, 2.0),
                   (0.0, 1.0), tol=1e-12)

    def test_normal_is_the_planes_own_vector(self) -> None:
        hit = raycast(Ray((0, 5), (0, -1)), self.floor)
        assert hit is not None and hit.normal is self.floor.normal

    def test_starts_inside_normal_is_the_plane_normal(self) -> None:
        assert_hit(raycast(Ray((0, 0), (1, 0)), self.floor), 0.0, (0.0, 0.0), (0.0, 1.0), True)

    def test_on_the_boundary_hits_at_zero(self) -> None:
        assert_hit(raycast(Ray((3, 2), (0, 1)), self.floor), 0.0, (3.0, 2.0), (0.0, 1.0), True)

    def test_parallel_and_heading_away_miss(self) -> None:
        assert raycast(Ray((0, 5), (1, 0)), self.floor) is None
        assert raycast(Ray((0, 5), (0.6, 0.8)), self.floor) is None

    def test_max_distance(self) -> None:
        assert raycast(Ray((0, 5), (0, -1), 3.0), self.floor) is not None
        assert raycast(Ray((0, 5), (0, -1), 2.9), self.floor) is None

    def test_3d(self) -> None:
        p = Plane((0, 0, 2), 4)  # normalised: z < 2
        assert_hit(raycast(Ray((1, 1, 5), (0, 0, -1)), p), 3.0, (1.0, 1.0, 2.0),
                   (0.0, 0.0, 1.0))
        assert_hit(raycast(Ray((1, 1, 0), (1, 0, 0)), p), 0.0, (1.0, 1.0, 0.0),
                   (0.0, 0.0, 1.0), True)
        assert raycast(Ray((1, 1, 5), (1, 0, 0)), p) is None
        assert raycast(Ray((1, 1, 5), (0, 0, -1), 2.5), p) is None


# ---------------------------------------------------------------------------------------
# Dispatch and bad input
# ---------------------------------------------------------------------------------------

SHAPES_2D = [
    Circle((5, 0), 1),
    Segment((4, -1), (4, 1)),
    AABB((4, -1), (6, 1)),
    Polygon.box(1, 1, (5, 0)),
    Capsule((5, -1), (5, 1), 1),
    Plane((-1, 0), -4),
]
SHAPES_3D = [
    Sphere((5, 0, 0), 1),
    AABB((4, -1, -1), (6, 1, 1)),
    Capsule((5, -1, 0), (5, 1, 0), 1),
    Plane((-1, 0, 0), -4),
]


class TestDispatch:
    @pytest.mark.parametrize("shape", SHAPES_2D, ids=lambda s: type(s).__name__)
    def test_every_2d_shape_is_hit_head_on(self, shape: object) -> None:
        assert_hit(raycast(Ray((0, 0), (1, 0)), shape), 4.0, (4.0, 0.0), (-1.0, 0.0))

    @pytest.mark.parametrize("shape", SHAPES_3D, ids=lambda s: type(s).__name__)
    def test_every_3d_shape_is_hit_head_on(self, shape: object) -> None:
        assert_hit(raycast(Ray((0, 0, 0), (1, 0, 0)), shape), 4.0, (4.0, 0.0, 0.0),
                   (-1.0, 0.0, 0.0))

    @pytest.mark.parametrize("shape", SHAPES_2D, ids=lambda s: type(s).__name__)
    def test_3d_ray_at_a_2d_shape_is_a_type_error_naming_both(self, shape: object) -> None:
        with pytest.raises(TypeError, match=rf"Ray.*{type(shape).__name__}"):
            raycast(Ray((0, 0, 0), (1, 0, 0)), shape)

    @pytest.mark.parametrize("shape", SHAPES_3D, ids=lambda s: type(s).__name__)
    def test_2d_ray_at_a_3d_shape_is_a_type_error_naming_both(self, shape: object) -> None:
        with pytest.raises(TypeError, match=rf"Ray.*{type(shape).__name__}"):
            raycast(Ray((0, 0), (1, 0)), shape)

    def test_unsupported_shape_is_a_type_error_naming_both(self) -> None:
        with pytest.raises(TypeError, match=r"raycast\(Ray, Ray\)"):
            raycast(Ray((0, 0), (1, 0)), Ray((5, 0), (1, 0)))
        with pytest.raises(TypeError, match=r"raycast\(Ray, str\)"):
            raycast(Ray((0, 0), (1, 0)), "circle")
        with pytest.raises(TypeError, match=r"raycast\(Ray, NoneType\)"):
            raycast(Ray((0, 0), (1, 0)), None)

    def test_non_ray_first_argument_is_a_type_error(self) -> None:
        with pytest.raises(TypeError, match=r"Segment.*Circle"):
            raycast(Segment((0, 0), (1, 0)), Circle((5, 0), 1))  # type: ignore[arg-type]
        with pytest.raises(TypeError, match="Ray"):
            raycast(((0, 0), (1, 0)), Circle((5, 0), 1))  # type: ignore[arg-type]

    def test_subclass_of_a_shape_dispatches_to_its_base(self) -> None:
        class Ball(Circle):
            __slots__ = ()

        assert raycast(Ray((0, 0), (1, 0)), Ball((5, 0), 1)) == raycast(
            Ray((0, 0), (1, 0)), Circle((5, 0), 1))

    def test_results_are_equal_across_calls(self) -> None:
        ray = Ray((0, 0), (1, 0.2))
        for shape in SHAPES_2D:
            assert raycast(ray, shape) == raycast(ray, shape)


class TestBadInput:
    seeds = [
        lambda o, d, **k: ray_circle(o, d, (5, 0), 1, **k),
        lambda o, d, **k: ray_box(o, d, (4, -1), (6, 1), **k),
        lambda o, d, **k: ray_segment(o, d, (5, -1), (5, 1), **k),
        lambda o, d, **k: ray_polygon(o, d, [(4, -1), (6, -1), (6, 1)], **k),
        lambda o, d, **k: ray_capsule(o, d, (5, -1), (5, 1), 1, **k),
    ]
    ids = ["circle", "box", "segment", "polygon", "capsule"]

    @pytest.mark.parametrize("fn", seeds, ids=ids)
    def test_nan_or_inf_origin(self, fn: object) -> None:
        for bad in [(math.nan, 0), (0, math.inf), np.array([0.0, -math.inf])]:
            with pytest.raises(ValueError, match="origin"):
                fn(bad, (1, 0))  # type: ignore[operator]

    @pytest.mark.parametrize("fn", seeds, ids=ids)
    def test_nan_or_inf_direction(self, fn: object) -> None:
        for bad in [(math.nan, 0), (1, math.inf)]:
            with pytest.raises(ValueError, match="direction"):
                fn((0, 0), bad)  # type: ignore[operator]

    @pytest.mark.parametrize("fn", seeds, ids=ids)
    def test_zero_direction(self, fn: object) -> None:
        with pytest.raises(ValueError, match="direction"):
            fn((0, 0), (0, 0))  # type: ignore[operator]

    @pytest.mark.parametrize("fn", seeds, ids=ids)
    def test_negative_or_nan_max_distance(self, fn: object) -> None:
        for bad in [-1.0, -1e-300, math.nan]:
            with pytest.raises(ValueError, match="max_distance"):
                fn((0, 0), (1, 0), max_distance=bad)  # type: ignore[operator]

    @pytest.mark.parametrize("fn", seeds, ids=ids)
    def test_wrong_types(self, fn: object) -> None:
        with pytest.raises(TypeError):
            fn("origin", (1, 0))  # type: ignore[operator]
        with pytest.raises(TypeError):
            fn((0, 0), 1.0)  # type: ignore[operator]
        with pytest.raises(TypeError):
            fn((0, 0), (1, 0), max_distance="far")  # type: ignore[operator]

    def test_shape_arguments_are_named(self) -> None:
        with pytest.raises(ValueError, match="center"):
            ray_circle((0, 0), (1, 0), (math.nan, 0), 1)
        with pytest.raises(ValueError, match="radius"):
            ray_circle((0, 0), (1, 0), (5, 0), -1)
        with pytest.raises(ValueError, match="radius"):
            ray_capsule((0, 0), (1, 0), (5, 0), (6, 0), math.inf)
        with pytest.raises(ValueError, match="box_min"):
            ray_box((0, 0), (1, 0), (math.nan, 0), (1, 1))
        with pytest.raises(ValueError, match="box_min.x"):
            ray_box((0, 0), (1, 0), (2, 0), (1, 1))
        with pytest.raises(ValueError, match="b"):
            ray_segment((0, 0), (1, 0), (5, 0), (5, 0))
        with pytest.raises(ValueError, match="points"):
            ray_polygon((0, 0), (1, 0), [(0, 0), (1, 1), (2, 2)])
        # a non-convex polygon is accepted (tests/test_ray_edges.py); a self-intersecting
        # one is not
        assert ray_polygon((0, 0), (1, 0), [(0, 0), (4, 0), (1, 1), (0, 4)]) is not None
        with pytest.raises(ValueError, match="points"):
            ray_polygon((0, 0), (1, 0), [(0, 0), (2, 2), (2, 0), (0, 2)])
        with pytest.raises(TypeError):
            ray_circle((0, 0), (1, 0), (5, 0), "1")  # type: ignore[arg-type]

    def test_mixed_dimensions_are_value_errors_naming_the_argument(self) -> None:
        with pytest.raises(ValueError, match="center"):
            ray_circle((0, 0), (1, 0), (5, 0, 0), 1)
        with pytest.raises(ValueError, match="direction"):
            ray_circle((0, 0), (1, 0, 0), (5, 0), 1)
        with pytest.raises(ValueError, match="box_max"):
            ray_box((0, 0, 0), (1, 0, 0), (4, 0, 0), (5, 1))
        with pytest.raises(ValueError, match="origin"):
            ray_segment((0, 0, 0), (1, 0, 0), (5, 0), (5, 1))
        with pytest.raises(ValueError, match="origin"):
            ray_polygon((0, 0, 0), (1, 0, 0), [(4, -1), (6, -1), (6, 1)])

    def test_infinite_max_distance_is_the_default(self) -> None:
        assert ray_circle((0, 0), (1, 0), (1e50, 0), 1) is not None
        assert ray_circle((0, 0), (1, 0), (5, 0), 1, max_distance=math.inf) is not None

    def test_accepts_any_vector_like(self) -> None:
        expected = ray_circle((0, 0), (1, 0), (5, 0), 1)
        assert ray_circle([0, 0], np.array([1.0, 0.0]), Vec2(5, 0), 1) == expected
        assert ray_circle(np.array([0, 0]), (2, 0), [5, 0], np.float64(1.0)) == expected


# ---------------------------------------------------------------------------------------
# Kernels: the encoding the batch loops rely on
# ---------------------------------------------------------------------------------------

class TestKernels:
    def test_miss_encoding(self) -> None:
        assert K.MISS < 0.0
        assert K.ray_circle(0.0, 0.0, 1.0, 0.0, -5.0, 0.0, 1.0, INF) == (
            K.MISS, 0.0, 0.0, 0.0, 0.0, False)
        t, *_rest, inside = K.ray_sphere(0.0, 0.0, 0.0, 1.0, 0.0, 0.0, -5.0, 0.0, 0.0, 1.0, INF)
        assert t == K.MISS and inside is False

    def test_hit_encoding_2d(self) -> None:
        t = 5.0 - math.sqrt(1.25)
        hit = K.ray_circle(0.0, 0.0, 1.0, 0.0, 5.0, 1.0, 1.5, INF)
        assert len(hit) == 6
        assert close(hit[0], t) and close(hit[1:3], (t, 0.0))
        assert close(hit[3:5], ((t - 5.0) / 1.5, -1.0 / 1.5)) and hit[5] is False

    def test_inside_encoding(self) -> None:
        assert K.ray_circle(5.0, 0.5, 1.0, 0.0, 5.0, 0.0, 1.0, INF) == (
            0.0, 5.0, 0.5, 0.0, 1.0, True)

    def test_every_kernel_agrees_with_raycast(self) -> None:
        ray2 = Ray((0.5, -0.25), (1.0, 0.1))
        o2, d2 = ray2.origin, ray2.direction
        tri = Polygon([(4, -2), (8, 0), (4, 3)])
        cases2 = [
            (K.ray_circle(*o2, *d2, 5.0, 0.0, 1.0, INF), Circle((5, 0), 1)),
            (K.ray_segment(*o2, *d2, 5.0, -1.0, 5.5, 2.0, INF), Segment((5, -1), (5.5, 2))),
            (K.ray_aabb2(*o2, *d2, 4.0, -1.0, 6.0, 1.0, INF), AABB((4, -1), (6, 1))),
            (K.ray_polygon(*o2, *d2, tri._verts, tri._norms, INF), tri),
            (K.ray_plane2(*o2, *d2, -1.0, 0.0, -4.0, INF), Plane((-1, 0), -4)),
            (K.ray_capsule2(*o2, *d2, 5.0, -1.0, 5.0, 1.0, 1.0, INF),
             Capsule((5, -1), (5, 1), 1)),
        ]
        for k, shape in cases2:
            hit = raycast(ray2, shape)
            assert hit is not None and k[0] >= 0.0
            assert k[0] == hit.distance and k[1:3] == tuple(hit.point)
            assert close(k[3:5], tuple(hit.normal)) and k[5] is hit.started_inside
        ray3 = Ray((0.5, -0.25, 0.1), (1.0, 0.1, -0.05))
        o3, d3 = ray3.origin, ray3.direction
        cases3 = [
            (K.ray_sphere(*o3, *d3, 5.0, 0.0, 0.0, 1.0, INF), Sphere((5, 0, 0), 1)),
            (K.ray_aabb3(*o3, *d3, 4.0, -1.0, -1.0, 6.0, 1.0, 1.0, INF),
             AABB((4, -1, -1), (6, 1, 1))),
            (K.ray_plane3(*o3, *d3, -1.0, 0.0, 0.0, -4.0, INF), Plane((-1, 0, 0), -4)),
            (K.ray_capsule3(*o3, *d3, 5.0, -1.0, 0.0, 5.0, 1.0, 0.0, 1.0, INF),
             Capsule((5, -1, 0), (5, 1, 0), 1)),
        ]
        for k, shape in cases3:
            hit = raycast(ray3, shape)
            assert hit is not None and k[0] >= 0.0
            assert k[0] == hit.distance and k[1:4] == tuple(hit.point)
            assert close(k[4:7], tuple(hit.normal)) and k[7] is hit.started_inside

    def test_face_and_edge_kernels(self) -> None:
        assert K.ray_aabb2_face(0.0, 3.0, 1.0, 0.0, 4.0, 1.0, 8.0, 5.0, INF) == (
            4.0, K.FACE_MIN_X, False)
        assert K.ray_aabb3_face(6.0, 3.0, 5.0, 0.0, 0.0, -1.0, 4.0, 1.0, -1.0, 8.0, 5.0, 1.0,
                                INF) == (4.0, K.FACE_MAX_Z, False)
        tri = Polygon([(0, 0), (4, 0), (0, 4)])
        t, edge, inside = K.ray_polygon_edge(1.0, -3.0, 0.0, 1.0, tri._verts, tri._norms, INF)
        assert t == 3.0 and tri.normals[edge] == (0.0, -1.0) and not inside

    def test_entering_kernels(self) -> None:
        assert K.ray_capsule2_entering(5.0, 1.0, 0.0, 1.0, 0.0, 0.0, 10.0, 0.0, 1.0, INF)[0] \
            == K.MISS
        assert K.ray_capsule2(5.0, 1.0, 0.0, 1.0, 0.0, 0.0, 10.0, 0.0, 1.0, INF)[0] == 0.0
        assert K.ray_capsule3_entering(5.0, 0.0, 1.0, 0.0, 0.0, 1.0, 0.0, 0.0, 0.0, 10.0,
                                       0.0, 0.0, 1.0, INF)[0] == K.MISS

    def test_kernels_run_in_a_parallel_batch_loop(self) -> None:
        import numba

        @numba.njit(parallel=True, cache=False)
        def batch(origins: np.ndarray, verts: np.ndarray, norms: np.ndarray) -> np.ndarray:
            out = np.empty(origins.shape[0])
            for i in numba.prange(origins.shape[0]):
                c = K.ray_circle(origins[i, 0], origins[i, 1], 1.0, 0.0, 5.0, 0.0, 1.0, np.inf)
                p = K.ray_polygon(origins[i, 0], origins[i, 1], 1.0, 0.0, verts, norms, np.inf)
                out[i] = c[0] + p[0]
            return out

        tri = Polygon([(8, -1), (9, -1), (9, 1)])
        origins = np.array([[0.0, 0.0], [0.0, 0.5], [0.0, 5.0]])
        out = batch(origins, tri._verts, tri._norms)
        # the circle at 4, the triangle's slanted edge at x = 8.5
        assert out[0] == 4.0 + 8.5
        assert out[2] == 2.0 * K.MISS


class TestKernelBinding:
    """raycast calls each adapter through its compiled entry point, with a checked fallback
    (JIT disabled, or numba internals changed) that behaves the same."""

    def test_resolved_kernels_are_compiled_entry_points(self) -> None:
        rc = importlib.import_module("swept.raycast")

        raycast(Ray((0, 0), (1, 0)), Circle((5, 0), 1))
        raycast(Ray((0, 0), (1, 0)), Polygon.box(1, 1, (5, 0)))
        assert type(rc._k_circle).__name__ == "builtin_function_or_method"
        assert type(rc._k_polygon).__name__ == "builtin_function_or_method"

    def test_fallback_gives_the_same_answers_and_rejects_wrong_sizes(self) -> None:
        fast = importlib.import_module("swept._fast")

        example = ((0.0, 0.0, 1.0, 0.0, INF), (3.0, 0.5), 1.0)

        def plain(ray: Any, c: Any, r: float) -> Any:
            # a plain function, not a dispatcher (the kernels it calls only compiled code may
            # call: ray_circle_v's own Python source calls the callee ray_circle_x)
            return K.ray_circle_v(ray, c, r)

        fallback = fast.checked_entry_point(plain, example)
        assert type(fallback).__name__ == "function"
        args = ((0.0, 0.0, 1.0, 0.0, INF), Vec2(5.0, 1.0), 1.5)
        assert fallback(*args) == K.ray_circle_v(*(tuple(a) if isinstance(a, tuple) else a
                                                   for a in args))
        with pytest.raises(ValueError):
            # a 3D ray, packed, at a circle
            fallback((0.0, 0.0, 0.0, 1.0, 0.0, 0.0, INF), Vec2(5.0, 1.0), 1.5)
