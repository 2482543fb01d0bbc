"""What ``vision.keep_heap`` does to a reader process: CPU time, fresh pages and memory per read.

The touch screen reads frames in a process of its own (``ui.camera.ProcessReader``), which calls
``keep_heap`` at its start. This bench starts such processes in turn, one with the call and one
without, and has each read the same speed frames (rendered once here and handed over in a file,
so no rendering runs in the timed processes): the token reader's 20 speed frames of 14 butts, and
the dice reader's speed frame (a Buttons roll) with 9 rendered scenes. Per process: the median
thread-CPU ms of a read, the sum over the frames of each frame's fastest read, minor page faults
a read, and the resident memory after the warm-up reads and at the end. The processes alternate
(off, on, off, on, ...) so that both see the machine in the same state; the ratios on / off are
of the same pair.

    python3 -m vision.bench_heap [--runs 5] [--repeats 4] [--only tokens|dice]
"""

from __future__ import annotations

import argparse
import json
import os
import statistics
import subprocess
import sys
import tempfile
from pathlib import Path
from typing import Any

import numpy as np

CHILD = r"""
import json, resource, sys, time
import cv2
import numpy as np
import vision

kind, path, keep, repeats = sys.argv[1], sys.argv[2], sys.argv[3] == "1", int(sys.argv[4])
kept = vision.keep_heap() if keep else False
cv2.setNumThreads(1)
reader = __import__(f"vision.{kind}", fromlist=["read"])
frames = list(np.load(path))


def rss_mb():
    with open("/proc/self/statm") as f:
        return int(f.read().split()[1]) * resource.getpagesize() / 2**20


for frame in frames:
    reader.read(frame)
start_rss = rss_mb()
cpu, faults = [], []
for _ in range(repeats):
    for frame in frames:
        f0 = resource.getrusage(resource.RUSAGE_SELF).ru_minflt
        t0 = time.thread_time()
        reader.read(frame)
        cpu.append((time.thread_time() - t0) * 1000)
        faults.append(resource.getrusage(resource.RUSAGE_SELF).ru_minflt - f0)
n = len(frames)
print(json.dumps({"kept": kept, "cpu": cpu, "best": sum(min(cpu[i::n]) for i in range(n)),
                  "faults": sum(faults) / len(faults), "rss0": start_rss, "rss1": rss_mb()}))
"""


def frames_of(kind: str) -> np.ndarray:
    """The frames the readers' own speed benches time."""
    if kind == "tokens":
        from vision.render import tokens as render

        return np.stack([render.scene(s, n=14)[0] for s in range(1_000_000, 1_000_020)])
    from vision.render import dice as render_dice

    first = render_dice.scene(7, kinds=render_dice.BUTTONS_SET)[0]
    return np.stack([first] + [render_dice.scene(s)[0] for s in range(1_000_000, 1_000_009)])


def one_process(kind: str, path: str, keep: bool, repeats: int) -> dict[str, Any]:
    env = dict(os.environ, OPENBLAS_NUM_THREADS="1", OMP_NUM_THREADS="1")
    out = subprocess.run([sys.executable, "-c", CHILD, kind, path, "1" if keep else "0", str(repeats)],
                         capture_output=True, text=True, env=env, check=True)
    return json.loads(out.stdout.strip().splitlines()[-1])


def run(kind: str, runs: int, repeats: int) -> str:
    with tempfile.TemporaryDirectory() as tmp:
        path = str(Path(tmp) / f"{kind}.npy")
        np.save(path, frames_of(kind))
        pairs = [(one_process(kind, path, False, repeats), one_process(kind, path, True, repeats))
                 for _ in range(runs)]
    lines = [f"{kind}: {runs} pairs of processes (without, with keep_heap), {repeats} reads of each frame"]
    for off, on in pairs:
        m_off, m_on = statistics.median(off["cpu"]), statistics.median(on["cpu"])
        lines.append(f"  median {m_off:6.2f} -> {m_on:6.2f} ms ({m_on / m_off:.3f}); fastest reads summed "
                     f"{off['best']:7.1f} -> {on['best']:7.1f} ms ({on['best'] / off['best']:.3f}); faults a read "
                     f"{off['faults']:7.1f} -> {on['faults']:5.1f}; resident {off['rss0']:.0f}/{off['rss1']:.0f} -> "
                     f"{on['rss0']:.0f}/{on['rss1']:.0f} MB (after warm-up/end)")
    if not pairs[0][1]["kept"]:
        lines.append("  keep_heap() returned False here (no glibc): both columns run the default heap")
    ratio = statistics.median(statistics.median(on["cpu"]) / statistics.median(off["cpu"]) for off, on in pairs)
    best = statistics.median(on["best"] / off["best"] for off, on in pairs)
    lines.append(f"  median of the pairs' ratios with / without: median read {ratio:.3f}, fastest reads {best:.3f}")
    return "\n".join(lines)


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--runs", type=int, default=5, help="pairs of reader processes")
    ap.add_argument("--repeats", type=int, default=4, help="timed reads of each frame in a process")
    ap.add_argument("--only", choices=("tokens", "dice"))
    args = ap.parse_args(argv)
    for kind in (args.only,) if args.only else ("tokens", "dice"):
        print(run(kind, args.runs, args.repeats), flush=True)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
