"""The play mat, twentieth session: a glare spot on the grey patch no longer skews the mat's reading.

The nineteenth session (tokmat11) read the grey patch under a glare spot by its 10th percentile
sample, but only inside the token reader: ``find_mat`` still handed the lifted median to
``prepare`` (the colour correction every mat reader can ask for) and to the calibration screen's
patch figures. The choice now lives in ``find_mat`` itself (``mat._patch_grey``), so every caller
reads the patch the same way."""

from __future__ import annotations

import numpy as np
import pytest

from ui.calibration import check_mat
from vision import mat
from vision.render import effects
from vision.render import mat as render_mat

from .test_tokens_mat_round19 import _patched  # a round glare spot on the grey patch's upper left part


def _frame(kelvin: float = 4500.0) -> np.ndarray:
    rng = np.random.default_rng(11)
    table = effects.wood_texture(960, 1280, rng)
    img, _ = render_mat.place_mat(table, rng)
    light = effects.Light(kelvin=kelvin, brightness=0.8, gradient=0.2, vignette=0.1)
    return effects.camera(effects.apply_light(img, light, rng), rng, blur=0.5, noise=2.0, jpeg=90)


def _unglared_part(frame: np.ndarray, m: mat.Mat) -> np.ndarray:
    """The median BGR of the grey patch's lower right part, which the glare spot does not reach."""
    x0, y0, x1, y1 = mat.GREY_PATCH
    rect = (x0 + 0.65 * (x1 - x0), y0 + 0.6 * (y1 - y0), x1 - 2, y1 - 2)
    return mat._patch_readings(frame, np.linalg.inv(m.homography), [rect])[0]


@pytest.mark.parametrize("level", [80, 150])
def test_prepare_keeps_the_grey_patch_neutral_under_a_glare_spot(level):
    # before: the glare lifted the grey reading and the correction tinted the grey (1.08 and 1.18
    # between the channels of the patch's part outside the glare)
    fixed, found = mat.prepare(_patched(_frame(), level, glare=True))
    assert found is not None
    part = _unglared_part(fixed, found)
    assert part.max() / part.min() < 1.03


def test_the_calibration_screen_shows_the_grey_patch_without_the_glare():
    plain = check_mat(_frame())
    seen = check_mat(_patched(_frame(), 150, glare=True))
    assert seen.problem == "" and plain.problem == ""
    # before: (108, 119, 133) against (73, 84, 98) without the spot
    assert max(abs(a - b) for a, b in zip(seen.grey, plain.grey, strict=True)) <= 3
