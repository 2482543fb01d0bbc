"""Helpers to write Bag of Butts records and play random legal games."""

from __future__ import annotations

import random
from collections import Counter

from companion.games.bag_of_butts import PLAYER_COLOURS, BagOfButts


def bag_list(game: BagOfButts) -> list[str]:
    return sorted(game.bag().elements())


def random_draw(game: BagOfButts, rng: random.Random) -> dict:
    """Shuffle the bag's content and split it into three non-empty groups."""
    tokens = bag_list(game)
    rng.shuffle(tokens)
    a = rng.randint(1, len(tokens) - 2)
    b = rng.randint(a + 1, len(tokens) - 1)
    return {"type": "draw", "groups": [tokens[:a], tokens[a:b], tokens[b:]]}


def random_event(game: BagOfButts, rng: random.Random) -> dict:
    view = game.view()
    if view["phase"] == "choose":
        if rng.random() < 0.12 or not view["can_add"]:
            return {"type": "reset"} if rng.random() < 0.5 or view["can_add"] else random_draw(game, rng)
        supply = list(Counter(view["special_supply"]).elements())
        return {"type": "add", "special": rng.choice(supply)}
    if view["phase"] == "draw":
        return random_draw(game, rng)
    ok = [g["group"] for g in view["groups"] if g["scorable"]]
    return {"type": "score", "group": rng.choice(ok)}


def plain_turn(players: dict[str, str], scoring: str | None = None) -> list[dict]:
    """A first-turn draw where the first group is the butts of colour ``scoring`` (or all colours)."""
    _ = players
    rest = [c for c in PLAYER_COLOURS for _ in range(2)]
    first = [scoring] if scoring else rest[:1]
    rest.remove(first[0])
    return [{"type": "draw", "groups": [first, rest[:3], rest[3:]]}, {"type": "score", "group": 1}]
