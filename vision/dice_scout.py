"""Dice scout: where in a frame can pips of the fine levels be? A cheap pre-pass for the pip search.

The pip search (vision.dice.find_pips) looks for pips on four pyramid levels; the two finest (the
frame and the frame halved: pips of 2.6-20 px) hold about 94 % of the pixels and most of the noise
blobs. Pips are a small part of most frames, so before searching level k (k < LEVELS) the scout
looks at level k+1, which the search makes anyway:
1. spots: pixels darker (dark-pip plane) or brighter (bright-pip plane) than a box mean as wide as
   the search's own box mean on level k, with a looser ratio than the search (a pip is blurred by
   the halving), so every pip of level k makes a spot, whatever the die's body and the table look
   like (a white die on a white tray shows no body, but its pips do);
2. every spot pixel marks its cell of ALIGN level-k pixels (a small die's pips and edges may merge
   into one blob at the halved scale, so no spot is judged by its shape); marked cells grown by
   MARGIN cells (the level's box mean then sees the same surroundings as on the whole level) make
   boxes; overlapping boxes are joined when their union wastes little area;
3. when the boxes would cover most of the level (clutter, noise, a busy cloth) the whole level is
   searched as before: None.
The coarser levels are always searched whole, so large dice do not depend on the scout.
"""

from __future__ import annotations

import math

import cv2
import numpy as np

DARK_R = 0.88  # a spot is below this fraction of its local mean (the pip search: 0.74) ...
BRIGHT_R = 1.14  # ... or above this multiple (the pip search: 1.28)
SPOT_BLOCK = 13  # box mean width (pixels of level k+1): the search's BLOCK (25) on level k
LEVELS = 2  # the finest levels searched in boxes only (the frame, and the frame halved)
ALIGN = 16  # cell size (pixels of the level searched)
MARGIN = 2  # boxes reach this many cells beyond their spots' cells
MAX_COVER = 0.6  # boxes covering more of the level than this: search the whole level


def _lut(ratio: float, offset: float) -> np.ndarray:
    return np.clip(np.arange(256) * ratio + offset, 0, 255).astype(np.uint8)


DARK_LUT = _lut(DARK_R, -3)
BRIGHT_LUT = _lut(BRIGHT_R, 6)


def loose_spots(level: np.ndarray, dark: bool, mean: np.ndarray | None = None) -> np.ndarray:
    """Mask of a level's pixels darker (or brighter) than the mean around them, loosely.

    ``mean`` is spot_mean(level) when the caller has it (one plane searched for both polarities)."""
    if mean is None:
        mean = spot_mean(level)
    if dark:
        return cv2.compare(level, cv2.LUT(mean, DARK_LUT), cv2.CMP_LT)
    return cv2.compare(level, cv2.LUT(mean, BRIGHT_LUT), cv2.CMP_GT)


def spot_mean(level: np.ndarray) -> np.ndarray:
    """The box mean loose_spots compares a level with: as wide as the search's box mean on the next
    finer level."""
    return cv2.blur(level, (SPOT_BLOCK, SPOT_BLOCK))


def blank(spots: np.ndarray, skip: list[tuple[float, float, float, float]], scale: float) -> None:
    """Clear the spots (in place) of a level ``scale`` times smaller than the frame inside frame
    boxes (x0, y0, x1, y1) that need no search (dice an earlier pass has read)."""
    h, w = spots.shape[:2]
    for x0, y0, x1, y1 in skip:
        xa, ya = max(int(math.ceil(x0 / scale)), 0), max(int(math.ceil(y0 / scale)), 0)
        xb, yb = min(int(x1 // scale), w), min(int(y1 // scale), h)
        if xb > xa and yb > ya:
            spots[ya:yb, xa:xb] = 0


def fine_boxes(spots: np.ndarray, shape: tuple[int, int]) -> list[tuple[int, int, int, int]] | None:
    """Boxes (x, y, w, h) of a level of ``shape`` around the spots of the next coarser level; None: all of it."""
    h, w = shape
    gh, gw = -(-h // ALIGN), -(-w // ALIGN)
    # every spot pixel marks its cell (a small die's pips may merge into one blob at this scale):
    # the mean over a cell is above zero
    cell = ALIGN // 2
    sh, sw = spots.shape
    pad = spots if (sh, sw) == (gh * cell, gw * cell) else cv2.copyMakeBorder(
        spots[:gh * cell, :gw * cell], 0, max(gh * cell - sh, 0), 0, max(gw * cell - sw, 0), cv2.BORDER_CONSTANT, 0)
    cells = (cv2.resize(pad, (gw, gh), interpolation=cv2.INTER_AREA) > 0).astype(np.uint8)
    cells = cv2.dilate(cells, np.ones((2 * MARGIN + 1, 2 * MARGIN + 1), np.uint8))
    if cv2.countNonZero(cells) > MAX_COVER * gh * gw:
        return None
    stats = cv2.connectedComponentsWithStats(cells, connectivity=8)[2]
    boxes = _merge([[x, y, x + bw, y + bh] for x, y, bw, bh in stats[1:, :4].tolist()])
    out = []
    for x0, y0, x1, y1 in boxes:
        px0, py0 = x0 * ALIGN, y0 * ALIGN
        out.append((px0, py0, min(x1 * ALIGN, w) - px0, min(y1 * ALIGN, h) - py0))
    if sum(bw * bh for _, _, bw, bh in out) > MAX_COVER * h * w:
        return None
    return out


def _merge(boxes: list[list[int]]) -> list[list[int]]:
    """Boxes joined where their union wastes little area (overlapping boxes are allowed otherwise)."""
    changed = True
    while changed:
        changed = False
        out: list[list[int]] = []
        for b in boxes:
            for o in out:
                ux0, uy0, ux1, uy1 = min(o[0], b[0]), min(o[1], b[1]), max(o[2], b[2]), max(o[3], b[3])
                if (ux1 - ux0) * (uy1 - uy0) <= (o[2] - o[0]) * (o[3] - o[1]) + (b[2] - b[0]) * (b[3] - b[1]):
                    o[:] = [ux0, uy0, ux1, uy1]
                    changed = True
                    break
            else:
                out.append(list(b))
        boxes = out
    return boxes
