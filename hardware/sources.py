"""Camera frame sources behind one small interface, and the choice of which camera to use.

Every source hands out BGR uint8 frames, the layout OpenCV and ``vision`` expect. ``read()`` never
raises: a camera that vanished makes it return None and sets ``state`` to "lost" with a one-line
``problem``, so the caller can show that and carry on (``ReconnectingSource`` reopens it).
"""

from __future__ import annotations

import logging
import re
import sys
import time
from abc import ABC, abstractmethod
from collections.abc import Callable
from pathlib import Path
from typing import Any

import cv2
import numpy as np

from companion.config import CameraLock, Config

log = logging.getLogger(__name__)

OPEN, CLOSED, LOST, ENDED = "open", "closed", "lost", "ended"
IMAGE_SUFFIXES = {".jpg", ".jpeg", ".png", ".bmp", ".webp", ".tif", ".tiff"}
VIDEO_SUFFIXES = {".mp4", ".avi", ".mkv", ".mov", ".webm", ".mjpeg", ".mjpg"}
FOLDER_FPS = 5.0  # a folder named in the config plays like a slow camera


class CameraError(RuntimeError):
    """A camera could not be opened; the message says why in one line."""


class FrameSource(ABC):
    """Something that gives BGR frames: open it, read frames, close it (or use ``with``)."""

    name: str = "camera"

    def __init__(self) -> None:
        self.state = CLOSED
        self.problem = ""

    @abstractmethod
    def open(self) -> None:
        """Start the camera; raises CameraError with a one-line reason when it cannot."""

    @abstractmethod
    def read(self) -> np.ndarray | None:
        """The newest frame (BGR uint8), or None when there is none; never raises."""

    @abstractmethod
    def close(self) -> None:
        """Stop the camera and free it; safe to call twice."""

    def capture_full(self) -> np.ndarray | None:
        """The sharpest frame this source can give, for a reading that gets confirmed."""
        return self.read()

    def _lost(self, problem: str) -> None:
        if self.state != LOST:
            log.warning("%s: %s", self.name, problem)
        self.state, self.problem = LOST, problem
        return None

    def __enter__(self) -> FrameSource:
        self.open()
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()


def as_bgr(frame: Any) -> np.ndarray | None:
    """A camera's array as a 3-channel BGR uint8 frame (gray and BGRA converted), else None."""
    if not isinstance(frame, np.ndarray) or frame.dtype != np.uint8 or frame.size == 0:
        return None
    if frame.ndim == 2:
        return cv2.cvtColor(frame, cv2.COLOR_GRAY2BGR)
    if frame.ndim == 3 and frame.shape[2] == 3:
        return frame
    if frame.ndim == 3 and frame.shape[2] == 4:
        return np.ascontiguousarray(frame[:, :, :3])
    if frame.ndim == 3 and frame.shape[2] == 1:
        return cv2.cvtColor(frame, cv2.COLOR_GRAY2BGR)
    return None


def _natural_key(path: Path) -> list[Any]:
    return [int(part) if part.isdigit() else part.lower() for part in re.split(r"(\d+)", path.name)]


class ReplaySource(FrameSource):
    """Frames from a folder of images (natural sort order) or a video file, at an optional rate.

    Used by the demo table and the tests. With ``loop`` the frames start over at the end; without,
    ``read()`` returns None and ``state`` becomes "ended".
    """

    def __init__(
        self,
        path: str | Path,
        fps: float | None = None,
        loop: bool = True,
        clock: Callable[[], float] = time.monotonic,
        sleep: Callable[[float], None] = time.sleep,
    ) -> None:
        super().__init__()
        self.path = Path(path).expanduser()
        self.fps = fps
        self.loop = loop
        self.name = f"replay of {self.path.name or self.path}"
        self._clock, self._sleep = clock, sleep
        self._files: list[Path] = []
        self._video: Any = None
        self._index = 0
        self._due: float | None = None
        self.skipped: list[Path] = []

    def open(self) -> None:
        if self.fps is not None and not self.fps > 0:
            raise CameraError(f"{self.name}: the frame rate must be above 0, not {self.fps}")
        if self.path.is_dir():
            files = [p for p in self.path.iterdir() if p.is_file() and p.suffix.lower() in IMAGE_SUFFIXES]
            if not files:
                raise CameraError(f"{self.path}: this folder holds no images")
            self._files = sorted(files, key=_natural_key)
        elif self.path.is_file() and self.path.suffix.lower() in VIDEO_SUFFIXES:
            video = cv2.VideoCapture(str(self.path))
            if not video.isOpened():
                raise CameraError(f"{self.path}: this video cannot be played")
            self._video = video
        elif self.path.exists():
            raise CameraError(f"{self.path}: not a folder of images or a video file")
        else:
            raise CameraError(f"{self.path}: no such folder or video")
        self._index, self._due, self.skipped = 0, None, []
        self.state, self.problem = OPEN, ""

    def _pace(self) -> None:
        if self.fps is None:
            return
        now = self._clock()
        if self._due is not None and now < self._due:
            self._sleep(self._due - now)
            now = self._due
        self._due = max(now, self._due or now) + 1.0 / self.fps

    def _next_image(self) -> np.ndarray | None:
        for _ in range(len(self._files)):
            if self._index >= len(self._files):
                if not self.loop:
                    return None
                self._index = 0
            path = self._files[self._index]
            self._index += 1
            frame = as_bgr(cv2.imread(str(path), cv2.IMREAD_COLOR))
            if frame is not None:
                return frame
            if path not in self.skipped:
                self.skipped.append(path)
                log.warning("%s: cannot read %s, skipped", self.name, path.name)
        if self._index >= len(self._files) and not self.loop:
            return None
        return self._lost("none of the images can be read")

    def _next_video_frame(self) -> np.ndarray | None:
        ok, frame = self._video.read()
        if not ok and self.loop and self._index > 0:
            self._video.set(cv2.CAP_PROP_POS_FRAMES, 0)
            ok, frame = self._video.read()
        if not ok:
            return None if self._index > 0 else self._lost("the video holds no frames")
        self._index += 1
        return as_bgr(frame)

    def read(self) -> np.ndarray | None:
        if self.state != OPEN:
            return None
        try:
            self._pace()
            frame = self._next_video_frame() if self._video is not None else self._next_image()
        except (cv2.error, OSError) as exc:
            return self._lost(f"replay failed: {exc}")
        if frame is None and self.state == OPEN:
            self.state = ENDED
        return frame

    def close(self) -> None:
        if self._video is not None:
            self._video.release()
            self._video = None
        self.state = CLOSED


def _default_capture(index: int) -> Any:
    if sys.platform.startswith("linux"):
        return cv2.VideoCapture(index, cv2.CAP_V4L2)
    return cv2.VideoCapture(index)


class OpenCVSource(FrameSource):
    """Any webcam OpenCV can open (V4L2 on Linux), by index; the capture class can be injected."""

    def __init__(
        self,
        index: int = 0,
        width: int | None = None,
        height: int | None = None,
        capture_factory: Callable[[int], Any] | None = None,
        lost_after: int = 5,
    ) -> None:
        super().__init__()
        self.index = index
        self.size = (width, height)
        self.name = f"webcam {index}"
        self._factory = capture_factory or _default_capture
        self._lost_after = lost_after
        self._cap: Any = None
        self._failures = 0

    def open(self) -> None:
        try:
            cap = self._factory(self.index)
        except Exception as exc:  # a driver can throw anything; the player needs one line
            raise CameraError(f"{self.name}: cannot be opened ({exc})") from exc
        if cap is None or not cap.isOpened():
            raise CameraError(f"{self.name}: no camera found there")
        width, height = self.size
        if width and height:
            cap.set(cv2.CAP_PROP_FRAME_WIDTH, width)
            cap.set(cv2.CAP_PROP_FRAME_HEIGHT, height)
        try:
            ok, frame = cap.read()
        except cv2.error:
            ok, frame = False, None
        if not ok or as_bgr(frame) is None:
            cap.release()
            raise CameraError(f"{self.name}: opens but gives no picture")
        self._cap, self._failures = cap, 0
        self.state, self.problem = OPEN, ""

    def read(self) -> np.ndarray | None:
        if self._cap is None or self.state == CLOSED:
            return None
        try:
            ok, frame = self._cap.read()
        except Exception as exc:  # same: the caller must never see a driver's exception
            return self._lost(f"stopped working ({exc})")
        frame = as_bgr(frame) if ok else None
        if frame is None:
            self._failures += 1
            if self._failures >= self._lost_after:
                return self._lost("stopped sending pictures (unplugged?)")
            return None
        self._failures = 0
        self.state, self.problem = OPEN, ""
        return frame

    def close(self) -> None:
        if self._cap is not None:
            try:
                self._cap.release()
            except Exception as exc:  # releasing a vanished device may fail; it is gone either way
                log.debug("%s: release failed: %s", self.name, exc)
            self._cap = None
        self.state = CLOSED


def camera_candidates(
    config: Config,
    max_opencv_index: int = 4,
    on_lock: Callable[[CameraLock], None] | None = None,
) -> list[Callable[[], FrameSource]]:
    """Factories for the sources to try, in order, for the configured camera (none for demo).

    A Pi camera made again after a reconnect starts with the exposure the previous one locked,
    so colours do not shift mid-game; ``on_lock`` hears each newly measured lock.
    """
    from hardware.picamera import Picamera2Source

    size = (config.camera_width, config.camera_height)
    remembered = [config.camera_lock]

    def remember(lock: CameraLock) -> None:
        remembered[0] = lock
        if on_lock is not None:
            on_lock(lock)

    def picamera() -> FrameSource:
        return Picamera2Source(size=size, lock=remembered[0], on_lock=remember)

    def webcam(index: int) -> Callable[[], FrameSource]:
        return lambda: OpenCVSource(index, *size)

    kind, argument = config.camera_kind, config.camera_argument
    if kind == "picamera2":
        return [picamera]
    if kind == "opencv":
        return [webcam(int(argument))]
    if kind == "folder":
        return [lambda: ReplaySource(argument, fps=FOLDER_FPS, loop=True)]
    if kind == "auto":
        return [picamera] + [webcam(i) for i in range(max_opencv_index)]
    return []  # demo


def open_camera(
    config: Config,
    on_message: Callable[[str], None] | None = None,
    reconnect: bool = True,
    candidates: list[Callable[[], FrameSource]] | None = None,
    on_status: Callable[[str], None] | None = None,
    on_lock: Callable[[CameraLock], None] | None = None,
) -> FrameSource | None:
    """Open the configured camera, or with "auto" the first that works; None means use the demo.

    Each camera that fails gives one line to ``on_message``. With ``reconnect`` the source comes
    wrapped in a ReconnectingSource that reopens that same camera after it was lost and tells
    ``on_status`` ("camera lost", "camera back"). ``on_lock`` receives the Pi camera's locked
    exposure when it is measured, to be stored with the calibration.
    """
    from hardware.reconnect import ReconnectingSource

    say = on_message or log.info
    factories = camera_candidates(config, on_lock=on_lock) if candidates is None else candidates
    for factory in factories:
        source = factory()
        try:
            source.open()
        except CameraError as exc:
            say(str(exc))
            continue
        if reconnect:
            return ReconnectingSource(factory, first=source, on_status=on_status)
        return source
    if config.camera_kind != "demo":
        say("no camera works; showing the demo table")
    return None
