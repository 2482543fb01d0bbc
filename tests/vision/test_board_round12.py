"""Twelfth session, the board reader made faster with the same readings: each new or rewritten helper
is checked against the plain computation it replaces (the code of 3557258, kept here as the
reference) on rendered tuning boards and on random inputs."""

from __future__ import annotations

from functools import cache

import cv2
import numpy as np
import pytest

from tests.vision.board_check import ref_sharpness
from vision import board, board_grid
from vision.common import median
from vision.render import board as render


@cache
def _scene(seed: int) -> tuple[np.ndarray, np.ndarray]:
    """A rendered tuning board and the homography the reader finds for it."""
    frame, _ = render.scene(seed)
    return frame, board.find_board(frame)[0]


# --- the references: the code these helpers replace -------------------------------------------------


def _ref_noise(plane: np.ndarray) -> float:
    cell = board.CELL
    p = plane.reshape(-1, cell, cell)
    lap = p[:, 1:-1, 1:-1] - 0.25 * (p[:, :-2, 1:-1] + p[:, 2:, 1:-1] + p[:, 1:-1, :-2] + p[:, 1:-1, 2:])
    return float(median(np.abs(lap).ravel()[::4]))


def _ref_dot_contrast(frame: np.ndarray, hom: np.ndarray) -> list[float]:
    d, s, n, reach = board_grid.DOT_AT, board_grid._DOT_S, board_grid._DOT_N, board_grid._DOT_REACH
    h = (n - 1) / 2 / s
    lo, hi = n // 2 - reach, n // 2 + reach + 1
    out = []
    for cx, cy in ((-d, -d), (6 + d, -d), (6 + d, 6 + d), (-d, 6 + d)):
        to_grid = np.float32([[1 / s, 0, cx - h], [0, 1 / s, cy - h], [0, 0, 1]])
        patch = cv2.warpPerspective(
            frame,
            hom @ to_grid,
            (n, n),
            flags=cv2.INTER_LINEAR | cv2.WARP_INVERSE_MAP,
            borderMode=cv2.BORDER_REPLICATE,
        )
        lum = cv2.cvtColor(patch, cv2.COLOR_BGR2GRAY).astype(np.float32)
        spot = cv2.blur(lum, (7, 7)) - cv2.blur(lum, (21, 21))
        out.append(float(spot[lo:hi, lo:hi].max()))
    return out


def _ref_line_positions(img: np.ndarray, reach: float) -> tuple[np.ndarray, np.ndarray]:
    s, margin = board_grid.S, board_grid.MARGIN
    span = int(round(reach * s))
    rows = np.round((np.arange(1, 6)[:, None] + margin) * s).astype(int) + np.arange(-span, span + 1)[None, :]
    m = int(margin * s)
    lo, hi = int(0.2 * s), int(0.8 * s)
    k_idx, c_idx = np.indices((5, 6))
    off, strength = [], []
    for plane in (img, img.T):
        band = plane[rows][:, :, m : m + 6 * s].reshape(5, rows.shape[1], 6, s)[..., lo:hi].mean(axis=3)
        i = band.argmax(axis=1)
        inner = np.clip(i, 1, band.shape[1] - 2)
        p0, p1, p2 = (band[k_idx, inner + d, c_idx] for d in (-1, 0, 1))
        den = p0 - 2 * p1 + p2
        sub = np.where(
            (den < 0) & (i == inner), np.clip(0.5 * (p0 - p2) / np.where(den < 0, den, -1), -0.5, 0.5), 0
        )
        off.append((i - span + sub) / s)
        strength.append(band.max(axis=1) - median(band, axis=1))
    return np.float32(off), np.float32(strength)


def _ref_grid_scores(frame: np.ndarray, homs: list[np.ndarray], gains: np.ndarray | None) -> np.ndarray:
    pts, n_line, n_corner = board_grid._POINTS, board_grid._N_LINE, board_grid._N_CORNER
    h, w = frame.shape[:2]
    m = np.stack(homs).astype(np.float64)
    x, y = pts[:, 0].astype(np.float64), pts[:, 1].astype(np.float64)
    den = x * m[:, 2, 0, None] + y * m[:, 2, 1, None] + m[:, 2, 2, None]
    with np.errstate(divide="ignore", invalid="ignore", over="ignore"):
        inv = np.where(np.abs(den) > np.finfo(np.float32).eps, 1.0 / den, 0.0)
        px = ((x * m[:, 0, 0, None] + y * m[:, 0, 1, None] + m[:, 0, 2, None]) * inv).astype(np.float32)
        py = ((x * m[:, 1, 0, None] + y * m[:, 1, 1, None] + m[:, 1, 2, None]) * inv).astype(np.float32)
    finite = np.isfinite(px).all(axis=1) & np.isfinite(py).all(axis=1)
    px, py = np.where(finite[:, None], px, 0), np.where(finite[:, None], py, 0)
    pix = frame[np.clip(py.astype(np.int32), 0, h - 1), np.clip(px.astype(np.int32), 0, w - 1)]
    if gains is not None:
        pix = np.minimum(pix * gains, 255.0)
    n_in = n_line + n_corner
    m_in = pix[:, :n_in].min(axis=2)
    line = np.partition(m_in[:, :n_line], n_line // 2, axis=1)[:, n_line // 2].astype(np.float64)
    cells = np.partition(m_in[:, n_line:], n_corner // 2, axis=1)[:, n_corner // 2].astype(np.float64)
    sides = pix[:, n_in:].max(axis=2).reshape(len(homs), 4, -1)
    k = sides.shape[2] // 2
    border = np.partition(sides, k, axis=2)[:, :, k].max(axis=1).astype(np.float64)
    return np.where(finite, (line - np.maximum(cells, border)) / (line + 10.0), -1.0)


def _ref_chroma(bgr: np.ndarray) -> np.ndarray:
    b = np.asarray(bgr, np.float32).reshape(-1, 3) + board.EPS
    return np.stack([np.log(b[:, 2] / b[:, 1]), np.log(b[:, 0] / b[:, 1])], 1)


# --- the tests ---------------------------------------------------------------------------------------


def test_top_values_count_the_same_brightest_value_as_a_partition():
    rng = np.random.default_rng(12)
    for k in (1, 7, 40, 300):
        for shape in ((120, 160, 3), (31, 17, 3), (40, 40, 3)):
            img = rng.integers(0, 256, shape, dtype=np.uint8)
            if k > shape[0] * shape[1]:
                continue
            img[rng.random(shape[:2]) < 0.02] = 255  # a few clipped pixels, as glare
            ref = np.partition(img.reshape(-1, 3), -k, axis=0)[-k]
            assert np.array_equal(board_grid._top_values(img, k), ref)
    frame, _ = _scene(3)
    top = np.partition(frame[::8, ::8].reshape(-1, 3), -board_grid.LIGHT_TOP, axis=0)[-board_grid.LIGHT_TOP]
    gains = np.clip(
        top.astype(np.float32).max() / np.maximum(top.astype(np.float32), 1.0), 1.0, board_grid.LIGHT_MAX
    )
    ref = np.where(gains > board_grid.LIGHT_TOL, gains, 1.0).astype(np.float32)
    assert np.array_equal(board_grid.light_gains(frame), ref)
    warm = (frame * np.float32([0.35, 0.8, 1.0])).astype(np.uint8)  # a candle-warm lamp: gains above 1
    top = np.partition(warm[::8, ::8].reshape(-1, 3), -board_grid.LIGHT_TOP, axis=0)[-board_grid.LIGHT_TOP]
    assert np.array_equal(board_grid._top_values(warm[::8, ::8], board_grid.LIGHT_TOP), top)
    assert board_grid.light_gains(warm)[0] > 1.5


def test_histogram_median_of_a_grey_image_is_numpys_median():
    rng = np.random.default_rng(5)
    for shape in ((120, 160), (7, 9), (1, 1), (2, 1), (33, 20)):
        for spread in (3, 256):
            img = rng.integers(0, spread, shape, dtype=np.uint8) + np.uint8(256 - spread) // 2
            assert board._median_u8(img) == float(np.median(img))
    frame, _ = _scene(3)
    blur = cv2.GaussianBlur(cv2.cvtColor(frame, cv2.COLOR_BGR2GRAY), (5, 5), 0)
    assert board._median_u8(blur[::3, ::3]) == float(median(blur[::3, ::3].ravel()))


def _two_partition_median(a: np.ndarray) -> np.ndarray:
    """common.median(a, axis=1) as it was: a partition at the two middle places."""
    if a.dtype.kind in "iu":
        a = a.astype(np.float64)
    n = a.shape[1]
    k = n // 2
    if n % 2:
        return np.partition(a, k, axis=1)[:, k]
    two = np.partition(a, (k - 1, k), axis=1)
    return (two[:, k - 1] + two[:, k]) / 2


def test_one_partition_median_is_the_common_median():
    rng = np.random.default_rng(7)
    for n in (1, 2, 3, 4, 11, 24, 25, 60, 1999, 12996):
        for a in (
            rng.integers(0, 256, (3, n), dtype=np.uint8),
            rng.normal(size=(2, n)).astype(np.float32),
            np.round(rng.normal(size=(4, n)) * 2),  # many ties
        ):
            ref = _two_partition_median(a)
            got = median(a, axis=1)
            assert got.dtype == ref.dtype
            assert np.array_equal(got, ref)
    with_nan = rng.normal(size=(2, 10))
    with_nan[0, :7] = np.nan
    assert np.array_equal(median(with_nan, axis=1), _two_partition_median(with_nan), equal_nan=True)


def test_lower_third_percentile_is_numpys():
    rng = np.random.default_rng(9)
    for scale in (1e-3, 1.0, 40.0):
        a = rng.normal(size=(36, board.SECTORS)) * scale
        assert np.array_equal(board._percentile33(a), np.percentile(a, 33, axis=1))
        a = np.round(a)  # ties
        assert np.array_equal(board._percentile33(a), np.percentile(a, 33, axis=1))


def test_noise_on_the_quarter_of_pixels_is_the_full_laplacians():
    rng = np.random.default_rng(3)
    frame, hom = _scene(3)
    top = board._straighten(frame, hom)
    cells = top.reshape(6, board.CELL, 6, board.CELL, 3).transpose(0, 2, 1, 3, 4).reshape(36, -1, 3)
    for c in range(3):
        plane = cells[..., c].astype(np.float32)
        assert board._noise(plane) == _ref_noise(plane)
    grainy = np.clip(cells[..., 1] + rng.normal(0, 6, cells.shape[:2]), 0, 255).round().astype(np.float32)
    assert board._noise(grainy) == _ref_noise(grainy)
    assert board._noise(grainy) > board.NOISE_FREE  # sensor noise of 6 levels is seen


def test_sharpness_across_the_horizontal_lines_is_that_of_the_transposed_board():
    rng = np.random.default_rng(4)
    frame, hom = _scene(3)
    top = board._straighten(frame, hom)
    tops = [top, cv2.GaussianBlur(top, (0, 0), 2.0), rng.integers(0, 256, top.shape, dtype=np.uint8)]
    for t in tops:
        assert board._sharpness(t) == ref_sharpness(t)
        assert board._sharpness(t, horizontal=True) == ref_sharpness(t.transpose(1, 0, 2))
    # motion along x blurs the vertical lines only
    streak = cv2.filter2D(top, -1, np.full((1, 9), 1 / 9, np.float32))
    assert board._sharpness(streak) < board._sharpness(streak, horizontal=True)


def test_dot_corner_with_the_four_patches_side_by_side_picks_the_same_corner():
    for seed in (3, 7):
        frame, hom = _scene(seed)
        for turn in range(4):  # the dot at each corner of the grid in turn
            rolled = hom @ np.float64([[0, -1, 6], [1, 0, 0], [0, 0, 1]]) if turn else hom
            hom = rolled
            contrast = _ref_dot_contrast(frame, hom)
            assert board_grid.dot_corner(frame, hom) == int(np.argmax(contrast))
            # the grid turned a quarter each time: the dot's corner turns with it
            assert board_grid.dot_corner(frame, hom) == (-turn) % 4


def test_line_positions_of_both_directions_at_once_are_those_of_each_alone():
    rng = np.random.default_rng(8)
    frame, hom = _scene(7)
    n = int(round((6 + 2 * board_grid.MARGIN) * board_grid.S))
    small = cv2.warpPerspective(
        frame, hom @ board_grid._TO_SMALL, (n, n), flags=cv2.INTER_LINEAR | cv2.WARP_INVERSE_MAP
    )
    img = cv2.blur(small.min(axis=2), (3, 3)).astype(np.float32)
    noisy = np.clip(img + rng.integers(-20, 21, img.shape), 0, 255).astype(np.float32)
    for im in (img, noisy, img[::-1].copy()):
        for reach in (0.3, 0.15):
            off, strength = board_grid._line_positions(im, reach)
            ref_off, ref_strength = _ref_line_positions(im, reach)
            assert np.array_equal(off, ref_off) and np.array_equal(strength, ref_strength)


def test_grid_scores_by_flat_index_match_the_two_index_gather():
    frame, hom = _scene(7)
    homs = [hom, *board._one_cell_off(hom), hom @ np.float64([[0.5, 0, 0], [0, 0.5, 0], [0, 0, 1]])]
    homs.append(np.float64([[1, 0, 5000], [0, 1, -300], [0, 0, 1]]))  # off the frame: clipped to its edge
    homs.append(np.float64([[1, 0, 0], [0, 1, 0], [0, 0, 0]]))  # degenerate: scored -1
    for gains in (None, np.float32([1.6, 1.0, 1.0])):
        assert np.array_equal(
            board_grid.grid_scores(frame, homs, gains), _ref_grid_scores(frame, homs, gains)
        )
    part = frame[:, 100:]  # not contiguous: the two-index gather
    assert np.array_equal(board_grid.grid_scores(part, homs, None), _ref_grid_scores(part, homs, None))
    # the one-cell-off grids score worse than the true one, as the reader relies on
    scores = board_grid.grid_scores(frame, homs[:5])
    assert scores[0] > scores[1:].max()


def test_two_part_norm_and_one_log_chroma_are_numpys():
    rng = np.random.default_rng(2)
    d = rng.normal(size=(36, 20, 2)).astype(np.float32)
    assert np.array_equal(board._norm2(d[..., 0], d[..., 1]), np.linalg.norm(d, axis=2))
    bgr = rng.integers(0, 256, (50, 3)).astype(np.float32)
    assert np.array_equal(board._chroma(bgr), _ref_chroma(bgr))


def test_radial_profiles_with_the_cached_bins_of_any_cell_count_are_each_cells_own():
    frame, hom = _scene(7)
    top = board._straighten(frame, hom)
    cells = top.reshape(6, board.CELL, 6, board.CELL, 3).transpose(0, 2, 1, 3, 4).reshape(36, -1, 3)
    cells = cells.astype(np.float32)
    plane, lum = cells[..., 0], (cells[..., 0] + cells[..., 1] + cells[..., 2]) / 3
    both = board._radial_profiles(np.concatenate([plane, lum]))
    assert np.array_equal(both[:36], board._radial_profiles(plane))
    assert np.array_equal(both[36:], board._radial_profiles(lum))


@pytest.mark.parametrize("seed", [3, 10_007])
def test_a_board_reads_with_each_cells_box_from_its_four_corners(seed):
    frame, truth = render.scene(seed)
    hom = board.find_board(frame)[0]
    nodes = cv2.perspectiveTransform(board._NODES, hom).reshape(7, 7, 2)
    objects = board.read(frame).objects
    assert len(objects) == 36
    right = {(t["row"], t["col"]): (t["colour"], t["content"]) for t in truth}
    for o in objects:
        r, c = o["row"] - 1, o["col"] - 1
        pts = nodes[r : r + 2, c : c + 2].reshape(4, 2)
        x0, y0 = pts.min(axis=0)
        x1, y1 = pts.max(axis=0)
        assert o["box"] == [int(x0), int(y0), int(round(x1 - x0)), int(round(y1 - y0))]
        assert (o["colour"], o["content"]) == right[(o["row"], o["col"])]
