"""The token tests' shared check: every butt of a rendered scene read, with its colour and group, and
no butt more."""

from __future__ import annotations

from typing import Any

import numpy as np

from vision import tokens
from vision.bench_tokens import match


def assert_read_right(frame: np.ndarray, truth: list[dict[str, Any]]) -> None:
    """Read ``frame`` and check each true butt was found with its colour and group, and no extra."""
    seen = tokens.read(frame).objects
    for i, j in match(truth, seen):
        assert j is not None, f"{truth[i]['colour']} butt at {truth[i]['box']} missed"
        assert seen[j]["colour"] == truth[i]["colour"], (truth[i], seen[j])
        assert seen[j]["group"] == truth[i]["group"], (truth[i], seen[j])
    assert len(seen) == len(truth), "extra butts read"
