"""Buttons, status LED and buzzer on gpiozero's MockFactory, and running without GPIO at all."""

from __future__ import annotations

import logging
import time

import pytest
from gpiozero.pins.mock import MockFactory

from companion.config import Config, GpioPins
from hardware.controls import ATTENTION, BUZZER_PATTERNS, READY, WORKING, Controls, NoControls

PINS = GpioPins(confirm=17, undo=27, next=22, led=23, buzzer=24)


@pytest.fixture
def factory():
    factory = MockFactory()
    yield factory
    factory.reset()
    factory.close()


@pytest.fixture
def controls(factory):
    controls = Controls(PINS, pin_factory=factory, bounce_time=None)
    yield controls
    controls.close()


def press(factory, pin):
    factory.pin(pin).drive_low()
    factory.pin(pin).drive_high()


def test_each_button_calls_its_own_callback(factory, controls):
    pressed = []
    controls.on_confirm = lambda: pressed.append("confirm")
    controls.on_undo = lambda: pressed.append("undo")
    controls.on_next = lambda: pressed.append("next")
    press(factory, 17)
    press(factory, 22)
    press(factory, 27)
    press(factory, 17)
    assert pressed == ["confirm", "next", "undo", "confirm"]


def test_press_without_a_callback_or_with_a_broken_one(factory, controls, caplog):
    press(factory, 17)  # nobody listening: nothing happens
    controls.on_undo = lambda: 1 / 0
    with caplog.at_level(logging.ERROR):
        press(factory, 27)
    assert "the undo button handler failed" in caplog.text
    got = []
    controls.on_undo = lambda: got.append(1)
    press(factory, 27)  # still works after the failure
    assert got == [1]


def test_led_is_steady_when_ready(factory, controls):
    assert controls.status == READY
    assert factory.pin(23).state is True


def blink_changes(factory, pin, seconds):
    factory.pin(pin).clear_states()
    time.sleep(seconds)
    return len(factory.pin(pin).states) - 1


def test_led_blinks_slowly_when_working_and_fast_when_it_needs_attention(factory, controls):
    controls.set_status(WORKING)
    slow = blink_changes(factory, 23, 0.6)
    controls.set_status(ATTENTION)
    fast = blink_changes(factory, 23, 0.6)
    assert 1 <= slow <= 3  # 0.5 s on, 0.5 s off
    assert fast >= 4  # 0.1 s on, 0.1 s off
    controls.set_status(READY)
    assert factory.pin(23).state is True
    assert blink_changes(factory, 23, 0.15) == 0


@pytest.mark.parametrize("pattern", ["reset", "extra_turn", "end_of_game"])
def test_buzzer_patterns(factory, controls, pattern):
    pin = factory.pin(24)
    pin.clear_states()
    controls.beep(pattern, wait=True)
    beeps = BUZZER_PATTERNS[pattern]
    pin.assert_states([False] + [True, False] * len(beeps))
    # A MockPin state's timestamp is the time since the change before it: at each "off", how long it sounded.
    on_lengths = [state.timestamp for state in pin.states[2::2]]
    for heard, (wanted, _) in zip(on_lengths, beeps, strict=True):
        assert heard >= wanted - 0.01
    if pattern == "end_of_game":
        assert on_lengths[-1] > 2 * max(on_lengths[:-1])  # ends on the long beep


def test_a_new_pattern_cuts_the_old_one_off(factory, controls):
    controls.beep("reset")  # 0.6 s long
    time.sleep(0.05)
    started = time.monotonic()
    controls.beep("extra_turn", wait=True)
    assert time.monotonic() - started < 0.5
    assert factory.pin(24).state is False


def test_unknown_status_or_pattern_is_a_clear_error(controls):
    with pytest.raises(ValueError, match="unknown LED status 'busy'"):
        controls.set_status("busy")
    with pytest.raises(ValueError, match="unknown buzzer pattern 'fanfare'"):
        controls.beep("fanfare")


def test_only_the_fitted_devices_are_made(factory):
    controls = Controls(GpioPins(confirm=5, buzzer=6), pin_factory=factory)
    assert sorted(controls.buttons) == ["confirm"] and controls.led is None
    controls.set_status(ATTENTION)  # no LED: nothing to blink, no error
    controls.close()
    # Closing frees the pins for the next user.
    again = Controls(GpioPins(confirm=5, buzzer=6), pin_factory=factory)
    again.close()


def test_create_uses_the_config_pins(factory):
    controls = Controls.create(Config(gpio=PINS), pin_factory=factory)
    assert isinstance(controls, Controls) and controls.available
    assert sorted(controls.buttons) == ["confirm", "next", "undo"]
    controls.close()


def test_create_without_pins_is_a_quiet_no_op(caplog):
    with caplog.at_level(logging.WARNING):
        controls = Controls.create(Config())
    assert isinstance(controls, NoControls) and not controls.available
    assert "no GPIO pins are set" in controls.reason
    assert caplog.text.count("no GPIO pins") == 1
    controls.on_confirm = lambda: None
    controls.set_status(WORKING)
    controls.beep("reset")
    controls.close()


def test_create_off_a_pi_says_why_once(monkeypatch, caplog):
    # gpiozero finds no pin library it can use, as on a laptop.
    from gpiozero import Device

    monkeypatch.setenv("GPIOZERO_PIN_FACTORY", "no-such-pins")
    monkeypatch.setattr(Device, "pin_factory", None)
    with caplog.at_level(logging.WARNING):
        controls = Controls.create(Config(gpio=PINS))
    assert isinstance(controls, NoControls)
    assert controls.reason.startswith(
        "GPIO is not available here (Unable to find pin factory 'no-such-pins')"
    )
    assert caplog.text.count("GPIO is not available") == 1


def test_pin_already_in_use_is_explained(factory):
    holder = Controls(GpioPins(led=23), pin_factory=factory)
    controls = Controls.create(Config(gpio=GpioPins(confirm=17, led=23)), pin_factory=factory)
    assert isinstance(controls, NoControls) and "GPIO could not be set up" in controls.reason
    holder.close()
    # The half-made controls released the confirm pin again.
    Controls(GpioPins(confirm=17), pin_factory=factory).close()
