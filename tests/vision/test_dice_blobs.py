"""Dice reader, die-first search: dice that touch a die already read, dice known by their outline."""

from __future__ import annotations

import cv2
import numpy as np
import pytest

from vision import dice_body

from .test_dice_body import PIP_SPOTS, draw_die, read_counts, table


def _jpeg(frame: np.ndarray, quality: int = 80) -> np.ndarray:
    return cv2.imdecode(cv2.imencode(".jpg", frame, [cv2.IMWRITE_JPEG_QUALITY, quality])[1], cv2.IMREAD_COLOR)


RED, BLUE = (40, 40, 190), (150, 60, 60)


def _touching_pair(side: int, pips: int, pip: tuple, body: tuple) -> np.ndarray:
    """A white six with a coloured die pressed against it (pips of that body's own lightness, which
    the pip search cannot see), and a white five apart from them, on a light table."""
    frame = table((200, 205, 208))
    draw_die(frame, 200, 200, side, 6, (235, 235, 235), (20, 20, 20))
    draw_die(frame, 200 + side, 200, side, pips, body, pip)
    draw_die(frame, 450, 330, side, 5, (235, 235, 235), (20, 20, 20))
    return _jpeg(cv2.GaussianBlur(frame, (0, 0), 0.8))


@pytest.mark.parametrize("side, pips, pip, body", [(30, 3, (170, 70, 60), RED), (36, 4, (170, 70, 60), RED),
                                                   (30, 4, (60, 160, 60), RED), (36, 2, (30, 150, 150), BLUE)])
def test_a_die_pressed_against_a_die_already_read_is_found_and_counted(side, pips, pip, body):
    # the two dice make one blob off the table; the reader before this round looked only at the
    # blob's four strongest spots (the white six's pips, already read) and never at the other die
    assert read_counts(_touching_pair(side, pips, pip, body)) == sorted([pips, 5, 6])


def test_the_same_red_die_apart_from_the_others_is_still_read():
    frame = table((200, 205, 208))
    draw_die(frame, 150, 150, 34, 6, (235, 235, 235), (20, 20, 20))
    draw_die(frame, 350, 250, 34, 3, RED, (170, 70, 60))
    draw_die(frame, 500, 380, 34, 5, (235, 235, 235), (20, 20, 20))
    assert read_counts(_jpeg(cv2.GaussianBlur(frame, (0, 0), 0.8))) == [3, 5, 6]


def _square(cx: float, cy: float, side: float) -> np.ndarray:
    h = side / 2
    return np.float32([[[cx - h, cy - h]], [[cx + h, cy - h]], [[cx + h, cy + h]], [[cx - h, cy + h]]])


def _spots(cx: float, cy: float, side: float, layout: list[tuple[float, float]]) -> list[tuple[float, float, float]]:
    return [(cx + 0.27 * side * x, cy + 0.27 * side * y, 0.2 * side) for x, y in layout]


@pytest.mark.parametrize("pips", [2, 3, 4, 5, 6])
def test_a_die_sized_square_with_spots_in_a_face_layout_is_a_die(pips):
    frame = table((200, 205, 208))
    die = dice_body._outline_die(frame, _square(300, 200, 32), 32.0, _spots(300, 200, 32, PIP_SPOTS[pips]))
    assert die is not None and die.kind == "die" and die.count == pips


@pytest.mark.parametrize("what, side, layout", [
    ("three spots along a side (print)", 32, [(-1, -1), (0, -1), (1, -1)]),
    ("spots in no face's layout", 32, [(-1, -1), (1, -1), (0.4, 0.6), (-1, 1)]),
    ("a square three times the frame's dice", 96, PIP_SPOTS[4]),
    ("a lone spot off the centre", 32, [(0.8, 0.0)]),
])
def test_a_square_blob_without_a_die_face_is_no_die(what, side, layout):
    frame = table((200, 205, 208))
    assert dice_body._outline_die(frame, _square(300, 200, side), 32.0, _spots(300, 200, side, layout)) is None, what
