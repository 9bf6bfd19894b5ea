"""Benchmark: debug drawing a frame, swept.pygame_util against pymunk.pygame_util.

The same static scene for both, on an 800 x 600 pygame-ce surface (SDL's dummy video driver:
no window): ``N`` circles (radius 4 to 12), ``N`` segments (20 to 60 long) and ``N`` boxes
(8 to 24 a side) at seeded random places, a third of them partly or wholly off the surface.
swept draws a World of them with ``DrawOptions(surface).draw(world)``; pymunk a Space of the
same shapes (static body) with ``space.debug_draw(pymunk.pygame_util.DrawOptions(surface))``.
Each side draws ``FRAMES`` frames, interleaved, after one warm-up frame; the table gives the
median milliseconds a frame and swept's time over pymunk's, for N = 100 and 1,000 (300 and
3,000 colliders). The machine is shared: compare the ratio, not the times.

Run ``python benchmarks/bench_draw.py [--quick]``; writes ``benchmarks/results/draw.json``.
"""

from __future__ import annotations

import argparse
import json
import os
import statistics
import time
from pathlib import Path
from typing import Any

import numpy as np

os.environ.setdefault("SDL_VIDEODRIVER", "dummy")
os.environ.setdefault("PYGAME_HIDE_SUPPORT_PROMPT", "1")

import pygame  # noqa: E402

from swept import AABB, Circle, Segment, World  # noqa: E402
from swept.pygame_util import DrawOptions  # noqa: E402

#: The surface's size, px.
SIZE = (800, 600)
#: Colliders of each kind (circles, segments, boxes) in the scenes.
SIZES = (100, 1000)
#: Frames each side draws (after a warm-up frame).
FRAMES = 15


def scene(n: int, seed: int = 7) -> dict[str, np.ndarray]:
    """n circles, n segments and n boxes; a third reach past the surface's edges."""
    rng = np.random.default_rng(seed)
    w, h = SIZE

    def places() -> np.ndarray:
        return rng.uniform((-0.2 * w, -0.2 * h), (1.2 * w, 1.2 * h), (n, 2))

    angles = rng.uniform(0, 2 * np.pi, n)
    lengths = rng.uniform(20, 60, n)
    starts = places()
    return {
        "centers": places(), "radii": rng.uniform(4, 12, n),
        "a": starts, "b": starts + np.stack([np.cos(angles), np.sin(angles)], 1)
        * lengths[:, None],
        "box_lo": places(), "box_size": rng.uniform(8, 24, (n, 2)),
    }


def swept_frame(parts: dict[str, np.ndarray]) -> Any:
    """A World of the scene and a function drawing it once."""
    world = World()
    for c, r in zip(parts["centers"], parts["radii"]):
        world.add(Circle(c, r))
    for a, b in zip(parts["a"], parts["b"]):
        world.add(Segment(a, b))
    for lo, size in zip(parts["box_lo"], parts["box_size"]):
        world.add(AABB(lo, lo + size))
    surface = pygame.Surface(SIZE)
    opts = DrawOptions(surface)

    def frame() -> None:
        surface.fill((0, 0, 0))
        opts.draw(world)

    return frame


def pymunk_frame(parts: dict[str, np.ndarray]) -> Any:
    """A pymunk Space of the scene and a function drawing it once, or None without pymunk."""
    try:
        import pymunk
        import pymunk.pygame_util
    except ImportError:
        return None
    space = pymunk.Space()
    body = space.static_body
    shapes: list[Any] = []
    for c, r in zip(parts["centers"], parts["radii"]):
        shapes.append(pymunk.Circle(body, float(r), tuple(map(float, c))))
    for a, b in zip(parts["a"], parts["b"]):
        shapes.append(pymunk.Segment(body, tuple(map(float, a)), tuple(map(float, b)), 0.0))
    for lo, size in zip(parts["box_lo"], parts["box_size"]):
        x0, y0 = map(float, lo)
        x1, y1 = map(float, lo + size)
        shapes.append(pymunk.Poly(body, [(x0, y0), (x1, y0), (x1, y1), (x0, y1)]))
    space.add(*shapes)
    surface = pygame.Surface(SIZE)
    opts = pymunk.pygame_util.DrawOptions(surface)

    def frame() -> None:
        surface.fill((0, 0, 0))
        space.debug_draw(opts)

    return frame


def measure(frames: int, sizes: tuple[int, ...]) -> list[dict[str, Any]]:
    """Median ms a frame for each side and size, the sides interleaved frame by frame."""
    rows = []
    for n in sizes:
        parts = scene(n)
        sides = {"swept": swept_frame(parts), "pymunk": pymunk_frame(parts)}
        times: dict[str, list[float]] = {k: [] for k, f in sides.items() if f is not None}
        for f in sides.values():
            if f is not None:
                f()  # warm-up
        for _ in range(frames):
            for name in times:
                t = time.perf_counter()
                sides[name]()
                times[name].append((time.perf_counter() - t) * 1e3)
        row: dict[str, Any] = {"colliders": 3 * n}
        for name, ts in times.items():
            row[f"{name}_ms"] = statistics.median(ts)
        if "pymunk_ms" in row:
            row["ratio"] = row["swept_ms"] / row["pymunk_ms"]
        rows.append(row)
        print(f"{3 * n:>6} colliders: swept {row['swept_ms']:7.2f} ms"
              + (f", pymunk {row['pymunk_ms']:7.2f} ms, swept / pymunk {row['ratio']:.2f}"
                 if "ratio" in row else ", pymunk missing (pip install swept[bench])"))
    return rows


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--quick", action="store_true", help="3 frames, 100 of each kind")
    args = parser.parse_args()
    frames, sizes = (3, SIZES[:1]) if args.quick else (FRAMES, SIZES)
    rows = measure(frames, sizes)
    out = Path(__file__).resolve().parent / "results"
    out.mkdir(exist_ok=True)
    (out / "draw.json").write_text(json.dumps({"frames": frames, "rows": rows}, indent=2))


if __name__ == "__main__":
    main()
