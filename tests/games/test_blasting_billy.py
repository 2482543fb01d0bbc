"""Blasting Billy engine: the rulebook's dynamite example and scoring rules as records, turn-checked
plays, golden playthroughs, seeded random games with invariants and fuzzed records via the CLI.

Regenerate the golden files (after a deliberate change) with
``PYTHONPATH=. python3 tests/games/test_blasting_billy.py --regen`` (from the repository root).
"""

from __future__ import annotations

import copy
import json
import random
import sys
import tempfile
from collections import Counter
from pathlib import Path

import pytest
from hypothesis import HealthCheck, example, given, settings
from hypothesis import strategies as st

from companion import cli, records
from companion.core import IllegalEvent, format_table
from companion.games.blasting_billy import (
    BILLY,
    COLOURS,
    DECK,
    REMOVED,
    BlastingBilly,
    Play,
    Reveal,
    blast,
    turns_in_game,
)
from companion.records import Record, RecordError
from tests.golden_steps import steps_of
from tests.replay_cli import assert_clean, replay_cli

ROOT = Path(__file__).resolve().parents[2]
GOLDEN = Path(__file__).resolve().parent / "golden"
GOLDEN_GAMES = {"blasting-billy-2p-plays.json": (2, 4), "blasting-billy-4p-plays.json": (4, 9)}
NAMES = ["Ann", "Bob", "Cy", "Dee", "Eva"]


# -- a table simulator: real shuffles, hands of 3, the draw pile and the end rule -------------------
def simulate(players: list[str], rng: random.Random, with_plays: bool = True,
             shuffle_rows: bool = False) -> tuple[dict, dict]:
    """A whole game as a record, plus the hidden facts (removed, boxed, last hand cards) for invariants."""
    n = len(players)
    deck = list(DECK)
    rng.shuffle(deck)
    removed = [deck.pop() for _ in range(REMOVED[n])]
    hands = {p: [deck.pop() for _ in range(3)] for p in players}
    loot: dict[str, list[str]] = {BILLY: [], **{p: [] for p in players}}
    box, events = [], []
    turn, last_draw = 0, None
    while last_draw is None or turn <= last_draw + n:
        player = players[turn % n]
        card = hands[player].pop(rng.randrange(len(hands[player])))
        to = rng.choices(["billy", "own", "box"], weights=[4, 4, 1])[0]
        (box if to == "box" else loot[BILLY if to == "billy" else player]).append(card)
        events.append({"type": "play", "player": player, "card": card, "to": to})
        if deck:
            hands[player].append(deck.pop())
            if not deck:
                last_draw = turn
        turn += 1
    end_of_hands = [c for p in players for c in hands[p]]
    rows = {}
    for owner, cards in loot.items():
        if shuffle_rows:  # another reading order across colours: only the order within a colour counts
            by_colour = {c: [x for x in cards if x.startswith(c + "-")] for c in COLOURS}
            order = [x.split("-")[0] for x in cards]
            rng.shuffle(order)
            cards = [by_colour[c].pop(0) for c in order]
        rows[owner] = cards
    doc = {"game": "blasting-billy", "players": players, "options": {},
           "events": (events if with_plays else []) + [{"type": "reveal", "rows": rows}]}
    return doc, {"removed": removed, "box": box, "hands": end_of_hands, "turns": turn}


def billy(players: list[str], events: list[dict]) -> dict:
    return {"game": "blasting-billy", "players": players, "options": {}, "events": events}


def reveal(**rows: list[str]) -> dict:
    return {"type": "reveal", "rows": {BILLY: rows.pop("Billy"), **rows}}


def replay(doc: dict) -> BlastingBilly:
    return records.replay(Record.from_json(doc))


def refused(doc: dict) -> RecordError:
    with pytest.raises(RecordError) as info:
        replay(doc)
    return info.value


# -- the rulebook's worked example and the scoring rules --------------------------------------------
def test_billys_red_row_17_becomes_7():
    game = replay(billy(["Ann", "Bob"], [reveal(Billy=["red-3", "red-10", "red-dynamite", "red-4"],
                                                 Ann=["red-8"], Bob=["red-7", "green-2"])]))
    row = game.view()["owners"][BILLY]["rows"][0]
    assert row["removed"] == ["red-10", "red-dynamite"] and row["kept"] == ["red-3", "red-4"]
    assert row["total"] == 7 and len(row["kept"]) == 2
    assert row["text"]["en"] == "Billy's red: the dynamite takes red-10 with it: 17 becomes 7"
    # Ann's 8 would be safe against 17 but beats the 7 left: shot. Bob's 7 ties: safe.
    assert game.shot() == {"Ann": ["red"], "Bob": ["green"]}
    ann = [t.en for t in game.explain("Ann")]
    assert "Ann's red 8 beats Billy's 7: Ann is shot" in ann
    assert "Bob's red 7 ties Billy's 7: safe" in [t.en for t in game.explain("Bob")]
    assert "Bob's green 2 beats Billy's 0: Bob is shot" in [t.en for t in game.explain("Bob")]


def test_dynamite_in_a_players_row_and_first_in_a_row():
    assert blast(["blue-5", "blue-dynamite", "blue-9"]) == (["blue-9"], ["blue-5", "blue-dynamite"])
    assert blast(["blue-dynamite", "blue-9"]) == (["blue-9"], ["blue-dynamite"])  # ruling R1
    game = replay(billy(["Ann", "Bob"], [reveal(Billy=["blue-6", "purple-6"], Ann=["blue-dynamite", "blue-9", "red-1"],
                                                 Bob=["purple-8", "purple-dynamite", "purple-2"])]))
    assert game.shot() == {"Ann": ["red", "blue"], "Bob": []}
    assert game.scores() == {"Ann": 0, "Bob": 2}  # Bob's 8 blown away; Ann's 9 shot
    assert game.outcome.winners == ("Bob",)
    texts = [t.en for t in game.explain("Ann")]
    assert "Ann's blue: the dynamite is first in the row and only removes itself" in texts


def test_not_shot_players_win_on_points_then_fewest_cards():
    rows = reveal(Billy=["red-6", "red-4", "green-10", "yellow-10"],
                  Ann=["red-5", "red-3", "green-2"],  # 10 points in 3 cards
                  Bob=["red-10"],  # 10 points in 1 card: wins the tie
                  Cy=["yellow-2", "yellow-9"])  # 11 > 10 in yellow: shot
    game = replay(billy(["Ann", "Bob", "Cy"], [rows]))
    assert game.scores() == {"Ann": 10, "Bob": 10, "Cy": 0}
    assert game.outcome.winners == ("Bob",)
    assert game.outcome.why.en == "Cy was shot. Bob wins with 10 points (tie on points with Ann: fewer cards win)."
    rows["rows"]["Bob"] = ["red-1", "green-9", "green-0"]  # same points, same number of cards: shared
    game = replay(billy(["Ann", "Bob", "Cy"], [rows]))
    assert game.outcome.winners == ("Ann", "Bob")


def test_everyone_shot_counts_face_up_rows_with_their_tie_breaks():
    base = dict(Billy=["red-1", "red-2", "green-1", "green-2"],
                Ann=["red-9", "blue-1", "green-0"],  # red and blue shot: 0 points face up
                Bob=["green-9", "red-3"])  # green shot; 3 in 1 face-up card
    game = replay(billy(["Ann", "Bob"], [reveal(**copy.deepcopy(base))]))
    assert game.shot() == {"Ann": ["red", "blue"], "Bob": ["green"]}
    assert game.scores() == {"Ann": 0, "Bob": 3}
    assert game.outcome.winners == ("Bob",) and game.outcome.termination == "all-shot"
    base["Ann"] = ["red-9", "green-3"]  # 3 in 1 face-up card, 1 face-down card each: shared
    assert replay(billy(["Ann", "Bob"], [reveal(**copy.deepcopy(base))])).outcome.winners == ("Ann", "Bob")
    base["Ann"] = ["red-9", "red-10", "green-3"]  # 2 face-down cards against Bob's 1: Bob
    assert replay(billy(["Ann", "Bob"], [reveal(**copy.deepcopy(base))])).outcome.winners == ("Bob",)
    base["Ann"] = ["red-9", "green-0", "green-3"]  # 3 in 2 face-up cards against 1: Bob
    assert replay(billy(["Ann", "Bob"], [reveal(**copy.deepcopy(base))])).outcome.winners == ("Bob",)


def test_billy_wins_when_nobody_scores():
    game = replay(billy(["Ann", "Bob", "Cy"], [reveal(Billy=["red-2"], Ann=["red-5"], Bob=["green-0"], Cy=[])]))
    assert game.summary()["winners"] == ["Billy"] and game.scores() == {"Ann": 0, "Bob": 0, "Cy": 0}
    assert "Billy" in game.outcome.why.en
    game = replay(billy(["Ann", "Bob"], [reveal(Billy=[], Ann=[], Bob=[])]))
    assert game.outcome.winners == (BILLY,)


def test_a_player_not_shot_wins_with_zero_when_shot_players_have_points():
    # ruling R3: Billy wins only when every player's counted total is 0; Ann's face-up green counts
    game = replay(billy(["Ann", "Bob"], [reveal(Billy=["red-5", "green-5"], Ann=["red-9", "green-4"], Bob=[])]))
    assert game.scores() == {"Ann": 4, "Bob": 0} and game.shot() == {"Ann": ["red"], "Bob": []}
    assert game.outcome.winners == ("Bob",)
    assert game.outcome.why.en == "Ann was shot. Bob wins with 0 points."


def test_score_pad_marks_shot_rows():
    game = replay(billy(["Ann", "Bob"], [reveal(Billy=["red-3"], Ann=["red-9", "green-0"], Bob=["red-2"])]))
    assert format_table(game.score_pad()).splitlines()[0].split() == \
        ["Player", "red", "green", "yellow", "blue", "purple", "Cards", "Points"]
    assert game.score_pad()[2] == ["Ann", "9 shot", "0", "0", "0", "0", "2", "0"]
    assert game.score_pad("nl")[2][1] == "9 neer"


# -- plays: turn order, the end rule and the reveal --------------------------------------------------
def test_plays_go_clockwise_from_the_first_player():
    err = refused(billy(["Ann", "Bob"], [{"type": "play", "player": "Bob", "card": "red-1", "to": "own"}]))
    assert err.line() == "event 0: it is Ann's turn, not Bob's"
    doc = billy(["Ann", "Bob", "Cy"], [{"type": "play", "player": "Ann", "card": "red-1", "to": "own"},
                                        {"type": "play", "player": "Bob", "card": "red-1", "to": "billy"}])
    assert refused(doc).line() == "event 1: red-1 was already played on turn 1 (by Ann)"
    game = replay(doc | {"events": doc["events"][:1]})
    assert game.next_player() == "Bob" and game.view()["pile"] == 44


def test_play_explanations_keep_hidden_cards_hidden():
    game = BlastingBilly(["Ann", "Bob"])
    assert game.apply({"type": "play", "player": "Ann", "card": "red-7", "to": "own"}).explanation.en == \
        "Ann claims a red card face down: the first of that colour."
    assert game.apply({"type": "play", "player": "Bob", "card": "red-9", "to": "billy"}).explanation.en == \
        "Bob gives Billy a red card."
    assert game.apply({"type": "play", "player": "Ann", "card": "red-2", "to": "own"}).explanation.en == \
        "Ann claims red-2 face up."


def test_before_the_reveal_nothing_is_shot_or_counted():
    game = BlastingBilly(["Ann", "Bob"])
    game.apply({"type": "play", "player": "Ann", "card": "red-9", "to": "own"})
    game.apply({"type": "play", "player": "Bob", "card": "red-2", "to": "billy"})
    view = game.view()
    assert view["owners"]["Ann"]["shot"] == [] and view["owners"]["Ann"]["counted"] == 0
    assert view["owners"]["Ann"]["rows"][0]["text"]["en"] == "Ann's red: 1 card so far"
    assert game.summary()["shot"] == {"Ann": [], "Bob": []} and game.scores() == {"Ann": 0, "Bob": 0}
    assert game.score_pad()[1:3] == [["Billy", "1", "0", "0", "0", "0", "1", ""],
                                     ["Ann", "1", "0", "0", "0", "0", "1", ""]]  # counts only: totals stay hidden


@pytest.mark.parametrize("n", [2, 3, 4, 5])
def test_the_game_ends_one_round_after_the_last_draw(n):
    doc, table = simulate(NAMES[:n], random.Random(n))
    plays = doc["events"][:-1]
    assert len(plays) == table["turns"] == turns_in_game(n) == {2: 44, 3: 48, 4: 52, 5: 50}[n]
    game = BlastingBilly(NAMES[:n])
    for play in plays:
        assert play in game.legal_events()  # the generator offers every real play
        game.apply(play)
    assert game.legal_events() == [] and game.pile() == 0
    assert game.next_player() is None and not game.is_over  # only the reveal is left
    extra = {"type": "play", "player": NAMES[0], "card": table["hands"][0], "to": "own"}
    err = refused(billy(NAMES[:n], [*plays, extra]))
    assert err.index == len(plays) and "reveal the cards" in err.line()


def test_reveal_must_keep_the_recorded_order():
    doc, _ = simulate(["Ann", "Bob", "Cy"], random.Random(11))
    rows = doc["events"][-1]["rows"]
    assert replay(doc).is_over
    colour = next(c for c in COLOURS if len([x for x in rows[BILLY] if x.startswith(c)]) >= 2)
    first, second = [i for i, x in enumerate(rows[BILLY]) if x.startswith(colour)][:2]
    rows[BILLY][first], rows[BILLY][second] = rows[BILLY][second], rows[BILLY][first]
    err = refused(doc)
    assert err.index == len(doc["events"]) - 1 and "the recorded plays put" in err.line()


def test_reveal_with_partial_plays_and_misreads():
    doc, table = simulate(["Ann", "Bob", "Cy"], random.Random(12))
    partial = billy(["Ann", "Bob", "Cy"], doc["events"][:10] + doc["events"][-1:])
    assert replay(partial).is_over  # the rest of the game was not recorded: still consistent
    bad = copy.deepcopy(doc)
    bad["events"][-1]["rows"]["Ann"].append(table["hands"][0])  # a card that ended in the box
    assert "cards are revealed, but a game of 3 players has only 48 turns" in refused(bad).line()
    assert table["box"]  # this seed dumps cards
    bad = copy.deepcopy(doc)
    bad["events"][-1]["rows"]["Cy"].append(table["box"][0])
    assert "went into the box" in refused(bad).line()
    bad = copy.deepcopy(doc)
    some = bad["events"][-1]["rows"][BILLY][0]
    bad["events"][-1]["rows"]["Bob"].append(some)
    assert f"{some} is revealed twice" in refused(bad).line()
    bad = billy(["Ann", "Bob"], [reveal(Billy=[], Ann=["red-11"], Bob=[])])
    assert '"red-11" is not a Blasting Billy card' in refused(bad).line()
    bad = billy(["Ann", "Bob"], [reveal(Billy=[], Ann=[])])
    assert "has nothing for Bob" in refused(bad).line()
    too_many = [f"{c}-{v}" for c in COLOURS for v in range(0, 11)][:23]
    bad = billy(["Ann", "Bob"], [reveal(Billy=[], Ann=too_many, Bob=[])])
    assert "Ann shows 23 cards but has only 22 turns" in refused(bad).line()


def test_bad_plays_are_refused_with_a_reason():
    play = {"type": "play", "player": "Ann", "card": "red-5", "to": "pocket"}
    assert refused(billy(["Ann", "Bob"], [play])).line() == 'event 0: \'to\' must be billy, own or box, not "pocket"'
    assert refused(billy(["Ann", "Bob"], [{**play, "to": "own", "player": "Dan"}])).line() == \
        'event 0: "Dan" is not at this table'
    assert "'card' must be a card name" in refused(billy(["Ann", "Bob"], [{**play, "card": 5}])).line()
    assert refused(billy(["Ann", "Bob"], [{"type": "phase"}])).line() == \
        'event 0: Blasting Billy has no "phase" event (play or reveal)'


def test_a_player_cannot_be_called_billy(capsys):
    with tempfile.TemporaryDirectory() as tmp:
        path = Path(tmp) / "game.json"
        path.write_text(json.dumps(billy(["Ann", "Billy"], [])), encoding="utf-8")
        assert cli.main(["replay", str(path), "--json"]) == 2
    assert capsys.readouterr().err.startswith("setup: a player cannot be called Billy")


# -- golden playthroughs and the example ------------------------------------------------------------
def golden_doc(name: str) -> dict:
    n, seed = GOLDEN_GAMES[name]
    doc, _ = simulate(NAMES[:n], random.Random(seed))
    return {"record": doc, "steps": steps_of(doc)}


@pytest.mark.parametrize("name", sorted(GOLDEN_GAMES))
def test_golden_playthrough(name):
    golden = json.loads((GOLDEN / name).read_text(encoding="utf-8"))
    assert steps_of(golden["record"]) == golden["steps"]


def test_example_record_replays_to_a_finished_pad(capsys):
    assert cli.main(["replay", str(ROOT / "examples" / "blasting-billy.json"), "--json"]) == 0
    out = json.loads(capsys.readouterr().out)
    assert out["over"] and out["winners"] and out["next"] is None
    assert set(out) == {"game", "scores", "over", "winners", "next", "shot"}


# -- seeded random play-outs with invariants --------------------------------------------------------
def independent_result(rows: dict[str, list[str]], players: list[str]) -> tuple[dict, dict]:
    """Shot colours and counted points, computed separately from the engine."""
    def totals(cards: list[str]) -> dict[str, int]:
        out = {}
        for colour in COLOURS:
            row = [c for c in cards if c.startswith(colour + "-")]
            if f"{colour}-dynamite" in row:
                i = row.index(f"{colour}-dynamite")
                row = row[:max(0, i - 1)] + row[i + 1:]
            out[colour] = sum(int(c.split("-")[1]) for c in row)
        return out
    b = totals(rows[BILLY])
    shot, counted = {}, {}
    for p in players:
        t = totals(rows[p])
        shot[p] = [c for c in COLOURS if t[c] > b[c]]
        counted[p] = sum(t[c] for c in COLOURS if c not in shot[p])
    return shot, counted


@pytest.mark.parametrize("n", [2, 3, 4, 5])
def test_random_games_keep_the_invariants(n):
    rng = random.Random(500 + n)
    players = NAMES[:n]
    for k in range(60):
        doc, table = simulate(players, rng, with_plays=k % 3 != 0, shuffle_rows=k % 2 == 0)
        rows = doc["events"][-1]["rows"]
        on_table = [c for cards in rows.values() for c in cards]
        everything = on_table + table["box"] + table["hands"] + table["removed"]
        assert Counter(everything) == DECK and len(everything) == 60  # 60 cards conserved
        assert len(table["hands"]) == 2 * n  # each player's last 2 cards go to the box
        for event in doc["events"]:  # events round-trip through their dataclasses
            assert (Play if event["type"] == "play" else Reveal).parse(event, tuple(players)).to_json() == event
        game = replay(doc)
        summary = game.summary()
        shot, counted = independent_result(rows, players)
        assert summary["shot"] == shot and summary["scores"] == counted
        winners = summary["winners"]
        if all(v == 0 for v in counted.values()):
            assert winners == [BILLY]
            continue
        safe = [p for p in players if not shot[p]]
        pool = safe or players
        assert winners and set(winners) <= set(pool)  # a shot player wins only when all are shot
        assert all(counted[w] == max(counted[p] for p in pool) for w in winners)
        view = game.view()
        assert json.loads(json.dumps(view)) == view  # the screen snapshot is plain JSON
        assert sum(o["cards"] + sum(len(r["removed"]) for r in o["rows"]) for o in view["owners"].values()) \
            == len(on_table)


def test_a_refused_event_changes_nothing():
    doc, _ = simulate(["Ann", "Bob", "Cy"], random.Random(21))
    game = records.start(Record.from_json(doc))
    for event in doc["events"][:20]:
        game.apply(event)
    before = (game.view(), len(game.history))
    bad = copy.deepcopy(doc["events"][-1])
    bad["rows"]["Ann"] = [*bad["rows"]["Ann"], next(c for cards in bad["rows"].values() for c in cards)]
    for event in (bad, doc["events"][21], {"type": "play", "player": "Ann", "card": "red-99", "to": "own"}):
        with pytest.raises(IllegalEvent):
            game.apply(event)
        assert (game.view(), len(game.history)) == before


# -- fuzzed records: replay or one clean line, exit 2 ------------------------------------------------
JUNK = st.recursive(st.none() | st.booleans() | st.integers(-10**30, 10**30) | st.text(max_size=8)
                    | st.sampled_from(["red-5", "red-dynamite", "Ann", "Bob", "Billy", "own", "box"]),
                    lambda inner: st.lists(inner, max_size=3) | st.dictionaries(st.text(max_size=5), inner, max_size=3),
                    max_leaves=8)


@settings(max_examples=120, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(seed=st.integers(0, 10**6), cuts=st.lists(st.tuples(st.integers(0, 10**4), st.sampled_from(
    ["drop", "swap", "junk", "card", "player", "to", "dup", "row"]), JUNK), max_size=3))
@example(seed=0, cuts=[(1, "junk", {}), (1, "junk", None)])  # an event turned into {}, then spoiled again
def test_mutated_records_replay_or_fail_cleanly(seed, cuts, capsys):
    rng = random.Random(seed)
    doc, _ = simulate(NAMES[:rng.randint(2, 5)], rng, with_plays=rng.random() < 0.7)
    events = doc["events"]
    for where, how, junk in cuts:
        if not events:
            break
        i = where % len(events)
        ev = events[i]
        if how == "drop":
            events.pop(i)
        elif how == "swap" and i + 1 < len(events):
            events[i], events[i + 1] = events[i + 1], events[i]
        elif how == "junk" and isinstance(ev, dict) and ev:  # an empty object (junk already) has no key to spoil
            events[i] = junk if rng.random() < 0.3 else {**ev, rng.choice(list(ev)): junk}
        elif how in ("card", "player", "to") and isinstance(ev, dict) and ev.get("type") == "play":
            ev[how] = rng.choice([junk, "red-3", "Ann", "Cy", "billy", "box", "purple-dynamite"])
        elif how == "dup":
            events.insert(i, copy.deepcopy(ev))
        elif how == "row" and isinstance(ev, dict) and isinstance(ev.get("rows"), dict) and ev["rows"]:
            owner = rng.choice(list(ev["rows"]))
            ev["rows"][owner] = rng.choice([junk, [*ev["rows"][owner], rng.choice(list(DECK))]]) \
                if isinstance(ev["rows"][owner], list) else junk
    rc, out, err = replay_cli(doc, capsys)
    if not cuts:
        assert rc == 0
    assert_clean(rc, out, err, "blasting-billy")


@settings(max_examples=120, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(players=st.one_of(st.lists(st.sampled_from(["Ann", "Bob", "Cy", "Billy", "Eva", "Finn"]), max_size=7), JUNK),
       options=st.one_of(st.just({}), JUNK),
       events=st.lists(st.one_of(JUNK, st.fixed_dictionaries(
           {"type": st.sampled_from(["play", "reveal", "phase"])},
           optional={"player": JUNK, "card": JUNK, "to": JUNK, "rows": JUNK})), max_size=5))
def test_random_records_fail_cleanly(players, options, events, capsys):
    doc = {"game": "blasting-billy", "players": players, "options": options, "events": events}
    assert_clean(*replay_cli(doc, capsys), "blasting-billy")


if __name__ == "__main__" and "--regen" in sys.argv:
    GOLDEN.mkdir(parents=True, exist_ok=True)
    for golden_name in GOLDEN_GAMES:
        (GOLDEN / golden_name).write_text(json.dumps(golden_doc(golden_name), indent=1) + "\n", encoding="utf-8")
        print("wrote", GOLDEN / golden_name)
