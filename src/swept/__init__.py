"""swept: collision for games and simulations.

Ray casts, time of impact, contacts, closest points and distance, for 2D and 3D convex
shapes, compiled with numba. See ``README.md`` and ``docs/`` for the conventions.

``import swept`` loads nothing heavy: each public name (and numba, with each kernel family)
is imported on first use, so the package opens in a few milliseconds and a first query pays
only for what it uses (see :mod:`swept._lazy`).
"""

from __future__ import annotations

import importlib
import types
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    from ._parallel import set_threads, threads
    from .chain import Chain
    from .constants import COINCIDENT_NORMAL_2D, COINCIDENT_NORMAL_3D, DEFAULT_SKIN
    from .contact import axis_overlaps, contact
    from .controller import Collision, MoveResult, move_and_slide
    from .distance import closest_point, closest_points, distance
    from .interop import add_shapely, from_shapely, to_shapely
    from .level import HeightField, TileMap, TriangleMesh
    from .manifold import manifold
    from .raycast import ray_box, ray_capsule, ray_circle, ray_polygon, ray_segment, raycast
    from .resolve import Resolved, resolve, respond_pair
    from .response import (
        apex_after_bounces,
        decompose,
        is_walkable,
        push_out,
        reflect,
        respond,
        slide,
        slope_angle,
    )
    from .results import Contact, Manifold, ManifoldPoint, RayHit, SweepHit
    from .shapes import (
        AABB,
        Capsule,
        Circle,
        ConvexHull,
        OrientedBox,
        Plane,
        Polygon,
        Ray,
        Segment,
        Shape,
        Sphere,
    )
    from .sim import Body, Simulation
    from .step import SweptStep, swept_step
    from .sweep import sweep
    from .toi import (
        Advance,
        Motion,
        TOIResult,
        TOIStatus,
        advance,
        time_of_impact,
        toi_circles,
        toi_plane,
    )
    from .tunneling import catch_rate, safe_speed
    from .vec import Vec2, Vec3, as_vec2, as_vec3, as_vector
    from .world import (
        ALL_LAYERS,
        ContactBatch,
        RayBatch,
        SweepBatch,
        World,
        WorldContact,
        WorldRayHit,
        WorldSweepHit,
    )

__version__ = "0.1.0"

#: Each public name and the submodule that defines it, imported on first access.
_LAZY: dict[str, str] = {
    "set_threads": "_parallel",
    "threads": "_parallel",
    "Chain": "chain",
    "COINCIDENT_NORMAL_2D": "constants",
    "COINCIDENT_NORMAL_3D": "constants",
    "DEFAULT_SKIN": "constants",
    "axis_overlaps": "contact",
    "contact": "contact",
    "Collision": "controller",
    "MoveResult": "controller",
    "move_and_slide": "controller",
    "closest_point": "distance",
    "closest_points": "distance",
    "distance": "distance",
    "TileMap": "level",
    "TriangleMesh": "level",
    "HeightField": "level",
    "from_shapely": "interop",
    "to_shapely": "interop",
    "add_shapely": "interop",
    "manifold": "manifold",
    "ray_box": "raycast",
    "ray_capsule": "raycast",
    "ray_circle": "raycast",
    "ray_polygon": "raycast",
    "ray_segment": "raycast",
    "raycast": "raycast",
    "Resolved": "resolve",
    "resolve": "resolve",
    "respond_pair": "resolve",
    "apex_after_bounces": "response",
    "decompose": "response",
    "is_walkable": "response",
    "push_out": "response",
    "reflect": "response",
    "respond": "response",
    "slide": "response",
    "slope_angle": "response",
    "Contact": "results",
    "Manifold": "results",
    "ManifoldPoint": "results",
    "RayHit": "results",
    "SweepHit": "results",
    "AABB": "shapes",
    "Capsule": "shapes",
    "Circle": "shapes",
    "Plane": "shapes",
    "Polygon": "shapes",
    "Ray": "shapes",
    "Segment": "shapes",
    "Shape": "shapes",
    "Sphere": "shapes",
    "OrientedBox": "shapes",
    "ConvexHull": "shapes",
    "Body": "sim",
    "Simulation": "sim",
    "SweptStep": "step",
    "swept_step": "step",
    "sweep": "sweep",
    "Advance": "toi",
    "Motion": "toi",
    "TOIResult": "toi",
    "TOIStatus": "toi",
    "advance": "toi",
    "time_of_impact": "toi",
    "toi_circles": "toi",
    "toi_plane": "toi",
    "catch_rate": "tunneling",
    "safe_speed": "tunneling",
    "Vec2": "vec",
    "Vec3": "vec",
    "as_vec2": "vec",
    "as_vec3": "vec",
    "as_vector": "vec",
    "ALL_LAYERS": "world",
    "ContactBatch": "world",
    "RayBatch": "world",
    "SweepBatch": "world",
    "World": "world",
    "WorldContact": "world",
    "WorldRayHit": "world",
    "WorldSweepHit": "world",
}

#: Public functions that share their name with the submodule defining them: the package's
#: attribute is the function, even after the submodule is imported (which binds the module
#: on its package).
_SHADOWED = frozenset(name for name, module in _LAZY.items() if name == module)


def __getattr__(name: str) -> Any:
    """Import a public name's submodule on first access, or a submodule by its name."""
    module_name = _LAZY.get(name)
    if module_name is not None:
        value = getattr(importlib.import_module(f".{module_name}", __name__), name)
    elif not name.startswith("__"):
        try:
            value = importlib.import_module(f".{name}", __name__)
        except ModuleNotFoundError as error:
            if error.name != f"{__name__}.{name}":
                raise
            raise AttributeError(f"module {__name__!r} has no attribute {name!r}") from None
    else:
        raise AttributeError(f"module {__name__!r} has no attribute {name!r}")
    globals()[name] = value
    return value


def __dir__() -> list[str]:
    """The module's names: the public API (loaded or not) and what is already bound."""
    return sorted(set(globals()) | set(__all__))


class _Package(types.ModuleType):
    """The swept package's module type: the import system's binding of a submodule on its
    package (``swept.raycast`` the module, on first import) leaves a public function of the
    same name in place."""

    def __setattr__(self, name: str, value: Any) -> None:
        if name in _SHADOWED and isinstance(value, types.ModuleType):
            value = getattr(value, name)
        super().__setattr__(name, value)


import sys as _sys  # noqa: E402

_sys.modules[__name__].__class__ = _Package
del _sys

__all__ = [
    "Vec2",
    "Vec3",
    "as_vec2",
    "as_vec3",
    "as_vector",
    "Shape",
    "Circle",
    "Segment",
    "AABB",
    "Polygon",
    "Capsule",
    "Plane",
    "Ray",
    "Sphere",
    "OrientedBox",
    "ConvexHull",
    "RayHit",
    "SweepHit",
    "Contact",
    "Manifold",
    "ManifoldPoint",
    "COINCIDENT_NORMAL_2D",
    "COINCIDENT_NORMAL_3D",
    "DEFAULT_SKIN",
    "raycast",
    "ray_circle",
    "ray_box",
    "ray_segment",
    "ray_polygon",
    "ray_capsule",
    "contact",
    "axis_overlaps",
    "manifold",
    "closest_point",
    "closest_points",
    "distance",
    "sweep",
    "swept_step",
    "SweptStep",
    "toi_plane",
    "toi_circles",
    "advance",
    "Advance",
    "time_of_impact",
    "Motion",
    "TOIResult",
    "TOIStatus",
    "safe_speed",
    "catch_rate",
    "decompose",
    "slide",
    "reflect",
    "respond",
    "push_out",
    "slope_angle",
    "is_walkable",
    "apex_after_bounces",
    "resolve",
    "Resolved",
    "respond_pair",
    "move_and_slide",
    "MoveResult",
    "Collision",
    "Chain",
    "TileMap",
    "TriangleMesh",
    "HeightField",
    "World",
    "ALL_LAYERS",
    "WorldRayHit",
    "WorldSweepHit",
    "WorldContact",
    "RayBatch",
    "SweepBatch",
    "ContactBatch",
    "Body",
    "Simulation",
    "set_threads",
    "threads",
    "from_shapely",
    "to_shapely",
    "add_shapely",
]
