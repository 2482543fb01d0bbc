"""Buttons random play: legal random boards, rolls and whole games, from a seeded ``random.Random``.

Used by the tests (seeded play-outs), the benchmark (typical mid-round states) and to make the
example record; a table never needs it.
"""

from __future__ import annotations

import random
from typing import Any

from companion.games.buttons import Buttons, OptOut, Roll, Stars
from companion.games.buttons_board import FACES, LETTERS, SIZE

NAMES = ("Ann", "Bob", "Cy", "Dee")


def random_board(rng: random.Random) -> list[str]:
    """A 6 x 6 layout with each colour on 9 cells, as the printed boards have."""
    letters = list(LETTERS * 9)
    rng.shuffle(letters)
    return ["".join(letters[r * SIZE:(r + 1) * SIZE]) for r in range(SIZE)]


def random_setup(rng: random.Random, n: int) -> tuple[list[str], dict[str, Any]]:
    """Players and options (boards, and a random legal deal of the bonus cards) for ``n`` players."""
    players = list(NAMES[:n])
    colours = ["red", "yellow", "green", "blue"]
    if n == 3:
        colours.remove(rng.choice(["yellow", "green", "blue"]))
    rng.shuffle(colours)
    per = 2 if n == 2 else 1
    bonus = {p: colours[i * per:(i + 1) * per] for i, p in enumerate(players)}
    return players, {"boards": {p: random_board(rng) for p in players}, "bonus": bonus}


def random_roll(game: Buttons, rng: random.Random) -> dict[str, Any]:
    """A roll of exactly the dice in play."""
    black = [rng.choice(FACES) for _ in range(game.dice_in_play()["black"])]
    return Roll(rng.choice(FACES), rng.choice(FACES), tuple(black)).to_json()


def random_event(game: Buttons, rng: random.Random, place_chance: float = 0.6) -> dict[str, Any]:
    """One legal next event: stars when due, the owed button, optional gold buttons, opt-out or a roll."""
    if game.phase == "stars":
        player, due, _ = game.stars_due[0]
        return Stars(player, tuple(rng.sample(sorted(game.buttons[player]), due))).to_json()
    owes = game.owes_place()
    if owes is not None:
        return {"type": "place", "player": owes,
                "row": (cell := rng.choice(game.placeable(owes)))[0], "col": cell[1]}
    optional = [e for e in game.legal_events() if e["type"] == "place"]
    if optional and rng.random() < place_chance:
        return rng.choice(optional)
    active = game.active
    assert active is not None
    count = len(game.buttons[active])
    if game.optout_stars() is not None and rng.random() < min(0.9, 0.08 * count + 0.2 * game.bust_probability()):
        return OptOut(active).to_json()
    return random_roll(game, rng)


def random_record(rng: random.Random, n: int, max_events: int = 5000) -> dict[str, Any]:
    """A whole legal game record (finished unless it hits ``max_events``)."""
    players, options = random_setup(rng, n)
    game = Buttons(players, options)
    events = []
    while not game.is_over and len(events) < max_events:
        event = random_event(game, rng)
        game.apply(event)
        events.append(event)
    return {"game": "buttons", "players": players, "options": options, "events": events}
