"""Twentieth session (dicetwos): a two whose pips the search linked with a spot below them is no
oblique one over its front face.

`_top_one` (nineteenth session, dicereal) reads the topmost pip of a refused group as an oblique
die's one when the rest of the group lies below it as the die's front face, darker than the one's
top face. The front pips' bodies were taken by their median, so a two's second pip (on the same
lit top face, its body as light as the first's) with one darker spot below it passed, and the two
was read one. Every front pip's body must now be darker than the one's (`ONE_FRONT_EACH`).

Scenes are rendered tuning seeds (below 100 000): never the held-out seeds.
"""

from __future__ import annotations

from tests.vision.dice_check import assert_die_right, render_reads
from vision import dice
from vision.dice import Pip


def test_a_two_linked_with_a_spot_below_is_read_two() -> None:
    """Buttons roll 40 136's black two at (661, 238) (its pips linked with a front pip below, the
    group refused) is read two, not one, and the frame's other dice stay right."""
    found, truth, m = render_reads(40136, buttons=True)
    [j] = [j for j, t in enumerate(truth) if round(t["box"][0]) == 661 and round(t["box"][1]) == 238]
    assert truth[j]["pips"] == 2
    assert_die_right(found, truth, m, j)
    assert sum(j in m and found[m[j]]["pips"] == t["pips"] for j, t in enumerate(truth)) == len(truth)


def _pip(x: float, y: float, d: float = 10.0, body: float = 200.0) -> Pip:
    return Pip(x, y, d, 1.3 * d, True, 40.0, body, 1.0)


def test_a_pip_as_lit_as_the_one_is_no_front_pip() -> None:
    """A pip at (100, 100) with a second pip as large, 25 px lower right on a body as light (a
    two's other pip), and a darker spot 40 px below: no one over its front face. With both lower
    pips darker it still is."""
    one = _pip(100, 100)
    assert not dice._under_one(one, [_pip(120, 125, body=200.0), _pip(98, 140, body=120.0)])
    assert dice._under_one(one, [_pip(120, 125, body=190.0), _pip(98, 140, body=120.0)])
