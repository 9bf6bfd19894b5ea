"""The one dispatch (swept.dispatch): every query family looks its handler up in one table,
serves a user's subclass as its base, turns reversed pairs around through the same handler,
and names both types when a pair is unsupported. A new shape joins by registering once."""

from __future__ import annotations

from typing import Any

import numpy as np
import pytest

from swept import (
    AABB,
    Capsule,
    Circle,
    Plane,
    Polygon,
    Ray,
    Segment,
    Sphere,
    closest_point,
    closest_points,
    contact,
    distance,
    raycast,
    sweep,
)
from swept.dispatch import (
    CLOSEST_POINT,
    CLOSEST_POINTS,
    CONTACT,
    RAYCAST,
    SWEEP,
    TIME_OF_IMPACT,
    Family,
)
from swept.toi import Motion, time_of_impact
from swept.views import ShapeView, view


class MyCircle(Circle):
    """A user's subclass: served as a Circle by every family."""

    __slots__ = ()


def test_a_subclass_is_served_as_its_base_in_every_family() -> None:
    c = MyCircle((5.0, 0.0), 1.0)
    base = Circle((5.0, 0.0), 1.0)
    ray = Ray((0.0, 0.0), (1.0, 0.0))
    assert raycast(ray, c) == raycast(ray, base)
    wall = Segment((7.0, -5.0), (7.0, 5.0))
    assert sweep(c, (10.0, 0.0), wall) == sweep(base, (10.0, 0.0), wall)
    assert contact(c, Circle((6.5, 0.0), 1.0)) == contact(base, Circle((6.5, 0.0), 1.0))
    assert distance(c, wall) == distance(base, wall) == 1.0
    assert closest_point(c, (0.0, 0.0)) == closest_point(base, (0.0, 0.0))
    assert view(c).kind == view(base).kind


@pytest.mark.parametrize(("call", "names"), [
    (lambda: raycast(Ray((0, 0), (1, 0)), "circle"), ["Ray", "str"]),
    (lambda: contact(Sphere((0, 0, 0), 1), Circle((0, 0), 1)), ["Sphere", "Circle"]),
    (lambda: contact(Plane((0, 1), 0), Plane((0, 1), 1)), ["Plane", "Plane"]),
    (lambda: sweep(Plane((0, 1), 0), (1, 0), Circle((0, 0), 1)), ["Plane", "Circle"]),
    (lambda: distance(Ray((0, 0), (1, 0)), Circle((0, 0), 1)), ["Ray", "Circle"]),
    (lambda: closest_point("box", (0, 0)), ["str"]),
    (lambda: time_of_impact(Sphere((0, 0, 0), 1), Motion((0, 0)), Circle((0, 0), 1),
                            Motion((0, 0))), ["Sphere", "Circle"]),
])
def test_an_unsupported_pair_raises_type_error_naming_both_types(call: Any,
                                                                   names: list[str]) -> None:
    with pytest.raises(TypeError) as info:
        call()
    for name in names:
        assert name in str(info.value)


def test_every_family_serves_both_orders_of_each_registered_pair() -> None:
    for family in (CONTACT, CLOSEST_POINTS):
        for key in family.registered():
            a, b = key
            assert family.supports(a, b) and family.supports(b, a), (family, key)


def test_a_reversed_contact_comes_from_the_same_handler_flipped() -> None:
    handler, swapped = CONTACT.lookup(Polygon.box(1, 1), Circle((0, 0), 1))
    assert swapped
    assert CONTACT.lookup(Circle((0, 0), 1), Polygon.box(1, 1)) == (handler, False)


class Dot:
    """A newcomer's shape: a 2D point, joining raycast, closest_point and distance by
    registering its handlers (and its kernel view) in one place."""

    dim = 2

    def __init__(self, x: float, y: float) -> None:
        self.p = (float(x), float(y))

    def _key(self) -> tuple[float, float]:
        return self.p


def test_a_new_shape_joins_the_queries_by_registering_its_handlers() -> None:
    from swept.distance import PointOperand
    from swept.views import readonly, register_view

    def ray_dot(ray: Ray, dot: Dot) -> Any:
        # a point is hit when the ray passes through it
        return raycast(ray, Circle(dot.p, 0.0))

    register_view(Dot, lambda d: ShapeView(-1, 2, (*d.p, 0.0), readonly([d.p], 2), 0.0))
    RAYCAST.register(Dot, ray_dot)
    CLOSEST_POINT.register(Dot, lambda d, p: closest_point(Circle(d.p, 0.0), p))
    for other in (PointOperand, Circle, Segment, Capsule, AABB, Polygon):
        CLOSEST_POINTS.register((Dot, other), _dot_pair, flip=True)
    dot = Dot(3.0, 4.0)
    assert distance(dot, (0.0, 0.0)) == 5.0
    assert distance(Circle((0.0, 0.0), 1.0), dot) == 4.0
    a, b, d = closest_points(dot, Segment((0.0, 0.0), (6.0, 0.0)))
    assert (tuple(a), tuple(b), d) == ((3.0, 4.0), (3.0, 0.0), 4.0)
    hit = raycast(Ray((3.0, 0.0), (0.0, 1.0)), dot)
    assert hit is not None and hit.distance == 4.0
    assert closest_point(dot, (3.0, 9.0)) == (3.0, 4.0)


def _dot_pair(a: Any, b: Any) -> tuple[float, ...]:
    """The closest-points handler of a Dot against anything: GJK on the two kernel views."""
    from swept._kernels import distance as k

    va, vb = view(a), view(b)
    cache = np.zeros(k.GJK_CACHE_SIZE, np.int64)
    out = k.shape_distance(va.core, va.radius, vb.core, vb.radius, cache)
    return tuple(float(x) for x in out[:7])


def test_family_rejects_a_registration_of_the_wrong_arity() -> None:
    fam = Family("demo", 2)
    with pytest.raises(ValueError, match="2 type"):
        fam.register(Circle, lambda a, b: None)
    with pytest.raises(ValueError, match="arity"):
        Family("demo", 3)


def test_sweep_and_time_of_impact_are_registered_for_every_mover() -> None:
    for mover in (Circle, Sphere, Segment, Capsule, AABB, Polygon):
        assert SWEEP.supports(mover, Plane)
    for a in (Circle, Capsule, Segment, Polygon):
        for b in (Circle, Capsule, Segment, Polygon):
            assert TIME_OF_IMPACT.supports(a, b)
