"""Bag of Butts reader, sixteenth session, on the play mat.

On the mat's red zone a glare's halo adds white light, which reads pink. When the glare's middle is
taken out of a blob (as glare, or as a butt under the glare) or the split of a pile cuts it away with
the butt it lies on, the band of halo left around it was read as a pink butt. Such a band is bent
around the taken middle and thin; a butt is a butt wide somewhere, and a thin piece of one is
straight. Such bands of added light are no longer read as butts (``_halo_ring``, mat only).

Rendered tuning scenes with the mat that main's reader (db02d74) read with an extra pink butt."""

from __future__ import annotations

import numpy as np
import pytest

from tests.vision.tokens_check import assert_read_right
from vision import tokens
from vision.bench_tokens import match
from vision.render import tokens as render


@pytest.mark.parametrize(
    "seed",
    [
        10061,  # the crescent of a halo left beside a pile: an extra pink
        10146,  # a halo's band beside a pile: an extra pink
        130,  # a halo's band cut out of a pile of three: an extra pink
        164,  # a lone crescent of halo where the glare's middle was taken out: an extra pink
    ],
)
def test_the_band_of_a_glare_halo_is_no_pink_butt(seed):
    frame, truth = render.scene(seed, with_mat=True)
    assert_read_right(frame, truth)


def test_the_halo_ring_around_a_glared_butt_end_is_no_pink_butt():
    # mat 176: a glare on a gray butt's end; the halo around it (its red channel clipped) was kept with
    # the butt as under the glare, and the split gave the ring a butt of its own
    frame, truth = render.scene(176, with_mat=True)
    seen = tokens.read(frame).objects
    pairs = match(truth, seen)
    assert all(j is not None for _, j in pairs)
    used = {j for _, j in pairs}
    assert [s for j, s in enumerate(seen) if j not in used] == []


def _piece(mask: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    ys, xs = np.nonzero(mask)
    return xs, ys


def test_a_thin_bent_band_of_light_is_a_ring_and_butts_are_not():
    half = 6.0
    light = np.float32([20, 20, 20])
    yy, xx = np.mgrid[0:60, 0:60]
    r = np.hypot(xx - 30, yy - 30)
    ring = (r >= 14) & (r < 18) & (xx < 40)  # a crescent 4 px wide around a taken middle
    assert tokens._halo_ring(light, *_piece(ring), half)
    assert not tokens._halo_ring(-light, *_piece(ring), half)  # light taken: a shadow's band, not glare
    butt = np.zeros((60, 60), bool)
    butt[20:32, 10:47] = True  # a butt lying alone
    assert not tokens._halo_ring(light, *_piece(butt), half)
    bar = np.zeros((60, 60), bool)
    bar[20:24, 10:47] = True  # a thin straight piece of a butt
    assert not tokens._halo_ring(light, *_piece(bar), half)
    ell = butt.copy()
    ell[20:57, 35:47] = True  # two butts joined end to side by a split: bent, but a butt wide
    assert not tokens._halo_ring(light, *_piece(ell), half)
