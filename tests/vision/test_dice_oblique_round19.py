"""Nineteenth session (dicereal): an oblique die's top one read over its front face.

On the real oblique webcam photos (white dice, black pips, a pale wooden table, seen at about 45
degrees) a die showing one was often lost: its pip linked with the pips of the die's front face
into one group that the body check refused, or, alone, refused because the body around it touches
the pale table. The front face lies below the one, its pips as large and as round as the one's
(both faces are foreshortened alike at 45 degrees) and its body darker (the table is lit from
above). `_top_one` now reads the one out of such a refused group, and `_ones_over_fronts` takes a
refused lone one back when such a front face lies below it, dropping that face if it was read.

Real photos are of the development split only (skipped when the shared photos are missing).
"""

from __future__ import annotations

from tests.vision.photos import dev_photo
from vision import bench_dice, dice
from vision.dice import Pip


def _reads(name: str) -> tuple[list[dict], list[dict], dict[int, int]]:
    frame, truth = dev_photo(name, "oblique")
    found = dice.read(frame).objects
    return found, truth, {j: i for i, j in bench_dice.match(found, truth)}


def test_five_ones_of_an_oblique_photo_are_read() -> None:
    """dice_42's five dice all show one (four of them linked with or refused beside their front
    faces): every one is read as one, and nothing else is read."""
    found, truth, m = _reads("dice_42.jpg")
    assert [t["pips"] for t in truth] == [1] * 5
    assert sorted(m) == list(range(5))
    assert all(found[m[j]]["pips"] == 1 for j in range(5))
    assert len(found) == 5


def test_a_one_is_read_and_its_front_five_is_no_die() -> None:
    """dice_38's top die shows one over a front face of five: the one is read, the five is not
    read as a die of its own (the frame's four ones, and no false die)."""
    found, truth, m = _reads("dice_38.jpg")
    assert sorted(t["pips"] for t in truth) == [1, 1, 1, 1]
    assert sorted(m) == list(range(len(truth)))
    assert all(found[m[j]]["pips"] == 1 for j in range(len(truth)))
    assert len(found) == len(truth)


def test_a_lone_one_refused_on_the_pale_table_is_read() -> None:
    """dice_46's die at (260, 150) shows one, its side face's two below it: the one is read."""
    found, truth, m = _reads("dice_46.jpg")
    [j] = [j for j, t in enumerate(truth) if t["box"][0] <= 260 <= t["box"][0] + t["box"][2]
           and t["box"][1] <= 150 <= t["box"][1] + t["box"][3]]
    assert truth[j]["pips"] == 1
    assert j in m and found[m[j]]["pips"] == 1


def _pip(x: float, y: float, d: float = 10.0, body: float = 200.0) -> Pip:
    return Pip(x, y, d, 1.3 * d, True, 40.0, body, 1.0)


def test_under_one_is_a_front_face_below_darker_and_alike() -> None:
    """A one at (100, 100) over a front face of five (pips 10 px, its centre 45 px below, body 5 %
    darker) is read as the one's front face; not when the five's body is as light as the one's,
    when it lies beside the one rather than below, when its pips are nearer than two pip
    diameters below, or when its pips are three times the one's size."""
    one = _pip(100, 100)
    five = [(85, 135), (115, 135), (100, 145), (85, 155), (115, 155)]
    assert dice._under_one(one, [_pip(x, y, body=190.0) for x, y in five])
    assert not dice._under_one(one, [_pip(x, y, body=200.0) for x, y in five])
    assert not dice._under_one(one, [_pip(x + 50, y, body=190.0) for x, y in five])
    assert not dice._under_one(one, [_pip(x, y - 20, body=190.0) for x, y in five])
    assert not dice._under_one(one, [_pip(x, y, d=30.0, body=190.0) for x, y in five])
