"""Bag of Butts reader, nineteenth session (branch tokmat11), on the play mat.

A glare spot smaller than half the grey patch lifts the patch's median reading. The grey tells the
colour correction's per-channel gamma, and, where a warm lamp clips the white patch's red and green,
the white's true level in those channels (``mat.unclipped_white``): a lifted grey then reads greens
black, grays khaki and khakis yellow (tuning scene 50 082). The mat now also gives the grey patch's
grey patch's 10th percentile sample where the samples spread over ``GREY_UNEVEN`` of the median
with the median nearer the darker end (a bright spot on part of the patch; ``mat._patch_grey``,
moved from the token reader into ``find_mat`` in the twentieth session)."""

from __future__ import annotations

import numpy as np
import pytest

from vision import mat as matmod
from vision import tokens
from vision.bench_tokens import match
from vision.render import tokens as render

from .test_tokens_mat_round17 import _wrong  # (true, read) colours of a mat scene's wrong butts


@pytest.mark.parametrize(
    "seed",
    [
        50082,  # a warm lamp clips the white patch's red and green; a glare spot over the grey patch's
        # upper edge lifted its median from about (98, 143, 204) to (135, 179, 242): 2 greens read
        # black, 2 grays khaki and 4 khakis yellow
        10082,  # the grey patch's median lifted nearly to the white's by a glare spot: a khaki read gray
    ],
)
def test_a_glare_spot_on_the_grey_patch_leaves_the_colours_right(seed):
    assert _wrong(seed) == []


def _patched(frame: np.ndarray, change: float, glare: bool) -> np.ndarray:
    """The frame with a round glare spot added on (or a shadow laid over) the grey patch's upper
    left part, about 0.7 of the patch's height across (the patch itself is left otherwise as is)."""
    m = matmod.find_mat(frame)
    assert m is not None
    x0, y0, x1, y1 = matmod.GREY_PATCH
    c = m.to_frame(np.float32([[x0 + 0.3 * (x1 - x0), y0 + 0.25 * (y1 - y0)]]))[0]
    r = float(np.linalg.norm(m.to_frame(np.float32([[x0, y0]]))[0] - m.to_frame(np.float32([[x0, y1]]))[0]))
    yy, xx = np.mgrid[0:frame.shape[0], 0:frame.shape[1]]
    g = np.exp(-((xx - c[0]) ** 2 + (yy - c[1]) ** 2) / (2 * (0.35 * r) ** 2))[..., None]
    out = frame.astype(np.float32)
    out = out + change * g if glare else out * (1 - change * g)
    return np.clip(out, 0, 255).astype(np.uint8)


def _wrong_in(frame: np.ndarray, truth: list[dict]) -> list[tuple[str, str | None]]:
    seen = tokens.read(frame).objects
    return [(truth[i]["colour"], None if j is None else seen[j]["colour"]) for i, j in match(truth, seen)
            if j is None or seen[j]["colour"] != truth[i]["colour"]]


@pytest.mark.parametrize(
    ("seed", "levels"),
    [
        (2, 150),  # a cool lamp: main read 6 of 20 wrong (blues black, greens yellow)
        (8, 80),  # main read 2 wrong
    ],
)
def test_butts_keep_their_colour_when_a_glare_spot_lies_on_the_grey_patch(seed, levels):
    frame, truth = render.scene(seed, with_mat=True)
    assert _wrong_in(frame, truth) == []  # the scene as rendered reads right
    assert _wrong_in(_patched(frame, levels, glare=True), truth) == []


def test_a_shadow_over_part_of_the_grey_patch_keeps_its_median():
    # a shadow over part of the patch puts the median nearer the lighter end: the median is kept
    frame, _ = render.scene(2, with_mat=True)
    shaded = _patched(frame, 0.6, glare=False)
    m = matmod.find_mat(shaded)
    assert m is not None
    samples: list[np.ndarray] = []
    median = matmod._patch_readings(shaded, np.linalg.inv(m.homography), [matmod.GREY_PATCH], samples)[0]
    low = np.sort(samples[0], axis=0)[len(samples[0]) // 10]
    assert low.sum() < 0.8 * median.sum()  # the patch is uneven...
    assert np.array_equal(m.grey, median)  # ...but its median is read
