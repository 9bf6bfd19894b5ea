"""Moving colliders: a lift carries a ball up and across, a paddle at 50 units a step hits a
puck without passing through it.

Run: ``python examples/moving_platforms.py``. 2D screen coordinates: y grows down, so gravity
is +y and "up" is -y.
"""

from __future__ import annotations

from swept import AABB, Circle
from swept.sim import Body, Simulation


def lift() -> None:
    """A platform driven up, then right, with a ball resting on it (friction 0.5)."""
    sim = Simulation(gravity=(0, 980))
    world = sim.world
    platform = world.add(AABB((-50, 0), (50, 10)), moving=True)
    ball = sim.add(Body(Circle((0, -10), 10), friction=0.5, ccd="swept"))
    sim.move_collider(platform, velocity=(0, -120))     # up, 2 units a step
    sim.run(60)
    sim.move_collider(platform, velocity=(90, 0))       # then right, 1.5 units a step
    sim.run(120)
    top = world.shape(platform).min
    print(f"platform top at ({top.x:.1f}, {top.y:.1f}); ball at ({ball.position.x:.1f}, "
          f"{ball.position.y:.1f}) moving at {ball.velocity.x:.1f} units/s")
    assert abs(ball.position.y - (top.y - 10)) < 0.05
    assert abs(ball.velocity.x - 90) < 1e-9 and ball.missed == 0


def paddle() -> None:
    """A paddle at 3000 units/s meets a puck coming at 300 units/s (restitution 0.5)."""
    sim = Simulation(gravity=(0, 0))
    bat = sim.world.add(AABB((-20, -100), (0, 100)), moving=True)
    puck = sim.add(Body(Circle((200, 0), 5), velocity=(-300, 0), restitution=0.5,
                        ccd="swept"))
    sim.move_collider(bat, velocity=(3000, 0))
    sim.run(8)
    closed_form = (1 + 0.5) * 3000 + 0.5 * 300
    print(f"puck leaves at {puck.velocity.x:.1f} units/s (closed form {closed_form:.1f}), "
          f"{puck.position.x - 5 - sim.world.shape(bat).max.x:.1f} units ahead of the paddle, "
          f"missed {puck.missed}")
    assert abs(puck.velocity.x - closed_form) < 1e-9 and puck.missed == 0


if __name__ == "__main__":
    lift()
    paddle()
