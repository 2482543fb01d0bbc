"""Bag of Butts benchmark: accuracy over rendered scenes and speed per 1280x960 frame.

``python3 -m vision.bench_tokens --scenes 500 --first-seed 1000000`` prints per-butt accuracy
(colour and group both right), confusion matrices, and the median time on one core with a ratio
against a baseline (cvtColor to grey + 5x5 GaussianBlur of the same frame) and peak memory.
``--speed-only --against REV`` also times the reader of git revision REV (or a tokens.py file),
its reads alternating with this one's on the same frames, and prints the new/old ratio;
``--identical REV`` checks that both readers give the same JSON on 500 tuning frames.
"""

from __future__ import annotations

import argparse
from pathlib import Path
from types import ModuleType
from typing import Any

import cv2
import numpy as np

from vision import tokens
from vision.bench_common import alternate, alternate_line, module_from_file, old_module, time_reader
from vision.render import tokens as render

COLOURS = list(tokens.COLOURS)


def match(truth: list[dict[str, Any]], seen: list[dict[str, Any]]) -> list[tuple[int, int | None]]:
    """Pair each true butt with the nearest unused detection whose centre lies inside its box
    (grown by half a butt width); unpaired truths get None."""
    def centre(o):
        x, y, w, h = o["box"]
        return np.array([x + w / 2, y + h / 2])
    pairs = []
    used: set[int] = set()
    cands = []
    for i, t in enumerate(truth):
        ct = centre(t)
        reach = max(t["box"][2], t["box"][3]) * 0.5
        for j, s in enumerate(seen):
            d = float(np.linalg.norm(centre(s) - ct))
            if d <= reach:
                cands.append((d, i, j))
    cands.sort()
    done: set[int] = set()
    for _, i, j in cands:
        if i in done or j in used:
            continue
        done.add(i)
        used.add(j)
        pairs.append((i, j))
    pairs += [(i, None) for i in range(len(truth)) if i not in done]
    return pairs


def accuracy(seeds: range, n: int | None = None, with_mat: bool | None = None,
             verbose: bool = False) -> dict[str, Any]:
    """Run the reader over rendered scenes; count butts right (colour and group), wrong, missed, extra."""
    conf = np.zeros((len(COLOURS) + 1, len(COLOURS) + 1), int)  # last row/col: missed / extra
    right = total = extra = group_wrong = 0
    bad_scenes = []
    calib: list[tuple[float, bool]] = []  # (confidence, reading right) of every detection
    for seed in seeds:
        frame, truth = render.scene(seed, n=n, with_mat=with_mat)
        seen = tokens.read(frame).objects
        pairs = match(truth, seen)
        used = {j for _, j in pairs if j is not None}
        errs = 0
        for i, j in pairs:
            t = truth[i]
            ti = COLOURS.index(t["colour"])
            if j is None:
                conf[ti, -1] += 1
                errs += 1
                continue
            s = seen[j]
            conf[ti, COLOURS.index(s["colour"])] += 1
            ok = s["colour"] == t["colour"] and s["group"] == t["group"]
            group_wrong += s["group"] != t["group"]
            right += ok
            errs += not ok
            calib.append((float(s["confidence"]), bool(ok)))
        for j, s in enumerate(seen):
            if j not in used:
                conf[-1, COLOURS.index(s["colour"])] += 1
                calib.append((float(s["confidence"]), False))
                extra += 1
                errs += 1
        total += len(truth)
        if errs:
            bad_scenes.append((seed, errs))
            if verbose:
                print(f"seed {seed}: {errs} errors")
    return {"right": right, "total": total, "extra": extra, "group_wrong": group_wrong,
            "accuracy": right / max(1, total + extra), "confusion": conf, "bad": bad_scenes, "calib": calib}


def print_calibration(calib: list[tuple[float, bool]]) -> None:
    """How often a detection is right per confidence band: tells the UI which readings to flag."""
    edges = (0.0, 0.3, 0.5, 0.7, 0.9, 1.01)
    print("confidence     detections  right")
    for lo, hi in zip(edges[:-1], edges[1:], strict=True):
        band = [ok for c, ok in calib if lo <= c < hi]
        if band:
            print(f"{lo:.1f}-{min(hi, 1.0):.1f}  {len(band):14d}  {100 * sum(band) / len(band):5.1f} %")


def print_confusion(conf: np.ndarray) -> None:
    names = [c[:5] for c in COLOURS] + ["miss"]
    print("truth \\ read " + " ".join(f"{n:>6}" for n in names[:-1]) + "   miss")
    for i, row in enumerate(conf):
        label = names[i] if i < len(COLOURS) else "extra"
        print(f"{label:>13} " + " ".join(f"{v:6d}" for v in row))


def speed(seeds: range, n: int = 14, repeats: int = 5) -> dict[str, float]:
    """Median ms per frame of read() and of the baseline on one core, and peak memory of read()."""
    return time_reader(tokens.read, [render.scene(s, n=n)[0] for s in seeds], repeats)


def old_reader(rev: str) -> ModuleType:
    """The token reader of git revision ``rev`` (with that revision's own vision modules, mat and
    common, written to a temporary package under another name), or of a tokens.py file whose
    ``vision`` imports are the current ones: it runs side by side with the current reader."""
    if Path(rev).is_file():
        return module_from_file(rev, "tokens_against")
    return old_module(rev, "tokens")


def speed_against(seeds: range, against: str, n: int = 14, repeats: int = 5) -> dict[str, float]:
    """Same-run A/B: this reader and the reader of ``against`` alternate on the same frames (one
    warm-up read each per frame); medians of wall and CPU (process) ms per read, ratios new/old."""
    other = old_reader(against)
    frames = [render.scene(s, n=n)[0] for s in seeds]
    return alternate(tokens.read, other.read, frames, repeats)


CHECK_SETS = ((range(0, 200), True), (range(0, 200), False), (range(20_000, 20_100), False))


def identical(against: str, n: int = 14) -> tuple[int, list[str]]:
    """Whether this reader's JSON equals the reader of ``against`` on the tuning check set (seeds
    0-199 with and without the mat, bare seeds 20 000-20 099): frames compared, frames that differ."""
    other = old_reader(against)
    cv2.setNumThreads(1)
    count, differ = 0, []
    for seeds, with_mat in CHECK_SETS:
        for seed in seeds:
            frame = render.scene(seed, n=n, with_mat=with_mat)[0]
            count += 1
            if tokens.read(frame).to_json() != other.read(frame).to_json():
                differ.append(f"{seed}{' (mat)' if with_mat else ''}")
    return count, differ


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--scenes", type=int, default=500)
    ap.add_argument("--first-seed", type=int, default=1_000_000)
    ap.add_argument("--speed-scenes", type=int, default=20)
    ap.add_argument("--verbose", action="store_true")
    ap.add_argument("--against", metavar="REV_OR_FILE",
                    help="also time the token reader of this git revision (or tokens.py file), alternating")
    ap.add_argument("--repeats", type=int, default=5, help="timed reads per speed frame")
    ap.add_argument("--speed-only", action="store_true", help="skip the accuracy run")
    ap.add_argument("--accuracy-only", action="store_true", help="skip the speed run")
    ap.add_argument("--only", choices=("mat", "bare"), help="accuracy on mat or bare-table scenes only")
    ap.add_argument("--bare-first-seed", type=int, default=None,
                    help="first seed of the bare-table scenes (default: --first-seed + 500000)")
    ap.add_argument("--identical", metavar="REV_OR_FILE",
                    help="only compare this reader's JSON with that reader's on the 500 tuning check frames")
    args = ap.parse_args(argv)
    if args.identical:
        count, differ = identical(args.identical)
        print(f"{count} frames compared with the reader of {args.identical}: {len(differ)} differ"
              + (f" (seeds {', '.join(differ[:20])})" if differ else ""))
        return 1 if differ else 0
    cv2.setNumThreads(1)
    runs = [("with the mat", True), ("without the mat", False)] if not args.speed_only else []
    runs = [r for r in runs if args.only is None or r[1] == (args.only == "mat")]
    for label, with_mat in runs:
        start = args.first_seed if with_mat else (
            args.first_seed + 500_000 if args.bare_first_seed is None else args.bare_first_seed)
        r = accuracy(range(start, start + args.scenes // 2), with_mat=with_mat, verbose=args.verbose)
        print(f"{label}: {r['right']}/{r['total']} butts right (colour and group) = "
              f"{100 * r['accuracy']:.2f} % (extra detections {r['extra']}, wrong group {r['group_wrong']}, "
              f"scenes with an error {len(r['bad'])})")
        print_confusion(r["confusion"])
        print_calibration(r["calib"])
    if args.accuracy_only:
        return 0
    seeds = range(args.first_seed, args.first_seed + args.speed_scenes)
    if args.against:
        a = speed_against(seeds, args.against, repeats=args.repeats)
        print(alternate_line(a, args.against, len(seeds), args.repeats))
    s = speed(seeds, repeats=args.repeats)
    print(f"speed (14 butts, 1280x960, one core): read {s['read_ms']:.2f} ms median, baseline "
          f"{s['base_ms']:.2f} ms, ratio {s['ratio']:.1f}x, peak memory {s['peak_mb']:.1f} MB")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
