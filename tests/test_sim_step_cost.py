"""The Simulation step's cost cuts, each against what it replaced: event records built when
first read, contact passes that skip a body they would leave unchanged, a swept ball's cache
gathered round its path, the meeting pairs listed once a step. Each must give the same bits."""

from __future__ import annotations

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from swept import Circle, Segment
from swept._kernels import sim as kernels
from swept.events import event_dtype
from swept.sim import Body, Simulation
from swept.world import World

STEP = 1.0 / 60.0


def _busy(seed: int, balls: int = 120, side: float = 300.0) -> Simulation:
    """Fast elastic balls among thin walls in a closed box: casts, bounces, body pairs that
    overlap after the move, walls touched exactly."""
    rng = np.random.default_rng(seed)
    sim = Simulation(step=STEP)
    corners = [(0.0, 0.0), (side, 0.0), (side, side), (0.0, side)]
    for i in range(4):
        sim.world.add(Segment(corners[i], corners[(i + 1) % 4]))
    for _ in range(12):
        mid = rng.uniform(0.2 * side, 0.8 * side, 2)
        ang = rng.uniform(0.0, np.pi)
        half = 0.5 * rng.uniform(20.0, 60.0) * np.array([np.cos(ang), np.sin(ang)])
        sim.world.add(Segment(mid - half, mid + half))
    centers = rng.uniform(15.0, side - 15.0, (balls, 2))
    radii = rng.uniform(2.0, 6.0, balls)
    heading = rng.uniform(0.0, 2.0 * np.pi, balls)
    speed = rng.uniform(0.0, 3000.0, balls)
    vel = np.stack([np.cos(heading), np.sin(heading)], axis=1) * speed[:, None]
    sim.add_balls(centers, radii, vel, restitution=1.0, friction=0.0, ccd="swept")
    return sim


def _events(sim: Simulation) -> tuple[np.ndarray, ...]:
    """The last step's four event arrays."""
    return (sim.contacts_began, sim.contacts_ended, sim.sensor_began, sim.sensor_ended)


def _same_events(a: np.ndarray, b: np.ndarray) -> None:
    """Two event arrays hold the same records, bit for bit."""
    assert a.dtype == b.dtype
    assert a.shape == b.shape
    assert a.tobytes() == b.tobytes()


# ---------------------------------------------------------------------- events read late


def test_events_read_late_equal_the_events_a_callback_gets_each_step() -> None:
    # A step keeps its events as the touches that make them and builds the records on the
    # first read: a simulation read through a callback (built at once), one read after each
    # step and one read only every third step must see the same records.
    eager = _busy(1)
    got: dict[str, np.ndarray] = {}
    eager.on_contact_begin(lambda e: got.__setitem__("began", e))
    eager.on_contact_end(lambda e: got.__setitem__("ended", e))
    each = _busy(1)
    sometimes = _busy(1)
    seen = 0
    for k in range(45):
        got.clear()
        for sim in (eager, each, sometimes):
            sim.step()
        began, ended = each.contacts_began, each.contacts_ended
        _same_events(got.get("began", np.zeros(0, event_dtype(2))), began)
        _same_events(got.get("ended", np.zeros(0, event_dtype(2))), ended)
        seen += began.shape[0] + ended.shape[0]
        if k % 3 == 2:
            _same_events(sometimes.contacts_began, began)
            _same_events(sometimes.contacts_ended, ended)
    # the scene makes and breaks contacts: the comparison was not of empty arrays
    assert seen > 50


def test_the_first_read_of_either_array_compares_the_tables_for_both() -> None:
    # A step keeps its last and new touch tables and compares them on the first read of any
    # of its two contact arrays: reading the ended events first, or the began first, or
    # neither for some steps, gives the same records.
    began_first = _busy(6)
    ended_first = _busy(6)
    seen = 0
    for k in range(30):
        began_first.step()
        ended_first.step()
        if k % 4 == 3:
            b1, e1 = began_first.contacts_began, began_first.contacts_ended
            e2, b2 = ended_first.contacts_ended, ended_first.contacts_began
            _same_events(b1, b2)
            _same_events(e1, e2)
            seen += b1.shape[0] + e1.shape[0]
    assert seen > 10


def test_an_event_array_read_twice_is_the_same_array() -> None:
    sim = _busy(2)
    for _ in range(5):
        sim.step()
    assert sim.contacts_began is sim.contacts_began
    assert sim.contacts_ended is sim.contacts_ended


def test_a_removal_after_an_unread_step_ends_the_contacts_it_had() -> None:
    # the removal's ended events come from the step's touches, read or not
    sim = Simulation(step=STEP, gravity=(0.0, 0.0))
    sim.world.add(Segment((0.0, 0.0), (10.0, 0.0)))
    ball = sim.add(Body(Circle((5.0, 1.0), 1.0), velocity=(0.0, 0.0)))
    sim.step()
    sim.remove(ball)
    ended = sim.contacts_ended
    assert ended.shape == (1,)
    assert ended["body"][0] == 0
    assert ended["other"][0] == 0
    assert tuple(ended["normal"][0]) == (0.0, 1.0)
    assert sim.contacts_began.shape == (0,)


# ------------------------------------------------------------------ passes that skip


@pytest.mark.parametrize("seed", [3, 4, 5])
def test_a_pass_skips_only_bodies_it_would_leave_unchanged(seed: int) -> None:
    # A contact pass marks a body for the next pass only when a collider moved or slowed
    # it; one it skips (not pushed, not marked) would repeat the last pass bit for bit. Run
    # the step's passes, then one more over every body with no push: the bodies left
    # unmarked must not change at all.
    sim = _busy(seed)
    for _ in range(8):
        sim.step()
    scene = sim._scene()
    b, s = sim._arrays, sim._scratch
    n = b.pos.shape[0]
    kernels.advance_range(0, n, scene, b, s, np.zeros(3), STEP, sim.max_casts,
                          sim._gather_grid)
    first, neighbour = kernels.find_pairs(b.pos, b.radius, 2)
    pairs = kernels.meeting_pairs(b, first, neighbour)
    for _ in range(sim.passes):
        s.dpos.fill(0.0)
        kernels.pairs_pass(b, pairs, s.dpos)
        kernels.resolve_range(0, n, scene, b, s, np.arange(n), sim._gather_grid)
    skipped = ~s.touching
    pos, vel = b.pos.copy(), b.vel.copy()
    s.dpos.fill(0.0)
    s.touching[:] = True
    kernels.resolve_range(0, n, scene, b, s, np.arange(n), sim._gather_grid)
    assert skipped.sum() > 0.9 * n
    assert b.pos[skipped].tobytes() == pos[skipped].tobytes()
    assert b.vel[skipped].tobytes() == vel[skipped].tobytes()


# --------------------------------------------------------------- caches and candidates


@settings(max_examples=60, deadline=None)
@given(st.integers(0, 2**32 - 1), st.floats(0.0, 1.0), st.floats(0.0, 1.0),
       st.floats(0.0, 1.0), st.floats(0.0, 1.0))
def test_a_smaller_query_lists_a_subsequence_of_a_larger_ones(seed: int, a: float, b: float,
                                                             c: float, d: float) -> None:
    # Every loop over a body's cache filters it by its own box: exact only if a gather of a
    # smaller box lists, in order, the larger box's colliders that touch it. The swept
    # ball's cache (its path's box, or the cube round its start once it responds) leans on
    # it. Boxes that share faces with the colliders' count as touching.
    rng = np.random.default_rng(seed)
    world = World()
    for _ in range(60):
        p = rng.integers(0, 20, 2).astype(float) * 5.0
        q = p + rng.integers(-4, 5, 2).astype(float) * 5.0
        if (p == q).all():
            q = q + 5.0
        world.add(Segment(p, q))
    scene = world._sync()
    big = np.array([10.0, 10.0, -1.0, 90.0, 90.0, 1.0])
    lo = big[:3] + np.array([a, b, 0.0]) * 40.0
    hi = lo + np.array([c, d, 0.0]) * 40.0
    small = np.array([*lo[:2], -1.0, *hi[:2], 1.0])
    mask = 0xFFFFFFFF
    large = kernels.candidates(scene, big, mask)
    rows = scene.rows
    from swept._kernels.scene import HI, LO
    touching = [h for h in large
                if not (rows[h, LO] > small[3] or rows[h, HI] < small[0]
                        or rows[h, LO + 1] > small[4] or rows[h, HI + 1] < small[1])]
    assert kernels.candidates(scene, small, mask).tolist() == touching


def test_meeting_pairs_are_the_lists_pairs_each_once_in_order() -> None:
    # the passes read the pairs from this list instead of the CSR lists: the same pairs, in
    # the same order (by lower index, then higher), masked pairs left out
    rng = np.random.default_rng(6)
    n = 60
    pos = np.zeros((n, 3))
    pos[:, :2] = rng.uniform(0.0, 30.0, (n, 2))
    radii = rng.uniform(1.0, 3.0, n)
    first, neighbour = kernels.find_pairs(pos, radii, 2)
    layer = rng.choice([1, 2, 4], n).astype(np.int64)
    mask = rng.choice([1, 3, 7, 6], n).astype(np.int64)
    b = kernels.Bodies(pos, np.zeros((n, 3)), radii, np.ones(n), np.ones(n), np.zeros(n),
                       np.zeros(n, np.int64), layer, mask, np.zeros(n, np.int64),
                       np.zeros(n, np.int64), np.zeros(n, np.bool_), np.zeros(n, np.int64),
                       np.zeros((n, 0)))
    want = [(i, int(j)) for i in range(n) for j in neighbour[first[i]:first[i + 1]]
            if j > i and layer[i] & mask[j] and layer[j] & mask[i]]
    got = kernels.meeting_pairs(b, first, neighbour)
    assert got.shape == (len(want), 2)
    assert [tuple(r) for r in got.tolist()] == want
    assert 10 < len(want) < len([j for i in range(n)
                                 for j in neighbour[first[i]:first[i + 1]] if j > i])


def test_a_pair_pass_over_no_pairs_changes_nothing() -> None:
    n = 3
    b = kernels.Bodies(np.zeros((n, 3)), np.ones((n, 3)), np.ones(n), np.ones(n), np.ones(n),
                       np.zeros(n), np.zeros(n, np.int64), np.ones(n, np.int64),
                       np.ones(n, np.int64), np.zeros(n, np.int64), np.zeros(n, np.int64),
                       np.zeros(n, np.bool_), np.zeros(n, np.int64), np.zeros((n, 0)))
    dpos = np.zeros((n, 3))
    kernels.pairs_pass(b, np.zeros((0, 2), np.int64), dpos)
    assert not dpos.any()
    assert (b.vel == 1.0).all()


def test_a_ball_bouncing_back_past_its_start_meets_the_wall_behind_it() -> None:
    # A swept ball caches the colliders round its path's box; the wall behind it is outside
    # that box. At a response the ball gathers the box of the rest of its path from the
    # contact (unless its cache covers that box), so the cast back finds that wall and the
    # cast after it the first wall again:
    # right 2 to the wall at x = 3, left 4 to x = -2 against the wall at x = -3, then right 3
    # to x = 1 (9 units at 540 units/s).
    sim = Simulation(step=STEP)
    sim.world.add(Segment((3.0, -5.0), (3.0, 5.0)))
    sim.world.add(Segment((-3.0, -5.0), (-3.0, 5.0)))
    ball = sim.add(Body(Circle((0.0, 0.0), 1.0), velocity=(540.0, 0.0), restitution=1.0,
                        friction=0.0, ccd="swept"))
    sim.step()
    assert ball.position.x == pytest.approx(1.0, abs=1e-12)
    assert ball.position.y == 0.0
    assert ball.velocity.x == pytest.approx(540.0, abs=1e-9)
    assert ball.missed == 0
    assert ball.caught == 1
    began = sim.contacts_began
    assert sorted(began["other"].tolist()) == [0, 1]
    # the cache holds the second leg's box, x -5 .. 2 grown by the margin (two radii): the
    # last leg's, x -2 .. 1 grown alike, lies inside it, so the ball kept it (a 2D scene with
    # nothing in motion: every loop over the cache filters by its own box)
    box = sim._scratch.cache_box[0]
    assert box[0] == pytest.approx(-7.0, abs=1e-12) and box[3] == pytest.approx(4.0, abs=1e-12)


# ------------------------------------------------------------------- the gather grid


def _gathers(world: World, queries: np.ndarray, mask: int, width: int = 32
             ) -> tuple[list[list[int]], list[list[int]], object]:
    """Each query's gather through the static tree and through the gather grid (lists of
    handles, or the overflow count), and the grid."""
    from swept._kernels import sim_grid

    scene = world._sync()
    grid = sim_grid.build_gather_grid(scene)
    stack = np.zeros(64, np.int64)
    tree, cells = [], []
    for q in queries:
        for g, into in ((sim_grid.no_grid(), tree), (grid, cells)):
            out = np.zeros((1, width), np.int64)
            count = kernels.gather_row(scene, g, stack, np.ascontiguousarray(q), mask, out, 0)
            into.append(out[0, :count].tolist() if count <= width else [count])
    return tree, cells, grid


def _box(x0: float, y0: float, x1: float, y1: float) -> np.ndarray:
    """A 2D query box as the gathers take it."""
    return np.array([x0, y0, -1.0, x1, y1, 1.0])


@settings(max_examples=40, deadline=None)
@given(st.integers(0, 2**32 - 1))
def test_the_gather_grid_lists_what_the_tree_lists_in_its_order(seed: int) -> None:
    # The move's gather looks the static colliders up in a grid of their boxes, and must
    # list exactly the tree walk's colliders in the tree's order (the body's cache, and so
    # every later loop, depends on both). Boxes on the cell lines and queries sharing only a
    # face, edge or corner with a box, or reaching past the grid, are where a cell lookup
    # could differ.
    rng = np.random.default_rng(seed)
    world = World()
    for _ in range(int(rng.integers(1, 80))):
        p = rng.integers(0, 40, 2).astype(float) * 2.5
        q = p + rng.integers(-6, 7, 2).astype(float) * 2.5
        if (p == q).all():
            q = q + 2.5
        kind = rng.integers(0, 3)
        layer = int(rng.choice([1, 2, 4]))
        if kind == 0:
            world.add(Segment(p, q), layer=layer)
        elif kind == 1:
            world.add(Circle(p, float(rng.integers(0, 4)) * 2.5), layer=layer)
        else:
            from swept import AABB
            world.add(AABB(np.minimum(p, q), np.maximum(p, q)), layer=layer)
    handles = list(range(len(world._shapes)))
    for h in rng.choice(handles, len(handles) // 5, replace=False).tolist():
        world.remove(h)
    corners = rng.integers(-4, 44, (60, 2)).astype(float) * 2.5
    sizes = rng.integers(0, 12, (60, 2)).astype(float) * 2.5
    queries = np.array([_box(x, y, x + w, y + h) for (x, y), (w, h) in zip(corners, sizes)]
                       + [_box(-1e9, -1e9, 1e9, 1e9), _box(5.0, 5.0, 4.0, 6.0),
                          _box(-1e30, -1e30, 1e30, 1e30), _box(-1e50, 40.0, 1e50, 41.0),
                          _box(1e40, 1e40, 1e41, 1e41), _box(-1e41, 0.0, -1e40, 100.0)])
    for mask in (0xFFFFFFFF, 2, 5):
        tree, cells, _grid = _gathers(world, queries, mask)
        assert cells == tree


def test_the_gather_grid_overflows_as_the_tree_does() -> None:
    # past the row's room both report how many touch, in any layer
    world = World()
    for k in range(50):
        world.add(Segment((k, 0.0), (k, 10.0)), layer=1 + k % 2)
    tree, cells, grid = _gathers(world, np.array([_box(-1, -1, 60, 11), _box(10, 2, 14, 3)]),
                                 1, width=8)
    assert grid.dims[0] > 0
    assert cells == tree
    assert tree[0] == [50]
    assert sorted(tree[1]) == [10, 12, 14]


def test_scenes_the_gather_grid_cannot_hold_walk_the_tree() -> None:
    from swept import AABB, Plane, Sphere
    from swept._kernels import sim_grid

    # 3D; colliders all far larger than the cells; no static collider (a plane only)
    solid = World()
    solid.add(Sphere((0.0, 0.0, 0.0), 1.0))
    huge = World()
    huge.add(Segment((0.0, 0.0), (1.0, 0.0)))
    for k in range(40):
        huge.add(AABB((-1e4, -1e4 + k), (1e4, 1e4 + k)))
    half = World()
    half.add(Plane((0.0, 1.0), 0.0))
    for world in (solid, huge, half):
        assert sim_grid.build_gather_grid(world._sync()).dims[0] == 0
    tree, cells, _grid = _gathers(huge, np.array([_box(-1, -1, 2, 2)]), 0xFFFFFFFF, width=64)
    assert cells == tree and len(tree[0]) == 41


def test_a_ball_whose_path_spans_the_whole_grid_still_meets_its_walls() -> None:
    # A path box far wider than the gather grid clamps to its edge cells as a float before
    # it becomes a cell index: converted first, 1e21 overflowed an int64 and the lookup
    # missed every column but the first, and the ball went through the wall.
    sim = Simulation(step=STEP)
    sim.world.add(Segment((1000.0, 0.0), (1000.0, 100.0)))
    sim.world.add(Segment((-1000.0, 0.0), (-1000.0, 100.0)))
    for k in range(30):
        sim.world.add(Segment((-900.0 + 60.0 * k, 0.0), (-890.0 + 60.0 * k, 10.0)))
    ball = sim.add(Body(Circle((0.0, 50.0), 1.0), velocity=(6e22, 0.0), restitution=1.0,
                        friction=0.0, ccd="swept"))
    sim.step()
    assert sim._gather_grid.dims[0] > 1
    assert ball.missed == 0
    assert ball.caught == 1
    assert abs(ball.position.x) == pytest.approx(999.0, rel=1e-9)
    assert ball.position.y == 50.0


# ------------------------------------------------------------------ work-list passes


def _pile(seed: int, balls: int, scale: float) -> Simulation:
    """A heap of overlapping balls of mixed masses under gravity in a box of thin walls
    (deep overlaps, a few coincident centres, some bodies asleep): the solver shifts, the
    pair pushes and the push-outs all act in every pass."""
    rng = np.random.default_rng(seed)
    side = 60.0 * scale
    sim = Simulation(step=STEP, gravity=(0.0, -900.0 * scale), sleep_time=None)
    corners = [(0.0, 0.0), (side, 0.0), (side, side), (0.0, side)]
    for i in range(4):
        sim.world.add(Segment(corners[i], corners[(i + 1) % 4]))
    sim.world.add(Segment((0.3 * side, 0.2 * side), (0.7 * side, 0.25 * side)))
    centers = rng.uniform(0.1 * side, 0.5 * side, (balls, 2))
    centers[1::9] = centers[::9][: centers[1::9].shape[0]]
    radii = rng.uniform(2.0, 6.0, balls) * scale
    vel = rng.normal(0.0, 200.0 * scale, (balls, 2))
    masses = rng.uniform(0.5, 4.0, balls)
    sim.add_balls(centers, radii, vel, mass=masses, restitution=0.3, friction=0.4,
                  ccd="swept")
    return sim


def _after_move(sim: Simulation) -> tuple:
    """Take a step up to the move (velocity solve, then the move), as the step does."""
    scene = sim._scene()
    sim._vel += sim._gravity * sim.time_step
    sim._shifted = False
    sim._solve_velocities(scene)
    shift = sim._shift.copy() if sim._shifted else np.zeros((0, 3))
    b, s = sim._arrays, sim._scratch
    n = b.pos.shape[0]
    kernels.advance_range(0, n, scene, b, s, np.zeros(3), STEP, sim.max_casts,
                          sim._gather_grid)
    first, neighbour = kernels.find_pairs(b.pos, b.radius, 2)
    return scene, b, s, kernels.meeting_pairs(b, first, neighbour), shift


def _state(b: kernels.Bodies, s: kernels.Scratch) -> bytes:
    """Every array the passes write, as bytes."""
    return b"".join(a.tobytes() for a in (b.pos, b.vel, s.touching, s.crossed, s.responded,
                                          b.caught, b.missed))


def _listed_passes(sim: Simulation, scene: object, b: kernels.Bodies, s: kernels.Scratch,
                   pairs: np.ndarray, shift: np.ndarray) -> list[int]:
    """The step's passes over work lists, as the step runs them; each pass's list length
    (after its pair pass), each list checked to hold a body at most once."""
    n = b.pos.shape[0]
    changed = np.empty(n, np.int64)
    listed = np.empty(n, np.bool_)
    work = np.empty(n, np.int64)
    count = kernels.first_work(b, s, shift, changed, listed, work)
    counts = []
    for k in range(sim.passes):
        count = kernels.listed_pairs_pass(b, pairs, s.dpos, k, changed, listed, work, count)
        assert len(set(work[:count].tolist())) == count
        counts.append(count)
        kernels.resolve_range(0, count, scene, b, s, work, sim._gather_grid)
        count = kernels.next_work(k, s, changed, listed, work, count)
    return counts


@settings(max_examples=25, deadline=None)
@given(st.integers(0, 2**32 - 1), st.integers(2, 90), st.sampled_from([1e-3, 1.0, 1e3]),
       st.integers(1, 6), st.booleans())
def test_work_list_passes_equal_passes_over_every_body(seed: int, balls: int, scale: float,
                                                       settle: int, sleepers: bool) -> None:
    # A pass visits only its work list (the bodies the move marked, the pushed and those a
    # collider changed last pass) and skips each pair whose bodies no pass changed since
    # the last one: exact only if every body left out, and every pair skipped, would have
    # repeated itself. Piles with deep overlaps, coincident centres, mixed masses, sleepers.
    sim = _pile(seed, balls, scale)
    sim.run(settle)
    if sleepers:
        sim._asleep[::4] = True
        sim._vel[sim._asleep] = 0.0
        sim._sleepers = True
        sim._arrays = sim._pack()
    scene, b, s, pairs, shift = _after_move(sim)
    n = b.pos.shape[0]
    saved = [a.copy() for a in (*b, *s)]
    # every body, every pair, each pass
    for k in range(sim.passes):
        s.dpos[:] = shift if k == 0 and shift.shape[0] else 0.0
        kernels.pairs_pass(b, pairs, s.dpos)
        kernels.resolve_range(0, n, scene, b, s, np.arange(n), sim._gather_grid)
    want = _state(b, s)
    for dst, src in zip((*b, *s), saved):
        dst[...] = src
    counts = _listed_passes(sim, scene, b, s, pairs, shift)
    assert _state(b, s) == want
    assert sum(counts) <= sim.passes * n


def test_work_lists_shrink_to_the_bodies_still_pushed() -> None:
    # the point of the lists: after the first pass, a pass visits the bodies still pushed
    # or pushed out, not every body (fast balls among walls, as bench_sim's scene)
    sim = _busy(3)
    sim.run(8)
    scene, b, s, pairs, shift = _after_move(sim)
    n = b.pos.shape[0]
    counts = _listed_passes(sim, scene, b, s, pairs, shift)
    assert counts[0] > 0
    assert max(counts[1:]) < n // 10
    assert not s.dpos.any()


def test_the_gather_grid_reports_a_box_on_cell_lines_once_from_its_first_shared_cell() -> None:
    # The grid keeps each collider's box and first cell (lower corner's cell) beside each of
    # its entries and reports a collider only from the first cell it shares with the query:
    # the larger of its first cell and the query's on each axis. A box whose corner lies
    # exactly on a cell line, a query starting on that line or just before it, and a query
    # that only grazes the box's corner are where a wrong first cell would list it twice or
    # never.
    from swept import AABB
    from swept._kernels import sim_grid

    world = World()
    for k in range(10):
        world.add(Segment((10.0 * k, 0.0), (10.0 * k + 25.0, 30.0)))
        world.add(AABB((10.0 * k, 50.0), (10.0 * k + 12.0, 95.0)))
    grid = sim_grid.build_gather_grid(world._sync())
    assert grid.dims[0] > 1 and grid.dims[1] > 1
    x0, y0, inv = grid.frame
    cell = 1.0 / inv
    lines_x = [x0 + cell * k for k in range(int(grid.dims[0]) + 1)]
    lines_y = [y0 + cell * k for k in range(int(grid.dims[1]) + 1)]
    queries = []
    for lx in lines_x:
        for ly in lines_y:
            for dx, dy in ((0.0, 0.0), (-1e-9, -1e-9), (-cell, -cell), (-2.5, 0.0)):
                queries.append(_box(lx + dx, ly + dy, lx + dx + cell, ly + dy + cell))
                # a zero-size query on the line: a corner or an edge of a cell
                queries.append(_box(lx + dx, ly + dy, lx + dx, ly + dy))
    # queries that share only a corner with a box (the AABB at x 10..22, y 50..95)
    queries += [_box(22.0, 95.0, 40.0, 120.0), _box(-5.0, 40.0, 10.0, 50.0)]
    tree, cells, _grid = _gathers(world, np.array(queries), 0xFFFFFFFF)
    assert cells == tree
    for found in cells:
        assert len(found) == len(set(found))
    # (segment k is handle 2k, box k handle 2k + 1: boxes 1..4 meet the first corner query
    # by a corner or an edge, boxes 0 and 1 the second)
    assert sorted(cells[-2]) == [3, 5, 7, 9]
    assert sorted(cells[-1]) == [1, 3]
    # each entry's box is its collider's box in the collider table, and its first cells
    # those of that box
    from swept._kernels.scene import H_ITEMS, HI, LO

    scene = world._sync()
    links = scene.links
    items = links[H_ITEMS]
    nx = int(grid.dims[0])
    for c in range(nx * int(grid.dims[1])):
        for e in range(grid.starts[c], grid.starts[c + 1]):
            h = links[items + grid.ranks[e]]
            box = [scene.rows[h, LO], scene.rows[h, LO + 1], scene.rows[h, HI],
                   scene.rows[h, HI + 1]]
            assert grid.boxes[e].tolist() == box
            first = [min(max(int((box[a] - grid.frame[a]) * inv), 0), int(grid.dims[a]) - 1)
                     for a in range(2)]
            assert grid.firsts[e].tolist() == first
            assert first[0] <= c % nx and first[1] <= c // nx
        # each cell's bounds, which a query tests before the cell's entries, are the union of
        # its entries' boxes (an empty cell's no box at all: every query misses it)
        entries = grid.boxes[grid.starts[c]:grid.starts[c + 1]]
        union = ([*entries[:, :2].min(axis=0), *entries[:, 2:].max(axis=0)] if len(entries)
                 else [np.inf, np.inf, -np.inf, -np.inf])
        assert grid.bounds[c].tolist() == union


# ------------------------------------------------------------ pairs found once, from one side


def _pair_lists(pos: np.ndarray, radius: np.ndarray, dim: int) -> None:
    """The one-call step's pair lists equal the threaded step's, row for row."""
    first, neighbour = kernels.find_pairs(pos, radius, dim)
    first_s, neighbour_s = kernels.pairs_serial(pos, radius, dim,
                                                 kernels.new_step_lists(len(pos)))
    assert first_s.tolist() == first.tolist()
    assert neighbour_s.tolist() == neighbour.tolist()


@settings(max_examples=40, deadline=None)
@given(st.integers(0, 2**32 - 1), st.sampled_from([2, 3]))
def test_pairs_found_once_list_what_the_full_neighbourhood_scan_lists(seed: int,
                                                                      dim: int) -> None:
    # The one-call step finds each pair of neighbours once, scanning only the forward half
    # of each cell's neighbourhood, and writes it into both rows: the lists must be the full
    # scan's, row for row. Coincident centres, pairs exactly at the reach, crowds of more
    # than the table's width in one cell, and far-flung bodies (a sparse grid searched by
    # key) are where one side could see what the other does not.
    rng = np.random.default_rng(seed)
    n = int(rng.integers(1, 300))
    pos = np.zeros((n, 3))
    pos[:, :dim] = rng.integers(0, 40, (n, dim)).astype(float) * 0.5
    radius = rng.integers(1, 5, n).astype(float) * 0.5
    kind = rng.integers(0, 4)
    if kind == 1:
        # a crowd: many bodies at a few spots
        pos[: n // 2] = pos[0]
    elif kind == 2:
        # far-flung: a sparse grid
        pos[::7, 0] += 1e9
    elif kind == 3:
        # pairs exactly at the reach, (r_i + r_j)(1 + margin) apart along x
        from swept.constants import PAIR_MARGIN_FRACTION

        radius[:] = 1.0
        pos[1::2] = pos[::2][: n // 2]
        pos[1::2, 0] += 2.0 * (1.0 + PAIR_MARGIN_FRACTION)
    _pair_lists(pos, radius, dim)


def test_pairs_found_once_past_the_tables_width() -> None:
    # 40 bodies at one spot: each has 39 neighbours, past the table's 16, found again
    pos = np.zeros((45, 3))
    pos[40:, 0] = (np.arange(5) + 1) * 100.0
    radius = np.ones(45)
    _pair_lists(pos, radius, 2)
    first, neighbour = kernels.pairs_serial(pos, radius, 2, kernels.new_step_lists(len(pos)))
    assert neighbour[first[0]:first[1]].tolist() == list(range(1, 40))


def test_cache_misses_gather_through_the_grid_as_through_the_tree() -> None:
    # A body whose cache does not cover a pass's, the bookkeeping's or the solver's query
    # gathers through the gather grid (gather_row) instead of walking the static tree: the
    # same colliders in the same order, so the passes, the counters and the contacts end in
    # the same bits. Every cache is emptied here, so every query of every body misses.
    from swept._kernels import sim_grid, solver

    sim = _busy(5)
    sim.run(8)
    assert sim._pairs is not None
    first, neighbour = sim._pairs
    prev = sim._contacts
    scene, b, s, pairs, _shift = _after_move(sim)
    n = b.pos.shape[0]
    saved = [a.copy() for a in (*b, *s)]
    states, listings = [], []
    for grid in (sim._gather_grid, sim_grid.no_grid()):
        for dst, src in zip((*b, *s), saved):
            dst[...] = src
        s.cache_count[:] = -1
        out = solver.new_contacts(n, 8 * n)
        count = solver.build_contacts(solver.Listing(scene, b, s, first, neighbour, prev,
                                                     sim.restitution_threshold, grid), out)
        listings.append(b"".join(np.ascontiguousarray(a).tobytes() for a in out)
                        + bytes([count % 256]))
        s.touching[:] = True
        for _ in range(sim.passes):
            s.dpos.fill(0.0)
            kernels.pairs_pass(b, pairs, s.dpos)
            kernels.resolve_range(0, n, scene, b, s, np.arange(n), grid)
        kernels.approaches_range(0, n, scene, b, s, grid)
        states.append(_state(b, s))
    assert sim._gather_grid.dims[0] > 1
    assert listings[0] == listings[1]
    assert states[0] == states[1]


def test_the_pair_scan_reads_the_bodies_in_the_pair_grids_cell_order() -> None:
    # The forward pair scan reads each body's position and radius from copies laid out in
    # the pair grid's cell order, and its cell's key from the sorted keys: the copies must be
    # the very numbers of pos[order] and radius[order], and each sorted key the key of that
    # body's cells, (cz * sy + cy) * sx + cx, from which the scan steps to its neighbours' rows.
    rng = np.random.default_rng(7)
    for dim, n, span in ((2, 500, 300.0), (3, 300, 50.0), (2, 40, 1e9)):
        pos = np.zeros((n, 3))
        pos[:, :dim] = rng.uniform(-span, span, (n, dim))
        radius = rng.uniform(0.5, 3.0, n)
        cells, sorted_keys, cell_start, order, sx, sy, _dim, cell_pos, cell_radius = (
            kernels.pair_grid(pos, radius, dim))
        assert (cell_start.shape[0] > 0) == (span < 1e9)
        assert cell_pos.tobytes() == pos[order].tobytes()
        assert cell_radius.tobytes() == radius[order].tobytes()
        keys = (cells[order, 2] * sy + cells[order, 1]) * sx + cells[order, 0]
        assert sorted_keys.tolist() == keys.tolist()
