"""Bag of Butts reader, twentieth session (branch tokmat13), on the play mat.

A deep shade on the mat's red zone (a gap between butts or a contact shadow where hardly any light
is left) reads darker than the zone and *more* saturated in the zone's own hue than the zone (the
little light left is the cloth's own, and the near-zero green level spreads the log ratios): the
shadow test (chroma within ``SHADOW_CHROMA`` of the table) missed it, and it was read as a black
butt of confidence 0.01-0.06 that is not there (tuning scenes 20 003, 20 073, 40 045). Such a piece
(``tokens._zone_deeper``: darker than its table, its chroma reaching ``ZONE_DEEPER`` of the table's
along the table's direction) is now dropped with the zone's other shades."""

from __future__ import annotations

import numpy as np
import pytest

from vision import tokens

from .test_tokens_mat_round19b import _errors


@pytest.mark.parametrize(
    "seed",
    [
        20003,  # a dark red piece (levels 10, 8, 62) among a pile's butts: read black at confidence 0.057
        20073,  # the same (4, 10, 72), read black at 0.042
        40045,  # the same, deeper (2, 2, 16), read black at 0.01
    ],
)
def test_a_deep_shade_of_the_red_zone_is_not_read_as_a_black_butt(seed):
    missed, extra, wrong = _errors(seed)
    assert (missed, extra, wrong) == ([], [], [])


@pytest.mark.parametrize(
    "seed",
    [
        24,  # pinks on the red zone (0.53-0.55 of the zone's chroma along its hue)
        63,  # a black butt whose dark reading leans to the zone's hue (0.57 of its chroma)
    ],
)
def test_butts_leaning_to_the_zone_hue_are_kept(seed):
    missed, extra, wrong = _errors(seed)
    assert (missed, extra, wrong) == ([], [], [])


def _features(bgr):
    return tokens._features_bgr(np.float32([bgr]))[0]


def test_zone_deeper_reads_the_zone_hue_only_where_darker_and_as_deep():
    table = _features([45, 40, 125])  # a red zone
    raw_of = lambda bgr: np.float32([_features(bgr)[0] - table[0], *_features(bgr)[1:]])  # noqa: E731
    assert tokens._zone_deeper(raw_of([10, 8, 62]), table)  # darker, redder than the zone
    assert not tokens._zone_deeper(raw_of([25, 23, 27]), table)  # a black butt: neutral
    assert not tokens._zone_deeper(raw_of([40, 35, 60]), table)  # a pink-ish dark piece: half the zone's hue
    assert not tokens._zone_deeper(raw_of([60, 50, 200]), table)  # lighter than the zone: not its shade
    grey = _features([90, 90, 92])  # a table with no hue of its own: never
    assert not tokens._zone_deeper(np.float32([-0.5, 0.3, 0.0]), grey)
