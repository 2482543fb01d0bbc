"""The score pad: saved before shown, undo/redo saved, crash-safe, never overwrites a foreign file."""

from __future__ import annotations

import json
import os
import random
import signal
import sqlite3
import subprocess
import sys
import time
from pathlib import Path

import pytest

from companion import cli, records
from companion.core import IllegalEvent
from companion.session import Session, latest_unfinished
from companion.store import Store, StoreError
from tests.test_games_random import random_game_events

ROOT = Path(__file__).resolve().parent.parent


def test_events_survive_reopening_and_undo_redo_are_saved(tmp_path):
    events = random_game_events(3, 20, players=3)
    db = tmp_path / "pad.sqlite3"
    with Store(db) as store:
        session = Session.new(store, "bag-of-butts", ["A", "B", "C"])
        for e in events:
            session.confirm(e)
        gid = session.game_id
    with Store(db) as store:
        session = Session.resume(store, gid)
        assert session.record.events == events
        assert session.undo() == events[-1]
    with Store(db) as store:
        session = Session.resume(store, gid)
        assert session.record.events == events[:-1] and session.can_redo()
        session.redo()
    with Store(db) as store:
        session = Session.resume(store, gid)
        assert session.record.events == events
        session.undo()
        session.confirm(events[-1])  # a new event drops the redo stack
        assert not session.can_redo()


def test_refused_event_changes_nothing(tmp_path):
    with Store(tmp_path / "pad.sqlite3") as store:
        session = Session.new(store, "bag-of-butts", ["A", "B"])
        before = session.game.summary()
        with pytest.raises(IllegalEvent):
            session.confirm({"type": "score", "group": 1})
        assert session.record.events == [] and session.game.summary() == before


def test_latest_unfinished_is_resumed(tmp_path):
    with Store(tmp_path / "pad.sqlite3") as store:
        done = Session.new(store, "bag-of-butts", ["A", "B"])
        for e in random_game_events(1, None):
            done.confirm(e)
        assert done.game.is_over
        open_game = Session.new(store, "bag-of-butts", ["C", "D"])
        open_game.confirm(random_game_events(2, 1)[0])
        assert latest_unfinished(store) == open_game.game_id


@pytest.mark.parametrize("content", [b"hello, this is not a database at all", b"SQLite format 3\x00" + b"\x00" * 84])
def test_damaged_file_is_refused_and_left_untouched(tmp_path, content):
    db = tmp_path / "pad.sqlite3"
    db.write_bytes(content)
    with pytest.raises(StoreError, match="left untouched|damaged|not a score-pad"):
        Store(db)
    assert db.read_bytes() == content


def test_foreign_database_is_refused_and_left_untouched(tmp_path, capsys):
    db = tmp_path / "other.sqlite3"
    con = sqlite3.connect(db)
    con.execute("CREATE TABLE recipes (name TEXT)")
    con.commit()
    con.close()
    before = db.read_bytes()
    assert cli.main(["games", "--db", str(db)]) == 2
    out, err = capsys.readouterr()
    assert out == "" and "belongs to another program" in err and len(err.strip().splitlines()) == 1
    assert db.read_bytes() == before


CHILD = """
import json, sys
from companion.store import Store
from companion.session import Session
events = json.loads(sys.argv[2])
with Store(sys.argv[1]) as store:
    gid = store.games()[0].id
    session = Session.resume(store, gid)
    print("ready", flush=True)
    for e in events[len(session.record.events):]:
        session.confirm(e)
        print(len(session.record.events), flush=True)
"""


def test_sigkill_while_appending_loses_at_most_the_event_being_confirmed(tmp_path):
    """Kill a process that is confirming events 50 times at random moments; every time the
    stored game is a prefix of the events, holds every confirmed one, and replays cleanly."""
    rng = random.Random(2026)
    events = random_game_events(4, None)
    db = tmp_path / "pad.sqlite3"
    with Store(db) as store:
        Session.new(store, "bag-of-butts", ["A", "B", "C", "D"])
    env = dict(os.environ, PYTHONPATH=str(ROOT))
    stored_counts = []
    for _ in range(50):
        with Store(db) as store:  # start each round from the beginning again
            gid = store.games()[0].id
            while store.undo(gid):
                pass
        proc = subprocess.Popen([sys.executable, "-c", CHILD, str(db), json.dumps(events)],
                                stdout=subprocess.PIPE, env=env, text=True)
        assert proc.stdout.readline().strip() == "ready"  # start-up time varies with the machine's load
        target, confirmed = rng.randrange(len(events)), 0
        while confirmed < target:  # let a random number of events be confirmed ...
            confirmed = int(proc.stdout.readline())
        time.sleep(rng.uniform(0.0, 0.004))  # ... then kill, often in the middle of the next one
        proc.send_signal(signal.SIGKILL)
        out, _ = proc.communicate()
        confirmed = max([confirmed, *(int(x) for x in out.split() if x.isdigit())])
        with Store(db) as store:
            saved = store.record(store.games()[0].id)
        assert saved.events == events[: len(saved.events)]
        assert confirmed <= len(saved.events) <= confirmed + 1
        records.replay(saved)
        stored_counts.append(len(saved.events))
    assert len(set(stored_counts)) > 5  # the kills really landed at different moments
