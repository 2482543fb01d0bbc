"""Shared inputs of the card reader's routine tests (rounds 12 and 15): rendered tuning scenes and the
work-scale frame the reader's face mask starts from."""

from __future__ import annotations

import cv2
import numpy as np

from vision import cards
from vision.bench_light import relit
from vision.render.cards import scene


def tuning_frames() -> list:
    """Two rendered tuning scenes (a fanned row and several rows), as rendered and under a warm lamp."""
    out = []
    for seed in (7, 31):
        frame, _ = scene(seed)
        out += [frame, relit(frame, "warm")]
    return out


def small(frame):
    """The frame at the reader's work width, as ``cards`` resizes it."""
    h, w = frame.shape[:2]
    return cv2.resize(
        frame, (cards.WORK_WIDTH, round(h * cards.WORK_WIDTH / w)), interpolation=cv2.INTER_AREA
    )


def ref_grow(region, marked, share):
    """The sheen step as main had it before the twelfth session: every 4-connected piece of ``region``
    whose pixels are at least ``share`` marked (and not all) added to ``marked``, by int32 labels."""
    n, lab = cv2.connectedComponents(region, connectivity=4)
    flat = lab.ravel()
    n_low = np.bincount(flat, minlength=n)
    n_high = np.bincount(flat[marked.ravel() > 0], minlength=n)
    keep = (n_high >= share * n_low) & (n_high < n_low)
    keep[0] = False
    return cv2.max(marked, (keep[lab] * 255).astype(np.uint8)) if keep.any() else marked
