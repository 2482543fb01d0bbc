"""No camera at start: the demo table plays, keeps looking, and the camera plugged in later takes over."""

from __future__ import annotations

import threading
import time

import numpy as np

import ui.camera
from hardware.sources import CLOSED, OPEN, FrameSource
from ui.camera import CameraWatch, DemoTable, open_source


class LateCamera(FrameSource):
    name = "late camera"

    def __init__(self, shade: int = 7):
        super().__init__()
        self.shade = shade

    def open(self):
        self.state = OPEN

    def read(self):
        return np.full((6, 8, 3), self.shade, np.uint8) if self.state == OPEN else None

    def close(self):
        self.state = CLOSED


class Socket:
    """Where the camera will be plugged in: nothing there until ``plug``."""

    def __init__(self):
        self.camera: LateCamera | None = None
        self.tries = 0

    def plug(self) -> None:
        self.camera = LateCamera()

    def open(self) -> LateCamera | None:
        self.tries += 1
        if self.camera is None:
            return None
        self.camera.open()
        return self.camera


def wait_for(condition, timeout=3.0) -> bool:
    end = time.monotonic() + timeout
    while time.monotonic() < end:
        if condition():
            return True
        time.sleep(0.01)
    return False


def test_a_camera_plugged_in_after_the_start_replaces_the_demo_table():
    socket = Socket()
    found = threading.Event()
    watch = CameraWatch("tokens", socket.open, interval=0.02)
    watch.on_found = found.set
    watch.open()
    try:
        assert watch.is_demo and watch.name == "demo"
        assert wait_for(lambda: socket.tries >= 3)  # it keeps looking while there is none
        demo_frame = watch.read()
        assert demo_frame.shape == (960, 1280, 3)  # the demo table's picture meanwhile
        socket.plug()
        assert found.wait(3.0)
        assert not watch.is_demo and watch.name == "late camera" and watch.note == ""
        assert watch.read().shape == (6, 8, 3)  # the camera's frames from now on
        tries = socket.tries
        time.sleep(0.1)
        assert socket.tries == tries  # and it stops looking
        watch.advance(colours=["pink"])  # a screen moving the demo on changes nothing now
        assert watch.read().shape == (6, 8, 3)
    finally:
        watch.close()
    assert socket.camera.state == CLOSED  # closing the table frees the camera for the next screen


def test_a_camera_that_opens_while_the_table_closes_is_freed_again():
    opened: list[LateCamera] = []
    entered, release = threading.Event(), threading.Event()

    def slow_open() -> LateCamera:
        entered.set()
        release.wait(3.0)
        camera = LateCamera()
        camera.open()
        opened.append(camera)
        return camera

    watch = CameraWatch("tokens", slow_open, interval=0.01)
    watch.open()
    assert entered.wait(3.0)
    closer = threading.Thread(target=watch.close)
    closer.start()
    time.sleep(0.05)
    release.set()
    closer.join(5.0)
    assert not closer.is_alive()
    assert wait_for(lambda: opened and opened[0].state == CLOSED)
    assert watch.camera is None and watch.is_demo


def test_a_watch_that_fails_oddly_keeps_the_demo_table_running():
    calls = []

    def broken() -> None:
        calls.append(1)
        raise OSError("the driver fell over")

    watch = CameraWatch("tokens", broken, interval=0.01)
    watch.open()
    try:
        assert wait_for(lambda: len(calls) >= 3)
        assert watch.is_demo and watch.read() is not None
    finally:
        watch.close()


def test_only_a_real_camera_setting_is_watched(monkeypatch):
    monkeypatch.setattr(ui.camera, "_try_camera", lambda spec, config: None)
    plain = open_source("demo", "tokens")
    missing = open_source("opencv:97", "tokens")
    try:
        assert type(plain) is DemoTable  # the players chose the demo: nothing to look for
        assert isinstance(missing, CameraWatch) and missing.is_demo
        assert "no camera works" in missing.note
    finally:
        plain.close()
        missing.close()
