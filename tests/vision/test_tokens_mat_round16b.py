"""Bag of Butts reader, sixteenth session (second mat task), on the play mat.

The search keeps off the mat zones' printed edges. A glare on the red zone whose middle lies on such
an edge is cut there: the half left inside the zone adds white light like a pink butt, is convex
(a half disc) and sharp along the cut, and was read as a pink butt. A glare is brightest in its
middle, so that half is brightest along the cut and fades away from it; a butt lying across the
edge adds its colour evenly along its length. Such halves are no longer read as butts
(``_cut_glare``, mat only).

Rendered tuning scenes with the mat that main's reader (98022e0) read with an extra pink butt."""

from __future__ import annotations

import numpy as np
import pytest

from vision import tokens
from vision.bench_tokens import match
from vision.render import tokens as render


@pytest.mark.parametrize(
    "seed",
    [
        30072,  # a lone half disc of glare along the zone's lower edge: an extra pink
        20116,  # a half disc cut by a printed border, split off a pile of pink butts: an extra pink
        50124,  # a half disc cut by a printed border, split off a blue butt: an extra pink
    ],
)
def test_a_glare_cut_by_a_zone_edge_is_no_pink_butt(seed):
    frame, truth = render.scene(seed, with_mat=True)
    seen = tokens.read(frame).objects
    pairs = match(truth, seen)
    assert all(j is not None for _, j in pairs), "a butt missed"
    used = {j for _, j in pairs}
    assert [s for j, s in enumerate(seen) if j not in used] == [], "extra butts read"


def _cut(light: np.ndarray, search: np.ndarray, piece: np.ndarray) -> bool:
    ys, xs = np.nonzero(piece)
    table = np.full(search.shape + (3,), 60, np.uint8)
    img = np.clip(table.astype(np.float32) + light[..., None], 0, 255).astype(np.uint8)
    add = img[ys, xs].astype(np.float32).mean(0) - table[ys, xs].astype(np.float32).mean(0)
    return tokens._cut_glare(add, img, table, search, xs, ys)


def test_a_half_glare_along_the_search_end_is_glare_and_a_butt_across_it_is_not():
    yy, xx = np.mgrid[0:60, 0:60]
    search = (yy < 40).astype(np.uint8)  # the zone ends at row 40 (its printed edge below)
    glare = 120.0 * np.exp(-((xx - 30) ** 2 + (yy - 41) ** 2) / (2 * 8.0 ** 2))  # a spot centred on the edge
    half_disc = (glare > 25) & (search > 0)
    assert _cut(glare.astype(np.float32), search, half_disc)
    butt = (xx >= 24) & (xx < 36) & (yy >= 10) & (yy < 40)  # a butt lying across the edge, cut there
    even = np.where(butt, 80.0, 0.0).astype(np.float32)
    assert not _cut(even, search, butt)
    inside = (xx >= 24) & (xx < 36) & (yy >= 5) & (yy < 30)  # a spot of glare away from the edge
    assert not _cut(glare.astype(np.float32), search, inside)
