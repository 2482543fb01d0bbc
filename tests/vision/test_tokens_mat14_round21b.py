"""Bag of Butts reader, twenty-first session, second round (branch tokmat14), on the play mat.

A round glare spot touching a pile counts as a butt by its area, and the split of the pile gave it a
piece of its own, which was read as a butt that is not there (pink on the red zone, white on a
light frame: tuning scenes 20 134 and 30 204). The lone pieces' round glare test now runs on a
pile's pieces too (``tokens._round_glare``): a piece under a butt's area, round, filling its
enclosing circle and adding white light (or the lamp's own, measured on the mat's white patch) is
dropped as glare. A pink butt on the red zone adds light mostly in green and blue and is kept."""

from __future__ import annotations

import numpy as np
import pytest

from vision import tokens

from .test_tokens_mat_round19b import _errors


@pytest.mark.parametrize(
    "seed",
    [
        20134,  # a round glare spot at a pile's blue butt: its piece read white (confidence 0.818)
        30204,  # a round glare spot at a pink butt's end: its piece read pink (confidence 0.653)
    ],
)
def test_a_round_glare_spot_cut_out_of_a_pile_is_not_read_as_a_butt(seed):
    missed, extra, wrong = _errors(seed)
    assert (missed, extra, wrong) == ([], [], [])


def test_a_round_pink_piece_on_the_red_zone_is_kept():
    # 20 207: a pink butt with a glare halo, split as a round piece (0.56 of a butt, adds 124, 135, 87
    # in B, G, R: weakest over strongest 0.65, over the white patch 0.32)
    missed, extra, wrong = _errors(20207)
    assert (missed, extra, wrong) == ([], [], [])


def _disc(r: int, cx: int = 30, cy: int = 30) -> tuple[np.ndarray, np.ndarray]:
    yy, xx = np.mgrid[0:60, 0:60]
    ys, xs = np.nonzero((xx - cx) ** 2 + (yy - cy) ** 2 <= r * r)
    return xs, ys


def test_round_glare_is_a_small_round_piece_of_white_or_lamp_light():
    small = np.full((60, 60, 3), 120, np.uint8)
    xs, ys = _disc(9)  # 253 pixels
    single = 500.0
    lamp = np.float32([120, 160, 230])  # a warm lamp on the white patch (BGR)
    assert tokens._round_glare(np.float32([78, 78, 78]), small, xs, ys, single, lamp)  # white light
    assert tokens._round_glare(np.float32([40, 53, 76]), small, xs, ys, single, lamp)  # the lamp's light
    assert not tokens._round_glare(np.float32([124, 135, 87]), small, xs, ys, single, lamp)  # pink on red
    assert not tokens._round_glare(np.float32([78, 78, 78]), small, xs, ys, single, None)  # no white patch
    assert not tokens._round_glare(np.float32([78, 78, 78]), small, xs, ys, 200.0, lamp)  # over a butt's area
    bar = np.zeros((60, 60), bool)
    bar[25:34, 5:55] = True  # a butt's shape: long
    by, bx = np.nonzero(bar)
    assert not tokens._round_glare(np.float32([78, 78, 78]), small, bx, by, single, lamp)
