"""World.raycast's 2D hit record, built by the compiled call itself.

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
change). The record classes are taken from numba's environment of the entry (pickled by
reference in the disk cache).
"""

from __future__ import annotations

from typing import Any

import numpy as np
from llvmlite import ir
from numba import carray
from numba.core import cgutils, types
from numba.core.extending import box, intrinsic, models, register_model

from . import entry
from .scene import CHAIN_OWNER, Scene
from .world import DESC_ARRAYS, DESC_STRIDE, _int64_at, cast_one, described, normal_key

__all__ = ["hit_type", "ray_hit2", "describe_hits", "DESC_OBJECTS", "HIT_FIELDS"]

#: The values a hit descriptor (:func:`describe_hits`) holds after its arrays: the address of
#: the World's data list, of its normal dict, and the handle capacity (rows from it on are
#: chains' segments, reported as their chain, the row's :data:`~swept._kernels.scene.
#: CHAIN_OWNER`).
DESC_OBJECTS = 3
#: The native hit's fields, in order: handle (-1: a miss), t, point, normal, inside, exit,
#: the normal's key, then the data list's and the normal dict's addresses.
HIT_FIELDS = (("h", types.int64), ("t", types.float64), ("px", types.float64),
              ("py", types.float64), ("nx", types.float64), ("ny", types.float64),
              ("inside", types.boolean), ("te", types.float64), ("key", types.int64),
              ("data", types.int64), ("normals", types.int64))


class HitType(types.Type):
    """The numba type of :func:`ray_hit2`'s result: boxed as a ``WorldRayHit`` or None."""

    def __init__(self) -> None:
        """The one instance is :data:`hit_type`."""
        super().__init__(name="swept.WorldRayHit2D")


#: The one :class:`HitType`.
hit_type = HitType()


@register_model(HitType)
class _HitModel(models.StructModel):
    """A :class:`HitType` is a struct of :data:`HIT_FIELDS`."""

    def __init__(self, dmm: Any, fe_type: Any) -> None:
        """The members are :data:`HIT_FIELDS`."""
        super().__init__(dmm, fe_type, list(HIT_FIELDS))


@intrinsic
def _make_hit(typingctx: Any, h: Any, t: Any, px: Any, py: Any, nx: Any, ny: Any,
              inside: Any, te: Any, key: Any, data: Any, normals: Any) -> Any:
    """A :data:`hit_type` of the values of :data:`HIT_FIELDS`, in order."""
    given = (h, t, px, py, nx, ny, inside, te, key, data, normals)
    sig = hit_type(*given)

    def codegen(context: Any, builder: Any, signature: Any, args: Any) -> Any:
        hit = cgutils.create_struct_proxy(hit_type)(context, builder)
        for (name, wanted), value, typ in zip(HIT_FIELDS, args, signature.args):
            setattr(hit, name, context.cast(builder, value, typ, wanted))
        return hit._getvalue()

    return sig, codegen


#: :func:`_make_hit` as compiled code calls it (untyped for mypy).
make_hit: Any = _make_hit


def _new_tuple(c: Any, cls: Any, items: list[Any]) -> Any:
    """A new instance of the tuple subclass ``cls`` holding ``items`` (new references, all
    non-null, stolen), or NULL with the error set (the items released)."""
    pyapi = c.pyapi
    builder = c.builder
    fnty = ir.FunctionType(pyapi.pyobj, [pyapi.pyobj, pyapi.py_ssize_t])
    alloc = cgutils.get_or_insert_function(builder.module, fnty, "PyType_GenericAlloc")
    obj = builder.call(alloc, [cls, ir.Constant(pyapi.py_ssize_t, len(items))])
    with builder.if_else(cgutils.is_null(builder, obj)) as (failed, made):
        with failed:
            for item in items:
                pyapi.decref(item)
        with made:
            for i, item in enumerate(items):
                # PyTuple_SetItem steals the item (the object's count is 1, as it needs)
                pyapi.tuple_setitem(obj, i, item)
    return obj


@box(HitType)
def _box_hit(typ: Any, val: Any, c: Any) -> Any:
    """Box a native hit as ``WorldRayHit(t, Vec2(px, py), normal, inside, te, h, data)``,
    the normal shared through the World's normal dict when its key is not -1; a miss as
    None. NULL with the error set if an allocation fails."""
    from ..results import WorldRayHit
    from ..vec import Vec2

    pyapi = c.pyapi
    builder = c.builder
    hit = cgutils.create_struct_proxy(typ)(c.context, builder, value=val)
    result = cgutils.alloca_once_value(builder, pyapi.get_null_object())
    missed = builder.icmp_signed("<", hit.h, ir.Constant(ir.IntType(64), 0))
    with builder.if_else(missed) as (on_miss, on_hit):
        with on_miss:
            builder.store(pyapi.make_none(), result)
        with on_hit:
            vec2 = c.env_manager.read_const(c.env_manager.add_const(Vec2))
            record = c.env_manager.read_const(c.env_manager.add_const(WorldRayHit))
            data = builder.inttoptr(hit.data, pyapi.pyobj)
            normals = builder.inttoptr(hit.normals, pyapi.pyobj)
            # the normal: the shared one of its key, or a new Vec2 (kept under its key)
            normal = cgutils.alloca_once_value(builder, pyapi.get_null_object())
            keyed = builder.icmp_signed(">=", hit.key, ir.Constant(ir.IntType(64), 0))
            with builder.if_then(keyed):
                key = pyapi.long_from_longlong(hit.key)
                with builder.if_then(cgutils.is_not_null(builder, key)):
                    shared = pyapi.dict_getitem(normals, key)  # borrowed, or NULL
                    with builder.if_else(cgutils.is_not_null(builder, shared)) as (found,
                                                                                  absent):
                        with found:
                            pyapi.incref(shared)
                            builder.store(shared, normal)
                        with absent:
                            made = _new_tuple(c, vec2, [pyapi.float_from_double(hit.nx),
                                                        pyapi.float_from_double(hit.ny)])
                            with builder.if_then(cgutils.is_not_null(builder, made)):
                                status = pyapi.dict_setitem(normals, key, made)
                                stored = builder.icmp_signed("==", status,
                                                             ir.Constant(status.type, 0))
                                with builder.if_else(stored) as (kept, failed):
                                    with kept:
                                        builder.store(made, normal)
                                    with failed:
                                        pyapi.decref(made)
                    pyapi.decref(key)
            with builder.if_then(builder.not_(keyed)):
                made = _new_tuple(c, vec2, [pyapi.float_from_double(hit.nx),
                                            pyapi.float_from_double(hit.ny)])
                builder.store(made, normal)
            normal_obj = builder.load(normal)
            with builder.if_then(cgutils.is_not_null(builder, normal_obj)):
                point = _new_tuple(c, vec2, [pyapi.float_from_double(hit.px),
                                             pyapi.float_from_double(hit.py)])
                with builder.if_else(cgutils.is_null(builder, point)) as (failed, made_point):
                    with failed:
                        pyapi.decref(normal_obj)
                    with made_point:
                        item = pyapi.list_getitem(data, hit.h)  # borrowed, or NULL
                        with builder.if_else(cgutils.is_null(builder, item)) as (no_data,
                                                                                  has_data):
                            with no_data:
                                pyapi.decref(point)
                                pyapi.decref(normal_obj)
                            with has_data:
                                pyapi.incref(item)
                                found = _new_tuple(c, record, [
                                    pyapi.float_from_double(hit.t), point, normal_obj,
                                    pyapi.bool_from_bool(hit.inside),
                                    pyapi.float_from_double(hit.te),
                                    pyapi.long_from_longlong(hit.h), item])
                                builder.store(found, result)
    return builder.load(result)


def describe_hits(scene: Scene, stack: np.ndarray, data: list[Any], normals: dict[int, Any],
                  hcap: int) -> np.ndarray:
    """The descriptor :func:`ray_hit2` takes by address: :func:`swept._kernels.world.describe`'s
    for ``scene`` and ``stack``, then :data:`DESC_OBJECTS` values: the addresses of ``data``
    (each handle's user data) and ``normals`` (the shared normals by key), and ``hcap``.
    The caller keeps all of them alive, and unchanged, as long as it passes the address."""
    from .world import describe

    return np.concatenate([describe(scene, stack),
                           np.array([id(data), id(normals), hcap], np.int64)])


@entry
def ray_hit2(desc: int, ray: tuple[float, float, float, float, float], mask: int) -> Any:
    """One 2D ray for :meth:`swept.world.World.raycast` against the scene of the hit
    descriptor (:func:`describe_hits`) at address ``desc``, given as the Ray's ``(ox, oy, dx,
    dy, max_distance)`` (a unit direction): the nearest hit as a :data:`hit_type`, boxed (as
    the call returns to Python) as the ``WorldRayHit``, or None on a miss. Keeps the GIL
    (:func:`swept._kernels.entry`): the stack is the World's one scratch array, and the boxing
    calls the C API."""
    scene, stack = described(desc)
    tail = carray(_int64_at(desc + 8 * DESC_ARRAYS * DESC_STRIDE), (DESC_OBJECTS,))
    ox, oy, dx, dy, tmax = ray
    # flags computed, not the literal 0 (a literal compiles cast_one once more)
    no_flags = mask & 0
    h, t, px, py, _pz, nx, ny, _nz, inside, te = cast_one(
        scene, stack, (ox, oy, 0.0, dx, dy, 0.0), tmax, 0.0, mask, no_flags)
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
    return make_hit(h, t, px, py, nx, ny, inside, te, key, tail[0], tail[1])
