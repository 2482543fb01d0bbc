"""Card reader benchmark: accuracy on unseen rendered scenes and speed on one core.

    python3 -m vision.bench_cards                 # 500 scenes from seed 1_000_000, then speed
    python3 -m vision.bench_cards --scenes 100 --skip-speed
    python3 -m vision.bench_cards --scenes 300 --start 0 --skip-speed --fan-show 0.3 0.38   # tight fans
    python3 -m vision.bench_cards --scenes 300 --start 0 --skip-speed --face-glare 0.15    # glossy glare
    python3 -m vision.bench_cards --skip-accuracy --against /tmp/cards_old/vision/cards.py

Accuracy: every card in the truth must be found (matched by its top-left corner) with the right
colour and value; a missed card counts as wrong. Speed: median ms per 1280x960 frame with one row
of 12 fanned cards, with cv2 on one thread, against a cvtColor + GaussianBlur baseline of the
same frame measured in the same run, and the peak memory of one read.
"""

from __future__ import annotations

import argparse
import functools
import multiprocessing
import os
import resource
import statistics
import time
import tracemalloc
from collections import Counter
from typing import Any

import cv2
import numpy as np

from vision import cards
from vision.bench_common import module_from_file
from vision.cards_glyphs import VALUES
from vision.render.cards import scene

EVAL_SEED = 1_000_000


def match(truth: list[dict[str, Any]], seen: list[dict[str, Any]]) -> list[tuple[dict, dict | None]]:
    """Pair each true card with the read card whose box top-left is nearest (within a quarter card)."""
    used: set[int] = set()
    pairs = []
    for t in truth:
        tx, ty, _, th = t["box"]
        best, best_d = None, 0.25 * th
        for j, o in enumerate(seen):
            if j in used:
                continue
            d = float(np.hypot(o["box"][0] - tx, o["box"][1] - ty))
            if d < best_d:
                best, best_d = j, d
        if best is not None:
            used.add(best)
        pairs.append((t, seen[best] if best is not None else None))
    return pairs


def _matrix(title: str, counts: Counter, rows: list[str], cols: list[str]) -> str:
    width = max(6, *(len(c) for c in cols)) + 1
    lines = [title, "truth\\seen".ljust(10) + "".join(c.rjust(width) for c in cols)]
    for r in rows:
        if any(counts[(r, c)] for c in cols):
            lines.append(r.ljust(10) + "".join(str(counts[(r, c)] or ".").rjust(width) for c in cols))
    return "\n".join(lines)


def _score_scene(seed: int, **options: Any) -> dict[str, Any]:
    """Read one rendered scene (scene options such as fan_show, face_glare) and tally it against its truth."""
    cv2.setNumThreads(1)
    frame, truth = scene(seed, **options)
    seen = cards.read(frame).objects
    pairs = match(truth, seen)
    out: dict[str, Any] = {"total": 0, "right": 0, "colour_ok": 0, "value_ok": 0, "missed": 0, "placed": 0,
                           "extra": len(seen) - sum(1 for _, o in pairs if o is not None),
                           "colours": Counter(), "values": Counter()}
    for t, o in pairs:
        out["total"] += 1
        if o is None:
            out["missed"] += 1
            out["colours"][(t["colour"], "miss")] += 1
            out["values"][(str(t["value"]), "miss")] += 1
            continue
        out["colours"][(t["colour"], o["colour"])] += 1
        out["values"][(str(t["value"]), str(o["value"]))] += 1
        out["colour_ok"] += o["colour"] == t["colour"]
        out["value_ok"] += o["value"] == t["value"]
        out["right"] += o["colour"] == t["colour"] and o["value"] == t["value"]
        out["placed"] += (o["row"], o["position"]) == (t["row"], t["position"])
    return out


def accuracy(n: int, start: int = EVAL_SEED, jobs: int = 1, **options: Any) -> dict[str, Any]:
    """Read n rendered scenes (in `jobs` processes) and print per-card accuracy and confusion matrices.

    ``options`` go to the renderer's scene() (e.g. tighter fans, glare over whole faces).
    """
    seeds = range(start, start + n)
    score = functools.partial(_score_scene, **options)
    if jobs > 1:
        with multiprocessing.Pool(jobs) as pool:
            results = pool.map(score, seeds, chunksize=4)
    else:
        results = [score(s) for s in seeds]
    colours, values = Counter(), Counter()
    for r in results:
        colours.update(r["colours"])
        values.update(r["values"])
    total, right, colour_ok, value_ok, missed, extra, placed = (
        sum(r[k] for r in results) for k in ("total", "right", "colour_ok", "value_ok", "missed", "extra", "placed"))
    cnames = list(cards.COLOURS)
    vnames = [str(v) for v in VALUES]
    print(f"scenes {n} (seeds {start}..{start + n - 1}{''.join(f', {k}={v}' for k, v in options.items())}), "
          f"cards {total}")
    print(f"per card (colour and value right): {right / total:.4f}  ({right}/{total})")
    print(f"colour right: {colour_ok / total:.4f}  value right: {value_ok / total:.4f}  "
          f"missed: {missed}  extra (false) cards: {extra}  row+position right: {placed / total:.4f}")
    print(_matrix("colour confusion", colours, cnames, cnames + ["miss"]))
    print(_matrix("value confusion", values, vnames, vnames + ["miss"]))
    return {"cards": total, "accuracy": right / total, "missed": missed, "extra": extra}


def _load_reader(path: str) -> Any:
    """Another card reader module from a file (e.g. main's vision/cards.py), imported under its own name."""
    return module_from_file(path, "cards_against")


def speed(repeats: int = 30, against: str | None = None) -> dict[str, float]:
    """Median ms per 1280x960 frame with a row of 12 cards, one thread, against a baseline.

    With ``against`` (a cards.py file), that reader is timed too, its reads alternating with this
    reader's on the same frame so that both see the same load, and the new/old ratio is printed.
    """
    cv2.setNumThreads(1)
    frame, truth = scene(EVAL_SEED - 1, rows=1, cards_per_row=12)
    cards.read(frame)  # warm-up: builds the glyph templates once

    def timed(fn) -> tuple[float, float]:
        """Median wall and median CPU (this thread) ms: CPU time is less swayed by other processes."""
        runs, cpu = [], []
        for _ in range(repeats):
            t0, c0 = time.perf_counter(), time.thread_time()
            fn()
            runs.append((time.perf_counter() - t0) * 1000)
            cpu.append((time.thread_time() - c0) * 1000)
        return statistics.median(runs), statistics.median(cpu)

    if against:
        other = _load_reader(against)
        other.read(frame)
        new_t: list[tuple[float, float]] = []
        old_t: list[tuple[float, float]] = []
        for _ in range(repeats):
            for fn, out in ((cards.read, new_t), (other.read, old_t)):
                t0, c0 = time.perf_counter(), time.thread_time()
                fn(frame)
                out.append(((time.perf_counter() - t0) * 1000, (time.thread_time() - c0) * 1000))
        nw, nc = (statistics.median(x[k] for x in new_t) for k in (0, 1))
        ow, oc = (statistics.median(x[k] for x in old_t) for k in (0, 1))
        print(f"against {against}: this reader {nw:.1f} ms wall / {nc:.1f} ms CPU, that reader {ow:.1f} ms wall / "
              f"{oc:.1f} ms CPU (medians of {repeats} alternate reads); ratio new/old {nw / ow:.2f} wall, "
              f"{nc / oc:.2f} CPU; {len(other.read(frame).objects)} cards read by that one")
    base, base_cpu = timed(lambda: cv2.GaussianBlur(cv2.cvtColor(frame, cv2.COLOR_BGR2GRAY), (5, 5), 0))
    ms, ms_cpu = timed(lambda: cards.read(frame))
    tracemalloc.start()
    found = len(cards.read(frame).objects)
    _, peak = tracemalloc.get_traced_memory()
    tracemalloc.stop()
    rss = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024
    print(f"speed: read {ms:.1f} ms median of {repeats} (1280x960, {len(truth)} cards, {found} read); "
          f"baseline cvtColor+GaussianBlur {base:.2f} ms; ratio {ms / base:.1f}x")
    print(f"cpu time: read {ms_cpu:.1f} ms median; baseline {base_cpu:.2f} ms; ratio {ms_cpu / base_cpu:.1f}x; "
          f"load average {os.getloadavg()[0]:.1f}")
    print(f"memory: peak traced by one read {peak / 1e6:.1f} MB; process max RSS {rss:.0f} MB")
    return {"ms": ms, "baseline_ms": base, "cpu_ms": ms_cpu, "peak_mb": peak / 1e6}


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(prog="python3 -m vision.bench_cards", description=__doc__.splitlines()[0])
    ap.add_argument("--scenes", type=int, default=500)
    ap.add_argument("--start", type=int, default=EVAL_SEED, help="first seed (evaluation seeds are >= 1000000)")
    ap.add_argument("--repeats", type=int, default=30)
    ap.add_argument("--jobs", type=int, default=1, help="processes for the accuracy part (same figures)")
    ap.add_argument("--skip-speed", action="store_true")
    ap.add_argument("--skip-accuracy", action="store_true")
    ap.add_argument("--against", metavar="CARDS_PY",
                    help="also time another reader file (e.g. main's vision/cards.py) on the same frame")
    ap.add_argument("--fan-show", type=float, nargs=2, metavar=("LO", "HI"),
                    help="fraction of a card's width showing in fanned rows (renderer default 0.38 0.55)")
    ap.add_argument("--face-glare", type=float, default=0.0, metavar="P",
                    help="chance per card of a lamp's reflection over its whole face (default 0)")
    args = ap.parse_args(argv)
    cv2.setNumThreads(1)
    options: dict[str, Any] = {}
    if args.fan_show:
        options["fan_show"] = tuple(args.fan_show)
    if args.face_glare:
        options["face_glare"] = args.face_glare
    if not args.skip_accuracy:
        accuracy(args.scenes, args.start, args.jobs, **options)
    if not args.skip_speed:
        speed(args.repeats, args.against)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
