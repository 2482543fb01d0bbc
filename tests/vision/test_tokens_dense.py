"""Bag of Butts reader, round 4: dense piles of large butts on the mat, butts and glare spots under
and beside glare, small butts on a bare table (each failed with the round-3 reader)."""

from __future__ import annotations

import cv2
import numpy as np
import pytest

from vision import bench_tokens, tokens
from vision.render import tokens as render


def _wrong(seed: int, with_mat: bool) -> list[tuple[str, str | None]]:
    """(true colour, read colour or None) of every butt read wrong in a rendered tuning scene, plus
    ("extra", colour) for detections of nothing."""
    frame, truth = render.scene(seed, with_mat=with_mat)
    seen = tokens.read(frame).objects
    pairs = bench_tokens.match(truth, seen)
    wrong = [(truth[i]["colour"], None if j is None else seen[j]["colour"]) for i, j in pairs
             if j is None or seen[j]["colour"] != truth[i]["colour"] or seen[j]["group"] != truth[i]["group"]]
    used = {j for _, j in pairs}
    return wrong + [("extra", s["colour"]) for j, s in enumerate(seen) if j not in used]


@pytest.mark.parametrize("seed", [50, 100, 173])
def test_a_dense_pile_of_large_butts_on_the_mat_is_read_whole(seed):
    # tuning scenes where the camera is close and a zone is crowded: the table estimate used to take
    # the butts' colours in (173: eleven butts of one zone lost, 100 and 50: three each)
    assert _wrong(seed, with_mat=True) == []


@pytest.mark.parametrize("seed", [2, 28, 144])
def test_small_butts_on_a_bare_table_are_split_and_counted(seed):
    # tuning scenes with the camera far from the table: touching butts a few pixels wide used to merge
    # or vanish (2: three lost, 28: three pinks lost, 144: two lost and four in the wrong pile); now
    # at most one faint butt of each scene is missed
    assert len(_wrong(seed, with_mat=False)) <= 1


def _glared(colour: str, amount: float) -> tuple[list[dict], list[dict]]:
    """A mat scene of three butts with a glare spot of ``amount`` levels over the third (``colour``)."""
    frame, truth = render.scene(11, colours=["blue", "green", colour], with_mat=True, effects_on=False)
    x, y, w, h = truth[2]["box"]
    r = int(0.03 * frame.shape[1])
    spot = np.zeros(frame.shape[:2], np.float32)
    cv2.circle(spot, (x + w // 2 + r // 2, y + h // 2), r, 1.0, -1)
    spot = cv2.GaussianBlur(spot, (0, 0), r / 2 + 1)
    glared = np.clip(frame.astype(np.float32) + spot[..., None] * amount, 0, 255).astype(np.uint8)
    return truth, tokens.read(glared).objects


def test_a_blue_butt_under_a_glare_spot_on_the_mat_is_read():
    truth, seen = _glared("blue", 120)
    pairs = dict(bench_tokens.match(truth, seen))
    assert pairs[2] is not None and seen[pairs[2]]["colour"] == "blue", seen


@pytest.mark.parametrize("colour", ["gray", "white"])
def test_a_butt_under_strong_glare_is_still_counted(colour):
    # the glare is taken out of the blob, but the butt it covers stays (its colour under the glare is
    # not always right: see docs/bench/tokens.md)
    truth, seen = _glared(colour, 180)
    pairs = dict(bench_tokens.match(truth, seen))
    assert pairs[2] is not None and len(seen) == 3, seen


@pytest.mark.parametrize("seed", [0, 57])
def test_a_small_glare_spot_touching_a_pile_is_not_read_as_pink_butts(seed):
    # tuning scenes where a glare spot too small for the broad-glare check touches a pile: it was
    # counted into the pile and split off as one or two pink butts
    assert _wrong(seed, with_mat=True) == []
