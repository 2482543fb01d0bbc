"""Independent rules audit of the Blasting Billy engine, rule by rule, as game records.

Each test replays a record (shared/spec/game-records.md) and checks what a player sees: the
replay summary (scores, next, over, winners, shot), the refusal line, or the view() data the
screens use. Sources: shared/rules/blasting-billy.md (rulings R1-R3) and the Dutch rulebook
(shared/seeds/002_3607865b5c330e22.txt). Expected numbers are worked out by hand in the comments.
"""

from __future__ import annotations

import json
import random

import pytest

from companion import cli, records
from companion.games.blasting_billy import DECK, BlastingBilly
from companion.records import Record, RecordError

AB = ["Ann", "Bob"]
ABC = ["Ann", "Bob", "Cy"]
# Billy with 10 in every colour: nobody with less is shot
RICH_BILLY = ["red-10", "green-10", "yellow-10", "blue-10", "purple-10"]


# -- helpers ----------------------------------------------------------------------------------------
def bb(players: list[str], events: list[dict]) -> dict:
    return {"game": "blasting-billy", "players": players, "options": {}, "events": events}


def reveal(**rows: list[str]) -> dict:
    return {"type": "reveal", "rows": rows}


def replay(doc: dict) -> BlastingBilly:
    return records.replay(Record.from_json(doc))


def refused(doc: dict) -> str:
    with pytest.raises(RecordError) as info:
        replay(doc)
    return info.value.line()


def play(player: str, card: str, to: str) -> dict:
    return {"type": "play", "player": player, "card": card, "to": to}


def cli_replay(doc: dict, tmp_path, capsys) -> tuple[int, str, str]:
    path = tmp_path / "record.json"
    path.write_text(json.dumps(doc), encoding="utf-8")
    rc = cli.main(["replay", str(path), "--json"])
    out, err = capsys.readouterr()
    return rc, out, err


def all_plays(players: list[str], turns: int, pattern: tuple[str, ...] = ("billy", "own", "box")) -> list[dict]:
    """``turns`` plays clockwise from the first player, distinct cards, destinations cycling."""
    deck = sorted(DECK)
    return [play(players[t % len(players)], deck[t], pattern[t % len(pattern)]) for t in range(turns)]


def placed(players: list[str], plays: list[dict]) -> dict[str, list[str]]:
    rows: dict[str, list[str]] = {"Billy": [], **{p: [] for p in players}}
    for p in plays:
        if p["to"] == "billy":
            rows["Billy"].append(p["card"])
        elif p["to"] == "own":
            rows[p["player"]].append(p["card"])
    return rows


# -- dynamite -----------------------------------------------------------------------------------
def test_rulebook_example_billys_red_17_becomes_7_and_shoots():
    # Billy's red row: 3, 4, 10, dynamite (4 cards worth 17): the 10 goes, 2 cards worth 7 are left.
    # Ann's red 8 beats 7 (she would have been safe against 17); Bob's red 7 ties: safe.
    doc = bb(AB, [reveal(Billy=["red-3", "red-4", "red-10", "red-dynamite"], Ann=["red-8"], Bob=["red-7"])])
    game = replay(doc)
    s = game.summary()
    assert s["shot"] == {"Ann": ["red"], "Bob": []}
    assert s["scores"] == {"Ann": 0, "Bob": 7} and s["winners"] == ["Bob"] and s["over"]
    row = game.view()["owners"]["Billy"]["rows"][0]
    assert row["removed"] == ["red-10", "red-dynamite"] and row["kept"] == ["red-3", "red-4"]
    assert row["total"] == 7 and "17 becomes 7" in row["text"]["en"]


def test_dynamite_takes_the_card_before_it_in_its_colour_row_not_the_last_card_played():
    # Billy's cards in play order: red-5, green-4, red-dynamite. The red row is [5, dynamite]:
    # red-5 goes, green-4 stays.
    game = replay(bb(AB, [reveal(Billy=["red-5", "green-4", "red-dynamite"], Ann=["green-3"], Bob=["red-1"])]))
    st = game.standings()["Billy"]
    assert st.total("red") == 0 and st.total("green") == 4
    s = game.summary()
    assert s["shot"] == {"Ann": [], "Bob": ["red"]}  # Bob's red 1 beats Billy's blown-away red 0
    assert s["winners"] == ["Ann"] and s["scores"] == {"Ann": 3, "Bob": 0}


def test_dynamite_first_in_its_row_removes_only_itself_r1():
    game = replay(bb(AB, [reveal(Billy=["green-dynamite", "green-6", "red-9"], Ann=["green-2", "green-4"],
                                 Bob=["red-4", "red-5"])]))
    billy = game.view()["owners"]["Billy"]["rows"]
    green = next(r for r in billy if r["colour"] == "green")
    assert green["removed"] == ["green-dynamite"] and green["kept"] == ["green-6"] and green["total"] == 6
    assert "only removes itself" in green["text"]["en"]
    s = game.summary()
    assert s["shot"] == {"Ann": [], "Bob": []}  # 6 ties 6 and 9 ties 9: safe
    assert s["winners"] == ["Bob"]  # Bob 9 beats Ann 6


def test_players_rows_are_blown_up_too():
    # Ann's red: 9 then dynamite -> 0: not shot by Billy's red 2; her green 7 is kept.
    game = replay(bb(AB, [reveal(Billy=["red-2", "green-8"], Ann=["red-9", "green-7", "red-dynamite"],
                                 Bob=["green-5"])]))
    s = game.summary()
    assert s["shot"] == {"Ann": [], "Bob": []}
    assert s["scores"] == {"Ann": 7, "Bob": 5} and s["winners"] == ["Ann"]
    ann = game.view()["owners"]["Ann"]
    assert ann["cards"] == 1 and ann["counted"] == 7
    assert next(r for r in ann["rows"] if r["colour"] == "red")["removed"] == ["red-9", "red-dynamite"]


def test_dynamite_after_dynamite_one_per_colour():
    # Each colour has one dynamite: a second one in a row is a misread, named.
    line = refused(bb(AB, [reveal(Billy=["red-dynamite", "red-dynamite"], Ann=[], Bob=[])]))
    assert line.startswith("event 0: red-dynamite is revealed twice (Billy)")
    # Dynamites of two colours in one owner's loot, one right after the other: each in its own row.
    game = replay(bb(AB, [reveal(Billy=["red-6", "green-5", "green-dynamite", "red-dynamite", "red-4"],
                                 Ann=["red-3"], Bob=["green-0"])]))
    st = game.standings()["Billy"]
    assert st.kept["red"] == ["red-4"] and st.kept["green"] == []
    assert game.summary()["shot"] == {"Ann": [], "Bob": []}  # red 3 < 4; green 0 ties 0


# -- Billy's verdict ----------------------------------------------------------------------------
def test_a_tie_with_billy_is_safe_and_higher_is_shot_in_every_colour():
    rows = dict(Billy=["red-5", "green-5", "yellow-5"],
                Ann=["red-2", "red-3", "green-4", "yellow-1", "yellow-4"],  # red ties, green under, yellow ties
                Bob=["red-6", "green-6", "yellow-2"],                       # red and green higher: shot twice
                Cy=["blue-1"])                                      # Billy has no blue: 1 > 0, shot
    s = replay(bb(ABC, [reveal(**rows)])).summary()
    assert s["shot"] == {"Ann": [], "Bob": ["red", "green"], "Cy": ["blue"]}
    assert s["winners"] == ["Ann"] and s["scores"] == {"Ann": 14, "Bob": 2, "Cy": 0}


def test_a_shot_player_is_out_of_the_running_whatever_their_points():
    rows = dict(Billy=["red-2", "green-10", "blue-10"], Ann=["red-3", "green-9", "blue-9"], Bob=["green-1"])
    s = replay(bb(AB, [reveal(**rows)])).summary()
    assert s["shot"]["Ann"] == ["red"]
    assert s["scores"] == {"Ann": 18, "Bob": 1}  # Ann's face-up rows still show on the pad
    assert s["winners"] == ["Bob"]


def test_tie_on_points_fewest_cards_after_dynamite_wins_r2():
    # Ann: red-5, green-4, green-dynamite, green-0 -> 5 points in 2 cards (4 before the dynamite).
    # Bob: red-3, yellow-2, blue-0 -> 5 points in 3 cards. R2: Ann wins (2 < 3).
    rows = dict(Billy=RICH_BILLY, Ann=["red-5", "green-4", "green-dynamite", "green-0"],
                Bob=["red-3", "yellow-2", "blue-0"])
    game = replay(bb(AB, [reveal(**rows)]))
    s = game.summary()
    assert s["scores"] == {"Ann": 5, "Bob": 5} and s["winners"] == ["Ann"]
    assert game.view()["owners"]["Ann"]["cards"] == 2 and game.view()["owners"]["Bob"]["cards"] == 3


def test_tie_on_points_and_cards_is_shared():
    rows = dict(Billy=RICH_BILLY, Ann=["red-5", "green-0"], Bob=["yellow-2", "blue-3"], Cy=["purple-9"])
    s = replay(bb(ABC, [reveal(**rows)])).summary()
    assert s["winners"] == ["Cy"]
    rows["Cy"] = ["purple-5", "purple-0"]
    s = replay(bb(ABC, [reveal(**rows)])).summary()
    assert s["scores"] == {"Ann": 5, "Bob": 5, "Cy": 5} and s["winners"] == ["Ann", "Bob", "Cy"]


# -- everyone shot ------------------------------------------------------------------------------
def test_all_shot_face_up_points_decide():
    # Billy red 1: both are shot in red. Face-up: Ann green 8, Bob yellow 5.
    rows = dict(Billy=["red-1", "green-10", "yellow-10"], Ann=["red-9", "green-8"], Bob=["red-7", "yellow-5"])
    game = replay(bb(AB, [reveal(**rows)]))
    s = game.summary()
    assert s["shot"] == {"Ann": ["red"], "Bob": ["red"]}
    assert s["scores"] == {"Ann": 8, "Bob": 5} and s["winners"] == ["Ann"]
    assert game.outcome.termination == "all-shot"


def test_all_shot_then_fewest_face_up_cards():
    # Face-up 8 each: Ann in one card, Bob in two.
    rows = dict(Billy=["red-1", "green-10", "yellow-10"], Ann=["red-9", "green-8"],
                Bob=["red-7", "yellow-3", "yellow-5"])
    s = replay(bb(AB, [reveal(**rows)])).summary()
    assert s["scores"] == {"Ann": 8, "Bob": 8} and s["winners"] == ["Ann"]


def test_all_shot_then_fewest_face_down_cards():
    # Face-up 8 in one card each; face down Ann 1 card (red-9), Bob 2 (red-7, red-6).
    rows = dict(Billy=["red-1", "green-10", "yellow-10"], Ann=["red-9", "green-8"],
                Bob=["red-7", "red-6", "yellow-8"])
    s = replay(bb(AB, [reveal(**rows)])).summary()
    assert s["winners"] == ["Ann"]
    rows["Bob"] = ["red-7", "yellow-8"]  # all the same: shared
    s = replay(bb(AB, [reveal(**rows)])).summary()
    assert s["winners"] == ["Ann", "Bob"] and s["over"]


def test_all_shot_face_down_count_is_after_dynamite():
    # Bob's shot red: 7, 6, dynamite -> 1 face-down card left (red-7), like Ann's red-9.
    rows = dict(Billy=["red-1", "green-10", "yellow-10"], Ann=["red-9", "red-2", "green-8"],
                Bob=["red-7", "red-6", "red-dynamite", "yellow-8"])
    s = replay(bb(AB, [reveal(**rows)])).summary()
    # Ann has 2 face-down cards, Bob 1 after the dynamite: Bob wins
    assert s["shot"] == {"Ann": ["red"], "Bob": ["red"]} and s["winners"] == ["Bob"]


# -- nobody scores: Billy wins ---------------------------------------------------------------------
def test_nobody_scores_billy_wins_r3(tmp_path, capsys):
    rc, out, err = cli_replay(bb(AB, [reveal(Billy=["red-4"], Ann=["red-0", "green-dynamite"], Bob=[])]),
                              tmp_path, capsys)
    assert rc == 0 and err == ""
    assert json.loads(out) == {"game": "blasting-billy", "scores": {"Ann": 0, "Bob": 0}, "over": True,
                               "winners": ["Billy"], "next": None, "shot": {"Ann": [], "Bob": []}}


def test_everyone_shot_with_nothing_face_up_billy_wins():
    s = replay(bb(AB, [reveal(Billy=[], Ann=["red-3"], Bob=["green-2", "green-5"])])).summary()
    assert s["shot"] == {"Ann": ["red"], "Bob": ["green"]} and s["winners"] == ["Billy"]


def test_a_zero_point_player_not_shot_beats_shot_players_with_points():
    # R3 as documented: Billy wins only when every player's counted total is 0. Bob's face-up
    # blue 6 counts 6, so Ann (not shot, 0 points) wins.
    s = replay(bb(AB, [reveal(Billy=["red-1", "blue-10"], Ann=["red-0"], Bob=["red-5", "blue-6"])])).summary()
    assert s["scores"] == {"Ann": 0, "Bob": 6} and s["winners"] == ["Ann"]


# -- set-up sizes and the end of the play -------------------------------------------------------------
@pytest.mark.parametrize("n,turns", [(2, 44), (3, 48), (4, 52), (5, 50)])
def test_turns_follow_the_pile_then_one_more_each(n, turns):
    # pile = 60 - removed (12 for 2 players, 6 for 3) - 3 dealt each; then one more turn each.
    players = ["Ann", "Bob", "Cy", "Dee", "Eve"][:n]
    plays = all_plays(players, turns)
    game = replay(bb(players, plays[: turns - n]))
    assert game.view()["pile"] == 0 and game.next_player() == players[(turns - n) % n]
    last_draw = game.history[-1]
    assert last_draw["player"] == players[(turns - n - 1) % n]
    game = replay(bb(players, plays))
    view = game.view()
    assert view["turn"] == view["turns_total"] == turns and view["next"] is None and not view["over"]
    # cards: every turn played one; everyone keeps 2 for the box
    removed = {2: 12, 3: 6}.get(n, 0)
    assert turns + 2 * n == 60 - removed
    line = refused(bb(players, [*plays, play(players[turns % n], sorted(DECK)[turns], "own")]))
    assert line.startswith(f"event {turns}: every player has had the last turn")


def test_last_turn_announces_the_box_and_the_reveal():
    plays = all_plays(AB, 44)
    game = BlastingBilly(AB)
    for p in plays[:41]:
        game.apply(p)
    assert "pile is empty" in game.apply(plays[41]).explanation.en  # turn 42 draws the last card
    game.apply(plays[42])
    applied = game.apply(plays[43])
    assert "last 2 hand cards in the box" in applied.explanation.en and "round-end" in applied.signals


def test_plays_go_clockwise_from_the_first_player():
    assert refused(bb(ABC, [play("Bob", "red-1", "own")])) == "event 0: it is Ann's turn, not Bob's"
    doc = bb(ABC, [play("Ann", "red-1", "own"), play("Bob", "red-2", "billy"), play("Ann", "red-3", "box")])
    assert refused(doc) == "event 2: it is Cy's turn, not Ann's"
    game = replay(bb(ABC, doc["events"][:2]))
    assert game.summary()["next"] == "Cy" and game.summary()["scores"] == {"Ann": 0, "Bob": 0, "Cy": 0}


def test_a_card_played_twice_is_named():
    doc = bb(AB, [play("Ann", "red-7", "own"), play("Bob", "red-7", "billy")])
    assert refused(doc) == "event 1: red-7 was already played on turn 1 (by Ann)"


def test_two_players_reveal_at_most_44_cards():
    billy = sorted(DECK)[:45]
    line = refused(bb(AB, [reveal(Billy=billy, Ann=[], Bob=[])]))
    assert line.startswith("event 0: 45 cards are revealed, but a game of 2 players has only 44 turns")
    line = refused(bb(AB, [reveal(Billy=[], Ann=sorted(DECK)[:23], Bob=[])]))
    assert line.startswith("event 0: Ann shows 23 cards but has only 22 turns")


# -- reveal against the recorded plays ----------------------------------------------------------------
def test_full_record_reveal_must_be_exactly_the_plays():
    plays = all_plays(AB, 44)
    rows = placed(AB, plays)
    game = replay(bb(AB, [*plays, reveal(**rows)]))
    assert game.is_over
    assert game.view()["box"] == [p["card"] for p in plays if p["to"] == "box"]
    owners = game.view()["owners"]
    assert sum(len(r["cards"]) for o in owners.values() for r in o["rows"]) == 44 - len(game.view()["box"])
    # a card left out of the reveal (read as missing)
    short = {o: list(c) for o, c in rows.items()}
    gone = short["Billy"].pop()
    line = refused(bb(AB, [*plays, reveal(**short)]))
    assert line.startswith(f"event 44: the recorded plays put {gone} in Billy's")
    # a boxed card shown on the table
    boxed = next(p["card"] for p in plays if p["to"] == "box")
    extra = {o: list(c) for o, c in rows.items()}
    extra["Bob"].append(boxed)
    assert refused(bb(AB, [*plays, reveal(**extra)])).startswith(
        f"event 44: {boxed} went into the box on turn 3")


def test_reveal_keeps_the_order_within_a_colour_only():
    plays = [play("Ann", "red-2", "billy"), play("Bob", "green-3", "billy"), play("Ann", "red-9", "billy"),
             play("Bob", "red-dynamite", "billy")]
    # colours interleaved differently: fine (only the order within a colour is on the table)
    game = replay(bb(AB, [*plays, reveal(Billy=["green-3", "red-2", "red-9", "red-dynamite"], Ann=[], Bob=[])]))
    assert game.standings()["Billy"].kept["red"] == ["red-2"]
    swapped = reveal(Billy=["red-9", "red-2", "green-3", "red-dynamite"], Ann=[], Bob=[])
    assert refused(bb(AB, [*plays, swapped])) == (
        "event 4: the recorded plays put red-2 in Billy's red row as card 1, but the reveal shows red-9 there")


def test_claimed_card_in_the_wrong_loot_is_refused():
    plays = [play("Ann", "red-5", "own"), play("Bob", "blue-5", "own")]
    line = refused(bb(AB, [*plays, reveal(Billy=[], Ann=["blue-5"], Bob=["red-5"])]))
    assert line.startswith("event 2: the recorded plays put red-5 in Ann's red row as card 1")


def test_reveal_cannot_show_more_claims_than_a_player_had_turns_left():
    # 2 players, 22 turns each. Ann's first 5 turns are recorded as dumps into the box, so she can
    # claim at most 17 cards; a reveal showing 18 in her loot is impossible.
    plays = all_plays(AB, 10, pattern=("box",))
    used = {p["card"] for p in plays}
    ann = [c for c in sorted(DECK) if c not in used][:18]
    with pytest.raises(RecordError) as info:
        replay(bb(AB, [*plays, reveal(Billy=[], Ann=ann, Bob=[])]))
    assert info.value.line().startswith("event 10: Ann")


# -- views and pads before and after the reveal --------------------------------------------------------
def test_before_the_reveal_nothing_is_counted_or_shot():
    plays = [play("Ann", "red-9", "own"), play("Bob", "red-2", "billy"), play("Ann", "red-8", "own")]
    game = replay(bb(AB, plays))
    s = game.summary()
    assert s["scores"] == {"Ann": 0, "Bob": 0} and s["shot"] == {"Ann": [], "Bob": []} and s["next"] == "Bob"
    view = game.view()
    assert not view["revealed"] and view["why"] is None and view["turn"] == 3
    assert view["owners"]["Ann"]["counted"] == 0 and view["owners"]["Ann"]["shot"] == []
    assert view["owners"]["Ann"]["rows"][0]["cards"] == ["red-9", "red-8"]
    assert view["pile"] == 42 - 3
    # explanations: the first claim of a colour is face down (colour only), later ones face up
    g = BlastingBilly(AB)
    assert "red-9" not in g.apply(plays[0]).explanation.en
    assert "red-2" not in g.apply(plays[1]).explanation.en
    assert "claims red-8 face up" in g.apply(plays[2]).explanation.en


def test_after_the_reveal_view_and_pad_show_the_verdict():
    rows = dict(Billy=["red-3", "red-4", "red-10", "red-dynamite", "green-5"], Ann=["red-8", "green-2"],
                Bob=["red-7"])
    game = replay(bb(AB, [reveal(**rows)]))
    view = game.view()
    assert view["revealed"] and view["over"] and view["winners"] == ["Bob"]
    assert view["owners"]["Ann"]["shot"] == ["red"] and view["owners"]["Ann"]["counted"] == 2
    assert next(r for r in view["owners"]["Ann"]["rows"] if r["colour"] == "red")["shot"] is True
    assert "Bob wins with 7 points" in view["why"]["en"]
    pad = game.score_pad()
    assert pad[0] == ["Player", "red", "green", "yellow", "blue", "purple", "Cards", "Points"]
    assert pad[1] == ["Billy", "7", "5", "0", "0", "0", "3", ""]
    assert pad[2] == ["Ann", "8 shot", "2", "0", "0", "0", "2", "2"]
    assert pad[3] == ["Bob", "7", "0", "0", "0", "0", "1", "7"]
    assert refused(bb(AB, [reveal(**rows), play("Ann", "red-1", "own")])) == (
        "event 1: the game is over: no more events")


def test_setup_errors_are_one_line(tmp_path, capsys):
    for players in (["Ann"], ["A", "B", "C", "D", "E", "F"], ["Ann", "Billy"]):
        rc, out, err = cli_replay(bb(players, []), tmp_path, capsys)
        assert rc == 2 and out == "" and err.startswith("setup: ") and err.count("\n") == 1


# -- an independent referee on random reveals ---------------------------------------------------------
def referee(rows: dict[str, list[str]], players: list[str]) -> tuple[dict[str, int], dict[str, list[str]], list]:
    """Scores, shot colours and winners by the rulebook and rulings, written apart from the engine."""
    colours = ["red", "green", "yellow", "blue", "purple"]

    def after_dynamite(cards: list[str], colour: str) -> list[int]:
        row: list[str] = []
        for c in (c for c in cards if c.startswith(colour + "-")):
            if c.endswith("dynamite"):
                row = row[:-1]
            else:
                row.append(c)
        return [int(c.split("-")[1]) for c in row]

    kept = {o: {col: after_dynamite(cs, col) for col in colours} for o, cs in rows.items()}
    shot = {p: [col for col in colours if sum(kept[p][col]) > sum(kept["Billy"][col])] for p in players}
    up = {p: sum(sum(kept[p][c]) for c in colours if c not in shot[p]) for p in players}
    n_up = {p: sum(len(kept[p][c]) for c in colours if c not in shot[p]) for p in players}
    n_down = {p: sum(len(kept[p][c]) for c in shot[p]) for p in players}
    if all(v == 0 for v in up.values()):
        return up, shot, ["Billy"]
    alive = [p for p in players if not shot[p]]
    if alive:
        key = {p: (up[p], -n_up[p]) for p in alive}
    else:
        key = {p: (up[p], -n_up[p], -n_down[p]) for p in players}
    best = max(key.values())
    return up, shot, [p for p in key if key[p] == best]


def test_random_reveals_agree_with_an_independent_referee():
    rng = random.Random(2026)
    for _ in range(300):
        n = rng.randint(2, 5)
        players = ["Ann", "Bob", "Cy", "Dee", "Eve"][:n]
        deck = sorted(DECK)
        rng.shuffle(deck)
        owners = ["Billy", *players]
        rows: dict[str, list[str]] = {o: [] for o in owners}
        for card in deck[: rng.randint(0, 2 * n + 10)]:
            rows[rng.choice(owners)].append(card)
        s = replay(bb(players, [reveal(**rows)])).summary()
        scores, shot, winners = referee(rows, players)
        assert (s["scores"], s["shot"], s["winners"]) == (scores, shot, winners), rows
