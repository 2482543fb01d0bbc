"""Dice scout: the pre-pass that limits the pip search's fine levels must not lose any die."""

from __future__ import annotations

import cv2
import numpy as np

from vision import dice, dice_scout
from vision.render import dice as render

from .test_dice_body import draw_die, table

FRAME = (960, 1280)  # the speed budget's frame size


def boxes_of(frame: np.ndarray) -> dict[int, list[tuple[int, int, int, int]] | None]:
    """The boxes the scout gives each fine level of the main pass (None: the whole level)."""
    got: dict[int, list | None] = {}
    original = dice_scout.fine_boxes

    def spy(spots: np.ndarray, shape: tuple[int, int]) -> list | None:
        got[len(got)] = out = original(spots, shape)
        return out

    dice_scout.fine_boxes = spy
    try:
        dice.find_pips(dice.planes_of(frame), scout=True)
    finally:
        dice_scout.fine_boxes = original
    return got


def share(boxes: list[tuple[int, int, int, int]] | None, shape: tuple[int, ...]) -> float:
    return 1.0 if boxes is None else sum(w * h for _, _, w, h in boxes) / (shape[0] * shape[1])


def test_a_white_die_on_a_white_tray_is_read_through_the_scout():
    # the body hardly differs from the tray; only the pips stand out
    frame = table((228, 230, 232), FRAME)
    for k, n in enumerate((2, 4, 5)):
        draw_die(frame, 300 + 300 * k, 480, 40, n, (240, 240, 240), (25, 25, 25))
    frame = cv2.GaussianBlur(frame, (3, 3), 0)
    boxes = boxes_of(frame)
    assert share(boxes[0], frame.shape) < 0.2  # the finest level is searched in a few boxes only
    assert sorted(o["pips"] for o in dice.read(frame).objects) == [2, 4, 5]


def test_twenty_pixel_dice_on_a_large_frame_are_read_through_the_scout():
    frame = table((150, 160, 165), FRAME)
    for k, n in enumerate((3, 4, 5, 6)):
        draw_die(frame, 200 + 280 * k, 300 + 120 * k, 22, n, (235, 235, 235), (20, 20, 20))
    frame = cv2.GaussianBlur(frame, (3, 3), 0)
    assert share(boxes_of(frame)[0], frame.shape) < 0.2
    assert sorted(o["pips"] for o in dice.read(frame).objects) == [3, 4, 5, 6]


def test_the_scout_finds_the_same_pips_as_the_whole_frame_search():
    for seed in (0, 3, 7, 12, 86):
        frame, _ = render.scene(seed)
        planes = dice.planes_of(frame)
        whole = {(round(p.x, 1), round(p.y, 1), p.dark) for p in dice.find_pips(planes)}
        scouted = {(round(p.x, 1), round(p.y, 1), p.dark) for p in dice.find_pips(planes, scout=True)}
        assert whole and scouted == whole


def test_the_brightest_channel_pass_finds_the_same_pips_through_the_scout():
    # one plane searched for both polarities (coloured pips on coloured dice): the scout's box mean
    # of that plane is made once and serves both
    for seed in (3, 7):
        frame, _ = render.scene(seed)
        value = cv2.max(cv2.max(frame[..., 0], frame[..., 1]), frame[..., 2])
        whole = {(round(p.x, 1), round(p.y, 1), p.dark) for p in dice.find_pips((value, value))}
        scouted = {(round(p.x, 1), round(p.y, 1), p.dark) for p in dice.find_pips((value, value), scout=True)}
        assert any(d for _, _, d in whole) and not all(d for _, _, d in whole)  # pips of both polarities
        assert scouted == whole


def test_a_cluttered_frame_is_searched_whole():
    # a busy cloth: spots everywhere, so boxes would cover most of the frame
    rng = np.random.default_rng(3)
    cloth = cv2.resize(rng.integers(0, 255, (120, 160, 3), dtype=np.uint8), (1280, 960),
                       interpolation=cv2.INTER_NEAREST)
    boxes = boxes_of(cloth)
    assert boxes[0] is None and boxes[1] is None


def test_an_empty_table_and_bad_frames_give_no_dice_and_no_boxes():
    empty = table((120, 140, 150), FRAME)
    assert boxes_of(empty)[0] == []
    assert dice.read(empty).objects == []
    noise = np.random.default_rng(1).integers(0, 256, (960, 1280, 3), dtype=np.uint8)
    for frame in (np.zeros((960, 1280, 3), np.uint8), np.full((960, 1280, 3), 255, np.uint8), noise):
        assert dice.read(frame).objects == []
