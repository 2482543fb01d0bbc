"""Round 17 (speed): a guard for the speed step this round measured and dropped.

The brightest-channel pass skips the square of each die the first pass read (round 10). Skipping
their surroundings too (twice or one and a half times that square: side faces, edges, shadows)
saved about a tenth of a read of the speed frame, but a die that only that pass reads loses the
pips that lie in the wider square when it touches a read die: these sixes were read as fours,
and four real top-down dev photos lost dice (docs/bench/dice.md, seventeenth session, branch dicefast7).
"""

from __future__ import annotations

import cv2

from vision import dice

from .test_dice_body import draw_die, table
from .test_dice_skip import second_pass_skips

WHITE, BLACK = (235, 235, 235), (25, 25, 25)


def _pair(side: int, gap: int, body: tuple, below: bool):
    """A white five the first pass reads and, ``gap`` pixels beside (or below) it, a six with black
    pips on a coloured body, which the first pass's blue+green plane sees as dark as its pips."""
    frame = table((140, 160, 175), (480, 640))
    draw_die(frame, 250, 200, side, 5, WHITE, BLACK)
    dx, dy = (0, side + gap) if below else (side + gap, 0)
    draw_die(frame, 250 + dx, 200 + dy, side, 6, body, BLACK)
    return cv2.GaussianBlur(frame, (3, 3), 0)


def test_a_six_only_the_second_pass_reads_touching_a_read_die_keeps_its_six_pips():
    for side, gap, body, below in ((40, 2, (40, 40, 200), False), (30, 2, (40, 160, 40), True),
                                   (30, 6, (40, 160, 40), True)):
        frame = _pair(side, gap, body, below)
        objects, skip = second_pass_skips(frame)
        assert skip  # the white five was read by the first pass and is skipped by the second
        got = sorted((o["pips"], o["body"]) for o in objects)
        assert got == [(5, "white"), (6, "other")], (side, gap, body, got)


def test_the_second_pass_skips_no_more_than_the_read_die_itself():
    # the skip squares stay within the read die and its margin: the six beside it is searched whole
    frame = _pair(40, 2, (40, 40, 200), False)
    objects, skip = second_pass_skips(frame)
    five = [o for o in objects if o["pips"] == 5]
    assert len(five) == 1 and len(skip) == 1
    x0, y0, x1, y1 = skip[0]
    assert x1 - x0 <= 1.3 * five[0]["box"][2] and y1 - y0 <= 1.3 * five[0]["box"][3]
    assert dice.SKIP_EXPLAINED
