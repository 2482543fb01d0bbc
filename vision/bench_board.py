"""Buttons board benchmark: per-cell accuracy over rendered boards and speed per 1280x960 frame.

``python3 -m vision.bench_board --scenes 500 --first-seed 1000000`` prints the share of cells
read right (printed colour and content both), confusion matrices for colour and content, boards
not found, and the median time on one core with a ratio against a baseline (cvtColor to grey +
5x5 GaussianBlur of the same frame) and peak memory.
``--speed-only --against REV`` also times the board reader of git revision REV (or a board.py file),
its reads alternating with this one's on the same frames, and prints the new/old ratios (wall and
CPU); ``--identical REV`` checks that both readers give the same JSON on the 600 tuning check frames
(seeds 0-299 and 10 000-10 299).
"""

from __future__ import annotations

import argparse
from pathlib import Path
from types import ModuleType
from typing import Any

import cv2
import numpy as np

from vision import board
from vision.bench_common import alternate, alternate_line, module_from_file, old_module, time_reader
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


def old_reader(rev: str) -> ModuleType:
    """The board reader of git revision ``rev`` (with that revision's own vision modules, board_grid
    and common), or of a board.py file whose ``vision`` imports are the current ones: it runs side
    by side with the current reader."""
    if Path(rev).is_file():
        return module_from_file(rev, "board_against")
    return old_module(rev, "board")


def speed_against(seeds: range, against: str, repeats: int = 5) -> dict[str, float]:
    """Same-run A/B: this reader and the reader of ``against`` alternate on the same frames (one
    warm-up read each per frame, the order swapped every repeat); medians of wall and CPU (process)
    ms per read, ratios new/old."""
    other = old_reader(against)
    cv2.setNumThreads(1)
    frames = [render.scene(s)[0] for s in seeds]
    return alternate(board.read, other.read, frames, repeats)


CHECK_SEEDS = (range(0, 300), range(10_000, 10_300))


def identical(against: str) -> tuple[int, list[int]]:
    """Whether this reader's JSON equals the reader of ``against`` on the tuning check frames (seeds
    0-299 and 10 000-10 299): frames compared, seeds whose readings differ."""
    other = old_reader(against)
    cv2.setNumThreads(1)
    count, differ = 0, []
    for seeds in CHECK_SEEDS:
        for seed in seeds:
            frame = render.scene(seed)[0]
            count += 1
            if board.read(frame).to_json() != other.read(frame).to_json():
                differ.append(seed)
    return count, differ


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--scenes", type=int, default=500)
    ap.add_argument("--first-seed", type=int, default=1_000_000)
    ap.add_argument("--speed-scenes", type=int, default=20)
    ap.add_argument("--verbose", action="store_true")
    ap.add_argument("--against", metavar="REV_OR_FILE",
                    help="also time the board reader of this git revision (or board.py file), alternating")
    ap.add_argument("--repeats", type=int, default=5, help="timed reads per speed frame")
    ap.add_argument("--identical", metavar="REV_OR_FILE",
                    help="only compare this reader's JSON with that reader's on the 600 tuning check frames")
    ap.add_argument("--speed-only", action="store_true", help="skip the accuracy run")
    ap.add_argument("--accuracy-only", action="store_true", help="skip the speed run")
    args = ap.parse_args(argv)
    if args.identical:
        count, differ = identical(args.identical)
        print(f"{count} frames compared with the reader of {args.identical}: {len(differ)} differ"
              + (f" (seeds {', '.join(map(str, differ[:20]))})" if differ else ""))
        return 1 if differ else 0
    cv2.setNumThreads(1)
    if not args.speed_only:
        report(accuracy(range(args.first_seed, args.first_seed + args.scenes), verbose=args.verbose), args.scenes)
    if args.accuracy_only:
        return 0
    seeds = range(args.first_seed, args.first_seed + args.speed_scenes)
    if args.against:
        a = speed_against(seeds, args.against, repeats=args.repeats)
        print(alternate_line(a, args.against, len(seeds), args.repeats))
    s = speed(seeds, repeats=args.repeats)
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
