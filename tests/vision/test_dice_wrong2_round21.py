"""Twenty-first session (dicewrong2): an oblique four whose near row of pips the camera sees
larger is cut from its front face's pips, not read six.

`_top_few` cuts an oblique die's top pips from the squashed, dimmer pips of its front face, but
only when the top pips are alike in size. On a die seen at a slant the near row of the top face is
closer to the camera and larger, so a diagonal pair differs by both rows' steps (Buttons roll 101:
21.9 and 27.6 px, 1.26 apart against the 1.25 allowed) and the four with its two front pips was
read six. `_alike_rows` compares the pips row by row, and the rows by their median sizes.

Scenes are rendered tuning seeds (below 100 000): never the held-out seeds.
"""

from __future__ import annotations

from types import SimpleNamespace

from tests.vision.dice_check import render_reads
from vision import dice


def test_oblique_four_with_a_larger_near_row_is_read_four() -> None:
    """Buttons roll 101's black-white four (read six before) is read four, and no die of the roll
    is read with another count than before."""
    found, truth, m = render_reads(101, buttons=True)
    assert truth[2]["pips"] == 4
    assert 2 in m, "roll 101: the four is missed"
    assert found[m[2]]["pips"] == 4, (found[m[2]], truth[2])
    assert not any(found[m[j]]["pips"] != t["pips"] for j, t in enumerate(truth) if j in m and j != 2)


def test_top_pips_alike_row_by_row() -> None:
    """Two rows whose pips are alike and whose medians are within 1.25 pass even when a diagonal
    pair is 1.26 apart; a row of unlike pips, or rows too unlike, do not."""
    def pips(rows: list[tuple[float, list[float]]]) -> list[SimpleNamespace]:
        return [SimpleNamespace(y=y, d=d) for y, ds in rows for d in ds]

    assert dice._alike_rows(pips([(312, [21.9, 23.3]), (357, [24.8, 27.6])]))
    assert not dice._alike_rows(pips([(312, [18.0, 23.3]), (357, [24.8, 27.6])]))
    assert not dice._alike_rows(pips([(312, [18.0, 18.5]), (357, [24.8, 25.6])]))
