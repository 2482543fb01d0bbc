"""Eighteenth session (dicepips): an oblique die's top face read without its front face's pips.

Seen at a slant, a die shows its front face below its top face; the pip search links the front
face's pips (dimmer, squashed, smaller) with the top face's, and the two together often lie in a
die's layout (a four and two front pips make a six), so the body check keeps the face. The reader
now drops, after the body check, pips below the round top pips by a pip diameter or more that are
squashed or dimmer (`_front_row`, which uses `_top_few` with up to five top pips, three or more of
them in a die's exact layout).

Scenes are rendered tuning seeds (below 100 000): never the held-out seeds.
"""

from __future__ import annotations

from tests.vision.dice_check import assert_die_right, render_reads
from vision import dice
from vision.dice import Pip


def test_oblique_dice_read_without_their_front_face() -> None:
    """Buttons roll 41's black four and three (read six and five with two front pips), roll 140's
    black two (read four), roll 10 043's black-gold three (read six) and roll 10 119's black four
    (read six) are read right."""
    for seed, js in ((41, (3, 4)), (140, (4,)), (10043, (1,)), (10119, (4,))):
        found, truth, m = render_reads(seed, buttons=True)
        for j in js:
            assert_die_right(found, truth, m, j)


def _face(pips: list[Pip], count: int | None = None) -> dict:
    return {"face": pips, "count": len(pips) if count is None else count, "x": 0.0, "y": 0.0, "size": 60.0,
            "d": 10.0, "flat": 1.1, "dark": pips[0].dark}


def _pip(x: float, y: float, pip_v: float = 200.0, d: float = 10.0, major: float = 10.5, dark: bool = False) -> Pip:
    return Pip(x, y, d, major, dark, pip_v, 20.0, 1.0)


def test_front_row_drops_the_front_pips_only() -> None:
    """A four's round pips above a row of two dimmer pips (a six's layout together): the four, its
    centre and size the four's own; the same face recounted five by its die body: the four, its box
    kept. Kept whole: the row only half a pip below the four, a top-down three whose last pip is
    dim (its two round pips 1.6 diameters apart: no two), and a die read from its body."""
    four = [_pip(-10, -10), _pip(10, -10), _pip(-10, 10), _pip(10, 10)]
    row = [_pip(-10, 30, 120), _pip(10, 30, 120)]
    top = dice._front_row(_face(four + row))
    assert top["count"] == 4 and abs(top["y"]) < 0.5 and top["size"] < 50
    again = dice._front_row(_face(four + row, count=5) | {"x": 1.0, "y": 2.0, "size": 70.0})
    assert again["count"] == 4 and (again["x"], again["y"], again["size"]) == (1.0, 2.0, 70.0)
    near = [_pip(-10, 15, 120), _pip(10, 15, 120)]
    assert dice._front_row(_face(four + near))["count"] == 6
    three = [_pip(0, 0), _pip(0, 16), _pip(0, 32, 120, 7.0, 10.0)]
    assert dice._front_row(_face(three))["count"] == 3
    assert dice._front_row(_face(four + row) | {"from_body": True})["count"] == 6
