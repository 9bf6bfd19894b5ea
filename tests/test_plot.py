"""swept.plot draws into a matplotlib Axes (Agg): each shape becomes the patch or line it
should, at exactly its coordinates; unbounded things are clipped to the bounds; rays, contacts,
sweeps and move_and_slide paths add their parts; 3D things and non-shapes raise TypeError
naming the argument."""

from __future__ import annotations

import math
import os
import subprocess
import sys
from typing import Any

import numpy as np
import pytest

matplotlib = pytest.importorskip("matplotlib")
matplotlib.use("Agg")

import matplotlib.pyplot as plt  # noqa: E402
from matplotlib.lines import Line2D  # noqa: E402
from matplotlib.patches import Circle as CirclePatch  # noqa: E402
from matplotlib.patches import Polygon as PolygonPatch  # noqa: E402

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
    Sphere,
    TileMap,
    World,
    contact,
    raycast,
    sweep,
)
from swept import plot as swplot  # noqa: E402
from swept._draw import COLORS, NORMAL_LENGTH  # noqa: E402


@pytest.fixture
def ax() -> Any:
    fig, axes = plt.subplots()
    yield axes
    plt.close(fig)


def _xy(artist: Any) -> list[tuple[float, float]]:
    if isinstance(artist, Line2D):
        return [(float(x), float(y)) for x, y in zip(artist.get_xdata(), artist.get_ydata())]
    return [(float(x), float(y)) for x, y in artist.get_xy()]


def _rgb(role: str) -> tuple[float, float, float]:
    return tuple(c / 255.0 for c in COLORS[role])  # type: ignore[return-value]


def test_a_box_is_one_polygon_patch_at_its_corners(ax: Any) -> None:
    (patch,) = swplot.draw(ax, AABB((1, 2), (3, 5)))
    assert isinstance(patch, PolygonPatch) and patch in ax.patches
    # closed: the first corner again at the end
    assert _xy(patch) == [(1, 2), (3, 2), (3, 5), (1, 5), (1, 2)]
    assert patch.get_edgecolor()[:3] == _rgb("shape")


def test_a_circle_is_a_circle_patch(ax: Any) -> None:
    (patch,) = swplot.draw(ax, Circle((1, 2), 3))
    assert isinstance(patch, CirclePatch)
    assert tuple(patch.center) == (1.0, 2.0) and patch.radius == 3.0


def test_a_polygon_a_segment_and_a_chain_keep_their_points(ax: Any) -> None:
    tri = Polygon([(0, 0), (4, 0), (0, 3)])
    arts = swplot.draw(ax, [tri, Segment((1, 1), (2, 3)), Chain([(0, 5), (1, 6), (2, 5)],
                                                                 loop=True)])
    assert [type(a) for a in arts] == [PolygonPatch, Line2D, Line2D]
    assert _xy(arts[0])[:-1] == [tuple(p) for p in tri.points]
    assert _xy(arts[1]) == [(1, 1), (2, 3)]
    assert _xy(arts[2]) == [(0, 5), (1, 6), (2, 5), (0, 5)]


def test_a_capsules_outline_is_its_radius_from_its_segment(ax: Any) -> None:
    (patch,) = swplot.draw(ax, Capsule((0, 0), (10, 0), 2))
    pts = np.array(_xy(patch))
    # distance from each outline point to the segment (0, 0)-(10, 0)
    t = np.clip(pts[:, 0], 0.0, 10.0)
    d = np.hypot(pts[:, 0] - t, pts[:, 1])
    assert np.allclose(d, 2.0, rtol=0, atol=1e-12)
    assert pts[:, 0].min() == -2.0 and pts[:, 0].max() == 12.0


def test_a_half_plane_is_clipped_to_the_bounds(ax: Any) -> None:
    fill, line = swplot.draw(ax, Plane((0, 1), 0.5), bounds=((-1, -1), (1, 1)))
    assert sorted(_xy(fill)[:-1]) == [(-1, -1), (-1, 0.5), (1, -1), (1, 0.5)]
    assert sorted(_xy(line)) == [(-1, 0.5), (1, 0.5)]


def test_a_half_plane_drawn_after_shapes_is_clipped_to_their_box_grown_by_a_tenth(ax: Any
                                                                                  ) -> None:
    swplot.draw(ax, AABB((0, 0), (10, 10)))
    fill, _ = swplot.draw(ax, Plane((0, 1), 5))
    xs = [p[0] for p in _xy(fill)]
    ys = [p[1] for p in _xy(fill)]
    assert (min(xs), max(xs), min(ys), max(ys)) == (-1.0, 11.0, -1.0, 5.0)


def test_a_tile_map_is_its_runs_and_its_outline(ax: Any) -> None:
    tiles = TileMap(np.array([[1, 1, 0, 1]]), 2, origin=(0, 0))
    arts = swplot.draw(ax, tiles)
    runs = [a for a in arts if isinstance(a, PolygonPatch)]
    assert [sorted(_xy(r)[:-1]) for r in runs] == [[(0, 0), (0, 2), (4, 0), (4, 2)],
                                                    [(6, 0), (6, 2), (8, 0), (8, 2)]]
    assert all(r.get_linewidth() == 0.0 for r in runs)  # no seams: the outline is drawn apart
    assert len([a for a in arts if isinstance(a, Line2D)]) == 2


def test_a_world_with_every_kind_draws_sensors_unfilled(ax: Any) -> None:
    w = World()
    w.add(Plane((0, -1), -9))  # solid above y = 9, inside the box the others span
    w.add(Circle((1, 1), 1))
    w.add(Segment((3, 0), (5, 0)))
    w.add(AABB((6, 0), (7, 1)), moving=True)
    w.add(Polygon([(0, 3), (2, 3), (1, 5)]))
    w.add(Capsule((3, 4), (5, 4), 0.5))
    w.add(Chain([(0, 8), (4, 7), (8, 8)]))
    sensor = w.add(AABB((6, 3), (8, 5)), sensor=True)
    for loop in TileMap(np.array([[1, 1]]), 1, origin=(0, 10)).chains():
        w.add(loop)
    arts = swplot.draw(ax, w)
    kinds = [type(a).__name__ for a in arts]
    # the half-plane first (its fill and its line), then one artist for each collider
    assert kinds == ["Polygon", "Line2D", "Circle", "Line2D", "Polygon", "Polygon", "Polygon",
                     "Line2D", "Polygon", "Line2D"]
    sensor_patch = arts[2 + sensor - 1]
    assert _xy(sensor_patch)[:-1] == [(6, 3), (8, 3), (8, 5), (6, 5)]
    assert sensor_patch.get_facecolor()[3] == 0.0
    assert sensor_patch.get_edgecolor()[:3] == _rgb("sensor")
    assert arts[4].get_edgecolor()[:3] == _rgb("moving")


def test_a_one_way_colliders_arrow_starts_at_its_middle(ax: Any) -> None:
    w = World()
    w.add(Segment((0, 0), (10, 0)), one_way=(0, 1))
    line, shaft, head = swplot.draw(ax, w)
    unit = math.hypot(12, 2) / swplot.PLOT_UNITS  # the box (0, 0)-(10, 0), grown by 1
    assert _xy(line) == [(0, 0), (10, 0)]
    (x0, y0), (x1, y1) = _xy(shaft)
    assert (x0, y0, x1) == (5.0, 0.0, 5.0)
    assert math.isclose(y1, NORMAL_LENGTH * unit, rel_tol=1e-12)
    assert shaft.get_color()[:3] == _rgb("one_way")


def test_a_simulations_bodies_are_drawn_as_bodies(ax: Any) -> None:
    sim = Simulation(gravity=(0, 0))
    sim.world.add(Segment((0, 0), (10, 0)))
    sim.add(Body(Circle((5, 3), 1)))
    line, ball = swplot.draw(ax, sim)
    assert _xy(line) == [(0, 0), (10, 0)]
    assert tuple(ball.center) == (5.0, 3.0) and ball.get_edgecolor()[:3] == _rgb("body")


def test_a_ray_and_its_hit(ax: Any) -> None:
    ray = Ray((0, 0), (1, 0))
    hit = raycast(ray, AABB((4, -1), (6, 1)))
    assert hit is not None
    arts = swplot.draw_ray(ax, ray, hit, bounds=None)
    origin, line, shaft, head, dot = arts
    assert _xy(origin) == [(0, 0)] and _xy(line) == [(0, 0), (4, 0)]
    assert _xy(dot) == [(4, 0)]
    # the box of what is drawn, (0, 0)-(4, 0), grown by a tenth of 4: its diagonal / 400
    unit = math.hypot(4.8, 0.8) / swplot.PLOT_UNITS
    (x0, y0), (x1, y1) = _xy(shaft)
    assert (x0, y0, y1) == (4.0, 0.0, 0.0)
    assert math.isclose(x1, 4.0 - NORMAL_LENGTH * unit, rel_tol=0, abs_tol=1e-12)
    assert _xy(head)[1] == (x1, 0.0)


def test_a_ray_with_no_end_runs_to_the_bounds(ax: Any) -> None:
    _, line = swplot.draw(ax, Ray((0, 0), (1, 1)), bounds=((-5, -5), (3, 10)))
    assert _xy(line) == [(0, 0), (3, 3)]


def test_a_contact_has_its_depth_as_a_line(ax: Any) -> None:
    c = contact(Circle((0, 0.5), 1), AABB((-5, -5), (5, 0)))
    assert c is not None and c.depth == 0.5
    arts = swplot.draw(ax, c)
    depth = [a for a in arts if isinstance(a, Line2D) and a.get_color()[:3] == _rgb("depth")]
    assert [_xy(a) for a in depth] == [[(0, 0), (0, -0.5)]]


def test_a_box_sweep_is_the_hull_of_both_placements(ax: Any) -> None:
    box = AABB((0, 0), (1, 1))
    arts = swplot.draw_sweep(ax, box, (2, 0))
    volume = arts[0]
    assert sorted(_xy(volume)[:-1]) == [(0, 0), (0, 1), (3, 0), (3, 1)]
    assert len(arts) == 3  # the volume, the start and the end


def test_a_sweep_with_a_hit_adds_the_shape_at_impact(ax: Any) -> None:
    ball = Circle((0, 0), 1)
    hit = sweep(ball, (10, 0), AABB((5, -5), (6, 5)))
    assert hit is not None
    arts = swplot.draw_sweep(ax, ball, (10, 0), hit)
    impact = [a for a in arts if isinstance(a, CirclePatch)
              and a.get_edgecolor()[:3] == _rgb("impact")]
    assert len(impact) == 1 and tuple(impact[0].center) == (4.0, 0.0)


def test_a_move_path_runs_from_start_to_end(ax: Any) -> None:
    w = World()
    w.add(Segment((-10, 5), (10, 5)))
    start = Circle((0, 0), 1)
    result = w.move_and_slide(start, (0, 100), 0.1)
    arts = swplot.draw_move(ax, result, start)
    path = [a for a in arts if isinstance(a, Line2D) and a.get_color()[:3] == _rgb("path")]
    pts = _xy(path[0])
    assert pts[0] == (0.0, 0.0) and pts[-1] == tuple(result.position)


def test_a_sweep_batch_draws_each_hit_at_its_point(ax: Any) -> None:
    w = World()
    w.add(Segment((-10, 0), (10, 0)))
    batch = w.sweep_many(np.array([[0.0, 5.0], [20.0, 5.0]]), np.array([1.0, 1.0]),
                         np.array([[0.0, -10.0], [0.0, -10.0]]))
    assert batch.hit.tolist() == [True, False]
    arts = swplot.draw(ax, batch)
    dots = [a for a in arts if isinstance(a, Line2D) and a.get_marker() == "o"]
    assert [_xy(d) for d in dots] == [[(0.0, 0.0)]]


def test_a_3d_batch_is_refused(ax: Any) -> None:
    w = World()
    w.add(Sphere((0, 0, 0), 1))
    batch = w.raycast_many(np.array([[0.0, 0.0, 5.0]] * 3), np.array([[0.0, 0.0, -1.0]] * 3))
    with pytest.raises(TypeError, match="thing: a 3D RayBatch"):
        swplot.draw(ax, batch)


def test_y_up_false_inverts_the_axis_once(ax: Any) -> None:
    swplot.draw(ax, Circle((0, 0), 1), y_up=False)
    assert ax.yaxis_inverted()
    swplot.draw(ax, Circle((0, 0), 1))  # None: as it is
    assert ax.yaxis_inverted()
    swplot.draw(ax, Circle((0, 0), 1), y_up=True)
    assert not ax.yaxis_inverted()


@pytest.mark.parametrize("thing", [3, "box", Sphere((0, 0, 0), 1), AABB((0, 0, 0), (1, 1, 1)),
                                   Ray((0, 0, 0), (1, 0, 0))])
def test_what_cannot_be_drawn_is_a_type_error_naming_thing(ax: Any, thing: Any) -> None:
    with pytest.raises(TypeError, match="thing"):
        swplot.draw(ax, thing)


def test_the_other_arguments_are_checked_by_name(ax: Any) -> None:
    with pytest.raises(TypeError, match="ax"):
        swplot.draw("axes", Circle((0, 0), 1))
    fig = plt.figure()
    try:
        ax3 = fig.add_subplot(projection="3d")
        with pytest.raises(TypeError, match="ax"):
            swplot.draw(ax3, Circle((0, 0), 1))
    finally:
        plt.close(fig)
    with pytest.raises(ValueError, match="bounds"):
        swplot.draw(ax, Plane((0, 1), 0), bounds=((1, 1), (0, 0)))
    with pytest.raises(TypeError, match="bounds"):
        swplot.draw(ax, Plane((0, 1), 0), bounds=3)
    with pytest.raises(TypeError, match="y_up"):
        swplot.draw(ax, Circle((0, 0), 1), y_up="up")
    with pytest.raises(TypeError, match="shape"):
        swplot.draw_sweep(ax, Plane((0, 1), 0), (1, 0))
    with pytest.raises(TypeError, match="result"):
        swplot.draw_move(ax, Circle((0, 0), 1))


def test_matplotlibs_absence_names_the_extra() -> None:
    code = ("import sys\n"
            "sys.modules['matplotlib'] = None\n"
            "import swept.plot\n"
            "try:\n"
            "    swept.plot.draw(object(), None)\n"
            "except ImportError as e:\n"
            "    print(e)\n")
    env = {**os.environ, "PYTHONPATH": os.pathsep.join(sys.path)}
    done = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, env=env,
                          timeout=300)
    assert done.returncode == 0, done.stderr
    assert "pip install swept[plot]" in done.stdout
