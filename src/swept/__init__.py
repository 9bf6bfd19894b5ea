"""swept: collision for games and simulations.

Ray casts, time of impact, contacts, closest points and distance, for 2D and 3D convex
shapes, compiled with numba. See ``README.md`` and ``docs/`` for the conventions.
"""

from __future__ import annotations

from .constants import COINCIDENT_NORMAL_2D, COINCIDENT_NORMAL_3D, DEFAULT_SKIN
from .raycast import ray_box, ray_capsule, ray_circle, ray_polygon, ray_segment, raycast
from .results import Contact, RayHit, SweepHit
from .shapes import AABB, Capsule, Circle, Plane, Polygon, Ray, Segment, Shape, Sphere
from .vec import Vec2, Vec3, as_vec2, as_vec3, as_vector

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
    "RayHit",
    "SweepHit",
    "Contact",
    "COINCIDENT_NORMAL_2D",
    "COINCIDENT_NORMAL_3D",
    "DEFAULT_SKIN",
    "raycast",
    "ray_circle",
    "ray_box",
    "ray_segment",
    "ray_polygon",
    "ray_capsule",
]
