"""Rendered Buttons player boards: a 6x6 grid of red, yellow, green and blue cells in a dark
border (a white dot marks the corner of row 1, column 1), with transparent buttons and yellow
stars on some cells; ground truth in the shape :func:`vision.board.read` returns."""

from __future__ import annotations

from typing import Any

import cv2
import numpy as np

from vision.render import effects

CELL_BGR = {"R": (45, 45, 200), "Y": (45, 200, 240), "G": (75, 150, 40), "B": (190, 95, 40)}
BORDER_BGR = (70, 45, 35)
GAP_BGR = (235, 235, 235)
BORDER = 0.08  # border width as a fraction of the board side
STAR_BGR = (30, 205, 252)


def board_image(colours: list[list[str]], side: int = 600) -> np.ndarray:
    """The printed board (no pieces) as a ``side`` x ``side`` BGR image."""
    img = np.full((side, side, 3), BORDER_BGR, np.uint8)
    b = BORDER * side
    inner = side - 2 * b
    cell = inner / 6
    gap = max(1, int(round(cell * 0.06)))
    cv2.rectangle(img, (int(b), int(b)), (int(side - b), int(side - b)), GAP_BGR, -1)
    for r in range(6):
        for c in range(6):
            x0, y0 = int(round(b + c * cell)) + gap, int(round(b + r * cell)) + gap
            x1, y1 = int(round(b + (c + 1) * cell)) - gap, int(round(b + (r + 1) * cell)) - gap
            cv2.rectangle(img, (x0, y0), (x1, y1), CELL_BGR[colours[r][c]], -1)
    cv2.circle(img, (int(b / 2), int(b / 2)), int(b * 0.28), (240, 240, 240), -1, cv2.LINE_AA)
    return img


def _star_points(cx: float, cy: float, r_out: float, r_in: float, rot: float) -> np.ndarray:
    ang = rot + np.arange(10) * np.pi / 5
    rad = np.where(np.arange(10) % 2 == 0, r_out, r_in)
    return np.stack([cx + rad * np.sin(ang), cy - rad * np.cos(ang)], 1)


def draw_button(img: np.ndarray, cx: float, cy: float, r: float, rng: np.random.Generator) -> None:
    """A clear plastic disc: darkens and slightly tints what is under it, a bright rim, a glint."""
    h, w = img.shape[:2]
    m = np.zeros((h, w), np.float32)
    cv2.circle(m, (int(cx * 4), int(cy * 4)), int(r * 4), 1.0, -1, cv2.LINE_AA, 2)
    tint = np.float32([rng.uniform(0.86, 0.95), rng.uniform(0.84, 0.92), rng.uniform(0.82, 0.9)])
    f = img.astype(np.float32)
    f = f * (1 - m[..., None]) + f * tint * m[..., None]
    ring = np.zeros((h, w), np.float32)
    cv2.circle(ring, (int(cx * 4), int(cy * 4)), int(r * 0.9 * 4), 1.0, max(1, int(r * 0.1)), cv2.LINE_AA, 2)
    f += ring[..., None] * rng.uniform(35, 70)
    rim = np.zeros((h, w), np.float32)
    cv2.circle(rim, (int(cx * 4), int(cy * 4)), int(r * 4), 1.0, max(1, int(r * 0.06)), cv2.LINE_AA, 2)
    f *= 1 - 0.3 * rim[..., None]
    a = rng.uniform(0, 2 * np.pi)
    g = np.zeros((h, w), np.float32)
    gx, gy = cx + np.cos(a) * r * 0.55, cy + np.sin(a) * r * 0.55
    cv2.ellipse(g, (int(gx), int(gy)), (max(1, int(r * 0.22)), max(1, int(r * 0.1))), np.degrees(a) + 90, 0, 360,
                1.0, -1, cv2.LINE_AA)
    g = cv2.GaussianBlur(g, (0, 0), max(0.8, r * 0.06))
    f += g[..., None] * rng.uniform(60, 140)
    img[:] = np.clip(f, 0, 255).astype(np.uint8)


def draw_star(img: np.ndarray, cx: float, cy: float, r: float, rng: np.random.Generator) -> None:
    """An opaque yellow plastic star with a darker edge and a soft shadow."""
    pts = _star_points(cx, cy, r, r * 0.45, rng.uniform(0, 2 * np.pi / 5))
    sh = np.zeros(img.shape[:2], np.float32)
    cv2.fillPoly(sh, [np.round((pts + r * 0.08) * 4).astype(np.int32)], 1.0, cv2.LINE_AA, 2)
    sh = cv2.GaussianBlur(sh, (0, 0), max(1.0, r * 0.08))
    img[:] = np.clip(img.astype(np.float32) * (1 - 0.4 * sh[..., None]), 0, 255).astype(np.uint8)
    col = np.float32(STAR_BGR) * rng.uniform(0.9, 1.03)
    p = np.round(pts * 4).astype(np.int32)
    cv2.fillPoly(img, [p], tuple(float(v) for v in col), cv2.LINE_AA, 2)
    cv2.polylines(img, [p], True, tuple(float(v) * 0.55 for v in col), max(1, int(r * 0.07)), cv2.LINE_AA, 2)


def scene(seed: int, width: int = 1280, height: int = 960, effects_on: bool = True
          ) -> tuple[np.ndarray, list[dict[str, Any]]]:
    """One rendered board on a table: (frame, 36 truth cells with row, col, colour, content, box)."""
    rng = np.random.default_rng(seed)
    colours_flat = list(rng.permutation(list("RYGB") * 9))
    colours = [colours_flat[r * 6:(r + 1) * 6] for r in range(6)]
    side = 600
    img = board_image(colours, side)
    cell = side * (1 - 2 * BORDER) / 6
    contents = [["empty"] * 6 for _ in range(6)]
    for r in range(6):
        for c in range(6):
            u = rng.random()
            contents[r][c] = "button" if u < 0.18 else "star" if u < 0.3 else "empty"
    for r in range(6):
        for c in range(6):
            cx = side * BORDER + (c + 0.5) * cell + rng.uniform(-0.05, 0.05) * cell
            cy = side * BORDER + (r + 0.5) * cell + rng.uniform(-0.05, 0.05) * cell
            if contents[r][c] == "button":
                draw_button(img, cx, cy, cell * rng.uniform(0.33, 0.38), rng)
            elif contents[r][c] == "star":
                draw_star(img, cx, cy, cell * rng.uniform(0.38, 0.43), rng)
    # pose: the board covers 45-70 % of the frame height, rotated and tilted
    size = rng.uniform(0.45, 0.7) * height
    ang = rng.uniform(-0.4, 0.4) + rng.integers(0, 4) * np.pi / 2
    cx = width / 2 + rng.uniform(-1, 1) * (width - size * 1.4) / 2
    cy = height / 2 + rng.uniform(-1, 1) * max(0.0, (height - size * 1.4) / 2)
    rot = np.array([[np.cos(ang), -np.sin(ang)], [np.sin(ang), np.cos(ang)]])
    corners = (np.float32([[-1, -1], [1, -1], [1, 1], [-1, 1]]) * size / 2) @ rot.T + [cx, cy]
    corners = corners + rng.uniform(-0.04, 0.04, (4, 2)) * size
    src = np.float32([[0, 0], [side, 0], [side, side], [0, side]])
    hom = cv2.getPerspectiveTransform(src, corners.astype(np.float32))
    table = effects.wood_texture(height, width, rng)
    warped = cv2.warpPerspective(img, hom, (width, height), flags=cv2.INTER_AREA)
    mask = cv2.warpPerspective(np.full((side, side), 255, np.uint8), hom, (width, height))
    a = (mask.astype(np.float32) / 255)[..., None]
    frame = np.clip(table * (1 - a) + warped * a, 0, 255).astype(np.uint8)
    truth = []
    for r in range(6):
        for c in range(6):
            x0, y0 = side * BORDER + c * cell, side * BORDER + r * cell
            pts = effects.warp_points(np.float32([[x0, y0], [x0 + cell, y0], [x0 + cell, y0 + cell],
                                                  [x0, y0 + cell]]), hom)
            bx, by = pts.min(0)
            bw, bh = pts.max(0) - pts.min(0)
            truth.append({"row": r + 1, "col": c + 1, "colour": colours[r][c], "content": contents[r][c],
                          "box": [int(bx), int(by), int(round(bw)), int(round(bh))], "confidence": 1.0})
    if effects_on:
        frame = effects.apply_light(frame, effects.Light.random(rng), rng)
        frame = effects.camera(frame, rng)
    return frame, truth
