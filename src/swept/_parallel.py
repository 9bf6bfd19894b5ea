"""Placeholder for the chunked runner (the threads branch replaces this file)."""

from __future__ import annotations

from typing import Any


def parallel_for(kernel: Any, n: int, args: tuple[Any, ...], **_options: Any) -> None:
    """Run ``kernel(0, n, *args)``."""
    kernel(0, n, *args)
