"""The result types of single queries: frozen dataclasses that users may also build.

A miss is ``None``, never a result with a sentinel value. Frames and signs:

- every point is in world space;
- every normal is a unit vector;
- a ray hit's normal faces the ray (it opposes the ray's direction), unless the ray started
  inside, when it is the direction of the shortest way out;
- a contact's (and a manifold's) normal is the direction to move the *first* shape out of the
  second;
- a sweep hit's normal points out of the target, toward the moving shape.

Each result is a *record*: a frozen dataclass (``dataclasses.fields``, ``replace``,
``asdict`` and ``is_dataclass`` work on it, and assigning a field raises
``dataclasses.FrozenInstanceError``) whose fields are kept in a tuple, as pymunk's
``SegmentQueryInfo`` and Python's named tuples are. So a hit also unpacks
(``distance, point, normal, inside, exit_distance = hit``) and indexes in field order. The
tuple is what makes a result cheap to build: every ray cast that hits builds one, and a
tuple-backed record costs about half of a slotted dataclass's slot-by-slot fill. Equality and
hashing are the dataclass's: by field values, between results of the same class only.

A result built by calling its class is checked as any input is: a vector field (annotated
``Vec2 | Vec3``) is coerced by :func:`~swept.vec.as_vector` (so a tuple or list becomes a
Vec2 or Vec3; NaN, infinities, magnitudes beyond ``MAX_COORDINATE`` and strings are refused,
naming the field), the vector fields must share one dimension, a ``float`` field is coerced
by :func:`~swept.vec.as_finite` (infinity only where the field's default is infinite) and a
``bool`` field must be a bool (or 0 or 1). The library's own hot paths build results from
already-checked values with ``tuple.__new__`` (:func:`make_ray_hit`, :func:`make_contact`),
skipping the constructor.
"""

from __future__ import annotations

import dataclasses
import math
from dataclasses import FrozenInstanceError
from operator import itemgetter
from typing import TYPE_CHECKING, Any, TypeVar

from .constants import MAX_COORDINATE
from .vec import Vec2, Vec3, as_finite, as_vector

if TYPE_CHECKING:
    from typing_extensions import dataclass_transform
else:
    def dataclass_transform(**_kwargs: Any) -> Any:
        """No-op at run time: only type checkers read ``dataclass_transform``."""
        return lambda decorated: decorated

__all__ = ["RayHit", "SweepHit", "Contact", "ManifoldPoint", "Manifold", "record"]

T = TypeVar("T")
_tn = tuple.__new__


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
    if text in ("Vec2|Vec3", "Vec3|Vec2", "Vec2", "Vec3"):
        in2 = f"-_M <= {x}[0] <= _M and -_M <= {x}[1] <= _M"
        line = (f"if type({x}) is _V2:\n"
                f"        if not ({in2}): {x} = _vec({x}, {x!r})\n"
                f"    elif type({x}) is not _V3 or not ({in2} and -_M <= {x}[2] <= _M):\n"
                f"        {x} = _vec({x}, {x!r})")
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
    scope: dict[str, Any] = {"_tn": _tn, "_vec": as_vector, "_num": as_finite,
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


@record
class RayHit:
    """Where a ray first meets a shape."""

    #: distance from the ray's origin to the hit, in length units along the ray (>= 0)
    distance: float
    #: the hit point, in world space (the origin when ``started_inside``)
    point: Vec2 | Vec3
    #: unit normal of the surface at the hit, facing the ray (opposing its direction); when
    #: ``started_inside``, the direction from the origin toward the nearest boundary point
    normal: Vec2 | Vec3
    #: True when the ray's origin is inside the shape or on its boundary (then distance is 0)
    started_inside: bool = False
    #: where the ray leaves the solid shape, in length units along the ray (``>= distance``):
    #: the true exit, even beyond the ray's ``max_distance``; for a ray that started inside,
    #: the distance to where it leaves; ``distance`` itself for a segment (no inside);
    #: ``inf`` for a half-plane it never leaves (or an exit beyond the floats' range)
    exit_distance: float = math.inf


@record
class SweepHit:
    """When and where a moving shape first touches another during a step."""

    #: the fraction of the displacement (in [0, 1]) at which the shapes first touch
    fraction: float
    #: the point where the two touch at that moment, in world space
    point: Vec2 | Vec3
    #: unit normal pointing out of the target, toward the moving shape (against the relative
    #: motion); when ``started_inside``, the direction of the shortest way out
    normal: Vec2 | Vec3
    #: where the moving shape's reference point is at first contact: a circle's or sphere's
    #: centre, a box's centre, a polygon's centroid, a segment's or capsule's midpoint
    position: Vec2 | Vec3
    #: True when the shapes already touched or overlapped at the start (then fraction is 0)
    started_inside: bool = False


@record
class Contact:
    """How deep and which way two overlapping (or touching) shapes meet."""

    #: unit normal: the direction to move the *first* shape to get it out of the second
    normal: Vec2 | Vec3
    #: how far to move the first shape along ``normal`` so that they just touch (>= 0)
    depth: float
    #: a point where they meet, in world space: on the second shape's boundary, where the first
    #: shape reaches deepest into it
    point: Vec2 | Vec3


@record
class ManifoldPoint:
    """One point of a contact manifold: where the two shapes meet, and how deep."""

    #: the point, in world space, on the *second* shape's boundary; ``point - normal * depth``
    #: (with the manifold's normal) is on the first shape's boundary
    point: Vec2 | Vec3
    #: how far the first shape reaches into the second here, along the manifold's normal, in
    #: length units (>= 0; 0 where they just touch)
    depth: float


@record
class Manifold:
    """Where two overlapping (or touching) shapes meet: one normal and up to two points."""

    #: unit normal: the direction to move the *first* shape to get it out of the second (the
    #: normal of ``contact(a, b)``)
    normal: Vec2 | Vec3
    #: one or two :class:`ManifoldPoint`, the deepest first; the deepest one's depth is
    #: ``contact(a, b).depth``
    points: tuple[ManifoldPoint, ...]


#: builds a record from the tuple of its fields (untyped: mypy sees a dataclass, not a tuple)
_rn: Any = tuple.__new__


def make_ray_hit(distance: float, point: Any, normal: Any, started_inside: bool,
                 exit_distance: float = math.inf) -> RayHit:
    """Build a RayHit in one tuple allocation (internal, hot path)."""
    hit: RayHit = _rn(RayHit, (distance, point, normal, started_inside, exit_distance))
    return hit


def make_sweep_hit(fraction: float, point: Any, normal: Any, position: Any,
                   started_inside: bool) -> SweepHit:
    """Build a SweepHit in one tuple allocation (internal: the values are the library's own,
    already checked, and may reach past MAX_COORDINATE, as a point beyond a far shape)."""
    hit: SweepHit = _rn(SweepHit, (fraction, point, normal, position, started_inside))
    return hit


def make_contact(normal: Any, depth: float, point: Any) -> Contact:
    """Build a Contact in one tuple allocation (internal, hot path)."""
    c: Contact = _rn(Contact, (normal, depth, point))
    return c
