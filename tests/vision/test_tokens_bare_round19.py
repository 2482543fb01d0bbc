"""Bag of Butts reader, nineteenth session (branch tokbare9), on a bare table (no mat): butts of one
colour touching.

Two grays (or two blacks, two khakis) touching side by side or end to side make one piece of about
two butts' area. The colour split cuts it by shading (a rim cluster and a ridge cluster, neither a
butt), it has no neck for the leftover's cores to part it at, and both butts were missed. The frame's
butt (its measured area, ASPECT widths long) is now laid in the leftover one by one, where it lies
most inside what is left (of equal places, the farthest from its middle), and counts as a butt when
it lies LAY_IN of its area inside what the butts laid before it left.

Rendered bare-table tuning scenes that the reader of 3e38e0f got wrong (the butts were missed)."""

from __future__ import annotations

import cv2
import numpy as np
import pytest

from vision import tokens
from vision.bench_tokens import match
from vision.render import tokens as render


@pytest.mark.parametrize(
    ("seed", "indices"),
    [
        (10160, (0, 1)),  # two grays touching end to side on pale wood, both missed
        (40206, (8, 12)),  # two grays touching end to end (an L) on orange wood, both missed
        (30170, (13, 14)),  # two grays of a pile of three grays
        (40070, (13,)),  # a gray of a pile of grays cut into crumbs
        (40161, (12,)),  # one of two blacks crossing on dark wood
        (50055, (11,)),  # a khaki in a pile of khakis
        (50175, (1,)),  # a lone gray joined to its shade, a round piece of two butts' area
    ],
)
def test_butts_of_one_colour_touching_are_found(seed, indices):
    frame, truth = render.scene(seed, with_mat=False)
    seen = tokens.read(frame).objects
    pairs = dict(match(truth, seen))
    for index in indices:
        j = pairs[index]
        assert j is not None, f"{truth[index]['colour']} butt {index} missed"
        assert seen[j]["colour"] == truth[index]["colour"]
        assert seen[j]["group"] == truth[index]["group"]


def _butt(canvas, centre, angle, width, length):
    box = cv2.boxPoints((centre, (length, width), angle))
    cv2.fillConvexPoly(canvas, np.round(box).astype(np.int32), 1)


WIDTH = 10.0
SINGLE = WIDTH ** 2 * (tokens.ASPECT - 1 + np.pi / 4)
LENGTH = tokens.ASPECT * WIDTH


def test_two_butts_side_by_side_are_laid_as_two():
    region = np.zeros((40, 60), np.uint8)
    _butt(region, (30, 14), 0, WIDTH, LENGTH)
    _butt(region, (30, 24), 0, WIDTH, LENGTH)
    laid = tokens._laid_butts(region, SINGLE, 2)
    assert len(laid) == 2
    ys = sorted(float(qy.mean()) for _, qy in laid)
    assert abs(ys[0] - 14) < 2.5 and abs(ys[1] - 24) < 2.5  # one on each butt, not one across the two


def test_a_butt_with_its_contact_shadow_is_laid_as_one():
    region = np.zeros((40, 60), np.uint8)
    _butt(region, (30, 16), 0, WIDTH, LENGTH)
    _butt(region, (30, 24), 0, 0.6 * WIDTH, LENGTH)  # a shadow band along its side, thinner than a butt
    assert len(tokens._laid_butts(region, SINGLE, 2)) == 1
