"""Bag of Butts reader, twentieth session (branch tokbare11), on a bare table (no mat): two touching
butts read as one.

Two butts touching (crossing, end to side, or side by side and offset), one of them partly under
the threshold, make one piece of 1.2-1.5 butts' area. ``_two_in_one`` splits it by colour; when
that gave no pair with a butt-shaped part, the piece was read as one butt and the other was
missed. Such a piece, longer than the frame's butt (1.3 butts; or 1.1 butts and two butts wide,
filling under 0.6 of its rectangle), is now cut in two by position (``_cut_pair``).

Rendered bare-table tuning scenes that the reader of 37c064f got wrong (the butt was missed or
read in the colour of the butt it was joined to)."""

from __future__ import annotations

import pytest

from .test_tokens_bare_round19b import _found_right


@pytest.mark.parametrize(
    ("seed", "index"),
    [
        (10002, 11),  # two blacks side by side, offset
        (10226, 9),  # two grays side by side, offset
        (30177, 10),  # two greens side by side
        (40042, 19),  # a gray end to end with a pink
        (40042, 15),  # ...the pink, read gray with it before
        (40052, 6),  # two blues at an angle, end to side
        (50157, 12),  # two grays end to side
    ],
)
def test_two_touching_butts_read_as_one_are_both_found(seed, index):
    _found_right(seed, index)

