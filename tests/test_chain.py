"""Chains: smooth joins, with each segment's Voronoi region (no ghost collisions at seams)."""

from __future__ import annotations

import math

import pytest

from swept.chain import (
    Chain,
    chain_contacts,
    contact_chain,
    contact_obstacle,
    sweep_chain,
    sweep_obstacle,
)
from swept.contact import contact
from swept.shapes import AABB, Circle, Polygon, Segment
from swept.vec import Vec2

UP = Vec2(0.0, -1.0)  # screen coordinates: y grows down


def test_a_chain_is_built_from_its_points() -> None:
    c = Chain([(0, 0), (10, 0), (10, 10)])
    assert len(c) == 2 and not c.loop
    assert c.segments[1] == Segment((10, 0), (10, 10))
    assert c.aabb == AABB((0, 0), (10, 10))
    loop = Chain([(0, 0), (10, 0), (10, 10)], loop=True)
    assert len(loop) == 3 and loop.segments[2] == Segment((10, 10), (0, 0))
    assert c.translated((1, 2)).points[0] == Vec2(1, 2)
    assert c == Chain([(0, 0), (10, 0), (10, 10)]) and hash(c) == hash(Chain(c.points))
    with pytest.raises(ValueError):
        Chain([(0, 0)])
    with pytest.raises(ValueError):
        Chain([(0, 0), (0, 0), (1, 1)])
    with pytest.raises(ValueError):
        Chain([(0, 0), (1, 0)], loop=True)
    with pytest.raises(AttributeError):
        c.loop = True  # type: ignore[misc]


def test_a_box_over_a_flat_seam_is_pushed_straight_up_not_back() -> None:
    """The ghost: a box sunk 0.2 into a floor, its leading edge 0.1 past the seam between two
    flush segments. Against the second segment alone the shortest way out is back, 0.1 to the
    left, into the first segment's side; the chain answers up."""
    floor = Chain([(0.0, 0.0), (10.0, 0.0), (20.0, 0.0)])
    box = AABB((2.0, -4.8), (10.1, 0.2))
    alone = contact(box, floor.segments[1])
    assert alone is not None and alone.normal == Vec2(-1.0, 0.0)
    found = chain_contacts(box, floor)
    assert [i for i, _c in found] == [0, 1]
    for _i, c in found:
        assert c.normal == UP
    assert found[0][1].depth == pytest.approx(0.2)
    assert found[1][1].depth <= 0.2 + 1e-12
    best = contact_chain(box, floor)
    assert best is not None and best.normal == UP and best.depth == pytest.approx(0.2)


def test_a_circle_rolling_over_a_seam_sees_only_the_face() -> None:
    floor = Chain([(0.0, 0.0), (10.0, 0.0), (20.0, 0.0)])
    ball = Circle((10.0 - 1e-3, -0.9), 1.0)
    for _i, c in chain_contacts(ball, floor):
        assert c.normal.is_close(UP)


def test_a_convex_corner_keeps_its_rounded_normals_within_the_fan() -> None:
    """A hilltop: the join's region is the fan between the two faces' normals."""
    hill = Chain([(0.0, 0.0), (10.0, 0.0), (20.0, 10.0)])  # y down: the second piece falls
    ball = Circle((10.4, -0.85), 1.0)
    (i, c), = [(i, c) for i, c in chain_contacts(ball, hill) if i == 0]
    assert c.normal.is_close(contact(ball, hill.segments[0]).normal)
    assert c.normal[0] > 0.0 and c.normal[1] < 0.0


def test_a_concave_corner_answers_with_the_face() -> None:
    """An inside corner (a floor meeting a wall that rises from its end) has no region of its
    own; seen from below, the same corner is convex and keeps its rim normal."""
    corner = Chain([(0.0, 0.0), (10.0, 0.0), (10.0, -10.0)])
    inside = Circle((10.3, -0.5), 1.0)  # over the floor's end, pressed into the wall
    raw = contact(inside, corner.segments[0])
    assert raw is not None and raw.normal[0] > 0.0
    n, join = corner.region_normal(0, raw.normal)
    assert join == Vec2(10.0, 0.0)
    assert n == Vec2(0.0, -1.0)
    outside = Circle((10.5, 0.5), 1.0)  # under the floor, right of the wall: convex
    raw = contact(outside, corner.segments[0])
    assert raw is not None
    assert corner.region_normal(0, raw.normal) == (raw.normal, None)


def test_free_ends_of_an_open_chain_are_rounded() -> None:
    c = Chain([(0.0, 0.0), (10.0, 0.0)])
    n, join = c.region_normal(0, Vec2(math.sqrt(0.5), -math.sqrt(0.5)))
    assert join is None and n == Vec2(math.sqrt(0.5), -math.sqrt(0.5))


def test_a_box_sweeping_along_a_chain_is_never_stopped_at_a_seam() -> None:
    floor = Chain([(float(x), 0.0) for x in range(0, 101, 5)])
    box = AABB((0.0, -5.0), (4.0, 0.0))  # resting on the floor, touching it
    hit = sweep_chain(box, (90.0, 0.0), floor)
    assert hit is not None  # it touches the floor from the start
    assert hit.normal == UP  # but along its face: a move along it is not stopped
    poly = Polygon.box(2.0, 2.5, (2.0, -2.5))
    hit = sweep_chain(poly, (90.0, 0.0), floor)
    assert hit is None or hit.normal == UP


def test_sweep_chain_finds_the_first_segment() -> None:
    floor = Chain([(0.0, 0.0), (10.0, 0.0), (20.0, -10.0)])
    hit = sweep_chain(Circle((15.0, -20.0), 1.0), (0.0, 30.0), floor)
    assert hit is not None
    expected = sweep_obstacle(Circle((15.0, -20.0), 1.0), (0.0, 30.0), floor.segments[1])
    assert expected is not None
    assert hit.fraction == pytest.approx(expected.fraction)


def test_obstacle_helpers_dispatch() -> None:
    ball = Circle((0.0, -0.5), 1.0)
    seg = Segment((-5.0, 0.0), (5.0, 0.0))
    assert contact_obstacle(ball, seg) == contact(ball, seg)
    assert contact_obstacle(ball, Chain([(-5, 0), (5, 0)])) is not None
    assert sweep_obstacle(ball, (0, 5), seg) is not None
