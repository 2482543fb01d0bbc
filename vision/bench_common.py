"""What the vision benchmarks share: timing a reader against a baseline in the same run."""

from __future__ import annotations

import statistics
import time
import tracemalloc
from collections.abc import Callable

import cv2
import numpy as np


def baseline(frame: np.ndarray) -> None:
    """The least work any reader does on a frame: grey conversion and a small blur."""
    cv2.GaussianBlur(cv2.cvtColor(frame, cv2.COLOR_BGR2GRAY), (5, 5), 0)


def time_reader(read: Callable[[np.ndarray], object], frames: list[np.ndarray],
                repeats: int = 5) -> dict[str, float]:
    """Median ms per frame of ``read`` and of the baseline on one core (interleaved, after one
    warm-up read per frame), and the peak memory traced during one read."""
    cv2.setNumThreads(1)
    t_read, t_base = [], []
    for frame in frames:
        read(frame)
        for _ in range(repeats):
            t0 = time.perf_counter()
            baseline(frame)
            t1 = time.perf_counter()
            read(frame)
            t2 = time.perf_counter()
            t_base.append((t1 - t0) * 1000)
            t_read.append((t2 - t1) * 1000)
    tracemalloc.start()
    read(frames[0])
    _, peak = tracemalloc.get_traced_memory()
    tracemalloc.stop()
    med_r, med_b = statistics.median(t_read), statistics.median(t_base)
    return {"read_ms": med_r, "base_ms": med_b, "ratio": med_r / med_b, "peak_mb": peak / 1e6}
