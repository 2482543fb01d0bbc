"""Twenty-first session, second round (dicered4): a red-pipped face of four pips or more whose pips
stand out of its own plain places is read, though the blob's redness spread is larger.

vision.dice_body._red_grid asks the reddest pip place of a face to stand INNER_K times the blob's
redness spread (plus 6) above its body. On a blue marbled die the white swirls raise that spread
over the whole blob above the pips. The places of the grid that the face leaves empty are the die's
own body where a pip would be: a face of GRID_PLAIN = 4 pips or more whose reddest place stands
INNER_K times above the reddest of those plain places (and once the blob's spread, plus 6), on a
body under the red floor, is read when no face passed the blob's spread test.

The real photos are from the development split only (vision.bench_dice.split_of: never a
test-split photo); the test skips when the shared photo folder is not there.
"""

from __future__ import annotations

from tests.vision.photos import read_at


def test_face_standing_out_of_its_plain_places_is_read() -> None:
    """img_0055's blue marbled four (missed before) is read four and img_0083's six (read four
    before) is read six; img_0096's one is still not read as a two (twos and threes are left out)."""
    assert read_at("img_0055.jpg", 378, 212) == (4, 4)
    assert read_at("img_0083.jpg", 423, 317) == (6, 6)
    assert read_at("img_0096.jpg", 437, 373)[1] != 2
