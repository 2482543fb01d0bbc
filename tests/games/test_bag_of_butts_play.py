"""Bag of Butts: seeded random play-outs with invariants, fuzzed records, golden playthroughs."""

from __future__ import annotations

import json
import random
from collections import Counter
from pathlib import Path

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from companion.games.bag_of_butts import END_SCORE, BagOfButts
from tests.bob_helpers import random_event
from tests.replay_cli import assert_clean, replay_cli

GOLDEN = Path(__file__).parent / "golden"


def play_random(seed: int) -> tuple[BagOfButts, list[dict]]:
    rng = random.Random(seed)
    game = BagOfButts(["Ann", "Bob", "Cy", "Di"][: rng.choice([2, 3, 4])])
    events = []
    while not game.is_over:
        bag_before = game.bag()
        scores_before = game.scores()
        event = random_event(game, rng)
        game.apply(event)
        events.append(event)
        if event["type"] == "draw":  # the bag's content is conserved: a draw is the whole bag
            assert Counter(t for g in event["groups"] for t in g) == bag_before
        assert all(game.scores()[p] >= scores_before[p] for p in game.players)  # never down
        assert sum(game.bag().values()) - 8 + sum(game.special_supply.values()) == 6
        assert len(events) < 2000
    return game, events


def test_random_playouts_keep_the_invariants_and_always_end_after_28():
    endings = Counter()
    for seed in range(300):
        game, events = play_random(seed)
        main_rows = [r for r in game.pad if not r["tiebreak"]]
        assert main_rows[-1]["kind"] in ("reset", "automatic reset")
        assert max(main_rows[-1]["totals"].values()) >= END_SCORE
        earlier = main_rows[:-1]
        # no earlier reset happened while someone already had 28
        assert all(max(r["totals"].values()) < END_SCORE for r in earlier if r["kind"] != "score")
        winners = game.summary()["winners"]
        assert winners and set(winners) <= set(game.players)
        endings[game.outcome.termination] += 1
    assert endings["reset-after-28"] > 200 and endings["tiebreak"] + endings["shared"] > 0


junk = st.recursive(st.none() | st.booleans() | st.integers(-5, 10**20) | st.text(max_size=6),
                    lambda c: st.lists(c, max_size=4) | st.dictionaries(st.text(max_size=6), c, max_size=3),
                    max_leaves=8)


@settings(max_examples=150, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(seed=st.integers(0, 10**6), cut=st.integers(0, 200), where=st.integers(0, 200), key=st.text(max_size=6),
       value=junk, mode=st.sampled_from(["replace-field", "drop", "swap", "insert-junk", "players"]))
def test_mutated_records_replay_or_fail_cleanly(capsys, seed, cut, where, key, value, mode):
    _, events = play_random(seed % 50)
    events = [dict(e) for e in events[: cut % (len(events) + 1)]]
    doc = {"game": "bag-of-butts", "players": ["Ann", "Bob", "Cy", "Di"][:2], "options": {}, "events": events}
    if events:
        i = where % len(events)
        if mode == "replace-field":
            events[i][key or "group"] = value
        elif mode == "drop":
            del events[i]
        elif mode == "swap":
            j = (i + 1) % len(events)
            events[i], events[j] = events[j], events[i]
        elif mode == "insert-junk":
            events.insert(i, value)
    if mode == "players":
        doc["players"] = value
    assert_clean(*replay_cli(doc, capsys), "bag-of-butts")


@settings(max_examples=100, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(doc=st.dictionaries(st.sampled_from(["game", "players", "options", "events", "other"]), junk, max_size=5))
def test_random_documents_fail_cleanly(capsys, doc):
    assert_clean(*replay_cli(doc, capsys), "bag-of-butts")


def test_golden_playthroughs(capsys):
    files = sorted(GOLDEN.glob("bag-of-butts-*.json"))
    assert files
    for f in files:
        golden = json.loads(f.read_text())
        record = golden["record"]
        for n, expected in enumerate(golden["after"], 1):
            doc = dict(record, events=record["events"][:n])
            code, out, err = replay_cli(doc, capsys)
            assert code == 0, err
            assert json.loads(out) == expected, f"{f.name}: after event {n - 1}"
