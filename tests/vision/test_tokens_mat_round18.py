"""Bag of Butts reader, eighteenth session (branch tokmat10), on the play mat.

A glare smaller than a butt lies on one of its ends: the table around that end is lit more than
around the other, and the butt's own ends differ by about as much in every channel (glare adds
light). The light measured on the table all around the butt (tokmat9's veil) is too little to take
the glare off, so a gray, pink or blue read white and a black read gray. The darker end, less the
light the table around it has, is now a second reading (``_veil_taken``), kept when it fits its
nearest colour model better than the reading as it is, by any amount (``END_BETTER``, ``read``).
Rendered tuning scenes with the mat that main's reader (0aab0ec, the mat path of f484061) read
with wrong colours."""

from __future__ import annotations

import pytest

from .test_tokens_mat_round17 import _wrong  # (true, read) colours of a mat scene's wrong butts


@pytest.mark.parametrize(
    "seed",
    [
        176,  # a gray with a glare on one end read white
        20152,  # a pink with a glare on one end read white
        30107,  # a blue in a pile of five with a glare on one end read white
    ],
)
def test_a_butt_with_a_glare_on_one_end_keeps_its_colour(seed):
    assert _wrong(seed) == []


@pytest.mark.parametrize(
    "seed",
    [
        181,  # a black with a glare over its upper end read gray
        40130,  # a black with a glare on one end read gray (the gray beside it, read white, is left)
    ],
)
def test_a_black_with_a_glare_on_one_end_is_not_read_gray(seed):
    assert ("black", "gray") not in _wrong(seed)


def test_a_gray_whose_ends_differ_less_than_the_table_around_them_stays_gray():
    # 20 072: a gray with 19 levels of glare around it and one end darker; its darker end less the
    # light around it reads black, but the ends differ by far less than the table's do: kept gray
    assert _wrong(20072) == []
