"""Bag of Butts reader, fourteenth session, second round, on the play mat.

A pink butt under a broad glare halo on the mat's red zone adds nearly the light the glare adds, so
its colour does not leave the glare's and it was cut away with the glare. Its outline is sharp where
the halo fades smoothly: the butt is now found where it stands above the glare's smooth course with
a steep outline, and read pink once the glare is taken off it.

Rendered tuning scenes with the mat whose pink butt main's reader (d054dc7) missed."""

from __future__ import annotations

import numpy as np
import pytest

from vision import tokens
from vision.bench_tokens import match
from vision.render import tokens as render


@pytest.mark.parametrize(
    "seed, box",
    [
        (30005, [953, 443, 83, 51]),  # a pink butt inside a halo beside a blue one
        (30007, [174, 337, 82, 78]),  # a pink butt on a halo's flank
        (28, [699, 409, 51, 65]),  # a pink butt at a halo's edge
    ],
)
def test_pink_butt_under_a_glare_halo_is_read_pink(seed, box):
    frame, truth = render.scene(seed, with_mat=True)
    seen = tokens.read(frame).objects
    i = next(k for k, t in enumerate(truth) if t["box"] == box)
    assert truth[i]["colour"] == "pink"
    j = dict(match(truth, seen))[i]
    assert j is not None, "the pink butt under the glare was missed"
    assert seen[j]["colour"] == "pink"
    assert seen[j]["group"] == truth[i]["group"]


def test_round_glare_core_is_no_butt():
    # a broad halo with a small bright round core on the red zone and no butt: nothing under the glare
    yy, xx = np.mgrid[0:60, 0:60].astype(np.float32)
    r2 = (xx - 30) ** 2 + (yy - 30) ** 2
    along = 150 * np.exp(-r2 / (2 * 15.0**2)) + 60 * np.exp(-r2 / (2 * 3.0**2))
    glare = along > 20
    free = ~glare
    assert not tokens._sharp_under_glare(along.astype(np.float32), glare, free, 6.0).any()


def test_sharp_butt_under_a_halo_is_kept():
    # the same halo with a butt-shaped plateau on its flank: the plateau is kept, the halo is not
    yy, xx = np.mgrid[0:60, 0:60].astype(np.float32)
    r2 = (xx - 30) ** 2 + (yy - 30) ** 2
    along = 150 * np.exp(-r2 / (2 * 15.0**2))
    butt = (np.abs(yy - 22) <= 5) & (np.abs(xx - 30) <= 16)
    along[butt] += 60
    glare = along > 20
    out = tokens._sharp_under_glare(along.astype(np.float32), glare, ~glare, 6.0)
    assert out[butt].mean() > 0.8
    assert not out[~butt].any() or out[~butt].sum() < 0.1 * butt.sum()
