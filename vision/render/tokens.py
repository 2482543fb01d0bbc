"""Rendered Bag of Butts scenes: butts drawn in three piles (groups 1-3), on the play mat or on a
bare table, with ground truth in the shape :func:`vision.tokens.read` returns."""

from __future__ import annotations

import dataclasses
from typing import Any

import cv2
import numpy as np

from vision import mat as matmod
from vision.render import effects
from vision.render.mat import place_mat

# Nominal printed/painted colours of the butts (BGR, sRGB-encoded), as a camera sees them in white light.
COLOURS: dict[str, tuple[int, int, int]] = {
    "pink": (180, 150, 240),
    "yellow": (40, 205, 240),
    "blue": (190, 95, 40),
    "green": (70, 150, 50),
    "black": (32, 30, 30),
    "gray": (128, 128, 126),
    "white": (236, 236, 232),
    "khaki": (115, 168, 192),
}
ASPECT = 3.1  # butt length / diameter


def bag_colours(rng: np.random.Generator, n: int) -> list[str]:
    """Colours of ``n`` drawn butts: the 8 player butts, then specials, then (beyond 14) any colour."""
    specials = ["black", "black", "gray", "gray", "white", "khaki"]
    rng.shuffle(specials)
    base = ["pink", "yellow", "blue", "green"] * 2 + specials
    if n <= len(base):
        chosen = list(rng.choice(base, n, replace=False))
    else:
        chosen = base + list(rng.choice(list(COLOURS), n - len(base)))
    return [str(c) for c in chosen]


def draw_butt(img: np.ndarray, alpha: np.ndarray, shadow: np.ndarray, centre: tuple[float, float], angle: float,
              length: float, width: float, bgr: np.ndarray, rng: np.random.Generator) -> None:
    """Draw one butt: a shaded capsule with a filter band, and its soft contact shadow."""
    dx, dy = np.cos(angle), np.sin(angle)
    half = (length - width) / 2
    p0 = np.array([centre[0] - dx * half, centre[1] - dy * half])
    p1 = np.array([centre[0] + dx * half, centre[1] + dy * half])
    sh = 8  # fixed-point shift for sub-pixel drawing
    q = lambda p: (int(round(p[0] * (1 << sh))), int(round(p[1] * (1 << sh))))  # noqa: E731
    off = np.array([rng.uniform(-1, 1), rng.uniform(0.5, 1.5)]) * width * 0.25
    cv2.line(shadow, q(p0 + off), q(p1 + off), 1.0, int(round(width * 1.1)), cv2.LINE_AA, sh)
    cv2.line(alpha, q(p0), q(p1), 1.0, max(1, int(round(width))), cv2.LINE_AA, sh)
    # cylinder shading: darker rim, lighter ridge
    for frac, gain in ((1.0, 0.72), (0.8, 0.86), (0.55, 0.97), (0.25, 1.06)):
        col = tuple(float(min(255.0, c * gain)) for c in bgr)
        t = max(1, int(round(width * frac)))
        cv2.line(img, q(p0), q(p1), col, t, cv2.LINE_AA, sh)
    # filter band near one end: a thin darker ring across the butt
    band = p0 + (p1 - p0) * rng.uniform(0.2, 0.35)
    nx, ny = -dy, dx
    b0 = band + np.array([nx, ny]) * width * 0.42
    b1 = band - np.array([nx, ny]) * width * 0.42
    col = tuple(float(c * 0.8) for c in bgr)
    cv2.line(img, q(b0), q(b1), col, max(1, int(round(width * 0.12))), cv2.LINE_AA, sh)


def _footprint(shape: tuple[int, int], centre, angle, length, width) -> tuple[np.ndarray, tuple[int, int]]:
    """A butt's pixels as a small mask and the frame position of its top-left corner."""
    r = int(length / 2 + width) + 2
    cx, cy = int(round(centre[0])), int(round(centre[1]))
    m = np.zeros((2 * r + 1, 2 * r + 1), np.uint8)
    dx, dy = np.cos(angle), np.sin(angle)
    half = (length - width) / 2
    p0 = (int(round(r + centre[0] - cx - dx * half)), int(round(r + centre[1] - cy - dy * half)))
    p1 = (int(round(r + centre[0] - cx + dx * half)), int(round(r + centre[1] - cy + dy * half)))
    cv2.line(m, p0, p1, 1, max(1, int(round(width))), cv2.LINE_8)
    return m, (cx - r, cy - r)


def _window(img: np.ndarray, m: np.ndarray, at: tuple[int, int]) -> np.ndarray | None:
    """The part of ``img`` under mask ``m`` placed at ``at``, or None when it leaves the frame."""
    x0, y0 = at
    h, w = m.shape
    if x0 < 0 or y0 < 0 or x0 + w > img.shape[1] or y0 + h > img.shape[0]:
        return None
    return img[y0:y0 + h, x0:x0 + w]


def _pile(rng: np.random.Generator, n: int, centre: np.ndarray, length: float, width: float,
          occupied: np.ndarray, region: np.ndarray) -> list[tuple[np.ndarray, float]]:
    """Place ``n`` butts around ``centre``: some touching a neighbour, none overlapping."""
    placed: list[tuple[np.ndarray, float]] = []
    spread = length * (0.6 + 0.35 * np.sqrt(n))
    for _ in range(n):
        for _attempt in range(200):
            ang = rng.uniform(0, np.pi)
            if placed and rng.random() < 0.45:  # put it right next to a placed butt
                (c0, a0) = placed[int(rng.integers(len(placed)))]
                if rng.random() < 0.5:  # side by side
                    ang = a0 + rng.uniform(-0.25, 0.25)
                    nrm = np.array([-np.sin(a0), np.cos(a0)]) * rng.choice([-1, 1])
                    c = c0 + nrm * width * rng.uniform(1.0, 1.1) + np.array([np.cos(a0), np.sin(a0)]) * \
                        rng.uniform(-0.4, 0.4) * length
                else:  # end to side, at an angle
                    d = rng.uniform(0, 2 * np.pi)
                    c = c0 + np.array([np.cos(d), np.sin(d)]) * (length + width) * 0.55
            else:
                c = centre + rng.normal(0, spread * 0.5, 2)
            fp, at = _footprint(occupied.shape, c, ang, length + 2, width + 2)
            occ, reg = _window(occupied, fp, at), _window(region, fp, at)
            if occ is None or (fp & (1 - reg)).any() or (fp & occ).any():
                continue
            fp, at = _footprint(occupied.shape, c, ang, length, width)
            occ = _window(occupied, fp, at)
            occ |= fp
            placed.append((c, ang))
            break
    return placed


def _group_sizes(rng: np.random.Generator, n: int) -> list[int]:
    while True:
        a, b = sorted(rng.choice(np.arange(1, n), 2, replace=False))
        sizes = [int(a), int(b - a), int(n - b)]
        if min(sizes) >= 1:
            return sizes


def scene(seed: int, n: int | None = None, with_mat: bool | None = None, width: int = 1280,
          height: int = 960, effects_on: bool = True, colours: list[str] | None = None,
          kelvin: float | None = None) -> tuple[np.ndarray, list[dict[str, Any]]]:
    """One rendered table: (frame BGR, truth objects with box, colour, group, confidence 1).

    ``colours`` fixes the butts drawn (else a bag draw of ``n``); ``kelvin`` fixes the light colour.
    """
    rng = np.random.default_rng(seed)
    n = len(colours) if colours else int(rng.integers(8, 21)) if n is None else n
    with_mat = bool(rng.random() < 0.5) if with_mat is None else with_mat
    table = effects.wood_texture(height, width, rng)
    if with_mat:
        img, hom = place_mat(table, rng)
        ppu = float(np.linalg.norm(effects.warp_points(np.float32([[0, 0], [100, 0]]), hom)[1]
                                   - effects.warp_points(np.float32([[0, 0], [100, 0]]), hom)[0]) / 100)
        length = rng.uniform(19, 27) * ppu
        zones = []
        for x0, y0, x1, y1 in matmod.ZONES:
            poly = effects.warp_points(np.float32([[x0, y0], [x1, y0], [x1, y1], [x0, y1]]), hom)
            zm = np.zeros((height, width), np.uint8)
            inner = poly + (poly.mean(0) - poly) * 0.06
            cv2.fillConvexPoly(zm, np.round(inner).astype(np.int32), 1)
            zones.append((zm, poly.mean(0)))
    else:
        img = table
        length = rng.uniform(42, 72)
        zones = []
        xs = np.sort(rng.uniform(0.12, 0.88, 3)) * width
        while np.diff(xs).min() < 0.22 * width:
            xs = np.sort(rng.uniform(0.12, 0.88, 3)) * width
        for x in xs:
            c = np.array([x, rng.uniform(0.25, 0.75) * height])
            zm = np.zeros((height, width), np.uint8)
            cv2.circle(zm, (int(c[0]), int(c[1])), int(0.12 * width), 1, -1)
            zones.append((zm, c))
    width_px = length / ASPECT
    colours = list(colours) if colours else bag_colours(rng, n)
    sizes = _group_sizes(rng, n) if n >= 3 else [1] * n + [0] * (3 - n)
    occupied = np.zeros((height, width), np.uint8)
    img = img.copy()
    shadow = np.zeros((height, width), np.float32)
    layer = img.copy()
    alpha = np.zeros((height, width), np.float32)
    truth: list[dict[str, Any]] = []
    k = 0
    for g, (size, (zmask, zc)) in enumerate(zip(sizes, zones, strict=True), start=1):
        centre = zc + rng.normal(0, length * 0.3, 2)
        for c, ang in _pile(rng, size, centre, length, width_px, occupied, zmask):
            colour = colours[k]
            k += 1
            bgr = np.float32(COLOURS[colour]) * rng.uniform(0.92, 1.06) * rng.uniform(0.96, 1.04, 3)
            draw_butt(layer, alpha, shadow, (float(c[0]), float(c[1])), ang, length, width_px, bgr, rng)
            fp, (ox, oy) = _footprint((height, width), c, ang, length, width_px)
            ys, xs_ = np.nonzero(fp)
            xs_, ys = xs_ + ox, ys + oy
            box = [int(xs_.min()), int(ys.min()), int(xs_.max() - xs_.min() + 1), int(ys.max() - ys.min() + 1)]
            truth.append({"colour": colour, "group": g, "box": box, "confidence": 1.0})
    shadow = cv2.GaussianBlur(shadow, (0, 0), width_px * 0.25 + 0.5)
    a = np.clip(alpha, 0, 1)[..., None]
    base = img.astype(np.float32) * (1 - 0.45 * np.clip(shadow, 0, 1))[..., None]
    img = np.clip(base * (1 - a) + layer.astype(np.float32) * a, 0, 255).astype(np.uint8)
    if effects_on:
        light = effects.Light.random(rng)
        if kelvin is not None:
            light = dataclasses.replace(light, kelvin=kelvin, glare=0, shadow=0.0)
        img = effects.apply_light(img, light, rng)
        img = effects.camera(img, rng)
    return img, truth

