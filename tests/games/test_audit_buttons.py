"""Independent rules audit of Buttons: one record-based test per rule and ruling.

Each test writes a game record, replays it through ``companion.records`` (or ``companion replay``)
and checks what the table sees: stars (``scores``), ``next``, ``over``, ``winners``, refusals and
the ``view()`` data of the Buttons screen (legal and placeable cells, bust odds, opt-out stars,
stars due). The record writer counts the dice in play on its own, not from the engine.
"""

from __future__ import annotations

import json
from collections import Counter
from fractions import Fraction
from itertools import product

import pytest

from companion.cli import main
from companion.records import Record, RecordError, replay

ALL_R = ["RRRRRR"] * 6
ALL_G = ["GGGGGG"] * 6
MIXED = ["RRRRRR", "YYYYYY", "GGGGGG", "BBBBBB", "RYGBRY", "GBRYGB"]
R_TOP_G_BOTTOM = ["RRRRRR", "RRRRRR", "GGGGGG", "GGGGGG", "GGGGGG", "GGGGGG"]


class Table:
    """Writes a Buttons record; tracks who is out this round to know how many black dice roll."""

    def __init__(self, boards: dict[str, list[str]], bonus: dict[str, list[str]] | None = None):
        self.players = list(boards)
        self.options: dict = {"boards": boards}
        if bonus is not None:
            self.options["bonus"] = bonus
        self.events: list[dict] = []
        self.out: set[str] = set()

    @property
    def black_dice(self) -> int:
        return 4 - len(self.out) * (2 if len(self.players) == 2 else 1)

    def roll(self, white: int, gold: int, black: list[int] | None = None) -> Table:
        black = [gold] * self.black_dice if black is None else black
        self.events.append({"type": "roll", "white": white, "gold": gold, "black": black})
        return self

    def place(self, player: str, row: int, col: int) -> Table:
        self.events.append({"type": "place", "player": player, "row": row, "col": col})
        return self

    def go(self, player: str, row: int, col: int) -> Table:
        """The player rolls (white = row, every black die = col) and places there."""
        return self.roll(row, col).place(player, row, col)

    def optout(self, player: str) -> Table:
        self.out.add(player)
        self.events.append({"type": "optout", "player": player})
        return self

    def busts(self, player: str) -> Table:
        """Note that the last roll busted ``player`` (the engine declares it; no event)."""
        self.out.add(player)
        return self

    def stars(self, player: str, cells: list[tuple[int, int]]) -> Table:
        self.events.append({"type": "stars", "player": player, "cells": [list(c) for c in cells]})
        return self

    def new_round(self) -> Table:
        self.out = set()
        return self

    def record(self) -> Record:
        return Record("buttons", list(self.players), json.loads(json.dumps(self.options)), list(self.events))

    def game(self):
        return replay(self.record())

    def view(self) -> dict:
        return self.game().view()

    def with_event(self, event: dict) -> Table:
        copy = Table(self.options["boards"], self.options.get("bonus"))
        copy.events, copy.out = [*self.events, event], set(self.out)
        return copy


def refusal(table: Table) -> str:
    """The one-line refusal; the bad event must be the record's last one."""
    with pytest.raises(RecordError) as info:
        replay(table.record())
    assert info.value.index == len(table.events) - 1, info.value.line()
    return info.value.line()


def two(ann=ALL_R, bob=ALL_G, bonus=None) -> Table:
    return Table({"Ann": ann, "Bob": bob}, bonus)


def three(bonus=None) -> Table:
    return Table({"Ann": ALL_R, "Bob": ALL_G, "Cy": MIXED}, bonus)


def cells(view_cells) -> set[tuple[int, int]]:
    return {tuple(c) for c in view_cells}


# -- set-up ---------------------------------------------------------------------------------------
def test_default_bonus_cards_and_the_red_holder_starts():
    v = three().view()
    assert v["bonus"] == {"Ann": ["red"], "Bob": ["yellow"], "Cy": ["green"]}  # blue removed
    assert v["next"] == "Ann" and v["red_holder"] == "Ann"
    v = two().view()
    assert v["bonus"] == {"Ann": ["red", "yellow"], "Bob": ["green", "blue"]}
    v = three({"Ann": ["blue"], "Bob": ["green"], "Cy": ["red"]}).view()
    assert v["next"] == "Cy" and v["active"] == "Cy"
    assert v["dice"] == {"white": 1, "gold": 1, "black": 4, "set_aside": 0}
    assert v["scores"] == {"Ann": 0, "Bob": 0, "Cy": 0} and v["stars"] == {"Ann": [], "Bob": [], "Cy": []}


def test_red_card_is_never_the_removed_one(tmp_path, capsys):
    t = three({"Ann": ["blue"], "Bob": ["green"], "Cy": ["yellow"]})
    path = tmp_path / "r.json"
    path.write_text(json.dumps(t.record().to_json()))
    assert main(["replay", str(path), "--json"]) == 2
    out = capsys.readouterr()
    assert out.out == "" and out.err.startswith("setup:") and "red" in out.err


# -- a turn -------------------------------------------------------------------------------------
def test_the_roll_lists_every_white_pip_black_die_in_play():
    assert refusal(three().roll(3, 5, [1, 2, 2])).startswith("event 0:")
    assert refusal(two().roll(3, 5, [1, 2, 2, 4, 5])).startswith("event 0:")
    three().roll(3, 5, [1, 2, 2, 6]).game()


def test_roller_must_place_in_the_white_row_on_any_black_die_column():
    t = three().roll(3, 5, [1, 2, 2, 6])
    v = t.view()
    assert v["next"] == "Ann" and v["must_place"] == "Ann"
    assert cells(v["placeable"]["Ann"]) == {(3, 1), (3, 2), (3, 5), (3, 6)}  # gold die counts too
    assert cells(v["placeable"]["Bob"]) == {(3, 5)} and cells(v["placeable"]["Cy"]) == {(3, 5)}
    for bad in ((3, 4), (4, 1), (1, 3)):
        assert refusal(t.with_event({"type": "place", "player": "Ann", "row": bad[0], "col": bad[1]}))
    assert "must first place" in refusal(t.with_event({"type": "roll", "white": 1, "gold": 1,
                                                       "black": [1, 1, 1, 1]}))
    assert "must first place" in refusal(t.with_event({"type": "optout", "player": "Bob"}))
    t.place("Ann", 3, 5)
    v = t.view()
    assert v["must_place"] is None and v["next"] == "Bob" and v["buttons"]["Ann"] == [[3, 5]]
    assert v["placeable"]["Ann"] == []


def test_others_may_use_only_white_and_gold_and_only_once():
    t = three().roll(3, 5, [1, 2, 2, 6]).place("Ann", 3, 1)
    assert "only (3,5)" in refusal(t.with_event({"type": "place", "player": "Bob", "row": 3, "col": 2}))
    t.place("Bob", 3, 5)
    assert "already placed" in refusal(t.with_event({"type": "place", "player": "Bob", "row": 3, "col": 5}))
    assert "already placed" in refusal(t.with_event({"type": "place", "player": "Ann", "row": 3, "col": 2}))
    # Cy does not use the gold cell: optional, Bob rolls on
    t.roll(1, 1, [1, 1, 1, 1]).place("Bob", 1, 1)
    v = t.view()
    assert v["buttons"] == {"Ann": [[3, 1]], "Bob": [[1, 1], [3, 5]], "Cy": []}
    assert v["next"] == "Cy"
    assert cells(v["placeable"]["Cy"]) == {(1, 1)} and v["placeable"]["Ann"] == [[1, 1]]


def test_legal_cells_no_button_no_star_no_orthogonal_button():
    t = two().go("Ann", 3, 3)
    legal = cells(t.view()["legal"]["Ann"])
    assert {(3, 3), (2, 3), (4, 3), (3, 2), (3, 4)}.isdisjoint(legal)
    assert {(2, 2), (2, 4), (4, 2), (4, 4), (3, 1), (3, 5), (1, 3)} <= legal
    assert len(legal) == 36 - 5
    t.go("Bob", 1, 1).roll(2, 2, [2, 2, 2, 2])  # Ann: only (2,2), diagonal to her button
    assert t.view()["placeable"]["Ann"] == [[2, 2]]
    t.place("Ann", 2, 2)
    assert cells(t.view()["buttons"]["Ann"]) == {(2, 2), (3, 3)}


def test_bust_loses_the_rounds_buttons_and_others_still_use_the_gold_cell():
    """R5: Ann has no legal cell in row 3; Bob may still place on (3,2) with the gold die."""
    t = two().go("Ann", 3, 3).go("Bob", 1, 1).roll(3, 2, [4, 4, 3, 3]).busts("Ann")
    v = t.view()
    assert v["out"] == {"Ann": "bust"} and v["buttons"]["Ann"] == [] and v["in_round"] == ["Bob"]
    assert v["dice"] == {"white": 1, "gold": 1, "black": 2, "set_aside": 2}  # two at a time with 2 players
    assert v["next"] == "Bob" and v["placeable"]["Bob"] == [[3, 2]] and v["placeable"]["Ann"] == []
    assert "out of the round" in refusal(t.with_event({"type": "place", "player": "Ann", "row": 3, "col": 2}))
    t.place("Bob", 3, 2)
    assert cells(t.view()["buttons"]["Bob"]) == {(1, 1), (3, 2)}
    assert refusal(t.with_event({"type": "roll", "white": 5, "gold": 5, "black": [5, 5, 5, 5]}))
    t.go("Bob", 5, 5)
    assert cells(t.view()["buttons"]["Bob"]) == {(1, 1), (3, 2), (5, 5)}


def test_bust_signal_comes_with_the_roll():
    t = two().go("Ann", 3, 3).go("Bob", 1, 1)
    g = t.game()
    applied = g.apply({"type": "roll", "white": 3, "gold": 2, "black": [4, 4, 3, 3]})
    assert "bust" in applied.signals and g.next_player() == "Bob"


def test_r3_players_out_of_the_round_cannot_use_the_gold_cell():
    t = three().go("Ann", 1, 1).go("Bob", 1, 1).go("Cy", 1, 1).optout("Ann").roll(4, 4, [4, 4, 4])
    v = t.view()
    assert v["placeable"]["Ann"] == [] and v["placeable"]["Cy"] == [[4, 4]]
    assert "opted out" in refusal(t.with_event({"type": "place", "player": "Ann", "row": 4, "col": 4}))
    t.place("Bob", 4, 4).place("Cy", 4, 4)
    assert t.view()["buttons"]["Cy"] == [[1, 1], [4, 4]]


def test_opt_out_needs_a_button_this_round_and_the_turn():
    assert "no button" in refusal(two().optout("Ann"))
    t = two().go("Ann", 1, 1)
    assert "no button" in refusal(t.with_event({"type": "optout", "player": "Bob"}))
    assert t.view()["optout_stars"] is None  # Bob, active, has no button
    # a button placed with the gold die is a button placed this round
    t2 = two().roll(1, 1, [1, 1, 1, 1]).place("Ann", 1, 1).place("Bob", 1, 1)
    assert t2.view()["optout_stars"] == 1
    t2.optout("Bob")
    v = t2.view()
    assert v["out"] == {"Bob": "optout"} and v["next"] == "Ann"
    assert v["dice"]["black"] == 2 and v["dice"]["set_aside"] == 2
    t3 = two().go("Ann", 1, 1).go("Bob", 1, 1)
    assert "Ann's turn" in refusal(t3.with_event({"type": "optout", "player": "Bob"}))


def test_three_players_set_dice_aside_one_at_a_time():
    t = three().go("Ann", 1, 1).go("Bob", 1, 1).go("Cy", 1, 1).optout("Ann")
    assert t.view()["dice"] == {"white": 1, "gold": 1, "black": 3, "set_aside": 1}
    assert refusal(t.with_event({"type": "roll", "white": 2, "gold": 2, "black": [2, 2, 2, 2]}))
    t.go("Bob", 3, 3).optout("Cy")
    assert t.view()["dice"] == {"white": 1, "gold": 1, "black": 2, "set_aside": 2}
    assert t.view()["next"] == "Bob"


def first_round_three_each() -> Table:
    """Ann (all red, bonus red+yellow) and Bob (all green, bonus green+blue) place row 1: 1, 3, 5."""
    t = two()
    for col in (1, 3, 5):
        t.go("Ann", 1, col).go("Bob", 1, col)
    return t


def test_stars_for_opt_out_colours_and_bonus():
    t = first_round_three_each()
    v = t.view()
    assert v["next"] == "Ann" and v["optout_stars"] == 3  # 1 opt-out + 1 red + 1 red bonus
    t.optout("Ann")
    assert t.view()["optout_stars"] == 3  # Bob: 1 + green + green bonus
    t.optout("Bob")
    v = t.view()
    assert v["phase"] == "stars" and v["next"] == "Ann" and v["optout_stars"] is None
    assert [(d["player"], d["stars"]) for d in v["stars_due"]] == [("Ann", 3), ("Bob", 3)]
    assert v["rounds"] == [{"Ann": {"result": "optout", "stars": 3}, "Bob": {"result": "optout", "stars": 3}}]
    assert "earned 3 stars" in refusal(t.with_event({"type": "stars", "player": "Ann", "cells": [[1, 1], [1, 3]]}))
    assert refusal(t.with_event({"type": "stars", "player": "Ann", "cells": [[1, 1], [1, 1], [1, 3]]}))
    assert "Ann places stars now" in refusal(t.with_event({"type": "stars", "player": "Bob",
                                                           "cells": [[1, 1], [1, 3], [1, 5]]}))
    assert refusal(t.with_event({"type": "roll", "white": 1, "gold": 1, "black": [1, 1, 1, 1]}))
    t.stars("Ann", [(1, 1), (1, 3), (1, 5)])
    v = t.view()
    assert v["scores"] == {"Ann": 3, "Bob": 0} and v["next"] == "Bob" and v["buttons"]["Ann"] == []


def test_stars_without_bonus_and_more_than_three_give_no_more():
    t = two(ann=ALL_G, bob=ALL_R)  # Ann holds red+yellow but covers green
    for col in (1, 3, 5):
        t.go("Ann", 1, col).go("Bob", 1, col)
    t.go("Ann", 3, 1)
    assert t.view()["optout_stars"] == 2  # Bob's turn: 3 red (he holds green+blue): 1 + red
    t.go("Bob", 3, 1)
    assert t.view()["optout_stars"] == 2  # 4 green: 1 opt-out + 1 green, no more, no bonus
    t.optout("Ann")
    assert t.view()["optout_stars"] == 2  # Bob: 4 red, bonus is green+blue
    t.optout("Bob")
    assert [(d["player"], d["stars"]) for d in t.view()["stars_due"]] == [("Ann", 2), ("Bob", 2)]


def test_a_bust_earns_no_stars_and_the_round_ends_when_all_are_out():
    t = two().go("Ann", 3, 3).go("Bob", 1, 1).roll(3, 2, [4, 4, 3, 3]).busts("Ann")
    t.optout("Bob")
    v = t.view()
    assert [(d["player"], d["stars"]) for d in v["stars_due"]] == [("Bob", 1)]
    assert v["rounds"][0]["Ann"] == {"result": "bust", "stars": 0}
    assert "Bob places stars now" in refusal(t.with_event({"type": "stars", "player": "Ann", "cells": []}))
    t.stars("Bob", [(1, 1)])
    v = t.view()
    assert v["round"] == 2 and v["scores"] == {"Ann": 0, "Bob": 1} and v["buttons"] == {"Ann": [], "Bob": []}


def test_everyone_busts_no_stars_next_round_starts_at_once():
    t = two().go("Ann", 3, 3).go("Bob", 3, 3).roll(3, 2, [4, 4, 3, 3]).busts("Ann")
    t.roll(3, 3, [4, 2]).busts("Bob")
    v = t.view()
    assert v["round"] == 2 and v["phase"] == "turn" and v["stars_due"] == []
    assert v["next"] == "Bob"  # red passed to Bob
    assert v["dice"]["black"] == 4


def test_stars_only_on_this_rounds_button_cells():
    t = first_round_three_each().optout("Ann").optout("Bob")
    t.stars("Ann", [(1, 1), (1, 3), (1, 5)])
    assert "has none" in refusal(t.with_event({"type": "stars", "player": "Bob",
                                               "cells": [[1, 1], [1, 3], [2, 2]]}))
    t.stars("Bob", [(1, 1), (1, 3), (1, 5)]).new_round()
    # round 2: Bob holds red and starts; Ann covers (3,1) only; a round-1 cell takes no star now
    t.go("Bob", 5, 5).go("Ann", 3, 1).optout("Bob").optout("Ann")
    assert [d["player"] for d in t.view()["stars_due"]] == ["Bob", "Ann"]
    t.stars("Bob", [(5, 5)])
    assert "has none" in refusal(t.with_event({"type": "stars", "player": "Ann", "cells": [[1, 3]]}))
    t.stars("Ann", [(3, 1)])
    assert t.view()["stars"]["Ann"] == [[1, 1], [1, 3], [1, 5], [3, 1]]


def test_stars_block_cells_but_not_their_neighbours_and_dice_come_back():
    t = first_round_three_each().optout("Ann").optout("Bob")
    t.stars("Ann", [(1, 1), (1, 3), (1, 5)]).stars("Bob", [(1, 1), (1, 3), (1, 5)]).new_round()
    v = t.view()
    assert v["dice"] == {"white": 1, "gold": 1, "black": 4, "set_aside": 0}
    legal = cells(v["legal"]["Ann"])
    assert (1, 1) not in legal and (1, 2) in legal and (2, 1) in legal
    t.go("Bob", 5, 5).roll(1, 1, [1, 1, 1, 1]).busts("Ann")  # only (1,1): a star
    assert t.view()["out"] == {"Ann": "bust"}


def test_bonus_cards_pass_clockwise_and_stars_go_in_seat_order_from_red():
    t = three({"Ann": ["green"], "Bob": ["yellow"], "Cy": ["red"]})
    t.go("Cy", 1, 1).go("Ann", 1, 1).go("Bob", 1, 1).optout("Cy").optout("Ann").optout("Bob")
    v = t.view()
    assert [d["player"] for d in v["stars_due"]] == ["Cy", "Ann", "Bob"] and v["next"] == "Cy"
    assert "Cy places stars now" in refusal(t.with_event({"type": "stars", "player": "Ann", "cells": [[1, 1]]}))
    t.stars("Cy", [(1, 1)]).stars("Ann", [(1, 1)]).stars("Bob", [(1, 1)]).new_round()
    v = t.view()
    assert v["round"] == 2
    assert v["bonus"] == {"Ann": ["red"], "Bob": ["green"], "Cy": ["yellow"]}
    assert v["next"] == "Ann" and v["red_holder"] == "Ann"
    t.go("Ann", 3, 3).go("Bob", 3, 3).go("Cy", 3, 3).optout("Ann").optout("Bob").optout("Cy")
    t.stars("Ann", [(3, 3)]).stars("Bob", [(3, 3)]).stars("Cy", [(3, 3)])
    v = t.view()
    assert v["bonus"] == {"Ann": ["yellow"], "Bob": ["red"], "Cy": ["green"]} and v["next"] == "Bob"


def test_two_players_swap_their_two_bonus_cards():
    t = first_round_three_each().optout("Ann").optout("Bob")
    t.stars("Ann", [(1, 1), (1, 3), (1, 5)]).stars("Bob", [(1, 1), (1, 3), (1, 5)])
    v = t.view()
    assert v["bonus"] == {"Ann": ["green", "blue"], "Bob": ["red", "yellow"]} and v["next"] == "Bob"


# -- bust odds ---------------------------------------------------------------------------------
def brute_bust_chance(buttons: set, stars: set, black_dice: int) -> Fraction:
    """Every roll listed: the roller busts when (white, each black die) is never a legal cell."""
    def legal(cell):
        r, c = cell
        near = {(r - 1, c), (r + 1, c), (r, c - 1), (r, c + 1)}
        return cell not in buttons and cell not in stars and not (near & buttons)
    busts = total = 0
    for white, *blacks in product(range(1, 7), repeat=black_dice + 1):
        total += 1
        busts += not any(legal((white, b)) for b in blacks)
    return Fraction(busts, total)


def test_bust_odds_shown_for_the_active_player():
    t = two().go("Ann", 3, 3)
    v = t.view()
    assert v["bust_odds"]["player"] == "Bob" and v["bust_odds"]["exact"] == "0/1"
    t.go("Bob", 1, 1)
    v = t.view()
    want = brute_bust_chance({(3, 3)}, set(), 5)  # the gold die and 4 white-pip black dice
    assert v["bust_odds"]["player"] == "Ann"
    assert Fraction(v["bust_odds"]["exact"]) == want and v["bust_odds"]["chance"] == pytest.approx(float(want))
    t.go("Ann", 5, 5).optout("Bob")
    v = t.view()
    want = brute_bust_chance({(3, 3), (5, 5)}, set(), 3)  # two white-pip dice set aside
    assert v["next"] == "Ann" and Fraction(v["bust_odds"]["exact"]) == want


# -- end of the game ---------------------------------------------------------------------------
def round_two(t: Table, ann_buttons: list, ann_stars: list, bob_buttons=((1, 2), (1, 4), (3, 1)),
              bob_stars=((1, 2), (1, 4))) -> Table:
    """Round 2 (Bob holds red): alternate turns, Bob opts out after his buttons, Ann after hers."""
    t.new_round()
    todo = {"Bob": list(bob_buttons), "Ann": list(ann_buttons)}
    turn = 0
    while len(t.out) < 2:
        player = ("Bob", "Ann")[turn % 2]
        turn += 1
        if player in t.out:
            continue
        if todo[player]:
            t.go(player, *todo[player].pop(0))
        else:
            t.optout(player)
    return t.stars("Bob", list(bob_stars)).stars("Ann", list(ann_stars))


def line_game(ann_board, ann_buttons, ann_stars) -> Table:
    t = two(ann=ann_board)
    for col in (1, 3, 5):
        t.go("Ann", 1, col).go("Bob", 1, col)
    t.optout("Ann").optout("Bob").stars("Ann", [(1, 1), (1, 3), (1, 5)]).stars("Bob", [(1, 1), (1, 3), (1, 5)])
    return round_two(t, ann_buttons, ann_stars)


def test_horizontal_line_of_five_ends_the_game_only_at_round_end():
    t = line_game(ALL_R, [(3, 1), (3, 3)], [(3, 1)])
    before_ann = Table(t.options["boards"])
    before_ann.events = t.events[:-1]
    v = before_ann.view()
    assert v["stars"]["Bob"] == [[1, 1], [1, 2], [1, 3], [1, 4], [1, 5]]
    assert not v["over"] and v["next"] == "Ann"  # Ann still places her star: the round goes on
    v = t.view()
    assert v["over"] and v["winners"] == ["Bob"] and v["next"] is None
    assert v["scores"] == {"Ann": 4, "Bob": 5}
    assert v["outcome"]["termination"] == "line-of-five"


def test_vertical_line_of_five():
    t = two()
    for row in (1, 3, 5):
        t.go("Ann", row, 2).go("Bob", row, 2)
    t.optout("Ann").optout("Bob").stars("Ann", [(1, 2), (3, 2), (5, 2)]).stars("Bob", [(1, 2), (3, 2), (5, 2)])
    round_two(t, [(6, 6)], [(6, 6)], bob_buttons=((2, 2), (4, 2), (6, 5)), bob_stars=((2, 2), (4, 2)))
    v = t.view()
    assert v["over"] and v["winners"] == ["Bob"] and v["scores"] == {"Ann": 4, "Bob": 5}


def test_five_stars_not_in_one_connected_line_do_not_end():
    t = two()
    for col in (1, 3, 5):
        t.go("Ann", 1, col).go("Bob", 1, col)
    t.optout("Ann").optout("Bob").stars("Ann", [(1, 1), (1, 3), (1, 5)]).stars("Bob", [(1, 1), (1, 3), (1, 5)])
    # Bob: (1,2) and (2,4): five stars, four of them in row 1 with (1,4) missing; diagonals do not count
    round_two(t, [(6, 6)], [(6, 6)], bob_buttons=((1, 2), (2, 4), (5, 1)), bob_stars=((1, 2), (2, 4)))
    v = t.view()
    assert v["scores"] == {"Ann": 4, "Bob": 5} and not v["over"] and v["round"] == 3


def test_tied_lines_of_five_share_the_win():
    t = line_game(ALL_R, [(1, 2), (1, 4), (3, 1)], [(1, 2), (1, 4)])
    v = t.view()
    assert v["over"] and v["winners"] == ["Ann", "Bob"] and v["scores"] == {"Ann": 5, "Bob": 5}


def test_among_lines_of_five_most_stars_wins():
    t = line_game(R_TOP_G_BOTTOM, [(1, 2), (1, 4), (2, 6), (4, 1), (4, 3), (4, 5)],
                  [(1, 2), (1, 4), (4, 1), (4, 3)])
    v = t.view()
    assert v["over"] and v["winners"] == ["Ann"] and v["scores"] == {"Ann": 7, "Bob": 5}


def test_a_line_of_five_beats_more_stars_without_a_line():
    t = line_game(R_TOP_G_BOTTOM, [(2, 1), (2, 3), (2, 5), (4, 1), (4, 3), (4, 5)],
                  [(2, 1), (2, 3), (4, 1), (4, 3)])
    v = t.view()
    assert v["over"] and v["winners"] == ["Bob"] and v["scores"] == {"Ann": 7, "Bob": 5}


ROUND1_MIXED = [(1, 1), (1, 3), (1, 5), (2, 2), (2, 4), (2, 6), (3, 1), (3, 3), (3, 5), (4, 2), (4, 4), (4, 6)]


def test_twelve_stars_end_the_game_at_round_end(tmp_path, capsys):
    t = two(ann=MIXED)
    t.go("Ann", *ROUND1_MIXED[0]).go("Bob", 1, 1).go("Ann", *ROUND1_MIXED[1]).optout("Bob")
    for cell in ROUND1_MIXED[2:]:
        t.go("Ann", *cell)
    assert t.view()["optout_stars"] == 7  # 1 + four colours + red and yellow bonus
    t.optout("Ann")
    t.stars("Ann", ROUND1_MIXED[:7]).stars("Bob", [(1, 1)]).new_round()
    assert t.view()["scores"] == {"Ann": 7, "Bob": 1} and not t.view()["over"]
    second = [(3, 2), (3, 4), (3, 6), (4, 1), (4, 3), (4, 5)]
    t.go("Bob", 2, 2).go("Ann", *second[0]).optout("Bob")
    for cell in second[1:]:
        t.go("Ann", *cell)
    assert t.view()["optout_stars"] == 5  # 1 + green + blue + both bonus (Ann now holds green+blue)
    t.optout("Ann").stars("Bob", [(2, 2)])
    assert not t.view()["over"]
    t.stars("Ann", second[:5])
    v = t.view()
    assert v["over"] and v["winners"] == ["Ann"] and v["scores"] == {"Ann": 12, "Bob": 2}
    assert v["outcome"]["termination"] == "twelve-stars"
    path = tmp_path / "b.json"
    path.write_text(json.dumps(t.record().to_json()))
    assert main(["replay", str(path), "--json"]) == 0
    out = json.loads(capsys.readouterr().out)
    assert out["over"] and out["winners"] == ["Ann"] and out["next"] is None and len(out["stars"]["Ann"]) == 12
    assert refusal(t.with_event({"type": "roll", "white": 1, "gold": 1, "black": [1, 1, 1, 1]}))


def test_twelve_stars_tied_is_a_shared_win():
    t = two(ann=MIXED, bob=MIXED)
    for cell in ROUND1_MIXED:
        t.go("Ann", *cell).go("Bob", *cell)
    t.optout("Ann").optout("Bob")
    assert [(d["player"], d["stars"]) for d in t.view()["stars_due"]] == [("Ann", 7), ("Bob", 7)]
    t.stars("Ann", ROUND1_MIXED[:7])
    t.stars("Bob", [(3, 1), (3, 3), (3, 5), (4, 2), (4, 4), (4, 6), (1, 1)]).new_round()
    bob = [(1, 3), (1, 5), (5, 1), (2, 2), (2, 4), (2, 6)]  # Bob now holds red and yellow
    ann = [(3, 2), (3, 4), (3, 6), (4, 1), (4, 3), (4, 5)]  # Ann now holds green and blue
    for b, a in zip(bob, ann, strict=True):
        t.go("Bob", *b).go("Ann", *a)
    t.optout("Bob").optout("Ann")
    assert [(d["player"], d["stars"]) for d in t.view()["stars_due"]] == [("Bob", 5), ("Ann", 5)]
    t.stars("Bob", bob[:5])
    assert not t.view()["over"] and t.view()["scores"] == {"Ann": 7, "Bob": 12}
    t.stars("Ann", ann[:5])
    v = t.view()
    assert v["over"] and v["winners"] == ["Ann", "Bob"] and v["scores"] == {"Ann": 12, "Bob": 12}


def test_refused_event_gives_event_n_and_exit_2(tmp_path, capsys):
    t = two().go("Ann", 1, 1).place("Ann", 1, 3)
    path = tmp_path / "bad.json"
    path.write_text(json.dumps(t.record().to_json()))
    assert main(["replay", str(path), "--json"]) == 2
    out = capsys.readouterr()
    assert out.out == "" and out.err.startswith("event 2:") and out.err.count("\n") == 1


# -- an independent model of the rules, played against the engine --------------------------------
class Model:
    """The digest and rulings written out plainly, to compare with the engine event by event."""

    def __init__(self, players: list[str], boards: dict, bonus: dict):
        self.players, self.boards = players, boards
        letter = {"red": "R", "yellow": "Y", "green": "G", "blue": "B"}
        self.first = {p: {letter[c] for c in bonus[p]} for p in players}
        self.stars = {p: set() for p in players}
        self.round = 1
        self.over, self.winners = False, []
        self.start_round()

    def bonus(self, p: str) -> set:
        n = len(self.players)
        return self.first[self.players[(self.players.index(p) - (self.round - 1)) % n]]

    def red(self) -> str:
        return next(p for p in self.players if "R" in self.bonus(p))

    def start_round(self) -> None:
        self.buttons = {p: set() for p in self.players}
        self.out: dict[str, str] = {}
        self.aside = 0
        self.active = self.red()
        self.roll = None
        self.roller = None
        self.placed: set[str] = set()
        self.due: list[tuple[str, int]] = []

    def legal(self, p: str, cell) -> bool:
        r, c = cell
        if not (1 <= r <= 6 and 1 <= c <= 6) or cell in self.buttons[p] or cell in self.stars[p]:
            return False
        return not ({(r - 1, c), (r + 1, c), (r, c - 1), (r, c + 1)} & self.buttons[p])

    def options(self, p: str) -> list:
        """Cells the player may use for the last roll."""
        if self.roll is None or p in self.out or p in self.placed:
            return []
        white, gold, black = self.roll
        cols = sorted({gold, *black}) if p == self.roller else [gold]
        return [(white, c) for c in cols if self.legal(p, (white, c))]

    def next_in_round(self, after: str):
        n = len(self.players)
        i = self.players.index(after)
        return next((self.players[(i + k) % n] for k in range(1, n + 1) if self.players[(i + k) % n] not in self.out),
                    None)

    def earned(self, p: str) -> int:
        if self.out.get(p) == "bust":
            return 0
        counts = Counter(self.boards[p][r - 1][c - 1] for r, c in self.buttons[p])
        colours = {x for x, k in counts.items() if k >= 3}
        return 1 + len(colours) + len(colours & self.bonus(p))

    def owes(self):
        r = self.roller
        return r if r is not None and r not in self.out and r not in self.placed else None

    def next(self):
        if self.over:
            return None
        if self.due:
            return self.due[0][0]
        return self.owes() or self.active

    def leave(self, p: str, how: str) -> None:
        self.out[p] = how
        if how == "bust":
            self.buttons[p] = set()
        self.aside += 2 if len(self.players) == 2 else 1
        self.active = self.next_in_round(p)
        if self.active is None:
            self.roll = self.roller = None
            i = self.players.index(self.red())
            order = [self.players[(i + k) % len(self.players)] for k in range(len(self.players))]
            self.due = [(q, self.earned(q)) for q in order if self.earned(q)]
            if not self.due:
                self.finish()

    def finish(self) -> None:
        lines = [p for p in self.players if line_of_five(self.stars[p])]
        many = [p for p in self.players if len(self.stars[p]) >= 12]
        pool = lines or (self.players if many else [])
        if pool:
            top = max(len(self.stars[p]) for p in pool)
            self.over, self.winners = True, [p for p in pool if len(self.stars[p]) == top]
        else:
            self.round += 1
            self.start_round()

    def apply(self, ev: dict) -> None:
        kind = ev["type"]
        if kind == "roll":
            self.roll, self.roller, self.placed = (ev["white"], ev["gold"], ev["black"]), self.active, set()
            if not self.options(self.roller):
                self.leave(self.roller, "bust")
            else:
                self.active = self.next_in_round(self.roller)
        elif kind == "place":
            self.buttons[ev["player"]].add((ev["row"], ev["col"]))
            self.placed.add(ev["player"])
        elif kind == "optout":
            self.roll = self.roller = None
            self.leave(ev["player"], "optout")
        else:
            cells = {tuple(c) for c in ev["cells"]}
            self.stars[ev["player"]] |= cells
            self.due.pop(0)
            if not self.due:
                self.finish()

    def random_event(self, rng) -> dict:
        if self.due:
            p, n = self.due[0]
            row_stars = Counter(r for r, _ in self.stars[p])  # favour rows with stars: lines happen
            ranked = sorted(self.buttons[p], key=lambda cell: rng.random() - row_stars[cell[0]])
            return {"type": "stars", "player": p, "cells": [list(c) for c in ranked[:n]]}
        owes = self.owes()
        if owes:
            r, c = rng.choice(self.options(owes))
            return {"type": "place", "player": owes, "row": r, "col": c}
        others = [p for p in self.players if self.options(p)]
        if others and rng.random() < 0.6:
            p = rng.choice(others)
            r, c = self.options(p)[0]
            return {"type": "place", "player": p, "row": r, "col": c}
        if self.buttons[self.active] and rng.random() < 0.04 * len(self.buttons[self.active]):
            return {"type": "optout", "player": self.active}
        dice = [rng.randint(1, 6) for _ in range(6 - self.aside)]
        return {"type": "roll", "white": dice[0], "gold": dice[1], "black": dice[2:]}


def line_of_five(stars: set) -> bool:
    return any(all((r, c + k) in stars for k in range(5)) or all((c + k, r) in stars for k in range(5))
               for r in range(1, 7) for c in (1, 2))


def test_engine_matches_an_independent_model_on_random_games():
    import random

    from companion.games.buttons_play import random_setup

    rng = random.Random(4242)
    ends = Counter()
    for n in (2, 3, 4) * 3:
        players, options = random_setup(rng, n)
        model, events = Model(players, options["boards"], options["bonus"]), []
        game = replay(Record("buttons", players, options, []))
        while not model.over and len(events) < 3000:
            event = model.random_event(rng)
            game.apply(event)
            model.apply(event)
            events.append(event)
            where = f"after event {len(events) - 1} of {json.dumps({'players': players, **options, 'events': events})}"
            out = game.summary()
            assert out["scores"] == {p: len(model.stars[p]) for p in players}, where
            assert (out["over"], out["winners"], out["next"]) == (model.over, model.winners, model.next()), where
            assert out["stars"] == {p: [list(c) for c in sorted(model.stars[p])] for p in players}, where
            if model.over:
                break
            if event["type"] == "place" and len(events) % 3:
                continue  # the full screen data is compared on every other event and a third of placements
            out = game.view()
            assert [(d["player"], d["stars"]) for d in out["stars_due"]] == model.due, where
            if not model.due:
                assert out["out"] == model.out and out["dice"]["black"] == 4 - model.aside, where
                assert {p: {c[0].upper() for c in out["bonus"][p]} for p in players} == {
                    p: model.bonus(p) for p in players}, where
                for p in players:
                    assert cells(out["placeable"][p]) == set(model.options(p)), where
                    assert cells(out["legal"][p]) == {(r, c) for r in range(1, 7) for c in range(1, 7)
                                                      if model.legal(p, (r, c))}, where
                can_opt = bool(model.buttons[model.active]) and model.owes() is None
                assert out["optout_stars"] == (model.earned(model.active) if can_opt else None), where
        ends[game.outcome.termination if game.outcome else "unfinished"] += 1
    assert ends["unfinished"] == 0 and ends["line-of-five"] and ends["twelve-stars"], ends


def test_cli_dutch_refusal(tmp_path, capsys):
    t = two().roll(3, 5, [1, 2, 2, 6]).roll(1, 1, [1, 1, 1, 1])
    path = tmp_path / "bad.json"
    path.write_text(json.dumps(t.record().to_json()))
    assert main(["replay", str(path), "--json", "--lang", "nl"]) == 2
    err = capsys.readouterr().err
    assert err.startswith("event 1:") and "moet eerst een knoop leggen" in err
