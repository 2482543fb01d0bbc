"""Bag of Butts reader, seventh session: a white butt on pale bare wood whose contact shadow differs
from the table as much as the butt does (together one faint piece two butts wide) is found, read
white, where it lies. Rendered tuning scenes the reader of 46fb70f missed it in."""

from __future__ import annotations

import pytest

from vision import tokens
from vision.render import tokens as render


@pytest.mark.parametrize("seed", [10060, 10116])
def test_a_white_butt_beside_its_own_shadow_on_pale_wood_is_found(seed):
    frame, truth = render.scene(seed, n=None, with_mat=False)
    seen = tokens.read(frame).objects
    whites = [t for t in truth if t["colour"] == "white"]
    assert whites
    for t in whites:
        x, y, w, h = t["box"]
        hits = [s for s in seen if x <= s["box"][0] + s["box"][2] / 2 <= x + w
                and y <= s["box"][1] + s["box"][3] / 2 <= y + h]
        assert [s["colour"] for s in hits] == ["white"], (t["box"], hits)
