"""Card reader under a camera's flat tone curve and under a lamp warm enough to clip red.

Each frame is a rendered scene changed after rendering the way ``vision.bench_light`` changes it,
so the truth stays the scene's own; each test failed with the reader before these fixes.
"""

from __future__ import annotations

import numpy as np

from vision import cards
from vision.bench_cards import match
from vision.bench_light import relit
from vision.render.cards import scene


def _read_right(frame: np.ndarray, truth: list[dict]) -> list[bool]:
    seen = cards.read(frame).objects
    return [o is not None and (o["colour"], o["value"]) == (t["colour"], t["value"]) for t, o in match(truth, seen)]


def test_purple_cards_on_orange_wood_are_found_under_a_flat_tone_curve():
    # gamma 0.6 leaves a purple face no more saturated than the orange wood around it: it stands
    # out from the table by its hue, not by its chroma
    frame, truth = scene(10503, rows=1, game="blasting-billy")
    right = _read_right(relit(frame, "flatter"), truth)
    assert len(right) == 3 and all(right), right


def test_small_indices_are_read_under_a_flat_tone_curve():
    # gamma 0.6 lifts black ink to about half the face level: the ink of a small "x2" or "10" must
    # not be cut down to its darkest specks
    frame, truth = scene(10532, rows=3, game="nicht-die-bohne")
    right = _read_right(relit(frame, "flatter"), truth)
    assert len(right) == 6 and all(right), right


def test_cards_are_found_under_a_lamp_that_leaves_blue_five_times_weaker():
    # a 2200 K lamp on top of the scene's own light: red is clipped, blue is a fifth of it, and the
    # white borders are only told from yellow faces once the balance lifts blue that far
    frame, truth = scene(10522, rows=1)
    lit = relit(frame, "warm")
    b, _, r = (float(np.median(c)) for c in np.moveaxis(lit, -1, 0))
    assert r > 4 * b  # the cast really is that strong
    right = _read_right(lit, truth)
    assert len(right) == 6 and all(right), right
