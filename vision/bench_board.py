"""Buttons board benchmark: per-cell accuracy over rendered boards and speed per 1280x960 frame.

``python3 -m vision.bench_board --scenes 500 --first-seed 1000000`` prints the share of cells
read right (printed colour and content both), confusion matrices for colour and content, boards
not found, and the median time on one core with a ratio against a baseline (cvtColor to grey +
5x5 GaussianBlur of the same frame) and peak memory.
"""

from __future__ import annotations

import argparse
from typing import Any

import cv2
import numpy as np

from vision import board
from vision.bench_common import time_reader
from vision.render import board as render


def accuracy(seeds: range, verbose: bool = False) -> dict[str, Any]:
    """Read rendered boards; a cell is right when its colour and content both match."""
    colours, contents = list(board.COLOURS), list(board.CONTENTS)
    conf_colour = np.zeros((4, 4), int)
    conf_content = np.zeros((3, 3), int)
    right = total = missed_boards = 0
    bad = []
    for seed in seeds:
        frame, truth = render.scene(seed)
        seen = {(o["row"], o["col"]): o for o in board.read(frame).objects}
        if not seen:
            missed_boards += 1
        errs = 0
        for t in truth:
            total += 1
            s = seen.get((t["row"], t["col"]))
            if s is None:
                errs += 1
                continue
            conf_colour[colours.index(t["colour"]), colours.index(s["colour"])] += 1
            conf_content[contents.index(t["content"]), contents.index(s["content"])] += 1
            ok = s["colour"] == t["colour"] and s["content"] == t["content"]
            right += ok
            errs += not ok
        if errs:
            bad.append((seed, errs))
            if verbose:
                print(f"seed {seed}: {errs} cells wrong")
    return {"right": right, "total": total, "accuracy": right / max(1, total), "boards_missed": missed_boards,
            "colour": conf_colour, "content": conf_content, "bad": bad}


def speed(seeds: range, repeats: int = 5) -> dict[str, float]:
    """Median ms per frame of read() and of the baseline on one core, and peak memory of read()."""
    return time_reader(board.read, [render.scene(s)[0] for s in seeds], repeats)


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--scenes", type=int, default=500)
    ap.add_argument("--first-seed", type=int, default=1_000_000)
    ap.add_argument("--speed-scenes", type=int, default=20)
    ap.add_argument("--verbose", action="store_true")
    ap.add_argument("--speed-only", action="store_true", help="skip the accuracy run")
    ap.add_argument("--accuracy-only", action="store_true", help="skip the speed run")
    args = ap.parse_args(argv)
    cv2.setNumThreads(1)
    if not args.speed_only:
        report(accuracy(range(args.first_seed, args.first_seed + args.scenes), verbose=args.verbose), args.scenes)
    if args.accuracy_only:
        return 0
    s = speed(range(args.first_seed, args.first_seed + args.speed_scenes))
    print(f"speed (1280x960, one core): read {s['read_ms']:.2f} ms median, baseline {s['base_ms']:.2f} ms, "
          f"ratio {s['ratio']:.1f}x, peak memory {s['peak_mb']:.1f} MB")
    return 0


def report(r: dict[str, Any], scenes: int) -> None:
    """Print the accuracy figures and confusion matrices of one run."""
    print(f"{r['right']}/{r['total']} cells right (colour and content) = {100 * r['accuracy']:.3f} % "
          f"over {scenes} boards; boards not found {r['boards_missed']}; boards with an error {len(r['bad'])}")
    print("colour: truth \\ read  " + " ".join(f"{c:>6}" for c in board.COLOURS))
    for c, row in zip(board.COLOURS, r["colour"], strict=True):
        print(f"{c:>20}  " + " ".join(f"{v:6d}" for v in row))
    print("content: truth \\ read " + " ".join(f"{c:>7}" for c in board.CONTENTS))
    for c, row in zip(board.CONTENTS, r["content"], strict=True):
        print(f"{c:>20}  " + " ".join(f"{v:7d}" for v in row))


if __name__ == "__main__":
    raise SystemExit(main())
