"""The ``swept`` command: ``swept demo NAME``, ``swept scene [FILE]``, ``swept tunneling``
and ``swept bench``.

Every subcommand returns an exit status: 0 for success, 2 for bad input (a usage error, a
malformed scene file, a missing optional dependency). pygame-ce and matplotlib are imported
only by the subcommands that draw, so the rest work without them.
"""

from __future__ import annotations

import argparse
import importlib
import os
import re
import sys
import threading
import time
from collections.abc import Callable, Sequence
from pathlib import Path
from types import TracebackType
from typing import Any, NoReturn, TextIO

from .constants import (
    CLI_MAX_FRAMES,
    CLI_MAX_SPEEDS,
    CLI_MAX_STEPS,
    SCENE_MAX_BODIES,
    SCENE_MAX_FILE_BYTES,
)

__all__ = ["main", "build_parser", "TunnelingRow", "tunneling_table", "DEFAULT_TUNNELING_STEPS",
           "Parser", "UsageError", "Progress", "Heartbeat", "check_writable"]

#: The exit status for bad input.
EXIT_USAGE = 2
#: Fixed steps each speed runs for in ``swept tunneling`` (a minute of the demo).
DEFAULT_TUNNELING_STEPS = 3600
#: Work that has run longer than this (s) starts showing progress on stderr.
PROGRESS_AFTER = 1.0
#: Seconds between two progress lines.
PROGRESS_EVERY = 1.0
#: Steps a demo model takes between two looks at the clock (a few ms of work).
STEPS_PER_CHUNK = 50
#: The file types ``--screenshot`` writes (pygame-ce picks the format from the name).
SCREENSHOT_SUFFIXES = (".png",)
#: The file types ``--plot`` writes (matplotlib's Agg backend, with no extra package).
PLOT_SUFFIXES = (".png", ".pdf", ".svg")


class CommandError(Exception):
    """Bad input found while running a subcommand: printed as one line, exit status 2."""


class UsageError(Exception):
    """A bad command line, found while parsing: ``PROG: error: MESSAGE`` on one line, exit
    status 2."""

    def __init__(self, prog: str, message: str) -> None:
        #: the (sub)command, e.g. ``swept demo bullet-time``
        self.prog = prog
        #: what was wrong, naming the flag
        self.message = " ".join(message.split())
        super().__init__(f"{prog}: error: {self.message}")


class Parser(argparse.ArgumentParser):
    """An argument parser whose errors raise :class:`UsageError` instead of printing the usage
    and exiting, so every bad command line is one line on stderr."""

    def error(self, message: str) -> NoReturn:
        """Raise :class:`UsageError` (argparse calls this for every usage error)."""
        raise UsageError(self.prog, message)


def check_writable(path: str | os.PathLike[str]) -> Path:
    """Check, before any long work, that ``path`` can be written: its folder exists and a file
    can be opened there for writing (an existing file is left as it was, a new one removed).
    Raises :class:`argparse.ArgumentTypeError` saying why not."""
    p = Path(path)
    if str(path) == "" or p.is_dir():
        raise argparse.ArgumentTypeError(f"cannot write {str(path)!r}: it is a folder")
    folder = p.parent
    if not folder.is_dir():
        raise argparse.ArgumentTypeError(f"cannot write {str(path)!r}: the folder "
                                         f"{str(folder)!r} does not exist")
    existed = p.exists()
    try:
        with open(p, "ab"):
            pass
    except OSError as exc:
        raise argparse.ArgumentTypeError(f"cannot write {str(path)!r} "
                                         f"({exc.strerror or exc})") from None
    if not existed:
        p.unlink(missing_ok=True)
    return p


def _output(suffixes: Sequence[str]) -> Callable[[str], str]:
    """An argparse type: an output file of one of ``suffixes`` that can be written."""
    def parse(text: str) -> str:
        if Path(text).suffix.lower() not in suffixes:
            raise argparse.ArgumentTypeError(
                f"cannot write {text!r}: the name must end in {' or '.join(suffixes)}")
        check_writable(text)
        return text
    return parse


class Progress:
    """Progress of counted work on stderr: nothing for the first :data:`PROGRESS_AFTER`
    seconds, then, on a terminal with tqdm installed (the ``progress`` extra), a tqdm bar;
    otherwise (logs, CI, no tqdm) a line ``swept: LABEL: DONE/TOTAL UNIT (P%), S s`` every
    :data:`PROGRESS_EVERY` seconds and a last line when it ends."""

    def __init__(self, label: str, total: int, unit: str,
                 stream: TextIO | None = None) -> None:
        self.label = label
        self.total = max(int(total), 1)
        self.unit = unit
        self.stream = sys.stderr if stream is None else stream
        self.started = time.perf_counter()
        self.last = float("-inf")
        #: whether a line has been shown
        self.shown = False
        #: the count of the last line shown
        self.last_done = -1
        #: the tqdm bar on a terminal (None: lines)
        self.bar: Any = _tqdm_bar(label, self.total, unit, self.stream)

    def _line(self, done: int, now: float) -> None:
        pct = 100 * done // self.total
        self.stream.write(f"swept: {self.label}: {done:,}/{self.total:,} {self.unit} "
                          f"({pct}%), {now - self.started:.0f} s\n")
        self.stream.flush()
        self.shown = True
        self.last = now
        self.last_done = done

    def update(self, done: int) -> None:
        """Say that ``done`` of the total are done (a line only when it is time for one)."""
        if self.bar is not None:
            self.bar.update(done - self.bar.n)
            return
        now = time.perf_counter()
        if now - self.started >= PROGRESS_AFTER and now - self.last >= PROGRESS_EVERY:
            self._line(done, now)

    def close(self, complete: bool = True) -> None:
        """End: a last line, if any line was shown (or the bar closed). ``complete=False``:
        the work stopped on an error, so no line claims it all done."""
        if self.bar is not None:
            if complete:
                self.bar.update(self.total - self.bar.n)
            self.bar.close()
            return
        if complete and self.shown and self.last_done != self.total:
            self._line(self.total, time.perf_counter())


def _tqdm_bar(label: str, total: int, unit: str, stream: TextIO) -> Any:
    """A tqdm bar for ``stream`` when it is a terminal and tqdm is installed, else None
    (progress lines: a bar redrawn with carriage returns garbles a log)."""
    isatty = getattr(stream, "isatty", None)
    if isatty is None or not isatty():
        return None
    try:
        from tqdm import tqdm
    except ImportError:
        return None
    return tqdm(total=total, desc=f"swept: {label}", unit=f" {unit}", file=stream,
                delay=PROGRESS_AFTER, mininterval=PROGRESS_EVERY / 4, leave=True)


class Heartbeat:
    """For work that cannot count itself (a benchmark script): while the ``with`` block runs,
    a line ``swept: LABEL: still running, S s`` on stderr every ``every`` seconds."""

    def __init__(self, label: str, every: float = 2.0, stream: TextIO | None = None) -> None:
        self.label = label
        self.every = every
        self.stream = sys.stderr if stream is None else stream
        self._stop = threading.Event()
        self._thread = threading.Thread(target=self._beat, daemon=True)

    def _beat(self) -> None:
        started = time.perf_counter()
        while not self._stop.wait(self.every):
            self.stream.write(f"swept: {self.label}: still running, "
                              f"{time.perf_counter() - started:.0f} s\n")
            self.stream.flush()

    def __enter__(self) -> Heartbeat:
        self._thread.start()
        return self

    def __exit__(self, kind: type[BaseException] | None, exc: BaseException | None,
                 tb: TracebackType | None) -> None:
        self._stop.set()
        self._thread.join()


# ---------------------------------------------------------------------------------- helpers

def _point(text: str) -> tuple[float, float]:
    """``X,Y`` as two finite numbers (argparse type)."""
    parts = text.replace(" ", "").split(",")
    try:
        if len(parts) != 2:
            raise ValueError
        x, y = float(parts[0]), float(parts[1])
    except ValueError:
        raise argparse.ArgumentTypeError(f"expected X,Y (two numbers), got {text!r}") from None
    if x != x or y != y or abs(x) == float("inf") or abs(y) == float("inf"):
        raise argparse.ArgumentTypeError(f"expected two finite numbers, got {text!r}")
    return x, y


def _whole(minimum: int, maximum: int) -> Callable[[str], int]:
    """An argparse type: a whole number from ``minimum`` to ``maximum``."""
    def parse(text: str) -> int:
        # a bounded literal first: int() of a huge one is slow or refused
        if not re.fullmatch(r"\s*[+-]?\d{1,30}\s*", text):
            raise argparse.ArgumentTypeError(f"expected a whole number, got {text!r}")
        n = int(text)
        if not minimum <= n <= maximum:
            raise argparse.ArgumentTypeError(f"expected a whole number from {minimum:,} to "
                                             f"{maximum:,}, got {n:,}")
        return n
    return parse


def _within(low: float, high: float) -> Callable[[str], float]:
    """An argparse type: a number from ``low`` to ``high``."""
    def parse(text: str) -> float:
        try:
            x = float(text)
        except ValueError:
            raise argparse.ArgumentTypeError(f"expected a number, got {text!r}") from None
        if not low <= x <= high:
            raise argparse.ArgumentTypeError(f"expected a number from {low:g} to {high:g}, "
                                             f"got {text}")
        return x
    return parse


def _speeds(text: str) -> list[float]:
    """An argparse type: speeds separated by commas, each positive and finite, no empty
    item, at most :data:`CLI_MAX_SPEEDS` of them."""
    items = text.split(",")
    if len(items) > CLI_MAX_SPEEDS:
        raise argparse.ArgumentTypeError(f"expected at most {CLI_MAX_SPEEDS:,} speeds, got "
                                         f"{len(items):,}")
    speeds = []
    for i, item in enumerate(items):
        if not item.strip():
            raise argparse.ArgumentTypeError(f"item {i + 1} of {text!r} is empty (expected "
                                             "numbers separated by commas)")
        try:
            s = float(item)
        except ValueError:
            raise argparse.ArgumentTypeError(f"item {i + 1}, {item.strip()!r}, is not a "
                                             "number") from None
        if not 1.0 <= s <= 1e6:
            raise argparse.ArgumentTypeError(f"item {i + 1}, {item.strip()!r}: expected a "
                                             "speed from 1 to 1e+06 px/s")
        speeds.append(s)
    return speeds


def _start_up(*families: str) -> None:
    """Load numba and the kernel ``families`` a command runs (a notice on stderr if they
    compile), before its progress clock starts: progress times the work, not the start-up."""
    from ._lazy import preload

    preload(*families)


def _run_steps(model: Any, steps: int, label: str) -> None:
    """``model.run(steps)`` in chunks, with progress on stderr when it takes a while."""
    _start_up("sweep", "response", "contact")
    progress = Progress(label, steps, "steps")
    done = 0
    while done < steps:
        chunk = min(STEPS_PER_CHUNK, steps - done)
        model.run(chunk)
        done += chunk
        progress.update(done)
    progress.close()


def _pygame_module(what: str) -> Any:
    """Import a view module (and so pygame-ce), or raise a clear :class:`CommandError`."""
    try:
        return importlib.import_module(f"swept.demos.{what}")
    except ModuleNotFoundError as exc:
        if exc.name == "pygame":
            raise CommandError("the demos' windows and screenshots need pygame-ce: "
                               "pip install 'swept[demos]'") from None
        raise


def _show(view_name: str, model: Any, args: argparse.Namespace, lines: Sequence[str],
          out: TextIO) -> int:
    """Finish a window demo: headless, an optional screenshot and the readout lines; else the
    window (with a clear error when no display is available)."""
    if args.headless:
        if args.screenshot:
            view = _pygame_module(view_name)
            common = _pygame_module("view_common")
            try:
                common.save_png(view.render(model), args.screenshot)
            except Exception as exc:  # pygame.error, or a path it cannot write
                raise CommandError(f"--screenshot: cannot save {args.screenshot!r}: "
                                   f"{exc}") from None
        print("\n".join(lines), file=out)
        return 0
    view = _pygame_module(view_name)
    pygame = sys.modules["pygame"]
    try:
        view.main(model, frames=args.frames, screenshot=args.screenshot)
    except pygame.error as exc:  # no video device, usually
        raise CommandError(f"cannot open a window ({exc}); use --headless, or set "
                           "SDL_VIDEODRIVER=dummy for an invisible one") from None
    return 0


# ------------------------------------------------------------------------------------ demos

def _demo_bullet_time(args: argparse.Namespace, out: TextIO) -> int:
    from .demos.bullet_time import BulletTime

    model = BulletTime(speed=args.speed, swept=args.swept)
    _run_steps(model, args.steps, "bullet-time")
    return _show("view_bullet_time", model, args, model.readout(), out)


def _demo_walls_and_slides(args: argparse.Namespace, out: TextIO) -> int:
    from .demos.walls_and_slides import FIGURE_MOUSE, FIGURE_PLACE, START, WallsAndSlides

    # headless, the defaults are the seed's first figure; a window starts as the demo does
    place = args.place or (FIGURE_PLACE if args.headless else START)
    mouse = args.mouse or (FIGURE_MOUSE if args.headless else None)
    model = WallsAndSlides(place, mouse, passes=args.passes, fix_velocity=not args.no_fix)
    _run_steps(model, args.steps, "walls-and-slides")
    return _show("view_walls_and_slides", model, args, model.readout(), out)


def _demo_tunnel(args: argparse.Namespace, out: TextIO) -> int:
    from .demos.tunnel import Tunnel

    model = Tunnel(args.speed, args.offset, args.swept)
    return _show(args.view, model, args, [model.readout()], out)


def _demo_mesh_walk(args: argparse.Namespace, out: TextIO) -> int:
    from .demos.mesh_walk import MeshWalk

    model = MeshWalk()
    if args.headless:
        model.run_script()
    return _show("view_mesh_walk", model, args, [model.readout()], out)


def _demo_slide_3d(args: argparse.Namespace, out: TextIO) -> int:
    from .demos.slide import Slide

    model = Slide(args.tilt, args.aim)
    return _show("view_slide", model, args, [model.readout()], out)


def _demo_text(args: argparse.Namespace, out: TextIO) -> int:
    from .demos.text import TEXT_DEMOS

    print("\n".join(TEXT_DEMOS[args.demo]()), file=out)
    return 0


def _demo_list(args: argparse.Namespace, out: TextIO) -> int:
    from .demos import DEMO_NAMES

    print("demos: " + ", ".join(DEMO_NAMES), file=out)
    print("run one with: swept demo NAME (swept demo NAME --help for its options)", file=out)
    return 0


# ------------------------------------------------------------------------------------ scene

def _scene(args: argparse.Namespace, out: TextIO) -> int:
    from .scene import SceneError, default_scenes, load_scenes, report

    try:
        scenes = default_scenes() if args.file is None else load_scenes(args.file)
    except SceneError as exc:
        raise CommandError(str(exc)) from None
    _start_up("sweep", "response")
    progress = Progress("scene", sum(len(s.bodies) for s in scenes), "bodies")
    complete = False
    try:
        text = report(scenes, progress=progress.update)
        complete = True
    except ValueError as exc:  # a bounce beyond the supported range
        raise CommandError(f"{args.file or '<default scene>'}: {exc}") from None
    finally:
        progress.close(complete)
    print(text, file=out)
    return 0


# -------------------------------------------------------------------------------- tunneling

class TunnelingRow:
    """One speed of ``swept tunneling``: what each test caught, and the estimate."""

    __slots__ = ("speed", "naive_caught", "naive_approaches", "swept_caught",
                 "swept_approaches", "estimate")

    def __init__(self, speed: float, naive_caught: int, naive_approaches: int,
                 swept_caught: int, swept_approaches: int, estimate: float) -> None:
        #: the ball's speed, px/s
        self.speed = speed
        #: approaches the naive test caught
        self.naive_caught = naive_caught
        #: approaches during the naive run
        self.naive_approaches = naive_approaches
        #: approaches the swept test caught
        self.swept_caught = swept_caught
        #: approaches during the swept run
        self.swept_approaches = swept_approaches
        #: the random-landing estimate 2r / (step cos theta), at most 1
        self.estimate = estimate

    @staticmethod
    def _share(caught: int, approaches: int) -> float:
        return caught / approaches if approaches else 1.0

    @property
    def naive_share(self) -> float:
        """The naive test's catch rate (1 with no approaches)."""
        return self._share(self.naive_caught, self.naive_approaches)

    @property
    def swept_share(self) -> float:
        """The swept test's catch rate (1 with no approaches)."""
        return self._share(self.swept_caught, self.swept_approaches)


def tunneling_table(speeds: Sequence[float], steps: int,
                    progress: TextIO | None = None) -> list[TunnelingRow]:
    """Run Bullet Time's model headless for ``steps`` fixed steps at each speed, with each
    test, and put each next to :func:`swept.tunneling.catch_rate`'s estimate; with a
    ``progress`` stream, progress lines there once the run has taken over a second."""
    from .demos.bullet_time import RADIUS, START_ANGLE, STEP, BulletTime
    from .tunneling import catch_rate

    rows = []
    total = 2 * len(speeds) * steps
    if progress is not None:
        _start_up("sweep", "response")
    bar = Progress("tunneling", total, "steps", progress) if progress is not None else None
    done = 0
    for speed in speeds:
        counts = []
        for swept in (False, True):
            model = BulletTime(speed=speed, swept=swept)
            left = steps
            while left > 0:
                chunk = min(STEPS_PER_CHUNK, left)
                model.run(chunk)
                left -= chunk
                done += chunk
                if bar is not None:
                    bar.update(done)
            counts.append((model.caught, model.approaches))
        (nc, na), (sc, sa) = counts
        rows.append(TunnelingRow(speed, nc, na, sc, sa,
                                 catch_rate(speed, RADIUS, 0.0, START_ANGLE, STEP)))
    if bar is not None:
        bar.close()
    return rows


def _format_table(rows: Sequence[TunnelingRow], steps: int) -> str:
    """The table ``swept tunneling`` prints."""
    from .demos.bullet_time import RADIUS, START_ANGLE, STEP, lround
    from .tunneling import safe_speed

    safe = safe_speed(RADIUS, 0.0, START_ANGLE, STEP)
    lines = [
        f"Bullet Time's ball (radius {RADIUS:g} px, {START_ANGLE:g} rad to the wall's normal, "
        f"steps of 1/{lround(1 / STEP)} s), {steps} steps at each speed;",
        f"the naive test cannot miss up to {safe:.0f} px/s.",
        "",
        f"{'speed px/s':>10}  {'px/step':>7}  {'naive caught':>14}  {'naive':>6}  "
        f"{'swept':>6}  {'estimate':>8}",
    ]
    for r in rows:
        caught = f"{r.naive_caught}/{r.naive_approaches}"
        lines.append(f"{lround(r.speed):>10}  {lround(r.speed * STEP):>7}  {caught:>14}  "
                     f"{100 * r.naive_share:>5.0f}%  {100 * r.swept_share:>5.0f}%  "
                     f"{100 * r.estimate:>7.0f}%")
    return "\n".join(lines)


def _plot(rows: Sequence[TunnelingRow], path: str) -> None:
    """Draw the catch rates against speed with matplotlib (Agg) and save a PNG."""
    try:
        import matplotlib
    except ModuleNotFoundError:
        raise CommandError("--plot needs matplotlib: pip install 'swept[plot]'") from None
    matplotlib.use("Agg")
    import matplotlib.pyplot as plt

    from .demos.bullet_time import RADIUS, START_ANGLE, STEP
    from .tunneling import catch_rate, safe_speed

    speeds = [r.speed for r in rows]
    fig, ax = plt.subplots(figsize=(8, 4.5), dpi=100)
    ax.plot(speeds, [100 * r.naive_share for r in rows], "o-", color="#e03131",
            label="naive test (measured)")
    ax.plot(speeds, [100 * r.swept_share for r in rows], "s-", color="#2f9e44",
            label="swept test (measured)")
    # the estimate is a closed form: draw it smooth, not only at the measured speeds
    lo, hi = min(speeds), max(speeds)
    dense = [lo + (hi - lo) * i / 200 for i in range(201)]
    ax.plot(dense, [100 * catch_rate(v, RADIUS, 0.0, START_ANGLE, STEP) for v in dense], "--",
            color="#495057", label="estimate 2r / (step cos \u03b8)")
    safe = safe_speed(RADIUS, 0.0, START_ANGLE, STEP)
    ax.axvline(safe, color="#adb5bd", linewidth=1)
    ax.annotate(f"safe up to {safe:.0f} px/s", (safe, 4), xytext=(6, 0),
                textcoords="offset points", color="#868e96", fontsize=8)
    ax.set_xlabel("speed (px/s)", labelpad=2)
    ax.set_ylabel("approaches caught (%)")
    ax.set_ylim(0, 105)
    ax.set_title("Bullet Time: how often each test catches the ball")
    ax.legend(loc="upper center", bbox_to_anchor=(0.5, -0.14), ncol=3, frameon=False)
    ax.grid(alpha=0.3)
    fig.tight_layout()
    try:
        fig.savefig(path)
    except (OSError, ValueError) as exc:
        raise CommandError(f"--plot: cannot save {path!r}: "
                           f"{getattr(exc, 'strerror', None) or exc}") from None
    finally:
        plt.close(fig)


def _tunneling(args: argparse.Namespace, out: TextIO) -> int:
    if args.speeds:
        speeds = args.speeds
    else:
        if args.max <= args.min:
            raise CommandError(f"--max ({args.max:g}) must be above --min ({args.min:g})")
        n = args.count
        speeds = [args.min + (args.max - args.min) * i / (n - 1) for i in range(n)]
    rows = tunneling_table(speeds, args.steps, progress=sys.stderr)
    print(_format_table(rows, args.steps), file=out)
    if args.plot:
        _plot(rows, args.plot)
        print(f"plot saved to {args.plot}", file=out)
    return 0


# ------------------------------------------------------------------------------------ bench
# The ``bench`` subcommand belongs to the benchmarks (``swept.bench``, another module): this
# hook only hands the arguments over, and says so clearly while that module is missing.

def _bench(args: argparse.Namespace, out: TextIO) -> int:
    try:
        bench = importlib.import_module("swept.bench")
    except ModuleNotFoundError as exc:
        if exc.name in ("swept.bench", "swept"):
            raise CommandError("the benchmarks are not part of this build (swept.bench is "
                               "missing)") from None
        raise CommandError(f"the benchmarks need {exc.name}: pip install 'swept[bench]'") \
            from None
    status = bench.main(list(args.bench_args))
    return int(status or 0)


def _warmup(args: argparse.Namespace, out: TextIO) -> int:
    """Compile the kernel families into numba's cache (:mod:`swept.warmup`), a table of each
    family's wall-clock and CPU seconds."""
    from .warmup import warm_up
    start = time.perf_counter()
    starts: dict[str, float] = {}
    try:
        spent = warm_up(args.jobs, args.only, starts)
    except RuntimeError as exc:
        raise CommandError(str(exc)) from None
    print(f"{'family':12s} {'start s':>8s} {'wall s':>8s} {'CPU s':>8s}", file=out)
    for name, (wall, cpu) in spent.items():
        print(f"{name:12s} {starts.get(name, 0.0):8.1f} {wall:8.1f} {cpu:8.1f}", file=out)
    cores = "every core" if not args.jobs else f"{args.jobs} core{'' if args.jobs == 1 else 's'}"
    print(f"all {len(spent)} in {time.perf_counter() - start:.1f} s on {cores} "
          f"({sum(c for _w, c in spent.values()):.1f} s of CPU)", file=out)
    return 0


# ----------------------------------------------------------------------------------- parser

def build_parser() -> argparse.ArgumentParser:
    """The ``swept`` command's argument parser (a :class:`Parser`: errors raise
    :class:`UsageError`)."""
    parser = Parser(
        prog="swept", description="Collision demos, scenes and tunneling tables.",
        epilog="Bad input exits with status 2 and one line on stderr. The demos reproduce "
               "the worked examples swept was built from, with their numbers.")
    commands = parser.add_subparsers(dest="command", metavar="COMMAND")
    demo = commands.add_parser("demo", help="run a demo", description="Run a demo: a window, "
                               "or --headless to run its model and print its readout.")
    demo.set_defaults(handler=_demo_list)
    demos = demo.add_subparsers(dest="demo", metavar="NAME")
    for add in (_bullet_time_parser, _walls_parser, _tunnel_parsers, _slide_3d_parser,
                _mesh_walk_parser, _text_demo_parsers):
        add(demos)
    for add_command in (_scene_parser, _tunneling_parser, _warmup_parser, _bench_parser):
        add_command(commands)
    return parser


def _window_options(p: argparse.ArgumentParser) -> None:
    """A windowed demo's options: --headless, --screenshot, --frames."""
    p.add_argument("--headless", action="store_true",
                   help="run the model with no window and print the readout")
    p.add_argument("--screenshot", metavar="FILE.png",
                   type=_output(SCREENSHOT_SUFFIXES),
                   help="save a PNG of the view (headless: of the final state; window: of "
                        "the last frame)")
    p.add_argument("--frames", type=_whole(1, CLI_MAX_FRAMES), metavar="N",
                   help=f"close the window after N frames (1 to {CLI_MAX_FRAMES:,})")


def _bullet_time_parser(demos: argparse._SubParsersAction[Any]) -> None:
    """``swept demo bullet-time``."""
    from .demos.bullet_time import FIGURE_STEPS, MAX_SPEED, MIN_SPEED, START_SPEED

    bt = demos.add_parser("bullet-time", help="a fast ball and a thin wall: naive vs swept test",
                          description="A fast ball and a thin wall: the naive test misses, "
                                      "the swept test never does. Keys: Space naive/swept, "
                                      "Up/Down speed, P pause, Esc quit.")
    _window_options(bt)
    bt.add_argument("--steps", type=_whole(0, CLI_MAX_STEPS), default=None, metavar="N",
                    help=f"fixed steps of 1/60 s to take first, 0 to {CLI_MAX_STEPS:,} (headless "
                         f"default: {FIGURE_STEPS}, the worked example's figure)")
    bt.add_argument("--speed", type=_within(MIN_SPEED, MAX_SPEED), default=START_SPEED,
                    metavar="S", help=f"the ball's speed, px/s ({MIN_SPEED:g} to "
                                      f"{MAX_SPEED:g}; default {START_SPEED:g})")
    bt.add_argument("--swept", action="store_true", help="use the swept test")
    bt.set_defaults(handler=_demo_bullet_time, default_steps=FIGURE_STEPS)


def _walls_parser(demos: argparse._SubParsersAction[Any]) -> None:
    """``swept demo walls-and-slides``."""
    from .demos.walls_and_slides import FIGURE_MOUSE, FIGURE_PLACE, FIGURE_STEPS, START

    ws = demos.add_parser("walls-and-slides",
                          help="a ball among walls: push out, slide, bounce, passes",
                          description="A ball chases the mouse among walls and bumpers. Keys: "
                                      "click to place, V velocity fix, P passes, Esc quit. "
                                      "Headless, the defaults reproduce the worked example's "
                                      "first figure (speed 626 px/s).")
    _window_options(ws)
    ws.add_argument("--place", type=_point, default=None, metavar="X,Y",
                    help="where the ball starts, at rest (headless default "
                         f"{FIGURE_PLACE[0]:g},{FIGURE_PLACE[1]:g}; window default "
                         f"{START[0]:g},{START[1]:g})")
    ws.add_argument("--mouse", type=_point, default=None, metavar="X,Y",
                    help="where the mouse is (headless default "
                         f"{FIGURE_MOUSE[0]:g},{FIGURE_MOUSE[1]:g})")
    ws.add_argument("--steps", type=_whole(0, CLI_MAX_STEPS), default=None, metavar="N",
                    help=f"fixed steps of 1/60 s to take first, 0 to {CLI_MAX_STEPS:,} (headless "
                         f"default: {FIGURE_STEPS})")
    ws.add_argument("--passes", type=int, choices=(1, 8), default=8,
                    help="passes over the contacts each step (default 8)")
    ws.add_argument("--no-fix", action="store_true", help="turn the velocity fix off")
    ws.set_defaults(handler=_demo_walls_and_slides, default_steps=FIGURE_STEPS)


def _tunnel_parsers(demos: argparse._SubParsersAction[Any]) -> None:
    """``swept demo tunnel`` and ``tunnel-3d``."""
    from .demos.tunnel import OFFSET_MAX, SPEED_DEFAULT, SPEED_MAX, SPEED_MIN

    for name, view, where in (("tunnel", "view_tunnel", ""),
                              ("tunnel-3d", "view_tunnel3d", " In 3D, in perspective.")):
        tu = demos.add_parser(name, help="where the frames land decides a frame test" + (
                                  " (3D)" if view != "view_tunnel" else ""),
                              description="A sphere skips over a thin wall between frames, or "
                                          "a sweep catches it." + where + " Keys: Up/Down "
                                          "speed, Left/Right where the frames land, Space "
                                          "sweep, Esc quit.")
        _window_options(tu)
        tu.add_argument("--speed", type=_within(SPEED_MIN, SPEED_MAX), default=SPEED_DEFAULT,
                        metavar="S", help=f"m/s, {SPEED_MIN:g} to {SPEED_MAX:g} (default "
                                          f"{SPEED_DEFAULT:g})")
        tu.add_argument("--offset", type=_within(0.0, OFFSET_MAX), default=0.0, metavar="F",
                        help=f"where the frames land: 0 to {OFFSET_MAX:g} of a frame's move")
        tu.add_argument("--swept", action="store_true", help="sweep between frames")
        tu.set_defaults(handler=_demo_tunnel, view=view)


def _slide_3d_parser(demos: argparse._SubParsersAction[Any]) -> None:
    """``swept demo slide-3d``."""
    from .demos.slide import SLIDE_AIM, SLIDE_TILT

    sl = demos.add_parser("slide-3d", help="the velocity split on a tilted surface (3D)",
                          description="A velocity meets a tilted surface, in 3D: the part it "
                                      "blocks, the part that slides, and the 46 degree limit "
                                      "between a floor and a wall. Keys: Up/Down tilt, "
                                      "Left/Right aim, Esc quit.")
    _window_options(sl)
    sl.add_argument("--tilt", type=_within(0.0, 90.0), default=SLIDE_TILT, metavar="DEG",
                    help=f"the surface's slope, 0 to 90 degrees (default {SLIDE_TILT:g})")
    sl.add_argument("--aim", type=_within(-180.0, 180.0), default=SLIDE_AIM, metavar="DEG",
                    help=f"the velocity's aim from +x, -180 to 180 degrees (default "
                         f"{SLIDE_AIM:g})")
    sl.set_defaults(handler=_demo_slide_3d)


def _mesh_walk_parser(demos: argparse._SubParsersAction[Any]) -> None:
    """``swept demo mesh-walk``."""
    mw = demos.add_parser("mesh-walk", help="a ball character walks a triangle-mesh level (3D)",
                          description="A ball character walks a small level that is one "
                                      "triangle mesh (a floor, a ramp, a platform, a wall) "
                                      "through move_and_slide. Headless, it walks a scripted "
                                      "path up the ramp and along the wall and prints where it "
                                      "ends. Keys: arrows walk, Esc quit.")
    _window_options(mw)
    mw.set_defaults(handler=_demo_mesh_walk)


def _text_demo_parsers(demos: argparse._SubParsersAction[Any]) -> None:
    """The demos that print their log lines: ``mtv``, ``bouncing``, ``slide``."""
    for name, about in (("mtv", "the minimum translation vector"),
                        ("bouncing", "restitution, apexes and friction"),
                        ("slide", "the velocity split and the 46 degree limit")):
        text = demos.add_parser(name, help=about, description=f"Print the {name} demo's "
                                "log lines (" + about + ").")
        text.set_defaults(handler=_demo_text)


def _scene_parser(commands: argparse._SubParsersAction[Any]) -> None:
    """``swept scene``."""
    scene = commands.add_parser("scene", help="run a scene file",
                                description="Read a scene (TOML or JSON: circles with radius, "
                                            "position and displacement; planes; restitution) "
                                            "and print each body's time of impact, what it "
                                            "hits and its state after advance. With no FILE, "
                                            "two worked examples: a ball dropped onto a floor "
                                            "and two balls meeting. A file may hold up to "
                                            f"{SCENE_MAX_BODIES:,} bodies in at most "
                                            f"{SCENE_MAX_FILE_BYTES // 2**20} MiB.")
    scene.add_argument("file", nargs="?", metavar="FILE", help="a .toml or .json scene")
    scene.set_defaults(handler=_scene)


def _tunneling_parser(commands: argparse._SubParsersAction[Any]) -> None:
    """``swept tunneling``."""
    from .demos.bullet_time import MAX_SPEED, MIN_SPEED

    tun = commands.add_parser("tunneling", help="catch rate against speed, naive vs swept",
                              description="Run Bullet Time headless at each speed with each "
                                          "test and print the catch rates next to the "
                                          "estimate 2r / (step cos theta).")
    tun.add_argument("--steps", type=_whole(1, CLI_MAX_STEPS), default=DEFAULT_TUNNELING_STEPS,
                     metavar="N", help=f"fixed steps at each speed, 1 to {CLI_MAX_STEPS:,} "
                                       f"(default {DEFAULT_TUNNELING_STEPS})")
    tun.add_argument("--min", type=_within(1.0, 1e6), default=MIN_SPEED, metavar="S",
                     help=f"slowest speed, px/s (default {MIN_SPEED:g})")
    tun.add_argument("--max", type=_within(1.0, 1e6), default=MAX_SPEED, metavar="S",
                     help=f"fastest speed, px/s (default {MAX_SPEED:g})")
    tun.add_argument("--count", type=_whole(2, CLI_MAX_SPEEDS), default=20, metavar="N",
                     help=f"how many speeds, evenly spaced, 2 to {CLI_MAX_SPEEDS:,} "
                          "(default 20)")
    tun.add_argument("--speeds", type=_speeds, metavar="S,S,...",
                     help="exact speeds instead, px/s (1 to 1e6 each)")
    tun.add_argument("--plot", metavar="FILE", type=_output(PLOT_SUFFIXES),
                     help="also save a matplotlib figure (.png, .pdf or .svg)")
    tun.set_defaults(handler=_tunneling)


def _warmup_parser(commands: argparse._SubParsersAction[Any]) -> None:
    """``swept warmup``."""
    from .warmup import FAMILIES
    warm = commands.add_parser("warmup", help="compile every kernel ahead, on every core",
                               description="Compile swept's kernels into numba's on-disk "
                                           "cache before their first use, the kernel "
                                           "families spread over JOBS processes.")
    warm.add_argument("--jobs", type=_whole(1, len(FAMILIES)), default=None, metavar="N",
                      help=f"processes at once, 1 to {len(FAMILIES)} (one a family at most; "
                           "default: the CPU count)")
    warm.add_argument("--only", choices=list(FAMILIES), action="append",
                      help="compile only this family (repeatable)")
    warm.set_defaults(handler=_warmup)


def _bench_parser(commands: argparse._SubParsersAction[Any]) -> None:
    """``swept bench``: the arguments go to swept.bench."""
    bench = commands.add_parser("bench", help="run the benchmarks (swept bench --help)",
                                description="Run the benchmarks; the arguments go to "
                                            "swept.bench.", add_help=False)
    bench.add_argument("bench_args", nargs=argparse.REMAINDER)
    bench.set_defaults(handler=_bench)


def _value_flags(parser: argparse.ArgumentParser) -> set[str]:
    """Every option of ``parser`` and its subcommands that takes one value."""
    flags: set[str] = set()
    for action in parser._actions:
        if isinstance(action, argparse._SubParsersAction):
            for sub in action.choices.values():
                flags |= _value_flags(sub)
        elif action.option_strings and action.nargs is None:
            flags.update(action.option_strings)
    return flags


def _join_negative_values(words: list[str], flags: set[str]) -> list[str]:
    """``--place -5000,-5000`` as ``--place=-5000,-5000``: argparse takes a value that starts
    with a minus sign (and is not a plain number) for a flag."""
    out: list[str] = []
    i = 0
    while i < len(words):
        word = words[i]
        if (word in flags and i + 1 < len(words)
                and re.match(r"-[\d.]", words[i + 1]) is not None):
            out.append(f"{word}={words[i + 1]}")
            i += 2
            continue
        out.append(word)
        i += 1
    return out


def main(argv: Sequence[str] | None = None) -> int:
    """Run the ``swept`` command with ``argv`` (default ``sys.argv[1:]``); returns the exit
    status."""
    words = list(sys.argv[1:] if argv is None else argv)
    if words[:1] == ["bench"]:
        # everything after "bench" belongs to swept.bench, options included
        bench_args = argparse.Namespace(command="bench", handler=_bench, bench_args=words[1:])
        return _dispatch(bench_args)
    parser = build_parser()
    try:
        args = parser.parse_args(_join_negative_values(words, _value_flags(parser)))
    except UsageError as exc:
        print(exc, file=sys.stderr)
        return EXIT_USAGE
    except SystemExit as exc:  # --help
        return int(exc.code or 0) if not isinstance(exc.code, str) else EXIT_USAGE
    if getattr(args, "handler", None) is None:
        print("swept: error: expected a command: demo, scene, tunneling, warmup or bench "
              "(swept --help for more)", file=sys.stderr)
        return EXIT_USAGE
    if hasattr(args, "headless") and not args.headless and not _display_available():
        # the main job runs anywhere: with no display, the same model runs headless
        print("swept: no display found; running headless (set SDL_VIDEODRIVER=dummy to "
              "render an invisible window instead)", file=sys.stderr)
        args.headless = True
    if getattr(args, "steps", 0) is None:
        # headless runs default to the worked example's figure; a window starts at the start
        args.steps = args.default_steps if args.headless else 0
    return _dispatch(args)


def _display_available() -> bool:
    """Whether a window can open: on Linux, an X11 or Wayland display, or an SDL video driver
    chosen explicitly (``SDL_VIDEODRIVER=dummy`` renders an invisible window)."""
    if not sys.platform.startswith("linux"):
        return True
    return any(os.environ.get(name) for name in ("DISPLAY", "WAYLAND_DISPLAY",
                                                 "SDL_VIDEODRIVER"))


def _dispatch(args: argparse.Namespace) -> int:
    """Run the chosen subcommand; bad input becomes one line on stderr and status 2."""
    try:
        return int(args.handler(args, sys.stdout))
    except CommandError as exc:
        print(f"swept {args.command}: error: {exc}", file=sys.stderr)
        return EXIT_USAGE
    except KeyboardInterrupt:
        # Ctrl-C during a long run: one line, the shell's status for an interrupt
        print(f"swept {args.command}: interrupted", file=sys.stderr)
        return 130
    except BrokenPipeError:
        # the reader went away (swept demo mtv | head): stop quietly
        devnull = os.open(os.devnull, os.O_WRONLY)
        os.dup2(devnull, sys.stdout.fileno())
        return 1


if __name__ == "__main__":  # pragma: no cover
    sys.exit(main())
