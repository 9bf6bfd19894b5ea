"""The polygon's and the capsule's ray kernels answer bit for bit as their plain forms, on the
cases where rounding decides: rays through corners, grazing an edge or an end, parallel to an
edge, starting on the boundary, scales 1e-6 to 1e7.

``ray_polygon`` clips by selects, every edge divided (:func:`plain_clipping` here is the same
clipping as branches, an edge at a time, stopping at the first edge that clips the ray away),
and the capsule skips the normal of an end it surely starts beyond and the call of an end
circle whose first tests already miss. The bound that lets the capsule skip is checked here
against exact arithmetic (``fractions.Fraction``), and the kernels against the plain
clipping and the circle kernel (``ray_circle``) that they must equal.
"""

from __future__ import annotations

import math
import struct
from fractions import Fraction
from typing import Any

import numpy as np
import pytest

from swept._kernels import ray as K
from swept.shapes import Polygon

INF = math.inf


def bits(values: Any) -> tuple[int, ...]:
    """Each float of a kernel's result as its 64 bits (so -0.0 differs from 0.0)."""
    return tuple(struct.unpack("<q", struct.pack("<d", float(v)))[0] for v in values)


def plain_clipping(o: tuple[float, float], d: tuple[float, float], poly: Polygon,
                   max_distance: float) -> tuple[float, int, bool, float]:
    """The clipping of ``[0, inf]`` by each edge's half-plane as branches, in Python floats
    (the same IEEE operations): ``(t, edge, inside, exit)`` as ``ray_polygon_edge_x`` must
    give it. A parallel edge the origin lies outside of misses at once; so does an entry past
    the exit, checked at every edge."""
    ox, oy = o
    dx, dy = d
    t_enter, t_exit, entered, nearest, nearest_gap = 0.0, INF, -1, 0, INF
    for i, ((vx, vy), (nx, ny)) in enumerate(zip(poly._verts.tolist(), poly._norms.tolist())):
        gap = nx * (vx - ox) + ny * (vy - oy)
        if gap < nearest_gap:
            nearest_gap, nearest = gap, i
        denom = nx * dx + ny * dy
        if denom == 0.0:
            if gap < 0.0:
                return (K.MISS, 0, False, 0.0)
        elif denom < 0.0:
            if gap / denom > t_enter:
                t_enter, entered = gap / denom, i
        elif gap / denom < t_exit:
            t_exit = gap / denom
        if t_enter > t_exit:
            return (K.MISS, 0, False, 0.0)
    if t_enter > max_distance or t_enter == INF:
        return (K.MISS, 0, False, 0.0)
    if entered >= 0:
        return (t_enter, entered, False, t_exit)
    return (0.0, nearest, True, t_exit)


def by_clipping(o: tuple[float, float], d: tuple[float, float], poly: Polygon,
                max_distance: float) -> tuple[float, ...]:
    """``ray_polygon``'s answer as the plain clipping (:func:`plain_clipping`) gives it."""
    t, edge, inside, _exit = plain_clipping(o, d, poly, max_distance)
    if t < 0.0:
        return (K.MISS, 0.0, 0.0, 0.0, 0.0, False)
    return (t, o[0] + t * d[0], o[1] + t * d[1], poly._norms[edge, 0], poly._norms[edge, 1],
            inside)


#: ``swept._kernels.ray._unit2`` run as Python (its own code, in Python floats: the same IEEE
#: operations). (By string: no Python code names a callee.)
unit = vars(K)["_unit2"].py_func


def polygons() -> list[Polygon]:
    """Convex polygons whose corners and edges make rounding decide: a lattice square, a
    sliver, sharp and flat corners, a jittered octagon, each at scales 1e-6 to 1e7."""
    shapes: list[list[tuple[float, float]]] = [
        [(0, 0), (4, 0), (4, 4), (0, 4)],
        [(0, 0), (1, 1e-7), (0.3, -1e-9)],
        [(0, 0), (10, 0), (5, 0.01)],
        [(-1, 0), (0, -1), (1, 0), (0.9, 0.2), (0, 1)],
        [(math.cos(a + 0.1 * math.sin(7 * a)), math.sin(a + 0.1 * math.sin(7 * a)))
         for a in (k * 2.0 * math.pi / 8 for k in range(8))],
    ]
    out = []
    for s in (1e-6, 1e-3, 1.0, 37.5, 1e7):
        for pts in shapes:
            out.append(Polygon([(s * x + 3.0 * s, s * y - 11.0 * s) for x, y in pts]))
    return out


def rays_at(poly: Polygon) -> list[tuple[tuple[float, float], tuple[float, float]]]:
    """Rays that meet the polygon where rounding decides: through each corner, along each
    edge, from each corner and edge middle, grazing each corner by a few ulps either side,
    from inside, from far away."""
    v = [tuple(p) for p in poly._verts]
    n = len(v)
    span = max(abs(c) for p in v for c in p) + 1e-300
    far = [(v[0][0] - 7.0 * span, v[0][1] + 3.0 * span), (v[0][0] + 2.0 * span, v[0][1])]
    centre = (sum(p[0] for p in v) / n, sum(p[1] for p in v) / n)
    out = []
    for i in range(n):
        a, b = v[i], v[(i + 1) % n]
        ex, ey, _len = unit(b[0] - a[0], b[1] - a[1])
        mid = (a[0] + 0.5 * (b[0] - a[0]), a[1] + 0.5 * (b[1] - a[1]))
        for o in (*far, centre, mid, a, (a[0] - 3.0 * ex * span, a[1] - 3.0 * ey * span)):
            for target in (a, mid, centre):
                dx, dy, length = unit(target[0] - o[0], target[1] - o[1])
                if length > 0.0:
                    out.append((o, (dx, dy)))
                    for k in (-3, -1, 1, 3):
                        # grazing: the direction turned by a few ulps
                        gx, gy, _g = unit(dx - k * 2.2e-16 * dy, dy + k * 2.2e-16 * dx)
                        out.append((o, (gx, gy)))
            out.append((o, (ex, ey)))
            out.append((o, (-ex, -ey)))
            out.append((o, (0.0 - ey, ex)))
    return out


def test_polygon_answers_as_its_clipping_bit_for_bit() -> None:
    """ray_polygon clips by selects, dividing every edge and comparing the entry with the exit
    once: every field equals the plain clipping's (branches, an early miss), -0.0 included,
    at every reach, and so does ray_polygon_edge_x's exit."""
    checked = hits = inside = 0
    for poly in polygons():
        for o, d in rays_at(poly):
            full = by_clipping(o, d, poly, INF)
            reaches = [INF, 0.0]
            if full[0] > 0.0:
                reaches += [full[0], math.nextafter(full[0], -INF)]
            for reach in reaches:
                want = by_clipping(o, d, poly, reach)
                got = K.ray_polygon(o[0], o[1], d[0], d[1], poly._verts, poly._norms, reach)
                assert bits(got) == bits(want), (o, d, reach, poly._verts.tolist())
                # the entered edge and the exit (Polygon.raycast's kernel)
                plain = plain_clipping(o, d, poly, reach)
                edge = K.ray_polygon_v((o[0], o[1], d[0], d[1], reach), poly._corners)
                if plain[0] < 0.0:
                    assert edge is None
                else:
                    assert edge is not None
                    assert bits((edge[0], edge[5])) == bits((plain[0], plain[3]))
                    assert edge[3:5] == plain[1:3]
                checked += 1
                hits += got[0] > 0.0
                inside += got[5]
    # the cases reach every path: hits from outside, starts inside or on the boundary
    assert checked > 10_000 and hits > 2_000 and inside > 2_000


@pytest.mark.parametrize("scale", [1e-6, 1.0, 1e7, 1e-150, 1e150])
def test_the_length_bound_holds_in_exact_arithmetic(scale: float) -> None:
    """The capsule skips the normal of an end its origin is surely beyond when ``x^2 + y^2 >
    reach^2 * LENGTH_SURE``: then the true length and the rounded one ``_unit2`` gives both
    exceed ``reach``. Checked on offsets a few ulps around the reach."""
    rng = np.random.default_rng(6)
    passed = 0
    for _ in range(2000):
        reach = float(rng.uniform(0.1, 2.0)) * scale
        a = float(rng.uniform(0.0, 2.0 * math.pi))
        for k in (1.0 - 1e-12, 1.0, 1.0 + 2.0 ** -42, 1.0 + 2.0 ** -40, 1.0 + 1e-11, 1.5):
            x = reach * k * math.cos(a)
            y = reach * k * math.sin(a)
            rr = reach * reach
            if rr >= K.SQUARE_NORMAL_MIN and x * x + y * y > rr * K.LENGTH_SURE:
                passed += 1
                assert Fraction(x) ** 2 + Fraction(y) ** 2 > Fraction(reach) ** 2
                assert unit(x, y)[2] > reach
    assert passed > 3000


@pytest.mark.parametrize("scale", [1e-6, 1.0, 1e7])
def test_capsule_start_beyond_an_end_is_decided_by_its_rounded_distance(scale: float) -> None:
    """An origin beyond a capsule's end starts inside exactly when its rounded distance from
    that end (``_unit2``) is at most the radius, with that unit offset as the normal: the
    skip of the normal (surely beyond) never changes that, at distances within ulps of r."""
    a = (3.0 * scale, -2.0 * scale)
    b = (7.0 * scale, 1.0 * scale)
    r = 0.75 * scale
    starts = 0
    for ang in np.linspace(0.0, 2.0 * math.pi, 41):
        for end, sign in ((a, -1.0), (b, 1.0)):
            ux, uy, _len = unit(b[0] - a[0], b[1] - a[1])
            # beyond the end: the offset's component along the core points away from it
            cx = math.cos(ang) * 0.5 + sign * ux
            cy = math.sin(ang) * 0.5 + sign * uy
            cx, cy, _c = unit(cx, cy)
            for k in range(-6, 7):
                q = r * (1.0 + k * 2.0 ** -52)
                o = (end[0] + q * cx, end[1] + q * cy)
                wx, wy, dist = unit(o[0] - end[0], o[1] - end[1])
                along = (o[0] - a[0]) * ux + (o[1] - a[1]) * uy
                if 0.0 <= along <= math.hypot(b[0] - a[0], b[1] - a[1]):
                    continue  # beside the core: not this path
                got = K.ray_capsule2(o[0], o[1], 0.6, 0.8, *a, *b, r, INF)
                assert got[5] is (dist <= r), (ang, k)
                if got[5]:
                    starts += 1
                    assert got[0] == 0.0 and got[3:5] == (wx, wy)
    assert starts > 100


@pytest.mark.parametrize("scale", [1e-6, 1.0, 1e7])
def test_capsule_end_circle_hits_equal_the_circle_kernel(scale: float) -> None:
    """A ray parallel to the core at about the radius meets only the end circles (the sides
    are skipped as parallel): the capsule's answer is the nearer end circle's kernel answer,
    bit for bit, tangent rays and near misses included, though it skips the call of a
    circle whose first tests miss (the same tests on the same numbers)."""
    a = (0.0, 0.0)
    b = (10.0 * scale, 0.0)
    r = 1.5 * scale
    for k in range(-8, 9):
        h = r * (1.0 + k * 2.0 ** -40)
        for ox, dx in ((-5.0 * scale, 1.0), (15.0 * scale, -1.0), (-5.0 * scale, -1.0)):
            for hy in (h, -h):
                got = K.ray_capsule2(ox, hy, dx, 0.0, *a, *b, r, INF)
                first, second = (a, b) if dx > 0.0 else (b, a)
                want = K.ray_circle(ox, hy, dx, 0.0, *first, r, INF)
                if want[0] < 0.0:
                    want = K.ray_circle(ox, hy, dx, 0.0, *second, r, INF)
                assert bits(got) == bits(want), (k, ox, dx, hy)


@pytest.mark.parametrize("scale", [1e-6, 1.0, 1e7])
def test_circle_distance_is_the_circle_kernels_t_bit_for_bit(scale: float) -> None:
    """The World's circle rows and a capsule's end circles take ``ray_circle_distance``, the
    circle kernel's ``t`` without its normal: the same bits on tangent rays, near misses,
    origins on the rim, inside, at the centre, a radius of 0, and reaches at the hit."""
    rng = np.random.default_rng(7)
    c = (2.0 * scale, -3.0 * scale)
    checked = hits = 0
    for r in (0.0, 1e-300, 0.5 * scale, 3.0 * scale):
        for _ in range(300):
            ang = float(rng.uniform(0.0, 2.0 * math.pi))
            q = max(r, scale) * float(rng.choice([0.0, 0.5, 1.0, 1.0 + 2.0 ** -52, 4.0, 50.0]))
            o = (c[0] + q * math.cos(ang), c[1] + q * math.sin(ang))
            # aimed at the centre, turned so that the line passes about r from it, tangent
            # within ulps either side
            dx, dy, length = unit(c[0] - o[0], c[1] - o[1])
            if length > r > 0.0:
                turn = math.asin(r / length) * float(rng.choice([-1.0, 1.0]))
                turn *= 1.0 + float(rng.integers(-4, 5)) * 2.0 ** -52
                dx, dy = (dx * math.cos(turn) - dy * math.sin(turn),
                          dx * math.sin(turn) + dy * math.cos(turn))
            if length == 0.0:
                dx, dy = 0.6, 0.8
            full = K.ray_circle(o[0], o[1], dx, dy, *c, r, INF)
            for reach in (INF, 0.0, full[0], math.nextafter(full[0], -INF)):
                want = K.ray_circle(o[0], o[1], dx, dy, *c, r, reach)[0]
                got = K.ray_circle_distance(o[0], o[1], dx, dy, *c, r, reach)
                assert bits([got]) == bits([want]), (o, dx, dy, r, reach)
                checked += 1
                hits += got > 0.0
    assert checked > 4000 and hits > 500
