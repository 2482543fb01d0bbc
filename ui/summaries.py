"""Stored games' summaries for the home and past-games screens, each game replayed once per change.

Showing a past game's winner or offering the unfinished one needs the engine's ``summary()``, and
that means replaying the record. ``SummaryCache`` keeps one summary per game, keyed by the game's
id, number of events and time of its last write (``Store.games()`` gives all three without reading
the events), so opening a screen again replays nothing that did not change. An undo followed by
another event leaves the count the same but moves the last write: replayed again.
"""

from __future__ import annotations

from typing import Any

from companion import records
from companion.core import RulesError
from companion.records import RecordError
from companion.store import GameInfo, Store, StoreError

Key = tuple[int, int, float]


class SummaryCache:
    """game id -> (key, summary or None when the record does not replay)."""

    def __init__(self) -> None:
        self._entries: dict[int, tuple[Key, dict[str, Any] | None]] = {}
        self.replays = 0  # how many records were replayed (the benchmark and tests read it)

    def summary(self, store: Store, info: GameInfo) -> dict[str, Any] | None:
        """The game's ``summary()``, replayed only when it changed since the last call."""
        key = (info.id, info.events, info.updated)
        cached = self._entries.get(info.id)
        if cached is not None and cached[0] == key:
            return cached[1]
        self.replays += 1
        try:
            summary: dict[str, Any] | None = records.replay(store.record(info.id)).summary()
        except (RecordError, RulesError, StoreError):
            summary = None
        self._entries[info.id] = (key, summary)
        return summary

    def latest_unfinished(self, store: Store, infos: list[GameInfo] | None = None) -> int | None:
        """The most recently played game that is not over (as companion.session.latest_unfinished)."""
        for info in store.games() if infos is None else infos:
            summary = self.summary(store, info)
            if summary is not None and not summary["over"]:
                return info.id
        return None
