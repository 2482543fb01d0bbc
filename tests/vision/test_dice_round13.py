"""Thirteenth session (dicetop7): a top-down one whose blob holds a side face too (or a rounded die
that fills less of its rectangle) has its pip off the blob's centre; the die-first search read no
die there. The pip is now a one when it is the centre of a square face inside the blob
(dice_body._face_around) and the other faces' corner-pip places around it are plain body
(dice_body._plain_corners): a three's or a five's centre pip found alone is not read as a one, nor
a glare speck on a two.

The real photos are from the development split only (vision.bench_dice.split_of: never a test-split
photo); those tests skip when the shared photo folder is not there.
"""

from __future__ import annotations

from typing import Any

import pytest

from tests.vision.photos import read_at
from vision import dice_body


@pytest.mark.parametrize(
    ("name", "x", "y"),
    [
        ("img_0056.jpg", 293, 382),
        ("img_0132.jpg", 399, 348),
        ("img_0161.jpg", 474, 260),
        ("img_0185.jpg", 473, 318),
    ],
)
def test_one_off_its_blobs_centre_is_read(name: str, x: int, y: int) -> None:
    """The labelled die whose box holds (x, y) (a 30-53 px smoky, maroon or purple die whose one
    pip carries a decorative ring, a side face in its blob) is found and read as a one (before:
    missed)."""
    assert read_at(name, x, y) == (1, 1)


def test_centre_pip_of_a_five_is_not_a_one(monkeypatch: pytest.MonkeyPatch) -> None:
    """img_0011's blue marbled five (red pips) shows only its centre pip as a spot in its blob: the
    centre of a square face too, but the corner test sees its corner pips and refuses it (the die
    stays unread rather than read as a one)."""
    seen: list[bool] = []
    rule = dice_body._plain_corners

    def watched(frame: Any, pip: tuple[float, float], *args: Any) -> bool:
        got = rule(frame, pip, *args)
        if abs(pip[0] - 187) < 6 and abs(pip[1] - 315) < 6:
            seen.append(got)
        return got

    monkeypatch.setattr(dice_body, "_plain_corners", watched)
    truth, read = read_at("img_0011.jpg", 186, 316)
    assert truth == 5 and read != 1
    assert seen and not any(seen)


@pytest.mark.parametrize(
    ("name", "x", "y", "pips", "spot"),
    [
        ("img_0038.jpg", 455, 282, 2, (459, 284)),
        ("img_0002.jpg", 173, 390, 3, (173, 391)),
        ("img_0052.jpg", 298, 465, 3, (301, 462)),
    ],
)
def test_speck_near_the_centre_is_not_a_one(
    name: str, x: int, y: int, pips: int, spot: tuple[int, int], monkeypatch: pytest.MonkeyPatch
) -> None:
    """The only spot found in these dice's blobs (a red two with dull pips, a smoky and a black
    three) is a 2-3 px speck near the face's centre (glare, marbling): too small for a one's pip
    against its face (ONE_SPECK), so the die is not read as a one."""
    seen: list[float] = []
    rule = dice_body._face_around

    def watched(contour: Any, pip: tuple[float, float], *args: Any) -> float:
        got = rule(contour, pip, *args)
        if abs(pip[0] - spot[0]) < 6 and abs(pip[1] - spot[1]) < 6:
            seen.append(got)
        return got

    monkeypatch.setattr(dice_body, "_face_around", watched)
    truth, read = read_at(name, x, y)
    assert truth == pips and read != 1
    assert seen and not any(seen)
