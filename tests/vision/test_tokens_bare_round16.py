"""Bag of Butts reader, sixteenth session, on a bare table (no mat).

A white butt on a table of its own lightness (pale wood, white laminate, grey cloth under dim light)
is plainly visible by its outline: a shaded rim darker than the table all round, a contact shadow on
one side, a lit ridge along its middle. Its body differs from the table by less than the thresholds,
so the lower thresholds hold only the rim joined to the shadow (not butt-shaped, often not closed)
and the lift map only the lit middle (a fifth to a half of a butt). On a bare table a butt's outline
is now laid along each such lit middle where it takes the most light, and taken when the ring just
outside it is darker than the table nearly all round.

Rendered bare-table tuning scenes that the reader of db02d74 got wrong, and scenes of grainy dark
wood whose lit streaks must not become butts."""

from __future__ import annotations

import pytest

from tests.vision.tokens_check import assert_read_right
from vision.render import tokens as render


@pytest.mark.parametrize(
    "seed",
    [
        20020,  # a white butt on greyish-beige wood beside a pile, seen by its rim: missed
        20058,  # a white butt on grey wood near a pile: missed
        20222,  # a white butt on pale wood beside a pile: missed
        30171,  # a white butt alone on greyish-beige wood: missed, and three butts in the wrong group
        30209,  # a white butt on greyish-beige wood in a pile: missed
    ],
)
def test_a_white_butt_of_the_tables_lightness_is_found(seed):
    frame, truth = render.scene(seed, with_mat=False)
    assert_read_right(frame, truth)


def test_a_lone_white_butt_found_puts_the_piles_right():
    # 30084: a white butt alone on grey wood (a pile of one) was missed; the grouping then cut a real
    # pile in two and nine butts of the piles right of it got the wrong number
    frame, truth = render.scene(30084, with_mat=False)
    assert_read_right(frame, truth)


@pytest.mark.parametrize(
    "seed",
    [
        30132,  # dark grainy wood: lit streaks between darker ones, ringed on their sides only
        30219,  # dark noisy wood: many lit specks a butt's length apart
    ],
)
def test_no_butt_read_in_wood_grain(seed):
    frame, truth = render.scene(seed, with_mat=False)
    assert_read_right(frame, truth)
