"""Run ``companion replay --json`` on a record the way a player would, for the fuzz tests."""

from __future__ import annotations

import json
import tempfile
from pathlib import Path

from companion import cli

SUMMARY_KEYS = {"game", "scores", "over", "winners", "next"}


def replay_cli(doc: object, capsys) -> tuple[int, str, str]:
    """Write ``doc`` to a file, replay it through the CLI, return (exit code, stdout, stderr)."""
    with tempfile.TemporaryDirectory() as tmp:
        path = Path(tmp) / "game.json"
        path.write_text(json.dumps(doc), encoding="utf-8")
        rc = cli.main(["replay", str(path), "--json"])
    out, err = capsys.readouterr()
    return rc, out, err


def assert_clean(rc: int, out: str, err: str, game: str) -> None:
    """Either the summary of ``game`` on stdout, or exit 2 with one `event N:`/`setup:` line."""
    if rc == 0:
        doc = json.loads(out)
        assert doc["game"] == game and set(doc) >= SUMMARY_KEYS and err == ""
    else:
        assert rc == 2 and out == ""
        lines = err.strip().splitlines()
        assert len(lines) == 1 and (lines[0].startswith("event ") or lines[0].startswith("setup: "))
        assert "Traceback" not in err
