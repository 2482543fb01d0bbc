"""Game records: the JSON contract (shared/spec/game-records.md) loaded, checked and replayed."""

from __future__ import annotations

import json
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from companion.core import Game, RulesError, Text
from companion.games import game_class

ENVELOPE_KEYS = {"game", "players", "options", "events"}


class RecordError(Exception):
    """A record that breaks the format or the rules. ``index`` is the bad event, None for setup."""

    def __init__(self, index: int | None, text: Text | str):
        self.index = index
        self.text = text if isinstance(text, Text) else Text(text, text)
        super().__init__(self.line())

    def line(self, lang: str = "en") -> str:
        where = "setup" if self.index is None else f"event {self.index}"
        return f"{where}: {self.text(lang)}"


@dataclass(frozen=True)
class Record:
    """One game: setup plus every confirmed event, in order."""

    game: str
    players: list[str]
    options: dict[str, Any] = field(default_factory=dict)
    events: list[dict[str, Any]] = field(default_factory=list)

    def to_json(self) -> dict[str, Any]:
        return {"game": self.game, "players": list(self.players), "options": self.options,
                "events": list(self.events)}

    def dumps(self) -> str:
        return json.dumps(self.to_json(), indent=1, ensure_ascii=False)

    @staticmethod
    def from_json(doc: Any) -> Record:
        """Check the envelope (not the events) and build a Record, or raise RecordError(setup)."""
        if not isinstance(doc, dict):
            raise RecordError(None, "a game record must be a JSON object")
        missing = [k for k in ("game", "players") if k not in doc]
        if missing:
            raise RecordError(None, f"the record has no '{missing[0]}'")
        unknown = sorted(set(doc) - ENVELOPE_KEYS)
        if unknown:
            raise RecordError(None, f"unknown key {unknown[0]!r} in the record")
        if not isinstance(doc["game"], str):
            raise RecordError(None, "'game' must be a game name")
        options = doc.get("options", {})
        if not isinstance(options, dict):
            raise RecordError(None, "'options' must be an object")
        events = doc.get("events", [])
        if not isinstance(events, list):
            raise RecordError(None, "'events' must be a list")
        if not isinstance(doc["players"], list):
            raise RecordError(None, "players must be a list of names")
        return Record(doc["game"], list(doc["players"]), options, list(events))


def parse(text: str) -> Record:
    try:
        doc = json.loads(text)
    except json.JSONDecodeError as exc:
        raise RecordError(None, f"the file is not valid JSON (line {exc.lineno}: {exc.msg})") from None
    return Record.from_json(doc)


def load(path: str | Path) -> Record:
    p = Path(path)
    try:
        text = p.read_text(encoding="utf-8")
    except FileNotFoundError:
        raise RecordError(None, f"no such file: {p}") from None
    except (OSError, UnicodeDecodeError) as exc:
        raise RecordError(None, f"cannot read {p}: {getattr(exc, 'strerror', None) or 'not a text file'}") from None
    return parse(text)


def start(record: Record) -> Game:
    """A new game from the record's setup (no events applied)."""
    try:
        return game_class(record.game)(list(record.players), dict(record.options))
    except RulesError as exc:
        raise RecordError(None, exc.text) from None


def replay(record: Record, upto: int | None = None) -> Game:
    """Apply the record's events (the first ``upto`` of them) and return the game."""
    game = start(record)
    events = record.events if upto is None else record.events[:upto]
    for i, event in enumerate(events):
        try:
            game.apply(event)
        except RulesError as exc:
            raise RecordError(i, exc.text) from None
    return game
