"""The World's one-call hit records (rays in 2D and 3D, a circle's or sphere's sweep), built
by the compiled call itself.

A 2D :meth:`swept.world.World.raycast` that hits returns a ``WorldRayHit`` holding a point
``Vec2``, a normal ``Vec2``, two floats, a bool, the handle and the collider's data. Built in
Python from the kernel's numbers that cost more than the cast itself: the kernel boxed nine
values into a tuple, Python unpacked them, and each ``tuple.__new__(cls, fields)`` (the point
and the record) allocated the argument tuple twice over before the object. Measured on the
shared machine, 1,000 random segments, in thread CPU time: the compiled call 0.65 us a ray,
the Python around it (checks, the normal's lookup, two objects built) 0.75 us.

Here the compiled entry :func:`ray_hit2` returns one native value, a :data:`hit_type`, and
numba's boxing of that type (:func:`_box_hit`, run by the entry's CPython wrapper as it
returns) builds the record with the C API, as ``tuple.__new__`` itself does
(``PyType_GenericAlloc`` of the record class, then each item set): the point, the shared
normal (looked up in and added to the World's normal dict, by :func:`swept._kernels.world.
normal_key`), the data (read from the World's data list, by handle). A miss is ``None``.

The World's data list and normal dict reach the boxing by address (``id``) through the
descriptor's tail (:func:`describe_hits`): the World keeps both objects alive, and the very
ones described, as long as it passes the descriptor's address (it describes again after any
change). The boxing holds both (a reference each) from before its first allocation until it
is done: an allocation may run the garbage collector, whose finalizers may query the World
after a change and so describe it anew, dropping the old dict (a use after free, caught by a
test that forces a collection on nearly every allocation). The record classes are taken from
numba's environment of the entry (pickled by reference in the disk cache).

:func:`ray_hit3` does the same for 3D rays (``Vec3`` point and normal, no shared normals),
:func:`ball_hit2` and :func:`ball_hit3` for :meth:`swept.world.World.sweep` of a circle or a
sphere (a ``WorldSweepHit``: the general ball path's arithmetic, in the same order, so both
answer bit for bit alike). Measured: a 2D ray 1.40 -> 1.04 us, a 3D ray 2.4 -> 1.25 us, a
circle's sweep 7.1 -> 2.1 us, a sphere's 4.9 -> 1.9 us.

The garbage collector. These records are tuples, and some need not be on the collector's
list: a Vec2 or Vec3 holds floats alone, and a record whose data is of a type the collector
never tracks (None, an int, a string) holds nothing else that could lead back to it (its
vectors are such Vec2s, its other items numbers), so no reference cycle can pass through
either. Each is taken off the list as it is made (``PyObject_GC_UnTrack``, what CPython does
to a plain tuple of such items at its next collection); a record whose data is of a tracked
kind (a list, an object) stays on it. A loop that keeps its hits allocated two tracked
objects a hit, and the collections they set off (each full one walks every tracked object of
the process) cost it about an eighth of its time: measured (``bench_world_rays``' loop of
10,000 rays, its hits kept in a list, one process, 41 shuffled rounds, each call after an
untimed one of its own), untracked / tracked 0.87 at 1,000 segments and 0.88 at 10,000.
"""

from __future__ import annotations

import math
from typing import Any

import numpy as np
from llvmlite import ir
from numba import carray
from numba.core import cgutils, types
from numba.core.extending import box, intrinsic, models, register_model

from . import entry, inline_kernel
from .scene import CHAIN_OWNER, Scene
from .world import (
    CAST_GROWN,
    DESC_SIZE,
    Casts,
    Hits,
    _int64_at,
    cast_one,
    described,
    normal_key,
)

__all__ = ["hit_type", "ball_hit_type", "hit3_type", "ball_hit3_type", "ray_hit2", "ray_hit3",
           "ball_hit2", "ball_hit3", "describe_hits", "DESC_OBJECTS", "HIT_FIELDS",
           "BALL_HIT_FIELDS", "HIT3_FIELDS", "BALL_HIT3_FIELDS"]

#: The values a hit descriptor (:func:`describe_hits`) holds after its arrays: the address of
#: the World's data list, of its normal dict, and the handle capacity (rows from it on are
#: chains' segments, reported as their chain, the row's :data:`~swept._kernels.scene.
#: CHAIN_OWNER`).
DESC_OBJECTS = 3
#: The native ray hit's fields, in order: handle (-1: a miss), t, point, normal, inside, exit,
#: the normal's key, then the data list's and the normal dict's addresses.
HIT_FIELDS = (("h", types.int64), ("t", types.float64), ("px", types.float64),
              ("py", types.float64), ("nx", types.float64), ("ny", types.float64),
              ("inside", types.boolean), ("te", types.float64), ("key", types.int64),
              ("data", types.int64), ("normals", types.int64))
#: The native ball hit's fields, in order: handle (-1: a miss), fraction, point, normal,
#: position, inside, the normal's key, then the data list's and the normal dict's addresses.
BALL_HIT_FIELDS = (("h", types.int64), ("t", types.float64), ("px", types.float64),
                   ("py", types.float64), ("nx", types.float64), ("ny", types.float64),
                   ("qx", types.float64), ("qy", types.float64), ("inside", types.boolean),
                   ("key", types.int64), ("data", types.int64), ("normals", types.int64))

#: The native 3D ray hit's fields, in order: handle (-1: a miss), t, point, normal, inside,
#: exit, then the data list's address (3D normals are not shared).
HIT3_FIELDS = (("h", types.int64), ("t", types.float64), ("px", types.float64),
               ("py", types.float64), ("pz", types.float64), ("nx", types.float64),
               ("ny", types.float64), ("nz", types.float64), ("inside", types.boolean),
               ("te", types.float64), ("data", types.int64))

#: The native 3D ball hit's fields, in order: handle (-1: a miss), fraction, point, normal,
#: position, inside, then the data list's address.
BALL_HIT3_FIELDS = (("h", types.int64), ("t", types.float64), ("px", types.float64),
                    ("py", types.float64), ("pz", types.float64), ("nx", types.float64),
                    ("ny", types.float64), ("nz", types.float64), ("qx", types.float64),
                    ("qy", types.float64), ("qz", types.float64), ("inside", types.boolean),
                    ("data", types.int64))


class NativeHit(types.Type):
    """A native hit: a struct of the class's ``fields`` that numba boxes (:func:`_box_record`)
    as the World's record, or None on a miss. One instance a subclass, named after it."""

    fields: tuple[tuple[str, Any], ...] = ()

    def __init__(self) -> None:
        """The instance of this subclass."""
        super().__init__(name=f"swept.{type(self).__name__}")


class HitType(NativeHit):
    """:func:`ray_hit2`'s result: a ``WorldRayHit`` of Vec2s."""
    fields = HIT_FIELDS


class BallHitType(NativeHit):
    """:func:`ball_hit2`'s result: a ``WorldSweepHit`` of Vec2s."""
    fields = BALL_HIT_FIELDS


class Hit3Type(NativeHit):
    """:func:`ray_hit3`'s result: a ``WorldRayHit`` of Vec3s."""
    fields = HIT3_FIELDS


class BallHit3Type(NativeHit):
    """:func:`ball_hit3`'s result: a ``WorldSweepHit`` of Vec3s."""
    fields = BALL_HIT3_FIELDS


#: The one :class:`HitType`.
hit_type = HitType()
#: The one :class:`BallHitType`.
ball_hit_type = BallHitType()
#: The one :class:`Hit3Type`.
hit3_type = Hit3Type()
#: The one :class:`BallHit3Type`.
ball_hit3_type = BallHit3Type()


@register_model(HitType)
@register_model(BallHitType)
@register_model(Hit3Type)
@register_model(BallHit3Type)
class _HitModel(models.StructModel):
    """A native hit is a struct of its type's ``fields``."""

    def __init__(self, dmm: Any, fe_type: Any) -> None:
        """The members are ``fe_type.fields``."""
        super().__init__(dmm, fe_type, list(fe_type.fields))


def _maker(typ: Any, name: str) -> Any:
    """An intrinsic, named ``name``, making a ``typ`` (a native hit) of a tuple of the values
    of its fields, in order (each cast to the field's type)."""

    def make(typingctx: Any, values: Any) -> Any:
        sig = typ(values)

        def codegen(context: Any, builder: Any, signature: Any, args: Any) -> Any:
            hit = cgutils.create_struct_proxy(typ)(context, builder)
            for i, ((field, wanted), given) in enumerate(zip(typ.fields, signature.args[0])):
                value = builder.extract_value(args[0], i)
                setattr(hit, field, context.cast(builder, value, given, wanted))
            return hit._getvalue()

        return sig, codegen

    make.__name__ = make.__qualname__ = name
    return intrinsic(make)


#: The intrinsics making native hits from the tuple of their fields' values, as compiled code
#: calls them (untyped for mypy).
make_hit: Any = _maker(hit_type, "make_hit")
make_ball_hit: Any = _maker(ball_hit_type, "make_ball_hit")
make_hit3: Any = _maker(hit3_type, "make_hit3")
make_ball_hit3: Any = _maker(ball_hit3_type, "make_ball_hit3")


def _new_tuple(c: Any, cls: Any, items: list[Any], untrack: Any = None) -> Any:
    """A new instance of the tuple subclass ``cls`` holding ``items`` (new references,
    stolen; any may be NULL), or NULL with the error set (every item released).

    ``untrack`` (a native bit, or None: never) takes the new object off the garbage
    collector's list (:func:`_untrack`) when set: the caller sets it only where no item can
    lead back to the object (the module's note on the garbage collector)."""
    pyapi = c.pyapi
    builder = c.builder
    result = cgutils.alloca_once_value(builder, pyapi.get_null_object())
    failed = cgutils.false_bit
    for item in items:
        failed = builder.or_(failed, cgutils.is_null(builder, item))
    with builder.if_then(builder.not_(failed)):
        fnty = ir.FunctionType(pyapi.pyobj, [pyapi.pyobj, pyapi.py_ssize_t])
        alloc = cgutils.get_or_insert_function(builder.module, fnty, "PyType_GenericAlloc")
        obj = builder.call(alloc, [cls, ir.Constant(pyapi.py_ssize_t, len(items))])
        with builder.if_then(cgutils.is_not_null(builder, obj)):
            for i, item in enumerate(items):
                # PyTuple_SetItem steals the item (the object's count is 1, as it needs)
                pyapi.tuple_setitem(obj, i, item)
            if untrack is not None:
                with builder.if_then(untrack):
                    _untrack(c, obj)
            builder.store(obj, result)
    made = builder.load(result)
    with builder.if_then(cgutils.is_null(builder, made)):
        # Py_DecRef ignores NULL
        for item in items:
            pyapi.decref(item)
    return made


def _untrack(c: Any, obj: Any) -> None:
    """``PyObject_GC_UnTrack(obj)``: the garbage collector no longer visits ``obj``."""
    fnty = ir.FunctionType(ir.VoidType(), [c.pyapi.pyobj])
    c.builder.call(cgutils.get_or_insert_function(c.builder.module, fnty,
                                                  "PyObject_GC_UnTrack"), [obj])


def _not_gc(c: Any, obj: Any) -> Any:
    """A native bit: whether ``obj`` (NULL: no) is of a type the garbage collector never
    tracks (None, ints, floats, strings: ``PyObject_IS_GC`` false), and so holds no reference
    back to a new record."""
    builder = c.builder
    answer = cgutils.alloca_once_value(builder, cgutils.false_bit)
    with builder.if_then(cgutils.is_not_null(builder, obj)):
        fnty = ir.FunctionType(ir.IntType(32), [c.pyapi.pyobj])
        is_gc = builder.call(cgutils.get_or_insert_function(builder.module, fnty,
                                                            "PyObject_IS_GC"), [obj])
        builder.store(builder.icmp_signed("==", is_gc, ir.Constant(is_gc.type, 0)), answer)
    return builder.load(answer)


def _vec2(c: Any, x: Any, y: Any) -> Any:
    """A new Vec2 of the native floats ``x, y`` (NULL with the error set), untracked
    (the module's note on the garbage collector)."""
    from ..vec import Vec2

    cls = c.env_manager.read_const(c.env_manager.add_const(Vec2))
    return _new_tuple(c, cls, [c.pyapi.float_from_double(x), c.pyapi.float_from_double(y)],
                      cgutils.true_bit)


def _vec3(c: Any, x: Any, y: Any, z: Any) -> Any:
    """A new Vec3 of the native floats ``x, y, z`` (NULL with the error set), untracked
    (the module's note on the garbage collector)."""
    from ..vec import Vec3

    cls = c.env_manager.read_const(c.env_manager.add_const(Vec3))
    f = c.pyapi.float_from_double
    return _new_tuple(c, cls, [f(x), f(y), f(z)], cgutils.true_bit)


def _shared_normal(c: Any, normals: Any, key: Any, nx: Any, ny: Any) -> Any:
    """A new reference to the normal ``(nx, ny)``: the Vec2 the dict ``normals`` keeps under
    ``key`` (made and kept there on its first use), or a Vec2 of its own when ``key`` is -1;
    NULL with the error set."""
    pyapi = c.pyapi
    builder = c.builder
    normal = cgutils.alloca_once_value(builder, pyapi.get_null_object())
    keyed = builder.icmp_signed(">=", key, ir.Constant(key.type, 0))
    with builder.if_else(keyed) as (by_key, own):
        with by_key:
            name = pyapi.long_from_longlong(key)
            with builder.if_then(cgutils.is_not_null(builder, name)):
                shared = pyapi.dict_getitem(normals, name)  # borrowed, or NULL
                with builder.if_else(cgutils.is_not_null(builder, shared)) as (found, absent):
                    with found:
                        pyapi.incref(shared)
                        builder.store(shared, normal)
                    with absent:
                        made = _vec2(c, nx, ny)
                        with builder.if_then(cgutils.is_not_null(builder, made)):
                            status = pyapi.dict_setitem(normals, name, made)
                            kept = builder.icmp_signed("==", status, ir.Constant(status.type, 0))
                            with builder.if_else(kept) as (stored, refused):
                                with stored:
                                    builder.store(made, normal)
                                with refused:
                                    pyapi.decref(made)
            pyapi.decref(name)
        with own:
            builder.store(_vec2(c, nx, ny), normal)
    return builder.load(normal)


def _shared_vectors(c: Any, hit: Any) -> tuple[Any, Any]:
    """A 2D native hit's point (a new Vec2) and shared normal (new references, or NULL)."""
    normals = c.builder.inttoptr(hit.normals, c.pyapi.pyobj)
    return _vec2(c, hit.px, hit.py), _shared_normal(c, normals, hit.key, hit.nx, hit.ny)


def _box_record(c: Any, typ: Any, hit: Any, cls: type, fields: Any,
                vectors: Any = _shared_vectors) -> Any:
    """Box the native hit ``hit`` (of numba type ``typ``) as the record ``cls``, or None when
    its handle is -1: ``fields(hit,
    point, normal, data)`` lists the record's items (new references, or NULL) from the
    native hit, its point and normal (``vectors(c, hit)``) and the collider's data."""
    pyapi = c.pyapi
    builder = c.builder
    result = cgutils.alloca_once_value(builder, pyapi.get_null_object())
    missed = builder.icmp_signed("<", hit.h, ir.Constant(hit.h.type, 0))
    with builder.if_else(missed) as (on_miss, on_hit):
        with on_miss:
            builder.store(pyapi.make_none(), result)
        with on_hit:
            record = c.env_manager.read_const(c.env_manager.add_const(cls))
            # the World's data list and normal dict, held from before the first allocation
            # until done: an allocation may run the garbage collector, and a finalizer that
            # changes the World and queries it would describe it again and free the dict
            owner = builder.inttoptr(hit.data, pyapi.pyobj)
            held = [owner]
            if "normals" in dict(typ.fields):
                held.append(builder.inttoptr(hit.normals, pyapi.pyobj))
            for obj in held:
                pyapi.incref(obj)
            point, normal = vectors(c, hit)
            # the collider's data: borrowed from the list (NULL: IndexError set)
            data = pyapi.list_getitem(owner, hit.h)
            pyapi.incref(data)
            # untracked unless the data may lead back to the record (the module's note)
            untrack = _not_gc(c, data)
            builder.store(_new_tuple(c, record, fields(hit, point, normal, data), untrack),
                          result)
            for obj in held:
                pyapi.decref(obj)
    return builder.load(result)


@box(HitType)
def _box_hit(typ: Any, val: Any, c: Any) -> Any:
    """Box a native ray hit as ``WorldRayHit(t, point, normal, inside, exit, h, data)`` (a
    miss as None); NULL with the error set if an allocation fails."""
    from ..results import WorldRayHit

    pyapi = c.pyapi
    hit = cgutils.create_struct_proxy(typ)(c.context, c.builder, value=val)
    return _box_record(c, typ, hit, WorldRayHit, lambda h, point, normal, data: [
        pyapi.float_from_double(h.t), point, normal, pyapi.bool_from_bool(h.inside),
        pyapi.float_from_double(h.te), pyapi.long_from_longlong(h.h), data])


@box(BallHitType)
def _box_ball_hit(typ: Any, val: Any, c: Any) -> Any:
    """Box a native ball hit as ``WorldSweepHit(fraction, point, normal, position, inside,
    h, data)`` (a miss as None); NULL with the error set if an allocation fails."""
    from ..results import WorldSweepHit

    pyapi = c.pyapi
    hit = cgutils.create_struct_proxy(typ)(c.context, c.builder, value=val)
    return _box_record(c, typ, hit, WorldSweepHit, lambda h, point, normal, data: [
        pyapi.float_from_double(h.t), point, normal, _vec2(c, h.qx, h.qy),
        pyapi.bool_from_bool(h.inside), pyapi.long_from_longlong(h.h), data])


@box(Hit3Type)
def _box_hit3(typ: Any, val: Any, c: Any) -> Any:
    """Box a native 3D ray hit as ``WorldRayHit(t, point, normal, inside, exit, h, data)``
    (Vec3s; a miss as None); NULL with the error set if an allocation fails."""
    from ..results import WorldRayHit

    pyapi = c.pyapi
    hit = cgutils.create_struct_proxy(typ)(c.context, c.builder, value=val)
    return _box_record(c, typ, hit, WorldRayHit, lambda h, point, normal, data: [
        pyapi.float_from_double(h.t), point, normal, pyapi.bool_from_bool(h.inside),
        pyapi.float_from_double(h.te), pyapi.long_from_longlong(h.h), data], _vectors3)


def _vectors3(c: Any, hit: Any) -> tuple[Any, Any]:
    """A 3D native hit's point and normal (new Vec3s, or NULL)."""
    return _vec3(c, hit.px, hit.py, hit.pz), _vec3(c, hit.nx, hit.ny, hit.nz)


@box(BallHit3Type)
def _box_ball_hit3(typ: Any, val: Any, c: Any) -> Any:
    """Box a native 3D ball hit as ``WorldSweepHit(fraction, point, normal, position,
    inside, h, data)`` (Vec3s; a miss as None); NULL with the error set if an allocation
    fails."""
    from ..results import WorldSweepHit

    pyapi = c.pyapi
    hit = cgutils.create_struct_proxy(typ)(c.context, c.builder, value=val)
    return _box_record(c, typ, hit, WorldSweepHit, lambda h, point, normal, data: [
        pyapi.float_from_double(h.t), point, normal, _vec3(c, h.qx, h.qy, h.qz),
        pyapi.bool_from_bool(h.inside), pyapi.long_from_longlong(h.h), data], _vectors3)


def describe_hits(scene: Scene, data: list[Any], normals: dict[int, Any],
                  hcap: int) -> np.ndarray:
    """The descriptor :func:`ray_hit2` takes by address: :func:`swept._kernels.world.describe`'s
    for ``scene`` (with its one-row batch), then :data:`DESC_OBJECTS` values: the addresses
    of ``data`` (each handle's user data) and ``normals`` (the shared normals by key), and
    ``hcap``. The caller keeps all of them alive, and unchanged, as long as it passes the
    address."""
    from .world import describe

    return np.concatenate([describe(scene),
                           np.array([id(data), id(normals), hcap], np.int64)])


@entry
def ray_hit2(desc: int, ray: tuple[float, float, float, float, float], mask: int) -> Any:
    """One 2D ray for :meth:`swept.world.World.raycast` against the scene of the hit
    descriptor (:func:`describe_hits`) at address ``desc``, given as the Ray's ``(ox, oy, dx,
    dy, max_distance)`` (a unit direction): the nearest hit as a :data:`hit_type`, boxed (as
    the call returns to Python) as the ``WorldRayHit``, or None on a miss. Keeps the GIL
    (:func:`swept._kernels.entry`): the descriptor's one-row batch is the World's one scratch,
    and the boxing calls the C API."""
    scene, one = described(desc)
    tail = carray(_int64_at(desc + 8 * DESC_SIZE), (DESC_OBJECTS,))
    ox, oy, dx, dy, tmax = ray
    # flags computed, not the literal 0 (a literal compiles cast_one once more)
    no_flags = mask & 0
    h, t, px, py, _pz, nx, ny, _nz, inside, te = cast_one(
        scene, one, (ox, oy, 0.0, dx, dy, 0.0), tmax, 0.0, mask, no_flags)
    key = -1
    if h >= 0:
        key = normal_key(scene, h, nx, ny)
        if inside:
            # a ray that starts inside: the point is its origin, bit for bit
            px = ox
            py = oy
        if h >= tail[2]:
            # a chain's segment: the chain
            h = int(scene.rows[h, CHAIN_OWNER])
    return make_hit((h, t, px, py, nx, ny, inside, te, key, tail[0], tail[1]))


@inline_kernel
def _ball(scene: Scene, one: tuple[Casts, Hits, np.ndarray], chain_start: int,
          c: tuple[float, float, float],
          d: tuple[float, float, float], r: float, length: float, mask: int
          ) -> tuple[int, int, float, float, float, float, float, float, float, bool]:
    """A ball of radius ``r`` centred at ``c`` moved by ``d`` (of length ``length``, as the
    World's general ball path computes it; z is 0 in 2D), with that path's arithmetic in the
    same order: ``(row, handle, fraction, point, normal, inside)``, the row the cast met (-1:
    none) and its handle (a chain's segment, from ``chain_start`` on, reported as its
    chain); the point is the ball's point of contact, or the kernel's touch point for a chain
    (whose region rule may have turned the normal) and for a ball that starts touching.
    ``one`` is the descriptor's one-row batch (:func:`swept._kernels.world.described`)."""
    cx, cy, cz = c
    dx, dy, dz = d
    ux = 1.0
    uy = 0.0
    uz = 0.0
    if length != 0.0:
        ux = dx / length
        uy = dy / length
        uz = dz / length
    # flags computed, not a literal (a literal compiles cast_one once more)
    grown = (mask & 0) | CAST_GROWN
    row, t, px, py, pz, nx, ny, nz, inside, _te = cast_one(
        scene, one, (cx, cy, cz, ux, uy, uz), length, r, mask, grown)
    h = row
    fraction = 0.0
    if row >= 0:
        chain = row >= chain_start
        if chain:
            h = int(scene.rows[row, CHAIN_OWNER])
        if not inside:
            if length > 0.0:
                fraction = min(t / length, 1.0)
            if not chain:
                px = (cx + dx * fraction) - nx * r
                py = (cy + dy * fraction) - ny * r
                pz = (cz + dz * fraction) - nz * r
    return row, h, fraction, px, py, pz, nx, ny, nz, inside


@entry
def ball_hit2(desc: int, ball: tuple[float, float, float, float, float],
              mask: int) -> Any:
    """One circle swept for :meth:`swept.world.World.sweep` against the scene of the hit
    descriptor (:func:`describe_hits`) at address ``desc``, given as ``(cx, cy, r, dx, dy)``:
    its centre, radius (grown by the target distance) and displacement, whose length is the
    C library's ``hypot`` (as ``swept.world._ball_length`` and ``sweep_many``'s
    ``np.hypot``): the first hit as a
    :data:`ball_hit_type`, boxed as the ``WorldSweepHit`` (or None on a miss). Each value is
    computed with the very operations of the World's general ball path (its ``_sweep_ball``),
    so that both answer bit for bit alike."""
    scene, one = described(desc)
    tail = carray(_int64_at(desc + 8 * DESC_SIZE), (DESC_OBJECTS,))
    cx, cy, r, dx, dy = ball
    length = math.hypot(dx, dy)
    row, h, fraction, px, py, _pz, nx, ny, _nz, inside = _ball(
        scene, one, tail[2], (cx, cy, 0.0), (dx, dy, 0.0), r, length, mask)
    key = normal_key(scene, row, nx, ny) if row >= 0 else -1
    return make_ball_hit((h, fraction, px, py, nx, ny, cx + dx * fraction,
                          cy + dy * fraction, inside, key, tail[0], tail[1]))


@entry
def ray_hit3(desc: int, ray: tuple[float, float, float, float, float, float, float],
             mask: int) -> Any:
    """One 3D ray for :meth:`swept.world.World.raycast`, as :func:`ray_hit2`: the Ray's
    ``(ox, oy, oz, dx, dy, dz, max_distance)`` in, the ``WorldRayHit`` (Vec3s) or None out."""
    scene, one = described(desc)
    tail = carray(_int64_at(desc + 8 * DESC_SIZE), (DESC_OBJECTS,))
    ox, oy, oz, dx, dy, dz, tmax = ray
    no_flags = mask & 0
    h, t, px, py, pz, nx, ny, nz, inside, te = cast_one(
        scene, one, (ox, oy, oz, dx, dy, dz), tmax, 0.0, mask, no_flags)
    if h >= 0 and inside:
        px = ox
        py = oy
        pz = oz
    return make_hit3((h, t, px, py, pz, nx, ny, nz, inside, te, tail[0]))


@entry
def ball_hit3(desc: int, ball: tuple[float, float, float, float, float, float, float, float],
              mask: int) -> Any:
    """One sphere swept for :meth:`swept.world.World.sweep`, as :func:`ball_hit2`: ``(cx,
    cy, cz, r, dx, dy, dz, length)`` in (the length as ``Vec3.length`` computes it), the
    ``WorldSweepHit`` (Vec3s) or None out."""
    scene, one = described(desc)
    tail = carray(_int64_at(desc + 8 * DESC_SIZE), (DESC_OBJECTS,))
    cx, cy, cz, r, dx, dy, dz, length = ball
    _row, h, fraction, px, py, pz, nx, ny, nz, inside = _ball(
        scene, one, tail[2], (cx, cy, cz), (dx, dy, dz), r, length, mask)
    return make_ball_hit3((h, fraction, px, py, pz, nx, ny, nz, cx + dx * fraction,
                           cy + dy * fraction, cz + dz * fraction, inside, tail[0]))
