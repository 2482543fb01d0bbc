"""Twentieth session, second round (dicegoldw): a white die with gold pips, a lone die-sized blob
the other paths left unread, read from its pips' rises of warmth (log R/B) above its own body.

Gold pips on a white die differ from the body little in lightness (roll 10 089: body and pips'
grey alike) but clearly in warmth: the die-first search's lone-blob paths (spots against a local
median, the blob's inner colour, redness, dips of lightness) find no face there.
`dice_body._dark_spots(..., yellow=True)` seeks the rises of log(R/B) above the blob's own body
(the median of its less warm half) with the dark path's tests; the face must still lie in a
die's exact layout. A lamp's cast multiplies R and B: it adds one constant to body and pips.

Scenes are rendered tuning seeds (below 100 000): never the held-out seeds.
"""

from __future__ import annotations

import cv2
import numpy as np

from tests.vision.dice_check import assert_die_right, render_reads
from vision import dice_body

from .test_dice_gold_round19b import _right_under_casts


def test_white_gold_dice_read_from_their_yellow_pips() -> None:
    """Buttons rolls 69's and 10 089's sixes (white dice, gold pips; missed before) are read right
    (pips, white, gold), and no false die comes with them."""
    for seed in (69, 10089):
        found, truth, m = render_reads(seed, buttons=True)
        assert_die_right(found, truth, m, 0)
        assert len(found) == len(m), f"roll {seed}: a false die"


def test_under_a_warm_and_a_cold_lamp() -> None:
    """Levels are the blob's own: under a warm and a cold cast of the whole frame (white turns
    yellowish under the warm one) rolls 69's and 10 089's sixes are still read right."""
    _right_under_casts((69, 10089))


def _square(body: tuple[int, int, int], pip: tuple[int, int, int]) -> tuple[np.ndarray, np.ndarray]:
    """A 40 px die on a dark table with a six's pips (BGR colours), and its outline."""
    img = np.full((200, 200, 3), 40, np.uint8)
    img[80:120, 80:120] = body
    for x in (89, 111):
        for y in (88, 100, 112):
            cv2.circle(img, (x, y), 3, pip, -1)
    img = cv2.GaussianBlur(img, (3, 3), 0)
    outline = np.float32([[[80, 80]], [[119, 80]], [[119, 119]], [[80, 119]]])
    return img, outline


def test_yellow_rises_are_gold_pips_not_black_ones() -> None:
    """On a white die the six gold pips are found as rises of warmth; under a warm lamp (a
    yellowish white body) a white die's black pips are less warm than the body and give no spot."""
    img, outline = _square((235, 240, 240), (40, 170, 215))
    assert len(dice_body._dark_spots(img, outline, 40.0, yellow=True)) == 6
    warm, outline = _square((170, 215, 245), (30, 30, 30))
    assert dice_body._dark_spots(warm, outline, 40.0, yellow=True) == []
