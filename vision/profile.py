"""Profiles: what a reader learned about the players' own pieces under their own light.

A profile is a small JSON file ``{"kind": KIND, "version": 1, "data": {...}}``. Each reader
module defines ``teach(examples) -> data`` and accepts ``data`` back in ``read(frame, profile)``.
When no profile is given, a reader uses its built-in default (tuned on rendered scenes only
through light-independent features, never to their exact look).
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

from vision.common import KINDS

VERSION = 1


class ProfileError(ValueError):
    """A profile file that cannot be used; one line for a player."""


def save(path: str | Path, kind: str, data: dict[str, Any]) -> None:
    p = Path(path)
    p.parent.mkdir(parents=True, exist_ok=True)
    tmp = p.with_suffix(p.suffix + ".tmp")
    tmp.write_text(json.dumps({"kind": kind, "version": VERSION, "data": data}, indent=1))
    tmp.replace(p)


def load(path: str | Path, kind: str) -> dict[str, Any]:
    p = Path(path)
    try:
        doc = json.loads(p.read_text())
    except FileNotFoundError:
        raise ProfileError(f"{p}: no such profile file") from None
    except (OSError, UnicodeDecodeError, json.JSONDecodeError):
        raise ProfileError(f"{p}: not a profile file (it is not JSON)") from None
    if not isinstance(doc, dict) or doc.get("kind") not in KINDS or not isinstance(doc.get("data"), dict):
        raise ProfileError(f"{p}: not a profile file")
    if doc["kind"] != kind:
        raise ProfileError(f"{p}: this profile was taught for {doc['kind']}, not {kind}")
    return doc["data"]
