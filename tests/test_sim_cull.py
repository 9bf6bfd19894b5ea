"""The Simulation's segment culls (``segment_beyond``, ``segment_off_path``): a kernel skips
its narrowphase call against a segment wall only where that call would have found nothing, so
every step gives the same bits with and without them.

A cull is a distance test of its own beside the narrowphase's, with a margin
(``SEGMENT_CULL_TOLERANCE``) above both tests' rounding and above the casts' rim tolerance:
these tests hold it to that at the exact touches (a ball at exactly its reach, a path grazing
at exactly the radius, a path ending on the wall) and at scales 1e-6 to 1e7, and check that it
culls what is plainly clear (else it would cost without saving).
"""

from __future__ import annotations

import math

import numba
import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from swept import Circle, Segment
from swept._kernels import sim as kernels
from swept.constants import SEGMENT_CULL_TOLERANCE
from swept.world import World


@numba.njit(cache=False)
def _beyond_and_gap(scene, h, px, py, reach):  # type: ignore[no-untyped-def]
    """The cull's answer and the narrowphase's gap for a ball of radius ``reach`` at p."""
    culled = kernels.segment_beyond(scene.rows, scene.tags, h, px, py, reach)
    gap, _nx, _ny, _nz = kernels.gap_row(scene, h, px, py, 0.0, reach, 0.0)
    return culled, gap


@numba.njit(cache=False)
def _off_path_and_tests(scene, h, px, py, qx, qy, r):  # type: ignore[no-untyped-def]
    """The cull's answer, the cast's time of impact (< 0: a miss) of a ball of radius r
    moving p -> q, and whether the centre's path p -> q reaches the wall."""
    culled = kernels.segment_off_path(scene.rows, scene.tags, h, px, py, qx, qy, r)
    mx = qx - px
    my = qy - py
    length = math.sqrt(mx * mx + my * my)
    t = -1.0
    if length > 0.0:
        t, _nx, _ny, _nz = kernels.entering_row(scene, h, px, py, 0.0, mx / length,
                                                my / length, 0.0, length, r)
    reached = kernels.reaches_row(scene, h, px, py, 0.0, qx, qy, 0.0)
    return culled, t, reached


def _wall(a: tuple[float, float], b: tuple[float, float]) -> tuple[object, int]:
    """A World's scene holding one segment, and its handle."""
    world = World()
    h = world.add(Segment(a, b))
    return world._sync(), h


def _beyond(a: tuple[float, float], b: tuple[float, float], p: tuple[float, float],
            reach: float) -> tuple[bool, float]:
    """:func:`_beyond_and_gap` on a one-segment scene."""
    scene, h = _wall(a, b)
    culled, gap = _beyond_and_gap(scene, h, float(p[0]), float(p[1]), float(reach))
    return bool(culled), float(gap)


def _off_path(a: tuple[float, float], b: tuple[float, float], p: tuple[float, float],
              q: tuple[float, float], r: float) -> tuple[bool, float, bool]:
    """:func:`_off_path_and_tests` on a one-segment scene."""
    scene, h = _wall(a, b)
    culled, t, reached = _off_path_and_tests(scene, h, float(p[0]), float(p[1]),
                                             float(q[0]), float(q[1]), float(r))
    return bool(culled), float(t), bool(reached)


# ------------------------------------------------------------------------- the ball's reach


def test_a_ball_plainly_clear_of_a_wall_is_culled_and_one_touching_is_not() -> None:
    # the wall y = 0 from x = 0 to 10; a ball of radius 1 at (5, 3): 2 clear
    assert _beyond((0.0, 0.0), (10.0, 0.0), (5.0, 3.0), 1.0) == (True, math.inf)
    # exactly touching (distance 1 = the reach): a contact, never culled
    culled, gap = _beyond((0.0, 0.0), (10.0, 0.0), (5.0, 1.0), 1.0)
    assert not culled
    assert gap == 0.0
    # beyond an end: the distance to the end counts, not to the line
    assert _beyond((0.0, 0.0), (10.0, 0.0), (13.0, 0.0), 2.0)[0]
    assert not _beyond((0.0, 0.0), (10.0, 0.0), (12.0, 0.0), 2.0)[0]
    # within the cull's margin of touching: left to the narrowphase
    eps = 0.5 * SEGMENT_CULL_TOLERANCE * 20.0
    assert not _beyond((0.0, 0.0), (10.0, 0.0), (5.0, 1.0 + eps), 1.0)[0]


def test_only_segments_are_culled() -> None:
    # a circle collider far from the ball: the cull leaves it to the narrowphase
    world = World()
    h = world.add(Circle((0.0, 0.0), 1.0))
    culled, gap = _beyond_and_gap(world._sync(), h, 50.0, 0.0, 1.0)
    assert not culled
    assert gap == math.inf


def test_a_nan_centre_is_never_culled() -> None:
    assert not _beyond((0.0, 0.0), (10.0, 0.0), (math.nan, 3.0), 1.0)[0]


_coord = st.floats(-1.0, 1.0)


@settings(max_examples=300, deadline=None)
@given(ax=_coord, ay=_coord, bx=_coord, by=_coord, px=_coord, py=_coord,
       reach=st.floats(1e-3, 1.0), scale=st.sampled_from([1e-6, 1e-3, 1.0, 1e3, 1e7]))
def test_a_culled_ball_is_one_the_narrowphase_finds_apart(ax: float, ay: float, bx: float,
                                                          by: float, px: float, py: float,
                                                          reach: float, scale: float) -> None:
    a = (ax * scale, ay * scale)
    b = (bx * scale, by * scale)
    if a == b:
        return
    culled, gap = _beyond(a, b, (px * scale, py * scale), reach * scale)
    if culled:
        assert gap == math.inf


@settings(max_examples=200, deadline=None)
@given(t=st.floats(-0.5, 1.5), side=st.sampled_from([-1.0, 1.0]),
       scale=st.sampled_from([1e-6, 1e-3, 1.0, 1e3, 1e7]), angle=st.floats(0.0, 6.28))
def test_a_ball_exactly_touching_is_never_culled(t: float, side: float, scale: float,
                                                 angle: float) -> None:
    # the ball's centre at exactly its reach from the wall (to the rounding of placing it):
    # the narrowphase may call it touching, so the cull must leave it
    c, s = math.cos(angle), math.sin(angle)
    a = (0.0, 0.0)
    b = (10.0 * scale * c, 10.0 * scale * s)
    reach = scale
    u = min(max(t, 0.0), 1.0)
    foot = (u * b[0], u * b[1])
    if 0.0 < t < 1.0:
        p = (foot[0] - side * s * reach, foot[1] + side * c * reach)
    else:
        # past an end: out along the wall's line
        d = 1.0 if t >= 1.0 else -1.0
        p = (foot[0] + d * c * reach, foot[1] + d * s * reach)
    assert not _beyond(a, b, p, reach)[0]


# ------------------------------------------------------------------------------- the paths


def test_a_path_plainly_clear_of_a_wall_is_culled_and_one_grazing_is_not() -> None:
    wall = ((0.0, 0.0), (10.0, 0.0))
    # parallel, 3 above, radius 1: clear
    assert _off_path(*wall, (0.0, 3.0), (10.0, 3.0), 1.0) == (True, -1.0, False)
    # parallel at exactly the radius: grazing, left to the cast
    assert not _off_path(*wall, (0.0, 1.0), (10.0, 1.0), 1.0)[0]
    # a centre's path ending exactly on the wall reaches it: never culled
    culled, _t, reached = _off_path(*wall, (5.0, 3.0), (5.0, 0.0), 0.0)
    assert not culled
    assert reached
    # one crossing it: never culled, and the cast hits
    culled, t, reached = _off_path(*wall, (5.0, 3.0), (5.0, -3.0), 1.0)
    assert not culled
    assert t == pytest.approx(2.0, abs=1e-12)
    assert reached
    # across the wall's line beside its end: the move's ends are on both sides of the
    # wall's line, but the wall's ends lie on one side of the move's line, 3 and 13 away
    assert _off_path(*wall, (13.0, 3.0), (13.0, -3.0), 1.0) == (True, -1.0, False)
    # and 0.5 from its end, within the radius: left to the cast, which hits the end's cap
    culled, t, _reached = _off_path(*wall, (10.5, 3.0), (10.5, -3.0), 1.0)
    assert not culled
    assert t >= 0.0


@settings(max_examples=300, deadline=None)
@given(ax=_coord, ay=_coord, bx=_coord, by=_coord, px=_coord, py=_coord, qx=_coord,
       qy=_coord, r=st.floats(0.0, 0.5), scale=st.sampled_from([1e-6, 1e-3, 1.0, 1e3, 1e7]))
def test_a_culled_path_is_one_the_cast_and_the_path_test_find_clear(
        ax: float, ay: float, bx: float, by: float, px: float, py: float, qx: float,
        qy: float, r: float, scale: float) -> None:
    a = (ax * scale, ay * scale)
    b = (bx * scale, by * scale)
    if a == b:
        return
    p = (px * scale, py * scale)
    q = (qx * scale, qy * scale)
    culled, t, _reached = _off_path(a, b, p, q, r * scale)
    if culled:
        assert t < 0.0
        # a centre's path clear of the wall by the radius is clear of it at radius 0 too
        culled0, t0, reached0 = _off_path(a, b, p, q, 0.0)
        assert culled0
        assert not reached0


@settings(max_examples=200, deadline=None)
@given(offset=st.floats(-1.0, 1.0), scale=st.sampled_from([1e-6, 1e-3, 1.0, 1e3, 1e7]),
       angle=st.floats(0.0, 6.28), r=st.floats(0.0, 1.0))
def test_a_path_grazing_at_exactly_the_radius_is_never_culled(offset: float, scale: float,
                                                              angle: float, r: float) -> None:
    # a move parallel to the wall at exactly r from it (to the rounding of placing it)
    c, s = math.cos(angle), math.sin(angle)
    a = (0.0, 0.0)
    b = (10.0 * scale * c, 10.0 * scale * s)
    n = (-s * r * scale, c * r * scale)
    shift = offset * 10.0 * scale
    p = (n[0] + shift * c, n[1] + shift * s)
    q = (p[0] + 5.0 * scale * c, p[1] + 5.0 * scale * s)
    assert not _off_path(a, b, p, q, r * scale)[0]


def test_a_still_ball_is_culled_only_clear_of_the_wall() -> None:
    # a move of length 0 (the kernels never cast it; the path test reads it as a point)
    wall = ((0.0, 0.0), (10.0, 0.0))
    assert _off_path(*wall, (5.0, 3.0), (5.0, 3.0), 1.0)[0]
    culled, _t, reached = _off_path(*wall, (5.0, 0.0), (5.0, 0.0), 0.0)
    assert not culled
    assert reached


def test_the_culls_skip_most_wall_calls_of_a_busy_scene() -> None:
    # the point of the culls: on bench_sim's kind of scene (thin walls at random angles,
    # whose boxes are large), most candidates that pass the box test are culled
    rng = np.random.default_rng(7)
    world = World()
    handles = []
    for _ in range(40):
        mid = rng.uniform(0.0, 200.0, 2)
        ang = rng.uniform(0.0, np.pi)
        half = 0.5 * rng.uniform(20.0, 120.0) * np.array([np.cos(ang), np.sin(ang)])
        handles.append(world.add(Segment(mid - half, mid + half)))
    scene = world._sync()
    rows = world._rows
    culled = inside = 0
    for _ in range(400):
        p = rng.uniform(0.0, 200.0, 2)
        r = rng.uniform(2.0, 10.0)
        for h in handles:
            lo = np.minimum(rows[h, 0:2], rows[h, 2:4])
            hi = np.maximum(rows[h, 0:2], rows[h, 2:4])
            if (p + r < lo).any() or (p - r > hi).any():
                continue
            inside += 1
            c, gap = _beyond_and_gap(scene, h, float(p[0]), float(p[1]), float(r))
            culled += bool(c)
            if c:
                assert gap == math.inf
    assert inside > 100
    assert culled > 0.5 * inside
