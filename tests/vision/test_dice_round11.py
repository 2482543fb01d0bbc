"""Eleventh session (dicetop5): a top-down three whose corner pip the pip search lost is read from
its centre and other corner pip as a three, not as a two (dice._centre_corner); real twos whose
pips lie near each other stay twos.

The real photos are from the development split only (vision.bench_dice.split_of: never a test-split
photo); those tests skip when the shared photo folder is not there.
"""

from __future__ import annotations

from typing import Any

import numpy as np
import pytest

from tests.vision.photos import read_at
from vision import dice


@pytest.mark.parametrize(
    ("name", "x", "y"),
    [
        ("img_0011.jpg", 303, 138),
        ("img_0042.jpg", 283, 321),
        ("img_0070.jpg", 250, 261),
        ("img_0147.jpg", 346, 213),
    ],
)
def test_three_with_a_lost_corner_pip_is_read_three(name: str, x: int, y: int) -> None:
    """The labelled three whose box holds (x, y) (a 29-44 px die: yellow pips on green marbled
    bodies, red on blue) is read as three (before: two, its centre and one corner pip)."""
    assert read_at(name, x, y) == (3, 3)


@pytest.mark.parametrize(("name", "x", "y"), [("img_0110.jpg", 303, 359), ("img_0118.jpg", 287, 252)])
def test_two_with_pips_near_its_centre_stays_two(
    name: str, x: int, y: int, monkeypatch: pytest.MonkeyPatch
) -> None:
    """A red two whose white pips lie near its centre, on a pale tray of about the pips' colour, is
    examined by the three rule (its pips are as near as a three's centre and corner) and stays a
    two: the spot past one pip is the table, off the die."""
    seen: list[int] = []
    rule = dice._centre_corner

    def watched(frame: np.ndarray, fg: tuple[np.ndarray, float], f: dict[str, Any]) -> int:
        got = rule(frame, fg, f)
        if f["count"] == 2 and abs(f["x"] - x) < 15 and abs(f["y"] - y) < 15:
            seen.append(got)
        return got

    monkeypatch.setattr(dice, "_centre_corner", watched)
    assert read_at(name, x, y) == (2, 2)
    assert seen == [0]
