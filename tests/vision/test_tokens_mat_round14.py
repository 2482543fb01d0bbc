"""Bag of Butts reader, fourteenth session, on the play mat.

A glare spot touching a butt on the mat's red zone makes one blob with it; the colour split cuts
the spot out as a piece of its own, which reads pink (red plus white light). Such a piece was kept
as a butt because its outline looked sharp, but the sharp part was the cut to the butt beside it.
The piece's outline is now also measured away from the other pieces of the split: there glare
fades out, a butt's edge is sharp.

Rendered tuning scenes with the mat that main's reader (c866f45) read with an extra pink butt;
every butt of each is now read right (colour and group), with nothing extra."""

from __future__ import annotations

import numpy as np
import pytest

from tests.vision.tokens_check import assert_read_right
from vision import tokens
from vision.render import tokens as render


@pytest.mark.parametrize(
    "seed",
    [
        20139,  # a glare spot beside a white butt, cut by a zone's printed line: an extra pink
        30043,  # a glare spot on a blue butt's side: an extra pink above it
        30182,  # a glare spot on a pink butt's end: a second pink
        10004,  # a glare spot touching a pile of three: an extra pink
    ],
)
def test_glare_beside_a_butt_on_the_red_zone_is_no_pink_butt(seed):
    frame, truth = render.scene(seed, with_mat=True)
    assert_read_right(frame, truth)


def test_cut_pixels_left_out():
    # two pieces side by side: the pixels of the first within CUT_REACH of the second are left out,
    # the rest of the first and everything outside the search stays as given
    inner = np.zeros((20, 30), np.uint8)
    inner[2:18, 2:28] = 1
    ys, xs = np.mgrid[5:15, 5:15]
    first = {"xs": xs.ravel(), "ys": ys.ravel()}
    ys, xs = np.mgrid[5:15, 15:25]
    second = {"xs": xs.ravel(), "ys": ys.ravel()}
    out = tokens._off_cuts(inner, inner, [first, second], 0)
    assert out[10, 5 : 15 - tokens.CUT_REACH].all()
    assert not out[10, 15 - tokens.CUT_REACH : 15].any()
    assert (out[:, :3] == inner[:, :3]).all()
    assert inner[10, 14] == 1  # the caller's mask is not written
    alone = tokens._off_cuts(None, inner, [first], 0)
    assert alone.all()
