"""A camera that comes back: reports "camera lost" / "camera back" and reopens in the background.

The game never notices: while the camera is away ``read()`` returns None at once, and a thread
tries to reopen it with growing pauses (0.5 s, 1 s, 2 s, ... up to 8 s). Status changes go to
``on_status`` from whichever thread saw them; a UI marshals them to its own thread.
"""

from __future__ import annotations

import logging
import threading
from collections.abc import Callable, Sequence

import numpy as np

from hardware.sources import CLOSED, ENDED, LOST, OPEN, CameraError, FrameSource

log = logging.getLogger(__name__)

CAMERA_OK, CAMERA_LOST, CAMERA_BACK = "camera ok", "camera lost", "camera back"
BACKOFF = (0.5, 1.0, 2.0, 4.0, 8.0)


class ReconnectingSource(FrameSource):
    """Wraps a source made by ``factory`` and remakes it whenever it is lost."""

    def __init__(
        self,
        factory: Callable[[], FrameSource],
        first: FrameSource | None = None,
        on_status: Callable[[str], None] | None = None,
        backoff: Sequence[float] = BACKOFF,
    ) -> None:
        super().__init__()
        self._factory = factory
        self._source = first if first is not None and first.state == OPEN else None
        if first is not None and self._source is None:
            first.close()
        self.on_status = on_status
        self.backoff = tuple(backoff)
        self.status = CAMERA_OK if self._source is not None else ""
        self.attempts = 0  # reopen attempts since the camera was lost
        self._lock = threading.Lock()
        self._stop = threading.Event()
        self._thread: threading.Thread | None = None
        if self._source is not None:
            self.name = self._source.name
            self.state = OPEN

    def open(self) -> None:
        """Open the camera now (CameraError if it is not there); later losses are handled inside."""
        with self._lock:
            if self._source is not None:
                return
        source = self._factory()
        source.open()
        with self._lock:
            self._source = source
            self._stop.clear()
            self.name, self.state, self.problem, self.status = source.name, OPEN, "", CAMERA_OK

    def _tell(self, status: str) -> None:
        self.status = status
        if self.on_status is not None:
            try:
                self.on_status(status)
            except Exception:  # a broken callback must not stop the camera
                log.exception("camera status callback failed")

    def _lose(self, source: FrameSource) -> None:
        with self._lock:
            if self._source is not source or self._stop.is_set():
                return
            self._source = None
            self.state, self.problem = LOST, source.problem or "camera lost"
            self.attempts = 0
        source.close()  # free the device before anything tries to open it again
        self._tell(CAMERA_LOST)
        with self._lock:
            if self._stop.is_set():
                return
            self._thread = threading.Thread(target=self._reconnect, name="camera-reconnect", daemon=True)
            self._thread.start()

    def _reconnect(self) -> None:
        step = 0
        while not self._stop.wait(self.backoff[min(step, len(self.backoff) - 1)]):
            step += 1
            self.attempts = step
            try:
                source = self._factory()
                source.open()
            except CameraError as exc:
                self.problem = str(exc)
                continue
            except Exception as exc:  # anything else: this thread must live on, or the camera never returns
                log.warning("reopening the camera failed: %s", exc)
                self.problem = f"reopening failed ({exc})"
                continue
            with self._lock:
                if self._stop.is_set():
                    source.close()
                    return
                self._source = source
                self.state, self.problem = OPEN, ""
            self._tell(CAMERA_BACK)
            return

    def _current(self) -> FrameSource | None:
        with self._lock:
            return self._source

    def read(self) -> np.ndarray | None:
        source = self._current()
        if source is None:
            return None
        frame = source.read()
        if frame is None and source.state == LOST:
            self._lose(source)
        elif frame is None and source.state == ENDED:
            self.state = ENDED
        return frame

    def capture_full(self) -> np.ndarray | None:
        source = self._current()
        if source is None:
            return None
        frame = source.capture_full()
        if frame is None and source.state == LOST:
            self._lose(source)
        return frame

    @property
    def inner(self) -> FrameSource | None:
        """The camera source in use now (None while reconnecting)."""
        return self._current()

    def close(self) -> None:
        self._stop.set()
        thread = self._thread
        if thread is not None and thread is not threading.current_thread():
            thread.join(timeout=2.0)
        with self._lock:
            source, self._source = self._source, None
        if source is not None:
            source.close()
        self.state = CLOSED
