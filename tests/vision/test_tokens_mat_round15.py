"""Bag of Butts reader, fifteenth session, on the play mat.

A pink butt under a broad glare halo on the mat's red zone adds nearly the light the glare adds, so
its colour does not leave the glare's and it was cut away with the glare. Its outline is sharp where
the halo fades smoothly: it is now found where it stands above the glare's smooth course with a
steep outline (``_sharp_under_glare``, tokmat3's candidate), and read once the glare is taken off it.
Two kinds of glare piece also rise over that course and are refused: the bright ring of a halo bent
around a butt lying on the glare's middle (a butt is convex), and the brightest rows of a glare cut
by the end of the search (a zone's printed edge), whose rim outside the glare is mostly unsearched.

Rendered tuning scenes with the mat (seeds < 1000 and 10 000-99 999) that main's reader (c001226)
read wrong."""

from __future__ import annotations

import numpy as np
import pytest

from vision import tokens
from vision.bench_tokens import match
from vision.render import tokens as render


@pytest.mark.parametrize(
    "seed, box, colour",
    [
        (30005, [953, 443, 83, 51], "pink"),  # a pink butt inside a halo beside a blue one
        (30007, [174, 337, 82, 78], "pink"),  # a pink butt on a halo's flank
        (28, [699, 409, 51, 65], "pink"),  # a pink butt at a halo's edge
        (10135, [613, 461, 82, 96], "pink"),  # two pinks under one halo
        (10135, [492, 475, 56, 109], "pink"),
        (10089, [469, 493, 69, 98], "pink"),  # was an extra pink beside its place at confidence 0.18
    ],
)
def test_a_butt_under_a_glare_halo_is_read(seed, box, colour):
    frame, truth = render.scene(seed, with_mat=True)
    seen = tokens.read(frame).objects
    i = next(k for k, t in enumerate(truth) if t["box"] == box)
    assert truth[i]["colour"] == colour
    j = dict(match(truth, seen))[i]
    assert j is not None, "the butt under the glare was missed"
    assert seen[j]["colour"] == colour
    assert seen[j]["group"] == truth[i]["group"]
    if seed == 10089:
        assert len(seen) == len(truth), "an extra butt is read"


def _windows(monkeypatch, seed):
    """Every glare window ``_sharp_under_glare`` is asked about while mat scene ``seed`` is read, and
    the reading."""
    calls = []
    real = tokens._sharp_under_glare

    def spy(along, glare, free, half, searched=None):
        calls.append(
            (along.copy(), glare.copy(), free.copy(), half, None if searched is None else searched.copy())
        )
        return real(along, glare, free, half, searched)

    monkeypatch.setattr(tokens, "_sharp_under_glare", spy)
    frame, truth = render.scene(seed, with_mat=True)
    seen = tokens.read(frame).objects
    monkeypatch.setattr(tokens, "_sharp_under_glare", real)
    return calls, truth, seen


def _all_right(truth, seen):
    pairs = match(truth, seen)
    assert len(seen) == len(truth), "an extra butt is read"
    for i, j in pairs:
        assert j is not None
        assert (seen[j]["colour"], seen[j]["group"]) == (truth[i]["colour"], truth[i]["group"])


def test_a_bright_ring_bent_around_a_butt_on_the_glare_is_no_butt(monkeypatch):
    # mat 10 134: a halo's bright ring around the pink butt on its middle rises over the halo's course
    # with a steep enough outline and is long: without the convexity test it is kept (an extra pink
    # and an extra white, and the khaki beside it read white)
    calls, truth, seen = _windows(monkeypatch, 10134)
    _all_right(truth, seen)
    assert calls
    assert not any(tokens._sharp_under_glare(*c).any() for c in calls)
    monkeypatch.setattr(tokens, "GLARE_SHARP_SOLID", 0.0)
    assert any(tokens._sharp_under_glare(*c).any() for c in calls)


@pytest.mark.parametrize("seed", [78, 177])
def test_a_glare_cut_by_a_zones_printed_edge_is_no_butt(monkeypatch, seed):
    # a glare cut by a zone's printed edge (where the search ends): its brightest rows along the edge
    # stand over a course spread from one side only; their rim outside the glare is unsearched
    calls, truth, seen = _windows(monkeypatch, seed)
    _all_right(truth, seen)
    assert calls
    assert not any(tokens._sharp_under_glare(*c).any() for c in calls)
    assert any(tokens._sharp_under_glare(*c[:4]).any() for c in calls)  # not told where the search ended


def test_round_glare_core_is_no_butt():
    # a broad halo with a small bright round core on the red zone and no butt: nothing under the glare
    yy, xx = np.mgrid[0:60, 0:60].astype(np.float32)
    r2 = (xx - 30) ** 2 + (yy - 30) ** 2
    along = 150 * np.exp(-r2 / (2 * 15.0**2)) + 60 * np.exp(-r2 / (2 * 3.0**2))
    glare = along > 20
    free = ~glare
    assert not tokens._sharp_under_glare(along.astype(np.float32), glare, free, 6.0).any()


def test_sharp_butt_under_a_halo_is_kept():
    # the same halo with a butt-shaped plateau on its flank: the plateau is kept, the halo is not;
    # the same with the search area around it (all of it searched)
    yy, xx = np.mgrid[0:60, 0:60].astype(np.float32)
    r2 = (xx - 30) ** 2 + (yy - 30) ** 2
    along = 150 * np.exp(-r2 / (2 * 15.0**2))
    butt = (np.abs(yy - 22) <= 5) & (np.abs(xx - 30) <= 16)
    along[butt] += 60
    glare = along > 20
    for searched in (None, np.ones((62, 62), np.uint8)):
        out = tokens._sharp_under_glare(along.astype(np.float32), glare, ~glare, 6.0, searched)
        assert out[butt].mean() > 0.8
        assert not out[~butt].any() or out[~butt].sum() < 0.1 * butt.sum()


@pytest.mark.parametrize(
    "x, y, bw, bh", [(0, 0, 5, 4), (3, 2, 6, 5), (14, 9, 6, 5), (10, 0, 10, 14), (0, 7, 20, 7)]
)
def test_window1_is_the_window_one_pixel_wider(x, y, bw, bh):
    img = np.random.default_rng(x * 100 + y).integers(0, 255, (14, 20), dtype=np.uint8)
    ref = np.pad(img, 1)[y : y + bh + 2, x : x + bw + 2]
    assert np.array_equal(tokens._window1(img, x, y, bw, bh), ref)
