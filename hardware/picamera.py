"""The Raspberry Pi camera (Camera Module 3 and friends) through picamera2.

picamera2 only exists on a Raspberry Pi (from apt: python3-picamera2), so it is imported inside
``open()`` and nowhere else. Two streams run at once: "main" at the configured size for live
detection and "lores" (small, YUV420 as the Pi 4 requires) for the preview; ``capture_full()``
switches briefly to the full sensor resolution for the reading a player confirms.

Exposure and colour gains are measured by the camera during the first second and then locked
(AeEnable/AwbEnable off, the measured ExposureTime/AnalogueGain/ColourGains set), so a token's
colour does not drift while hands and heads move over the table. The locked values are handed to
``on_lock`` to be stored with the calibration and passed back in as ``lock`` next time.
"""

from __future__ import annotations

import importlib
import logging
import time
from collections.abc import Callable
from types import ModuleType
from typing import Any

import cv2
import numpy as np

from companion.config import CameraLock
from hardware.sources import CLOSED, OPEN, CameraError, FrameSource, as_bgr

log = logging.getLogger(__name__)

# picamera2 names formats after libcamera's little-endian words: "RGB888" arrives as B, G, R bytes,
# which is exactly OpenCV's BGR. ("BGR888" would be R, G, B.)
MAIN_FORMAT = "RGB888"
LORES_FORMAT = "YUV420"
# libcamera's enum values, so libcamera itself need not be imported: AfModeAuto, AfTriggerStart.
AF_MODE_AUTO, AF_TRIGGER_START = 1, 0
MISSING = (
    "picamera2 is not installed; on Raspberry Pi OS run 'sudo apt install python3-picamera2' "
    "(the venv needs --system-site-packages, which deploy/install.sh sets up)"
)


def import_picamera2() -> ModuleType:
    """The picamera2 module, or CameraError saying how to get it."""
    try:
        return importlib.import_module("picamera2")
    except ImportError as exc:
        raise CameraError(MISSING) from exc


def yuv420_to_bgr(array: np.ndarray, width: int) -> np.ndarray | None:
    """A picamera2 YUV420 (I420) array, rows possibly padded to the stride, as a BGR frame."""
    if not isinstance(array, np.ndarray) or array.ndim != 2 or array.dtype != np.uint8:
        return as_bgr(array)
    if array.shape[0] % 3 or array.shape[0] < 3:
        return None
    bgr = cv2.cvtColor(np.ascontiguousarray(array), cv2.COLOR_YUV2BGR_I420)
    return np.ascontiguousarray(bgr[:, :width])


def measured_lock(metadata: dict[str, Any]) -> CameraLock | None:
    """The exposure and gains the camera settled on, from one frame's metadata (None if missing)."""
    try:
        red, blue = metadata["ColourGains"][:2]
        return CameraLock(
            int(metadata["ExposureTime"]), float(metadata["AnalogueGain"]), (float(red), float(blue))
        )
    except (KeyError, TypeError, ValueError):
        return None


class Picamera2Source(FrameSource):
    """The Pi camera: main stream for detection, lores for preview, full-resolution stills."""

    name = "Raspberry Pi camera"

    def __init__(
        self,
        size: tuple[int, int] = (1280, 960),
        lores_size: tuple[int, int] = (640, 480),
        lock: CameraLock | None = None,
        lock_after: float = 1.0,
        on_lock: Callable[[CameraLock], None] | None = None,
        camera_num: int = 0,
        module: ModuleType | None = None,
        clock: Callable[[], float] = time.monotonic,
    ) -> None:
        super().__init__()
        self.size = (int(size[0]), int(size[1]))
        # lores can be no larger than main.
        self.lores_size = (min(lores_size[0], self.size[0]), min(lores_size[1], self.size[1]))
        self.lock = lock
        self.lock_after = lock_after
        self.on_lock = on_lock
        self.camera_num = camera_num
        self._module = module
        self._clock = clock
        self._camera: Any = None
        self._started = 0.0

    def _lock_controls(self) -> dict[str, Any]:
        return self.lock.controls() if self.lock is not None else {}

    def open(self) -> None:
        module = self._module or import_picamera2()
        camera = None
        try:
            camera = module.Picamera2(self.camera_num)
            config = camera.create_video_configuration(
                main={"size": self.size, "format": MAIN_FORMAT},
                lores={"size": self.lores_size, "format": LORES_FORMAT},
                controls=self._lock_controls(),
            )
            camera.configure(config)
            camera.start()
            if "AfMode" in getattr(camera, "camera_controls", {}):
                # Camera Module 3: one focus scan at start, then the lens stays put (the table
                # does not move; continuous focus would hunt whenever a hand goes by).
                camera.set_controls({"AfMode": AF_MODE_AUTO, "AfTrigger": AF_TRIGGER_START})
        except Exception as exc:  # libcamera raises RuntimeError/IndexError/...: one line for a player
            if camera is not None:
                _quietly(camera.close)
            raise CameraError(f"{self.name}: cannot be started ({exc or type(exc).__name__})") from exc
        self._camera = camera
        self._started = self._clock()
        self.state, self.problem = OPEN, ""

    def _maybe_lock(self) -> None:
        """After the first second, hold whatever exposure and gains the camera settled on."""
        if self.lock is not None or self._clock() - self._started < self.lock_after:
            return
        metadata = self._camera.capture_metadata()
        if hasattr(metadata, "result"):  # early picamera2 releases returned a Future here
            metadata = metadata.result()
        lock = measured_lock(metadata)
        if lock is None:
            return
        self._camera.set_controls(lock.controls())
        self.lock = lock
        log.info("%s: exposure locked at %s", self.name, lock)
        if self.on_lock is not None:
            try:
                self.on_lock(lock)
            except Exception:  # the caller's bug must not look like a lost camera
                log.exception("%s: on_lock callback failed", self.name)

    def relock(self) -> None:
        """Let the camera measure exposure and colour again (new light), then lock once more."""
        if self._camera is None:
            return
        self._camera.set_controls({"AeEnable": True, "AwbEnable": True})
        self.lock = None
        self._started = self._clock()

    def _capture(self, stream: str) -> np.ndarray | None:
        if self._camera is None or self.state == CLOSED:
            return None
        try:
            array = self._camera.capture_array(stream)
            self._maybe_lock()
        except Exception as exc:  # the camera's cable came loose, or libcamera gave up
            return self._lost(f"stopped working ({exc or type(exc).__name__})")
        frame = yuv420_to_bgr(array, self.lores_size[0]) if stream == "lores" else as_bgr(array)
        if frame is not None:
            self.state, self.problem = OPEN, ""
        return frame

    def read(self) -> np.ndarray | None:
        return self._capture("main")

    def read_lores(self) -> np.ndarray | None:
        """The small preview frame (lores stream), BGR."""
        return self._capture("lores")

    def capture_full(self) -> np.ndarray | None:
        """One still at the sensor's full resolution with the same locked exposure, then back to video."""
        if self._camera is None or self.state == CLOSED:
            return None
        try:
            still = self._camera.create_still_configuration(
                main={"size": tuple(self._camera.sensor_resolution), "format": MAIN_FORMAT},
                controls=self._lock_controls(),
            )
            array = self._camera.switch_mode_and_capture_array(still, "main")
        except Exception as exc:  # as in _capture
            return self._lost(f"full-resolution capture failed ({exc or type(exc).__name__})")
        return as_bgr(array)

    def close(self) -> None:
        if self._camera is not None:
            _quietly(self._camera.stop)
            _quietly(self._camera.close)
            self._camera = None
        self.state = CLOSED


def _quietly(action: Callable[[], Any]) -> None:
    try:
        action()
    except Exception as exc:  # stopping a camera that already vanished; nothing left to do
        log.debug("camera cleanup: %s", exc)
