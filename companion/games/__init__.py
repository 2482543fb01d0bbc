"""The registry of games: record name -> engine module.

Each module defines its ``Game`` subclass as ``GAME``. Modules load on first use so that
``companion replay`` of one game imports only that game's engine.
"""

from __future__ import annotations

import importlib

from companion.core import Game, SetupError

GAMES: dict[str, str] = {
    "bag-of-butts": "companion.games.bag_of_butts",
    "nicht-die-bohne": "companion.games.nicht_die_bohne",
    "blasting-billy": "companion.games.blasting_billy",
    "buttons": "companion.games.buttons",
}


def game_class(name: str) -> type[Game]:
    """The engine class for a record's ``game`` name, or SetupError."""
    if name not in GAMES:
        raise SetupError(f"unknown game {name!r}; the companion knows {', '.join(GAMES)}")
    try:
        module = importlib.import_module(GAMES[name])
    except ModuleNotFoundError as exc:
        if exc.name != GAMES[name]:
            raise
        raise SetupError(f"{name} is not supported by this version of the companion yet") from None
    return module.GAME


def available() -> list[str]:
    """Names of the games whose engines are installed."""
    out = []
    for name in GAMES:
        try:
            game_class(name)
        except SetupError:
            continue
        out.append(name)
    return out
