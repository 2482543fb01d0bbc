"""Eighteenth session (dicetop15): gold and bronze dice with black pips read from their pips' dips.

On a metallic gold or bronze die a black pip's bright bevel ring and the die's dark rim make one
dark blob with it at the pip search's box-mean threshold, and the body's own shading and glare
spread its colour as much as the pips differ from it: no pip pass and no die-first spot search
read such a die, though the table outlines it. vision.dice_body._dark_spots finds each pip as a
round dip of lightness below the blob's own body (its inner median), as deep as the deepest, short
and lifted all round; _outline_sizes keeps them only in a die face's exact layout. A blob with red
peaks (a red-pipped die, whose dark spots are marbling flecks) gives no one or two this way.

The real photos are from the development split only (vision.bench_dice.split_of: never a
test-split photo); their tests skip when the shared photo folder is not there. Scenes are rendered
tuning seeds (below 1000).
"""

from __future__ import annotations

import cv2
import numpy as np

from tests.vision.dice_check import assert_die_right, render_reads
from tests.vision.photos import read_at
from vision import dice_body

SIX = [(-1, -1), (1, -1), (-1, 0), (1, 0), (-1, 1), (1, 1)]


def test_gold_and_bronze_dice_with_black_pips_are_read() -> None:
    """img_0043's and img_0051's bronze sixes, img_0011's gold three and img_0068's yellow three
    with black pips (each missed before: no pass saw them) are read right."""
    assert read_at("img_0043.jpg", 381, 342) == (6, 6)
    assert read_at("img_0051.jpg", 218, 381) == (6, 6)
    assert read_at("img_0011.jpg", 258, 326) == (3, 3)
    assert read_at("img_0068.jpg", 193, 228) == (3, 3)


def test_red_pipped_dice_are_not_read_two_from_their_dark_flecks() -> None:
    """img_0018's smoky six, img_0135's marbled five and img_0053's blue four (red pips, missed)
    hold two dark marbling flecks on a diagonal each: they are not read as twos."""
    assert read_at("img_0018.jpg", 323, 190)[1] != 2
    assert read_at("img_0135.jpg", 369, 182)[1] != 2
    assert read_at("img_0053.jpg", 435, 206)[1] != 2


def test_scene_140_white_five_is_read() -> None:
    """Scene 140's white five with black pips (missed before) is read right, both colours too."""
    found, truth, m = render_reads(140)
    assert (truth[2]["pips"], truth[2]["body"]) == (5, "white")
    assert_die_right(found, truth, m, 2)


def _gold(rim: int, seed: int = 0) -> np.ndarray:
    """A 31 px shaded gold die with a glare band, a dark rim ``rim`` px wide and six black pips
    (3 px radius) with bright bevels, 7 px apart, on a grey table."""
    rng = np.random.default_rng(seed)
    img = np.full((200, 200, 3), 185, np.uint8)
    yy, xx = np.mgrid[80:111, 80:111]
    t = ((xx - 80) + (yy - 80)) / 60.0
    body = np.stack([30 + 20 * t, 115 - 60 * t, 150 - 80 * t], -1)
    band = np.exp(-((xx - yy - 4) ** 2) / 18.0)[..., None]
    img[80:111, 80:111] = (body + band * (np.array([200, 235, 245]) - body)).clip(0, 255)
    cv2.rectangle(img, (80, 80), (110, 110), (20, 35, 45), rim)
    for u, v in SIX:
        cv2.circle(img, (95 + 7 * u, 95 + 7 * v), 4, (150, 210, 230), -1)
        cv2.circle(img, (95 + 7 * u, 95 + 7 * v), 3, (20, 20, 25), -1)
    img = (img + rng.normal(0, 3, img.shape)).clip(0, 255).astype(np.uint8)
    return cv2.GaussianBlur(img, (3, 3), 0)


def test_black_pips_on_a_shaded_gold_blob_make_a_six() -> None:
    """The die-first search reads a shaded gold die's six black pips inside its dark rim (it found
    no die there before); _dark_spots finds the six pips and nothing on the rim."""
    taken = [(20.0, 20.0, 15.0)]  # a die read elsewhere: the frame's dice are 30 px
    for rim in (3, 4):
        img = _gold(rim)
        [die] = dice_body.find_dice(img, list(taken), None, dice_body.foreground(img))
        assert die.count == 6 and abs(die.x - 95) < 3 and abs(die.y - 95) < 3
    img = _gold(3)
    mask, scale = dice_body.foreground(img)
    contours, _ = cv2.findContours(mask, cv2.RETR_EXTERNAL, cv2.CHAIN_APPROX_SIMPLE)
    outline = max(contours, key=cv2.contourArea).astype(np.float32) * scale
    spots = dice_body._dark_spots(img, outline, 30.0)
    assert len(spots) == 6
    for u, v in SIX:
        assert any(abs(x - (95 + 7 * u)) < 2 and abs(y - (95 + 7 * v)) < 2 for x, y, _ in spots)
