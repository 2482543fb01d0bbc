"""Shared pieces of every reader: the observation shape, image loading, colour correction."""

from __future__ import annotations

from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import cv2
import numpy as np

CLIPPED = 250  # a raw channel at or above this level is clipped by the camera: it only tells a lower bound

KINDS = ("tokens", "cards", "dice", "board")


class ImageError(ValueError):
    """A file or frame that is not a usable image; the message is one line for a player."""


@dataclass
class Observation:
    """What one reader saw in one frame: one dict per piece with ``confidence`` and ``box``."""

    kind: str
    objects: list[dict[str, Any]] = field(default_factory=list)
    width: int = 0
    height: int = 0

    def to_json(self) -> dict[str, Any]:
        return {"kind": self.kind, "objects": [dict(o) for o in self.objects]}


def load_image(path: str | Path) -> np.ndarray:
    """Read an image file as BGR uint8, or raise ImageError with a one-line reason."""
    p = Path(path)
    if not p.is_file():
        raise ImageError(f"{p}: no such file")
    data = np.fromfile(str(p), dtype=np.uint8)
    img = cv2.imdecode(data, cv2.IMREAD_COLOR) if data.size else None
    if img is None:
        raise ImageError(f"{p}: not an image file that can be read")
    return img


def check_frame(frame: Any) -> np.ndarray:
    """Return a BGR uint8 frame, converting grey/BGRA; raise ImageError for anything else."""
    if not isinstance(frame, np.ndarray) or frame.size == 0:
        raise ImageError("the frame is empty or not an image")
    if frame.dtype != np.uint8:
        if not (np.issubdtype(frame.dtype, np.number) or frame.dtype == np.bool_):
            raise ImageError(f"the frame has an unusable type {frame.dtype}")
        # floats in 0..1 are scaled; anything else is clipped to the 8-bit range
        f = np.nan_to_num(frame.astype(np.float32), nan=0.0, posinf=255.0, neginf=0.0)
        if np.issubdtype(frame.dtype, np.floating) and f.max(initial=0.0) <= 1.0:
            f = f * 255.0
        frame = np.clip(f, 0, 255).astype(np.uint8)
    if frame.ndim == 2:
        frame = cv2.cvtColor(frame, cv2.COLOR_GRAY2BGR)
    elif frame.ndim == 3 and frame.shape[2] == 4:
        frame = cv2.cvtColor(frame, cv2.COLOR_BGRA2BGR)
    elif frame.ndim != 3 or frame.shape[2] != 3:
        raise ImageError(f"the frame has an unusable shape {frame.shape}")
    return frame


def gray_world(frame: np.ndarray, mask: np.ndarray | None = None) -> np.ndarray:
    """Grey-world white balance: scale each channel so the (masked) mean is neutral.

    Used when no play mat with a white patch is visible. Gains are limited so a frame
    dominated by one colour (a red board) is not pushed to an absurd cast.
    """
    f = frame.astype(np.float32)
    if mask is not None and mask.any():
        means = np.array([f[..., c][mask > 0].mean() for c in range(3)], np.float32)
    else:
        means = f.reshape(-1, 3).mean(axis=0)
    means = np.maximum(means, 1.0)
    gains = np.clip(means.mean() / means, 0.5, 2.0)
    return np.clip(f * gains, 0, 255).astype(np.uint8)


def white_patch_correct(frame: np.ndarray, white_bgr: np.ndarray, target: float = 235.0) -> np.ndarray:
    """Scale channels so a patch known to be white (e.g. on the play mat) reads as neutral white."""
    white = np.maximum(np.asarray(white_bgr, np.float32), 1.0)
    gains = np.clip(target / white, 0.3, 4.0)
    return np.clip(frame.astype(np.float32) * gains, 0, 255).astype(np.uint8)


def median(a: np.ndarray, axis: int = 0) -> np.ndarray:
    """np.median along ``axis`` by partition (the same value: the mean of the two middle values of an
    even count, float64 for integers): np.median's own overhead is more than the work on the small
    arrays the readers take medians of."""
    n = a.shape[axis]
    if a.dtype.kind in "iu":
        a = a.astype(np.float64)
    k = n // 2
    if n % 2:
        return np.take(np.partition(a, k, axis=axis), k, axis=axis)
    if n:
        # one partition: the lower middle value is the largest of those left of the upper one (a
        # partition at two places costs several times one)
        part = np.partition(a, k, axis=axis)
        lower = np.take(part, np.arange(k), axis=axis).max(axis=axis)
        # NaNs sort last: where one lies left of k the max would take it; the partition at two places not
        if a.dtype.kind != "f" or not np.isnan(lower).any():
            return (lower + np.take(part, k, axis=axis)) / 2
    two = np.partition(a, (k - 1, k), axis=axis)
    return (np.take(two, k - 1, axis=axis) + np.take(two, k, axis=axis)) / 2


def percentile(a: np.ndarray, q: float) -> np.floating:
    """np.percentile(a, q) of a non-empty 1-D array (linear method, numpy's own rounding), without its overhead."""
    s = np.sort(a)
    pos = q / 100 * (s.size - 1)
    i = int(pos)
    t = pos - i
    lo, hi = s[i], s[min(i + 1, s.size - 1)]
    diff = hi - lo
    return hi - diff * (1 - t) if t >= 0.5 else lo + diff * t


def magnitude(x: np.ndarray, y: np.ndarray) -> np.ndarray:
    """cv2.magnitude(x, y) of float32 planes, written into a buffer that starts on a 32-byte boundary.

    OpenCV 5.0 hands cv2.magnitude to IPP on x86 (AVX-512 here), whose result is a last bit off
    the true root on about 30 % of pixels and differs with where its output buffer lies: output
    addresses 0 and 16 mod 32 give two different sets of bits (inputs' placement does not matter;
    64 placements measured). A fresh output lands at either, so a pixel within a last bit of a
    threshold flipped from one read of a frame to the next (img_0092: 12 foreground pixels in
    about 7 reads of 10). Placed always the same way, the same planes give the same bits every
    call; without IPP (an ARM build) cv2.magnitude does not depend on placement at all.
    (numpy's sqrt(x * x + y * y) is exact and placement-free too, but changed readings: a real
    dev photo's die, read only with IPP's bits, was lost; docs/bench/dice.md, branch dicerepeat.)
    The dice and token readers take every magnitude from here."""
    buf = np.empty(x.size + MAG_ALIGN // 4, np.float32)
    k = (-buf.ctypes.data // 4) % (MAG_ALIGN // 4)
    return cv2.magnitude(x, y, buf[k:k + x.size].reshape(x.shape))


MAG_ALIGN = 32  # magnitude: its output buffer's alignment (bytes)
