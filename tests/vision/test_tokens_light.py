"""Butts under a warm lamp that clips the red channel (a 2200 K cast on top of the scene's light, as
``vision.bench_light`` draws it): the white balance comes from the grey patch where the white one is
clipped, and on a bare table from the butts themselves, beyond the usual fit's reach."""

import numpy as np
import pytest

from vision import mat, tokens
from vision.bench_light import relit
from vision.bench_tokens import match
from vision.render import tokens as render


def _read_under_warm(seed: int, with_mat: bool) -> list[tuple[str, str]]:
    """(true colour, read colour or 'missed') of every butt of a rendered scene under the warm lamp."""
    frame, truth = render.scene(seed, n=None, with_mat=with_mat)
    seen = tokens.read(relit(frame, "warm")).objects
    return [(truth[i]["colour"], seen[j]["colour"] if j is not None else "missed") for i, j in match(truth, seen)]


@pytest.mark.parametrize("seed", [0, 8])
def test_white_and_gray_butts_on_the_mat_under_a_warm_lamp(seed):
    pairs = _read_under_warm(seed, with_mat=True)
    neutral = [(t, s) for t, s in pairs if t in ("white", "gray")]
    assert neutral, "the scene should hold white or gray butts"
    assert all(t == s for t, s in neutral), neutral  # read khaki when the clipped white patch balanced the light
    assert sum(t == s for t, s in pairs) >= len(pairs) - 1


def test_bare_table_under_a_warm_lamp_reads_gray_pink_white_and_blue():
    pairs = _read_under_warm(7, with_mat=False)
    assert {t for t, _ in pairs} >= {"gray", "pink", "white"}
    assert all(t == s for t, s in pairs), [p for p in pairs if p[0] != p[1]]  # 9 of 19 were wrong (mostly khaki)


def test_clipped_white_patch_channel_is_told_by_the_grey_patch():
    # red clipped at 255 on the white patch; the grey patch is read at half the white in blue and green
    white, grey = np.float32([60, 160, 255]), np.float32([30, 80, 200])
    told = mat.unclipped_white(white, grey)
    assert told[2] == pytest.approx(400.0)
    assert told[:2].tolist() == [60.0, 160.0]
    luts = mat.correction_luts(told, grey, clip=False, top_gain=16.0)
    balanced = [np.interp(grey[c], np.arange(256), luts[:, c]) for c in range(3)]
    assert max(balanced) - min(balanced) < 2.0  # the grey patch comes out neutral
    assert mat.unclipped_white(np.float32([255, 255, 255]), grey).tolist() == [255.0, 255.0, 255.0]
