"""swept: collision for games and simulations.

Ray casts, time of impact, contacts, closest points and distance, for 2D and 3D convex
shapes, compiled with numba. See ``README.md`` and ``docs/`` for the conventions.
"""

from __future__ import annotations

from ._parallel import set_threads, threads
from .chain import Chain
from .constants import COINCIDENT_NORMAL_2D, COINCIDENT_NORMAL_3D, DEFAULT_SKIN
from .contact import axis_overlaps, contact
from .controller import Collision, MoveResult, move_and_slide
from .convex3d import separating_data as _separating_data  # noqa: F401 - registers the shapes
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
