"""Round 18 (speed): _split_touching skips the rows of touching pips that _no_waists proves unsplit,
and a plane searched for both polarities (or for one, passed twice) gets one pyramid.

_split_touching tries a blob of two or three touching pips one pip at a time where the blob shows a
light (dark) waist between them. It cost about 2.7 ms of a read of the speed frame as some 30 array
operations a call, and split nothing there. _no_waists reads the same few pixels one by one, placed
from the same float32 values; only when a row may split (or its step lies on its threshold) do the
arrays decide. The readings are the old reader's exactly (docs/bench/dice.md, eighteenth session,
branch dicefast8). These tests fail when the proof is made too eager (a row that splits taken as
proved unsplit). find_pips made the brightest-channel, red and redness planes' pyramids twice
(a dict comprehension over the pair (plane, plane)); it now makes each once, the same arrays.
"""

from __future__ import annotations

import cv2
import numpy as np
import pytest

from vision import dice
from vision.render import dice as render_dice

from .test_dice_body import draw_die, table


def _touching_pair(gap: float, dark: bool) -> tuple[np.ndarray, np.ndarray, list[tuple]]:
    """Two pips of radius 3 px, ``gap`` px apart, that the level's mask takes as one blob with a
    waist: the level image, its box mean and the blob's candidate (a row of two)."""
    img = np.full((40, 60), 200 if dark else 50, np.uint8)
    for s in (-0.5, 0.5):
        x = 30.0 + s * (6.0 + gap)
        cv2.circle(img, (round(x * 8), 20 * 8), 3 * 8, 40 if dark else 220, -1, cv2.LINE_AA, 3)
    img = cv2.GaussianBlur(img, (3, 3), 0)
    mean = cv2.blur(img, (dice.BLOCK, dice.BLOCK))
    contours = cv2.findContours(dice._level_mask(img, mean, dark), cv2.RETR_EXTERNAL, cv2.CHAIN_APPROX_SIMPLE)[0]
    cand = [dice._pip_shape(c, *cv2.boundingRect(c), 2.6, 10.0) for c in contours]
    return img, mean, [c for c in cand if c is not None]


@pytest.mark.parametrize("dark", [True, False])
def test_two_touching_pips_with_a_waist_are_still_tried_one_by_one(dark):
    img, mean, cand = _touching_pair(2.0, dark)
    assert len(cand) == 1 and cand[0][5] == 2  # one blob, taken as two touching pips
    assert dice.SPLIT_PROOF
    pieces = dice._split_touching(img, mean, cand, dark)
    assert len(pieces) == 2
    xs = sorted(p[0] for p in pieces)
    assert abs(xs[0] - 26) <= 1.5 and abs(xs[1] - 34) <= 1.5  # one piece at each pip
    assert not dice._no_waists(img, mean, cand, dark)


def test_the_proof_gives_the_arrays_answer_on_every_row():
    # rows of two and three touching pips laid all over a rendered frame's planes (both
    # polarities, any angle, any length, points on half pixels): the same pieces with the proof
    # as with every row sampled as arrays
    frame, _ = render_dice.scene(3)
    rng = np.random.default_rng(18)
    split = 0
    for plane, dark in zip(dice.planes_of(frame), (False, True), strict=True):
        g = cv2.pyrDown(plane)
        mean = cv2.blur(g, (dice.BLOCK, dice.BLOCK))
        h, w = g.shape
        for _ in range(400):
            cand = []
            for _ in range(int(rng.integers(1, 5))):
                x, y = rng.uniform(-2, w + 1), rng.uniform(-2, h + 1)
                if rng.random() < 0.3:
                    x, y = np.floor(x) + 0.5, np.floor(y) + 0.5
                minor = rng.uniform(2.0, 8.0)
                major = minor * rng.uniform(1.0, 3.5)
                angle = 0.0 if rng.random() < 0.3 else rng.uniform(0, np.pi)
                cand.append((x, y, major, minor, angle, int(rng.integers(1, 4)), bool(rng.random() < 0.2)))
            try:
                dice.SPLIT_PROOF = False
                want = dice._split_touching(g, mean, cand, dark)
            finally:
                dice.SPLIT_PROOF = True
            assert dice._split_touching(g, mean, cand, dark) == want
            split += bool(want)
    assert split >= 20  # rows that do split were among them


def test_a_small_six_whose_pips_touch_is_read_six():
    # rendered scene 12: a small white six (pips about 5 px) whose column pips make blobs of two;
    # split one by one they read six, taken whole a four
    frame, truth = render_dice.scene(12)
    want = [t for t in truth if abs(t["box"][0] - 1065) < 10 and abs(t["box"][1] - 377) < 10]
    assert [t["pips"] for t in want] == [6]
    got = [o for o in dice.read(frame).objects if abs(o["box"][0] + o["box"][2] / 2 - 1084) < 12
           and abs(o["box"][1] + o["box"][3] / 2 - 398) < 12]
    assert [(o["pips"], o["body"]) for o in got] == [(6, "white")]


def test_a_red_six_read_by_the_colour_passes_with_one_pyramid_a_plane(monkeypatch):
    # black pips on a red body: the brightest-channel pass reads it, and the frame runs the red and
    # redness passes too; each plane's pyramid is made once
    frame = table((140, 160, 175), (480, 640))
    draw_die(frame, 300, 220, 40, 6, (40, 40, 200), (25, 25, 25))
    frame = cv2.GaussianBlur(frame, (3, 3), 0)
    made, planes = [], []
    pyramid, find = dice._pyramid, dice.find_pips
    monkeypatch.setattr(dice, "_pyramid", lambda p, r: made.append(id(p)) or pyramid(p, r))
    monkeypatch.setattr(dice, "find_pips", lambda pl, *a, **k: planes.append(len({id(p) for p in pl})) or find(pl, *a, **k))
    objects = dice.read(frame).objects
    assert [(o["pips"], o["body"]) for o in objects] == [(6, "other")]
    assert len(planes) >= 3 and len(made) == sum(planes)  # gray and blue+green, then one plane a pass
