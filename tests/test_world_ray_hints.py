"""The prefetch hints of the World's batch rays (``swept._kernels.world._hint_cell``).

``cast_range`` asks the CPU for the first grid cells of the rays ahead on a grid of at least
``HINT_MIN_LINKS`` links, reading each cell's bounds and entries to do so: hints change no
answer, and their reads stay inside the grid for origins on, beside and outside it.
"""

from __future__ import annotations

import numpy as np

from swept import Polygon, Ray
from swept._kernels import world as kw
from swept.world import World


def _big_world() -> World:
    """A World of every kind whose grid holds at least ``HINT_MIN_LINKS`` links."""
    rng = np.random.default_rng(31)
    n = 4000
    world = World()
    c = rng.uniform(0.0, 1000.0, (n, 2))
    half = rng.uniform(5.0, 30.0, (n, 1))
    world.add_boxes(c - half, c + half)
    world.add_circles(rng.uniform(0.0, 1000.0, (n, 2)), rng.uniform(5.0, 30.0, n))
    a = rng.uniform(0.0, 1000.0, (n, 2))
    world.add_segments(np.hstack([a, a + rng.uniform(-25.0, 25.0, (n, 2))]))
    for centre in rng.uniform(0.0, 1000.0, (300, 2)):
        angle = np.sort(rng.uniform(0.0, 2.0 * np.pi, 5))
        world.add(Polygon(centre + 20.0 * np.stack([np.cos(angle), np.sin(angle)], axis=1)))
    return world


def test_hinted_batch_rays_answer_as_the_scalar_query() -> None:
    """Rays cast in their own order on a grid large enough for hints (origins inside the
    scene, on its edge and far outside it) answer, row by row, as ``World.raycast``."""
    world = _big_world()
    world.raycast_many(np.zeros((1, 2)), np.ones((1, 2)))
    assert world._sync().links.shape[0] >= kw.HINT_MIN_LINKS
    rng = np.random.default_rng(7)
    origins = np.concatenate([rng.uniform(0.0, 1000.0, (1500, 2)),
                              rng.uniform(-2000.0, 3000.0, (400, 2)),
                              np.array([[0.0, 0.0], [1000.0, 1000.0], [-1e6, 5.0]] * 10)])
    angle = rng.uniform(0.0, 2.0 * np.pi, origins.shape[0])
    directions = np.ascontiguousarray(np.stack([np.cos(angle), np.sin(angle)], axis=1))
    origins = np.ascontiguousarray(origins)
    batch = world.raycast_many(origins, directions, 300.0)
    for i in range(origins.shape[0]):
        hit = world.raycast(Ray(origins[i], directions[i], 300.0))
        if hit is None:
            assert batch.handle[i] == -1
            continue
        assert batch.handle[i] == hit.handle
        assert batch.distance[i] == hit.distance
        assert tuple(batch.point[i]) == tuple(hit.point)
        assert tuple(batch.normal[i]) == tuple(hit.normal)
