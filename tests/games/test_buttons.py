"""Buttons scenarios written as game records: setup, dice, placements, busts, opt-outs, stars, the end."""

from __future__ import annotations

import copy
from typing import Any

import pytest

from companion import records
from companion.games.buttons import Buttons
from companion.records import Record, RecordError

# Quarters: red top-left, yellow top-right, green bottom-left, blue bottom-right.
QUARTERS = ["RRRYYY", "RRRYYY", "RRRYYY", "GGGBBB", "GGGBBB", "GGGBBB"]
STRIPES = ["RYGBRY", "YGBRYG", "GBRYGB", "BRYGBR", "RYGBRY", "YGBRYG"]


def options(players: list[str], bonus: dict[str, list[str]] | None = None) -> dict[str, Any]:
    opts: dict[str, Any] = {"boards": {p: list(QUARTERS) for p in players}}
    if bonus is not None:
        opts["bonus"] = bonus
    return opts


def record(players: list[str], events: list[dict[str, Any]], bonus: dict[str, list[str]] | None = None) -> Record:
    return Record("buttons", players, options(players, bonus), events)


def play(players: list[str], events: list[dict[str, Any]], bonus: dict[str, list[str]] | None = None) -> Buttons:
    game = records.replay(record(players, events, bonus))
    assert isinstance(game, Buttons)
    return game


def refused(players: list[str], events: list[dict[str, Any]], bonus: dict[str, list[str]] | None = None) -> RecordError:
    """Replay a record whose last event must be refused; the game before it must be untouched."""
    with pytest.raises(RecordError) as info:
        records.replay(record(players, events, bonus))
    assert info.value.index == len(events) - 1, info.value.line()
    before = play(players, events[:-1], bonus)
    view = before.view()
    with pytest.raises(records.RulesError):
        before.apply(copy.deepcopy(events[-1]))
    assert before.view() == view
    return info.value


def roll(white: int, gold: int, black: list[int]) -> dict[str, Any]:
    return {"type": "roll", "white": white, "gold": gold, "black": black}


def place(player: str, row: int, col: int) -> dict[str, Any]:
    return {"type": "place", "player": player, "row": row, "col": col}


def optout(player: str) -> dict[str, Any]:
    return {"type": "optout", "player": player}


def stars(player: str, cells: list[tuple[int, int]]) -> dict[str, Any]:
    return {"type": "stars", "player": player, "cells": [list(c) for c in cells]}


def script(players: list[str], rounds: list[dict[str, dict[str, Any]]],
           bonus: dict[str, list[str]] | None = None) -> list[dict[str, Any]]:
    """Events for scripted rounds: each player places the listed cells (rolling exactly them), then
    opts out or busts (rolling onto one of their own buttons); stars go on the listed cells."""
    game = Buttons(players, options(players, bonus))
    events: list[dict[str, Any]] = []

    def push(event: dict[str, Any]) -> None:
        game.apply(event)
        events.append(event)

    for plan in rounds:
        todo = {p: list(plan[p]["place"]) for p in players}
        start_round = game.round_no
        while game.round_no == start_round and not game.is_over:
            who = game.next_player()
            assert who is not None
            if game.phase == "stars":
                due = game.stars_due[0][1]
                push(stars(who, plan[who].get("stars") or sorted(game.buttons[who])[:due]))
            elif game.owes_place():
                push(place(who, *game.placeable(who)[0]))
            else:
                black = game.dice_in_play()["black"]
                if todo[who]:
                    r, c = todo[who].pop(0)
                    push(roll(r, c, [c] * black))
                elif plan[who]["then"] == "bust":
                    r, c = sorted(game.buttons[who])[0]
                    push(roll(r, c, [c] * black))
                else:
                    push(optout(who))
    return events


# -- setup --------------------------------------------------------------------------------------
@pytest.mark.parametrize("opts, message", [
    ({}, "options need 'boards'"),
    ({"boards": {"Ann": QUARTERS}}, "Bob has no board"),
    ({"boards": {"Ann": QUARTERS, "Bob": QUARTERS, "Zed": QUARTERS}}, "'Zed', who is not playing"),
    ({"boards": {"Ann": QUARTERS, "Bob": QUARTERS[:5]}}, "Bob's board must be a list of 6 rows"),
    ({"boards": {"Ann": QUARTERS, "Bob": [*QUARTERS[:5], "RRRYYW"]}}, "row 6 of Bob's board"),
    ({"boards": {"Ann": QUARTERS, "Bob": [*QUARTERS[:5], "RRRYY"]}}, "row 6 of Bob's board"),
    ({"boards": {"Ann": QUARTERS, "Bob": [*QUARTERS[:5], "rrryyy"]}}, "row 6 of Bob's board"),
    ({"boards": {"Ann": QUARTERS, "Bob": [*QUARTERS[:5], 123456]}}, "row 6 of Bob's board"),
    ({"boards": "QUARTERS"}, "'boards' must map"),
    ({"boards": {"Ann": QUARTERS, "Bob": QUARTERS}, "bonus": {"Ann": ["red"], "Bob": ["blue"]}},
     "with 2 players each player holds 2 bonus colours"),
    ({"boards": {"Ann": QUARTERS, "Bob": QUARTERS}, "bonus": {"Ann": ["red", "red"], "Bob": ["green", "blue"]}},
     "only one red bonus card"),
    ({"boards": {"Ann": QUARTERS, "Bob": QUARTERS}, "bonus": {"Ann": ["red", "pink"], "Bob": ["green", "blue"]}},
     "one of red, yellow, green, blue"),
    ({"boards": {"Ann": QUARTERS, "Bob": QUARTERS}, "colours": {}}, "unknown option 'colours'"),
])
def test_setup_is_checked_fully(opts: dict[str, Any], message: str) -> None:
    with pytest.raises(RecordError) as info:
        records.start(Record("buttons", ["Ann", "Bob"], opts, []))
    assert info.value.index is None
    assert message in info.value.line()


def test_three_players_one_card_each_and_red_never_removed() -> None:
    players = ["Ann", "Bob", "Cy"]
    boards = {p: QUARTERS for p in players}
    with pytest.raises(RecordError, match="red bonus card"):
        records.start(Record("buttons", players, {"boards": boards,
                                                  "bonus": {"Ann": ["yellow"], "Bob": ["green"], "Cy": ["blue"]}}))
    with pytest.raises(RecordError, match="each player holds 1 bonus colour"):
        records.start(Record("buttons", players, {"boards": boards,
                                                  "bonus": {"Ann": ["red", "blue"], "Bob": ["green"], "Cy": []}}))
    game = records.start(Record("buttons", players, {"boards": boards,
                                                     "bonus": {"Ann": ["yellow"], "Bob": ["red"], "Cy": ["blue"]}}))
    assert game.view()["red_holder"] == "Bob" and game.next_player() == "Bob"


def test_default_bonus_deal_is_documented_one() -> None:
    two = play(["Ann", "Bob"], [])
    assert two.view()["bonus"] == {"Ann": ["red", "yellow"], "Bob": ["green", "blue"]}
    three = play(["Ann", "Bob", "Cy"], [])
    assert three.view()["bonus"] == {"Ann": ["red"], "Bob": ["yellow"], "Cy": ["green"]}
    four = play(["Ann", "Bob", "Cy", "Dee"], [])
    assert four.view()["bonus"] == {"Ann": ["red"], "Bob": ["yellow"], "Cy": ["green"], "Dee": ["blue"]}
    assert four.next_player() == "Ann"


# -- dice ---------------------------------------------------------------------------------------
def test_roll_needs_exactly_the_dice_in_play() -> None:
    err = refused(["Ann", "Bob", "Cy"], [roll(1, 1, [1, 1, 1])])
    assert "'black' needs 4 values, not 3" in err.line()
    refused(["Ann", "Bob", "Cy"], [roll(1, 1, [1, 1, 1, 1, 1])])
    refused(["Ann", "Bob", "Cy"], [roll(7, 1, [1, 1, 1, 1])])
    refused(["Ann", "Bob", "Cy"], [roll(1, 0, [1, 1, 1, 1])])
    refused(["Ann", "Bob", "Cy"], [roll(1, 1, [1, 1, True, 1])])


def test_two_player_game_sets_two_dice_aside_per_opt_out() -> None:
    events = [roll(1, 1, [1, 1, 1, 1]), place("Ann", 1, 1), roll(2, 2, [2, 2, 2, 2]), place("Bob", 2, 2),
              optout("Ann")]
    game = play(["Ann", "Bob"], events)
    assert game.view()["dice"] == {"white": 1, "gold": 1, "black": 2, "set_aside": 2}
    assert "sets two black dice aside" in game.view()["explanation"]["en"]
    refused(["Ann", "Bob"], [*events, roll(4, 4, [4, 4, 4])])
    game = play(["Ann", "Bob"], [*events, roll(4, 4, [4, 5])])
    assert game.next_player() == "Bob" and game.placeable("Bob") == [(4, 4), (4, 5)]


def test_three_player_game_sets_one_die_aside_and_the_last_player_rolls_on() -> None:
    p = ["Ann", "Bob", "Cy"]
    events = [roll(1, 1, [1, 1, 1, 1]), place("Ann", 1, 1), roll(2, 2, [2, 2, 2, 2]), place("Bob", 2, 2),
              roll(3, 3, [3, 3, 3, 3]), place("Cy", 3, 3), optout("Ann"), optout("Bob")]
    game = play(p, events)
    assert game.dice_in_play()["black"] == 2 and game.in_round() == ["Cy"] and game.next_player() == "Cy"
    game = play(p, [*events, roll(5, 5, [6, 1]), place("Cy", 5, 1)])
    assert game.next_player() == "Cy"  # alone in the round, Cy rolls again or opts out


# -- placements ----------------------------------------------------------------------------------
def test_roller_must_place_on_white_row_any_black_column() -> None:
    p = ["Ann", "Bob", "Cy"]
    first = roll(3, 2, [5, 5, 6, 6])
    game = play(p, [first])
    assert game.next_player() == "Ann"
    assert game.placeable("Ann") == [(3, 2), (3, 5), (3, 6)]
    assert game.placeable("Bob") == [(3, 2)] and game.placeable("Cy") == [(3, 2)]
    assert "Ann must place a button on one of (3,2), (3,5) or (3,6)" in game.view()["explanation"]["en"]
    assert "Ann moet een knoop leggen" in game.view()["explanation"]["nl"]
    for cell in [(3, 5), (3, 6), (3, 2)]:
        assert play(p, [first, place("Ann", *cell)]).buttons["Ann"] == {cell}
    assert "row 3, column 2, 5 or 6" in refused(p, [first, place("Ann", 3, 4)]).line()
    refused(p, [first, place("Ann", 2, 5)])
    assert "only (3,2)" in refused(p, [first, place("Bob", 3, 5)]).line()
    err = refused(p, [first, roll(1, 1, [1, 1, 1, 1])])
    assert err.line() == "event 1: Ann must first place a button for their roll, on one of (3,2), (3,5) or (3,6)"
    assert "Ann must first place a button" in refused(p, [first, optout("Ann")]).line()


def test_others_place_on_white_and_gold_in_any_order_once_each() -> None:
    p = ["Ann", "Bob", "Cy"]
    first = roll(3, 2, [5, 5, 6, 6])
    game = play(p, [first, place("Cy", 3, 2), place("Ann", 3, 6), place("Bob", 3, 2)])
    assert {q: sorted(game.buttons[q]) for q in p} == {"Ann": [(3, 6)], "Bob": [(3, 2)], "Cy": [(3, 2)]}
    assert game.next_player() == "Bob" and game.can_roll()
    assert "already placed" in refused(p, [first, place("Cy", 3, 2), place("Cy", 3, 2)]).line()
    # the next roll closes the optional placements of the roll before it
    events = [first, place("Ann", 3, 6), roll(5, 5, [5, 5, 5, 5])]
    assert "only (5,5)" in refused(p, [*events, place("Cy", 3, 2)]).line()
    assert "no roll to place" in refused(p, [place("Bob", 1, 1)]).line()


def test_legal_cells_need_no_button_no_star_and_no_button_beside() -> None:
    p = ["Ann", "Bob"]
    events = [roll(3, 3, [3, 3, 3, 3]), place("Ann", 3, 3), roll(6, 6, [6, 6, 6, 6]), place("Bob", 6, 6)]
    game = play(p, events)
    legal = set(game.legal_cells("Ann"))
    assert (3, 3) not in legal and not legal & {(2, 3), (4, 3), (3, 2), (3, 4)}
    assert {(2, 2), (4, 4), (2, 4), (4, 2)} <= legal  # diagonal neighbours are fine
    assert len(legal) == 31
    err = refused(p, [*events, roll(3, 4, [4, 4, 5, 5]), place("Ann", 3, 4)])
    assert "a button lies next to it" in err.line()
    # stars block their own cell, not their neighbours
    game = play(p, script(p, [{"Ann": {"place": [(1, 1)], "then": "optout"},
                               "Bob": {"place": [(1, 1)], "then": "optout"}}]))
    assert game.stars["Ann"] == {(1, 1)} and game.buttons["Ann"] == set()
    assert (1, 1) not in game.legal_cells("Ann") and (1, 2) in game.legal_cells("Ann")


# -- bust ----------------------------------------------------------------------------------------
def test_bust_removes_the_rounds_buttons_and_sets_a_die_aside() -> None:
    p = ["Ann", "Bob", "Cy"]
    events = [roll(1, 1, [1, 1, 1, 1]), place("Ann", 1, 1), place("Bob", 1, 1),
              roll(3, 3, [3, 3, 3, 3]), place("Bob", 3, 3),
              roll(5, 5, [5, 5, 5, 5]), place("Cy", 5, 5)]
    game = play(p, events)
    assert game.bust_chance() == game.bust_chance("Ann") and game.bust_probability() > 0
    applied = game.apply(roll(1, 2, [2, 1, 2, 1]))
    assert "bust" in applied.signals
    assert "Ann busts, loses 1 button of this round, sets one black die aside" in applied.explanation.en
    assert "Ann is bust" in applied.explanation.nl
    assert game.buttons["Ann"] == set() and game.out == {"Ann": "bust"}
    assert game.dice_in_play()["black"] == 3 and game.next_player() == "Bob"
    # ruling R5: the others may still use the (white, gold) cell of the bust roll
    assert game.placeable("Ann") == [] and game.placeable("Bob") == [] and game.placeable("Cy") == [(1, 2)]
    game.apply(place("Cy", 1, 2))
    after = [*events, roll(1, 2, [2, 1, 2, 1])]
    assert "busted" in refused(p, [*after, place("Ann", 1, 2)]).line()
    assert "it is Bob's turn" in refused(p, [*after, optout("Ann")]).line()
    # ruling R3: out of the round, no gold-die buttons either
    game = play(p, [*after, roll(2, 4, [4, 4, 4])])
    assert game.placeable("Ann") == [] and game.placeable("Cy") == [(2, 4)]


def test_last_player_busting_ends_the_round_and_earns_nothing() -> None:
    p = ["Ann", "Bob"]
    events = script(p, [{"Ann": {"place": [(1, 1)], "then": "optout"},
                         "Bob": {"place": [(2, 2)], "then": "bust"}}])
    assert [e["type"] for e in events] == ["roll", "place", "roll", "place", "optout", "roll", "stars"]
    game = play(p, events)
    assert game.rounds[0] == {"Ann": ("optout", 1), "Bob": ("bust", 0)}
    assert game.stars == {"Ann": {(1, 1)}, "Bob": set()}
    replayed = play(p, events[:-2])
    applied = replayed.apply(events[-2])
    assert applied.signals == {"bust", "round-end"}
    assert "Bob busted and earns no stars" in applied.explanation.en
    assert replayed.next_player() == "Ann" and replayed.phase == "stars"


def test_all_busting_starts_the_next_round_at_once() -> None:
    p = ["Ann", "Bob"]
    game = play(p, script(p, [{"Ann": {"place": [(1, 1)], "then": "bust"},
                               "Bob": {"place": [(2, 2)], "then": "bust"}}]))
    assert game.round_no == 2 and game.phase == "turn" and game.scores() == {"Ann": 0, "Bob": 0}
    assert game.next_player() == "Bob"  # the cards passed: Bob holds red now
    assert "Round 2" in game.view()["explanation"]["en"]


# -- opt-out -------------------------------------------------------------------------------------
def test_opt_out_refused_without_a_button_this_round() -> None:
    err = refused(["Ann", "Bob"], [optout("Ann")])
    assert err.line() == "event 0: Ann has placed no button this round, so Ann cannot opt out and must roll"
    # a gold-die button placed on someone else's turn counts
    game = play(["Ann", "Bob"], [roll(1, 1, [1, 1, 1, 1]), place("Ann", 1, 1), place("Bob", 1, 1), optout("Bob")])
    assert game.out == {"Bob": "optout"}
    assert "not Bob's" in refused(["Ann", "Bob"], [optout("Bob")]).line()


def test_opt_out_explains_the_stars_to_come() -> None:
    p = ["Ann", "Bob"]
    events = [roll(1, 1, [1, 1, 1, 1]), place("Ann", 1, 1), roll(4, 4, [4, 4, 4, 4]), place("Bob", 4, 4),
              roll(1, 3, [3, 3, 3, 3]), place("Ann", 1, 3), roll(6, 6, [6, 6, 6, 6]), place("Bob", 6, 6),
              roll(3, 2, [2, 2, 2, 2]), place("Ann", 3, 2), roll(4, 6, [6, 6, 6, 6]), place("Bob", 4, 6)]
    game = play(p, events)
    assert game.optout_stars("Ann") == 3 and game.optout_stars("Bob") is None
    assert game.view()["optout_stars"] == 3
    applied = game.apply(optout("Ann"))
    assert applied.explanation.en == ("Ann opts out with 3 buttons, sets two black dice aside and will earn "
                                      "3 stars: 1 for opting out, 1 for 3 buttons in red and 1 bonus for red.")
    assert applied.explanation.nl.startswith("Ann stapt uit met 3 knopen")


# -- stars ---------------------------------------------------------------------------------------
def test_star_counts_colours_bonus_and_seat_order_from_red() -> None:
    p = ["Ann", "Bob"]
    # Ann holds red+yellow, Bob green+blue in round 1
    events = script(p, [{"Ann": {"place": [(1, 1), (1, 3), (3, 2), (1, 5), (2, 4), (2, 6)], "then": "optout",
                                 "stars": [(1, 1), (1, 3), (3, 2), (1, 5), (2, 4)]},
                         "Bob": {"place": [(4, 1), (4, 3), (6, 2), (5, 5)], "then": "optout",
                                 "stars": [(4, 1), (4, 3), (6, 2)]}}])
    before = play(p, events[:-2])
    assert before.phase == "stars" and before.next_player() == "Ann"
    assert [(q, n) for q, n, _ in before.stars_due] == [("Ann", 5), ("Bob", 3)]
    assert before.stars_due[0][2].en == "1 for opting out, 2 for 3 buttons in red and yellow and 2 bonus for red and yellow"
    assert before.stars_due[1][2].en == "1 for opting out, 1 for 3 buttons in green and 1 bonus for green"
    game = play(p, events)
    assert game.scores() == {"Ann": 5, "Bob": 3} and game.round_no == 2
    assert game.rounds == [{"Ann": ("optout", 5), "Bob": ("optout", 3)}]
    assert game.score_pad() == [["Round", "Ann", "Bob"], ["1", "+5", "+3"], ["Stars", "5", "3"]]
    assert game.summary()["stars"]["Bob"] == [[4, 1], [4, 3], [6, 2]]
    assert all(not b for b in game.buttons.values())  # buttons come off, stars stay
    # round 2: the cards passed clockwise, so Bob holds red and yellow and starts
    assert game.view()["bonus"] == {"Ann": ["green", "blue"], "Bob": ["red", "yellow"]}
    assert game.next_player() == "Bob"
    base = events[:-2]
    assert "Ann places stars now, not Bob" in refused(p, [*base, stars("Bob", [(4, 1), (4, 3), (6, 2)])]).line()
    assert "earned 5 stars" in refused(p, [*base, stars("Ann", [(1, 1), (1, 3), (3, 2), (1, 5)])]).line()
    assert "different cell" in refused(p, [*base, stars("Ann", [(1, 1)] * 5)]).line()
    assert "has none" in refused(p, [*base, stars("Ann", [(1, 1), (1, 3), (3, 2), (1, 5), (6, 6)])]).line()
    assert "round is over" in refused(p, [*base, roll(1, 1, [1, 1, 1, 1])]).line()
    assert "only at the end of a round" in refused(p, [stars("Ann", [])]).line()


def test_more_than_three_of_a_colour_earns_no_more_and_three_players_pass_red() -> None:
    p = ["Ann", "Bob", "Cy"]
    bonus = {"Ann": ["yellow"], "Bob": ["red"], "Cy": ["blue"]}  # green removed
    rounds = [{"Ann": {"place": [(1, 1), (1, 3), (3, 1), (3, 3)], "then": "optout"},
               "Bob": {"place": [(1, 1), (1, 3), (3, 1), (2, 2)], "then": "optout"},
               "Cy": {"place": [(6, 6)], "then": "bust"}}]
    game = play(p, script(p, rounds, bonus), bonus)
    assert game.rounds[0] == {"Ann": ("optout", 2), "Bob": ("optout", 3), "Cy": ("bust", 0)}
    assert game.round_no == 2 and game.next_player() == "Cy"  # Bob's red card went to Cy
    assert game.view()["bonus"] == {"Ann": ["blue"], "Bob": ["yellow"], "Cy": ["red"]}
    pad = game.score_pad("nl")
    assert pad[0][0] == "Ronde" and pad[1] == ["1", "+2", "+3", "bust"] and pad[2][0] == "Sterren"


# -- the end of the game -------------------------------------------------------------------------
def busting(cell: tuple[int, int]) -> dict[str, Any]:
    return {"place": [cell], "then": "bust"}


def single(cell: tuple[int, int]) -> dict[str, Any]:
    return {"place": [cell], "then": "optout"}


@pytest.mark.parametrize("line", [
    [(2, c) for c in range(1, 6)],       # horizontal
    [(r, 6) for r in range(2, 7)],       # vertical
])
def test_five_stars_in_a_line_end_the_game_at_the_end_of_the_round(line: list[tuple[int, int]]) -> None:
    p = ["Ann", "Bob"]
    events = script(p, [{"Ann": single(cell), "Bob": busting((6, 1))} for cell in line])
    game = play(p, events)
    assert game.outcome is not None and game.outcome.termination == "line-of-five"
    assert game.outcome.winners == ("Ann",) and game.scores() == {"Ann": 5, "Bob": 0}
    assert game.summary() == {"game": "buttons", "scores": {"Ann": 5, "Bob": 0}, "over": True,
                              "winners": ["Ann"], "next": None,
                              "stars": {"Ann": [list(c) for c in sorted(line)], "Bob": []}}
    last = play(p, events[:-1]).apply(events[-1])
    assert last.signals == {"game-over"}
    assert "The game is over: Ann wins." in last.explanation.en
    assert "Het spel is afgelopen: Ann wint." in last.explanation.nl
    assert "game is over" in refused(p, [*events, roll(1, 1, [1, 1, 1, 1])]).line()


def test_a_line_beats_more_stars_and_ties_among_lines_are_shared() -> None:
    p = ["Ann", "Bob"]
    blue = {"place": [(4, 4), (4, 6), (6, 4)], "then": "optout"}  # Bob holds blue in round 1: 3 stars
    rounds = [{"Ann": single((1, 1)), "Bob": blue},
              *({"Ann": single((1, c)), "Bob": single(cell)} for c, cell in zip(range(2, 6), [(1, 1), (2, 2), (3, 3), (5, 1)], strict=True))]
    game = play(p, script(p, rounds))
    assert game.scores() == {"Ann": 5, "Bob": 7}
    assert game.outcome is not None and game.outcome.winners == ("Ann",)
    assert game.outcome.why.en == "Ann has 5 stars in a line; most stars among them: 5."
    # both complete a line in the same round with the same number of stars: a shared win
    rounds = [{"Ann": single((3, c)), "Bob": single((c, 2))} for c in range(1, 6)]
    game = play(p, script(p, rounds))
    assert game.outcome is not None and game.outcome.winners == ("Ann", "Bob")
    assert "(a shared win)" in game.view()["explanation"]["en"]
    # both complete a line; the one with more stars wins
    rounds[0] = {"Ann": single((3, 1)), "Bob": {"place": [(1, 2), (3, 1), (3, 3)], "then": "optout",
                                                  "stars": [(1, 2), (3, 1)]}}
    game = play(p, script(p, rounds))
    assert game.scores() == {"Ann": 5, "Bob": 6} and game.outcome is not None
    assert game.outcome.winners == ("Bob",)


def three_of(cells: list[tuple[int, int]]) -> dict[str, Any]:
    return {"place": cells, "then": "optout"}


RED = [(1, 1), (1, 3), (3, 2)]
GREEN = [(4, 1), (4, 3), (6, 2)]
YELLOW = [(1, 4), (1, 6), (3, 5)]
BLUE = [(4, 4), (4, 6), (6, 5)]


def test_twelve_stars_end_the_game_and_most_stars_wins() -> None:
    p = ["Ann", "Bob"]
    # Ann's bonus colours alternate R+Y / G+B: 3 stars a round (opt-out, colour, bonus)
    rounds = [{"Ann": three_of(c), "Bob": busting((5, 5))} for c in (RED, GREEN, YELLOW, BLUE)]
    events = script(p, rounds)
    game = play(p, events[:-1])
    assert game.scores()["Ann"] == 9 and not game.is_over
    game = play(p, events)
    assert game.scores() == {"Ann": 12, "Bob": 0} and game.round_no == 4
    assert game.outcome is not None and game.outcome.termination == "twelve-stars"
    assert game.outcome.winners == ("Ann",)
    assert game.score_pad()[-1] == ["Stars", "12", "0"]


def test_twelve_stars_tie_is_a_shared_win_and_end_waits_for_the_round() -> None:
    p = ["Ann", "Bob"]
    rounds = [{"Ann": three_of(a), "Bob": three_of(b)}
              for a, b in ((RED, GREEN), (GREEN, RED), (YELLOW, BLUE), (BLUE, YELLOW))]
    events = script(p, rounds)
    game = play(p, events)
    assert game.scores() == {"Ann": 12, "Bob": 12}
    assert game.outcome is not None and game.outcome.winners == ("Ann", "Bob")
    # Bob holds red in round 4 and places first: his 12th star does not end the game before Ann
    # has placed hers (the end is checked at the end of the round only)
    mid = play(p, events[:-1])
    assert mid.scores() == {"Ann": 9, "Bob": 12} and not mid.is_over and mid.next_player() == "Ann"
    # with fewer stars for Bob, Ann wins alone
    rounds[3]["Bob"] = three_of(YELLOW[:2])
    game = play(p, script(p, rounds))
    assert game.scores() == {"Ann": 12, "Bob": 10} and game.outcome.winners == ("Ann",)


# -- teaching aids -------------------------------------------------------------------------------
def test_bust_chance_is_exact_for_simple_boards() -> None:
    from fractions import Fraction

    game = play(["Ann", "Bob"], [])
    assert game.bust_chance() == 0  # an empty board has a legal cell in every row
    game = play(["Ann", "Bob"], [roll(1, 1, [1, 1, 1, 1]), place("Ann", 1, 1), roll(2, 2, [2, 2, 2, 2]),
                                  place("Bob", 2, 2)])
    # Ann: row 1 has 4 legal columns, row 2 has 5; five black dice in play
    expected = Fraction(2 ** 5 + 1 ** 5, 6 ** 6)
    assert game.bust_chance("Ann") == expected
    assert game.view()["bust_odds"] == {"player": "Ann", "chance": float(expected),
                                        "exact": f"{expected.numerator}/{expected.denominator}"}


def test_view_lists_what_the_screen_needs() -> None:
    p = ["Ann", "Bob", "Cy"]
    game = play(p, [roll(2, 3, [4, 4, 5, 5])], {"Ann": ["blue"], "Bob": ["green"], "Cy": ["red"]})
    view = game.view()
    assert view["active"] == "Ann" and view["next"] == "Cy" and view["must_place"] == "Cy"
    assert view["last_roll"] == {"player": "Cy", "type": "roll", "white": 2, "gold": 3, "black": [4, 4, 5, 5]}
    assert view["placeable"] == {"Ann": [[2, 3]], "Bob": [[2, 3]], "Cy": [[2, 3], [2, 4], [2, 5]]}
    assert view["dice"]["black"] == 4 and view["in_round"] == p and view["phase"] == "turn"
    assert view["boards"]["Ann"] == QUARTERS and len(view["legal"]["Bob"]) == 36
    assert {e["player"] for e in game.legal_events()} == {"Ann", "Bob", "Cy"}
    assert not game.can_roll()


@pytest.mark.parametrize("cells, line", [
    ({(2, c) for c in range(2, 7)}, True),
    ({(r, 3) for r in range(1, 6)}, True),
    ({(1, 1), (1, 2), (1, 3), (1, 4), (1, 6), (2, 5)}, False),   # a gap breaks the line
    ({(i, i) for i in range(1, 7)}, False),                      # diagonals never count
    ({(r, c) for r in (1, 3, 5) for c in range(1, 7)} - {(1, 3), (3, 3), (5, 3)}, False),
])
def test_line_of_five_is_orthogonal_and_connected(cells: set[tuple[int, int]], line: bool) -> None:
    from companion.games.buttons_board import has_line_of_five

    assert has_line_of_five(cells) is line


def test_rulebook_tip_horizontal_rows_bust_more_often_than_columns() -> None:
    """The summary's strategy tip: with one white die, buttons along a row make busts likelier."""
    from fractions import Fraction

    def ann_places(cells: list[tuple[int, int]]) -> Buttons:
        events = []
        for (r, c), bob in zip(cells, [(6, 6), (6, 4), (4, 4)], strict=True):
            events += [roll(r, c, [c] * 4), place("Ann", r, c), roll(*bob, [bob[1]] * 4), place("Bob", *bob)]
        return play(["Ann", "Bob"], events)

    across = ann_places([(1, 1), (1, 3), (1, 5)])
    down = ann_places([(1, 1), (3, 1), (5, 1)])
    assert across.next_player() == down.next_player() == "Ann"
    # across: row 1 has no legal cell left, row 2 has three; down: every row keeps four or five
    assert across.bust_chance() == Fraction(6 ** 5 + 3 ** 5, 6 ** 6)
    assert down.bust_chance() == Fraction(3 * 2 ** 5 + 3 * 1 ** 5, 6 ** 6)
    assert across.bust_probability() > 17 / 100 > 1 / 100 > down.bust_probability()


def test_a_stored_game_undoes_by_replaying(tmp_path) -> None:
    from companion.session import Session
    from companion.store import Store

    with Store(tmp_path / "pad.db") as store:
        session = Session.new(store, "buttons", ["Ann", "Bob"], options(["Ann", "Bob"]))
        session.confirm(roll(1, 1, [1, 2, 3, 4]))
        applied = session.confirm(place("Ann", 1, 2))
        assert "Ann places a button on row 1, column 2 (red)" in applied.explanation.en
        with pytest.raises(records.RulesError):
            session.confirm(place("Ann", 1, 4))
        assert session.undo() == place("Ann", 1, 2)
        assert session.game.next_player() == "Ann" and session.game.placeable("Ann") == [(1, 1), (1, 2), (1, 3), (1, 4)]
        assert Session.resume(store, session.game_id).game.view() == session.game.view()
