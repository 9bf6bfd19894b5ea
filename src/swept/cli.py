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
import sys
import time
from collections.abc import Sequence
from typing import Any, TextIO

__all__ = ["main", "build_parser", "TunnelingRow", "tunneling_table", "DEFAULT_TUNNELING_STEPS"]

#: The exit status for bad input.
EXIT_USAGE = 2
#: Fixed steps each speed runs for in ``swept tunneling`` (a minute of the demo).
DEFAULT_TUNNELING_STEPS = 3600
#: A run longer than this (s) shows a progress bar on stderr.
PROGRESS_AFTER = 1.0


class CommandError(Exception):
    """Bad input found while running a subcommand: printed as one line, exit status 2."""


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


def _whole(minimum: int) -> Any:
    """An argparse type: a whole number at least ``minimum``."""
    def parse(text: str) -> int:
        try:
            n = int(text)
        except ValueError:
            raise argparse.ArgumentTypeError(f"expected a whole number, got {text!r}") from None
        if n < minimum:
            raise argparse.ArgumentTypeError(f"expected a whole number >= {minimum}, got {n}")
        return n
    return parse


def _within(low: float, high: float) -> Any:
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
                raise CommandError(f"cannot save the screenshot {args.screenshot!r}: "
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
    model.run(args.steps)
    return _show("view_bullet_time", model, args, model.readout(), out)


def _demo_walls_and_slides(args: argparse.Namespace, out: TextIO) -> int:
    from .demos.walls_and_slides import FIGURE_MOUSE, FIGURE_PLACE, START, WallsAndSlides

    # headless, the defaults are the seed's first figure; a window starts as the demo does
    place = args.place or (FIGURE_PLACE if args.headless else START)
    mouse = args.mouse or (FIGURE_MOUSE if args.headless else None)
    model = WallsAndSlides(place, mouse, passes=args.passes, fix_velocity=not args.no_fix)
    model.run(args.steps)
    return _show("view_walls_and_slides", model, args, model.readout(), out)


def _demo_tunnel(args: argparse.Namespace, out: TextIO) -> int:
    from .demos.tunnel import Tunnel

    model = Tunnel(args.speed, args.offset, args.swept)
    return _show("view_tunnel", model, args, [model.readout()], out)


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
    print(report(scenes), file=out)
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


def _progress(done: int, total: int, started: float, stream: TextIO) -> None:
    """A plain-text progress bar on ``stream``, once the run has taken over a second."""
    if time.perf_counter() - started < PROGRESS_AFTER and done < total:
        return
    width = 30
    filled = width * done // total
    stream.write(f"\r[{'#' * filled}{'.' * (width - filled)}] {done}/{total} runs")
    if done == total:
        stream.write("\n")
    stream.flush()


def tunneling_table(speeds: Sequence[float], steps: int,
                    progress: TextIO | None = None) -> list[TunnelingRow]:
    """Run Bullet Time's model headless for ``steps`` fixed steps at each speed, with each
    test, and put each next to :func:`swept.tunneling.catch_rate`'s estimate."""
    from .demos.bullet_time import RADIUS, START_ANGLE, STEP, BulletTime
    from .tunneling import catch_rate

    rows = []
    total = 2 * len(speeds)
    started = time.perf_counter()
    shown = False
    done = 0
    for speed in speeds:
        counts = []
        for swept in (False, True):
            model = BulletTime(speed=speed, swept=swept)
            model.run(steps)
            counts.append((model.caught, model.approaches))
            done += 1
            if progress is not None and (shown or time.perf_counter() - started
                                         >= PROGRESS_AFTER):
                shown = True
                _progress(done, total, started, progress)
        (nc, na), (sc, sa) = counts
        rows.append(TunnelingRow(speed, nc, na, sc, sa,
                                 catch_rate(speed, RADIUS, 0.0, START_ANGLE, STEP)))
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
    except OSError as exc:
        raise CommandError(f"cannot save the plot {path!r}: {exc.strerror or exc}") from None
    finally:
        plt.close(fig)


def _tunneling(args: argparse.Namespace, out: TextIO) -> int:
    if args.speeds:
        try:
            speeds = [float(s) for s in args.speeds.split(",") if s.strip()]
        except ValueError:
            raise CommandError(f"--speeds: expected numbers separated by commas, got "
                               f"{args.speeds!r}") from None
        if not speeds or any(not 0.0 < s < float("inf") for s in speeds):
            raise CommandError("--speeds: expected positive speeds in px/s")
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


# ----------------------------------------------------------------------------------- parser

def build_parser() -> argparse.ArgumentParser:
    """The ``swept`` command's argument parser."""
    from .demos.bullet_time import FIGURE_STEPS as BT_FIGURE_STEPS
    from .demos.bullet_time import MAX_SPEED, MIN_SPEED, START_SPEED
    from .demos.tunnel import OFFSET_MAX, SPEED_DEFAULT, SPEED_MAX, SPEED_MIN
    from .demos.walls_and_slides import FIGURE_MOUSE, FIGURE_PLACE, START
    from .demos.walls_and_slides import FIGURE_STEPS as WS_FIGURE_STEPS

    parser = argparse.ArgumentParser(
        prog="swept", description="Collision demos, scenes and tunneling tables.")
    commands = parser.add_subparsers(dest="command", metavar="COMMAND")

    demo = commands.add_parser("demo", help="run a demo", description="Run a demo: a window, "
                               "or --headless to run its model and print its readout.")
    demo.set_defaults(handler=_demo_list)
    demos = demo.add_subparsers(dest="demo", metavar="NAME")

    def window_options(p: argparse.ArgumentParser) -> None:
        p.add_argument("--headless", action="store_true",
                       help="run the model with no window and print the readout")
        p.add_argument("--screenshot", metavar="FILE.png",
                       help="save a PNG of the view (headless: of the final state; window: of "
                            "the last frame)")
        p.add_argument("--frames", type=_whole(1), metavar="N",
                       help="close the window after N frames")

    bt = demos.add_parser("bullet-time", help="seed 000: naive vs swept test on a thin wall",
                          description="A fast ball and a thin wall: the naive test misses, "
                                      "the swept test never does. Keys: Space naive/swept, "
                                      "Up/Down speed, P pause, Esc quit.")
    window_options(bt)
    bt.add_argument("--steps", type=_whole(0), default=None, metavar="N",
                    help="fixed steps of 1/60 s to take first (headless default: "
                         f"{BT_FIGURE_STEPS}, the seed's figure)")
    bt.add_argument("--speed", type=_within(MIN_SPEED, MAX_SPEED), default=START_SPEED,
                    metavar="S", help=f"the ball's speed, px/s ({MIN_SPEED:g} to "
                                      f"{MAX_SPEED:g}; default {START_SPEED:g})")
    bt.add_argument("--swept", action="store_true", help="use the swept test")
    bt.set_defaults(handler=_demo_bullet_time, default_steps=BT_FIGURE_STEPS)

    ws = demos.add_parser("walls-and-slides", help="seed 004: push out, slide, bounce, passes",
                          description="A ball chases the mouse among walls and bumpers. Keys: "
                                      "click to place, V velocity fix, P passes, Esc quit. "
                                      "Headless, the defaults reproduce the seed's first "
                                      "figure (speed 626 px/s).")
    window_options(ws)
    ws.add_argument("--place", type=_point, default=None, metavar="X,Y",
                    help="where the ball starts, at rest (headless default "
                         f"{FIGURE_PLACE[0]:g},{FIGURE_PLACE[1]:g}; window default "
                         f"{START[0]:g},{START[1]:g})")
    ws.add_argument("--mouse", type=_point, default=None, metavar="X,Y",
                    help="where the mouse is (headless default "
                         f"{FIGURE_MOUSE[0]:g},{FIGURE_MOUSE[1]:g})")
    ws.add_argument("--steps", type=_whole(0), default=None, metavar="N",
                    help="fixed steps of 1/60 s to take first (headless default: "
                         f"{WS_FIGURE_STEPS})")
    ws.add_argument("--passes", type=int, choices=(1, 8), default=8,
                    help="passes over the contacts each step (default 8)")
    ws.add_argument("--no-fix", action="store_true", help="turn the velocity fix off")
    ws.set_defaults(handler=_demo_walls_and_slides, default_steps=WS_FIGURE_STEPS)

    tu = demos.add_parser("tunnel", help="seed 002: where the frames land decides a frame test",
                          description="A sphere skips over a thin wall between frames, or a "
                                      "sweep catches it. Keys: Up/Down speed, Left/Right where "
                                      "the frames land, Space sweep, Esc quit.")
    window_options(tu)
    tu.add_argument("--speed", type=_within(SPEED_MIN, SPEED_MAX), default=SPEED_DEFAULT,
                    metavar="S", help=f"m/s, {SPEED_MIN:g} to {SPEED_MAX:g} (default "
                                      f"{SPEED_DEFAULT:g})")
    tu.add_argument("--offset", type=_within(0.0, OFFSET_MAX), default=0.0, metavar="F",
                    help=f"where the frames land: 0 to {OFFSET_MAX:g} of a frame's move")
    tu.add_argument("--swept", action="store_true", help="sweep between frames")
    tu.set_defaults(handler=_demo_tunnel)

    for name, about in (("mtv", "seed 002: the minimum translation vector"),
                        ("bouncing", "seed 002: restitution, apexes and friction"),
                        ("slide", "seed 002: the velocity split and the 46 degree limit")):
        text = demos.add_parser(name, help=about, description=f"Print the {name} demo's "
                                "log lines (" + about + ").")
        text.set_defaults(handler=_demo_text)

    scene = commands.add_parser("scene", help="run a scene file (seed 003)",
                                description="Read a scene (TOML or JSON: circles with radius, "
                                            "position and displacement; planes; restitution) "
                                            "and print each body's time of impact, what it "
                                            "hits and its state after advance. With no FILE, "
                                            "seed 003's two worked traces.")
    scene.add_argument("file", nargs="?", metavar="FILE", help="a .toml or .json scene")
    scene.set_defaults(handler=_scene)

    tun = commands.add_parser("tunneling", help="catch rate against speed, naive vs swept",
                              description="Run Bullet Time headless at each speed with each "
                                          "test and print the catch rates next to the "
                                          "estimate 2r / (step cos theta).")
    tun.add_argument("--steps", type=_whole(1), default=DEFAULT_TUNNELING_STEPS, metavar="N",
                     help=f"fixed steps at each speed (default {DEFAULT_TUNNELING_STEPS})")
    tun.add_argument("--min", type=_within(1.0, 1e6), default=MIN_SPEED, metavar="S",
                     help=f"slowest speed, px/s (default {MIN_SPEED:g})")
    tun.add_argument("--max", type=_within(1.0, 1e6), default=MAX_SPEED, metavar="S",
                     help=f"fastest speed, px/s (default {MAX_SPEED:g})")
    tun.add_argument("--count", type=_whole(2), default=20, metavar="N",
                     help="how many speeds, evenly spaced (default 20)")
    tun.add_argument("--speeds", metavar="S,S,...", help="exact speeds instead, px/s")
    tun.add_argument("--plot", metavar="FILE.png", help="also save a matplotlib figure")
    tun.set_defaults(handler=_tunneling)

    bench = commands.add_parser("bench", help="run the benchmarks (swept.bench)",
                                description="Run the benchmarks; the arguments go to "
                                            "swept.bench.", add_help=False)
    bench.add_argument("bench_args", nargs=argparse.REMAINDER)
    bench.set_defaults(handler=_bench)
    return parser


def main(argv: Sequence[str] | None = None) -> int:
    """Run the ``swept`` command with ``argv`` (default ``sys.argv[1:]``); returns the exit
    status."""
    parser = build_parser()
    words = list(sys.argv[1:] if argv is None else argv)
    if words[:1] == ["bench"]:
        # everything after "bench" belongs to swept.bench, options included
        bench_args = argparse.Namespace(command="bench", handler=_bench, bench_args=words[1:])
        return _dispatch(bench_args)
    try:
        args = parser.parse_args(words)
    except SystemExit as exc:  # --help, or a usage error (already printed)
        return int(exc.code or 0) if not isinstance(exc.code, str) else EXIT_USAGE
    if getattr(args, "handler", None) is None:
        parser.print_help()
        return EXIT_USAGE
    if hasattr(args, "headless") and not args.headless and not _display_available():
        # the main job runs anywhere: with no display, the same model runs headless
        print("swept: no display found; running headless (set SDL_VIDEODRIVER=dummy to "
              "render an invisible window instead)", file=sys.stderr)
        args.headless = True
    if getattr(args, "steps", 0) is None:
        # headless runs default to the seed's figure; a window starts from the beginning
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
    except BrokenPipeError:
        # the reader went away (swept demo mtv | head): stop quietly
        devnull = os.open(os.devnull, os.O_WRONLY)
        os.dup2(devnull, sys.stdout.fileno())
        return 1


if __name__ == "__main__":  # pragma: no cover
    sys.exit(main())
