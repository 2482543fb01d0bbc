"""Bag of Butts reader, ninth session: butts of one plain colour touching end to side on a bare
table (a pile the colour split cuts into rims and ridges, no piece a butt) are parted where they
touch, and each is found and read where it lies. Rendered tuning scenes the reader of cbe4468
missed these butts in."""

from __future__ import annotations

import pytest

from vision import tokens
from vision.render import tokens as render


def _readings_in(box, seen):
    x, y, w, h = box
    return [s["colour"] for s in seen
            if x <= s["box"][0] + s["box"][2] / 2 <= x + w and y <= s["box"][1] + s["box"][3] / 2 <= y + h]


@pytest.mark.parametrize(("seed", "colour", "boxes"), [
    (10168, "gray", [[493, 617, 60, 34], [460, 606, 24, 62]]),  # two gray butts, one against the other's side
    (20066, "gray", [[770, 594, 52, 58]]),  # a gray butt whose end touches another gray butt's side
    (10234, "gray", [[822, 325, 56, 24]]),  # a gray butt against a khaki one, with a strand of shadow
])
def test_touching_butts_of_one_colour_are_each_found(seed, colour, boxes):
    frame, truth = render.scene(seed, n=None, with_mat=False)
    for box in boxes:
        assert {"colour": colour, "box": box} in [{"colour": t["colour"], "box": t["box"]} for t in truth]
    seen = tokens.read(frame).objects
    for box in boxes:
        assert colour in _readings_in(box, seen), (box, _readings_in(box, seen))
