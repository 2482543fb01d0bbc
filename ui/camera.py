"""Frames and readings for the live table, off the UI thread.

``open_source(spec, kind)`` opens the camera the settings name (``auto``, ``picamera2``,
``opencv:N``, ``folder:PATH``) through the hardware package; with no camera it falls back to the
demo table: rendered frames of the game's pieces (``vision.render.<kind>.scene``), while it keeps
looking for the camera (``CameraWatch``). ``TableFeed``
runs two threads: one grabs frames as fast as the source gives them (the preview), one runs the
reader on the newest frame (the reading). Results reach the screen through callbacks that the
caller hands to Kivy's Clock; nothing here touches a widget.
"""

from __future__ import annotations

import importlib
import os
import threading
import time
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any

import numpy as np

READER_NICENESS = 10  # the reader process runs at a lower priority than the screen


class SourceError(RuntimeError):
    """A camera that cannot be opened or read; the message is one line for a player."""


class DemoTable:
    """The built-in demo table: rendered scenes of the game's pieces, one scene at a time.

    ``advance(**scene)`` asks for the next scene, with the pieces the game needs now when the
    screen knows them (``colours`` of the butts in the bag, ``kinds`` of the dice in play: see
    ui.panels.demo_scene), so the demo walks through a real game: frame, reading, confirm, score.
    Rendering happens in the grab thread (``read``), never on the UI thread; a scene is rendered
    once and then served as the same array, so the reader does not re-read an unchanged picture.
    """

    is_demo = True
    note = ""

    def __init__(self, kind: str, seed: int = 1, size: tuple[int, int] = (1280, 960)):
        self.kind = kind
        self.seed = seed
        self.size = size
        self._frame: np.ndarray | None = None
        self._wanted: dict[str, Any] | None = {}
        self.truth: list[dict[str, Any]] = []
        self._lock = threading.Lock()
        self._open = False

    def open(self) -> None:
        self._open = True

    def _render(self, scene_args: dict[str, Any]) -> None:
        try:
            render = importlib.import_module(f"vision.render.{self.kind}")
            frame, truth = render.scene(self.seed, **scene_args)
        except Exception:  # no renderer installed (or it failed): an empty wooden table
            frame, truth = _empty_table(self.size, self.seed), []
        with self._lock:
            self._frame = np.ascontiguousarray(frame)
            self.truth = list(truth)

    def advance(self, **scene_args: Any) -> None:
        """Show the next scene of the demo game (rendered by the next ``read``)."""
        with self._lock:
            self.seed += 1
            self._wanted = dict(scene_args)

    def read(self) -> np.ndarray:
        if not self._open:
            raise SourceError("the demo table is not open")
        with self._lock:
            wanted, self._wanted = self._wanted, None
        if wanted is not None:
            self._render(wanted)
        else:
            time.sleep(1 / 30)  # a camera's pace, so the preview thread does not spin
        with self._lock:
            if self._frame is None:
                raise SourceError("the demo table is not open")
            return self._frame

    def close(self) -> None:
        with self._lock:
            self._open = False
            self._frame = None


class CameraWatch(DemoTable):
    """The demo table shown while the camera asked for is missing, which keeps looking for it.

    A camera plugged in after the companion started (or one slow to wake at boot, before the
    service) is found within ``interval`` seconds: from then on ``read`` gives its frames,
    ``is_demo`` turns False and ``on_found`` is called (from the watcher thread). ``opener``
    returns an open camera source, or None while there is none.
    """

    def __init__(self, kind: str, opener: Callable[[], Any], interval: float = 5.0, seed: int = 1,
                 size: tuple[int, int] = (1280, 960)):
        super().__init__(kind, seed, size)
        self._opener = opener
        self.interval = interval
        self.camera: Any = None
        self.on_found: Callable[[], None] | None = None
        self._stop = threading.Event()
        self._watcher: threading.Thread | None = None

    @property
    def is_demo(self) -> bool:  # type: ignore[override]
        return self.camera is None

    @property
    def name(self) -> str:
        return getattr(self.camera, "name", "demo")

    @property
    def problem(self) -> str:
        return getattr(self.camera, "problem", "")

    @property
    def inner(self) -> Any:
        """The camera once found (the calibration wizard reaches the Pi camera through it)."""
        return self.camera

    def open(self) -> None:
        super().open()
        self._stop.clear()
        if self.camera is None and (self._watcher is None or not self._watcher.is_alive()):
            self._watcher = threading.Thread(target=self._watch, daemon=True, name="camera-watch")
            self._watcher.start()

    def _watch(self) -> None:
        while not self._stop.wait(self.interval):
            try:
                source = self._opener()
            except Exception:  # a driver failing while nothing is plugged in: keep looking
                source = None
            if source is None:
                continue
            with self._lock:
                if self._stop.is_set():  # closed while the camera was opening: free it again
                    found = False
                else:
                    self.camera, self.note, found = source, "", True
            if not found:
                source.close()
                return
            if self.on_found is not None:
                try:
                    self.on_found()
                except Exception:  # a broken callback must not take the camera away
                    pass
            return

    def advance(self, **scene_args: Any) -> None:
        if self.camera is None:
            super().advance(**scene_args)

    def read(self) -> np.ndarray | None:
        camera = self.camera
        if camera is not None:
            return camera.read()
        return super().read()

    def close(self) -> None:
        self._stop.set()
        watcher = self._watcher
        if watcher is not None and watcher is not threading.current_thread():
            watcher.join(timeout=0.5)  # a camera opening late is closed by the watcher itself
        with self._lock:
            camera, self.camera = self.camera, None
        if camera is not None:
            camera.close()
        super().close()


def _empty_table(size: tuple[int, int], seed: int) -> np.ndarray:
    try:
        from vision.render.effects import wood_texture

        return wood_texture(size[1], size[0], np.random.default_rng(seed))
    except Exception:
        img = np.empty((size[1], size[0], 3), np.uint8)
        img[:] = (60, 100, 150)
        return img


CAMERA_KINDS = ("auto", "picamera2", "opencv", "folder", "demo")


def open_source(spec: str, kind: str, config: Any = None) -> Any:
    """Open the camera named by ``spec`` through hardware.sources; the demo table when none works.

    The returned source has a ``note`` (one line, empty when all is well) saying why the demo table
    is shown instead of the camera asked for.
    """
    notes: list[str] = []
    if spec.split(":", 1)[0] not in CAMERA_KINDS:
        notes.append(f"{spec!r} is not a camera setting (auto, picamera2, opencv:N, folder:PATH, demo)")
    elif spec != "demo":
        try:
            from hardware.sources import open_camera

            source = open_camera(_camera_config(spec, config), on_message=notes.append)
        except ImportError as exc:
            notes.append(f"the camera support is not installed ({exc.name})")
            source = None
        except Exception as exc:  # a driver failing in a way the hardware layer did not foresee
            notes.append(str(exc) or type(exc).__name__)
            source = None
        if source is not None:
            source.note = ""
            return source
    note = notes[-1] if notes and spec not in ("auto", "") else ""
    if spec.split(":", 1)[0] in ("auto", "picamera2", "opencv"):
        demo: DemoTable = CameraWatch(kind, lambda: _try_camera(spec, config))
    else:
        demo = DemoTable(kind)
    demo.open()
    demo.note = note
    return demo


def _try_camera(spec: str, config: Any) -> Any:
    """One quiet attempt to open the camera ``spec`` names: the open source, or None."""
    from hardware.sources import open_camera

    source = open_camera(_camera_config(spec, config), on_message=lambda _line: None)
    if source is not None:
        source.note = ""
    return source


def _camera_config(spec: str, config: Any) -> Any:
    """The config file's camera settings with the source replaced by ``spec``."""
    import dataclasses

    from companion.config import Config

    return dataclasses.replace(config if config is not None else Config(), camera=spec)


def read_objects(kind: str, profile: dict | None, frame: np.ndarray) -> list[dict[str, Any]]:
    """Run the reader of ``kind`` on one frame (in the reader process): the observation's objects."""
    module = importlib.import_module(f"vision.{kind}")
    obs = module.read(frame, profile) if profile is not None else module.read(frame)
    return [dict(o) for o in obs.objects]


def _reader_process_start() -> None:
    """In the reader process: yield the processor to the screen when both want it, and keep the
    memory one read frees for the next (no fresh pages a frame: ``vision.keep_heap``)."""
    try:
        os.nice(READER_NICENESS)
    except (AttributeError, OSError):  # no nice() here: run at the same priority
        pass
    from vision import keep_heap

    keep_heap()


_ATTACHED: dict[str, Any] = {}  # in the reader process: the shared frame block it has mapped


def read_shared(kind: str, profile: dict | None, name: str, shape: tuple[int, ...], dtype: str) -> list[dict[str, Any]]:
    """In the reader process: read the frame the screen's process left in the shared block ``name``."""
    shm = _ATTACHED.get(name)
    if shm is None:
        from multiprocessing import shared_memory

        # the screen's process made the block and unlinks it (this process shares its resource tracker)
        shm = shared_memory.SharedMemory(name=name)
        for old in _ATTACHED.values():
            old.close()
        _ATTACHED.clear()
        _ATTACHED[name] = shm
    return read_objects(kind, profile, np.ndarray(shape, dtype=np.dtype(dtype), buffer=shm.buf))


class ProcessReader:
    """The reader in its own process, so its Python work never holds the UI process's GIL.

    Calling it blocks the calling (reader) thread until the objects are back. The frame travels
    through a block of shared memory (one copy, where pickling it through the pool's pipe cost
    the screen process's processor time: ``python3 -m ui.bench --transfer`` compares the two);
    ``shared`` is False where shared memory is missing, and the frame is then pickled. ``close``
    ends the process and frees the block.
    """

    def __init__(self, kind: str, profile: dict | None = None):
        import multiprocessing
        from concurrent.futures import ProcessPoolExecutor

        self.kind, self.profile = kind, profile
        # the spawned process loads numpy afresh with this environment: one BLAS thread, or its
        # spinning workers take a second core from this screen
        from vision import single_threaded_blas

        single_threaded_blas()
        # spawn, not fork: a forked copy of a process holding a window and GL context is unsafe
        self.pool = ProcessPoolExecutor(max_workers=1, mp_context=multiprocessing.get_context("spawn"),
                                        initializer=_reader_process_start)
        self._shm: Any = None
        self.shared = True

    def _block(self, nbytes: int) -> Any:
        """The shared block, made anew when a frame no longer fits in it; None without shared memory."""
        if self._shm is not None and self._shm.size >= nbytes:
            return self._shm
        self._free()
        try:
            from multiprocessing import shared_memory

            self._shm = shared_memory.SharedMemory(create=True, size=nbytes)
        except (ImportError, OSError):  # no /dev/shm here: pickle the frames instead
            self.shared = False
        return self._shm

    def __call__(self, frame: np.ndarray) -> Any:
        frame = np.ascontiguousarray(frame)
        shm = self._block(frame.nbytes) if self.shared else None
        if shm is None:
            future = self.pool.submit(read_objects, self.kind, self.profile, frame)
        else:
            np.ndarray(frame.shape, dtype=frame.dtype, buffer=shm.buf)[...] = frame
            future = self.pool.submit(read_shared, self.kind, self.profile, shm.name, frame.shape, frame.dtype.str)
        return _Objects(future.result(timeout=30))

    def _free(self) -> None:
        if self._shm is not None:
            self._shm.close()
            self._shm.unlink()
            self._shm = None

    def close(self) -> None:
        self.pool.shutdown(wait=False, cancel_futures=True)
        self._free()  # a read still running keeps its mapping until it ends


@dataclass
class _Objects:
    objects: list[dict[str, Any]]


def load_reader(kind: str, profile: dict | None = None, in_process: bool = True) -> Callable[[np.ndarray], Any] | None:
    """The reader for this kind (with the players' taught profile, if any), run in a reader
    process by default; None when that reader is not installed."""
    try:
        read = importlib.import_module(f"vision.{kind}").read
    except ImportError:
        return None
    if in_process:
        try:
            return ProcessReader(kind, profile)
        except (OSError, ValueError, RuntimeError):  # no processes here: read in the thread instead
            pass
    if profile is None:
        return read
    return lambda frame: read(frame, profile)


@dataclass
class FeedStats:
    """Frame and reading timings, for the settings preview and the benchmark."""

    frames: int = 0
    readings: int = 0
    started: float = field(default_factory=time.perf_counter)
    read_ms: list[float] = field(default_factory=list)

    def fps(self) -> float:
        elapsed = time.perf_counter() - self.started
        return self.frames / elapsed if elapsed > 0 else 0.0


class TableFeed:
    """Grab frames and read them in two worker threads; hand both out through callbacks.

    ``on_frame(preview, (width, height))`` gets each new frame scaled for the screen with the
    camera frame's size, ``on_reading(objects, frame_time)`` each reading,
    ``on_error(message)`` a one-line problem. The callbacks run in the worker threads: the UI
    wraps them in ``Clock.schedule_once`` so widgets change only on the main thread.
    """

    def __init__(self, source: Any, reader: Callable[[np.ndarray], Any] | None,
                 on_frame: Callable[[np.ndarray, tuple[int, int]], None],
                 on_reading: Callable[[list[dict], float], None], on_error: Callable[[str], None],
                 preview_width: int = 800, reads_per_second: float = 10.0):
        self.source = source
        self.preview_width = preview_width
        self.read_interval = 1.0 / reads_per_second
        self.reader = reader
        self.on_frame = on_frame
        self.on_reading = on_reading
        self.on_error = on_error
        self.stats = FeedStats()
        self._stop = threading.Event()
        self._new = threading.Condition()
        self._latest: tuple[np.ndarray, float] | None = None
        self._threads: list[threading.Thread] = []
        self.latest_frame: np.ndarray | None = None  # full size, for photos taken to teach the reader

    def start(self) -> None:
        for target in (self._grab, self._read):
            t = threading.Thread(target=target, daemon=True, name=f"table-{target.__name__}")
            t.start()
            self._threads.append(t)

    def stop(self) -> None:
        """Stop both threads and close the camera."""
        self._stop.set()
        with self._new:
            self._new.notify_all()
        for t in self._threads:
            t.join(timeout=2)
        if hasattr(self.reader, "close"):
            self.reader.close()
        try:
            self.source.close()
        except Exception as exc:
            self.on_error(str(exc))

    def _grab(self) -> None:
        last = None
        failures = 0
        reported = ""
        while not self._stop.is_set():
            try:
                frame = self.source.read()
                failures = 0
            except Exception as exc:
                failures += 1
                if failures in (1, 30):
                    self.on_error(str(exc) or type(exc).__name__)
                time.sleep(0.1)
                continue
            if frame is None:  # a lost camera says why once; the reconnecting source brings it back
                problem = getattr(self.source, "problem", "")
                if problem and problem != reported:
                    self.on_error(problem)
                reported = problem
                time.sleep(0.02)
                continue
            reported = ""
            self.stats.frames += 1
            self.latest_frame = frame
            if frame is not last:
                self.on_frame(self.preview(frame), (frame.shape[1], frame.shape[0]))
            elif self.stats.frames % 15 == 0:  # an unchanged demo frame: a slow refresh is enough
                self.on_frame(self.preview(frame), (frame.shape[1], frame.shape[0]))
            if frame is not last:  # an unchanged demo frame is not read again
                last = frame
                with self._new:
                    self._latest = (frame, time.perf_counter())
                    self._new.notify()

    def preview(self, frame: np.ndarray) -> np.ndarray:
        """The frame scaled down for the screen (in this thread, so the UI thread only blits)."""
        h, w = frame.shape[:2]
        if w <= self.preview_width:
            return np.ascontiguousarray(frame)
        import cv2

        size = (self.preview_width, max(1, round(h * self.preview_width / w)))
        return cv2.resize(frame, size, interpolation=cv2.INTER_AREA)

    def _read(self) -> None:
        next_read = 0.0
        while not self._stop.is_set():
            wait = next_read - time.perf_counter()
            if wait > 0:  # leave the processor to the preview between readings
                self._stop.wait(wait)
            next_read = time.perf_counter() + self.read_interval
            with self._new:
                while self._latest is None and not self._stop.is_set():
                    self._new.wait(0.2)
                if self._stop.is_set():
                    return
                frame, t_frame = self._latest
                self._latest = None
            if self.reader is None:
                continue
            t0 = time.perf_counter()
            try:
                obs = self.reader(frame)
                objects = [dict(o) for o in getattr(obs, "objects", [])]
            except Exception as exc:  # a reader must not raise, but the table must not die if one does
                self.on_error(str(exc) or type(exc).__name__)
                continue
            self.stats.read_ms.append((time.perf_counter() - t0) * 1000)
            self.stats.readings += 1
            self.on_reading(objects, t_frame)
