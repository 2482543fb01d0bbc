"""The companion's config file: one TOML file, read leniently, written atomically.

A bad value never stops the companion: it becomes a one-line warning and that key keeps its
default. The file lives at ``$XDG_CONFIG_HOME/table-companion/config.toml`` (default
``~/.config/table-companion/config.toml``); docs/config.md describes every key.
"""

from __future__ import annotations

import dataclasses
import json
import os
import re
import tempfile
import tomllib
from dataclasses import dataclass
from pathlib import Path
from typing import Any

APP_DIR = "table-companion"
LANGUAGES = ("en", "nl")
GPIO_ROLES = ("confirm", "undo", "next", "led", "buzzer")
# BCM numbers of the 40-pin header's GPIO lines (0 and 1 are the HAT EEPROM bus: not offered).
GPIO_NUMBERS = range(2, 28)
CAMERA_SIZE_LIMITS = (160, 9152)
_CAMERA_RE = re.compile(r"^(auto|picamera2|demo|opencv:\d{1,2}|folder:.+)$")


@dataclass(frozen=True)
class GpioPins:
    """BCM pin numbers of the optional buttons, LED and buzzer; None means not fitted."""

    confirm: int | None = None
    undo: int | None = None
    next: int | None = None
    led: int | None = None
    buzzer: int | None = None

    def used(self) -> dict[str, int]:
        """The fitted devices: role -> pin."""
        return {role: pin for role in GPIO_ROLES if (pin := getattr(self, role)) is not None}


@dataclass(frozen=True)
class CameraLock:
    """Exposure and colour gains measured once and then held, so colours stay the same all game."""

    exposure_time: int  # microseconds
    analogue_gain: float
    colour_gains: tuple[float, float]  # red, blue

    def controls(self) -> dict[str, Any]:
        """The picamera2 controls that hold these values (auto exposure and white balance off)."""
        return {
            "AeEnable": False,
            "AwbEnable": False,
            "ExposureTime": int(self.exposure_time),
            "AnalogueGain": float(self.analogue_gain),
            "ColourGains": (float(self.colour_gains[0]), float(self.colour_gains[1])),
        }


@dataclass(frozen=True)
class Config:
    """Everything the companion reads from its config file; defaults work on any machine."""

    language: str = "en"
    camera: str = "auto"  # auto | picamera2 | opencv:N | folder:PATH | demo
    camera_width: int = 1280
    camera_height: int = 960
    camera_lock: CameraLock | None = None  # written after calibration
    gpio: GpioPins = GpioPins()
    fullscreen: bool = False
    data_dir: str = ""  # empty: $XDG_DATA_HOME/table-companion

    @property
    def camera_kind(self) -> str:
        """The source kind: auto, picamera2, opencv, folder or demo."""
        return self.camera.split(":", 1)[0]

    @property
    def camera_argument(self) -> str:
        """What follows the colon: the OpenCV index or the folder path ('' for the others)."""
        return self.camera.split(":", 1)[1] if ":" in self.camera else ""

    def data_path(self) -> Path:
        """Where saved games live."""
        if self.data_dir:
            return Path(self.data_dir).expanduser()
        return _xdg("XDG_DATA_HOME", ".local/share") / APP_DIR


def _xdg(variable: str, fallback: str) -> Path:
    value = os.environ.get(variable, "")
    # The XDG spec says a relative value is invalid and must be ignored.
    if value and os.path.isabs(value):
        return Path(value)
    return Path.home() / fallback


def config_path() -> Path:
    """The default config file location."""
    return _xdg("XDG_CONFIG_HOME", ".config") / APP_DIR / "config.toml"


# ---------------------------------------------------------------- reading


class _Reader:
    """Validates one table at a time, collecting warnings instead of raising."""

    def __init__(self, warnings: list[str]) -> None:
        self.warnings = warnings

    def unknown(self, table: dict[str, Any], known: tuple[str, ...], where: str) -> None:
        for key in table:
            if key not in known:
                self.warnings.append(f"{where}{key}: unknown setting, ignored")

    def bad(self, where: str, value: Any, expected: str, default: Any) -> Any:
        shown = "empty" if default in (None, "") else repr(default)
        self.warnings.append(f"{where}: {value!r} is not {expected}; using {shown}")
        return default

    def choice(self, table: dict, key: str, where: str, choices: tuple[str, ...], default: str) -> str:
        if key not in table:
            return default
        value = table[key]
        if isinstance(value, str) and value.strip().lower() in choices:
            return value.strip().lower()
        return self.bad(where + key, value, "one of " + ", ".join(choices), default)

    def boolean(self, table: dict, key: str, where: str, default: bool) -> bool:
        if key not in table:
            return default
        value = table[key]
        if isinstance(value, bool):
            return value
        return self.bad(where + key, value, "true or false", default)

    def integer(self, table: dict, key: str, where: str, low: int, high: int, default: Any) -> Any:
        if key not in table:
            return default
        value = table[key]
        if isinstance(value, int) and not isinstance(value, bool) and low <= value <= high:
            return value
        return self.bad(where + key, value, f"a whole number from {low} to {high}", default)

    def text(self, table: dict, key: str, where: str, default: str) -> str:
        if key not in table:
            return default
        value = table[key]
        if isinstance(value, str):
            return value
        return self.bad(where + key, value, "text", default)

    def subtable(self, data: dict, key: str) -> dict:
        value = data.get(key, {})
        if isinstance(value, dict):
            return value
        self.warnings.append(f"{key}: expected a [{key}] section, ignored")
        return {}


def _read_camera(r: _Reader, table: dict) -> dict[str, Any]:
    where = "camera."
    r.unknown(table, ("source", "width", "height", "exposure_time", "analogue_gain", "colour_gains"), where)
    out: dict[str, Any] = {}
    if "source" in table:
        source = table["source"]
        if isinstance(source, str) and _CAMERA_RE.match(source.strip()):
            out["camera"] = source.strip()
        else:
            r.bad(where + "source", source, "auto, picamera2, opencv:N, folder:PATH or demo", "auto")
    low, high = CAMERA_SIZE_LIMITS
    out["camera_width"] = r.integer(table, "width", where, low, high, Config.camera_width)
    out["camera_height"] = r.integer(table, "height", where, low, high, Config.camera_height)
    out["camera_lock"] = _read_lock(r, table)
    return out


def _read_lock(r: _Reader, table: dict) -> CameraLock | None:
    keys = ("exposure_time", "analogue_gain", "colour_gains")
    present = [k for k in keys if k in table]
    if not present:
        return None
    where = "camera."
    exposure = r.integer(table, "exposure_time", where, 1, 10_000_000, None)
    gain = table.get("analogue_gain")
    if not (isinstance(gain, int | float) and not isinstance(gain, bool) and 1.0 <= gain <= 64.0):
        gain = r.bad(where + "analogue_gain", gain, "a number from 1 to 64", None)
    gains = table.get("colour_gains")
    if not (
        isinstance(gains, list)
        and len(gains) == 2
        and all(isinstance(g, int | float) and not isinstance(g, bool) and 0.0 < g <= 32.0 for g in gains)
    ):
        gains = r.bad(where + "colour_gains", gains, "two numbers [red, blue] above 0 and up to 32", None)
    if exposure is None or gain is None or gains is None:
        r.warnings.append("camera: the locked exposure is incomplete; the camera measures it again")
        return None
    return CameraLock(int(exposure), float(gain), (float(gains[0]), float(gains[1])))


def _read_gpio(r: _Reader, table: dict) -> GpioPins:
    where = "gpio."
    r.unknown(table, GPIO_ROLES, where)
    pins: dict[str, int | None] = {}
    taken: dict[int, str] = {}
    for role in GPIO_ROLES:
        value = table.get(role, "")
        if value == "":
            pins[role] = None
            continue
        pin = r.integer(table, role, where, GPIO_NUMBERS.start, GPIO_NUMBERS.stop - 1, None)
        if pin is not None and pin in taken:
            r.warnings.append(f"{where}{role}: GPIO{pin} is already the {taken[pin]} pin; {role} not used")
            pin = None
        if pin is not None:
            taken[pin] = role
        pins[role] = pin
    return GpioPins(**pins)


def parse_config(data: dict[str, Any]) -> tuple[Config, list[str]]:
    """Build a Config from parsed TOML, with one warning per ignored or bad value."""
    warnings: list[str] = []
    r = _Reader(warnings)
    r.unknown(data, ("language", "fullscreen", "data_dir", "camera", "gpio"), "")
    values: dict[str, Any] = {
        "language": r.choice(data, "language", "", LANGUAGES, Config.language),
        "fullscreen": r.boolean(data, "fullscreen", "", Config.fullscreen),
        "data_dir": r.text(data, "data_dir", "", Config.data_dir),
    }
    values.update(_read_camera(r, r.subtable(data, "camera")))
    values["gpio"] = _read_gpio(r, r.subtable(data, "gpio"))
    return Config(**values), warnings


def load_config(path: str | Path | None = None) -> tuple[Config, list[str]]:
    """Read the config file; a missing file gives the defaults, a broken one the defaults and why."""
    path = Path(path) if path is not None else config_path()
    try:
        with open(path, "rb") as f:
            data = tomllib.load(f)
    except FileNotFoundError:
        return Config(), []
    except tomllib.TOMLDecodeError as exc:
        return Config(), [f"{path}: not a valid TOML file ({exc}); using the defaults"]
    except OSError as exc:
        return Config(), [f"{path}: cannot be read ({exc.strerror}); using the defaults"]
    return parse_config(data)


# ---------------------------------------------------------------- writing


def _toml_value(value: Any) -> str:
    if isinstance(value, bool):
        return "true" if value else "false"
    if isinstance(value, int | float):
        return repr(value)
    if isinstance(value, str):
        # A JSON string is a valid TOML basic string (same escapes, \uXXXX included).
        return json.dumps(value, ensure_ascii=False)
    if isinstance(value, list | tuple):
        return "[" + ", ".join(_toml_value(v) for v in value) + "]"
    raise TypeError(f"cannot write {value!r} to TOML")


def dump_config(config: Config) -> str:
    """The config as TOML text, every key written so the file documents itself."""
    lines = [
        "# Table Companion settings; see docs/config.md.",
        f"language = {_toml_value(config.language)}",
        f"fullscreen = {_toml_value(config.fullscreen)}",
        f"data_dir = {_toml_value(config.data_dir)}",
        "",
        "[camera]",
        f"source = {_toml_value(config.camera)}",
        f"width = {config.camera_width}",
        f"height = {config.camera_height}",
    ]
    if config.camera_lock is not None:
        lock = config.camera_lock
        lines += [
            "# Measured at calibration; delete these three lines to measure again.",
            f"exposure_time = {int(lock.exposure_time)}",
            f"analogue_gain = {_toml_value(float(lock.analogue_gain))}",
            f"colour_gains = {_toml_value([float(g) for g in lock.colour_gains])}",
        ]
    lines += ["", "[gpio]", '# BCM pin numbers; "" = not fitted.']
    for role in GPIO_ROLES:
        pin = getattr(config.gpio, role)
        lines.append(f"{role} = {_toml_value('' if pin is None else pin)}")
    return "\n".join(lines) + "\n"


def save_config(config: Config, path: str | Path | None = None) -> Path:
    """Write the config atomically (temporary file, fsync, rename): a power cut leaves old or new."""
    path = Path(path) if path is not None else config_path()
    path.parent.mkdir(parents=True, exist_ok=True)
    fd, tmp = tempfile.mkstemp(prefix=".config-", suffix=".toml", dir=path.parent)
    try:
        with os.fdopen(fd, "w", encoding="utf-8") as f:
            f.write(dump_config(config))
            f.flush()
            os.fsync(f.fileno())
        os.replace(tmp, path)
    except BaseException:
        Path(tmp).unlink(missing_ok=True)
        raise
    dir_fd = os.open(path.parent, os.O_RDONLY)
    try:
        os.fsync(dir_fd)
    finally:
        os.close(dir_fd)
    return path


def with_camera_lock(config: Config, lock: CameraLock | None) -> Config:
    """A copy of the config holding new locked exposure values (None forgets them)."""
    return dataclasses.replace(config, camera_lock=lock)
