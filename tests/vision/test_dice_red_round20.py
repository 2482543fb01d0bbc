"""Twentieth session (dicered2): red-pipped dice whose pips merged in the JPEG's colour, read at their face's grid.

A JPEG holds colour at half size: a 30-40 px smoky or blue marbled die's red pips blur together in
the redness, so its peaks (vision.dice_body._red_spots) are fewer than its pips and fit no face's
layout. vision.dice_body._red_grid lays a face's 3 x 3 grid of pip places on the blob (at its
outline's angle, at pitches of the die's own side) and reads the face whose pip places are all red
and stand clear of every plain place. Touching dice make one blob: vision.dice_body._cut_parts
cuts it into parts of the frame's die size (the read dice taken out, a two-dice blob cut at its
neck), each read from its red pips.

The real photos are from the development split only (vision.bench_dice.split_of: never a
test-split photo); their tests skip when the shared photo folder is not there.
"""

from __future__ import annotations

from tests.vision.photos import read_at


def test_lone_red_pipped_dice_with_merged_pips_are_read() -> None:
    """Lone smoky and blue marbled dice with red pips, each missed before, are read right."""
    assert read_at("img_0135.jpg", 372, 182) == (5, 5)
    assert read_at("img_0135.jpg", 402, 319) == (3, 3)
    assert read_at("img_0140.jpg", 204, 403) == (5, 5)
    assert read_at("img_0018.jpg", 320, 190) == (6, 6)
    assert read_at("img_0060.jpg", 398, 242) == (3, 3)
    assert read_at("img_0038.jpg", 455, 282) == (2, 2)
    assert read_at("img_0137.jpg", 400, 179) == (6, 6)


def test_touching_red_pipped_dice_are_read_from_their_cut_blob() -> None:
    """A smoky five touching dice read already and a smoky six touching another unread die (their
    blob two dice long) are read right (missed before)."""
    assert read_at("img_0053.jpg", 333, 397) == (5, 5)
    assert read_at("img_0136.jpg", 185, 245) == (6, 6)
