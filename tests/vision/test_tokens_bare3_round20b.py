"""Bag of Butts reader, twentieth session, second round (branch tokbare13), on a bare table (no
mat): a faint butt joined to its contact shadow in a piece of 1.5-2 butts' area.

On dark wood a khaki butt differs from the table by under the threshold and, at the faint passes'
lower thresholds, makes one piece with its contact shadow. ``_lighter_core`` cuts such a piece
down to the strip one butt wide that adds the most light (the shadow takes light), but the faint
pass only handed it pieces up to 1.5 butts' area, so a butt with a shadow as large as half a butt
was never looked into (LIGHT_CORE_MAX, 2, was dead above 1.5). Pieces up to LIGHT_CORE_MAX butts'
area now reach it, except where the full threshold's crumbs inside the piece add up to a butt (a
butt already found by its crumbs; the rest is its shadow).

Rendered bare-table tuning scenes that the reader of dd579dd got wrong (the butt missed), and a
guard (20246) where a gray found by its crumbs must not be read a second time from its shadow."""

from __future__ import annotations

import pytest

from .test_tokens_bare_round19b import _all_found, _found_right


@pytest.mark.parametrize(
    ("seed", "index"),
    [
        (10244, 1),  # a khaki on dark wood beside a yellow, joined to its shadow (1.54 butts' area)
        (50015, 8),  # a khaki joined to its shadow (1.63 butts' area)
        (40247, 13),  # a black in a pile, its crumbs and shadow one piece (1.63 butts' area)
    ],
)
def test_a_faint_butt_joined_to_its_shadow_is_found(seed, index):
    _found_right(seed, index)


def test_a_gray_found_by_its_crumbs_is_not_read_again_from_its_shadow():
    # 20246: a gray found by two crumbs of the threshold; the faint piece of its lower half and its
    # shadow (1.74 butts' area) holds those crumbs, 0.75 of a butt: no second gray from it
    _all_found(20246)
