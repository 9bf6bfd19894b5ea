"""``time_of_impact`` for shapes that turn while they move, against dense-sampling ground truth.

A box turning by up to pi in a step sweeps its corners along arcs, not lines, so no ray can
stand in for its motion: conservative advancement must bound how fast rotation can close the
gap, or it steps over a crossing and says "separated" (Box2D's b2TimeOfImpact does that for a
few percent of such crossings). The ground truth here samples each step 2,000 times (an
exact separating-axis test, and corner-to-edge distances for misses, vectorised over the
samples), then refines the first overlap by resampling its interval and bisecting with
:func:`swept.distance`. Over a seeded batch of crossings the query must never say SEPARATED
or OUT_OF_ITERATIONS, must report HIT no later than the first overlap with the shapes
touching, and must never report HIT for a true miss.
"""

from __future__ import annotations

import math
from dataclasses import dataclass
from functools import lru_cache
from typing import Any

import numpy as np
import pytest

from swept import Capsule, Circle, Polygon, Segment, Shape, Vec2
from swept._kernels.sweep import CAST_TOLERANCE
from swept.contact import contact
from swept.distance import distance
from swept.toi import Motion, TOIResult, TOIStatus, time_of_impact

#: samples of each step for the ground truth
SAMPLES = 2000
#: bisection steps refining the first overlap by distance() (after resampling the interval
#: of the first sampled overlap 2000 times: 2.5e-7, then 2^-14 of that)
BISECTIONS = 14
#: crossings and misses in the seeded box batch
CROSSINGS = 300
MISSES = 150


# ---------------------------------------------------------------------------------------------
# posing shapes over a step


def posed(shape: Shape, motion: Motion, t: float) -> Shape:
    """The shape at time ``t`` of the step: turned by ``angle + rotation t`` about its local
    origin, moved to ``position + displacement t``."""
    a = motion.angle + motion.rotation * t
    p = Vec2(*motion.position) + Vec2(*motion.displacement) * t

    def put(q: Any) -> Vec2:
        return Vec2(*q).rotated(a) + p

    if isinstance(shape, Polygon):
        return shape.placed(p, a)
    if isinstance(shape, Circle):
        return Circle(put(shape.center), shape.radius)
    if isinstance(shape, Capsule):
        return Capsule(put(shape.a), put(shape.b), shape.radius)
    assert isinstance(shape, Segment)
    return Segment(put(shape.a), put(shape.b))


def reach(shape: Shape) -> float:
    """The farthest any point of the shape is from its local origin."""
    if isinstance(shape, Polygon):
        return max(p.length() for p in shape.points)
    if isinstance(shape, Circle):
        return shape.center.length() + shape.radius
    if isinstance(shape, Capsule):
        return max(shape.a.length(), shape.b.length()) + shape.radius
    assert isinstance(shape, Segment)
    return max(shape.a.length(), shape.b.length())


def speed_bound(a: Shape, ma: Motion, b: Shape, mb: Motion) -> float:
    """How fast (per unit of step time) the gap between the shapes can change at most."""
    rel = Vec2(*ma.displacement) - Vec2(*mb.displacement)
    return rel.length() + abs(ma.rotation) * reach(a) + abs(mb.rotation) * reach(b)


def tolerance(a: Shape, ma: Motion, b: Shape, mb: Motion) -> float:
    """The stated touching tolerance: CAST_TOLERANCE times the scene's scale."""
    scale = max(1.0, reach(a) + max(map(abs, ma.position)), reach(b) + max(map(abs, mb.position)),
                Vec2(*ma.displacement).length(), Vec2(*mb.displacement).length())
    return CAST_TOLERANCE * scale + 1e-12 * scale


def depth(a: Shape, b: Shape) -> float:
    """How deep two shapes overlap (0 when apart)."""
    c = contact(a, b)
    return 0.0 if c is None else c.depth


# ---------------------------------------------------------------------------------------------
# ground truth for boxes: vectorised over the samples


def _box_local(hw: float, hh: float) -> np.ndarray:
    return np.array([(-hw, -hh), (hw, -hh), (hw, hh), (-hw, hh)])


def _posed_many(local: np.ndarray, m: Motion, t: np.ndarray) -> np.ndarray:
    """Local corners (n, 2) posed at every time of t (T,): (T, n, 2)."""
    ang = m.angle + m.rotation * t
    c = np.cos(ang)[:, None]
    s = np.sin(ang)[:, None]
    x = local[None, :, 0]
    y = local[None, :, 1]
    px = m.position[0] + m.displacement[0] * t[:, None]
    py = m.position[1] + m.displacement[1] * t[:, None]
    return np.stack([c * x - s * y + px, s * x + c * y + py], axis=-1)


def _points_to_edges(p: np.ndarray, q: np.ndarray) -> np.ndarray:
    """The least distance from any corner of p to any edge of q, per sample: (T,)."""
    a = q[:, None, :, :]
    ab = np.roll(q, -1, axis=1)[:, None, :, :] - a
    ap = p[:, :, None, :] - a
    u = np.clip((ap * ab).sum(-1) / (ab * ab).sum(-1), 0.0, 1.0)
    gap = ap - u[..., None] * ab
    return np.sqrt((gap * gap).sum(-1)).min(axis=(1, 2))


def box_overlaps(pa: np.ndarray, pb: np.ndarray) -> np.ndarray:
    """Whether two boxes posed at T times ((T, 4, 2) corners each) overlap, per sample: the
    separating axis test on each box's two edge normals (touching overlaps)."""
    separated = np.zeros(pa.shape[0], bool)
    for poly in (pa, pb):
        for k in (0, 1):
            ex = poly[:, k + 1, 0] - poly[:, k, 0]
            ey = poly[:, k + 1, 1] - poly[:, k, 1]
            # project every corner on the edge's normal (ey, -ex)
            sa = pa[:, :, 0] * ey[:, None] - pa[:, :, 1] * ex[:, None]
            sb = pb[:, :, 0] * ey[:, None] - pb[:, :, 1] * ex[:, None]
            separated |= (sa.max(1) < sb.min(1)) | (sb.max(1) < sa.min(1))
    return ~separated


def box_gaps(pa: np.ndarray, pb: np.ndarray) -> np.ndarray:
    """The gap between two boxes that do not overlap, per sample: the least distance from a
    corner of one to an edge of the other."""
    return np.minimum(_points_to_edges(pa, pb), _points_to_edges(pb, pa))


@dataclass(frozen=True)
class Case:
    """Two shapes, their motions, and the sampled truth."""

    a: Shape
    ma: Motion
    b: Shape
    mb: Motion
    #: the first time the shapes touch (refined), or None for a miss
    first_touch: float | None
    #: the first sampled time they overlap, or None
    first_overlap: float | None
    #: a lower bound on their gap over the whole step (for a miss)
    least_gap: float


def refine(a: Shape, ma: Motion, b: Shape, mb: Motion, lo: float, hi: float) -> float:
    """Bisect [lo, hi] (apart at lo, overlapping at hi) to the first touch, by distance()."""
    for _ in range(BISECTIONS):
        mid = 0.5 * (lo + hi)
        if distance(posed(a, ma, mid), posed(b, mb, mid)) > 0.0:
            lo = mid
        else:
            hi = mid
    return hi


def truth(a: Shape, ma: Motion, b: Shape, mb: Motion, overlap: np.ndarray, gap: np.ndarray,
          times: np.ndarray) -> Case:
    """A case from sampled overlaps and gaps."""
    hits = np.flatnonzero(overlap)
    # between samples the gap changes by at most speed * half an interval
    slack = speed_bound(a, ma, b, mb) * 0.5 / SAMPLES
    least = float(gap.min()) - slack
    if hits.size == 0:
        return Case(a, ma, b, mb, None, None, least)
    k = int(hits[0])
    if k == 0:
        return Case(a, ma, b, mb, 0.0, 0.0, 0.0)
    first = refine(a, ma, b, mb, float(times[k - 1]), float(times[k]))
    return Case(a, ma, b, mb, first, float(times[k]), 0.0)


def first_box_overlap(local_a: np.ndarray, ma: Motion, local_b: np.ndarray, mb: Motion,
                      lo: float, hi: float) -> tuple[float, float]:
    """Resample [lo, hi] (apart at lo, overlapping at hi) SAMPLES times: the bracket of the
    first overlap in it."""
    times = np.linspace(lo, hi, SAMPLES + 1)
    overlap = box_overlaps(_posed_many(local_a, ma, times), _posed_many(local_b, mb, times))
    k = int(np.flatnonzero(overlap)[0])
    return float(times[k - 1]), float(times[k])


def random_box_case(rng: np.random.Generator, want_miss: bool = True) -> Case | None:
    """Two boxes a few sizes apart, box A moving roughly at B, both turning up to pi (None
    for a miss when ``want_miss`` is False: its gaps are not worth computing)."""
    hwa, hha, hwb, hhb = rng.uniform(0.2, 2.0, 4)
    pa = rng.uniform(-10, 10, 2)
    heading = rng.uniform(0, 2 * math.pi)
    gap = rng.uniform(1.0, 8.0)
    pb = pa + gap * np.array([math.cos(heading), math.sin(heading)])
    aim = pb - pa + rng.uniform(-3.0, 3.0, 2)
    ma = Motion(tuple(pa), rng.uniform(-math.pi, math.pi), tuple(aim * rng.uniform(0.3, 2.0)),
                rng.uniform(-math.pi, math.pi))
    mb = Motion(tuple(pb), rng.uniform(-math.pi, math.pi), tuple(rng.uniform(-2.0, 2.0, 2)),
                rng.uniform(-math.pi, math.pi))
    a = Polygon.box(hwa, hha)
    b = Polygon.box(hwb, hhb)
    times = np.linspace(0.0, 1.0, SAMPLES + 1)
    corners_a = _posed_many(_box_local(hwa, hha), ma, times)
    corners_b = _posed_many(_box_local(hwb, hhb), mb, times)
    overlap = box_overlaps(corners_a, corners_b)
    hits = np.flatnonzero(overlap)
    if hits.size == 0:
        if not want_miss:
            return None
        # a miss: the least gap, less what can close between samples
        slack = speed_bound(a, ma, b, mb) * 0.5 / SAMPLES
        least = float(box_gaps(corners_a, corners_b).min()) - slack
        return Case(a, ma, b, mb, None, None, least)
    k = int(hits[0])
    if k == 0:
        return Case(a, ma, b, mb, 0.0, 0.0, 0.0)
    # one more level of dense sampling inside the interval, then bisection by distance()
    lo, hi = first_box_overlap(_box_local(hwa, hha), ma, _box_local(hwb, hhb), mb,
                               float(times[k - 1]), float(times[k]))
    return Case(a, ma, b, mb, refine(a, ma, b, mb, lo, hi), float(times[k]), 0.0)


@lru_cache(maxsize=1)
def box_batch() -> tuple[list[Case], list[Case]]:
    """The seeded batch: CROSSINGS crossings (apart at the start) and MISSES clear misses."""
    rng = np.random.default_rng(20240531)
    crossings: list[Case] = []
    misses: list[Case] = []
    for _ in range(20 * (CROSSINGS + MISSES)):
        if len(crossings) >= CROSSINGS and len(misses) >= MISSES:
            break
        case = random_box_case(rng, want_miss=len(misses) < MISSES)
        if case is None:
            continue
        if case.first_touch is not None and case.first_touch > 0.0:
            if len(crossings) < CROSSINGS:
                crossings.append(case)
        elif case.first_touch is None and len(misses) < MISSES:
            misses.append(case)
    assert len(crossings) == CROSSINGS and len(misses) == MISSES
    return crossings, misses


def query(case: Case) -> TOIResult:
    """swept's answer for a case."""
    return time_of_impact(case.a, case.ma, case.b, case.mb)


def assert_hit_matches_truth(case: Case, result: TOIResult) -> None:
    """HIT, no later than the first overlap, with the shapes touching at the reported time."""
    assert case.first_touch is not None
    assert result.status is TOIStatus.HIT, (case, result)
    tol = tolerance(case.a, case.ma, case.b, case.mb)
    # no later than the first touch (bisected) and so than the first sampled overlap
    assert result.fraction <= case.first_touch + 1e-12, (case, result)
    assert case.first_overlap is not None and result.fraction <= case.first_overlap
    # touching at that time: the gap within the tolerance, and no deeper overlap
    at_a = posed(case.a, case.ma, result.fraction)
    at_b = posed(case.b, case.mb, result.fraction)
    assert distance(at_a, at_b) <= tol, (case, result)
    assert depth(at_a, at_b) <= tol, (case, result)
    # not stopped early: the gap tolerance over the closing speed (no case here grazes
    # within the tolerance before it crosses)
    assert result.fraction >= case.first_touch - 1e-6, (case, result)
    assert abs(result.normal.length() - 1.0) <= 1e-9, result


# ---------------------------------------------------------------------------------------------
# the seeded box batch


def test_no_crossing_of_turning_boxes_is_reported_separated() -> None:
    # conservative advancement bounds the closing speed by |v| plus |w| times each box's
    # reach, so it can never step past a crossing, at any rotation per step
    crossings, _ = box_batch()
    wrong = [c for c in crossings if query(c).status in (TOIStatus.SEPARATED,
                                                          TOIStatus.OUT_OF_ITERATIONS)]
    assert wrong == []


def test_turning_boxes_hit_no_later_than_the_first_overlap_and_touch_there() -> None:
    crossings, _ = box_batch()
    for case in crossings:
        assert_hit_matches_truth(case, query(case))


def test_turning_boxes_that_miss_are_reported_separated() -> None:
    _, misses = box_batch()
    for case in misses:
        result = query(case)
        tol = tolerance(case.a, case.ma, case.b, case.mb)
        if case.least_gap > tol:
            # a true miss beyond the tolerance
            assert result.status is TOIStatus.SEPARATED, (case, result)
            assert result.fraction == 1.0


def test_the_batch_turns_boxes_by_up_to_pi() -> None:
    crossings, misses = box_batch()
    turns = [abs(c.ma.rotation) for c in crossings + misses]
    assert max(turns) > 0.95 * math.pi
    assert sum(t > math.pi / 2 for t in turns) > len(turns) // 4
    assert sum(c.least_gap > 0.0 for c in misses) > MISSES // 2


# ---------------------------------------------------------------------------------------------
# exact values


def test_translating_boxes_close_their_gap() -> None:
    # gap 3 closed at 10 a step: 0.3, as a linear cast says
    result = time_of_impact(Polygon.box(1, 1), Motion((0, 0), 0, (10, 0), 0),
                            Polygon.box(1, 1), Motion((5, 0)))
    assert result.status is TOIStatus.HIT
    assert result.fraction == pytest.approx(0.3, abs=1e-9)


def test_translating_boxes_meeting_face_to_face_report_a_unit_normal() -> None:
    # Regression: when conservative advancement lands exactly on the touch of two shapes
    # with no radius (here in two iterations, gap 3 closed at 10 a step), GJK sees the cores
    # touching and rotating_time_of_impact returns HIT with a zero normal; a hit's normal
    # must be a unit vector (DESIGN: "Normals are unit vectors"), here (-1, 0) out of B.
    result = time_of_impact(Polygon.box(1, 1), Motion((0, 0), 0, (10, 0), 0),
                            Polygon.box(1, 1), Motion((5, 0)))
    assert result.status is TOIStatus.HIT
    assert result.normal.is_close((-1, 0), 1e-9), result.normal


def test_spinning_circle_about_its_centre_moves_like_a_translating_one() -> None:
    # a circle turning about its own centre sweeps nothing extra
    result = time_of_impact(Circle((0, 0), 1), Motion((0, 0), 0, (10, 0), 5.0),
                            Polygon.box(1, 1), Motion((5, 0)))
    assert result.status is TOIStatus.HIT
    assert result.fraction == pytest.approx(0.3, abs=1e-9)
    assert result.normal.is_close((-1, 0), 1e-6)


def test_turning_bar_sweeps_into_a_dot() -> None:
    # a bar of half-length 2 (radius 0.1) turning a quarter turn about its middle meets a
    # dot of radius 0.1 at (0, 1.5) when the dot is 0.2 from its line: 1.5 cos(th) = 0.2
    bar = Capsule((-2, 0), (2, 0), 0.1)
    dot = Circle((0, 0), 0.1)
    result = time_of_impact(bar, Motion((0, 0), 0, (0, 0), math.pi / 2), dot,
                            Motion((0, 1.5)))
    assert result.status is TOIStatus.HIT
    expected = math.acos(0.2 / 1.5) / (math.pi / 2)
    # a gap tolerance of ~1e-9 over a closing speed of ~1.5 * pi / 2
    assert result.fraction == pytest.approx(expected, abs=1e-8)
    at = posed(bar, Motion((0, 0), 0, (0, 0), math.pi / 2), result.fraction)
    assert distance(at, Circle((0, 1.5), 0.1)) == pytest.approx(0.0, abs=1e-8)


def test_a_half_turn_box_sweeps_a_corner_into_a_dot_a_linear_cast_would_miss() -> None:
    # a 4 x 0.2 bar turning half a turn about its middle, its ends reaching radius ~2: a dot
    # at (0, 1.9) is met; without rotation the bar never comes near it
    bar = Polygon.box(2, 0.1)
    dot = Circle((0, 0), 0.05)
    spin = Motion((0, 0), 0, (0, 0), math.pi)
    result = time_of_impact(bar, spin, dot, Motion((0, 1.9)))
    assert result.status is TOIStatus.HIT
    at = posed(bar, spin, result.fraction)
    assert distance(at, Circle((0, 1.9), 0.05)) <= 1e-8
    still = time_of_impact(bar, Motion(), dot, Motion((0, 1.9)))
    assert still.status is TOIStatus.SEPARATED


def test_overlapped_start_is_reported_overlapped_at_zero() -> None:
    result = time_of_impact(Polygon.box(1, 1), Motion((0, 0), 0.3, (5, 0), 2.0),
                            Polygon.box(1, 1), Motion((1.5, 0)))
    assert result.status is TOIStatus.OVERLAPPED
    assert result.fraction == 0.0
    circles = time_of_impact(Circle((0, 0), 1), Motion(), Circle((0, 0), 1), Motion((1, 0)))
    assert circles.status is TOIStatus.OVERLAPPED
    assert circles.fraction == 0.0


def test_zero_motion_apart_is_separated_and_touching_is_a_contact() -> None:
    apart = time_of_impact(Polygon.box(1, 1), Motion(), Polygon.box(1, 1), Motion((3, 0)))
    assert apart.status is TOIStatus.SEPARATED
    assert apart.fraction == 1.0
    touching = time_of_impact(Circle((0, 0), 1), Motion(), Circle((0, 0), 1), Motion((2, 0)))
    assert touching.status in (TOIStatus.HIT, TOIStatus.OVERLAPPED)
    assert touching.fraction == 0.0


def test_bad_input_is_named() -> None:
    with pytest.raises(ValueError, match="motion_a.displacement"):
        time_of_impact(Circle((0, 0), 1), Motion((0, 0), 0, (math.nan, 0)), Circle((0, 0), 1),
                       Motion((3, 0)))
    with pytest.raises(ValueError, match="motion_b.rotation"):
        time_of_impact(Circle((0, 0), 1), Motion(), Circle((0, 0), 1),
                       Motion((3, 0), 0, (0, 0), math.inf))
    with pytest.raises(TypeError, match="motion_a"):
        time_of_impact(Circle((0, 0), 1), (0, 0), Circle((0, 0), 1), Motion())  # type: ignore[arg-type]


# ---------------------------------------------------------------------------------------------
# circles and capsules, off their rotation centres (so they travel along arcs)


def _sampled_case(a: Shape, ma: Motion, b: Shape, mb: Motion, samples: int) -> Case:
    """Ground truth by distance() at ``samples`` times (for shapes with radii)."""
    times = np.linspace(0.0, 1.0, samples + 1)
    gaps = np.array([distance(posed(a, ma, t), posed(b, mb, t)) for t in times])
    overlap = gaps <= 0.0
    hits = np.flatnonzero(overlap)
    slack = speed_bound(a, ma, b, mb) * 0.5 / samples
    if hits.size == 0:
        return Case(a, ma, b, mb, None, None, float(gaps.min()) - slack)
    k = int(hits[0])
    if k == 0:
        return Case(a, ma, b, mb, 0.0, 0.0, 0.0)
    return Case(a, ma, b, mb, refine(a, ma, b, mb, float(times[k - 1]), float(times[k])),
                float(times[k]), 0.0)


def _round_shape(rng: np.random.Generator, kind: str) -> Shape:
    """A circle or capsule whose local origin (the rotation centre) is off its middle."""
    off = Vec2(*rng.uniform(-1.0, 1.0, 2))
    if kind == "circle":
        return Circle(off, rng.uniform(0.2, 1.0))
    half = Vec2(*rng.uniform(-1.5, 1.5, 2))
    if half.length() < 0.2:
        half = Vec2(0.2, 0.0)
    return Capsule(off - half, off + half, rng.uniform(0.1, 0.6))


@pytest.mark.parametrize(("kind_a", "kind_b"), [("circle", "box"), ("capsule", "box"),
                                                ("capsule", "capsule"),
                                                ("circle", "capsule")])
def test_turning_circles_and_capsules_against_sampled_truth(kind_a: str, kind_b: str) -> None:
    rng = np.random.default_rng(hash((kind_a, kind_b)) % 2**32)
    seen_hits = seen_misses = 0
    for _ in range(30):
        a = _round_shape(rng, kind_a)
        b = Polygon.box(*rng.uniform(0.3, 1.5, 2)) if kind_b == "box" else _round_shape(
            rng, kind_b)
        pa = rng.uniform(-5, 5, 2)
        pb = pa + rng.uniform(2.0, 5.0) * np.array([1.0, 0.0]) + rng.uniform(-1, 1, 2)
        ma = Motion(tuple(pa), rng.uniform(-math.pi, math.pi),
                    tuple((pb - pa) * rng.uniform(0.2, 1.5) + rng.uniform(-2, 2, 2)),
                    rng.uniform(-math.pi, math.pi))
        mb = Motion(tuple(pb), rng.uniform(-math.pi, math.pi), (0.0, 0.0),
                    rng.uniform(-math.pi, math.pi))
        case = _sampled_case(a, ma, b, mb, 400)
        result = query(case)
        tol = tolerance(a, ma, b, mb)
        if case.first_touch == 0.0:
            assert result.status in (TOIStatus.OVERLAPPED, TOIStatus.HIT)
            assert result.fraction == 0.0
        elif case.first_touch is not None:
            seen_hits += 1
            assert_hit_matches_truth(case, result)
        elif case.least_gap > tol:
            seen_misses += 1
            assert result.status is TOIStatus.SEPARATED, (case, result)
    assert seen_hits >= 5 and seen_misses >= 3
