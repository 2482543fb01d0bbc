"""Bag of Butts reader, eighteenth session (branch tokbare7), on a bare table (no mat): black strays.

In dim frames (a table of 10-25 levels) the noise and the JPEG colour blocks change the table's
chroma by as much as a butt: the faint passes found pieces there, near the frame's edge or in a
vignetted corner, that read black at full confidence though they are no darker than the table (their
lightness 0.08 lighter to 0.07 darker than the table, in log units). A lone stray took a pile of its
own, and the two nearest real piles were read as one. A piece read black on a bare table that is not
darker than the table beside it by BLACK_DARKER (0.1 log lightness, a tenth of its light) and lies
BLACK_ALONE (1.5) butt lengths or more from every other butt is now dropped: black paint takes more
light than any wood does; the black butts read right on the tuning sets are all at least 0.117
darker but one (40 183's, read by a piece off its side, beside other butts: kept).

Rendered bare-table tuning scenes that f484061's reader got wrong."""

from __future__ import annotations

import pytest

from vision import tokens
from vision.bench_tokens import match
from vision.render import tokens as render


def _read(seed: int) -> tuple[list[dict], list[dict], list[tuple[int, int | None]]]:
    frame, truth = render.scene(seed, with_mat=False)
    seen = tokens.read(frame).objects
    return truth, seen, match(truth, seen)


@pytest.mark.parametrize(
    "seed",
    [
        40015,  # two black strays at the top edge: piles 2 and 3 read as one (5 butts in the wrong group)
        50186,  # a black stray in the dark bottom-right corner: 4 butts in the wrong group
        50219,  # a black stray at the top-right edge: 6 butts in the wrong group
    ],
)
def test_no_black_stray_takes_a_pile_of_its_own(seed):
    truth, seen, pairs = _read(seed)
    used = {j for _, j in pairs if j is not None}
    assert [s for j, s in enumerate(seen) if j not in used and s["colour"] == "black"] == []
    assert [(truth[i], seen[j]) for i, j in pairs if j is not None and seen[j]["group"] != truth[i]["group"]] == []


def test_black_strays_on_a_dim_table_are_not_read():
    # three chroma-only pieces read black (lightness 0.00-0.05 over the table's), one faint black
    # butt 0.13 darker than the table
    truth, seen, pairs = _read(20206)
    used = {j for _, j in pairs if j is not None}
    assert [s for j, s in enumerate(seen) if j not in used and s["colour"] == "black"] == []
    blacks = [(truth[i], j) for i, j in pairs if truth[i]["colour"] == "black"]
    assert blacks and all(j is not None and seen[j]["colour"] == "black" for _, j in blacks)


def test_a_faint_black_butt_on_dark_wood_is_still_read():
    # 40015's black butt, found only by a faint pass, 0.13 darker than its table
    truth, seen, pairs = _read(40015)
    blacks = [(truth[i], j) for i, j in pairs if truth[i]["colour"] == "black"]
    assert blacks and all(j is not None and seen[j]["colour"] == "black" for _, j in blacks)
