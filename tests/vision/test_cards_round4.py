"""Card reader on bright coloured wood: fans whose thin white borders hardly stand out from the table."""

from __future__ import annotations

import cv2
import numpy as np
import pytest

from vision import cards
from vision.bench_cards import match
from vision.render import effects
from vision.render.cards import CARD_H, CARD_W, card_image

ROW = [("red", 2), ("yellow", "pm"), ("yellow", 7), ("blue", "x2"), ("green", 1), ("red", 5),
       ("blue", 10), ("green", "zero"), ("yellow", 3), ("red", 9), ("blue", 6), ("green", 4)]


def _table(colour_bgr: tuple[int, int, int], h: int, w: int, seed: int) -> np.ndarray:
    """Plain wood of one tone with soft grain (like vision.render.effects.wood_texture, tone chosen)."""
    rng = np.random.default_rng(seed)
    grain = cv2.resize(rng.normal(0, 1, (h // 40, w // 4)).astype(np.float32), (w, h))
    grain = cv2.GaussianBlur(grain, (0, 0), 3)
    img = np.float32(colour_bgr)[None, None, :] * (1 + 0.06 * grain[..., None])
    return np.clip(img, 0, 255).astype(np.uint8)


def _fan(table: np.ndarray, row: list, card_h: float, step: float, seed: int) -> tuple[np.ndarray, list[dict]]:
    """Lay a row left to right, each card covering all but a `step` (fraction of its width) strip of the one below."""
    rng = np.random.default_rng(seed)
    h, w = table.shape[:2]
    scale = card_h / CARD_H
    cw = CARD_W * scale
    x0 = (w - (len(row) - 1) * step * cw - cw) / 2
    y0 = (h - card_h) / 2
    img = table.astype(np.float32)
    truth = []
    for p, (colour, value) in enumerate(row):
        face = card_image(colour, value, rng)
        ang = np.deg2rad(rng.uniform(-1.5, 1.5))
        c, s = np.cos(ang) * scale, np.sin(ang) * scale
        cx, cy = x0 + p * step * cw + cw / 2, y0 + card_h / 2
        m = np.float32([[c, -s, cx - c * CARD_W / 2 + s * CARD_H / 2],
                        [s, c, cy - s * CARD_W / 2 - c * CARD_H / 2]])
        warped = cv2.warpAffine(face, m, (w, h), flags=cv2.INTER_LINEAR).astype(np.float32)
        alpha = cv2.warpAffine(np.full((CARD_H, CARD_W), 1.0, np.float32), m, (w, h))[..., None]
        shadow = np.roll(cv2.GaussianBlur(alpha[..., 0], (0, 0), 3 * scale + 1), (3, 3), axis=(0, 1))[..., None]
        img = img * (1 - 0.35 * shadow) * (1 - alpha) + warped * alpha
        corners = np.float32([[0, 0], [CARD_W, 0], [CARD_W, CARD_H], [0, CARD_H]]) @ m[:, :2].T + m[:, 2]
        bx, by, bw, bh = cv2.boundingRect(corners)
        truth.append({"colour": colour, "value": value, "row": 0, "position": p, "box": [bx, by, bw, bh]})
    return np.clip(img, 0, 255).astype(np.uint8), truth


def _photo(img: np.ndarray, kelvin: float, seed: int) -> np.ndarray:
    """Warm lamp light, slight blur, sensor noise and JPEG, as a phone or Pi camera gives."""
    light = effects.Light(kelvin=kelvin, brightness=1.05, gradient=0.15, vignette=0.1)
    lit = effects.apply_light(img, light, np.random.default_rng(seed))
    return effects.camera(lit, np.random.default_rng(seed), blur=1.0, noise=3.0, jpeg=85)


@pytest.mark.parametrize(("wood", "kelvin"), [((40, 200, 250), 4500), ((30, 150, 250), 4500), ((70, 150, 215), 3200)])
def test_tight_fan_of_twelve_on_bright_orange_wood_is_read_in_order(wood, kelvin):
    # the table is nearly as bright as the card borders and as coloured as a yellow face: only
    # the least coloured pixels are the white of the cards
    table = _table(wood, 960, 1280, seed=4)
    frame, truth = _fan(table, ROW, card_h=300, step=0.38, seed=5)
    frame = _photo(frame, kelvin, seed=6)
    seen = cards.read(frame).objects
    pairs = match(truth, seen)
    found = [(o["colour"], o["value"]) if o else None for _, o in pairs]
    assert found == [(t["colour"], t["value"]) for t in truth]
    assert [o["position"] for _, o in pairs] == list(range(len(ROW)))
    assert len(seen) == len(ROW)  # no piece of the orange table taken for a card



@pytest.mark.parametrize("seed", [8, 11])
def test_a_fan_tighter_than_usual_keeps_its_first_cards(seed):
    # a third of a card showing, small cards: the index fills each strip's width and cuts its
    # colour in two, so the first strips all lose their tops; they must still be found by it
    table = _table((150, 170, 190), 960, 1280, seed=7)
    frame, truth = _fan(table, ROW, card_h=180, step=0.34, seed=seed)
    frame = _photo(frame, 5000, seed=9)
    seen = cards.read(frame).objects
    assert [(o["colour"], o["value"]) for o in seen] == [(t["colour"], t["value"]) for t in truth]
    assert [(o["row"], o["position"]) for o in seen] == [(0, p) for p in range(len(ROW))]
