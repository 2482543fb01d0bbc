"""Eighteenth session (dicerend4): black ones whose outer body ring met their die's front face,
and two twos whose pips linked into one group of four.

A lone pip is taken for a one only in a wide patch of body: two rings of 16 samples, at 2.0 and
2.7 pip radii, must lie within a third of the pip's contrast of its body. On an oblique die the
front face is seen just below the top face, and its pips (lit, of the top pip's polarity) reach
the outer ring on its lower side, so the one was refused as clutter. The outer ring may now leave
the body below the pip on at most three samples, all on the pip's side of the body
(`_front_below`); the inner ring must still be all body.

Two twos lying near each other link their four pips into one group, which fits no four's layout
and made no face; such a group is now cut at its clearly longest link into two pairs spaced alike,
each a two's diagonal apart (`_two_twos`), and each two goes through the body check.

Scenes are rendered tuning seeds (below 1000): never the held-out seeds.
"""

from __future__ import annotations

import cv2
import numpy as np

from tests.vision.dice_check import assert_die_right, render_reads
from vision import dice
from vision.dice import Pip


def test_black_ones_above_their_front_face_are_read() -> None:
    """Buttons roll 59's black-gold one, roll 138's and roll 144's black-white ones (missed) and
    roll 64's black-white one (read three) are read right."""
    for seed, j in ((59, 1), (138, 2), (144, 5), (64, 4)):
        found, truth, m = render_reads(seed, buttons=True)
        assert (truth[j]["pips"], truth[j]["body"]) == (1, "black")
        assert_die_right(found, truth, m, j)


def _one(spot: tuple[int, int, int, int] | None, value: float) -> np.ndarray:
    """A 160 px grey plane, body 60, a sharp light pip 20 px across at (80, 80) (value 200), and a
    spot of ``value``: an ellipse (centre x, centre y, half axes) such as a front face's
    squashed pips."""
    g = np.full((160, 160), 60.0, np.float32)
    cv2.circle(g, (80, 80), 10, 200.0, -1)
    if spot is not None:
        x, y, a, b = spot
        cv2.ellipse(g, (x, y), (a, b), 0, 0, 360, value, -1)
    return np.clip(cv2.GaussianBlur(g, (0, 0), 1.0), 0, 255).astype(np.uint8)


def test_lone_pip_outer_ring_may_meet_front_face_below() -> None:
    """A pip whose outer ring meets a light bar 27 px below it (a front face's pips) is a one; the
    same bar beside or above it, a dark bar below it, or a bar so near that the inner ring meets
    it is not."""
    p = Pip(80.0, 80.0, 20.0, 20.0, False, 200.0, 60.0, 1.0)
    ok = dice._lone_pip_ok
    plane = _one(None, 0)
    assert ok((plane, plane), p)
    below = _one((80, 107, 14, 5), 190.0)
    assert ok((below, below), p)
    for spot, value in (((107, 80, 5, 14), 190.0), ((80, 53, 14, 5), 190.0), ((80, 107, 14, 5), 0.0),
                        ((80, 100, 14, 5), 190.0)):
        plane = _one(spot, value)
        assert not ok((plane, plane), p), (spot, value)


def test_two_twos_linked_into_a_group_of_four_are_read() -> None:
    """Scene 10 075's two black twos (linked) are read, and with them the frame's three ones (no
    die of three pips to vouch for them; the twos now do); Buttons roll 174's middle two is read."""
    found, truth, m = render_reads(10075)
    for j in range(5):
        assert_die_right(found, truth, m, j)
    found, truth, m = render_reads(174, buttons=True)
    assert (truth[5]["pips"], truth[5]["body"]) == (2, "black")
    assert_die_right(found, truth, m, 5)


def _pips(xy: list[tuple[float, float]], d: float = 20.0) -> list[Pip]:
    return [Pip(x, y, d, d, False, 200.0, 40.0, 1.0) for x, y in xy]


def test_two_twos_cut_only_pairs_a_diagonal_apart() -> None:
    """Two pairs 56 px apart, 110 px from each other, are cut; a four in its layout, a six's two
    columns of two touching pips (16 px apart), pairs spaced unlike (56 and 35 px) and a row of
    four evenly spaced are not."""
    assert dice._two_twos(_pips([(100, 100), (140, 140), (220, 180), (260, 220)]))
    assert not dice._two_twos(_pips([(100, 100), (150, 100), (100, 150), (150, 150)]))
    assert not dice._two_twos(_pips([(100, 100), (100, 116), (140, 100), (140, 116)]))
    assert not dice._two_twos(_pips([(100, 100), (140, 140), (220, 180), (245, 205)]))
    assert not dice._two_twos(_pips([(100, 100), (150, 100), (200, 100), (250, 100)]))
