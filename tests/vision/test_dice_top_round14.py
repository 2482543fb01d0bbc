"""Fourteenth session (dicetop8): more real top-down dice read right.

- Touching dice of one colour link their pips into one group of six (a four and a two, a three and
  three pips of a four); a group far off a six's layout, cut at its one clearly longest link,
  is read as the faces of two dice (vision.dice._two_dice_linked).
- A die-first blob whose most contrasting spot is a speck of another size than its pips is tried
  again with the other spots' sizes (vision.dice_body._outline_sizes).
- A three read as a two (a centre and a corner pip) is checked for the die around it across
  pip-wide holes in the foreground: white pips on a white table are holes (vision.dice._reach with a gap).

The real photos are from the development split only (vision.bench_dice.split_of: never a test-split
photo); those tests skip when the shared photo folder is not there.
"""

from __future__ import annotations

from typing import Any

import numpy as np
import pytest

from tests.vision.photos import dev_photo, read_at
from vision import bench_dice, dice


def _read_dice(
    name: str, centres: list[tuple[int, int]], folder: str = "topdown"
) -> list[tuple[int, int | None]]:
    """(labelled pips, read pips or None) of the labelled dice whose boxes hold these points."""
    frame, truth = dev_photo(name, folder)
    found = dice.read(frame).objects
    read = {j: found[i]["pips"] for i, j in bench_dice.match(found, truth)}
    out = []
    for x, y in centres:
        [j] = [
            j
            for j, t in enumerate(truth)
            if t["box"][0] <= x <= t["box"][0] + t["box"][2] and t["box"][1] <= y <= t["box"][1] + t["box"][3]
        ]
        out.append((truth[j]["pips"], read.get(j)))
    return out


@pytest.mark.parametrize(
    ("name", "centres"),
    [
        # a maroon four (read six) and the two it touches (missed)
        ("img_0027.jpg", [(298, 297), (304, 323)]),
        # a red three (read six) and two fours (missed)
        ("img_0055.jpg", [(267, 233), (283, 272), (321, 255)]),
        # a five linked with a neighbour's pip (read six)
        ("img_0066.jpg", [(304, 310)]),
        # two touching pink dice, a two (missed) and a four (read six)
        ("img_0120.jpg", [(282, 445), (276, 422)]),
    ],
)
def test_touching_dice_are_read_one_by_one(name: str, centres: list[tuple[int, int]]) -> None:
    """Every labelled die here is found and read with its own count (before: a six read over two
    touching dice, and the other die missed)."""
    for truth, read in _read_dice(name, centres):
        assert read == truth


def test_three_in_a_blob_with_a_speck_is_read() -> None:
    """img_0052's 50 px three, whose blob's most contrasting spot is a 2-3 px speck, is found and
    read three (before: missed)."""
    assert read_at("img_0052.jpg", 298, 465) == (3, 3)


def test_three_with_glare_on_a_pale_tray_is_read() -> None:
    """img_0193's green three with white pips (one corner pip under a glare streak, lost by the
    pip search) is read three, not two: the die runs on around its centre pip across the white
    pips' holes in the foreground."""
    assert read_at("img_0193.jpg", 378, 316) == (3, 3)


def _pips(xy: list[tuple[float, float]], d: float = 6.0) -> list[dice.Pip]:
    return [dice.Pip(x, y, d, d, True, 40.0, 200.0, 1.0) for x, y in xy]


def test_a_six_is_not_cut_but_a_four_and_a_two_are() -> None:
    """A six's exact layout is never cut; a four beside a two's pips (one long link) is."""
    six = [(100 + 10 * c, 100 + 9 * r) for c in (0, 1) for r in (0, 1, 2)]
    assert not dice._two_dice_linked(_pips(six))
    four = [(100, 100), (112, 100), (100, 112), (112, 112)]
    two = [(133, 118), (145, 130)]
    assert dice._two_dice_linked(_pips(four + two))
    parts = sorted(len(p) for p in dice._split_group(_pips(four + two)))
    assert parts == [2, 4]


def test_slanted_six_scattered_into_single_pips_is_not_cut(monkeypatch: pytest.MonkeyPatch) -> None:
    """The oblique webcam's dice_42 holds a six-pip group (a three and pips of side faces) that the
    cut would scatter into a three and three single pips: it is not cut, and no false die is read
    (a false three there with a looser rule)."""
    seen: list[bool] = []
    rule = dice._two_dice_linked

    def watched(face: Any) -> bool:
        got = rule(face)
        if len(face) == 6:
            seen.append(got)
        return got

    monkeypatch.setattr(dice, "_two_dice_linked", watched)
    frame, truth = dev_photo("dice_42.jpg", "oblique")
    found = dice.read(frame).objects
    assert seen and not any(seen)
    assert len(bench_dice.match(found, truth)) == len(found)


def test_reach_runs_across_a_pip_wide_hole_only() -> None:
    """_reach with a gap goes on over a hole one pip wide in the foreground, not over a wider gap."""
    mask = np.zeros((40, 200), np.uint8)
    mask[10:30, 0:100] = 255
    mask[10:30, 40:45] = 0  # a pip's hole, 5 px
    fg = (mask, 1.0)
    q, u = np.float32([10, 20]), np.float32([1, 0])
    assert dice._reach(fg, q, u, 80.0) == 30.0
    assert dice._reach(fg, q, u, 80.0, 7.0) == 80.0
    assert dice._reach(fg, q, u, 120.0, 7.0) == 90.0  # the table beyond the die
    assert dice._reach(fg, q, u, 80.0, 4.0) == 30.0  # a hole wider than the gap allowed
