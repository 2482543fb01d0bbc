"""Buttons, status LED and buzzer on the Pi's GPIO header, all optional, through gpiozero.

Three buttons (confirm, undo, next) call plain Python callables, from gpiozero's own thread: a UI
hands them over to its main thread itself. The LED shows the companion's state (ready = steady,
working = slow blink, needs attention = fast blink); the buzzer plays a short pattern for a
reset, an extra turn and the end of a game. Devices take their pin factory by injection, so the
tests use gpiozero's MockFactory. Without GPIO (not a Pi, no pins set) ``Controls.create`` gives
a ``NoControls`` that does nothing and says why once.
"""

from __future__ import annotations

import logging
import threading
import warnings
from collections.abc import Callable
from functools import partial
from typing import Any

from companion.config import Config, GpioPins

log = logging.getLogger(__name__)

READY, WORKING, ATTENTION = "ready", "working", "attention"
STATUSES = (READY, WORKING, ATTENTION)
LED_BLINK = {WORKING: (0.5, 0.5), ATTENTION: (0.1, 0.1)}  # seconds on, off
BUTTONS = ("confirm", "undo", "next")
# Each pattern: (seconds on, seconds off) per beep.
BUZZER_PATTERNS: dict[str, tuple[tuple[float, float], ...]] = {
    "reset": ((0.6, 0.0),),  # one long beep
    "extra_turn": ((0.08, 0.08), (0.08, 0.0)),  # two quick chirps
    "end_of_game": ((0.15, 0.1), (0.15, 0.1), (0.6, 0.0)),  # short, short, long
}
BOUNCE_TIME = 0.05


class NoControls:
    """Stands in when there is no GPIO: every call does nothing; ``reason`` says why."""

    available = False

    def __init__(self, reason: str) -> None:
        self.reason = reason
        self.on_confirm: Callable[[], Any] | None = None
        self.on_undo: Callable[[], Any] | None = None
        self.on_next: Callable[[], Any] | None = None
        self.status = READY

    def set_status(self, status: str) -> None:
        """Remember the status (there is no LED to show it)."""
        _check_status(status)
        self.status = status

    def beep(self, pattern: str, wait: bool = False) -> None:
        """Nothing to beep with."""
        _check_pattern(pattern)

    def close(self) -> None:
        """Nothing to free."""


def _check_status(status: str) -> None:
    if status not in STATUSES:
        raise ValueError(f"unknown LED status {status!r}; use one of {', '.join(STATUSES)}")


def _check_pattern(pattern: str) -> None:
    if pattern not in BUZZER_PATTERNS:
        raise ValueError(f"unknown buzzer pattern {pattern!r}; use one of {', '.join(BUZZER_PATTERNS)}")


class Controls:
    """The fitted buttons, LED and buzzer; a role whose pin is None is simply not there."""

    available = True
    reason = ""

    def __init__(
        self, pins: GpioPins, pin_factory: Any = None, bounce_time: float | None = BOUNCE_TIME
    ) -> None:
        from gpiozero import LED, Button, Buzzer  # only here: the core runs without gpiozero

        self.on_confirm: Callable[[], Any] | None = None
        self.on_undo: Callable[[], Any] | None = None
        self.on_next: Callable[[], Any] | None = None
        self.status = READY
        self._devices: list[Any] = []
        self.buttons: dict[str, Any] = {}
        self.led: Any = None
        self.buzzer: Any = None
        self._tune_stop = threading.Event()
        self._tune: threading.Thread | None = None
        try:
            for role in BUTTONS:
                pin = getattr(pins, role)
                if pin is not None:
                    # Wired from the pin to ground, so the internal pull-up makes a press read low.
                    button = Button(pin, pull_up=True, bounce_time=bounce_time, pin_factory=pin_factory)
                    button.when_pressed = partial(self._pressed, role)
                    self._devices.append(button)
                    self.buttons[role] = button
            if pins.led is not None:
                self.led = LED(pins.led, pin_factory=pin_factory)
                self._devices.append(self.led)
            if pins.buzzer is not None:
                self.buzzer = Buzzer(pins.buzzer, pin_factory=pin_factory)
                self._devices.append(self.buzzer)
        except BaseException:
            self.close()
            raise
        self.set_status(READY)

    @classmethod
    def create(cls, config: Config, pin_factory: Any = None) -> Controls | NoControls:
        """Real controls when GPIO works and pins are set, else NoControls saying why (logged once)."""
        if not config.gpio.used():
            reason = "no GPIO pins are set in the config; buttons, LED and buzzer are off"
        else:
            try:
                with warnings.catch_warnings():
                    # gpiozero warns about each pin library it falls back from; the reason below says enough.
                    warnings.simplefilter("ignore")
                    return cls(config.gpio, pin_factory=pin_factory)
            except ImportError as exc:  # gpiozero missing, or BadPinFactory (an ImportError too)
                reason = f"GPIO is not available here ({exc}); buttons, LED and buzzer are off"
            except Exception as exc:  # gpiozero's pin errors (in use, not a GPIO pin, ...)
                reason = (
                    f"GPIO could not be set up ({type(exc).__name__}: {exc}); buttons, LED and buzzer are off"
                )
        log.warning(reason)
        return NoControls(reason)

    def _pressed(self, role: str) -> None:
        callback = getattr(self, f"on_{role}")
        if callback is None:
            return
        try:
            callback()
        except Exception:  # a failing handler must not kill gpiozero's event thread
            log.exception("the %s button handler failed", role)

    def set_status(self, status: str) -> None:
        """Show ready (steady), working (slow blink) or attention (fast blink) on the LED."""
        _check_status(status)
        self.status = status
        if self.led is None:
            return
        if status == READY:
            self.led.on()
        else:
            on_time, off_time = LED_BLINK[status]
            self.led.blink(on_time=on_time, off_time=off_time, background=True)

    def beep(self, pattern: str, wait: bool = False) -> None:
        """Play a buzzer pattern (reset, extra_turn, end_of_game) in the background, cutting off any other."""
        _check_pattern(pattern)
        if self.buzzer is None:
            return
        self._stop_tune()
        self._tune_stop = stop = threading.Event()
        self._tune = threading.Thread(target=self._play, args=(BUZZER_PATTERNS[pattern], stop), daemon=True)
        self._tune.start()
        if wait:
            self._tune.join()

    def _play(self, beeps: tuple[tuple[float, float], ...], stop: threading.Event) -> None:
        try:
            for on_time, off_time in beeps:
                self.buzzer.on()
                if stop.wait(on_time):
                    return
                self.buzzer.off()
                if off_time and stop.wait(off_time):
                    return
        finally:
            if self.buzzer is not None and not self.buzzer.closed:
                self.buzzer.off()

    def _stop_tune(self) -> None:
        self._tune_stop.set()
        if self._tune is not None and self._tune is not threading.current_thread():
            self._tune.join(timeout=2.0)
        self._tune = None

    def close(self) -> None:
        """Turn everything off and free the pins."""
        self._stop_tune()
        for device in reversed(self._devices):
            device.close()
        self._devices.clear()
        self.buttons.clear()
        self.led = self.buzzer = None
