"""Sixteenth session (dicetop11): smoky and marbled dice read from their red pips alone.

Red pips on a smoky (dark translucent) or marbled die hardly differ from its body in lightness,
and the body's glare and marbling differ from it more in colour than the pips do: the pip search
and the die-first search (vision.dice_body.find_dice) found nothing to read on such a die, though
the table outlines it. vision.dice_body._red_spots reads a lone die-sized blob's red pips as the
peaks of its redness, against the blob's own; _outline_sizes keeps them only in a die face's
exact layout.

The real photos are from the development split only (vision.bench_dice.split_of: never a
test-split photo); their tests skip when the shared photo folder is not there.
"""

from __future__ import annotations

import cv2
import numpy as np

from tests.vision.photos import read_at
from vision import dice_body

FIVE = [(-1, -1), (1, -1), (0, 0), (-1, 1), (1, 1)]


def test_smoky_dice_with_red_pips_are_read() -> None:
    """img_0141's two smoky sixes and smoky four (each missed before) are read right."""
    assert read_at("img_0141.jpg", 340, 154) == (6, 6)
    assert read_at("img_0141.jpg", 198, 339) == (6, 6)
    assert read_at("img_0141.jpg", 194, 420) == (4, 4)


def test_marbled_five_and_smoky_six_are_read() -> None:
    """img_0135's blue marbled five and img_0080's smoky six (missed before) are read right."""
    assert read_at("img_0135.jpg", 356, 226) == (5, 5)
    assert read_at("img_0080.jpg", 456, 271) == (6, 6)


def _smoky(pip: tuple[int, int, int]) -> np.ndarray:
    """A dark die (27 px) with pale marbling streaks and five pips of colour ``pip`` on a grey table."""
    rng = np.random.default_rng(0)
    img = np.full((200, 200, 3), 185, np.uint8)
    cv2.rectangle(img, (80, 80), (107, 107), (38, 36, 56), -1)
    for k in range(4):
        cv2.line(img, (81, 83 + 7 * k), (106, 88 + 7 * k), (110, 110, 115), 1)
    for u, v in FIVE:
        cv2.circle(img, (int(93.5 + 7 * u), int(93.5 + 7 * v)), 2, pip, -1)
    img = (img + rng.normal(0, 2, img.shape)).clip(0, 255).astype(np.uint8)
    return cv2.GaussianBlur(img, (3, 3), 0)


def test_red_pips_on_a_marbled_blob_make_a_five() -> None:
    """The die-first search reads a marbled dark die's five dull red pips with the frame's gains
    (without them it found no die there; since dicegoldw the warmth path, GOLD_PIPS, reads the same
    five: no other die); "pips" of the body's own colour (no red pips: the marbling's redness
    alone) make no die."""
    red = _smoky((38, 36, 100))
    taken = [(20.0, 20.0, 14.0)]  # a die read elsewhere: the frame's dice are 28 px
    assert [d.count for d in dice_body.find_dice(red, list(taken), None, dice_body.foreground(red))] in ([], [5])
    [die] = dice_body.find_dice(red, list(taken), None, dice_body.foreground(red), np.ones(3))
    assert die.count == 5 and abs(die.x - 93.5) < 3 and abs(die.y - 93.5) < 3
    plain = _smoky((38, 36, 56))
    assert dice_body.find_dice(plain, list(taken), None, dice_body.foreground(plain), np.ones(3)) == []
