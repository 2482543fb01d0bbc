"""Bag of Butts reader, nineteenth session's speed steps (branch tokfast2): each cheaper form gives
the very values the form it replaced gave, so every reading stays the same."""

from __future__ import annotations

import cv2
import numpy as np

from vision import mat as matmod
from vision import tokens
from vision.common import median
from vision.render import tokens as render


def _old_light(img: np.ndarray, table: np.ndarray, ring: np.ndarray) -> tuple[float, float]:
    """3e38e0f's ring light: float32 pixels of the ring, their mean added light and table level."""
    sel = ring > 0
    under = table[sel].astype(np.float32)
    add = (img[sel].astype(np.float32) - under).mean(0)
    return float(add.min()), float(under.mean())


def test_ring_light_from_masked_sums_equals_numpys_float32_means():
    rng = np.random.default_rng(19)
    big = rng.integers(0, 256, (240, 320, 3)).astype(np.uint8)
    flat = np.full((240, 320, 3), 255, np.uint8)
    seen = 0
    for t in range(400):
        h, w = (int(v) for v in rng.integers(4, 90, 2))
        y, x = int(rng.integers(0, 240 - h)), int(rng.integers(0, 320 - w))
        img = big[y:y + h, x:x + w] if t % 4 else flat[y:y + h, x:x + w]  # windows of a larger image (views)
        table = cv2.GaussianBlur(big, (9, 9), 0)[y:y + h, x:x + w] if t % 5 else np.zeros((h, w, 3), np.uint8)
        ring = (rng.random((h, w)) < rng.uniform(0.02, 1.0)).astype(np.uint8)
        n = cv2.countNonZero(ring)
        if n < 10:
            continue
        assert tokens._ring_light(img, table, ring, n) == _old_light(img, table, ring)
        seen += 1
    assert seen > 300


def test_patch_medians_in_one_call_equal_one_median_per_rectangle():
    rng = np.random.default_rng(7)
    for n in (28, 27, 1):  # the mat's grids (28 points: an even count of samples), an odd count, one point
        for rects in (5, 2, 1):
            samples = rng.integers(0, 256, (9, rects * n, 3)).astype(np.float32)
            samples[:, :n] = np.round(samples[:, :n] / 64) * 64  # many ties
            got = matmod._patch_medians(samples, rects)
            want = [median(samples[:, r * n:(r + 1) * n].reshape(-1, 3), axis=0) for r in range(rects)]
            assert len(got) == rects
            for a, b in zip(got, want, strict=True):
                assert a.dtype == b.dtype and np.array_equal(a, b)


def _old_veil_taken(small, bg, search, butts, colours):
    """3e38e0f's _veil_taken (the float32 means of each ring's pixels)."""
    h, w = small.shape[:2]
    allm = np.zeros((h, w), np.uint8)
    for b in butts:
        allm[b["ys"], b["xs"]] = 1
    g = 2 * tokens.VEIL_GAP + 1
    table_ok = (cv2.dilate(allm, np.ones((g, g), np.uint8)) == 0) & (search > 0)
    k = 2 * tokens.VEIL_RING + 1
    kernel = np.ones((k, k), np.uint8)
    out = {}
    for i, b in enumerate(butts):
        x0, y0 = max(0, int(b["xs"].min()) - tokens.VEIL_RING), max(0, int(b["ys"].min()) - tokens.VEIL_RING)
        x1, y1 = min(w, int(b["xs"].max()) + tokens.VEIL_RING + 1), min(h, int(b["ys"].max()) + tokens.VEIL_RING + 1)

        def light(sel, b=b, x0=x0, y0=y0, x1=x1, y1=y1):
            m = np.zeros((y1 - y0, x1 - x0), np.uint8)
            m[b["ys"][sel] - y0, b["xs"][sel] - x0] = 1
            ring = (cv2.dilate(m, kernel) > 0) & table_ok[y0:y1, x0:x1]
            if np.count_nonzero(ring) < 10:
                return None
            under = bg[y0:y1, x0:x1][ring].astype(np.float32)
            add = (small[y0:y1, x0:x1][ring].astype(np.float32) - under).mean(0)
            return float(add.min()), float(under.mean())

        whole = light(np.ones(len(b["xs"]), bool))
        if whole is not None and whole[0] > 0 and whole[0] >= tokens.VEIL_SHARE * whole[1]:
            out[i] = [(np.maximum(colours[i] - np.float32(whole[0]), 1.0).astype(np.float32), tokens.VEIL_BETTER)]
        if len(b["xs"]) < 40 or whole is None or whole[0] < tokens.END_GATE * tokens.VEIL_SHARE * whole[1]:
            continue
        masks, means = tokens._end_thirds(small, b["xs"], b["ys"])
        dark = 0 if means[0].sum() <= means[1].sum() else 1
        lit_l, dark_l = light(masks[1 - dark]), light(masks[dark])
        if lit_l is None or lit_l[0] <= 0 or lit_l[0] < tokens.VEIL_SHARE * lit_l[1]:
            continue
        taken = max(0.0, dark_l[0]) if dark_l is not None else 0.0
        if dark_l is not None and dark_l[0] >= lit_l[0]:
            continue
        if float((means[1 - dark] - means[dark]).min()) >= tokens.END_AGREE * (lit_l[0] - taken):
            out.setdefault(i, []).append(
                (np.maximum(means[dark] - np.float32(taken), 1.0).astype(np.float32), tokens.END_BETTER))
    return out


def _glare_table(seed: int):
    """A mat zone's red cloth (the table estimate), glare spots added on it and on the butts lying on
    it (one over a butt's end), butts of several colours and sizes, one at the image's edge."""
    rng = np.random.default_rng(seed)
    h, w = 160, 220
    bg = np.empty((h, w, 3), np.uint8)
    bg[:] = (52, 46, 138)
    yy, xx = np.mgrid[0:h, 0:w].astype(np.float32)
    glare = np.zeros((h, w), np.float32)
    for _ in range(3):
        cx, cy, r, a = rng.uniform(0, w), rng.uniform(0, h), rng.uniform(10, 40), rng.uniform(20, 90)
        glare += a * np.exp(-((xx - cx) ** 2 + (yy - cy) ** 2) / (2 * r * r))
    small = bg.astype(np.float32)
    butts, colours = [], []
    for j in range(9):
        cx, cy = (5, 80) if j == 0 else (rng.uniform(15, w - 15), rng.uniform(15, h - 15))
        m = np.zeros((h, w), np.uint8)
        cv2.ellipse(m, (int(cx), int(cy)), (int(rng.integers(8, 20)), int(rng.integers(3, 7))),
                    float(rng.uniform(0, 180)), 0, 360, 1, -1)
        ys, xs = np.nonzero(m)
        colour = rng.uniform(20, 230, 3).astype(np.float32)
        small[ys, xs] = colour
        butts.append({"xs": xs, "ys": ys})
        colours.append(colour)
    small = np.clip(small + glare[..., None] + rng.normal(0, 3, small.shape), 0, 255).astype(np.uint8)
    search = np.ones((h, w), np.uint8)
    search[:, :3] = 0
    return small, bg, search, butts, np.float32(colours)


def test_veil_taken_with_masked_sums_reads_as_before():
    found = ends = 0
    for seed in range(12):
        small, bg, search, butts, colours = _glare_table(seed)
        got, want = tokens._veil_taken(small, bg, search, butts, colours), _old_veil_taken(small, bg, search, butts, colours)
        assert sorted(got) == sorted(want)
        for i in want:
            assert len(got[i]) == len(want[i])
            for (a, ma), (b, mb) in zip(got[i], want[i], strict=True):
                assert ma == mb and a.dtype == b.dtype and np.array_equal(a, b)
            found += 1
            ends += any(m == tokens.END_BETTER for _, m in want[i])
    assert found > 10 and ends > 0  # butts under glare, and a glare on a butt's end, were read


def test_a_mat_scene_with_a_glare_on_a_butts_end_reads_as_before():
    # 3e38e0f's reading of tuning mat scene 176 (its gray under a glare on one end is read by its
    # darker end: the veil's readings; the mat's markers and zones)
    got = [(o["colour"], o["group"], o["box"], o["confidence"]) for o in tokens.read(render.scene(176, with_mat=True)[0]).objects]
    assert got == MAT_176


# 3e38e0f's objects (colour, group, box, confidence) of tuning mat scene 176
MAT_176 = [("pink", 1, [87, 329, 93, 76], 0.999), ("gray", 1, [238, 414, 107, 59], 0.843),
           ("black", 2, [587, 506, 95, 73], 0.85), ("gray", 2, [553, 440, 51, 102], 0.848),
           ("blue", 3, [944, 455, 81, 102], 1.0), ("green", 1, [112, 496, 110, 44], 0.85),
           ("blue", 1, [73, 472, 44, 100], 0.85), ("yellow", 1, [274, 482, 66, 102], 1.0),
           ("pink", 1, [196, 545, 56, 102], 0.998), ("khaki", 2, [643, 579, 93, 78], 0.999)]


def test_a_tilted_mat_with_a_marker_covered_is_still_found_where_it_lies():
    # a guard for any later change to the marker search (the fast search: two threshold windows at 480
    # wide): one marker under a hand-sized box, the mat tilted to the renderer's limit and twice it;
    # the mat is found from the others, its zones within a quarter of a butt's width of the truth
    from vision.render import effects
    from vision.render import mat as render_mat

    for seed, tilt in ((3, 0.05), (4, 0.08), (5, 0.1), (8, 0.1)):
        rng = np.random.default_rng(seed)
        img, hom = render_mat.place_mat(effects.wood_texture(960, 1280, rng), rng, tilt=tilt)
        x, y = matmod.MARKERS[0]
        c = cv2.perspectiveTransform(np.float32([[[x + matmod.MARKER / 2, y + matmod.MARKER / 2]]]), hom)[0, 0]
        cv2.rectangle(img, (int(c[0]) - 45, int(c[1]) - 45), (int(c[0]) + 45, int(c[1]) + 45), (60, 70, 90), -1)
        frame = effects.camera(effects.apply_light(img, effects.Light.random(rng), rng), rng)
        found = matmod.find_mat(frame)
        assert found is not None and 3 <= found.markers < len(matmod.MARKERS)
        for zone, (x0, y0, x1, y1) in zip(found.zones, matmod.ZONES, strict=True):
            truth = cv2.perspectiveTransform(np.float32([[[x0, y0]], [[x1, y0]], [[x1, y1]], [[x0, y1]]]), hom)
            assert np.abs(zone - truth.reshape(4, 2)).max() < 0.25 * tokens.BUTT_WIDTH_UNITS * found.scale
