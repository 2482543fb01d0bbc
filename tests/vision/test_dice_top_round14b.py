"""Fourteenth session, second round (dicetop9): a four linked with a pip of each of two neighbours.

Touching dice of one colour link their pips into one group; a group of six far off a six's layout
whose two longest links are clearly longer than the rest is cut there when every cut part of two or
more pips is a face in a die's layout at a die's scale (vision.dice._two_dice_linked,
vision.dice._part_is_face). A top face's column and two side-face pips nearer than a two's pips
(Buttons roll 64) are not cut.

The real photo is from the development split only (vision.bench_dice.split_of: never a test-split
photo); its test skips when the shared photo folder is not there.
"""

from __future__ import annotations

from tests.vision.photos import read_at
from vision import dice


def _pips(xyd: list[tuple[float, float, float]]) -> list[dice.Pip]:
    return [dice.Pip(x, y, d, d, True, 40.0, 200.0, 1.0) for x, y, d in xyd]


def test_four_linked_with_two_neighbours_pips_is_read_four() -> None:
    """img_0002's gold four, whose pips link with one pip of each of two touching dice, is read
    four (before: a six read over it)."""
    assert read_at("img_0002.jpg", 300, 260) == (4, 4)


def test_two_long_links_cut_a_four_but_not_a_top_and_side_face() -> None:
    """A four with a lone pip at each of two long links is cut into the four and two single pips;
    a group whose cut would leave two pips nearer than a two's (a die's top-face column and its side
    face's pips, as in Buttons roll 64) is not cut."""
    four = [(308, 263, 7.0), (298, 268, 7.3), (303, 252, 7.6), (292, 257, 7.5)]
    group = _pips([(287, 234, 8.0), *four, (270, 262, 5.4)])
    assert dice._two_dice_linked(group)
    assert sorted(len(p) for p in dice._split_group(group)) == [1, 1, 4]
    top_side = _pips(
        [(414, 141, 8.1), (428, 151, 8.1), (428, 160, 5.7), (428, 167, 5.0), (415, 168, 5.2), (415, 161, 5.2)]
    )
    assert not dice._two_dice_linked(top_side)
