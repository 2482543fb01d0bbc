"""Benchmark of the frame sources' own cost per frame: ``python3 -m hardware.bench``.

Prints medians of several runs, each against a baseline measured in the same run: replaying a
folder against plain cv2.imread of the same files, the ReconnectingSource wrapper against reading
the source directly, and the lores YUV420 conversion against a plain BGR copy of the same size.
"""

from __future__ import annotations

import argparse
import statistics
import tempfile
import time
from collections.abc import Callable
from pathlib import Path

import cv2
import numpy as np

from hardware.picamera import yuv420_to_bgr
from hardware.reconnect import ReconnectingSource
from hardware.sources import OPEN, FrameSource, ReplaySource


def table_like(seed: int, width: int = 1280, height: int = 960) -> np.ndarray:
    """A frame with wood-like noise and coloured discs, so JPEG/PNG sizes are realistic."""
    rng = np.random.default_rng(seed)
    frame = np.empty((height, width, 3), np.uint8)
    frame[:] = (60, 100, 150)
    noise = rng.normal(0, 12, (height, width, 1))
    frame = np.clip(frame + noise, 0, 255).astype(np.uint8)
    for _ in range(40):
        centre = (int(rng.integers(40, width - 40)), int(rng.integers(40, height - 40)))
        colour = tuple(int(c) for c in rng.integers(0, 255, 3))
        cv2.circle(frame, centre, int(rng.integers(12, 30)), colour, -1, cv2.LINE_AA)
    return frame


def per_call(action: Callable[[], object], calls: int, runs: int) -> float:
    """Median over runs of the mean seconds per call, after one untimed warm-up run."""
    for _ in range(calls):
        action()
    times = []
    for _ in range(runs):
        start = time.perf_counter()
        for _ in range(calls):
            action()
        times.append((time.perf_counter() - start) / calls)
    return statistics.median(times)


class MemorySource(FrameSource):
    """Hands out one frame from memory: measures only the wrapper around it."""

    name = "memory"

    def __init__(self, frame: np.ndarray) -> None:
        super().__init__()
        self.frame = frame

    def open(self) -> None:
        self.state = OPEN

    def read(self) -> np.ndarray | None:
        return self.frame

    def close(self) -> None:
        self.state = "closed"


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(prog="python3 -m hardware.bench", description=__doc__.splitlines()[0])
    ap.add_argument("--frames", type=int, default=20, help="frames per folder (default 20)")
    ap.add_argument("--runs", type=int, default=5, help="runs per figure; the median is printed (default 5)")
    args = ap.parse_args(argv)
    cv2.setNumThreads(1)
    print(f"opencv {cv2.__version__}, numpy {np.__version__}, one OpenCV thread, median of {args.runs} runs")

    with tempfile.TemporaryDirectory() as tmp:
        for suffix in (".jpg", ".png"):
            folder = Path(tmp) / suffix[1:]
            folder.mkdir()
            for i in range(args.frames):
                cv2.imwrite(str(folder / f"frame{i}{suffix}"), table_like(i))
            files = sorted(folder.iterdir())
            it = iter(range(10**9))

            def imread(files: list[Path] = files, it=it) -> None:
                cv2.imread(str(files[next(it) % len(files)]), cv2.IMREAD_COLOR)

            baseline = per_call(imread, args.frames, args.runs)
            with ReplaySource(folder) as replay:
                replay_time = per_call(replay.read, args.frames, args.runs)
            print(
                f"replay 1280x960 {suffix[1:]:4}: {replay_time * 1e3:6.2f} ms/frame "
                f"({1 / replay_time:5.0f} fps); cv2.imread alone {baseline * 1e3:6.2f} ms; "
                f"ratio {replay_time / baseline:.2f}"
            )

    frame = table_like(0)
    memory = MemorySource(frame)
    memory.open()
    direct = per_call(memory.read, 20000, args.runs)
    wrapped_source = ReconnectingSource(lambda: MemorySource(frame), first=memory)
    wrapped = per_call(wrapped_source.read, 20000, args.runs)
    wrapped_source.close()
    print(
        f"ReconnectingSource.read: {wrapped * 1e6:6.2f} us/frame; direct read {direct * 1e6:6.2f} us; "
        f"extra {(wrapped - direct) * 1e6:5.2f} us per frame"
    )

    lores = cv2.resize(frame, (640, 480))
    yuv = cv2.cvtColor(lores, cv2.COLOR_BGR2YUV_I420)
    convert = per_call(lambda: yuv420_to_bgr(yuv, 640), 500, args.runs)
    copy = per_call(lores.copy, 500, args.runs)
    print(
        f"lores 640x480 YUV420 -> BGR: {convert * 1e3:6.3f} ms/frame; BGR copy of the same size "
        f"{copy * 1e3:6.3f} ms; ratio {convert / copy:.1f}"
    )
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
