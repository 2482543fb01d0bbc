"""A game at the table: the engine plus the score pad, kept in step.

``confirm`` checks an event against the rules, saves it (one transaction) and only then returns
the explanation to show. Undo and redo are saved too; undo rebuilds the game by replaying all
events but the last.
"""

from __future__ import annotations

from typing import Any

from companion import records
from companion.core import Applied, Game, IllegalEvent
from companion.records import Record, RecordError
from companion.store import Store, StoreError


class Session:
    """One stored game being played. Build with ``Session.new`` or ``Session.resume``."""

    def __init__(self, store: Store, game_id: int):
        self.store = store
        self.game_id = game_id
        self._rebuild()

    @classmethod
    def new(cls, store: Store, game: str, players: list[str], options: dict[str, Any] | None = None) -> Session:
        """Check the setup with the engine, then save the new game."""
        options = dict(options or {})
        records.start(Record(game, list(players), options))  # raises RecordError(setup)
        return cls(store, store.create_game(game, list(players), options))

    @classmethod
    def resume(cls, store: Store, game_id: int) -> Session:
        return cls(store, game_id)

    def _rebuild(self) -> None:
        record = self.store.record(self.game_id)
        game = records.start(record)
        log: list[Applied] = []
        for i, event in enumerate(record.events):
            try:
                log.append(game.apply(event))
            except IllegalEvent as exc:
                raise StoreError(f"saved game {self.game_id} does not replay ({RecordError(i, exc.text)})") from None
        self.game: Game = game
        self.log = log

    @property
    def record(self) -> Record:
        return self.store.record(self.game_id)

    def confirm(self, event: dict[str, Any]) -> Applied:
        """Apply and save one event. IllegalEvent: nothing changed. StoreError: nothing changed."""
        applied = self.game.apply(event)
        try:
            self.store.append(self.game_id, event)
        except StoreError:
            self._rebuild()  # the game in memory goes back to what is saved
            raise
        self.log.append(applied)
        return applied

    def undo(self) -> dict[str, Any] | None:
        """Take back the last event (saved); returns it, or None when there is nothing to undo."""
        event = self.store.undo(self.game_id)
        if event is not None:
            self._rebuild()
        return event

    def can_redo(self) -> bool:
        return self.store.peek_redo(self.game_id) is not None

    def redo(self) -> Applied | None:
        event = self.store.peek_redo(self.game_id)
        if event is None:
            return None
        applied = self.game.apply(event)
        try:
            self.store.redo(self.game_id)
        except StoreError:
            self._rebuild()
            raise
        self.log.append(applied)
        return applied


def latest_unfinished(store: Store) -> int | None:
    """The most recently played game that is not over (resumed after a power cut)."""
    for info in store.games():
        try:
            game = records.replay(store.record(info.id))
        except RecordError:
            continue
        if not game.is_over:
            return info.id
    return None
