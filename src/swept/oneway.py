"""One-way colliders: platforms solid from one side only.

A collider added with ``World.add(..., one_way=w)`` is solid only from the side its unit
direction ``w`` faces (for a floor platform in a y-down 2D world, ``w = (0, -1)``, up):

- a cast (a ray, a sweep, a body's move) stands only when it moves against ``w``
  (``dot(motion, w) < 0``) onto a surface facing ``w`` (``dot(normal, w) > 0``): a body
  jumping up through the platform, or moving along it, passes; one falling onto it lands;
- a contact (push-out) stands only when its normal faces ``w``: a body half through from
  below is not pushed anywhere, one sunk into the top is pushed up. So a body whose centre
  rises past the middle of a thick platform from below is popped up on top, as in Godot and
  Box2D's one-way platform recipe.

Overlap queries (``query_aabb``, ``query_point``) list one-way colliders like any other. The
compiled kernels apply the same rule (:func:`swept._kernels.scene.one_way_stands` and
:func:`~swept._kernels.scene.one_way_faces`).
"""

from __future__ import annotations

from typing import Any

from .vec import Vec2, Vec3, _length3, as_vec2, as_vec3

__all__ = ["one_way_direction", "one_way_faces", "one_way_stands"]


def one_way_direction(value: Any, dim: int) -> Vec2 | Vec3:
    """``one_way`` checked and made unit: a finite nonzero vector of the world's dimension."""
    v = as_vec2(value, "one_way") if dim == 2 else as_vec3(value, "one_way")
    length = _length3(v[0], v[1], v[2] if dim == 3 else 0.0)
    if not length > 0.0 or length == float("inf"):
        raise ValueError(f"one_way must be a nonzero direction, not {tuple(v)}")
    if dim == 2:
        return Vec2(v[0] / length, v[1] / length)
    return Vec3(v[0] / length, v[1] / length, v[2] / length)


def one_way_faces(w: Vec2 | Vec3 | None, normal: Any) -> bool:
    """Whether a touch with ``normal`` (out of the collider) counts for a collider whose
    one-way direction is ``w`` (None: an ordinary collider, always)."""
    return w is None or sum(a * b for a, b in zip(normal, w)) > 0.0


def one_way_stands(w: Vec2 | Vec3 | None, motion: Any, normal: Any) -> bool:
    """Whether a cast along ``motion`` meeting the collider with ``normal`` counts (always for
    an ordinary collider, ``w`` None)."""
    return w is None or (sum(a * b for a, b in zip(motion, w)) < 0.0
                         and sum(a * b for a, b in zip(normal, w)) > 0.0)
