"""The config file: defaults, validation with warnings, XDG location and an atomic round trip."""

from __future__ import annotations

from pathlib import Path

import pytest

from companion.config import (
    CameraLock,
    Config,
    GpioPins,
    config_path,
    dump_config,
    load_config,
    save_config,
    with_camera_lock,
)


def write(tmp_path: Path, text: str) -> Path:
    path = tmp_path / "config.toml"
    path.write_text(text, encoding="utf-8")
    return path


def test_missing_file_gives_defaults_without_warnings(tmp_path):
    config, warnings = load_config(tmp_path / "nope.toml")
    assert config == Config()
    assert warnings == []
    assert config.camera == "auto" and config.gpio.used() == {}


def test_full_file_is_read(tmp_path):
    path = write(
        tmp_path,
        """
language = "nl"
fullscreen = true
data_dir = "/srv/games"
[camera]
source = "opencv:1"
width = 1920
height = 1080
exposure_time = 12000
analogue_gain = 2.5
colour_gains = [1.9, 1.6]
[gpio]
confirm = 17
undo = 27
next = 22
led = 23
buzzer = ""
""",
    )
    config, warnings = load_config(path)
    assert warnings == []
    assert config.language == "nl" and config.fullscreen is True
    assert config.data_path() == Path("/srv/games")
    assert (config.camera_kind, config.camera_argument) == ("opencv", "1")
    assert (config.camera_width, config.camera_height) == (1920, 1080)
    assert config.camera_lock == CameraLock(12000, 2.5, (1.9, 1.6))
    assert config.gpio == GpioPins(confirm=17, undo=27, next=22, led=23, buzzer=None)


@pytest.mark.parametrize(
    ("text", "field", "default", "says"),
    [
        ('language = "de"', "language", "en", "language: 'de' is not one of en, nl"),
        ("fullscreen = 1", "fullscreen", False, "fullscreen: 1 is not true or false"),
        ('[camera]\nsource = "webcam"', "camera", "auto", "camera.source: 'webcam' is not auto"),
        ("[camera]\nwidth = 20", "camera_width", 1280, "camera.width: 20 is not a whole number"),
        ('[camera]\nheight = "big"', "camera_height", 960, "camera.height: 'big' is not"),
        ("data_dir = 5", "data_dir", "", "data_dir: 5 is not text"),
    ],
)
def test_bad_value_warns_and_keeps_that_default(tmp_path, text, field, default, says):
    config, warnings = load_config(
        write(tmp_path, 'language = "nl"\n' + text if "language" not in text else text)
    )
    assert getattr(config, field) == default
    assert len(warnings) == 1 and warnings[0].startswith(says), warnings
    if "language" not in text:
        assert config.language == "nl"  # the good keys around a bad one still count


def test_bad_gpio_pins_are_dropped_one_by_one(tmp_path):
    path = write(tmp_path, "[gpio]\nconfirm = 17\nundo = 17\nnext = 40\nled = true\nbuzzer = 24\n")
    config, warnings = load_config(path)
    assert config.gpio == GpioPins(confirm=17, buzzer=24)
    assert any("gpio.undo: GPIO17 is already the confirm pin" in w for w in warnings)
    assert any(w.startswith("gpio.next: 40 is not a whole number from 2 to 27") for w in warnings)
    assert any(w.startswith("gpio.led: True") for w in warnings)


def test_unknown_keys_are_warned(tmp_path):
    path = write(tmp_path, 'colour = "red"\n[camera]\nzoom = 2\n[gpio]\nfan = 4\n[extra]\na = 1\n')
    config, warnings = load_config(path)
    assert config == Config()
    assert sorted(warnings) == sorted(
        [
            "colour: unknown setting, ignored",
            "camera.zoom: unknown setting, ignored",
            "gpio.fan: unknown setting, ignored",
            "extra: unknown setting, ignored",
        ]
    )


def test_incomplete_or_bad_lock_is_forgotten(tmp_path):
    config, warnings = load_config(
        write(tmp_path, "[camera]\nexposure_time = 9000\ncolour_gains = [1, -2]\n")
    )
    assert config.camera_lock is None
    assert any("colour_gains" in w for w in warnings)
    assert any("measures it again" in w for w in warnings)


def test_broken_toml_gives_defaults_and_one_line(tmp_path):
    config, warnings = load_config(write(tmp_path, "language = \n[[["))
    assert config == Config()
    assert len(warnings) == 1 and "not a valid TOML file" in warnings[0] and "\n" not in warnings[0]


def test_section_that_is_not_a_table(tmp_path):
    config, warnings = load_config(write(tmp_path, 'camera = "picamera2"\n'))
    assert config.camera == "auto"
    assert warnings == ["camera: expected a [camera] section, ignored"]


def test_xdg_location(monkeypatch, tmp_path):
    monkeypatch.setenv("XDG_CONFIG_HOME", str(tmp_path / "cfg"))
    monkeypatch.setenv("XDG_DATA_HOME", str(tmp_path / "data"))
    assert config_path() == tmp_path / "cfg" / "table-companion" / "config.toml"
    assert Config().data_path() == tmp_path / "data" / "table-companion"
    monkeypatch.setenv("XDG_CONFIG_HOME", "relative/ignored")
    monkeypatch.setenv("HOME", str(tmp_path / "home"))
    assert config_path() == tmp_path / "home" / ".config" / "table-companion" / "config.toml"


def test_save_and_load_round_trip(tmp_path, monkeypatch):
    monkeypatch.setenv("XDG_CONFIG_HOME", str(tmp_path))
    config = Config(
        language="nl",
        camera='folder:/tmp/a "quoted" folder',
        camera_width=2304,
        camera_height=1296,
        gpio=GpioPins(confirm=5, led=6),
        fullscreen=True,
        data_dir="~/spellen",
    )
    config = with_camera_lock(config, CameraLock(15000, 1.75, (2.0, 1.5)))
    written = save_config(config)
    assert written == tmp_path / "table-companion" / "config.toml"
    again, warnings = load_config()
    assert warnings == []
    assert again == config
    assert list(written.parent.iterdir()) == [written]  # no temporary file left behind
    assert 'undo = ""' in dump_config(config)


def test_lock_controls_turn_automatic_exposure_off():
    controls = CameraLock(12000, 2.0, (1.8, 1.4)).controls()
    assert controls == {
        "AeEnable": False,
        "AwbEnable": False,
        "ExposureTime": 12000,
        "AnalogueGain": 2.0,
        "ColourGains": (1.8, 1.4),
    }
