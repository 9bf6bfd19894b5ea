"""Walls and Slides with no window: a ball pulled into a 20-degree wedge, one pass or eight.

Run: python examples/walls_and_slides_wedge.py
"""

from __future__ import annotations

from swept.demos.walls_and_slides import WEDGE_MOUSE, WEDGE_PLACE, WallsAndSlides


def main() -> None:
    """Drop the ball into the wedge and print what each number of passes leaves."""
    for passes in (1, 8):
        demo = WallsAndSlides(place=WEDGE_PLACE, mouse=WEDGE_MOUSE, passes=passes)
        demo.run(180)  # three seconds: long enough to settle
        overlap = demo.deepest_overlap()
        print(f"{passes} pass{'es' if passes > 1 else ''}: {demo.readout()[0]}"
              f" (in the {overlap.what})")


if __name__ == "__main__":
    main()
