"""The broadphase benchmark's breakdown (``benchmarks/bench_broadphase.py --breakdown``): the
counts it reports about a scene's rays are what they claim to be, checked against the scalar
API one ray and one collider at a time."""

from __future__ import annotations

import numpy as np
import pytest

from shared import bench_script
from swept import AABB, Ray, raycast

bench = bench_script("bench_broadphase", "swept_bench_broadphase")


@pytest.mark.parametrize("kind", ["kinds", "boxes", "uniform"])
def test_box_candidates_count_the_boxes_each_ray_segment_meets(kind: str) -> None:
    """The count of colliders by kind whose box a ray's segment [0, reach] meets is the scalar
    ray-box test's count (touching counts, a ray starting in a box meets it), for reaches
    short of, at and past the nearest hit; rays along the axes included (their slab test
    divides by zero)."""
    scene = bench.scenes.make_scene(kind, 80)
    origins, directions, tmax = bench.scenes.rays(scene, 24)
    directions[:4] = [(1.0, 0.0), (0.0, -1.0), (-1.0, 0.0), (0.0, 1.0)]
    reach = np.linspace(0.0, 1.2, 24) * tmax
    got = bench.box_candidates(scene, origins, directions, reach)
    boxes = [AABB(scene.lo[i], scene.hi[i]) for i in range(len(scene))]
    for r in range(24):
        ray = Ray(origins[r], directions[r], float(reach[r]))
        want = np.zeros(5, np.int64)
        for i, box in enumerate(boxes):
            if raycast(ray, box) is not None:
                want[scene.kind[i]] += 1
        assert np.array_equal(got[r], want), (r, got[r], want)


def test_selected_scenes_parse_kinds_and_counts() -> None:
    """``--scenes`` takes kinds (every size) or ``kind:count``; an unknown kind is an error
    naming the option."""
    assert bench.selected(None) == [(k, n) for k in bench.scenes.KINDS for n in bench.SIZES]
    assert bench.selected("far:1000, kinds") == [("far", 1000)] + [
        ("kinds", n) for n in bench.SIZES]
    with pytest.raises(ValueError, match="--scenes"):
        bench.selected("nowhere")
