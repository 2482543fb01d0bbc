"""Independent rules audit of Bag of Butts: one record-based test per rule and ruling.

Every test writes a game record (JSON dicts), replays it through ``companion.records`` (or the
``companion replay`` command) and checks what the players see: scores, ``next``, ``over``,
``winners``, refusals and the ``view()`` data of the score screen. The records are built by a
small script writer below that tracks the bag's specials on its own (not from the engine), so a
wrong bag in the engine shows up as a refused draw.
"""

from __future__ import annotations

import json
from collections import Counter

import pytest

from companion.cli import main
from companion.records import Record, RecordError, replay

COLOURS = ("pink", "yellow", "blue", "green")
SPECIALS = ("black", "gray", "white", "khaki")


class Script:
    """Writes a Bag of Butts record turn by turn, keeping its own count of the bag's specials."""

    def __init__(self, players: list[str], colours: dict[str, str] | None = None):
        self.players = players
        self.options = {"colours": colours} if colours else {}
        self.events: list[dict] = []
        self.specials: list[str] = []

    def bag(self) -> Counter:
        return Counter({c: 2 for c in COLOURS}) + Counter(self.specials)

    def add(self, special: str) -> Script:
        self.specials.append(special)
        self.events.append({"type": "add", "special": special})
        return self

    def reset(self) -> Script:
        self.specials = []
        self.events.append({"type": "reset"})
        return self

    def draw(self, g1: list[str], g2: list[str], g3: list[str] | None = None) -> Script:
        """Three groups; the third is the rest of the bag unless given. An all-special draw resets."""
        if g3 is None:
            rest = self.bag() - Counter(g1) - Counter(g2)
            g3 = sorted(rest.elements(), key=lambda t: (t in SPECIALS, t))
        groups = [list(g1), list(g2), list(g3)]
        self.events.append({"type": "draw", "groups": groups})
        if all(any(t in SPECIALS for t in g) for g in groups):
            self.specials = []
        return self

    def score(self, group: int) -> Script:
        self.events.append({"type": "score", "group": group})
        return self

    def turn(self, scoring: list[str], add: str | None = None) -> Script:
        """Optionally add a special, then draw ``scoring`` as group 1 (no specials), one more
        player butt as group 2, the rest (with every special) as group 3, and score group 1."""
        if add:
            self.add(add)
        rest = self.bag() - Counter(scoring)
        second = next(c for c in COLOURS if rest[c])
        return self.draw(scoring, [second]).score(1)

    def record(self) -> Record:
        return Record("bag-of-butts", list(self.players), dict(self.options), list(self.events))

    def game(self):
        return replay(self.record())

    def refused(self) -> RecordError:
        with pytest.raises(RecordError) as info:
            replay(self.record())
        return info.value


def last_refused(script: Script) -> str:
    """The one-line refusal of the record; the bad event must be the last one."""
    err = script.refused()
    assert err.index == len(script.events) - 1, err.line()
    return err.line()


def tied_at_30() -> Script:
    """Ann (pink) and Bob (yellow) score the same every turn: 2+4+6+8+10 = 30 each after 5 turns."""
    s = Script(["Ann", "Bob"])
    s.turn(["pink", "pink", "yellow", "yellow"])
    for special in ("black", "black", "gray", "gray"):
        s.turn(["pink", "pink", "yellow", "yellow"], add=special)
    return s


# -- components and set-up ----------------------------------------------------------------------
@pytest.mark.parametrize("players", [["A", "B"], ["A", "B", "C"], ["A", "B", "C", "D"]])
def test_bag_always_holds_two_butts_of_every_colour(players):
    """Unused colours stay in the bag (2 each): a first draw without them is refused."""
    s = Script(players).draw(["pink", "pink"], ["yellow", "yellow"], ["blue", "blue", "green", "green"])
    g = s.game()
    assert g.view()["bag"] == {"pink": 2, "yellow": 2, "blue": 2, "green": 2}
    short = Script(players).draw(["pink", "pink"], ["yellow", "yellow"], ["blue", "blue"])
    assert last_refused(short).startswith("event 0:")
    extra = Script(players).draw(["pink", "pink", "pink"], ["yellow", "yellow"],
                                 ["blue", "blue", "green", "green"])
    assert last_refused(extra).startswith("event 0:")


def test_first_turn_has_no_choice_and_no_specials():
    """Turn 1: the bag holds no specials, so neither add nor reset; a butt is worth 1."""
    g = Script(["Ann", "Bob"]).game()
    v = g.view()
    assert (v["can_add"], v["can_reset"], v["butt_value"], v["next"]) == (False, False, 1, "Ann")
    assert last_refused(Script(["Ann", "Bob"]).add("gray")).startswith("event 0:")
    assert last_refused(Script(["Ann", "Bob"]).reset()).startswith("event 0:")
    special_in_draw = Script(["Ann", "Bob"]).draw(["pink", "gray"], ["yellow"])
    special_in_draw.events[0]["groups"][2].append("gray")
    assert last_refused(special_in_draw).startswith("event 0:")


def test_colours_option_decides_whose_butts_score():
    s = Script(["Ann", "Bob"], colours={"Ann": "green", "Bob": "blue"}).turn(["green", "green", "pink"])
    assert s.game().summary()["scores"] == {"Ann": 2, "Bob": 0}


# -- a turn -------------------------------------------------------------------------------------
def test_second_turn_must_choose_add_or_reset_before_drawing():
    s = Script(["Ann", "Bob"]).turn(["pink"])
    v = s.game().view()
    assert (v["next"], v["can_add"], v["can_reset"]) == ("Bob", True, True)
    assert v["butt_value"] == 2  # one turn without reset before this one
    no_add = Script(["Ann", "Bob"]).turn(["pink"]).draw(["pink"], ["yellow"])
    assert last_refused(no_add).startswith("event 2:")
    s.add("gray")
    v = s.game().view()
    assert (v["can_add"], v["can_reset"], v["butt_value"]) == (False, False, 2)
    assert v["specials_in_bag"] == {"gray": 1}
    assert v["special_supply"] == {"black": 2, "gray": 1, "white": 1, "khaki": 1}


def test_add_only_what_the_supply_still_holds():
    s = Script(["Ann", "Bob"]).turn(["pink"]).turn(["yellow"], add="white").add("white")
    assert "no white special left" in last_refused(s)


def test_draw_must_be_exactly_the_bag_and_no_group_empty():
    players = ["pink", "yellow", "blue", "blue", "green", "green"]
    missing = _with(Script(["Ann", "Bob"]).turn(["pink"]).add("khaki"),
                    {"type": "draw", "groups": [["pink"], ["yellow"], players]})
    assert "khaki" in last_refused(missing)  # the added khaki is not in the draw
    empty = _with(Script(["Ann", "Bob"]).turn(["pink"]).add("khaki"),
                  {"type": "draw", "groups": [[], ["pink", "yellow"], [*players, "khaki"]]})
    assert "empty" in last_refused(empty)


def test_automatic_reset_nobody_scores_and_next_turn_starts_without_choice():
    s = Script(["Ann", "Bob", "Cy"]).turn(["pink"]).turn(["yellow"], add="gray").turn(["blue"], add="black")
    before = s.game().summary()["scores"]
    s.add("khaki").draw(["pink", "gray"], ["blue", "black"])  # group 3 holds the khaki
    g = s.game()
    v = g.view()
    assert v["scores"] == before
    assert v["next"] == "Bob"  # Ann drew on turn 4; Bob is next
    assert (v["can_add"], v["can_reset"], v["butt_value"], v["specials_in_bag"]) == (False, False, 1, {})
    assert v["special_supply"] == {"black": 2, "gray": 2, "white": 1, "khaki": 1}
    assert "automatic reset" in last_refused(_with(s, {"type": "reset"}))
    assert "automatic reset" in last_refused(_with(s, {"type": "add", "special": "gray"}))


def test_turn_after_automatic_reset_is_worth_one_and_the_next_adds_again():
    s = Script(["Ann", "Bob"]).turn(["pink"]).turn(["yellow"], add="gray").add("black")
    s.draw(["pink", "pink", "gray"], ["yellow", "yellow", "black"], ["blue", "blue", "green", "green"])
    s.score(3)  # with 2 players blue and green are nobody's: nobody scores
    assert s.game().summary()["scores"] == {"Ann": 1, "Bob": 2}
    s.add("khaki").draw(["pink", "gray"], ["yellow", "black"])  # group 3 holds the khaki
    v = s.game().view()
    assert v["next"] == "Ann" and v["butt_value"] == 1 and not v["can_add"]
    s.turn(["pink", "pink"])
    assert s.game().summary()["scores"] == {"Ann": 1 + 2, "Bob": 2}
    v = s.game().view()
    assert v["can_add"] and v["butt_value"] == 2


def test_unscorable_groups_black_and_only_specials():
    s = Script(["Ann", "Bob"]).turn(["pink"]).turn(["yellow"], add="black").add("gray")
    s.draw(["black", "pink"], ["gray"])
    v = s.game().view()
    assert [gr["scorable"] for gr in v["groups"]] == [False, False, True]
    assert v["groups"][0]["points"] == {"Ann": 0, "Bob": 0}
    for bad in (1, 2):
        t = Script(["Ann", "Bob"]).turn(["pink"]).turn(["yellow"], add="black").add("gray")
        t.draw(["black", "pink"], ["gray"]).score(bad)
        assert last_refused(t).startswith("event 7:")
    s.score(3)  # value 3: Ann has one pink, Bob two yellow in group 3
    assert s.game().summary()["scores"] == {"Ann": 1 + 3, "Bob": 2 + 6}


def test_khaki_alone_is_a_group_of_only_specials():
    s = Script(["Ann", "Bob"]).turn(["pink"]).add("khaki").draw(["khaki"], ["pink"]).score(1)
    assert "only special butts" in last_refused(s)


def test_exactly_one_group_is_scored():
    s = Script(["Ann", "Bob"]).turn(["pink"]).score(2)
    assert "event 2:" in last_refused(s)


def test_two_players_group_of_unused_colours_scores_nobody():
    s = Script(["Ann", "Bob"]).draw(["blue", "green"], ["pink"])
    v = s.game().view()
    assert v["groups"][0]["scorable"] and v["groups"][0]["points"] == {"Ann": 0, "Bob": 0}
    s.score(1)
    v = s.game().view()
    assert v["scores"] == {"Ann": 0, "Bob": 0} and v["next"] == "Bob"
    s.add("gray").draw(["blue", "gray", "green"], ["pink"]).score(1)  # gray bonus with no owner
    v = s.game().view()
    assert v["scores"] == {"Ann": 0, "Bob": 0} and v["next"] == "Ann" and v["butt_value"] == 3


def test_every_player_scores_their_butts_not_only_the_active_one():
    s = Script(["Ann", "Bob", "Cy", "Di"]).draw(["pink", "yellow", "yellow", "green"], ["blue"]).score(1)
    assert s.game().summary()["scores"] == {"Ann": 1, "Bob": 2, "Cy": 0, "Di": 1}


def test_score_pad_example_cole_darla_eddy():
    """Rulebook pad: turn 3, two specials in the bag, one pink + two blue: Cole +3, Eddy +6."""
    s = Script(["Cole", "Darla", "Eddy"])
    s.turn(["pink", "pink", "yellow"])
    s.turn(["yellow"], add="black")
    s.add("khaki").draw(["pink", "blue", "blue"], ["yellow", "black"])
    v = s.game().view()
    assert v["butt_value"] == 3
    assert v["groups"][0]["points"] == {"Cole": 3, "Darla": 0, "Eddy": 6}
    s.score(1)
    assert s.game().summary() == {"game": "bag-of-butts", "scores": {"Cole": 5, "Darla": 3, "Eddy": 6},
                                  "over": False, "winners": [], "next": "Cole"}


def frida_turn_six() -> Script:
    """Five turns without a reset; Frida (pink) alone has the fewest points at the start of turn 6."""
    s = Script(["Gus", "Frida", "Hal", "Ivy"],
               colours={"Gus": "yellow", "Frida": "pink", "Hal": "blue", "Ivy": "green"})
    s.turn(["yellow"])
    for special, col in (("black", "blue"), ("gray", "green"), ("gray", "yellow"), ("khaki", "blue")):
        s.turn([col], add=special)
    return s


def test_worked_example_frida_sixteen_and_extra_turn():
    s = frida_turn_six()
    before = s.game().summary()
    assert before["next"] == "Frida" and before["scores"]["Frida"] == 0
    s.add("white").draw(["pink", "khaki", "gray", "gray", "white", "blue", "blue"], ["black"])
    v = s.game().view()
    assert v["butt_value"] == 6
    g1 = v["groups"][0]
    assert g1["scorable"] and g1["points"] == {"Gus": 0, "Frida": 16, "Hal": 16, "Ivy": 0}
    assert g1["khaki_for"] == ["Frida"] and g1["extra_turn"]
    assert not v["groups"][1]["scorable"]
    s.score(1)
    g = s.game()
    v = g.view()
    assert v["scores"]["Frida"] == 16 and v["scores"]["Hal"] == before["scores"]["Hal"] + 16
    assert v["next"] == "Frida" and v["extra_turn"]
    assert v["can_add"] and v["can_reset"]  # the extra turn starts with step 1
    assert v["butt_value"] == 7


def test_extra_turn_signal_and_cannot_be_declined():
    s = frida_turn_six().add("white").draw(["pink", "white"], ["black", "gray", "gray", "khaki"])
    game = replay(Record("bag-of-butts", s.players, s.options, s.events))
    applied = game.apply({"type": "score", "group": 1})
    assert "extra-turn" in applied.signals
    assert game.next_player() == "Frida"
    # the extra turn: no draw without adding first (the supply is not empty)
    s.score(1).draw(["pink"], ["yellow"])
    assert last_refused(s).startswith(f"event {len(s.events) - 1}:")


def test_r1_voluntary_reset_offered_in_extra_turn():
    s = frida_turn_six().add("white").draw(["pink", "white"], ["black", "gray", "gray", "khaki"]).score(1)
    s.reset()
    v = s.game().view()
    assert v["next"] == "Frida" and v["butt_value"] == 1 and v["specials_in_bag"] == {}
    assert not v["can_add"] and not v["can_reset"]
    s.turn(["pink"])
    v = s.game().view()
    assert v["next"] == "Hal" and v["butt_value"] == 2 and v["can_reset"]


def test_r2_reset_allowed_with_no_specials_in_bag_and_it_counts():
    s = Script(["Ann", "Bob"]).turn(["pink"]).reset().turn(["yellow"])
    v = s.game().view()
    assert v["specials_in_bag"] == {} and v["can_reset"] and v["next"] == "Ann"
    s.reset().turn(["pink"])
    assert s.game().summary()["scores"] == {"Ann": 2, "Bob": 1}


def test_r2_reset_with_empty_bag_ends_the_final_stretch():
    """Ann reaches 28 in a turn played after a voluntary reset; Bob's reset (empty bag) ends it."""
    s = Script(["Ann", "Bob"]).turn(["pink", "pink"])
    for special in ("black", "black", "gray"):
        s.turn(["pink", "pink"], add=special)
    s.turn(["pink"], add="gray")  # 2 + 4 + 6 + 8 + 5 = 25
    s.reset().turn(["pink"])  # Bob resets: 26
    s.reset().turn(["pink", "pink"])  # Ann resets (not 28 yet, so the game goes on): 28
    v = s.game().view()
    assert v["scores"] == {"Ann": 28, "Bob": 0} and v["specials_in_bag"] == {}
    assert v["can_reset"] and v["next"] == "Bob" and not v["over"]
    s.reset()
    out = s.game().summary()
    assert out["over"] and out["winners"] == ["Ann"] and out["next"] is None


def test_r3_value_keeps_rising_when_the_supply_is_empty():
    s = Script(["Ann", "Bob"]).turn(["blue"])
    for special in ("black", "black", "gray", "gray", "khaki", "white"):
        s.turn(["blue"], add=special)
    g = s.game()
    v = g.view()
    assert sum(v["special_supply"].values()) == 0
    assert (v["next"], v["can_add"], v["can_reset"], v["butt_value"]) == ("Bob", False, True, 8)
    assert "supply is empty" in last_refused(_with(s, {"type": "add", "special": "gray"}))
    s.turn(["pink"])  # Bob draws straight away: Ann's pink is worth 8
    assert s.game().summary()["scores"] == {"Ann": 8, "Bob": 0}
    v = s.game().view()
    assert v["butt_value"] == 9 and not v["can_add"]
    s.turn(["pink", "pink"])
    assert s.game().summary()["scores"] == {"Ann": 8 + 18, "Bob": 0}


def _with(script: Script, event: dict) -> Script:
    copy = Script(script.players)
    copy.options, copy.events, copy.specials = dict(script.options), [*script.events, event], list(script.specials)
    return copy


def test_khaki_counts_for_each_tied_fewest_player():
    s = Script(["Ann", "Bob", "Cy", "Di"]).draw(["pink", "yellow"], ["blue"]).score(1)
    s.add("khaki").draw(["khaki", "pink"], ["green"])
    v = s.game().view()
    assert v["groups"][0]["khaki_for"] == ["Cy", "Di"]
    assert v["groups"][0]["points"] == {"Ann": 2, "Bob": 0, "Cy": 2, "Di": 2}
    s.score(1)
    assert s.game().summary()["scores"] == {"Ann": 3, "Bob": 1, "Cy": 2, "Di": 2}


def test_khaki_with_gray_scores_like_a_player_butt():
    s = Script(["Ann", "Bob"]).draw(["pink"], ["yellow"]).score(1)
    s.add("khaki").draw(["yellow"], ["pink"]).score(1)  # Bob 2
    s.add("gray").draw(["khaki", "gray", "blue"], ["pink"]).score(1)  # Ann 1 < Bob 2: khaki is Ann's
    assert s.game().summary()["scores"] == {"Ann": 1 + (1 + 2 + 1), "Bob": 2}


def test_two_players_khaki_with_only_unused_colours_still_counts():
    s = Script(["Ann", "Bob"]).draw(["yellow"], ["pink"]).score(1).add("khaki")
    s.draw(["khaki", "blue", "green"], ["pink"]).score(1)
    assert s.game().summary()["scores"] == {"Ann": 2, "Bob": 1}


def test_r4_khaki_fewest_read_at_start_of_the_extra_turn():
    """Frida scores 16 with white; in her extra turn Gus (0) has the fewest, not Frida any more."""
    s = frida_turn_six().add("white").draw(["pink", "khaki", "gray", "gray", "white", "blue", "blue"], ["black"])
    s.score(1)
    scores = s.game().summary()["scores"]
    low = min(scores.values())
    fewest = [p for p in ["Gus", "Frida", "Hal", "Ivy"] if scores[p] == low]
    assert "Frida" not in fewest
    s.add("black").draw(["pink", "khaki"], ["black", "black", "gray", "gray", "white", "yellow"])
    v = s.game().view()
    assert v["butt_value"] == 7
    assert v["groups"][0]["khaki_for"] == fewest
    s.score(1)
    after = s.game().summary()["scores"]
    assert after["Frida"] == 16 + 7 and all(after[p] == scores[p] + 7 for p in fewest)


def test_r4_khaki_for_the_active_player_who_is_still_fewest_in_the_extra_turn():
    """Bob's extra turn: khaki is Ann's (fewest); Ann's extra turn with Ann still fewest: hers."""
    s = Script(["Ann", "Bob"]).draw(["yellow", "yellow"], ["pink"]).score(1)  # Bob 2, Ann 0
    s.add("white").draw(["white", "blue"], ["pink"]).score(1)  # Bob, turn 2: white, nobody's butt
    v = s.game().view()
    assert v["next"] == "Bob" and v["extra_turn"]
    s.add("khaki").draw(["khaki", "yellow"], ["pink", "white"]).score(1)  # 3 per butt
    assert s.game().summary()["scores"] == {"Ann": 3, "Bob": 5}
    s2 = Script(["Ann", "Bob"]).draw(["yellow", "yellow"], ["pink"]).score(1)
    s2.add("white").draw(["blue"], ["pink"]).score(1)  # Bob, turn 2: nobody scores
    s2.add("khaki").draw(["white", "green"], ["pink"]).score(1)  # Ann, turn 3: white, extra turn
    v = s2.game().view()
    assert v["next"] == "Ann" and v["extra_turn"]
    s2.add("gray").draw(["khaki", "pink", "gray"], ["yellow", "white"]).score(1)
    # V = 3 turns without reset, G = 1: 5 per butt; pink + khaki (Ann, 0 points, is fewest)
    assert s2.game().summary()["scores"] == {"Ann": 2 * 5, "Bob": 2}


# -- end of the game ---------------------------------------------------------------------------
def test_reaching_28_does_not_end_until_a_reset():
    s = Script(["Ann", "Bob"])
    s.turn(["pink", "pink", "yellow"])
    for special in ("black", "black", "gray", "gray"):
        s.turn(["pink", "pink", "yellow"], add=special)
    v = s.game().view()
    assert v["scores"]["Ann"] == 30 and not v["over"] and v["final_stretch"] and v["next"] == "Bob"
    s.turn(["yellow"], add="khaki")
    v = s.game().view()
    assert not v["over"] and v["next"] == "Ann"
    s.reset()
    v = s.game().view()
    assert v["over"] and v["winners"] == ["Ann"] and v["next"] is None
    assert v["scores"] == {"Ann": 30, "Bob": 15 + 6}
    assert last_refused(_with(s, {"type": "draw", "groups": [["pink"], ["yellow"], ["blue"]]})).startswith(
        f"event {len(s.events)}:")


def test_automatic_reset_in_the_final_stretch_ends_after_that_turn():
    s = Script(["Ann", "Bob"])
    s.turn(["pink", "pink", "yellow"])
    for special in ("black", "black", "gray", "gray"):
        s.turn(["pink", "pink", "yellow"], add=special)
    s.add("khaki").draw(["yellow", "yellow", "black"], ["pink", "gray"])  # rest has khaki + black + gray
    v = s.game().view()
    assert v["over"] and v["winners"] == ["Ann"] and v["scores"] == {"Ann": 30, "Bob": 15}


def test_extra_turn_right_after_passing_28_starts_with_the_choice_and_reset_ends():
    s = Script(["Ann", "Bob"])
    s.turn(["pink", "pink", "yellow"])
    for special in ("black", "black", "gray"):
        s.turn(["pink", "pink", "yellow"], add=special)
    assert s.game().summary()["scores"] == {"Ann": 20, "Bob": 10}
    s.add("white").draw(["pink", "pink", "white"], ["yellow"]).score(1)  # Ann: +10 = 30, extra turn
    v = s.game().view()
    assert v["scores"]["Ann"] == 30 and v["next"] == "Ann" and v["extra_turn"] and not v["over"]
    assert v["can_reset"] and v["can_add"] and v["butt_value"] == 6
    ended = _with(s, {"type": "reset"}).game().view()
    assert ended["over"] and ended["winners"] == ["Ann"] and ended["scores"] == {"Ann": 30, "Bob": 10}
    s.add("khaki").draw(["yellow"], ["pink", "black"])  # Ann goes on instead
    s.score(1)
    v = s.game().view()
    assert not v["over"] and v["scores"]["Bob"] == 16 and v["next"] == "Bob"


def test_tie_starts_tiebreaker_from_zero_with_the_resetting_player():
    s = tied_at_30().reset()  # Bob would have played turn 6
    v = s.game().view()
    assert not v["over"] and v["winners"] == []
    assert v["scores"] == {"Ann": 30, "Bob": 30}
    assert v["tiebreak"] == {"players": ["Ann", "Bob"], "scores": {"Ann": 0, "Bob": 0}}
    assert v["next"] == "Bob"
    assert (v["can_add"], v["can_reset"], v["butt_value"], v["specials_in_bag"]) == (False, False, 1, {})
    assert last_refused(_with(s, {"type": "add", "special": "gray"}))
    assert last_refused(_with(s, {"type": "reset"}))


def test_tiebreak_scores_go_to_the_tiebreak_key_not_scores():
    s = tied_at_30().reset().turn(["yellow", "yellow", "pink"])
    v = s.game().view()
    assert v["scores"] == {"Ann": 30, "Bob": 30}
    assert v["tiebreak"]["scores"] == {"Ann": 1, "Bob": 2}
    assert v["next"] == "Ann" and v["can_add"] and v["can_reset"]


def test_voluntary_reset_in_tiebreaker_ends_it():
    s = tied_at_30().reset().turn(["yellow", "yellow", "pink"]).reset()
    v = s.game().view()
    assert v["over"] and v["winners"] == ["Bob"] and v["next"] is None
    assert v["scores"] == {"Ann": 30, "Bob": 30}
    assert v["tiebreak"]["scores"] == {"Ann": 1, "Bob": 2}


def test_automatic_reset_in_tiebreaker_ends_it_and_still_tied_all_win():
    s = tied_at_30().reset().turn(["yellow", "pink"])  # Bob starts: 1 each
    s.add("gray").draw(["yellow", "yellow"], ["pink", "gray"]).score(1)  # Ann: Bob +4
    s.add("black").draw(["pink"], ["yellow"]).score(1)  # Bob: Ann +3
    v = s.game().view()
    assert v["tiebreak"]["scores"] == {"Ann": 4, "Bob": 5} and v["next"] == "Ann"
    s.add("khaki").draw(["pink", "gray"], ["yellow", "black"])  # group 3 holds the khaki
    v = s.game().view()
    assert v["over"] and v["winners"] == ["Bob"] and v["next"] is None
    assert v["scores"] == {"Ann": 30, "Bob": 30}
    even = tied_at_30().reset().turn(["yellow", "pink"]).reset()
    v = even.game().view()
    assert v["over"] and v["winners"] == ["Ann", "Bob"]
    assert v["tiebreak"]["scores"] == {"Ann": 1, "Bob": 1}


def test_r6_voluntary_reset_by_untied_player_passes_to_first_tied_clockwise():
    s = Script(["Ann", "Bob", "Cy"])
    s.turn(["pink", "pink", "yellow", "yellow", "blue"])
    for special in ("black", "black", "gray", "gray"):
        s.turn(["pink", "pink", "yellow", "yellow", "blue"], add=special)
    # turns: Ann, Bob, Cy, Ann, Bob; next is Cy (not tied)
    assert s.game().summary()["next"] == "Cy"
    s.reset()
    v = s.game().view()
    assert v["tiebreak"] == {"players": ["Ann", "Bob"], "scores": {"Ann": 0, "Bob": 0}}
    assert v["next"] == "Ann"
    # R5: Cy's blue butts are neutral in the tiebreaker; the bag still holds 8 player butts
    s.draw(["blue", "blue", "pink"], ["yellow"])
    g = s.game().view()["groups"]
    assert g[0]["points"] == {"Ann": 1, "Bob": 0}
    s.score(1)
    v = s.game().view()
    assert v["scores"] == {"Ann": 30, "Bob": 30, "Cy": 15}
    assert v["tiebreak"]["scores"] == {"Ann": 1, "Bob": 0}
    assert v["next"] == "Bob"  # Cy is not seated in the tiebreaker


def three_players_at_40() -> Script:
    """Ann (pink) and Bob (yellow) at 40, Cy (blue) at 20 after an automatic reset on turn 5."""
    s = Script(["Ann", "Bob", "Cy"])
    s.turn(["pink", "pink", "yellow", "yellow", "blue"])
    for special in ("black", "black", "gray"):
        s.turn(["pink", "pink", "yellow", "yellow", "blue"], add=special)
    s.add("gray").draw(["pink", "pink", "yellow", "yellow", "gray"], ["blue", "black"])  # Bob: reset
    v = s.game().view()
    assert v["scores"] == {"Ann": 20, "Bob": 20, "Cy": 10} and not v["over"] and v["next"] == "Cy"
    s.turn(["pink", "pink", "yellow", "yellow", "blue"])
    for special in ("black", "black", "gray"):
        s.turn(["pink", "pink", "yellow", "yellow", "blue"], add=special)
    v = s.game().view()
    assert v["scores"] == {"Ann": 40, "Bob": 40, "Cy": 20} and v["next"] == "Ann"
    return s


def test_r6_automatic_reset_next_player_tied_starts():
    s = three_players_at_40().add("gray").draw(["pink", "gray"], ["yellow", "black"])  # Ann: reset
    v = s.game().view()
    assert v["tiebreak"]["players"] == ["Ann", "Bob"] and v["next"] == "Bob" and not v["over"]


def test_r6_automatic_reset_next_player_not_tied():
    """Bob's turn ends in an automatic reset; Cy would be next but is not tied: Ann starts."""
    s = three_players_at_40().turn(["green"], add="gray")  # Ann scores nobody's butts
    assert s.game().summary()["next"] == "Bob"
    s.add("white").draw(["pink", "gray"], ["yellow", "black"])  # Bob: automatic reset
    v = s.game().view()
    assert v["tiebreak"]["players"] == ["Ann", "Bob"] and v["next"] == "Ann"


def test_r6_automatic_reset_with_empty_supply_next_player_starts():
    """All 6 specials are in the bag, Ann and Bob tie at 28; Bob draws (nothing to add) and every
    group holds a special: an automatic reset, so Ann (after Bob) starts the tiebreaker."""
    s = Script(["Ann", "Bob"]).turn(["pink", "yellow"])
    for special in ("black", "black", "gray", "gray", "khaki", "white"):
        s.turn(["pink", "yellow"], add=special)
    v = s.game().view()
    assert v["scores"] == {"Ann": 28, "Bob": 28} and v["next"] == "Bob" and not v["can_add"]
    s.draw(["pink", "black"], ["yellow", "black"])  # group 3: gray, gray, khaki, white and butts
    v = s.game().view()
    assert v["tiebreak"] == {"players": ["Ann", "Bob"], "scores": {"Ann": 0, "Bob": 0}}
    assert v["next"] == "Ann"


def test_r6_voluntary_reset_with_empty_supply_resetter_starts():
    s = Script(["Ann", "Bob"]).turn(["pink", "yellow"])
    for special in ("black", "black", "gray", "gray", "khaki", "white"):
        s.turn(["pink", "yellow"], add=special)
    s.reset()
    v = s.game().view()
    assert v["tiebreak"]["players"] == ["Ann", "Bob"] and v["next"] == "Bob"


def test_no_tiebreak_when_only_lower_places_tie():
    s = Script(["Ann", "Bob", "Cy"])
    s.turn(["pink", "pink", "yellow", "blue"])
    for special in ("black", "black", "gray", "gray"):
        s.turn(["pink", "pink", "yellow", "blue"], add=special)
    s.reset()
    v = s.game().view()
    assert v["over"] and v["winners"] == ["Ann"] and "tiebreak" not in v


# -- the command line ---------------------------------------------------------------------------
def test_cli_replay_json_and_refusal(tmp_path, capsys):
    s = tied_at_30().reset().turn(["yellow", "yellow", "pink"]).reset()
    path = tmp_path / "game.json"
    path.write_text(json.dumps(s.record().to_json()))
    assert main(["replay", str(path), "--json"]) == 0
    out = json.loads(capsys.readouterr().out)
    assert out == {"game": "bag-of-butts", "scores": {"Ann": 30, "Bob": 30}, "over": True,
                   "winners": ["Bob"], "next": None,
                   "tiebreak": {"players": ["Ann", "Bob"], "scores": {"Ann": 1, "Bob": 2}}}
    bad = Script(["Ann", "Bob"]).turn(["pink"]).draw(["pink"], ["yellow"])
    path.write_text(json.dumps(bad.record().to_json()))
    assert main(["replay", str(path), "--json"]) == 2
    captured = capsys.readouterr()
    assert captured.out == "" and captured.err.startswith("event 2:") and captured.err.count("\n") == 1


def test_score_pad_matches_the_rulebook_pad():
    """The paper pad: new totals for who scored, X for who did not, the butt value per turn."""
    s = Script(["Cole", "Darla", "Eddy"])
    s.turn(["pink", "pink", "yellow"]).turn(["yellow"], add="black")
    s.add("khaki").draw(["pink", "blue", "blue"], ["yellow", "black"]).score(1)
    pad = s.game().score_pad()
    assert pad[0][2:5] == ["Cole", "Darla", "Eddy"]
    assert [row[1:5] for row in pad[1:4]] == [["1", "2", "1", "X"], ["2", "X", "3", "X"], ["3", "5", "X", "6"]]


# -- an independent model of the rules, played against the engine --------------------------------
def scorable(group: list[str]) -> bool:
    return "black" not in group and not all(t in SPECIALS for t in group)


class Model:
    """The digest and rulings written out plainly, to compare with the engine event by event."""

    SUPPLY = Counter({"black": 2, "gray": 2, "white": 1, "khaki": 1})

    def __init__(self, players: list[str]):
        self.players = players
        self.owner = dict(zip(COLOURS, players, strict=False))
        self.main = dict.fromkeys(players, 0)
        self.tied: list[str] | None = None
        self.tb: dict[str, int] = {}
        self.specials: list[str] = []
        self.run = 0  # turns without a reset before the next one
        self.value = 0  # V of the turn being played
        self.active = players[0]
        self.stage = "draw"
        self.groups: list[list[str]] = []
        self.over = False
        self.winners: list[str] = []

    def seated(self) -> list[str]:
        return self.tied or self.players

    def table(self) -> dict[str, int]:
        return self.tb if self.tied else self.main

    def after(self, player: str, seats: list[str]) -> str:
        return seats[(seats.index(player) + 1) % len(seats)]

    def ends_at_reset(self) -> bool:
        return self.tied is not None or max(self.main.values()) >= 28

    def supply(self) -> Counter:
        return self.SUPPLY - Counter(self.specials)

    def end(self, voluntary: bool) -> None:
        table = self.table()
        best = max(table[p] for p in self.seated())
        top = [p for p in self.seated() if table[p] == best]
        if len(top) > 1 and self.tied is None:
            first = self.active if voluntary else self.after(self.active, self.players)
            while first not in top:
                first = self.after(first, self.players)
            self.tied, self.tb = top, dict.fromkeys(top, 0)
            self.specials, self.run, self.value, self.active, self.stage = [], 0, 0, first, "draw"
        else:
            self.over, self.winners = True, top

    def apply(self, ev: dict) -> None:
        kind = ev["type"]
        if kind == "reset":
            self.specials, self.run, self.value = [], 0, 0
            if self.ends_at_reset():
                self.end(voluntary=True)
            else:
                self.stage = "draw"
        elif kind == "add":
            self.specials.append(ev["special"])
            self.value, self.stage = self.run, "draw"
        elif kind == "draw":
            if self.stage == "choose":
                self.value = self.run
            self.groups = ev["groups"]
            if all(any(t in SPECIALS for t in g) for g in self.groups):
                self.specials, self.run = [], 0
                if self.ends_at_reset():
                    self.end(voluntary=False)
                else:
                    self.active, self.value, self.stage = self.after(self.active, self.seated()), 0, "draw"
            else:
                self.stage = "score"
        else:
            group = self.groups[ev["group"] - 1]
            for p, n in self.points(group).items():
                self.table()[p] += n
            self.run = self.value + 1
            if "white" not in group:
                self.active = self.after(self.active, self.seated())
            self.stage = "choose"

    def points(self, group: list[str]) -> dict[str, int]:
        """What scoring ``group`` gives each seated player: 1 + V + G per butt, khaki to the fewest."""
        table = self.table()
        low = min(table[p] for p in self.seated())
        per = 1 + self.value + group.count("gray")
        butts = Counter(self.owner[t] for t in group if self.owner.get(t) in self.seated())
        if "khaki" in group:
            butts.update(p for p in self.seated() if table[p] == low)
        return {p: butts[p] * per for p in self.seated()}

    def random_event(self, rng) -> dict:
        if self.stage == "choose":
            supply = sorted(self.supply().elements())
            if rng.random() < (0.35 if self.ends_at_reset() else 0.07):
                return {"type": "reset"}
            if supply:
                return {"type": "add", "special": rng.choice(supply)}
        if self.stage in ("choose", "draw"):
            tokens = [c for c in COLOURS for _ in range(2)] + self.specials
            rng.shuffle(tokens)
            a = rng.randint(1, len(tokens) - 2)
            b = rng.randint(a + 1, len(tokens) - 1)
            return {"type": "draw", "groups": [tokens[:a], tokens[a:b], tokens[b:]]}
        ok = [n for n, g in enumerate(self.groups, 1) if scorable(g)]
        return {"type": "score", "group": rng.choice(ok)}


@pytest.mark.parametrize("n", [2, 3, 4])
def test_engine_matches_an_independent_model_on_random_games(n):
    import random

    rng = random.Random(2026 + n)
    players = ["Ann", "Bob", "Cy", "Di"][:n]
    tiebreaks = 0
    for _ in range(150):
        model, events = Model(players), []
        game = replay(Record("bag-of-butts", players, {}, []))
        while not model.over and len(events) < 400:
            event = model.random_event(rng)
            game.apply(event)
            model.apply(event)
            events.append(event)
            out = game.summary()
            where = f"after event {len(events) - 1} of {json.dumps(events)}"
            assert out["scores"] == model.main, where
            assert out["over"] == model.over and out["winners"] == model.winners, where
            assert out["next"] == (None if model.over else model.active), where
            if model.tied:
                assert out["tiebreak"] == {"players": model.tied, "scores": model.tb}, where
            if not model.over and model.stage in ("draw", "score"):
                assert game.view()["butt_value"] == 1 + model.value, where
            if not model.over and model.stage == "score":
                shown = [(g["scorable"], g["points"]) for g in game.view()["groups"]]
                zero = dict.fromkeys(model.seated(), 0)
                assert shown == [(scorable(g), model.points(g) if scorable(g) else zero) for g in model.groups], where
        tiebreaks += model.tied is not None
        assert model.over
    assert tiebreaks > 0 or n == 4


def test_cli_dutch_refusal_and_printed_pad_after_a_tiebreaker(tmp_path, capsys):
    bad = Script(["Ann", "Bob"]).turn(["pink"]).draw(["pink"], ["yellow"])
    path = tmp_path / "bad.json"
    path.write_text(json.dumps(bad.record().to_json()))
    assert main(["replay", str(path), "--lang", "nl"]) == 2
    err = capsys.readouterr().err
    assert err.startswith("event 2:") and "Herstart" in err
    done = tmp_path / "done.json"
    done.write_text(json.dumps(tied_at_30().reset().turn(["yellow", "yellow", "pink"]).reset().record().to_json()))
    assert main(["replay", str(done)]) == 0
    printed = capsys.readouterr().out
    assert "Winner: Bob" in printed and "tiebreaker" in printed
