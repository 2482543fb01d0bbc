"""From what the camera read (a list of piece dicts) to the record event the player confirms.

No Kivy and no OpenCV here: a reading is the reader's ``objects`` list (see VISION.md), which the
players may correct by touch. Turning it into an event only arranges the pieces the way the record
format asks (shared/spec/game-records.md); whether the event is legal is the engine's call.
"""

from __future__ import annotations

from typing import Any

from companion.core import Text
from ui.i18n import piece_name

# Which reader looks at the table for each game.
VISION_KIND: dict[str, str] = {
    "bag-of-butts": "tokens",
    "nicht-die-bohne": "cards",
    "blasting-billy": "cards",
    "buttons": "dice",
}

TOKEN_COLOURS = ("pink", "yellow", "blue", "green", "black", "gray", "white", "khaki")
PLAYER_COLOURS = ("pink", "yellow", "blue", "green")
SPECIALS = ("black", "gray", "white", "khaki")
CARD_COLOURS = {
    "nicht-die-bohne": ("green", "red", "yellow", "blue"),
    "blasting-billy": ("red", "green", "yellow", "blue", "purple"),
}
CARD_VALUES = {
    "nicht-die-bohne": (1, 2, 3, 4, 5, 6, 7, 8, 9, 10, "zero", "x2", "pm"),
    "blasting-billy": (0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, "dynamite"),
}
DIE_KINDS = ("white", "gold", "black")  # white die, gold-pip black die, white-pip black die
# below this confidence the reader is unsure of a piece: it is marked "?" on the picture and in the
# reading, so the players look at it before they confirm (a piece set by hand is sure)
UNSURE = 0.5


class ReadingError(ValueError):
    """A reading that cannot be turned into an event; ``text`` says what to fix."""

    def __init__(self, text: Text):
        self.text = text
        super().__init__(text.en)


def _order(obj: dict[str, Any]) -> tuple[int, int]:
    box = obj.get("box") or [0, 0, 0, 0]
    return (int(box[0]), int(box[1]))


def die_kind(obj: dict[str, Any]) -> str:
    """'white' for the white die, 'gold' for the gold-pip black die, 'black' for the others."""
    if obj.get("kind") in DIE_KINDS:
        return obj["kind"]
    if obj.get("body") == "white":
        return "white"
    return "gold" if obj.get("pip_colour") == "gold" else "black"


def card_name(obj: dict[str, Any]) -> str:
    """The record's card name: 'red-7', 'blue-zero', 'green-dynamite'."""
    return f"{obj.get('colour')}-{obj.get('value')}"


def unsure(obj: dict[str, Any]) -> bool:
    """True when the reader gave this piece a low confidence and no player has set it by hand."""
    return not obj.get("by_hand") and float(obj.get("confidence", 1.0)) < UNSURE


def label(obj: dict[str, Any], kind: str, lang: str = "en") -> str:
    """The words drawn next to a piece on the picture (never only a colour swatch), with " ?" after
    them when the reader is unsure of it."""
    return _label(obj, kind, lang) + (" ?" if unsure(obj) else "")


def _label(obj: dict[str, Any], kind: str, lang: str) -> str:
    if kind == "tokens":
        return f"{piece_name(str(obj.get('colour')), lang)} {obj.get('group', '?')}"
    if kind == "dice":
        which = {"white": ("white", "wit"), "gold": ("gold", "goud"), "black": ("black", "zwart")}[die_kind(obj)]
        return f"{obj.get('pips', '?')} {which[1 if lang == 'nl' else 0]}"
    if kind == "cards":
        value = obj.get("value")
        shown = {"zero": "0!", "x2": "2x", "pm": "+/-", "dynamite": "TNT"}.get(value, str(value))
        return f"{piece_name(str(obj.get('colour')), lang)} {shown}"
    if kind == "board":
        return f"{obj.get('colour')}{obj.get('content', '')[:1]}"
    return str(obj)


def summary(objects: list[dict[str, Any]], kind: str, lang: str = "en") -> str:
    """One line listing the reading, grouped the way the event will be."""
    if not objects:
        return ""
    if kind == "tokens":
        parts = []
        for g in (1, 2, 3):
            names = [piece_name(str(o["colour"]), lang) + ("?" if unsure(o) else "")
                     for o in sorted(objects, key=_order) if o.get("group") == g]
            parts.append(f"{g}: " + (", ".join(names) or "-"))
        return " | ".join(parts)
    if kind == "cards":
        rows: dict[int, list[dict[str, Any]]] = {}
        for o in objects:
            rows.setdefault(int(o.get("row", 0)), []).append(o)
        return " | ".join(f"{r + 1}: " + ", ".join(label(o, kind, lang) for o in
                                                  sorted(rows[r], key=lambda o: (int(o.get("position", 0)), _order(o))))
                          for r in sorted(rows))
    return ", ".join(label(o, kind, lang) for o in sorted(objects, key=_order))


def draw_event(objects: list[dict[str, Any]]) -> dict[str, Any]:
    """Bag of Butts: the three groups drawn, each left to right as they lie."""
    groups: list[list[str]] = [[], [], []]
    for obj in sorted(objects, key=_order):
        g = obj.get("group")
        if g not in (1, 2, 3) or obj.get("colour") not in TOKEN_COLOURS:
            raise ReadingError(Text("a butt has no group or colour: tap it to correct it",
                                    "een kontje heeft geen groep of kleur: tik erop om het te verbeteren"))
        groups[g - 1].append(obj["colour"])
    if not any(groups):
        raise ReadingError(Text("no butts were read", "er zijn geen kontjes gelezen"))
    return {"type": "draw", "groups": groups}


def roll_event(objects: list[dict[str, Any]]) -> dict[str, Any]:
    """Buttons: the roll: the white die, the gold-pip black die and the white-pip black dice."""
    kinds: dict[str, list[int]] = {"white": [], "gold": [], "black": []}
    for obj in sorted(objects, key=_order):
        pips = obj.get("pips")
        if not isinstance(pips, int) or not 1 <= pips <= 6:
            raise ReadingError(Text("a die shows no number: tap it to correct it",
                                    "een dobbelsteen toont geen getal: tik erop om het te verbeteren"))
        kinds[die_kind(obj)].append(pips)
    if len(kinds["white"]) != 1 or len(kinds["gold"]) != 1:
        raise ReadingError(Text(
            f"a roll needs one white die and one gold-pip black die (read {len(kinds['white'])} "
            f"and {len(kinds['gold'])})",
            f"een worp heeft één witte en één zwarte dobbelsteen met gouden ogen nodig "
            f"({len(kinds['white'])} en {len(kinds['gold'])} gelezen)"))
    return {"type": "roll", "white": kinds["white"][0], "gold": kinds["gold"][0], "black": kinds["black"]}


def rows_of_cards(objects: list[dict[str, Any]]) -> list[list[str]]:
    """Card names per row (row 0 first), each row left to right."""
    rows: dict[int, list[dict[str, Any]]] = {}
    for obj in objects:
        rows.setdefault(int(obj.get("row", 0)), []).append(obj)
    out = []
    for r in sorted(rows):
        cards = sorted(rows[r], key=lambda o: (int(o.get("position", 0)), _order(o)))
        out.append([card_name(o) for o in cards])
    return out


def phase_event(objects: list[dict[str, Any]], players: list[str], takes: list[str]) -> dict[str, Any]:
    """Nicht die Bohne!: the cards played (one per player, laid out left to right in seat order)."""
    rows = rows_of_cards(objects)
    played = rows[0] if rows else []
    if len(played) != len(players):
        raise ReadingError(Text(
            f"lay one card per player in a row in seat order ({len(played)} cards read, {len(players)} players)",
            f"leg één kaart per speler op een rij in zitvolgorde ({len(played)} kaarten gelezen, "
            f"{len(players)} spelers)"))
    return {"type": "phase", "played": dict(zip(players, played, strict=True)), "takes": list(takes)}


def collected_event(objects: list[dict[str, Any]], players: list[str]) -> dict[str, Any]:
    """Nicht die Bohne!: a whole round from the table: each player's collected cards as one row."""
    rows = rows_of_cards(objects)
    if len(rows) != len(players):
        raise ReadingError(Text(f"lay each player's collected cards as one row ({len(rows)} rows read, "
                                f"{len(players)} players)",
                                f"leg de verzamelde kaarten van elke speler als één rij ({len(rows)} rijen "
                                f"gelezen, {len(players)} spelers)"))
    return {"type": "round", "collected": dict(zip(players, rows, strict=True))}


def loot_of(objects: list[dict[str, Any]]) -> list[str]:
    """Blasting Billy: one owner's loot read on its own, in play order (a long loot may take two
    rows under the camera: the top row first)."""
    return [card for row in rows_of_cards(objects) for card in row]


def reveal_event(objects: list[dict[str, Any]], owners: list[str],
                 kept: dict[str, list[str]] | None = None) -> dict[str, Any]:
    """Blasting Billy: every owner's cards in play order, one camera row per owner (Billy first).

    ``kept`` holds the loot already read owner by owner; the camera's rows go to the owners not
    read yet, in the same order.
    """
    kept = kept or {}
    rest = [o for o in owners if o not in kept]
    rows = rows_of_cards(objects)
    if len(rest) == 1 and kept:  # the last loot read on its own: all its rows are one loot
        rows = [loot_of(objects)]
    if len(rows) > len(rest):
        raise ReadingError(Text(f"{len(rows)} rows of cards read but there are only {len(rest)} owners left",
                                f"{len(rows)} rijen kaarten gelezen maar er zijn nog maar {len(rest)} eigenaars"))
    rows = rows + [[] for _ in range(len(rest) - len(rows))]
    read = dict(zip(rest, rows, strict=True))
    return {"type": "reveal", "rows": {o: list(kept[o]) if o in kept else read[o] for o in owners}}


def board_rows(objects: list[dict[str, Any]]) -> list[str]:
    """Buttons setup: a board read by the camera as the record's 6 strings of R Y G B."""
    cells = {(o.get("row"), o.get("col")): str(o.get("colour")) for o in objects}
    missing = [(r, c) for r in range(1, 7) for c in range(1, 7) if cells.get((r, c)) not in ("R", "Y", "G", "B")]
    if missing:
        raise ReadingError(Text(f"{len(missing)} of the 36 cells were not read: put the whole board under the camera",
                                f"{len(missing)} van de 36 vakjes niet gelezen: leg het hele bord onder de camera"))
    return ["".join(cells[(r, c)] for c in range(1, 7)) for r in range(1, 7)]


def picker_fields(kind: str, game: str, rows: int = 1) -> list[tuple[str, tuple[Any, ...]]]:
    """The fields a player sets when correcting or adding a piece, each with its choices."""
    if kind == "tokens":
        return [("colour", TOKEN_COLOURS), ("group", (1, 2, 3))]
    if kind == "dice":
        return [("kind", DIE_KINDS), ("pips", (1, 2, 3, 4, 5, 6))]
    if kind == "cards":
        fields: list[tuple[str, tuple[Any, ...]]] = [("colour", CARD_COLOURS.get(game, ())),
                                                     ("value", CARD_VALUES.get(game, ()))]
        if rows > 1:
            fields.append(("row", tuple(range(rows))))
        return fields
    return []


def new_piece(kind: str, objects: list[dict[str, Any]], fields: dict[str, Any]) -> dict[str, Any]:
    """A piece added by hand, placed after the others so the order stays as entered."""
    right = max((int(o["box"][0]) + int(o["box"][2]) for o in objects if o.get("box")), default=0)
    piece = {"confidence": 1.0, "box": [right + 1, 0, 0, 0], "by_hand": True}
    if kind == "cards":
        row = int(fields.get("row", 0))
        piece.update(row=row, position=sum(1 for o in objects if int(o.get("row", 0)) == row))
    piece.update(fields)
    return piece
