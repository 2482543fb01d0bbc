"""Card reader under a strong warm lamp that clips the red channel, and under a dim, noisy light."""

from __future__ import annotations

import numpy as np

from vision import cards
from vision.bench_cards import match
from vision.render.cards import scene
from vision.render.effects import kelvin_gains


def _read_right(frame: np.ndarray, truth: list[dict]) -> list[bool]:
    seen = cards.read(frame).objects
    return [o is not None and (o["colour"], o["value"]) == (t["colour"], t["value"]) for t, o in match(truth, seen)]


def test_cards_are_read_under_a_warm_lamp_that_clips_red():
    # a 2700 K lamp, exposed for the table: the white borders, the yellow and red faces and much of
    # the table reach the top of the red channel, so the brightest unclipped pixels are not white
    frame, truth = scene(5140, rows=1)
    lit = np.clip(frame * (kelvin_gains(2700) / kelvin_gains(5000)) * 1.7, 0, 255).astype(np.uint8)
    assert (lit[..., 2] >= 250).mean() > 0.2  # the cast really clips red over a fifth of the frame
    right = _read_right(lit, truth)
    assert len(right) == 5 and all(right), right


def test_cards_are_read_under_a_dim_noisy_light():
    # 0.4 of the light with sensor noise of 3 levels: dark faces are near the noise, and the noise
    # must not cut them into crumbs nor be taken for a too-dark index
    frame, truth = scene(5145, rows=1)
    dim = frame * 0.4 + np.random.default_rng(5145).normal(0, 3, frame.shape)
    right = _read_right(np.clip(dim, 0, 255).astype(np.uint8), truth)
    assert len(right) == 4 and all(right), right
