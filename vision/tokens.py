"""Bag of Butts reader: find every butt, split them into the three drawn groups, name their colour.

Colour is classified in a light-robust feature space per butt:
``l``  log lightness relative to the table right around the butt, plus the table's own log
       reflectance (read from the mat's patches, or fitted per scene without the mat),
``cr`` log(R/G) and ``cb`` log(B/G) after white balance (white patch, or fitted per scene).
Ratios do not change when the light gets brighter, dimmer or uneven, so black / gray / white
(which differ only in lightness) and khaki / yellow (which differ in chroma and lightness) stay
apart. Without the mat, the white balance and table lightness are fitted so that the butts seen
best match the known butt colours: the bag always holds 2 butts of each player colour, which
anchors the fit. ``teach`` replaces the built-in colour models with the players' own butts.
Under a lamp the usual fit cannot reach (a candle-warm bulb without the camera's white balance), the
cast is fitted from the butts over a wide range and taken off as channel gains before the usual fit.
With the mat, a white patch channel the camera clipped is told by the grey patch, and a flat picture
(the grey patch lighter against the white than printed) gets its printed contrast back. A butt
channel the camera clipped is read as a lower bound (as bright as each colour model asks, or more).

Finding butts: the frame is compared with a smooth estimate of the table (on the mat: refilled
from the pixels of the zone fill's own chroma, which no butt shares; on a bare table: a coarse
median, then refilled from only what that left as table); what differs by more than the frame's own
noise forms blobs. Before a blob is counted, the light effects around butts leave it: contact
shadows (darker than the table, same chroma, thinner than a butt) and glare (light added in every
channel, broader than a butt, fading out far from any edge that is steep for its local step, or a
round spot, or a piece whose outline rises far slower than the frame's own butts' outlines, measured
away from the zones' printed edges); a butt under or beside the glare stays where its change from
the table leaves the glare's own colour, and the glare is taken off its colour. What is left is
split into butts by size, colour and position; a piece of that split that is light added with an
outline far softer than the frame's butts' is glare that touched the pile, not a butt. Faint butts (white on light wood, black on dark wood)
that only crumbs of passed the threshold are looked for again at lower shares of it, kept only where
the piece is butt-shaped, drops off sharply at its outline and is read as a butt colour with
confidence. With the mat only its zones are searched, at a scale
set by the mat's own size in the frame; on a bare table small butts are read again at a larger scale.
"""

from __future__ import annotations

import math
import statistics
from typing import Any

import cv2
import numpy as np

from vision import mat as matmod
from vision.common import CLIPPED, ImageError, Observation, check_frame, magnitude, median, percentile

COLOURS = ("pink", "yellow", "blue", "green", "black", "gray", "white", "khaki")
# Built-in appearance: nominal sRGB colours (BGR) of the butts as seen on white paper (= 235).
NOMINAL_BGR = {
    "pink": (180, 150, 240), "yellow": (40, 205, 240), "blue": (190, 95, 40), "green": (70, 150, 50),
    "black": (32, 30, 30), "gray": (128, 128, 126), "white": (236, 236, 232), "khaki": (115, 168, 192),
}
WHITE_LEVEL = 235.0
SHADING = 0.93  # a cylinder's median is a little darker than its paint
ASPECT = 3.1  # butt length / diameter
WORK_WIDTH = 640
# with the mat its scale is known: the zones are searched at a scale where a butt (about 23 x 7.4 mat
# units on the A4 mat) is this many pixels wide, but never below MIN_MAT_SCALE of the 640-wide image
WORK_BUTT_WIDTH = 12.0
BUTT_WIDTH_UNITS = 7.4
MIN_MAT_SCALE = 0.75
BARE_SCALE = 0.8
BARE_HALF = 5.5  # on a bare table butts narrower than this (half width, work pixels) are read again larger
EPS = 6.0
MAT_FLAT = 1.3  # the mat's patches show a picture this much flatter than printed (in every channel): its contrast is restored...
MAT_FLAT_MAX = 2.5  # ... up to this (beyond, the patches are not lit alike: a shadow or glare on one of them)
MAT_TOP_GAIN = 16.0  # the mat's white patch may ask this much gain of a channel (a warm lamp's blue)


def _shrink_kernel(step: float) -> np.ndarray:
    """Three taps of variance (step^2 - 1) / 12 for a shrink by ``step`` (1-2): an area average's
    step^2 / 12 less half the spread a bilinear sample adds on average (1/6), which brought the
    shrink closest to OpenCV's area resize."""
    c = float(np.clip((step * step - 1) / 24, 0.0, 0.125))
    return np.float32([c, 1 - 2 * c, c])


def _shrink(img: np.ndarray, size: tuple[int, int]) -> np.ndarray:
    """``img`` shrunk to ``size`` (at most 2x) like an area resize (each new pixel about the mean of
    the old pixels it covers), as a three-tap blur and a bilinear sample: OpenCV's area resize by a
    fraction runs a scalar loop several times slower."""
    h, w = img.shape[:2]
    smooth = cv2.sepFilter2D(img, -1, _shrink_kernel(w / size[0]), _shrink_kernel(h / size[1]),
                             borderType=cv2.BORDER_REPLICATE)
    return cv2.resize(smooth, size, interpolation=cv2.INTER_LINEAR)


def _features_bgr(bgr: np.ndarray) -> np.ndarray:
    """(N, 3) BGR -> (N, 3) features (log lightness vs white 235, log R/G, log B/G)."""
    b = np.asarray(bgr, np.float32).reshape(-1, 3) + EPS
    lum = b.mean(axis=1)
    return np.stack([np.log(lum / (WHITE_LEVEL + EPS)), np.log(b[:, 2] / b[:, 1]), np.log(b[:, 0] / b[:, 1])], 1)


def default_model() -> dict[str, Any]:
    """Built-in class models: mean feature of each nominal colour with a generous covariance."""
    means, covs = {}, {}
    for name, bgr in NOMINAL_BGR.items():
        f = _features_bgr(np.float32(bgr) * SHADING)[0]
        means[name] = f.tolist()
        chroma_sd = 0.10 if name not in ("black",) else 0.30
        covs[name] = np.diag([0.16 ** 2, chroma_sd ** 2, chroma_sd ** 2]).tolist()
    return {"means": means, "covs": covs}


_DEFAULT_MODEL: list[_Model] = []


def _model_for(profile: dict | None) -> _Model:
    """The colour models of a profile; the built-in ones are made once."""
    if profile and "means" in profile:
        return _Model(profile)
    if not _DEFAULT_MODEL:
        _DEFAULT_MODEL.append(_Model(None))
    return _DEFAULT_MODEL[0]


class _Model:
    """Class means and inverse covariances as arrays, for fast Mahalanobis distances."""

    def __init__(self, data: dict[str, Any] | None):
        data = data if data and "means" in data else default_model()
        self.names = [c for c in COLOURS if c in data["means"]]
        self.mu = np.float32([data["means"][c] for c in self.names])
        covs = []
        for c in self.names:
            cov = np.asarray(data["covs"][c], np.float64) + np.diag([0.04 ** 2, 0.03 ** 2, 0.03 ** 2])
            covs.append(cov)
        self.prec = np.float32([np.linalg.inv(c) for c in covs])
        self.logdet = np.float32([np.log(np.linalg.det(c)) for c in covs])

    def dist(self, feats: np.ndarray) -> np.ndarray:
        """(N, 3) features -> (N, K) Mahalanobis distances squared (plus the log-determinant)."""
        d = feats[:, None, :] - self.mu[None, :, :]
        return np.einsum("nki,kij,nkj->nk", d, self.prec, d) + self.logdet[None, :]


# ---------------------------------------------------------------- finding butts

def _three(plane: np.ndarray) -> np.ndarray:
    """A one-channel float32 or uint8 image repeated to three channels (np.repeat(plane[..., None], 3,
    axis=2), by OpenCV: numpy repeats along a last axis several times slower)."""
    return cv2.cvtColor(plane, cv2.COLOR_GRAY2BGR)


def _push_pull_fill(img: np.ndarray, mask: np.ndarray) -> np.ndarray:
    """Fill the pixels outside ``mask`` from the nearest inside ones (a push-pull image pyramid)."""
    m = mask.astype(np.float32)
    cur = img.astype(np.float32)
    cur *= _three(m)
    levels = []
    while min(cur.shape[:2]) > 2:
        levels.append((cur, m))
        size = (max(1, cur.shape[1] // 2), max(1, cur.shape[0] // 2))
        cur, m = cv2.resize(cur, size, interpolation=cv2.INTER_AREA), cv2.resize(m, size, interpolation=cv2.INTER_AREA)
    est = cur.reshape(-1, 3).sum(0) / max(float(m.sum()), 1e-6) * np.ones_like(cur)
    for cur, m in reversed(levels):
        up = cv2.resize(est, (cur.shape[1], cur.shape[0]), interpolation=cv2.INTER_LINEAR).reshape(cur.shape)
        # repeated to the three channels: a broadcast last axis runs numpy's loops three values at a time
        cov = _three(np.clip(m, 0, 1))
        # est = where(cov > 1e-3, cur / max(cov, 1e-3), 0) * cov + up * (1 - cov), without temporaries
        est = np.divide(cur, np.maximum(cov, 1e-3))
        np.copyto(est, 0, where=cov <= 1e-3)  # in place, no index of the pixels
        est *= cov
        up *= 1 - cov
        est += up
    np.clip(est, 0, 255, out=est)
    np.copyto(est, img, where=_three(mask.astype(np.uint8)) > 0)  # the pixels inside the mask keep their own values
    return est.astype(np.uint8)


def _noise_threshold(levels: np.ndarray) -> float:
    """The difference (log units) a butt must exceed, from the table's own differences (uint8 levels
    of LOG_STEP): median plus THR_MADS robust deviations, at least MIN_THR. Counted, not sorted."""
    hist = np.bincount(levels.ravel(), minlength=256).astype(np.int64)
    cum = np.cumsum(hist)
    half = cum[-1] / 2
    med = int(np.searchsorted(cum, half))
    dev = np.abs(np.arange(256) - med)
    dev_hist = np.bincount(dev, weights=hist, minlength=256)
    mad = int(np.searchsorted(np.cumsum(dev_hist), half))
    return max(MIN_THR, (med + THR_MADS * 1.4826 * (mad + 1e-3 / LOG_STEP)) * LOG_STEP)


def _median8(pix: np.ndarray) -> np.ndarray:
    """np.median(pix, axis=0).astype(np.uint8) of (N, 3) uint8 pixels, counted per channel, not sorted."""
    n = len(pix)
    out = np.empty(3, np.uint8)
    for c in range(3):
        cum = np.cumsum(np.bincount(pix[:, c], minlength=256))
        lo, hi = int(np.searchsorted(cum, (n - 1) // 2 + 1)), int(np.searchsorted(cum, n // 2 + 1))
        out[c] = (lo + hi) // 2  # the mean of the two middle values, truncated like astype(uint8)
    return out


def _table_chroma(tiny: np.ndarray, tmask: np.ndarray) -> np.ndarray | None:
    """The pixels of the table's own chroma (log R/G and log B/G within the spread of the search
    area's most common chroma), or None when too few. Used on the mat, whose zones are printed in one
    colour chosen far from every butt's: a butt never passes, however dense its pile or dark its colour."""
    lg = cv2.LUT(tiny, _LOG8).astype(np.int16)
    cr, cb = lg[..., 2] - lg[..., 1], lg[..., 0] - lg[..., 1]  # LOG_STEP units
    qr, qb = (cr[tmask] + 256) // 4, (cb[tmask] + 256) // 4
    hist = np.bincount(qr * 128 + qb, minlength=128 * 128).astype(np.float32).reshape(128, 128)
    peak = int(np.argmax(cv2.blur(hist, (3, 3))))
    mr, mb = (peak // 128) * 4 - 254, (peak % 128) * 4 - 254
    dist = np.maximum(np.abs(cr - mr), np.abs(cb - mb))
    tol = max(TABLE_CHROMA_MIN / LOG_STEP, TABLE_CHROMA_SPREAD * _median_int(dist[tmask]))  # = float(median(...))
    table = tmask & (dist < tol)
    return table if table.sum() >= 0.3 * tmask.sum() else None


TABLE_CHROMA_MIN = 0.1  # the table's chroma spread (log units) is at least this...
TABLE_CHROMA_SPREAD = 3.0  # ...and this many times the search area's median chroma distance to it


def _background(small: np.ndarray, search: np.ndarray, frame_side: float, one_colour: bool = False) -> np.ndarray:
    """Smooth table colour under the butts. On a one-colour table (``one_colour``: the mat's zones)
    it is refilled from the pixels of the table's own chroma. Otherwise in two passes: a coarse
    median over the search area (outside it is filled with the search area's median colour), then
    the table is refilled from only the pixels that pass left as table, so a dense pile that filled
    half the median's window does not leak its colours into the table's. ``frame_side`` is the
    whole frame's short side in work pixels (the work image may be a crop of it)."""
    h, w = small.shape[:2]
    # a quarter as fine, from the largest part of the image a whole number of 4x4 cells covers (an
    # area resize by exactly 4 is several times faster than by a fraction); the edge is extended back
    w4, h4 = max(1, w // 4), max(1, h // 4)
    tiny = cv2.resize(small[:h4 * 4, :w4 * 4], (w4, h4), interpolation=cv2.INTER_AREA)

    def full(est: np.ndarray) -> np.ndarray:
        out = cv2.resize(est, (w4 * 4, h4 * 4), interpolation=cv2.INTER_LINEAR)
        if (h, w) == out.shape[:2]:
            return out  # nothing to extend (a copy of the whole image saved)
        return cv2.copyMakeBorder(out, 0, max(0, h - h4 * 4), 0, max(0, w - w4 * 4), cv2.BORDER_REPLICATE)[:h, :w]

    tmask = np.ones(tiny.shape[:2], bool)
    if not search.all():
        tmask = cv2.resize(search, (tiny.shape[1], tiny.shape[0]), interpolation=cv2.INTER_NEAREST) > 0
        tmask = cv2.erode(tmask.astype(np.uint8), np.ones((3, 3), np.uint8)) > 0
    table0 = _table_chroma(tiny, tmask) if one_colour else None
    if table0 is not None:  # a one-colour table (the mat's zones): refilled from its own colour only
        bg = cv2.GaussianBlur(_push_pull_fill(tiny, table0), (0, 0), 1.5)
        return full(bg)
    filled = tiny
    if not tmask.all() and tmask.any():
        filled = tiny.copy()
        filled[~tmask] = _median8(tiny[tmask])
    # first pass on a copy half as fine again: a median window of an eighth of the frame's short side
    coarse = cv2.resize(filled, (max(1, filled.shape[1] // 2), max(1, filled.shape[0] // 2)),
                        interpolation=cv2.INTER_AREA)
    k = max(3, int(frame_side / 64) | 1)
    bg = cv2.resize(cv2.medianBlur(coarse, k), (filled.shape[1], filled.shape[0]), interpolation=cv2.INTER_LINEAR)
    d8 = _difference(tiny, bg)
    vals = d8[tmask]
    if vals.size >= 30:
        thr = _noise_threshold(vals)
        fg = cv2.dilate((d8 > thr / LOG_STEP).astype(np.uint8), np.ones((5, 5), np.uint8)) > 0
        table = tmask & ~fg
        if table.sum() >= 0.25 * tmask.sum():
            bg = cv2.GaussianBlur(_push_pull_fill(tiny, table), (0, 0), 1.5)
    return full(bg)


# a shadow on the mat: log lightness vs the zone between these, log-chroma distance to the zone below this
# (no darker than a contact shadow makes it, SHADOW_DEPTH: with the zone's red balanced right under a lamp that
# clips the white patch's red, a black butt on the dark red zone is only about 0.85 darker than it)
SHADOW_L, SHADOW_MAX_L, SHADOW_CHROMA = -0.8, -0.05, 0.45
GAP_MAX_L, GAP_CHROMA = 0.15, 0.3  # the same, measured against the mat's own zone-fill reading
# a piece darker than its table whose chroma reaches this share of the table's own (log R/G, log B/G), along
# the table's direction, is the zone's colour at least as deep as the zone: the deep shade of a gap or a
# contact shadow, where the little light left is the cloth's own (no butt's paint is the zone's hue that deep:
# pinks on the red zone reach 0.62 of its chroma, blacks 0.57)
ZONE_DEEPER = 1.0
SOFT_EDGE = 0.12  # a piece's steepest edge (log units per work pixel) over its contrast: butts >= 0.18
SOFT_REL = 0.55  # ...and glare rises at under this share of the frame's median piece (butts >= 0.65)
SOFT_MIN_PIECES = 3  # the frame's median is used from this many small pieces on (butts are most of them)
THR_MADS = 6.0  # a butt differs from the table by more than this many noise deviations...
MIN_THR = 0.2  # ...and by at least this log-ratio in one channel
MAX_PER_BLOB = 24  # a blob that would hold more butts than this is something else
MAX_BLOBS = 60  # at most 20 butts are drawn; beyond this many blobs the rest is clutter or noise
DIFF_EPS = 6.0  # the darkest levels are noisy: keep them from dominating the log ratios
LOG_STEP = float(np.log(255 + DIFF_EPS) - np.log(DIFF_EPS)) / 255  # log units per level of the log image
_LOG8 = np.round((np.log(np.arange(256, dtype=np.float32) + DIFF_EPS) - np.log(DIFF_EPS)) / LOG_STEP
                 ).astype(np.uint8)


def _difference(small: np.ndarray, bg: np.ndarray) -> np.ndarray:
    """Largest per-channel log-ratio between the frame and its table colour (in LOG_STEP units)."""
    d = cv2.split(cv2.absdiff(cv2.LUT(small, _LOG8), cv2.LUT(bg, _LOG8)))
    return cv2.max(cv2.max(d[0], d[1]), d[2])


def _blobs8(mask: np.ndarray) -> tuple[int, np.ndarray, np.ndarray]:
    """8-connected components and each one's area (``_areas``): Grana's block scan gives the same
    labels as OpenCV's default and runs 1.5-3x faster on one core."""
    n, lab = cv2.connectedComponentsWithAlgorithm(mask, 8, cv2.CV_32S, cv2.CCL_GRANA)
    return n, lab, _areas(lab, n)


def _components(mask: np.ndarray, connectivity: int) -> tuple[int, np.ndarray, np.ndarray]:
    """``cv2.connectedComponentsWithStats(mask, connectivity=connectivity)``'s count, labels and area
    column (``_areas``), for the callers that use no other stat."""
    n, lab = cv2.connectedComponents(mask, connectivity=connectivity)
    return n, lab, _areas(lab, n)


def _areas(lab: np.ndarray, n: int) -> np.ndarray:
    """Each label's pixel count (int32, label 0 too), OpenCV's CC_STAT_AREA column: on a blob's window
    its stats cost about three times the labelling (15 against 4 us), the count about 2 us."""
    return np.bincount(lab.ravel(), minlength=n).astype(np.int32)


def _pieces8(mask: np.ndarray, min_area: float) -> tuple[int, np.ndarray, np.ndarray]:
    """``_blobs8`` for a large mask whose small pieces do not matter: the same labels and, for every
    piece of at least ``min_area`` pixels, the same stats (rows of smaller pieces and of the
    background stay zero). OpenCV's stats cost several times the labelling; here each piece's box
    comes from its outline and its area is counted inside that box, only where the box can hold it."""
    n, lab = cv2.connectedComponentsWithAlgorithm(mask, 8, cv2.CV_32S, cv2.CCL_GRANA)
    stats = np.zeros((n, 5), np.int32)
    if n <= 1:
        return n, lab, stats
    # every piece (one inside another's hole too) has one outer outline at the top of a two-level tree
    outlines, tree = cv2.findContours(mask, cv2.RETR_CCOMP, cv2.CHAIN_APPROX_SIMPLE)
    for k in np.nonzero(tree[0][:, 3] < 0)[0]:
        c = outlines[k]
        x, y, bw, bh = cv2.boundingRect(c)
        if bw * bh < min_area:
            continue
        i = lab[c[0, 0, 1], c[0, 0, 0]]
        area = int(np.count_nonzero(lab[y:y + bh, x:x + bw] == i))
        if area >= min_area:
            stats[i] = (x, y, bw, bh, area)
    return n, lab, stats


def _blocks_first(own: np.ndarray, x: int, y: int, sx: int) -> tuple[int, int]:
    """The first 2x2 block (block row, block column, in raster order) holding a pixel of a piece: its
    own pixels ``own`` in its box at ``x``, ``y`` (its top row at ``y``), ``sx`` the column of its
    top row's first pixel. OpenCV's block scan (Grana, one thread) numbers the pieces in this order:
    a new label for each block that touches no block labelled before, the final labels in the order
    of their first ones (and a 2x2 block never holds two 8-connected pieces)."""
    if y % 2 or own.shape[0] == 1:
        return y // 2, sx // 2  # the block row holds the piece's top row only
    return y // 2, (int(np.argmax(own[:2].any(axis=0))) + x) // 2


def _blobs_in_boxes(mask: np.ndarray, min_area: int) -> tuple[np.ndarray, dict[int, np.ndarray]]:
    """``_pieces8``'s stats of the pieces of at least ``min_area`` pixels without labelling the
    whole mask: the pieces are numbered 1, 2, ... in the order of OpenCV's labels (``_blocks_first``),
    stats rows (x, y, w, h, area) with row 0 zero, and each piece's own pixels in its box (``lab[box]
    == i``, bool). Found from their outer outlines and labelled inside their boxes (a box holds all of
    its piece, and no other piece joins it there), as ``_pieces_between``."""
    outlines, tree = cv2.findContours(mask, cv2.RETR_CCOMP, cv2.CHAIN_APPROX_SIMPLE)
    found = []
    if tree is not None:
        for k in np.nonzero(tree[0][:, 3] < 0)[0].tolist():
            c = outlines[k]
            x, y, bw, bh = cv2.boundingRect(c)
            if bw * bh < min_area:
                continue
            _, blab = cv2.connectedComponentsWithAlgorithm(mask[y:y + bh, x:x + bw], 8, cv2.CV_32S, cv2.CCL_GRANA)
            sx, sy = int(c[0, 0, 0]), int(c[0, 0, 1])  # the piece's first pixel in raster order
            own = blab == blab[sy - y, sx - x]
            area = int(np.count_nonzero(own))
            if area >= min_area:
                found.append((_blocks_first(own, x, y, sx), (x, y, bw, bh, area), own))
    found.sort(key=lambda f: f[0])
    stats = np.zeros((len(found) + 1, 5), np.int32)
    owns = {}
    for i, (_, row, own) in enumerate(found, start=1):
        stats[i] = row
        owns[i] = own
    return stats, owns


def _pieces_between(mask: np.ndarray, lo: float, hi: float) -> list[tuple[int, int, int, int, int, np.ndarray]]:
    """The 8-connected pieces of ``mask`` of ``lo`` to ``hi`` pixels that do not touch its border, as
    (x, y, w, h, area, the piece's own pixels in its box as uint8), in the order of OpenCV's labels
    (what ``_pieces8`` with ``lo`` gives, filtered): ``_pieces_in`` with one range."""
    return _pieces_in(mask, ((lo, hi),))[0]


def _pieces_in(mask: np.ndarray, ranges: tuple[tuple[float, float], ...]
               ) -> list[list[tuple[int, int, int, int, int, np.ndarray]]]:
    """For each (lo, hi) of ``ranges``, ``_pieces_between(mask, lo, hi)``, from one search of the
    mask: found from the pieces' outer outlines and labelled only inside their boxes (a faint pass's
    mask holds many crumbs and few pieces a butt's size), put in the order of OpenCV's labels by their
    first blocks (``_blocks_first``: no labelling of the whole mask)."""
    h, w = mask.shape
    out: list[list] = [[] for _ in ranges]
    outlines, tree = cv2.findContours(mask, cv2.RETR_CCOMP, cv2.CHAIN_APPROX_SIMPLE)
    if tree is None:
        return out
    least = min(lo for lo, _ in ranges)
    for k in np.nonzero(tree[0][:, 3] < 0)[0]:
        c = outlines[k]
        x, y, bw, bh = cv2.boundingRect(c)
        if bw * bh < least or x == 0 or y == 0 or x + bw >= w or y + bh >= h:
            continue
        # the piece is the one piece of its box's labelling that holds its outline's first point
        _, blab = cv2.connectedComponentsWithAlgorithm(mask[y:y + bh, x:x + bw], 8, cv2.CV_32S, cv2.CCL_GRANA)
        sx, sy = int(c[0, 0, 0]), int(c[0, 0, 1])
        own = blab == blab[sy - y, sx - x]
        piece = own.astype(np.uint8)
        area = cv2.countNonZero(piece)
        for found, (lo, hi) in zip(out, ranges, strict=True):
            if lo <= area <= hi and bw * bh >= lo:
                found.append((_blocks_first(own, x, y, sx), (x, y, bw, bh, area, piece)))
    for found in out:
        found.sort(key=lambda f: f[0])
    return [[f[1] for f in found] for found in out]


SPLIT_ROUND = 0.5
PAIR_AREA, PAIR_LONG = 0.6, 0.6  # a round piece this share of a butt's area and length is a pair side by side
PAIR_ROUND = 0.7  # ...unless it fills this much of its enclosing circle (two butts side by side fill ~0.6)
KMEANS_TRIES = 3  # k-means keeps the best of this many seedings


_K3 = np.ones((3, 3), np.uint8)  # the small kernels of the per-blob loops, made once (never written)
_K5 = np.ones((5, 5), np.uint8)


def _split_count(area: float, single: float) -> int:
    """How many butts a blob of ``area`` holds, given one butt's area."""
    return max(1, math.floor(area / single + SPLIT_ROUND))  # as int(np.floor(...)), cheaper


PILE_GAP = 1.5  # a gap between piles is at least this many times the median link between butts
PILE_ROW = 2.0  # the two parts of the second cut lie at least this many butt lengths apart in x
PILE_FOURTH = 3.0  # a third gap this many butt lengths wide: four clusters in view, one of them no pile


def _group_without_mat(centres: np.ndarray, width: float, length: float | None = None) -> np.ndarray:
    """Three piles by single-linkage clustering (cut the two longest minimum-spanning-tree edges);
    piles are numbered left to right as the camera sees them. The second cut is made only when that
    edge is a gap: at least PILE_GAP times the median of all links but the longest, itself included
    (mostly the links inside piles, measured in this frame). Else one pile was not seen (a lone butt missed): two piles
    are kept, and the one missing is taken where the room is widest, left of them, between them or
    right of them (a side's room counts twice: a pile there has room on one side only; ``width``
    is the frame's).

    When the third longest edge is a gap too, PILE_FOURTH butt lengths or more (``length``, the
    frame's median box side), four clusters lie apart: three piles and one that is none (strays at a
    glare spot or the frame's edge, read as butts). One of the three edges is then kept: the one that
    leaves the three piles' middles widest apart across the frame (the largest smallest step between
    their x), as three piles laid side by side are, and as their left-to-right numbers need.

    The second cut must leave its two parts PILE_ROW butt lengths apart in x (their middles): a part
    right above or below the other is a pile's straggler or spread link (a pile of one not found),
    and the next longest link that is a gap is cut instead, or none. With a fourth cluster, the link
    joined back is the one whose parts lie less than PILE_ROW butt lengths apart in x if any (a stray
    right below a pile), else the widest spread as above."""
    n = len(centres)
    if n == 0:
        return np.zeros(0, int)
    if n <= 3:
        order = np.argsort(centres[:, 0])
        out = np.empty(n, int)
        out[order] = np.arange(1, n + 1)
        return out
    d = np.linalg.norm(centres[:, None] - centres[None], axis=2)
    in_tree = np.zeros(n, bool)
    in_tree[0] = True
    best = d[0].copy()
    parent = np.zeros(n, int)
    edges = []
    for _ in range(n - 1):
        cand = np.where(in_tree, np.inf, best)
        j = int(np.argmin(cand))
        edges.append((best[j], parent[j], j))
        in_tree[j] = True
        closer = d[j] < best
        best = np.where(closer, d[j], best)
        parent = np.where(closer, j, parent)
    edges.sort()
    gap = PILE_GAP * float(np.median([e[0] for e in edges[:-1]]))
    cuts = 2 if edges[-2][0] >= gap else 1
    moved = False
    if cuts == 2 and length is not None:
        # the second cut must leave its two parts side by side across the view, as piles in a row are
        # (and as their left-to-right numbers need): a part right above or below the other is a pile's
        # straggler, and the next longest link that is a gap is cut instead (or none: a pile not seen)
        cuts = 1
        for k in range(n - 3, -1, -1):
            if edges[k][0] < gap:
                break
            if _parts_apart(centres, _joined(n, edges[:k] + edges[k + 1: n - 2]), edges[k]) >= PILE_ROW * length:
                if k != n - 3:
                    edges = edges[:k] + edges[k + 1: n - 2] + [edges[k], edges[-1]]
                    moved = True
                cuts = 2
                break
    kept = edges[: n - 1 - cuts]
    if cuts == 2 and not moved and n >= 5 and length is not None and edges[-3][0] >= PILE_FOURTH * length:
        spread, apart = [], []
        for k in (-3, -2, -1):
            roots = _joined(n, edges[: n - 4] + [edges[k]])
            xs = sorted(centres[roots == r, 0].mean() for r in set(roots.tolist()))
            spread.append(min(xs[1] - xs[0], xs[2] - xs[1]))
            apart.append(_parts_apart(centres, _joined(n, edges[: n - 4]), edges[k]))
        pick = int(np.argmax(spread))
        if min(apart) < PILE_ROW * length:
            pick = int(np.argmin(apart))
        kept = edges[: n - 4] + [edges[-3 + pick]]
    roots = _joined(n, kept)
    uniq = list(dict.fromkeys(roots.tolist()))
    xs = [centres[roots == r, 0].mean() for r in uniq]
    numbers = [1, 2, 3]
    if cuts == 1:
        left, right = sorted(xs)
        room = (2 * left, right - left, 2 * (width - right))
        numbers = ([2, 3], [1, 3], [1, 2])[int(np.argmax(room))]
    rank = {r: numbers[i] for i, r in enumerate(np.array(uniq)[np.argsort(xs)].tolist())}
    return np.array([rank[r] for r in roots])


def _parts_apart(centres: np.ndarray, roots: np.ndarray, edge: tuple) -> float:
    """How far apart across the frame (x) lie the middles of the two parts (``roots``, as _joined
    gives them) that a minimum spanning tree's ``edge`` (length, i, j) joins."""
    a, b = roots[edge[1]], roots[edge[2]]
    return float(abs(centres[roots == a, 0].mean() - centres[roots == b, 0].mean()))


def _joined(n: int, edges: list) -> np.ndarray:
    """The root of each of ``n`` points once the ``edges`` (length, a, b) join them (union-find)."""
    labels = np.arange(n)

    def find(i: int) -> int:
        while labels[i] != i:
            labels[i] = labels[labels[i]]
            i = labels[i]
        return i

    for _, a, b in edges:
        labels[find(a)] = find(b)
    return np.array([find(i) for i in range(n)])


def _kmeans(data: np.ndarray, k: int) -> np.ndarray:
    """Cluster labels of ``data`` rows (fitted on at most 600 rows, then every row to its nearest centre)."""
    data = np.ascontiguousarray(data, np.float32)
    fit = data[:: max(1, len(data) // 600)]
    crit = (cv2.TERM_CRITERIA_EPS + cv2.TERM_CRITERIA_MAX_ITER, 12, 0.2)
    _, _, centres = cv2.kmeans(fit, k, None, crit, KMEANS_TRIES, cv2.KMEANS_PP_CENTERS)
    # ((data[:, None] - centres[None]) ** 2).sum(axis=2).argmin(axis=1) without its (N, k, d) arrays:
    # the same sums in the same order, the first nearest centre kept on a tie
    cols = data.T.copy()
    best, labels = None, np.zeros(len(data), np.intp)
    for j, c in enumerate(centres):
        d = (cols[0] - c[0]) ** 2
        for i in range(1, len(c)):
            d += (cols[i] - c[i]) ** 2
        if best is None:
            best = d
        else:
            closer = d < best
            labels[closer] = j
            np.copyto(best, d, where=closer)
    return labels


def _by_position(px: np.ndarray, py: np.ndarray, m: int, single: float) -> np.ndarray:
    """Labels splitting one colour's piece into ``m`` butts by position. A piece about one butt long
    holds butts side by side: it is cut into ``m`` strips along its long axis (k-means would cut it
    across, where it is widest); a longer piece is split by k-means."""
    pts = np.stack([px, py], 1).astype(np.float32)
    (_, _), (rw, rh), angle = cv2.minAreaRect(pts)
    length = float(np.sqrt(single * ASPECT))  # a butt's length, from its area
    if max(rw, rh) < SIDE_BY_SIDE * length:
        t = np.deg2rad(angle + (90.0 if rw >= rh else 0.0))  # the direction across the butts
        across = px * np.cos(t) + py * np.sin(t)
        edges = np.quantile(across, np.arange(1, m) / m)
        return np.searchsorted(edges, across)
    return _kmeans(pts, m)


SIDE_BY_SIDE = 1.2  # a piece shorter than this many butt lengths holds its butts side by side


def _mean3(rows: np.ndarray) -> np.ndarray:
    """``rows.mean(axis=1, keepdims=True)`` of (N, 3) float32 rows as numpy computes it (the three
    added in order in float32, over 3), several times cheaper than numpy's reduction of short rows."""
    return (((rows[:, 0] + rows[:, 1]) + rows[:, 2]) / np.float32(3))[:, None]


def _split(small: np.ndarray, xs: np.ndarray, ys: np.ndarray, k: int, single: float,
           pairs: bool = False, lay: bool = False) -> list[dict[str, Any]]:
    """Split a blob of ``k`` touching butts: first by colour (connected pieces of each colour
    cluster), then pieces still holding several butts by position. ``pairs`` (bare table): each
    piece holding two touching butts (``_piece_pair``) is split again. ``lay`` (bare table): butts
    the colour split and the leftover's cuts lost are laid in the leftover (``_laid_butts``)."""
    logc = np.log(_pixels(small, xs, ys).astype(np.float32) + EPS)
    mean = _mean3(logc)
    feat = np.hstack([logc - mean, mean * 0.6])
    labels = _kmeans(feat, k)
    x0, y0 = xs.min(), ys.min()
    canvas = np.zeros((ys.max() - y0 + 1, xs.max() - x0 + 1), np.uint8)
    out: list[dict[str, Any]] = []
    for j in range(k):
        canvas[:] = 0
        sel = labels == j
        canvas[ys[sel] - y0, xs[sel] - x0] = 1
        canvas = cv2.morphologyEx(canvas, cv2.MORPH_OPEN, _K3)
        n, lab, areas = _components(canvas, 4)
        for i in range(1, n):
            area = areas[i]
            if area < 0.35 * single:
                continue
            py, px = np.nonzero(lab == i)
            px, py = px + x0, py + y0
            m = _split_count(area, single)
            if m == 1:
                out.append({"xs": px, "ys": py, "k": k})
                continue
            sub = _by_position(px, py, m, single)
            for q in range(m):
                s = sub == q
                if s.sum() >= 0.35 * single:
                    out.append({"xs": px[s], "ys": py[s], "k": k})
    out = _merge_concentric(small, out, single)
    if len(out) > k:  # shading split one butt into pieces: keep the k largest
        out = sorted(out, key=lambda p: -len(p["xs"]))
        out = out[:k] + (_apart(out[:k], out[k:], single) if pairs else [])
    elif len(out) < k:
        out += _leftover(xs, ys, out, k - len(out), single, k, lay=lay)
    if pairs:
        out = [q for p in out for q in (_piece_pair(small, p, single) or [p])]
    return out


def _butt_width(single: float) -> float:
    """The width of a butt of area ``single`` (a rectangle ASPECT widths long with round ends)."""
    return float(np.sqrt(single / (ASPECT - 1 + np.pi / 4)))


SPLIT_APART = 1.3  # a piece beyond a pile's count lying this many butt widths from every kept piece is a butt


def _apart(kept: list[dict[str, Any]], more: list[dict[str, Any]], single: float) -> list[dict[str, Any]]:
    """The pieces of ``more`` (a split's pieces beyond its count, largest first) whose middle lies at
    least SPLIT_APART butt widths (the frame's, from ``single``) from the middle of every piece kept
    (``kept``, then each one taken): a pale butt on pale wood adds less than a butt's area to its
    pile, so the pile counts one butt short, while a butt's own shading crumbs lie within a width
    of its middle (bare table)."""
    apart = SPLIT_APART * _butt_width(single)
    mids = [(p["xs"].mean(), p["ys"].mean()) for p in kept]
    out = []
    for p in more:
        m = (p["xs"].mean(), p["ys"].mean())
        if all(np.hypot(m[0] - a, m[1] - b) >= apart for a, b in mids):
            out.append(p)
            mids.append(m)
    return out


def _piece_pair(small: np.ndarray, p: dict[str, Any], single: float) -> list[dict[str, Any]] | None:
    """A pile's piece holding two touching butts (``_two_in_one``'s test on the piece's own rectangle)."""
    pts = np.stack([p["xs"], p["ys"]], 1).astype(np.float32)
    (_, _), (rw, rh), _ = cv2.minAreaRect(pts)
    half = 0.5 * _butt_width(single)
    c = {"area": float(len(p["xs"])), "long": max(rw, rh) + 1, "half": (min(rw, rh) + 1) / 2, "pts": (p["xs"], p["ys"])}
    return _two_in_one(small, c, single, half)


CRUMB = 0.4  # a lone butt-shaped piece under this share of the largest one's area is a crumb
MERGE_NEAR = 0.7
MERGE_CHROMA = 0.15  # log-ratio: the rim and ridge of one butt differ in lightness, not in chroma


def _same_chroma(small: np.ndarray, pa: dict[str, Any], pb: dict[str, Any]) -> bool:
    """Whether two pieces have about the same chroma (their mean colours' channel log-ratios)."""
    # the same means as small[ys, xs].astype(np.float32).mean(axis=0), cheaper
    la = np.log(_mean32(_pixels(small, pa["xs"], pa["ys"])) + EPS)
    lb = np.log(_mean32(_pixels(small, pb["xs"], pb["ys"])) + EPS)
    return float(np.abs((la - la.mean()) - (lb - lb.mean())).max()) < MERGE_CHROMA


def _merge_concentric(small: np.ndarray, pieces: list[dict[str, Any]], single: float) -> list[dict[str, Any]]:
    """Pieces of a split whose middles lie within MERGE_NEAR of a butt's width of each other are one
    butt: a gray butt with its contact shadow counts two butts' area, and the colour split cuts it
    along its length (two halves half a width apart) or into rim and ridge (two butts side by side
    lie a whole width apart). Only pieces of one chroma are joined: a butt beside a glare spot is not."""
    if len(pieces) < 2:
        return pieces
    near = MERGE_NEAR * _butt_width(single)
    pieces = list(pieces)
    merged = True
    while merged and len(pieces) > 1:
        merged = False
        # the same as .mean(): the integer sums are exact (cheaper than numpy's mean of a small array)
        mids = np.float32([(p["xs"].sum() / len(p["xs"]), p["ys"].sum() / len(p["ys"])) for p in pieces])
        d = np.linalg.norm(mids[:, None] - mids[None], axis=2) + np.eye(len(pieces), dtype=np.float32) * 1e9
        a, b = np.unravel_index(int(np.argmin(d)), d.shape)
        pa, pb = pieces[a], pieces[b]
        if d[a, b] < near and _same_chroma(small, pa, pb):
            pieces[a] = {"xs": np.concatenate([pa["xs"], pb["xs"]]), "ys": np.concatenate([pa["ys"], pb["ys"]]),
                         "k": pa["k"]}
            del pieces[b]
            merged = True
    return pieces


LEFT_AREA = 0.6  # a piece the colour split left over holds a butt from this share of one butt's area on


def _leftover(xs: np.ndarray, ys: np.ndarray, done: list[dict[str, Any]], missing: int, single: float,
              k: int, lay: bool = False) -> list[dict[str, Any]]:
    """Butts the colour split lost (one colour's shading cut into crumbs: two gray butts side by side
    fall into a ridge cluster and a rim cluster, neither as big as a butt): the blob's pixels no piece
    took, split by position into as many butts as their area holds, at most ``missing``."""
    x0, y0 = xs.min(), ys.min()
    canvas = np.zeros((ys.max() - y0 + 1, xs.max() - x0 + 1), np.uint8)
    canvas[ys - y0, xs - x0] = 1
    for p in done:
        canvas[p["ys"] - y0, p["xs"] - x0] = 0
    canvas = cv2.morphologyEx(canvas, cv2.MORPH_OPEN, np.ones((3, 3), np.uint8))
    n, lab, stats, _ = cv2.connectedComponentsWithStats(canvas, connectivity=4)
    out: list[dict[str, Any]] = []
    for i in np.argsort(-stats[1:, cv2.CC_STAT_AREA]) + 1:
        area = stats[i, cv2.CC_STAT_AREA]
        if area < LEFT_AREA * single or len(out) >= missing:
            break
        py, px = np.nonzero(lab == i)
        px, py = px + x0, py + y0
        m = min(_split_count(area, single), missing - len(out))
        sub = _by_position(px, py, m, single) if m > 1 else np.zeros(len(px), int)
        got = [(px[sub == q], py[sub == q]) for q in range(m)]
        got = [(qx, qy) for qx, qy in got if _butt_shaped(qx, qy, single)]
        if len(got) < m:  # butts touching end to side, or a butt with a strand of shadow: parted at their necks
            bx, by, bw, bh = stats[i, :4]
            cores = _by_cores((lab[by:by + bh, bx:bx + bw] == i).astype(np.uint8), single, m)
            # a part that, grown back to a whole butt, holds most of a piece already found (a rim the
            # colour split cut out) is that butt again
            grow = int(2 * np.ceil(0.5 * _butt_width(single))) + 1
            kept = []
            for qx, qy in cores:
                whole = np.zeros_like(canvas)
                whole[qy + by, qx + bx] = 1
                whole = cv2.dilate(whole, cv2.getStructuringElement(cv2.MORPH_ELLIPSE, (grow, grow)))
                if all(whole[p["ys"] - y0, p["xs"] - x0].mean() < 0.5 for p in done + out):
                    kept.append((qx + bx + x0, qy + by + y0))
            if len(kept) > len(got):
                got = kept
            if lay and len(got) < m:
                laid = _laid_butts((lab[by:by + bh, bx:bx + bw] == i).astype(np.uint8), single, m)
                if len(laid) > len(got):
                    got = [(qx + bx + x0, qy + by + y0) for qx, qy in laid]
        out += [{"xs": qx, "ys": qy, "k": k} for qx, qy in got]
    return out


LAY_IN = 0.8  # a butt laid in a leftover piece lies this share inside the piece less the butts laid before it
LAY_STEP = 15  # degrees between the directions it is laid in
LAY_TIE = 0.02  # ...and of the places within this share of a butt of the best fit, the farthest from the piece's middle


def _laid_butts(region: np.ndarray, single: float, m: int) -> list[tuple[np.ndarray, np.ndarray]]:
    """Up to ``m`` butts in a piece the colour split left over (``region``, a window), laid one by one:
    butts of one colour touching side by side or end to side (two grays, two blacks) fall into a rim
    and a ridge cluster, neither a butt, and their piece has no neck to part them at. The frame's butt
    (its area ``single``, ASPECT widths long, round ends) is laid every LAY_STEP degrees where it lies
    most inside the piece, of those places within LAY_TIE of the best the farthest from the middle of
    what is left (the butts at a pile's outside first, not one laid across two halves), and is a butt
    when it lies LAY_IN inside what is left: the butts laid before it are taken out first, so two
    butts laid overlap by at most 1 - LAY_IN of a butt, and a butt's contact shadow (a band thinner
    than a butt) holds none. Returns each butt's pixels in the window (the laid butt within the piece)."""
    width = _butt_width(single)
    length = ASPECT * width
    k = int(np.ceil(length / 2)) + 1
    gy, gx = np.mgrid[-k:k + 1, -k:k + 1].astype(np.float32)
    seg = (length - width) / 2
    butts = []
    for deg in range(0, 180, LAY_STEP):
        t = np.deg2rad(deg)
        along = gx * np.float32(np.cos(t)) + gy * np.float32(np.sin(t))
        across = gy * np.float32(np.cos(t)) - gx * np.float32(np.sin(t))
        butts.append((np.hypot(np.maximum(np.abs(along) - seg, 0), across) <= width / 2).astype(np.float32))
    size = float(butts[0].sum())
    pad = 2 * k  # every place where a butt may lie LAY_IN inside has its whole butt in the padded window
    left = cv2.copyMakeBorder(region, pad, pad, pad, pad, cv2.BORDER_CONSTANT, value=0)
    out: list[tuple[np.ndarray, np.ndarray]] = []
    for _ in range(m):
        lf = left.astype(np.float32)
        fits = [cv2.filter2D(lf, -1, b, borderType=cv2.BORDER_CONSTANT) for b in butts]
        best = max(float(f.max()) for f in fits)
        if best < LAY_IN * size:
            break
        ys, xs = np.nonzero(left)
        my, mx = ys.mean(), xs.mean()
        keep, far = (0, 0, 0), -1.0
        for j, f in enumerate(fits):
            py, px = np.nonzero(f >= best - LAY_TIE * size)
            if len(px):
                d = (px - mx) ** 2 + (py - my) ** 2
                q = int(np.argmax(d))
                if d[q] > far:
                    far, keep = float(d[q]), (j, int(py[q]), int(px[q]))
        j, cy, cx = keep
        laid = np.zeros_like(left)
        laid[cy - k:cy + k + 1, cx - k:cx + k + 1] = butts[j] > 0
        laid &= left
        qy, qx = np.nonzero(laid)
        out.append((qx - pad, qy - pad))
        left[laid > 0] = 0
    return out


CORE_GROW = 0.0  # a worn-down core is grown back by its depth plus this many pixels (more kept the shadow fringe)
CORE_DEPTHS = (0.5, 0.7, 0.9, 1.1)  # shares of a butt's half width a leftover piece is worn down by to part its butts


def _by_cores(region: np.ndarray, single: float, m: int) -> list[tuple[np.ndarray, np.ndarray]]:
    """Up to ``m`` butt-shaped parts of a piece the colour split left over (``region``, a window),
    as pixel coordinates in it: the piece worn down by a share of a butt's half width falls apart at
    the narrow necks where butts touch end to side (and loses thin strands of shadow); each core
    grown back by as much, within the piece, its pixels going to the nearest core, is a butt when it
    is butt-shaped. The depth that gives the most butts is kept (the shallowest of equals)."""
    half = 0.5 * _butt_width(single)
    dist = cv2.distanceTransform(_pad1(region), cv2.DIST_L2, 3)[1:-1, 1:-1]
    best: list[tuple[np.ndarray, np.ndarray]] = []
    for share in CORE_DEPTHS:
        depth = share * half
        n, lab = cv2.connectedComponents((dist > depth).astype(np.uint8), connectivity=8)
        if n < 2 or n - 1 > 2 * m + 2:
            continue
        near = np.full(region.shape, np.inf, np.float32)
        owner = np.zeros(region.shape, np.int32)
        for j in range(1, n):
            dj = cv2.distanceTransform((lab != j).astype(np.uint8), cv2.DIST_L2, 3)
            closer = dj < near
            near[closer] = dj[closer]
            owner[closer] = j
        owner[(region == 0) | (near > depth + CORE_GROW)] = 0
        parts = []
        for j in range(1, n):
            qy, qx = np.nonzero(owner == j)
            if _butt_shaped(qx, qy, single):
                parts.append((qx, qy))
        if len(parts) > len(best):
            best = sorted(parts, key=lambda q: -len(q[0]))[:m]
    return best


FAINT_RING = 0.5  # a faint butt's surroundings differ from the table by under this share of the butt...
FAINT_TOP = 0.9  # ...and the butt's middle differs more than this share of its surroundings


def _stands_out(d8: np.ndarray, xs: np.ndarray, ys: np.ndarray, single: float, found: np.ndarray) -> bool:
    """Whether a piece's difference from the table drops at its outline (a butt's edge is sharp), not
    beyond it too (a vignetted corner, a lamp's falloff or a wood stain fade out slowly), and stands
    above nearly all of its surroundings (a clump of sensor noise in a dark corner is only the top of
    them). Butts already ``found`` are not counted as surroundings."""
    r = max(2, int(round(0.25 * np.sqrt(single / ASPECT))))
    x0, y0 = max(0, int(xs.min()) - r - 2), max(0, int(ys.min()) - r - 2)
    x1, y1 = min(d8.shape[1], int(xs.max()) + r + 3), min(d8.shape[0], int(ys.max()) + r + 3)
    piece = np.zeros((y1 - y0, x1 - x0), np.uint8)
    piece[ys - y0, xs - x0] = 1
    near = cv2.dilate(piece, _K3)
    ring = (cv2.dilate(piece, np.ones((2 * r + 3, 2 * r + 3), np.uint8)) > 0) & (near == 0) & (found[y0:y1, x0:x1] == 0)
    win = d8[y0:y1, x0:x1]
    around = win[ring]
    if around.size < 8:
        return False
    inside = float(median(win[piece > 0]))
    return float(median(around)) < FAINT_RING * inside and float(percentile(around, 100 * FAINT_TOP)) < inside


def _butt_shaped(px: np.ndarray, py: np.ndarray, single: float) -> bool:
    """A piece about one butt's area that fills most of its enclosing rectangle, a butt's shape long."""
    if not LEFT_AREA * single <= len(px) <= 1.5 * single:
        return False
    (_, _), (rw, rh), _ = cv2.minAreaRect(np.stack([px, py], 1).astype(np.float32))
    long_side, short_side = max(rw, rh) + 1, max(1.0, min(rw, rh)) + 1
    return 1.8 <= long_side / short_side <= 5.0 and len(px) >= 0.65 * long_side * short_side


def _median_int(v: np.ndarray) -> float:
    """``float(median(v))`` of a 1-D integer array (the middle value, or the mean of the two middle
    ones in float64, exact for integers), partitioned in its own type: no float64 copy."""
    k = len(v) // 2
    if len(v) % 2:
        return float(np.partition(v, k)[k])
    two = np.partition(v, (k - 1, k))
    return (float(two[k - 1]) + float(two[k])) / 2


def _pad1(mask: np.ndarray) -> np.ndarray:
    """``mask`` with a one-pixel border of zeros (np.pad does the same several times slower)."""
    return cv2.copyMakeBorder(mask, 1, 1, 1, 1, cv2.BORDER_CONSTANT, value=0)


SHADOW_DEPTH = 0.8  # a contact shadow takes at most this much log lightness away (about 55 % of the light)
SHADOW_CHROMA_MADS = 4.0  # ...and keeps the table's chroma within this many noise deviations
DARK_BODY_CHROMA = 2.0  # a dark butt's pixels keep within this many times the shadow's chroma tolerance...
DARK_BODY_CRUMB = 0.5  # ...and its crumbs left as not shade are under this share of a butt's area


def _drop_shadows(planes: list[tuple[np.ndarray, np.ndarray]], mask: np.ndarray, blobs: list[int],
                  stats: np.ndarray, added: dict[int, np.ndarray], subs: dict[int, np.ndarray],
                  bare: bool = False) -> list[float]:
    """Take contact shadows out of the blobs (in place in ``mask``): pixels darker than the table
    but of its own chroma. They join touching piles and fatten butts; a blob made only of such
    pixels (a gray or black butt on a table of its own hue) is left whole, and so is a removed piece
    as thick as a butt. Returns each cleaned blob's half width (from the distance to its edge), and
    fills ``added`` with each blob's pixels brighter than the table in every channel (for the glare).
    ``subs`` holds each blob's own pixels in its box (its label's, before anything is taken out;
    ``_blobs_in_boxes``). ``planes`` pairs each channel of the work image with the table estimate's,
    through the _LOG8 table."""
    halves: list[float] = []
    if not blobs:
        return halves
    later: list[tuple] = []  # (bare table) the blobs whose dark bodies are looked for once every half width is known
    unit = 3 / LOG_STEP
    for i in blobs:
        x, y, bw, bh, area = stats[i].tolist()  # Python ints: numpy scalars cost more in every use
        sub = subs[i]
        # in units of LOG_STEP / 3: the lightness change (sum of the channels' log changes) and the
        # chroma change (largest distance of one channel from their mean). Channel by channel: OpenCV
        # splits a 16-bit image several times slower than an 8-bit one
        # the signed change of each channel in the blob's window (cv2.subtract(..., dtype=CV_16S), by
        # numpy: half the cost; a whole image's int16 planes were fresh memory every read)
        d = [np.subtract(a[y:y + bh, x:x + bw], b[y:y + bh, x:x + bw], dtype=np.int16) for a, b in planes]
        total = cv2.add(cv2.add(d[0], d[1]), d[2])
        added[i] = sub & (cv2.min(cv2.min(d[0], d[1]), d[2]) > 0)
        # (numpy's integer multiply: OpenCV scales a 16-bit image through floats, ten times slower)
        chroma = cv2.max(cv2.max(cv2.absdiff(np.multiply(d[0], 3), total), cv2.absdiff(np.multiply(d[1], 3), total)),
                         cv2.absdiff(np.multiply(d[2], 3), total))
        # the chroma noise of this blob's surroundings sets how close to the table's chroma is "the same"
        step = max(2, int(math.sqrt(bw * bh / 400)))  # a few hundred samples are enough
        ring = ~sub[::step, ::step] & (total[::step, ::step] > -0.05 * unit)  # (only at the samples)
        ring_vals = chroma[::step, ::step][ring]
        noise = _median_int(ring_vals) / unit if ring_vals.size > 8 else 0.03
        tol = max(0.06, SHADOW_CHROMA_MADS * noise) * unit
        shade = sub & (total < 0) & (total > -SHADOW_DEPTH * unit) & (chroma < tol)
        core = sub & ~shade
        n_core = int(np.count_nonzero(core))
        if n_core < 0.3 * area:
            core = sub
        elif n_core > 0.97 * area and len(halves) >= 6:
            continue  # hardly any shadow on it, and enough blobs measured the butts' width
        core8 = cv2.morphologyEx(core.astype(np.uint8), cv2.MORPH_OPEN, _K3)
        if not np.count_nonzero(core8):
            continue
        cdist = cv2.distanceTransform(_pad1(core8), cv2.DIST_L2, 3)[1:-1, 1:-1]
        inside = cdist[core8 > 0]
        q = int(0.95 * (inside.size - 1))
        half = float(np.partition(inside, q)[q])  # the butts' half width, from their cores
        halves.append(half)
        removed = (sub & (core8 == 0)).astype(np.uint8)
        if not np.count_nonzero(removed):
            continue
        if bare:  # the dark-body step waits for every blob's half width (below)
            later.append((x, y, bw, bh, sub, total, chroma, tol, core8, removed, half))
            continue
        _dark_body(mask, x, y, bw, bh, sub, total, chroma, tol, core8, removed, half)
    if later:
        # on a bare table a blob's core may hold a glare halo or light butts side by side: its 95th
        # percentile depth is then two to four butts' half widths, and no dark butt in it is as thick
        # as that. The frame's butts (the median blob's core) set the thickness there
        frame_half = statistics.median(halves)
        for x, y, bw, bh, sub, total, chroma, tol, core8, removed, half in later:
            _dark_body(mask, x, y, bw, bh, sub, total, chroma, tol, core8, removed,
                       min(half, SHADOW_HALF_CAP * frame_half), close=True)
    return halves


SHADOW_HALF_CAP = 1.0  # (bare table) a blob's dark bodies are as thick as at most this many of the frame's butt half widths


def _dark_body(mask: np.ndarray, x: int, y: int, bw: int, bh: int, sub: np.ndarray, total: np.ndarray,
               chroma: np.ndarray, tol: float, core8: np.ndarray, removed: np.ndarray, half: float,
               close: bool = False) -> None:
    """The rest of _drop_shadows for one blob (in its box at ``x, y``): its removed pixels that make a
    dark butt's body go back to its core; the others are taken out of ``mask``. ``close`` (bare table):
    the body's one-pixel holes are filled before its thickness is measured."""
    # a dark butt of about the table's hue (gray or black on a neutral table, black on dark wood):
    # its pixels hover about the chroma tolerance and its rim is darker than a shadow, so the
    # shade test cuts it into removed pixels and crumbs of core, neither as thick as a butt. Its
    # removed pixels with the dark crumbs of near the table's chroma make one body as thick as a
    # butt; a contact shadow is a thin band. The removed pixels a disc of 0.75 half widths in
    # such a body covers go back (a core a butt's size, a light or coloured butt, is no crumb:
    # its shadow band stays out)
    _, clab, careas = _components(core8, 8)
    crumb = careas < DARK_BODY_CRUMB * (2 * half) ** 2 * ASPECT
    crumb[0] = False
    if np.count_nonzero(crumb):
        body = ((removed > 0) | (crumb[clab] & (total < 0) & (chroma < DARK_BODY_CHROMA * tol))).astype(np.uint8)
    else:
        body = removed  # no crumbs: the removed pixels alone
    if close:
        # (bare table) a dark butt's pixels near the threshold flicker in and out of the mask and the
        # shade test: its body is full of one-pixel holes, and no point of it lies 0.75 half widths
        # from one. A 3x3 closing fills them; a contact shadow's band gains no thickness by it
        body = cv2.morphologyEx(body, cv2.MORPH_CLOSE, _K3)
    thick = (cv2.distanceTransform(_pad1(body), cv2.DIST_L2, 3)[1:-1, 1:-1] >= 0.75 * half).astype(np.uint8)
    # the removed pieces as thick as a butt are looked for only where the body has such a point: each
    # removed piece lies inside the body, so nearer its outline everywhere (none goes back otherwise)
    if np.count_nonzero(thick):
        r = int(round(0.75 * half))
        disc = cv2.dilate(thick, cv2.getStructuringElement(cv2.MORPH_ELLIPSE, (2 * r + 1, 2 * r + 1)))
        # kept apart from the butts a core's size it touches (a pile's colour split would have one
        # more butt to cut, and cuts a shaded butt in two first): the pixels next to them stay out
        near = cv2.dilate(((core8 > 0) & ~crumb[clab]).astype(np.uint8), _K5)
        core8[(disc > 0) & (removed > 0) & (near == 0)] = 1
        removed = (sub & (core8 == 0)).astype(np.uint8)
        if not removed.any():
            return  # every pixel went back
        m, rlab, rareas = _components(removed, 4)
        # a shadow is a thin band along a butt; a piece as thick as a butt is a dark butt. A point
        # whose distance reaches 0.75 half widths has every pixel within K diagonal steps (1.3693
        # each in OpenCV's 3x3 L2 map) removed too: fewer removed pixels than that square need no map.
        steps = int(np.ceil(0.75 * half / 1.3693)) - 1
        areas = rareas[1:]
        if m > 1 and areas.max() >= 20 and areas.sum() >= (2 * steps + 1) ** 2:
            rdist = cv2.distanceTransform(_pad1(removed), cv2.DIST_L2, 3)[1:-1, 1:-1]
            # the pieces as thick as a butt (counted, not sorted: np.unique's sort cost more)
            back = np.bincount(rlab[rdist >= 0.75 * half], minlength=m) > 0
            back &= rareas >= 20
            back[0] = False
            if back.any():
                core8[back[rlab]] = 1
    win = mask[y:y + bh, x:x + bw]
    win[sub & (core8 == 0)] = 0


GLARE_DISC = 2.4  # a glare halo is broader than a disc this many butt widths across; a butt is not
GLARE_STEEP = 0.14  # an outline rises faster than this share of the blob's contrast per pixel (butts >= 0.18)
GLARE_ROUND = 0.7  # a piece of added light filling this much of its enclosing circle is a glare spot
GLARE_CORE = 2.0  # no point of a butt lies farther than its half width from its outline; glare's middle does


GLARE_KEEP_MADS = 4.0  # a pixel under glare whose change leaves the glare's colour by this many noise units...
GLARE_KEEP_MIN = 0.12  # ...and by this share of the glare's own strength there is a butt under the glare


def _under_glare(img: np.ndarray, table: np.ndarray, glare: np.ndarray, half: float,
                 beside: np.ndarray | None = None, free: np.ndarray | None = None,
                 searched: np.ndarray | None = None, unclipped: bool = False) -> np.ndarray:
    """The pixels of ``glare`` (a window's boolean mask) where a butt lies under the glare; the glare
    is taken off those pixels of ``img`` (in place) so the butt's colour can be read. Glare adds
    light of one colour (the lamp's): measured from the glare itself as the median direction of the
    change from the table over its strongest quarter. A butt under it adds its own colour's change on
    top, which leaves that direction; a pink butt on the red zone hardly does and is not found. Lit
    pixels ``beside`` the glare (a butt whose outline kept it out of the glare) are looked at too.
    ``unclipped`` (bare table): the glare's colour is measured only where the camera clipped no
    channel, a clipped channel counts only where it holds more than the glare's colour gives, and a
    pixel clipped in every channel is never kept (see _clip_blind)."""
    d = img.astype(np.float32) - table.astype(np.float32)
    clip = blind = None
    if unclipped:
        clip = img >= CLIPPED  # per channel
        lamp, blind = _clip_blind(clip, d, glare, beside, half)
        if np.count_nonzero(lamp) < 4 * half * half:
            return np.zeros_like(glare)  # too little of it unclipped: its colour is not known
        g = d[lamp]
    else:
        g = d[glare]
    if len(g) < 20:
        return np.zeros_like(glare)
    strength = g.sum(axis=1)
    u = median(g[strength >= percentile(strength, 75)], axis=0)  # common.percentile: np.percentile's value and type
    norm = float(np.linalg.norm(u))
    if norm < 1e-3:
        return np.zeros_like(glare)
    u /= norm
    if clip is not None and clip.any():
        # a clipped channel is a lower bound: the glare's strength is read on the others, and falling
        # short of the glare's colour in a clipped channel is no colour of the pixel's own
        w =  np.where(clip, np.float32(0), np.float32(1))
        along = (d * w) @ u / np.maximum((w * u * u).sum(axis=2), 1e-3)
        rest = d - along[..., None] * u
        np.maximum(rest, np.where(clip, np.float32(0), rest), out=rest)
    else:
        along = d @ u
        rest = d - along[..., None] * u
    off = np.linalg.norm(rest, axis=2)
    # the glare's own spread (butts under it are the upper part), where its colour was measured
    noise = float(percentile(off[glare if blind is None else lamp], 25))
    seen = glare if beside is None else glare | beside
    back = seen & (off > GLARE_KEEP_MADS * noise) & (off > GLARE_KEEP_MIN * np.maximum(along, 1.0))
    if blind is not None:
        back &= ~blind
    back = back.astype(np.uint8)
    back = cv2.morphologyEx(back, cv2.MORPH_OPEN, _K3)
    n, lab, areas = _blobs8(back)
    big = areas >= (2 * half) ** 2
    big[0] = False
    keep = big[lab]  # the same as np.isin, by lookup
    if free is not None:  # the mat: a butt of the glare's own colour (pink on the red zone), by its outline
        keep |= _sharp_under_glare(along, glare, free, half, searched)
    if not keep.any():
        return np.zeros_like(glare)
    # take the glare off the butt: its strength there is spread in from what lies within a butt's
    # width around the butt, the glare and (``free``) the table where the glare fades under the
    # threshold: a butt on the glare's flank is not given the strength of the glare's middle, which
    # lies on one side of it only (it read too dark: black)
    sigma = max(1.0, 2 * half)
    if free is None:
        lit = (glare & ~keep).astype(np.float32)
    else:
        reach = int(round(2 * half)) * 2 + 1
        ring = cv2.dilate(keep.astype(np.uint8), cv2.getStructuringElement(cv2.MORPH_ELLIPSE, (reach, reach))) > 0
        lit = (ring & (glare | free) & ~keep).astype(np.float32)
    spread = cv2.GaussianBlur(np.maximum(along, 0) * lit, (0, 0), sigma) / np.maximum(
        cv2.GaussianBlur(lit, (0, 0), sigma), 1e-3)
    img[keep] = np.clip(img[keep].astype(np.float32) - spread[keep][:, None] * u, 0, 255).astype(np.uint8)
    return keep


GLARE_SHARP_RISE = 0.2  # a butt under glare stands above the glare's smooth course by this share of the glare's strength
GLARE_SHARP_GROW = 0.5  # ...its piece reaches out to where it stands this share of its own rise above it
GLARE_SHARP_EDGE = 0.4  # ...and its outline rises by this share of its rise per pixel (a glare's flank: under 0.3)
GLARE_SHARP_AREA = 2.0  # ...over at least this many squared half widths (a butt's part under the glare)
GLARE_SHARP_LONG = 1.6  # ...and is this many times as long as it is wide (a glare's clipped core is round)
GLARE_SHARP_SOLID = 0.75  # ...and fills this share of its convex hull (a butt is convex; a bright ring is not)
GLARE_SHARP_OPEN = 0.5  # ...and at most this share of its rim outside the glare lies where the search ended


def _window1(img: np.ndarray, x: int, y: int, bw: int, bh: int) -> np.ndarray:
    """The window ``img[y:y + bh, x:x + bw]`` one pixel wider on every side (0 beyond the image)."""
    out = np.zeros((bh + 2, bw + 2), img.dtype)
    h, w = img.shape[:2]
    x0, y0, x1, y1 = max(0, x - 1), max(0, y - 1), min(w, x + bw + 1), min(h, y + bh + 1)
    out[y0 - y + 1:y1 - y + 1, x0 - x + 1:x1 - x + 1] = img[y0:y1, x0:x1]
    return out


def _hull_room(xs: np.ndarray, ys: np.ndarray) -> float:
    """The pixels the convex hull of a piece's pixels (``xs``, ``ys``) holds: Pick's count for a pixel
    outline, its area plus half its perimeter plus one. A convex piece fills it; a bent one does not."""
    hull = cv2.convexHull(np.stack([xs, ys], 1).astype(np.int32))
    return cv2.contourArea(hull) + 0.5 * cv2.arcLength(hull, True) + 1


def _sharp_under_glare(along: np.ndarray, glare: np.ndarray, free: np.ndarray, half: float,
                       searched: np.ndarray | None = None) -> np.ndarray:
    """The pieces of ``glare`` (a window's boolean mask) where a butt of the glare's own colour lies
    (a pink butt on the mat's red zone adds nearly what the lamp adds, so its colour does not leave
    the glare's): ``along``, the change from the table along the glare's colour, is smooth over a
    butt's width where there is only glare (a halo fades out), and a butt under it stands above that
    course with a sharp outline. The rise over the course is measured against the glare's own
    strength (its 90th percentile), and a piece is kept only where its outline is steep.

    Two kinds of piece rise over the course and are no butt: the bright ring of a halo around a butt
    lying on the glare's middle (the course, spread from the ring and the fainter halo beyond it,
    stays under the ring), which is bent around that butt (a butt is convex); and the brightest rows
    of a glare cut by the end of the search (a zone's printed edge), whose course is spread from one
    side only: most of such a piece's rim outside the glare lies where nothing was searched
    (``searched``: the window's search area one pixel wider on every side; a butt's rim outside the
    glare is the bare zone or another blob)."""
    peak = float(percentile(along[glare], 90))
    if peak <= 0:
        return np.zeros_like(glare)
    # the smooth course from the glare's and the bare zone's pixels only (a zone's printed border and
    # other butts add none: a glare cut by them is not lifted beside them)
    lit = (glare | free).astype(np.float32)
    sigma = max(1.0, half)
    rise = along - cv2.GaussianBlur(along * lit, (0, 0), sigma) / np.maximum(cv2.GaussianBlur(lit, (0, 0), sigma), 1e-3)
    inside = cv2.erode(glare.astype(np.uint8), _K3) > 0  # the outline is measured inside the glare only
    seeds = cv2.morphologyEx((glare & (rise > GLARE_SHARP_RISE * peak)).astype(np.uint8), cv2.MORPH_OPEN, _K3)
    n, lab = cv2.connectedComponents(seeds, connectivity=8)
    out = np.zeros_like(glare)
    if n <= 1:
        return out
    grad = magnitude(cv2.Sobel(along, cv2.CV_32F, 1, 0, ksize=3), cv2.Sobel(along, cv2.CV_32F, 0, 1, ksize=3)) / 8
    for j in range(1, n):
        seed = lab == j
        level = GLARE_SHARP_GROW * float(median(rise[seed]))
        low = cv2.morphologyEx((glare & (rise > level)).astype(np.uint8), cv2.MORPH_OPEN, _K3)
        m, lab2 = cv2.connectedComponents(low, connectivity=8)
        ids = np.bincount(lab2[seed], minlength=m) > 0
        ids[0] = False
        piece = ids[lab2]
        if np.count_nonzero(piece) < GLARE_SHARP_AREA * half * half:
            continue
        p8 = piece.astype(np.uint8)
        rim = (cv2.dilate(p8, _K3) > 0) & (cv2.erode(p8, _K3) == 0) & inside
        if np.count_nonzero(rim) < 8:
            continue
        ys, xs = np.nonzero(piece)
        (_, _), (rw, rh), _ = cv2.minAreaRect(np.stack([xs, ys], 1).astype(np.float32))
        if max(rw, rh) + 1 < GLARE_SHARP_LONG * (min(rw, rh) + 1):
            continue  # round: the glare's own bright core (a clipped spot on a broad halo), not a butt
        if float(percentile(grad[rim], 90)) < GLARE_SHARP_EDGE * float(median(rise[piece])):
            continue
        # a butt is convex: its pixels fill its hull
        if len(xs) < GLARE_SHARP_SOLID * _hull_room(xs, ys):
            continue  # bent: the bright ring around a butt on the glare's middle
        if searched is not None:
            p1 = np.pad(p8, 1)
            outer = (cv2.dilate(p1, _K3) > 0) & (p1 == 0) & ~np.pad(glare, 1)
            if np.count_nonzero(outer & (searched == 0)) > GLARE_SHARP_OPEN * np.count_nonzero(outer):
                continue  # it lies along the end of the search: a glare cut there, not a butt
        out |= piece
    return out


def _clip_blind(clip: np.ndarray, d: np.ndarray, glare: np.ndarray, beside: np.ndarray | None,
                half: float) -> tuple[np.ndarray, np.ndarray]:
    """The pixels a glare's colour is measured from, and the pixels no butt under it can be told on.
    A channel the camera clipped tells only a lower bound: a glare's clipped core changes from the
    table by the clip's colour (up to white), not the lamp's, so its unclipped halo would leave that
    colour as a butt does. The colour is measured on the glare's pixels with no channel clipped; where
    fewer than a butt's width squared are left, on those of the glare and the light added beside it
    (its halo, brighter than the table in every channel); where that leaves fewer than a butt's width
    squared, the glare's colour is not known and nothing is kept under it (_under_glare). A pixel
    clipped in every channel is white to the camera: no colour of a butt under it can be read (``d``:
    the change from the table; ``clip``: the window's channels the camera clipped, per channel)."""
    clean = ~clip.any(axis=2)
    lamp = glare & clean
    if np.count_nonzero(lamp) < 4 * half * half and beside is not None:
        lamp = (glare | (beside & (d.min(axis=2) > 0))) & clean
    return lamp, clip.all(axis=2)


def _spread(img: np.ndarray, kernel: np.ndarray) -> np.ndarray:
    """``cv2.dilate(img, kernel) - cv2.erode(img, kernel)`` of a float32 image (the same values) in one
    call: OpenCV's morphological gradient."""
    return cv2.morphologyEx(img, cv2.MORPH_GRADIENT, kernel)


def _drop_glare(diff8: np.ndarray, thr: float, mask: np.ndarray, subs: dict[int, np.ndarray], blobs: list[int],
                stats: np.ndarray, half: float, added: dict[int, np.ndarray], small: np.ndarray,
                bg: np.ndarray, under: np.ndarray, free: tuple[np.ndarray, np.ndarray] | None = None) -> None:
    """Take glare out of the blobs (in place in ``mask``): light added to the table (brighter in
    every channel) either over a region broader than a butt (what a morphological opening with a
    disc wider than a butt keeps), or in a spot whose middle lies farther from any steep edge than
    a butt's middle can (a butt's outline is sharp, glare fades out), or in a round spot (no butt is
    round). Butts standing out of the glare stay, and so do butts under it whose colour leaves the
    glare's (marked in ``under``; the glare is taken off their pixels in ``small``). ``free``: the
    blobs' mask before shadows were taken out and the search area, whose table pixels (with the mat)
    tell how the glare fades beside a butt under it."""
    size = int(round(GLARE_DISC * 2 * half)) | 1
    if size < 5:
        return
    # the opening runs on copies half as fine (a smooth halo loses nothing, and it costs an eighth)
    disc = cv2.getStructuringElement(cv2.MORPH_ELLIPSE, (size // 2 | 1, size // 2 | 1))
    span = int(round(2 * half)) | 1
    around = np.ones((span, span), np.uint8)  # made once (never written)
    for i in blobs:
        x, y, bw, bh, area = stats[i].tolist()
        if min(bw, bh) < 2 * half:
            continue
        win = mask[y:y + bh, x:x + bw]
        sub = subs[i] & (win > 0)  # (``subs``: each blob's label in its box, from _drop_shadows)
        if not np.count_nonzero(sub) or i not in added:
            continue
        brighter = added[i] & sub
        if not np.count_nonzero(brighter):
            continue
        d8win = diff8[y:y + bh, x:x + bw]
        dwin = d8win.astype(np.float32) * LOG_STEP
        md8 = d8win * sub  # (uint8: the difference inside the blob, 0 outside; as np.where, cheaper)
        md = md8.astype(np.float32) * LOG_STEP
        glare = np.zeros(sub.shape, bool)  # as np.zeros_like(sub), cheaper
        if min(bw, bh) >= size:
            coarse = cv2.resize(md8, ((bw + 1) // 2, (bh + 1) // 2), interpolation=cv2.INTER_AREA)
            broad = cv2.resize(cv2.morphologyEx(coarse, cv2.MORPH_OPEN, disc), (bw, bh),
                               interpolation=cv2.INTER_LINEAR).astype(np.float32) * LOG_STEP
            if float(broad.max()) >= thr:
                glare |= brighter & (md - broad < thr)
        grad = magnitude(cv2.Sobel(dwin, cv2.CV_32F, 1, 0, ksize=3), cv2.Sobel(dwin, cv2.CV_32F, 0, 1, ksize=3)) / 8
        # steep against the local step (the spread of the difference over a butt's width, at least
        # three times the noise threshold), not the glare's whole strength: a butt's outline on a glare's
        # flank rises by the butt's own contrast above the glare and stays an outline
        step = np.maximum(_spread(md, around), 3 * thr)
        steep = (grad > GLARE_STEEP * np.minimum(cv2.dilate(md, _K5), step)).astype(np.uint8)
        far = cv2.distanceTransform(1 - steep, cv2.DIST_L2, 3)
        soft = brighter & (far > 0.5 * half)
        core = soft & (far > GLARE_CORE * half)
        if np.count_nonzero(core):  # the soft pieces are labelled only when one holds a core (most blobs have none)
            n, slab = cv2.connectedComponents(soft.astype(np.uint8), connectivity=8)
            # the pieces holding a core, counted, not sorted (np.unique and np.isin cost more)
            cores = np.bincount(slab[core], minlength=n) > 0
            cores[0] = False
            spot = cores[slab].astype(np.uint8)
            grow = int(round(half)) | 1
            spot = cv2.dilate(spot, cv2.getStructuringElement(cv2.MORPH_ELLIPSE, (grow, grow)))
            glare |= brighter & (spot > 0)
        # a round spot of added light touching a pile (too small for the two checks above): no butt is round
        spots = (brighter & ~glare).astype(np.uint8)
        n = 0
        if cv2.countNonZero(spots) >= 4 * half * half:  # else no piece can be big enough
            n, slab, sareas = _components(spots, 4)
        for j in range(1, n):
            if sareas[j] < 4 * half * half:
                continue
            outline, _ = cv2.findContours((slab == j).astype(np.uint8), cv2.RETR_EXTERNAL, cv2.CHAIN_APPROX_SIMPLE)
            pts = np.vstack(outline).astype(np.float32)
            _, radius = cv2.minEnclosingCircle(pts)
            (_, _), (rw, rh), _ = cv2.minAreaRect(pts)
            if (sareas[j] >= GLARE_ROUND * np.pi * radius ** 2
                    and max(rw, rh) < 1.6 * max(1.0, min(rw, rh))):
                glare |= slab == j
        if np.count_nonzero(glare):
            beside = sub & ~glare & (cv2.dilate(glare.astype(np.uint8), around) > 0)
            table = None if free is None else \
                (free[0][y:y + bh, x:x + bw] == 0) & (free[1][y:y + bh, x:x + bw] > 0)
            searched = None if free is None else _window1(free[1], x, y, bw, bh)
            keep = _under_glare(small[y:y + bh, x:x + bw], bg[y:y + bh, x:x + bw], glare, half, beside, table,
                                searched, unclipped=free is None)
            glare &= ~keep
            under[y:y + bh, x:x + bw] |= keep
            win[glare] = 0
            win[:] = cv2.morphologyEx(win, cv2.MORPH_OPEN, _K3)


def _lone_outline(mask: np.ndarray) -> np.ndarray | None:
    """The outer outline of ``mask`` when it is one 8-connected piece (as ``np.vstack`` of its
    RETR_EXTERNAL outlines gives it: the same points), else None (several pieces, or none): one call
    of RETR_CCOMP tells it (one outer outline at the top of its two-level tree), no labelling."""
    outlines, tree = cv2.findContours(mask, cv2.RETR_CCOMP, cv2.CHAIN_APPROX_SIMPLE)
    if tree is None:
        return None
    tops = np.nonzero(tree[0][:, 3] < 0)[0]
    return np.vstack([outlines[tops[0]]]) if len(tops) == 1 else None


def _measure_piece(c: dict[str, Any]) -> tuple[float, float]:
    """Set a piece's ``long`` side, ``half`` width and ``aspect`` from its outline's least rectangle
    (its short side at least a pixel); its long and short sides."""
    (_, _), (rw, rh), _ = cv2.minAreaRect(c["outline"])
    long_side, short_side = max(rw, rh), max(1.0, min(rw, rh))
    c["aspect"] = long_side / short_side
    c["half"] = short_side / 2
    c["long"] = long_side
    return long_side, short_side


EDGE_CLEAR = 1.0  # a piece of a blob cut by the frame edge is kept (bare table) this many butt widths clear of the edge


def _at_edge(box: tuple[int, int, int, int], w: int, h: int, margin: float) -> bool:
    """Whether a piece's box (as _outline_box gives it) lies within ``margin`` pixels of the edge of a
    ``w`` x ``h`` image (0: touches it)."""
    return min(box[0], box[1], w - 1 - box[2], h - 1 - box[3]) <= margin


def _outline_box(outline: np.ndarray, x: int, y: int) -> tuple[int, int, int, int]:
    """The least and largest column and row of a piece (xs.min(), ys.min(), xs.max(), ys.max() of its
    pixels) from its outer outline (which holds its extreme pixels) drawn in a window at ``x``, ``y``."""
    bx, by, bw, bh = cv2.boundingRect(outline)
    return bx + x, by + y, bx + bw - 1 + x, by + bh - 1 + y


def _edge_ratio(d8: np.ndarray, xs: np.ndarray, ys: np.ndarray, inner: np.ndarray | None,
                box: tuple[int, int, int, int] | None = None) -> float:
    """How steeply a piece's outline rises: the steepest gradient of the difference from the table
    (95th percentile, per work pixel) over the piece's contrast (90th percentile). Measured where
    the piece's surroundings are searched too (``inner``): a glare spot cut by a zone's edge takes no
    steepness from the printed border beyond it (``inner`` None: every pixel is such a one). ``box``
    may give the piece's least and largest column and row (``_outline_box``)."""
    lo_x, lo_y, hi_x, hi_y = box if box is not None else (int(xs.min()), int(ys.min()), int(xs.max()), int(ys.max()))
    x0, y0 = max(0, lo_x - 1), max(0, lo_y - 1)
    win = d8[y0:hi_y + 2, x0:hi_x + 2].astype(np.float32) * LOG_STEP
    grad = magnitude(cv2.Sobel(win, cv2.CV_32F, 1, 0, ksize=3), cv2.Sobel(win, cv2.CV_32F, 0, 1, ksize=3))
    at = (ys - y0) * win.shape[1] + (xs - x0)  # the piece's pixels in the window, as flat numbers (cheaper)
    vals = win.take(at)
    steep = grad.take(at)
    if inner is not None:
        inside = inner[ys, xs] > 0
        if np.count_nonzero(inside) >= 0.5 * len(xs):
            steep = steep[inside]
    edge = float(np.partition(steep, int(0.95 * (len(steep) - 1)))[int(0.95 * (len(steep) - 1))]) / 8
    contrast = float(np.partition(vals, int(0.9 * (len(xs) - 1)))[int(0.9 * (len(xs) - 1))])
    return edge / max(contrast, 1e-3)


TOP_LEVEL = 245.0  # a channel whose piece and table both read this bright (means) is at the camera's top


def _clipped_share(small: np.ndarray, xs: np.ndarray, ys: np.ndarray) -> float:
    """The share of a piece's pixels at the camera's top in every channel (TOP_LEVEL)."""
    return float(np.mean(_pixels(small, xs, ys).min(axis=1) >= TOP_LEVEL))


def _clip_blind_add(add: np.ndarray, piece: np.ndarray, table: np.ndarray) -> np.ndarray:
    """The light pieces add to their table (``add``, a row of channels per piece) with each channel
    where both the piece and its table (their means, ``piece`` and ``table``) reach TOP_LEVEL read as
    adding the piece's most: the camera clipped that channel on both, so it cannot show the light
    added there (glare on warm wood clips red first and adds light in green and blue alone). A row
    with no channel clipped so, or every channel, is unchanged; ``add`` itself when none changes."""
    top = (piece >= TOP_LEVEL) & (table >= TOP_LEVEL)
    if not top.any():
        return add
    top &= ~top.all(axis=1, keepdims=True)
    most = np.where(top, -np.inf, add).max(axis=1, keepdims=True)
    return np.where(top, most, add).astype(add.dtype)


def _light_added(small: np.ndarray, bg: np.ndarray, xs: list[np.ndarray], ys: list[np.ndarray],
                 bare: bool) -> np.ndarray:
    """Each piece's mean colour less its table's (a row of channels per piece, all at once); on a
    ``bare`` table with the channels the camera clipped on both read as adding light (_clip_blind_add)."""
    seen, table = _piece_means(small, xs, ys), _piece_means(bg, xs, ys)
    return _clip_blind_add(seen - table, seen, table) if bare else seen - table


def _looks_like_glare(small: np.ndarray, xs: np.ndarray, ys: np.ndarray, area: float,
                      aspect: float, edge_ratio: float, soft: float, add: np.ndarray) -> bool:
    """A piece of at most two butts' size that is glare or a soft shadow: a filled round patch where
    white light is added, or a piece of light added whose outline rises slower than ``soft`` (its
    contrast per pixel; a butt's outline is sharp, glare fades out), or of light taken whose outline
    rises slower than SOFT_EDGE (a soft shadow; gray and black butts on wood are soft-edged too).
    ``add``: the piece's mean colour less the table's under it (``_piece_means`` of both)."""
    if aspect < 1.6:
        _, radius = cv2.minEnclosingCircle(np.stack([xs, ys], 1).astype(np.float32))
        if area / (np.pi * max(radius, 1.0) ** 2) > 0.7:
            clipped = _clipped_share(small, xs, ys)
            brighter = float(add.min() / max(float(add.max()), 1.0)) if add.min() > 8 else 0.0
            if clipped > 0.25 or brighter > 0.45:
                return True
    if add.min() < 0 < add.max():
        return False  # lighter in one channel and darker in another: a colour, not light added or taken
    return edge_ratio < (soft if add.min() > 0 else SOFT_EDGE)


LIGHT_CORE_MAX = 2.0  # a faint piece up to this many butts' area that is not butt-shaped is looked into for a butt
LIGHT_CORE_LONG = (0.85, 1.25)  # ...when it is a butt's length (as measured in this frame)...
LIGHT_CORE_WIDE = 2.4  # ...and at most this many butts' widths wide


def _lighter_core(planes: list[tuple[np.ndarray, np.ndarray]], x: int, y: int, piece: np.ndarray,
                  single: float) -> np.ndarray | None:
    """The butt inside a faint piece that is a butt's length but too wide: a white butt on pale wood
    and its contact shadow differ from the table alike, so together they make one piece up to two
    butts wide. The butt is the strip one butt wide along the piece's length where the most light is
    added (the shadow takes light); ``piece`` is a window at ``x``, ``y`` of the work image."""
    ys, xs = np.nonzero(piece)
    (cx, cy), (rw, rh), ang = cv2.minAreaRect(np.stack([xs, ys], 1).astype(np.float32))
    long_side, short_side = max(rw, rh) + 1, min(rw, rh) + 1
    length = np.sqrt(single * ASPECT)
    width = length / ASPECT
    if not (LIGHT_CORE_LONG[0] * length <= long_side <= LIGHT_CORE_LONG[1] * length
            and 1.3 * width <= short_side <= LIGHT_CORE_WIDE * width):
        return None
    t = np.deg2rad(ang + (90.0 if rw >= rh else 0.0))  # across the piece's length
    across = (xs - cx) * np.cos(t) + (ys - cy) * np.sin(t)
    up = cv2.subtract(planes[0][0][ys + y, xs + x], planes[0][1][ys + y, xs + x]).ravel().astype(np.int32)
    for a, b in planes[1:]:
        up = np.maximum(up, cv2.subtract(a[ys + y, xs + x], b[ys + y, xs + x]).ravel())
    reach = (short_side - width) / 2
    best, keep = -1, None
    for off in np.arange(-reach, reach + 0.5, 1.0):
        strip = np.abs(across - off) <= width / 2
        got = int(up[strip].sum())
        if got > best:
            best, keep = got, strip
    if keep is None or not _butt_shaped(xs[keep], ys[keep], single):
        return None
    core = np.zeros_like(piece)
    core[ys[keep], xs[keep]] = 1
    return core


# a faint butt (white on light wood) differs from the table by these shares of the threshold (the
# higher first: there it touches less wood grain)
FAINT_FRACS = (0.7, 0.45)
RING_HOLE = 1.2  # a hole up to this many butts' area in a faint piece is (part of) the inside of a butt seen by its outline


def _ring_holes(low: np.ndarray, grown: np.ndarray, single: float) -> tuple[np.ndarray, list[tuple[int, ...]]] | None:
    """The holes of ``low`` that are the insides of rings (a mask, and each one's box), or None: a
    butt whose middle matches the table (a white butt on pale wood, a black one on dark wood, any butt
    of the table's own shade) differs from the table only along its outline, where its shaded rim and
    its contact shadow are, and passes a low threshold as a ring. A hole is such an inside when it is
    at most RING_HOLE butts' area and holds no butt already found (``grown``: a ring of shadow around
    a found butt is not a second butt). Found from the pieces' inner outlines, not by a fill of the table."""
    outlines, tree = cv2.findContours(low, cv2.RETR_CCOMP, cv2.CHAIN_APPROX_SIMPLE)
    if tree is None:
        return None
    holes, boxes = None, []
    for k in np.nonzero(tree[0][:, 3] >= 0)[0]:
        c = outlines[k]
        if cv2.contourArea(c) > RING_HOLE * single:
            continue
        x, y, bw, bh = cv2.boundingRect(c)
        win = np.zeros((bh, bw), np.uint8)
        cv2.drawContours(win, [c - np.int32([x, y])], -1, 1, -1)
        hole = cv2.subtract(win, low[y:y + bh, x:x + bw])  # the outline's inside, less the piece's own pixels
        if not np.count_nonzero(hole) or (hole & grown[y:y + bh, x:x + bw]).any():
            continue
        if holes is None:
            holes = np.zeros_like(low)
        holes[y:y + bh, x:x + bw] |= hole
        boxes.append((x, y, bw, bh))
    return None if holes is None else (holes, boxes)


def _found_grown(comps: list[dict[str, Any]], single: float, shape: tuple[int, ...]) -> np.ndarray:
    """The butts already found (pieces of at least LEFT_AREA of a butt) with a pixel of rim, as a mask."""
    found = np.zeros(shape, np.uint8)
    for c in comps:
        if c["area"] >= LEFT_AREA * single:
            found[c["pts"][1], c["pts"][0]] = 1
    return cv2.dilate(found, _K3)


def _faint_butts(d8: np.ndarray, low_thr: float, searched: np.ndarray, comps: list[dict[str, Any]],
                 single: float, planes: list[tuple[np.ndarray, np.ndarray]] | None = None,
                 grown: np.ndarray | None = None, lit: bool = False, top: float = 1.5) -> list[dict[str, Any]]:
    """Pieces of a lower threshold ``low_thr`` (a share of the frame's own) that are whole butts where
    the full threshold kept only crumbs or nothing: a white butt on light wood, a black one on dark wood
    pass it only along their shaded rims or lit ridge. The butts already found (with a pixel of rim)
    are taken out of the lower threshold's pieces first, so a faint butt touching a found one is seen
    on its own; what is left is taken only where it is butt-shaped (about one butt's area, filling
    its rectangle, a butt's length to width), so wood grain, shadows and rims stay out. A ring of
    the lower threshold (a butt seen only by its outline) is taken with its inside, where no piece
    of its own was taken. ``searched`` is ``d8`` inside the search area, 0 outside it; ``grown`` may give
    ``_found_grown(comps, ...)`` already made. ``lit`` (the lift map on a bare table): a butt of the
    table's own lightness is also looked for around each lit middle too small for a butt (``_lit_core``).
    ``top``: the largest piece looked at, in butts' area (on a bare table LIGHT_CORE_MAX: a pale butt
    with its contact shadow, cut to its strip by ``_lighter_core``)."""
    _, low = cv2.threshold(searched, low_thr / LOG_STEP, 1, cv2.THRESH_BINARY)  # (0 is under any threshold)
    crumbs = None  # the small pieces' numbers, painted once a faint butt is found
    if grown is None:
        grown = _found_grown(comps, single, low.shape)
    low = cv2.subtract(low, grown)
    rings = _ring_holes(low, grown, single)
    raw = low
    low = cv2.morphologyEx(low, cv2.MORPH_OPEN, np.ones((3, 3), np.uint8))
    h, w = low.shape
    drop: set[int] = set()
    added = []
    # the faint butts added, where a ring's filled piece may not be taken again (np.zeros: fresh zero
    # pages, not np.zeros_like's fill of the whole image)
    taken = np.zeros(low.shape, np.uint8)

    def crumb_map() -> np.ndarray:
        nonlocal crumbs
        if crumbs is None:
            crumbs = np.zeros(low.shape, np.int32)
            for ci, c in enumerate(comps):
                if c["area"] < LEFT_AREA * single:
                    crumbs[c["pts"][1], c["pts"][0]] = ci + 1
        return crumbs

    def add(piece: np.ndarray, x: int, y: int, xs: np.ndarray, ys: np.ndarray, area: int) -> None:
        held = np.unique(crumb_map()[ys + y, xs + x])
        drop.update(int(v) - 1 for v in held[held > 0])
        taken[ys + y, xs + x] = 1
        outline, _ = cv2.findContours(piece, cv2.RETR_EXTERNAL, cv2.CHAIN_APPROX_SIMPLE)
        c = {"area": float(area), "pts": (xs + x, ys + y), "outline": np.vstack(outline)}
        c["box"] = _outline_box(c["outline"], x, y)
        (_, _), (rw, rh), _ = cv2.minAreaRect(c["outline"])
        c["long"], c["half"] = max(rw, rh), max(1.0, min(rw, rh)) / 2
        c["aspect"] = c["long"] / (2 * c["half"])
        c["faint"] = True
        added.append(c)

    # the pieces a butt's size, and (``lit``) the lit middles smaller than a butt, from one search of ``low``
    whole, middles = _pieces_in(low, ((LEFT_AREA * single, top * single), (LIT_CORE_MIN * single, LEFT_AREA * single))) \
        if lit else (_pieces_between(low, LEFT_AREA * single, top * single), [])
    for x, y, _bw, _bh, area, piece in whole:
        ys, xs = np.nonzero(piece)
        if not _butt_shaped(xs, ys, single):
            if planes is None or area > LIGHT_CORE_MAX * single:
                continue
            if not _stands_out(d8, xs + x, ys + y, single, grown):
                continue
            if area > 1.5 * single:
                # more than a butt and a half (bare table: a butt and its contact shadow): not where the
                # full threshold's crumbs in it add up to a butt (a butt found there by its crumbs; the
                # rest is its shadow)
                held = np.unique(crumb_map()[ys + y, xs + x])
                if sum(comps[int(v) - 1]["area"] for v in held[held > 0]) >= LEFT_AREA * single:
                    continue
            piece = _lighter_core(planes, x, y, piece, single)
            if piece is None:
                continue
            ys, xs = np.nonzero(piece)
            area = len(xs)
        elif not _stands_out(d8, xs + x, ys + y, single, grown):
            continue
        add(piece, x, y, xs, ys, area)
    if rings is not None:
        # rings: the pieces of the lower threshold with their insides filled (opened like the others),
        # each in a window a butt's length around its inside, taken only where no faint butt was
        holes, boxes = rings
        reach = int(np.sqrt(single * ASPECT)) + 2
        for hx, hy, hw, hh in boxes:
            if taken[hy:hy + hh, hx:hx + hw].any():
                continue
            x0, y0 = max(0, hx - reach), max(0, hy - reach)
            x1, y1 = min(w, hx + hw + reach), min(h, hy + hh + reach)
            ringed = cv2.morphologyEx(cv2.bitwise_or(raw[y0:y1, x0:x1], holes[y0:y1, x0:x1]), cv2.MORPH_OPEN, _K3)
            m, lab, stats, _ = cv2.connectedComponentsWithStats(ringed, connectivity=8)
            at = lab[hy - y0:hy - y0 + hh, hx - x0:hx - x0 + hw][holes[hy:hy + hh, hx:hx + hw] > 0]
            if not at.any():
                continue
            i = int(at.max())
            x, y, bw, bh, area = stats[i].tolist()
            if not LEFT_AREA * single <= area <= 1.5 * single or x == 0 or y == 0 \
                    or x + bw >= ringed.shape[1] or y + bh >= ringed.shape[0]:
                continue  # too small or large, or reaching beyond its window (or the frame's edge)
            x, y = x + x0, y + y0
            piece = (lab[y - y0:y - y0 + bh, x - x0:x - x0 + bw] == i).astype(np.uint8)
            inside = holes[y:y + bh, x:x + bw] & piece
            if (taken[y:y + bh, x:x + bw] & piece).any():
                continue
            ys, xs = np.nonzero(piece)
            if not _butt_shaped(xs, ys, single):
                continue
            ry, rx = np.nonzero(piece & (1 - inside))  # the ring itself stands out, its inside is the table's
            if not _stands_out(d8, rx + x, ry + y, single, grown):
                continue
            add(piece, x, y, xs, ys, area)
    if lit:
        # a butt of the table's own lightness seen by its lit middle, ringed by its darker rim
        for x, y, _bw, _bh, _area, piece in middles:
            got = _lit_core(planes, x, y, piece, single, grown, taken, low_thr / LOG_STEP)
            if got is not None:
                bx, by, butt = got
                ys, xs = np.nonzero(butt)
                add(butt, bx, by, xs, ys, len(xs))
    if not added:
        return comps
    return [c for ci, c in enumerate(comps) if ci not in drop] + added


LIT_CORE_MIN = 0.1  # a lit middle is a piece of the lift map from this share of a butt's area (to LEFT_AREA)...
LIT_CORE_LONG = (0.3, 1.1)  # ...this share of a butt's length long, at least 1.8 times as long as wide, at most a butt wide
RIM_DARK = 0.7  # the ring just outside the butt laid along it is darker than the table on this share of its pixels...
RIM_DEPTH = 0.6  # ...by a median of this share of the pass's threshold
LIT_INNER = 0.3  # ...and the butt adds light on this share of its pixels
RIM_OVERLAP = 0.15  # a butt laid over butts already found by at most this share of its pixels loses those pixels


def _lit_core(planes: list[tuple[np.ndarray, np.ndarray]], x: int, y: int, piece: np.ndarray, single: float,
              grown: np.ndarray, taken: np.ndarray, thr8: float) -> tuple[int, int, np.ndarray] | None:
    """A butt of the table's own lightness (a white butt on pale wood or grey cloth) seen by its lit
    middle: its body differs from the table by less than the thresholds, its lit ridge adds light, and
    its shaded rim all round (with its contact shadow on one side) takes light, so the lower
    thresholds hold a ring joined to the shadow and the lift map only the lit middle, a piece shorter
    and narrower than a butt (``piece``, a window at ``x``, ``y``). A butt's outline (the frame's butt
    length and width, round ends) is laid along the piece where it takes the most light added; it is
    a butt when the ring just outside it (two pixels: the rim's blurred step) is darker than the table
    on RIM_DARK of its pixels by a median of RIM_DEPTH of the pass's threshold (``thr8``, LOG_STEP
    units), and the outline adds light on LIT_INNER of its pixels. Wood grain's light streaks are
    not ringed at their ends, noise on dark wood is not darker by the threshold, and a glare adds
    light all round. Returns the butt's window position and mask (or None)."""
    ys, xs = np.nonzero(piece)
    (cx, cy), (rw, rh), ang = cv2.minAreaRect(np.stack([xs, ys], 1).astype(np.float32))
    long_side, short_side = max(rw, rh) + 1, min(rw, rh) + 1
    length = np.sqrt(single * ASPECT)
    width = length / ASPECT
    if not (LIT_CORE_LONG[0] * length <= long_side <= LIT_CORE_LONG[1] * length
            and long_side >= 1.8 * short_side and short_side <= width):
        return None
    h, w = grown.shape
    bh, bw = piece.shape
    reach = max(0.0, (length - long_side) / 2)  # the outline's shifts along the piece
    m = int(np.ceil(2 * reach + width / 2)) + 3  # the outline and its ring, wherever it lies along the piece
    x0, y0, x1, y1 = x - m, y - m, x + bw + m, y + bh + m
    if x0 < 0 or y0 < 0 or x1 > w or y1 > h:
        return None
    t = np.deg2rad(ang + (0.0 if rw >= rh else 90.0))  # along the piece
    gy, gx = np.mgrid[y0 - y:y1 - y, x0 - x:x1 - x].astype(np.float32)
    gx -= cx
    gy -= cy
    along = gx * np.float32(np.cos(t)) + gy * np.float32(np.sin(t))
    across = np.abs(gy * np.float32(np.cos(t)) - gx * np.float32(np.sin(t)))
    light = planes[0][0][y0:y1, x0:x1].astype(np.int32) - planes[0][1][y0:y1, x0:x1]
    for a, b in planes[1:]:
        light += a[y0:y1, x0:x1].astype(np.int32) - b[y0:y1, x0:x1]  # three times the mean log change
    seg = (length - width) / 2
    best, dist = None, None
    for off in np.arange(-reach, reach + 0.5, 1.0):
        d = np.hypot(np.maximum(np.abs(along - np.float32(off)) - np.float32(seg), 0), across)
        got = int(light[d <= width / 2].sum())
        if best is None or got > best:
            best, dist = got, d
    butt = (dist <= width / 2).astype(np.uint8)
    found = cv2.bitwise_or(grown[y0:y1, x0:x1], taken[y0:y1, x0:x1])
    over = cv2.bitwise_and(butt, found)
    if over.any():
        if cv2.countNonZero(over) > RIM_OVERLAP * cv2.countNonZero(butt):
            return None
        butt = cv2.subtract(butt, over)
    ring = (dist > width / 2) & (dist <= width / 2 + 2) & (found == 0)
    around = light[ring]
    inside = light[butt > 0]
    if around.size < 8 or np.count_nonzero(around < 0) < RIM_DARK * around.size \
            or -float(np.median(around)) / 3 < RIM_DEPTH * thr8 or np.count_nonzero(inside > 0) < LIT_INNER * inside.size:
        return None
    return x0, y0, butt


LIFT_STRIP = 32768  # pixels: the lift map's int16 steps run on strips of about this many (see _lift)


def _lift(planes: list[tuple[np.ndarray, np.ndarray]]) -> np.ndarray:
    """Per pixel, in LOG_STEP units (blurred like the difference): the larger of the light added to
    the table (the largest channel's log rise) and the change of chroma (the largest channel's log
    change off the three's mean). A shadow (light taken, the table's chroma) is about 0 here.

    The per-pixel steps run strip by strip (the same values): a dozen int16 images of the whole frame
    were fresh memory for every read, and the page faults cost more than the arithmetic. int16 sums
    and products of changes of at most 255 stay far from the type's limits, so numpy's arithmetic gives
    OpenCV's saturating values (and its integer multiply is several times cheaper: OpenCV scales a
    16-bit image through floats)."""
    h, w = planes[0][0].shape
    pre = np.empty((h, w), np.uint8)
    rows = max(8, LIFT_STRIP // max(1, w))
    for r0 in range(0, h, rows):
        r1 = min(h, r0 + rows)
        s = [np.subtract(a[r0:r1], b[r0:r1], dtype=np.int16) for a, b in planes]  # cv2.subtract(..., CV_16S)
        total = cv2.add(cv2.add(s[0], s[1]), s[2])
        # three times each: the largest rise, and the largest channel's distance from the three's mean
        out = np.multiply(cv2.max(cv2.max(s[0], s[1]), s[2]), 3)
        for c in s:
            out = cv2.max(out, cv2.absdiff(np.multiply(c, 3), total))
        pre[r0:r1] = cv2.convertScaleAbs(out, alpha=1 / 3)
    return cv2.GaussianBlur(pre, (3, 3), 0)


def _find_butts(small: np.ndarray, search: np.ndarray, bg: np.ndarray,
                stop_below: float = 0.0, one_colour: bool = False,
                lamp: np.ndarray | None = None) -> tuple[list[dict[str, Any]], float]:
    """Candidate butts in the work image (pixel masks split so each holds one butt) and the butts'
    half width (infinite when nothing was found); when that is under ``stop_below`` the butts are
    not split (the caller reads again at a larger scale) and the list is empty. ``one_colour``: the
    table is the mat's one-colour zones (its table pixels tell how glare fades beside a butt);
    ``lamp``: the mat's white patch reading (BGR), the colour of the light a glare adds."""
    # split first: OpenCV's table lookup of a three-channel image costs more than of its three planes
    planes = list(zip([cv2.LUT(c, _LOG8) for c in cv2.split(small)], [cv2.LUT(c, _LOG8) for c in cv2.split(bg)],
                      strict=True))
    d = [cv2.absdiff(a, b) for a, b in planes]
    d8 = cv2.GaussianBlur(cv2.max(cv2.max(d[0], d[1]), d[2]), (3, 3), 0)  # in LOG_STEP units
    del d  # (three planes of the work image: their memory serves the steps below, fewer fresh pages)
    vals = d8[::3, ::3][search[::3, ::3] > 0]
    if vals.size < 30:
        return [], float("inf")
    thr = _noise_threshold(vals)
    # the difference inside the search area, 0 outside it (under every threshold: each is above 0), so
    # the thresholds below need no cut to the search area of their own
    searched = cv2.bitwise_and(d8, d8, mask=search)
    _, mask = cv2.threshold(searched, thr / LOG_STEP, 1, cv2.THRESH_BINARY)
    mask = cv2.morphologyEx(mask, cv2.MORPH_OPEN, np.ones((3, 3), np.uint8))
    # the blobs of 20 pixels and more, in the order and with the stats of _pieces8's labels (no labelling
    # of the whole mask), and each one's own pixels in its box
    stats, subs = _blobs_in_boxes(mask, 20)
    if len(stats) <= 1:
        return [], float("inf")  # (no blob: nothing below would find a butt)
    blobs = list(range(1, len(stats)))
    if len(blobs) > MAX_BLOBS:  # a noisy or busy frame: look at the largest blobs only
        blobs = sorted(blobs, key=lambda i: -stats[i, cv2.CC_STAT_AREA])[:MAX_BLOBS]
    added: dict[int, np.ndarray] = {}
    under = np.zeros(mask.shape, bool)  # butts found under glare
    # the mat's table under the threshold (the mask before shadows and glare are taken out, and the
    # search area): where a glare fades
    before = mask.copy()
    free = (before, search) if one_colour else None
    halves = _drop_shadows(planes, mask, blobs, stats, added, subs, bare=not one_colour)
    # on a bare table, the pixels the shadow step took out of the blobs: a dark butt's shaded rim (its
    # steep outline)
    shaded = None if one_colour else cv2.subtract(before, mask)
    glared = None  # on a bare table, the pixels the glare step took out of the blobs
    if halves:
        kept = None if one_colour else mask.copy()
        _drop_glare(d8, thr, mask, subs, blobs, stats, statistics.median(halves), added, small, bg, under, free)
        if kept is not None:
            glared = cv2.subtract(kept, mask)
    h, w = mask.shape
    comps = []
    parted = []  # on a bare table, the pieces of blobs cut by the frame edge that the shadow and glare steps parted from it

    def take(cut: bool, area: float, xs: np.ndarray, ys: np.ndarray, outline: np.ndarray,
             box: tuple[int, int, int, int]) -> None:
        if cut and _at_edge(box, w, h, 0.0):
            return  # ...but on a bare table a piece the shadow and glare steps parted from the edge is kept
        (parted if cut else comps).append({"area": float(area), "pts": (xs, ys), "outline": outline, "box": box})

    for i in blobs:
        x, y, bw, bh, _ = stats[i].tolist()
        cut = x == 0 or y == 0 or x + bw >= w or y + bh >= h  # cut by the frame edge: not a whole pile...
        if cut and one_colour:
            continue
        # what is left of the blob once shadows and glare are out may fall apart into pieces
        left = (subs[i] & (mask[y:y + bh, x:x + bw] > 0)).astype(np.uint8)
        outline = _lone_outline(left)  # most blobs stay one piece: then no labelling is needed
        if outline is not None:
            area = cv2.countNonZero(left)
            if area >= 20:
                ys, xs = np.nonzero(left)
                take(cut, area, xs + x, ys + y, outline, _outline_box(outline, x, y))
            continue
        m, plab, pareas = _blobs8(left)
        for j in range(1, m):
            area = pareas[j]
            if area < 20:
                continue
            piece = (plab == j).astype(np.uint8)
            ys, xs = np.nonzero(piece)
            outline, _ = cv2.findContours(piece, cv2.RETR_EXTERNAL, cv2.CHAIN_APPROX_SIMPLE)
            outline = np.vstack(outline)
            take(cut, area, xs + x, ys + y, outline, _outline_box(outline, x, y))
    if not comps:
        return [], float("inf")
    # a lone butt is a filled rectangle about ASPECT times longer than wide: those set the size
    lone = []
    for c in comps:
        long_side, short_side = _measure_piece(c)
        if 2.0 <= c["aspect"] <= 4.8 and c["area"] >= 0.75 * long_side * short_side:
            lone.append((c["area"], short_side / 2))
    if lone:
        # crumbs of faint butts (a lit ridge, the half before the filter band) are butt-shaped too but
        # small: where few butts lie alone they must not set the size
        biggest = max(a for a, _ in lone)
        lone = [(a, r) for a, r in lone if a >= CRUMB * biggest] or lone
        single = float(statistics.median([a for a, _ in lone]))
        half = float(statistics.median([r for _, r in lone]))
    else:  # every butt touches another: a pile of butts side by side is still one butt long
        areas = np.array([c["area"] for c in comps])
        length = float(min(c["long"] for c in comps if c["area"] >= 0.5 * np.median(areas)))
        half = length / ASPECT / 2
        single = (2 * half) ** 2 * (ASPECT - 1 + np.pi / 4)
    if half < stop_below:
        return [], half
    for c in parted:  # a piece of a blob cut by the frame edge, a butt's width clear of it, is a whole butt
        if not _at_edge(c["box"], w, h, EDGE_CLEAR * 2 * half):
            _measure_piece(c)
            comps.append(c)
    faint = [(d8, thr, searched)]  # the difference maps the faint passes look in, with their thresholds
    if not one_colour:
        # on a bare table a faint butt and its contact shadow differ from the table alike and make one
        # piece too wide for a butt; the butt's own change (light added, or a chroma of its own) leaves
        # the shadow (light taken, the table's chroma) out
        lift = _lift(planes)
        faint.append((lift, _noise_threshold(lift[::3, ::3][search[::3, ::3] > 0]),
                      cv2.bitwise_and(lift, lift, mask=search)))
    grown = None  # the found butts' mask, made again only when a faint pass added butts
    for diff, base_thr, seen in faint:
        for frac in FAINT_FRACS:
            if grown is None:
                grown = _found_grown(comps, single, d8.shape)
            more = _faint_butts(diff, frac * base_thr, seen, comps, single, planes, grown, lit=diff is not d8,
                                top=1.5 if one_colour else LIGHT_CORE_MAX)
            if more is not comps:
                grown = None
            comps = more
    out: list[dict[str, Any]] = []
    # pixels whose blurred difference and its gradient see only searched pixels (3x3 blur, 3x3 Sobel)
    # (None: the whole work image is searched, so every pixel is such a pixel)
    inner = None if cv2.countNonZero(search) == search.size else cv2.erode(
        search, np.ones((5, 5), np.uint8), borderType=cv2.BORDER_CONSTANT, borderValue=1)
    cands = []
    for c in comps:
        if c["area"] < 0.3 * single or c["half"] < 0.45 * half:
            continue  # crumbs, lines, shadows' edges
        k = _split_count(c["area"], single)
        if k > MAX_PER_BLOB:
            continue  # far bigger than a heap of butts: a card, a printed mark, a hand
        edge = _edge_ratio(d8, *c["pts"], inner, c["box"]) if k <= 2 else 0.0
        cands.append((c, k, edge))
    # soft: an outline rising at well under the frame's typical butt outline (most small pieces are
    # butts), so the limit follows the camera's focus and blur; never below the fixed SOFT_EDGE
    any_under = bool(under.any())  # no butt under glare (most frames): no piece's share of them to count
    edges = [e for _, k, e in cands if k <= 2]
    soft = max(SOFT_EDGE, SOFT_REL * float(statistics.median(edges))) if len(edges) >= SOFT_MIN_PIECES else SOFT_EDGE
    # the light each small piece adds to the table, for all of them at once (the same means one by one gives)
    few = [c["pts"] for c, k, _ in cands if k <= 2]
    adds = iter(_light_added(small, bg, [p[0] for p in few], [p[1] for p in few], not one_colour)) if few else iter(())
    unheld = faint = None  # the shade taken out that no piece holds, and the faint butts (with a pixel of rim)
    for c, k, edge in cands:
        xs, ys = c["pts"]
        add = next(adds) if k <= 2 else None
        # shares under glare as .mean() gives them (an exact count over the count), cheaper
        if k <= 2 and (not any_under or np.count_nonzero(under[ys, xs]) / len(xs) < 0.3) and _looks_like_glare(
                small, xs, ys, c["area"], c["aspect"], edge, soft, add) and not (
                shaded is not None and add.max() < 0 and _butt_shaped(xs, ys, single)
                and _rim_edge(d8, shaded, c) >= SOFT_EDGE):
            continue
        if k == 1:
            if c["aspect"] < 1.7:
                # round: a glare spot or a coin, or two butts side by side whose faint rims were lost
                # (the area counts one): as long as a butt and most of one's area, it is split in two
                if shaded is not None and add.max() < 0:
                    # or a dark butt the shadow step cut short (bare table): laid back in whole, in
                    # the shade taken out that no other piece holds
                    if unheld is None:
                        unheld, faint = shaded.copy(), _faint_mask(comps, shaded)
                        for o in comps:
                            unheld[o["pts"][1], o["pts"][0]] = 0
                    got = _dark_butt(unheld, faint, xs, ys, single, half)
                    if got is not None:
                        out.append({"xs": got[0], "ys": got[1], "k": 1, "faint": False})
                        continue
                if glared is not None and c["half"] >= GLARE_LAY_HALF * half and c["area"] >= CRUMB * single and _touches(
                        glared, xs, ys):
                    # or a butt whose end the glare step took with a glare spot beside it (bare table):
                    # laid back in whole, in the glare taken out joined to it
                    if faint is None:
                        faint = _faint_mask(comps, glared)
                    got = _dark_butt(glared, faint, xs, ys, single, half)
                    if got is not None:
                        out.append({"xs": got[0], "ys": got[1], "k": 1, "faint": False})
                        continue
                if c["area"] >= PAIR_AREA * single and c["long"] >= PAIR_LONG * np.sqrt(single * ASPECT):
                    _, radius = cv2.minEnclosingCircle(c["outline"].astype(np.float32))
                    if c["area"] < PAIR_ROUND * np.pi * radius ** 2:  # a disc is a glare spot or a coin
                        out.extend(_split(small, xs, ys, 2, single, lay=not one_colour))
                continue
            if one_colour and (_halo_ring(add, xs, ys, half) or _cut_glare(add, small, bg, search, xs, ys)):
                continue
            pair = None if one_colour or c.get("faint", False) else _two_in_one(small, c, single, half)
            if pair:
                out.extend(pair)
                continue
            out.append({"xs": xs, "ys": ys, "k": 1, "faint": c.get("faint", False)})
            continue
        # a glare spot touching a pile counts as butts by its area: its pieces are glare again
        pieces = _split(small, xs, ys, k, single, pairs=not one_colour, lay=not one_colour)
        if not pieces:
            continue
        px, py = [p["xs"] for p in pieces], [p["ys"] for p in pieces]
        lit = _light_added(small, bg, px, py, not one_colour)  # each piece's light added, at once
        # with the mat, a piece of added light is also measured away from the split's cuts: a glare
        # spot cut out of a butt's side takes its sharp edge from that butt's outline at the cut
        for j, (p, add) in enumerate(zip(pieces, lit, strict=True)):
            if one_colour and (_halo_ring(add, p["xs"], p["ys"], half)
                               or _cut_glare(add, small, bg, search, p["xs"], p["ys"])):
                continue  # the band of a glare's halo left around its middle, or its half cut by a zone's edge
            if any_under and np.count_nonzero(under[p["ys"], p["xs"]]) / len(p["xs"]) >= 0.3:
                out.append(p)
            elif not _glare_piece(add, d8, p["xs"], p["ys"], inner, soft) and not (
                    one_colour and add.min() > 0 and _glare_piece(
                        add, d8, p["xs"], p["ys"], _off_cuts(inner, search, pieces, j), soft)) and not (
                    one_colour and _round_glare(add, small, p["xs"], p["ys"], single, lamp)):
                out.append(p)
            elif free is not None:
                got = _butt_in_glare_piece(small, bg, free, p["xs"], p["ys"], half, single)
                if got is not None:
                    got["k"] = p["k"]
                    out.append(got)
    return out, half


GLARE_LAY_HALF = 0.8  # a round piece beside the glare taken out, at least this share of the butt's half width wide...
# ...and of CRUMB of a butt's area, is a butt's end the glare step cut off: the butt is laid back as _dark_butt lays it


def _faint_mask(comps: list[dict], like: np.ndarray) -> np.ndarray:
    """The pixels of the faint pieces among ``comps`` (a mask shaped as ``like``), grown by one pixel:
    the rim a butt laid back by _dark_butt may take (see _find_butts)."""
    faint = np.zeros_like(like)
    for o in comps:
        if o.get("faint"):
            faint[o["pts"][1], o["pts"][0]] = 1
    return cv2.dilate(faint, _K3)


def _touches(m: np.ndarray, xs: np.ndarray, ys: np.ndarray) -> bool:
    """Whether the pixels ``xs``, ``ys`` touch (8-connected) a set pixel of ``m``."""
    h, w = m.shape
    x0, y0, x1, y1 = max(0, xs.min() - 1), max(0, ys.min() - 1), min(w, xs.max() + 2), min(h, ys.max() + 2)
    win = m[y0:y1, x0:x1]
    if not win.any():
        return False
    p = np.zeros_like(win)
    p[ys - y0, xs - x0] = 1
    return bool((cv2.dilate(p, _K3) & win).any())


TWO_AREA = 1.15  # a piece counted one butt holds two touching when it has this many butts' area...
TWO_LONG = 1.2  # ...and is this many butts long (or TWO_LONG + 0.2 butts wide)...
TWO_FILL = 0.75  # ...and fills under this share of its rectangle (a butt fills 0.8-1)
TWO_REST = 0.25  # when its split finds one butt, the rest is the other from this share of a butt's area...
TWO_REST_LONG = 1.5  # ...and this many times as long as wide
TWO_LINE_LONG = 1.5  # a piece one butt wide and this many butts long is two end to end...
TWO_LINE_AREA = 0.7  # ...from this many butts' area on (each butt partly under the threshold)


def _two_in_one(small: np.ndarray, c: dict[str, Any], single: float, half: float) -> list[dict[str, Any]] | None:
    """Two touching butts whose area counts one (the second butt only partly above the threshold): a
    piece of more than one butt's area, longer or wider than a butt (the frame's butt: ``single``,
    ``half``) and not filling its rectangle is split in two by colour and position (when that finds
    one butt, the rest of the piece is the other if it is a butt's part: TWO_REST, TWO_REST_LONG); the
    split is kept when it gives two pieces, at least one butt-shaped. None when it is not kept. A piece
    one butt wide and TWO_LINE_LONG butts long (two end to end: one butt is never that long) is looked
    into from TWO_LINE_AREA butts' area on."""
    length = np.sqrt(single * ASPECT)
    line = c["long"] >= TWO_LINE_LONG * length and c["half"] < (TWO_LONG + 0.2) * half
    if c["area"] < (TWO_LINE_AREA if line else TWO_AREA) * single or c["area"] >= TWO_FILL * c["long"] * 2 * c["half"] or (
            c["long"] < TWO_LONG * length and c["half"] < (TWO_LONG + 0.2) * half):
        return None
    xs, ys = c["pts"]
    pair = _split(small, xs, ys, 2, single, lay=True)
    if len(pair) == 1 and _butt_shaped(pair[0]["xs"], pair[0]["ys"], single):
        # one butt found: the rest of the piece, when a butt's part (the other butt's share above the
        # threshold), is the other
        x0, y0 = xs.min(), ys.min()
        rest = np.zeros((ys.max() - y0 + 1, xs.max() - x0 + 1), np.uint8)
        rest[ys - y0, xs - x0] = 1
        rest[pair[0]["ys"] - y0, pair[0]["xs"] - x0] = 0
        n, lab, areas = _components(cv2.morphologyEx(rest, cv2.MORPH_OPEN, _K3), 4)
        if n > 1:
            i = 1 + int(np.argmax(areas[1:]))
            qy, qx = np.nonzero(lab == i)
            if len(qx) >= TWO_REST * single:
                (_, _), (rw, rh), _ = cv2.minAreaRect(np.stack([qx, qy], 1).astype(np.float32))
                if max(rw, rh) + 1 >= TWO_REST_LONG * (min(rw, rh) + 1):
                    pair.append({"xs": qx + x0, "ys": qy + y0, "k": 2})
    if len(pair) == 2 and any(_butt_shaped(p["xs"], p["ys"], single) for p in pair):
        return pair
    # no pair with a butt-shaped part: two butts crossing, end to side or side by side offset, one of them
    # partly under the threshold (bare table). A piece longer than a butt and, for butts side by side,
    # two butts wide and filling little of its rectangle is cut in two by position
    fill = c["area"] / (c["long"] * 2 * c["half"])
    if c["long"] >= TWO_END_LONG * length or (c["long"] >= TWO_SIDE_LONG * length and c["half"] >= TWO_SIDE_HALF * half
                                               and fill < TWO_SIDE_FILL):
        return _cut_pair(xs, ys, single)
    return None


TWO_CUT_AREA = 0.35  # a piece cut in two is two butts when each part has this share of a butt's area...
# ...and is TWO_REST_LONG times as long as wide; the piece is at least this many butts long...
TWO_END_LONG = 1.3
TWO_SIDE_LONG = 1.1  # ...or this many butts long and...
TWO_SIDE_HALF = 1.9  # ...this many butt half widths wide (two butts side by side)...
TWO_SIDE_FILL = 0.6  # ...filling under this share of its rectangle (one butt with a fringe fills more)


def _cut_pair(xs: np.ndarray, ys: np.ndarray, single: float) -> list[dict[str, Any]] | None:
    """A piece of two touching butts whose colour split gave no butt-shaped part, cut in two by
    position (``_by_position``: along its length when it is about a butt long, else by k-means on the
    pixels' places); the two parts, or None when either is under TWO_CUT_AREA of a butt's area or not
    TWO_REST_LONG times as long as wide."""
    sub = _by_position(xs, ys, 2, single)
    out = []
    for q in range(2):
        qx, qy = xs[sub == q], ys[sub == q]
        if len(qx) < TWO_CUT_AREA * single:
            return None
        (_, _), (rw, rh), _ = cv2.minAreaRect(np.stack([qx, qy], 1).astype(np.float32))
        if max(rw, rh) + 1 < TWO_REST_LONG * (min(rw, rh) + 1):
            return None
        out.append({"xs": qx, "ys": qy, "k": 2})
    return out


DARK_FIT_IN = 0.8  # a butt laid in a round dark piece lies this share inside it and the shade taken beside it...
DARK_FIT_HOLD = 0.8  # ...and holds this share of the piece
DARK_FIT_STEP = 15  # degrees between the directions the butt is laid in


def _dark_butt(shaded: np.ndarray, faint: np.ndarray, xs: np.ndarray, ys: np.ndarray, single: float,
               half: float) -> tuple[np.ndarray, np.ndarray] | None:
    """A gray or black butt on a table of about its own shade that the shadow step cut short: its
    darkest part, or the part of the table's chroma, was taken out as shade with its contact shadow,
    and what is left (``xs``, ``ys``) is a round dark piece, not butt-shaped. The frame's butt (the
    found butts' measured width, and the length that gives their measured area, round ends) is laid
    every DARK_FIT_STEP degrees at every place where it lies DARK_FIT_IN inside the piece and the
    shade taken out joined to it (``shaded``: the shade no other piece holds), at the place that
    holds the most of the piece; it is a butt when it holds DARK_FIT_HOLD of the piece and touches no
    faint butt (``faint``, with a pixel of rim: the piece is then that butt's other half or its
    shadow). A contact shadow is a band along its butt, thinner than a butt, and a shadow's dark
    crumbs are small. Returns the butt's pixels (the laid butt within the dark region), or None."""
    width = 2 * half  # the frame's found butt: its measured width, and the length that gives its area
    length = single / width + width * (1 - np.pi / 4)
    r = int(length) + 2
    h, w = shaded.shape
    x0, y0 = max(0, int(xs.min()) - r), max(0, int(ys.min()) - r)
    x1, y1 = min(w, int(xs.max()) + r + 1), min(h, int(ys.max()) + r + 1)
    piece = np.zeros((y1 - y0, x1 - x0), np.uint8)
    piece[ys - y0, xs - x0] = 1
    _, lab = cv2.connectedComponents(cv2.bitwise_or(piece, shaded[y0:y1, x0:x1]), connectivity=8)
    region = np.isin(lab, np.unique(lab[ys - y0, xs - x0])).astype(np.float32)
    pf = piece.astype(np.float32)
    k = int(np.ceil(length / 2)) + 1
    gy, gx = np.mgrid[-k:k + 1, -k:k + 1].astype(np.float32)
    seg = (length - width) / 2
    best, keep = 0.0, None
    for deg in range(0, 180, DARK_FIT_STEP):
        t = np.deg2rad(deg)
        along = gx * np.float32(np.cos(t)) + gy * np.float32(np.sin(t))
        across = gy * np.float32(np.cos(t)) - gx * np.float32(np.sin(t))
        butt = (np.hypot(np.maximum(np.abs(along) - seg, 0), across) <= width / 2).astype(np.float32)
        inside = cv2.filter2D(region, -1, butt, borderType=cv2.BORDER_CONSTANT)
        held = cv2.filter2D(pf, -1, butt, borderType=cv2.BORDER_CONSTANT)
        held[inside < DARK_FIT_IN * float(butt.sum())] = 0
        i = int(np.argmax(held))
        if held.flat[i] > best:
            best, keep = float(held.flat[i]), (i, butt)
    if keep is None or best < DARK_FIT_HOLD * len(xs):
        return None
    i, butt = keep
    cy, cx = divmod(i, x1 - x0)
    laid = np.zeros_like(piece)
    ly0, lx0 = max(0, cy - k), max(0, cx - k)
    ly1, lx1 = min(y1 - y0, cy + k + 1), min(x1 - x0, cx + k + 1)
    laid[ly0:ly1, lx0:lx1] = butt[ly0 - cy + k:ly1 - cy + k, lx0 - cx + k:lx1 - cx + k] > 0
    if (laid & faint[y0:y1, x0:x1]).any():
        return None  # a faint pass read a butt right there: the piece is its other half or its shadow
    by, bx = np.nonzero(laid & (region > 0))
    return bx + x0, by + y0


CUT_REACH = 2  # pixels: a step's reach in the slope of the difference (its 3x3 blur, then the 3x3 Sobel)


def _off_cuts(inner: np.ndarray | None, search: np.ndarray, pieces: list[dict[str, Any]], j: int) -> np.ndarray:
    """``inner`` (every pixel when None) without the pixels of piece ``j`` of a pile's split that lie
    within CUT_REACH of the other pieces: there the slope is the cut between two pieces (a
    neighbouring butt's sharp outline), not the piece's own outline against the table."""
    base = np.ones(search.shape, np.uint8) if inner is None else inner.copy()
    xs = np.concatenate([p["xs"] for i, p in enumerate(pieces) if i != j] or [pieces[j]["xs"][:0]])
    ys = np.concatenate([p["ys"] for i, p in enumerate(pieces) if i != j] or [pieces[j]["ys"][:0]])
    if not len(xs):
        return base
    x0, y0 = max(0, int(xs.min()) - CUT_REACH), max(0, int(ys.min()) - CUT_REACH)
    x1, y1 = min(base.shape[1], int(xs.max()) + CUT_REACH + 1), min(base.shape[0], int(ys.max()) + CUT_REACH + 1)
    rest = np.zeros((y1 - y0, x1 - x0), np.uint8)
    rest[ys - y0, xs - x0] = 1
    reach = 2 * CUT_REACH + 1
    near = cv2.dilate(rest, cv2.getStructuringElement(cv2.MORPH_ELLIPSE, (reach, reach)))
    base[y0:y1, x0:x1][near > 0] = 0
    return base


def _rim_edge(d8: np.ndarray, shaded: np.ndarray, c: dict[str, Any]) -> float:
    """How steeply a dark piece's outline rises (``_edge_ratio``) with the pixels next to it (within
    CUT_REACH) that the shadow step took out of its blob (``shaded``). A gray or
    black butt's shaded rim is darker than the table with the table's chroma, like a shadow: taken
    out, it leaves the butt's flat middle, whose own outline rises as slowly as a soft shadow's; the
    butt's steep outline lies in that rim. A soft shadow is left whole by the shadow step (nothing of
    it was taken out), so it keeps its own soft outline. (Asked only of butt-shaped pieces: a rim
    itself, with the middle taken out beside it, is a butt's outline too.)"""
    lo_x, lo_y, hi_x, hi_y = c["box"]
    h, w = shaded.shape
    x0, y0 = max(0, lo_x - CUT_REACH), max(0, lo_y - CUT_REACH)
    x1, y1 = min(w, hi_x + CUT_REACH + 1), min(h, hi_y + CUT_REACH + 1)
    xs, ys = c["pts"]
    piece = np.zeros((y1 - y0, x1 - x0), np.uint8)
    piece[ys - y0, xs - x0] = 1
    reach = 2 * CUT_REACH + 1
    rim = cv2.dilate(piece, np.ones((reach, reach), np.uint8)) & shaded[y0:y1, x0:x1]
    if not rim.any():
        return 0.0
    ry, rx = np.nonzero(piece | rim)
    return _edge_ratio(d8, rx + x0, ry + y0, None)


GLARE_PIECE_SOFT = 0.8  # a pile's piece of added light rising slower than this share of the frame's soft limit is glare
RING_SOLID = 0.6  # a piece of added light filling under this share of its convex hull...
RING_THIN = 0.6  # ...and nowhere wider than this share of a butt's width is the ring of a glare halo (mat)


def _halo_ring(add: np.ndarray, xs: np.ndarray, ys: np.ndarray, half: float) -> bool:
    """Whether a piece is a ring (or a crescent) of a glare's halo: light added in every channel, bent
    (it fills under RING_SOLID of its convex hull, _hull_room) and thin (its
    widest point, twice its largest distance to its outline, is under RING_THIN of a butt's width,
    ``half`` being the frame's butt half width). On the mat a glare's middle is taken out of a blob
    (as glare, or as a butt under the glare), or the split of a pile cuts it away with the butt it
    lies on; what is left is the band of halo around it, which adds light like a pink butt on the red
    zone. A butt, even cut by a split or joined to its neighbour, is a butt wide somewhere; a thin
    piece of a butt is straight (its hull is nearly all its own)."""
    if add.min() <= 0 or len(xs) >= RING_SOLID * _hull_room(xs, ys):
        return False
    x0, y0 = int(xs.min()), int(ys.min())
    m = np.zeros((int(ys.max()) - y0 + 3, int(xs.max()) - x0 + 3), np.uint8)
    m[ys - y0 + 1, xs - x0 + 1] = 1
    return float(cv2.distanceTransform(m, cv2.DIST_L2, 3).max()) < RING_THIN * half


CUT_OPEN = 0.25  # a piece of added light whose rim lies this share on the end of the search...
CUT_FALL = 2.0  # ...and which adds this many times more light at its quarter nearest the end than at its farthest


def _cut_glare(add: np.ndarray, small: np.ndarray, bg: np.ndarray, search: np.ndarray,
               xs: np.ndarray, ys: np.ndarray) -> bool:
    """Whether a piece is the half of a glare spot cut by a zone's printed edge (mat): light added in
    every channel, at least CUT_OPEN of the pixels just outside it lie where the search ends, and the
    light it adds falls away from that end (its quarter of pixels nearest the end adds CUT_FALL times
    the light of its farthest quarter). A glare is brightest in its middle; where the edge cuts
    through it, the half left inside the zone is brightest along the cut. A butt lying across the
    edge adds its own colour evenly along its length (near / far about 1)."""
    if add.min() <= 0:
        return False
    x0, y0 = max(0, int(xs.min()) - 2), max(0, int(ys.min()) - 2)
    x1, y1 = min(search.shape[1], int(xs.max()) + 3), min(search.shape[0], int(ys.max()) + 3)
    m = np.zeros((y1 - y0, x1 - x0), np.uint8)
    m[ys - y0, xs - x0] = 1
    ring = (cv2.dilate(m, _K3) > 0) & (m == 0)
    win = search[y0:y1, x0:x1]
    if np.count_nonzero(ring & (win == 0)) < CUT_OPEN * np.count_nonzero(ring):
        return False
    dist = cv2.distanceTransform((win > 0).astype(np.uint8), cv2.DIST_L2, 3)[ys - y0, xs - x0]
    lum = small[ys, xs].astype(np.float32).sum(axis=1) - bg[ys, xs].astype(np.float32).sum(axis=1)
    near = lum[dist <= percentile(dist, 25)].mean()
    far = lum[dist >= percentile(dist, 75)].mean()
    return bool(near > CUT_FALL * max(float(far), 1.0))


def _glare_piece(add: np.ndarray, d8: np.ndarray, xs: np.ndarray, ys: np.ndarray,
                 inner: np.ndarray | None, soft: float) -> bool:
    """Whether a piece the split of a pile cut out is glare: light added to the table in every
    channel, with an outline rising well slower than the frame's own butts' (``soft`` follows the
    camera's focus and blur). A glare spot touching a pile counts as butts by its area; its pieces
    on the mat's red zone (red plus white light) read pink, on wood white or khaki. Light added in
    every channel is not enough: a pink butt on the red zone adds it too, but its outline is sharp.
    ``add``: the piece's mean colour less the table's under it (``_piece_means`` of both)."""
    if add.min() <= 0:
        return False
    return _edge_ratio(d8, xs, ys, inner) < GLARE_PIECE_SOFT * soft


ROUND_GLARE_AREA = 1.0  # a pile's piece (mat) under this many butts' area that is a filled disc of white light is a glare spot
ROUND_GLARE_LONG = 1.6  # ...less than this many times as long as wide...
ROUND_GLARE_FILL = 0.55  # ...filling this share of its enclosing circle...
ROUND_GLARE_WHITE = 0.8  # ...adding white light: its weakest channel this share of its strongest (as read, or over the white patch)


def _round_glare(add: np.ndarray, small: np.ndarray, xs: np.ndarray, ys: np.ndarray, single: float,
                 lamp: np.ndarray | None) -> bool:
    """Whether a piece the split of a pile cut out is a glare spot (mat): the lone pieces' round
    glare test (_looks_like_glare) on a pile's piece. A glare spot touching a pile counts as a butt
    by its area and the split gives it a piece of its own: under a butt's area (ROUND_GLARE_AREA of
    the frame's ``single``), round (its least rectangle under ROUND_GLARE_LONG long over wide, and
    filling ROUND_GLARE_FILL of its enclosing circle) and adding white light: its added light in its
    weakest channel at least ROUND_GLARE_WHITE of that in its strongest, as read or over ``lamp``
    (the mat's white patch, lit by the same lamp), or a quarter of it clipped. A glare is the lamp
    reflected: it adds the lamp's own colour (the white patch's proportions) or, where the camera's
    white balance makes the lamp neutral or the glare clips, white; a butt is
    about ASPECT times as long as wide (a butt's piece of a split is long too), and a pink butt on
    the red zone adds light mostly in green and blue. ``lamp`` None: no test."""
    if lamp is None or add.min() <= 8 or len(xs) >= ROUND_GLARE_AREA * single:
        return False
    pts = np.stack([xs, ys], 1).astype(np.float32)
    (_, _), (rw, rh), _ = cv2.minAreaRect(pts)
    if max(rw, rh) + 1 >= ROUND_GLARE_LONG * (min(rw, rh) + 1):
        return False
    _, radius = cv2.minEnclosingCircle(pts)
    if len(xs) <= ROUND_GLARE_FILL * np.pi * max(radius, 1.0) ** 2:
        return False
    clipped = _clipped_share(small, xs, ys)
    rel = add / np.maximum(np.asarray(lamp, np.float32), 1.0)
    return clipped > 0.25 or float(add.min()) >= ROUND_GLARE_WHITE * float(add.max()) or float(
        rel.min()) >= ROUND_GLARE_WHITE * float(rel.max())


GLARE_PIECE_HOLD = 0.85  # a pile's glare piece (mat) holding this share of a butt's area may hold a butt...
GLARE_PIECE_BUTT = 0.3  # ...found under it from this share of a butt's area...
GLARE_PIECE_MAX = 1.3  # ...to this many butts' area...
GLARE_PIECE_LONG = 0.65  # ...and this share of a butt's length long (a halo's piece beside a butt: under 0.6)


def _butt_in_glare_piece(small: np.ndarray, bg: np.ndarray, free: tuple[np.ndarray, np.ndarray],
                         xs: np.ndarray, ys: np.ndarray, half: float, single: float) -> dict[str, Any] | None:
    """A pile's piece read as glare (``_glare_piece``) on the mat may be a butt of the glare's own
    colour (pink on the red zone) with the halo around it, cut out of the pile as one piece: the
    butt is looked for in it as under a glare spot (``_under_glare`` with the piece as the glare and
    the zone's table beside it, which finds it by its outline standing over the glare's smooth
    course). Looked for in a piece of about a butt's area or more (a butt and its halo), and kept
    when what stands out is most of a butt's length: a butt lying under the glare stands over it
    along its length, a piece of halo cut beside a butt the split laid (less than a butt's area)
    rises over a shorter stretch. Sizes are the frame's own butts' (``single``, ``half``); the glare
    is then taken off the kept pixels."""
    if len(xs) < GLARE_PIECE_HOLD * single:
        return None
    m = int(round(2 * half)) + 1
    h, w = small.shape[:2]
    x, y = max(0, int(xs.min()) - m), max(0, int(ys.min()) - m)
    x1, y1 = min(w, int(xs.max()) + m + 1), min(h, int(ys.max()) + m + 1)
    bw, bh = x1 - x, y1 - y
    glare = np.zeros((bh, bw), bool)
    glare[ys - y, xs - x] = True
    table = (free[0][y:y1, x:x1] == 0) & (free[1][y:y1, x:x1] > 0)
    img = small[y:y1, x:x1]
    work = img.copy()
    keep = _under_glare(work, bg[y:y1, x:x1], glare, half, None, table, _window1(free[1], x, y, bw, bh))
    n = np.count_nonzero(keep)
    if not GLARE_PIECE_BUTT * single <= n <= GLARE_PIECE_MAX * single:
        return None
    ky, kx = np.nonzero(keep)
    (_, _), (rw, rh), _ = cv2.minAreaRect(np.stack([kx, ky], 1).astype(np.float32))
    if max(rw, rh) + 1 < GLARE_PIECE_LONG * np.sqrt(single * ASPECT):
        return None
    img[keep] = work[keep]
    return {"xs": (kx + x).astype(xs.dtype), "ys": (ky + y).astype(ys.dtype), "k": 1, "faint": False}


BUTT_BRIGHT = 200.0  # a butt this bright in a channel is checked for pixels the camera clipped (CLIPPED)...
CLIPPED_SHARE = 0.2  # ... and a channel with this share of its inner pixels clipped is a lower bound only


def _trim_bounds(m: int) -> tuple[int, int]:
    """The slice of ``m`` pixels sorted by lightness that a butt's trimmed mean keeps: less the darkest
    15 % and the lightest 10 % (at least one pixel)."""
    lo = int(m * 0.15)
    return lo, max(int(m * 0.9), lo + 1)


def _measure_all(small: np.ndarray, butts: list[dict[str, Any]]) -> tuple[np.ndarray, np.ndarray]:
    """Each butt's trimmed mean colour (its pixels nearest its middle, three quarters of them, less the
    darkest 15 % and lightest 10 %: no rim shading, filter band or glare) as (K, 3) float32, and which
    channels the camera clipped (the mean reads too low there) as (K, 3) bool; the table colour under
    them is ``_piece_means`` of the table estimate. All butts at once, with the very values a butt by
    butt loop gives (main's ``_measure``): the element-wise steps run over all butts' pixels (the same
    operations on the same values); each butt's partition and sort (numpy's own, on an array of its
    own values alone) stay per butt, and its mean is its integer sums over its count."""
    k = len(butts)
    counts = np.array([len(b["xs"]) for b in butts], np.intp)
    starts = np.zeros(k, np.intp)
    np.cumsum(counts[:-1], out=starts[1:])
    xs, ys = np.concatenate([b["xs"] for b in butts]), np.concatenate([b["ys"] for b in butts])
    pix = _pixels(small, xs, ys)
    # each butt's distance from its middle squared (xs.sum() / n: exact integer sums)
    cx, cy = np.add.reduceat(xs, starts) / counts, np.add.reduceat(ys, starts) / counts
    r2 = (xs - np.repeat(cx, counts)) ** 2 + (ys - np.repeat(cy, counts)) ** 2
    cut = np.full(k, np.inf)  # a butt of up to 12 pixels keeps them all
    for i in np.nonzero(counts > 12)[0].tolist():
        seg = r2[starts[i]:starts[i] + counts[i]]
        c = int(counts[i] * 0.75)
        cut[i] = np.partition(seg, c)[c]
    inner = r2 <= np.repeat(cut, counts)
    pix = pix[inner]
    kept = np.add.reduceat(inner.astype(np.intp), starts)
    kstarts = np.zeros(k, np.intp)
    np.cumsum(kept[:-1], out=kstarts[1:])
    keys = (pix[:, 0].astype(np.float32) + pix[:, 1]) + pix[:, 2]  # exact sums, as sum(axis=1)
    picks, lens = [], np.empty(k, np.intp)
    for i, (a, m) in enumerate(zip(kstarts.tolist(), kept.tolist(), strict=True)):
        order = np.argsort(keys[a:a + m].copy())  # each butt's own keys alone, as one by one
        lo, hi = _trim_bounds(m)
        picks.append(order[lo:hi] + a)
        lens[i] = len(picks[-1])
    pstarts = np.zeros(k, np.intp)
    np.cumsum(lens[:-1], out=pstarts[1:])
    sums = np.add.reduceat(pix[np.concatenate(picks)], pstarts, axis=0, dtype=np.int64)
    colours = sums.astype(np.float32) / lens.astype(np.float32)[:, None]  # as _mean32
    clipped = colours >= BUTT_CLIPPED
    for i in np.nonzero(colours.max(axis=1) >= BUTT_BRIGHT)[0].tolist():  # bright butts: pixels at the camera's top?
        a, m = int(kstarts[i]), int(kept[i])
        clipped[i] |= np.count_nonzero(pix[a:a + m] >= CLIPPED, axis=0) >= CLIPPED_SHARE * m
    return colours, clipped


def _piece_means(img: np.ndarray, xs_list: list[np.ndarray], ys_list: list[np.ndarray]) -> np.ndarray:
    """(K, 3) float32: ``_mean32(_pixels(img, xs, ys))`` of each of K non-empty pieces, from one gather
    of all their pixels and each piece's integer sums (exact, as _mean32's; far fewer calls)."""
    counts = np.array([len(x) for x in xs_list], np.intp)
    pix = _pixels(img, np.concatenate(xs_list), np.concatenate(ys_list))
    starts = np.zeros(len(counts), np.intp)
    np.cumsum(counts[:-1], out=starts[1:])
    sums = np.add.reduceat(pix, starts, axis=0, dtype=np.int64)
    return sums.astype(np.float32) / counts.astype(np.float32)[:, None]


def _pixels(img: np.ndarray, xs: np.ndarray, ys: np.ndarray) -> np.ndarray:
    """``img[ys, xs]`` of a colour image (the same array), by one take of the flat pixel numbers: numpy's
    index of two arrays into a three-channel image costs about twice as much."""
    if not img.flags.c_contiguous:
        return img[ys, xs]
    return img.reshape(-1, img.shape[2]).take(ys * img.shape[1] + xs, axis=0)


def _mean32(pix: np.ndarray) -> np.ndarray:
    """The mean of (N, 3) uint8 pixels as ``pix.astype(np.float32).mean(axis=0)`` gives it (the
    float32 sums of up to 65 000 such pixels are exact, so the integer sums are the same), cheaper:
    OpenCV's float64 sums of them are exact too, and cheaper than numpy's of three-value rows."""
    if not len(pix) or not pix.flags.c_contiguous:
        return pix.sum(axis=0).astype(np.float32) / np.float32(len(pix))
    return np.float32(cv2.sumElems(pix.reshape(-1, 1, 3))[:3]) / np.float32(len(pix))


# ---------------------------------------------------------------- scene-level colour fit

PRIOR_FREE = 0.155  # the mat's patches give the zone's lightness (log units) to within this, at no cost (the
# fit's three 0.05 steps either side of it, as before)...
PRIOR_REACH = 0.45  # ...and the butts move it up to this far when they agree (the patches lit unlike the zones)...
PRIOR_SPREAD = 0.3  # ...at a cost of 4 per this much beyond PRIOR_FREE
TONE_GAINS = (1.0, 1.15, 1.3, 1.5)  # feature gains tried on a bare table (a flat picture's contrast, 1/gamma)
TONE_MIN_BUTTS = 6  # ... when at least this many butts show it
TONE_TRY = -7.5  # ... when the butts fit the models worse than this (fit cost per butt) at gain 1
TONE_COST = 6.0  # ... at this cost for the largest gain


def _best_offset(model: _Model, offs: np.ndarray, raw: np.ndarray,
                 spread: float = 0.35, prior_l: float | None = None) -> tuple[np.ndarray, float]:
    """The offset of ``offs`` that fits the butts' features ``raw`` best, and its cost: each butt's
    distance to its nearest colour model (at most 30), plus a cost for chroma offsets beyond ``spread``
    and, with the mat's ``prior_l``, for a lightness offset beyond ``PRIOR_FREE`` of it."""
    # d(o) = q + 2 o.P(r - mu) + o.P.o, for all offsets o at once
    diff = raw[:, None, :] - model.mu[None, :, :]  # (N, K, 3)
    pd = np.einsum("kij,nkj->nki", model.prec, diff)  # (N, K, 3)
    q = (diff * pd).sum(axis=2) + model.logdet[None, :]  # (N, K)
    lin = (offs @ pd.reshape(-1, 3).T).reshape(len(offs), *q.shape)  # (O, N, K)
    quad = np.einsum("oi,kij,oj->ok", offs, model.prec, offs)  # (O, K)
    dist = 2 * lin
    dist += q
    dist += quad[:, None, :]
    # the nearest class per butt and offset, one class at a time: numpy's min along a last axis of
    # 8 runs a slow inner loop (about 3x this)
    near = dist[:, :, 0].copy()
    for k in range(1, dist.shape[2]):
        np.minimum(near, dist[:, :, k], out=near)
    cost = np.minimum(near, 30.0, out=near).sum(axis=1) + 4.0 * ((offs[:, 1:] / spread) ** 2).sum(axis=1)
    if prior_l is not None:
        cost += 4.0 * (np.maximum(np.abs(offs[:, 0] - prior_l) - PRIOR_FREE, 0.0) / PRIOR_SPREAD) ** 2
    i = int(np.argmin(cost))
    return offs[i], float(cost[i])


_GRID_OFFSETS: dict[tuple[tuple[float, ...], tuple[float, ...]], np.ndarray] = {}


def _grid_offsets(half: tuple[float, ...], step: tuple[float, ...]) -> np.ndarray:
    """The (N, 3) float64 offsets of a search grid about its centre (every combination of each axis's
    np.arange(-half, half + 1e-6, step), the first axis slowest), made once per grid: the grid about a
    centre c is c + these, the very float64 sums its axes' c + np.arange give."""
    key = (half, step)
    if key not in _GRID_OFFSETS:
        axes = [np.arange(-h, h + 1e-6, s) for h, s in zip(half, step, strict=True)]
        _GRID_OFFSETS[key] = np.stack([a.ravel() for a in np.meshgrid(*axes, indexing="ij")], 1)
    return _GRID_OFFSETS[key]


def _fit_scene(raw: np.ndarray, model: _Model, prior_l: float | None) -> tuple[np.ndarray, np.ndarray]:
    """Find the offset (table lightness, R/G, B/G) that makes the butts best match the colour models.

    ``raw`` holds per butt (log butt/table lightness, log R/G, log B/G). With the mat the table
    lightness is known (``prior_l``) and the colour is already balanced: only a small refit.
    Returns (offset, distances).
    """
    def grid(centre: np.ndarray, half: np.ndarray, step: np.ndarray) -> np.ndarray:
        return (np.asarray(centre, np.float64) + _grid_offsets(tuple(half), tuple(step))).astype(np.float32)

    if prior_l is not None:
        # the patches' lightness is off when a shadow or glare lies on them and not on the zones (or the
        # reverse); every butt's lightness against the zone beside it then says so alike
        off = _best_offset(model, grid(np.float32([prior_l, 0, 0]), [PRIOR_REACH, 0.08, 0.08], [0.05, 0.04, 0.04]),
                           raw, prior_l=prior_l)[0]
    else:
        # a camera's tone curve (or haze) scales every log ratio alike: a flat, lifted picture shows
        # the butts' lightness and chroma smaller than the models; with enough butts that contrast is
        # fitted too (a gain on the features), kept near 1 by its own cost
        coarse = grid(np.float32([-1.1, 0, 0]), [1.5, 0.6, 0.6], [0.3, 0.3, 0.3])
        fits = [_best_offset(model, coarse, raw)]
        gains = TONE_GAINS[:1]
        if len(raw) >= TONE_MIN_BUTTS and fits[0][1] > TONE_TRY * len(raw):  # the models fit the butts poorly
            gains = TONE_GAINS
            fits += [_best_offset(model, coarse, raw * g) for g in gains[1:]]
        costs = [c + TONE_COST * float(np.log(g) / np.log(TONE_GAINS[-1])) ** 2 for (_, c), g in zip(fits, gains, strict=True)]
        k = int(np.argmin(costs))
        gain, off = gains[k], fits[k][0]
        raw = raw * gain
        off = _best_offset(model, grid(off, [0.2, 0.15, 0.15], [0.1, 0.075, 0.075]), raw)[0]
        off = _best_offset(model, grid(off, [0.05, 0.035, 0.035], [0.05, 0.035, 0.035]), raw)[0]
    if prior_l is None:  # refine: butts that fit well pull the offset towards their class means
        start_off = off.copy()
        for _ in range(3):
            f = raw + off
            dist = model.dist(f)
            k = dist.argmin(axis=1)
            resid = model.mu[k] - f
            w = (dist.min(axis=1) - model.logdet[k] < 9.0).astype(np.float32)
            step = (resid * w[:, None]).sum(0) / (w.sum() + 2.0)
            off = start_off + np.clip(off + step - start_off, -0.1, 0.1)
    return off, model.dist(raw + off)


CAST_MIN_BUTTS = 6  # a lamp's strong colour cast is fitted from the butts themselves from this many on...
CAST_TRY = -8.5  # ... when they fit the models worse than this (per butt) after the usual light fit
CAST_REACH = 0.45  # ... and the cast lies beyond the usual fit's easy reach (log R/G or log B/G)...
CAST_BETTER = 1.0  # ... and the butts balanced by it fit better by this much per butt
CAST_SPREAD = 1.2  # chroma offsets cost 4 at this size in the cast's search (0.35 in the usual fit)


def _cast_balanced(items: list[dict[str, Any]], raw: np.ndarray, dist: np.ndarray,
                   model: _Model) -> tuple[np.ndarray, np.ndarray, np.ndarray, np.ndarray] | None:
    """The butts under a lamp's strong colour cast, beyond the usual fit's reach: their features with
    the cast taken off their colours as channel gains, the gains, and the usual fit of those features
    (offset, distances); None when the usual fit is good or the cast does not fit better. Gains, not
    offsets of the log features: a channel the lamp nearly puts out (blue under a candle-warm bulb)
    is read again at its true share, not squeezed by the features' dark-level guard. With the mat
    too: its patches' balance misses a cast that glare on the patches alone hides (they read neutral)."""
    n = len(raw)
    fit = float(np.minimum(dist.min(axis=1), 30.0).sum())
    if n < CAST_MIN_BUTTS or fit <= CAST_TRY * n:
        return None
    off = np.float32([-1.1, -0.45, 1.05])
    for half, step in (((1.5, 0.75, 1.35), (0.3, 0.3, 0.3)), ((0.15, 0.15, 0.15), (0.15, 0.075, 0.075))):
        axes = [c + np.arange(-h, h + 1e-6, st) for c, h, st in zip(off, half, step, strict=True)]
        wide = np.stack([a.ravel() for a in np.meshgrid(*axes, indexing="ij")], 1).astype(np.float32)
        off = _best_offset(model, wide, raw, spread=CAST_SPREAD)[0]
    if np.abs(off[1:]).max() < CAST_REACH:
        return None
    gains = np.float32([np.exp(off[2]), 1.0, np.exp(off[1])])
    fc = _features_bgr(np.stack([it["bgr"] for it in items]) * gains)
    ft = _features_bgr(np.stack([it["table_bgr"] for it in items]) * gains)
    balanced = np.stack([fc[:, 0] - ft[:, 0], fc[:, 1], fc[:, 2]], 1).astype(np.float32)
    off, dist2 = _fit_scene(balanced, model, None)
    if float(np.minimum(dist2.min(axis=1), 30.0).sum()) > fit - CAST_BETTER * n:
        return None
    return balanced, gains, off, dist2


BUTT_CLIPPED = 240.0  # a butt whose mean reading reaches this in a channel has it partly clipped by the camera


def _clipped_dist(items: list[dict[str, Any]], raw: np.ndarray, off: np.ndarray, dist: np.ndarray,
                  model: _Model, gains: np.ndarray | None) -> np.ndarray:
    """The distances with each butt's clipped red or blue channel read as a lower bound: a pink butt
    whose red a warm lamp clipped is as red as the pink model asks, not as the clipped reading says
    (read against each colour model, the channel takes the larger of the reading and the model's)."""
    idx = np.flatnonzero([it["bound"] for it in items])
    clip = np.stack([it["clipped"] for it in items])
    bgr = np.stack([items[i]["bgr"] for i in idx]) * (gains if gains is not None else 1.0) + EPS  # (M, 3)
    f = raw[idx] + off  # (M, 3)
    k = len(model.names)
    feats = np.repeat(f[:, None, :], k, axis=1)  # (M, K, 3): the features read against each model
    chans = np.repeat(bgr[:, None, :], k, axis=1)
    for c, j in ((2, 1), (0, 2)):  # red -> log R/G, blue -> log B/G
        at = clip[idx, c]
        raised = np.maximum(f[:, j, None], model.mu[None, :, j])
        feats[at, :, j] = raised[at]
        chans[at, :, c] = bgr[at, 1, None] * np.exp(raised[at] - off[j])
    feats[:, :, 0] = f[:, 0, None] + np.log(chans.mean(axis=2) / bgr.mean(axis=1, keepdims=True))
    d = feats - model.mu[None]
    dist = dist.copy()
    dist[idx] = np.einsum("mki,kij,mkj->mk", d, model.prec, d) + model.logdet[None, :]
    return dist


# ---------------------------------------------------------------- the reader

def _empty(frame: Any) -> Observation:
    h, w = (frame.shape[:2] if isinstance(frame, np.ndarray) and frame.ndim >= 2 else (0, 0))
    return Observation("tokens", [], int(w), int(h))


def _looks_flat(white: np.ndarray, grey: np.ndarray) -> bool:
    """Whether the grey patch against this white reading shows a picture flatter than printed in
    every channel (a tone curve lifts every channel), but not so flat that the two are lit unlike."""
    flatness = matmod.flatness(white, grey)
    return bool(MAT_FLAT < flatness.min() and flatness.max() < MAT_FLAT_MAX)


VEIL_RING = 6  # the table this many work pixels around a butt (beyond VEIL_GAP from every butt) tells the light on it
VEIL_GAP = 2
VEIL_SHARE = 0.06  # a butt is read less the ring's neutral added light when that is at least this share of the table's
VEIL_BETTER = 1.0  # ... and that reading is kept when it fits its nearest colour model better by this much
END_AGREE = 0.5  # a glare on one end: the butt's ends differ in every channel by this share of what the table's do...
END_GATE = 0.5  # ... looked for only where the light around the whole butt is this share of VEIL_SHARE (speed)
END_BETTER = 0.0  # ... and the darker end's reading is kept when it fits its nearest colour model better (by any amount)


def _end_thirds(small: np.ndarray, xs: np.ndarray, ys: np.ndarray) -> tuple[list[np.ndarray], list[np.ndarray]]:
    """A butt's two end thirds along its long axis: each one's pixels (masks of xs, ys) and its
    trimmed mean colour (less its darkest 15 % and lightest 10 %, as ``_measure_all``)."""
    px, py = xs.astype(np.float32), ys.astype(np.float32)
    dx, dy = px - px.mean(), py - py.mean()
    sxx, syy, sxy = float((dx * dx).mean()), float((dy * dy).mean()), float((dx * dy).mean())
    ang = 0.5 * np.arctan2(2 * sxy, sxx - syy)  # the long axis
    t = dx * np.float32(np.cos(ang)) + dy * np.float32(np.sin(ang))
    lo, hi = np.quantile(t, [1 / 3, 2 / 3])
    pix = _pixels(small, xs, ys).astype(np.float32)
    masks, means = [t <= lo, t >= hi], []
    for m in masks:
        p = pix[m]
        order = np.argsort(p.sum(axis=1))
        n = len(order)
        lo, hi = _trim_bounds(n)
        means.append(p[order[lo:hi]].mean(axis=0))
    return masks, means


# float32 sums of integers (levels up to 255, three channels) are exact below 2 ** 24: rings of fewer
# pixels than this have their means from integer sums (any order), the same float32 values
VEIL_EXACT_SUM = 2 ** 24 // (3 * 255)


def _ring_light(img: np.ndarray, table: np.ndarray, ring: np.ndarray, n: int) -> tuple[float, float]:
    """(least channel added, table level) over the ``n`` pixels where the 0/1 ``ring`` is set: the same
    values as ``(img[sel].astype(np.float32) - table[sel]).mean(0).min()`` and ``table[sel]
    .astype(np.float32).mean()`` (sel = ring as bool) while ``n < VEIL_EXACT_SUM``. Each float32 sum there
    is an exact integer, so it is the integer sum (OpenCV's masked mean in double times n, rounded),
    divided by n in float32 as numpy's mean does; no per-pixel arrays are made."""
    si, st = cv2.mean(img, mask=ring), cv2.mean(table, mask=ring)
    s_img = [round(v * n) for v in si[:3]]
    s_tab = [round(v * n) for v in st[:3]]
    add = np.float32([a - b for a, b in zip(s_img, s_tab, strict=True)]) / np.float32(n)
    return float(add.min()), float(np.float32(sum(s_tab)) / np.float32(3 * n))


def _veil_taken(small: np.ndarray, bg: np.ndarray, search: np.ndarray, butts: list[dict[str, Any]],
                colours: np.ndarray) -> dict[int, list[tuple[np.ndarray, float]]]:
    """On the mat, the butts under a broad glare the table estimate does not follow: each butt's colour
    less the neutral light (least channel over the table estimate) that glare adds to the table pixels
    around it, for the butts where that light is at least VEIL_SHARE of the table's own level. The
    caller keeps such a reading only where it fits a colour model better than the reading as it is."""
    h, w = small.shape[:2]
    allm = np.zeros((h, w), np.uint8)
    starts = np.zeros(len(butts), np.intp)
    np.cumsum([len(b["xs"]) for b in butts[:-1]], out=starts[1:])
    all_x, all_y = np.concatenate([b["xs"] for b in butts]), np.concatenate([b["ys"] for b in butts])
    allm[all_y, all_x] = 1
    g = 2 * VEIL_GAP + 1
    # 0/1 (uint8): the windows below are cut from it and and-ed with each ring in place
    table_ok = ((cv2.dilate(allm, np.ones((g, g), np.uint8)) == 0) & (search > 0)).view(np.uint8)
    k = 2 * VEIL_RING + 1
    kernel = np.ones((k, k), np.uint8)
    levels = small.dtype == np.uint8 and bg.dtype == np.uint8  # integer levels: _ring_light's exact sums
    out: dict[int, list[tuple[np.ndarray, float]]] = {}
    # every butt's window (its box grown by VEIL_RING, inside the image) at once
    x0s = np.maximum(np.minimum.reduceat(all_x, starts) - VEIL_RING, 0).tolist()
    y0s = np.maximum(np.minimum.reduceat(all_y, starts) - VEIL_RING, 0).tolist()
    x1s = np.minimum(np.maximum.reduceat(all_x, starts) + VEIL_RING + 1, w).tolist()
    y1s = np.minimum(np.maximum.reduceat(all_y, starts) + VEIL_RING + 1, h).tolist()

    def light(ry: np.ndarray, rx: np.ndarray) -> tuple[float, float] | None:
        """(least channel added, table level) around the pixels (ry, rx) of the window."""
        m = np.zeros((y1 - y0, x1 - x0), np.uint8)
        m[ry, rx] = 1
        ring = cv2.dilate(m, kernel)
        np.bitwise_and(ring, table_ok[y0:y1, x0:x1], out=ring)
        n = cv2.countNonZero(ring)
        if n < 10:
            return None
        if levels and n < VEIL_EXACT_SUM:
            return _ring_light(small[y0:y1, x0:x1], bg[y0:y1, x0:x1], ring, n)
        sel = ring.view(bool)
        under = bg[y0:y1, x0:x1][sel].astype(np.float32)
        add = np.subtract(small[y0:y1, x0:x1][sel], under, dtype=np.float32).mean(0)
        return float(add.min()), float(under.mean())

    for i, b in enumerate(butts):
        x0, y0, x1, y1 = x0s[i], y0s[i], x1s[i], y1s[i]
        ry, rx = b["ys"] - y0, b["xs"] - x0
        whole = light(ry, rx)
        if whole is not None and whole[0] > 0 and whole[0] >= VEIL_SHARE * whole[1]:
            out[i] = [(np.maximum(colours[i] - np.float32(whole[0]), 1.0).astype(np.float32), VEIL_BETTER)]
        if len(b["xs"]) < 40 or whole is None or whole[0] < END_GATE * VEIL_SHARE * whole[1]:  # hardly any light added around it: no glare on an end
            continue
        # a glare on one end (smaller than the butt): the table around that end is lit more than around
        # the other, and the butt's own ends differ by about as much in every channel (added light):
        # the darker end, less the light around it, is read
        masks, means = _end_thirds(small, b["xs"], b["ys"])
        dark = 0 if means[0].sum() <= means[1].sum() else 1
        lit_l, dark_l = light(ry[masks[1 - dark]], rx[masks[1 - dark]]), light(ry[masks[dark]], rx[masks[dark]])
        if lit_l is None or lit_l[0] <= 0 or lit_l[0] < VEIL_SHARE * lit_l[1]:
            continue
        taken = max(0.0, dark_l[0]) if dark_l is not None else 0.0
        if dark_l is not None and dark_l[0] >= lit_l[0]:
            continue
        if float((means[1 - dark] - means[dark]).min()) >= END_AGREE * (lit_l[0] - taken):
            out.setdefault(i, []).append(
                (np.maximum(means[dark] - np.float32(taken), 1.0).astype(np.float32), END_BETTER))
    return out


def _zone_deeper(raw: np.ndarray, table: np.ndarray) -> bool:
    """Whether a piece (``raw``: log lightness less its table's, log R/G, log B/G) darker than its table
    has a chroma reaching ZONE_DEEPER of the table's own (``table``'s features) along the table's
    direction, where the table has a hue of its own (chroma SHADOW_CHROMA or more from neutral)."""
    tc = float(table[1]) ** 2 + float(table[2]) ** 2
    if raw[0] >= 0 or tc < SHADOW_CHROMA ** 2:
        return False
    return float(raw[1]) * float(table[1]) + float(raw[2]) * float(table[2]) >= ZONE_DEEPER * tc


def _analyse(frame: np.ndarray, model: _Model) -> tuple[list[dict[str, Any]], np.ndarray | None, Any]:
    """Shared by read and teach: butts with their raw features, positions and boxes."""
    cv2.setRNGSeed(1)  # k-means seeding: the same frame always gives the same answer
    h, w = frame.shape[:2]
    f = min(1.0, WORK_WIDTH / w)
    small = cv2.resize(frame, (max(1, int(w * f)), max(1, int(h * f))), interpolation=cv2.INTER_AREA) \
        if f < 1 else frame
    mat = matmod.find_mat(frame, small if WORK_WIDTH == 640 else None)
    if small is frame:
        small = frame.copy()  # glare is taken off butts in the work image, never in the caller's frame
    sh, sw = small.shape[:2]
    luts = lamp = None
    ox = oy = 0.0  # frame position of the work image's top-left corner
    if mat is not None:
        zones = [poly * f for poly in mat.zones]
        x0, y0 = np.floor(np.min([z.min(0) for z in zones], axis=0)).astype(int) - 2
        x1, y1 = np.ceil(np.max([z.max(0) for z in zones], axis=0)).astype(int) + 3
        x0, y0, x1, y1 = max(0, x0), max(0, y0), min(sw, x1), min(sh, y1)
        if x1 - x0 < 16 or y1 - y0 < 16:
            return [], None, mat
        # only the zones are searched, at a scale where a butt is about WORK_BUTT_WIDTH pixels wide
        g = float(np.clip(WORK_BUTT_WIDTH / (BUTT_WIDTH_UNITS * mat.scale * f), MIN_MAT_SCALE, 1.0))
        crop = small[y0:y1, x0:x1]
        if g < 1:
            crop = _shrink(crop, (max(1, int((x1 - x0) * g)), max(1, int((y1 - y0) * g))))
        ox, oy = x0 / f, y0 / f
        small = crop
        f = f * g
        search = np.zeros(small.shape[:2], np.uint8)
        for poly in mat.zones:
            p = poly * f - np.float32([ox * f, oy * f])
            inner = p + (p.mean(0) - p) * 0.03
            cv2.fillConvexPoly(search, np.round(inner).astype(np.int32), 1)
        edge = max(3, int(round(6 * g))) | 1
        search = cv2.erode(search, np.ones((edge, edge), np.uint8))  # keep off the zones' printed edges
        if mat.white.min() > 8:
            # measured colours, not pixels, are corrected: a butt brighter than the white patch
            # keeps its colour (a pink butt clipped at 255 in two channels reads white)
            grey = mat.grey
            white = matmod.unclipped_white(mat.white, grey)
            lamp = white  # (the colour of the light a glare adds)
            # a flat picture (the grey patch seen lighter against the white than printed) is given its
            # printed contrast back; a tone curve lifts the grey against every white of the mat alike,
            # uneven light (a fall-off, a shadow or glare between the two patches) only against the
            # white patch: the grey must look flat against the paper right beside it too
            flat = _looks_flat(white, grey) and (
                mat.grey_paper is None or _looks_flat(matmod.unclipped_white(mat.grey_paper, grey), grey))
            luts = matmod.correction_luts(white, grey, clip=False, top_gain=MAT_TOP_GAIN,
                                          grey_share=matmod.GREY_SHARE if flat else None)
    else:
        if BARE_SCALE < 1:
            # a plain resize: an area resize by 0.8 costs five times more; a blur first lost butts
            small = cv2.resize(small, (max(1, int(sw * BARE_SCALE)), max(1, int(sh * BARE_SCALE))),
                               interpolation=cv2.INTER_LINEAR)
            f *= BARE_SCALE
        search = np.ones(small.shape[:2], np.uint8)
    if not search.any():
        return [], None, mat
    bg = _background(small, search, min(h, w) * f, one_colour=mat is not None)
    # small butts on a bare table (far camera) are read again at a scale where they are wide enough to
    # split touching ones (the mat's scale is set by the mat itself); the first pass stops once it
    # knows their width
    stop = BARE_HALF / 1.15 if mat is None and f * 1.15 < 1.0 else 0.0
    butts, half = _find_butts(small, search, bg, stop, one_colour=mat is not None, lamp=lamp)
    if half < stop:
        f *= min(BARE_HALF / half, 1.0 / f)
        size = (max(1, int(w * f)), max(1, int(h * f)))
        # an area resize by a fraction runs OpenCV's slow scalar loop (17-29 ms at 1280x960 here):
        # within 2x, the blur and bilinear sample that stands in for it (3-5x less)
        small = (_shrink(frame, size) if f >= 0.5 else cv2.resize(frame, size, interpolation=cv2.INTER_AREA)) \
            if f < 1 else frame.copy()
        search = np.ones(small.shape[:2], np.uint8)
        bg = _background(small, search, min(h, w) * f)
        butts, _ = _find_butts(small, search, bg)
    items = []
    if not butts:
        return [], None, mat
    colours, clipped = _measure_all(small, butts)  # clipped channels: a lower bound only
    tables = _piece_means(bg, [b["xs"][::3] for b in butts], [b["ys"][::3] for b in butts])
    # a clipped red or blue is read as a lower bound (a clipped green, which every ratio is read against, is not)
    bound = ((clipped[:, 0] | clipped[:, 2]) & ~clipped[:, 1]).tolist()
    veiled = _veil_taken(small, bg, search, butts, colours) if mat is not None else {}
    vidx = [i for i in veiled for _ in veiled[i]]  # a butt's index once per reading it has
    vmargin = [m for i in veiled for _, m in veiled[i]]
    vcol = np.stack([c for i in veiled for c, _ in veiled[i]]) if vidx else np.zeros((0, 3), np.float32)
    if luts is not None:
        grid = np.arange(256, dtype=np.float32)
        for c in range(3):
            colours[:, c] = np.interp(colours[:, c], grid, luts[:, c])
            tables[:, c] = np.interp(tables[:, c], grid, luts[:, c])
            if vidx:
                vcol[:, c] = np.interp(vcol[:, c], grid, luts[:, c])
    fc, ft = _features_bgr(colours), _features_bgr(tables)
    fv = _features_bgr(vcol) if vidx else None
    vpos: dict[int, list[int]] = {}
    for j, i in enumerate(vidx):
        vpos.setdefault(i, []).append(j)
    zone = None
    if mat is not None:
        fill = np.float32(mat.zone_fill)
        if luts is not None:
            fill = np.float32([np.interp(fill[c], np.arange(256), luts[:, c]) for c in range(3)])
        zone = _features_bgr(fill)[0]
    # every butt's least and largest pixel column and row at once (of the work image's integer
    # positions: the frame's, x / f + ox, rise with them, so theirs are the same as the frame positions')
    starts = np.zeros(len(butts), np.intp)
    np.cumsum([len(b["xs"]) for b in butts[:-1]], out=starts[1:])
    all_x, all_y = np.concatenate([b["xs"] for b in butts]), np.concatenate([b["ys"] for b in butts])
    lows = zip(np.minimum.reduceat(all_x, starts).tolist(), np.minimum.reduceat(all_y, starts).tolist(), strict=True)
    highs = zip(np.maximum.reduceat(all_x, starts).tolist(), np.maximum.reduceat(all_y, starts).tolist(), strict=True)
    # the frame positions of all butts' pixels in two operations; each butt sums its own (contiguous) part
    frame_x, frame_y = all_x / f + ox, all_y / f + oy
    for i, (b, (lx, ly), (hx, hy)) in enumerate(zip(butts, lows, highs, strict=True)):
        raw = np.float32([fc[i, 0] - ft[i, 0], fc[i, 1], fc[i, 2]])
        if zone is not None and SHADOW_L < raw[0] and (
                (raw[0] < SHADOW_MAX_L and np.hypot(*(fc[i, 1:] - ft[i, 1:])) < SHADOW_CHROMA)
                or (raw[0] < GAP_MAX_L and np.hypot(*(fc[i, 1:] - zone[1:])) < GAP_CHROMA)):
            continue  # the red zone's own colour, only darker: a shadow or gap between butts (no butt is red)
        if zone is not None and _zone_deeper(raw, ft[i]):
            continue  # the zone's own hue, darker and as deep or deeper: its shade, not a butt
        a, n = int(starts[i]), len(b["xs"])
        xs, ys = frame_x[a:a + n], frame_y[a:a + n]  # as b["xs"] / f + ox, b["ys"] / f + oy
        # xs.min(), ys.min(), xs.max(), ys.max(): the same float64 values, from the integer ones
        x_min, y_min = np.float64(lx) / f + ox, np.float64(ly) / f + oy
        box = [int(x_min), int(y_min), int(np.ceil((np.float64(hx) / f + ox) - x_min + 1 / f)),
               int(np.ceil((np.float64(hy) / f + oy) - y_min + 1 / f))]
        items.append({"raw": raw, "table_l": float(ft[i, 0]), "bgr": colours[i], "table_bgr": tables[i],
                      "clipped": clipped[i], "bound": bound[i],
                      "centre": (float(xs.sum() / len(xs)), float(ys.sum() / len(ys))),  # = .mean(), cheaper
                      "box": box, "k": b["k"], "faint": b.get("faint", False)})
        if i in vpos:
            items[-1]["veil"] = [(np.float32([fv[j, 0] - ft[i, 0], fv[j, 1], fv[j, 2]]), vcol[j].astype(np.float32),
                                  vmargin[j]) for j in vpos[i]]
    prior = None
    if mat is not None and luts is not None:
        fill = np.array([np.interp(mat.zone_fill[c], np.arange(256), luts[:, c]) for c in range(3)], np.float32)
        prior = float(_features_bgr(fill)[0][0])
    return items, prior, mat


FAINT_MIN_CONF = 0.5
BLACK_DARKER = 0.1  # bare table: a butt read black takes at least this log lightness from the table beside it...
BLACK_ALONE = 1.5  # ...or lies within this many butt lengths (the frame's median box side) of another butt


def _black_stray(items: list[dict[str, Any]], i: int, best: np.ndarray, black: int) -> bool:
    """A piece read black on a bare table that is no darker than its table by BLACK_DARKER and lies
    BLACK_ALONE butt lengths or more from every other piece: a stray, not a butt."""
    if best[i] != black or items[i]["raw"][0] <= -BLACK_DARKER or len(items) < 2:
        return False
    length = float(np.median([max(it["box"][2], it["box"][3]) for it in items]))
    cx, cy = items[i]["centre"]
    near = min(float(np.hypot(it["centre"][0] - cx, it["centre"][1] - cy)) for j, it in enumerate(items) if j != i)
    return near >= BLACK_ALONE * length


def read(frame: np.ndarray, profile: dict | None = None) -> Observation:
    """Every butt in the frame with its colour, group (1-3), box and confidence; never raises."""
    try:
        frame = check_frame(frame)
    except ImageError:
        return _empty(frame)
    h, w = frame.shape[:2]
    if min(h, w) < 32:
        return Observation("tokens", [], w, h)
    model = _model_for(profile)
    items, prior, mat = _analyse(frame, model)
    if not items:
        return Observation("tokens", [], w, h)
    raw = np.stack([it["raw"] for it in items])
    off, dist = _fit_scene(raw, model, prior)
    # a butt under a broad glare (mat): its reading less the glare's light around it, where that fits
    # a colour better at the frame's light; the light is fitted again with the readings kept
    swapped = False
    for i, it in enumerate(items):
        best = None  # the reading that fits best of those that fit better by their margin
        for v_raw, v_bgr, margin in it.get("veil", ()):
            d = float(model.dist((v_raw + off)[None])[0].min())
            if d < dist[i].min() - margin and (best is None or d < best[0]):
                best = (d, v_raw, v_bgr)
        if best is not None:
            raw[i], it["bgr"] = best[1], best[2]
            swapped = True
    if swapped:
        off, dist = _fit_scene(raw, model, prior)
    gains = None
    # with the mat too: the patches' balance misses a cast when glare or a shadow lies on them alone
    balanced = _cast_balanced(items, raw, dist, model)
    if balanced is not None:
        raw, gains, off, dist = balanced
    if any(it["bound"] for it in items):
        dist = _clipped_dist(items, raw, off, dist, model, gains)
    post = np.exp(-(dist - dist.min(axis=1, keepdims=True)) / 2)
    post /= post.sum(axis=1, keepdims=True)
    best = dist.argmin(axis=1)
    fit = np.exp(-np.maximum(0.0, dist[np.arange(len(items)), best] - model.logdet[best] - 6.0) / 8.0)
    conf = post[np.arange(len(items)), best] * fit * np.where([it["k"] > 1 for it in items], 0.85, 1.0)
    # a faint piece (found only below the frame's threshold) is a butt only when its colour is clearly
    # a butt's; it is dropped before the grouping, where a lone stray would take a group of its own
    keep = [i for i, it in enumerate(items) if not (it["faint"] and conf[i] < FAINT_MIN_CONF)]
    if mat is None and "black" in model.names:
        # on a bare table a butt read black is darker than the table beside it (black paint takes more
        # light than any wood): a piece read black that is not, away from every other butt, is a
        # change of chroma alone (noise and JPEG colour blocks of a dim frame, a vignetted corner),
        # and it would take a pile of its own
        keep = [i for i in keep if not _black_stray(items, i, best, model.names.index("black"))]
    items, best, conf = [items[i] for i in keep], best[keep], conf[keep]
    if not items:
        return Observation("tokens", [], w, h)
    centres = np.float32([it["centre"] for it in items])
    if mat is not None:
        groups = np.array([z or 0 for z in mat.zones_of(centres)])
    else:
        length = float(np.median([max(it["box"][2], it["box"][3]) for it in items]))
        groups = _group_without_mat(centres, float(w), length)
    objects = []
    for i, it in enumerate(items):
        if groups[i] == 0:
            continue
        c = float(conf[i])
        if mat is None and len(items) < 3:
            c *= 0.6  # too few butts to fit the light, and groups are a guess
        objects.append({"colour": model.names[int(best[i])], "group": int(groups[i]),
                        "box": it["box"], "confidence": round(min(1.0, c), 3)})
    return Observation("tokens", objects, w, h)


def teach(examples: dict[str, list[np.ndarray]]) -> dict:
    """Learn each butt colour's appearance (mean and covariance of the features) from photos, one
    colour per class folder. Photos with the mat give absolute features; photos without it share
    one fitted light offset (they are taken on the same table under the same light)."""
    unknown = sorted(set(examples) - set(COLOURS))
    if unknown:
        raise ValueError(f"unknown butt colour '{unknown[0]}': class folders must be named "
                         f"{', '.join(COLOURS)}")
    model = _model_for(None)
    per_class: dict[str, list[np.ndarray]] = {}
    free: list[tuple[str, np.ndarray]] = []
    for name, photos in examples.items():
        for n, photo in enumerate(photos, start=1):
            try:
                frame = check_frame(photo)
            except ImageError as exc:
                raise ValueError(f"{name} photo {n}: {exc}") from None
            items, prior, mat = _analyse(frame, model)
            if not items:
                raise ValueError(f"{name} photo {n}: no butt found in it")
            for it in items:
                if prior is not None:
                    per_class.setdefault(name, []).append(it["raw"] + np.float32([prior, 0, 0]))
                else:
                    free.append((name, it["raw"]))
    if free:
        k_of = {c: i for i, c in enumerate(model.names)}
        resid = np.stack([model.mu[k_of[name]] - raw for name, raw in free])
        names = [name for name, _ in free]
        # one shared offset: the mean over classes of each class's mean residual
        off = np.mean([resid[[nm == c for nm in names]].mean(axis=0) for c in dict.fromkeys(names)], axis=0)
        off[1:] = np.clip(off[1:], -0.7, 0.7)
        for name, raw in free:
            per_class.setdefault(name, []).append(raw + off)
    base = default_model()
    means, covs = dict(base["means"]), dict(base["covs"])
    for name, feats in per_class.items():
        arr = np.stack(feats)
        mu = arr.mean(axis=0)
        cov = np.cov(arr.T) if len(arr) > 2 else np.zeros((3, 3))
        prior_cov = np.asarray(base["covs"][name]) * 0.35
        n = len(arr)
        cov = (cov * n + prior_cov * 4) / (n + 4)
        means[name] = [float(v) for v in mu]
        covs[name] = [[float(v) for v in row] for row in cov]
    return {"means": means, "covs": covs, "taught": sorted(per_class)}
