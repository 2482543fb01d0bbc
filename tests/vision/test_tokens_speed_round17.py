"""Bag of Butts reader, seventeenth session's speed steps (branch tokfast): each cheaper form finds
the very pieces and values the form it replaced found, so every reading stays the same."""

from __future__ import annotations

import cv2
import numpy as np

from vision import tokens
from vision.render import tokens as render

# the plain way (e2237f8's _pieces_between): OpenCV's labelling with stats of the whole mask
from .test_tokens_round12 import _reference_pieces


def _masks():
    """Masks like the reader's thresholds: noise crumbs, butt-sized pieces (touching ones too), a ring
    with a piece in its hole, pieces cut by the border, pieces starting on odd and even rows."""
    rng = np.random.default_rng(17)
    for density in (0.02, 0.06, 0.12, 0.3):
        for h, w in ((150, 200), (97, 131)):
            mask = (rng.random((h, w)) < density).astype(np.uint8)
            cv2.rectangle(mask, (20, 21), (90, 80), 1, 3)
            cv2.rectangle(mask, (40, 40), (60, 52), 1, -1)
            cv2.ellipse(mask, (110, 33), (22, 7), 30, 0, 360, 1, -1)
            cv2.ellipse(mask, (118, 70), (22, 7), 100, 0, 360, 1, -1)
            cv2.rectangle(mask, (0, 60), (15, h - 1), 1, -1)
            yield mask
        yield cv2.morphologyEx(mask, cv2.MORPH_OPEN, np.ones((3, 3), np.uint8))
    yield np.zeros((40, 50), np.uint8)
    one = np.zeros((40, 50), np.uint8)
    one[7, 9:40] = 1  # a piece one row high, on an odd row
    yield one


def test_blobs_labelled_in_their_boxes_equal_opencvs_labelling_of_the_whole_mask():
    # the blobs of 20 pixels and more, in OpenCV's label order, with its stats and each one's pixels
    seen = 0
    for mask in _masks():
        n, lab, stats, _ = cv2.connectedComponentsWithStats(mask, connectivity=8)
        want = [i for i in range(1, n) if stats[i, cv2.CC_STAT_AREA] >= 20]
        got_stats, owns = tokens._blobs_in_boxes(mask, 20)
        assert len(got_stats) == len(want) + 1 and not got_stats[0].any()
        for j, i in enumerate(want, start=1):
            assert got_stats[j].tolist() == stats[i].tolist()
            x, y, bw, bh, _ = stats[i].tolist()
            assert owns[j].dtype == bool and np.array_equal(owns[j], lab[y:y + bh, x:x + bw] == i)
        seen += len(want)
    assert seen > 40


def test_faint_pieces_of_two_sizes_from_one_search_equal_opencvs_labelling():
    # the lit pass's butt-sized pieces and lit middles, from one search of its mask
    seen = 0
    for mask in _masks():
        for ranges in (((20, 400), (4, 20)), ((60, 200), (10, 60)), ((3, 5000),)):
            got = tokens._pieces_in(mask, ranges)
            assert len(got) == len(ranges)
            for pieces, (lo, hi) in zip(got, ranges, strict=True):
                want = _reference_pieces(mask, lo, hi)
                assert [p[:5] for p in pieces] == [p[:5] for p in want]
                assert all(np.array_equal(p[5], q[5]) and p[5].dtype == np.uint8 for p, q in zip(pieces, want, strict=True))
                seen += len(want)
    assert seen > 100


def test_shadows_taken_with_the_blobs_own_pixels_equal_those_taken_with_the_whole_labelling():
    frame, _ = render.scene(20003, with_mat=False)
    small = cv2.resize(frame, (512, 384), interpolation=cv2.INTER_LINEAR)
    search = np.ones(small.shape[:2], np.uint8)
    bg = tokens._background(small, search, 384.0)
    planes = list(zip([cv2.LUT(c, tokens._LOG8) for c in cv2.split(small)],
                      [cv2.LUT(c, tokens._LOG8) for c in cv2.split(bg)], strict=True))
    d8 = tokens._difference(small, bg)
    _, mask = cv2.threshold(d8, 0.25 / tokens.LOG_STEP, 1, cv2.THRESH_BINARY)
    mask = cv2.morphologyEx(mask, cv2.MORPH_OPEN, np.ones((3, 3), np.uint8))
    n, lab, stats = tokens._pieces8(mask, 20)
    blobs = (np.nonzero(stats[1:, cv2.CC_STAT_AREA] >= 20)[0] + 1).tolist()
    # e2237f8's way: each blob's own pixels cut from the labelling of the whole mask
    subs_a = {i: lab[y:y + bh, x:x + bw] == i for i in blobs for x, y, bw, bh, _ in [stats[i].tolist()]}
    mask_a, added_a = mask.copy(), {}
    halves_a = tokens._drop_shadows(planes, mask_a, blobs, stats, added_a, subs_a)
    stats_b, subs_b = tokens._blobs_in_boxes(mask, 20)
    mask_b, added_b = mask.copy(), {}
    halves_b = tokens._drop_shadows(planes, mask_b, list(range(1, len(stats_b))), stats_b, added_b, subs_b)
    assert len(blobs) >= 8 and halves_a and halves_a == halves_b
    assert np.array_equal(mask_a, mask_b)
    assert all(np.array_equal(added_a[i], added_b[j]) for j, i in enumerate(blobs, start=1) if i in added_a)
    assert len(added_a) == len(added_b)


def _lift_whole(planes):
    """main's lift map (e2237f8): OpenCV's int16 steps on whole images."""
    s = [cv2.subtract(a, b, dtype=cv2.CV_16S) for a, b in planes]
    total = cv2.add(cv2.add(s[0], s[1]), s[2])
    out = cv2.multiply(cv2.max(cv2.max(s[0], s[1]), s[2]), 3)
    for c in s:
        out = cv2.max(out, cv2.absdiff(cv2.multiply(c, 3), total))
    return cv2.GaussianBlur(cv2.convertScaleAbs(out, alpha=1 / 3), (3, 3), 0)


def test_lift_map_made_strip_by_strip_equals_the_whole_images(monkeypatch):
    rng = np.random.default_rng(5)
    for strip in (tokens.LIFT_STRIP, 700, 1):  # the reader's strips, and many thin ones (at least 8 rows)
        monkeypatch.setattr(tokens, "LIFT_STRIP", strip)
        for h, w in ((384, 512), (101, 67), (9, 4000), (3, 5)):
            planes = [(rng.integers(0, 256, (h, w), dtype=np.uint8), rng.integers(0, 256, (h, w), dtype=np.uint8))
                      for _ in range(3)]
            planes[1] = (np.full((h, w), 255, np.uint8), np.zeros((h, w), np.uint8))  # the extremes
            assert np.array_equal(tokens._lift(planes), _lift_whole(planes))


def test_piece_areas_by_counted_labels_equal_opencvs_stats():
    for mask in _masks():
        for conn in (4, 8):
            n, lab, stats, _ = cv2.connectedComponentsWithStats(mask, connectivity=conn)
            m, lab2, areas = tokens._components(mask, conn)
            assert m == n and np.array_equal(lab2, lab)
            assert areas.dtype == np.int32 and np.array_equal(areas, stats[:, cv2.CC_STAT_AREA])
        n, lab, stats, _ = cv2.connectedComponentsWithStats(mask, connectivity=8)
        m, lab2, areas = tokens._blobs8(mask)
        assert m == n and np.array_equal(lab2, lab) and np.array_equal(areas, stats[:, cv2.CC_STAT_AREA])


def test_a_mat_scene_and_a_bare_table_read_as_before():
    # e2237f8's readings of two tuning scenes (the mat's zones; a bare table read with its faint passes)
    got = [[(o["colour"], o["group"], o["box"], o["confidence"]) for o in tokens.read(render.scene(s, with_mat=m)[0]).objects]
           for s, m in ((3, True), (20003, False))]
    assert got == EXPECTED


# e2237f8's objects (colour, group, box, confidence) of tuning mat scene 3 and bare-table scene 20 003
EXPECTED = [
    [
        ('khaki', 2, [717, 369, 56, 110], 1.0),
        ('gray', 2, [632, 393, 97, 86], 0.997),
        ('green', 2, [509, 444, 72, 91], 0.85),
        ('black', 2, [581, 473, 110, 51], 0.85),
        ('green', 1, [328, 569, 54, 102], 0.85),
        ('pink', 1, [312, 478, 56, 105], 0.85),
        ('blue', 1, [242, 433, 89, 78], 0.85),
        ('black', 3, [992, 452, 91, 80], 1.0),
        ('pink', 3, [928, 481, 73, 99], 1.0),
        ('pink', 1, [146, 497, 51, 107], 1.0),
        ('blue', 1, [248, 561, 56, 105], 0.85),
        ('yellow', 1, [218, 513, 49, 113], 0.85),
        ('white', 2, [480, 529, 102, 75], 0.997),
        ('white', 3, [960, 558, 107, 64], 0.997),
        ('gray', 3, [1066, 556, 40, 112], 0.998),
        ('black', 3, [1112, 572, 51, 107], 1.0),
        ('yellow', 1, [90, 625, 107, 67], 1.0),
        ('pink', 3, [962, 646, 83, 94], 1.0),
    ],
    [
        ('gray', 1, [271, 316, 39, 66], 0.998),
        ('black', 3, [919, 343, 60, 22], 1.0),
        ('gray', 3, [891, 371, 58, 51], 0.989),
        ('green', 1, [282, 384, 62, 26], 1.0),
        ('green', 2, [587, 413, 34, 62], 0.85),
        ('yellow', 2, [530, 428, 60, 24], 0.85),
        ('yellow', 2, [534, 458, 51, 54], 1.0),
        ('blue', 3, [933, 422, 32, 64], 1.0),
        ('pink', 3, [887, 479, 32, 60], 1.0),
        ('blue', 2, [479, 511, 41, 60], 1.0),
        ('khaki', 3, [936, 511, 62, 32], 0.999),
        ('black', 3, [844, 520, 30, 60], 1.0),
        ('white', 3, [863, 403, 60, 43], 0.984),
    ],
]
