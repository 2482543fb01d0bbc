"""Sixteenth session (dicerend2): black ones and twos on a dark table in dim light are read.

Such a die differs from the table by about the noise, so the body check refused its face as
"faint" (a one or a two has no layout to keep it by). `_vouched` keeps such a face when its round
pips have the size and its body the colour of dice read in the same frame from three or more pips.

Scenes are rendered tuning seeds (below 1000): never the held-out seeds.
"""

from __future__ import annotations

from typing import Any

import numpy as np

from tests.vision.dice_check import assert_die_right, render_reads
from vision import dice
from vision.dice import Pip


def test_a_dim_black_two_is_read() -> None:
    """Buttons roll 119 (frame median L* about 4): the black two with white pips."""
    found, truth, m = render_reads(119, buttons=True)
    assert truth[5]["pips"] == 2 and truth[5]["body"] == "black"
    assert_die_right(found, truth, m, 5)


def test_two_dim_black_ones_are_read() -> None:
    """Buttons roll 15: two black ones with white pips on a dark table."""
    found, truth, m = render_reads(15, buttons=True)
    for j in (3, 4):
        assert truth[j]["pips"] == 1 and truth[j]["body"] == "black"
        assert_die_right(found, truth, m, j)


def test_a_dim_roll_of_ones_and_twos_is_read() -> None:
    """Buttons roll 18 (frame median L* about 6): four twos and a one, with no die of three or more
    pips in the frame to take their pips' size from: the twos vouch for each other."""
    found, truth, m = render_reads(18, buttons=True)
    for j in (1, 2, 3, 4, 5):
        assert truth[j]["pips"] in (1, 2)
        assert_die_right(found, truth, m, j)


def _kept(x: float, y: float) -> dict[str, Any]:
    """A three read in the frame: 10 px pips, 50 px side, dark body, light pips."""
    return {"count": 3, "dark": False, "d": 10.0, "size": 50.0, "x": x, "y": y,
            "bgr": (np.float32([10, 10, 10]), np.float32([90, 90, 90]))}


def _faint(pips: list[tuple[float, float, float]]) -> dict[str, Any]:
    face = [Pip(x, y, d, 1.05 * d, False, 90.0, 10.0, 1.0) for x, y, d in pips]
    return {"face": face, "count": len(face), "flat": 1.05, "dark": False, "x": face[0].x, "y": face[0].y,
            "size": 30.0, "d": face[0].d, "bgr": (np.float32([11, 11, 11]), np.float32([88, 88, 88]))}


def test_vouched_needs_the_frame_s_own_pips() -> None:
    """A one and a two like the frame's three are kept with its side; a glare-sized spot, a two
    whose pips are closer than a die's diagonal, a face on a read die, a frame with no die of
    three or more pips read, or dark pips: nothing."""
    three = _kept(100, 100)
    one = _faint([(300, 300, 12)])
    two = _faint([(400, 400, 10), (426, 426, 10)])
    out = dice._vouched([one, two], [three])
    assert [f["count"] for f in out] == [2, 1] and all(f["size"] == 50.0 for f in out)
    assert dice._vouched([_faint([(300, 300, 25)])], [three]) == []
    assert dice._vouched([_faint([(400, 400, 10), (410, 410, 10)])], [three]) == []
    assert dice._vouched([_faint([(110, 110, 10)])], [three]) == []
    assert dice._vouched([_faint([(300, 300, 12)])], [dict(three, count=2)]) == []
    assert dice._vouched([dict(_faint([(300, 300, 12)]), dark=True)], [dict(three, dark=True)]) == []


def test_alike_twos_vouch_for_each_other() -> None:
    """With no die of three or more pips read (Buttons roll 18 holds only ones and twos), two faint
    twos alike in colours, pip size and spacing are both kept, and a one like them with them; a
    lone faint two or one is not."""
    two_a = _faint([(400, 400, 10), (426, 426, 10)])
    two_b = _faint([(600, 400, 10), (627, 427, 10)])
    one = _faint([(300, 600, 12)])
    out = dice._vouched([one, two_a, two_b], [])
    assert sorted(f["count"] for f in out) == [1, 2, 2]
    assert dice._vouched([_faint([(400, 400, 10), (426, 426, 10)]), _faint([(300, 600, 12)])], []) == []
