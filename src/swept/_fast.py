"""The speed tricks of the public layer, in one place.

A ray cast costs a few hundred nanoseconds, so three costs of ordinary Python and numba matter
there (the scalar ``raycast`` and the World's one-ray path) and in the other per-step calls
(``move_and_slide``, ``swept_step``, ``resolve``, ``advance``):

1. **numba's dispatcher.** Calling a compiled function through its dispatcher resolves the
   argument types on every call (about 100 ns for a ray kernel, most of a World call with fifty
   arrays). :func:`entry_point` returns the compiled entry point for one fixed signature instead;
   :func:`lazy_entry` puts it in a module's namespace on first use, so the module calls it as a
   plain global. Both are checked on first use and fall back to the plain call when numba's
   internals differ (or JIT is disabled), so they can only cost speed, never correctness.
2. **Result records.** Every single-query result (:mod:`swept.results`) is made by the
   :func:`record` decorator: a frozen dataclass whose fields live in a ``tuple``, as Python's
   named tuples and pymunk's ``SegmentQueryInfo`` do.

   - *Why tuple-backed.* Every ray cast that hits builds one. A tuple-backed record is built in
     one allocation: ``tuple.__new__(Record, fields)`` costs about 110 ns for a hit, where a
     slotted frozen dataclass filled slot by slot (``object.__setattr__`` per field) costs about
     250 ns (a later run on the loaded machine: 96 ns against 420 ns). Reading a field is a
     property over ``operator.itemgetter``, as fast as a slot. The record still answers the
     dataclass protocol: ``dataclasses.fields``, ``replace``, ``asdict``, ``astuple`` and
     ``is_dataclass`` work; assigning or deleting a field raises
     ``dataclasses.FrozenInstanceError``; equality and hashing are by field values, between
     records of the very same class only (never equal to a plain tuple); no ordering; it pickles
     and copies; and, being a tuple, it unpacks and indexes in field order. A subclass
     (``WorldRayHit(RayHit)``) appends its fields after the base's.
   - *Why a generated constructor.* The user-facing constructor is generated with ``exec``
     from the class's own field names, as ``collections.namedtuple``'s is: an exact
     signature (by position or name, the annotated defaults), each field's check written
     inline, and one tuple build; a generic ``*args``/``**kwargs`` constructor costs more
     than the checks.
   - *What it checks.* A result built by calling its class is checked as any input is: a
     vector field (annotated ``Vec2 | Vec3``, ``Vec2`` or ``Vec3``, optionally ``| None``) is
     coerced by :func:`~swept.vec.as_vector` (``as_vec2`` / ``as_vec3`` for a single
     dimension), so a tuple or list becomes a Vec2 or Vec3 and NaN, infinities, magnitudes
     beyond ``MAX_COORDINATE`` and strings are refused with a ``ValueError`` or ``TypeError``
     naming the field; the vector fields must share one dimension; a ``float`` field is
     coerced by :func:`~swept.vec.as_finite` (infinity allowed only where the field's default
     is infinite); a ``bool`` field must be a bool (or 0 or 1). Other fields (ints, shapes,
     tuples, ``Any``) are taken as given. Each check has an inline fast path (a Vec2 in range
     costs a type test and a few comparisons), so a user-built hit from Vec2 fields costs
     about 300-400 ns (a Collision, four vectors: about 430 ns; a hit whose vectors come as
     plain tuples: about 900 ns, the coercion's cost). Measured with ``timeit`` on the shared
     2-core machine, best of five runs of 200,000, including a lambda call (about 30 ns).
   - *Skipping the checks.* The library's own code builds records from values it has already
     checked (and which may lawfully reach past ``MAX_COORDINATE``, as a point beyond a far
     shape), so it skips the constructor: :data:`build` (``tuple.__new__``), or the typed
     ``make_*`` helpers of :mod:`swept.results`, which take the fields in order.
"""

from __future__ import annotations

import dataclasses
import math
from collections.abc import Callable
from dataclasses import FrozenInstanceError
from operator import itemgetter
from typing import TYPE_CHECKING, Any, Protocol, TypeVar, cast

from .constants import MAX_COORDINATE
from .vec import Vec2, Vec3, as_finite, as_vec2, as_vec3, as_vector

if TYPE_CHECKING:
    from typing_extensions import dataclass_transform
else:
    def dataclass_transform(**_kwargs: Any) -> Any:
        """No-op at run time: only type checkers read ``dataclass_transform``."""
        return lambda decorated: decorated

__all__ = ["build", "typed_build", "Builder", "record", "entry_point", "checked_entry_point",
           "lazy_entry", "batch_entry", "resolving_entry"]

T = TypeVar("T")

class Builder(Protocol):
    """The type of :data:`build` (and of ``tuple.__new__`` used so): a record of class
    ``cls`` from the tuple of its fields, for type checkers."""

    def __call__(self, cls: type[T], fields: Any, /) -> T:
        """A ``cls`` whose items are ``fields``."""
        ...


#: ``tuple.__new__`` typed as a :class:`Builder`, for a module that builds records inline.
typed_build: Builder = cast(Builder, tuple.__new__)

#: ``build(Record, fields)``: a tuple-backed record (or Vec2 / Vec3) from the tuple of its
#: fields in one allocation, skipping the user-facing constructor's coercion. The fields must
#: be passed in the record's field order (``Record._fields``), every one of them, defaults
#: included.
build: Any = tuple.__new__


# ---------------------------------------------------------------------------------------------
# result records

def _frozen_setattr(self: Any, name: str, value: Any) -> None:
    raise FrozenInstanceError(f"cannot assign to field {name!r}")


def _frozen_delattr(self: Any, name: str) -> None:
    raise FrozenInstanceError(f"cannot delete field {name!r}")


def _eq(self: Any, other: Any) -> Any:
    # the dataclass rule: equal only to a result of the very same class. A plain tuple (or
    # another record) with the same items is not equal: answering False here, rather than
    # NotImplemented, keeps Python from falling back to tuple equality.
    if other.__class__ is self.__class__:
        return tuple.__eq__(self, other)
    if isinstance(other, tuple):
        return False
    return NotImplemented


def _ne(self: Any, other: Any) -> Any:
    if other.__class__ is self.__class__:
        return tuple.__ne__(self, other)
    if isinstance(other, tuple):
        return True
    return NotImplemented


def _unordered(self: Any, other: Any) -> Any:
    # a dataclass without order=True has no <, <=, >, >=; neither does a record
    return NotImplemented


def _repr(self: Any) -> str:
    names = self.__class__._fields
    inner = ", ".join(f"{name}={value!r}" for name, value in zip(names, self))
    return f"{self.__class__.__qualname__}({inner})"


def _getnewargs(self: Any) -> tuple[Any, ...]:
    return tuple(self)


def _replace(self: Any, **changes: Any) -> Any:
    return dataclasses.replace(self, **changes)


def _flag(value: Any, name: str) -> bool:
    """A bool field: True or False (or an int or numpy bool equal to 0 or 1)."""
    if value is True or value is False:
        return value
    if not isinstance(value, (str, bytes, float)) and hasattr(value, "__bool__") and \
            (value == 0 or value == 1):
        return bool(value)
    raise TypeError(f"{name} must be a bool, got {value!r}")


def _coercion(name: str, annotation: Any, default: Any) -> tuple[str, str] | None:
    """The generated line coercing field ``name`` by its annotation (None: taken as given),
    and the kind of field it is ("vector" or "")."""
    text = annotation if isinstance(annotation, str) else getattr(annotation, "__name__", "")
    text = text.replace(" ", "")
    optional = text.endswith("|None")
    if optional:
        text = text[: -len("|None")]
    # each check has an inline fast path (a Vec2 / Vec3 / float / bool already in range costs
    # a type test and a few comparisons), and calls the full coercion, which raises, otherwise
    x = name
    in2 = f"-_M <= {x}[0] <= _M and -_M <= {x}[1] <= _M"
    if text in ("Vec2|Vec3", "Vec3|Vec2"):
        line = (f"if type({x}) is _V2:\n"
                f"        if not ({in2}): {x} = _vec({x}, {x!r})\n"
                f"    elif type({x}) is not _V3 or not ({in2} and -_M <= {x}[2] <= _M):\n"
                f"        {x} = _vec({x}, {x!r})")
        kind = "vector"
    elif text == "Vec2":
        # one dimension only: a 3D vector is refused, naming the field
        line = f"if type({x}) is not _V2 or not ({in2}): {x} = _vec2({x}, {x!r})"
        kind = "vector"
    elif text == "Vec3":
        line = (f"if type({x}) is not _V3 or not ({in2} and -_M <= {x}[2] <= _M):\n"
                f"        {x} = _vec3({x}, {x!r})")
        kind = "vector"
    elif text == "float":
        allow_inf = isinstance(default, float) and math.isinf(default)
        line = (f"if type({x}) is not float or not -_M <= {x} <= _M:\n"
                f"        {x} = _num({x}, {x!r}, allow_inf={allow_inf})")
        kind = ""
    elif text == "bool":
        line = f"if {x} is not True and {x} is not False: {x} = _flag({x}, {x!r})"
        kind = ""
    else:
        return None
    if optional:
        line = f"if {x} is not None:\n        " + line.replace("\n", "\n    ")
    return line, kind


def _dims(name_a: str, a: Any, name_b: str, b: Any) -> None:
    raise ValueError(f"{name_b} must have the dimension of {name_a}: got {len(b)} and "
                     f"{len(a)} components")


@dataclass_transform(frozen_default=True)
def record(cls: type[T]) -> type[T]:
    """Make ``cls`` (annotated fields, as for a dataclass) a frozen, tuple-backed record.

    The result is a subclass of ``tuple`` (or of ``cls``'s record base, whose fields come
    first) with one read-only property per field, a constructor taking the fields by
    position or name (defaults as annotated), and the dataclass protocol: the fields and
    parameters of ``dataclass(frozen=True)`` on the same annotations, so that the
    ``dataclasses`` functions treat it as a frozen dataclass.
    """
    base = cls.__bases__[0]
    if base is object:
        base = tuple
    inherited = list(getattr(base, "__dataclass_fields__", {}).values())
    own = cls.__dict__.get("__annotations__", {})
    specs: list[tuple[str, Any, Any]] = []
    for f in inherited:
        specs.append((f.name, f.type, dataclasses.field(default=f.default)))
    for name, annotation in own.items():
        specs.append((name, annotation, dataclasses.field(default=cls.__dict__.get(
            name, dataclasses.MISSING))))
    # the dataclass machinery itself checks the fields (order of defaults, names) and
    # provides the Field objects the dataclasses functions read
    spec = dataclasses.make_dataclass(cls.__name__, specs, frozen=True)
    names = tuple(name for name, _, _ in specs)

    params = []
    defaults: dict[str, Any] = {}
    for name, _, f in specs:
        if f.default is dataclasses.MISSING:
            params.append(name)
        else:
            defaults[f"_default_{name}"] = f.default
            params.append(f"{name}=_default_{name}")
    # generated like a named tuple's constructor: exact signature, one tuple build, after
    # the user's values are coerced and checked field by field (by annotation)
    body = []
    vectors = []
    for name, annotation, f in specs:
        coercion = _coercion(name, annotation, f.default)
        if coercion is not None:
            body.append(f"    {coercion[0]}\n")
            if coercion[1] == "vector":
                vectors.append(name)
    for other in vectors[1:]:
        # one dimension for every vector field
        body.append(f"    if type({other}) is not type({vectors[0]}) and {other} is not None "
                    f"and {vectors[0]} is not None: _dims({vectors[0]!r}, {vectors[0]}, "
                    f"{other!r}, {other})\n")
    source = (f"def __new__(_cls, {', '.join(params)}):\n"
              + "".join(body)
              + f"    return _tn(_cls, ({', '.join(names)},))\n")
    scope: dict[str, Any] = {"_tn": build, "_vec": as_vector, "_vec2": as_vec2,
                             "_vec3": as_vec3, "_num": as_finite,
                             "_flag": _flag, "_dims": _dims, "_V2": Vec2, "_V3": Vec3,
                             "_M": MAX_COORDINATE, **defaults}
    exec(source, scope)  # noqa: S102 - generated from the class's own field names
    new = scope["__new__"]
    new.__qualname__ = f"{cls.__qualname__}.__new__"
    new.__doc__ = f"Build a {cls.__name__} from its fields."

    namespace: dict[str, Any] = {
        "__slots__": (),
        "__module__": cls.__module__,
        "__qualname__": cls.__qualname__,
        "__doc__": cls.__doc__,
        "__new__": new,
        "__setattr__": _frozen_setattr,
        "__delattr__": _frozen_delattr,
        "__eq__": _eq,
        "__ne__": _ne,
        "__lt__": _unordered,
        "__le__": _unordered,
        "__gt__": _unordered,
        "__ge__": _unordered,
        "__hash__": tuple.__hash__,
        "__repr__": _repr,
        "__getnewargs__": _getnewargs,
        "__replace__": _replace,
        "__match_args__": names,
        "_fields": names,
        "__dataclass_fields__": spec.__dataclass_fields__,  # type: ignore[attr-defined]
        "__dataclass_params__": spec.__dataclass_params__,  # type: ignore[attr-defined]
        "__annotations__": dict(own),
    }
    for i, name in enumerate(names):
        if i >= len(inherited):
            namespace[name] = property(itemgetter(i), doc=f"The {name} field.")
    # everything else the class body defines (methods, properties) carries over
    for key, value in cls.__dict__.items():
        if key not in namespace and key not in own and key not in ("__dict__", "__weakref__"):
            namespace[key] = value
    made = type(cls.__name__, (base,), namespace)
    return made



# ---------------------------------------------------------------------------------------------
# compiled entry points

KernelCall = Callable[..., Any]


def entry_point(dispatcher: Any, call: tuple[Any, ...]) -> Any:
    """The compiled entry point of ``dispatcher`` for the argument types of ``call`` (which
    must already have been compiled, by calling it), or None when numba does not offer one."""
    try:
        import numba

        typeof: Callable[[Any], Any] = numba.typeof
        signature = tuple(typeof(a) for a in call)
        return dispatcher.overloads[signature].entry_point
    except Exception:  # pragma: no cover - JIT disabled, or numba internals changed
        return None


#: :func:`batch_entry`'s entry points, by (kernel, key): a few keys a kernel (its callers' key
#: is a handful of flags), so a few entries in all.
_batch_entries: dict[tuple[Any, Any], KernelCall] = {}


def batch_entry(dispatcher: Any, args: tuple[Any, ...], key: Any) -> KernelCall:
    """The compiled entry point of the range kernel ``dispatcher`` (``kernel(first, stop,
    *args)``, :func:`swept._parallel.parallel_for`) for the types of ``args``, resolved once
    per ``key`` and kept (the dispatcher itself when numba offers none).

    Why: the dispatcher resolves the types of its arguments on every call, and for the named
    tuples of arrays the batch kernels take that is slow: about 20 us a call of
    ``cast_range`` (1.3 us for its entry point), which a parallel batch pays once per chunk,
    holding the GIL (measured: 10,000 rays in about 13 chunks, 260 us of a 1.2 ms batch, the
    threads taking turns). ``key`` must tell apart every set of argument types the caller
    passes: the caller guarantees the rest (dtypes, dimensions, C order of its arrays), since
    an entry point does not check them.
    """
    found = _batch_entries.get((dispatcher, key))
    if found is None:
        # compiled (or loaded from the cache) on an empty range, then looked up: once per key
        dispatcher(0, 0, *args)
        found = entry_point(dispatcher, (0, 0, *args)) or dispatcher
        _batch_entries[(dispatcher, key)] = found
    return found


def checked_entry_point(adapter: Any, example: tuple[Any, ...]) -> KernelCall:
    """The fastest safe way to call ``adapter`` with arguments shaped like ``example``.

    That is the compiled entry point for ``example``'s types, once it is checked to give the
    same answer for Vec2 / Vec3 arguments (as the shapes hold them) as for plain tuples.
    Otherwise a wrapper that passes plain tuples to the dispatcher, rejecting a tuple of the
    wrong size as the entry point does (``ValueError``).
    """
    sizes = tuple(len(a) if isinstance(a, tuple) else -1 for a in example)

    def checked(*args: Any) -> Any:
        plain = []
        for a, n in zip(args, sizes):
            if n >= 0:
                if len(a) != n:
                    raise ValueError(f"size mismatch for tuple, expected {n} elements")
                a = tuple(a)
            plain.append(a)
        return adapter(*plain)

    # the points and vectors as Vec2 / Vec3 (a packed ray stays a plain tuple)
    vectors = tuple(
        build(Vec2 if len(a) == 2 else Vec3, a) if isinstance(a, tuple) and len(a) in (2, 3)
        else a for a in example
    )
    expected = adapter(*example)
    fast = entry_point(adapter, example)
    try:
        if fast is None or fast(*vectors) != expected:
            return checked  # pragma: no cover - a numba that unboxes tuple subclasses oddly
    except Exception:  # pragma: no cover - numba internals changed
        return checked
    result: KernelCall = fast
    return result


def lazy_entry(namespace: dict[str, Any], name: str, adapter: Callable[[], Any],
               example: Callable[[], tuple[Any, ...]]) -> KernelCall:
    """A stand-in for the global ``name`` of ``namespace`` (a module's ``globals()``) that
    compiles the kernel ``adapter()`` returns (or loads it from numba's cache) on its first
    call and then puts :func:`checked_entry_point`'s callable in its place. ``adapter`` and
    ``example`` are called then too, so that importing swept imports no kernel (and no numba)
    and compiles nothing."""

    def first_call(*args: Any) -> Any:
        fn = checked_entry_point(adapter(), example())
        namespace[name] = fn
        return fn(*args)

    return first_call


def resolving_entry(namespace: dict[str, Any], name: str, kernel: Callable[[], Any]
                    ) -> KernelCall:
    """A stand-in for the global ``name`` of ``namespace`` (a module's ``globals()``) that, on
    its first call, calls the dispatcher ``kernel()`` returns (compiling it, or loading it
    from numba's cache) and then puts the compiled entry point for that call's argument types
    in its place (:func:`entry_point`; the dispatcher itself when numba offers none).

    For a scalar kernel that its module always calls with one set of argument types (ints,
    floats and tuples of them, as the World's one-call queries pass): an entry point does not
    check the types it is given. ``kernel`` is called on first use, so that importing the
    module imports no kernel (and no numba)."""

    def first_call(*args: Any) -> Any:
        dispatcher = kernel()
        out = dispatcher(*args)
        namespace[name] = entry_point(dispatcher, args) or dispatcher
        return out

    return first_call
