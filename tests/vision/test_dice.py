"""Dice reader: real held-out photos, rendered Buttons rolls, bad frames, teach, and the see command."""

from __future__ import annotations

import json
from pathlib import Path

import cv2
import numpy as np
import pytest

from vision import bench_dice, cli, dice
from vision.render import dice as render

REPO = Path(__file__).resolve().parents[2]


def shared_dice_photos() -> Path | None:
    for base in (REPO.parent / "shared", Path("/work/shared")):
        p = base / "photos" / "dice"
        if (p / "oblique").is_dir() and (p / "topdown").is_dir():
            return p
    return None


PHOTOS = shared_dice_photos()
needs_photos = pytest.mark.skipif(PHOTOS is None, reason="shared dice photos not found at <repo>/../shared "
                                                          "or /work/shared (photos/dice)")


def per_die(found: list[dict], truth: list[dict], keys=("pips", "body", "pip_colour")) -> int:
    """How many true dice were found with every listed field right."""
    return sum(1 for i, j in bench_dice.match(found, truth) if all(found[i][k] == truth[j][k] for k in keys))


# --- real photos: the development split -------------------------------------------------------------
# The held-out test split (every 5th photo by name) is scored only by the benchmark, once per session
# on final code (`python3 -m vision.bench_dice real --split test`), never by the suite: a pass/fail
# signal on it in every run would leak into tuning. These guard every other photo of the development
# split (half of it, to keep the suite short) against regressions; the thresholds sit a little under
# what the reader measured there.

def dev_figures(folder: str) -> tuple[float, float, float]:
    """Recall, precision and right top faces of all dice over every other photo of one folder's
    development split."""
    tally = bench_dice.Tally()
    for path, truth in bench_dice.load_labels(PHOTOS, folder, "dev")[::2]:
        tally.add(dice.read(cv2.imread(str(path))).objects, truth)
    return tally.matched / tally.truth, tally.matched / tally.found, tally.right / tally.truth


@needs_photos
def test_real_oblique_dev_photos_are_counted():
    recall, precision, right = dev_figures("oblique")
    # measured (ninth session's reader, 124 photos, 390 dice): recall 97.2 %, precision 95.2 %, right 96.9 %
    assert recall >= 0.95 and precision >= 0.93 and right >= 0.95, (recall, precision, right)


@needs_photos
def test_real_topdown_dev_photos_are_counted():
    recall, precision, right = dev_figures("topdown")
    # measured (ninth session's reader, 80 photos, 600 dice): recall 87.3 %, precision 98.9 %, right 80.8 %
    assert recall >= 0.85 and precision >= 0.97 and right >= 0.78, (recall, precision, right)


# --- rendered scenes ---------------------------------------------------------------------------------

def test_renderer_gives_a_full_frame_and_truth_in_reader_shape():
    frame, truth = render.scene(11, kinds=render.BUTTONS_SET)
    assert frame.shape == (960, 1280, 3) and frame.dtype == np.uint8
    assert [(t["body"], t["pip_colour"]) for t in truth] == render.BUTTONS_SET
    for t in truth:
        assert 1 <= t["pips"] <= 6
        x, y, w, h = t["box"]
        assert 0 <= x < 1280 and 0 <= y < 960 and w > 10 and h > 10
    again, _ = render.scene(11, kinds=render.BUTTONS_SET)
    assert np.array_equal(frame, again)


def test_rendered_buttons_rolls_are_read():
    right = total = 0
    for seed in range(2000, 2010):
        frame, truth = render.scene(seed, kinds=render.BUTTONS_SET, tilt=0.0, size=(45.0, 90.0))
        right += per_die(dice.read(frame).objects, truth)
        total += len(truth)
    assert right / total >= 0.75


def test_a_large_clean_die_is_read_with_colours():
    frame, truth = render.scene(3, kinds=[("black", "gold")], tilt=0.0, size=(90.0, 100.0))
    found = dice.read(frame).objects
    assert per_die(found, truth) == 1
    assert 0.5 <= found[0]["confidence"] <= 1.0


def test_side_face_of_a_tilted_die_is_not_counted():
    right = matched = extra = 0
    for seed in range(3000, 3010):
        frame, truth = render.scene(seed, kinds=[("black", "gold"), ("black", "white")], tilt=0.5,
                                    size=(60.0, 90.0))
        found = dice.read(frame).objects
        pairs = bench_dice.match(found, truth)
        right += sum(1 for i, j in pairs if found[i]["pips"] == truth[j]["pips"])
        matched += len(pairs)
        extra += len(found) - len(pairs)
    # measured: 15 of 20 dice found, 14 of them with the right top face, 2 extra faces in 10 scenes
    # (a black die on dark wood whose faces run together is left out rather than misread)
    assert right >= 13
    assert matched - right <= 2
    assert extra <= 4


# --- bad frames: never an exception, nothing (or nothing sure) found, bounded time ----------------------

def _roll() -> np.ndarray:
    return render.scene(21, kinds=render.BUTTONS_SET, tilt=0.0)[0]


BAD_FRAMES = {
    "black": lambda: np.zeros((960, 1280, 3), np.uint8),
    "white": lambda: np.full((960, 1280, 3), 255, np.uint8),
    "noise": lambda: np.random.default_rng(1).integers(0, 256, (960, 1280, 3), dtype=np.uint8),
    "blurred": lambda: cv2.GaussianBlur(_roll(), (0, 0), 14),
    "empty table": lambda: render.scene(5, n_dice=0)[0],
}


@pytest.mark.parametrize("name", sorted(BAD_FRAMES))
def test_bad_frames_give_nothing_sure(name):
    obs = dice.read(BAD_FRAMES[name]())
    assert all(o["confidence"] < 0.5 for o in obs.objects), obs.objects


def test_half_covered_frame_reads_only_the_visible_half():
    frame, truth = render.scene(21, kinds=render.BUTTONS_SET, tilt=0.0)
    frame = frame.copy()
    frame[:, :640] = (40, 40, 40)
    found = dice.read(frame).objects
    assert all(o["box"][0] + o["box"][2] / 2 >= 620 for o in found if o["confidence"] >= 0.5)


@pytest.mark.parametrize("frame", [None, "frame", np.zeros((0, 0, 3), np.uint8), np.zeros((10,), np.uint8),
                                   np.zeros((4, 4, 3), np.uint8), np.zeros((50, 50, 5), np.uint8)])
def test_unusable_input_gives_an_empty_observation(frame):
    obs = dice.read(frame)
    assert obs.kind == "dice" and obs.objects == []


def test_grey_and_float_frames_are_accepted():
    frame, truth = render.scene(3, kinds=[("black", "white")], tilt=0.0, size=(90.0, 100.0))
    as_float = dice.read(frame.astype(np.float64)).objects
    assert per_die(as_float, truth, keys=("pips",)) == 1
    grey = cv2.cvtColor(frame, cv2.COLOR_BGR2GRAY)
    assert per_die(dice.read(grey).objects, truth, keys=("pips",)) == 1


# --- teach ---------------------------------------------------------------------------------------------

def _class_photos(kind: tuple[str, str], seeds: range) -> list[np.ndarray]:
    return [render.scene(s, kinds=[kind] * 3, tilt=0.0, size=(50.0, 80.0))[0] for s in seeds]


def test_teach_round_trip_learns_the_players_dice(tmp_path):
    examples = {"white-gold": _class_photos(("white", "gold"), range(40, 42)),
                "black-gold": _class_photos(("black", "gold"), range(50, 52)),
                "black-white": _class_photos(("black", "white"), range(60, 62))}
    data = dice.teach(examples)
    assert set(data["classes"]) == set(examples)
    assert data["classes"]["white-gold"]["dark_pips"] is True
    assert data["classes"]["black-white"]["dark_pips"] is False
    lo, hi = data["pip_diameter"]
    assert 3 < lo <= hi < 40
    # through the profile file, as 'companion teach' then 'companion see --profile' do
    from vision import profile as profiles

    path = tmp_path / "dice.json"
    profiles.save(path, "dice", data)
    loaded = profiles.load(path, "dice")
    right = total = 0
    for seed in range(4000, 4004):
        frame, truth = render.scene(seed, kinds=render.BUTTONS_SET, tilt=0.0, size=(50.0, 80.0))
        right += per_die(dice.read(frame, loaded).objects, truth)
        total += len(truth)
    assert right / total >= 0.75


def test_teach_maps_an_odd_die_to_the_players_class_name():
    data = dice.teach({"other-white": _class_photos(("red", "white"), range(70, 72))})
    frame, truth = render.scene(71, kinds=[("red", "white")] * 2, tilt=0.0, size=(50.0, 80.0))
    found = dice.read(frame, data).objects
    assert found and all((o["body"], o["pip_colour"]) == ("other", "white") for o in found)


@pytest.mark.parametrize("name", ["gold-black", "white", "white-red", "purple-gold", "black-white-gold"])
def test_teach_refuses_unknown_class_names(name):
    with pytest.raises(ValueError, match="unknown dice class"):
        dice.teach({name: _class_photos(("white", "gold"), range(40, 41))})


def test_teach_refuses_a_photo_without_a_die():
    with pytest.raises(ValueError, match="no die found"):
        dice.teach({"black-gold": [np.full((480, 640, 3), 120, np.uint8)]})


# --- the see command --------------------------------------------------------------------------------------

def test_see_prints_dice_as_json(tmp_path, capsys):
    frame, truth = render.scene(3, kinds=[("black", "gold")], tilt=0.0, size=(90.0, 100.0))
    path = tmp_path / "roll.png"
    cv2.imwrite(str(path), frame)
    assert cli.see_main(["dice", str(path), "--json"]) == 0
    doc = json.loads(capsys.readouterr().out)
    assert doc["kind"] == "dice" and len(doc["objects"]) == 1
    die = doc["objects"][0]
    assert set(die) == {"pips", "body", "pip_colour", "confidence", "box"}
    assert die["pips"] == truth[0]["pips"] and die["body"] == "black" and die["pip_colour"] == "gold"
    assert len(die["box"]) == 4 and all(isinstance(v, int) for v in die["box"])


def test_see_refuses_a_file_that_is_not_an_image(tmp_path, capsys):
    path = tmp_path / "notes.jpg"
    path.write_text("not a photo")
    assert cli.see_main(["dice", str(path), "--json"]) == 2
    err = capsys.readouterr().err
    assert "not an image" in err and "Traceback" not in err


@pytest.mark.parametrize("data", [{}, {"classes": 5}, {"classes": {"pink-gold": {}}}, {"pip_diameter": "big"},
                                  {"classes": {"black-gold": {"body": [1, 2], "pip": [1, 2, 3],
                                                              "dark_pips": False}}}])
def test_a_malformed_profile_falls_back_to_the_built_in_rules(data):
    frame, truth = render.scene(3, kinds=[("black", "gold")], tilt=0.0, size=(90.0, 100.0))
    assert per_die(dice.read(frame, data).objects, truth) == 1


def test_teach_command_writes_a_profile_that_see_uses(tmp_path, capsys):
    for cls, kind, seeds in (("black-gold", ("black", "gold"), (50, 51)), ("black-white", ("black", "white"), (60,))):
        folder = tmp_path / "examples" / cls
        folder.mkdir(parents=True)
        for s in seeds:
            cv2.imwrite(str(folder / f"{s}.png"), _class_photos(kind, range(s, s + 1))[0])
    out = tmp_path / "dice-profile.json"
    assert cli.teach_main(["dice", "--examples", str(tmp_path / "examples"), "--out", str(out)]) == 0
    frame, truth = render.scene(3, kinds=[("black", "gold")], tilt=0.0, size=(90.0, 100.0))
    cv2.imwrite(str(tmp_path / "roll.png"), frame)
    capsys.readouterr()
    assert cli.see_main(["dice", str(tmp_path / "roll.png"), "--profile", str(out), "--json"]) == 0
    die = json.loads(capsys.readouterr().out)["objects"][0]
    assert (die["pips"], die["body"], die["pip_colour"]) == (truth[0]["pips"], "black", "gold")
