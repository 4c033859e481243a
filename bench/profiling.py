"""A helper for the page benchmarks' ``--profile`` option (not a benchmark itself)."""

from __future__ import annotations

import cProfile
import io
import pstats
from collections.abc import Callable


def profile(label: str, render: Callable[[], object], *, lines: int = 30) -> None:
    """Run ``render`` once under cProfile and print the functions with the most own time."""
    profiler = cProfile.Profile()
    profiler.enable()
    render()
    profiler.disable()
    out = io.StringIO()
    stats = pstats.Stats(profiler, stream=out)
    stats.sort_stats("tottime").print_stats(lines)
    stats.sort_stats("cumulative").print_stats(lines)
    print(f"\n== profile: {label}\n{out.getvalue()}")
