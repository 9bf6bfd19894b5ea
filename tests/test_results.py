"""The result types: frozen dataclasses (DESIGN) kept in tuples (for speed), and what that
promises users: construction, the dataclasses functions, immutability, equality, pickling."""

from __future__ import annotations

import copy
import dataclasses
import math
import operator
import pickle

import pytest

from swept import Circle, Ray, raycast
from swept.results import Contact, RayHit, SweepHit, record
from swept.vec import Vec2, Vec3
from swept.world import WorldContact, WorldRayHit, WorldSweepHit

P = Vec2(1.0, 2.0)
N = Vec2(0.0, 1.0)


def test_results_are_frozen_dataclasses() -> None:
    for cls in (RayHit, SweepHit, Contact, WorldRayHit, WorldSweepHit, WorldContact):
        assert dataclasses.is_dataclass(cls)
        assert cls.__dataclass_params__.frozen  # type: ignore[attr-defined]
    hit = RayHit(1.5, P, N)
    assert dataclasses.is_dataclass(hit)
    assert [f.name for f in dataclasses.fields(hit)] == [
        "distance", "point", "normal", "started_inside", "exit_distance"]
    with pytest.raises(dataclasses.FrozenInstanceError, match="distance"):
        hit.distance = 2.0  # type: ignore[misc]
    with pytest.raises(dataclasses.FrozenInstanceError):
        del hit.point  # type: ignore[misc]


def test_construction_by_position_and_name_with_defaults() -> None:
    hit = RayHit(1.5, P, N)
    assert (hit.distance, hit.point, hit.normal, hit.started_inside) == (1.5, P, N, False)
    # the exit defaults to infinity (a half-plane never left)
    assert hit.exit_distance == math.inf
    assert RayHit(distance=1.5, point=P, normal=N, started_inside=True).started_inside
    sweep = SweepHit(0.25, P, N, Vec2(3.0, 4.0))
    assert sweep.fraction == 0.25 and sweep.position == Vec2(3.0, 4.0)
    assert not sweep.started_inside
    c = Contact(N, 0.5, P)
    assert (c.normal, c.depth, c.point) == (N, 0.5, P)
    with pytest.raises(TypeError, match="normal"):
        RayHit(1.0, P)  # type: ignore[call-arg]
    with pytest.raises(TypeError):
        Contact(N, 0.5, P, 7)  # type: ignore[call-arg]


def test_dataclasses_functions_work() -> None:
    hit = RayHit(1.5, P, N)
    moved = dataclasses.replace(hit, distance=3.0)
    assert type(moved) is RayHit and moved.distance == 3.0 and moved.point == P
    # (a result's vectors share one dimension: a 2D hit, then a 3D contact)
    as_dict = dataclasses.asdict(Contact(Vec3(0.0, 0.0, 1.0), 0.5, Vec3(1.0, 2.0, 3.0)))
    assert as_dict == {"normal": Vec3(0.0, 0.0, 1.0), "depth": 0.5, "point": Vec3(1.0, 2.0, 3.0)}
    # asdict rebuilds each vector as its own type, not a plain tuple
    assert type(as_dict["normal"]) is Vec3 and type(as_dict["point"]) is Vec3
    assert type(dataclasses.asdict(hit)["normal"]) is Vec2
    assert dataclasses.astuple(hit) == (1.5, P, N, False, math.inf)


def test_equality_is_by_value_within_one_class() -> None:
    hit = RayHit(1.5, P, N)
    assert hit == RayHit(1.5, P, N)
    assert hit != RayHit(1.5, P, N, True)
    assert hash(hit) == hash(RayHit(1.5, P, N))
    # a plain tuple with the same items is not the result, in either order
    assert hit != (1.5, P, N, False, math.inf)
    assert operator.ne((1.5, P, N, False, math.inf), hit)
    assert not hit == (1.5, P, N, False, math.inf)  # noqa: SIM201 - the == operator itself
    # a world hit is not the plain hit it extends
    assert WorldRayHit(1.5, P, N, False) != hit
    with pytest.raises(TypeError):
        assert hit < RayHit(2.0, P, N)  # type: ignore[operator]


def test_results_unpack_in_field_order() -> None:
    hit = raycast(Ray((0.0, 0.0), (1.0, 0.0)), Circle((5.0, 0.0), 1.0))
    assert hit is not None
    distance, point, normal, inside, exit_distance = hit  # type: ignore[misc]
    assert (distance, point, normal, inside, exit_distance) == (
        4.0, Vec2(4.0, 0.0), Vec2(-1.0, 0.0), False, 6.0)
    assert hit[0] == hit.distance  # type: ignore[index]


def test_repr_names_the_fields() -> None:
    assert repr(Contact(N, 0.5, P)) == (
        "Contact(normal=Vec2(0.0, 1.0), depth=0.5, point=Vec2(1.0, 2.0))")


def test_pickle_and_copy_round_trip() -> None:
    for result in (RayHit(1.5, P, N, True), SweepHit(0.5, P, N, P),
                   WorldContact(N, 0.5, P, 3, {"name": "wall"})):
        for clone in (pickle.loads(pickle.dumps(result)), copy.copy(result),
                      copy.deepcopy(result)):
            assert type(clone) is type(result) and clone == result


def test_world_results_extend_the_plain_ones() -> None:
    # the world's fields follow every RayHit field, exit_distance included
    hit = WorldRayHit(1.5, P, N, False, 2.5, 7, "data")
    assert isinstance(hit, RayHit)
    assert (hit.distance, hit.exit_distance, hit.handle, hit.data) == (1.5, 2.5, 7, "data")
    assert WorldRayHit(1.5, P, N, handle=7).exit_distance == math.inf
    assert [f.name for f in dataclasses.fields(hit)][-2:] == ["handle", "data"]
    assert WorldRayHit(1.5, P, N).handle == -1


def test_record_checks_fields_as_dataclass_does() -> None:
    # a field without a default after one with a default: the dataclass rule
    with pytest.raises(TypeError, match="non-default argument"):
        @record
        class Bad:
            a: int = 0
            b: int

    @record
    class Pair:
        """Two numbers."""

        a: int
        b: int = 2

        def total(self) -> int:
            """Methods of the class body carry over."""
            return self.a + self.b

    assert Pair(1).total() == 3 and Pair.__doc__ == "Two numbers."
