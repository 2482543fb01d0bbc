"""Dice reader, die-body checks: real development photos, dice of any colour, things that are no dice."""

from __future__ import annotations

import cv2
import numpy as np
import pytest

from vision import bench_dice, common, dice, dice_body

PHOTOS = bench_dice.shared_photos()
needs_photos = pytest.mark.skipif(PHOTOS is None, reason="shared dice photos not found (photos/dice)")

PIP_SPOTS = {1: [(0, 0)], 2: [(-1, -1), (1, 1)], 3: [(-1, -1), (0, 0), (1, 1)],
             4: [(-1, -1), (1, -1), (-1, 1), (1, 1)], 5: [(-1, -1), (1, -1), (0, 0), (-1, 1), (1, 1)],
             6: [(-1, -1), (1, -1), (-1, 0), (1, 0), (-1, 1), (1, 1)]}


def draw_die(img: np.ndarray, cx: int, cy: int, side: int, pips: int, body: tuple, pip: tuple) -> None:
    """A flat top-down die: a square body with round pips in the usual layout."""
    h = side // 2
    cv2.rectangle(img, (cx - h, cy - h), (cx + h, cy + h), body, -1, cv2.LINE_AA)
    for px, py in PIP_SPOTS[pips]:
        cv2.circle(img, (int(cx + px * 0.27 * side), int(cy + py * 0.27 * side)), max(side // 10, 2), pip, -1,
                   cv2.LINE_AA)


def table(colour=(150, 160, 165), size=(480, 640)) -> np.ndarray:
    rng = np.random.default_rng(0)
    img = np.zeros((*size, 3), np.uint8) + np.uint8(colour)
    noise = rng.normal(0, 3, img.shape)
    return np.clip(img + noise, 0, 255).astype(np.uint8)


def read_counts(frame: np.ndarray) -> list[int]:
    return sorted(o["pips"] for o in dice.read(frame).objects)


# --- real photos from the development split (the held-out split is in test_dice.py) ---------------

def _photo(folder: str, name: str) -> tuple[np.ndarray, list[dict]]:
    for path, truth in bench_dice.load_labels(PHOTOS, folder, "dev"):
        if path.name == name:
            return cv2.imread(str(path)), truth
    raise AssertionError(f"{name} is not in the {folder} development split")


@needs_photos
def test_a_tray_of_coloured_dice_is_read_die_by_die():
    # five dice of different colours about 35 px across; the pip-only reader got 2 of 5 right
    frame, truth = _photo("topdown", "img_0065.jpg")
    found = dice.read(frame).objects
    pairs = bench_dice.match(found, truth)
    assert len(found) == len(truth) == len(pairs)
    assert all(found[i]["pips"] == truth[j]["pips"] for i, j in pairs)


@needs_photos
def test_an_oblique_photo_with_clutter_gives_no_false_dice():
    # three ones on a wooden table next to a keyboard and a calculator; the pip-only reader saw six dice
    frame, truth = _photo("oblique", "dice_26.jpg")
    assert read_counts(frame) == [1, 1, 1]


# --- dice of any colour, found by their body ------------------------------------------------------------

@pytest.mark.parametrize("body, pip", [((170, 90, 30), (40, 40, 190)),  # blue with red pips
                                       ((40, 40, 190), (235, 235, 235)),  # red with white pips
                                       ((40, 200, 225), (20, 20, 20)),  # yellow with black pips
                                       ((30, 30, 32), (40, 40, 190))])  # black with red pips
def test_a_die_of_any_colour_is_counted(body, pip):
    frame = table()
    for k, (x, y) in enumerate([(120, 120), (320, 240), (520, 360)]):
        draw_die(frame, x, y, 34 + 8 * k, (2, 5, 6)[k], body, pip)
    frame = cv2.GaussianBlur(frame, (3, 3), 0)
    assert read_counts(frame) == [2, 5, 6]


def test_small_dice_twenty_pixels_across_are_counted():
    frame = table(size=(480, 640))
    for k, n in enumerate((3, 4, 5, 6)):
        draw_die(frame, 100 + 140 * k, 240, 22, n, (235, 235, 235), (20, 20, 20))
    frame = cv2.GaussianBlur(frame, (3, 3), 0)
    assert read_counts(frame) == [3, 4, 5, 6]


def test_a_clean_die_body_is_looked_at_with_its_own_pip_count():
    frame = table()
    draw_die(frame, 300, 200, 60, 4, (235, 235, 235), (20, 20, 20))
    # one found pip is enough to look at the die around it and count all of its pips
    b = dice_body.look(frame, [(300 - 16, 200 - 16, 12.0)], 80.0)
    assert b.kind == "die" and b.count == 4
    x, y, w, h = b.box
    assert abs(x + w / 2 - 300) <= 3 and abs(y + h / 2 - 200) <= 3 and 55 <= w <= 66


# --- things that are no dice ------------------------------------------------------------------------------

def test_grey_discs_on_a_white_strip_are_no_ones():
    # the tray photos have two grey discs on a white plate below the tray: round, alone, no die around
    frame = table()
    cv2.rectangle(frame, (0, 380), (639, 460), (235, 238, 240), -1)
    for x in (60, 580):
        cv2.circle(frame, (x, 420), 13, (150, 150, 150), -1, cv2.LINE_AA)
    draw_die(frame, 320, 180, 40, 3, (235, 235, 235), (20, 20, 20))
    assert read_counts(cv2.GaussianBlur(frame, (3, 3), 0)) == [3]


def test_bold_print_with_round_holes_gives_no_dice():
    # an 8's two holes look like touching pips of a six, a bold O's hole like a one
    frame = table(colour=(90, 120, 160))
    cv2.putText(frame, "8 88", (30, 200), cv2.FONT_HERSHEY_SIMPLEX, 2.4, (30, 30, 30), 7, cv2.LINE_AA)
    cv2.putText(frame, "GO", (200, 380), cv2.FONT_HERSHEY_DUPLEX, 3.0, (230, 230, 230), 9, cv2.LINE_AA)
    assert read_counts(cv2.GaussianBlur(frame, (3, 3), 0)) == []


def test_layout_fit_tells_a_face_from_a_row_of_spots():
    six = [(10, 10), (20, 10), (10, 15), (20, 15), (10, 20), (20, 20)]
    misfit, scale = dice_body.layout_fit(six)
    assert misfit < 0.01 and scale == pytest.approx(5.0, abs=0.01)
    rotated = [(x * 0.8 - y * 0.6, x * 0.6 + y * 0.8) for x, y in six]
    assert dice_body.layout_fit(rotated)[0] < 0.01
    row = [(10 * k, 10) for k in range(6)]
    assert dice_body.layout_fit(row)[0] > 0.5
    bent_three = [(10, 10), (20, 12), (30, 31)]
    assert dice_body.layout_fit(bent_three)[0] > 0.3


def test_fast_median_and_percentile_give_numpys_values():
    # the body looks and the board decide on these values: the fast forms must not move a threshold by a bit
    rng = np.random.default_rng(3)
    for n in range(1, 40):
        rows = (rng.normal(size=(n, 3)) * 60).astype(np.float32)
        assert np.array_equal(common.median(rows), np.median(rows, 0))
        flat = np.float32(rng.integers(1, 500, size=n))
        assert common.median(flat) == np.median(flat)
        for q in (25, 70):
            assert common.percentile(flat, q) == np.percentile(flat, q)
            assert common.percentile(rows[:, 0], q) == np.percentile(rows[:, 0], q)
