"""The ``companion`` command. Vision and UI load only inside the commands that need them,
so ``companion replay`` starts fast and works without OpenCV or Kivy."""

from __future__ import annotations

import argparse
import json
import sys
import time
from typing import Any

from companion import records
from companion.core import LANGUAGES, RulesError, format_table
from companion.records import RecordError

USAGE = """companion [ui]                  start the touch screen (demo table when there is no camera)
companion replay FILE [--json]   replay a game record and print the score pad
companion games                  list the games in the score pad
companion new GAME NAME...       start a game in the score pad (prints its number)
companion play ID EVENT          confirm one event (JSON) in a stored game
companion undo ID | redo ID      take back / put back the last event of a stored game
companion resume [ID]            open a stored game (the latest unfinished one) on the screen
companion show ID                print a stored game's score pad
companion export ID [-o FILE]    write a stored game as a record file
companion see KIND IMAGE         read tokens, cards, dice or a board from a photo
companion teach KIND ...         learn your own pieces from photos
companion mat ...                print a play mat (PDF or PNG)"""


def one_line(message: str) -> str:
    """Keep a message on one line whatever a record put into it (control characters, separators)."""
    return "".join(c if c.isprintable() else "?" for c in message)


def fail(message: str) -> int:
    print(one_line(message), file=sys.stderr)
    return 2


def print_pad(game: Any, lang: str) -> None:
    print(format_table(game.score_pad(lang)))
    summary = game.summary()
    if summary["over"]:
        label = "Winnaar" if lang == "nl" else "Winner"
        print(f"\n{label}{'s' if len(summary['winners']) > 1 else ''}: {', '.join(summary['winners'])}")
        if game.outcome and game.outcome.why.en:
            print(game.outcome.why(lang))
    elif summary["next"]:
        print(f"\n{'Aan de beurt' if lang == 'nl' else 'Next'}: {summary['next']}")


def cmd_replay(argv: list[str]) -> int:
    ap = argparse.ArgumentParser(prog="companion replay", description="Replay a game record.")
    ap.add_argument("file")
    ap.add_argument("--json", action="store_true", help="print the final state as JSON")
    ap.add_argument("--lang", choices=LANGUAGES, default="en")
    args = ap.parse_args(argv)
    try:
        game = records.replay(records.load(args.file))
    except RecordError as exc:
        return fail(exc.line(args.lang))
    if args.json:
        print(json.dumps(game.summary(), ensure_ascii=False))
    else:
        print_pad(game, args.lang)
    return 0


def open_store(path: str | None):
    from companion.store import Store

    return Store(path)


def cmd_store(name: str, argv: list[str]) -> int:
    from companion.session import Session

    ap = argparse.ArgumentParser(prog=f"companion {name}")
    ap.add_argument("--db", help="score-pad file (default: in your data folder)")
    ap.add_argument("--lang", choices=LANGUAGES, default="en")
    if name == "new":
        ap.add_argument("game")
        ap.add_argument("players", nargs="+")
        ap.add_argument("--options", default="{}", help="the record's options as JSON")
    elif name == "play":
        ap.add_argument("id", type=int)
        ap.add_argument("event", help='one event as JSON, e.g. \'{"type": "score", "group": 2}\'')
    elif name in ("undo", "redo", "show"):
        ap.add_argument("id", type=int)
    elif name == "export":
        ap.add_argument("id", type=int)
        ap.add_argument("-o", "--out", help="file to write (default: print)")
    args = ap.parse_args(argv)
    with open_store(args.db) as store:
        if name == "games":
            infos = store.games()
            if not infos:
                print("no games in the score pad yet")
            for info in infos:
                when = time.strftime("%Y-%m-%d %H:%M", time.localtime(info.updated))
                try:
                    state = records.replay(store.record(info.id)).summary()
                    status = ("won by " + ", ".join(state["winners"])) if state["over"] else f"next: {state['next']}"
                except RecordError as exc:
                    status = f"does not replay ({exc.line()})"
                print(f"{info.id:4d}  {when}  {info.game:16s} {', '.join(info.players)}  "
                      f"({info.events} events, {status})")
            return 0
        if name == "new":
            try:
                options = json.loads(args.options)
            except json.JSONDecodeError:
                return fail("setup: --options is not valid JSON")
            session = Session.new(store, args.game, args.players, options)
            print(session.game_id)
            return 0
        session = Session.resume(store, args.id)
        if name == "play":
            try:
                event = json.loads(args.event)
            except json.JSONDecodeError:
                return fail("the event is not valid JSON")
            n = len(session.record.events)
            try:
                applied = session.confirm(event)
            except RulesError as exc:
                return fail(f"event {n}: {exc.text(args.lang)}")
            print(applied.explanation(args.lang))
        elif name == "undo":
            event = session.undo()
            print(f"took back {json.dumps(event)}" if event else "nothing to take back")
        elif name == "redo":
            applied = session.redo()
            print(applied.explanation(args.lang) if applied else "nothing to put back")
        elif name == "show":
            print_pad(session.game, args.lang)
        elif name == "export":
            text = session.record.dumps()
            if args.out:
                with open(args.out, "w", encoding="utf-8") as f:
                    f.write(text + "\n")
                print(f"game {args.id} written to {args.out}")
            else:
                print(text)
        return 0


def cmd_ui(argv: list[str]) -> int:
    from ui.app import main as ui_main

    return ui_main(argv)


def main(argv: list[str] | None = None) -> int:
    argv = list(sys.argv[1:] if argv is None else argv)
    cmd = argv[0] if argv and not argv[0].startswith("-") else None
    rest = argv[1:] if cmd else argv
    try:
        if cmd is None:
            if rest and rest[0] in ("-h", "--help"):
                print(USAGE)
                return 0
            return cmd_ui(rest)
        if cmd == "help":
            print(USAGE)
            return 0
        if cmd == "replay":
            return cmd_replay(rest)
        if cmd in ("games", "new", "play", "undo", "redo", "show", "export"):
            return cmd_store(cmd, rest)
        if cmd == "ui":
            return cmd_ui(rest)
        if cmd == "resume":
            return cmd_ui(["--resume", *rest])
        if cmd in ("see", "teach", "mat"):
            from vision import cli as vision_cli

            return getattr(vision_cli, f"{cmd}_main")(rest)
        print(USAGE, file=sys.stderr)
        return fail(f"companion: unknown command {cmd!r}")
    except RecordError as exc:
        return fail(exc.line())
    except RulesError as exc:
        return fail(f"setup: {exc.text.en}")
    except KeyboardInterrupt:
        return 130
    except Exception as exc:  # the last guard: one line, never a traceback at the table
        from companion.store import StoreError

        if isinstance(exc, StoreError | OSError):
            return fail(f"companion: {exc}")
        raise


if __name__ == "__main__":
    sys.exit(main())
