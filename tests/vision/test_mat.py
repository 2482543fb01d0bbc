"""The play mat: printing it, finding it in a tilted photo, and correcting colour with it."""

from __future__ import annotations

import cv2
import numpy as np
import pytest

from vision import mat
from vision.render import effects
from vision.render import mat as render_mat


def test_png_mat_is_written_and_its_markers_are_found_in_a_tilted_scene(tmp_path):
    out = tmp_path / "mat.png"
    assert mat.main(["--size", "A4", "--out", str(out), "--dpi", "100"]) == 0
    printed = cv2.imread(str(out))
    assert printed is not None and printed.shape[1] > printed.shape[0]
    # lay the printed file on a table and photograph it at an angle
    rng = np.random.default_rng(5)
    table = effects.wood_texture(960, 1280, rng)
    h, w = printed.shape[:2]
    dst = np.float32([[160, 140], [1130, 100], [1180, 860], [110, 820]])
    hom = cv2.getPerspectiveTransform(np.float32([[0, 0], [w, 0], [w, h], [0, h]]), dst)
    warped = cv2.warpPerspective(printed, hom, (1280, 960))
    inside = cv2.warpPerspective(np.full((h, w), 255, np.uint8), hom, (1280, 960)) > 0
    frame = table.copy()
    frame[inside] = warped[inside]
    frame = effects.camera(frame, rng, blur=1.0, noise=3.0, jpeg=80)
    found = mat.find_mat(frame)
    assert found is not None and found.markers == len(mat.MARKERS)
    # the middle of zone 2 on the mat maps to the middle of the frame's zone 2
    x0, y0, x1, y1 = mat.ZONES[1]
    centre_px = cv2.perspectiveTransform(
        np.float32([[(x0 + x1) / 2 * w / mat.MAT_W, (y0 + y1) / 2 * h / mat.MAT_H]]).reshape(1, 1, 2), hom)[0, 0]
    assert found.zone_of(tuple(centre_px)) == 2
    assert np.allclose(found.zones[1].mean(axis=0), centre_px, atol=6)


def test_pdf_mat_is_a_pdf_with_the_page_size_of_a3(tmp_path):
    out = tmp_path / "mat.pdf"
    assert mat.main(["--size", "A3", "--out", str(out), "--dpi", "60"]) == 0
    data = out.read_bytes()
    assert data.startswith(b"%PDF-1.4") and data.rstrip().endswith(b"%%EOF")
    assert b"/MediaBox [0 0 1190.55 841.89]" in data  # A3 landscape in points
    assert b"/DCTDecode" in data


def test_format_comes_from_the_suffix_and_a_bad_suffix_is_refused(tmp_path, capsys):
    assert mat.main(["--out", str(tmp_path / "m.png"), "--dpi", "40"]) == 0
    assert (tmp_path / "m.png").read_bytes()[:4] == b"\x89PNG"
    assert mat.main(["--out", str(tmp_path / "m.txt")]) == 2
    assert "format" in capsys.readouterr().err
    assert not (tmp_path / "m.txt").exists()


@pytest.mark.parametrize("kelvin", [2700.0, 6500.0])
def test_prepare_makes_the_white_and_grey_patches_neutral(kelvin):
    rng = np.random.default_rng(11)
    table = effects.wood_texture(960, 1280, rng)
    img, _ = render_mat.place_mat(table, rng)
    light = effects.Light(kelvin=kelvin, brightness=0.8, gradient=0.2, vignette=0.1)
    frame = effects.camera(effects.apply_light(img, light, rng), rng, blur=0.5, noise=2.0, jpeg=90)
    raw = mat.find_mat(frame)
    assert raw is not None
    if kelvin < 3000:
        assert raw.white[2] > 1.3 * raw.white[0]  # the warm lamp really tints the paper
    fixed, found = mat.prepare(frame)
    assert found is not None
    again = mat.find_mat(fixed)
    for patch in (again.white, again.grey):
        assert patch.max() / patch.min() < 1.06
    fill = again.zone_fill
    assert fill[2] > 1.8 * fill[1]  # the brick-red zones are red again under either lamp


def test_without_the_mat_prepare_falls_back_to_grey_world():
    rng = np.random.default_rng(3)
    frame = effects.apply_light(effects.wood_texture(480, 640, rng), effects.Light(kelvin=2700), rng)
    fixed, found = mat.prepare(frame)
    assert found is None
    means = fixed.reshape(-1, 3).mean(axis=0)
    assert means.max() / means.min() < 1.05


@pytest.mark.parametrize("frame", [np.zeros((480, 640, 3), np.uint8), np.full((480, 640, 3), 255, np.uint8),
                                   np.random.default_rng(1).integers(0, 256, (480, 640, 3), dtype=np.uint8),
                                   np.zeros((10, 10, 3), np.uint8), "not an image"])
def test_find_mat_on_a_bad_frame_is_none(frame):
    assert mat.find_mat(frame) is None
