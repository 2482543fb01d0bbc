"""Round 7: small sixes whose columns lie nearer than the textbook layout are read as six, not four.

Many real dice put a six's two columns about 1.4-1.8 pip pitches apart (the layout the reader
fitted assumed 2). On a small die with large pips the body recount merges each column into a bar
and counts four; the pip search's own six must then be kept because it fits a six's layout.
The frames are drawn here: dark red dice with white pips on a beige table, as in the real photos.
"""

from __future__ import annotations

import cv2
import numpy as np
import pytest

from vision import dice, dice_body

RED_BODY = (45, 40, 120)  # BGR
WHITE_PIP = (225, 225, 225)
TABLE = (150, 170, 185)
CENTRES = [(160, 160), (320, 160), (480, 160), (160, 320), (320, 320), (480, 320)]


def sixes_frame(side: float, gap: float, pip_share: float, seed: int = 0) -> np.ndarray:
    """Six dice showing six, ``side`` pixels, columns ``gap`` pip pitches apart (pitch 0.27 side)."""
    rng = np.random.default_rng(seed)
    s = 4  # drawn at 4x and shrunk: soft edges like a camera's
    img = np.full((480 * s, 640 * s, 3), TABLE, np.uint8)
    half = side / 2
    square = np.float64([[-half, -half], [half, -half], [half, half], [-half, half]])
    for k, (cx, cy) in enumerate(CENTRES):
        a = 0.3 * k
        rot = np.float64([[np.cos(a), np.sin(a)], [-np.sin(a), np.cos(a)]])
        cv2.fillPoly(img, [np.int32((square @ rot + (cx, cy)) * s)], RED_BODY, cv2.LINE_AA)
        pitch = 0.27 * side
        for u in (-1, 1):
            for v in (-1, 0, 1):
                px, py = np.float64([u * gap * pitch / 2, v * pitch]) @ rot + (cx, cy)
                cv2.circle(img, (int(px * s), int(py * s)), int(pip_share * side / 2 * s), WHITE_PIP, -1,
                           cv2.LINE_AA)
    img = cv2.resize(img, (640, 480), interpolation=cv2.INTER_AREA)
    img = cv2.GaussianBlur(img, (0, 0), 0.7)
    return np.clip(img + rng.normal(0, 2, img.shape), 0, 255).astype(np.uint8)


@pytest.mark.parametrize("side", [20, 28])
def test_small_sixes_with_near_columns_read_six(side: int) -> None:
    """Every one of six small sixes with near columns and large pips is read as a six (c32f433: a four)."""
    found = dice.read(sixes_frame(side, 1.4, 0.24)).objects
    assert sorted(o["pips"] for o in found) == [6] * 6


def test_textbook_sixes_still_read_six() -> None:
    """Sixes with the textbook layout (columns two pitches apart) are read as before."""
    found = dice.read(sixes_frame(24, 2.0, 0.2)).objects
    assert sorted(o["pips"] for o in found) == [6] * 6


def test_six_layout_fit_allows_near_columns_only_square_on() -> None:
    """A 2x3 grid with near columns fits a six's layout; with the stretch refused (a slanted face)
    it does not; a four's square never gains the stretch."""
    pitch = 6.0
    near = [(u * 0.75 * pitch, v * pitch) for u in (-1, 1) for v in (-1, 0, 1)]  # 1.5 pitches apart
    misfit, scale = dice_body.layout_fit(near)
    assert misfit <= dice.LAYOUT_TOL and scale == pytest.approx(pitch, rel=0.1)
    assert dice_body.layout_fit(near, stretch=False)[0] > dice.LAYOUT_TOL
    oblong_four = [(-4.0, -6.0), (4.0, -6.0), (-4.0, 6.0), (4.0, 6.0)]
    assert dice_body.layout_fit(oblong_four)[0] > dice.LAYOUT_TOL
