"""Bag of Butts reader, twenty-first session, second round (branch tokshadow), on a bare table (no
mat): dark butts the shadow step took out as shade.

The shadow step gives back a blob's removed pixels that make a body as thick as a butt (0.75 of the
blob's half width from its outline): a dark butt of about the table's hue, not a thin contact
shadow. Two causes kept dark butts out: a blob whose core holds a glare halo or light butts side by
side measured a half width of two to four butts' (no butt is that thick), and a dark butt's pixels
near the threshold left one-pixel holes in its body (no point lay 0.75 half widths from a hole). On
a bare table the thickness is now measured with at most the frame's butt half width (the median of
the blobs', SHADOW_HALF_CAP) and the body's one-pixel holes are filled first.

Rendered bare-table tuning scenes that the reader of bf26eee got wrong (the butt missed)."""

from __future__ import annotations

import pytest

from vision import tokens
from vision.bench_tokens import match
from vision.render import tokens as render

from .test_tokens_bare_round19b import _found_right


def test_two_grays_in_a_blob_with_a_broad_core_are_found():
    # 30053: two grays on dark wood, wholly taken as shade; the blob's core (a yellow and a khaki
    # beside them) measured a half width of 13.4 work pixels, the frame's butts 5.1
    frame, truth = render.scene(30053, with_mat=False)
    seen = tokens.read(frame).objects
    pairs = dict(match(truth, seen))
    for i in (8, 11):
        j = pairs[i]
        assert j is not None, f"gray butt {i} missed"
        assert seen[j]["colour"] == "gray"
        assert seen[j]["group"] == truth[i]["group"]


@pytest.mark.parametrize(
    ("seed", "index"),
    [
        (30236, 8),  # a black on dark wood, its body full of one-pixel holes
        (40004, 13),  # a khaki taken with its shadow
        (10231, 12),  # a gray
        (50129, 9),  # a gray
    ],
)
def test_a_dark_butt_taken_as_shade_is_found(seed, index):
    _found_right(seed, index)
