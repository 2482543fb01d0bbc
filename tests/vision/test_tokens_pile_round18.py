"""Bag of Butts reader, eighteenth session (branch tokbare8), on a bare table (no mat): piles.

A pile's piece is counted by its area (butts' areas, the frame's measured butt). A pale butt on pale
wood (white, khaki, gray) passes the threshold over part of its area only, so a pile of three read
two: the colour split found the three butts, but only the two largest pieces were kept ("shading
split one butt into pieces") and the pale butt was missed. A piece beyond the count is now kept when
its middle lies at least 1.3 butt widths (the frame's) from the middle of every piece kept: a
butt's own shading crumbs lie within a width of its middle, another butt does not.

Rendered bare-table tuning scenes that the reader of f484061 got wrong (the butt was missed)."""

from __future__ import annotations

import numpy as np
import pytest

from vision import tokens
from vision.bench_tokens import match
from vision.render import tokens as render


@pytest.mark.parametrize(
    ("seed", "index"),
    [
        (10034, 14),  # a khaki in a pile of nine counted eight
        (10149, 11),  # a gray beside a green and two blacks, the pile counted three
        (10161, 3),  # a khaki between a blue and a pink, counted two
        (20087, 17),  # a white in a pile of six counted five
        (30221, 15),  # a white touching a gray and a black, counted two
        (40028, 9),  # a khaki touching a black and a gray, counted two
        (40036, 11),  # a white in a pile of four counted three
        (50019, 10),  # a white touching a gray and a third butt, counted two
    ],
)
def test_a_pale_butt_in_a_pile_counted_short_is_found(seed, index):
    frame, truth = render.scene(seed, with_mat=False)
    seen = tokens.read(frame).objects
    pairs = dict(match(truth, seen))
    j = pairs[index]
    assert j is not None, f"{truth[index]['colour']} butt missed"
    assert seen[j]["colour"] == truth[index]["colour"]
    assert seen[j]["group"] == truth[index]["group"]


def _piece(x0, y0, w, h):
    ys, xs = np.mgrid[y0:y0 + h, x0:x0 + w]
    return {"xs": xs.ravel(), "ys": ys.ravel(), "k": 2}


def test_a_crumb_near_a_kept_butt_is_not_a_butt():
    # butts 8 pixels wide, 25 long: single = 8 ** 2 * (ASPECT - 1 + pi / 4)
    single = 64 * (tokens.ASPECT - 1 + np.pi / 4)
    kept = [_piece(0, 0, 25, 8), _piece(0, 20, 25, 8)]
    crumb = _piece(8, 8, 12, 3)  # a strip of the first butt's shaded rim along its side: 0.7 widths off
    far = _piece(60, 0, 25, 8)  # a butt of its own beside them
    assert tokens._apart(kept, [crumb], single) == []
    assert tokens._apart(kept, [far, crumb], single) == [far]
