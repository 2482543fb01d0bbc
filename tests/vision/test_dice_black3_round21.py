"""Twenty-first session (diceblack3): a faint black two whose pips spread into its body is vouched
for up to VOUCH_TWO (1.75) of the frame's pip size, and a two vouched for by dice of three pips or
more vouches for no one (VOUCH_ONE_SET), so a coloured disc beside it is not read as a one.

Scenes are rendered tuning seeds (below 100 000): never the held-out seeds.
"""

from __future__ import annotations

import pytest

from tests.vision.dice_check import assert_die_right, render_reads
from vision import dice


def test_faint_black_twos_are_read_and_invent_no_one() -> None:
    """Buttons rolls 174 and 10 038: every die read right (a black two was missed before) and no
    false die (roll 174's teal disc is not taken for a one vouched for by the new two)."""
    for seed in (174, 10038):
        found, truth, m = render_reads(seed, buttons=True)
        for j in range(len(truth)):
            assert_die_right(found, truth, m, j)
        assert len(found) == len(truth), (seed, found)


def test_a_two_vouched_by_dice_vouches_for_no_one(monkeypatch: pytest.MonkeyPatch) -> None:
    """Without the guard, roll 174's new black two vouches for its teal disc: a false one."""
    monkeypatch.setattr(dice, "VOUCH_ONE_SET", False)
    found, truth, _ = render_reads(174, buttons=True)
    assert len(found) == len(truth) + 1
