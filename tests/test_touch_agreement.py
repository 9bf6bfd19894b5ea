"""``distance()`` and ``contact()`` agree on what touches, at every scale.

Regression: the contact kernels read any gap above 0 as apart (``d > r``), while
``distance()`` reads a gap within ``TOUCH_TOLERANCE`` of the coordinates' magnitude as 0, so
two shapes moved into touch by their own closest points (left a rounding's width apart) had
distance 0 and no contact: 15 to 64% of such cases for every ball pair (a point on a
segment, a ball on a box, sphere on sphere), a quarter of box pairs, nearly half of balls and
capsules against hulls, and a point on a chain's end (the chain's candidate box missed it by
an ulp). Both now read gaps by one rule (``_kernels.geom.gap_apart``): within the tolerance,
a contact of depth 0.
"""

from __future__ import annotations

import math
from typing import Any

import numpy as np
import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from swept import (
    AABB,
    Capsule,
    Chain,
    Circle,
    ConvexHull,
    OrientedBox,
    Polygon,
    Segment,
    Sphere,
    TileMap,
    closest_points,
    contact,
    distance,
)
from swept.constants import TOUCH_TOLERANCE

KINDS_2D = ("point", "circle", "segment", "capsule", "box", "polygon")
TARGETS_2D = KINDS_2D + ("chain", "tiles")
KINDS_3D = ("point", "sphere", "capsule", "segment", "box", "obb", "hull")

coord = st.floats(-5.0, 5.0, allow_nan=False)


def _shape(kind: str, dim: int, s: float, c: list[float]) -> Any:
    """A shape of ``kind`` at scale s from ten numbers in [-5, 5]."""
    a = tuple(x * s for x in c[:dim])
    b = tuple(x * s for x in c[3:3 + dim])
    r = (abs(c[6]) + 0.1) * s / 3
    if kind == "point":
        return Circle(a, 0.0) if dim == 2 else Sphere(a, 0.0)
    if kind in ("circle", "sphere"):
        return Circle(a, r) if dim == 2 else Sphere(a, r)
    if kind == "segment":
        return Segment(a, b) if dim == 2 else Capsule(a, b, 0.0)
    if kind == "capsule":
        return Capsule(a, b, r)
    if kind == "box":
        return AABB(tuple(min(p, q) - s for p, q in zip(a, b, strict=True)),
                    tuple(max(p, q) for p, q in zip(a, b, strict=True)))
    if kind == "polygon":
        return Polygon([(a[0] + math.cos(k) * r * 3, a[1] + math.sin(k) * r * 3)
                        for k in (0.1, 1.9, 3.5, 4.4, 5.5)])
    if kind == "obb":
        q = np.array(c[6:10]) + 0.1
        half = (r + 0.1 * s, r * 2 + 0.1 * s, r / 2 + 0.1 * s)
        return OrientedBox(a, half, q / np.linalg.norm(q))
    if kind == "hull":
        return ConvexHull([(a[0] + math.cos(k) * r * 3, a[1] + math.sin(2 * k) * r * 3,
                            a[2] + math.cos(3 * k + c[7]) * r * 3) for k in range(8)])
    if kind == "chain":
        return Chain([a, b, (a[0] + b[1], a[1] - b[0]), (c[7] * s, c[8] * s)])
    assert kind == "tiles"
    solid = np.array([[(i * 7 + j * 3 + int(abs(c[9]) * 10)) % 3 == 0 for j in range(4)]
                      for i in range(4)])
    return TileMap(solid, r + 0.1 * s, a)


def _touching(a: Any, b: Any) -> Any:
    """a moved by the vector between the two shapes' closest points: touching, to rounding."""
    pa, pb, d = closest_points(a, b)
    return a.translated(tuple(q - p for p, q in zip(pa, pb, strict=True))), d


def _check(a: Any, b: Any) -> None:
    for x, y in ((a, b), (b, a)):
        d = distance(x, y)
        c = contact(x, y)
        assert (d == 0.0) == (c is not None), (x, y, d, c)
        if c is not None:
            assert c.depth >= 0.0 and all(math.isfinite(v) for v in (*c.normal, *c.point))


@pytest.mark.parametrize("dim, mover, target",
                         [(2, m, t) for m in KINDS_2D for t in TARGETS_2D]
                         + [(3, m, t) for m in KINDS_3D for t in KINDS_3D])
@settings(max_examples=12, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(scale=st.integers(-6, 7), ca=st.lists(coord, min_size=10, max_size=10),
       cb=st.lists(coord, min_size=10, max_size=10))
def test_shapes_moved_into_touch_touch_by_both_queries(dim: int, mover: str, target: str,
                                                       scale: int, ca: list[float],
                                                       cb: list[float]) -> None:
    s = 10.0 ** scale
    try:
        a = _shape(mover, dim, s, ca)
        b = _shape(target, dim, s, cb)
    except ValueError:
        # a degenerate draw (a zero-length segment, a flat hull, a tile map with no tile)
        return
    moved, d = _touching(a, b)
    if d == 0.0:
        return
    _check(moved, b)


def test_the_cases_found() -> None:
    # a point on a diagonal segment to rounding, at 1e-7
    _check(Circle((-5.621361952395547e-08, -3.652392346797628e-08), 0.0),
           Segment((-8.983333951325841e-07, 3.5984655235775217e-07),
                   (9.471572699516146e-07, -5.087923684212847e-07)))
    # a point an ulp outside the box of a chain's last segment, at its end
    chain = Chain([(0.017311352543870707, -0.04167658621961021),
                   (-0.04833093698844405, -0.04854400250751877),
                   (0.025558677525219817, -0.02504407743465772),
                   (-0.039051137270564064, 0.012480208415247631)])
    point = Circle((-0.03905113727056407, 0.012480208415247628), 0.0)
    assert distance(point, chain) == 0.0
    _check(point, chain)
    c = contact(point, chain)
    assert c is not None and c.depth == 0.0


CASES = {
    "boxes 2D": lambda k: (AABB((0.0, 0.0), (k, k)), AABB((k, 0.25 * k), (2 * k, 0.75 * k))),
    "boxes 3D": lambda k: (AABB((0.0, 0.0, 0.0), (k, k, k)),
                           AABB((k, 0.25 * k, 0.5 * k), (2 * k, 0.75 * k, 3 * k))),
    "sphere hull": lambda k: (Sphere((0.0, 0.0, 0.0), k),
                              ConvexHull([(k, -k, -k), (k, k, -k), (k, 0.0, k),
                                          (3 * k, 0.0, 0.0)])),
    "circle polygon": lambda k: (Circle((0.0, 0.0), k),
                                 Polygon([(k, -k), (3 * k, 0.0), (k, k)])),
    "capsule segment": lambda k: (Capsule((0.0, 0.0), (0.0, 2 * k), k),
                                  Segment((k, -k), (k, 3 * k))),
}


@pytest.mark.parametrize("case", sorted(CASES))
@pytest.mark.parametrize("scale", [2.0 ** -20, 1.0, 2.0 ** 23])
def test_touch_tolerance_is_the_bound(case: str, scale: float) -> None:
    # exactly touching: depth 0; a gap an ulp wide: still touching; four times the tolerance
    # of the coordinates: apart, for both queries (binary scales: the shapes touch exactly)
    a, b = CASES[case](scale)
    c = contact(a, b)
    assert c is not None and c.depth == 0.0 and distance(a, b) == 0.0
    n = c.normal
    size = max(abs(v) for v in (*a.aabb.min, *a.aabb.max, *b.aabb.min, *b.aabb.max))
    for gap, touch in ((math.ulp(size), True), (4 * TOUCH_TOLERANCE * size, False)):
        moved = a.translated(tuple(gap * v for v in n))
        assert (contact(moved, b) is not None) is touch, gap
        assert (distance(moved, b) == 0.0) is touch, gap
