"""The demo table shows the cards the card games need next, so Confirm on it plays a real game."""

from __future__ import annotations

import random

import pytest

from companion.games import game_class
from ui import readings
from ui.panels import demo_scene

render = pytest.importorskip("vision.render.cards")


def test_nicht_die_bohne_demo_lays_one_unplayed_card_per_player_that_the_engine_accepts():
    players = ["Ann", "Bob", "Cy"]
    game = game_class("nicht-die-bohne")(players, {})
    rng = random.Random(3)
    for phase in range(20):  # a whole round of demo phases, each confirmed as the table shows it
        args = demo_scene(game.view(), rng)
        assert args["game"] == "nicht-die-bohne" and len(args["layout"]) == 1
        _frame, truth = render.scene(phase, effects_on=False, **args)
        holder = game.view()["token"]
        others = [p for p in players if p != holder]
        event = readings.phase_event(truth, players, others)
        assert len(event["played"]) == 3
        game.apply(event)
    assert game.view()["round_complete"]
    game.apply({"type": "round"})  # the 60 cards were dealt exactly: no card shown twice too often
    assert game.view()["round"] == 2


def test_blasting_billy_demo_lays_a_row_of_loot_per_owner_billy_first():
    game = game_class("blasting-billy")(["Ann", "Bob"], {})
    args = demo_scene(game.view(), random.Random(5))
    assert args["game"] == "blasting-billy" and len(args["layout"]) == 3
    _frame, truth = render.scene(11, effects_on=False, **args)
    event = readings.reveal_event(truth, ["Billy", "Ann", "Bob"])
    assert [len(event["rows"][o]) for o in ("Billy", "Ann", "Bob")] == [len(r) for r in args["layout"]]
    applied = game.apply(event)
    assert game.is_over and applied.explanation.en
