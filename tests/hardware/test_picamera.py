"""The Pi camera backend against a fake picamera2 module put in sys.modules."""

from __future__ import annotations

import sys
import types

import cv2
import numpy as np
import pytest

from companion.config import CameraLock, Config
from hardware.picamera import MISSING, Picamera2Source, yuv420_to_bgr
from hardware.sources import LOST, OPEN, CameraError, camera_candidates

# A colour whose channels differ, in the byte order picamera2's "RGB888" really delivers: B, G, R.
TOKEN_BGR = (30, 90, 200)


class FakePicamera2:
    """Records what the backend asks of the camera; the camera 'settles' on fixed values."""

    instances: list[FakePicamera2] = []
    fail_start = False

    def __init__(self, camera_num=0):
        self.camera_num = camera_num
        self.camera_controls = {"ExposureTime": (1, 66666, None), "ColourGains": (0.0, 32.0, None)}
        self.sensor_resolution = (4608, 2592)
        self.configured = None
        self.controls_set: list[dict] = []
        self.metadata_calls = 0
        self.started = self.closed = False
        self.unplugged = False
        self.still_config = None
        FakePicamera2.instances.append(self)

    def create_video_configuration(self, main, lores=None, controls=None, **_):
        return {
            "use": "video",
            "main": dict(main),
            "lores": dict(lores or {}),
            "controls": dict(controls or {}),
        }

    def create_still_configuration(self, main, controls=None, **_):
        return {"use": "still", "main": dict(main), "controls": dict(controls or {})}

    def configure(self, config):
        self.configured = config

    def start(self):
        if FakePicamera2.fail_start:
            raise RuntimeError("Camera __init__ sequence did not complete.")
        self.started = True

    def _bgr(self, size):
        width, height = size
        return np.full((height, width, 3), TOKEN_BGR, np.uint8)

    def capture_array(self, name="main"):
        if self.unplugged:
            raise RuntimeError("Device timeout detected, attempting a restart!!!")
        stream = self.configured[name]
        if name == "lores":
            width, height = stream["size"]
            yuv = cv2.cvtColor(self._bgr((width, height)), cv2.COLOR_BGR2YUV_I420)
            padded = np.zeros((yuv.shape[0], width + 64), np.uint8)  # rows padded to the stride
            padded[:, :width] = yuv
            return padded
        return self._bgr(stream["size"])

    def capture_metadata(self):
        self.metadata_calls += 1
        return {"ExposureTime": 16621, "AnalogueGain": 2.25, "ColourGains": (1.93, 1.61), "Lux": 310.0}

    def set_controls(self, controls):
        self.controls_set.append(dict(controls))

    def switch_mode_and_capture_array(self, config, name="main"):
        self.still_config = config
        return self._bgr(config["main"]["size"])

    def stop(self):
        self.started = False

    def close(self):
        self.closed = True


@pytest.fixture
def fake_picamera2(monkeypatch):
    module = types.ModuleType("picamera2")
    module.Picamera2 = FakePicamera2
    FakePicamera2.instances = []
    FakePicamera2.fail_start = False
    monkeypatch.setitem(sys.modules, "picamera2", module)
    return module


class Clock:
    def __init__(self):
        self.now = 0.0

    def __call__(self):
        return self.now


def test_streams_are_configured_for_opencv(fake_picamera2):
    with Picamera2Source(size=(1280, 960), lores_size=(640, 480), clock=Clock()) as source:
        camera = FakePicamera2.instances[0]
        assert camera.configured["main"] == {"size": (1280, 960), "format": "RGB888"}
        assert camera.configured["lores"] == {"size": (640, 480), "format": "YUV420"}
        frame = source.read()
        # RGB888 is B, G, R in memory: handed over unchanged, not swapped.
        assert frame.shape == (960, 1280, 3) and tuple(frame[5, 5]) == TOKEN_BGR
        preview = source.read_lores()
        assert preview.shape == (480, 640, 3)
        assert np.abs(preview[100, 100].astype(int) - TOKEN_BGR).max() <= 3
    assert camera.closed and not camera.started


def test_camera_module_3_focuses_once_at_start(fake_picamera2):
    original = FakePicamera2.__init__

    def with_autofocus(self, camera_num=0):
        original(self, camera_num)
        self.camera_controls["AfMode"] = (0, 2, 0)

    fake_picamera2.Picamera2 = type("Picamera2", (FakePicamera2,), {"__init__": with_autofocus})
    with Picamera2Source(clock=Clock()):
        assert FakePicamera2.instances[0].controls_set == [{"AfMode": 1, "AfTrigger": 0}]


def test_camera_without_autofocus_gets_no_focus_controls(fake_picamera2):
    with Picamera2Source(clock=Clock()):
        assert FakePicamera2.instances[0].controls_set == []


def test_exposure_and_colour_lock_after_the_first_second(fake_picamera2):
    clock = Clock()
    stored = []
    source = Picamera2Source(clock=clock, on_lock=stored.append)
    source.open()
    camera = FakePicamera2.instances[0]
    clock.now = 0.5
    source.read()
    assert camera.controls_set == [] and source.lock is None  # still measuring
    clock.now = 1.05
    source.read()
    expected = CameraLock(16621, 2.25, (1.93, 1.61))
    assert camera.controls_set == [
        {
            "AeEnable": False,
            "AwbEnable": False,
            "ExposureTime": 16621,
            "AnalogueGain": 2.25,
            "ColourGains": (1.93, 1.61),
        }
    ]
    assert source.lock == expected and stored == [expected]
    clock.now = 30.0
    source.read()
    assert len(camera.controls_set) == 1 and camera.metadata_calls == 1  # locked once, stays locked
    source.close()


def test_stored_lock_is_reapplied_without_measuring(fake_picamera2):
    lock = CameraLock(9000, 1.5, (2.0, 1.4))
    clock = Clock()
    with Picamera2Source(lock=lock, clock=clock) as source:
        camera = FakePicamera2.instances[0]
        assert camera.configured["controls"] == lock.controls()
        clock.now = 5.0
        source.read()
        assert camera.metadata_calls == 0 and camera.controls_set == []


def test_relock_measures_again(fake_picamera2):
    clock = Clock()
    with Picamera2Source(lock=CameraLock(9000, 1.5, (2.0, 1.4)), clock=clock) as source:
        camera = FakePicamera2.instances[0]
        clock.now = 10.0
        source.relock()
        source.read()
        assert camera.controls_set == [{"AeEnable": True, "AwbEnable": True}]
        clock.now = 11.5
        source.read()
        assert source.lock == CameraLock(16621, 2.25, (1.93, 1.61))


def test_full_resolution_still_keeps_the_lock(fake_picamera2):
    clock = Clock()
    with Picamera2Source(clock=clock) as source:
        clock.now = 2.0
        source.read()
        still = source.capture_full()
        camera = FakePicamera2.instances[0]
        assert still.shape == (2592, 4608, 3) and tuple(still[0, 0]) == TOKEN_BGR
        assert camera.still_config["main"] == {"size": (4608, 2592), "format": "RGB888"}
        assert camera.still_config["controls"] == source.lock.controls()


def test_camera_vanishing_is_reported_not_raised(fake_picamera2):
    with Picamera2Source(clock=Clock()) as source:
        FakePicamera2.instances[0].unplugged = True
        assert source.read() is None
        assert source.state == LOST and "Device timeout" in source.problem


def test_camera_that_will_not_start(fake_picamera2):
    FakePicamera2.fail_start = True
    source = Picamera2Source()
    with pytest.raises(CameraError, match="Raspberry Pi camera: cannot be started"):
        source.open()
    assert FakePicamera2.instances[0].closed and source.state != OPEN


def test_missing_picamera2_says_how_to_install(monkeypatch):
    monkeypatch.setitem(sys.modules, "picamera2", None)  # import fails like it does off a Pi
    with pytest.raises(CameraError) as caught:
        Picamera2Source().open()
    assert str(caught.value) == MISSING and "apt install python3-picamera2" in MISSING


def test_auto_config_uses_the_stored_lock(fake_picamera2):
    lock = CameraLock(12000, 2.0, (1.8, 1.5))
    source = camera_candidates(
        Config(camera="auto", camera_lock=lock, camera_width=2304, camera_height=1296)
    )[0]()
    assert isinstance(source, Picamera2Source) and source.lock == lock and source.size == (2304, 1296)


def test_yuv_conversion_rejects_garbage():
    assert yuv420_to_bgr(np.zeros((7, 8), np.uint8), 8) is None
    assert yuv420_to_bgr(np.zeros((6, 8, 3), np.uint8), 8).shape == (6, 8, 3)


def test_reopened_camera_keeps_the_exposure_measured_before(fake_picamera2):
    # After a reconnect the new camera object starts locked at the same values: no colour jump.
    clock = Clock()
    stored = []
    first_factory = camera_candidates(Config(camera="picamera2"), on_lock=stored.append)[0]
    first = first_factory()
    first._clock = clock  # the factory makes sources on the real clock; drive this one by hand
    first.open()
    clock.now = 1.5
    first.read()
    first.close()
    again = first_factory()
    again.open()
    assert again.lock == CameraLock(16621, 2.25, (1.93, 1.61)) == stored[0]
    assert FakePicamera2.instances[1].configured["controls"] == stored[0].controls()
    assert len(stored) == 1
    again.close()
