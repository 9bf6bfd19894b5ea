"""The input contract of every public entry point: bad input raises ``ValueError`` (``TypeError``
for a wrong type) naming the argument, never ``OverflowError``, a bare ``KeyError``, a numpy
broadcast message, a silent acceptance or a crash.

The supported range is ``MAX_COORDINATE`` (1e50) in magnitude for every coordinate and number;
directions and normals of any nonzero size are normalised without underflow.
"""

from __future__ import annotations

import json
import math
from collections.abc import Callable
from pathlib import Path
from typing import Any

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from swept import (
    AABB,
    Capsule,
    Circle,
    Contact,
    Plane,
    Polygon,
    Ray,
    RayHit,
    Segment,
    Simulation,
    Sphere,
    SweepHit,
    Vec2,
    Vec3,
    World,
    apex_after_bounces,
    push_out,
    ray_box,
    ray_capsule,
    ray_circle,
    ray_polygon,
    ray_segment,
    raycast,
    reflect,
    respond,
    slide,
    slope_angle,
    sweep,
    swept_step,
)
from swept.constants import MAX_COORDINATE
from swept.resolve import respond_pair
from swept.results import make_contact, make_ray_hit, record
from swept.scene import SceneError, load_scenes
from swept.vec import as_finite, as_vec2, as_vec3, as_vector

HUGE_INT = 10**400
BEYOND = 1e51
#: the limit, as an error message spells it
LIMIT = r"1e\+50"


# ---------------------------------------------------------------------------------------------
# every entry point that takes a point or vector, and every one that takes a number: each is a
# callable of the one value under test, and the argument name its error must carry

VECTOR_ARGS: list[tuple[str, Callable[[Any], Any], str]] = [
    ("as_vec2", lambda v: as_vec2(v, "where"), "where"),
    ("as_vector", lambda v: as_vector(v, "where"), "where"),
    ("Circle.center", lambda v: Circle(v, 1.0), "center"),
    ("Segment.a", lambda v: Segment(v, (1.0, 1.0)), "a"),
    ("Segment.b", lambda v: Segment((1.0, 1.0), v), "b"),
    ("AABB.min", lambda v: AABB(v, (1e50, 1e50)), "min"),
    ("AABB.max", lambda v: AABB((-1e50, -1e50), v), "max"),
    ("Polygon.points", lambda v: Polygon([v, (1.0, 0.0), (0.0, 1.0)]), r"points\[0\]"),
    ("Capsule.a", lambda v: Capsule(v, (0.0, 0.0), 1.0), "a"),
    ("Plane.normal", lambda v: Plane(v, 0.0), "normal"),
    ("Ray.origin", lambda v: Ray(v, (1.0, 0.0)), "origin"),
    ("Ray.direction", lambda v: Ray((0.0, 0.0), v), "direction"),
    ("Ray.between", lambda v: Ray.between((0.0, 0.0), v), "end"),
    ("ray_circle.center", lambda v: ray_circle((0.0, 0.0), (1.0, 0.0), v, 1.0), "center"),
    ("ray_box.origin", lambda v: ray_box(v, (1.0, 0.0), (0.0, 0.0), (1.0, 1.0)), "origin"),
    ("ray_polygon.origin",
     lambda v: ray_polygon(v, (1.0, 0.0), [(2.0, -1.0), (4.0, -1.0), (3.0, 1.0)]), "origin"),
    ("Sphere.center", lambda v: Sphere((*v, 0.0), 1.0), "center"),
    ("ray_segment.a", lambda v: ray_segment((0.0, 0.0), (1.0, 0.0), v, (1.0, 1.0)), "a"),
    ("ray_capsule.b", lambda v: ray_capsule((0.0, 0.0), (1.0, 0.0), (1.0, 1.0), v, 1.0), "b"),
    ("sweep.displacement",
     lambda v: sweep(Circle((0.0, 0.0), 1.0), v, Circle((5.0, 0.0), 1.0)), "displacement"),
    ("reflect.v", lambda v: reflect(v, (0.0, 1.0)), "v"),
    ("slide.n", lambda v: slide((1.0, 1.0), v), "n"),
    ("push_out.position",
     lambda v: push_out(v, Contact((0.0, 1.0), 0.5, (0.0, 0.0))), "position"),
    ("swept_step.velocity",
     lambda v: swept_step(Circle((0.0, 0.0), 1.0), v, 1.0, []), "velocity"),
    ("RayHit.point", lambda v: RayHit(1.0, v, (0.0, 1.0)), "point"),
    ("Contact.normal", lambda v: Contact(v, 0.5, (0.0, 0.0)), "normal"),
]

SCALAR_ARGS: list[tuple[str, Callable[[Any], Any], str]] = [
    ("as_finite", lambda x: as_finite(x, "amount"), "amount"),
    ("Circle.radius", lambda x: Circle((0.0, 0.0), x), "radius"),
    ("Sphere.radius", lambda x: Sphere((0.0, 0.0, 0.0), x), "radius"),
    ("Capsule.radius", lambda x: Capsule((0.0, 0.0), (1.0, 0.0), x), "radius"),
    ("Plane.offset", lambda x: Plane((0.0, 1.0), x), "offset"),
    ("Ray.max_distance", lambda x: Ray((0.0, 0.0), (1.0, 0.0), x), "max_distance"),
    ("Polygon.box", lambda x: Polygon.box(x, 1.0), "half_w"),
    ("ray_circle.radius", lambda x: ray_circle((0.0, 0.0), (1.0, 0.0), (3.0, 0.0), x), "radius"),
    ("ray_circle.max_distance",
     lambda x: ray_circle((0.0, 0.0), (1.0, 0.0), (3.0, 0.0), 1.0, max_distance=x),
     "max_distance"),
    ("reflect.restitution", lambda x: reflect((1.0, -1.0), (0.0, 1.0), x), "restitution"),
    ("respond.friction", lambda x: respond((1.0, -1.0), (0.0, 1.0), 0.0, x), "friction"),
    ("push_out.skin",
     lambda x: push_out((0.0, 0.0), Contact((0.0, 1.0), 0.5, (0.0, 0.0)), skin=x), "skin"),
    ("swept_step.dt", lambda x: swept_step(Circle((0.0, 0.0), 1.0), (1.0, 0.0), x, []), "dt"),
    ("Simulation.update", lambda x: Simulation().update(x), "dt"),
    ("respond_pair.mass_a",
     lambda x: respond_pair((0.0, 0.0), (1.0, 0.0), x, (1.0, 0.0), (0.0, 0.0), 1.0,
                            Contact((-1.0, 0.0), 0.1, (0.5, 0.0))), "mass_a"),
    ("apex_after_bounces.height", lambda x: apex_after_bounces(x, 0.5, 1), "height"),
    ("RayHit.distance", lambda x: RayHit(x, (0.0, 0.0), (0.0, 1.0)), "distance"),
    ("Contact.depth", lambda x: Contact((0.0, 1.0), x, (0.0, 0.0)), "depth"),
]


def _ids(table: list[tuple[str, Any, str]]) -> list[str]:
    return [row[0] for row in table]


# ---------------------------------------------------------------------------------------------
# 1. coordinate range


@pytest.mark.parametrize(("label", "call", "name"), VECTOR_ARGS, ids=_ids(VECTOR_ARGS))
@pytest.mark.parametrize("bad", [(BEYOND, 0.0), (0.0, -1e200), (3e154, 1.0)])
def test_vector_beyond_the_range_is_a_value_error_naming_it(
        label: str, call: Callable[[Any], Any], name: str, bad: tuple[float, float]) -> None:
    """A coordinate beyond MAX_COORDINATE used to pass coercion (only NaN and inf were
    refused) and overflowed in the kernels' squares; coercion now refuses it by name."""
    with pytest.raises(ValueError, match=rf"^{name} .*{LIMIT}"):
        call(bad)


@pytest.mark.parametrize(("label", "call", "name"), SCALAR_ARGS, ids=_ids(SCALAR_ARGS))
@pytest.mark.parametrize("bad", [BEYOND, 1e200, HUGE_INT])
def test_number_beyond_the_range_is_a_value_error_naming_it(
        label: str, call: Callable[[Any], Any], name: str, bad: Any) -> None:
    """A number beyond MAX_COORDINATE (or an int too large for a float, which raised
    OverflowError from float()) is refused by name at coercion. A ray's reach and a body's
    mass are unbounded (infinity is a valid value: no limit, a static body): any float is
    accepted there, only the huge int is refused."""
    if name in ("max_distance", "mass_a") and bad is not HUGE_INT:
        call(bad)
        return
    with pytest.raises(ValueError, match=rf"^{name} .*{LIMIT}"):
        call(bad)


def test_the_limit_itself_is_accepted() -> None:
    """The range is closed: MAX_COORDINATE itself is a valid coordinate and radius."""
    assert MAX_COORDINATE == 1e50
    c = Circle((MAX_COORDINATE, -MAX_COORDINATE), MAX_COORDINATE)
    assert c.center == (1e50, -1e50) and c.radius == 1e50
    assert Ray((0.0, 0.0), (1.0, 0.0), math.inf).max_distance == math.inf
    with pytest.raises(ValueError, match="max_distance"):
        Ray((0.0, 0.0), (1.0, 0.0), math.nan)
    with pytest.raises(ValueError, match=rf"radius.*{LIMIT}"):
        Circle((0.0, 0.0), math.inf)


def test_issue_cases_overflowing_ray_and_sweep_are_refused_at_construction() -> None:
    """The issue's cases: a 1e154 circle and ray gave distance inf and point (inf, nan), and
    1e200 circles swept to garbage; now the inputs are refused, naming the argument."""
    with pytest.raises(ValueError, match="origin"):
        Ray((-3e154, 0.0), (1.0, 0.0))
    with pytest.raises(ValueError, match="radius"):
        Circle((0.0, 0.0), 1e154)
    with pytest.raises(ValueError, match="center"):
        Circle((1e200, 0.0), 1.0)
    with pytest.raises(ValueError, match="radius"):
        Circle((0.0, 0.0), 1e200)
    with pytest.raises(ValueError, match="displacement"):
        sweep(Circle((0.0, 0.0), 1.0), (1e200, 0.0), Circle((3.0, 0.0), 1.0))
    with pytest.raises(ValueError, match="target_displacement"):
        sweep(Circle((0.0, 0.0), 1.0), (1.0, 0.0), Circle((3.0, 0.0), 1.0), (-1e200, 0.0))


def test_plane_normal_beyond_the_range_is_refused_and_large_normals_are_exact() -> None:
    """Plane((1e200, 1e200, 0)) squared its normal to inf and divided to (0, 0, 0); now it is
    out of range, and a 1e40 normal gives the correctly rounded unit normal."""
    with pytest.raises(ValueError, match=rf"normal.*{LIMIT}"):
        Plane((1e200, 1e200, 0.0), 0.0)
    h = math.sqrt(0.5)  # 1/sqrt(2), correctly rounded
    assert Plane((1e40, 1e40, 0.0), 0.0).normal == Vec3(h, h, 0.0)
    assert Plane((1e40, 1e40), 0.0).normal == Vec2(h, h)
    assert Plane((1e50, 0.0, 0.0), 1e50) == Plane((1.0, 0.0, 0.0), 1.0)


@pytest.mark.parametrize("tiny", [1e-200, 5e-324, 1e-160])
def test_tiny_nonzero_directions_are_normalised_exactly(tiny: float) -> None:
    """A 3D length was sqrt of the summed squares, which underflow to 0 for components below
    about 1e-154, so a tiny direction was refused as zero; lengths now rescale first."""
    assert Ray((0.0, 0.0, 0.0), (tiny, 0.0, 0.0)).direction == Vec3(1.0, 0.0, 0.0)
    assert Ray((0.0, 0.0), (0.0, -tiny)).direction == Vec2(0.0, -1.0)
    assert Plane((tiny, 0.0), 0.0).normal == Vec2(1.0, 0.0)
    assert Plane((0.0, 0.0, tiny), 0.0).normal == Vec3(0.0, 0.0, 1.0)
    assert Plane.through((0.0, 0.0, 0.0), (0.0, tiny, 0.0)).normal == Vec3(0.0, 1.0, 0.0)
    hit = ray_circle((0.0, 0.0, 0.0), (tiny, 0.0, 0.0), (5.0, 0.0, 0.0), 1.0)
    assert hit is not None and hit.distance == 4.0
    assert slide((1.0, 2.0, 3.0), (0.0, tiny, 0.0)) == Vec3(1.0, 0.0, 3.0)
    assert reflect((1.0, -2.0, 0.0), (0.0, tiny, 0.0)) == Vec3(1.0, 2.0, 0.0)
    assert slope_angle((0.0, tiny, 0.0)) == 0.0
    assert Vec3(tiny, 0.0, 0.0).normalized() == Vec3(1.0, 0.0, 0.0)
    assert Vec3(0.0, tiny, tiny).length() > 0.0


def test_tiny_direction_3d_keeps_its_direction() -> None:
    """Rescaling keeps a tiny vector's direction, not just its axis."""
    d = Ray((0.0, 0.0, 0.0), (3e-170, 4e-170, 0.0)).direction
    assert d[0] == pytest.approx(0.6, abs=1e-15) and d[1] == pytest.approx(0.8, abs=1e-15)
    assert d[2] == 0.0


def test_only_an_exactly_zero_vector_is_refused() -> None:
    """The zero vector still has no direction: a ValueError naming the argument."""
    with pytest.raises(ValueError, match="direction"):
        Ray((0.0, 0.0, 0.0), (0.0, 0.0, 0.0))
    with pytest.raises(ValueError, match="normal"):
        Plane((0.0, -0.0), 1.0)
    with pytest.raises(ValueError, match="^n "):
        slide((1.0, 0.0), (0.0, 0.0))


def test_a_tiny_normal_with_an_offset_beyond_the_range_is_refused() -> None:
    """Dividing the offset by a tiny normal's length can leave the range: refused, by name."""
    with pytest.raises(ValueError, match="offset"):
        Plane((1e-200, 0.0), 1.0)


@settings(max_examples=60, deadline=None)
@given(st.integers(-6, 7), st.floats(0.1, 10.0))
def test_raycast_is_scale_invariant_across_the_supported_scenes(exponent: int,
                                                                 mantissa: float) -> None:
    """Scaling a whole scene by s (1e-6 .. 1e7) scales the hit distance by s, to rounding."""
    s = mantissa * 10.0**exponent
    hit = raycast(Ray((-3.0 * s, 0.5 * s), (1.0, 0.0)), Circle((0.0, 0.0), 1.0 * s))
    assert hit is not None
    assert hit.distance == pytest.approx(s * (3.0 - math.sqrt(0.75)), rel=1e-12)
    assert hit.normal == pytest.approx((-math.sqrt(0.75), 0.5), abs=1e-12)


# ---------------------------------------------------------------------------------------------
# 2. huge ints, strings and bools


@pytest.mark.parametrize(("label", "call", "name"), VECTOR_ARGS, ids=_ids(VECTOR_ARGS))
def test_huge_int_component_is_a_value_error_not_overflow(
        label: str, call: Callable[[Any], Any], name: str) -> None:
    """float(10**400) raises OverflowError: coercion now turns it into a ValueError naming
    the argument and the limit."""
    with pytest.raises(ValueError, match=rf"^{name} .*{LIMIT}"):
        call((HUGE_INT, 0))


@pytest.mark.parametrize(("label", "call", "name"), VECTOR_ARGS, ids=_ids(VECTOR_ARGS))
@pytest.mark.parametrize("text", ["1", b"1"])
def test_string_component_is_a_type_error(label: str, call: Callable[[Any], Any], name: str,
                                          text: Any) -> None:
    """float('1') succeeds, so Circle(('1', 0), 1) was silently accepted: a string component
    is now a TypeError naming the argument."""
    with pytest.raises(TypeError, match=rf"^{name} "):
        call((text, 0.5))


@pytest.mark.parametrize(("label", "call", "name"), SCALAR_ARGS, ids=_ids(SCALAR_ARGS))
@pytest.mark.parametrize("text", ["1", b"1", None, [1.0]])
def test_non_number_scalar_is_a_type_error(label: str, call: Callable[[Any], Any], name: str,
                                           text: Any) -> None:
    """A string (or None, or a list) where a number belongs is a TypeError naming it."""
    with pytest.raises(TypeError, match=rf"^{name} "):
        call(text)


def test_apex_after_bounces_never_overflows() -> None:
    """restitution ** (2 * bounces) raised OverflowError for a huge bounce count (or a
    restitution above 1): a vanishing apex is 0, a gaining one beyond the range a ValueError."""
    assert apex_after_bounces(1.0, 0.5, HUGE_INT) == 0.0
    assert apex_after_bounces(1.0, 1.0, HUGE_INT) == 1.0
    assert apex_after_bounces(2.0, 0.5, 1) == 0.5
    assert apex_after_bounces(3.0, 0.0, 0) == 3.0 and apex_after_bounces(3.0, 0.0, 2) == 0.0
    with pytest.raises(ValueError, match="apex"):
        apex_after_bounces(1.0, 2.0, 2000)
    with pytest.raises(ValueError, match="apex"):
        apex_after_bounces(1.0, 2.0, HUGE_INT)


def test_numpy_string_array_is_a_type_error() -> None:
    """A numpy array of strings converts element by element with float(): refused too."""
    with pytest.raises(TypeError, match="center"):
        Circle(np.array(["1", "2"]), 1.0)


def test_bools_are_numbers() -> None:
    """bool is an int in Python (and numpy accepts it): True is 1.0, False is 0.0."""
    assert Circle((True, False), True) == Circle((1.0, 0.0), 1.0)
    assert as_vec3((np.int64(1), np.float32(2.0), np.bool_(True)), "v") == Vec3(1.0, 2.0, 1.0)
    assert as_finite(np.float64(2.5), "x") == 2.5


# ---------------------------------------------------------------------------------------------
# 3. results built by users


def test_push_out_takes_a_contact_built_from_tuples() -> None:
    """A user-built Contact kept its tuple normal, so push_out computed tuple * float
    (TypeError: can't multiply sequence by non-int); the constructor now coerces it."""
    got = push_out((0.0, 0.6, 0.0), Contact(normal=(0, 1, 0), depth=0.3, point=(0, 0, 0)),
                   skin=0.001)
    assert got == Vec3(0.0, 0.6 + (0.3 + 0.001), 0.0)


def test_user_built_results_are_coerced() -> None:
    """Vector fields become Vec2 / Vec3, numbers become float, as the library builds them."""
    hit = RayHit(2, [1, 2], np.array([0.0, 1.0]))
    assert type(hit.point) is Vec2 and type(hit.normal) is Vec2 and type(hit.distance) is float
    assert hit == RayHit(2.0, Vec2(1.0, 2.0), Vec2(0.0, 1.0), False)
    s = SweepHit(np.float64(0.5), (0, 0, 0), (0, 0, 1), (1, 1, 1), np.bool_(True))
    assert type(s.fraction) is float and s.started_inside is True
    assert type(s.position) is Vec3
    c = Contact((0, 1), 1, (0, 0))
    assert type(c.depth) is float and type(c.normal) is Vec2


@pytest.mark.parametrize(("build", "error", "name"), [
    (lambda: RayHit(math.nan, (0, 0), (0, 1)), ValueError, "distance"),
    (lambda: RayHit(1.0, (0, "a"), (0, 1)), TypeError, "point"),
    (lambda: RayHit(1.0, (0, 0), (0, 1e60)), ValueError, "normal"),
    (lambda: RayHit(1.0, (0, 0), (0, 1), "yes"), TypeError, "started_inside"),
    (lambda: RayHit(1.0, (0, 0), (0, 0, 1)), ValueError, "normal"),
    (lambda: SweepHit(0.5, (0, 0), (0, 1), (0, 0, 0)), ValueError, "position"),
    (lambda: SweepHit("0.5", (0, 0), (0, 1), (0, 0)), TypeError, "fraction"),
    (lambda: Contact((0, 1), math.inf, (0, 0)), ValueError, "depth"),
    (lambda: Contact(Vec2(math.nan, 1.0), 1.0, (0, 0)), ValueError, "normal"),
    (lambda: Contact(None, 1.0, (0, 0)), TypeError, "normal"),
])
def test_user_built_results_are_validated(build: Callable[[], Any], error: type,
                                          name: str) -> None:
    """A bad field (NaN, out of range, a string, mixed dimensions) raises naming it."""
    with pytest.raises(error, match=name):
        build()


def test_the_fast_builders_skip_the_checks() -> None:
    """make_ray_hit / make_contact bypass the constructor: the library's hot paths build
    results from values already checked, in one tuple allocation."""
    p = (0.0, 0.0)  # a plain tuple stays a plain tuple: nothing coerced
    assert make_ray_hit(1.0, p, p, False).point is p
    assert make_contact(p, 0.5, p).normal is p
    circle = Circle((5.0, 0.0), 1.0)
    ray = Ray((0.0, 0.0), (1.0, 0.0))
    hit = raycast(ray, circle)
    assert hit is not None and type(hit) is RayHit and hit.distance == 4.0


# ---------------------------------------------------------------------------------------------
# 4. world handles

HANDLE_METHODS: list[tuple[str, Callable[[World, Any], Any]]] = [
    ("shape", lambda w, h: w.shape(h)),
    ("data", lambda w, h: w.data(h)),
    ("layer", lambda w, h: w.layer(h)),
    ("mask", lambda w, h: w.mask(h)),
    ("is_moving", lambda w, h: w.is_moving(h)),
    ("remove", lambda w, h: w.remove(h)),
    ("move", lambda w, h: w.move(h, Circle((0.0, 0.0), 1.0))),
]


@pytest.mark.parametrize(("label", "call"), HANDLE_METHODS, ids=[m[0] for m in HANDLE_METHODS])
def test_unknown_or_removed_handle_is_a_value_error_saying_why(
        label: str, call: Callable[[World, Any], Any]) -> None:
    """An unknown handle raised a bare KeyError; it is now a ValueError naming the handle,
    its value and why: never added, or removed."""
    world = World()
    world.add(Circle((0.0, 0.0), 1.0))
    h = world.add(Circle((3.0, 0.0), 1.0))
    world.remove(h)
    with pytest.raises(ValueError, match=r"handle 1: .*removed"):
        call(world, h)
    with pytest.raises(ValueError, match=r"handle 7: .*never added"):
        call(world, 7)
    with pytest.raises(ValueError, match=r"handle -1: .*never added"):
        call(world, -1)
    with pytest.raises(ValueError, match=r"handle 0: .*never added"):
        call(World(), 0)
    with pytest.raises(TypeError, match="handle"):
        call(world, "0")
    # a live handle still works, as an int of any kind
    call(world, np.int64(0))


WORLD_ARRAYS: list[tuple[str, Callable[[World, Any], Any], str]] = [
    ("raycast_many.origins", lambda w, a: w.raycast_many(a, [(1.0, 0.0)]), "origins"),
    ("raycast_many.directions", lambda w, a: w.raycast_many([(9.0, 9.0)], a), "directions"),
    ("sweep_many.centers", lambda w, a: w.sweep_many(a, [0.5], [(1.0, 0.0)]), "centers"),
    ("sweep_many.displacements",
     lambda w, a: w.sweep_many([(9.0, 9.0)], [0.5], a), "displacements"),
    ("contact_many.centers", lambda w, a: w.contact_many(a, [0.5]), "centers"),
]


@pytest.mark.parametrize(("label", "call", "name"), WORLD_ARRAYS, ids=_ids(WORLD_ARRAYS))
def test_world_batch_arrays_are_checked_for_range_and_strings(
        label: str, call: Callable[[World, Any], Any], name: str) -> None:
    """numpy converted strings to floats silently, a huge int raised OverflowError and 1e60
    passed: the batch queries' arrays follow the scalar coercion's contract."""
    world = World()
    world.add(Circle((0.0, 0.0), 1.0))
    with pytest.raises(ValueError, match=rf"^{name} .*{LIMIT}"):
        call(world, [(1e60, 0.0)])
    with pytest.raises(ValueError, match=rf"^{name} .*{LIMIT}"):
        call(world, [(HUGE_INT, 0)])
    with pytest.raises(TypeError, match=rf"^{name} "):
        call(world, [("1", 0.0)])
    with pytest.raises(TypeError, match=rf"^{name} "):
        call(world, np.array([["1", "0"]]))


def test_world_layer_is_named_in_its_error() -> None:
    """A bad layer was reported as a bad "mask"; each is named for itself now."""
    with pytest.raises(ValueError, match="^layer "):
        World().add(Circle((0.0, 0.0), 1.0), layer=HUGE_INT)
    with pytest.raises(ValueError, match="^mask "):
        World().add(Circle((0.0, 0.0), 1.0), mask=-1)


def test_polygon_regular_count_of_the_wrong_type_is_a_type_error() -> None:
    """n = '5' was a ValueError; a wrong type is a TypeError naming n."""
    with pytest.raises(TypeError, match="^n "):
        Polygon.regular("5", 1.0)  # type: ignore[arg-type]
    with pytest.raises(ValueError, match="^n "):
        Polygon.regular(2, 1.0)
    assert len(Polygon.regular(np.int64(5), 1.0).points) == 5


# ---------------------------------------------------------------------------------------------
# 6. Simulation.add_balls


@pytest.mark.parametrize(("kwargs", "error", "match"), [
    ({"centers": [(0, 0), (3, 0)], "radii": [1.0, 1.0, 1.0]}, ValueError, r"radii.*\(2,\)"),
    ({"centers": [(0, 0), (3, 0)], "radii": [[1.0, 1.0]]}, ValueError, "radii"),
    ({"centers": [(0, 0), (3, 0)], "radii": 1.0, "velocities": [(1, 0)]}, ValueError,
     "velocities"),
    ({"centers": [(0, 0), (3, 0)], "radii": 1.0, "velocities": [(1, 0, 0), (1, 0, 0)]},
     ValueError, "velocities"),
    ({"centers": [(0, 0, 0), (3, 0, 0)], "radii": 1.0}, ValueError, "centers"),
    ({"centers": [(0, 0), (3, 0, 1)], "radii": 1.0}, ValueError, "centers"),
    ({"centers": [(0, 0), (3, math.nan)], "radii": 1.0}, ValueError, "centers.*NaN"),
    ({"centers": [(0, 0), (3, 0)], "radii": [1.0, math.inf]}, ValueError, rf"radii.*{LIMIT}"),
    ({"centers": [(0, 0), (3, 1e60)], "radii": 1.0}, ValueError, rf"centers.*{LIMIT}"),
    ({"centers": [(0, 0), (3, HUGE_INT)], "radii": 1.0}, ValueError, rf"centers.*{LIMIT}"),
    ({"centers": [(0, 0), (3, 0)], "radii": 1.0, "velocities": [(1, 0), (math.nan, 0)]},
     ValueError, "velocities"),
    ({"centers": [(0, 0), (3, 0)], "radii": 1.0, "mass": [1.0, 2.0, 3.0]}, ValueError, "mass"),
    ({"centers": [("0", 0), (3, 0)], "radii": 1.0}, TypeError, "centers"),
    ({"centers": [(0, 0), (3, 0)], "radii": ["1", "1"]}, TypeError, "radii"),
    ({"centers": [(0, 0), (3, 0)], "radii": [1.0, 0.0]}, ValueError, "radii"),
])
def test_add_balls_names_the_bad_array(kwargs: dict[str, Any], error: type, match: str) -> None:
    """radii of the wrong length gave numpy's broadcast message, strings converted silently
    and huge ints overflowed: each array is now checked, by name."""
    sim = Simulation()
    with pytest.raises(error, match=match):
        sim.add_balls(**kwargs)
    assert len(sim.bodies) == 0


def test_add_balls_still_takes_a_single_ball_and_a_shared_radius() -> None:
    """The accepted shapes stay: one center as (d,), a radius as a number."""
    sim = Simulation()
    idx = sim.add_balls((0.0, 0.0), 0.5, (1.0, 0.0))
    assert idx.tolist() == [0] and sim.radii.tolist() == [0.5]
    idx = sim.add_balls(np.zeros((3, 2)) + [[5, 0]], np.full(3, 0.25))
    assert idx.tolist() == [1, 2, 3]


# ---------------------------------------------------------------------------------------------
# 7. scene files

GOOD_BODY = {"radius": 1, "position": [0, 5], "displacement": [0, -10]}


@pytest.mark.parametrize(("body", "place"), [
    ({"position": [0, 5], "displacement": [0, -10]}, r"bodies\[0\].*missing 'radius'"),
    ({**GOOD_BODY, "radius": "2"}, r"bodies\[0\]\.radius"),
    ({**GOOD_BODY, "position": [0, math.nan]}, r"bodies\[0\]\.position\[1\]"),
    ({**GOOD_BODY, "position": [0, HUGE_INT]}, r"bodies\[0\]\.position\[1\]"),
    ({**GOOD_BODY, "displacement": [1e60, 0]}, r"bodies\[0\]\.displacement\[0\]"),
    ({**GOOD_BODY, "radius": 1e300}, r"bodies\[0\]\.radius"),
    ({**GOOD_BODY, "position": "0, 5"}, r"bodies\[0\]\.position"),
])
def test_malformed_scene_files_name_the_file_and_the_entry(tmp_path: Path, body: Any,
                                                           place: str) -> None:
    """A huge int in a scene raised OverflowError, and values beyond the range surfaced as a
    shape's error without the file's name: every case is a SceneError (a ValueError) naming
    the file and the entry."""
    path = tmp_path / "bad.json"
    path.write_text(json.dumps({"bodies": [body]}))
    with pytest.raises(SceneError, match=rf"bad\.json: {place}"):
        load_scenes(path)


def test_malformed_plane_in_a_scene_names_it(tmp_path: Path) -> None:
    """A half-plane whose tiny normal puts it beyond the range is refused with its place."""
    path = tmp_path / "plane.json"
    path.write_text(json.dumps({"bodies": [GOOD_BODY],
                                "planes": [{"normal": [0, 1e300], "offset": 0}]}))
    with pytest.raises(SceneError, match=r"plane\.json: planes\[0\]\.normal\[1\]"):
        load_scenes(path)


@record
class _ExtendedHit(RayHit):
    """A record extended as the library's own result types may be: an infinite default
    allows infinity, an optional field allows None."""

    reach: float = math.inf
    other: Vec2 | Vec3 | None = None


def test_extended_records_coerce_their_new_fields_by_annotation() -> None:
    """The constructor's checks are generated from the annotations, so a field added later
    (to RayHit or a subclass) is coerced and checked with no further code."""
    hit = _ExtendedHit(1, (0, 0), (1, 0))
    assert hit.exit_distance == math.inf and hit.reach == math.inf and hit.other is None
    hit = _ExtendedHit(1, (0, 0), (1, 0), False, 2, 3, [1, 1])
    assert hit.exit_distance == 2.0 and hit.reach == 3.0 and type(hit.other) is Vec2
    with pytest.raises(ValueError, match="^exit_distance "):
        _ExtendedHit(1, (0, 0), (1, 0), exit_distance=math.nan)
    with pytest.raises(ValueError, match="^reach "):
        _ExtendedHit(1, (0, 0), (1, 0), reach=math.nan)
    with pytest.raises(ValueError, match="^other "):
        _ExtendedHit(1, (0, 0), (1, 0), other=(1, 2, 3))
    with pytest.raises(ValueError, match="^distance "):
        _ExtendedHit(math.inf, (0, 0), (1, 0))
