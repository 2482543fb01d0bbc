"""Bag of Butts reader, nineteenth session, second round (branch tokmat12), on the play mat.

A pink butt on the mat's red zone under a glare halo adds about the lamp's own light: the split of
its pile cut the butt and its halo out as one piece of about a butt's area whose outline rises
softly (the halo's), and ``_glare_piece`` dropped it as glare (tuning scenes 30 002 and 40 137).
Such a piece is now looked into for a butt standing over the glare's smooth course
(``tokens._butt_in_glare_piece``), kept when it is most of a butt's length."""

from __future__ import annotations

import pytest

from vision import tokens
from vision.bench_tokens import match
from vision.render import tokens as render


def _errors(seed: int) -> tuple[list[str], list[str], list[tuple[str, str]]]:
    """A mat scene's missed butts' colours, extra detections' colours and (true, read) wrong colours."""
    frame, truth = render.scene(seed, with_mat=True)
    seen = tokens.read(frame).objects
    pairs = match(truth, seen)
    used = {j for _, j in pairs if j is not None}
    missed = [truth[i]["colour"] for i, j in pairs if j is None]
    wrong = [(truth[i]["colour"], seen[j]["colour"]) for i, j in pairs
             if j is not None and seen[j]["colour"] != truth[i]["colour"]]
    extra = [s["colour"] for j, s in enumerate(seen) if j not in used]
    return missed, extra, wrong


@pytest.mark.parametrize(
    "seed",
    [
        30002,  # a pink butt lying across a glare halo's middle, cut out of its pile with the halo
        40137,  # the same, the halo around the butt's middle
    ],
)
def test_a_pink_butt_under_a_glare_halo_in_a_pile_is_found(seed):
    missed, extra, wrong = _errors(seed)
    assert (missed, extra, wrong) == ([], [], [])


@pytest.mark.parametrize(
    "seed",
    [
        20207,  # a glare halo's piece beside a pink butt: under a butt's area, its rise short
        30044,  # the same beside a white butt
    ],
)
def test_a_halo_piece_beside_a_butt_is_not_read_as_a_pink_butt(seed):
    _, extra, _ = _errors(seed)
    assert extra == []
