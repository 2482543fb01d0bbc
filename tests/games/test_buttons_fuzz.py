"""Buttons fuzzed records (random and mutated): they replay, or fail with one clean line and exit 2."""

from __future__ import annotations

import copy
import json
import random
import re
from pathlib import Path
from typing import Any

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from companion.cli import main
from companion.games.buttons_play import random_record

LINE = re.compile(r"^(setup|event (\d+)): \S.*$")
VALID = [random_record(random.Random(seed), 2 + seed % 3) for seed in range(6)]

junk = st.recursive(
    st.none() | st.booleans() | st.integers(min_value=-(10 ** 30), max_value=10 ** 30)
    | st.sampled_from([0, 1, 3, 6, 7, -1]) | st.floats(allow_nan=False) | st.text(max_size=6)
    | st.sampled_from(["Ann", "Bob", "Cy", "Dee", "roll", "red", "RYGBRY"]),
    lambda inner: st.lists(inner, max_size=5) | st.dictionaries(st.text(max_size=5), inner, max_size=3),
    max_leaves=8,
)
die = st.integers(min_value=0, max_value=7) | st.integers(min_value=0, max_value=7) | junk
name = st.sampled_from(["Ann", "Bob", "Cy", "Dee", "Zed"]) | junk
event = st.one_of(
    st.fixed_dictionaries({"type": st.just("roll"), "white": die, "gold": die,
                           "black": st.lists(die, min_size=2, max_size=4) | junk}),
    st.fixed_dictionaries({"type": st.just("place"), "player": name, "row": die, "col": die}),
    st.fixed_dictionaries({"type": st.just("optout"), "player": name}),
    st.fixed_dictionaries({"type": st.just("stars"), "player": name,
                           "cells": st.lists(st.lists(die, max_size=3), max_size=6) | junk}),
    st.dictionaries(st.sampled_from(["type", "player", "row", "col", "white", "extra"]), junk, max_size=4),
    junk,
)


def run(path: Path, doc: Any, capsys: pytest.CaptureFixture[str]) -> tuple[int, str, str]:
    path.write_text(json.dumps(doc), encoding="utf-8")
    capsys.readouterr()
    code = main(["replay", str(path), "--json"])
    out, err = capsys.readouterr()
    return code, out, err


def check_clean(code: int, out: str, err: str) -> int | None:
    """Exit 0 with the summary, or exit 2 with one `event N:`/`setup:` line; returns N (None for setup)."""
    if code == 0:
        summary = json.loads(out)
        assert set(summary) == {"game", "scores", "over", "winners", "next", "stars"} and not err
        return -1
    assert code == 2 and out == "", (code, out, err)
    lines = err.splitlines()
    assert len(lines) == 1 and "Traceback" not in err, err
    match = LINE.match(lines[0])
    assert match, lines[0]
    return int(match.group(2)) if match.group(2) else None


FUZZ = settings(max_examples=120, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])


@FUZZ
@given(events=st.lists(event, max_size=10), pick=st.integers(0, len(VALID) - 1), keep=st.integers(0, 120),
       players=st.sampled_from([None, None, None, ["Ann"], ["Ann", "Ann"], ["Ann", "Bob", "Cy", "Dee", "Eve"]]))
def test_random_records_replay_or_fail_cleanly(tmp_path_factory: pytest.TempPathFactory,
                                               capsys: pytest.CaptureFixture[str], events: list[Any],
                                               pick: int, keep: int, players: list[str] | None) -> None:
    doc = copy.deepcopy(VALID[pick])
    doc["events"] = doc["events"][:keep] + events  # random events after a legal start
    if players is not None:
        doc["players"] = players
    check_clean(*run(tmp_path_factory.getbasetemp() / "buttons-fuzz.json", doc, capsys))


def mutate(doc: dict[str, Any], rng: random.Random, value: Any) -> None:
    """Break one thing in a valid record: a field, a key, the order, an extra event or the options."""
    events = doc["events"]
    i = rng.randrange(len(events))
    how = rng.randrange(7)
    if how == 0:
        fields = sorted(set(events[i]) - {"type"}) or ["type"]
        events[i][rng.choice(fields)] = value
    elif how == 1:
        del events[i][rng.choice(sorted(events[i]))]
    elif how == 2:
        events[i][rng.choice(["extra", "player", "cells", "black"])] = value
    elif how == 3 and i + 1 < len(events):
        events[i], events[i + 1] = events[i + 1], events[i]
    elif how == 4:
        events.insert(i, copy.deepcopy(events[rng.randrange(len(events))]))
    elif how == 5:
        board = doc["options"]["boards"][doc["players"][0]]
        board[rng.randrange(6)] = value
    else:
        doc["options"]["bonus"][doc["players"][-1]] = value


@settings(FUZZ, max_examples=250)
@given(pick=st.integers(0, len(VALID) - 1), seed=st.integers(0, 10 ** 6), cut=st.floats(0.02, 1),
       value=st.sampled_from([0, 7, -1, 8, True]) | st.integers(-1, 8) | junk)
def test_mutated_records_fail_at_the_first_bad_event(tmp_path_factory: pytest.TempPathFactory,
                                                     capsys: pytest.CaptureFixture[str], pick: int, seed: int,
                                                     value: Any, cut: float) -> None:
    doc = copy.deepcopy(VALID[pick])
    doc["events"] = doc["events"][:max(1, int(len(doc["events"]) * cut))]
    mutate(doc, random.Random(seed), value)
    path = tmp_path_factory.getbasetemp() / "buttons-fuzz.json"
    bad = check_clean(*run(path, doc, capsys))
    if bad is not None and bad >= 0:
        # everything before the event named replays: it really is the first bad one
        doc["events"] = doc["events"][:bad]
        assert check_clean(*run(path, doc, capsys)) == -1


def test_valid_records_replay(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    for doc in VALID:
        code, out, err = run(tmp_path / "record.json", doc, capsys)
        assert code == 0 and json.loads(out)["over"], err
