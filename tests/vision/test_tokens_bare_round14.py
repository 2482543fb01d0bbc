"""Bag of Butts reader, fourteenth session, on a bare table (no mat).

A faint butt (khaki or pink on light wood, a gray one on a table of its own shade) differs from the
table by less than the frame's threshold; at the lower thresholds of the faint passes it and its
contact shadow differ from the table alike and make one piece, too wide and too large for a butt,
and the butt was missed. A third faint pass now looks at the butts' own change only: light added,
or a chroma of their own, which a shadow (light taken, the table's chroma) does not have.

Rendered bare-table tuning scenes that the reader of c866f45 got wrong; every butt of each is now
read right (colour and group), with nothing extra."""

from __future__ import annotations

import cv2
import numpy as np
import pytest

from tests.vision.tokens_check import assert_read_right
from vision import tokens
from vision.render import tokens as render


@pytest.mark.parametrize(
    "seed",
    [
        20141,  # a lone khaki butt on light wood, its shadow beside it: missed
        20243,  # a khaki butt in its pile on dark wood, touching a black one: missed
        10187,  # a khaki butt between a pink and a white one on brown wood: missed
        20080,  # a khaki butt below two grays on grey-brown wood, and a pink one: both missed
    ],
)
def test_faint_butt_beside_its_shadow_is_found(seed):
    frame, truth = render.scene(seed, with_mat=False)
    assert_read_right(frame, truth)


def test_lift_leaves_a_shadow_out():
    # a plain table with a shadow (every channel 0.55 of the table) and a khaki patch (the table's
    # lightness, less blue): the butt's own change is seen, the shadow's is not
    table = np.full((60, 90, 3), (120, 150, 170), np.uint8)
    frame = table.copy()
    frame[20:40, 10:30] = (table[0, 0] * 0.55).astype(np.uint8)
    frame[20:40, 50:70] = (80, 160, 180)
    planes = list(
        zip(
            [cv2.LUT(c, tokens._LOG8) for c in cv2.split(frame)],
            [cv2.LUT(c, tokens._LOG8) for c in cv2.split(table)],
            strict=True,
        )
    )
    lift = tokens._lift(planes).astype(np.float32) * tokens.LOG_STEP
    assert lift[25:35, 15:25].max() < 0.02
    assert lift[25:35, 55:65].min() > 0.2
