"""swept._draw's shared geometry, which both drawing backends use: rounded hulls (capsule
outlines and swept volumes) lie exactly their radius from the hull, arrows end where they
point, clipping keeps exactly the part inside the box, and no mark ever holds NaN."""

from __future__ import annotations

import math

import numpy as np
from hypothesis import given
from hypothesis import strategies as st

from swept import AABB, Capsule, Circle, Plane, Polygon, Ray, Segment, World
from swept._draw import (
    View,
    arrow,
    clip_line,
    clip_polygon,
    marks,
    rounded_hull,
    sweep_marks,
)
from swept.constants import DRAW_ARC_SEGMENTS

coords = st.floats(-1e3, 1e3, allow_nan=False)
points = st.lists(st.tuples(coords, coords), min_size=1, max_size=8)


def _segment_distance(p: np.ndarray, a: np.ndarray, b: np.ndarray) -> float:
    ab = b - a
    denom = float(ab @ ab)
    t = 0.0 if denom == 0.0 else float(np.clip((p - a) @ ab / denom, 0.0, 1.0))
    return float(np.hypot(*(p - (a + t * ab))))


def test_a_capsule_outline_has_half_a_turn_of_arc_at_each_end() -> None:
    ring = rounded_hull([(0, 0), (10, 0)], 2)
    # DRAW_ARC_SEGMENTS a full turn: half of them, and their ends, at each of the two ends
    assert len(ring) == 2 * (DRAW_ARC_SEGMENTS // 2 + 1)
    d = [_segment_distance(p, np.array((0.0, 0.0)), np.array((10.0, 0.0))) for p in ring]
    assert max(abs(x - 2.0) for x in d) < 1e-12


def test_a_point_grown_is_a_full_circle_and_radius_zero_is_the_hull() -> None:
    ring = rounded_hull([(1, 1)], 3)
    assert len(ring) == DRAW_ARC_SEGMENTS
    assert np.allclose(np.hypot(ring[:, 0] - 1, ring[:, 1] - 1), 3.0, rtol=0, atol=1e-12)
    square = rounded_hull([(0, 0), (1, 0), (1, 1), (0, 1), (0.5, 0.5), (1, 0)], 0.0)
    assert square.tolist() == [[0, 0], [1, 0], [1, 1], [0, 1]]


def test_a_cloud_too_thin_for_a_hull_is_drawn_between_its_farthest_points() -> None:
    """A cloud the hull takes for a line is drawn as the line between its two points farthest
    apart: its lexicographic extremes ((-2e-313, 0) and (0, 0) of these three, found by
    hypothesis) left (0, -1) a whole radius outside the outline."""
    ring = rounded_hull([(0.0, 0.0), (0.0, -1.0), (-2.2250738585e-313, 0.0)], 1.0)
    a, b = np.array((0.0, -1.0)), np.array((0.0, 0.0))
    d = [_segment_distance(p, a, b) for p in ring]
    assert max(abs(x - 1.0) for x in d) < 1e-12


@given(points, st.floats(0.0, 100.0))
def test_every_rounded_hull_point_is_its_radius_from_the_hull(pts: list, r: float) -> None:
    ring = rounded_hull(pts, r)
    assert np.isfinite(ring).all()
    arr = np.array(pts, np.float64)
    # the distance from a ring point to the hull is the least over the input's pairs (the
    # hull's edges are among them), and no input point is farther out than the ring
    for p in ring:
        best = min(_segment_distance(p, a, b) for a in arr for b in arr)
        assert math.isclose(best, r, rel_tol=1e-9, abs_tol=1e-9) or best > r


def test_an_arrow_ends_where_it_points_with_a_capped_head() -> None:
    shaft, head = arrow((1, 2), (3, 4), 1.0)
    assert shaft.tolist() == [[1, 2], [4, 6]]
    assert head[1].tolist() == [4, 6]
    back = (head[0] + head[2]) / 2
    assert math.isclose(float(np.hypot(*(head[1] - back))), 1.0, rel_tol=1e-12)
    # a short arrow's head is at most 0.4 of it
    _, small = arrow((0, 0), (1, 0), 5.0)
    assert np.allclose(small[:, 0], [0.6, 1.0, 0.6], rtol=0, atol=1e-15)
    # zero length: a point, never NaN
    s0, h0 = arrow((1, 1), (0, 0), 5.0)
    assert np.isfinite(s0).all() and np.isfinite(h0).all()


def test_clip_line_handles_parallel_outside_grazing_and_unbounded() -> None:
    box = ((0, 0), (10, 10))
    assert clip_line((-5, 5), (1, 0), -math.inf, math.inf, *box).tolist() == [[0, 5], [10, 5]]
    assert clip_line((-5, 11), (1, 0), -math.inf, math.inf, *box) is None   # parallel, outside
    assert clip_line((-5, 10), (1, 0), 0, math.inf, *box).tolist() == [[0, 10], [10, 10]]
    assert clip_line((20, 20), (1, 1), 0, math.inf, *box) is None            # pointing away
    assert clip_line((5, 5), (1, 0), 0, 2, *box).tolist() == [[5, 5], [7, 5]]  # inside


@given(st.lists(st.tuples(coords, coords), min_size=3, max_size=8))
def test_a_clipped_polygon_stays_in_the_box(pts: list) -> None:
    hull = rounded_hull(pts, 0.0)
    lo, hi = (-100.0, -50.0), (200.0, 75.0)
    out = clip_polygon(hull, lo, hi)
    assert np.isfinite(out).all()
    if len(out):
        assert (out[:, 0] >= lo[0] - 1e-9).all() and (out[:, 0] <= hi[0] + 1e-9).all()
        assert (out[:, 1] >= lo[1] - 1e-9).all() and (out[:, 1] <= hi[1] + 1e-9).all()


def test_unbounded_things_draw_nothing_without_a_box_and_are_clipped_with_one() -> None:
    probe = View(None, None, 1.0)
    assert marks([Plane((0, 1), 0), Ray((0, 0), (1, 0))], probe) == [
        m for m in probe.out if m.kind == "point"]
    v = View((-1.0, -1.0), (1.0, 1.0), 1.0)
    fill, line = marks(Plane((1, 1), 0), v)
    assert sorted(map(tuple, fill.points.tolist())) == [(-1, -1), (-1, 1), (1, -1)]
    assert sorted(map(tuple, line.points.tolist())) == [(-1, 1), (1, -1)]


def test_a_grazing_half_plane_along_the_box_edge_keeps_its_line() -> None:
    v = View((0.0, 0.0), (10.0, 10.0), 1.0)
    found = marks(Plane((0, 1), 0), v)  # solid below y = 0: only the box's bottom edge
    assert [m.kind for m in found] == ["polyline"]
    assert sorted(map(tuple, found[0].points.tolist())) == [(0, 0), (10, 0)]


def test_radius_zero_shapes_draw_as_lines_and_points() -> None:
    v = View(None, None, 1.0)
    (cap,) = marks(Capsule((0, 0), (4, 0), 0), v)
    assert cap.kind == "polyline" and cap.points.tolist() == [[0, 0], [4, 0]]
    v2 = View(None, None, 1.0)
    (ball,) = marks(Circle((1, 2), 0), v2)
    assert ball.kind == "circle" and ball.radius == 0.0


def test_a_segment_sweep_along_itself_is_a_line() -> None:
    v = View(None, None, 1.0)
    found = sweep_marks(Segment((0, 0), (1, 0)), (3, 0), None, v)
    assert found[0].kind == "polyline" and found[0].points.tolist() == [[0, 0], [4, 0]]


@given(st.sampled_from([1e-6, 1.0, 1e7]))
def test_marks_scale_with_the_scene(scale: float) -> None:
    # the same scene at another scale gives the same marks, scaled (to rounding)
    def scene(k: float) -> list:
        w = World()
        w.add(Polygon.box(2 * k, k, center=(5 * k, 5 * k)))
        w.add(Capsule((0, 0), (3 * k, 0), k))
        w.add(AABB((-k, -k), (0, 0)))
        return marks(w, View((-10 * k, -10 * k), (10 * k, 10 * k), k, clip=True))

    base, scaled = scene(1.0), scene(scale)
    assert [m.kind for m in base] == [m.kind for m in scaled]
    for a, b in zip(base, scaled):
        assert np.allclose(a.points * scale, b.points, rtol=1e-12, atol=0)
