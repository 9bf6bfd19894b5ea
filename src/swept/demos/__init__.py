"""The demos: each a model (pure Python, runs headless and in tests) plus a thin pygame-ce view.

- :mod:`~swept.demos.bullet_time` (seed 000) — a fast ball, a thin wall, naive vs swept test;
- :mod:`~swept.demos.walls_and_slides` (seed 004) — push-out, slide, bounce, passes;
- :mod:`~swept.demos.tunnel` (seed 002) — where the frames land decides a discrete test (a
  flat view and a 3D one);
- :mod:`~swept.demos.slide` (seed 002) — a velocity split on a tilted surface (a 3D view);
- :mod:`~swept.demos.mesh_walk` (issue 13) — a ball character walking a triangle-mesh level;
- :mod:`~swept.demos.text` (seed 002) — the mtv, bouncing and slide log lines.

The ``view_*`` modules draw a model in a pygame-ce window; only they import pygame. Run them
with ``swept demo NAME`` (``--headless`` for the model alone).
"""

from __future__ import annotations

import os

# the views import pygame-ce, whose import prints a banner on stdout unless this is set; the
# demos' output (readouts, log lines) stays clean
os.environ.setdefault("PYGAME_HIDE_SUPPORT_PROMPT", "1")

__all__ = ["WINDOW_DEMOS", "TEXT_DEMO_NAMES", "DEMO_NAMES"]

#: The demos with a window, by their ``swept demo`` name.
WINDOW_DEMOS = ("bullet-time", "walls-and-slides", "tunnel", "tunnel-3d", "slide-3d",
                "mesh-walk")
#: The demos that print their log lines.
TEXT_DEMO_NAMES = ("mtv", "bouncing", "slide")
#: Every demo name ``swept demo`` takes.
DEMO_NAMES = WINDOW_DEMOS + TEXT_DEMO_NAMES
