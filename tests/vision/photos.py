"""The shared real dice photos for tests: only the development split, and a skip when the shared
folder (<repo>/../shared or /work/shared, photos/dice) is not there."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import cv2
import numpy as np
import pytest

from vision import bench_dice, dice

PHOTOS = bench_dice.shared_photos()


def dev_photo(name: str, folder: str = "topdown") -> tuple[np.ndarray, list[dict[str, Any]]]:
    """A development photo of ``folder`` and its labelled dice (skips when the shared photos are
    missing; a photo of the held-out test split is refused)."""
    if PHOTOS is None:
        pytest.skip("shared dice photos not found at <repo>/../shared or /work/shared (photos/dice)")
    for path, truth in bench_dice.load_labels(PHOTOS, folder, "dev"):
        if Path(path).name == name:
            return cv2.imread(str(path)), truth
    raise AssertionError(f"{name} is not a development photo of {folder}")


def read_at(name: str, x: int, y: int) -> tuple[int, int | None]:
    """The labelled pips of the one die of a dev photo whose box holds (x, y), and what the reader
    read there (None: missed)."""
    frame, truth = dev_photo(name)
    [j] = [
        j
        for j, t in enumerate(truth)
        if t["box"][0] <= x <= t["box"][0] + t["box"][2] and t["box"][1] <= y <= t["box"][1] + t["box"][3]
    ]
    found = dice.read(frame).objects
    read = {jj: found[i]["pips"] for i, jj in bench_dice.match(found, truth)}
    return truth[j]["pips"], read.get(j)
