"""Seventeenth session (dicetop13): a four read as two and a six read as three from the pips left.

On a translucent die the pip search may keep only two opposite corner pips of a four (the other
diagonal's pips lost in glare): the face then read as a two. A real two shows plain body at the
other two corners of the square its pips span; a four shows pips there and plain body halfway
between its pips. vision.dice._corners_mid reads such a "two" as a four when the spot halfway is
body, both other corners have the pips' colour and the die lies all round it.

On a smoky die with red pips the search may keep only one column of a six: three pips in a row,
read as a three. vision.dice._column_six reads it as a six when the places of a six's other column
beside it have the pips' colour and the body lies between (beside a real three's diagonal those
places are the die's corners and the table).

The real photo is from the development split only (vision.bench_dice.split_of: never a test-split
photo); its test skips when the shared photo folder is not there.
"""

from __future__ import annotations

from tests.vision.photos import read_at
from vision import dice, dice_body

from .test_dice_top_round16b import _die  # a pale marbled die with dark pips at layout places


def test_translucent_four_read_two_before_is_read_four() -> None:
    """img_0168's red translucent four (read as a two before: only two corner pips found) is read four."""
    assert read_at("img_0168.jpg", 426, 237) == (4, 4)


def _face(places: list[tuple[int, int]]) -> dict:
    """The face the search would keep: pips at layout places (u, v)."""
    face = [dice.Pip(80.0 + 11 * u, 80.0 + 11 * v, 7.0, 7.0, True, 35.0, 210.0, 1.0) for u, v in places]
    return {"face": face, "count": len(face), "x": 80.0, "y": 80.0, "size": 40.0}


def _two_face() -> dict:
    """The "two" the search would keep: the corner pips at (-1, -1) and (1, 1)."""
    face = [dice.Pip(80.0 + 11 * u, 80.0 + 11 * u, 7.0, 7.0, True, 35.0, 210.0, 1.0) for u in (-1, 1)]
    return {"face": face, "count": 2, "x": 80.0, "y": 80.0, "size": 40.0}


def test_lost_corner_pips_make_a_four_and_a_two_or_six_is_no_four() -> None:
    """Two corner pips with the other two corners pips and plain body halfway between them are a
    four; a real two (other corners plain) stays a two and a six (pips at two edge midpoints too)
    is not read as a four."""
    for pips, count in (([(-1, -1), (1, -1), (-1, 1), (1, 1)], 4),
                        ([(-1, -1), (1, 1)], 0),
                        ([(-1, -1), (1, -1), (-1, 0), (1, 0), (-1, 1), (1, 1)], 0)):
        img = _die(pips)
        assert dice._corners_mid(img, dice_body.foreground(img), _two_face()) == count


def test_smoky_six_read_three_before_is_read_six() -> None:
    """img_0018's smoky six with red pips (read as a three before: one column found) is read six."""
    assert read_at("img_0018.jpg", 278, 293) == (6, 6)


def test_a_six_column_makes_a_six_and_a_three_stays_three() -> None:
    """One column of a six, its other column beside it, is a six; a real three (its pips on the
    diagonal) and a column with plain body beside it are no six."""
    column = [(-1, -1), (-1, 0), (-1, 1)]
    six = [(-1, -1), (1, -1), (-1, 0), (1, 0), (-1, 1), (1, 1)]
    three = [(-1, -1), (0, 0), (1, 1)]
    for pips, found, count in ((six, column, 6), (three, three, 0), (column, column, 0)):
        img = _die(pips)
        assert dice._column_six(img, dice_body.foreground(img), _face(found)) == count
