"""Card reader under awkward light: a specular glare spot on a card's index corner."""

from __future__ import annotations

import cv2
import numpy as np

from vision import cards
from vision.bench_cards import match
from vision.render import effects
from vision.render.cards import scene


def _glare(frame: np.ndarray, centre: tuple[int, int], radius: int, strength: float) -> np.ndarray:
    """A soft bright spot added on top of the frame, like a lamp reflected in a glossy card."""
    spot = np.zeros(frame.shape[:2], np.float32)
    cv2.circle(spot, centre, radius, 1.0, -1)
    spot = cv2.GaussianBlur(spot, (0, 0), radius / 2 + 1)
    return np.clip(frame.astype(np.float32) + spot[..., None] * strength, 0, 255).astype(np.uint8)


def _camera(frame: np.ndarray, seed: int) -> np.ndarray:
    return effects.camera(frame, np.random.default_rng(seed), blur=0.8, noise=2.0, jpeg=90)


def _right(truth, seen) -> list[bool]:
    return [o is not None and (o["colour"], o["value"]) == (t["colour"], t["value"]) for t, o in match(truth, seen)]


def test_glare_beside_the_index_does_not_hide_it():
    # fanned: only the top-left index of each card shows; a bright spot lies on the face just
    # below and right of the index of every second card, partly over the index corner
    for seed in (6602, 6604):
        frame, truth = scene(seed, game="nicht-die-bohne", rows=1, cards_per_row=6, overlap=True,
                             effects_on=False)
        for t in truth[:-1:2]:
            x, y, w, h = t["box"]
            frame = _glare(frame, (x + int(0.3 * w), y + int(0.3 * h)), int(0.08 * h), 170)
        frame = _camera(frame, 1)
        right = _right(truth, cards.read(frame).objects)
        assert all(right), (seed, right)


def test_a_whole_card_is_read_from_its_turned_index_when_glare_hides_the_top_one():
    frame, truth = scene(6601, game="blasting-billy", rows=1, cards_per_row=4, overlap=False, effects_on=False)
    for t in truth:
        x, y, w, h = t["box"]
        frame = _glare(frame, (x + int(0.18 * w), y + int(0.17 * h)), int(0.12 * h), 255)
    frame = _camera(frame, 2)
    right = _right(truth, cards.read(frame).objects)
    assert all(right), right
