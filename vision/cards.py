"""Read Nicht die Bohne! and Blasting Billy cards: colour, value, row and position of each card.

How: after a white balance on the brightest pixels, card faces are the strongly coloured regions
that the white card borders cut apart, even in a fanned row where only the left strip of a card
shows. Each face is fitted with a quadrilateral; its top-left corner (the index) is warped flat
from the full-resolution frame and its dark glyph compared by normalised correlation with glyph
templates (several fonts, or the players' own cards after ``teach``), at the best of a few one- or
two-pixel shifts; a narrow strip of a tight fan is read up to the next card's white border, even
where its colour mask stops short of it; when the whole face shows,
the turned index in the bottom-right corner is read as well and the better match counts. The colour is the face's
hue in Lab after using the card's own white border as the white reference.

Under a warm lamp that clips the red channel of every bright thing, the white reference is the
borders as the camera recorded them (clipped like the faces), found among the clipped pixels by
their middle channel. In a dim, noisy frame the hue edges rise with the measured sensor noise and
the darkest readable index is set relative to the frame's white, not in fixed grey levels. On a
coloured table a face of another hue counts even when it is no more saturated than the table (a flat
tone curve fades a purple face to the chroma of orange wood), and where a flat picture lifts black
ink to half the face level, the ink threshold reaches up from the corner's darkest ink.
"""

from __future__ import annotations

import math
import threading
from typing import Any

import cv2
import numpy as np

from vision.cards_glyphs import (
    DECKS,
    FEATURE_SHAPE,
    VALUES,
    default_templates,
    fitted,
    parse_value,
    value_name,
    vector_norm,
)
from vision.common import CLIPPED, ImageError, Observation, check_frame

COLOURS = ("red", "green", "yellow", "blue", "purple")
# Typical printed card inks (sRGB) that name the colours; only their hue angle in Lab is used.
CANONICAL_RGB = {
    "red": (205, 40, 45),
    "green": (40, 150, 70),
    "yellow": (235, 200, 40),
    "blue": (25, 100, 185),
    "purple": (125, 45, 140),
}
WORK_WIDTH = 640  # faces are found on a frame scaled to this width
FACE_H = 160  # rectified face height (pixels) in which the index is read
INDEX_W, INDEX_H = 0.28, 0.34  # index region, as a fraction of the face height
GLARE_LOW, GLARE_SHARE = 0.2, 0.3  # lowest chroma of a sheen-faded face, share of it above threshold
NARROW = 0.35  # a face narrower than this (width / height) is a strip of a fan
STRIP_REACH = 16  # how far (rectified pixels) past a narrow strip's right edge its index may reach
MIN_CONFIDENCE = 0.15
WHOLE_FACE = 0.5  # face width / height above which the whole face (and its second index) shows
# pieces of the face mask joined by a neck thinner than this (work scale) are tried one by one
NECK_K = cv2.getStructuringElement(cv2.MORPH_ELLIPSE, (5, 5))
NEUTRAL_TOP = 0.99  # the most neutral bright pixels: top 1 % of the weakest channel
TABLE_TINT = 0.3  # brightest pixels this much more coloured than those are a coloured table
TABLE_SAME = 0.99  # a cut-off piece this close in colour (cosine) to the table is table, not face
CUT_TOP = (0.6, 0.92)  # a face this much shorter than its neighbour in the row (ratio) lost its top
_NOISE_K = np.float32([[1, -2, 1], [-2, 4, -2], [1, -2, 1]])  # cancels flat areas and straight gradients
HUE_NOISE = 4.0  # hue edges must stand this many noise deviations above the noise
NOISY = (0.01, 0.02)  # noise / white level from which the noise starts to count, and counts fully
DARK_FACE = (
    0.1,
    0.3,
)  # brightest channel of a face, as a share of the frame's white: no card, a doubted card
# how far from the face towards white (weakest channel after the white balance) the surround of a face's
# second-worst side reaches: no card, a trusted card (a card's face is framed by its white border)
FRAMED = (0.3, 0.38)
# the room between a face and white counts as at least this share of the white (a pale face: a lifted
# tone curve, a sheen, leaves little room, and its border is judged on that)
FRAMED_ROOM = 0.7
# how far out a face's white border is looked for: at least this many pixels, or this share of its height
BORDER_BAND = (2.0, 0.06)
PAPER_LEAST = (6.0, 0.1)  # an index's face level is at least this (grey levels, share of the white)
# white-balance gains are kept in this range (a warm lamp that clips red leaves blue 4-5 times weaker)
GAIN_RANGE = (0.2, 5.0)
# the ink threshold reaches at least this far from the corner's darkest ink towards its face level
# (a lifted tone curve leaves black ink at half the face level)
INK_MID = 0.35
# the least chroma of a face; more on a coloured table, unless its hue is more than 45 degrees off the table's
FACE_CHROMA = 0.3

_TEMPLATES: tuple[np.ndarray, list] | None = None


def _templates() -> tuple[np.ndarray, list]:
    global _TEMPLATES
    if _TEMPLATES is None:
        _TEMPLATES = default_templates()
    return _TEMPLATES


def _lab(bgr: np.ndarray) -> np.ndarray:
    px = np.asarray(bgr, np.float32).reshape(1, 1, 3) / 255.0
    px = np.minimum(np.maximum(px, 0, out=px), 1, out=px)  # np.clip without its wrapper (the same values)
    return cv2.cvtColor(px, cv2.COLOR_BGR2Lab).reshape(3)


def _default_hues() -> dict[str, tuple[float, float]]:
    out = {}
    for name, rgb in CANONICAL_RGB.items():
        lab = _lab(np.array(rgb[::-1], np.float32))
        out[name] = (float(np.arctan2(lab[2], lab[1])), float(lab[0]))
    return out


DEFAULT_HUES = _default_hues()


def _clip(x: float, lo: float, hi: float) -> float:
    """A scalar clamped to [lo, hi] (np.clip costs microseconds per call on scalars)."""
    return lo if x < lo else hi if x > hi else float(x)


def _quantile(a: np.ndarray, q: float) -> float:
    """The q-quantile (0-1) of an array's values, by partial sort (faster than np.percentile)."""
    flat = np.ravel(a)
    k = int(q * (flat.size - 1))
    return float(np.partition(flat, k)[k])


def _levels_at(img: np.ndarray, qs: tuple[float, ...], mask: np.ndarray | None = None) -> list[float]:
    """The q-quantiles (as ``_quantile`` picks them: the value at sorted index int(q (n - 1))) of a uint8
    image's values (those under ``mask`` if given), from its histogram: for small images, one histogram
    costs less than a partial sort per quantile."""
    if mask is None and img.size <= 16384:
        # a small image (an index corner): counted by np.bincount, all quantiles by one search (the same
        # integer counts as the histogram's, fewer calls)
        cum = np.cumsum(np.bincount(img.ravel(), minlength=256))
        n = int(cum[-1])
        return np.searchsorted(cum, [int(q * (n - 1)) for q in qs], side="right").astype(float).tolist()
    cum = np.cumsum(cv2.calcHist([img], [0], mask, [256], [0, 256]).ravel().astype(np.int64))
    n = int(cum[-1])
    return [float(np.searchsorted(cum, int(q * (n - 1)), side="right")) for q in qs]


def _vmax(img: np.ndarray) -> np.ndarray:
    b, g, r = cv2.split(img)
    return cv2.max(cv2.max(b, g), r)


def _pixel_items(img: np.ndarray) -> np.ndarray:
    """A 3-channel uint8 image's pixels as one 3-byte item each (a flat array): numpy picks the items of a
    1-D array two to three times faster than the rows of a 2-D one; ``_bgr`` turns picked items back."""
    return np.ascontiguousarray(img).reshape(-1).view(np.dtype((np.void, 3)))


def _bgr(items: np.ndarray) -> np.ndarray:
    """Picked pixel items (any shape) as uint8 B, G, R along a last axis: the same bytes."""
    return items.view(np.uint8).reshape(*items.shape, 3)


def _mean_bgr(items: np.ndarray) -> np.ndarray:
    """``_bgr(items).astype(np.float32).mean(axis=0)`` of picked pixel items (1-D), computed faster: the
    channel sums by one float32 matrix-vector product with ones (numpy's reduction along the first axis of
    an (n, 3) array costs about 15 ns a value). The values are integers, so every partial sum is exact in
    float32 below 2^24 whatever the order of the additions; the float32 division by n then rounds the same
    exact quotient once, as ``mean`` does. Beyond that bound, ``mean`` itself."""
    px = _bgr(items).astype(np.float32)
    n = len(px)
    if 0 < n and n * 255 < 2**24:
        return np.ones(n, np.float32) @ px / np.float32(n)
    return px.mean(axis=0)


def _white_estimate(img: np.ndarray) -> np.ndarray:
    """BGR of the white card borders: the brightest pixels that are not glare, unless those are a coloured table.

    Normally the borders are the whitest thing on a table, so the least coloured of the brightest
    pixels. A bright orange or yellow table can fill all the brightest pixels, though; then the
    pixels whose weakest channel is highest (the most neutral bright ones) are the borders, and
    they are taken when the brightest pixels are clearly coloured next to them.

    A warm lamp clips the red channel of every bright thing, the borders first. Such pixels are
    kept with their clipped channel as the camera recorded it (the faces are clipped the same way,
    so balancing on the recorded border keeps face and border apart); only glare, with two or more
    channels clipped, says nothing about the light's colour and is left out.
    """
    hgt, wid = img.shape[:2]
    # every second pixel of every second row: by nearest-neighbour resizing when the sides are even
    # (the same pixels, picked faster than by a strided copy)
    sub = (
        cv2.resize(img, (wid // 2, hgt // 2), interpolation=cv2.INTER_NEAREST)
        if hgt % 2 == 0 and wid % 2 == 0
        else np.ascontiguousarray(img[::2, ::2])
    )
    b, g, r = cv2.split(sub)
    hi_bg, lo_bg = cv2.max(b, g), cv2.min(b, g)
    v = cv2.max(hi_bg, r)
    vmin = cv2.min(lo_bg, r)
    # the middle channel (the median of the three: sum - max - min) clipped too: a glare spot
    mid = cv2.max(lo_bg, cv2.min(hi_bg, r, dst=hi_bg), dst=lo_bg)
    lit = cv2.compare(mid, CLIPPED, cv2.CMP_LT)
    hist = cv2.calcHist([v], [0], lit, [256], [0, 256]).ravel()
    if hist.sum() < 100:
        return np.array([200.0, 200.0, 200.0], np.float32)
    cum = np.cumsum(hist)
    thr = int(np.searchsorted(cum, 0.94 * cum[-1]))
    if thr < CLIPPED:
        # the brightest 6 % is unclipped: a few clipped pixels are glare or the odd border, left out
        if cum[CLIPPED - 1] < 100:
            return np.array([200.0, 200.0, 200.0], np.float32)
        thr = int(np.searchsorted(cum[:CLIPPED], 0.94 * cum[CLIPPED - 1]))
        top = cv2.inRange(v, thr, CLIPPED - 1)
        lit = cv2.compare(v, CLIPPED, cv2.CMP_LT)
    else:
        # more than the brightest 6 % is clipped in its strongest channel (a warm lamp's red): of
        # those, the brightest in the middle channel, white borders rather than yellow or red faces
        top = cv2.compare(v, thr, cv2.CMP_GE) & lit
        cm = np.cumsum(cv2.calcHist([mid], [0], top, [256], [0, 256]).ravel())
        top &= cv2.compare(mid, int(np.searchsorted(cm, cm[-1] - 0.06 * cum[-1])), cv2.CMP_GE)
    chosen = top > 0
    items = _pixel_items(sub)
    picked = items[chosen.ravel()]
    if len(picked) < 10:
        return np.array([200.0, 200.0, 200.0], np.float32)
    # of the bright pixels, the least coloured: white borders rather than yellow faces ((max - min) /
    # (max + 1) of each pixel, from the max and min channel images)
    top_v = v[chosen].astype(np.float32)
    pc = (top_v - vmin[chosen].astype(np.float32)) / (top_v + 1.0)
    bright = _mean_bgr(picked[pc <= _quantile(pc, 0.3)])
    # glare (or with few clipped pixels, any clipped one) says nothing about the light's colour: 0 there
    # (``lit`` is 0 or 255, so a bitwise and keeps the rest as it is)
    cv2.bitwise_and(vmin, lit, dst=vmin)
    hm = np.cumsum(cv2.calcHist([vmin], [0], None, [256], [0, 256]).ravel()[1:])
    t_min = 1 + int(np.searchsorted(hm, NEUTRAL_TOP * hm[-1]))
    npx = items[(vmin >= t_min).ravel()]
    if len(npx) < 10:
        return bright
    neutral = _mean_bgr(npx)
    rel = bright / np.maximum(neutral, 1.0)
    return neutral if (rel.max() - rel.min()) / rel.max() > TABLE_TINT else bright


def _fit_line(pts: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """Fit a line to points: (point, unit direction)."""
    vx, vy, x0, y0 = cv2.fitLine(pts.astype(np.float32, copy=False), cv2.DIST_HUBER, 0, 0.01, 0.01).ravel()
    return np.float32([x0, y0]), np.float32([vx, vy])


def _meet(p1: np.ndarray, d1: np.ndarray, p2: np.ndarray, d2: np.ndarray) -> np.ndarray:
    """Intersection of the lines p1 + t d1 and p2 + s d2 (p1 when they are parallel)."""
    det = float(d1[0] * -d2[1] + d2[0] * d1[1])
    if abs(det) < 1e-6:
        return p1
    dx, dy = float(p2[0] - p1[0]), float(p2[1] - p1[1])
    t = (dx * -d2[1] + d2[0] * dy) / det
    return p1 + t * d1


def _mean_rows(pts: np.ndarray, exact_sum: bool) -> np.ndarray:
    """``pts.mean(0)`` of float32 points (N, 2). With ``exact_sum`` (integer points whose float32 sums are
    exact in any order) the sums come from ``cv2.sumElems``; either way the float32 division rounds the
    same exact quotient as ``mean``."""
    if exact_sum:
        sx, sy = cv2.sumElems(pts.reshape(-1, 1, 2))[:2]
        return np.float32([sx, sy]) / np.float32(len(pts))
    return np.add.reduce(pts, axis=0) / np.float32(len(pts))


def _fit_quad(contour: np.ndarray, hull: np.ndarray | None = None) -> np.ndarray | None:
    """Quadrilateral of a face from lines fitted to its sides, away from the corners.

    A dark index may bite into the top-left corner of the face mask, so the corners themselves
    are not trusted: the left and bottom sides give the directions, the top side is taken
    from its right part and the right side parallel to the left.

    The points of each side are picked from a view of the (x, y) pairs as single complex64 items (numpy
    picks rows of a 1-D array several times faster than of a 2-D one), the extremes come from
    ``cv2.minMaxLoc`` and the rectangle from the int32 points: the same quad as with plain numpy.
    ``hull``: the integer points' convex hull (``cv2.convexHull``) if the caller has it; the rectangle is
    found from it (``minAreaRect`` takes the hull of its points first: the hull of the hull is that polygon).
    """
    pts = np.ascontiguousarray(contour.reshape(-1, 2), np.float32)
    pair = pts.view(np.complex64).reshape(-1)  # one item per point, the same bytes

    def rows(m: np.ndarray) -> np.ndarray:
        return pair[m].view(np.float32).reshape(-1, 2)

    integer = contour.dtype.kind in "iu"
    if integer:
        # the hull and rectangle of integer points are the same from the integer points (no float copy)
        bx, by, bw, bh = cv2.boundingRect(contour.reshape(-1, 2).astype(np.int32, copy=False))
        # sums of integer coordinates are exact in float32 under 2^24, in any order
        exact_sum = len(pts) * max(abs(bx), abs(by), abs(bx + bw), abs(by + bh)) < 2**24
        (cx, cy), (rw, rh), ang = cv2.minAreaRect(
            hull if hull is not None else contour.reshape(-1, 2).astype(np.int32, copy=False)
        )
    else:
        exact_sum = False
        (cx, cy), (rw, rh), ang = cv2.minAreaRect(pts)
    a = np.deg2rad(ang)
    ax1 = np.float32([np.cos(a), np.sin(a)])
    ax2 = np.float32([-np.sin(a), np.cos(a)])
    down = ax1 if abs(ax1[1]) > abs(ax2[1]) else ax2
    if down[1] < 0:
        down = -down
    right = np.float32([down[1], -down[0]])
    if right[0] < 0:
        right = -right
    rel = pts - np.float32([cx, cy])
    u, v = rel @ down, rel @ right
    u_lo, u_hi = cv2.minMaxLoc(u)[:2]
    v_lo, v_hi = cv2.minMaxLoc(v)[:2]
    u_lo, v_lo = np.float32(u_lo), np.float32(v_lo)
    hu, hv = np.float32(u_hi) - u_lo, np.float32(v_hi) - v_lo
    if hu < 4 or hv < 2:
        return None
    un, vn = (u - u_lo) / hu, (v - v_lo) / hv
    edge_u, edge_v = min(0.15, 4 / hu + 0.02), min(0.3, 3 / hv + 0.05)
    left = rows((vn < edge_v) & (un > 0.3) & (un < 0.95))
    rightp = rows((vn > 1 - edge_v) & (un > 0.2) & (un < 0.8))
    top = rows((un < edge_u) & (vn > 0.45) & (vn < 0.95))
    bottom = rows((un > 1 - edge_u) & (vn > 0.1) & (vn < 0.9))
    if min(len(left), len(rightp), len(top), len(bottom)) < 2:
        return None
    pl, dl = _fit_line(left) if len(left) >= 5 else (_mean_rows(left, exact_sum), down)
    pb, db = _fit_line(bottom) if len(bottom) >= 5 else (_mean_rows(bottom, exact_sum), right)
    if hv < NARROW * hu:
        # a narrow strip of a fan: its bottom is too short (and its corners too rounded by the
        # mask's cleaning) to give a direction; a card's corners are square, so the left side,
        # the longest straight edge, gives it
        db = np.float32([dl[1], -dl[0]])
    pr, pt = _mean_rows(rightp, exact_sum), _mean_rows(top, exact_sum)
    tl, bl = _meet(pt, db, pl, dl), _meet(pb, db, pl, dl)
    tr, br = _meet(pt, db, pr, dl), _meet(pb, db, pr, dl)
    return np.float32([tl, tr, br, bl])


def _part_colour(bal: np.ndarray, labels: np.ndarray, stats: np.ndarray, i: int) -> np.ndarray:
    x, y, w, h = stats[i, :4]
    sub = (labels[y : y + h, x : x + w] == i).astype(np.uint8)
    return np.array(cv2.mean(bal[y : y + h, x : x + w], mask=sub)[:3], np.float32)


def _same_colour(bal: np.ndarray, labels: np.ndarray, stats: np.ndarray, a: int, b: int) -> bool:
    """Whether two face pieces have the same hue (pieces of one face split by its index)."""
    ca, cb = _part_colour(bal, labels, stats, a), _part_colour(bal, labels, stats, b)
    na, nb = ca / (np.linalg.norm(ca) + 1e-6), cb / (np.linalg.norm(cb) + 1e-6)
    return float(na @ nb) > 0.97


def _noise(gray: np.ndarray) -> float:
    """Sensor noise of a grey image (standard deviation in grey levels), robust to edges and texture.

    The median absolute response of a Laplacian-like kernel that cancels flat areas and straight
    gradients (Immerkaer's estimator, median instead of mean so that card outlines do not count),
    taken from the histogram of the integer responses.
    """
    lap = cv2.convertScaleAbs(cv2.filter2D(gray[::2, ::2], cv2.CV_16S, _NOISE_K))
    cum = np.cumsum(cv2.calcHist([lap], [0], None, [256], [0, 256]).ravel())
    median = int(np.searchsorted(cum, (lap.size - 1) // 2, side="right"))
    return 1.4826 * median / 6  # the kernel's gain for white noise is 6


# per-level tables of the face mask's thresholds, made by the very operations they replace (so the same
# rounding) on every grey level once: a table look-up costs less than the arithmetic on a full frame
_LEVELS = np.arange(256, dtype=np.uint8).reshape(1, 256)
_EDGE_STEP = cv2.addWeighted(_LEVELS, 0.35, _LEVELS, 0, 7)  # a brightness edge: 0.35 of the local max + 7
# hi - lo > step(hi) (uint8, lo <= hi) is lo < hi - step(hi): the local min below a table of the local max
_EDGE_BELOW = np.maximum(_LEVELS.astype(np.int16) - _EDGE_STEP, 0).astype(np.uint8)
_RIDGE_STEP = cv2.addWeighted(_LEVELS, 0.12, _LEVELS, 0, 2.4)  # a thin bright line: 0.12 of it + 2.4
_LIM_BASE = (np.arange(256, dtype=np.int16) * 2) // 5  # a hue edge: 2/5 of the local max channel (+ noise)
_LEAST_ACROSS = cv2.multiply(_LEVELS, FACE_CHROMA, dtype=cv2.CV_16S)  # the least chroma across a table's hue


_SCRATCH = threading.local()  # per thread: work-scale images kept from one frame to the next


def _scratch(name: str, shape: tuple[int, ...], dtype: Any = np.uint8) -> np.ndarray:
    """A work image of this thread, kept between frames (contents undefined), made anew when its shape or
    type changes. Full-frame images made afresh for every frame cost page faults (the allocator hands
    their memory back to the system between frames) more than the arithmetic on them."""
    pool = getattr(_SCRATCH, "pool", None)
    if pool is None:
        pool = _SCRATCH.pool = {}
    a = pool.get(name)
    if a is None or a.shape != shape or a.dtype != dtype:
        a = pool[name] = np.empty(shape, dtype)
    return a


GROW_MARGIN = 2  # pixels around the marked pixels' box that the sheen step labels first


def _grow_mostly_marked(region: np.ndarray, marked: np.ndarray, share: float) -> np.ndarray:
    """``marked`` (uint8 0/255, changed in place) with every 4-connected piece of ``region`` added whose
    pixels are at least ``share`` marked already (and not all of them).

    The same as labelling, counting marked and all pixels per piece by ``np.bincount`` and filling the
    chosen pieces by indexing with the labels, but with 16-bit labels counted by histograms and, when few
    pieces are chosen, filled by comparisons (full-frame int32 and int64 arrays cost more than the sums).

    Only a piece with marked pixels can be added (``share`` > 0). So when the box of the marked pixels
    (GROW_MARGIN wider) is clearly smaller than the frame, that box is labelled alone: its pieces are
    whole pieces of the frame, except those that run on past its edge; when none of those holds a marked
    pixel, the pieces chosen are the frame's. Otherwise the whole frame is labelled.
    """
    hgt, wid = region.shape
    x, y, bw, bh = cv2.boundingRect(marked)
    x0, y0 = max(0, x - GROW_MARGIN), max(0, y - GROW_MARGIN)
    x1, y1 = min(wid, x + bw + GROW_MARGIN), min(hgt, y + bh + GROW_MARGIN)
    if share > 0 and bw > 0 and (x1 - x0) * (y1 - y0) < 0.7 * hgt * wid:
        if _grow_in(region, marked, share, (x0, y0, x1, y1)):
            return marked
    _grow_in(region, marked, share, None)
    return marked


def _grow_in(
    region: np.ndarray, marked: np.ndarray, share: float, box: tuple[int, int, int, int] | None
) -> bool:
    """_grow_mostly_marked on the whole frame (``box`` None) or inside ``box`` (x0, y0, x1, y1); False (and
    ``marked`` untouched) when a piece inside the box that runs on past its edge holds a marked pixel."""
    hgt, wid = region.shape
    if box is not None:
        x0, y0, x1, y1 = box
        full_region = region
        region, marked = region[y0:y1, x0:x1], marked[y0:y1, x0:x1]
    h, w = region.shape
    try:
        buf = _scratch("labels16", (hgt * wid,), np.uint16)[: h * w].reshape(h, w)
        n, lab = cv2.connectedComponents(region, buf, 4, cv2.CV_16U)
    except cv2.error:  # more than 65 535 pieces: 32-bit labels
        n, lab = cv2.connectedComponents(region, connectivity=4)
    run_on = None
    if box is not None:
        # the pieces at the box's edge that the region continues past (4-connected)
        edges = []
        if y0 > 0:
            edges.append(lab[0][full_region[y0 - 1, x0:x1] > 0])
        if y1 < hgt:
            edges.append(lab[-1][full_region[y1, x0:x1] > 0])
        if x0 > 0:
            edges.append(lab[:, 0][full_region[y0:y1, x0 - 1] > 0])
        if x1 < wid:
            edges.append(lab[:, -1][full_region[y0:y1, x1] > 0])
        run_on = np.concatenate(edges).astype(np.intp) if edges else np.zeros(0, np.intp)
    if lab.dtype == np.uint16 and 2 * n <= 65536:
        # the marked pixels' labels moved up by n, so that one histogram counts both kinds of pixel per
        # piece (float32 counts, exact under 2^24 pixels; as integers, so the share compares as before);
        # the unmarked pixels, the only ones filled below, keep their labels
        cv2.add(lab, n, dst=lab, mask=marked)
        counts = cv2.calcHist([lab], [0], None, [2 * n], [0, 2 * n]).ravel().astype(np.int64)
        n_marked = counts[n:]
        n_all = counts[:n] + n_marked
    elif lab.dtype == np.uint16:
        n_all = cv2.calcHist([lab], [0], None, [n], [0, n]).ravel().astype(np.int64)
        n_marked = cv2.calcHist([lab], [0], marked, [n], [0, n]).ravel().astype(np.int64)
    else:
        flat = lab.ravel()
        n_all = np.bincount(flat, minlength=n)
        n_marked = np.bincount(flat[marked.ravel() > 0], minlength=n)
    if run_on is not None:
        run_on = run_on[run_on > 0]  # labels read before any were moved up; 0 is no piece
        if run_on.size and n_marked[run_on].any():
            return False
    keep = (n_marked >= share * n_all) & (n_marked < n_all)
    keep[0] = False
    chosen = np.flatnonzero(keep)
    if chosen.size > 8:
        fill = keep.astype(np.uint8) * np.uint8(255)
        if lab.dtype == np.uint16 and 2 * n <= 65536:
            fill = np.concatenate([fill, np.full(n, 255, np.uint8)])  # the moved labels: marked already
        np.maximum(marked, np.take(fill, lab), out=marked)
        return True
    piece = _scratch("piece", (hgt * wid,))[: h * w].reshape(h, w)
    for i in chosen.tolist():
        marked |= cv2.compare(lab, i, cv2.CMP_EQ, dst=piece)
    return True


def _median_opponent(a: np.ndarray) -> float:
    """``float(np.median(a))`` of an opponent-channel image (integers -255..255), from their counts: the
    middle value, or the mean of the two middle values when there are an even number of them."""
    cum = np.cumsum(np.bincount(a.ravel() + 255, minlength=511))
    n = int(cum[-1])
    hi = int(np.searchsorted(cum, n // 2, side="right")) - 255
    if n % 2:
        return float(hi)
    lo = int(np.searchsorted(cum, n // 2 - 1, side="right")) - 255
    return (lo + hi) / 2


def _face_mask(small: np.ndarray, white: np.ndarray) -> tuple[np.ndarray, tuple[np.ndarray, ...], np.ndarray]:
    """Pixels that may be card face (strongly coloured, not on an edge), the balanced frame's channels
    (B, G, R), its chroma (all three work images of this thread, valid until the next frame).

    Every full-frame step writes into this thread's work images (``_scratch``); the readings are those of
    the same steps on fresh images.
    """
    shape = small.shape[:2]

    def u8(name: str) -> np.ndarray:
        return _scratch(name, shape)

    def s16(name: str) -> np.ndarray:
        return _scratch(name, shape, np.int16)

    gains = np.clip(white.mean() / np.maximum(white, 1.0), GAIN_RANGE[0], GAIN_RANGE[1])
    # the white balance per channel by a table made by the same multiplication (the same rounding)
    b, g, r = cv2.split(small, [u8("b"), u8("g"), u8("r")])
    for c, gn in zip((b, g, r), gains, strict=True):
        cv2.LUT(c, cv2.multiply(_LEVELS, float(gn)), dst=c)
    mx = cv2.max(cv2.max(b, g, dst=u8("mx")), r, dst=u8("mx"))
    mn = cv2.min(cv2.min(b, g, dst=u8("mn")), r, dst=u8("mn"))
    # chroma (max - min) / max as 0-255; all per-pixel work stays in cv2 integer images for speed
    chroma = cv2.divide(
        cv2.subtract(mx, mn, dst=mn), cv2.add(mx, 1, dst=u8("t1")), scale=255, dst=u8("chroma")
    )
    wl = float(white.max())
    # brightness edges (card outlines, borders) cut faces apart where JPEG or blur smeared the chroma
    gray = cv2.cvtColor(small, cv2.COLOR_BGR2GRAY, dst=u8("gray"))
    noise = _noise(gray)
    k = np.ones((3, 3), np.uint8)
    hi = cv2.dilate(gray, k, dst=u8("hi"))
    t1, t2 = u8("t1"), u8("t2")
    # the local range above 0.35 of the local max + 7, as the local min below the max less that (by table)
    low_here = cv2.erode(gray, k, dst=t1)
    edge = cv2.compare(low_here, cv2.LUT(hi, _EDGE_BELOW, dst=t2), cv2.CMP_LT, dst=u8("edge"))
    # thin bright upright lines (the white left border of the next card in a row) split same-colour faces
    # (a top-hat: the grey image less its opening)
    line = np.ones((1, 7), np.uint8)
    ridge = cv2.subtract(gray, cv2.dilate(cv2.erode(gray, line, dst=t1), line, dst=t2), dst=t1)
    edge |= cv2.compare(ridge, cv2.LUT(hi, _RIDGE_STEP, dst=t2), cv2.CMP_GT, dst=t2)
    # and hue edges split touching faces of different colours where the border between them is dim;
    # in a dim frame, where the noise (amplified by the white balance) is a notable share of the
    # white level, the noise must not cut faces into crumbs
    noisy = _clip((noise / max(wl, 1.0) - NOISY[0]) / (NOISY[1] - NOISY[0]), 0, 1)
    # the limit 2/5 of the local max channel plus the noise term, by table (int16: it may pass 255)
    lim = cv2.LUT(
        cv2.dilate(mx, k, dst=t1),
        _LIM_BASE + np.int16(round(max(1.0, HUE_NOISE * noisy * noise * float(gains.max())))),
        dst=s16("lim"),
    )
    # the two opponent channels r - g and (r + g) // 2 - b
    opp2 = cv2.add(r, g, dst=s16("opp2"), dtype=cv2.CV_16S)
    np.right_shift(opp2, 1, out=opp2)
    np.subtract(opp2, b, out=opp2)
    opps = (cv2.subtract(r, g, dst=s16("opp1"), dtype=cv2.CV_16S), opp2)
    # an edge in either channel: the larger of the two local ranges above the limit (one test)
    high, low16, grad = s16("high"), s16("low16"), s16("grad")
    for opp, rng in zip(opps, (grad, high), strict=True):
        cv2.subtract(cv2.dilate(opp, k, dst=rng), cv2.erode(opp, k, dst=low16), dst=rng)
    edge |= cv2.compare(cv2.max(grad, high, dst=high), lim, cv2.CMP_GT, dst=t1)
    # faces must stand out from the table: above its typical chroma (most of a frame is table)
    thr = _clip(
        _levels_at(np.ascontiguousarray(chroma[::4, ::4]), (0.5,))[0] / 255.0 + 0.15, FACE_CHROMA, 0.5
    )
    bright = cv2.compare(mx, max(12.0, 0.06 * wl), cv2.CMP_GT, dst=u8("bright"))
    mask = cv2.bitwise_and(cv2.compare(chroma, thr * 255, cv2.CMP_GT, dst=t1), bright, dst=u8("mask"))
    if thr > FACE_CHROMA:
        # a coloured table raises that bar, but a face of another hue stands out from it by its hue:
        # a purple face on orange wood under a flat tone curve is no more saturated than the wood
        t1_, t2_ = (_median_opponent(o[::4, ::4]) for o in opps)
        tn = math.hypot(t1_, t2_)
        if tn > 0:
            along = cv2.addWeighted(opps[0], t1_ / tn, opps[1], t2_ / tn, 0, dst=high, dtype=cv2.CV_16S)
            across = cv2.addWeighted(opps[0], t2_ / tn, opps[1], -t1_ / tn, 0, dst=low16, dtype=cv2.CV_16S)
            cv2.absdiff(across, 0, dst=across)
            # as colourful as a face across the table's hue, and more across it than along it (int16
            # images: this runs on most frames, and float ones cost a millisecond); the least chroma
            # (FACE_CHROMA of the max channel) by table
            cv2.max(along, cv2.LUT(mx, _LEAST_ACROSS, dst=lim), dst=along)
            other = cv2.compare(across, along, cv2.CMP_GT, dst=t1)
            mask |= cv2.bitwise_and(other, bright, dst=other)
    # off the edges: a 0/255 image less the 0/255 edges is its and with their complement
    cv2.subtract(mask, edge, dst=mask)
    # a lamp's sheen over part of a face fades its chroma below the threshold: a paler region that
    # is mostly face-coloured already (not the table, of which only specks pass) is face too
    low = cv2.compare(chroma, max(GLARE_LOW, thr - 0.15) * 255, cv2.CMP_GT, dst=t1)
    cv2.subtract(cv2.bitwise_and(low, bright, dst=low), edge, dst=low)
    mask = _grow_mostly_marked(low, mask, GLARE_SHARE)
    mask = cv2.morphologyEx(mask, cv2.MORPH_OPEN, np.ones((3, 3), np.uint8), dst=u8("face_mask"))
    return mask, (b, g, r), chroma


def _outline(sub: np.ndarray) -> np.ndarray:
    """Points of the biggest outer contour of a mask piece (bbox-local)."""
    cs, _ = cv2.findContours(sub, cv2.RETR_EXTERNAL, cv2.CHAIN_APPROX_NONE)
    return max(cs, key=cv2.contourArea).reshape(-1, 2)


def _face(
    sub: np.ndarray,
    x: int,
    y: int,
    min_area: float,
    extra: list[np.ndarray] | None = None,
) -> dict[str, Any] | None:
    """The face shape of one mask piece (bbox-local uint8 at x, y), or None if it is not four-sided.

    Small scraps of the piece are left out of the outline, except the ``extra`` outline points
    (frame coordinates) of scraps known to be the face's own.
    """
    area = cv2.countNonZero(sub)
    if area < min_area or sub.shape[0] < 16:
        return None
    cs, _ = cv2.findContours(sub, cv2.RETR_EXTERNAL, cv2.CHAIN_APPROX_NONE)
    c = np.concatenate(
        [cc.reshape(-1, 2) for cc in cs if len(cc) >= 3 and cv2.contourArea(cc) > 0.1 * area]
        or [max(cs, key=cv2.contourArea).reshape(-1, 2)]
    ) + np.int32([x, y])
    if extra:
        c = np.concatenate([c, *extra])
    hull = cv2.convexHull(c)
    quad = _fit_quad(c, hull)
    if quad is None:
        return None
    qa = cv2.contourArea(quad)
    hull_area = cv2.contourArea(hull)
    if qa <= 0 or not 0.55 < area / qa < 1.2 or hull_area > 1.25 * qa:
        return None
    tl, tr, br, bl = quad
    left = vector_norm(bl - tl)
    fh = (left + vector_norm(br - tr)) / 2
    fw = (vector_norm(tr - tl) + vector_norm(br - bl)) / 2
    if fh < 18 or not 0.05 < fw / fh < 0.85:
        return None
    down = (bl - tl) / max(left, 1e-6)
    if abs(down[0]) > 0.5:  # lying sideways: not a card in a row
        return None
    return {
        "quad": quad,
        "h": float(fh),
        "w": float(fw),
        "mask": sub,
        "bbox": (int(x), int(y), int(sub.shape[1]), int(sub.shape[0])),
    }


def _raise_cut_tops(faces: list[dict[str, Any]]) -> None:
    """Give a face whose top was cut off by its own index the height of its neighbours in the row.

    In a fanned row the index may fill the whole width of a narrow strip, so the face mask of that
    strip starts below the index and its quad misses the index. The cards of a row are one size and
    stand on one line, so a face whose bottom lies on its neighbours' bottom line but whose top lies
    clearly below theirs is extended upwards along its own sides to their height.
    """
    if len(faces) < 2:
        return
    # cards on one table are one size: only a face as tall as the tallest cards (the second tallest,
    # so that one odd shape does not decide) is a whole card's height; wood-grain specks are not
    card_h = 0.85 * sorted(f["h"] for f in faces)[-2]
    # every pair's bottom-left offsets, |g - f| per axis, by the same float32 subtractions (the bottom-left
    # corners do not move below), as plain floats: [f][g]
    bls = np.stack([f["quad"][3] for f in faces])
    apart = [np.abs(bls[None, :, k] - bls[:, None, k]).tolist() for k in (0, 1)]
    for fi, f in enumerate(faces):
        tl, tr, br, bl = f["quad"]
        best = None
        for gi, g in enumerate(faces):
            if g is f or g["h"] < card_h:
                continue
            dx = apart[0][fi][gi]
            if dx > 1.6 * g["h"] or apart[1][fi][gi] > 0.05 * g["h"] + 0.08 * dx:
                continue
            if best is None or dx < best[0]:
                best = (dx, g)
        if best is None:
            continue
        g = best[1]
        gh = g["h"]
        if not CUT_TOP[0] * gh < f["h"] < CUT_TOP[1] * gh:
            continue
        lift = gh - f["h"]
        down = (bl - tl) / max(float(np.linalg.norm(bl - tl)), 1e-6)
        # the neighbour's top must be clearly above this face's top, at this face's position
        g_top_here = g["quad"][0][1] + (tl[0] - g["quad"][0][0]) * (g["quad"][1][1] - g["quad"][0][1]) / max(
            float(g["quad"][1][0] - g["quad"][0][0]), 1e-6
        )
        if tl[1] - g_top_here < 0.6 * lift:
            continue
        f["quad"] = np.float32([tl - down * lift, tr - down * lift, br, bl])
        f["h"] = float(gh)


def _pieces(mask: np.ndarray) -> tuple[int, np.ndarray, np.ndarray]:
    """4-connected pieces of a mask: their count (with the background), labels and stats (frame
    coordinates) as ``cv2.connectedComponentsWithStats`` gives them, but for the background's stats.

    Only the bounding box of the mask's pixels is labelled when it is clearly smaller than the frame
    (a row of cards across the middle of the picture); the labels are numbered in the same raster order.
    16-bit labels (half the memory), unless there are more than 65 535 pieces.
    """
    x, y, bw, bh = cv2.boundingRect(mask)
    if 0 < bw * bh < 0.7 * mask.size:
        crop = mask[y : y + bh, x : x + bw]
    else:
        x, y, crop = 0, 0, mask
    try:
        n, lab, stats, _ = cv2.connectedComponentsWithStats(crop, connectivity=4, ltype=cv2.CV_16U)
    except cv2.error:
        n, lab, stats, _ = cv2.connectedComponentsWithStats(crop, connectivity=4)
    if crop is mask:
        return n, lab, stats
    labels = _scratch("pieces", mask.shape, lab.dtype)
    labels.fill(0)
    labels[y : y + bh, x : x + bw] = lab
    stats[:, 0] += x
    stats[:, 1] += y
    return n, labels, stats


def _faces(small: np.ndarray, white: np.ndarray) -> list[dict[str, Any]]:
    """Strongly coloured, four-sided regions: the visible part of each card face (work scale)."""
    mask, channels, chroma = _face_mask(small, white)
    merged: list[np.ndarray] = []

    def balanced() -> np.ndarray:
        """The white-balanced frame, put together only when a face needs it."""
        if not merged:
            merged.append(cv2.merge(channels))
        return merged[0]

    n, labels, stats = _pieces(mask)
    h, w = mask.shape
    min_area = max(80.0, 0.0003 * h * w)
    # a dark index spanning a narrow strip cuts its face in two: join pieces stacked in one strip
    st = stats.tolist()  # plain ints: numpy scalar indexing in these loops is slow
    parts = [i for i in range(1, n) if st[i][4] >= min_area / 4 and st[i][3] < 0.95 * h]
    parent = {i: i for i in parts}

    def root(i: int) -> int:
        while parent[i] != i:
            i = parent[i]
        return i

    by_x = sorted(parts, key=lambda i: st[i][0])
    for a_i, a in enumerate(by_x):
        ax, ay, aw, ah = st[a][:4]
        for b in by_x[a_i + 1 :]:
            bx, by, bw, bh = st[b][:4]
            if bx > ax + aw:
                break
            overlap = min(ax + aw, bx + bw) - max(ax, bx)
            gap = max(by - (ay + ah), ay - (by + bh))
            # a piece cut off by the index is short; two whole faces (cards in two rows) are not joined
            if overlap < 0.7 * max(aw, bw) or gap < -3:
                continue
            if gap <= max(6, 0.3 * max(ah, bh)) and min(ah, bh) <= 0.45 * max(ah, bh):
                if gap <= 6 or _same_colour(balanced(), labels, stats, a, b):
                    parent[root(b)] = root(a)
    groups: dict[int, list[int]] = {}
    for i in parts:
        groups.setdefault(root(i), []).append(i)
    faces = []
    table = None  # the table's colour (most of the frame), once a face leaks into something
    for members in groups.values():
        area = int(sum(st[i][4] for i in members))
        if area < min_area:
            continue
        x0 = min(st[i][0] for i in members)
        y0 = min(st[i][1] for i in members)
        x1 = max(st[i][0] + st[i][2] for i in members)
        y1 = max(st[i][1] + st[i][3] for i in members)
        part = labels[y0:y1, x0:x1]
        sub = ((part == members[0]) if len(members) == 1 else np.isin(part, members)).astype(np.uint8)
        extra = []
        if len(members) > 1:
            # a small piece of the face's own colour (the top of a narrow strip, above its index)
            # keeps its place in the outline; wood specks joined to the face do not
            main = max(members, key=lambda i: st[i][4])
            for i in members:
                if st[i][4] <= 0.1 * area and _same_colour(balanced(), labels, stats, i, main):
                    px, py, pw, ph = st[i][:4]
                    extra.append(
                        _outline((labels[py : py + ph, px : px + pw] == i).astype(np.uint8))
                        + np.int32([px, py])
                    )
        f = _face(sub, x0, y0, min_area, extra)
        if f is not None:
            faces.append(f)
            continue
        # not four-sided: maybe a face that leaks into the table or a glare spot through a narrow
        # gap in its border; cut such necks and try each piece grown back to its own shape
        cut = cv2.erode(sub, NECK_K)
        m, plab, pst, _ = cv2.connectedComponentsWithStats(cut, connectivity=4)
        if m <= 2:
            continue
        if table is None:
            table = np.median(balanced()[::8, ::8].reshape(-1, 3), axis=0)
            table /= np.linalg.norm(table) + 1e-6
        for j in range(1, m):
            if pst[j, 4] < min_area / 2:
                continue
            piece = cv2.dilate((plab == j).astype(np.uint8), NECK_K) & sub
            col = np.array(cv2.mean(balanced()[y0:y1, x0:x1], mask=piece)[:3], np.float32)
            if float(col @ table) / (np.linalg.norm(col) + 1e-6) > TABLE_SAME:  # the table cut off a face
                continue
            px, py, pw, ph = cv2.boundingRect(piece)
            f = _face(np.ascontiguousarray(piece[py : py + ph, px : px + pw]), x0 + px, y0 + py, min_area)
            if f is not None:
                faces.append(f)
    if not faces:
        return faces
    _raise_cut_tops(faces)
    # one colour reading per face, from the unbalanced frame (white reference applied later)
    for f in faces:
        x, y, bw, bh = f["bbox"]
        sub = f["mask"]
        f["face_bgr"] = np.array(cv2.mean(small[y : y + bh, x : x + bw], mask=sub)[:3], np.float32)
        f["chroma"] = float(cv2.mean(chroma[y : y + bh, x : x + bw], mask=sub)[0]) / 255.0
    return faces


_BORDER_TS = np.linspace(0.1, 0.9, 24)  # where along a face's left side its white border is sampled


def _border_whites(small: np.ndarray, faces: list[dict[str, Any]]) -> list[np.ndarray | None]:
    """Per face, the mean BGR of the white border just outside its left edge (the brighter half of 24
    points along it, 1.8 % of its height out), or None if not found.

    All faces in one pass over the frame's pixels; each face's values are those of sampling it alone
    (the same float operations per face, the sums exact: at most 24 integer levels each).
    """
    if not faces:
        return []
    starts, steps, outs = [], [], []
    for f in faces:
        tl, tr, _, bl = f["quad"]
        side = tr - tl
        right = side / max(vector_norm(side), 1e-6)
        starts.append(tl)
        steps.append(bl - tl)
        outs.append(right * max(1.5, 0.018 * f["h"]))
    tl64, step64, out64 = (np.asarray(a, np.float64) for a in (starts, steps, outs))  # (face, xy)
    # (face, point) x and y apart (inner loops of length 2 cost numpy more than the arithmetic)
    xs, ys = (
        np.clip(np.round(tl64[:, None, k] + _BORDER_TS * step64[:, None, k] - out64[:, None, k]).astype(int),
                0, lim)
        for k, lim in ((0, small.shape[1] - 1), (1, small.shape[0] - 1))
    )
    # each channel picked on its own from the flat bytes: (face, point) uint8 B, G, R
    flat, i3 = small.reshape(-1), (ys * small.shape[1] + xs) * 3
    chans = [np.take(flat, i3 + c) for c in range(3)]
    v = np.maximum(np.maximum(chans[0], chans[1]), chans[2])
    # the median point's brightness per face (the value at sorted index 11 of 24, as _quantile picks it)
    half = np.sort(v, axis=1)[:, int(0.5 * (v.shape[1] - 1))]
    keep = v >= half[:, None]
    count = keep.sum(axis=1)
    # integer sums of at most 24 levels: exact, as the float32 sums were
    sums = np.stack([np.add.reduce(np.where(keep, c, 0), axis=1) for c in chans], axis=1).astype(np.float32)
    means = sums / count[:, None].astype(np.float32)
    return [m if k else None for m, k in zip(means, count.tolist(), strict=True)]


_FRAME_TS = np.linspace(0.15, 0.85, 16, dtype=np.float32)  # where along a side its border is looked for


def _framed(
    small: np.ndarray, faces: list[dict[str, Any]], gains: np.ndarray, white_level: float
) -> np.ndarray:
    """How well each face is framed in white (work scale): the second-least, over its four sides, of how
    far the whitest pixel just outside the side (the median along the side) reaches from the face
    towards the frame's white, in the weakest channel after the white balance (as a share of the room
    between the face and white, taken as at least FRAMED_ROOM of the white: most faces leave more).

    A card's face is edged on every side by its white border, or on the right by the next card's border
    in a fan; one side may be lost to a shadow, glare or a quad that ends short, not two. A die's face is
    edged by its own sides, a grey thing by the table, with nothing whiter than the face around them.
    Sides that run outside the frame say nothing and are left out. All faces at once: per face, the
    few dozen small array operations would cost more than the reading itself.
    """
    if not faces:
        return np.zeros(0, np.float32)
    hgt, wid = small.shape[:2]
    q = np.stack([f["quad"] for f in faces]).astype(np.float32)  # (face, corner, xy)
    reach = np.float32([max(BORDER_BAND[0], BORDER_BAND[1] * f["h"]) for f in faces])
    starts, ends = q[:, [0, 0, 1, 3]], q[:, [3, 1, 2, 2]]  # left, top, right, bottom
    along = ends - starts
    normal = along[..., ::-1] * np.float32([-1, 1])
    normal /= np.maximum(np.hypot(normal[..., 0], normal[..., 1]), 1e-6)[..., None]
    # each side's normal pointing away from the face's centre
    normal *= np.where(
        (((starts + ends) / 2 - q.mean(axis=1, keepdims=True)) * normal).sum(axis=2) < 0, -1.0, 1.0
    )[..., None]
    dists = np.arange(0.5, float(reach.max()) + 0.01, 0.5, dtype=np.float32)
    # (face, side, point along it, distance out), x and y apart: the same float32 operations per point as on
    # (..., xy) arrays, whose inner loops of length 2 cost numpy four times as much
    xs, ys = (
        np.rint(
            starts[:, :, None, None, k] + _FRAME_TS[None, None, :, None] * along[:, :, None, None, k]
            + dists * normal[:, :, None, None, k]
        ).astype(np.int32)
        for k in (0, 1)
    )
    # 0 <= x < wid and 0 <= y < hgt by one unsigned compare each (a negative int32 reads as 2^31 or more)
    inside = (
        (xs.view(np.uint32) < wid) & (ys.view(np.uint32) < hgt) & (dists <= reach[:, None, None, None] + 0.01)
    )
    gain = (gains / max(white_level, 1.0)).astype(np.float32)
    face = (np.stack([f["face_bgr"] for f in faces]) * gain).min(axis=1)
    idx = np.minimum(np.maximum(ys, 0), hgt - 1) * wid + np.minimum(np.maximum(xs, 0), wid - 1)
    # each channel picked on its own from the flat bytes (contiguous arrays for the products below)
    flat, i3 = small.reshape(-1), idx * 3
    pb, pg, pr = (np.take(flat, i3 + c) for c in range(3))
    # the weakest channel after the balance (one channel at a time: a reduction over 3 values is slow)
    vals = np.minimum(np.minimum(pb * gain[0], pg * gain[1]), pr * gain[2])
    vals[~inside] = -1.0
    # the whitest pixel out from each point (points with none inside the frame sort last), its median
    # along each side; sides with fewer than 4 such points sort last too
    rows = inside.any(axis=3)
    best = np.sort(np.where(rows, vals.max(axis=3), np.inf), axis=2)
    n = rows.sum(axis=2)
    lo = np.take_along_axis(best, np.maximum(n - 1, 0)[..., None] // 2, axis=2)[..., 0]
    hi = np.take_along_axis(best, n[..., None] // 2, axis=2)[..., 0]
    side = np.sort(np.where(n >= 4, (lo + hi) / 2, np.inf), axis=1)
    counted = (n >= 4).sum(axis=1)
    second = np.where(counted > 1, side[:, 1], side[:, 0])
    out = (second - face) / np.maximum(1.0 - face, FRAMED_ROOM)
    return np.where(counted > 0, out, 1.0).astype(np.float32)


_THREE_QUARTERS = np.uint8([(3 * v) // 4 for v in range(256)])  # 4 m > 3 v for integers: m > floor(3 v / 4)
_GAIN_LUT: list = [None]  # the last white balance's (gains, 3-channel table), replaced as one tuple


def _gain_lut(gains: np.ndarray) -> np.ndarray:
    """A 3-channel table that white-balances by ``gains`` as ``cv2.multiply(img, gains)`` does: made by that
    very multiplication on every level (the same rounding), once per frame's gains. The cached pair is read
    and replaced as one tuple, so a thread never gets another thread's table."""
    key = (float(gains[0]), float(gains[1]), float(gains[2]))
    hit = _GAIN_LUT[0]
    if hit is None or hit[0] != key:
        levels = np.repeat(np.arange(256, dtype=np.uint8), 3).reshape(1, 256, 3)
        hit = (key, cv2.multiply(levels, (*key, 0.0)))
        _GAIN_LUT[0] = hit
    return hit[1]


def _strip_end(roi: np.ndarray, gains: np.ndarray, start: int, top: int) -> int:
    """Width of an index region up to the first column (from ``start``) that is mostly white border
    in the rows from ``top`` down (above them is the margin over the face).

    White after the frame's white balance (``gains``): bright and colourless, unlike face, ink or
    a glare on a coloured face, which keeps the face's colour difference.
    """
    bal = cv2.LUT(roi, _gain_lut(gains))
    b, g, r = cv2.split(bal)
    v = cv2.max(cv2.max(b, g), r)
    vmin = cv2.min(cv2.min(b, g), r)
    bright = 0.6 * _quantile(v, 0.97)  # the 97th percentile of the whole region (a partial sort: exact)
    # only the columns from ``start`` and the rows from ``top`` count; 4 min > 3 max in int16 (no overflow)
    vs = v[top:, start:].astype(np.int16)
    white = (vs > bright) & (4 * vmin[top:, start:].astype(np.int16) > 3 * vs)
    # mostly white: more than half of the rows (the mean over the rows above 0.5)
    cols = np.flatnonzero(2 * np.add.reduce(white, axis=0, dtype=np.intp) > white.shape[0])
    return start + int(cols[0]) if cols.size else roi.shape[1]


def _glyph_parts_array(st: np.ndarray, rw: int, rh: int) -> np.ndarray | None:
    """_glyph_parts in numpy array operations (for corners with many blobs)."""
    x, y, w, h, a = (st[:, k] for k in range(5))
    inside = (a >= 6) & (x > 0) & (y > 0) & (x + w < rw) & (y + h < rh)
    inside[0] = False
    if not inside.any():
        return None
    big = int(np.argmax(np.where(inside, a, -1)))
    bx, by, bw, bh = st[big, :4]
    reach = 0.6 * max(bw, bh)
    dx = np.maximum(np.maximum(bx - (x + w), x - (bx + bw)), 0)
    dy = np.maximum(np.maximum(by - (y + h), y - (by + bh)), 0)
    return inside & (a >= 0.06 * a[big]) & (np.maximum(dx, dy) <= reach)


def _glyph_parts(st: np.ndarray, rw: int, rh: int) -> np.ndarray | None:
    """Which ink blobs of an index corner (``connectedComponentsWithStats`` stats, row 0 the background)
    make its glyph: the biggest blob not touching the corner's edge (of 6 pixels or more) and the parts
    close to it (the "1" of "10", the minus of "+/-"); None when there is no such blob.

    A corner has a few blobs: plain Python over them costs less than a dozen numpy calls; many blobs
    (noise) are done in numpy, with the same result.
    """
    if len(st) > 64:
        return _glyph_parts_array(st, rw, rh)
    rows = st.tolist()
    inside = [
        i > 0 and a >= 6 and x > 0 and y > 0 and x + w < rw and y + h < rh
        for i, (x, y, w, h, a) in enumerate(rows)
    ]
    if not any(inside):
        return None
    big = max((i for i, ok in enumerate(inside) if ok), key=lambda i: rows[i][4])  # the first of the biggest
    bx, by, bw, bh, ba = rows[big]
    reach = 0.6 * max(bw, bh)
    least = 0.06 * ba
    return np.array(
        [
            ok and a >= least and max(bx - (x + w), x - (bx + bw), by - (y + h), y - (by + bh), 0) <= reach
            for ok, (x, y, w, h, a) in zip(inside, rows, strict=True)
        ]
    )


def _glyph_parts_of_blocks(
    st: np.ndarray, bounds: np.ndarray, tall: int, widths: np.ndarray, rh: int
) -> tuple[np.ndarray, np.ndarray]:
    """``_glyph_parts`` of the blobs of every block of a stack of corners at once: ``st`` the blobs' stats
    (no background row), block k's blobs the rows ``bounds[k]:bounds[k + 1]``, its top ``k * tall`` rows
    down, ``widths[k]`` wide and ``rh`` tall. Which blobs make their block's glyph, and whether a block has
    one (a blob of 6 pixels or more off its edges)."""
    n_b, n_s = len(widths), len(st)
    if n_s == 0:
        return np.zeros(0, bool), np.zeros(n_b, bool)
    block = np.repeat(np.arange(n_b), np.diff(bounds))
    x, y, w, h, a = (st[:, i] for i in range(5))
    y = y - block * tall  # in the block
    inside = (a >= 6) & (x > 0) & (y > 0) & (x + w < widths[block]) & (y + h < rh)
    # per block, the first of its biggest inside blobs: first in its block when sorted by size, then order
    order = np.lexsort((np.arange(n_s), -np.where(inside, a, -1), block))
    big = order[np.minimum(bounds[:-1], n_s - 1)]
    has = (bounds[1:] > bounds[:-1]) & inside[big]
    bx, by, bw, bh, ba = (v[big][block] for v in (x, y, w, h, a))
    reach = 0.6 * np.maximum(bw, bh)
    gap = np.maximum(np.maximum(bx - (x + w), x - (bx + bw)), np.maximum(by - (y + h), y - (by + bh)))
    return inside & has[block] & (a >= 0.06 * ba) & (np.maximum(gap, 0) <= reach), has


def _index_features(
    frame: np.ndarray, corners: list[tuple[np.ndarray, float]], gains: np.ndarray, least: float
) -> list[tuple[np.ndarray | None, float]]:
    """The glyph feature and ink contrast (0-1) of every (quad, ratio) index corner of a frame: each top-left
    index corner warped flat (a margin above and left of the face keeps an index that the quad cut short
    whole); ``gains`` white-balance the frame (they find the next card's white border after a narrow strip);
    a corner whose face level is below ``least`` is too dark to hold readable ink (None, 0.0). All corners
    at once, with a few dozen array operations per frame instead of per corner (a corner is about 60 x 50
    pixels: its cost was the calls, not the pixels); the tests keep the one-corner form as their reference.

    Each corner is warped into its block of one stack (its own size, at the block's top left; the rest of
    the block is never read but as white); the blocks' max channel, white balance
    and ink are made for the whole stack; the dark pixels of all corners are labelled once, each block's
    columns past its width and two rows below it white (no dark pixel there), so no blob crosses a block and
    each block's labels are its own, in its own order (an even number of rows per block, so that the
    labelling's two-row scan meets each block as it meets the corner alone). The levels, Otsu threshold,
    strip end, glyph blobs and feature stay per corner, on views of their block.
    """
    n_c = len(corners)
    if n_c == 0:
        return []
    mg = 6
    full_w = int(INDEX_W * FACE_H)
    rh = int(INDEX_H * FACE_H) + mg
    wide, tall = full_w + mg, rh + 2
    stack = np.empty((n_c, tall, wide, 3), np.uint8)
    stack[:, rh:] = 255
    spans = []
    for k, (quad, ratio) in enumerate(corners):
        wc = max(8, int(round(FACE_H * ratio)))
        rect = np.float32([[mg, mg], [wc + mg, mg], [wc + mg, FACE_H + mg], [mg, FACE_H + mg]])
        m = cv2.getPerspectiveTransform(quad.astype(np.float32), rect)
        rw = min(wc + (STRIP_REACH if wc < full_w else 0), full_w) + mg
        cv2.warpPerspective(
            frame, m, (rw, rh), dst=stack[k, :rh, :rw], flags=cv2.INTER_LINEAR,
            borderMode=cv2.BORDER_REPLICATE,
        )
        spans.append((wc, rw))
    chans = cv2.split(stack.reshape(n_c * tall, wide, 3))
    vm = cv2.max(cv2.max(chans[0], chans[1]), chans[2]).reshape(n_c, tall, wide)
    cols = np.arange(wide)
    wcs = np.array([wc for wc, _ in spans])
    widths = np.array([rw for _, rw in spans])
    narrow = wcs < full_w
    if narrow.any():
        # a narrow strip of a fan: its mask (and quad) may end short of the next card's border, and the index
        # may reach right up to that border; so look a little further right. It ends at the first column (from 0.6 of its width on) that is mostly white border in
        # the rows below the margin: bright (above 0.6 of the region's 97th percentile, from its counts) and
        # colourless after the white balance, as ``_strip_end`` finds it, all blocks at once
        lut = _gain_lut(gains)
        b, g, r = (cv2.LUT(c, np.ascontiguousarray(lut[0, :, i])) for i, c in enumerate(chans))
        bv = cv2.max(cv2.max(b, g), r).reshape(n_c, tall, wide)
        bmin = cv2.min(cv2.min(b, g), r).reshape(n_c, tall, wide)
        in_roi = (cols < widths[:, None, None]) & (np.arange(tall) < rh)[None, :, None]
        (b97,) = _block_levels(bv, in_roi, (0.97,))
        # v > 0.6 x level (v integer: above its floor, at most 153) and 4 min > 3 max (min above
        # floor(3 max / 4))
        bright = np.floor(0.6 * np.array(b97)).astype(np.uint8)
        colourless = cv2.compare(bmin, cv2.LUT(bv, _THREE_QUARTERS), cv2.CMP_GT)
        white = np.greater(bv[:, mg:rh], bright[:, None, None]) & colourless[:, mg:rh].view(bool)
        mostly = 2 * white.view(np.uint8).sum(axis=1, dtype=np.int32) > rh - mg  # (block, column)
        starts = mg + (0.6 * wcs).astype(int)
        mostly &= (cols >= starts[:, None]) & (cols < widths[:, None])
        first = np.argmax(mostly, axis=1)
        widths = np.where(narrow & mostly.any(axis=1), first, widths)
    # each corner's face part (below and right of the margin, up to its width): its levels from counts
    rows = np.arange(tall)
    inner = (cols >= mg) & (cols < widths[:, None, None]) & ((rows >= mg) & (rows < rh))[None, :, None]
    q90s, q60s, d1s = _block_levels(vm, inner, (0.9, 0.6, 0.01))
    np.copyto(vm, 255, where=cols >= widths[:, None, None])  # past each corner: white, never dark
    paper_of = [1.0] * n_c
    papers = np.ones(n_c, np.float32)  # as float32, as the ink's arithmetic takes them
    inv = np.ones(n_c, np.float32)
    thr = np.zeros(n_c, np.uint8)  # 0: no dark pixel (a corner too dark to read); Otsu's level is at most 255
    widths = widths.tolist()
    for k, (q90, q60, d1) in enumerate(zip(q90s, q60s, d1s, strict=True)):
        # the face level: the bright end of the corner, but a glare spot on it (far above most of the face)
        # is not the face's colour
        paper = min(q90, 1.3 * q60)
        if paper < least:
            continue
        # the ink threshold adapts to the corner: Otsu between ink and face (glare clamped to the face level
        # so it is not the bright class), never above 60 % of the face, unless even the darkest ink is
        # lighter than about 40 % of the face (a flat tone curve): then up to INK_MID of the way from it
        face = cv2.min(vm[k, mg:rh, mg : widths[k]], paper)
        otsu, _ = cv2.threshold(face, 0, 255, cv2.THRESH_BINARY + cv2.THRESH_OTSU)
        cap = max(0.6 * paper, d1 + INK_MID * (paper - d1))
        thr[k] = math.ceil(min(float(otsu), cap))
        paper_of[k] = paper
        papers[k], inv[k] = paper, 1.0 / paper
    dark = np.less(vm, thr[:, None, None]).view(np.uint8).reshape(n_c * tall, wide)
    n, lab, st, _ = cv2.connectedComponentsWithStats(dark, connectivity=8)
    # each block's labels: consecutive, in block order (by the row each blob starts on)
    bounds = np.searchsorted(st[1:, cv2.CC_STAT_TOP], np.arange(n_c + 1) * tall)
    keep, found = _glyph_parts_of_blocks(st[1:], bounds, tall, np.array(widths), rh)
    found &= thr > 0
    glyph = np.take(np.concatenate([[False], keep]), lab).reshape(n_c, tall, wide)
    # (paper - v) / paper clipped to 0-1, on the glyph only: the same float32 operations as per corner
    ink = vm.astype(np.float32)
    np.subtract(papers[:, None, None], ink, out=ink)
    ink *= inv[:, None, None]
    np.minimum(np.maximum(ink, 0, out=ink), 1, out=ink)
    ink *= glyph
    (mids,) = _block_levels(vm, glyph, (0.5,))  # the glyph's middle level (its pixels lie in the corner)
    # ``feature`` of each corner's ink: its peak, the box of the ink above 0.35 of it (the blocks hold no ink
    # past their corners), fitted; the mean taken off and normalised row by row of one array (a row's sum is
    # the pairwise sum of the same values, as for the flat feature alone)
    tops = ink.reshape(n_c, -1).max(axis=1)
    heavy = ink > np.float32(0.35 * tops.astype(np.float64))[:, None, None]
    in_rows, in_cols = heavy.any(axis=2), heavy.any(axis=1)
    y0s, y1s = np.argmax(in_rows, axis=1), tall - np.argmax(in_rows[:, ::-1], axis=1)
    x0s, x1s = np.argmax(in_cols, axis=1), wide - np.argmax(in_cols[:, ::-1], axis=1)
    read = [k for k in range(n_c) if found[k] and 0.0 < float(tops[k]) < math.inf]
    out: list[tuple[np.ndarray | None, float]] = [(None, 0.0)] * n_c
    if read:
        feats = np.stack([fitted(ink[k, y0s[k] : y1s[k], x0s[k] : x1s[k]]) for k in read])
        feats -= (np.add.reduce(feats, axis=1) / np.float32(feats.shape[1]))[:, None]
        for k, f in zip(read, feats, strict=True):
            n = float(vector_norm(f))
            out[k] = (f / n if n > 1e-6 else None, 0.0)
    for k in range(n_c):
        if found[k]:
            paper = paper_of[k]
            out[k] = (out[k][0], _clip((paper - mids[k]) / paper, 0, 1))
    return out


def _block_levels(img: np.ndarray, where: np.ndarray, qs: tuple[float, ...]) -> list[list[float]]:
    """Per block (first axis) of a uint8 stack, the q-quantiles of its values where ``where`` (broadcast to
    the stack) holds, as ``_quantile`` picks them (the value at sorted index int(q (n - 1))), from the blocks'
    counts: one list per q, one level per block (0 for a block with none)."""
    n_b = img.shape[0]
    keys = img.astype(np.uint16 if n_b <= 256 else np.intp)
    keys += (np.arange(n_b, dtype=keys.dtype) * 256)[:, None, None]
    counts = np.bincount(keys[np.broadcast_to(where, img.shape)], minlength=n_b * 256).reshape(n_b, 256)
    cum = np.cumsum(counts, axis=1)
    last = cum[:, -1] - 1
    return [
        np.add.reduce(cum <= (q * last).astype(np.intp)[:, None], axis=1).astype(float).tolist() for q in qs
    ]


def _hue_distance(a: float, b: float) -> float:
    d = abs(a - b) % (2 * np.pi)
    return min(d, 2 * np.pi - d)


def _classify_colour(
    lab: np.ndarray, hues: dict[str, tuple[float, float]], allowed: tuple[str, ...]
) -> tuple[str, float]:
    ang = float(np.arctan2(lab[2], lab[1]))
    scores = sorted((_hue_distance(ang, hues[c][0]) + 0.004 * abs(lab[0] - hues[c][1]), c) for c in allowed)
    best = scores[0]
    second = scores[1][0] if len(scores) > 1 else np.pi
    chroma = float(np.hypot(lab[1], lab[2]))
    conf = _clip((second - best[0]) / 0.4, 0, 1) * _clip(chroma / 25.0, 0, 1)
    return best[1], conf


SHIFTS = ((0, 0), (-1, 0), (1, 0), (-2, 0), (2, 0), (0, -1), (0, 1))  # (dy, dx) in feature pixels


def _shift_index() -> np.ndarray:
    """For each shift, the indices into the feature padded by 2 that give the shifted feature."""
    fh, fw = FEATURE_SHAPE
    yy, xx = np.mgrid[0:fh, 0:fw]
    return np.stack([((yy + 2 - dy) * (fw + 4) + xx + 2 - dx).ravel() for dy, dx in SHIFTS])


_SHIFT_INDEX = _shift_index()


def _shifted(feats: np.ndarray) -> np.ndarray:
    """Glyph features (one per row) moved by a pixel or two: for each feature, one row per shift of
    SHIFTS (renormalised), shape (features, shifts, feature size).

    Blur, JPEG and a slightly skewed quad move the ink crop against the templates (a "+/-" one row
    too high matches a "1" better than itself). All features of a frame at once; each row is
    normalised on its own, so its values do not depend on the other features.
    """
    fh, fw = FEATURE_SHAPE
    k = len(feats)
    p = np.empty((k, fh + 4, fw + 4), np.float32)
    p[:] = feats[:, :1, None]  # padded with each feature's first (background) value
    p[:, 2:-2, 2:-2] = feats.reshape(k, fh, fw)
    # one row per feature and shift, a 2-D array as for a single feature (numpy's sums along the rows of
    # a 3-D array may round differently)
    g = p.reshape(k, -1)[:, _SHIFT_INDEX].reshape(k * len(SHIFTS), -1)
    g -= g.mean(axis=1, keepdims=True)
    return (g / np.maximum(np.linalg.norm(g, axis=1, keepdims=True), 1e-6)).reshape(k, len(SHIFTS), -1)


def _class_scores(cards: list[dict[str, Any]], tmpl: np.ndarray, labels: list) -> list[dict[Any, float]]:
    """Per card, the best correlation of its glyph with each value's templates (the better-read of the
    card's indices, each at its best small shift), keyed by value in the order the labels first name them."""
    if not cards:
        return []
    shifted = _shifted(np.stack([f for c in cards for f in c["features"]]).astype(np.float32, copy=False))
    # each value's templates gathered, for the best of them by one reduction
    values = list(dict.fromkeys(labels))
    group = np.array([values.index(v) for v in labels])
    order = np.argsort(group, kind="stable")
    starts = np.searchsorted(group[order], np.arange(len(values)))
    rows = shifted.reshape(-1, shifted.shape[2])
    # one matrix-vector product per shift: a matrix-matrix product would start BLAS threads, which on a
    # busy machine cost milliseconds (each written into its row of one array: the same products)
    prods = np.empty((len(rows), len(tmpl)), np.float32)
    for row, prod in zip(rows, prods, strict=True):
        np.dot(tmpl, row, out=prod)
    # per card, the best over its indices' shifts; then per value, the best of its templates (both exact)
    firsts = np.cumsum([0] + [len(c["features"]) * len(SHIFTS) for c in cards])[:-1]
    best = np.maximum.reduceat(np.maximum.reduceat(prods, firsts, axis=0)[:, order], starts, axis=1)
    return [dict(zip(values, b, strict=True)) for b in best.tolist()]


def _match_value(best: dict[Any, float], allowed: tuple) -> tuple[Any, float, float]:
    ranked = sorted(((s, v) for v, s in best.items() if v in allowed), key=lambda sv: -sv[0])
    s1, top = ranked[0]
    s2 = ranked[1][0] if len(ranked) > 1 else -1.0
    return top, s1, s2


def _profile_parts(profile: dict | None) -> tuple[dict, np.ndarray, list]:
    """Colour hues and glyph templates: the defaults, with what a profile taught put in place.

    Entries of a profile that do not make sense (a hand-edited file) are skipped, not fatal.
    """
    hues = dict(DEFAULT_HUES)
    tmpl, labels = _templates()
    if not isinstance(profile, dict):
        return hues, tmpl, labels
    colours = profile.get("colours")
    for name, c in colours.items() if isinstance(colours, dict) else ():
        try:
            lab = np.asarray(c["lab"], np.float32).reshape(3)
        except (KeyError, TypeError, ValueError):
            continue
        if name in hues and np.isfinite(lab).all():
            hues[name] = (float(np.arctan2(lab[2], lab[1])), float(lab[0]))
    extra = []
    glyphs = profile.get("glyphs")
    for g in glyphs if isinstance(glyphs, list) else ():
        try:
            value, feat = parse_value(str(g["value"])), np.asarray(g["feature"], np.float32).ravel()
        except (KeyError, TypeError, ValueError):
            continue
        if feat.size == tmpl.shape[1] and np.isfinite(feat).all():
            extra.append((value, feat / max(float(np.linalg.norm(feat)), 1e-6)))
    if extra:
        tmpl = np.vstack([tmpl] + [f[None] for _, f in extra])
        labels = labels + [v for v, _ in extra]
    return hues, tmpl, labels


def _detect(frame: np.ndarray) -> list[dict[str, Any]]:
    """Every card face found, with its quad (full scale), Lab colour and glyph feature."""
    h, w = frame.shape[:2]
    s = min(1.0, WORK_WIDTH / w)
    small = (
        cv2.resize(frame, (int(round(w * s)), int(round(h * s))), interpolation=cv2.INTER_AREA)
        if s < 1
        else frame
    )
    white = _white_estimate(small)
    gains = white.mean() / np.maximum(white, 1.0)
    # the darkest face level that can hold readable ink, relative to the frame's white: a dark
    # purple face under a dim lamp is as readable as under a bright one
    least = max(PAPER_LEAST[0], PAPER_LEAST[1] * float(white.max()))
    cards = []
    faces = _faces(small, white)
    # every index corner of the frame read at once: the top-left one of each face, and the turned one in
    # the bottom-right corner of a face that shows whole (last card of a fan, cards side by side)
    corners = []
    for f in faces:
        quad_full = f["quad"] / s
        corners.append((quad_full, f["w"] / f["h"]))
        if f["w"] > WHOLE_FACE * f["h"]:
            corners.append((quad_full[[2, 3, 0, 1]], f["w"] / f["h"]))
    read_corners = iter(_index_features(frame, corners, gains, least))
    white_floor = np.maximum(white, 1.0)
    white_level = max(float(white.mean()), 1.0)
    for f, ref in zip(faces, _border_whites(small, faces), strict=True):
        border_ok = False
        fb = f["face_bgr"] * gains
        if ref is not None:
            rb = ref * gains
            rchroma = (rb.max() - rb.min()) / (rb.max() + 1.0)
            border_ok = rchroma < 0.5 * f["chroma"] and rb.max() > 0.75 * fb.max()
        corrected = f["face_bgr"] / (np.maximum(ref, 1.0) if border_ok else white_floor) * 235.0
        quad_full = f["quad"] / s
        feat, contrast = next(read_corners)
        feats = [feat] if feat is not None else []
        if f["w"] > WHOLE_FACE * f["h"]:
            # the whole face shows: its turned index in the bottom-right corner is a second reading, and the
            # only one if glare hides the first
            feat2, contrast2 = next(read_corners)
            if feat2 is not None:
                feats.append(feat2)
                contrast = max(contrast, contrast2)
        if not feats:
            continue
        # printed inks reflect at least about half of what the card's white does; a face far darker
        # than the frame's white is a dark thing (a cable, a laptop, a dark die), or a card deep in
        # shadow, and is trusted the less the darker it is
        lift = float(fb.max() / white_level)
        cards.append(
            {
                "quad": quad_full,
                "h": f["h"] / s,
                "w": f["w"] / s,
                "lab": _lab(corrected),
                "features": feats,
                "contrast": contrast,
                "border_ok": border_ok,
                "dark": _clip((lift - DARK_FACE[0]) / (DARK_FACE[1] - DARK_FACE[0]), 0.0, 1.0),
                "face": f,
            }
        )
    # a card's face is framed by its white border: a die's face or a grey thing on the table is not
    framed = _framed(small, [c.pop("face") for c in cards], gains, float(white.mean()))
    for c, fr in zip(cards, framed.tolist(), strict=True):
        c["framed"] = _clip((fr - FRAMED[0]) / (FRAMED[1] - FRAMED[0]), 0.0, 1.0)
    return cards


def _rows(cards: list[dict[str, Any]]) -> list[list[dict[str, Any]]]:
    """Chain cards left to right into rows: a card joins the row whose last card is just left of it."""
    rows: list[list[dict[str, Any]]] = []
    for c in sorted(cards, key=lambda c: c["quad"][0][0]):
        tl = c["quad"][0]
        best, best_d = None, None
        for row in rows:
            last = row[-1]
            ltl = last["quad"][0]
            dx, dy = tl[0] - ltl[0], tl[1] - ltl[1]
            scale = max(last["h"], c["h"])
            if dx <= 0 or dx > 1.6 * scale or abs(dy) > 0.35 * scale + 0.25 * dx:
                continue
            d = abs(dy) + 0.2 * dx
            if best_d is None or d < best_d:
                best, best_d = row, d
        if best is None:
            rows.append([c])
        else:
            best.append(c)
    rows.sort(key=lambda r: float(np.mean([c["quad"][0][1] for c in r])))
    return rows


def read(frame: Any, profile: dict | None = None, game: str | None = None) -> Observation:
    """Cards on the table as objects with colour, value, row, position, confidence and box."""
    try:
        frame = check_frame(frame)
    except (ImageError, cv2.error):  # cv2.error: a float grey frame that check_frame cannot convert
        return Observation("cards", [], 0, 0)
    h, w = frame.shape[:2]
    if min(h, w) < 32:
        return Observation("cards", [], w, h)
    hues, tmpl, labels = _profile_parts(profile)
    cards = _detect(frame)
    for c, scores in zip(cards, _class_scores(cards, tmpl, labels), strict=True):
        c["scores"] = scores
    if game in DECKS:
        colours, values = DECKS[game]["colours"], DECKS[game]["values"]
    else:
        colours, values = COLOURS, VALUES
        # a clear purple card, a 0 or a dynamite means Blasting Billy; zero, x2 or +/- Nicht die Bohne
        votes = {"blasting-billy": 0, "nicht-die-bohne": 0}
        for c in cards:
            v, s1, s2 = c["vote_value"] = _match_value(c["scores"], VALUES)
            col, cc = c["vote_colour"] = _classify_colour(c["lab"], hues, COLOURS)
            if s1 > 0.7 and s1 - s2 > 0.08:
                if v in (0, "dynamite"):
                    votes["blasting-billy"] += 1
                elif v in ("zero", "x2", "pm"):
                    votes["nicht-die-bohne"] += 1
            if col == "purple" and cc > 0.5:
                votes["blasting-billy"] += 1
        if votes["blasting-billy"] > 2 * votes["nicht-die-bohne"]:
            colours, values = DECKS["blasting-billy"]["colours"], DECKS["blasting-billy"]["values"]
        elif votes["nicht-die-bohne"] > 2 * votes["blasting-billy"]:
            colours, values = DECKS["nicht-die-bohne"]["colours"], DECKS["nicht-die-bohne"]["values"]
    objects = []
    for r, row in enumerate(_rows(cards)):
        for p, c in enumerate(row):
            # the same allowed values and colours as the vote's (no deck told or chosen): its readings
            voted = "vote_value" in c
            value, s1, s2 = (
                c["vote_value"] if voted and values is VALUES else _match_value(c["scores"], values)
            )
            colour, ccol = (
                c["vote_colour"]
                if voted and colours is COLOURS
                else _classify_colour(c["lab"], hues, colours)
            )
            cval = _clip((s1 - 0.35) / 0.4, 0, 1) * _clip((s1 - s2) / 0.08 + 0.4, 0, 1)
            conf = min(cval, 0.3 + 0.7 * ccol) * (1.0 if c["border_ok"] else 0.6)
            conf *= _clip(c["contrast"] / 0.3, 0.3, 1.0) * c["dark"] * c["framed"]
            # without a white border around it, an unsure coloured thing is clutter, not a card
            if conf < (MIN_CONFIDENCE if c["border_ok"] else 2 * MIN_CONFIDENCE):
                continue
            q = c["quad"]
            b = 0.04 * c["h"]
            x0, y0 = q[:, 0].min() - b, q[:, 1].min() - b
            x1, y1 = q[:, 0].max() + b, q[:, 1].max() + b
            x0, y0 = max(0, int(round(x0))), max(0, int(round(y0)))
            x1, y1 = min(w, int(round(x1))), min(h, int(round(y1)))
            objects.append(
                {
                    "colour": colour,
                    "value": value,
                    "row": r,
                    "position": p,
                    "confidence": round(float(conf), 3),
                    "box": [x0, y0, x1 - x0, y1 - y0],
                }
            )
    # renumber rows and positions after dropping unsure cards
    rows_seen = sorted({o["row"] for o in objects})
    count: dict[int, int] = {}
    for o in objects:
        o["row"] = rows_seen.index(o["row"])
        o["position"] = count.get(o["row"], 0)
        count[o["row"]] = o["position"] + 1
    return Observation("cards", objects, w, h)


def _parse_class(name: str) -> tuple[str, int | str | None]:
    parts = name.strip().lower().split("-", 1)
    colour = parts[0]
    if colour not in COLOURS:
        raise ValueError(f"class '{name}': unknown colour '{colour}' (use {', '.join(COLOURS)})")
    if len(parts) == 1:
        return colour, None
    try:
        return colour, parse_value(parts[1])
    except ValueError as exc:
        raise ValueError(f"class '{name}': {exc}") from None


def teach(examples: dict[str, list[np.ndarray]]) -> dict:
    """Learn each colour's look under the players' light and, for value classes, their own glyphs."""
    if not examples:
        raise ValueError("no examples given")
    labs: dict[str, list[np.ndarray]] = {}
    glyphs: list[dict[str, Any]] = []
    for name, photos in examples.items():
        colour, value = _parse_class(name)
        if not photos:
            raise ValueError(f"class '{name}': no photos")
        for i, photo in enumerate(photos):
            try:
                frame = check_frame(photo)
            except (ImageError, cv2.error) as exc:
                raise ValueError(f"class '{name}', photo {i + 1}: {exc}") from None
            cards = _detect(frame)
            if not cards:
                raise ValueError(f"class '{name}', photo {i + 1}: no card found in the photo")
            for c in cards:
                labs.setdefault(colour, []).append(c["lab"])
                if value is not None:
                    glyphs.extend(
                        {"value": value_name(value), "feature": [round(float(x), 4) for x in f]}
                        for f in c["features"]
                    )
    return {
        "colours": {
            c: {"lab": [round(float(x), 2) for x in np.median(v, axis=0)], "n": len(v)}
            for c, v in labs.items()
        },
        "glyphs": glyphs,
    }
