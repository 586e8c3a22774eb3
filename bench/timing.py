"""What the benchmarks share for timing: repeated runs of one piece of work, and milliseconds."""

from __future__ import annotations

import gc
import time
from collections.abc import Callable


def ms(seconds: float) -> float:
    """Seconds as milliseconds, to the microsecond."""
    return round(seconds * 1000, 3)


def timed(fn: Callable[[], object], runs: int) -> list[float]:
    """The wall time of each of ``runs`` calls of ``fn``, in seconds (garbage collected first,
    so that an earlier step's litter is not charged to this one)."""
    times = []
    gc.collect()
    for _ in range(runs):
        start = time.perf_counter()
        fn()
        times.append(time.perf_counter() - start)
    return times
