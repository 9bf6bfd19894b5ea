"""contact, distance and closest_points of capsules, boxes, oriented boxes and convex hulls
against TriangleMesh and HeightField (issue 13): closed forms on faces, edges and vertices, a
brute-force reference over every triangle, no internal-edge normals on floors of many small
triangles, scale, both argument orders, and a World holding a mesh."""

from __future__ import annotations

import math

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from swept import (
    AABB,
    Capsule,
    ConvexHull,
    HeightField,
    OrientedBox,
    Sphere,
    TriangleMesh,
    Vec3,
    World,
    closest_points,
    contact,
    distance,
    manifold,
)

Z = (0.0, 0.0, 1.0)


def floor_xy(n: int = 1, size: float = 4.0, seed: int = 0) -> TriangleMesh:
    """A flat floor z = 0 over [0, size]^2 of n x n cells, each split along a random diagonal,
    wound so the normals point +z."""
    rng = np.random.default_rng(seed)
    xs = np.linspace(0.0, size, n + 1)
    verts = np.array([(x, y, 0.0) for y in xs for x in xs])
    tris = []
    for i in range(n):
        for j in range(n):
            a = i * (n + 1) + j
            b, c, d = a + 1, a + n + 1, a + n + 2
            if rng.random() < 0.5:
                tris += [(a, b, d), (a, d, c)]
            else:
                tris += [(a, b, c), (b, d, c)]
    return TriangleMesh(verts, tris)


def assert_vec(v: Vec3, expected: tuple[float, ...], tol: float = 1e-12) -> None:
    """Componentwise equality within ``tol``."""
    assert tuple(v) == pytest.approx(expected, abs=tol)


# ------------------------------------------------------------------------- pure references


def _point_triangle(p: np.ndarray, tri: np.ndarray) -> float:
    """Distance from p to a triangle: inside its prism the plane, else its three edges."""
    a, b, c = tri
    n = np.cross(b - a, c - a)
    n /= np.linalg.norm(n)
    h = float((p - a) @ n)
    q = p - h * n
    if all(np.cross(e1 - e0, q - e0) @ n >= 0.0 for e0, e1 in ((a, b), (b, c), (c, a))):
        return abs(h)
    best = math.inf
    for e0, e1 in ((a, b), (b, c), (c, a)):
        e = e1 - e0
        s = min(max(float((p - e0) @ e / (e @ e)), 0.0), 1.0)
        best = min(best, float(np.linalg.norm(p - (e0 + s * e))))
    return best


def _ternary(f, lo: float, hi: float, rounds: int = 80) -> float:
    """The least value of a convex function on [lo, hi] (ternary search)."""
    for _ in range(rounds):
        m1 = lo + (hi - lo) / 3.0
        m2 = hi - (hi - lo) / 3.0
        if f(m1) <= f(m2):
            hi = m2
        else:
            lo = m1
    return min(f(lo), f(hi), f(0.5 * (lo + hi)))


def _segment_triangle(p0: np.ndarray, p1: np.ndarray, tri: np.ndarray) -> float:
    """Segment to triangle: the distance from a point moving along the segment to a convex set
    is convex in its parameter."""
    return _ternary(lambda s: _point_triangle(p0 + s * (p1 - p0), tri), 0.0, 1.0)


def _box_triangle(lo: np.ndarray, hi: np.ndarray, tri: np.ndarray) -> float:
    """Box to triangle: the distance from a point of the triangle to the box is convex over the
    triangle, and so is its least value over each line of constant u."""
    a, b, c = tri

    def box_gap(p: np.ndarray) -> float:
        return float(np.linalg.norm(p - np.clip(p, lo, hi)))

    def over_v(u: float) -> float:
        return _ternary(lambda v: box_gap(a + u * (b - a) + v * (c - a)), 0.0, 1.0 - u, 50)

    return _ternary(over_v, 0.0, 1.0, 50)


# ------------------------------------------------------------------------- closed forms


@pytest.mark.parametrize("h", [0.0, 0.1, 0.25, 0.4999, -0.2])
def test_capsule_lying_on_a_flat_floor_has_depth_r_minus_h(h: float) -> None:
    """Lying across both triangles (over the shared diagonal) at height h: depth r - |h|,
    normal out of the floor toward the axis (down for an axis under the floor: two-sided)."""
    floor = floor_xy()
    r = 0.5
    cap = Capsule((0.5, 1.0, h), (3.5, 2.5, h), r)
    c = contact(cap, floor)
    assert c is not None
    up = 1.0 if h >= 0.0 else -1.0
    assert_vec(c.normal, (0.0, 0.0, up), 0.0)
    assert c.depth == pytest.approx(r - abs(h), abs=1e-12)
    assert c.point[2] == 0.0
    # the other order: the normal reversed, the point on the capsule
    back = contact(floor, cap)
    assert back is not None and back.depth == c.depth
    assert_vec(back.normal, (0.0, 0.0, -up), 0.0)
    assert back.point[2] == pytest.approx(up * (abs(h) - r), abs=1e-12)
    assert distance(cap, floor) == 0.0
    assert manifold(cap, floor).points[0].depth == c.depth  # type: ignore[union-attr]


def test_capsule_above_the_floor_is_apart_by_h_minus_r_and_touching_counts() -> None:
    floor = floor_xy()
    r = 0.5
    for h in (0.5, 0.75, 3.0):
        cap = Capsule((0.5, 1.0, h), (3.5, 2.5, h), r)
        assert distance(cap, floor) == pytest.approx(h - r, abs=1e-12)
        pa, pb, d = closest_points(cap, floor)
        assert d == pytest.approx(h - r, abs=1e-12)
        assert pa[2] == pytest.approx(h - r, abs=1e-12) and pb[2] == 0.0
        assert pa[0] == pb[0] and pa[1] == pb[1]
        c = contact(cap, floor)
        if h == r:
            assert c is not None and c.depth == 0.0 and tuple(c.normal) == Z
        else:
            assert c is None


def test_tilted_capsule_crossing_the_floor_is_pushed_up_by_its_lowest_end() -> None:
    """The core crosses the surface: depth is the push along the face normal that takes the
    lowest end to the floor, plus the radius; the point is under that end, on the floor."""
    floor = floor_xy()
    cap = Capsule((1.0, 1.0, -0.3), (2.0, 3.0, 0.7), 0.25)
    c = contact(cap, floor)
    assert c is not None
    assert tuple(c.normal) == Z
    assert c.depth == pytest.approx(0.55, abs=1e-12)
    assert_vec(c.point, (1.0, 1.0, 0.0))
    assert distance(cap, floor) == 0.0
    pa, pb, _d = closest_points(cap, floor)
    assert pa == pb and pa[2] == pytest.approx(0.0, abs=1e-15)
    # crossing with the centre under the floor: pushed down
    below = contact(Capsule((1.0, 1.0, 0.3), (2.0, 3.0, -0.7), 0.25), floor)
    assert below is not None and tuple(below.normal) == (0.0, 0.0, -1.0)
    assert below.depth == pytest.approx(0.55, abs=1e-12)


def test_capsule_parallel_to_a_boundary_edge_gets_the_edge_direction() -> None:
    """Beside the floor's edge x = 4 (a boundary, not flat), parallel to it: the gap is the
    distance between the lines less r, the normal from the edge toward the axis."""
    floor = floor_xy(3)
    r = 0.5
    dx, dz = 0.3, 0.2
    cap = Capsule((4.0 + dx, 1.0, dz), (4.0 + dx, 3.0, dz), r)
    g = math.hypot(dx, dz)
    c = contact(cap, floor)
    assert c is not None
    assert c.depth == pytest.approx(r - g, abs=1e-12)
    assert_vec(c.normal, (dx / g, 0.0, dz / g))
    assert c.point[0] == 4.0 and c.point[2] == 0.0
    far = Capsule((4.0 + 3 * dx, 1.0, 3 * dz), (4.0 + 3 * dx, 3.0, 3 * dz), r)
    assert distance(far, floor) == pytest.approx(3 * g - r, abs=1e-12)


def test_capsule_parallel_over_an_internal_edge_gets_the_face_normal() -> None:
    """Right over the shared diagonal (a flat edge) and over grid seams: the face normal."""
    floor = floor_xy(1)
    diag = floor_xy(1).vertices  # corners (0,0), (4,0), (0,4), (4,4): the diagonal is one
    assert diag.shape == (4, 3)
    for a, b in (((0.0, 0.0), (4.0, 4.0)), ((0.0, 4.0), (4.0, 0.0)), ((1.0, 1.0), (3.0, 3.0))):
        cap = Capsule((a[0], a[1], 0.3), (b[0], b[1], 0.3), 0.5)
        c = contact(cap, floor)
        assert c is not None and tuple(c.normal) == Z
        assert c.depth == pytest.approx(0.2, abs=1e-12)


def test_box_corner_over_a_triangle_vertex() -> None:
    """A triangle in the quadrant x, y <= 0 of z = 0, a box in x, y, z >= g: the nearest pair
    is the box's corner and the triangle's corner, g sqrt(3) apart (GJK, to its tolerance)."""
    tri = TriangleMesh([(0, 0, 0), (-1, 0, 0), (0, -1, 0)], [(0, 1, 2)])
    for g in (1e-3, 0.1, 2.0):
        box = AABB((g, g, g), (g + 1, g + 2, g + 3))
        pa, pb, d = closest_points(box, tri)
        assert d == pytest.approx(g * math.sqrt(3.0), rel=1e-9)
        assert_vec(pa, (g, g, g), 1e-9 * g)
        assert_vec(pb, (0.0, 0.0, 0.0), 1e-9 * g)
        assert contact(box, tri) is None
    # touching exactly at the corners: depth 0
    touch = contact(AABB((0, 0, 0), (1, 1, 1)), tri)
    assert touch is not None and touch.depth == 0.0
    # the corner poking down through the vertex: out along the face normal (the boundary
    # edges' pushes tie with it; the face wins a tie)
    e = 0.05
    c = contact(AABB((-e, -e, -e), (1, 1, 1)), tri)
    assert c is not None and tuple(c.normal) == Z
    assert c.depth == pytest.approx(e, abs=1e-15)


def test_box_sunk_into_a_floor_and_poking_over_its_edge() -> None:
    floor = floor_xy(4)
    sunk = contact(AABB((1.0, 1.0, -0.2), (2.0, 2.5, 0.8)), floor)
    assert sunk is not None and tuple(sunk.normal) == Z
    assert sunk.depth == pytest.approx(0.2, abs=1e-15)
    assert sunk.point[2] == 0.0
    # over the boundary edge x = 4 by 0.1, sunk by 0.2: the way out past the edge is shorter
    over = contact(AABB((3.9, 1.0, -0.2), (5.0, 2.0, 0.8)), floor)
    assert over is not None and tuple(over.normal) == (1.0, 0.0, 0.0)
    assert over.depth == pytest.approx(0.1, abs=1e-12)
    # a box lying on the floor touches it
    on = contact(AABB((1.0, 1.0, 0.0), (2.0, 2.0, 1.0)), floor)
    assert on is not None and on.depth == 0.0 and tuple(on.normal) == Z
    assert distance(AABB((1.0, 1.0, 0.25), (2.0, 2.0, 1.0)), floor) == pytest.approx(
        0.25, rel=1e-9)


def test_a_step_pushes_a_box_out_of_its_riser_not_up_onto_it() -> None:
    """A box overlapping a step's front edge (a convex crease, not flat) leaves the way it
    came in, not onto the tread: both the tread and the riser offer the short push."""
    step = TriangleMesh([(0, 0, 1), (0, 4, 1), (2, 4, 1), (2, 0, 1), (0, 0, 0), (0, 4, 0)],
                        [(0, 3, 2), (0, 2, 1), (0, 1, 5), (0, 5, 4)])
    assert tuple(step.normals[0]) == Z and tuple(step.normals[2]) == (-1.0, 0.0, 0.0)
    c = contact(AABB((-1.0, 1.0, 0.0), (0.05, 2.0, 2.0)), step)
    assert c is not None
    assert_vec(c.normal, (-1.0, 0.0, 0.0), 0.0)
    assert c.depth == pytest.approx(0.05, abs=1e-15)


def test_oriented_box_and_hull_on_a_floor() -> None:
    """A cube turned 45 degrees about x rests on an edge; its lowest edge is s sqrt(2) / 2
    below its centre."""
    floor = floor_xy(2)
    s = 0.5
    rot = np.array([[1.0, 0.0, 0.0], [0.0, math.cos(math.pi / 4), -math.sin(math.pi / 4)],
                    [0.0, math.sin(math.pi / 4), math.cos(math.pi / 4)]])
    low = s * math.sqrt(2.0)
    for z, expect in ((low - 0.1, 0.1), (low + 0.3, None)):
        box = OrientedBox((2.0, 2.0, z), (s, s, s), rot)
        c = contact(box, floor)
        if expect is None:
            assert c is None
            assert distance(box, floor) == pytest.approx(0.3, rel=1e-9)
        else:
            assert c is not None and tuple(c.normal) == Z
            assert c.depth == pytest.approx(expect, abs=1e-12)
    hull = ConvexHull([(1, 1, -0.2), (2, 1, 0.5), (1, 2, 0.5), (2, 2, 1.0)])
    c = contact(hull, floor)
    assert c is not None and tuple(c.normal) == Z and c.depth == pytest.approx(0.2, abs=1e-12)
    assert distance(ConvexHull([(1, 1, 0.2), (2, 1, 0.5), (1, 2, 0.5), (2, 2, 1.0)]),
                    floor) == pytest.approx(0.2, rel=1e-9)


def test_a_sphere_and_a_point_capsule_agree() -> None:
    floor = floor_xy(3)
    for p in ((1.3, 2.1, 0.2), (4.2, 1.0, 0.1), (4.1, 4.2, 0.05)):
        a = contact(Sphere(p, 0.5), floor)
        b = contact(Capsule(p, p, 0.5), floor)
        assert a is not None and b is not None
        assert_vec(b.normal, tuple(a.normal))
        assert b.depth == pytest.approx(a.depth, abs=1e-12)
        assert_vec(b.point, tuple(a.point))


def test_unsupported_dimensions_and_shapes_raise_type_error() -> None:
    floor = floor_xy()
    with pytest.raises(TypeError, match="TriangleMesh"):
        contact(Capsule((0, 0), (0, 1), 0.5), floor)
    with pytest.raises(TypeError):
        distance(AABB((0, 0), (1, 1)), floor)


# ------------------------------------------------------------------ brute force, hypothesis

_coord = st.floats(-3.0, 3.0, allow_nan=False)
_point = st.tuples(_coord, _coord, _coord)


def _random_mesh(seed: int) -> TriangleMesh:
    rng = np.random.default_rng(seed)
    verts = rng.uniform(-2.0, 2.0, (12, 3))
    return TriangleMesh(verts, np.arange(12).reshape(4, 3))


@settings(max_examples=40, deadline=None)
@given(seed=st.integers(0, 10_000), a=_point, b=_point, r=st.floats(0.0, 0.5))
def test_capsule_distance_is_the_least_over_every_triangle(seed: int, a, b, r: float) -> None:
    mesh = _random_mesh(seed)
    p0, p1 = np.array(a), np.array(b)
    ref = min(_segment_triangle(p0, p1, mesh.vertices[t]) for t in mesh.triangles)
    d = distance(Capsule(a, b, r), mesh)
    assert d == pytest.approx(max(ref - r, 0.0), abs=1e-9)
    c = contact(Capsule(a, b, r), mesh)
    if ref > r + 1e-9:
        assert c is None
    elif ref < r - 1e-9:
        assert c is not None and c.depth >= r - ref - 1e-9
        assert abs(c.normal.length() - 1.0) < 1e-12
        assert not any(math.isnan(x) for x in (*c.normal, c.depth, *c.point))


@settings(max_examples=25, deadline=None)
@given(seed=st.integers(0, 10_000), lo=_point,
       size=st.tuples(*[st.floats(0.01, 1.5)] * 3))
def test_box_distance_is_the_least_over_every_triangle(seed: int, lo, size) -> None:
    mesh = _random_mesh(seed)
    lo_ = np.array(lo)
    hi_ = lo_ + np.array(size)
    ref = min(_box_triangle(lo_, hi_, mesh.vertices[t]) for t in mesh.triangles)
    d = distance(AABB(lo, tuple(hi_)), mesh)
    assert d == pytest.approx(ref, abs=1e-8)
    pa, pb, d2 = closest_points(AABB(lo, tuple(hi_)), mesh)
    assert d2 == d
    if d > 0.0:
        assert (pb - pa).length() == pytest.approx(d, rel=1e-9)


# ----------------------------------------------------------------- no internal-edge normals


@settings(max_examples=40, deadline=None)
@given(x=st.floats(0.5, 3.5), y=st.floats(0.5, 3.5), angle=st.floats(0.0, math.pi),
       h=st.floats(0.0, 0.45), length=st.floats(0.0, 1.0))
def test_capsules_on_a_floor_of_many_small_triangles_get_only_the_face_normal(
        x: float, y: float, angle: float, h: float, length: float) -> None:
    """A 20 x 20 floor of random diagonals (every seam a flat edge): a capsule lying at any
    place and heading, at any height under its radius, gets the face normal and depth r - h,
    never a seam's."""
    floor = _FINE
    dx, dy = 0.5 * length * math.cos(angle), 0.5 * length * math.sin(angle)
    cap = Capsule((x - dx, y - dy, h), (x + dx, y + dy, h), 0.5)
    c = contact(cap, floor)
    assert c is not None and tuple(c.normal) == Z
    assert c.depth == pytest.approx(0.5 - h, abs=1e-12)
    # sunk boxes too
    box = AABB((x - 0.3, y - 0.2, -h), (x + 0.3, y + 0.2, 1.0))
    cb = contact(box, floor)
    assert cb is not None and tuple(cb.normal) == Z and cb.depth == pytest.approx(h, abs=1e-15)


_FINE = floor_xy(20)


def test_capsules_on_a_flat_height_field_get_only_the_face_normal() -> None:
    terrain = HeightField(np.zeros((16, 16)), (0.25, 1.0, 0.25))
    rng = np.random.default_rng(3)
    for _ in range(50):
        x, z = rng.uniform(0.5, 3.2, 2)
        a = rng.uniform(0.0, math.pi)
        h = rng.uniform(0.0, 0.45)
        cap = Capsule((x, h, z), (x + 0.4 * math.cos(a), h, z + 0.4 * math.sin(a)), 0.5)
        c = contact(cap, terrain)
        assert c is not None and tuple(c.normal) == (0.0, 1.0, 0.0)
        assert c.depth == pytest.approx(0.5 - h, abs=1e-12)


def test_a_capsule_on_a_sloped_height_field_gets_the_plane_normal() -> None:
    """Heights rising 0.5 per unit of x: every triangle in one plane, normal (-0.5, 1, 0) /
    |.|; a capsule along z, its axis h over the plane (measured along the normal)."""
    heights = np.tile(0.5 * np.arange(8.0), (8, 1))
    terrain = HeightField(heights, (1.0, 1.0, 1.0))
    n = np.array([-0.5, 1.0, 0.0]) / math.sqrt(1.25)
    for h in (0.1, 0.3):
        foot = np.array([3.3, 1.65, 0.0])
        a = foot + h * n + (0.0, 0.0, 2.2)
        b = a + (0.0, 0.0, 2.5)
        c = contact(Capsule(tuple(a), tuple(b), 0.5), terrain)
        assert c is not None
        assert_vec(c.normal, tuple(n))
        assert c.depth == pytest.approx(0.5 - h, abs=1e-12)


@pytest.mark.parametrize("scale", [1e-6, 1e-3, 1.0, 1e4, 1e7])
def test_capsule_and_box_contacts_scale_with_the_mesh(scale: float) -> None:
    base = floor_xy(6, seed=2)
    floor = TriangleMesh(base.vertices * scale, base.triangles)
    cap = Capsule((0.7 * scale, 1.1 * scale, 0.2 * scale), (3.1 * scale, 2.3 * scale,
                                                            0.2 * scale), 0.5 * scale)
    c = contact(cap, floor)
    assert c is not None and tuple(c.normal) == Z
    assert c.depth == pytest.approx(0.3 * scale, rel=1e-12)
    box = AABB((1.0 * scale, 1.0 * scale, -0.1 * scale), (2.0 * scale, 2.0 * scale, scale))
    cb = contact(box, floor)
    assert cb is not None and tuple(cb.normal) == Z
    assert cb.depth == pytest.approx(0.1 * scale, rel=1e-12)
    up = AABB((1.0 * scale, 1.0 * scale, 0.4 * scale), (2.0 * scale, 2.0 * scale, scale))
    assert distance(up, floor) == pytest.approx(0.4 * scale, rel=1e-9)
    beside = Capsule((4.3 * scale, 1.0 * scale, 0.4 * scale), (4.3 * scale, 3.0 * scale,
                                                             0.4 * scale), 0.1 * scale)
    assert distance(beside, floor) == pytest.approx(0.4 * scale, rel=1e-12)


# ------------------------------------------------------------------------------ World


def test_a_world_holding_a_mesh_answers_box_and_capsule_queries() -> None:
    """The World's external colliders are asked through contact(): a box query or a capsule's
    contacts with a mesh raised TypeError before the pair existed."""
    world = World()
    floor = floor_xy(2)
    handle = world.add(floor)
    terrain = world.add(HeightField(np.zeros((4, 4)), (1.0, 1.0, 1.0), (10.0, 0.0, 0.0)))
    assert world.query_aabb(AABB((1.0, 1.0, -0.5), (2.0, 2.0, 0.5))) == [handle]
    assert world.query_aabb(AABB((1.0, 1.0, 0.5), (2.0, 2.0, 1.5))) == []
    assert world.query_aabb(AABB((11.0, -0.5, 1.0), (12.0, 0.5, 2.0))) == [terrain]
    # a point on the floor is in it (the boundary counts), one over it is not
    assert world.query_point((1.5, 2.5, 0.0)) == [handle]
    assert world.query_point((1.5, 2.5, 1e-6)) == []
    assert world.query_point((11.0, 0.0, 1.0)) == [terrain]
    found = world.contacts(Capsule((1.0, 1.0, 0.2), (3.0, 1.0, 0.2), 0.5))
    assert [c.handle for c in found] == [handle]
    assert tuple(found[0].normal) == Z and found[0].depth == pytest.approx(0.3, abs=1e-12)


# ------------------------------------------------------------------------- more features


def _pyramid() -> TriangleMesh:
    """Four faces rising to an apex (0, 0, 1) over the square [-1, 1]^2: every edge a ridge."""
    return TriangleMesh([(-1, -1, 0), (1, -1, 0), (1, 1, 0), (-1, 1, 0), (0, 0, 1)],
                        [(0, 1, 4), (1, 2, 4), (2, 3, 4), (3, 0, 4)])


def test_a_capsule_over_a_peak_gets_the_direction_from_the_apex() -> None:
    """Lying level over the apex (a vertex with no flat edge), a gap g over it: the nearest
    pair is the apex and the axis point above it, the normal straight up from the apex. Turned
    45 degrees the axis is over two ridges' ends alike: the same answer."""
    peak = _pyramid()
    r = 0.5
    for g in (0.2, 0.45):
        for a, b in (((-2.0, 0.0), (2.0, 0.0)), ((-1.0, -1.0), (1.0, 1.0))):
            cap = Capsule((a[0], a[1], 1.0 + g), (b[0], b[1], 1.0 + g), r)
            c = contact(cap, peak)
            assert c is not None
            assert c.depth == pytest.approx(r - g, abs=1e-12)
            assert_vec(c.normal, Z)
            assert_vec(c.point, (0.0, 0.0, 1.0))
    # parallel to a ridge, 0.3 off it along the bisector of its two faces: the normal from
    # the ridge toward the axis
    ridge_mid = np.array([0.5, 0.5, 0.5])  # middle of the edge from (1, 1, 0) to the apex
    out = np.array([1.0, 1.0, 2.0]) / math.sqrt(6.0)  # between the faces' normals
    centre = ridge_mid + 0.3 * out
    d = np.array([-1.0, -1.0, 1.0]) / math.sqrt(3.0)  # along the ridge
    cap = Capsule(tuple(centre - 0.2 * d), tuple(centre + 0.2 * d), 0.4)
    c = contact(cap, peak)
    assert c is not None
    assert c.depth == pytest.approx(0.1, abs=1e-12)
    assert_vec(c.normal, tuple(out))


def test_a_segment_capsule_of_radius_zero() -> None:
    """Radius 0: the bare segment. Apart: no contact, the exact gap; through the floor: the
    push that takes its lower end up to it."""
    floor = floor_xy()
    seg = Capsule((1.0, 1.0, 0.3), (3.0, 2.0, 0.7), 0.0)
    assert contact(seg, floor) is None
    assert distance(seg, floor) == pytest.approx(0.3, abs=1e-15)
    through = contact(Capsule((1.0, 1.0, -0.3), (3.0, 2.0, 0.7), 0.0), floor)
    assert through is not None and tuple(through.normal) == Z
    assert through.depth == pytest.approx(0.3, abs=1e-15)
    touching = contact(Capsule((1.0, 1.0, 0.0), (3.0, 2.0, 0.7), 0.0), floor)
    assert touching is not None and touching.depth == 0.0


def test_oriented_box_and_hull_sweeps_land_on_a_mesh_floor() -> None:
    floor = floor_xy(4)
    rot = np.array([[math.cos(0.3), -math.sin(0.3), 0.0], [math.sin(0.3), math.cos(0.3), 0.0],
                    [0.0, 0.0, 1.0]])
    box = OrientedBox((2.0, 2.0, 1.5), (0.5, 0.5, 0.5), rot)  # turned about z: bottom at 1
    from swept import sweep

    hit = sweep(box, (0.0, 0.0, -2.0), floor)
    assert hit is not None and hit.fraction == pytest.approx(0.5, abs=1e-8)
    assert tuple(hit.normal) == Z
    hull = ConvexHull([(1, 1, 1), (2, 1, 1), (1, 2, 1), (1.5, 1.5, 2)])
    hit = sweep(hull, (0.0, 0.0, -4.0), floor)
    assert hit is not None and hit.fraction == pytest.approx(0.25, abs=1e-8)
    assert tuple(hit.normal) == Z


def test_a_box_touching_a_crease_at_the_start_gets_the_face_its_motion_heads_into() -> None:
    """A box touching, within the target distance, both a floor and a steep face beside it
    (listed first): the sweep at 0 answers the face the motion heads into most. The smaller
    index answered a floor probe with the steep face (a box character lost its floor)."""
    from swept import sweep

    crease = TriangleMesh([(4, 0, 0), (4, 0, 4), (5, 2, 4), (5, 2, 0), (0, 0, 0), (0, 0, 4)],
                          [(0, 1, 2), (0, 2, 3), (4, 5, 1), (4, 1, 0)])
    assert crease.normals[0][0] < -0.5 and tuple(crease.normals[2]) == (0.0, 1.0, 0.0)
    box = AABB((3.0, 2e-4, 1.0), (4.0 + 1e-4, 1.0, 2.0))  # its corner a hair into the face
    down = sweep(box, (0.0, -1.0, 0.0), crease, target_distance=1e-3)
    assert down is not None and down.fraction == 0.0
    assert tuple(down.normal) == (0.0, 1.0, 0.0)
    side = sweep(box, (1.0, 0.0, 0.0), crease, target_distance=1e-3)
    assert side is not None and side.fraction == 0.0 and side.normal[0] < -0.5
