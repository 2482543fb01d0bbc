"""The board tests' plain reference for the reader's sharpness measure (written once, used by the
twelfth-, thirteenth- and fourteenth-session board tests)."""

import numpy as np

from vision import board


def ref_sharpness(top: np.ndarray) -> float:
    """The sharpness across the vertical lines as the plain computation gives it: the steepest step of
    the darkest channel's mean profile across the five inner lines (between the horizontal ones) over
    the profile's height."""
    half, cell = board.CELL // 4, board.CELL
    strips = np.stack([top[:, k * cell - half : k * cell + half] for k in range(1, 6)])
    rows = strips.reshape(5, 6, cell, 2 * half, 3)[:, :, cell // 5 : cell - cell // 5]
    darkest = np.minimum(np.minimum(rows[..., 0], rows[..., 1]), rows[..., 2])
    prof = darkest.reshape(-1, 2 * half).mean(axis=0)
    return float(np.abs(np.diff(prof)).max() / max(float(prof.max() - prof.min()), 1.0))
