"""Card reader on real photos of a table with no cards on it: dark things (a cable's ferrite, a
charger, the shadowed side of a laptop) are not cards. A card's printed inks reflect at least about
half of what its white border does, so a face far darker than the frame's white is doubted the more
the darker it is. The photos are the shared dice photos (development split); the tests skip when the
shared folder is not there."""

from __future__ import annotations

import pytest

from tests.vision.photos import dev_photo
from vision import cards
from vision.render.cards import scene


@pytest.mark.parametrize("name", ["two_23.jpg", "two_43.jpg", "six_42.jpg", "five_6.jpg"])
def test_dark_clutter_on_a_wooden_table_is_not_read_as_a_card(name):
    frame, _ = dev_photo(name, "oblique")
    # the reader before read a black ferrite or a dark plug as a green 4, a blue 10 or a blue x2
    assert cards.read(frame).objects == []


def test_cards_in_a_frame_keep_their_confidence():
    frame, truth = scene(3)
    seen = cards.read(frame).objects
    assert len(seen) == len(truth)
    assert min(o["confidence"] for o in seen) > 0.5
