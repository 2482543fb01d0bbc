"""The calibration wizard: the mat check on rendered frames, the printable mat, the Pi camera's lock
kept in the config file, the cached game summaries, and the wizard driven by touch."""

from __future__ import annotations

import sys
from pathlib import Path

import numpy as np
import pytest

from ui import calibration

sys.path.insert(0, str(Path(__file__).parent))
import fake_picamera2  # noqa: E402


@pytest.fixture(scope="module")
def mat_frame() -> np.ndarray:
    from vision.render.tokens import scene

    return scene(5, with_mat=True)[0]


def test_the_mat_is_found_with_its_zones_patches_and_gains(mat_frame):
    check = calibration.check_mat(mat_frame)
    assert check.found and check.problem == ""
    assert check.markers >= 4 and len(check.marker_outlines) >= 4
    assert len(check.zones) == 3 and len(check.patches) == 2 and len(check.area) == 4
    h, w = mat_frame.shape[:2]
    assert all(-0.1 * w <= x <= 1.1 * w and -0.1 * h <= y <= 1.1 * h for x, y in check.area)
    xs, ys = [x for x, _ in check.area], [y for _, y in check.area]
    for x, y in [p for zone in check.zones for p in zone]:  # the zones lie inside the play area
        assert min(xs) < x < max(xs) and min(ys) < y < max(ys)
    # the white patch is the brightest thing measured: gains bring it to the neutral target
    assert min(check.white) > max(check.grey)
    assert np.allclose(np.array(check.gains) * np.array(check.white), calibration.WHITE_TARGET, rtol=0.01)


def test_a_missing_mat_says_why(mat_frame):
    from vision.render.tokens import scene

    assert calibration.check_mat(scene(5, with_mat=False)[0]).problem == "no-markers"
    one = mat_frame.copy()
    keep = calibration.check_mat(mat_frame).marker_outlines[0]
    xs, ys = [int(p[0]) for p in keep], [int(p[1]) for p in keep]
    x0, y0, x1, y1 = max(min(xs) - 15, 0), max(min(ys) - 15, 0), max(xs) + 15, max(ys) + 15
    one[:] = 120
    one[y0:y1, x0:x1] = mat_frame[y0:y1, x0:x1]
    few = calibration.check_mat(one)
    assert few.problem == "few-markers" and few.markers == 1 and not few.found
    assert calibration.check_mat(None).problem == "no-frame"
    assert calibration.check_mat(np.zeros((3, 3), np.uint8)).problem in ("no-frame", "no-markers")


def test_the_printable_mat_is_written(tmp_path):
    pdf = calibration.write_mat(tmp_path / "exports", "A3", "pdf")
    png = calibration.write_mat(tmp_path / "exports", "A4", "png", dpi=40)
    assert pdf.read_bytes().startswith(b"%PDF") and pdf.name == "mat-A3.pdf"
    assert png.read_bytes()[1:4] == b"PNG"
    with pytest.raises(ValueError):
        calibration.write_mat(tmp_path, "A5", "pdf")


def test_the_pi_camera_relocks_and_the_lock_is_kept_in_the_config_file(tmp_path):
    from companion.config import Config, load_config
    from hardware.picamera import Picamera2Source
    from hardware.reconnect import ReconnectingSource

    now = [0.0]
    camera = Picamera2Source(module=fake_picamera2, lock_after=1.0, clock=lambda: now[0])
    camera.open()
    wrapped = ReconnectingSource(lambda: camera, first=camera)
    assert calibration.pi_camera(wrapped) is camera
    assert calibration.pi_camera(object()) is None and calibration.pi_camera(None) is None
    camera.relock()
    assert camera.lock is None
    now[0] = 2.0
    camera.read()
    assert camera.lock is not None and camera.lock.colour_gains == (1.9, 1.55)
    config, path = calibration.save_lock(Config(camera="picamera2"), camera.lock, tmp_path / "config.toml")
    loaded, warnings = load_config(path)
    assert not warnings and loaded.camera_lock == camera.lock and loaded.camera == "picamera2"
    assert calibration.lock_words(camera.lock)["ms"] == pytest.approx(16.6)


def test_calibration_wizard_by_touch_at_800x480(run_driver, tmp_path):
    res = run_driver("calibration", "800x480", "--", "--size", "800x480", "--camera", "demo")
    assert "error" not in res, res.get("error")
    assert res["screen"] == "calibration"
    assert res["written"].startswith("Play mat written to") and res["written"].endswith("mat-A4.pdf")
    assert res["found"] and res["markers"] >= 4 and res["drawn_zones"] == 3
    assert "Colour gains B/G/R: " in res["mat_text"] and "White patch" in res["mat_text"]
    assert "white patch of the mat corrects every frame" in res["demo_lock"]
    assert res["locked"].startswith("Locked: exposure 16.6 ms, gain 2.25, colour gains red 1.90 blue 1.55")
    assert "(1.9, 1.55)" in res["config_lock"]
    saved = (tmp_path / "config" / "table-companion" / "config.toml").read_text()
    assert "exposure_time = 16600" in saved
    assert res["relocked_controls"][0] == {"AeEnable": True, "AwbEnable": True}
    assert res["labels"] >= 5 and res["read"].startswith(f"{res['labels']} found: 1: ")
    assert res["after_done"] == "settings"


def test_calibration_wizard_in_dutch_at_1280x800(run_driver):
    res = run_driver("calibration", "1280x800", "short", "--", "--size", "1280x800", "--camera", "demo",
                     "--lang", "nl")
    assert "error" not in res, res.get("error")
    assert res["found"] and res["mat_text"].startswith("Mat gevonden")
    assert "Kleurversterking B/G/R" in res["mat_text"]
    assert res["no_mat"] == ("Mat niet gevonden: geen markers gezien. Leg de hele mat onder de camera, "
                             "in goed licht.")
    assert "witte vlak van de mat" in res["demo_lock"]
    assert res["read"].split(" ")[1] == "gevonden:"


def test_home_and_past_games_replay_each_game_once_per_change(run_driver):
    res = run_driver("cache", "--", "--size", "800x480", "--camera", "demo")
    assert "error" not in res, res.get("error")
    assert res["replays_first"] == 3  # three games, home and past games opened twice each
    assert res["shown"][0] == res["shown"][2] == "An unfinished game of Bag of Butts (Ed, Flo) is waiting."
    assert res["replays_after_change"] == 4  # only the game that changed is replayed again
    assert res["resume_after_change"].endswith("(Ann, Bob) is waiting.")


def test_the_summary_cache_replays_a_game_only_after_it_changed(tmp_path):
    from companion import records
    from companion.store import Store
    from ui.summaries import SummaryCache

    example = records.load(Path(__file__).resolve().parents[2] / "examples" / "bag-of-butts.json")
    store = Store(tmp_path / "pad.sqlite3")
    done, open_ = (store.create_game(example.game, list(example.players), dict(example.options))
                   for _ in range(2))
    for event in example.events:
        store.append(done, dict(event))
    for event in example.events[:5]:
        store.append(open_, dict(event))
    cache = SummaryCache()
    assert cache.latest_unfinished(store) == open_ and cache.replays == 1  # the newest game is open
    finished = cache.summary(store, next(i for i in store.games() if i.id == done))
    assert finished == records.replay(example).summary() and finished["over"]
    assert cache.latest_unfinished(store) == open_ and cache.replays == 2  # nothing changed
    store.undo(open_)
    store.redo(open_)  # the same number of events, written again: it may differ, so replayed
    info = next(i for i in store.games() if i.id == open_)
    assert cache.summary(store, info) == records.replay(store.record(open_)).summary()
    assert cache.replays == 3
    store.close()
