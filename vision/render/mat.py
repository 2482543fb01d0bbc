"""The play mat lying on a table, seen by a tilted camera: the base of rendered mat scenes."""

from __future__ import annotations

import cv2
import numpy as np

from vision import mat as matmod
from vision.render import effects

_MAT_CACHE: dict[float, np.ndarray] = {}


def mat_image(px_per_unit: float = 4.0) -> np.ndarray:
    """The printed mat at ``px_per_unit`` pixels per mat unit (cached: drawing it takes a while)."""
    if px_per_unit not in _MAT_CACHE:
        _MAT_CACHE[px_per_unit] = matmod.draw_mat(px_per_unit)
    return _MAT_CACHE[px_per_unit]


def place_mat(table: np.ndarray, rng: np.random.Generator, cover: tuple[float, float] = (0.82, 0.96),
              tilt: float = 0.05, paper_tint: bool = True) -> tuple[np.ndarray, np.ndarray]:
    """Lay the mat on ``table`` (BGR, modified copy returned) with a random pose.

    Returns (image, homography mat units -> frame pixels). The mat covers ``cover`` of the frame
    width, is rotated a little and seen in perspective; the paper gets a slight tint (real paper).
    """
    h, w = table.shape[:2]
    mw = rng.uniform(*cover) * w
    mh = mw * matmod.MAT_H / matmod.MAT_W
    if mh > 0.96 * h:
        mh = 0.96 * h
        mw = mh * matmod.MAT_W / matmod.MAT_H
    cx = w / 2 + rng.uniform(-1, 1) * max(0.0, (w - mw) / 2 - 4)
    cy = h / 2 + rng.uniform(-1, 1) * max(0.0, (h - mh) / 2 - 4)
    ang = rng.uniform(-0.06, 0.06)
    rot = np.array([[np.cos(ang), -np.sin(ang)], [np.sin(ang), np.cos(ang)]], np.float32)
    base = np.float32([[-mw / 2, -mh / 2], [mw / 2, -mh / 2], [mw / 2, mh / 2], [-mw / 2, mh / 2]]) @ rot.T
    dst = base + np.float32([cx, cy]) + rng.uniform(-tilt, tilt, (4, 2)).astype(np.float32) * np.float32([mw, mh])
    src_units = np.float32([[0, 0], [matmod.MAT_W, 0], [matmod.MAT_W, matmod.MAT_H], [0, matmod.MAT_H]])
    hom_units = cv2.getPerspectiveTransform(src_units, dst.astype(np.float32))
    ppu = 4.0
    img = mat_image(ppu)
    if paper_tint:
        img = np.clip(img.astype(np.float32) * rng.uniform(0.94, 1.0, 3).astype(np.float32), 0, 255).astype(np.uint8)
    scale_px = np.diag([1 / ppu, 1 / ppu, 1.0]).astype(np.float64)
    hom_px = hom_units @ scale_px
    warped = cv2.warpPerspective(img, hom_px, (w, h), flags=cv2.INTER_AREA)
    mask = cv2.warpPerspective(np.full(img.shape[:2], 255, np.uint8), hom_px, (w, h))
    out = table.copy()
    sel = mask > 127
    out[sel] = warped[sel]
    return out, hom_units


def scene(seed: int, width: int = 1280, height: int = 960) -> tuple[np.ndarray, np.ndarray]:
    """An empty mat on a table under random light: (frame, homography mat units -> frame)."""
    rng = np.random.default_rng(seed)
    table = effects.wood_texture(height, width, rng)
    img, hom = place_mat(table, rng)
    img = effects.apply_light(img, effects.Light.random(rng), rng)
    return effects.camera(img, rng), hom
