"""Fifteenth session (dicerend): oblique dice whose face took in a pip of the face below it.

On an oblique die the pip search links a squashed pip of the front face (narrower than the top
face's round pips, and elongated) into the top face's group; the group then lies in no die's
layout, the clean die around it does not recount, and the whole die was dropped. `_top_part`
reads the round pips alone when they lie in a die's exact layout.

Scenes are rendered tuning seeds (below 1000): never the held-out seeds.
"""

from __future__ import annotations

from tests.vision.dice_check import assert_die_right, render_reads
from vision import dice
from vision.dice import Pip


def test_an_oblique_four_with_a_front_pip_is_read_four() -> None:
    """Buttons roll 51: a black four seen at a slant, one pip of its front face linked in."""
    found, truth, m = render_reads(51, buttons=True)
    assert truth[2]["pips"] == 4
    assert_die_right(found, truth, m, 2)


def test_two_oblique_threes_with_front_pips_are_read_three() -> None:
    """Buttons roll 108: two small black threes, each with front-face pips linked in."""
    found, truth, m = render_reads(108, buttons=True)
    for j in (3, 5):
        assert truth[j]["pips"] == 3
        assert_die_right(found, truth, m, j)


def _pip(x: float, y: float, d: float, major: float) -> Pip:
    return Pip(x, y, d, major, False, 200.0, 20.0, 1.0)


def test_top_part_drops_only_squashed_smaller_pips() -> None:
    """A four's round pips plus one small squashed pip below: the four; a pip as large as the
    round ones, however long, or too few round pips: no top part."""
    four = [_pip(0, 0, 10, 11), _pip(20, 0, 10, 11), _pip(0, 20, 10, 11), _pip(20, 20, 10, 11)]
    f = {"face": four + [_pip(10, 38, 7, 11)], "count": 5, "x": 10, "y": 15, "size": 50, "d": 10, "flat": 1.1}
    top = dice._top_part(f)
    assert top is not None and top["count"] == 4
    big = dict(f, face=four + [_pip(10, 38, 10, 16)])
    assert dice._top_part(big) is None
    two = dict(f, face=four[:2] + [_pip(10, 38, 7, 11)], count=3)
    assert dice._top_part(two) is None
