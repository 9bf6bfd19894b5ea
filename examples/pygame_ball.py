"""A ball that never tunnels: swept_step in a pygame-ce window (python examples/pygame_ball.py,
--frames N to stop after N frames; SDL_VIDEODRIVER=dummy runs it with no display)."""
import sys

import pygame

from swept import Circle, Segment
from swept.step import swept_step

frames = int(sys.argv[sys.argv.index("--frames") + 1]) if "--frames" in sys.argv else -1
box = [(40, 40), (760, 40), (760, 560), (40, 560)]
walls = [Segment(a, b) for a, b in zip(box, box[1:] + box[:1])]
walls.append(Segment((400, 150), (400, 450)))         # a thin wall: no thickness at all
ball, velocity = Circle((120, 300), 8), (3000.0, 700.0)  # 51 px a step, 3 times its width
pygame.display.init()
screen, clock = pygame.display.set_mode((800, 600)), pygame.time.Clock()
while frames != 0 and not any(e.type == pygame.QUIT for e in pygame.event.get()):
    step = swept_step(ball, velocity, 1 / 60, walls)  # cast, bounce, spend the rest
    ball, velocity, frames = step.shape, step.velocity, frames - 1
    screen.fill((18, 21, 26))
    for wall in walls:
        pygame.draw.line(screen, (150, 158, 170), wall.a, wall.b, 2)
    pygame.draw.circle(screen, (47, 158, 68), ball.center, ball.radius)
    pygame.display.flip()
    clock.tick(60)
print(f"ball at ({ball.center.x:.1f}, {ball.center.y:.1f})")
