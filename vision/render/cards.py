"""Rendered card scenes for Nicht die Bohne! and Blasting Billy, with ground truth.

A card is a coloured face inside a white border with a big dark index in the top-left
corner (and a turned copy bottom-right). Scenes hold 1-3 rows of up to 12 cards, fanned so
that only the left strip of each card shows except the last, or laid side by side, then get
the real-table effects of vision.render.effects.
"""

from __future__ import annotations

from typing import Any

import cv2
import numpy as np

from vision.cards_glyphs import DECKS, FONTS, draw_glyph
from vision.render import effects

CARD_W, CARD_H, BORDER = 200, 300, 10
# Face colours (BGR) of the printed cards: strong, typical card-game inks.
FACE_BGR = {
    "red": (45, 40, 200),
    "green": (70, 150, 40),
    "yellow": (40, 200, 235),
    "blue": (185, 100, 25),
    "purple": (140, 45, 125),
}
INDEX = (22, 22, 56, 84)
FAN_SHOW = (0.38, 0.55)  # default range of the fraction of a card's width showing in a fan  # x0, y0, x1, y1 of the index glyph box on a CARD_W x CARD_H card


def card_image(colour: str, value: int | str, rng: np.random.Generator | None = None) -> np.ndarray:
    """One card face (CARD_H x CARD_W BGR) with its white border, two indices and a big centre mark."""
    rng = rng or np.random.default_rng(0)
    face = np.array(FACE_BGR[colour], np.float32) * rng.uniform(0.9, 1.08, 3)
    face = tuple(int(v) for v in np.clip(face, 0, 255))
    white = tuple(int(v) for v in rng.uniform(232, 252, 3))
    img = np.full((CARD_H, CARD_W, 3), white, np.uint8)
    cv2.rectangle(img, (BORDER, BORDER), (CARD_W - BORDER - 1, CARD_H - BORDER - 1), face, -1)
    font = FONTS[int(rng.integers(0, 2))]
    weight = float(rng.uniform(0.8, 1.3))
    # a darker shade of the face colour for the centre picture keeps the face chroma
    shade = tuple(int(v * 0.7) for v in face)
    big = draw_glyph(value, 90, 120, font, weight)
    cx, cy = CARD_W // 2 + 10, CARD_H // 2
    roi = img[cy - 60:cy + 60, cx - 45:cx + 45]
    roi[big > 127] = shade
    x0, y0, x1, y1 = INDEX
    ink = np.array(rng.uniform(10, 40, 3), np.float32)
    for turned in (False, True):
        if turned:
            img = img[::-1, ::-1].copy()
        g = draw_glyph(value, x1 - x0, y1 - y0, font, weight)
        sub = img[y0:y1, x0:x1]
        a = (g.astype(np.float32) / 255.0)[..., None]
        sub[:] = (sub * (1 - a) + ink * a).astype(np.uint8)
    return img


def _deck(game: str) -> list[tuple[str, int | str]]:
    d = DECKS[game]
    cards = []
    for colour in d["colours"]:
        for value in d["values"]:
            cards += [(colour, value)] * (3 if value == "pm" else 1)
    return cards


def _clutter(img: np.ndarray, rng: np.random.Generator, avoid: np.ndarray) -> None:
    """Pens, coins, a phone and paper scraps around the cards (not over them)."""
    h, w = img.shape[:2]
    for _ in range(int(rng.integers(0, 5))):
        colour = tuple(int(v) for v in rng.integers(0, 256, 3))
        layer = np.zeros((h, w), np.uint8)
        x, y = int(rng.uniform(0, w)), int(rng.uniform(0, h))
        kind = rng.integers(0, 3)
        if kind == 0:
            cv2.circle(layer, (x, y), int(rng.uniform(10, 30)), 255, -1)
        elif kind == 1:
            a = rng.uniform(0, np.pi)
            d = rng.uniform(60, 180)
            cv2.line(layer, (x, y), (int(x + d * np.cos(a)), int(y + d * np.sin(a))), 255,
                     int(rng.uniform(6, 14)))
        else:
            box = cv2.boxPoints(((x, y), (rng.uniform(40, 120), rng.uniform(60, 160)), rng.uniform(0, 90)))
            cv2.fillConvexPoly(layer, box.astype(np.int32), 255)
        layer[avoid > 0] = 0
        img[layer > 0] = colour


def _face_glare(img: np.ndarray, labels: np.ndarray, n: int, chance: float, rng: np.random.Generator) -> None:
    """A lamp's reflection on glossy cards: a broad whitish sheen over the face of some cards.

    The sheen is as bright as 25-70 % of the scene's white (the lamp that lights the table makes
    it), lies on the cards only (the table is matte) and spills onto the cards beside. It has its
    own random stream, so that scenes without it stay as they were.
    """
    white = float(np.percentile(img[labels > 0], 99)) if (labels > 0).any() else 255.0
    for label in range(1, n + 1):
        if rng.random() >= chance:
            continue
        ys, xs = np.nonzero(labels == label)
        if xs.size < 50:
            continue
        x0, x1, y0, y1 = xs.min(), xs.max(), ys.min(), ys.max()
        size = float(max(x1 - x0, y1 - y0))
        cx, cy = rng.uniform(x0, x1), rng.uniform(y0, y1)
        ax, ay = rng.uniform(0.3, 0.6) * size, rng.uniform(0.15, 0.35) * size
        gx0, gy0 = max(0, int(cx - 2.5 * ax)), max(0, int(cy - 2.5 * ax))
        gx1, gy1 = min(img.shape[1], int(cx + 2.5 * ax)), min(img.shape[0], int(cy + 2.5 * ax))
        yy, xx = np.mgrid[gy0:gy1, gx0:gx1].astype(np.float32)
        a = rng.uniform(0, np.pi)
        u = (xx - cx) * np.cos(a) + (yy - cy) * np.sin(a)
        v = -(xx - cx) * np.sin(a) + (yy - cy) * np.cos(a)
        sheen = np.exp(-0.5 * ((u / ax) ** 2 + (v / ay) ** 2)) * (rng.uniform(0.25, 0.7) * white)
        # the sheen lies on the glossy cards (on this one and the ones beside it), not on the matte table
        sheen *= labels[gy0:gy1, gx0:gx1] > 0
        sub = img[gy0:gy1, gx0:gx1].astype(np.float32) + sheen[..., None]
        img[gy0:gy1, gx0:gx1] = np.clip(sub, 0, 255).astype(np.uint8)


def scene(seed: int, game: str | None = None, rows: int | None = None, cards_per_row: int | None = None,
          overlap: bool | None = None, width: int = 1280, height: int = 960,
          effects_on: bool = True, hand: list[tuple[str, int | str]] | None = None,
          layout: list[list[tuple[str, int | str]]] | None = None,
          fan_show: tuple[float, float] = FAN_SHOW, face_glare: float = 0.0,
          ) -> tuple[np.ndarray, list[dict[str, Any]]]:
    """A table with rows of cards; returns (frame BGR, truth objects like read() gives).

    ``hand`` lays exactly these (colour, value) cards in one row, e.g. for teaching photos;
    ``layout`` lays exactly these rows, top to bottom, each left to right (the demo table shows
    the cards a game needs next this way). ``fan_show`` is the range of the fraction of a card's
    width that shows in a fanned row (players fan tighter than the default); ``face_glare`` is the
    chance per card of a lamp's reflection over its whole glossy face. The defaults give the same
    scenes as before these options existed.
    """
    rng = np.random.default_rng(seed)
    game = game or str(rng.choice(list(DECKS)))
    deck = _deck(game)
    order = rng.permutation(len(deck))
    if hand:
        layout = [list(hand)]
    layout = [list(r) for r in layout or [] if r]
    if layout:
        deck, order, rows = [c for r in layout for c in r], np.arange(sum(map(len, layout))), len(layout)
    rows = rows or int(rng.integers(1, 4))
    table = effects.wood_texture(height, width, rng)
    labels = np.zeros((height, width), np.uint8)
    avoid = np.zeros((height, width), np.uint8)
    card_h = min(0.84 * height / rows, rng.uniform(0.55, 0.95) * 0.84 * height / rows, 330)
    truth: list[dict[str, Any]] = []
    drawn: list[tuple[int, int, int | str, str]] = []  # label, row, value, colour
    k = 0
    row_gap = (0.92 * height - rows * card_h) / (rows + 1)
    for r in range(rows):
        n = len(layout[r]) if layout else cards_per_row or int(rng.integers(1, 13))
        fan = overlap if overlap is not None else rng.random() < 0.8
        scale = card_h / CARD_H
        cw = CARD_W * scale
        step = cw * (rng.uniform(*fan_show) if fan else rng.uniform(1.04, 1.2))
        total = (n - 1) * step + cw
        if total > 0.94 * width:
            step = max(fan_show[0] * cw if fan else 1.02 * cw, (0.94 * width - cw) / max(n - 1, 1))
            if (n - 1) * step + cw > 0.94 * width:  # shrink the cards to fit
                f = 0.94 * width / ((n - 1) * step + cw)
                scale, cw, step = scale * f, cw * f, step * f
            total = (n - 1) * step + cw
        ch = CARD_H * scale
        x0 = rng.uniform(0.03 * width, max(0.03 * width, width - total - 0.03 * width))
        y0 = 0.04 * height + row_gap * (r + 1) + card_h * r + (card_h - ch) / 2
        row_angle = rng.uniform(-4, 4)
        for p in range(n):
            colour, value = deck[order[k % len(deck)]]
            k += 1
            card = card_image(colour, value, rng)
            ang = np.deg2rad(row_angle + rng.uniform(-1.5, 1.5))
            cx = x0 + p * step + cw / 2
            cy = y0 + ch / 2 + p * step * np.sin(np.deg2rad(row_angle)) + rng.uniform(-0.02, 0.02) * ch
            c, s = np.cos(ang) * scale, np.sin(ang) * scale
            m = np.float32([[c, -s, cx - c * CARD_W / 2 + s * CARD_H / 2],
                            [s, c, cy - s * CARD_W / 2 - c * CARD_H / 2]])
            corners = np.float32([[0, 0], [CARD_W, 0], [CARD_W, CARD_H], [0, CARD_H]])
            pts = corners @ m[:, :2].T + m[:, 2]
            bx, by, bw, bh = cv2.boundingRect(pts.astype(np.float32))
            bx0, by0 = max(bx - 8, 0), max(by - 8, 0)
            bx1, by1 = min(bx + bw + 12, width), min(by + bh + 12, height)
            if bx1 <= bx0 or by1 <= by0:
                continue
            mm = m.copy()
            mm[:, 2] -= (bx0, by0)
            size = (bx1 - bx0, by1 - by0)
            warped = cv2.warpAffine(card, mm, size, flags=cv2.INTER_LINEAR)
            alpha = cv2.warpAffine(np.full((CARD_H, CARD_W), 255, np.uint8), mm, size,
                                   flags=cv2.INTER_LINEAR).astype(np.float32)[..., None] / 255.0
            # a soft drop shadow on whatever lies below this card
            shadow = cv2.GaussianBlur(alpha[..., 0], (0, 0), 3 * scale + 1)
            shadow = np.roll(np.roll(shadow, 3, axis=0), 3, axis=1)[..., None]
            region = table[by0:by1, bx0:bx1].astype(np.float32) * (1 - 0.35 * shadow)
            region = region * (1 - alpha) + warped.astype(np.float32) * alpha
            table[by0:by1, bx0:bx1] = np.clip(region, 0, 255).astype(np.uint8)
            label = len(drawn) + 1
            labels[by0:by1, bx0:bx1][alpha[..., 0] > 0.5] = label
            avoid[by0:by1, bx0:bx1][alpha[..., 0] > 0.02] = 1
            drawn.append((label, r, value, colour))
    if effects_on:
        _clutter(table, rng, cv2.dilate(avoid, np.ones((9, 9), np.uint8)))
        hom = effects.random_perspective(width, height, rng, 0.05)
        table = effects.warp(table, hom)
        labels = cv2.warpPerspective(labels, hom, (width, height), flags=cv2.INTER_NEAREST)
        table = effects.apply_light(table, effects.Light.random(rng), rng)
        if face_glare > 0:
            _face_glare(table, labels, len(drawn), face_glare, np.random.default_rng([seed, 1]))
        table = effects.camera(table, rng)
    positions: dict[int, int] = {}
    for label, r, value, colour in drawn:
        ys, xs = np.nonzero(labels == label)
        if xs.size < 50:
            continue
        pos = positions.get(r, 0)
        positions[r] = pos + 1
        truth.append({"colour": colour, "value": value, "row": r, "position": pos, "confidence": 1.0,
                      "box": [int(xs.min()), int(ys.min()), int(xs.max() - xs.min() + 1),
                              int(ys.max() - ys.min() + 1)]})
    return table, truth
