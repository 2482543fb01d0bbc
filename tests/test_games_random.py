"""Random legal event streams for tests that need a real game (store, CLI)."""

from __future__ import annotations

import random

from companion.games.bag_of_butts import BagOfButts
from tests.bob_helpers import random_event


def random_game_events(seed: int, count: int | None, players: int = 4) -> list[dict]:
    """``count`` legal Bag of Butts events (None: a whole game) from a seeded random game."""
    rng = random.Random(seed)
    game = BagOfButts(["A", "B", "C", "D"][:players])
    events: list[dict] = []
    while not game.is_over and (count is None or len(events) < count):
        e = random_event(game, rng)
        game.apply(e)
        events.append(e)
    return events


def test_random_game_events_make_a_finished_game():
    events = random_game_events(5, None, players=2)
    game = BagOfButts(["A", "B"])
    for e in events:
        game.apply(e)
    assert game.is_over
