"""Helpers the two card games share: colour names, checking player-keyed objects and card lists.

Both Nicht die Bohne! and Blasting Billy record cards as ``colour-face`` strings and key their
events by player name; these helpers turn malformed JSON into IllegalEvent messages a player
understands, in English and Dutch.
"""

from __future__ import annotations

import json
from collections import Counter
from collections.abc import Iterable
from typing import Any

from companion.core import IllegalEvent, Text, names_list

COLOUR_NL = {"red": "rood", "green": "groen", "yellow": "geel", "blue": "blauw", "purple": "paars"}
NUMBER_EN = {1: "one", 2: "two", 3: "three"}
NUMBER_NL = {1: "één", 2: "twee", 3: "drie"}


def colour_name(colour: str, lang: str = "en") -> str:
    """The colour's word in the chosen language (``red`` / ``rood``)."""
    return COLOUR_NL.get(colour, colour) if lang == "nl" else colour


def colour_of(card: str) -> str:
    """The colour part of a checked card name (``red-7`` -> ``red``)."""
    return card.split("-", 1)[0]


def short(value: Any, limit: int = 30) -> str:
    """A bad value quoted as JSON for a message, cut short so junk cannot flood the screen."""
    try:
        text = json.dumps(value, ensure_ascii=False)
    except (TypeError, ValueError):
        text = repr(value)
    return text if len(text) <= limit else text[: limit - 3] + "..."


def player_object(value: Any, players: Iterable[str], key: str) -> dict[str, Any]:
    """Check that ``value`` is an object with exactly one entry per name in ``players``."""
    names = list(players)
    if not isinstance(value, dict):
        raise IllegalEvent(Text(f"'{key}' must be an object with one entry per player",
                                f"'{key}' moet een object zijn met één regel per speler"))
    for name in value:
        if name not in names:
            raise IllegalEvent(Text(f"'{key}' names {short(name)}, who is not at this table",
                                    f"'{key}' noemt {short(name)}, die niet meespeelt"))
    missing = [n for n in names if n not in value]
    if missing:
        raise IllegalEvent(Text(f"'{key}' has nothing for {names_list(missing)}",
                                f"'{key}' heeft niets voor {names_list(missing, 'nl')}"))
    return value


def card_list(value: Any, owner: str, deck: Counter[str], game_title: str) -> list[str]:
    """Check a JSON list of card names against the deck's names; name the first bad card."""
    if not isinstance(value, list):
        raise IllegalEvent(Text(f"{owner}'s cards must be a list of card names",
                                f"de kaarten van {owner} moeten een lijst met kaartnamen zijn"))
    for card in value:
        check_card(card, deck, game_title, f"{owner}'s cards", f"de kaarten van {owner}")
    return list(value)


def check_card(card: Any, deck: Counter[str], game_title: str, where_en: str, where_nl: str) -> str:
    """A card name that exists in the deck, or IllegalEvent naming the impossible card."""
    if not isinstance(card, str):
        raise IllegalEvent(Text(f"{where_en}: {short(card)} is not a card name",
                                f"{where_nl}: {short(card)} is geen kaartnaam"))
    if card not in deck:
        raise IllegalEvent(Text(f"{where_en}: {short(card)} is not a {game_title} card",
                                f"{where_nl}: {short(card)} is geen kaart van {game_title}"))
    return card


def times(n: int, lang: str = "en") -> str:
    """'twice', 'three times' (Dutch 'twee keer') for messages about duplicate cards."""
    if lang == "nl":
        return f"{n} keer"
    return "twice" if n == 2 else f"{n} times"
