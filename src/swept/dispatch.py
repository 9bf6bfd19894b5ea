"""The one dispatch of every query family: (family, shape types) -> handler.

Each query family (``raycast``, ``closest_point``, ``contact``, ``distance``,
``closest_points``, ``sweep``, ``time_of_impact``, ``manifold``) owns one :class:`Family`: a
table from the query's shape types to the handler that answers it. The family modules register
the built-in shapes' handlers beside the handlers themselves; a new shape registers its handlers
for every family it joins from its own module (``swept.chain`` does so for :class:`~swept.Chain`),
so adding a shape means writing its kernels and registering them in one place.

Rules, decided once here for every family:

- **Exact type first**, then the nearest registered base types along each argument's method
  resolution order, so that a user's subclass of a shape is served as its base. The result of
  that search is remembered in the table (the next call is one dict lookup).
- **Both orders from one handler.** A pair family registered with ``flip=True`` serves the
  reversed pair through the same handler: :meth:`Family.lookup` returns ``swapped=True`` and the
  family module calls the handler with the arguments in the registered order, then turns the
  result around (a contact's normal reversed, closest points swapped).
- **Unsupported** types raise ``TypeError`` naming the family and every type (with its dimension
  where the type exists in both 2D and 3D). A handler may also return :data:`UNSUPPORTED` when the
  types are registered but the dimensions do not fit (a 2D circle against a 3D box); the family
  module raises the same error for it.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

__all__ = [
    "Family", "UNSUPPORTED", "type_name", "RAYCAST", "CLOSEST_POINT", "CONTACT", "CLOSEST_POINTS",
    "SWEEP", "TIME_OF_IMPACT", "MANIFOLD",
]

#: What a handler returns when its types are registered but the shapes' dimensions do not fit.
UNSUPPORTED: Any = NotImplemented

Handler = Callable[..., Any]


#: The modules that register queries for shapes defined elsewhere (``import swept`` loads
#: nothing, so they load on the first query a family does not find: 3D oriented boxes and
#: hulls; the level geometry registers as its shapes' modules load).
_EXTENSIONS = ("swept.convex3d", "swept.level")
_extensions_loaded = False


def _load_extensions() -> bool:
    """Import :data:`_EXTENSIONS` once; whether this call imported them."""
    global _extensions_loaded
    if _extensions_loaded:
        return False
    _extensions_loaded = True
    import importlib

    for name in _EXTENSIONS:
        importlib.import_module(name)
    return True


def type_name(obj: Any) -> str:
    """An argument's type name, with its dimension where the type has one (``AABB (3D)``)."""
    name = type(obj).__name__
    dim = getattr(obj, "dim", None)
    if isinstance(dim, int) and not isinstance(obj, type):
        return f"{name} ({dim}D)"
    return name


class Family:
    """One query family's table: shape types -> ``(handler, swapped)``.

    ``arity`` is the number of shape arguments the table is keyed on (1 for ``raycast`` and
    ``closest_point``, 2 for the pair queries). A one-shape table is keyed by the type itself
    and a pair table by the tuple of both types, so that a hot path looks its handler up with
    ``table.get(type(shape))`` or ``table.get((type(a), type(b)))``, building nothing.
    """

    __slots__ = ("name", "arity", "table", "_registered", "_missing")

    def __init__(self, name: str, arity: int) -> None:
        if arity not in (1, 2):
            raise ValueError(f"arity must be 1 or 2, got {arity!r}")
        #: the query's public name, used in error messages
        self.name = name
        #: how many leading shape arguments key the table
        self.arity = arity
        #: type (or pair of types) -> (handler, swapped); read directly by hot paths
        self.table: dict[Any, tuple[Handler, bool]] = {}
        # what was registered (not the remembered subclass lookups)
        self._registered: dict[Any, tuple[Handler, bool]] = {}
        # keys found unsupported, so a query with a fallback does not search again
        self._missing: set[Any] = set()

    def register(self, types: type | tuple[type, ...], handler: Handler, *,
                 flip: bool = False) -> None:
        """Register ``handler`` for ``types`` (one type, or a pair for a pair family).

        With ``flip=True`` the reversed pair is served by the same handler, looked up with
        ``swapped=True``. A pair registered on its own (both orders explicitly) wins over a
        flipped registration of the other order.
        """
        key = types if isinstance(types, tuple) else (types,)
        if len(key) != self.arity:
            raise ValueError(f"{self.name}: register needs {self.arity} type(s), got {key!r}")
        # a new entry may serve what was unsupported before
        self._missing.clear()
        if self.arity == 1:
            self.table[key[0]] = self._registered[key[0]] = (handler, False)
            return
        self.table[key] = self._registered[key] = (handler, False)
        if flip and key[0] is not key[1]:
            rev = (key[1], key[0])
            if self._registered.get(rev, (None, True))[1]:
                self.table[rev] = self._registered[rev] = (handler, True)

    def supports(self, *types: type) -> bool:
        """Whether the table serves these types (directly or through base types)."""
        return self.find(*types) is not None

    def registered(self) -> list[Any]:
        """The keys registered: types, or pairs of types (not counting reversed entries)."""
        return [k for k, (_h, swapped) in self._registered.items() if not swapped]

    def _search(self, types: tuple[type, ...]) -> tuple[Handler, bool] | None:
        if self.arity == 1:
            for base in types[0].__mro__:
                entry = self._registered.get(base)
                if entry is not None:
                    return entry
            return None
        entry = self.table.get(types)
        if entry is not None:
            return entry
        for base_a in types[0].__mro__:
            for base_b in types[1].__mro__:
                entry = self._registered.get((base_a, base_b))
                if entry is not None:
                    return entry
        return None

    def find(self, *types: type) -> tuple[Handler, bool] | None:
        """The ``(handler, swapped)`` for these types, or None when unsupported; both answers
        are remembered, so a query with a fallback (manifold's one-point contact) or a check
        (does the World hold this type?) searches the class hierarchy once per pair of types."""
        key = types[0] if self.arity == 1 else types
        entry = self.table.get(key)
        if entry is not None or key in self._missing:
            return entry
        entry = self._search(types)
        if entry is None and _load_extensions():
            # the modules that register more shapes' queries had not been imported yet
            entry = self._search(types)
        if entry is None:
            self._missing.add(key)
        else:
            # remember a subclass's entry, so its next call is one lookup
            self.table[key] = entry
        return entry

    def lookup(self, *shapes: Any) -> tuple[Handler, bool]:
        """The ``(handler, swapped)`` for these shapes, or ``TypeError`` naming their types."""
        if len(shapes) != self.arity:
            raise TypeError(f"{self.name}: lookup needs {self.arity} shape(s)")
        entry = self.find(*(type(s) for s in shapes))
        if entry is None:
            raise self.unsupported(*shapes)
        return entry

    def unsupported(self, *shapes: Any) -> TypeError:
        """The error for shapes this family does not serve (or whose dimensions differ)."""
        names = " and ".join(type_name(s) for s in shapes)
        return TypeError(f"{self.name}() does not support {names}")

    def __repr__(self) -> str:
        return f"Family({self.name!r}, {len(self.registered())} entries)"


# ------------------------------------------------------------------------------ the families
# Each is filled by its own module (handlers beside their kernels' calls) and by the modules
# of shapes that join it later (swept.chain).

#: ``raycast(ray, shape)``: keyed on the shape's type; handler ``(ray, shape) -> RayHit | None``.
RAYCAST = Family("raycast", 1)
#: ``closest_point(shape, p)``: handler ``(shape, p) -> Vec2 | Vec3``.
CLOSEST_POINT = Family("closest_point", 1)
#: ``contact(a, b)``: handler ``(a, b) -> flat kernel tuple | UNSUPPORTED``; flips reverse it.
CONTACT = Family("contact", 2)
#: ``distance`` and ``closest_points``: handler ``(a, b) -> (dim, (d, ax, ay, az, bx, by, bz))``.
CLOSEST_POINTS = Family("closest_points", 2)
#: ``sweep(shape, displacement, target)``: handler ``(shape, rel, target, target_distance,
#: max_fraction) -> (fraction, normal, point, started_inside) | None``.
SWEEP = Family("sweep", 2)
#: ``time_of_impact(a, motion_a, b, motion_b)``: handler ``(a, b) -> the kernel's view pair``.
TIME_OF_IMPACT = Family("time_of_impact", 2)
#: ``manifold(a, b)``: handler ``(a, b) -> Manifold | None | UNSUPPORTED``.
MANIFOLD = Family("manifold", 2)
