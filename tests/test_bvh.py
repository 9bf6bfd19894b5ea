"""BVH broadphase: every query equals brute force over all boxes, in 2D and 3D.

The brute-force references below are written in numpy, independently of the tree: the
overlap and containment tests as array comparisons, the ray slab test as the same IEEE
operations in the same order (so entry distances agree bit for bit) and checked itself
against exact rational arithmetic. A tree is the packed pair ``(nodes, links)``;
:func:`unpack` reads it back into per-node columns for the layout checks.
"""

from __future__ import annotations

import math
from collections.abc import Callable
from fractions import Fraction

import numba
import numpy as np
import pytest
from hypothesis import given
from hypothesis import strategies as st

from swept._kernels import bvh
from swept._kernels.bvh import (
    EMPTY_HI,
    EMPTY_LO,
    LEAF_SIZE,
    MAX_DEPTH,
    NO_TREE,
    SPLIT_MEDIAN,
    SPLIT_SAH,
    STACK_SIZE,
    Probe,
    TreeAt,
    box_entry,
    box_gather,
    box_rows,
    build,
    build_with,
    inverse_direction,
    make_probe,
    query_aabb,
    query_point,
    ray_box_entry2,
    ray_box_entry3,
    ray_candidates_ordered,
    ray_closest_boxes,
    ray_closest_boxes_many,
    ray_first_leaf,
    ray_next_leaf,
    refit,
    tree_depth,
    whole,
)

INF = math.inf

#: A whole tree as :func:`build` returns it: ``(nodes, links)``.
Tree = tuple[np.ndarray, np.ndarray]


# ---------------------------------------------------------------------------------------------
# brute-force references


def brute_aabb(lo: np.ndarray, hi: np.ndarray, qlo: np.ndarray, qhi: np.ndarray) -> set[int]:
    """Indices of the boxes that overlap or touch [qlo, qhi] (neither of them empty)."""
    if np.any(qlo > qhi):
        return set()
    hit = np.all(lo <= qhi, axis=1) & np.all(hi >= qlo, axis=1) & np.all(lo <= hi, axis=1)
    return set(np.nonzero(hit)[0].tolist())


def brute_entries(lo: np.ndarray, hi: np.ndarray, origin: np.ndarray, direction: np.ndarray,
                  tmax: float) -> np.ndarray:
    """Every box's entry t along the ray segment [0, tmax] (inf on a miss), in numpy."""
    n, d = lo.shape
    t0 = np.zeros(n)
    t1 = np.full(n, tmax)
    miss = np.zeros(n, bool)
    for a in range(d):
        inv = inverse_direction(float(direction[a]))
        if math.isinf(inv):
            # parallel: inside the slab or never
            miss |= (origin[a] < lo[:, a]) | (origin[a] > hi[:, a])
            continue
        if inv >= 0.0:
            near = (lo[:, a] - origin[a]) * inv
            far = (hi[:, a] - origin[a]) * inv
        else:
            near = (hi[:, a] - origin[a]) * inv
            far = (lo[:, a] - origin[a]) * inv
        t0 = np.where(near > t0, near, t0)
        t1 = np.where(far < t1, far, t1)
    return np.where(~miss & (t0 <= t1), t0, INF)


def brute_closest(lo: np.ndarray, hi: np.ndarray, origin: np.ndarray, direction: np.ndarray,
                  tmax: float) -> tuple[int, float]:
    """The first box touched: smallest t, ties to the smallest index; (-1, inf) on a miss."""
    if lo.shape[0] == 0:
        return -1, INF
    t = brute_entries(lo, hi, origin, direction, tmax)
    best = float(t.min())
    if best == INF:
        return -1, INF
    return int(np.nonzero(t == best)[0][0]), best


# ---------------------------------------------------------------------------------------------
# calling the kernels


def aabb_ids(tree: Tree, boxes: np.ndarray, qlo: np.ndarray, qhi: np.ndarray) -> list[int]:
    """query_aabb with a buffer grown until it holds every match."""
    out = np.empty(4, np.int64)
    count = query_aabb(*tree, boxes, qlo, qhi, out)
    if count > out.shape[0]:
        out = np.empty(count, np.int64)
        assert query_aabb(*tree, boxes, qlo, qhi, out) == count
    return out[:count].tolist()


def point_ids(tree: Tree, boxes: np.ndarray, point: np.ndarray) -> list[int]:
    """query_point with a buffer large enough for every box."""
    out = np.empty(max(1, boxes.shape[0]), np.int64)
    count = query_point(*tree, boxes, point, out)
    return out[:count].tolist()


def candidate_ids(tree: Tree, boxes: np.ndarray, origin: np.ndarray, direction: np.ndarray,
                  tmax: float) -> list[int]:
    """ray_candidates_ordered with a buffer large enough for every box."""
    out = np.empty(max(1, boxes.shape[0]), np.int64)
    count = ray_candidates_ordered(*tree, boxes, origin, direction, tmax,
                                   np.empty((STACK_SIZE, 2)), out)
    return out[:count].tolist()


def rows_view(boxes: np.ndarray) -> np.ndarray:
    """``boxes`` as the World passes them to ``refit``: columns of a wider array (a
    non-contiguous view, numba's 'A' layout; a C-contiguous array would compile ``refit``
    once more)."""
    wide = np.zeros((boxes.shape[0], 2 * boxes.shape[1]))
    # every other column: not contiguous even for one row (numpy calls a one-row slice of
    # adjacent columns C-contiguous)
    wide[:, ::2] = boxes
    return wide[:, ::2]


def refit_whole(tree: Tree, lo: np.ndarray, hi: np.ndarray) -> None:
    """refit a whole tree to the boxes [lo, hi]."""
    nodes, links = tree
    refit(nodes, links, whole(nodes, lo.shape[1]), rows_view(box_rows(lo, hi)))


def check_every_query(tree: Tree, lo: np.ndarray, hi: np.ndarray,
                      queries: list[tuple[np.ndarray, np.ndarray]],
                      rays: list[tuple[np.ndarray, np.ndarray, float]]) -> None:
    """Box, point and ray queries on the tree equal brute force."""
    boxes = box_rows(lo, hi)
    for qlo, qhi in queries:
        ids = aabb_ids(tree, boxes, qlo, qhi)
        assert len(ids) == len(set(ids))
        assert set(ids) == brute_aabb(lo, hi, qlo, qhi)
        ids = point_ids(tree, boxes, qlo)
        assert len(ids) == len(set(ids))
        assert set(ids) == brute_aabb(lo, hi, qlo, qlo)
    for origin, direction, tmax in rays:
        entries = brute_entries(lo, hi, origin, direction, tmax)
        ids = candidate_ids(tree, boxes, origin, direction, tmax)
        assert len(ids) == len(set(ids))
        assert set(ids) == set(np.nonzero(entries < INF)[0].tolist())
        index, t = ray_closest_boxes(*tree, boxes, origin, direction, tmax)
        assert (index, t) == brute_closest(lo, hi, origin, direction, tmax)


# ---------------------------------------------------------------------------------------------
# the layout


def unpack(tree: Tree, d: int) -> tuple[np.ndarray, np.ndarray, np.ndarray, np.ndarray,
                                         np.ndarray, np.ndarray]:
    """A whole packed tree as ``(node_lo, node_hi, child, start, count, order)``: node boxes
    (m, d) each, then the per-node link columns and the items, as views."""
    nodes, links = tree
    m = nodes.shape[0]
    triples = links[:3 * m].reshape(m, 3)
    return (nodes[:, :d], nodes[:, 3:3 + d], triples[:, 0], triples[:, 1], triples[:, 2],
            links[3 * m:])


def node_depths(child: np.ndarray) -> np.ndarray:
    """Every node's depth (root 0), from the child column alone."""
    depth = np.zeros(child.shape[0], int)
    for k in range(child.shape[0]):
        if child[k] >= 0:
            depth[child[k]] = depth[child[k] + 1] = depth[k] + 1
    return depth


def check_tree_layout(tree: Tree, lo: np.ndarray, hi: np.ndarray) -> None:
    """The documented layout: nodes (m, 6) with z 0 in 2D, links (3 m + n,); a permutation,
    contiguous subtree ranges, small leaves, children after their parent, each node's box the
    exact union of its primitives' boxes; the depth within MAX_DEPTH."""
    nodes, links = tree
    n, d = lo.shape
    m = nodes.shape[0]
    assert nodes.dtype == np.float64 and nodes.shape == (m, 6)
    assert links.dtype == np.int64 and links.shape == (3 * m + n,)
    if d == 2:
        assert np.all(nodes[:, 2] == 0.0) and np.all(nodes[:, 5] == 0.0)
    node_lo, node_hi, node_child, node_start, node_count, order = unpack(tree, d)
    assert sorted(order.tolist()) == list(range(n))
    if n == 0:
        assert m == 0
        assert tree_depth(nodes, links) == 0
        return
    assert m <= 2 * n - 1
    assert node_start[0] == 0 and node_count[0] == n
    seen = np.zeros(m, int)
    seen[0] = 1
    for k in range(m):
        s, c = node_start[k], node_count[k]
        ids = order[s:s + c]
        with np.errstate(invalid="ignore"):
            assert np.array_equal(node_lo[k], np.min(lo[ids], axis=0))
            assert np.array_equal(node_hi[k], np.max(hi[ids], axis=0))
        child = node_child[k]
        if child < 0:
            assert child == -1
            assert 1 <= c <= LEAF_SIZE
            continue
        assert child > k and child + 1 < m
        seen[child] += 1
        seen[child + 1] += 1
        assert node_start[child] == s
        assert node_start[child + 1] == s + node_count[child]
        assert node_count[child] >= 1 and node_count[child + 1] >= 1
        assert node_count[child] + node_count[child + 1] == c
    assert np.all(seen == 1)
    depth = int(node_depths(node_child).max())
    assert tree_depth(nodes, links) == depth <= MAX_DEPTH


def leaves_below(child: np.ndarray, k: int) -> list[int]:
    """The leaves of node k's subtree."""
    pending, found = [k], []
    for _ in range(child.shape[0]):
        if not pending:
            break
        node = pending.pop()
        if child[node] < 0:
            found.append(node)
        else:
            pending += [child[node], child[node] + 1]
    return found


# ---------------------------------------------------------------------------------------------
# walking the leaves


def probe_of(origin: np.ndarray, direction: np.ndarray, radius: float) -> Probe:
    """make_probe for a 2D or 3D ray."""
    d = origin.shape[0]
    return make_probe(origin[0], origin[1], origin[d - 1], direction[0], direction[1],
                      direction[d - 1], radius, d)


def ray_leaves(tree: Tree, at: TreeAt, probe: Probe, limit: float,
               shrink: Callable[[int, float], float] | None = None) -> list[tuple[int, float]]:
    """The leaves ray_first_leaf / ray_next_leaf hand out, with the limit in force when each
    was handed out; ``shrink(leaf, limit)`` gives the limit for the rest of the walk. ``tree``
    is the pair of arrays that holds the tree ``at``."""
    nodes, links = tree
    stack = np.full((STACK_SIZE, 2), np.nan)
    walk = []
    leaf, sp = ray_first_leaf(nodes, links, at, stack, probe, limit)
    for _ in range(at[1] + 1):
        if leaf < 0:
            break
        assert 0 <= sp < STACK_SIZE
        walk.append((leaf, limit))
        if shrink is not None:
            limit = shrink(leaf, limit)
        leaf, sp = ray_next_leaf(nodes, links, at, stack, sp, probe, limit)
    assert leaf == -1
    return walk


def box_items(tree: Tree, at: TreeAt, boxes: np.ndarray, qlo: np.ndarray, qhi: np.ndarray,
              then: TreeAt = NO_TREE) -> list[int]:
    """The items box_gather lists for the query box [qlo, qhi] (tree ``at``, then ``then``),
    checking that it writes only its row of the output."""
    nodes, links = tree
    d = qlo.shape[0]
    query = np.zeros(6)
    query[:d], query[3:3 + d] = qlo, qhi
    out = np.full((3, boxes.shape[0] + 1), -1, np.int64)
    count = box_gather(nodes, links, at, then, np.full(STACK_SIZE, -7, np.int64), query, boxes,
                       0, out, 1, 0)
    assert 0 <= count <= boxes.shape[0]
    assert np.all(out[0] == -1) and np.all(out[2] == -1) and np.all(out[1, count:] == -1)
    return [int(p) for p in out[1, :count]]


# ---------------------------------------------------------------------------------------------
# scenes


def random_scene(rng: np.random.Generator, n: int, d: int, *, unbounded: bool = False
                 ) -> tuple[np.ndarray, np.ndarray]:
    """n boxes in about [-100, 100]^d: most ordinary, some points, duplicates, huge and tiny
    boxes, and with ``unbounded`` some half-infinite, infinite strips and empty ones."""
    center = rng.uniform(-100.0, 100.0, (n, d))
    half = rng.exponential(5.0, (n, d))
    kind = rng.integers(0, 20, n)
    half[kind == 0] = 0.0  # points
    half[kind == 1] *= 1e-9  # tiny
    for i in np.nonzero(kind == 2)[0][:3]:
        # a few huge ones, each with a face crossing the scene (so rays meet it from outside)
        half[i] = 1e4
        center[i, rng.integers(0, d)] += rng.choice([-1e4, 1e4])
    lo = center - half
    hi = center + half
    for i in np.nonzero(kind == 3)[0]:
        if i > 0:
            # a duplicate of an earlier box
            j = rng.integers(0, i)
            lo[i] = lo[j]
            hi[i] = hi[j]
    if unbounded:
        for i in np.nonzero(kind == 4)[0]:
            axis = rng.integers(0, d)
            lo[i, axis] = -INF  # a half-infinite slab, like a half-plane's box
        for i in np.nonzero(kind == 5)[0]:
            axis = rng.integers(0, d)
            lo[i, axis] = -INF  # an infinite strip, like a line's box
            hi[i, axis] = INF
        for i in np.nonzero(kind == 6)[0]:
            lo[i] = EMPTY_LO  # a removed collider
            hi[i] = EMPTY_HI
    return np.ascontiguousarray(lo), np.ascontiguousarray(hi)


def random_queries(rng: np.random.Generator, lo: np.ndarray, hi: np.ndarray, count: int
                   ) -> list[tuple[np.ndarray, np.ndarray]]:
    """Query boxes: random ones, and some exactly on a box's corner or face (touching)."""
    d = lo.shape[1]
    queries = []
    for q in range(count):
        c = rng.uniform(-120.0, 120.0, d)
        h = rng.exponential(10.0, d) if q % 4 else np.zeros(d)
        qlo, qhi = c - h, c + h
        finite = np.nonzero(np.all(np.isfinite(lo) & np.isfinite(hi), axis=1))[0]
        if q % 3 == 0 and finite.size:
            # a query box starting exactly at some box's upper corner
            i = finite[rng.integers(0, finite.size)]
            qlo = hi[i].copy()
            qhi = qlo + rng.exponential(10.0, d)
        queries.append((np.ascontiguousarray(qlo), np.ascontiguousarray(qhi)))
    return queries


def random_rays(rng: np.random.Generator, lo: np.ndarray, hi: np.ndarray, count: int
                ) -> list[tuple[np.ndarray, np.ndarray, float]]:
    """Rays: random unit directions, axis-aligned ones grazing box faces, zero components,
    unlimited, short and zero-length segments."""
    d = lo.shape[1]
    rays = []
    finite = np.nonzero(np.all(np.isfinite(lo) & np.isfinite(hi), axis=1))[0]
    for r in range(count):
        origin: np.ndarray = np.asarray(rng.uniform(-150.0, 150.0, d))
        direction: np.ndarray = np.asarray(rng.normal(size=d))
        direction /= np.linalg.norm(direction)
        if r % 5 == 1:
            # axis-aligned: one component, the others exactly zero
            direction = np.zeros(d)
            direction[rng.integers(0, d)] = rng.choice([-1.0, 1.0])
            if finite.size:
                # sliding along a face of some box
                i = finite[rng.integers(0, finite.size)]
                origin[direction == 0.0] = hi[i][direction == 0.0]
        tmax = [INF, 50.0, 0.0, float(rng.uniform(0.0, 300.0))][r % 4]
        rays.append((np.ascontiguousarray(origin), np.ascontiguousarray(direction), tmax))
    return rays


# hypothesis: small scenes on an integer grid, so that touching, grazing and ties abound

coordinate = st.integers(-6, 6).map(float)
ray_component = st.sampled_from([-2.0, -1.0, -0.5, 0.0, 0.5, 1.0, 2.0])


@st.composite
def grid_scene(draw: st.DrawFn, d: int) -> tuple[np.ndarray, np.ndarray]:
    """Up to 40 boxes with integer corners (points, duplicates, unbounded and empty ones too)."""
    n = draw(st.integers(0, 40))
    lo = np.empty((n, d))
    hi = np.empty((n, d))
    for i in range(n):
        kind = draw(st.sampled_from(["box", "box", "box", "point", "dup", "halfinf", "empty"]))
        a = np.array([draw(coordinate) for _ in range(d)])
        b = np.array([draw(coordinate) for _ in range(d)])
        lo[i], hi[i] = np.minimum(a, b), np.maximum(a, b)
        if kind == "point":
            hi[i] = lo[i]
        elif kind == "dup" and i > 0:
            j = draw(st.integers(0, i - 1))
            lo[i], hi[i] = lo[j], hi[j]
        elif kind == "halfinf":
            lo[i, draw(st.integers(0, d - 1))] = -INF
        elif kind == "empty":
            lo[i], hi[i] = EMPTY_LO, EMPTY_HI
    return lo, hi


@st.composite
def grid_ray(draw: st.DrawFn, d: int) -> tuple[np.ndarray, np.ndarray, float]:
    """A ray from an integer point with a dyadic direction (zero components included)."""
    origin = np.array([draw(coordinate) for _ in range(d)])
    direction = np.array([draw(ray_component) for _ in range(d)])
    tmax = draw(st.sampled_from([INF, 0.0, 1.0, 2.5, 4.0, 10.0]))
    return origin, direction, tmax


@st.composite
def grid_box(draw: st.DrawFn, d: int) -> tuple[np.ndarray, np.ndarray]:
    """A query box with integer corners (possibly a point)."""
    a = np.array([draw(coordinate) for _ in range(d)])
    b = np.array([draw(coordinate) for _ in range(d)])
    return np.minimum(a, b), np.maximum(a, b)


# ---------------------------------------------------------------------------------------------
# the slab test


def test_inverse_direction_treats_zero_and_subnormal_components_as_parallel() -> None:
    assert inverse_direction(0.0) == INF
    assert inverse_direction(-0.0) == INF
    assert inverse_direction(1e-310) == INF
    assert inverse_direction(-4.0) == -0.25
    assert inverse_direction(0.5) == 2.0


def test_ray_box_entry2_cases() -> None:
    box = (2.0, -1.0, 4.0, 1.0)  # [2, 4] x [-1, 1]
    right = (inverse_direction(1.0), inverse_direction(0.0))
    # hit from outside, through the x = 2 face
    assert ray_box_entry2(0.0, 0.0, *right, INF, *box) == 2.0
    # origin inside, and origin on the face: t = 0
    assert ray_box_entry2(3.0, 0.0, *right, INF, *box) == 0.0
    assert ray_box_entry2(2.0, 0.0, *right, INF, *box) == 0.0
    # box behind the ray
    assert ray_box_entry2(5.0, 0.0, *right, INF, *box) == INF
    # segment ends just short of the box, and exactly on it (touching counts)
    assert ray_box_entry2(0.0, 0.0, *right, 1.999, *box) == INF
    assert ray_box_entry2(0.0, 0.0, *right, 2.0, *box) == 2.0
    # parallel, sliding along the top face (grazing counts), and just outside it
    assert ray_box_entry2(0.0, 1.0, *right, INF, *box) == 2.0
    assert ray_box_entry2(0.0, 1.0 + 1e-12, *right, INF, *box) == INF
    # leaving the box backwards from inside: still 0
    assert ray_box_entry2(3.0, 0.0, -1.0, INF, INF, *box) == 0.0
    # diagonal ray through the corner (2, 1) exactly
    inv = inverse_direction(1.0)
    assert ray_box_entry2(1.0, 2.0, inv, -inv, INF, *box) == 1.0
    # zero direction: inside only
    zero = (inverse_direction(0.0), inverse_direction(0.0))
    assert ray_box_entry2(3.0, 1.0, *zero, INF, *box) == 0.0
    assert ray_box_entry2(1.0, 0.0, *zero, INF, *box) == INF
    # negative tmax: an empty segment
    assert ray_box_entry2(3.0, 0.0, *right, -1.0, *box) == INF
    # unbounded and empty boxes
    assert ray_box_entry2(0.0, 0.0, *right, INF, 5.0, -INF, INF, INF) == 5.0
    assert ray_box_entry2(0.0, 0.0, *right, INF, -INF, -INF, INF, INF) == 0.0
    assert ray_box_entry2(0.0, 0.0, *right, INF, EMPTY_LO, EMPTY_LO, EMPTY_HI, EMPTY_HI) == INF
    assert ray_box_entry2(0.0, 0.0, *zero, INF, EMPTY_LO, EMPTY_LO, EMPTY_HI, EMPTY_HI) == INF


def test_ray_box_entry3_cases() -> None:
    box = (1.0, 1.0, 1.0, 2.0, 2.0, 2.0)
    inv = inverse_direction(1.0)
    # along the main diagonal into the corner (1, 1, 1)
    assert ray_box_entry3(0.0, 0.0, 0.0, inv, inv, inv, INF, *box) == 1.0
    # along +z, sliding on the edge x = 1, y = 2
    assert ray_box_entry3(1.0, 2.0, 0.0, INF, INF, inv, INF, *box) == 1.0
    assert ray_box_entry3(1.0, 2.5, 0.0, INF, INF, inv, INF, *box) == INF
    # inside
    assert ray_box_entry3(1.5, 1.5, 1.5, -inv, INF, INF, 0.0, *box) == 0.0
    # ending before the box
    assert ray_box_entry3(0.0, 1.5, 1.5, inv, INF, INF, 0.5, *box) == INF
    assert ray_box_entry3(0.0, 1.5, 1.5, inv, INF, INF, INF, EMPTY_LO, EMPTY_LO, EMPTY_LO,
                          EMPTY_HI, EMPTY_HI, EMPTY_HI) == INF


def exact_entry(origin: np.ndarray, direction: np.ndarray, tmax: float, lo: np.ndarray,
                hi: np.ndarray) -> float:
    """The entry t of a ray segment into a box in exact rational arithmetic."""
    t0 = Fraction(0)
    t1: Fraction | None = None if tmax == INF else Fraction(tmax)
    for a in range(len(origin)):
        o = Fraction(origin[a])
        if direction[a] == 0.0:
            if o < lo[a] or o > hi[a]:
                return INF
            continue
        da = Fraction(direction[a])
        ta = (Fraction(lo[a]) - o) / da
        tb = (Fraction(hi[a]) - o) / da
        near, far = min(ta, tb), max(ta, tb)
        t0 = max(t0, near)
        t1 = far if t1 is None else min(t1, far)
    if t1 is not None and t0 > t1:
        return INF
    return float(t0)


@given(grid_box(2), grid_ray(2))
def test_ray_box_entry2_equals_exact_arithmetic(box: tuple[np.ndarray, np.ndarray],
                                                ray: tuple[np.ndarray, np.ndarray, float]
                                                ) -> None:
    (lo, hi), (o, d, tmax) = box, ray
    inv = [inverse_direction(float(c)) for c in d]
    got = ray_box_entry2(o[0], o[1], inv[0], inv[1], tmax, lo[0], lo[1], hi[0], hi[1])
    assert got == exact_entry(o, d, tmax, lo, hi)


@given(grid_box(3), grid_ray(3))
def test_ray_box_entry3_equals_exact_arithmetic(box: tuple[np.ndarray, np.ndarray],
                                                ray: tuple[np.ndarray, np.ndarray, float]
                                                ) -> None:
    (lo, hi), (o, d, tmax) = box, ray
    inv = [inverse_direction(float(c)) for c in d]
    got = ray_box_entry3(o[0], o[1], o[2], inv[0], inv[1], inv[2], tmax, lo[0], lo[1], lo[2],
                         hi[0], hi[1], hi[2])
    assert got == exact_entry(o, d, tmax, lo, hi)


def test_lean_probe_box_entry_equals_the_general_slab_test_bit_for_bit() -> None:
    # A 2D ray of no radius with finite inverses takes the lean slab test (its sides picked by
    # selects, no radius added): it must give the general test's very bits, signed zeros,
    # faces, corners, unbounded and empty boxes included, or a tree walk would change.
    rng = np.random.default_rng(11)
    values = [0.0, -0.0, 1.0, -1.0, 2.5, -3.0, INF, -INF]
    boxes = [(a, b, c, d) for a in values for b in values for c in values for d in values
             if a <= c and b <= d]
    boxes += [(EMPTY_LO, EMPTY_LO, EMPTY_HI, EMPTY_HI)]
    lo = rng.uniform(-4.0, 4.0, (200, 2))
    boxes += [(x, y, x + w, y + h) for (x, y), (w, h) in zip(lo, rng.uniform(0.0, 3.0, (200, 2)))]
    rows = np.array([(b[0], b[1], 0.0, b[2], b[3], 0.0) for b in boxes])
    origins = [(0.0, 0.0), (-0.0, -0.0), (1.0, -1.0), (2.5, 0.0), (-3.0, 2.5)]
    origins += [tuple(p) for p in rng.uniform(-5.0, 5.0, (8, 2))]
    directions = [(1.0, 1.0), (-1.0, 1.0), (1.0, -0.5), (-2.0, -3.0)]
    directions += [tuple(v) for v in rng.normal(size=(8, 2))]
    for ox, oy in origins:
        for dx, dy in directions:
            general = make_probe(ox, oy, 0.0, dx, dy, 0.0, 0.0, 2)
            lean = bvh.lean_probe(general)
            assert lean[7] == bvh.PROBE_LEAN2 and lean[:7] == general[:7]
            for limit in (INF, 2.5, 0.0):
                for k in range(rows.shape[0]):
                    a = box_entry(rows, k, lean, limit)
                    b = box_entry(rows, k, general, limit)
                    assert np.float64(a).tobytes() == np.float64(b).tobytes(), (ox, oy, dx, dy,
                                                                                limit, boxes[k])
    # a radius, a direction along an axis, or 3D keeps the general test
    for args in ((1.0, 1.0, 0.0, 0.5, 2), (1.0, 0.0, 0.0, 0.0, 2), (0.0, -1.0, 0.0, 0.0, 2),
                 (1.0, 1.0, 1.0, 0.0, 3)):
        probe = make_probe(0.0, 0.0, 0.0, *args)
        assert bvh.lean_probe(probe) == probe


def test_numpy_reference_slab_test_matches_the_kernel() -> None:
    rng = np.random.default_rng(7)
    lo, hi = random_scene(rng, 300, 2, unbounded=True)
    for origin, direction, tmax in random_rays(rng, lo, hi, 40):
        inv = [inverse_direction(float(c)) for c in direction]
        kernel_t = [ray_box_entry2(origin[0], origin[1], inv[0], inv[1], tmax, *lo[i], *hi[i])
                    for i in range(lo.shape[0])]
        assert np.array_equal(brute_entries(lo, hi, origin, direction, tmax), kernel_t)


# ---------------------------------------------------------------------------------------------
# build


@pytest.mark.parametrize("d", [2, 3])
def test_box_rows_packs_the_columns_with_z_zero_in_2d(d: int) -> None:
    lo, hi = random_scene(np.random.default_rng(40 + d), 30, d, unbounded=True)
    rows = box_rows(lo, hi)
    assert rows.dtype == np.float64 and rows.shape == (30, 6)
    assert np.array_equal(rows[:, :d], lo) and np.array_equal(rows[:, 3:3 + d], hi)
    assert np.all(rows[:, d:3] == 0.0) and np.all(rows[:, 3 + d:] == 0.0)
    assert box_rows(lo[:0], hi[:0]).shape == (0, 6)


@pytest.mark.parametrize("d", [2, 3])
def test_whole_addresses_a_tree_that_fills_its_arrays(d: int) -> None:
    lo, hi = random_scene(np.random.default_rng(50 + d), 100, d)
    nodes, links = build(lo, hi)
    m = nodes.shape[0]
    assert whole(nodes, d) == (0, m, 0, 3 * m, d)
    # the items begin right after the last node's triple
    assert links.shape[0] == 3 * m + 100
    empty = build(lo[:0], hi[:0])[0]
    assert empty.shape == (0, 6)
    assert whole(empty, d) == (0, 0, 0, 0, d)


@pytest.mark.parametrize("d", [2, 3])
def test_empty_scene_has_no_nodes_and_every_query_misses(d: int) -> None:
    lo = np.empty((0, d))
    tree = build(lo, lo)
    check_tree_layout(tree, lo, lo)
    assert tree_depth(*tree) == 0
    boxes = box_rows(lo, lo)
    q = np.zeros(d)
    assert aabb_ids(tree, boxes, q - 1, q + 1) == []
    assert point_ids(tree, boxes, q) == []
    direction = np.eye(d)[0]
    assert candidate_ids(tree, boxes, q, direction, INF) == []
    assert ray_closest_boxes(*tree, boxes, q, direction, INF) == (-1, INF)
    at = whole(tree[0], d)
    assert ray_leaves(tree, at, probe_of(q, direction, 0.0), INF) == []
    assert box_items(tree, at, boxes, q - INF, q + INF) == []
    refit_whole(tree, lo, lo)


@pytest.mark.parametrize("d", [2, 3])
def test_single_box_is_one_leaf(d: int) -> None:
    lo = np.full((1, d), 1.0)
    hi = np.full((1, d), 2.0)
    tree = build(lo, hi)
    check_tree_layout(tree, lo, hi)
    assert tree[0].shape == (1, 6) and tree[1].tolist() == [-1, 0, 1, 0]
    boxes = box_rows(lo, hi)
    origin = np.zeros(d)
    direction = np.full(d, 1.0)
    assert ray_closest_boxes(*tree, boxes, origin, direction, INF) == (0, 1.0)
    assert point_ids(tree, boxes, np.full(d, 2.0)) == [0]
    assert point_ids(tree, boxes, np.full(d, 2.5)) == []


@pytest.mark.parametrize("d", [2, 3])
@pytest.mark.parametrize("split", [SPLIT_SAH, SPLIT_MEDIAN])
@pytest.mark.parametrize("n", [2, 5, 17, 300, 3000])
def test_tree_layout_invariants(d: int, split: int, n: int) -> None:
    lo, hi = random_scene(np.random.default_rng(n + d), n, d, unbounded=True)
    check_tree_layout(build_with(lo, hi, split), lo, hi)


@pytest.mark.parametrize("d", [2, 3])
def test_build_is_deterministic(d: int) -> None:
    lo, hi = random_scene(np.random.default_rng(3), 2000, d, unbounded=True)
    first = build(lo, hi)
    second = build(lo.copy(), hi.copy())
    for a, b in zip(first, second):
        assert a.dtype == b.dtype and a.shape == b.shape
        assert a.tobytes() == b.tobytes()


@pytest.mark.parametrize("d", [2, 3])
def test_a_box_filling_all_space_is_hit_at_zero_by_every_ray(d: int) -> None:
    rng = np.random.default_rng(30 + d)
    lo, hi = random_scene(rng, 200, d, unbounded=True)
    lo[150], hi[150] = -INF, INF
    tree = build(lo, hi)
    check_tree_layout(tree, lo, hi)
    assert np.all(tree[0][0, :d] == -INF) and np.all(tree[0][0, 3:3 + d] == INF)
    rays = random_rays(rng, lo, hi, 30)
    check_every_query(tree, lo, hi, random_queries(rng, lo, hi, 10), rays)
    boxes = box_rows(lo, hi)
    for origin, direction, tmax in rays:
        index, t = ray_closest_boxes(*tree, boxes, origin, direction, tmax)
        assert t == 0.0 and index <= 150


def test_an_empty_query_box_finds_nothing() -> None:
    lo, hi = random_scene(np.random.default_rng(8), 100, 2)
    tree = build(lo, hi)
    boxes = box_rows(lo, hi)
    out = np.empty(100, np.int64)
    assert query_aabb(*tree, boxes, np.array([1.0, -INF]), np.array([0.0, INF]), out) == 0
    assert query_aabb(*tree, boxes, np.array([INF, INF]), np.array([-INF, -INF]), out) == 0


def test_all_boxes_identical_still_split_into_small_leaves() -> None:
    # every centroid coincides: no SAH plane exists, the median split takes over
    lo = np.zeros((100, 2))
    hi = np.ones((100, 2))
    tree = build(lo, hi)
    check_tree_layout(tree, lo, hi)
    assert ray_closest_boxes(*tree, box_rows(lo, hi), np.array([-1.0, 0.5]),
                             np.array([1.0, 0.0]), INF) == (0, 1.0)


def exponential_row(n: int) -> tuple[np.ndarray, np.ndarray]:
    """Unit boxes at x = 2^i: binned SAH would peel them off one per level."""
    x = 2.0 ** np.arange(n)
    lo = np.stack([x, np.zeros(n)], axis=1)
    hi = np.stack([x + 1.0, np.ones(n)], axis=1)
    return lo, hi


def test_depth_stays_bounded_where_sah_would_make_a_chain() -> None:
    lo, hi = exponential_row(400)
    tree = build(lo, hi)
    check_tree_layout(tree, lo, hi)
    depth = tree_depth(*tree)
    # SAH went deep (a chain), and the median fallback stopped it at the cap
    assert 40 < depth <= MAX_DEPTH
    median_depth = tree_depth(*build_with(lo, hi, SPLIT_MEDIAN))
    assert median_depth == math.ceil(math.log2(400 / LEAF_SIZE))
    rng = np.random.default_rng(5)
    rays = [(np.array([-1.0, 0.5]), np.array([1.0, 0.0]), INF),
            (np.array([2.0 ** 399 + 5, 0.5]), np.array([-1.0, 0.0]), INF)]
    rays += random_rays(rng, lo, hi, 20)
    check_every_query(tree, lo, hi, random_queries(rng, lo, hi, 10), rays)


def checked(fn: Callable[..., object]) -> Callable[..., object]:
    """``fn`` (a kernel, or a plain function) compiled from its Python source with bounds
    checking; helpers it inlines (the inline_kernel traversal steps) are checked too, as
    their IR becomes its own."""
    compiled: Callable[..., object] = numba.njit(boundscheck=True)(getattr(fn, "py_func", fn))
    return compiled


def walk_every_leaf(nodes: np.ndarray, links: np.ndarray, at: TreeAt, stack: np.ndarray,
                    probe: Probe) -> int:
    """How many leaves the ray walk hands out (compiled by the test)."""
    rays = 0
    leaf, sp = ray_first_leaf(nodes, links, at, stack, probe, math.inf)
    for _ in range(at[1]):
        if leaf < 0:
            break
        rays += 1
        leaf, sp = ray_next_leaf(nodes, links, at, stack, sp, probe, math.inf)
    return rays


def test_stacks_never_overflow_on_the_deepest_tree() -> None:
    """Recompile the traversals with bounds checking and drive them down the deepest tree.

    Numba does not check indices by default, so a stack sized too small would write past its
    end silently; with ``boundscheck=True`` the same code raises IndexError instead (shown
    here with a stack of ``tree_depth`` rows, one short of what the box walk needs: its
    deepest internal node is popped with a sibling waiting from every level above it, then
    pushes two children). A query box over everything makes the box walk hold a sibling at
    every level; a ray along the row makes the ray walk put one aside at every level.
    """
    lo, hi = exponential_row(400)
    tree = build(lo, hi)
    boxes = box_rows(lo, hi)
    assert tree_depth(*tree) >= MAX_DEPTH - 2
    at = whole(tree[0], 2)
    everything = np.array([-INF, -INF, -INF, INF, INF, INF])
    leaves = int(np.count_nonzero(unpack(tree, 2)[2] < 0))
    walk = checked(walk_every_leaf)
    for x, dx in ((-1.0, 1.0), (2.0 ** 400, -1.0)):
        probe = probe_of(np.array([x, 0.5]), np.array([dx, 0.0]), 0.0)
        assert walk(*tree, at, np.empty((STACK_SIZE, 2)), probe) == leaves
    gather = checked(box_gather)
    listed = np.empty((1, 400), np.int64)
    assert gather(*tree, at, NO_TREE, np.empty(STACK_SIZE, np.int64), everything, boxes, 0,
                  listed, 0, 0) == 400
    with pytest.raises(IndexError):
        gather(*tree, at, NO_TREE, np.empty(tree_depth(*tree), np.int64), everything, boxes, 0,
               listed, 0, 0)
    out = np.empty(400, np.int64)
    assert checked(bvh.query_aabb)(*tree, boxes, everything[:2], everything[3:5], out) == 400
    closest_range = checked(bvh._closest_range)
    candidates = checked(bvh.ray_candidates_ordered)
    for x, dx in ((-1.0, 1.0), (2.0 ** 400, -1.0)):
        origins = np.array([[x, 0.5]])
        directions = np.array([[dx, 0.0]])
        index = np.empty(1, np.int64)
        t = np.empty(1)
        closest_range(*tree, boxes, origins, directions, np.array([INF]), 0, 1, index, t)
        assert (index[0], t[0]) == brute_closest(lo, hi, origins[0], directions[0], INF)
        count = candidates(*tree, boxes, origins[0], directions[0], INF,
                           np.empty((STACK_SIZE, 2)), out)
        assert count == 400


def sah_cost(tree: Tree) -> float:
    """Expected cost of a random ray: sum over nodes of perimeter / root perimeter, one unit
    per internal node (two box tests) and one per primitive in a leaf."""
    node_lo, node_hi, node_child, _, node_count, _ = unpack(tree, 2)
    perimeter = np.sum(node_hi - node_lo, axis=1)
    weight = np.where(node_child >= 0, 2.0, node_count)
    return float(np.sum(perimeter * weight) / perimeter[0])


def test_sah_tree_is_cheaper_than_median_on_thin_segments() -> None:
    rng = np.random.default_rng(11)
    a = rng.uniform(0.0, 1000.0, (5000, 2))
    angle = rng.uniform(0.0, 2.0 * np.pi, 5000)
    b = a + rng.uniform(5.0, 50.0, (5000, 1)) * np.stack([np.cos(angle), np.sin(angle)], 1)
    lo, hi = np.minimum(a, b), np.maximum(a, b)
    assert sah_cost(build_with(lo, hi, SPLIT_SAH)) < sah_cost(build_with(lo, hi, SPLIT_MEDIAN))


# ---------------------------------------------------------------------------------------------
# queries against brute force


@given(grid_scene(2), st.lists(grid_box(2), max_size=4), st.lists(grid_ray(2), max_size=6))
def test_small_2d_scenes_equal_brute_force(scene: tuple[np.ndarray, np.ndarray],
                                           queries: list[tuple[np.ndarray, np.ndarray]],
                                           rays: list[tuple[np.ndarray, np.ndarray, float]]
                                           ) -> None:
    lo, hi = scene
    for split in (SPLIT_SAH, SPLIT_MEDIAN):
        tree = build_with(lo, hi, split)
        check_tree_layout(tree, lo, hi)
        check_every_query(tree, lo, hi, queries, rays)


@given(grid_scene(3), st.lists(grid_box(3), max_size=4), st.lists(grid_ray(3), max_size=6))
def test_small_3d_scenes_equal_brute_force(scene: tuple[np.ndarray, np.ndarray],
                                           queries: list[tuple[np.ndarray, np.ndarray]],
                                           rays: list[tuple[np.ndarray, np.ndarray, float]]
                                           ) -> None:
    lo, hi = scene
    tree = build(lo, hi)
    check_tree_layout(tree, lo, hi)
    check_every_query(tree, lo, hi, queries, rays)


@given(grid_scene(2), st.lists(grid_ray(2), max_size=6))
def test_small_scenes_after_refit_equal_brute_force(scene: tuple[np.ndarray, np.ndarray],
                                                    rays: list[tuple[np.ndarray, np.ndarray,
                                                                     float]]) -> None:
    lo, hi = scene
    tree = build(lo, hi)
    # move every box by an integer step (some grow, some become empty): refit, same topology
    rng = np.random.default_rng(len(lo))
    step = rng.integers(-3, 4, lo.shape).astype(float)
    lo2 = lo + step
    hi2 = hi + step + rng.integers(0, 2, lo.shape)
    gone = rng.random(len(lo)) < 0.1
    lo2[gone], hi2[gone] = EMPTY_LO, EMPTY_HI
    links = tree[1].copy()
    refit_whole(tree, lo2, hi2)
    assert np.array_equal(tree[1], links)
    check_tree_layout(tree, lo2, hi2)
    check_every_query(tree, lo2, hi2, [(lo2[i], hi2[i]) for i in range(min(3, len(lo)))],
                      rays)


@pytest.mark.parametrize("d", [2, 3])
@pytest.mark.parametrize("n", [2, 17, 300, 3000])
def test_seeded_scenes_equal_brute_force(d: int, n: int) -> None:
    rng = np.random.default_rng(1000 * d + n)
    lo, hi = random_scene(rng, n, d, unbounded=n < 1000)
    tree = build(lo, hi)
    queries = random_queries(rng, lo, hi, 20)
    rays = random_rays(rng, lo, hi, 60)
    check_every_query(tree, lo, hi, queries, rays)
    # move every box a little, some far, then refit and ask again
    shift = rng.normal(0.0, 3.0, (n, d))
    shift[rng.random(n) < 0.05] *= 50.0
    lo2 = np.ascontiguousarray(lo + shift)
    hi2 = np.ascontiguousarray(hi + shift)
    refit_whole(tree, lo2, hi2)
    check_tree_layout(tree, lo2, hi2)
    check_every_query(tree, lo2, hi2, queries, rays)


def test_closest_ties_go_to_the_smallest_index() -> None:
    # boxes 1, 2 and 4 are duplicates; box 3 is entered at the same t through another face
    # shape; box 0 is farther. The ray meets 1, 2, 3, 4 all at t = 5.
    lo = np.array([[20.0, -1.0], [5.0, -1.0], [5.0, -1.0], [5.0, 0.0], [5.0, -1.0]])
    hi = np.array([[21.0, 1.0], [6.0, 1.0], [6.0, 1.0], [9.0, 3.0], [6.0, 1.0]])
    origin = np.array([0.0, 0.0])
    direction = np.array([1.0, 0.0])
    for perm in ([0, 1, 2, 3, 4], [4, 3, 2, 1, 0], [0, 4, 3, 2, 1]):
        # the same scene with the duplicates stored in another order
        boxes = box_rows(np.ascontiguousarray(lo[perm]), np.ascontiguousarray(hi[perm]))
        expected = min(perm.index(i) for i in (1, 2, 3, 4))
        for split in (SPLIT_SAH, SPLIT_MEDIAN):
            tree = build_with(np.ascontiguousarray(lo[perm]), np.ascontiguousarray(hi[perm]),
                              split)
            assert ray_closest_boxes(*tree, boxes, origin, direction, INF) == (expected, 5.0)
            # ending exactly at the tie still hits
            assert ray_closest_boxes(*tree, boxes, origin, direction, 5.0) == (expected, 5.0)


def leaf_of(tree: Tree) -> dict[int, int]:
    """The leaf node that holds each primitive."""
    _, _, node_child, node_start, node_count, order = unpack(tree, 2)
    return {int(p): int(k) for k in np.nonzero(node_child < 0)[0]
            for p in order[node_start[k]:node_start[k] + node_count[k]]}


@pytest.mark.parametrize("split", [SPLIT_SAH, SPLIT_MEDIAN])
def test_closest_ties_across_many_leaves_go_to_the_smallest_index(split: int) -> None:
    # 40 copies of one box, and 40 boxes entered at the same t through the same face plane,
    # shuffled among 120 others: the tied boxes fill many leaves, and whichever leaf the
    # traversal reaches first, the smallest tied index must win
    rng = np.random.default_rng(6)
    for trial in range(20):
        lo, hi = random_scene(rng, 200, 2)
        lo[:40], hi[:40] = np.array([10.0, -1.0]), np.array([11.0, 1.0])
        lo[40:80, 0] = 10.0
        lo[40:80, 1] = rng.uniform(-3.0, 0.0, 40)
        hi[40:80, 0] = rng.uniform(10.0, 30.0, 40)
        hi[40:80, 1] = lo[40:80, 1] + 3.0
        perm = rng.permutation(200)
        lo, hi = np.ascontiguousarray(lo[perm]), np.ascontiguousarray(hi[perm])
        tree = build_with(lo, hi, split)
        boxes = box_rows(lo, hi)
        origin = np.array([-500.0 if trial % 2 else 0.0, 0.0])
        direction = np.array([1.0, 0.0])
        expected = brute_closest(lo, hi, origin, direction, INF)
        assert ray_closest_boxes(*tree, boxes, origin, direction, INF) == expected
        assert ray_closest_boxes(*tree, boxes, origin, direction, expected[1]) == expected


def test_ray_candidates_come_front_to_back_along_a_row() -> None:
    # disjoint boxes in a row: node entry order is the boxes' own order along the ray, up to
    # the order of the few primitives within one leaf
    n = 64
    x = np.arange(n) * 3.0
    perm = np.random.default_rng(2).permutation(n)
    lo = np.ascontiguousarray(np.stack([x[perm], np.zeros(n)], axis=1))
    hi = np.ascontiguousarray(np.stack([x[perm] + 1.0, np.ones(n)], axis=1))
    tree = build(lo, hi)
    boxes = box_rows(lo, hi)
    leaf = leaf_of(tree)
    for start, step in ((-5.0, 1.0), (500.0, -1.0)):
        ids = candidate_ids(tree, boxes, np.array([start, 0.5]), np.array([step, 0.0]), INF)
        assert sorted(ids) == list(range(n))
        for a in range(n):
            for b in range(a + 1, n):
                # a box met later along the ray may come first only within the same leaf
                if (lo[ids[b], 0] - lo[ids[a], 0]) * step < 0:
                    assert leaf[ids[a]] == leaf[ids[b]]
        leaves = [leaf[i] for i in ids]
        # each leaf's primitives come together
        assert len([k for k in range(n) if k == 0 or leaves[k] != leaves[k - 1]]) == len(
            set(leaves))
    # a short buffer keeps the first ones
    forward = candidate_ids(tree, boxes, np.array([-5.0, 0.5]), np.array([1.0, 0.0]), INF)
    out = np.empty(5, np.int64)
    count = ray_candidates_ordered(*tree, boxes, np.array([-5.0, 0.5]), np.array([1.0, 0.0]),
                                   INF, np.empty((STACK_SIZE, 2)), out)
    assert count == n
    assert out.tolist() == forward[:5]


def test_query_buffers_that_are_too_small_report_the_full_count() -> None:
    rng = np.random.default_rng(4)
    lo, hi = random_scene(rng, 500, 2)
    tree = build(lo, hi)
    boxes = box_rows(lo, hi)
    qlo, qhi = np.array([-60.0, -60.0]), np.array([60.0, 60.0])
    expected = brute_aabb(lo, hi, qlo, qhi)
    assert len(expected) > 10
    out = np.full(10, -7, np.int64)
    assert query_aabb(*tree, boxes, qlo, qhi, out) == len(expected)
    assert set(out.tolist()) <= expected and len(set(out.tolist())) == 10
    assert query_aabb(*tree, boxes, qlo, qhi, np.empty(0, np.int64)) == len(expected)
    assert set(aabb_ids(tree, boxes, qlo, qhi)) == expected


@pytest.mark.parametrize("shape", [(STACK_SIZE - 1, 2), (STACK_SIZE, 1)])
def test_candidates_refuse_a_short_stack(shape: tuple[int, int]) -> None:
    lo = np.zeros((3, 2))
    tree = build(lo, lo + 1.0)
    with pytest.raises(ValueError, match="STACK_SIZE"):
        ray_candidates_ordered(*tree, box_rows(lo, lo + 1.0), np.zeros(2), np.ones(2), INF,
                               np.empty(shape), np.empty(3, np.int64))


def test_removing_a_box_by_emptying_it_and_refitting() -> None:
    rng = np.random.default_rng(9)
    lo, hi = random_scene(rng, 200, 2)
    tree = build(lo, hi)
    # a ray from far left of every box (huge ones reach about 1e4), box 17 moved into its way
    origin = np.array([-50000.0, float(lo[17, 1] + hi[17, 1]) / 2])
    lo[17], hi[17] = np.array([-40000.0, origin[1] - 1]), np.array([-39999.0, origin[1] + 1])
    refit_whole(tree, lo, hi)
    direction = np.array([1.0, 0.0])
    assert ray_closest_boxes(*tree, box_rows(lo, hi), origin, direction, INF) == (17, 10000.0)
    lo[17], hi[17] = EMPTY_LO, EMPTY_HI
    refit_whole(tree, lo, hi)
    index, _ = ray_closest_boxes(*tree, box_rows(lo, hi), origin, direction, INF)
    assert index != 17
    assert 17 not in aabb_ids(tree, box_rows(lo, hi), np.array([-INF, -INF]),
                              np.array([INF, INF]))
    # every box empty: the root's box is empty too, and nothing is found
    lo[:], hi[:] = EMPTY_LO, EMPTY_HI
    refit_whole(tree, lo, hi)
    assert np.all(tree[0][0, :2] == INF) and np.all(tree[0][0, 3:5] == -INF)
    assert ray_closest_boxes(*tree, box_rows(lo, hi), origin, direction, INF) == (-1, INF)
    assert box_items(tree, whole(tree[0], 2), box_rows(lo, hi), np.array([-INF, -INF]),
                     np.array([INF, INF])) == []


# ---------------------------------------------------------------------------------------------
# the leaf walks


def check_ray_walk(tree: Tree, lo: np.ndarray, hi: np.ndarray, origin: np.ndarray,
                   direction: np.ndarray, tmax: float, radius: float) -> None:
    """The ray walk with the limit fixed at inf hands out exactly the leaves whose boxes
    (grown by the radius) the ray touches, each once, and of two siblings both touched, every
    leaf below the one entered first (ties: left) before any leaf below the other. With the
    limit shrinking to the best hit so far (from tmax), it hands out each leaf at most once,
    each touched within the limit then in force, and every leaf entered within the final
    limit; the best hit equals brute force."""
    nodes, links = tree
    d = lo.shape[1]
    node_lo, node_hi, child, start, count, order = unpack(tree, d)
    at = whole(nodes, d)
    probe = probe_of(origin, direction, radius)
    # every node's entry t, and every primitive's, with the boxes grown by the radius
    node_t = brute_entries(node_lo - radius, node_hi + radius, origin, direction, INF)
    box_t = brute_entries(lo - radius, hi + radius, origin, direction, INF)
    assert [box_entry(nodes, k, probe, INF) for k in range(nodes.shape[0])] == node_t.tolist()
    leaves = np.nonzero(child < 0)[0]
    walk = [leaf for leaf, _ in ray_leaves(tree, at, probe, INF)]
    assert len(walk) == len(set(walk))
    assert set(walk) == {int(k) for k in leaves if node_t[k] < INF}
    position = {leaf: i for i, leaf in enumerate(walk)}
    for k in np.nonzero(child >= 0)[0]:
        left = [position[x] for x in leaves_below(child, child[k]) if x in position]
        right = [position[x] for x in leaves_below(child, child[k] + 1) if x in position]
        if left and right:
            first, second = (left, right) if node_t[child[k]] <= node_t[child[k] + 1] else (
                right, left)
            assert max(first) < min(second)

    def shrink(leaf: int, limit: float) -> float:
        items = order[start[leaf]:start[leaf] + count[leaf]]
        return min(limit, float(box_t[items].min()))

    walk_limits = ray_leaves(tree, at, probe, tmax, shrink)
    handed = [leaf for leaf, _ in walk_limits]
    assert len(handed) == len(set(handed))
    for leaf, limit in walk_limits:
        # touched within the limit in force
        assert node_t[leaf] <= limit
    final = tmax
    for leaf in handed:
        final = shrink(leaf, final)
    assert {int(k) for k in leaves if node_t[k] <= final and node_t[k] < INF} <= set(handed)
    best = min((float(box_t[p]) for leaf in handed
                for p in order[start[leaf]:start[leaf] + count[leaf]]), default=INF)
    expected = float(box_t.min()) if lo.shape[0] else INF
    assert (best if best <= tmax else INF) == (expected if expected <= tmax else INF)


def check_box_walk(tree: Tree, lo: np.ndarray, hi: np.ndarray, qlo: np.ndarray,
                   qhi: np.ndarray) -> None:
    """The box walk lists exactly the primitives whose boxes touch [qlo, qhi] (empty boxes
    never), each once, and a query box inside this one lists a subsequence of its list."""
    d = lo.shape[1]
    boxes = box_rows(lo, hi)
    touched = (np.all(lo <= qhi, axis=1) & np.all(hi >= qlo, axis=1)
               & np.all(lo <= hi, axis=1))
    walk = box_items(tree, whole(tree[0], d), boxes, qlo, qhi)
    assert len(walk) == len(set(walk))
    assert set(walk) == set(np.nonzero(touched)[0].tolist())
    if np.all(qlo <= qhi) and np.all(np.isfinite(qlo)) and np.all(np.isfinite(qhi)):
        inner = box_items(tree, whole(tree[0], d), boxes, 0.75 * qlo + 0.25 * qhi,
                          0.25 * qlo + 0.75 * qhi)
        position = {p: k for k, p in enumerate(walk)}
        assert [position[p] for p in inner] == sorted(position[p] for p in inner)


radius = st.sampled_from([0.0, 0.0, 0.5, 1.0, 3.0])


@pytest.mark.parametrize("d", [2, 3])
@given(data=st.data())
def test_leaf_walks_on_small_scenes(d: int, data: st.DataObject) -> None:
    lo, hi = data.draw(grid_scene(d))
    tree = build(lo, hi)
    for _ in range(3):
        origin, direction, tmax = data.draw(grid_ray(d))
        check_ray_walk(tree, lo, hi, origin, direction, tmax, data.draw(radius))
        check_box_walk(tree, lo, hi, *data.draw(grid_box(d)))


@pytest.mark.parametrize("d", [2, 3])
@pytest.mark.parametrize("split", [SPLIT_SAH, SPLIT_MEDIAN])
def test_leaf_walks_on_seeded_scenes(d: int, split: int) -> None:
    rng = np.random.default_rng(60 + d)
    lo, hi = random_scene(rng, 400, d, unbounded=True)
    tree = build_with(lo, hi, split)
    for r, (origin, direction, tmax) in enumerate(random_rays(rng, lo, hi, 30)):
        check_ray_walk(tree, lo, hi, origin, direction, tmax, [0.0, 2.0, 25.0][r % 3])
    for qlo, qhi in random_queries(rng, lo, hi, 20):
        check_box_walk(tree, lo, hi, qlo, qhi)
    # a query box over all space touches every box but the empty ones
    check_box_walk(tree, lo, hi, np.full(d, -INF), np.full(d, INF))


def test_ray_walk_goes_front_to_back_along_a_row() -> None:
    # disjoint boxes in a row: the leaves' boxes are disjoint along the ray, so each leaf is
    # entered no earlier than the one before it
    n = 64
    x = np.arange(n) * 3.0
    perm = np.random.default_rng(12).permutation(n)
    lo = np.ascontiguousarray(np.stack([x[perm], np.zeros(n)], axis=1))
    hi = np.ascontiguousarray(np.stack([x[perm] + 1.0, np.ones(n)], axis=1))
    tree = build(lo, hi)
    node_lo, node_hi = unpack(tree, 2)[:2]
    for start, step in ((-5.0, 1.0), (500.0, -1.0)):
        origin, direction = np.array([start, 0.5]), np.array([step, 0.0])
        walk = [leaf for leaf, _ in ray_leaves(tree, whole(tree[0], 2),
                                               probe_of(origin, direction, 0.0), INF)]
        entries = brute_entries(node_lo, node_hi, origin, direction, INF)[walk]
        assert len(walk) == int(np.count_nonzero(unpack(tree, 2)[2] < 0))
        assert np.all(np.diff(entries) > 0.0)
        check_ray_walk(tree, lo, hi, origin, direction, INF, 0.0)


def embed(a: Tree, b: Tree, n_a: int, d: int) -> tuple[np.ndarray, np.ndarray, TreeAt,
                                                       TreeAt]:
    """Trees ``a`` (over primitives 0 .. n_a-1) and ``b`` (over the rest, its items shifted by
    n_a) packed into one pair of arrays between spare rows (nodes 7.0, links -99), as a scene
    holds several trees; returns the arrays and the two trees' TreeAt."""
    m_a, m_b = a[0].shape[0], b[0].shape[0]
    n_b = b[1].shape[0] - 3 * m_b
    nodes = np.full((3 + m_a + 2 + m_b + 1, 6), 7.0)
    root_a, root_b = 3, 3 + m_a + 2
    nodes[root_a:root_a + m_a] = a[0]
    nodes[root_b:root_b + m_b] = b[0]
    links_a = 5
    links_b = links_a + 3 * m_a + 2
    items_a = links_b + 3 * m_b + 1
    items_b = items_a + n_a + 4
    links = np.full(items_b + n_b + 3, -99, np.int64)
    links[links_a:links_a + 3 * m_a] = a[1][:3 * m_a]
    links[links_b:links_b + 3 * m_b] = b[1][:3 * m_b]
    links[items_a:items_a + n_a] = a[1][3 * m_a:]
    links[items_b:items_b + n_b] = b[1][3 * m_b:] + n_a
    return (nodes, links, (root_a, m_a, links_a, items_a, d),
            (root_b, m_b, links_b, items_b, d))


@pytest.mark.parametrize("d", [2, 3])
def test_refit_and_walks_on_trees_embedded_at_an_offset(d: int) -> None:
    rng = np.random.default_rng(70 + d)
    n, n_a = 300, 120
    lo, hi = random_scene(rng, n, d, unbounded=True)
    a = build(lo[:n_a], hi[:n_a])
    b = build(lo[n_a:], hi[n_a:])
    nodes, links, at_a, at_b = embed(a, b, n_a, d)
    assert 0 not in (at_a[0], at_a[2], at_a[3])
    # every box moves, a few vanish
    shift = rng.normal(0.0, 5.0, (n, d))
    lo2, hi2 = lo + shift, hi + shift
    gone = rng.random(n) < 0.05
    lo2[gone], hi2[gone] = EMPTY_LO, EMPTY_HI
    boxes = rows_view(box_rows(lo2, hi2))
    spare = np.ones(nodes.shape[0], bool)
    spare[at_a[0]:at_a[0] + at_a[1]] = spare[at_b[0]:at_b[0] + at_b[1]] = False
    links_before = links.copy()
    b_before = nodes[at_b[0]:at_b[0] + at_b[1]].copy()
    refit(nodes, links, at_a, boxes)
    refit_whole(a, lo2[:n_a], hi2[:n_a])
    check_tree_layout(a, lo2[:n_a], hi2[:n_a])
    # tree a refitted where it lies, b and the spare rows untouched, the links only read
    assert np.array_equal(nodes[at_a[0]:at_a[0] + at_a[1]], a[0])
    assert np.array_equal(nodes[at_b[0]:at_b[0] + at_b[1]], b_before)
    assert np.all(nodes[spare] == 7.0)
    assert np.array_equal(links, links_before)
    refit(nodes, links, at_b, boxes)
    refit_whole(b, lo2[n_a:], hi2[n_a:])
    assert np.array_equal(nodes[at_b[0]:at_b[0] + at_b[1]], b[0])
    assert np.array_equal(nodes[at_a[0]:at_a[0] + at_a[1]], a[0])
    assert np.all(nodes[spare] == 7.0)
    # the walks on the embedded trees hand out the same leaves, holding the same primitives
    for tree, at, offset in ((a, at_a, 0), (b, at_b, n_a)):
        alone = whole(tree[0], d)
        for origin, direction, tmax in random_rays(rng, lo2, hi2, 20):
            probe = probe_of(origin, direction, 1.0)
            walk = ray_leaves((nodes, links), at, probe, tmax)
            assert walk == ray_leaves(tree, alone, probe, tmax)
            for leaf, _ in walk:
                first, stop = bvh.leaf_items(links, at, leaf)
                first_alone, stop_alone = bvh.leaf_items(tree[1], alone, leaf)
                assert np.array_equal(links[first:stop],
                                      tree[1][first_alone:stop_alone] + offset)
        for qlo, qhi in random_queries(rng, lo2, hi2, 10):
            assert box_items((nodes, links), at, boxes, qlo, qhi) == [
                p + offset for p in box_items(tree, alone, boxes[offset:], qlo, qhi)]
    # both trees in one walk: a's items, then b's
    for qlo, qhi in random_queries(rng, lo2, hi2, 10):
        assert box_items((nodes, links), at_a, boxes, qlo, qhi, then=at_b) == (
            box_items((nodes, links), at_a, boxes, qlo, qhi)
            + box_items((nodes, links), at_b, boxes, qlo, qhi))


# ---------------------------------------------------------------------------------------------
# the batch kernel


@pytest.mark.parametrize("d", [2, 3])
def test_batch_equals_scalar_on_every_ray(d: int) -> None:
    rng = np.random.default_rng(20 + d)
    lo, hi = random_scene(rng, 1500, d)
    tree = build(lo, hi)
    boxes = box_rows(lo, hi)
    rays = random_rays(rng, lo, hi, 1000)
    origins = np.ascontiguousarray([r[0] for r in rays])
    directions = np.ascontiguousarray([r[1] for r in rays])
    tmax = np.array([r[2] for r in rays])
    index, t = ray_closest_boxes_many(*tree, boxes, origins, directions, tmax)
    assert index.dtype == np.int64 and t.dtype == np.float64
    assert index.shape == t.shape == (1000,)
    for i in range(1000):
        assert (index[i], t[i]) == ray_closest_boxes(*tree, boxes, origins[i], directions[i],
                                                     tmax[i])
    assert np.all((index >= 0) == (t < INF))
    assert 0 < np.count_nonzero(index >= 0) < 1000


@pytest.mark.parametrize("d", [2, 3])
def test_batch_of_no_rays_gives_typed_empty_arrays(d: int) -> None:
    lo, hi = random_scene(np.random.default_rng(1), 50, d)
    for blo, bhi in ((lo, hi), (lo[:0], hi[:0])):
        blo, bhi = np.ascontiguousarray(blo), np.ascontiguousarray(bhi)
        index, t = ray_closest_boxes_many(*build(blo, bhi), box_rows(blo, bhi),
                                          np.empty((0, d)), np.empty((0, d)), np.empty(0))
        assert index.dtype == np.int64 and index.shape == (0,)
        assert t.dtype == np.float64 and t.shape == (0,)


def test_batch_on_an_empty_scene_misses_every_ray() -> None:
    lo = np.empty((0, 2))
    index, t = ray_closest_boxes_many(*build(lo, lo), box_rows(lo, lo), np.zeros((3, 2)),
                                      np.ones((3, 2)), np.full(3, INF))
    assert index.tolist() == [-1, -1, -1] and t.tolist() == [INF, INF, INF]
