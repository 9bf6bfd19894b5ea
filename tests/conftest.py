"""Shared test settings: a deterministic hypothesis profile sized for CI."""

from __future__ import annotations

import os

from hypothesis import HealthCheck, settings

# the demos' views render into an invisible window, so the suite runs with or without a display
os.environ.setdefault("SDL_VIDEODRIVER", "dummy")
os.environ.setdefault("SDL_AUDIODRIVER", "dummy")
# the suite's subprocesses check their stderr line by line: no first-compile notice there
# (tests/test_first_run.py turns it on where it tests it)
os.environ.setdefault("SWEPT_COMPILE_NOTICE", "0")

settings.register_profile(
    "ci",
    max_examples=200,
    deadline=None,
    derandomize=True,
    suppress_health_check=[HealthCheck.too_slow],
)
settings.register_profile(
    "dev", max_examples=100, deadline=None, suppress_health_check=[HealthCheck.too_slow]
)
settings.load_profile(os.environ.get("HYPOTHESIS_PROFILE", "ci"))
