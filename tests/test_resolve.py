"""resolve() (seed 004's passes) and respond_pair() (two moving bodies)."""

from __future__ import annotations

import math

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from swept.chain import Chain
from swept.contact import contact
from swept.resolve import DEFAULT_PASSES, resolve, respond_pair
from swept.results import Contact
from swept.shapes import AABB, Circle, Plane, Sphere
from swept.vec import Vec2, Vec3
from swept.world import World


def wedge(degrees: float) -> list[Plane]:
    """Two half-planes meeting at the origin with ``degrees`` between their arms, opening up
    (+y); their normals point into the gap between the arms."""
    h = math.radians(degrees / 2.0)
    return [Plane(Vec2(math.cos(h), math.sin(h)), 0.0),
            Plane(Vec2(-math.cos(h), math.sin(h)), 0.0)]


def ball_sunk_in(planes: list[Plane], depth: float, radius: float = 5.0) -> Circle:
    """A ball on the wedge's axis sunk ``depth`` into both arms."""
    h = math.asin(planes[0].normal[1])
    return Circle((0.0, (radius - depth) / math.sin(h)), radius)


# ------------------------------------------------------------------ seed 004's wedge numbers

def test_a_push_of_10_in_a_40_degree_wedge_sinks_the_ball_7_7_deeper() -> None:
    planes = wedge(40.0)
    ball = ball_sunk_in(planes, 10.0)
    r = resolve(ball, (0, 0), planes, passes=1)
    first, second = r.contacts
    assert first[1].depth == pytest.approx(10.0, abs=1e-9)
    # the push out of the first arm sank it 10 cos 40 deeper into the second
    assert second[1].depth - 10.0 == pytest.approx(10.0 * math.cos(math.radians(40.0)),
                                                   abs=1e-9)
    assert second[1].depth - 10.0 == pytest.approx(7.7, abs=0.05)


def test_one_pass_in_a_40_degree_wedge_leaves_13_5_in_the_first_arm() -> None:
    planes = wedge(40.0)
    r = resolve(ball_sunk_in(planes, 10.0), (0, 0), planes, passes=1)
    assert r.deepest == pytest.approx(13.5, abs=0.05)
    c40 = math.cos(math.radians(40.0))
    assert r.deepest == pytest.approx(10.0 * (1.0 + c40) * c40, abs=1e-9)
    # what is left is in the arm the pass resolved first
    assert contact(r.shape, planes[0]).depth == pytest.approx(r.deepest, abs=1e-9)
    assert contact(r.shape, planes[1]) is not None
    assert contact(r.shape, planes[1]).depth == pytest.approx(0.0, abs=1e-9)


def test_each_pass_shrinks_what_is_left_by_cos_squared_of_the_wedge() -> None:
    planes = wedge(40.0)
    ball = ball_sunk_in(planes, 10.0)
    left = [resolve(ball, (0, 0), planes, passes=k).deepest for k in range(1, 6)]
    for a, b in zip(left, left[1:]):
        assert b / a == pytest.approx(math.cos(math.radians(40.0)) ** 2, abs=1e-9)
        assert b / a == pytest.approx(0.59, abs=0.01)


def test_a_20_degree_wedge_settles_under_0_2_overlap_at_8_passes() -> None:
    """A ball pulled down into a 20-degree wedge every step (seed 004's Walls and Slides):
    each push sinks it 94% of itself into the other arm, so one pass leaves it deep and
    eight leave less than 0.2."""
    def settle(passes: int) -> float:
        ball, v, dt = Circle((0.0, 60.0), 16.0), Vec2(0.0, 0.0), 1.0 / 60.0
        r = resolve(ball, v, wedge(20.0), passes=passes)
        for _ in range(300):
            v = v + Vec2(0.0, -1500.0) * dt
            r = resolve(ball.translated(v * dt), v, wedge(20.0), passes=passes)
            ball, v = r.shape, r.velocity
        return r.deepest

    assert DEFAULT_PASSES == 8
    assert settle(8) < 0.2
    assert settle(1) > 5.0


def test_passes_stop_once_clear_and_zero_passes_do_nothing() -> None:
    ball = Circle((0.0, 4.0), 5.0)
    floor = [Plane((0.0, 1.0), 0.0)]
    r0 = resolve(ball, (1.0, -2.0), floor, passes=0)
    assert r0.shape == ball and r0.velocity == Vec2(1.0, -2.0)
    assert r0.deepest == pytest.approx(1.0) and r0.contacts == ()
    r = resolve(ball, (1.0, -2.0), floor)
    # one pass pushes it out; the next finds it touching (depth 0) and stops
    assert [c.depth for _h, c in r.contacts] == [1.0, 0.0]
    assert r.shape.center == Vec2(0.0, 5.0)
    assert r.deepest == 0.0


# ------------------------------------------------------------------------ velocity and skin

def test_velocity_into_a_wall_slides_and_a_leaving_velocity_is_kept() -> None:
    wall = [AABB((10.0, -100.0), (20.0, 100.0))]
    ball = Circle((6.0, 0.0), 5.0)
    r = resolve(ball, (3.0, 4.0), wall)
    assert r.velocity == Vec2(0.0, 4.0)
    assert r.shape.center[0] == pytest.approx(5.0)
    r = resolve(ball, (-3.0, 4.0), wall)
    assert r.velocity == Vec2(-3.0, 4.0)
    r = resolve(ball, (3.0, 4.0), wall, fix_velocity=False)
    assert r.velocity == Vec2(3.0, 4.0)


def test_restitution_and_friction_answer_the_velocity() -> None:
    floor = [Plane((0.0, 1.0), 0.0)]
    ball = Circle((0.0, 4.0), 5.0)
    r = resolve(ball, (300.0, -400.0), floor, restitution=0.5)
    assert r.velocity.is_close((300.0, 200.0))
    r = resolve(ball, (300.0, -400.0), floor, friction=0.25)
    assert r.velocity.is_close((225.0, 0.0))


def test_skin_leaves_clearance() -> None:
    floor = [Plane((0.0, 1.0), 0.0)]
    r = resolve(Circle((0.0, 4.0), 5.0), (0.0, 0.0), floor, skin=0.01)
    assert r.shape.center[1] == pytest.approx(5.01)
    assert r.deepest == 0.0


def test_resolve_in_3d() -> None:
    r = resolve(Sphere((0.0, 0.5, 0.0), 1.0), (1.0, -1.0, 0.0), [Plane((0.0, 1.0, 0.0), 0.0)])
    assert r.shape.center == Vec3(0.0, 1.0, 0.0)
    assert r.velocity == Vec3(1.0, 0.0, 0.0)


def test_resolve_against_a_chain_has_no_ghost_push_at_a_seam() -> None:
    """A box sunk 0.5 into a floor right over a seam of a flush chain comes straight up."""
    floor = Chain([(0.0, 0.0), (10.0, 0.0), (20.0, 0.0)])
    box = AABB((9.8, -0.5), (19.0, 4.5))
    r = resolve(box, (5.0, -1.0), [floor])
    assert r.shape.min[0] == pytest.approx(9.8)
    assert r.shape.min[1] == pytest.approx(0.0, abs=1e-12)
    assert r.velocity == Vec2(5.0, 0.0)


def test_resolve_against_a_world() -> None:
    w = World()
    h0 = w.add(Plane((0.0, 1.0), 0.0), "floor")
    h1 = w.add(AABB((10.0, -100.0), (20.0, 100.0)), "wall")
    r = resolve(Circle((6.0, 4.0), 5.0), (3.0, -4.0), w)
    assert r.shape.center.is_close((5.0, 5.0))
    assert r.velocity == Vec2(0.0, 0.0)
    assert {h for h, _c in r.contacts} == {h0, h1}
    assert r.deepest == 0.0


def test_bad_arguments_raise() -> None:
    with pytest.raises(ValueError):
        resolve(Circle((0, 0), 1), (0, 0), [], passes=-1)
    with pytest.raises(ValueError):
        resolve(Circle((0, 0), 1), (0, 0), [], friction=2.0)
    with pytest.raises(TypeError):
        resolve("ball", (0, 0), [])  # type: ignore[arg-type]


# ---------------------------------------------------------------------------- respond_pair

def test_equal_masses_share_the_push_half_each() -> None:
    c = Contact(Vec2(-1.0, 0.0), 2.0, Vec2(9.0, 0.0))
    pa, va, pb, vb = respond_pair((8.0, 0.0), (0.0, 0.0), 1.0, (10.0, 0.0), (0.0, 0.0), 1.0, c)
    assert pa == Vec2(7.0, 0.0) and pb == Vec2(11.0, 0.0)


def test_a_static_body_does_not_move() -> None:
    c = Contact(Vec2(0.0, 1.0), 0.5, Vec2(0.0, 0.0))
    pa, va, pb, vb = respond_pair((0.0, 0.5), (2.0, -3.0), 2.0, (0.0, -1.0), (0.0, 0.0),
                                  math.inf, c, restitution=0.5)
    assert pa == Vec2(0.0, 1.0) and pb == Vec2(0.0, -1.0)
    assert va == Vec2(2.0, 1.5) and vb == Vec2(0.0, 0.0)


def test_elastic_equal_masses_swap_their_normal_velocities() -> None:
    c = Contact(Vec3(-1.0, 0.0, 0.0), 0.0, Vec3(0.0, 0.0, 0.0))
    _pa, va, _pb, vb = respond_pair((-1, 0, 0), (3, 1, 0), 1.0, (1, 0, 0), (-1, 0, 2), 1.0, c,
                                    restitution=1.0)
    assert va == Vec3(-1.0, 1.0, 0.0) and vb == Vec3(3.0, 0.0, 2.0)


def test_separating_bodies_keep_their_velocities() -> None:
    c = Contact(Vec2(-1.0, 0.0), 0.1, Vec2(0.0, 0.0))
    _pa, va, _pb, vb = respond_pair((0, 0), (-1, 0), 1.0, (1, 0), (1, 0), 3.0, c, 1.0)
    assert va == Vec2(-1.0, 0.0) and vb == Vec2(1.0, 0.0)


def test_two_static_bodies_and_bad_masses() -> None:
    c = Contact(Vec2(1.0, 0.0), 1.0, Vec2(0.0, 0.0))
    out = respond_pair((0, 0), (1, 0), math.inf, (1, 0), (-1, 0), math.inf, c)
    assert out == (Vec2(0, 0), Vec2(1, 0), Vec2(1, 0), Vec2(-1, 0))
    with pytest.raises(ValueError):
        respond_pair((0, 0), (1, 0), 0.0, (1, 0), (-1, 0), 1.0, c)
    with pytest.raises(ValueError):
        respond_pair((0, 0), (1, 0), 1.0, (1, 0, 0), (-1, 0), 1.0, c)


_speed = st.floats(-100.0, 100.0)
_mass = st.floats(0.01, 100.0)


@settings(max_examples=100)
@given(_speed, _speed, _speed, _speed, _mass, _mass, st.floats(0.0, 1.0),
       st.floats(0.0, 2.0 * math.pi), st.floats(0.0, 5.0))
def test_momentum_is_conserved_and_the_closing_speed_comes_back_times_e(
        vax: float, vay: float, vbx: float, vby: float, ma: float, mb: float, e: float,
        angle: float, depth: float) -> None:
    n = Vec2(math.cos(angle), math.sin(angle))
    c = Contact(n, depth, Vec2(0.0, 0.0))
    va0, vb0 = Vec2(vax, vay), Vec2(vbx, vby)
    pa, va, pb, vb = respond_pair((0, 0), va0, ma, (1, 1), vb0, mb, c, e)
    before = va0 * ma + vb0 * mb
    after = va * ma + vb * mb
    scale = max(1.0, abs(before[0]), abs(before[1]), 100.0 * max(ma, mb))
    assert after.is_close(before, 1e-12 * scale)
    # the pushes, by inverse mass, add up to the depth along the normal
    assert (pa - Vec2(0, 0) - (pb - Vec2(1, 1))).dot(n) == pytest.approx(depth, abs=1e-9)
    closing = (va0 - vb0).dot(n)
    if closing < 0.0:
        assert (va - vb).dot(n) == pytest.approx(-e * closing, abs=1e-9)
