"""Dice reader benchmarks: real labelled photos, rendered scenes, and speed.

    python3 -m vision.bench_dice real [--split dev|test|all]   # the real photos (shared/photos/dice)
    python3 -m vision.bench_dice render [--n 500] [--seed 1000000]
    python3 -m vision.bench_dice speed [--runs 30] [--against REV] [--scenes N]   # REV: a git revision

Real photos are split by sorted file name: every 5th photo of each folder is the held-out test set,
never used while tuning; the rest is the development set.
"""

from __future__ import annotations

import argparse
import json
import resource
import statistics
import sys
import time
import tracemalloc
from collections.abc import Callable
from pathlib import Path
from types import ModuleType
from typing import Any

import cv2
import numpy as np

from vision import dice
from vision.bench_common import old_module

NAMES = {"one": 1, "two": 2, "three": 3, "four": 4, "five": 5, "six": 6}


def shared_photos() -> Path | None:
    """The shared dice photo folder: <repo>/../shared/photos/dice, or /work/shared/photos/dice."""
    repo = Path(__file__).resolve().parents[1]
    for base in (repo.parent / "shared", repo.parent.parent / "shared", Path("/work/shared")):
        p = base / "photos" / "dice"
        if (p / "oblique").is_dir() and (p / "topdown").is_dir():
            return p
    return None


def split_of(index: int) -> str:
    return "test" if index % 5 == 4 else "dev"


def load_labels(root: Path, folder: str, split: str = "all") -> list[tuple[Path, list[dict[str, Any]]]]:
    """(photo, truth) pairs of one folder; truth boxes in pixels [x, y, w, h] and pip counts."""
    out = []
    if folder == "oblique":
        files = sorted((root / "oblique").glob("*.jpg"))
        for i, f in enumerate(files):
            if split != "all" and split_of(i) != split:
                continue
            img_w, img_h = 640, 480
            truth = []
            txt = f.with_suffix(".txt")
            for line in txt.read_text().splitlines() if txt.exists() else []:
                if not line.strip():
                    continue
                c, xc, yc, bw, bh = (float(v) for v in line.split())
                truth.append({"pips": int(c) + 1, "box": [(xc - bw / 2) * img_w, (yc - bh / 2) * img_h,
                                                          bw * img_w, bh * img_h]})
            out.append((f, truth))
    else:
        labels = json.loads((root / "topdown" / "labels.json").read_text())
        for i, name in enumerate(sorted(labels)):
            if split != "all" and split_of(i) != split:
                continue
            e = labels[name]
            truth = [{"pips": NAMES[c], "box": [x0 * 640, y0 * 640, (x1 - x0) * 640, (y1 - y0) * 640]}
                     for c, x0, y0, x1, y1 in zip(e["classes"], e["xmin"], e["ymin"], e["xmax"], e["ymax"],
                                                  strict=True)]
            out.append((root / "topdown" / name, truth))
    return out


def match(found: list[dict[str, Any]], truth: list[dict[str, Any]]) -> list[tuple[int, int]]:
    """Greedy one-to-one matching: a detection's centre inside a truth box grown by a third of its size."""
    pairs = []
    for i, o in enumerate(found):
        bx, by, bw, bh = o["box"]
        cx, cy = bx + bw / 2, by + bh / 2
        for j, t in enumerate(truth):
            x, y, w, h = t["box"]
            m = max(w, h) / 3 + 3
            if x - m <= cx <= x + w + m and y - m <= cy <= y + h + m:
                pairs.append((float(np.hypot(cx - (x + w / 2), cy - (y + h / 2))), i, j))
    pairs.sort()
    used_i, used_j, out = set(), set(), []
    for _, i, j in pairs:
        if i not in used_i and j not in used_j:
            used_i.add(i)
            used_j.add(j)
            out.append((i, j))
    return out


class Tally:
    """Detections, misses, false alarms and a pip-count confusion matrix (rows truth, cols read)."""

    def __init__(self) -> None:
        self.truth = 0
        self.found = 0
        self.matched = 0
        self.right = 0
        self.conf = np.zeros((7, 7), int)  # index 0 = missed / false alarm

    def add(self, found: list[dict[str, Any]], truth: list[dict[str, Any]]) -> None:
        pairs = match(found, truth)
        self.truth += len(truth)
        self.found += len(found)
        self.matched += len(pairs)
        mi = {i for i, _ in pairs}
        mj = {j for _, j in pairs}
        for i, j in pairs:
            self.conf[truth[j]["pips"], found[i]["pips"]] += 1
            self.right += truth[j]["pips"] == found[i]["pips"]
        for j, t in enumerate(truth):
            if j not in mj:
                self.conf[t["pips"], 0] += 1
        for i, o in enumerate(found):
            if i not in mi:
                self.conf[0, o["pips"]] += 1

    def report(self, title: str) -> str:
        rec = self.matched / max(self.truth, 1)
        prec = self.matched / max(self.found, 1)
        acc = self.right / max(self.matched, 1)
        end = self.right / max(self.truth, 1)
        lines = [f"{title}: dice {self.truth}, found {self.found}, recall {rec:.1%}, precision {prec:.1%}, "
                 f"pips right of matched {acc:.1%}, end-to-end (right / all dice) {end:.1%}",
                 "  truth\\read   miss     1     2     3     4     5     6"]
        for r in range(7):
            name = "false" if r == 0 else str(r)
            lines.append(f"  {name:>10} " + " ".join(f"{v:5d}" for v in self.conf[r]))
        return "\n".join(lines)


def run_real(split: str, profile: dict[str, Any] | None = None) -> dict[str, Tally]:
    root = shared_photos()
    if root is None:
        raise SystemExit("bench_dice: the shared dice photos are not here (../shared/photos/dice)")
    tallies = {}
    for folder in ("oblique", "topdown"):
        t = Tally()
        for path, truth in load_labels(root, folder, split):
            frame = cv2.imread(str(path))
            t.add(dice.read(frame, profile).objects, truth)
        tallies[folder] = t
    return tallies


def run_render(n: int, seed0: int, buttons: bool = False) -> str:
    """Per-die accuracy on rendered scenes: pips, and body and pip colour, of every matched die."""
    from vision.render import dice as render_dice

    kinds = render_dice.BUTTONS_SET if buttons else None
    t = Tally()
    all_right = 0
    colour_right = colour_total = 0
    colour_conf: dict[tuple[str, str], int] = {}
    for s in range(seed0, seed0 + n):
        frame, truth = render_dice.scene(s, kinds=kinds)
        found = dice.read(frame).objects
        t.add(found, truth)
        for i, j in match(found, truth):
            colour_total += 1
            a, b = truth[j], found[i]
            key = (f"{a['body']}-{a['pip_colour']}", f"{b['body']}-{b['pip_colour']}")
            colour_conf[key] = colour_conf.get(key, 0) + 1
            colour_right += key[0] == key[1]
            all_right += key[0] == key[1] and a["pips"] == b["pips"]
    title = f"rendered {'Buttons rolls' if buttons else 'scenes'} seeds {seed0}..{seed0 + n - 1}"
    lines = [t.report(title),
             f"  per die, pips and both colours right (of all {t.truth} dice): {all_right} "
             f"({all_right / max(t.truth, 1):.2%})",
             f"  body+pip colour right of matched: {colour_right}/{colour_total} "
             f"({colour_right / max(colour_total, 1):.2%})", "  colour confusion (truth -> read: count):"]
    for (a, b), v in sorted(colour_conf.items()):
        lines.append(f"    {a:>12} -> {b:<12} {v}")
    return "\n".join(lines)


def _timed(fn: Callable[[], object], runs: int) -> list[float]:
    """Wall times (ms) of ``runs`` calls."""
    ts = []
    for _ in range(runs):
        t0 = time.perf_counter()
        fn()
        ts.append((time.perf_counter() - t0) * 1000)
    return ts


def _alternate(fns: list[Callable[[], object]], runs: int) -> tuple[list[list[float]], list[list[float]]]:
    """Wall and process (CPU) times (ms) of each function, called in turn ``runs`` times.

    Taking turns spreads the load of other processes over all of them alike; CPU time is less
    sensitive to that load than wall time on a shared machine.
    """
    wall: list[list[float]] = [[] for _ in fns]
    cpu: list[list[float]] = [[] for _ in fns]
    for _ in range(runs):
        for fn, w, c in zip(fns, wall, cpu, strict=True):
            c0, t0 = time.process_time(), time.perf_counter()
            fn()
            w.append((time.perf_counter() - t0) * 1000)
            c.append((time.process_time() - c0) * 1000)
    return wall, cpu


def old_reader(rev: str) -> ModuleType:
    """The dice reader of git revision ``rev`` with the vision modules of that revision it imports
    (dice_body, dice_scout, common, ...): that revision's ``vision`` package, written to a temporary
    folder under another name, so the old and the current reader run side by side in one process."""
    return old_module(rev, "dice")


def run_speed(runs: int, against: str | None = None, scenes: int = 0) -> str:
    """Median (and best) time of read() on a 1280x960 Buttons roll, one thread, against a baseline.

    The same run also times read() with the scout off (the whole frame searched on every level),
    an empty table and bad frames, and, with ``against``, the reader of that git revision;
    ``scenes`` adds the CPU time over that many rendered scenes.
    """
    from vision.render import dice as render_dice

    cv2.setNumThreads(1)
    frame, truth = render_dice.scene(7, kinds=render_dice.BUTTONS_SET)
    for _ in range(3):
        dice.read(frame)

    def unscouted() -> None:
        dice.SCOUT = False
        try:
            dice.read(frame)
        finally:
            dice.SCOUT = True

    base = _timed(lambda: cv2.GaussianBlur(cv2.cvtColor(frame, cv2.COLOR_BGR2GRAY), (5, 5), 0), runs)
    (ours, whole), (ours_cpu, whole_cpu) = _alternate([lambda: dice.read(frame), unscouted], runs)
    tracemalloc.start()
    dice.read(frame)
    peak = tracemalloc.get_traced_memory()[1] / 1e6
    tracemalloc.stop()
    rss = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024
    found = len(dice.read(frame).objects)
    med = statistics.median
    lines = [f"speed (1 thread, {runs} runs, 1280x960, {len(truth)} dice, {found} read): "
             f"read median {med(ours):.2f} ms (best {min(ours):.2f}); "
             f"baseline cvtColor+GaussianBlur median {med(base):.2f} ms (best {min(base):.2f}); "
             f"ratio of medians {med(ours) / med(base):.1f}x; "
             f"peak traced memory {peak:.1f} MB; process max RSS {rss:.0f} MB",
             f"  same run, scout off (every level searched whole): median {med(whole):.2f} ms "
             f"(best {min(whole):.2f}); scouted / whole {med(ours) / med(whole):.2f} "
             f"(CPU time {med(ours_cpu):.2f} / {med(whole_cpu):.2f} ms: {med(ours_cpu) / med(whole_cpu):.2f})"]
    old = old_reader(against) if against else None
    if old is not None:
        old.read(frame)
        (new_t, old_t), (new_c, old_c) = _alternate([lambda: dice.read(frame), lambda: old.read(frame)], runs)
        lines.append(f"  same run, alternating with the reader of {against}: old median {med(old_t):.2f} ms "
                     f"(best {min(old_t):.2f}), new median {med(new_t):.2f} ms (best {min(new_t):.2f}), "
                     f"new / old {med(new_t) / med(old_t):.2f} (CPU time {med(new_c):.2f} / {med(old_c):.2f} ms: "
                     f"{med(new_c) / med(old_c):.2f})")
    rng = np.random.default_rng(0)
    empty = render_dice.scene(7, n_dice=0)[0]
    bad = {"empty table": empty, "black": np.zeros_like(frame), "white": np.full_like(frame, 255),
           "noise": rng.integers(0, 256, frame.shape, dtype=np.uint8)}
    for name, img in bad.items():
        n = max(runs // 3, 3)
        if old is None:
            line = f"  {name}: median {med(_timed(lambda img=img: dice.read(img), n)):.2f} ms"
        else:
            (new_t, old_t), _ = _alternate([lambda img=img: dice.read(img), lambda img=img: old.read(img)], n)
            line = f"  {name}: median {med(new_t):.2f} ms (the reader of {against}: {med(old_t):.2f} ms)"
        lines.append(f"{line}, {len(dice.read(img).objects)} dice read")
    if scenes:
        lines.append(_scenes_ab(scenes, old, against))
    return "\n".join(lines)


def _scenes_ab(n: int, old: ModuleType | None, against: str | None) -> str:
    """CPU time of read() over rendered scenes (seeds 0..n-1, dice of every size), each frame read
    in turn by the current reader and (if given) the old one: total and per-frame median ratio."""
    from vision.render import dice as render_dice

    new_c: list[float] = []
    old_c: list[float] = []
    for seed in range(n):
        frame, _ = render_dice.scene(seed)
        fns = [lambda f=frame: dice.read(f)] + ([lambda f=frame: old.read(f)] if old is not None else [])
        _, cpu = _alternate(fns, 3)
        new_c.append(statistics.median(cpu[0]))
        if old is not None:
            old_c.append(statistics.median(cpu[1]))
    line = (f"  rendered scenes 0..{n - 1} (median of 3 reads each, CPU time): new median {statistics.median(new_c):.2f} ms "
            f"per frame, total {sum(new_c):.0f} ms")
    if old is not None:
        ratios = [a / b for a, b in zip(new_c, old_c, strict=True)]
        line += (f"; the reader of {against}: median {statistics.median(old_c):.2f} ms, total {sum(old_c):.0f} ms; "
                 f"new / old total {sum(new_c) / sum(old_c):.2f}, per-frame ratio median {statistics.median(ratios):.2f} "
                 f"(range {min(ratios):.2f}-{max(ratios):.2f})")
    return line


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(prog="python3 -m vision.bench_dice")
    sub = ap.add_subparsers(dest="what", required=True)
    r = sub.add_parser("real")
    r.add_argument("--split", choices=("dev", "test", "all"), default="all")
    g = sub.add_parser("render")
    g.add_argument("--n", type=int, default=500)
    g.add_argument("--seed", type=int, default=1_000_000)
    g.add_argument("--buttons", action="store_true", help="every scene holds the six Buttons dice")
    s = sub.add_parser("speed")
    s.add_argument("--runs", type=int, default=30)
    s.add_argument("--against", metavar="REV", help="also time the reader of this git revision, alternating")
    s.add_argument("--scenes", type=int, default=0, help="also time this many rendered scenes (seeds from 0)")
    args = ap.parse_args(argv)
    if args.what == "real":
        splits = ("dev", "test") if args.split == "all" else (args.split,)
        for sp in splits:
            for folder, t in run_real(sp).items():
                print(t.report(f"real {folder} [{sp}]"))
    elif args.what == "render":
        print(run_render(args.n, args.seed, args.buttons))
    else:
        print(run_speed(args.runs, args.against, args.scenes))
    sys.stdout.flush()
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
