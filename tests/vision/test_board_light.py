"""Buttons board under a very warm lamp: the pale grid lines are told from the printed colours on
the frame's own balance, not on raw channels (a candle-warm lamp leaves little blue in them)."""

from __future__ import annotations

import numpy as np
import pytest

from vision import board, board_grid
from vision.render import board as render
from vision.render.effects import kelvin_gains


def _warm(frame: np.ndarray, kelvin: float) -> np.ndarray:
    """The frame as if its lamp were this much warmer than daylight (5000 K)."""
    gains = kelvin_gains(kelvin) / kelvin_gains(5000)
    return np.clip(frame.astype(np.float32) * gains, 0, 255).astype(np.uint8)


@pytest.mark.parametrize("seed", [0, 2, 3])
def test_a_board_under_a_candle_warm_lamp_is_found_and_read(seed):
    frame, truth = render.scene(seed)
    seen = {(o["row"], o["col"]): o for o in board.read(_warm(frame, 2200)).objects}
    # the reader that scored the lines on raw channels found no board in these frames at all
    assert len(seen) == 36
    right = sum(seen[(t["row"], t["col"])]["colour"] == t["colour"]
                and seen[(t["row"], t["col"])]["content"] == t["content"] for t in truth)
    assert right >= 35


def test_the_lines_colour_is_taken_from_the_frame_and_a_neutral_frame_is_left_alone():
    frame, _ = render.scene(1)  # a frame whose brightest things are already neutral
    assert board_grid.light_gains(frame).tolist() == [1.0, 1.0, 1.0]
    gains = board_grid.light_gains(_warm(frame, 2200))
    # blue is lifted most, green some, red (the brightest channel under a warm lamp) not at all
    assert gains[0] > gains[1] > 1.0 and gains[2] == 1.0
