"""Twentieth session (diceblack): a black die refused as faint whose face took in its front face's
pips is read from its top face.

A black die on a dark table hardly differs from the table, so the body check refuses its face as
"faint" unless the face's pips lie in a die's exact layout. Seen at a slant, the face the pip search
links holds the top face's pips and the front face's below them (a four and two front pips make a
six's 2 x 3 grid, a three and two front pips a five that fits no layout): it was refused whole.
`_faint_front` cuts such a face as `_front_row` cuts a kept one (the front pips dimmer and below the
top's, or a six's lowest row too near the row above it), and the top face, in a die's exact layout,
passes the body check as any faint face in one.

Scenes are rendered tuning seeds (below 100 000): never the held-out seeds.
"""

from __future__ import annotations

from tests.vision.dice_check import assert_die_right, render_reads
from vision import dice
from vision.dice import Pip

from .test_dice_render_round19 import _face, _pip  # a face of pips, a light pip


def test_faint_black_dice_with_their_front_pips_are_read() -> None:
    """Scene 64's black-gold four, Buttons roll 88's two black threes, roll 94's black four and roll
    10 167's black four (all missed before) are read right, pips and both colours."""
    for seed, buttons, js in ((64, False, (2,)), (88, True, (1, 4)), (94, True, (5,)), (10167, True, (2,))):
        found, truth, m = render_reads(seed, buttons=buttons)
        for j in js:
            assert_die_right(found, truth, m, j)


def test_faint_front_cuts_a_top_face_from_its_front_pips_only() -> None:
    """A four above two dimmer pips (0.7 of the contrast) a pip and a half below: the four. A three
    on its diagonal above two dimmer pips: the three. Not cut: the same with dark pips, two dimmer
    pips level with the four (not below it), a face of three pips, and a recounted face."""
    four = [_pip(-12, -12), _pip(12, -12), _pip(-12, 12), _pip(12, 12)]
    front = [_pip(-12, 29, 146), _pip(12, 29, 146)]
    top = dice._faint_front(_face(four + front))
    assert top is not None and top["count"] == 4 and abs(top["y"]) < 0.5
    three = [_pip(-12, -12), _pip(0, 0), _pip(12, 12)]
    top = dice._faint_front(_face(three + front))
    assert top is not None and top["count"] == 3
    dark = [Pip(p.x, p.y, p.d, p.major, True, 20.0 if p.y < 20 else 74.0, 200.0, 1.0) for p in four + front]
    assert dice._faint_front(_face(dark)) is None
    beside = [_pip(36, -12, 146), _pip(36, 12, 146)]
    assert dice._faint_front(_face(four + beside)) is None
    assert dice._faint_front(_face(three)) is None
    assert dice._faint_front(_face(four + front, count=5)) is None
