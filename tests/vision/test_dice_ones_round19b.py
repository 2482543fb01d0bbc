"""Nineteenth session, second round (diceones): a pip read as a die by the die-first reseed.

A pip that made no face seeds a die-body look (vision.dice._reseed). Where that pip is a glare
spot inside a pip of a larger die, the look can take the pip itself, ringed by the die's body, for
a die and count its glare as pips: on img_0048 a 7 px "die" (a yellow pip of a 42 px green two)
was read three. A die the reseed finds under vision.dice.RESEED_SMALL of the frame's read faces'
median size is a pip, not a die.

The real photo is from the development split only (vision.bench_dice.split_of: never a test-split
photo); the test skips when the shared photo folder is not there.
"""

from __future__ import annotations

from tests.vision.photos import dev_photo, read_at
from vision import dice


def test_a_pip_of_a_two_is_not_read_as_a_die_of_three() -> None:
    """img_0048's green two (yellow pips, 42 px) is read two, not three from a 7 px "die" in its pip."""
    assert read_at("img_0048.jpg", 475, 427) == (2, 2)
    frame, _ = dev_photo("img_0048.jpg")
    for o in dice.read(frame).objects:
        x, y, w, h = o["box"]
        assert max(w, h) >= 14, o  # no die of a pip's size (the frame's dice are 29-43 px)
