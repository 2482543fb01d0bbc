"""Dice reader, body and pip colours: warm light on a wooden table, blown whites, gold pips on coloured dice."""

from __future__ import annotations

import cv2
import numpy as np

from vision import dice
from vision.render.effects import kelvin_gains

from .test_dice_body import draw_die, table

GOLD = (45, 165, 215)
WHITE = (236, 238, 240)
BLACK = (28, 28, 30)
WOOD = (60, 110, 160)  # an orange wooden table


def lit(img: np.ndarray, kelvin: float, brightness: float, seed: int = 0) -> np.ndarray:
    """The frame under a light of that colour temperature, slightly blurred, noisy and JPEG-compressed."""
    f = img.astype(np.float32) * kelvin_gains(kelvin) * brightness
    f = cv2.GaussianBlur(f, (0, 0), 0.7)
    f += np.random.default_rng(seed).normal(0, 2.0, f.shape).astype(np.float32)
    ok, buf = cv2.imencode(".jpg", np.clip(f, 0, 255).astype(np.uint8), [cv2.IMWRITE_JPEG_QUALITY, 85])
    return cv2.imdecode(buf, cv2.IMREAD_COLOR)


def colours(frame: np.ndarray) -> list[tuple[int, str, str]]:
    """(pips, body, pip colour) of every die read, left to right."""
    found = sorted(dice.read(frame).objects, key=lambda o: o["box"][0])
    return [(o["pips"], o["body"], o["pip_colour"]) for o in found]


def buttons_dice() -> np.ndarray:
    """The Buttons dice (white-gold, black-gold, black-white) and a white-black die, 50 px, on a wooden table."""
    img = table(WOOD, (960, 1280))
    for k, (pips, body, pip) in enumerate([(5, WHITE, GOLD), (3, BLACK, GOLD), (4, BLACK, WHITE), (6, WHITE, BLACK)]):
        draw_die(img, 200 + 280 * k, 480, 50, pips, body, pip)
    return img


EXPECTED = [(5, "white", "gold"), (3, "black", "gold"), (4, "black", "white"), (6, "white", "black")]


def test_white_dice_stay_white_on_a_wooden_table_whatever_the_light():
    # the orange table fills the frame and pulls the frame's own white balance towards blue, so
    # white bodies looked blue ("other") under neutral light; the dice's own white sets the balance
    for kelvin, brightness in ((5500, 0.65), (4500, 0.5), (3000, 0.8)):
        assert colours(lit(buttons_dice(), kelvin, brightness)) == EXPECTED, (kelvin, brightness)


def test_gold_pips_on_small_red_and_green_dice_are_gold_and_white_pips_stay_white():
    # small pips take on the body's colour; gold pips on a red or green body looked like tinted white pips
    for brightness in (0.8, 1.0):
        img = table((150, 160, 165))
        kinds = [((40, 40, 190), GOLD), ((70, 150, 40), GOLD), ((40, 40, 190), WHITE), ((170, 90, 30), WHITE)]
        for k, (body, pip) in enumerate(kinds):
            draw_die(img, 100 + 140 * k, 240, 28, 5, body, pip)
        assert colours(lit(img, 5000, brightness)) == [(5, "other", "gold"), (5, "other", "gold"),
                                                       (5, "other", "white"), (5, "other", "white")], brightness


def test_a_pip_tinted_by_its_coloured_body_is_told_from_a_gold_one():
    red_body = np.float32([40.0, 60.0, 40.0])  # Lab of a red die
    tinted_white = np.float32([70.0, 25.0, 17.0])  # a white pip with some of the red body's colour
    tinted_gold = np.float32([60.0, 25.0, 50.0])  # a gold pip with as much of it
    assert dice.classify_colours(red_body, tinted_white, dark_pips=False) == ("other", "white")
    assert dice.classify_colours(red_body, tinted_gold, dark_pips=False) == ("other", "gold")


def test_rendered_tuning_scenes_read_every_found_die_in_its_colours():
    # tuning seeds (< 1000) whose white and black dice the old reader read as "other" under
    # coloured light on a wooden table: a Buttons roll and two scenes of mixed dice
    from vision.bench_dice import match
    from vision.render import dice as render

    for seed, kinds in ((17, render.BUTTONS_SET), (490, None), (240, None)):
        frame, truth = render.scene(seed, kinds=kinds)
        found = dice.read(frame).objects
        pairs = match(found, truth)
        assert len(pairs) >= 5, seed
        for i, j in pairs:
            assert (found[i]["body"], found[i]["pip_colour"]) == (truth[j]["body"], truth[j]["pip_colour"]), seed
