"""Eighteenth session (dicetop14): a one that the die-first search read as a two is read one, a five
read as two from two corner pips along a side is read five, and a marbled three read as two from
its centre and a corner pip is read three.

The die-first search (vision.dice_body.find_dice) counts the pip-coloured spots inside a die's
body. On a one it may find two: the pip split in two (one spot counted as two pips by its area),
or the pip and a glare spot or a ring of its logo beside it. A two's pips lie on the die's
diagonal, far apart (0.40-0.63 of the search's side on the real dev photos' twos); two spots
under vision.dice.TWO_CLOSE of the side apart, one at the die's centre (where a two has no pip),
are a one (vision.dice._close_two).

When the pip search keeps only two corner pips along a side of a four, five or six, with no clean
die around them to say on which side the face lies, vision.dice._side_two tries both sides: on the
face's side the other two corners have the pips' colour (and the centre too on a five); beside a
real two's diagonal they lie off the die.

vision.dice._centre_corner reads a "two" of a centre and a corner pip as a three when the mirrored
corner has the pips' colour and the other two corners are body. On a black die with a white streak
the streak lifts the body samples' median towards the pips, and the plain black corners then lie
below the body on that axis: they count as body down to CENTRE_BELOW of the contrast.

The real photos are from the development split only (vision.bench_dice.split_of: never a
test-split photo); their tests skip when the shared photo folder is not there.
"""

from __future__ import annotations

import cv2

from tests.vision.photos import read_at
from vision import dice, dice_body

from .test_dice_top_round16b import _die  # a pale marbled die with dark pips at layout places


def test_translucent_one_with_glare_read_two_before_is_read_one() -> None:
    """img_0170's translucent one (read as a two before: its pip and a spot beside it) is read one."""
    assert read_at("img_0170.jpg", 367, 300) == (1, 1)


def test_small_white_one_read_two_before_is_read_one() -> None:
    """img_0051's small white one (read as a two before: its pip counted as two by its area) is read one."""
    assert read_at("img_0051.jpg", 184, 266) == (1, 1)


def _body(pips: list[tuple[float, float]]) -> dice_body.DieBody:
    """A clean die of side 40 at (100, 100) whose search found ``pips``."""
    return dice_body.DieBody("die", 100.0, 100.0, 40.0, count=len(pips), pips=pips, pip_d=7.0)


def test_close_spots_at_the_centre_are_a_one_and_a_real_two_stays_two() -> None:
    """Two spots 0.2 sides apart, one at the centre, make a one (its pip kept); a two's pips on
    the diagonal, and two close spots off the centre (a six's column neighbours), stay a two."""
    face = dice._body_face(_body([(101.0, 101.0), (109.0, 101.0)]))
    assert face["count"] == 1 and [(p.x, p.y) for p in face["face"]] == [(101.0, 101.0)]
    assert dice._body_face(_body([(89.0, 89.0), (111.0, 111.0)]))["count"] == 2
    assert dice._body_face(_body([(89.0, 111.0), (89.0, 101.0)]))["count"] == 2


def test_translucent_five_read_two_before_is_read_five() -> None:
    """img_0031's pink translucent five (read as a two before: two corner pips along a side found) is read five."""
    assert read_at("img_0031.jpg", 219, 410) == (5, 5)


def _pair_face(places: list[tuple[int, int]]) -> dict:
    """The "two" the search would keep: pips at two layout places (u, v) of _die's die."""
    face = [dice.Pip(80.0 + 11 * u, 80.0 + 11 * v, 7.0, 7.0, True, 35.0, 210.0, 1.0) for u, v in places]
    return {"face": face, "count": 2, "x": 80.0, "y": 80.0, "size": 40.0}


def test_two_corner_pips_along_a_side_make_a_four_five_or_six_and_a_two_stays_two() -> None:
    """Two corner pips along a side, the other corners pips too, are a four (centre plain), a five
    (centre pip) or a six (edge midpoints pips); a real two's diagonal pips stay a two."""
    side = [(-1, -1), (1, -1)]
    corners = [(-1, -1), (1, -1), (-1, 1), (1, 1)]
    for pips, found, count in ((corners, side, 4),
                               ([*corners, (0, 0)], side, 5),
                               ([*corners, (-1, 0), (1, 0)], side, 6),
                               ([(-1, -1), (1, 1)], [(-1, -1), (1, 1)], 0)):
        img = _die(pips)
        assert dice._side_two(img, dice_body.foreground(img), _pair_face(found)) == count


def test_streaked_three_read_two_before_is_read_three() -> None:
    """img_0025's black three with a white streak (read as a two before: its centre and one corner
    pip found, the other corner's pip in the streak) is read three."""
    assert read_at("img_0025.jpg", 183, 366) == (3, 3)


def test_corners_darker_than_a_streaked_body_make_a_three() -> None:
    """A centre and a corner pip, the mirrored corner a pip and the other corners plain body
    beyond the body samples' median (a streak of a pip-like colour among those samples), are a three; with those
    corners pips it is a five, and with a real two's corner pips it stays a two."""
    img = _die([(-1, -1), (0, 0), (1, 1)])
    # a streak of a colour between body and pips over two of the body samples (the edge
    # midpoints of the square the centre and corner pip span)
    cv2.circle(img, (80, 69), 4, (125, 130, 140), -1)
    cv2.circle(img, (69, 80), 4, (125, 130, 140), -1)
    assert dice._centre_corner(img, dice_body.foreground(img), _pair_face([(0, 0), (1, 1)])) == 3
    img = _die([(-1, -1), (1, -1), (0, 0), (-1, 1), (1, 1)])
    assert dice._centre_corner(img, dice_body.foreground(img), _pair_face([(0, 0), (1, 1)])) == 5
    img = _die([(-1, -1), (1, 1)])
    assert dice._centre_corner(img, dice_body.foreground(img), _pair_face([(-1, -1), (1, 1)])) == 0
