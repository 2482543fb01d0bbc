"""The card reader's faster routines (sixteenth session) against plain references: each gives exactly
what the code it replaced gave (the references below are that code, as on main db02d74), on rendered
tuning scenes (seeds below 1000) and on random inputs. The readings did not change; these tests catch
a routine that would make them change (a card read with another value or confidence)."""

from __future__ import annotations

import math

import cv2
import numpy as np
import pytest

from tests.vision.card_check import small as _small
from tests.vision.card_check import tuning_frames
from vision import cards
from vision.bench_light import relit
from vision.cards_glyphs import feature
from vision.common import CLIPPED

RNG_SEED = 16


@pytest.fixture(scope="module")
def frames():
    """Two rendered tuning scenes (a fanned row and several rows), as rendered and under a warm lamp."""
    return tuning_frames()


# --- plain references: the code these routines replaced ---------------------------------------------


def _ref_index_feature(frame, quad_full, fw_over_fh, gains, least):
    wc = max(8, int(round(cards.FACE_H * fw_over_fh)))
    mg = 6
    rect = np.float32([[mg, mg], [wc + mg, mg], [wc + mg, cards.FACE_H + mg], [mg, cards.FACE_H + mg]])
    m = cv2.getPerspectiveTransform(quad_full.astype(np.float32), rect)
    full_w = int(cards.INDEX_W * cards.FACE_H)
    rw = min(wc + (cards.STRIP_REACH if wc < full_w else 0), full_w) + mg
    rh = int(cards.INDEX_H * cards.FACE_H) + mg
    roi = cv2.warpPerspective(frame, m, (rw, rh), flags=cv2.INTER_LINEAR, borderMode=cv2.BORDER_REPLICATE)
    vm = cards._vmax(roi)
    if wc < full_w:
        rw = cards._strip_end(roi, gains, mg + int(0.6 * wc), mg)
        vm = np.ascontiguousarray(vm[:, :rw])
    inner = np.ascontiguousarray(vm[mg:, mg:])
    q90, q60, d1 = cards._levels_at(inner, (0.9, 0.6, 0.01))
    paper = min(q90, 1.3 * q60)
    if paper < least:
        return None, 0.0
    otsu, _ = cv2.threshold(cv2.min(inner, paper), 0, 255, cv2.THRESH_BINARY + cv2.THRESH_OTSU)
    cap = max(0.6 * paper, d1 + cards.INK_MID * (paper - d1))
    dark = cv2.compare(vm, math.ceil(min(float(otsu), cap)), cv2.CMP_LT)
    n, lab, st, _ = cv2.connectedComponentsWithStats(dark, connectivity=8)
    keep = cards._glyph_parts(st, rw, rh)
    if keep is None:
        return None, 0.0
    glyph = np.take(keep, lab)
    ink = vm.astype(np.float32)
    np.subtract(paper, ink, out=ink)
    ink *= 1.0 / paper
    np.minimum(np.maximum(ink, 0, out=ink), 1, out=ink)
    ink *= glyph
    contrast = cards._clip((paper - cards._quantile(vm[glyph], 0.5)) / paper, 0, 1)
    return feature(ink), contrast


def _ref_white_estimate(img):
    hgt, wid = img.shape[:2]
    sub = np.ascontiguousarray(img[::2, ::2])
    b, g, r = cv2.split(sub)
    v = cv2.max(cv2.max(b, g), r)
    vmin = cv2.min(cv2.min(b, g), r)
    mid = (b.astype(np.int32) + g + r - v - vmin).astype(np.uint16)  # sum - max - min
    lit = cv2.compare(mid, CLIPPED, cv2.CMP_LT)
    hist = cv2.calcHist([v], [0], lit, [256], [0, 256]).ravel()
    if hist.sum() < 100:
        return np.array([200.0, 200.0, 200.0], np.float32)
    cum = np.cumsum(hist)
    thr = int(np.searchsorted(cum, 0.94 * cum[-1]))
    if thr < CLIPPED:
        if cum[CLIPPED - 1] < 100:
            return np.array([200.0, 200.0, 200.0], np.float32)
        thr = int(np.searchsorted(cum[:CLIPPED], 0.94 * cum[CLIPPED - 1]))
        top = cv2.inRange(v, thr, CLIPPED - 1)
        lit = cv2.compare(v, CLIPPED, cv2.CMP_LT)
    else:
        top = cv2.compare(v, thr, cv2.CMP_GE) & lit
        mid8 = mid.astype(np.uint8)
        cm = np.cumsum(cv2.calcHist([mid8], [0], top, [256], [0, 256]).ravel())
        top &= cv2.compare(mid8, int(np.searchsorted(cm, cm[-1] - 0.06 * cum[-1])), cv2.CMP_GE)
    chosen = top > 0
    px = sub[chosen].astype(np.float32)
    if len(px) < 10:
        return np.array([200.0, 200.0, 200.0], np.float32)
    top_v = v[chosen].astype(np.float32)
    pc = (top_v - vmin[chosen].astype(np.float32)) / (top_v + 1.0)
    bright = px[pc <= cards._quantile(pc, 0.3)].mean(axis=0)
    vmin = vmin.copy()
    vmin[lit == 0] = 0
    hm = np.cumsum(cv2.calcHist([vmin], [0], None, [256], [0, 256]).ravel()[1:])
    t_min = 1 + int(np.searchsorted(hm, cards.NEUTRAL_TOP * hm[-1]))
    npx = sub[vmin >= t_min].astype(np.float32)
    if len(npx) < 10:
        return bright
    neutral = npx.mean(axis=0)
    rel = bright / np.maximum(neutral, 1.0)
    return neutral if (rel.max() - rel.min()) / rel.max() > cards.TABLE_TINT else bright


def _ref_framed(small, faces, gains, white_level):
    if not faces:
        return np.zeros(0, np.float32)
    hgt, wid = small.shape[:2]
    q = np.stack([f["quad"] for f in faces]).astype(np.float32)
    reach = np.float32([max(cards.BORDER_BAND[0], cards.BORDER_BAND[1] * f["h"]) for f in faces])
    starts, ends = q[:, [0, 0, 1, 3]], q[:, [3, 1, 2, 2]]
    along = ends - starts
    normal = along[..., ::-1] * np.float32([-1, 1])
    normal /= np.maximum(np.hypot(normal[..., 0], normal[..., 1]), 1e-6)[..., None]
    normal *= np.where(
        (((starts + ends) / 2 - q.mean(axis=1, keepdims=True)) * normal).sum(axis=2) < 0, -1.0, 1.0
    )[..., None]
    dists = np.arange(0.5, float(reach.max()) + 0.01, 0.5, dtype=np.float32)
    pts = (
        starts[:, :, None, None]
        + cards._FRAME_TS[None, None, :, None, None] * along[:, :, None, None]
        + dists[None, None, None, :, None] * normal[:, :, None, None]
    )
    xy = np.rint(pts).astype(np.int32)
    xs, ys = xy[..., 0], xy[..., 1]
    inside = (xs >= 0) & (xs < wid) & (ys >= 0) & (ys < hgt) & (dists <= reach[:, None, None, None] + 0.01)
    gain = (gains / max(white_level, 1.0)).astype(np.float32)
    face = (np.stack([f["face_bgr"] for f in faces]) * gain).min(axis=1)
    px = small[np.clip(ys, 0, hgt - 1), np.clip(xs, 0, wid - 1)]
    vals = np.minimum(np.minimum(px[..., 0] * gain[0], px[..., 1] * gain[1]), px[..., 2] * gain[2])
    vals[~inside] = -1.0
    rows = inside.any(axis=3)
    best = np.sort(np.where(rows, vals.max(axis=3), np.inf), axis=2)
    n = rows.sum(axis=2)
    lo = np.take_along_axis(best, np.maximum(n - 1, 0)[..., None] // 2, axis=2)[..., 0]
    hi = np.take_along_axis(best, n[..., None] // 2, axis=2)[..., 0]
    side = np.sort(np.where(n >= 4, (lo + hi) / 2, np.inf), axis=1)
    counted = (n >= 4).sum(axis=1)
    second = np.where(counted > 1, side[:, 1], side[:, 0])
    out = (second - face) / np.maximum(1.0 - face, cards.FRAMED_ROOM)
    return np.where(counted > 0, out, 1.0).astype(np.float32)


# --- the routines against them ------------------------------------------------------------------------


def _corners_of(frame):
    """The index corners ``_detect`` reads on a frame (quad at full scale, width / height), its gains and
    least face level."""
    small = _small(frame)
    s = small.shape[1] / frame.shape[1]
    white = cards._white_estimate(small)
    gains = white.mean() / np.maximum(white, 1.0)
    least = max(cards.PAPER_LEAST[0], cards.PAPER_LEAST[1] * float(white.max()))
    corners = []
    for f in cards._faces(small, white):
        q = f["quad"] / s
        corners.append((q, f["w"] / f["h"]))
        if f["w"] > cards.WHOLE_FACE * f["h"]:
            corners.append((q[[2, 3, 0, 1]], f["w"] / f["h"]))
    return corners, gains, least


def _same_corner(got, want):
    (fg, cg), (fw, cw) = got, want
    assert cg == cw
    assert (fg is None) == (fw is None)
    if fw is not None:
        assert fg.dtype == fw.dtype and np.array_equal(fg, fw)


def test_index_corners_read_at_once_as_each_alone(frames):
    """Every index corner of a frame read in one stack gives the glyph feature and ink contrast it gives
    read alone: on the tuning scenes' corners, on the same corners moved, scaled and narrowed (strips of a
    fan, corners running off the frame), and with a face level too dark to read."""
    rng = np.random.default_rng(RNG_SEED)
    count = read = 0
    for frame in frames:
        corners, gains, least = _corners_of(frame)
        assert len(corners) >= 5
        moved = []
        for q, ratio in corners:
            for _ in range(4):
                shift = rng.normal(0, 6, 2).astype(np.float32)
                centre = q.mean(axis=0)
                scale = np.float32(rng.uniform(0.8, 1.25))
                moved.append(((q - centre) * scale + centre + shift, float(ratio * rng.uniform(0.3, 1.5))))
        off = corners[0][0] - np.float32([corners[0][0][0, 0] + 30, 0])  # run off the frame's left edge
        moved.append((off, corners[0][1]))
        for batch, lv in ((corners, least), (moved, least), (corners[:3], 1e9)):
            got = cards._index_features(frame, batch, gains, lv)
            assert len(got) == len(batch)
            for g, (q, ratio) in zip(got, batch, strict=True):
                _same_corner(g, _ref_index_feature(frame, q, ratio, gains, lv))
                count += 1
                read += g[0] is not None
    assert cards._index_features(frames[0], [], np.ones(3, np.float32), 6.0) == []
    assert count > 300 and read > 100


def test_glyph_blobs_of_all_corners_as_each_corners_own():
    """The glyph's blobs chosen for all corners at once are those chosen corner by corner, on random blob
    statistics: blobs on the edges, ties in size, blocks with no blob, many blobs (noise)."""
    rng = np.random.default_rng(RNG_SEED)
    tall, rh = 62, 60
    for _ in range(300):
        n_b = int(rng.integers(1, 6))
        widths = rng.integers(14, 51, n_b)
        sizes = rng.choice([0, 1, 3, 8, 80], n_b)
        blocks, bounds = [], [0]
        for k in range(n_b):
            m = int(sizes[k])
            x = rng.integers(0, widths[k], m)
            y = rng.integers(0, rh, m)
            w = np.minimum(rng.integers(1, 20, m), widths[k] - x)
            h = np.minimum(rng.integers(1, 30, m), rh - y)
            a = rng.integers(1, 12, m) * rng.choice([1, 1, 5, 20], m)
            blocks.append(np.stack([x, y + k * tall, w, h, a], axis=1).astype(np.int32))
            bounds.append(bounds[-1] + m)
        st = np.concatenate(blocks) if bounds[-1] else np.zeros((0, 5), np.int32)
        keep, found = cards._glyph_parts_of_blocks(st, np.array(bounds), tall, widths, rh)
        for k in range(n_b):
            part = np.concatenate([np.zeros((1, 5), np.int32), st[bounds[k] : bounds[k + 1]]])
            part[1:, 1] -= k * tall
            want = cards._glyph_parts(part, int(widths[k]), rh)
            assert bool(found[k]) == (want is not None)
            if want is not None:
                assert np.array_equal(keep[bounds[k] : bounds[k + 1]], want[1:])


def test_mean_bgr_is_numpy_mean():
    rng = np.random.default_rng(RNG_SEED)
    for n in (1, 2, 10, 999, 5000, 65000, 70000):
        img = rng.integers(0, 256, (1, n, 3), np.uint8)
        if n == 999:
            img[:] = 255
        items = cards._pixel_items(img)
        want = img.reshape(-1, 3).astype(np.float32).mean(axis=0)
        got = cards._mean_bgr(items)
        assert got.dtype == want.dtype and np.array_equal(got, want)


def test_white_estimate_and_frame_test_as_before(frames):
    """The frame's white (the median-of-three glare test, the means) and each face's white frame score, on
    the tuning scenes as rendered and under lamps, and the white on random and flat images."""
    rng = np.random.default_rng(RNG_SEED)
    images = [_small(f) for f in frames]
    images += [_small(relit(frames[0], c)) for c in ("cold", "flatter", "dim")]
    images += [rng.integers(0, 256, (480, 640, 3), np.uint8), np.full((240, 320, 3), 255, np.uint8)]
    images += [np.clip(rng.normal(250, 8, (241, 321, 3)), 0, 255).astype(np.uint8)]
    for img in images:
        got, want = cards._white_estimate(img), _ref_white_estimate(img)
        assert got.dtype == want.dtype and np.array_equal(got, want)
    scored = 0
    for small in images[:7]:
        white = cards._white_estimate(small)
        gains = white.mean() / np.maximum(white, 1.0)
        faces = cards._faces(small, white)
        got = cards._framed(small, faces, gains, float(white.mean()))
        assert np.array_equal(got, _ref_framed(small, faces, gains, float(white.mean())))
        scored += len(faces)
    assert scored > 30


def test_face_mask_brightness_edge_by_table():
    """A brightness edge, the local range above 0.35 of the local max + 7, is the local min below the
    table's level for the local max, for every pair of levels."""
    hi, lo = np.meshgrid(np.arange(256), np.arange(256))
    ok = lo <= hi
    want = (hi - lo) > cards._EDGE_STEP[0][hi]
    got = lo < cards._EDGE_BELOW[0][hi]
    assert np.array_equal(got[ok], want[ok])
