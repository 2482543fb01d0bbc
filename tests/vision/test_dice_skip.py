"""The brightest-channel pass looks only where the first pass left dice unexplained: small and large
dice are still read, and so is a die only that pass sees."""

from __future__ import annotations

import cv2
import numpy as np

from vision import dice
from vision.render import dice as render

from .test_dice_body import draw_die, table


def second_pass_skips(frame: np.ndarray) -> tuple[list[dict], list[tuple[float, float, float, float]]]:
    """The dice read in a frame and the boxes the brightest-channel pass was told to skip."""
    got: list[list] = []
    original = dice._faces_of

    def spy(planes, *args, **kwargs):
        if planes[0] is planes[1] and "polarities" not in kwargs:  # (the red passes seek bright pips only)
            got.append(list(kwargs.get("skip") or []))
        return original(planes, *args, **kwargs)

    dice._faces_of = spy
    try:
        objects = dice.read(frame).objects
    finally:
        dice._faces_of = original
    assert len(got) == 1  # the brightest-channel pass ran once
    return objects, got[0]


def covered(box: list[int], skip: list[tuple[float, float, float, float]]) -> bool:
    cx, cy = box[0] + box[2] / 2, box[1] + box[3] / 2
    return any(x0 <= cx < x1 and y0 <= cy < y1 for x0, y0, x1, y1 in skip)


def test_small_and_large_dice_are_read_and_not_searched_twice():
    # a tinted table (the colour pass runs), 80 px and 22 px dice: the first pass reads every one in a
    # die's layout, and the brightest-channel pass is told to skip each of them, small and large
    frame = table((140, 160, 175), (960, 1280))
    dice_drawn = [(250, 250, 80, 5), (650, 250, 80, 4), (1000, 300, 80, 3),
                  (250, 700, 22, 6), (600, 650, 22, 5), (950, 720, 22, 3)]
    for x, y, side, n in dice_drawn:
        draw_die(frame, x, y, side, n, (235, 235, 235), (25, 25, 25))
    frame = cv2.GaussianBlur(frame, (3, 3), 0)
    objects, skip = second_pass_skips(frame)
    assert sorted(o["pips"] for o in objects) == sorted(n for *_, n in dice_drawn)
    for x, y, side, _ in dice_drawn:
        assert any(x0 <= x < x1 and y0 <= y < y1 for x0, y0, x1, y1 in skip), (x, y, side)
    # no die is lost or miscounted by the skip: the same readings as searching every die again
    dice.SKIP_EXPLAINED = False
    try:
        assert dice.read(frame).objects == objects
    finally:
        dice.SKIP_EXPLAINED = True


def test_a_die_only_the_brightest_channel_pass_reads_is_read_beside_skipped_dice():
    # Buttons roll 4: the black die with white pips at the top is read only by the brightest-channel
    # pass; other dice there were read by the first pass and are skipped
    frame, truth = render.scene(4, kinds=render.BUTTONS_SET)
    objects, skip = second_pass_skips(frame)
    assert skip
    six = [o for o in objects if abs(o["box"][0] - 660) < 30 and abs(o["box"][1] - 250) < 60]
    assert [o["pips"] for o in six] == [6] and not covered(six[0]["box"], skip)
    dice.SKIP_EXPLAINED = False
    try:
        assert [(o["pips"], o["body"], o["pip_colour"]) for o in dice.read(frame).objects] == \
            [(o["pips"], o["body"], o["pip_colour"]) for o in objects]
    finally:
        dice.SKIP_EXPLAINED = True
