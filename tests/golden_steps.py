"""Golden playthroughs: what a record shows after each event (explanation, summary, score pad)."""

from __future__ import annotations

from companion import records
from companion.core import format_table
from companion.records import Record


def steps_of(doc: dict) -> list[dict]:
    """Replay ``doc`` event by event: the explanation, summary and score pad after each one."""
    game = records.start(Record.from_json(doc))
    steps = []
    for event in doc["events"]:
        applied = game.apply(event)
        steps.append({"explanation": applied.explanation.en, "summary": game.summary(),
                      "pad": format_table(game.score_pad()).splitlines()})
    return steps
