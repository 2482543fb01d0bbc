"""Nineteenth session (dicetop17): smoky and blue marbled dice with red pips read at the die's own scale.

A JPEG holds colour at half size and its blocks blur a 30-40 px die's red pips into one red blob:
the redness peaks of such a die (vision.dice_body._red_spots) lie nearer each other than its pips,
and its blob (the die and its shadow) is larger than the die, so its face's layout fell short of
the scale asked of the blob's side and the die was missed. vision.dice_body._red_face measures
that layout against the frame's dice' side (the die's own), with those peaks and with peaks of a
less smoothed redness, and keeps a face only when every cell of its 3 x 3 grid off its layout is
plain body (_plain_cells): a six or five whose pips were partly lost is no four.

The real photos are from the development split only (vision.bench_dice.split_of: never a
test-split photo); their tests skip when the shared photo folder is not there.
"""

from __future__ import annotations

import numpy as np

from tests.vision.photos import read_at
from vision import dice_body

FOUR = [(-1, -1), (1, -1), (-1, 1), (1, 1)]


def test_red_pipped_smoky_and_blue_dice_are_read() -> None:
    """Smoky and blue marbled dice with red pips, each missed before, are read right."""
    assert read_at("img_0003.jpg", 455, 317) == (6, 6)
    assert read_at("img_0005.jpg", 470, 203) == (6, 6)
    assert read_at("img_0031.jpg", 408, 462) == (5, 5)
    assert read_at("img_0137.jpg", 473, 293) == (4, 4)
    assert read_at("img_0053.jpg", 434, 206) == (4, 4)
    assert read_at("img_0002.jpg", 173, 390) == (3, 3)
    assert read_at("img_0056.jpg", 387, 302) == (3, 3)
    assert read_at("img_0136.jpg", 238, 163) == (2, 2)
    assert read_at("img_0142.jpg", 128, 250) == (2, 2)


def test_red_dice_with_lost_pips_are_not_read_as_smaller_faces() -> None:
    """img_0027's blue four, img_0137's smoky six and img_0052's smoky five keep red where their
    other pips are: the die's own scale alone would read them two, four and four; they stay
    unread (a guard: they are missed before too)."""
    assert read_at("img_0027.jpg", 384, 418)[1] != 2
    assert read_at("img_0137.jpg", 400, 179)[1] != 4
    assert read_at("img_0052.jpg", 331, 387)[1] != 4


def _plane(cells: list[tuple[int, int]], pitch: float = 8.0) -> tuple[np.ndarray, np.ndarray, int, int, float]:
    """A redness plane (60 x 60, its ROI at 100, 200 in the frame) of a die with red pips (level 60
    over a body at 10, blurred) in ``cells`` of a 3 x 3 grid ``pitch`` px apart about (130, 230)."""
    yy, xx = np.mgrid[0:60, 0:60].astype(np.float32)
    red = np.full((60, 60), 10.0, np.float32)
    for u, v in cells:
        red += 50.0 * np.exp(-((xx - 30 - pitch * u) ** 2 + (yy - 30 - pitch * v) ** 2) / 8.0)
    inner = np.zeros((60, 60), bool)
    inner[12:48, 12:48] = True
    return red, inner, 100, 200, 4.0


def _four_at(pitch: float = 8.0) -> dice_body.DieBody:
    return dice_body.DieBody("die", 130.0, 230.0, 30.0, count=4,
                             pips=[(130 + pitch * u, 230 + pitch * v) for u, v in FOUR])


def test_plain_cells_keeps_a_four_and_refuses_a_six_read_four() -> None:
    """A four's corner pips with plain body in the other five cells are a face; the same four
    pips on a six (red in the middle of its columns) or on a five (red at the centre) are not."""
    assert dice_body._plain_cells(_plane(FOUR), _four_at())
    assert not dice_body._plain_cells(_plane(FOUR + [(-1, 0), (1, 0)]), _four_at())
    assert not dice_body._plain_cells(_plane(FOUR + [(0, 0)]), _four_at())


def test_layout_pose_gives_a_face_its_grid() -> None:
    """_layout_pose returns a face's centre and its pitch and angle (any pip order)."""
    pips = [(130 + 8 * u, 230 + 8 * v) for u, v in [(1, 1), (-1, -1), (0, 0)]]
    centre, a, k_x = dice_body._layout_pose(pips)
    assert abs(centre - complex(130, 230)) < 1e-6 and abs(abs(a) - 8.0) < 1e-6 and k_x == 1.0
