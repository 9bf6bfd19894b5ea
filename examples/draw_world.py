"""Debug drawing: a World with every kind of collider, rays and their hits, a sweep, a contact,
a move_and_slide path and a Simulation's balls, drawn by swept.pygame_util onto an offscreen
surface (no window: it runs headless) and saved as a PNG; a close-up with y up (a manifold's
depths, a sweep, a ray off a capsule) as a second; with matplotlib, the first scene through
swept.plot as a third.

    python examples/draw_world.py               # PNGs in the temporary directory
    python examples/draw_world.py --out DIR     # PNGs in DIR (docs/images for the docs)
"""

from __future__ import annotations

import argparse
import os
import tempfile
from pathlib import Path

import numpy as np

os.environ.setdefault("SDL_VIDEODRIVER", "dummy")
os.environ.setdefault("PYGAME_HIDE_SUPPORT_PROMPT", "1")

import pygame  # noqa: E402

from swept import (  # noqa: E402
    AABB,
    Body,
    Capsule,
    Chain,
    Circle,
    Plane,
    Polygon,
    Ray,
    Segment,
    Simulation,
    TileMap,
    World,
    contact,
    manifold,
    raycast,
    sweep,
)
from swept.pygame_util import DrawOptions  # noqa: E402

W, H = 640, 400


def build() -> dict:
    """The scene (screen coordinates, y down) and the queries to show."""
    world = World()
    world.add(Plane((0, -1), -380))                               # the ground: y > 380
    tiles = TileMap(np.array([[1, 1, 1, 0, 0], [1, 1, 1, 1, 1]]), 20, origin=(30, 300))
    for loop in tiles.chains():
        world.add(loop)
    world.add(Circle((200, 120), 30))
    world.add(AABB((300, 60), (360, 100)))
    world.add(Polygon.box(35, 15).placed((480, 120), 0.5))
    world.add(Capsule((400, 220), (470, 250), 14))
    world.add(Segment((520, 380), (620, 300)))                    # a slope
    world.add(Chain([(200, 380), (260, 340), (320, 330), (380, 380)]))  # a hill
    world.add(AABB((560, 40), (620, 110)), sensor=True)           # a trigger zone
    world.add(AABB((140, 220), (180, 240)), moving=True)          # a moving platform
    world.add(Segment((40, 200), (110, 200)), one_way=(0, -1))    # solid from above only

    eye = (60, 60)
    rays = [Ray(eye, (np.cos(a), np.sin(a)), 700) for a in np.linspace(0.05, 1.2, 7)]
    hits = [world.raycast(r) for r in rays]

    ball = Circle((290, 300), 10)
    shove = (200, -110)
    sweep_hit = world.sweep(ball, shove)

    probe = Circle((225, 150), 14)
    touch = contact(probe, Circle((200, 120), 30))

    walker = Circle((560, 200), 12)
    move = world.move_and_slide(walker, (150, 900), 0.2)

    sim = Simulation(world, gravity=(0, 980))
    for x in (250, 272, 294):
        sim.add(Body(Circle((x, 260), 9), (40, 0)))
    sim.run(20)
    return dict(world=world, tiles=tiles, rays=rays, hits=hits, ball=ball, shove=shove,
                sweep_hit=sweep_hit, probe=probe, touch=touch, walker=walker, move=move,
                sim=sim)


def draw_pygame(scene: dict, path: Path) -> None:
    """The scene through swept.pygame_util, saved as a PNG."""
    surface = pygame.Surface((W, H))
    surface.fill((18, 21, 26))
    opts = DrawOptions(surface)
    opts.draw(scene["tiles"])
    opts.draw(scene["sim"])                   # its World's colliders, then its balls
    for ray, hit in zip(scene["rays"], scene["hits"]):
        opts.draw_ray(ray, hit)
    opts.draw_sweep(scene["ball"], scene["shove"], scene["sweep_hit"])
    opts.draw(scene["probe"], fill=False)
    opts.draw(scene["touch"])
    opts.draw_move(scene["move"], scene["walker"])
    pygame.image.save(surface, str(path))


def draw_close_up(path: Path) -> None:
    """A close-up with y up (math coordinates) at 40 px a unit: a box resting a little into
    the ground (its manifold: two points, their depths, the normal), a ball's sweep onto the
    ground, a ray off a capsule."""
    ground = AABB((0, 0), (8, 1))
    box = Polygon.box(0.8, 0.5).placed((2, 1.15))
    post = Capsule((6.2, 1.6), (7.2, 3.2), 0.35)
    ball = Circle((4.4, 4.6), 0.4)
    drop = (1.2, -4.5)
    ray = Ray((0.3, 4.8), (1, -0.35))
    surface = pygame.Surface((400, 260))
    surface.fill((18, 21, 26))
    opts = DrawOptions(surface, y_up=True, scale=40, offset=(20, 20))
    opts.draw([ground, box, post])
    opts.draw(manifold(box, ground))
    opts.draw_sweep(ball, drop, sweep(ball, drop, ground))
    opts.draw_ray(ray, raycast(ray, post))
    pygame.image.save(surface, str(path))


def draw_matplotlib(scene: dict, path: Path) -> bool:
    """The same through swept.plot (y down, as on screen); False without matplotlib."""
    try:
        import matplotlib
    except ImportError:
        return False
    matplotlib.use("Agg")
    import matplotlib.pyplot as plt

    from swept import plot

    fig, ax = plt.subplots(figsize=(6.4, 4.0), dpi=100)
    plot.draw(ax, scene["tiles"], y_up=False)
    plot.draw(ax, scene["sim"], bounds=((0, 0), (W, H)))
    for ray, hit in zip(scene["rays"], scene["hits"]):
        plot.draw_ray(ax, ray, hit)
    plot.draw_sweep(ax, scene["ball"], scene["shove"], scene["sweep_hit"])
    plot.draw(ax, [scene["probe"], scene["touch"]], fill=False)
    plot.draw_move(ax, scene["move"], scene["walker"])
    ax.set_aspect("equal", adjustable="box")
    ax.set_xlim(0, W)
    ax.set_ylim(H, 0)
    fig.tight_layout()
    fig.savefig(path, metadata={"Software": None})
    plt.close(fig)
    return True


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--out", type=Path, default=Path(tempfile.gettempdir()),
                        help="folder for the PNGs (default: the temporary directory)")
    args = parser.parse_args()
    args.out.mkdir(parents=True, exist_ok=True)
    scene = build()
    png = args.out / "draw_world.png"
    draw_pygame(scene, png)
    print(f"pygame-ce: {png}")
    close = args.out / "draw_close_up.png"
    draw_close_up(close)
    print(f"pygame-ce, y up: {close}")
    plotted = args.out / "draw_world_plot.png"
    if draw_matplotlib(scene, plotted):
        print(f"matplotlib: {plotted}")
    hits = sum(h is not None for h in scene["hits"])
    print(f"{hits} of {len(scene['rays'])} rays hit; the sweep stops at fraction "
          f"{scene['sweep_hit'].fraction:.3f}; the walker met {len(scene['move'].collisions)} "
          f"surface(s)")


if __name__ == "__main__":
    main()
