"""A camera unplugged mid-game is reported, the caller is never blocked, and it comes back."""

from __future__ import annotations

import threading
import time

import numpy as np
import pytest

from hardware.reconnect import CAMERA_BACK, CAMERA_LOST, CAMERA_OK, ReconnectingSource
from hardware.sources import CLOSED, LOST, OPEN, CameraError, FrameSource


class Socket:
    """The USB socket the fake camera sits in."""

    def __init__(self):
        self.plugged = True
        self.opened = 0


class FakeCamera(FrameSource):
    name = "fake camera"

    def __init__(self, socket: Socket):
        super().__init__()
        self.socket = socket

    def open(self):
        if not self.socket.plugged:
            raise CameraError("fake camera: no camera found there")
        self.socket.opened += 1
        self.generation = self.socket.opened
        self.state = OPEN

    def read(self):
        if self.state != OPEN:
            return None
        if not self.socket.plugged:
            self.state, self.problem = LOST, "stopped sending pictures (unplugged?)"
            return None
        return np.full((4, 4, 3), self.generation, np.uint8)

    def close(self):
        self.state = CLOSED


def wait_for(condition, timeout=2.0):
    end = time.monotonic() + timeout
    while time.monotonic() < end:
        if condition():
            return True
        time.sleep(0.005)
    return False


@pytest.fixture
def camera():
    socket = Socket()
    statuses: list[str] = []
    source = ReconnectingSource(
        lambda: FakeCamera(socket), on_status=statuses.append, backoff=(0.01, 0.02, 0.04)
    )
    source.open()
    yield socket, source, statuses
    source.close()


def test_unplug_and_replug_mid_game(camera):
    socket, source, statuses = camera
    assert source.status == CAMERA_OK and source.read()[0, 0, 0] == 1
    socket.plugged = False
    assert source.read() is None
    assert statuses == [CAMERA_LOST] and source.state == LOST and "unplugged" in source.problem
    assert wait_for(lambda: source.attempts >= 3)  # keeps trying while it is away
    assert source.read() is None
    socket.plugged = True
    assert wait_for(lambda: source.status == CAMERA_BACK)
    assert statuses == [CAMERA_LOST, CAMERA_BACK]
    assert source.read()[0, 0, 0] == 2  # a freshly opened camera
    assert source.state == OPEN


def test_reads_do_not_wait_for_the_reconnect(camera):
    socket, source, _ = camera
    source.backoff = (5.0,)  # a slow retry must not slow the caller
    socket.plugged = False
    source.read()
    started = time.monotonic()
    for _ in range(100):
        assert source.read() is None
    assert time.monotonic() - started < 1.0


def test_lost_twice_is_told_once_per_loss(camera):
    socket, source, statuses = camera
    for _ in range(2):
        socket.plugged = False
        source.read()
        source.read()
        socket.plugged = True
        assert wait_for(lambda: source.status == CAMERA_BACK)
        source.read()
    assert statuses == [CAMERA_LOST, CAMERA_BACK, CAMERA_LOST, CAMERA_BACK]


def test_close_stops_the_retrying(camera):
    socket, source, statuses = camera
    socket.plugged = False
    source.read()
    source.close()
    socket.plugged = True
    time.sleep(0.1)
    assert statuses == [CAMERA_LOST] and source.state == CLOSED
    assert not any(t.name == "camera-reconnect" for t in threading.enumerate())


def test_broken_status_callback_does_not_stop_the_camera():
    socket = Socket()

    def explode(status):
        raise ValueError("ui bug")

    source = ReconnectingSource(lambda: FakeCamera(socket), on_status=explode, backoff=(0.01,))
    source.open()
    socket.plugged = False
    assert source.read() is None
    socket.plugged = True
    assert wait_for(lambda: source.state == OPEN)
    assert source.read() is not None
    source.close()


def test_camera_missing_at_start_raises_a_clear_error():
    socket = Socket()
    socket.plugged = False
    with pytest.raises(CameraError, match="no camera found"):
        ReconnectingSource(lambda: FakeCamera(socket)).open()


def test_unexpected_error_while_reopening_does_not_end_the_retrying():
    socket = Socket()
    calls = []

    def factory():
        calls.append(1)
        if len(calls) == 2:  # the first reopen attempt blows up in an unforeseen way
            raise OSError("udev hiccup")
        return FakeCamera(socket)

    source = ReconnectingSource(factory, backoff=(0.01,))
    source.open()
    socket.plugged = False
    source.read()
    socket.plugged = True
    assert wait_for(lambda: source.state == OPEN)
    assert len(calls) >= 3 and source.read() is not None
    source.close()
