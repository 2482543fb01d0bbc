"""Fifteenth session (dicetop10): a neighbouring die seen from above is no side face.

In a top-down tray photo, a die of the same colour beside another, in a shadow or a darker part of
the frame, looked like the other's side face to vision.dice._drop_side_faces ("darker", or "below
with narrower pips") and was dropped. vision.dice._top_of_own keeps it when it is square-on (round
pips, four or more of them in a die's exact layout, or a body of another colour), a die's width
away, beside a face that is in its own exact layout too (a lone pip does not show the view is
square-on: render scene 50's side face stays dropped).

The real photos are from the development split only (vision.bench_dice.split_of: never a
test-split photo); their tests skip when the shared photo folder is not there.
"""

from __future__ import annotations

from typing import Any

import numpy as np

from tests.vision.photos import read_at
from vision import dice
from vision.render import dice as render_dice


def test_six_beside_a_brighter_four_is_read() -> None:
    """img_0003's six next to a brighter four of its colour (dropped as the four's darker side face
    before: missed) is read six."""
    assert read_at("img_0003.jpg", 406, 153) == (6, 6)


def test_six_below_a_brighter_six_is_read() -> None:
    """img_0110's six below a brighter six of its colour (missed before) is read six."""
    assert read_at("img_0110.jpg", 271, 405) == (6, 6)


def test_four_below_a_three_with_larger_pips_is_read() -> None:
    """img_0196's white four below a white three with larger pips ("below and narrower" before:
    missed) is read four."""
    assert read_at("img_0196.jpg", 272, 349) == (4, 4)


def _face(
    layout: list[tuple[float, float]], x: float, y: float, pitch: float, d: float, flat: float = 1.0
) -> dict[str, Any]:
    """A face dict as vision.dice._faces_of makes it: pips at ``layout`` (pitch units) around (x, y)."""
    pips = [dice.Pip(x + u * pitch, y + v * pitch, d, flat * d, True, 40.0, 200.0, 1.0) for u, v in layout]
    return {
        "face": pips,
        "count": len(pips),
        "x": x,
        "y": y,
        "size": 2 * pitch + 2.4 * d,
        "flat": flat,
        "d": d,
    }


FOUR = [(-1.0, -1.0), (1.0, -1.0), (-1.0, 1.0), (1.0, 1.0)]
SIX = [(-1.0, -1.0), (1.0, -1.0), (-1.0, 0.0), (1.0, 0.0), (-1.0, 1.0), (1.0, 1.0)]
THREE = [(-1.0, -1.0), (0.0, 0.0), (1.0, 1.0)]


def test_top_of_own_needs_square_on_faces_a_die_apart() -> None:
    """A four in its exact layout with round pips a die's width from a six in its layout is a die of
    its own; not so a three (its line keeps its layout when foreshortened), flat pips, a face
    overlapping the six, a face beside a lone pip, or a five squashed across (a side face)."""
    six = _face(SIX, 100.0, 100.0, 10.0, 6.0)
    size = six["size"]
    assert dice._top_of_own(six, _face(FOUR, 100.0, 140.0, 10.0, 6.0), size)
    assert not dice._top_of_own(six, _face(THREE, 100.0, 140.0, 10.0, 6.0), size)
    assert not dice._top_of_own(six, _face(FOUR, 100.0, 140.0, 10.0, 6.0, flat=1.5), size)
    assert not dice._top_of_own(six, _face(FOUR, 100.0, 115.0, 10.0, 6.0), size)
    one = _face([(0.0, 0.0)], 100.0, 100.0, 10.0, 15.0)
    assert not dice._top_of_own(one, _face(FOUR, 100.0, 140.0, 10.0, 6.0), size)
    squashed = _face([(u, 0.5 * v) for u, v in FOUR] + [(0.0, 0.0)], 100.0, 140.0, 10.0, 6.0)
    assert not dice._top_of_own(six, squashed, size)
    # another body colour: a two with round pips a die away is no side face of the six either
    assert dice._top_of_own(
        six, _face([(-1.0, -1.0), (1.0, 1.0)], 100.0, 140.0, 10.0, 6.0), size, same_colour=False
    )
    # render scene 50: below a dark die's pip read alone lies its side face (its pips fit a six's
    # layout); beside a lone pip it is not taken for a die of its own (no false six there)
    frame, _ = render_dice.scene(50)
    found = dice.read(frame).objects
    centres = [(o["box"][0] + 0.5 * o["box"][2], o["box"][1] + 0.5 * o["box"][3]) for o in found]
    assert not any(np.hypot(x - 287, y - 605) < 20 for x, y in centres)
