"""Bag of Butts reader: butts in tight piles, with dark contact shadows, and a pile that fills a zone."""

from __future__ import annotations

import cv2
import numpy as np
import pytest

from vision import bench_tokens, tokens
from vision.render import effects
from vision.render import tokens as render

LENGTH = 60.0  # pixels: a butt as a camera 60-70 cm over the table sees it in a 1280x960 frame


def _table(table_bgr: tuple[int, int, int], butts: list[tuple[str, tuple[float, float], float]],
           shadow: float) -> np.ndarray:
    """A bare table with ``butts`` (colour, centre, angle) drawn on it, each with a contact shadow that
    takes ``shadow`` of the light away where it is darkest."""
    rng = np.random.default_rng(0)
    h, w = 960, 1280
    grain = cv2.resize(rng.normal(0, 1, (h // 40, w // 4)).astype(np.float32), (w, h))
    table = np.clip(np.float32(table_bgr) * (1 + 0.04 * grain[..., None]), 0, 255).astype(np.uint8)
    layer, alpha, dark = table.copy(), np.zeros((h, w), np.float32), np.zeros((h, w), np.float32)
    width = LENGTH / render.ASPECT
    for colour, centre, angle in butts:
        render.draw_butt(layer, alpha, dark, centre, angle, LENGTH, width, np.float32(render.COLOURS[colour]), rng)
    dark = cv2.GaussianBlur(dark, (0, 0), width * 0.3)
    base = table.astype(np.float32) * (1 - shadow * np.clip(dark, 0, 1))[..., None]
    a = np.clip(alpha, 0, 1)[..., None]
    img = np.clip(base * (1 - a) + layer * a, 0, 255).astype(np.uint8)
    return effects.camera(img, rng, blur=0.8, noise=2.0, jpeg=90)


WOOD, OLIVE, LIGHT_WOOD = (60, 110, 160), (70, 80, 60), (150, 170, 190)


@pytest.mark.parametrize("table", [WOOD, OLIVE, LIGHT_WOOD])
def test_butts_a_finger_apart_with_dark_shadows_between_are_read_one_by_one(table):
    # pairs lying side by side with a gap of 0.4 butt widths, filled by their shadows; a lone butt too
    pairs = [["yellow", "blue"], ["green", "pink"], ["khaki", "white"], ["pink", "yellow"]]
    butts = [(c, (x, 380 + k * (LENGTH / render.ASPECT + 8)), 0.0)
             for x, pair in zip((200, 420, 860, 1080), pairs, strict=True) for k, c in enumerate(pair)]
    butts.append(("blue", (640, 600), 0.5))
    seen = tokens.read(_table(table, butts, shadow=0.55)).objects
    # with the shadows left in, a pair joins into one piece and is miscounted on all three tables
    assert sorted(o["colour"] for o in seen) == sorted(c for c, _, _ in butts)


def test_piles_with_no_lone_butt_are_still_counted():
    # every butt touches another: the butt's size must come from the piles themselves
    piles = [["yellow", "blue", "pink"], ["green", "gray", "white"], ["khaki", "black", "pink"]]
    butts = [(c, (x, 380 + k * 20.0), 0.0) for x, pile in zip((250, 640, 1030), piles, strict=True)
             for k, c in enumerate(pile)]
    seen = tokens.read(_table(WOOD, butts, shadow=0.7)).objects
    assert sorted((o["group"], o["colour"]) for o in seen) == sorted(
        (g, c) for g, pile in enumerate(piles, start=1) for c in pile)


@pytest.mark.parametrize(("seed", "colour", "centre"), [(58, "yellow", (481, 405)), (58, "yellow", (290, 391))])
def test_a_dense_pile_does_not_hide_its_own_butts(seed, colour, centre):
    # tuning scene where eight butts fill zone 1: an intermediate version that searched the zones with a
    # table estimate taken from the pile itself lost both yellows
    frame, truth = render.scene(seed, with_mat=True)
    seen = tokens.read(frame).objects
    pairs = bench_tokens.match(truth, seen)
    near = [(truth[i], seen[j]) for i, j in pairs if j is not None and truth[i]["colour"] == colour
            and abs(truth[i]["box"][0] + truth[i]["box"][2] / 2 - centre[0]) < 40
            and abs(truth[i]["box"][1] + truth[i]["box"][3] / 2 - centre[1]) < 40]
    assert near and all(s["colour"] == colour for _, s in near)
