"""Round 20b (repeatability): the same frame gives the same dice, read after read.

The dice reader's colour distances come from cv2.magnitude, which OpenCV 5.0 hands to IPP on x86:
its result is a last bit off on about 30 % of pixels and depends on where its output buffer lies
(address 0 or 16 mod 32), and a fresh output landed at either. So a pixel whose distance lay within
a last bit of a threshold flipped from one read of a frame to the next (real top-down dev photo
img_0092: 12 foreground mask pixels, in about 7 reads of 10). The output is now always placed on a
32-byte boundary (dice_body._magnitude; docs/bench/dice.md, twentieth session, branch dicerepeat).
"""

from __future__ import annotations

import json

import cv2
import numpy as np

from vision import dice, dice_body

from .test_dice_body import _photo, needs_photos


def _churn(held: list[np.ndarray], i: int) -> None:
    """Other allocations between reads, of odd sizes, some kept alive: the next read's buffers land
    at other places in memory."""
    held.append(np.empty(1000 + 37 * i, np.uint8))
    held.append(np.empty(20000 + 4099 * i, np.float32))
    if i % 3 == 2:
        del held[:3]


@needs_photos
def test_a_dev_photo_gives_the_same_mask_and_the_same_dice_read_after_read():
    frame, _ = _photo("topdown", "img_0092.jpg")
    held: list[np.ndarray] = []
    masks, readings = [], []
    for i in range(10):
        _churn(held, i)
        masks.append(dice_body.foreground(frame)[0])
        if i < 4:
            _churn(held, i)
            readings.append(json.dumps(dice.read(frame).to_json()["objects"], sort_keys=True))
    assert [int(np.count_nonzero(m != masks[0])) for m in masks] == [0] * len(masks)
    assert len(set(readings)) == 1


@needs_photos
def test_the_colour_distances_are_the_same_bits_call_after_call():
    # the foreground's distance and the body distances of look() and the blob spots, each taken
    # 16 times of the same planes with other allocations between
    frame, _ = _photo("topdown", "img_0092.jpg")
    small = cv2.resize(frame, (400, 400), interpolation=cv2.INTER_AREA)
    bg = cv2.GaussianBlur(small, (0, 0), 12)
    lab = cv2.cvtColor(small, cv2.COLOR_BGR2LAB).astype(np.float32)
    ref = np.float32([120.0, 140.5, 117.25])
    held: list[np.ndarray] = []
    got: dict[str, set[bytes]] = {"fg": set(), "dist": set(), "img": set()}
    for i in range(16):
        _churn(held, i)
        got["fg"].add(dice_body._fg_dist(small, bg).tobytes())
        got["dist"].add(dice_body._dist(cv2.split(lab), ref).tobytes())
        got["img"].add(dice_body._dist_img(lab, ref.reshape(1, 1, 3)).tobytes())
    assert {k: len(v) for k, v in got.items()} == {"fg": 1, "dist": 1, "img": 1}
