"""The screens. Each holds typed Kivy properties its .kv layout (ui/kv/<name>.kv) shows.

Screens read the engine only through ``Session`` and the game's ``summary()``, ``view()`` and
``score_pad()``; they build events from the players' taps and the camera's reading and hand them
to ``Session.confirm``. No score is computed here.
"""

from __future__ import annotations

import json
import random
import time
from collections.abc import Callable
from typing import Any

from kivy.app import App
from kivy.clock import Clock
from kivy.graphics import Color, Rectangle
from kivy.graphics.texture import Texture
from kivy.metrics import dp, sp
from kivy.properties import BooleanProperty, ListProperty, NumericProperty, ObjectProperty, StringProperty
from kivy.uix.button import Button
from kivy.uix.modalview import ModalView
from kivy.uix.screenmanager import Screen

from companion import records
from companion.core import RulesError, names_list
from companion.games import GAMES, game_class
from companion.records import RecordError
from companion.store import StoreError
from ui import panels, readings
from ui.camera import TableFeed, load_reader, open_source
from ui.i18n import GAME_NAMES, piece_name, tr
from ui.readings import ReadingError
from ui.rules_text import RULES
from ui.widgets import Picker

STAR_MARK = "\n[b]STAR[/b]"  # a cell chosen for a star says so in words
GPIO_CHOICES = (5, 6, 12, 13, 16, 17, 19, 20, 21, 22, 23, 24, 25, 26, 27)  # BCM lines free on a plain Pi
STATUS_HOLD = 4.0  # seconds a settings message (saved, or why not) stays before the preview figures return
SIGNAL_WORDS = {
    "reset": ("Reset!", "Reset!"), "extra-turn": ("Extra turn!", "Extra beurt!"), "bust": ("Bust!", "Pech!"),
    "round-end": ("End of the round.", "Einde van de ronde."), "game-over": ("Game over!", "Spel voorbij!"),
}


def app() -> Any:
    return App.get_running_app()


def game_title(game: str, lang: str) -> str:
    """The game's name from its engine, or the record name when the engine is not installed."""
    try:
        return game_class(game).title(lang)
    except RulesError:
        return GAME_NAMES.get(game, game)


def blit(texture: Texture | None, frame: Any, view: Any, frame_size: tuple[int, int]) -> Texture:
    """Update the picture's texture in place; a new texture only when the preview size changes."""
    h, w = frame.shape[:2]
    if texture is None or texture.size != (w, h):
        texture = Texture.create(size=(w, h), colorfmt="bgr")
        texture.flip_vertical()
        texture.blit_buffer(frame.reshape(-1), colorfmt="bgr", bufferfmt="ubyte")
        view.show_texture(texture, frame_size)
    else:
        texture.blit_buffer(frame.reshape(-1), colorfmt="bgr", bufferfmt="ubyte")
        view.canvas.ask_update()
    return texture


class FramePreview:
    """Hands camera frames from the grab thread to a screen's picture: the newest frame is drawn,
    frames that arrive before it was drawn are dropped, never queued."""

    picture = "view"  # the id of the picture widget in the screen's .kv
    _frame_pending = False

    def _frame_arrived(self, frame: Any, size: tuple[int, int]) -> None:
        if self._frame_pending:
            return
        self._frame_pending = True
        Clock.schedule_once(lambda dt: self.show_frame(frame, size), 0)

    def show_frame(self, frame: Any, size: tuple[int, int]) -> None:
        """Blit a BGR preview frame into the picture's texture (made once per preview size)."""
        self._frame_pending = False
        self.texture = blit(self.texture, frame, self.ids[self.picture], size)


class HomeScreen(Screen):
    """Choose a game, resume the unfinished one, or go to past games, rules and settings."""

    resume_text = StringProperty("")
    resume_id = NumericProperty(-1)
    games = ListProperty()

    def refresh(self) -> None:
        self.games = list(GAMES)
        offer = app().unfinished()
        self.resume_id, self.resume_text = offer if offer else (-1, "")
        grid = self.ids.games
        grid.clear_widgets()
        for game in self.games:
            btn = Button(text=game_title(game, app().lang), font_size=sp(22), bold=True)
            btn.bind(on_release=lambda _b, g=game: app().choose_game(g))
            grid.add_widget(btn)

    def on_enter(self, *_: Any) -> None:
        self.refresh()


class PlayersScreen(Screen):
    """Names, colours and seats; the first name starts. Remembers the last game's players."""

    game = StringProperty("bag-of-butts")
    title = StringProperty("")
    count = NumericProperty(3)
    min_players = NumericProperty(2)
    max_players = NumericProperty(4)
    names = ListProperty()
    colours = ListProperty()
    boards = ListProperty()

    def __init__(self, **kwargs: Any):
        super().__init__(**kwargs)
        self.board_source: Any = None

    def setup(self, game: str) -> None:
        self.game = game
        try:
            cls = game_class(game)
        except RulesError:
            app().message = tr("not_installed", app().lang, game=game)
            return
        self.min_players, self.max_players = cls.min_players, cls.max_players
        self.title = cls.title(app().lang)
        names, options = self.remembered()
        self.count = min(max(len(names) or 3, self.min_players), self.max_players)
        names = names + [""] * 6
        self.names = [names[i] or tr("player_n", app().lang, n=i + 1) for i in range(6)]
        colours = options.get("colours", {}) if isinstance(options.get("colours"), dict) else {}
        self.colours = [colours.get(n, readings.PLAYER_COLOURS[i % 4]) for i, n in enumerate(self.names)]
        boards = options.get("boards", {}) if isinstance(options.get("boards"), dict) else {}
        self.boards = [" ".join(boards.get(n, [])) for n in self.names]
        self.rebuild()

    def remembered(self) -> tuple[list[str], dict[str, Any]]:
        """Players (and options) of the latest game of this kind, else of any game."""
        try:
            infos = app().store.games()
            same = [i for i in infos if i.game == self.game]
            pick = (same or infos or [None])[0]
            if pick is None:
                return [], {}
            record = app().store.record(pick.id)
            return list(record.players), dict(record.options) if pick.game == self.game else {}
        except StoreError:
            return [], {}

    def rebuild(self, *_: Any) -> None:
        rows = self.ids.rows
        rows.clear_widgets()
        from kivy.uix.boxlayout import BoxLayout
        from kivy.uix.textinput import TextInput

        for i in range(int(self.count)):
            row = BoxLayout(size_hint_y=None, height=dp(52), spacing=dp(6))
            name = TextInput(text=self.names[i], multiline=False, font_size=sp(20), write_tab=False)
            name.bind(text=lambda _w, t, i=i: self.names.__setitem__(i, t))
            row.add_widget(name)
            if self.game == "bag-of-butts":
                btn = Button(text=piece_name(self.colours[i], app().lang), font_size=sp(18), size_hint_x=0.45)
                btn.bind(on_release=lambda b, i=i: self.next_colour(i, b))
                row.add_widget(btn)
            if self.game == "buttons":
                board = TextInput(text=self.boards[i], multiline=False, font_size=sp(14), hint_text="RYGBRY ...")
                board.bind(text=lambda _w, t, i=i: self.boards.__setitem__(i, t))
                row.add_widget(board)
                read = Button(text=tr("read_board", app().lang), font_size=sp(15), size_hint_x=0.3)
                read.bind(on_release=lambda _b, i=i: self.read_board(i))
                row.add_widget(read)
            rows.add_widget(row)

    def read_board(self, i: int) -> None:
        """Buttons: read player i's board layout with the camera (in a thread; the demo table
        shows the next rendered board each time)."""
        import threading

        lang = app().lang
        app().message = tr("reading_board", lang)

        def work() -> None:
            try:
                if self.board_source is None:
                    self.board_source = open_source(app().camera_spec, "board", app().config_file)
                    self.board_source.open()
                if hasattr(self.board_source, "advance"):
                    self.board_source.advance()
                frame = self.board_source.read()
                reader = load_reader("board", app().profile("board"), in_process=False)
                if reader is None or frame is None:
                    raise ReadingError(readings.Text(tr("no_vision", "en", kind="board"),
                                                     tr("no_vision", "nl", kind="board")))
                rows = readings.board_rows([dict(o) for o in reader(frame).objects])
                result = (" ".join(rows), "")
            except ReadingError as exc:
                result = (None, exc.text(lang))
            except Exception as exc:  # a camera failing mid-read: say so, keep the screen
                result = (None, str(exc) or type(exc).__name__)
            Clock.schedule_once(lambda dt: self._board_read(i, *result), 0)

        threading.Thread(target=work, daemon=True).start()

    def _board_read(self, i: int, rows: str | None, problem: str) -> None:
        if rows is not None:
            self.boards[i] = rows
            app().message = ""
            self.rebuild()
        else:
            app().message = problem

    def on_pre_leave(self, *_: Any) -> None:
        """Free the camera before the next screen's on_enter opens it (Kivy runs that before on_leave)."""
        if self.board_source is not None:
            self.board_source.close()
            self.board_source = None

    def next_colour(self, i: int, button: Button) -> None:
        order = readings.PLAYER_COLOURS
        self.colours[i] = order[(order.index(self.colours[i]) + 1) % len(order)]
        button.text = piece_name(self.colours[i], app().lang)

    def more(self, step: int) -> None:
        self.count = min(max(self.count + step, self.min_players), self.max_players)
        self.rebuild()

    def start(self) -> None:
        players = [n.strip() for n in self.names[: int(self.count)]]
        options: dict[str, Any] = {}
        if self.game == "bag-of-butts":
            options["colours"] = dict(zip(players, self.colours[: len(players)], strict=True))
        if self.game == "buttons" and any(b.strip() for b in self.boards[: len(players)]):
            options["boards"] = {p: self.boards[i].upper().split() for i, p in enumerate(players)}
        app().start_game(self.game, players, options)


class TableScreen(FramePreview, Screen):
    """The live table: camera picture with labelled pieces, the engine's state, Confirm."""

    game = StringProperty("")
    kind = StringProperty("tokens")
    title = StringProperty("")
    scores_text = StringProperty("")
    next_text = StringProperty("")
    state_text = StringProperty("")
    teach_text = StringProperty("")
    error_text = StringProperty("")
    reading_text = StringProperty("")
    announce_text = StringProperty("")
    camera_text = StringProperty("")
    confirm_text = StringProperty("")
    edited = BooleanProperty(False)  # the players corrected the reading: vision no longer replaces it
    over = BooleanProperty(False)
    wants_reading = BooleanProperty(True)
    takes = ListProperty()
    holder = StringProperty("")  # Nicht die Bohne!: the token holder named by the players

    def __init__(self, **kwargs: Any):
        super().__init__(**kwargs)
        self.feed: TableFeed | None = None
        self.source: Any = None
        self.texture: Texture | None = None
        self.latencies: list[float] = []
        self.objects: list[dict[str, Any]] = []
        self.teaching: list[str] = []
        self.demo_rng = random.Random(1)
        self.camera_objects: list[dict[str, Any]] = []  # the last reading, restored by Clear
        self.kept: dict[str, list[str]] = {}  # Blasting Billy: loot already read owner by owner
        self.kept_session: Any = None  # ... in this game

    # -- camera ------------------------------------------------------------------------------------
    def start_feed(self) -> None:
        if self.feed is not None:
            return
        self.source = open_source(app().camera_spec, self.kind, app().config_file)
        app().demo = bool(getattr(self.source, "is_demo", False))
        reader = load_reader(self.kind, app().profile(self.kind))
        note = getattr(self.source, "note", "")
        self.camera_text = " ".join(t for t in (tr("demo_note", app().lang) if app().demo else "", note) if t)
        if reader is None:
            self.camera_text = (self.camera_text + " " + tr("no_vision", app().lang, kind=self.kind)).strip()
        if hasattr(self.source, "on_found"):  # the demo table that keeps looking for the camera
            self.source.on_found = lambda: Clock.schedule_once(lambda dt: self.camera_found(), 0)
        self.feed = TableFeed(self.source, reader, self._frame_arrived, self._reading_arrived, self._feed_error)
        self.next_scene()
        self.feed.start()

    def camera_found(self) -> None:
        """The camera came (plugged in late): the table is live, the demo's reading is dropped."""
        if self.feed is None or getattr(self.source, "is_demo", True):
            return
        app().demo = False
        self.camera_text = tr("camera_found", app().lang)
        self.camera_objects = []
        if not self.edited:
            self.set_objects([])

    def stop_feed(self) -> None:
        if self.feed is not None:
            self.feed.stop()
            self.feed = None

    def _reading_arrived(self, objects: list[dict], t_frame: float) -> None:
        Clock.schedule_once(lambda dt: self.show_reading(objects, t_frame), 0)

    def _feed_error(self, message: str) -> None:
        Clock.schedule_once(lambda dt: setattr(self, "camera_text", tr("camera_error", app().lang, why=message)), 0)

    def show_reading(self, objects: list[dict], t_frame: float | None = None) -> None:
        """A new reading from the camera (ignored once the players corrected it by hand)."""
        if t_frame is not None:
            self.latencies.append((time.perf_counter() - t_frame) * 1000)
        self.camera_objects = [dict(o) for o in objects]
        if self.edited:
            return
        self.set_objects(objects)

    def set_objects(self, objects: list[dict]) -> None:
        self.objects = [dict(o) for o in objects]
        self.ids.view.objects = self.objects
        self.reading_text = (tr("reading", app().lang, text=readings.summary(self.objects, self.kind, app().lang))
                             if self.objects else tr("nothing_read", app().lang))
        doubtful = sum(1 for o in self.objects if readings.unsure(o))
        if doubtful:
            self.reading_text += "\n" + tr("check_unsure", app().lang, n=doubtful)
        if self.takes:
            self.reading_text += "\n" + tr("takes_order", app().lang, names=", ".join(self.takes))
        if self.kept:
            names = ", ".join(f"{o} ({len(cards)})" for o, cards in self.kept.items())
            self.reading_text += "\n" + tr("loot_kept", app().lang, names=names)
        self.update_confirm()

    # -- corrections -------------------------------------------------------------------------------
    def owners(self) -> list[str]:
        players = list(app().session.game.players)
        return ["Billy", *players] if self.game == "blasting-billy" else players

    def open_picker(self, index: int | None) -> None:
        """Correct a piece (tapped on the picture) or add one (``index`` None)."""
        current = self.objects[index] if index is not None else {}
        if self.kind == "dice" and index is not None:
            current = {**current, "kind": readings.die_kind(current)}
        rows = len(self.owners()) if self.game in ("blasting-billy", "nicht-die-bohne") else 1
        fields = readings.picker_fields(self.kind, self.game, rows)

        def done(result: dict | None) -> None:
            if result is None:
                return
            self.error_text = ""
            objects = list(self.objects)
            if index is None:
                if result:
                    objects.append(readings.new_piece(self.kind, objects, result))
            elif result:
                objects[index] = {**objects[index], **result, "confidence": 1.0}
            else:
                del objects[index]
            self.edited = True
            self.set_objects(objects)

        self.picker = Picker(fields, current, app().lang, done, removable=index is not None)
        self.picker.open()

    def clear_reading(self) -> None:
        """Forget the corrections: the camera's reading shows again."""
        self.edited = False
        self.error_text = ""
        self.set_objects(self.camera_objects)

    # -- the game ----------------------------------------------------------------------------------
    def on_pre_enter(self, *_: Any) -> None:
        session = app().session
        if session is None:
            return
        game = session.game.name
        if game != self.game:
            self.stop_feed()
            self.texture = None
        self.game = game
        if self.kept_session is not session:
            self.kept, self.kept_session = {}, session
        self.kind = readings.VISION_KIND.get(game, "tokens")
        self.ids.view.kind = self.kind
        self.ids.view.on_piece = self.open_picker
        self.teaching = [a.explanation(app().lang) for a in session.log[-3:]]
        self.refresh()
        self.start_feed()

    def on_leave(self, *_: Any) -> None:
        self.stop_feed()

    def refresh(self) -> None:
        """Show the engine's snapshot: scores, whose turn, the game's own state, the choices."""
        session = app().session
        if session is None:
            return
        lang = app().lang
        game = session.game
        try:
            summary = game.summary()
            view = game.view()
        except Exception as exc:  # an engine bug must not take the table down
            self.error_text = str(exc)
            return
        self.title = game.title(lang)
        self.over = bool(summary["over"])
        nxt = summary.get("next")
        self.scores_text = "\n".join(f"{p}: {summary['scores'].get(p, 0)}" for p in game.players)
        self.show_scores(game.players, summary["scores"], nxt)
        if summary["over"]:
            winners = summary["winners"]
            self.next_text = (tr("billy_wins", lang) if winners == ["Billy"]
                              else tr("game_over", lang, names=names_list(winners, lang)))
            why = game.outcome.why(lang) if game.outcome else ""
            if why:
                self.next_text += "\n" + why
        else:
            self.next_text = tr("next", lang, name=nxt or "-")
        self.state_text = panels.state_lines(view, lang)
        self.wants_reading = panels.confirm_wanted(view)
        self.teach_text = "\n".join(self.teaching[-3:])
        self.set_objects(self.objects)
        self.build_actions()

    def show_scores(self, players: tuple[str, ...], scores: dict[str, int], active: str | None) -> None:
        """One column per player: the name, and the score big enough to read across the table."""
        box = self.ids.scores
        box.clear_widgets()
        from kivy.uix.label import Label

        for p in players:
            cell = Label(text=f"[size={int(sp(15))}]{p}[/size]\n[b]{scores.get(p, 0)}[/b]", markup=True,
                         font_size=sp(34), halign="center", valign="middle", shorten=True,
                         color=(0.1, 0.1, 0.1, 1) if p == active else (1, 1, 1, 1))
            cell.bind(size=lambda c, sz: (setattr(c, "text_size", sz), setattr(c, "font_size", sz[1] * 0.5)))
            with cell.canvas.before:
                Color(*((0.55, 0.85, 1, 1) if p == active else (0.2, 0.22, 0.26, 1)))
                rect = Rectangle(pos=cell.pos, size=cell.size)
            cell.bind(pos=lambda c, v, r=rect: setattr(r, "pos", v), size=lambda c, v, r=rect: setattr(r, "size", v))
            box.add_widget(cell)

    def update_confirm(self) -> None:
        key = {"bag-of-butts": "draw_from_reading", "buttons": "roll_from_reading",
               "nicht-die-bohne": "phase_from_reading", "blasting-billy": "reveal_from_reading"}.get(self.game, "confirm")
        self.confirm_text = tr(key, app().lang)

    def reading_event(self) -> dict[str, Any]:
        """The event the camera's (corrected) reading stands for."""
        if not self.objects and not (self.game == "blasting-billy" and self.kept):
            raise ReadingError(readings.Text(tr("need_reading", "en"), tr("need_reading", "nl")))
        if self.game == "bag-of-butts":
            return readings.draw_event(self.objects)
        if self.game == "buttons":
            return readings.roll_event(self.objects)
        if self.game == "nicht-die-bohne":
            return readings.phase_event(self.objects, list(app().session.game.players), list(self.takes))
        return readings.reveal_event(self.objects, self.owners(), self.kept)

    def confirm(self) -> None:
        """The big button: the reading becomes the event, if the engine accepts it."""
        try:
            event = self.reading_event()
        except ReadingError as exc:
            self.error_text = tr("refused", app().lang, why=exc.text(app().lang))
            return
        self.send(event)

    def send(self, event: dict[str, Any]) -> bool:
        """Confirm one event with the engine and the score pad; show the refusal in words."""
        lang = app().lang
        try:
            applied = app().session.confirm(event)
        except RulesError as exc:
            self.error_text = tr("refused", lang, why=exc.text(lang))
            app().signal(frozenset(), refused=True)
            return False
        except StoreError as exc:
            self.error_text = tr("store_error", lang, why=str(exc))
            app().signal(frozenset(), refused=True)
            return False
        self.error_text = ""
        app().signal(applied.signals)
        self.teaching.append(applied.explanation(lang))
        self.announce_text = " ".join(SIGNAL_WORDS[s][lang == "nl"] for s in sorted(applied.signals) if s in SIGNAL_WORDS)
        if event.get("type") in ("draw", "roll", "phase", "reveal"):
            self.takes = []
            self.holder = ""
            self.kept = {}
            self.edited = False
            self.objects = []
            self.camera_objects = []
        self.next_scene()
        self.refresh()
        return True

    def next_scene(self) -> None:
        """The demo table moves on to the picture the game needs next (a real camera just keeps
        looking)."""
        if self.source is None or not hasattr(self.source, "advance") or app().session is None:
            return
        scene = panels.demo_scene(app().session.game.view(), self.demo_rng)
        if scene is not None:
            self.source.advance(**scene)

    def undo(self) -> None:
        lang = app().lang
        try:
            event = app().session.undo()
        except (StoreError, RecordError) as exc:
            self.error_text = tr("store_error", lang, why=str(exc))
            return
        self.error_text = ""
        self.announce_text = tr("took_back" if event else "nothing_undo", lang)
        self.teaching = [a.explanation(lang) for a in app().session.log[-3:]]
        self.next_scene()
        self.refresh()

    # -- per-game choices --------------------------------------------------------------------------
    def build_actions(self) -> None:
        box = self.ids.actions
        box.clear_widgets()
        if self.over:
            return
        for text, callback in self.choices():
            btn = Button(text=text, font_size=sp(16), size_hint_y=None, height=dp(52),
                         halign="center", valign="middle")
            btn.bind(size=lambda b, s: setattr(b, "text_size", (s[0] - dp(8), None)))
            btn.bind(on_release=lambda _b, cb=callback: cb())
            box.add_widget(btn)

    def choices(self) -> list[tuple[str, Any]]:
        """The player's choices besides Confirm, as the record format names them."""
        lang = app().lang
        game = app().session.game
        out: list[tuple[str, Any]] = []
        if self.game == "bag-of-butts":
            for text, event in panels.bag_of_butts_choices(game.view(), lang):
                out.append((text, lambda e=event: self.send(e)))
        elif self.game == "buttons":
            view = game.view()
            for text, event in panels.buttons_choices(view, lang):
                out.append((text, lambda e=event: self.send(e)))
            if view.get("stars_due"):
                due = view["stars_due"][0]
                out.append((tr("stars_button", lang, name=due["player"]) + f" ({due['stars']})",
                            lambda d=due: self.open_board(d["player"], stars=d["stars"])))
            out.append((tr("boards", lang), lambda: self.open_board(view.get("active") or game.players[0])))
        elif self.game == "nicht-die-bohne":
            view = game.view()
            if view.get("round_complete"):
                out.append((tr("round_end", lang), lambda: self.send({"type": "round"})))
            elif view.get("token") is None and not self.holder:  # after a round read from the table
                for p in game.players:
                    out.append((tr("has_token", lang, name=p), lambda p=p: self.set_holder(p)))
            else:
                for text, p in panels.taking_choices(game, list(self.takes), lang, self.holder or None):
                    out.append((text, lambda p=p: self.toggle_take(p)))
                if self.takes:
                    out.append((tr("take_back", lang), lambda: self.toggle_take(self.takes[-1])))
                out.append((tr("round_from_table", lang), self.round_from_table))
        elif self.game == "blasting-billy" and not game.view().get("revealed"):
            rest = [o for o in self.owners() if o not in self.kept]
            if len(rest) > 1:  # the last loot is read by Confirm itself
                out.append((tr("keep_loot", lang, name=rest[0]), lambda o=rest[0]: self.keep_loot(o)))
            if self.kept:
                out.append((tr("loot_again", lang), self.forget_loot))
        return out

    def keep_loot(self, owner: str) -> None:
        """Blasting Billy: the cards read now are ``owner``'s whole loot; the next loot goes under
        the camera (a table too small for every loot at once, or cards too small to read)."""
        cards = readings.loot_of(self.objects)
        if not cards:
            self.error_text = tr("refused", app().lang, why=tr("no_loot", app().lang, name=owner))
            return
        self.kept[owner] = cards
        self.error_text = ""
        self.edited = False
        self.camera_objects = []
        self.set_objects([])
        self.build_actions()

    def forget_loot(self) -> None:
        """Blasting Billy: start reading the loot again from Billy's."""
        self.kept = {}
        self.set_objects(self.camera_objects)
        self.build_actions()

    def round_from_table(self) -> None:
        """Nicht die Bohne!: a round entered from each player's collected cards (one row each)."""
        try:
            event = readings.collected_event(self.objects, list(app().session.game.players))
        except ReadingError as exc:
            self.error_text = tr("refused", app().lang, why=exc.text(app().lang))
            return
        if self.send(event):
            self.objects = []
            self.edited = False
            self.set_objects([])

    def set_holder(self, player: str) -> None:
        """Nicht die Bohne!: who holds the bean token, when the record cannot tell."""
        self.holder = player
        self.build_actions()

    def toggle_take(self, player: str) -> None:
        """Nicht die Bohne!: tap the players whose card was taken, in taking order."""
        self.takes = [p for p in self.takes if p != player] if player in self.takes else [*self.takes, player]
        self.set_objects(self.objects)
        self.build_actions()

    def open_board(self, player: str, stars: int = 0) -> None:
        """Buttons: a player's board with the cells the last roll allows (tap one to place), or,
        with ``stars``, their button cells to choose where the stars go."""
        from kivy.uix.boxlayout import BoxLayout
        from kivy.uix.label import Label

        from ui.widgets import BoardView

        lang = app().lang
        view = app().session.game.view()
        popup = ModalView(size_hint=(0.98, 0.98), auto_dismiss=False)
        box = BoxLayout(orientation="vertical", spacing=dp(4), padding=dp(6))
        chosen: list[list[int]] = []
        covered = view["buttons"].get(player, [])
        if stars:
            marked, tappable = covered, covered
            title = tr("stars_for", lang, name=player, n=stars)
        else:
            marked, tappable = view["legal"].get(player, []), view["placeable"].get(player, [])
            title = tr("board_of", lang, name=player, n=len(tappable))
        head = Label(text=title, size_hint_y=None, height=dp(30), font_size=sp(17))
        box.add_widget(head)

        def cell(r: int, c: int) -> None:
            if not stars:
                popup.dismiss()
                self.send({"type": "place", "player": player, "row": r, "col": c})
                return
            cell_button = board.cells[(r, c)]
            if [r, c] in chosen:
                chosen.remove([r, c])
                cell_button.text = cell_button.text.replace(STAR_MARK, "")
            else:
                chosen.append([r, c])
                cell_button.text += STAR_MARK
            head.text = f"{title} ({len(chosen)})"

        board = BoardView(view["boards"].get(player, []), covered, view.get("stars", {}).get(player, []),
                          marked, tappable, lang, on_cell=cell)
        box.add_widget(board)
        bar = BoxLayout(size_hint_y=None, height=dp(52), spacing=dp(4))
        if not stars:
            for p in app().session.game.players:
                other = Button(text=p, font_size=sp(16), bold=p == player)
                other.bind(on_release=lambda _b, p=p: (popup.dismiss(), self.open_board(p)))
                bar.add_widget(other)
        else:
            ok = Button(text="OK", font_size=sp(20), background_color=(0.2, 0.7, 0.3, 1))

            def place(*_: Any) -> None:
                popup.dismiss()
                self.send({"type": "stars", "player": player, "cells": sorted(chosen)})

            ok.bind(on_release=place)
            bar.add_widget(ok)
        close = Button(text=tr("cancel", lang), font_size=sp(18))
        close.bind(on_release=lambda *_: popup.dismiss())
        bar.add_widget(close)
        box.add_widget(bar)
        popup.add_widget(box)
        popup.open()
        self.board_popup = popup


class PadScreen(Screen):
    """The score pad as on paper: a row per turn or round; undo and redo."""

    title = StringProperty("")
    rows_data = ListProperty()
    status = StringProperty("")

    def refresh(self) -> None:
        session = app().session
        if session is None:
            return
        try:
            self.rows_data = session.game.score_pad(app().lang)
        except Exception as exc:
            self.status = str(exc)
            return
        self.title = session.game.title(app().lang)

    def undo(self) -> None:
        try:
            event = app().session.undo()
        except (StoreError, RecordError) as exc:
            self.status = tr("store_error", app().lang, why=str(exc))
            return
        self.status = tr("took_back" if event else "nothing_undo", app().lang)
        self.refresh()

    def redo(self) -> None:
        try:
            applied = app().session.redo()
        except (StoreError, RulesError) as exc:
            self.status = getattr(exc, "text", None) and exc.text(app().lang) or str(exc)
            return
        self.status = applied.explanation(app().lang) if applied else tr("nothing_redo", app().lang)
        self.refresh()


class HistoryScreen(Screen):
    """Past games: per-player statistics, replay one event by event, export as a record file."""

    stats_text = StringProperty("")
    replay_text = StringProperty("")
    step_text = StringProperty("")
    status = StringProperty("")
    rows_data = ListProperty()
    game_id = NumericProperty(-1)
    step = NumericProperty(0)
    total = NumericProperty(0)

    def refresh(self) -> None:
        lang = app().lang
        box = self.ids.games
        box.clear_widgets()
        stats: dict[str, dict[str, int]] = {}
        try:
            infos = app().store.games()
        except StoreError as exc:
            self.status = str(exc)
            return
        for info in infos:
            summary = app().game_summary(info)
            if summary is None:
                status = tr("does_not_replay", lang)
            else:
                status = (tr("won_by", lang, names=", ".join(summary["winners"])) if summary["over"]
                          else tr("unfinished", lang))
            if summary and summary["over"]:
                for p in info.players:
                    s = stats.setdefault(p, {"played": 0, "wins": 0, "best": summary["scores"].get(p, 0)})
                    s["played"] += 1
                    s["wins"] += p in summary["winners"]
                    s["best"] = max(s["best"], summary["scores"].get(p, 0))
            when = time.strftime("%d-%m %H:%M", time.localtime(info.updated))
            btn = Button(text=f"{when}  {game_title(info.game, lang)}\n{', '.join(info.players)}: {status}",
                         font_size=sp(14), size_hint_y=None, height=dp(56), halign="left", valign="middle")
            btn.bind(size=lambda b, s: setattr(b, "text_size", (s[0] - dp(10), None)))
            btn.bind(on_release=lambda _b, i=info.id, n=info.events: self.open_game(i, n))
            box.add_widget(btn)
        self.stats_text = "\n".join(tr("stats", lang, name=p, **s) for p, s in sorted(stats.items())) \
            if stats else (tr("no_games", lang) if not infos else "")

    def open_game(self, game_id: int, events: int) -> None:
        self.game_id, self.total = game_id, events
        self.show_step(events)

    def show_step(self, step: int) -> None:
        """The game after its first ``step`` events, with the explanation of the last of them."""
        if self.game_id < 0:
            return
        lang = app().lang
        self.step = min(max(step, 0), self.total)
        try:
            record = app().store.record(self.game_id)
            game = records.replay(record, upto=max(self.step - 1, 0))
            explanation = tr("start_of_game", lang)
            if self.step > 0:
                explanation = game.apply(record.events[self.step - 1]).explanation(lang)
            self.rows_data = game.score_pad(lang)
        except (RecordError, StoreError, RulesError) as exc:
            self.replay_text = getattr(exc, "text", None) and exc.text(lang) or str(exc)
            return
        self.replay_text = explanation
        self.step_text = tr("step", lang, n=self.step, total=self.total)

    def export(self) -> None:
        """Write the shown game as a record file next to the score pad."""
        if self.game_id < 0:
            return
        try:
            record = app().store.record(self.game_id)
            out = app().exports_dir() / f"game-{self.game_id}-{record.game}.json"
            out.parent.mkdir(parents=True, exist_ok=True)
            out.write_text(json.dumps(record.to_json(), indent=1, ensure_ascii=False) + "\n", encoding="utf-8")
        except (StoreError, OSError) as exc:
            self.status = str(exc)
            return
        self.status = tr("exported", app().lang, path=str(out))


class RulesScreen(Screen):
    """A rules page per game, in the current language."""

    game = StringProperty("bag-of-butts")
    text = StringProperty("")

    def refresh(self) -> None:
        session = app().session
        if session is not None:
            self.game = session.game.name
        self.show(self.game)

    def show(self, game: str) -> None:
        self.game = game
        pair = RULES.get(game, ("", ""))
        self.text = pair[app().lang == "nl"]


class SettingsScreen(FramePreview, Screen):
    """Language, camera and its preview, teaching the reader the players' own pieces, GPIO pins."""

    picture = "preview"

    camera_status = StringProperty("")
    teach_kind = StringProperty("tokens")
    teach_class = StringProperty("pink")
    teach_status = StringProperty("")
    gpio_text = StringProperty("")

    def __init__(self, **kwargs: Any):
        super().__init__(**kwargs)
        self.feed: TableFeed | None = None
        self.texture: Texture | None = None
        self.examples: dict[str, list[Any]] = {}

    def refresh(self) -> None:
        pins = getattr(app().config_file, "gpio", None)
        used = pins.used() if pins is not None else {}
        shown = " / ".join(str(used.get(r, "-")) for r in ("confirm", "undo", "next"))
        self.gpio_text = tr("gpio", app().lang, pins=shown if used else tr("gpio_none", app().lang))

    def pin(self, role: str, _shown: str = "") -> str:
        """The pin of a GPIO role as shown on its button ('-' when none; ``_shown`` rebinds kv)."""
        value = getattr(getattr(app().config_file, "gpio", None), role, None)
        return "-" if value is None else str(value)

    def cycle_pin(self, role: str) -> None:
        """Choose the BCM pin of a GPIO button (or none): each tap moves to the next free pin."""
        import dataclasses

        config = app().config_file
        if config is None:
            return
        taken = {p for r, p in config.gpio.used().items() if r != role}
        choices = [None, *[p for p in GPIO_CHOICES if p not in taken]]
        now = getattr(config.gpio, role)
        nxt = choices[(choices.index(now) + 1) % len(choices)] if now in choices else None
        app().config_file = dataclasses.replace(config, gpio=dataclasses.replace(config.gpio, **{role: nxt}))
        self.refresh()

    def save(self) -> None:
        """Write language, camera and GPIO pins to the config file (pins apply from the next start)."""
        import dataclasses

        try:
            from companion.config import Config, save_config

            config = app().config_file or Config()
            config = dataclasses.replace(config, language=app().lang, camera=app().camera_spec)
            path = save_config(config)
        except (ImportError, OSError, ValueError) as exc:
            self._hold_status(str(exc))
            return
        app().config_file = config
        self._hold_status(tr("saved_to", app().lang, path=str(path)))

    def _hold_status(self, text: str) -> None:
        """Show ``text`` where the preview's figures go, for long enough to read it: the figures come
        back on the next tick after STATUS_HOLD seconds (before, they wrote over it within 0.5 s)."""
        self._held = (text, time.monotonic() + STATUS_HOLD)
        self.camera_status = text

    def classes(self) -> list[str]:
        return {"tokens": list(readings.TOKEN_COLOURS), "dice": ["1", "2", "3", "4", "5", "6"],
                "cards": [f"{c}-{v}" for c in readings.CARD_COLOURS["blasting-billy"] for v in range(11)],
                "board": ["R", "Y", "G", "B"]}[self.teach_kind]

    def set_camera(self, spec: str) -> None:
        app().camera_spec = spec
        self.stop_preview()
        self.start_preview()

    def start_preview(self) -> None:
        source = open_source(app().camera_spec, self.teach_kind, app().config_file)
        self.feed = TableFeed(source, load_reader(self.teach_kind, app().profile(self.teach_kind)),
                              self._frame_arrived, self._reading,
                              lambda m: Clock.schedule_once(lambda dt: setattr(self, "camera_status", m)))
        self.feed.start()
        Clock.schedule_interval(self._stats, 0.5)

    def stop_preview(self) -> None:
        Clock.unschedule(self._stats)
        if self.feed is not None:
            self.feed.stop()
            self.feed = None

    def on_enter(self, *_: Any) -> None:
        self.refresh()
        self.start_preview()

    def on_pre_leave(self, *_: Any) -> None:
        self.stop_preview()  # before the next screen's on_enter: a Pi camera opens only once

    def _reading(self, objects: list[dict], _t: float) -> None:
        Clock.schedule_once(lambda dt: setattr(self.ids.preview, "objects", objects), 0)

    def _stats(self, _dt: float) -> None:
        if self.feed is None:
            return
        held = getattr(self, "_held", None)
        if held is not None and time.monotonic() < held[1]:
            return
        st = self.feed.stats
        ms = sorted(st.read_ms)[len(st.read_ms) // 2] if st.read_ms else 0.0
        source = self.feed.source
        demo = tr("demo_note", app().lang) if getattr(source, "is_demo", False) else app().camera_spec
        note = getattr(source, "note", "") or getattr(source, "problem", "")
        self.camera_status = " ".join(t for t in (demo, note, tr("fps", app().lang, fps=st.fps(), ms=ms)) if t)

    def cycle_kind(self) -> None:
        kinds = ["tokens", "dice", "cards", "board"]
        self.teach_kind = kinds[(kinds.index(self.teach_kind) + 1) % len(kinds)]
        self.teach_class = self.classes()[0]
        self.examples = {}
        self.stop_preview()
        self.start_preview()

    def cycle_class(self) -> None:
        classes = self.classes()
        self.teach_class = classes[(classes.index(self.teach_class) + 1) % len(classes)]

    def capture(self) -> None:
        """Keep the current frame as a photo of the chosen class."""
        frame = self.feed.latest_frame if self.feed is not None else None
        if frame is None:
            self.teach_status = tr("nothing_read", app().lang)
            return
        self.examples.setdefault(self.teach_class, []).append(frame.copy())
        self.teach_status = tr("teach_photos", app().lang, n=len(self.examples[self.teach_class]), cls=self.teach_class)

    def learn(self) -> None:
        """Run the reader's teach on the photos and save the profile (as ``companion teach`` does)."""
        try:
            from vision import profile as profiles

            module = __import__(f"vision.{self.teach_kind}", fromlist=["teach"])
            data = module.teach(self.examples)
            out = app().profile_path(self.teach_kind)
            profiles.save(out, self.teach_kind, data)
        except (ImportError, ValueError, OSError) as exc:
            self.teach_status = str(exc)
            return
        self.teach_status = tr("taught", app().lang, kind=self.teach_kind, path=str(out))


CHECK_KINDS = ("tokens", "dice", "cards", "board")


def _numbers(values: tuple[float, ...] | None, digits: int = 0) -> str:
    return " / ".join(f"{v:.{digits}f}" for v in values) if values else "-"


class CalibrationScreen(FramePreview, Screen):
    """The calibration wizard: print the mat, place it (live check drawn on the picture), lock the
    colours, read once to check. Every failure is a line of text on the screen."""

    picture = "preview"

    step = NumericProperty(1)
    mat_text = StringProperty("")
    status = StringProperty("")
    camera_text = StringProperty("")
    paper = StringProperty("A4")
    check_kind = StringProperty("tokens")
    check = ObjectProperty(None, allownone=True)  # the last ui.calibration.MatCheck

    def __init__(self, **kwargs: Any):
        super().__init__(**kwargs)
        self.feed: TableFeed | None = None
        self.texture: Texture | None = None
        self._checking = False
        self._lock_deadline = 0.0

    # -- the camera and the mat check ----------------------------------------------------------------
    def on_enter(self, *_: Any) -> None:
        self.show_step(self.step)
        self.start_preview()

    def on_pre_leave(self, *_: Any) -> None:
        self.stop_preview()  # before the next screen's on_enter: a Pi camera opens only once

    def start_preview(self, source: Any = None) -> None:
        """Show the camera (or ``source``); the mat is checked on the newest frame 2.5 times a second."""
        self.stop_preview()
        if source is None:
            source = open_source(app().camera_spec, self.check_kind, app().config_file)
            if getattr(source, "is_demo", False) and self.check_kind == "tokens":
                source.advance(with_mat=True)  # the demo table lays butts on the rendered play mat
        demo = tr("demo_note", app().lang) if getattr(source, "is_demo", False) else ""
        self.camera_text = " ".join(t for t in (demo, getattr(source, "note", "")) if t)
        if hasattr(source, "on_found"):  # the demo table that keeps looking for the camera
            source.on_found = lambda: Clock.schedule_once(
                lambda dt: setattr(self, "camera_text", tr("camera_found", app().lang)), 0)
        self.check = None
        self.ids.preview.check = None
        self.ids.preview.objects = []
        self.feed = TableFeed(source, None, self._frame_arrived, lambda *_a: None,
                              lambda m: Clock.schedule_once(lambda dt: setattr(self, "camera_text", m)))
        self.feed.start()
        Clock.schedule_interval(self._check_newest, 0.4)

    def stop_preview(self) -> None:
        Clock.unschedule(self._check_newest)
        Clock.unschedule(self._await_lock)
        if self.feed is not None:
            self.feed.stop()
            self.feed = None

    def _check_newest(self, _dt: float) -> None:
        """Look for the mat in the newest frame, in a thread (one check at a time)."""
        import threading

        from ui.calibration import check_mat

        frame = self.feed.latest_frame if self.feed is not None else None
        if self._checking or frame is None:
            return
        self._checking = True

        def work() -> None:
            try:
                check = check_mat(frame)
            except Exception as exc:  # the check must not end the wizard
                check, problem = None, str(exc) or type(exc).__name__
            else:
                problem = ""
            Clock.schedule_once(lambda dt: self.show_check(check, problem), 0)

        threading.Thread(target=work, daemon=True).start()

    def show_check(self, check: Any, problem: str = "") -> None:
        """Draw the mat check on the picture and put its words and numbers beside it."""
        self._checking = False
        if check is None:
            self.mat_text = problem
            return
        lang = app().lang
        self.check = check
        self.ids.preview.check = check if self.step in (2, 3) else None  # step 4 labels the pieces
        if not check.found:
            self.mat_text = tr(f"mat_{check.problem}", lang, n=check.markers)
            return
        head = tr("mat_dark" if check.problem == "dark" else "mat_found", lang, n=check.markers)
        self.mat_text = head + "\n" + tr("mat_patches", lang, w=_numbers(check.white), g=_numbers(check.grey),
                                         gains=_numbers(check.gains, 2))

    # -- the steps -------------------------------------------------------------------------------------
    def show_step(self, step: int) -> None:
        """Go to a step (1-4) and put its big buttons up."""
        self.step = min(max(int(step), 1), 4)
        self.status = ""
        self.ids.preview.check = self.check if self.step in (2, 3) else None
        lang = app().lang
        box = self.ids.actions
        box.clear_widgets()
        actions: list[tuple[str, Callable[[Button], None]]] = {
            1: [(tr("cal_paper", lang, size=self.paper), self.cycle_paper),
                (tr("cal_write", lang, fmt="PDF"), lambda _b: self.write_mat("pdf")),
                (tr("cal_write", lang, fmt="PNG"), lambda _b: self.write_mat("png"))],
            2: [],
            3: [(tr("cal_lock_button", lang), lambda _b: self.lock_colours())],
            4: [(tr("teach_kind", lang) + ": " + self.check_kind, lambda _b: self.cycle_kind()),
                (tr("cal_read", lang, kind=self.check_kind), lambda _b: self.read_once())],
        }[self.step]
        for text, action in actions:
            btn = Button(text=text, font_size=sp(17), bold=True, halign="center", valign="middle")
            btn.bind(size=lambda b, s: setattr(b, "text_size", (s[0] - dp(6), None)))
            btn.bind(on_release=lambda b, a=action: a(b))
            box.add_widget(btn)
        box.height = dp(60) if actions else 0

    def next_step(self) -> None:
        if self.step >= 4:
            app().go("settings")
            return
        self.show_step(self.step + 1)

    def previous_step(self) -> None:
        self.show_step(self.step - 1)

    def cycle_paper(self, button: Button) -> None:
        from ui.calibration import MAT_SIZES

        self.paper = MAT_SIZES[(MAT_SIZES.index(self.paper) + 1) % len(MAT_SIZES)]
        button.text = tr("cal_paper", app().lang, size=self.paper)

    def write_mat(self, fmt: str) -> None:
        """Write the printable mat into the exports folder (in a thread: an A3 takes a moment)."""
        import threading

        from ui.calibration import write_mat

        lang, paper, folder = app().lang, self.paper, app().exports_dir()
        if self.status == tr("cal_writing", lang):  # a second tap while the first is being written
            return
        self.status = tr("cal_writing", lang)

        def work() -> None:
            try:
                text = tr("cal_written", lang, path=str(write_mat(folder, paper, fmt)))
            except (OSError, ValueError, ImportError) as exc:
                text = str(exc)
            Clock.schedule_once(lambda dt: setattr(self, "status", text), 0)

        threading.Thread(target=work, daemon=True).start()

    def lock_colours(self) -> None:
        """The Pi camera measures the light again and locks; other cameras lean on the white patch."""
        from ui.calibration import pi_camera

        source = self.feed.source if self.feed is not None else None
        camera = pi_camera(source)
        if camera is None:
            name = "demo" if getattr(source, "is_demo", False) else getattr(source, "name", app().camera_spec)
            self.status = tr("cal_no_lock", app().lang, camera=name)
            return
        try:
            camera.relock()
        except Exception as exc:  # a camera that went away between the check and the tap
            self.status = str(exc) or type(exc).__name__
            return
        self._lock_deadline = time.monotonic() + 6.0
        self.status = tr("cal_measuring", app().lang)
        Clock.unschedule(self._await_lock)
        Clock.schedule_interval(self._await_lock, 0.2)

    def _await_lock(self, _dt: float) -> bool | None:
        """Wait for the camera's new lock, then keep it in the config file."""
        from ui.calibration import lock_words, pi_camera, save_lock

        camera = pi_camera(self.feed.source) if self.feed is not None else None
        if camera is None:
            return False
        if camera.lock is None:
            if time.monotonic() > self._lock_deadline:
                self.status = tr("cal_no_settle", app().lang)
                return False
            return None
        try:
            config, path = save_lock(app().config_file, camera.lock)
        except (OSError, ValueError, ImportError) as exc:
            self.status = str(exc)
            return False
        app().config_file = config
        self.status = tr("cal_locked", app().lang, path=str(path), **lock_words(camera.lock))
        return False

    def cycle_kind(self) -> None:
        self.check_kind = CHECK_KINDS[(CHECK_KINDS.index(self.check_kind) + 1) % len(CHECK_KINDS)]
        self.start_preview()
        self.show_step(4)
        self.status = ""

    def read_once(self) -> None:
        """Read the newest frame once with the chosen reader and label what it found."""
        import threading

        frame = self.feed.latest_frame if self.feed is not None else None
        lang, kind = app().lang, self.check_kind
        if frame is None:
            self.status = tr("mat_no-frame", lang)
            return
        profile = app().profile(kind)
        self.status = tr("cal_reading", lang)

        def work() -> None:
            objects: list[dict[str, Any]] | None = None
            try:
                reader = load_reader(kind, profile, in_process=False)
                if reader is None:
                    text = tr("no_vision", lang, kind=kind)
                else:
                    objects = [dict(o) for o in reader(frame).objects]
                    text = tr("cal_read_result", lang, n=len(objects),
                              text=readings.summary(objects, kind, lang) or tr("nothing_read", lang))
            except Exception as exc:  # a reader must not raise; if one does, it is a line on screen
                text = str(exc) or type(exc).__name__
            Clock.schedule_once(lambda dt: self._show_read(kind, objects, text), 0)

        threading.Thread(target=work, daemon=True).start()

    def _show_read(self, kind: str, objects: list[dict[str, Any]] | None, text: str) -> None:
        self.status = text
        if objects is not None and kind == self.check_kind:
            self.ids.preview.objects = objects
