"""Convex hulls of point clouds: Polygon.hull (2D monotone chain) and ConvexHull (3D quickhull)."""

from __future__ import annotations

import itertools
import math

import numpy as np
import pytest
from hypothesis import given
from hypothesis import strategies as st

from swept import ConvexHull, Polygon, Vec2, Vec3
from swept.constants import HULL_MAX_POINTS

# ---------------------------------------------------------------------------- Polygon.hull


def test_polygon_hull_drops_inner_collinear_and_duplicate_points() -> None:
    pts = [(0, 0), (1, 0), (2, 0), (2, 2), (1, 1), (0, 2), (0, 1), (2, 2), (0.5, 0.5)]
    hull = Polygon.hull(pts)
    assert set(hull.points) == {Vec2(0, 0), Vec2(2, 0), Vec2(2, 2), Vec2(0, 2)}
    assert hull.area == 4.0


def test_polygon_hull_of_a_triangle_is_that_triangle_in_either_winding() -> None:
    a = Polygon.hull([(0, 0), (3, 0), (0, 4)])
    b = Polygon.hull([(0, 4), (3, 0), (0, 0)])
    assert a == b == Polygon([(0, 0), (3, 0), (0, 4)])


@pytest.mark.parametrize("pts", [
    [(0, 0), (1, 1)],
    [(1, 1), (1, 1), (1, 1), (1, 1)],
    [(0, 0), (1, 1), (2, 2), (3, 3), (1.5, 1.5)],
    [(0, 0), (1e7, 1e7), (2e7, 2e7)],
    [],
])
def test_polygon_hull_without_an_area_is_a_value_error_naming_points(pts: list) -> None:
    with pytest.raises(ValueError, match="points"):
        Polygon.hull(pts)


@pytest.mark.parametrize("pts, err", [
    ([(0, 0), (1, 0), (math.nan, 1)], ValueError),
    ([(0, 0), (1, 0), (math.inf, 1)], ValueError),
    ([(0, 0, 0), (1, 0, 0), (0, 1, 0)], ValueError),
    ("abc", TypeError),
    ([("a", 0), (1, 0), (0, 1)], TypeError),
])
def test_polygon_hull_bad_input_names_points(pts: object, err: type) -> None:
    with pytest.raises(err, match="points"):
        Polygon.hull(pts)


@given(st.lists(st.tuples(st.floats(-1e3, 1e3), st.floats(-1e3, 1e3)), min_size=3,
                max_size=40),
       st.sampled_from([1e-6, 1.0, 1e4]))
def test_polygon_hull_holds_every_point_and_its_corners_come_from_the_cloud(
        pts: list, scale: float) -> None:
    pts = [(x * scale, y * scale) for x, y in pts]
    try:
        hull = Polygon.hull(pts)
    except ValueError:
        # only a cloud with no area is refused: its points lie within rounding of one line
        arr = np.array(pts)
        size = float(np.max(np.abs(arr)))
        i, j = max(((i, j) for i in range(len(arr)) for j in range(len(arr))),
                   key=lambda ij: float(np.linalg.norm(arr[ij[0]] - arr[ij[1]])))
        e = arr[j] - arr[i]
        length = float(np.linalg.norm(e))
        if length > 1e-9 * size:
            off = np.abs((arr[:, 0] - arr[i, 0]) * e[1] - (arr[:, 1] - arr[i, 1]) * e[0])
            assert float(np.max(off)) / length <= 1e-9 * size
        return
    cloud = {(float(x), float(y)) for x, y in pts}
    assert all(tuple(p) in cloud for p in hull.points)
    size = max(abs(c) for p in pts for c in p)
    for p in pts:
        for q, n in zip(hull.points, hull.normals):
            assert n.dot(Vec2(*p) - q) <= 1e-9 * size


# ---------------------------------------------------------------------------- ConvexHull

BOX = list(itertools.product((0.0, 1.0), (0.0, 2.0), (0.0, 3.0)))


def test_hull_of_a_box_with_inner_edge_and_face_points_has_8_corners_6_faces_12_edges() -> None:
    extra = [(0.5, 1.0, 1.5), (0.5, 0.0, 1.0), (1.0, 1.0, 1.0), (0.0, 0.0, 1.5), *BOX]
    hull = ConvexHull(BOX + extra)
    assert set(hull.vertices) == {Vec3(*p) for p in BOX}
    assert len(hull.faces) == 6 and len(hull.edges) == 12
    assert all(len(f) == 4 for f in hull.faces)
    assert set(zip(hull.normals, hull.offsets)) == {
        (Vec3(-1, 0, 0), 0.0), (Vec3(1, 0, 0), 1.0), (Vec3(0, -1, 0), 0.0),
        (Vec3(0, 1, 0), 2.0), (Vec3(0, 0, -1), 0.0), (Vec3(0, 0, 1), 3.0)}
    assert hull.centroid == Vec3(0.5, 1.0, 1.5)
    assert hull.aabb.min == Vec3(0, 0, 0) and hull.aabb.max == Vec3(1, 2, 3)


def test_hull_faces_wind_counter_clockwise_seen_from_outside() -> None:
    hull = ConvexHull(BOX)
    v = np.array(hull.vertices)
    for face, n in zip(hull.faces, hull.normals):
        a, b, c = v[face[0]], v[face[1]], v[face[2]]
        assert np.dot(np.cross(b - a, c - a), n) > 0.0


def test_octahedron_hull_has_8_triangular_faces_at_one_over_root_three() -> None:
    pts = [(1, 0, 0), (-1, 0, 0), (0, 1, 0), (0, -1, 0), (0, 0, 1), (0, 0, -1), (0, 0, 0)]
    hull = ConvexHull(pts)
    assert len(hull.vertices) == 6 and len(hull.faces) == 8 and len(hull.edges) == 12
    for n, off in zip(hull.normals, hull.offsets):
        assert all(abs(abs(c) - 1 / math.sqrt(3)) <= 1e-15 for c in n)
        assert abs(off - 1 / math.sqrt(3)) <= 1e-15


@pytest.mark.parametrize("pts, word", [
    ([(1, 2, 3)] * 6, "same point"),
    ([(t, 2 * t, 3 * t) for t in range(6)], "line"),
    ([(x, y, 0.0) for x in range(3) for y in range(3)], "plane"),
    ([(x, y, x + y) for x in range(3) for y in range(3)], "plane"),
    ([(0, 0, 0), (1, 0, 0), (0, 1, 0)], "4 points"),
    ([(1e7 + x, 1e7 + y, 1e7) for x in range(3) for y in range(3)], "plane"),
])
def test_degenerate_clouds_are_value_errors_naming_points(pts: list, word: str) -> None:
    with pytest.raises(ValueError, match=f"points.*{word}"):
        ConvexHull(pts)


@pytest.mark.parametrize("pts, err", [
    ([(0, 0, 0), (1, 0, 0), (0, 1, 0), (0, 0, math.nan)], ValueError),
    ([(0, 0, 0), (1, 0, 0), (0, 1, 0), (0, 0, math.inf)], ValueError),
    ([(0, 0), (1, 0), (0, 1), (1, 1)], ValueError),
    ([(0, 0, 0), (1, 0, 0), (0, 1, 0), (0, 0, 1e60)], ValueError),
    ("abcd", TypeError),
    (None, ValueError),
])
def test_bad_clouds_name_points(pts: object, err: type) -> None:
    with pytest.raises(err, match="points"):
        ConvexHull(pts)


def test_too_many_points_is_a_value_error() -> None:
    with pytest.raises(ValueError, match="points: at most"):
        ConvexHull(np.zeros((HULL_MAX_POINTS + 1, 3)))


@given(st.integers(0, 2**32 - 1), st.integers(4, 200),
       st.sampled_from([1e-6, 1.0, 1e3, 1e7]), st.sampled_from(["ball", "cube", "sphere"]))
def test_random_hulls_hold_every_point_and_are_closed_polyhedra(
        seed: int, n: int, scale: float, kind: str) -> None:
    rng = np.random.default_rng(seed)
    pts = rng.normal(size=(n, 3))
    if kind == "cube":
        # many points on the faces, edges and corners of a box
        pts = np.round(rng.uniform(-1, 1, size=(n, 3)) * 2) / 2
    elif kind == "sphere":
        pts /= np.linalg.norm(pts, axis=1)[:, None]
    pts = pts * scale + scale * 3.0
    try:
        hull = ConvexHull(pts)
    except ValueError:
        assert kind == "cube"  # a few rounded points can all sit on one plane
        return
    v = hull._verts
    # every cloud point inside or on every face (within the build band)
    assert np.max(pts @ hull._norms.T - hull._offs) <= hull._eps
    # corners are cloud points
    cloud = {tuple(p) for p in pts}
    assert all(tuple(p) in cloud for p in v)
    # Euler's formula, and every edge shared by exactly two faces
    assert len(v) - len(hull.edges) + len(hull.faces) == 2
    counts: dict[tuple[int, int], int] = {}
    for f in hull.faces:
        for i, a in enumerate(f):
            b = f[(i + 1) % len(f)]
            counts[(min(a, b), max(a, b))] = counts.get((min(a, b), max(a, b)), 0) + 1
    assert set(counts.values()) == {2}
    # every corner on its faces' planes
    for f, nrm, off in zip(hull.faces, hull._norms, hull._offs):
        assert np.all(np.abs(v[list(f)] @ nrm - off) <= hull._eps)


def test_hull_equality_hash_and_pickle() -> None:
    import pickle

    a = ConvexHull(BOX)
    b = ConvexHull(list(reversed(BOX)) + [(0.5, 0.5, 0.5)])
    assert a == b and hash(a) == hash(b)
    c = pickle.loads(pickle.dumps(a))
    assert c == a and c.faces == a.faces
    assert a.translated((1, 1, 1)).aabb.min == Vec3(1, 1, 1)
