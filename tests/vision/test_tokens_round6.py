"""Bag of Butts reader on the mat, round 6: a butt lit brighter than the mat's white patch keeps its
colour (the white patch's correction used to clip it at 255, so a pink butt on the red zone read
white)."""

from __future__ import annotations

import numpy as np
import pytest

from vision import bench_tokens, mat, tokens
from vision.render import tokens as render


@pytest.mark.parametrize("seed", [10106, 10118, 10236])
def test_a_pink_butt_brighter_than_the_white_patch_reads_pink(seed):
    # tuning scenes where the white patch lies in the mat's darker part: the pink butts there read
    # white with the clipped correction
    frame, truth = render.scene(seed, with_mat=True)
    seen = tokens.read(frame).objects
    pinks = [(i, j) for i, j in bench_tokens.match(truth, seen) if truth[i]["colour"] == "pink"]
    assert pinks and all(j is not None and seen[j]["colour"] == "pink" for _, j in pinks)


def test_the_unclipped_correction_agrees_with_the_clipped_one_below_255():
    white, grey = np.float32([80, 90, 102]), np.float32([45, 54, 61])
    clipped = mat.correction_luts(white, grey)
    free = mat.correction_luts(white, grey, clip=False)
    below = clipped < 255
    assert np.allclose(free[below], clipped[below]) and free.max() > 300
