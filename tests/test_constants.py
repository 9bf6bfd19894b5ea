"""swept.constants holds every tolerance, cap and limit, each documented, and nothing else
defines one."""

from __future__ import annotations

import ast
import importlib
import inspect
import re
from pathlib import Path

import pytest

import swept
from swept import constants
from swept.vec import Vec2, Vec3

SRC = Path(swept.__file__).parent
CONSTANTS_SOURCE = (SRC / "constants.py").read_text()
UPPER = re.compile(r"^[A-Z][A-Z0-9_]*$")

# every public constant falls in exactly one of these, so a new one forces a decision
TOLERANCES = {
    "HEADING_TOLERANCE", "MANIFOLD_TOUCH_TOLERANCE", "FEATURE_NORMAL_TOLERANCE",
    "CLEARANCE_TOLERANCE", "ROUND_CORE_FRACTION", "COLLINEAR_TOLERANCE", "RIM_TOLERANCE",
    "DEGENERATE_SEGMENT_SQ", "SEGMENT_PARALLEL_SINE_SQ", "MIN_DIRECTION_COMPONENT",
    "GRID_MARGIN", "CANDIDATE_MARGIN", "BOX_MARGIN", "SPECULATIVE_MARGIN_FRACTION",
    "PAIR_MARGIN_FRACTION", "PAIR_PUSH_SLOP", "ACCUMULATOR_TOLERANCE", "FACE_NORMAL_TOLERANCE",
    "JOIN_FLAT_TOLERANCE", "EDGE_ON_TOLERANCE", "FLOOR_ANGLE_TOLERANCE", "TRAVEL_SLOP",
    "RISING_TOLERANCE", "MIN_MOTION_FRACTION", "SAME_PLANE_TOLERANCE", "CLIP_TOLERANCE",
    "STOP_ON_SLOPE_TOLERANCE", "PARALLEL_TOLERANCE", "CAST_TOLERANCE", "CAST_ROUNDING",
    "REACH_ROUNDING",
    "SWEEP_RIM_TOLERANCE", "TOUCH_TOLERANCE", "GJK_TOLERANCE", "PLANE_PARALLEL_TOLERANCE",
    "SIMPLEX_FLAT_TOLERANCE", "AXIS_PARALLEL_SINE", "RAY_PARALLEL_SINE",
    "POLYGON_COLLINEAR_TOLERANCE", "POLYGON_TURNING_SLACK", "VEC_CLOSE_TOLERANCE",
    "EVENT_TOUCH_FRACTION", "RELATIVE_MOTION_TOLERANCE",
    "ROTATION_TOLERANCE", "HULL_TOLERANCE", "POLYTOPE_FEATURE_TOLERANCE",
    "TRIANGLE_AREA_TOLERANCE", "FLAT_EDGE_TOLERANCE", "PLANE_CULL_TOLERANCE",
    "SEGMENT_CULL_TOLERANCE",
}
CAPS = {
    "MAX_DEPTH", "GRID_MAX_DOUBLINGS", "SPECULATIVE_ITERATIONS",
    "SIMULATION_PASSES", "MAX_STEPS_PER_UPDATE", "MAX_CASTS_PER_STEP", "DEFAULT_MAX_SLIDES",
    "RECOVERY_PASSES", "CAST_MAX_ITERATIONS", "TOI_MAX_ITERATIONS", "GJK_MAX_ITERATIONS",
    "ADVANCE_MAX_BOUNCES", "RESOLVE_PASSES", "MAX_GRID_KEYS", "FILTER_KERNEL_TRIES", "MAX_THREADS",
    "SOLVER_ITERATIONS", "HULL_MAX_POINTS",
    "CLI_MAX_STEPS", "CLI_MAX_FRAMES", "CLI_MAX_SPEEDS", "SCENE_MAX_FILE_BYTES",
    "SCENE_MAX_NUMBER_CHARS", "SCENE_MAX_BODIES", "SHAPELY_MAX_QUAD_SEGMENTS",
    "TOUCHES_LOGGED_PER_STEP", "SURFACE_SEARCH_DOUBLINGS", "PUSH_SLIDES", "RAY_ORDER_MAX_SIDE",
    "MAX_MESH_TRIANGLES", "MAX_BODY_POLYGON_POINTS", "SIM_GRID_MAX_ENTRIES_PER_COLLIDER",
    "COMPILE_LOCK_MAX_POLLS",
}
# limits and overflow guards (absolute, large), and defaults and conventions
LIMITS = {"CENTROID_CLAMP", "AREA_EXTENT_CAP", "MAX_COORDINATE"}
OTHERS = {
    "COINCIDENT_NORMAL_2D", "COINCIDENT_NORMAL_3D", "DEFAULT_SKIN", "CACHE_MARGIN_FRACTION",
    "SIM_GRID_CELLS_PER_COLLIDER",
    "DEFAULT_FLOOR_MAX_ANGLE", "FLOOR_PROBE_SKINS",
    # the broadphase choice's thresholds (swept.broadphase)
    "BROADPHASE_GRID_MIN_COLLIDERS", "BROADPHASE_COLLIDERS_PER_CELL",
    "BROADPHASE_MAX_ENTRIES_PER_COLLIDER", "BROADPHASE_SMALL_CELLS", "BROADPHASE_MAX_OCCUPANCY",
    "BROADPHASE_OCCUPANCY_COLLIDERS_PER_CELL",
    "GRID_SUB_CROWDED", "GRID_SUB_PER_CELL", "GRID_SUB_MAX_SIDE", "GRID_SUB_GROWTH",
    # the order a batch casts its rays in (swept._kernels.world.spatial_order)
    "RAY_ORDER_PER_BUCKET", "RAY_GATHER_MIN_ROWS", "RAY_ORDER_MIN_COLLIDERS",
    # the Simulation's velocity solver: a contact's reach, the default restitution threshold
    "CONTACT_MARGIN_FRACTION", "RESTITUTION_THRESHOLD_STEPS", "CONTACT_SLOP_FRACTION",
    "POSITION_CORRECTION", "SOLVER_TOLERANCE_FRACTION", "SLEEP_TIME",
    "SLEEP_SPEED_STEPS", "SLEEP_DEPTH_FRACTION", "PATH_WAKE_BLOCK",
    # the moving colliders in the ray grid (swept._kernels.grid)
    "MOVING_GRID_COLLIDERS_PER_CELL", "MOVING_GRID_OUTSIDE", "MOVING_GRID_MARKS_PER_COLLIDER",
    "BROADPHASE_CLUSTER_COLLIDERS_PER_CELL", "BROADPHASE_MAX_CLUSTER_OCCUPANCY",
    "BROADPHASE_CLUSTER_GRID_MIN_COLLIDERS",
    # size thresholds for culling a chain's segments by box (test_world_chain)
    "CHAIN_BOXES_MIN_SEGMENTS", "CHAIN_RAY_BOXES_MIN_SEGMENTS",
    # the candidate margin of a tile map's queries (swept.level.tile_queries)
    "TILE_QUERY_MARGIN_FACTOR",
    # when a threaded Simulation step runs its passes as parallel calls (swept.sim)
    "SIM_PARALLEL_MIN",
    # drawn arcs' segments a turn (swept._draw)
    "DRAW_ARC_SEGMENTS",
    # the default polygon resolution of a circle in to_shapely (swept.interop)
    "SHAPELY_QUAD_SEGMENTS",
    # the order a mesh walks a ray batch in (swept._kernels.mesh.ray_order), its blocks and
    # the walks it keeps in flight
    "RAY_ORDER_BITS", "RAY_ORDER_MIN_RAYS", "RAY_BLOCK", "WALKS_IN_FLIGHT",
    # swept warmup's wait between two tries of a compile lock (swept._kernels.compile_locks)
    "COMPILE_LOCK_POLL_SECONDS",
    # which compiled callees are linked into their callers (swept._kernels.linking)
    "LINKED_CALLEE_MAX_INSTRUCTIONS",
    # a radix sort's digit (swept._kernels.order)
    "SORT_DIGIT_BITS",
}
# a module-level name with one of these endings is a tolerance or cap: constants.py's alone
RESERVED_SUFFIXES = ("_TOLERANCE", "_SLOP", "_MARGIN", "_ITERATIONS")
# status codes whose names happen to end so (data layout, not tolerances)
STATUS_CODES = {"CAST_OUT_OF_ITERATIONS"}


def _assigned_names(tree: ast.Module) -> list[tuple[str, int]]:
    """Module-level names bound by assignments, with their line numbers."""
    out = []
    for node in tree.body:
        targets: list[ast.expr] = []
        if isinstance(node, ast.Assign):
            targets = list(node.targets)
        elif isinstance(node, ast.AnnAssign):
            targets = [node.target]
        for t in targets:
            for n in ast.walk(t):
                if isinstance(n, ast.Name):
                    out.append((n.id, node.lineno))
    return out


CONSTANTS_TREE = ast.parse(CONSTANTS_SOURCE)
DEFINED = [(name, line) for name, line in _assigned_names(CONSTANTS_TREE) if UPPER.match(name)]
NAMES = [name for name, _ in DEFINED]


def test_no_constant_is_defined_twice() -> None:
    assert len(NAMES) == len(set(NAMES)), sorted(n for n in NAMES if NAMES.count(n) > 1)


def test_every_constant_is_in_all_and_all_has_nothing_else() -> None:
    assert sorted(constants.__all__) == sorted(NAMES)
    assert len(constants.__all__) == len(set(constants.__all__))


def test_every_constant_is_classified_once() -> None:
    groups = [TOLERANCES, CAPS, LIMITS, OTHERS]
    assert sum(len(g) for g in groups) == len(set().union(*groups))
    assert set().union(*groups) == set(NAMES)


@pytest.mark.parametrize("name, line", DEFINED)
def test_every_constant_has_a_comment_block_saying_whether_it_was_measured(name: str,
                                                                          line: int) -> None:
    lines = CONSTANTS_SOURCE.split("\n")
    block = []
    i = line - 2
    while i >= 0 and lines[i].startswith("#:"):
        block.append(lines[i][2:].strip())
        i -= 1
    text = " ".join(reversed(block))
    assert block, f"{name} has no #: comment above it"
    # the measurement that chose it, or a plain "not measured: chosen as ..."
    assert "measured" in text.lower(), f"{name}'s comment says nothing of a measurement"


@pytest.mark.parametrize("name", sorted(TOLERANCES))
def test_tolerances_are_positive_floats_below_one(name: str) -> None:
    value = getattr(constants, name)
    assert type(value) is float and 0.0 < value < 1.0


@pytest.mark.parametrize("name", sorted(CAPS))
def test_caps_are_positive_ints(name: str) -> None:
    value = getattr(constants, name)
    assert type(value) is int and value > 0


@pytest.mark.parametrize("name", sorted(LIMITS))
def test_limits_are_finite_and_leave_room_in_float64(name: str) -> None:
    value = getattr(constants, name)
    assert type(value) is float and constants.MAX_COORDINATE <= value <= 1e300


def _modules() -> list[Path]:
    return sorted(p for p in SRC.rglob("*.py") if p.name != "constants.py")


@pytest.mark.parametrize("path", _modules(), ids=lambda p: str(p.relative_to(SRC)))
def test_no_module_defines_a_tolerance_of_its_own(path: Path) -> None:
    tree = ast.parse(path.read_text())
    own = [name for name, _ in _assigned_names(tree)
           if name.endswith(RESERVED_SUFFIXES) and name not in STATUS_CODES]
    assert own == [], f"{path.name} defines {own}: they belong in swept.constants"


def test_module_aliases_are_the_constants() -> None:
    raycast, resolve, shapes, sim, step, toi, world, distance, sweep = (
        importlib.import_module(f"swept.{name}") for name in (
            "raycast", "resolve", "shapes", "sim", "step", "toi", "world", "_kernels.distance",
            "_kernels.sweep"))
    assert resolve.DEFAULT_PASSES == constants.RESOLVE_PASSES == 8
    assert sim.DEFAULT_PASSES == constants.SIMULATION_PASSES
    assert sim.MAX_CASTS_PER_STEP is step.MAX_CASTS_PER_STEP is constants.MAX_CASTS_PER_STEP
    assert world.BOX_MARGIN == constants.BOX_MARGIN
    assert world.CANDIDATE_MARGIN == constants.CANDIDATE_MARGIN
    assert shapes.POLYGON_COLLINEAR_TOLERANCE == constants.POLYGON_COLLINEAR_TOLERANCE
    assert toi.ADVANCE_MAX_BOUNCES == constants.ADVANCE_MAX_BOUNCES
    assert sweep.CAST_MAX_ITERATIONS == constants.CAST_MAX_ITERATIONS
    assert distance.GJK_MAX_ITERATIONS == constants.GJK_MAX_ITERATIONS
    assert raycast.RIM_TOLERANCE == constants.RIM_TOLERANCE


def test_defaults_are_the_named_constants() -> None:
    """Signatures whose defaults are named constants (vec cannot import constants, so its
    default is a literal that must agree). Modules by import_module: ``swept.resolve`` and
    others are also functions of the package."""
    response, toi = (importlib.import_module(f"swept.{n}") for n in ("response", "toi"))
    for method in (Vec2.is_close, Vec3.is_close):
        tol = inspect.signature(method).parameters["tol"].default
        assert tol == constants.VEC_CLOSE_TOLERANCE
    walk = inspect.signature(response.is_walkable).parameters["max_slope_degrees"]
    assert walk.default == constants.DEFAULT_FLOOR_MAX_ANGLE
    adv = inspect.signature(toi.advance).parameters["max_bounces"]
    assert adv.default == constants.ADVANCE_MAX_BOUNCES
    cap = inspect.signature(toi.time_of_impact).parameters["max_iterations"]
    assert cap.default == constants.TOI_MAX_ITERATIONS


def test_the_pair_grid_coarsens_enough_for_tiny_balls_far_apart() -> None:
    """The body-pair grid doubles its cell until the key span fits an int64, under the cap
    GRID_MAX_DOUBLINGS; with a cap of 200, balls of radius 1e-30 at +-1e49 (inside the
    coordinate range) ran out of doublings and step() raised on an overflowed key span."""
    import numpy as np

    from swept import Simulation

    sim = Simulation(gravity=(0.0, 0.0))
    # two balls 1.5 diameters apart at x = 1e49, one at -1e49; at rest, nothing touches
    centers = np.array([[-1e49, 0.0], [1e49, 0.0], [1e49, 3e-30]])
    sim.add_balls(centers, 1e-30)
    sim.step()
    assert sim.positions.tolist() == centers.tolist()
