"""The card index glyphs (digits 0-10 and the four special symbols) and the feature used to compare them.

Shared by the renderer (which prints them on cards) and the reader (which builds its default
templates from them in several fonts and weights, so it does not depend on one exact look).
"""

from __future__ import annotations

import math

import cv2
import numpy as np

VALUES: tuple[int | str, ...] = (0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, "zero", "x2", "pm", "dynamite")
DECKS: dict[str, dict[str, tuple]] = {
    "nicht-die-bohne": {
        "colours": ("green", "red", "yellow", "blue"),
        "values": (1, 2, 3, 4, 5, 6, 7, 8, 9, 10, "zero", "x2", "pm"),
    },
    "blasting-billy": {
        "colours": ("red", "green", "yellow", "blue", "purple"),
        "values": (0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, "dynamite"),
    },
}
FONTS = (cv2.FONT_HERSHEY_SIMPLEX, cv2.FONT_HERSHEY_DUPLEX, cv2.FONT_HERSHEY_TRIPLEX)
FEATURE_SHAPE = (32, 24)  # rows, cols of a normalised glyph


def value_name(value: int | str) -> str:
    """The value as written in a class name (``7``, ``x2``, ``dynamite``)."""
    return str(value)


def parse_value(text: str) -> int | str:
    """The inverse of value_name; raises ValueError for anything that is not a card value."""
    t = text.strip().lower()
    aliases = {"2x": "x2", "+/-": "pm", "plusminus": "pm", "bean": "zero", "nicht-die-bohne": "zero"}
    t = aliases.get(t, t)
    if t.isdigit() and 0 <= int(t) <= 10:
        return int(t)
    if t in ("zero", "x2", "pm", "dynamite"):
        return t
    raise ValueError(f"'{text}' is not a card value (0-10, zero, x2, pm, dynamite)")


def _text(canvas: np.ndarray, text: str, font: int, thick: int) -> None:
    (tw, th), base = cv2.getTextSize(text, font, 3.0, thick)
    x = (canvas.shape[1] - tw) // 2
    y = (canvas.shape[0] + th) // 2
    cv2.putText(canvas, text, (x, y), font, 3.0, 255, thick, cv2.LINE_AA)


def _raw_glyph(value: int | str, font: int, weight: float) -> np.ndarray:
    """Draw a glyph large (200x200) in white ink on black."""
    c = np.zeros((200, 200), np.uint8)
    t = max(2, int(round(6 * weight)))
    if isinstance(value, int):
        _text(c, str(value), font, t)
    elif value == "x2":
        _text(c, "2x", font, t)
    elif value == "pm":  # plus over minus, bold so it survives small, blurred cards
        lw = max(16, int(24 * weight))
        cv2.line(c, (55, 70), (145, 70), 255, lw)
        cv2.line(c, (100, 25), (100, 115), 255, lw)
        cv2.line(c, (55, 160), (145, 160), 255, lw)
    elif value == "zero":  # a bean, crossed out
        lw = max(12, int(18 * weight))
        cv2.ellipse(c, (100, 100), (48, 72), 20, 0, 360, 255, lw, cv2.LINE_AA)
        cv2.line(c, (45, 35), (155, 165), 255, lw, cv2.LINE_AA)
        cv2.line(c, (155, 35), (45, 165), 255, lw, cv2.LINE_AA)
    elif value == "dynamite":  # a stick with a fuse and a spark
        stick = cv2.boxPoints(((90, 120), (38, 110), 30)).astype(np.int32)
        cv2.fillConvexPoly(c, stick, 255, cv2.LINE_AA)
        fuse = np.int32([[118, 72], [128, 56], [122, 44], [134, 32]])
        cv2.polylines(c, [fuse], False, 255, max(4, int(6 * weight)), cv2.LINE_AA)
        for a in range(0, 360, 45):
            r = np.deg2rad(a)
            cv2.line(c, (140, 26), (int(140 + 16 * np.cos(r)), int(26 + 16 * np.sin(r))), 255, 3, cv2.LINE_AA)
    else:
        raise ValueError(f"no glyph for {value!r}")
    return c


def draw_glyph(value: int | str, w: int, h: int, font: int = FONTS[0], weight: float = 1.0) -> np.ndarray:
    """A w x h uint8 ink mask (255 = ink) with the glyph fitted and centred, aspect kept."""
    raw = _raw_glyph(value, font, weight)
    ys, xs = np.nonzero(raw)
    crop = raw[ys.min() : ys.max() + 1, xs.min() : xs.max() + 1]
    s = min(w / crop.shape[1], h / crop.shape[0])
    cw, ch = max(1, int(crop.shape[1] * s)), max(1, int(crop.shape[0] * s))
    small = cv2.resize(crop, (cw, ch), interpolation=cv2.INTER_AREA)
    out = np.zeros((h, w), np.uint8)
    y0, x0 = (h - ch) // 2, (w - cw) // 2
    out[y0 : y0 + ch, x0 : x0 + cw] = small
    return out


def vector_norm(x: np.ndarray) -> np.floating:
    """``np.linalg.norm`` of a float vector, as it computes it (the root of the dot product), without its
    wrapper."""
    return np.sqrt(x.dot(x))


def feature(ink: np.ndarray) -> np.ndarray | None:
    """Normalised glyph feature: the ink crop fitted (aspect kept) into FEATURE_SHAPE, zero mean, unit norm.

    ``ink`` is a float or uint8 map where larger means more ink; None when there is no ink.
    """
    ink = np.asarray(ink, np.float32)
    top = float(ink.max()) if ink.size else 0.0
    # no ink, a NaN or an infinite peak (nothing is above 0.35 of it): no feature; otherwise the peak itself
    # is above 0.35 of it, so the ink mask is never empty
    if not 0.0 < top < math.inf:
        return None
    mask = ink > 0.35 * top
    x, y, w, h = cv2.boundingRect(mask.view(np.uint8))  # the ink's bounding box
    out = fitted(ink[y : y + h, x : x + w])
    # the mean and the norm as ``mean`` and ``np.linalg.norm`` compute them (the same float32 sum and dot
    # product, each quotient and root rounded once), without their Python wrappers
    out -= np.add.reduce(out) / np.float32(out.size)
    n = float(vector_norm(out))
    return out / n if n > 1e-6 else None


def fitted(crop: np.ndarray) -> np.ndarray:
    """The ink's crop (float32) fitted, aspect kept, into FEATURE_SHAPE and blurred: the flat feature before
    its mean is taken off and it is normalised."""
    fh, fw = FEATURE_SHAPE
    s = min((fw - 2) / crop.shape[1], (fh - 2) / crop.shape[0])
    cw, ch = max(1, int(round(crop.shape[1] * s))), max(1, int(round(crop.shape[0] * s)))
    small = cv2.resize(crop, (cw, ch), interpolation=cv2.INTER_AREA)
    out = np.zeros((fh, fw), np.float32)
    y0, x0 = (fh - ch) // 2, (fw - cw) // 2
    out[y0 : y0 + ch, x0 : x0 + cw] = small
    return cv2.GaussianBlur(out, (3, 3), 0.8).ravel()


def default_templates() -> tuple[np.ndarray, list[int | str]]:
    """Feature matrix (N, D) and labels of every glyph in three fonts and two weights."""
    feats, labels = [], []
    for value in VALUES:
        for font in FONTS:
            for weight in (0.7, 1.2):
                f = feature(draw_glyph(value, 60, 80, font, weight))
                if f is not None:
                    feats.append(f)
                    labels.append(value)
    return np.stack(feats), labels
