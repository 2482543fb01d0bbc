"""Nineteenth session (dicerend5): an oblique die's top face read without its front face's pips
where those pips are neither squashed nor dimmer by two or more.

Seen at a slant, a die's four and the two pips of its front face in the four's columns below it
make a six's 2 x 3 layout; where the front pips are as round and as bright as the top's, the
reader read six. A six's rows lie on one flat face, evenly spaced (the nearer gap the larger under
perspective); a four's lower row and the front row lie on two faces at right angles, nearer
together: `_front_six` drops the lowest row when its gap is below `FRONT_ROWS` of the gap above it.
And a single dimmer pip below a two or a five is now dropped as the front face's when the face
with it lies in no die's exact layout (`_top_few(..., lone=True)` from `_front_row`).

Scenes are rendered tuning seeds (below 100 000): never the held-out seeds.
"""

from __future__ import annotations

from tests.vision.dice_check import assert_die_right, render_reads
from vision import dice
from vision.dice import Pip


def test_an_oblique_four_and_its_front_row_read_four() -> None:
    """Scene 41's white four and scene 10 121's (read six with the two front pips below them)
    and Buttons roll 10 146's black four are read right."""
    for seed, buttons, j in ((41, False, 5), (10121, False, 0), (10146, True, 5)):
        found, truth, m = render_reads(seed, buttons=buttons)
        assert_die_right(found, truth, m, j)


def test_a_single_dimmer_front_pip_is_dropped() -> None:
    """Buttons roll 41's black two (read three) and roll 10 006's black five (read six), each with
    one dimmer pip of the front face below it, are read right."""
    for seed, j in ((41, 5), (10006, 4)):
        found, truth, m = render_reads(seed, buttons=True)
        assert_die_right(found, truth, m, j)


def _face(pips: list[Pip], count: int | None = None) -> dict:
    return {"face": pips, "count": len(pips) if count is None else count, "x": 0.0, "y": 0.0, "size": 60.0,
            "d": 10.0, "flat": 1.1, "dark": pips[0].dark}


def _pip(x: float, y: float, pip_v: float = 200.0, d: float = 10.0, major: float = 10.5) -> Pip:
    return Pip(x, y, d, major, False, pip_v, 20.0, 1.0)


def test_front_six_cuts_only_an_uneven_lowest_row() -> None:
    """A four above a row of two as round and bright, its gap 0.7 of the four's: the four (its own
    centre); the same with the four foreshortened down the frame as much as its pips are: the four.
    Kept six: a six of even rows (even with its lowest gap 0.9 of the one above), a six lying across
    the frame with an uneven row, and a recounted face."""
    four = [_pip(-12, -12), _pip(12, -12), _pip(-12, 12), _pip(12, 12)]
    top = dice._front_row(_face(four + [_pip(-12, 29), _pip(12, 29)]))
    assert top["count"] == 4 and abs(top["y"]) < 0.5 and top["size"] < 50
    squat = [_pip(x, 0.8 * y, major=12.5) for x, y in ((-12, -12), (12, -12), (-12, 12), (12, 12))]
    assert dice._front_row(_face(squat + [_pip(-12, 24), _pip(12, 24)]))["count"] == 4
    six = [_pip(x, y) for y in (-16, 0, 16) for x in (-10, 10)]
    assert dice._front_row(_face(six))["count"] == 6
    six = [_pip(x, y) for y in (-16, 0, 14.4) for x in (-10, 10)]
    assert dice._front_row(_face(six))["count"] == 6
    across = [_pip(x, y) for x in (-24, 0, 17) for y in (-10, 10)]
    assert dice._front_row(_face(across))["count"] == 6
    assert dice._front_row(_face(four + [_pip(-12, 29), _pip(12, 29)], count=5))["count"] == 5


def test_a_lone_dim_pip_off_the_layout_is_the_front_faces() -> None:
    """A two's round pips on a diagonal and one dimmer pip below them, off a three's diagonal: the
    two. Kept three: a top-down three whose last pip is as dim, in its diagonal; and a dark-pipped
    face (dark pips keep to the squashed test)."""
    two = [_pip(-10, -10), _pip(10, 10)]
    top = dice._front_row(_face([*two, _pip(-10, 28, 120)]))
    assert top["count"] == 2
    three = [_pip(-16, -16), _pip(0, 0), _pip(16, 16, 120)]
    assert dice._front_row(_face(three))["count"] == 3
    dark = [Pip(p.x, p.y, p.d, p.major, True, 20.0, 200.0, 1.0) for p in [*two, _pip(-10, 28)]]
    dark[2].pip_v = 100.0
    assert dice._front_row(_face(dark))["count"] == 3
