"""Eighteenth session (dicerend4): two twos whose pips linked into one group of four are read.

Two twos lying near each other link their four pips into one group, which fits no four's layout
and made no face; such a group is now cut at its clearly longest link into two pairs spaced alike,
each a two's diagonal apart (`_two_twos`), and each two goes through the body check (and
`_vouched`) as any two.

Scenes are rendered tuning seeds (below 100 000): never the held-out seeds.
"""

from __future__ import annotations

from tests.vision.dice_check import assert_die_right, render_reads
from vision import dice
from vision.dice import Pip


def test_two_twos_linked_into_a_group_of_four_are_read() -> None:
    """Scene 10 075's two black twos (linked) are read, and with them the frame's three ones (no
    die of three pips to vouch for them; the twos now do); Buttons roll 174's middle two is read."""
    found, truth, m = render_reads(10075)
    for j in range(5):
        assert_die_right(found, truth, m, j)
    found, truth, m = render_reads(174, buttons=True)
    assert (truth[5]["pips"], truth[5]["body"]) == (2, "black")
    assert_die_right(found, truth, m, 5)


def _pips(xy: list[tuple[float, float]], d: float = 20.0) -> list[Pip]:
    return [Pip(x, y, d, d, False, 200.0, 40.0, 1.0) for x, y in xy]


def test_two_twos_cut_only_pairs_a_diagonal_apart() -> None:
    """Two pairs 56 px apart, 110 px from each other, are cut; a four in its layout, a six's two
    columns of two touching pips (16 px apart), pairs spaced unlike (56 and 35 px) and a row of
    four evenly spaced are not."""
    assert dice._two_twos(_pips([(100, 100), (140, 140), (220, 180), (260, 220)]))
    assert not dice._two_twos(_pips([(100, 100), (150, 100), (100, 150), (150, 150)]))
    assert not dice._two_twos(_pips([(100, 100), (100, 116), (140, 100), (140, 116)]))
    assert not dice._two_twos(_pips([(100, 100), (140, 140), (220, 180), (245, 205)]))
    assert not dice._two_twos(_pips([(100, 100), (150, 100), (200, 100), (250, 100)]))
