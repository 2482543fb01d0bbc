"""The score-pad store: every confirmed event saved in SQLite before it is shown.

One transaction per event, ``synchronous=FULL`` in WAL mode, so a power cut loses at most the
event being confirmed. Undo moves the last event to a redo stack; both are saved. A file that is
not our database (damaged, or some other program's) is refused with a clear message and never
written to.
"""

from __future__ import annotations

import json
import os
import sqlite3
import time
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from companion.records import Record

APPLICATION_ID = 0x5443_4D50  # "TCMP"
SCHEMA_VERSION = 1
SQLITE_MAGIC = b"SQLite format 3\x00"

SCHEMA = """
CREATE TABLE games (
    id INTEGER PRIMARY KEY,
    game TEXT NOT NULL,
    players TEXT NOT NULL,
    options TEXT NOT NULL,
    created REAL NOT NULL,
    updated REAL NOT NULL
);
CREATE TABLE events (
    game_id INTEGER NOT NULL REFERENCES games(id),
    seq INTEGER NOT NULL,
    event TEXT NOT NULL,
    PRIMARY KEY (game_id, seq)
);
CREATE TABLE redo (
    game_id INTEGER NOT NULL REFERENCES games(id),
    seq INTEGER NOT NULL,
    event TEXT NOT NULL,
    PRIMARY KEY (game_id, seq)
);
"""


class StoreError(Exception):
    """The score pad cannot be opened or written; the message is one line for a player."""


def default_path() -> Path:
    """$XDG_DATA_HOME/table-companion/scorepad.sqlite3 (~/.local/share by default)."""
    base = os.environ.get("XDG_DATA_HOME") or str(Path.home() / ".local" / "share")
    return Path(base) / "table-companion" / "scorepad.sqlite3"


@dataclass(frozen=True)
class GameInfo:
    """One stored game as listed on the home screen."""

    id: int
    game: str
    players: tuple[str, ...]
    created: float
    updated: float
    events: int


class Store:
    """The SQLite score pad. Use as a context manager or call ``close``."""

    def __init__(self, path: str | Path | None = None):
        self.path = Path(path) if path is not None else default_path()
        self._check_file()
        try:
            self.path.parent.mkdir(parents=True, exist_ok=True)
            self.db = sqlite3.connect(str(self.path), isolation_level=None, timeout=10)
        except (OSError, sqlite3.Error) as exc:
            raise StoreError(f"cannot open the score pad {self.path}: {exc}") from None
        try:
            self._open()
        except sqlite3.DatabaseError as exc:
            self.db.close()
            raise StoreError(f"{self.path} is damaged ({exc}); it was left untouched") from None

    # -- opening -------------------------------------------------------------------------------
    def _check_file(self) -> None:
        if not self.path.exists():
            return
        if self.path.is_dir():
            raise StoreError(f"{self.path} is a folder, not a score pad")
        try:
            with open(self.path, "rb") as f:
                head = f.read(16)
        except OSError as exc:
            raise StoreError(f"cannot read {self.path}: {exc.strerror}") from None
        if head and head != SQLITE_MAGIC:
            raise StoreError(f"{self.path} is not a score-pad database; it was left untouched")

    def _open(self) -> None:
        db = self.db
        app_id = db.execute("PRAGMA application_id").fetchone()[0]
        tables = db.execute("SELECT count(*) FROM sqlite_master").fetchone()[0]
        if app_id == 0 and tables == 0:
            db.execute("PRAGMA journal_mode=WAL")
            # one transaction: a crash while creating leaves an empty file, never half a schema
            db.executescript(f"BEGIN IMMEDIATE; {SCHEMA} PRAGMA application_id={APPLICATION_ID}; "
                             f"PRAGMA user_version={SCHEMA_VERSION}; COMMIT;")
        elif app_id != APPLICATION_ID:
            db.close()
            raise StoreError(f"{self.path} belongs to another program, not the companion; it was left untouched")
        else:
            version = db.execute("PRAGMA user_version").fetchone()[0]
            if version > SCHEMA_VERSION:
                db.close()
                raise StoreError(f"{self.path} was written by a newer companion (format {version})")
            check = db.execute("PRAGMA quick_check").fetchone()[0]
            if check != "ok":
                db.close()
                raise StoreError(f"{self.path} is damaged ({check}); it was left untouched")
            db.execute("PRAGMA journal_mode=WAL")
        db.execute("PRAGMA synchronous=FULL")
        db.execute("PRAGMA foreign_keys=ON")

    def close(self) -> None:
        self.db.close()

    def __enter__(self) -> Store:
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()

    # -- writing: one transaction each --------------------------------------------------------
    def _tx(self, statements: list[tuple[str, tuple]]) -> None:
        try:
            self.db.execute("BEGIN IMMEDIATE")
            try:
                for sql, args in statements:
                    self.db.execute(sql, args)
            except BaseException:
                self.db.execute("ROLLBACK")
                raise
            self.db.execute("COMMIT")
        except sqlite3.Error as exc:
            raise StoreError(f"could not save to the score pad: {exc}") from None

    def create_game(self, game: str, players: list[str], options: dict[str, Any]) -> int:
        now = time.time()
        try:
            self.db.execute("BEGIN IMMEDIATE")
            cur = self.db.execute(
                "INSERT INTO games (game, players, options, created, updated) VALUES (?, ?, ?, ?, ?)",
                (game, json.dumps(players), json.dumps(options), now, now))
            self.db.execute("COMMIT")
        except sqlite3.Error as exc:
            if self.db.in_transaction:
                self.db.execute("ROLLBACK")
            raise StoreError(f"could not save the new game: {exc}") from None
        return int(cur.lastrowid)

    def append(self, game_id: int, event: dict[str, Any]) -> int:
        """Save one confirmed event (and drop the redo stack); returns its 0-based index."""
        seq = self._count(game_id)
        self._tx([
            ("INSERT INTO events (game_id, seq, event) VALUES (?, ?, ?)", (game_id, seq, json.dumps(event))),
            ("DELETE FROM redo WHERE game_id = ?", (game_id,)),
            ("UPDATE games SET updated = ? WHERE id = ?", (time.time(), game_id)),
        ])
        return seq

    def undo(self, game_id: int) -> dict[str, Any] | None:
        """Move the last event to the redo stack; returns it, or None when there is none."""
        row = self.db.execute("SELECT seq, event FROM events WHERE game_id = ? ORDER BY seq DESC LIMIT 1",
                              (game_id,)).fetchone()
        if row is None:
            return None
        depth = self.db.execute("SELECT count(*) FROM redo WHERE game_id = ?", (game_id,)).fetchone()[0]
        self._tx([
            ("DELETE FROM events WHERE game_id = ? AND seq = ?", (game_id, row[0])),
            ("INSERT INTO redo (game_id, seq, event) VALUES (?, ?, ?)", (game_id, depth, row[1])),
            ("UPDATE games SET updated = ? WHERE id = ?", (time.time(), game_id)),
        ])
        return json.loads(row[1])

    def peek_redo(self, game_id: int) -> dict[str, Any] | None:
        row = self.db.execute("SELECT event FROM redo WHERE game_id = ? ORDER BY seq DESC LIMIT 1",
                              (game_id,)).fetchone()
        return None if row is None else json.loads(row[0])

    def redo(self, game_id: int) -> dict[str, Any] | None:
        """Move the last undone event back to the game; returns it, or None."""
        row = self.db.execute("SELECT seq, event FROM redo WHERE game_id = ? ORDER BY seq DESC LIMIT 1",
                              (game_id,)).fetchone()
        if row is None:
            return None
        seq = self._count(game_id)
        self._tx([
            ("DELETE FROM redo WHERE game_id = ? AND seq = ?", (game_id, row[0])),
            ("INSERT INTO events (game_id, seq, event) VALUES (?, ?, ?)", (game_id, seq, row[1])),
            ("UPDATE games SET updated = ? WHERE id = ?", (time.time(), game_id)),
        ])
        return json.loads(row[1])

    # -- reading ------------------------------------------------------------------------------
    def _count(self, game_id: int) -> int:
        return self.db.execute("SELECT count(*) FROM events WHERE game_id = ?", (game_id,)).fetchone()[0]

    def record(self, game_id: int) -> Record:
        row = self.db.execute("SELECT game, players, options FROM games WHERE id = ?", (game_id,)).fetchone()
        if row is None:
            raise StoreError(f"there is no game number {game_id} in the score pad")
        events = [json.loads(e) for (e,) in self.db.execute(
            "SELECT event FROM events WHERE game_id = ? ORDER BY seq", (game_id,))]
        return Record(row[0], json.loads(row[1]), json.loads(row[2]), events)

    def games(self) -> list[GameInfo]:
        """Every stored game, newest first."""
        rows = self.db.execute(
            "SELECT g.id, g.game, g.players, g.created, g.updated, "
            "(SELECT count(*) FROM events e WHERE e.game_id = g.id) FROM games g ORDER BY g.updated DESC, g.id DESC")
        return [GameInfo(r[0], r[1], tuple(json.loads(r[2])), r[3], r[4], r[5]) for r in rows]
