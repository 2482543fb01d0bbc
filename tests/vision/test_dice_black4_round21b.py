"""Twenty-first session, second round (diceblack4): a black five whose pip group took in its front
face's first row is read from its top face, not cut into twos.

Seen at a slant, the pip search links an oblique die's top five and the two pips of its front
face's first row into one group of seven. A group of more than six pips was always cut at its
longest links (`_split_group`) into twos and lone pips, each refused as faint on a black die.
`_group_top` reads such a group's top face instead: the rest, once the lowest pips are left out,
in a die's exact layout, those pips below it by a pip's diameter and by less than 0.8 of the top's
own corner-to-corner pitch (a neighbouring die's pips lie farther off).

Scenes are rendered tuning seeds (below 100 000): never the held-out seeds.
"""

from __future__ import annotations

from tests.vision.dice_check import assert_die_right, render_reads
from vision import dice
from vision.dice import Pip

from .test_dice_render_round19 import _pip  # a light pip


def test_black_fives_linked_with_their_front_row_are_read() -> None:
    """Scene 146's black-white five, Buttons roll 10 079's black-white five and roll 10 152's
    black-gold five (all missed before) are read right, pips and both colours."""
    for seed, buttons, j in ((146, False, 3), (10079, True, 3), (10152, True, 1)):
        found, truth, m = render_reads(seed, buttons=buttons)
        assert_die_right(found, truth, m, j)


def test_group_top_cuts_only_a_near_front_row() -> None:
    """A five above two pips 1.5 pip diameters below its lowest row: the five. Not cut: the same
    two pips as far below as a neighbouring die's (2.5 diameters, past 0.8 of the five's pitch of
    2.4), or nearer than a pip's diameter; dark pips; and seven pips in no layout once cut."""
    five = [_pip(-12, -12), _pip(12, -12), _pip(0, 0), _pip(-12, 12), _pip(12, 12)]
    top = dice._group_top(five + [_pip(-12, 27, 150), _pip(12, 27, 150)])
    assert top is not None and len(top) == 5 and max(p.y for p in top) == 12
    assert dice._group_top(five + [_pip(-12, 37), _pip(12, 37)]) is None
    assert dice._group_top(five + [_pip(-12, 20), _pip(12, 20)]) is None
    dark = [Pip(p.x, p.y, p.d, p.major, True, 20.0, 200.0, 1.0) for p in five + [_pip(-12, 27), _pip(12, 27)]]
    assert dice._group_top(dark) is None
    scattered = [_pip(-12, -12), _pip(14, -9), _pip(3, 2), _pip(-12, 12), _pip(20, 8)]
    assert dice._group_top(scattered + [_pip(-12, 27), _pip(12, 27)]) is None
