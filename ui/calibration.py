"""The calibration wizard's work, without Kivy: print the mat, check it in a frame, lock the colours.

``check_mat(frame)`` finds the play mat (vision.mat) and says what the picture shows: the markers
seen, the play area, the three zones and the two patches in frame pixels, the white and grey patch
readings and the colour correction gains, or why the mat is not found. ``pi_camera(source)`` finds
the Pi camera behind a source (the only camera whose exposure and gains can be locked) and
``save_lock`` keeps a measured lock in the config file.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import numpy as np

CHECK_WIDTH = 640  # markers are counted on the frame scaled to this width
WHITE_TARGET = 235.0  # vision.mat.correction_luts makes the white patch this neutral grey
MAT_SIZES = ("A4", "A3")
MAT_DPI = 150


@dataclass(frozen=True)
class MatCheck:
    """What the wizard shows of one frame: the mat found or the reason (``problem``) it is not.

    Every outline is a list of (x, y) points in frame pixels; readings are B, G, R.
    """

    problem: str  # "" (found), "no-frame", "no-markers", "few-markers", "not-the-mat", "dark"
    markers: int = 0
    frame_size: tuple[int, int] = (0, 0)
    marker_outlines: list[list[tuple[float, float]]] = field(default_factory=list)
    area: list[tuple[float, float]] = field(default_factory=list)
    zones: list[list[tuple[float, float]]] = field(default_factory=list)
    patches: list[list[tuple[float, float]]] = field(default_factory=list)  # white, grey
    white: tuple[float, float, float] | None = None
    grey: tuple[float, float, float] | None = None
    gains: tuple[float, float, float] | None = None

    @property
    def found(self) -> bool:
        return self.problem in ("", "dark")


def _points(poly: Any) -> list[tuple[float, float]]:
    return [(float(x), float(y)) for x, y in np.asarray(poly, np.float32).reshape(-1, 2)]


def _rect(x0: float, y0: float, x1: float, y1: float) -> np.ndarray:
    return np.float32([[x0, y0], [x1, y0], [x1, y1], [x0, y1]])


def seen_markers(frame: np.ndarray) -> list[list[tuple[float, float]]]:
    """Outlines (frame pixels) of the play mat's markers seen in the frame, one per marker id."""
    import cv2

    from vision import mat as matmod

    h, w = frame.shape[:2]
    f = min(1.0, CHECK_WIDTH / w)
    small = cv2.resize(frame, (max(1, int(w * f)), max(1, int(h * f))), interpolation=cv2.INTER_AREA)
    gray = cv2.cvtColor(small, cv2.COLOR_BGR2GRAY)
    detector = cv2.aruco.ArucoDetector(cv2.aruco.getPredefinedDictionary(matmod.ARUCO_DICT),
                                       cv2.aruco.DetectorParameters())
    corners, ids, _ = detector.detectMarkers(gray)
    if ids is None:
        return []
    found: dict[int, list[tuple[float, float]]] = {}
    for c, mid in zip(corners, ids.ravel(), strict=True):
        if int(mid) in matmod.MARKERS and int(mid) not in found:
            found[int(mid)] = _points(np.asarray(c).reshape(4, 2) / f)
    return [found[k] for k in sorted(found)]


def colour_gains(white: np.ndarray) -> tuple[float, float, float]:
    """The B, G, R gains that make the white patch neutral (those vision.mat's correction uses)."""
    from vision import mat as matmod

    gains = matmod.white_gains(white, WHITE_TARGET)
    return float(gains[0]), float(gains[1]), float(gains[2])


def check_mat(frame: Any) -> MatCheck:
    """Find the play mat in a camera frame and say what was seen (never raises for a bad frame)."""
    from vision import mat as matmod
    from vision.common import ImageError, check_frame

    try:
        frame = check_frame(frame)
    except ImageError:
        return MatCheck("no-frame")
    h, w = frame.shape[:2]
    markers = seen_markers(frame)
    mat = matmod.find_mat(frame)
    if mat is None:
        problem = "no-markers" if not markers else "few-markers" if len(markers) < 2 else "not-the-mat"
        return MatCheck(problem, len(markers), (w, h), markers)
    white = tuple(float(v) for v in mat.white)
    grey = tuple(float(v) for v in mat.grey)
    return MatCheck(
        "dark" if max(white) < 8 else "", max(mat.markers, len(markers)), (w, h), markers,
        _points(mat.to_frame(_rect(0, 0, matmod.MAT_W, matmod.MAT_H))),
        [_points(z) for z in mat.zones],
        [_points(mat.to_frame(_rect(*matmod.WHITE_PATCH))), _points(mat.to_frame(_rect(*matmod.GREY_PATCH)))],
        white, grey, colour_gains(mat.white))


def write_mat(folder: Path, size: str = "A4", fmt: str = "pdf", dpi: int = MAT_DPI) -> Path:
    """Write the printable play mat (as ``companion mat --size SIZE``) into ``folder``; its path."""
    import cv2

    from vision import mat as matmod

    if size not in matmod.PAPER_SIZES_MM or fmt not in ("pdf", "png"):
        raise ValueError(f"no play mat in {size} {fmt}")
    paper_w, paper_h = matmod.PAPER_SIZES_MM[size]
    img = matmod.draw_mat(dpi / 25.4 * paper_w / matmod.MAT_W)
    if fmt == "png":
        ok, buf = cv2.imencode(".png", img)
        if not ok:
            raise ValueError("the mat picture could not be encoded")
        data = buf.tobytes()
    else:
        data = matmod.pdf_bytes(img, paper_w / 25.4 * 72, paper_h / 25.4 * 72)
    out = Path(folder) / f"mat-{size}.{fmt}"
    out.parent.mkdir(parents=True, exist_ok=True)
    out.write_bytes(data)
    return out


def pi_camera(source: Any) -> Any | None:
    """The Pi camera (hardware.picamera) behind a camera source, which can relock its exposure and
    colour gains; None for webcams, folders and the demo table."""
    for _ in range(3):
        if source is None:
            return None
        if callable(getattr(source, "relock", None)) and hasattr(source, "lock"):
            return source
        source = getattr(source, "inner", None)  # hardware.reconnect.ReconnectingSource
    return None


def save_lock(config: Any, lock: Any, path: str | Path | None = None) -> tuple[Any, Path]:
    """Keep a measured camera lock in the config file: (the new config, where it was written)."""
    from companion.config import Config, save_config, with_camera_lock

    config = with_camera_lock(config if config is not None else Config(), lock)
    return config, save_config(config, path)


def lock_words(lock: Any) -> dict[str, Any]:
    """A lock's numbers for the screen: exposure in ms, analogue gain, red and blue gains."""
    return {"ms": lock.exposure_time / 1000, "gain": lock.analogue_gain,
            "red": lock.colour_gains[0], "blue": lock.colour_gains[1]}

