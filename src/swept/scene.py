"""Scene files: circles moving for one step among planes and each other (seed 003's starter).

A scene is read from TOML (Python 3.11's ``tomllib``, or the ``tomli`` package on 3.10) or
JSON, checked, and run: each body is moved through its step by :func:`swept.toi.advance`, and
the report gives its time of impact (a fraction of the step), what it hits, and where it ends
the step and with what displacement. A scene file looks like this::

    name = "a ball dropped onto the floor"
    restitution = 1.0               # optional (default 1): 1 bounces fully, 0 slides

    [[planes]]
    name = "floor"                  # optional
    y = 0                           # seed 003's horizontal plane y = p, met from either side
    # or: normal = [0, 1] and offset = 0, a half-plane (solid where dot(normal, p) < offset)

    [[bodies]]
    name = "ball"                   # optional
    radius = 2
    position = [0, 10]
    displacement = [0, -30]         # its move over the whole step
    restitution = 0.5               # optional, this body's own

A file may hold several scenes instead, as ``[[scenes]]`` tables of the same keys. Each body is
advanced on its own: the planes and the other bodies are its obstacles, the bodies moving by
their own displacements as if nothing could push them. Anything malformed raises
:class:`SceneError`, naming the file, the place (``bodies[2].radius``) and what was expected.

Files are read with bounds: at most :data:`~swept.constants.SCENE_MAX_FILE_BYTES` (checked
before reading), number literals of at most :data:`~swept.constants.SCENE_MAX_NUMBER_CHARS`
characters (refused before Python converts them), numbers of magnitude at most
:data:`~swept.constants.MAX_COORDINATE`, and at most :data:`~swept.constants.SCENE_MAX_BODIES`
bodies and planes in the file, all its scenes together.
"""

from __future__ import annotations

import importlib
import json
import os
import re
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass
from pathlib import Path
from types import ModuleType
from typing import Any

from .constants import (
    MAX_COORDINATE,
    SCENE_MAX_BODIES,
    SCENE_MAX_FILE_BYTES,
    SCENE_MAX_NUMBER_CHARS,
)
from .shapes import Circle, Plane, Shape
from .toi import advance
from .vec import Vec2, as_finite

__all__ = [
    "DEFAULT_RESTITUTION",
    "DEFAULT_SCENE",
    "SceneError",
    "BodySpec",
    "PlaneSpec",
    "Scene",
    "Impact",
    "BodyResult",
    "parse_scenes",
    "load_scenes",
    "default_scenes",
    "run_scene",
    "format_scene",
    "report",
]

#: The restitution of a scene that does not give one: a full bounce, as seed 003's traces.
DEFAULT_RESTITUTION = 1.0

#: The scene ``swept scene`` runs with no file: seed 003's two worked traces.
DEFAULT_SCENE: dict[str, Any] = {
    "scenes": [
        {
            "name": "a ball dropped onto the floor (seed 003's first trace)",
            "restitution": 1.0,
            "planes": [{"name": "floor", "y": 0}],
            "bodies": [
                {"name": "ball", "radius": 2, "position": [0, 10], "displacement": [0, -30]},
            ],
        },
        {
            "name": "two balls meeting (seed 003's second trace)",
            "restitution": 1.0,
            "bodies": [
                {"name": "A", "radius": 1, "position": [0, 0], "displacement": [10, 0]},
                {"name": "B", "radius": 1, "position": [6, 0], "displacement": [-2, 0]},
            ],
        },
    ]
}

_SCENE_KEYS = ("name", "restitution", "planes", "bodies")
_BODY_KEYS = ("name", "radius", "position", "displacement", "restitution")
_PLANE_KEYS = ("name", "y", "normal", "offset")


class SceneError(ValueError):
    """A scene that cannot be read or is malformed: the file, the place in it, and what was
    expected there."""

    def __init__(self, source: str, place: str | None, message: str) -> None:
        #: the file (or ``<default scene>``)
        self.source = source
        #: where in the file, e.g. ``bodies[2].radius`` (None for the file as a whole)
        self.place = place
        #: what was wrong: what was expected, and what was found
        self.message = message
        super().__init__(f"{source}: {place}: {message}" if place else f"{source}: {message}")


@dataclass(frozen=True)
class BodySpec:
    """A moving circle of a scene."""

    #: its name in the report
    name: str
    #: its radius (>= 0)
    radius: float
    #: its centre at the start of the step
    position: Vec2
    #: its move over the whole step (velocity times dt)
    displacement: Vec2
    #: its own restitution, or None for the scene's
    restitution: float | None = None


@dataclass(frozen=True)
class PlaneSpec:
    """A plane of a scene: seed 003's horizontal plane ``y = p``, or a half-plane."""

    #: its name in the report
    name: str
    #: the height of seed 003's horizontal plane (met from either side), or None
    y: float | None = None
    #: a half-plane (solid where ``dot(normal, p) < offset``), or None
    plane: Plane | None = None

    @property
    def obstacle(self) -> float | Plane:
        """What :func:`swept.toi.advance` takes for it: a height, or the Plane."""
        if self.plane is not None:
            return self.plane
        return 0.0 if self.y is None else self.y

    def describe(self) -> str:
        """``plane y = 0`` or ``plane normal (0, 1) offset 0``."""
        if self.plane is not None:
            return (f"plane normal {_point(self.plane.normal)} offset "
                    f"{_num(self.plane.offset)}")
        return f"plane y = {_num(self.y or 0.0)}"


@dataclass(frozen=True)
class Scene:
    """A scene: bodies, planes and a restitution."""

    #: its name in the report
    name: str
    #: the moving circles
    bodies: tuple[BodySpec, ...]
    #: the planes
    planes: tuple[PlaneSpec, ...] = ()
    #: the restitution of every impact, unless a body has its own
    restitution: float = DEFAULT_RESTITUTION


@dataclass(frozen=True)
class Impact:
    """One impact a body met during its step."""

    #: when, as a fraction of the step
    fraction: float
    #: the name of what it hit
    target: str
    #: the unit normal there, out of the target toward the body
    normal: Vec2


@dataclass(frozen=True)
class BodyResult:
    """What one body did during its step."""

    #: the body
    body: BodySpec
    #: its first time of impact (fraction of the step), or None
    toi: float | None
    #: every impact it met, in order
    impacts: tuple[Impact, ...]
    #: its centre at the first impact, or None
    contact_center: Vec2 | None
    #: its centre at the end of the step
    center: Vec2
    #: its displacement for a whole step after the last impact
    displacement: Vec2


# ---------------------------------------------------------------------------------- checking

def _show(value: Any) -> str:
    """A found value, as the file would spell it."""
    try:
        return json.dumps(value)
    except (TypeError, ValueError):
        return repr(value)


def _shorten(text: str) -> str:
    """A found value's text, cut short if long (a 400-digit number)."""
    return text if len(text) <= 40 else f"{text[:24]}...{text[-8:]} ({len(text)} chars)"


def _at(prefix: str, key: str | int) -> str:
    """The place of ``key`` inside ``prefix``: ``bodies[2]``, ``bodies[2].radius``."""
    if isinstance(key, int):
        return f"{prefix}[{key}]"
    return f"{prefix}.{key}" if prefix else key


class _Checker:
    """Reads one source's data, raising :class:`SceneError` at the first thing malformed."""

    def __init__(self, source: str) -> None:
        self.source = source
        #: bodies and planes read so far, all scenes together
        self.objects = 0

    def fail(self, place: str | None, message: str) -> SceneError:
        return SceneError(self.source, place or None, message)

    def table(self, value: Any, place: str, allowed: Sequence[str]) -> Mapping[str, Any]:
        if not isinstance(value, Mapping):
            raise self.fail(place or "the file", f"expected a table with keys "
                                                 f"{', '.join(allowed)}; got "
                                                 f"{_shorten(_show(value))}")
        for key in value:
            if key not in allowed:
                raise self.fail(_at(place, str(key)),
                                f"unknown key (expected one of: {', '.join(allowed)})")
        return value

    def number(self, value: Any, place: str, *, minimum: float | None = None) -> float:
        expected = "a number" if minimum is None else f"a number >= {_num(minimum)}"
        if isinstance(value, _LongLiteral):  # refused unconverted
            raise self.fail(place, _long_literal_message(len(value.literal)))
        if isinstance(value, bool) or not isinstance(value, (int, float)):
            raise self.fail(place, f"expected {expected}, got {_show(value)}")
        try:
            # finite, within MAX_COORDINATE (a huge int gives ValueError, not OverflowError)
            x = as_finite(value, place)
        except ValueError:
            raise self.fail(place, f"expected {expected} of magnitude at most "
                                   f"{MAX_COORDINATE:g}, got {_shorten(_show(value))}") from None
        if minimum is not None and x < minimum:
            raise self.fail(place, f"expected {expected}, got {_show(value)}")
        return x

    def point(self, value: Any, place: str) -> Vec2:
        if (isinstance(value, (str, bytes)) or not isinstance(value, Sequence)
                or len(value) != 2):
            raise self.fail(place, f"expected two numbers [x, y], got {_show(value)}")
        return Vec2(self.number(value[0], _at(place, 0)), self.number(value[1], _at(place, 1)))

    def name(self, value: Any, place: str) -> str:
        if not isinstance(value, str) or not value.strip():
            raise self.fail(place, f"expected a name (text), got {_show(value)}")
        return value

    def items(self, value: Any, place: str, what: str) -> Sequence[Any]:
        if isinstance(value, (str, bytes, Mapping)) or not isinstance(value, Sequence):
            raise self.fail(place, f"expected a list of {what}, got {_shorten(_show(value))}")
        return value

    def count(self, items: Sequence[Any], place: str) -> None:
        """Count bodies or planes against :data:`SCENE_MAX_BODIES` (the work grows as the
        square of the bodies)."""
        self.objects += len(items)
        if self.objects > SCENE_MAX_BODIES:
            raise self.fail(place, f"too many bodies and planes: at most "
                                   f"{SCENE_MAX_BODIES:,} in a file, all scenes together")

    def required(self, table: Mapping[str, Any], key: str, place: str, what: str) -> Any:
        if key not in table:
            raise self.fail(place or None, f"missing {key!r} ({what})")
        return table[key]

    def body(self, value: Any, place: str, index: int) -> BodySpec:
        t = self.table(value, place, _BODY_KEYS)
        name = self.name(t["name"], _at(place, "name")) if "name" in t else f"body {index + 1}"
        radius = self.number(self.required(t, "radius", place, "a number >= 0"),
                             _at(place, "radius"), minimum=0.0)
        position = self.point(self.required(t, "position", place, "two numbers [x, y]"),
                              _at(place, "position"))
        displacement = self.point(
            self.required(t, "displacement", place, "two numbers [x, y], the step's move"),
            _at(place, "displacement"))
        restitution = (self.number(t["restitution"], _at(place, "restitution"), minimum=0.0)
                       if "restitution" in t else None)
        return BodySpec(name, radius, position, displacement, restitution)

    def plane(self, value: Any, place: str, index: int) -> PlaneSpec:
        t = self.table(value, place, _PLANE_KEYS)
        name = self.name(t["name"], _at(place, "name")) if "name" in t else f"plane {index + 1}"
        has_y = "y" in t
        has_half = "normal" in t or "offset" in t
        if has_y == has_half:
            raise self.fail(place, "expected either y (a horizontal plane y = p) or normal "
                                   "and offset (a half-plane), not " +
                                   ("both" if has_y else "neither"))
        if has_y:
            return PlaneSpec(name, y=self.number(t["y"], _at(place, "y")))
        normal = self.point(self.required(t, "normal", place, "two numbers [x, y]"),
                            _at(place, "normal"))
        if normal.length() == 0.0:
            raise self.fail(_at(place, "normal"), "expected a nonzero normal, got [0, 0]")
        offset = self.number(self.required(t, "offset", place, "a number"),
                             _at(place, "offset"))
        return PlaneSpec(name, plane=Plane(normal, offset))

    def scene(self, value: Any, place: str, default_name: str) -> Scene:
        t = self.table(value, place, _SCENE_KEYS)
        name = self.name(t["name"], _at(place, "name")) if "name" in t else default_name
        restitution = (self.number(t["restitution"], _at(place, "restitution"), minimum=0.0)
                       if "restitution" in t else DEFAULT_RESTITUTION)
        raw_bodies = self.items(self.required(t, "bodies", place, "a list of bodies"),
                                _at(place, "bodies"), "bodies")
        if not raw_bodies:
            raise self.fail(_at(place, "bodies"), "expected at least one body, got none")
        self.count(raw_bodies, _at(place, "bodies"))
        bodies = tuple(self.body(b, _at(_at(place, "bodies"), i), i)
                       for i, b in enumerate(raw_bodies))
        raw_planes = self.items(t.get("planes", []), _at(place, "planes"), "planes")
        self.count(raw_planes, _at(place, "planes"))
        planes = tuple(self.plane(p, _at(_at(place, "planes"), i), i)
                       for i, p in enumerate(raw_planes))
        return Scene(name, bodies, planes, restitution)


def parse_scenes(data: Any, source: str = "<scene>") -> list[Scene]:
    """The scenes in already-parsed data (a TOML table or a JSON object): one scene at the
    top level, or several under ``scenes``. Raises :class:`SceneError` if malformed."""
    check = _Checker(source)
    stem = Path(source).stem if source and not source.startswith("<") else "scene"
    if isinstance(data, Mapping) and "scenes" in data:
        extra = [k for k in data if k != "scenes"]
        if extra:
            raise check.fail(str(extra[0]), "unknown key next to 'scenes' (put it inside each "
                                            "scene)")
        raw = check.items(data["scenes"], "scenes", "scenes")
        if not raw:
            raise check.fail("scenes", "expected at least one scene, got none")
        return [check.scene(s, f"scenes[{i}]", f"{stem} {i + 1}") for i, s in enumerate(raw)]
    if not isinstance(data, Mapping):
        raise check.fail(None, f"expected a table of scene keys at the top, got "
                                f"{_shorten(_show(data))}")
    return [check.scene(data, "", stem)]


def _toml() -> ModuleType | None:
    """The TOML reader: ``tomllib`` (3.11+), else ``tomli`` if installed, else None."""
    for name in ("tomllib", "tomli"):
        try:
            return importlib.import_module(name)
        except ModuleNotFoundError:
            continue
    return None


class _LongLiteral:
    """A number literal longer than :data:`SCENE_MAX_NUMBER_CHARS`, left unconverted by the
    parse hooks; the checks refuse it at its place (``bodies[0].radius``)."""

    __slots__ = ("literal",)

    def __init__(self, literal: str) -> None:
        self.literal = literal

    def __repr__(self) -> str:
        return _shorten(self.literal)


def _long_literal_message(length: int) -> str:
    """What is wrong with a number literal ``length`` characters long."""
    return (f"a number {length:,} characters long: expected at most {SCENE_MAX_NUMBER_CHARS} "
            f"(numbers of magnitude at most {MAX_COORDINATE:g})")


def _bounded(convert: Callable[[str], Any]) -> Callable[[str], Any]:
    """A parse hook: ``convert(literal)``, unless the literal is too long to be a number of a
    scene (then a :class:`_LongLiteral`, never converted)."""
    def hook(literal: str) -> Any:
        if len(literal) > SCENE_MAX_NUMBER_CHARS:
            return _LongLiteral(literal)
        return convert(literal)
    return hook


def _long_toml_number(text: str) -> str | None:
    """The first number literal of a TOML text longer than :data:`SCENE_MAX_NUMBER_CHARS`,
    found by one linear scan: a long run of digits (and ``_ . e E + -``) that starts outside
    any string and comment of its line. None if there is none (a long run inside a multi-line
    string is left to tomllib, which reads it within the file's size cap)."""
    pattern = rf"[+\-]?[0-9][0-9_.eE+\-]{{{SCENE_MAX_NUMBER_CHARS},}}"
    for found in re.finditer(pattern, text):
        before = text[text.rfind("\n", 0, found.start()) + 1:found.start()]
        if before.count('"') % 2 == 0 and before.count("'") % 2 == 0 and "#" not in before:
            return found.group()
    return None


def _line_column(text: str, index: int) -> str:
    """``line L, column C`` of ``text[index]`` (both from 1)."""
    line = text.count("\n", 0, index) + 1
    column = index - (text.rfind("\n", 0, index) + 1) + 1
    return f"line {line}, column {column}"


def _huge_number(source: str, text: str, literal: str | None) -> SceneError:
    """The error for a number literal too long to read, at its place in ``text``."""
    if literal is None:  # tomllib's int(): find the first long run of digits
        found = re.search(rf"[0-9_]{{{SCENE_MAX_NUMBER_CHARS + 1},}}", text)
        index, length = (found.start(), found.end() - found.start()) if found else (-1, 0)
    else:
        index, length = text.find(literal), len(literal)
    place = _line_column(text, index) if index >= 0 else None
    return SceneError(source, place, _long_literal_message(length))


def load_scenes(path: str | os.PathLike[str]) -> list[Scene]:
    """Read and check the scenes of a ``.toml`` or ``.json`` file.

    Raises :class:`SceneError` naming the file for anything wrong: unreadable, larger than
    :data:`~swept.constants.SCENE_MAX_FILE_BYTES`, not TOML or JSON, a number literal longer
    than :data:`~swept.constants.SCENE_MAX_NUMBER_CHARS`, nested too deeply, or malformed
    (with the place and what was expected).
    """
    source = os.fspath(path)
    suffix = Path(source).suffix.lower()
    if suffix not in (".toml", ".json"):
        raise SceneError(source, None, "expected a .toml or .json scene file")
    try:
        with open(source, "rb") as f:
            # the size first: a huge file is refused before it is read
            size = os.fstat(f.fileno()).st_size
            if size > SCENE_MAX_FILE_BYTES:
                raise SceneError(source, None, f"the file is {size:,} bytes: expected at most "
                                               f"{SCENE_MAX_FILE_BYTES:,}")
            raw = f.read(SCENE_MAX_FILE_BYTES + 1)
    except OSError as exc:
        raise SceneError(source, None, f"cannot read the file ({exc.strerror or exc})") from None
    if len(raw) > SCENE_MAX_FILE_BYTES:  # grew, or not a regular file
        raise SceneError(source, None, f"the file is over {SCENE_MAX_FILE_BYTES:,} bytes")
    try:
        text = raw.decode("utf-8")
    except UnicodeDecodeError:
        raise SceneError(source, None, "expected UTF-8 text") from None
    if suffix == ".json":
        try:
            data = json.loads(text, parse_int=_bounded(int), parse_float=_bounded(float))
        except json.JSONDecodeError as exc:
            raise SceneError(source, f"line {exc.lineno}, column {exc.colno}",
                             f"not valid JSON: {exc.msg}") from None
        except RecursionError:
            raise SceneError(source, None, "not a scene: nested too deeply") from None
    else:
        toml = _toml()
        if toml is None:
            raise SceneError(source, None, "reading TOML needs Python 3.11 or newer (tomllib) "
                                           "or the tomli package; write the scene as .json")
        literal = _long_toml_number(text)
        if literal is not None:
            # refused before tomllib reads it (15 MB of digits took it 2 GB of memory)
            raise _huge_number(source, text, literal)
        try:
            data = toml.loads(text, parse_float=_bounded(float))
        except toml.TOMLDecodeError as exc:
            raise SceneError(source, None, f"not valid TOML: {exc}") from None
        except RecursionError:
            raise SceneError(source, None, "not a scene: nested too deeply") from None
        except ValueError:
            # Python refuses int() of over 4,300 digits (tomllib has no parse_int hook)
            raise _huge_number(source, text, None) from None
    return parse_scenes(data, source)


def default_scenes() -> list[Scene]:
    """The scenes ``swept scene`` runs with no file: seed 003's two worked traces."""
    return parse_scenes(DEFAULT_SCENE, "<default scene>")


# ----------------------------------------------------------------------------------- running

def run_scene(scene: Scene,
              progress: Callable[[int], None] | None = None) -> list[BodyResult]:
    """Advance each body through its step among the planes and the other bodies;
    ``progress(bodies_done)`` is called after each body, if given. Raises ValueError naming
    the scene and the body if an advance leaves the supported range."""
    results = []
    for i, body in enumerate(scene.bodies):
        obstacles: list[Any] = []
        names: list[str] = []
        for plane in scene.planes:
            obstacles.append(plane.obstacle)
            names.append(f"{plane.name} ({plane.describe()})")
        for j, other in enumerate(scene.bodies):
            if j != i:
                moving: tuple[Shape, Vec2] = (Circle(other.position, other.radius),
                                              other.displacement)
                obstacles.append(moving)
                names.append(other.name)
        e = scene.restitution if body.restitution is None else body.restitution
        try:
            step = advance(body.position, body.radius, body.displacement, obstacles, e)
        except ValueError as exc:  # a bounce that leaves the supported range
            raise ValueError(f"scene {scene.name!r}, body {body.name!r}: cannot advance it: "
                             f"{exc}") from None
        impacts = tuple(Impact(t, names[k], n) for t, k, n in step.hits)
        at = body.position + body.displacement * step.toi if step.toi is not None else None
        results.append(BodyResult(body, step.toi, impacts, at, step.center, step.displacement))
        if progress is not None:
            progress(i + 1)
    return results


def _num(x: float) -> str:
    """A coordinate: up to four decimals, no trailing zeros, never "-0"."""
    text = f"{x:.4f}".rstrip("0").rstrip(".")
    return "0" if text in ("-0", "") else text


def _point(p: Sequence[float]) -> str:
    """``(x, y)`` with :func:`_num`'s digits."""
    return f"({_num(p[0])}, {_num(p[1])})"


def format_scene(scene: Scene, results: Sequence[BodyResult]) -> list[str]:
    """The report's lines for one scene."""
    lines = [f"scene: {scene.name} (restitution {_num(scene.restitution)})"]
    if len(scene.bodies) > 1:
        lines.append("  (each body advances on its own; the others keep their own motion)")
    for r in results:
        b = r.body
        own = f", restitution {_num(b.restitution)}" if b.restitution is not None else ""
        lines.append(f"  {b.name}: radius {_num(b.radius)} at {_point(b.position)}, moving "
                     f"{_point(b.displacement)} this step{own}")
        if r.toi is None or not r.impacts or r.contact_center is None:
            lines.append("    no impact this step")
        else:
            first = r.impacts[0]
            lines.append(f"    time of impact {r.toi:.4f}: hits {first.target} with its centre "
                         f"at {_point(r.contact_center)}, normal {_point(first.normal)}")
            for hit in r.impacts[1:]:
                lines.append(f"    then at {hit.fraction:.4f}: hits {hit.target}, normal "
                             f"{_point(hit.normal)}")
        lines.append(f"    after advance: centre {_point(r.center)}, displacement "
                     f"{_point(r.displacement)}")
    return lines


def report(scenes: Sequence[Scene],
           progress: Callable[[int], None] | None = None) -> str:
    """The whole report: every scene run, one block each; ``progress(bodies_done)`` is called
    after each body, all scenes together, if given."""
    blocks = []
    done = 0
    for scene in scenes:
        def advanced(n: int, before: int = done) -> None:
            if progress is not None:
                progress(before + n)
        blocks.append("\n".join(format_scene(scene, run_scene(scene, advanced))))
        done += len(scene.bodies)
    return "\n\n".join(blocks)
