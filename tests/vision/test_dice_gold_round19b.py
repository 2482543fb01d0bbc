"""Nineteenth session, second round (dicegold): a small white die with gold pips on a dark table,
seen whole as one bright "pip", read from the dark pips inside it.

On a dark table the pip search's box mean around a small white die takes in the table and falls
below the die's body, so its gold pips (about half the body's level in the blue+green plane) are
no darker than DARK_RATIO of it and are never found; the die itself is found as a bright blob of
a pip's shape, a "one" the body check refuses as faint. `_pips_inside` seeks the dark pips inside
such a blob again against the blob's own level.

Scenes are rendered tuning seeds (below 100 000): never the held-out seeds.
"""

from __future__ import annotations

import numpy as np

from tests.vision.dice_check import assert_die_right, render_reads
from vision import bench_dice, dice
from vision.render import dice as render_dice


def test_white_gold_dice_on_a_dark_table_are_read() -> None:
    """Buttons rolls 10 081 and 10 110's ones, 10 150's two and 10 152's three (white dice, gold
    pips, dark tables; all missed before) are read right, and no false die comes with them."""
    for seed in (10081, 10110, 10150, 10152):
        found, truth, m = render_reads(seed, buttons=True)
        assert_die_right(found, truth, m, 0)
        assert len(found) == len(m), f"roll {seed}: a false die"


def _right_under_casts(seeds: tuple[int, ...]) -> None:
    """Each Buttons roll's die 0 read right under a warm and a cold cast of the whole frame."""
    for seed in seeds:
        frame, truth = render_dice.scene(seed, kinds=render_dice.BUTTONS_SET)
        for gain in ((0.75, 0.95, 1.15), (1.2, 1.0, 0.8)):
            f = np.clip(frame * np.float32(gain), 0, 255).astype(np.uint8)
            found = dice.read(f).objects
            m = {j: i for i, j in bench_dice.match(found, truth)}
            assert_die_right(found, truth, m, 0)


def test_under_warm_and_cold_lamps() -> None:
    """The same rule under a warm and a cold cast of the whole frame (levels measured in the frame:
    the blob's own and its ring's): roll 10 150's two and roll 10 110's one are read right."""
    _right_under_casts((10150, 10110))


def test_a_blank_white_square_is_no_die() -> None:
    """A plain white square on a dark table (a blank tile, a token) has no dark pips inside: it is
    read as no die at all (guard)."""
    img = np.full((480, 640, 3), 38, np.uint8)
    img[200:230, 300:330] = 228
    img = np.clip(img + np.random.default_rng(3).normal(0, 2, img.shape), 0, 255).astype(np.uint8)
    assert dice.read(img).objects == []
