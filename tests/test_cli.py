"""The companion command: replay, the score pad commands, and clean errors."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

from companion import cli

ROOT = Path(__file__).resolve().parent.parent


def run(capsys, *argv):
    code = cli.main(list(argv))
    out, err = capsys.readouterr()
    return code, out, err


def test_replay_example_json_and_pad(capsys):
    code, out, err = run(capsys, "replay", str(ROOT / "examples" / "bag-of-butts.json"), "--json")
    assert code == 0 and err == ""
    assert json.loads(out) == {"game": "bag-of-butts", "scores": {"Ali": 32, "Bella": 30, "Cole": 35},
                               "over": True, "winners": ["Cole"], "next": None}
    code, out, _ = run(capsys, "replay", str(ROOT / "examples" / "bag-of-butts.json"))
    assert code == 0 and "Winner: Cole" in out and out.splitlines()[0].split()[:3] == ["Turn", "Value", "Ali"]
    code, out, _ = run(capsys, "replay", str(ROOT / "examples" / "bag-of-butts.json"), "--lang", "nl")
    assert "Winnaar: Cole" in out and out.startswith("Beurt")


def test_replay_errors_are_one_line_exit_2(capsys, tmp_path):
    bad = tmp_path / "bad.json"
    bad.write_text(json.dumps({"game": "bag-of-butts", "players": ["A", "B"],
                               "events": [{"type": "draw", "groups": [["pink"], ["pink"], ["gray"]]}]}))
    code, out, err = run(capsys, "replay", str(bad), "--json")
    assert code == 2 and out == ""
    assert err.startswith("event 0: the bag holds 2 yellow, the draw shows 0")
    assert "the bag holds 0 gray, the draw shows 1" in err and err.count("\n") == 1
    bad.write_text("{not json")
    code, out, err = run(capsys, "replay", str(bad))
    assert code == 2 and out == "" and err.startswith("setup: the file is not valid JSON")
    bad.write_text(json.dumps({"game": "chess", "players": ["A", "B"]}))
    code, out, err = run(capsys, "replay", str(bad))
    assert code == 2 and err.startswith("setup: unknown game 'chess'")
    code, out, err = run(capsys, "replay", str(tmp_path / "missing.json"))
    assert code == 2 and err.startswith("setup: no such file")


def test_score_pad_commands(capsys, tmp_path):
    db = str(tmp_path / "pad.sqlite3")
    code, out, _ = run(capsys, "new", "bag-of-butts", "Ann", "Bob", "--db", db)
    gid = out.strip()
    assert code == 0 and gid == "1"
    draw = {"type": "draw", "groups": [["pink", "pink"], ["yellow"], ["yellow", "blue", "blue", "green", "green"]]}
    code, out, _ = run(capsys, "play", gid, json.dumps(draw), "--db", db)
    assert code == 0 and "choose a group" in out
    code, out, err = run(capsys, "play", gid, '{"type": "score", "group": 4}', "--db", db)
    assert code == 2 and err.startswith("event 1: there is no group 4")
    code, out, _ = run(capsys, "play", gid, '{"type": "score", "group": 1}', "--db", db)
    assert code == 0 and "Ann +2" in out
    code, out, _ = run(capsys, "undo", gid, "--db", db)
    assert code == 0 and "took back" in out
    code, out, _ = run(capsys, "redo", gid, "--db", db)
    assert code == 0 and "Ann +2" in out
    code, out, _ = run(capsys, "games", "--db", db)
    assert "bag-of-butts" in out and "Ann, Bob" in out and "next: Bob" in out
    export = tmp_path / "game.json"
    code, out, _ = run(capsys, "export", gid, "-o", str(export), "--db", db)
    assert code == 0
    code, out, _ = run(capsys, "replay", str(export), "--json")
    assert json.loads(out)["scores"] == {"Ann": 2, "Bob": 0}


def test_replay_starts_without_vision_or_ui():
    """`companion replay` must not import cv2, numpy or kivy (fast start, works anywhere)."""
    code = ("import sys; from companion import cli; cli.main(['replay', sys.argv[1], '--json']);"
            "bad = [m for m in ('cv2', 'numpy', 'kivy', 'gpiozero', 'vision', 'ui') if m in sys.modules];"
            "print('LOADED', bad)")
    out = subprocess.run([sys.executable, "-c", code, str(ROOT / "examples" / "bag-of-butts.json")],
                         capture_output=True, text=True, cwd=ROOT).stdout
    assert "LOADED []" in out


def test_core_imports_no_io_libraries():
    for path in (ROOT / "companion").rglob("*.py"):
        text = path.read_text()
        for lib in ("cv2", "numpy", "kivy", "gpiozero", "picamera2"):
            assert f"import {lib}" not in text and f"from {lib}" not in text, f"{path} imports {lib}"
