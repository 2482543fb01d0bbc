"""Whole games driven through the real Kivy window with simulated touches (Xvfb when headless)."""

from __future__ import annotations

import json

import pytest

pytestmark = pytest.mark.ui


def test_bag_of_butts_whole_game_by_touch_at_800x480(run_driver, tmp_path):
    res = run_driver("bag", "800x480", "--", "--size", "800x480", "--camera", "demo")
    assert "error" not in res, res.get("error")
    assert res["window"] == "800x480"  # --size was applied before the window opened
    assert res["player_rows"] == 3 and res["screen_after_start"] == "table"
    # an impossible reading is refused in words and nothing is recorded
    assert res["refusal"].startswith("Not recorded: ") and "the bag holds 2 pink" in res["refusal"]
    assert res["events_after_refusal"] == 0
    # tapping a piece on the picture opens the picker; the correction sticks
    assert res["picker_open"] and res["corrected"][0] == "yellow" and res["edited"]
    assert res["after_clear"] == ["pink", "blue", "green"]  # Clear drops the correction
    # a piece the reader was unsure of is marked "?" on the picture and in the reading, with a word
    # on what to do; once a player has set it by hand it is sure
    assert res["unsure_reading"].startswith("Reading: 1: pink? | 2: blue | 3: green\nUnsure: 1 marked ?")
    assert "pink\n1 ?" in res["unsure_labels"] and "blue\n2" in res["unsure_labels"]
    assert "?" not in res["corrected_reading"] and "Unsure" not in res["corrected_reading"]
    # the first draw entered by hand, piece by piece
    assert res["hand_reading"] == "Reading: 1: pink, pink, yellow | 2: yellow, blue, blue | 3: green, green"
    assert "Ann draws 3/3/2" in res["after_draw_teach"]
    assert "Group 1[/b]: pink, pink, yellow -> Ann +2, Bob +1, Cy +0" in res["after_draw_state"]
    assert sorted(b.split("\n")[0] for b in res["score_buttons"]) == ["Score group 1", "Score group 2",
                                                                       "Score group 3"]
    assert res["scores_after_first"] == {"Ann": 2, "Bob": 1, "Cy": 0}
    # the next turn offers the start-of-turn choice, from the engine's supply
    assert "Reset the bag" in res["choice_buttons"] and "Add gray Bonus" in res["choice_buttons"]
    assert res["pad_rows"][0][:5] == ["Turn", "Value", "Ann", "Bob", "Cy"]
    assert res["pad_rows"][1][-1] == "Ann: group 1"
    assert (res["events_after_undo"], res["events_after_redo"]) == (1, 2)
    # played to the end by touch: announced, winner shown, Confirm off
    assert res["over"] and res["final_summary"]["over"]
    winners = res["final_summary"]["winners"]
    assert res["final_next_text"].startswith("Game over. Winner: " + winners[0])
    assert any("Game over!" in a for a in res["announced"])
    assert res["confirm_disabled_end"]
    assert res["resume_offer_after_end"] == ""  # a finished game is not offered again
    # past games: statistics, replay from the first event, export
    assert f"{winners[0]}: 1 played, 1 won" in res["stats"]
    assert res["replay_first_event"].startswith("Ann draws 3/3/2")
    assert res["export_status"].startswith("Written to ")
    assert res["app_message"] == ""  # no error was caught on the way
    exported = json.loads(open(res["export_status"].removeprefix("Written to ")).read())
    assert exported["game"] == "bag-of-butts" and exported["players"] == ["Ann", "Bob", "Cy"]


def test_bag_of_butts_first_turns_at_1280x800(run_driver):
    res = run_driver("bag", "1280x800", "short", "--", "--size", "1280x800", "--camera", "demo")
    assert "error" not in res, res.get("error")
    assert res["events_after_refusal"] == 0 and res["scores_after_first"] == {"Ann": 2, "Bob": 1, "Cy": 0}
    assert (res["events_after_undo"], res["events_after_redo"]) == (1, 2)


def test_gpio_confirm_then_the_unfinished_game_comes_back_with_resume(run_driver, tmp_path, monkeypatch):
    config = tmp_path / "config" / "table-companion" / "config.toml"
    config.parent.mkdir(parents=True)
    config.write_text("[gpio]\nconfirm = 5\nundo = 6\n")
    monkeypatch.setenv("GPIOZERO_PIN_FACTORY", "mock")
    first = run_driver("unfinished", "gpio", "--", "--size", "800x480", "--camera", "demo")
    assert "error" not in first, first.get("error")
    assert first["gpio_available"]
    assert first["events"] == 1  # the draw was confirmed by the GPIO button
    again = run_driver("resume", "--", "--size", "800x480", "--camera", "demo", "--resume")
    assert "error" not in again, again.get("error")
    assert again["screen"] == "table"
    assert (again["game_id"], again["events"]) == (first["game_id"], 1)
    assert again["phase"] == "score"
    assert any(b.startswith("Score group") for b in again["buttons"])


def test_dutch_rules_and_settings_at_1280x800_with_a_damaged_score_pad(run_driver, tmp_path):
    notes = tmp_path / "notes.txt"
    notes.write_text("shopping list\n")
    res = run_driver("tour", "1280x800", "--", "--size", "1280x800", "--camera", "demo", "--db", str(notes))
    assert "error" not in res, res.get("error")
    assert res["home_message"] == f"Score pad: {notes} is not a score-pad database; it was left untouched"
    assert notes.read_text() == "shopping list\n"
    assert res["lang"] == "nl"
    assert "Eerdere spellen" in res["home_buttons"] and "Instellingen" in res["home_buttons"]
    assert res["rules_text"].startswith("[b]Bag of Butts[/b] (2-4 spelers)")
    assert "beelden/s" in res["camera_status"]
    # two taps on the Confirm pin (none -> 5 -> 6), then saved to the config file
    config = (tmp_path / "config" / "table-companion" / "config.toml").read_text()
    assert res["saved"].startswith("Bewaard in ") and 'language = "nl"' in config
    assert res["saved_later"] == res["saved"]  # still readable after a few of the preview's ticks
    assert "confirm = 6" in config


def test_a_bad_window_size_is_one_line_not_a_traceback(capsys):
    from ui.app import main

    assert main(["--size", "huge"]) == 2
    assert capsys.readouterr().err == "companion: --size must look like 800x480, not 'huge'\n"


def test_buttons_whole_game_by_touch_at_800x480(run_driver):
    res = run_driver("buttons", "800x480", "2000", "--", "--size", "800x480", "--camera", "demo")
    assert "error" not in res, res.get("error")
    assert res["screen_after_start"] == "table" and res["confirm_enabled_first"]
    assert "in play: 4 black white-pip dice" in res["first_state"]
    assert "Bust chance if Ann rolls: 0% (0/1)" in res["first_state"]
    assert res["refusal"] == ("Not recorded: a roll needs one white die and one gold-pip black die "
                              "(read 0 and 1)")
    assert res["events_after_refusal"] == 0
    # every tap the players made was accepted: rolls, placements (board and buttons), opt-outs, stars
    assert res["errors"] == [] and res["app_message"] == ""
    assert res["over"] and res["events"] == res["taps"]
    winners = res["summary"]["winners"]
    assert res["next_text"].startswith("Game over. Winner: " + winners[0])
    assert res["pad_rows"][0] == ["Round", "Ann", "Bob"]
    assert res["pad_rows"][-1][0] == "Stars"
    assert [int(n) for n in res["pad_rows"][-1][1:]] == [res["summary"]["scores"][p] for p in ("Ann", "Bob")]


def test_nicht_die_bohne_three_rounds_by_touch(run_driver):
    res = run_driver("ndb", "800x480", "3", "--", "--size", "800x480", "--camera", "demo")
    assert "error" not in res, res.get("error")
    assert res.get("errors") is None and res["app_message"] == ""
    # the taking order comes from taps on "X takes Y's card" buttons offered by the engine
    assert res["takes_text"].splitlines()[1].startswith("Taking order: ")
    assert "phase 3 of 20" in res["rows_after_phases"] and "in beans, scores" in res["rows_after_phases"]
    # a round read from the table: the round's scores, and the token holder asked for next round
    assert "Round 1: Player 1 " in res["after_round_1"] and res["asked_holder"]
    assert res["over"] and res["next_text"].startswith("Game over. Winner: ")
    assert res["pad_rows"][0] == ["Player", "Round 1", "Round 2", "Round 3", "Total"]
    assert [int(r[-1]) for r in res["pad_rows"][1:]] == list(res["summary"]["scores"].values())


def test_blasting_billy_reveal_corrected_by_touch_at_1280x800(run_driver):
    res = run_driver("billy", "1280x800", "--", "--size", "1280x800", "--camera", "demo")
    assert "error" not in res, res.get("error")
    assert "2: red 7, red 9, green 2" in res["reading"]  # the misread red-1 corrected by the picker
    assert res["over"] and res["summary"]["shot"]["Player 1"] == ["red", "blue"]
    assert "Billy's green: the dynamite takes green-4 with it: 12 becomes 8" in res["state"]
    assert res["next_text"].startswith("Game over. Winner: Player 2")
    assert "Everyone was shot" in res["teach"]


def test_blasting_billy_reveal_read_one_loot_at_a_time_at_800x480(run_driver):
    """A table too small for every loot at once: each loot read on its own, Billy first."""
    res = run_driver("billy_parts", "800x480", "--", "--size", "800x480", "--camera", "demo")
    assert "error" not in res, res.get("error")
    assert "This is Billy's loot" in res["buttons_before"]
    assert res["empty_keep"] == "Not recorded: no cards are read for Billy's loot"
    # the last loot needs no button: Confirm reads it, and a loot in two rows is one loot
    assert not any(b.startswith("This is") for b in res["buttons_last"])
    assert "Loot read so far: Billy (6), Player 1 (5), Player 2 (5)" in res["reading"]
    rows = res["revealed"]["rows"]
    assert rows["Billy"][3] == "green-dynamite" and rows["Player 1"][0] == "red-7"
    assert rows["Player 3"] == ["red-1", "purple-3", "purple-5", "yellow-2"]
    assert res["over"] and res["summary"]["shot"]["Player 1"] == ["red", "blue"]


def test_demo_table_shows_the_whole_loop_with_real_frames_and_readers(run_driver):
    """No camera: rendered frames of the game's own pieces, read by the real readers, confirmed."""
    pytest.importorskip("vision.tokens")
    pytest.importorskip("vision.render.dice")
    res = run_driver("demo", "800x480", "--", "--size", "800x480", "--camera", "demo")
    assert "error" not in res, res.get("error")
    assert res["bob_camera_text"] == "No camera found: playing on the demo table."
    assert res["bob_reading"].startswith("Reading: 1: ")
    # the bag's eight butts read from the picture, labelled in words, accepted by the engine; when
    # the reader misread a butt, the engine's refusal names it and the draw corrected by hand passes
    assert res["bob_first_error"] == "" or res["bob_first_error"].startswith("Not recorded: the bag holds")
    assert res["bob_error"] == "" and res["bob_events"] == 1
    assert "draws" in res["bob_teach"]
    assert all(lbl.split()[0] in ("pink", "yellow", "blue", "green") for lbl in res["bob_labels"])
    # Buttons: the six dice in play read as a roll the engine accepts
    assert res["buttons_error"] == "" and res["buttons_events"] == 1
    assert "Player 1 rolled: white " in res["buttons_state"]
    # the boards were read by the camera from the demo table, not typed
    assert all(len(b.split()) == 6 and all(len(r) == 6 and set(r) <= set("RYGB") for r in b.split())
               for b in res["boards_read"])


def test_a_camera_plugged_in_after_the_start_takes_over_from_the_demo_table(run_driver, tmp_path):
    """Started before the camera was there (a late USB camera, a slow boot): the game goes on."""
    pytest.importorskip("vision.tokens")
    res = run_driver("late", str(tmp_path), "--", "--size", "800x480", "--camera", "opencv:97")
    assert "error" not in res, res.get("error")
    assert res["start_demo"] is True
    assert res["start_text"].startswith("No camera found: playing on the demo table.")
    assert res["found_text"] == "Camera found: the table is live." and res["found_demo"] is False
    # the butts in the camera's picture, read by the real reader (not the demo's scene)
    assert len(res["read_colours"]) == len(res["truth_colours"])
    assert res["camera_closed"] == ["closed"]  # leaving the table frees the camera
