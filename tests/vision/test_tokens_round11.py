"""Bag of Butts reader, eleventh session: a dark butt of about the table's own hue (black on a dark
green-gray table, gray on a gray one) darkens the table much as a contact shadow does, and the
shadow test cut it into removed "shade" and crumbs of core; the butt was missed, or its crumbs
read as extra butts. Its dark body, as thick as a butt, is now put back. Rendered tuning scenes
(bare table) that the reader of d917d48 got wrong; every butt of each is now read right (colour
and group), with nothing extra."""

from __future__ import annotations

import pytest

from tests.vision.tokens_check import assert_read_right
from vision.render import tokens as render


@pytest.mark.parametrize(
    "seed",
    [
        10041,  # a lone black butt on a dark green-gray table: missed
        20016,  # a gray butt on a gray table, cut into crumbs read as two extra gray butts
        20197,  # a gray butt on a gray table missed, and with it a white one of the same pile
    ],
)
def test_dark_butt_of_the_tables_hue_is_read_once(seed):
    frame, truth = render.scene(seed, with_mat=False)
    assert_read_right(frame, truth)
