"""Rendered dice scenes with ground truth: 1-8 dice on a table, top-down or tilted, real-table effects.

Each die is drawn as a small cube: the top face (the one to read) and, when the camera is tilted,
the front face below it (darker, foreshortened, with its own pips that must not be counted).
"""

from __future__ import annotations

from typing import Any

import cv2
import numpy as np

from vision.render.effects import (
    Light,
    apply_light,
    camera,
    random_perspective,
    warp,
    warp_points,
    wood_texture,
)

W, H = 1280, 960

BODY_BGR = {"white": (232, 236, 238), "black": (28, 28, 30), "red": (40, 40, 190), "blue": (170, 90, 30),
            "green": (70, 150, 40), "yellow": (40, 210, 230)}
PIP_BGR = {"gold": (45, 165, 215), "white": (240, 240, 240), "black": (25, 25, 25)}
# (body, pip) pairs: the three Buttons dice first, then others a reader meets on real tables
KINDS = [("white", "gold"), ("black", "gold"), ("black", "white"), ("white", "black"),
         ("red", "white"), ("blue", "white"), ("green", "gold"), ("yellow", "black"), ("red", "gold")]
WEIGHTS = np.float32([3, 3, 4, 2, 1, 1, 1, 1, 1])

# pip positions on a unit face (-1..1), per value
LAYOUT = {1: [(0, 0)], 2: [(-1, -1), (1, 1)], 3: [(-1, -1), (0, 0), (1, 1)],
          4: [(-1, -1), (1, -1), (-1, 1), (1, 1)], 5: [(-1, -1), (1, -1), (0, 0), (-1, 1), (1, 1)],
          6: [(-1, -1), (1, -1), (-1, 0), (1, 0), (-1, 1), (1, 1)]}


def _face_points(cx: float, cy: float, side: float, angle: float, squash: float) -> np.ndarray:
    """Corners of a face (square of ``side``) rotated by ``angle`` and squashed vertically."""
    c, s = np.cos(angle), np.sin(angle)
    pts = np.float32([[-1, -1], [1, -1], [1, 1], [-1, 1]]) * side / 2
    rot = pts @ np.float32([[c, s], [-s, c]])
    rot[:, 1] *= squash
    return rot + np.float32([cx, cy])


def _draw_face(img: np.ndarray, corners: np.ndarray, value: int, body: np.ndarray, pip: np.ndarray,
               pip_scale: float, shade: float) -> None:
    """Fill a (possibly foreshortened) face with body colour and its pips, mapped through the corners."""
    src = np.float32([[-1, -1], [1, -1], [1, 1], [-1, 1]])
    hom = cv2.getPerspectiveTransform(src, corners.astype(np.float32))
    cv2.fillConvexPoly(img, np.rint(corners * 4).astype(np.int32), tuple(float(v) for v in body * shade),
                       lineType=cv2.LINE_AA, shift=2)
    for px, py in LAYOUT[value]:
        ring = np.stack([np.cos(np.linspace(0, 2 * np.pi, 24)), np.sin(np.linspace(0, 2 * np.pi, 24))], 1)
        pts = np.float32([px * 0.52, py * 0.52]) + ring.astype(np.float32) * pip_scale
        poly = cv2.perspectiveTransform(pts.reshape(-1, 1, 2), hom).reshape(-1, 2)
        cv2.fillPoly(img, [np.rint(poly * 4).astype(np.int32)], tuple(float(v) for v in pip * shade),
                     lineType=cv2.LINE_AA, shift=2)


def _place(rng: np.random.Generator, n: int, sizes: list[float], touching: bool) -> list[tuple[float, float]]:
    """Centres for n dice that do not overlap; with ``touching`` some dice sit edge to edge."""
    out: list[tuple[float, float]] = []
    for k in range(n):
        s = sizes[k]
        for _ in range(200):
            if touching and out and rng.random() < 0.5:
                bx, by = out[int(rng.integers(len(out)))]
                ang = rng.uniform(0, 2 * np.pi)
                dist = (s + sizes[len(out) - 1]) * 0.5 * 1.45
                x, y = bx + np.cos(ang) * dist, by + np.sin(ang) * dist
            else:
                x, y = rng.uniform(0.12 * W, 0.88 * W), rng.uniform(0.14 * H, 0.86 * H)
            if not (s < x < W - s and s < y < H - s):
                continue
            if all(np.hypot(x - a, y - b) > 0.75 * (s + sizes[i]) * 1.3 for i, (a, b) in enumerate(out)):
                out.append((float(x), float(y)))
                break
    return out


def _clutter(img: np.ndarray, rng: np.random.Generator, avoid: list[tuple[float, float, float]]) -> None:
    """A few things that are not dice: a pen, a card edge, printed text, a coin."""
    for _ in range(int(rng.integers(0, 4))):
        x, y = int(rng.uniform(0, W)), int(rng.uniform(0, H))
        if any(np.hypot(x - a, y - b) < 2.5 * s + 80 for a, b, s in avoid):
            continue
        colour = tuple(int(v) for v in rng.integers(0, 255, 3))
        kind = rng.integers(0, 3)
        if kind == 0:
            ang = rng.uniform(0, np.pi)
            cv2.line(img, (x, y), (int(x + 140 * np.cos(ang)), int(y + 140 * np.sin(ang))), colour, 9, cv2.LINE_AA)
        elif kind == 1:
            cv2.putText(img, "SCORE 12", (x, y), cv2.FONT_HERSHEY_SIMPLEX, 1.2, colour, 3, cv2.LINE_AA)
        else:
            cv2.circle(img, (x, y), int(rng.uniform(15, 30)), colour, -1, cv2.LINE_AA)


BUTTONS_SET = [("white", "gold"), ("black", "gold")] + [("black", "white")] * 4


def scene(seed: int, n_dice: int | None = None, tilt: float | None = None,
          size: tuple[float, float] = (22.0, 110.0),
          kinds: list[tuple[str, str]] | None = None) -> tuple[np.ndarray, list[dict[str, Any]]]:
    """Render one 1280x960 frame of dice; return it with the truth dict per die (box of the top face).

    ``tilt`` (0-0.7) foreshortens the top face and shows the front face; ``size`` is the face side
    range in pixels; ``kinds`` fixes the (body, pip) of each die (e.g. ``BUTTONS_SET``), otherwise
    they are drawn at random.
    """
    rng = np.random.default_rng(seed)
    n = len(kinds) if kinds else (int(rng.integers(1, 9)) if n_dice is None else n_dice)
    tilt = float(rng.choice([0.0, 0.0, rng.uniform(0.1, 0.6)])) if tilt is None else tilt
    squash = float(np.cos(tilt))
    base = float(rng.uniform(*size))
    sizes = [base * float(rng.uniform(0.9, 1.1)) for _ in range(n)]
    img = wood_texture(H, W, rng)
    centres = _place(rng, n, sizes, touching=rng.random() < 0.4)
    _clutter(img, rng, [(x, y, s) for (x, y), s in zip(centres, sizes, strict=False)])
    shadow = np.zeros((H, W), np.float32)
    for (x, y), s in zip(centres, sizes, strict=False):
        cv2.circle(shadow, (int(x + 0.15 * s), int(y + 0.2 * s)), int(0.62 * s), 1.0, -1)
    shadow = cv2.GaussianBlur(shadow, (0, 0), max(base * 0.12, 2))
    img = np.clip(img * (1 - 0.45 * shadow)[..., None], 0, 255).astype(np.uint8)
    truth: list[dict[str, Any]] = []
    faces = []
    for idx, ((x, y), s) in enumerate(zip(centres, sizes, strict=False)):
        k = int(rng.choice(len(KINDS), p=WEIGHTS / WEIGHTS.sum()))
        body_name, pip_name = kinds[idx] if kinds else KINDS[k]
        body = np.float32(BODY_BGR[body_name]) * rng.uniform(0.9, 1.05)
        pip = np.float32(PIP_BGR[pip_name]) * rng.uniform(0.9, 1.05)
        value = int(rng.integers(1, 7))
        angle = float(rng.uniform(0, np.pi / 2)) if tilt == 0 else float(rng.uniform(-0.25, 0.25))
        pip_scale = float(rng.uniform(0.17, 0.24)) * (1.3 if value == 1 else 1.0)
        top = _face_points(x, y, s, angle, squash)
        if tilt > 0:  # the front face hangs below the top face, foreshortened by sin(tilt)
            lo = top[[3, 2]]
            drop = np.float32([0, s * np.sin(tilt)])
            front = np.float32([lo[0], lo[1], lo[1] + drop, lo[0] + drop])
            side_value = int(rng.choice([v for v in range(1, 7) if v not in (value, 7 - value)]))
            _draw_face(img, front, side_value, body, pip, pip_scale, shade=float(rng.uniform(0.6, 0.85)))
        _draw_face(img, top, value, body, pip, pip_scale, shade=1.0)
        faces.append((top, value, body_name, pip_name))
    hom = random_perspective(W, H, rng, strength=0.06 if tilt == 0 else 0.03)
    img = warp(img, hom)
    img = apply_light(img, Light.random(rng), rng)
    img = camera(img, rng, blur=float(rng.uniform(0, 1.0)))
    for top, value, body_name, pip_name in faces:
        pts = warp_points(top, hom)
        x0, y0 = pts.min(0)
        x1, y1 = pts.max(0)
        truth.append({"pips": value, "body": body_name if body_name in ("white", "black") else "other",
                      "pip_colour": pip_name, "box": [int(x0), int(y0), int(x1 - x0), int(y1 - y0)],
                      "confidence": 1.0})
    return img, truth
