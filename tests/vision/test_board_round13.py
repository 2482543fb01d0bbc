"""Thirteenth session, the board reader made faster with the same readings: each new helper (and each
rewritten step) is checked against the plain computation it replaces (the code of 45d662b, kept here as
the reference) on rendered tuning boards and on random inputs."""

from __future__ import annotations

from functools import cache

import numpy as np
import pytest

from tests.vision.board_check import ref_sharpness
from vision import board, board_grid
from vision.common import median
from vision.render import board as render


@cache
def _scene(seed: int) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """A rendered tuning board, the homography the reader finds for it and its straightened board."""
    frame, _ = render.scene(seed)
    hom = board.find_board(frame)[0]
    return frame, hom, board._straighten(frame, hom)


def _tops() -> list[np.ndarray]:
    """Straightened tuning boards, a random one, one of few grey levels (many ties) and a flat one."""
    rng = np.random.default_rng(13)
    cell = board.CELL
    return [
        _scene(3)[2],
        _scene(10_007)[2],
        rng.integers(0, 256, (6 * cell, 6 * cell, 3), dtype=np.uint8),
        (rng.integers(0, 3, (6 * cell, 6 * cell, 3)) * 100).astype(np.uint8),
        np.full((6 * cell, 6 * cell, 3), 77, np.uint8),
    ]


def _cells(top: np.ndarray) -> np.ndarray:
    cell = board.CELL
    return (
        top.reshape(6, cell, 6, cell, 3)
        .transpose(0, 2, 1, 3, 4)
        .reshape(36, cell * cell, 3)
        .astype(np.float32)
    )


# --- the references: the code of 45d662b these steps replace ------------------------------------------


def _ref_cell_features(top: np.ndarray) -> dict[str, np.ndarray]:
    m = board._MASKS
    cells = _cells(top)
    lum = (cells[..., 0] + cells[..., 1] + cells[..., 2]) / 3
    corner = median(cells[:, m["corners"]], axis=2)
    ring = median(corner, axis=1)
    sat = (corner.max(axis=2) - corner.min(axis=2)) / (corner.max(axis=2) + board.EPS)
    colour = corner[np.arange(36), sat.argmax(axis=1)]
    mid = cells[:, m["middle"]].mean(axis=1)
    ring_l = ring.mean(axis=1) + board.EPS
    ring_ch = board._chroma(ring)
    circ = cells[:, m["circle"]] + board.EPS
    dist = board._norm2(
        np.log(circ[..., 2] / circ[..., 1]) - ring_ch[:, None, 0],
        np.log(circ[..., 0] / circ[..., 1]) - ring_ch[:, None, 1],
    )
    sig = dist + np.abs(np.log((lum[:, m["circle"]] + board.EPS) / ring_l[:, None]))
    per_sector = sig @ m["onehot"]
    five = np.abs(per_sector @ board._FIVE) / 20 * 2
    srt = np.sort(per_sector, axis=1)
    dark = (lum[:, m["middle"]].mean(axis=1) + board.EPS) / ring_l
    rim_px = lum[:, m["rim"]]
    k90 = int(rim_px.shape[1] * 0.9)
    rim_l = (np.partition(rim_px, k90, axis=1)[:, k90] + board.EPS) / ring_l
    plane = cells[np.arange(36), :, np.argmin(ring, axis=1)]
    prof, prof_lum = board._radial_profiles(plane), board._radial_profiles(lum)
    mid_bands = board._MID_BANDS
    step = prof[:, 2:-2] - 0.5 * (prof[:, :-4] + prof[:, 4:])
    ridge = median(step[:, (mid_bands >= 0.25) & (mid_bands < 0.38)].max(axis=1), axis=1)
    ridge = ridge - board.NOISE_RIDGE * max(_ref_noise(plane) - board.NOISE_FREE, 0.0)
    step_lum = -(prof_lum[:, 2:-2] - 0.5 * (prof_lum[:, :-4] + prof_lum[:, 4:]))
    valley = np.percentile(step_lum[:, (mid_bands >= 0.15) & (mid_bands < 0.43)].max(axis=1), 33, axis=1)
    sharp = ref_sharpness(top)
    ridge = ridge * board._blur_gain(float(np.sqrt(sharp * ref_sharpness(top.transpose(1, 0, 2)))))
    board_l = float(median(ring_l))
    return {
        "ring": ring,
        "colour": colour,
        "mid": mid,
        "dark": dark,
        "rim": rim_l,
        "spread": srt[:, 16] - srt[:, 4],
        "five": five,
        "mid_shift": board._norm2(*(board._chroma(mid) - ring_ch).T),
        "ridge": ridge / ring_l,
        "valley": valley / ring_l,
        "ridge_board": ridge / board_l,
        "sharp": np.full(36, sharp, np.float32),
        "five_share": five / (per_sector.mean(axis=1) + 0.05),
        "whiten": np.log((mid.min(axis=1) + board.EPS) / (colour.min(axis=1) + board.EPS)),
    }


def _ref_noise(plane: np.ndarray) -> float:
    cell = board.CELL
    p = plane.reshape(-1, cell, cell)
    lap = p[:, 1:-1, 1:-1] - 0.25 * (p[:, :-2, 1:-1] + p[:, 2:, 1:-1] + p[:, 1:-1, :-2] + p[:, 1:-1, 2:])
    return float(median(np.abs(lap).ravel()[::4]))


def _ref_fit(x: np.ndarray, y: np.ndarray, w: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    sw = w.sum(axis=1)
    mx, my = (w * x).sum(axis=1) / sw, (w * y).sum(axis=1) / sw
    a = (w * (x - mx[:, None]) * (y - my[:, None])).sum(axis=1) / np.maximum(
        (w * (x - mx[:, None]) ** 2).sum(axis=1), 1e-6
    )
    return a, my - a * mx


def _ref_cast_shift(chroma: np.ndarray, means: np.ndarray) -> np.ndarray:
    shift = np.zeros(2, np.float32)
    d2 = ((chroma[:, None, :] - means[None]) ** 2).sum(-1)
    if (d2.min(axis=1) < board.CAST_CAP).mean() < board.CAST_NEAR:
        grid = ((chroma[None, :, None, :] - board.CAST_GRID - means[None, None]) ** 2).sum(-1)
        cost = np.minimum(grid.min(axis=2), board.CAST_CAP).sum(axis=1) + board._CAST_GRID_COST
        shift = board.CAST_GRID[int(cost.argmin()), 0, 0]
    for _ in range(3):
        d2 = board._sq2(chroma[:, None, :] - shift - means[None])
        near = d2.min(axis=1) < board.CAST_CAP
        if not near.any():
            break
        shift = (chroma[near] - means[d2[near].argmin(axis=1)]).mean(axis=0)
    size = float(np.linalg.norm(shift))
    return (shift * max(0.0, 1.0 - board.CAST_MIN / max(size, 1e-6))).astype(np.float32)


def _ref_light_gains(frame: np.ndarray) -> np.ndarray:
    top = np.partition(frame[::8, ::8].reshape(-1, 3), -board_grid.LIGHT_TOP, axis=0)[-board_grid.LIGHT_TOP]
    top = top.astype(np.float32)
    gains = np.clip(top.max() / np.maximum(top, 1.0), 1.0, board_grid.LIGHT_MAX)
    return np.where(gains > board_grid.LIGHT_TOL, gains, 1.0).astype(np.float32)


def _same(a: np.ndarray, b: np.ndarray) -> bool:
    a, b = np.asarray(a), np.asarray(b)
    return a.dtype == b.dtype and a.shape == b.shape and np.array_equal(a, b, equal_nan=True)


# --- the tests ------------------------------------------------------------------------------------------


def test_cell_features_are_the_plain_computations_own_on_tuning_boards_and_odd_inputs():
    # every measurement the two rules weigh, value for value and in the same float type
    for top in _tops():
        new, ref = board._cell_features(top), _ref_cell_features(top)
        assert new.keys() == ref.keys()
        for key in ref:
            assert _same(new[key], ref[key]), key


def test_corner_medians_from_one_keyed_sort_are_each_corners_median():
    for top in _tops():
        ref = median(_cells(top)[:, board._MASKS["corners"]], axis=2)
        assert _same(board._corner_medians(top), ref)


def test_noise_taken_straight_from_the_board_is_the_planes_noise():
    rng = np.random.default_rng(5)
    for top in _tops():
        cells = _cells(top)
        for darkest in (np.zeros(36, int), rng.integers(0, 3, 36), np.full(36, 2)):
            plane = cells[np.arange(36), :, darkest]
            assert board._noise_top(top, darkest) == _ref_noise(plane) == board._noise(plane)
    # grain of a dim, noisy camera (the case the noise allowance is for)
    grainy = np.clip(_scene(3)[2] * 0.4 + rng.normal(0, 6, _scene(3)[2].shape), 0, 255).astype(np.uint8)
    darkest = rng.integers(0, 3, 36)
    noise = board._noise_top(grainy, darkest)
    assert noise == _ref_noise(_cells(grainy)[np.arange(36), :, darkest])
    assert noise > board.NOISE_FREE


def test_ring_plane_taken_at_the_binned_pixels_and_the_middles_mean():
    rng = np.random.default_rng(6)
    for top in _tops():
        cells = _cells(top)
        darkest = rng.integers(0, 3, 36)
        plane_px = cells.reshape(-1).take(board._PLANE_AT + darkest[:, None])
        assert _same(plane_px, cells[np.arange(36), :, darkest][:, board._PIX])
        assert _same(board._bin_means(plane_px), board._radial_profiles(cells[np.arange(36), :, darkest]))
        assert _same(board._middle_mean(cells), cells[:, board._MASKS["middle"]].mean(axis=1))


def test_small_median_is_the_partition_median_on_any_short_axis():
    rng = np.random.default_rng(7)
    for trial in range(600):
        shape = tuple(int(n) for n in rng.integers(1, 8, rng.integers(1, 4)))
        a = rng.normal(size=shape).astype(np.float32 if trial % 2 else np.float64)
        if trial % 3 == 0:
            a = np.round(a * 2)  # ties
        if trial % 5 == 0:
            a.ravel()[rng.integers(0, a.size)] = np.nan
        if trial % 11 == 0:
            a = rng.integers(0, 9, shape)
        axis = int(rng.integers(0, a.ndim))
        assert _same(board_grid.small_median(a, axis=axis), median(a, axis=axis))


def test_line_fit_of_both_coordinates_at_once_is_each_fit():
    rng = np.random.default_rng(8)
    x = board_grid._ALONG
    for trial in range(200):
        y = (rng.normal(size=(10, 6)) * 10.0 ** rng.integers(-3, 2)).astype(np.float32)
        if trial % 9 == 0:
            y = y.astype(np.float64)  # another type than x's: each coordinate in its own
        w = (rng.random((10, 6)) < 0.7).astype(np.float32)
        if trial % 4 == 0:
            w[rng.integers(0, 10)] = 0  # a line with no kept crossing
        if trial % 7 == 0:
            y[:, :3] = -0.0  # signed zeros
        with np.errstate(invalid="ignore", divide="ignore"):  # a line with no kept crossing: 0 / 0
            pairs = zip(board_grid._fit(x, y, w), _ref_fit(x, y, w), strict=True)
        for got, want in pairs:
            assert _same(got, want)


def test_light_gains_on_every_8th_pixel_viewed_without_a_copy():
    frame = _scene(10_007)[0]
    warm = np.clip(frame * np.float32([0.45, 0.8, 1.0]), 0, 255).astype(np.uint8)  # a warm lamp: blue lifted
    for f in (frame, warm, warm[:, 3:], np.asfortranarray(warm), warm[::-1]):
        assert _same(board_grid.light_gains(f), _ref_light_gains(f))
    assert board_grid.light_gains(warm)[0] > board_grid.LIGHT_TOL  # the warm lamp's blue is lifted
    # the histogram count takes the pixels of a row-strided view as they lie
    pixels = warm.reshape(warm.shape[0], -1, 24)[::8]
    ref = np.partition(warm[::8, ::8].reshape(-1, 3), -40, axis=0)[-40]
    assert _same(board_grid._top_values(pixels, 40), ref)


def test_gains_of_one_are_skipped_with_the_same_scores_and_refit(monkeypatch):
    frame, hom, _ = _scene(3)
    homs = [hom, *board._one_cell_off(hom), hom * 1.01]
    ones = np.ones(3, np.float32)
    fast_scores, fast_fit = (
        board_grid.grid_scores(frame, homs, ones),
        board_grid.refine_moved(frame, hom, gains=ones),
    )
    monkeypatch.setattr(board_grid, "_all_one", lambda gains: False)  # multiply by the gains of one after all
    assert _same(fast_scores, board_grid.grid_scores(frame, homs, ones))
    slow_fit = board_grid.refine_moved(frame, hom, gains=ones)
    assert _same(fast_fit[0], slow_fit[0]) and fast_fit[1] == slow_fit[1]


def test_cast_shift_that_stops_once_its_cells_settle_is_the_three_rounds_shift():
    rng = np.random.default_rng(9)
    profile = board.default_profile()
    means = np.float32([profile["colours"][k] for k in board.COLOURS])
    chromas = [board._chroma(board._cell_features(top)["colour"]) for top in _tops()[:2]]
    chromas += [
        chromas[0] + np.float32([0.9, -0.7]),
        chromas[1] + np.float32([0.3, 0.2]),
    ]  # candle-warm casts
    chromas += [rng.normal(0, 1, (36, 2)).astype(np.float32) for _ in range(40)]
    for chroma in chromas:
        assert _same(board._cast_shift(chroma, means), _ref_cast_shift(chroma, means))


def test_rule_inputs_hold_every_split_measurement_the_rules_weigh():
    feats = board._cell_features(_scene(3)[2])
    _, best, _, x = board._rule_inputs(feats, board.default_profile())
    yellow = x["yel"]
    for key in [*board.STAR_RULE[0], *board.BUTTON_RULE[0]]:
        assert key in x, key
        if key.endswith(("_y", "_n")) and key != "yel":
            part = yellow if key.endswith("_y") else 1 - yellow
            assert _same(x[key], x[key[:-2]] * part), key
    # the rules' scores are those of the full set of split measurements (as 45d662b made them)
    full = dict(x)
    for key in ("to_star", "mid_shift", "spread", "five", "dark", "valley"):
        full[key + "_y"], full[key + "_n"] = x[key] * yellow, x[key] * (1 - yellow)
    for rule in (board.STAR_RULE, board.BUTTON_RULE):
        assert _same(board._score(rule, x), board._score(rule, full))


def test_band_steps_at_the_bands_looked_at_and_the_darkest_channel():
    rng = np.random.default_rng(10)
    mid = board._MID_BANDS
    for _ in range(20):
        prof = rng.normal(0, 30, (36, len(board._BANDS), board.SECTORS))
        step = prof[:, 2:-2] - 0.5 * (prof[:, :-4] + prof[:, 4:])
        ridge = median(step[:, (mid >= 0.25) & (mid < 0.38)].max(axis=1), axis=1)
        valley = np.percentile((-step)[:, (mid >= 0.15) & (mid < 0.43)].max(axis=1), 33, axis=1)
        assert _same(board._ring_ridge(prof), ridge)
        assert _same(board._edge_valley(prof), valley)
    for top in _tops():
        assert _same(board._darkest(top), top.min(axis=2))


@pytest.mark.parametrize("seed", [3, 10_007])
def test_a_tuning_board_reads_right_with_the_faster_steps(seed):
    frame, truth = render.scene(seed)
    seen = {(o["row"], o["col"]): o for o in board.read(frame).objects}
    wrong = [
        t
        for t in truth
        if (seen[(t["row"], t["col"])]["colour"], seen[(t["row"], t["col"])]["content"])
        != (t["colour"], t["content"])
    ]
    assert len(seen) == 36 and not wrong
    # and it is the same reading the plain cell measurements give
    hom = board.find_board(frame)[0]
    plain = board._classify(_ref_cell_features(board._straighten(frame, hom)), board.default_profile())
    assert [(o["colour"], o["content"]) for o in board.read(frame).objects] == [(c, k) for c, k, _ in plain]
