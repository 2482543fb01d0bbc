"""Bag of Butts reader, twenty-first session (branch tokpairs), on a bare table (no mat): two butts
touching end to end, each partly under the threshold, read as one.

A gray and a white lying end to end make one piece one butt wide and 1.7 butts long whose area is
only 1.13 butts (parts of both are under the threshold). ``_two_in_one`` skipped every piece under
``TWO_AREA`` (1.15) butts' area, so the piece was read as one white butt: the gray and the white
were missed and an extra white was invented between them. A piece one butt wide and at least
``TWO_LINE_LONG`` (1.5) of the frame's butt lengths long cannot be one butt: it is now looked into
for two from ``TWO_LINE_AREA`` (0.7) butts' area on.

Rendered bare-table tuning scene that the reader of bf26eee got wrong."""

from __future__ import annotations

import pytest

from vision import tokens
from vision.bench_tokens import match
from vision.render import tokens as render

from .test_tokens_bare_round19b import _found_right


@pytest.mark.parametrize(
    ("seed", "index"),
    [
        (30018, 9),  # a gray end to end with a white
        (30018, 11),  # ...the white
    ],
)
def test_two_butts_end_to_end_read_as_one_are_both_found(seed, index):
    _found_right(seed, index)


def test_no_butt_is_invented_between_two_butts_end_to_end():
    frame, truth = render.scene(30018, with_mat=False)
    seen = tokens.read(frame).objects
    used = {j for _, j in match(truth, seen) if j is not None}
    assert len(seen) == len(used), [s["colour"] for j, s in enumerate(seen) if j not in used]
