"""Seventeenth session (dicedup): a die read from its pips is not read again by the die-first search.

`dice_body.find_dice` seeds looks from spots outside the dice already read; a spot of a read
die's side or front face lies outside its top face's half side, and the look then settled on the
same die and gave it a second, larger box. `dice._reread` drops a die-first die whose centre lies
within `REREAD_D` (0.4) of a read die's side from that die's centre: two dice on a table have
centres at least about a side apart.

Scenes are rendered tuning seeds (below 100 000): never the held-out seeds.
"""

from __future__ import annotations

from typing import Any

import pytest

from tests.vision.dice_check import assert_die_right, render_reads
from vision import dice
from vision.dice_body import DieBody


def _reads_of(found: list[dict[str, Any]], t: dict[str, Any]) -> int:
    """How many dice read have their centre on truth die ``t`` (its box grown as the bench's match)."""
    x, y, w, h = t["box"]
    g = max(w, h) / 3 + 3
    return sum(x - g <= o["box"][0] + o["box"][2] / 2 <= x + w + g and y - g <= o["box"][1] + o["box"][3] / 2 <= y + h + g
               for o in found)


@pytest.mark.parametrize(("seed", "buttons"), [(124, False), (114, True), (10130, True)])
def test_a_die_is_not_read_twice(seed: int, buttons: bool) -> None:
    """Scene 124, Buttons rolls 114 and 10 130: one die was read from its pips and again by
    the die-first search (a box 1.2-1.4 times larger, its centre 0.18-0.24 sides away). Every
    die is read once now (roll 114's die is the black-gold two dicerend3 left read twice), and
    every die is read right (pips and both colours)."""
    found, truth, m = render_reads(seed, buttons=buttons)
    assert all(_reads_of(found, t) <= 1 for t in truth), [o["box"] for o in found]
    for j in range(len(truth)):
        assert_die_right(found, truth, m, j)


def _body(x: float, y: float, side: float) -> DieBody:
    return DieBody(x=x, y=y, side=side, kind="die", count=2)


def test_reread_measures_against_the_read_die() -> None:
    """A die-first die centred 0.2 sides from a read die is that die; one a side away (two dice
    touching) or 0.5 sides away is another die."""
    read = [(100.0, 100.0, 20.0)]  # centre and half side: a 40 px die
    assert dice._reread(_body(108.0, 100.0, 48.0), read)
    assert not dice._reread(_body(140.0, 100.0, 40.0), read)
    assert not dice._reread(_body(120.0, 100.0, 40.0), read)
    assert not dice._reread(_body(108.0, 100.0, 48.0), [])
