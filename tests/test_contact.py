"""contact() and axis_overlaps(): hand-computed cases for every supported pair, both orders.

Each pair has a worked overlap (normal, depth and point checked to 1e-12), a separated case
(None) and a touching case (depth exactly 0). Seed 004's walls and bumpers and seed 002's floor
and feet are checked with the seeds' own numbers.
"""

from __future__ import annotations

import math
from typing import Any

import numba
import numpy as np
import pytest

from swept import (
    AABB,
    COINCIDENT_NORMAL_2D,
    COINCIDENT_NORMAL_3D,
    Capsule,
    Circle,
    Contact,
    Plane,
    Polygon,
    Ray,
    Segment,
    Sphere,
    Vec2,
    Vec3,
    distance,
)
from swept._kernels import contact as kernels
from swept.constants import TOUCH_TOLERANCE
from swept.contact import axis_overlaps, contact

TOL = 1e-12
R2 = math.sqrt(2.0)
R3 = math.sqrt(3.0)

# seed 004's walls: the long wall's left box, and the wall down from its left end
WALL = AABB((220, 120), (440, 160))
WALL_POLY = Polygon([(220, 120), (440, 120), (440, 160), (220, 160)])
SIDE_WALL = AABB((220, 160), (260, 440))
# a right triangle with legs 4 along the axes: its hypotenuse is x + y = 4
TRI = Polygon([(0, 0), (4, 0), (0, 4)])
UNIT_BOX3 = AABB((-1, -1, -1), (1, 1, 1))


def close(u: Any, v: Any, tol: float = TOL) -> bool:
    """Whether two numbers or vectors agree to within tol in every component."""
    if isinstance(u, (int, float)):
        return abs(u - v) <= tol
    return len(u) == len(v) and all(abs(p - q) <= tol for p, q in zip(u, v))


def check(c: Contact | None, normal: Any, depth: float, point: Any = None) -> None:
    """Assert a contact with the given normal, depth and (optionally) point."""
    assert c is not None, "expected a contact"
    assert close(c.normal, normal), f"normal {c.normal} != {normal}"
    assert close(c.depth, depth), f"depth {c.depth} != {depth}"
    if point is not None:
        assert close(c.point, point), f"point {c.point} != {point}"


# (a, b, normal, depth, point): a worked overlap for every pair, in its registered order
OVERLAPS: list[tuple[str, Any, Any, Any, float, Any]] = [
    ("circle-circle", Circle((3, 4), 2), Circle((0, 0), 4), (0.6, 0.8), 1.0, (2.4, 3.2)),
    ("circle-segment", Circle((2, 1), 2), Segment((0, 0), (4, 0)), (0, 1), 1.0, (2, 0)),
    ("circle-segment-end", Circle((-3, 4), 6), Segment((0, 0), (4, 0)), (-0.6, 0.8), 1.0,
     (0, 0)),
    ("circle-capsule", Circle((2, 2.5), 2), Capsule((0, 0), (4, 0), 1), (0, 1), 0.5, (2, 1)),
    ("circle-aabb", Circle((300, 170), 16), WALL, (0, 1), 6.0, (300, 160)),
    ("circle-polygon", Circle((3, 3), 2), TRI, (1 / R2, 1 / R2), 2 - R2, (2, 2)),
    ("circle-polygon-inside", Circle((1, 0.5), 1), TRI, (0, -1), 1.5, (1, 0)),
    ("circle-plane", Circle((5, 3), 1.5), Plane((0, 1), 2), (0, 1), 0.5, (5, 2)),
    ("circle-plane-inside", Circle((5, 0), 1), Plane((0, 1), 2), (0, 1), 3.0, (5, 2)),
    # crossing segments: down by 1 (b's lower end) is the least push
    ("segment-segment", Segment((0, 0), (4, 0)), Segment((2, -1), (2, 3)), (0, -1), 1.0,
     (2, -1)),
    ("segment-capsule", Segment((0, 0.5), (4, 0.5)), Capsule((0, 0), (4, 0), 1), (0, 1), 0.5,
     None),
    # a segment lying inside a box: up and down tie, and the tie goes the positive way
    ("segment-aabb", Segment((1, 1), (3, 1)), AABB((0, 0), (4, 2)), (0, 1), 1.0, (2, 2)),
    # a vertical segment through the triangle leaves by its left edge, point mid-overlap
    ("segment-polygon", Segment((1, -1), (1, 3)), TRI, (-1, 0), 1.0, (0, 1.5)),
    ("segment-plane", Segment((0, 1), (4, -1)), Plane((0, 1), 0), (0, 1), 1.0, (4, 0)),
    ("capsule-capsule", Capsule((0, 0), (4, 0), 1), Capsule((2, 2), (2, 6), 1.5), (0, -1),
     0.5, (2, 0.5)),
    # crossing cores: down by b's lower end (2) plus both radii
    ("capsule-capsule-crossing", Capsule((0, 0), (10, 0), 1), Capsule((5, -2), (5, 8), 1),
     (0, -1), 4.0, (5, -3)),
    ("capsule-aabb-core-inside", Capsule((1, 1.5), (3, 1.5), 1), AABB((0, 0), (4, 2)), (0, 1),
     1.5, (2, 2)),
    ("capsule-aabb-apart-core", Capsule((1, 2.25), (3, 2.25), 0.5), AABB((0, 0), (4, 2)),
     (0, 1), 0.25, None),
    ("capsule-polygon-core-inside", Capsule((0.5, 0.5), (1.5, 0.5), 0.25), TRI, (0, -1), 0.75,
     (1, 0)),
    ("capsule-polygon", Capsule((1, -0.5), (3, -0.5), 1), TRI, (0, -1), 0.5, None),
    ("capsule-plane", Capsule((0, 1), (4, 3), 1.5), Plane((0, 1), 0), (0, 1), 0.5, (0, 0)),
    ("polygon-polygon", Polygon([(1, 1), (3, 1), (1, 3)]), TRI, (1 / R2, 1 / R2), R2, (2, 2)),
    # boxes side by side: a's left edge lies on b's right edge, point mid-overlap
    ("polygon-polygon-flat", Polygon.box(1, 1, (1.5, 0)), Polygon.box(1, 1), (1, 0), 0.5,
     (1, 0)),
    # b's face (the box's left) is the reference: the point is the triangle's corner (4, 0)
    ("aabb-polygon", AABB((3.5, -1), (5, 1)), TRI, (1, 0), 0.5, (4, 0)),
    ("polygon-plane", TRI, Plane((0, 1), 1), (0, 1), 1.0, (2, 1)),
    ("aabb-aabb", AABB((0, 0), (2, 2)), AABB((1, -5), (5, 5)), (-1, 0), 1.0, (1, 1)),
    ("aabb-plane", AABB((0, 0), (2, 2)), Plane((0, 1), 0.5), (0, 1), 0.5, (1, 0.5)),
    # 3D
    ("sphere-sphere", Sphere((1, 2, 2), 1), Sphere((0, 0, 0), 3), (1 / 3, 2 / 3, 2 / 3), 1.0,
     (1, 2, 2)),
    ("sphere-aabb", Sphere((0, 0, 1.5), 1), UNIT_BOX3, (0, 0, 1), 0.5, (0, 0, 1)),
    ("sphere-aabb-corner", Sphere((2, 2, 2), 2), UNIT_BOX3, (1 / R3, 1 / R3, 1 / R3), 2 - R3,
     (1, 1, 1)),
    ("sphere-aabb-inside", Sphere((0.5, 0, 0), 1), UNIT_BOX3, (1, 0, 0), 1.5, (1, 0, 0)),
    ("sphere-plane", Sphere((0, 2, 0), 3), Plane((0, 1, 0), 0), (0, 1, 0), 1.0, (0, 0, 0)),
    ("sphere-capsule", Sphere((2, 1.5, 0), 1), Capsule((0, 0, 0), (4, 0, 0), 1), (0, 1, 0),
     0.5, (2, 1, 0)),
    # skew cores 1 apart in z
    ("capsule-capsule3", Capsule((0, 0, 0), (4, 0, 0), 1), Capsule((2, -3, 1), (2, 3, 1), 0.5),
     (0, 0, -1), 0.5, (2, 0, 0.5)),
    # crossing cores: square to both (+z, nearest +x then +y then +z), by both radii
    ("capsule-capsule3-crossing", Capsule((0, 0, 0), (4, 0, 0), 1),
     Capsule((2, -3, 0), (2, 3, 0), 0.5), (0, 0, 1), 1.5, (2, 0, 0.5)),
    ("capsule-aabb3-face", Capsule((-3, 0.5, 0), (3, 0.5, 0), 0.1), UNIT_BOX3, (0, 1, 0), 0.6,
     (0, 1, 0)),
    # a core 0.354 from the box's edge at x = y = 1
    ("capsule-aabb3-edge-apart", Capsule((0, 2.5, 0), (2.5, 0, 0), 1), UNIT_BOX3,
     (1 / R2, 1 / R2, 0), 1 - 0.5 / R2, (1, 1, 0)),
    # a core cutting that edge: out along the core crossed with z
    ("capsule-aabb3-edge-cut", Capsule((0, 1.5, 0), (1.5, 0, 0), 0.5), UNIT_BOX3,
     (1 / R2, 1 / R2, 0), 0.5 + 0.5 / R2, (1, 1, 0)),
    ("capsule-plane3", Capsule((0, 1, 0), (4, 3, 0), 1.5), Plane((0, 1, 0), 0), (0, 1, 0), 0.5,
     (0, 0, 0)),
    ("aabb-aabb3", AABB((-0.4, -0.3, -0.4), (0.4, 1.5, 0.4)), AABB((-5, -1, -5), (5, 0, 5)),
     (0, 1, 0), 0.3, (0, 0, 0)),
    ("aabb-plane3", AABB((0, 0, 0), (1, 1, 1)), Plane((0, 1, 0), 0.5), (0, 1, 0), 0.5,
     (0.5, 0.5, 0.5)),
]

# overlaps that are mirror-symmetric between the shapes, so that no geometric reason picks one
# way out over the other: like coincident centres, both orders take the fallback direction
SYMMETRIC_TIES = {"capsule-capsule3-crossing"}

# (a, b): the same pairs, apart
SEPARATED: list[tuple[str, Any, Any]] = [
    ("circle-circle", Circle((10, 0), 1), Circle((0, 0), 4)),
    ("circle-segment", Circle((2, 3), 2), Segment((0, 0), (4, 0))),
    ("circle-capsule", Circle((2, 4), 2), Capsule((0, 0), (4, 0), 1)),
    ("circle-aabb", Circle((300, 180), 16), WALL),
    ("circle-polygon", Circle((3, 3), 1), TRI),
    ("circle-plane", Circle((5, 4), 1.5), Plane((0, 1), 2)),
    ("segment-segment", Segment((0, 0), (4, 0)), Segment((2, 1), (2, 3))),
    ("segment-capsule", Segment((0, 3), (4, 3)), Capsule((0, 0), (4, 0), 1)),
    ("segment-aabb", Segment((5, 0), (6, 1)), AABB((0, 0), (4, 2))),
    ("segment-polygon", Segment((3, 3), (5, 5)), TRI),
    ("segment-plane", Segment((0, 1), (4, 2)), Plane((0, 1), 0)),
    ("capsule-capsule", Capsule((0, 0), (4, 0), 1), Capsule((2, 3), (2, 6), 1.5)),
    ("capsule-aabb", Capsule((1, 3), (3, 3), 0.5), AABB((0, 0), (4, 2))),
    ("capsule-polygon", Capsule((1, -2), (3, -2), 1), TRI),
    ("capsule-plane", Capsule((0, 1), (4, 3), 0.5), Plane((0, 1), 0)),
    ("polygon-polygon", Polygon([(3, 3), (5, 3), (3, 5)]), TRI),
    ("aabb-polygon", AABB((5, 5), (6, 6)), TRI),
    ("polygon-plane", TRI, Plane((0, 1), -0.5)),
    ("aabb-aabb", AABB((0, 0), (2, 2)), AABB((3, 0), (4, 1))),
    ("aabb-plane", AABB((0, 0), (2, 2)), Plane((0, 1), -0.5)),
    ("sphere-sphere", Sphere((0, 0, 5), 1), Sphere((0, 0, 0), 3)),
    ("sphere-aabb", Sphere((2, 2, 2), 1), UNIT_BOX3),
    ("sphere-plane", Sphere((0, 4, 0), 3), Plane((0, 1, 0), 0)),
    ("sphere-capsule", Sphere((2, 3, 0), 1), Capsule((0, 0, 0), (4, 0, 0), 1)),
    ("capsule-capsule3", Capsule((0, 0, 0), (4, 0, 0), 1), Capsule((2, -3, 2), (2, 3, 2), 0.5)),
    ("capsule-aabb3", Capsule((0, 2, 0), (0, 3, 0), 0.5), UNIT_BOX3),
    ("capsule-aabb3-skew", Capsule((-3, 1.5, 0), (3, 1.6, 0), 0.1), UNIT_BOX3),
    ("capsule-plane3", Capsule((0, 1, 0), (4, 3, 0), 0.5), Plane((0, 1, 0), 0)),
    ("aabb-aabb3", AABB((0, 0, 0), (1, 1, 1)), AABB((0, 0, 2), (1, 1, 3))),
    ("aabb-plane3", AABB((0, 1, 0), (1, 2, 1)), Plane((0, 1, 0), 0.5)),
]

# (a, b, normal): the same pairs, just touching
TOUCHING: list[tuple[str, Any, Any, Any]] = [
    ("circle-circle", Circle((5, 0), 1), Circle((0, 0), 4), (1, 0)),
    ("circle-segment", Circle((2, -2), 2), Segment((0, 0), (4, 0)), (0, -1)),
    ("circle-capsule", Circle((7, 0), 2), Capsule((0, 0), (4, 0), 1), (1, 0)),
    ("circle-aabb", Circle((300, 176), 16), WALL, (0, 1)),
    ("circle-polygon", Circle((2, -1), 1), TRI, (0, -1)),
    ("circle-plane", Circle((5, 3), 1), Plane((0, 1), 2), (0, 1)),
    ("segment-segment", Segment((0, 0), (4, 0)), Segment((2, 0), (2, 3)), (0, -1)),
    ("segment-capsule", Segment((-1, 1), (5, 1)), Capsule((0, 0), (4, 0), 1), (0, 1)),
    ("segment-aabb", Segment((4, 0), (6, 1)), AABB((0, 0), (4, 2)), (1, 0)),
    ("segment-polygon", Segment((2, 2), (4, 4)), TRI, (1 / R2, 1 / R2)),
    ("segment-plane", Segment((0, 0), (4, 3)), Plane((0, 1), 0), (0, 1)),
    ("capsule-capsule", Capsule((0, 0), (4, 0), 1), Capsule((2, 2.5), (2, 6), 1.5), (0, -1)),
    ("capsule-aabb", Capsule((1, 2.5), (3, 2.5), 0.5), AABB((0, 0), (4, 2)), (0, 1)),
    ("capsule-polygon", Capsule((1, -1), (3, -1), 1), TRI, (0, -1)),
    ("capsule-plane", Capsule((0, 1), (4, 3), 1), Plane((0, 1), 0), (0, 1)),
    ("polygon-polygon", Polygon([(2, 2), (4, 4), (2, 4)]), TRI, (1 / R2, 1 / R2)),
    # corner to corner: the box's left face and its top tie at 0; the tie goes to x
    ("aabb-polygon", AABB((4, -1), (5, 0)), TRI, (1, 0)),
    ("polygon-plane", TRI, Plane((0, 1), 0), (0, 1)),
    ("aabb-aabb", AABB((0, 0), (2, 2)), AABB((2, 0), (3, 1)), (-1, 0)),
    ("aabb-plane", AABB((0, 0), (2, 2)), Plane((0, 1), 0), (0, 1)),
    ("sphere-sphere", Sphere((0, 0, 4), 1), Sphere((0, 0, 0), 3), (0, 0, 1)),
    ("sphere-aabb", Sphere((0, 0, 2), 1), UNIT_BOX3, (0, 0, 1)),
    ("sphere-plane", Sphere((0, 3, 0), 3), Plane((0, 1, 0), 0), (0, 1, 0)),
    ("sphere-capsule", Sphere((2, 2, 0), 1), Capsule((0, 0, 0), (4, 0, 0), 1), (0, 1, 0)),
    ("capsule-capsule3", Capsule((0, 0, 0), (4, 0, 0), 1),
     Capsule((2, -3, 1.5), (2, 3, 1.5), 0.5), (0, 0, -1)),
    ("capsule-aabb3", Capsule((0, 2, 0), (0, 3, 0), 1), UNIT_BOX3, (0, 1, 0)),
    ("capsule-plane3", Capsule((0, 1, 0), (4, 3, 0), 1), Plane((0, 1, 0), 0), (0, 1, 0)),
    ("aabb-aabb3", AABB((0, 0, 0), (1, 1, 1)), AABB((0, 0, 1), (1, 1, 3)), (0, 0, -1)),
    ("aabb-plane3", AABB((0, 0.5, 0), (1, 2, 1)), Plane((0, 1, 0), 0.5), (0, 1, 0)),
]


def _ids(cases: list[tuple[Any, ...]]) -> list[str]:
    return [c[0] for c in cases]


# ----------------------------------------------------------------------------- every pair

@pytest.mark.parametrize("name, a, b, normal, depth, point", OVERLAPS, ids=_ids(OVERLAPS))
def test_overlap_worked_by_hand(name: str, a: Any, b: Any, normal: Any, depth: float,
                                point: Any) -> None:
    check(contact(a, b), normal, depth, point)


@pytest.mark.parametrize("name, a, b, normal, depth, point", OVERLAPS, ids=_ids(OVERLAPS))
def test_reversed_order_flips_normal_and_moves_point(name: str, a: Any, b: Any, normal: Any,
                                                     depth: float, point: Any) -> None:
    fwd = contact(a, b)
    rev = contact(b, a)
    assert fwd is not None and rev is not None
    if name in SYMMETRIC_TIES:
        # a mirror-symmetric configuration: both orders take the same documented fallback
        assert close(rev.normal, fwd.normal)
        assert close(rev.depth, fwd.depth)
        return
    assert close(rev.normal, -fwd.normal)
    assert close(rev.depth, fwd.depth)
    # the reversed point is the first shape's deepest point: forward point - normal * depth
    assert close(rev.point, fwd.point - fwd.normal * fwd.depth, 1e-9)


@pytest.mark.parametrize("name, a, b, normal, depth, point", OVERLAPS, ids=_ids(OVERLAPS))
def test_result_types_match_dimension(name: str, a: Any, b: Any, normal: Any, depth: float,
                                      point: Any) -> None:
    c = contact(a, b)
    assert isinstance(c, Contact)
    vec = Vec3 if len(normal) == 3 else Vec2
    assert type(c.normal) is vec and type(c.point) is vec
    assert isinstance(c.depth, float)
    assert math.isclose(c.normal.length(), 1.0, abs_tol=1e-15)


@pytest.mark.parametrize("name, a, b", SEPARATED, ids=_ids(SEPARATED))
def test_separated_is_none_in_both_orders(name: str, a: Any, b: Any) -> None:
    assert contact(a, b) is None
    assert contact(b, a) is None


@pytest.mark.parametrize("name, a, b, normal", TOUCHING, ids=_ids(TOUCHING))
def test_touching_has_depth_zero_in_both_orders(name: str, a: Any, b: Any, normal: Any) -> None:
    c = contact(a, b)
    assert c is not None
    assert c.depth == 0.0
    if normal is not None:
        assert close(c.normal, normal)
    r = contact(b, a)
    assert r is not None and r.depth == 0.0
    assert close(r.normal, -c.normal)


def test_every_registered_pair_has_a_worked_case() -> None:
    names = {n.split("-")[0] + "-" + n.split("-")[1] for n in _ids(OVERLAPS)}
    for required in ("circle-circle", "circle-segment", "circle-capsule", "circle-aabb",
                     "circle-polygon", "circle-plane", "segment-segment", "segment-capsule",
                     "segment-aabb", "segment-polygon", "segment-plane", "capsule-capsule",
                     "capsule-aabb", "capsule-polygon", "capsule-plane", "polygon-polygon",
                     "aabb-polygon", "polygon-plane", "aabb-aabb", "aabb-plane",
                     "sphere-sphere", "sphere-aabb", "sphere-plane", "sphere-capsule",
                     "capsule-capsule3", "capsule-aabb3", "capsule-plane3", "aabb-aabb3",
                     "aabb-plane3"):
        assert required in names, required


# ----------------------------------------------------------------------------- seed 004

@pytest.mark.parametrize("wall", [WALL, WALL_POLY], ids=["aabb", "polygon"])
def test_seed004_ball_under_long_wall_pushed_down_by_6(wall: Any) -> None:
    ball = Circle((300, 170), 16)
    check(contact(ball, wall), (0, 1), 6.0, (300, 160))
    # pushing by normal * depth leaves the ball just touching, centre 16 below the wall
    c = contact(ball, wall)
    assert c is not None
    moved = ball.translated(c.normal * c.depth)
    assert close(moved.center, (300, 176))
    after = contact(moved, wall)
    assert after is not None and abs(after.depth) <= 1e-12


@pytest.mark.parametrize("wall", [WALL, WALL_POLY], ids=["aabb", "polygon"])
def test_seed004_ball_by_corner_pushed_diagonally(wall: Any) -> None:
    # centre 10 across and 8 down from the corner (440, 160)
    ball = Circle((450, 168), 16)
    d = math.sqrt(164.0)
    check(contact(ball, wall), (10 / d, 8 / d), 16 - d, (440, 160))
    c = contact(ball, wall)
    assert c is not None
    assert close(c.normal, (0.78, 0.62), 0.005)
    assert close(c.depth, 3.2, 0.01)


@pytest.mark.parametrize("wall", [SIDE_WALL, Polygon([(220, 160), (260, 160), (260, 440),
                                                       (220, 440)])], ids=["aabb", "polygon"])
def test_seed004_centre_inside_leaves_through_nearest_face(wall: Any) -> None:
    # 15 from the left face: out to the left by 15 + 16
    check(contact(Circle((235, 300), 16), wall), (-1, 0), 31.0, (220, 300))
    # 25 from the left face, past the middle: out to the right, straight through
    check(contact(Circle((245, 300), 16), wall), (1, 0), 31.0, (260, 300))


def test_seed004_bumper_with_coincident_centres_goes_straight_right() -> None:
    c = contact(Circle((560, 330), 16), Circle((560, 330), 40))
    check(c, COINCIDENT_NORMAL_2D, 56.0, (600, 330))
    assert tuple(COINCIDENT_NORMAL_2D) == (1.0, 0.0)
    # both orders use the fallback (no direction exists between coincident centres)
    check(contact(Circle((560, 330), 40), Circle((560, 330), 16)), (1, 0), 56.0)


def test_seed004_bumper_normal_runs_from_bumper_centre_to_ball() -> None:
    check(contact(Circle((560, 380), 16), Circle((560, 330), 40)), (0, 1), 6.0, (560, 370))


def test_coincident_sphere_centres_use_3d_fallback() -> None:
    check(contact(Sphere((1, 2, 3), 1), Sphere((1, 2, 3), 2)), COINCIDENT_NORMAL_3D, 3.0,
          (3, 2, 3))


def test_circle_on_point_capsule_uses_coincident_fallback() -> None:
    check(contact(Circle((2, 2), 1), Capsule((2, 2), (2, 2), 1)), (1, 0), 2.0, (3, 2))
    check(contact(Sphere((2, 2, 2), 1), Capsule((2, 2, 2), (2, 2, 2), 1)), (1, 0, 0), 2.0)


@pytest.mark.parametrize("a, b, normal", [
    (Capsule((0, 0), (4, 0), 1), (2, 0), (0, 1)),        # core along x: +y
    (Capsule((0, -3), (0, 3), 1), (0, 1), (1, 0)),       # core along y: +x
    (Capsule((0, 0), (3, 3), 1), (1, 1), (1 / R2, -1 / R2)),  # the perpendicular nearer +x
], ids=["along-x", "along-y", "diagonal"])
def test_centre_on_capsule_core_leaves_square_to_core(a: Capsule, b: Any, normal: Any) -> None:
    # the shortest way out of the core is square to it: depth is both radii
    check(contact(Circle(b, 1), a), normal, 2.0)


@pytest.mark.parametrize("core, normal", [
    (((0, 0, 0), (4, 0, 0)), (0, 1, 0)),
    (((0, 0, 0), (0, 4, 0)), (1, 0, 0)),
    (((0, 0, 0), (0, 0, 4)), (1, 0, 0)),
], ids=["along-x", "along-y", "along-z"])
def test_sphere_centre_on_capsule_core_leaves_square_to_core(core: Any, normal: Any) -> None:
    a, b = core
    mid = tuple(0.5 * (p + q) for p, q in zip(a, b))
    check(contact(Sphere(mid, 1), Capsule(a, b, 1)), normal, 2.0)


# ----------------------------------------------------------------------------- seed 002

FLOOR = AABB((-5, -1, -5), (5, 0, 5))
FEET = AABB((-0.4, -0.3, -0.4), (0.4, 1.5, 0.4))


def test_seed002_axis_overlaps_of_floor_and_feet() -> None:
    o = axis_overlaps(FLOOR, FEET)
    assert type(o) is Vec3
    assert close(o, (5.4, 0.3, 5.4))
    assert close(axis_overlaps(FEET, FLOOR), (5.4, 0.3, 5.4))


def test_seed002_feet_pushed_straight_up_out_of_floor() -> None:
    check(contact(FEET, FLOOR), (0, 1, 0), 0.3, (0, 0, 0))


def test_seed002_floor_pushed_down_out_of_feet() -> None:
    check(contact(FLOOR, FEET), (0, -1, 0), 0.3, (0, -0.3, 0))


def test_axis_overlaps_negative_where_clear_2d() -> None:
    o = axis_overlaps(AABB((0, 0), (2, 2)), AABB((3, 1), (5, 4)))
    assert type(o) is Vec2
    assert close(o, (-1, 1))


def test_axis_overlaps_rejects_mixed_or_non_boxes() -> None:
    with pytest.raises(TypeError, match="AABB"):
        axis_overlaps(FLOOR, AABB((0, 0), (1, 1)))
    with pytest.raises(TypeError, match="Circle"):
        axis_overlaps(Circle((0, 0), 1), AABB((0, 0), (1, 1)))


# ----------------------------------------------------------------------------- edge cases

def test_boxes_centred_on_each_other_go_positive_in_both_orders() -> None:
    a = AABB((-1, -1), (1, 1))
    b = AABB((-3, -2), (3, 2))
    # y is shallowest (3 each way); the tie goes the positive way
    check(contact(a, b), (0, 1), 3.0)
    check(contact(b, a), (0, 1), 3.0)


def test_polygon_resting_flat_point_is_middle_of_overlap() -> None:
    # a 2-wide box resting 0.5 into a wide floor, off to the right
    box = Polygon.box(1, 1, (9, 0.5))
    floor = Polygon.box(5, 1, (5, -1))  # x 0..10, y -2..0
    c = contact(box, floor)
    check(c, (0, 1), 0.5, (9, 0))
    # reversed: the floor goes down; the point is on the box's bottom
    check(contact(floor, box), (0, -1), 0.5, (9, -0.5))


def test_polygon_polygon_box_corner_into_hypotenuse() -> None:
    # the box's lower-left corner (2.5, 2.5) is 1 / sqrt2 inside the hypotenuse x + y = 6;
    # every other axis needs a push of 3.5
    box = Polygon.box(0.5, 0.5, (3, 3))
    tri = Polygon([(0, 0), (6, 0), (0, 6)])
    check(contact(box, tri), (1 / R2, 1 / R2), 1 / R2, (3, 3))
    # reversed: the triangle is pushed back; the point is the box's corner
    check(contact(tri, box), (-1 / R2, -1 / R2), 1 / R2, (2.5, 2.5))


def test_capsule_lying_in_polygon_point_is_middle_of_overlap() -> None:
    cap = Capsule((1, -0.5), (6, -0.5), 1)
    box = Polygon.box(2, 2, (0, -2))  # x -2..2, y -4..0
    # the core is 0.5 inside the top edge: out up by 0.5 + 1; core over the edge for x 1..2
    check(contact(cap, box), (0, 1), 1.5, (1.5, 0))


def test_box_corner_into_plane_3d_point_is_corner_foot() -> None:
    # a tilted plane: the deepest corner is (0, 0, 0)
    n = Vec3(1, 1, 1).normalized()
    c = contact(UNIT_BOX3.translated((1, 1, 1)), Plane(n, n.dot((0.5, 0.5, 0.5))))
    s = n.dot((0, 0, 0)) - n.dot((0.5, 0.5, 0.5))
    check(c, n, -s, n * -s)


def test_polygon_into_tilted_plane_deepest_corner() -> None:
    plane = Plane((1, 1), 4)  # normalised: x + y < 4
    c = contact(Polygon([(1.5, 1.5), (4, 2), (3, 4)]), plane)
    # corner (1.5, 1.5) is 1 / sqrt2 below the boundary; its foot is (2, 2)
    check(c, (1 / R2, 1 / R2), 1 / R2, (2, 2))


def test_circle_a_tiny_gap_from_a_box_or_polygon_still_gets_a_normal() -> None:
    # a gap whose square underflows to 0
    check(contact(Circle((0.0, -1e-200), 1.0), AABB((-1, 0), (1, 2))), (0, -1), 1.0, (0, 0))
    check(contact(Circle((0.0, -1e-200), 1.0), Polygon.box(1, 1, (0, 1))), (0, -1), 1.0, (0, 0))
    # with no radius, 1e-200 is within the touch tolerance of the box's coordinates (2e-12):
    # touching, as distance() reads it; 1e-11 is apart
    check(contact(Circle((0.0, -1e-200), 0.0), AABB((-1, 0), (1, 2))), (0, -1), 0.0, (0, 0))
    assert distance(Circle((0.0, -1e-200), 0.0), AABB((-1, 0), (1, 2))) == 0.0
    assert contact(Circle((0.0, -1e-11), 0.0), AABB((-1, 0), (1, 2))) is None


def test_circle_on_a_slanted_edge_to_rounding_leaves_along_the_edge_normal() -> None:
    # (8, 8) is on the edge from (7.625, 7.78...) to (8.375, 8.21...) only to rounding: the
    # edge's own normal, not the direction between two points that are equal to rounding
    tri = Polygon([(8.375, 8.21650635094611), (7.625, 8.649519052838329),
                   (7.625, 7.783493649053891)])
    edge_normal = Vec2(0.5, -math.sqrt(3.0) / 2.0)
    assert any(close(n, edge_normal, 1e-12) for n in tri.normals)
    check(contact(Circle((8.0, 8.0), 1.0), tri), edge_normal, 1.0, (8, 8))
    c = contact(Circle((8.0, 8.0), 0.0), tri)
    assert c is not None and c.depth <= 1e-12


@pytest.mark.parametrize("a, b", [((0.0, 0.0), (0.0, 3.0)), ((0.0, 3.0), (0.0, 0.0))])
@pytest.mark.parametrize("r", [0.05, 0.1, 0.3, 1e-7, 1e5])
def test_circle_exactly_touching_an_axis_aligned_segment_touches(a: Any, b: Any,
                                                                  r: float) -> None:
    # The signed distance to the segment's line was the cross product over the length, which
    # rounds (3 * 0.05 / 3 is 0.05000000000000001): a ball exactly touching a wall of a tile
    # map read as apart while the same ball touching the wall's end read as touching. The
    # distance is now to the nearest point on the segment, exact for an axis-aligned one.
    seg = Segment(a, b)
    c = contact(Circle((-r, 1.5), r), seg)
    assert c is not None and c.depth == 0.0 and tuple(c.normal) == (-1.0, 0.0)
    assert tuple(c.point) == (0.0, 1.5)
    # and the box the segment bounds agrees
    box = contact(Circle((-r, 1.5), r), AABB((0.0, 0.0), (1.0, 3.0)))
    assert box is not None and box.depth == 0.0
    # a ulp farther: a gap within TOUCH_TOLERANCE of the coordinates still touches (depth 0),
    # as distance() reads it 0; twice the tolerance farther is apart
    near = contact(Circle((-r * (1 + 2**-52) - 2**-60, 1.5), r), seg)
    assert near is not None and near.depth == 0.0
    assert distance(Circle((-r * (1 + 2**-52) - 2**-60, 1.5), r), seg) == 0.0
    gap = 2 * TOUCH_TOLERANCE * max(3.0, 2 * r)
    assert contact(Circle((-r - gap, 1.5), r), seg) is None
    assert distance(Circle((-r - gap, 1.5), r), seg) > 0.0


def test_circle_far_past_a_needle_corner_is_apart() -> None:
    # every edge line of a needle passes within 1e-79 of the centre, but its tip is 1 away
    needle = Polygon([(0.0, -1.0), (1e-79, 0.0), (0.0, 0.0)])
    assert contact(Circle((0.0, -2.0), 0.5), needle) is None
    check(contact(Circle((0.0, -2.0), 1.0), needle), (0, -1), 0.0, (0, -1))


def test_centre_a_hair_off_a_capsule_end_leaves_square_to_the_core() -> None:
    # rounding puts the nearest core point at the end (0, 1), 2e-71 from the centre: the way
    # out is square to the core, not along that noise
    c = contact(Circle((2e-71, 1.0), 1.0), Segment((1, 0), (0, 1)))
    check(c, (1 / R2, 1 / R2), 1.0)
    s = contact(Sphere((0.0, 1.0, 1e-38), 1.0), Capsule((0, 0, 1), (0, 1, 0), 0.0))
    assert s is not None and close(s.depth, 1.0)
    assert abs(s.normal.dot((0, 1 / R2, -1 / R2))) <= 1e-12


def test_nearly_parallel_crossing_3d_cores_leave_square_to_both() -> None:
    # the cores cross at z = 0.2, at an angle of about 2.5e-7 radians
    a = Capsule((0, 0, 1), (0, 1e-6, 0), 0.0)
    b = Capsule((0, 0, -3), (0, 1e-6, 1), 1.0)
    check(contact(a, b), (1, 0, 0), 1.0)


def test_nearly_parallel_3d_cores_distance_from_the_nearer_ends() -> None:
    # parallel to 1e-7: the gap is at a's end (0, 0, 0), 9e-7 across (to 1e-19)
    a = Capsule((0, 0, 1), (0, 0, 0), 0.0)
    b = Capsule((0, 0, -9), (0, 1e-6, 1), 1.0)
    c = contact(a, b)
    assert c is not None and abs(c.depth - (1.0 - 9e-7)) <= 1e-15


# ----------------------------------------------------------------------------- bad input

@pytest.mark.parametrize("a, b, names", [
    (Circle((0, 0), 1), AABB((0, 0, 0), (1, 1, 1)), ("Circle", "AABB (3D)")),
    (Sphere((0, 0, 0), 1), AABB((0, 0), (1, 1)), ("Sphere", "AABB (2D)")),
    (Capsule((0, 0), (1, 0), 1), Capsule((0, 0, 0), (1, 0, 0), 1),
     ("Capsule (2D)", "Capsule (3D)")),
    (Plane((0, 1), 0), Plane((0, 1), 1), ("Plane (2D)", "Plane (2D)")),
    (Sphere((0, 0, 0), 1), Polygon.box(1, 1), ("Sphere", "Polygon")),
    (Segment((0, 0), (1, 0)), Sphere((0, 0, 0), 1), ("Segment", "Sphere")),
    (Circle((0, 0), 1), Plane((0, 1, 0), 0), ("Circle", "Plane (3D)")),
    (Ray((0, 0), (1, 0)), Circle((0, 0), 1), ("Ray", "Circle")),
    (Circle((0, 0), 1), (0, 0), ("Circle", "tuple")),
    ("circle", Circle((0, 0), 1), ("str", "Circle")),
], ids=["circle-aabb3", "sphere-aabb2", "capsule2-capsule3", "plane-plane", "sphere-polygon",
        "segment-sphere", "circle-plane3", "ray-circle", "circle-tuple", "str-circle"])
def test_unsupported_pair_raises_type_error_naming_both(a: Any, b: Any,
                                                        names: tuple[str, str]) -> None:
    with pytest.raises(TypeError) as err:
        contact(a, b)
    msg = str(err.value)
    assert names[0] in msg and names[1] in msg
    assert msg.index(names[0]) <= msg.rindex(names[1])


def test_subclass_of_a_shape_dispatches_as_its_base() -> None:
    class Ball(Circle):
        __slots__ = ()

    check(contact(Ball((300, 170), 16), WALL), (0, 1), 6.0)


# ----------------------------------------------------------------------------- kernels

@numba.njit(cache=True)
def _batch_circles_vs_polygon(centres: np.ndarray, r: float, verts: np.ndarray,
                              norms: np.ndarray) -> np.ndarray:
    """Depth of each circle against the polygon (-1 where apart), in a compiled loop."""
    out = np.zeros(centres.shape[0])
    for i in range(centres.shape[0]):
        hit, _nx, _ny, depth, _px, _py = kernels.contact_circle_polygon(
            centres[i, 0], centres[i, 1], r, verts, norms)
        out[i] = depth if hit else -1.0
    return out


@numba.njit(cache=True)
def _batch_boxes_vs_polygon(mins: np.ndarray, size: float, verts: np.ndarray,
                            norms: np.ndarray) -> np.ndarray:
    """Depth of each box against the polygon (-1 where apart), in a compiled loop."""
    out = np.zeros(mins.shape[0])
    for i in range(mins.shape[0]):
        hit, _nx, _ny, depth, _px, _py = kernels.contact_aabb_polygon(
            mins[i, 0], mins[i, 1], mins[i, 0] + size, mins[i, 1] + size, verts, norms)
        out[i] = depth if hit else -1.0
    return out


def test_kernels_run_inside_compiled_loops() -> None:
    centres = np.array([[300.0, 170.0], [300.0, 180.0], [450.0, 168.0]])
    out = _batch_circles_vs_polygon(centres, 16.0, WALL_POLY._verts, WALL_POLY._norms)
    assert close(out[0], 6.0) and out[1] == -1.0 and close(out[2], 16 - math.sqrt(164))
    boxes = _batch_boxes_vs_polygon(np.array([[300.0, 150.0], [300.0, 170.0]]), 20.0,
                                    WALL_POLY._verts, WALL_POLY._norms)
    assert close(boxes[0], 10.0) and boxes[1] == -1.0


def test_flip_kernels_reverse_normal_and_move_point() -> None:
    assert kernels.flip_contact2(True, 0.0, 1.0, 2.0, 5.0, 5.0) == (True, -0.0, -1.0, 2.0, 5.0,
                                                                    3.0)
    # floats, as the library passes them: ints would compile the kernel once more (int64)
    assert kernels.flip_contact3(False, 1.0, 0.0, 0.0, 0.0, 0.0, 0.0, 0.0)[0] is False
    assert kernels.flip_contact3(True, 1.0, 0.0, 0.0, 2.0, 5.0, 5.0, 5.0) == (
        True, -1.0, -0.0, -0.0, 2.0, 3.0, 5.0, 5.0)


def test_tolerances_are_named_constants() -> None:
    # they live in swept.constants; the kernels read them from there
    from swept import constants

    assert kernels.TOUCH_TOLERANCE == constants.TOUCH_TOLERANCE
    assert 0.0 < constants.TOUCH_TOLERANCE < 1e-9
    assert 0.0 < constants.AXIS_PARALLEL_SINE < 1e-6


def test_turned_polygons_laid_flush_touch() -> None:
    """Touching counts, for polygons too: two squares turned by any angle and laid face to
    face are apart by rounding (about 1e-16 of their coordinates) on their common axis, and
    the separating-axis test took that for a gap (contact None for a quarter of the angles)
    while distance() said 0. A separation within TOUCH_TOLERANCE of the coordinates is a
    touch, with depth 0 (an overlap by rounding keeps its depth of a few ulps)."""
    import random

    from swept import distance, manifold

    rng = random.Random(3)
    for _ in range(500):
        angle = rng.uniform(0.0, 2.0 * math.pi)
        c, s = math.cos(angle), math.sin(angle)
        a = Polygon.box(2.0, 2.0).placed((0.0, 0.0), angle)
        b = Polygon.box(2.0, 2.0).placed((4.0 * c, 4.0 * s), angle)
        assert distance(a, b) == 0.0
        hit = contact(a, b)
        # laid flush: touching, or overlapping by rounding
        assert hit is not None and 0.0 <= hit.depth <= 1e-15
        assert abs(hit.normal.dot((-c, -s)) - 1.0) <= 1e-12
        m = manifold(a, b)
        assert m is not None and len(m.points) == 2
