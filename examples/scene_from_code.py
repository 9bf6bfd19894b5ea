"""Build a scene in code, run it, and print the report `swept scene` prints for a file.

Run: python examples/scene_from_code.py
"""

from __future__ import annotations

from swept.scene import BodySpec, PlaneSpec, Scene, report
from swept.vec import Vec2


def main() -> None:
    """A ball dropped onto a floor, and one fast enough to tunnel without the time of impact."""
    scene = Scene(
        name="two drops onto the floor",
        bodies=(
            BodySpec("slow", 2.0, Vec2(0.0, 10.0), Vec2(0.0, -30.0)),
            BodySpec("bullet", 1.0, Vec2(20.0, 15.0), Vec2(0.0, -300.0), restitution=0.5),
        ),
        planes=(PlaneSpec("floor", y=0.0),),
    )
    print(report([scene]))


if __name__ == "__main__":
    main()
