"""Bullet Time with no window: the naive and the swept test at a few speeds.

Run: python examples/bullet_time_headless.py
"""

from __future__ import annotations

from swept.demos.bullet_time import STEP, BulletTime
from swept.tunneling import catch_rate, safe_speed


def main() -> None:
    """Print each test's readout after a minute of steps at each speed."""
    print(f"the naive test cannot miss up to {safe_speed(7, 0, 0.16, STEP):.0f} px/s")
    for speed in (755.0, 2000.0, 5000.0):
        for swept in (False, True):
            demo = BulletTime(speed=speed, swept=swept)
            demo.run(3600)  # a minute of fixed steps of 1/60 s
            first, second = demo.readout()
            print(f"{second:<30} {first}")
        estimate = catch_rate(speed, 7, 0, 0.16, STEP)
        print(f"{'':<30} estimate if steps landed at random: {100 * estimate:.0f}%")


if __name__ == "__main__":
    main()
