"""Replay and webcam sources, and the choice of camera: frames a player would see, or why not."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

import cv2
import numpy as np
import pytest

from companion.config import Config
from hardware.reconnect import ReconnectingSource
from hardware.sources import (
    CLOSED,
    ENDED,
    LOST,
    OPEN,
    CameraError,
    OpenCVSource,
    ReplaySource,
    as_bgr,
    camera_candidates,
    open_camera,
)

REPO = Path(__file__).resolve().parents[2]


def solid(value: int, shape=(48, 64, 3)) -> np.ndarray:
    return np.full(shape, value, np.uint8)


@pytest.fixture
def frames_dir(tmp_path):
    # Natural order: frame2 before frame10, whatever the plain string order says.
    for number, value in [(1, 10), (2, 20), (10, 100)]:
        cv2.imwrite(str(tmp_path / f"frame{number}.png"), solid(value))
    (tmp_path / "notes.txt").write_text("not an image")
    return tmp_path


def values(source, n):
    return [None if (f := source.read()) is None else int(f[0, 0, 0]) for _ in range(n)]


def test_replay_folder_in_natural_order_and_loops(frames_dir):
    with ReplaySource(frames_dir) as source:
        assert values(source, 7) == [10, 20, 100, 10, 20, 100, 10]
        frame = source.read()
        assert frame.dtype == np.uint8 and frame.shape == (48, 64, 3)
    assert source.state == CLOSED


def test_replay_without_loop_ends(frames_dir):
    with ReplaySource(frames_dir, loop=False) as source:
        assert values(source, 5) == [10, 20, 100, None, None]
        assert source.state == ENDED


def test_replay_skips_unreadable_images(frames_dir):
    (frames_dir / "frame3.jpg").write_bytes(b"broken jpeg")
    with ReplaySource(frames_dir, loop=False) as source:
        assert values(source, 4) == [10, 20, 100, None]
        assert [p.name for p in source.skipped] == ["frame3.jpg"]


def test_replay_of_only_broken_images_is_lost_not_a_crash(tmp_path):
    (tmp_path / "a.png").write_bytes(b"nope")
    with ReplaySource(tmp_path) as source:
        assert source.read() is None
        assert source.state == LOST and "none of the images" in source.problem


def test_replay_paces_to_its_frame_rate(frames_dir):
    now = [100.0]
    slept = []

    def sleep(seconds):
        slept.append(round(seconds, 6))
        now[0] += seconds

    with ReplaySource(frames_dir, fps=4, clock=lambda: now[0], sleep=sleep) as source:
        values(source, 3)
        assert slept == [0.25, 0.25]
        now[0] += 1.0  # the caller was busy: no catching up with a burst, no sleep
        values(source, 1)
        assert slept == [0.25, 0.25]


def test_replay_video_file(tmp_path):
    path = tmp_path / "table.avi"
    writer = cv2.VideoWriter(str(path), cv2.VideoWriter_fourcc(*"MJPG"), 5, (64, 48))
    for value in (40, 120, 200):
        writer.write(solid(value))
    writer.release()
    with ReplaySource(path, loop=True) as source:
        got = values(source, 4)
    assert [round(v, -1) for v in got] == [40, 120, 200, 40]


def text_file(path):
    path.write_text("x")
    return path


@pytest.mark.parametrize(
    ("make", "says"),
    [
        (lambda p: p / "missing", "no such folder or video"),
        (lambda p: p, "holds no images"),
        (lambda p: text_file(p / "x.txt"), "not a folder of images or a video"),
    ],
)
def test_replay_that_cannot_open_says_why(tmp_path, make, says):
    with pytest.raises(CameraError, match=says):
        ReplaySource(make(tmp_path)).open()


def test_as_bgr_normalises_camera_arrays():
    gray = np.full((4, 5), 7, np.uint8)
    assert as_bgr(gray).shape == (4, 5, 3)
    bgra = np.zeros((4, 5, 4), np.uint8)
    bgra[..., 0] = 9
    assert as_bgr(bgra).shape == (4, 5, 3) and as_bgr(bgra)[0, 0, 0] == 9
    assert as_bgr(np.zeros((4, 5, 3), np.float32)) is None
    assert as_bgr(None) is None and as_bgr("frame") is None


class FakeCapture:
    """A cv2.VideoCapture stand-in: a script of reads, then optionally unplugged."""

    def __init__(self, index, opened=True, frames=10**6, raise_after=None):
        self.index, self.opened, self.frames, self.raise_after = index, opened, frames, raise_after
        self.reads = 0
        self.props = {}
        self.released = False

    def isOpened(self):  # noqa: N802 - the OpenCV name
        return self.opened

    def set(self, prop, value):
        self.props[prop] = value
        return True

    def read(self):
        self.reads += 1
        if self.raise_after is not None and self.reads > self.raise_after:
            raise cv2.error("device vanished")
        if self.reads > self.frames:
            return False, None
        return True, solid(self.index * 10 + 5)

    def release(self):
        self.released = True


def test_webcam_gives_frames_and_asks_for_the_size():
    made = []

    def factory(index):
        made.append(FakeCapture(index))
        return made[-1]

    with OpenCVSource(2, 1280, 960, capture_factory=factory) as source:
        assert int(source.read()[0, 0, 0]) == 25
        assert made[0].props == {cv2.CAP_PROP_FRAME_WIDTH: 1280, cv2.CAP_PROP_FRAME_HEIGHT: 960}
    assert made[0].released


def test_webcam_missing_or_blind_cannot_open():
    with pytest.raises(CameraError, match="webcam 0: no camera found there"):
        OpenCVSource(0, capture_factory=lambda i: FakeCapture(i, opened=False)).open()
    with pytest.raises(CameraError, match="opens but gives no picture"):
        OpenCVSource(0, capture_factory=lambda i: FakeCapture(i, frames=0)).open()


def test_webcam_unplugged_is_reported_not_raised():
    source = OpenCVSource(1, capture_factory=lambda i: FakeCapture(i, frames=3), lost_after=3)
    source.open()  # the probe read uses frame 1
    assert source.read() is not None and source.read() is not None
    assert [source.read() for _ in range(3)] == [None, None, None]
    assert source.state == LOST and "unplugged" in source.problem

    raising = OpenCVSource(1, capture_factory=lambda i: FakeCapture(i, raise_after=1))
    raising.open()
    assert raising.read() is None and raising.state == LOST and "device vanished" in raising.problem


def test_a_dropped_frame_is_not_a_lost_camera():
    cap = FakeCapture(0, frames=2)
    source = OpenCVSource(0, capture_factory=lambda i: cap, lost_after=3)
    source.open()
    source.read()
    assert source.read() is None and source.state == OPEN
    cap.frames = 10
    assert source.read() is not None and source.state == OPEN


def test_candidates_follow_the_config(tmp_path):
    def names(camera):
        return [f().name for f in camera_candidates(Config(camera=camera), max_opencv_index=2)]

    assert names("auto") == ["Raspberry Pi camera", "webcam 0", "webcam 1"]
    assert names("opencv:3") == ["webcam 3"]
    assert names("picamera2") == ["Raspberry Pi camera"]
    assert names(f"folder:{tmp_path}") == [f"replay of {tmp_path.name}"]
    assert names("demo") == []


def test_open_camera_takes_the_first_that_works(frames_dir):
    messages = []

    def broken():
        return ReplaySource(frames_dir / "gone")

    source = open_camera(
        Config(), on_message=messages.append, candidates=[broken, lambda: ReplaySource(frames_dir)]
    )
    try:
        assert isinstance(source, ReconnectingSource)
        assert int(source.read()[0, 0, 0]) == 10
        assert messages == [f"{frames_dir / 'gone'}: no such folder or video"]
    finally:
        source.close()


def test_open_camera_without_any_camera_means_demo(frames_dir):
    messages = []
    assert open_camera(Config(), on_message=messages.append, candidates=[]) is None
    assert messages == ["no camera works; showing the demo table"]
    assert open_camera(Config(camera="demo"), on_message=messages.append) is None
    assert len(messages) == 1


def test_open_camera_from_a_configured_folder(frames_dir):
    source = open_camera(Config(camera=f"folder:{frames_dir}"), reconnect=False)
    try:
        assert isinstance(source, ReplaySource) and source.fps == 5.0
    finally:
        source.close()


def test_optional_libraries_are_imported_only_when_used():
    # picamera2 only exists on a Pi and gpiozero is only needed for GPIO: importing the hardware
    # modules must not pull them in, and the config module stays standard-library only.
    code = (
        "import sys, companion.config;"
        "assert not {'cv2', 'numpy', 'kivy', 'gpiozero', 'picamera2'} & set(sys.modules), 'config';"
        "import hardware.sources, hardware.picamera, hardware.reconnect, hardware.controls;"
        "assert not {'picamera2', 'gpiozero', 'kivy'} & set(sys.modules), 'hardware'"
    )
    result = subprocess.run(
        [sys.executable, "-c", code], capture_output=True, text=True, cwd=REPO, timeout=60
    )
    assert result.returncode == 0, result.stderr
