"""Twenty-first session, second round (dicefront): an oblique one whose front face has one pip lit
as the one (a glare) is still read as one.

`_under_one` (dicereal) takes the pips below an oblique die's top one as its front face when their
bodies are darker than the one's (a lamp above lights the top face more than the vertical front
face). dicetwos asked it of every front pip (`ONE_FRONT_EACH`: a two's other pip lies on the lit
top face), so a glare on one front pip's body lost the one. A single lit front pip is now allowed
when at least two front pips are darker and it does not lie above their top row (a two's other pip
lies on the top face, above the front face).

Real photos are of the development split only (skipped when the shared photos are missing); the
glare is painted on in the test.
"""

from __future__ import annotations

import cv2
import numpy as np

from tests.vision.photos import dev_photo
from vision import bench_dice, dice
from vision.dice import Pip


def _glare(frame: np.ndarray, x: float, y: float, r: float, k: float) -> np.ndarray:
    """The frame with the body (not the dark pip) within ``r`` px of (x, y) lit ``k`` times."""
    img = frame.astype(np.float32)
    yy, xx = np.mgrid[: img.shape[0], : img.shape[1]]
    disc = (xx - x) ** 2 + (yy - y) ** 2 <= r * r
    g = cv2.cvtColor(frame, cv2.COLOR_BGR2GRAY).astype(np.float32)
    m = disc & (g > 0.6 * np.median(g[disc]))
    img[m] = np.minimum(img[m] * k, 255)
    return img.astype(np.uint8)


def test_a_one_over_a_front_five_with_a_glare_on_one_pip_is_read() -> None:
    """dice_42's one at (177, 177) over its front five, with the body around the five's lower left
    pip (170, 231) lit 5 % (its ring then 1.02 of the one's, the other four 0.97-0.98): the
    frame's five ones are still all read as ones, with nothing else."""
    frame, truth = dev_photo("dice_42.jpg", "oblique")
    found = dice.read(_glare(frame, 170.5, 231.5, 8.0, 1.05)).objects
    m = {j: i for i, j in bench_dice.match(found, truth)}
    assert [t["pips"] for t in truth] == [1] * 5
    assert sorted(m) == list(range(5))
    assert all(found[m[j]]["pips"] == 1 for j in range(5))
    assert len(found) == 5


def _pip(x: float, y: float, d: float = 10.0, body: float = 200.0) -> Pip:
    return Pip(x, y, d, 1.3 * d, True, 40.0, body, 1.0)


def test_one_lit_front_pip_among_darker_ones() -> None:
    """A one at (100, 100) over a front four 35-50 px below: taken with one front pip as lit as the
    one, not with two; a two's other pip 25 px lower right as lit as the one, above two darker
    spots, is still no front pip."""
    one = _pip(100, 100)
    four = [(90, 135), (110, 135), (90, 150), (110, 150)]
    assert dice._under_one(one, [_pip(x, y, body=b) for (x, y), b in zip(four, (180, 180, 205, 180), strict=True)])
    assert dice._under_one(one, [_pip(x, y, body=b) for (x, y), b in zip(four, (205, 180, 180, 180), strict=True)])
    assert not dice._under_one(one, [_pip(x, y, body=b) for (x, y), b in zip(four, (205, 180, 205, 180), strict=True)])
    assert not dice._under_one(one, [_pip(120, 125, body=200.0), _pip(98, 140, body=120.0),
                                     _pip(112, 142, body=120.0)])
