"""Straightening a found Buttons board exactly: the pale grid lines between the cells are found in
the frame and the grid's homography is refitted to them, so an outline bent by a glare spot, a
piece touching the edge or a warped board no longer shifts the cells."""

from __future__ import annotations

import cv2
import numpy as np

from vision.common import median

S = 16  # pixels per cell of the small warp the lines are searched in
MARGIN = 0.5  # cells of margin around the grid in that warp
LIGHT_TOP = 40  # the frame's light colour: each channel's 40th brightest of every 8th pixel (of 19 200 at 1280x960)
LIGHT_TOL = 1.15  # channels within this gain of the brightest one are left as they are
LIGHT_MAX = 6.0  # the most a channel is lifted


def small_median(a: np.ndarray, axis: int = 0) -> np.ndarray:
    """vision.common.median(a, axis) of a short axis from one sort: the middle value, or the mean of the
    two middle values in a's own type (float64 for integers; NaNs sort last, as in the partitions
    median() takes). Sorting a few values costs less than median()'s partition and maximum."""
    if a.dtype.kind in "iu":
        a = a.astype(np.float64)
    srt = np.sort(a, axis=axis)
    n = a.shape[axis]
    k = n // 2
    if n % 2 or n == 0:
        return np.take(srt, k, axis=axis) if n else median(a, axis=axis)
    return (np.take(srt, k - 1, axis=axis) + np.take(srt, k, axis=axis)) / 2


def _band_points(img_width: int, span: int) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """Where _line_positions reads the small warp (flat index into an image ``img_width`` wide): for
    the rows about the horizontal lines and the columns about the vertical ones, the 0.2-0.8 middle of
    each cell, as (2, 5, 2 * span + 1, 6, pixels); and the flat index (into the (2, 5, 2 * span + 1, 6)
    band means) of each line's first offset in each cell, and the lowest and highest inner offset."""
    rows = np.round((np.arange(1, 6)[:, None] + MARGIN) * S).astype(int) + np.arange(-span, span + 1)[None, :]
    m = int(MARGIN * S)
    lo, hi = int(0.2 * S), int(0.8 * S)
    along = m + S * np.arange(6)[:, None] + np.arange(lo, hi)  # (6 cells, pixels)
    horizontal = rows[:, :, None, None] * img_width + along  # img[rows][..., along]
    vertical = along * img_width + rows[:, :, None, None]  # img[:, rows].T[..., along]
    n = rows.shape[1]
    first = (np.arange(10)[:, None] * n * 6 + np.arange(6)).reshape(2, 5, 6)  # band[p, k, 0, c]
    return np.stack((horizontal, vertical)), first, np.arange(n)


_BAND_AT: dict[tuple[int, int], tuple[np.ndarray, np.ndarray, np.ndarray]] = {}  # by (image width, span)


def _line_positions(img: np.ndarray, reach: float) -> tuple[np.ndarray, np.ndarray]:
    """Where the five inner horizontal lines cross each column of cells (axis 0) and the vertical
    lines each row (axis 1): (2, 5, 6) offsets in cells from where the current homography puts them,
    and how much each line stands out above its surroundings. Both directions are measured at once:
    the pixels about both are read in one gather (the same values, in the same layout, as the rows of
    the image and of its transpose stacked)."""
    span = int(round(reach * S))
    key = (img.shape[1], span)
    if key not in _BAND_AT:
        _BAND_AT[key] = _band_points(*key)
    at, first, offsets = _BAND_AT[key]
    # (2, 5, 2 * span + 1, 6); indexing 4-byte values costs less than ``take``
    band = np.ascontiguousarray(img).reshape(-1)[at].mean(axis=4)
    n = 2 * span + 1
    i = band.argmax(axis=2)  # (2, 5, 6)
    inner = offsets.clip(1, n - 2).take(i)  # np.clip(i, 1, n - 2)
    # the band means at the inner offset and either side of it
    p0, p1, p2 = band.reshape(-1).take(first + inner * 6 + _SIDES)
    den = p0 - 2 * p1 + p2
    sub = np.where((den < 0) & (i == inner), np.clip(0.5 * (p0 - p2) / np.where(den < 0, den, -1), -0.5, 0.5), 0)
    off = (i - span + sub) / S
    strength = band.max(axis=2) - median(band, axis=2)
    return np.float32(off), np.float32(strength)


_SIDES = np.array([-6, 0, 6]).reshape(3, 1, 1, 1)  # one offset before, at and after (flat, in the band means)


def _fit(x: np.ndarray, y: np.ndarray, w: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """Weighted straight-line fits y = a x + b, one per row of (n, 6) arrays. x and y are handled
    together: each sum is its row's own (the same sums as one array each), and the weights are 0 or 1
    here, so w * (dx * dy) is (w * dx) * dy, zeros' signs included."""
    sw = w.sum(axis=1)
    if not x.dtype == y.dtype == w.dtype:  # each coordinate in its own type, as the plain fit
        mx, my = (w * x).sum(axis=1) / sw, (w * y).sum(axis=1) / sw
        a = (w * (x - mx[:, None]) * (y - my[:, None])).sum(axis=1) / np.maximum(
            (w * (x - mx[:, None]) ** 2).sum(axis=1), 1e-6)
        return a, my - a * mx
    xy = np.empty((2, *y.shape), y.dtype)
    xy[0], xy[1] = x, y
    mean = (w * xy).sum(axis=2) / sw  # (2, n): mx, my
    d = xy - mean[:, :, None]
    sums = (w * (d[0] * d)).sum(axis=2)  # w dx dx, w dx dy
    a = sums[1] / np.maximum(sums[0], 1e-6)
    return a, mean[1] - a * mean[0]


_ALONG = np.broadcast_to(np.arange(6, dtype=np.float32) + 0.5, (10, 6))  # the cells' middles along each line
_LINE_AT = np.arange(1, 6, dtype=np.float32)[None, :, None]  # the inner lines' places, in cells


def _fit_lines(off: np.ndarray, strength: np.ndarray) -> np.ndarray | None:
    """Each inner line as (slope, intercept) in current grid units, fitted to its six crossings with
    outliers dropped; None when too few crossings stand out."""
    along = _ALONG
    pos = (off + _LINE_AT).reshape(10, 6)
    keep = (strength > 0.25 * max(float(small_median(strength.ravel())), 1e-3)).reshape(10, 6).astype(np.float32)
    count = keep.sum(axis=1)
    if count.min() < 3:
        return None
    a, b = _fit(along, pos, keep)
    res = np.abs(pos - (a[:, None] * along + b[:, None]))
    # median residual of the kept crossings of each line
    srt = np.sort(np.where(keep > 0, res, np.inf), axis=1)
    med = srt.reshape(-1).take(_ROW_STARTS + (count.astype(int) - 1) // 2)
    tol = np.maximum(0.06, 2.5 * med)
    keep2 = keep * (res < tol[:, None])
    keep = np.where(keep2.sum(axis=1, keepdims=True) >= 3, keep2, keep)
    a, b = _fit(along, pos, keep)
    return np.stack([a, b], axis=1).reshape(2, 5, 2)


_ROW_STARTS = np.arange(10) * 6  # where each line's crossings start (flat)


def _trimmed_homography(src: np.ndarray, dst: np.ndarray) -> np.ndarray | None:
    """Homography src -> dst by least squares, refitted twice without the worst-fitting quarter."""
    fix, _ = cv2.findHomography(src, dst, 0)
    k = (3 * len(src)) // 4
    for _ in range(2):
        if fix is None:
            return None
        p = src @ fix[:, :2].T + fix[:, 2]
        res = np.hypot(p[:, 0] / p[:, 2] - dst[:, 0], p[:, 1] / p[:, 2] - dst[:, 1])
        if res.max() <= 0.02:  # every crossing fits: nothing to trim
            break
        keep = res <= max(0.02, float(np.partition(res, k)[k]))
        fix, _ = cv2.findHomography(src[keep], dst[keep], 0)
    return fix


_CROSSINGS = np.float32([(j, k) for j in range(1, 6) for k in range(1, 6)])  # inner crossings, grid units


def _top_values(pixels: np.ndarray, k: int) -> np.ndarray:
    """Each of the first three channels' k-th brightest value of an (h, w, c >= 3) uint8 image:
    np.partition(pixels[..., :3].reshape(-1, 3), -k, axis=0)[-k], counted in histograms (a partition down
    the columns of a tall array costs several times more). The image may stride over its rows (not
    over its pixels: OpenCV takes each row's values as they lie, else they are copied first)."""
    if pixels.dtype != np.uint8 or not 0 < k <= pixels.shape[0] * pixels.shape[1]:
        return np.partition(pixels[..., :3].reshape(-1, 3), -k, axis=0)[-k]
    if pixels.strides[2] != 1 or pixels.strides[1] != pixels.shape[2]:
        pixels = np.ascontiguousarray(pixels)
    hist = np.stack([cv2.calcHist([pixels], [c], None, [256], [0, 256]).ravel() for c in range(3)])
    # from the top down: the first level at which k values are that bright or brighter
    reach = np.cumsum(hist[:, ::-1], axis=1) >= k
    return (255 - reach.argmax(axis=1)).astype(np.uint8)


def light_gains(frame: np.ndarray) -> np.ndarray:
    """Per-channel (BGR) gains that make the frame's brightest things neutral: its pale lines (and any
    glare, which has the lamp's own colour) are white, so under a warm lamp the blue channel is lifted
    until they are bright in every channel again. 1 for a channel already within LIGHT_TOL."""
    h, w = frame.shape[:2]
    if frame.flags.c_contiguous and w % 8 == 0:
        # every 8th pixel of every 8th row without a copy: each row as w / 8 pixels of 24 channels, of
        # which the first three are the pixel's own
        every8 = frame.reshape(h, w // 8, 24)[::8]
    else:
        every8 = frame[::8, ::8]
    top = _top_values(every8, LIGHT_TOP).astype(np.float32)
    gains = np.clip(top.max() / np.maximum(top, 1.0), 1.0, LIGHT_MAX)
    return np.where(gains > LIGHT_TOL, gains, 1.0).astype(np.float32)


def refine(frame: np.ndarray, hom: np.ndarray, passes: tuple[float, ...] = (0.3, 0.15),
           gains: np.ndarray | None = None) -> np.ndarray:
    """The grid's homography (grid units -> frame) refitted to the pale lines between the cells."""
    return refine_moved(frame, hom, passes, gains)[0]


_GRID_CORNERS = np.float32([[0, 0], [6, 0], [6, 6], [0, 6]]).reshape(-1, 1, 2)
_TO_SMALL = np.float32([[1 / S, 0, -MARGIN], [0, 1 / S, -MARGIN], [0, 0, 1]])  # the small warp's pixels -> grid


def refine_moved(frame: np.ndarray, hom: np.ndarray, passes: tuple[float, ...] = (0.3, 0.15),
                 gains: np.ndarray | None = None) -> tuple[np.ndarray, float]:
    """refine(), and how far (cells) its last pass moved a corner of the grid: a pass that still moves
    it far has not settled (an outline a glare spot bent far is pulled back only partway). ``gains``
    (light_gains) balance the frame's channels first."""
    n = int(round((6 + 2 * MARGIN) * S))
    corners = _GRID_CORNERS
    to_grid = _TO_SMALL
    balance = None if gains is None or _all_one(gains) else np.diag(gains)  # gains of 1 change nothing
    moved = 0.0
    for reach in passes:
        small = cv2.warpPerspective(frame, hom @ to_grid, (n, n), flags=cv2.INTER_LINEAR | cv2.WARP_INVERSE_MAP)
        # the lines are pale: bright in every channel, where the printed colours are dark in at least one
        if balance is not None:
            small = cv2.transform(small, balance)
        b, g, r = cv2.split(small)
        img = cv2.blur(cv2.min(cv2.min(b, g), r), (3, 3)).astype(np.float32)
        fits = _fit_lines(*_line_positions(img, reach))
        if fits is None:
            return hom, 0.0
        # crossing of vertical line j (x = a_v * y + b_v) and horizontal line k (y = a_h * x + b_h)
        av, bv = fits[1, :, 0, None], fits[1, :, 1, None]
        ah, bh = fits[0, None, :, 0], fits[0, None, :, 1]
        x = (av * bh + bv) / (1 - av * ah)
        seen = np.stack([x, ah * x + bh], axis=2).reshape(25, 2)
        # crossings a glare spot hid are outliers: fit, refit twice to the three quarters
        # that fit best (a trimmed least-squares fit: as robust here as LMedS, several times faster)
        fix = _trimmed_homography(_CROSSINGS, np.float32(seen))
        if fix is None or not np.all(np.isfinite(fix)):
            return hom, 0.0
        # a refit that moves the grid's corners by more than a cell found the wrong lines
        moved = float(np.abs(cv2.perspectiveTransform(corners, fix) - corners).max())
        if moved > 1.0:
            return hom, 0.0
        hom = hom @ fix
        hom /= hom[2, 2]
    return hom, moved


def _sample_points() -> tuple[np.ndarray, int, int]:
    """Grid points (cells) on the inner grid lines, near the cells' corners (never under a piece), and
    on the dark border just outside the grid; with the counts of the first two groups."""
    t = np.arange(0.15, 5.9, 0.3, dtype=np.float32)
    k = np.arange(1, 6, dtype=np.float32)
    tt, kk = np.meshgrid(t, k)
    line = np.concatenate([np.stack([tt.ravel(), kk.ravel()], 1), np.stack([kk.ravel(), tt.ravel()], 1)])
    c = np.arange(6, dtype=np.float32)
    cx, cy = np.meshgrid(c, c)
    corner = np.concatenate([np.stack([cx.ravel() + dx, cy.ravel() + dy], 1)
                             for dx in (0.18, 0.82) for dy in (0.18, 0.82)])
    e = np.arange(0.25, 6.0, 0.5, dtype=np.float32)
    out = 0.27
    border = np.concatenate([np.stack([e, np.full_like(e, -out)], 1), np.stack([e, np.full_like(e, 6 + out)], 1),
                             np.stack([np.full_like(e, -out), e], 1), np.stack([np.full_like(e, 6 + out), e], 1)])
    return np.concatenate([line, corner, border]).astype(np.float32), len(line), len(corner)


_POINTS, _N_LINE, _N_CORNER = _sample_points()
_POINTS_XY = _POINTS.T.astype(np.float64)  # x and y of the sample points, as grid_scores projects them
_EPS32 = np.finfo(np.float32).eps


def _all_one(gains: np.ndarray) -> bool:
    """Whether every channel's gain is exactly 1 (light_gains leaves a channel within LIGHT_TOL at 1)."""
    return bool((gains == 1).all())


def grid_score(frame: np.ndarray, hom: np.ndarray, gains: np.ndarray | None = None) -> float:
    """How well a homography lays the grid on the board: pale lines where the lines should be (their
    darkest channel), darker printed colour beside them and the dark border outside on all four sides
    (its brightest channel), as a share of the lines' lightness."""
    return float(grid_scores(frame, [hom], gains)[0])


def grid_scores(frame: np.ndarray, homs: list[np.ndarray], gains: np.ndarray | None = None) -> np.ndarray:
    """grid_score of several homographies at once: one gather from the frame for all of them (the
    candidates of a frame are scored together; one call each cost more than the sampling itself).
    ``gains`` (light_gains) balance the sampled pixels' channels first."""
    h, w = frame.shape[:2]
    m = np.stack(homs).astype(np.float64)  # (k, 3, 3)
    x, y = _POINTS_XY
    # as cv2.perspectiveTransform: in double, times the reciprocal of w, rounded to float (x and y of
    # every point at once: (k, 2, points))
    den = x * m[:, 2, 0, None] + y * m[:, 2, 1, None] + m[:, 2, 2, None]
    with np.errstate(divide="ignore", invalid="ignore", over="ignore"):
        inv = np.where(np.abs(den) > _EPS32, 1.0 / den, 0.0)
        pxy = ((x * m[:, :2, 0, None] + y * m[:, :2, 1, None] + m[:, :2, 2, None]) * inv[:, None]).astype(np.float32)
    finite = np.isfinite(pxy).all(axis=(1, 2))
    pxy = np.where(finite[:, None, None], pxy, 0)
    xs = np.clip(pxy[:, 0].astype(np.int32), 0, w - 1)
    ys = np.clip(pxy[:, 1].astype(np.int32), 0, h - 1)
    if frame.flags.c_contiguous:  # one flat index is a faster gather than two; ``take`` of whole
        # pixels costs a third of indexing them
        pix = frame.reshape(-1, frame.shape[2]).take(ys * w + xs, axis=0)  # (k, points, 3)
    else:
        pix = frame[ys, xs]
    if gains is not None and not _all_one(gains):  # gains of 1 change no value: the channels' least and
        # greatest below are the same whole grey levels either way
        pix = np.minimum(pix * gains, 255.0)
    n_in = _N_LINE + _N_CORNER
    # the darkest and the brightest channel (three channels compared in turn: a reduction over an axis
    # of three costs more)
    b, g, r = pix[..., 0], pix[..., 1], pix[..., 2]
    m_in = np.minimum(np.minimum(b[:, :n_in], g[:, :n_in]), r[:, :n_in])
    # medians as the upper middle element (np.median's overhead is more than the work here)
    line = np.partition(m_in[:, :_N_LINE], _N_LINE // 2, axis=1)[:, _N_LINE // 2].astype(np.float64)
    cells = np.partition(m_in[:, _N_LINE:], _N_CORNER // 2, axis=1)[:, _N_CORNER // 2].astype(np.float64)
    # the border is dark in every channel, where a printed colour is bright in one: each side on its
    # own, so a grid laid one cell off (its inner lines still on lines) puts a row of cells where one
    # side's border should be and loses
    sides = np.maximum(np.maximum(b[:, n_in:], g[:, n_in:]), r[:, n_in:]).reshape(len(homs), 4, -1)
    k = sides.shape[2] // 2
    border = np.partition(sides, k, axis=2)[:, :, k].max(axis=1).astype(np.float64)
    score = (line - np.maximum(cells, border)) / (line + 10.0)
    return np.where(finite, score, -1.0)


DOT_AT = 0.08 / (0.84 / 6) / 2  # the white dot's centre sits half a border width outside the grid's corner
_DOT_S = 40  # pixels per cell of the patch the dot is looked for in
_DOT_N = 40  # patch side in pixels (1 cell), centred on where the dot should be
_DOT_REACH = 6  # the dot may sit this many pixels (0.15 cell) off where the grid's fit puts it


def dot_corner(frame: np.ndarray, hom: np.ndarray) -> int:
    """Which grid corner (0-3, clockwise from grid (0, 0)) has the white dot beside it: the one with
    the brightest dot-sized spot above its own surroundings (a centre-surround difference: a glare
    spot is wide and smooth, so it lifts both alike)."""
    d = DOT_AT
    centres = ((-d, -d), (6 + d, -d), (6 + d, 6 + d), (-d, 6 + d))
    h = (_DOT_N - 1) / 2 / _DOT_S
    lo, hi = _DOT_N // 2 - _DOT_REACH, _DOT_N // 2 + _DOT_REACH + 1
    patches = []
    for cx, cy in centres:
        to_grid = np.float32([[1 / _DOT_S, 0, cx - h], [0, 1 / _DOT_S, cy - h], [0, 0, 1]])
        patches.append(cv2.warpPerspective(frame, hom @ to_grid, (_DOT_N, _DOT_N),
                                           flags=cv2.INTER_LINEAR | cv2.WARP_INVERSE_MAP,
                                           borderMode=cv2.BORDER_REPLICATE))
    # the four patches side by side, converted and blurred at once: the windows looked at lie more
    # than the wide blur's reach inside their own patch, and a box sum of whole grey levels is exact,
    # so each window reads as in its patch alone
    lum = cv2.cvtColor(np.hstack(patches), cv2.COLOR_BGR2GRAY).astype(np.float32)
    spot = cv2.blur(lum, (7, 7)) - cv2.blur(lum, (21, 21))
    wins = spot[lo:hi].reshape(hi - lo, 4, _DOT_N)[:, :, lo:hi]
    return int(np.argmax(wins.max(axis=(0, 2))))
