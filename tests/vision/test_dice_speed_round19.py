"""Round 19 (speed): the recounts by colour (_layout_count, _centre_corner, _corners_mid) ask their
place checks before any colour, and sample their spots' colours at once.

_layout_count judged every spot of a layout by its median Lab colour, one np.median a spot (some 40
spots for a "three" that may be a six's column: about 3 ms of a read of the speed frame), and only
then asked whether the layout lay on one die. It now asks ``on_die`` first (a pure test of places),
returns 0 without blurring the window when no layout lies on a die, and samples every spot at once
(_LabSampler.many: each point placed in its own dtype's arithmetic, medians by partition: the same
values). _centre_corner and _corners_mid ask whether their spots lie in the frame and whether the
die runs on all round (_reach) before they sample any colour. _reach reads the foreground in Python
floats (the same float64 arithmetic as numpy's scalars). The readings are 3e38e0f's exactly
(docs/bench/dice.md, nineteenth session, branch dicefast9). These tests pin the recounts' readings
on drawn dice, compare the rewritten functions with 3e38e0f's code (copied below) on many calls,
and check that no colour is sampled where the places alone say no.
"""

from __future__ import annotations

import math

import cv2
import numpy as np
import pytest

from vision import dice, dice_body

from .test_dice_body import PIP_SPOTS, draw_die, table

SIDE = 60
WHITE, BLACK = (235, 235, 235), (30, 30, 30)


def _die_frame(pips: int, body: tuple = WHITE, pip: tuple = BLACK) -> tuple[np.ndarray, tuple[np.ndarray, float]]:
    """A drawn die of SIDE px at (160, 120) on a grey table, and the die-first search's foreground."""
    frame = table(size=(240, 320))
    draw_die(frame, 160, 120, SIDE, pips, body, pip)
    frame = cv2.GaussianBlur(frame, (3, 3), 0)
    return frame, dice_body.foreground(frame)


def _spot(px: int, py: int) -> np.ndarray:
    return np.float32([int(160 + px * 0.27 * SIDE), int(120 + py * 0.27 * SIDE)])


D = 2.0 * max(SIDE // 10, 2)  # the drawn pips' diameter


def _face(*spots: tuple[int, int]) -> dict:
    """A face of the drawn die's pips at these layout spots (as the pip search would give it)."""
    face = [dice.Pip(float(x), float(y), D, D, True, 30.0, 235.0, 1.0) for x, y in (_spot(*s) for s in spots)]
    return {"face": face, "count": len(face)}


# --- 3e38e0f's code (the reference the rewrite must match) --------------------------------------------

def _old_sampler(frame, centre, reach, d):
    fh, fw = frame.shape[:2]
    x0, y0 = max(int(centre[0] - reach), 0), max(int(centre[1] - reach), 0)
    x1, y1 = min(int(math.ceil(centre[0] + reach)) + 1, fw), min(int(math.ceil(centre[1] + reach)) + 1, fh)
    if x1 - x0 < 8 or y1 - y0 < 8:
        return None
    blurred = cv2.GaussianBlur(frame[y0:y1, x0:x1], (0, 0), max(0.15 * d, 0.6))
    lab = cv2.cvtColor(blurred, cv2.COLOR_BGR2LAB).astype(np.float32)
    off = np.float32([x0, y0])
    inner = dice.INNER * (0.5 * d)

    def colour(p):
        return np.median(dice._sample(lab, p[0] - off[0] + inner[:, 0], p[1] - off[1] + inner[:, 1]), 0)

    return colour


def _old_layout_count(frame, xy, d, layouts, on_die):
    centre = xy.mean(0)
    reach = max(float(np.hypot(*(p - centre))) for lay in layouts for p in lay[0] + lay[1]) + d + 2.0
    colour = _old_sampler(frame, centre, reach, d)
    if colour is None:
        return 0
    pip = np.mean([colour(p) for p in xy], 0)
    counts = set()
    for pips, plain, count in layouts:
        if not dice._in_frame(frame, pips + plain, 0.5 * d):
            continue
        cs = np.stack([colour(p) for p in plain])
        got = dice._pip_axis(pip, cs, 0.5)
        if got is None:
            continue
        body, axis, gap = got
        on_body = all(abs(float((c - body) @ axis)) <= dice.CENTRE_T * gap * gap for c in cs)
        on_pips = all(abs(float((colour(p) - body) @ axis) / (gap * gap) - 1.0) <= dice.CENTRE_T for p in pips)
        if on_body and on_pips and on_die([*xy, *pips]):
            counts.add(count)
    return counts.pop() if len(counts) == 1 else 0


def _old_reach(fg, q, u, limit, gap=0.0):
    mask, scale = fg
    h, w = mask.shape
    start = None
    for t in np.arange(0.0, limit + scale, scale):
        x, y = int((q[0] + t * u[0]) / scale), int((q[1] + t * u[1]) / scale)
        inside = 0 <= x < w and 0 <= y < h
        if inside and mask[y, x]:
            start = None
            continue
        if start is None:
            start = float(t)
        if not inside or t - start >= gap:
            return start
    return float(limit) if start is None else start


# --- readings ---------------------------------------------------------------------------------------------

@pytest.mark.parametrize("pips", [4, 5, 6])
def test_two_corner_pips_along_a_side_read_as_their_face(pips):
    # the two top corner pips of a drawn four, five and six: the layouts below them say which
    frame, _ = _die_frame(pips)
    a, c = _spot(-1, -1), _spot(1, -1)
    u = _spot(-1, 1) - a
    layouts = dice._side_layouts(a, c, u)
    assert dice._layout_count(frame, np.stack([a, c]), D, layouts, lambda pts: True) == pips
    # a layout off the die counts for nothing, and no other layout matches the colours
    assert dice._layout_count(frame, np.stack([a, c]), D, layouts, lambda pts: len(pts) != 2 + len(PIP_SPOTS[pips]) - 2) == 0
    assert _old_layout_count(frame, np.stack([a, c]), D, layouts, lambda pts: True) == pips


def test_a_three_whose_corner_or_middle_pip_was_lost_reads_three():
    frame, fg = _die_frame(3)
    assert dice._centre_corner(frame, fg, _face((0, 0), (1, 1))) == 3  # a corner pip lost
    assert dice._corners_mid(frame, fg, _face((-1, -1), (1, 1))) == 3  # the middle pip lost
    frame, fg = _die_frame(2)
    assert dice._centre_corner(frame, fg, _face((-1, -1), (1, 1))) == 0  # a real two stays two
    assert dice._corners_mid(frame, fg, _face((-1, -1), (1, 1))) == 0


# --- the same answers as 3e38e0f's code ---------------------------------------------------------------------

def test_layout_counts_are_the_old_code_s_on_every_call():
    rng = np.random.default_rng(19)
    told = 0
    for pips in (4, 5, 6):
        for body, pip in ((WHITE, BLACK), (BLACK, WHITE), ((40, 40, 200), (240, 240, 240))):
            frame, _ = _die_frame(pips, body, pip)
            for _ in range(12):
                a = _spot(-1, -1) + rng.uniform(-2, 2, 2).astype(np.float32)
                c = _spot(1, -1) + rng.uniform(-2, 2, 2).astype(np.float32)
                u = (_spot(-1, 1) - _spot(-1, -1)) * np.float32(rng.uniform(0.85, 1.15))
                if rng.random() < 0.3:
                    a, c = a.astype(np.float64), c.astype(np.float64)  # points of another dtype
                layouts = dice._side_layouts(a, c, u)
                off = set(rng.choice(4, size=int(rng.integers(0, 4)), replace=False).tolist())

                def on_die(pts, off=off, a=a, c=c, layouts=layouts):
                    return not any(len(pts) == 2 + len(lay[0]) and all(
                        np.array_equal(p, q) for p, q in zip(pts[2:], lay[0], strict=True))
                        for k, lay in enumerate(layouts) if k in off)

                xy = np.stack([a, c])
                got = dice._layout_count(frame, xy, D, layouts, on_die)
                assert got == _old_layout_count(frame, xy, D, layouts, on_die)
                told += got > 0
    assert told >= 20  # (many calls read a face, not only 0)


def test_many_colours_are_the_one_by_one_colours():
    frame, _ = _die_frame(6)
    rng = np.random.default_rng(7)
    for d in (6.0, 12.0, 23.5):
        centre = np.float32([160.3, 119.7])
        new, old = dice._lab_sampler(frame, centre, 70.0, d), _old_sampler(frame, centre, 70.0, d)
        points = [centre + rng.uniform(-60, 60, 2).astype(np.float32) for _ in range(40)]
        points += [np.float64(p) + 0.5 for p in points[:10]]  # half pixels, another dtype
        many = new.many(points)
        for p, m in zip(points, many, strict=True):
            assert np.array_equal(m, old(p)) and np.array_equal(new(p), old(p))


def test_reach_is_the_old_code_s():
    rng = np.random.default_rng(3)
    frame, fg = _die_frame(5)
    for _ in range(300):
        q = np.float32(rng.uniform(100, 220, 2))
        ang = rng.uniform(0, 2 * math.pi)
        u = np.float32([math.cos(ang), math.sin(ang)])
        limit, gap = float(rng.uniform(5, 60)), float(rng.choice([0.0, D]))
        assert dice._reach(fg, q, u, limit, gap) == _old_reach(fg, q, u, limit, gap)


# --- no colour where the places alone say no ---------------------------------------------------------

def test_no_colour_is_sampled_where_no_layout_lies_on_a_die(monkeypatch):
    frame, fg = _die_frame(6)
    asked = []
    real = dice._lab_sampler
    monkeypatch.setattr(dice, "_lab_sampler", lambda *a: asked.append(a) or real(*a))
    a, c = _spot(-1, -1), _spot(1, -1)
    layouts = dice._side_layouts(a, c, _spot(-1, 1) - a)
    assert dice._layout_count(frame, np.stack([a, c]), D, layouts, lambda pts: False) == 0
    # a real two's pips: taken for a three's centre and corner, the die does not run on past them
    frame, fg = _die_frame(2)
    assert dice._centre_corner(frame, fg, _face((-1, -1), (1, 1))) == 0
    assert not asked
    assert dice._layout_count(frame, np.stack([a, c]), D, layouts, lambda pts: True) == 0
    assert len(asked) == 1
