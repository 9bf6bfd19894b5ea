"""A Chain is a real shape: raycast, sweep, contact, distance, closest_points and
closest_point accept it (it joins the dispatch from swept.chain), each asking every segment
and keeping the nearest or deepest answer, with contact and sweep normals in the answering
segment's Voronoi region (no ghost normals at flush joins)."""

from __future__ import annotations

import pytest

from swept import (
    AABB,
    Capsule,
    Chain,
    Circle,
    Polygon,
    Ray,
    Segment,
    Sphere,
    closest_point,
    closest_points,
    contact,
    distance,
    raycast,
    sweep,
)

#: an L: a floor from (0, 0) to (10, 0), then a wall up to (10, 10)
ELL = Chain([(0.0, 0.0), (10.0, 0.0), (10.0, 10.0)])
#: a flat floor made of three flush pieces
FLOOR = Chain([(0.0, 0.0), (4.0, 0.0), (8.0, 0.0), (12.0, 0.0)])


def test_raycast_hits_the_nearest_segment() -> None:
    hit = raycast(Ray((5.0, 5.0), (1.0, -1.0)), ELL)
    assert hit is not None
    # the ray (5, 5) + t (1, -1)/sqrt2 meets the floor y = 0 at (10, 0): the corner, reached
    # at the same t as the wall x = 10
    assert hit.distance == pytest.approx(5.0 * 2 ** 0.5, abs=1e-12)
    assert hit.point == pytest.approx((10.0, 0.0), abs=1e-12)
    hit = raycast(Ray((5.0, 5.0), (1.0, 0.0)), ELL)
    assert hit is not None and hit.distance == 5.0
    assert tuple(hit.normal) == (-1.0, 0.0) and tuple(hit.point) == (10.0, 5.0)


def test_raycast_misses_past_the_ends() -> None:
    assert raycast(Ray((-1.0, 5.0), (-1.0, 0.0)), ELL) is None
    assert raycast(Ray((5.0, 5.0), (0.0, -1.0), max_distance=4.999), ELL) is None


def test_contact_with_a_chain_in_both_orders() -> None:
    ball = Circle((5.0, 0.5), 1.0)
    c = contact(ball, ELL)
    assert c is not None
    assert tuple(c.normal) == (0.0, 1.0) and c.depth == 0.5 and tuple(c.point) == (5.0, 0.0)
    r = contact(ELL, ball)
    assert r is not None
    # reversed: the chain leaves the ball downward; the point on the ball's rim
    assert tuple(r.normal) == (0.0, -1.0) and r.depth == 0.5 and tuple(r.point) == (5.0, -0.5)
    assert contact(Circle((5.0, 2.0), 1.0), ELL) is None


def test_contact_at_a_flush_join_keeps_the_face_normal() -> None:
    # a box overlapping the floor across the join at x = 4: the join's rim normal would lean
    box = AABB((3.0, -0.25), (5.0, 1.0))
    c = contact(box, FLOOR)
    assert c is not None and tuple(c.normal) == (0.0, 1.0) and c.depth == 0.25


@pytest.mark.parametrize("mover", [
    Circle((2.0, 3.0), 1.0),
    Capsule((1.5, 3.0), (2.5, 3.0), 1.0),
    AABB((1.0, 2.0), (3.0, 4.0)),
    Polygon.box(1.0, 1.0, (2.0, 3.0)),
    Segment((1.0, 2.0), (3.0, 2.0)),
])
def test_sweep_onto_a_chain_lands_on_the_floor(mover: object) -> None:
    hit = sweep(mover, (0.0, -4.0), FLOOR)  # type: ignore[arg-type]
    assert hit is not None
    # every mover's lowest point is at y = 2: it lands after 2 of the 4 units
    assert hit.fraction == pytest.approx(0.5, abs=1e-9)
    assert tuple(hit.normal) == pytest.approx((0.0, 1.0), abs=1e-12)
    assert not hit.started_inside


def test_sweep_landing_across_a_flush_join_has_no_ghost_normal() -> None:
    # a box a hair above the floor moves right and down; it lands straddling the join at x = 4,
    # where the next piece's end would report a rim normal
    box = AABB((2.5, 0.001), (3.5, 1.0))
    hit = sweep(box, (2.0, -0.002), FLOOR)
    assert hit is not None
    assert hit.fraction == pytest.approx(0.5, abs=1e-9)
    assert tuple(hit.normal) == (0.0, 1.0)


def test_distance_closest_points_and_closest_point() -> None:
    ball = Circle((5.0, 5.0), 1.0)
    assert distance(ball, ELL) == 4.0
    assert distance(ELL, ball) == 4.0
    assert distance((5.0, 3.0), ELL) == 3.0
    a, b, d = closest_points((7.0, 4.0), ELL)
    assert (tuple(a), tuple(b), d) == ((7.0, 4.0), (10.0, 4.0), 3.0)
    a, b, d = closest_points(ELL, (7.0, 4.0))
    assert (tuple(a), tuple(b), d) == ((10.0, 4.0), (7.0, 4.0), 3.0)
    assert tuple(closest_point(ELL, (12.0, -3.0))) == (10.0, 0.0)


def test_a_3d_shape_against_a_chain_is_a_type_error_naming_both() -> None:
    for call in (lambda: contact(Sphere((0, 0, 0), 1), ELL),
                 lambda: sweep(Sphere((0, 0, 0), 1), (1, 0, 0), ELL),
                 lambda: raycast(Ray((0, 0, 0), (1, 0, 0)), ELL),
                 lambda: distance(Sphere((0, 0, 0), 1), ELL)):
        with pytest.raises(TypeError, match="Chain"):
            call()
