"""Nineteenth session (dicetop16): a clean die whose spots take in glare or a neighbour's spot is read
from the part of them in a face's layout.

vision.dice_body.look counts the pip-coloured spots inside a clean die's body (the die-first
search's count, and the body check's recount of the pip search's faces). Glare on a glossy die (a
streak across its middle, a ring round a pip) and a bevel's or a neighbour's spot add spots to its
pips: a two read four, a three read four, a four read six. The pips alone still lie in their face's
exact layout; the spots added are fainter than the pips. A count of three or more whose spots lie
off every face's layout (vision.dice_body.OFF_LAYOUT) is replaced by the only largest part of them
in a layout at the die's scale, about its centre, when every spot left out differs from the body
by at most vision.dice_body.PART_FAINT of the pips kept (vision.dice_body._layout_part). A count
that agrees with the pip search's own is left alone, and a part keeps the pip search's own pips.

The real photos are from the development split only (vision.bench_dice.split_of: never a
test-split photo); their tests skip when the shared photo folder is not there.
"""

from __future__ import annotations

import cv2
import numpy as np
import pytest

from tests.vision.photos import read_at
from vision import dice_body


@pytest.mark.parametrize(
    ("name", "x", "y", "pips"),
    [
        ("img_0111.jpg", 406, 384, 2),  # purple two, two glare spots beside its pips (read 4 before)
        ("img_0147.jpg", 362, 299, 3),  # teal three with gold pips, a glare spot by a corner pip (read 4)
        ("img_0157.jpg", 376, 342, 4),  # bronze four with black pips, two dark bevel spots (read 6)
        ("img_0042.jpg", 438, 344, 1),  # green one with a yellow pip ringed by white glare (read 4)
        ("img_0011.jpg", 444, 333, 5),  # red translucent five, a sixth faint spot (read 6)
        ("img_0010.jpg", 399, 138, 3),  # smoky three with red pips (read 4)
    ],
)
def test_die_with_glare_spots_read_too_many_before_is_read_right(name: str, x: int, y: int, pips: int) -> None:
    """Real dice read one to three pips too many before (glare or a bevel's spots counted) are read right."""
    assert read_at(name, x, y) == (pips, pips)


def _die(pips: list[tuple[float, float]], glare: list[tuple[float, float]]) -> np.ndarray:
    """A red die (49 px) with white pips at layout places (u, v) in -1..1 (12 px apart) and paler
    pinkish glare spots of a pip's size on a light grey table."""
    rng = np.random.default_rng(1)
    img = np.full((200, 200, 3), 200, np.uint8)
    cv2.rectangle(img, (76, 76), (124, 124), (40, 40, 190), -1)
    for u, v in pips:
        cv2.circle(img, (100 + round(12 * u), 100 + round(12 * v)), 4, (235, 235, 240), -1)
    for u, v in glare:
        cv2.circle(img, (100 + round(12 * u), 100 + round(12 * v)), 4, (190, 190, 230), -1)
    img = (img + rng.normal(0, 2, img.shape)).clip(0, 255).astype(np.uint8)
    return cv2.GaussianBlur(img, (3, 3), 0)


def test_two_with_glare_across_its_middle_is_read_two() -> None:
    """A two whose middle holds two glare spots (a four's square of spots, read four before) is
    read two by the die's own look; a clean four and a clean six stay four and six."""
    b = dice_body.look(_die([(-1, -1), (1, 1)], [(0.4, -0.4), (-0.4, 0.4)]), [(88.0, 88.0, 8.0)], 52.0)
    assert (b.kind, b.count) == ("die", 2)
    assert sorted((round(x), round(y)) for x, y in b.pips) == [(88, 88), (112, 112)]
    four = [(-1, -1), (1, -1), (-1, 1), (1, 1)]
    assert dice_body.look(_die(four, []), [(88.0, 88.0, 8.0)], 52.0).count == 4
    six = [*four, (-1, 0), (1, 0)]
    assert dice_body.look(_die(six, []), [(88.0, 88.0, 8.0)], 52.0).count == 6


def test_count_agreeing_with_the_pip_search_stands() -> None:
    """Where the pip search read the face as the look counts it (``expect``), the look's count stands."""
    img = _die([(-1, -1), (1, 1)], [(0.4, -0.4), (-0.4, 0.4)])
    assert dice_body.look(img, [(88.0, 88.0, 8.0)], 52.0, 4).count == 4


def test_layout_part_keeps_the_pips_and_leaves_spots_as_strong_as_them() -> None:
    """Of a four's corner pips and two spots beside them, the corners are the face when the two
    are fainter; when they are as strong (pips of another face, not glare) no part is taken."""
    die = dice_body.DieBody("die", 100.0, 100.0, 48.0, angle=0.0)
    spots = [(88.0, 88.0), (112.0, 88.0), (88.0, 112.0), (112.0, 112.0), (95.0, 100.0), (105.0, 100.0)]
    part = dice_body._layout_part(spots, [150.0, 152.0, 149.0, 151.0, 100.0, 110.0], die, 8.0, True)
    assert part == spots[:4]
    assert dice_body._layout_part(spots, [150.0, 152.0, 149.0, 151.0, 148.0, 110.0], die, 8.0, True) is None
    # a spot the pip search found (ring-checked) is no glare: no part leaves it out
    assert dice_body._layout_part(spots, [150.0, 152.0, 149.0, 151.0, 100.0, 110.0], die, 8.0, True, {4}) is None
