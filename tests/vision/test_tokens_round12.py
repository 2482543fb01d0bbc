"""Bag of Butts reader, twelfth session's speed steps: the cheaper forms find the very pieces and
values the slower ones found, so every reading stays the same."""

from __future__ import annotations

import cv2
import numpy as np

from vision import tokens


def _reference_pieces(mask: np.ndarray, lo: float, hi: float) -> list[tuple]:
    """The plain way: OpenCV's labelling with stats of the whole mask, each piece of lo..hi pixels
    that does not touch the border, in label order."""
    h, w = mask.shape
    n, lab, stats, _ = cv2.connectedComponentsWithStats(mask, connectivity=8)
    out = []
    for i in range(1, n):
        x, y, bw, bh, area = (int(v) for v in stats[i])
        if lo <= area <= hi and x > 0 and y > 0 and x + bw < w and y + bh < h:
            out.append((x, y, bw, bh, area, (lab[y : y + bh, x : x + bw] == i).astype(np.uint8)))
    return out


def _masks():
    rng = np.random.default_rng(12)
    for density in (0.03, 0.08, 0.15):
        mask = (rng.random((150, 200)) < density).astype(np.uint8)  # noise crumbs (wood grain)
        cv2.rectangle(mask, (20, 20), (90, 80), 1, 3)  # a ring...
        cv2.rectangle(mask, (40, 40), (60, 52), 1, -1)  # ...with a butt-sized piece in its hole
        cv2.ellipse(mask, (140, 40), (22, 7), 30, 0, 360, 1, -1)  # butt-sized pieces, one touching another
        cv2.ellipse(mask, (150, 110), (22, 7), 100, 0, 360, 1, -1)
        cv2.ellipse(mask, (120, 120), (20, 6), 0, 0, 360, 1, -1)
        cv2.rectangle(mask, (0, 100), (25, 149), 1, -1)  # a piece cut by the frame's corner
        yield mask
    yield np.zeros((40, 50), np.uint8)


def test_faint_pieces_found_by_their_outlines_equal_opencvs_labelling():
    seen = 0
    for mask in _masks():
        for lo, hi in ((100.0, 600.0), (60.0, 300.0), (200.0, 260.0), (5.0, 10_000.0)):
            got = tokens._pieces_between(mask, lo, hi)
            want = _reference_pieces(mask, lo, hi)
            assert [g[:5] for g in got] == [r[:5] for r in want]
            assert all(
                np.array_equal(g[5], r[5]) and g[5].dtype == np.uint8 for g, r in zip(got, want, strict=True)
            )
            seen += len(want)
    assert seen >= 20  # several pieces in several orders were compared


def test_the_common_percentile_gives_numpys_value_and_type_for_the_glare_and_faint_tests():
    # _under_glare takes percentiles of float32 strengths and spreads, _stands_out of uint8 differences
    rng = np.random.default_rng(21)
    for count in (1, 2, 3, 8, 20, 21, 257, 1000):
        for values in (
            (rng.random(count) * 300).astype(np.float32),
            np.round(rng.random(count) * 5).astype(np.float32),  # ties
            rng.integers(0, 256, count).astype(np.uint8),
        ):
            for q in (25, 75, 100 * tokens.FAINT_TOP):
                want, got = np.percentile(values, q), tokens.percentile(values, q)
                assert got == want and type(got) is type(want)


def test_the_found_butts_mask_is_each_big_piece_grown_by_a_pixel():
    comps = [
        {"area": 100.0, "pts": (np.array([5, 6, 7]), np.array([5, 5, 6]))},
        {"area": 10.0, "pts": (np.array([20]), np.array([20]))},  # a crumb: not a found butt
    ]
    grown = tokens._found_grown(comps, 60.0, (30, 30))
    want = np.zeros((30, 30), np.uint8)
    for x, y in zip(*comps[0]["pts"], strict=True):
        want[y - 1 : y + 2, x - 1 : x + 2] = 1
    assert grown.dtype == np.uint8 and np.array_equal(grown, want)


def test_the_table_means_of_all_butts_at_once_equal_each_butts_own_mean():
    rng = np.random.default_rng(8)
    img = rng.integers(0, 256, (90, 120, 3), dtype=np.uint8)
    for im in (img, img[5:85, 7:111]):  # a crop is not contiguous
        xs_list, ys_list = [], []
        for count in (1, 2, 7, 40, 333, 1200):
            xs_list.append(rng.integers(0, im.shape[1], count))
            ys_list.append(rng.integers(0, im.shape[0], count))
        got = tokens._piece_means(im, xs_list, ys_list)
        want = np.stack(
            [im[ys, xs].astype(np.float32).mean(axis=0) for xs, ys in zip(xs_list, ys_list, strict=True)]
        )
        assert got.dtype == np.float32 and np.array_equal(got, want)
        assert np.array_equal(got[3], tokens._mean32(tokens._pixels(im, xs_list[3], ys_list[3])))


def test_a_row_mean_of_three_log_channels_summed_in_order_equals_numpys_mean():
    # _split's mean log colour of each pixel: numpy adds a row of three in order, in float32
    rng = np.random.default_rng(3)
    for count in (1, 2, 5, 100, 1001, 9000):
        logc = np.log(rng.integers(0, 256, (count, 3)).astype(np.float32) + tokens.EPS)
        want = logc.mean(axis=1, keepdims=True)
        got = tokens._mean3(logc)
        assert got.dtype == want.dtype and np.array_equal(got, want)


def test_the_glare_steps_local_spread_in_one_call_equals_dilate_less_erode():
    rng = np.random.default_rng(4)
    for shape in ((3, 3), (20, 35), (61, 40)):
        md = (rng.integers(0, 256, shape) * (rng.random(shape) < 0.7)).astype(np.float32) * tokens.LOG_STEP
        for span in (1, 5, 9):
            around = np.ones((span, span), np.uint8)
            want = cv2.dilate(md, around) - cv2.erode(md, around)
            assert np.array_equal(tokens._spread(md, around), want)


def test_a_lone_pieces_outline_from_the_two_level_tree_equals_its_outer_outline():
    # _find_butts takes a blob left in one piece with the outline RETR_CCOMP gives (holes and all)
    rng = np.random.default_rng(6)
    lone = several = 0
    for _ in range(300):
        h, w = rng.integers(5, 50, 2)
        mask = (rng.random((h, w)) < rng.uniform(0.4, 0.9)).astype(np.uint8)
        mask = cv2.morphologyEx(mask, cv2.MORPH_CLOSE, np.ones((3, 3), np.uint8))
        n, lab = cv2.connectedComponents(mask, connectivity=8)
        if n != 2:  # no piece, or several (one may lie in another's hole): not one piece
            assert tokens._lone_outline(mask) is None
            several += 1
        for j in range(1, n):
            piece = (lab == j).astype(np.uint8)
            outer, _ = cv2.findContours(piece, cv2.RETR_EXTERNAL, cv2.CHAIN_APPROX_SIMPLE)
            assert np.array_equal(tokens._lone_outline(piece), np.vstack(outer))
            lone += 1
    for k in range(20):  # several pieces: apart, or one inside another's hole; and none
        mask = np.zeros((40, 40), np.uint8)
        cv2.rectangle(mask, (2, 2), (30, 30), 1, 2 + k % 3)
        cv2.rectangle(mask, (12, 12), (16 + k % 5, 18), 1, -1) if k % 2 else cv2.circle(
            mask, (35, 35), 2, 1, -1
        )
        assert tokens._lone_outline(mask) is None
        several += 1
    assert tokens._lone_outline(np.zeros((9, 9), np.uint8)) is None
    assert lone >= 300 and several >= 20


def test_a_pieces_box_from_its_outline_equals_its_pixels_least_and_largest_positions():
    rng = np.random.default_rng(9)
    checked = 0
    for _ in range(200):
        h, w = rng.integers(3, 40, 2)
        mask = (rng.random((h, w)) < rng.uniform(0.3, 0.9)).astype(np.uint8)
        n, lab = cv2.connectedComponents(mask, connectivity=8)
        for j in range(1, n):
            piece = (lab == j).astype(np.uint8)
            outline, _ = cv2.findContours(piece, cv2.RETR_EXTERNAL, cv2.CHAIN_APPROX_SIMPLE)
            ys, xs = np.nonzero(piece)
            want = (int(xs.min()) + 7, int(ys.min()) + 3, int(xs.max()) + 7, int(ys.max()) + 3)
            assert tokens._outline_box(np.vstack(outline), 7, 3) == want
            checked += 1
    assert checked >= 200


def _measure_one(small: np.ndarray, xs: np.ndarray, ys: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """main's (3557258) per-butt measure, the plain reference of _measure_all."""
    pix = small[ys, xs]
    n = len(xs)
    if n > 12:
        r2 = (xs - xs.mean()) ** 2 + (ys - ys.mean()) ** 2
        cut = int(n * 0.75)
        pix = pix[r2 <= np.partition(r2, cut)[cut]]
    order = np.argsort(pix.astype(np.float32).sum(axis=1))
    m = len(order)
    lo, hi = int(m * 0.15), max(int(m * 0.9), int(m * 0.15) + 1)
    colour = pix[order[lo:hi]].astype(np.float32).mean(axis=0)
    clipped = colour >= tokens.BUTT_CLIPPED
    if colour.max() >= tokens.BUTT_BRIGHT:
        clipped |= np.count_nonzero(pix >= tokens.CLIPPED, axis=0) >= tokens.CLIPPED_SHARE * m
    return colour, clipped


def test_all_butts_measured_at_once_read_the_colours_one_by_one_reads():
    rng = np.random.default_rng(10)
    small = rng.integers(0, 256, (120, 160, 3), dtype=np.uint8)
    small[:40, :60] = np.clip(small[:40, :60].astype(int) + 200, 0, 255)  # a bright corner: clipped channels
    small[60:, 100:] //= 8  # a dark corner: many ties among the sums
    butts = []
    for count in (1, 5, 12, 13, 40, 250, 700):
        for x0, y0 in ((5, 5), (110, 70), (30, 50)):
            ys, xs = np.nonzero(rng.random((45, 45)) < count / 2025)
            if len(xs):
                butts.append({"xs": xs + x0, "ys": ys + y0})
    colours, clipped = tokens._measure_all(small, butts)
    for i, b in enumerate(butts):
        colour, clip = _measure_one(small, b["xs"], b["ys"])
        assert np.array_equal(colours[i], colour) and np.array_equal(clipped[i], clip)
    assert clipped.any() and len(butts) >= 15


def test_a_search_grid_from_its_offsets_made_once_equals_the_grid_made_from_its_axes():
    def grid(centre, half, step):  # main's (3557258) grid of the light fit
        axes = [c + np.arange(-h, h + 1e-6, s) for c, h, s in zip(centre, half, step, strict=True)]
        g = np.meshgrid(*axes, indexing="ij")
        return np.stack([a.ravel() for a in g], 1).astype(np.float32)

    rng = np.random.default_rng(11)
    for half, step in (
        ((0.15, 0.08, 0.08), (0.05, 0.04, 0.04)),
        ((1.5, 0.6, 0.6), (0.3, 0.3, 0.3)),
        ((0.2, 0.15, 0.15), (0.1, 0.075, 0.075)),
        ((0.05, 0.035, 0.035), (0.05, 0.035, 0.035)),
    ):
        for _ in range(20):
            centre = rng.normal(0, 0.7, 3).astype(np.float32)
            got = (np.asarray(centre, np.float64) + tokens._grid_offsets(half, step)).astype(np.float32)
            assert np.array_equal(got, grid(centre, half, step))


def test_a_plane_repeated_to_three_channels_by_opencv_equals_numpys_repeat():
    rng = np.random.default_rng(12)
    for shape in ((1, 1), (1, 7), (3, 4), (29, 58), (58, 116)):
        for plane in (rng.random(shape).astype(np.float32), (rng.random(shape) < 0.5).astype(np.uint8)):
            got = tokens._three(plane)
            assert got.dtype == plane.dtype and np.array_equal(got, np.repeat(plane[..., None], 3, axis=2))
