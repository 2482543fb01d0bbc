"""Buttons board reader under glare and with a bent outline: the grid refit, the row-1 dot beside a
glare spot, and cells read against their own board's light."""

from __future__ import annotations

import cv2
import numpy as np
import pytest

from vision import board, board_grid
from vision.render import board as render
from vision.render import effects


def _centre(cell: dict) -> tuple[float, float]:
    x, y, w, h = cell["box"]
    return x + w / 2, y + h / 2


def _glare(frame: np.ndarray, x: float, y: float, radius: float, strength: float) -> np.ndarray:
    """A lamp's specular spot: white light added in a soft disc (as vision.render.effects draws it)."""
    spot = np.zeros(frame.shape[:2], np.float32)
    cv2.circle(spot, (int(x), int(y)), int(radius), 1.0, -1)
    spot = cv2.GaussianBlur(spot, (0, 0), radius / 2 + 1)
    return np.clip(frame + spot[..., None] * strength, 0, 255).astype(np.uint8)


@pytest.mark.parametrize("seed", [40, 41])
def test_a_glare_spot_neither_hides_a_button_nor_makes_one_nor_turns_a_colour_blue(seed):
    frame, truth = render.scene(seed, effects_on=False)
    rng = np.random.default_rng(seed)
    buttons = [t for t in truth if t["content"] == "button"][:3]
    empties = [t for t in truth if t["content"] == "empty" and t["colour"] != "B"][:3]
    assert len(buttons) == 3 and len(empties) == 3
    for t in buttons + empties:
        x, y = _centre(t)
        cell = t["box"][2]
        # a strong spot most of a cell wide, off the middle toward a corner (the reader before the
        # ridge / least-glared-corner rules got 11 of 24 such cells wrong on seeds 40, 41, 43, 45)
        lit = _glare(frame, x + 0.2 * cell, y - 0.15 * cell, 0.35 * cell, 150)
        lit = effects.camera(lit, rng, blur=0.8, noise=3, jpeg=85)
        seen = {(o["row"], o["col"]): o for o in board.read(lit).objects}
        got = seen[(t["row"], t["col"])]
        assert (got["colour"], got["content"]) == (t["colour"], t["content"]), (t["row"], t["col"])


def test_the_grid_refit_pulls_a_bent_outline_back_onto_the_lines():
    frame, truth = render.scene(7)
    hom, _ = board.find_board(frame)
    grid = np.float32([[0, 0], [6, 0], [6, 6], [0, 6]])
    # one corner of the outline pulled 0.25 cell out, as a glare spot on the board's corner does
    bent = grid + np.float32([[-0.25, -0.2], [0, 0], [0, 0], [0, 0]])
    off = hom @ cv2.getPerspectiveTransform(grid, bent)
    centres = np.float32([[c + 0.5, r + 0.5] for r in range(6) for c in range(6)]).reshape(-1, 1, 2)
    want = np.float32([_centre(t) for t in truth])
    cell = truth[0]["box"][2]

    def worst(h: np.ndarray) -> float:
        return float(np.abs(cv2.perspectiveTransform(centres, h).reshape(-1, 2) - want).max() / cell)

    assert worst(off) > 0.15
    assert worst(board_grid.refine(frame, off)) < 0.06


@pytest.mark.parametrize("seed, allowed", [(22060, 1), (22155, 0)])
def test_a_board_whose_outline_a_glare_spot_bent_far_is_read_on_its_own_lines(seed, allowed):
    # tuning boards where a glare spot on the board's edge bent the outline so far that one refit
    # pulled the grid back only partway (10 and 3 cells read wrong before the chosen grid was
    # refitted again until it settled); 22060 keeps one star under a saturated spot read as empty
    frame, truth = render.scene(seed)
    seen = {(o["row"], o["col"]): (o["colour"], o["content"]) for o in board.read(frame).objects}
    wrong = [t for t in truth if seen.get((t["row"], t["col"])) != (t["colour"], t["content"])]
    assert len(wrong) <= allowed, wrong


@pytest.mark.parametrize("dx, dy", [(0.5, 0.5), (1, 0), (0, -1)])
def test_the_grid_score_tells_the_grid_from_one_laid_half_or_one_cell_off(dx, dy):
    # one cell off, the inner lines still fall on lines: only the border on every side tells
    frame, _ = render.scene(7)
    hom, score = board.find_board(frame)
    shifted = hom @ np.float32([[1, 0, dx], [0, 1, dy], [0, 0, 1]])
    assert score > 0.45 and board_grid.grid_score(frame, shifted) < score - 0.2




def test_a_dim_board_and_a_bright_board_read_the_same_cells():
    frame, truth = render.scene(44, effects_on=False)
    want = [(t["colour"], t["content"]) for t in truth]
    rng = np.random.default_rng(3)
    for brightness in (0.45, 1.25):
        lit = effects.apply_light(frame, effects.Light(kelvin=3200, brightness=brightness), rng)
        lit = effects.camera(lit, rng, blur=0.8, noise=3, jpeg=85)
        got = [(o["colour"], o["content"]) for o in board.read(lit).objects]
        assert got == want, brightness


def test_a_board_whose_border_melts_into_a_dark_table_under_a_glare_spot_is_still_read():
    # tuning seed 10251: navy border on dark wood, a lamp's spot joining the board's top edge to the
    # table; neither the outline nor the pale mesh gives four sides (the reader before the block of
    # saturated cells was looked at found no board at all)
    frame, truth = render.scene(10251)
    seen = {(o["row"], o["col"]): (o["colour"], o["content"]) for o in board.read(frame).objects}
    assert seen == {(t["row"], t["col"]): (t["colour"], t["content"]) for t in truth}


@pytest.mark.parametrize("seed", [40, 44, 59])
def test_a_glare_spot_on_a_yellow_cell_is_no_star_and_hides_no_star(seed):
    frame, truth = render.scene(seed, effects_on=False)
    rng = np.random.default_rng(seed)
    cells = [t for t in truth if t["colour"] == "Y" and t["content"] in ("empty", "star")][:6]
    assert {t["content"] for t in cells} == {"empty", "star"}
    for t in cells:
        x, y = _centre(t)
        cell = t["box"][2]
        # a spot over the middle of a yellow cell washes it out the way a star's pale plastic does
        # (the rules before the star's dark edge was looked for got 2 of these 6 cells wrong)
        lit = _glare(frame, x + 0.1 * cell, y - 0.1 * cell, 0.3 * cell, 120)
        lit = effects.camera(lit, rng, blur=0.8, noise=3, jpeg=85)
        got = {(o["row"], o["col"]): o for o in board.read(lit).objects}[(t["row"], t["col"])]
        assert got["content"] == t["content"], (t["row"], t["col"])


def test_a_board_whose_corner_a_glare_spot_cuts_off_is_found_and_read():
    # tuning board 10862: a glare spot joins the board's right edge to the table and a dark corner
    # cell drops out of the printed-cell block; every four-sided outline was bent and no board was
    # found at all before the four longest sides of an outline were extended to meet
    frame, truth = render.scene(10862)
    seen = {(o["row"], o["col"]): (o["colour"], o["content"]) for o in board.read(frame).objects}
    assert len(seen) == 36
    assert all(seen[(t["row"], t["col"])] == (t["colour"], t["content"]) for t in truth)


def test_an_outline_with_a_cut_corner_is_extended_to_the_whole_square():
    # a 100-pixel square whose bottom-left corner is cut off by a 30-pixel diagonal
    cut = np.float32([[0, 0], [100, 0], [100, 100], [30, 100], [0, 70]])
    quad = board._long_sides(cut)
    assert quad is not None
    assert np.abs(board._order(quad) - np.float32([[0, 0], [100, 0], [100, 100], [0, 100]])).max() < 1e-3
    # a polygon whose long sides meet far outside it (a thin sliver) gives no outline
    assert board._long_sides(np.float32([[0, 0], [100, 0], [100, 5], [50, 8], [0, 5]])) is None
