"""Twenty-first session (dicered3): a blue marbled die's red pips, cooled by its blue body's blur, read.

On a blue marbled die the JPEG's half-size colour and the smoothing mix the blue body into each red
pip: at the pip places of vision.dice_body._red_grid the redness (red over the larger other channel)
stays under the frame's red floor although the pips stand clear above the body and every plain
place. Red over green alone is what a red pip keeps (the blue body adds blue, not green); a white
pip or a white swirl has red and green alike, so it stays under the floor there too. A face of
three pips or more whose pip places are red over green above the floor (GRID_WARM) is read.

The real photos are from the development split only (vision.bench_dice.split_of: never a
test-split photo); the test skips when the shared photo folder is not there.
"""

from __future__ import annotations

from tests.vision.photos import read_at


def test_blue_marbled_four_with_blurred_red_pips_is_read() -> None:
    """img_0062's lone blue marbled four (missed before) is read four; img_0013's blue four, whose
    red pips differ as much, is not read as a two (the warm floor is asked of faces of three and up)."""
    assert read_at("img_0062.jpg", 251, 277) == (4, 4)
    assert read_at("img_0013.jpg", 313, 371)[1] != 2
