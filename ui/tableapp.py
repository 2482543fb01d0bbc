"""The Kivy App: navigation between screens, the score pad, the language, GPIO buttons.

Screens never open each other: they call ``app.go(name)`` or the App's game actions
(``start_game``, ``resume_game``), so where a tap leads is decided here in one place.
"""

from __future__ import annotations

import importlib
from pathlib import Path
from typing import Any

from kivy.app import App
from kivy.base import ExceptionHandler, ExceptionManager
from kivy.clock import Clock
from kivy.lang import Builder
from kivy.properties import BooleanProperty, ObjectProperty, StringProperty
from kivy.uix.screenmanager import NoTransition, ScreenManager

from companion import records
from companion.core import RulesError
from companion.records import RecordError
from companion.session import Session
from companion.store import GameInfo, Store, StoreError
from ui import screens
from ui.i18n import tr
from ui.summaries import SummaryCache

KV_DIR = Path(__file__).parent / "kv"
SCREENS = ("widgets", "home", "players", "table", "pad", "history", "rules", "settings", "calibration")


def load_config() -> tuple[Any, list[str]]:
    """The config file's settings (companion.config) and its warnings; (None, []) without it."""
    try:
        config_mod = importlib.import_module("companion.config")
    except ImportError:
        return None, []
    return config_mod.load_config()


DESIGN_SIZE = (800, 480)  # the official touchscreen; bigger screens show the same layout, larger


def scale_to_window() -> None:
    """Scale dp/sp so a big screen shows the 800x480 layout larger, readable across the table.

    Runs before the .kv files load, so every size in them uses the new density.
    """
    from kivy.core.window import Window
    from kivy.metrics import Metrics

    scale = min(Window.width / DESIGN_SIZE[0], Window.height / DESIGN_SIZE[1])
    if scale > 1.1:
        Metrics.density = Metrics.density * scale


class KeepPlaying(ExceptionHandler):
    """An unexpected error in a tap or a frame becomes a one-line message, never a traceback."""

    def __init__(self, app: TableApp):
        super().__init__()
        self.app = app

    def handle_exception(self, inst: BaseException) -> int:
        if isinstance(inst, KeyboardInterrupt | SystemExit):
            return ExceptionManager.RAISE
        self.app.message = f"{type(inst).__name__}: {inst}"
        table = self.app.sm.get_screen("table") if hasattr(self.app, "sm") else None
        if table is not None:
            table.error_text = self.app.message
        return ExceptionManager.PASS


class TableApp(App):
    """The companion at the table."""

    lang = StringProperty("en")
    message = StringProperty("")
    camera_spec = StringProperty("auto")
    demo = BooleanProperty(False)
    session = ObjectProperty(None, allownone=True)

    def __init__(self, db: Path | None = None, lang: str | None = None, camera: str | None = None,
                 resume: str | None = None, **kwargs: Any):
        super().__init__(**kwargs)
        self.title = "Table Companion"
        self.exit_status = 0
        self.config_file, warnings = load_config()
        self.message = warnings[0] if warnings else ""
        self.lang = lang or getattr(self.config_file, "language", "en") or "en"
        self.camera_spec = camera or getattr(self.config_file, "camera", "auto") or "auto"
        if db is None and getattr(self.config_file, "data_dir", ""):
            db = self.config_file.data_path() / "scorepad.sqlite3"
        self.db_path = db
        self.resume_arg = resume
        self.store: Store | None = None
        self.controls: Any = None
        self.summaries = SummaryCache()  # home and past games replay each game once per change

    # -- strings ---------------------------------------------------------------------------------
    def tr(self, key: str, lang: str | None = None, **fields: Any) -> str:
        """A screen string in the current language (kv passes ``app.lang`` so text follows a switch)."""
        return tr(key, lang or self.lang, **fields)

    def toggle_language(self) -> None:
        self.lang = "nl" if self.lang == "en" else "en"

    # -- building ----------------------------------------------------------------------------------
    def build(self) -> ScreenManager:
        scale_to_window()
        for name in SCREENS:
            Builder.load_file(str(KV_DIR / f"{name}.kv"))
        self.open_store()
        ExceptionManager.add_handler(KeepPlaying(self))
        sm = ScreenManager(transition=NoTransition())
        sm.add_widget(screens.HomeScreen(name="home"))
        sm.add_widget(screens.PlayersScreen(name="players"))
        sm.add_widget(screens.TableScreen(name="table"))
        sm.add_widget(screens.PadScreen(name="pad"))
        sm.add_widget(screens.HistoryScreen(name="history"))
        sm.add_widget(screens.RulesScreen(name="rules"))
        sm.add_widget(screens.SettingsScreen(name="settings"))
        sm.add_widget(screens.CalibrationScreen(name="calibration"))
        self.sm = sm
        Clock.schedule_once(lambda dt: self.after_start(), 0)
        return sm

    def open_store(self) -> None:
        """Open the score pad; if it cannot be opened, play on unsaved and say so."""
        try:
            self.store = Store(self.db_path)
        except StoreError as exc:
            self.message = tr("store_error", self.lang, why=str(exc))
            self.store = Store(":memory:")

    def after_start(self) -> None:
        """Go straight into a game with --resume; otherwise home offers the unfinished one."""
        self.open_controls()
        if self.resume_arg is None:
            self.sm.get_screen("home").refresh()
            return
        game_id: int | None
        if self.resume_arg == "":
            game_id = self.summaries.latest_unfinished(self.store)  # fills the cache home uses next
        else:
            game_id = int(self.resume_arg) if self.resume_arg.isdigit() else -1
        if game_id is None:
            self.message = tr("no_games", self.lang)
            self.sm.get_screen("home").refresh()
            return
        self.resume_game(game_id)

    def profile_path(self, kind: str) -> Path:
        """Where the profile taught for ``kind`` is kept: next to the score pad."""
        base = self.store.path.parent if self.store is not None and str(self.store.path) != ":memory:" \
            else Path.home() / ".local" / "share" / "table-companion"
        return base / "profiles" / f"{kind}.json"

    def exports_dir(self) -> Path:
        """Where record files and the printable mat are written: exports/ next to the score pad."""
        base = self.store.path.parent if self.store is not None and str(self.store.path) != ":memory:" \
            else Path.home()
        return base / "exports"

    def profile(self, kind: str) -> dict | None:
        """The players' taught profile for this reader, or None (the reader's defaults)."""
        path = self.profile_path(kind)
        if not path.exists():
            return None
        try:
            from vision import profile as profiles

            return profiles.load(path, kind)
        except Exception as exc:  # a damaged profile: read with the defaults and say so
            self.message = f"{path}: {exc}"
            return None

    def open_controls(self) -> None:
        """GPIO buttons, LED and buzzer (hardware.controls) when the config names pins."""
        if self.config_file is None or not self.config_file.gpio.used():
            return
        try:
            from hardware.controls import Controls

            controls = Controls.create(self.config_file)
        except ImportError as exc:
            self.message = f"GPIO: {exc}"
            return
        if not getattr(controls, "available", False):
            self.message = getattr(controls, "reason", "")
        # gpiozero calls from its own thread: hand each press to the main thread
        controls.on_confirm = lambda: Clock.schedule_once(lambda dt: self.gpio("confirm"))
        controls.on_undo = lambda: Clock.schedule_once(lambda dt: self.gpio("undo"))
        controls.on_next = lambda: Clock.schedule_once(lambda dt: self.gpio("next"))
        self.controls = controls

    def signal(self, signals: frozenset[str], refused: bool = False) -> None:
        """Tell the LED and buzzer what the last tap did (nothing when no GPIO is fitted)."""
        if self.controls is None:
            return
        try:
            self.controls.set_status("attention" if refused else "ready")
            for word, tune in (("game-over", "end_of_game"), ("reset", "reset"), ("extra-turn", "extra_turn")):
                if word in signals:
                    self.controls.beep(tune)
                    break
        except Exception as exc:  # a buzzer fault must not stop the game
            self.message = f"GPIO: {exc}"

    def gpio(self, button: str) -> None:
        """A hardware button: Confirm / Undo on the live table; Next moves the demo on."""
        if self.sm.current != "table" or self.session is None:
            return
        table = self.sm.get_screen("table")
        {"confirm": table.confirm, "undo": table.undo, "next": table.next_scene}[button]()

    # -- navigation --------------------------------------------------------------------------------
    def go(self, name: str) -> None:
        screen = self.sm.get_screen(name)
        if hasattr(screen, "refresh"):
            screen.refresh()
        self.sm.current = name

    def choose_game(self, game: str) -> None:
        self.sm.get_screen("players").setup(game)
        self.go("players")

    def start_game(self, game: str, players: list[str], options: dict[str, Any]) -> bool:
        """Check the setup with the engine, save the new game and open the live table."""
        try:
            self.session = Session.new(self.store, game, players, options)
        except (RecordError, RulesError) as exc:
            self.message = exc.text(self.lang)
            return False
        except StoreError as exc:
            self.message = tr("store_error", self.lang, why=str(exc))
            return False
        self.message = ""
        self.go("table")
        return True

    def resume_game(self, game_id: int) -> None:
        try:
            self.session = Session.resume(self.store, game_id)
        except (StoreError, RecordError, RulesError) as exc:
            self.message = getattr(exc, "text", None) and exc.text(self.lang) or str(exc)
            self.go("home")
            return
        self.message = ""
        self.go("table")

    def game_summary(self, info: GameInfo) -> dict[str, Any] | None:
        """A stored game's ``summary()`` (None when it does not replay), replayed once per change."""
        return self.summaries.summary(self.store, info)

    def unfinished(self) -> tuple[int, str] | None:
        """The game to offer on the home screen: (id, 'Bag of Butts (Ann, Bob)'), the most recently
        played game that is not over (the summaries come from the cache)."""
        try:
            game_id = self.summaries.latest_unfinished(self.store)
            if game_id is None:
                return None
            record = self.store.record(game_id)
            title = records.start(record).title(self.lang)
        except (StoreError, RecordError, RulesError):
            return None
        return game_id, tr("resume_offer", self.lang, game=title, players=", ".join(record.players))

    def on_stop(self) -> None:
        table = self.sm.get_screen("table") if hasattr(self, "sm") else None
        if table is not None:
            table.stop_feed()
        for name in ("settings", "calibration"):
            if hasattr(self, "sm"):
                self.sm.get_screen(name).stop_preview()
        if self.controls is not None and hasattr(self.controls, "close"):
            self.controls.close()
        if self.store is not None:
            self.store.close()
