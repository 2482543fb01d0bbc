"""Drive the real touch screen with simulated touches: ``driver.py SCENARIO OUT.json [ARGS]``.

Each scenario starts the App (ui.app.main) and walks it step by step from Kivy's clock: it taps
buttons by their text (UnitTestTouch goes through the window like a finger), feeds camera
readings as the vision thread would, saves screenshots, and writes what the screens showed to
OUT.json for the test to check. One scenario per process: Kivy's App cannot restart.
"""

from __future__ import annotations

import json
import os
import random
import sys
import traceback
from collections import Counter
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parent.parent.parent
# where the screenshots go: the docs' own pictures unless the caller names a folder (the tests do, so
# a test run leaves the working tree as it was)
SHOTS = Path(os.environ.get("COMPANION_SHOTS") or ROOT / "docs" / "screenshots")
sys.path.insert(0, str(ROOT))  # this worktree's ui/ and companion/, not an installed copy


# -- finding and tapping widgets --------------------------------------------------------------------
def app() -> Any:
    from kivy.app import App

    return App.get_running_app()


def walk(widget: Any):
    yield widget
    for child in widget.children:
        yield from walk(child)


def roots() -> list[Any]:
    from kivy.core.window import Window

    return list(Window.children)  # modal views first (they sit on top), then the screen manager


def find(text: str, exact: bool = True, enabled: bool = True) -> Any:
    """The visible, enabled button (or widget) whose text is ``text`` (topmost first)."""
    from kivy.uix.button import Button

    for root in roots():
        for w in walk(root):
            t = getattr(w, "text", None)
            if isinstance(w, Button) and isinstance(t, str) and (t == text if exact else text in t) \
                    and not (enabled and w.disabled) and w.opacity > 0 and w.get_root_window() is not None:
                return w
    raise LookupError(f"no button {text!r} on screen; buttons: {buttons()}")


def buttons() -> list[str]:
    from kivy.uix.button import Button

    return [w.text for r in roots() for w in walk(r) if isinstance(w, Button) and not w.disabled]


def tap_at(x: float, y: float) -> None:
    from kivy.tests.common import UnitTestTouch

    touch = UnitTestTouch(x, y)
    touch.touch_down()
    touch.touch_up()


def tap(text: str, exact: bool = True) -> None:
    """Touch the button showing ``text`` in its middle, as a finger would."""
    w = find(text, exact)
    tap_at(*w.to_window(*w.center))


def shot(name: str) -> str:
    """Save the whole window (popups included) as NAME.png in SHOTS."""
    from kivy.core.window import Window

    SHOTS.mkdir(parents=True, exist_ok=True)
    path = SHOTS / f"{name}.png"
    made = Window.screenshot(name=str(SHOTS / f".{name}.png"))  # Kivy adds a number to the name
    Path(made).replace(path)
    return str(path)


def snap(name: str, popup: bool = False) -> Any:
    """Wait for closing popups to go (unless the shot is of a popup), then save the screenshot."""
    if not popup:
        yield from settle()
    yield 0.1
    shot(name)


def screen() -> Any:
    return app().sm.current_screen


def tr(key: str, **kw: Any) -> str:
    return app().tr(key, **kw)


# -- Bag of Butts at the table ------------------------------------------------------------------------
def bag_reading(game: Any, rng: random.Random) -> list[dict[str, Any]]:
    """A camera reading of the bag's content drawn into three groups (boxes left to right)."""
    tokens = sorted(Counter(game.view()["bag"]).elements())
    rng.shuffle(tokens)
    a = rng.randint(1, len(tokens) - 2)
    b = rng.randint(a + 1, len(tokens) - 1)
    out = []
    for i, colour in enumerate(tokens):
        group = 1 if i < a else 2 if i < b else 3
        out.append({"colour": colour, "group": group, "confidence": 0.97,
                    "box": [60 + i * 95, 200 + 180 * group, 70, 70]})
    return out


def play_bag_turn(rng: random.Random, log: dict[str, Any]) -> Any:
    """One step of the active player's turn, by touch; yields waits for the clock."""
    table = screen()
    game = app().session.game
    view = game.view()
    if view["phase"] == "choose":
        supply = [s for s, n in view["special_supply"].items() if n]
        if supply and rng.random() > 0.1:
            tap(tr("add_special", colour=_piece(rng.choice(supply))))
        elif view["can_reset"] and (not supply or rng.random() < 0.5):
            tap(tr("voluntary_reset"))
        else:
            table.show_reading(bag_reading(game, rng))
            tap(table.confirm_text)
    elif view["phase"] == "draw":
        table.show_reading(bag_reading(game, rng))  # as the vision thread hands it over
        tap(table.confirm_text)
    else:
        ok = [g["group"] for g in view["groups"] if g["scorable"]]
        tap(tr("score_group", n=rng.choice(ok)), exact=False)
    log["taps"] += 1
    yield 0


def _piece(name: str) -> str:
    from ui.i18n import piece_name

    return piece_name(name, app().lang)


def start_game(title: str, fewer: int = 0, settle: float = 0.6):
    """Home -> the game -> Start, with ``fewer`` players than the screen offers."""
    yield 0.3
    tap(title)
    yield 0.1
    for _ in range(fewer):
        tap(tr("remove_player"))
        yield 0.05
    tap(tr("start"))
    yield settle


def scenario_bag(res: dict[str, Any], args: list[str]):
    """A whole Bag of Butts game by touch: players, a hand-entered draw, corrections, refusals,
    choices, the score pad with undo/redo, to the end; screenshots along the way."""
    size = args[0]
    rng = random.Random(7)
    yield 0.3
    from kivy.core.window import Window

    res["window"] = f"{Window.width}x{Window.height}"
    yield from snap(f"home-{size}")
    tap("Bag of Butts")
    yield 0.1
    players = screen()
    inputs = sorted((w for w in walk(players) if type(w).__name__ == "TextInput"), key=lambda w: -w.to_window(*w.pos)[1])
    for w, name in zip(inputs, ["Ann", "Bob", "Cy"], strict=False):
        w.text = name
    res["player_rows"] = len(inputs)
    yield from snap(f"players-{size}")
    tap(tr("start"))
    yield 0.6
    res["screen_after_start"] = app().sm.current
    table = screen()
    res["confirm_disabled_first"] = find(table.confirm_text, enabled=False).disabled
    # a reading that leaves butts out of the bag: refused in words, nothing recorded; the reader was
    # unsure of the pink one, which is marked for the players to look at
    table.show_reading([{"colour": "pink", "group": 1, "confidence": 0.35, "box": [100, 100, 80, 80]},
                        {"colour": "blue", "group": 2, "confidence": 0.9, "box": [300, 100, 80, 80]},
                        {"colour": "green", "group": 3, "confidence": 0.9, "box": [500, 100, 80, 80]}])
    yield 0.05
    res["unsure_reading"] = table.reading_text
    res["unsure_labels"] = [w.text for w in walk(table.ids.view) if type(w).__name__ == "Label"]
    tap(table.confirm_text)
    yield 0.3
    res["refusal"] = table.error_text
    yield from snap(f"table-refused-{size}")
    res["events_after_refusal"] = len(app().session.record.events)
    # correct a piece by tapping it on the picture: the pink one becomes yellow in group 2
    view = table.ids.view
    x0, y0, s = view.fit()
    tap_at(x0 + 140 * s, y0 - 140 * s)
    yield 0.1
    res["picker_open"] = any(type(w).__name__ == "Picker" for w in roots())
    yield from snap(f"picker-{size}", popup=True)
    tap(_piece("yellow"))
    tap("2")
    tap("OK")
    yield from settle()
    res["corrected"] = [o["colour"] for o in table.objects]
    res["edited"] = table.edited
    res["corrected_reading"] = table.reading_text
    tap(tr("clear"))
    yield 0.05
    res["after_clear"] = [o["colour"] for o in table.objects]  # the camera's reading is back
    table.show_reading([])  # the players take the butts off the table
    # enter the first draw by hand with the picker: the whole bag, three groups
    first = {1: ["pink", "pink", "yellow"], 2: ["yellow", "blue", "blue"], 3: ["green", "green"]}
    for group, colours in first.items():
        for colour in colours:
            yield from settle()
            tap(tr("add_piece"))
            yield 0.05
            tap(_piece(colour))
            tap(str(group))
            tap("OK")
    res["hand_reading"] = table.reading_text
    yield from snap(f"table-reading-{size}")
    tap(table.confirm_text)
    yield 0.1
    res["after_draw_teach"] = table.teach_text
    res["after_draw_state"] = table.state_text
    res["score_buttons"] = [b for b in buttons() if b.startswith(tr("score_group", n=""))]
    yield from snap(f"table-groups-{size}")
    tap(tr("score_group", n=1), exact=False)
    yield 0.1
    res["scores_after_first"] = dict(app().session.game.summary()["scores"])
    res["scores_text_first"] = table.scores_text
    # the second turn starts with a choice: add a special
    res["choice_buttons"] = buttons()
    yield from snap(f"table-choice-{size}")
    # score pad, undo and redo
    tap(tr("pad"))
    yield 0.1
    pad = screen()
    res["pad_rows"] = [list(r) for r in pad.rows_data]
    yield from snap(f"pad-{size}")
    tap(tr("undo"))
    yield 0.05
    res["events_after_undo"] = len(app().session.record.events)
    tap(tr("redo"))
    yield 0.05
    res["events_after_redo"] = len(app().session.record.events)
    tap(tr("back"))
    yield 0.1
    if "short" in args:  # screenshots only: the whole game is played at the other size
        return
    # play on to the end of the game by touch
    log = {"taps": 0}
    announced = set()
    while not app().session.game.is_over and log["taps"] < 600:
        yield from play_bag_turn(rng, log)
        if table.announce_text:
            announced.add(table.announce_text)
    res["taps"] = log["taps"]
    res["over"] = app().session.game.is_over
    res["announced"] = sorted(announced)
    res["final_next_text"] = table.next_text
    res["final_summary"] = app().session.game.summary()
    res["confirm_disabled_end"] = find(table.confirm_text, enabled=False).disabled
    yield from snap(f"table-over-{size}")
    tap(tr("home"))
    yield 0.2
    res["resume_offer_after_end"] = screen().resume_text
    tap(tr("past_games"))
    yield 0.2
    hist = screen()
    res["stats"] = hist.stats_text
    tap(", ".join(["Ann", "Bob", "Cy"]), exact=False)
    yield 0.2
    res["replay_step"] = hist.step_text
    tap(tr("first"))
    tap(tr("nxt"))
    yield 0.05
    res["replay_first_event"] = hist.replay_text
    res["replay_pad_rows"] = len(hist.rows_data)
    tap(tr("export"))
    yield 0.05
    res["export_status"] = hist.status
    res["app_message"] = app().message
    yield from snap(f"history-{size}")


def scenario_unfinished(res: dict[str, Any], args: list[str]):
    """Start a game, confirm one draw, leave: the score pad keeps it for --resume."""
    rng = random.Random(3)
    yield from start_game("Bag of Butts", settle=0.5)
    table = screen()
    table.show_reading(bag_reading(app().session.game, rng))
    yield 0.02
    if "gpio" in args:  # the Confirm button on the GPIO header (gpiozero's mock pins)
        controls = app().controls
        res["gpio_available"] = getattr(controls, "available", False)
        pin = controls.buttons["confirm"].pin
        pin.drive_low()
        pin.drive_high()
        yield 0.2
    else:
        tap(table.confirm_text)
    yield 0.05
    res["game_id"] = app().session.game_id
    res["events"] = len(app().session.record.events)


def scenario_resume(res: dict[str, Any], args: list[str]):
    """Started with --resume: straight into the same game, same state."""
    yield 0.6
    res["screen"] = app().sm.current
    res["game_id"] = app().session.game_id if app().session else None
    res["events"] = len(app().session.record.events) if app().session else None
    res["phase"] = app().session.game.view()["phase"] if app().session else None
    res["buttons"] = buttons()


def scenario_tour(res: dict[str, Any], args: list[str]):
    """Every other screen at one size, in Dutch: rules, settings with the preview, home."""
    size = args[0]
    yield 0.3
    res["home_message"] = app().message
    tap(tr("language"))
    yield 0.05
    res["lang"] = app().lang
    res["home_buttons"] = buttons()
    yield from snap(f"home-nl-{size}")
    tap(tr("rules"))
    yield 0.1
    res["rules_text"] = screen().text[:80]
    yield from snap(f"rules-nl-{size}")
    tap(tr("back"))
    yield 0.05
    tap(tr("settings"))
    yield 0.3
    # the preview's first frames set the status; a loaded machine takes longer than a quiet one
    yield from wait_for(lambda: "/s" in screen().camera_status, 15)
    res["camera_status"] = screen().camera_status
    tap(tr("pin_button", role=tr("confirm"), pin="-"))
    tap(tr("pin_button", role=tr("confirm"), pin="5"))
    yield 0.05
    tap(tr("save"))
    yield 0.05
    res["saved"] = screen().camera_status
    yield 1.5  # the preview's figures tick every 0.5 s: the message must outlast a few ticks
    res["saved_later"] = screen().camera_status
    yield from snap(f"settings-nl-{size}")
    tap(tr("back"))
    yield 0.05


# -- Buttons at the table ---------------------------------------------------------------------------
BOARDS = {"Ann": ["RGBYYY", "YBBBGR", "GYYGGG", "RGRBYY", "RBBGYR", "RGRBBR"],
          "Bob": ["RGGYBY", "YBBBRB", "YYRGGR", "GBRGYB", "RYYRYB", "RRGGGB"]}


def dice_reading(view: dict[str, Any], rng: random.Random) -> list[dict[str, Any]]:
    """A camera reading of the dice in play: the white die, the gold-pip die, the black dice."""
    kinds = [("white", "gold"), ("black", "gold")] + [("black", "white")] * view["dice"]["black"]
    return [{"pips": rng.randint(1, 6), "body": body, "pip_colour": pip, "confidence": 0.95,
             "box": [80 + 130 * i, 300 + 40 * (i % 2), 90, 90]} for i, (body, pip) in enumerate(kinds)]


def settle() -> Any:
    """Wait until closing popups are gone (a fading popup still takes the touches)."""
    for _ in range(40):
        if not any(type(w).__name__ != "ScreenManager" for w in roots()):
            return
        yield 0.05


def play_buttons_step(rng: random.Random, log: dict[str, Any], size: str) -> Any:
    yield from settle()
    table = screen()
    view = app().session.game.view()
    if view["phase"] == "stars":
        due = view["stars_due"][0]
        tap(tr("stars_button", name=due["player"]) + f" ({due['stars']})")
        yield 0.15
        popup = next(w for w in roots() if type(w).__name__ == "ModalView")
        board = next(w for w in walk(popup) if type(w).__name__ == "BoardView")
        for r, c in rng.sample(sorted(map(tuple, view["buttons"][due["player"]])), due["stars"]):
            cell = board.cells[(r, c)]
            tap_at(*cell.to_window(*cell.center))
        if not log.get("stars_shot"):
            yield 0.3
            yield from snap(f"buttons-stars-{size}", popup=True)
            log["stars_shot"] = True
        tap("OK")
        yield 0.15
    elif view["must_place"]:
        p = view["must_place"]
        r, c = rng.choice(view["placeable"][p])
        if not log.get("board_shot"):  # once: place through the board, by tapping the cell
            tap(tr("boards"))
            yield 0.15
            if view["active"] != p:
                tap(p)
                yield 0.15
            yield 0.3
            yield from snap(f"buttons-board-{size}", popup=True)
            popup = next(w for w in roots() if type(w).__name__ == "ModalView")
            board = next(w for w in walk(popup) if type(w).__name__ == "BoardView")
            cell = board.cells[(r, c)]
            tap_at(*cell.to_window(*cell.center))
            log["board_shot"] = True
            yield 0.15
        else:
            tap(tr("place_at", name=p, row=r, col=c))
    else:
        others = [(p, cell) for p, cells in view["placeable"].items() for cell in cells]
        count = len(view["buttons"][view["active"]])
        if others and rng.random() < 0.6:
            p, (r, c) = rng.choice(others)
            tap(tr("place_at", name=p, row=r, col=c))
        elif view["optout_stars"] is not None and rng.random() < min(0.9, 0.08 * count):
            tap(tr("opt_out", name=view["active"]))
        else:
            table.show_reading(dice_reading(view, rng))
            if not log.get("roll_shot"):
                yield 0.3
                yield from snap(f"buttons-roll-{size}")
                log["roll_shot"] = True
            tap(table.confirm_text)
    log["taps"] += 1
    if table.error_text:
        log.setdefault("errors", []).append(table.error_text)
    yield 0  # one frame: the rebuilt buttons get their places before the next tap


def scenario_buttons(res: dict[str, Any], args: list[str]):
    """Buttons by touch: players with typed boards, rolls read from the dice, placements on the
    board and by button, opt-outs, stars on the board, to the end (or ``max_taps``)."""
    size, max_taps = args[0], int(args[1])
    rng = random.Random(11)
    yield 0.3
    tap("Buttons")
    yield 0.1
    tap(tr("remove_player"))
    yield 0.05
    players = screen()
    inputs = sorted((w for w in walk(players) if type(w).__name__ == "TextInput"),
                    key=lambda w: (-w.to_window(*w.pos)[1], w.to_window(*w.pos)[0]))
    for i, name in enumerate(BOARDS):
        inputs[2 * i].text = name
        inputs[2 * i + 1].text = " ".join(BOARDS[name])
    yield 0.05
    yield from snap(f"buttons-players-{size}")
    tap(tr("start"))
    yield 0.6
    res["screen_after_start"] = app().sm.current
    table = screen()
    res["first_state"] = table.state_text
    res["confirm_enabled_first"] = not find(table.confirm_text, enabled=False).disabled
    # a roll read with a die missing is refused in words, nothing recorded
    view = app().session.game.view()
    table.show_reading(dice_reading(view, rng)[1:])
    yield 0.05
    tap(table.confirm_text)
    res["refusal"] = table.error_text
    res["events_after_refusal"] = len(app().session.record.events)
    tap(tr("clear"))
    log: dict[str, Any] = {"taps": 0}
    while not app().session.game.is_over and log["taps"] < max_taps:
        yield from play_buttons_step(rng, log, size)
    res.update(taps=log["taps"], errors=log.get("errors", []), over=app().session.game.is_over,
               summary=app().session.game.summary(), next_text=table.next_text,
               events=len(app().session.record.events), app_message=app().message)
    yield from snap(f"buttons-table-{size}")
    tap(tr("pad"))
    yield 0.2
    res["pad_rows"] = [list(r) for r in screen().rows_data]
    yield from snap(f"buttons-pad-{size}")


# -- the card games ------------------------------------------------------------------------------------
NDB_DECK = [f"{c}-{v}" for c in ("green", "red", "yellow", "blue")
            for v in [*range(1, 11), "zero", "x2", "pm", "pm", "pm"]]


def card_objects(rows: list[list[str]]) -> list[dict[str, Any]]:
    """A camera reading of cards laid in rows (row 0 at the top), each row left to right."""
    out = []
    for r, row in enumerate(rows):
        step = min(105, 1240 // max(len(row), 1))
        height = min(135, 900 // len(rows) - 10)
        for i, name in enumerate(row):
            colour, value = name.split("-", 1)
            out.append({"colour": colour, "value": int(value) if value.isdigit() else value, "row": r,
                        "position": i, "confidence": 0.93,
                        "box": [20 + step * i, 30 + (height + 10) * r, step - 8, height]})
    return out


def scenario_ndb(res: dict[str, Any], args: list[str]):
    """Nicht die Bohne! by touch: phases read from the cards with the taking order tapped, then the
    rest of each round entered from the collected cards on the table; three rounds to the end."""
    size, phases_by_touch = args[0], int(args[1])
    rng = random.Random(5)
    yield from start_game("Nicht die Bohne!")
    table = screen()
    game = app().session.game
    players = list(game.players)
    res["players"] = players
    for round_no in range(3):
        deck = NDB_DECK[:]
        rng.shuffle(deck)
        for k in range(phases_by_touch):
            played = [deck.pop() for _ in players]
            table.show_reading(card_objects([played]))
            holders = [b for b in buttons() if b.endswith(" has the bean token")]
            if holders:  # a round read from the table does not say who got the token
                res["asked_holder"] = True
                tap(holders[0])
                yield 0
            while len(table.takes) < len(players) - 1:
                choices = [b for b in buttons() if " takes " in b]
                tap(rng.choice(choices))
                yield 0
            if round_no == 0 and k == 0:
                res["takes_text"] = table.reading_text
                yield 0.3
                yield from snap(f"ndb-phase-{size}")
            tap(table.confirm_text)
            yield 0
            if table.error_text:
                res.setdefault("errors", []).append(table.error_text)
        view = app().session.game.view()
        got = {p: [c for row in view["players"][p]["rows"] for c in row["cards"]] for p in players}
        if round_no == 0:
            res["rows_after_phases"] = table.state_text
        per = view["phases_per_round"]
        collected = [got[p] + [deck.pop() for _ in range(per - len(got[p]))] for p in players]
        table.show_reading(card_objects(collected))
        yield 0
        tap(tr("round_from_table"))
        yield 0.05
        if table.error_text:
            res.setdefault("errors", []).append(table.error_text)
        if round_no == 0:
            res["after_round_1"] = table.state_text
            res["teach_round_1"] = table.teach_text
            yield 0.3
            yield from snap(f"ndb-round-{size}")
    res.update(over=app().session.game.is_over, summary=app().session.game.summary(),
               next_text=table.next_text, app_message=app().message)
    yield from snap(f"ndb-over-{size}")
    tap(tr("pad"))
    yield 0.2
    res["pad_rows"] = [list(r) for r in screen().rows_data]
    yield from snap(f"ndb-pad-{size}")


BILLY_LOOT = [["red-5", "red-10", "green-4", "green-dynamite", "green-8", "blue-3"],   # Billy
              ["red-7", "red-9", "green-2", "blue-6", "blue-1"],                      # Player 1
              ["green-10", "green-6", "blue-2", "yellow-4", "yellow-dynamite"],        # Player 2
              ["red-1", "purple-3", "purple-5", "yellow-2"]]                          # Player 3


def scenario_billy(res: dict[str, Any], args: list[str]):
    """Blasting Billy: the final reveal read row by row from the cards (Billy first), a dynamite
    row corrected by tapping a card, the shot rows and the winner."""
    size = args[0]
    yield from start_game("Blasting Billy")
    table = screen()
    objs = card_objects(BILLY_LOOT)
    objs[6]["value"] = 1  # the camera misread Player 1's red-7 as red-1
    table.show_reading(objs)
    yield 0.1
    view = table.ids.view
    x0, y0, s = view.fit()
    x, y, w, h = objs[6]["box"]
    tap_at(x0 + (x + w / 2) * s, y0 - (y + h / 2) * s)
    yield 0.2
    tap("7")
    tap("OK")
    yield from settle()
    res["reading"] = table.reading_text
    yield from snap(f"billy-reading-{size}")
    tap(table.confirm_text)
    yield 0.2
    res.update(over=app().session.game.is_over, summary=app().session.game.summary(), state=table.state_text,
               teach=table.teach_text, next_text=table.next_text, error=table.error_text or None,
               app_message=app().message)
    yield from snap(f"billy-reveal-{size}")
    if res["error"] is None:
        del res["error"]


def scenario_billy_parts(res: dict[str, Any], args: list[str]):
    """Blasting Billy's reveal read loot by loot (Billy first), the last loot laid in two rows."""
    size = args[0]
    yield from start_game("Blasting Billy")
    table = screen()
    last = BILLY_LOOT[3]
    loots = [(owner, [row]) for owner, row in zip(("Billy", "Player 1", "Player 2"), BILLY_LOOT, strict=False)]
    loots.append(("Player 3", [last[:2], last[2:]]))  # the last loot laid in two rows
    res["buttons_before"] = buttons()
    tap(tr("keep_loot", name="Billy"))  # nothing read yet: refused in words
    yield 0.1
    res["empty_keep"] = table.error_text
    for owner, rows in loots[:-1]:
        table.show_reading(card_objects(rows))
        yield 0.1
        tap(tr("keep_loot", name=owner))
        yield 0.1
    res["buttons_last"] = buttons()
    table.show_reading(card_objects(loots[-1][1]))
    yield 0.1
    res["reading"] = table.reading_text
    yield from snap(f"billy-parts-{size}")
    tap(table.confirm_text)
    yield 0.2
    res.update(over=app().session.game.is_over, summary=app().session.game.summary(),
               revealed=app().session.record.events[-1] if app().session.record.events else None,
               error=table.error_text or None)
    if res["error"] is None:
        del res["error"]


def demo_truth(table) -> list[dict[str, Any]]:
    """What the demo table really shows (the renderer's ground truth): what the players see."""
    return list(getattr(table.source, "truth", None) or [])


def scenario_demo(res: dict[str, Any], args: list[str]):
    """The demo table as a newcomer meets it: rendered frames of the game's own pieces, the real
    reader, Confirm, the engine's answer; for Bag of Butts and then Buttons."""
    size = args[0]
    yield from start_game("Bag of Butts", fewer=1, settle=0.1)
    table = screen()
    for _ in range(100):  # rendering and reading take a moment on a busy machine
        yield 0.1
        if table.objects:
            break
    res["bob_camera_text"] = table.camera_text
    res["bob_reading"] = table.reading_text
    res["bob_labels"] = sorted({readings_label(o, "tokens") for o in table.objects})
    yield from snap(f"demo-bag-{size}")
    tap(table.confirm_text)
    yield 0.1
    res["bob_first_error"] = table.error_text
    if table.error_text:  # the reader misread a butt: the engine refused it; the player fixes it by hand
        truth = demo_truth(table)
        table.show_reading([])  # the misread pieces are taken away ...
        for piece in truth:  # ... and the draw is entered with the picker, piece by piece
            yield from settle()
            tap(tr("add_piece"))
            yield 0.05
            tap(_piece(piece["colour"]))
            tap(str(piece["group"]))
            tap("OK")
        yield from settle()
        tap(table.confirm_text)
        yield 0.1
    res["bob_events"] = len(app().session.record.events)
    res["bob_error"] = table.error_text
    res["bob_teach"] = table.teach_text
    yield from snap(f"demo-bag-groups-{size}")
    yield from settle()
    tap(tr("home"))
    for _ in range(50):  # wait for the home screen to be in place before the next tap
        yield 0.1
        if type(screen()).__name__ == "HomeScreen" and not app().root.transition.is_active:
            break
    yield 0.2
    tap("Buttons")
    yield 0.1
    for _ in range(50):  # the players screen opens once the home screen has let go
        players = screen()
        reads = [w for w in walk(players) if getattr(w, "text", None) == tr("read_board")]
        if len(reads) >= 2:
            break
        yield 0.1
    for i in range(2):  # each player's board read by the camera (the demo shows a rendered board)
        reads = sorted((w for w in walk(players) if getattr(w, "text", None) == tr("read_board")),
                       key=lambda w: -w.to_window(*w.pos)[1])
        tap_at(*reads[i].to_window(*reads[i].center))
        for _ in range(100):
            yield 0.1
            if players.boards[i] and not app().message:
                break
    res["boards_read"] = [players.boards[i] for i in range(2)]
    yield from snap(f"demo-buttons-players-{size}")
    tap(tr("start"))
    yield 0.3
    res["buttons_start_message"] = app().message
    table = screen()
    for _ in range(100):
        yield 0.1
        if table.objects:
            break
    res["buttons_reading"] = table.reading_text
    yield from snap(f"demo-buttons-{size}")
    tap(table.confirm_text)
    yield 0.1
    res["buttons_events"] = len(app().session.record.events)
    res["buttons_error"] = table.error_text
    res["buttons_state"] = table.state_text


def scenario_late(res: dict[str, Any], args: list[str]):
    """No camera at the start: the demo table plays; the camera plugged in later takes over by
    itself, and the real reader reads its frames."""
    import cv2

    from hardware.sources import ReplaySource
    from vision.render.tokens import scene

    folder = Path(args[0]) / "camera"
    folder.mkdir()
    frame, truth = scene(9, effects_on=False)
    cv2.imwrite(str(folder / "frame.png"), frame)
    res["truth_colours"] = sorted(o["colour"] for o in truth)
    yield from start_game("Bag of Butts", fewer=1, settle=0.3)
    table = screen()
    res["start_text"] = table.camera_text
    res["start_demo"] = app().demo
    plugged = []

    def plug_in() -> Any:  # the camera appears in its socket
        camera = ReplaySource(folder, fps=15)
        camera.open()
        plugged.append(camera)
        return camera

    table.source._opener = plug_in
    yield from wait_for(lambda: table.camera_text == tr("camera_found"), 15)
    res["found_text"] = table.camera_text
    res["found_demo"] = app().demo
    yield from wait_for(lambda: table.objects, 15)
    res["read_colours"] = sorted(o["colour"] for o in table.objects)
    yield from snap("late-camera-800x480")
    tap(tr("home"))
    yield 0.5
    res["camera_closed"] = [c.state for c in plugged]


# -- the calibration wizard ---------------------------------------------------------------------------
def scenario_calibration(res: dict[str, Any], args: list[str]):
    """The calibration wizard on the demo table, by touch: write the mat, the mat found with its
    patches and gains, the lock refused in words for the demo, a Pi camera (picamera2 stand-in)
    relocked and saved to the config file, one reading of the butts on the mat."""
    size = args[0]
    yield 0.3
    tap(tr("settings"))
    yield 0.3
    tap(tr("calibrate"))
    yield 0.2
    cal = screen()
    res["screen"] = app().sm.current
    res["step1_buttons"] = buttons()
    # the first demo frame renders meanwhile: wait until the step's buttons have their places
    yield from wait_for(lambda: find(tr("cal_write", fmt="PDF")).width != 100, 10)
    tap(tr("cal_paper", size="A4"))
    tap(tr("cal_paper", size="A3"))
    tap(tr("cal_write", fmt="PDF"))
    yield from wait_for(lambda: cal.status != tr("cal_writing"), 10)
    res["written"] = cal.status
    yield from wait_for(lambda: cal.texture is not None, 10)  # the first picture is on screen
    yield from snap(f"calibration-print-{size}")
    tap(tr("cal_next"))
    yield from wait_for(lambda: cal.check is not None and cal.check.found, 20)
    yield 0.3
    res["found"] = cal.check.found
    res["markers"] = cal.check.markers
    res["mat_text"] = cal.mat_text
    res["drawn_zones"] = len(cal.ids.preview.check.zones)
    yield from snap(f"calibration-mat-{size}")
    if "short" in args:  # the mat taken away: the wizard says why it is not found, then it is back
        cal.feed.source.advance(with_mat=False)
        yield from wait_for(lambda: cal.check is not None and not cal.check.found, 20)
        res["no_mat"] = cal.mat_text
        yield from snap(f"calibration-nomat-{size}")
        cal.feed.source.advance(with_mat=True)
        yield from wait_for(lambda: cal.check is not None and cal.check.found, 20)
    tap(tr("cal_next"))
    yield 0.1
    tap(tr("cal_lock_button"))
    yield 0.1
    res["demo_lock"] = cal.status
    yield from snap(f"calibration-lock-{size}")
    if "short" not in args:
        from hardware.picamera import Picamera2Source

        sys.path.insert(0, str(Path(__file__).parent))
        import fake_picamera2

        camera = Picamera2Source(module=fake_picamera2, lock_after=0.2)
        camera.open()
        cal.start_preview(camera)
        yield 0.5
        res["first_lock"] = str(camera.lock)
        tap(tr("cal_lock_button"))
        yield 0.05
        res["measuring"] = cal.status
        yield from wait_for(lambda: cal.status.startswith(tr("cal_locked", path="", ms=0, gain=0, red=0,
                                                                   blue=0)[:7]), 10)
        res["locked"] = cal.status
        res["config_lock"] = str(app().config_file.camera_lock)
        res["relocked_controls"] = camera._camera.controls[-2:]
        cal.start_preview()
        yield from wait_for(lambda: cal.feed.latest_frame is not None, 10)
    tap(tr("cal_next"))
    yield 0.1
    tap(tr("cal_read", kind="tokens"))
    yield from wait_for(lambda: cal.status and cal.status != tr("cal_reading"), 20)
    res["read"] = cal.status
    res["labels"] = len(cal.ids.preview.objects)
    yield from snap(f"calibration-check-{size}")
    tap(tr("cal_done"))
    yield 0.1
    res["after_done"] = app().sm.current


def scenario_cache(res: dict[str, Any], args: list[str]):
    """Home and past games replay each stored game once per change, not each time they open."""
    import ui.tableapp
    from companion.session import Session

    replays: list[int] = []
    real = ui.tableapp.records.replay

    def counted(record: Any, *a: Any, **kw: Any) -> Any:
        replays.append(1)
        return real(record, *a, **kw)

    yield 0.3
    store = app().store
    for players in (["Ann", "Bob"], ["Cy", "Dee"], ["Ed", "Flo"]):
        Session.new(store, "bag-of-butts", players, {})
    ui.tableapp.records.replay = counted
    shown = []
    for name in ("home", "history", "home", "history"):
        app().go(name)
        yield 0.05
        shown.append(screen().resume_text if name == "home" else screen().stats_text)
    res["replays_first"] = len(replays)
    res["shown"] = shown
    session = Session.resume(store, store.games()[-1].id)
    bag = sorted(Counter(session.game.view()["bag"]).elements())
    session.confirm({"type": "draw", "groups": [bag[:3], bag[3:6], bag[6:]]})
    app().go("home")
    yield 0.05
    res["replays_after_change"] = len(replays)
    res["resume_after_change"] = screen().resume_text


def wait_for(condition: Any, seconds: float) -> Any:
    """Let the clock run until ``condition()`` holds (or ``seconds`` pass)."""
    for _ in range(int(seconds / 0.1)):
        if condition():
            return
        yield 0.1


def readings_label(obj: dict[str, Any], kind: str) -> str:
    from ui.readings import label

    return label(obj, kind)


def without_reader() -> None:
    """Readings come from the test, handed over as the camera thread does: no reader runs on the
    demo pictures meanwhile (its readings would replace the test's)."""
    import ui.screens

    ui.screens.load_reader = lambda kind, profile=None: None
    note = ui.screens.TableScreen.start_feed

    def start_feed(self: Any) -> None:
        note(self)
        self.camera_text = "Test drive: the readings are handed in by the test."

    ui.screens.TableScreen.start_feed = start_feed


SCENARIOS = {"demo": scenario_demo, "buttons": scenario_buttons, "ndb": scenario_ndb, "billy": scenario_billy,
             "bag": scenario_bag, "unfinished": scenario_unfinished, "resume": scenario_resume, "tour": scenario_tour,
             "calibration": scenario_calibration, "cache": scenario_cache, "late": scenario_late,
             "billy_parts": scenario_billy_parts}


def main() -> int:
    name, out, *args = sys.argv[1:]
    app_args = args[args.index("--") + 1:] if "--" in args else []
    args = args[: args.index("--")] if "--" in args else args
    res: dict[str, Any] = {}
    from kivy.clock import Clock

    gen = SCENARIOS[name](res, args)

    def step(_dt: float) -> None:
        try:
            delay = next(gen)
        except StopIteration:
            Path(out).write_text(json.dumps(res, default=str))
            app().stop()
            return
        except Exception:
            res["error"] = traceback.format_exc()
            res["buttons_at_error"] = buttons()
            Path(out).write_text(json.dumps(res, default=str))
            app().stop()
            return
        Clock.schedule_once(step, delay)

    if name not in ("demo", "calibration", "late"):  # patched once the window exists: importing the screens earlier would open it
        Clock.schedule_once(lambda _dt: without_reader(), 0)
    Clock.schedule_once(step, 0.2)
    from ui.app import main as ui_main

    status = ui_main(app_args)
    return status


if __name__ == "__main__":
    sys.exit(main())
