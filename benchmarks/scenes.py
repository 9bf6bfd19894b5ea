"""Deterministic 2D scenes for the broadphase benchmark and the World's scene tests (issue 11).

Every scene kind the issue names, seeded, at any collider count ``n``:

======================  ===========================================================================
``uniform``             segments 20 to 100 long at random angles in a 1000 x 1000 world
``walls``               walls as long as the world: chords of the world's square through a random
                        point at a random angle (up to 1414 long)
``boxes``               large boxes covering many grid cells: sides 1 to 4 times the mean spacing
                        ``1000 / sqrt(n)`` (each covers about 4.3 cells of a 1-collider-a-cell grid)
``clustered``           99% of the colliders (segments 2 to 10 long) in 1% of the area (a 100 x 100
                        square); the other 1% (20 to 100 long) spread over the world, so that the
                        scene's bounds are the world's (without them it is ``uniform`` again)
``far``                 colliders spread over coordinates of 1e6: segments 100 to 1000 long in
                        [-1e6, 1e6]^2
``mixed_sizes``         small and large mixed: 90% segments 5 to 50 long, 10% chords (walls)
``moving``              ``uniform`` segments (90%, static) among circles (10%, radius 5 to 20) added
                        with ``moving=True``
``kinds``               every kind: circles, boxes, convex polygons, capsules and segments, a fifth
                        each, 5 to 50 across
======================  ===========================================================================

A scene is a :class:`Scene`: the colliders as numpy arrays (a kind code per row with the World's
codes, a parameter table, a polygon vertex pool, each collider's bounding box, a moving flag)
and the same colliders as swept shapes (:meth:`Scene.shapes`), plus the bounds that rays start
in. :func:`rays` makes the scene's rays: origins inside its bounds, random directions, max
distance the bounds' diagonal; for ``far``, rays aimed at colliders (random rays in a square of
side 2e6 would almost all miss).
"""

from __future__ import annotations

import math
from dataclasses import dataclass

import numpy as np

from swept import AABB, Capsule, Circle, Polygon, Segment
from swept.shapes import Shape

#: Side of the square world of every scene but ``far``.
WORLD_SIZE = 1000.0
#: Half-side of the ``far`` scene's square (coordinates up to 1e6).
FAR_HALF_SIZE = 1e6
#: Collider kind codes: the World's (:mod:`swept._kernels.world`).
KIND_CIRCLE, KIND_SEGMENT, KIND_AABB2, KIND_POLYGON, KIND_CAPSULE2 = 0, 1, 2, 3, 4
#: Every scene kind, in the order the benchmark prints them.
KINDS = ("uniform", "walls", "boxes", "clustered", "far", "mixed_sizes", "moving", "kinds")
#: The base seed; each scene and size draws from its own stream.
SEED = 11


@dataclass(frozen=True)
class Scene:
    """A scene's colliders as arrays, row i being the collider added i-th (handle i).

    ``kind`` (n,) int64; ``params`` (n, 5) float64: a segment ``ax ay bx by``, a box ``minx miny
    maxx maxy``, a circle ``cx cy r``, a capsule ``ax ay bx by r``, a polygon ``offset count`` into
    ``verts`` / ``norms`` ((m, 2) float64: the polygon's canonical corners and outward edge
    normals, as swept stores them); ``lo``, ``hi`` (n, 2) each collider's bounding box;
    ``moving`` (n,) bool; ``bounds_lo``, ``bounds_hi`` (2,) where the rays start.
    """

    name: str
    kind: np.ndarray
    params: np.ndarray
    verts: np.ndarray
    norms: np.ndarray
    lo: np.ndarray
    hi: np.ndarray
    moving: np.ndarray
    bounds_lo: np.ndarray
    bounds_hi: np.ndarray

    def __len__(self) -> int:
        return int(self.kind.shape[0])

    @property
    def diagonal(self) -> float:
        """The length of the bounds' diagonal: the rays' max distance."""
        return float(np.hypot(*(self.bounds_hi - self.bounds_lo)))

    def shape(self, i: int) -> Shape:
        """Collider i as a swept shape."""
        k = int(self.kind[i])
        p = self.params[i]
        if k == KIND_SEGMENT:
            return Segment((p[0], p[1]), (p[2], p[3]))
        if k == KIND_AABB2:
            return AABB((p[0], p[1]), (p[2], p[3]))
        if k == KIND_CIRCLE:
            return Circle((p[0], p[1]), p[2])
        if k == KIND_CAPSULE2:
            return Capsule((p[0], p[1]), (p[2], p[3]), p[4])
        o, c = int(p[0]), int(p[1])
        return Polygon(self.verts[o:o + c])

    def shapes(self) -> list[Shape]:
        """Every collider as a swept shape, in handle order."""
        return [self.shape(i) for i in range(len(self))]

    def segment_ends(self) -> tuple[np.ndarray, np.ndarray] | None:
        """The segments' ends ``(a, b)`` ((n, 2) each) when every collider is a segment."""
        if not (self.kind == KIND_SEGMENT).all():
            return None
        return self.params[:, :2].copy(), self.params[:, 2:4].copy()


class _Builder:
    """Collects colliders row by row into a :class:`Scene`."""

    def __init__(self) -> None:
        self.kind: list[int] = []
        self.params: list[list[float]] = []
        self.lo: list[tuple[float, float]] = []
        self.hi: list[tuple[float, float]] = []
        self.moving: list[bool] = []
        self.verts: list[np.ndarray] = []
        self.norms: list[np.ndarray] = []
        self.pool = 0

    def segment(self, a: np.ndarray, b: np.ndarray, moving: bool = False) -> None:
        self._row(KIND_SEGMENT, [a[0], a[1], b[0], b[1], 0.0], np.minimum(a, b),
                  np.maximum(a, b), moving)

    def box(self, lo: np.ndarray, hi: np.ndarray, moving: bool = False) -> None:
        self._row(KIND_AABB2, [lo[0], lo[1], hi[0], hi[1], 0.0], lo, hi, moving)

    def circle(self, c: np.ndarray, r: float, moving: bool = False) -> None:
        self._row(KIND_CIRCLE, [c[0], c[1], r, 0.0, 0.0], c - r, c + r, moving)

    def capsule(self, a: np.ndarray, b: np.ndarray, r: float, moving: bool = False) -> None:
        self._row(KIND_CAPSULE2, [a[0], a[1], b[0], b[1], r], np.minimum(a, b) - r,
                  np.maximum(a, b) + r, moving)

    def polygon(self, points: np.ndarray, moving: bool = False) -> None:
        poly = Polygon(points)  # canonical corners and normals, as the World stores them
        v = np.asarray(poly._verts, dtype=np.float64)
        nrm = np.asarray(poly._norms, dtype=np.float64)
        self.verts.append(v)
        self.norms.append(nrm)
        self._row(KIND_POLYGON, [float(self.pool), float(v.shape[0]), 0.0, 0.0, 0.0],
                  v.min(axis=0), v.max(axis=0), moving)
        self.pool += v.shape[0]

    def _row(self, kind: int, params: list[float], lo: np.ndarray, hi: np.ndarray,
             moving: bool) -> None:
        self.kind.append(kind)
        self.params.append([float(x) for x in params])
        self.lo.append((float(lo[0]), float(lo[1])))
        self.hi.append((float(hi[0]), float(hi[1])))
        self.moving.append(moving)

    def scene(self, name: str, bounds_lo: tuple[float, float],
              bounds_hi: tuple[float, float]) -> Scene:
        verts = np.concatenate(self.verts) if self.verts else np.zeros((0, 2))
        norms = np.concatenate(self.norms) if self.norms else np.zeros((0, 2))
        return Scene(name, np.array(self.kind, np.int64), np.array(self.params).reshape(-1, 5),
                     verts, norms, np.array(self.lo).reshape(-1, 2),
                     np.array(self.hi).reshape(-1, 2), np.array(self.moving, np.bool_),
                     np.array(bounds_lo, np.float64), np.array(bounds_hi, np.float64))


def _rng(name: str, n: int, salt: int = 0) -> np.random.Generator:
    return np.random.default_rng([SEED, KINDS.index(name), n, salt])


def _directions(rng: np.random.Generator, k: int) -> np.ndarray:
    angle = rng.uniform(0.0, 2.0 * math.pi, k)
    return np.stack([np.cos(angle), np.sin(angle)], axis=1)


def _segments(b: _Builder, rng: np.random.Generator, k: int, lo: float, hi: float,
              length: tuple[float, float]) -> None:
    """k random segments with a start in [lo, hi]^2, random lengths and angles."""
    a = rng.uniform(lo, hi, (k, 2))
    e = a + _directions(rng, k) * rng.uniform(*length, k)[:, None]
    for i in range(k):
        b.segment(a[i], e[i])


def _chords(b: _Builder, rng: np.random.Generator, k: int) -> None:
    """k chords of the world's square: the line through a random point at a random angle,
    clipped to the square (a wall as long as the world)."""
    p = rng.uniform(0.0, WORLD_SIZE, (k, 2))
    d = _directions(rng, k)
    for i in range(k):
        t0, t1 = -math.inf, math.inf
        for ax in range(2):
            if d[i, ax] != 0.0:
                ta = (0.0 - p[i, ax]) / d[i, ax]
                tb = (WORLD_SIZE - p[i, ax]) / d[i, ax]
                t0, t1 = max(t0, min(ta, tb)), min(t1, max(ta, tb))
        b.segment(p[i] + t0 * d[i], p[i] + t1 * d[i])


def _regular(rng: np.random.Generator, c: np.ndarray, r: float) -> np.ndarray:
    """The corners of a convex polygon: 3 to 8 points on a circle at jittered angles."""
    m = int(rng.integers(3, 9))
    angle = np.sort(rng.uniform(0.0, 2.0 * math.pi / m, m) + np.arange(m) * 2.0 * math.pi / m)
    return c + r * np.stack([np.cos(angle), np.sin(angle)], axis=1)


def make_scene(name: str, n: int) -> Scene:
    """The scene ``name`` (one of :data:`KINDS`) with ``n`` colliders, the same every call."""
    if name not in KINDS:
        raise ValueError(f"name must be one of {KINDS}, got {name!r}")
    if n < 1:
        raise ValueError(f"n must be at least 1, got {n}")
    rng = _rng(name, n)
    b = _Builder()
    world = ((0.0, 0.0), (WORLD_SIZE, WORLD_SIZE))
    if name == "uniform":
        _segments(b, rng, n, 0.0, WORLD_SIZE, (20.0, 100.0))
    elif name == "walls":
        _chords(b, rng, n)
    elif name == "boxes":
        spacing = WORLD_SIZE / math.sqrt(n)
        side = rng.uniform(1.0, 4.0, (n, 2)) * spacing
        lo = rng.uniform(0.0, WORLD_SIZE, (n, 2)) - side / 2.0
        for i in range(n):
            b.box(lo[i], lo[i] + side[i])
    elif name == "clustered":
        outliers = min(n, max(2, n // 100))
        _segments(b, rng, n - outliers, 450.0, 540.0, (2.0, 10.0))
        # two outliers at the world's corners, so the bounds are the world whatever n is
        b.segment(np.array([0.0, 0.0]), np.array([30.0, 0.0]))
        if outliers > 1:
            b.segment(np.array([WORLD_SIZE, WORLD_SIZE]),
                      np.array([WORLD_SIZE - 30.0, WORLD_SIZE]))
        _segments(b, rng, max(0, outliers - 2), 0.0, WORLD_SIZE - 100.0, (20.0, 100.0))
    elif name == "far":
        _segments(b, rng, n, -FAR_HALF_SIZE, FAR_HALF_SIZE - 1000.0, (100.0, 1000.0))
        return b.scene(name, (-FAR_HALF_SIZE, -FAR_HALF_SIZE), (FAR_HALF_SIZE, FAR_HALF_SIZE))
    elif name == "mixed_sizes":
        walls = max(1, n // 10)
        _segments(b, rng, n - walls, 0.0, WORLD_SIZE, (5.0, 50.0))
        _chords(b, rng, walls)
    elif name == "moving":
        balls = max(1, n // 10)
        _segments(b, rng, n - balls, 0.0, WORLD_SIZE, (20.0, 100.0))
        c = rng.uniform(0.0, WORLD_SIZE, (balls, 2))
        r = rng.uniform(5.0, 20.0, balls)
        for i in range(balls):
            b.circle(c[i], float(r[i]), moving=True)
    else:  # kinds
        c = rng.uniform(0.0, WORLD_SIZE, (n, 2))
        size = rng.uniform(5.0, 50.0, n)
        d = _directions(rng, n)
        for i in range(n):
            half = size[i] / 2.0
            which = i % 5
            if which == 0:
                b.circle(c[i], half)
            elif which == 1:
                b.box(c[i] - half * np.array([1.0, 0.6]), c[i] + half * np.array([1.0, 0.6]))
            elif which == 2:
                b.polygon(_regular(rng, c[i], half))
            elif which == 3:
                b.capsule(c[i] - d[i] * half, c[i] + d[i] * half, size[i] / 8.0)
            else:
                b.segment(c[i] - d[i] * half, c[i] + d[i] * half)
    return b.scene(name, *world)


def rays(scene: Scene, k: int, salt: int = 0) -> tuple[np.ndarray, np.ndarray, float]:
    """k rays for ``scene``: origins (k, 2) inside its bounds, unit directions (k, 2) (already
    normalised as the World normalises them, so the runners cast the same rays), and the max
    distance (the bounds' diagonal). For ``far``, each ray is aimed at a random collider's box
    centre, from a point up to 1e5 away (so most rays reach a collider)."""
    rng = _rng(scene.name, len(scene), 1000 + salt)
    if scene.name == "far":
        target = rng.integers(0, len(scene), k)
        aim = (scene.lo[target] + scene.hi[target]) / 2.0
        origins = np.clip(aim + rng.uniform(-1e5, 1e5, (k, 2)), scene.bounds_lo, scene.bounds_hi)
        v = aim - origins
        v[np.hypot(v[:, 0], v[:, 1]) == 0.0] = (1.0, 0.0)
    else:
        origins = rng.uniform(scene.bounds_lo, scene.bounds_hi, (k, 2))
        v = _directions(rng, k)
    length = np.hypot(v[:, 0], v[:, 1])
    directions = np.ascontiguousarray(v / length[:, None])
    return np.ascontiguousarray(origins), directions, scene.diagonal
