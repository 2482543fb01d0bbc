"""Bag of Butts reader, tenth session: a butt whose middle matches the table (a white butt on pale
wood or gray cloth) differs from the table only along its outline, where its shaded rim and its
contact shadow are; at the faint threshold it is a ring, not a butt-shaped piece. The ring is taken
with its inside. Rendered tuning scenes (bare table) in which the reader of 71abdcf missed a white
butt; every butt of each scene is now read right (colour and group), with nothing extra."""

from __future__ import annotations

import pytest

from tests.vision.tokens_check import assert_read_right
from vision.render import tokens as render


@pytest.mark.parametrize("seed", [
    20017,  # a white butt on a gray table, touching a blue one
    20186,  # a white butt on pale wood
    20239,  # a white butt on a gray table
])
def test_white_butt_seen_by_its_outline_is_found(seed):
    frame, truth = render.scene(seed, with_mat=False)
    whites = [t for t in truth if t["colour"] == "white"]
    assert whites
    assert_read_right(frame, truth)
