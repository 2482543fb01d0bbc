"""Bag of Butts as records: the rulebook's worked examples and every rule and ruling."""

from __future__ import annotations

import pytest

from companion.core import IllegalEvent, format_table
from companion.games.bag_of_butts import PLAYER_COLOURS, BagOfButts
from companion.records import Record, RecordError, replay


def turn(scoring: list[str], specials: list[str] = (), add: str | None = None) -> list[dict]:
    """One turn: optionally add a special, draw group 1 = ``scoring`` (player butts only), score it."""
    rest = [c for c in PLAYER_COLOURS for _ in range(2)]
    for t in scoring:
        rest.remove(t)
    events = [{"type": "add", "special": add}] if add else []
    events.append({"type": "draw", "groups": [scoring, rest[:1], rest[1:] + list(specials)]})
    events.append({"type": "score", "group": 1})
    return events


def play(players, events, colours=None) -> BagOfButts:
    options = {"colours": colours} if colours else {}
    return replay(Record("bag-of-butts", players, options, events))


# -- the rulebook's worked examples ------------------------------------------------------------
def test_first_scoring_choice_ali():
    """Ali (pink), second turn of four, one special in the bag: group 2 gives him 2 and blue 4."""
    colours = {"Dora": "green", "Ali": "pink", "Ben": "yellow", "Cleo": "blue"}
    events = turn(["green"]) + [
        {"type": "add", "special": "white"},
        {"type": "draw", "groups": [["yellow", "white"], ["pink", "blue", "blue"],
                                    ["pink", "yellow", "green", "green"]]},
    ]
    game = play(list(colours), events, colours)
    groups = game.view()["groups"]
    assert groups[0]["points"] == {"Dora": 0, "Ali": 0, "Ben": 2, "Cleo": 0}
    assert groups[1]["points"] == {"Dora": 0, "Ali": 2, "Ben": 0, "Cleo": 4}
    assert groups[2]["points"] == {"Dora": 4, "Ali": 2, "Ben": 2, "Cleo": 0}
    game.apply({"type": "score", "group": 2})
    assert game.scores() == {"Dora": 1, "Ali": 2, "Ben": 0, "Cleo": 4}
    assert game.next_player() == "Ben"


def five_turn_run():
    return (turn(["pink"]) + turn(["yellow"], ["gray"], add="gray") + turn(["pink"], ["gray", "black"], add="black")
            + turn(["yellow"], ["gray", "black", "khaki"], add="khaki")
            + turn(["pink"], ["gray", "black", "khaki", "gray"], add="gray"))


def test_automatic_reset_bella():
    """Bella draws a special in every group with five in the bag: nobody scores, five go back."""
    events = five_turn_run() + [
        {"type": "add", "special": "black"},
        {"type": "draw", "groups": [["gray", "pink"], ["black", "yellow", "blue", "blue", "green"],
                                    ["gray", "black", "khaki", "pink", "yellow", "green"]]},
    ]
    game = play(["Ali", "Bella"], events[:-1])
    assert game.view()["butt_value"] == 6  # each scored butt would have been worth six
    before = game.scores()
    applied = game.apply(events[-1])
    assert "reset" in applied.signals and "automatic reset" in applied.explanation.en
    assert game.scores() == before
    view = game.view()
    assert view["specials_in_bag"] == {} and view["special_supply"] == {"black": 2, "gray": 2, "white": 1, "khaki": 1}
    assert view["active"] == "Ali" and view["phase"] == "draw" and view["butt_value"] == 1
    with pytest.raises(IllegalEvent, match="after an automatic reset"):
        game.apply({"type": "add", "special": "white"})


def test_score_pad_example_eddy():
    """Cole, Darla, Eddy: the paper pad's three rows (values 1, 2, 3)."""
    events = (turn(["pink", "pink", "yellow"]) + turn(["yellow"], ["black"], add="black")
              + turn(["pink", "blue", "blue"], ["black", "white"], add="white"))
    game = play(["Cole", "Darla", "Eddy"], events)
    pad = game.score_pad()
    assert pad[0][:5] == ["Turn", "Value", "Cole", "Darla", "Eddy"]
    assert [row[1:5] for row in pad[1:4]] == [["1", "2", "1", "X"], ["2", "X", "3", "X"], ["3", "5", "X", "6"]]
    assert game.scores() == {"Cole": 5, "Darla": 3, "Eddy": 6}
    assert "Cole" in format_table(pad)


def test_catch_up_bonus_extra_turn_frida_worth_16():
    players = ["Gus", "Frida", "Yara", "Bo"]
    colours = {"Gus": "green", "Frida": "pink", "Yara": "yellow", "Bo": "blue"}
    events = (turn(["green", "green"]) + turn(["yellow"], ["black"], add="black")
              + turn(["blue"], ["black", "khaki"], add="khaki") + turn(["green"], ["black", "khaki", "gray"], add="gray")
              + turn(["yellow"], ["black", "khaki", "gray", "gray"], add="gray"))
    events += [{"type": "add", "special": "white"},
               {"type": "draw", "groups": [["black", "pink", "yellow"], ["yellow", "green", "green"],
                                           ["pink", "khaki", "gray", "gray", "white", "blue", "blue"]]}]
    game = play(players, events, colours)
    before = game.scores()
    assert min(before, key=before.get) == "Frida" and list(before.values()).count(0) == 1
    groups = game.view()["groups"]
    assert not groups[0]["scorable"] and "black No Touchy" in groups[0]["reason"]["en"]
    assert groups[1]["points"] == {"Gus": 12, "Frida": 0, "Yara": 6, "Bo": 0}
    applied = game.apply({"type": "score", "group": 3})
    assert game.scores()["Frida"] == 16 and game.scores()["Bo"] == before["Bo"] + 16
    assert "extra-turn" in applied.signals and "khaki butt counts for Frida" in applied.explanation.en
    view = game.view()
    assert view["active"] == "Frida" and view["extra_turn"] and view["phase"] == "choose"
    assert view["can_reset"] and view["can_add"]  # the supply has one black left
    assert view["special_supply"] == {"black": 1}


# -- rules ---------------------------------------------------------------------------------------
def test_black_group_refused_and_state_unchanged():
    game = play(["A", "B"], turn(["pink"]) + [
        {"type": "add", "special": "black"},
        {"type": "draw", "groups": [["black", "pink"], ["pink", "yellow"], ["yellow", "blue", "blue", "green", "green"]]}])
    with pytest.raises(IllegalEvent, match="group 1 holds a black No Touchy butt and cannot be scored"):
        game.apply({"type": "score", "group": 1})
    assert game.view()["phase"] == "score" and game.scores() == {"A": 1, "B": 0}


def test_all_special_group_refused():
    game = play(["A", "B"], turn(["pink"]) + [
        {"type": "add", "special": "gray"},
        {"type": "draw", "groups": [["gray"], ["pink", "yellow"], ["pink", "yellow", "blue", "blue", "green", "green"]]}])
    with pytest.raises(IllegalEvent, match="only special butts"):
        game.apply({"type": "score", "group": 1})


def test_neutral_group_with_three_players_scores_nobody():
    game = play(["A", "B", "C"], [{"type": "draw", "groups": [["green", "green"], ["pink", "pink", "yellow"],
                                                             ["yellow", "blue", "blue"]]}])
    assert game.view()["groups"][0]["scorable"]
    applied = game.apply({"type": "score", "group": 1})
    assert game.scores() == {"A": 0, "B": 0, "C": 0} and "nobody scores" in applied.explanation.en


def test_khaki_tie_counts_for_each_tied_player():
    events = turn(["pink"]) + [{"type": "add", "special": "khaki"},
                               {"type": "draw", "groups": [["khaki", "blue"], ["pink", "pink"],
                                                           ["yellow", "yellow", "blue", "green", "green"]]}]
    game = play(["A", "B", "C"], events)  # B and C tie on 0
    assert game.view()["groups"][0]["khaki_for"] == ["B", "C"]
    game.apply({"type": "score", "group": 1})
    assert game.scores() == {"A": 1, "B": 2, "C": 4}  # value 2: B one khaki butt, C khaki + blue


def test_draw_must_be_the_bags_content():
    game = play(["A", "B"], turn(["pink"]) + [{"type": "add", "special": "gray"}])
    with pytest.raises(IllegalEvent, match="the bag holds 1 gray, the draw shows 2"):
        game.apply({"type": "draw", "groups": [["gray", "gray"], ["pink", "pink", "yellow"],
                                               ["yellow", "blue", "blue", "green", "green"]]})
    with pytest.raises(IllegalEvent, match="group 2 is empty"):
        game.apply({"type": "draw", "groups": [["gray"], [], ["pink"]]})


def test_choice_only_when_rules_allow():
    game = BagOfButts(["A", "B"])
    with pytest.raises(IllegalEvent, match="first turn"):
        game.apply({"type": "reset"})
    with pytest.raises(IllegalEvent, match="first turn"):
        game.apply({"type": "add", "special": "gray"})
    for e in turn(["pink"]):
        game.apply(e)
    with pytest.raises(IllegalEvent, match="must first add a special butt or reset"):
        game.apply({"type": "draw", "groups": [["pink"], ["pink"], ["yellow"] * 2 + ["blue"] * 2 + ["green"] * 2]})
    game.apply({"type": "add", "special": "gray"})
    with pytest.raises(IllegalEvent, match="must draw the three groups"):
        game.apply({"type": "reset"})


def test_voluntary_reset_without_specials_still_counts():
    game = play(["A", "B"], turn(["pink"]) + [{"type": "reset"}] + turn(["yellow"]))
    assert game.view()["butt_value"] == 2  # if B adds now
    applied = game.apply({"type": "reset"})  # R2: allowed with an empty bag
    assert "reset" in applied.signals and game.view()["butt_value"] == 1


def test_supply_runs_out_and_value_keeps_rising():
    specials = ["black", "black", "gray", "gray", "white", "khaki"]
    events, inbag = turn(["pink"]), []
    for s in specials:
        inbag.append(s)
        events += turn(["yellow"], list(inbag), add=s)
    game = play(["A", "B"], events)
    assert game.view()["special_supply"] == {} and not game.view()["can_add"]
    with pytest.raises(IllegalEvent, match="supply is empty"):
        game.apply({"type": "add", "special": "gray"})
    game.apply(turn(["blue"], inbag)[0])  # draw straight away: nothing to add
    assert game.view()["butt_value"] == 8  # R3: V = 7
    game.apply({"type": "score", "group": 1})
    assert game.scores()[game.players[0]] + game.scores()[game.players[1]] >= 8


def test_extra_turns_chain():
    events = turn(["pink"]) + turn(["pink"], ["white"], add="white")
    game = play(["A", "B"], events)  # B drew... A scored turn 1, B turn 2 (no white in group 1)
    game.apply({"type": "add", "special": "gray"})
    rest = ["pink", "pink", "yellow", "yellow", "blue", "blue", "green", "green", "white", "gray"]
    game.apply({"type": "draw", "groups": [["white", "pink"], ["gray", "pink"], rest[2:8]]})
    applied = game.apply({"type": "score", "group": 1})
    assert "extra-turn" in applied.signals and game.next_player() == "A"
    game.apply({"type": "add", "special": "khaki"})
    game.apply({"type": "draw", "groups": [["white", "yellow"], ["gray", "khaki", "pink"],
                                           ["pink", "yellow", "blue", "blue", "green", "green"]]})
    game.apply({"type": "score", "group": 1})
    assert game.next_player() == "A" and game.view()["extra_turn"]


def pair_turn(value_specials: list[str], add: str | None) -> list[dict]:
    """A turn scoring both pink and both yellow butts: both players gain the same."""
    return turn(["pink", "pink", "yellow", "yellow"], value_specials, add=add)


def tied_race() -> list[dict]:
    """Two players who always gain the same, until both pass 28 (values 2,4,6,8,10,12 -> 42)."""
    events, inbag = pair_turn([], None), []
    for s in ["black", "black", "khaki", "gray", "gray"]:
        inbag.append(s)
        events += pair_turn(list(inbag), s)
    return events


def test_voluntary_reset_after_28_ends_at_once_and_tie_goes_to_tiebreaker():
    game = play(["A", "B"], tied_race())
    assert game.scores() == {"A": 42, "B": 42} and game.view()["final_stretch"]
    resetter = game.next_player()
    applied = game.apply({"type": "reset"})
    assert not game.is_over and "tiebreaker" in applied.explanation.en
    assert game.summary()["tiebreak"] == {"players": ["A", "B"], "scores": {"A": 0, "B": 0}}
    assert game.next_player() == resetter  # R6: the resetting player would have played
    with pytest.raises(IllegalEvent, match="first turn of the tiebreaker"):
        game.apply({"type": "reset"})
    for e in turn(["pink"]):
        game.apply(e)
    assert game.summary()["tiebreak"]["scores"] == {"A": 1, "B": 0} and game.scores() == {"A": 42, "B": 42}
    applied = game.apply({"type": "reset"})
    assert game.is_over and game.summary()["winners"] == ["A"] and "game-over" in applied.signals


def test_tiebreaker_tie_is_a_shared_win():
    game = play(["A", "B"], tied_race() + [{"type": "reset"}] + pair_turn([], None) + [{"type": "reset"}])
    summary = game.summary()
    assert summary["over"] and summary["winners"] == ["A", "B"] and summary["next"] is None


def test_automatic_reset_after_28_ends_after_that_turn():
    events = tied_race()[:-2] + [  # last turn: A scores pink alone -> A leads
        {"type": "draw", "groups": [["pink"], ["yellow"], ["pink", "yellow", "blue", "blue", "green", "green",
                                                          "black", "black", "khaki", "gray", "gray"]]},
        {"type": "score", "group": 1}]
    game = play(["A", "B"], events)
    assert game.view()["final_stretch"] and game.scores()["B"] < game.scores()["A"]
    game.apply({"type": "add", "special": "white"})
    game.apply({"type": "draw", "groups": [["white", "pink"], ["gray", "pink", "yellow"],
                                           ["yellow", "blue", "blue", "green", "green", "black", "black", "khaki",
                                            "gray"]]})
    assert game.is_over and game.summary()["winners"] == ["A"]
    with pytest.raises(IllegalEvent, match="game is over"):
        game.apply({"type": "reset"})


def test_record_errors_name_the_event():
    with pytest.raises(RecordError) as err:
        play(["A", "B"], turn(["pink"]) + [{"type": "score", "group": 1}])
    assert err.value.line().startswith("event 2: no scoring now")
    with pytest.raises(RecordError, match="setup: 'colours' gives no colour for B"):
        play(["A", "B"], [], {"A": "pink"})
    with pytest.raises(RecordError, match="setup: this game is for 2 to 4 players"):
        play(["A"], [])


def test_explanations_in_dutch():
    game = BagOfButts(["A", "B"])
    game.apply(turn(["pink"])[0])
    applied = game.apply({"type": "score", "group": 1})
    assert applied.explanation("nl").startswith("A scoort groep 1: A +1")
