"""Bag of Butts reader, ninth session's speed steps: the cheaper forms give the very values the
slower ones gave, so every reading stays the same (a butt in the same group, at the same place)."""

from __future__ import annotations

import numpy as np

from vision import mat, tokens
from vision.common import median
from vision.render import tokens as render


def test_each_butt_on_the_mat_is_put_in_the_same_group_in_one_go_as_one_by_one():
    frame = render.scene(3, n=14, with_mat=True)[0]
    found = mat.find_mat(frame)
    assert found is not None
    rng = np.random.default_rng(9)
    points = np.float32(rng.uniform(0, 1, (400, 2)) * [frame.shape[1], frame.shape[0]])
    one_by_one = [found.zone_of((float(x), float(y))) for x, y in points]
    assert found.zones_of(points) == one_by_one
    assert {1, 2, 3, None} <= set(one_by_one)  # points in every zone and outside them were tried


def test_pixels_taken_by_flat_number_equal_numpys_index_also_of_a_cropped_image():
    rng = np.random.default_rng(4)
    img = rng.integers(0, 256, (60, 80, 3), dtype=np.uint8)
    ys, xs = rng.integers(0, 50, 200), rng.integers(0, 70, 200)
    for im in (img, img[5:55, 3:73]):  # a crop is not contiguous: the plain index is used
        got = tokens._pixels(im, xs, ys)
        assert got.dtype == np.uint8 and np.array_equal(got, im[ys, xs])


def test_integer_median_without_a_float_copy_equals_the_common_median():
    rng = np.random.default_rng(5)
    for count in (9, 10, 11, 300, 301):
        v = rng.integers(-2000, 2000, count).astype(np.int16)
        assert tokens._median_int(v) == float(median(v))

