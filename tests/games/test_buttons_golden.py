"""Buttons golden playthroughs: records with the expected summary, explanation and score pad after each event.

Regenerate (then read the diff!) with ``BUTTONS_GOLDEN_UPDATE=1 python3 -m pytest tests/games/test_buttons_golden.py``.
"""

from __future__ import annotations

import json
import os
from pathlib import Path
from typing import Any

import pytest

from companion import records
from companion.records import Record

ROOT = Path(__file__).resolve().parents[2]
GOLDEN = Path(__file__).resolve().parent / "golden"
EXAMPLE = ROOT / "examples" / "buttons.json"

TWO_PLAYER = {
    "game": "buttons", "players": ["Ann", "Bob"],
    "options": {"boards": {"Ann": ["RRRYYY", "RRRYYY", "RRRYYY", "GGGBBB", "GGGBBB", "GGGBBB"],
                           "Bob": ["RYGBRY", "YGBRYG", "GBRYGB", "BRYGBR", "RYGBRY", "YGBRYG"]}},
    "events": [
        # round 1: Ann holds red+yellow and starts
        {"type": "roll", "white": 1, "gold": 1, "black": [3, 3, 5, 6]},
        {"type": "place", "player": "Bob", "row": 1, "col": 1},
        {"type": "place", "player": "Ann", "row": 1, "col": 3},
        {"type": "roll", "white": 2, "gold": 4, "black": [1, 2, 2, 6]},
        {"type": "place", "player": "Bob", "row": 2, "col": 4},
        {"type": "place", "player": "Ann", "row": 2, "col": 4},
        {"type": "roll", "white": 3, "gold": 1, "black": [1, 1, 1, 1]},
        {"type": "place", "player": "Ann", "row": 3, "col": 1},
        {"type": "place", "player": "Bob", "row": 3, "col": 1},
        {"type": "roll", "white": 1, "gold": 6, "black": [5, 6, 2, 3]},
        {"type": "place", "player": "Bob", "row": 1, "col": 6},
        {"type": "place", "player": "Ann", "row": 1, "col": 6},
        {"type": "roll", "white": 2, "gold": 2, "black": [2, 2, 5, 5]},
        {"type": "place", "player": "Ann", "row": 2, "col": 2},
        {"type": "roll", "white": 1, "gold": 2, "black": [4, 5, 2, 5]},
        {"type": "roll", "white": 3, "gold": 3, "black": [5, 6]},
        {"type": "place", "player": "Ann", "row": 3, "col": 5},
        {"type": "optout", "player": "Ann"},
        {"type": "stars", "player": "Ann", "cells": [[1, 3], [3, 1], [1, 6], [2, 4], [3, 5]]},
        # round 2: the cards pass, Bob holds red+yellow and starts
        {"type": "roll", "white": 4, "gold": 4, "black": [4, 4, 4, 4]},
        {"type": "place", "player": "Bob", "row": 4, "col": 4},
        {"type": "roll", "white": 4, "gold": 4, "black": [4, 4, 4, 4]},
        {"type": "place", "player": "Ann", "row": 4, "col": 4},
        {"type": "roll", "white": 4, "gold": 5, "black": [3, 5, 5, 3]},
        {"type": "roll", "white": 6, "gold": 6, "black": [1, 2]},
        {"type": "place", "player": "Ann", "row": 6, "col": 1},
        {"type": "optout", "player": "Ann"},
        {"type": "stars", "player": "Ann", "cells": [[4, 4]]},
    ],
}


def playthrough(doc: dict[str, Any]) -> list[dict[str, Any]]:
    """What a player sees after each event: explanation, signals, summary and the score pad."""
    record = Record.from_json(doc)
    game = records.start(record)
    steps: list[dict[str, Any]] = []
    pad = game.score_pad()
    for event in record.events:
        applied = game.apply(event)
        step = {"event": event, "explanation": {"en": applied.explanation.en, "nl": applied.explanation.nl},
                "signals": sorted(applied.signals), "summary": game.summary()}
        if game.score_pad() != pad:  # the pad only changes at the end of a round
            pad = step["pad"] = game.score_pad()
        steps.append(step)
    return steps


def dump(doc: dict[str, Any], steps: list[dict[str, Any]]) -> str:
    """The golden file: the record, then one line per event (so a diff points at the event)."""
    lines = ",\n".join(json.dumps(step, ensure_ascii=False) for step in steps)
    return f'{{"record": {json.dumps(doc, ensure_ascii=False)},\n"steps": [\n{lines}\n]}}\n'


CASES = {"buttons-two-players.json": TWO_PLAYER,
         "buttons-example.json": json.loads(EXAMPLE.read_text(encoding="utf-8"))}


@pytest.mark.parametrize("name", sorted(CASES))
def test_golden_playthrough(name: str) -> None:
    path = GOLDEN / name
    steps = playthrough(CASES[name])
    if os.environ.get("BUTTONS_GOLDEN_UPDATE"):
        GOLDEN.mkdir(exist_ok=True)
        path.write_text(dump(CASES[name], steps), encoding="utf-8")
    golden = json.loads(path.read_text(encoding="utf-8"))
    assert golden["record"] == CASES[name]
    assert len(golden["steps"]) == len(steps)
    for i, (want, got) in enumerate(zip(golden["steps"], steps, strict=True)):
        assert got == want, f"event {i} differs"


def test_two_player_golden_tells_the_story() -> None:
    steps = playthrough(TWO_PLAYER)
    assert steps[14]["signals"] == ["bust"]  # Bob's row 1: (1,2), (1,4) and (1,5) lie next to his buttons
    assert "Bob busts, loses 4 buttons of this round, sets two black dice aside" in steps[14]["explanation"]["en"]
    assert steps[17]["signals"] == ["round-end"]
    assert ("Ann 5 stars (1 for opting out, 2 for 3 buttons in red and yellow and 2 bonus for red and yellow)"
            in steps[17]["explanation"]["en"])
    assert steps[18]["summary"]["next"] == "Bob" and steps[18]["summary"]["scores"] == {"Ann": 5, "Bob": 0}
    assert steps[-1]["pad"] == [["Round", "Ann", "Bob"], ["1", "+5", "bust"], ["2", "+1", "bust"],
                                ["Stars", "6", "0"]]
    assert steps[-1]["summary"]["next"] == "Ann" and not steps[-1]["summary"]["over"]


def test_example_is_a_finished_game(capsys: pytest.CaptureFixture[str]) -> None:
    from companion.cli import main

    assert main(["replay", str(EXAMPLE), "--json"]) == 0
    summary = json.loads(capsys.readouterr().out)
    assert summary["over"] and summary["winners"] == ["Bob"] and summary["next"] is None
    assert summary["scores"] == {"Ann": 5, "Bob": 9, "Cy": 10}  # Bob's line beats Cy's 10 stars
    assert main(["replay", str(EXAMPLE)]) == 0
    out = capsys.readouterr().out
    assert "Winner: Bob" in out and "\nStars     5    9    10\n" in out
