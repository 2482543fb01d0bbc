"""The card reader's faster routines (twelfth session) against plain references: each gives exactly
what the code it replaced gave (the references below are that code), on rendered tuning scenes
(seeds below 1000) and on random inputs. The reader's readings did not change; these tests catch a
routine that would make them change."""

from __future__ import annotations

import threading

import cv2
import numpy as np
import pytest

from tests.vision.card_check import ref_grow as _ref_grow
from tests.vision.card_check import small as _small
from tests.vision.card_check import tuning_frames
from vision import cards

RNG_SEED = 12


@pytest.fixture(scope="module")
def frames():
    """Two rendered tuning scenes (a fanned row and several rows), as rendered and under a warm lamp."""
    return tuning_frames()


# --- plain references: the code these routines replaced ---------------------------------------------


def _ref_border_white(small, quad, fh):
    tl, tr, br, bl = quad
    right = (tr - tl) / max(np.linalg.norm(tr - tl), 1e-6)
    d = max(1.5, 0.018 * fh)
    ts = np.linspace(0.1, 0.9, 24)[:, None]
    pts = tl + ts * (bl - tl) - right * d
    xs = np.clip(np.round(pts[:, 0]).astype(int), 0, small.shape[1] - 1)
    ys = np.clip(np.round(pts[:, 1]).astype(int), 0, small.shape[0] - 1)
    px = small[ys, xs].astype(np.float32)
    v = px.max(axis=1)
    keep = px[v >= cards._quantile(v, 0.5)]
    return keep.mean(axis=0) if len(keep) else None


def _ref_shifted(feat):
    fh, fw = cards.FEATURE_SHAPE
    p = np.full((fh + 4, fw + 4), feat[0], np.float32)
    p[2:-2, 2:-2] = feat.reshape(fh, fw)
    g = p.ravel()[cards._SHIFT_INDEX]
    g -= g.mean(axis=1, keepdims=True)
    return g / np.maximum(np.linalg.norm(g, axis=1, keepdims=True), 1e-6)


def _ref_class_scores(feats, tmpl, labels):
    shifted = _ref_shifted(feats[0]) if len(feats) == 1 else np.vstack([_ref_shifted(f) for f in feats])
    scores = np.max([tmpl @ row for row in shifted], axis=0)
    best = {}
    for lab, sc in zip(labels, scores.tolist(), strict=True):
        if sc > best.get(lab, -2.0):
            best[lab] = sc
    return best


# --- the tests ---------------------------------------------------------------------------------------


def test_levels_from_a_histogram_are_the_partial_sort_quantiles():
    rng = np.random.default_rng(RNG_SEED)
    for _ in range(300):
        img = rng.integers(0, 256, (int(rng.integers(1, 60)), int(rng.integers(1, 60))), dtype=np.uint8)
        if rng.random() < 0.5:  # few distinct levels: ties at the quantile
            img = (img // 64 * 64).astype(np.uint8)
        qs = tuple(float(q) for q in rng.random(3))
        assert cards._levels_at(img, qs) == [cards._quantile(img, q) for q in qs]
        mask = (rng.random(img.shape) < 0.3).astype(np.uint8)
        if mask.any():
            assert cards._levels_at(img, (0.5,), mask) == [cards._quantile(img[mask > 0], 0.5)]


def test_median_of_an_opponent_channel_is_numpys():
    rng = np.random.default_rng(RNG_SEED)
    for _ in range(300):
        a = rng.integers(-255, 256, (int(rng.integers(1, 40)), int(rng.integers(1, 40)))).astype(np.int16)
        if rng.random() < 0.5:
            a = (a // 85 * 85).astype(np.int16)  # many equal values: the two middle ones often differ
        assert cards._median_opponent(a) == float(np.median(a))


def test_sheen_growth_is_the_labelled_count_and_fill(frames):
    rng = np.random.default_rng(RNG_SEED)
    cases = []
    for frame in frames:  # the face mask's own inputs: the paler region and the strongly coloured pixels
        small = _small(frame)
        mask, _, chroma = cards._face_mask(small, cards._white_estimate(small))
        cases.append(
            (cv2.compare(chroma, 0.2 * 255, cv2.CMP_GT), cv2.dilate(mask, np.ones((3, 3), np.uint8)))
        )
    for _ in range(20):  # random blobs: many pieces chosen at once
        region = (cv2.GaussianBlur(rng.random((120, 160)).astype(np.float32), (0, 0), 3) > 0.5).astype(
            np.uint8
        )
        cases.append((region * 255, ((rng.random((120, 160)) < 0.5) * region * 255).astype(np.uint8)))
    # more than 65 535 pieces: 32-bit labels
    checker = ((np.indices((480, 640)).sum(axis=0) % 2) * 255).astype(np.uint8)
    cases.append((checker, (checker & (rng.random(checker.shape) < 0.5) * 255).astype(np.uint8)))
    for region, marked in cases:
        for share in (0.3, 0.5):
            want = _ref_grow(region, marked, share)
            assert np.array_equal(cards._grow_mostly_marked(region, marked.copy(), share), want)


def test_pieces_are_the_full_frame_labelling():
    rng = np.random.default_rng(RNG_SEED)
    masks = [np.zeros((480, 640), np.uint8), np.full((480, 640), 255, np.uint8)]
    for _ in range(20):
        m = np.zeros((480, 640), np.uint8)
        x, y = int(rng.integers(0, 500)), int(rng.integers(0, 350))
        blob = cv2.GaussianBlur(rng.random((120, 130)).astype(np.float32), (0, 0), 4) > 0.5
        m[y : y + 120, x : x + 130] = blob * 255
        masks.append(m)
    for m in masks:
        n, labels, stats = cards._pieces(m)
        n2, labels2, stats2, _ = cv2.connectedComponentsWithStats(m, connectivity=4)
        assert n == n2
        assert np.array_equal(labels, labels2)
        assert np.array_equal(stats[1:], stats2[1:])


def test_border_whites_of_all_faces_are_each_faces_own(frames):
    count = 0
    for frame in frames:
        small = _small(frame)
        faces = cards._faces(small, cards._white_estimate(small))
        for f, got in zip(faces, cards._border_whites(small, faces), strict=True):
            want = _ref_border_white(small, f["quad"], f["h"])
            assert got is not None and want is not None
            assert got.dtype == want.dtype and np.array_equal(got, want)
            count += 1
    assert count > 20


def test_value_scores_of_all_cards_are_each_cards_own(frames):
    tmpl, labels = cards._templates()
    found = [c for frame in frames for c in cards._detect(frame)]
    assert len(found) > 20
    for c, got in zip(found, cards._class_scores(found, tmpl, labels), strict=True):
        want = _ref_class_scores(c["features"], tmpl, labels)
        assert list(got.items()) == list(want.items())  # the same scores, in the same order
    feats = np.stack([f for c in found for f in c["features"]])
    shifted = cards._shifted(feats)
    for i, f in enumerate(feats):
        assert np.array_equal(shifted[i], _ref_shifted(f))


def test_glyph_parts_are_the_array_selection():
    rng = np.random.default_rng(RNG_SEED)
    many = 0
    for i in range(1500):
        corner = (rng.random((60, int(rng.integers(10, 60)))) < rng.random() * 0.6).astype(np.uint8)
        if i % 3 == 0:  # blobs of several pixels, ties in size
            corner = cv2.dilate(corner, np.ones((3, 3), np.uint8))
        _, _, st, _ = cv2.connectedComponentsWithStats(corner, connectivity=8)
        many += len(st) > 64
        got = cards._glyph_parts(st, corner.shape[1], corner.shape[0])
        want = cards._glyph_parts_array(st, corner.shape[1], corner.shape[0])
        assert (got is None) == (want is None)
        if want is not None:
            assert got.dtype == bool and np.array_equal(got, want)
    assert many > 100  # corners of both sizes were drawn (many blobs take the array path itself)


def test_work_images_kept_between_frames_do_not_change_a_reading(frames):
    first = [cards.read(f).objects for f in frames]
    # the work images are kept from one frame to the next (no fresh full-frame arrays)
    kept = cards._scratch("face_mask", (480, 640))
    cards.read(frames[1])
    assert cards._scratch("face_mask", (480, 640)) is kept
    assert sum(len(o) for o in first) > 20
    # again in another order, with a frame of another size in between (the work images are remade)
    cards.read(cv2.resize(frames[0], (1280, 720), interpolation=cv2.INTER_AREA))
    for i in (3, 1, 2, 0):
        assert cards.read(frames[i]).objects == first[i]
    # and from another thread, which has work images of its own, while this one reads too
    seen = {}
    worker = threading.Thread(
        target=lambda: seen.setdefault("other", [cards.read(f).objects for f in frames])
    )
    worker.start()
    mine = [cards.read(f).objects for f in reversed(frames)][::-1]
    worker.join()
    assert seen["other"] == first
    assert mine == first
