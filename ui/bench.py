"""Benchmark of the live table: preview frames per second and the delay from frame to reading.

    python3 -m ui.bench [--seconds 8] [--runs 3] [--kind tokens]   (needs a display: Xvfb is fine)

Runs the real App on a temporary score pad, opens a Bag of Butts table and feeds its screen from a
30 fps source of distinct 1280x960 frames through the same TableFeed and callbacks the camera uses.
Each run is done twice: once with the reader (vision.<kind>.read, or a cvtColor+GaussianBlur
stand-in when that reader is not installed) and once with no reader, the baseline of the same
run. Prints the median over the runs of: frames shown per second, reading delay (median and 95th
percentile, frame grabbed -> reading on screen) and readings per second.

    python3 -m ui.bench --transfer [--runs 40]   (no display needed)

times only the hand-over of a frame to the reader process and back: a black 1280x960 frame (the
reader finds nothing on it at once) sent through shared memory and pickled, alternating.
"""

from __future__ import annotations

import argparse
import json
import os
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path
from typing import Any

import numpy as np


class PacedFrames:
    """Distinct frames at a camera's pace (a new array each time, as a real camera gives)."""

    def __init__(self, fps: float = 30.0, kind: str = "tokens"):
        self.period = 1.0 / fps
        self.next_at = 0.0
        self.frames = self._frames(kind)
        self.n = 0

    @staticmethod
    def _frames(kind: str) -> list[np.ndarray]:
        try:
            import importlib

            render = importlib.import_module(f"vision.render.{kind}")
            return [np.ascontiguousarray(render.scene(seed)[0]) for seed in (1_000_001, 1_000_002, 1_000_003)]
        except Exception:
            rng = np.random.default_rng(1)
            return [rng.integers(0, 255, (960, 1280, 3), dtype=np.uint8) for _ in range(3)]

    def open(self) -> None:
        self.next_at = time.perf_counter()

    def read(self) -> np.ndarray:
        delay = self.next_at - time.perf_counter()
        if delay > 0:
            time.sleep(delay)
        self.next_at = max(self.next_at + self.period, time.perf_counter() - self.period)
        self.n += 1
        return self.frames[self.n % len(self.frames)].copy()

    def close(self) -> None:
        pass


def stand_in_reader(frame: np.ndarray) -> Any:
    """When no reader is installed: the baseline image work every reader does at least."""
    import cv2

    cv2.GaussianBlur(cv2.cvtColor(frame, cv2.COLOR_BGR2HSV), (5, 5), 0)
    return type("Obs", (), {"objects": []})()


def one_run(seconds: float, kind: str, with_reader: bool) -> dict[str, Any]:
    """Child process: run the App, measure, print one JSON line."""
    os.environ.setdefault("KIVY_NO_ARGS", "1")
    os.environ.setdefault("KIVY_NO_CONSOLELOG", "1")
    from kivy.clock import Clock

    from ui.camera import TableFeed, load_reader

    result: dict[str, Any] = {}
    reader = load_reader(kind) if with_reader else None
    result["reader"] = (f"vision.{kind} ({type(reader).__name__})" if reader else "stand-in") if with_reader else "none"
    if with_reader and reader is None:
        reader = stand_in_reader

    def begin(_dt: float) -> None:
        from kivy.app import App

        app = App.get_running_app()
        app.start_game("bag-of-butts", ["Ann", "Bob"], {})
        table = app.sm.get_screen("table")
        table.stop_feed()
        shown = []
        real_show = table.show_frame

        blit_ms: list[float] = []

        def show(frame: Any, size: tuple[int, int]) -> None:
            t0 = time.perf_counter()
            shown.append(t0)
            real_show(frame, size)
            blit_ms.append((time.perf_counter() - t0) * 1000)

        table.show_frame = show
        table.latencies.clear()
        table.feed = TableFeed(PacedFrames(30, kind), reader, table._frame_arrived, table._reading_arrived,
                               table._feed_error)
        table.feed.source.open()
        table.feed.start()

        def finish(_dt: float) -> None:
            elapsed = shown[-1] - shown[0] if len(shown) > 1 else 1.0
            lat = sorted(table.latencies)
            result.update(fps=(len(shown) - 1) / elapsed, readings_per_s=len(lat) / seconds,
                          delay_ms_median=statistics.median(lat) if lat else None,
                          delay_ms_p95=lat[int(0.95 * (len(lat) - 1))] if lat else None,
                          blit_ms_median=statistics.median(blit_ms) if blit_ms else None,
                          load=os.getloadavg()[0],
                          read_ms_median=statistics.median(table.feed.stats.read_ms) if table.feed.stats.read_ms else None)
            print(json.dumps(result), flush=True)
            app.stop()

        Clock.schedule_once(finish, seconds)

    Clock.schedule_once(begin, 0.5)
    from ui.app import main

    with tempfile.TemporaryDirectory() as tmp:
        main(["--db", str(Path(tmp) / "bench.sqlite3"), "--size", "800x480", "--camera", "demo"])
    return result


def transfer(runs: int) -> dict[str, float]:
    """Median ms of a reader-process round trip of a black 1280x960 frame, through shared memory and
    pickled, alternating in one run (the same process and reader for both)."""
    from ui.camera import ProcessReader

    frame = np.zeros((960, 1280, 3), np.uint8)
    reader = ProcessReader("tokens")
    times: dict[bool, list[float]] = {True: [], False: []}
    try:
        reader(frame)  # start the process and import the reader
        for k in range(2 * runs):
            reader.shared = k % 2 == 0  # the pickled path is the one taken where shared memory is missing
            t0 = time.perf_counter()
            reader(frame)
            times[k % 2 == 0].append((time.perf_counter() - t0) * 1000)
    finally:
        reader.close()
    return {"shared_ms": statistics.median(times[True]), "pickled_ms": statistics.median(times[False])}


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(prog="python3 -m ui.bench", description=__doc__.splitlines()[0])
    ap.add_argument("--seconds", type=float, default=8.0)
    ap.add_argument("--runs", type=int, default=None, help="runs (default 3; with --transfer, round trips: 40)")
    ap.add_argument("--kind", default="tokens", choices=["tokens", "dice", "cards", "board"])
    ap.add_argument("--child", choices=["reader", "none"], help=argparse.SUPPRESS)
    ap.add_argument("--transfer", action="store_true", help="time only the frame hand-over to the reader process")
    args = ap.parse_args(argv)
    if args.transfer:
        t = transfer(args.runs or 40)
        print(f"frame to reader process and back (black 1280x960, {os.cpu_count()} cores, load "
              f"{os.getloadavg()[0]:.1f}): shared memory {t['shared_ms']:.1f} ms, pickled {t['pickled_ms']:.1f} ms "
              f"median (shared / pickled {t['shared_ms'] / t['pickled_ms']:.2f})")
        return 0
    if args.child:
        one_run(args.seconds, args.kind, args.child == "reader")
        return 0
    args.runs = args.runs or 3
    if not os.environ.get("DISPLAY"):
        print("ui.bench needs a display; run it under Xvfb, e.g. xvfb-run -s '-screen 0 1920x1080x24' "
              "python3 -m ui.bench", file=sys.stderr)
        return 2
    rows: dict[str, list[dict[str, Any]]] = {"reader": [], "none": []}
    env = dict(os.environ, KIVY_HOME=tempfile.mkdtemp(prefix="kivy-bench-"))
    for _ in range(args.runs):
        for mode in ("none", "reader"):
            out = subprocess.run([sys.executable, "-m", "ui.bench", "--child", mode, "--seconds", str(args.seconds),
                                  "--kind", args.kind], env=env, capture_output=True, text=True,
                                 cwd=Path(__file__).resolve().parent.parent)
            lines = [ln for ln in out.stdout.splitlines() if ln.startswith("{")]
            if not lines:
                print(out.stderr[-2000:], file=sys.stderr)
                return 1
            rows[mode].append(json.loads(lines[-1]))

    def med(mode: str, key: str) -> float:
        values = [r[key] for r in rows[mode] if r.get(key) is not None]
        return statistics.median(values) if values else float("nan")

    print(f"live table, {args.runs} runs of {args.seconds:.0f} s, 1280x960 frames at 30 fps, window 800x480")
    print(f"reader: {rows['reader'][0]['reader']}")
    print(f"preview fps, no reader (baseline):   {med('none', 'fps'):6.1f}")
    print(f"preview fps, reader running:          {med('reader', 'fps'):6.1f}  "
          f"(ratio {med('reader', 'fps') / med('none', 'fps'):.2f} of baseline)")
    print(f"texture update on the UI thread:     {med('none', 'blit_ms_median'):6.1f} ms per frame (median)")
    print(f"reader time per frame (median):      {med('reader', 'read_ms_median'):6.1f} ms")
    print(f"frame -> reading on screen, median:  {med('reader', 'delay_ms_median'):6.1f} ms")
    print(f"frame -> reading on screen, p95:     {med('reader', 'delay_ms_p95'):6.1f} ms")
    print(f"readings per second:                 {med('reader', 'readings_per_s'):6.1f}  (paced at 10/s)")
    print(f"machine load average during runs:    {med('reader', 'load'):6.1f}  ({os.cpu_count()} cores)")
    return 0


if __name__ == "__main__":
    sys.exit(main())
