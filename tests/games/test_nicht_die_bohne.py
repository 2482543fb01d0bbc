"""Nicht die Bohne! engine: records of the rulebook's row rules, misreads, golden playthroughs,
seeded random games with invariants and fuzzed records through the CLI.

Regenerate the golden files (after a deliberate change) with
``PYTHONPATH=. python3 tests/games/test_nicht_die_bohne.py --regen`` (from the repository root).
"""

from __future__ import annotations

import copy
import json
import random
import sys
from collections import Counter
from pathlib import Path

import pytest
from hypothesis import HealthCheck, example, given, settings
from hypothesis import strategies as st

from companion import cli, records
from companion.core import IllegalEvent
from companion.games.nicht_die_bohne import DEAL, DECK, NichtDieBohne, Phase, RoundEnd, explain_row, row_value
from companion.records import Record, RecordError
from tests.golden_steps import steps_of
from tests.replay_cli import assert_clean, replay_cli

ROOT = Path(__file__).resolve().parents[2]
GOLDEN = Path(__file__).resolve().parent / "golden"
GOLDEN_GAMES = {"nicht-die-bohne-6p-phases.json": (6, 11), "nicht-die-bohne-4p-mixed.json": (4, 5)}


# -- a table simulator: real deals, real phases -------------------------------------------------
def simulate(players: list[str], rng: random.Random, modes: list[str] | None = None) -> dict:
    """A whole game as a record. Per round the mode says what is recorded: ``phases`` (round
    event without cards), ``both`` (phases and the collected cards) or ``collected`` only."""
    n, events = len(players), []
    deal = DEAL[n]
    token = players[0]
    for r in range(3):
        mode = modes[r] if modes else rng.choice(["phases", "both", "collected"])
        deck = list(DECK.elements())
        rng.shuffle(deck)
        hands = {p: deck[i * deal:(i + 1) * deal] for i, p in enumerate(players)}
        taken: dict[str, list[str]] = {p: [] for p in players}
        for _ in range(deal):
            played = {p: hands[p].pop(rng.randrange(len(hands[p]))) for p in players}
            takes = [p for p in players if p != token]
            rng.shuffle(takes)
            takers = [token, *takes[:-1]]
            for taker, owner in zip(takers, takes, strict=True):
                taken[taker].append(played[owner])
            taken[takes[-1]].append(played[token])
            if mode != "collected":
                events.append({"type": "phase", "played": played, "takes": takes})
            token = takes[-1]
        if mode == "phases":
            events.append({"type": "round"})
        else:
            collected = {p: rng.sample(taken[p], len(taken[p])) for p in players}
            events.append({"type": "round", "collected": collected})
    return {"game": "nicht-die-bohne", "players": players, "options": {}, "events": events}


def replay(doc: dict) -> NichtDieBohne:
    return records.replay(Record.from_json(doc))


def refused(doc: dict) -> RecordError:
    with pytest.raises(RecordError) as info:
        replay(doc)
    return info.value


def ndb(players: list[str], events: list[dict]) -> dict:
    return {"game": "nicht-die-bohne", "players": players, "options": {}, "events": events}


# -- the rulebook's row rules as a record -------------------------------------------------------
def _cards(colour: str, *faces: object) -> list[str]:
    return [f"{colour}-{f}" for f in faces]


ANN = (_cards("blue", 7, 10, "pm", "x2") + _cards("green", *range(1, 11))
       + _cards("red", "pm", "pm", 9) + _cards("yellow", "zero", 10, 9))
BOB = _cards("blue", 1, 2, 3, 4, 5, 6, 8, 9, "pm", "pm") + _cards("red", *range(1, 9), "pm", "x2")
CY = (_cards("blue", "zero") + _cards("green", "zero", "x2", "pm", "pm", "pm") + _cards("red", 10, "zero")
      + _cards("yellow", *range(1, 9), "x2", "pm", "pm", "pm"))
TABLE = {"Ann": ANN, "Bob": BOB, "Cy": CY}


def rulebook_record(rounds: int = 3) -> dict:
    return ndb(["Ann", "Bob", "Cy"], [{"type": "round", "collected": copy.deepcopy(TABLE)}] * rounds)


def test_rulebook_row_rules_score_each_row():
    game = replay(rulebook_record(1))
    assert game.round_scores() == [{"Ann": 30, "Bob": -34, "Cy": -72}]
    rows = {r["colour"]: r for r in game.view()["rounds_detail"][0]["Ann"]["rows"]}
    assert rows["blue"]["value"] == -34  # one +/- negates 17, 2x doubles it
    assert rows["green"]["value"] == 55  # no special cards: the beans' sum
    assert rows["red"]["value"] == 9  # two +/- keep it positive
    assert rows["yellow"]["value"] == 0  # Nicht die Bohne zeroes the row
    bob = {r["colour"]: r["value"] for r in game.view()["rounds_detail"][0]["Bob"]["rows"]}
    assert bob == {"blue": 38, "red": -72}  # two +/- positive; one +/- and 2x: -36 doubled
    cy = {r["colour"]: r["value"] for r in game.view()["rounds_detail"][0]["Cy"]["rows"]}
    assert cy == {"green": 0, "red": 0, "blue": 0, "yellow": -72}  # three +/- negative, 2x doubles


def test_row_explanations_in_english_and_dutch():
    text = explain_row("blue", _cards("blue", 7, 10, "pm", "x2"))
    assert text.en == "blue: 17 in beans, one +/- makes it -17, 2x makes it -34"
    assert text.nl == "blauw: 17 aan bonen, één +/- maakt het -17, 2x maakt het -34"
    assert row_value(_cards("blue", 7, 10, "pm", "x2")) == -34
    assert explain_row("red", _cards("red", 9, "pm", "pm")).en == "red: 9 in beans, two +/- keep it 9"
    assert explain_row("yellow", _cards("yellow", 10, "zero", "x2")).nl == \
        "geel: 10 aan bonen, Nicht die Bohne maakt het 0"
    assert explain_row("green", _cards("green", "pm", "x2")).en == \
        "green: no beans, one +/- makes it 0, 2x makes it 0"  # ruling R1: specials alone score 0
    game = replay(rulebook_record(1))
    assert [t.en for t in game.explain_rows("Cy", 1)][2] == \
        "yellow: 36 in beans, three +/- make it -36, 2x makes it -72"


def test_three_rounds_totals_and_winner():
    game = replay(rulebook_record(3))
    summary = game.summary()
    assert summary["scores"] == {"Ann": 90, "Bob": -102, "Cy": -216}  # ruling R3: negative totals kept
    assert summary["over"] and summary["winners"] == ["Ann"] and summary["next"] is None
    assert summary["rounds"] == [{"Ann": 30, "Bob": -34, "Cy": -72}] * 3
    assert game.score_pad()[1] == ["Ann", "30", "30", "30", "90"]
    assert game.score_pad("nl")[0] == ["Speler", "Ronde 1", "Ronde 2", "Ronde 3", "Totaal"]


ZEROS = {"Ann": _cards("green", *range(1, 11), "zero", "x2", "pm", "pm", "pm") + _cards("yellow", "zero", 1, 2, 3, 4),
         "Bob": _cards("yellow", *range(5, 11), "x2", "pm", "pm", "pm") + _cards("blue", *range(5, 11), "x2", "pm", "pm", "pm"),
         "Cy": _cards("red", *range(1, 11), "zero", "x2", "pm", "pm", "pm") + _cards("blue", "zero", 1, 2, 3, 4)}


def test_tied_totals_share_the_win():
    swapped = {"Ann": CY, "Bob": BOB, "Cy": ANN}
    doc = ndb(["Ann", "Bob", "Cy"], [{"type": "round", "collected": c} for c in (TABLE, swapped, ZEROS)])
    game = replay(doc)
    assert game.round_scores()[2] == {"Ann": 0, "Bob": -180, "Cy": 0}
    assert game.scores() == {"Ann": -42, "Bob": -248, "Cy": -42}
    assert game.outcome.winners == ("Ann", "Cy")  # ruling R2: a tie is a shared win
    assert "Ann and Cy share the win with -42 points each" in game.outcome.why.en


# -- misread collections are refused, naming the card --------------------------------------------
def test_duplicate_and_missing_cards_are_named():
    doc = rulebook_record(1)
    doc["events"][0]["collected"]["Cy"][CY.index("yellow-1")] = "yellow-2"  # yellow-1 misread as yellow-2
    err = refused(doc)
    assert err.index == 0
    assert "yellow-2 is there twice (Cy)" in err.line() and "yellow-1 is missing" in err.line()
    assert "controleer de lezing" in err.line("nl")


def test_impossible_card_and_wrong_count_are_refused():
    doc = rulebook_record(1)
    doc["events"][0]["collected"]["Ann"][0] = "blue-11"
    assert '"blue-11" is not a Nicht die Bohne! card' in refused(doc).line()
    doc = rulebook_record(1)
    doc["events"][0]["collected"]["Bob"].append(doc["events"][0]["collected"]["Ann"].pop())
    assert "Ann has 19 cards, but every player collects 20" in refused(doc).line()
    doc = rulebook_record(1)
    doc["events"][0]["collected"]["Ann"][2] = "green-pm"  # a fourth green +/-
    assert "green-pm is there 4 times, the deck has 3" in refused(doc).line()


def test_unknown_events_and_events_after_the_end_are_refused():
    err = refused(ndb(["Ann", "Bob", "Cy"], [{"type": "roll"}]))
    assert err.line() == 'event 0: Nicht die Bohne has no "roll" event (phase or round)'
    doc = rulebook_record(3)
    doc["events"].append({"type": "round", "collected": TABLE})
    assert refused(doc).line() == "event 3: the game is over: no more events"
    err = refused(ndb(["Ann", "Bob", "Cy"], [{"type": "round", "collected": TABLE, "camera": 1}]))
    assert "unknown field 'camera'" in err.line()


# -- phases: the taking order ---------------------------------------------------------------------
def _phase(played: dict, takes: list) -> dict:
    return {"type": "phase", "played": played, "takes": takes}


P1 = {"Ann": "red-5", "Bob": "blue-3", "Cy": "green-zero"}


def test_phase_taking_order_and_token_passing():
    game = replay(ndb(["Ann", "Bob", "Cy"], [_phase(P1, ["Cy", "Bob"])]))
    view = game.view()
    assert view["last_phase"]["taking"] == [
        {"taker": "Ann", "card": "green-zero", "from": "Cy"},
        {"taker": "Cy", "card": "blue-3", "from": "Bob"},
        {"taker": "Bob", "card": "red-5", "from": "Ann"},  # the last player gets the token card
    ]
    assert game.next_player() == "Bob" and view["token"] == "Bob"
    assert game.taking_order() == ["Ann", "Cy", "Bob"]
    assert [r["value"] for r in view["players"]["Bob"]["rows"]] == [5]


def test_taking_choices_follow_the_taking_rules():
    game = NichtDieBohne(["Ann", "Bob", "Cy", "Dee"])
    assert game.taking_choices() == ("Ann", ["Bob", "Cy", "Dee"])  # never the token card, never your own
    assert game.taking_choices(["Cy"]) == ("Cy", ["Bob", "Dee"])  # the owner of the card just taken
    assert game.taking_choices(["Cy", "Bob"]) == ("Bob", ["Dee"])
    assert game.taking_choices(["Cy", "Bob", "Dee"]) == ("Dee", ["Ann"])  # the last gets the token card
    with pytest.raises(IllegalEvent):
        game.taking_choices(["Cy", "Cy"])


def test_token_card_cannot_be_taken_before_the_last_player():
    err = refused(ndb(["Ann", "Bob", "Cy"], [_phase(P1, ["Ann", "Bob"])]))
    assert err.line().startswith("event 0: Ann holds the bean token")


def test_own_card_and_missing_takers_are_refused():
    assert "each once" in refused(ndb(["Ann", "Bob", "Cy"], [_phase(P1, ["Bob", "Bob"])])).line()
    assert "each once" in refused(ndb(["Ann", "Bob", "Cy"], [_phase(P1, ["Bob"])])).line()
    err = refused(ndb(["Ann", "Bob", "Cy"], [_phase(P1, ["Bob", "Dan"])]))
    assert '"Dan", who is not at this table' in err.line()


def test_the_last_taker_leads_the_next_phase():
    phase2 = {"Ann": "red-6", "Bob": "blue-4", "Cy": "green-1"}
    doc = ndb(["Ann", "Bob", "Cy"], [_phase(P1, ["Bob", "Cy"]), _phase(phase2, ["Bob", "Cy"])])
    err = refused(doc)  # Cy got the token in phase 1, so Cy takes first in phase 2
    assert err.index == 1 and "Cy holds the bean token" in err.line()
    doc["events"][1]["takes"] = ["Ann", "Bob"]
    assert replay(doc).next_player() == "Bob"


def test_a_card_appears_once_per_round():
    again = {"Ann": "red-6", "Bob": "red-5", "Cy": "green-1"}
    err = refused(ndb(["Ann", "Bob", "Cy"], [_phase(P1, ["Bob", "Cy"]), _phase(again, ["Ann", "Bob"])]))
    assert err.line() == "event 1: red-5 was already played in phase 1 of this round: the deck has it once"
    same = {"Ann": "red-6", "Bob": "red-6", "Cy": "green-1"}
    assert "red-6 is played by Ann and Bob" in refused(ndb(["Ann", "Bob", "Cy"], [_phase(same, ["Bob", "Cy"])])).line()
    pms = {"Ann": "red-pm", "Bob": "red-pm", "Cy": "red-pm"}  # the three +/- of a colour may meet
    assert replay(ndb(["Ann", "Bob", "Cy"], [_phase(pms, ["Bob", "Cy"])])).view()["phase"] == 1


def test_round_needs_every_phase_or_the_collected_cards():
    doc = ndb(["Ann", "Bob", "Cy"], [_phase(P1, ["Bob", "Cy"]), {"type": "round"}])
    assert "has 1 of 20 phases recorded" in refused(doc).line()
    game = replay(simulate(["Ann", "Bob", "Cy"], random.Random(3), ["phases", "phases", "phases"]))
    assert game.is_over
    doc = simulate(["Ann", "Bob", "Cy"], random.Random(3), ["phases", "phases", "phases"])
    doc["events"].insert(20, _phase(P1, ["Bob", "Cy"]))
    assert "all 20 phases of round 1 are recorded" in refused(doc).line()


def test_collected_must_match_recorded_phases():
    doc = simulate(["Ann", "Bob", "Cy", "Dee"], random.Random(5), ["both", "phases", "phases"])
    collected = doc["events"][15]["collected"]
    collected["Ann"][0], collected["Bob"][0] = collected["Bob"][0], collected["Ann"][0]
    err = refused(doc)
    assert err.index == 15 and "in a recorded phase, but it is not among" in err.line()


def test_partial_phases_then_camera_read_round():
    doc = simulate(["Ann", "Bob", "Cy"], random.Random(8), ["both", "phases", "phases"])
    del doc["events"][5:20]  # phases 6..20 not recorded; the table is read at the end
    game = records.replay(Record.from_json(doc), upto=6)
    assert game.round_scores() and game.next_player() is None  # who got the token is unknown
    assert game.view()["token"] is None
    assert replay(doc).is_over  # the next phase names its holder


# -- golden playthroughs --------------------------------------------------------------------------
def golden_doc(name: str) -> dict:
    n, seed = GOLDEN_GAMES[name]
    modes = ["phases", "phases", "phases"] if n == 6 else ["collected", "both", "phases"]
    doc = simulate(["Ann", "Bob", "Cy", "Dee", "Eva", "Finn"][:n], random.Random(seed), modes)
    return {"record": doc, "steps": steps_of(doc)}


@pytest.mark.parametrize("name", sorted(GOLDEN_GAMES))
def test_golden_playthrough(name):
    golden = json.loads((GOLDEN / name).read_text(encoding="utf-8"))
    assert steps_of(golden["record"]) == golden["steps"]


def test_example_record_replays_to_a_finished_pad(capsys):
    assert cli.main(["replay", str(ROOT / "examples" / "nicht-die-bohne.json"), "--json"]) == 0
    out = json.loads(capsys.readouterr().out)
    assert out["over"] and out["winners"] and out["next"] is None and len(out["rounds"]) == 3
    assert set(out) == {"game", "scores", "over", "winners", "next", "rounds"}


# -- seeded random play-outs with invariants -------------------------------------------------------
def independent_row(cards: list[str]) -> int:
    faces = [c.split("-")[1] for c in cards]
    beans = sum(int(f) for f in faces if f.isdigit())
    if "zero" in faces:
        return 0
    return beans * (-1) ** faces.count("pm") * (2 if "x2" in faces else 1)


@pytest.mark.parametrize("n", [3, 4, 5, 6])
def test_random_games_keep_the_invariants(n):
    rng = random.Random(1000 + n)
    players = ["Ann", "Bob", "Cy", "Dee", "Eva", "Finn"][:n]
    for _ in range(25):
        doc = simulate(players, rng)
        game = records.start(Record.from_json(doc))
        round_cards: Counter = Counter()
        view = game.view()
        for event in doc["events"]:
            before = view
            parsed = (Phase if event["type"] == "phase" else RoundEnd).parse(event, tuple(players))
            assert parsed.to_json() == event  # events round-trip through their dataclasses
            if event["type"] == "phase":
                holder = next(p for p in players if p not in event["takes"])
                assert before["token"] in (holder, None)
                for k, owner in enumerate(event["takes"]):  # each take was one the rules offered
                    assert owner in game.taking_choices(event["takes"][:k], holder)[1]
            game.apply(event)
            view = game.view()
            if event["type"] == "phase":
                taking = view["last_phase"]["taking"]
                assert sorted(t["taker"] for t in taking) == sorted(players)  # one card per player
                assert sorted(t["from"] for t in taking) == sorted(players)
                assert view["phase"] == before["phase"] + 1 and view["token"] == taking[-1]["taker"]
                round_cards.update(event["played"].values())
                assert all(round_cards[c] <= DECK[c] for c in round_cards)
            else:
                detail = view["rounds_detail"][-1]
                held = Counter(c for p in players for r in detail[p]["rows"] for c in r["cards"])
                assert held == DECK and sum(held.values()) == 60  # 60 cards conserved
                for p in players:
                    cards = [c for r in detail[p]["rows"] for c in r["cards"]]
                    assert len(cards) == DEAL[n]
                    assert detail[p]["score"] == sum(
                        independent_row([c for c in cards if c.startswith(col)])
                        for col in ("green", "red", "yellow", "blue"))
                round_cards.clear()
        assert json.loads(json.dumps(view)) == view  # the screen snapshot is plain JSON
        summary = game.summary()
        assert summary["over"] and len(summary["rounds"]) == 3
        assert summary["scores"] == {p: sum(r[p] for r in summary["rounds"]) for p in players}
        best = max(summary["scores"].values())
        assert summary["winners"] == [p for p in players if summary["scores"][p] == best]


def test_a_refused_event_changes_nothing():
    doc = simulate(["Ann", "Bob", "Cy"], random.Random(2), ["phases", "phases", "phases"])
    game = records.start(Record.from_json(doc))
    for event in doc["events"][:7]:
        game.apply(event)
    before = (game.view(), len(game.history))
    bad = copy.deepcopy(doc["events"][7])
    bad["played"]["Ann"] = doc["events"][0]["played"]["Bob"]
    with pytest.raises(IllegalEvent):
        game.apply(bad)
    assert (game.view(), len(game.history)) == before


# -- fuzzed records: replay or one clean line, exit 2 -----------------------------------------------
JUNK = st.recursive(st.none() | st.booleans() | st.integers(-10**30, 10**30) | st.text(max_size=8)
                    | st.sampled_from(["red-5", "red-pm", "Ann", "Bob", "blue-zero", "x"]),
                    lambda inner: st.lists(inner, max_size=3) | st.dictionaries(st.text(max_size=5), inner, max_size=3),
                    max_leaves=8)


@settings(max_examples=120, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(seed=st.integers(0, 10**6), cuts=st.lists(st.tuples(st.integers(0, 10**4), st.sampled_from(
    ["drop", "swap", "junk", "card", "name", "dup", "key"]), JUNK), max_size=3))
@example(seed=0, cuts=[(1, "junk", None), (0, "junk", {}), (0, "junk", None)])  # an event turned into {}
def test_mutated_records_replay_or_fail_cleanly(seed, cuts, capsys):
    rng = random.Random(seed)
    doc = simulate(["Ann", "Bob", "Cy"], rng)
    events = doc["events"]
    for where, how, junk in cuts:
        if not events:
            break
        i = where % len(events)
        ev = events[i]
        if not isinstance(ev, dict) or not ev or not all(isinstance(v, dict | list) and v for k, v in ev.items()
                                                         if k != "type"):
            continue  # already junk: the mutators below only rework well-formed events
        if how == "drop":
            events.pop(i)
        elif how == "swap" and i + 1 < len(events):
            events[i], events[i + 1] = events[i + 1], events[i]
        elif how == "junk":
            events[i] = junk if rng.random() < 0.3 else {**ev, rng.choice(list(ev)): junk}
        elif how == "card" and ev.get("type") == "phase":
            ev["played"][rng.choice(list(ev["played"]))] = rng.choice(["red-11", "red-3", "blue-pm", junk])
        elif how == "card" and "collected" in ev:
            cards = ev["collected"][rng.choice(list(ev["collected"]))]
            if isinstance(cards, list) and cards:
                cards[where % len(cards)] = rng.choice(list(DECK))
        elif how == "name" and ev.get("type") == "phase":
            ev["takes"][where % len(ev["takes"])] = rng.choice(["Ann", "Bob", "Cy", "Dan", junk])
        elif how == "dup":
            events.insert(i, copy.deepcopy(ev))
        elif how == "key":
            ev[rng.choice(["extra", "played", "collected", "type"])] = junk
    rc, out, err = replay_cli(doc, capsys)
    if not cuts:
        assert rc == 0
    assert_clean(rc, out, err, "nicht-die-bohne")


@settings(max_examples=120, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(players=st.one_of(st.lists(st.sampled_from(["Ann", "Bob", "Cy", "Dee", "Eva", "Finn", "Gus"]),
                                  max_size=8), JUNK),
       options=st.one_of(st.just({}), JUNK),
       events=st.lists(st.one_of(JUNK, st.fixed_dictionaries(
           {"type": st.sampled_from(["phase", "round", "roll"])},
           optional={"played": JUNK, "takes": JUNK, "collected": JUNK})), max_size=5))
def test_random_records_fail_cleanly(players, options, events, capsys):
    doc = {"game": "nicht-die-bohne", "players": players, "options": options, "events": events}
    assert_clean(*replay_cli(doc, capsys), "nicht-die-bohne")


if __name__ == "__main__" and "--regen" in sys.argv:
    GOLDEN.mkdir(parents=True, exist_ok=True)
    for golden_name in GOLDEN_GAMES:
        (GOLDEN / golden_name).write_text(json.dumps(golden_doc(golden_name), indent=1) + "\n", encoding="utf-8")
        print("wrote", GOLDEN / golden_name)
