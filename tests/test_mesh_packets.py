"""The packet walk of a mesh's rays (:func:`swept._kernels.mesh.packet_step`): eight rays
from one origin walked together must give each ray exactly its own walk's answer (distance and
triangle, ties to the smallest index) and that of every triangle tested one by one: on rays
aimed at vertices and edges, random rays, packets whose rays part at once, partial packets at
the end of a batch, rays on axis planes (mixed signs, infinite inverses), origins on the
surface and on box planes, short reaches, at scales from 1e-3 to 1e4. Its two vector tests:
a box against the packet's rays equals the single ray's slab test lane by lane, and the
frustum test never drops a box a ray enters nor bounds its entry too late (nor does the
frustum of a packet's remaining rays, which for one ray is its own box test bit for bit).
Every batch is also walked with several walks in flight
(:data:`swept.constants.WALKS_IN_FLIGHT`, a node of each in turn), rays and packets mixed: the
same answers."""

from __future__ import annotations

import math

import numba
import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from shared import on_threads
from swept import TriangleMesh
from swept._kernels import mesh as kmesh
from swept.constants import RAY_ORDER_MIN_RAYS, WALKS_IN_FLIGHT
from swept.level import raycast_many
from test_mesh_wide_tree import blob, bumpy, every_triangle, units, walk_each

Batch = tuple[np.ndarray, np.ndarray, np.ndarray, np.ndarray]


def batch(m: object, o: np.ndarray, d: np.ndarray, tmax: np.ndarray, packets: bool,
          walk: np.ndarray | None = None, in_flight: int = WALKS_IN_FLIGHT) -> Batch:
    """The batch kernel over every ray, in the batch's order unless ``walk`` is given, with
    ``in_flight`` walks at once."""
    n = o.shape[0]
    out = (np.empty(n), np.empty(n, np.int64), np.empty((n, 3)), np.empty((n, 3)))
    order = np.empty(0, np.int64) if walk is None else walk
    kmesh.mesh_ray_range(0, n, m._packed, m._tree, m._order, m.normals,  # type: ignore[attr-defined]
                         o, d, tmax, order, packets, in_flight, out)
    return out


def assert_packets_exact(m: object, o: np.ndarray, d: np.ndarray, tmax: np.ndarray,
                         walk: np.ndarray | None = None) -> Batch:
    """The packet walk equals the single walk and every triangle, row by row, exactly; each
    with several walks in flight and with one at a time."""
    packed = batch(m, o, d, tmax, True, walk)
    for other in (batch(m, o, d, tmax, False, walk, 1), batch(m, o, d, tmax, True, walk, 1),
                  batch(m, o, d, tmax, False, walk)):
        for a, b in zip(packed, other):
            np.testing.assert_array_equal(a, b)
    ref_t, ref_k = every_triangle(m.vertices, m.triangles, o, units(d),  # type: ignore[attr-defined]
                                  tmax)
    np.testing.assert_array_equal(packed[0], ref_t)
    np.testing.assert_array_equal(packed[1], ref_k)
    assert np.isfinite(packed[2]).all() and np.isfinite(packed[3]).all()
    return packed


def surface_targets(m: object, rng: np.random.Generator, n: int) -> np.ndarray:
    """Vertices, edge midpoints and random edge points of the mesh (n of each)."""
    v = m.vertices[m.triangles]  # type: ignore[attr-defined]
    k = rng.integers(0, v.shape[0], n)
    c = rng.integers(0, 3, n)
    a = v[k, c]
    b = v[k, (c + 1) % 3]
    return np.concatenate([a, (a + b) / 2.0, a + (b - a) * rng.uniform(0, 1, (n, 1))])


def in_direction_order(o: np.ndarray, d: np.ndarray) -> np.ndarray:
    """The rays' walk order as a lidar's (directions' Morton code), whatever their count."""
    n = o.shape[0]
    pad = max(0, RAY_ORDER_MIN_RAYS - n)
    rng = np.random.default_rng(0)
    walk = kmesh.ray_order(np.concatenate([o, np.broadcast_to(o[:1], (pad, 3))]),
                           np.concatenate([d, rng.normal(size=(pad, 3))]))
    return walk[walk < n]


@pytest.mark.parametrize("m", [bumpy(14, 3, 1e-3), bumpy(14, 3, 1.0), bumpy(14, 3, 1e4),
                               blob(4, 1e-3), blob(4, 1.0), blob(4, 1e4)])
def test_packets_equal_single_rays_and_every_triangle_on_vertex_and_edge_rays(
        m: object) -> None:
    # one origin, rays aimed at vertices and edge points (watertight ties), sorted by
    # direction so that neighbouring rays share packets; scales 1e-3, 1 and 1e4
    rng = np.random.default_rng(21)
    lo = m.vertices.min(axis=0)
    hi = m.vertices.max(axis=0)
    for origin in (0.5 * (lo + hi), hi + 0.3 * (hi - lo), m.vertices[7]):
        targets = surface_targets(m, rng, 400)
        d = targets - origin
        keep = np.abs(d).max(axis=1) > 0.0
        d = d[keep]
        o = np.broadcast_to(origin, d.shape).copy()
        tmax = np.full(d.shape[0], np.inf)
        out = assert_packets_exact(m, o, d, tmax, in_direction_order(o, d))
        assert (out[1] >= 0).sum() > d.shape[0] // 3


@pytest.mark.parametrize("scale", [1e-3, 1.0, 1e4])
def test_packets_whose_rays_part_at_once_equal_single_rays(scale: float) -> None:
    # random directions in the batch's own order: a packet's rays part at the first rows
    # (few rays of the mask left in each child), from inside and outside a closed blob
    m = blob(8, scale)
    rng = np.random.default_rng(22)
    for origin in (np.zeros(3), np.array([3.0, -2.0, 0.5]) * scale):
        d = rng.normal(size=(803, 3))
        o = np.broadcast_to(origin, d.shape).copy()
        assert_packets_exact(m, o, d, np.full(d.shape[0], np.inf))


@pytest.mark.parametrize("count", [1, 2, 3, 5, 7, 8, 9, 17, 8 * 40 + 3])
def test_partial_packets_at_the_end_of_a_batch_equal_single_rays(count: int) -> None:
    # a batch whose size is not a whole number of packets: the last packet's missing lanes
    # (reach -1) enter nothing; a lone ray walks alone
    m = blob(9, 1.0)
    rng = np.random.default_rng(23)
    d = rng.normal(size=(count, 3)) * 0.05 + np.array([1.0, 0.2, 0.1])
    o = np.tile([0.1, 0.05, -0.02], (count, 1))
    out = assert_packets_exact(m, o, d, np.full(count, np.inf))
    assert (out[1] >= 0).all()


def test_packets_with_rays_on_axis_planes_and_mixed_signs_equal_single_rays() -> None:
    # directions with zero, tiny and sign-changing components (infinite inverses; packets
    # whose rays enter boxes by different planes walk as single rays), from an origin on the
    # planes of the tree's boxes (a NaN product, which clips nothing) and from a vertex
    m = bumpy(10, 5, 1.0)
    tree = m._tree
    width = kmesh.TREE_WIDTH
    plane_point = np.array([tree[1, 0], tree[1, width], tree[1, 2 * width]], np.float64)
    rng = np.random.default_rng(24)
    tiny = 1e-300
    base = [[1, 0, 0], [-1, 0, 0], [0, 1, 0], [0, -1, 0], [0, 0, 1], [0, 0, -1],
            [1, tiny, 0], [1, -tiny, 0], [tiny, -1, tiny], [-tiny, -1, -tiny],
            [0.3, -1, 0], [-0.3, -1, 0], [0, -1, 0.3], [0, -1, -0.3]]
    d = np.concatenate([np.array(base, float), rng.normal(size=(200, 3))])
    d[20:60, 0] = 0.0
    d[60:100, 2] = rng.choice([-tiny, tiny], 40)
    for origin in (plane_point, m.vertices[m.triangles[3, 1]], np.array([0.0, 5.0, 0.0])):
        o = np.broadcast_to(origin, d.shape).copy()
        assert_packets_exact(m, o, d, np.full(d.shape[0], np.inf))
        assert_packets_exact(m, o, d, np.full(d.shape[0], np.inf), in_direction_order(o, d))


def test_packets_with_short_and_exact_reaches_equal_single_rays() -> None:
    # each ray's own reach: 0, short of the surface, exactly at its hit (kept), beyond
    m = blob(10, 2.0)
    rng = np.random.default_rng(25)
    d = rng.normal(size=(640, 3))
    o = np.zeros_like(d)
    exact_t, _ = every_triangle(m.vertices, m.triangles, o, units(d), np.full(640, np.inf))
    tmax = rng.uniform(0.0, 3.0, 640)
    tmax[::4] = exact_t[::4]
    tmax[1::4] = 0.0
    out = assert_packets_exact(m, o, d, tmax, in_direction_order(o, d))
    assert (out[1][::4] >= 0).all()
    assert (out[1][1::4] < 0).all()


@pytest.mark.parametrize("in_flight", [1, 2, 3, 5, 8, 13])
def test_walks_in_flight_mixing_packets_and_single_rays_equal_every_triangle(
        in_flight: int) -> None:
    # Several walks go on at once, a node of each in turn, each free slot taking the next run
    # of rays (a packet, or the run's rays one by one); each walk's state (next node, stack,
    # reach, best hit) is its own, so no answer may depend on how many are in flight or on
    # which walks share a pass. Runs from one origin (packets) alternate with runs of
    # scattered origins (single rays), with rays aimed at vertices and edges, reaches of 0
    # and a batch that is not a whole number of packets, in the direction order and not.
    m = blob(9, 1.0)
    rng = np.random.default_rng(29)
    targets = surface_targets(m, rng, 60)
    origin = np.array([0.05, -0.1, 0.02])
    o = np.empty((targets.shape[0], 3))
    for run in range(0, o.shape[0], 8):
        o[run:run + 8] = origin if run % 16 == 0 else rng.uniform(-3, 3, (1, 3))
    d = targets - o
    tmax = np.full(d.shape[0], np.inf)
    tmax[::17] = 0.0
    for walk in (None, np.arange(d.shape[0] - 4, -1, -1)):
        out = batch(m, o[:-3], d[:-3], tmax[:-3], True, walk, in_flight)
        ref_t, ref_k = every_triangle(m.vertices, m.triangles, o[:-3], units(d[:-3]),
                                      tmax[:-3])
        np.testing.assert_array_equal(out[0], ref_t)
        np.testing.assert_array_equal(out[1], ref_k)
        single = batch(m, o[:-3], d[:-3], tmax[:-3], False, walk, in_flight)
        for a, b in zip(out, single):
            np.testing.assert_array_equal(a, b)
        assert (out[1] >= 0).sum() > d.shape[0] // 2


@settings(max_examples=20, deadline=None)
@given(st.integers(0, 2**32 - 1), st.sampled_from([1e-3, 1.0, 1e4]),
       st.integers(1, 300))
def test_packets_equal_every_triangle_property(seed: int, scale: float, n: int) -> None:
    rng = np.random.default_rng(seed)
    m = _BUMPS[scale]
    lo = m.vertices.min(axis=0)
    hi = m.vertices.max(axis=0)
    origin = rng.uniform(lo - 0.2 * (hi - lo), hi + 0.2 * (hi - lo))
    d = np.concatenate([surface_targets(m, rng, n) - origin, rng.normal(size=(n, 3))])
    d = d[np.abs(d).max(axis=1) > 0.0]
    o = np.broadcast_to(origin, d.shape).copy()
    assert_packets_exact(m, o, d, np.full(d.shape[0], np.inf), in_direction_order(o, d))


_BUMPS = {scale: bumpy(12, 7, scale) for scale in (1e-3, 1.0, 1e4)}


@pytest.mark.parametrize("thread_count", [1, 2])
def test_a_lidar_through_raycast_many_walks_packets_and_equals_rays_one_at_a_time(
        thread_count: int) -> None:
    # the public path: a lidar batch is walked in packets (one origin, sorted by direction)
    m = bumpy(30, 9, 1.0)
    n = RAY_ORDER_MIN_RAYS + 13
    rng = np.random.default_rng(26)
    d = rng.normal(size=(n, 3))
    o = np.tile([0.3, 2.0, -0.4], (n, 1))
    with on_threads(thread_count):
        out = raycast_many(m, o, d)
    t, k = walk_each(m, o, units(d), np.full(n, np.inf))
    np.testing.assert_array_equal(out.distance, t)
    np.testing.assert_array_equal(out.handle, k)
    assert 0 < out.hit.sum() < n


@numba.njit(cache=True)
def packet_boxes_both(tree: np.ndarray, rays: np.ndarray, limits: np.ndarray
                      ) -> tuple[np.ndarray, np.ndarray, np.ndarray, np.ndarray]:
    """For each packet of 8 rays (origin, unit direction) and each box of each row: the
    packet test's entries and mask, and the single ray's (``_entry_row``), lane by lane."""
    lanes_n = kmesh.PACKET_LANES
    width = kmesh.TREE_WIDTH
    packets = rays.shape[0] // lanes_n
    n = packets * tree.shape[0] * width
    wide = np.empty((n, lanes_n))
    scalar = np.empty((n, lanes_n))
    wide_mask = np.empty(n, np.int64)
    scalar_mask = np.zeros(n, np.int64)
    lanes = np.empty((kmesh.PACKET_ROWS, lanes_n))
    one = np.empty(width)
    i = 0
    for p in range(packets):
        for lane in range(lanes_n):
            r = lanes_n * p + lane
            ix, iy, iz, _nx, _ny, _nz = kmesh._slab_frame(rays[r, 3], rays[r, 4], rays[r, 5])
            lanes[0, lane] = rays[r, 0]
            lanes[1, lane] = rays[r, 1]
            lanes[2, lane] = rays[r, 2]
            lanes[3, lane] = ix
            lanes[4, lane] = iy
            lanes[5, lane] = iz
            lanes[6, lane] = limits[r]
        for row in range(tree.shape[0]):
            for s in range(width):
                wide_mask[i + s] = kmesh._packet_box(tree, row, s, lanes, wide[i + s])
            for lane in range(lanes_n):
                r = lanes_n * p + lane
                ix, iy, iz, nx, ny, nz = kmesh._slab_frame(rays[r, 3], rays[r, 4], rays[r, 5])
                bits = kmesh._entry_row(tree, row, one, rays[r, 0], rays[r, 1], rays[r, 2], ix,
                                        iy, iz, nx, ny, nz, limits[r])
                for s in range(width):
                    scalar[i + s, lane] = one[s]
                    if (bits >> s) & 1:
                        scalar_mask[i + s] |= 1 << lane
            i += width
    return wide, scalar, wide_mask, scalar_mask


def test_the_packet_box_test_equals_the_single_ray_test_lane_by_lane() -> None:
    # a box against eight rays in vector lanes must be each ray's own slab test exactly:
    # each lane's planes chosen by its own sign, NaN from an origin on a plane of a parallel
    # ray, the empty slots' infinite planes, a reach of -1 (a missing lane) entering nothing
    m = blob(7, 3.0)
    tree = m._tree
    rng = np.random.default_rng(27)
    rays = np.concatenate([rng.uniform(-4, 4, (48, 3)), rng.normal(size=(48, 3))], axis=1)
    width = kmesh.TREE_WIDTH
    extra = []
    for row in range(1, 9):
        x, y, z = tree[row, 0], tree[row, width], tree[row, 5 * width]
        extra += [[x, y, z, 0, 0, 1], [x, y, z, 1, 0, 0], [x, y, z, 0, -1, 0],
                  [x, y, 0.0, 0, 0, -1], [x, y, z, 1e-300, 1, 0], [x, y, z, -1e-300, 1, 0],
                  [x, y, z, 0.5, 0.5, 0.5], [x, y, z, -0.5, 0.5, -0.5]]
    rays = np.concatenate([rays, np.array(extra, float)])
    for limit in (math.inf, 2.5, 0.0):
        limits = np.full(rays.shape[0], limit)
        limits[5::8] = -1.0
        wide, scalar, wide_mask, scalar_mask = packet_boxes_both(tree, rays, limits)
        np.testing.assert_array_equal(wide, scalar)
        np.testing.assert_array_equal(wide_mask, scalar_mask)
        assert (wide_mask != 0).any() and (wide_mask != 255).any()


@numba.njit(cache=True)
def frustum_misses(tree: np.ndarray, origin: np.ndarray, dirs: np.ndarray, limits: np.ndarray
                   ) -> tuple[int, int, int]:
    """Over every row and each packet of 8 directions from ``origin`` (those whose rays enter
    boxes by the same planes): the boxes some ray enters that the frustum test drops, the
    entries it bounds too late, and the boxes it passes (a check that it ran)."""
    lanes_n = kmesh.PACKET_LANES
    width = kmesh.TREE_WIDTH
    lanes = np.empty((kmesh.PACKET_ROWS, lanes_n))
    frames = np.empty((4, lanes_n), np.int64)
    frustum = np.empty(kmesh.FRUSTUM_SIZE)
    rays = np.empty((lanes_n, 7))
    bound = np.empty(width)
    one = np.empty(width)
    dropped = 0
    late = 0
    passed = 0
    for p in range(dirs.shape[0] // lanes_n):
        for lane in range(lanes_n):
            r = lanes_n * p + lane
            for a in range(3):
                rays[lane, a] = dirs[r, a]
                rays[lane, 3 + a] = origin[a]
            rays[lane, 6] = limits[r]
        if not kmesh.packet_rays(rays, 0, lanes_n, lanes, frames, frustum):
            continue
        for row in range(tree.shape[0]):
            boxes = kmesh._frustum_row(tree, row, frustum, bound, frames[3, 0], frames[3, 1],
                                       frames[3, 2])
            for s in range(width):
                if (boxes >> s) & 1:
                    passed += 1
            for lane in range(lanes_n):
                ix, iy, iz, nx, ny, nz = kmesh._slab_frame(rays[lane, 0], rays[lane, 1],
                                                           rays[lane, 2])
                bits = kmesh._entry_row(tree, row, one, origin[0], origin[1], origin[2], ix,
                                        iy, iz, nx, ny, nz, rays[lane, 6])
                for s in range(width):
                    if (bits >> s) & 1:
                        if not (boxes >> s) & 1:
                            dropped += 1
                        elif bound[s] > one[s]:
                            late += 1
    return dropped, late, passed


@pytest.mark.parametrize("scale", [1e-3, 1.0, 1e4])
def test_the_frustum_test_never_drops_a_box_a_ray_enters(scale: float) -> None:
    # the frustum bound is conservative: every box a ray of the packet enters (by its own
    # exact test) passes, at a bound no later than that ray's entry; origins inside, outside,
    # on a box's planes and at a vertex, narrow and wide packets, zero and tiny components
    m = bumpy(16, 8, scale)
    tree = m._tree
    width = kmesh.TREE_WIDTH
    rng = np.random.default_rng(28)
    origins = [m.vertices.mean(axis=0) + np.array([0.0, 2.0 * scale, 0.0]),
               np.array([tree[2, 0], tree[2, width], tree[2, 2 * width]], np.float64),
               m.vertices[40], m.vertices.min(axis=0) - scale]
    for origin in origins:
        centres = rng.normal(size=(60, 3))
        spread = rng.choice([1e-3, 0.05, 0.5], 60)
        dirs = (centres[:, None, :] + spread[:, None, None] * rng.normal(size=(60, 8, 3)))
        dirs = dirs.reshape(-1, 3)
        dirs[:64, 1] = 0.0
        dirs[64:128, 0] = np.abs(dirs[64:128, 0]) * 1e-300
        dirs = units(dirs)
        limits = rng.choice([math.inf, 0.5 * scale, 0.0], dirs.shape[0])
        dropped, late, passed = frustum_misses(tree, origin, dirs, limits)
        assert dropped == 0 and late == 0
        assert passed > 0



@numba.njit(cache=True)
def subset_frustum_checks(tree: np.ndarray, origin: np.ndarray, dirs: np.ndarray,
                          limits: np.ndarray, subsets: np.ndarray) -> tuple[int, int, int, int]:
    """Over every row and each packet of 8 directions from ``origin`` that enter boxes by the
    same planes, for each mask of ``subsets`` and each lane alone: the frustum of the mask's
    rays alone (``_active_frustum``) against each of those rays' own tests (boxes dropped,
    entries bounded too late), and a lone ray's frustum against its ``_packet_box`` lane
    (boxes or entries that differ, bit for bit); and the boxes passed (a check that it ran)."""
    lanes_n = kmesh.PACKET_LANES
    width = kmesh.TREE_WIDTH
    lanes = np.empty((kmesh.PACKET_ROWS, lanes_n))
    frames = np.empty((4, lanes_n), np.int64)
    frustum = np.empty(kmesh.FRUSTUM_SIZE)
    rays = np.empty((lanes_n, 7))
    bound = np.empty(width)
    each = np.empty(lanes_n)
    dropped = 0
    late = 0
    differ = 0
    passed = 0
    for p in range(dirs.shape[0] // lanes_n):
        for lane in range(lanes_n):
            r = lanes_n * p + lane
            for a in range(3):
                rays[lane, a] = dirs[r, a]
                rays[lane, 3 + a] = origin[a]
            rays[lane, 6] = limits[r]
        if not kmesh.packet_rays(rays, 0, lanes_n, lanes, frames, frustum):
            continue
        for q in range(subsets.shape[0] + lanes_n):
            active = subsets[q] if q < subsets.shape[0] else 1 << (q - subsets.shape[0])
            kmesh._active_frustum(lanes, active, frustum)
            for row in range(tree.shape[0]):
                boxes = kmesh._frustum_row(tree, row, frustum, bound, frames[3, 0],
                                           frames[3, 1], frames[3, 2])
                for s in range(width):
                    passed += (boxes >> s) & 1
                    entered = kmesh._packet_box(tree, row, s, lanes, each) & active
                    for lane in range(lanes_n):
                        if not (entered >> lane) & 1:
                            continue
                        if not (boxes >> s) & 1:
                            dropped += 1
                        elif bound[s] > each[lane]:
                            late += 1
                    if q >= subsets.shape[0]:
                        # one ray: the frustum's mask and entry are its own, bit for bit
                        lane = q - subsets.shape[0]
                        inside = (boxes >> s) & 1
                        if inside != ((entered >> lane) & 1) or (inside and
                                                                 bound[s] != each[lane]):
                            differ += 1
    return dropped, late, differ, passed


@pytest.mark.parametrize("scale", [1e-3, 1.0, 1e4])
def test_the_frustum_of_a_packets_remaining_rays_bounds_them_and_is_a_lone_rays_own_test(
        scale: float) -> None:
    # a packet's row is tested against the frustum of the rays still active alone
    # (_active_frustum: narrower once rays part, so fewer boxes go on to the lanes' test):
    # a subset's frustum must drop no box a ray of the subset enters, and one ray's frustum
    # is its own box test, the same mask and entries bit for bit (origins inside, on a box's
    # planes, at a vertex and outside; zero and tiny components; short reaches)
    m = bumpy(16, 8, scale)
    tree = m._tree
    width = kmesh.TREE_WIDTH
    rng = np.random.default_rng(29)
    origins = [m.vertices.mean(axis=0) + np.array([0.0, 2.0 * scale, 0.0]),
               np.array([tree[2, 0], tree[2, width], tree[2, 2 * width]], np.float64),
               m.vertices[40], m.vertices.min(axis=0) - scale]
    subsets = np.array([0b11111111, 0b10000001, 0b00111000, 0b01010110, 0b00000110],
                       np.int64)
    for origin in origins:
        centres = rng.normal(size=(20, 3))
        spread = rng.choice([1e-3, 0.05, 0.5], 20)
        dirs = (centres[:, None, :] + spread[:, None, None] * rng.normal(size=(20, 8, 3)))
        dirs = dirs.reshape(-1, 3)
        dirs[:32, 1] = 0.0
        dirs[32:64, 0] = np.abs(dirs[32:64, 0]) * 1e-300
        dirs = units(dirs)
        limits = rng.choice([math.inf, 0.5 * scale, 0.0], dirs.shape[0])
        dropped, late, differ, passed = subset_frustum_checks(tree, origin, dirs, limits,
                                                              subsets)
        assert dropped == 0 and late == 0 and differ == 0
        assert passed > 0

def head_of(m: object, origin: np.ndarray) -> np.ndarray:
    """The head rows of each octant (``kmesh.origin_head``'s ``head_rows``) at ``origin``."""
    head = np.empty((8 * kmesh.HEAD_ROWS, kmesh.TREE_COLUMNS), np.float32)
    rows = np.full(8, -2, np.int64)
    todo = np.empty(kmesh.HEAD_OPEN_ROWS, np.int64)
    kmesh.origin_head(m._tree, origin[0], origin[1], origin[2], head,  # type: ignore[attr-defined]
                      rows, todo)
    return rows


@pytest.mark.parametrize("scale", [1e-3, 1.0, 1e4])
def test_packets_from_inside_boxes_start_at_the_head_and_equal_every_triangle(
        scale: float) -> None:
    # a packet from an origin that lies in several rows' boxes starts below them, at the
    # head of its octant (origin_head): the children of every row holding the origin that a
    # ray of the octant may enter. The blob's centre lies on the top rows' split planes (every
    # ray enters those rows at t = 0); rays along the axes and in the coordinate planes (zero
    # components, infinite inverses) and at vertices and edges, zero and short reaches
    m = blob(5, scale)
    rng = np.random.default_rng(29)
    centre = np.zeros(3)
    rows = head_of(m, centre)
    assert (rows >= 1).all()
    assert m._tree.shape[0] > 8  # type: ignore[attr-defined]
    d = np.concatenate([surface_targets(m, rng, 300), rng.normal(size=(600, 3)),
                        np.eye(3), -np.eye(3)])
    d[300:400, 0] = 0.0
    d[400:500, 1] = 0.0
    d[500:520, :2] = 0.0
    o = np.zeros_like(d)
    for tmax in (np.full(d.shape[0], np.inf), rng.choice([0.0, 0.3 * scale, math.inf],
                                                          d.shape[0])):
        out = assert_packets_exact(m, o, d, tmax, in_direction_order(o, d))
        assert (out[1] >= 0).sum() > d.shape[0] // 3


def test_packets_from_an_origin_inside_every_box_walk_from_the_root_and_equal_every_triangle(
        ) -> None:
    # more rows hold the origin than origin_head opens (HEAD_OPEN_ROWS): no head, the packets
    # start at the tree's row 0 as before; and a batch of three lidars, each origin's head
    # built when its packets start
    rng = np.random.default_rng(30)
    corners = rng.uniform(-1.0, 1.0, (3000, 3, 3))
    corners[:, 0] = -corners[:, 1] + rng.normal(0.0, 0.01, (3000, 3))
    verts = corners.reshape(-1, 3)
    m = TriangleMesh(verts, np.arange(verts.shape[0]).reshape(-1, 3))
    assert (head_of(m, np.zeros(3)) == -1).all()
    d = rng.normal(size=(900, 3))
    origins = [np.zeros(3), np.array([0.9, -0.2, 0.4]), np.array([5.0, 5.0, 5.0])]
    o = np.concatenate([np.broadcast_to(p, (300, 3)) for p in origins])
    # each lidar's rays in direction order, one lidar after the other
    walk = np.concatenate([300 * i + in_direction_order(o[:300], d[300 * i:300 * (i + 1)])
                           for i in range(3)])
    out = assert_packets_exact(m, o, d, np.full(900, np.inf), walk)
    assert 0 < (out[1] >= 0).sum() < 900
