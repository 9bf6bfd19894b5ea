"""The fresh-ray benchmark (``benchmarks/bench_fresh_rays.py``) casts a new ray set each fresh
round and reports figures consistent with its own timings."""

from __future__ import annotations

import math

import numpy as np
import pytest

from shared import bench_script

bench = bench_script("bench_fresh_rays", "swept_bench_fresh_rays")


def test_fresh_sets_are_new_rays() -> None:
    """Each salt gives the scene a ray set of its own (a fresh round repeats no ray)."""
    scene = bench.scenes.make_scene("uniform", 50)
    sets = [bench.scenes.rays(scene, 20, salt) for salt in range(bench.SETS)]
    origins = np.concatenate([o for o, _d, _t in sets])
    assert len(np.unique(origins, axis=0)) == 20 * bench.SETS


def test_a_scene_row_holds_its_ratios() -> None:
    """A scene's row: positive times, the World's fresh over repeated time as its two medians'
    quotient, pymunk's ratios as theirs (NaN without pymunk, a benchmark extra)."""
    row = bench.bench_scene("uniform", 300, 2)
    assert row["scene"] == "uniform" and row["colliders"] == 300 and row["rounds"] == 2
    for key in ("world_fresh_us", "world_repeated_us", "world_best_us"):
        assert row[key] > 0.0
    assert row["world_best_us"] <= row["world_repeated_us"]
    assert row["world_fresh_vs_repeated"] == row["world_fresh_us"] / row["world_repeated_us"]
    if "pymunk_fresh_us" in row:
        assert row["pymunk_vs_world_fresh"] == row["pymunk_fresh_us"] / row["world_fresh_us"]
    else:
        assert math.isnan(row["pymunk_vs_world_fresh"])


def test_the_summary_line_gives_the_ranges(capsys: pytest.CaptureFixture[str]) -> None:
    """``print_table`` (``swept bench``'s hook) prints the ranges of the rows' ratios, and
    leaves pymunk's out when no row has it."""
    rows = [{"world_fresh_vs_repeated": 1.5, "pymunk_vs_world_fresh": 12.0},
            {"world_fresh_vs_repeated": 2.25, "pymunk_vs_world_fresh": 30.5}]
    bench.print_table({"scenes": rows})
    assert capsys.readouterr().out == ("the World's fresh / repeated time 1.50-2.25; pymunk / "
                                       "World on fresh rays 12.0-30.5x\n")
    bench.print_table({"scenes": [{"world_fresh_vs_repeated": 1.25,
                                   "pymunk_vs_world_fresh": math.nan}]})
    assert capsys.readouterr().out == "the World's fresh / repeated time 1.25-1.25\n"
