"""Thirteenth session (dicefast6): the dice reader's faster helpers give what the plain code gave."""

from __future__ import annotations

import cv2
import numpy as np

from vision import dice, dice_body
from vision.render import dice as render_dice


def test_near_pairs_are_the_pair_by_pair_distance_test() -> None:
    rng = np.random.default_rng(13)
    for n in (0, 1, 2, 7, 60):
        xy = (rng.random((n, 2)) * 400).astype(np.float32)
        size = (rng.random(n) * 12 + 2).astype(np.float32)
        near = dice._near_pairs(xy, size)
        for i in range(n):
            # group_faces' test of 45d662b, pip i against every later pip
            others = np.arange(i + 1, n)
            d2 = ((xy[others] - xy[i]) ** 2).sum(1)
            want = others[d2 < (dice.LINK_SPAN * np.maximum(size[others], size[i])) ** 2].tolist()
            assert [j for j in range(i + 1, n) if near[i][j]] == want


def test_lab_difference_per_plane_is_the_float_lab_difference() -> None:
    frame, _ = render_dice.scene(3)
    small = cv2.resize(frame, (400, 300), interpolation=cv2.INTER_AREA)
    bg = cv2.GaussianBlur(small, (0, 0), 9)
    planes = dice_body._lab_diff(small, bg)
    want = dice_body._lab(small) - dice_body._lab(bg)
    assert len(planes) == 3
    for c, plane in enumerate(planes):
        assert plane.dtype == np.float32 and plane.flags.c_contiguous
        assert np.array_equal(plane, want[..., c])


def _red_count(frame: np.ndarray, gains: np.ndarray) -> int:
    """The whole-frame count _has_red made before it counted band by band."""
    gb, gg, gr = (float(v) for v in gains)
    blue, green, red = cv2.split(frame)
    others = cv2.max(cv2.convertScaleAbs(blue, alpha=gb), cv2.convertScaleAbs(green, alpha=gg))
    reddish = cv2.compare(
        cv2.convertScaleAbs(red, alpha=gr),
        cv2.convertScaleAbs(others, alpha=dice.RED_K, beta=dice.RED_MIN),
        cv2.CMP_GT,
    )
    return cv2.countNonZero(reddish)


def test_red_pixels_counted_band_by_band_give_the_whole_frame_answer() -> None:
    frames = []
    for n in (dice.RED_PIXELS - 1, dice.RED_PIXELS):
        # a grey frame with n red pixels spread over band borders and the last, short band
        f = np.full((300, 400, 3), 128, np.uint8)
        rows = [dice.RED_ROWS - 1, dice.RED_ROWS, 2 * dice.RED_ROWS - 1, 2 * dice.RED_ROWS, 299]
        for k in range(n):
            f[rows[k % len(rows)], 10 + 7 * k] = (20, 20, 230)
        frames.append(f)
    frames += [render_dice.scene(s)[0] for s in (0, 5)]
    frames.append(render_dice.scene(7, kinds=render_dice.BUTTONS_SET)[0])
    seen = set()
    for f in frames:
        gains = dice._wb_gains(f)
        want = _red_count(f, gains) >= dice.RED_PIXELS
        seen.add(want)
        assert dice._has_red(f, cv2.split(f), gains) == want
        assert dice._has_red(f, cv2.split(f)) == want  # gains of its own
    assert seen == {True, False}


def test_band_count_bounds_the_lone_pixels_so_the_noise_guard_is_unchanged() -> None:
    rng = np.random.default_rng(1)
    masks = [np.zeros((40, 50), np.uint8), np.full((40, 50), 255, np.uint8), np.zeros((2, 9), np.uint8)]
    for p in (0.01, 0.05, 0.2, 0.6):
        masks.append(((rng.random((120, 160)) < p) * 255).astype(np.uint8))
    lone = np.zeros((64, 64), np.uint8)
    lone[::2, ::2] = 255  # every marked pixel alone: the bound is reached
    masks.append(lone)
    for m in masks:
        assert dice._band_marked(m) >= dice._specks(m)
    y0, y1 = dice._band(lone.shape[0])
    assert dice._specks(lone) == dice._band_marked(lone) == cv2.countNonZero(lone[y0 + 1 : y1 - 1]) > 0
