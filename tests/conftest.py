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

# "ci" (the default): derandomized, so every run tries the same examples, a fixed regression
# set; a property without its own count tries 50 (it was 200: a fixed set finds nothing new
# run after run, and every counterexample in the history came from a random run, "found by
# hypothesis seed 707"). "dev" (HYPOTHESIS_PROFILE=dev): random examples, 500 a property, for
# the deep runs that find new bugs. A test's own @settings(max_examples=...) holds in both.
settings.register_profile(
    "ci",
    max_examples=50,
    deadline=None,
    derandomize=True,
    suppress_health_check=[HealthCheck.too_slow],
)
settings.register_profile(
    "dev", max_examples=500, deadline=None, suppress_health_check=[HealthCheck.too_slow]
)
settings.load_profile(os.environ.get("HYPOTHESIS_PROFILE", "ci"))
