"""What the vision benchmarks share: timing a reader against a baseline in the same run, and the
readers of an earlier git revision to compare with."""

from __future__ import annotations

import atexit
import importlib
import importlib.util
import re
import shutil
import statistics
import subprocess
import sys
import tempfile
import time
import tracemalloc
from collections.abc import Callable
from pathlib import Path
from types import ModuleType

import cv2
import numpy as np


def baseline(frame: np.ndarray) -> None:
    """The least work any reader does on a frame: grey conversion and a small blur."""
    cv2.GaussianBlur(cv2.cvtColor(frame, cv2.COLOR_BGR2GRAY), (5, 5), 0)


def time_reader(
    read: Callable[[np.ndarray], object], frames: list[np.ndarray], repeats: int = 5
) -> dict[str, float]:
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


def alternate(
    new: Callable[[np.ndarray], object],
    old: Callable[[np.ndarray], object],
    frames: list[np.ndarray],
    repeats: int = 5,
) -> dict[str, float]:
    """Same-run A/B of two readers on the same frames: one warm-up read each per frame, then
    ``repeats`` reads each, the order swapped every repeat. Medians of wall and CPU (process) ms per
    read (``new_wall``, ``new_cpu``, ``old_wall``, ``old_cpu``) and the ratios new/old."""
    times: dict[str, tuple[list[float], list[float]]] = {"new": ([], []), "old": ([], [])}
    readers = (("new", new), ("old", old))
    for frame in frames:
        for _, rd in readers:
            rd(frame)
        for r in range(repeats):
            for key, rd in readers if r % 2 == 0 else readers[::-1]:
                c0, t0 = time.process_time(), time.perf_counter()
                rd(frame)
                times[key][0].append((time.perf_counter() - t0) * 1000)
                times[key][1].append((time.process_time() - c0) * 1000)
    out = {f"{k}_{m}": statistics.median(times[k][i]) for k in times for i, m in enumerate(("wall", "cpu"))}
    out["ratio_wall"] = out["new_wall"] / out["old_wall"]
    out["ratio_cpu"] = out["new_cpu"] / out["old_cpu"]
    return out


def alternate_line(a: dict[str, float], against: str, frames: int, repeats: int) -> str:
    """The line the benchmarks print for an ``alternate`` result against the reader of ``against``."""
    return (
        f"same run, alternating with the reader of {against} ({frames} frames x {repeats}): "
        f"new {a['new_wall']:.2f} ms wall / {a['new_cpu']:.2f} ms CPU, old {a['old_wall']:.2f} ms wall / "
        f"{a['old_cpu']:.2f} ms CPU; ratio new/old {a['ratio_wall']:.3f} wall, {a['ratio_cpu']:.3f} CPU"
    )


def module_from_file(path: str, name: str) -> ModuleType:
    """A reader module from a file (e.g. an earlier copy of vision/cards.py), imported as ``name``
    beside the current one; its ``vision`` imports are the current modules."""
    spec = importlib.util.spec_from_file_location(name, path)
    if spec is None or spec.loader is None:
        raise SystemExit(f"cannot load a reader from {path}")
    mod = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(mod)
    return mod


def old_module(rev: str, module: str) -> ModuleType:
    """The reader ``vision.<module>`` of git revision ``rev`` with that revision's own vision modules
    (common, mat, dice_body, ...): its ``vision`` package written to a temporary folder under another
    name, so the old and the current reader run side by side in one process."""
    repo = Path(__file__).resolve().parents[1]
    name = "vision_" + "".join(c if c.isalnum() else "_" for c in rev)
    top = Path(tempfile.mkdtemp(prefix="bench-vision-"))
    atexit.register(shutil.rmtree, top, True)

    def git(*args: str) -> str:
        return subprocess.run(
            ["git", "-C", str(repo), *args], capture_output=True, text=True, check=True
        ).stdout

    try:
        files = [f for f in git("ls-tree", "-r", "--name-only", rev, "vision/").split() if f.endswith(".py")]
        for f in files:
            # its own modules, not the current ones
            text = re.sub(
                r"^(\s*)from vision([ .])", rf"\1from {name}\2", git("show", f"{rev}:{f}"), flags=re.M
            )
            text = re.sub(r"^(\s*)import vision\.", rf"\1import {name}.", text, flags=re.M)
            path = top / name / f.removeprefix("vision/")
            path.parent.mkdir(parents=True, exist_ok=True)
            path.write_text(text)
    except (OSError, subprocess.CalledProcessError) as exc:
        raise SystemExit(f"cannot load the vision package of {rev} from git ({exc})") from None
    sys.path.insert(0, str(top))
    try:
        return importlib.import_module(f"{name}.{module}")
    finally:
        sys.path.remove(str(top))
