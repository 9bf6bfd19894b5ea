"""Several contacts in passes (seed 004), and the response of two moving bodies.

``resolve`` is seed 004's loop: each pass walks the obstacles in order and answers each contact
as soon as it is found (push out, then fix the velocity), so that a push out of one wall is
seen by the next. In a wedge one pass is not enough: a push of 10 out of one arm of a 40-degree
wedge sinks the shape ``10 cos 40 = 7.7`` deeper into the other, and each further pass shrinks
what is left by ``cos^2 40 = 0.59``. What is left after the last pass is reported as
``deepest``.

``respond_pair`` shares a push and a bounce between two moving bodies by inverse mass.
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from typing import TYPE_CHECKING, Any

from ._lazy import kernels
from .chain import contact_obstacle
from .constants import RESOLVE_PASSES as DEFAULT_PASSES
from .results import Contact, Resolved, make_resolved
from .shapes import Shape
from .vec import Vec2, Vec3, as_finite, as_vec2, as_vec3, as_vector

if TYPE_CHECKING:
    from ._kernels import response as _kresponse
else:
    _kresponse = kernels("response")

__all__ = ["Resolved", "resolve", "respond_pair", "DEFAULT_PASSES"]



def _coerce(shape: Any, velocity: Any) -> Vec2 | Vec3:
    if not isinstance(shape, Shape):
        raise TypeError(f"shape must be a shape, not {type(shape).__name__}")
    return as_vec2(velocity, "velocity") if shape.dim == 2 else as_vec3(velocity, "velocity")


def _found(shape: Shape, obstacles: Any) -> list[tuple[Any, Contact]]:
    """Every contact of ``shape`` with the obstacles, in order: (collider, Contact)."""
    if hasattr(obstacles, "contacts") and hasattr(obstacles, "sweep"):
        # a World's sensors are triggers, not obstacles (its contacts report them)
        solid = {"include_sensors": False} if hasattr(obstacles, "is_sensor") else {}
        return [(c.handle, c) for c in obstacles.contacts(shape, **solid)]
    found: list[tuple[Any, Contact]] = []
    for i, obstacle in enumerate(obstacles):
        c = contact_obstacle(shape, obstacle)
        if c is not None:
            found.append((i, c))
    return found


def _answer(v: Vec2 | Vec3, n: Any, e: float, f: float) -> Vec2 | Vec3:
    """The velocity answered against outward normal ``n``; only a velocity heading into the
    surface is answered (one leaving it or running along it keeps its friction-free speed, so
    a contact found again in a later pass does not apply friction twice)."""
    if v.dot(n) >= 0.0:
        return v
    if len(v) == 2:
        x, y, _ = _kresponse.respond_velocity(v[0], v[1], 0.0, n[0], n[1], 0.0, e, f)
        return Vec2(x, y)
    x, y, z = _kresponse.respond_velocity(v[0], v[1], v[2], n[0], n[1], n[2], e, f)
    return Vec3(x, y, z)


def resolve(shape: Shape, velocity: Any, obstacles: Sequence[Any] | Any, *,
            passes: int = DEFAULT_PASSES, restitution: float = 0.0, friction: float = 0.0,
            skin: float = 0.0, fix_velocity: bool = True) -> Resolved:
    """Push ``shape`` out of ``obstacles`` in ``passes`` passes, answering each contact as soon
    as it is found.

    ``obstacles`` is a list of shapes (a :class:`~swept.chain.Chain` included; the collider is
    the index) or a World (anything with ``contacts`` and ``sweep``; the collider is the
    handle). Each contact moves the shape along its normal by ``depth + skin`` and, when
    ``fix_velocity``, answers the velocity with :func:`swept.respond` (``restitution`` 0
    slides, 1 bounces; ``friction`` in [0, 1]; a velocity already leaving is kept). A World
    reports a pass's contacts at once: each is then re-measured by what the pass has already
    pushed (``depth - push . normal``, exact for flat faces) and skipped once clear. Passes stop
    early after a pass that found no overlap (touching contacts, depth 0, still answer the
    velocity); ``deepest`` is the overlap left after the last.
    """
    v = _coerce(shape, velocity)
    if not isinstance(passes, int) or passes < 0:
        raise ValueError(f"passes must be a whole number >= 0, got {passes!r}")
    e = as_finite(restitution, "restitution", minimum=0.0)
    f = as_finite(friction, "friction", minimum=0.0)
    if f > 1.0:
        raise ValueError(f"friction must be in [0, 1], got {friction!r}")
    s = as_finite(skin, "skin", minimum=0.0)
    is_world = hasattr(obstacles, "contacts") and hasattr(obstacles, "sweep")
    items = None if is_world else list(obstacles)
    answered: list[tuple[Any, Contact]] = []
    moved = shape
    for _ in range(passes):
        any_found = False
        if items is None:
            # a World: one query a pass, each contact re-measured by the pass's pushes so far
            pushed = None
            for handle, c in _found(moved, obstacles):
                depth = c.depth if pushed is None else c.depth - pushed.dot(c.normal)
                if depth < 0.0:
                    # already cleared by an earlier push this pass
                    continue
                any_found = any_found or depth > 0.0 or s > 0.0
                step = c.normal * (depth + s)
                moved = moved.translated(step)  # type: ignore[attr-defined]
                pushed = step if pushed is None else pushed + step
                answered.append((handle, c))
                if fix_velocity:
                    v = _answer(v, c.normal, e, f)
        else:
            for i, obstacle in enumerate(items):
                hit = contact_obstacle(moved, obstacle)
                if hit is None:
                    continue
                # answered as soon as found: the next obstacle sees the pushed shape
                any_found = any_found or hit.depth > 0.0 or s > 0.0
                moved = moved.translated(hit.normal * (hit.depth + s))  # type: ignore[attr-defined]
                answered.append((i, hit))
                if fix_velocity:
                    v = _answer(v, hit.normal, e, f)
        if not any_found:
            break
    left = _found(moved, obstacles if items is None else items)
    deepest = max((c.depth for _h, c in left), default=0.0)
    return make_resolved(moved, v, deepest, tuple(answered))


def _inverse_mass(mass: Any, name: str) -> float:
    """1 / mass, with an infinite mass (a static body) giving 0."""
    m = as_finite(mass, name, allow_inf=True)
    if m <= 0.0:
        raise ValueError(f"{name} must be > 0 (math.inf for a static body), got {mass!r}")
    return 0.0 if math.isinf(m) else 1.0 / m


def respond_pair(pos_a: Any, vel_a: Any, mass_a: float, pos_b: Any, vel_b: Any, mass_b: float,
                 contact: Contact, restitution: float = 0.0
                 ) -> tuple[Vec2 | Vec3, Vec2 | Vec3, Vec2 | Vec3, Vec2 | Vec3]:
    """Two moving bodies' response to their contact: (pos_a, vel_a, pos_b, vel_b).

    ``contact.normal`` moves ``a`` out of ``b`` (``contact(a, b)``). The push ``depth`` is
    shared by inverse mass: equal masses move half the depth each, and a static body (mass
    ``math.inf``) does not move. If the bodies close along the normal (relative velocity
    ``(vel_a - vel_b) . n < 0``) an impulse ``j = -(1 + e) v_rel / (1/m_a + 1/m_b)`` is applied
    to ``a`` and ``-j`` to ``b``, so momentum is conserved exactly and the closing speed comes
    back as ``e`` times itself; bodies already separating keep their velocities. Two static
    bodies are returned unchanged.
    """
    pa, va, pb, vb = (as_vector(x, name) for x, name in
                      ((pos_a, "pos_a"), (vel_a, "vel_a"), (pos_b, "pos_b"), (vel_b, "vel_b")))
    if not isinstance(contact, Contact):
        raise TypeError(f"contact must be a Contact, not {type(contact).__name__}")
    n = contact.normal
    if len({len(pa), len(va), len(pb), len(vb), len(n)}) != 1:
        raise ValueError("positions, velocities and contact.normal must share one dimension")
    wa = _inverse_mass(mass_a, "mass_a")
    wb = _inverse_mass(mass_b, "mass_b")
    e = as_finite(restitution, "restitution", minimum=0.0)
    total = wa + wb
    if total == 0.0:
        # two static bodies: nothing can move
        return pa, va, pb, vb
    # push: shared by inverse mass
    pa = pa + n * (contact.depth * wa / total)
    pb = pb - n * (contact.depth * wb / total)
    closing = (va - vb).dot(n)
    if closing < 0.0:
        # bounce: one impulse, equal and opposite
        j = -(1.0 + e) * closing / total
        va = va + n * (j * wa)
        vb = vb - n * (j * wb)
    return pa, va, pb, vb
