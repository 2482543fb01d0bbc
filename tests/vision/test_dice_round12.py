"""Twelfth session (dicetop6): a top-down three or five whose pips the search found in their exact
layout, the middle one at the die's centre, keeps its count when the die-body recount says four or
six (a glare spot on a glossy die counted as a pip; dice._centre_kept); a six whose column of three
the search found as a "three" is still read six. Three pips at a right angle (no three's layout)
are read from the layout they belong to: a four or a six (dice._corner_l); so are two pips along a
side of a clean die, refused as print before (dice._side_pair).

The real photos are from the development split only (vision.bench_dice.split_of: never a test-split
photo); those tests skip when the shared photo folder is not there.
"""

from __future__ import annotations

from typing import Any

import pytest

from tests.vision.photos import read_at
from vision import dice, dice_body


@pytest.mark.parametrize(
    ("name", "x", "y", "pips"),
    [
        ("img_0127.jpg", 194, 260, 3),
        ("img_0127.jpg", 263, 228, 5),
        ("img_0161.jpg", 366, 176, 3),
        ("img_0178.jpg", 368, 268, 3),
    ],
)
def test_glossy_three_or_five_is_not_read_four_or_six(name: str, x: int, y: int, pips: int) -> None:
    """The labelled die whose box holds (x, y) (a 45-56 px green or red glossy die with white pips,
    a glare spot on its face) is read with its own count (before: a three read four, a five six)."""
    assert read_at(name, x, y) == (pips, pips)


@pytest.mark.parametrize(("name", "x", "y"), [("img_0038.jpg", 255, 145), ("img_0143.jpg", 305, 209)])
def test_six_whose_column_was_found_as_a_three_stays_six(
    name: str, x: int, y: int, monkeypatch: pytest.MonkeyPatch
) -> None:
    """A six whose one column of three the pip search found as an exact "three" is recounted six on
    its die: the rule looks at it and lets the recount stand (the column lies off the die's centre,
    along a side, not on a diagonal through the centre)."""
    seen: list[bool] = []
    rule = dice._centre_kept

    def watched(f: dict[str, Any], spots: list[tuple[float, float]], b: dice_body.DieBody) -> bool:
        got = rule(f, spots, b)
        if f["count"] == 3 and b.count == 6 and abs(b.x - x) < 20 and abs(b.y - y) < 20:
            seen.append(got)
        return got

    monkeypatch.setattr(dice, "_centre_kept", watched)
    assert read_at(name, x, y) == (6, 6)
    assert seen and not any(seen)


@pytest.mark.parametrize(
    ("name", "x", "y", "pips"),
    [
        ("img_0001.jpg", 393, 281, 4),
        ("img_0006.jpg", 333, 135, 4),
        ("img_0045.jpg", 534, 314, 6),
        ("img_0061.jpg", 284, 321, 6),
    ],
)
def test_three_pips_at_a_right_angle_are_read_from_their_layout(
    name: str, x: int, y: int, pips: int, monkeypatch: pytest.MonkeyPatch
) -> None:
    """The labelled die whose box holds (x, y) (a 29-38 px gold marbled four with black pips, a
    blue marbled six with red pips), of which the search found three pips at a right angle, is read
    with its count (before: three), by the right-angle rule."""
    readings: list[int] = []
    rule = dice._corner_l

    def watched(frame: Any, fg: tuple[Any, float], f: dict[str, Any]) -> int:
        got = rule(frame, fg, f)
        if got and abs(f["x"] - x) < 20 and abs(f["y"] - y) < 20:
            readings.append(got)
        return got

    monkeypatch.setattr(dice, "_corner_l", watched)
    assert read_at(name, x, y) == (pips, pips)
    assert readings == [pips]


def test_two_pips_along_a_side_of_a_clean_die_are_read_from_their_layout(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """img_0005's gold marbled five (44 px, black pips), of which the search found only two pips along
    one side of its clean body (before: refused as print, the die missed), is read five."""
    readings: list[int] = []
    rule = dice._side_pair

    def watched(frame: Any, f: dict[str, Any], b: dice_body.DieBody) -> int:
        got = rule(frame, f, b)
        readings.append(got)
        return got

    monkeypatch.setattr(dice, "_side_pair", watched)
    assert read_at("img_0005.jpg", 555, 346) == (5, 5)
    assert 5 in readings
