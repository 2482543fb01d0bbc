"""Eleventh session (dicefalse): no false dice on printed text and key legends, nor on a side face
whose top face was missed, in the real oblique webcam photos.

- dice._print_beside: a two with no clean die around it whose face holds more pip-coloured matter
  beside its pips (the rest of a label's print, a key's legend) is no two;
- dice._drop_flat_unclean: a face with no clean die around it whose pips are much flatter than the
  frame's clean dice' is no top face.

The real photos are from the development split only (vision.bench_dice.split_of: never a test-split
photo); those tests skip when the shared photo folder is not there. The render is a tuning seed.
"""

from __future__ import annotations

import pytest

from tests.vision.photos import dev_photo
from vision import bench_dice, dice
from vision.render import dice as render_dice


def false_and_right(frame, truth) -> tuple[list[tuple[int, list[int]]], int]:
    """The dice read that match no labelled die (pips, box), and how many labelled dice were read
    with their right pip count."""
    found = dice.read(frame).objects
    pairs = bench_dice.match(found, truth)
    matched = {i for i, _ in pairs}
    false = [(o["pips"], o["box"]) for i, o in enumerate(found) if i not in matched]
    right = sum(found[i]["pips"] == truth[j]["pips"] for i, j in pairs)
    return false, right


@pytest.mark.parametrize(
    "name",
    [
        "five_16.jpg",  # the counters of the letters on a cable's white label read as a two
        "six_49.jpg",  # the same label, another frame
        "two_48.jpg",  # a key's legend on the laptop at the frame's top read as a two
        "five_19.jpg",  # three strokes of the label's print read as a three (flat pips)
        "six_51.jpg",  # the "command" key's legend at the frame's edge read as a two (flat pips)
    ],
)
def test_print_beside_the_dice_is_no_die(name: str) -> None:
    """Every die read in the photo is a labelled die, and every labelled die is read right (before:
    one more die, a two or a three, on the print)."""
    frame, truth = dev_photo(name, "oblique")
    false, right = false_and_right(frame, truth)
    assert false == []
    assert right == len(truth)


def test_rendered_print_is_no_die() -> None:
    """Tuning render 102: no die is read where none lies (before: a two on the clutter's print), and
    all four dice are read right."""
    frame, truth = render_dice.scene(102)
    false, right = false_and_right(frame, truth)
    assert false == []
    assert right == len(truth)
