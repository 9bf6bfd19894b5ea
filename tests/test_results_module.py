"""Every result type lives in swept.results, in one style: single-query results are frozen,
tuple-backed records (checked when users build them, built unchecked by the library through
the ``make_*`` helpers), batch results are frozen dataclasses of arrays, and every old import
path gives the very same class."""

from __future__ import annotations

import dataclasses
import importlib
import math
import pickle
from enum import Enum
from typing import Any

import numpy as np
import pytest
from hypothesis import given
from hypothesis import strategies as st

import swept
from swept import Circle, results
from swept.results import (
    Advance,
    Collision,
    Contact,
    ContactBatch,
    Decomposition,
    Manifold,
    ManifoldPoint,
    MoveResult,
    RayBatch,
    RayHit,
    Resolved,
    SweepBatch,
    SweepHit,
    SweptStep,
    TOIResult,
    TOIStatus,
    WorldContact,
    WorldRayHit,
    WorldSweepHit,
)
from swept.vec import Vec2, Vec3

DISC = Circle((0.0, 0.0), 1.0)
POINT = ManifoldPoint((1.0, 2.0), 0.5)

#: (class, the fields of a user-built one (vectors as plain tuples), a vector field, a float
#: field or None)
CASES: list[tuple[type, tuple[Any, ...], str, str | None]] = [
    (RayHit, (1.5, (1.0, 2.0), (0.0, 1.0), False, 2.5), "point", "distance"),
    (SweepHit, (0.5, (1.0, 2.0), (0.0, 1.0), (3.0, 4.0), False), "position", "fraction"),
    (Contact, ((0.0, 1.0, 0.0), 0.5, (1.0, 2.0, 3.0)), "normal", "depth"),
    (ManifoldPoint, ((1.0, 2.0), 0.5), "point", "depth"),
    (Manifold, ((0.0, 1.0), (POINT,)), "normal", None),
    (WorldRayHit, (1.5, (1.0, 2.0), (0.0, 1.0), False, 2.5, 3, "wall"), "normal",
     "exit_distance"),
    (WorldSweepHit, (0.5, (1.0, 2.0), (0.0, 1.0), (3.0, 4.0), True, 3, None), "point",
     "fraction"),
    (WorldContact, ((0.0, 1.0), 0.5, (1.0, 2.0), 3, "floor"), "point", "depth"),
    (Decomposition, (-2.0, (0.0, -2.0), (3.0, 0.0)), "tangent_part", "amount"),
    (Collision, (4, (1.0, 2.0), (0.0, 1.0), (0.5, 0.0), (1.5, 0.0), "crate"), "travel", None),
    (MoveResult, (DISC, (0.0, 0.0), (1.0, 0.0), True, False, False, (0.0, -1.0), (), 4,
                  (0.0, 0.0)), "floor_normal", None),
    (Resolved, (DISC, (1.0, 0.0), 0.25, ()), "velocity", "deepest"),
    (SweptStep, (DISC, (0.0, 0.0), (1.0, 0.0), (), 1), "position", None),
    (Advance, ((0.0, 0.0), (1.0, 0.0), 0.5, ((0.5, 2, Vec2(0.0, 1.0)),)), "center", "toi"),
    (TOIResult, (TOIStatus.HIT, 0.5, (0.0, 1.0), (1.0, 2.0), 3), "point", "fraction"),
]
RECORDS = [case[0] for case in CASES]
BATCHES = [RayBatch, SweepBatch, ContactBatch]

#: every old import path: (module, names it gave before the move)
OLD_PATHS = {
    "swept.controller": ["Collision", "MoveResult"],
    "swept.resolve": ["Resolved"],
    "swept.step": ["SweptStep"],
    "swept.toi": ["Advance", "TOIStatus", "TOIResult"],
    "swept.response": ["Decomposition"],
    "swept.world": ["WorldRayHit", "WorldSweepHit", "WorldContact", "RayBatch", "SweepBatch",
                    "ContactBatch"],
    "swept": ["RayHit", "SweepHit", "Contact", "Manifold", "ManifoldPoint", "Collision",
              "MoveResult", "Resolved", "SweptStep", "Advance", "TOIStatus", "TOIResult",
              "WorldRayHit", "WorldSweepHit", "WorldContact", "RayBatch", "SweepBatch",
              "ContactBatch"],
}


def _ids(case: Any) -> str:
    return case.__name__ if isinstance(case, type) else ""


@pytest.mark.parametrize("cls", RECORDS + BATCHES + [TOIStatus], ids=_ids)
def test_every_result_type_lives_in_results(cls: type) -> None:
    assert cls.__module__ == "swept.results"
    assert getattr(results, cls.__name__) is cls
    assert cls.__name__ in results.__all__


@pytest.mark.parametrize(("module", "names"), sorted(OLD_PATHS.items()))
def test_old_import_paths_give_the_same_classes(module: str, names: list[str]) -> None:
    mod = importlib.import_module(module)
    for name in names:
        assert getattr(mod, name) is getattr(results, name), f"{module}.{name}"


def test_the_record_machinery_lives_in_fast_and_is_re_exported() -> None:
    from swept import _fast

    assert results.record is _fast.record
    assert _fast.build is tuple.__new__


def test_toi_status_stays_an_enum() -> None:
    assert issubclass(TOIStatus, Enum)
    assert TOIStatus("hit") is TOIStatus.HIT
    assert pickle.loads(pickle.dumps(TOIStatus.OVERLAPPED)) is TOIStatus.OVERLAPPED


@pytest.mark.parametrize(("cls", "values", "vector", "number"), CASES, ids=_ids)
def test_single_query_results_are_frozen_records(cls: type, values: tuple[Any, ...],
                                                 vector: str, number: str | None) -> None:
    r = cls(*values)
    names = [f.name for f in dataclasses.fields(r)]
    assert names == list(cls._fields)  # type: ignore[attr-defined]
    assert len(names) == len(values)
    assert dataclasses.is_dataclass(r) and cls.__dataclass_params__.frozen  # type: ignore
    assert isinstance(r, tuple)
    for name in (names[0], vector):
        with pytest.raises(dataclasses.FrozenInstanceError, match=name):
            setattr(r, name, values[0])
    # replace keeps the class and changes one field
    moved = dataclasses.replace(r, **{names[-1]: values[-1]})
    assert type(moved) is cls and moved == r
    assert list(dataclasses.asdict(r)) == names
    clone = pickle.loads(pickle.dumps(r))
    assert type(clone) is cls and clone == r and hash(clone) == hash(r)
    # a record equals only a record of the same class, never the plain tuple of its fields
    assert r != tuple(r)


@pytest.mark.parametrize(("cls", "values", "vector", "number"), CASES, ids=_ids)
def test_a_user_built_result_coerces_its_vectors(cls: type, values: tuple[Any, ...],
                                                 vector: str, number: str | None) -> None:
    r = cls(*values)
    for f in dataclasses.fields(r):
        v = getattr(r, f.name)
        given_value = values[cls._fields.index(f.name)]  # type: ignore[attr-defined]
        if type(given_value) is tuple and len(given_value) in (2, 3) and \
                all(isinstance(c, float) for c in given_value):
            # a plain tuple of floats in a vector field becomes a Vec2 / Vec3
            assert type(v) is (Vec2 if len(given_value) == 2 else Vec3), f.name
            assert tuple(v) == given_value
    # by name as well as by position
    assert cls(**dict(zip(cls._fields, values))) == r  # type: ignore[attr-defined]


@pytest.mark.parametrize(("cls", "values", "vector", "number"), CASES, ids=_ids)
@pytest.mark.parametrize("bad", [math.nan, math.inf, -1e51])
def test_a_user_built_result_refuses_nan_naming_the_field(
        cls: type, values: tuple[Any, ...], vector: str, number: str | None,
        bad: float) -> None:
    fields = list(cls._fields)  # type: ignore[attr-defined]
    ok = dict(zip(fields, values))
    dim = len(cls(*values).__getattribute__(vector))
    with pytest.raises(ValueError, match=vector):
        cls(**{**ok, vector: (bad,) + (0.0,) * (dim - 1)})
    if number is not None:
        with pytest.raises(ValueError, match=number):
            # exit_distance is unbounded (any size up to inf is valid): only NaN is bad there
            cls(**{**ok, number: bad if number != "exit_distance" else math.nan})


def test_vectors_of_a_result_share_one_dimension() -> None:
    # a 2D point with a 3D normal
    with pytest.raises(ValueError, match="normal"):
        Collision(0, (1.0, 2.0), (0.0, 1.0, 0.0), (0.0, 0.0), (0.0, 0.0))
    # a field annotated Vec2 refuses a 3D vector, naming it
    with pytest.raises(ValueError, match="center"):
        Advance((0.0, 0.0, 0.0), (1.0, 0.0), None)
    with pytest.raises(ValueError, match="normal"):
        TOIResult(TOIStatus.HIT, 0.5, (0.0, 1.0, 0.0), (1.0, 2.0), 3)
    # an optional vector may be None (not on a floor)
    r = MoveResult(DISC, (0.0, 0.0), (1.0, 0.0), False, False, False, None, ())
    assert r.floor_normal is None and r.platform_velocity is None and r.floor_collider is None


def test_plain_defaults_replace_default_factories() -> None:
    assert SweptStep(DISC, (0.0, 0.0), (1.0, 0.0)).hits == ()
    assert SweptStep(DISC, (0.0, 0.0), (1.0, 0.0)).casts == 0
    assert not SweptStep(DISC, (0.0, 0.0), (1.0, 0.0)).bounced
    assert Advance((0.0, 0.0), (1.0, 0.0), None).hits == ()
    assert Collision(0, (1.0, 2.0), (0.0, 1.0), (0.0, 0.0), (0.0, 0.0)).data is None


def test_decomposition_unpacks_as_its_named_tuple_did() -> None:
    d = swept.decompose((3, 4), (0, 2))
    amount, normal_part, tangent_part = d
    assert (amount, normal_part, tangent_part) == (4.0, Vec2(0.0, 4.0), Vec2(3.0, 0.0))
    assert d[0] == d.amount == 4.0
    assert type(d) is Decomposition


#: each fast builder and the record it builds, with the values of CASES
BUILDERS = [
    (results.make_ray_hit, RayHit), (results.make_sweep_hit, SweepHit),
    (results.make_contact, Contact), (results.make_decomposition, Decomposition),
    (results.make_collision, Collision), (results.make_move_result, MoveResult),
    (results.make_resolved, Resolved), (results.make_swept_step, SweptStep),
    (results.make_advance, Advance), (results.make_toi_result, TOIResult),
]


@pytest.mark.parametrize(("make", "cls"), BUILDERS, ids=lambda x: getattr(x, "__name__", ""))
def test_fast_builders_take_the_fields_in_order(make: Any, cls: type) -> None:
    """A fast builder passes its arguments straight into the tuple: a parameter list out of
    the record's field order would put a value in the wrong field without any error."""
    values = next(v for c, v, _, _ in CASES if c is cls)
    checked = cls(*values)
    built = make(*checked)
    assert type(built) is cls and built == checked
    # the builder's parameters are named as the record's fields, in the same order
    names = make.__code__.co_varnames[:make.__code__.co_argcount]
    assert list(names) == list(cls._fields)  # type: ignore[attr-defined]


def test_library_builds_results_with_the_fields_in_place() -> None:
    """The library's own (unchecked) builds: each field holds what its name says."""
    wall = swept.Segment((2.0, -5.0), (2.0, 5.0))
    step = swept.swept_step(Circle((0.0, 0.0), 0.5), (3.0, 0.0), 1.0, [wall])
    assert type(step) is SweptStep and step.casts >= 1 and step.bounced
    assert step.hits[0][0] == 0 and step.hits[0][1].normal == Vec2(-1.0, 0.0)
    assert step.position == step.shape.center
    moved = swept.move_and_slide(Circle((0.0, 0.0), 0.5), (3.0, 0.0), 1.0, [wall])
    assert type(moved) is MoveResult and moved.on_wall and not moved.on_floor
    assert moved.collisions[0].collider == 0 and moved.collisions[0].normal == Vec2(-1.0, 0.0)
    assert moved.position == moved.shape.center
    a = swept.advance((0.0, 0.0), 0.5, (3.0, 0.0), [wall])
    assert type(a) is Advance and a.toi == pytest.approx(0.5, abs=1e-12)
    assert a.hits[0][1] == 0
    r = swept.resolve(Circle((1.75, 0.0), 0.5), (1.0, 0.0), [wall])
    assert type(r) is Resolved and r.deepest <= 1e-12 and r.contacts[0][0] == 0
    t = swept.time_of_impact(Circle((0.0, 0.0), 0.5), swept.Motion(displacement=(3.0, 0.0)),
                             wall, swept.Motion())
    assert type(t) is TOIResult and t.status is TOIStatus.HIT and t.iterations >= 0


@pytest.mark.parametrize("cls", BATCHES, ids=_ids)
def test_batch_results_are_frozen_dataclasses_of_arrays(cls: type) -> None:
    assert dataclasses.is_dataclass(cls) and not issubclass(cls, tuple)
    names = [f.name for f in dataclasses.fields(cls)]
    assert names[0] == "hit" and names[-1] == "handle"
    arrays = {name: np.zeros(2) for name in names}
    b = cls(**arrays)
    with pytest.raises(dataclasses.FrozenInstanceError):
        b.hit = np.ones(2)  # type: ignore[misc]


def test_world_batches_are_the_results_classes() -> None:
    world = swept.World()
    world.add(swept.Segment((2.0, -5.0), (2.0, 5.0)))
    rays = world.raycast_many(np.array([[0.0, 0.0], [0.0, 9.0]]),
                              np.array([[1.0, 0.0], [1.0, 0.0]]))
    assert type(rays) is RayBatch
    # a miss: hit False, distance inf, zeros, handle -1
    assert rays.hit.tolist() == [True, False] and rays.handle.tolist() == [0, -1]
    assert rays.distance[1] == math.inf and rays.point[1].tolist() == [0.0, 0.0]


@given(st.floats(-1e50, 1e50), st.floats(-1e50, 1e50), st.floats(0.0, 1.0))
def test_a_record_from_tuples_equals_one_from_vectors(x: float, y: float, f: float) -> None:
    from_tuples = SweepHit(f, (x, y), (0.0, 1.0), (y, x))
    from_vectors = SweepHit(f, Vec2(x, y), Vec2(0.0, 1.0), Vec2(y, x))
    assert from_tuples == from_vectors and hash(from_tuples) == hash(from_vectors)
    assert pickle.loads(pickle.dumps(from_tuples)) == from_vectors
