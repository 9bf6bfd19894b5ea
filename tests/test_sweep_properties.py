"""Properties of ``sweep`` on random scenes, for every mover against every target.

- At the reported fraction the shapes touch: their gap is within 1e-9 times the scene's scale
  for closed forms (a moving circle or sphere, or anything against a ball or a plane) and
  within ``CAST_TOLERANCE`` times the scale for conservative advancement; ``point`` lies on
  both surfaces.
- At no earlier fraction do they overlap (200 samples before the hit: ``contact`` is None or
  no deeper than the tolerance), and a miss never overlaps anywhere along the path.
- Reversing the pair, ``sweep(b, -d, a)``, gives the same fraction with the normal flipped.
- A swept circle never ends a step on the far side of a segment it did not hit, at speeds up
  to 1e6 units a step, cast alone (``sweep``) or stepped (``swept_step``).
"""

from __future__ import annotations

import math
from typing import Any

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from swept import AABB, Capsule, Circle, Plane, Polygon, Segment, Shape, Sphere, Vec2, Vec3
from swept._kernels.sweep import CAST_TOLERANCE
from swept.contact import contact
from swept.distance import closest_point, distance
from swept.step import swept_step
from swept.sweep import sweep

#: closed forms: the gap at the hit is this fraction of the scene's scale
CLOSED_TOLERANCE = 1e-9
#: dense sampling of the path before a hit (or along a miss)
SAMPLES = 200

MOVERS_2D = ["circle", "segment", "capsule", "aabb", "polygon"]
TARGETS_2D = [*MOVERS_2D, "plane"]
MOVERS_3D = ["sphere", "capsule3", "aabb3"]
TARGETS_3D = [*MOVERS_3D, "plane3"]
PAIRS = ([(a, b) for a in MOVERS_2D for b in TARGETS_2D]
         + [(a, b) for a in MOVERS_3D for b in TARGETS_3D])
MOVER_PAIRS = [(a, b) for a, b in PAIRS if b not in ("plane", "plane3")]

coord = st.floats(-30.0, 30.0)
size = st.floats(0.5, 8.0)
angle = st.floats(0.0, 2.0 * math.pi)


def _vec(values: Any) -> Vec2 | Vec3:
    return Vec2(*values) if len(values) == 2 else Vec3(*values)


def _unit3(draw: Any) -> Vec3:
    """A random unit 3-vector."""
    z = draw(st.floats(-1.0, 1.0))
    a = draw(angle)
    s = math.sqrt(max(0.0, 1.0 - z * z))
    return Vec3(s * math.cos(a), s * math.sin(a), z)


def _shape(draw: Any, kind: str, centre: Vec2 | Vec3, toward: Vec2 | Vec3) -> Shape:
    """A random shape of ``kind`` centred on ``centre`` (a plane through it, facing roughly
    toward ``toward``)."""
    if kind == "circle":
        return Circle(centre, draw(size))
    if kind == "sphere":
        return Sphere(centre, draw(size))
    if kind in ("segment", "capsule"):
        a = draw(angle)
        half = Vec2(math.cos(a), math.sin(a)) * draw(size)
        if kind == "segment":
            return Segment(centre - half, centre + half)
        return Capsule(centre - half, centre + half, draw(size))
    if kind == "capsule3":
        half3 = _unit3(draw) * draw(size)
        return Capsule(centre - half3, centre + half3, draw(size))
    if kind == "aabb":
        h = Vec2(draw(size), draw(size))
        return AABB(centre - h, centre + h)
    if kind == "aabb3":
        h3 = Vec3(draw(size), draw(size), draw(size))
        return AABB(centre - h3, centre + h3)
    if kind == "polygon":
        if draw(st.booleans()):
            return Polygon.box(draw(size), draw(size), centre, draw(angle))
        return Polygon.regular(draw(st.integers(3, 7)), draw(size), centre, draw(angle))
    # a plane through the centre, its free side roughly toward the mover
    away = toward - centre
    if away.length() == 0.0:
        away = _vec((1.0,) + (0.0,) * (len(centre) - 1))
    n = away.normalized()
    tilt = draw(st.floats(-1.0, 1.0))
    if kind == "plane":
        return Plane.through(centre, n.rotated(tilt))  # type: ignore[union-attr]
    return Plane.through(centre, (n + _unit3(draw) * abs(tilt)).normalized())


@st.composite
def scenes(draw: Any, mover: str, target: str) -> tuple[Shape, Vec2 | Vec3, Shape]:
    """(shape, displacement, target): the move aimed near the target, often enough to hit."""
    dim = 3 if mover in MOVERS_3D else 2
    start = _vec([draw(coord) for _ in range(dim)])
    goal = _vec([draw(coord) for _ in range(dim)])
    shape = _shape(draw, mover, start, goal)
    tgt = _shape(draw, target, goal, start)
    reach = draw(st.floats(0.0, 2.5))
    noise = _vec([draw(st.floats(-15.0, 15.0)) for _ in range(dim)])
    disp = (goal - start) * reach + noise
    return shape, disp, tgt


def _coords(shape: Shape) -> list[float]:
    """Every coordinate and size of a shape, for the scene's scale."""
    if isinstance(shape, (Circle, Sphere)):
        return [*shape.center, shape.radius]
    if isinstance(shape, Segment):
        return [*shape.a, *shape.b]
    if isinstance(shape, Capsule):
        return [*shape.a, *shape.b, shape.radius]
    if isinstance(shape, AABB):
        return [*shape.min, *shape.max]
    if isinstance(shape, Polygon):
        return [c for p in shape.points for c in p]
    assert isinstance(shape, Plane)
    return [shape.offset]


def scale_of(shape: Shape, disp: Vec2 | Vec3, target: Shape) -> float:
    """The scene's scale: its largest coordinate, size or displacement, at least 1."""
    values = _coords(shape) + _coords(shape.translated(disp)) + _coords(target)  # type: ignore[attr-defined]
    return max([1.0, disp.length()] + [abs(v) for v in values])


def is_closed_form(shape: Shape, target: Shape) -> bool:
    """Whether ``sweep`` answers this pair with a closed form (else conservative advancement)."""
    return isinstance(shape, (Circle, Sphere)) or isinstance(target, (Circle, Sphere, Plane))


def tolerance(shape: Shape, disp: Vec2 | Vec3, target: Shape) -> float:
    """The stated gap tolerance of this pair's cast."""
    scale = scale_of(shape, disp, target)
    if is_closed_form(shape, target):
        return CLOSED_TOLERANCE * scale
    # conservative advancement's stopping gap, plus rounding in the distance check
    return CAST_TOLERANCE * scale + 1e-12 * scale


def depth_at(shape: Shape, disp: Vec2 | Vec3, target: Shape, fraction: float) -> float:
    """How deep the shapes overlap with the mover at ``fraction`` of its move (0 apart)."""
    c = contact(shape.translated(disp * fraction), target)  # type: ignore[attr-defined]
    return 0.0 if c is None else c.depth


def well_conditioned(shape: Shape, target: Shape, normal: Vec2 | Vec3, scale: float) -> bool:
    """Whether the contact normal barely moves when the shape is nudged by 1e-6 of the scale
    along each axis (not a tie between faces, nor coincident centres or cores)."""
    dim = len(normal)
    for k in range(dim):
        for sign in (-1.0, 1.0):
            nudge = _vec([sign * 1e-6 * scale if i == k else 0.0 for i in range(dim)])
            c = contact(shape.translated(nudge), target)  # type: ignore[attr-defined]
            if c is None or not c.normal.is_close(normal, 1e-3):
                return False
    return True


def assert_never_overlaps(shape: Shape, disp: Vec2 | Vec3, target: Shape, upto: float,
                          tol: float) -> None:
    """At SAMPLES fractions in [0, upto) the shapes overlap by no more than ``tol``."""
    for k in range(SAMPLES):
        f = upto * k / SAMPLES
        depth = depth_at(shape, disp, target, f)
        assert depth <= tol, (f, depth)


# ---------------------------------------------------------------------------------------------
# touching at the hit, never overlapping before it, never overlapping along a miss


@pytest.mark.parametrize(("mover", "target"), PAIRS)
@settings(max_examples=40)
@given(data=st.data())
def test_hit_touches_and_nothing_overlaps_before_it(mover: str, target: str,
                                                    data: st.DataObject) -> None:
    shape, disp, tgt = data.draw(scenes(mover, target))
    hit = sweep(shape, disp, tgt)
    tol = tolerance(shape, disp, tgt)
    if hit is None:
        # a miss: the shapes never overlap anywhere along the path
        assert_never_overlaps(shape, disp, tgt, 1.0 + 1.0 / SAMPLES, tol)
        return
    assert 0.0 <= hit.fraction <= 1.0
    assert abs(hit.normal.length() - 1.0) <= 1e-12
    if hit.started_inside:
        assert hit.fraction == 0.0
        assert depth_at(shape, disp, tgt, 0.0) > 0.0 or distance(shape, tgt) <= tol
        # the normal of the shortest way out: the contact's, wherever that is well defined
        c = contact(shape, tgt)
        if c is not None and c.depth > tol and well_conditioned(shape, tgt, c.normal,
                                                                 scale_of(shape, disp, tgt)):
            assert hit.normal.is_close(c.normal, 1e-6), (hit.normal, c.normal)
        return
    moved = shape.translated(disp * hit.fraction)  # type: ignore[attr-defined]
    # touching: the gap is zero within the tolerance, and no deeper overlap
    assert distance(moved, tgt) <= tol
    assert depth_at(shape, disp, tgt, hit.fraction) <= tol
    # the normal points out of the target, against the motion (or along it, grazing)
    assert hit.normal.dot(disp) <= 1e-9 * disp.length()
    # the point is on both surfaces
    for s in (moved, tgt):
        if isinstance(s, Plane):
            assert abs(s.signed_distance(hit.point)) <= tol
        else:
            assert closest_point(s, hit.point).distance_to(hit.point) <= tol
    # the reported position is the reference point moved by the fraction
    assert hit.position.is_close(_reference(shape) + disp * hit.fraction, 1e-12 * 100)
    assert_never_overlaps(shape, disp, tgt, hit.fraction, tol)


def _reference(shape: Shape) -> Vec2 | Vec3:
    if isinstance(shape, (Circle, Sphere)):
        return shape.center
    if isinstance(shape, (Segment, Capsule)):
        return (shape.a + shape.b) * 0.5
    if isinstance(shape, AABB):
        return (shape.min + shape.max) * 0.5
    assert isinstance(shape, Polygon)
    return shape.centroid


# ---------------------------------------------------------------------------------------------
# the pair reversed


@pytest.mark.parametrize(("mover", "target"), MOVER_PAIRS)
@settings(max_examples=40)
@given(data=st.data())
def test_reversed_pair_gives_the_same_fraction_and_the_flipped_normal(
        mover: str, target: str, data: st.DataObject) -> None:
    shape, disp, tgt = data.draw(scenes(mover, target))
    hit = sweep(shape, disp, tgt)
    back = sweep(tgt, -disp, shape)
    tol = tolerance(shape, disp, tgt) + tolerance(tgt, -disp, shape)
    if hit is None or back is None:
        # only a graze within the tolerance may be seen one way and not the other
        one = hit if hit is not None else back
        if one is not None:
            moved = shape.translated(disp * one.fraction)  # type: ignore[attr-defined]
            assert not one.started_inside
            assert distance(moved, tgt) <= tol
            closing = -one.normal.dot(disp if one is hit else -disp)
            assert closing <= 1e-6 * disp.length(), (hit, back)
        return
    assert hit.started_inside == back.started_inside
    closing = -hit.normal.dot(disp)
    if closing > 1e-3 * disp.length():
        # a fraction error of e moves the gap by e * closing
        assert abs(hit.fraction - back.fraction) * closing <= tol, (hit, back)
    if hit.started_inside:
        ab = contact(shape, tgt)
        ba = contact(tgt, shape)
        if ab is None or ba is None or ab.depth <= tol or not ab.normal.is_close(
                -ba.normal, 1e-6):
            # touching at the start, or no single shortest way out (coincident centres
            # leave along the fixed fallback both ways)
            return
    if not hit.started_inside and closing <= 1e-3 * disp.length():
        # a graze: the normal is ill-conditioned
        return
    assert back.normal.is_close(-hit.normal, 1e-6), (hit.normal, back.normal)


# ---------------------------------------------------------------------------------------------
# no tunneling at any speed


@st.composite
def fast_approaches(draw: Any) -> tuple[Circle, Vec2, Segment]:
    """A circle near a thin wall, moving at up to 1e6 units a step toward a point near it."""
    a = draw(angle)
    half = Vec2(math.cos(a), math.sin(a)) * draw(st.floats(1.0, 60.0))
    centre = Vec2(draw(coord), draw(coord))
    wall = Segment(centre - half, centre + half)
    start = Vec2(draw(st.floats(-100.0, 100.0)), draw(st.floats(-100.0, 100.0)))
    aim = centre + half * draw(st.floats(-1.5, 1.5)) + Vec2(draw(st.floats(-5.0, 5.0)),
                                                            draw(st.floats(-5.0, 5.0)))
    speed = 10.0 ** draw(st.floats(0.0, 6.0))
    heading = aim - start
    if heading.length() == 0.0:
        heading = Vec2(1.0, 0.0)
    return Circle(start, draw(st.floats(0.1, 10.0))), heading.normalized() * speed, wall


def _clearance(p: Vec2, q: Vec2, wall: Segment) -> float:
    """How close the centre's path from p to q comes to the wall."""
    if p == q:
        return distance(p, wall)
    return distance(Segment(p, q), wall)


@settings(max_examples=300)
@given(fast_approaches())
def test_a_swept_circle_never_passes_a_wall_it_did_not_hit(
        case: tuple[Circle, Vec2, Segment]) -> None:
    ball, disp, wall = case
    if distance(ball, wall) <= 0.0:
        return  # starts touching: a hit at 0, nothing to tunnel through
    scale = max(disp.length(), 100.0)
    hit = sweep(ball, disp, wall)
    if hit is None:
        # the whole path of the centre stays clear of the wall grown by the radius
        assert _clearance(ball.center, ball.center + disp, wall) >= ball.radius - 1e-9 * scale
    else:
        assert _clearance(ball.center, Vec2(*hit.position), wall) >= ball.radius - 1e-9 * scale


@settings(max_examples=300)
@given(fast_approaches(), st.floats(0.0, 1.0), st.floats(0.0, 1.0))
def test_a_swept_step_never_crosses_a_wall(case: tuple[Circle, Vec2, Segment],
                                           restitution: float, friction: float) -> None:
    ball, velocity, wall = case
    if distance(ball, wall) <= 0.0:
        return
    scale = max(velocity.length(), 100.0)
    result = swept_step(ball, velocity, 1.0, [wall], restitution=restitution,
                        friction=friction)
    # the centre's path: start, each contact, the end; every leg stays r clear of the wall
    path = [ball.center] + [h.position for _, h in result.hits] + [result.position]
    for p, q in zip(path, path[1:]):
        assert _clearance(p, q, wall) >= ball.radius - 1e-9 * scale, (p, q)  # type: ignore[arg-type]
