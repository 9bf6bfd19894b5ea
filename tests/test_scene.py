"""Scene files (seed 003's starter): reading, checking, running and reporting.

A scene is circles with a radius, a position and a displacement for the step, planes, and a
restitution. Each body is advanced through its step by ``advance``; the report gives its time
of impact, what it hits and its state after. A malformed file is one clear error naming the
file, the place and what was expected.
"""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from swept.scene import (
    DEFAULT_SCENE,
    BodySpec,
    PlaneSpec,
    Scene,
    SceneError,
    default_scenes,
    format_scene,
    load_scenes,
    parse_scenes,
    report,
    run_scene,
)
from swept.shapes import Plane
from swept.vec import Vec2

DROP = {
    "name": "drop",
    "planes": [{"name": "floor", "y": 0}],
    "bodies": [{"name": "ball", "radius": 2, "position": [0, 10], "displacement": [0, -30]}],
}

TOML = """
name = "drop"
restitution = 1.0

[[planes]]
name = "floor"
y = 0

[[bodies]]
name = "ball"
radius = 2
position = [0, 10]
displacement = [0, -30]
"""


def test_the_default_scene_is_seed_003s_two_traces() -> None:
    drop, meet = default_scenes()
    (ball,) = run_scene(drop)
    assert ball.toi == pytest.approx(8.0 / 30.0)  # (0 + 2 - 10) / -30 = 0.2667
    assert ball.impacts[0].target == "floor (plane y = 0)"
    assert ball.contact_center == pytest.approx((0.0, 2.0))
    # bounced at 0.2667 and spent the rest of the step going up: 2 + 30 * 0.7333 = 24
    assert ball.center == pytest.approx((0.0, 24.0))
    assert ball.displacement == pytest.approx((0.0, 30.0))
    a, b = run_scene(meet)
    assert a.toi == pytest.approx(1.0 / 3.0) and b.toi == pytest.approx(1.0 / 3.0)
    assert a.impacts[0].target == "B" and b.impacts[0].target == "A"
    assert a.contact_center == pytest.approx((10.0 / 3.0, 0.0))
    assert b.contact_center == pytest.approx((16.0 / 3.0, 0.0))


def test_the_default_report_prints_the_traces_figures() -> None:
    text = report(default_scenes())
    assert "time of impact 0.2667: hits floor (plane y = 0)" in text
    assert text.count("time of impact 0.3333") == 2
    assert "after advance: centre (0, 24), displacement (0, 30)" in text


def test_toml_and_json_files_read_the_same(tmp_path: Path) -> None:
    toml_file = tmp_path / "drop.toml"
    toml_file.write_text(TOML)
    json_file = tmp_path / "drop.json"
    json_file.write_text(json.dumps(DROP))
    assert load_scenes(toml_file) == load_scenes(json_file) == parse_scenes(DROP)


def test_several_scenes_under_scenes(tmp_path: Path) -> None:
    path = tmp_path / "two.json"
    path.write_text(json.dumps(DEFAULT_SCENE))
    assert load_scenes(path) == default_scenes()


def test_defaults_names_and_restitution() -> None:
    (scene,) = parse_scenes({"bodies": [{"radius": 1, "position": [0, 0],
                                         "displacement": [1, 0]}]}, "x/my_scene.json")
    assert scene.name == "my_scene"
    assert scene.bodies[0].name == "body 1"
    assert scene.restitution == 1.0 and scene.planes == ()
    assert format_scene(scene, run_scene(scene))[-2] == "    no impact this step"


def test_a_half_plane_and_a_body_restitution() -> None:
    scene = Scene("slope", (BodySpec("b", 1.0, Vec2(0.0, 5.0), Vec2(0.0, -10.0), 0.5),),
                  (PlaneSpec("ground", plane=Plane((0.0, 1.0), 0.0)),))
    (r,) = run_scene(scene)
    assert r.toi == pytest.approx(0.4)
    assert r.displacement == pytest.approx((0.0, 5.0))
    assert r.center == pytest.approx((0.0, 1.0 + 5.0 * 0.6))
    assert "hits ground (plane normal (0, 1) offset 0)" in "\n".join(format_scene(scene, [r]))


def test_the_fast_body_stops_at_the_floor_instead_of_tunneling() -> None:
    scene = parse_scenes({"planes": [{"y": 0}], "bodies": [
        {"radius": 1, "position": [0, 2], "displacement": [0, -500]}]})[0]
    (r,) = run_scene(scene)
    assert r.toi == pytest.approx(1.0 / 500.0)
    assert r.center.y > 0.0


# ------------------------------------------------------------------------------- bad files

def _error(data: object) -> str:
    with pytest.raises(SceneError) as info:
        parse_scenes(data, "scene.json")
    return str(info.value)


@pytest.mark.parametrize(("radius", "got"), [(-1, "got -1"), ("two", 'got "two"'),
                                             (True, "got true"), (None, "got null")])
def test_a_bad_radius_names_the_file_the_place_and_what_was_expected(radius: object,
                                                                     got: str) -> None:
    bodies = [dict(DROP["bodies"][0]) for _ in range(3)]
    bodies[2]["radius"] = radius
    message = _error({"bodies": bodies})
    assert message == f"scene.json: bodies[2].radius: expected a number >= 0, {got}"


def test_a_missing_key_is_named() -> None:
    message = _error({"bodies": [{"radius": 1, "position": [0, 0]}]})
    assert message == "scene.json: bodies[0]: missing 'displacement' (two numbers [x, y], the " \
                      "step's move)"


def test_an_unknown_key_is_named_with_the_keys_expected() -> None:
    message = _error({"bodies": [{"radios": 1, "position": [0, 0], "displacement": [0, 0]}]})
    assert message.startswith("scene.json: bodies[0].radios: unknown key (expected one of: ")


@pytest.mark.parametrize(("value", "place"), [([1], "bodies[0].position"),
                                              ("0, 0", "bodies[0].position"),
                                              ([0, "y"], "bodies[0].position[1]"),
                                              ([0, float("nan")], "bodies[0].position[1]")])
def test_a_bad_point(value: object, place: str) -> None:
    message = _error({"bodies": [{"radius": 1, "position": value, "displacement": [0, 0]}]})
    assert message.startswith(f"scene.json: {place}: expected ")


def test_bad_planes() -> None:
    body = DROP["bodies"]
    assert "planes[0]: expected either y" in _error({"bodies": body, "planes": [
        {"y": 0, "normal": [0, 1], "offset": 0}]})
    assert "planes[0]: expected either y" in _error({"bodies": body, "planes": [{}]})
    assert "planes[0].normal: expected a nonzero normal" in _error({"bodies": body, "planes": [
        {"normal": [0, 0], "offset": 0}]})
    assert "planes: expected a list of planes" in _error({"bodies": body, "planes": 3})


def test_bad_tops() -> None:
    assert _error([1, 2]).startswith("scene.json: expected a table of scene keys at the top")
    assert _error({}) == "scene.json: missing 'bodies' (a list of bodies)"
    assert _error({"bodies": []}) == "scene.json: bodies: expected at least one body, got none"
    assert _error({"scenes": [DROP, {"bodies": [{"radius": -2}]}]}).startswith(
        "scene.json: scenes[1].bodies[0].radius: expected a number >= 0")
    assert "restitution: expected a number >= 0" in _error({**DROP, "restitution": -0.5})


def test_file_errors(tmp_path: Path) -> None:
    missing = tmp_path / "missing.toml"
    with pytest.raises(SceneError, match=r"missing\.toml: cannot read the file"):
        load_scenes(missing)
    other = tmp_path / "scene.yaml"
    other.write_text("x")
    with pytest.raises(SceneError, match=r"scene\.yaml: expected a \.toml or \.json"):
        load_scenes(other)
    broken = tmp_path / "broken.toml"
    broken.write_text("[[bodies]]\nradius = \n")
    with pytest.raises(SceneError, match=r"broken\.toml: not valid TOML: .*line 2"):
        load_scenes(broken)
    bad_json = tmp_path / "bad.json"
    bad_json.write_text('{"bodies": [}')
    with pytest.raises(SceneError, match=r"bad\.json: line 1, column 13: not valid JSON"):
        load_scenes(bad_json)
    binary = tmp_path / "binary.json"
    binary.write_bytes(b"\xff\xfe\x00")
    with pytest.raises(SceneError, match="UTF-8"):
        load_scenes(binary)


def test_toml_needs_a_reader_on_310(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    import swept.scene as scene_module

    monkeypatch.setattr(scene_module, "_toml", lambda: None)
    path = tmp_path / "drop.toml"
    path.write_text(TOML)
    with pytest.raises(SceneError, match=r"drop\.toml: reading TOML needs Python 3\.11"):
        load_scenes(path)
    json_path = tmp_path / "drop.json"
    json_path.write_text(json.dumps(DROP))
    assert load_scenes(json_path)
