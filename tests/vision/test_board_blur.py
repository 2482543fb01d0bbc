"""Buttons board through an out-of-focus or shaken camera: a button's thin bright ring spreads out,
and the reader asks the ring for as much less as the board's own grid lines have lost."""

from __future__ import annotations

import cv2
import numpy as np
import pytest

from vision import board
from vision.render import board as render


def _contents(frame: np.ndarray) -> dict[tuple[int, int], str]:
    return {(o["row"], o["col"]): o["content"] for o in board.read(frame).objects}


@pytest.mark.parametrize("seed", [0, 2])
def test_buttons_on_an_out_of_focus_board_are_still_buttons(seed):
    frame, truth = render.scene(seed)
    seen = _contents(cv2.GaussianBlur(frame, (0, 0), 3.0))  # about a fifth of a cell's ring width
    assert len(seen) == 36
    buttons = [(t["row"], t["col"]) for t in truth if t["content"] == "button"]
    # the reader that asked a blurred ring for nearly a sharp ring's ridge read 3 and 2 of them empty
    assert buttons and all(seen[c] == "button" for c in buttons)
    assert all(seen[(t["row"], t["col"])] != "button" for t in truth if t["content"] == "empty")


def test_a_sharp_board_reads_as_before():
    frame, truth = render.scene(2)
    feats = board._cell_features(board._straighten(frame, board.find_board(frame)[0]))
    assert feats["sharp"][0] > board.SHARP_FULL  # no gain on a sharp frame
    seen = _contents(frame)
    assert all(seen[(t["row"], t["col"])] == t["content"] for t in truth)


def test_a_shaken_camera_does_not_turn_empty_cells_into_buttons():
    # motion along one diagonal: the lines across it blur, the ones along it less
    frame, truth = render.scene(5)
    kernel = np.eye(9, dtype=np.float32) / 9
    seen = _contents(cv2.filter2D(frame, -1, kernel))
    assert len(seen) == 36
    empties = [(t["row"], t["col"]) for t in truth if t["content"] == "empty"]
    assert sum(seen[c] == "button" for c in empties) == 0
    buttons = [(t["row"], t["col"]) for t in truth if t["content"] == "button"]
    assert sum(seen[c] == "button" for c in buttons) >= len(buttons) - 1
