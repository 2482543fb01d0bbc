"""Twenty-first session (dicefast12): the die-first search reads a lone blob from its spots only when
its outline is shaped like one of the frame's dice.

vision.dice_body.find_dice reads a lone blob (or a part of a blob of touching dice) by spots sought
several ways (_inner_spots, _red_read with _red_face and _red_grid, _dark_spots dark and yellow),
every one of which ends in _outline_die on the same outline; _outline_die refuses an outline whose
rectangle is not OUTLINE_SIZE of the frame's dice, DIE_FILL full and at most DIE_ASPECT long,
whatever its spots. find_dice now asks that first (_die_shaped) and skips the searches there: the
readings are the same, the time of the searches is saved. And _red_grid returns at once where the
blob's reddest pixel proves that no grid's reddest cell can stand out of the body's spread
(GRID_PROOF).

Scenes are rendered tuning seeds (below 100 000); the real photos are from the development split
only (their tests skip when the shared photo folder is not there).
"""

from __future__ import annotations

import collections

import cv2
import numpy as np
import pytest

from tests.vision.dice_check import assert_die_right, render_reads
from tests.vision.photos import dev_photo
from vision import dice, dice_body
from vision.render import dice as render_dice

SPOT_PATHS = ("_inner_spots", "_red_read", "_dark_spots")


def _shaped(contour: np.ndarray, die_side: float) -> bool:
    """_outline_die's first test, written out here (bf26eee's words)."""
    (_, _), (rw, rh), _ = cv2.minAreaRect(contour)
    side = max(rw, rh)
    fill = float(cv2.contourArea(contour)) / max(rw * rh, 1.0)
    aspect = side / max(min(rw, rh), 1.0)
    return not (not dice_body.OUTLINE_SIZE[0] * die_side <= side <= dice_body.OUTLINE_SIZE[1] * die_side
                or fill < dice_body.DIE_FILL or aspect > dice_body.DIE_ASPECT)


def _asked(monkeypatch: pytest.MonkeyPatch, frame: np.ndarray) -> collections.Counter:
    """The spot searches find_dice asks while ``frame`` is read, by whether their outline is die-shaped."""
    asked: collections.Counter = collections.Counter()

    def spy(name: str):
        f = getattr(dice_body, name)

        def call(fr, contour, die_side, *a, **k):
            asked[(name, _shaped(contour, die_side))] += 1
            return f(fr, contour, die_side, *a, **k)
        return call

    for name in SPOT_PATHS:
        monkeypatch.setattr(dice_body, name, spy(name))
    dice.read(frame)
    return asked


def test_no_spot_search_on_an_outline_no_die_could_have(monkeypatch: pytest.MonkeyPatch) -> None:
    """Scenes 0, 4 and 8 hold blobs no die's outline could be (a shadow, touching dice, the
    table's print): bf26eee sought red and dark spots in them (scene 0: 2 red reads, 4 dark
    searches); now no spot search runs on such an outline, and the die-shaped ones are still searched."""
    shaped = 0
    for seed in (0, 4, 8):
        asked = _asked(monkeypatch, render_dice.scene(seed)[0])
        assert not [k for k in asked if not k[1]], f"scene {seed}: {dict(asked)}"
        shaped += sum(asked.values())
    assert shaped > 0


def test_die_shaped_is_outline_dies_own_test() -> None:
    """_die_shaped agrees with _outline_die's test on 400 outlines (squares, oblongs, notched
    squares, discs at many sizes and angles), and _outline_die reads a die only on an outline it passes."""
    rng = np.random.default_rng(21)
    frame = np.full((200, 200, 3), 200, np.uint8)
    both = collections.Counter()
    for _ in range(400):
        w, h = rng.uniform(8, 70), rng.uniform(8, 70)
        ang = np.radians(rng.uniform(0, 90))
        r = np.array([[np.cos(ang), -np.sin(ang)], [np.sin(ang), np.cos(ang)]])
        kind = rng.integers(3)
        if kind == 0:
            pts = np.array([[-w, -h], [w, -h], [w, h], [-w, h]]) / 2
        elif kind == 1:
            pts = np.array([[-w, -h], [w, -h], [w, 0], [0, 0], [0, h], [-w, h]]) / 2
        else:
            t = np.linspace(0, 2 * np.pi, 24, endpoint=False)
            pts = np.stack([np.cos(t) * w, np.sin(t) * w], 1) / 2
        c = (pts @ r.T + 100).astype(np.float32).reshape(-1, 1, 2)
        die_side = float(rng.uniform(15, 60))
        ok = dice_body._die_shaped(c, die_side)
        assert ok == _shaped(c, die_side)
        both[ok] += 1
        # a four's pips in the outline's middle
        s = 0.25 * die_side
        spots = [(100 + s * u, 100 + s * v, 0.15 * die_side) for u, v in ((-1, -1), (1, -1), (-1, 1), (1, 1))]
        if not ok:
            assert dice_body._outline_die(frame, c, die_side, spots) is None
    assert both[True] > 40 and both[False] > 40


def _read(frame: np.ndarray, monkeypatch: pytest.MonkeyPatch, first: bool) -> list:
    """The dice read with both proofs on (``first``) or off."""
    monkeypatch.setattr(dice_body, "SHAPE_FIRST", first, raising=False)
    monkeypatch.setattr(dice_body, "GRID_PROOF", first, raising=False)
    return dice.read(frame).objects


@pytest.mark.parametrize("name", ["img_0135.jpg", "img_0006.jpg"])
def test_red_grid_proof_gives_the_grid_search_answer(name: str, monkeypatch: pytest.MonkeyPatch) -> None:
    """Every _red_grid call of a read of img_0135 (red-pipped dice read at their grid) and img_0006
    (white and black dice: blobs with no red) gives the same die with GRID_PROOF on as with every
    grid laid (a proof that refused a red face would lose img_0135's dice)."""
    calls = []
    grid = dice_body._red_grid

    def both(*a, **k):
        monkeypatch.setattr(dice_body, "GRID_PROOF", False, raising=False)
        slow = grid(*a, **k)
        monkeypatch.setattr(dice_body, "GRID_PROOF", True, raising=False)
        fast = grid(*a, **k)
        calls.append((None if slow is None else vars(slow), None if fast is None else vars(fast)))
        return fast

    monkeypatch.setattr(dice_body, "_red_grid", both)
    dice.read(dev_photo(name)[0])
    assert calls
    assert all(slow == fast for slow, fast in calls)
    if name == "img_0135.jpg":
        assert any(slow is not None for slow, _ in calls)
    else:
        assert all(slow is None for slow, _ in calls)


@pytest.mark.parametrize("name", ["img_0043.jpg", "img_0135.jpg", "img_0053.jpg", "img_0136.jpg"])
def test_real_dice_read_by_the_lone_blob_paths_read_the_same(name: str, monkeypatch: pytest.MonkeyPatch) -> None:
    """Dev photos whose dice the lone-blob paths read (img_0043's gold six from its dark pips,
    img_0135's red-pipped dice at their grid, img_0053's smoky five and img_0136's smoky six from
    their cut blob) read the same whether the outline's shape is asked first or not."""
    frame, _ = dev_photo(name)
    assert _read(frame, monkeypatch, True) == _read(frame, monkeypatch, False)


def test_rendered_dice_read_by_the_lone_blob_paths_read_the_same(monkeypatch: pytest.MonkeyPatch) -> None:
    """Buttons rolls 69's and 10 089's sixes (white, gold pips: the yellow path) are still read
    right, and they and scenes 0, 8 and 10 (red reads on outlines no die has) read the same with
    the shape asked first or not."""
    for seed in (69, 10089):
        found, truth, m = render_reads(seed, buttons=True)
        assert_die_right(found, truth, m, 0)
    for seed, buttons in ((69, True), (10089, True), (0, False), (8, False), (10, False)):
        frame = render_dice.scene(seed, kinds=render_dice.BUTTONS_SET if buttons else None)[0]
        assert _read(frame, monkeypatch, True) == _read(frame, monkeypatch, False), seed
