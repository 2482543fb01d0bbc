"""Tenth session (dicetop4): a one's lone pip on a small top-down die (a pip of 5-6 px, its inside
blurred by the camera and JPEG) is still a pip with a sharp rim (dice.LONE_RIM); a one on a die the
colour of the table is framed by a square outline (dice_body._square_side).

The real photos are from the development split only (vision.bench_dice.split_of: never a test-split
photo); those tests skip when the shared photo folder is not there.
"""

from __future__ import annotations

import pytest

from tests.vision.photos import dev_photo
from vision import bench_dice, dice


def read_at(name: str, x: int, y: int) -> tuple[int, int | None]:
    """The labelled pips of the one die of a dev photo whose box holds (x, y), and what the reader
    read there (None: missed)."""
    frame, truth = dev_photo(name)
    [j] = [j for j, t in enumerate(truth) if t["box"][0] <= x <= t["box"][0] + t["box"][2]
           and t["box"][1] <= y <= t["box"][1] + t["box"][3]]
    found = dice.read(frame).objects
    read = {jj: found[i]["pips"] for i, jj in bench_dice.match(found, truth)}
    return truth[j]["pips"], read.get(j)


@pytest.mark.parametrize(("name", "x", "y"), [("img_0000.jpg", 477, 173), ("img_0007.jpg", 494, 229),
                                              ("img_0048.jpg", 267, 129)])
def test_small_top_down_one_is_read(name: str, x: int, y: int) -> None:
    """The labelled one whose box holds (x, y) (a die of 26-43 px, its pip 5-6 px) is found and read
    as a one (before: missed, its pip's blurred inside failed the sharp-rim test)."""
    assert read_at(name, x, y) == (1, 1)


@pytest.mark.parametrize(("name", "x", "y"), [("img_0123.jpg", 250, 267), ("img_0196.jpg", 316, 248)])
def test_white_top_down_one_on_the_pale_tray_is_read(name: str, x: int, y: int) -> None:
    """The labelled one whose box holds (x, y), a white die on the pale tray, is read as a one."""
    assert read_at(name, x, y) == (1, 1)
