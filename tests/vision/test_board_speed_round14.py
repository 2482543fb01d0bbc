"""Fourteenth session, the board reader made faster with the same readings: each new helper is checked
against the plain computation it replaces (kept here as the reference) on rendered tuning boards and
on random inputs, ties, odd and even counts and inputs the fast path does not take."""

from __future__ import annotations

from functools import cache

import numpy as np
import pytest

from tests.vision.board_check import ref_sharpness
from vision import board
from vision.common import median
from vision.render import board as render


@cache
def _top(seed: int) -> np.ndarray:
    """The straightened board the reader makes of a rendered tuning board."""
    frame, _ = render.scene(seed)
    return board._straighten(frame, board.find_board(frame)[0])


def _boards() -> list[np.ndarray]:
    rng = np.random.default_rng(14)
    side = 6 * board.CELL
    streak = np.ascontiguousarray(np.repeat(rng.integers(0, 256, (side, 1, 3), dtype=np.uint8), side, axis=1))
    return [
        _top(3),
        _top(10_007),
        rng.integers(0, 256, (side, side, 3), dtype=np.uint8),
        (rng.integers(0, 3, (side, side, 3)) * 120).astype(np.uint8),
        np.full((side, side, 3), 77, np.uint8),
        np.full((side, side, 3), 255, np.uint8),
        np.zeros((side, side, 3), np.uint8),
        streak,
    ]


def test_sharpness_of_both_directions_from_matrix_products_is_each_directions_own():
    for top in _boards():
        both = board._sharpness_both(top)
        assert both == (ref_sharpness(top), ref_sharpness(np.ascontiguousarray(top.transpose(1, 0, 2))))
        assert board._sharpness_both(top, darkest=board._darkest(top)) == both
    # a board streaked along its rows: sharp across the horizontal lines' direction only
    streak = _boards()[-1]
    vertical, horizontal = board._sharpness_both(streak)
    assert vertical < horizontal


def test_masked_channel_medians_from_histograms_are_the_chosen_pixels_medians():
    rng = np.random.default_rng(5)
    cases = []
    for n in (1, 2, 3, 4800, 4801):
        pixels = rng.integers(0, 256, (n, 3), dtype=np.uint8)
        cases += [(pixels, rng.random(n) < p) for p in (0.1, 0.4, 0.9)]
        cases.append((pixels, np.ones(n, bool)))
    ties = (rng.integers(0, 3, (999, 3)) * 100).astype(np.uint8)
    cases += [(ties, rng.random(999) < 0.5), (ties, np.arange(999) == 7), (ties[::2], rng.random(500) < 0.5)]
    for pixels, mask in cases:
        if not mask.any():
            continue
        got = board._masked_medians_u8(pixels, mask)
        want = median(np.ascontiguousarray(pixels[mask].T), axis=1)
        assert got.dtype == want.dtype == np.float64
        assert np.array_equal(got, want)
        assert np.array_equal(got, np.median(pixels[mask], axis=0))


def test_every_third_pixel_median_counted_without_a_copy_is_numpys():
    rng = np.random.default_rng(6)
    images = [
        rng.integers(0, 256, shape, dtype=np.uint8)
        for shape in ((360, 480), (361, 480), (362, 480), (3, 3), (1, 3), (2, 6), (360, 481), (5, 5))
    ]
    images += [
        np.full((360, 480), 9, np.uint8),
        (rng.integers(0, 2, (360, 480)) * 200).astype(np.uint8),  # two levels: the middle pair may differ
        np.asfortranarray(rng.integers(0, 256, (30, 30), dtype=np.uint8)),
        rng.integers(0, 256, (100, 120), dtype=np.uint8)[5:95, 3:93],  # a crop: not contiguous
    ]
    for img in images:
        want = float(np.median(img[::3, ::3]))
        assert board._median_every3(img) == want == board._median_u8(img[::3, ::3])
    # the Canny thresholds of the outline search are those of the strided median on tuning frames
    frame, _ = render.scene(10_003)
    gray = board._shrink(
        board.cv2.cvtColor(frame, board.cv2.COLOR_BGR2GRAY), board.WORK_WIDTH / frame.shape[1]
    )
    blur = board.cv2.GaussianBlur(gray, (5, 5), 0)
    assert board._median_every3(blur) == float(np.median(blur[::3, ::3]))


def _ref_boxes(lo: np.ndarray, hi: np.ndarray) -> list[list[int]]:
    starts, sizes = lo.reshape(36, 2).tolist(), (hi - lo).reshape(36, 2).tolist()
    return [
        [int(x0), int(y0), int(round(bw)), int(round(bh))]
        for (x0, y0), (bw, bh) in zip(starts, sizes, strict=True)
    ]


def test_boxes_at_once_truncate_and_round_as_int_and_round_do():
    rng = np.random.default_rng(7)
    for i in range(200):
        lo = rng.normal(0, 10.0 ** rng.integers(0, 5), (6, 6, 2)).astype(np.float32)
        if i % 2:  # halves: rounded half to even; negative starts truncated toward zero
            lo = (np.round(lo * 2) / 2).astype(np.float32)
        hi = lo + (np.round(rng.uniform(0, 100, (6, 6, 2)) * 2) / 2).astype(np.float32)
        assert board._boxes(lo, hi) == _ref_boxes(lo, hi)
    # beyond int64 the plain ints are kept; a corner at infinity raises as int() does
    lo = np.full((6, 6, 2), 1e30, np.float32)
    assert board._boxes(lo, lo + 1) == _ref_boxes(lo, lo + 1)
    lo = np.zeros((6, 6, 2), np.float32)
    hi = lo + 5
    hi[2, 3, 0] = np.inf
    with pytest.raises(OverflowError):
        board._boxes(lo, hi)


def test_lower_third_from_one_partition_is_numpys_percentile():
    rng = np.random.default_rng(8)
    arrays = [rng.random((36, board.SECTORS)) for _ in range(30)]
    arrays += [np.round(rng.random((36, board.SECTORS)) * 3) for _ in range(30)]  # ties
    arrays.append(np.zeros((36, board.SECTORS)))
    nan = rng.random((36, board.SECTORS))
    nan[4, 9] = np.nan
    arrays.append(nan)
    for a in arrays:
        assert np.array_equal(board._percentile33(a), np.percentile(a, 33, axis=1), equal_nan=True)


def test_tuning_boards_straighten_with_the_lines_white_of_the_plain_median():
    # the lines' white balance of _straighten, as 45d662b took it: the median of the pixels of the
    # brightest 40 % of the inner lines, channel by channel
    for seed in (3, 10_007):
        frame, _ = render.scene(seed)
        hom = board.find_board(frame)[0]
        scale = np.float32([[1 / board.CELL, 0, 0], [0, 1 / board.CELL, 0], [0, 0, 1]])
        raw = board.cv2.warpPerspective(
            frame,
            hom @ scale,
            (6 * board.CELL, 6 * board.CELL),
            flags=board.cv2.INTER_LINEAR | board.cv2.WARP_INVERSE_MAP,
        )
        lines = np.concatenate([raw[:, board._LINE_PX].reshape(-1, 3), raw[board._LINE_PX].reshape(-1, 3)])
        lum = lines.astype(np.int32).sum(axis=1)
        k = int(0.6 * len(lum))
        white = np.median(lines[lum >= np.partition(lum, k)[k]], axis=0).astype(np.float32)
        gains = np.clip(235.0 / np.maximum(white, 1.0), 0.3, 5.0).astype(np.float32)
        assert np.array_equal(board._straighten(frame, hom), board.cv2.transform(raw, np.diag(gains)))


def _ref_cast_shift(chroma: np.ndarray, means: np.ndarray) -> np.ndarray:
    """_cast_shift as c866f45 computed it (the plain code)."""
    shift = np.zeros(2, np.float32)
    d2 = board._sq2(chroma[:, None, :] - means[None])
    if (d2.min(axis=1) < board.CAST_CAP).mean() < board.CAST_NEAR:
        grid = ((chroma[None, :, None, :] - board.CAST_GRID - means[None, None]) ** 2).sum(-1)
        cost = np.minimum(grid.min(axis=2), board.CAST_CAP).sum(axis=1) + board._CAST_GRID_COST
        shift = board.CAST_GRID[int(cost.argmin()), 0, 0]
    last = None
    for _ in range(3):
        d2 = board._sq2(chroma[:, None, :] - shift - means[None])
        near = d2.min(axis=1) < board.CAST_CAP
        if not near.any():
            break
        nearest = d2[near].argmin(axis=1)
        if last is not None and np.array_equal(near, last[0]) and np.array_equal(nearest, last[1]):
            break
        last = (near, nearest)
        shift = (chroma[near] - means[nearest]).mean(axis=0)
    size = float(np.linalg.norm(shift))
    return (shift * max(0.0, 1.0 - board.CAST_MIN / max(size, 1e-6))).astype(np.float32)


def test_cast_shift_without_the_wrappers_is_the_plain_codes_shift():
    rng = np.random.default_rng(9)
    means = np.float32([board._DEFAULT_PROFILE["colours"][k] for k in board.COLOURS])
    for i in range(600):
        # cells near the taught colours, spread a little or a lot, under no cast or a strong one
        k = rng.integers(0, 4, 36)
        noise = rng.normal(0, [0.02, 0.1, 0.3, 0.8][i % 4], (36, 2))
        chroma = (means[k] + noise + rng.normal(0, [0, 0.3, 1.0][i % 3], 2)).astype(np.float32)
        if i % 50 == 0:
            chroma[rng.integers(0, 36)] = np.nan
        taught = means if i % 7 else means[:3]
        got, want = board._cast_shift(chroma, taught), _ref_cast_shift(chroma, taught)
        assert got.dtype == want.dtype and np.array_equal(got, want, equal_nan=True)


def test_mean_and_equality_without_the_wrappers_are_numpys():
    rng = np.random.default_rng(10)
    for n in (1, 2, 3, 7, 36):
        a = rng.normal(0, 1, (n, 2)).astype(np.float32)
        got, want = board._mean0(a), a.mean(axis=0)
        assert got.dtype == want.dtype and np.array_equal(got, want)
        b = rng.integers(0, 3, n)
        assert board._same(b, b.copy()) and board._same(b, b[:-1]) is np.array_equal(b, b[:-1])
        c = b.copy()
        c[0] += 1
        assert board._same(b, c) is np.array_equal(b, c) is False
