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


@pytest.mark.parametrize("seed", [6, 13])
def test_blue_cells_stay_blue_under_a_lamp_too_warm_for_the_lines_balance(seed):
    frame, truth = render.scene(seed)
    seen = {(o["row"], o["col"]): o for o in board.read(_warm(frame, 2200)).objects}
    assert len(seen) == 36
    # on the grid lines' balance alone, 9 of these boards' blue cells read green
    wrong = [t for t in truth if seen[(t["row"], t["col"])]["colour"] != t["colour"]]
    assert wrong == []


def test_the_lines_colour_is_taken_from_the_frame_and_a_neutral_frame_is_left_alone():
    frame, _ = render.scene(1)  # a frame whose brightest things are already neutral
    assert board_grid.light_gains(frame).tolist() == [1.0, 1.0, 1.0]
    gains = board_grid.light_gains(_warm(frame, 2200))
    # blue is lifted most, green some, red (the brightest channel under a warm lamp) not at all
    assert gains[0] > gains[1] > 1.0 and gains[2] == 1.0


def _dim(frame: np.ndarray) -> np.ndarray:
    """The frame under 0.4 of its light, with a cheap camera's sensor noise (sigma 3 levels)."""
    noisy = frame.astype(np.float32) * 0.4 + np.random.default_rng(0).normal(0, 3, frame.shape)
    return np.clip(noisy, 0, 255).astype(np.uint8)


@pytest.mark.parametrize("seed", [1, 13])
def test_a_dim_grainy_board_shows_no_buttons_on_its_empty_cells(seed):
    frame, truth = render.scene(seed)
    seen = {(o["row"], o["col"]): o for o in board.read(_dim(frame)).objects}
    assert len(seen) == 36
    empty = [t for t in truth if t["content"] == "empty"]
    # the ridge test without the noise allowance read 17 and 18 of these empty cells as buttons
    false_buttons = sum(seen[(t["row"], t["col"])]["content"] == "button" for t in empty)
    assert false_buttons == 0
    buttons = [t for t in truth if t["content"] == "button"]
    assert all(seen[(t["row"], t["col"])]["content"] == "button" for t in buttons)


def test_the_noise_allowance_leaves_a_well_lit_board_alone():
    frame, _ = render.scene(0)
    top = board._straighten(frame, board.find_board(frame)[0])
    cells = top.reshape(6, board.CELL, 6, board.CELL, 3).transpose(0, 2, 1, 3, 4).reshape(36, -1, 3)
    assert board._noise(cells[..., 1].astype(np.float32)) < board.NOISE_FREE
