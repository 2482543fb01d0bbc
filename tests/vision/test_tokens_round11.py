"""Bag of Butts reader, eleventh session: a dark butt of about the table's own hue (black on a dark
green-gray table, gray on a gray one) darkens the table much as a contact shadow does, and the
shadow test cut it into removed "shade" and crumbs of core; the butt was missed, or its crumbs
read as extra butts. Its dark body, as thick as a butt, is now put back. Rendered tuning scenes
(bare table) that the reader of d917d48 got wrong; every butt of each is now read right (colour
and group), with nothing extra."""

from __future__ import annotations

import pytest

from vision import tokens
from vision.bench_tokens import match
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
    seen = tokens.read(frame).objects
    for i, j in match(truth, seen):
        assert j is not None, f"{truth[i]['colour']} butt at {truth[i]['box']} missed"
        assert seen[j]["colour"] == truth[i]["colour"], (truth[i], seen[j])
        assert seen[j]["group"] == truth[i]["group"], (truth[i], seen[j])
    assert len(seen) == len(truth), "extra butts read"
