"""What every game engine shares: the error type, bilingual text, outcomes and the Game base.

A game's state changes only by applying events (plain record dicts, parsed by the game into
frozen dataclasses). ``apply`` checks the whole event before it changes anything, so a refused
event leaves the game exactly as it was.
"""

from __future__ import annotations

from abc import ABC, abstractmethod
from dataclasses import dataclass, field
from typing import Any, ClassVar

LANGUAGES = ("en", "nl")


@dataclass(frozen=True)
class Text:
    """A sentence in English and Dutch."""

    en: str
    nl: str

    def __call__(self, lang: str = "en") -> str:
        return self.nl if lang == "nl" else self.en

    def __str__(self) -> str:
        return self.en

    def __add__(self, other: Text) -> Text:
        return Text(f"{self.en} {other.en}".strip(), f"{self.nl} {other.nl}".strip())


class RulesError(Exception):
    """An event or a setup the rules refuse. ``text`` says why, in words a player understands."""

    def __init__(self, message: str | Text):
        self.text = message if isinstance(message, Text) else Text(message, message)
        super().__init__(self.text.en)


class IllegalEvent(RulesError):
    """An event that cannot happen now; the game is unchanged."""


class SetupError(RulesError):
    """Players or options a game cannot start with."""


@dataclass(frozen=True)
class Outcome:
    """How a game ended and who won (several names on a shared win, ``("Billy",)`` for Billy)."""

    termination: str
    winners: tuple[str, ...]
    why: Text = Text("", "")


@dataclass(frozen=True)
class Applied:
    """What applying one event did: a one-sentence explanation and signals for lights and sound.

    Signals are short words the shells react to: ``reset``, ``extra-turn``, ``bust``,
    ``round-end``, ``game-over``.
    """

    explanation: Text
    signals: frozenset[str] = field(default_factory=frozenset)


def names_list(names: list[str] | tuple[str, ...], lang: str = "en") -> str:
    """'Ann', 'Ann and Bob', 'Ann, Bob and Cy' (Dutch: 'en')."""
    names = list(names)
    word = "en" if lang == "nl" else "and"
    if len(names) <= 1:
        return "".join(names)
    return f"{', '.join(names[:-1])} {word} {names[-1]}"


def both(en: str, nl: str) -> Text:
    return Text(en, nl)


class Game(ABC):
    """One game in progress. Subclasses set ``name`` and implement the rules.

    ``players`` are names in clockwise seat order; ``options`` is the record's options object.
    """

    name: ClassVar[str]
    title: ClassVar[Text]
    min_players: ClassVar[int]
    max_players: ClassVar[int]
    option_keys: ClassVar[frozenset[str]] = frozenset()

    def __init__(self, players: list[str], options: dict[str, Any] | None = None):
        options = {} if options is None else options
        check_players(players, self.min_players, self.max_players)
        if not isinstance(options, dict):
            raise SetupError("options must be an object")
        unknown = sorted(set(options) - self.option_keys)
        if unknown:
            raise SetupError(f"unknown option {unknown[0]!r} for {self.name}")
        self.players: tuple[str, ...] = tuple(players)
        self.options = options
        self.history: list[dict[str, Any]] = []

    # -- the rules ---------------------------------------------------------------------------
    def apply(self, event: dict[str, Any]) -> Applied:
        """Check and apply one record event; on IllegalEvent nothing has changed."""
        if not isinstance(event, dict):
            raise IllegalEvent("an event must be an object with a 'type'")
        if self.outcome is not None:
            raise IllegalEvent(both("the game is over: no more events",
                                    "het spel is afgelopen: geen zetten meer"))
        applied = self._apply(event)
        self.history.append(event)
        return applied

    @abstractmethod
    def _apply(self, event: dict[str, Any]) -> Applied:
        """Validate fully, then change the state; raise IllegalEvent before any change."""

    @property
    @abstractmethod
    def outcome(self) -> Outcome | None:
        """None while the game goes on."""

    @property
    def is_over(self) -> bool:
        return self.outcome is not None

    @abstractmethod
    def scores(self) -> dict[str, int]:
        """Per player, the number the record contract names for this game."""

    @abstractmethod
    def next_player(self) -> str | None:
        """Who acts next; None when the game is over."""

    def extra(self) -> dict[str, Any]:
        """Game-specific keys added to the replay summary."""
        return {}

    def summary(self) -> dict[str, Any]:
        """The ``companion replay --json`` object."""
        out = self.outcome
        doc: dict[str, Any] = {
            "game": self.name,
            "scores": self.scores(),
            "over": out is not None,
            "winners": list(out.winners) if out else [],
            "next": None if out else self.next_player(),
        }
        doc.update(self.extra())
        return doc

    @abstractmethod
    def score_pad(self, lang: str = "en") -> list[list[str]]:
        """The paper score pad as rows of cells; the first row is the header."""

    def view(self) -> dict[str, Any]:
        """Everything a screen shows, derived from the state (immutable data only)."""
        return self.summary()


def check_players(players: Any, lo: int, hi: int) -> None:
    if not isinstance(players, list) or not all(isinstance(p, str) and p.strip() for p in players):
        raise SetupError("players must be a list of names")
    if len(set(players)) != len(players):
        raise SetupError("two players have the same name")
    if not lo <= len(players) <= hi:
        raise SetupError(f"this game is for {lo} to {hi} players, not {len(players)}")


def require(cond: bool, en: str, nl: str | None = None) -> None:
    """Raise IllegalEvent with a player-readable message unless ``cond`` holds."""
    if not cond:
        raise IllegalEvent(Text(en, nl or en))


def field_of(event: dict[str, Any], key: str, kind: type | tuple[type, ...], what: str) -> Any:
    """Fetch a required event field of the right JSON type, or refuse the event."""
    kinds = kind if isinstance(kind, tuple) else (kind,)
    name = event.get("type", "")
    if key not in event:
        raise IllegalEvent(Text(f"the {name} event needs '{key}' ({what})",
                                f"de zet {name} mist '{key}' ({what})"))
    value = event[key]
    if (isinstance(value, bool) and bool not in kinds) or not isinstance(value, kinds):
        raise IllegalEvent(Text(f"'{key}' must be {what}", f"'{key}' moet zijn: {what}"))
    return value


def check_keys(event: dict[str, Any], allowed: set[str]) -> None:
    extra = sorted(set(event) - allowed - {"type"})
    if extra:
        name = event.get("type")
        raise IllegalEvent(Text(f"the {name} event has an unknown field '{extra[0]}'",
                                f"de zet {name} heeft een onbekend veld '{extra[0]}'"))


def format_table(rows: list[list[str]]) -> str:
    """Render score-pad rows as an aligned plain-text table."""
    if not rows:
        return ""
    widths = [max(len(str(r[i])) if i < len(r) else 0 for r in rows) for i in range(max(map(len, rows)))]
    lines = []
    for n, r in enumerate(rows):
        cells = [str(c).rjust(widths[i]) if i and _numeric(str(c)) else str(c).ljust(widths[i])
                 for i, c in enumerate(r)]
        lines.append("  ".join(cells).rstrip())
        if n == 0:
            lines.append("  ".join("-" * w for w in widths))
    return "\n".join(lines)


def _numeric(cell: str) -> bool:
    """Cells that start with a number (or are a crossed-out X) are right-aligned."""
    first = cell.split(" ", 1)[0]
    return first.lstrip("+-").isdigit() or cell in ("X", "")
