"""Buttons seeded random play-outs with invariants, and the bust odds against enumeration and Monte Carlo."""

from __future__ import annotations

import copy
import json
import math
import random

import pytest

from companion.core import IllegalEvent
from companion.games.buttons import Buttons, Roll
from companion.games.buttons_board import NEIGHBOURS, bust_chance_enumerated, has_line_of_five
from companion.games.buttons_play import random_event, random_roll, random_setup


def check_board_invariants(game: Buttons) -> None:
    for p in game.players:
        buttons, stars = game.buttons[p], game.stars[p]
        assert not buttons & stars, f"{p} has a button on a star"
        for cell in buttons:
            assert not any(n in buttons for n in NEIGHBOURS[cell]), f"{p} has two buttons side by side"
        if game.out.get(p) == "bust":
            assert not buttons, f"{p} busted but kept buttons"
    assert game.dice_in_play()["black"] == 4 - game.per_out * len(game.out) >= 0


def expected_winners(game: Buttons) -> tuple[str, ...]:
    lines = [p for p in game.players if has_line_of_five(game.stars[p])]
    pool = lines or list(game.players)
    top = max(len(game.stars[p]) for p in pool)
    return tuple(p for p in pool if len(game.stars[p]) == top)


def play_checked(seed: int) -> Buttons:
    """One seeded game, every invariant checked after every event."""
    rng = random.Random(seed)
    players, options = random_setup(rng, 2 + seed % 3)
    game = Buttons(players, options)
    rounds_seen = 0
    for _ in range(3000):
        if game.is_over:
            break
        event = random_event(game, rng)
        before_stars = {p: set(s) for p, s in game.stars.items()}
        before_buttons = {p: set(b) for p, b in game.buttons.items()}
        phase = game.phase
        applied = game.apply(event)
        check_board_invariants(game)
        for p in players:
            assert before_stars[p] <= game.stars[p], "stars never go away"
            new = game.stars[p] - before_stars[p]
            if new:
                assert event["type"] == "stars" and event["player"] == p and phase == "stars"
                assert new <= before_buttons[p], "stars only on that round's button cells"
        if "round-end" in applied.signals:
            rounds_seen += 1
            assert not game.in_round() or game.round_no == rounds_seen + 1
        assert (game.next_player() is None) == game.is_over
        if phase == "stars" and game.phase == "turn":  # ruling R2: the end is checked between rounds
            assert not any(has_line_of_five(game.stars[p]) or len(game.stars[p]) >= 12 for p in players)
        if not game.is_over:
            assert game.next_player() in players
    assert game.is_over, f"seed {seed} did not finish"
    assert rounds_seen == len(game.rounds)
    assert game.scores() == {p: sum(r[p][1] for r in game.rounds) for p in players}
    assert any(has_line_of_five(game.stars[p]) or len(game.stars[p]) >= 12 for p in players)
    assert game.outcome is not None and game.outcome.winners == expected_winners(game)
    return game


@pytest.mark.parametrize("block", range(4))
def test_seeded_random_games_keep_the_invariants(block: int) -> None:
    endings = set()
    for seed in range(block * 50, block * 50 + 50):
        game = play_checked(seed)
        endings.add(game.outcome.termination)
        json.dumps(game.view())  # the snapshot is plain JSON
    assert endings == {"line-of-five", "twelve-stars"}


def test_refused_events_change_nothing() -> None:
    rng = random.Random(7)
    players, options = random_setup(rng, 3)
    game = Buttons(players, options)
    bad_events = [{"type": "roll", "white": 1, "gold": 1, "black": [1]},
                  {"type": "optout", "player": "Cy"},
                  {"type": "place", "player": "Ann", "row": 6, "col": 6},
                  {"type": "stars", "player": "Ann", "cells": [[1, 1]]},
                  {"type": "shuffle"}]
    refused = 0
    for _ in range(300):
        if game.is_over:
            break
        for bad in bad_events:
            view = game.view()
            try:
                game.apply(copy.deepcopy(bad))
            except IllegalEvent:
                refused += 1
                assert game.view() == view
                continue
            break  # it happened to be legal: the game moved on
        else:
            game.apply(random_event(game, rng))
    assert refused > 500


def mid_round_states(count: int) -> list[Buttons]:
    """Games stopped at a moment when the active player is about to roll, with buttons on the board."""
    states = []
    seed = 0
    while len(states) < count:
        rng = random.Random(1000 + seed)
        seed += 1
        players, options = random_setup(rng, 2 + seed % 3)
        game = Buttons(players, options)
        target = rng.randint(2, 6)
        while not game.is_over:
            if (game.can_roll() and game.active and len(game.buttons[game.active]) >= target):
                states.append(game)
                break
            game.apply(random_event(game, rng))
    return states


def test_bust_chance_matches_full_enumeration() -> None:
    for game in mid_round_states(6):
        p = game.active
        black = 1 + game.dice_in_play()["black"]
        assert game.bust_chance() == bust_chance_enumerated(game.buttons[p], game.stars[p], black)


def test_bust_probability_matches_a_monte_carlo_estimate() -> None:
    rng = random.Random(99)
    states = [g for g in mid_round_states(12) if 0.05 < g.bust_probability() < 0.95][:3]
    assert states, "no state with interesting odds"
    for game in states:
        p = game.active
        n = 6000
        busts = sum(not game.legal_cells(p, Roll.parse(random_roll(game, rng))) for _ in range(n))
        chance = game.bust_probability()
        sigma = math.sqrt(chance * (1 - chance) / n)
        assert abs(busts / n - chance) < 5 * sigma, (busts / n, chance)
        # and the engine itself declares a bust exactly when the odds say one is possible
        for _ in range(40):
            trial = copy.deepcopy(game)
            event = random_roll(game, rng)
            applied = trial.apply(event)
            assert ("bust" in applied.signals) == (not game.legal_cells(p, Roll.parse(event)))
