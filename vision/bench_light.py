"""Light and camera robustness: each reader on rendered scenes seen under harsher light than the
renderer draws, or through another camera's tone curve.

    python3 -m vision.bench_light [--kinds tokens cards board] [--scenes 40] [--first-seed 0] [--against REV]
                                  [--camera]

The renderer's own light already spans 2700-6500 K and brightness 0.4-1.3; real tables go further
(a candle-warm bulb, a dim evening lamp with a noisy picture, a phone's lifted tone curve). Every
frame is changed after rendering, so the truth stays the scene's own:

- ``warm``: a 2200 K lamp's colour on top of the scene's light (relative to 5000 K daylight);
- ``cold``: 9000 K (a north-facing window in the shade);
- ``flat``: a lifted tone curve (gamma 0.8), lower contrast and chroma, as many cameras give;
- ``flatter``: gamma 0.6;
- ``dim``: 0.4 of the light with sensor noise (sigma 3 levels) added.

With ``--camera`` the frames go through camera faults the renderer does not draw instead (its own
blur stops at a Gaussian sigma of 1.5 px at 1280x960):

- ``blur2`` / ``blur3``: out of focus, Gaussian sigma 2 / 3 px;
- ``motion`` / ``motiond``: shaken, a 9 px streak across / along a diagonal;
- ``lowres``: a camera of half the resolution (scaled down and back up);
- ``jpeg40``: JPEG quality 40.

It prints per reader and condition the share of pieces read right (tokens: colour and group,
among all butts and extras; cards: colour and value; board: colour and content per cell; dice: pips
and both colours, among all dice and false ones) and, with
``--against REV``, the reader of that git revision on the same frames.
"""

from __future__ import annotations

import argparse
import importlib
from collections.abc import Callable
from typing import Any

import cv2
import numpy as np

from vision.bench_common import old_module
from vision.render.effects import kelvin_gains

CONDITIONS = ("none", "warm", "cold", "flat", "flatter", "dim")
CAMERA = ("none", "blur2", "blur3", "motion", "motiond", "lowres", "jpeg40")


def _camera(frame: np.ndarray, condition: str) -> np.ndarray:
    """The frame through one of CAMERA's faults."""
    if condition.startswith("blur"):
        return cv2.GaussianBlur(frame, (0, 0), float(condition[4:]))
    if condition.startswith("motion"):
        kernel = np.zeros((9, 9), np.float32)
        if condition == "motiond":
            np.fill_diagonal(kernel, 1 / 9)
        else:
            kernel[4, :] = 1 / 9
        return cv2.filter2D(frame, -1, kernel)
    if condition == "lowres":
        h, w = frame.shape[:2]
        half = cv2.resize(frame, (w // 2, h // 2), interpolation=cv2.INTER_AREA)
        return cv2.resize(half, (w, h), interpolation=cv2.INTER_LINEAR)
    if condition.startswith("jpeg"):
        ok, data = cv2.imencode(".jpg", frame, [cv2.IMWRITE_JPEG_QUALITY, int(condition[4:])])
        return cv2.imdecode(data, cv2.IMREAD_COLOR)
    raise ValueError(f"unknown condition {condition}")


def relit(frame: np.ndarray, condition: str) -> np.ndarray:
    """The frame under one of CONDITIONS (or through one of CAMERA's faults)."""
    if condition in CAMERA and condition != "none":
        return _camera(frame, condition)
    x = frame.astype(np.float32)
    if condition == "warm":
        x *= kelvin_gains(2200) / kelvin_gains(5000)
    elif condition == "cold":
        x *= kelvin_gains(9000) / kelvin_gains(5000)
    elif condition in ("flat", "flatter"):
        x = 255 * (x / 255) ** (0.8 if condition == "flat" else 0.6)
    elif condition == "dim":
        x = x * 0.4 + np.random.default_rng(0).normal(0, 3, x.shape)
    return np.clip(x, 0, 255).astype(np.uint8) if condition != "none" else frame


def _tokens(read: Callable, seed: int, condition: str) -> tuple[int, int]:
    from vision.bench_tokens import match
    from vision.render import tokens as render

    frame, truth = render.scene(seed, n=None, with_mat=seed % 2 == 0)
    seen = read(relit(frame, condition)).objects
    pairs = match(truth, seen)
    right = sum(1 for i, j in pairs if j is not None and (seen[j]["colour"], seen[j]["group"])
                == (truth[i]["colour"], truth[i]["group"]))
    extra = len(seen) - sum(1 for _, j in pairs if j is not None)
    return right, len(truth) + extra


def _cards(read: Callable, seed: int, condition: str) -> tuple[int, int]:
    from vision.bench_cards import match
    from vision.render.cards import scene

    frame, truth = scene(seed)
    seen = read(relit(frame, condition)).objects
    pairs = match(truth, seen)
    right = sum(1 for t, o in pairs if o is not None and (o["colour"], o["value"]) == (t["colour"], t["value"]))
    extra = len(seen) - sum(1 for _, o in pairs if o is not None)
    return right, len(truth) + extra


def _board(read: Callable, seed: int, condition: str) -> tuple[int, int]:
    from vision.render import board as render

    frame, truth = render.scene(seed)
    seen = {(o["row"], o["col"]): o for o in read(relit(frame, condition)).objects}
    right = sum(1 for t in truth if (o := seen.get((t["row"], t["col"]))) is not None
                and (o["colour"], o["content"]) == (t["colour"], t["content"]))
    return right, len(truth)


def _dice(read: Callable, seed: int, condition: str) -> tuple[int, int]:
    from vision.bench_dice import match
    from vision.render import dice as render

    frame, truth = render.scene(seed)
    seen = read(relit(frame, condition)).objects
    pairs = match(seen, truth)
    right = sum(1 for i, j in pairs if (seen[i]["pips"], seen[i]["body"], seen[i]["pip_colour"])
                == (truth[j]["pips"], truth[j]["body"], truth[j]["pip_colour"]))
    return right, len(truth) + len(seen) - len(pairs)


KINDS: dict[str, Callable[[Callable, int, str], tuple[int, int]]] = {
    "tokens": _tokens, "cards": _cards, "board": _board, "dice": _dice}


def run(kind: str, seeds: range, readers: dict[str, Any], conditions: tuple[str, ...] = CONDITIONS) -> list[str]:
    """One line per condition: the share read right by each reader."""
    lines = []
    for condition in conditions:
        parts = []
        for name, module in readers.items():
            right = total = 0
            for seed in seeds:
                r, t = KINDS[kind](module.read, seed, condition)
                right, total = right + r, total + t
            parts.append(f"{name} {right}/{total} = {right / max(total, 1):.2%}")
        lines.append(f"{kind:>6} {condition:>8}: " + ", ".join(parts))
        print(lines[-1], flush=True)
    return lines


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--kinds", nargs="+", choices=sorted(KINDS), default=["tokens", "cards", "board"])
    ap.add_argument("--scenes", type=int, default=40)
    ap.add_argument("--first-seed", type=int, default=0)
    ap.add_argument("--against", help="git revision whose readers run on the same frames")
    ap.add_argument("--camera", action="store_true", help="camera faults (blur, shake, resolution, JPEG) instead of light")
    args = ap.parse_args(argv)
    cv2.setNumThreads(1)
    for kind in args.kinds:
        readers: dict[str, Any] = {"now": importlib.import_module(f"vision.{kind}")}
        if args.against:
            readers[args.against] = old_module(args.against, kind)
        print(f"{kind}: scenes {args.first_seed}..{args.first_seed + args.scenes - 1}", flush=True)
        run(kind, range(args.first_seed, args.first_seed + args.scenes), readers, CAMERA if args.camera else CONDITIONS)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
