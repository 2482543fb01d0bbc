"""Twenty-first session (dicegold3): gold and bronze dice with black pips touching other dice, and
no white-die gold-pip read of a smoky die's red pips.

A gold or bronze die that touches a die read before makes one foreground blob with it; the lone-blob
paths (spots against the blob's body, redness, dips of lightness) skip such a blob, and only the
cut into die-sized parts (vision.dice_body._cut_parts) looked at its parts, for red pips alone.
Now each part no red face was read in is read from its dark pips too (_dark_spots: round dips of
lightness below the part's own body, in a die face's exact layout), and a one or two from them is
refused only where the part has at least as many red peaks as dark pips (a red-pipped die's dark
marbling flecks; a gold body shows a glint or two of red, fewer than its pips).
The gold-pip path (a white die's gold pips as rises of warmth) refuses pips darker in grey than
GOLD_LIGHT of the die's body: a smoky die's red pips are warm too, but a quarter darker than it.

The real photos are from the development split only (vision.bench_dice.split_of); the tests skip
when the shared photo folder is not there.
"""

from __future__ import annotations

from tests.vision.photos import read_at


def test_touching_gold_five_is_read() -> None:
    """img_0016's gold five with black pips, touching a read five (missed before), is read five."""
    assert read_at("img_0016.jpg", 329, 229) == (5, 5)


def test_touching_bronze_two_with_a_red_glint_is_read() -> None:
    """img_0051's bronze two with black pips, in one blob with two read sixes, whose part shows one
    red peak (missed before: any red peak refused a dark two), is read two."""
    assert read_at("img_0051.jpg", 212, 344) == (2, 2)


def test_red_pipped_dice_are_still_not_read_two_from_their_dark_flecks() -> None:
    """The eighteenth session's guard: img_0018's smoky six, img_0135's marbled five and img_0053's
    blue four (red pips) are not read as twos."""
    assert read_at("img_0018.jpg", 323, 190)[1] != 2
    assert read_at("img_0135.jpg", 369, 182)[1] != 2
    assert read_at("img_0053.jpg", 435, 206)[1] != 2


def test_smoky_dice_with_red_pips_are_not_read_by_the_gold_path() -> None:
    """img_0052's smoky five and img_0083's smoky six with red pips (their pips 0.78 and 0.72 of the
    body's grey; the white-pipped gold path's own dice 1.0-1.3) were read two and four from their
    red pips' warmth: they are no longer read with a wrong count."""
    assert read_at("img_0052.jpg", 331, 387)[1] != 2
    assert read_at("img_0083.jpg", 423, 318)[1] != 4
