"""Card reader in the harder cases players make: fans with a third of each card showing, "+/-" cards."""

from __future__ import annotations

import numpy as np
import pytest

from tests.vision.test_cards_round4 import _fan, _photo, _table
from vision import cards
from vision.render import effects
from vision.render.cards import scene

ROW = [("red", 2), ("yellow", "pm"), ("yellow", 7), ("blue", "x2"), ("green", 1), ("red", 5),
       ("blue", 10), ("green", "zero"), ("yellow", 3), ("red", 9), ("blue", 6), ("green", 4)]
PLUS_MINUS = [(c, v) for c in ("red", "blue", "green", "yellow") for v in ("pm", 1, "pm")]


@pytest.mark.parametrize(("card_h", "show", "seed"), [(180, 0.30, 8), (150, 0.34, 8), (130, 0.30, 11)])
def test_a_fan_with_a_third_of_each_card_showing_is_read_in_order(card_h, show, seed):
    # the index spans the whole width of each strip, up to the next card's border: the strip's
    # colour mask ends short of that border, and the index must still be read whole
    table = _table((150, 170, 190), 960, 1280, seed=7)
    frame, truth = _fan(table, ROW, card_h=card_h, step=show, seed=seed)
    frame = _photo(frame, 5000, seed=9)
    seen = cards.read(frame).objects
    assert [(o["colour"], o["value"]) for o in seen] == [(t["colour"], t["value"]) for t in truth]
    assert [(o["row"], o["position"]) for o in seen] == [(0, p) for p in range(len(ROW))]


@pytest.mark.parametrize(("card_h", "seed"), [(140, 3), (170, 2)])
def test_plus_minus_cards_under_a_warm_lamp_are_not_read_as_ones(card_h, seed):
    # "+/-" over a "1" with a base serif: blurred and JPEG-compressed, the plus-over-minus glyph
    # sits a pixel or two off the template and used to match the "1" better than itself
    table = _table((120, 140, 160), 960, 1280, seed=seed)
    frame, truth = _fan(table, PLUS_MINUS, card_h=card_h, step=0.5, seed=seed)
    light = effects.Light(kelvin=3000, brightness=0.8, gradient=0.2, vignette=0.2)
    frame = effects.apply_light(frame, light, np.random.default_rng(seed))
    frame = effects.camera(frame, np.random.default_rng(seed), blur=1.6, noise=5.0, jpeg=60)
    seen = cards.read(frame).objects
    assert [o["value"] for o in seen] == [t["value"] for t in truth]


@pytest.mark.parametrize("seed", [5014, 5027])
def test_a_lamps_sheen_over_faces_does_not_lose_the_cards(seed):
    # glossy cards under a lamp: a broad whitish reflection fades the colour of part of a face
    # (and its neighbours) below the chroma that tells a face from the table
    frame, truth = scene(seed, rows=1, face_glare=0.3)
    seen = cards.read(frame).objects
    assert [(o["colour"], o["value"]) for o in seen] == [(t["colour"], t["value"]) for t in truth]
