"""Independent rules audit of the Nicht die Bohne! engine, rule by rule, as game records.

Each test replays a record (shared/spec/game-records.md) and checks what a player sees: the
replay summary (scores, next, over, winners, rounds), the refusal line, or the view() data the
screens use. Sources: shared/rules/nicht-die-bohne.md (rulings R1-R3) and the Dutch rulebook
(shared/seeds/003_b74f03650f47e830.txt). Expected numbers are worked out by hand in the comments.
"""

from __future__ import annotations

import json
import random
from collections import Counter

import pytest

from companion import cli, records
from companion.games.nicht_die_bohne import DECK, NichtDieBohne
from companion.records import Record, RecordError

ABC = ["Ann", "Bob", "Cy"]
COLOURS = ("green", "red", "yellow", "blue")


# -- helpers ----------------------------------------------------------------------------------------
def ndb(players: list[str], events: list[dict]) -> dict:
    return {"game": "nicht-die-bohne", "players": players, "options": {}, "events": events}


def replay(doc: dict) -> NichtDieBohne:
    return records.replay(Record.from_json(doc))


def refused(doc: dict) -> str:
    """The one-line refusal of a record (must be refused)."""
    with pytest.raises(RecordError) as info:
        replay(doc)
    return info.value.line()


def cards(colour: str, *faces: object) -> list[str]:
    return [f"{colour}-{f}" for f in faces]


def phase(played: dict, takes: list) -> dict:
    return {"type": "phase", "played": played, "takes": takes}


def collected(hands: dict[str, list[str]]) -> dict:
    return {"type": "round", "collected": hands}


def oracle_row(row: list[str]) -> int:
    """The rulebook's row value, written independently of the engine."""
    faces = [c.split("-", 1)[1] for c in row]
    if "zero" in faces:
        return 0
    beans = sum(int(f) for f in faces if f.isdigit())
    sign = -1 if faces.count("pm") in (1, 3) else 1
    return beans * sign * (2 if "x2" in faces else 1)


def oracle_score(hand: list[str]) -> int:
    return sum(oracle_row([c for c in hand if c.startswith(col + "-")]) for col in COLOURS)


def full_deck() -> list[str]:
    """The 60 cards in a fixed order."""
    return sorted(DECK.elements())


def round_of_phases(players: list[str], token: str, rotate: int = 0) -> tuple[list[dict], dict, str]:
    """A whole round played phase by phase from a fixed deal: (phase events, collections, last token).

    ``rotate`` shifts the deal so rounds differ. Takes go clockwise from the token holder.
    """
    deck = full_deck()
    deck = deck[rotate:] + deck[:rotate]
    deal = 60 // len(players)
    hands = {p: deck[i * deal:(i + 1) * deal] for i, p in enumerate(players)}
    got: dict[str, list[str]] = {p: [] for p in players}
    events = []
    for k in range(deal):
        played = {p: hands[p][k] for p in players}
        i = players.index(token)
        takes = [players[(i + j) % len(players)] for j in range(1, len(players))]
        takers = [token, *takes[:-1]]
        for taker, owner in zip(takers, takes, strict=True):
            got[taker].append(played[owner])
        got[takes[-1]].append(played[token])
        events.append(phase(played, takes))
        token = takes[-1]
    return events, got, token


def cli_replay(doc: dict, tmp_path, capsys) -> tuple[int, str, str]:
    path = tmp_path / "record.json"
    path.write_text(json.dumps(doc), encoding="utf-8")
    rc = cli.main(["replay", str(path), "--json"])
    out, err = capsys.readouterr()
    return rc, out, err


# -- hand-built partitions of the 60 cards (3 players, 20 each) -----------------------------------
# P2: every +/- count, 2x with a negative row, Nicht die Bohne over 2x, specials only.
P2 = {
    "Ann": cards("red", 1, 2, 3, "pm")                      # 6 beans, one +/-          -> -6
    + cards("green", 10, "pm", "pm", "pm", "x2")            # 10, three +/- and 2x      -> -20
    + cards("yellow", "x2", 5)                              # 5, 2x                     -> +10
    + cards("blue", 1, 2, 3, 4, 5, 6, 7, 8, "zero"),        # Nicht die Bohne           -> 0
    "Bob": cards("red", 4, 5, "pm", "pm")                   # 9, two +/-                -> +9
    + cards("green", 1, 2, "zero")                          # Nicht die Bohne           -> 0
    + cards("yellow", "pm", "pm", "pm", "zero", 1, 2, 3)    # zero beats three +/-      -> 0
    + cards("blue", 9, 10, "pm", "pm", "pm", "x2"),         # 19, three +/-, 2x         -> -38
    "Cy": cards("red", 6, 7, 8, 9, 10, "zero", "x2")        # zero beats 2x             -> 0
    + cards("green", 3, 4, 5, 6, 7, 8, 9)                   # 42
    + cards("yellow", 4, 6, 7, 8, 9, 10),                   # 44
}
P2_ROWS = {"Ann": {"red": -6, "green": -20, "yellow": 10, "blue": 0},
           "Bob": {"red": 9, "green": 0, "yellow": 0, "blue": -38},
           "Cy": {"red": 0, "green": 42, "yellow": 44}}
P2_SCORES = {"Ann": -16, "Bob": -29, "Cy": 86}


def p1(fifteen: str, forty: str, zero: str) -> dict[str, list[str]]:
    """P1 with roles: one player scores 15 (red 1-5), one 40 (red 6-10), one 0 (red specials only)."""
    return {fifteen: cards("green", *range(1, 11), "zero", "x2", "pm", "pm", "pm") + cards("red", 1, 2, 3, 4, 5),
            forty: cards("yellow", *range(1, 11), "zero", "x2", "pm", "pm", "pm") + cards("red", 6, 7, 8, 9, 10),
            zero: cards("blue", *range(1, 11), "zero", "x2", "pm", "pm", "pm")
            + cards("red", "zero", "x2", "pm", "pm", "pm")}


# P8: everybody negative; Cy's -20 is the best.
P8 = {"Ann": cards("red", *range(1, 10), "zero") + cards("green", *range(1, 10), "pm"),       # 0 + -45
      "Bob": cards("yellow", *range(1, 10), "pm") + cards("blue", *range(1, 10), "pm"),       # -45 + -45
      "Cy": cards("red", 10, "x2", "pm", "pm", "pm") + cards("green", 10, "zero", "x2", "pm", "pm")
      + cards("yellow", 10, "zero", "x2", "pm", "pm") + cards("blue", 10, "zero", "x2", "pm", "pm")}


def test_hand_built_partitions_are_the_deck():
    for hands in (P2, p1("Ann", "Bob", "Cy"), P8):
        assert Counter(c for h in hands.values() for c in h) == DECK
        assert all(len(h) == 20 for h in hands.values())
    assert {p: oracle_score(h) for p, h in P2.items()} == P2_SCORES
    assert {p: oracle_score(h) for p, h in p1("Ann", "Bob", "Cy").items()} == {"Ann": 15, "Bob": 40, "Cy": 0}
    assert {p: oracle_score(h) for p, h in P8.items()} == {"Ann": -45, "Bob": -90, "Cy": -20}


# -- scoring a colour row -----------------------------------------------------------------------
def test_each_row_rule_scores_what_the_rulebook_says():
    game = replay(ndb(ABC, [collected(P2)]))
    assert game.summary()["rounds"] == [P2_SCORES]
    assert game.scores() == P2_SCORES
    detail = game.view()["rounds_detail"][0]
    for player, rows in P2_ROWS.items():
        assert {r["colour"]: r["value"] for r in detail[player]["rows"]} == rows
        assert detail[player]["score"] == P2_SCORES[player]


def test_two_x_doubles_a_negative_row_and_is_explained():
    game = replay(ndb(ABC, [collected(P2)]))
    bob_blue = next(r for r in game.view()["rounds_detail"][0]["Bob"]["rows"] if r["colour"] == "blue")
    assert bob_blue["beans"] == 19 and bob_blue["value"] == -38
    assert "-38" in bob_blue["text"]["en"] and "-38" in bob_blue["text"]["nl"]


def test_specials_only_rows_score_zero_r1():
    # 4 players deal 15 each. Ann: red 2x + three +/- (no beans, no zero) and green 1-10 with 2x.
    hands = {"Ann": cards("red", "x2", "pm", "pm", "pm") + cards("green", *range(1, 11), "x2"),
             "Bob": cards("red", *range(1, 11), "zero") + cards("green", "zero", "pm", "pm", "pm"),
             "Cy": cards("yellow", *range(1, 11), "zero", "x2", "pm", "pm", "pm"),
             "Dee": cards("blue", *range(1, 11), "zero", "x2", "pm", "pm", "pm")}
    game = replay(ndb(["Ann", "Bob", "Cy", "Dee"], [collected(hands)]))
    assert game.summary()["rounds"] == [{"Ann": 110, "Bob": 0, "Cy": 0, "Dee": 0}]
    rows = {r["colour"]: r["value"] for r in game.view()["rounds_detail"][0]["Ann"]["rows"]}
    assert rows == {"red": 0, "green": 110}


def test_nicht_die_bohne_zeroes_everything_in_its_row_only():
    # Cy's red holds 40 beans, the zero and the 2x: 0; Cy's green/yellow rows are untouched.
    detail = replay(ndb(ABC, [collected(P2)])).view()["rounds_detail"][0]["Cy"]["rows"]
    red = next(r for r in detail if r["colour"] == "red")
    assert red["beans"] == 40 and red["value"] == 0
    assert "Nicht die Bohne" in red["text"]["en"]


def test_special_cards_count_whenever_taken_and_only_in_their_colour():
    e1 = phase({"Ann": "blue-1", "Bob": "red-pm", "Cy": "yellow-1"}, ["Bob", "Cy"])     # Ann <- red-pm; Cy leads
    e2 = phase({"Ann": "yellow-2", "Bob": "green-x2", "Cy": "blue-2"}, ["Ann", "Bob"])  # Ann <- green-x2; Bob leads
    e3 = phase({"Ann": "blue-3", "Bob": "red-5", "Cy": "yellow-3"}, ["Cy", "Ann"])      # Ann <- red-5 (token card)
    game = replay(ndb(ABC, [e1, e2, e3]))
    view = game.view()
    ann = {r["colour"]: (r["cards"], r["value"]) for r in view["players"]["Ann"]["rows"]}
    # the +/- taken in phase 1 still turns the red-5 of phase 3 negative; the 2x stays in green
    assert ann == {"green": (["green-x2"], 0), "red": (["red-pm", "red-5"], -5)}
    assert view["players"]["Ann"]["round_score"] == -5
    assert game.next_player() == "Ann" and view["token"] == "Ann"


# -- taking order ---------------------------------------------------------------------------------
def test_taking_order_follows_the_owner_of_the_card_just_taken():
    played = {"Ann": "red-5", "Bob": "green-3", "Cy": "blue-7", "Dee": "yellow-2"}
    game = replay(ndb(["Ann", "Bob", "Cy", "Dee"], [phase(played, ["Cy", "Bob", "Dee"])]))
    view = game.view()
    assert view["last_phase"]["holder"] == "Ann"
    assert view["last_phase"]["taking"] == [
        {"taker": "Ann", "card": "blue-7", "from": "Cy"},     # the token holder takes first
        {"taker": "Cy", "card": "green-3", "from": "Bob"},    # then the owner of the card just taken
        {"taker": "Bob", "card": "yellow-2", "from": "Dee"},
        {"taker": "Dee", "card": "red-5", "from": "Ann"},     # the last player gets the token card
    ]
    got = {p: [c for r in v["rows"] for c in r["cards"]] for p, v in view["players"].items()}
    assert got == {"Ann": ["blue-7"], "Bob": ["yellow-2"], "Cy": ["green-3"], "Dee": ["red-5"]}
    # nobody holds their own card and everyone took exactly one
    assert all(played[p] not in got[p] for p in got)
    assert game.summary()["next"] == "Dee"


def test_token_card_taken_early_or_own_card_is_refused(tmp_path, capsys):
    played = {"Ann": "red-5", "Bob": "green-3", "Cy": "blue-7"}
    # 'takes' naming Ann = someone took the token card before the last player
    line = refused(ndb(ABC, [phase(played, ["Ann", "Bob"])]))
    assert line.startswith("event 0: Ann holds the bean token")
    # a player named twice = a card taken twice and one player taking their own / none
    assert refused(ndb(ABC, [phase(played, ["Bob", "Bob"])])).startswith("event 0: 'takes' must name 2 players")
    rc, out, err = cli_replay(ndb(ABC, [phase(played, ["Cy", "Ann"])]), tmp_path, capsys)
    assert rc == 2 and out == "" and err.count("\n") == 1 and err.startswith("event 0: Ann holds the bean token")
    path = tmp_path / "record.json"
    assert cli.main(["replay", str(path), "--json", "--lang", "nl"]) == 2
    out, err = capsys.readouterr()
    assert out == "" and err.startswith("event 0: Ann heeft de bonenfiche en neemt eerst")


def test_the_last_player_leads_the_next_phase():
    e1 = phase({"Ann": "red-5", "Bob": "green-3", "Cy": "blue-7"}, ["Cy", "Bob"])  # Bob gets the token
    wrong = phase({"Ann": "red-6", "Bob": "green-4", "Cy": "blue-8"}, ["Bob", "Cy"])  # Ann leads: wrong
    assert refused(ndb(ABC, [e1, wrong])).startswith("event 1: Bob holds the bean token")
    right = phase({"Ann": "red-6", "Bob": "green-4", "Cy": "blue-8"}, ["Ann", "Cy"])
    game = replay(ndb(ABC, [e1, right]))
    assert game.view()["last_phase"]["holder"] == "Bob" and game.next_player() == "Cy"


# -- deal sizes, phases per round, rounds ---------------------------------------------------------
@pytest.mark.parametrize("n,deal", [(3, 20), (4, 15), (5, 12), (6, 10)])
def test_deal_size_sets_the_phases_per_round(n, deal):
    players = ["Ann", "Bob", "Cy", "Dee", "Eve", "Fay"][:n]
    events, got, last = round_of_phases(players, "Ann")
    assert len(events) == deal
    # one phase short: the round event without cards is refused
    short_doc = ndb(players, [*events[:-1], {"type": "round"}])
    assert refused(short_doc) == (f"event {deal - 1}: round 1 has {deal - 1} of {deal} phases recorded: give each "
                                  f"player's collected cards ('collected') to end it")
    game = replay(ndb(players, events))
    view = game.view()
    assert view["phases_per_round"] == deal and view["phase"] == deal and view["round_complete"]
    # one phase too many is refused
    extra = phase({p: f"red-{i + 1}" for i, p in enumerate(players)}, [p for p in players if p != last])
    assert refused(ndb(players, [*events, extra])).startswith(f"event {deal}: all {deal} phases of round 1")
    game = replay(ndb(players, [*events, {"type": "round"}]))
    assert game.summary()["rounds"] == [{p: oracle_score(got[p]) for p in players}]
    assert game.next_player() == last and game.view()["round"] == 2 and game.view()["phase"] == 0


def test_next_round_starts_with_who_got_the_token_last():
    events1, got1, last1 = round_of_phases(ABC, "Ann")
    events2, got2, last2 = round_of_phases(ABC, last1, rotate=7)
    doc = ndb(ABC, [*events1, {"type": "round"}, *events2])
    game = replay(doc)
    assert game.view()["round"] == 2 and game.view()["phase"] == 20
    # round 2 led by someone else is refused at its first phase
    other = next(p for p in ABC if p != last1)
    events_bad, _, _ = round_of_phases(ABC, other, rotate=7)
    assert refused(ndb(ABC, [*events1, {"type": "round"}, events_bad[0]])).startswith(
        f"event 21: {last1} holds the bean token")
    events3, got3, last3 = round_of_phases(ABC, last2, rotate=13)
    game = replay(ndb(ABC, [*doc["events"], {"type": "round"}, *events3, {"type": "round"}]))
    s = game.summary()
    rounds = [{p: oracle_score(g[p]) for p in ABC} for g in (got1, got2, got3)]
    assert s["rounds"] == rounds
    assert s["scores"] == {p: sum(r[p] for r in rounds) for p in ABC}
    assert s["over"] and s["next"] is None
    best = max(s["scores"].values())
    assert s["winners"] == [p for p in ABC if s["scores"][p] == best]


def test_a_card_played_twice_in_a_round_is_named():
    e1 = phase({"Ann": "red-5", "Bob": "green-3", "Cy": "blue-7"}, ["Cy", "Bob"])
    e2 = phase({"Ann": "red-6", "Bob": "green-3", "Cy": "blue-8"}, ["Ann", "Cy"])
    line = refused(ndb(ABC, [e1, e2]))
    assert line.startswith("event 1: green-3 was already played in phase 1")
    # but a +/- can be played three times, and the same card again in the next round
    pms = [phase({"Ann": "red-pm", "Bob": "green-1", "Cy": "blue-1"}, ["Cy", "Bob"]),
           phase({"Ann": "red-1", "Bob": "red-pm", "Cy": "blue-2"}, ["Ann", "Cy"]),
           phase({"Ann": "red-2", "Bob": "green-2", "Cy": "red-pm"}, ["Ann", "Bob"])]
    assert replay(ndb(ABC, pms)).view()["phase"] == 3
    four = phase({"Ann": "red-3", "Bob": "red-pm", "Cy": "blue-3"}, ["Cy", "Ann"])
    assert refused(ndb(ABC, [*pms, four])).startswith("event 3: red-pm was already played in phases 1, 2 and 3")


# -- the round event --------------------------------------------------------------------------------
def test_round_from_collected_cards_only():
    game = replay(ndb(ABC, [collected(P2)]))
    s = game.summary()
    assert s["rounds"] == [P2_SCORES] and not s["over"]
    assert s["next"] is None  # who got the token in the last (unrecorded) phase is not known
    # the next phase names its holder, whoever it is
    e = phase({"Ann": "red-5", "Bob": "green-3", "Cy": "blue-7"}, ["Ann", "Bob"])  # Cy leads
    assert replay(ndb(ABC, [collected(P2), e])).next_player() == "Bob"


def test_round_with_phases_and_matching_collected():
    events, got, last = round_of_phases(ABC, "Ann")
    shuffled = {p: list(reversed(got[p])) for p in ABC}
    game = replay(ndb(ABC, [*events, collected(shuffled)]))
    assert game.summary()["rounds"] == [{p: oracle_score(got[p]) for p in ABC}]
    assert game.next_player() == last  # every phase recorded: the token holder is known


def test_round_collected_mismatch_names_the_card():
    events, got, _ = round_of_phases(ABC, "Ann")
    bad = {p: list(got[p]) for p in ABC}
    # Ann and Bob swap one card on the camera read: Ann's first recorded card is not in Ann's cards
    a, b = bad["Ann"][0], bad["Bob"][0]
    bad["Ann"][0], bad["Bob"][0] = b, a
    line = refused(ndb(ABC, [*events, collected(bad)]))
    assert line.startswith(f"event 20: Ann took {a} in a recorded phase, but it is not among Ann's collected cards")


def test_round_collected_not_the_deck_or_wrong_size():
    hands = {p: list(h) for p, h in P2.items()}
    hands["Ann"][0] = "red-4"  # misread red-1 as red-4: red-4 twice, red-1 missing
    line = refused(ndb(ABC, [collected(hands)]))
    assert line.startswith("event 0: the collected cards are not the deck:")
    assert "red-4 is there twice (Ann and Bob)" in line and "red-1 is missing" in line
    hands = {p: list(h) for p, h in P2.items()}
    hands["Bob"].append(hands["Ann"].pop())
    assert refused(ndb(ABC, [collected(hands)])).startswith(
        "event 0: Ann has 19 cards, but every player collects 20 in a round of 3 players")


def test_partial_phases_then_collected_keeps_what_phases_gave():
    events, got, _ = round_of_phases(ABC, "Ann")
    game = replay(ndb(ABC, [*events[:5], collected(got)]))
    assert game.summary()["rounds"] == [{p: oracle_score(got[p]) for p in ABC}]
    assert game.next_player() is None
    bad = {p: list(got[p]) for p in ABC}
    bad["Ann"][0], bad["Cy"][-1] = bad["Cy"][-1], bad["Ann"][0]  # Ann's phase-1 card moved to Cy
    assert "in a recorded phase, but it is not among Ann's collected cards" in refused(
        ndb(ABC, [*events[:5], collected(bad)]))


# -- end of the game --------------------------------------------------------------------------------
def test_negative_totals_are_kept_and_most_points_win_r3(tmp_path, capsys):
    doc = ndb(ABC, [collected(P8), collected(P8), collected(P8)])
    rc, out, err = cli_replay(doc, tmp_path, capsys)
    assert rc == 0 and err == ""
    s = json.loads(out)
    assert s["rounds"] == [{"Ann": -45, "Bob": -90, "Cy": -20}] * 3
    assert s["scores"] == {"Ann": -135, "Bob": -270, "Cy": -60}
    assert s["over"] is True and s["winners"] == ["Cy"] and s["next"] is None
    pad = NichtDieBohne(ABC)
    for e in doc["events"]:
        pad.apply(e)
    assert pad.score_pad()[3] == ["Cy", "-20", "-20", "-20", "-60"]


def test_mixed_signs_over_three_rounds():
    s = replay(ndb(ABC, [collected(P2), collected(P8), collected(p1("Bob", "Ann", "Cy"))])).summary()
    # Ann -16 -45 +40, Bob -29 -90 +15, Cy 86 -20 +0
    assert s["scores"] == {"Ann": -21, "Bob": -104, "Cy": 66} and s["winners"] == ["Cy"]


def test_tie_for_most_points_is_a_shared_win_r2():
    doc = ndb(ABC, [collected(p1("Ann", "Bob", "Cy")), collected(p1("Bob", "Cy", "Ann")),
                    collected(p1("Cy", "Ann", "Bob"))])
    s = replay(doc).summary()
    assert s["scores"] == {"Ann": 55, "Bob": 55, "Cy": 55}
    assert s["over"] and s["winners"] == ABC
    doc = ndb(ABC, [collected(p1("Ann", "Bob", "Cy")), collected(p1("Bob", "Ann", "Cy")), collected(P8)])
    s = replay(doc).summary()
    # Ann 15+40-45 = 10, Bob 40+15-90 = -35, Cy 0+0-20 = -20
    assert s["scores"] == {"Ann": 10, "Bob": -35, "Cy": -20} and s["winners"] == ["Ann"]
    doc = ndb(ABC, [collected(p1("Ann", "Bob", "Cy")), collected(p1("Bob", "Ann", "Cy")),
                    collected(p1("Cy", "Bob", "Ann"))])
    s = replay(doc).summary()
    # Ann 15+40+0 = 55, Bob 40+15+40 = 95, Cy 0+0+15 = 15
    assert s["winners"] == ["Bob"]


def test_three_rounds_then_nothing_more():
    doc = ndb(ABC, [collected(P2), collected(P2), collected(P2)])
    game = replay(doc)
    assert game.is_over and game.view()["round"] == 3 and game.view()["token"] is None
    line = refused(ndb(ABC, [*doc["events"], collected(P2)]))
    assert line == "event 3: the game is over: no more events"
    two = replay(ndb(ABC, [collected(P2), collected(P2)])).summary()
    assert not two["over"] and two["winners"] == [] and two["scores"] == {p: 2 * v for p, v in P2_SCORES.items()}


def test_view_before_anything_is_played():
    view = NichtDieBohne(["Ann", "Bob", "Cy", "Dee", "Eve"]).view()
    assert view["next"] == "Ann" and view["token"] == "Ann"  # the first player holds the bean token
    assert view["round"] == 1 and view["rounds_total"] == 3 and view["phase"] == 0
    assert view["phases_per_round"] == 12 and view["last_phase"] is None and view["rounds"] == []
    assert view["scores"] == {p: 0 for p in ["Ann", "Bob", "Cy", "Dee", "Eve"]}


@pytest.mark.parametrize("players", [["Ann", "Bob"], ["A", "B", "C", "D", "E", "F", "G"]])
def test_player_count_outside_three_to_six_is_a_setup_error(players, tmp_path, capsys):
    rc, out, err = cli_replay(ndb(players, []), tmp_path, capsys)
    assert rc == 2 and out == "" and err.startswith("setup: ") and err.count("\n") == 1


def test_random_rounds_agree_with_an_independent_scorer():
    rng = random.Random(1999)
    for _ in range(60):
        n = rng.randint(3, 6)
        players = ["Ann", "Bob", "Cy", "Dee", "Eve", "Fay"][:n]
        deal = 60 // n
        events, expected = [], []
        for _r in range(3):
            deck = full_deck()
            rng.shuffle(deck)
            hands = {p: deck[i * deal:(i + 1) * deal] for i, p in enumerate(players)}
            events.append(collected(hands))
            expected.append({p: oracle_score(hands[p]) for p in players})
        s = replay(ndb(players, events)).summary()
        totals = {p: sum(r[p] for r in expected) for p in players}
        assert s["rounds"] == expected and s["scores"] == totals
        assert s["winners"] == [p for p in players if totals[p] == max(totals.values())]
