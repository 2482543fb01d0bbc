"""Buttons board reader: find a 6x6 player board, straighten it, and read every cell's printed
colour (R Y G B) and what lies on it (empty, a transparent button, a yellow star).

The board's outline gives a first grid; the grid is then refitted to its own pale lines
(vision/board_grid.py), so a glare spot or a piece on the outline does not shift the cells, and the
white dot beside row 1 / column 1 turns it the right way round. The white lines are the board's own
white patch: colours are balanced on them, then a cell's printed colour is read in log-chroma
(R/G, B/G, which does not change with brightness) at the most saturated of its four corners (a
piece in the middle never covers them; glare adds white light and washes a corner out). Contents
are read from the middle by two linear rules on measurements that are all ratios to the same cell's
corners or to this board's own cells: a star is opaque yellow with five points (its colour changes
five times around a circle); a button is clear, so it darkens what is under it and shows a thin
bright ring all the way round, found as a ridge along the radius (a glare spot or a shadow's edge
is smooth and covers only part of a circle).
"""

from __future__ import annotations

from typing import Any

import cv2
import numpy as np

from vision import board_grid
from vision.common import ImageError, Observation, check_frame, median

COLOURS = ("R", "Y", "G", "B")
CONTENTS = ("empty", "button", "star")
NOMINAL_BGR = {"R": (45, 45, 200), "Y": (45, 200, 240), "G": (75, 150, 40), "B": (190, 95, 40)}
STAR_BGR = (30, 205, 252)
BORDER_CELLS = 0.08 / (0.84 / 6)  # the dark border's width, in cells (design of the printed board)
CELL = 40  # pixels per cell in the straightened board
WORK_WIDTH = 480
EPS = 6.0
MIN_GRID = 0.2  # least grid score (pale lines over cells and border) of a board
GOOD_GRID = 0.45  # a grid score no other outline needs to beat
SETTLED = 0.1  # a refit pass that moved no corner further (cells) has settled
SETTLE_ROUNDS = 2  # most extra refits of the chosen grid while it has not settled
SETTLE_TOL = 0.02  # ... each kept unless its grid score falls by more than this (a grid score tells
# a grid off by a whole line, not one a fraction of a cell off)
CUT_SIDES = 8  # most sides of an outline whose four longest are extended to find its cut-off corners
CUT_GROWTH = 1.25  # ... which may add at most this share to its area


def _norm2(dx: np.ndarray, dy: np.ndarray) -> np.ndarray:
    """np.linalg.norm(np.stack([dx, dy], -1), axis=-1), the same sums in the same order, without
    stacking the two parts or numpy's reduction over an axis of two."""
    return np.sqrt(dx * dx + dy * dy)


_R_B = [2, 0]  # the red and blue channels of BGR


def _chroma(bgr: np.ndarray) -> np.ndarray:
    b = np.asarray(bgr, np.float32).reshape(-1, 3) + EPS
    return np.log(b[:, _R_B] / b[:, 1:2])  # log(R/G), log(B/G)


def default_profile() -> dict[str, Any]:
    """Built-in cell colours (log-chroma of the nominal print) and the star's colour."""
    return {"colours": {k: _chroma(v)[0].tolist() for k, v in NOMINAL_BGR.items()},
            "star": _chroma(STAR_BGR)[0].tolist()}


_ROLL = [np.roll(np.arange(4), -k) for k in range(4)]  # the four orders of a quadrilateral's corners


def _order(quad: np.ndarray) -> np.ndarray:
    """Four points in clockwise order (image coordinates) starting from the top-left-most."""
    c = quad.mean(axis=0)
    ang = np.arctan2(quad[:, 1] - c[1], quad[:, 0] - c[0])
    q = quad[np.argsort(ang)]
    start = int(np.argmin(q.sum(axis=1)))
    return q[_ROLL[start]].astype(np.float32)


def _median_u8(img: np.ndarray) -> float:
    """np.median of a uint8 image (the mean of the two middle values of an even count), counted in a
    256-bin histogram instead of partitioning a float copy."""
    n = img.size
    if n == 0:
        return float(median(img.ravel()))
    return _median_of_counts(np.cumsum(np.bincount(img.ravel(), minlength=256)), n)


def _median_of_counts(below: np.ndarray, n: int) -> float:
    """The median of n values from their cumulative 256-level histogram ``below`` (the mean of the two
    middle values of an even count)."""
    # the value at sorted position k is the first level with more than k values at or below it
    hi = int(np.searchsorted(below, n // 2, side="right"))
    if n % 2:
        return float(hi)
    lo = int(np.searchsorted(below, n // 2 - 1, side="right"))
    return (lo + hi) / 2


def _median_every3(img: np.ndarray) -> float:
    """_median_u8(img[::3, ::3]) of a uint8 image. A C-contiguous image whose width is a multiple of 3 is
    counted without a copy: every third row as pixels of three values, of which ``calcHist`` counts
    the first; any other image is copied as before."""
    h, w = img.shape[:2]
    if img.ndim != 2 or img.dtype != np.uint8 or not img.flags.c_contiguous or w % 3 or img.size == 0:
        return _median_u8(img[::3, ::3])
    n = ((h + 2) // 3) * (w // 3)
    return _median_of_counts(np.cumsum(cv2.calcHist([img[::3].reshape(-1, w // 3, 3)], [0], None, [256], [0, 256]).ravel()), n)


def _quads(gray: np.ndarray) -> list[np.ndarray]:
    """Large convex quadrilaterals outlined by edges, largest first."""
    blur = cv2.GaussianBlur(gray, (5, 5), 0)
    med = _median_every3(blur)  # every third pixel is plenty for the median
    edges = cv2.Canny(blur, max(10.0, 0.5 * med), max(30.0, 1.2 * med))
    edges = cv2.dilate(edges, np.ones((3, 3), np.uint8))
    contours, _ = cv2.findContours(edges, cv2.RETR_LIST, cv2.CHAIN_APPROX_SIMPLE)
    min_area = 0.02 * gray.size
    out = []
    for cnt in contours:
        if cv2.contourArea(cnt) < min_area:
            continue
        out += _hull_quads(cv2.convexHull(cnt))
    out.sort(key=lambda q: -cv2.contourArea(q))
    return out[:3]


def _hull_quads(hull: np.ndarray) -> list[np.ndarray]:
    """Four-sided outlines of a convex hull: its coarse four-sided approximation and, when a corner is
    cut off (glare, a piece on the edge, a cell too dark to count), its four longest sides extended
    to meet: the cut corner's short side is left out instead of bending two of the four."""
    out = []
    # a corner clipped by glare or a piece touching the edge leaves five or six sides: a
    # coarser approximation still finds the four main ones
    for eps in (0.03, 0.05, 0.08):
        approx = cv2.approxPolyDP(hull, eps * cv2.arcLength(hull, True), True)
        if eps == 0.03 and 5 <= len(approx) <= CUT_SIDES:
            if (quad := _long_sides(approx.reshape(-1, 2).astype(np.float32))) is not None:
                out.append(quad)
        if len(approx) <= 4:
            break
    if len(approx) == 4:
        out.append(approx.reshape(4, 2).astype(np.float32))
    return out


def _long_sides(poly: np.ndarray) -> np.ndarray | None:
    """The quadrilateral made by extending a convex polygon's four longest sides (kept in their
    order around it), or None when they do not meet in a convex quadrilateral near the polygon."""
    ends = np.roll(poly, -1, axis=0)
    keep = np.sort(np.argsort(-np.hypot(*(ends - poly).T))[:4])
    p, d = poly[keep], ends[keep] - poly[keep]
    corners = []
    for i in range(4):
        q, e = p[(i + 1) % 4], d[(i + 1) % 4]
        den = d[i, 0] * e[1] - d[i, 1] * e[0]
        if abs(den) < 1e-6 * float(np.hypot(*d[i]) * np.hypot(*e)):
            return None
        t = ((q[0] - p[i, 0]) * e[1] - (q[1] - p[i, 1]) * e[0]) / den
        corners.append(p[i] + t * d[i])
    quad = np.float32(corners)
    area, hull_area = cv2.contourArea(quad), cv2.contourArea(poly)
    # the extended sides may add the cut corners back, never much more than that
    if not cv2.isContourConvex(quad.reshape(-1, 1, 2)) or not hull_area <= area <= CUT_GROWTH * hull_area:
        return None
    return quad


def _mesh_quads(gray: np.ndarray) -> list[np.ndarray]:
    """Fallback outlines: the bright mesh of grid lines (Otsu split of the frame's own lightness), for a
    board whose dark border hardly differs from the table or whose outline a glare spot bends."""
    _, mask = cv2.threshold(cv2.GaussianBlur(gray, (3, 3), 0), 0, 255, cv2.THRESH_BINARY | cv2.THRESH_OTSU)
    return _outline_quads(mask, gray.size)


def _outline_quads(mask: np.ndarray, size: int) -> list[np.ndarray]:
    """Four-sided outlines of the three largest blobs of a mask that cover at least 2 % of it."""
    contours, _ = cv2.findContours(mask, cv2.RETR_EXTERNAL, cv2.CHAIN_APPROX_SIMPLE)
    out = []
    for cnt in sorted(contours, key=cv2.contourArea, reverse=True)[:3]:
        hull = cv2.convexHull(cnt)
        if cv2.contourArea(hull) >= 0.02 * size:
            out += _hull_quads(hull)
    return out


def _cell_quads(frame_small: np.ndarray) -> list[np.ndarray]:
    """Outlines of the block of saturated printed cells (Otsu split of the frame's own saturation), for
    a board whose dark border melts into a dark table or whose outline a glare spot joins to the
    table (the frame may be shrunk by nearest neighbour: the blur evens its noise)."""
    sat = cv2.GaussianBlur(cv2.cvtColor(frame_small, cv2.COLOR_BGR2HSV)[:, :, 1], (5, 5), 0)
    _, mask = cv2.threshold(sat, 0, 255, cv2.THRESH_BINARY | cv2.THRESH_OTSU)
    # close the pale grid lines between the cells, so the cells make one block
    mask = cv2.morphologyEx(mask, cv2.MORPH_CLOSE, np.ones((5, 5), np.uint8))
    return _outline_quads(mask, sat.size)


def _grid_homography(quad: np.ndarray, is_board: bool) -> np.ndarray:
    """Homography grid units (0-6 cells) -> frame, from the board's outer outline or the grid's."""
    if is_board:
        lo, hi = -BORDER_CELLS, 6 + BORDER_CELLS
    else:
        lo, hi = 0.0, 6.0
    src = np.float32([[lo, lo], [hi, lo], [hi, hi], [lo, hi]])
    return cv2.getPerspectiveTransform(src, quad)


def _shrink(img: np.ndarray, f: float, fast: int | None = None) -> np.ndarray:
    """The image scaled by f (at most 1) to the working width; by ``fast`` interpolation alone if given."""
    if f >= 1:
        return img
    h, w = img.shape[:2]
    if fast is not None:
        return cv2.resize(img, (int(w * f), int(h * f)), interpolation=fast)
    if f <= 0.5:  # halve exactly first: area averaging at an integer factor is fast
        img = cv2.resize(img, (w // 2, h // 2), interpolation=cv2.INTER_AREA)
    return cv2.resize(img, (int(w * f), int(h * f)), interpolation=cv2.INTER_LINEAR)


_OFF_ONE = [np.float32([[1, 0, dx], [0, 1, dy], [0, 0, 1]]) for dx, dy in ((1, 0), (-1, 0), (0, 1), (0, -1))]


def _one_cell_off(hom: np.ndarray) -> list[np.ndarray]:
    """The four grids one cell right, left, down and up of a grid's homography."""
    return [hom @ t for t in _OFF_ONE]


def find_board(frame: np.ndarray) -> tuple[np.ndarray, float] | None:
    """Homography grid units -> frame pixels, with row 1 / column 1 at grid (0, 0); and a score."""
    h, w = frame.shape[:2]
    f = min(1.0, WORK_WIDTH / w)
    gray = _shrink(cv2.cvtColor(frame, cv2.COLOR_BGR2GRAY), f)
    # the grid is told by its pale lines: under a warm lamp they are dark in blue like the printed
    # colours, unless the channels are balanced on the frame's own brightest things first
    gains = board_grid.light_gains(frame)
    best: tuple[float, np.ndarray] | None = None
    # first the board's own outline; when no grid fits it well, the block of printed cells and the
    # pale mesh together
    rounds = (((_quads, lambda: gray),),
              ((_cell_quads, lambda: _shrink(frame, f, cv2.INTER_NEAREST)), (_mesh_quads, lambda: gray)))
    for finders in rounds:
        # every outline read as the board's edge or the grid's, ranked by how well the grid's lines
        # fall on pale lines; the best few are refitted to the lines themselves and scored again
        quads = [_order(q / f) for finder, image in finders for q in finder(image())]
        homs = [_grid_homography(q, is_board) for q in quads for is_board in (True, False)]
        if not homs:
            continue
        scores = board_grid.grid_scores(frame, homs, gains)
        for i in sorted(range(len(homs)), key=lambda i: -scores[i])[:3]:
            hom, moved = board_grid.refine_moved(frame, homs[i], gains=gains)
            # the refitted grid is scored with the four grids one cell off it in one call (each score
            # is its own: the same as one call each); those four are used if this grid is kept
            near = _one_cell_off(hom)
            near_scores = board_grid.grid_scores(frame, [hom, *near], gains)
            score = float(near_scores[0])
            if best is None or score > best[0]:
                best, best_moved, best_near = (score, hom), moved, (near, near_scores[1:])
            if best[0] >= GOOD_GRID:
                break
        if best is not None and best[0] >= GOOD_GRID:
            break
    if best is None or best[0] < MIN_GRID:
        return None
    # an outline a glare spot bent far is pulled back only partway by one refit: while the last pass
    # still moved a corner, refit the chosen grid again and keep it unless its lines fit worse
    for _ in range(SETTLE_ROUNDS):
        if best_moved <= SETTLED:
            break
        hom, best_moved = board_grid.refine_moved(frame, best[1], gains=gains)
        near = _one_cell_off(hom)
        near_scores = board_grid.grid_scores(frame, [hom, *near], gains)
        score = float(near_scores[0])
        if score < best[0] - SETTLE_TOL:
            break
        best, best_near = (score, hom), (near, near_scores[1:])
    # an outline one cell too small or too far over still lays the inner lines on lines: the border
    # check of the grid score tells the true grid from the four grids one cell off
    for score, hom in zip(best_near[1], best_near[0], strict=True):
        if score > best[0]:
            best = (float(score), hom)
    score, hom = best
    # re-anchor so the corner with the white dot becomes grid (0, 0)
    k = board_grid.dot_corner(frame, hom)
    grid = np.float32([[0, 0], [6, 0], [6, 6], [0, 6]])
    frame_pts = cv2.perspectiveTransform(grid.reshape(-1, 1, 2), hom).reshape(-1, 2)
    hom = cv2.getPerspectiveTransform(grid, np.roll(frame_pts, -k, axis=0).astype(np.float32))
    return hom, score


_FIVE = np.exp(-2j * np.pi * 5 * np.arange(20) / 20)  # a star's five points repeat every 72 degrees
# Two linear rules on the cell measurements (all ratios within the cell or to this board's own cells),
# fitted by logistic regression on rendered tuning boards (seeds 0-999): a positive score says star,
# or (for a cell that is not a star) button. "_y" / "_n" features count only on yellow / other cells.
STAR_RULE = ({"to_star_n": -1.45, "mid_shift_n": 4.8, "spread_y": 0.131, "mid_shift_y": 11.1, "dark_y": -2.11,
              "yel": -2.02, "five_y": 27.1, "five_n": 9.48, "spread": 1.63, "dark": 1.65, "ridge": -27.0,
              "five_share": 9.36, "whiten": 1.07, "valley_y": 59.7}, -8.52)
BUTTON_RULE = ({"ridge": 37.7, "ridge_board": 41.0, "dark": -19.2, "rim": 4.5, "sharp": -13.2}, 10.4)
SCORE_SCALE = 4.0  # score at which a content call counts as certain
SECTORS = 24  # angular sectors of the polar profile that looks for a button's bright ring
BAND = 0.025  # radial step of that profile, in cells
# Sensor noise makes a ridge of its own: the strongest of a few noisy bands stands out by about the
# noise level. A board's noise (the median absolute step from each pixel to its four neighbours, in its
# cells' darkest channel) above what a normally lit frame shows is taken off every cell's ridge, so a
# dim, grainy board's empty cells do not pass for buttons.
NOISE_FREE = 3.0  # noise (grey levels) a well-lit camera frame shows; the rule was fitted on such
NOISE_RIDGE = 1.0  # ridge (grey levels) that each grey level of noise above NOISE_FREE makes
# An out-of-focus or shaken camera spreads a button's thin ring out: its ridge falls about as the grid
# lines' sharpness (``_sharpness``, across the vertical and the horizontal lines) falls toward
# SHARP_FLOOR, the sharpness of a line blurred past telling. The button rule was fitted on frames at
# least as sharp as SHARP_FULL (the renderer's blur stops at a Gaussian sigma of 1.5 px at 1280x960;
# its own ``sharp`` input covers that range); the ridge of a frame less sharp than that is scaled back
# up by the lines' own loss, (SHARP_FULL - SHARP_FLOOR) / (sharpness - SHARP_FLOOR), at most
# BLUR_GAIN, so the rule reads it as in a frame of that sharpness.
SHARP_FULL = 0.35
SHARP_FLOOR = 0.24
BLUR_GAIN = 8.0


def _polar_bins() -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """For each pixel of a cell between radius 0.10 and 0.45 cell: its pixel index and its (band, sector)
    bin; and each band's radius."""
    yy, xx = np.mgrid[0:CELL, 0:CELL].astype(np.float32) - (CELL - 1) / 2
    rr = (np.sqrt(xx ** 2 + yy ** 2) / CELL).ravel()
    sec = ((np.arctan2(yy, xx).ravel() + np.pi) / (2 * np.pi) * SECTORS).astype(int) % SECTORS
    band = np.floor((rr - 0.10) / BAND).astype(int)
    keep = (rr >= 0.10) & (rr < 0.45)
    bands = 0.10 + BAND * np.arange(int(band[keep].max()) + 1)
    return np.flatnonzero(keep), band[keep] * SECTORS + sec[keep], bands


_PIX, _BIN, _BANDS = _polar_bins()
_NBIN = len(_BANDS) * SECTORS
_BIN_COUNT = np.maximum(np.bincount(_BIN, minlength=_NBIN), 1).astype(np.float32)


_BIN_IDX: dict[int, np.ndarray] = {}  # the bins of every pixel of n cells, by n (always 36 or 72 here)


def _radial_profiles(plane: np.ndarray) -> np.ndarray:
    """Mean of each (band, sector) bin of every cell: (cells, bands, sectors), in grey levels."""
    return _bin_means(plane[:, _PIX])


def _bin_means(vals: np.ndarray) -> np.ndarray:
    """_radial_profiles of the cells' values already taken at the binned pixels (_PIX)."""
    n = vals.shape[0]
    idx = _BIN_IDX.get(n)
    if idx is None:
        idx = _BIN_IDX.setdefault(n, (np.arange(n)[:, None] * _NBIN + _BIN[None, :]).ravel())
    prof = np.bincount(idx, weights=vals.ravel(), minlength=n * _NBIN).reshape(n, len(_BANDS), SECTORS)
    return prof / _BIN_COUNT.reshape(len(_BANDS), SECTORS)


_MID_BANDS = _BANDS[2:-2]  # the bands that have two bands on each side


def _band_step(prof: np.ndarray, lo: int = 0, hi: int | None = None) -> np.ndarray:
    """Each band of _MID_BANDS (or of _MID_BANDS[lo:hi]) above the mean of the bands 0.05 cell inside
    and outside it."""
    hi = len(_MID_BANDS) if hi is None else hi
    return prof[:, 2 + lo:2 + hi] - 0.5 * (prof[:, lo:hi] + prof[:, 4 + lo:4 + hi])


def _band_span(lo: float, hi: float) -> tuple[int, int]:
    """The first and one past the last of _MID_BANDS between lo and hi (cells): they lie in order."""
    at = np.flatnonzero((_MID_BANDS >= lo) & (_MID_BANDS < hi))
    return int(at[0]), int(at[-1]) + 1


_RIDGE_BANDS = _band_span(0.25, 0.38)  # the bands a button's ring is looked for in
_VALLEY_BANDS = _band_span(0.15, 0.43)  # the bands a star's dark edge is looked for in


def _ring_ridge(prof: np.ndarray) -> np.ndarray:
    """How much a thin ring at 0.25-0.38 cell stands out as a ridge along the radius (a band above the
    mean of the bands 0.05 cell inside and outside it), in grey levels: per sector the strongest ridge,
    then the median over sectors. A ridge needs a sharp edge on both sides, so the smooth rise of a
    glare spot or a shadow's gradient hardly makes one, while a button's ring does all the way round."""
    best = _band_step(prof, *_RIDGE_BANDS).max(axis=1)
    return board_grid.small_median(best, axis=1)


def _edge_valley(prof: np.ndarray) -> np.ndarray:
    """How much a thin dark line crosses every ray from the middle between 0.15 and 0.43 cell (a band
    below the mean of the bands 0.05 cell inside and outside it), in grey levels: per sector the
    deepest valley, then the lower third over sectors. A star's dark edge crosses every ray, at the
    radius of its points or of its notches; a glare spot is a smooth rise and crosses none."""
    best = (-_band_step(prof, *_VALLEY_BANDS)).max(axis=1)
    return _percentile33(best)


def _lower_third_at(n: int) -> tuple[int, float]:
    """Where np.percentile(..., 33) (linear method) of n values falls: the lower index and the weight of
    the next, computed as numpy computes them."""
    virtual = (n - 1) * np.true_divide(33, 100)
    below = np.floor(virtual)
    return int(below), float(virtual - below)


_P33 = _lower_third_at(SECTORS)


def _percentile33(a: np.ndarray) -> np.ndarray:
    """np.percentile(a, 33, axis=1) of a float (cells, SECTORS) array, without its overhead: the two
    neighbouring order statistics and numpy's own interpolation (from whichever end is nearer)."""
    if a.shape[1] != SECTORS or np.isnan(a).any():  # numpy's own NaN handling
        return np.percentile(a, 33, axis=1)
    k, t = _P33
    # one partition: the next order statistic is the least of those right of k (a partition at two
    # places costs more)
    part = np.partition(a, k, axis=1)
    lo, hi = part[:, k], part[:, k + 1:].min(axis=1)
    diff = hi - lo
    return hi - diff * (1 - t) if t >= 0.5 else lo + diff * t


def _cell_masks() -> dict[str, np.ndarray]:
    """Pixel masks of one straightened cell (CELL x CELL) and the sector one-hots of the star's circle."""
    yy, xx = np.mgrid[0:CELL, 0:CELL].astype(np.float32) - (CELL - 1) / 2
    rr = np.sqrt(xx ** 2 + yy ** 2) / CELL
    near = (np.abs(xx) > CELL * 0.3) & (np.abs(yy) > CELL * 0.3) & (np.abs(xx) < CELL * 0.43) & (np.abs(yy) < CELL * 0.43)
    corners = [np.flatnonzero((near & (sx * xx > 0) & (sy * yy > 0)).ravel()) for sx in (-1, 1) for sy in (-1, 1)]
    circle = ((rr > 0.26) & (rr < 0.32)).ravel()
    ang = np.arctan2(yy, xx).ravel()[circle]
    sectors = ((ang + np.pi) / (2 * np.pi) * 20).astype(int) % 20
    onehot = np.zeros((sectors.size, 20), np.float32)
    onehot[np.arange(sectors.size), sectors] = 1.0
    onehot /= onehot.sum(axis=0, keepdims=True)
    return {"corners": np.stack(corners), "middle": np.flatnonzero(rr.ravel() < 0.2),
            "rim": np.flatnonzero(((rr > 0.27) & (rr < 0.37)).ravel()), "circle": np.flatnonzero(circle),
            "onehot": onehot}


_MASKS = _cell_masks()
_ONES3 = np.ones((1, 3), np.float32)
_MIDDLE_N = len(_MASKS["middle"])
_MIDDLE_ROW = np.zeros((1, CELL * CELL), np.float32)
_MIDDLE_ROW[0, _MASKS["middle"]] = 1


def _middle_mean(cells: np.ndarray) -> np.ndarray:
    """cells[:, _MASKS["middle"]].mean(axis=1) of float32 cells of whole grey levels: every partial sum
    is a whole number below 2**24, so a matrix product adds them exactly, and the division is numpy's
    own (by the count as an integer, into float32)."""
    total = np.matmul(_MIDDLE_ROW, cells).reshape(len(cells), 3)
    return np.true_divide(total, np.intp(_MIDDLE_N), out=total, casting="unsafe")


_PLANE_AT = (np.arange(36)[:, None] * CELL * CELL + _PIX[None, :]) * 3  # blue value of each binned pixel in cells


def _darkest(top: np.ndarray) -> np.ndarray:
    """The darkest channel of each pixel of a BGR uint8 image."""
    b, g, r = cv2.split(top)
    return cv2.min(cv2.min(b, g), r)


def _sharpness(top: np.ndarray, horizontal: bool = False, darkest: np.ndarray | None = None) -> float:
    """How sharp this frame shows the board: the steepest step across its pale vertical grid lines
    (between the horizontal ones; or across the horizontal ones, as on the transposed board) over the
    lines' height. A blurred frame spreads a button's thin ring out, so the ring rule asks less of a
    blurred board's rings. ``darkest`` (_darkest(top)) may be given. The reader takes both directions
    at once (_sharpness_both); this is one of them."""
    return _sharpness_both(top, darkest)[1 if horizontal else 0]


def _sharpness_rows() -> tuple[np.ndarray, np.ndarray, int]:
    """What _sharpness_both adds: a 0/1 row marking the pixels between the lines (each cell's middle
    3/5) and a (6*CELL, 2*half) 0/1 matrix that adds the five strips about the inner lines, place by
    place; and how many values each profile place is the mean of."""
    half, inner = CELL // 4, np.arange(CELL)[CELL // 5:CELL - CELL // 5]
    between = np.zeros(6 * CELL, np.float32)
    between[(np.arange(6)[:, None] * CELL + inner).ravel()] = 1
    fold = np.zeros((6 * CELL, 2 * half), np.float32)
    for k in range(1, 6):
        fold[k * CELL - half + np.arange(2 * half), np.arange(2 * half)] = 1
    return between, fold, 6 * len(inner) * 5


_SHARP_BETWEEN, _SHARP_FOLD, _SHARP_COUNT = _sharpness_rows()


def _sharpness_both(top: np.ndarray, darkest: np.ndarray | None = None) -> tuple[float, float]:
    """How sharp the frame shows the board across its vertical lines and across its horizontal ones
    (see _sharpness), from two matrix-vector products of the darkest channel: the sums of whole grey levels are whole numbers below 2**24, exact in float32
    however they are added, then divided by the count in float64 as the integer sums are."""
    dark = (_darkest(top) if darkest is None else darkest).astype(np.float32)
    sums = np.stack((_SHARP_BETWEEN @ dark, dark @ _SHARP_BETWEEN)) @ _SHARP_FOLD  # (2, 2*half)
    out = []
    for p in (sums.astype(np.float64) / _SHARP_COUNT).tolist():
        out.append(max(abs(b - a) for a, b in zip(p[:-1], p[1:], strict=True)) / max(max(p) - min(p), 1.0))
    return out[0], out[1]


def _blur_gain(sharp: float) -> float:
    """How much a frame this sharp has flattened a thin ring's ridge (1 for a sharp frame)."""
    if sharp >= SHARP_FULL:
        return 1.0
    return min(BLUR_GAIN, (SHARP_FULL - SHARP_FLOOR) / max(sharp - SHARP_FLOOR, 1e-6))


def _noise(plane: np.ndarray) -> float:
    """The board's sensor noise in grey levels: the median absolute difference between a pixel and the
    mean of its four neighbours, over every cell (printed colour and lines are smooth at this scale)."""
    # a quarter of the pixels tell it as well (every 4th of the inner pixels, counted cell after cell,
    # row after row), so the step is taken at those only
    p = plane.reshape(len(plane), CELL * CELL)
    up, down, left, right = (p[:, _NOISE_AT + d] for d in (-CELL, CELL, -1, 1))
    lap = p[:, _NOISE_AT] - 0.25 * (up + down + left + right)
    return float(median(np.abs(lap).ravel()))


def _noise_top(top: np.ndarray, darkest: np.ndarray) -> float:
    """_noise of the plane of each cell's own channel (``darkest``, one per cell) of the straightened
    board (uint8, 6*CELL square), taken straight from it: four times each step (a whole number) in
    16-bit integers, and the median counted in a histogram. Every step of whole grey levels is a
    multiple of 1/4 below 256, so the median (the mean of the two middle steps) is exact either way."""
    flat = top.reshape(-1)
    at = _NOISE_TOP + darkest.astype(np.intp)[:, None]
    side = 3 * 6 * CELL  # one row of the board, in values
    around = (flat.take(at - side).astype(np.int16) + flat.take(at + side) + flat.take(at - 3) + flat.take(at + 3))
    four = np.abs(4 * flat.take(at).astype(np.int16) - around).ravel()
    n = four.size
    below = np.cumsum(np.bincount(four, minlength=4 * 255 + 1))
    # the value at sorted position k is the first with more than k values at or below it
    hi = int(np.searchsorted(below, n // 2, side="right"))
    if n % 2:
        return hi / 4
    lo = int(np.searchsorted(below, n // 2 - 1, side="right"))
    return (lo + hi) / 8


def _noise_points() -> np.ndarray:
    """The inner pixels of a cell (flat index) that every 4th pixel of the cells' inner (CELL-2)^2 blocks,
    counted cell after cell, hits: the same in every cell, as (CELL-2)^2 is a multiple of 4."""
    inner = np.arange(1, CELL - 1)
    flat = (inner[:, None] * CELL + inner[None, :]).ravel()
    return flat[::4]


_NOISE_AT = _noise_points()
# where the straightened board (a 6*CELL square of BGR values, flattened) holds each cell's pixels
_CELL_AT = np.array([r * CELL * 6 * CELL + c * CELL for r in range(6) for c in range(6)])


def _board_px(in_cell: np.ndarray) -> np.ndarray:
    """The pixel (flat index in the 6*CELL square board) of each flat pixel index of a cell: (36, ...)."""
    in_cell = np.asarray(in_cell)
    return _CELL_AT.reshape((36,) + (1,) * in_cell.ndim) + in_cell // CELL * 6 * CELL + in_cell % CELL


_NOISE_TOP = _board_px(_NOISE_AT) * 3  # (36, noise points), blue value of each
# each corner's values of each cell, channels apart: (36, 4, 3, pixels), each group's values in turn
_CORNER_TOP = _board_px(_MASKS["corners"])[:, :, None, :] * 3 + np.arange(3)[:, None]
_CORNER_N = _CORNER_TOP.shape[3]
assert _CORNER_N % 2 == 1, "_corner_medians takes each corner's middle value: an odd count"
# a sort key of each value: its group (cell, corner, channel) above its value, so that one sort of all
# of them puts each group's values in order, group after group
_CORNER_KEY = (np.arange(36 * 4 * 3, dtype=np.int32) * 256).reshape(36, 4, 3, 1)


def _corner_medians(top: np.ndarray) -> np.ndarray:
    """median(cells[:, _MASKS["corners"]], axis=2) of the cells as float32: each corner's median value
    per channel, (36, 4, 3). A corner holds an odd number of pixels, so its median is its middle value,
    a whole grey level: all groups are ordered in one sort of their keys instead of a partition each."""
    keys = (_CORNER_KEY + top.reshape(-1).take(_CORNER_TOP)).ravel()
    keys.sort()
    return (keys[_CORNER_N // 2::_CORNER_N] & 255).astype(np.float32).reshape(36, 4, 3)


def _cell_features(top: np.ndarray) -> dict[str, np.ndarray]:
    """Per-cell measurements on the straightened, white-balanced board (6*CELL square), all 36 at once:
    arrays with one row per cell (row-major)."""
    m = _MASKS
    # cell after cell, converted while the cells are gathered (one pass, not a copy and a conversion)
    cells = top.reshape(6, CELL, 6, CELL, 3).transpose(0, 2, 1, 3, 4).astype(np.float32, order="C")
    cells = cells.reshape(36, CELL * CELL, 3)
    # (b + g + r) / 3: the sum of whole grey levels is exact however it is added (divided in place)
    lum = cv2.transform(cells, _ONES3).reshape(36, CELL * CELL)
    np.true_divide(lum, 3, out=lum)
    # the four corners (a piece in the middle never covers them), each on its own
    corner = _corner_medians(top)  # (36, 4, 3)
    ring = board_grid.small_median(corner, axis=1)  # (36, 3)
    # glare adds white light, which washes a colour out: the most saturated corner is the one glare
    # touched least, so the printed colour is read there
    c0, c1, c2 = corner[..., 0], corner[..., 1], corner[..., 2]  # channel by channel: an axis of three
    brightest = np.maximum(np.maximum(c0, c1), c2)
    sat = (brightest - np.minimum(np.minimum(c0, c1), c2)) / (brightest + EPS)
    colour = corner[np.arange(36), sat.argmax(axis=1)]
    mid = _middle_mean(cells)
    ring_l = ring.mean(axis=1) + EPS
    ring_ch = _chroma(ring)  # (36, 2)
    circ = cells[:, m["circle"]] + EPS
    dist = _norm2(np.log(circ[..., 2] / circ[..., 1]) - ring_ch[:, None, 0],
                  np.log(circ[..., 0] / circ[..., 1]) - ring_ch[:, None, 1])
    sig = dist + np.abs(np.log((lum[:, m["circle"]] + EPS) / ring_l[:, None]))
    per_sector = sig @ m["onehot"]  # (36, 20)
    five = np.abs(per_sector @ _FIVE) / 20 * 2
    srt = np.sort(per_sector, axis=1)
    dark = (lum[:, m["middle"]].mean(axis=1) + EPS) / ring_l
    rim_px = lum[:, m["rim"]]
    k90 = int(rim_px.shape[1] * 0.9)
    rim_l = (np.partition(rim_px, k90, axis=1)[:, k90] + EPS) / ring_l
    # the ring is looked for in each cell's darkest printed channel: a pale ring cannot clip there
    darkest = np.argmin(ring, axis=1)
    # that channel's values at the binned pixels, taken from the cells at once (by indexing: for 4-byte
    # values it costs less than ``take``)
    plane_px = cells.reshape(-1)[_PLANE_AT + darkest[:, None]]
    # each plane on its own: one pass over both costs about as much and holds twice the memory
    prof, prof_lum = _bin_means(plane_px), _bin_means(lum[:, _PIX])
    ridge = _ring_ridge(prof) - NOISE_RIDGE * max(_noise_top(top, darkest) - NOISE_FREE, 0.0)
    valley = _edge_valley(prof_lum)
    sharp, sharp_h = _sharpness_both(top)
    # a shaken camera blurs one way: the ring is spread as much as the lines across and along it
    # together (their geometric mean), not as much as either alone
    ridge = ridge * _blur_gain(float(np.sqrt(sharp * sharp_h)))
    # the same ridge over this board's typical cell lightness: a glare spot that lifts one cell's
    # corners does not shrink it (the reference is learned from the whole board, not the one cell)
    board_l = float(board_grid.small_median(ring_l))
    return {"ring": ring, "colour": colour, "mid": mid, "dark": dark, "rim": rim_l,
            "spread": srt[:, 16] - srt[:, 4],  # 80th minus 20th percentile of 20 sectors
            "five": five, "mid_shift": _norm2(*(_chroma(mid) - ring_ch).T),
            "ridge": ridge / ring_l, "valley": valley / ring_l, "ridge_board": ridge / board_l,
            "sharp": np.full(36, sharp, np.float32),
            # how periodic (five points) the change around the circle is, against how much it changes
            "five_share": five / (per_sector.mean(axis=1) + 0.05),
            # white light added in the middle (glare) lifts the darkest channel there above the corner's
            "whiten": np.log((mid.min(axis=1) + EPS) / (colour.min(axis=1) + EPS))}


def _masked_medians_u8(pixels: np.ndarray, mask: np.ndarray) -> np.ndarray:
    """median(pixels[mask].T, axis=1) of (n, 3) uint8 pixels and a boolean mask that holds at least one:
    each channel's median (the mean of the two middle values of an even count, float64) counted in a
    masked 256-bin histogram instead of copying, transposing and partitioning the chosen pixels."""
    img = np.ascontiguousarray(pixels).reshape(-1, 1, 3)
    keep = np.ascontiguousarray(mask).view(np.uint8).reshape(-1, 1)
    below = np.cumsum(np.stack([cv2.calcHist([img], [c], keep, [256], [0, 256]).ravel() for c in range(3)]), axis=1)
    n = int(below[0, -1])
    # the value at sorted position k is the first level with more than k values at or below it
    hi = (below > n // 2).argmax(axis=1)
    if n % 2:
        return hi.astype(np.float64)
    return ((below > n // 2 - 1).argmax(axis=1) + hi) / 2


_LINE_PX = np.ravel([(k * CELL - 1, k * CELL) for k in range(1, 6)])  # rows / columns of the inner lines


def _straighten(frame: np.ndarray, hom: np.ndarray) -> np.ndarray:
    """The grid as a 6*CELL square, white-balanced on its pale grid lines."""
    scale = np.float32([[1 / CELL, 0, 0], [0, 1 / CELL, 0], [0, 0, 1]])
    top = cv2.warpPerspective(frame, hom @ scale, (6 * CELL, 6 * CELL),
                              flags=cv2.INTER_LINEAR | cv2.WARP_INVERSE_MAP)
    # the pixels of the inner lines (two wide), vertical then horizontal: their order does not matter
    lines = np.concatenate([top[:, _LINE_PX].reshape(-1, 3), top[_LINE_PX].reshape(-1, 3)])
    # each pixel's b + g + r (a sum over an axis of three costs several times three additions)
    lum = lines[:, 0].astype(np.int32) + lines[:, 1] + lines[:, 2]
    k = int(0.6 * len(lum))
    white = _masked_medians_u8(lines, lum >= np.partition(lum, k)[k]).astype(np.float32)
    gains = np.clip(235.0 / np.maximum(white, 1.0), 0.3, 5.0).astype(np.float32)
    return cv2.transform(top, np.diag(gains))  # per-channel gains, saturating at 255


def _score(rule: tuple[dict[str, float], float], x: dict[str, np.ndarray]) -> np.ndarray:
    weights, offset = rule
    return sum(w * x[k] for k, w in weights.items()) + offset


# A lamp's colour that the grid lines' white balance could not take off (a candle-warm lamp leaves
# the lines with too little blue to balance on) moves every printed colour's log-chroma by the same
# step. The step is fitted on the board's own 36 cells: the shift that brings them nearest the taught
# colours, each cell counting at most CAST_CAP. CAST_MIN of it is left on (soft threshold): the
# renderer's boards under 2700-6500 K light need at most 0.21 after the lines' balance and are not
# moved at all.
CAST_GRID = np.stack(np.meshgrid(np.arange(-1.5, 1.51, 0.25), np.arange(-1.5, 1.51, 0.25)), -1
                     ).reshape(-1, 1, 1, 2).astype(np.float32)  # shifts tried when many cells are far
CAST_CAP = 0.25  # squared log-chroma distance at which a cell stops pulling on the shift
CAST_PRIOR = 2.0  # cost of a shift per squared log-chroma unit (a shift must pay for itself)
_CAST_GRID_COST = CAST_PRIOR * (CAST_GRID ** 2).sum(axis=(1, 2, 3))  # each grid shift's own cost
CAST_MIN = 0.25  # shift (log-chroma) that is left on the cells
CAST_NEAR = 0.9  # share of cells near a taught colour unshifted that needs no wide search


def _sq2(d: np.ndarray) -> np.ndarray:
    """(d ** 2).sum(-1) of a last axis of two: the same two squares added in the same order."""
    return d[..., 0] * d[..., 0] + d[..., 1] * d[..., 1]


def _same(a: np.ndarray, b: np.ndarray) -> bool:
    """np.array_equal of two arrays, without its conversions."""
    return a.shape == b.shape and bool((a == b).all())


def _mean0(a: np.ndarray) -> np.ndarray:
    """a.mean(axis=0) of a float array as numpy's mean takes it (its own sum, then divided in place by
    the count as an integer), without the wrapper's steps."""
    total = np.add.reduce(a, axis=0)
    return np.true_divide(total, np.intp(len(a)), out=total, casting="unsafe")


def _cast_shift(chroma: np.ndarray, means: np.ndarray) -> np.ndarray:
    """The log-chroma step that the frame's light adds to every cell's printed colour (see CAST_GRID)."""
    shift = np.zeros(2, np.float32)
    d2 = _sq2(chroma[:, None, :] - means[None])
    near = d2.min(axis=1) < CAST_CAP
    wide = np.count_nonzero(near) / near.size < CAST_NEAR  # the share of near cells, as its mean
    if wide:
        grid = ((chroma[None, :, None, :] - CAST_GRID - means[None, None]) ** 2).sum(-1)
        cost = np.minimum(grid.min(axis=2), CAST_CAP).sum(axis=1) + _CAST_GRID_COST
        shift = CAST_GRID[int(cost.argmin()), 0, 0]
    last = None
    for k in range(3):  # refine: the mean step of the cells near a taught colour
        if k or wide:  # (with no shift yet, the distances are those above: chroma - 0 is chroma)
            d2 = _sq2(chroma[:, None, :] - shift - means[None])
            near = d2.min(axis=1) < CAST_CAP
        if not near.any():
            break
        # the same cells at their same nearest colours give the same step again: nothing changes
        nearest = d2[near].argmin(axis=1)
        if last is not None and _same(near, last[0]) and _same(nearest, last[1]):
            break
        last = (near, nearest)
        shift = _mean0(chroma[near] - means[nearest])
    flat = shift.ravel()
    size = float(np.sqrt(flat.dot(flat)))  # np.linalg.norm of a vector: the root of its dot with itself
    return (shift * max(0.0, 1.0 - CAST_MIN / max(size, 1e-6))).astype(np.float32)


_SPLIT_INPUTS = [(k, on_yellow) for k in ("to_star", "mid_shift", "spread", "five", "dark", "valley")
                 for on_yellow in (True, False)
                 if k + ("_y" if on_yellow else "_n") in STAR_RULE[0] or k + ("_y" if on_yellow else "_n") in BUTTON_RULE[0]]


def _rule_inputs(feats: dict[str, np.ndarray], profile: dict[str, Any]
                 ) -> tuple[list[str], np.ndarray, np.ndarray, dict[str, np.ndarray]]:
    """Each cell's printed colour (index into the taught names, nearest log-chroma) with its
    confidence, and the measurements the two content rules weigh."""
    names = [k for k in COLOURS if k in profile["colours"]]
    means = np.float32([profile["colours"][k] for k in names])
    chroma = _chroma(feats["colour"])
    cast = _cast_shift(chroma, means)
    diff = (chroma - cast)[:, None, :] - means[None]
    d = _norm2(diff[..., 0], diff[..., 1])  # (36, K)
    best = d.argmin(axis=1)
    srt = np.sort(d, axis=1)
    colour_conf = np.clip((srt[:, 1] - srt[:, 0]) / (srt[:, 1] + 1e-6) * 1.5, 0, 1)
    yellow = (best == names.index("Y")).astype(np.float32) if "Y" in names else np.zeros(len(best), np.float32)
    x = dict(feats)
    x["to_star"] = _norm2(*(_chroma(feats["mid"]) - cast - np.float32(profile["star"])[None]).T)
    x["yel"] = yellow
    # the measurements that count on yellow (or on other) cells only: those the two rules weigh
    other = 1 - yellow
    for k, on_yellow in _SPLIT_INPUTS:
        x[k + ("_y" if on_yellow else "_n")] = x[k] * (yellow if on_yellow else other)
    return names, best, colour_conf, x


def _classify(feats: dict[str, np.ndarray], profile: dict[str, Any]) -> list[tuple[str, str, float]]:
    """Printed colour (nearest taught log-chroma) and content (star / button / empty) of each cell."""
    # a star: the middle takes the star's own colour; on a yellow cell, its points and dark edge make
    # the colour change five times around a circle. A button: a thin bright ring all the way round
    # (a ridge along the radius, against this cell's and this board's own lightness), a darker disc.
    # A glare spot adds white light: it lifts the darkest channel in the middle and changes the colour
    # around a circle without five-fold order, and makes no ridge.
    names, best, colour_conf, x = _rule_inputs(feats, profile)
    star_score = _score(STAR_RULE, x)
    button_score = _score(BUTTON_RULE, x)
    contents, sures = [], []
    # the scores as Python floats (exact), the colour confidence times the content's in its own type
    for star, button in zip(star_score.tolist(), button_score.tolist(), strict=True):
        if star > 0:
            content, margin = "star", star
        elif button > 0:
            content, margin = "button", button
        else:
            content, margin = "empty", min(-star, -button)
        contents.append(content)
        sures.append(min(1.0, max(0.3, 0.5 + margin / SCORE_SCALE / 2)))
    confs = (colour_conf * np.asarray(sures, colour_conf.dtype)).tolist()
    return [(names[k], content, conf) for k, content, conf in zip(best.tolist(), contents, confs, strict=True)]


_DEFAULT_PROFILE = default_profile()
_NODES = np.stack(np.meshgrid(np.arange(7, dtype=np.float32), np.arange(7, dtype=np.float32)), 2).reshape(-1, 1, 2)  # read() only reads it; default_profile() hands out fresh copies


def read(frame: np.ndarray, profile: dict | None = None) -> Observation:
    """The 36 cells of a board in the frame (row, col, colour, content); empty when no board is seen."""
    try:
        frame = check_frame(frame)
    except ImageError:
        return Observation("board", [], 0, 0)
    h, w = frame.shape[:2]
    if min(h, w) < 48:
        return Observation("board", [], w, h)
    prof = profile if profile and "colours" in profile else _DEFAULT_PROFILE
    found = find_board(frame)
    if found is None:
        return Observation("board", [], w, h)
    hom, score = found
    top = _straighten(frame, hom)
    labels = _classify(_cell_features(top), prof)
    board_conf = float(np.clip((score - MIN_GRID) / (GOOD_GRID - MIN_GRID), 0.2, 1.0))
    nodes = cv2.perspectiveTransform(_NODES, hom).reshape(7, 7, 2)
    # each cell's box from its four corners, all cells at once (float32 as the nodes, then to Python)
    corners = np.stack([nodes[:-1, :-1], nodes[:-1, 1:], nodes[1:, :-1], nodes[1:, 1:]])
    lo, hi = corners.min(axis=0), corners.max(axis=0)
    return Observation("board", [{"row": r, "col": c, "colour": colour, "content": content, "box": box,
                                  "confidence": round(conf * board_conf, 3)}
                                 for (r, c), (colour, content, conf), box in zip(_ROW_COL, labels, _boxes(lo, hi), strict=True)],
                       w, h)


_ROW_COL = [(r + 1, c + 1) for r in range(6) for c in range(6)]


def _boxes(lo: np.ndarray, hi: np.ndarray) -> list[list[int]]:
    """[int(x0), int(y0), int(round(w)), int(round(h))] of each cell's least and greatest corner (float32,
    (6, 6, 2)), all at once: the truncation toward zero and the rounding half to even of int() and
    round() on the same values (as Python floats), when all are finite and within int64 (else the
    plain loop, which raises or makes large ints as before)."""
    size = hi - lo
    if not ((np.abs(lo) < 2.0 ** 62).all() and (np.abs(size) < 2.0 ** 62).all()):
        return [[int(x0), int(y0), int(round(bw)), int(round(bh))]
                for (x0, y0), (bw, bh) in zip(lo.reshape(36, 2).tolist(), size.reshape(36, 2).tolist(), strict=True)]
    return np.concatenate([np.trunc(lo), np.rint(size)], axis=2).reshape(36, 4).astype(np.int64).tolist()


def teach(examples: dict[str, list[np.ndarray]]) -> dict:
    """Learn the printed cell colours (and the star colour) from the players' photos: class folders
    R, Y, G, B (photos of a board: its cells read as that colour are used; or close-ups of one
    cell) and star (photos of a board with stars, or a close-up of a star). ``button`` photos are
    checked (a board must be found) but buttons are read by shape, not colour."""
    known = set(COLOURS) | {"button", "star"}
    unknown = sorted(set(examples) - known)
    if unknown:
        raise ValueError(f"unknown class '{unknown[0]}': class folders must be named R, Y, G, B, button, star")
    base = default_profile()
    learned: dict[str, list[np.ndarray]] = {}
    for name, photos in examples.items():
        for n, photo in enumerate(photos, start=1):
            try:
                frame = check_frame(photo)
            except ImageError as exc:
                raise ValueError(f"{name} photo {n}: {exc}") from None
            found = find_board(frame) if min(frame.shape[:2]) >= 48 else None
            if found is not None:
                feats = _cell_features(_straighten(frame, found[0]))
                labels = _classify(feats, base)
                for i, (colour, content, _) in enumerate(labels):
                    if name in COLOURS and colour == name:
                        learned.setdefault(name, []).append(_chroma(feats["colour"][i])[0])
                    elif name == "star" and content == "star":
                        learned.setdefault("star", []).append(_chroma(feats["mid"][i])[0])
                    elif name == "button" and content == "button":
                        learned.setdefault("button", []).append(np.float32([feats["dark"][i], feats["rim"][i]]))
                if name not in learned:
                    raise ValueError(f"{name} photo {n}: the board holds no {name} cell that could be read")
                continue
            if name == "button" or min(frame.shape[:2]) < 8:
                raise ValueError(f"{name} photo {n}: no board found in it")
            h, w = frame.shape[:2]
            mid = frame[h // 4:3 * h // 4, w // 4:3 * w // 4].reshape(-1, 3).astype(np.float32)
            learned.setdefault(name, []).append(_chroma(np.median(mid, axis=0))[0])
    colours = dict(base["colours"])
    for k in COLOURS:
        if k in learned:
            colours[k] = np.mean(learned[k], axis=0).tolist()
    star = np.mean(learned["star"], axis=0).tolist() if "star" in learned else base["star"]
    return {"colours": colours, "star": star, "taught": sorted(learned)}
