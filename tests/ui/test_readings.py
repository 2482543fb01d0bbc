"""From a camera reading to the record event, and the words the table shows (no window needed)."""

from __future__ import annotations

import re
from collections import Counter

import pytest

from companion.games.bag_of_butts import BagOfButts
from ui import panels, readings
from ui.i18n import STRINGS, piece_name, tr
from ui.readings import ReadingError


def tok(colour, group, x):
    return {"colour": colour, "group": group, "confidence": 0.9, "box": [x, 10, 40, 40]}


def test_draw_groups_follow_the_picture_left_to_right():
    objs = [tok("blue", 2, 300), tok("pink", 1, 200), tok("gray", 2, 100), tok("green", 3, 50)]
    assert readings.draw_event(objs) == {"type": "draw", "groups": [["pink"], ["gray", "blue"], ["green"]]}


def test_a_butt_without_group_is_sent_back_to_the_players():
    with pytest.raises(ReadingError) as err:
        readings.draw_event([tok("pink", None, 0)])
    assert "tap it to correct it" in err.value.text("en") and "tik erop" in err.value.text("nl")


def test_roll_sorts_the_three_kinds_of_dice():
    dice = [{"pips": 3, "body": "white", "pip_colour": "gold", "box": [0, 0, 9, 9]},
            {"pips": 4, "body": "black", "pip_colour": "gold", "box": [10, 0, 9, 9]},
            {"pips": 2, "body": "black", "pip_colour": "white", "box": [20, 0, 9, 9]},
            {"pips": 6, "body": "black", "pip_colour": "white", "box": [30, 0, 9, 9]}]
    assert readings.roll_event(dice) == {"type": "roll", "white": 3, "gold": 4, "black": [2, 6]}
    with pytest.raises(ReadingError, match="one white die"):
        readings.roll_event(dice[1:])


def test_cards_become_phase_and_reveal_events():
    cards = [{"colour": "red", "value": 5, "row": 0, "position": 1, "box": [200, 0, 9, 9]},
             {"colour": "blue", "value": "zero", "row": 0, "position": 0, "box": [100, 0, 9, 9]}]
    assert readings.phase_event(cards, ["Ann", "Bob"], ["Bob"]) == {
        "type": "phase", "played": {"Ann": "blue-zero", "Bob": "red-5"}, "takes": ["Bob"]}
    with pytest.raises(ReadingError, match="one card per player"):
        readings.phase_event(cards, ["Ann", "Bob", "Cy"], [])
    billy = cards + [{"colour": "green", "value": "dynamite", "row": 1, "position": 0, "box": [0, 50, 9, 9]}]
    assert readings.reveal_event(billy, ["Billy", "Ann", "Bob"]) == {
        "type": "reveal", "rows": {"Billy": ["blue-zero", "red-5"], "Ann": ["green-dynamite"], "Bob": []}}


def test_labels_say_the_class_in_words():
    assert readings.label(tok("gray", 2, 0), "tokens", "en") == "gray Bonus 2"
    assert readings.label(tok("khaki", 1, 0), "tokens", "nl") == "kaki Joker 1"
    assert readings.label({"pips": 5, "body": "black", "pip_colour": "gold"}, "dice") == "5 gold"
    assert readings.label({"colour": "red", "value": "pm"}, "cards") == "red +/-"


def test_pieces_added_by_hand_go_after_the_others():
    objs = [tok("pink", 1, 500)]
    piece = readings.new_piece("tokens", objs, {"colour": "blue", "group": 1})
    assert readings.draw_event([*objs, piece])["groups"][0] == ["pink", "blue"]


def test_every_string_has_both_languages_with_the_same_fields():
    for key, (en, nl) in STRINGS.items():
        assert en and nl, key
        assert set(re.findall(r"{(\w+)", en)) == set(re.findall(r"{(\w+)", nl)), key
    assert tr("next", "nl", name="Ann") == "Aan de beurt: Ann"
    assert tr("no-such-key") == "no-such-key"
    assert piece_name("white", "nl") == "wit Extra beurt"


def test_bag_of_butts_panel_reads_the_engine_view():
    game = BagOfButts(["Ann", "Bob"])
    assert panels.confirm_wanted(game.view()) and panels.bag_of_butts_choices(game.view(), "en") == []
    game.apply({"type": "draw", "groups": [["pink", "pink", "blue"], ["yellow", "yellow", "blue"], ["green", "green"]]})
    view = game.view()
    assert not panels.confirm_wanted(view)
    choices = panels.bag_of_butts_choices(view, "en")
    assert [e for _, e in choices] == [{"type": "score", "group": n} for n in (1, 2, 3)]
    assert (choices[0][0], choices[1][0], choices[2][0]) == ("Score group 1\nAnn +2", "Score group 2\nBob +2",
                                                             "Score group 3")
    text = panels.state_lines(view, "nl")
    assert "een kontje is 1 waard" in text and "roze, roze, blauw -> Ann +2, Bob +0" in text
    game.apply({"type": "score", "group": 1})
    choices = panels.bag_of_butts_choices(game.view(), "en")
    supply = Counter(game.view()["special_supply"])
    assert [e for _, e in choices] == [{"type": "add", "special": s} for s in supply] + [{"type": "reset"}]


def test_a_reveal_read_loot_by_loot_keeps_each_owner_and_the_last_loot_may_take_two_rows():
    kept = {"Billy": ["red-5", "red-dynamite"], "Ann": ["blue-3"]}
    last = [{"colour": "green", "value": v, "row": r, "position": i, "confidence": 0.9, "box": [i * 50, r * 90, 40, 80]}
            for r, row in enumerate([[4, 2], [9]]) for i, v in enumerate(row)]
    event = readings.reveal_event(last, ["Billy", "Ann", "Bob"], kept)
    assert event["rows"] == {"Billy": ["red-5", "red-dynamite"], "Ann": ["blue-3"],
                             "Bob": ["green-4", "green-2", "green-9"]}
    # without loot read before, each camera row is an owner: two rows for three owners leave Bob empty
    assert readings.reveal_event(last, ["Billy", "Ann", "Bob"])["rows"]["Bob"] == []
    with pytest.raises(ReadingError):  # every loot was read already: no owner left for these rows
        readings.reveal_event(last, ["Billy", "Ann", "Bob"], {"Billy": ["red-5"], "Ann": [], "Bob": []})


def test_a_piece_the_reader_is_unsure_of_is_marked_until_a_player_sets_it():
    doubtful = {**tok("gray", 2, 0), "confidence": 0.3}
    assert readings.label(doubtful, "tokens", "en") == "gray Bonus 2 ?"
    assert readings.summary([doubtful, tok("pink", 1, 50)], "tokens") == "1: pink | 2: gray Bonus? | 3: -"
    die = {"pips": 4, "body": "white", "pip_colour": "black", "confidence": 0.2}
    assert readings.label(die, "dice", "nl") == "4 wit ?"
    assert readings.label({**die, "confidence": 0.8}, "dice") == "4 white"
    assert readings.label({**die, "by_hand": True}, "dice") == "4 white"
