"""Bag of Butts reader, nineteenth session, second round (branch tokbare10), on a bare table (no
mat): a butt whose end the glare step took out with a glare spot beside it.

A butt lying in or beside a glare spot makes one blob with the spot; the glare step takes the spot
out and with it the butt's end that lies in the glare, and what is left of the butt is a round piece
(half a butt, under 1.7 times as long as wide) that the round branch dropped as a glare spot or a
coin. Such a piece, of the butt's width (GLARE_LAY_HALF of its half width) and CRUMB of its area and
touching the glare taken out, now has the frame's butt laid in it and the glare taken out joined to
it (as _dark_butt lays a dark butt in the shade taken out).

Rendered bare-table tuning scenes that the reader of 29c2fb1 got wrong (the butt was missed)."""

from __future__ import annotations

import pytest

from vision import tokens
from vision.bench_tokens import match
from vision.render import tokens as render


def _all_found(seed: int) -> tuple[list[dict], list[dict], list[tuple[int, int | None]]]:
    """Bare-table scene ``seed`` read with no butt missed and none invented: (truth, seen, pairs)."""
    frame, truth = render.scene(seed, with_mat=False)
    seen = tokens.read(frame).objects
    pairs = match(truth, seen)
    assert all(j is not None for _, j in pairs), "a butt missed"
    assert len(seen) == len(truth), "a butt invented"
    return truth, seen, pairs


def _found_right(seed: int, index: int) -> None:
    """Bare-table scene ``seed``'s butt ``index`` is found with its colour and group."""
    frame, truth = render.scene(seed, with_mat=False)
    seen = tokens.read(frame).objects
    j = dict(match(truth, seen))[index]
    assert j is not None, f"{truth[index]['colour']} butt {index} missed"
    assert seen[j]["colour"] == truth[index]["colour"]
    assert seen[j]["group"] == truth[index]["group"]


@pytest.mark.parametrize(
    ("seed", "index"),
    [
        (40015, 3),  # a lone blue on a dark table, its lower half taken with a faint glare
        (40101, 6),  # a lone yellow with a glare spot on its end, on dark green
        (10037, 7),  # a lone black, cut short by the glare step
        (20086, 9),  # a black, cut short by the glare step
        (30014, 16),  # a white, cut short by the glare step
    ],
)
def test_a_butt_cut_short_by_the_glare_step_is_found(seed, index):
    _found_right(seed, index)
